//! `cargo xtask ...`: see the crate docs of the `xtask` library.

// A regen allocates a great deal (token streams, syntax trees, strings on every core); mimalloc
// runs it with about a quarter fewer instructions than the system allocator (callgrind). Its v2
// (feature `v2`): v3 reserves a 1 GiB arena at the first allocation, and a one-doc regen took
// about 3-4 ms longer with it (medians of 30-40 interleaved runs: 23.4 → 19.4 ms, 28.3 → 24.5;
// v3 with `MIMALLOC_ARENA_RESERVE=32MiB` came between, at 20.7).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    if std::env::args_os().nth(1).is_some_and(|c| c == "regen") {
        small_pages_only();
        // The threads start while the arguments are read and the inputs listed.
        codegen::par::start();
    }
    xtask::run_process(std::env::args_os())
}

/// Keeps this process off transparent huge pages (mimalloc asks for them on its arena). A
/// one-doc regen touches about 14 MB of fresh memory; in 2 MB pages that is 18 pages, 36 MB
/// zeroed. Where the machine is a VM that reports free memory to its host in 2 MB blocks
/// (virtio-balloon free page reporting, as Firecracker, WSL2 and cloud VMs do), a 2 MB page
/// freed a few seconds ago has gone back to the host, and its first touch costs about 4.5 ms of
/// the thread's CPU instead of 0.2 (the host backs it again 4 KB at a time): a regen after a
/// pause, the way a user runs it, took 60-110 ms instead of 27. In 4 KB pages it takes about
/// 31 ms whether or not it follows another. Only for regen: the process never spawns others
/// then (the flag is inherited, and `bench` spawns cargo and rustc).
#[cfg(target_os = "linux")]
fn small_pages_only() {
    // SAFETY: prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) only sets a flag of this process; its
    // result is ignored: where it fails, regen runs as before.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            1 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn small_pages_only() {}
