//! The machine: a reference interpreter of vISA kernels (feature `machine`).
//!
//! It runs the threads of a work-group on the CPU: each thread's state (its GRF bytes with the
//! variables placed as the kernel declares them, address and predicate registers), regions and
//! `EvaluateChEn` of the operands chapter, control flow with SIMD divergence, barriers. Lane
//! semantics come from the generated lane functions (`## Semantics` of each doc), reached
//! through the generated `interpret` bridge and [`crate::runtime::Lanes`]; instructions whose docs
//! give prose are run by hand here (control flow) or in [`messages`] (memory), and any other is
//! an error naming it, never a silent no-op.
//!
//! Modules: [`memory`] (surfaces, SLM, stateless addresses), [`messages`] (the memory
//! instructions) and [`launch`] (ndrange, arguments, the thread payload).

pub mod launch;
pub mod memory;
pub mod messages;
