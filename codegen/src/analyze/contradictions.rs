//! Docs that contradict themselves (warning V0220): a `Supported Types` property against the
//! doc's `#### Operand type maps`. SHL says `Supported Types: B,D,Q,UB,UD,UQ,UW,W` while its one
//! type map lists no Q or UQ; the validator follows the maps, so one of the two is wrong, and
//! only Intel's tools can say which (settled by an erratum, see `docs/regen.md`, "Errata: where
//! the docs are wrong").
//!
//! The property has no span in the schema, so its line is found in the doc's text; the warning
//! is raised at both places, each naming the other's line.
//!
//! A bullet against a table (warning V0221): a field bullet may list its values as items
//! (`- 0: invalid`) and as a table inside it (LSC_UNTYPED's `DataElemsPerAddr`: `| 0 |
//! INVALID | ...`); the parser takes both, so when they name different values the decoder accepts
//! the union while each place says something else. Raised at the first item and the first
//! table row.

use crate::diag::{Code, Diagnostic};
use crate::parse::SourceFile;
use crate::schema::{EnumValue, Instruction, Span, Spec};
use std::collections::BTreeSet;

const PROPERTY: &str = "Supported Types";

/// Every contradiction of every doc of `spec`; `files` are the docs as parsed (errata applied).
pub fn check(spec: &Spec, files: &[SourceFile]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for inst in &spec.instructions {
        let Some(file) = files.iter().find(|f| f.name == inst.source) else {
            continue;
        };
        let text = crate::parse::lossy(&file.bytes);
        out.extend(supported_types_against_maps(inst, &text));
        out.extend(bullet_values_against_tables(inst, &text));
    }
    out
}

/// The types of a `Supported Types` list; platform notes (`{XEHP+}BF`) name types too.
fn listed(property: &str) -> BTreeSet<String> {
    let mut text = String::new();
    let mut depth = 0;
    for c in property.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => text.push(c),
            _ => {}
        }
    }
    text.split([',', '.', ' '])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

fn supported_types_against_maps(inst: &Instruction, text: &str) -> Vec<Diagnostic> {
    let Some(property) = inst.properties.get(PROPERTY) else {
        return vec![];
    };
    let Some(first_map) = inst.type_maps.first() else {
        return vec![];
    };
    let supported = listed(property);
    let mapped: BTreeSet<String> = inst
        .type_maps
        .iter()
        .flat_map(|m| m.types.values().flatten())
        .map(|t| t.to_ascii_uppercase())
        .collect();
    let unmapped: Vec<&str> = supported.difference(&mapped).map(String::as_str).collect();
    let unsupported: Vec<&str> = mapped.difference(&supported).map(String::as_str).collect();
    if unmapped.is_empty() && unsupported.is_empty() {
        return vec![];
    }
    let Some(prop_span) = property_span(text) else {
        return vec![];
    };
    let mut what = Vec::new();
    if !unmapped.is_empty() {
        what.push(format!(
            "`{PROPERTY}` lists {} that no type map allows",
            unmapped.join(", ")
        ));
    }
    if !unsupported.is_empty() {
        what.push(format!(
            "the type maps allow {} that `{PROPERTY}` does not list",
            unsupported.join(", ")
        ));
    }
    let what = what.join("; ");
    let expected = "the same types in `Supported Types` and in the type maps; settle which is right with Intel's tools and correct the doc with an erratum";
    vec![
        Diagnostic::new(
            Code::SelfContradiction,
            &inst.source,
            prop_span,
            format!(
                "`{}` contradicts itself: {what} (type maps from line {})",
                inst.name, first_map.span.line
            ),
        )
        .expected(expected),
        Diagnostic::new(
            Code::SelfContradiction,
            &inst.source,
            first_map.span,
            format!(
                "`{}` contradicts itself: {what} (`{PROPERTY}` at line {})",
                inst.name, prop_span.line
            ),
        )
        .expected(expected),
    ]
}

/// Whether a value's span lies on a table row (`| 0 | INVALID |`) of the doc's text.
fn on_table_row(text: &str, span: &Span) -> bool {
    let start = text[..span.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |n| n + 1);
    text[start..].trim_start().starts_with('|')
}

fn value_list(values: &BTreeSet<u64>) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// V0221 for each field whose bullet lists values both as items and in a table, when the two
/// lists differ.
fn bullet_values_against_tables(inst: &Instruction, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for field in &inst.fields {
        let (table, items): (Vec<&EnumValue>, Vec<&EnumValue>) = field
            .values
            .iter()
            .partition(|v| on_table_row(text, &v.span));
        let (Some(first_item), Some(first_row)) = (items.first(), table.first()) else {
            continue;
        };
        let listed: BTreeSet<u64> = items.iter().map(|v| v.value).collect();
        let tabled: BTreeSet<u64> = table.iter().map(|v| v.value).collect();
        if listed == tabled {
            continue;
        }
        let mut what = Vec::new();
        let only_items: BTreeSet<u64> = listed.difference(&tabled).copied().collect();
        let only_table: BTreeSet<u64> = tabled.difference(&listed).copied().collect();
        if !only_items.is_empty() {
            what.push(format!(
                "its items list {} that its table lacks",
                value_list(&only_items)
            ));
        }
        if !only_table.is_empty() {
            what.push(format!(
                "its table lists {} that its items lack",
                value_list(&only_table)
            ));
        }
        let what = what.join("; ");
        let expected = "the same values in the bullet's items and in its table; settle which is right with Intel's tools and correct the doc with an erratum";
        out.push(
            Diagnostic::new(
                Code::BulletAgainstTable,
                &inst.source,
                first_item.span,
                format!(
                    "`{}` field `{}` contradicts itself: {what} (table from line {})",
                    inst.name, field.name, first_row.span.line
                ),
            )
            .expected(expected),
        );
        out.push(
            Diagnostic::new(
                Code::BulletAgainstTable,
                &inst.source,
                first_row.span,
                format!(
                    "`{}` field `{}` contradicts itself: {what} (items from line {})",
                    inst.name, field.name, first_item.span.line
                ),
            )
            .expected(expected),
        );
    }
    out
}

/// The `- **Supported Types:** ...` line of a doc's text.
fn property_span(text: &str) -> Option<Span> {
    let marker = format!("**{PROPERTY}:**");
    let mut start = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_start();
        if body.starts_with('-') && body.contains(&marker) {
            let indent = line.len() - body.len();
            return Some(Span {
                start: start + indent,
                end: start + line.trim_end().len(),
                line: u32::try_from(n + 1).ok()?,
                column: u32::try_from(indent + 1).ok()?,
            });
        }
        start += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_drop_platform_notes_but_keep_their_types() {
        let l = listed("B,D,DF,F,HF,Q,UB,UD,UQ,UW,W.{XEHP+}BF");
        assert!(
            l.contains("BF") && l.contains("Q") && l.len() == 12,
            "{l:?}"
        );
        assert_eq!(listed("B,HF,UB.{PVC_XT+}F,UD").len(), 5);
    }

    #[test]
    fn the_property_line_is_found_with_its_column() {
        let text = "## Opcode\n\n#### Properties\n  - **Supported Types:** B,D\n";
        let s = property_span(text).unwrap();
        assert_eq!((s.line, s.column), (4, 3));
        assert_eq!(&text[s.start..s.end], "- **Supported Types:** B,D");
        assert_eq!(property_span("no such line"), None);
    }
}
