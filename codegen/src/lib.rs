//! The vISA code generator: docs → schema → Rust crate and reference tables.
//!
//! The pipeline is visible in the modules: [`parse`] reads Markdown into the [`schema`],
//! [`analyze`] checks it and decides layouts (so emitters cannot fail), [`emit`] renders
//! Rust and docs into a map of path → contents. Only `xtask` touches the disk.

pub mod analyze;
pub mod config;
pub mod diag;
pub mod emit;
pub mod errata;
pub mod layout;
pub mod par;
pub mod parse;
pub mod schema;
pub mod timings;

use diag::Diagnostic;
use std::collections::BTreeMap;

/// The output of a generation: path (relative to the generated crate) → contents.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub files: BTreeMap<String, String>,
    /// Warnings raised on the way (errors make [`generate`] fail instead).
    pub diagnostics: Vec<Diagnostic>,
    /// The errata applied to the docs.
    pub errata: Vec<schema::Erratum>,
}

/// Runs the whole pipeline as a pure function. Any error in any doc fails the whole run, with
/// every diagnostic of the run.
pub fn generate(
    files: &[parse::SourceFile],
    opts: &emit::Options,
) -> Result<Generated, Vec<Diagnostic>> {
    generate_corrected(files, &[], opts)
}

/// Parses `docs` corrected by `errata` (see [`errata`]): the spec records the errata applied,
/// and every diagnostic points at a real file (the doc, or the erratum a corrected line comes
/// from). An erratum that cannot be read or no longer applies is an error.
pub fn parse_corrected(docs: &[parse::SourceFile], errata: &[parse::SourceFile]) -> parse::Parsed {
    parse_mapped(docs, errata).0
}

fn parse_mapped(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
) -> (parse::Parsed, errata::SourceMap, Vec<parse::SourceFile>) {
    let corrected = timings::time("errata", || errata::apply(docs, errata));
    let mut parsed = timings::time("parse (wall)", || parse::parse_spec(&corrected.files));
    for d in &mut parsed.diagnostics {
        corrected.map.remap(d);
    }
    let mut diagnostics = corrected.diagnostics;
    diagnostics.append(&mut parsed.diagnostics);
    parsed.diagnostics = diagnostics;
    parsed.spec.errata = corrected.applied;
    (parsed, corrected.map, corrected.files)
}

/// [`generate`] on docs corrected by `errata`; diagnostics as for [`parse_corrected`].
pub fn generate_corrected(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
    opts: &emit::Options,
) -> Result<Generated, Vec<Diagnostic>> {
    let (parsed, map, corrected) = parse_mapped(docs, errata);
    let mut diagnostics = parsed.diagnostics;
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    // The reference pages need the schema only: their rows are made while it is analysed.
    let ((model, mut analysis), pages) = par::join(
        || timings::time("analyze", || analyze::analyze(&parsed.spec)),
        || emit::docs::Prepared::new(&parsed.spec),
    );
    analysis.extend(analyze::contradictions::check(&parsed.spec, &corrected));
    for d in &mut analysis {
        map.remap(d);
    }
    diagnostics.extend(analysis);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    let files = timings::time("emit (wall)", || {
        emit::render_with(&model, &parsed.spec, &pages, opts)
    });
    Ok(Generated {
        files,
        diagnostics,
        errata: parsed.spec.errata,
    })
}
