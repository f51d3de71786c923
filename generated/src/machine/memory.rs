//! The memory a kernel reaches: surfaces by binding-table index from a host-given table, shared
//! local memory per work-group, stateless 64-bit addresses onto host buffers, atomics.
