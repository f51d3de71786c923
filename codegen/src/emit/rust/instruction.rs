//! One instruction's module: its enums, bit-packed field structs, variant structs, and the
//! struct (or enum of variants) with encode, decode and validate.

use super::counted;
use super::top::{rule_check, rule_fails};
use super::{
    and_mask, doc_code, doc_text, docs, enum_tokens, extract, hex, ident, idents_in, int_ty, not,
    param, shl, unparen, use_only,
};
use crate::analyze::{
    FieldModel, FieldType, InstModel, Member, MemberType, Model, Slot, VariantModel,
};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// The Rust type of a field.
pub fn field_type(inst: &InstModel, f: &FieldModel) -> TokenStream {
    match &f.ty {
        FieldType::Int(i) => int_ty(*i),
        FieldType::Enum(_, e) => {
            let n = ident(&inst.enums[*e].name);
            quote!(#n)
        }
        FieldType::Bits { name, .. } => {
            let n = ident(name);
            quote!(#n)
        }
        FieldType::Predicate => quote!(PredicateControl),
        FieldType::Vector => quote!(VectorOperand),
        FieldType::Raw => quote!(RawOperand),
        FieldType::Rest => quote!(Vec<u8>),
    }
}

/// A constant of field `f`'s type that [`decode_fields_into`] overwrites: what an
/// `Instruction` is set to before its fields are decoded in place.
pub(super) fn placeholder(inst: &InstModel, f: &FieldModel) -> TokenStream {
    match &f.ty {
        FieldType::Int(_) => quote!(0),
        FieldType::Enum(_, e) => {
            let n = ident(&inst.enums[*e].name);
            quote!(#n::PLACEHOLDER)
        }
        FieldType::Bits { name, .. } => {
            let n = ident(name);
            quote!(#n::PLACEHOLDER)
        }
        FieldType::Predicate => quote!(PredicateControl::PLACEHOLDER),
        FieldType::Vector => quote!(VectorOperand::PLACEHOLDER),
        FieldType::Raw => quote!(RawOperand::PLACEHOLDER),
        FieldType::Rest => quote!(Vec::new()),
    }
}

fn field_docs(f: &FieldModel) -> TokenStream {
    let mut lines = vec![format!("`{}`: {}", f.doc_name, doc_text(&f.doc))];
    if !f.classes.is_empty() {
        lines.push(String::new());
        lines.push(format!("Operand classes: {}.", f.classes.join(", ")));
    }
    if !f.types.is_empty() {
        lines.push(String::new());
        lines.push(format!("Allowed types: {}.", f.types.join(", ")));
    }
    docs(&lines)
}

/// The struct of a bit-packed field, with raw conversions.
pub(super) fn bits_struct(inst: &InstModel, f: &FieldModel) -> TokenStream {
    let FieldType::Bits {
        base,
        name,
        members,
        reserved_mask,
        ..
    } = &f.ty
    else {
        return quote!();
    };
    let name_i = ident(name);
    let raw = int_ty(base.unsigned());
    let field_name = &f.doc_name;
    let width = base.bits();
    let parts = members
        .iter()
        .map(|m| member_parts(inst, field_name, m, &raw, width));
    let (mut decls, mut blanks, mut to_raw, mut from_raw) = (vec![], vec![], vec![], vec![]);
    for (decl, blank, to, from) in parts {
        decls.push(decl);
        blanks.push(blank);
        to_raw.push(to);
        from_raw.push(from);
    }
    let inits = members.iter().map(|m| ident(&m.name));
    // `at_` names the field's offset in decode errors, which only enumerated members raise.
    let at = if members.iter().any(|m| matches!(m.ty, MemberType::Enum(_))) {
        quote!(at_)
    } else {
        quote!(_at)
    };
    let rmask = hex(*reserved_mask);
    let doc = docs(&[format!("The bit-packed field `{field_name}`.")]);
    quote! {
        #doc
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct #name_i {
            #(#decls,)*
            /// Bits no range of the doc covers; the doc's layout wants them zero.
            pub reserved: #raw,
        }

        impl #name_i {
            /// The bits no range covers.
            pub const RESERVED_MASK: #raw = #rmask;
            /// What decoding in place starts from.
            pub(crate) const PLACEHOLDER: Self = Self { #(#blanks,)* reserved: 0 };

            /// The field's raw bits.
            #[inline]
            pub fn to_raw(&self) -> #raw {
                #(#to_raw |)* (self.reserved & Self::RESERVED_MASK)
            }

            /// Splits raw bits; `at` is the field's byte offset, for errors.
            #[inline]
            pub fn from_raw(raw_: #raw, #at: usize) -> Result<Self, DecodeError> {
                #(#from_raw)*
                Ok(Self { #(#inits,)* reserved: raw_ & Self::RESERVED_MASK })
            }
        }
    }
}

/// What member `m` of the bit-packed field `field_name` (raw type `raw`, `width` bits) gives
/// its struct: the declaration, the placeholder, its part of `to_raw` and of `from_raw`.
fn member_parts(
    inst: &InstModel,
    field_name: &str,
    m: &Member,
    raw: &TokenStream,
    width: u32,
) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
    let mn = ident(&m.name);
    let lo = m.lo as u32;
    let doc = docs(&[format!(
        "{}Bit[{}..{}]: {}",
        m.rule
            .as_ref()
            .map(|r| format!("{{{}}}", r.annotation()))
            .unwrap_or_default(),
        m.hi,
        m.lo,
        doc_text(&m.summary)
    )]);
    match &m.ty {
        MemberType::Enum(e) => {
            let en = ident(&inst.enums[*e].name);
            let bits = unparen(extract(quote!(u64::from(raw_)), lo, m.mask(), width));
            (
                quote!(#doc pub #mn: #en),
                quote!(#mn: #en::PLACEHOLDER),
                shl(quote!((self.#mn.bits() as #raw)), lo),
                quote! {
                    let bits_ = #bits;
                    let #mn = #en::from_bits(bits_).ok_or_else(|| DecodeError::new(
                        #field_name, at_, DecodeErrorKind::InvalidValue { value: bits_, expected: #en::EXPECTED },
                    ))?;
                },
            )
        }
        MemberType::Int => {
            let bits = unparen(extract(quote!(raw_), lo, m.mask(), width));
            (
                quote!(#doc pub #mn: #raw),
                quote!(#mn: 0),
                shl(and_mask(quote!(self.#mn), m.mask(), width), lo),
                quote!(let #mn = #bits;),
            )
        }
    }
}

/// Statements decoding field `f` into a local of its Rust name.
pub(super) fn decode_field(inst: &InstModel, f: &FieldModel) -> TokenStream {
    let name = &f.doc_name;
    decode_into(inst, f, &ident(&f.rust_name), quote!(#name))
}

/// Statements decoding a value of field `f`'s type into `local`; `name` is the field name
/// errors carry (a `&'static str` expression).
pub(super) fn decode_into(
    inst: &InstModel,
    f: &FieldModel,
    local: &proc_macro2::Ident,
    name: TokenStream,
) -> TokenStream {
    match &f.ty {
        FieldType::Int(i) => {
            let t = int_ty(*i);
            quote!(let #local = <#t as Decode>::decode(rdr_, #name)?;)
        }
        FieldType::Enum(i, e) => {
            let t = int_ty(i.unsigned());
            let en = ident(&inst.enums[*e].name);
            quote! {
                let at_ = rdr_.position();
                let raw_ = <#t as Decode>::decode(rdr_, #name)?;
                let #local = #en::from_bits(u64::from(raw_)).ok_or_else(|| DecodeError::new(
                    #name, at_, DecodeErrorKind::InvalidValue { value: u64::from(raw_), expected: #en::EXPECTED },
                ))?;
            }
        }
        FieldType::Bits { base, name: sn, .. } => {
            let t = int_ty(base.unsigned());
            let sn = ident(sn);
            quote! {
                let at_ = rdr_.position();
                let raw_ = <#t as Decode>::decode(rdr_, #name)?;
                let #local = #sn::from_raw(raw_, at_)?;
            }
        }
        FieldType::Predicate => {
            quote!(let #local = <PredicateControl as Decode>::decode(rdr_, #name)?;)
        }
        FieldType::Vector => quote!(let #local = <VectorOperand as Decode>::decode(rdr_, #name)?;),
        FieldType::Raw => quote!(let #local = <RawOperand as Decode>::decode(rdr_, #name)?;),
        FieldType::Rest => quote! {
            let rest_ = rdr_.remaining();
            let #local = rdr_.take(rest_.len(), #name)?.to_vec();
        },
    }
}

/// Statements encoding field `f` of `self`.
fn encode_field(f: &FieldModel) -> TokenStream {
    let n = ident(&f.rust_name);
    encode_value(f, quote!(self.#n))
}

/// Statements encoding the value `v` of field `f`'s type.
pub(super) fn encode_value(f: &FieldModel, v: TokenStream) -> TokenStream {
    encode_via(f, v.clone(), quote!(&#v))
}

/// [`encode_value`] of `v` (a place, for method calls) whose reference is `by_ref`.
pub(super) fn encode_via(f: &FieldModel, v: TokenStream, by_ref: TokenStream) -> TokenStream {
    match &f.ty {
        FieldType::Enum(i, _) => {
            let t = int_ty(i.unsigned());
            quote!(Encode::put(&(#v.bits() as #t), out);)
        }
        FieldType::Bits { .. } => quote!(Encode::put(&#v.to_raw(), out);),
        FieldType::Rest => quote!(out.slice(#by_ref);),
        _ => quote!(Encode::put(#by_ref, out);),
    }
}

fn err(inst: &InstModel, field: &str, rule: &str) -> TokenStream {
    let name = &inst.doc_name;
    quote!(return Err(ValidationError { instruction: #name, field: #field, rule: #rule });)
}

/// A source operand, which the type maps' `Src types` constrain: `Src`, `Src0`, `Src1`, ...
pub(super) fn is_source(doc_name: &str) -> bool {
    let l = doc_name.to_ascii_lowercase();
    l.strip_prefix("src")
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

/// The checks of one field's rules.
fn validate_field(inst: &InstModel, f: &FieldModel) -> TokenStream {
    let n = ident(&f.rust_name);
    validate_value(inst, f, quote!(self.#n))
}

/// The checks of field `f`'s rules on the value `n` (`self.field`, or a list item): those its
/// type carries, then, for a source operand, the instruction's type maps.
pub(super) fn validate_value(inst: &InstModel, f: &FieldModel, n: TokenStream) -> TokenStream {
    let fname = f.doc_name.as_str();
    let mut checks = match &f.ty {
        FieldType::Enum(..) => vec![available_check(inst, fname, &n)],
        FieldType::Bits {
            members,
            reserved_mask,
            reserved_ignored,
            ..
        } => {
            let mut checks: Vec<TokenStream> = members
                .iter()
                .flat_map(|m| member_checks(inst, fname, m, &n))
                .collect();
            if *reserved_mask != 0 && !reserved_ignored {
                checks.push(reserved_check(inst, fname, members, &n));
            }
            checks
        }
        FieldType::Predicate => {
            let e = err(inst, fname, "Predication: bit 12 is reserved and must be 0; predicate combine \"11\" is reserved");
            vec![quote!(if !#n.is_valid() { #e })]
        }
        FieldType::Vector => operand_checks(inst, f, &n),
        FieldType::Int(_) => match &f.nonzero {
            Some(sentence) => {
                let e = err(inst, fname, sentence);
                vec![quote!(if #n == 0 { #e })]
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    if matches!(f.ty, FieldType::Vector) && !inst.src_type_maps.is_empty() && is_source(&f.doc_name)
    {
        checks.push(type_map_check(inst, fname, &n));
    }
    quote!(#(#checks)*)
}

/// An enum value (`value`) must exist on `platform`.
fn available_check(inst: &InstModel, fname: &str, value: &TokenStream) -> TokenStream {
    let name = &inst.doc_name;
    quote! {
        if let Err(rule) = #value.available_on(platform) {
            return Err(ValidationError { instruction: #name, field: #fname, rule });
        }
    }
}

/// The checks of one member `m` of the bit-packed value `n`: its range, the platforms it
/// exists on, and whether it may be zero.
fn member_checks(inst: &InstModel, fname: &str, m: &Member, n: &TokenStream) -> Vec<TokenStream> {
    let mn = ident(&m.name);
    let value = quote!(#n.#mn);
    let mut checks = Vec::new();
    match &m.ty {
        MemberType::Enum(_) => checks.push(available_check(inst, fname, &value)),
        MemberType::Int => {
            let mask = hex(m.mask());
            let bits = format!("Bit[{}..{}]: {}", m.hi, m.lo, m.summary);
            let e = err(
                inst,
                fname,
                &format!("{bits} (the value must fit the bit range)"),
            );
            checks.push(quote!(if u64::from(#value) > #mask { #e }));
        }
    }
    let bits_of = match &m.ty {
        MemberType::Enum(_) => quote!(#value.bits()),
        MemberType::Int => value,
    };
    if let Some(rule) = &m.rule {
        let fails = rule_fails(rule);
        let quote_text = format!(
            "{{{}}}Bit[{}..{}]: {} (must be zero where the platform lacks it)",
            rule.annotation(),
            m.hi,
            m.lo,
            m.summary
        );
        let e = err(inst, fname, &quote_text);
        checks.push(quote!(if #fails && #bits_of != 0 { #e }));
    }
    if let Some(sentence) = &m.nonzero {
        let e = err(inst, fname, sentence);
        checks.push(quote!(if #bits_of == 0 { #e }));
    }
    checks
}

/// The bits of `n` no member covers must be zero.
fn reserved_check(
    inst: &InstModel,
    fname: &str,
    members: &[Member],
    n: &TokenStream,
) -> TokenStream {
    let ranges: Vec<String> = members
        .iter()
        .map(|m| format!("Bit[{}..{}]", m.hi, m.lo))
        .collect();
    let e = err(
        inst,
        fname,
        &format!(
            "bits outside {} are not defined by the doc and must be zero",
            ranges.join(", ")
        ),
    );
    quote!(if #n.reserved != 0 { #e })
}

/// The operand `n` of field `f` must be of one of its classes and, when immediate, of one of its
/// types.
fn operand_checks(inst: &InstModel, f: &FieldModel, n: &TokenStream) -> Vec<TokenStream> {
    let fname = f.doc_name.as_str();
    let mut checks = Vec::new();
    let classes: Vec<TokenStream> = f
        .classes
        .iter()
        .filter_map(|c| {
            let v = match c.as_str() {
                "general" => "General",
                "address" => "Address",
                "predicate" => "Predicate",
                "indirect" => "Indirect",
                "immediate" => "Immediate",
                "state" => "State",
                _ => return None,
            };
            let v = ident(v);
            Some(quote!(OperandClass::#v))
        })
        .collect();
    if !classes.is_empty() {
        let rule = f
            .class_rule
            .clone()
            .unwrap_or_else(|| format!("Operand class: {}", f.classes.join(",")));
        let e = err(inst, fname, &rule);
        checks.push(quote!(if !matches!(#n.class(), #(#classes)|*) { #e }));
    }
    let types: Vec<TokenStream> = f.types.iter().map(|t| data_type_path(t)).collect();
    if !types.is_empty() {
        let rule = f
            .type_rule
            .clone()
            .unwrap_or_else(|| format!("Must have type {}", f.types.join(",")));
        let e = err(inst, fname, &rule);
        checks.push(quote! {
            if let Some(t) = #n.immediate_type() {
                if !matches!(t, #(#types)|*) { #e }
            }
        });
    }
    checks
}

/// `DataType::X` of the doc's spelling `t`.
fn data_type_path(t: &str) -> TokenStream {
    let v = ident(crate::vocab::data_type(t).map_or(t, |d| d.variant));
    quote!(DataType::#v)
}

/// An immediate source operand `n` must have a type one of the instruction's type maps admits.
fn type_map_check(inst: &InstModel, fname: &str, n: &TokenStream) -> TokenStream {
    let alternatives: Vec<TokenStream> = inst
        .src_type_maps
        .iter()
        .map(|m| {
            if m.types.is_empty() {
                // The analyzer drops such maps; a map allowing no type matches nothing.
                return quote!(false);
            }
            // Packed immediates (V, UV, VF) pass where a compatible element type is listed.
            let admitted = m.immediate_types();
            let types = admitted.iter().map(|t| data_type_path(t));
            match &m.rule {
                Some(r) => {
                    let on = rule_check(r);
                    quote!((#on && matches!(t, #(#types)|*)))
                }
                None => quote!(matches!(t, #(#types)|*)),
            }
        })
        .collect();
    let mut alternatives = alternatives.into_iter();
    let first = alternatives.next().unwrap_or_else(|| quote!(false));
    let any = alternatives.fold(first, |acc, a| quote!(#acc || #a));
    let none = not(any);
    let listed: Vec<String> = inst
        .src_type_maps
        .iter()
        .map(|m| match &m.rule {
            Some(r) => format!("{{{}}} {}", r.annotation(), m.types.join(", ")),
            None => m.types.join(", "),
        })
        .collect();
    let e = err(
        inst,
        fname,
        &format!("Operand type maps: Src types {}", listed.join(" | ")),
    );
    quote! {
        if let Some(t) = #n.immediate_type() {
            if #none { #e }
        }
    }
}

/// What the slots of a variant give its struct, each list in slot order.
#[derive(Default)]
struct StructParts {
    /// The struct's fields.
    decls: Vec<TokenStream>,
    /// The fields of `PLACEHOLDER`.
    blanks: Vec<TokenStream>,
    /// Decoding in place stores each field as soon as it is read.
    in_place: Vec<TokenStream>,
    encodes: Vec<TokenStream>,
    validates: Vec<TokenStream>,
}

/// The declaration, placeholder, decode, encode and validate code of each of `v`'s slots.
fn struct_parts(inst: &InstModel, v: &VariantModel) -> StructParts {
    let mut p = StructParts::default();
    for (_, slot) in &v.slots(inst) {
        match slot {
            Slot::Field(f) => {
                let fname = ident(&f.rust_name);
                let t = field_type(inst, f);
                let d = field_docs(f);
                p.decls.push(quote!(#d pub #fname: #t));
                let blank = placeholder(inst, f);
                p.blanks.push(quote!(#fname: #blank));
                let dec = decode_field(inst, f);
                p.in_place.push(match &f.ty {
                    // Operands are written straight into the field (see
                    // `VectorOperand::decode_in_place`); nothing later reads a local of them.
                    FieldType::Vector => {
                        let n = &f.doc_name;
                        quote!(<VectorOperand as Decode>::decode_in_place(&mut self.#fname, rdr_, #n)?;)
                    }
                    _ => quote!(#dec self.#fname = #fname;),
                });
                p.encodes.push(encode_field(f));
                p.validates.push(validate_field(inst, f));
            }
            Slot::Count(f, c) => {
                p.in_place.push(decode_field(inst, f));
                p.encodes.push(counted::encode_count(f, c));
                p.validates.push(counted::validate_count(inst, f, c));
            }
            Slot::List(c, item) => {
                p.decls.push(counted::list_decl(inst, c, item));
                let lname = ident(&c.rust_name);
                let empty = counted::empty_list(inst, c, item);
                p.blanks.push(quote!(#lname: #empty));
                p.in_place.push(counted::decode_list(
                    inst,
                    c,
                    item,
                    quote!(Self),
                    counted::ListTarget::InPlace,
                ));
                p.encodes.push(counted::encode_list(c, item));
                p.validates.push(counted::validate_list(inst, c));
            }
        }
    }
    p
}

/// A struct holding one variant's fields, with field encode, decode and validate.
fn fields_struct(
    inst: &InstModel,
    name: &str,
    v: &VariantModel,
    doc: TokenStream,
    opcode_bytes: TokenStream,
    selector_checks: TokenStream,
) -> TokenStream {
    let n = ident(name);
    let StructParts {
        decls,
        blanks,
        in_place,
        encodes,
        validates,
    } = struct_parts(inst, v);
    let accessors = counted::accessors(inst, v);
    let encodes = quote!(#(#encodes)*);
    let out = param("out", &encodes);
    let in_place = quote!(#(#in_place)*);
    let rdr = param("rdr_", &in_place);
    let validates = quote!(#selector_checks #(#validates)*);
    let platform = param("platform", &validates);
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct #n { #(#decls,)* }

        impl #n {
            #accessors

            /// Appends the binary form, opcode byte(s) included.
            #[inline]
            pub fn encode(&self, out: &mut Vec<u8>) {
                self.put(&mut Staging::new(out));
            }

            /// Writes the binary form, opcode byte(s) included, into `out`.
            #[inline]
            pub fn put(&self, out: &mut Staging<'_>) {
                #opcode_bytes
                self.put_fields(out);
            }

            /// Appends the fields, in format-table order.
            pub fn encode_fields(&self, out: &mut Vec<u8>) {
                self.put_fields(&mut Staging::new(out));
            }

            /// Writes the fields, in format-table order, into `out`.
            #[inline]
            pub fn put_fields(&self, #out: &mut Staging<'_>) {
                #encodes
            }

            /// What decoding in place starts from.
            pub(crate) const PLACEHOLDER: Self = Self { #(#blanks,)* };

            /// Reads the fields that follow the opcode byte(s).
            #[inline]
            pub fn decode_fields(rdr_: &mut Reader<'_>) -> Result<Self, DecodeError> {
                let mut this_ = Self::PLACEHOLDER;
                this_.decode_fields_into(rdr_)?;
                Ok(this_)
            }

            /// Reads the fields that follow the opcode byte(s) into `self`, each stored as
            /// soon as it is read; on error `self` holds some fields of the new instruction.
            #[inline]
            pub fn decode_fields_into(&mut self, #rdr: &mut Reader<'_>) -> Result<(), DecodeError> {
                #in_place
                Ok(())
            }

            /// Checks every rule the doc states, for `platform`.
            pub fn validate(&self, #platform: Platform) -> Result<(), ValidationError> {
                #validates
                Ok(())
            }
        }
    }
}

/// What selects variant `v` (one boolean expression); `None` when nothing does: it always applies.
fn choice_test(inst: &InstModel, v: &VariantModel, root: Option<&str>) -> Option<TokenStream> {
    let conds = v.choices.iter().filter_map(|c| {
        let f = inst.fields.get(&c.field)?;
        let local = ident(&f.rust_name);
        let base = match root {
            Some(r) => {
                let r = ident(r);
                quote!(#r.#local)
            }
            None => quote!(#local),
        };
        let access = match &c.member {
            Some(m) => {
                let m = ident(m);
                quote!(#base.#m)
            }
            None => base,
        };
        if c.values.is_empty() {
            // The analyzer resolves no such choice; a clause naming no value selects nothing.
            return Some(quote!(false));
        }
        let en = ident(&inst.enums[c.enum_index].name);
        let vals = c.values.iter().map(|v| {
            let v = ident(v);
            quote!(#en::#v)
        });
        Some(quote!(matches!(#access, #(#vals)|*)))
    });
    let conds: Vec<TokenStream> = conds.collect();
    match conds.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        _ => Some(quote!((#(#conds)&&*))),
    }
}

/// A generic doc's first field must not hold a sub-opcode another doc claims.
fn claimed_check(inst: &InstModel, fields: &[String]) -> TokenStream {
    let Some(first) = fields.first().and_then(|f| inst.fields.get(f)) else {
        return quote!();
    };
    if inst.claimed_subs.is_empty() || !matches!(first.ty, FieldType::Int(_)) {
        return quote!();
    }
    let n = ident(&first.rust_name);
    let arms = inst.claimed_subs.iter().map(|(value, name)| {
        let v = hex(u64::from(*value));
        let rule = format!(
            "{} {:#04x} is the sub-opcode of {}: those bytes decode as {}",
            first.doc_name, value, name, name
        );
        let e = err(inst, &first.doc_name, &rule);
        quote!(#v => { #e })
    });
    quote!(match u64::from(self.#n) { #(#arms)* _ => {} })
}

/// The module of one instruction.
pub fn render(model: &Model, inst: &InstModel) -> TokenStream {
    if let Some(canonical) = &inst.alias_of {
        return alias(model, inst, canonical);
    }
    let enums = inst.enums.iter().filter(|e| !e.shared).map(enum_tokens);
    let bits = inst
        .fields
        .values()
        .filter(|f| !f.shared_struct)
        .map(|f| bits_struct(inst, f));
    let body = if inst.variants.len() <= 1 {
        single_format(inst)
    } else {
        variants_enum(inst)
    };
    with_imports(
        model,
        inst,
        quote! {
            #(#enums)*
            #(#bits)*
            #body
        },
    )
}

/// The instruction's docs: name and source, description, semantics, text and notes.
fn inst_doc(inst: &InstModel) -> TokenStream {
    let mut head = vec![format!("`{}` ({}).", inst.doc_name, inst.source)];
    if !inst.description.is_empty() {
        head.push(String::new());
        head.push(doc_text(&inst.description));
    }
    head.extend(doc_code("Semantics", &inst.semantics));
    head.extend(doc_code("Text", &inst.text));
    head.extend(doc_code("Notes", &inst.notes));
    docs(&head)
}

/// A doc that encodes exactly like `canonical`: a type alias of its struct.
fn alias(model: &Model, inst: &InstModel, canonical: &str) -> TokenStream {
    let target = model.instructions.iter().find(|i| i.doc_name == canonical);
    let Some(t) = target else { return quote!() };
    let ty = ident(&inst.rust_name);
    let m = ident(&t.module);
    let tt = ident(&t.rust_name);
    let doc = docs(&[format!(
        "`{}` encodes exactly like `{}`, which decodes; see its docs.",
        inst.doc_name, canonical
    )]);
    quote! { #doc pub type #ty = super::#m::#tt; }
}

/// Statements writing the opcode byte and the sub-opcode byte, if any.
fn opcode_bytes(inst: &InstModel) -> TokenStream {
    let op = hex(u64::from(inst.opcode));
    match inst.sub_opcode {
        Some(s) => {
            let s = hex(u64::from(s));
            quote!(out.byte(#op); out.byte(#s);)
        }
        None => quote!(out.byte(#op);),
    }
}

/// The `OPCODE` and `SUB_OPCODE` constants.
fn opcode_consts(inst: &InstModel) -> TokenStream {
    let op = hex(u64::from(inst.opcode));
    let sub = match inst.sub_opcode {
        Some(s) => {
            let s = hex(u64::from(s));
            quote!(Some(#s))
        }
        None => quote!(None),
    };
    quote! {
        /// The opcode byte.
        pub const OPCODE: u8 = #op;
        /// The sub-opcode byte that follows the opcode, if any.
        pub const SUB_OPCODE: Option<u8> = #sub;
    }
}

/// An instruction of one format: one struct of its fields.
fn single_format(inst: &InstModel) -> TokenStream {
    let ty = ident(&inst.rust_name);
    let none = VariantModel::default();
    let v = inst.variants.first().unwrap_or(&none);
    let s = fields_struct(
        inst,
        &inst.rust_name,
        v,
        inst_doc(inst),
        opcode_bytes(inst),
        claimed_check(inst, &v.fields),
    );
    let consts = opcode_consts(inst);
    quote! {
        #s
        impl #ty { #consts }
    }
}

/// The name of the struct of variant `v`.
fn variant_struct_name(inst: &InstModel, v: &VariantModel) -> String {
    format!("{}{}", inst.rust_name, v.rust_name)
}

/// An instruction of several formats: a struct per variant and the enum of them.
fn variants_enum(inst: &InstModel) -> TokenStream {
    let ty = ident(&inst.rust_name);
    let mut structs = Vec::new();
    let mut arms_encode = Vec::new();
    let mut arms_validate = Vec::new();
    let mut variant_decls = Vec::new();
    for v in &inst.variants {
        let sname = variant_struct_name(inst, v);
        let vdoc = variant_doc(inst, v);
        structs.push(fields_struct(
            inst,
            &sname,
            v,
            vdoc.clone(),
            opcode_bytes(inst),
            selector_check(inst, v),
        ));
        let vn = ident(&v.rust_name);
        let sn = ident(&sname);
        variant_decls.push(quote!(#vdoc #vn(#sn)));
        arms_encode.push(quote!(#ty::#vn(v) => v.put(out)));
        arms_validate.push(quote!(#ty::#vn(v) => v.validate(platform)));
    }
    let inst_doc = inst_doc(inst);
    let consts = opcode_consts(inst);
    let decode = variants_decode(inst);
    let first_placeholder = match inst.variants.first() {
        Some(v) => {
            let vn = ident(&v.rust_name);
            let sn = ident(&variant_struct_name(inst, v));
            quote!(#ty::#vn(#sn::PLACEHOLDER))
        }
        None => quote!(),
    };
    structs.push(quote! {
        #inst_doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum #ty { #(#variant_decls,)* }

        impl #ty {
            #consts

            /// Appends the binary form, opcode byte(s) included.
            pub fn encode(&self, out: &mut Vec<u8>) {
                self.put(&mut Staging::new(out));
            }

            /// Writes the binary form, opcode byte(s) included, into `out`.
            pub fn put(&self, out: &mut Staging<'_>) {
                match self { #(#arms_encode,)* }
            }

            /// Reads the common fields, then the fields of the variant they select.
            #[inline]
            pub fn decode_fields(rdr_: &mut Reader<'_>) -> Result<Self, DecodeError> {
                #decode
            }

            /// What decoding in place starts from.
            pub(crate) const PLACEHOLDER: Self = #first_placeholder;

            /// Reads the fields into `self`; the variant is known only once its
            /// selectors are read, so the value is built and then stored.
            #[inline]
            pub fn decode_fields_into(&mut self, rdr_: &mut Reader<'_>) -> Result<(), DecodeError> {
                *self = Self::decode_fields(rdr_)?;
                Ok(())
            }

            /// Checks every rule the doc states, for `platform`.
            pub fn validate(&self, platform: Platform) -> Result<(), ValidationError> {
                match self { #(#arms_validate,)* }
            }
        }
    });
    quote!(#(#structs)*)
}

/// The docs of variant `v`: when it applies.
fn variant_doc(inst: &InstModel, v: &VariantModel) -> TokenStream {
    docs(&[format!(
        "`{}` when {}{}.",
        inst.doc_name,
        doc_text(v.condition.as_deref().unwrap_or("no condition")),
        if v.shadowed {
            " (never decoded: an earlier variant takes its encodings)"
        } else {
            ""
        }
    )])
}

/// Validation of variant `v`: its selectors must select it.
fn selector_check(inst: &InstModel, v: &VariantModel) -> TokenStream {
    let Some(test) = choice_test(inst, v, Some("this_")) else {
        return quote!();
    };
    let cond = v.condition.clone().unwrap_or_default();
    let name = &inst.doc_name;
    let selector_field = v
        .choices
        .first()
        .map(|c| c.field.clone())
        .unwrap_or_default();
    let not_test = not(test);
    quote! {
        let this_ = self;
        if #not_test {
            return Err(ValidationError { instruction: #name, field: #selector_field, rule: #cond });
        }
    }
}

/// The body of `decode_fields` of an instruction of several formats: the common prefix, then
/// the first variant whose selectors match.
fn variants_decode(inst: &InstModel) -> TokenStream {
    let prefix_decodes = inst.variants[0]
        .fields
        .iter()
        .take(inst.prefix)
        .filter_map(|f| inst.fields.get(f))
        .map(|f| decode_field(inst, f));
    let mut branches = Vec::new();
    let mut always = None;
    for v in inst.variants.iter().filter(|v| !v.shadowed) {
        let (decodes, value) = variant_rest_decode(inst, v);
        match choice_test(inst, v, None) {
            Some(test) => branches.push(quote! {
                if #test {
                    #decodes
                    return #value;
                }
            }),
            // A variant nothing selects always applies: later ones are never tried.
            None => {
                always = Some(quote! {
                    #decodes
                    #value
                });
                break;
            }
        }
    }
    let sel_name = inst
        .variants
        .iter()
        .flat_map(|v| v.choices.first())
        .map(|c| c.field.clone())
        .next()
        .unwrap_or_else(|| "format".into());
    let (prefix_at, tail) = match always {
        Some(decode) => (quote!(), decode),
        None => (
            quote!(let start_ = rdr_.position();),
            quote!(Err(DecodeError::new(#sel_name, start_, DecodeErrorKind::InvalidValue { value: 0, expected: "a value that selects one of the doc's formats" }))),
        ),
    };
    quote! {
        #prefix_at
        #(#prefix_decodes)*
        #(#branches)*
        #tail
    }
}

/// Decoding of variant `v`'s fields after the common prefix, and the value built of them.
fn variant_rest_decode(inst: &InstModel, v: &VariantModel) -> (TokenStream, TokenStream) {
    let ty = ident(&inst.rust_name);
    let vn = ident(&v.rust_name);
    let sn = ident(&variant_struct_name(inst, v));
    let slots = v.slots(inst);
    let rest_decodes =
        slots
            .iter()
            .filter(|(i, _)| *i >= inst.prefix)
            .map(|(_, slot)| match slot {
                Slot::Field(f) | Slot::Count(f, _) => decode_field(inst, f),
                Slot::List(c, item) => {
                    counted::decode_list(inst, c, item, quote!(#sn), counted::ListTarget::Local)
                }
            });
    let all = slots.iter().filter_map(|(_, slot)| match slot {
        Slot::Field(f) => Some(ident(&f.rust_name)),
        Slot::List(c, _) => Some(ident(&c.rust_name)),
        Slot::Count(..) => None,
    });
    (
        quote!(#(#rest_decodes)*),
        quote!(Ok(#ty::#vn(#sn { #(#all,)* }))),
    )
}

/// The names of the structs and enums `code` defines.
fn idents_defined(code: &TokenStream) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut after_item = false;
    for t in code.clone() {
        if let proc_macro2::TokenTree::Ident(i) = t {
            let s = i.to_string();
            if after_item {
                out.insert(s.clone());
            }
            after_item = s == "struct" || s == "enum";
        } else {
            after_item = false;
        }
    }
    out
}

/// The module's code behind the imports it uses.
fn with_imports(model: &Model, inst: &InstModel, code: TokenStream) -> TokenStream {
    let used = idents_in(&code);
    let runtime = use_only(
        quote!(crate::runtime),
        &[
            "DataType",
            "Decode",
            "DecodeError",
            "DecodeErrorKind",
            "Encode",
            "InlineList",
            "OperandClass",
            "PredicateControl",
            "RawOperand",
            "Reader",
            "Staging",
            "ValidationError",
            "VectorOperand",
        ],
        &used,
    );
    // Names the module defines itself shadow the shared ones.
    let own = idents_defined(&code);
    // The types of the doc's own fields that live in `enums` are re-exported here, so the
    // doc's module names every type of its fields whether or not another doc shares it: a doc
    // added or changed elsewhere never moves this doc's names (NAMING.md).
    let exported = shared_field_types(inst, &own);
    let shared = model
        .shared_enums
        .iter()
        .map(|e| e.name.as_str())
        .chain(model.shared_structs.iter().filter_map(|(i, field)| {
            let inst = model.instructions.get(*i)?;
            match &inst.fields.get(field)?.ty {
                FieldType::Bits { name, .. } => Some(name.as_str()),
                _ => None,
            }
        }))
        .any(|n| used.contains(n) && !own.contains(n) && !exported.iter().any(|e| e == n));
    let glob = if shared {
        quote!(
            use super::enums::*;
        )
    } else {
        quote!()
    };
    let exported: Vec<Ident> = exported.iter().map(|n| ident(n)).collect();
    let enums = match exported.as_slice() {
        [] => glob,
        [one] => quote!(pub use super::enums::#one; #glob),
        _ => quote!(pub use super::enums::{#(#exported),*}; #glob),
    };
    let platform = use_only(quote!(super), &["Platform"], &used);
    let vec = use_only(quote!(alloc::vec), &["Vec"], &used);
    quote! {
        #runtime
        #enums
        #platform
        #vec
        #code
    }
}

/// The types of `inst`'s fields that the shared module `enums` holds (its whole-field and
/// bit-range enums, its bit-packed structs), by name, each once, less those the module defines.
fn shared_field_types(inst: &InstModel, own: &BTreeSet<String>) -> Vec<String> {
    let mut names = BTreeSet::new();
    for f in inst.fields.values() {
        match &f.ty {
            FieldType::Enum(_, e) => names.extend(
                inst.enums
                    .get(*e)
                    .filter(|d| d.shared)
                    .map(|d| d.name.clone()),
            ),
            FieldType::Bits { name, members, .. } => {
                if f.shared_struct {
                    names.insert(name.clone());
                }
                for m in members {
                    if let MemberType::Enum(e) = m.ty {
                        names.extend(
                            inst.enums
                                .get(e)
                                .filter(|d| d.shared)
                                .map(|d| d.name.clone()),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    names.into_iter().filter(|n| !own.contains(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::is_source;

    #[test]
    fn sources_are_src_with_an_optional_index() {
        assert!(is_source("Src") && is_source("Src0") && is_source("src12"));
        assert!(!is_source("Src0Data") && !is_source("Dst") && !is_source("SrcAddr"));
    }
}
