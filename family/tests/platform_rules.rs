//! Validator rules that only the full current family exercises: platform annotations on values
//! and on bit ranges, and operand classes.

#![cfg(not(family_absent))]

use visa::generated::add::Add;
use visa::generated::dpas::{Dpas, ExecSize as DpasExecSize, ExecSizeSize as DpasSize, A, W};
use visa::generated::enums::{ExecSize, ExecSizeExecutionMask, ExecSizeSize};
use visa::runtime::{DataType, Immediate, PredicateControl, RawOperand, Region, VectorOperand};
use visa::{decode, Instruction, Platform};

fn decoded(bytes: &[u8]) -> Instruction {
    let (inst, used) = decode(bytes).expect("hand-made bytes decode");
    assert_eq!(used, bytes.len());
    inst
}

#[test]
fn a_value_marked_for_one_platform_is_valid_there_only() {
    // DPAS.md: Exec_size `{XEHP}0b011: 8 elements`, `{PVC}0b100: 16 elements` (errata make them
    // `{-PVC}` and `{PVC+}`, the split of IGC's verifier). (OWORD_ST's
    // `{XEHP+}0b100: 16 owords` tested values before erratum
    // OWORD_ST-size-16-owords-every-platform: Intel takes it everywhere; MADW's `{PVC+}` has an
    // erratum too.)
    let e = dpas(DpasSize::N16Elements)
        .validate(Platform::Xehp)
        .expect_err("16 elements from PVC on");
    assert_eq!((e.instruction, e.field), ("DPAS", "Exec_size"));
    // `{PVC}` in the doc; erratum DPAS-exec-size-pvc-and-later-16 makes it `{PVC+}`.
    assert!(
        e.rule.contains("{PVC+}") && e.rule.contains("16 elements"),
        "{}",
        e.rule
    );
    let e = dpas(DpasSize::N8Elements)
        .validate(Platform::Pvc)
        .expect_err("8 elements only before PVC");
    assert_eq!((e.instruction, e.field), ("DPAS", "Exec_size"));
    // `{XEHP}` in the doc; errata DPAS-exec-size-8-tgllp and DPAS-exec-size-split-at-pvc make
    // it every platform before PVC.
    assert!(e.rule.contains("{-PVC}"), "{}", e.rule);
    assert_eq!(dpas(DpasSize::N16Elements).validate(Platform::Pvc), Ok(()));
    assert_eq!(dpas(DpasSize::N8Elements).validate(Platform::Xehp), Ok(()));
}

#[test]
fn a_bit_range_marked_tgllp_plus_must_be_zero_before_tgllp() {
    // DWORD_ATOMIC 0x7d; Op: add (0b00000) with `{TGLLP+}Bit[5]` (16-bit) set -> 0x20;
    // Exec_size 0b011 (8), M1 -> 03; Pred 00 00; Surface 6;
    // Element_offset, Src0, Src1, Dst: raw(1,0), raw(2,0), raw(0,0), raw(3,0). (SVM_ATOMIC's
    // `{TGLLP+}Bit[6..5]` tested this before erratum SVM_ATOMIC-width-bits-every-platform.)
    let mut bytes = vec![0x7d, 0x20, 0x03, 0x00, 0x00, 0x06];
    for id in [1u8, 2, 0, 3] {
        bytes.extend_from_slice(&[id, 0, 0, 0, 0, 0]);
    }
    let inst = decoded(&bytes);
    assert_eq!(inst.name(), "DWORD_ATOMIC");
    let e = inst
        .validate(Platform::Icllp)
        .expect_err("16-bit dword atomics need TGLLP+");
    assert_eq!(e.field, "Op");
    assert!(e.rule.starts_with("{TGLLP+}Bit[5"), "{}", e.rule);
    assert_eq!(inst.validate(Platform::Tgllp), Ok(()));
    let mut again = Vec::new();
    inst.encode(&mut again);
    assert_eq!(again, bytes);
}

#[test]
fn svm_atomic_widths_and_16_owords_are_valid_everywhere() {
    // Errata SVM_ATOMIC-width-bits-every-platform and OWORD_ST-size-16-owords-every-platform
    // (Intel's compiler and assembler write them before TGLLP and XEHP): SVM_ATOMIC add.64
    // (Op 0x40) and OWORD_ST (16) validate on the oldest platform.
    let mut bytes = vec![0x4e, 0x05, 0x03, 0x00, 0x00, 0x40];
    for id in [1u8, 2, 0, 3] {
        bytes.extend_from_slice(&[id, 0, 0, 0, 0, 0]);
    }
    assert_eq!(decoded(&bytes).validate(Platform::ALL[0]), Ok(()));
    // OWORD_ST 0x36: Size 0b100 (16 owords), Surface 6, Offset immediate UD 2, Src raw(30,0).
    let st = decoded(&[
        0x36, 0x04, 0x06, 0x05, 0x00, 0x02, 0, 0, 0, 0x1e, 0, 0, 0, 0, 0,
    ]);
    assert_eq!(st.name(), "OWORD_ST");
    assert_eq!(st.validate(Platform::ALL[0]), Ok(()));
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

/// A DPAS of `size` elements (raw operands v1, v2, v3; Src2 general v4).
fn dpas(size: DpasSize) -> Instruction {
    let raw = |id| RawOperand { id, offset: 0 };
    Instruction::Dpas(Dpas {
        exec_size: DpasExecSize {
            size,
            execution_mask: ExecSizeExecutionMask::ALL[0],
            reserved: 0,
        },
        dst: raw(1),
        src0: raw(2),
        src1: raw(3),
        src2: VectorOperand::General {
            modifier: 0,
            id: 4,
            row_offset: 0,
            col_offset: 0,
            region: Region::new(1, 1, 1),
        },
        w: W::ALL[0],
        a: A::ALL[0],
        sd: 8,
        rc: 8,
    })
}

/// [`dpas`] validated on `platform` (any name `Platform::from_name` takes).
fn dpas_on(size: DpasSize, platform: &str) -> Result<(), visa::runtime::ValidationError> {
    dpas(size).validate(Platform::from_name(platform).expect("a platform"))
}

#[test]
fn an_instruction_exists_where_the_list_of_instructions_says() {
    // 6_instructions.md: `- [DPAS - Dot Product Accumulate Systolic {XEHP+}](instructions/DPAS.md)`,
    // `{TGLLP+}` by erratum 6_instructions-02-dpas-on-tgllp.
    let e = dpas_on(DpasSize::N8Elements, "SKL").expect_err("no DPAS before TGLLP");
    assert_eq!((e.instruction, e.field), ("DPAS", "Opcode"));
    assert_eq!(
        e.rule,
        "{TGLLP+} (6_instructions.md: DPAS - Dot Product Accumulate Systolic)"
    );
    assert_eq!(dpas_on(DpasSize::N8Elements, "tgllp"), Ok(()));
    // `{DG2,XEHP}`: DPASW is gone from PVC on, as IGC's verifier says ("dpasw instuction is
    // not supported on selected platform" where `getPlatform() >= Xe_PVC`).
    // DPASW 0x1c: Exec_size 0b011 (8), M1; Dst, Src0, Src1 raw(1,0), raw(2,0), raw(3,0)
    // (id UD, offset UW); Src2 general v4 <1;1,0>; W and A s8 (0x08), SD 8, RC 8.
    let mut dpasw = vec![0x1cu8, 0x03];
    for id in [1u8, 2, 3] {
        dpasw.extend_from_slice(&[id, 0, 0, 0, 0, 0]);
    }
    dpasw.extend_from_slice(&[0x00, 4, 0, 0, 0, 0, 0, 0x21, 0x01]);
    dpasw.extend_from_slice(&[0x08, 0x08, 8, 8]);
    let inst = decoded(&dpasw);
    assert_eq!(inst.name(), "DPASW");
    assert_eq!(
        inst.validate(Platform::from_name("acm-g10").unwrap()),
        Ok(())
    );
    let e = inst
        .validate(Platform::from_name("pvc").unwrap())
        .expect_err("no DPASW on PVC");
    assert_eq!(e.field, "Opcode");
    assert!(e.rule.starts_with("{DG2,XEHP} "), "{}", e.rule);
}

#[test]
fn generations_after_pvc_xt_follow_it_unless_an_erratum_names_them() {
    // 16-element DPAS from PVC on (erratum DPAS-exec-size-pvc-and-later-16): PVCXT and every
    // later generation, named by an erratum (XE2, XE3P_CRI) or not (XE3, NVL).
    for p in ["pvc", "lnl-m", "bmg", "ptl", "cri", "nvl-p"] {
        assert_eq!(dpas_on(DpasSize::N16Elements, p), Ok(()), "{p}");
        assert!(dpas_on(DpasSize::N8Elements, p).is_err(), "{p}");
    }
    // TANH (0x96, doc and list entry by errata) exists from XE3P_CRI on, a generation the docs
    // do not describe: on NVL, after it, too; not on XE3 or PVCXT, which follow PVC_XT.
    // Exec_size 0b100 (16), M1; Pred 0; Dst general v33, Src0 general v34, each <1;1,0>.
    let mut bytes = vec![0x96u8, 0x04, 0, 0];
    for id in [33u8, 34] {
        bytes.extend_from_slice(&[0x00, id, 0, 0, 0, 0, 0, 0x21, 0x01]);
    }
    let tanh = decoded(&bytes);
    assert_eq!(tanh.name(), "TANH");
    for p in ["cri", "XE3P_CRI", "nvl-p"] {
        assert_eq!(
            tanh.validate(Platform::from_name(p).unwrap()),
            Ok(()),
            "{p}"
        );
    }
    for p in ["ptl", "lnl-m", "pvc", "tgllp"] {
        let e = tanh
            .validate(Platform::from_name(p).unwrap())
            .expect_err("no TANH before XE3P_CRI");
        assert_eq!(
            (e.field, e.rule),
            (
                "Opcode",
                "{XE3P_CRI+} (6_instructions.md: TANH - hyperbolic tangent)"
            ),
            "{p}"
        );
    }
}
