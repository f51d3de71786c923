//! 3D_LOAD: see [`super::sampler_3d`], with the `LOAD` layout.

use super::members::{FieldRef, FieldValue};
use super::sampler_3d::{self, LOAD};
use crate::runtime::text::instruction::Words;
use crate::runtime::text::{Cursor, Names, ParseError, PrintError};
use crate::runtime::PredicateControl;
use alloc::string::String;
use alloc::vec::Vec;

/// Whether `base` is a mnemonic of 3D_LOAD.
pub fn is_mnemonic(base: &str) -> bool {
    sampler_3d::is_mnemonic(LOAD, base)
}

pub fn print(m: &[FieldRef<'_>], names: &dyn Names, out: &mut String) -> Result<(), PrintError> {
    sampler_3d::print(LOAD, m, names, out)
}

pub fn parse(
    pred: PredicateControl,
    w: Words<'_>,
    c: Cursor<'_>,
    names: &dyn Names,
) -> Result<Vec<FieldValue>, ParseError> {
    sampler_3d::parse(LOAD, pred, w, c, names)
}
