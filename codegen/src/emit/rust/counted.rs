//! Counted lists: one `Vec` member per list, whose length is what the count field encodes.
//! The count is no member of its own, so the two can never disagree; decode reads exactly the
//! count's items after checking that the bytes left can hold them.

use super::instruction::{decode_into, encode_value, field_type, validate_value};
use super::{doc_text, docs, ident, int_ty};
use crate::analyze::{CountedModel, FieldModel, FieldType, InstModel, VariantModel};
use crate::schema::CountKind;
use proc_macro2::TokenStream;
use quote::quote;

/// Methods that every variant struct has; a parameter accessor of the same name is skipped.
const RESERVED: &[&str] = &[
    "encode",
    "encode_fields",
    "put",
    "put_fields",
    "decode_fields",
    "decode_fields_into",
    "validate",
];

/// The fewest bytes one item can take, to bound a count by the bytes left.
fn min_bytes(item: &FieldModel) -> usize {
    match &item.ty {
        FieldType::Int(i) | FieldType::Enum(i, _) | FieldType::Bits { base: i, .. } => {
            i.bits() as usize / 8
        }
        FieldType::Predicate => 2,
        FieldType::Raw => 6,
        // At least the operand's tag byte.
        FieldType::Vector | FieldType::Rest => 1,
    }
}

fn count_int(count: &FieldModel) -> TokenStream {
    match &count.ty {
        FieldType::Int(i) => int_ty(*i),
        // Analysis keeps only integer counts.
        _ => quote!(u32),
    }
}

/// The list member's declaration.
pub fn list_decl(inst: &InstModel, c: &CountedModel, item: &FieldModel) -> TokenStream {
    let name = ident(&c.rust_name);
    let t = field_type(inst, item);
    let doc = match c.kind {
        CountKind::Repeat => format!(
            "`{}` repeated `{}` times: `{}` is encoded as this list's length. {}",
            item.doc_name,
            c.count,
            c.count,
            doc_text(&item.doc)
        ),
        CountKind::Prefix => format!(
            "The parameters after `{}`, in the order of [`Self::PARAMS`]: the first `{}` of \
             them are encoded, `{}` being this list's length.",
            c.count, c.count, c.count
        ),
    };
    let doc = docs(&[doc]);
    quote!(#doc pub #name: Vec<#t>)
}

/// Where a decoded list goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ListTarget {
    /// A new local of the member's name.
    Local,
    /// The member of `self`, cleared and refilled: its capacity is reused.
    InPlace,
}

/// Statements decoding the list into `target`; `owner` is the struct whose `PARAMS` names a
/// prefix list's items.
pub fn decode_list(
    inst: &InstModel,
    _v: &VariantModel,
    c: &CountedModel,
    item: &FieldModel,
    owner: TokenStream,
    target: ListTarget,
) -> TokenStream {
    let Some(count) = inst.fields.get(&c.count) else {
        return quote!();
    };
    let count_local = ident(&count.rust_name);
    let count_name = &c.count;
    let local = ident(&c.rust_name);
    let bytes = min_bytes(item);
    let item_local = ident("item_");
    let (limit, name) = match c.kind {
        CountKind::Prefix => {
            let k = c.items.len() as u64;
            let expected = format!("at most {k}: the parameters this format lists");
            (
                quote! {
                    if count_ > #k {
                        return Err(DecodeError::new(#count_name, rdr_.position(), DecodeErrorKind::InvalidValue { value: count_, expected: #expected }));
                    }
                },
                quote!(#owner::PARAMS[i_]),
            )
        }
        CountKind::Repeat => {
            let n = &item.doc_name;
            (quote!(), quote!(#n))
        }
    };
    let dec = decode_into(inst, item, &item_local, name);
    let count_check = quote! {
        let count_ = u64::try_from(#count_local).unwrap_or(u64::MAX);
        #limit
        let n_ = rdr_.check_count(count_, #bytes, #count_name)?;
    };
    match target {
        ListTarget::Local => quote! {
            let #local = {
                #count_check
                let mut list_ = Vec::with_capacity(n_);
                for i_ in 0..n_ {
                    #dec
                    list_.push(#item_local);
                }
                list_
            };
        },
        ListTarget::InPlace => quote! {
            {
                #count_check
                let list_ = &mut self.#local;
                list_.clear();
                list_.reserve(n_);
                for i_ in 0..n_ {
                    #dec
                    list_.push(#item_local);
                }
            }
        },
    }
}

/// Statements encoding the count: the list's length.
pub fn encode_count(count: &FieldModel, c: &CountedModel) -> TokenStream {
    let list = ident(&c.rust_name);
    let t = count_int(count);
    quote!((self.#list.len() as #t).put(out);)
}

/// Statements encoding the list's items.
pub fn encode_list(c: &CountedModel, item: &FieldModel) -> TokenStream {
    let list = ident(&c.rust_name);
    let enc = encode_value(item, quote!(item_));
    quote!(for item_ in self.#list.iter() { #enc })
}

fn err(inst: &InstModel, field: &str, rule: &str) -> TokenStream {
    let name = &inst.doc_name;
    quote!(return Err(ValidationError { instruction: #name, field: #field, rule: #rule });)
}

/// The count's rules, on the list's length: it fits the count field, lies in the doc's range,
/// and (prefix) names no more parameters than the format lists.
pub fn validate_count(inst: &InstModel, count: &FieldModel, c: &CountedModel) -> TokenStream {
    let list = ident(&c.rust_name);
    let t = count_int(count);
    let fname = &c.count;
    let fits = err(
        inst,
        fname,
        &format!(
            "`{}` encodes the length of `{}`, which must fit its type",
            c.count, c.rust_name
        ),
    );
    let mut checks = vec![quote!(if n_ > (#t::MAX as usize) { #fits })];
    if let (Some(min), Some(max)) = (c.min, c.max) {
        let rule = c
            .range_sentence
            .clone()
            .unwrap_or_else(|| format!("[{min}-{max}]"));
        let e = err(inst, fname, &rule);
        let (min, max) = (min as usize, max as usize);
        checks.push(quote!(if n_ < #min || n_ > #max { #e }));
    }
    if c.kind == CountKind::Prefix {
        let k = c.items.len();
        let e = err(
            inst,
            fname,
            &format!("at most {k} parameters: the ones this format lists"),
        );
        checks.push(quote!(if n_ > #k { #e }));
    }
    quote! {
        let n_ = self.#list.len();
        #(#checks)*
    }
}

/// The items' own rules.
pub fn validate_list(inst: &InstModel, c: &CountedModel) -> TokenStream {
    let list = ident(&c.rust_name);
    let items: Vec<&FieldModel> = c.items.iter().filter_map(|i| inst.fields.get(i)).collect();
    match c.kind {
        CountKind::Repeat => {
            let Some(item) = items.first() else {
                return quote!();
            };
            let checks = validate_value(inst, item, quote!((*item_)));
            if checks.is_empty() {
                return quote!();
            }
            quote!(for item_ in self.#list.iter() { #checks })
        }
        CountKind::Prefix => {
            let each = items.iter().enumerate().filter_map(|(i, item)| {
                let checks = validate_value(inst, item, quote!((*item_)));
                (!checks.is_empty())
                    .then(|| quote!(if let Some(item_) = self.#list.get(#i) { #checks }))
            });
            quote!(#(#each)*)
        }
    }
}

/// For a prefix list: `PARAMS`, the parameter names in order, and one accessor per parameter.
pub fn accessors(inst: &InstModel, v: &VariantModel) -> TokenStream {
    let Some(c) = v.counted.iter().find(|c| c.kind == CountKind::Prefix) else {
        return quote!();
    };
    let list = ident(&c.rust_name);
    let names = &c.items;
    let doc = docs(&[format!(
        "The parameters after `{}`, as this format table lists them; `{}` holds the first `{}`.",
        c.count, c.rust_name, c.count
    )]);
    let fns = c.items.iter().enumerate().filter_map(|(i, name)| {
        let f = inst.fields.get(name)?;
        if RESERVED.contains(&f.rust_name.as_str()) {
            return None;
        }
        let m = ident(&f.rust_name);
        let t = field_type(inst, f);
        let d = docs(&[format!(
            "Parameter {i}, `{}`: {} `None` when fewer parameters are encoded.",
            f.doc_name,
            doc_text(&f.doc)
        )]);
        Some(quote!(#d pub fn #m(&self) -> Option<&#t> { self.#list.get(#i) }))
    });
    quote! {
        #doc
        pub const PARAMS: &'static [&'static str] = &[#(#names),*];
        #(#fns)*
    }
}
