//! Damaged real object files: every truncation of every `../shared/real-kernels/dg2` file is an
//! error that says where, and a count field of 2^32 - 1 in a small file is an error found
//! before anything is allocated for it.

#![cfg(not(family_absent))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use visa::object::File;

mod support;
use support::shared;

/// Counts the heap bytes each thread holds (tests run on several threads at once).
struct PerThread;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for PerThread {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let _ = LIVE.try_with(|l| {
                l.set(l.get() + layout.size());
                let _ = PEAK.try_with(|p| p.set(p.get().max(l.get())));
            });
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = LIVE.try_with(|l| l.set(l.get().saturating_sub(layout.size())));
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: PerThread = PerThread;

/// The most heap bytes `f` holds at once, beyond what the thread held before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, PEAK.with(Cell::get).saturating_sub(base))
}

fn real_files(shared: &Path) -> Vec<(String, Vec<u8>)> {
    let paths = support::dg2_isa_files(shared);
    paths
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect()
}

/// Files up to this size are cut at every length; larger ones at a dense sample (see
/// [`sampled`]). Cutting a file inside a function re-reads and re-decodes every routine before
/// it, so all prefixes of the five dg2 files above 16 KiB (217,098 of the 529,260 bytes) cost
/// quadratic time: all 529,260 prefixes took four minutes unoptimised on a shared 2-core
/// machine; this sample (391,726 prefixes) takes 1.5 minutes.
const EVERY_PREFIX_UP_TO: usize = 16 << 10;

/// For a large file: every length up to the kernel's first instruction and within 64 bytes of
/// where an object, a GEN binary or the kernel's inputs start or end, and every 13th length
/// elsewhere (13 is prime, so the cuts fall at every position of the records and
/// instructions in turn).
fn sampled(f: &File, len: usize, n: usize) -> bool {
    let mut marks = vec![0, len];
    for (info, k) in f.header.kernel_info.iter().zip(&f.kernels) {
        let start = info.offset as usize;
        marks.extend([
            start,
            start + info.size as usize,
            info.input_offset as usize,
        ]);
        marks.push(start + k.data.entry as usize);
        for g in &info.gen_binary_info {
            marks.extend([
                g.binary_offset as usize,
                (g.binary_offset + g.binary_size) as usize,
            ]);
        }
    }
    for (info, g) in f.header.function_info.iter().zip(&f.functions) {
        let start = info.offset as usize;
        marks.extend([
            start,
            start + info.size as usize,
            start + g.data.entry as usize,
        ]);
    }
    let first_instruction = f
        .header
        .kernel_info
        .first()
        .zip(f.kernels.first())
        .map_or(len, |(i, k)| i.offset as usize + k.data.entry as usize);
    n <= first_instruction || n.is_multiple_of(13) || marks.iter().any(|&m| m.abs_diff(n) < 64)
}

#[test]
fn every_truncation_of_every_real_file_is_an_error_with_its_place() {
    let Some(shared) = shared() else { return };
    let files = real_files(&shared);
    assert_eq!(files.len(), 58);
    let (mut parses, mut all) = (0usize, 0usize);
    let mut bad = Vec::new();
    for (name, bytes) in &files {
        let whole = File::parse(bytes).expect("every dg2 file reads");
        let every = bytes.len() <= EVERY_PREFIX_UP_TO;
        all += usize::from(every);
        for n in (0..bytes.len()).filter(|&n| every || sampled(&whole, bytes.len(), n)) {
            parses += 1;
            match File::parse(&bytes[..n]) {
                Ok(_) => bad.push(format!("{name}: the first {n} bytes read as a whole file")),
                Err(e) if e.offset > n || e.path.is_empty() || e.message.is_empty() => bad.push(
                    format!("{name}: prefix of {n} bytes: error without its place: {e:?}"),
                ),
                Err(_) => {}
            }
            if bad.len() > 20 {
                break;
            }
        }
    }
    println!(
        "{parses} truncations of {} files ({all} cut at every length): each an error with its offset and path",
        files.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert_eq!(all, 53, "files up to 16 KiB");
}

/// Byte offset of each count field of kernel 0 of a real file, from its layout.
fn count_fields(f: &File) -> Vec<(&'static str, usize, usize)> {
    let info = &f.header.kernel_info[0];
    let k = &f.kernels[0].data;
    let start = info.offset as usize;
    let pool: usize = k.string_pool.iter().map(|s| s.len() + 1).sum();
    vec![
        // (field, offset, width in bytes)
        ("string_count", start, 4),
        ("variable_count", start + 4 + pool + 4, 4),
        ("num_inputs", info.input_offset as usize, 4),
        // num_kernels is a UW: 0xffff kernel_info records of at least 19 bytes each.
        ("num_kernels", 6, 2),
    ]
}

#[test]
fn a_huge_count_in_a_small_file_errs_without_allocating_for_it() {
    let Some(shared) = shared() else { return };
    let files = real_files(&shared);
    let mut checked = 0;
    for (name, bytes) in &files {
        let file = File::parse(bytes).expect("every dg2 file reads");
        for (field, at, width) in count_fields(&file) {
            let mut huge = bytes.clone();
            huge[at..at + width].fill(0xff);
            let (result, peak) = peak_of(|| File::parse(&huge));
            let e = match result {
                Ok(_) => panic!("{name}: {field} = all ones still reads"),
                Err(e) => e,
            };
            assert!(
                e.offset <= huge.len() && !e.path.is_empty(),
                "{name}: {field}: {e}"
            );
            assert!(
                e.message.contains("needs at least") || e.message.contains("the file ends"),
                "{name}: {field}: {e}"
            );
            // Records read before the count fails are kept; 2^32 of anything is not.
            assert!(
                peak <= 64 * bytes.len() + (1 << 16),
                "{name}: {field} = all ones: {peak} heap bytes held for a {}-byte file ({e})",
                bytes.len()
            );
            checked += 1;
        }
    }
    // The first count read is string_count: its error is at the field right after it.
    let (name, bytes) = &files[0];
    let file = File::parse(bytes).unwrap();
    let start = file.header.kernel_info[0].offset as usize;
    let mut huge = bytes.clone();
    huge[start..start + 4].fill(0xff);
    let e = File::parse(&huge).unwrap_err();
    assert_eq!(
        (e.offset, e.path.as_str()),
        (start + 4, "kernel[0].string_pool"),
        "{name}: {e}"
    );
    assert!(e.message.contains("count 4294967295"), "{e}");
    println!(
        "{checked} huge counts in {} files: each an error",
        files.len()
    );
    assert_eq!(checked, 4 * 58);
}
