//! The vISA assembler: Intel's assembly text (`.visaasm`, as IGC prints it, plus what its
//! parser also takes: `//` and `/* */` comments, `(16)`, `NoMask`, decimal and float
//! immediates) into an object file ([`crate::object::File`]), counts, sizes and offsets derived
//! by [`crate::object::File::write`].
//!
//! ```
//! use visa::asm::{assemble, Options, Source};
//!
//! let text = ".version 4.1\n.kernel \"k\"\n.decl V0032 v_type=G type=d num_elts=8 align=hword\n\
//!             .decl P1 v_type=P num_elts=8\n.input V0032 offset=32 size=32\n\
//!             .kernel_attr SimdSize=8\n";
//! let file = assemble(&[Source { name: "k.visaasm", text }], Options::default()).unwrap();
//! let k = &file.kernels[0].data;
//! assert_eq!(k.string_pool[0], b"k");
//! assert_eq!(k.var_info[0].bit_properties, 0x71); // type D (1), alignment hword (7)
//! assert_eq!(k.input_info[0].id, 32);
//! assert!(file.write().is_ok());
//! ```
//!
//! Every error of every source is reported ([`Diagnostic`], [`render`]) and nothing is built
//! then. Each source holds one or more routines (`.kernel`, `.global_function`); kernels and
//! functions go into the file in the order the sources give them.

mod check;
mod diag;
mod directives;
mod lines;
mod names;
mod pool;
mod routine;
mod syntax;
mod tables;
mod text_only;
mod trailer;

pub use check::check;
pub use diag::{render, Diagnostic};

use crate::object::{
    File, Function, FunctionData, FunctionInfo, Kernel, KernelData, KernelInfo, MAGIC,
};
use alloc::string::ToString;
use alloc::vec::Vec;
use directives::Errors;
use syntax::{RoutineKind, RoutineText};

/// One text to assemble and the name its diagnostics give it.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// What to assemble.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Parse instruction lines (true) or skip them (false: the declarations, and the label
    /// lines as LABEL/SUBROUTINE instructions, which need no instruction parser).
    pub instructions: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { instructions: true }
    }
}

/// Assembles `sources` into one object file, or returns every error of every source.
pub fn assemble(sources: &[Source<'_>], options: Options) -> Result<File, Vec<Diagnostic>> {
    assemble_with(sources, options, None)
}

/// [`assemble`] for a platform, as Intel's `GenX_IR -platform P`: the platform's register
/// size turns ADDR_ADD's `&V0060[64]` into a row and a column (without a platform only `&V`
/// without a byte offset assembles).
pub fn assemble_for(
    sources: &[Source<'_>],
    options: Options,
    platform: &crate::runtime::IntelPlatform,
) -> Result<File, Vec<Diagnostic>> {
    assemble_with(sources, options, Some(platform.grf_bytes))
}

fn assemble_with(
    sources: &[Source<'_>],
    options: Options,
    grf: Option<u32>,
) -> Result<File, Vec<Diagnostic>> {
    let mut all = Vec::new();
    let mut file = File::default();
    file.header.magic_number = MAGIC;
    let mut version = None;
    for src in sources {
        let mut errors = Errors {
            file: src.name,
            list: Vec::new(),
        };
        let routines = directives::read_source(src.text, &mut errors);
        let mut trailers = trailer::trailers(src.text).into_iter();
        if routines.is_empty() && errors.list.is_empty() {
            errors.list.push(first_line_error(
                Some(src),
                "expected `.kernel \"name\"` or `.global_function \"name\"`",
                "the file declares no routine",
            ));
        }
        for r in &routines {
            if version.is_none() {
                version = r.version;
            }
            let parts = routine::build(r, options.instructions, grf, &mut errors);
            add_routine(&mut file, r, parts, trailers.next().flatten());
        }
        all.extend(errors.list);
    }
    if all.is_empty() {
        match version {
            Some((major, minor)) => {
                file.header.major_version = major;
                file.header.minor_version = minor;
            }
            None => all.push(first_line_error(
                sources.first(),
                "expected `.version <major>.<minor>` before the first routine",
                "no version",
            )),
        }
    }
    if all.is_empty() {
        Ok(file)
    } else {
        Err(all)
    }
}

/// The platform name of the `//Platform: NAME` line Intel's current compiler writes after each
/// routine's text (`//Platform: XE2`), if the text has one.
///
/// ```
/// let text = ".version 4.2\n.kernel \"k\"\n\n//Platform: XE2\n//Build option: \"-output\"\n";
/// assert_eq!(visa::asm::platform_line(text), Some("XE2"));
/// assert_eq!(visa::asm::platform_line(".version 4.1\n"), None);
/// ```
pub fn platform_line(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|l| l.trim_end().strip_prefix("//Platform:"))
        .map(str::trim)
        .filter(|name| !name.is_empty())
}

/// Whether `bytes` look like vISA text rather than an object file: they do not start with the
/// object file's magic number (`CISA`).
pub fn is_text(bytes: &[u8]) -> bool {
    !bytes.starts_with(&MAGIC.to_le_bytes())
}

/// An error at the start of the first line of `src`.
fn first_line_error(src: Option<&Source<'_>>, message: &str, label: &str) -> Diagnostic {
    Diagnostic {
        file: src.map_or("", |s| s.name).to_string(),
        line: 1,
        column: 0,
        len: 0,
        message: message.to_string(),
        label: label.to_string(),
        source_line: src
            .and_then(|s| s.text.lines().next())
            .unwrap_or("")
            .to_string(),
        severity: crate::object::Severity::Error,
    }
}

/// Adds the routine `r`, built into `parts`, to the file as a kernel or a function.
fn add_routine(
    file: &mut File,
    r: &RoutineText<'_>,
    parts: routine::Parts,
    trailer: Option<crate::object::Trailer>,
) {
    let text_only = crate::object::RoutineTextOnly {
        trailer,
        ..parts.text.clone()
    };
    let keep = text_only != crate::object::RoutineTextOnly::default();
    // A kernel's data and a function's are two generated types with the same records but a
    // kernel's inputs: the records both take are listed once.
    macro_rules! data {
        ($data:ident { $($own:ident),* }) => {
            $data {
                string_pool: parts.string_pool,
                var_info: parts.var_info,
                address_info: parts.address_info,
                predicate_info: parts.predicate_info,
                label_info: parts.label_info,
                sampler_info: parts.sampler_info,
                surface_info: parts.surface_info,
                attribute_info: parts.attribute_info,
                instructions: parts.instructions,
                $($own: parts.$own,)*
                ..Default::default()
            }
        };
    }
    let name = r.name.as_bytes().to_vec();
    match r.kind {
        RoutineKind::Kernel => {
            let data = data!(KernelData { input_info });
            file.header.kernel_info.push(KernelInfo {
                name,
                ..Default::default()
            });
            file.kernels.push(Kernel {
                data,
                gen_binaries: Vec::new(),
            });
            if keep {
                file.text
                    .kernels
                    .resize(file.kernels.len() - 1, Default::default());
                file.text.kernels.push(text_only);
            }
        }
        RoutineKind::Function => {
            let data = data!(FunctionData {});
            // Linkage 0 (extern), as in every function Intel's compiler wrote.
            file.header.function_info.push(FunctionInfo {
                name,
                ..Default::default()
            });
            file.functions.push(Function { data });
            if keep {
                file.text
                    .functions
                    .resize(file.functions.len() - 1, Default::default());
                file.text.functions.push(text_only);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<Diagnostic> {
        assemble(
            &[Source {
                name: "k.visaasm",
                text,
            }],
            Options::default(),
        )
        .unwrap_err()
    }

    #[test]
    fn every_error_of_a_file_with_line_column_and_caret() {
        let text = ".version 4.1\n.kernel \"k\"\n.decl V0032 v_type=G type=xx num_elts=8\n.decl V0033 v_type=G type=d num_elts=8 alias=<V0099, 0>\n.decl P1 v_type=Q num_elts=8\n.input V0077 offset=32 size=4\n.bogus 1\n";
        let d = errors(text);
        let got: Vec<(usize, usize, &str)> = d
            .iter()
            .map(|d| (d.line, d.column, d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (3, 26, "expected a data type (ud d uw w ub b df f uq q hf bf tf32 hf8 bf8 e2m1)"),
                (5, 16, "expected a variable class: G, P, A, S or T"),
                (7, 0, "expected a directive: .version .kernel .global_function .funcdecl .function .decl .input .implicit_<KIND> .kernel_attr"),
                (4, 46, "expected a declared general variable, found `V0099`"),
                (6, 7, "expected a declared variable, sampler or surface, found `V0077`"),
            ]
        );
        let shown = render(&d[..1]);
        assert_eq!(
            shown,
            "error: expected a data type (ud d uw w ub b df f uq q hf bf tf32 hf8 bf8 e2m1)\n  ┌─ k.visaasm:3:27\n  │\n3 │ .decl V0032 v_type=G type=xx num_elts=8\n  │                           ^^ found `xx`\n\n"
        );
    }

    #[test]
    fn structure_errors() {
        let d = errors("// nothing\n");
        assert_eq!(
            d[0].message,
            "expected `.kernel \"name\"` or `.global_function \"name\"`"
        );
        let d = errors(".kernel \"k\"\n.decl V0032 v_type=G type=d num_elts=1\n");
        assert_eq!(
            d[0].message,
            "expected `.version <major>.<minor>` before the first routine"
        );
        let d = errors(
            ".version 4.1\n.kernel \"k\"\n.function \"f_0\"\nmov (M1, 1) V0032(0,0)<1> 0x0:d\n",
        );
        assert_eq!(
            (d[0].line, d[0].message.as_str()),
            (4, "expected the label the preceding `.function` line names")
        );
        let d = errors(".version 4.1\n.kernel \"k\"\n.decl V0032 v_type=G type=d num_elts=1\n.decl V0032 v_type=G type=d num_elts=1\n");
        assert_eq!((d[0].line, d[0].column), (4, 6));
        let d = errors(".version 4.1\n.global_function \"f\"\n.decl V0032 v_type=G type=d num_elts=1\n.input V0032 offset=0 size=4\n");
        assert_eq!(
            d[0].message,
            "expected no inputs in a function: only kernels have them"
        );
    }

    #[test]
    fn declarations_as_intel_stores_them() {
        // recursion_stackcalls.visaasm / .isa: V0045 aliases %arg (V8) with alignment wordx32
        // (8), type d (1): bit_properties 0x81; P1 is `P01`; S0/T6 keep their v_name;
        // PerThreadInputSize=96 is two bytes.
        let text = ".version 4.1\n.kernel \"stackcalls\"\n.decl V0032 v_type=G type=d num_elts=96 align=wordx32 alias=<%arg, 0>\n.decl V0033 v_type=G type=ub num_elts=4\n.decl P1 v_type=P num_elts=8\n.decl S0 v_type=S num_elts=1 v_name=S000\n.decl T6 v_type=T num_elts=1 v_name=T006\n.input V0033 offset=32 size=4\n.implicit_LOCAL_ID T6 offset=64 size=4\n.kernel_attr Target=\"3d\"\n.kernel_attr SimdSize=8\n.kernel_attr PerThreadInputSize=96    \n";
        let f = assemble(
            &[Source { name: "k", text }],
            Options {
                instructions: false,
            },
        )
        .unwrap();
        let k = &f.kernels[0].data;
        let s = |i: u32| core::str::from_utf8(&k.string_pool[i as usize]).unwrap();
        assert_eq!(
            (k.var_info[0].bit_properties, k.var_info[0].alias_index),
            (0x81, 8)
        );
        assert_eq!(k.var_info[1].bit_properties, 0x04); // UB (4), byte alignment
        assert_eq!(s(k.predicate_info[0].name_index), "P01");
        assert_eq!(s(k.sampler_info[0].name_index), "S000");
        assert_eq!(s(k.surface_info[0].name_index), "T006");
        assert_eq!((k.input_info[0].kind, k.input_info[0].id), (0, 33));
        assert_eq!(
            (k.input_info[1].kind, k.input_info[1].id),
            ((3 << 3) | 2, 6)
        );
        let attrs: Vec<(&str, &[u8])> = k
            .attribute_info
            .iter()
            .map(|a| (s(a.name), a.value.as_slice()))
            .collect();
        assert_eq!(
            attrs,
            [
                ("Target", &[1u8][..]),
                ("SimdSize", &[8]),
                ("PerThreadInputSize", &[96, 0])
            ]
        );
        assert_eq!((s(0), s(1), s(28)), ("stackcalls", "%null", "S31"));
        assert!(f.write().is_ok());
    }
}
