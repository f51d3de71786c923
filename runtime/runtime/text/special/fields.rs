//! The one hand-over between generated code and a hand-written formatter: the instruction's
//! fields by their doc name, as raw values ([`Value`]). The generated printer hands a
//! formatter the fields of the instruction's format ([`Fields`]); the formatter's parser
//! returns the fields it read ([`Parsed`]), which the generated code encodes in the order of
//! each format in turn, keeping the first whose bytes decode back to themselves, so the binary
//! rules hold for parsed text too.
//!
//! A counted list (3D_LOAD's and 3D_SAMPLE's parameters) is handed over under the doc name of
//! its count field, as the list ([`Value::Raws`]): its length is the count.

use crate::runtime::text::error::PrintError;
use crate::runtime::{PredicateControl, RawOperand, VectorOperand};
use alloc::borrow::Cow;
use alloc::vec::Vec;

/// One field's value: scalars as their raw bits (a signed field as its two's complement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    Scalar(u64),
    Predicate(PredicateControl),
    Vector(VectorOperand),
    Raw(RawOperand),
    /// A counted list of raw operands, under its count's doc name.
    Raws(Cow<'a, [RawOperand]>),
}

/// Typed look-ups of one field by doc name; `None` when the field is absent or of another kind.
trait Lookup {
    fn value(&self, name: &str) -> Option<&Value<'_>>;

    fn scalar_of(&self, name: &str) -> Option<u64> {
        match self.value(name)? {
            Value::Scalar(v) => Some(*v),
            _ => None,
        }
    }

    fn predicate_of(&self, name: &str) -> Option<PredicateControl> {
        match self.value(name)? {
            Value::Predicate(p) => Some(*p),
            _ => None,
        }
    }

    fn vector_of(&self, name: &str) -> Option<VectorOperand> {
        match self.value(name)? {
            Value::Vector(v) => Some(*v),
            _ => None,
        }
    }

    fn raw_of(&self, name: &str) -> Option<RawOperand> {
        match self.value(name)? {
            Value::Raw(r) => Some(*r),
            _ => None,
        }
    }

    fn raws_of(&self, name: &str) -> Option<&[RawOperand]> {
        match self.value(name)? {
            Value::Raws(r) => Some(r),
            _ => None,
        }
    }
}

fn find<'s, 'a>(fields: &'s [(&'static str, Value<'a>)], name: &str) -> Option<&'s Value<'a>> {
    fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
}

/// The fields of one instruction to print, by doc name, in format order. A field the
/// formatter needs that is missing or of another kind is [`PrintError::NoTextForm`] of
/// `instruction`.
#[derive(Copy, Clone, Debug)]
pub struct Fields<'a> {
    pub instruction: &'static str,
    pub fields: &'a [(&'static str, Value<'a>)],
}

impl Lookup for Fields<'_> {
    fn value(&self, name: &str) -> Option<&Value<'_>> {
        find(self.fields, name)
    }
}

impl<'a> Fields<'a> {
    pub fn new(instruction: &'static str, fields: &'a [(&'static str, Value<'a>)]) -> Self {
        Fields {
            instruction,
            fields,
        }
    }

    fn missing(&self) -> PrintError {
        PrintError::NoTextForm {
            instruction: self.instruction,
            why: "a field the formatter needs is not in this format",
        }
    }

    /// The value of field `name`, of whatever kind.
    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        find(self.fields, name)
    }

    pub fn has(&self, name: &str) -> bool {
        self.value(name).is_some()
    }

    pub fn scalar(&self, name: &str) -> Result<u64, PrintError> {
        self.scalar_of(name).ok_or_else(|| self.missing())
    }

    pub fn predicate(&self, name: &str) -> Result<PredicateControl, PrintError> {
        self.predicate_of(name).ok_or_else(|| self.missing())
    }

    pub fn vector(&self, name: &str) -> Result<VectorOperand, PrintError> {
        self.vector_of(name).ok_or_else(|| self.missing())
    }

    pub fn raw(&self, name: &str) -> Result<RawOperand, PrintError> {
        self.raw_of(name).ok_or_else(|| self.missing())
    }

    pub fn raws(&self, name: &str) -> Result<&[RawOperand], PrintError> {
        self.raws_of(name).ok_or_else(|| self.missing())
    }
}

/// What a formatter's parser read: fields by doc name. The generated code takes from it the
/// fields of each format in turn; a format needing a field that is not here is skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed(pub Vec<(&'static str, Value<'static>)>);

impl Lookup for Parsed {
    fn value(&self, name: &str) -> Option<&Value<'_>> {
        find(&self.0, name)
    }
}

impl Parsed {
    /// Sets field `name`, replacing a value read before.
    pub fn set(&mut self, name: &'static str, v: Value<'static>) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = v,
            None => self.0.push((name, v)),
        }
    }

    /// The value of field `name`, of whatever kind.
    pub fn get(&self, name: &str) -> Option<&Value<'static>> {
        find(&self.0, name)
    }

    pub fn scalar(&self, name: &str) -> Option<u64> {
        self.scalar_of(name)
    }

    pub fn predicate(&self, name: &str) -> Option<PredicateControl> {
        self.predicate_of(name)
    }

    pub fn vector(&self, name: &str) -> Option<VectorOperand> {
        self.vector_of(name)
    }

    pub fn raw(&self, name: &str) -> Option<RawOperand> {
        self.raw_of(name)
    }

    pub fn raws(&self, name: &str) -> Option<&[RawOperand]> {
        self.raws_of(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_ups_are_typed_and_by_doc_name() {
        let list = [RawOperand { id: 52, offset: 0 }];
        let fields = [
            ("Op", Value::Scalar(0x1a)),
            ("Pred", Value::Predicate(PredicateControl::NONE)),
            ("NumParams", Value::Raws(Cow::Borrowed(&list))),
        ];
        let f = Fields::new("3D_LOAD", &fields);
        assert_eq!(f.scalar("Op"), Ok(0x1a));
        assert_eq!(f.raws("NumParams"), Ok(&list[..]));
        assert!(f.has("Pred") && !f.has("Sampler"));
        // Absent, or of another kind: the instruction has no text form for the formatter.
        let none = Err(PrintError::NoTextForm {
            instruction: "3D_LOAD",
            why: "a field the formatter needs is not in this format",
        });
        assert_eq!(f.scalar("Sampler"), none);
        assert_eq!(f.raw("Op").map(|_| ()), none.map(|_: u64| ()));
        let mut p = Parsed::default();
        p.set("Op", Value::Scalar(7));
        p.set("Op", Value::Scalar(0x1a));
        p.set("NumParams", Value::Raws(Cow::Owned(list.to_vec())));
        assert_eq!((p.scalar("Op"), p.raw("Op")), (Some(0x1a), None));
        assert_eq!(p.raws("NumParams"), Some(&list[..]));
        assert_eq!(p.0.len(), 2);
    }
}
