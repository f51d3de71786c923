//! Hand-written formatters for what the docs' `## Text` templates cannot express (note §1,
//! class (b) and (c)). Each works on raw field values, so it serves every generated crate; the
//! text emitter (`codegen/src/emit/rust/text.rs`) names the instructions that use one.
//! `fence` takes the scalar fields in format order; `lsc` takes every field by its doc name
//! through [`fields`], operands included, its parser trying each format; `load_3d` and
//! `sample_3d` take every member in format order through [`members`], their counted
//! parameter list as one member.

pub mod address_of;
pub mod fence;
pub mod fields;
pub mod info;
pub mod load_3d;
pub mod lsc;
pub mod members;
pub mod regionless;
pub mod sample_3d;
pub mod sampler_3d;
