//! One accept and one reject per validator rule the spec docs state, on the generated crate.

use visa::generated::enums::ExecSizeExecutionMask;
use visa::generated::scatter4_scaled::ExecSizeSize;
use visa::generated::scatter4_scaled::{Channels, ExecSize, Scatter4Scaled};
use visa::runtime::{DataType, Immediate, PredicateControl, RawOperand, Region, VectorOperand};
use visa::{Instruction, Platform};

fn valid() -> Scatter4Scaled {
    Scatter4Scaled {
        exec_size: ExecSize {
            size: ExecSizeSize::N8Elements,
            execution_mask: ExecSizeExecutionMask::M1,
            reserved: 0,
        },
        pred: PredicateControl::NONE,
        channels: Channels {
            write_masks: 0b0001,
            reserved: 0,
        },
        scale: 0,
        surface: 0,
        offset: VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: 0,
        }),
        element_offset: RawOperand { id: 1, offset: 0 },
        src: RawOperand { id: 2, offset: 0 },
    }
}

fn platform() -> Platform {
    Platform::ALL[0]
}

fn rejects(i: Scatter4Scaled, field: &str, rule_part: &str) {
    let e = Instruction::Scatter4Scaled(i)
        .validate(platform())
        .expect_err("must be rejected");
    assert_eq!((e.instruction, e.field), ("SCATTER4_SCALED", field));
    assert!(
        e.rule.contains(rule_part),
        "rule {:?} lacks {rule_part:?}",
        e.rule
    );
}

#[test]
fn a_valid_instruction_is_accepted() {
    assert_eq!(
        Instruction::Scatter4Scaled(valid()).validate(platform()),
        Ok(())
    );
}

#[test]
fn at_least_one_channel_must_be_enabled() {
    let mut i = valid();
    i.channels.write_masks = 0;
    rejects(i, "Channels", "At least one channel must be enabled");
    let mut ok = valid();
    ok.channels.write_masks = 0b1111;
    assert!(Instruction::Scatter4Scaled(ok).validate(platform()).is_ok());
}

#[test]
fn a_bit_range_value_must_fit_its_range() {
    let mut i = valid();
    i.channels.write_masks = 0x10;
    rejects(i, "Channels", "Bit[3..0]");
}

#[test]
fn reserved_bits_must_be_zero() {
    let mut i = valid();
    i.exec_size.reserved = 0x08;
    rejects(i, "Exec_size", "must be zero");
    // Channels says its other bits are ignored (erratum
    // spec/errata/SCATTER4_SCALED-channels-ignored-bits.patch: Intel's reader masks them):
    // kept, not checked.
    let mut i = valid();
    i.channels.reserved = 0x80;
    assert_eq!(Instruction::Scatter4Scaled(i).validate(platform()), Ok(()));
}

#[test]
fn allowed_types_are_checked_where_the_operand_carries_one() {
    let mut i = valid();
    i.offset = VectorOperand::Immediate(Immediate {
        ty: DataType::F,
        value: 0,
    });
    rejects(i, "Offset", "Must have type UD");
    // A general operand carries no type (its variable does): nothing to check here.
    let mut ok = valid();
    ok.offset = VectorOperand::General {
        modifier: 0,
        id: 3,
        row_offset: 0,
        col_offset: 0,
        region: Region(0x0121),
    };
    assert!(Instruction::Scatter4Scaled(ok).validate(platform()).is_ok());
}

#[test]
fn predicate_control_follows_the_operands_chapter() {
    let mut i = valid();
    i.pred = PredicateControl(0x1000);
    rejects(i, "Pred", "bit 12 is reserved");
    let mut ok = valid();
    ok.pred = PredicateControl(0x8003);
    assert!(Instruction::Scatter4Scaled(ok).validate(platform()).is_ok());
}

#[test]
fn exec_sizes_the_doc_does_not_list_do_not_decode() {
    // SCATTER4_SCALED lists 1, 2, 4, 8 and 16 elements (0b000-0b100, with its erratum
    // SCATTER4_SCALED-exec-size-1-2-4): 0b101 (32 elements) is refused.
    let mut bytes = Vec::new();
    Instruction::Scatter4Scaled(valid()).encode(&mut bytes);
    bytes[1] = (bytes[1] & !0x7) | 0b101;
    let e = visa::decode(&bytes).unwrap_err();
    assert_eq!((e.field, e.offset), ("Exec_size", 1));
}

#[test]
fn executor_dispatch_reaches_the_instructions_method() {
    struct Names(Vec<&'static str>);
    impl visa::Execute for Names {
        type Output = usize;
        fn oword_st(&mut self, _: &visa::OwordSt) -> usize {
            self.0.push("OWORD_ST");
            1
        }
        fn scatter(&mut self, _: &visa::Scatter) -> usize {
            self.0.push("SCATTER");
            2
        }
        fn scatter4_scaled(&mut self, _: &Scatter4Scaled) -> usize {
            self.0.push("SCATTER4_SCALED");
            3
        }
        fn gather_scaled(&mut self, _: &visa::GatherScaled) -> usize {
            self.0.push("GATHER_SCALED");
            4
        }
        fn qw_scatter(&mut self, _: &visa::QwScatter) -> usize {
            self.0.push("QW_SCATTER");
            5
        }
    }
    let mut n = Names(vec![]);
    assert_eq!(
        visa::dispatch(&Instruction::Scatter4Scaled(valid()), &mut n),
        3
    );
    assert_eq!(n.0, vec!["SCATTER4_SCALED"]);
}
