//! The patch-token reader on a binary built here by the layouts of IGC's `patch_list.h`.

use super::*;
use alloc::vec;

fn dwords(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|d| d.to_le_bytes()).collect()
}

/// A program of one kernel `k` (SIMD16) with program-scope constant data `[7, 8, 9, 10]`, a
/// binding table of two surfaces (surface states at 64 and 128 of the surface state heap), a
/// stateless global pointer parameter 0 at offset 32 bound at index 0, the constant surface at
/// offset 40 bound at index 1, the global size's x at 48 and a work dimension at 60.
fn binary() -> Vec<u8> {
    let mut program_list = dwords(&[42, 16, 0, 4]);
    program_list.extend([7, 8, 9, 10]);
    let mut ssh = vec![0u8; 192];
    ssh[..8].copy_from_slice(&dwords(&[64, 128]));
    let mut list = Vec::new();
    list.extend(dwords(&[23, 24, 0, 0, 0, 16])); // execution environment: SIMD 16
    list.extend(dwords(&[8, 20, 0, 2, 64])); // binding table at 0, 2 entries
    list.extend(dwords(&[30, 36, 0, 64, 32, 8, 0, 0, 0])); // stateless global arg 0
    list.extend(dwords(&[44, 24, 0, 128, 40, 8])); // program-scope constant surface
    list.extend(dwords(&[17, 44, 3, 0, 48, 4, 0, 0, 0, 0, 0])); // global size x
    list.extend(dwords(&[17, 44, 5, 0, 60, 4, 0, 0, 0, 0, 0])); // work dimensions
    list.extend(dwords(&[17, 44, 43, 0, 32, 4, 0, 0, 0, 0, 0])); // buffer stateful: no bytes
    let mut b = dwords(&[PATCH_TOKEN_MAGIC, 1, 12, 8, 1, 0, program_list.len() as u32]);
    b.extend(&program_list);
    // Kernel header: checksum, hash (2 dwords), name size, patch list size, heaps, unpadded.
    b.extend(dwords(&[
        0,
        0,
        0,
        4,
        list.len() as u32,
        0,
        0,
        0,
        ssh.len() as u32,
        0,
    ]));
    b.extend(b"k\0\0\0");
    b.extend(&ssh);
    b.extend(&list);
    b
}

#[test]
fn reads_the_layout_and_the_constant_data() {
    let p = patch_tokens(&binary()).unwrap();
    assert_eq!(p.constants, [7, 8, 9, 10]);
    let k = p.info.kernel("k").unwrap();
    assert_eq!(k.simd, 16);
    let got: Vec<(ArgType, u32, u32, Option<u32>)> = k
        .payload
        .iter()
        .map(|a| (a.kind, a.offset, a.size, a.arg_index))
        .collect();
    let global = ArgType::ByPointer {
        addrmode: AddrMode::Stateless,
        addrspace: AddrSpace::Global,
    };
    assert_eq!(
        got,
        [
            (global, 32, 8, Some(0)),
            (ArgType::ConstBase, 40, 8, None),
            (ArgType::GlobalSize, 48, 4, None),
            (ArgType::WorkDimensions, 60, 4, None),
        ]
    );
    assert_eq!(k.binding_table, [(0, 0)]);
    assert_eq!(k.const_bti, Some(1));
}

#[test]
fn truncated_and_damaged_binaries_are_errors() {
    let b = binary();
    assert_eq!(
        patch_tokens(&b[..20]).unwrap_err(),
        "byte 24: the binary ends inside a field"
    );
    let mut bad = b.clone();
    bad[0] = 0;
    assert!(patch_tokens(&bad)
        .unwrap_err()
        .starts_with("not a patch-token program binary"));
    // Every prefix and every byte set to 0xff: an answer, never a panic.
    for end in 0..b.len() {
        let _ = patch_tokens(&b[..end]);
    }
    for at in 0..b.len() {
        let mut v = b.clone();
        v[at] = 0xff;
        let _ = patch_tokens(&v);
    }
}
