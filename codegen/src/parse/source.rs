//! A doc's text with a line index, so any byte offset becomes a [`Span`] with line and column.

use crate::schema::Span;

pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
    line_starts: Vec<usize>,
}

/// One line of the text: its byte offset and contents without the line ending.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub start: usize,
    pub text: &'a str,
}

impl<'a> Source<'a> {
    pub fn new(name: &'a str, text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source {
            name,
            text,
            line_starts,
        }
    }

    /// The span of bytes `start..end`, clamped to the text, with 1-based line and column
    /// (column counted in characters).
    pub fn span(&self, start: usize, end: usize) -> Span {
        let start = start.min(self.text.len());
        let end = end.clamp(start, self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= start).max(1);
        let line_start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        let column = self
            .text
            .get(line_start..start)
            .map_or(1, |s| s.chars().count() + 1);
        Span {
            start,
            end,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }

    /// The lines of `start..end`, each with its byte offset.
    pub fn lines(&self, start: usize, end: usize) -> Vec<Line<'a>> {
        let text = self.text;
        let mut out = Vec::new();
        let mut at = start.min(text.len());
        let end = end.min(text.len());
        while at < end {
            let rest = text.get(at..end).unwrap_or("");
            let len = rest.find('\n').unwrap_or(rest.len());
            let raw = rest.get(..len).unwrap_or("");
            out.push(Line {
                start: at,
                text: raw.strip_suffix('\r').unwrap_or(raw),
            });
            at += len + 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_have_one_based_lines_and_character_columns() {
        let s = Source::new("x.md", "ab\nc→d\n\nef");
        assert_eq!(
            s.span(0, 1),
            Span {
                start: 0,
                end: 1,
                line: 1,
                column: 1
            }
        );
        assert_eq!(s.span(3, 4).line, 2);
        let arrow_end = "ab\nc→".len();
        assert_eq!(s.span(arrow_end, arrow_end + 1).column, 3);
        assert_eq!(s.span(9, 10).line, 3);
        assert_eq!(s.span(10, 11).line, 4);
        // Out of range offsets are clamped, never a panic.
        assert_eq!(s.span(100, 200).start, s.text.len());
    }

    #[test]
    fn lines_carry_offsets_and_drop_line_endings() {
        let s = Source::new("x.md", "a\r\nbc\n\nd");
        let lines: Vec<_> = s
            .lines(0, s.text.len())
            .iter()
            .map(|l| (l.start, l.text))
            .collect();
        assert_eq!(lines, vec![(0, "a"), (3, "bc"), (6, ""), (7, "d")]);
    }
}
