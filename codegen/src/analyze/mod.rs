//! Analysis: checks the schema and decides every name, type and layout, so the emitters only
//! render and cannot fail. Every choice a doc leaves open is made here, once, with a warning.

pub mod contradictions;
pub mod naming;
pub mod object;
mod packed;
pub mod platform;
pub mod reference;
pub mod semantics;
pub mod text;

use crate::diag::{Code, Diagnostic};
/// How a counted list is encoded, as the model carries it.
pub use crate::schema::CountKind;
use crate::schema::{EnumValue, Field, Instruction, Spec, TypeMap};
use naming::{member_name, snake_name, type_name, variant_from_name, variant_name, Names, Pins};
use platform::Rule;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Integer width of a field in the binary layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Int {
    U8,
    U16,
    U32,
    I32,
    U64,
}

impl Int {
    pub fn bits(self) -> u32 {
        match self {
            Int::U8 => 8,
            Int::U16 => 16,
            Int::U32 | Int::I32 => 32,
            Int::U64 => 64,
        }
    }
    /// All bits of the field as an unsigned mask.
    pub fn mask(self) -> u64 {
        u64::MAX >> (64 - self.bits())
    }
    /// The unsigned integer holding the field's raw bits.
    pub fn unsigned(self) -> Int {
        match self {
            Int::I32 => Int::U32,
            i => i,
        }
    }
}

/// One enumerated value of an enum.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EnumVariant {
    pub name: String,
    pub value: u64,
    pub meaning: String,
    pub rule: Option<Rule>,
    /// The doc line, quoted by validators.
    pub quote: String,
}

/// A Rust enum generated from a value set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumDef {
    pub name: String,
    /// The smallest unsigned integer that holds the values.
    pub repr: Int,
    pub variants: Vec<EnumVariant>,
    /// Lives in the shared module (identical in several docs) rather than the doc's module.
    pub shared: bool,
}

impl EnumDef {
    /// What decode errors list as expected.
    pub fn expected(&self) -> String {
        let list: Vec<String> = self
            .variants
            .iter()
            .map(|v| format!("{:#x} ({})", v.value, v.meaning))
            .collect();
        format!("one of {}", list.join(", "))
    }

    fn key(&self) -> (Int, Vec<(String, u64, Option<Rule>)>) {
        (
            self.repr,
            self.variants
                .iter()
                .map(|v| (v.name.clone(), v.value, v.rule.clone()))
                .collect(),
        )
    }
}

/// What a bit range holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemberType {
    Enum(usize),
    Int,
}

/// One `Bit[hi..lo]` of a bit-packed field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    pub name: String,
    pub hi: u8,
    pub lo: u8,
    pub ty: MemberType,
    pub summary: String,
    /// `{TGLLP+}Bit[6..5]`: the bits exist only where the rule holds; elsewhere they must be 0.
    pub rule: Option<Rule>,
    /// "At least one channel must be enabled": the member must not be zero.
    pub nonzero: Option<String>,
}

impl Member {
    pub fn mask(&self) -> u64 {
        let width = u32::from(self.hi - self.lo) + 1;
        if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        }
    }
}

/// The Rust type of a field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    Int(Int),
    /// The whole field is one enumerated value.
    Enum(Int, usize),
    /// A bit-packed field: a struct with one member per bit range, and `reserved` bits.
    Bits {
        base: Int,
        name: String,
        members: Vec<Member>,
        reserved_mask: u64,
        /// The field's prose says its bits outside the ranges are ignored ([`IGNORED_BITS`]):
        /// they are kept as read and not checked.
        reserved_ignored: bool,
    },
    /// `Pred(uw)`: the predication control word of the operands chapter.
    Predicate,
    Vector,
    Raw,
    /// A field whose layout the doc leaves open: the remaining input bytes, verbatim.
    Rest,
}

/// A field of an instruction, as generated.
#[derive(Clone, Debug, Hash)]
pub struct FieldModel {
    /// A bit-packed field whose struct is identical in several docs: generated once, in the
    /// shared module.
    pub shared_struct: bool,
    pub doc_name: String,
    pub rust_name: String,
    pub ty: FieldType,
    pub doc: String,
    pub classes: Vec<String>,
    pub class_rule: Option<String>,
    pub types: Vec<String>,
    pub type_rule: Option<String>,
    /// "At least one channel must be enabled" on a whole-field integer.
    pub nonzero: Option<String>,
}

/// How a variant is chosen when decoding: the field holding the selector, the bit range within
/// it (if any), and the enum values that select this variant.
#[derive(Clone, Debug, Hash)]
pub struct Choice {
    pub field: String,
    pub member: Option<String>,
    pub enum_index: usize,
    pub values: Vec<String>,
}

/// One format table of an instruction.
#[derive(Clone, Debug, Default, Hash)]
pub struct VariantModel {
    pub rust_name: String,
    pub condition: Option<String>,
    pub fields: Vec<String>,
    pub choices: Vec<Choice>,
    /// An earlier variant decodes every encoding of this one, which therefore never decodes.
    pub shadowed: bool,
    /// Counted lists: each is one `Vec` member; its count field is no member of its own.
    pub counted: Vec<CountedModel>,
}

/// A counted list as generated: a `Vec` whose length is what the count field encodes, so the
/// two cannot disagree.
#[derive(Clone, Debug, Hash)]
pub struct CountedModel {
    /// Doc name of the count field (a plain integer field read before the list).
    pub count: String,
    /// Doc names of the items: the repeated field, or the parameters of which a prefix is encoded.
    pub items: Vec<String>,
    pub kind: CountKind,
    /// The `Vec` member.
    pub rust_name: String,
    pub min: Option<u64>,
    pub max: Option<u64>,
    pub range_sentence: Option<String>,
}

/// What a position of a variant's encoding holds, for the emitters.
#[derive(Clone, Copy, Debug)]
pub enum Slot<'a> {
    Field(&'a FieldModel),
    /// The count of a list: decoded, encoded from the list's length, never stored.
    Count(&'a FieldModel, &'a CountedModel),
    /// A whole list, at the position of its first item.
    List(&'a CountedModel, &'a FieldModel),
}

impl VariantModel {
    /// The variant's fields in encoding order, lists folded into one slot each; with each
    /// slot the index of its (first) field in `fields`.
    pub fn slots<'a>(&'a self, inst: &'a InstModel) -> Vec<(usize, Slot<'a>)> {
        let mut out = Vec::new();
        for (i, name) in self.fields.iter().enumerate() {
            let Some(f) = inst.fields.get(name) else {
                continue;
            };
            if let Some(c) = self.counted.iter().find(|c| c.count == *name) {
                out.push((i, Slot::Count(f, c)));
            } else if let Some(c) = self.counted.iter().find(|c| c.items.first() == Some(name)) {
                out.push((i, Slot::List(c, f)));
            } else if !self.counted.iter().any(|c| c.items.contains(name)) {
                out.push((i, Slot::Field(f)));
            }
        }
        out
    }
}

/// One instruction, as generated.
#[derive(Clone, Debug, Hash)]
pub struct InstModel {
    pub doc_name: String,
    pub source: String,
    pub rust_name: String,
    pub module: String,
    pub opcode: u8,
    pub opcode_name: String,
    /// The `Opcode` variant of its opcode byte: named after the first doc (that decodes) of
    /// that opcode, so docs sharing an opcode (sub-opcodes) name one variant.
    pub opcode_variant: String,
    /// The `Execute` method that handles it.
    pub execute_method: String,
    pub sub_opcode: Option<u8>,
    pub description: String,
    pub semantics: String,
    pub text: String,
    pub notes: String,
    pub fields: BTreeMap<String, FieldModel>,
    pub variants: Vec<VariantModel>,
    /// Fields read before the variant is chosen (a common prefix of every variant).
    pub prefix: usize,
    pub enums: Vec<EnumDef>,
    /// Set for an alias: the instruction that decodes instead.
    pub alias_of: Option<String>,
    /// For a doc without a sub-opcode whose opcode others share with a sub-opcode (the generic
    /// `SVM`): the sub-opcodes those docs claim, with their names. Its first field must avoid
    /// them, or the bytes decode as the other instruction.
    pub claimed_subs: Vec<(u8, String)>,
    /// `#### Operand type maps`: the source types each map allows, checked on immediate
    /// sources (the only operands whose bytes carry a type). Any map may hold.
    pub src_type_maps: Vec<TypeMapModel>,
    /// Every type map with both groups; empty when one names a type that is not a vISA data
    /// type, lists no type at all, or names a platform the docs do not (then none is checked
    /// rather than a guess).
    pub type_maps: Vec<OperandTypeMap>,
    /// What `interpret` runs: the lane function of `## Semantics`, or the machine's prose.
    pub lanes: semantics::LaneModel,
    /// The platforms the instruction exists on, from the chapters' list of instructions;
    /// `None`: every platform.
    pub availability: Option<Availability>,
    /// Values of `enums` (index, variant) that exist on no platform the instruction exists on
    /// (`V0222`): they decode and never validate.
    pub nowhere: Vec<(usize, String)>,
}

/// The platforms an instruction exists on (`{XEHP+}` of its entry in `6_instructions.md`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Availability {
    pub rule: Rule,
    /// The entry, quoted by validators: `{XEHP+} (6_instructions.md: DPAS - Dot Product
    /// Accumulate Systolic)`.
    pub quote: String,
}

/// The `Src types` of one `Type map{PLATFORM}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeMapModel {
    pub rule: Option<Rule>,
    /// Upper-case data type names, as the doc lists them.
    pub types: Vec<String>,
}

/// The analysed spec.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub instructions: Vec<InstModel>,
    /// Platforms the docs name, oldest first.
    pub platforms: Vec<String>,
    pub shared_enums: Vec<EnumDef>,
    /// Bit-packed field structs generated once in the shared module: (instruction index,
    /// field name) of one doc that has it.
    pub shared_structs: Vec<(usize, String)>,
    /// Text forms of the instructions with `## Text` templates, by doc name.
    pub text: BTreeMap<String, text::TextInst>,
    /// The object-format records of the chapters: the crate has a module `generated::object`
    /// when there are any.
    pub object: Option<object::ObjectModel>,
    /// Docs left out (unreadable or not accepted): decoding their opcode names them.
    pub left_out: Vec<LeftOutDoc>,
}

/// A doc the generator left out, as decoding its opcode reports it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeftOutDoc {
    /// The doc, relative to the spec directory (`BFN.md`).
    pub doc: String,
    /// Its opcode and sub-opcode, when they could be read.
    pub opcode: Option<u8>,
    pub sub_opcode: Option<u8>,
    /// Why, with the place.
    pub why: String,
}

/// One operand type map with both groups (`Dst types`, `Src types`), for routine-level
/// validation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OperandTypeMap {
    /// The platforms it applies to; `None`: every platform.
    pub rule: Option<Rule>,
    pub dst: Vec<String>,
    pub src: Vec<String>,
    /// The map's line in the doc.
    pub line: u32,
}

/// The integer a field of bullet type `ty` is held in. Byte and word fields are held
/// unsigned whatever their sign (they are codes and counts, never arithmetic), `d` signed;
/// no doc has a quad-word field, and [`Int`] has none, so `uq`/`q` are not integers here.
fn int_of(ty: &str) -> Option<Int> {
    let t = crate::vocab::field_type(ty).filter(|t| t.is_integer())?;
    match (t.bytes, t.kind) {
        (1, _) => Some(Int::U8),
        (2, _) => Some(Int::U16),
        (4, crate::vocab::Kind::Signed) => Some(Int::I32),
        (4, _) => Some(Int::U32),
        (8, crate::vocab::Kind::Unsigned) => Some(Int::U64),
        _ => None,
    }
}

fn repr_for(max: u64) -> Int {
    if max <= 0xff {
        Int::U8
    } else if max <= 0xffff {
        Int::U16
    } else {
        Int::U32
    }
}

/// The sentence of `text` that contains `needle` (case-insensitive), for validator messages.
fn sentence(text: &str, needle: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find(&needle.to_ascii_lowercase())?;
    let start = text[..at].rfind(". ").map_or(0, |i| i + 2);
    let end = text[at..].find(". ").map_or(text.len(), |i| at + i + 1);
    Some(text[start..end].trim().to_string())
}

const NONZERO: &str = "at least one channel must be enabled";

/// A bit-packed field whose prose says this keeps the bits outside its ranges as read and
/// does not check them (an erratum adds it where Intel's reader ignores those bits).
pub const IGNORED_BITS: &str = "bits outside these ranges are ignored";

struct Analyzer<'a> {
    inst: &'a Instruction,
    diags: &'a mut Vec<Diagnostic>,
    enums: Vec<EnumDef>,
    platforms: &'a mut BTreeSet<String>,
    pins: &'a Pins,
}

impl Analyzer<'_> {
    fn rule(&mut self, annotation: &Option<String>, span: crate::schema::Span) -> Option<Rule> {
        let a = annotation.as_ref()?;
        match platform::parse(a) {
            Ok(r) => {
                self.platforms
                    .extend(r.platforms().into_iter().map(str::to_string));
                Some(r)
            }
            Err(name) => {
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownPlatform,
                        &self.inst.source,
                        span,
                        format!("platform `{name}` of annotation `{{{a}}}` is unknown"),
                    )
                    .expected(format!("one of {}", platform::KNOWN.join(", "))),
                );
                None
            }
        }
    }

    /// The enum `name` of `values`, those of `field` (of its bits `range`, if any): each
    /// variant named by its pin, else after its meaning ([`variant_name`]), reported when the
    /// meaning's description rather than its name gives the name ([`variant_from_name`]).
    fn enum_def(
        &mut self,
        name: String,
        values: &[EnumValue],
        field: &str,
        range: Option<(u8, u8)>,
    ) -> usize {
        let mut seen = Names::default();
        let mut variants = Vec::with_capacity(values.len());
        let mut by_value = BTreeSet::new();
        for v in values {
            if !by_value.insert(v.value) {
                continue; // A value listed twice is one variant.
            }
            let base = match self.pins.value(&self.inst.source, field, range, v.value) {
                Some(pin) => naming::pinned(pin),
                None => {
                    let base = variant_name(&v.meaning, v.value);
                    if self.pins.report && !variant_from_name(&v.meaning, v.value) {
                        self.unpinned_value(field, range, v, &base, &name);
                    }
                    base
                }
            };
            let vn = seen.claim(&base, &format!("{base}{}", v.value));
            let rule = self.rule(&v.platform, v.span);
            let quote = match &v.platform {
                Some(p) => format!("{{{p}}}{:#x}: {}", v.value, v.meaning),
                None => format!("{:#x}: {}", v.value, v.meaning),
            };
            variants.push(EnumVariant {
                name: vn,
                value: v.value,
                meaning: v.meaning.clone(),
                rule,
                quote,
            });
        }
        let max = variants.iter().map(|v| v.value).max().unwrap_or(0);
        self.enums.push(EnumDef {
            name,
            repr: repr_for(max),
            variants,
            shared: false,
        });
        self.enums.len() - 1
    }

    /// `V0230` for a value named after words of its description.
    fn unpinned_value(
        &mut self,
        field: &str,
        range: Option<(u8, u8)>,
        v: &EnumValue,
        name: &str,
        enum_name: &str,
    ) {
        let bits = range.map(|(hi, lo)| format!("{hi}..{lo}"));
        let what = match &bits {
            Some(b) => format!("value {:#x} of bits {b} of `{field}`", v.value),
            None => format!("value {:#x} of `{field}`", v.value),
        };
        let pin = pin_entry(
            &self.inst.source,
            field,
            bits.as_deref(),
            Some(v.value),
            name,
        );
        self.diags.push(
            Diagnostic::new(
                Code::UnpinnedName,
                &self.inst.source,
                v.span,
                format!(
                    "{what} is named `{enum_name}::{name}` after words of its description \
                     (\"{}\"), and no `[[name]]` of regen.toml pins that name: rewording the \
                     description would rename it",
                    v.meaning
                ),
            )
            .expected(format!("a pin in regen.toml: {pin}")),
        );
    }

    /// "Must have type" names the data types chapter knows; another name (only a hand-built
    /// schema has one) drops the check, with a warning, rather than guess.
    fn allowed_types(&mut self, f: &Field) -> Vec<String> {
        let Some(bad) = f
            .allowed_types
            .iter()
            .find(|t| !crate::vocab::is_data_type(t))
        else {
            return f.allowed_types.clone();
        };
        self.diags.push(Diagnostic::new(
            Code::UnknownAllowedType,
            &self.inst.source,
            f.span,
            format!(
                "`{}` must have type `{bad}`, which is not a vISA data type; its types are not checked",
                f.name
            ),
        ));
        Vec::new()
    }

    /// The name of bit range `b` of `f` before clashes are resolved. A bit range has no name of
    /// its own in the docs, only a description: its name is pinned, or taken from the
    /// description ([`member_name`]) and reported.
    fn member_base(&mut self, f: &Field, b: &crate::schema::BitField) -> String {
        if let Some(pin) = self.pins.member(&self.inst.source, &f.name, b.hi, b.lo) {
            return naming::pinned(pin);
        }
        let base = member_name(&b.summary, b.hi, b.lo);
        if self.pins.report {
            let bits = format!("{}..{}", b.hi, b.lo);
            let pin = pin_entry(&self.inst.source, &f.name, Some(&bits), None, &base);
            self.diags.push(
                Diagnostic::new(
                    Code::UnpinnedName,
                    &self.inst.source,
                    b.span,
                    format!(
                        "bits {bits} of `{}` are named `{base}` after their description, and no \
                         `[[name]]` of regen.toml pins that name: rewording the description \
                         would rename the member (and the enum of its values)",
                        f.name
                    ),
                )
                .expected(format!("a pin in regen.toml: {pin}")),
            );
        }
        base
    }

    /// A bit-packed field: one member per bit range (overlapping or out-of-range ones are
    /// errors and skipped), the bits no range covers reserved.
    fn bits(&mut self, f: &Field, base: Int, tyname: &str) -> FieldType {
        let mut members = Vec::new();
        let mut used = 0u64;
        // `reserved` holds the bits no range covers.
        let mut names = Names::reserving(&["reserved"]);
        for b in &f.bitfields {
            let named = self.member_base(f, b);
            let name = names.claim(&named, &format!("bits_{}_{}", b.hi, b.lo));
            let m = Member {
                name: name.clone(),
                hi: b.hi,
                lo: b.lo,
                ty: MemberType::Int,
                summary: b.summary.clone(),
                rule: None,
                nonzero: None,
            };
            let mask = m.mask() << b.lo;
            if u32::from(b.hi) >= base.bits() || used & mask != 0 {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadBitRange,
                        &self.inst.source,
                        b.span,
                        format!(
                            "bit range [{}..{}] of `{}` overlaps another or exceeds its {} bits",
                            b.hi,
                            b.lo,
                            f.name,
                            base.bits()
                        ),
                    )
                    .expected("disjoint bit ranges within the field's type"),
                );
                continue;
            }
            used |= mask;
            let ty = if b.values.is_empty() {
                MemberType::Int
            } else {
                MemberType::Enum(self.enum_def(
                    format!("{tyname}{}", type_name(&name)),
                    &b.values,
                    &f.name,
                    Some((b.hi, b.lo)),
                ))
            };
            let rule = self.rule(&b.platform, b.span);
            let nonzero = b
                .summary
                .to_ascii_lowercase()
                .contains(NONZERO)
                .then(|| sentence(&b.summary, NONZERO).unwrap_or_default());
            members.push(Member {
                ty,
                rule,
                nonzero,
                ..m
            });
        }
        if !f.values.is_empty() {
            self.diags.push(Diagnostic::new(Code::UnrangedValues, &self.inst.source, f.span, format!("`{}` lists values both with and without bit ranges; the values without a range are documentation only", f.name)));
        }
        FieldType::Bits {
            base,
            name: tyname.to_string(),
            members,
            reserved_mask: base.unsigned().mask() & !used,
            reserved_ignored: f.description.to_ascii_lowercase().contains(IGNORED_BITS),
        }
    }

    fn field(&mut self, f: &Field) -> FieldModel {
        let tyname = type_name(&f.name);
        let int = int_of(&f.ty);
        let ty = match (int, f.bitfields.is_empty(), f.values.is_empty()) {
            (Some(Int::U16), true, true) if f.name.eq_ignore_ascii_case("pred") => {
                FieldType::Predicate
            }
            (Some(i), true, true) => FieldType::Int(i),
            (Some(i), true, false) => {
                let e = self.enum_def(tyname.clone(), &f.values, &f.name, None);
                if self.enums[e].repr.bits() > i.bits()
                    || f.values.iter().any(|v| v.value > i.mask())
                {
                    self.diags.push(
                        Diagnostic::new(
                            Code::BadValue,
                            &self.inst.source,
                            f.span,
                            format!("a value of `{}` does not fit its type `{}`", f.name, f.ty),
                        )
                        .expected(format!("values below {:#x}", i.mask() + 1)),
                    );
                }
                FieldType::Enum(i, e)
            }
            (Some(base), false, _) => self.bits(f, base, &tyname),
            (None, _, _) => match f.ty.as_str() {
                "vec_operand" | "scalar" => FieldType::Vector,
                "raw_operand" => FieldType::Raw,
                other => {
                    self.diags.push(Diagnostic::new(Code::RestOfBytes, &self.inst.source, f.span, format!("field `{}` has type `{other}`, which fixes no binary layout; it is generated as the remaining bytes of the instruction, verbatim", f.name)));
                    FieldType::Rest
                }
            },
        };
        let desc = &f.description;
        let nonzero = matches!(ty, FieldType::Int(_)).then(|| ()).and(
            desc.to_ascii_lowercase()
                .contains(NONZERO)
                .then(|| sentence(desc, NONZERO).unwrap_or_default()),
        );
        let operand = matches!(ty, FieldType::Vector);
        FieldModel {
            shared_struct: false,
            doc_name: f.name.clone(),
            rust_name: snake_name(&f.name),
            ty,
            doc: f.description.clone(),
            classes: if operand {
                f.operand_classes.clone()
            } else {
                vec![]
            },
            class_rule: if operand {
                sentence(desc, "operand class")
            } else {
                None
            },
            types: if operand {
                self.allowed_types(f)
            } else {
                vec![]
            },
            type_rule: if operand {
                sentence(desc, "must have")
            } else {
                None
            },
            nonzero,
        }
    }
}

/// Finds the enum and bit range that hold a selector's values.
fn resolve_choice(
    fields: &BTreeMap<String, FieldModel>,
    enums: &[EnumDef],
    sel: &crate::schema::Selector,
) -> Option<Choice> {
    let f = fields.get(&sel.field)?;
    // A clause naming no value selects nothing (the parser never builds one).
    if sel.values.is_empty() {
        return None;
    }
    let has_all = |e: usize| {
        sel.values.iter().all(|v| {
            enums[e]
                .variants
                .iter()
                .any(|ev| ev.meaning.eq_ignore_ascii_case(v))
        })
    };
    let names = |e: usize| -> Vec<String> {
        sel.values
            .iter()
            .filter_map(|v| {
                enums[e]
                    .variants
                    .iter()
                    .find(|ev| ev.meaning.eq_ignore_ascii_case(v))
                    .map(|ev| ev.name.clone())
            })
            .collect()
    };
    match &f.ty {
        FieldType::Enum(_, e) if has_all(*e) => Some(Choice {
            field: sel.field.clone(),
            member: None,
            enum_index: *e,
            values: names(*e),
        }),
        FieldType::Bits { members, .. } => members.iter().find_map(|m| match m.ty {
            MemberType::Enum(e) if has_all(e) => Some(Choice {
                field: sel.field.clone(),
                member: Some(m.name.clone()),
                enum_index: e,
                values: names(e),
            }),
            _ => None,
        }),
        _ => None,
    }
}

/// The `[[name]]` that pins `name`, as `V0230` suggests it.
fn pin_entry(doc: &str, field: &str, bits: Option<&str>, value: Option<u64>, name: &str) -> String {
    let mut out = format!("`[[name]]` with doc = \"{doc}\", field = \"{field}\"");
    if let Some(b) = bits {
        out.push_str(&format!(", bits = \"{b}\""));
    }
    if let Some(v) = value {
        out.push_str(&format!(", value = {v}"));
    }
    out.push_str(&format!(", name = \"{name}\""));
    out
}

fn analyze_instruction(
    inst: &Instruction,
    diags: &mut Vec<Diagnostic>,
    platforms: &mut BTreeSet<String>,
    pins: &Pins,
) -> InstModel {
    let mut a = Analyzer {
        inst,
        diags,
        enums: Vec::new(),
        platforms,
        pins,
    };
    let mut fields = BTreeMap::new();
    let mut rust_names = Names::default();
    for f in &inst.fields {
        let mut m = a.field(f);
        // `Src0` and `src0` would both be `src0`: the later one gets a numeric suffix.
        m.rust_name = rust_names.claim(&m.rust_name, &m.rust_name);
        fields.insert(f.name.clone(), m);
    }
    let src_type_maps = src_type_maps(&mut a);
    let Analyzer { enums, diags, .. } = a;
    layout_warnings(inst, &fields, diags);
    let rust_name = type_name(&inst.name);
    let counted = counted_lists(inst, &fields, &mut rust_names, diags);
    let prefix = common_prefix(
        &inst
            .variants
            .iter()
            .map(|v| v.fields.clone())
            .collect::<Vec<_>>(),
    );
    let variants = variants(inst, &fields, &enums, &counted, prefix, &rust_name, diags);
    // The common prefix is read before the variant is known; a list ends it.
    let prefix = variants.first().map_or(prefix, |v| {
        v.counted
            .iter()
            .filter_map(|c| v.fields.iter().position(|f| c.items.first() == Some(f)))
            .fold(prefix, usize::min)
    });
    let lanes = semantics::lanes(inst, &fields, variants.len(), diags);
    InstModel {
        doc_name: inst.name.clone(),
        source: inst.source.clone(),
        module: snake_name(&inst.name),
        rust_name,
        opcode: inst.opcode.value,
        opcode_name: inst.opcode.name.clone(),
        opcode_variant: type_name(&inst.opcode.name),
        execute_method: snake_name(&inst.name),
        sub_opcode: inst.sub_opcode.as_ref().map(|s| s.value),
        description: inst.description.clone(),
        semantics: inst.semantics.clone(),
        text: inst.text.clone(),
        notes: inst.notes.clone(),
        fields,
        variants,
        prefix: if inst.variants.len() > 1 { prefix } else { 0 },
        enums,
        alias_of: inst.alias_of.clone(),
        claimed_subs: Vec::new(),
        src_type_maps,
        type_maps: operand_type_maps(&inst.type_maps),
        lanes,
        availability: None,
        nowhere: Vec::new(),
    }
}

/// Warnings about the layout the doc leaves open: optional fields (always encoded) and a
/// field of no fixed layout before the last.
fn layout_warnings(
    inst: &Instruction,
    fields: &BTreeMap<String, FieldModel>,
    diags: &mut Vec<Diagnostic>,
) {
    // Items of a prefix list are absent when the count says so, not "always encoded".
    let listed: BTreeSet<&str> = inst
        .variants
        .iter()
        .flat_map(|v| &v.counted)
        .filter(|c| c.kind == CountKind::Prefix)
        .flat_map(|c| c.fields.iter().map(String::as_str))
        .collect();
    let optional: Vec<&Field> = inst
        .fields
        .iter()
        .filter(|f| f.optional && !listed.contains(f.name.as_str()))
        .collect();
    if let Some(first) = optional.first() {
        let names: Vec<String> = optional.iter().map(|f| format!("`{}`", f.name)).collect();
        diags.push(Diagnostic::new(
            Code::OptionalField,
            &inst.source,
            first.span,
            format!(
                "optional field(s) {} (marked `\\*`): the doc states no rule for their absence; they are always encoded, as null or zero values when unused",
                names.join(", ")
            ),
        ));
    }
    // A `Rest` field must be last in every variant, or nothing after it could be read.
    for v in &inst.variants {
        if let Some(pos) = v
            .fields
            .iter()
            .position(|n| matches!(fields.get(n).map(|f| &f.ty), Some(FieldType::Rest)))
        {
            if pos + 1 != v.fields.len() {
                diags.push(Diagnostic::new(
                    Code::RestNotLast,
                    &inst.source,
                    v.span,
                    format!(
                        "`{}` has no fixed layout and is not the last field; decoding stops there",
                        v.fields[pos]
                    ),
                ));
            }
        }
    }
}

/// The instruction's variants: how each is selected (and whether an earlier one shadows
/// it), its Rust name and counted lists; a selector that cannot be read in time, on an
/// operand type or missing is warned about.
fn variants(
    inst: &Instruction,
    fields: &BTreeMap<String, FieldModel>,
    enums: &[EnumDef],
    counted: &[Vec<CountedModel>],
    prefix: usize,
    rust_name: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<VariantModel> {
    let mut variants = Vec::new();
    let mut taken: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut names = Names::default();
    for (i, v) in inst.variants.iter().enumerate() {
        let mut choices = Vec::new();
        let mut operand_type = false;
        for sel in &v.selectors {
            if sel.operand_type {
                operand_type = true;
                continue;
            }
            match resolve_choice(fields, enums, sel) {
                Some(c) if v.fields.iter().take(prefix).any(|f| *f == c.field) => choices.push(c),
                Some(c) => diags.push(Diagnostic::new(Code::LateSelector, &inst.source, v.span, format!("variant selector `{}` is not read before the variants' fields differ; the first variant decodes", c.field))),
                None => diags.push(
                    Diagnostic::new(Code::UnknownSelectorValue, &inst.source, v.span, format!("condition `{}` names values that `{}` does not enumerate", v.condition.clone().unwrap_or_default(), sel.field))
                        .expected(format!("values listed under `{}`", sel.field)),
                ),
            }
        }
        if operand_type {
            diags.push(Diagnostic::new(Code::OperandTypeVariant, &inst.source, v.span, format!("variant `{}` depends on an operand's declared type, which the instruction's bytes do not carry; among such variants the first in the doc decodes", v.condition.clone().unwrap_or_default())));
        }
        // Shadowed: every value of every choice is taken by an earlier variant.
        let shadowed = inst.variants.len() > 1
            && (choices.is_empty() && i > 0
                || !choices.is_empty()
                    && choices.iter().all(|c| {
                        c.values
                            .iter()
                            .all(|val| taken.get(&c.field).is_some_and(|t| t.contains(val)))
                    }));
        for c in &choices {
            taken
                .entry(c.field.clone())
                .or_default()
                .extend(c.values.iter().cloned());
        }
        let base = if inst.variants.len() == 1 {
            rust_name.to_string()
        } else {
            let first: Vec<String> = v
                .selectors
                .iter()
                .filter_map(|s| s.values.first().cloned())
                .collect();
            let n = type_name(&first.join("_"));
            if n == "N" {
                format!("V{i}")
            } else {
                n
            }
        };
        let vn = names.claim(&base, &format!("{base}{i}"));
        variants.push(VariantModel {
            rust_name: vn,
            condition: v.condition.clone(),
            fields: v.fields.clone(),
            choices,
            shadowed,
            counted: counted.get(i).cloned().unwrap_or_default(),
        });
    }
    // A later format without any `### CONDITION` is never selected. (Conditions that cannot be
    // read before the formats differ, or on operand types, have codes of their own.)
    if inst.variants.len() > 1 && inst.variants.iter().skip(1).any(|v| v.selectors.is_empty()) {
        diags.push(Diagnostic::new(
            Code::NoSelector,
            &inst.source,
            inst.span,
            "variants without a readable selector; the first decodes",
        ));
    }
    variants
}

/// One `Opcode` variant per opcode byte, named after the first doc of that opcode that
/// decodes (aliases do not).
fn name_opcodes(instructions: &mut [InstModel]) {
    let mut by_value: BTreeMap<u8, String> = BTreeMap::new();
    for i in instructions.iter().filter(|i| i.alias_of.is_none()) {
        by_value
            .entry(i.opcode)
            .or_insert_with(|| i.opcode_variant.clone());
    }
    for i in instructions.iter_mut() {
        if let Some(v) = by_value.get(&i.opcode) {
            i.opcode_variant = v.clone();
        }
    }
}

/// The doc's type maps with both groups, all or none (see [`InstModel::type_maps`]). Platform
/// names are checked once the model's platforms are known ([`analyze`]).
fn operand_type_maps(maps: &[TypeMap]) -> Vec<OperandTypeMap> {
    let mut out = Vec::new();
    for m in maps {
        let group = |name: &str| {
            m.types
                .iter()
                .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let (dst, src) = (group("dst types"), group("src types"));
        if dst
            .iter()
            .chain(&src)
            .any(|t| !crate::vocab::is_data_type(t))
            || (dst.is_empty() && src.is_empty())
        {
            return Vec::new();
        }
        let rule = match &m.platform {
            None => None,
            Some(a) => match platform::parse(a) {
                Ok(rule) => Some(rule),
                Err(_) => return Vec::new(),
            },
        };
        out.push(OperandTypeMap {
            rule,
            dst,
            src,
            line: m.span.line,
        });
    }
    out
}

/// The counted lists of each variant. A prefix list is a choice the generator makes (one
/// list of raw operands, exactly N encoded), so it is warned about once per doc.
fn counted_lists(
    inst: &Instruction,
    fields: &BTreeMap<String, FieldModel>,
    rust_names: &mut Names,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Vec<CountedModel>> {
    let mut warned = false;
    let mut prefix_name: Option<String> = None;
    let mut out = Vec::new();
    for v in &inst.variants {
        let mut lists = Vec::new();
        for c in &v.counted {
            let count = fields.get(&c.count);
            let item = c.fields.first().and_then(|f| fields.get(f));
            let (Some(count), Some(item)) = (count, item) else {
                continue;
            };
            if !matches!(count.ty, FieldType::Int(_)) || matches!(item.ty, FieldType::Rest) {
                diags.push(Diagnostic::new(Code::UncountedList, &inst.source, c.span, format!("`{}` cannot count `{}` (the count is not a plain integer, or the items have no fixed layout); the fields are generated one by one", c.count, c.fields.join(", "))));
                continue;
            }
            let rust_name = match c.kind {
                CountKind::Repeat => item.rust_name.clone(),
                CountKind::Prefix => prefix_name
                    .get_or_insert_with(|| rust_names.claim("params", "params"))
                    .clone(),
            };
            if c.kind == CountKind::Prefix && !warned {
                warned = true;
                let why = match &c.skip_sentence {
                    Some(s) => format!("the doc: \"{s}\""),
                    None => {
                        "the doc does not say whether trailing parameters may be left out".into()
                    }
                };
                diags.push(Diagnostic::new(Code::CountedParameters, &inst.source, c.span, format!("`{}` counts the parameters after it: they are generated as one list `{rust_name}` of which exactly `{}` are encoded, the first ones of each format table ({why})", c.count, c.count)));
            }
            lists.push(CountedModel {
                count: c.count.clone(),
                items: c.fields.clone(),
                kind: c.kind,
                rust_name,
                min: c.min,
                max: c.max,
                range_sentence: c.range_sentence.clone(),
            });
        }
        out.push(lists);
    }
    out
}

/// The `Src types` of the doc's type maps. A map naming a type the data types chapter lacks
/// would make the check guess, so then no map of the doc is checked, with a warning.
fn src_type_maps(a: &mut Analyzer<'_>) -> Vec<TypeMapModel> {
    let inst = a.inst;
    let mut maps = Vec::new();
    for m in &inst.type_maps {
        // A map or list naming no type allows nothing and would make every immediate source
        // invalid: it is read as a glitch, ignored, and reported.
        let empty = if m.types.is_empty() {
            Some("lists no operand types".to_string())
        } else {
            m.types
                .iter()
                .find(|(_, types)| types.is_empty())
                .map(|(group, _)| format!("lists no type under `{}`", group.trim()))
        };
        if let Some(what) = empty {
            a.diags.push(
                Diagnostic::new(
                    Code::EmptyTypeList,
                    &inst.source,
                    m.span,
                    format!("type map {what}; the map is ignored"),
                )
                .expected("`-  **Src types:** UD, D` under the map"),
            );
            continue;
        }
        let Some(types) = m
            .types
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case("src types"))
            .map(|(_, v)| v)
        else {
            continue;
        };
        if let Some(bad) = types.iter().find(|t| !crate::vocab::is_data_type(t)) {
            a.diags.push(Diagnostic::new(
                Code::UnknownMapType,
                &inst.source,
                m.span,
                format!("type map names `{bad}`, which is not a vISA data type; the type maps of this doc are not checked"),
            ));
            return Vec::new();
        }
        let rule = a.rule(&m.platform, m.span);
        maps.push(TypeMapModel {
            rule,
            types: types.clone(),
        });
    }
    maps
}

/// Length of the longest common prefix of the variants' field lists.
fn common_prefix(lists: &[Vec<String>]) -> usize {
    let Some(first) = lists.first() else { return 0 };
    (0..first.len())
        .take_while(|&i| lists.iter().all(|l| l.get(i) == first.get(i)))
        .count()
}

/// Enums identical (same name, repr, variants) in several instructions move to the shared
/// module; when one name has several value sets, the most used one is shared.
fn share_enums(insts: &mut [InstModel]) -> Vec<EnumDef> {
    type Key = (Int, Vec<(String, u64, Option<Rule>)>);
    let mut uses: BTreeMap<String, BTreeMap<Key, usize>> = BTreeMap::new();
    for i in insts.iter() {
        for e in &i.enums {
            *uses
                .entry(e.name.clone())
                .or_default()
                .entry(e.key())
                .or_default() += 1;
        }
    }
    let mut chosen: BTreeMap<String, Key> = BTreeMap::new();
    for (name, sets) in uses {
        // Most uses wins; ties go to the smallest key, deterministically.
        if let Some((key, n)) = sets
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        {
            if n >= 2 {
                chosen.insert(name, key);
            }
        }
    }
    let mut shared: BTreeMap<String, EnumDef> = BTreeMap::new();
    for i in insts.iter_mut() {
        for e in i.enums.iter_mut() {
            if chosen.get(&e.name) == Some(&e.key()) {
                e.shared = true;
                shared.entry(e.name.clone()).or_insert_with(|| e.clone());
            }
        }
    }
    shared.into_values().collect()
}

/// What makes two bit-packed field structs generate identically; `None` when a member's enum
/// is not shared (the shared module could not name it).
fn struct_key(inst: &InstModel, f: &FieldModel) -> Option<String> {
    let FieldType::Bits {
        base,
        name,
        members,
        reserved_mask,
        // Whether the reserved bits are checked is the instruction's rule, not the struct's.
        ..
    } = &f.ty
    else {
        return None;
    };
    let mut key = format!("{name}|{base:?}|{reserved_mask}|{}", f.doc_name);
    for m in members {
        let ty = match m.ty {
            MemberType::Int => "int".to_string(),
            MemberType::Enum(e) => {
                let def = inst.enums.get(e)?;
                if !def.shared {
                    return None;
                }
                format!("enum {}", def.name)
            }
        };
        // Not the summary: it is prose (the shared struct's docs quote the first doc's), and a
        // doc whose summary is reworded must not leave the shared struct (`NAMING.md`).
        key.push_str(&format!(
            "|{}:{}:{}:{:?}:{:?}:{ty}",
            m.name, m.hi, m.lo, m.rule, m.nonzero
        ));
    }
    Some(key)
}

/// Like [`share_enums`], for the structs of bit-packed fields (`Exec_size` is in most docs).
fn share_structs(insts: &mut [InstModel]) -> Vec<(usize, String)> {
    let mut uses: BTreeMap<String, BTreeMap<String, Vec<(usize, String)>>> = BTreeMap::new();
    for (i, inst) in insts.iter().enumerate() {
        for f in inst.fields.values() {
            if let (Some(key), FieldType::Bits { name, .. }) = (struct_key(inst, f), &f.ty) {
                uses.entry(name.clone())
                    .or_default()
                    .entry(key)
                    .or_default()
                    .push((i, f.doc_name.clone()));
            }
        }
    }
    let mut shared = Vec::new();
    for (_, sets) in uses {
        // Most uses wins; ties go to the smallest key, deterministically.
        let Some((_, users)) = sets
            .into_iter()
            .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(&a.0)))
        else {
            continue;
        };
        if users.len() < 2 {
            continue;
        }
        for (i, field) in &users {
            if let Some(f) = insts[*i].fields.get_mut(field) {
                f.shared_struct = true;
            }
        }
        shared.push(users[0].clone());
    }
    shared
}

/// Each instruction's platforms from the chapters' lists ([`crate::schema::Listed`]), by the
/// doc its entry links to (the first entry of a doc counts); the platforms they name join the
/// model's, and an unknown one is reported at the annotation, its entry then naming none.
fn listed_platforms(
    spec: &Spec,
    instructions: &mut [InstModel],
    diags: &mut Vec<Diagnostic>,
    platforms: &mut BTreeSet<String>,
) {
    for entry in &spec.listed {
        let rule = match platform::parse(&entry.annotation) {
            Ok(rule) => rule,
            Err(name) => {
                diags.push(
                    Diagnostic::new(
                        Code::UnknownListedPlatform,
                        &entry.chapter,
                        entry.span,
                        format!(
                            "platform `{name}` of `{{{}}}` in the list entry of {} is unknown; the entry is ignored",
                            entry.annotation, entry.doc
                        ),
                    )
                    .expected(format!("one of {}", platform::KNOWN.join(", "))),
                );
                continue;
            }
        };
        for i in instructions
            .iter_mut()
            .filter(|i| i.source == entry.doc && i.availability.is_none())
        {
            platforms.extend(rule.platforms().into_iter().map(str::to_string));
            let chapter = entry
                .chapter
                .strip_prefix(crate::parse::CHAPTERS_PREFIX)
                .unwrap_or(&entry.chapter);
            i.availability = Some(Availability {
                rule: rule.clone(),
                quote: format!("{{{}}} ({chapter}: {})", entry.annotation, entry.title),
            });
        }
    }
}

/// Every platform rule of `inst` as it holds on the generated `platforms`
/// ([`platform::inherit`]: the generations the docs do not describe follow the newest one they
/// do, unless a rule names them).
fn inherit_rules(inst: &mut InstModel, platforms: &[String]) {
    let each = |r: &mut Option<Rule>| {
        if let Some(rule) = r {
            *rule = platform::inherit(rule, platforms);
        }
    };
    for e in &mut inst.enums {
        for v in &mut e.variants {
            each(&mut v.rule);
        }
    }
    for f in inst.fields.values_mut() {
        if let FieldType::Bits { members, .. } = &mut f.ty {
            for m in members {
                each(&mut m.rule);
            }
        }
    }
    for m in &mut inst.src_type_maps {
        each(&mut m.rule);
    }
    for m in &mut inst.type_maps {
        each(&mut m.rule);
    }
    if let Some(a) = &mut inst.availability {
        a.rule = platform::inherit(&a.rule, platforms);
    }
}

/// The values of `inst` whose platforms share none with the instruction's own (the list of
/// instructions): recorded in [`InstModel::nowhere`] and reported at the value's doc line.
fn values_on_no_platform(
    doc: &Instruction,
    inst: &mut InstModel,
    platforms: &[String],
    diags: &mut Vec<Diagnostic>,
) {
    let Some(a) = &inst.availability else {
        return;
    };
    let exists = |r: &Rule| {
        platforms
            .iter()
            .any(|p| platform::holds_on(r, p) && platform::holds_on(&a.rule, p))
    };
    let mut nowhere = Vec::new();
    for (e, def) in inst.enums.iter().enumerate() {
        for v in &def.variants {
            let Some(rule) = v.rule.as_ref().filter(|r| !exists(r)) else {
                continue;
            };
            nowhere.push((e, v.name.clone()));
            let written = rule.annotation();
            let span = doc
                .fields
                .iter()
                .flat_map(|f| {
                    f.values
                        .iter()
                        .chain(f.bitfields.iter().flat_map(|b| &b.values))
                })
                .find(|x| x.value == v.value && x.platform.as_deref() == Some(written.as_str()))
                .map_or(doc.span, |x| x.span);
            diags.push(
                Diagnostic::new(
                    Code::ValueOnNoPlatform,
                    &inst.source,
                    span,
                    format!(
                        "value `{}` of `{}`, which exists on {}: no platform has both, so the value never validates",
                        v.quote, inst.doc_name, a.quote
                    ),
                )
                .expected("a value on some platform its instruction exists on; settle which is right with Intel's tools and correct the doc with an erratum"),
            );
        }
    }
    inst.nowhere = nowhere;
}

/// Every instruction analysed on its own (`analyze_instruction` reads nothing but its
/// instruction), on every core; the diagnostics and platforms join in instruction order, as a
/// sequential run gives them.
pub fn instructions(insts: &[Instruction], pins: &Pins) -> Instructions {
    let each = |i: &Instruction| {
        let (mut diags, mut platforms) = (Vec::new(), BTreeSet::new());
        let model = analyze_instruction(i, &mut diags, &mut platforms, pins);
        (model, diags, platforms)
    };
    let mut models = Vec::with_capacity(insts.len());
    let (mut diags, mut platforms) = (Vec::new(), BTreeSet::new());
    for (model, mut d, mut p) in insts.par_iter().map(each).collect::<Vec<_>>() {
        models.push(model);
        diags.append(&mut d);
        platforms.append(&mut p);
    }
    (models, diags, platforms)
}

/// What [`instructions`] gives: each instruction's model, their diagnostics in instruction
/// order, and the platforms they name.
pub type Instructions = (Vec<InstModel>, Vec<Diagnostic>, BTreeSet<String>);

/// Checks the schema and builds the model the emitters render: its instructions
/// ([`instructions`]), then what spans them ([`finish`]).
pub fn analyze(spec: &Spec) -> (Model, Vec<Diagnostic>) {
    analyze_pinned(spec, &Pins::default())
}

/// [`analyze`] with names pinned beside the docs (`[[name]]` of `regen.toml`).
pub fn analyze_pinned(spec: &Spec, pins: &Pins) -> (Model, Vec<Diagnostic>) {
    finish(spec, instructions(&spec.instructions, pins))
}

/// The analysis of what spans instructions (names, shared value sets and structs, claimed
/// sub-opcodes, platforms, text forms, object records), from `spec`'s instructions analysed.
pub fn finish(spec: &Spec, analysed: Instructions) -> (Model, Vec<Diagnostic>) {
    let (mut instructions, mut diags, mut platforms) = analysed;
    listed_platforms(spec, &mut instructions, &mut diags, &mut platforms);
    let platforms = platform::generations(platforms);
    for (i, inst) in instructions.iter_mut().enumerate() {
        inherit_rules(inst, &platforms);
        values_on_no_platform(&spec.instructions[i], inst, &platforms, &mut diags);
    }
    // Two docs whose names differ only in case or punctuation would share a Rust name.
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (i, inst) in instructions.iter().enumerate() {
        // Docs of one name are the parser's V0303 already; only distinct names are reported.
        if let Some(other) = seen
            .insert(inst.rust_name.clone(), inst.doc_name.clone())
            .filter(|other| *other != inst.doc_name)
        {
            let span = spec.instructions[i].span;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    &inst.source,
                    span,
                    format!(
                        "`{}` and `{other}` would both be generated as `{}`",
                        inst.doc_name, inst.rust_name
                    ),
                )
                .expected("instruction names that differ in more than case and punctuation"),
            );
        }
    }
    let shared_enums = share_enums(&mut instructions);
    let shared_structs = share_structs(&mut instructions);
    let subs: Vec<(u8, u8, String)> = instructions
        .iter()
        .filter_map(|i| Some((i.opcode, i.sub_opcode?, i.doc_name.clone())))
        .collect();
    for i in instructions.iter_mut().filter(|i| i.sub_opcode.is_none()) {
        i.claimed_subs = subs
            .iter()
            .filter(|s| s.0 == i.opcode)
            .map(|s| (s.1, s.2.clone()))
            .collect();
    }
    name_opcodes(&mut instructions);
    for i in &mut instructions {
        let unknown = i.type_maps.iter().filter_map(|m| m.rule.as_ref()).any(|r| {
            r.platforms()
                .iter()
                .any(|p| !platforms.iter().any(|q| q == p))
        });
        if unknown {
            i.type_maps.clear();
        }
    }
    let text = text::analyze(&spec.instructions, &instructions, &mut diags);
    (
        Model {
            instructions,
            platforms,
            shared_enums,
            shared_structs,
            text,
            object: object::analyze(spec),
            left_out: spec
                .left_out
                .iter()
                .map(|l| LeftOutDoc {
                    doc: l.doc.clone(),
                    opcode: l.opcode,
                    sub_opcode: l.sub_opcode,
                    why: l.why.clone(),
                })
                .collect(),
        },
        diags,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::schema::{BitField, Selector, Variant};
    use crate::testing::span;

    fn value(value: u64, meaning: &str, platform: Option<&str>, line: u32) -> EnumValue {
        EnumValue {
            value,
            meaning: meaning.into(),
            platform: platform.map(str::to_string),
            span: span(line),
        }
    }

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
            span: span(3),
        }
    }

    fn inst(name: &str, opcode: u8, fields: Vec<Field>) -> Instruction {
        let names = fields.iter().map(|f| f.name.clone()).collect();
        let v = Variant {
            condition: None,
            fields: names,
            selectors: vec![],
            optional_fields: vec![],
            counted: vec![],
            span: span(2),
        };
        crate::testing::instruction(name, opcode, fields, vec![v], span(1))
    }

    fn run(insts: Vec<Instruction>) -> (Model, Vec<Diagnostic>) {
        analyze(&Spec {
            instructions: insts,
            ..Spec::default()
        })
    }

    fn codes(d: &[Diagnostic]) -> Vec<&str> {
        d.iter().map(|d| d.code.as_str()).collect()
    }

    /// Instructions analysed on every core give what one after the other gives: the same
    /// models, the diagnostics in instruction order, the platforms of all of them.
    #[test]
    fn parallel_analysis_keeps_the_sequential_order() {
        let insts: Vec<Instruction> = (0..40u8)
            .map(|n| {
                let mut f = field("Mode", "ub");
                let known = platform::KNOWN[usize::from(n) % platform::KNOWN.len()];
                f.values = vec![
                    value(0, "old", Some(&format!("{known}+")), 7),
                    value(1, "new", Some(&format!("NOPE{n}+")), 8),
                ];
                let mut wide = field("Wide", "ub");
                wide.values = vec![value(0x1ff, "too big", None, 9)];
                inst(&format!("X{n}"), n + 1, vec![f, wide])
            })
            .collect();
        let (mut diags, mut platforms) = (Vec::new(), BTreeSet::new());
        let sequential: Vec<InstModel> = insts
            .iter()
            .map(|i| analyze_instruction(i, &mut diags, &mut platforms, &Pins::default()))
            .collect();
        assert!(
            rayon::current_num_threads() > 1 || std::env::var("CI").is_err(),
            "CI has 2 cores"
        );
        let (models, pdiags, pplatforms) = instructions(&insts, &Pins::default());
        assert_eq!(diags.len(), 80);
        assert_eq!(pdiags, diags);
        assert_eq!(pplatforms, platforms);
        assert_eq!(pplatforms.len(), platform::KNOWN.len());
        assert_eq!(format!("{models:?}"), format!("{sequential:?}"));
        // And through `analyze`, whose global steps come after.
        let (model, all) = run(insts);
        assert_eq!(all[..80], diags[..]);
        assert_eq!(model.platforms.len(), platform::KNOWN.len());
    }

    #[test]
    fn unknown_platforms_are_reported_at_the_value() {
        let mut f = field("Mode", "ub");
        f.values = vec![value(0, "old", None, 7), value(1, "new", Some("FOO+"), 8)];
        let (_, d) = run(vec![inst("X", 1, vec![f])]);
        assert_eq!(codes(&d), vec!["V0201"]);
        // A warning that leaves the doc out (`generate` does): see `Degrades::Doc`.
        assert_eq!(d[0].degrades(), crate::diag::Degrades::Doc);
        assert_eq!((d[0].file.as_str(), d[0].line), ("X.md", 8));
        assert!(d[0].message.contains("`FOO`"), "{}", d[0].message);
    }

    #[test]
    fn list_entries_give_instructions_platforms_and_later_generations_inherit() {
        let mut f = field("Mode", "ub");
        f.values = vec![value(0, "old", Some("PVC_XT"), 7), value(1, "new", None, 8)];
        let spec = Spec {
            instructions: vec![
                inst("X", 1, vec![f]),
                inst("Y", 2, vec![field("Mode", "ub")]),
            ],
            listed: vec![crate::schema::Listed {
                chapter: "chapters/6_instructions.md".into(),
                doc: "Y.md".into(),
                title: "Y - why".into(),
                annotation: "XE3P_CRI+".into(),
                span: span(4),
            }],
            ..Spec::default()
        };
        let (m, d) = analyze(&spec);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(m.platforms, vec!["pre-PVC_XT", "PVC_XT", "XE3P_CRI"]);
        let (x, y) = (&m.instructions[0], &m.instructions[1]);
        assert_eq!(x.availability, None);
        let a = y.availability.as_ref().expect("Y is listed");
        assert_eq!(a.quote, "{XE3P_CRI+} (6_instructions.md: Y - why)");
        assert_eq!(a.rule, Rule::Since("XE3P_CRI".into()));
        // X's `{PVC_XT}` value reads as written and holds on XE3P_CRI, which the docs do not
        // describe and which follows PVC_XT.
        let old = &x.enums[0].variants[0];
        assert_eq!(
            old.rule.as_ref().map(Rule::annotation),
            Some("PVC_XT".into())
        );
        assert_eq!(
            old.rule.as_ref().map(Rule::holds),
            Some(&Rule::Any(vec![
                Rule::Only("PVC_XT".into()),
                Rule::Only("XE3P_CRI".into())
            ]))
        );
    }

    #[test]
    fn platforms_are_ordered_by_generation_not_by_doc_order() {
        let mut f = field("Mode", "ub");
        f.values = vec![
            value(0, "a", Some("XEHP+"), 7),
            value(1, "b", Some("pre-ICLLP"), 8),
            value(2, "c", Some("PVC+,-TGLLP"), 9),
        ];
        let (m, d) = run(vec![inst("X", 1, vec![f])]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            m.platforms,
            vec!["pre-ICLLP", "ICLLP", "TGLLP", "XEHP", "PVC"]
        );
    }

    #[test]
    fn unknown_types_hold_the_rest_and_warn() {
        let (m, d) = run(vec![inst(
            "SVM",
            0x4e,
            vec![field("SVM_ID", "ub"), field("Rest", "unknown")],
        )]);
        assert_eq!(codes(&d), vec!["V0207"]);
        assert!(!d[0].is_error());
        assert_eq!(d[0].file, "SVM.md");
        assert_eq!(m.instructions[0].fields["Rest"].ty, FieldType::Rest);
        assert_eq!(
            m.instructions[0].fields["SVM_ID"].ty,
            FieldType::Int(Int::U8)
        );
    }

    #[test]
    fn optional_fields_warn_once_per_doc() {
        let mut a = field("A", "ub");
        a.optional = true;
        let mut b = field("B", "uw");
        b.optional = true;
        let (_, d) = run(vec![inst("X", 1, vec![a, b])]);
        assert_eq!(codes(&d), vec!["V0202"]);
        assert!(d[0].message.contains("`A`, `B`"), "{}", d[0].message);
    }

    #[test]
    fn bit_packed_fields_keep_undocumented_bits_as_reserved() {
        let mut f = field("Channels", "ub");
        f.bitfields = vec![
            BitField {
                hi: 3,
                lo: 0,
                summary: "Channel mask. At least one channel must be enabled".into(),
                values: vec![],
                platform: None,
                span: span(4),
            },
            BitField {
                hi: 6,
                lo: 5,
                summary: "Mode".into(),
                values: vec![value(0, "x", None, 6), value(2, "y", None, 7)],
                platform: Some("TGLLP+".into()),
                span: span(5),
            },
        ];
        let (m, d) = run(vec![inst("X", 1, vec![f])]);
        assert!(d.is_empty(), "{d:?}");
        let FieldType::Bits {
            base,
            members,
            reserved_mask,
            ..
        } = &m.instructions[0].fields["Channels"].ty
        else {
            panic!("not bit-packed");
        };
        // Bits 4 and 7 are undocumented: 0b1001_0000.
        assert_eq!((*base, *reserved_mask), (Int::U8, 0x90));
        assert_eq!(members.len(), 2);
        assert_eq!(
            members[0].nonzero.as_deref(),
            Some("At least one channel must be enabled")
        );
        assert_eq!(members[1].rule, Some(Rule::Since("TGLLP".into())));
        assert!(matches!(members[1].ty, MemberType::Enum(_)));
    }

    #[test]
    fn overlapping_bit_ranges_are_errors() {
        let mut f = field("F", "ub");
        let bit = |hi, lo, line| BitField {
            hi,
            lo,
            summary: format!("bits {hi} {lo}"),
            values: vec![],
            platform: None,
            span: span(line),
        };
        f.bitfields = vec![bit(3, 0, 4), bit(4, 2, 5), bit(9, 8, 6)];
        let (_, d) = run(vec![inst("X", 1, vec![f])]);
        assert_eq!(codes(&d), vec!["V0106", "V0106"]);
        assert_eq!((d[0].line, d[1].line), (5, 6));
    }

    #[test]
    fn predicates_vectors_and_raws_get_runtime_types() {
        let (m, _) = run(vec![inst(
            "X",
            1,
            vec![
                field("Pred", "uw"),
                field("Src", "vec_operand"),
                field("Off", "scalar"),
                field("Dst", "raw_operand"),
                field("Imm", "d"),
            ],
        )]);
        let f = &m.instructions[0].fields;
        assert_eq!(f["Pred"].ty, FieldType::Predicate);
        assert_eq!(f["Src"].ty, FieldType::Vector);
        assert_eq!(f["Off"].ty, FieldType::Vector);
        assert_eq!(f["Dst"].ty, FieldType::Raw);
        assert_eq!(f["Imm"].ty, FieldType::Int(Int::I32));
    }

    #[test]
    fn selectors_must_name_enumerated_values() {
        let mut op = field("Op", "ub");
        op.values = vec![value(0, "load", None, 4), value(1, "store", None, 5)];
        let mut i = inst("X", 1, vec![op, field("A", "ub"), field("B", "uw")]);
        let variant = |cond: &str, val: &str, last: &str| Variant {
            condition: Some(cond.into()),
            fields: vec!["Op".into(), last.into()],
            selectors: vec![Selector {
                field: "Op".into(),
                subfield: None,
                values: vec![val.into()],
                operand_type: false,
            }],
            optional_fields: vec![],
            counted: vec![],
            span: span(9),
        };
        i.variants = vec![
            variant("Op=load", "load", "A"),
            variant("Op=store", "store", "B"),
        ];
        let (m, d) = run(vec![i.clone()]);
        assert!(d.is_empty(), "{d:?}");
        let v = &m.instructions[0].variants;
        assert_eq!(m.instructions[0].prefix, 1);
        assert_eq!(
            (v[0].rust_name.as_str(), v[1].rust_name.as_str()),
            ("Load", "Store")
        );
        assert_eq!(v[1].choices[0].values, vec!["Store"]);
        i.variants[1] = variant("Op=flush", "flush", "B");
        let (_, d) = run(vec![i]);
        assert!(codes(&d).contains(&"V0203"), "{d:?}");
    }

    #[test]
    fn identical_value_sets_are_shared_across_docs() {
        let mask = || {
            let mut f = field("Exec", "ub");
            f.values = vec![value(0, "M1", None, 4), value(1, "M2", None, 5)];
            f
        };
        let mut other = field("Exec", "ub");
        other.values = vec![value(0, "M1", None, 4)];
        let (m, _) = run(vec![
            inst("A", 1, vec![mask()]),
            inst("B", 2, vec![mask()]),
            inst("C", 3, vec![other]),
        ]);
        assert_eq!(m.shared_enums.len(), 1);
        assert_eq!(m.shared_enums[0].name, "Exec");
        let shared: Vec<bool> = m.instructions.iter().map(|i| i.enums[0].shared).collect();
        assert_eq!(shared, vec![true, true, false]);
    }

    #[test]
    fn colliding_rust_names_get_deterministic_suffixes() {
        // Fields: the later of two snake-case twins gets `_2`.
        let mut e = field("Size", "ub");
        // Variants: a meaning seen twice appends the value.
        e.values = vec![
            value(1, "8 elements", None, 4),
            value(3, "8 elements", None, 5),
        ];
        let (m, _) = run(vec![inst(
            "X",
            1,
            vec![field("Src0", "ub"), field("src0", "ub"), e],
        )]);
        let f = &m.instructions[0].fields;
        assert_eq!(
            (f["Src0"].rust_name.as_str(), f["src0"].rust_name.as_str()),
            ("src0", "src0_2")
        );
        let names: Vec<&str> = m.instructions[0].enums[0]
            .variants
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(names, vec!["N8Elements", "N8Elements3"]);
    }

    #[test]
    fn type_maps_give_source_types_per_platform() {
        use crate::schema::TypeMap;
        let map = |platform: Option<&str>, src: &[&str], line| TypeMap {
            platform: platform.map(str::to_string),
            types: [
                ("Dst types".to_string(), vec!["F".to_string()]),
                (
                    "Src types".to_string(),
                    src.iter().map(|t| t.to_string()).collect(),
                ),
            ]
            .into_iter()
            .collect(),
            span: span(line),
        };
        // As ADD.md: `Type map{-XEHP}` F, `Type map{XEHP+}` F, BF.
        let mut i = inst("ADD", 0x01, vec![field("Src0", "vec_operand")]);
        i.type_maps = vec![
            map(None, &["UD", "D"], 20),
            map(Some("XEHP+"), &["F", "BF"], 21),
        ];
        let (m, d) = run(vec![i.clone()]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            m.instructions[0].src_type_maps,
            vec![
                TypeMapModel {
                    rule: None,
                    types: vec!["UD".into(), "D".into()]
                },
                TypeMapModel {
                    rule: Some(Rule::Since("XEHP".into())),
                    types: vec!["F".into(), "BF".into()]
                },
            ]
        );
        assert_eq!(m.platforms, vec!["pre-XEHP", "XEHP"]);
        // A type the data types chapter lacks: no map is checked, and the doc is named.
        i.type_maps.push(map(None, &["INT4"], 22));
        let (m, d) = run(vec![i]);
        assert!(m.instructions[0].src_type_maps.is_empty());
        assert_eq!(codes(&d), vec!["V0214"]);
        assert_eq!((d[0].file.as_str(), d[0].line), ("ADD.md", 22));
    }

    #[test]
    fn identical_bit_packed_structs_are_shared_when_their_enums_are() {
        let exec = |summary: &str| {
            let mut f = field("Exec_size", "ub");
            f.bitfields = vec![BitField {
                hi: 2,
                lo: 0,
                summary: summary.into(),
                values: vec![value(3, "8 elements", None, 5)],
                platform: None,
                span: span(4),
            }];
            f
        };
        // D's summary is B's reworded, naming the member alike: only the prose differs.
        let (m, _) = run(vec![
            inst("A", 1, vec![exec("size")]),
            inst("B", 2, vec![exec("size")]),
            inst("C", 3, vec![exec("other size")]),
            inst("D", 4, vec![exec("size (of the region)")]),
        ]);
        assert_eq!(m.shared_structs, vec![(0, "Exec_size".to_string())]);
        let shared: Vec<bool> = m
            .instructions
            .iter()
            .map(|i| i.fields["Exec_size"].shared_struct)
            .collect();
        // C's member has another name: it keeps its own struct. D's summary is only worded
        // otherwise: it shares the struct.
        assert_eq!(shared, vec![true, true, false, true]);
    }

    #[test]
    fn names_that_collide_in_rust_are_errors() {
        let (_, d) = run(vec![inst("A_B", 1, vec![]), inst("a_b", 2, vec![])]);
        assert_eq!(codes(&d), vec!["V0303"]);
        // The same doc name twice is reported by the parser, not again here.
        let (_, d) = run(vec![inst("AB", 1, vec![]), inst("AB", 2, vec![])]);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn sentences_are_quoted_whole() {
        let t = "The first elements. Must have type UD. Other text";
        assert_eq!(
            sentence(t, "must have").as_deref(),
            Some("Must have type UD.")
        );
        assert_eq!(sentence(t, "absent"), None);
    }

    #[test]
    fn common_prefix_of_variant_fields() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            common_prefix(&[v(&["Op", "Exec", "A"]), v(&["Op", "Exec", "B"])]),
            2
        );
        assert_eq!(common_prefix(&[v(&["Op"])]), 1);
        assert_eq!(common_prefix(&[]), 0);
    }

    #[test]
    fn reprs_are_the_smallest_integer() {
        assert_eq!(repr_for(0xff), Int::U8);
        assert_eq!(repr_for(0x100), Int::U16);
        assert_eq!(repr_for(0x1_0000), Int::U32);
    }
}
