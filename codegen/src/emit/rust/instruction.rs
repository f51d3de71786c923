//! One instruction's module: its enums, bit-packed field structs, variant structs, and the
//! struct (or enum of variants) with encode, decode and validate.

use super::counted;
use super::field::{
    bits_struct, decode_field, encode_field, err, field_docs, field_type, placeholder,
    validate_field,
};
use super::{doc_code, doc_text, docs, enum_tokens, hex, ident, idents_in, not, param, use_only};
use crate::analyze::{FieldType, InstModel, MemberType, Model, Slot, VariantModel};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// What the slots of a variant give its struct, each list in slot order.
#[derive(Default)]
struct StructParts {
    /// The struct's fields.
    decls: Vec<TokenStream>,
    /// The fields of `PLACEHOLDER`.
    blanks: Vec<TokenStream>,
    /// Decoding in place stores each field as soon as it is read.
    in_place: Vec<TokenStream>,
    encodes: Vec<TokenStream>,
    validates: Vec<TokenStream>,
}

/// The declaration, placeholder, decode, encode and validate code of each of `v`'s slots.
fn struct_parts(inst: &InstModel, v: &VariantModel) -> StructParts {
    let mut p = StructParts::default();
    for (_, slot) in &v.slots(inst) {
        match slot {
            Slot::Field(f) => {
                let fname = ident(&f.rust_name);
                let t = field_type(inst, f);
                let d = field_docs(f);
                p.decls.push(quote!(#d pub #fname: #t));
                let blank = placeholder(inst, f);
                p.blanks.push(quote!(#fname: #blank));
                let dec = decode_field(inst, f);
                p.in_place.push(match &f.ty {
                    // Operands are written straight into the field (see
                    // `VectorOperand::decode_in_place`); nothing later reads a local of them.
                    FieldType::Vector => {
                        let n = &f.doc_name;
                        quote!(<VectorOperand as Decode>::decode_in_place(&mut self.#fname, rdr_, #n)?;)
                    }
                    _ => quote!(#dec self.#fname = #fname;),
                });
                p.encodes.push(encode_field(f));
                p.validates.push(validate_field(inst, f));
            }
            Slot::Count(f, c) => {
                p.in_place.push(decode_field(inst, f));
                p.encodes.push(counted::encode_count(f, c));
                p.validates.push(counted::validate_count(inst, f, c));
            }
            Slot::List(c, item) => {
                p.decls.push(counted::list_decl(inst, c, item));
                let lname = ident(&c.rust_name);
                let empty = counted::empty_list(inst, c, item);
                p.blanks.push(quote!(#lname: #empty));
                p.in_place.push(counted::decode_list(
                    inst,
                    c,
                    item,
                    quote!(Self),
                    counted::ListTarget::InPlace,
                ));
                p.encodes.push(counted::encode_list(c, item));
                p.validates.push(counted::validate_list(inst, c));
            }
        }
    }
    p
}

/// A struct holding one variant's fields, with field encode, decode and validate.
fn fields_struct(
    inst: &InstModel,
    name: &str,
    v: &VariantModel,
    doc: TokenStream,
    opcode_bytes: TokenStream,
    selector_checks: TokenStream,
) -> TokenStream {
    let n = ident(name);
    let StructParts {
        decls,
        blanks,
        in_place,
        encodes,
        validates,
    } = struct_parts(inst, v);
    let accessors = counted::accessors(inst, v);
    let encodes = quote!(#(#encodes)*);
    let out = param("out", &encodes);
    let in_place = quote!(#(#in_place)*);
    let rdr = param("rdr_", &in_place);
    let validates = quote!(#selector_checks #(#validates)*);
    let platform = param("platform", &validates);
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct #n { #(#decls,)* }

        impl #n {
            #accessors

            /// Appends the binary form, opcode byte(s) included.
            #[inline]
            pub fn encode(&self, out: &mut Vec<u8>) {
                self.put(&mut Staging::new(out));
            }

            /// Writes the binary form, opcode byte(s) included, into `out`.
            #[inline]
            pub fn put(&self, out: &mut Staging<'_>) {
                #opcode_bytes
                self.put_fields(out);
            }

            /// Appends the fields, in format-table order.
            pub fn encode_fields(&self, out: &mut Vec<u8>) {
                self.put_fields(&mut Staging::new(out));
            }

            /// Writes the fields, in format-table order, into `out`.
            #[inline]
            pub fn put_fields(&self, #out: &mut Staging<'_>) {
                #encodes
            }

            /// What decoding in place starts from.
            pub(crate) const PLACEHOLDER: Self = Self { #(#blanks,)* };

            /// Reads the fields that follow the opcode byte(s).
            #[inline]
            pub fn decode_fields(rdr_: &mut Reader<'_>) -> Result<Self, DecodeError> {
                let mut this_ = Self::PLACEHOLDER;
                this_.decode_fields_into(rdr_)?;
                Ok(this_)
            }

            /// Reads the fields that follow the opcode byte(s) into `self`, each stored as
            /// soon as it is read; on error `self` holds some fields of the new instruction.
            #[inline]
            pub fn decode_fields_into(&mut self, #rdr: &mut Reader<'_>) -> Result<(), DecodeError> {
                #in_place
                Ok(())
            }

            /// Checks every rule the doc states, for `platform`.
            pub fn validate(&self, #platform: Platform) -> Result<(), ValidationError> {
                #validates
                Ok(())
            }
        }
    }
}

/// What selects variant `v` (one boolean expression); `None` when nothing does: it always applies.
fn choice_test(inst: &InstModel, v: &VariantModel, root: Option<&str>) -> Option<TokenStream> {
    let conds = v.choices.iter().filter_map(|c| {
        let f = inst.fields.get(&c.field)?;
        let local = ident(&f.rust_name);
        let base = match root {
            Some(r) => {
                let r = ident(r);
                quote!(#r.#local)
            }
            None => quote!(#local),
        };
        let access = match &c.member {
            Some(m) => {
                let m = ident(m);
                quote!(#base.#m)
            }
            None => base,
        };
        if c.values.is_empty() {
            // The analyzer resolves no such choice; a clause naming no value selects nothing.
            return Some(quote!(false));
        }
        let en = ident(&inst.enums[c.enum_index].name);
        let vals = c.values.iter().map(|v| {
            let v = ident(v);
            quote!(#en::#v)
        });
        Some(quote!(matches!(#access, #(#vals)|*)))
    });
    let conds: Vec<TokenStream> = conds.collect();
    match conds.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        _ => Some(quote!((#(#conds)&&*))),
    }
}

/// `Err` where the instruction does not exist: the platforms of its entry in the chapters'
/// list of instructions ([`crate::analyze::Availability`]).
fn availability_check(inst: &InstModel) -> TokenStream {
    let Some(a) = &inst.availability else {
        return quote!();
    };
    let fails = super::top::rule_fails_bare(&a.rule);
    let (name, rule) = (&inst.doc_name, &a.quote);
    quote! {
        if #fails {
            return Err(ValidationError { instruction: #name, field: "Opcode", rule: #rule });
        }
    }
}

/// A generic doc's first field must not hold a sub-opcode another doc claims.
fn claimed_check(inst: &InstModel, fields: &[String]) -> TokenStream {
    let Some(first) = fields.first().and_then(|f| inst.fields.get(f)) else {
        return quote!();
    };
    if inst.claimed_subs.is_empty() || !matches!(first.ty, FieldType::Int(_)) {
        return quote!();
    }
    let n = ident(&first.rust_name);
    let arms = inst.claimed_subs.iter().map(|(value, name)| {
        let v = hex(u64::from(*value));
        let rule = format!(
            "{} {:#04x} is the sub-opcode of {}: those bytes decode as {}",
            first.doc_name, value, name, name
        );
        let e = err(inst, &first.doc_name, &rule);
        quote!(#v => { #e })
    });
    quote!(match u64::from(self.#n) { #(#arms)* _ => {} })
}

/// The module of one instruction.
pub fn render(model: &Model, inst: &InstModel) -> TokenStream {
    if let Some(canonical) = &inst.alias_of {
        return alias(model, inst, canonical);
    }
    let enums = inst.enums.iter().filter(|e| !e.shared).map(enum_tokens);
    let bits = inst
        .fields
        .values()
        .filter(|f| !f.shared_struct)
        .map(|f| bits_struct(inst, f));
    let body = if inst.variants.len() <= 1 {
        single_format(inst)
    } else {
        variants_enum(inst)
    };
    with_imports(
        model,
        inst,
        quote! {
            #(#enums)*
            #(#bits)*
            #body
        },
    )
}

/// The instruction's docs: name and source, description, semantics, text and notes.
fn inst_doc(inst: &InstModel) -> TokenStream {
    let mut head = vec![format!("`{}` ({}).", inst.doc_name, inst.source)];
    if let Some(a) = &inst.availability {
        head.push(String::new());
        head.push(format!("Exists on {}.", doc_text(&a.quote)));
    }
    if !inst.description.is_empty() {
        head.push(String::new());
        head.push(doc_text(&inst.description));
    }
    head.extend(doc_code("Semantics", &inst.semantics));
    head.extend(doc_code("Text", &inst.text));
    head.extend(doc_code("Notes", &inst.notes));
    docs(&head)
}

/// A doc that encodes exactly like `canonical`: a type alias of its struct.
fn alias(model: &Model, inst: &InstModel, canonical: &str) -> TokenStream {
    let target = model.instructions.iter().find(|i| i.doc_name == canonical);
    let Some(t) = target else { return quote!() };
    let ty = ident(&inst.rust_name);
    let m = ident(&t.module);
    let tt = ident(&t.rust_name);
    let doc = docs(&[format!(
        "`{}` encodes exactly like `{}`, which decodes; see its docs.",
        inst.doc_name, canonical
    )]);
    quote! { #doc pub type #ty = super::#m::#tt; }
}

/// Statements writing the opcode byte and the sub-opcode byte, if any.
fn opcode_bytes(inst: &InstModel) -> TokenStream {
    let op = hex(u64::from(inst.opcode));
    match inst.sub_opcode {
        Some(s) => {
            let s = hex(u64::from(s));
            quote!(out.byte(#op); out.byte(#s);)
        }
        None => quote!(out.byte(#op);),
    }
}

/// The `OPCODE` and `SUB_OPCODE` constants.
fn opcode_consts(inst: &InstModel) -> TokenStream {
    let op = hex(u64::from(inst.opcode));
    let sub = match inst.sub_opcode {
        Some(s) => {
            let s = hex(u64::from(s));
            quote!(Some(#s))
        }
        None => quote!(None),
    };
    quote! {
        /// The opcode byte.
        pub const OPCODE: u8 = #op;
        /// The sub-opcode byte that follows the opcode, if any.
        pub const SUB_OPCODE: Option<u8> = #sub;
    }
}

/// An instruction of one format: one struct of its fields.
fn single_format(inst: &InstModel) -> TokenStream {
    let ty = ident(&inst.rust_name);
    let none = VariantModel::default();
    let v = inst.variants.first().unwrap_or(&none);
    let s = fields_struct(
        inst,
        &inst.rust_name,
        v,
        inst_doc(inst),
        opcode_bytes(inst),
        {
            let (avail, claimed) = (availability_check(inst), claimed_check(inst, &v.fields));
            quote!(#avail #claimed)
        },
    );
    let consts = opcode_consts(inst);
    quote! {
        #s
        impl #ty { #consts }
    }
}

/// The name of the struct of variant `v`.
fn variant_struct_name(inst: &InstModel, v: &VariantModel) -> String {
    format!("{}{}", inst.rust_name, v.rust_name)
}

/// An instruction of several formats: a struct per variant and the enum of them.
fn variants_enum(inst: &InstModel) -> TokenStream {
    let ty = ident(&inst.rust_name);
    let mut structs = Vec::new();
    let mut arms_encode = Vec::new();
    let mut arms_validate = Vec::new();
    let mut variant_decls = Vec::new();
    for v in &inst.variants {
        let sname = variant_struct_name(inst, v);
        let vdoc = variant_doc(inst, v);
        structs.push(fields_struct(
            inst,
            &sname,
            v,
            vdoc.clone(),
            opcode_bytes(inst),
            {
                let (avail, selector) = (availability_check(inst), selector_check(inst, v));
                quote!(#avail #selector)
            },
        ));
        let vn = ident(&v.rust_name);
        let sn = ident(&sname);
        variant_decls.push(quote!(#vdoc #vn(#sn)));
        arms_encode.push(quote!(#ty::#vn(v) => v.put(out)));
        arms_validate.push(quote!(#ty::#vn(v) => v.validate(platform)));
    }
    let inst_doc = inst_doc(inst);
    let consts = opcode_consts(inst);
    let decode = variants_decode(inst);
    let first_placeholder = match inst.variants.first() {
        Some(v) => {
            let vn = ident(&v.rust_name);
            let sn = ident(&variant_struct_name(inst, v));
            quote!(#ty::#vn(#sn::PLACEHOLDER))
        }
        None => quote!(),
    };
    structs.push(quote! {
        #inst_doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum #ty { #(#variant_decls,)* }

        impl #ty {
            #consts

            /// Appends the binary form, opcode byte(s) included.
            pub fn encode(&self, out: &mut Vec<u8>) {
                self.put(&mut Staging::new(out));
            }

            /// Writes the binary form, opcode byte(s) included, into `out`.
            pub fn put(&self, out: &mut Staging<'_>) {
                match self { #(#arms_encode,)* }
            }

            /// Reads the common fields, then the fields of the variant they select.
            #[inline]
            pub fn decode_fields(rdr_: &mut Reader<'_>) -> Result<Self, DecodeError> {
                #decode
            }

            /// What decoding in place starts from.
            pub(crate) const PLACEHOLDER: Self = #first_placeholder;

            /// Reads the fields into `self`; the variant is known only once its
            /// selectors are read, so the value is built and then stored.
            #[inline]
            pub fn decode_fields_into(&mut self, rdr_: &mut Reader<'_>) -> Result<(), DecodeError> {
                *self = Self::decode_fields(rdr_)?;
                Ok(())
            }

            /// Checks every rule the doc states, for `platform`.
            pub fn validate(&self, platform: Platform) -> Result<(), ValidationError> {
                match self { #(#arms_validate,)* }
            }
        }
    });
    quote!(#(#structs)*)
}

/// The docs of variant `v`: when it applies.
fn variant_doc(inst: &InstModel, v: &VariantModel) -> TokenStream {
    docs(&[format!(
        "`{}` when {}{}.",
        inst.doc_name,
        doc_text(v.condition.as_deref().unwrap_or("no condition")),
        if v.shadowed {
            " (never decoded: an earlier variant takes its encodings)"
        } else {
            ""
        }
    )])
}

/// Validation of variant `v`: its selectors must select it.
fn selector_check(inst: &InstModel, v: &VariantModel) -> TokenStream {
    let Some(test) = choice_test(inst, v, Some("this_")) else {
        return quote!();
    };
    let cond = v.condition.clone().unwrap_or_default();
    let name = &inst.doc_name;
    let selector_field = v
        .choices
        .first()
        .map(|c| c.field.clone())
        .unwrap_or_default();
    let not_test = not(test);
    quote! {
        let this_ = self;
        if #not_test {
            return Err(ValidationError { instruction: #name, field: #selector_field, rule: #cond });
        }
    }
}

/// The body of `decode_fields` of an instruction of several formats: the common prefix, then
/// the first variant whose selectors match.
fn variants_decode(inst: &InstModel) -> TokenStream {
    let prefix_decodes = inst.variants[0]
        .fields
        .iter()
        .take(inst.prefix)
        .filter_map(|f| inst.fields.get(f))
        .map(|f| decode_field(inst, f));
    let mut branches = Vec::new();
    let mut always = None;
    for v in inst.variants.iter().filter(|v| !v.shadowed) {
        let (decodes, value) = variant_rest_decode(inst, v);
        match choice_test(inst, v, None) {
            Some(test) => branches.push(quote! {
                if #test {
                    #decodes
                    return #value;
                }
            }),
            // A variant nothing selects always applies: later ones are never tried.
            None => {
                always = Some(quote! {
                    #decodes
                    #value
                });
                break;
            }
        }
    }
    let sel_name = inst
        .variants
        .iter()
        .flat_map(|v| v.choices.first())
        .map(|c| c.field.clone())
        .next()
        .unwrap_or_else(|| "format".into());
    let (prefix_at, tail) = match always {
        Some(decode) => (quote!(), decode),
        None => (
            quote!(let start_ = rdr_.position();),
            quote!(Err(DecodeError::new(#sel_name, start_, DecodeErrorKind::InvalidValue { value: 0, expected: "a value that selects one of the doc's formats" }))),
        ),
    };
    quote! {
        #prefix_at
        #(#prefix_decodes)*
        #(#branches)*
        #tail
    }
}

/// Decoding of variant `v`'s fields after the common prefix, and the value built of them.
fn variant_rest_decode(inst: &InstModel, v: &VariantModel) -> (TokenStream, TokenStream) {
    let ty = ident(&inst.rust_name);
    let vn = ident(&v.rust_name);
    let sn = ident(&variant_struct_name(inst, v));
    let slots = v.slots(inst);
    let rest_decodes =
        slots
            .iter()
            .filter(|(i, _)| *i >= inst.prefix)
            .map(|(_, slot)| match slot {
                Slot::Field(f) | Slot::Count(f, _) => decode_field(inst, f),
                Slot::List(c, item) => {
                    counted::decode_list(inst, c, item, quote!(#sn), counted::ListTarget::Local)
                }
            });
    let all = slots.iter().filter_map(|(_, slot)| match slot {
        Slot::Field(f) => Some(ident(&f.rust_name)),
        Slot::List(c, _) => Some(ident(&c.rust_name)),
        Slot::Count(..) => None,
    });
    (
        quote!(#(#rest_decodes)*),
        quote!(Ok(#ty::#vn(#sn { #(#all,)* }))),
    )
}

/// The names of the structs and enums `code` defines.
fn idents_defined(code: &TokenStream) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut after_item = false;
    for t in code.clone() {
        if let proc_macro2::TokenTree::Ident(i) = t {
            let s = i.to_string();
            if after_item {
                out.insert(s.clone());
            }
            after_item = s == "struct" || s == "enum";
        } else {
            after_item = false;
        }
    }
    out
}

/// The variants of the enums the module's code defines (`A` of `pub enum Channel { R, G, B, A
/// }`): bare names that are no use of a shared type of the same name.
fn variants_defined(code: &TokenStream) -> BTreeSet<String> {
    use proc_macro2::{Delimiter, TokenTree};
    let mut out = BTreeSet::new();
    // 1: after `enum`; 2: after its name.
    let mut state = 0u8;
    for t in code.clone() {
        match t {
            TokenTree::Ident(i) if i == "enum" => state = 1,
            TokenTree::Ident(_) if state == 1 => state = 2,
            TokenTree::Group(g) if state == 2 && g.delimiter() == Delimiter::Brace => {
                let mut at_variant = true;
                let mut attribute = false;
                for v in g.stream() {
                    match v {
                        TokenTree::Punct(p) if p.as_char() == '#' => attribute = true,
                        TokenTree::Group(_) if attribute => attribute = false,
                        TokenTree::Punct(p) if p.as_char() == ',' => at_variant = true,
                        TokenTree::Ident(i) if at_variant => {
                            out.insert(i.to_string());
                            at_variant = false;
                        }
                        _ => {}
                    }
                }
                state = 0;
            }
            TokenTree::Group(_) => state = 0,
            _ => {}
        }
    }
    out
}

/// The module's code behind the imports it uses.
fn with_imports(model: &Model, inst: &InstModel, code: TokenStream) -> TokenStream {
    let used = idents_in(&code);
    let runtime = use_only(
        quote!(crate::runtime),
        &[
            "DataType",
            "Decode",
            "DecodeError",
            "DecodeErrorKind",
            "Encode",
            "InlineList",
            "OperandClass",
            "PredicateControl",
            "RawOperand",
            "Reader",
            "Staging",
            "ValidationError",
            "VectorOperand",
        ],
        &used,
    );
    // Names the module defines itself shadow the shared ones; its enums' variants are no uses.
    let own = idents_defined(&code);
    let variants = variants_defined(&code);
    // The types of the doc's own fields that live in `enums` are re-exported here, so the
    // doc's module names every type of its fields whether or not another doc shares it: a doc
    // added or changed elsewhere never moves this doc's names (NAMING.md).
    let exported = shared_field_types(inst, &own);
    let shared = model
        .shared_enums
        .iter()
        .map(|e| e.name.as_str())
        .chain(model.shared_structs.iter().filter_map(|(i, field)| {
            let inst = model.instructions.get(*i)?;
            match &inst.fields.get(field)?.ty {
                FieldType::Bits { name, .. } => Some(name.as_str()),
                _ => None,
            }
        }))
        .any(|n| {
            used.contains(n)
                && !own.contains(n)
                && !variants.contains(n)
                && !exported.iter().any(|e| e == n)
        });
    let glob = if shared {
        quote!(
            use super::enums::*;
        )
    } else {
        quote!()
    };
    let exported: Vec<Ident> = exported.iter().map(|n| ident(n)).collect();
    let enums = match exported.as_slice() {
        [] => glob,
        [one] => quote!(pub use super::enums::#one; #glob),
        _ => quote!(pub use super::enums::{#(#exported),*}; #glob),
    };
    let platform = use_only(quote!(super), &["Platform"], &used);
    let vec = use_only(quote!(alloc::vec), &["Vec"], &used);
    quote! {
        #runtime
        #enums
        #platform
        #vec
        #code
    }
}

/// The types of `inst`'s fields that the shared module `enums` holds (its whole-field and
/// bit-range enums, its bit-packed structs), by name, each once, less those the module defines.
fn shared_field_types(inst: &InstModel, own: &BTreeSet<String>) -> Vec<String> {
    let mut names = BTreeSet::new();
    for f in inst.fields.values() {
        match &f.ty {
            FieldType::Enum(_, e) => names.extend(
                inst.enums
                    .get(*e)
                    .filter(|d| d.shared)
                    .map(|d| d.name.clone()),
            ),
            FieldType::Bits { name, members, .. } => {
                if f.shared_struct {
                    names.insert(name.clone());
                }
                for m in members {
                    if let MemberType::Enum(e) = m.ty {
                        names.extend(
                            inst.enums
                                .get(e)
                                .filter(|d| d.shared)
                                .map(|d| d.name.clone()),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    names.into_iter().filter(|n| !own.contains(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::variants_defined;
    use quote::quote;

    #[test]
    fn variants_are_the_names_an_enum_defines_not_its_other_idents() {
        let code = quote! {
            /// Channels.
            #[derive(Copy, Clone)]
            pub enum Channel {
                /// Red.
                R = 0,
                #[doc = "Alpha"]
                A = 3,
            }
            pub struct Dpas { pub a: A, pub w: W }
            impl Channel { pub const ALL: &'static [Channel] = &[Channel::R]; }
        };
        let v: Vec<String> = variants_defined(&code).into_iter().collect();
        assert_eq!(v, ["A", "R"]);
    }
}
