//! Typed vISA instructions, generated from the vISA opcode docs.
#![no_std]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod runtime;
