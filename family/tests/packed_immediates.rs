//! Packed immediates (V, UV, VF) against the docs' type maps. The maps list element types; the
//! data types chapter makes V compatible with the signed integer types, UV with the unsigned
//! ones and VF with F, so a packed immediate passes where a compatible type is listed. These
//! are not errata: the docs are right, the validator reads them so. The bytes are
//! Intel's compiler's, from `real-kernels/dg2`, with the line Intel printed for them.

#![cfg(not(family_absent))]

use visa::runtime::{DataType, Immediate, VectorOperand};
use visa::{decode, Instruction, Platform};

/// Decodes all of `bytes` as one instruction and checks that it encodes back to them.
fn decoded(bytes: &[u8]) -> Instruction {
    let (inst, used) = decode(bytes).unwrap_or_else(|e| panic!("{bytes:02x?} must decode: {e}"));
    assert_eq!(used, bytes.len(), "the whole instruction is read");
    let mut out = Vec::new();
    inst.encode(&mut out);
    assert_eq!(out, bytes, "re-encodes byte for byte");
    inst
}

/// Validates on every platform.
fn valid_everywhere(inst: &Instruction) {
    for p in Platform::ALL {
        inst.validate(*p)
            .unwrap_or_else(|e| panic!("{} must be valid on {p:?}: {e}", inst.name()));
    }
}

#[test]
fn mov_takes_a_packed_signed_vector() {
    // private_arrays_priv.isa at 0x16b0: `mov (M1_NM, 8) V0121(0,0)<1> 0x76543210:v`.
    let bytes = [
        0x29, 0x83, 0x00, 0x00, 0x00, 0x79, 0, 0, 0, 0, 0, 0, 0x02, 0x05, 0x08, 0x10, 0x32, 0x54,
        0x76,
    ];
    let inst = decoded(&bytes);
    let Instruction::Mov(m) = &inst else {
        panic!("MOV expected")
    };
    assert_eq!(m.src0.immediate_type(), Some(DataType::V));
    valid_everywhere(&inst);
}

#[test]
fn add_takes_a_packed_unsigned_vector() {
    // atomics_local_lhist.isa at 0x1bab: `add (M1_NM, 2) V0186(0,0)<1> V0185(0,0)<0;1,0>
    // 0x40:uv`.
    let bytes = [
        0x01, 0x81, 0x00, 0x00, 0x00, 0xba, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0xb9, 0, 0, 0, 0, 0,
        0x21, 0x01, 0x05, 0x0c, 0x40, 0, 0, 0,
    ];
    let inst = decoded(&bytes);
    valid_everywhere(&inst);
}

#[test]
fn addc_takes_uv_but_not_v() {
    // matrix_mad_mma.isa at 0xd89: `addc (M1_NM, 4) V0069(0,0)<1> V0071(0,0)<1>
    // V0067(0,0)<1;1,0> 0xc840:uv`. ADDC's map lists UD only: UV is compatible with it, V is
    // not, and Intel's reader rejects `0xc840:v` there ("addc src0 and src1 only supports
    // single UD type").
    let bytes = [
        0x49, 0x82, 0x00, 0x00, 0x00, 0x45, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x47, 0, 0, 0, 0, 0,
        0x00, 0x02, 0x00, 0x43, 0, 0, 0, 0, 0, 0x22, 0x01, 0x05, 0x0c, 0x40, 0xc8, 0, 0,
    ];
    let inst = decoded(&bytes);
    valid_everywhere(&inst);
    let Instruction::Addc(mut a) = inst else {
        panic!("ADDC expected")
    };
    a.src1 = VectorOperand::Immediate(Immediate {
        ty: DataType::V,
        value: 0xc840,
    });
    let e = Instruction::Addc(a)
        .validate(Platform::Xehp)
        .expect_err("V is no unsigned type");
    assert_eq!(e.field, "Src1");
}
