//! The generic hand-over between generated code and a formatter that needs every field of an
//! instruction, operands included (LSC_UNTYPED): fields by their doc name, as raw values. The
//! generated printer lists the fields of the instruction's format; the formatter's parser
//! returns the fields it read, and the generated code encodes them in the order of the first
//! format they fill and decodes the bytes, so the binary rules hold for parsed text too.

use crate::runtime::text::error::PrintError;
use crate::runtime::{PredicateControl, RawOperand, VectorOperand};
use alloc::vec::Vec;

/// One field's value: scalars as their raw bits (a signed field as its two's complement).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Scalar(u64),
    Predicate(PredicateControl),
    Vector(VectorOperand),
    Raw(RawOperand),
}

/// The fields of one instruction, by doc name, in format order.
#[derive(Copy, Clone, Debug)]
pub struct Fields<'a>(pub &'a [(&'static str, Value)]);

fn missing(name: &'static str) -> PrintError {
    PrintError::NoTextForm {
        instruction: name,
        why: "a field the formatter needs is not in this format",
    }
}

impl Fields<'_> {
    pub fn get(&self, name: &str) -> Option<Value> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn scalar(&self, name: &'static str) -> Result<u64, PrintError> {
        match self.get(name) {
            Some(Value::Scalar(v)) => Ok(v),
            _ => Err(missing(name)),
        }
    }

    pub fn predicate(&self, name: &'static str) -> Result<PredicateControl, PrintError> {
        match self.get(name) {
            Some(Value::Predicate(p)) => Ok(p),
            _ => Err(missing(name)),
        }
    }

    pub fn vector(&self, name: &'static str) -> Result<VectorOperand, PrintError> {
        match self.get(name) {
            Some(Value::Vector(v)) => Ok(v),
            _ => Err(missing(name)),
        }
    }

    pub fn raw(&self, name: &'static str) -> Result<RawOperand, PrintError> {
        match self.get(name) {
            Some(Value::Raw(r)) => Ok(r),
            _ => Err(missing(name)),
        }
    }
}

/// What a formatter's parser read: fields by doc name. The generated code takes from it the
/// fields of each format in turn; a format needing a field that is not here is skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed(pub Vec<(&'static str, Value)>);

impl Parsed {
    pub fn set(&mut self, name: &'static str, v: Value) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = v,
            None => self.0.push((name, v)),
        }
    }

    pub fn scalar(&self, name: &str) -> Option<u64> {
        match self.get(name)? {
            Value::Scalar(v) => Some(v),
            _ => None,
        }
    }

    pub fn predicate(&self, name: &str) -> Option<PredicateControl> {
        match self.get(name)? {
            Value::Predicate(p) => Some(p),
            _ => None,
        }
    }

    pub fn vector(&self, name: &str) -> Option<VectorOperand> {
        match self.get(name)? {
            Value::Vector(v) => Some(v),
            _ => None,
        }
    }

    pub fn raw(&self, name: &str) -> Option<RawOperand> {
        match self.get(name)? {
            Value::Raw(r) => Some(r),
            _ => None,
        }
    }

    fn get(&self, name: &str) -> Option<Value> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}
