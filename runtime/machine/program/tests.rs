//! The patch-token reader on a binary built here by the layouts of IGC's `patch_list.h`.

use super::super::sampler::{AddressMode, Filter, SamplerState};
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
    binary_with(&[], &[])
}

/// [`binary`]'s program with a dynamic state heap `dsh` and more tokens `extra` in the kernel's
/// patch list. The dynamic state heap starts at byte 92 of the binary: the program header (28
/// bytes), the program's patch list (20), the kernel header (40) and name (4), with empty
/// kernel and general state heaps.
fn binary_with(dsh: &[u8], extra: &[u8]) -> Vec<u8> {
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
    list.extend(extra);
    let mut b = dwords(&[PATCH_TOKEN_MAGIC, 1, 12, 8, 1, 0, program_list.len() as u32]);
    b.extend(&program_list);
    // Kernel header: checksum, hash (2 dwords), name size, patch list size, the kernel, general
    // state, dynamic state and surface state heaps' sizes, unpadded kernel size.
    b.extend(dwords(&[
        0,
        0,
        0,
        4,
        list.len() as u32,
        0,
        0,
        dsh.len() as u32,
        ssh.len() as u32,
        0,
    ]));
    b.extend(b"k\0\0\0");
    b.extend(dsh);
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

// Sampler states. The SAMPLER_STATE dwords below are worked out by hand from the bit positions of
// compute-runtime's `hw_cmds_generated_gen12lp.inl` (the same in `..._xe_hpg_core.inl`):
// DWORD 0 MinModeFilter 14-16, MagModeFilter 17-19; DWORD 3 TczAddressControlMode 0-2,
// TcyAddressControlMode 3-5, TcxAddressControlMode 6-8, NonNormalizedCoordinateEnable 10.

/// Mirrored repeat, linear, normalised, as IGC 1.0.12504.6 wrote it for `sample_inline` (tgllp
/// and acm-g10 alike). DWORD 0 0x0012_4000: bits 14 (min LINEAR 1), 17 (mag LINEAR 1) and 20
/// (MipModeFilter NEAREST 1, not read). DWORD 3 0x0007_f849: bits 0, 3, 6 (z, y, x MIRROR 1),
/// bit 10 clear (normalised), bits 11-18 (filter quality and rounding enables, not read).
const MIRROR_LINEAR: [u32; 4] = [0x0012_4000, 0x000e_0003, 0, 0x0007_f849];

/// Clamp to the border colour, nearest, unnormalised. DWORD 0 0: both filters NEAREST 0.
/// DWORD 3 0x524 = 0x4 (z CLAMP_BORDER 4) + 0x20 (y 4 << 3) + 0x100 (x 4 << 6) + 0x400 (bit 10).
const BORDER_NEAREST_UNNORMALIZED: [u32; 4] = [0, 0, 0, 0x524];

fn state(normalized: bool, address: AddressMode, filter: Filter) -> SamplerState {
    SamplerState {
        normalized,
        address,
        filter,
    }
}

#[test]
fn sampler_states_decode_each_field() {
    use sampler_state::decode;
    use AddressMode::*;
    use Filter::*;
    assert_eq!(
        decode(MIRROR_LINEAR),
        Ok(state(true, MirroredRepeat, Linear))
    );
    assert_eq!(
        decode(BORDER_NEAREST_UNNORMALIZED),
        Ok(state(false, Clamp, Nearest))
    );
    // WRAP 0 in all three modes, nearest: repeat.
    assert_eq!(decode([0, 0, 0, 0]), Ok(state(true, Repeat, Nearest)));
    // CLAMP 2: 0x2 + 0x10 + 0x80 = 0x92, clamp_to_edge.
    assert_eq!(
        decode([0, 0, 0, 0x92]),
        Ok(state(true, ClampToEdge, Nearest))
    );
    // MIRROR_ONCE 5 in x only (5 << 6 = 0x140, y and z MIRROR: 0x9).
    assert_eq!(
        decode([0, 0, 0, 0x149]).unwrap_err(),
        "TcxAddressControlMode 5: not WRAP (0), MIRROR (1), CLAMP (2) or CLAMP_BORDER (4), the \
         modes of an OpenCL sampler"
    );
    // x WRAP, y and z MIRROR (0x9).
    assert!(decode([0, 0, 0, 0x9])
        .unwrap_err()
        .starts_with("address control modes x Repeat, y MirroredRepeat, z MirroredRepeat differ"));
    // Min LINEAR (1 << 14), mag NEAREST.
    assert!(decode([0x4000, 0, 0, 0])
        .unwrap_err()
        .starts_with("MinModeFilter Linear and MagModeFilter Nearest differ"));
    // Mag ANISOTROPIC 2 (2 << 17 = 0x40000), min too (2 << 14 = 0x8000).
    assert!(decode([0x48000, 0, 0, 0])
        .unwrap_err()
        .starts_with("MinModeFilter 2: not NEAREST (0) or LINEAR (1)"));
    // WRAP with unnormalised coordinates (bit 10).
    assert!(decode([0, 0, 0, 0x400])
        .unwrap_err()
        .starts_with("address mode Repeat with NonNormalizedCoordinateEnable"));
}

/// A dynamic state heap of 80 bytes: a border colour of zeros at 0, the sampler state array at
/// 32: state 0 a sampler parameter's (bytes that decode to nothing, never read), 1 mirrored
/// linear, 2 border nearest unnormalised.
fn sampler_heap() -> Vec<u8> {
    let mut dsh = vec![0u8; 32];
    dsh.extend(dwords(&[u32::MAX; 4]));
    dsh.extend(dwords(&MIRROR_LINEAR));
    dsh.extend(dwords(&BORDER_NEAREST_UNNORMALIZED));
    dsh
}

/// Token 5 (offset, count, border colour offset) and token 16 of sampler parameter 1, whose
/// state is at 32 (`Offset`, field 2, and `btiOffset`, field 8).
fn sampler_tokens(offset: u32, count: u32, border: u32) -> Vec<u8> {
    let mut t = dwords(&[5, 20, offset, count, border]);
    t.extend(dwords(&[16, 44, 1, 0, 32, 0, 0, 0, 0, 0, 32]));
    t
}

#[test]
fn inline_samplers_from_the_sampler_state_array() {
    let p = patch_tokens(&binary_with(&sampler_heap(), &sampler_tokens(32, 3, 0))).unwrap();
    let k = p.info.kernel("k").unwrap();
    let got: Vec<(u32, SamplerState)> = k
        .inline_samplers
        .iter()
        .map(|s| (s.sampler_index, s.state))
        .collect();
    assert_eq!(
        got,
        [
            (1, state(true, AddressMode::MirroredRepeat, Filter::Linear)),
            (2, state(false, AddressMode::Clamp, Filter::Nearest)),
        ]
    );
    // The rest of the layout is read as before.
    assert_eq!(k.binding_table, [(0, 0)]);
    // Only sampler parameters: no inline samplers, and their states are not decoded.
    let only_parameter = binary_with(&sampler_heap(), &sampler_tokens(32, 1, 0));
    let p = patch_tokens(&only_parameter).unwrap();
    assert_eq!(p.info.kernel("k").unwrap().inline_samplers, []);
}

#[test]
fn malformed_sampler_state_arrays_are_errors() {
    let err = |dsh: &[u8], tokens: &[u8]| patch_tokens(&binary_with(dsh, tokens)).unwrap_err();
    // Count past the heap: 4 states at 32 need 64 bytes, the 80-byte heap has 48 from 32 (the
    // heap starts at byte 92 of the binary: the array at 124).
    assert_eq!(
        err(&sampler_heap(), &sampler_tokens(32, 4, 0)),
        "kernel `k`: sampler state array (token 5) at 32 of the dynamic state heap's 80 bytes, \
         4 states: byte 124: 64 bytes announced, 48 left"
    );
    // A heap truncated to 60 bytes: the third state (at 64) is gone.
    assert_eq!(
        err(&sampler_heap()[..60], &sampler_tokens(32, 3, 0)),
        "kernel `k`: sampler state array (token 5) at 32 of the dynamic state heap's 60 bytes, \
         3 states: byte 124: 48 bytes announced, 28 left"
    );
    // An offset past any heap.
    assert!(err(&sampler_heap(), &sampler_tokens(u32::MAX, u32::MAX, 0))
        .starts_with("kernel `k`: sampler state array (token 5) at 4294967295"));
    // A state the machine has no sampler for: state 1's x mode MIRROR_ONCE (DWORD 3 bits 6-8 =
    // 5: 0x149), at byte 92 + 48 = 140.
    let mut dsh = sampler_heap();
    dsh[60..64].copy_from_slice(&dwords(&[0x149]));
    assert_eq!(
        err(&dsh, &sampler_tokens(32, 3, 0)),
        "kernel `k`: sampler 1 (SAMPLER_STATE at byte 140 of the binary): TcxAddressControlMode \
         5: not WRAP (0), MIRROR (1), CLAMP (2) or CLAMP_BORDER (4), the modes of an OpenCL \
         sampler"
    );
    // The border colour past the heap, and one that is not OpenCL's (red 1.0 at byte 92).
    assert!(err(&sampler_heap(), &sampler_tokens(32, 3, 72))
        .starts_with("kernel `k`: border colour (token 5) at 72 of the dynamic state heap's 80"));
    let mut dsh = sampler_heap();
    dsh[..4].copy_from_slice(&1.0f32.to_le_bytes());
    assert_eq!(
        err(&dsh, &sampler_tokens(32, 3, 0)),
        "kernel `k`: border colour at byte 92 of the binary is not (0, 0, 0, 0): the machine's \
         border colour is OpenCL's"
    );
    // A binary cut anywhere, or any byte set to 0xff: an answer, never a panic.
    let b = binary_with(&sampler_heap(), &sampler_tokens(32, 3, 0));
    for end in 0..b.len() {
        let _ = patch_tokens(&b[..end]);
    }
    for at in 0..b.len() {
        let mut v = b.clone();
        v[at] = 0xff;
        let _ = patch_tokens(&v);
    }
}
