//! Real object files whose header disagrees with where their objects are: every dg2 file with
//! one offset, size or entry changed, or a byte appended, would not write back identically, so
//! `File::parse` rejects it and names the field, the value found and where the layout puts it.
//! The fields are found by walking the header as the object-file chapter lays it out, and the
//! expected values are Intel's bytes.

#![cfg(not(family_absent))]

use visa::object::File;

mod support;
use support::shared;

fn uw(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
}

fn ud(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Where the header's offset, size and entry fields of a file are, as byte positions.
#[derive(Default)]
struct Fields {
    /// (offset, size, input_offset) of kernel 0.
    kernel: (usize, usize, usize),
    /// binary_offset of the first GEN binary of kernel 0, if it has one.
    binary: Option<usize>,
    /// (offset, size) of function 0, if there is one.
    function: Option<(usize, usize)>,
}

/// Walks the header: magic (4), version (2), num_kernels (UW), kernel_info records, num_variables
/// (UW, 0 in every dg2 file), num_functions (UW), function_info records.
fn fields(b: &[u8]) -> Fields {
    let mut f = Fields::default();
    let kernels = uw(b, 6);
    let mut at = 8;
    for k in 0..kernels {
        // name_len, name, offset, size, input_offset
        let name = uw(b, at);
        let offset = at + 2 + name;
        if k == 0 {
            f.kernel = (offset, offset + 4, offset + 8);
        }
        at = offset + 12;
        // num_syms_variable and its reloc_sym records (UW symbolic, UW resolved index)
        at += 2 + 4 * uw(b, at);
        assert_eq!(uw(b, at), 0, "num_syms_function");
        at += 2;
        let binaries = usize::from(b[at]);
        at += 1;
        if k == 0 && binaries > 0 {
            // gen_platform (UB), then binary_offset
            f.binary = Some(at + 1);
        }
        at += 9 * binaries;
    }
    assert_eq!(uw(b, at), 0, "num_variables");
    let functions = uw(b, at + 2);
    at += 4;
    if functions > 0 {
        // linkage (UB), name_len, name, offset, size
        let offset = at + 3 + uw(b, at + 1);
        f.function = Some((offset, offset + 4));
    }
    f
}

/// `bytes` with `value` as the little-endian UD at `at`.
fn with_ud(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
    b
}

/// `None` if `bytes` fail on `path` at `offset`, naming `found` and `want`; else what failed.
fn check(bytes: &[u8], path: &str, offset: usize, found: u32, want: u32) -> Option<String> {
    let message = format!("{found:#x}, where the layout header, kernels (each followed by its GEN binaries), functions puts {want:#x}");
    match File::parse(bytes) {
        Ok(_) => Some(format!("{path} = {found:#x} still reads")),
        Err(e) if e.path == path && e.offset == offset && e.message == message => None,
        Err(e) => Some(format!("{path} = {found:#x}: {e}")),
    }
}

#[test]
fn a_real_file_whose_header_disagrees_with_its_layout_fails_with_the_field() {
    let Some(shared) = shared() else { return };
    let paths = support::dg2_isa_files(&shared);
    assert_eq!(paths.len(), 58);
    let mut bad = Vec::new();
    let (mut binaries, mut functions) = (0, 0);
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let whole = File::parse(&bytes).expect("every dg2 file reads");
        let f = fields(&bytes);
        let (offset, size, inputs) = f.kernel;
        assert_eq!(
            ud(&bytes, offset),
            whole.header.kernel_info[0].offset,
            "{name}"
        );
        let mut errors = vec![
            check(
                &with_ud(&bytes, size, ud(&bytes, size) + 1),
                "header.kernel_info[0].size",
                ud(&bytes, size) as usize,
                ud(&bytes, size) + 1,
                ud(&bytes, size),
            ),
            check(
                &with_ud(&bytes, inputs, ud(&bytes, inputs) + 1),
                "header.kernel_info[0].input_offset",
                ud(&bytes, inputs) as usize,
                ud(&bytes, inputs) + 1,
                ud(&bytes, inputs),
            ),
        ];
        // The kernel's entry: size (UD), entry (UD), attribute_count (UW) and the attributes
        // (UD name, UB size, value) come right before its instructions.
        let k = &whole.kernels[0].data;
        let attributes: usize = k.attribute_info.iter().map(|a| 5 + a.value.len()).sum();
        let entry = ud(&bytes, offset) as usize + k.entry as usize - attributes - 6;
        assert_eq!(ud(&bytes, entry), k.entry, "{name}: the entry field");
        errors.push(check(
            &with_ud(&bytes, entry, ud(&bytes, entry) + 1),
            "kernel[0].entry",
            ud(&bytes, entry) as usize,
            ud(&bytes, entry) + 1,
            ud(&bytes, entry),
        ));
        if let Some(at) = f.binary {
            binaries += 1;
            // One byte earlier still reads (the kernel object ends there), but is not where
            // the writer puts the binary.
            errors.push(check(
                &with_ud(&bytes, at, ud(&bytes, at) - 1),
                "header.kernel_info[0].gen_binary_info[0].binary_offset",
                ud(&bytes, at) as usize,
                ud(&bytes, at) - 1,
                ud(&bytes, at),
            ));
        }
        if let Some((_, size)) = f.function {
            functions += 1;
            errors.push(check(
                &with_ud(&bytes, size, ud(&bytes, size) - 1),
                "header.function_info[0].size",
                ud(&bytes, size) as usize,
                ud(&bytes, size) - 1,
                ud(&bytes, size),
            ));
        }
        let mut long = bytes.clone();
        long.push(0);
        let message = format!(
            "the file has {} bytes; its header, objects and GEN binaries end at {}",
            bytes.len() + 1,
            bytes.len()
        );
        errors.push(match File::parse(&long) {
            Err(e) if e.path == "file" && e.offset == bytes.len() && e.message == message => None,
            Ok(_) => Some("a byte appended: still reads".into()),
            Err(e) => Some(format!("a byte appended: {e}")),
        });
        bad.extend(errors.into_iter().flatten().map(|e| format!("{name}: {e}")));
    }
    println!(
        "{} files, {binaries} with a GEN binary, {functions} with a function: each changed field fails with its path",
        paths.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(binaries > 0 && functions > 0);
}
