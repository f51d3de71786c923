//! `visa asm` refuses text whose instructions break the rules `visa check` applies: the
//! failures of [`crate::object::File::validate`] on the assembled file, each placed at the
//! `file:line:col` of the instruction (or label) line it comes from.

use super::directives::{read_source, Errors};
use super::syntax::{Body, RoutineKind};
use super::{Diagnostic, Source};
use crate::object::verify::{RoutineRef, Target};
use crate::object::File;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Where an instruction's text is: the source's name, the 1-based line, the 0-based byte
/// column and length of its code, and the whole line.
type Place<'a> = (&'a str, usize, usize, usize, &'a str);

/// The failures of `file` (assembled from `sources`) on `target` (a [`crate::Platform`] of the docs
/// or one of Intel's), as diagnostics at the lines the instructions come from. Empty when the
/// file is valid.
pub fn check(sources: &[Source<'_>], file: &File, target: impl Into<Target>) -> Vec<Diagnostic> {
    let failures = file.validate(target);
    if failures.is_empty() {
        return Vec::new();
    }
    // Every instruction line of every routine, in the order assemble() puts routines.
    let mut kernels: Vec<Vec<Place<'_>>> = Vec::new();
    let mut functions: Vec<Vec<Place<'_>>> = Vec::new();
    for src in sources {
        let mut errors = Errors {
            file: src.name,
            list: Vec::new(),
        };
        for r in read_source(src.text, &mut errors) {
            let places = r
                .body
                .iter()
                .map(|b| match b {
                    Body::Label { span, .. } => (
                        src.name,
                        span.line.number,
                        span.column,
                        span.len,
                        span.line.text,
                    ),
                    Body::Instruction(l) => (src.name, l.number, l.column, l.code.len(), l.text),
                })
                .collect();
            match r.kind {
                RoutineKind::Kernel => kernels.push(places),
                RoutineKind::Function => functions.push(places),
            }
        }
    }
    failures
        .into_iter()
        .map(|f| {
            let places = match f.routine_ref {
                RoutineRef::Kernel(i) => kernels.get(i),
                RoutineRef::Function(i) => functions.get(i),
            };
            let place = f
                .instruction
                .and_then(|(n, _)| places.and_then(|p| p.get(n)).copied());
            let (file, line, column, len, text) =
                place.unwrap_or((sources.first().map_or("", |s| s.name), 1, 0, 0, ""));
            Diagnostic {
                file: file.to_string(),
                line,
                column,
                len,
                message: format!(
                    "{}: field {}: {} ({})",
                    f.routine, f.field, f.rule, f.source
                ),
                label: String::from(if f.is_error() {
                    "breaks this rule; `--no-check` assembles it anyway"
                } else {
                    "the doc forbids it, Intel's verifier accepts it; `--strict` refuses it"
                }),
                source_line: text.to_string(),
                severity: f.severity,
            }
        })
        .collect()
}
