//! Counted lists: one list member per list, whose length is what the count field encodes.
//! The count is no member of its own, so the two can never disagree; decode reads exactly the
//! count's items after checking that the bytes left can hold them. A prefix list is an
//! `InlineList` (capacity: the parameters its format lists), a repeat a `Vec`.

use super::field::{decode_into, encode_via, field_type, placeholder, validate_value};
use super::{doc_text, docs, ident, int_ty, param};
use crate::analyze::{
    CountKind, CountedModel, FieldModel, FieldType, InstModel, Int, VariantModel,
};
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

/// The list member's type: a prefix list holds at most the parameters its format lists, so it
/// is an `InlineList` of that capacity (filling it never allocates); a repeat has no static
/// bound and is a `Vec`.
pub fn list_type(inst: &InstModel, c: &CountedModel, item: &FieldModel) -> TokenStream {
    let t = field_type(inst, item);
    match c.kind {
        CountKind::Repeat => quote!(Vec<#t>),
        CountKind::Prefix => {
            let n = proc_macro2::Literal::usize_unsuffixed(c.items.len());
            quote!(InlineList<#t, #n>)
        }
    }
}

/// An empty list of the member's type, usable in a const (`PLACEHOLDER`).
pub fn empty_list(inst: &InstModel, c: &CountedModel, item: &FieldModel) -> TokenStream {
    match c.kind {
        CountKind::Repeat => quote!(Vec::new()),
        CountKind::Prefix => {
            let filler = placeholder(inst, item);
            quote!(InlineList::new(#filler))
        }
    }
}

/// `list.get(i)`, `list.first()` for 0.
fn nth(list: TokenStream, i: usize) -> TokenStream {
    if i == 0 {
        quote!(#list.first())
    } else {
        quote!(#list.get(#i))
    }
}

/// The list member's declaration.
pub fn list_decl(inst: &InstModel, c: &CountedModel, item: &FieldModel) -> TokenStream {
    let name = ident(&c.rust_name);
    let t = list_type(inst, c, item);
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
    quote!(#doc pub #name: #t)
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
    let (limit, name, push) = item_steps(c, item, owner, &item_local);
    let dec = decode_into(inst, item, &item_local, name);
    // A negative count (a signed count field) is too large for any input.
    let count_u64 = match count.ty {
        FieldType::Int(Int::I32) => quote!(u64::try_from(#count_local).unwrap_or(u64::MAX)),
        _ => quote!(u64::from(#count_local)),
    };
    let count_check = quote! {
        let count_ = #count_u64;
        #limit
        let n_ = rdr_.check_count(count_, #bytes, #count_name)?;
    };
    let (new_list, refill) = match c.kind {
        CountKind::Prefix => {
            let empty = empty_list(inst, c, item);
            (quote!(let mut list_ = #empty;), quote!(list_.clear();))
        }
        CountKind::Repeat => (
            quote!(let mut list_ = Vec::with_capacity(n_);),
            quote!(list_.clear(); list_.reserve(n_);),
        ),
    };
    let i = param("i_", &dec);
    match target {
        ListTarget::Local => quote! {
            let #local = {
                #count_check
                #new_list
                for #i in 0..n_ {
                    #dec
                    #push
                }
                list_
            };
        },
        ListTarget::InPlace => quote! {
            {
                #count_check
                let list_ = &mut self.#local;
                #refill
                for #i in 0..n_ {
                    #dec
                    #push
                }
            }
        },
    }
}

/// What differs between the two kinds of list, for decoding: the check of the count against
/// the capacity, the name an item is decoded under, and the statement that adds `item_local`.
fn item_steps(
    c: &CountedModel,
    item: &FieldModel,
    owner: TokenStream,
    item_local: &proc_macro2::Ident,
) -> (TokenStream, TokenStream, TokenStream) {
    let count_name = &c.count;
    match c.kind {
        CountKind::Prefix => {
            let k = c.items.len() as u64;
            let expected = format!("at most {k}: the parameters this format lists");
            let too_many = quote! {
                DecodeError::new(#count_name, rdr_.position(), DecodeErrorKind::InvalidValue { value: count_, expected: #expected })
            };
            (
                quote! {
                    if count_ > #k {
                        return Err(#too_many);
                    }
                },
                quote!(#owner::PARAMS[i_]),
                // The count was checked against the capacity above; a full list is that error.
                quote!(list_.try_push(#item_local).map_err(|_| #too_many)?;),
            )
        }
        CountKind::Repeat => {
            let n = &item.doc_name;
            (quote!(), quote!(#n), quote!(list_.push(#item_local);))
        }
    }
}

/// Statements encoding the count: the list's length.
pub fn encode_count(count: &FieldModel, c: &CountedModel) -> TokenStream {
    let list = ident(&c.rust_name);
    let t = count_int(count);
    quote!(Encode::put(&(self.#list.len() as #t), out);)
}

/// Statements encoding the list's items.
pub fn encode_list(c: &CountedModel, item: &FieldModel) -> TokenStream {
    let list = ident(&c.rust_name);
    // `item_` is a reference already.
    let enc = encode_via(item, quote!(item_), quote!(item_));
    quote!(for item_ in self.#list.iter() { #enc })
}

fn err(inst: &InstModel, field: &str, rule: &str) -> TokenStream {
    let name = &inst.doc_name;
    quote!(return Err(ValidationError { instruction: #name, field: #field, rule: #rule });)
}

/// The count's rules, on the list's length: it fits the count field and lies in the doc's
/// range. (That a prefix names no more parameters than the format lists, its type ensures.)
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
        checks.push(quote!(if !(#min..=#max).contains(&n_) { #e }));
    }
    // A prefix list never holds more parameters than the format lists: its type cannot.
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
                (!checks.is_empty()).then(|| {
                    let get = nth(quote!(self.#list), i);
                    quote!(if let Some(item_) = #get { #checks })
                })
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
        let get = nth(quote!(self.#list), i);
        Some(quote!(#d pub fn #m(&self) -> Option<&#t> { #get }))
    });
    quote! {
        #doc
        pub const PARAMS: &'static [&'static str] = &[#(#names),*];
        #(#fns)*
    }
}

#[cfg(test)]
mod tests {
    use crate::emit::Options;

    /// A parameter list of three raw operands (the shape of `3D_LOAD`) and a jump table (the
    /// shape of `tests/specs/counted`), rendered to Rust with whitespace collapsed.
    fn render(name: &str, doc: &str) -> (String, String) {
        let model = crate::testing::doc(&format!("{name}.md"), doc)
            .readable()
            .model;
        let files = super::super::render(&model, &Options::default());
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let module = name.to_lowercase();
        (
            flat(&files[&format!("src/generated/{module}.rs")]),
            flat(&files["src/generated/roundtrip.rs"]),
        )
    }

    const PARAMS: &str = "## Opcode

  LDX = 0x70

## Format

| | | | | | |
| --- | --- | --- | --- | --- | --- |
| 0x70(LDX) | Dst | NumParams | U | V | R |

## Description

Loads.

- **Dst(raw_operand):** The destination
- **NumParams(ub):** number of additional parameters for this instruction. Valid values are [1-3]
- **U(raw_operand):** The first coordinate
- **V(raw_operand):** The second coordinate
- **R(raw_operand):** The third coordinate
";

    const TABLE: &str = "## Opcode

  JMPX = 0x5b

## Format

| | | | | | |
| --- | --- | --- | --- | --- | --- |
| 0x5b(JMPX) | Num_labels | Index | Label0 | LabelN | Label(Num_labels-1) |

## Description

Jumps.

- **Num_labels(ub):** Number of labels in the jump table. Must be in the range [1..32]
- **Index(ub):** The index of the label to jump to
- **Label0(uw):** The id of a label of the label table.
";

    #[test]
    fn a_prefix_list_is_inline_with_one_slot_per_listed_parameter() {
        let (code, tests) = render("LDX", PARAMS);
        assert!(code.contains("Encode, InlineList, RawOperand"), "{code}");
        assert!(
            code.contains("pub params: InlineList<RawOperand, 3>,"),
            "{code}"
        );
        assert!(
            code.contains("params: InlineList::new(RawOperand::PLACEHOLDER),"),
            "{code}"
        );
        // Decoding in place refills the list; the count is checked before anything is read.
        let check = code.find("if count_ > 3u64 {").expect("a capacity check");
        let refill = code.find("list_.clear();").expect("a refill");
        assert!(check < refill, "{code}");
        assert!(code.contains(".try_push(item_) .map_err("), "{code}");
        assert!(
            !code.contains("Vec<RawOperand>") && !code.contains("reserve("),
            "{code}"
        );
        // Validation keeps the doc's range; the capacity bounds the rest.
        assert!(
            code.contains("if !(1usize..=3usize).contains(&n_) {"),
            "{code}"
        );
        assert!(
            !code.contains("parameters: the ones this format lists"),
            "{code}"
        );
        // The property test draws at most the three listed parameters into the inline list.
        assert!(
            tests.contains("proptest::collection::vec(support::raw_operand(), 1usize..=3usize)"),
            "{tests}"
        );
        assert!(
            tests.contains("let mut list = crate::generated::ldx::Ldx::PLACEHOLDER.params;"),
            "{tests}"
        );
    }

    #[test]
    fn a_repeated_field_stays_a_vec() {
        let (code, _) = render("JMPX", TABLE);
        assert!(code.contains("pub label: Vec<u16>,"), "{code}");
        assert!(code.contains("label: Vec::new(),"), "{code}");
        assert!(!code.contains("InlineList"), "{code}");
    }
}
