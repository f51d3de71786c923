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

mod diag;
mod directives;
mod lines;
mod names;
mod pool;
mod routine;
mod syntax;
mod tables;

pub use diag::{render, Diagnostic};

use crate::object::{
    File, Function, FunctionData, FunctionInfo, Kernel, KernelData, KernelInfo, MAGIC,
};
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;
use directives::Errors;
use syntax::RoutineKind;

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
        if routines.is_empty() && errors.list.is_empty() {
            errors.list.push(Diagnostic {
                file: src.name.to_string(),
                line: 1,
                column: 0,
                len: 0,
                message: "expected `.kernel \"name\"` or `.global_function \"name\"`".to_string(),
                label: "the file declares no routine".to_string(),
                source_line: src.text.lines().next().unwrap_or("").to_string(),
            });
        }
        for r in &routines {
            if version.is_none() {
                version = r.version;
            }
            let parts = routine::build(r, options.instructions, &mut errors);
            match r.kind {
                RoutineKind::Kernel => {
                    file.header.kernel_info.push(KernelInfo {
                        name: r.name.as_bytes().to_vec(),
                        ..Default::default()
                    });
                    file.kernels.push(Kernel {
                        data: KernelData {
                            string_pool: parts.string_pool,
                            var_info: parts.var_info,
                            address_info: parts.address_info,
                            predicate_info: parts.predicate_info,
                            label_info: parts.label_info,
                            sampler_info: parts.sampler_info,
                            surface_info: parts.surface_info,
                            input_info: parts.input_info,
                            attribute_info: parts.attribute_info,
                            instructions: parts.instructions,
                            ..Default::default()
                        },
                        gen_binaries: Vec::new(),
                    });
                }
                RoutineKind::Function => {
                    // Linkage 0 (extern), as in every function Intel's compiler wrote.
                    file.header.function_info.push(FunctionInfo {
                        name: r.name.as_bytes().to_vec(),
                        ..Default::default()
                    });
                    file.functions.push(Function {
                        data: FunctionData {
                            string_pool: parts.string_pool,
                            var_info: parts.var_info,
                            address_info: parts.address_info,
                            predicate_info: parts.predicate_info,
                            label_info: parts.label_info,
                            sampler_info: parts.sampler_info,
                            surface_info: parts.surface_info,
                            attribute_info: parts.attribute_info,
                            instructions: parts.instructions,
                            ..Default::default()
                        },
                    });
                }
            }
        }
        all.extend(errors.list);
    }
    if all.is_empty() {
        match version {
            Some((major, minor)) => {
                file.header.major_version = major;
                file.header.minor_version = minor;
            }
            None => all.push(Diagnostic {
                file: sources.first().map_or("", |s| s.name).to_string(),
                line: 1,
                column: 0,
                len: 0,
                message: format!("expected `.version <major>.<minor>` before the first routine"),
                label: "no version".to_string(),
                source_line: sources
                    .first()
                    .and_then(|s| s.text.lines().next())
                    .unwrap_or("")
                    .to_string(),
            }),
        }
    }
    if all.is_empty() {
        Ok(file)
    } else {
        Err(all)
    }
}
