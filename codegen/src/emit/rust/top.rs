//! The parent module: what spans instructions.

use super::{docs, ident, idents_in, use_only};
use crate::analyze::naming::type_name;
use crate::analyze::platform::Rule;
use crate::analyze::{InstModel, Model};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

/// The platform variant of a platform name.
pub fn platform_ident(p: &str) -> proc_macro2::Ident {
    ident(&type_name(p))
}

/// A boolean expression over `platform` that holds where `rule` allows.
pub fn rule_check(rule: &Rule) -> TokenStream {
    match rule {
        Rule::Since(p) => {
            let p = platform_ident(p);
            quote!(platform >= Platform::#p)
        }
        Rule::Before(p) => {
            let p = platform_ident(p);
            quote!(platform < Platform::#p)
        }
        Rule::Only(p) => {
            let p = platform_ident(p);
            quote!(platform == Platform::#p)
        }
        Rule::Any(rules) => {
            let checks: Vec<TokenStream> = rules.iter().map(rule_check).collect();
            match checks.as_slice() {
                [] => quote!(false),
                [one] => one.clone(),
                _ => quote!((#(#checks)||*)),
            }
        }
    }
}

/// A boolean expression over `platform` that holds where `rule` does not allow: the
/// negation of [`rule_check`], written without `!(...)`.
pub fn rule_fails(rule: &Rule) -> TokenStream {
    match rule {
        Rule::Since(p) => {
            let p = platform_ident(p);
            quote!(platform < Platform::#p)
        }
        Rule::Before(p) => {
            let p = platform_ident(p);
            quote!(platform >= Platform::#p)
        }
        Rule::Only(p) => {
            let p = platform_ident(p);
            quote!(platform != Platform::#p)
        }
        Rule::Any(rules) => {
            let fails: Vec<TokenStream> = rules.iter().map(rule_fails).collect();
            match fails.as_slice() {
                [] => quote!(true),
                [one] => one.clone(),
                _ => quote!((#(#fails)&&*)),
            }
        }
    }
}

/// Instructions that decode (aliases do not: their canonical twin does).
pub fn decodable(model: &Model) -> impl Iterator<Item = &InstModel> {
    model.instructions.iter().filter(|i| i.alias_of.is_none())
}

fn platform_enum(model: &Model) -> TokenStream {
    let names: Vec<String> = if model.platforms.is_empty() {
        vec!["Generic".to_string()]
    } else {
        model.platforms.clone()
    };
    let variants: Vec<_> = names.iter().map(|p| platform_ident(p)).collect();
    let docs_: Vec<TokenStream> = names.iter().map(|p| docs(&[format!("`{p}`")])).collect();
    let texts = names.clone();
    let note = if model.platforms.is_empty() {
        " No doc names a platform: every rule holds everywhere."
    } else {
        " The platforms the docs name, oldest first, behind `pre-<oldest>` for every older generation. `{XEHP+}` means XEHP and later; `{-PVC}` and `{pre-PVC}` the platforms before PVC (the docs write `{-PVC}For pre-PVC platforms`); `{PVC}` PVC only; `{PVC+,-TGLLP}` any of its parts. Intel's names (`SKL`, `DG2`, `acm-g10`, `PVCXT`) map to these by `Platform::from_name` (the table of `runtime::platform`)."
    };
    quote! {
        #[doc = " A hardware platform, for [`Instruction::validate`]."]
        #[doc = ""]
        #[doc = #note]
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Platform { #(#docs_ #variants,)* }

        impl Platform {
            /// Every platform, oldest first.
            pub const ALL: &'static [Platform] = &[#(Platform::#variants,)*];
            /// The name the docs use.
            pub fn name(self) -> &'static str {
                match self { #(Platform::#variants => #texts,)* }
            }
        }
    }
}

fn opcode_enum(model: &Model) -> TokenStream {
    // One entry per opcode value; instructions sharing it (sub-opcodes) share the entry.
    let mut by_value: BTreeMap<u8, String> = BTreeMap::new();
    for i in decodable(model) {
        by_value
            .entry(i.opcode)
            .or_insert_with(|| i.opcode_name.clone());
    }
    let variants: BTreeMap<u8, &str> = decodable(model)
        .map(|i| (i.opcode, i.opcode_variant.as_str()))
        .collect();
    let names: Vec<_> = variants.values().map(|n| ident(n)).collect();
    let values: Vec<_> = by_value.keys().map(|v| super::hex(u64::from(*v))).collect();
    let mnemonics: Vec<&String> = by_value.values().collect();
    let opdocs: Vec<TokenStream> = by_value
        .iter()
        .map(|(v, n)| docs(&[format!("`{n}` = {v:#04x}.")]))
        .collect();
    quote! {
        /// An opcode byte: the first byte of every instruction.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode { #(#opdocs #names = #values,)* }

        impl Opcode {
            /// Every opcode, by value.
            pub const ALL: &'static [Opcode] = &[#(Opcode::#names,)*];
            /// The opcode byte.
            pub fn value(self) -> u8 { self as u8 }
            /// The name the docs give it.
            pub fn mnemonic(self) -> &'static str {
                match self { #(Opcode::#names => #mnemonics,)* }
            }
        }

        impl TryFrom<u8> for Opcode {
            type Error = DecodeError;
            fn try_from(v: u8) -> Result<Opcode, DecodeError> {
                match v {
                    #(#values => Ok(Opcode::#names),)*
                    _ => Err(DecodeError::new("opcode", 0, DecodeErrorKind::UnknownOpcode(v))),
                }
            }
        }
    }
}

/// How one dispatch arm builds the instruction: a value, or in place into `out`.
#[derive(Clone, Copy)]
enum Arm {
    Value,
    /// `only`: the docs define one instruction, so `out` always holds its variant.
    InPlace {
        only: bool,
    },
}

impl Arm {
    fn build(self, ty: &proc_macro2::Ident) -> TokenStream {
        match self {
            Arm::Value => quote!(Instruction::#ty(#ty::decode_fields(&mut r)?)),
            // Makes `out` the variant (keeping it when it already is) and decodes the fields
            // into it, so that no whole instruction is moved.
            Arm::InPlace { only: true } => quote!({
                let Instruction::#ty(x_) = out;
                x_.decode_fields_into(&mut r)?;
            }),
            Arm::InPlace { only: false } => quote!({
                if !matches!(out, Instruction::#ty(_)) {
                    *out = const { Instruction::#ty(#ty::PLACEHOLDER) };
                }
                if let Instruction::#ty(x_) = out {
                    x_.decode_fields_into(&mut r)?;
                }
            }),
        }
    }
}

/// The `match opcode` arms of the decoder.
fn dispatch_arms(model: &Model, arm: Arm) -> Vec<TokenStream> {
    let mut by_opcode: BTreeMap<u8, Vec<&InstModel>> = BTreeMap::new();
    for i in decodable(model) {
        by_opcode.entry(i.opcode).or_default().push(i);
    }
    let mut arms = left_out_arms(model, &by_opcode);
    arms.extend(by_opcode.iter().map(|(op, insts)| {
        let op_lit = super::hex(u64::from(*op));
        let subs: Vec<&&InstModel> = insts.iter().filter(|i| i.sub_opcode.is_some()).collect();
        let generic = insts.iter().find(|i| i.sub_opcode.is_none());
        if subs.is_empty() {
            let i = generic.copied().or(insts.first().copied());
            let Some(i) = i else { return quote!() };
            let build = arm.build(&ident(&i.rust_name));
            return quote!(#op_lit => #build,);
        }
        let sub_arms = subs.iter().map(|i| {
            let build = arm.build(&ident(&i.rust_name));
            let sub = super::hex(u64::from(i.sub_opcode.unwrap_or(0)));
            quote!(Some(#sub) => {
                r.take(1, "sub_opcode")?;
                #build
            })
        });
        let left_out = model.left_out.iter().filter_map(|l| {
            let sub = l.sub_opcode.filter(|s| l.opcode == Some(*op) && !subs.iter().any(|i| i.sub_opcode == Some(*s)))?;
            let sub = super::hex(u64::from(sub));
            let err = left_out_error(l, *op);
            Some(quote!(Some(#sub) => return Err(#err),))
        });
        let fallback = match generic {
            Some(g) => {
                let build = arm.build(&ident(&g.rust_name));
                quote!(_ => #build,)
            }
            None => quote! {
                Some(sub) => return Err(DecodeError::new("sub_opcode", 1, DecodeErrorKind::UnknownSubOpcode { opcode: #op_lit, sub_opcode: sub })),
                None => return Err(DecodeError::new("sub_opcode", 1, DecodeErrorKind::UnexpectedEnd { needed: 1, available: 0 })),
            },
        };
        quote!(#op_lit => match r.remaining().first().copied() {
            #(#sub_arms)*
            #(#left_out)*
            #fallback
        },)
    }));
    arms
}

/// Arms for the opcodes of docs left out (and of no doc kept): an error naming the doc.
fn left_out_arms(model: &Model, kept: &BTreeMap<u8, Vec<&InstModel>>) -> Vec<TokenStream> {
    let mut by_opcode: BTreeMap<u8, Vec<&crate::analyze::LeftOutDoc>> = BTreeMap::new();
    for l in &model.left_out {
        if let Some(op) = l.opcode.filter(|op| !kept.contains_key(op)) {
            by_opcode.entry(op).or_default().push(l);
        }
    }
    by_opcode
        .iter()
        .map(|(op, docs)| {
            let op_lit = super::hex(u64::from(*op));
            let whole = docs
                .iter()
                .find(|l| l.sub_opcode.is_none())
                .unwrap_or(&docs[0]);
            let err = left_out_error(whole, *op);
            let subs: Vec<TokenStream> = docs
                .iter()
                .filter_map(|l| {
                    let sub = super::hex(u64::from(l.sub_opcode?));
                    let err = left_out_error(l, *op);
                    Some(quote!(Some(#sub) => return Err(#err),))
                })
                .collect();
            if subs.len() < 2 {
                return quote!(#op_lit => return Err(#err),);
            }
            quote!(#op_lit => match r.remaining().first().copied() {
                #(#subs)*
                _ => return Err(#err),
            },)
        })
        .collect()
}

/// `DecodeError` of a left-out doc's opcode.
fn left_out_error(l: &crate::analyze::LeftOutDoc, op: u8) -> TokenStream {
    let (doc, why) = (&l.doc, &l.why);
    let op = super::hex(u64::from(op));
    quote!(DecodeError::new("opcode", 0, DecodeErrorKind::LeftOut { opcode: #op, doc: #doc, why: #why }))
}

fn decode_fn(model: &Model) -> TokenStream {
    let arms = dispatch_arms(model, Arm::Value);
    let only = decodable(model).count() == 1;
    let in_place_arms = dispatch_arms(model, Arm::InPlace { only });
    let placeholder = match decodable(model).next() {
        Some(i) => {
            let ty = ident(&i.rust_name);
            quote!(Some(Instruction::#ty(#ty::PLACEHOLDER)))
        }
        None => quote!(None),
    };
    quote! {
        /// Decodes one instruction from the start of `bytes`: the instruction and how many
        /// bytes it took. Never panics; every failure names the field, its byte offset, and why.
        pub fn decode(bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
            let mut r = Reader::new(bytes);
            let opcode = <u8 as Decode>::decode(&mut r, "opcode")?;
            let inst = match opcode {
                #(#arms)*
                other => return Err(DecodeError::new("opcode", 0, DecodeErrorKind::UnknownOpcode(other))),
            };
            Ok((inst, r.position()))
        }

        /// An instruction for [`decode_into`] to overwrite, copied from a constant; `None` when
        /// the docs define no instruction.
        pub(crate) const PLACEHOLDER: Option<Instruction> = #placeholder;

        /// Decodes one instruction from the start of `bytes` into `out`, the same instruction
        /// [`decode`] returns, and how many bytes it took.
        ///
        /// Fields are stored into `out` as they are read, rather than built into a value that
        /// is then moved: the fastest way to walk a stream (see [`crate::runtime::Decoder`]).
        /// On error, `out` holds some valid instruction, no longer the one it held.
        pub fn decode_into(bytes: &[u8], out: &mut Instruction) -> Result<usize, DecodeError> {
            let mut r = Reader::new(bytes);
            let opcode = <u8 as Decode>::decode(&mut r, "opcode")?;
            match opcode {
                #(#in_place_arms)*
                other => return Err(DecodeError::new("opcode", 0, DecodeErrorKind::UnknownOpcode(other))),
            }
            Ok(r.position())
        }
    }
}

/// The whole parent module.
pub fn render(model: &Model) -> TokenStream {
    let modules = module_decls(model);
    let platform = platform_enum(model);
    let opcode = opcode_enum(model);
    let instruction = instruction_enum(model);
    let decode = decode_fn(model);
    let execute = execute_trait(model);
    let code = quote! {
        #modules

        #platform
        #opcode
        #instruction
        #decode
        #execute
    };
    let used = idents_in(&code);
    let runtime = use_only(
        quote!(crate::runtime),
        &[
            "Decode",
            "DecodeError",
            "DecodeErrorKind",
            "Reader",
            "Staging",
            "ValidationError",
        ],
        &used,
    );
    quote! {
        //! Generated from the opcode docs: one module per doc, and what spans them.
        #runtime
        use alloc::vec::Vec;
        #code
    }
}

/// The submodules (the shared ones, the object records', one per doc) and the re-export of
/// each instruction's type.
fn module_decls(model: &Model) -> TokenStream {
    let mods = model.instructions.iter().map(|i| {
        let m = ident(&i.module);
        let doc = format!(" `{}` ({}).", i.doc_name, i.source);
        quote!(#[doc = #doc] pub mod #m;)
    });
    let object = if model.object.is_some() {
        quote!(
            /// Records of the object-format chapter.
            pub mod object;
        )
    } else {
        quote!()
    };
    let uses = model.instructions.iter().map(|i| {
        let m = ident(&i.module);
        let t = ident(&i.rust_name);
        quote!(pub use #m::#t;)
    });
    quote! {
        pub mod enums;
        pub mod operands;
        pub mod semantics;
        pub mod text;
        pub use semantics::interpret;
        pub use text::parse_instruction;
        #[cfg(test)]
        mod roundtrip;
        #object
        #(#mods)*
        #(#uses)*
    }
}

/// `Instruction`, the enum of every instruction that decodes, with its name, opcode, encode
/// and validate.
fn instruction_enum(model: &Model) -> TokenStream {
    let insts: Vec<&InstModel> = decodable(model).collect();
    let tys: Vec<_> = insts.iter().map(|i| ident(&i.rust_name)).collect();
    let names: Vec<&str> = insts.iter().map(|i| i.doc_name.as_str()).collect();
    let opnames: Vec<_> = insts.iter().map(|i| ident(&i.opcode_variant)).collect();
    let variant_docs = insts.iter().map(|i| {
        docs(&[format!(
            "`{}`, opcode {:#04x}{}.",
            i.doc_name,
            i.opcode,
            i.sub_opcode
                .map(|s| format!(" sub-opcode {s:#04x}"))
                .unwrap_or_default()
        )])
    });
    quote! {
        /// Any instruction of the spec.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Instruction { #(#variant_docs #tys(#tys),)* }

        impl Instruction {
            /// The names of every instruction that decodes, by opcode.
            pub const NAMES: &'static [&'static str] = &[#(#names,)*];

            /// The name the docs give the instruction.
            pub fn name(&self) -> &'static str {
                match self { #(Instruction::#tys(_) => #names,)* }
            }
            /// The opcode byte's meaning.
            pub fn opcode(&self) -> Opcode {
                match self { #(Instruction::#tys(_) => Opcode::#opnames,)* }
            }
            /// Appends the vISA binary form.
            pub fn encode(&self, out: &mut Vec<u8>) {
                self.put(&mut Staging::new(out));
            }
            /// Writes the vISA binary form into `out` (see [`crate::runtime::Encoder`]).
            pub fn put(&self, out: &mut Staging<'_>) {
                match self { #(Instruction::#tys(i) => i.put(out),)* }
            }
            /// Checks every rule the instruction's doc states, for `platform`.
            pub fn validate(&self, platform: Platform) -> Result<(), ValidationError> {
                match self { #(Instruction::#tys(i) => i.validate(platform),)* }
            }
        }
    }
}

/// The `Execute` trait, one method per instruction, and `dispatch`.
fn execute_trait(model: &Model) -> TokenStream {
    let insts: Vec<&InstModel> = decodable(model).collect();
    let tys: Vec<_> = insts.iter().map(|i| ident(&i.rust_name)).collect();
    let methods: Vec<_> = insts.iter().map(|i| ident(&i.execute_method)).collect();
    let method_docs = insts
        .iter()
        .map(|i| docs(&[format!("Executes `{}`.", i.doc_name)]));
    quote! {
        /// One method per instruction, all required: when a spec change adds an instruction,
        /// every implementation stops compiling until it handles it.
        pub trait Execute {
            /// What executing an instruction returns.
            type Output;
            #(#method_docs fn #methods(&mut self, inst: &#tys) -> Self::Output;)*
        }

        /// Calls the [`Execute`] method of `inst`'s instruction.
        pub fn dispatch<E: Execute + ?Sized>(inst: &Instruction, exec: &mut E) -> E::Output {
            match inst { #(Instruction::#tys(i) => exec.#methods(i),)* }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_checks_compare_platforms() {
        assert_eq!(
            rule_check(&Rule::Since("XEHP".into())).to_string(),
            "platform >= Platform :: Xehp"
        );
        assert_eq!(
            rule_check(&Rule::Before("ICLLP".into())).to_string(),
            "platform < Platform :: Icllp"
        );
        assert_eq!(
            rule_check(&Rule::Only("PVC".into())).to_string(),
            "platform == Platform :: Pvc"
        );
        assert_eq!(
            rule_check(&Rule::Any(vec![
                Rule::Since("PVC".into()),
                Rule::Before("TGLLP".into())
            ]))
            .to_string(),
            "(platform >= Platform :: Pvc || platform < Platform :: Tgllp)"
        );
        assert_eq!(
            rule_fails(&Rule::Any(vec![
                Rule::Since("PVC".into()),
                Rule::Before("TGLLP".into())
            ]))
            .to_string(),
            "(platform < Platform :: Pvc && platform >= Platform :: Tgllp)"
        );
    }

    #[test]
    fn literals_are_unsuffixed() {
        assert_eq!(super::super::lit(5).to_string(), "5");
    }
}
