//! The memory instructions (legacy gather/scatter, SVM, OWORD, DWORD_ATOMIC, LSC) on
//! [`super::memory`].
//!
//! Placeholder of the machine's branch (the launcher's module replaces it): no message runs yet.

use super::memory::{Memory, MemoryError};
use crate::generated::Instruction;
use crate::runtime::Lanes;

/// Runs `inst` if it is a memory instruction; `None` when it is not one (none yet).
pub fn run<L: Lanes + ?Sized>(
    inst: &Instruction,
    l: &mut L,
    mem: &mut Memory,
) -> Option<Result<(), L::Error>>
where
    L::Error: From<MemoryError>,
{
    let _ = (inst, l, mem);
    None
}
