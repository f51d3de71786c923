//! Assembly text: `Instruction::print_text` and `parse_instruction` (`src/generated/text.rs`),
//! rendered from the text forms the analyzer resolved (`analyze::text`). Printers read fields
//! as raw bits; parsers collect raw bits and operands, encode them in format order and decode
//! the bytes, so every rule of the binary form (enumerated values, reserved bits) holds for
//! parsed text too. Special forms call the hand-written formatters of `runtime::text::special`.

use super::text_fields::{self, raw_of};
use super::{and_mask, extract, hex, ident, idents_in, lit, param, shl, unparen, use_only};
use crate::analyze::text::{Piece, SlotKind, TextForm, TextInst, TextSlot};
use crate::analyze::{FieldModel, FieldType, InstModel, Int, Model};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};

/// The file `src/generated/text.rs`: its head (imports, dispatch), every instruction's
/// printers and parsers, then the dispatch test.
pub fn tokens(model: &Model) -> TokenStream {
    let mut by_mnemonic: BTreeMap<Mnemonics, Vec<Ident>> = BTreeMap::new();
    let mut fns = Vec::new();
    let mut arms = Vec::new();
    for (inst, t) in decodable(model) {
        for (m, pp) in inst_entries(model, inst, t) {
            by_mnemonic.entry(m).or_default().push(pp);
        }
        arms.push(inst_parts(model, inst, t, Some(&mut fns)));
    }
    let fns = quote!(#(#fns)*);
    let arms = quote!(#(#arms)*);
    let frame = Frame {
        used: idents_in(&fns),
        arms_used: idents_in(&arms),
        by_mnemonic,
        symbol_mnemonics: symbol_mnemonics(model),
    };
    let (head, tail) = frame_tokens(&frame, arms);
    quote! {
        #head
        #fns
        #tail
    }
}

/// The arms of `parse_instruction`'s dispatch and what the dispatch test checks.
struct DispatchArms<'a> {
    literal_arms: Vec<TokenStream>,
    literals: Vec<&'a str>,
    special_arms: Vec<TokenStream>,
    special_tests: Vec<TokenStream>,
}

/// The dispatch's arms by mnemonic, literal and recognised apart.
fn dispatch_arms(by_mnemonic: &BTreeMap<Mnemonics, Vec<Ident>>) -> DispatchArms<'_> {
    // Literal mnemonics first, in one `match` on the string; the special forms' tables after
    // them, so the common lines never scan those tables (a generated test checks that no
    // literal mnemonic is in one: the order then changes nothing).
    let mut literal_arms = Vec::new();
    let mut literals = Vec::new();
    let mut special_arms = Vec::new();
    let mut special_tests = Vec::new();
    for (m, fs) in by_mnemonic {
        match m {
            Mnemonics::Recognised(sp) => {
                let is = sp.recognises(quote!(b));
                special_arms.push(quote!(b if #is => &[#(#fs),*],));
                special_tests.push(sp.recognises(quote!(m)));
            }
            Mnemonics::Literal(m) => {
                literal_arms.push(quote!(#m => &[#(#fs),*],));
                literals.push(m.as_str());
            }
        }
    }
    DispatchArms {
        literal_arms,
        literals,
        special_arms,
        special_tests,
    }
}

/// The generated test that no literal mnemonic is one a special form recognises (the
/// dispatch matches literals first, so such a mnemonic would never reach its special parser).
fn dispatch_test(literals: &[&str], special_tests: &[TokenStream]) -> TokenStream {
    if special_tests.is_empty() || literals.is_empty() {
        quote!()
    } else {
        quote! {
            #[cfg(test)]
            mod dispatch_tests {
                use super::*;

                /// `parse_instruction` matches literal mnemonics before the special forms'
                /// tables: a literal mnemonic in one of them would no longer reach its special
                /// parser.
                #[test]
                fn no_literal_mnemonic_is_a_special_one() {
                    let literals: &[&str] = &[#(#literals),*];
                    for &m in literals {
                        assert!(!(#(#special_tests)||*), "{m}");
                    }
                }
            }
        }
    }
}

/// `finish` and `exact` (decode what a parser assembled), when some parser calls them.
fn finish_fn(used: &BTreeSet<String>) -> TokenStream {
    // Only parsers of token templates and special forms encode what they read (a spec of
    // counted lists only has none).
    let finish = (used.contains("finish") || used.contains("exact")).then(|| {
        quote! {
            /// Decodes the bytes a parser assembled.
            fn finish(bytes: &[u8], at: usize) -> Result<Instruction, ParseError> {
                match decode(bytes) {
                    Ok((i, n)) if n == bytes.len() => Ok(i),
                    Ok(_) => Err(error(at, "values the instruction's format can hold", "")),
                    Err(e) => Err(error(at, "values the instruction's doc allows (a listed value, reserved bits zero)", e.field)),
                }
            }
        }
    });
    let exact = used.contains("exact").then(|| {
        quote! {
            /// Decodes the bytes a parser assembled for one of several formats: only if they
            /// encode back to themselves (the format that decodes them is the one they were
            /// assembled for).
            fn exact(bytes: &[u8]) -> Result<Instruction, ParseError> {
                let i = finish(bytes, 0)?;
                let mut again: Vec<u8> = Vec::with_capacity(bytes.len());
                i.encode(&mut again);
                if again == bytes {
                    Ok(i)
                } else {
                    Err(error(0, "values one of the instruction's formats can hold", ""))
                }
            }
        }
    });
    if finish.is_none() && exact.is_none() {
        return quote!();
    }
    quote! {
        /// Room for a parsed instruction's bytes, allocated once: every field is staged in a
        /// 64-byte buffer and appended whole (`runtime::codec::Staging`), so a vector that
        /// grew from empty was reallocated two or three times per instruction.
        const ENCODED_CAPACITY: usize = 192;
        #finish
        #exact
    }
}

/// Instructions that decode (aliases do not), with their text forms.
fn decodable(model: &Model) -> impl Iterator<Item = (&InstModel, Option<&TextInst>)> {
    model
        .instructions
        .iter()
        .filter(|i| i.alias_of.is_none())
        .map(|i| (i, model.text.get(&i.doc_name)))
}

/// Which line starts reach a parser: a literal mnemonic, or those a formatter recognises
/// (`Formatter::is_mnemonic`), tried in the order of the registry's doc names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Mnemonics {
    Literal(String),
    Recognised(text_fields::FormatterRef),
}

/// The text of an instruction whose template cannot be read: one form, no mnemonic.
fn unreadable(t: &TextInst) -> bool {
    matches!(&t.forms[..], [f] if f.mnemonic.is_empty() && f.unsupported.is_some())
}

/// Forms that can print: a supported template of a one-format instruction.
fn usable<'a>(inst: &InstModel, t: Option<&'a TextInst>) -> Vec<(usize, &'a TextForm)> {
    let single = inst.variants.len() == 1 && inst.variants[0].counted.is_empty();
    match t {
        Some(t) if single => t
            .forms
            .iter()
            .enumerate()
            .filter(|(_, f)| f.unsupported.is_none())
            .collect(),
        _ => vec![],
    }
}

/// One instruction's arm of `print_text_as`; its functions go to `fns` when given.
fn inst_parts(
    model: &Model,
    inst: &InstModel,
    t: Option<&TextInst>,
    fns: Option<&mut Vec<TokenStream>>,
) -> TokenStream {
    let forms = usable(inst, t);
    let (arm, made) = if let Some(sp) = text_fields::special(inst) {
        let (p, f) = text_fields::arms(inst, sp);
        (p, vec![f])
    } else if forms.is_empty() {
        no_text_parts(model, inst, t)
    } else {
        template_parts(inst, t, &forms, fns.is_some())
    };
    if let Some(fns) = fns {
        fns.extend(made);
    }
    arm
}

/// One instruction's parsers by mnemonic (what [`inst_parts`] makes functions of), without
/// building any code: the dispatch is made of these for every instruction on every regen.
fn inst_entries(model: &Model, inst: &InstModel, t: Option<&TextInst>) -> Vec<(Mnemonics, Ident)> {
    let forms = usable(inst, t);
    if let Some(sp) = text_fields::special(inst) {
        vec![(
            Mnemonics::Recognised(sp.formatter()),
            text_fields::parse_fn(inst),
        )]
    } else if forms.is_empty() {
        no_text_mnemonic(model, inst, t)
            .map(|m| (Mnemonics::Literal(m), parser_name(inst, "no_text")))
            .into_iter()
            .collect()
    } else {
        forms
            .iter()
            .map(|(k, f)| {
                (
                    Mnemonics::Literal(f.mnemonic.clone()),
                    parser_name(inst, &k.to_string()),
                )
            })
            .collect()
    }
}

/// The parser of `inst`'s form `form` (a number, or `no_text`).
fn parser_name(inst: &InstModel, form: &str) -> Ident {
    format_ident!("parse_{}_{}", inst.module.trim_end_matches('_'), form)
}

/// An instruction's print arm and its functions.
type Parts = (TokenStream, Vec<TokenStream>);

/// An instruction without a usable form: its print arm fails saying why, and the mnemonic its
/// doc names, if no other form claims it, parses to the same error (not to "unknown").
fn no_text_parts(model: &Model, inst: &InstModel, t: Option<&TextInst>) -> Parts {
    let ty = ident(&inst.rust_name);
    let name = &inst.doc_name;
    let why = match t.and_then(|t| t.forms.iter().find_map(|f| f.unsupported.clone())) {
        Some(w) => w,
        None if t.is_some() => "several formats".to_string(),
        None => "a special form no template describes".to_string(),
    };
    let arm = quote! {
        Instruction::#ty(_) => Err(PrintError::NoTextForm { instruction: #name, why: #why }),
    };
    if no_text_mnemonic(model, inst, t).is_none() {
        return (arm, vec![]);
    }
    let pp = parser_name(inst, "no_text");
    let expected = format!("an instruction with a text form ({name} has none: {why})");
    let f = quote! {
        fn #pp(_: PredicateControl, words: Words<'_>, _: Cursor<'_>, _: &dyn Names) -> Result<Instruction, ParseError> {
            Err(words.error(#expected))
        }
    };
    (arm, vec![f])
}

/// An instruction printed by its templates: the print arm tries the forms in doc order (the
/// first whose selector always holds ends the chain); a printer and a parser per form (only
/// when `want_fns`).
fn template_parts(
    inst: &InstModel,
    t: Option<&TextInst>,
    forms: &[(usize, &TextForm)],
    want_fns: bool,
) -> Parts {
    let ty = ident(&inst.rust_name);
    let name = &inst.doc_name;
    let sat = t.and_then(|t| t.sat.as_deref());
    let mut tries = Vec::new();
    let mut always = None;
    let mut fns = Vec::new();
    for (k, f) in forms {
        let pf = format_ident!("print_{}_{}", inst.module.trim_end_matches('_'), k);
        let pp = parser_name(inst, &k.to_string());
        if always.is_none() {
            match fixed_matches(inst, f) {
                Some(cond) => tries.push(quote!(if #cond { return #pf(i, names, out, lossy); })),
                None => always = Some(quote!(#pf(i, names, out, lossy))),
            }
        }
        if want_fns {
            fns.push(print_form(inst, sat, f, &pf));
            fns.push(parse_form(inst, sat, f, &pp));
        }
    }
    let otherwise = always.unwrap_or_else(|| {
        quote!(Err(PrintError::NoTextForm { instruction: #name, why: "no form's selector holds" }))
    });
    let arm = quote! {
        Instruction::#ty(i) => {
            #(#tries)*
            #otherwise
        }
    };
    (arm, fns)
}

/// The mnemonic of an instruction whose template cannot be read, when no other form claims
/// it: its parser says the instruction has no text form.
fn no_text_mnemonic(model: &Model, inst: &InstModel, t: Option<&TextInst>) -> Option<String> {
    if !t.is_some_and(unreadable) {
        return None;
    }
    let mnemonic = inst.opcode_name.to_ascii_lowercase();
    let claimed = model
        .text
        .values()
        .flat_map(|t| &t.forms)
        .any(|f| f.mnemonic == mnemonic);
    (!claimed).then_some(mnemonic)
}

/// What the file is made of besides the instructions' functions and print arms: the parsers
/// by mnemonic, the mnemonics that name a string, and the identifiers the instructions'
/// functions (`used`) and print arms (`arms_used`) use.
struct Frame<'a> {
    by_mnemonic: BTreeMap<Mnemonics, Vec<Ident>>,
    symbol_mnemonics: Vec<&'a str>,
    used: BTreeSet<String>,
    arms_used: BTreeSet<String>,
}

/// The file's items but the instructions' functions, which come between `finish` and the
/// dispatch test: `(head, tail)`, the print arms (`print_arms`) in the head.
fn frame_tokens(frame: &Frame, print_arms: TokenStream) -> (TokenStream, TokenStream) {
    let Frame {
        by_mnemonic,
        symbol_mnemonics,
        used,
        arms_used,
    } = frame;
    let DispatchArms {
        literal_arms,
        literals,
        special_arms,
        special_tests,
    } = dispatch_arms(by_mnemonic);
    let dispatch_test = dispatch_test(&literals, &special_tests);
    let finish = finish_fn(used);
    let param = |name| named_if_used(name, arms_used);
    let (names, out, lossy) = (param("names"), param("out"), param("lossy"));
    // A spec none of whose instructions prints still has the crate's signature.
    let lint = if arms_used.contains("out") {
        quote!()
    } else {
        quote!(#[allow(clippy::ptr_arg, reason = "the signature every generated crate shares")])
    };
    let parse = parse_body(&literal_arms, &special_arms);
    let form_parser = form_parser_type(&parse);
    let code = quote! {
        #form_parser

        impl Instruction {
            /// The instruction's text as Intel prints it, without indentation and without the
            /// ` /// $N` comment (`add (M1, 16) V0053(0,0)<1> V0052(0,0)<0;1,0> V0053(0,0)<1;1,0>`).
            /// Fails for values the text cannot spell, so whatever prints parses back.
            pub fn print_text(&self, names: &dyn Names, out: &mut String) -> Result<(), PrintError> {
                self.print_text_as(names, out, false)
            }

            /// The line Intel prints even where its text cannot show some bits (an exec size
            /// or reserved bits no slot prints, an operand or predicate the form omits): those
            /// bits are lost, so the line does not assemble back to the same bytes. Values no
            /// spelling covers still fail.
            pub fn print_text_lossy(&self, names: &dyn Names, out: &mut String) -> Result<(), PrintError> {
                self.print_text_as(names, out, true)
            }

            #lint
            fn print_text_as(&self, #names: &dyn Names, #out: &mut String, #lossy: bool) -> Result<(), PrintError> {
                match self { #print_arms }
            }
        }

        /// Mnemonics of the forms that name a string of the routine's pool ([`Names::string`]).
        pub const SYMBOL_MNEMONICS: &[&str] = &[#(#symbol_mnemonics),*];

        /// Parses one instruction line's text (no indentation, no comment).
        pub fn parse_instruction(text: &str, names: &dyn Names) -> Result<Instruction, ParseError> {
            #parse
        }

        #finish
    };
    let mut used = used.clone();
    used.extend(arms_used.iter().cloned());
    used.extend(idents_in(&code));
    used.extend(idents_in(&dispatch_test));
    let imports = imports(&used);
    let head = quote! {
        //! Assembly text of every instruction: printers and parsers generated from the docs'
        //! `## Text` templates (see `codegen/NAMING.md`, "Text spellings").
        use super::*;
        #imports

        #code
    };
    (head, dispatch_test)
}

/// A parameter's name, `_`-prefixed when the code (which uses `used`) does not use it.
fn named_if_used(name: &str, used: &BTreeSet<String>) -> Ident {
    if used.contains(name) {
        ident(name)
    } else {
        ident(&format!("_{name}"))
    }
}

/// Mnemonics of forms that name a string of the pool: the assembler parses those lines
/// before it builds the pool (their strings take their place in it).
fn symbol_mnemonics(model: &Model) -> Vec<&str> {
    let mut symbol_mnemonics: Vec<&str> = decodable(model)
        .flat_map(|(inst, t)| usable(inst, t))
        .filter(|(_, f)| {
            f.group
                .iter()
                .chain(&f.operands)
                .any(|s| matches!(s.kind, SlotKind::Symbol { .. }))
        })
        .map(|(_, f)| f.mnemonic.as_str())
        .collect();
    symbol_mnemonics.sort_unstable();
    symbol_mnemonics.dedup();
    symbol_mnemonics
}

/// The body of `parse_instruction`: the predicate, the mnemonic's words, then each parser of
/// that mnemonic in turn (the error that got furthest wins).
fn parse_body(literal_arms: &[TokenStream], special_arms: &[TokenStream]) -> TokenStream {
    if literal_arms.is_empty() && special_arms.is_empty() {
        quote! {
            let mut c = Cursor::new(text);
            parse_predicate_prefix(&mut c, names)?;
            Err(Words::read(&mut c).error("an instruction mnemonic"))
        }
    } else {
        quote! {
            let mut c = Cursor::new(text);
            let pred = parse_predicate_prefix(&mut c, names)?;
            let words = Words::read(&mut c);
            let forms: &[FormParser] = match words.base {
                #(#literal_arms)*
                #(#special_arms)*
                _ => return Err(words.error("an instruction mnemonic")),
            };
            let mut first = None;
            for f in forms {
                match f(pred, words.clone(), c.clone(), names) {
                    Ok(i) => return Ok(i),
                    Err(e) => {
                        // The error that got furthest explains best.
                        if first.as_ref().is_none_or(|f: &ParseError| e.column > f.column) {
                            first = Some(e);
                        }
                    }
                }
            }
            Err(first.unwrap_or_else(|| words.error("an instruction mnemonic")))
        }
    }
}

/// `type FormParser`, when the parse body names it.
fn form_parser_type(parse: &TokenStream) -> TokenStream {
    if idents_in(parse).contains("FormParser") {
        quote!(
            type FormParser = for<'a> fn(
                PredicateControl,
                Words<'a>,
                Cursor<'a>,
                &dyn Names,
            ) -> Result<Instruction, ParseError>;
        )
    } else {
        quote!()
    }
}

/// The file's `use` lines: only what its code (`used`) names.
fn imports(used: &BTreeSet<String>) -> TokenStream {
    let instruction = use_only(
        quote!(crate::runtime::text::instruction),
        &[
            "channels_text",
            "channels_value",
            "error",
            "operand_space",
            "push_hex_upper",
            "push_number",
            "word_number",
            "Words",
        ],
        used,
    );
    let text = use_only(
        quote!(crate::runtime::text),
        &[
            "is_saturated",
            "parse_exec_count",
            "parse_exec_size",
            "parse_label",
            "parse_predicate_prefix",
            "parse_raw",
            "parse_state_name",
            "parse_symbol",
            "parse_vector",
            "print_exec_count",
            "print_exec_size",
            "print_label",
            "print_predicate_prefix",
            "print_raw",
            "print_state_name",
            "print_symbol",
            "print_vector",
            "set_saturated",
            "special",
            "Cursor",
            "Names",
            "ParseError",
            "PrintError",
        ],
        used,
    );
    let fields = use_only(
        quote!(crate::runtime::text::special::fields),
        &["Fields", "Parsed", "Value"],
        used,
    );
    let formatter = use_only(quote!(crate::runtime::text::special), &["Formatter"], used);
    let runtime = use_only(
        quote!(crate::runtime),
        &[
            "Encode",
            "PredicateControl",
            "RawOperand",
            "StateClass",
            "VectorOperand",
        ],
        used,
    );
    let exec_word = if used.contains("ExecWord") {
        quote!(
            use crate::runtime::ExecSize as ExecWord;
        )
    } else {
        quote!()
    };
    let vec = use_only(quote!(alloc::vec), &["Vec"], used);
    quote! {
        #instruction
        #text
        #fields
        #formatter
        #runtime
        #exec_word
        use alloc::string::String;
        #vec
    }
}

fn is_scalar(f: &FieldModel) -> bool {
    matches!(
        f.ty,
        FieldType::Int(_) | FieldType::Enum(..) | FieldType::Bits { .. }
    )
}

fn field_by_rust<'a>(inst: &'a InstModel, rust: &str) -> Option<&'a FieldModel> {
    inst.fields.values().find(|f| f.rust_name == rust)
}

/// The condition under which `f` prints an instruction: its fixed bits hold; `None` when it
/// fixes none, so it prints any.
fn fixed_matches(inst: &InstModel, f: &TextForm) -> Option<TokenStream> {
    let conds: Vec<_> = f
        .fixed
        .iter()
        .filter_map(|(field, lo, mask, value)| {
            let raw = raw_of(field_by_rust(inst, field)?);
            let bits = extract(raw, u32::from(*lo), *mask, 64);
            let value = hex(*value);
            Some(quote!(#bits == #value))
        })
        .collect();
    (!conds.is_empty()).then(|| quote!(#(#conds)&&*))
}

/// Every slot of a form, suffixes included.
fn slots(f: &TextForm) -> Vec<&TextSlot> {
    let mut out: Vec<&TextSlot> = f
        .suffixes
        .iter()
        .filter_map(|p| match p {
            Piece::Slot { slot, .. } => Some(slot),
            _ => None,
        })
        .collect();
    out.extend(f.group.iter());
    out.extend(f.operands.iter());
    out
}

/// Bits of scalar field `rust` that the form prints or fixes.
fn covered(f: &TextForm, rust: &str) -> u64 {
    let mut m = 0u64;
    for s in slots(f).into_iter().filter(|s| s.field == rust) {
        m |= if s.mask == u64::MAX {
            u64::MAX
        } else {
            s.mask << s.lo
        };
    }
    for (field, lo, mask, _) in &f.fixed {
        if field == rust {
            m |= mask << lo;
        }
    }
    for p in &f.suffixes {
        if let Piece::Literal {
            bit: Some((field, b)),
            ..
        } = p
        {
            if field == rust {
                m |= 1 << b;
            }
        }
    }
    m
}

/// A form's printer: the checks that the text shows every bit, then the line.
fn print_form(
    inst: &InstModel,
    sat: Option<&str>,
    f: &TextForm,
    name: &proc_macro2::Ident,
) -> TokenStream {
    let ty = ident(&inst.rust_name);
    // A slot of an enumerated value without spellings (`V0133`): nothing prints.
    if let Some(s) = slots(f)
        .into_iter()
        .find(|s| matches!(&s.kind, SlotKind::Name { spellings, .. } if spellings.is_empty()))
    {
        let what = format!("{} {}", inst.doc_name, s.field);
        let raw = unparen(slot_raw(inst, s));
        return quote! {
            fn #name(i: &#ty, _names: &dyn Names, _out: &mut String, _lossy: bool) -> Result<(), PrintError> {
                Err(PrintError::Unprintable { what: #what, value: #raw })
            }
        };
    }
    let mut checks = unprinted_checks(inst, f);
    checks.extend(saturation_checks(inst, sat, f));
    let mut body = Vec::new();
    if let Some(p) = &f.predicate {
        let n = ident(p);
        body.push(quote!(print_predicate_prefix(out, i.#n, names)?;));
    }
    body.push(push_text(&f.mnemonic));
    body.extend(f.suffixes.iter().map(|p| print_suffix(inst, sat, p)));
    body.push(print_group(inst, f));
    for s in &f.operands {
        let v = print_slot(inst, s, false);
        // One space and the template's extra ones, or the text it is glued to the previous
        // operand by; `0x` before a hexadecimal operand.
        let lead = format!(
            "{}{}",
            s.glued
                .clone()
                .unwrap_or_else(|| " ".repeat(1 + usize::from(s.extra_spaces))),
            if s.zero_x { "0x" } else { "" }
        );
        let mut one = lead.chars();
        if let (Some(c), None) = (one.next(), one.next()) {
            body.push(quote!(out.push(#c); #v));
        } else {
            body.push(quote!(out.push_str(#lead); #v));
        }
    }
    let code = quote!(#(#checks)* #(#body)*);
    let (i, names) = (param("i", &code), param("names", &code));
    let lossy = param("lossy", &code);
    quote! {
        fn #name(#i: &#ty, #names: &dyn Names, out: &mut String, #lossy: bool) -> Result<(), PrintError> {
            #code
            Ok(())
        }
    }
}

/// Unless `lossy`, a printer fails where the text would lose bits: a scalar's bits no slot
/// prints (or not the value the text implies), an operand or predicate the form omits that
/// is not what its parser assumes.
fn unprinted_checks(inst: &InstModel, f: &TextForm) -> Vec<TokenStream> {
    let iname = &inst.doc_name;
    let mut checks = Vec::new();
    for fm in inst.fields.values() {
        if is_scalar(fm) {
            let m = covered(f, &fm.rust_name);
            let implied = f.implied.iter().find(|(n, _)| *n == fm.rust_name);
            if let Some((_, v)) = implied {
                let raw = raw_of(fm);
                let v = hex(*v);
                let what = format!(
                    "{iname} {}: the text implies the value it does not print",
                    fm.doc_name
                );
                checks.push(quote! {
                    if !lossy && #raw != #v {
                        return Err(PrintError::Unprintable { what: #what, value: #raw });
                    }
                });
            } else if m != u64::MAX {
                let raw = raw_of(fm);
                let unprinted = if m == 0 {
                    quote!(#raw != 0)
                } else {
                    let keep = hex(!m);
                    quote!(#raw & #keep != 0)
                };
                let what = format!("{iname} {}: bits the text does not print", fm.doc_name);
                checks.push(quote! {
                    if !lossy && #unprinted {
                        return Err(PrintError::Unprintable { what: #what, value: #raw });
                    }
                });
            }
        } else if matches!(fm.ty, FieldType::Raw | FieldType::Vector)
            && !slots(f).iter().any(|s| s.field == fm.rust_name)
        {
            // An operand the form does not print must be what its parser assumes.
            let n = ident(&fm.rust_name);
            let what = format!(
                "{iname} {}: an operand this form does not print",
                fm.doc_name
            );
            let default = if fm.ty == FieldType::Raw {
                quote!(RawOperand { id: 0, offset: 0 })
            } else {
                unprinted_vector(fm)
            };
            checks.push(quote! {
                if !lossy && i.#n != (#default) {
                    return Err(PrintError::Unprintable { what: #what, value: 0 });
                }
            });
        } else if fm.ty == FieldType::Predicate && f.predicate.is_none() {
            let n = ident(&fm.rust_name);
            let what = format!("{iname} {}: the text has no predicate", fm.doc_name);
            checks.push(quote! {
                if !lossy && i.#n != PredicateControl::NONE {
                    return Err(PrintError::Unprintable { what: #what, value: i.#n.0 as u64 });
                }
            });
        }
    }
    checks
}

/// The operand a parser assumes for a vector field its form does not print: an immediate 0 of
/// the one type the field must have (NBARRIER's Type, "Must have type UW", is `0x0:uw`, what
/// IGC's builder writes for the baseline signal), else of type UD.
fn unprinted_vector(fm: &FieldModel) -> TokenStream {
    let ty = match fm.types.as_slice() {
        [one] => crate::vocab::data_type(one).map_or("Ud", |d| d.variant),
        _ => "Ud",
    };
    let ty = ident(ty);
    quote!(VectorOperand::Immediate(crate::runtime::Immediate {
        ty: crate::runtime::DataType::#ty,
        value: 0
    }))
}

/// Saturation prints only as `.sat`, for the destination of an instruction that has it: any
/// other saturated operand fails.
fn saturation_checks(inst: &InstModel, sat: Option<&str>, f: &TextForm) -> Vec<TokenStream> {
    let iname = &inst.doc_name;
    let mut checks = Vec::new();
    for s in slots(f) {
        if matches!(
            s.kind,
            SlotKind::Vector | SlotKind::AddressOf | SlotKind::Regionless
        ) && (Some(s.field.as_str()) != sat || !f.suffixes.contains(&Piece::Sat))
        {
            let n = ident(&s.field);
            let what = format!(
                "{iname} {}: saturation prints only on a destination as `.sat`",
                s.field
            );
            checks.push(quote! {
                if is_saturated(&i.#n) {
                    return Err(PrintError::Unprintable { what: #what, value: 4 });
                }
            });
        }
    }
    checks
}

/// Statements printing one piece glued to the mnemonic.
fn print_suffix(inst: &InstModel, sat: Option<&str>, p: &Piece) -> TokenStream {
    match p {
        Piece::Sat => match sat {
            Some(d) => {
                let d = ident(d);
                quote!(if is_saturated(&i.#d) { out.push_str(".sat"); })
            }
            None => quote!(),
        },
        Piece::Literal {
            text,
            optional,
            bit,
        } => {
            let dotted = format!(".{text}");
            match (optional, bit) {
                (true, Some((field, b))) => {
                    let raw = raw_of(field_by_rust(inst, field).expect("analyzed field"));
                    let bit = hex(1u64 << b);
                    let push = push_text(&dotted);
                    quote!(if #raw & #bit != 0 { #push })
                }
                _ => push_text(&dotted),
            }
        }
        Piece::Slot { prefix, slot } => {
            let dotted = push_text(&format!(".{prefix}"));
            let v = print_slot(inst, slot, true);
            if slot.optional {
                let raw = slot_raw(inst, slot);
                let default = match &slot.kind {
                    SlotKind::Name {
                        default: Some(d), ..
                    } => lit(*d),
                    _ => lit(0),
                };
                quote!(if #raw != #default { #dotted #v })
            } else {
                quote!(#dotted #v)
            }
        }
    }
}

/// Statements printing the `(...)` group after the mnemonic (an exec size alone prints its
/// own parentheses), laid out as the template writes it: a space before it unless glued to
/// the mnemonic (`vme_ime(0,0)`), and its separator (`, `, or `,` alone).
fn print_group(inst: &InstModel, f: &TextForm) -> TokenStream {
    let mut body = Vec::new();
    let space = if f.group_layout.glued { "" } else { " " };
    if !f.group.is_empty() {
        if let [s] = f.group.as_slice() {
            let v = print_slot(inst, s, false);
            if is_exec(s) {
                body.extend(push_text_if(space));
                body.push(v);
            } else {
                body.push(push_text(&format!("{space}(")));
                body.push(quote!(#v out.push(')');));
            }
        } else {
            body.push(push_text(&format!("{space}(")));
            for (k, s) in f.group.iter().enumerate() {
                if k > 0 {
                    body.push(push_text(&f.group_layout.separator));
                }
                body.push(print_slot(inst, s, false));
            }
            body.push(quote!(out.push(')');));
        }
    }
    quote!(#(#body)*)
}

/// `push_text(text)` unless `text` is empty.
fn push_text_if(text: &str) -> Option<TokenStream> {
    (!text.is_empty()).then(|| push_text(text))
}

/// A slot printed with its own parentheses: `(M1, 16)`.
fn is_exec(s: &TextSlot) -> bool {
    matches!(s.kind, SlotKind::ExecSize | SlotKind::ElementCount { .. })
}

/// The raw bits of a scalar slot.
fn slot_raw(inst: &InstModel, s: &TextSlot) -> TokenStream {
    let raw = match field_by_rust(inst, &s.field) {
        Some(f) => raw_of(f),
        None => quote!(0u64),
    };
    if s.mask == u64::MAX {
        raw
    } else {
        extract(raw, u32::from(s.lo), s.mask, 64)
    }
}

/// `out.push_str(text)`, or `out.push(c)` for a single character.
fn push_text(text: &str) -> TokenStream {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => quote!(out.push(#c);),
        _ => quote!(out.push_str(#text);),
    }
}

fn print_slot(inst: &InstModel, s: &TextSlot, _suffix: bool) -> TokenStream {
    let n = ident(&s.field);
    let iname = &inst.doc_name;
    let raw = unparen(slot_raw(inst, s));
    let what = format!("{iname} {}", s.field);
    match &s.kind {
        SlotKind::Vector => quote!(print_vector(out, &i.#n, names)?;),
        SlotKind::AddressOf => quote!(special::address_of::print_as(out, &i.#n, names, lossy)?;),
        SlotKind::Regionless => quote!(special::regionless::print(out, &i.#n, names)?;),
        SlotKind::Raw => quote!(print_raw(out, i.#n, names)?;),
        SlotKind::ElementCount { hi, counts } => {
            let raw = raw_of(field_by_rust(inst, &s.field).expect("analyzed field"));
            let low = hex((1u64 << (u32::from(*hi) + 1)) - 1);
            let vals = counts.iter().map(|(v, _)| lit(*v));
            let ns = counts.iter().map(|(_, n)| lit(*n));
            quote! {
                let v = #raw;
                let n: u64 = match v & #low { #(#vals => #ns,)* _ => return Err(PrintError::Unprintable { what: #what, value: v }) };
                print_exec_count(out, ((v >> 4) & 0xf) as u8, n);
            }
        }
        SlotKind::ExecSize => quote! {
            let v = #raw;
            print_exec_size(out, ExecWord(u8::try_from(v).map_err(|_| PrintError::Unprintable { what: #what, value: v })?))?;
        },
        SlotKind::Surface | SlotKind::Sampler => {
            let class = if s.kind == SlotKind::Surface {
                quote!(StateClass::Surface)
            } else {
                quote!(StateClass::Sampler)
            };
            quote! {
                let v = #raw;
                print_state_name(out, #class, u16::try_from(v).map_err(|_| PrintError::Unprintable { what: #what, value: v })?, names);
            }
        }
        SlotKind::Label => quote! {
            let v = #raw;
            print_label(out, u32::try_from(v).map_err(|_| PrintError::Unprintable { what: #what, value: v })?, names)?;
        },
        SlotKind::Channels => quote! {
            let v = #raw;
            out.push_str(channels_text(v).ok_or(PrintError::Unprintable { what: #what, value: v })?);
        },
        SlotKind::Number { hex: true } if s.upper_hex => quote!(push_hex_upper(out, #raw);),
        SlotKind::Number { hex } => quote!(push_number(out, #raw, #hex);),
        SlotKind::Symbol { quoted } => quote! {
            let v = #raw;
            print_symbol(out, u32::try_from(v).map_err(|_| PrintError::Unprintable { what: #what, value: v })?, #quoted, names)?;
        },
        SlotKind::Name { spellings, .. } => {
            let vals = spellings.iter().map(|(v, _)| lit(*v));
            let texts = spellings.iter().map(|(_, t)| t);
            quote! {
                let v = #raw;
                out.push_str(match v { #(#vals => #texts,)* _ => return Err(PrintError::Unprintable { what: #what, value: v }) });
            }
        }
    }
}

/// A form's parser: the mnemonic's words, the group and operands into one local per field,
/// then the fields encoded in format order and decoded.
fn parse_form(
    inst: &InstModel,
    sat: Option<&str>,
    f: &TextForm,
    name: &proc_macro2::Ident,
) -> TokenStream {
    let saturated = sat.filter(|_| f.suffixes.contains(&Piece::Sat));
    let decls = parse_locals(inst, f, saturated);
    let mut body = Vec::new();
    if f.predicate.is_none() {
        body.push(quote! {
            if pred != PredicateControl::NONE {
                return Err(error(0, "no predicate: this instruction takes none", "("));
            }
        });
    }
    body.extend(f.suffixes.iter().map(|p| parse_suffix(sat, p)));
    body.push(quote!(w.finish()?;));
    body.push(parse_group(f, saturated));
    for s in &f.operands {
        let v = parse_slot(s, saturated);
        let space = match &s.glued {
            Some(g) => {
                let exp = format!("`{g}`");
                quote!(c.expect(#g, #exp)?;)
            }
            None => quote!(operand_space(&mut c)?;),
        };
        if s.zero_x {
            body.push(quote!(#space c.expect("0x", "`0x`")?; #v));
        } else {
            body.push(quote!(#space #v));
        }
    }
    body.push(quote!(c.skip_spaces(); c.finish()?;));
    if let (Some(d), true) = (sat, f.suffixes.contains(&Piece::Sat)) {
        let n = format_ident!("f_{}", d);
        body.push(quote!(if sat { set_saturated(&mut #n); }));
    }
    let enc = encode_locals(inst);
    let code = quote! {
        #(#decls)*
        #(#body)*
        let mut b: Vec<u8> = Vec::with_capacity(ENCODED_CAPACITY);
        #(#enc)*
        finish(&b, 0)
    };
    let used = idents_in(&code);
    let pred = param("pred", &code);
    let names = param("names", &code);
    // `Words::eat` and `Words::take` consume words; `finish` and `peek` only look.
    let text = code.to_string();
    let w = if text.contains("w . eat") || text.contains("w . take") {
        quote!(mut w)
    } else if used.contains("w") {
        quote!(w)
    } else {
        quote!(_w)
    };
    quote! {
        fn #name<'a>(#pred: PredicateControl, #w: Words<'a>, mut c: Cursor<'a>, #names: &dyn Names) -> Result<Instruction, ParseError> {
            #code
        }
    }
}

/// Statements reading one piece glued to the mnemonic from the words `w`.
fn parse_suffix(sat: Option<&str>, p: &Piece) -> TokenStream {
    match p {
        // Without a saturating destination `.sat` is read and means nothing.
        Piece::Sat if sat.is_none() => quote!(w.eat("sat");),
        Piece::Sat => quote!(let sat = w.eat("sat");),
        Piece::Literal {
            text,
            optional,
            bit,
        } => match (optional, bit) {
            (true, Some((field, b))) => {
                let n = format_ident!("f_{}", field);
                let bit = hex(1u64 << b);
                quote!(if w.eat(#text) { #n |= #bit; })
            }
            (true, None) => quote!(w.eat(#text);),
            _ => {
                let exp = format!("`.{text}`");
                quote!(if !w.eat(#text) { return Err(w.take("", #exp).err().unwrap_or_else(|| w.error(#exp))); })
            }
        },
        Piece::Slot { prefix, slot } => {
            let n = format_ident!("f_{}", slot.field);
            let put = place(quote!(v), slot);
            let exp = expected_of(slot, prefix);
            let val = word_value(slot);
            if let (
                true,
                SlotKind::Name {
                    default: Some(d), ..
                },
            ) = (slot.optional, &slot.kind)
            {
                let d = lit(*d);
                quote! {
                    let v = match w.peek() {
                        Some(x) if x.starts_with(#prefix) && { let x = &x[#prefix.len()..]; #val.is_some() } => {
                            let (x, at) = w.take(#prefix, #exp)?;
                            #val.ok_or_else(|| error(at, #exp, x))?
                        }
                        _ => #d,
                    };
                    #n |= #put;
                }
            } else {
                quote! {
                    let (x, at) = w.take(#prefix, #exp)?;
                    let v: u64 = #val.ok_or_else(|| error(at, #exp, x))?;
                    #n |= #put;
                }
            }
        }
    }
}

/// Statements reading the `(...)` group after the mnemonic. A group glued to the mnemonic
/// may follow spaces (Intel's parser reads `vme_ime (0, 0)` too); a separator, `,` with
/// spaces after it or not.
fn parse_group(f: &TextForm, saturated: Option<&str>) -> TokenStream {
    let mut body = Vec::new();
    let space = if f.group_layout.glued {
        quote!(c.skip_spaces();)
    } else {
        quote!(operand_space(&mut c)?;)
    };
    if !f.group.is_empty() {
        if let [s] = f.group.as_slice() {
            if is_exec(s) {
                let v = parse_slot(s, saturated);
                body.push(quote!(#space #v));
            } else {
                let v = parse_slot(s, saturated);
                body.push(quote!(#space c.expect("(", "`(`")?; #v c.expect(")", "`)`")?;));
            }
        } else {
            body.push(quote!(#space c.expect("(", "`(`")?;));
            for (k, s) in f.group.iter().enumerate() {
                if k > 0 {
                    body.push(quote!(c.expect(",", "`,`")?; c.skip_spaces();));
                }
                body.push(parse_slot(s, saturated));
            }
            body.push(quote!(c.expect(")", "`)`")?;));
        }
    }
    quote!(#(#body)*)
}

/// Statements encoding the parser's locals in format order into `b`.
fn encode_locals(inst: &InstModel) -> Vec<TokenStream> {
    // Encode in format order, then decode.
    let mut enc = Vec::new();
    let op = lit(u64::from(inst.opcode));
    enc.push(quote!(b.push(#op);));
    if let Some(s) = inst.sub_opcode {
        let s = lit(u64::from(s));
        enc.push(quote!(b.push(#s);));
    }
    for fname in inst
        .variants
        .first()
        .map(|v| v.fields.as_slice())
        .unwrap_or(&[])
    {
        let Some(fm) = inst.fields.get(fname) else {
            continue;
        };
        let n = format_ident!("f_{}", fm.rust_name);
        let what = fm.doc_name.as_str();
        enc.push(match &fm.ty {
            FieldType::Int(Int::U64) => quote!(Encode::encode(&#n, &mut b);),
            FieldType::Int(i) | FieldType::Enum(i, _) | FieldType::Bits { base: i, .. } => {
                let t = super::int_ty(i.unsigned());
                quote!(Encode::encode(&<#t>::try_from(#n).map_err(|_| error(0, "a value that fits the field", #what))?, &mut b);)
            }
            FieldType::Rest => quote!(),
            _ => quote!(Encode::encode(&#n, &mut b);),
        });
    }
    enc
}

/// `v`, masked and shifted into the bits of slot `s` (`(v & mask) << lo`, without no-ops).
fn place(v: TokenStream, s: &TextSlot) -> TokenStream {
    unparen(shl(and_mask(v, s.mask, 64), u32::from(s.lo)))
}

/// Fields the form's parser ORs bits into (scalar slots, flag bits), and operands it assigns.
fn parse_writes(f: &TextForm) -> (BTreeSet<&str>, BTreeSet<&str>) {
    let mut ors = BTreeSet::new();
    let mut sets = BTreeSet::new();
    for s in slots(f) {
        match s.kind {
            SlotKind::Vector | SlotKind::AddressOf | SlotKind::Regionless | SlotKind::Raw => {
                sets.insert(s.field.as_str())
            }
            _ => ors.insert(s.field.as_str()),
        };
    }
    for p in &f.suffixes {
        if let Piece::Literal {
            optional: true,
            bit: Some((field, _)),
            ..
        } = p
        {
            ors.insert(field.as_str());
        }
    }
    (ors, sets)
}

/// The parser's locals, one `f_` per field: a scalar starts from the bits the form fixes and
/// is mutable only if a slot writes it; an operand a slot reads is assigned there, once.
fn parse_locals(inst: &InstModel, f: &TextForm, saturated: Option<&str>) -> Vec<TokenStream> {
    let (ors, sets) = parse_writes(f);
    let mut decls = Vec::new();
    for fm in inst.fields.values().filter(|fm| fm.ty != FieldType::Rest) {
        let n = format_ident!("f_{}", fm.rust_name);
        let rust = fm.rust_name.as_str();
        if sets.contains(rust) {
            // Declared where its slot reads it.
            continue;
        }
        decls.push(match fm.ty {
            FieldType::Predicate if f.predicate.as_deref() == Some(rust) => quote!(let #n = pred;),
            FieldType::Predicate => quote!(let #n = PredicateControl::NONE;),
            FieldType::Vector => {
                let zero = unprinted_vector(fm);
                if saturated == Some(rust) {
                    quote!(let mut #n = #zero;)
                } else {
                    quote!(let #n = #zero;)
                }
            }
            FieldType::Raw => quote!(let #n = RawOperand { id: 0, offset: 0 };),
            _ => {
                let fixed = f
                    .fixed
                    .iter()
                    .filter(|(field, ..)| field == rust)
                    .fold(0u64, |acc, (_, lo, _, value)| acc | (value << lo));
                // A value the text implies (an exec size it does not print).
                let implied = f.implied.iter().find(|(field, _)| field == rust);
                let fixed = hex(implied.map_or(fixed, |(_, v)| *v));
                if ors.contains(rust) {
                    quote!(let mut #n: u64 = #fixed;)
                } else {
                    quote!(let #n: u64 = #fixed;)
                }
            }
        });
    }
    decls
}

fn expected_of(s: &TextSlot, prefix: &str) -> String {
    match &s.kind {
        SlotKind::Name { spellings, .. } => {
            let l: Vec<String> = spellings
                .iter()
                .map(|(_, t)| format!("`.{prefix}{t}`"))
                .collect();
            format!("one of {}", l.join(", "))
        }
        SlotKind::Channels => "channel letters (`R`, `RG`, `RGBA`, ...)".into(),
        SlotKind::Number { hex: true } => format!("`.{prefix}` and hexadecimal digits"),
        _ => format!("`.{prefix}` and a number"),
    }
}

/// An expression turning the word `x` into `Option<u64>`.
fn word_value(s: &TextSlot) -> TokenStream {
    match &s.kind {
        SlotKind::Name { spellings, .. } if spellings.is_empty() => quote!(None::<u64>),
        SlotKind::Name { spellings, .. } => {
            let vals = spellings.iter().map(|(v, _)| lit(*v));
            let texts = spellings.iter().map(|(_, t)| t);
            quote!((match x { #(#texts => Some(#vals),)* _ => None }))
        }
        SlotKind::Channels => quote!(channels_value(x)),
        SlotKind::Number { hex } => quote!(word_number(x, #hex)),
        _ => quote!(word_number(x, false)),
    }
}

/// Statements parsing a group or operand slot at `c` into its `f_` local.
/// (`saturated`: the operand `.sat` sets, which is mutable.)
fn parse_slot(s: &TextSlot, saturated: Option<&str>) -> TokenStream {
    let n = format_ident!("f_{}", s.field);
    let put = |v: TokenStream| place(v, s);
    match &s.kind {
        SlotKind::Vector | SlotKind::AddressOf | SlotKind::Regionless | SlotKind::Raw => {
            let m = if saturated == Some(s.field.as_str()) {
                quote!(mut)
            } else {
                quote!()
            };
            let parse = match s.kind {
                SlotKind::Vector => quote!(parse_vector(&mut c, names)?),
                SlotKind::AddressOf => quote!(special::address_of::parse(&mut c, names)?),
                SlotKind::Regionless => quote!(special::regionless::parse(&mut c, names)?),
                _ => quote!(parse_raw(&mut c, names)?),
            };
            quote!(let #m #n = #parse;)
        }
        SlotKind::ExecSize => {
            let v = put(quote!(u64::from(parse_exec_size(&mut c)?.0)));
            quote!(#n |= #v;)
        }
        SlotKind::ElementCount { counts, .. } => {
            let vals = counts.iter().map(|(v, _)| lit(*v));
            let ns = counts.iter().map(|(_, n)| lit(*n));
            let exp = format!(
                "an element count: {}",
                counts
                    .iter()
                    .map(|(_, n)| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            quote! {
                let at = c.column();
                let (m, count) = parse_exec_count(&mut c)?;
                let v: u64 = match count { #(#ns => #vals,)* _ => return Err(error(at, #exp, "")) };
                #n |= v | (u64::from(m) << 4);
            }
        }
        SlotKind::Surface | SlotKind::Sampler => {
            let want = if s.kind == SlotKind::Surface {
                quote!(StateClass::Surface)
            } else {
                quote!(StateClass::Sampler)
            };
            let exp = if s.kind == SlotKind::Surface {
                "a surface"
            } else {
                "a sampler"
            };
            let v = put(quote!(u64::from(id)));
            quote! {
                let at = c.column();
                let (class, id) = parse_state_name(&mut c, names)?;
                if class != #want { return Err(error(at, #exp, "")); }
                #n |= #v;
            }
        }
        SlotKind::Label => {
            let v = put(quote!(u64::from(parse_label(&mut c, names)?)));
            quote!(#n |= #v;)
        }
        SlotKind::Symbol { .. } => {
            let v = put(quote!(u64::from(parse_symbol(&mut c, names)?)));
            quote!(#n |= #v;)
        }
        _ => {
            let val = word_value(s);
            let exp = expected_of(s, "");
            let v = put(quote!(v));
            let word = operand_word(s);
            quote! {
                let at = c.column();
                let x = #word;
                let v: u64 = #val.ok_or_else(|| error(at, #exp, x))?;
                #n |= #v;
            }
        }
    }
}

/// Reads an operand word: letters, digits and `_`, and `-` where a spelling of the slot holds
/// one (a template comment's `"16-full"`).
fn operand_word(s: &TextSlot) -> TokenStream {
    let dash = matches!(&s.kind, SlotKind::Name { spellings, .. } if spellings.iter().any(|(_, t)| t.contains('-')));
    if dash {
        quote!(c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'))
    } else {
        quote!(c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_'))
    }
}
