//! What the ISA reference pages show, decided: each doc as written (fields, values, bit
//! ranges, type maps, prose) and the byte layout of each format (offsets and sizes while they
//! are fixed, which fields are repeated or present only by a count), plus the applied errata.
//! The docs emitter (`emit/docs`) only escapes and lays it out. It reads nothing the code
//! analysis decides, so it is built beside it (in parallel) from the same schema.

use super::CountKind;
use crate::schema::{Counted, EnumValue, Instruction, Spec, Variant};
use crate::vocab::fixed_size;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Every page's content.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reference {
    pub pages: Vec<Page>,
    pub errata: Vec<ErratumNote>,
}

/// One instruction doc.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Page {
    pub name: String,
    /// The doc, relative to the spec directory.
    pub source: String,
    pub opcode: u8,
    /// The sub-opcode's value and name.
    pub sub_opcode: Option<(u8, String)>,
    pub aliases: Vec<String>,
    pub description: String,
    pub properties: BTreeMap<String, String>,
    pub semantics: String,
    pub text: String,
    pub notes: String,
    pub fields: Vec<PageField>,
    pub variants: Vec<PageVariant>,
    pub type_maps: Vec<PageTypeMap>,
    /// Free-form sections (examples), by title.
    pub other_sections: BTreeMap<String, String>,
    /// Bytes of the instruction when every format has the same fixed size (the opcode bytes
    /// when the doc has no format table); `None`: variable.
    pub size: Option<usize>,
}

/// A field bullet as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PageField {
    pub name: String,
    pub ty: String,
    pub optional: bool,
    pub allowed_types: Vec<String>,
    pub operand_classes: Vec<String>,
    pub description: String,
    pub values: Vec<PageValue>,
    pub bitfields: Vec<PageBits>,
}

/// An enumerated value as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageValue {
    pub value: u64,
    pub meaning: String,
    pub platform: Option<String>,
}

/// A bit range of a field as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageBits {
    pub hi: u8,
    pub lo: u8,
    pub summary: String,
    pub platform: Option<String>,
    pub values: Vec<PageValue>,
}

impl PageBits {
    /// How many bits the range holds.
    pub fn width(&self) -> u8 {
        self.hi.saturating_sub(self.lo).saturating_add(1)
    }
}

/// One format (variant) with its layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageVariant {
    /// `None`: the doc's only, unconditioned format.
    pub condition: Option<String>,
    pub slots: Vec<LayoutSlot>,
    pub counted: Vec<PageCounted>,
    /// Where the format ends, when every field has a fixed size and is always present.
    pub end: Option<usize>,
}

/// A field's place in a format.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutSlot {
    pub name: String,
    /// The field's type as written (`unknown` for a name the bullets lack).
    pub ty: String,
    /// Byte offset, while every field before it has a fixed size and is always present.
    pub offset: Option<usize>,
    /// Bytes of one occurrence, when fixed.
    pub unit_size: Option<usize>,
    /// The counts that repeat it (`Num_labels`).
    pub repeated_by: Vec<String>,
    pub presence: Presence,
}

/// Whether a field of a format is encoded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Presence {
    Always,
    /// Marked optional (`\*`) in the format table.
    Optional,
    /// Encoded when the count is above the field's index in its list.
    IfCountAbove {
        count: String,
        index: usize,
    },
}

/// A counted list of a format, as the doc states it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageCounted {
    pub kind: CountKind,
    pub count: String,
    pub fields: Vec<String>,
    pub range_sentence: Option<String>,
    pub skip_sentence: Option<String>,
}

/// One type map as written: operand group → types, in the doc's order of groups.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PageTypeMap {
    pub platform: Option<String>,
    pub types: BTreeMap<String, Vec<String>>,
}

/// An applied erratum.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ErratumNote {
    pub file: String,
    pub doc: String,
    pub title: String,
    pub doc_says: String,
    pub intel_does: String,
    pub evidence: String,
}

/// The reference of `spec`.
pub fn build(spec: &Spec) -> Reference {
    Reference {
        pages: spec.instructions.par_iter().map(page).collect(),
        errata: spec
            .errata
            .iter()
            .map(|e| ErratumNote {
                file: e.file.clone(),
                doc: e.doc.clone(),
                title: e.title.clone(),
                doc_says: e.doc_says.clone(),
                intel_does: e.intel_does.clone(),
                evidence: e.evidence.clone(),
            })
            .collect(),
    }
}

fn values(vs: &[EnumValue]) -> Vec<PageValue> {
    vs.iter()
        .map(|v| PageValue {
            value: v.value,
            meaning: v.meaning.clone(),
            platform: v.platform.clone(),
        })
        .collect()
}

fn page(inst: &Instruction) -> Page {
    let variants: Vec<PageVariant> = inst.variants.iter().map(|v| variant(inst, v)).collect();
    let opcode_bytes = 1 + usize::from(inst.sub_opcode.is_some());
    let mut sizes: Vec<Option<usize>> = variants.iter().map(|v| v.end).collect();
    sizes.dedup();
    let size = match sizes.as_slice() {
        [one] => *one,
        [] => Some(opcode_bytes),
        _ => None,
    };
    Page {
        name: inst.name.clone(),
        source: inst.source.clone(),
        opcode: inst.opcode.value,
        sub_opcode: inst.sub_opcode.as_ref().map(|s| (s.value, s.name.clone())),
        aliases: inst.aliases.clone(),
        description: inst.description.clone(),
        properties: inst.properties.clone(),
        semantics: inst.semantics.clone(),
        text: inst.text.clone(),
        notes: inst.notes.clone(),
        fields: inst
            .fields
            .iter()
            .map(|f| PageField {
                name: f.name.clone(),
                ty: f.ty.clone(),
                optional: f.optional,
                allowed_types: f.allowed_types.clone(),
                operand_classes: f.operand_classes.clone(),
                description: f.description.clone(),
                values: values(&f.values),
                bitfields: f
                    .bitfields
                    .iter()
                    .map(|b| PageBits {
                        hi: b.hi,
                        lo: b.lo,
                        summary: b.summary.clone(),
                        platform: b.platform.clone(),
                        values: values(&b.values),
                    })
                    .collect(),
            })
            .collect(),
        variants,
        type_maps: inst
            .type_maps
            .iter()
            .map(|m| PageTypeMap {
                platform: m.platform.clone(),
                types: m.types.clone(),
            })
            .collect(),
        other_sections: inst.other_sections.clone(),
        size,
    }
}

/// Byte offset and size of every field of a format, while they are fixed: offsets become
/// variable after the first field of variable size, or that may be absent.
fn variant(inst: &Instruction, v: &Variant) -> PageVariant {
    let by_name: BTreeMap<&str, &str> = inst
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.ty.as_str()))
        .collect();
    let mut offset = Some(1 + usize::from(inst.sub_opcode.is_some()));
    let slots = v
        .fields
        .iter()
        .map(|name| {
            let ty = by_name.get(name.as_str()).copied().unwrap_or("unknown");
            let mut slot = LayoutSlot {
                name: name.clone(),
                ty: ty.to_string(),
                offset,
                unit_size: fixed_size(ty),
                repeated_by: Vec::new(),
                presence: if v.optional_fields.contains(name) {
                    Presence::Optional
                } else {
                    Presence::Always
                },
            };
            for c in &v.counted {
                let Some(index) = c.fields.iter().position(|f| f == name) else {
                    continue;
                };
                match c.kind {
                    CountKind::Repeat => slot.repeated_by.push(c.count.clone()),
                    CountKind::Prefix => {
                        slot.presence = Presence::IfCountAbove {
                            count: c.count.clone(),
                            index,
                        }
                    }
                }
            }
            let size = slot.unit_size.filter(|_| slot.repeated_by.is_empty());
            offset = offset
                .zip(size)
                .map(|(o, s)| o + s)
                .filter(|_| slot.presence == Presence::Always);
            slot
        })
        .collect();
    PageVariant {
        condition: v.condition.clone(),
        slots,
        counted: v.counted.iter().map(counted).collect(),
        end: offset,
    }
}

fn counted(c: &Counted) -> PageCounted {
    PageCounted {
        kind: c.kind,
        count: c.count.clone(),
        fields: c.fields.clone(),
        range_sentence: c.range_sentence.clone(),
        skip_sentence: c.skip_sentence.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Field, OpcodeDef, Span};

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
        crate::testing::instruction(name, 0x36, fields, variants, Span::default())
    }

    /// The (offset, size of one) of a format's fields.
    fn cells(inst: &Instruction, v: usize) -> Vec<(Option<usize>, Option<usize>)> {
        page(inst).variants[v]
            .slots
            .iter()
            .map(|s| (s.offset, s.unit_size))
            .collect()
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
                (Some(1), Some(1)),
                (Some(2), Some(1)),
                (Some(3), None),
                (None, None)
            ]
        );
        assert_eq!(page(&i).size, None);
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
        assert_eq!(page(&jmp).size, Some(6));
        // With a sub-opcode the first field sits at byte 2: 1 + 1 + ud(4) = 6.
        let mut sub = instruction(
            "SUB",
            vec![field("X", "ud")],
            vec![variant(None, &["X"], &[])],
        );
        sub.sub_opcode = Some(opcode("SUB_OP", 3));
        assert_eq!(cells(&sub, 0), vec![(Some(2), Some(4))]);
        assert_eq!(page(&sub).size, Some(6));
        assert_eq!(page(&sub).sub_opcode, Some((3, "SUB_OP".into())));
        // No fields at all (BARRIER): the opcode byte alone; no format table: the same.
        let barrier = instruction("BARRIER", vec![], vec![variant(None, &[], &[])]);
        assert_eq!(page(&barrier).size, Some(1));
        assert_eq!(page(&instruction("NONE", vec![], vec![])).size, Some(1));
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
            vec![(Some(1), Some(1)), (Some(2), Some(2)), (None, Some(1))]
        );
        assert_eq!(page(&i).variants[0].slots[1].presence, Presence::Optional);
        assert_eq!(page(&i).size, None);
    }

    #[test]
    fn a_repeated_field_has_a_unit_size_and_makes_later_offsets_variable() {
        let mut v = variant(None, &["N", "L", "X"], &[]);
        v.counted = vec![Counted {
            count: "N".into(),
            fields: vec!["L".into()],
            kind: CountKind::Repeat,
            min: None,
            max: None,
            range_sentence: None,
            skip_sentence: None,
            span: Span::default(),
        }];
        let i = instruction(
            "SW",
            vec![field("N", "ub"), field("L", "uw"), field("X", "ub")],
            vec![v],
        );
        assert_eq!(
            cells(&i, 0),
            vec![(Some(1), Some(1)), (Some(2), Some(2)), (None, Some(1))]
        );
        assert_eq!(
            page(&i).variants[0].slots[1].repeated_by,
            vec!["N".to_string()]
        );
        assert_eq!(page(&i).size, None);
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
        assert_eq!(page(&same).size, Some(3));
        let differ = instruction(
            "DIFFER",
            fields,
            vec![
                variant(Some("Op=x"), &["Op", "A"], &[]),
                variant(Some("Op=y"), &["Op", "B"], &[]),
            ],
        );
        assert_eq!(page(&differ).size, None);
    }
}
