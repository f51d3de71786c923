//! `3D_LOAD` counts its parameters (`NumParams`): a real `load_lz` with 3 of them decodes to
//! exactly its bytes.
//!
//! The bytes are those of `image_rw_img_array.isa` (real-kernels/dg2, Intel's compiler) at
//! offset 0x983, the instruction Intel prints at line 137 of `image_rw_img_array.visaasm`:
//! `load_lz.RGBA (M1, 16)  0x0:uw T6 V0054.0 V0052.0 V0056.0 V0057.0`; read field by field
//! from the `3D_LOAD` doc, the operands chapter (raw operand `ud id; uw offset`, immediate
//! tag 0x05, type UW = 0x02) and the data types chapter.

#![cfg(not(family_absent))]

use visa::generated::enums::ExecSizeExecutionMask;
use visa::generated::load_3d::{ExecSizeSize, Load3d, Load3dLd, OpSamplerOperation};
use visa::runtime::{
    CapacityError, DataType, DecodeErrorKind, Immediate, InlineList, RawOperand, VectorOperand,
};
use visa::{decode, Instruction, Platform};

const LOAD_LZ: [u8; 39] = [
    0x6e, // opcode 3D_LOAD
    0x1a, 0x00, // Op: 0b00011010 ld_lz, pixel null mask 0
    0x04, // Exec_size: 16 elements, M1
    0x00, 0x00, // Pred: none
    0x0f, // Channels: RGBA
    0x05, 0x02, 0x00, 0x00, 0x00, 0x00, // Aoffimmi: immediate UW 0
    0x06, // Surface: T6
    0x36, 0x00, 0x00, 0x00, 0x00, 0x00, // Dst: V0054.0
    0x03, // NumParams: 3
    0x34, 0x00, 0x00, 0x00, 0x00, 0x00, // V0052.0
    0x38, 0x00, 0x00, 0x00, 0x00, 0x00, // V0056.0
    0x39, 0x00, 0x00, 0x00, 0x00, 0x00, // V0057.0
];

/// The 6 bytes that follow in the file: the start of the next instruction, which a decoder
/// reading all four listed parameters would swallow.
const NEXT: [u8; 6] = [0x29, 0x44, 0x00, 0x00, 0x00, 0x3a];

fn raw(id: u32) -> RawOperand {
    RawOperand { id, offset: 0 }
}

fn load_lz() -> Load3dLd {
    let Ok((Instruction::Load3d(Load3d::Ld(ld)), _)) = decode(&LOAD_LZ) else {
        panic!("load_lz decodes as the `ld, ld_lz, ld_mcs` format of 3D_LOAD")
    };
    ld
}

#[test]
fn a_real_load_lz_with_three_parameters_decodes_exactly_its_bytes() {
    let mut stream = LOAD_LZ.to_vec();
    stream.extend_from_slice(&NEXT);
    let (inst, used) = decode(&stream).expect("valid bytes");
    assert_eq!(
        used,
        LOAD_LZ.len(),
        "NumParams = 3: three raw operands, no more"
    );
    let Instruction::Load3d(Load3d::Ld(ld)) = &inst else {
        panic!("3D_LOAD ld_lz expected, got {inst:?}")
    };
    assert_eq!(ld.op.sampler_operation, OpSamplerOperation::LdLz);
    assert_eq!(ld.op.pixel_null_mask_enable, 0);
    assert_eq!(ld.exec_size.size, ExecSizeSize::N16Elements);
    assert_eq!(ld.exec_size.execution_mask, ExecSizeExecutionMask::M1);
    assert_eq!(ld.pred.id(), 0);
    assert_eq!(ld.channels.write_masks, 0xf);
    assert_eq!(
        ld.aoffimmi,
        VectorOperand::Immediate(Immediate {
            ty: DataType::Uw,
            value: 0
        })
    );
    assert_eq!(ld.surface, 6);
    assert_eq!(ld.dst, raw(0x36));
    assert_eq!(ld.params.as_slice(), [raw(0x34), raw(0x38), raw(0x39)]);
    // Stored in place: room for the four parameters the format lists, and no more.
    assert_eq!(ld.params.len(), 3);
    assert_eq!(
        InlineList::<RawOperand, 4>::CAPACITY,
        Load3dLd::PARAMS.len()
    );
    // The names are the format table's; for ld_lz the doc's notes call the third one `r`.
    assert_eq!(Load3dLd::PARAMS, &["U", "V", "Lod", "R"]);
    assert_eq!(
        (ld.u(), ld.v(), ld.r()),
        (Some(&raw(0x34)), Some(&raw(0x38)), None)
    );
    assert_eq!(inst.validate(Platform::Xehp), Ok(()));

    let mut out = Vec::new();
    inst.encode(&mut out);
    assert_eq!(out, LOAD_LZ);
}

#[test]
fn a_count_beyond_the_bytes_or_the_listed_parameters_is_a_decode_error() {
    // NumParams 4 with only the three operands' 18 bytes left.
    let mut bytes = LOAD_LZ;
    bytes[20] = 4;
    let e = decode(&bytes).expect_err("a fourth operand is missing");
    assert_eq!((e.field, e.offset), ("NumParams", 21));
    assert_eq!(
        e.kind,
        DecodeErrorKind::CountTooLarge {
            count: 4,
            item_bytes: 6,
            available: 18
        }
    );
    // NumParams 5: the format lists four parameters.
    bytes[20] = 5;
    let e = decode(&bytes).expect_err("more parameters than listed");
    assert_eq!(e.field, "NumParams");
    assert!(
        matches!(e.kind, DecodeErrorKind::InvalidValue { value: 5, .. }),
        "{e:?}"
    );
}

#[test]
fn the_parameter_count_follows_the_docs_range() {
    // "Valid values are [1-15]": no parameter at all is invalid.
    let mut ld = load_lz();
    ld.params.clear();
    let e = Instruction::Load3d(Load3d::Ld(ld.clone()))
        .validate(Platform::Xehp)
        .expect_err("NumParams 0");
    assert_eq!(
        (e.instruction, e.field, e.rule),
        ("3D_LOAD", "NumParams", "Valid values are [1-15]")
    );
    // Five parameters are within [1-15] but this format lists four: the list cannot hold them.
    assert_eq!(
        InlineList::try_from(&[raw(1); 5][..]).map(|l| ld.params = l),
        Err(CapacityError {
            len: 5,
            capacity: 4
        })
    );
    for _ in 0..4 {
        ld.params
            .try_push(raw(1))
            .expect("room for the four listed parameters");
    }
    assert_eq!(ld.params.try_push(raw(1)), Err(raw(1)));
    assert_eq!(
        Instruction::Load3d(Load3d::Ld(ld.clone())).validate(Platform::Xehp),
        Ok(())
    );
    // One parameter: NumParams is written from the list.
    ld.params = InlineList::try_from(&[raw(0x34)][..]).expect("one parameter fits");
    let mut out = Vec::new();
    Instruction::Load3d(Load3d::Ld(ld)).encode(&mut out);
    assert_eq!(out[20], 1);
    assert_eq!(out.len(), 21 + 6);
}
