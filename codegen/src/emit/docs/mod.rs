//! Documentation emitter: the ISA reference as Markdown tables, rendered with tera.
//!
//! One page per instruction (`docs/<NAME>.md`) so a spec change shows up in the page of the doc
//! it touches, and a summary (`docs/README.md`). All text is escaped here, in Rust, so the
//! templates only lay out cells; tables must survive GitHub's renderer whatever the docs say.

mod text;

use crate::analyze::reference::{
    LayoutSlot, Page, PageCounted, PageField, PageValue, PageVariant, Presence, Reference,
};
use crate::analyze::CountKind;
use crate::emit::{FileJob, Options};
use serde::Serialize;
use std::collections::BTreeMap;
use tera::{Context, Tera};
pub use text::{cell, code_block, code_cell, name_cell, slug, url_path, Anchors};

const INDEX: &str = include_str!("../../../templates/index.md.tera");
const INSTRUCTION: &str = include_str!("../../../templates/instruction.md.tera");

/// Path of an instruction's page, relative to the generated crate root.
pub fn page_path(i: &Page) -> String {
    format!("docs/{}.md", i.name)
}

/// Heading of a field's section; its slug is the field's anchor.
fn field_heading(name: &str) -> String {
    format!("Field: {name}")
}

#[derive(Serialize)]
struct ValueRow {
    value: String,
    meaning: String,
    platform: String,
}

#[derive(Serialize)]
struct BitRow {
    bits: String,
    summary: String,
    platform: String,
    values: Vec<ValueRow>,
}

#[derive(Serialize)]
struct FieldRow {
    name: String,
    /// Escaped heading text and its (GitHub-deduplicated) anchor.
    heading: String,
    anchor: String,
    ty: String,
    optional: &'static str,
    allowed_types: String,
    operand_classes: String,
    description: String,
    values: Vec<ValueRow>,
    bitfields: Vec<BitRow>,
}

#[derive(Serialize)]
struct LayoutRow {
    name: String,
    anchor: String,
    ty: String,
    optional: String,
    offset: String,
    size: String,
}

#[derive(Serialize)]
struct VariantRow {
    heading: String,
    fields: Vec<LayoutRow>,
    /// One sentence per counted list, escaped.
    counted: Vec<String>,
}

/// What the reference page says of a counted list.
fn counted_text(c: &PageCounted) -> String {
    let range = c
        .range_sentence
        .as_ref()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    let text = match c.kind {
        CountKind::Repeat => format!(
            "`{}` is repeated `{}` times{range}; the generated field is a list and `{}` its length.",
            c.fields.join(", "),
            c.count,
            c.count
        ),
        CountKind::Prefix => format!(
            "Only the first `{}` of {} are encoded{range}{}; the generated field is one list of them and `{}` its length.",
            c.count,
            c.fields.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "),
            c.skip_sentence.as_ref().map(|s| format!(" (\"{s}\")")).unwrap_or_default(),
            c.count
        ),
    };
    text::escape_inline(&text)
}

#[derive(Serialize)]
struct InstructionRow {
    /// The columns the index shows too (name, page, source, opcode, size...).
    #[serde(flatten)]
    index: IndexRow,
    /// The doc's file name for the `@generated` comment.
    source_file: String,
    aliases: String,
    description: String,
    variants: Vec<VariantRow>,
    fields: Vec<FieldRow>,
    properties: Vec<(String, String)>,
    semantics: String,
    text: String,
    notes: String,
    type_maps: Vec<TypeMapRow>,
    other_sections: Vec<(String, String)>,
}

/// The columns of an [`InstructionRow`] the index shows: made from the page alone, so the
/// index needs no page's whole row (a regen after one doc changed makes only that doc's row).
#[derive(Serialize)]
struct IndexRow {
    name: String,
    page: String,
    source: String,
    opcode: String,
    sub_opcode: String,
    field_count: usize,
    size: String,
    oob: String,
}

impl IndexRow {
    fn of(inst: &Page) -> Self {
        IndexRow {
            name: name_cell(&inst.name),
            page: format!("{}.md", url_path(&inst.name)),
            source: code_cell(&inst.source),
            opcode: format!("`{:#04x}`", inst.opcode),
            sub_opcode: inst
                .sub_opcode
                .as_ref()
                .map(|(value, name)| format!("`{value:#04x}` ({})", name_cell(name)))
                .unwrap_or_else(|| "none".into()),
            field_count: inst.fields.len(),
            size: inst.size.map_or("variable".into(), |s| s.to_string()),
            oob: inst
                .properties
                .get("Out-of-bound Access")
                .map(|s| cell(s))
                .unwrap_or_else(|| "n/a".into()),
        }
    }
}

#[derive(Serialize)]
struct TypeMapRow {
    map: usize,
    platform: String,
    operands: String,
    types: String,
}

#[derive(Serialize)]
struct PlatformRow {
    instruction: String,
    link: String,
    field: String,
    bits: String,
    value: String,
    meaning: String,
    platform: String,
}

fn bits(hi: u8, lo: u8) -> String {
    if hi == lo {
        format!("[{hi}]")
    } else {
        format!("[{hi}..{lo}]")
    }
}

/// Values are shown as the docs write most of them: binary inside a bit range, else decimal
/// with hex.
fn value_text(v: u64, width: Option<u8>) -> String {
    match width {
        Some(w) => format!("`0b{v:0w$b}`", w = w as usize),
        None => format!("`{v}` (`{v:#x}`)"),
    }
}

fn value_rows(values: &[PageValue], width: Option<u8>) -> Vec<ValueRow> {
    values
        .iter()
        .map(|v| ValueRow {
            value: value_text(v.value, width),
            meaning: cell(&v.meaning),
            platform: v.platform.as_deref().map(cell).unwrap_or_default(),
        })
        .collect()
}

/// The layout table of a format, as the analysis decided it.
fn layout(v: &PageVariant, anchors: &BTreeMap<&str, String>) -> Vec<LayoutRow> {
    v.slots.iter().map(|s| layout_row(s, anchors)).collect()
}

fn layout_row(s: &LayoutSlot, anchors: &BTreeMap<&str, String>) -> LayoutRow {
    let mut size = s.unit_size.map_or("variable".into(), |n| n.to_string());
    for count in &s.repeated_by {
        size = format!("{size} × {count}");
    }
    let optional = match &s.presence {
        Presence::Always => "no".to_string(),
        Presence::Optional => "yes".to_string(),
        Presence::IfCountAbove { count, index } => format!("if {count} > {index}"),
    };
    LayoutRow {
        name: name_cell(&s.name),
        anchor: anchors.get(s.name.as_str()).cloned().unwrap_or_default(),
        ty: code_cell(&s.ty),
        optional: cell(&optional),
        offset: s.offset.map_or("variable".into(), |o| o.to_string()),
        size: cell(&size),
    }
}

/// Anchors of the field headings, deduplicated as GitHub does against every heading that
/// precedes them on the page (the instruction name, the format section, the fields table).
fn field_anchors(inst: &Page) -> BTreeMap<&str, String> {
    let mut anchors = Anchors::default();
    anchors.add(&inst.name);
    anchors.add("Format");
    for v in &inst.variants {
        anchors.add(&variant_heading(v));
    }
    anchors.add("Fields");
    inst.fields
        .iter()
        .map(|f| (f.name.as_str(), anchors.add(&field_heading(&f.name))))
        .collect()
}

fn variant_heading(v: &PageVariant) -> String {
    match &v.condition {
        Some(c) => format!("When {c}"),
        None => "Layout".into(),
    }
}

/// A field's section of its page.
fn field_row(f: &PageField, anchors: &BTreeMap<&str, String>) -> FieldRow {
    FieldRow {
        name: name_cell(&f.name),
        heading: name_cell(&field_heading(&f.name)),
        anchor: anchors.get(f.name.as_str()).cloned().unwrap_or_default(),
        ty: code_cell(&f.ty),
        optional: if f.optional { "yes" } else { "no" },
        allowed_types: cell(&f.allowed_types.join(", ")),
        operand_classes: cell(&f.operand_classes.join(", ")),
        description: cell(&f.description),
        values: value_rows(&f.values, None),
        bitfields: f
            .bitfields
            .iter()
            .map(|b| BitRow {
                bits: bits(b.hi, b.lo),
                summary: cell(&b.summary),
                platform: b.platform.as_deref().map(cell).unwrap_or_default(),
                values: value_rows(&b.values, Some(b.width())),
            })
            .collect(),
    }
}

fn instruction_row(inst: &Page) -> InstructionRow {
    let anchors = field_anchors(inst);
    let variants = inst
        .variants
        .iter()
        .map(|v| VariantRow {
            heading: cell(&variant_heading(v)),
            fields: layout(v, &anchors),
            counted: v.counted.iter().map(counted_text).collect(),
        })
        .collect();
    let fields = inst.fields.iter().map(|f| field_row(f, &anchors)).collect();
    InstructionRow {
        index: IndexRow::of(inst),
        source_file: comment_text(&inst.source),
        aliases: inst
            .aliases
            .iter()
            .map(|a| format!("[{}]({}.md)", name_cell(a), url_path(a)))
            .collect::<Vec<_>>()
            .join(", "),
        description: cell_paragraphs(&inst.description),
        variants,
        fields,
        properties: inst
            .properties
            .iter()
            .map(|(k, v)| (cell(k), cell(v)))
            .collect(),
        semantics: code_block(&inst.semantics, ""),
        text: code_block(&inst.text, ""),
        notes: cell_paragraphs(&inst.notes),
        type_maps: inst
            .type_maps
            .iter()
            .enumerate()
            .flat_map(|(n, m)| {
                let platform = m.platform.as_deref().map(cell).unwrap_or_default();
                let row = |operands: String, types: &[String]| TypeMapRow {
                    map: n + 1,
                    platform: platform.clone(),
                    operands,
                    // An empty list (warning V0204) is shown as such, not as a blank cell.
                    types: if types.is_empty() {
                        "none".into()
                    } else {
                        cell(&types.join(", "))
                    },
                };
                let mut rows: Vec<TypeMapRow> =
                    m.types.iter().map(|(g, t)| row(cell(g), t)).collect();
                if rows.is_empty() {
                    rows.push(row("none".into(), &[]));
                }
                rows
            })
            .collect(),
        // Free-form sections (examples) are shown verbatim: their Markdown is not ours to trust.
        other_sections: inst
            .other_sections
            .iter()
            .map(|(title, body)| (cell(title), code_block(body, "")))
            .collect(),
    }
}

/// Prose outside tables: escaped like cells but keeping paragraph breaks.
fn cell_paragraphs(s: &str) -> String {
    s.split("\n\n")
        .map(|p| text::escape_inline(&p.split_whitespace().collect::<Vec<_>>().join(" ")))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn platform_rows(reference: &Reference) -> Vec<PlatformRow> {
    let mut rows = Vec::new();
    for inst in &reference.pages {
        let anchors = field_anchors(inst);
        for f in &inst.fields {
            let anchor = anchors.get(f.name.as_str()).cloned().unwrap_or_default();
            let link = format!("{}.md#{anchor}", url_path(&inst.name));
            let mut push = |bits: String, v: &PageValue, width: Option<u8>, platform: &str| {
                rows.push(PlatformRow {
                    instruction: name_cell(&inst.name),
                    link: link.clone(),
                    field: name_cell(&f.name),
                    bits,
                    value: value_text(v.value, width),
                    meaning: cell(&v.meaning),
                    platform: cell(platform),
                });
            };
            for v in &f.values {
                if let Some(p) = &v.platform {
                    push("—".into(), v, None, p);
                }
            }
            for b in &f.bitfields {
                for v in &b.values {
                    if let Some(p) = v.platform.as_ref().or(b.platform.as_ref()) {
                        push(bits(b.hi, b.lo), v, Some(b.width()), p);
                    }
                }
            }
        }
    }
    rows
}

/// One applied erratum, escaped for Markdown.
#[derive(Serialize)]
struct ErratumRow {
    title: String,
    file: String,
    doc: String,
    doc_says: String,
    intel_does: String,
    evidence: String,
}

fn errata_rows(reference: &Reference) -> Vec<ErratumRow> {
    reference
        .errata
        .iter()
        .map(|e| ErratumRow {
            title: text::escape_inline(&e.title),
            file: code_cell(&e.file),
            doc: code_cell(&e.doc),
            doc_says: text::escape_inline(&e.doc_says.replace('\n', " ")),
            intel_does: text::escape_inline(&e.intel_does.replace('\n', " ")),
            evidence: code_block(&e.evidence, "text"),
        })
        .collect()
}

/// The page templates, compiled.
fn templates() -> Tera {
    let mut t = Tera::default();
    // The templates are part of the generator: a parse error is a bug caught by every test.
    t.add_raw_templates([("index.md", INDEX), ("instruction.md", INSTRUCTION)])
        .expect("docs templates parse");
    t
}

/// Renders the reference: `docs/README.md` and one page per instruction.
pub fn render(reference: Reference, opts: &Options) -> BTreeMap<String, String> {
    super::run(Prepared::new(reference).jobs(opts), &Default::default())
}

/// What every page shares: the templates, compiled once (while the schema is analysed), and
/// the reference the pages are made of.
pub(crate) struct Prepared {
    tera: Tera,
    reference: Reference,
}

impl Prepared {
    pub(crate) fn new(reference: Reference) -> Prepared {
        Prepared {
            tera: templates(),
            reference,
        }
    }

    /// The index and each page as a job of its own.
    pub(crate) fn jobs<'a>(&'a self, opts: &'a Options) -> Vec<FileJob<'a>> {
        let reference = &self.reference;
        let mut jobs = vec![FileJob::new("docs/README.md", move || {
            let mut ctx = Context::new();
            ctx.insert("command", &comment_text(&opts.regen_command));
            ctx.insert("spec_label", &comment_text(&opts.spec_label));
            ctx.insert("label", &code_cell(&format!("{}/", opts.spec_label)));
            let slim: Vec<IndexRow> = reference.pages.iter().map(IndexRow::of).collect();
            ctx.insert("instructions", &slim);
            ctx.insert("platform_values", &platform_rows(reference));
            ctx.insert("errata", &errata_rows(reference));
            finish(self.tera.render("index.md", &ctx))
        })];
        for inst in &reference.pages {
            jobs.push(FileJob::new(page_path(inst), move || {
                let mut ctx = Context::new();
                ctx.insert("command", &comment_text(&opts.regen_command));
                ctx.insert("spec_label", &comment_text(&opts.spec_label));
                ctx.insert("i", &instruction_row(inst));
                finish(self.tera.render("instruction.md", &ctx))
            }));
        }
        jobs
    }
}

/// Text inside the `@generated` HTML comment, which `-->` would end early.
fn comment_text(s: &str) -> String {
    s.replace("-->", "- ->").replace(['\n', '\r'], " ")
}

/// Collapses runs of blank lines the templates leave and ends with one newline.
fn finish(rendered: tera::Result<String>) -> String {
    // Rendering only fails on a template bug (every value is a plain string or number).
    let text = rendered.unwrap_or_else(|e| panic!("docs template failed: {e:?}"));
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let line = line.trim_end();
        let ticks: String = line.chars().take_while(|&c| c == '`').collect();
        if ticks.len() >= 3 {
            match &fence {
                None => fence = Some(ticks),
                Some(open) if *open == ticks && line.len() == ticks.len() => fence = None,
                Some(_) => {}
            }
        }
        if line.is_empty() && fence.is_none() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    let trimmed = out.trim_end();
    format!("{trimmed}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::reference::PageBits;

    fn field(name: &str, ty: &str) -> PageField {
        PageField {
            name: name.into(),
            ty: ty.into(),
            ..PageField::default()
        }
    }

    fn value(v: u64, meaning: &str, platform: Option<&str>) -> PageValue {
        PageValue {
            value: v,
            meaning: meaning.into(),
            platform: platform.map(Into::into),
        }
    }

    fn slot(name: &str, ty: &str, offset: usize, size: usize) -> LayoutSlot {
        LayoutSlot {
            name: name.into(),
            ty: ty.into(),
            offset: Some(offset),
            unit_size: Some(size),
            repeated_by: vec![],
            presence: Presence::Always,
        }
    }

    fn page(name: &str, fields: Vec<PageField>, slots: Vec<LayoutSlot>) -> Page {
        Page {
            name: name.into(),
            source: format!("{name}.md"),
            opcode: 0x36,
            fields,
            variants: vec![PageVariant {
                condition: None,
                slots,
                counted: vec![],
                end: None,
            }],
            ..Page::default()
        }
    }

    #[test]
    fn layout_cells_say_variable_repeated_and_present_by_count() {
        let mut repeated = slot("Label", "uw", 2, 2);
        repeated.offset = None;
        repeated.repeated_by = vec!["Num_labels".into()];
        let mut listed = slot("P1", "raw_operand", 9, 0);
        listed.unit_size = None;
        listed.presence = Presence::IfCountAbove {
            count: "NumParams".into(),
            index: 1,
        };
        let mut optional = slot("Opt", "ub", 3, 1);
        optional.presence = Presence::Optional;
        let anchors = BTreeMap::new();
        let cells: Vec<(String, String, String)> = [repeated, listed, optional]
            .iter()
            .map(|s| layout_row(s, &anchors))
            .map(|r| (r.offset, r.size, r.optional))
            .collect();
        let t = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
        assert_eq!(
            cells,
            vec![
                t("variable", "2 × Num\\_labels", "no"),
                t("9", "variable", "if NumParams &gt; 1"),
                t("3", "1", "yes"),
            ]
        );
    }

    #[test]
    fn sizes_and_sub_opcodes_as_the_index_shows_them() {
        let mut sub = page("SUB", vec![field("X", "ud")], vec![slot("X", "ud", 2, 4)]);
        sub.sub_opcode = Some((3, "SUB_OP".into()));
        sub.size = Some(6);
        let row = instruction_row(&sub);
        assert_eq!(
            (row.index.size.as_str(), row.index.sub_opcode.as_str()),
            ("6", "`0x03` (SUB\\_OP)")
        );
        sub.size = None;
        assert_eq!(instruction_row(&sub).index.size, "variable");
    }

    #[test]
    fn platform_values_are_listed_with_their_bits() {
        // FENCE: {ICLLP+}Bit[5] with 0b0 / 0b1; a plain Bit[0] with no annotation.
        let mut mask = field("Mask", "ub");
        mask.bitfields = vec![
            PageBits {
                hi: 0,
                lo: 0,
                summary: "commit enable".into(),
                values: vec![],
                platform: None,
            },
            PageBits {
                hi: 5,
                lo: 5,
                summary: String::new(),
                values: vec![value(0, "global", None), value(1, "SLM | only", None)],
                platform: Some("ICLLP+".into()),
            },
        ];
        mask.values = vec![value(7, "<all>", Some("XEHP+")), value(8, "none", None)];
        let reference = Reference {
            pages: vec![page("FENCE", vec![mask], vec![slot("Mask", "ub", 1, 1)])],
            ..Reference::default()
        };
        let rows: Vec<_> = platform_rows(&reference)
            .into_iter()
            .map(|r| (r.link, r.bits, r.value, r.meaning, r.platform))
            .collect();
        let link = "FENCE.md#field-mask".to_string();
        assert_eq!(
            rows,
            vec![
                (
                    link.clone(),
                    "—".into(),
                    "`7` (`0x7`)".into(),
                    "&lt;all&gt;".into(),
                    "XEHP+".into()
                ),
                (
                    link.clone(),
                    "[5]".into(),
                    "`0b0`".into(),
                    "global".into(),
                    "ICLLP+".into()
                ),
                (
                    link,
                    "[5]".into(),
                    "`0b1`".into(),
                    "SLM \\| only".into(),
                    "ICLLP+".into()
                ),
            ]
        );
    }

    #[test]
    fn pages_carry_the_marker_and_field_anchors_that_differ_only_in_case_stay_distinct() {
        let mut i = page(
            "CASE",
            vec![field("Src", "ub"), field("src", "ub")],
            vec![slot("Src", "ub", 1, 1), slot("src", "ub", 2, 1)],
        );
        i.size = Some(3);
        let out = render(
            Reference {
                pages: vec![i],
                ..Reference::default()
            },
            &Options::default(),
        );
        assert_eq!(
            out.keys().collect::<Vec<_>>(),
            vec!["docs/CASE.md", "docs/README.md"]
        );
        let page = &out["docs/CASE.md"];
        assert!(page
            .starts_with("<!-- @generated by `cargo xtask regen` from spec/CASE.md. Do not edit"));
        assert!(page.contains("| 1 | [Src](#field-src) | `ub` | no | 1 | 1 |"));
        assert!(page.contains("| 2 | [src](#field-src-1) | `ub` | no | 2 | 1 |"));
        assert!(out["docs/README.md"]
            .contains("| `0x36` | none | [CASE](CASE.md) | 2 | 3 | n/a | `CASE.md` |"));
    }
}
