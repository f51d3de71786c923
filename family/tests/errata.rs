//! One test per erratum of `errata/`: bytes Intel's compiler wrote (or Intel's
//! reader accepted) decode, validate and re-encode with the corrected docs. Without the erratum
//! each of these fails (an unlisted value or a set reserved bit). Each vector names the file and offset it comes from and
//! the line Intel printed for it; the errata's headers hold the full evidence.

#![cfg(not(family_absent))]

use visa::runtime::DataType;
use visa::{decode, Instruction, Platform};

/// Decodes all of `bytes` as one instruction, validates it on `platform` and checks that it
/// encodes back to the same bytes.
fn accepted(bytes: &[u8], platform: Platform) -> Instruction {
    let (inst, used) = decode(bytes).unwrap_or_else(|e| panic!("{bytes:02x?} must decode: {e}"));
    assert_eq!(used, bytes.len(), "the whole instruction is read");
    inst.validate(platform)
        .unwrap_or_else(|e| panic!("{} must be valid on {platform:?}: {e}", inst.name()));
    let mut out = Vec::new();
    inst.encode(&mut out);
    assert_eq!(out, bytes, "re-encodes byte for byte");
    inst
}

#[test]
fn scatter_takes_any_surface_index() {
    // SCATTER-surface-any-index.patch: real-kernels/dg2/calls_caller.isa with the svm_gather at
    // 0xbb9 replaced by these bytes; Intel's reader prints `scatter.4 (M1, 8) T6 0x0:ud V0092.0
    // V0095.0`. Surface byte 06 (T6): the doc listed only 0 and 5.
    let bytes = [
        0x3a, 0x02, 0x00, 0x06, 0x05, 0x00, 0, 0, 0, 0, 0x5c, 0, 0, 0, 0, 0, 0x5f, 0, 0, 0, 0, 0,
    ];
    for p in Platform::ALL {
        let Instruction::Scatter(s) = accepted(&bytes, *p) else {
            panic!("SCATTER expected")
        };
        assert_eq!(s.surface, 6);
    }
}

#[test]
fn scatter4_typed_writes_16_elements_on_pvc() {
    // SCATTER4_TYPED-exec-size-16-pvc.patch: real-kernels/dg2/image_rw_img_buf.isa at 0x7db,
    // `scatter4_typed.RGBA (M1, 8) T6 V0049.0 %null.0 %null.0 %null.0 V0069.0`, with Exec_size
    // 0x03 made 0x04: Intel's reader prints `(M1, 16)` on PVC, as ocloc -device pvc writes.
    let mut bytes = vec![0x4c, 0x03, 0x00, 0x00, 0x0f, 0x06];
    for var in [0x31u8, 0, 0, 0, 0x45] {
        bytes.extend([var, 0, 0, 0, 0, 0]);
    }
    let Instruction::Scatter4Typed(s) = accepted(&bytes, Platform::Pvc) else {
        panic!("SCATTER4_TYPED expected")
    };
    assert_eq!(s.exec_size.size.meaning(), "8 elements");
    bytes[1] = 0x04;
    let Instruction::Scatter4Typed(s) = accepted(&bytes, Platform::Pvc) else {
        panic!("SCATTER4_TYPED expected")
    };
    assert!(s.exec_size.size.meaning().starts_with("16 elements"));
    assert_eq!((s.surface, s.u.id, s.src.id), (6, 0x31, 0x45));
}

#[test]
fn qw_scatter_writes_2_and_4_blocks() {
    // QW_SCATTER-num-blocks-2-4.patch: `87 03 00 00 NB 00 5c.. 5f..` in a copy of
    // calls_caller.isa; Intel's reader prints `qw_scatter.2` / `.4 (M1, 8) %slm V0092.0
    // V0095.0` for NB = 01 / 02.
    for (nb, meaning) in [(0x01u8, "2 blocks"), (0x02, "4 blocks")] {
        let bytes = [
            0x87, 0x03, 0x00, 0x00, nb, 0x00, 0x5c, 0, 0, 0, 0, 0, 0x5f, 0, 0, 0, 0, 0,
        ];
        // A copy of a DG2 file: QW_SCATTER exists from XEHP on (6_instructions-06).
        let dg2 = Platform::from_name("DG2").expect("a platform");
        let Instruction::QwScatter(q) = accepted(&bytes, dg2) else {
            panic!("QW_SCATTER expected")
        };
        assert_eq!(q.num_blocks.number_of_blocks.meaning(), meaning);
    }
}

#[test]
fn svm_block_st_carries_the_unaligned_flag_in_bit_7() {
    // SVM_BLOCK_ST-unaligned-bit-7.patch: real-kernels/dg2/recursion_stackcalls.isa at 0xa17,
    // `svm_block_st (1) V0070(0,0)<0;1,0> V0068.0`: Properties 0x80 = 1 oword + bit 7.
    let bytes = [
        0x4e, 0x02, 0x80, 0x00, 0x46, 0, 0, 0, 0, 0, 0x21, 0x01, 0x44, 0, 0, 0, 0, 0,
    ];
    let Instruction::SvmBlockSt(st) = accepted(&bytes, Platform::Xehp) else {
        panic!("SVM_BLOCK_ST expected")
    };
    assert_eq!(st.properties.reserved, 0, "bit 7 is a documented bit now");
    assert_eq!(st.properties.to_raw(), 0x80);
}

#[test]
fn svm_gather_block_size_8_is_0b10() {
    // SVM_GATHER-block-size-8-is-0b10.patch: real-kernels/dg2/calls_caller.isa at 0xbb9,
    // `svm_gather.4.1 (M1, 8) V0092.0 V0095.0` (Block_size 01); with 02 Intel's reader prints
    // `svm_gather.8.1`, with 03 it stops: "Illegal SVM block size".
    let mut bytes = [
        0x4e, 0x03, 0x03, 0x00, 0x00, 0x01, 0x00, 0x5c, 0, 0, 0, 0, 0, 0x5f, 0, 0, 0, 0, 0,
    ];
    let Instruction::SvmGather(g) = accepted(&bytes, Platform::Xehp) else {
        panic!("SVM_GATHER expected")
    };
    assert!(g.block_size.to_raw() == 0x01);
    bytes[5] = 0x02;
    let Instruction::SvmGather(g) = accepted(&bytes, Platform::Xehp) else {
        panic!("SVM_GATHER expected")
    };
    assert!(
        format!("{:?}", g.block_size).contains("8"),
        "{:?}",
        g.block_size
    );
    bytes[5] = 0x03;
    assert!(
        decode(&bytes).is_err()
            || decode(&bytes).is_ok_and(|(i, _)| i.validate(Platform::Xehp).is_err()),
        "0b11 is no block size Intel knows"
    );
}

#[test]
fn shr_takes_signed_integer_shift_counts() {
    // SHR-signed-integer-types.patch: real-kernels/dg2/arith_int_int_ops.isa at 0x183e,
    // `shr (M1, 16) V0117(0,0)<1> V0121(0,0)<1;1,0> 0x1:d` (immediate type byte 01 = D), and
    // small_types_avg_u8.isa at 0xfc8, `shr (M1, 16) V0078(0,0)<1> V0080(0,0)<1;1,0> 0x1:w`
    // (type byte 03 = W). The doc's map listed UD, UW, UB only.
    let d = [
        0x25, 0x04, 0x00, 0x00, 0x00, 0x75, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x79, 0, 0, 0, 0, 0,
        0x22, 0x01, 0x05, 0x01, 0x01, 0, 0, 0,
    ];
    let w = [
        0x25, 0x04, 0x00, 0x00, 0x00, 0x4e, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x50, 0, 0, 0, 0, 0,
        0x22, 0x01, 0x05, 0x03, 0x01, 0, 0, 0,
    ];
    for (bytes, ty) in [(&d, DataType::D), (&w, DataType::W)] {
        for p in Platform::ALL {
            let Instruction::Shr(s) = accepted(bytes, *p) else {
                panic!("SHR expected")
            };
            assert_eq!(s.src1.immediate_type(), Some(ty));
        }
    }
}

#[test]
fn madw_runs_16_elements_before_pvc() {
    // MADW-exec-size-16-all-platforms.patch: real-kernels/dg2/arith_int_uint_ops.isa (GEN
    // platform 13 = DG2) at 0xecd, `madw (M1, 16) V0074(0,0)<1> V0069(0,0)<1;1,0>
    // V0071(0,0)<1;1,0> 0x0:ud`: Exec_size 0x04. The doc marked 16 elements `{PVC+}`.
    let bytes = [
        0x91, 0x04, 0x00, 0x00, 0x00, 0x4a, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x45, 0, 0, 0, 0, 0,
        0x22, 0x01, 0x00, 0x47, 0, 0, 0, 0, 0, 0x22, 0x01, 0x05, 0x00, 0, 0, 0, 0,
    ];
    for p in Platform::ALL {
        let Instruction::Madw(m) = accepted(&bytes, *p) else {
            panic!("MADW expected")
        };
        assert_eq!(m.exec_size.size.meaning(), "16 elements");
    }
}
