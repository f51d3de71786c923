//! A jump table of counted labels, in the crate generated from `tests/specs/counted/` (the
//! test doc `SWITCHJMP.md`). CI copies this file into that crate and runs it (see `.ci/run`).
//! The bytes are worked out by hand from the test doc and the operands chapter.

// The crate has one instruction, so matching on `Instruction` cannot fail.
#![allow(irrefutable_let_patterns)]

use visa::generated::switchjmp::{ExecSizeExecutionMask, ExecSizeSize, Switchjmp};
use visa::runtime::{DataType, DecodeErrorKind, Immediate, VectorOperand};
use visa::{decode, Instruction, Platform};

/// SWITCHJMP 0x5b: Exec_size 0x00 (1 element, M1), Pred 0x0000, Num_labels 3,
/// Index = immediate UD 2 (tag 0x05, type 0x00, value), labels 7, 8, 9 (uw each).
const THREE_LABELS: [u8; 17] = [
    0x5b, 0x00, 0x00, 0x00, 0x03, 0x05, 0x00, 0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x08, 0x00,
    0x09, 0x00,
];

fn jump_table(labels: Vec<u16>) -> Switchjmp {
    let Ok((Instruction::Switchjmp(mut sj), _)) = decode(&THREE_LABELS) else {
        panic!("the hand-made jump table decodes as SWITCHJMP");
    };
    sj.label = labels;
    sj
}

#[test]
fn a_jump_table_of_three_labels_decodes_exactly_and_encodes_back() {
    let (inst, used) = decode(&THREE_LABELS).expect("valid bytes");
    assert_eq!(used, THREE_LABELS.len());
    let Instruction::Switchjmp(sj) = &inst else {
        panic!("SWITCHJMP expected, got {inst:?}")
    };
    assert_eq!(sj.exec_size.size, ExecSizeSize::N1Element);
    assert_eq!(sj.exec_size.execution_mask, ExecSizeExecutionMask::M1);
    assert_eq!(sj.pred.id(), 0);
    assert_eq!(
        sj.index,
        VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: 2
        })
    );
    assert_eq!(sj.label, vec![7, 8, 9]);
    assert_eq!(inst.validate(Platform::ALL[0]), Ok(()));
    let mut out = Vec::new();
    inst.encode(&mut out);
    assert_eq!(out, THREE_LABELS);
}

#[test]
fn the_count_is_the_list_length_when_encoding() {
    let mut out = Vec::new();
    jump_table(vec![0x0102]).encode(&mut out);
    // Num_labels is written from the list: 1 label, then its two bytes.
    assert_eq!(out[4], 1);
    assert_eq!(&out[11..], &[0x02, 0x01]);
    assert_eq!(out.len(), 13);
}

#[test]
fn a_count_larger_than_the_bytes_left_is_a_decode_error() {
    // Num_labels 200: 400 bytes of labels needed, 6 left after Index.
    let mut bytes = THREE_LABELS;
    bytes[4] = 200;
    let e = decode(&bytes).expect_err("200 labels cannot fit");
    assert_eq!((e.field, e.offset), ("Num_labels", 11));
    assert_eq!(
        e.kind,
        DecodeErrorKind::CountTooLarge {
            count: 200,
            item_bytes: 2,
            available: 6
        }
    );
    // The last label cut short: 3 labels need 6 bytes, 5 are left.
    let e = decode(&THREE_LABELS[..16]).expect_err("truncated");
    assert!(
        matches!(e.kind, DecodeErrorKind::CountTooLarge { count: 3, available: 5, .. }),
        "{e:?}"
    );
}

#[test]
fn the_stated_range_is_validated() {
    let p = Platform::ALL[0];
    for n in [0usize, 33] {
        let e = Instruction::Switchjmp(jump_table(vec![1; n]))
            .validate(p)
            .expect_err("outside [1..32]");
        assert_eq!((e.instruction, e.field), ("SWITCHJMP", "Num_labels"));
        assert_eq!(e.rule, "Must be in the range [1..32]");
    }
    assert_eq!(Instruction::Switchjmp(jump_table(vec![1; 32])).validate(p), Ok(()));
    assert_eq!(Instruction::Switchjmp(jump_table(vec![1])).validate(p), Ok(()));
    // 256 labels do not fit the `ub` count at all.
    let e = Instruction::Switchjmp(jump_table(vec![1; 256]))
        .validate(p)
        .expect_err("too long for a ub count");
    assert!(e.rule.contains("must fit its type"), "{}", e.rule);
}
