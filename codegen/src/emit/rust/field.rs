//! One field of an instruction: its Rust type, placeholder, bit-packed struct, decoding,
//! encoding and validation, for the instruction's module (`instruction.rs`) and its counted
//! lists (`counted.rs`).

use super::top::{rule_check, rule_fails};
use super::{and_mask, doc_text, docs, extract, hex, ident, int_ty, not, shl, unparen};
use crate::analyze::{FieldModel, FieldType, InstModel, Member, MemberType};
use proc_macro2::TokenStream;
use quote::quote;

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

pub(super) fn field_docs(f: &FieldModel) -> TokenStream {
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
pub(super) fn encode_field(f: &FieldModel) -> TokenStream {
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

pub(super) fn err(inst: &InstModel, field: &str, rule: &str) -> TokenStream {
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
pub(super) fn validate_field(inst: &InstModel, f: &FieldModel) -> TokenStream {
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

#[cfg(test)]
mod tests {
    use super::is_source;

    #[test]
    fn sources_are_src_with_an_optional_index() {
        assert!(is_source("Src") && is_source("Src0") && is_source("src12"));
        assert!(!is_source("Src0Data") && !is_source("Dst") && !is_source("SrcAddr"));
    }
}
