//! Structure-aware: a real object file (the seed corpus is the dg2 `.isa` files, each behind
//! its length as 4 little-endian bytes; see `docs/reliability.md`) followed by edits
//! that mimic what a tool does to a file: rename, add, drop and reorder declarations, strings,
//! attributes, instructions, kernels and functions, and replace GEN binaries.
//!
//! Checked: the file part reads or errs without panicking, and one that reads writes back
//! byte for byte; after the edits, the writer either errs or writes a file that reads back
//! to the edited content and writes the same bytes again.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use visa::object::{AttributeInfo, File, InputInfo, VarInfo};

#[path = "common/bounded_alloc.rs"]
mod bounded_alloc;

#[global_allocator]
static ALLOC: bounded_alloc::Counting = bounded_alloc::Counting;

#[derive(Arbitrary, Debug)]
enum Edit {
    RenameString {
        routine: u8,
        index: u16,
        name: Vec<u8>,
    },
    AddString(u8, Vec<u8>),
    DropString(u8, u16),
    AddVariable(u8, u32, u8, u16, u32),
    DropVariable(u8, u16),
    SwapVariables(u8, u16, u16),
    AddAttribute {
        routine: u8,
        name: u32,
        value: Vec<u8>,
    },
    VariableAttribute(u8, u16, u32, Vec<u8>),
    AddInput(u8, i8, u32, i16, u16),
    DuplicateInstruction(u8, u16, u16),
    DropInstruction(u8, u16),
    SwapInstructions(u8, u16, u16),
    TruncateUndecoded(u8, u16),
    DuplicateKernel(u8),
    DropKernel(u8),
    DropFunction(u8),
    RenameKernel(u8, Vec<u8>),
    GenBinary(u8, Vec<u8>),
    Version(u8, u8),
}

/// The routine (kernel, then function) numbered `n` modulo their count, as its parts.
macro_rules! with_routine {
    ($f:expr, $n:expr, |$d:ident| $body:expr) => {{
        let total = $f.kernels.len() + $f.functions.len();
        if total > 0 {
            let i = $n as usize % total;
            if i < $f.kernels.len() {
                let $d = &mut $f.kernels[i].data;
                $body
            } else {
                let $d = &mut $f.functions[i - $f.kernels.len()].data;
                $body
            }
        }
    }};
}

fn at(i: u16, len: usize) -> Option<usize> {
    (len > 0).then(|| i as usize % len)
}

fn apply(f: &mut File, e: Edit) {
    match e {
        Edit::RenameString {
            routine,
            index,
            name,
        } => with_routine!(f, routine, |d| {
            if let Some(i) = at(index, d.string_pool.len()) {
                d.string_pool[i] = name;
            }
        }),
        Edit::AddString(r, s) => with_routine!(f, r, |d| d.string_pool.push(s)),
        Edit::DropString(r, i) => with_routine!(f, r, |d| {
            if let Some(i) = at(i, d.string_pool.len()) {
                d.string_pool.remove(i);
            }
        }),
        Edit::AddVariable(r, name_index, props, num_elements, alias_index) => {
            with_routine!(f, r, |d| d.var_info.push(VarInfo {
                name_index,
                bit_properties: props,
                num_elements,
                alias_index,
                ..Default::default()
            }))
        }
        Edit::DropVariable(r, i) => with_routine!(f, r, |d| {
            if let Some(i) = at(i, d.var_info.len()) {
                d.var_info.remove(i);
            }
        }),
        Edit::SwapVariables(r, a, b) => with_routine!(f, r, |d| {
            if let (Some(a), Some(b)) = (at(a, d.var_info.len()), at(b, d.var_info.len())) {
                d.var_info.swap(a, b);
            }
        }),
        Edit::AddAttribute {
            routine,
            name,
            value,
        } => with_routine!(f, routine, |d| d
            .attribute_info
            .push(AttributeInfo { name, value })),
        Edit::VariableAttribute(r, i, name, value) => with_routine!(f, r, |d| {
            if let Some(i) = at(i, d.var_info.len()) {
                d.var_info[i]
                    .attribute_info
                    .push(AttributeInfo { name, value });
            }
        }),
        Edit::AddInput(k, kind, id, offset, size) => {
            if let Some(i) = at(k.into(), f.kernels.len()) {
                let input = InputInfo {
                    kind,
                    id,
                    offset,
                    size,
                };
                f.kernels[i].data.input_info.push(input);
            }
        }
        Edit::DuplicateInstruction(r, from, to) => with_routine!(f, r, |d| {
            let list = &mut d.instructions.instructions;
            if let Some(from) = at(from, list.len()) {
                let copy = list[from].clone();
                let to = to as usize % (list.len() + 1);
                list.insert(to, copy);
            }
        }),
        Edit::DropInstruction(r, i) => with_routine!(f, r, |d| {
            let list = &mut d.instructions.instructions;
            if let Some(i) = at(i, list.len()) {
                list.remove(i);
            }
        }),
        Edit::SwapInstructions(r, a, b) => with_routine!(f, r, |d| {
            let list = &mut d.instructions.instructions;
            if let (Some(a), Some(b)) = (at(a, list.len()), at(b, list.len())) {
                list.swap(a, b);
            }
        }),
        Edit::TruncateUndecoded(r, n) => with_routine!(f, r, |d| {
            // Dropping the tail keeps the stream decodable: it is what a tool stripping
            // instructions it does not know does.
            let len = d.instructions.undecoded.len();
            d.instructions.undecoded.truncate((n as usize).min(len));
            if d.instructions.undecoded.is_empty() {
                d.instructions.stop = None;
            }
        }),
        Edit::DuplicateKernel(k) => {
            if let Some(i) = at(k.into(), f.kernels.len()) {
                f.kernels.push(f.kernels[i].clone());
                f.header.kernel_info.push(f.header.kernel_info[i].clone());
            }
        }
        Edit::DropKernel(k) => {
            if let Some(i) = at(k.into(), f.kernels.len()) {
                f.kernels.remove(i);
                f.header.kernel_info.remove(i);
            }
        }
        Edit::DropFunction(k) => {
            if let Some(i) = at(k.into(), f.functions.len()) {
                f.functions.remove(i);
                f.header.function_info.remove(i);
            }
        }
        Edit::RenameKernel(k, name) => {
            if let Some(i) = at(k.into(), f.kernels.len()) {
                f.header.kernel_info[i].name = name;
            }
        }
        Edit::GenBinary(k, bytes) => {
            if let Some(i) = at(k.into(), f.kernels.len()) {
                if let Some(first) = f.kernels[i].gen_binaries.first_mut() {
                    *first = bytes;
                }
            }
        }
        Edit::Version(major, minor) => {
            f.header.major_version = major;
            f.header.minor_version = minor;
        }
    }
}

/// The content of a file without what the writer derives (offsets, sizes, entries,
/// instruction offsets), to compare a file with what its written bytes read back as.
fn content(f: &File) -> File {
    let mut f = f.clone();
    for k in &mut f.header.kernel_info {
        (k.offset, k.size, k.input_offset) = (0, 0, 0);
        for g in &mut k.gen_binary_info {
            (g.binary_offset, g.binary_size) = (0, 0);
        }
    }
    for k in &mut f.header.function_info {
        (k.offset, k.size) = (0, 0);
    }
    for k in &mut f.kernels {
        k.data.entry = 0;
        k.data
            .instructions
            .instructions
            .iter_mut()
            .for_each(|i| i.0 = 0);
        // Where decoding stops moves with the instructions before it; the bytes stay.
        k.data.instructions.stop = None;
    }
    for k in &mut f.functions {
        k.data.entry = 0;
        k.data
            .instructions
            .instructions
            .iter_mut()
            .for_each(|i| i.0 = 0);
        // Where decoding stops moves with the instructions before it; the bytes stay.
        k.data.instructions.stop = None;
    }
    f
}

fuzz_target!(|data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let len = (u32::from_le_bytes(*len) as usize).min(rest.len());
    let (bytes, edits) = rest.split_at(len);
    let (parsed, peak) = bounded_alloc::peak_of(|| File::parse(bytes));
    assert!(
        peak <= bounded_alloc::parse_bound(bytes.len()),
        "reading {len} bytes held {peak}"
    );
    let Ok(mut file) = parsed else { return };
    assert!(
        file.write().ok().as_deref() == Some(bytes),
        "a file that reads writes back differently"
    );
    let mut u = Unstructured::new(edits);
    let Ok(list) = Vec::<Edit>::arbitrary(&mut u) else {
        return;
    };
    for e in list {
        apply(&mut file, e);
    }
    let Ok(out) = file.write() else { return };
    let back = match File::parse(&out) {
        Ok(b) => b,
        Err(e) => panic!("the writer wrote a file that does not read: {e}"),
    };
    assert!(
        back.write().ok() == Some(out),
        "written bytes read and write back differently"
    );
    assert!(
        content(&back) == content(&file),
        "written bytes read back as other content"
    );
});
