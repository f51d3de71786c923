//! The object-file reader and writer of the crate generated from `spec/` (seed docs plus the
//! object-format chapter), on a file whose every byte is worked out by hand below.

use visa::object::{File, Function, Kernel, KernelData, KernelInfo, Routine, Surface, Variable};
use visa::object::{FunctionData, FunctionInfo, GenBinaryInfo, InstructionStream, VarInfo};
use visa::{decode, Instruction};

/// OWORD_ST of the README: Size 8 owords, Surface 0, Offset immediate UD 2, Src V30.
const OWORD_ST: [u8; 15] = [
    0x36, 0x03, 0x00, 0x05, 0x00, 0x02, 0, 0, 0, 0x1e, 0, 0, 0, 0, 0,
];

/// Header (41 bytes), kernel object at 0x29 (92 bytes), its GEN binary at 0x85 (4 bytes).
fn hand_built() -> Vec<u8> {
    let mut f = vec![
        0x43, 0x49, 0x53, 0x41, // magic_number 'CISA'
        4, 1, // version 4.1
        1, 0, // num_kernels
        1, 0, b'k', // kernel_info: name_len, name
        0x29, 0, 0, 0, // offset
        0x5c, 0, 0, 0, // size
        0x57, 0, 0, 0, // input_offset: 0x29 + 46
        0, 0, 0, 0, // num_syms_variable, num_syms_function
        1, // num_gen_binaries
        13, 0x85, 0, 0, 0, 4, 0, 0, 0, // gen_binary_info: DG2, offset, size
        0, 0, 0, 0, // num_variables, num_functions
    ];
    assert_eq!(f.len(), 0x29);
    f.extend_from_slice(&[
        2, 0, 0, 0, b'k', 0, b'x', 0, // string_count, string_pool
        0, 0, 0, 0, // name_index
        1, 0, 0, 0, // variable_count
        1, 0, 0, 0, 0x21, 8, 0, 7, 0, 0, 0, 0, 0, 0,
        0, // var_info: "x", D, DWORD, 8, alias %r0
        0, 0, 0, 0, // address_count, predicate_count
        1, 0, 0, 0, 0, 0, 1, 0, // label_count, label_info: "k", subroutine, 0 attributes
        0, 0, 0, // sampler, surface, vme counts
        1, 0, 0, 0, 0, 0x20, 0, 0, 0, 0x20, 0, 0x20,
        0, // num_inputs, input V32 at 32, 32 bytes
        17, 0, 0, 0, // size of the instructions
        75, 0, 0, 0, // entry
        1, 0, 0, 0, 0, 0, 1, 0x10, // attribute_count, attribute "k" = 1 byte 0x10
    ]);
    assert_eq!(f.len(), 0x29 + 75);
    f.extend_from_slice(&OWORD_ST);
    f.extend_from_slice(&[0xff, 0xee]); // an opcode no doc of spec/ has
    assert_eq!(f.len(), 0x85);
    f.extend_from_slice(&[0xde, 0xad, 0xbe, 0xef]);
    f
}

#[test]
fn a_hand_built_file_reads_field_by_field() {
    let f = File::parse(&hand_built()).expect("reads");
    assert_eq!((f.header.major_version, f.header.minor_version), (4, 1));
    let info = &f.header.kernel_info[0];
    assert_eq!(info.name, b"k");
    assert_eq!(info.gen_binary_info[0].gen_platform, 13);
    assert_eq!(
        f.kernels[0].gen_binaries,
        vec![vec![0xde, 0xad, 0xbe, 0xef]]
    );
    let k = &f.kernels[0].data;
    assert_eq!(k.name(), Some(&b"k"[..]));
    let v = &k.var_info[0];
    assert_eq!(
        (v.bit_properties_type(), v.bit_properties_alignment()),
        (1, 2)
    );
    assert_eq!(v.alias_scope_specifier_meaning(), Some("local"));
    assert_eq!(
        k.variable(v.alias_index),
        Some(Variable::Predefined {
            id: 7,
            name: Some("%r0")
        })
    );
    assert_eq!(k.variable_name(32), Some(&b"x"[..]));
    assert!(k.variable(33).is_none());
    assert_eq!(k.surface(5), Some(Surface::Predefined { id: 5 }));
    assert!(k.surface(6).is_none());
    assert_eq!(k.predicate(0), Some(visa::object::Predicate::None));
    let label = k.label(0).expect("label 0");
    assert!(label.info.kind_meaning().unwrap().starts_with("Subroutine"));
    let input = &k.input_info[0];
    assert_eq!(
        (input.kind_category(), input.id, input.offset, input.size),
        (0, 32, 32, 32)
    );
    assert_eq!(
        (k.attribute_info[0].name, k.attribute_info[0].value.clone()),
        (0, vec![0x10])
    );
    let s = &k.instructions;
    assert_eq!(s.instructions.len(), 1);
    assert_eq!(
        (s.instructions[0].0, s.instructions[0].1.name()),
        (0, "OWORD_ST")
    );
    let stop = s.stop.as_ref().expect("0xff stops decoding");
    assert_eq!((stop.offset, stop.opcode), (15, 0xff));
    assert!(stop.describe().contains("0xff") && stop.describe().contains("spec"));
    assert_eq!(s.undecoded, vec![0xff, 0xee]);
}

#[test]
fn a_hand_built_file_writes_back_byte_for_byte() {
    let bytes = hand_built();
    assert_eq!(File::parse(&bytes).unwrap().write().unwrap(), bytes);
}

#[test]
fn errors_give_offset_path_and_expectation() {
    let bytes = hand_built();
    // Truncated inside the var_info table.
    let e = File::parse(&bytes[..0x29 + 20]).unwrap_err();
    assert_eq!(e.path, "kernel[0].var_info");
    assert!(e.message.contains("needs at least"), "{e}");
    // variable_count = 2^32 - 1 is bounded by the bytes left, not allocated.
    let mut huge = bytes.clone();
    huge[0x29 + 12..0x29 + 16].copy_from_slice(&[0xff; 4]);
    let e = File::parse(&huge).unwrap_err();
    assert_eq!(
        (e.offset, e.path.as_str()),
        (0x29 + 16, "kernel[0].var_info")
    );
    // A magic number that is not 'CISA'.
    let mut bad = bytes.clone();
    bad[0] = 0;
    assert_eq!(File::parse(&bad).unwrap_err().path, "header.magic_number");
    // An entry that does not point at the instructions would not write back identically.
    let mut entry = bytes.clone();
    entry[0x29 + 63] = 74;
    let e = File::parse(&entry).unwrap_err();
    assert_eq!(e.path, "kernel[0].entry");
    // An offset past the end.
    let mut off = bytes.clone();
    off[11] = 0xff;
    off[12] = 0xff;
    assert_eq!(
        File::parse(&off).unwrap_err().path,
        "header.kernel_info[0].offset"
    );
    // Every prefix fails cleanly, none panics.
    for n in 0..bytes.len() {
        assert!(File::parse(&bytes[..n]).is_err(), "prefix of {n} bytes");
    }
}

/// `hand_built` with a function object after the GEN binary: function_info "f" (16 bytes)
/// ends the header at 0x39, the kernel object moves to 0x39 (inputs at 0x67), its GEN binary
/// to 0x95, and the function object (50 bytes, instructions at 35) follows at 0x99.
fn hand_built_with_function() -> Vec<u8> {
    let mut f = hand_built();
    f[11] = 0x39; // kernel offset
    f[19] = 0x67; // input_offset
    f[29] = 0x95; // binary_offset
    f[39] = 1; // num_functions
    f.splice(
        41..41,
        [
            0, 1, 0, b'f', // linkage, name_len, name
            0x99, 0, 0, 0, // offset
            50, 0, 0, 0, // size
            0, 0, 0, 0, // num_syms_variable, num_syms_function
        ],
    );
    assert_eq!(f.len(), 0x99);
    f.extend_from_slice(&[
        1, 0, 0, 0, b'f', 0, // string_count, string_pool
        0, 0, 0, 0, // name_index
        0, 0, 0, 0, // variable_count
        0, 0, 0, 0, 0, 0, // address, predicate, label counts
        0, 0, 0, // sampler, surface, vme counts
        15, 0, 0, 0, // size of the instructions
        35, 0, 0, 0, // entry
        0, 0, 0, 0, // input_size, return_value_size, attribute_count
    ]);
    f.extend_from_slice(&OWORD_ST);
    assert_eq!(f.len(), 0x99 + 50);
    f
}

/// `bytes` with `value` as the little-endian UD at `at`.
fn with_ud(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
    b
}

/// Parses `bytes`, expecting the layout check to fail on `path` at `offset`, naming the value
/// found and the one the layout puts there.
fn fails_at(bytes: &[u8], path: &str, offset: usize, found: u32, want: u32) {
    let e = File::parse(bytes).unwrap_err();
    assert_eq!((e.path.as_str(), e.offset), (path, offset), "{e}");
    assert_eq!(
        e.message,
        format!("{found:#x}, where the layout header, kernels (each followed by its GEN binaries), functions puts {want:#x}")
    );
}

#[test]
fn a_file_with_a_function_reads_and_writes_back() {
    let bytes = hand_built_with_function();
    let f = File::parse(&bytes).expect("reads");
    assert_eq!(f.header.function_info[0].name, b"f");
    assert_eq!(f.functions[0].data.entry, 35);
    assert_eq!(
        f.functions[0].data.instructions.instructions[0].1.name(),
        "OWORD_ST"
    );
    assert_eq!(f.write().unwrap(), bytes);
}

/// Every header field and entry the writer derives, set to another value where the file still
/// reads: the file would not write back identically, so it does not parse, and the error names
/// the field, the value found and where the layout puts it.
#[test]
fn offsets_sizes_and_entries_the_writer_would_not_write_are_rejected() {
    let bytes = hand_built();
    fails_at(
        &with_ud(&bytes, 15, 0x5d),
        "header.kernel_info[0].size",
        0x5c,
        0x5d,
        0x5c,
    );
    fails_at(
        &with_ud(&bytes, 19, 0x58),
        "header.kernel_info[0].input_offset",
        0x57,
        0x58,
        0x57,
    );
    fails_at(
        &with_ud(&bytes, 0x29 + 63, 74),
        "kernel[0].entry",
        75,
        74,
        75,
    );
    // One byte between the header and the kernel, every offset after it moved past it.
    let mut gap = bytes.clone();
    gap.insert(0x29, 0);
    let gap = with_ud(&with_ud(&with_ud(&gap, 11, 0x2a), 19, 0x58), 29, 0x86);
    fails_at(&gap, "header.kernel_info[0].offset", 0x29, 0x2a, 0x29);
    // One byte between the kernel object and its GEN binary.
    let mut gap = bytes.clone();
    gap.insert(0x85, 0);
    let gap = with_ud(&gap, 29, 0x86);
    fails_at(
        &gap,
        "header.kernel_info[0].gen_binary_info[0].binary_offset",
        0x85,
        0x86,
        0x85,
    );
    // The GEN binary before the kernel object: the writer puts it after.
    let mut swapped = bytes[..0x29].to_vec();
    swapped.extend_from_slice(&bytes[0x85..]);
    swapped.extend_from_slice(&bytes[0x29..0x85]);
    let swapped = with_ud(&with_ud(&with_ud(&swapped, 11, 0x2d), 19, 0x5b), 29, 0x29);
    assert!(File::parse(&swapped[..0x29]).is_err());
    fails_at(&swapped, "header.kernel_info[0].offset", 0x29, 0x2d, 0x29);
    // A byte after the GEN binary.
    let mut long = bytes.clone();
    long.push(0);
    let e = File::parse(&long).unwrap_err();
    assert_eq!((e.path.as_str(), e.offset), ("file", 0x89), "{e}");
    assert_eq!(
        e.message,
        "the file has 138 bytes; its header, objects and GEN binaries end at 137"
    );

    let bytes = hand_built_with_function();
    // function_info[0]: linkage at 41, name_len at 42, name at 44, offset at 45, size at 49.
    fails_at(
        &with_ud(&bytes, 49, 51),
        "header.function_info[0].size",
        50,
        51,
        50,
    );
    // The function's entry is at 0x99 + 27.
    fails_at(
        &with_ud(&bytes, 0x99 + 27, 36),
        "function[0].entry",
        35,
        36,
        35,
    );
    let mut gap = bytes.clone();
    gap.insert(0x99, 0);
    fails_at(
        &with_ud(&gap, 45, 0x9a),
        "header.function_info[0].offset",
        0x99,
        0x9a,
        0x99,
    );
    let mut long = bytes.clone();
    long.extend_from_slice(&[0, 0]);
    let e = File::parse(&long).unwrap_err();
    assert_eq!((e.path.as_str(), e.offset), ("file", 0x99 + 50), "{e}");
}

/// Consecutive fixed-size items are read as one block; a file cut inside the block still
/// fails at the item that is cut, with the bytes it needs and the bytes left.
#[test]
fn a_file_cut_inside_consecutive_fields_names_the_field_cut() {
    let bytes = hand_built();
    for (len, path, offset, message) in [
        // magic (UD), major and minor version (UB), num_kernels (UW)
        (5, "header.minor_version", 5, "UB needs 1 byte(s), 0 left"),
        (7, "header.num_kernels", 6, "UW needs 2 byte(s), 1 left"),
        // the kernel's size (UD at 59), entry (UD at 63), attribute_count (UW at 67)
        (
            0x29 + 61,
            "kernel[0].size",
            0x29 + 59,
            "UD needs 4 byte(s), 2 left",
        ),
        (
            0x29 + 65,
            "kernel[0].entry",
            0x29 + 63,
            "UD needs 4 byte(s), 2 left",
        ),
        (
            0x29 + 68,
            "kernel[0].attribute_count",
            0x29 + 67,
            "UW needs 2 byte(s), 1 left",
        ),
    ] {
        let e = File::parse(&bytes[..len]).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.offset, e.message.as_str()),
            (path, offset, format!("the file ends: {message}").as_str()),
            "cut at {len}"
        );
    }
}

#[test]
fn a_file_built_from_scratch_derives_counts_sizes_and_offsets() {
    let (inst, _) = decode(&OWORD_ST).unwrap();
    let mut file = File::default();
    file.header.magic_number = visa::object::MAGIC;
    file.header.major_version = 4;
    file.header.minor_version = 1;
    file.header.kernel_info.push(KernelInfo {
        name: b"main".to_vec(),
        gen_binary_info: vec![GenBinaryInfo {
            gen_platform: 12,
            ..Default::default()
        }],
        ..Default::default()
    });
    let mut data = KernelData {
        string_pool: vec![b"main".to_vec(), b"v".to_vec()],
        instructions: InstructionStream::from_instructions(vec![inst.clone(), inst]),
        ..Default::default()
    };
    data.var_info.push(VarInfo {
        name_index: 1,
        num_elements: 4,
        ..Default::default()
    });
    file.kernels.push(Kernel {
        data,
        gen_binaries: vec![vec![1, 2, 3]],
    });
    file.header.function_info.push(FunctionInfo {
        name: b"f".to_vec(),
        ..Default::default()
    });
    file.functions.push(Function {
        data: FunctionData {
            string_pool: vec![b"f".to_vec()],
            ..Default::default()
        },
    });
    let bytes = file.write().expect("writes");
    let back = File::parse(&bytes).expect("reads back");
    // Header: 8 + kernel_info (2+4+12+4+1+9 = 32) + 2 + 2 + function_info (1+2+1+8+4 = 16).
    let k = &back.header.kernel_info[0];
    assert_eq!(k.offset, 60);
    // Kernel object: 4 + 7 (pool) + 4 + 4 + 15 (var) + 6 + 3 = 43 up to num_inputs,
    // + 4 + 4 + 4 + 2 = 57 up to the instructions, then 2 x 15 bytes of OWORD_ST.
    assert_eq!(
        (k.size, k.input_offset, back.kernels[0].data.entry),
        (87, 60 + 43, 57)
    );
    assert_eq!(k.gen_binary_info[0].binary_offset, 60 + 87);
    assert_eq!(k.gen_binary_info[0].binary_size, 3);
    assert_eq!(back.header.function_info[0].offset, 60 + 87 + 3);
    let names: Vec<&str> = back.kernels[0]
        .data
        .instructions
        .instructions
        .iter()
        .map(|i| i.1.name())
        .collect();
    assert_eq!(names, ["OWORD_ST", "OWORD_ST"]);
    assert_eq!(back.kernels[0].data.instructions.instructions[1].0, 15);
    assert_eq!(back.write().unwrap(), bytes);
    // Counts that do not fit their field are an error, not a truncation.
    let mut too_long = back.clone();
    too_long.header.kernel_info[0].name = vec![b'a'; 70_000];
    assert_eq!(
        too_long.write().unwrap_err().path,
        "kernel_info[0].name_len"
    );
    // A kernel without its kernel_info.
    let mut missing = back;
    missing.header.kernel_info.clear();
    assert_eq!(missing.write().unwrap_err().path, "header.kernel_info");
    let _ = Instruction::NAMES;
}

/// Found by fuzzing (`object_edit_real`): a string holding a null character was written as is
/// and read back as two strings, so every later field shifted. The writer refuses it.
#[test]
fn a_string_with_a_null_character_does_not_write() {
    let mut file = File::parse(&hand_built()).unwrap();
    file.kernels[0].data.string_pool[1] = b"x\0y".to_vec();
    let e = file.write().unwrap_err();
    // The kernel object starts at 0x29; its pool is string_count (4), "k\0" (2), then "x".
    assert_eq!(
        (e.path.as_str(), e.offset),
        ("kernel[0].string_pool[1]", 0x29 + 4 + 2 + 1)
    );
    assert!(e.message.contains("null character"), "{e}");
}
