//! `src/generated/operands.rs`: what routine-level validation (`visa::object::verify`) needs
//! of each instruction and cannot get from its bytes alone: which fields are operands (with
//! their doc names, so a destination is told from a source), the exec size, the predicate,
//! the index fields (labels, surfaces, samplers), and the doc's operand type maps with both
//! their `Dst types` and `Src types` (a destination's type is its variable's, so only a
//! routine can check it).

use super::top::{decodable, rule_check};
use super::{ident, lit, uses_ident};
use crate::analyze::{
    FieldModel, FieldType, InstModel, Int, MemberType, Model, Slot, VariantModel,
};
use proc_macro2::TokenStream;
use quote::quote;

/// The file: three `match`es over every instruction, each instruction's arm in each.
pub fn tokens(model: &Model) -> TokenStream {
    let insts: Vec<&InstModel> = decodable(model).collect();
    let visit: Vec<TokenStream> = insts.iter().map(|i| visit_arm(i).0).collect();
    let visit = quote!(#(#visit,)*);
    let maps: Vec<TokenStream> = insts.iter().map(|i| listed_arm(i, type_maps(i))).collect();
    let maps = quote!(#(#maps)*);
    let lists: Vec<TokenStream> = insts
        .iter()
        .map(|i| listed_arm(i, operand_types(i)))
        .collect();
    let lists = quote!(#(#lists)*);
    let uses = (
        uses_ident(&visit, "v"),
        uses_ident(&maps, "TypeMap"),
        uses_ident(&lists, "OperandTypes"),
    );
    file(uses, [visit, maps, lists])
}

/// `Instruction::X(_) => list,`: an empty slice when the instruction lists nothing.
fn listed_arm(inst: &InstModel, list: TokenStream) -> TokenStream {
    let ty = ident(&inst.rust_name);
    if list.is_empty() {
        quote!(Instruction::#ty(_) => &[],)
    } else {
        quote!(Instruction::#ty(_) => #list,)
    }
}

/// The file's tokens around the `arms` of its three `match`es; what the arms use decides the
/// imports and the visitor's name: whether some instruction visits a field, has a type map,
/// has a "Must have type" list.
fn file(
    (visit, any_map, any_list): (bool, bool, bool),
    [visit_arms, map_arms, list_arms]: [TokenStream; 3],
) -> TokenStream {
    // The visitor is named only where some instruction visits a field (no unused variable).
    let param = if visit { quote!(v) } else { quote!(_v) };
    // Data types are named only by type maps and "Must have type" lists, platforms only by
    // type maps.
    let platform_use = if any_map {
        quote!(
            use super::Platform;
        )
    } else {
        quote!()
    };
    let map_uses = if any_map || any_list {
        quote!(
            use crate::runtime::DataType;
            #platform_use
        )
    } else {
        quote!()
    };
    quote! {
        //! Operands, exec size, predicate and index fields of every instruction, and each
        //! doc's operand type maps: what `visa::object::verify` checks against a routine.
        use crate::runtime::{OperandTypes, OperandVisitor, TypeMap};
        #map_uses
        use super::Instruction;

        impl Instruction {
            /// Calls `v` with every field, in format order, by doc name: the exec size (raw
            /// byte), the predicate, vector and raw operands (list items one by one),
            /// whole-field integers, enumerated and bit-packed fields (raw bits, then each
            /// member) and fields the doc leaves open (their bytes). A counted list's count
            /// is its length, not visited.
            pub fn visit_operands<V: OperandVisitor + ?Sized>(&self, #param: &mut V) {
                match self { #visit_arms }
            }

            /// The `#### Operand type maps` of the instruction's doc: any map available on
            /// the platform may hold; an empty slice when the doc has none.
            pub fn type_maps(&self) -> &'static [TypeMap] {
                match self { #map_arms }
            }

            /// The "Must have type" list of each vector operand whose doc has one, in field
            /// order: `validate` checks an immediate's type against it, a routine its
            /// register operands' declared types.
            pub fn operand_types(&self) -> &'static [OperandTypes] {
                match self { #list_arms }
            }
        }
    }
}

/// The match arm visiting an instruction's fields, and whether it visits any.
fn visit_arm(inst: &InstModel) -> (TokenStream, bool) {
    let ty = ident(&inst.rust_name);
    let bind = |body: &TokenStream| {
        if body.is_empty() {
            quote!(_)
        } else {
            quote!(s)
        }
    };
    if inst.variants.len() <= 1 {
        let none = VariantModel::default();
        let v = inst.variants.first().unwrap_or(&none);
        let body = visit_variant(inst, v);
        let s = bind(&body);
        let used = !body.is_empty();
        return (quote!(Instruction::#ty(#s) => { #body }), used);
    }
    let mut used = false;
    let arms: Vec<TokenStream> = inst
        .variants
        .iter()
        .map(|v| {
            let vn = ident(&v.rust_name);
            let body = visit_variant(inst, v);
            used |= !body.is_empty();
            let s = bind(&body);
            quote!(super::#ty::#vn(#s) => { #body })
        })
        .collect();
    (quote!(Instruction::#ty(i) => match i { #(#arms,)* }), used)
}

/// Statements visiting the fields of one variant's struct `s`.
fn visit_variant(inst: &InstModel, v: &VariantModel) -> TokenStream {
    let mut out = Vec::new();
    for (_, slot) in v.slots(inst) {
        match slot {
            Slot::Field(f) => {
                let n = ident(&f.rust_name);
                out.push(visit_value(f, quote!(s.#n)));
            }
            Slot::List(c, item) => {
                let n = ident(&c.rust_name);
                // Items are references: operands are passed on, integers copied.
                let each = match item.ty {
                    FieldType::Vector => {
                        let name = item.doc_name.as_str();
                        quote!(v.vector(#name, x);)
                    }
                    FieldType::Raw => {
                        let name = item.doc_name.as_str();
                        quote!(v.raw(#name, x);)
                    }
                    // Methods see through the reference; casts and calls take the value.
                    FieldType::Bits { .. } | FieldType::Enum(..) => visit_value(item, quote!(x)),
                    _ => visit_value(item, quote!(*x)),
                };
                if !each.is_empty() {
                    out.push(quote!(for x in s.#n.iter() { #each }));
                }
            }
            Slot::Count(..) => {}
        }
    }
    quote!(#(#out)*)
}

/// Statements visiting the value `x` of field `f`'s type: every field is visited, so
/// hand-written code (the machine, its messages) can read any field by doc name.
fn visit_value(f: &FieldModel, x: TokenStream) -> TokenStream {
    let name = f.doc_name.as_str();
    let exec = name.eq_ignore_ascii_case("exec_size");
    match &f.ty {
        FieldType::Vector => quote!(v.vector(#name, &#x);),
        FieldType::Raw => quote!(v.raw(#name, &#x);),
        FieldType::Predicate => quote!(v.predicate(#name, #x);),
        FieldType::Bits { base: Int::U8, .. } if exec => quote!(v.exec_size(#x.to_raw());),
        FieldType::Bits { .. } if exec => quote!(v.exec_size(#x.to_raw() as u8);),
        FieldType::Enum(..) if exec => quote!(v.exec_size(#x.bits() as u8);),
        FieldType::Int(Int::U8) if exec => quote!(v.exec_size(#x);),
        FieldType::Int(_) if exec => quote!(v.exec_size(#x as u8);),
        FieldType::Int(Int::U32) => quote!(v.index(#name, #x);),
        FieldType::Int(Int::I32) => quote!(v.index(#name, #x as u32);),
        FieldType::Int(Int::U64) => quote!(v.value(#name, #x);),
        FieldType::Int(_) => quote!(v.index(#name, u32::from(#x));),
        FieldType::Enum(..) => quote!(v.value(#name, #x.bits());),
        FieldType::Bits { members, .. } => {
            // The whole field, then each `Bit[hi..lo]` member by its name.
            let each = members.iter().map(|m| {
                let (mn, mname) = (ident(&m.name), m.name.as_str());
                match m.ty {
                    MemberType::Enum(_) => quote!(v.member(#name, #mname, #x.#mn.bits());),
                    MemberType::Int => quote!(v.member(#name, #mname, u64::from(#x.#mn));),
                }
            });
            quote!(v.value(#name, u64::from(#x.to_raw())); #(#each)*)
        }
        FieldType::Rest => quote!(v.rest(#name, &#x);),
    }
}

/// The "Must have type" lists of the instruction's vector operands as a static slice of
/// `OperandTypes`, in format order, or nothing when no operand has one.
fn operand_types(inst: &InstModel) -> TokenStream {
    let source = inst.source.as_str();
    let mut seen = std::collections::BTreeSet::new();
    let mut lists = Vec::new();
    for v in &inst.variants {
        for (_, slot) in v.slots(inst) {
            let f = match slot {
                Slot::Field(f) => f,
                Slot::List(_, item) => item,
                Slot::Count(..) => continue,
            };
            if !matches!(f.ty, FieldType::Vector) || f.types.is_empty() || !seen.insert(&f.doc_name)
            {
                continue;
            }
            let types = f.types.iter().map(|t| {
                let id = ident(crate::vocab::data_type(t).map_or(t.as_str(), |d| d.variant));
                quote!(DataType::#id)
            });
            let rule = f
                .type_rule
                .clone()
                .unwrap_or_else(|| format!("Must have type {}", f.types.join(",")));
            let field = f.doc_name.as_str();
            // An operand class list marks an instruction operand (`Dst`, `Src0`); a bullet
            // without one is a message parameter (`Offset(scalar)`).
            let operand = !f.classes.is_empty();
            lists.push(quote! {
                OperandTypes { source: #source, field: #field, types: &[#(#types),*], rule: #rule, operand: #operand }
            });
        }
    }
    if lists.is_empty() {
        return quote!();
    }
    quote!(&[#(#lists),*])
}

/// The instruction's type maps as a static slice of `TypeMap`s, or nothing when it has none
/// (the analysis keeps none of a doc whose maps it cannot check).
fn type_maps(inst: &InstModel) -> TokenStream {
    let source = inst.source.as_str();
    let mut maps = Vec::new();
    for m in &inst.type_maps {
        let applies = match &m.rule {
            None => quote!(|_platform: Platform| true),
            Some(rule) => {
                let check = rule_check(rule);
                quote!(|platform: Platform| #check)
            }
        };
        let types = |list: &[String]| {
            let v = list.iter().map(|t| {
                let id = ident(crate::vocab::data_type(t).map_or(t.as_str(), |d| d.variant));
                quote!(DataType::#id)
            });
            quote!(&[#(#v),*])
        };
        let (d, s) = (types(&m.dst), types(&m.src));
        let line = lit(u64::from(m.line));
        maps.push(quote! {
            TypeMap { source: #source, line: #line, applies: #applies, dst: #d, src: #s }
        });
    }
    if maps.is_empty() {
        return quote!();
    }
    quote!(&[#(#maps),*])
}
