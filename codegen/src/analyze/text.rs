//! Text forms: decides, per instruction with `## Text` templates, how each slot prints, so the
//! text emitter only renders. Every slot is resolved to a field of the generated struct and a
//! kind; what the docs leave open (the text of an enumerated value, which field a `[.16|.64]`
//! choice sets) is decided here by the rules of `codegen/NAMING.md` ("Text spellings"), with
//! warning V0133 where a rule finds nothing.

use super::{FieldType, InstModel};
use crate::diag::{Code, Diagnostic};
use crate::schema::{self, Instruction, Prints, SuffixKind, Syntax};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// The text of one instruction: its forms, tried in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextInst {
    pub forms: Vec<TextForm>,
    /// The Rust field of the destination that carries `.sat`, when the instruction prints it:
    /// its template says `[.sat]`, or its doc lists a `Source Modifier` property (an ALU
    /// opcode, whose saturated destination IGC prints as `.sat`, note §1).
    pub sat: Option<String>,
}

impl TextInst {
    /// No text form: the template cannot be read (`why` names the doc and line). Printing
    /// and parsing the instruction return an error that says so.
    fn unreadable(why: &str) -> TextInst {
        let form = TextForm {
            mnemonic: String::new(),
            predicate: None,
            suffixes: vec![],
            group: vec![],
            group_layout: schema::GroupLayout::default(),
            operands: vec![],
            fixed: vec![],
            implied: vec![],
            unsupported: Some(why.to_string()),
        };
        TextInst {
            forms: vec![form],
            sat: None,
        }
    }
}

/// One template, resolved.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TextForm {
    pub mnemonic: String,
    /// Rust field of the predicate prefix.
    pub predicate: Option<String>,
    /// Glued to the mnemonic, in order. `.sat` is placed where the template puts it, else last.
    pub suffixes: Vec<Piece>,
    /// `(...)` after the mnemonic, comma separated.
    pub group: Vec<TextSlot>,
    /// The group's layout as the template writes it (`vme_ime(0,0)`: glued, `,` alone).
    pub group_layout: schema::GroupLayout,
    pub operands: Vec<TextSlot>,
    /// Bits this form fixes: (Rust field, bit position, mask, value), from `selected_by` and
    /// from an optional word joined to the mnemonic (`_eot`: present or not).
    pub fixed: Vec<(String, u8, u64, u64)>,
    /// Fields the form does not print whose value the text implies: (Rust field, value). An
    /// exec size no slot prints is 1 with NoMask (0x80): IGC's parser builds `lsc_fence`, the
    /// only such template, with that exec size, and its compiler writes it (`intel-isa asm` and
    /// `intel-isa ocl` on PVC both give `8b 80 ...`).
    pub implied: Vec<(String, u64)>,
    /// Why the form cannot print, when one of its slots has no text rule.
    pub unsupported: Option<String>,
}

/// The group's layout shows only when it is not the usual one, so the text hash of the API
/// snapshot (this Debug print) is the same as before it existed for every other form.
impl std::fmt::Debug for TextForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("TextForm");
        d.field("mnemonic", &self.mnemonic)
            .field("predicate", &self.predicate)
            .field("suffixes", &self.suffixes)
            .field("group", &self.group);
        if !self.group_layout.is_default() {
            d.field("group_layout", &self.group_layout);
        }
        d.field("operands", &self.operands)
            .field("fixed", &self.fixed)
            .field("implied", &self.implied)
            .field("unsupported", &self.unsupported)
            .finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Sat,
    /// A fixed word; `optional` ones set `bit` of a field when present.
    Literal {
        text: String,
        optional: bool,
        bit: Option<(String, u8)>,
    },
    /// `.prefix<slot>`.
    Slot {
        prefix: String,
        slot: TextSlot,
    },
}

/// A slot: the Rust field it prints, the bits it covers, and how.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TextSlot {
    pub field: String,
    pub lo: u8,
    pub mask: u64,
    pub kind: SlotKind,
    /// A `[.16|.64]` style choice that sets other bits of the same value: printed only when
    /// those bits are not the default.
    pub optional: bool,
    /// An operand's spaces before it beyond the one separator (the template's layout).
    pub extra_spaces: u8,
    /// An operand number written `0x<name>`: Intel's `0x` and hexadecimal digits.
    pub zero_x: bool,
    /// Printed right after the previous operand behind this text instead of a space
    /// (`<dst>/<dstLen>`).
    pub glued: Option<String>,
    /// Hexadecimal digits in upper case (the template's comment says so).
    pub upper_hex: bool,
}

/// The layout fields show only when set, so the text hash of the API snapshot (its Debug
/// print) is the same as before they existed for every slot that does not use them.
impl std::fmt::Debug for TextSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("TextSlot");
        d.field("field", &self.field)
            .field("lo", &self.lo)
            .field("mask", &self.mask)
            .field("kind", &self.kind)
            .field("optional", &self.optional);
        if self.extra_spaces != 0 {
            d.field("extra_spaces", &self.extra_spaces);
        }
        if self.zero_x {
            d.field("zero_x", &self.zero_x);
        }
        if let Some(g) = &self.glued {
            d.field("glued", g);
        }
        if self.upper_hex {
            d.field("upper_hex", &self.upper_hex);
        }
        d.finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SlotKind {
    ExecSize,
    /// An exec size whose low bits are an element count of the doc's own encoding, not the
    /// exec-size encoding (SCATTER's and GATHER's `Num_elts`: 0b00 8, 0b01 16, 0b10 1): prints
    /// `(<mask of bits 7..4>, <count>)` as IGC does (`printExecutionSizeForScatterGather`).
    /// `counts` are (value of bits `hi..0`, elements).
    ElementCount {
        hi: u8,
        counts: Vec<(u64, u64)>,
    },
    Vector,
    Raw,
    Surface,
    Sampler,
    Label,
    Channels,
    /// A `vec_operand` source of class `general` of an instruction whose destination is a raw
    /// operand (DPAS's Src2):
    /// IGC prints a general operand there without its region and reads it as `<1;1,0>`
    /// (`runtime::text::special::regionless`).
    Regionless,
    /// ADDR_ADD's src0: a general operand prints as its address `&V` (the source of an
    /// instruction whose destination's only operand class is `address`).
    AddressOf,
    /// A string of the routine's string pool named by index (FCALL's callee, FILE's name);
    /// `quoted` for debug directives (upper-case mnemonic), whose string IGC always quotes.
    Symbol {
        quoted: bool,
    },
    /// A number; hexadecimal digits when the template writes the prefix `x` (`.x<ctrl>`).
    Number {
        hex: bool,
    },
    /// Enumerated values and their text; `default` is the value printed as nothing (a choice).
    Name {
        spellings: Vec<(u64, String)>,
        default: Option<u64>,
    },
}

/// Text forms of every instruction with templates, by doc name. Each instruction's forms are
/// resolved on their own, on every core; the diagnostics join in instruction order.
pub fn analyze(
    spec: &[Instruction],
    insts: &[InstModel],
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, TextInst> {
    let pairs: Vec<(&Instruction, &InstModel)> = spec.iter().zip(insts).collect();
    let each = |&(doc, inst): &(&Instruction, &InstModel)| {
        let mut found = Vec::new();
        let text = one(doc, inst, &mut found);
        (text, found)
    };
    let mut out = BTreeMap::new();
    for ((doc, _), (text, mut found)) in pairs
        .iter()
        .zip(pairs.par_iter().map(each).collect::<Vec<_>>())
    {
        diags.append(&mut found);
        if let Some(text) = text {
            out.insert(doc.name.clone(), text);
        }
    }
    out
}

/// The text forms of one instruction; `None` when it has no templates.
fn one(doc: &Instruction, inst: &InstModel, diags: &mut Vec<Diagnostic>) -> Option<TextInst> {
    let forms = match &doc.syntax {
        Some(Syntax::Templates { forms }) => forms,
        Some(Syntax::Unreadable { why }) => return Some(TextInst::unreadable(why)),
        _ => return None,
    };
    let sat = sat_field(doc, inst, forms);
    let mut resolved = Vec::new();
    for f in forms {
        match joined(f) {
            // `raw_sends[_eot]`: two forms, the mnemonic without the word and with it, each
            // fixing the one bit the word names (`Bit[1]: whether EOT is set`) to 0 and to 1.
            Some(text) => {
                for present in [false, true] {
                    resolved.push(resolve_form(
                        doc,
                        inst,
                        f,
                        sat.is_some(),
                        Some((text, present)),
                        diags,
                    ));
                }
            }
            None => resolved.push(resolve_form(doc, inst, f, sat.is_some(), None, diags)),
        }
    }
    Some(TextInst {
        forms: resolved,
        sat,
    })
}

/// The word of a form's optional suffix joined to the mnemonic without a dot (`[_eot]`).
fn joined(f: &schema::SyntaxForm) -> Option<&str> {
    f.suffixes.iter().find_map(|s| match &s.kind {
        SuffixKind::Joined { text } if s.optional => Some(text.as_str()),
        _ => None,
    })
}

fn sat_field(doc: &Instruction, inst: &InstModel, forms: &[schema::SyntaxForm]) -> Option<String> {
    let marked = forms.iter().any(|f| {
        f.suffixes
            .iter()
            .any(|s| matches!(s.kind, SuffixKind::Saturate))
    });
    if !marked && !doc.properties.contains_key("Source Modifier") {
        return None;
    }
    let dst = inst.fields.get("Dst")?;
    (dst.ty == FieldType::Vector).then(|| dst.rust_name.clone())
}

/// The text of an enumerated value, from its meaning (NAMING.md, "Text spellings"): the first
/// word, quotes and trailing punctuation removed; a leading number (`2 blocks`, `16-bit`)
/// gives the number; an identifier (`add`, `EQ - equal to`) gives it in lower case.
pub fn spelling(meaning: &str) -> Option<String> {
    let word = meaning.split_whitespace().next()?;
    let word = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '.' | ',' | ':' | ';'));
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        let rest = &word[digits.len()..];
        return (rest.is_empty() || rest.starts_with('-')).then_some(digits);
    }
    let mut chars = word.chars();
    let first = chars.next()?;
    let ident = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then(|| word.to_ascii_lowercase())
}

/// A field's bit ranges with enumerated values (the whole field when it has no ranges).
fn ranges(field: &schema::Field) -> Vec<(u8, u8, &[schema::EnumValue], &str)> {
    if field.bitfields.is_empty() {
        return vec![(0, 0, field.values.as_slice(), field.description.as_str())];
    }
    field
        .bitfields
        .iter()
        .map(|b| (b.hi, b.lo, b.values.as_slice(), b.summary.as_str()))
        .collect()
}

fn mask_of(hi: u8, lo: u8, whole: bool) -> u64 {
    if whole {
        return u64::MAX;
    }
    let width = u32::from(hi.saturating_sub(lo)) + 1;
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

fn spellings_of(
    doc: &Instruction,
    values: &[schema::EnumValue],
    span: schema::Span,
    field: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for v in values {
        match spelling(&v.meaning) {
            Some(s) if seen.insert(s.clone()) => out.push((v.value, s)),
            found => diags.push(
                Diagnostic::new(
                    Code::NoSpelling,
                    &doc.source,
                    v.span,
                    format!(
                        "value {:#x} of `{field}` (`{}`) has no text spelling{}",
                        v.value,
                        v.meaning,
                        if found.is_some() {
                            ": another value has the same first word"
                        } else {
                            ""
                        }
                    ),
                )
                .expected("a meaning whose first word is a number or an identifier"),
            ),
        }
    }
    let _ = span;
    out
}

/// The spellings a template comment lists for slot `s` (`<x> is one of "a", "b"`), paired
/// with the values in the doc's order; `None` without such a comment, or (warning V0133) when
/// the comment lists another number of words than the range has values.
fn commented_spellings(
    doc: &Instruction,
    s: &schema::Slot,
    values: &[schema::EnumValue],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(u64, String)>> {
    if s.spellings.is_empty() {
        return None;
    }
    if s.spellings.len() != values.len() {
        diags.push(
            Diagnostic::new(
                Code::NoSpelling,
                &doc.source,
                s.span,
                format!(
                    "the template's comment spells {} values of `<{}>`, its field lists {}; the doc's meanings spell them instead",
                    s.spellings.len(),
                    s.name,
                    values.len()
                ),
            )
            .expected("one quoted word per value, in the doc's order"),
        );
        return None;
    }
    Some(
        values
            .iter()
            .zip(&s.spellings)
            .map(|(v, w)| (v.value, w.clone()))
            .collect(),
    )
}

/// Warning V0133: a comment spells the values of a slot that prints no value names.
fn unused_spellings(doc: &Instruction, s: &schema::Slot, diags: &mut Vec<Diagnostic>) {
    diags.push(
        Diagnostic::new(
            Code::NoSpelling,
            &doc.source,
            s.span,
            format!(
                "the template's comment spells the values of `<{}>`, which prints {:?}, not value names; the spellings are not used",
                s.name, s.prints
            ),
        )
        .expected("`<slot> is one of \"a\", ...` for a slot of enumerated values"),
    );
}

struct Ctx<'a> {
    doc: &'a Instruction,
    inst: &'a InstModel,
    unsupported: Option<String>,
    /// (field, lo) ranges already printed by a slot.
    used: BTreeSet<(String, u8)>,
    /// The form's mnemonic keeps its upper case: a debug directive (FILE, LOC).
    directive: bool,
}

impl Ctx<'_> {
    fn fail(&mut self, why: String) {
        if self.unsupported.is_none() {
            self.unsupported = Some(why);
        }
    }

    fn slot(&mut self, s: &schema::Slot, diags: &mut Vec<Diagnostic>) -> Option<TextSlot> {
        if s.list {
            self.fail(format!(
                "slot ({}0, ...) prints a counted list: no text rule yet",
                s.name
            ));
            return None;
        }
        let Some(name) = &s.field else {
            self.fail(format!("slot <{}> names no field", s.name));
            return None;
        };
        let Some(fm) = self.inst.fields.get(name) else {
            self.fail(format!("field {name} is not generated"));
            return None;
        };
        let field = fm.rust_name.clone();
        let scalar = matches!(
            fm.ty,
            FieldType::Int(_) | FieldType::Enum(..) | FieldType::Bits { .. }
        );
        let simple = |kind| TextSlot {
            field: field.clone(),
            lo: 0,
            mask: u64::MAX,
            kind,
            optional: false,
            extra_spaces: 0,
            zero_x: false,
            glued: None,
            upper_hex: false,
        };
        if !s.spellings.is_empty() && s.prints != Prints::Name {
            unused_spellings(self.doc, s, diags);
        }
        if let Some(m) = s.member {
            return self.member_slot(s, m, name, field, scalar, diags);
        }
        let kind = match (s.prints, &fm.ty) {
            (Prints::Vector, FieldType::Vector) if self.address_of(name) => SlotKind::AddressOf,
            (Prints::Vector, FieldType::Vector) if self.regionless(name) => SlotKind::Regionless,
            (Prints::Vector, FieldType::Vector) => SlotKind::Vector,
            (Prints::Raw, FieldType::Raw) => SlotKind::Raw,
            (Prints::ExecSize, _) if scalar => match self.element_count(name) {
                Some(kind) => {
                    self.used.insert((field.clone(), 0));
                    return Some(TextSlot {
                        mask: 0xf0 | ((1u64 << (element_count_hi(&kind) + 1)) - 1),
                        ..simple(kind)
                    });
                }
                None => SlotKind::ExecSize,
            },
            (Prints::Surface, _) if scalar => SlotKind::Surface,
            (Prints::Sampler, _) if scalar => SlotKind::Sampler,
            (Prints::Label, _) if scalar => SlotKind::Label,
            (Prints::Number, _) if scalar => SlotKind::Number { hex: false },
            (Prints::Symbol, _) if scalar => SlotKind::Symbol {
                quoted: self.directive,
            },
            (Prints::Channels, _) if scalar => {
                return Some(TextSlot {
                    mask: 0xf,
                    ..simple(SlotKind::Channels)
                })
            }
            (Prints::Name, _) if scalar => return self.name_slot(s, name, field, diags),
            (p, _) => {
                self.fail(format!(
                    "slot <{}> prints {p:?}, which has no text rule",
                    s.name
                ));
                return None;
            }
        };
        self.used.insert((field.clone(), 0));
        Some(simple(kind))
    }

    /// An exec-size field whose low range enumerates element counts other than the exec-size
    /// encoding's (value v is 2^v elements): the text prints the count.
    fn element_count(&self, doc_field: &str) -> Option<SlotKind> {
        let f = self.doc.fields.iter().find(|f| f.name == doc_field)?;
        let b = f
            .bitfields
            .iter()
            .find(|b| b.lo == 0 && !b.values.is_empty())?;
        if b.hi >= 4 {
            return None;
        }
        let counts: Vec<(u64, u64)> = b
            .values
            .iter()
            .map(|v| Some((v.value, spelling(&v.meaning)?.parse().ok()?)))
            .collect::<Option<_>>()?;
        let standard = counts.iter().all(|(v, n)| *v < 6 && *n == 1u64 << v);
        (!standard).then_some(SlotKind::ElementCount { hi: b.hi, counts })
    }

    /// A `vec_operand` of class `general` only, in an instruction whose `Dst` and `Src0` are
    /// raw operands (DPAS's Src2; the `scalar` offsets of OWORD_LD and the like print regions,
    /// and so do the general sources of an instruction whose Src0 is a vector, SHFL_IDX4's).
    fn regionless(&self, field: &str) -> bool {
        let general_vector = self
            .doc
            .fields
            .iter()
            .any(|f| f.name == field && f.ty == "vec_operand")
            && self
                .inst
                .fields
                .get(field)
                .is_some_and(|f| f.classes == ["general"]);
        let raw = |name: &str| {
            self.inst
                .fields
                .get(name)
                .is_some_and(|d| d.ty == FieldType::Raw)
        };
        general_vector && raw("Dst") && raw("Src0")
    }

    /// `Src0` of an instruction whose `Dst` is only of class `address` (ADDR_ADD).
    fn address_of(&self, field: &str) -> bool {
        field == "Src0"
            && self
                .inst
                .fields
                .get("Dst")
                .is_some_and(|d| d.classes == ["address"])
    }

    /// A slot naming a member of a bit-packed field (`Channel_mask` bits 5..4): its bits only,
    /// printed as the member's kind says.
    fn member_slot(
        &mut self,
        s: &schema::Slot,
        m: schema::Member,
        doc_field: &str,
        field: String,
        scalar: bool,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<TextSlot> {
        let mask = mask_of(m.hi, m.lo, false);
        let kind = match s.prints {
            Prints::Name if scalar => return self.name_slot(s, doc_field, field, diags),
            // Channel letters spell four bits, R to A.
            Prints::Channels if scalar && mask <= 0xf => SlotKind::Channels,
            Prints::Number if scalar => SlotKind::Number { hex: false },
            p => {
                self.fail(format!(
                    "slot <{}> names bits {}..{} of {doc_field}, which print {p:?}: no text rule",
                    s.name, m.hi, m.lo
                ));
                return None;
            }
        };
        self.used.insert((field.clone(), m.lo));
        Some(TextSlot {
            field,
            lo: m.lo,
            mask,
            kind,
            optional: false,
            extra_spaces: 0,
            zero_x: false,
            glued: None,
            upper_hex: false,
        })
    }

    /// The range a name slot prints: the member it names, else the first range of the field
    /// with enumerated values not printed yet. Its spellings: the template comment's, else the
    /// doc's meanings (NAMING.md, "Text spellings").
    fn name_slot(
        &mut self,
        s: &schema::Slot,
        doc_field: &str,
        field: String,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<TextSlot> {
        let f = self.doc.fields.iter().find(|f| f.name == doc_field)?;
        let whole = f.bitfields.is_empty();
        let found = ranges(f).into_iter().find(|(_, lo, values, _)| {
            let free = !self.used.contains(&(field.clone(), *lo));
            !values.is_empty() && s.member.map_or(free, |m| m.lo == *lo)
        });
        let Some((hi, lo, values, _)) = found else {
            self.fail(format!("field {doc_field} lists no values to name"));
            return None;
        };
        self.used.insert((field.clone(), lo));
        let spellings = match commented_spellings(self.doc, s, values, diags) {
            Some(listed) => listed,
            None => spellings_of(self.doc, values, f.span, doc_field, diags),
        };
        Some(TextSlot {
            field,
            lo,
            mask: mask_of(hi, lo, whole),
            kind: SlotKind::Name {
                spellings,
                default: None,
            },
            optional: false,
            extra_spaces: 0,
            zero_x: false,
            glued: None,
            upper_hex: false,
        })
    }

    /// `[.16|.64]`: a range of some field whose spellings hold every option and one value more
    /// (the default, printed as nothing).
    fn choice(&mut self, options: &[String], diags: &mut Vec<Diagnostic>) -> Option<TextSlot> {
        for f in &self.doc.fields {
            let Some(fm) = self.inst.fields.get(&f.name) else {
                continue;
            };
            let whole = f.bitfields.is_empty();
            for (hi, lo, values, _) in ranges(f) {
                if values.len() != options.len() + 1
                    || self.used.contains(&(fm.rust_name.clone(), lo))
                {
                    continue;
                }
                let spelled: Vec<(u64, Option<String>)> = values
                    .iter()
                    .map(|v| (v.value, spelling(&v.meaning)))
                    .collect();
                let all = options
                    .iter()
                    .all(|o| spelled.iter().any(|(_, s)| s.as_deref() == Some(o)));
                let rest: Vec<u64> = spelled
                    .iter()
                    .filter(|(_, s)| !s.as_ref().is_some_and(|s| options.contains(s)))
                    .map(|(v, _)| *v)
                    .collect();
                if all && rest.len() == 1 {
                    self.used.insert((fm.rust_name.clone(), lo));
                    let spellings = spellings_of(self.doc, values, f.span, &f.name, diags)
                        .into_iter()
                        .filter(|(_, s)| options.contains(s))
                        .collect();
                    return Some(TextSlot {
                        field: fm.rust_name.clone(),
                        lo,
                        mask: mask_of(hi, lo, whole),
                        kind: SlotKind::Name {
                            spellings,
                            default: Some(rest[0]),
                        },
                        optional: true,
                        extra_spaces: 0,
                        zero_x: false,
                        glued: None,
                        upper_hex: false,
                    });
                }
            }
        }
        None
    }

    /// An optional word joined to the mnemonic (`_eot`): the one-bit range whose summary
    /// names the word (`Bit[1]: Determines whether EOT is set or not`), case ignored.
    fn joined_bit(&mut self, text: &str) -> Option<(String, u8)> {
        let word = text.trim_start_matches('_').to_ascii_lowercase();
        if word.is_empty() {
            return None;
        }
        let mut found = None;
        for f in &self.doc.fields {
            let Some(fm) = self.inst.fields.get(&f.name) else {
                continue;
            };
            for b in f.bitfields.iter().filter(|b| b.hi == b.lo) {
                let s = b.summary.to_ascii_lowercase();
                let names = s
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .any(|w| w == word);
                if names {
                    if found.is_some() {
                        return None; // two ranges name it: which one is not certain
                    }
                    found = Some((fm.rust_name.clone(), b.lo));
                }
            }
        }
        if let Some(f) = &found {
            self.used.insert(f.clone());
        }
        found
    }

    /// An optional `.16`: the one-bit range whose summary says `16bit` or `16-bit`.
    fn literal_bit(&mut self, text: &str) -> Option<(String, u8)> {
        for f in &self.doc.fields {
            let fm = self.inst.fields.get(&f.name)?;
            for b in &f.bitfields {
                let s = b.summary.to_ascii_lowercase();
                if b.hi == b.lo
                    && (s.contains(&format!("{text}bit")) || s.contains(&format!("{text}-bit")))
                {
                    self.used.insert((fm.rust_name.clone(), b.lo));
                    return Some((fm.rust_name.clone(), b.lo));
                }
            }
        }
        None
    }
}

/// One template resolved: the selector's fixed bits, the predicate, the pieces glued to the
/// mnemonic, then the group and operands (in this order, so a name slot takes the first range
/// no earlier slot printed).
fn resolve_form(
    doc: &Instruction,
    inst: &InstModel,
    f: &schema::SyntaxForm,
    sat: bool,
    joined: Option<(&str, bool)>,
    diags: &mut Vec<Diagnostic>,
) -> TextForm {
    let mut cx = Ctx {
        doc,
        inst,
        unsupported: None,
        used: BTreeSet::new(),
        directive: f.mnemonic != f.mnemonic.to_ascii_lowercase(),
    };
    let mut fixed = cx.selector(f);
    let mut mnemonic = f.mnemonic.clone();
    if let Some((text, present)) = joined {
        match cx.joined_bit(text) {
            Some((field, lo)) => fixed.push((field, lo, 1, u64::from(present))),
            None => cx.fail(format!(
                "`{text}` joined to the mnemonic: no one-bit range's summary names `{}`",
                text.trim_start_matches('_')
            )),
        }
        if present {
            mnemonic.push_str(text);
        }
    }
    let predicate = f.predicate.as_ref().and_then(|p| {
        let fm = inst.fields.get(p.field.as_ref()?)?;
        (fm.ty == FieldType::Predicate).then(|| fm.rust_name.clone())
    });
    if f.predicate.is_some() && predicate.is_none() {
        cx.fail("the predicate slot names no Pred field".into());
    }
    let mut suffixes: Vec<Piece> = f
        .suffixes
        .iter()
        .filter_map(|s| cx.suffix(s, diags))
        .collect();
    if sat && !suffixes.contains(&Piece::Sat) {
        suffixes.push(Piece::Sat);
    }
    let group = f.group.iter().filter_map(|s| cx.slot(s, diags)).collect();
    let operands = f
        .operands
        .iter()
        .filter_map(|s| {
            let mut t = cx.slot(s, diags)?;
            t.extra_spaces = s.extra_spaces;
            t.glued = s.glued.clone();
            if s.hex {
                match &mut t.kind {
                    SlotKind::Number { hex } => {
                        *hex = true;
                        t.zero_x = true;
                        t.upper_hex = s.upper_hex;
                    }
                    _ => cx.fail(format!("`0x<{}>` prints no number", s.name)),
                }
            }
            Some(t)
        })
        .collect();
    let implied = implied_exec_size(doc, inst, &cx.used);
    TextForm {
        mnemonic,
        predicate,
        suffixes,
        group,
        group_layout: f.group_layout.clone(),
        operands,
        fixed,
        implied,
        unsupported: cx.unsupported,
    }
}

impl Ctx<'_> {
    /// The bits the form's selector fixes: (Rust field, bit position, mask, value).
    fn selector(&mut self, f: &schema::SyntaxForm) -> Vec<(String, u8, u64, u64)> {
        let (doc, inst) = (self.doc, self.inst);
        let mut fixed = Vec::new();
        if let Some(sel) = &f.selected_by {
            let field = doc.fields.iter().find(|x| x.name == sel.field);
            let range = field.and_then(|x| {
                ranges(x)
                    .into_iter()
                    .find(|(_, _, vals, _)| vals.iter().any(|v| v.value == sel.value))
                    .map(|(hi, lo, _, _)| (hi, lo, x.bitfields.is_empty()))
            });
            match (inst.fields.get(&sel.field), range) {
                (Some(fm), Some((hi, lo, whole))) => {
                    self.used.insert((fm.rust_name.clone(), lo));
                    fixed.push((fm.rust_name.clone(), lo, mask_of(hi, lo, whole), sel.value));
                }
                _ => self.fail(format!("selector field {} not found", sel.field)),
            }
        }
        fixed
    }

    /// A piece glued to the mnemonic, resolved; `None` when it prints nothing (the form then
    /// says why it cannot print).
    fn suffix(&mut self, s: &schema::Suffix, diags: &mut Vec<Diagnostic>) -> Option<Piece> {
        let slot_piece = |prefix: &str, slot| Piece::Slot {
            prefix: prefix.to_string(),
            slot,
        };
        match &s.kind {
            SuffixKind::Saturate => Some(Piece::Sat),
            SuffixKind::Literal { text } => {
                let bit = if s.optional {
                    self.literal_bit(text)
                } else {
                    None
                };
                // `[.aligned]` naming one value of a two-valued range: a choice whose other
                // value is the default, printed as nothing.
                if s.optional && bit.is_none() {
                    if let Some(slot) = self.choice(std::slice::from_ref(text), diags) {
                        return Some(slot_piece("", slot));
                    }
                    self.fail(format!("optional `.{text}` sets no field"));
                }
                Some(Piece::Literal {
                    text: text.clone(),
                    optional: s.optional,
                    bit,
                })
            }
            SuffixKind::Choice { options } => {
                let slot = self.choice(options, diags);
                if slot.is_none() {
                    self.fail(format!("choice .{} sets no field", options.join("|")));
                }
                slot.map(|slot| slot_piece("", slot))
            }
            SuffixKind::Slot { prefix, slot } => {
                let mut t = self.slot(slot, diags)?;
                // `.x<ctrl>` (BFN) and `.0x<sfid>` (RAW_SENDG): hexadecimal digits.
                if prefix == "x" || prefix == "0x" {
                    if let SlotKind::Number { hex } = &mut t.kind {
                        *hex = true;
                        t.upper_hex = slot.upper_hex;
                    }
                }
                Some(slot_piece(prefix, t))
            }
            // An optional one is two forms (`one`); a required one is part of the mnemonic.
            SuffixKind::Joined { .. } if s.optional => None,
            SuffixKind::Joined { text } => {
                self.fail(format!(
                    "`{text}` joined to the mnemonic: no text rule sets it"
                ));
                None
            }
            SuffixKind::Flags { .. } => {
                self.fail("flag letters: a hand-written formatter prints them".into());
                None
            }
        }
    }
}

fn element_count_hi(kind: &SlotKind) -> u8 {
    match kind {
        SlotKind::ElementCount { hi, .. } => *hi,
        _ => 0,
    }
}

/// An exec-size field (`Exec_size`, `ExecSize`) no slot prints: 1 element, NoMask.
fn implied_exec_size(
    doc: &Instruction,
    inst: &InstModel,
    used: &BTreeSet<(String, u8)>,
) -> Vec<(String, u64)> {
    doc.fields
        .iter()
        .filter(|f| f.name.replace('_', "").eq_ignore_ascii_case("execsize"))
        .filter_map(|f| inst.fields.get(&f.name))
        .filter(|fm| !used.iter().any(|(u, _)| *u == fm.rust_name))
        .map(|fm| (fm.rust_name.clone(), 0x80))
        .collect()
}

#[cfg(test)]
mod tests {
    /// Text forms resolved on every core give what one instruction after the other gives,
    /// the diagnostics in instruction order: on the whole current family (`../shared`), whose
    /// templates raise warnings in several docs.
    #[test]
    fn parallel_text_analysis_keeps_the_sequential_order() {
        let Some(dir) = crate::testing::current_family() else {
            return;
        };
        let files = crate::parse::load_dir(&dir).expect("the family's docs read");
        let spec = crate::parse::parse_spec(&files).spec;
        let (model, _) = crate::analyze::analyze(&spec);
        let mut diags = Vec::new();
        let text = super::analyze(&spec.instructions, &model.instructions, &mut diags);
        let (mut one_by_one, mut sequential) = (std::collections::BTreeMap::new(), Vec::new());
        for (doc, inst) in spec.instructions.iter().zip(&model.instructions) {
            if let Some(t) = super::one(doc, inst, &mut sequential) {
                one_by_one.insert(doc.name.clone(), t);
            }
        }
        assert!(sequential.len() > 1 && text.len() > 50, "{sequential:?}");
        assert_eq!(diags, sequential);
        assert_eq!(format!("{text:?}"), format!("{one_by_one:?}"));
    }

    use super::spelling;

    #[test]
    fn spellings_follow_the_first_word_of_the_meaning() {
        for (meaning, text) in [
            ("2 blocks", Some("2")),
            ("8 blocks. It is only valid for 64-bit", Some("8")),
            ("16-bit", Some("16")),
            ("EQ - equal to", Some("eq")),
            ("minsint", Some("minsint")),
            ("\"16-bit full\". Two bytes", Some("16")),
            ("", None),
            ("(reserved)", None),
            ("4x4", None),
        ] {
            assert_eq!(spelling(meaning).as_deref(), text, "{meaning}");
        }
    }
}

#[cfg(test)]
mod form_tests {
    use super::{Piece, SlotKind};
    use crate::parse::{parse_spec, SourceFile};

    /// SVM_BLOCK_ST as errata correct it (`errata/SVM_BLOCK_ST-*.patch`), and a
    /// call naming a string of the pool (FCALL's template comment).
    const DOCS: [(&str, &str); 2] = [
        (
            "SVM_BLOCK_ST",
            "## Opcode\n\n  SVM = 0x4e\n  BLOCK_ST = 0x02\n\n## Format\n\n| | | | |\n| --- | --- | --- | --- |\n| 0x4e(SVM) | 0x02(BLOCK_ST) | Properties | Src |\n\n## Description\n\n- **Properties(ub):**\n\n  - Bit[2..0]: encodes the number of owords\n\n    - 0b000:  1 oword\n    - 0b001:  2 oword\n\n  - Bit[7]: the unaligned flag.\n\n    - 0b0:  aligned\n    - 0b1:  unaligned\n\n- **Src(raw_operand):** The values to be written\n\n## Text\n```\n    SVM_BLOCK_ST[.aligned] (<Properties>) <src>\n```\n",
        ),
        (
            "FCALL",
            "## Opcode\n\n  FCALL = 0x67\n\n## Format\n\n| | | |\n| --- | --- | --- |\n| 0x67(FCALL) | Func_id | Arg_size |\n\n## Description\n\n- **Func_id(uw):** Id of the function name string\n\n- **Arg_size(ub):** Argument size\n\n## Text\n```\n    FCALL <func_name> <arg_size> // <func_name> = string_pool[<func_id>]\n```\n",
        ),
    ];

    #[test]
    fn an_optional_literal_naming_a_value_is_a_choice_and_pool_strings_are_symbols() {
        let files: Vec<SourceFile> = DOCS
            .iter()
            .map(|(n, t)| SourceFile {
                name: format!("{n}.md"),
                bytes: t.as_bytes().to_vec(),
            })
            .collect();
        let parsed = parse_spec(&files);
        let (model, mut diags) = crate::analyze::analyze(&parsed.spec);
        diags.extend(parsed.diagnostics);
        let st = &model.text["SVM_BLOCK_ST"].forms[0];
        assert_eq!(st.unsupported, None, "{diags:?}");
        let Some(Piece::Slot { slot, .. }) = st.suffixes.first() else {
            panic!("`.aligned` resolves to a slot: {:?}", st.suffixes)
        };
        assert_eq!((slot.lo, slot.mask, slot.optional), (7, 1, true));
        assert_eq!(
            slot.kind,
            SlotKind::Name {
                spellings: vec![(0, "aligned".into())],
                default: Some(1),
            }
        );
        let size = &st.group[0];
        assert_eq!((size.lo, size.mask), (0, 7));
        assert!(
            matches!(&size.kind, SlotKind::Name { spellings, .. } if spellings[1] == (1, "2".into()))
        );
        let call = &model.text["FCALL"].forms[0];
        assert_eq!(call.operands[0].kind, SlotKind::Symbol { quoted: false });
    }
}
