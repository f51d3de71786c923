//! Errors of decoding and validation. Both say which field, where, and why.

use alloc::boxed::Box;
use core::fmt;

/// Decoding failed: `field` at byte `offset` of the input, for `kind` (read through
/// [`DecodeErrorInfo`]: `err.field`, `err.offset`, `err.kind`).
///
/// Boxed, so that a `Result` of a field or an operand stays two machine words and comes back
/// in registers: decoding valid input never builds one, and the box keeps the hot path free of
/// copies of a 56-byte error. Only a failed decode allocates.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<DecodeErrorInfo>);

/// What a [`DecodeError`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeErrorInfo {
    pub field: &'static str,
    pub offset: usize,
    pub kind: DecodeErrorKind,
}

impl core::ops::Deref for DecodeError {
    type Target = DecodeErrorInfo;
    fn deref(&self) -> &DecodeErrorInfo {
        &self.0
    }
}

impl core::ops::DerefMut for DecodeError {
    fn deref_mut(&mut self) -> &mut DecodeErrorInfo {
        &mut self.0
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The input ended inside the field.
    UnexpectedEnd { needed: usize, available: usize },
    /// A value the spec does not enumerate; `expected` lists what it allows.
    InvalidValue { value: u64, expected: &'static str },
    /// No instruction has this opcode.
    UnknownOpcode(u8),
    /// The opcode is known but no instruction has this sub-opcode.
    UnknownSubOpcode { opcode: u8, sub_opcode: u8 },
    /// The spec directory has a doc for this opcode, but the generator could not read it (a
    /// warning at regen) and left it out of this crate: `doc` names it, `why` says where and
    /// what (`BFN.md:12:3: ...`).
    LeftOut {
        opcode: u8,
        doc: &'static str,
        why: &'static str,
    },
    /// A count field asks for more items than the bytes left can hold: `count` items of at
    /// least `item_bytes` each, `available` bytes left.
    CountTooLarge {
        count: u64,
        item_bytes: usize,
        available: usize,
    },
}

impl DecodeError {
    #[cold]
    #[inline(never)]
    pub fn new(field: &'static str, offset: usize, kind: DecodeErrorKind) -> Self {
        DecodeError(Box::new(DecodeErrorInfo {
            field,
            offset,
            kind,
        }))
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}: ", self.field, self.offset)?;
        match &self.kind {
            DecodeErrorKind::UnexpectedEnd { needed, available } => write!(
                f,
                "input ends: needed {needed} byte(s), {available} available"
            ),
            DecodeErrorKind::InvalidValue { value, expected } => {
                write!(f, "invalid value {value:#x}, expected {expected}")
            }
            DecodeErrorKind::UnknownOpcode(op) => write!(f, "unknown opcode {op:#04x}"),
            DecodeErrorKind::UnknownSubOpcode { opcode, sub_opcode } => write!(
                f,
                "unknown sub-opcode {sub_opcode:#04x} of opcode {opcode:#04x}"
            ),
            DecodeErrorKind::LeftOut { opcode, doc, why } => write!(
                f,
                "opcode {opcode:#04x} is described by {doc}, which this crate left out: {why}"
            ),
            DecodeErrorKind::CountTooLarge {
                count,
                item_bytes,
                available,
            } => write!(
                f,
                "count {count} needs at least {item_bytes} byte(s) per item, {available} byte(s) left"
            ),
        }
    }
}

impl core::error::Error for DecodeError {}

/// An instruction breaks a rule its doc states. `rule` quotes the spec's sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    pub instruction: &'static str,
    pub field: &'static str,
    pub rule: &'static str,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}: {}", self.instruction, self.field, self.rule)
    }
}

impl core::error::Error for ValidationError {}
