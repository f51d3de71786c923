//! A global allocator that tracks the peak of live heap bytes, so a target can check that
//! reading an input allocates in proportion to its size (a count field of 2^32 must be an
//! error, not an attempt to allocate).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        System.dealloc(ptr, layout)
    }
}

/// Runs `f` and returns its result with the most heap bytes it held live at once beyond
/// what was live before.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed).saturating_sub(base))
}

/// The most a parse of `len` bytes may hold: every item the reader allocates stands for at
/// least one input byte, so the largest in-memory item per byte (a decoded instruction with
/// its offset), doubled for `Vec` growth, plus the layout check's re-written copy (≤ 2 bytes
/// per byte) and a fixed allowance for paths and messages.
#[allow(dead_code)] // the targets that read files use it
pub fn parse_bound(len: usize) -> usize {
    let per_byte = 2 * std::mem::size_of::<(u32, visa::Instruction)>().max(64) + 4;
    per_byte * len + (64 << 10)
}
