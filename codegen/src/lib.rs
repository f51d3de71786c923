//! The vISA code generator: docs → schema → Rust crate and reference tables.
//!
//! The pipeline is visible in the modules: [`parse`] reads Markdown into the [`schema`],
//! [`analyze`] checks it and decides layouts (so emitters cannot fail), [`emit`] renders
//! Rust and docs into a map of path → contents. Only `xtask` touches the disk.

pub mod diag;
pub mod schema;
pub mod parse;
