//! What routine-level validation (`visa::object::verify`) sees of an instruction: the
//! generated `Instruction::visit_operands` calls an [`OperandVisitor`] with every field the
//! operands chapter and the routine's declarations constrain, and `Instruction::type_maps`
//! gives the doc's operand type maps.

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
    /// A whole-field integer (an index such as `Surface`, `Sampler`, `Label`, or a count), or
    /// the encoded value of an enumerated field (`AddrType`).
    fn index(&mut self, field: &'static str, value: u32);
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
