//! The one hand-over to the hand-written formatters of `runtime::text::special`, for
//! instructions whose text no template describes: every formatter is a `special::Formatter`
//! value named in [`SPECIALS`], and receives the instruction's fields by doc name
//! (`special::fields`), a counted list under its count's name. The printer hands it the fields
//! of the instruction's format; the parser takes the fields the formatter read, encodes them in
//! the order of each format in turn and keeps the first whose bytes decode back to themselves.

use super::{ident, lit};
use crate::analyze::{FieldModel, FieldType, InstModel, Int, Slot, VariantModel};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// An instruction printed by a hand-written formatter: its doc, and the formatter, the
/// constant `item` of module `module` of `runtime::text::special`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Special {
    pub doc: &'static str,
    pub module: &'static str,
    pub item: &'static str,
}

/// Every hand-written formatter of whole instructions, in one registry.
const SPECIALS: &[Special] = &[
    Special {
        doc: "FENCE",
        module: "fence",
        item: "FENCE",
    },
    Special {
        doc: "3D_LOAD",
        module: "sampler_3d",
        item: "LOAD",
    },
    Special {
        doc: "3D_SAMPLE",
        module: "sampler_3d",
        item: "SAMPLE",
    },
    Special {
        doc: "3D_SAMPLE4",
        module: "sampler_3d",
        item: "SAMPLE4",
    },
    Special {
        doc: "INFO",
        module: "info",
        item: "INFO",
    },
    Special {
        doc: "LIFETIME",
        module: "lifetime",
        item: "LIFETIME",
    },
    Special {
        doc: "SVM_BLOCK_LD",
        module: "svm_block",
        item: "SVM_BLOCK",
    },
    Special {
        doc: "SVM_BLOCK_ST",
        module: "svm_block",
        item: "SVM_BLOCK",
    },
    Special {
        doc: "LSC_TYPED",
        module: "lsc",
        item: "LSC",
    },
    Special {
        doc: "LSC_UNTYPED",
        module: "lsc",
        item: "LSC",
    },
];

/// A formatter value, `special::<module>::<item>`: the instructions it prints share its
/// mnemonics, and a line it recognises is offered to each of their parsers in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FormatterRef {
    pub module: &'static str,
    pub item: &'static str,
}

impl FormatterRef {
    fn path(&self) -> TokenStream {
        let (m, item) = (ident(self.module), ident(self.item));
        quote!(special::#m::#item)
    }

    /// The condition under which a line whose mnemonic is `b` is this formatter's.
    pub fn recognises(&self, b: TokenStream) -> TokenStream {
        let f = self.path();
        quote!(Formatter::is_mnemonic(&#f, #b))
    }
}

/// The formatter of `inst`, if a hand-written one prints it.
pub fn special(inst: &InstModel) -> Option<&'static Special> {
    SPECIALS.iter().find(|s| s.doc == inst.doc_name)
}

impl Special {
    /// The formatter this instruction is printed by.
    pub fn formatter(&self) -> FormatterRef {
        FormatterRef {
            module: self.module,
            item: self.item,
        }
    }

    /// The formatter as an expression: `special::<module>::<item>`.
    fn path(&self) -> TokenStream {
        self.formatter().path()
    }
}

/// The parse function's name.
pub fn parse_fn(inst: &InstModel) -> proc_macro2::Ident {
    format_ident!("parse_{}_fields", inst.module.trim_end_matches('_'))
}

/// The print arm and the functions (encoders and parser) of `inst`, printed by `sp`.
pub fn arms(inst: &InstModel, sp: &Special) -> (TokenStream, TokenStream) {
    (print_arm(inst, sp), parse_fns(inst, sp))
}

/// The arm of `print_text_as`: each format's fields handed to the formatter.
fn print_arm(inst: &InstModel, sp: &Special) -> TokenStream {
    let ty = ident(&inst.rust_name);
    let name = &inst.doc_name;
    let f = sp.path();
    let call = |v: &VariantModel| match field_list(inst, v) {
        Some(list) => quote! {
            Formatter::print(&#f, Fields::new(#name, &[#(#list),*]), names, out, lossy)
        },
        None => quote! {
            Err(PrintError::NoTextForm { instruction: #name, why: "a field the text form cannot pass on" })
        },
    };
    match inst.variants.as_slice() {
        [v] => {
            let c = call(v);
            quote!(Instruction::#ty(i) => #c,)
        }
        vs => {
            let arms = vs.iter().map(|v| {
                let (vn, c) = (ident(&v.rust_name), call(v));
                quote!(#ty::#vn(i) => #c,)
            });
            quote!(Instruction::#ty(x) => match x { #(#arms)* },)
        }
    }
}

/// `(doc name, Value)` of each field of format `v`, a counted list under its count's doc name;
/// `None` when one has no `Value` (the rest of the bytes, a list of other than raw operands).
fn field_list(inst: &InstModel, v: &VariantModel) -> Option<Vec<TokenStream>> {
    v.slots(inst)
        .into_iter()
        .filter_map(|(_, slot)| match slot {
            Slot::Field(f) => Some(value_of(f).map(|v| {
                let doc = f.doc_name.as_str();
                quote!((#doc, #v))
            })),
            Slot::Count(..) => None,
            Slot::List(c, item) => Some((item.ty == FieldType::Raw).then(|| {
                let (doc, n) = (c.count.as_str(), ident(&c.rust_name));
                quote!((#doc, Value::Raws(alloc::borrow::Cow::Borrowed(&i.#n))))
            })),
        })
        .collect()
}

/// The `Value` of field `f` of `i`.
fn value_of(f: &FieldModel) -> Option<TokenStream> {
    let n = ident(&f.rust_name);
    Some(match f.ty {
        FieldType::Int(_) | FieldType::Enum(..) | FieldType::Bits { .. } => {
            let raw = raw_of(f);
            quote!(Value::Scalar(#raw))
        }
        FieldType::Predicate => quote!(Value::Predicate(i.#n)),
        FieldType::Vector => quote!(Value::Vector(i.#n)),
        FieldType::Raw => quote!(Value::Raw(i.#n)),
        FieldType::Rest => return None,
    })
}

/// The parser and one encoder per format it tries: formats that decode (not shadowed by an
/// earlier one), in doc order.
fn parse_fns(inst: &InstModel, sp: &Special) -> TokenStream {
    let f = sp.path();
    let pp = parse_fn(inst);
    let mut encoders = Vec::new();
    let mut encoder_fns = Vec::new();
    for v in inst.variants.iter().filter(|v| !v.shadowed) {
        let e = format_ident!(
            "encode_{}_fields_{}",
            inst.module.trim_end_matches('_'),
            encoders.len()
        );
        if let Some(body) = encoder(inst, v) {
            encoder_fns.push(quote! {
                fn #e(got: &Parsed) -> Result<Vec<u8>, Option<ParseError>> {
                    #body
                }
            });
            encoders.push(e);
        }
    }
    // One format: its bytes decode or say why (as a template's parser does). Several: the
    // first whose bytes decode back to themselves, else the first reason one gave.
    let parse = quote!(Formatter::parse(&#f, pred, w, c, names)?);
    let body = if encoders.is_empty() {
        quote! {
            #parse;
            Err(error(0, "an instruction whose fields the text can pass on", ""))
        }
    } else if let [e] = encoders.as_slice() {
        quote! {
            let got = #parse;
            let b = #e(&got).map_err(|e| e.unwrap_or_else(|| error(0, "the fields of the instruction's format", "")))?;
            finish(&b, 0)
        }
    } else {
        quote! {
            let got = #parse;
            let mut first = None;
            #(
                match #encoders(&got) {
                    Ok(b) => match exact(&b) {
                        Ok(i) => return Ok(i),
                        Err(e) => { first.get_or_insert(e); }
                    },
                    Err(e) => { first = first.or(e); }
                }
            )*
            Err(first.unwrap_or_else(|| error(0, "the fields of one of the instruction's formats", "")))
        }
    };
    quote! {
        #(#encoder_fns)*
        fn #pp<'a>(pred: PredicateControl, w: Words<'a>, c: Cursor<'a>, names: &dyn Names) -> Result<Instruction, ParseError> {
            #body
        }
    }
}

/// The body of an encoder `fn(got) -> Result<bytes, Option<ParseError>>`: format `v`'s bytes
/// from the parsed fields; `Err(None)` when one of its fields was not read, `Err(Some(..))`
/// when one does not fit. `None` when the format has a field no `Value` carries.
fn encoder(inst: &InstModel, v: &VariantModel) -> Option<TokenStream> {
    let mut enc = vec![];
    let op = lit(u64::from(inst.opcode));
    enc.push(quote!(b.push(#op);));
    if let Some(s) = inst.sub_opcode {
        let s = lit(u64::from(s));
        enc.push(quote!(b.push(#s);));
    }
    let fits = |t: &crate::analyze::Int, v: TokenStream, doc: &str, what: &str| {
        if *t == crate::analyze::Int::U64 {
            return quote!(Encode::encode(&#v, &mut b););
        }
        let t = super::int_ty(t.unsigned());
        quote!(Encode::encode(&<#t>::try_from(#v).map_err(|_| Some(error(0, #what, #doc)))?, &mut b);)
    };
    for (_, slot) in v.slots(inst) {
        enc.push(match slot {
            Slot::Field(f) => {
                let doc = f.doc_name.as_str();
                match &f.ty {
                    FieldType::Int(i) | FieldType::Enum(i, _) | FieldType::Bits { base: i, .. } => {
                        fits(
                            i,
                            quote!(got.scalar(#doc).ok_or(None)?),
                            doc,
                            "a value that fits the field",
                        )
                    }
                    FieldType::Predicate => {
                        quote!(Encode::encode(&got.predicate(#doc).ok_or(None)?, &mut b);)
                    }
                    FieldType::Vector => {
                        quote!(Encode::encode(&got.vector(#doc).ok_or(None)?, &mut b);)
                    }
                    FieldType::Raw => quote!(Encode::encode(&got.raw(#doc).ok_or(None)?, &mut b);),
                    FieldType::Rest => return None,
                }
            }
            Slot::Count(f, c) => {
                let (doc, list) = (f.doc_name.as_str(), c.count.as_str());
                match &f.ty {
                    FieldType::Int(i) | FieldType::Enum(i, _) | FieldType::Bits { base: i, .. } => {
                        fits(
                            i,
                            quote!(got.raws(#list).ok_or(None)?.len()),
                            doc,
                            "fewer parameters",
                        )
                    }
                    _ => return None,
                }
            }
            Slot::List(c, item) if item.ty == FieldType::Raw => {
                let list = c.count.as_str();
                quote!(for r in got.raws(#list).ok_or(None)? { Encode::encode(r, &mut b); })
            }
            Slot::List(..) => return None,
        });
    }
    Some(quote! {
        let mut b: Vec<u8> = Vec::with_capacity(ENCODED_CAPACITY);
        #(#enc)*
        Ok(b)
    })
}

/// The raw bits of a scalar field of `i`, as `u64`.
pub(super) fn raw_of(f: &FieldModel) -> TokenStream {
    let n = ident(&f.rust_name);
    match &f.ty {
        FieldType::Int(Int::I32) => quote!(u64::from(i.#n as u32)),
        FieldType::Int(Int::U64) => quote!(i.#n),
        FieldType::Int(_) => quote!(u64::from(i.#n)),
        FieldType::Enum(..) => quote!(i.#n.bits()),
        FieldType::Bits { .. } => quote!(u64::from(i.#n.to_raw())),
        _ => quote!(0u64),
    }
}
