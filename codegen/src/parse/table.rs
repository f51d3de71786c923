//! Table rows read from the source text, cell by cell with byte offsets.
//!
//! pulldown-cmark's GFM model drops cells beyond the header's width, which silently deletes
//! fields (`Src` of the OWORD_ST seed). The raw row is the truth; the model is the cross-check.

/// A cell: its trimmed text and the byte offset of that text in the doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell<'a> {
    pub text: &'a str,
    pub start: usize,
}

/// Is this line a table row (`| a | b |`)?
pub fn is_row(line: &str) -> bool {
    line.trim_start().starts_with('|')
}

/// Is this a delimiter row (`| --- | :-: |`)?
pub fn is_delimiter(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|')
        && t.contains('-')
        && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// Splits a row at unescaped `|`, dropping the empty edges before the first and after the last
/// pipe. `line_start` is the row's byte offset in the doc.
pub fn cells(line: &str, line_start: usize) -> Vec<Cell<'_>> {
    let mut bounds = Vec::new();
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '|' if !escaped => bounds.push(i),
            _ => {}
        }
        escaped = false;
    }
    let trimmed_end = line.trim_end().len();
    let mut out = Vec::new();
    let leading_pipe = line.trim_start().starts_with('|');
    let mut start = if leading_pipe {
        match bounds.first() {
            Some(&b) => b + 1,
            None => 0,
        }
    } else {
        0
    };
    let seps = if leading_pipe {
        bounds.get(1..).unwrap_or(&[])
    } else {
        &bounds[..]
    };
    for &b in seps {
        out.push(cell(line, start, b, line_start));
        start = b + 1;
    }
    // Text after the last pipe is a cell only if the row does not end with a pipe.
    if start < trimmed_end {
        out.push(cell(line, start, trimmed_end, line_start));
    }
    out
}

fn cell(line: &str, from: usize, to: usize, line_start: usize) -> Cell<'_> {
    let raw = line.get(from..to).unwrap_or("");
    let lead = raw.len() - raw.trim_start().len();
    Cell {
        text: raw.trim(),
        start: line_start + from + lead,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<&str> {
        cells(line, 0).into_iter().map(|c| c.text).collect()
    }

    #[test]
    fn splits_cells_and_keeps_empty_inner_cells() {
        assert_eq!(
            texts("| 0x36(OWORD_ST) | Size | Surface | Offset | Src |"),
            vec!["0x36(OWORD_ST)", "Size", "Surface", "Offset", "Src"]
        );
        assert_eq!(texts("|   | Dst  |   |"), vec!["", "Dst", ""]);
        assert_eq!(texts("| | |"), vec!["", ""]);
    }

    #[test]
    fn escaped_pipes_stay_inside_a_cell_and_offsets_point_at_text() {
        let row = "| a \\| b | c |";
        let c = cells(row, 100);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].text, "a \\| b");
        assert_eq!(c[1].start, 100 + row.find('c').unwrap());
    }

    #[test]
    fn delimiter_rows_are_recognised() {
        assert!(is_delimiter("| --- | --- |"));
        assert!(is_delimiter("| --- | ---| ---|"));
        assert!(!is_delimiter("| a | --- |"));
    }
}
