//! Documentation emitter: the ISA reference as Markdown tables, rendered with tera.
//!
//! One page per instruction (`docs/<NAME>.md`) so a spec change shows up in the page of the doc
//! it touches, and a summary (`docs/README.md`). All text is escaped here, in Rust, so the
//! templates only lay out cells; tables must survive GitHub's renderer whatever the docs say.

mod text;

use crate::emit::{FileJob, Options};
use crate::schema::{BitField, CountKind, Counted, EnumValue, Field, Instruction, Spec, Variant};
use crate::vocab::fixed_size;
use serde::Serialize;
use std::collections::BTreeMap;
use tera::{Context, Tera};
pub use text::{cell, code_block, code_cell, name_cell, slug, url_path, Anchors};

const INDEX: &str = include_str!("../../../templates/index.md.tera");
const INSTRUCTION: &str = include_str!("../../../templates/instruction.md.tera");

/// Path of an instruction's page, relative to the generated crate root.
pub fn page_path(i: &Instruction) -> String {
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
fn counted_text(c: &Counted) -> String {
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
    /// Escaped for display.
    name: String,
    /// The doc's file name for the `@generated` comment.
    source_file: String,
    page: String,
    source: String,
    opcode: String,
    sub_opcode: String,
    field_count: usize,
    size: String,
    oob: String,
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

fn bit_width(b: &BitField) -> u8 {
    b.hi.saturating_sub(b.lo).saturating_add(1)
}

/// Values are shown as the docs write most of them: binary inside a bit range, else decimal
/// with hex.
fn value_text(v: u64, width: Option<u8>) -> String {
    match width {
        Some(w) => format!("`0b{v:0w$b}`", w = w as usize),
        None => format!("`{v}` (`{v:#x}`)"),
    }
}

fn value_rows(values: &[EnumValue], width: Option<u8>) -> Vec<ValueRow> {
    values
        .iter()
        .map(|v| ValueRow {
            value: value_text(v.value, width),
            meaning: cell(&v.meaning),
            platform: v.platform.as_deref().map(cell).unwrap_or_default(),
        })
        .collect()
}

/// Byte offset and size of every field of a variant, while they are fixed: offsets become
/// variable after the first field of variable size, or that may be absent.
fn layout(
    inst: &Instruction,
    v: &Variant,
    anchors: &BTreeMap<&str, String>,
) -> (Vec<LayoutRow>, Option<usize>) {
    let by_name: BTreeMap<&str, &Field> =
        inst.fields.iter().map(|f| (f.name.as_str(), f)).collect();
    let mut offset = Some(1 + usize::from(inst.sub_opcode.is_some()));
    let rows = v
        .fields
        .iter()
        .map(|name| {
            let ty = by_name
                .get(name.as_str())
                .map(|f| f.ty.as_str())
                .unwrap_or("unknown");
            let mut optional = v.optional_fields.contains(name);
            let mut size = fixed_size(ty);
            let mut size_text = size.map_or("variable".into(), |s| s.to_string());
            let mut optional_text = if optional { "yes" } else { "no" }.to_string();
            for c in &v.counted {
                let Some(i) = c.fields.iter().position(|f| f == name) else {
                    continue;
                };
                match c.kind {
                    CountKind::Repeat => {
                        size_text = format!("{size_text} × {}", c.count);
                        size = None;
                    }
                    CountKind::Prefix => {
                        optional = true;
                        optional_text = format!("if {} > {i}", c.count);
                    }
                }
            }
            let row = LayoutRow {
                name: name_cell(name),
                anchor: anchors.get(name.as_str()).cloned().unwrap_or_default(),
                ty: code_cell(ty),
                optional: cell(&optional_text),
                offset: offset.map_or("variable".into(), |o| o.to_string()),
                size: cell(&size_text),
            };
            offset = offset.zip(size).map(|(o, s)| o + s).filter(|_| !optional);
            row
        })
        .collect();
    (rows, offset)
}

/// Anchors of the field headings, deduplicated as GitHub does against every heading that
/// precedes them on the page (the instruction name, the format section, the fields table).
fn field_anchors(inst: &Instruction) -> BTreeMap<&str, String> {
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

fn variant_heading(v: &Variant) -> String {
    match &v.condition {
        Some(c) => format!("When {c}"),
        None => "Layout".into(),
    }
}

fn instruction_row(inst: &Instruction) -> InstructionRow {
    let anchors = field_anchors(inst);
    let mut sizes = Vec::new();
    let variants = inst
        .variants
        .iter()
        .map(|v| {
            let (fields, size) = layout(inst, v, &anchors);
            sizes.push(size);
            VariantRow {
                heading: cell(&variant_heading(v)),
                fields,
                counted: v.counted.iter().map(counted_text).collect(),
            }
        })
        .collect();
    sizes.dedup();
    let size = match sizes.as_slice() {
        [Some(s)] => s.to_string(),
        // No format table: only the opcode bytes are known.
        [] => (1 + usize::from(inst.sub_opcode.is_some())).to_string(),
        _ => "variable".into(),
    };
    let fields = inst
        .fields
        .iter()
        .map(|f| FieldRow {
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
                    values: value_rows(&b.values, Some(bit_width(b))),
                })
                .collect(),
        })
        .collect();
    InstructionRow {
        name: name_cell(&inst.name),
        page: format!("{}.md", url_path(&inst.name)),
        source: code_cell(&inst.source),
        source_file: comment_text(&inst.source),
        opcode: format!("`{:#04x}`", inst.opcode.value),
        sub_opcode: inst
            .sub_opcode
            .as_ref()
            .map(|s| format!("`{:#04x}` ({})", s.value, name_cell(&s.name)))
            .unwrap_or_else(|| "none".into()),
        field_count: inst.fields.len(),
        size,
        oob: inst
            .properties
            .get("Out-of-bound Access")
            .map(|s| cell(s))
            .unwrap_or_else(|| "n/a".into()),
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

fn platform_rows(spec: &Spec) -> Vec<PlatformRow> {
    let mut rows = Vec::new();
    for inst in &spec.instructions {
        let anchors = field_anchors(inst);
        for f in &inst.fields {
            let anchor = anchors.get(f.name.as_str()).cloned().unwrap_or_default();
            let link = format!("{}.md#{anchor}", url_path(&inst.name));
            let mut push = |bits: String, v: &EnumValue, width: Option<u8>, platform: &str| {
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
                        push(bits(b.hi, b.lo), v, Some(bit_width(b)), p);
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

fn errata_rows(spec: &Spec) -> Vec<ErratumRow> {
    spec.errata
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
pub fn render(spec: &Spec, opts: &Options) -> BTreeMap<String, String> {
    super::run(Prepared::new(spec).jobs(spec, opts))
}

/// What every page shares: the templates, compiled once, and one row per instruction.
pub(crate) struct Prepared {
    tera: Tera,
    rows: Vec<InstructionRow>,
}

impl Prepared {
    pub(crate) fn new(spec: &Spec) -> Prepared {
        crate::timings::time("docs: rows and templates", || Prepared {
            tera: templates(),
            rows: crate::par::map(&spec.instructions, instruction_row),
        })
    }

    /// The index and each page as a job of its own.
    pub(crate) fn jobs<'a>(&'a self, spec: &'a Spec, opts: &'a Options) -> Vec<FileJob<'a>> {
        let (tera, rows) = (&self.tera, &self.rows);
        let mut jobs = vec![FileJob::new("docs/README.md", move || {
            let mut ctx = Context::new();
            ctx.insert("command", &comment_text(&opts.regen_command));
            ctx.insert("spec_label", &comment_text(&opts.spec_label));
            ctx.insert("label", &code_cell(&format!("{}/", opts.spec_label)));
            ctx.insert("instructions", rows);
            ctx.insert("platform_values", &platform_rows(spec));
            ctx.insert("errata", &errata_rows(spec));
            crate::timings::time("docs: tera", || finish(tera.render("index.md", &ctx)))
        })];
        for (inst, row) in spec.instructions.iter().zip(rows) {
            // A page reads its row and the header options only.
            let inputs =
                move || format!("{}{opts:?}", serde_json::to_string(row).unwrap_or_default());
            jobs.push(FileJob::keyed(page_path(inst), inputs, move || {
                let mut ctx = Context::new();
                ctx.insert("command", &comment_text(&opts.regen_command));
                ctx.insert("spec_label", &comment_text(&opts.spec_label));
                ctx.insert("i", row);
                crate::timings::time("docs: tera", || finish(tera.render("instruction.md", &ctx)))
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
    use crate::schema::{OpcodeDef, Span};

    fn field(name: &str, ty: &str) -> Field {
        Field {
            name: name.into(),
            ty: ty.into(),
            optional: false,
            description: String::new(),
            bitfields: vec![],
            values: vec![],
            allowed_types: vec![],
            operand_classes: vec![],
            span: Span::default(),
        }
    }

    fn variant(condition: Option<&str>, fields: &[&str], optional: &[&str]) -> Variant {
        Variant {
            condition: condition.map(Into::into),
            fields: fields.iter().map(|s| s.to_string()).collect(),
            selectors: vec![],
            optional_fields: optional.iter().map(|s| s.to_string()).collect(),
            counted: vec![],
            span: Span::default(),
        }
    }

    fn opcode(name: &str, value: u8) -> OpcodeDef {
        OpcodeDef {
            name: name.into(),
            value,
            span: Span::default(),
        }
    }

    fn instruction(name: &str, fields: Vec<Field>, variants: Vec<Variant>) -> Instruction {
        Instruction {
            name: name.into(),
            source: format!("{name}.md"),
            opcode: opcode(name, 0x36),
            sub_opcode: None,
            fields,
            variants,
            properties: BTreeMap::new(),
            semantics: String::new(),
            description: String::new(),
            text: String::new(),
            notes: String::new(),
            type_maps: vec![],
            other_sections: BTreeMap::new(),
            aliases: vec![],
            alias_of: None,
            syntax: None,
            pseudo_code: Default::default(),
            span: Span::default(),
        }
    }

    fn value(v: u64, meaning: &str, platform: Option<&str>) -> EnumValue {
        EnumValue {
            value: v,
            meaning: meaning.into(),
            platform: platform.map(Into::into),
            span: Span::default(),
        }
    }

    /// The (offset, size) cells of a variant's layout table.
    fn cells(inst: &Instruction, v: usize) -> Vec<(String, String)> {
        let anchors = field_anchors(inst);
        layout(inst, &inst.variants[v], &anchors)
            .0
            .into_iter()
            .map(|r| (r.offset, r.size))
            .collect()
    }

    fn pair(o: &str, s: &str) -> (String, String) {
        (o.to_string(), s.to_string())
    }

    #[test]
    fn offsets_are_fixed_until_a_variable_field() {
        // OWORD_ST: 0x36 | Size(ub) | Surface(ub) | Offset(scalar) | Src(raw_operand)
        let i = instruction(
            "OWORD_ST",
            vec![
                field("Size", "ub"),
                field("Surface", "ub"),
                field("Offset", "scalar"),
                field("Src", "raw_operand"),
            ],
            vec![variant(None, &["Size", "Surface", "Offset", "Src"], &[])],
        );
        assert_eq!(
            cells(&i, 0),
            vec![
                pair("1", "1"),
                pair("2", "1"),
                pair("3", "variable"),
                pair("variable", "variable"),
            ]
        );
        assert_eq!(instruction_row(&i).size, "variable");
    }

    #[test]
    fn fixed_sizes_count_opcode_and_sub_opcode_bytes() {
        // JMP: opcode(1) + Exec_size ub(1) + Pred uw(2) + Label uw(2) = 6.
        let jmp = instruction(
            "JMP",
            vec![
                field("Exec_size", "ub"),
                field("Pred", "uw"),
                field("Label", "uw"),
            ],
            vec![variant(None, &["Exec_size", "Pred", "Label"], &[])],
        );
        assert_eq!(instruction_row(&jmp).size, "6");
        // With a sub-opcode the first field sits at byte 2: 1 + 1 + ud(4) = 6.
        let mut sub = instruction(
            "SUB",
            vec![field("X", "ud")],
            vec![variant(None, &["X"], &[])],
        );
        sub.sub_opcode = Some(opcode("SUB_OP", 3));
        assert_eq!(cells(&sub, 0), vec![pair("2", "4")]);
        let row = instruction_row(&sub);
        assert_eq!(row.size, "6");
        assert_eq!(row.sub_opcode, "`0x03` (SUB\\_OP)");
        // No fields at all (BARRIER): the opcode byte alone.
        let barrier = instruction("BARRIER", vec![], vec![variant(None, &[], &[])]);
        assert_eq!(instruction_row(&barrier).size, "1");
    }

    #[test]
    fn an_optional_field_makes_later_offsets_and_the_size_variable() {
        let i = instruction(
            "OPT",
            vec![field("A", "ub"), field("B", "uw"), field("C", "ub")],
            vec![variant(None, &["A", "B", "C"], &["B"])],
        );
        assert_eq!(
            cells(&i, 0),
            vec![pair("1", "1"), pair("2", "2"), pair("variable", "1")]
        );
        assert_eq!(instruction_row(&i).size, "variable");
    }

    #[test]
    fn variants_of_different_sizes_make_the_size_variable() {
        let fields = vec![field("Op", "ub"), field("A", "ub"), field("B", "ud")];
        let same = instruction(
            "SAME",
            fields.clone(),
            vec![
                variant(Some("Op=x"), &["Op", "A"], &[]),
                variant(Some("Op=y"), &["Op", "A"], &[]),
            ],
        );
        assert_eq!(instruction_row(&same).size, "3");
        let differ = instruction(
            "DIFFER",
            fields,
            vec![
                variant(Some("Op=x"), &["Op", "A"], &[]),
                variant(Some("Op=y"), &["Op", "B"], &[]),
            ],
        );
        assert_eq!(instruction_row(&differ).size, "variable");
    }

    #[test]
    fn platform_values_are_listed_with_their_bits() {
        // FENCE: {ICLLP+}Bit[5] with 0b0 / 0b1; a plain Bit[0] with no annotation.
        let mut mask = field("Mask", "ub");
        mask.bitfields = vec![
            BitField {
                hi: 0,
                lo: 0,
                summary: "commit enable".into(),
                values: vec![],
                platform: None,
                span: Span::default(),
            },
            BitField {
                hi: 5,
                lo: 5,
                summary: String::new(),
                values: vec![value(0, "global", None), value(1, "SLM | only", None)],
                platform: Some("ICLLP+".into()),
                span: Span::default(),
            },
        ];
        mask.values = vec![value(7, "<all>", Some("XEHP+")), value(8, "none", None)];
        let spec = Spec {
            instructions: vec![instruction(
                "FENCE",
                vec![mask],
                vec![variant(None, &["Mask"], &[])],
            )],
            ..Spec::default()
        };
        let rows: Vec<_> = platform_rows(&spec)
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
        let i = instruction(
            "CASE",
            vec![field("Src", "ub"), field("src", "ub")],
            vec![variant(None, &["Src", "src"], &[])],
        );
        let out = render(
            &Spec {
                instructions: vec![i],
                ..Spec::default()
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
