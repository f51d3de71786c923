//! What a kernel may use of the host: each bound is an error that names it, where it was hit
//! and how to raise it, so a hostile or broken kernel cannot hang the host or exhaust its
//! memory. `docs/reliability.md` lists them with the heap bound they add up to.

/// Instructions a whole run may execute by default (every thread of every work-group
/// together): [`super::Kernel::step_limit`], `visa run --max-steps N`.
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000_000;

/// Calls (CALL and FCALL) a thread may have open at once.
pub const MAX_CALL_DEPTH: usize = 1024;

/// Bytes of one routine activation's registers (its declared variables, placed).
pub const MAX_ACTIVATION_BYTES: u32 = 1 << 20;

/// Register bytes one thread may hold at once: its activation and those of the callers an
/// FCALL keeps for their return.
pub const MAX_THREAD_REGISTER_BYTES: usize = 16 << 20;

/// Work-items of an NDRange (the product of `--global`).
pub const MAX_WORK_ITEMS: u64 = 1 << 32;

/// Scratch bytes of one work-group (every thread's private spill area together).
pub const MAX_GROUP_SCRATCH: u64 = 256 << 20;
