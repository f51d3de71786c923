//! Diagnostics: every problem found in a doc, with a stable code, file, line and column.
//!
//! Rendering uses codespan-reporting: it prints rustc-style caret excerpts from plain byte
//! ranges, needs no trait plumbing on our types, and has no runtime dependencies worth noting.

use crate::schema::Span;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One diagnostic. `file` is relative to the spec directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `V0103`; listed in `codegen/DIAGNOSTICS.md`.
    pub code: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// What was expected instead, when that can be said.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expected: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
