//! Work-groups on several host threads, with the bits of a run on one.
//!
//! [`launch`](super::launch) runs the work-groups one after another over one [`Memory`]. Given
//! a [`Parallel`] (`visa run` gives std's scoped threads), it first splits the groups into
//! contiguous ranges in launch order, one per worker, and runs each range on its own copy of
//! the memory, which notes the bytes of every buffer its groups read and write. The run on
//! one thread would give the same memory when no group reads a byte that a group of an earlier
//! range wrote: each range then sees the buffers as the groups before it left them, and the
//! copies' written bytes, laid over each other in range order, are what the groups in order
//! write. When that holds the copies are merged so; otherwise, or when a worker stops on an
//! error, nothing of the attempt is kept and the groups run one after another, which gives
//! the run's result (or its first error) as always. SLM and scratch are the work-group's own
//! (both start zeroed for each group), so only buffers are compared.

use super::check::Access;
use super::memory::Memory;
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

/// Runs tasks at once on the host's threads.
pub trait Parallel: Send + Sync {
    /// How many tasks it runs at once (1: no point in splitting).
    fn workers(&self) -> usize;
    /// Runs every task, at once where it can, and returns when all have ended.
    fn run<'a>(&self, tasks: Vec<Box<dyn FnOnce() + Send + 'a>>);
}

/// The bytes of each buffer a copy of the memory wrote, and those it read before writing them
/// (what it read from the memory it was copied from), a bit per byte.
#[derive(Clone, Debug, Default)]
pub struct Tracking {
    read: Vec<Vec<u64>>,
    written: Vec<Vec<u64>>,
}

impl Tracking {
    /// No byte noted, for `buffers` buffers (each map grows to the last byte accessed).
    pub fn new(buffers: usize) -> Tracking {
        Tracking {
            read: vec![Vec::new(); buffers],
            written: vec![Vec::new(); buffers],
        }
    }

    /// An access of `size` bytes at byte `at` of buffer `buffer`.
    #[inline]
    pub fn note(&mut self, buffer: usize, at: usize, size: usize, access: Access) {
        let (Some(read), Some(written)) = (self.read.get_mut(buffer), self.written.get_mut(buffer))
        else {
            return;
        };
        let end = at.saturating_add(size);
        let words = end.div_ceil(64);
        if read.len() < words {
            read.resize(words, 0);
            written.resize(words, 0);
        }
        let mut byte = at;
        while byte < end {
            let (word, bit) = (byte / 64, byte % 64);
            let n = (end - byte).min(64 - bit);
            let mask = (u64::MAX >> (64 - n)) << bit;
            let (Some(r), Some(w)) = (read.get_mut(word), written.get_mut(word)) else {
                return;
            };
            if access != Access::Write {
                *r |= mask & !*w;
            }
            if access != Access::Read {
                *w |= mask;
            }
            byte += n;
        }
    }

    /// Every byte of buffer `buffer`, of `size` bytes, read and written (an image a typed
    /// message reaches).
    pub fn note_all(&mut self, buffer: usize, size: usize) {
        for maps in [&mut self.read, &mut self.written] {
            if let Some(m) = maps.get_mut(buffer) {
                m.fill(u64::MAX);
                m.resize(size.div_ceil(64), u64::MAX);
            }
        }
    }

    /// Whether `later` read a byte this one wrote (before writing it itself).
    fn feeds(&self, later: &Tracking) -> bool {
        self.written
            .iter()
            .zip(&later.read)
            .any(|(w, r)| w.iter().zip(r).any(|(w, r)| w & r != 0))
    }
}

/// What each worker runs: its range of items over its memory.
pub type Work<'w, T, E> = dyn Fn(&[T], &mut Memory) -> Result<(), E> + Sync + 'w;

/// One worker's range of groups, its memory and how its run ended.
struct Share<'g, T> {
    items: &'g [T],
    memory: Memory,
    ok: bool,
}

/// Runs `work` over `items` split in contiguous ranges on `par`'s workers, each over a copy
/// of `memory`, and merges the copies into `memory` when that gives what `work` over all of
/// `items` in order over `memory` gives (see the module's docs): `true`. `false` leaves
/// `memory` as it was, for the caller to run them in order.
pub fn run<T: Sync, E>(
    par: &dyn Parallel,
    items: &[T],
    memory: &mut Memory,
    work: &Work<'_, T, E>,
) -> bool {
    let n = par.workers().min(items.len());
    if n < 2 || memory.check.is_some() {
        return false;
    }
    let mut shares: Vec<Share<'_, T>> = (0..n)
        .map(|w| {
            let mut m = memory.fork();
            m.track();
            Share {
                items: &items[w * items.len() / n..(w + 1) * items.len() / n],
                memory: m,
                ok: false,
            }
        })
        .collect();
    let tasks = shares
        .iter_mut()
        .map(|s| -> Box<dyn FnOnce() + Send + '_> {
            Box::new(move || s.ok = work(s.items, &mut s.memory).is_ok())
        })
        .collect();
    par.run(tasks);
    if !shares.iter().all(|s| s.ok) || conflict(&shares) {
        return false;
    }
    let base = memory.dropped;
    let mut shares = shares.into_iter();
    let Some(first) = shares.next() else {
        return false;
    };
    let mut merged = first.memory;
    for s in shares {
        merged.lay_over(&s.memory, base);
    }
    merged.untrack();
    *memory = merged;
    true
}

/// Whether a range read a byte an earlier range wrote.
fn conflict<T>(shares: &[Share<'_, T>]) -> bool {
    let maps: Vec<Option<&Tracking>> = shares.iter().map(|s| s.memory.tracking()).collect();
    maps.iter().enumerate().any(|(i, a)| {
        maps[i + 1..].iter().any(|b| match (a, b) {
            (Some(a), Some(b)) => a.feeds(b),
            _ => true,
        })
    })
}

/// The bytes a later range wrote, by their map: `(buffer, byte)` for each.
pub(crate) fn written(t: &Tracking) -> impl Iterator<Item = (usize, usize)> + '_ {
    t.written.iter().enumerate().flat_map(|(b, words)| {
        words.iter().enumerate().flat_map(move |(w, &bits)| {
            let mut m = bits;
            core::iter::from_fn(move || {
                if m == 0 {
                    return None;
                }
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                Some((b, w * 64 + i))
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::memory::{Memory, Space};

    /// Runs the tasks one after another, last first (any order must give the same memory).
    struct InTurn;

    impl Parallel for InTurn {
        fn workers(&self) -> usize {
            2
        }
        fn run<'a>(&self, tasks: Vec<Box<dyn FnOnce() + Send + 'a>>) {
            for t in tasks.into_iter().rev() {
                t();
            }
        }
    }

    fn memory() -> Memory {
        let mut m = Memory::new(32);
        let id = m.add_buffer(vec![0; 16]).unwrap();
        m.bind(0, id);
        m.add_zeroed(64).unwrap();
        m
    }

    /// Item `i` adds 1 to byte `i` and, when `chain`, copies byte `i - 1` to byte `i + 8`.
    fn work(chain: bool) -> impl Fn(&[u32], &mut Memory) -> Result<(), ()> + Sync {
        move |items: &[u32], m: &mut Memory| {
            for &i in items {
                let at = u64::from(i);
                let v = m.read(Space::Surface(0), at, 1).map_err(|_| ())?;
                m.write(Space::Surface(0), at, 1, v + 1).map_err(|_| ())?;
                if chain && i > 0 {
                    let p = m.read(Space::Surface(0), at - 1, 1).map_err(|_| ())?;
                    m.write(Space::Surface(0), at + 8, 1, p).map_err(|_| ())?;
                }
            }
            Ok(())
        }
    }

    #[test]
    fn independent_ranges_merge_into_the_memory_of_one_run() {
        let items = [0u32, 1, 2, 3];
        let (mut one, mut split) = (memory(), memory());
        work(false)(&items, &mut one).unwrap();
        assert!(run(&InTurn, &items, &mut split, &work(false)));
        assert_eq!(split.buffers()[0].bytes, one.buffers()[0].bytes);
        assert!(split.tracking().is_none());
    }

    #[test]
    fn a_range_that_reads_what_an_earlier_one_wrote_is_not_kept() {
        let items = [0u32, 1, 2, 3];
        let mut split = memory();
        // Item 2 reads byte 1, which item 1 of the first range wrote.
        assert!(!run(&InTurn, &items, &mut split, &work(true)));
        assert_eq!(split.buffers()[0].bytes, [0; 16]);
    }

    #[test]
    fn bytes_a_range_wrote_before_reading_are_its_own() {
        let mut t = Tracking::new(1);
        t.note(0, 4, 4, Access::Write);
        t.note(0, 2, 8, Access::Read);
        let mut earlier = Tracking::new(1);
        earlier.note(0, 4, 4, Access::Write);
        assert!(!earlier.feeds(&t));
        earlier.note(0, 9, 1, Access::Write);
        assert!(earlier.feeds(&t));
        assert_eq!(
            written(&t).collect::<Vec<_>>(),
            [(0, 4), (0, 5), (0, 6), (0, 7)]
        );
    }
}
