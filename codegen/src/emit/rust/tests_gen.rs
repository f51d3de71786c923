//! The generated crate's property tests: per instruction (and per decodable variant), every
//! valid value encodes, decodes back equal from exactly its bytes, and validates; arbitrary
//! bytes never panic the decoder.

use super::top::decodable;
use super::{ident, int_ty};
use crate::analyze::{
    CountKind, CountedModel, FieldModel, FieldType, InstModel, MemberType, Model, Slot,
    VariantModel,
};
use proc_macro2::TokenStream;
use quote::quote;

/// Path of an item of an instruction's module, from the test crate.
fn path(inst: &InstModel, name: &str) -> TokenStream {
    let m = ident(&inst.module);
    let n = ident(name);
    quote!(crate::generated::#m::#n)
}

fn enum_path(inst: &InstModel, e: usize) -> TokenStream {
    let def = &inst.enums[e];
    if def.shared {
        let n = ident(&def.name);
        quote!(crate::generated::enums::#n)
    } else {
        path(inst, &def.name)
    }
}

/// All values of enum `e`, less those on no platform of the instruction (`InstModel::nowhere`).
fn values(inst: &InstModel, e: usize) -> TokenStream {
    let en = enum_path(inst, e);
    let gone: Vec<TokenStream> = inst
        .nowhere
        .iter()
        .filter(|(i, _)| *i == e)
        .map(|(_, v)| {
            let v = ident(v);
            quote!(#en::#v)
        })
        .collect();
    if gone.is_empty() {
        quote!(#en::ALL.to_vec())
    } else {
        quote!(#en::ALL.iter().copied().filter(|v| !matches!(v, #(#gone)|*)).collect::<Vec<_>>())
    }
}

/// Values a variant's selector allows for (field, member), if restricted.
fn restricted(
    inst: &InstModel,
    v: &VariantModel,
    field: &str,
    member: Option<&str>,
) -> Option<TokenStream> {
    let c = v
        .choices
        .iter()
        .find(|c| c.field == field && c.member.as_deref() == member && !c.values.is_empty())?;
    let en = enum_path(inst, c.enum_index);
    let vals = c.values.iter().map(|x| {
        let x = ident(x);
        quote!(#en::#x)
    });
    Some(quote!(proptest::sample::select(vec![#(#vals),*])))
}

/// Immediate types to generate for an operand: its own "Must have type" list, else for a
/// source the types of the type maps that hold everywhere (so every value validates on some
/// platform whatever the other fields hold), else the `{X+}` maps' (valid on the newest).
fn test_types(inst: &InstModel, f: &FieldModel) -> Vec<String> {
    use crate::analyze::platform::Rule;
    if !f.types.is_empty() || !super::field::is_source(&f.doc_name) {
        return f.types.clone();
    }
    let pick = |keep: &dyn Fn(&Option<Rule>) -> bool| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for m in inst.src_type_maps.iter().filter(|m| keep(&m.rule)) {
            for t in &m.types {
                if !out.contains(t) {
                    out.push(t.clone());
                }
            }
        }
        out
    };
    let everywhere = pick(&|r| r.is_none());
    if everywhere.is_empty() {
        pick(&|r| matches!(r, Some(Rule::Since(_))))
    } else {
        everywhere
    }
}

fn strategy(inst: &InstModel, v: &VariantModel, f: &FieldModel) -> TokenStream {
    match &f.ty {
        FieldType::Int(i) => {
            let t = int_ty(*i);
            if f.nonzero.is_some() {
                quote!((1..=#t::MAX))
            } else {
                quote!(any::<#t>())
            }
        }
        FieldType::Enum(_, e) => restricted(inst, v, &f.doc_name, None).unwrap_or_else(|| {
            let all = values(inst, *e);
            quote!(proptest::sample::select(#all))
        }),
        FieldType::Bits {
            base,
            name,
            members,
            ..
        } => {
            let raw = int_ty(base.unsigned());
            let sn = if f.shared_struct {
                let n = ident(name);
                quote!(crate::generated::enums::#n)
            } else {
                path(inst, name)
            };
            let names: Vec<_> = members.iter().map(|m| ident(&m.name)).collect();
            let strats = members.iter().map(|m| match &m.ty {
                MemberType::Enum(e) => {
                    let s = restricted(inst, v, &f.doc_name, Some(&m.name)).unwrap_or_else(|| {
                        let all = values(inst, *e);
                        quote!(proptest::sample::select(#all))
                    });
                    if m.nonzero.is_some() {
                        quote!(#s.prop_filter("nonzero", |x| x.bits() != 0).boxed())
                    } else {
                        quote!(#s.boxed())
                    }
                }
                MemberType::Int => {
                    // Literals suffixed with the member's type (`0u8..=0xfu8`), no casts.
                    let suffixed = |v: String| -> TokenStream {
                        format!("{v}{raw}").parse().unwrap_or_else(|_| quote!(0))
                    };
                    let lo = suffixed(u64::from(m.nonzero.is_some()).to_string());
                    let mask = suffixed(format!("{:#x}", m.mask()));
                    quote!((#lo..=#mask).boxed())
                }
            });
            quote! {
                (#(#strats,)*).prop_map(|(#(#names,)*)| #sn { #(#names,)* reserved: 0 })
            }
        }
        FieldType::Predicate => quote!(support::predicate()),
        FieldType::Vector => {
            let classes = &f.classes;
            let types = &test_types(inst, f);
            quote!(support::vector_operand(&[#(#classes),*], &[#(#types),*]))
        }
        FieldType::Raw => quote!(support::raw_operand()),
        FieldType::Rest => quote!(proptest::collection::vec(any::<u8>(), 0..8)),
    }
}

/// Lists of a length the count's rules allow (short, to keep cases small), of the first
/// item's values.
fn list_strategy(
    inst: &InstModel,
    v: &VariantModel,
    c: &CountedModel,
    item: &FieldModel,
) -> TokenStream {
    let lo = c.min.unwrap_or(0);
    let mut hi = c.max.unwrap_or(lo + 4).min(lo + 4);
    if c.kind == CountKind::Prefix {
        hi = hi.min(c.items.len() as u64);
    }
    let (lo, hi) = (lo as usize, hi.max(lo) as usize);
    let s = strategy(inst, v, item);
    let vec = quote!(proptest::collection::vec(#s, #lo..=#hi));
    match c.kind {
        CountKind::Repeat => vec,
        // At most the listed parameters, so every vector fits the inline list.
        CountKind::Prefix => {
            let owner = if inst.variants.len() > 1 {
                path(inst, &format!("{}{}", inst.rust_name, v.rust_name))
            } else {
                path(inst, &inst.rust_name)
            };
            let list = ident(&c.rust_name);
            quote! {
                #vec.prop_filter_map("no more parameters than listed", |items| {
                    let mut list = #owner::PLACEHOLDER.#list;
                    list.try_extend_from_slice(&items).ok().map(|()| list)
                })
            }
        }
    }
}

/// Nested tuples of at most eight strategies: proptest implements `Strategy` for tuples of up
/// to twelve.
fn tuple(items: Vec<TokenStream>, names: &[proc_macro2::Ident]) -> (TokenStream, TokenStream) {
    let chunks: Vec<(Vec<TokenStream>, Vec<proc_macro2::Ident>)> = items
        .chunks(8)
        .zip(names.chunks(8))
        .map(|(s, n)| (s.to_vec(), n.to_vec()))
        .collect();
    let strats = chunks.iter().map(|(s, _)| quote!((#(#s,)*)));
    let pats = chunks.iter().map(|(_, n)| quote!((#(#n,)*)));
    (quote!((#(#strats,)*)), quote!((#(#pats,)*)))
}

fn instruction_test(inst: &InstModel) -> TokenStream {
    let variants: Vec<&VariantModel> = inst.variants.iter().filter(|v| !v.shadowed).collect();
    let ty = path(inst, &inst.rust_name);
    let tests = variants.iter().enumerate().map(|(i, v)| {
        let members: Vec<(proc_macro2::Ident, TokenStream, Option<&FieldModel>)> = v
            .slots(inst)
            .into_iter()
            .filter_map(|(_, slot)| match slot {
                Slot::Field(f) => Some((ident(&f.rust_name), strategy(inst, v, f), Some(f))),
                Slot::List(c, item) => Some((ident(&c.rust_name), list_strategy(inst, v, c, item), None)),
                Slot::Count(..) => None,
            })
            .collect();
        let names: Vec<_> = members.iter().map(|m| m.0.clone()).collect();
        let first_ty = members.first().and_then(|m| m.2).map(|f| &f.ty);
        let mut strats: Vec<TokenStream> = members.iter().map(|m| m.1.clone()).collect();
        if !inst.claimed_subs.is_empty() {
            if let (Some(first), Some(FieldType::Int(_))) = (strats.first_mut(), first_ty) {
                let claimed = inst.claimed_subs.iter().map(|(v, _)| super::lit(u64::from(*v)));
                *first = quote!(#first.prop_filter("a sub-opcode another doc claims", |x| ![#(#claimed),*].contains(&u64::from(*x))));
            }
        }
        let build = if inst.variants.len() > 1 {
            let sn = path(inst, &format!("{}{}", inst.rust_name, v.rust_name));
            let vn = ident(&v.rust_name);
            quote!(#ty::#vn(#sn { #(#names,)* }))
        } else {
            quote!(#ty { #(#names,)* })
        };
        let test_name = if variants.len() > 1 {
            ident(&format!("{}_{}", inst.module, crate::analyze::naming::snake_name(&v.rust_name)))
        } else {
            ident(&inst.module)
        };
        let _ = i;
        let top = ident(&inst.rust_name);
        let body = if names.is_empty() {
            quote!(round_trip(crate::Instruction::#top(#build))?;)
        } else {
            let (s, p) = tuple(strats, &names);
            quote! {
                let strategy = #s;
                let mut runner = proptest::test_runner::TestRunner::new(config());
                runner.run(&strategy, |#p| round_trip(crate::Instruction::#top(#build))).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
        };
        quote! {
            #[test]
            fn #test_name() -> Result<(), TestCaseError> {
                #body
                Ok(())
            }
        }
    });
    quote!(#(#tests)*)
}

/// The whole test file: its head, each instruction's tests, its tail.
pub fn tokens(model: &Model) -> TokenStream {
    let tests: Vec<TokenStream> = decodable(model).map(instruction_test).collect();
    let tests = quote!(#(#tests)*);
    let (head, tail) = frame(super::uses_ident(&tests, "support"));
    quote! {
        #head
        #tests
        #tail
    }
}

/// The file around the instructions' tests: `(head, tail)`. Strategies of operands come from
/// `test_support` (`support`); a spec of plain fields needs none.
fn frame(support: bool) -> (TokenStream, TokenStream) {
    (frame_head(support), frame_tail())
}

/// The imports and the round-trip helpers each instruction's test calls.
fn frame_head(support: bool) -> TokenStream {
    let support = support.then(|| {
        quote!(
            use crate::test_support as support;
        )
    });
    quote! {
        //! Property tests of every generated instruction.

        #support
        use crate::{decode, Instruction, Platform};
        use alloc::format;
        use alloc::string::ToString;
        use alloc::vec;
        use alloc::vec::Vec;
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestCaseError};

        fn config() -> Config {
            Config { cases: 64, failure_persistence: None, ..Config::default() }
        }

        /// Encodes, decodes back from exactly the bytes written, and validates somewhere.
        fn round_trip(inst: Instruction) -> Result<(), TestCaseError> {
            let mut bytes = Vec::new();
            inst.encode(&mut bytes);
            let (back, used) = decode(&bytes).map_err(|e| TestCaseError::fail(format!("{e} in {bytes:02x?}")))?;
            prop_assert_eq!(used, bytes.len());
            prop_assert_eq!(&back, &inst);
            // A stream encoder writes the same bytes, also across its buffer's refills.
            let mut many = Vec::new();
            let mut encoder = crate::runtime::Encoder::new(&mut many);
            for _ in 0..20 {
                encoder.push(&inst);
            }
            drop(encoder);
            prop_assert_eq!(many, bytes.repeat(20));
            let results: Vec<_> = Platform::ALL.iter().map(|p| inst.validate(*p)).collect();
            prop_assert!(results.iter().any(Result::is_ok), "{:?} validates nowhere: {:?}", inst, results);
            text_round_trip(&inst)
        }

        /// Whatever prints as text parses back to the same instruction (names for labels and
        /// strings of the pool included, so calls and FCALL print).
        fn text_round_trip(inst: &Instruction) -> Result<(), TestCaseError> {
            let names = crate::runtime::text::TestNames;
            let mut text = alloc::string::String::new();
            if inst.print_text(&names, &mut text).is_ok() {
                let back = crate::parse_instruction(&text, &names);
                prop_assert_eq!(back.as_ref(), Ok(inst), "text `{}`", text);
            }
            Ok(())
        }
    }
}

/// The tests of the decoder on arbitrary bytes.
fn frame_tail() -> TokenStream {
    quote! {
        proptest! {
            #![proptest_config(Config { cases: 2048, failure_persistence: None, ..Config::default() })]
            #[test]
            fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..96)) {
                if let Ok((inst, used)) = decode(&bytes) {
                    prop_assert!(used >= 1 && used <= bytes.len());
                    let mut again = Vec::new();
                    inst.encode(&mut again);
                    prop_assert_eq!(&again[..], &bytes[..used]);
                }
            }

            /// Bytes after a known opcode reach the field decoders; whatever decodes (reserved
            /// bits included) encodes back to exactly the bytes it consumed.
            #[test]
            fn bytes_after_an_opcode_reencode_exactly(
                op in proptest::sample::select(crate::Opcode::ALL.to_vec()),
                tail in proptest::collection::vec(any::<u8>(), 0..96),
            ) {
                let mut bytes = vec![op.value()];
                bytes.extend_from_slice(&tail);
                if let Ok((inst, used)) = decode(&bytes) {
                    prop_assert_eq!(inst.opcode(), op);
                    let mut again = Vec::new();
                    inst.encode(&mut again);
                    prop_assert_eq!(&again[..], &bytes[..used]);
                }
            }

            /// Decoding into an instruction of any kind gives what `decode` gives, success or
            /// error. Small byte values make tags and counts valid often enough to succeed.
            #[test]
            fn decode_into_agrees_with_decode(
                ops in proptest::collection::vec(proptest::sample::select(crate::Opcode::ALL.to_vec()), 2),
                first in proptest::collection::vec(0u8..8, 0..96),
                second in proptest::collection::vec(0u8..8, 0..96),
            ) {
                let mut a = vec![ops[0].value()];
                a.extend_from_slice(&first);
                let mut b = vec![ops[1].value()];
                b.extend_from_slice(&second);
                if let Ok((mut slot, _)) = decode(&a) {
                    let into = crate::decode_into(&b, &mut slot).map(|used| (slot.clone(), used));
                    prop_assert_eq!(into, decode(&b));
                }
            }
        }
    }
}
