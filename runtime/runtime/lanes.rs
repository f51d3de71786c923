//! What an instruction's lane function needs from a machine that runs it.
//!
//! The `## Semantics` pseudo-code of an instruction doc (`for (i = 0; i < exec_size; ++i) {
//! if (ChEn[i]) { dst[i] = src0[i] + src1[i]; } }`) is generated into a lane function that
//! computes with [`Value`]s and reaches the machine only through [`Lanes`]: which lanes are
//! enabled, operand elements read and written through their regions, and the named functions
//! of the pseudo-code. Instructions whose docs give prose instead of pseudo-code go to
//! [`Lanes::prose`], where a machine runs them by hand or says it cannot.
//!
//! Where the element types, source modifiers, saturation and rounding come in: `read` gives
//! an element as its operand's type says, modifiers applied; the lane function computes exactly
//! (integers do not wrap, floats are held in `f64`); `write` converts to the destination's
//! type, saturating when the destination asks for it.

use crate::generated::Instruction;
use crate::runtime::{DataType, ExecSize, PredicateControl, RawOperand, VectorOperand};

/// A value of the pseudo-code: an operand element or what an expression computes from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer, exact: an element of an integer type (sign- or zero-extended as its type
    /// says) or a result that has not yet been fitted to a destination. The type is the one
    /// the value was read as, or the one an operator's operands promote to: shifts, bitwise
    /// NOT and bit counts need its width and signedness.
    Int(i128, DataType),
    /// A floating-point value, held exactly in `f64` (HF, BF, F and DF all widen exactly),
    /// with the type it was read as or promotes to.
    Float(f64, DataType),
    /// A truth value: a predicate bit, a comparison.
    Bool(bool),
}

/// What a lane function reaches of the machine that runs it. Lane numbers count from 0 to
/// the exec size.
pub trait Lanes {
    /// Why an instruction cannot run (a bad operand, an instruction the machine lacks...).
    type Error;

    /// Starts an instruction: its exec-size byte (size and mask control) and its predicate,
    /// when its format has one. Returns the number of lanes.
    fn begin(
        &mut self,
        exec_size: ExecSize,
        pred: Option<PredicateControl>,
    ) -> Result<u32, Self::Error>;

    /// `ChEn[i]` (the docs also write `EM[i]`): lane `i` runs: the execution mask, the
    /// instruction's mask control and its predicate all let it.
    fn enabled(&self, lane: u32) -> bool;

    /// `EM[i]`, where a doc guards its lanes with it instead of `ChEn[i]` (SEL): lane `i` runs
    /// as the execution mask and the instruction's mask control let it; the predicate does not
    /// disable lanes there, the lane function reads it as `Pred[i]`.
    fn enabled_by_mask(&self, lane: u32) -> bool;

    /// `Pred[i]`: lane `i`'s predicate bit, inversion applied (what SEL selects on).
    fn predicate(&self, lane: u32) -> bool;

    /// `ChEn` of the first `lanes` lanes (at most 32), lane `i` at bit `i`: which lanes a
    /// whole-operand lane function computes. By default from [`Lanes::enabled`].
    fn enabled_lanes(&self, lanes: u32) -> u32 {
        (0..lanes.min(32))
            .filter(|&i| self.enabled(i))
            .fold(0, |m, i| m | 1 << i)
    }

    /// `EM` of the first `lanes` lanes, lane `i` at bit `i` (the guard of SEL's lanes). By
    /// default from [`Lanes::enabled_by_mask`].
    fn enabled_by_mask_lanes(&self, lanes: u32) -> u32 {
        (0..lanes.min(32))
            .filter(|&i| self.enabled_by_mask(i))
            .fold(0, |m, i| m | 1 << i)
    }

    /// Element `lane` of a source operand, through its region (or the immediate, or the
    /// indirect address), source modifier applied.
    fn read(&mut self, op: &VectorOperand, lane: u32) -> Result<Value, Self::Error>;

    /// The element type of an operand at lane `lane` (`sizeof(src0)`, `CHANNEL_SIZE_IN_BITS`
    /// of the pseudo-code). By default the type its element `lane` reads as; a machine that
    /// knows its variables' types without reading overrides it.
    fn element_type(&mut self, op: &VectorOperand, lane: u32) -> Result<DataType, Self::Error> {
        Ok(self.read(op, lane)?.ty())
    }

    /// Writes element `lane` of a destination: converted to its type, saturated when it says.
    fn write(&mut self, op: &VectorOperand, lane: u32, value: Value) -> Result<(), Self::Error>;

    /// Element `i` of a source operand into `out[i]` for every lane `i` of `mask` (bit `i`)
    /// below `out.len()`, as [`Lanes::read`] reads it; the other elements of `out` are left as
    /// they are. A whole-operand lane function reads each source once this way, before it
    /// writes (as the hardware reads every source of an instruction before it writes). By
    /// default lane by lane; a machine decodes the region once here.
    fn read_lanes(
        &mut self,
        op: &VectorOperand,
        mask: u32,
        out: &mut [Value],
    ) -> Result<(), Self::Error> {
        for (i, v) in out.iter_mut().enumerate().take(32) {
            if mask >> i & 1 != 0 {
                *v = self.read(op, i as u32)?;
            }
        }
        Ok(())
    }

    /// Writes `values[i]` to element `i` of a destination for every lane `i` of `mask` below
    /// `values.len()`, as [`Lanes::write`] does, in lane order. By default lane by lane.
    fn write_lanes(
        &mut self,
        op: &VectorOperand,
        mask: u32,
        values: &[Value],
    ) -> Result<(), Self::Error> {
        for (i, v) in values.iter().enumerate().take(32) {
            if mask >> i & 1 != 0 {
                self.write(op, i as u32, *v)?;
            }
        }
        Ok(())
    }

    /// Element `index` of type `ty` of a raw operand (contiguous from its offset).
    fn read_raw(&mut self, op: &RawOperand, ty: DataType, index: u32)
        -> Result<Value, Self::Error>;

    /// Writes element `index` of type `ty` of a raw operand.
    fn write_raw(
        &mut self,
        op: &RawOperand,
        ty: DataType,
        index: u32,
        value: Value,
    ) -> Result<(), Self::Error>;

    /// A named function of the pseudo-code (`sin`, `min`, `op`): the runtime implements each,
    /// citing the doc line that defines it.
    fn call(&mut self, name: &'static str, args: &[Value]) -> Result<Value, Self::Error>;

    /// An instruction whose doc gives no pseudo-code the generator could read: the machine
    /// runs it by hand (reading its fields by doc name) or returns an error naming it.
    fn prose(&mut self, inst: &Instruction) -> Result<(), Self::Error>;
}
