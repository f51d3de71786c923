//! Special forms over every field by doc name (`runtime::text::special::fields`): for
//! instructions whose text a template cannot describe and whose formatter needs operands and
//! several formats (LSC_UNTYPED). The printer hands the formatter the fields of the
//! instruction's format; the parser takes the fields the formatter read, encodes them in the
//! order of each format in turn and keeps the first whose bytes decode back to themselves.

use super::text::raw_of;
use super::{ident, lit};
use crate::analyze::{FieldType, InstModel, VariantModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The parse function's name.
pub fn parse_fn(inst: &InstModel) -> proc_macro2::Ident {
    format_ident!("parse_{}_fields", inst.module.trim_end_matches('_'))
}

/// The print arm and the parse function of `inst`, whose formatter is `special::<module>`.
pub fn arms(inst: &InstModel, module: &str) -> (TokenStream, TokenStream) {
    let ty = ident(&inst.rust_name);
    let m = ident(module);
    let name = &inst.doc_name;
    let print = if inst.variants.len() <= 1 {
        let list = field_list(inst, inst.variants.first());
        quote!(Instruction::#ty(i) => #list.map_or(Err(PrintError::NoTextForm { instruction: #name, why: "a field the text form cannot pass on" }), |f| special::#m::print(special::fields::Fields(&f), names, out)),)
    } else {
        let arms = inst.variants.iter().map(|v| {
            let vn = ident(&v.rust_name);
            let list = field_list(inst, Some(v));
            quote!(#ty::#vn(i) => #list.map_or(Err(PrintError::NoTextForm { instruction: #name, why: "a field the text form cannot pass on" }), |f| special::#m::print(special::fields::Fields(&f), names, out)),)
        });
        quote!(Instruction::#ty(x) => match x { #(#arms)* },)
    };
    let tries = inst
        .variants
        .iter()
        .filter(|v| !v.shadowed && v.counted.is_empty())
        .map(|v| encode_variant(inst, v));
    let pp = parse_fn(inst);
    let parse = quote! {
        fn #pp<'a>(pred: PredicateControl, w: Words<'a>, c: Cursor<'a>, names: &dyn Names) -> Result<Instruction, ParseError> {
            let got = special::#m::parse(pred, w, c, names)?;
            #(
                if let Some(b) = #tries {
                    if let Ok((i, n)) = decode(&b) {
                        let mut again: Vec<u8> = Vec::new();
                        i.encode(&mut again);
                        if n == b.len() && again == b {
                            return Ok(i);
                        }
                    }
                }
            )*
            Err(error(0, "values one of the instruction's formats can hold (a listed value, reserved bits zero)", ""))
        }
    };
    (print, parse)
}

/// `Some([(doc name, Value), ...])` of a format's fields, `None` when one has no `Value`.
fn field_list(inst: &InstModel, v: Option<&VariantModel>) -> TokenStream {
    let mut items = Vec::new();
    let fields = v.map(|v| v.fields.as_slice()).unwrap_or(&[]);
    let listed = v.is_none_or(|v| v.counted.is_empty());
    for f in fields.iter().filter_map(|f| inst.fields.get(f)) {
        let n = ident(&f.rust_name);
        let doc = f.doc_name.as_str();
        let value = match f.ty {
            FieldType::Int(_) | FieldType::Enum(..) | FieldType::Bits { .. } => {
                let raw = raw_of(f);
                quote!(special::fields::Value::Scalar(#raw))
            }
            FieldType::Predicate => quote!(special::fields::Value::Predicate(i.#n)),
            FieldType::Vector => quote!(special::fields::Value::Vector(i.#n)),
            FieldType::Raw => quote!(special::fields::Value::Raw(i.#n)),
            FieldType::Rest => return quote!(None::<[(&str, special::fields::Value); 0]>),
        };
        items.push(quote!((#doc, #value)));
    }
    if !listed {
        return quote!(None::<[(&str, special::fields::Value); 0]>);
    }
    quote!(Some([#(#items),*]))
}

/// An expression: `Some(bytes)` of format `v` from the parsed fields, `None` if one is missing
/// or does not fit.
fn encode_variant(inst: &InstModel, v: &VariantModel) -> TokenStream {
    let mut enc = vec![];
    let op = lit(u64::from(inst.opcode));
    enc.push(quote!(b.push(#op);));
    if let Some(s) = inst.sub_opcode {
        let s = lit(u64::from(s));
        enc.push(quote!(b.push(#s);));
    }
    for f in v.fields.iter().filter_map(|f| inst.fields.get(f)) {
        let doc = f.doc_name.as_str();
        enc.push(match &f.ty {
            FieldType::Int(i) | FieldType::Enum(i, _) | FieldType::Bits { base: i, .. } => {
                let t = super::int_ty(i.unsigned());
                quote!(Encode::encode(&<#t>::try_from(got.scalar(#doc)?).ok()?, &mut b);)
            }
            FieldType::Predicate => quote!(Encode::encode(&got.predicate(#doc)?, &mut b);),
            FieldType::Vector => quote!(Encode::encode(&got.vector(#doc)?, &mut b);),
            FieldType::Raw => quote!(Encode::encode(&got.raw(#doc)?, &mut b);),
            FieldType::Rest => quote!(return None;),
        });
    }
    quote!((|| -> Option<Vec<u8>> {
        let mut b: Vec<u8> = Vec::new();
        #(#enc)*
        Some(b)
    })())
}
