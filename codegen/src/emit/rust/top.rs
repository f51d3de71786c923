//! The parent module: what spans instructions.

use super::{docs, ident, idents_in, use_only};
use crate::analyze::naming::type_name;
use crate::analyze::platform::Rule;
use crate::analyze::{InstModel, LeftOutDoc, Model};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{BTreeMap, BTreeSet};

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
        Rule::Inherited { holds, .. } => rule_check(holds),
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
        Rule::Inherited { holds, .. } => rule_fails(holds),
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

/// [`rule_fails`] as a whole condition (`if` wants no parentheses around its list).
pub fn rule_fails_bare(rule: &Rule) -> TokenStream {
    match rule.holds() {
        Rule::Any(rules) if rules.len() > 1 => {
            let fails = rules.iter().map(rule_fails);
            quote!(#(#fails)&&*)
        }
        _ => rule_fails(rule),
    }
}

/// Instructions that decode (aliases do not: their canonical twin does).
pub fn decodable(model: &Model) -> impl Iterator<Item = &InstModel> {
    model.instructions.iter().filter(|i| i.alias_of.is_none())
}

fn platform_enum(platforms: &[String]) -> TokenStream {
    let names: Vec<String> = if platforms.is_empty() {
        vec!["Generic".to_string()]
    } else {
        platforms.to_vec()
    };
    let variants: Vec<_> = names.iter().map(|p| platform_ident(p)).collect();
    let docs_: Vec<TokenStream> = names.iter().map(|p| docs(&[format!("`{p}`")])).collect();
    let texts = names.clone();
    let note = if platforms.is_empty() {
        " No doc names a platform: every rule holds everywhere."
    } else {
        " The platforms the docs name, oldest first, behind `pre-<oldest>` for every older generation. `{XEHP+}` means XEHP and later; `{-PVC}` and `{pre-PVC}` the platforms before PVC (the docs write `{-PVC}For pre-PVC platforms`); `{PVC}` PVC only; `{PVC+,-TGLLP}` any of its parts. Intel's names (`SKL`, `DG2`, `acm-g10`, `PVCXT`) map to these by `Platform::from_name` (the table of `runtime::platform`)."
    };
    quote! {
        #[doc = " A hardware platform, for [`Instruction::validate`]."]
        #[doc = ""]
        #[doc = #note]
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
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

/// `opcodes`: the opcode, its name and its variant of each instruction that decodes.
fn opcode_enum(opcodes: &[(u8, &str, &str)]) -> TokenStream {
    // One entry per opcode value; instructions sharing it (sub-opcodes) share the entry.
    let mut by_value: BTreeMap<u8, &str> = BTreeMap::new();
    for (op, name, _) in opcodes {
        by_value.entry(*op).or_insert(name);
    }
    let variants: BTreeMap<u8, &str> = opcodes.iter().map(|(op, _, v)| (*op, *v)).collect();
    let names: Vec<_> = variants.values().map(|n| ident(n)).collect();
    let values: Vec<_> = by_value.keys().map(|v| super::hex(u64::from(*v))).collect();
    let mnemonics: Vec<&str> = by_value.values().copied().collect();
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
#[derive(Clone, Copy, Debug)]
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

/// The instructions that decode, by opcode.
fn by_opcode(model: &Model) -> BTreeMap<u8, Vec<&InstModel>> {
    let mut by_opcode: BTreeMap<u8, Vec<&InstModel>> = BTreeMap::new();
    for i in decodable(model) {
        by_opcode.entry(i.opcode).or_default().push(i);
    }
    by_opcode
}

/// The `match opcode` arm of the decoder for the instructions `insts` of opcode `op`.
fn opcode_arm(model: &Model, op: u8, insts: &[&InstModel], arm: Arm) -> TokenStream {
    let op_lit = super::hex(u64::from(op));
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
    let left_out = left_out_of(model, op).filter_map(|l| {
        let sub = l
            .sub_opcode
            .filter(|s| !subs.iter().any(|i| i.sub_opcode == Some(*s)))?;
        let sub = super::hex(u64::from(sub));
        let err = left_out_error(l, op);
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
}

/// The docs left out whose opcode is `op`.
fn left_out_of(model: &Model, op: u8) -> impl Iterator<Item = &crate::analyze::LeftOutDoc> {
    model.left_out.iter().filter(move |l| l.opcode == Some(op))
}

/// Arms for the opcodes of docs left out (and of no doc kept): an error naming the doc.
fn left_out_arms(left_out: &[LeftOutDoc], kept: &BTreeSet<u8>) -> Vec<TokenStream> {
    let mut by_opcode: BTreeMap<u8, Vec<&LeftOutDoc>> = BTreeMap::new();
    for l in left_out {
        if let Some(op) = l.opcode.filter(|op| !kept.contains(op)) {
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

/// `decode` and `decode_into`, with each opcode's arms (`fills`).
fn decode_fn(frame: &Frame, fills: &Fills) -> TokenStream {
    let kept: BTreeSet<u8> = frame.opcodes.iter().map(|(op, _, _)| *op).collect();
    let left_out = left_out_arms(frame.left_out, &kept);
    let placeholder = match frame.first {
        Some(i) => {
            let ty = ident(i);
            quote!(Some(Instruction::#ty(#ty::PLACEHOLDER)))
        }
        None => quote!(None),
    };
    let (arms, in_place_arms) = (&fills[DECODE], &fills[DECODE_IN_PLACE]);
    quote! {
        /// Decodes one instruction from the start of `bytes`: the instruction and how many
        /// bytes it took. Never panics; every failure names the field, its byte offset, and why.
        pub fn decode(bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
            let mut r = Reader::new(bytes);
            let opcode = <u8 as Decode>::decode(&mut r, "opcode")?;
            let inst = match opcode {
                #(#left_out)*
                #arms
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
                #(#left_out)*
                #in_place_arms
                other => return Err(DecodeError::new("opcode", 0, DecodeErrorKind::UnknownOpcode(other))),
            }
            Ok(r.position())
        }
    }
}

/// What goes into each list and `match` that spans the instructions (by the indices below):
/// each instruction's part of it, or each opcode's arms of the decoder.
type Fills = [TokenStream; 11];

// The lists and `match`es of the parent module: an instruction's parts, then an opcode's.
const MOD_DECLS: usize = 0;
const MOD_USES: usize = 1;
const VARIANTS: usize = 2;
const NAME_ARMS: usize = 3;
const OPCODE_ARMS: usize = 4;
const PUT_ARMS: usize = 5;
const VALIDATE_ARMS: usize = 6;
const EXECUTE_METHODS: usize = 7;
const DISPATCH: usize = 8;
const DECODE: usize = 9;
const DECODE_IN_PLACE: usize = 10;

/// Every instruction's parts and every opcode's arms of the decoder, each list joined.
fn fills(model: &Model) -> Fills {
    let mut fills: Fills = Default::default();
    for i in &model.instructions {
        for (k, part) in inst_parts(i).into_iter().enumerate() {
            fills[k].extend(part);
        }
    }
    let only = decodable(model).count() == 1;
    for (op, group) in by_opcode(model) {
        fills[DECODE].extend(opcode_arm(model, op, &group, Arm::Value));
        fills[DECODE_IN_PLACE].extend(opcode_arm(model, op, &group, Arm::InPlace { only }));
    }
    fills
}

/// One instruction's parts of the parent module, by index (`MOD_DECLS` to `DISPATCH`): its
/// module and re-export, and (unless it is an alias, which does not decode) its variant, arms
/// and `Execute` method.
fn inst_parts(i: &InstModel) -> Vec<TokenStream> {
    let (m, ty) = (ident(&i.module), ident(&i.rust_name));
    let doc = format!(" `{}` ({}).", i.doc_name, i.source);
    let mut parts = vec![quote!(#[doc = #doc] pub mod #m;), quote!(pub use #m::#ty;)];
    if i.alias_of.is_some() {
        return parts;
    }
    let variant_doc = docs(&[format!(
        "`{}`, opcode {:#04x}{}.",
        i.doc_name,
        i.opcode,
        i.sub_opcode
            .map(|s| format!(" sub-opcode {s:#04x}"))
            .unwrap_or_default()
    )]);
    let (name, op) = (&i.doc_name, ident(&i.opcode_variant));
    let method = ident(&i.execute_method);
    let method_doc = docs(&[format!("Executes `{}`.", i.doc_name)]);
    parts.extend([
        quote!(#variant_doc #ty(#ty),),
        quote!(Instruction::#ty(_) => #name,),
        quote!(Instruction::#ty(_) => Opcode::#op,),
        quote!(Instruction::#ty(i) => i.put(out),),
        quote!(Instruction::#ty(i) => i.validate(platform),),
        quote!(#method_doc fn #method(&mut self, inst: &#ty) -> Self::Output;),
        quote!(Instruction::#ty(i) => exec.#method(i),),
    ]);
    parts
}

/// The whole parent module.
pub fn tokens(model: &Model) -> TokenStream {
    let fills = fills(model);
    let insts: Vec<&InstModel> = decodable(model).collect();
    let frame = Frame {
        platforms: &model.platforms,
        opcodes: insts
            .iter()
            .map(|i| (i.opcode, i.opcode_name.as_str(), i.opcode_variant.as_str()))
            .collect(),
        names: insts.iter().map(|i| i.doc_name.as_str()).collect(),
        left_out: &model.left_out,
        first: insts.first().map(|i| i.rust_name.as_str()),
        object: model.object.is_some(),
        used: fills.iter().flat_map(idents_in).collect(),
    };
    skeleton(&frame, &fills)
}

/// What the parent module is made of besides the instructions' parts: the platforms, each
/// decoding instruction's opcode (value, name, variant) and name, the docs left out, the first
/// instruction (the placeholder), whether there are object records, and the identifiers the
/// parts use.
struct Frame<'a> {
    platforms: &'a [String],
    opcodes: Vec<(u8, &'a str, &'a str)>,
    names: Vec<&'a str>,
    left_out: &'a [LeftOutDoc],
    first: Option<&'a str>,
    object: bool,
    used: BTreeSet<String>,
}

/// The parent module's tokens, with the instructions' parts (`fills`).
fn skeleton(frame: &Frame, fills: &Fills) -> TokenStream {
    let modules = module_decls(frame.object, fills);
    let platform = platform_enum(frame.platforms);
    let opcode = opcode_enum(&frame.opcodes);
    let instruction = instruction_enum(&frame.names, fills);
    let decode = decode_fn(frame, fills);
    let execute = execute_trait(fills);
    let code = quote! {
        #modules

        #platform
        #opcode
        #instruction
        #decode
        #execute
    };
    let mut used = idents_in(&code);
    used.extend(frame.used.iter().cloned());
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

/// The submodules (the shared ones, the object records', one per doc: `MOD_DECLS`) and the
/// re-export of each instruction's type (`MOD_USES`).
fn module_decls(object: bool, fills: &Fills) -> TokenStream {
    let object = if object {
        quote!(
            /// Records of the object-format chapter.
            pub mod object;
        )
    } else {
        quote!()
    };
    let (mods, uses) = (&fills[MOD_DECLS], &fills[MOD_USES]);
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
        #mods
        #uses
    }
}

/// `Instruction`, the enum of every instruction that decodes, with its name, opcode, encode
/// and validate (each instruction's variant and arms from `fills`).
fn instruction_enum(names: &[&str], fills: &Fills) -> TokenStream {
    let variants = &fills[VARIANTS];
    let (name, opcode) = (&fills[NAME_ARMS], &fills[OPCODE_ARMS]);
    let (put, validate) = (&fills[PUT_ARMS], &fills[VALIDATE_ARMS]);
    quote! {
        /// Any instruction of the spec.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Instruction { #variants }

        impl Instruction {
            /// The names of every instruction that decodes, by opcode.
            pub const NAMES: &'static [&'static str] = &[#(#names,)*];

            /// The name the docs give the instruction.
            pub fn name(&self) -> &'static str {
                match self { #name }
            }
            /// The opcode byte's meaning.
            pub fn opcode(&self) -> Opcode {
                match self { #opcode }
            }
            /// Appends the vISA binary form.
            pub fn encode(&self, out: &mut Vec<u8>) {
                self.put(&mut Staging::new(out));
            }
            /// Writes the vISA binary form into `out` (see [`crate::runtime::Encoder`]).
            pub fn put(&self, out: &mut Staging<'_>) {
                match self { #put }
            }
            /// Checks every rule the instruction's doc states, for `platform`.
            pub fn validate(&self, platform: Platform) -> Result<(), ValidationError> {
                match self { #validate }
            }
        }
    }
}

/// The `Execute` trait, one method per instruction, and `dispatch` (each instruction's method
/// and arm from `fills`).
fn execute_trait(fills: &Fills) -> TokenStream {
    let methods = &fills[EXECUTE_METHODS];
    let arms = &fills[DISPATCH];
    quote! {
        /// One method per instruction, all required: when a spec change adds an instruction,
        /// every implementation stops compiling until it handles it.
        pub trait Execute {
            /// What executing an instruction returns.
            type Output;
            #methods
        }

        /// Calls the [`Execute`] method of `inst`'s instruction.
        pub fn dispatch<E: Execute + ?Sized>(inst: &Instruction, exec: &mut E) -> E::Output {
            match inst { #arms }
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
