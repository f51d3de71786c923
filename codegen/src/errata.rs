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
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Header keys every erratum must have, in the order they are written.
pub const REQUIRED_KEYS: [&str; 4] = ["Erratum", "Doc says", "Intel does", "Evidence"];

/// Where a line of a corrected doc came from: a file and the byte offset of the line's text.
/// The file's name is shared by every line of it (a doc has a few hundred lines).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    file: Arc<str>,
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
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "patch") && crate::parse::is_file(&entry) {
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

/// Applies `errata` to `docs`. Never panics. An erratum applies only where its place is
/// certain (each hunk's context occurs once in the doc); otherwise it is not applied and its
/// doc is left as it was: one already in the doc is obsolete (warning V0405), one whose context
/// is gone or ambiguous is stale (error V0402, showing the hunk and the doc's lines now there),
/// one of a doc not in the spec directory is V0403 (a warning), one that cannot be read V0401.
pub fn apply(docs: &[SourceFile], errata: &[SourceFile]) -> Corrected {
    let mut out = Corrected {
        files: docs.to_vec(),
        ..Corrected::default()
    };
    let texts: Vec<String> = errata
        .iter()
        .map(|e| crate::parse::lossy(&e.bytes).into_owned())
        .collect();
    // An erratum changes only the doc it names (its text and its lines' provenance), so the
    // errata of each doc apply apart from the others, in file-name order, on every core.
    let mut results: Vec<Option<Result<Applied, Box<Diagnostic>>>> =
        errata.iter().map(|_| None).collect();
    // An erratum that creates a doc the docs lack (`--- /dev/null`: an opcode Intel's tools
    // have and no doc describes) applies first, so the errata after it meet the doc it made.
    for (k, (e, text)) in errata.iter().zip(&texts).enumerate() {
        if creates_doc(text) {
            results[k] = Some(create(&e.name, text, &mut out));
        }
    }
    let mut of_doc: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, (e, text)) in errata.iter().zip(&texts).enumerate() {
        if results[k].is_some() {
            continue;
        }
        let doc = target(&e.name, text);
        if let Some(index) = doc.and_then(|d| out.files.iter().position(|f| f.name == d)) {
            of_doc.entry(index).or_default().push(k);
            continue;
        }
        match resolve(&e.name, text, &out.files) {
            Ok(r) => of_doc.entry(r.index).or_default().push(k),
            Err(d) => results[k] = Some(Err(d)),
        }
    }
    let groups: Vec<(usize, Vec<usize>)> = of_doc.into_iter().collect();
    let corrected: Vec<DocCorrected> = groups
        .par_iter()
        .map(|(index, ks)| {
            let errata: Vec<(&SourceFile, &str)> = ks
                .iter()
                .map(|&k| (&errata[k], texts[k].as_str()))
                .collect();
            correct(&out.files[*index], &errata)
        })
        .collect();
    // The errata's texts are read no more here: moved into the map, not copied.
    for (e, text) in errata.iter().zip(texts) {
        out.map.texts.insert(e.name.clone(), text);
    }
    for ((index, ks), c) in groups.iter().zip(corrected) {
        let doc = &mut out.files[*index];
        if let (Some(text), Some(lines)) = (c.text, c.lines) {
            // The doc as written moves into the map (a diagnostic may point at it), uncopied.
            let written = std::mem::replace(&mut doc.bytes, text.into_bytes());
            let written = String::from_utf8(written)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            out.map.texts.insert(doc.name.clone(), written);
            out.map.docs.insert(doc.name.clone(), lines);
        }
        for (&k, r) in ks.iter().zip(c.results) {
            results[k] = Some(r);
        }
    }
    for r in results.into_iter().flatten() {
        match r {
            Ok(applied) => out.applied.push(applied),
            Err(d) => out.diagnostics.push(*d),
        }
    }
    out
}

/// One doc with its errata applied in order: what [`apply`] takes from it.
struct DocCorrected {
    /// The corrected text and its lines' provenance, when an erratum applied.
    text: Option<String>,
    lines: Option<(Vec<usize>, Vec<Origin>)>,
    /// Per erratum, in order: applied, or why not.
    results: Vec<Result<Applied, Box<Diagnostic>>>,
}

/// Applies `errata` (each naming `doc`: [`resolve`]) to `doc`, in order.
fn correct(doc: &SourceFile, errata: &[(&SourceFile, &str)]) -> DocCorrected {
    let mut one = Corrected {
        files: vec![doc.clone()],
        ..Corrected::default()
    };
    let results = errata
        .iter()
        .map(|(e, text)| apply_one(&e.name, text, &mut one))
        .collect();
    let lines = one.map.docs.remove(&doc.name);
    let text = lines
        .is_some()
        .then(|| crate::parse::lossy(&one.files[0].bytes).into_owned());
    DocCorrected {
        text,
        lines,
        results,
    }
}

/// The doc erratum `name` (`text`) corrects, when it reads and names one doc: what
/// [`resolve`] finds before it looks the doc up. `None`: it does not read, and [`resolve`] says
/// why.
fn target(name: &str, text: &str) -> Option<String> {
    let src = crate::parse::Source::new(name, text);
    let (_, diff_start, patch) = split_erratum(name, text, &src).ok()?;
    let (doc, _) = target_doc(&patch)?;
    let files = text[diff_start..]
        .lines()
        .filter(|l| l.starts_with("+++ "))
        .count();
    (files == 1).then_some(doc)
}

/// An erratum read, and the doc of `files` it names.
struct Resolved<'a> {
    header: BTreeMap<String, String>,
    diff_start: usize,
    patch: diffy::Patch<'a, str>,
    doc: String,
    index: usize,
}

/// Reads erratum `name` (`text`) and finds the doc of `files` it corrects, or says why it
/// cannot be applied to any.
fn resolve<'a>(
    name: &str,
    text: &'a str,
    files: &[SourceFile],
) -> Result<Resolved<'a>, Box<Diagnostic>> {
    let src = crate::parse::Source::new(name, text);
    let at = |start: usize, end: usize| src.span(start, end);
    let (header, diff_start, patch) = split_erratum(name, text, &src)?;
    let diff = &text[diff_start..];
    let (doc, _) = target_doc(&patch).ok_or_else(|| {
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
    let Some(index) = files.iter().position(|f| f.name == doc) else {
        return Err(Box::new(
            Diagnostic::new(
                Code::ErratumUnknownDoc,
                name,
                at(diff_start, diff_start),
                format!("the erratum corrects `{doc}`, which is not in the spec directory; it is not applied"),
            )
            .expected("a doc of the spec directory (was it renamed or removed upstream?)"),
        ));
    };
    Ok(Resolved {
        header,
        diff_start,
        patch,
        doc,
        index,
    })
}

fn apply_one(name: &str, text: &str, out: &mut Corrected) -> Result<Applied, Box<Diagnostic>> {
    let Resolved {
        header,
        diff_start,
        patch,
        doc,
        index,
    } = resolve(name, text, &out.files)?;
    let src = crate::parse::Source::new(name, text);
    let at = |start: usize, end: usize| src.span(start, end);
    let diff = &text[diff_start..];
    let before = crate::parse::lossy(&out.files[index].bytes).into_owned();
    let hunk_at = |k: usize| {
        let start = diff_start + diff.match_indices("\n@@").nth(k).map_or(0, |(i, _)| i + 1);
        let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
        at(start, end)
    };
    if let Some(d) = not_applied(name, &doc, against(&patch, &before), hunk_at) {
        return Err(d);
    }
    let after = patched(&patch, &before);
    let (removed, added) = count_changes(&patch);
    out.map
        .record(&doc, &before, &after, name, text, diff_start);
    out.files[index].bytes = after.into_bytes();
    Ok(applied(name, doc, &header, removed, added))
}

/// What an erratum's diff is to the doc it names.
enum Against {
    /// Every hunk's context and removed lines occur once in the doc: the place is certain.
    Applies,
    /// Every hunk's context and added lines are in the doc already: the correction is in.
    Obsolete,
    /// Hunk `hunk` (0-based) matches nowhere, or in several places; `notes` show the hunk and
    /// the doc's lines now where it was written against.
    Stale {
        hunk: usize,
        what: &'static str,
        notes: Vec<String>,
    },
}

/// Lines of a hunk's side: context and removed (`old`) or context and added (`!old`).
fn side<'a>(hunk: &diffy::Hunk<'a, str>, old: bool) -> Vec<&'a str> {
    hunk.lines()
        .iter()
        .filter_map(|l| match l {
            diffy::Line::Context(t) => Some(*t),
            diffy::Line::Delete(t) if old => Some(*t),
            diffy::Line::Insert(t) if !old => Some(*t),
            _ => None,
        })
        .map(|t| t.trim_end_matches(['\n', '\r']))
        .collect()
}

/// Where `block` occurs in `lines` as consecutive lines (0-based starts). Trailing whitespace
/// is ignored, as the parser ignores it (V0116): docs of other revisions differ in it.
fn occurrences(lines: &[&str], block: &[&str]) -> Vec<usize> {
    if block.is_empty() || block.len() > lines.len() {
        return Vec::new();
    }
    (0..=lines.len() - block.len())
        .filter(|&i| {
            lines[i..i + block.len()]
                .iter()
                .zip(block)
                .all(|(a, b)| a.trim_end() == b.trim_end())
        })
        .collect()
}

/// `text` with `patch` applied, each hunk where its context and removed lines occur (once:
/// [`against`] said so). Context lines keep the doc's text; added lines are the erratum's.
fn patched(patch: &diffy::Patch<'_, str>, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut starts: Vec<(usize, &diffy::Hunk<'_, str>)> = patch
        .hunks()
        .iter()
        .filter_map(|h| Some((*occurrences(&lines, &side(h, true)).first()?, h)))
        .collect();
    starts.sort_by_key(|(at, _)| *at);
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut next = 0;
    for (at, hunk) in starts {
        if at < next {
            continue;
        }
        out.extend(&lines[next..at]);
        next = at;
        for l in hunk.lines() {
            match l {
                diffy::Line::Context(_) => {
                    out.extend(lines.get(next));
                    next += 1;
                }
                diffy::Line::Delete(_) => next += 1,
                diffy::Line::Insert(t) => out.push(t.trim_end_matches(['\n', '\r'])),
            }
        }
    }
    out.extend(lines.get(next..).unwrap_or_default());
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    joined
}

/// Classifies `patch` against the doc `text`: applying it is never a guess.
fn against(patch: &diffy::Patch<'_, str>, text: &str) -> Against {
    let lines: Vec<&str> = text.lines().collect();
    let hunks = patch.hunks();
    if hunks
        .iter()
        .all(|h| occurrences(&lines, &side(h, true)).len() == 1)
    {
        return Against::Applies;
    }
    if hunks
        .iter()
        .all(|h| !occurrences(&lines, &side(h, false)).is_empty())
    {
        return Against::Obsolete;
    }
    for (k, h) in hunks.iter().enumerate() {
        let old = side(h, true);
        let found = occurrences(&lines, &old);
        if found.len() == 1 {
            continue;
        }
        let range = h.old_range();
        let (from, len) = (range.start().max(1), range.len().max(1));
        let mut notes = vec![format!(
            "hunk {} (`@@ -{},{} +{},{} @@`) expects these lines at line {from}:\n{}",
            k + 1,
            range.start(),
            range.len(),
            h.new_range().start(),
            h.new_range().len(),
            old.iter()
                .map(|l| format!("    {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        )];
        if found.len() > 1 {
            let at: Vec<String> = found.iter().map(|i| (i + 1).to_string()).collect();
            notes.push(format!(
                "they occur {} times in the doc (lines {}): the erratum cannot say which it corrects",
                found.len(),
                at.join(", ")
            ));
        } else {
            let now: Vec<String> = (from..from + len)
                .filter_map(|n| lines.get(n - 1).map(|l| format!("{n:>5} | {l}")))
                .collect();
            notes.push(format!("the doc now reads there:\n{}", now.join("\n")));
        }
        let what = if found.is_empty() {
            "does not match the doc"
        } else {
            "matches several places of the doc"
        };
        return Against::Stale {
            hunk: k,
            what,
            notes,
        };
    }
    Against::Applies
}

/// Why an erratum is not applied (obsolete or stale), at the hunk `hunk_at` gives the span of;
/// `None` when it applies.
fn not_applied(
    name: &str,
    doc: &str,
    against: Against,
    hunk_at: impl Fn(usize) -> Span,
) -> Option<Box<Diagnostic>> {
    let d = match against {
        Against::Applies => return None,
        Against::Obsolete => Diagnostic::new(
            Code::ObsoleteErratum,
            name,
            hunk_at(0),
            format!(
                "the erratum is obsolete: `{doc}` already says what it says (upstream made the correction); it is not applied"
            ),
        )
        .expected("drop the erratum"),
        Against::Stale { hunk, what, notes } => {
            let mut d = Diagnostic::new(
                Code::StaleErratum,
                name,
                hunk_at(hunk),
                format!(
                    "the erratum no longer applies to `{doc}`: hunk {} {what} (it changed upstream); it is not applied",
                    hunk + 1
                ),
            )
            .expected("review the doc: drop the erratum if upstream fixed it, or redo its diff");
            d.notes = notes;
            d
        }
    };
    Some(Box::new(d))
}

fn bad(file: &str, span: Span, message: &str, expected: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Code::BadErratum, file, span, message).expected(expected))
}

/// `Key: value` lines, continuation lines indented; every required key present and non-empty.
/// An erratum's header: its `Key: value` lines.
type Header = BTreeMap<String, String>;

/// What an applied erratum records: its header's four parts (`parse_header` checked they are
/// there) and the size of its diff.
fn applied(name: &str, doc: String, header: &Header, removed: usize, added: usize) -> Applied {
    Applied {
        file: name.to_string(),
        doc,
        title: header["Erratum"].clone(),
        doc_says: header["Doc says"].clone(),
        intel_does: header["Intel does"].clone(),
        evidence: header["Evidence"].clone(),
        removed,
        added,
    }
}

/// The parts every erratum has, whether it corrects a doc or creates one: its header read, where
/// its diff starts (the first line starting `--- `), and the diff read.
fn split_erratum<'a>(
    name: &str,
    text: &'a str,
    src: &crate::parse::Source<'_>,
) -> Result<(Header, usize, diffy::Patch<'a, str>), Box<Diagnostic>> {
    let diff_start = text
        .match_indices("--- ")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .ok_or_else(|| {
            bad(
                name,
                src.span(0, 0),
                "the erratum has no unified diff",
                "a header, a blank line, then `--- a/DOC.md`, `+++ b/DOC.md` and hunks",
            )
        })?;
    let header = parse_header(name, &text[..diff_start], src)?;
    let patch = diffy::Patch::from_str(&text[diff_start..]).map_err(|e| {
        bad(
            name,
            src.span(diff_start, diff_start),
            &format!("the diff cannot be read: {e}"),
            "one unified diff of one doc",
        )
    })?;
    Ok((header, diff_start, patch))
}

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

/// The doc both sides of the diff name, without the `a/` and `b/` prefixes, and whether the
/// diff creates it (`--- /dev/null`, `+++ b/DOC.md`).
fn target_doc(patch: &diffy::Patch<'_, str>) -> Option<(String, bool)> {
    let strip = |p: &str| {
        let p = p.trim();
        p.strip_prefix("a/")
            .or_else(|| p.strip_prefix("b/"))
            .unwrap_or(p)
            .to_string()
    };
    let old = strip(patch.original()?);
    let new = strip(patch.modified()?);
    if new.is_empty() || new == "/dev/null" {
        return None;
    }
    if old == "/dev/null" {
        return Some((new, true));
    }
    (old == new).then_some((old, false))
}

/// Whether an erratum's diff creates its doc: its `---` line is `--- /dev/null`.
fn creates_doc(text: &str) -> bool {
    text.lines()
        .find(|l| l.starts_with("--- "))
        .is_some_and(|l| l[4..].trim() == "/dev/null")
}

/// Applies an erratum that creates a doc (`--- /dev/null`, one hunk of added lines): a doc for
/// what Intel's tools prove and the docs lack. Where the spec directory has that doc already,
/// it is not applied: obsolete (V0405) when the doc says exactly what the erratum would write
/// (upstream documented it so), stale (V0402) when upstream's doc says something else, to be
/// reviewed against the erratum's evidence.
fn create(name: &str, text: &str, out: &mut Corrected) -> Result<Applied, Box<Diagnostic>> {
    let src = crate::parse::Source::new(name, text);
    let at = |start: usize, end: usize| src.span(start, end);
    let (header, diff_start, patch) = split_erratum(name, text, &src)?;
    let diff = &text[diff_start..];
    let only_added = patch.hunks().len() == 1
        && patch.hunks()[0]
            .lines()
            .iter()
            .all(|l| matches!(l, diffy::Line::Insert(_)));
    let Some((doc, true)) = target_doc(&patch).filter(|_| only_added) else {
        return Err(bad(
            name,
            at(diff_start, diff_start),
            "a diff from /dev/null must create one doc with one hunk of added lines",
            "`--- /dev/null`, `+++ b/DOC.md`, `@@ -0,0 +1,N @@` and N `+` lines",
        ));
    };
    let added = side(&patch.hunks()[0], false);
    let hunk = diff_start + diff.find("\n@@").map_or(0, |i| i + 1);
    let hunk_span = at(hunk, hunk + text[hunk..].find('\n').unwrap_or(0));
    if let Some(existing) = out.files.iter().find(|f| f.name == doc) {
        let now = crate::parse::lossy(&existing.bytes).into_owned();
        let now: Vec<&str> = now.lines().map(str::trim_end).collect();
        let same =
            now.len() == added.len() && now.iter().zip(&added).all(|(a, b)| *a == b.trim_end());
        let against = if same {
            Against::Obsolete
        } else {
            Against::Stale {
                hunk: 0,
                what: "creates a doc the spec directory now has (upstream documented it)",
                notes: vec![
                    format!("the erratum writes `{doc}` from Intel's evidence; the spec directory's `{doc}` says something else"),
                    "review upstream's doc against the erratum's evidence, then drop the erratum or turn it into a correction of that doc".to_string(),
                ],
            }
        };
        return Err(
            not_applied(name, &doc, against, |_| hunk_span).unwrap_or_else(|| {
                bad(
                    name,
                    hunk_span,
                    "the doc exists",
                    "a doc the spec directory lacks",
                )
            }),
        );
    }
    let mut after = added.join("\n");
    after.push('\n');
    out.map.record(&doc, "", &after, name, text, diff_start);
    // The doc's lines all come from the erratum: no file of that name to render.
    out.map.texts.remove(&doc);
    out.files.push(SourceFile {
        name: doc.clone(),
        bytes: after.into_bytes(),
    });
    Ok(applied(name, doc, &header, 0, added.len()))
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
        let (doc_file, name_file): (Arc<str>, Arc<str>) = (doc.into(), name.into());
        let old_origins = match self.docs.get(doc) {
            Some((_, origins)) => origins.clone(),
            None => {
                self.texts.insert(doc.to_string(), before.to_string());
                old_starts
                    .iter()
                    .map(|&offset| Origin {
                        file: doc_file.clone(),
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
        let inserted = |value: &str, plus: &mut std::vec::IntoIter<(usize, &str)>| Origin {
            file: name_file.clone(),
            offset: plus
                .find(|(_, text)| *text == value.trim_end_matches(['\n', '\r']))
                .map_or(diff_start, |(o, _)| o),
        };
        if before.is_empty() {
            // A doc an erratum creates: every line is inserted, in order (what the diff below
            // finds, without its cost on every regen).
            for line in after.split_inclusive('\n') {
                origins.push(inserted(line, &mut plus));
            }
            self.docs.insert(doc.to_string(), (new_starts, origins));
            return;
        }
        let diff = similar::TextDiff::from_lines(before, after);
        for op in diff.ops() {
            for change in diff.iter_changes(op) {
                match change.tag() {
                    similar::ChangeTag::Equal => {
                        let old = change.old_index().unwrap_or(0);
                        origins.push(old_origins.get(old).cloned().unwrap_or(Origin {
                            file: doc_file.clone(),
                            offset: 0,
                        }));
                    }
                    similar::ChangeTag::Insert => origins.push(inserted(change.value(), &mut plus)),
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
        let Some(text) = self.texts.get(&*origin.file) else {
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
        if *origin.file != *d.file {
            d.corrected_doc = Some(std::mem::take(&mut d.file));
        }
        d.file = origin.file.to_string();
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

/// An erratum of a set written for several revisions of the docs that does not fit the docs
/// at hand: not applied, and listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The erratum's name (`errata/X.patch`).
    pub erratum: String,
    /// Why it does not fit: its doc is not in this doc set, or says something else here.
    pub why: String,
}

/// The docs an erratum's `Requires:` header names (a doc set without them is not the one it
/// was written for), read from the header: the lines before its diff.
fn requires(text: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| !l.starts_with("--- "))
        .filter_map(|l| l.strip_prefix("Requires:"))
        .flat_map(|v| v.split_whitespace().take_while(|w| w.ends_with(".md")))
        .map(|w| w.trim_end_matches(',').to_string())
        .collect()
}

/// Splits `candidates`, errata written for various revisions of the docs, into those that fit
/// `docs` (each applies where it is certain, after the strict `errata` the run applies anyway)
/// and those that do not: their doc is absent here (V0403) or its text is another revision's
/// (V0402). Errata that cannot be read, or that are obsolete, stay in the first list so that
/// their diagnostics still show. Dropping an erratum can make a later one of the same doc stop
/// fitting, so the split repeats until nothing more is dropped. An erratum whose `Requires:`
/// header names a doc the set lacks does not fit either (one that creates a doc the family
/// lacks, say, completes that family and no other doc set).
pub fn fitting(
    docs: &[SourceFile],
    errata: &[SourceFile],
    candidates: &[SourceFile],
) -> (Vec<SourceFile>, Vec<Skipped>) {
    let (mut fit, mut skipped): (Vec<SourceFile>, Vec<Skipped>) = (Vec::new(), Vec::new());
    for e in candidates {
        match requires(&crate::parse::lossy(&e.bytes))
            .into_iter()
            .find(|doc| !docs.iter().any(|d| d.name == *doc))
        {
            Some(doc) => skipped.push(Skipped {
                erratum: e.name.clone(),
                why: format!("its doc set lacks {doc}, which it requires"),
            }),
            None => fit.push(e.clone()),
        }
    }
    loop {
        let all: Vec<SourceFile> = errata.iter().chain(&fit).cloned().collect();
        let unfit: BTreeMap<String, String> = apply(docs, &all)
            .diagnostics
            .into_iter()
            .filter(|d| {
                d.code == Code::StaleErratum.as_str() || d.code == Code::ErratumUnknownDoc.as_str()
            })
            .filter(|d| fit.iter().any(|f| f.name == d.file))
            .map(|d| {
                let why = if d.code == Code::ErratumUnknownDoc.as_str() {
                    "its doc is not in this doc set"
                } else {
                    "written for another revision of its doc"
                };
                (d.file, why.to_string())
            })
            .collect();
        if unfit.is_empty() {
            skipped.sort_by(|a: &Skipped, b| a.erratum.cmp(&b.erratum));
            return (fit, skipped);
        }
        fit.retain(|f| !unfit.contains_key(&f.name));
        skipped.extend(
            unfit
                .into_iter()
                .map(|(erratum, why)| Skipped { erratum, why }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "Erratum: NEW: opcode 0x06 has no doc\nDoc says: nothing\nIntel does: assembles it\nEvidence: intel-isa asm\n\n";

    fn file(name: &str, text: &str) -> SourceFile {
        SourceFile {
            name: name.to_string(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    fn creating(lines: &[&str]) -> SourceFile {
        let mut text = format!(
            "{HEADER}--- /dev/null\n+++ b/NEW.md\n@@ -0,0 +1,{} @@\n",
            lines.len()
        );
        for l in lines {
            text.push_str(&format!("+{l}\n"));
        }
        file("errata/NEW-created.patch", &text)
    }

    #[test]
    fn an_erratum_from_dev_null_creates_the_doc_the_docs_lack() {
        let docs = [file("ADD.md", "## Opcode\n\n  ADD = 0x01\n")];
        let c = apply(&docs, &[creating(&["## Opcode", "", "  NEW = 0x06"])]);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.applied.len(), 1);
        assert_eq!(
            (c.applied[0].doc.as_str(), c.applied[0].added),
            ("NEW.md", 3)
        );
        let new = c
            .files
            .iter()
            .find(|f| f.name == "NEW.md")
            .expect("created");
        assert_eq!(new.bytes, b"## Opcode\n\n  NEW = 0x06\n");
        // A diagnostic on the created doc points at the erratum's `+` line.
        let mut d = Diagnostic::new(
            Code::StaleErratum,
            "NEW.md",
            Span {
                start: 13,
                end: 16,
                line: 3,
                column: 3,
            },
            "x",
        );
        c.map.remap(&mut d);
        assert_eq!((d.file.as_str(), d.line), ("errata/NEW-created.patch", 11));
    }

    fn correcting(name: &str, doc: &str, old: &str, new: &str, extra_header: &str) -> SourceFile {
        file(
            name,
            &format!(
                "Erratum: x\nDoc says: x\nIntel does: y\nEvidence: z\n{extra_header}\n--- a/{doc}\n+++ b/{doc}\n@@ -1,3 +1,3 @@\n ## Opcode\n-{old}\n+{new}\n end\n"
            ),
        )
    }

    fn names(files: &[SourceFile]) -> Vec<&str> {
        files.iter().map(|f| f.name.as_str()).collect()
    }

    /// Of errata written for several revisions, those whose context is this revision's apply;
    /// one whose doc says something else here, one whose doc is absent and one whose
    /// `Requires:` doc is absent are skipped, each with its reason.
    #[test]
    fn errata_that_do_not_fit_the_revision_are_skipped_with_why() {
        let docs = [
            file("A.md", "## Opcode\n  A = 0x01\nend\n"),
            file("B.md", "## Opcode\n  B = 0x02 (2025)\nend\n"),
        ];
        let fits = correcting("errata/A-fix.patch", "A.md", "  A = 0x01", "  A = 0x03", "");
        let other_revision = correcting(
            "errata/B-fix.patch",
            "B.md",
            "  B = 0x02 (2021)",
            "  B = 0x04",
            "",
        );
        let absent = correcting("errata/C-fix.patch", "C.md", "  C = 0x05", "  C = 0x06", "");
        let requires = correcting(
            "errata/A-more.patch",
            "A.md",
            "  A = 0x01",
            "  A = 0x07",
            "Requires: Z.md (the family it completes)\n",
        );
        let all = [fits.clone(), other_revision, absent, requires];
        let (fit, skipped) = fitting(&docs, &[], &all);
        assert_eq!(names(&fit), ["errata/A-fix.patch"]);
        let why: Vec<(&str, &str)> = skipped
            .iter()
            .map(|s| (s.erratum.as_str(), s.why.as_str()))
            .collect();
        assert_eq!(
            why,
            [
                (
                    "errata/A-more.patch",
                    "its doc set lacks Z.md, which it requires"
                ),
                (
                    "errata/B-fix.patch",
                    "written for another revision of its doc"
                ),
                ("errata/C-fix.patch", "its doc is not in this doc set"),
            ]
        );
        // What fits applies cleanly.
        let c = apply(&docs, &fit);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(c.files[0].bytes, b"## Opcode\n  A = 0x03\nend\n");
    }

    /// An erratum whose context only a dropped erratum would have written stops fitting too.
    #[test]
    fn dropping_an_erratum_drops_the_one_that_built_on_it() {
        let docs = [file("A.md", "## Opcode\n  A = 0x01\nend\n")];
        let first = correcting("errata/A-1.patch", "A.md", "  A = 0x09", "  A = 0x02", "");
        let second = correcting("errata/A-2.patch", "A.md", "  A = 0x02", "  A = 0x03", "");
        let (fit, skipped) = fitting(&docs, &[], &[first, second]);
        assert!(fit.is_empty(), "{:?}", names(&fit));
        assert_eq!(skipped.len(), 2);
    }

    /// Each line of a created doc comes from its own `+` line, in order, repeated lines too.
    #[test]
    fn a_created_docs_lines_point_at_their_own_plus_lines() {
        let c = apply(&[], &[creating(&["same", "same", "other"])]);
        let at = |line: u32, start: usize| {
            let span = Span {
                start,
                end: start + 1,
                line,
                column: 1,
            };
            let mut d = Diagnostic::new(Code::StaleErratum, "NEW.md", span, "x");
            c.map.remap(&mut d);
            (d.file, d.line)
        };
        let patch = "errata/NEW-created.patch".to_string();
        // The `+` lines are the erratum's lines 9, 10 and 11.
        assert_eq!(at(1, 0), (patch.clone(), 9));
        assert_eq!(at(2, 5), (patch.clone(), 10));
        assert_eq!(at(3, 10), (patch, 11));
    }

    #[test]
    fn a_created_doc_upstream_now_has_is_obsolete_or_stale() {
        let same = [file("NEW.md", "## Opcode\n\n  NEW = 0x06\n")];
        let c = apply(&same, &[creating(&["## Opcode", "", "  NEW = 0x06"])]);
        assert!(c.applied.is_empty());
        assert_eq!(c.diagnostics[0].code, "V0405");
        assert_eq!(c.files[0].bytes, same[0].bytes);
        let other = [file("NEW.md", "## Opcode\n\n  NEW = 0x07\n")];
        let c = apply(&other, &[creating(&["## Opcode", "", "  NEW = 0x06"])]);
        assert!(c.applied.is_empty());
        assert_eq!(c.diagnostics[0].code, "V0402");
        assert_eq!(c.files[0].bytes, other[0].bytes);
    }

    #[test]
    fn a_diff_from_dev_null_with_context_is_no_erratum() {
        let text = format!("{HEADER}--- /dev/null\n+++ b/NEW.md\n@@ -1,1 +1,2 @@\n x\n+y\n");
        let c = apply(&[], &[file("errata/bad.patch", &text)]);
        assert!(c.applied.is_empty() && c.files.is_empty());
        assert_eq!(c.diagnostics[0].code, "V0401");
    }
}
