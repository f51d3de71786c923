//! Hand-written formatters for what the docs' `## Text` templates cannot express (note §1,
//! class (b) and (c)), each working on raw field values, so it serves every generated crate.
//!
//! Whole instructions ([`fence`], [`info`], [`lifetime`], [`lsc`], [`sampler_3d`], [`svm_block`]) share one
//! interface, [`Formatter`]: the generated code hands the instruction's fields by doc name
//! through [`fields`] and encodes the fields its parser read. The text emitter
//! (`codegen/src/emit/rust/text.rs`) names in one registry the formatter of each instruction.
//! Single operands that a template slot prints in Intel's own way ([`address_of`],
//! [`regionless`]) are called by the generated printer of that slot. What IGC 2.x's text holds
//! and no doc's layout has a field for is taken out of a line before the instruction parser
//! reads it and put back into the printed line ([`modifiers`], [`lsc::split_caching_l2`],
//! [`state_variables`], [`paired_resource`]; `object::RoutineTextOnly` keeps it).

pub mod address_of;
pub mod fence;
pub mod fields;
pub mod info;
pub mod lifetime;
pub mod lsc;
pub mod modifiers;
pub mod paired_resource;
pub mod regionless;
pub mod sampler_3d;
pub mod state_variables;
pub mod svm_block;

use self::fields::{Fields, Parsed};
use crate::runtime::text::instruction::Words;
use crate::runtime::text::{Cursor, Names, ParseError, PrintError};
use crate::runtime::PredicateControl;
use alloc::string::String;

/// A formatter of whole instructions: the one hand-over of generated code to hand-written
/// text.
pub trait Formatter {
    /// Whether a line whose mnemonic is `base` (the first word, before any `.`) is one of
    /// this formatter's.
    fn is_mnemonic(&self, base: &str) -> bool;

    /// Prints the instruction whose fields are `f`; with `lossy`, Intel's line even where
    /// bits have no text (see `Instruction::print_text_lossy`).
    fn print(
        &self,
        f: Fields<'_>,
        names: &dyn Names,
        out: &mut String,
        lossy: bool,
    ) -> Result<(), PrintError>;

    /// Parses a line after its predicate `pred` (`w`: the mnemonic's words, `c`: the rest of
    /// the line) into the fields it sets.
    fn parse(
        &self,
        pred: PredicateControl,
        w: Words<'_>,
        c: Cursor<'_>,
        names: &dyn Names,
    ) -> Result<Parsed, ParseError>;
}
