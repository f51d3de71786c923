//! vISA object files (`.isa`): [`File::parse`] reads one, [`File::write`] writes one back.
//!
//! The records (header, kernel and function objects, declarations) are generated from the
//! object-format chapter (`chapters/4_visa_header.md`, module [`crate::generated::object`]);
//! this module lays them out as a file: the header, then each kernel object followed by its
//! GEN binaries, then the function objects. Offsets, sizes and entries are derived when
//! writing (two passes: the header's size first, then every position), never set by hand.
//! A file whose offsets, sizes or entries disagree with that layout is rejected when read, so
//! every file that reads writes back byte for byte.
//!
//! ```
//! use visa::object::{File, Kernel, KernelData, KernelInfo, CommonIsaHeader};
//!
//! let mut file = File::default();
//! file.header.magic_number = visa::object::MAGIC;
//! file.header.major_version = 4;
//! file.header.minor_version = 1;
//! file.header.kernel_info.push(KernelInfo { name: b"k".to_vec(), ..Default::default() });
//! let mut data = KernelData::default();
//! data.string_pool.push(b"k".to_vec());
//! file.kernels.push(Kernel { data, gen_binaries: vec![] });
//! let bytes = file.write().expect("a valid file");
//! let back = File::parse(&bytes).expect("reads back");
//! assert_eq!(back.kernels[0].data.string_pool[0], b"k");
//! assert_eq!(back.write().unwrap(), bytes);
//! ```

mod names;
mod stream;
pub mod text;
pub mod verify;

pub use crate::generated::object::*;
pub use crate::runtime::object::{FileError, ObjReader, ObjWriter, Undescribed};
pub use names::{Label, Predicate, Routine, Surface, Variable};
pub use stream::{InstructionStream, KeptBits, StreamStop};
pub use verify::{Failure, Rule, Severity};

pub use crate::runtime::text::special::modifiers::Modifiers;
pub use crate::runtime::text::special::state_variables::{StateVariable, StateVariables};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// "A magic number used to identify a virtual ISA binary file. This number is equal to
/// 0x41534943 ('CISA' in hex)." (object-format chapter, `magic_number`).
pub const MAGIC: u32 = 0x4153_4943;

/// A whole object file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct File {
    /// The header; `header.kernel_info[i]` describes `kernels[i]`, `header.function_info[i]`
    /// describes `functions[i]`. Their offsets and sizes are derived when writing.
    pub header: CommonIsaHeader,
    pub kernels: Vec<Kernel>,
    pub functions: Vec<Function>,
    /// What the routines' text held that an object file has no place for; empty for a file
    /// read from bytes, and not written by [`File::write`].
    pub text: TextOnly,
}

/// What vISA text holds that the object file format cannot: kept from text read so that it
/// prints back as it was. `kernels[i]` belongs to kernel `i`, `functions[i]` to function `i`
/// (shorter lists: the routines after have none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextOnly {
    pub kernels: Vec<RoutineTextOnly>,
    pub functions: Vec<RoutineTextOnly>,
}

impl TextOnly {
    /// Whether anything is kept that an object file would lose beyond comments (the trailer).
    pub fn has_fields(&self) -> bool {
        !self.unwritable().is_empty()
    }

    /// What of [`TextOnly::has_fields`] an object file cannot hold, in words (empty when
    /// nothing).
    pub fn unwritable(&self) -> Vec<&'static str> {
        let routines = || self.kernels.iter().chain(&self.functions);
        let mut what = Vec::new();
        if routines().any(|r| !r.caching_l2.is_empty()) {
            what.push("LSC messages with three cache levels (the docs' layout has CachingL1 and CachingL3 only)");
        }
        if routines().any(|r| !r.declared_types.is_empty()) {
            what.push("variables of type tf32, hf8, bf8 or e2m1 (IGC 2.x's codes 0x10-0x13, past the 4-bit type field)");
        }
        if routines().any(|r| !r.state_variables.is_empty()) {
            what.push("samplers or surfaces given as variables (the docs' layouts of 3D_SAMPLE, 3D_LOAD and INFO hold an index)");
        }
        let words =
            |m: Modifiers| routines().any(|r| r.modifiers.iter().any(|(_, w)| w.intersects(m)));
        if words(Modifiers(Modifiers::UNIFORM.0 | Modifiers::NORETURN.0)) {
            what.push(
                "`ifcall.uniform` or `.noreturn` (the docs' IFCALL layout has no byte for them)",
            );
        }
        if words(Modifiers::OVERFETCH) {
            what.push(
                "LSC loads with `.ov` (the docs' LSC_UNTYPED layout has no field for overfetch)",
            );
        }
        if words(Modifiers::MSAA) {
            what.push(
                "LSC typed atomics with `.msaa` (the docs' LSC_TYPED layout has no field for it)",
            );
        }
        if routines().any(|r| !r.paired_resources.is_empty()) {
            what.push("3D sampler messages with a paired resource other than %null (the docs' layouts of 3D_SAMPLE and 3D_LOAD have no field for it)");
        }
        what
    }
}

/// One routine's text-only parts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoutineTextOnly {
    /// The lines after its last instruction.
    pub trailer: Option<Trailer>,
    /// The L2 cache control of LSC messages written with three (`lsc_load.ugm.ca.cc.ca`,
    /// IGC 2.x's efficient-64-bit mode on NVL and XE3P_CRI): (instruction index in the
    /// routine's stream, the value in LSC_UNTYPED's caching encoding). The docs' LSC layout has
    /// CachingL1 and CachingL3 only.
    pub caching_l2: Vec<(usize, u8)>,
    /// The samplers and surfaces of 3D_SAMPLE, 3D_LOAD and INFO given as variables
    /// (`sample_lz.RGBA (M1, 32) 0x0:uw V0064 V0066 ...`, IGC 2.x's efficient-64-bit mode on
    /// NVL and XE3P_CRI): (instruction index in the routine's stream, the variables), the
    /// instruction holding `S31` and `%bss` in their places
    /// ([`crate::runtime::text::special::state_variables`]).
    pub state_variables: Vec<(usize, StateVariables)>,
    /// The general variables declared with a type the docs lack (`type=hf8`, IGC 2.x): (index
    /// in the routine's `var_info`, the type); the variable's type field holds the docs' type
    /// of its values (`TextOnlyType::held_as`).
    pub declared_types: Vec<(usize, crate::runtime::text::spellings::TextOnlyType)>,
    /// The words IGC 2.x prints at the end of a mnemonic that no doc's layout has a field for
    /// (`ifcall.uniform.noreturn`, `lsc_load.ugm.ov`, `lsc_atomic_iadd.tgm.msaa`): (instruction
    /// index in the routine's stream, the words)
    /// ([`crate::runtime::text::special::modifiers`]).
    pub modifiers: Vec<(usize, Modifiers)>,
    /// The paired resources of 3D_SAMPLE and 3D_LOAD other than `%null.0` (IGC 2.x's text,
    /// after the destination): (instruction index in the routine's stream, the operand), the
    /// instruction's line holding `%null.0` in its place
    /// ([`crate::runtime::text::special::paired_resource`]).
    pub paired_resources: Vec<(usize, crate::runtime::RawOperand)>,
}

/// The comment lines Intel's current compiler (IGC 2.x) writes after a routine's last
/// instruction: `//Platform: XE2` and `//Build option: "..."`, the finalizer's options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trailer {
    /// GenX_IR's platform name (`XE2`).
    pub platform: String,
    /// The text between the quotes of `//Build option: "..."`.
    pub build_options: String,
}

/// A kernel object and its GEN binaries (`gen_binaries[j]` is described by
/// `header.kernel_info[i].gen_binary_info[j]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kernel {
    pub data: KernelData,
    pub gen_binaries: Vec<Vec<u8>>,
}

/// A function object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Function {
    pub data: FunctionData,
}

/// Where the writer puts things: the header with every derived offset and size, and the
/// objects in file order (each with its derived `entry`).
struct Layout {
    header: CommonIsaHeader,
    /// Kernel objects, each followed by its GEN binaries, then function objects.
    objects: Vec<Vec<u8>>,
}

/// `v` as a UD field; the path of the field is built only when it does not fit.
fn to_u32(v: usize, path: impl FnOnce() -> String, offset: usize) -> Result<u32, FileError> {
    u32::try_from(v).map_err(|_| FileError {
        offset,
        path: path(),
        message: format!("{v} does not fit its UD field"),
    })
}

/// A header field or entry that differs from where the layout puts it; out of line, since
/// reading a valid file never builds one.
#[cold]
#[inline(never)]
fn differs(path: String, found: u32, want: u32) -> FileError {
    FileError {
        offset: want as usize,
        path,
        message: format!(
            "{found:#x}, where the layout header, kernels (each followed by its GEN binaries), functions puts {want:#x}"
        ),
    }
}

/// Writes a routine object that starts at byte `start` of the file, with `entry` pointing at
/// its instructions; returns the writer (its bytes and marks). Errors name the
/// object (`kernel[0].string_pool[3]`) and give their offset in the file.
fn object(
    write: impl Fn(&mut ObjWriter) -> Result<(), FileError>,
    path: &str,
    start: usize,
) -> Result<ObjWriter, FileError> {
    let mut w = ObjWriter::new();
    write(&mut w).map_err(|e| FileError {
        offset: start + e.offset,
        path: format!("{path}.{}", e.path),
        message: e.message,
    })?;
    let entry = w.position_of("instructions").unwrap_or(w.out.len());
    let entry = to_u32(entry, || format!("{path}.entry"), 0)?;
    if let Some(at) = w.position_of("entry") {
        w.patch::<u32>(at, entry);
    }
    Ok(w)
}

/// Where an object was read: its first byte, the byte after it, and where its `num_inputs`
/// (kernels only) and its instructions start, from the start of the file.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    inputs: Option<usize>,
    instructions: Option<usize>,
}

impl Span {
    /// The span of the record `r` just read, which started at `start`.
    fn read(r: &ObjReader, start: usize) -> Span {
        Span {
            start,
            end: r.position(),
            inputs: r.position_of("num_inputs"),
            instructions: r.position_of("instructions"),
        }
    }

    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Where everything was read: the end of the header, each object, each GEN binary's size.
/// Every record writes back as the bytes it was read from (a decoded instruction re-encodes
/// to its bytes), so the layout [`File::write`] derives follows from these alone.
struct Read {
    header_end: usize,
    kernels: Vec<Span>,
    functions: Vec<Span>,
}

/// What [`File::write`] would put in a kernel's header fields and entry.
struct KernelPlace {
    offset: u32,
    size: u32,
    input_offset: u32,
    entry: u32,
}

/// What [`File::write`] would put in a function's header fields and entry.
struct FunctionPlace {
    offset: u32,
    size: u32,
    entry: u32,
}

/// The layout [`File::write`] derives, from where things were read.
struct Derived {
    kernels: Vec<KernelPlace>,
    /// `binary_offset` of every GEN binary, kernel after kernel.
    binaries: Vec<u32>,
    functions: Vec<FunctionPlace>,
    end: usize,
}

impl File {
    /// Reads a whole object file. Errors give the byte offset, the path of what failed
    /// (`kernel[0].var_info[12].alias_index`) and what was expected.
    pub fn parse(bytes: &[u8]) -> Result<File, FileError> {
        let mut r = ObjReader::new(bytes);
        r.enter("header", None);
        let header = CommonIsaHeader::read(&mut r)?;
        r.leave();
        if header.magic_number != MAGIC {
            return Err(FileError {
                offset: 0,
                path: "header.magic_number".into(),
                message: format!(
                    "{:#010x} is not the vISA magic number {MAGIC:#010x} ('CISA')",
                    header.magic_number
                ),
            });
        }
        let mut read = Read {
            header_end: r.position(),
            kernels: Vec::with_capacity(header.kernel_info.len()),
            functions: Vec::with_capacity(header.function_info.len()),
        };
        let mut kernels = Vec::with_capacity(header.kernel_info.len());
        for (i, info) in header.kernel_info.iter().enumerate() {
            r.enter("header", None);
            r.enter("kernel_info", Some(i));
            r.seek(u64::from(info.offset), "offset")?;
            r.leave();
            r.leave();
            r.enter("kernel", Some(i));
            r.clear_marks();
            let start = r.position();
            let data = KernelData::read(&mut r)?;
            read.kernels.push(Span::read(&r, start));
            r.leave();
            let mut gen_binaries = Vec::with_capacity(info.gen_binary_info.len());
            for (j, g) in info.gen_binary_info.iter().enumerate() {
                r.enter("header", None);
                r.enter("kernel_info", Some(i));
                r.enter("gen_binary_info", Some(j));
                r.seek(u64::from(g.binary_offset), "binary_offset")?;
                gen_binaries.push(r.bytes("binary_size", u64::from(g.binary_size))?);
                r.leave();
                r.leave();
                r.leave();
            }
            kernels.push(Kernel { data, gen_binaries });
        }
        let mut functions = Vec::with_capacity(header.function_info.len());
        for (i, info) in header.function_info.iter().enumerate() {
            r.enter("header", None);
            r.enter("function_info", Some(i));
            r.seek(u64::from(info.offset), "offset")?;
            r.leave();
            r.leave();
            r.enter("function", Some(i));
            r.clear_marks();
            let start = r.position();
            let data = FunctionData::read(&mut r)?;
            read.functions.push(Span::read(&r, start));
            r.leave();
            functions.push(Function { data });
        }
        let file = File {
            header,
            kernels,
            functions,
            text: TextOnly::default(),
        };
        file.check_layout(&file.derive(&read)?, bytes.len())?;
        Ok(file)
    }

    /// The offsets, sizes and entries [`File::write`] would derive, worked out from where the
    /// objects were read; fails where `File::layout` would (a position beyond a UD field).
    fn derive(&self, read: &Read) -> Result<Derived, FileError> {
        let mut pos = read.header_end;
        let mut kernels = Vec::with_capacity(read.kernels.len());
        let mut binaries = Vec::new();
        for (i, (span, info)) in read
            .kernels
            .iter()
            .zip(&self.header.kernel_info)
            .enumerate()
        {
            let entry = span.instructions.unwrap_or(span.end) - span.start;
            let entry = to_u32(entry, || format!("kernel[{i}].entry"), 0)?;
            let here = |f: &str| format!("header.kernel_info[{i}].{f}");
            let offset = to_u32(pos, || here("offset"), pos)?;
            let size = to_u32(span.len(), || here("size"), pos)?;
            let inputs = span.inputs.map_or(0, |at| at - span.start);
            let input_offset = to_u32(pos + inputs, || here("input_offset"), pos)?;
            pos += span.len();
            kernels.push(KernelPlace {
                offset,
                size,
                input_offset,
                entry,
            });
            for (j, g) in info.gen_binary_info.iter().enumerate() {
                let at = || format!("header.kernel_info[{i}].gen_binary_info[{j}].binary_offset");
                binaries.push(to_u32(pos, at, pos)?);
                // The binary was read with this size, so the writer writes it back as is.
                pos += g.binary_size as usize;
            }
        }
        let mut functions = Vec::with_capacity(read.functions.len());
        for (i, span) in read.functions.iter().enumerate() {
            let entry = span.instructions.unwrap_or(span.end) - span.start;
            let entry = to_u32(entry, || format!("function[{i}].entry"), 0)?;
            let here = |f: &str| format!("header.function_info[{i}].{f}");
            let offset = to_u32(pos, || here("offset"), pos)?;
            let size = to_u32(span.len(), || here("size"), pos)?;
            pos += span.len();
            functions.push(FunctionPlace {
                offset,
                size,
                entry,
            });
        }
        Ok(Derived {
            kernels,
            binaries,
            functions,
            end: pos,
        })
    }

    /// Fails where the file's offsets, sizes or entries differ from what [`File::write`]
    /// derives (it would not write back identically).
    fn check_layout(&self, l: &Derived, len: usize) -> Result<(), FileError> {
        let mut binaries = l.binaries.iter();
        for (i, (a, b)) in self.header.kernel_info.iter().zip(&l.kernels).enumerate() {
            for (name, x, y) in [
                ("offset", a.offset, b.offset),
                ("size", a.size, b.size),
                ("input_offset", a.input_offset, b.input_offset),
            ] {
                if x != y {
                    return Err(differs(format!("header.kernel_info[{i}].{name}"), x, y));
                }
            }
            for (j, (g, &want)) in a.gen_binary_info.iter().zip(&mut binaries).enumerate() {
                if g.binary_offset != want {
                    return Err(differs(
                        format!("header.kernel_info[{i}].gen_binary_info[{j}].binary_offset"),
                        g.binary_offset,
                        want,
                    ));
                }
            }
            let entry = self.kernels.get(i).map_or(0, |k| k.data.entry);
            if entry != b.entry {
                return Err(differs(format!("kernel[{i}].entry"), entry, b.entry));
            }
        }
        for (i, (a, b)) in self
            .header
            .function_info
            .iter()
            .zip(&l.functions)
            .enumerate()
        {
            let p = |f: &str| format!("header.function_info[{i}].{f}");
            if a.offset != b.offset {
                return Err(differs(p("offset"), a.offset, b.offset));
            }
            if a.size != b.size {
                return Err(differs(p("size"), a.size, b.size));
            }
            let entry = self.functions.get(i).map_or(0, |f| f.data.entry);
            if entry != b.entry {
                return Err(differs(format!("function[{i}].entry"), entry, b.entry));
            }
        }
        if l.end != len {
            return Err(FileError {
                offset: l.end.min(len),
                path: "file".into(),
                message: format!(
                    "the file has {len} bytes; its header, objects and GEN binaries end at {}",
                    l.end
                ),
            });
        }
        Ok(())
    }

    /// Writes the file: counts, sizes, offsets and entries derived (two passes).
    pub fn write(&self) -> Result<Vec<u8>, FileError> {
        let l = self.layout()?;
        let mut w = ObjWriter::new();
        l.header.write(&mut w)?;
        let mut out = w.out;
        for o in &l.objects {
            out.extend_from_slice(o);
        }
        Ok(out)
    }

    fn layout(&self) -> Result<Layout, FileError> {
        let mut header = self.header.clone();
        if header.kernel_info.len() != self.kernels.len() {
            return Err(FileError {
                offset: 0,
                path: "header.kernel_info".into(),
                message: format!(
                    "{} kernel_info records for {} kernels; expected one per kernel",
                    header.kernel_info.len(),
                    self.kernels.len()
                ),
            });
        }
        if header.function_info.len() != self.functions.len() {
            return Err(FileError {
                offset: 0,
                path: "header.function_info".into(),
                message: format!(
                    "{} function_info records for {} functions; expected one per function",
                    header.function_info.len(),
                    self.functions.len()
                ),
            });
        }
        // Pass 1: the header's size does not depend on the values of its offsets.
        let mut w = ObjWriter::new();
        header.write(&mut w)?;
        let mut pos = w.out.len();
        let mut objects = Vec::new();
        for (i, (info, k)) in header.kernel_info.iter_mut().zip(&self.kernels).enumerate() {
            let path = format!("kernel[{i}]");
            let w = object(|w| k.data.write(w), &path, pos)?;
            let here = |f: &str| format!("header.kernel_info[{i}].{f}");
            info.offset = to_u32(pos, || here("offset"), pos)?;
            info.size = to_u32(w.out.len(), || here("size"), pos)?;
            let inputs = w.position_of("num_inputs").unwrap_or(0);
            info.input_offset = to_u32(pos + inputs, || here("input_offset"), pos)?;
            pos += w.out.len();
            objects.push(w.out);
            if info.gen_binary_info.len() != k.gen_binaries.len() {
                return Err(FileError {
                    offset: 0,
                    path: here("gen_binary_info"),
                    message: format!(
                        "{} gen_binary_info records for {} GEN binaries; expected one per binary",
                        info.gen_binary_info.len(),
                        k.gen_binaries.len()
                    ),
                });
            }
            for (j, (g, bin)) in info
                .gen_binary_info
                .iter_mut()
                .zip(&k.gen_binaries)
                .enumerate()
            {
                let at = |f: &str| format!("header.kernel_info[{i}].gen_binary_info[{j}].{f}");
                g.binary_offset = to_u32(pos, || at("binary_offset"), pos)?;
                g.binary_size = to_u32(bin.len(), || at("binary_size"), pos)?;
                pos += bin.len();
                objects.push(bin.clone());
            }
        }
        for (i, (info, f)) in header
            .function_info
            .iter_mut()
            .zip(&self.functions)
            .enumerate()
        {
            let path = format!("function[{i}]");
            let w = object(|w| f.data.write(w), &path, pos)?;
            let here = |f: &str| format!("header.function_info[{i}].{f}");
            info.offset = to_u32(pos, || here("offset"), pos)?;
            info.size = to_u32(w.out.len(), || here("size"), pos)?;
            pos += w.out.len();
            objects.push(w.out);
        }
        Ok(Layout { header, objects })
    }
}
