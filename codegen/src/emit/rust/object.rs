//! The records of the object-format chapter → `src/generated/object.rs`: one struct per
//! pseudo-structure with a reader and a writer (one render function per record), accessors for
//! bit-packed items and enumerated values, and the chapter's predefined ids.
//!
//! Counts and sizes are not struct members: the reader uses them to read what they count, the
//! writer derives them from what it writes, so they cannot disagree.

use super::{doc_text, docs, extract, header, hex, ident, lit, shl, unparen};
use crate::analyze::object::{ItemKind, ItemModel, ObjectModel, RecordModel};
use crate::emit::{FileJob, Options};
use proc_macro2::TokenStream;
use quote::quote;

/// Where the records go.
const PATH: &str = "src/generated/object.rs";

/// `src/generated/object.rs` as a job, when the spec has records (the parent module declares
/// it from the model's `object`).
pub(crate) fn job<'a>(object: Option<&'a ObjectModel>, opts: &'a Options) -> Option<FileJob<'a>> {
    let object = object?;
    let sources: Vec<String> = object
        .sources
        .iter()
        .map(|s| format!("{}/{s}", opts.spec_label))
        .collect();
    let head = header(opts, &sources.join(", "));
    Some(FileJob::rust(PATH, head, move || file(object, opts)))
}

fn file(object: &ObjectModel, opts: &Options) -> TokenStream {
    let records: Vec<TokenStream> = object.records.iter().map(record).collect();
    let predefined = predefined(object);
    let label = &opts.spec_label;
    quote! {
        //! Records of the object-format chapter: one struct per pseudo-structure, read and
        //! written as the chapter lays it out. Counts and sizes are derived when writing.
        use crate::object::InstructionStream;
        use crate::runtime::object::{FileError, ObjReader, ObjWriter, Undescribed};
        use alloc::vec::Vec;

        /// The spec directory this crate was generated from.
        pub const SPEC: &str = #label;

        #predefined

        fn meaning(values: &[(u64, &'static str)], v: u64) -> Option<&'static str> {
            values.iter().find(|(x, _)| *x == v).map(|(_, m)| *m)
        }

        #(#records)*
    }
}

fn predefined(object: &ObjectModel) -> TokenStream {
    let names = object.predefined_variables.iter().map(|n| match n {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    });
    let surfaces = lit(u64::from(object.predefined_surfaces));
    quote! {
        /// Predefined general variables `V0..`, by id, with the names of the chapter's table
        /// (`None`: reserved, no name). User variables start after them.
        pub const PREDEFINED_VARIABLES: &[Option<&str>] = &[#(#names),*];
        /// Surfaces `T0..` that are predefined; the surface table's first entry follows them.
        pub const PREDEFINED_SURFACES: u32 = #surfaces;
    }
}

fn rust_ty(name: &str) -> TokenStream {
    let id = ident(name);
    quote!(#id)
}

/// The statements and members one record's items give, gathered in item order.
#[derive(Default)]
struct Parts {
    members: Vec<TokenStream>,
    reads: Vec<TokenStream>,
    writes: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    accessors: Vec<TokenStream>,
    derived: Vec<String>,
}

/// One pseudo-structure: struct, reader, writer, accessors.
fn record(r: &RecordModel) -> TokenStream {
    let name = ident(&r.rust_name);
    let mut p = Parts::default();
    let mut run = Vec::new();
    for f in &r.items {
        let fname = f.name.as_str();
        let id = ident(&f.rust_name);
        p.writes.push(quote!(w.mark(#fname);));
        if let ItemKind::Scalar(s) = &f.kind {
            run.push((fname, id.clone(), rust_ty(s.rust), s.bytes));
        } else {
            p.reads.push(scalar_run(&mut run));
            // The reader marks the same items, so a file's layout is checked from where they were.
            p.reads.push(quote!(r.mark(#fname);));
        }
        item(f, &mut p);
    }
    p.reads.push(scalar_run(&mut run));
    let Parts {
        members,
        reads,
        writes,
        inits,
        accessors,
        derived,
    } = p;
    let mut doc_lines = vec![format!("`{}` of {}:{}.", r.name, r.source, r.line)];
    if !derived.is_empty() {
        doc_lines.push(String::new());
        doc_lines.push(format!(
            "Derived when writing, so not members: {}.",
            derived.join(", ")
        ));
    }
    if !r.aliases.is_empty() {
        doc_lines.push(String::new());
        doc_lines.push(format!(
            "Also the format of {}.",
            r.aliases
                .iter()
                .map(|(a, _)| format!("`{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let doc = docs(&doc_lines);
    let min = lit(r.min_size);
    let aliases = r.aliases.iter().map(|(a, rust)| {
        let an = ident(rust);
        let d = docs(&[format!("`{a}` shares the format of `{}`.", r.name)]);
        quote!(#d pub type #an = #name;)
    });
    quote! {
        #doc
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct #name { #(#members)* }

        #(#aliases)*

        impl #name {
            /// The fewest bytes a record can take (its fixed-size items).
            pub const MIN_SIZE: usize = #min;

            /// Reads one record at the cursor.
            pub fn read(r: &mut ObjReader) -> Result<Self, FileError> {
                #(#reads)*
                Ok(#name { #(#inits)* })
            }

            /// Writes the record, with its counts and sizes derived.
            pub fn write(&self, w: &mut ObjWriter) -> Result<(), FileError> {
                #(#writes)*
                Ok(())
            }

            #(#accessors)*
        }
    }
}

/// The member, reads, writes and accessors of one item (scalars are read in runs by
/// [`record`]).
fn item(f: &ItemModel, p: &mut Parts) {
    let fname = f.name.as_str();
    let id = ident(&f.rust_name);
    let doc = if f.description.is_empty() {
        docs(&[format!("`{fname}`.")])
    } else {
        docs(&[doc_text(&f.description)])
    };
    let local = |c: &crate::analyze::object::CountRef| ident(&c.rust_name);
    match &f.kind {
        ItemKind::Scalar(s) => {
            let t = rust_ty(s.rust);
            if let Some(user) = &f.derived_for {
                p.derived.push(format!("`{fname}`"));
                let uid = ident(&user.rust_name);
                let len = if user.encoded_len {
                    quote!(self.#uid.encoded_len())
                } else {
                    quote!(self.#uid.len())
                };
                p.writes.push(quote!(w.count::<#t>(#fname, #len)?;));
            } else {
                p.members.push(quote!(#doc pub #id: #t,));
                p.inits.push(quote!(#id,));
                p.writes.push(quote!(w.scalar::<#t>(self.#id);));
                p.accessors.push(field_accessors(f, &t));
            }
        }
        ItemKind::Array { ty, count } => {
            let t = rust_ty(ty.rust);
            let c = local(count);
            p.members.push(quote!(#doc pub #id: Vec<#t>,));
            p.reads
                .push(quote!(let #id = r.array::<#t>(#fname, u64::from(#c))?;));
            p.inits.push(quote!(#id,));
            p.writes.push(quote!(w.array(&self.#id);));
        }
        ItemKind::Records { record, count } => {
            let c = local(count);
            p.inits.push(quote!(#id,));
            match record {
                Some(rec) => {
                    let rt = ident(rec);
                    p.members.push(quote!(#doc pub #id: Vec<#rt>,));
                    p.reads.push(quote!(let #id = r.records(#fname, u64::from(#c), #rt::MIN_SIZE, #rt::read)?;));
                    p.writes
                        .push(quote!(w.records(#fname, &self.#id, #rt::write)?;));
                }
                None => {
                    p.members.push(quote!(#doc pub #id: Vec<Undescribed>,));
                    p.reads
                        .push(quote!(let #id = r.undescribed(#fname, u64::from(#c))?;));
                    p.writes.push(quote!(w.records(#fname, &self.#id, |x: &Undescribed, _: &mut ObjWriter| match *x {})?;));
                }
            }
        }
        ItemKind::Strings { count } => {
            let c = local(count);
            p.members.push(quote!(#doc pub #id: Vec<Vec<u8>>,));
            p.reads
                .push(quote!(let #id = r.strings(#fname, u64::from(#c))?;));
            p.inits.push(quote!(#id,));
            p.writes.push(quote!(w.strings(#fname, &self.#id)?;));
        }
        ItemKind::Bytes { size } => {
            let c = local(size);
            p.members.push(quote!(#doc pub #id: Vec<u8>,));
            p.reads
                .push(quote!(let #id = r.bytes(#fname, u64::from(#c))?;));
            p.inits.push(quote!(#id,));
            p.writes.push(quote!(w.out.extend_from_slice(&self.#id);));
        }
        ItemKind::Instructions { size } => {
            let c = local(size);
            p.members.push(quote!(#doc pub #id: InstructionStream,));
            p.reads
                .push(quote!(let #id = InstructionStream::read(r, #fname, u64::from(#c))?;));
            p.inits.push(quote!(#id,));
            p.writes.push(quote!(self.#id.write(w);));
        }
    }
}

/// Consecutive fixed-size items of a record: (name, local, Rust type, width in bytes).
type ScalarRun<'a> = Vec<(&'a str, proc_macro2::Ident, TokenStream, u8)>;

/// Reads a run of consecutive scalars (and marks where each starts), then empties the run.
/// Two or more are read with one bounds check from a fixed-size block; when the file holds
/// fewer bytes than the block, they are read one by one so the error names the item that is
/// cut. One at a time they cost a check, a `Result` and a mark each (the items of `var_info`
/// were a tenth of the time of reading a whole file).
fn scalar_run(run: &mut ScalarRun<'_>) -> TokenStream {
    let items = std::mem::take(run);
    let names: Vec<&str> = items.iter().map(|i| i.0).collect();
    let ids: Vec<&proc_macro2::Ident> = items.iter().map(|i| &i.1).collect();
    let tys: Vec<&TokenStream> = items.iter().map(|i| &i.2).collect();
    if items.len() < 2 {
        return quote! { #( r.mark(#names); let #ids: #tys = r.scalar(#names)?; )* };
    }
    let mut at = 0usize;
    let mut offsets = Vec::new();
    let mut marks = Vec::new();
    for i in &items {
        offsets.push(lit(at as u64));
        let name = i.0;
        marks.push(if at == 0 {
            quote!(r.mark_at(#name, run_start);)
        } else {
            let o = lit(at as u64);
            quote!(r.mark_at(#name, run_start + #o);)
        });
        at += usize::from(i.3);
    }
    let size = lit(at as u64);
    quote! {
        let run_start = r.position();
        let (#(#ids),*): (#(#tys),*) = match r.fixed::<#size>() {
            Some(run) => (#(ObjReader::le::<#tys>(run, #offsets)),*),
            None => (#(r.scalar(#names)?),*),
        };
        #(#marks)*
    }
}

/// Enumerated values and bit-packed items of a stored scalar field.
fn field_accessors(f: &ItemModel, ty: &TokenStream) -> TokenStream {
    let fid = ident(&f.rust_name);
    let mut out = Vec::new();
    let values = |vs: &[crate::analyze::object::RecordValue]| {
        let items = vs.iter().map(|v| {
            let n = lit(v.value);
            let m = doc_text(&v.meaning);
            quote!((#n, #m))
        });
        quote!(&[#(#items),*])
    };
    if !f.values.is_empty() {
        let konst = ident(&format!("{}_VALUES", f.rust_name.to_ascii_uppercase()));
        let m = ident(&format!("{}_meaning", f.rust_name));
        let table = values(&f.values);
        let d1 = docs(&[format!("Values the chapter lists for `{}`.", f.name)]);
        let d2 = docs(&[format!(
            "The chapter's meaning of `{}`, if it lists the value.",
            f.name
        )]);
        out.push(quote! {
            #d1 pub const #konst: &'static [(u64, &'static str)] = #table;
            #d2 pub fn #m(&self) -> Option<&'static str> { meaning(Self::#konst, self.#fid as u64) }
        });
    }
    for b in &f.bits {
        let width = u32::from(b.hi - b.lo) + 1;
        let mask = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        let lo = u32::from(b.lo);
        let get_bits = unparen(extract(quote!((self.#fid as u64)), lo, mask, 64));
        let place = unparen(shl(hex(mask), lo));
        let placed = shl(quote!(v), lo);
        let base = b.rust_name.clone();
        let get = ident(&base);
        let set = ident(&format!("set_{base}"));
        let d = docs(&[format!(
            "`{}` (bits {}..{} of `{}`): {}",
            b.name,
            b.hi,
            b.lo,
            f.name,
            doc_text(&b.text)
        )]);
        let ds = docs(&[format!(
            "Sets `{}`; bits beyond its width are dropped.",
            b.name
        )]);
        out.push(quote! {
            #d pub fn #get(&self) -> u64 { #get_bits }
            #ds pub fn #set(&mut self, v: u64) {
                let mask: u64 = #place;
                self.#fid = (((self.#fid as u64) & !mask) | (#placed & mask)) as #ty;
            }
        });
        if !b.values.is_empty() {
            let konst = ident(&format!("{}_VALUES", base.to_ascii_uppercase()));
            let m = ident(&format!("{base}_meaning"));
            let table = values(&b.values);
            let d1 = docs(&[format!("Values the chapter lists for `{}`.", b.name)]);
            let d2 = docs(&[format!(
                "The chapter's meaning of `{}`, if it lists the value.",
                b.name
            )]);
            out.push(quote! {
                #d1 pub const #konst: &'static [(u64, &'static str)] = #table;
                #d2 pub fn #m(&self) -> Option<&'static str> { meaning(Self::#konst, self.#get()) }
            });
        }
    }
    quote!(#(#out)*)
}
