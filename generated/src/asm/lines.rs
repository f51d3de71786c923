//! Source lines with comments removed, classified: Intel prints ` /// $N` after instructions and
//! `// .decl` lines for predefined variables; its parser also takes `/* */` comments (note
//! §4.1). Quoted strings keep `//` (`FILE "a//b.cl"`).

use alloc::vec::Vec;

/// One non-blank line after comment removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLine<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The whole original line (for diagnostics).
    pub text: &'a str,
    /// Byte column in `text` where `code` starts.
    pub column: usize,
    /// The line without comments and surrounding blanks.
    pub code: &'a str,
}

/// The lines of `source` that hold something besides comments and blanks.
pub fn code_lines(source: &str) -> Vec<SourceLine<'_>> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, text) in source.lines().enumerate() {
        let (start, end) = code_range(text, &mut in_block);
        let raw = text.get(start..end).unwrap_or("");
        let lead = raw.len() - raw.trim_start().len();
        let code = raw.trim();
        if !code.is_empty() {
            out.push(SourceLine {
                number: i + 1,
                text,
                column: start + lead,
                code,
            });
        }
    }
    out
}

/// The byte range of `line` before its first comment, skipping a `/* */` block that started
/// on an earlier line. A block comment in the middle of a line ends the code there (the rest
/// after `*/` is ignored; Intel never writes one).
fn code_range(line: &str, in_block: &mut bool) -> (usize, usize) {
    let bytes = line.as_bytes();
    let mut start = 0;
    if *in_block {
        match line.find("*/") {
            Some(at) => {
                *in_block = false;
                start = at + 2;
            }
            None => return (0, 0),
        }
    }
    let mut quoted = false;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'/') => return (start, i),
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'*') => {
                *in_block = !line[i + 2..].contains("*/");
                return (start, i);
            }
            _ => {}
        }
        i += 1;
    }
    (start, bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_strings_stay() {
        let src = "// .decl V0 v_type=G v_name=%null\n\n    mov (M1, 1) V0032(0,0)<1> 0x0:d  /// $3\n    FILE \"a//b.cl\"\n/* x\n y */ .version 4.1\n";
        let lines = code_lines(src);
        let codes: Vec<&str> = lines.iter().map(|l| l.code).collect();
        assert_eq!(
            codes,
            [
                "mov (M1, 1) V0032(0,0)<1> 0x0:d",
                "FILE \"a//b.cl\"",
                ".version 4.1"
            ]
        );
        assert_eq!((lines[0].number, lines[0].column), (3, 4));
        assert_eq!((lines[2].number, lines[2].column), (6, 6));
    }
}
