//! The vISA code generator: docs → schema → Rust crate and reference tables.
//!
//! The pipeline is visible in the modules: [`parse`] reads Markdown into the [`schema`],
//! [`analyze`] checks it and decides layouts (so emitters cannot fail), [`emit`] renders
//! Rust and docs into a map of path → contents. Only `xtask` touches the disk.

pub mod analyze;
pub mod diag;
pub mod emit;
pub mod layout;
pub mod parse;
pub mod schema;

use diag::Diagnostic;
use std::collections::BTreeMap;

/// The output of a generation: path (relative to the generated crate) → contents.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub files: BTreeMap<String, String>,
    /// Warnings raised on the way (errors make [`generate`] fail instead).
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs the whole pipeline as a pure function. Any error in any doc fails the whole run, with
/// every diagnostic of the run.
pub fn generate(
    files: &[parse::SourceFile],
    opts: &emit::Options,
) -> Result<Generated, Vec<Diagnostic>> {
    let parsed = parse::parse_spec(files);
    let mut diagnostics = parsed.diagnostics;
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    let (model, analysis) = analyze::analyze(&parsed.spec);
    diagnostics.extend(analysis);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    let mut files = emit::rust::render(&model, opts);
    emit::rust::object::render(&parsed.spec, opts, &mut files);
    files.extend(emit::docs::render(&parsed.spec, opts));
    Ok(Generated { files, diagnostics })
}
