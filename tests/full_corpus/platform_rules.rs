//! Validator rules that only the full current family exercises: platform annotations on values
//! and on bit ranges, and operand classes. CI copies this file into the crate generated from
//! `../shared/visa-docs/current/instructions` and runs it there (see `.ci/run`); the bytes are
//! worked out by hand from those docs and the operands chapter.

use visa::generated::add::Add;
use visa::generated::enums::SizeNumberOfOwords;
use visa::generated::enums::{ExecSize, ExecSizeExecutionMask, ExecSizeSize};
use visa::runtime::{DataType, Immediate, PredicateControl, Region, VectorOperand};
use visa::{decode, Instruction, Platform};

fn decoded(bytes: &[u8]) -> Instruction {
    let (inst, used) = decode(bytes).expect("hand-made bytes decode");
    assert_eq!(used, bytes.len());
    inst
}

#[test]
fn a_value_marked_xehp_plus_is_valid_from_xehp_on() {
    // OWORD_ST 0x36: Size 0b011 (8 owords), Surface 0, Offset immediate UD 2, Src raw(30,0).
    let Instruction::OwordSt(mut st) = decoded(&[
        0x36, 0x03, 0x00, 0x05, 0x00, 0x02, 0, 0, 0, 0x1e, 0, 0, 0, 0, 0,
    ]) else {
        panic!("OWORD_ST expected")
    };
    st.size.number_of_owords = SizeNumberOfOwords::N16OwordsMayOnly; // `{XEHP+}0b100: 16 owords`
    let inst = Instruction::OwordSt(st);
    let e = inst
        .validate(Platform::Tgllp)
        .expect_err("16 owords needs XEHP+");
    assert_eq!((e.instruction, e.field), ("OWORD_ST", "Size"));
    assert!(
        e.rule.contains("{XEHP+}") && e.rule.contains("16 owords"),
        "{}",
        e.rule
    );
    assert_eq!(inst.validate(Platform::Xehp), Ok(()));
    assert_eq!(inst.validate(Platform::Pvc), Ok(()));
}

#[test]
fn a_bit_range_marked_tgllp_plus_must_be_zero_before_tgllp() {
    // SVM 0x4e, ATOMIC 0x05; Exec_size 0b011 (8), M1 -> 03; Pred 00 00;
    // Op: add (0b00000) with data width 0b10 (64-bit) in bits 6..5 -> 0x40;
    // Addresses, Src0, Src1, Dst: raw(1,0), raw(2,0), raw(0,0), raw(3,0).
    let mut bytes = vec![0x4e, 0x05, 0x03, 0x00, 0x00, 0x40];
    for id in [1u8, 2, 0, 3] {
        bytes.extend_from_slice(&[id, 0, 0, 0, 0, 0]);
    }
    let inst = decoded(&bytes);
    assert_eq!(inst.name(), "SVM_ATOMIC");
    let e = inst
        .validate(Platform::Icllp)
        .expect_err("64-bit atomics need TGLLP+");
    assert_eq!(e.field, "Op");
    assert!(e.rule.starts_with("{TGLLP+}Bit[6..5]"), "{}", e.rule);
    assert_eq!(inst.validate(Platform::Tgllp), Ok(()));
    let mut again = Vec::new();
    inst.encode(&mut again);
    assert_eq!(again, bytes);
}

#[test]
fn operand_classes_are_enforced() {
    // ADD 0x01; Exec_size 03; Pred 00 00; Dst = immediate UD 1 (not general/indirect);
    // Src0, Src1 = general v1, v2 with region <1;1,0> (0001|0010<<4|0001<<8 = 0x0121).
    let mut bytes = vec![0x01, 0x03, 0x00, 0x00, 0x05, 0x00, 0x01, 0, 0, 0];
    for id in [1u8, 2] {
        bytes.extend_from_slice(&[0x00, id, 0, 0, 0, 0, 0, 0x21, 0x01]);
    }
    let inst = decoded(&bytes);
    let e = inst
        .validate(Platform::Xehp)
        .expect_err("an immediate destination");
    assert_eq!((e.instruction, e.field), ("ADD", "Dst"));
    assert!(
        e.rule.contains("Operand class: general,indirect"),
        "{}",
        e.rule
    );
    // The same with a general destination is valid.
    bytes[4..10].copy_from_slice(&[0x00, 0x07, 0, 0, 0, 0]);
    bytes.splice(10..10, [0, 0x21, 0x01]);
    assert_eq!(decoded(&bytes).validate(Platform::Xehp), Ok(()));
}

fn add(src0: DataType) -> Instruction {
    Instruction::Add(Add {
        exec_size: ExecSize {
            size: ExecSizeSize::ALL[0],
            execution_mask: ExecSizeExecutionMask::ALL[0],
            reserved: 0,
        },
        pred: PredicateControl(0),
        dst: VectorOperand::General {
            modifier: 0,
            id: 1,
            row_offset: 0,
            col_offset: 0,
            region: Region::new(1, 1, 1),
        },
        src0: VectorOperand::Immediate(Immediate { ty: src0, value: 1 }),
        src1: VectorOperand::General {
            modifier: 0,
            id: 2,
            row_offset: 0,
            col_offset: 0,
            region: Region::new(1, 1, 1),
        },
    })
}

#[test]
fn add_immediate_sources_follow_the_type_maps() {
    // ADD.md: `Type map{XEHP+}` Src types F, BF; no other map lists BF.
    let e = add(DataType::Bf)
        .validate(Platform::Tgllp)
        .expect_err("BF needs XEHP+");
    assert_eq!((e.instruction, e.field), ("ADD", "Src0"));
    assert!(e.rule.contains("{XEHP+} F, BF"), "{}", e.rule);
    assert_eq!(add(DataType::Bf).validate(Platform::Xehp), Ok(()));
    // UD is in the first map (no platform), and Q since erratum ADD-int64-types (Intel's
    // assembler and verifier take `add ... 0x2:q`); BOOL in none.
    assert_eq!(add(DataType::Ud).validate(Platform::Tgllp), Ok(()));
    assert_eq!(add(DataType::Q).validate(Platform::Pvc), Ok(()));
    assert!(add(DataType::Bool).validate(Platform::Pvc).is_err());
}
