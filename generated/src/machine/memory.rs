//! The memory a kernel reaches: surfaces by binding-table index from a host-given table, shared
//! local memory per work-group, stateless 64-bit addresses onto host buffers, atomics.
//!
//! Placeholder of the machine's branch (the launcher's module replaces it): no memory yet.

/// The memory of a launch (none yet).
#[derive(Debug, Default)]
pub struct Memory {}

/// Why a memory access failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryError(pub alloc::string::String);
