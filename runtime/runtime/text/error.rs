//! Errors of the text layer. A parse error says where (byte column of the parsed text) and what
//! was expected there; a print error says which value has no text form.

use alloc::string::String;
use core::fmt;

/// Parsing failed at byte `column` (0-based) of the text the [`Cursor`](super::Cursor) was made
/// from; `expected` says what would have been accepted there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub column: usize,
    pub expected: &'static str,
    /// The text found at `column`, up to the next space (empty at the end of the input).
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: expected {}, found ",
            self.column + 1,
            self.expected
        )?;
        if self.found.is_empty() {
            f.write_str("the end of the text")
        } else {
            write!(f, "`{}`", self.found)
        }
    }
}

/// A value that has no text form, so printing it would not parse back to the same value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrintError {
    /// No name for this id: `kind` is "general variable", "label", ...
    NoName { kind: &'static str, id: u32 },
    /// A field whose value IGC's text cannot spell (`what` names the field and the rule).
    Unprintable { what: &'static str, value: u64 },
    /// The instruction has no text form here: `why` says what is missing (a special form not
    /// written yet, a slot without a text rule, a field the text cannot carry).
    NoTextForm {
        instruction: &'static str,
        why: &'static str,
    },
}

impl fmt::Display for PrintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrintError::NoName { kind, id } => write!(f, "no name for {kind} {id}"),
            PrintError::Unprintable { what, value } => {
                write!(f, "{what}: value {value:#x} has no text form")
            }
            PrintError::NoTextForm { instruction, why } => {
                write!(f, "{instruction} has no text form: {why}")
            }
        }
    }
}
