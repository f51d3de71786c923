//! One doc → one [`Instruction`]: sections from pulldown-cmark's offset iterator, format tables
//! and field bullets from the source lines those sections span.

use super::counted;
use super::source::{Line, Source};
use super::table;
use super::text::{clean, is_fence, prose};
use crate::diag::{Code, Diagnostic};
use crate::schema::{
    BitField, CountKind, Counted, EnumValue, Field, Instruction, OpcodeDef, Selector, Span, Syntax,
    TypeMap, Variant,
};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

struct Patterns {
    opcode_line: Regex,
    opcode_cell: Regex,
    field_bullet: Regex,
    untyped_bullet: Regex,
    bit_range: Regex,
    value: Regex,
    property: Regex,
    type_map: Regex,
    must_have_type: Regex,
    one_of_type: Regex,
    operand_class: Regex,
    condition: Regex,
    identifier: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        // The patterns are literals; a typo is caught by every test run.
        let re = |s: &str| Regex::new(s).expect("valid pattern");
        Patterns {
            opcode_line: re(r"^\s*([A-Za-z0-9_]+)\s*=\s*(\S+)\s*$"),
            opcode_cell: re(r"^0[xX]([0-9A-Fa-f]+)\s*\(\s*([A-Za-z0-9_]+)\s*\)$"),
            field_bullet: re(
                r"^(\s*)[-*+]\s+\*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)\s*:?\s*\*\*\s*:?(.*)$",
            ),
            untyped_bullet: re(r"^(\s*)[-*+]\s+\*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*\*\*(.*)$"),
            bit_range: re(
                r"^(\s*)[-*+]\s*(?:\{([^}]*)\})?\s*Bit\s*\[\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?\]\s*:?\s*(.*)$",
            ),
            value: re(r"^(\s*)[-*+]\s*(?:\{([^}]*)\})?\s*(0[bB][01_]+|0[xX][0-9A-Fa-f]+|\d+)\s*:\s*(.*)$"),
            property: re(r"^\s*[-*+]\s+\*\*\s*([^*]+?)\s*:\s*\*\*\s*(.*)$"),
            type_map: re(r"^(\s*)[-*+]\s+\*\*\s*Type map\s*(?:\{([^}]*)\})?\s*\*\*"),
            must_have_type: re(r"(?i)must\s+have\s+type\s+([A-Za-z0-9 ,]+)"),
            one_of_type: re(r"(?i)must\s+have\s+one\s+of\s+([A-Za-z0-9 ,]+?)\s+types?\b"),
            operand_class: re(r"(?i)operand\s+class\s*:\s*([A-Za-z_ ,]+)"),
            condition: re(
                r"^\s*(?:field_operand_type\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)|([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?)\s*=\s*(.+)$",
            ),
            identifier: re(r"^[A-Za-z_][A-Za-z0-9_]*$"),
        }
    })
}

/// A heading found by pulldown-cmark.
#[derive(Clone, Debug)]
struct Heading {
    level: u8,
    title: String,
    start: usize,
    end: usize,
}

/// The structure pulldown-cmark sees: headings, and each table's start and header width.
struct Outline {
    headings: Vec<Heading>,
    tables: Vec<(usize, usize)>,
}

fn outline(text: &str) -> Outline {
    let mut headings = Vec::new();
    let mut tables = Vec::new();
    let mut current: Option<Heading> = None;
    let mut table: Option<(usize, usize)> = None;
    let mut in_head = false;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current = Some(Heading {
                    level: level as u8,
                    title: String::new(),
                    start: range.start,
                    end: range.end,
                })
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(h) = current.take() {
                    headings.push(h);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = current.as_mut() {
                    h.title.push_str(&t);
                }
            }
            Event::Start(Tag::Table(_)) => table = Some((range.start, 0)),
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableCell) if in_head => {
                if let Some(t) = table.as_mut() {
                    t.1 += 1;
                }
            }
            Event::End(TagEnd::Table) => {
                if let Some(t) = table.take() {
                    tables.push(t);
                }
            }
            _ => {}
        }
    }
    Outline { headings, tables }
}

/// Parses a number as the docs write it: `0b011`, `0x6`, `12`.
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim().replace('_', "");
    if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// Type names after "Must have type" / "must have one of ... type", upper case, in order.
pub fn allowed_types(text: &str) -> Vec<String> {
    let p = patterns();
    let mut out: Vec<String> = Vec::new();
    let lists = p
        .must_have_type
        .captures_iter(text)
        .chain(p.one_of_type.captures_iter(text))
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()));
    for list in lists {
        for word in list.split(|c: char| c == ',' || c.is_whitespace()) {
            let w = word.trim();
            if w.is_empty() || w.eq_ignore_ascii_case("or") || w.eq_ignore_ascii_case("and") {
                continue;
            }
            let up = w.to_ascii_uppercase();
            if crate::vocab::is_data_type(&up) && w == up {
                if !out.contains(&up) {
                    out.push(up);
                }
            } else {
                break;
            }
        }
    }
    out
}

/// Class names after "Operand class:", lower case, in order.
pub fn operand_classes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for c in patterns().operand_class.captures_iter(text) {
        let Some(list) = c.get(1) else { continue };
        for word in list.as_str().split(',') {
            let w = word.trim().to_ascii_lowercase();
            // "general, indirect or immediate": keep single words only.
            for part in w.split_whitespace().filter(|p| *p != "or" && *p != "and") {
                if !out.iter().any(|o: &String| o == part) {
                    out.push(part.to_string());
                }
            }
        }
    }
    out
}

/// `LscSubOp=lsc_load, lsc_store` / `Op.op=sample_b` → selector.
pub fn selector(condition: &str) -> Option<Selector> {
    let c = patterns().condition.captures(condition)?;
    let values: Vec<String> = c
        .get(4)?
        .as_str()
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        return None;
    }
    let operand_type = c.get(1).is_some();
    Some(Selector {
        field: c.get(1).or(c.get(2))?.as_str().to_string(),
        subfield: c.get(3).map(|m| m.as_str().to_string()),
        values,
        operand_type,
    })
}

fn indent_of(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The parser of one doc: its source, outline and the diagnostics it raises.
struct DocParser<'a, 'd> {
    src: Source<'a>,
    outline: Outline,
    diags: &'d mut Vec<Diagnostic>,
    /// The text before the field bullets, once [`Self::fields`] has read them.
    description: String,
}

/// The cells of a format table read so far.
#[derive(Default)]
struct Cells {
    /// Field names in order, with their cells' spans.
    fields: Vec<(String, Span)>,
    optional: Vec<String>,
    counted: Vec<Counted>,
    /// A `...` waiting for the `Item(Count-1)` cell that closes its repetition.
    ellipsis: Option<Span>,
}

impl Cells {
    /// `Item0 | ItemN | Item(Count-1)`: the item cells before `last` (and a pending `...`)
    /// become the one field `stem`; returns the span of the whole list.
    fn close_repetition(
        &mut self,
        stem: &str,
        last: Span,
        span: impl Fn(usize, usize) -> Span,
    ) -> Span {
        let mut start = self.ellipsis.take().unwrap_or(last);
        while let Some((prev, pspan)) = self.fields.last() {
            if !counted::is_item(prev, stem) {
                break;
            }
            start = *pspan;
            let prev = prev.clone();
            self.optional.retain(|o| *o != prev);
            self.fields.pop();
        }
        let list_span = span(start.start, last.end.max(start.start));
        self.fields.push((stem.to_string(), list_span));
        list_span
    }
}

/// A field bullet being read.
struct Bullet {
    name: String,
    ty: String,
    span: Span,
    description: Vec<String>,
    bitfields: Vec<(usize, BitField)>,
    values: Vec<EnumValue>,
    table_rows: Vec<(usize, String)>,
}

impl<'a> DocParser<'a, '_> {
    fn diag(&mut self, code: Code, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.diags
            .push(Diagnostic::new(code, self.src.name, span, message));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn span_at(&self, start: usize, len: usize) -> Span {
        self.src.span(start, start + len)
    }

    /// Byte range of the content under heading `h`: up to the next heading of level ≤ `upto`.
    fn content(&self, h: &Heading, upto: u8) -> (usize, usize) {
        let end = self
            .outline
            .headings
            .iter()
            .find(|n| n.start > h.start && n.level <= upto)
            .map_or(self.src.text.len(), |n| n.start);
        (h.end.min(end), end)
    }

    fn heading(&self, level: u8, title: &str) -> Option<Heading> {
        self.outline
            .headings
            .iter()
            .find(|h| h.level == level && h.title.trim().eq_ignore_ascii_case(title))
            .cloned()
    }

    fn section_lines(&self, level: u8, title: &str, upto: u8) -> Option<(Heading, Vec<Line<'a>>)> {
        let h = self.heading(level, title)?;
        let (s, e) = self.content(&h, upto);
        Some((h, self.src.lines(s, e)))
    }

    /// The `## Text` templates, typed (see `template.rs`); `at` is used when there is no section.
    fn syntax(&mut self, fields: &[Field], description: &str, at: Span) -> Option<Syntax> {
        let (heading, lines) = match self.section_lines(2, "Text", 2) {
            Some((h, lines)) => (self.span_at(h.start, h.end.saturating_sub(h.start)), lines),
            None => (at, Vec::new()),
        };
        super::template::read(&self.src, &lines, heading, fields, description, self.diags)
    }

    fn check_whitespace(&mut self) {
        let lines = self.src.lines(0, self.src.text.len());
        let tabs: Vec<_> = lines.iter().filter(|l| l.text.contains('\t')).collect();
        if let Some(first) = tabs.first() {
            let col = first.text.find('\t').unwrap_or(0);
            let span = self.span_at(first.start + col, 1);
            let n = tabs.len();
            self.diag(
                Code::Tabs,
                span,
                format!("{n} line(s) contain tab characters; tabs are read as 4 columns"),
            );
        }
        let trailing: Vec<_> = lines
            .iter()
            .filter(|l| !l.text.trim().is_empty() && l.text.trim_end().len() < l.text.len())
            .collect();
        if let Some(first) = trailing.first() {
            let at = first.text.trim_end().len();
            let span = self.span_at(first.start + at, first.text.len() - at);
            let n = trailing.len();
            self.diag(
                Code::TrailingSpace,
                span,
                format!("{n} line(s) end with whitespace; it is ignored"),
            );
        }
    }

    fn check_preamble(&mut self, opcode: &Heading) {
        let lines = self.src.lines(0, opcode.start);
        let mut in_comment = false;
        for l in lines {
            let t = l.text.trim();
            if in_comment {
                if t.contains("-->") {
                    in_comment = false;
                }
                continue;
            }
            if t.starts_with("<!--") {
                in_comment = !t.contains("-->");
                continue;
            }
            if !t.is_empty() {
                let lead = l.text.len() - l.text.trim_start().len();
                let span = self.span_at(l.start + lead, t.len());
                self.diag(
                    Code::Preamble,
                    span,
                    format!(
                        "text before `## Opcode` is not part of the doc and was skipped: `{}`",
                        shorten(t)
                    ),
                )
                .expected = Some("only a copyright comment before `## Opcode`".into());
                return;
            }
        }
    }

    fn check_fences(&mut self) {
        let level2: Vec<Heading> = self
            .outline
            .headings
            .iter()
            .filter(|h| h.level <= 2)
            .cloned()
            .collect();
        for h in level2 {
            let (s, e) = self.content(&h, 2);
            let fences: Vec<Line> = self
                .src
                .lines(s, e)
                .into_iter()
                .filter(|l| is_fence(l.text))
                .collect();
            if fences.len() % 2 == 1 {
                if let Some(last) = fences.last() {
                    let span = self.span_at(last.start, last.text.len());
                    let title = h.title.trim().to_string();
                    self.diag(Code::UnbalancedFence, span, format!("section `{title}` has an unclosed code fence; its text runs to the end of the section"))
                        .expected = Some("a closing ``` line".into());
                }
            }
        }
    }

    fn opcodes(&mut self, h: &Heading) -> Vec<OpcodeDef> {
        let (s, e) = self.content(h, 6);
        let mut out = Vec::new();
        for l in self.src.lines(s, e) {
            let t = l.text.trim();
            if t.is_empty() {
                continue;
            }
            let lead = l.text.len() - l.text.trim_start().len();
            let span = self.span_at(l.start + lead, t.len());
            let parsed = patterns().opcode_line.captures(l.text).and_then(|c| {
                let name = c.get(1)?.as_str().to_string();
                let value = parse_number(c.get(2)?.as_str()).and_then(|v| u8::try_from(v).ok());
                Some((name, value))
            });
            match parsed {
                Some((name, Some(value))) => out.push(OpcodeDef { name, value, span }),
                _ => {
                    self.diag(
                        Code::BadOpcode,
                        span,
                        format!("cannot read opcode line `{}`", shorten(t)),
                    )
                    .expected = Some("`NAME = 0xNN` with a value from 0x00 to 0xff".into());
                }
            }
        }
        out
    }

    /// The `## Format` section: one [`Variant`] per table, with `### CONDITION` texts.
    fn format(
        &mut self,
        opcode: &OpcodeDef,
        sub: Option<&OpcodeDef>,
    ) -> Vec<(Variant, Vec<(String, Span)>)> {
        let Some((h, lines)) = self.section_lines(2, "Format", 2) else {
            return Vec::new();
        };
        let _ = h;
        let mut variants = Vec::new();
        let mut condition: Vec<(String, Span)> = Vec::new();
        let mut awaiting_condition = false;
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i];
            let t = l.text.trim();
            if t.starts_with('#')
                && t.trim_start_matches('#')
                    .trim()
                    .eq_ignore_ascii_case("CONDITION")
            {
                awaiting_condition = true;
                condition.clear();
                i += 1;
                continue;
            }
            if awaiting_condition && (t.starts_with("- ") || t.starts_with("* ")) {
                let text = t[2..].trim();
                let lead = l.text.len() - l.text.trim_start().len() + 2;
                condition.push((text.to_string(), self.span_at(l.start + lead, text.len())));
                i += 1;
                continue;
            }
            if table::is_row(l.text) {
                let start = i;
                while i < lines.len() && table::is_row(lines[i].text) {
                    i += 1;
                }
                let rows = &lines[start..i];
                awaiting_condition = false;
                let v = self.table(rows, std::mem::take(&mut condition), opcode, sub);
                variants.push(v);
                continue;
            }
            i += 1;
        }
        variants
    }

    /// One format table (and the `### CONDITION` before it) → one [`Variant`], with each
    /// field cell's span. Phases: header width, cells row by row, condition.
    fn table(
        &mut self,
        rows: &[Line<'a>],
        condition: Vec<(String, Span)>,
        opcode: &OpcodeDef,
        sub: Option<&OpcodeDef>,
    ) -> (Variant, Vec<(String, Span)>) {
        let first = rows[0];
        let model = self.header_width(first);
        let body = if rows.get(1).is_some_and(|r| table::is_delimiter(r.text)) {
            &rows[2..]
        } else {
            &rows[1..]
        };
        let mut cells = Cells::default();
        for row in body {
            let row_cells = table::cells(row.text, row.start);
            self.extra_cells(&row_cells, model);
            for c in row_cells.iter().filter(|c| !c.text.is_empty()) {
                self.cell(c, &mut cells, opcode, sub);
            }
        }
        if let Some(e) = cells.ellipsis {
            self.unclosed_ellipsis(e);
        }
        let span = self.span_at(first.start, first.text.len());
        let selectors = self.selectors(&condition);
        let condition_text = (!condition.is_empty()).then(|| {
            condition
                .iter()
                .map(|c| c.0.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        });
        (
            Variant {
                condition: condition_text,
                fields: cells.fields.iter().map(|f| f.0.clone()).collect(),
                selectors,
                optional_fields: cells.optional,
                counted: cells.counted,
                span,
            },
            cells.fields,
        )
    }

    /// The GFM model's header width of the table starting at `first`, to name the cells a
    /// renderer would drop.
    fn header_width(&self, first: Line<'_>) -> usize {
        let header = table::cells(first.text, first.start).len();
        self.outline
            .tables
            .iter()
            .find(|(s, _)| *s >= first.start && *s <= first.start + first.text.len())
            .map_or(header, |t| t.1)
    }

    /// A row wider than the header: V0112 at the first extra cell with text.
    fn extra_cells(&mut self, cells: &[table::Cell<'_>], model: usize) {
        let Some(extra) = cells
            .get(model..)
            .and_then(|c| c.iter().find(|c| !c.text.is_empty()))
        else {
            return;
        };
        let span = self.span_at(extra.start, extra.text.len());
        let n = cells.len();
        self.diag(Code::ExtraCells, span, format!("row has {n} cells but the header has {model}; a Markdown renderer drops `{}`, the generator keeps it", extra.text))
            .expected = Some(format!("{n} columns in the header row"));
    }

    /// One non-empty cell: the opcode, a `...`, the `Item(Count-1)` closing a repetition, or
    /// a field name (`\*` marks it optional).
    fn cell(
        &mut self,
        c: &table::Cell<'_>,
        cells: &mut Cells,
        opcode: &OpcodeDef,
        sub: Option<&OpcodeDef>,
    ) {
        let span = self.span_at(c.start, c.text.len());
        if let Some(m) = patterns().opcode_cell.captures(c.text) {
            let value = m
                .get(1)
                .and_then(|v| u64::from_str_radix(v.as_str(), 16).ok());
            let name = m.get(2).map_or("", |n| n.as_str());
            let known = [Some(opcode), sub]
                .into_iter()
                .flatten()
                .any(|o| Some(u64::from(o.value)) == value && o.name == name);
            if !known {
                self.diag(
                    Code::OpcodeCellMismatch,
                    span,
                    format!("opcode cell `{}` matches no line of `## Opcode`", c.text),
                )
                .expected = Some(format!("`{:#04x}({})`", opcode.value, opcode.name));
            }
            return;
        }
        if counted::is_ellipsis(c.text) {
            cells.ellipsis = cells.ellipsis.or(Some(span));
            return;
        }
        if let Some((stem, count)) = counted::last_item(c.text) {
            let list_span = cells.close_repetition(stem, span, |s, e| self.src.span(s, e));
            cells.counted.push(Counted {
                count: count.to_string(),
                fields: vec![stem.to_string()],
                kind: CountKind::Repeat,
                min: None,
                max: None,
                range_sentence: None,
                skip_sentence: None,
                span: list_span,
            });
            return;
        }
        if let Some(e) = cells.ellipsis.take() {
            self.unclosed_ellipsis(e);
        }
        let (name, opt) = match c
            .text
            .strip_suffix("\\*")
            .or_else(|| c.text.strip_suffix('*'))
        {
            Some(n) => (n.trim(), true),
            None => (c.text, false),
        };
        if !patterns().identifier.is_match(name) {
            self.diag(
                Code::UntypedField,
                span,
                format!("format cell `{}` is not a field name", c.text),
            )
            .expected = Some("a field name such as `Exec_size`, optionally marked `\\*`".into());
            return;
        }
        if opt {
            cells.optional.push(name.to_string());
        }
        cells.fields.push((name.to_string(), span));
    }

    fn unclosed_ellipsis(&mut self, at: Span) {
        self.diag(Code::BadCount, at, "`...` stands for left-out items, but no `Item(Count-1)` cell closes the repetition")
            .expected = Some("`| Item0 | ... | Item(Count-1) |`, `Count` naming the field that holds the number of items".into());
    }

    /// The selectors of a `### CONDITION`; one that cannot be read is V0121 and left out.
    fn selectors(&mut self, condition: &[(String, Span)]) -> Vec<Selector> {
        let mut selectors = Vec::new();
        for (text, cspan) in condition {
            match selector(text) {
                Some(s) => selectors.push(s),
                None => {
                    self.diag(Code::BadCondition, *cspan, format!("cannot read condition `{text}`; the variant is kept without it"))
                        .expected = Some("`Field=value, value`, `Field.sub=value` or `field_operand_type(Field)=TYPE`".into());
                }
            }
        }
        selectors
    }

    /// Field bullets: from the first one after the opcode to the next heading. Text before
    /// the first bullet is the description. Phases: the section's lines, then each line as a
    /// new bullet ([`Self::bullet`]) or a detail of the last one ([`Self::detail`]).
    fn bullets(&mut self, table_fields: &BTreeSet<String>) -> (Vec<Bullet>, String) {
        let (start, end) = match self.heading(2, "Description") {
            Some(h) => {
                let (s, _) = self.content(&h, 2);
                let e = self
                    .outline
                    .headings
                    .iter()
                    .find(|n| n.start > h.start)
                    .map_or(self.src.text.len(), |n| n.start);
                (s, e)
            }
            None => (0, 0),
        };
        let mut in_fence = false;
        let mut bullets: Vec<Bullet> = Vec::new();
        let mut description: Vec<&str> = Vec::new();
        for l in self.src.lines(start, end) {
            if is_fence(l.text) || in_fence {
                in_fence ^= is_fence(l.text);
                if bullets.is_empty() {
                    description.push(l.text);
                }
                continue;
            }
            let prev = bullets.last().map(|b| b.name.as_str()).unwrap_or_default();
            if let Some(b) = self.bullet(l, prev, table_fields) {
                bullets.push(b);
                continue;
            }
            match bullets.last_mut() {
                Some(b) => self.detail(b, l),
                None => description.push(l.text),
            }
        }
        (bullets, prose(&description))
    }

    /// A line that starts a field bullet: `- **Name(type):** ...`, or `- **Name:** ...` naming
    /// a field of the tables at the field level (a bullet without a type).
    fn bullet(
        &mut self,
        l: Line<'_>,
        prev: &str,
        table_fields: &BTreeSet<String>,
    ) -> Option<Bullet> {
        let new = |name: String, ty: String, span: Span, rest: String| Bullet {
            name,
            ty,
            span,
            description: if rest.is_empty() { vec![] } else { vec![rest] },
            bitfields: vec![],
            values: vec![],
            table_rows: vec![],
        };
        if let Some(c) = patterns().field_bullet.captures(l.text) {
            let indent = c.get(1).map_or(0, |m| m.as_str().len());
            let name = c.get(2).map_or("", |m| m.as_str()).to_string();
            let ty = c
                .get(3)
                .map_or("", |m| m.as_str())
                .trim()
                .to_ascii_lowercase();
            let rest = c.get(4).map_or("", |m| m.as_str()).trim().to_string();
            let span = self.span_at(l.start + indent, l.text.len() - indent);
            if indent >= 2 {
                self.diag(Code::MisindentedBullet, span, format!("field bullet `{name}` is indented {indent} columns, as if nested under `{prev}`; read as a field of its own"))
                    .expected = Some("`- **Name(type):**` at the start of the line".into());
            }
            return Some(new(name, ty, span, rest));
        }
        let c = patterns().untyped_bullet.captures(l.text)?;
        let indent = c.get(1).map_or(0, |m| m.as_str().len());
        let name = c.get(2).map_or("", |m| m.as_str()).to_string();
        if indent >= 2 || !table_fields.contains(&name) {
            return None;
        }
        let span = self.span_at(l.start + indent, l.text.len() - indent);
        let rest = c.get(3).map_or("", |m| m.as_str()).trim().to_string();
        let mut b = new(name, String::new(), span, String::new());
        b.description = vec![rest];
        Some(b)
    }

    /// A line under bullet `b`: a bit range, an enumerated value (of the last bit range when
    /// indented under it), a table row, or more description.
    fn detail(&mut self, b: &mut Bullet, l: Line<'_>) {
        let indent = indent_of(l.text);
        if let Some(c) = patterns().bit_range.captures(l.text) {
            self.bit_range(b, l, indent, &c);
            return;
        }
        if let Some(c) = patterns().value.captures(l.text) {
            self.value(b, l, indent, &c);
            return;
        }
        if table::is_row(l.text) {
            b.table_rows.push((l.start, l.text.to_string()));
            return;
        }
        let t = l.text.trim();
        if t.is_empty() {
            return;
        }
        match b.bitfields.last_mut() {
            Some((bit_indent, bf)) if indent > *bit_indent && bf.values.is_empty() => {
                bf.summary = format!("{} {t}", bf.summary).trim().to_string();
            }
            _ => b.description.push(t.to_string()),
        }
    }

    /// `- Bit[hi..lo]: summary` (`{PLATFORM}` before it): a bit range of `b`, or V0106.
    fn bit_range(&mut self, b: &mut Bullet, l: Line<'_>, indent: usize, c: &regex::Captures<'_>) {
        let hi = c
            .get(3)
            .and_then(|m| m.as_str().parse::<u32>().ok())
            .unwrap_or(u32::MAX);
        let lo = c
            .get(4)
            .and_then(|m| m.as_str().parse::<u32>().ok())
            .unwrap_or(hi);
        let span = self.span_at(l.start, l.text.len());
        if hi < lo || hi > 63 {
            self.diag(
                Code::BadBitRange,
                span,
                format!(
                    "bit range `[{hi}..{lo}]` of `{}` is not a range of bits 63..0",
                    b.name
                ),
            )
            .expected = Some("`Bit[hi..lo]` with 63 >= hi >= lo".into());
            return;
        }
        b.bitfields.push((
            indent,
            BitField {
                hi: hi as u8,
                lo: lo as u8,
                summary: c.get(5).map_or("", |m| m.as_str()).trim().to_string(),
                values: vec![],
                platform: c.get(2).map(|m| m.as_str().trim().to_string()),
                span,
            },
        ));
    }

    /// `- 0b01: meaning` (`{PLATFORM}` before it): a value of the last bit range when indented
    /// under it, else of the field; one that does not fit is V0107.
    fn value(&mut self, b: &mut Bullet, l: Line<'_>, indent: usize, c: &regex::Captures<'_>) {
        let span = self.span_at(l.start, l.text.len());
        let Some(value) = c.get(3).and_then(|m| parse_number(m.as_str())) else {
            self.diag(
                Code::BadValue,
                span,
                "enumerated value does not fit in 64 bits",
            )
            .expected = Some("a value of at most 64 bits".into());
            return;
        };
        let v = EnumValue {
            value,
            meaning: c.get(4).map_or("", |m| m.as_str()).trim().to_string(),
            platform: c.get(2).map(|m| m.as_str().trim().to_string()),
            span,
        };
        match b.bitfields.last_mut() {
            Some((bit_indent, bf)) if indent > *bit_indent => {
                let width = u32::from(bf.hi - bf.lo) + 1;
                if width < 64 && value >> width != 0 {
                    let (hi, lo) = (bf.hi, bf.lo);
                    self.diag(
                        Code::BadValue,
                        span,
                        format!(
                            "value {value:#x} does not fit bit range [{hi}..{lo}] of `{}`",
                            b.name
                        ),
                    )
                    .expected = Some(format!("a value below {}", 1u64 << width));
                    return;
                }
                bf.values.push(v);
            }
            _ => b.values.push(v),
        }
    }

    /// Values given as a table inside a bullet (`| Symbol | SubOp | Name |`): the first column
    /// whose cells are all numbers is the value, the first other column its meaning.
    fn embedded_values(&mut self, b: &mut Bullet) {
        let rows: Vec<Vec<(String, usize)>> = b
            .table_rows
            .iter()
            .filter(|(_, t)| !table::is_delimiter(t))
            .map(|(s, t)| {
                table::cells(t, *s)
                    .into_iter()
                    .map(|c| (c.text.to_string(), c.start))
                    .collect()
            })
            .collect();
        let Some((header, body)) = rows.split_first() else {
            return;
        };
        if body.is_empty() {
            return;
        }
        let width = header.len();
        let value_col = (0..width).find(|&c| {
            body.iter()
                .all(|r| r.get(c).is_some_and(|(t, _)| parse_number(t).is_some()))
        });
        let Some(vc) = value_col else {
            b.description
                .extend(b.table_rows.iter().map(|(_, t)| t.trim().to_string()));
            return;
        };
        let mc = if vc == 0 { 1 } else { 0 };
        for r in body {
            let (Some((v, start)), Some((m, _))) = (r.get(vc), r.get(mc)) else {
                continue;
            };
            let Some(value) = parse_number(v) else {
                continue;
            };
            let span = self.span_at(*start, v.len());
            b.values.push(EnumValue {
                value,
                meaning: m.clone(),
                platform: None,
                span,
            });
        }
    }

    fn properties(&mut self) -> (BTreeMap<String, String>, Vec<TypeMap>) {
        let mut props = BTreeMap::new();
        if let Some((_, lines)) = self.section_lines(4, "Properties", 4) {
            let mut last: Option<String> = None;
            for l in lines {
                if let Some(c) = patterns().property.captures(l.text) {
                    let k = c.get(1).map_or("", |m| m.as_str()).trim().to_string();
                    let v = c.get(2).map_or("", |m| m.as_str()).trim().to_string();
                    props.insert(k.clone(), v);
                    last = Some(k);
                } else if let (Some(k), t) = (&last, l.text.trim()) {
                    if !t.is_empty() {
                        if let Some(v) = props.get_mut(k) {
                            *v = format!("{v} {t}").trim().to_string();
                        }
                    }
                }
            }
        }
        let mut maps = Vec::new();
        if let Some((_, lines)) = self.section_lines(4, "Operand type maps", 4) {
            for l in lines {
                if let Some(c) = patterns().type_map.captures(l.text) {
                    maps.push(TypeMap {
                        platform: c.get(2).map(|m| m.as_str().trim().to_string()),
                        types: BTreeMap::new(),
                        span: self.span_at(l.start, l.text.len()),
                    });
                } else if let (Some(c), Some(map)) =
                    (patterns().property.captures(l.text), maps.last_mut())
                {
                    let k = c.get(1).map_or("", |m| m.as_str()).trim().to_string();
                    let v = c.get(2).map_or("", |m| m.as_str());
                    let types = v
                        .split(',')
                        .map(|t| t.trim().to_string())
                        .filter(|t| !t.is_empty())
                        .collect();
                    map.types.insert(k, types);
                }
            }
        }
        (props, maps)
    }

    /// `## Semantics` read as pseudo-code (see `semantics.rs`).
    fn pseudo_code(&mut self) -> crate::schema::PseudoCode {
        match self.section_lines(2, "Semantics", 2) {
            Some((_, lines)) => super::semantics::read(&self.src, &lines, self.diags),
            None => crate::schema::PseudoCode::None,
        }
    }

    fn section_text(&self, title: &str) -> String {
        match self.section_lines(2, title, 2) {
            Some((_, lines)) => {
                let texts: Vec<&str> = lines.iter().map(|l| l.text).collect();
                clean(&texts)
            }
            None => String::new(),
        }
    }
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

const KNOWN_SECTIONS: &[&str] = &[
    "opcode",
    "format",
    "semantics",
    "description",
    "text",
    "notes",
];

/// A field of plain integer type (no bit ranges, no enumerated values): one that can count.
fn plain_integer(f: &Field) -> bool {
    matches!(f.ty.as_str(), "ub" | "uw" | "ud" | "b" | "w" | "d")
        && f.bitfields.is_empty()
        && f.values.is_empty()
}

/// Checks the variant's `Item(Count-1)` repetitions against their count fields, and finds a
/// prefix list: the fields after a count whose bullet says "number of (additional) parameters".
fn counts(p: &mut DocParser<'_, '_>, v: &mut Variant, fields: &[Field], text: &str) {
    let field = |name: &str| fields.iter().find(|f| f.name == name);
    let pos = |name: &str| v.fields.iter().position(|f| f == name);
    let mut kept = Vec::new();
    for mut c in std::mem::take(&mut v.counted) {
        let list_at = c.fields.first().and_then(|f| pos(f)).unwrap_or(0);
        let problem = match (field(&c.count), pos(&c.count)) {
            (_, None) => Some(format!("`{}` counts the repetition but this table has no field `{}`", c.fields.join(", "), c.count)),
            (Some(f), Some(_)) if !plain_integer(f) => Some(format!("count field `{}` has type `{}`{}; a count must be a plain integer", c.count, f.ty, if f.bitfields.is_empty() && f.values.is_empty() { "" } else { " with bit ranges or values" })),
            (_, Some(at)) if at > list_at => Some(format!("count field `{}` comes after the items it counts; the decoder could not know how many to read", c.count)),
            _ => None,
        };
        if let Some(message) = problem {
            p.diag(Code::BadCount, c.span, message).expected = Some(format!(
                "an integer field `{}` (`ub`, `uw`, `ud`) before the repetition",
                c.count
            ));
            continue;
        }
        if let Some((min, max, sentence)) =
            field(&c.count).and_then(|f| counted::range(&f.description))
        {
            (c.min, c.max, c.range_sentence) = (Some(min), Some(max), Some(sentence));
        }
        kept.push(c);
    }
    v.counted = kept;
    if !v.counted.is_empty() {
        return;
    }
    let Some(at) = v.fields.iter().position(|n| {
        field(n).is_some_and(|f| plain_integer(f) && counted::counts_parameters(&f.description))
    }) else {
        return;
    };
    let items: Vec<String> = v.fields[at + 1..].to_vec();
    let (Some(count), Some(first)) = (field(&v.fields[at]), items.first().and_then(|i| field(i)))
    else {
        return;
    };
    if let Some(odd) = items
        .iter()
        .filter_map(|i| field(i))
        .find(|f| f.ty != first.ty)
    {
        let span = count.span;
        p.diag(Code::BadCount, span, format!("`{}` counts the parameters after it, but `{}` has type `{}` and `{}` has type `{}`; a counted list needs one type", count.name, first.name, first.ty, odd.name, odd.ty))
            .expected = Some("parameters of one type after the count field".into());
        return;
    }
    let range = counted::range(&count.description);
    v.counted.push(Counted {
        count: count.name.clone(),
        fields: items,
        kind: CountKind::Prefix,
        min: range.as_ref().map(|r| r.0),
        max: range.as_ref().map(|r| r.1),
        range_sentence: range.map(|r| r.2),
        skip_sentence: counted::skip_sentence(text),
        span: count.span,
    });
}

/// Parses one doc's text. Returns `None` when the doc has no readable opcode. Phases: checks of
/// the whole text, opcode, format tables, fields (bullets joined to cells), counts, the other
/// sections, the templates.
pub fn parse_doc(name: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Option<Instruction> {
    let mut p = DocParser {
        src: Source::new(name, text),
        outline: outline(text),
        diags,
        description: String::new(),
    };
    p.check_whitespace();
    p.check_fences();
    let (opcode_heading, opcode, sub) = p.opcode()?;
    let stem = name.strip_suffix(".md").unwrap_or(name).to_string();
    let inst_name = if sub.is_some() {
        stem
    } else {
        opcode.name.clone()
    };
    let mut tables = p.tables(&opcode, sub.as_ref());
    let fields = p.fields(&mut tables);
    let (properties, type_maps) = p.properties();
    let span = p.span_at(
        opcode_heading.start,
        opcode_heading.end.saturating_sub(opcode_heading.start),
    );
    let description = p.description.clone();
    let syntax = p.syntax(&fields, &description, span);
    let pseudo_code = p.pseudo_code();
    Some(Instruction {
        name: inst_name,
        source: name.to_string(),
        opcode,
        sub_opcode: sub,
        fields,
        variants: tables.into_iter().map(|(v, _)| v).collect(),
        properties,
        semantics: p.section_text("Semantics"),
        description,
        text: p.section_text("Text"),
        notes: p.section_text("Notes"),
        type_maps,
        other_sections: p.other_sections(),
        aliases: vec![],
        alias_of: None,
        syntax,
        pseudo_code,
        span,
    })
}

impl DocParser<'_, '_> {
    /// `## Opcode`: its heading, the opcode and the optional sub-opcode (V0101 without).
    fn opcode(&mut self) -> Option<(Heading, OpcodeDef, Option<OpcodeDef>)> {
        let Some(heading) = self.heading(2, "Opcode") else {
            let span = self.span_at(0, self.src.text.lines().next().map_or(0, str::len));
            self.diag(Code::NoOpcode, span, "the doc has no `## Opcode` section")
                .expected = Some("a `## Opcode` heading followed by `NAME = 0xNN`".into());
            return None;
        };
        self.check_preamble(&heading);
        let mut ops = self.opcodes(&heading).into_iter();
        let Some(opcode) = ops.next() else {
            let span = self.span_at(heading.start, heading.end - heading.start);
            self.diag(Code::NoOpcode, span, "`## Opcode` declares no opcode")
                .expected = Some("a line `NAME = 0xNN` under `## Opcode`".into());
            return None;
        };
        let sub = ops.next();
        for extra in ops {
            self.diag(
                Code::BadOpcode,
                extra.span,
                format!("a third opcode line `{}` has no meaning", extra.name),
            )
            .expected = Some("one opcode line, optionally followed by one sub-opcode line".into());
        }
        Some((heading, opcode, sub))
    }

    /// The format tables; an empty `## Format` is one variant without fields (BARRIER,
    /// YIELD), no `## Format` at all is V0105.
    fn tables(
        &mut self,
        opcode: &OpcodeDef,
        sub: Option<&OpcodeDef>,
    ) -> Vec<(Variant, Vec<(String, Span)>)> {
        let mut tables = self.format(opcode, sub);
        if !tables.is_empty() {
            return tables;
        }
        let format = self.heading(2, "Format");
        let span = format
            .as_ref()
            .map_or(opcode.span, |h| self.span_at(h.start, h.end - h.start));
        if format.is_some() {
            tables.push((
                Variant {
                    condition: None,
                    fields: vec![],
                    selectors: vec![],
                    optional_fields: vec![],
                    counted: vec![],
                    span,
                },
                vec![],
            ));
        } else {
            self.diag(Code::NoFormat, span, "the doc has no format table")
                .expected =
                Some("a `## Format` section with a table of the instruction's fields".into());
        }
        tables
    }

    /// Fields: every table cell in order of first appearance, joined with its bullet (V0103
    /// without a typed one; V0104 for a second bullet of one name, V0120 for a bullet no table
    /// has), then the tables' counts checked against them. Sets the doc's description, the
    /// text before the bullets.
    fn fields(&mut self, tables: &mut [(Variant, Vec<(String, Span)>)]) -> Vec<Field> {
        // The bullet of a repeated field may name it (`Label`) or its first item (`Label0`).
        let item_bullets: BTreeMap<String, String> = tables
            .iter()
            .flat_map(|(v, _)| v.counted.iter())
            .flat_map(|c| c.fields.iter().map(|f| (format!("{f}0"), f.clone())))
            .collect();
        let table_fields: BTreeSet<String> = tables
            .iter()
            .flat_map(|(v, _)| v.fields.iter().cloned())
            .chain(item_bullets.keys().cloned())
            .collect();
        let (mut bullets, description) = self.bullets(&table_fields);
        self.description = description;
        for b in bullets.iter_mut() {
            if !b.table_rows.is_empty() {
                self.embedded_values(b);
            }
        }
        let by_name = self.bullet_index(&bullets);
        let optional: BTreeSet<String> = tables
            .iter()
            .flat_map(|(v, _)| v.optional_fields.iter().cloned())
            .collect();
        let mut fields: Vec<Field> = Vec::new();
        let mut seen = BTreeSet::new();
        for (fname, cell_span) in tables.iter().flat_map(|(_, cells)| cells) {
            if !seen.insert(fname.clone()) {
                continue;
            }
            let bullet = by_name
                .get(fname)
                .or_else(|| {
                    item_bullets
                        .iter()
                        .find(|(_, stem)| *stem == fname)
                        .and_then(|(item, _)| by_name.get(item))
                })
                .and_then(|&i| bullets.get(i));
            fields.push(self.field(fname, *cell_span, bullet, optional.contains(fname)));
        }
        let text = self.src.text;
        for (v, _) in tables.iter_mut() {
            counts(self, v, &fields, text);
        }
        for b in &bullets {
            let first = by_name
                .get(&b.name)
                .is_some_and(|&i| bullets[i].span == b.span);
            if !seen.contains(&b.name) && !item_bullets.contains_key(&b.name) && first {
                let (name, span) = (b.name.clone(), b.span);
                self.diag(
                    Code::BulletNotInTable,
                    span,
                    format!(
                        "field `{name}` is described but no format table has it; it is not encoded"
                    ),
                )
                .expected = Some(format!("a `{name}` cell in a format table"));
            }
        }
        fields
    }

    /// Bullets by name, the first of each; a second one is V0104.
    fn bullet_index(&mut self, bullets: &[Bullet]) -> BTreeMap<String, usize> {
        let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
        for (i, b) in bullets.iter().enumerate() {
            if let Some(&first) = by_name.get(&b.name) {
                let line = bullets[first].span.line;
                self.diag(
                    Code::DuplicateField,
                    b.span,
                    format!(
                        "field `{}` is described twice (first at line {line})",
                        b.name
                    ),
                )
                .expected = Some("one bullet per field".into());
            } else {
                by_name.insert(b.name.clone(), i);
            }
        }
        by_name
    }

    /// The field of cell `name` from its bullet; without a typed bullet, V0103 and a field of
    /// no type.
    fn field(&mut self, name: &str, cell: Span, bullet: Option<&Bullet>, optional: bool) -> Field {
        if let Some(b) = bullet.filter(|b| !b.ty.is_empty()) {
            let desc = b.description.join(" ");
            return Field {
                name: name.to_string(),
                ty: b.ty.clone(),
                optional,
                description: desc.clone(),
                bitfields: b.bitfields.iter().map(|(_, bf)| bf.clone()).collect(),
                values: b.values.clone(),
                allowed_types: allowed_types(&desc),
                operand_classes: operand_classes(&desc),
                span: b.span,
            };
        }
        let (span, msg) = match bullet {
            Some(b) => (
                b.span,
                format!("field `{name}` has a bullet without a type"),
            ),
            None => (
                cell,
                format!("field `{name}` of the format table has no `**{name}(type):**` bullet"),
            ),
        };
        self.diag(Code::UntypedField, span, msg).expected = Some(format!(
            "a bullet `- **{name}(ub):** ...` naming the field's type"
        ));
        Field {
            name: name.to_string(),
            ty: String::new(),
            optional,
            description: bullet.map(|b| b.description.join(" ")).unwrap_or_default(),
            bitfields: vec![],
            values: vec![],
            allowed_types: vec![],
            operand_classes: vec![],
            span: cell,
        }
    }

    /// Level-2 sections the schema has no key for, by title.
    fn other_sections(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for h in self.outline.headings.iter().filter(|h| h.level == 2) {
            let title = h.title.trim().to_string();
            if !KNOWN_SECTIONS.contains(&title.to_ascii_lowercase().as_str()) {
                let text = self.section_text(&title);
                out.insert(title, text);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_every_notation() {
        assert_eq!(parse_number("0b011"), Some(3));
        assert_eq!(parse_number("0x6"), Some(6));
        assert_eq!(parse_number("12"), Some(12));
        assert_eq!(parse_number("0b"), None);
        assert_eq!(parse_number("x"), None);
    }

    #[test]
    fn allowed_types_from_both_sentence_forms() {
        assert_eq!(allowed_types("offsets. Must have type UD"), vec!["UD"]);
        assert_eq!(
            allowed_types("Must have type Q,UQ,DF"),
            vec!["Q", "UQ", "DF"]
        );
        assert_eq!(
            allowed_types("The operand must have one of UD, D, F type; for 1"),
            vec!["UD", "D", "F"]
        );
        assert!(allowed_types("no rule here").is_empty());
    }

    #[test]
    fn operand_classes_lower_case_in_order() {
        assert_eq!(
            operand_classes("The first source. Operand class: general,indirect,immediate"),
            vec!["general", "indirect", "immediate"]
        );
    }

    #[test]
    fn selectors_with_and_without_subfield() {
        let s = selector("Op.op=sample_b, sample_c").unwrap();
        assert_eq!(
            (s.field.as_str(), s.subfield.as_deref()),
            ("Op", Some("op"))
        );
        assert_eq!(s.values, vec!["sample_b", "sample_c"]);
        let s = selector("LscSubOp=lsc_load").unwrap();
        assert_eq!(
            (s.field.as_str(), s.subfield, s.operand_type),
            ("LscSubOp", None, false)
        );
        let s = selector("field_operand_type(Si)=UW").unwrap();
        assert_eq!(
            (s.field.as_str(), s.values.clone(), s.operand_type),
            ("Si", vec!["UW".to_string()], true)
        );
        assert!(selector("whatever").is_none());
    }
}
