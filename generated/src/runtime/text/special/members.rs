//! The members of an instruction as the formatters of whole instructions (3D_LOAD, 3D_SAMPLE)
//! see them: every field in format order, a counted list as one member, its count left out
//! (the generated code encodes the list's length). One representation for every generated
//! crate, whatever the field types its docs give.

use crate::runtime::{PredicateControl, RawOperand, VectorOperand};
use alloc::vec::Vec;

/// A member to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldRef<'a> {
    /// An integer, enumerated or bit-packed field, as its raw bits.
    Scalar(u64),
    Predicate(PredicateControl),
    Vector(&'a VectorOperand),
    Raw(RawOperand),
    /// A counted list of raw operands.
    Raws(&'a [RawOperand]),
}

/// A member a parser read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    Scalar(u64),
    Predicate(PredicateControl),
    Vector(VectorOperand),
    Raw(RawOperand),
    Raws(Vec<RawOperand>),
}
