//! Work spread over the machine's cores: the pipeline's stages are per doc and per output file,
//! each independent of the others, so they run on one pool of threads (rayon's), started once
//! for the run. Results come back in input order, so the output never depends on how the work
//! was scheduled.
//!
//! Why one pool and not threads per stage: a one-doc regen has about ten short parallel stages.
//! Starting and joining threads for each cost about 5 ms of wall time on the 2-core VM we
//! measure on (31.6 → 26.3 ms per one-doc regen, medians of 20, idle, no real-time priority):
//! each new thread is a new stack and heap, and each start wakes a halted core.

/// Caps the threads of every map (`VISA_THREADS=N`, N ≥ 1): to measure how the pipeline scales,
/// or to leave cores to other work. Output never depends on it.
pub const THREADS_VAR: &str = "VISA_THREADS";

/// How many threads to use: the cores available (or `VISA_THREADS`), at most one per item.
fn threads(items: usize) -> usize {
    cap().min(items).max(1)
}

/// The most threads a map uses: the cores available, or `VISA_THREADS`.
pub fn cap() -> usize {
    static CAP: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::env::var(THREADS_VAR)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n >= 1)
            .unwrap_or(cores)
    })
}

/// `items.iter().map(f).collect()`, on every core. Items are handed out one at a time in order
/// (put the costly ones first), so a slow item does not hold up a fixed share of the rest. A
/// panic in `f` propagates, as in the sequential map.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let n = threads(items.len());
    if n <= 1 {
        return items.iter().map(f).collect();
    }
    pool().install(|| {
        use rayon::prelude::*;
        let f = &f;
        items.par_iter().with_max_len(1).map(f).collect()
    })
}

/// Starts the run's threads now, so that the first parallel stage finds them running: a
/// thread's start (its stack, and waking an idle core) took about 0.8 ms of the first stage's
/// wall time when it waited for it.
pub fn start() {
    if cap() > 1 {
        pool();
    }
}

/// Set when the process ends as soon as the run is over ([`process_ends_after_run`]).
static ENDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says the process exits when the run returns (a command-line tool's `main`): what the run
/// built is then not freed ([`release`]).
pub fn process_ends_after_run() {
    ENDING.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Drops `value`, unless the process ends right after the run ([`process_ends_after_run`]):
/// then its memory goes back with the process's, without walking and freeing every
/// allocation of the trees, maps and strings a regen built (about 1 ms for the parsed docs and
/// the model of the current family, on the critical path).
pub fn release<T>(value: T) {
    if ENDING.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(value);
    }
}

/// The run's threads, started once (`cap()` of them).
fn pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(cap())
            .build()
            .expect("a thread pool")
    })
}

/// `(a(), b())`, the two on different cores when there are two. A panic in either propagates.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if threads(2) <= 1 {
        return (a(), b());
    }
    pool().install(|| rayon::join(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order() {
        let items: Vec<u64> = (0..1000).collect();
        // Uneven work, so threads finish out of order.
        let out = map(&items, |&i| {
            let spin = (i % 7) * 1000;
            (0..spin).fold(i, |a, b| a.wrapping_add(b % 3)) - (0..spin).map(|b| b % 3).sum::<u64>()
        });
        assert_eq!(out, items);
    }

    #[test]
    fn join_returns_both_results_in_order() {
        let (a, b) = join(|| (0..1000u64).sum::<u64>(), || "right".to_string());
        assert_eq!((a, b.as_str()), (499_500, "right"));
    }

    #[test]
    fn empty_and_single_inputs() {
        assert!(map(&[] as &[u8], |&x| x).is_empty());
        assert_eq!(map(&[5u8], |&x| x + 1), vec![6]);
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_panicking_item_panics_the_map() {
        let items: Vec<u32> = (0..64).collect();
        map(&items, |&i| {
            if i == 40 {
                panic!("boom");
            }
            i
        });
    }
}
