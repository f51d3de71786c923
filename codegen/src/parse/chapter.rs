//! A chapter (`chapters/*.md`) → the [`Record`]s of its pseudo-structures.
//!
//! The object-format chapter declares each structure as an indented block
//! (`kernel_info { UW name_len; UB name[name_len]; ... }`) followed by `- **name:** text`
//! bullets whose nested items list enumerated values (`- 0:  extern`) and bit-packed items
//! (`- type (bit 0-3): ...`). Prose decides three things the blocks cannot say: which formats
//! are shared ("Sampler and surface variables share the same format"), which unknown element
//! types are string pools (a section of that name says the strings are separated by the null
//! character), and nothing else. The instructions chapter's list gives each instruction's
//! platforms ([`listed`]).

use super::source::{Line, Source};
use crate::diag::{Code, Diagnostic};
use crate::schema::{
    EnumValue, Listed, Predefined, Record, RecordBits, RecordField, RecordFieldKind, Span,
};
use crate::vocab::fundamental_width;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

struct Patterns {
    open: Regex,
    close: Regex,
    typed: Regex,
    array: Regex,
    untyped: Regex,
    bullet: Regex,
    heading: Regex,
    shared: Regex,
    value: Regex,
    named_value: Regex,
    named_bits: Regex,
    bare_bits: Regex,
    field_word: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        // The patterns are literals; a typo is caught by every test run.
        let re = |s: &str| Regex::new(s).expect("valid pattern");
        Patterns {
            open: re(r"^\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{\s*$"),
            close: re(r"^\s*\}\s*$"),
            typed: re(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*;\s*$"),
            array: re(
                r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*\]\s*;\s*$",
            ),
            untyped: re(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*;\s*$"),
            bullet: re(r"^(\s*)[-*+]\s+\*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*\*\*\s*(.*)$"),
            heading: re(r"^(#{1,6})\s+(.*?)\s*#*\s*$"),
            shared: re(r"(?i)\b([A-Za-z]+) and ([A-Za-z]+) variables share the same format"),
            value: re(r"^([0-9]+|0[xX][0-9A-Fa-f]+|0[bB][01]+)\s*:\s*(.*)$"),
            named_value: re(r"^([A-Za-z][A-Za-z0-9 _]*?)\s*\(\s*'([0-9]+)'\s*\)\s*:\s*(.*)$"),
            named_bits: re(
                r"^([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*bits?\s+([0-9]+)\s*(?:(?:-|\.\.)\s*([0-9]+))?\s*\)\s*:?\s*(.*)$",
            ),
            bare_bits: re(r"^bits?\s+([0-9]+)\s*(?:(?:-|\.\.)\s*([0-9]+))?\s*:?\s*(.*)$"),
            field_word: re(r"(?i)\bthe ([a-z_]+) (?:field|of)\b"),
        }
    })
}

/// Ranges of predefined ids ("(V0-V31) are reserved for pre-defined variables", "T0-T5 are
/// pre-defined surfaces") and the names of table rows `| V1(%thread_x) | ...`.
pub fn predefined(name: &str, text: &str) -> Vec<Predefined> {
    static P: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (range, row) = P.get_or_init(|| {
        let re = |s: &str| Regex::new(s).expect("valid pattern");
        (
            re(r"\(?\b([A-Z])0\s*-\s*([A-Z])([0-9]+)\)? are (?:reserved for )?pre-?defined"),
            re(r"^\|\s*([A-Z])([0-9]+)\s*\(\s*(%[A-Za-z0-9_]+)\s*\)"),
        )
    });
    let src = Source::new(name, text);
    let mut out: Vec<Predefined> = Vec::new();
    for c in range.captures_iter(text) {
        let (class, class2) = (cap(&c, 1), cap(&c, 2));
        let Ok(last) = cap(&c, 3).parse::<u32>() else {
            continue;
        };
        if class != class2 || out.iter().any(|p| p.class == class) {
            continue;
        }
        let m = c.get(0).map_or(0..0, |m| m.range());
        out.push(Predefined {
            class,
            count: last.saturating_add(1),
            names: BTreeMap::new(),
            span: src.span(m.start, m.end),
        });
    }
    for l in src.lines(0, text.len()) {
        if let Some(c) = row.captures(l.text) {
            let class = cap(&c, 1);
            if let (Some(p), Ok(id)) = (
                out.iter_mut().find(|p| p.class == class),
                cap(&c, 2).parse::<u32>(),
            ) {
                if id < p.count {
                    p.names.entry(id).or_insert_with(|| cap(&c, 3));
                }
            }
        }
    }
    out
}

/// The entries of a list of instructions that name platforms, as chapter `6_instructions.md`
/// writes them: `- [DPAS - Dot Product Accumulate Systolic {XEHP+}](instructions/DPAS.md)`.
/// Entries without braces name no platform and are not returned.
pub fn listed(name: &str, text: &str) -> Vec<Listed> {
    static P: OnceLock<Regex> = OnceLock::new();
    let entry = P.get_or_init(|| {
        Regex::new(r"^\s*[-*+]\s+\[([^\]{}]*?)\s*\{([^{}]*)\}\s*\]\((?:[^()]*/)?([^()/]+\.md)\)")
            .expect("valid pattern")
    });
    let src = Source::new(name, text);
    let mut out = Vec::new();
    for l in src.lines(0, text.len()) {
        let Some(c) = entry.captures(l.text) else {
            continue;
        };
        let at = c.get(2).map_or(0..0, |m| m.range());
        out.push(Listed {
            chapter: name.to_string(),
            doc: cap(&c, 3),
            title: cap(&c, 1),
            annotation: cap(&c, 2),
            span: src.span(l.start + at.start, l.start + at.end),
        });
    }
    out
}

/// A block as written, before types are resolved.
struct RawRecord {
    name: String,
    items: Vec<RawItem>,
    aliases: Vec<String>,
    span: Span,
    /// Byte range where the record's bullets may be: after `}` up to the next heading or block.
    bullets: (usize, usize),
}

enum RawItem {
    Typed(String, String, Span),
    Array(String, String, String, Span),
    Untyped(String, Span),
}

impl RawItem {
    fn name(&self) -> &str {
        match self {
            RawItem::Typed(_, n, _) | RawItem::Array(_, n, _, _) | RawItem::Untyped(n, _) => n,
        }
    }
    fn span(&self) -> Span {
        match self {
            RawItem::Typed(_, _, s) | RawItem::Array(_, _, _, s) | RawItem::Untyped(_, s) => *s,
        }
    }
}

/// Parses the pseudo-structures of one chapter. Never panics.
pub fn parse_chapter(name: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Record> {
    let p = patterns();
    let src = Source::new(name, text);
    let lines = src.lines(0, text.len());
    let string_sections = string_sections(&lines);
    let mut raws: Vec<RawRecord> = Vec::new();
    let mut pending_aliases: Vec<String> = Vec::new();
    let mut i = 0;
    let mut in_fence = false;
    while i < lines.len() {
        let line = lines[i];
        // Fenced code (the operands chapter's C-like structs, pseudo-code) holds no records.
        if line.text.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence {
            i += 1;
            continue;
        }
        for c in p.shared.captures_iter(line.text) {
            for g in [1, 2] {
                if let Some(m) = c.get(g) {
                    pending_aliases.push(format!("{}_info", m.as_str().to_ascii_lowercase()));
                }
            }
        }
        let Some(open) = p.open.captures(line.text) else {
            i += 1;
            continue;
        };
        let rec_name = open.get(1).map_or("", |m| m.as_str()).to_string();
        let span = span_of(&src, line);
        i += 1;
        let items = record_items(name, &src, &lines, &mut i, &rec_name, span, diags);
        let aliases = std::mem::take(&mut pending_aliases)
            .into_iter()
            .filter(|a| *a != rec_name)
            .collect();
        raws.push(RawRecord {
            name: rec_name,
            items,
            aliases,
            span,
            bullets: (lines.get(i).map_or(text.len(), |l| l.start), text.len()),
        });
    }
    end_bullets(&lines, text.len(), &mut raws);
    resolve(name, &src, raws, &string_sections, diags)
}

/// The items of record `rec_name` (opened at `span`) from line `*i` to its closing `}`, which
/// `*i` is left after; an unreadable item and a record never closed are diagnostics.
fn record_items(
    name: &str,
    src: &Source,
    lines: &[Line],
    i: &mut usize,
    rec_name: &str,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Vec<RawItem> {
    let p = patterns();
    let mut items = Vec::new();
    let mut closed = false;
    while *i < lines.len() {
        let l = lines[*i];
        if p.close.is_match(l.text) {
            closed = true;
            *i += 1;
            break;
        }
        if p.heading.is_match(l.text) || p.open.is_match(l.text) {
            break;
        }
        let s = span_of(src, l);
        if l.text.trim().is_empty() {
        } else if let Some(c) = p.array.captures(l.text) {
            items.push(RawItem::Array(cap(&c, 1), cap(&c, 2), cap(&c, 3), s));
        } else if let Some(c) = p.typed.captures(l.text) {
            items.push(RawItem::Typed(cap(&c, 1), cap(&c, 2), s));
        } else if let Some(c) = p.untyped.captures(l.text) {
            items.push(RawItem::Untyped(cap(&c, 1), s));
        } else {
            diags.push(
                Diagnostic::new(
                    Code::BadRecordItem,
                    name,
                    s,
                    format!("`{}` is not an item of `{rec_name}`", l.text.trim()),
                )
                .expected("`TYPE name;`, `TYPE name[count];` or `name;`"),
            );
        }
        *i += 1;
    }
    if !closed {
        diags.push(
            Diagnostic::new(
                Code::UnclosedRecord,
                name,
                span,
                format!("`{rec_name} {{` has no closing `}}`"),
            )
            .expected("a line `}` after the last item"),
        );
    }
    items
}

/// A record's bullets end where the next heading or block starts.
fn end_bullets(lines: &[Line], text_len: usize, raws: &mut [RawRecord]) {
    let p = patterns();
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(k, l)| {
            p.heading.is_match(l.text) || p.open.is_match(l.text) || is_setext_underline(lines, *k)
        })
        .map(|(_, l)| l.start)
        .collect();
    for r in raws {
        let end = starts
            .iter()
            .copied()
            .find(|&s| s >= r.bullets.0)
            .unwrap_or(text_len);
        r.bullets.1 = end;
    }
}

fn cap(c: &regex::Captures, i: usize) -> String {
    c.get(i).map_or("", |m| m.as_str()).to_string()
}

fn span_of(src: &Source, l: Line) -> Span {
    let indent = l.text.len() - l.text.trim_start().len();
    src.span(l.start + indent, l.start + l.text.len())
}

fn is_setext_underline(lines: &[Line], k: usize) -> bool {
    let t = lines[k].text.trim();
    k > 0
        && t.len() >= 3
        && t.chars().all(|c| c == '-' || c == '=')
        && !lines[k - 1].text.trim().is_empty()
        && !lines[k - 1].text.trim_start().starts_with('|')
}

/// Names of sections (`## String Pool` → `string_pool`) whose text says their strings are
/// separated by (or terminated with) the null character.
fn string_sections(lines: &[Line]) -> Vec<String> {
    let p = patterns();
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for l in lines {
        if let Some(c) = p.heading.captures(l.text) {
            current = Some(
                cap(&c, 2)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join("_")
                    .to_ascii_lowercase(),
            );
        } else if let Some(sec) = &current {
            let t = l.text.to_ascii_lowercase();
            if (t.contains("null character") || t.contains("null-terminated")) && !out.contains(sec)
            {
                out.push(sec.clone());
            }
        }
    }
    out
}

fn resolve(
    file: &str,
    src: &Source,
    raws: Vec<RawRecord>,
    strings: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Record> {
    let mut known: BTreeMap<String, String> = BTreeMap::new();
    for r in &raws {
        for a in std::iter::once(&r.name).chain(&r.aliases) {
            known.entry(a.clone()).or_insert_with(|| r.name.clone());
        }
    }
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let mut out = Vec::new();
    for r in raws {
        if let Some(line) = seen.get(&r.name) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateRecord,
                    file,
                    r.span,
                    format!("`{}` is already defined at line {line}", r.name),
                )
                .expected("one pseudo-structure per name"),
            );
            continue;
        }
        seen.insert(r.name.clone(), r.span.line);
        let bullets = bullets(src, r.bullets);
        let mut fields: Vec<RecordField> = Vec::new();
        for item in &r.items {
            if fields.iter().any(|f| f.name == item.name()) {
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateRecordField,
                        file,
                        item.span(),
                        format!("`{}` has two items named `{}`", r.name, item.name()),
                    )
                    .expected("distinct item names within a pseudo-structure"),
                );
                continue;
            }
            let Some(kind) = item_kind(file, &r.name, item, &fields, &known, strings, diags) else {
                continue;
            };
            let mut field = RecordField {
                name: item.name().to_string(),
                kind,
                description: String::new(),
                values: vec![],
                bits: vec![],
                span: item.span(),
            };
            if let Some(b) = bullets.get(item.name()) {
                field.description = b.description.clone();
                field.values = b.values.clone();
                field.bits = b.bits.clone();
                check_bits(file, &field, diags);
            }
            fields.push(field);
        }
        out.push(Record {
            name: r.name,
            source: file.to_string(),
            aliases: r.aliases,
            fields,
            span: r.span,
        });
    }
    out
}

fn item_kind(
    file: &str,
    record: &str,
    item: &RawItem,
    earlier: &[RecordField],
    known: &BTreeMap<String, String>,
    strings: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Option<RecordFieldKind> {
    let counter = |count: &str, what: &str, diags: &mut Vec<Diagnostic>| -> bool {
        let ok = earlier.iter().any(|f| {
            f.name == count
                && matches!(&f.kind, RecordFieldKind::Scalar { ty } if ty.starts_with('U'))
        });
        if !ok {
            diags.push(bad_count(file, record, item, count, what));
        }
        ok
    };
    match item {
        RawItem::Typed(ty, name, span) => {
            if fundamental_width(ty).is_some() {
                Some(RecordFieldKind::Scalar { ty: ty.clone() })
            } else {
                diags.push(not_fundamental(file, record, name, ty, *span));
                None
            }
        }
        RawItem::Array(ty, _, count, _) => {
            if !counter(count, "count", diags) {
                return None;
            }
            let count = count.clone();
            if fundamental_width(ty).is_some() {
                Some(RecordFieldKind::Array {
                    ty: ty.clone(),
                    count,
                })
            } else if let Some(rec) = known.get(ty) {
                Some(RecordFieldKind::Records {
                    ty: ty.clone(),
                    record: Some(rec.clone()),
                    count,
                })
            } else if strings.contains(&ty.to_ascii_lowercase()) {
                Some(RecordFieldKind::Strings {
                    ty: ty.clone(),
                    count,
                })
            } else {
                diags.push(undescribed(file, record, item, ty, &count));
                Some(RecordFieldKind::Records {
                    ty: ty.clone(),
                    record: None,
                    count,
                })
            }
        }
        RawItem::Untyped(name, _) => {
            // The chapter's convention: an untyped item is as long as the nearest `size` before it.
            let size = earlier
                .iter()
                .rev()
                .find(|f| f.name == "size")
                .map(|f| f.name.clone());
            let size = size.unwrap_or_else(|| "size".into());
            if !counter(&size, "size", diags) {
                return None;
            }
            Some(if name == "instructions" {
                RecordFieldKind::Instructions { size }
            } else {
                RecordFieldKind::Bytes { size }
            })
        }
    }
}

/// The count or size (`what`) of `item` names no earlier unsigned item.
fn bad_count(file: &str, record: &str, item: &RawItem, count: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::BadRecordCount,
        file,
        item.span(),
        format!(
            "the {what} of `{record}.{}` is `{count}`, which is no earlier unsigned item of `{record}`",
            item.name()
        ),
    )
    .expected("an earlier item of type UB, UW, UD or UQ")
}

/// A scalar item whose type `ty` is no fundamental type.
fn not_fundamental(file: &str, record: &str, name: &str, ty: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::BadRecordItem,
        file,
        span,
        format!("`{record}.{name}` has type `{ty}`, which is not a fundamental type"),
    )
    .expected("UB, UW, UD, UQ, B, W, D or Q (records are declared as arrays: `T name[count];`)")
}

/// An array of records of a format `ty` the chapter does not describe.
fn undescribed(file: &str, record: &str, item: &RawItem, ty: &str, count: &str) -> Diagnostic {
    Diagnostic::new(
        Code::UndescribedRecord,
        file,
        item.span(),
        format!(
            "the chapter describes no format `{ty}` for `{record}.{}`; it reads only when `{count}` is 0",
            item.name()
        ),
    )
    .expected(format!(
        "a pseudo-structure `{ty} {{ ... }}`, or a sentence that it shares another's format"
    ))
}

/// What a `- **name:** text` bullet says: its prose, values and bit items.
#[derive(Default)]
struct Bullet {
    description: String,
    values: Vec<EnumValue>,
    bits: Vec<RecordBits>,
}

fn indent(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

fn bullets(src: &Source, (start, end): (usize, usize)) -> BTreeMap<String, Bullet> {
    let p = patterns();
    let lines = src.lines(start, end);
    let mut out: BTreeMap<String, Bullet> = BTreeMap::new();
    let mut k = 0;
    while k < lines.len() {
        let Some(c) = p.bullet.captures(lines[k].text) else {
            k += 1;
            continue;
        };
        let base = cap(&c, 1).len();
        let name = cap(&c, 2);
        let mut b = Bullet {
            description: cap(&c, 3).trim().to_string(),
            ..Bullet::default()
        };
        k += 1;
        // Nested items: deeper lines until one at the bullet's indentation or less.
        let mut bits_indent: Option<usize> = None;
        let mut values: Vec<(String, String, Span)> = Vec::new();
        while k < lines.len() {
            let l = lines[k];
            if l.text.trim().is_empty() {
                k += 1;
                continue;
            }
            let ind = indent(l.text);
            if ind <= base || p.bullet.is_match(l.text) {
                break;
            }
            let item = l.text.trim_start();
            let Some(item) = item.strip_prefix("- ").or_else(|| item.strip_prefix("* ")) else {
                k += 1;
                continue;
            };
            let item = item.trim();
            let at = l.start + ind;
            let span = src.span(at, l.start + l.text.len());
            if let Some(bits) = bit_item(item, span) {
                flush(&mut values, &mut b, bits_indent.is_some());
                b.bits.push(bits);
                bits_indent = Some(ind);
            } else if let Some(c) = p.named_value.captures(item) {
                if bits_indent.is_some_and(|bi| ind <= bi) {
                    flush(&mut values, &mut b, bits_indent.is_some());
                    bits_indent = None;
                }
                values.push((cap(&c, 2), format!("{}: {}", cap(&c, 1), cap(&c, 3)), span));
            } else if let Some(c) = p.value.captures(item) {
                if bits_indent.is_some_and(|bi| ind <= bi) {
                    flush(&mut values, &mut b, bits_indent.is_some());
                    bits_indent = None;
                }
                values.push((cap(&c, 1), cap(&c, 2).trim().to_string(), span));
            }
            k += 1;
        }
        flush(&mut values, &mut b, bits_indent.is_some());
        out.entry(name).or_insert(b);
    }
    out
}

/// Moves the values read so far to the current bit item (when inside one) or the field.
fn flush(values: &mut Vec<(String, String, Span)>, b: &mut Bullet, in_bits: bool) {
    let parsed = to_values(std::mem::take(values));
    match b.bits.last_mut() {
        Some(bits) if in_bits => bits.values.extend(parsed),
        _ => b.values.extend(parsed),
    }
}

/// Values as written: a list of equally wide 0/1 strings of two or more digits (`00`, `01`,
/// `10`) is binary; anything else is read as a number in its own notation.
fn to_values(raw: Vec<(String, String, Span)>) -> Vec<EnumValue> {
    let binary = raw.len() > 1
        && raw.iter().all(|(v, _, _)| {
            v.len() > 1 && v.len() == raw[0].0.len() && v.chars().all(|c| c == '0' || c == '1')
        });
    raw.into_iter()
        .filter_map(|(v, meaning, span)| {
            let value = if binary {
                u64::from_str_radix(&v, 2).ok()?
            } else {
                super::parse_number(&v)?
            };
            Some(EnumValue {
                value,
                meaning,
                platform: None,
                span,
            })
        })
        .collect()
}

/// `type (bit 0-3): ...`, `bits 0-1 are used to represent the category ...`, `bit 2: must be
/// zero`, `bits 7..3 form the provenance field`.
fn bit_item(item: &str, span: Span) -> Option<RecordBits> {
    let p = patterns();
    let (name, a, b, text) = if let Some(c) = p.named_bits.captures(item) {
        (
            Some(cap(&c, 1)),
            cap(&c, 2),
            c.get(3).map(|m| m.as_str().to_string()),
            cap(&c, 4),
        )
    } else if let Some(c) = p.bare_bits.captures(item) {
        (
            None,
            cap(&c, 1),
            c.get(2).map(|m| m.as_str().to_string()),
            cap(&c, 3),
        )
    } else {
        return None;
    };
    let a: u8 = a.parse().ok()?;
    let b: u8 = b.map_or(Some(a), |b| b.parse().ok())?;
    let (hi, lo) = (a.max(b), a.min(b));
    let name = name.unwrap_or_else(|| {
        if text
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("must be zero")
        {
            "reserved".to_string()
        } else if let Some(c) = p.field_word.captures(&text) {
            cap(&c, 1).to_ascii_lowercase()
        } else {
            format!("bits_{hi}_{lo}")
        }
    });
    Some(RecordBits {
        name,
        hi,
        lo,
        text: text.trim().to_string(),
        values: vec![],
        span,
    })
}

/// Bit items inside the field's width; values inside their bit item (or the field).
fn check_bits(file: &str, f: &RecordField, diags: &mut Vec<Diagnostic>) {
    let width = match &f.kind {
        RecordFieldKind::Scalar { ty } => fundamental_width(ty).map_or(0, |w| u32::from(w) * 8),
        _ => 0,
    };
    for b in &f.bits {
        if u32::from(b.hi) >= width {
            diags.push(
                Diagnostic::new(
                    Code::BadBitItem,
                    file,
                    b.span,
                    format!(
                        "`{}` of `{}` covers bits {}..{}, outside the field's {width} bits",
                        b.name, f.name, b.hi, b.lo
                    ),
                )
                .expected(format!("bits below {width} of a scalar field")),
            );
            continue;
        }
        let bits = u32::from(b.hi - b.lo) + 1;
        for v in &b.values {
            if bits < 64 && v.value >> bits != 0 {
                diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        file,
                        v.span,
                        format!(
                            "value {} does not fit `{}` (bits {}..{})",
                            v.value, b.name, b.hi, b.lo
                        ),
                    )
                    .expected(format!("a value below {}", 1u64 << bits)),
                );
            }
        }
    }
    if width > 0 && width < 64 {
        for v in &f.values {
            if v.value >> width != 0 {
                diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        file,
                        v.span,
                        format!("value {} does not fit `{}` ({width} bits)", v.value, f.name),
                    )
                    .expected(format!("a value below {}", 1u64 << width)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Vec<Record>, Vec<Diagnostic>) {
        let mut d = Vec::new();
        let r = parse_chapter("chapters/x.md", text, &mut d);
        (r, d)
    }

    #[test]
    fn items_arrays_records_bytes_and_bullets() {
        let text = "### a\n  a {\n    UW n;\n    UB name[n];\n    UB k;\n    b b[k];\n    UB size;\n    value;\n  }\n\n- **k:** kinds\n\n  - 0:  zero\n  - 2:  two\n\n### b\n  b {\n    UB bits;\n  }\n\n- **bits:** packed\n\n  - type (bit 0-3): the type\n  - alignment (bit 4-7): the alignment\n";
        let (r, d) = parse(text);
        assert_eq!(d, vec![]);
        assert_eq!(r.len(), 2);
        let a = &r[0];
        assert_eq!(a.fields.len(), 6);
        assert_eq!(
            a.fields[1].kind,
            RecordFieldKind::Array {
                ty: "UB".into(),
                count: "n".into()
            }
        );
        assert_eq!(
            a.fields[3].kind,
            RecordFieldKind::Records {
                ty: "b".into(),
                record: Some("b".into()),
                count: "k".into()
            }
        );
        assert_eq!(
            a.fields[5].kind,
            RecordFieldKind::Bytes {
                size: "size".into()
            }
        );
        let vals: Vec<_> = a.fields[2]
            .values
            .iter()
            .map(|v| (v.value, v.meaning.as_str()))
            .collect();
        assert_eq!(vals, vec![(0, "zero"), (2, "two")]);
        let bits: Vec<_> = r[1].fields[0]
            .bits
            .iter()
            .map(|b| (b.name.as_str(), b.hi, b.lo))
            .collect();
        assert_eq!(bits, vec![("type", 3, 0), ("alignment", 7, 4)]);
        assert_eq!((a.span.line, a.span.column), (2, 3));
    }

    #[test]
    fn binary_values_nested_bit_items_and_named_values() {
        let text = "  r {\n    B kind;\n    UB l;\n  }\n\n- **kind:**\n\n  - bits 0-1 are used to represent the category of the variable.  Valid values are\n\n    - 00: General\n    - 01: Sampler\n    - 10: Surface\n\n  - bit 2: must be zero (reserved)\n  - bits 7..3 form the provenance field, used for\n\n    - 0: none\n    - 3: local_id\n\n- **l:** labels\n\n  - Block ('0'): a block\n  - Subroutine ('1'): a subroutine\n";
        let (r, d) = parse(text);
        assert_eq!(d, vec![]);
        let kind = &r[0].fields[0];
        let bits: Vec<_> = kind
            .bits
            .iter()
            .map(|b| {
                (
                    b.name.as_str(),
                    b.hi,
                    b.lo,
                    b.values.iter().map(|v| v.value).collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(
            bits,
            vec![
                ("category", 1, 0, vec![0, 1, 2]),
                ("reserved", 2, 2, vec![]),
                ("provenance", 7, 3, vec![0, 3]),
            ]
        );
        let l: Vec<_> = r[0].fields[1]
            .values
            .iter()
            .map(|v| (v.value, v.meaning.as_str()))
            .collect();
        assert_eq!(
            l,
            vec![(0, "Block: a block"), (1, "Subroutine: a subroutine")]
        );
    }

    #[test]
    fn list_entries_with_platforms() {
        let text = "# Instructions\n\n- [ADD - addition](instructions/ADD.md)\n\n- [DPAS - Dot Product Accumulate Systolic {XEHP+}](instructions/DPAS.md)\n  - [QW_GATHER - qword gather {PVC_XT,PVC}](QW_GATHER.md)\n[X - not a list {PVC}](instructions/X.md)\n";
        let l = listed("chapters/6_instructions.md", text);
        assert_eq!(l.len(), 2, "{l:?}");
        assert_eq!(
            (
                l[0].doc.as_str(),
                l[0].title.as_str(),
                l[0].annotation.as_str()
            ),
            ("DPAS.md", "DPAS - Dot Product Accumulate Systolic", "XEHP+")
        );
        // Line 5, column 44: the annotation inside the braces (`- [`, 38 characters, ` {`).
        assert_eq!((l[0].span.line, l[0].span.column), (5, 44));
        assert_eq!(&text[l[0].span.start..l[0].span.end], "XEHP+");
        assert_eq!(
            (l[1].doc.as_str(), l[1].annotation.as_str()),
            ("QW_GATHER.md", "PVC_XT,PVC")
        );
    }

    #[test]
    fn fenced_code_holds_no_records() {
        let (r, d) =
            parse("```\n    vec_operand {\n      ub tag;\n    }\n```\n  r {\n    UB a;\n  }\n");
        assert_eq!(d, vec![]);
        assert_eq!(r.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["r"]);
    }

    #[test]
    fn shared_formats_string_pools_and_the_instruction_stream() {
        let text = "## String Pool\n\nStrings are separated by the null character.\n\nSampler and surface variables share the same format:\n\n  surface_info {\n    UB n;\n  }\n\n  k {\n    UD c;\n    string_pool string_pool[c];\n    UB s;\n    sampler_info sampler_info[s];\n    UD size;\n    instructions;\n  }\n";
        let (r, d) = parse(text);
        assert_eq!(d, vec![]);
        assert_eq!(r[0].aliases, vec!["sampler_info".to_string()]);
        let k = &r[1];
        assert_eq!(
            k.fields[1].kind,
            RecordFieldKind::Strings {
                ty: "string_pool".into(),
                count: "c".into()
            }
        );
        assert_eq!(
            k.fields[3].kind,
            RecordFieldKind::Records {
                ty: "sampler_info".into(),
                record: Some("surface_info".into()),
                count: "s".into()
            }
        );
        assert_eq!(
            k.fields[5].kind,
            RecordFieldKind::Instructions {
                size: "size".into()
            }
        );
    }
}
