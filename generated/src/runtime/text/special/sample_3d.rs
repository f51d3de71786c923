//! 3D_SAMPLE: see [`super::sampler_3d`], with the `SAMPLE` layout.

use super::members::{FieldRef, FieldValue};
use super::sampler_3d::{self, SAMPLE};
use crate::runtime::text::instruction::Words;
use crate::runtime::text::{Cursor, Names, ParseError, PrintError};
use crate::runtime::PredicateControl;
use alloc::string::String;
use alloc::vec::Vec;

/// Whether `base` is a mnemonic of 3D_SAMPLE.
pub fn is_mnemonic(base: &str) -> bool {
    sampler_3d::is_mnemonic(SAMPLE, base)
}

pub fn print(m: &[FieldRef<'_>], names: &dyn Names, out: &mut String) -> Result<(), PrintError> {
    sampler_3d::print(SAMPLE, m, names, out)
}

pub fn parse(
    pred: PredicateControl,
    w: Words<'_>,
    c: Cursor<'_>,
    names: &dyn Names,
) -> Result<Vec<FieldValue>, ParseError> {
    sampler_3d::parse(SAMPLE, pred, w, c, names)
}
