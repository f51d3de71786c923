//! Operands (placeholder: replaced by the full model of the operands chapter).

/// A vector operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorOperand {}

/// A raw operand: variable id and byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawOperand {
    pub id: u32,
    pub offset: u16,
}
