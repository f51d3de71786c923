//! Every field of an instruction by doc name: the generated `Instruction::visit_operands` calls
//! an [`OperandVisitor`] with each field, in format order. Routine-level validation
//! (`visa::object::verify`) takes the operands and indices; hand-written code that must work
//! for any spec (the machine and its memory messages) reads any other field through the
//! methods with default bodies ([`OperandVisitor::value`], [`OperandVisitor::member`],
//! [`OperandVisitor::rest`]). `Instruction::type_maps` gives the doc's operand type maps, `Instruction::operand_types`
//! each operand's "Must have type" list.

use crate::generated::Platform;
use crate::runtime::{DataType, PredicateControl, RawOperand, VectorOperand};

/// Receives the fields of one instruction, in format order. Field names are the doc's
/// (`Dst`, `Src0`, `Surface`, `Label`).
pub trait OperandVisitor {
    /// The exec-size byte: size in bits 0-2, mask in bits 4-7.
    fn exec_size(&mut self, raw: u8);
    /// A predication control word (`Pred`).
    fn predicate(&mut self, field: &'static str, p: PredicateControl);
    /// A vector operand.
    fn vector(&mut self, field: &'static str, op: &VectorOperand);
    /// A raw operand.
    fn raw(&mut self, field: &'static str, op: &RawOperand);
    /// A whole-field integer (an index such as `Surface`, `Sampler`, `Label`, or a count).
    fn index(&mut self, field: &'static str, value: u32);
    /// An enumerated field (`LscSubOp`, `Op`, `Channels`), a bit-packed one (`Properties`,
    /// `Num_blocks`) or a 64-bit integer (RAW_SENDG's `Desc`): its encoded bits. A bit-packed
    /// field's members follow.
    fn value(&mut self, field: &'static str, bits: u64) {
        let _ = (field, bits);
    }
    /// One `Bit[hi..lo]` member of the bit-packed field `field`, named as its generated struct
    /// member (`number_of_blocks`): its bits, shifted down.
    fn member(&mut self, field: &'static str, member: &'static str, bits: u64) {
        let _ = (field, member, bits);
    }
    /// A field whose layout the doc leaves open: its bytes, verbatim.
    fn rest(&mut self, field: &'static str, bytes: &[u8]) {
        let _ = (field, bytes);
    }
}

/// The "Must have type" list of one vector operand of an instruction doc (`Dst`: "Must have
/// type UD"). The instruction's own validation checks it on immediates; routine-level
/// validation (`visa::object::verify`) checks it on a register operand's declared type (a
/// variable's, or an indirect operand's own).
#[derive(Clone, Copy, Debug)]
pub struct OperandTypes {
    /// The doc (`CBIT.md`) and the field's doc name (`Dst`).
    pub source: &'static str,
    pub field: &'static str,
    /// The types the operand may have.
    pub types: &'static [DataType],
    /// The doc's sentence (`Must have type UD`).
    pub rule: &'static str,
    /// Whether the doc gives the field operand classes (an instruction operand: `Dst`,
    /// `Src0`); `false` for a message parameter (`Offset(scalar)`).
    pub operand: bool,
}

/// One `Type map{PLATFORM}` of an instruction doc's `#### Operand type maps`.
#[derive(Clone, Copy, Debug)]
pub struct TypeMap {
    /// The doc (`ADD.md`) and the line of the map's bullet.
    pub source: &'static str,
    pub line: u32,
    /// Whether the map is available on a platform (its `{...}` annotation).
    pub applies: fn(Platform) -> bool,
    /// `Dst types` and `Src types`; an empty list constrains nothing.
    pub dst: &'static [DataType],
    pub src: &'static [DataType],
}
