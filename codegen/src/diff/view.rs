//! What the generated crate exposes, per doc, taken from the analysed model: the names users
//! write (types, fields, variants, `Execute` methods), the layout that gives bytes their
//! meaning, the rules validators check, the text forms, and hashes of the prose. The view is
//! all [`super::compare`] needs, so it is also what regen keeps beside its output
//! ([`super::SNAPSHOT`]) to say what changed since the last regen.

use crate::analyze::naming::type_name;
use crate::analyze::object::{RecordModel, RecordValue};
use crate::analyze::{
    EnumDef, FieldModel, FieldType, InstModel, Member, MemberType, Model, VariantModel,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The whole crate's view: crate-wide names, then one entry per doc (by file stem).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Api {
    /// Variants of the generated `Platform`, oldest first.
    pub platforms: Vec<String>,
    pub docs: BTreeMap<String, DocApi>,
}

/// One doc: its instruction(s) (an opcode doc) or its records (a chapter).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocApi {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instructions: Vec<InstApi>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<RecordApi>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstApi {
    /// The doc's name of the instruction (`OWORD_ST`).
    pub name: String,
    /// The generated struct and `Instruction` variant (`OwordSt`).
    pub rust: String,
    /// The `Execute` method (`oword_st`).
    pub execute: String,
    /// The module of its types (`oword_st`).
    #[serde(default)]
    pub module: String,
    /// The `Opcode` variant.
    pub opcode_rust: String,
    pub opcode: u8,
    pub sub_opcode: Option<u8>,
    pub alias_of: Option<String>,
    /// Every field, in order of first appearance.
    pub fields: Vec<FieldApi>,
    pub variants: Vec<VariantApi>,
    /// `Type map{...}`: annotation (or empty) and the source types it allows.
    pub type_maps: Vec<(String, Vec<String>)>,
    /// The platforms it exists on (`XEHP+` of its entry in the list of instructions); none:
    /// every platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platforms: Option<String>,
    /// The doc's templates (non-empty lines of `## Text`) when it has text forms: what a
    /// reviewer reads.
    pub text: Vec<String>,
    /// A hash of everything the text forms decide (spellings, bits), beyond those lines.
    pub text_hash: String,
    /// Hashes of the prose users read in docs but code does not act on: section → hash.
    pub wording: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldApi {
    pub name: String,
    pub rust: String,
    /// The Rust type, as a user names it (`u8`, `enum Size (u8)`, `struct ExecSize (u8)`).
    pub ty: String,
    /// Enumerated values of the whole field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueApi>,
    /// Bit ranges of a bit-packed field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<MemberApi>,
    /// Bits that must be zero.
    #[serde(default)]
    pub reserved: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    #[serde(default)]
    pub nonzero: bool,
    /// Hash of the field's prose and the sentences its validators quote.
    pub wording: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberApi {
    pub name: String,
    pub hi: u8,
    pub lo: u8,
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueApi>,
    /// Platform annotation of the bits (`TGLLP+`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platforms: Option<String>,
    #[serde(default)]
    pub nonzero: bool,
    pub wording: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueApi {
    pub value: u64,
    /// The enum variant (or constant) users name.
    pub rust: String,
    pub meaning: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platforms: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantApi {
    pub rust: String,
    /// Doc names of its fields, in encoding order.
    pub fields: Vec<String>,
    /// How decoding selects it: `Field.member in [values]`.
    pub choices: Vec<String>,
    pub shadowed: bool,
    /// Counted lists: `count -> items [min..max]`.
    pub counted: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordApi {
    pub name: String,
    pub rust: String,
    pub fields: Vec<RecordFieldApi>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordFieldApi {
    pub name: String,
    pub rust: String,
    /// What the field holds, as the chapter declares it (`UD`, `UB[name_len]`, ...).
    pub kind: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueApi>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<MemberApi>,
    pub wording: String,
}

/// FNV-1a: a hash that is the same on every machine and toolchain (the snapshot is generated
/// output, so it must depend on nothing but the docs).
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The file stem of a doc's source path (`chapters/4_visa_header.md` → `4_visa_header`).
pub fn stem(source: &str) -> String {
    Path::new(source)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| source.to_string())
}

/// The view of `model`.
pub fn api(model: &Model) -> Api {
    Api {
        platforms: platforms(model),
        docs: docs_of(model)
            .into_iter()
            .map(|(stem, doc)| (stem, doc_api(model, &doc)))
            .collect(),
    }
}

/// The variants of the generated `Platform`, oldest first.
pub(crate) fn platforms(model: &Model) -> Vec<String> {
    model.platforms.iter().map(|p| type_name(p)).collect()
}

/// What one doc's view is made of: its instructions and records in the model, and nothing
/// else of the model but its text forms (`model.text`, read by [`doc_api`]).
#[derive(Default)]
pub(crate) struct DocParts<'a> {
    pub instructions: Vec<&'a InstModel>,
    pub records: Vec<&'a RecordModel>,
}

/// The model's instructions and records, by the file stem of their doc.
pub(crate) fn docs_of(model: &Model) -> BTreeMap<String, DocParts<'_>> {
    let mut docs: BTreeMap<String, DocParts> = BTreeMap::new();
    for inst in &model.instructions {
        docs.entry(stem(&inst.source))
            .or_default()
            .instructions
            .push(inst);
    }
    for r in model.object.iter().flat_map(|o| &o.records) {
        docs.entry(stem(&r.source)).or_default().records.push(r);
    }
    docs
}

/// The view of one doc.
pub(crate) fn doc_api(model: &Model, doc: &DocParts) -> DocApi {
    DocApi {
        instructions: doc
            .instructions
            .iter()
            .map(|i| inst_api(model, i))
            .collect(),
        records: doc.records.iter().map(|r| record_api(r)).collect(),
    }
}

fn enum_values(def: Option<&EnumDef>) -> Vec<ValueApi> {
    def.map(|d| {
        d.variants
            .iter()
            .map(|v| ValueApi {
                value: v.value,
                rust: v.name.clone(),
                meaning: v.meaning.clone(),
                platforms: v.rule.as_ref().map(|r| r.annotation()),
            })
            .collect()
    })
    .unwrap_or_default()
}

/// Where users name an enum: the shared module `enums` (identical in several docs) or the
/// doc's module; a type that moves between them is a path that no longer resolves.
fn enum_path(inst: &InstModel, def: Option<&EnumDef>) -> String {
    match def {
        Some(d) if d.shared => format!("enums::{}", d.name),
        Some(d) => format!("{}::{}", inst.module, d.name),
        None => String::new(),
    }
}

fn int_name(i: crate::analyze::Int) -> String {
    format!("{i:?}").to_ascii_lowercase()
}

fn inst_api(model: &Model, inst: &InstModel) -> InstApi {
    let type_maps = inst
        .src_type_maps
        .iter()
        .map(|m| {
            (
                m.rule.as_ref().map_or(String::new(), |r| r.annotation()),
                m.types.clone(),
            )
        })
        .collect();
    let text = model.text.get(&inst.doc_name);
    let wording = [
        ("description", &inst.description),
        ("semantics", &inst.semantics),
        ("notes", &inst.notes),
        ("text section", &inst.text),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), hash(v)))
    .collect();
    InstApi {
        name: inst.doc_name.clone(),
        rust: inst.rust_name.clone(),
        execute: inst.execute_method.clone(),
        module: inst.module.clone(),
        opcode_rust: inst.opcode_variant.clone(),
        opcode: inst.opcode,
        sub_opcode: inst.sub_opcode,
        alias_of: inst.alias_of.clone(),
        fields: fields_in_order(inst)
            .into_iter()
            .map(|f| field_api(inst, f))
            .collect(),
        variants: inst.variants.iter().map(variant_api).collect(),
        type_maps,
        platforms: inst.availability.as_ref().map(|a| a.rule.annotation()),
        text: text
            .filter(|t| !t.forms.is_empty())
            .map(|_| {
                inst.text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        text_hash: hash(&text.map_or(String::new(), |t| format!("{t:?}"))),
        wording,
    }
}

/// The fields of `inst`, each once: those of the variants in order, then any other.
fn fields_in_order(inst: &InstModel) -> Vec<&FieldModel> {
    inst.variants
        .iter()
        .flat_map(|v| v.fields.iter())
        .chain(inst.fields.keys())
        .fold(Vec::<&String>::new(), |mut seen, f| {
            if !seen.contains(&f) {
                seen.push(f);
            }
            seen
        })
        .into_iter()
        .filter_map(|name| inst.fields.get(name))
        .collect()
}

fn field_api(inst: &InstModel, f: &FieldModel) -> FieldApi {
    let (ty, values, members, reserved) = field_shape(inst, f);
    let mut classes = f.classes.clone();
    classes.sort();
    let mut types = f.types.clone();
    types.sort();
    FieldApi {
        name: f.doc_name.clone(),
        rust: f.rust_name.clone(),
        ty,
        values,
        members,
        reserved,
        classes,
        types,
        nonzero: f.nonzero.is_some(),
        wording: hash(&format!(
            "{}\u{0}{:?}\u{0}{:?}",
            f.doc, f.class_rule, f.type_rule
        )),
    }
}

/// A field's type as users name it, its values, its members and its reserved bits.
fn field_shape(inst: &InstModel, f: &FieldModel) -> (String, Vec<ValueApi>, Vec<MemberApi>, u64) {
    match &f.ty {
        FieldType::Int(i) => (int_name(*i), Vec::new(), Vec::new(), 0),
        FieldType::Enum(i, e) => {
            let def = inst.enums.get(*e);
            (
                format!("enum {} ({})", enum_path(inst, def), int_name(*i)),
                enum_values(def),
                Vec::new(),
                0,
            )
        }
        FieldType::Bits {
            base,
            name,
            members,
            reserved_mask,
            reserved_ignored,
        } => {
            let members = members.iter().map(|m| member_api(inst, m)).collect();
            // A struct shared by several docs lives in `enums`, else in the doc's module.
            let module = if f.shared_struct {
                "enums"
            } else {
                &inst.module
            };
            (
                format!("struct {module}::{name} ({})", int_name(*base)),
                Vec::new(),
                members,
                // Bits kept and not checked are no rule.
                if *reserved_ignored { 0 } else { *reserved_mask },
            )
        }
        FieldType::Predicate => ("predicate".into(), Vec::new(), Vec::new(), 0),
        FieldType::Vector => ("vector operand".into(), Vec::new(), Vec::new(), 0),
        FieldType::Raw => ("raw operand".into(), Vec::new(), Vec::new(), 0),
        FieldType::Rest => ("remaining bytes".into(), Vec::new(), Vec::new(), 0),
    }
}

fn member_api(inst: &InstModel, m: &Member) -> MemberApi {
    let (ty, values) = match m.ty {
        MemberType::Int => ("integer".to_string(), Vec::new()),
        MemberType::Enum(e) => {
            let def = inst.enums.get(e);
            (format!("enum {}", enum_path(inst, def)), enum_values(def))
        }
    };
    MemberApi {
        name: m.name.clone(),
        hi: m.hi,
        lo: m.lo,
        ty,
        values,
        platforms: m.rule.as_ref().map(|r| r.annotation()),
        nonzero: m.nonzero.is_some(),
        wording: hash(&m.summary),
    }
}

fn variant_api(v: &VariantModel) -> VariantApi {
    VariantApi {
        rust: v.rust_name.clone(),
        fields: v.fields.clone(),
        choices: v
            .choices
            .iter()
            .map(|c| {
                let at = match &c.member {
                    Some(m) => format!("{}.{m}", c.field),
                    None => c.field.clone(),
                };
                format!("{at} in [{}]", c.values.join(", "))
            })
            .collect(),
        shadowed: v.shadowed,
        counted: v
            .counted
            .iter()
            .map(|c| {
                format!(
                    "{} -> {} [{}..{}]",
                    c.count,
                    c.items.join(", "),
                    c.min.map_or(String::new(), |m| m.to_string()),
                    c.max.map_or(String::new(), |m| m.to_string())
                )
            })
            .collect(),
    }
}

fn record_values(values: &[RecordValue]) -> Vec<ValueApi> {
    values
        .iter()
        .map(|v| ValueApi {
            value: v.value,
            rust: v.meaning.clone(),
            meaning: v.meaning.clone(),
            platforms: v.platform.clone(),
        })
        .collect()
}

fn record_api(r: &RecordModel) -> RecordApi {
    RecordApi {
        name: r.name.clone(),
        rust: r.rust_name.clone(),
        fields: r
            .items
            .iter()
            .map(|f| RecordFieldApi {
                name: f.name.clone(),
                rust: f.rust_name.clone(),
                kind: f.declared.clone(),
                values: record_values(&f.values),
                members: f
                    .bits
                    .iter()
                    .map(|b| MemberApi {
                        name: b.name.clone(),
                        hi: b.hi,
                        lo: b.lo,
                        ty: "integer".into(),
                        values: record_values(&b.values),
                        platforms: None,
                        nonzero: false,
                        wording: hash(&b.text),
                    })
                    .collect(),
                wording: hash(&f.description),
            })
            .collect(),
    }
}
