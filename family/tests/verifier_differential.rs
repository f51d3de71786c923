//! Differential test of `File::validate` (what `visa check` runs) against Intel's reader and
//! verifier (GenX_IR 12504.6, as `intel-isa read` runs it): single-byte changes to the
//! instructions of files Intel's compiler wrote, asked of both, counted in a confusion table
//! with every disagreement named by its class.
//!
//! Intel's verdict means something only if Intel read the bytes as written, and its reader
//! often does not (an instruction vanishes from its print, an id becomes another). So every
//! case where its reader does not crash, whatever the verdicts, is also asked whether Intel
//! read it as written, with Intel's tools alone: its print of the file, assembled back by
//! Intel (`GenX_IR TEXT -binary -noverifyCISA`, `intel-isa asm` without the verifier), against
//! the file's instruction streams (kernels and functions). Equal: Intel *reads as written*. Equal to the
//! unchanged file's: Intel *ignores bits*; equal but for some changed bits given back as they
//! were: Intel read it *partly as written* (bits it ignores, or a misread that fits); else (or no print, or a print Intel cannot assemble): Intel
//! *misreads*, it verified another file. The round trip of every unchanged file is made
//! first: where it is not exact (a few bytes of instructions whose text cannot show all their
//! bits, SVM_BLOCK_ST's `Properties` 0x80 say), the cases on those bytes are *unknown*, and so
//! are all cases of a file without one. The report gives the confusion table of each reading, the raw
//! figure (every case where Intel's reader does not crash) beside the figure on the cases it
//! reads as written, and each disagreement class split by reading.
//!
//! - CI runs a fixed sample (`VISA_DIFF_CASES`, default 300 cases, seed 1) of the dg2 files;
//! - `tests/differential/run.sh` runs the large one (thousands of cases over dg2 and our
//!   OpenCL kernels compiled for tgllp, acm-g10 and pvc) and prints the table of
//!   `docs/conformance.md`.
//!
//! Environment: `VISA_DIFF_CASES` (cases), `VISA_DIFF_SEED`, `VISA_DIFF_JOBS` (parallel
//! GenX_IR processes, default 2), `VISA_DIFF_DIRS` (more `DIR=PLATFORM` pairs, `:`-separated,
//! PLATFORM as GenX_IR names it: `TGLLP`, `DG2`, `PVC`), `VISA_DIFF_MIN` (the agreement, in
//! percent of the cases where Intel's reader does not crash, below which the test fails;
//! default 99.1, the CI sample's floor), `VISA_DIFF_MIN_WRITTEN` (the same on the cases Intel
//! reads as written; default 100), `VISA_DIFF_LOG` (a file: every case, one line each, with
//! Intel's reading). Intel's tools absent: the test says so and passes, unless `CI` is set.

#![cfg(not(family_absent))]

#[path = "support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use visa::object::File;
use visa::Platform;

/// Intel's verdict on a file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Intel {
    Accepts,
    /// The first line of its error report, digits and names masked (the class).
    Rejects(String),
    Crashes,
}

/// One source file of cases: its bytes, GenX_IR's platform name, our platform, where each
/// instruction lies in the file.
struct Source {
    name: String,
    bytes: Vec<u8>,
    intel_platform: String,
    platform: Platform,
    /// (first byte in the file, length) of every decoded instruction.
    instructions: Vec<(usize, usize)>,
    /// Whether Intel's own round trip (print, then assemble) of the unmutated file is exact
    /// on its routines' instruction streams: their ranges, or why not.
    round_trip: Result<Trip, String>,
}

/// Our platform for a GenX_IR platform name, of those the differential run covers.
fn our_platform(intel: &str) -> Option<Platform> {
    match intel.to_ascii_uppercase().as_str() {
        "TGLLP" | "DG2" | "XEHP_SDV" | "MTL" | "PVC" | "PVCXT" | "ICLLP" => {
            Platform::from_name(intel)
        }
        _ => None,
    }
}

fn load(path: &Path, intel_platform: &str) -> Option<Source> {
    let bytes = std::fs::read(path).ok()?;
    let file = File::parse(&bytes).ok()?;
    let platform = our_platform(intel_platform)?;
    let mut instructions = Vec::new();
    let routines = file
        .header
        .kernel_info
        .iter()
        .map(|k| k.offset)
        .zip(
            file.kernels
                .iter()
                .map(|k| (k.data.entry, &k.data.instructions)),
        )
        .chain(
            file.header.function_info.iter().map(|f| f.offset).zip(
                file.functions
                    .iter()
                    .map(|f| (f.data.entry, &f.data.instructions)),
            ),
        );
    for (start, (entry, stream)) in routines {
        let base = start as usize + entry as usize;
        let mut buf = Vec::new();
        for (offset, inst) in &stream.instructions {
            buf.clear();
            inst.encode(&mut buf);
            instructions.push((base + *offset as usize, buf.len()));
        }
    }
    Some(Source {
        name: path.file_name()?.to_string_lossy().into_owned(),
        bytes,
        intel_platform: intel_platform.to_string(),
        platform,
        instructions,
        round_trip: Err("not run".into()),
    })
}

/// Intel's fixed GenX_IR (`intel-isa fixed`), or `None` with the reason.
fn genx_ir(shared: &Path) -> Option<PathBuf> {
    let script = shared.join("tools/intel-isa/intel-isa");
    let out = Command::new(&script).arg("fixed").output().ok()?;
    if !out.status.success() {
        return None;
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    dir.join("GenX_IR").is_file().then_some(dir)
}

/// Runs `GenX_IR ARGS` in `work`, its output in `work/log`; `None` when it crashes (a
/// signal) or hangs (some inputs send Intel's reader into an endless loop: after 10 s it
/// counts as a crash).
fn genx_ir_run(fixed: &Path, work: &Path, args: &[&str]) -> Option<std::process::ExitStatus> {
    let log = std::fs::File::create(work.join("log")).expect("log file");
    let mut child = Command::new(fixed.join("GenX_IR"))
        .current_dir(work)
        .env("LD_LIBRARY_PATH", fixed)
        .args(args)
        .stdout(log.try_clone().expect("log file"))
        .stderr(log)
        .spawn()
        .expect("GenX_IR runs");
    let started = std::time::Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break Some(status);
        }
        if started.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    use std::os::unix::process::ExitStatusExt;
    status.filter(|s| s.signal().is_none())
}

/// Runs Intel's reader and verifier on `bytes` in `work` as `intel-isa read` does: its verdict,
/// and its print of the file when it wrote one: the kernel's `.visaasm` followed by those of
/// the functions, which it prints apart (`<kernel>_fN.visaasm`, each without its `.version`
/// line, which the assembler takes only at the top), in `work/print.visaasm`.
fn intel(fixed: &Path, work: &Path, bytes: &[u8], platform: &str) -> (Intel, Option<PathBuf>) {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work).expect("work dir");
    std::fs::write(work.join("in.isa"), bytes).expect("write case");
    let args = [
        "in.isa",
        "-platform",
        platform,
        "-dumpcommonisa",
        "-dumpToCurrentDir",
    ];
    let Some(status) = genx_ir_run(fixed, work, &args) else {
        return (Intel::Crashes, None);
    };
    let mut report = String::new();
    let (mut kernel, mut functions) = (None, BTreeMap::new());
    if let Ok(dir) = std::fs::read_dir(work) {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".errors.txt") {
                report.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
            } else if let Some(stem) = name.strip_suffix(".visaasm") {
                let function = stem
                    .rsplit_once("_f")
                    .and_then(|(_, n)| n.parse::<usize>().ok());
                match function {
                    Some(n) => {
                        functions.insert(n, e.path());
                    }
                    None => kernel = Some(e.path()),
                }
            }
        }
    }
    let print = kernel.and_then(|k| {
        let mut text = std::fs::read_to_string(k).ok()?;
        for f in functions.values() {
            let f = std::fs::read_to_string(f).ok()?;
            text.extend(
                f.lines()
                    .filter(|l| !l.starts_with(".version"))
                    .map(|l| format!("{l}\n")),
            );
        }
        let path = work.join("print.visaasm");
        std::fs::write(&path, text).ok()?;
        Some(path)
    });
    if status.success() && report.is_empty() {
        return (Intel::Accepts, print);
    }
    if report.is_empty() {
        report = std::fs::read_to_string(work.join("log")).unwrap_or_default();
    }
    (Intel::Rejects(class_of_report(&report)), print)
}

/// Intel's print assembled back by Intel: `GenX_IR TEXT -platform P -binary` as `intel-isa
/// asm` runs it, with `-noverifyCISA` so that the print of a file Intel's verifier rejects
/// assembles too (the question is what Intel read, not whether it is valid). The bytes of
/// the `.isa` it writes, or `None` when it refuses the text, crashes or hangs.
fn intel_asm(fixed: &Path, work: &Path, print: &Path, platform: &str) -> Option<Vec<u8>> {
    let dir = work.join("asm");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("asm work dir");
    // GenX_IR overwrites its input with its own print: it reads a copy.
    std::fs::copy(print, dir.join("k.visaasm")).ok()?;
    let args = [
        "k.visaasm",
        "-platform",
        platform,
        "-binary",
        "-noverifyCISA",
    ];
    let status = genx_ir_run(fixed, &dir, &args)?;
    let bytes = std::fs::read(dir.join("k.isa")).ok()?;
    (status.success() && !bytes.is_empty()).then_some(bytes)
}

/// Where the instruction streams of a file's routines lie (first byte, byte after), kernels
/// then functions, read from its layout alone (each object's offset and size, its `entry`):
/// the instructions are the last item of a kernel or function object.
fn routine_streams(bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    let file = File::parse(bytes).ok()?;
    let h = &file.header;
    let kernels = h
        .kernel_info
        .iter()
        .map(|i| (i.offset, i.size))
        .zip(file.kernels.iter().map(|k| k.data.entry));
    let functions = h
        .function_info
        .iter()
        .map(|i| (i.offset, i.size))
        .zip(file.functions.iter().map(|f| f.data.entry));
    let ranges: Vec<(usize, usize)> = kernels
        .chain(functions)
        .map(|((offset, size), entry)| {
            (
                offset as usize + entry as usize,
                offset as usize + size as usize,
            )
        })
        .collect();
    ranges
        .iter()
        .all(|&(a, b)| a <= b && b <= bytes.len())
        .then_some(ranges)
}

/// Whether Intel read a file as written: its print, assembled back by Intel, against the
/// file's instruction streams (every kernel's and function's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reading {
    /// The round trip gives the file's streams: Intel verified the bytes as written.
    AsWritten,
    /// The round trip gives the unmutated file's streams: Intel read the instruction, and
    /// the changed bits are bits its reader ignores.
    IgnoresBits,
    /// The round trip differs from the file only in the changed byte, and there each
    /// changed bit is either as written or as it was before the change (and at least one of
    /// each): Intel read the byte partly as written. Bits alone cannot tell why: it holds
    /// bits Intel ignores beside bits it reads (`Channels` 0x01 changed to 0xf9 prints `.RA`
    /// and assembles back as 0x09) and misreads that happen to fit (a predicate id 0xa3 read
    /// as `P1`), so it is counted apart from both.
    PartlyAsWritten,
    /// The round trip gives other streams, or the print does not assemble, or there is no
    /// print: Intel verified another file than the bytes.
    Misreads,
    /// Not decided: the unmutated file has no round trip (Intel does not accept it, or its
    /// print does not assemble to routines of the same lengths), or the changed byte is one
    /// where that round trip is not exact, or our reader cannot lay out Intel's output.
    Unknown,
}

impl Reading {
    const ALL: [Reading; 5] = [
        Reading::AsWritten,
        Reading::IgnoresBits,
        Reading::PartlyAsWritten,
        Reading::Misreads,
        Reading::Unknown,
    ];
    fn name(self) -> &'static str {
        match self {
            Reading::AsWritten => "reads as written",
            Reading::IgnoresBits => "ignores bits",
            Reading::PartlyAsWritten => "partly as written",
            Reading::Misreads => "misreads",
            Reading::Unknown => "unknown",
        }
    }
}

/// Intel's round trip of an unmutated file: where its routines' instruction streams lie,
/// and what Intel's print of them assembles back to (the streams one after the other), equal
/// to them but for the bytes of instructions whose text cannot show all their bits (Intel's
/// print of SVM_BLOCK_ST's `Properties` 0x80, say).
struct Trip {
    ranges: Vec<(usize, usize)>,
    back: Vec<u8>,
}

impl Trip {
    /// The streams of `bytes` at the file's ranges, one after the other.
    fn streams(&self, bytes: &[u8]) -> Vec<u8> {
        self.ranges
            .iter()
            .flat_map(|&(a, b)| bytes[a..b].iter().copied())
            .collect()
    }

    /// The place of file byte `byte` in the streams, one after the other.
    fn place(&self, byte: usize) -> Option<usize> {
        let mut before = 0;
        for &(a, b) in &self.ranges {
            if (a..b).contains(&byte) {
                return Some(before + byte - a);
            }
            before += b - a;
        }
        None
    }
}

/// Whether Intel's reader read `bytes` (the source `src` with one byte changed) as written,
/// given its print (None: it wrote none).
fn reading(
    fixed: &Path,
    work: &Path,
    src: &Source,
    bytes: &[u8],
    byte: usize,
    print: Option<&Path>,
) -> Reading {
    let Ok(trip) = &src.round_trip else {
        return Reading::Unknown;
    };
    let base = trip.streams(&src.bytes);
    // A byte where Intel's round trip of the unmutated file is not exact tells nothing.
    let Some(at) = trip.place(byte).filter(|&at| base[at] == trip.back[at]) else {
        return Reading::Unknown;
    };
    let Some(print) = print else {
        return Reading::Misreads;
    };
    let Some(back) = intel_asm(fixed, work, print, &src.intel_platform) else {
        return Reading::Misreads;
    };
    let Some(back_ranges) = routine_streams(&back) else {
        return Reading::Unknown;
    };
    let back: Vec<u8> = back_ranges
        .iter()
        .flat_map(|&(a, b)| back[a..b].iter().copied())
        .collect();
    // What the round trip gives when Intel reads the bytes as written: the file's streams,
    // but where the unmutated file's round trip is not exact, what that gave.
    let written: Vec<u8> = trip
        .streams(bytes)
        .iter()
        .zip(base.iter().zip(&trip.back))
        .map(|(&w, (&b, &t))| if b == t { w } else { t })
        .collect();
    if back == written {
        return Reading::AsWritten;
    }
    if back == trip.back {
        return Reading::IgnoresBits;
    }
    let (old, new) = (src.bytes[byte], bytes[byte]);
    let only_there = back.len() == written.len()
        && back
            .iter()
            .zip(&written)
            .enumerate()
            .all(|(i, (x, y))| x == y || i == at);
    if only_there && (back[at] ^ old) & !(old ^ new) == 0 {
        Reading::PartlyAsWritten
    } else {
        Reading::Misreads
    }
}

/// Intel's round trip of the unmutated file (its print, assembled back by Intel): the file
/// must verify, and the round trip must give streams of the same lengths, routine by routine
/// (at most a few bytes differing: instructions whose text cannot show all their bits), or
/// why not.
fn base_round_trip(fixed: &Path, work: &Path, src: &Source) -> Result<Trip, String> {
    let ranges = routine_streams(&src.bytes).ok_or("our reader cannot lay it out")?;
    let (verdict, print) = intel(fixed, work, &src.bytes, &src.intel_platform);
    if verdict != Intel::Accepts {
        return Err(format!("Intel's reader does not accept it: {verdict:?}"));
    }
    let print = print.ok_or("Intel's reader writes no print")?;
    let back = intel_asm(fixed, work, &print, &src.intel_platform)
        .ok_or("Intel's print does not assemble")?;
    let back_ranges = routine_streams(&back).ok_or("our reader cannot lay out Intel's assembly")?;
    let lengths = |r: &[(usize, usize)]| r.iter().map(|(a, b)| b - a).collect::<Vec<_>>();
    if lengths(&ranges) != lengths(&back_ranges) {
        return Err(format!(
            "Intel's print assembles to routines of other lengths ({:?} bytes for {:?})",
            lengths(&back_ranges),
            lengths(&ranges)
        ));
    }
    let back = back_ranges
        .iter()
        .flat_map(|&(a, b)| back[a..b].iter().copied())
        .collect();
    Ok(Trip { ranges, back })
}

/// The class of Intel's report: its first message line, numbers and names masked.
fn class_of_report(report: &str) -> String {
    // Two layouts: "Error Message: ..." lines, and a heading ("Instruction / Operand /
    // Region Errors:") over "in instruction ..." and " * message" lines.
    let line = report
        .lines()
        .find_map(|l| l.split_once("Error Message:").map(|(_, m)| m.trim()))
        .or_else(|| {
            report
                .lines()
                .find_map(|l| l.trim().strip_prefix("* ").map(str::trim))
        })
        .or_else(|| report.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("(no message)");
    // Drop the instruction text Intel quotes after the message.
    mask(line.split("  ").next().unwrap_or(line))
}

/// `line` with every run of digits (and hex digits after `0x`) as `N`, and the value of
/// "invalid value 1e" as `X`, at most 120 characters.
fn mask(line: &str) -> String {
    let mut line = line.replace("0x", "");
    if let Some(at) = line.find("invalid value ") {
        let start = at + "invalid value ".len();
        let end = line[start..].find(',').map_or(line.len(), |e| start + e);
        line.replace_range(start..end, "X");
    }
    let mut out = String::new();
    let mut last_digit = false;
    for c in line.chars().take(120) {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            last_digit = false;
            out.push(c);
        }
    }
    out
}

/// Our verdict: `None` accepts, else the class (the first error's rule); and the class of
/// the first warning (what the docs forbid and Intel's verifier accepts), which does not make
/// us reject the file.
fn ours(bytes: &[u8], platform: Platform) -> (Option<String>, Option<String>) {
    match File::parse(bytes) {
        Err(e) => (
            Some(format!(
                "file does not read: {}",
                e.path.split('[').next().unwrap_or("")
            )),
            None,
        ),
        Ok(f) => {
            let failures = f.validate(platform);
            let error = failures.iter().find(|e| e.is_error()).map(class_of);
            let warning = failures.iter().find(|e| !e.is_error()).map(class_of);
            (error, warning)
        }
    }
}

/// The class of one of our failures: its rule, with the mnemonic for the docs' own rules.
fn class_of(e: &visa::object::Failure) -> String {
    if e.instruction.is_none() {
        // The decode error names the field and what it expected.
        let rule = e.rule.split(" at instruction offset").next().unwrap_or("");
        let why = match rule.split_once(": ") {
            Some((_, why)) => why,
            None => rule,
        };
        format!("does not decode: {}", mask(why))
    } else {
        let rule: String = e
            .rule
            .split(" (")
            .next()
            .unwrap_or("")
            .chars()
            .take(90)
            .collect();
        // The mnemonic, after a predicate (`(P1) cmp.lt ...`).
        let text = e
            .text
            .strip_prefix('(')
            .and_then(|t| t.split_once(") "))
            .map_or(e.text.as_str(), |t| t.1);
        let mnemonic = text.split([' ', '.']).next().unwrap_or("");
        let what = if e.source == "instruction doc" || rule.contains("type maps") {
            format!(" [{mnemonic}]")
        } else {
            String::new()
        };
        format!("{}: {rule}{what}", e.source)
    }
}

/// xorshift64*: a seeded, dependency-free generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A disagreement class: its cases, an example, and its cases by Intel's reading
/// (indexed as [`Reading::ALL`]).
type Class = (usize, String, [usize; 5]);

#[derive(Default)]
struct Table {
    cases: usize,
    both_accept: usize,
    both_reject: usize,
    intel_crashes: usize,
    we_reject_intel_accepts: BTreeMap<String, Class>,
    /// The confusion table of each reading (cases where Intel's reader does not crash):
    /// both accept, Intel accepts and we reject, Intel rejects and we accept, both reject.
    by_reading: BTreeMap<Reading, [usize; 4]>,
    /// Every class of ours, with Intel's verdicts on its cases: accepts, rejects, crashes.
    ours_by_class: BTreeMap<String, [usize; 3]>,
    /// Every class of our warnings (in files without errors), with Intel's verdicts.
    warnings_by_class: BTreeMap<String, [usize; 3]>,
    /// `VISA_DIFF_LOG`: every case, one line each (file, byte, Intel's verdict, ours).
    log: Option<std::fs::File>,
    intel_rejects_we_accept: BTreeMap<String, Class>,
}

#[test]
fn mutated_instructions_agree_with_intels_verifier() {
    let Some(shared) = support::shared() else {
        return;
    };
    let Some(fixed) = genx_ir(&shared) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Intel's tools (intel-isa, GenX_IR) are missing and CI is set"
        );
        println!(
            "skipped: Intel's tools are missing (apt-get install -y libigc-tools intel-opencl-icd)"
        );
        return;
    };
    let mut sources: Vec<Source> = support::dg2_isa_files(&shared)
        .iter()
        .filter_map(|p| load(p, "DG2"))
        .collect();
    if let Ok(dirs) = std::env::var("VISA_DIFF_DIRS") {
        for pair in dirs.split(':').filter(|s| !s.is_empty()) {
            let (dir, platform) = pair.rsplit_once('=').expect("DIR=PLATFORM");
            let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
                .expect("readable dir")
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "isa"))
                .collect();
            paths.sort();
            sources.extend(paths.iter().filter_map(|p| load(p, platform)));
        }
    }
    sources.retain(|s| !s.instructions.is_empty());
    assert!(!sources.is_empty());
    let cases = env_usize("VISA_DIFF_CASES", 300);
    let jobs = env_usize("VISA_DIFF_JOBS", 2).max(1);
    let seed = env_usize("VISA_DIFF_SEED", 1) as u64;
    // Every case is fixed by the seed before any runs, so the result does not depend on jobs.
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let plan: Vec<(usize, usize, u8)> = (0..cases)
        .map(|_| {
            let s = rng.below(sources.len());
            let (at, len) = sources[s].instructions[rng.below(sources[s].instructions.len())];
            let byte = at + rng.below(len);
            let old = sources[s].bytes[byte];
            let new = old ^ (1 + rng.below(255)) as u8;
            (s, byte, new)
        })
        .collect();
    let base = std::env::temp_dir().join(format!("visa-diff-{}", std::process::id()));
    // Intel's round trip of every unmutated file the cases change, before any case runs.
    let mut used: Vec<usize> = plan.iter().map(|p| p.0).collect();
    used.sort_unstable();
    used.dedup();
    let trips = parallel(jobs, &used, &base, |work, &s| {
        base_round_trip(&fixed, work, &sources[s])
    });
    for (&s, trip) in used.iter().zip(trips) {
        sources[s].round_trip = trip;
    }
    let log = std::env::var_os("VISA_DIFF_LOG")
        .map(|p| std::fs::File::create(p).expect("VISA_DIFF_LOG is writable"));
    let table = Mutex::new(Table {
        log,
        ..Table::default()
    });
    parallel(jobs, &plan, &base, |work, &(s, byte, new)| {
        let src = &sources[s];
        let mut bytes = src.bytes.clone();
        bytes[byte] = new;
        let (we, warning) = ours(&bytes, src.platform);
        let (they, print) = intel(&fixed, work, &bytes, &src.intel_platform);
        let read = (they != Intel::Crashes)
            .then(|| reading(&fixed, work, src, &bytes, byte, print.as_deref()));
        let example = format!(
            "{}={} byte {byte:#x} {:#04x}->{new:#04x}",
            src.name, src.intel_platform, src.bytes[byte]
        );
        let mut t = table.lock().unwrap();
        if let Some(log) = &mut t.log {
            use std::io::Write;
            let read = read.map_or("crashes", Reading::name);
            let _ = writeln!(log, "{example}\t{they:?}\t{read}\t{we:?}\t{warning:?}");
        }
        t.count(they, read, we, warning, example);
    });
    let _ = std::fs::remove_dir_all(&base);
    let mut t = table.into_inner().unwrap();
    t.log = None;
    println!(
        "differential: {} cases (seed {seed}), {} files",
        t.cases,
        sources.len()
    );
    let (raw, written) = t.report(&sources, &used);
    // The floors: on the raw figure (agreement where Intel's reader does not crash) and on
    // the cases Intel reads as written. The CI sample (300 cases of the dg2 files, seed 1)
    // gives 117 of 118 (99.15 %) and 66 of 66 (docs/conformance.md); `tests/differential/run.sh` sets its
    // own for the large run.
    let floor = |name: &str, default: f64| -> f64 {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (min, min_written) = (
        floor("VISA_DIFF_MIN", 99.1),
        floor("VISA_DIFF_MIN_WRITTEN", 100.0),
    );
    assert!(
        raw >= min,
        "agreement {raw:.2}% is below VISA_DIFF_MIN={min}%"
    );
    assert!(
        written >= min_written,
        "agreement on the cases Intel reads as written {written:.2}% is below VISA_DIFF_MIN_WRITTEN={min_written}%"
    );
}

/// `f(work, item)` for every item, `jobs` at a time, each job with its own work directory
/// under `base`; the results in the items' order.
fn parallel<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    base: &Path,
    f: impl Fn(&Path, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for j in 0..jobs {
            let (next, results, f) = (&next, &results, &f);
            let work = base.join(j.to_string());
            scope.spawn(move || loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(n) else { break };
                let r = f(&work, item);
                results.lock().unwrap().push((n, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    results.into_iter().map(|r| r.1).collect()
}

/// Percent, and its text `a/b = p%`.
fn percent(a: usize, b: usize) -> (f64, String) {
    let p = 100.0 * a as f64 / b.max(1) as f64;
    (p, format!("{a}/{b} = {p:.2}%"))
}

impl Table {
    /// Counts one case: Intel's verdict and reading (None: it crashed), our first error and
    /// first warning.
    fn count(
        &mut self,
        they: Intel,
        read: Option<Reading>,
        we: Option<String>,
        warning: Option<String>,
        example: String,
    ) {
        self.cases += 1;
        let verdict = match they {
            Intel::Accepts => 0,
            Intel::Rejects(_) => 1,
            Intel::Crashes => 2,
        };
        if let Some(class) = &we {
            self.ours_by_class.entry(class.clone()).or_default()[verdict] += 1;
        } else if let Some(class) = warning {
            self.warnings_by_class.entry(class).or_default()[verdict] += 1;
        }
        let Some(read) = read else {
            self.intel_crashes += 1;
            return;
        };
        let cell = match (&they, &we) {
            (Intel::Accepts, None) => 0,
            (Intel::Accepts, Some(_)) => 1,
            (_, None) => 2,
            (_, Some(_)) => 3,
        };
        self.by_reading.entry(read).or_default()[cell] += 1;
        let r = read as usize;
        let class = match (they, we) {
            (Intel::Accepts, None) => return self.both_accept += 1,
            (Intel::Accepts, Some(class)) => self.we_reject_intel_accepts.entry(class),
            (Intel::Rejects(class), None) => self.intel_rejects_we_accept.entry(class),
            (Intel::Rejects(_), Some(_)) => return self.both_reject += 1,
            (Intel::Crashes, _) => return, // counted above
        };
        let c = class.or_insert((0, example, [0; 5]));
        c.0 += 1;
        c.2[r] += 1;
    }

    /// Prints the tables; returns the agreement where Intel's reader does not crash and
    /// where it reads as written, in percent.
    fn report(&self, sources: &[Source], used: &[usize]) -> (f64, f64) {
        let judged = self.cases - self.intel_crashes;
        let agree = self.both_accept + self.both_reject;
        let (raw, raw_text) = percent(agree, judged);
        let (mut exact, mut lossy, mut none) = (0, Vec::new(), Vec::new());
        for &s in used {
            let src = &sources[s];
            match &src.round_trip {
                Ok(trip) => {
                    let differ = trip
                        .streams(&src.bytes)
                        .iter()
                        .zip(&trip.back)
                        .filter(|(a, b)| a != b)
                        .count();
                    if differ == 0 {
                        exact += 1;
                    } else {
                        lossy.push(format!("{}={} ({differ})", src.name, src.intel_platform));
                    }
                }
                Err(why) => none.push(format!("{}={}: {why}", src.name, src.intel_platform)),
            }
        }
        println!("Intel's round trip (its print assembled back by Intel, -noverifyCISA) of the unmutated files, on their instructions: exact for {exact} of {} files; exact but for a few bytes (cases on those bytes unknown) for {}: {}", used.len(), lossy.len(), lossy.join(", "));
        for why in none {
            println!("  no round trip, its cases unknown: {why}");
        }
        println!("| Intel's reading | cases | Intel accepts: we accept | we reject | Intel rejects: we accept | we reject | agreement |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        println!("| crashes | {} | | | | | |", self.intel_crashes);
        let mut written = 100.0;
        for read in Reading::ALL {
            let c = self.by_reading.get(&read).copied().unwrap_or_default();
            let n: usize = c.iter().sum();
            let (p, text) = percent(c[0] + c[3], n);
            if read == Reading::AsWritten {
                written = p;
            }
            let text = if n == 0 { "-".to_string() } else { text };
            println!(
                "| {} | {n} | {} | {} | {} | {} | {text} |",
                read.name(),
                c[0],
                c[1],
                c[2],
                c[3]
            );
        }
        let wri: usize = self.we_reject_intel_accepts.values().map(|v| v.0).sum();
        let ria: usize = self.intel_rejects_we_accept.values().map(|v| v.0).sum();
        println!(
            "| all where Intel does not crash | {judged} | {} | {wri} | {ria} | {} | {raw_text} |",
            self.both_accept, self.both_reject
        );
        println!("Agreement where Intel's reader does not crash (raw): {raw_text}; where it reads the file as written: {written:.2}%");
        let reads = Reading::ALL.map(Reading::name).join(" / ");
        println!("Intel rejects, we accept (by Intel's message; cases, then {reads}):");
        for (class, (n, ex, r)) in &self.intel_rejects_we_accept {
            println!("  {n:5}  {:?}  {class}   e.g. {ex}", r);
        }
        println!("We reject, Intel accepts (by our rule; cases, then {reads}):");
        for (class, (n, ex, r)) in &self.we_reject_intel_accepts {
            println!("  {n:5}  {:?}  {class}   e.g. {ex}", r);
        }
        println!("Every class of our rejections: Intel accepts / rejects / crashes");
        for (class, [a, r, c]) in &self.ours_by_class {
            println!("  {a:5} {r:5} {c:5}  {class}");
        }
        println!("Our warnings in files without errors (not rejections): Intel accepts / rejects / crashes");
        for (class, [a, r, c]) in &self.warnings_by_class {
            println!("  {a:5} {r:5} {c:5}  {class}");
        }
        (raw, written)
    }
}

/// The reading of four cases, each checked by hand with Intel's tools (`intel-isa read` of
/// the file, its print assembled back by `GenX_IR -binary -noverifyCISA`, compared with the
/// file): one per kind the harness tells apart, so the harness's test of Intel's reading is
/// itself tested.
#[test]
fn intels_reading_of_known_cases() {
    let Some(shared) = support::shared() else {
        return;
    };
    let Some(fixed) = genx_ir(&shared) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Intel's tools (intel-isa, GenX_IR) are missing and CI is set"
        );
        println!(
            "skipped: Intel's tools are missing (apt-get install -y libigc-tools intel-opencl-icd)"
        );
        return;
    };
    let cases = [
        // A destination's horizontal stride 0: Intel prints `V0054(0,0)<0>`, which assembles
        // back to the byte as written, and rejects it.
        ("control_flow_branches.isa", 0x71d, 0x01, Reading::AsWritten),
        // A byte of a predicate operand Intel does not read: its print and its round trip
        // are the unchanged file's.
        ("mixed_bool_preds.isa", 0xd4a, 0x7a, Reading::IgnoresBits),
        // SCATTER4_SCALED's `Channels` 0x01 as 0xf9: Intel prints `.RA` (bits 0-3 as
        // written), which assembles back as 0x09 (bits 4-7 as before).
        ("dot_product_dp.isa", 0x786, 0xf9, Reading::PartlyAsWritten),
        // The subroutine label `_main_32_0` (LABEL, 0x30) as 0x66, no opcode: the label
        // vanishes from Intel's print, which then does not assemble ("syntax error").
        ("images_img_3d.isa", 0x6bb, 0x66, Reading::Misreads),
    ];
    let work = std::env::temp_dir().join(format!("visa-diff-known-{}", std::process::id()));
    for (name, byte, new, want) in cases {
        let path = shared.join("real-kernels/dg2").join(name);
        let mut src = load(&path, "DG2").expect("a dg2 file");
        src.round_trip = base_round_trip(&fixed, &work, &src);
        assert!(
            src.round_trip.is_ok(),
            "{name}: {:?}",
            src.round_trip.as_ref().err()
        );
        let mut bytes = src.bytes.clone();
        bytes[byte] = new;
        let (verdict, print) = intel(&fixed, &work, &bytes, "DG2");
        assert_ne!(verdict, Intel::Crashes, "{name}");
        let got = reading(&fixed, &work, &src, &bytes, byte, print.as_deref());
        assert_eq!(got, want, "{name} byte {byte:#x} as {new:#04x}");
    }
    let _ = std::fs::remove_dir_all(&work);
}
