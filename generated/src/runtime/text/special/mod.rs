//! Hand-written formatters for what the docs' `## Text` templates cannot express (note §1,
//! class (b) and (c)). Each works on raw field values, so it serves every generated crate; the
//! text emitter (`codegen/src/emit/rust/text.rs`) names the instructions that use one.

pub mod address_of;
pub mod fence;
pub mod fields;
pub mod load_3d;
pub mod sample_3d;
pub mod sampler_3d;
