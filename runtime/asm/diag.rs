//! Assembler errors, rendered the way `codegen/src/diag.rs` renders doc errors (codespan's
//! default layout, rustc style), by hand: the crate has no dependencies.
//!
//! ```text
//! error: expected a data type (ud d uw w ub b df f uq q hf bf tf32 hf8 bf8 e2m1)
//!   ┌─ k.visaasm:3:27
//!   │
//! 3 │ .decl V0032 v_type=G type=xx num_elts=8
//!   │                           ^^ found `xx`
//! ```

use crate::object::Severity;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// One error of one source file: where (1-based line, 0-based byte column of the line), what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file name as given to the assembler.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 0-based byte column in the line.
    pub column: usize,
    /// Bytes the caret covers (at least 1 when shown).
    pub len: usize,
    /// The headline: what was expected.
    pub message: String,
    /// The text under the caret: what was found.
    pub label: String,
    /// The whole source line, for the excerpt.
    pub source_line: String,
    /// An error, or a warning of the checks (what the docs forbid and Intel's verifier
    /// accepts), which `visa asm` prints and assembles anyway unless `--strict`.
    pub severity: Severity,
}

impl Diagnostic {
    /// `file:line:col` with a 1-based column counted in characters, as codespan does.
    pub fn location(&self) -> String {
        let col = self
            .source_line
            .get(..self.column.min(self.source_line.len()))
            .map_or(self.column, |s| s.chars().count());
        format!("{}:{}:{}", self.file, self.line, col + 1)
    }
}

/// Renders every diagnostic, each followed by a blank line.
pub fn render(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let number = format!("{}", d.line);
        let pad = " ".repeat(number.len());
        let kind = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{kind}: {}", d.message);
        let _ = writeln!(out, "{pad} ┌─ {}", d.location());
        let _ = writeln!(out, "{pad} │");
        let _ = writeln!(out, "{number} │ {}", d.source_line);
        let (before, under) = caret_span(&d.source_line, d.column, d.len);
        let _ = write!(out, "{pad} │ {}{}", " ".repeat(before), "^".repeat(under));
        if d.label.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, " {}", d.label);
        }
        out.push('\n');
    }
    out
}

/// Characters before the caret and characters under it (at least one).
fn caret_span(line: &str, column: usize, len: usize) -> (usize, usize) {
    let column = column.min(line.len());
    let before: Vec<char> = line.get(..column).unwrap_or(line).chars().collect();
    let under = line
        .get(column..(column + len).min(line.len()))
        .map_or(0, |s| s.chars().count());
    (before.len(), under.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn layout_follows_codespan() {
        let d = Diagnostic {
            file: "k.visaasm".to_string(),
            line: 12,
            column: 26,
            len: 2,
            message: "expected a data type".to_string(),
            label: "found `xx`".to_string(),
            source_line: ".decl V0032 v_type=G type=xx num_elts=8".to_string(),
            severity: Severity::Error,
        };
        let want = "error: expected a data type\n   ┌─ k.visaasm:12:27\n   │\n12 │ .decl V0032 v_type=G type=xx num_elts=8\n   │                           ^^ found `xx`\n\n";
        assert_eq!(render(&[d]), want);
    }

    #[test]
    fn caret_at_the_end_of_the_line_is_one_wide() {
        assert_eq!(caret_span("abc", 3, 0), (3, 1));
        assert_eq!(caret_span("abc", 99, 5), (3, 1));
        assert_eq!(caret_span("éa", 2, 1), (1, 1));
    }
}
