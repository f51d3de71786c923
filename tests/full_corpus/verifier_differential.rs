//! Differential test of `File::validate` (what `visa check` runs) against Intel's reader and
//! verifier (GenX_IR 12504.6, as `intel-isa read` runs it): single-byte changes to the
//! instructions of files Intel's compiler wrote, asked of both, counted in a confusion table
//! with every disagreement named by its class.
//!
//! - CI runs a fixed sample (`VISA_DIFF_CASES`, default 300 cases, seed 1) of the dg2 files;
//! - `tests/differential/run.sh` runs the large one (thousands of cases over dg2 and our
//!   OpenCL kernels compiled for tgllp, acm-g10 and pvc) and prints the table README shows.
//!
//! Environment: `VISA_DIFF_CASES` (cases), `VISA_DIFF_SEED`, `VISA_DIFF_JOBS` (parallel
//! GenX_IR processes, default 2), `VISA_DIFF_DIRS` (more `DIR=PLATFORM` pairs, `:`-separated,
//! PLATFORM as GenX_IR names it: `TGLLP`, `DG2`, `PVC`), `VISA_DIFF_MIN` (the agreement, in
//! percent of the cases where Intel's reader does not crash, below which the test fails;
//! default 99.1, the CI sample's floor), `VISA_DIFF_LOG` (a file: every case, one line each).
//! Intel's tools absent: the test says so and passes, unless `CI` is set.

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
}

/// Our platform for a GenX_IR platform name.
fn our_platform(intel: &str) -> Option<Platform> {
    let want: &[&str] = match intel.to_ascii_uppercase().as_str() {
        "TGLLP" => &["TGLLP"],
        "DG2" | "XEHP_SDV" | "MTL" => &["XEHP", "DG2"],
        "PVC" | "PVCXT" => &["PVC"],
        "ICLLP" => &["ICLLP"],
        _ => &[],
    };
    Platform::ALL
        .iter()
        .copied()
        .find(|p| want.iter().any(|w| p.name().eq_ignore_ascii_case(w)))
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
        .zip(file.kernels.iter().map(|k| (k.data.entry, &k.data.instructions)))
        .chain(
            file.header
                .function_info
                .iter()
                .map(|f| f.offset)
                .zip(file.functions.iter().map(|f| (f.data.entry, &f.data.instructions))),
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

/// Runs Intel's reader and verifier on `bytes` in `work` as `intel-isa read` does.
fn intel(fixed: &Path, work: &Path, bytes: &[u8], platform: &str) -> Intel {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work).expect("work dir");
    std::fs::write(work.join("in.isa"), bytes).expect("write case");
    let log = std::fs::File::create(work.join("log")).expect("log file");
    let mut child = Command::new(fixed.join("GenX_IR"))
        .current_dir(work)
        .env("LD_LIBRARY_PATH", fixed)
        .args(["in.isa", "-platform", platform, "-dumpcommonisa", "-dumpToCurrentDir"])
        .stdout(log.try_clone().expect("log file"))
        .stderr(log)
        .spawn()
        .expect("GenX_IR runs");
    // Some inputs send Intel's reader into an endless loop: after 10 s it counts as a crash.
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
    let Some(status) = status.filter(|s| s.signal().is_none()) else {
        return Intel::Crashes;
    };
    let mut report = String::new();
    if let Ok(dir) = std::fs::read_dir(work) {
        for e in dir.flatten() {
            if e.file_name().to_string_lossy().ends_with(".errors.txt") {
                report.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
    }
    if status.success() && report.is_empty() {
        return Intel::Accepts;
    }
    if report.is_empty() {
        report = std::fs::read_to_string(work.join("log")).unwrap_or_default();
    }
    Intel::Rejects(class_of_report(&report))
}

/// The class of Intel's report: its first message line, numbers and names masked.
fn class_of_report(report: &str) -> String {
    // Two layouts: "Error Message: ..." lines, and a heading ("Instruction / Operand /
    // Region Errors:") over "in instruction ..." and " * message" lines.
    let line = report
        .lines()
        .find_map(|l| l.split_once("Error Message:").map(|(_, m)| m.trim()))
        .or_else(|| report.lines().find_map(|l| l.trim().strip_prefix("* ").map(str::trim)))
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
        Err(e) => (Some(format!("file does not read: {}", e.path.split('[').next().unwrap_or(""))), None),
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
        let rule: String = e.rule.split(" (").next().unwrap_or("").chars().take(90).collect();
        // The mnemonic, after a predicate (`(P1) cmp.lt ...`).
        let text = e.text.strip_prefix('(').and_then(|t| t.split_once(") ")).map_or(e.text.as_str(), |t| t.1);
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
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[derive(Default)]
struct Table {
    cases: usize,
    both_accept: usize,
    both_reject: usize,
    intel_crashes: usize,
    we_reject_intel_accepts: BTreeMap<String, (usize, String)>,
    /// Every class of ours, with Intel's verdicts on its cases: accepts, rejects, crashes.
    ours_by_class: BTreeMap<String, [usize; 3]>,
    /// Every class of our warnings (in files without errors), with Intel's verdicts.
    warnings_by_class: BTreeMap<String, [usize; 3]>,
    /// `VISA_DIFF_LOG`: every case, one line each (file, byte, Intel's verdict, ours).
    log: Option<std::fs::File>,
    intel_rejects_we_accept: BTreeMap<String, (usize, String)>,
}

#[test]
fn mutated_instructions_agree_with_intels_verifier() {
    let Some(shared) = support::shared() else { return };
    let Some(fixed) = genx_ir(&shared) else {
        assert!(std::env::var_os("CI").is_none(), "Intel's tools (intel-isa, GenX_IR) are missing and CI is set");
        println!("skipped: Intel's tools are missing (apt-get install -y libigc-tools intel-opencl-icd)");
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
    let log = std::env::var_os("VISA_DIFF_LOG").map(|p| std::fs::File::create(p).expect("VISA_DIFF_LOG is writable"));
    let table = Mutex::new(Table { log, ..Table::default() });
    let next = AtomicUsize::new(0);
    let base = std::env::temp_dir().join(format!("visa-diff-{}", std::process::id()));
    std::thread::scope(|scope| {
        for j in 0..jobs {
            let (plan, sources, table, next, fixed) = (&plan, &sources, &table, &next, &fixed);
            let work = base.join(j.to_string());
            scope.spawn(move || loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(s, byte, new)) = plan.get(n) else { break };
                let src = &sources[s];
                let mut bytes = src.bytes.clone();
                bytes[byte] = new;
                let (we, warning) = ours(&bytes, src.platform);
                let they = intel(fixed, &work, &bytes, &src.intel_platform);
                let example = format!("{}={} byte {byte:#x} {:#04x}->{new:#04x}", src.name, src.intel_platform, src.bytes[byte]);
                let mut t = table.lock().unwrap();
                if let Some(log) = &mut t.log {
                    use std::io::Write;
                    let _ = writeln!(log, "{example}\t{they:?}\t{we:?}\t{warning:?}");
                }
                t.cases += 1;
                let verdict = match they {
                    Intel::Accepts => 0,
                    Intel::Rejects(_) => 1,
                    Intel::Crashes => 2,
                };
                if let Some(class) = &we {
                    t.ours_by_class.entry(class.clone()).or_default()[verdict] += 1;
                } else if let Some(class) = warning {
                    t.warnings_by_class.entry(class).or_default()[verdict] += 1;
                }
                match (they, we) {
                    (Intel::Crashes, _) => t.intel_crashes += 1,
                    (Intel::Accepts, None) => t.both_accept += 1,
                    (Intel::Rejects(_), Some(_)) => t.both_reject += 1,
                    (Intel::Accepts, Some(class)) => {
                        t.we_reject_intel_accepts.entry(class).or_insert((0, example)).0 += 1
                    }
                    (Intel::Rejects(class), None) => {
                        t.intel_rejects_we_accept.entry(class).or_insert((0, example)).0 += 1
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&base);
    let mut t = table.into_inner().unwrap();
    t.log = None;
    let judged = t.cases - t.intel_crashes;
    let agree = t.both_accept + t.both_reject;
    let pct = 100.0 * agree as f64 / judged.max(1) as f64;
    println!("differential: {} cases (seed {seed}), {} files", t.cases, sources.len());
    println!("| | we accept | we reject |");
    println!("| --- | ---: | ---: |");
    let ria: usize = t.intel_rejects_we_accept.values().map(|v| v.0).sum();
    let wri: usize = t.we_reject_intel_accepts.values().map(|v| v.0).sum();
    println!("| Intel accepts | {} | {wri} |", t.both_accept);
    println!("| Intel rejects | {ria} | {} |", t.both_reject);
    println!("Intel's reader crashes: {}; agreement where it does not: {agree}/{judged} = {pct:.2}%", t.intel_crashes);
    println!("Intel rejects, we accept (by Intel's message):");
    for (class, (n, ex)) in &t.intel_rejects_we_accept {
        println!("  {n:5}  {class}   e.g. {ex}");
    }
    println!("We reject, Intel accepts (by our rule):");
    for (class, (n, ex)) in &t.we_reject_intel_accepts {
        println!("  {n:5}  {class}   e.g. {ex}");
    }
    println!("Every class of our rejections: Intel accepts / rejects / crashes");
    for (class, [a, r, c]) in &t.ours_by_class {
        println!("  {a:5} {r:5} {c:5}  {class}");
    }
    println!("Our warnings in files without errors (not rejections): Intel accepts / rejects / crashes");
    for (class, [a, r, c]) in &t.warnings_by_class {
        println!("  {a:5} {r:5} {c:5}  {class}");
    }
    // The floor: the CI sample (300 cases of the dg2 files, seed 1) agrees on 117 of 118
    // (99.15 %); `tests/differential/run.sh` sets 97.1 for the large run (97.17 %, README).
    let min: f64 = std::env::var("VISA_DIFF_MIN").ok().and_then(|v| v.parse().ok()).unwrap_or(99.1);
    assert!(pct >= min, "agreement {pct:.2}% is below VISA_DIFF_MIN={min}%");
}
