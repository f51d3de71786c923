//! Errata: reviewable corrections of upstream docs, applied before parsing.
//!
//! An erratum is a file `NAME.patch`: a header of `Key: value` lines saying what the doc says,
//! what Intel's tools do and the evidence, then one unified diff of one doc (paths relative to
//! the spec directory, `a/` and `b/` prefixes). The diff is parsed and applied with `diffy`;
//! errata of one doc apply in file-name order. Nothing else in the generator knows a doc was
//! corrected, except through [`SourceMap`]: every line of a corrected doc remembers where it
//! came from (the doc, or the `+` line of an erratum), so diagnostics still point at a real line
//! a person can open.

use crate::diag::{Code, Diagnostic};
use crate::parse::SourceFile;
pub use crate::schema::Erratum as Applied;
use crate::schema::Span;
use std::collections::BTreeMap;

/// Header keys every erratum must have, in the order they are written.
pub const REQUIRED_KEYS: [&str; 4] = ["Erratum", "Doc says", "Intel does", "Evidence"];

/// Where a line of a corrected doc came from: a file and the byte offset of the line's text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    file: String,
    offset: usize,
}

/// Line provenance of the corrected docs, to move diagnostics back to real files.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Corrected doc name → (line start offsets in the corrected text, origin of each line).
    docs: BTreeMap<String, (Vec<usize>, Vec<Origin>)>,
    /// Texts of every real file a diagnostic may now point at (docs and errata).
    texts: BTreeMap<String, String>,
}

/// Docs with their errata applied.
#[derive(Clone, Debug, Default)]
pub struct Corrected {
    /// The docs to parse: corrected where an erratum applied, untouched otherwise.
    pub files: Vec<SourceFile>,
    pub applied: Vec<Applied>,
    /// Errors of errata that cannot be read or no longer apply.
    pub diagnostics: Vec<Diagnostic>,
    pub map: SourceMap,
}

/// Reads every `*.patch` of `dir`, sorted by name, named `<label>/<file name>`.
pub fn load_dir(dir: &std::path::Path, label: &str) -> std::io::Result<Vec<SourceFile>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "patch") && path.is_file() {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.push(SourceFile {
                name: format!("{label}/{name}"),
                bytes: std::fs::read(&path)?,
            });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

/// Applies `errata` to `docs`. Never panics: an erratum that cannot be read, names a doc that
/// is not there, or no longer applies is an error diagnostic naming it, and its doc is left as
/// it was.
pub fn apply(docs: &[SourceFile], errata: &[SourceFile]) -> Corrected {
    let mut out = Corrected {
        files: docs.to_vec(),
        ..Corrected::default()
    };
    for e in errata {
        let text = String::from_utf8_lossy(&e.bytes).into_owned();
        out.map.texts.insert(e.name.clone(), text);
    }
    for e in errata {
        let text = out.map.texts[&e.name].clone();
        match apply_one(&e.name, &text, &mut out) {
            Ok(applied) => out.applied.push(applied),
            Err(d) => out.diagnostics.push(*d),
        }
    }
    out
}

fn apply_one(name: &str, text: &str, out: &mut Corrected) -> Result<Applied, Box<Diagnostic>> {
    let src = crate::parse::Source::new(name, text);
    let at = |start: usize, end: usize| src.span(start, end);
    let diff_start = text
        .match_indices("--- ")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .ok_or_else(|| {
            bad(
                name,
                at(0, 0),
                "the erratum has no unified diff",
                "a header, a blank line, then `--- a/DOC.md`, `+++ b/DOC.md` and hunks",
            )
        })?;
    let header = parse_header(name, &text[..diff_start], &src)?;
    let diff = &text[diff_start..];
    let patch = diffy::Patch::from_str(diff).map_err(|e| {
        bad(
            name,
            at(diff_start, diff_start),
            &format!("the diff cannot be read: {e}"),
            "one unified diff of one doc",
        )
    })?;
    let doc = target_doc(&patch).ok_or_else(|| {
        bad(
            name,
            at(diff_start, diff_start),
            "the diff does not name the doc it corrects, or names two docs",
            "`--- a/DOC.md` and `+++ b/DOC.md` naming the same doc",
        )
    })?;
    if diff.lines().filter(|l| l.starts_with("+++ ")).count() != 1 {
        return Err(bad(
            name,
            at(diff_start, diff_start),
            "the erratum holds diffs of several docs",
            "one erratum per doc: split it into one file per doc",
        ));
    }
    let Some(index) = out.files.iter().position(|f| f.name == doc) else {
        return Err(Box::new(
            Diagnostic::new(
                Code::ErratumUnknownDoc,
                name,
                at(diff_start, diff_start),
                format!("the erratum corrects `{doc}`, which is not in the spec directory"),
            )
            .expected("a doc of the spec directory (was it renamed or removed upstream?)"),
        ));
    };
    let before = String::from_utf8_lossy(&out.files[index].bytes).into_owned();
    let after = diffy::apply(&before, &patch).map_err(|e| {
        Box::new(
            Diagnostic::new(
                Code::StaleErratum,
                name,
                at(diff_start, diff_start),
                format!("the erratum no longer applies to `{doc}` ({e}): the doc changed upstream"),
            )
            .expected("review the doc: drop the erratum if upstream fixed it, or redo its diff"),
        )
    })?;
    let (removed, added) = count_changes(&patch);
    out.map
        .record(&doc, &before, &after, name, text, diff_start);
    out.files[index].bytes = after.into_bytes();
    Ok(Applied {
        file: name.to_string(),
        doc,
        title: header["Erratum"].clone(),
        doc_says: header["Doc says"].clone(),
        intel_does: header["Intel does"].clone(),
        evidence: header["Evidence"].clone(),
        removed,
        added,
    })
}

fn bad(file: &str, span: Span, message: &str, expected: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Code::BadErratum, file, span, message).expected(expected))
}

/// `Key: value` lines, continuation lines indented; every required key present and non-empty.
fn parse_header(
    name: &str,
    header: &str,
    src: &crate::parse::Source<'_>,
) -> Result<BTreeMap<String, String>, Box<Diagnostic>> {
    let mut keys: BTreeMap<String, String> = BTreeMap::new();
    let mut last: Option<String> = None;
    let mut offset = 0;
    for line in header.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let line = line.trim_end();
        if line.is_empty() {
            last = None;
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some(v) = last.as_ref().and_then(|k| keys.get_mut(k)) {
                v.push('\n');
                v.push_str(line.trim());
                continue;
            }
        }
        let Some((key, value)) = line.split_once(':').filter(|(k, _)| is_key(k)) else {
            return Err(bad(
                name,
                src.span(start, start + line.len()),
                "a header line is not `Key: value`",
                "`Erratum:`, `Doc says:`, `Intel does:`, `Evidence:` lines (continuations indented)",
            ));
        };
        keys.insert(key.to_string(), value.trim().to_string());
        last = Some(key.to_string());
    }
    for key in REQUIRED_KEYS {
        if keys.get(key).is_none_or(|v| v.is_empty()) {
            return Err(bad(
                name,
                src.span(0, 0),
                &format!("the erratum's header has no `{key}:`"),
                "a header stating what the doc says, what Intel's tools do, and the evidence",
            ));
        }
    }
    Ok(keys)
}

/// A header key: words of letters, e.g. `Doc says`.
fn is_key(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphabetic() || c == ' ' || c == '-')
}

/// The doc both sides of the diff name, without the `a/` and `b/` prefixes.
fn target_doc(patch: &diffy::Patch<'_, str>) -> Option<String> {
    let strip = |p: &str| {
        let p = p.trim();
        p.strip_prefix("a/")
            .or_else(|| p.strip_prefix("b/"))
            .unwrap_or(p)
            .to_string()
    };
    let old = strip(patch.original()?);
    let new = strip(patch.modified()?);
    (old == new && !old.is_empty()).then_some(old)
}

fn count_changes(patch: &diffy::Patch<'_, str>) -> (usize, usize) {
    let mut removed = 0;
    let mut added = 0;
    for hunk in patch.hunks() {
        for line in hunk.lines() {
            match line {
                diffy::Line::Delete(_) => removed += 1,
                diffy::Line::Insert(_) => added += 1,
                diffy::Line::Context(_) => {}
            }
        }
    }
    (removed, added)
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if text.ends_with('\n') {
        starts.pop();
    }
    starts
}

impl SourceMap {
    /// Records the provenance of `after`, the doc `before` with erratum `name` applied: equal
    /// lines keep their origin, inserted lines come from the erratum's `+` lines, in order.
    fn record(
        &mut self,
        doc: &str,
        before: &str,
        after: &str,
        name: &str,
        erratum: &str,
        diff_start: usize,
    ) {
        let old_starts = line_starts(before);
        let old_origins = match self.docs.get(doc) {
            Some((_, origins)) => origins.clone(),
            None => {
                self.texts.insert(doc.to_string(), before.to_string());
                old_starts
                    .iter()
                    .map(|&offset| Origin {
                        file: doc.to_string(),
                        offset,
                    })
                    .collect()
            }
        };
        // Offsets (past the `+`) of the erratum's inserted lines, in order.
        let mut plus = Vec::new();
        let mut at = diff_start;
        for line in erratum[diff_start..].split_inclusive('\n') {
            if line.starts_with('+') && !line.starts_with("+++ ") {
                plus.push((at + 1, line[1..].trim_end_matches(['\n', '\r'])));
            }
            at += line.len();
        }
        let mut plus = plus.into_iter();
        let new_starts = line_starts(after);
        let mut origins = Vec::with_capacity(new_starts.len());
        let diff = similar::TextDiff::from_lines(before, after);
        for op in diff.ops() {
            for change in diff.iter_changes(op) {
                match change.tag() {
                    similar::ChangeTag::Equal => {
                        let old = change.old_index().unwrap_or(0);
                        origins.push(old_origins.get(old).cloned().unwrap_or(Origin {
                            file: doc.to_string(),
                            offset: 0,
                        }));
                    }
                    similar::ChangeTag::Insert => {
                        let value = change.value().trim_end_matches(['\n', '\r']);
                        let offset = plus
                            .by_ref()
                            .find(|(_, text)| *text == value)
                            .map_or(diff_start, |(o, _)| o);
                        origins.push(Origin {
                            file: name.to_string(),
                            offset,
                        });
                    }
                    similar::ChangeTag::Delete => {}
                }
            }
        }
        self.docs.insert(doc.to_string(), (new_starts, origins));
    }

    /// Moves a diagnostic on a corrected doc to the real file and line its span came from.
    pub fn remap(&self, d: &mut Diagnostic) {
        let Some((starts, origins)) = self.docs.get(&d.file) else {
            return;
        };
        let line = starts.partition_point(|&s| s <= d.span.start).max(1) - 1;
        let (Some(&line_start), Some(origin)) = (starts.get(line), origins.get(line)) else {
            return;
        };
        let Some(text) = self.texts.get(&origin.file) else {
            return;
        };
        let within = d.span.start - line_start;
        let line_len = text[origin.offset.min(text.len())..]
            .find('\n')
            .unwrap_or(text.len() - origin.offset.min(text.len()));
        let start = origin.offset + within.min(line_len);
        let end =
            start + (d.span.end.saturating_sub(d.span.start)).min(line_len - within.min(line_len));
        let span = crate::parse::Source::new(&origin.file, text).span(start, end);
        if origin.file != d.file {
            d.corrected_doc = Some(std::mem::take(&mut d.file));
        }
        d.file = origin.file.clone();
        d.line = span.line;
        d.column = span.column;
        d.span = span;
    }

    /// The real files diagnostics may point at after [`SourceMap::remap`]: every original doc
    /// that was corrected, and every erratum. Render diagnostics with these.
    pub fn real_files(&self) -> Vec<SourceFile> {
        self.texts
            .iter()
            .map(|(name, text)| SourceFile {
                name: name.clone(),
                bytes: text.clone().into_bytes(),
            })
            .collect()
    }
}
