//! Markdown docs → [`Spec`]: tolerant of the glitches of real docs, and loud about each.
//!
//! `doc` reads one doc; this module decodes bytes, runs it on every doc, and checks what
//! spans docs (the same opcode claimed twice).

mod chapter;
mod counted;
mod doc;
mod semantics;
mod source;
mod table;
pub mod template;
mod text;

pub use crate::source_file::SourceFile;
pub use doc::{allowed_types, operand_classes, parse_number, selector};
pub(crate) use source::Source;

use crate::diag::{Code, Degrades, Diagnostic};
use crate::schema::{Instruction, LeftOut, Spec};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The result of parsing a spec directory: what could be read, and every diagnostic.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub spec: Spec,
    pub diagnostics: Vec<Diagnostic>,
}

/// Name prefix of chapter files: `chapters/4_visa_header.md` holds pseudo-structures, not an
/// opcode doc.
pub const CHAPTERS_PREFIX: &str = "chapters/";

/// Reads the opcode docs of `spec` and the chapters of `chapters` (default `spec/chapters`,
/// when it exists), chapters named `chapters/NAME.md`.
pub fn load_spec(spec: &Path, chapters: Option<&Path>) -> std::io::Result<Vec<SourceFile>> {
    let mut files = load_dir(spec)?;
    let default = spec.join("chapters");
    let dir = match chapters {
        Some(d) => Some(d.to_path_buf()),
        None => default.is_dir().then_some(default),
    };
    if let Some(dir) = dir {
        for mut f in load_dir(&dir)? {
            f.name = format!("{CHAPTERS_PREFIX}{}", f.name);
            files.push(f);
        }
    }
    Ok(files)
}

/// Reads every `*.md` of `dir`, sorted by name.
pub fn load_dir(dir: &Path) -> std::io::Result<Vec<SourceFile>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "md") && is_file(&entry) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.push(SourceFile {
                name,
                bytes: std::fs::read(&path)?,
            });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

/// Whether a directory entry is a file (or a link to one): its type comes with the listing,
/// so only a link costs a `stat` (a second `stat` of every doc was a quarter of loading).
pub(crate) fn is_file(entry: &std::fs::DirEntry) -> bool {
    match entry.file_type() {
        Ok(t) if !t.is_symlink() => t.is_file(),
        _ => entry.path().is_file(),
    }
}

/// Parses every doc. Never panics; problems become diagnostics, all of them reported.
pub fn parse_spec(files: &[SourceFile]) -> Parsed {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut instructions = Vec::new();
    let mut records = Vec::new();
    let mut predefined = Vec::new();
    let mut listed = Vec::new();
    // Docs parse independently (on every core); their results join in file order.
    let each = |f: &SourceFile| parse_file(f);
    let mut left_out = Vec::new();
    for (file, mut one) in files
        .iter()
        .zip(files.par_iter().map(each).collect::<Vec<_>>())
    {
        match leave_out(file, one.instruction.take(), &mut one.diagnostics) {
            Ok(inst) => instructions.extend(inst),
            Err(l) => left_out.push(l),
        }
        diagnostics.extend(one.diagnostics);
        records.extend(one.records);
        predefined.extend(one.predefined);
        listed.extend(one.listed);
    }
    instructions.sort_by(|a, b| {
        let key = |i: &Instruction| (i.opcode.value, i.sub_opcode.as_ref().map(|s| s.value));
        key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name))
    });
    let (instructions, mut out) = cross_checked(instructions, &mut diagnostics);
    left_out.append(&mut out);
    Parsed {
        spec: Spec {
            instructions,
            records,
            predefined,
            left_out,
            listed,
            ..Spec::default()
        },
        diagnostics,
    }
}

/// An opcode doc with a diagnostic that leaves it out ([`Degrades::Doc`]): the doc is left
/// out, and each such diagnostic says so. Chapters degrade item by item as they are read.
fn leave_out(
    file: &SourceFile,
    inst: Option<Instruction>,
    diags: &mut [Diagnostic],
) -> Result<Option<Instruction>, LeftOut> {
    if file.name.starts_with(CHAPTERS_PREFIX) {
        return Ok(inst);
    }
    let mut why = None;
    for d in diags.iter_mut().filter(|d| d.degrades() == Degrades::Doc) {
        d.message
            .push_str(&format!("; {} is left out of the crate", file.name));
        why.get_or_insert_with(|| place(d));
    }
    match why {
        None => Ok(inst),
        Some(why) => Err(LeftOut {
            doc: file.name.clone(),
            opcode: inst.as_ref().map(|i| i.opcode.value),
            sub_opcode: inst
                .as_ref()
                .and_then(|i| i.sub_opcode.as_ref().map(|s| s.value)),
            why,
        }),
    }
}

/// `FILE:LINE:COL: message (CODE)`: where a degraded part is, as generated errors quote it.
pub fn place(d: &Diagnostic) -> String {
    format!(
        "{}:{}:{}: {} ({})",
        d.file, d.line, d.column, d.message, d.code
    )
}

/// [`cross_check`], leaving out the docs that conflict with one kept (the later one of two
/// opcodes with different formats, or of two docs of one name).
fn cross_checked(
    mut insts: Vec<Instruction>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Instruction>, Vec<LeftOut>) {
    let mut found = Vec::new();
    cross_check(&mut insts, &mut found);
    let mut left_out: Vec<LeftOut> = Vec::new();
    for d in found.iter_mut().filter(|d| d.degrades() == Degrades::Doc) {
        d.message
            .push_str(&format!("; {} is left out of the crate", d.file));
        if let Some(i) = insts.iter().position(|i| i.source == d.file) {
            let i = insts.remove(i);
            left_out.push(LeftOut {
                doc: i.source,
                opcode: Some(i.opcode.value),
                sub_opcode: i.sub_opcode.map(|s| s.value),
                why: place(d),
            });
        }
    }
    if left_out.is_empty() {
        diags.append(&mut found);
        return (insts, left_out);
    }
    // Aliases again, among the docs kept.
    found.retain(|d| d.degrades() == Degrades::Doc);
    for i in &mut insts {
        (i.aliases, i.alias_of) = (vec![], None);
    }
    cross_check(&mut insts, &mut found);
    diags.append(&mut found);
    (insts, left_out)
}

/// What one file holds: an instruction (a doc) or records (a chapter), and its diagnostics.
#[derive(Default)]
struct FileParsed {
    instruction: Option<Instruction>,
    records: Vec<crate::schema::Record>,
    predefined: Vec<crate::schema::Predefined>,
    listed: Vec<crate::schema::Listed>,
    diagnostics: Vec<Diagnostic>,
}

fn parse_file(file: &SourceFile) -> FileParsed {
    let mut out = FileParsed::default();
    let text = decode_text(file, &mut out.diagnostics);
    if file.name.starts_with(CHAPTERS_PREFIX) {
        out.records = chapter::parse_chapter(&file.name, &text, &mut out.diagnostics);
        out.predefined = chapter::predefined(&file.name, &text);
        out.listed = chapter::listed(&file.name, &text);
    } else {
        out.instruction = doc::parse_doc(&file.name, &text, &mut out.diagnostics);
    }
    out
}

/// `String::from_utf8_lossy`, checked first by `from_utf8`, which reads ASCII a word at a time
/// (the lossy decoder goes byte by byte: a tenth of a one-doc regen's CPU went on it).
pub(crate) fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// UTF-8 text of a doc; invalid bytes are replaced and reported where the first one is.
fn decode_text(file: &SourceFile, diags: &mut Vec<Diagnostic>) -> String {
    match std::str::from_utf8(&file.bytes) {
        Ok(t) => t.to_string(),
        Err(e) => {
            let text = String::from_utf8_lossy(&file.bytes).into_owned();
            let at = e.valid_up_to();
            let src = source::Source::new(&file.name, &text);
            let bad =
                file.bytes.len() - at - std::str::from_utf8(&file.bytes[at..]).map_or(0, str::len);
            diags.push(
                Diagnostic::new(
                    Code::InvalidUtf8,
                    &file.name,
                    src.span(at, at + 1),
                    format!("invalid UTF-8 at byte {at} ({bad} or more bytes replaced by U+FFFD)"),
                )
                .expected("a UTF-8 encoded Markdown file"),
            );
            text
        }
    }
}

/// What makes two docs encode the same way: every variant's condition, field names and types.
/// Per variant: condition, and (field, type) in encoding order.
type FormatKey = Vec<(Option<String>, Vec<(String, String)>)>;

fn format_key(i: &Instruction) -> FormatKey {
    let ty: BTreeMap<&str, &str> = i
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.ty.as_str()))
        .collect();
    i.variants
        .iter()
        .map(|v| {
            let fields = v
                .fields
                .iter()
                .map(|f| {
                    (
                        f.clone(),
                        ty.get(f.as_str()).copied().unwrap_or("").to_string(),
                    )
                })
                .collect();
            (v.condition.clone(), fields)
        })
        .collect()
}

/// Two docs claiming one (opcode, sub-opcode): an error when their formats differ; aliases
/// (a warning) when they are identical, the alphabetically first name decoding. Two docs of
/// one name are an error.
fn cross_check(insts: &mut [Instruction], diags: &mut Vec<Diagnostic>) {
    let mut by_key: BTreeMap<(u8, Option<u8>), Vec<usize>> = BTreeMap::new();
    for (i, inst) in insts.iter().enumerate() {
        by_key
            .entry((inst.opcode.value, inst.sub_opcode.as_ref().map(|s| s.value)))
            .or_default()
            .push(i);
    }
    for group in by_key.values().filter(|g| g.len() > 1) {
        // Sorted by name within a key, so the first is the alphabetically first.
        let first = group[0];
        let names: Vec<String> = group.iter().map(|&i| insts[i].name.clone()).collect();
        for &other in &group[1..] {
            let (a, b) = (&insts[first], &insts[other]);
            let at = b.sub_opcode.as_ref().map_or(b.opcode.span, |s| s.span);
            let key = match &b.sub_opcode {
                Some(s) => format!("opcode {:#04x} sub-opcode {:#04x}", b.opcode.value, s.value),
                None => format!("opcode {:#04x}", b.opcode.value),
            };
            if format_key(a) == format_key(b) {
                diags.push(
                    Diagnostic::new(Code::AliasOpcode, &b.source, at, format!("`{}` ({}) encodes exactly like `{}` ({}) with {key}; they are aliases and `{}` decodes", b.name, b.source, a.name, a.source, a.name))
                );
                let canonical = a.name.clone();
                insts[other].alias_of = Some(canonical);
            } else {
                diags.push(
                    Diagnostic::new(
                        Code::ConflictingOpcode,
                        &b.source,
                        at,
                        format!(
                            "`{}` claims {key}, already used by `{}` ({}) with a different format",
                            b.name, a.name, a.source
                        ),
                    )
                    .expected("a distinct opcode or sub-opcode, or an identical format"),
                );
            }
        }
        for &i in group {
            insts[i].aliases = names
                .iter()
                .filter(|n| **n != insts[i].name)
                .cloned()
                .collect();
        }
    }
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    for (i, inst) in insts.iter().enumerate() {
        if let Some(&first) = by_name.get(&inst.name) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    &inst.source,
                    inst.span,
                    format!(
                        "instruction `{}` is already defined by {}",
                        inst.name, insts[first].source
                    ),
                )
                .expected("one doc per instruction name"),
            );
        } else {
            by_name.insert(inst.name.clone(), i);
        }
    }
}
