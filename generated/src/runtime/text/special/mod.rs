//! Hand-written formatters for what the docs' `## Text` templates cannot express (note §1,
//! class (b) and (c)). Each works on raw field values, so it serves every generated crate; the
//! text emitter (`codegen/src/emit/rust/text.rs`) names the instructions that use one.
//! `fence` takes the scalar fields in format order; `lsc` takes every field by its doc name
//! through [`fields`], operands included.

pub mod address_of;
pub mod fence;
pub mod fields;
pub mod lsc;
