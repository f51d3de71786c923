//! The vISA code generator: docs → schema → Rust crate and reference tables.
//!
//! The pipeline is visible in the modules: [`parse`] reads Markdown into the [`schema`],
//! [`analyze`] checks it and decides layouts (so emitters cannot fail), [`emit`] renders
//! Rust and docs into a map of path → contents. Only `xtask` touches the disk.

pub mod analyze;
pub mod config;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod errata;
pub mod parse;
pub mod schema;
pub mod source_file;
pub mod timings;
pub mod vocab;

#[cfg(test)]
mod edges;
#[cfg(test)]
mod testing;

use diag::Diagnostic;
use std::collections::BTreeMap;
use timings::Timings;

/// The output of a generation: path (relative to the generated crate) → contents.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    /// Each file's contents.
    pub files: BTreeMap<String, String>,
    /// Warnings raised on the way (errors make [`generate`] fail instead). A part of a doc the
    /// generator cannot read is a warning that says what it left out ([`diag::Degrades`]).
    pub diagnostics: Vec<Diagnostic>,
    /// The errata applied to the docs.
    pub errata: Vec<schema::Erratum>,
}

/// Runs the whole pipeline as a pure function. A doc the generator cannot read degrades only
/// the part it describes (a warning each); only errors that leave nothing to generate (an
/// erratum that cannot be read or no longer applies) fail the run, with every diagnostic.
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
    parse_mapped(docs, errata, &Timings::off()).0
}

fn parse_mapped(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
    timings: &Timings,
) -> (parse::Parsed, errata::SourceMap, Vec<parse::SourceFile>) {
    let corrected = timings.time("errata", || errata::apply(docs, errata));
    let mut parsed = timings.time("parse", || parse::parse_spec(&corrected.files));
    for d in &mut parsed.diagnostics {
        corrected.map.remap(d);
    }
    let mut diagnostics = corrected.diagnostics;
    diagnostics.append(&mut parsed.diagnostics);
    parsed.diagnostics = diagnostics;
    parsed.spec.errata = corrected.applied;
    place_degraded(&mut parsed.spec, &parsed.diagnostics);
    (parsed, corrected.map, corrected.files)
}

/// The places a degraded part's generated error quotes, from the diagnostics as remapped (a
/// line an erratum added points at the erratum).
fn place_degraded(spec: &mut schema::Spec, diags: &[Diagnostic]) {
    let first = |doc: &str, part: diag::Degrades| {
        diags
            .iter()
            .find(|d| d.doc() == doc && d.degrades() == part)
    };
    for l in &mut spec.left_out {
        if let Some(d) = first(&l.doc, diag::Degrades::Doc) {
            l.why = parse::place(d);
        }
    }
    for i in &mut spec.instructions {
        if let (Some(schema::Syntax::Unreadable { why }), Some(d)) =
            (&mut i.syntax, first(&i.source, diag::Degrades::TextForm))
        {
            *why = format!(
                "{}:{}:{}: its `## Text` template cannot be read (warning {})",
                d.file, d.line, d.column, d.code
            );
        }
    }
}

/// [`generate`] on docs corrected by `errata`; diagnostics as for [`parse_corrected`].
pub fn generate_corrected(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
    opts: &emit::Options,
) -> Result<Generated, Vec<Diagnostic>> {
    generate_pinned(docs, errata, &analyze::naming::Pins::default(), opts)
}

/// [`generate_corrected`] with the names `pins` pins (`[[name]]` of the spec directory's
/// `regen.toml`, [`config::Config::pins`]), reporting names from descriptions that no pin
/// names when `pins.report` (as regen does).
pub fn generate_pinned(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
    pins: &analyze::naming::Pins,
    opts: &emit::Options,
) -> Result<Generated, Vec<Diagnostic>> {
    generate_timed(docs, errata, pins, opts, &Timings::off())
}

/// [`generate_pinned`], recording how long each stage took in `timings`.
pub fn generate_timed(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
    pins: &analyze::naming::Pins,
    opts: &emit::Options,
    timings: &Timings,
) -> Result<Generated, Vec<Diagnostic>> {
    let (mut parsed, map, corrected) = parse_mapped(docs, errata, timings);
    let mut diagnostics = parsed.diagnostics;
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    // The docs are checked against their own prose beside the analysis (of the docs kept).
    let (model, pages, mut contradictions) = analyze_degrading(
        &mut parsed.spec,
        &map,
        pins,
        &mut diagnostics,
        timings,
        |spec| {
            timings.time("contradictions", || {
                analyze::contradictions::check(spec, &corrected)
            })
        },
    );
    for d in &mut contradictions {
        map.remap(d);
    }
    diagnostics.extend(contradictions);
    if parsed.spec.instructions.is_empty() {
        if let Some(first) = parsed.spec.left_out.first() {
            // Every doc left out: a crate of no instruction helps no one.
            let at = diagnostics.iter().find(|d| d.doc() == first.doc);
            let mut d = Diagnostic::new(
                diag::Code::NothingReadable,
                &first.doc,
                at.map_or_else(Default::default, |d| d.span),
                format!(
                    "none of the {} docs can be read; nothing was generated",
                    parsed.spec.left_out.len()
                ),
            )
            .expected("at least one doc the generator can read (see the warnings above)");
            if let Some(at) = at {
                (d.file, d.corrected_doc) = (at.file.clone(), at.corrected_doc.clone());
            }
            diagnostics.push(d);
        }
    }
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    // What the crate exposes, per doc (`diff::SNAPSHOT`), is one of the files emit renders.
    let files = timings.time("emit (wall)", || {
        emit::render_with(&model, &pages, opts, timings)
    });
    Ok(Generated {
        files,
        diagnostics,
        errata: parsed.spec.errata,
    })
}

/// Analyses `spec`; a doc the analysis cannot accept (an unknown platform, a condition naming
/// no value: [`diag::Degrades::Doc`]) is left out and the rest analysed again, so emitters
/// only ever see docs they can render. `beside` runs on the docs analysed, on another core
/// than the analysis; its result is that of the docs kept.
fn analyze_degrading<R: Send>(
    spec: &mut schema::Spec,
    map: &errata::SourceMap,
    pins: &analyze::naming::Pins,
    diagnostics: &mut Vec<Diagnostic>,
    timings: &Timings,
    beside: impl Fn(&schema::Spec) -> R + Sync,
) -> (analyze::Model, emit::docs::Prepared, R) {
    loop {
        // The reference pages need the docs as written only: their content is made while
        // the schema is analysed (each page's rows when it is rendered).
        let spec_read: &schema::Spec = spec;
        // Each instruction on every core first; then what spans them (partly sequential)
        // beside the reference pages and `beside`, which have the other core to themselves.
        let insts = timings.time("analyze: instructions", || {
            analyze::instructions(&spec_read.instructions, pins)
        });
        let ((model, mut analysis), (pages, other)) = rayon::join(
            || timings.time("analyze", || analyze::finish(spec_read, insts)),
            || {
                let pages = timings.time("reference pages", || {
                    emit::docs::Prepared::new(analyze::reference::build(spec_read))
                });
                (pages, beside(spec_read))
            },
        );
        for d in &mut analysis {
            map.remap(d);
        }
        let bad: std::collections::BTreeSet<String> = analysis
            .iter()
            .filter(|d| d.degrades() == diag::Degrades::Doc)
            .map(|d| d.doc().to_string())
            .collect();
        if bad.is_empty() {
            diagnostics.extend(analysis);
            return (model, pages, other);
        }
        for d in analysis.iter_mut().filter(|d| bad.contains(d.doc())) {
            if d.degrades() == diag::Degrades::Doc {
                d.message
                    .push_str(&format!("; {} is left out of the crate", d.doc()));
            }
            diagnostics.push(d.clone());
        }
        let (kept, out): (Vec<_>, Vec<_>) = std::mem::take(&mut spec.instructions)
            .into_iter()
            .partition(|i| !bad.contains(&i.source));
        spec.instructions = kept;
        for i in out {
            let why = diagnostics
                .iter()
                .find(|d| d.doc() == i.source && d.degrades() == diag::Degrades::Doc)
                .map(parse::place)
                .unwrap_or_default();
            spec.left_out.push(schema::LeftOut {
                doc: i.source,
                opcode: Some(i.opcode.value),
                sub_opcode: i.sub_opcode.map(|s| s.value),
                why,
            });
        }
    }
}

/// Parses and analyses `docs` corrected by `errata`, for comparing doc sets
/// ([`diff::compare`]): the view of what the crate generated from them would expose, with the
/// diagnostics of the run (`Err` when any is an error).
pub fn api_of(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
) -> Result<(diff::view::Api, Vec<Diagnostic>), Vec<Diagnostic>> {
    api_of_pinned(docs, errata, &analyze::naming::Pins::default())
}

/// [`api_of`] with the names `pins` pins, as [`generate_pinned`] takes them.
pub fn api_of_pinned(
    docs: &[parse::SourceFile],
    errata: &[parse::SourceFile],
    pins: &analyze::naming::Pins,
) -> Result<(diff::view::Api, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (mut parsed, map, _) = parse_mapped(docs, errata, &Timings::off());
    let mut diagnostics = std::mem::take(&mut parsed.diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    // The same degrading analysis as a regen: the view is of the crate regen would write.
    let off = Timings::off();
    let (model, _, ()) =
        analyze_degrading(&mut parsed.spec, &map, pins, &mut diagnostics, &off, |_| ());
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    Ok((diff::view::api(&model), diagnostics))
}
