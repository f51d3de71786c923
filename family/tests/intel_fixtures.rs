//! Exact on every file Intel's tools made for every platform (`tests/intel/regen-fixtures`):
//! our OpenCL kernels compiled by ocloc for each device (`tests/ocl/fixtures/<device>/`) and the
//! vISA text lines of every documented instruction assembled by GenX_IR for each platform
//! (`tests/intel/fixtures/asm/<PLATFORM>/`). For each `.isa` with Intel's text beside it:
//!
//! - round trip: `File::parse` then `write` gives the same bytes;
//! - dis: our text of each routine is Intel's, line for line;
//! - asm: our assembly of Intel's text gives Intel's instruction bytes, routine by routine, but
//!   for the lines `dis` notes (the text cannot show some of their bits, as
//!   FENCE 0xa1 on SKL, printed `fence_sw`): those assemble to what GenX_IR writes for the line
//!   (`intel_oracle.rs` checks that against GenX_IR), the same instruction with other bits;
//! - check: `Instruction::validate` for the platform accepts every instruction Intel wrote.
//!
//! Every failure must be listed in [`KNOWN`] with its reason and the issue item that fixes
//! it, and every entry of [`KNOWN`] must still fail somewhere: the list only shrinks. The totals
//! per platform are the table of `docs/conformance.md` (between the `intel-fixtures` markers);
//! `VISA_BLESS=1` rewrites it.

#![cfg(not(family_absent))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use visa::asm::{assemble_for, render, Options, Source};
use visa::object::text::{print_function, print_kernel};
use visa::object::File;
use visa::runtime::IntelPlatform;
use visa::{Instruction, Platform};

mod support;

/// The four checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Check {
    RoundTrip,
    Dis,
    Asm,
    Validate,
}

/// A failure we know of: on which rows (`*` for all), which check, which instruction (`*` for
/// any: for `Dis`, Intel's mnemonic as it starts the line we do not print; for an `asm` error,
/// the mnemonic of the line it points at; otherwise the doc's name, as `Instruction::name`),
/// why, and the fix that removes it.
struct Known {
    rows: &'static [&'static str],
    check: Check,
    mnemonic: &'static str,
    why: &'static str,
    item: &'static str,
}

/// Every row (for an entry of [`KNOWN`]).
const ALL: &[&str] = &["*"];

/// An entry of [`KNOWN`]: the rows, the check, the instruction, why, and the fix that removes it.
const fn k(
    rows: &'static [&'static str],
    check: Check,
    mnemonic: &'static str,
    why: &'static str,
    item: &'static str,
) -> Known {
    Known {
        rows,
        check,
        mnemonic,
        why,
        item,
    }
}

/// Failures still open. Each names the fix that removes it; when the fix lands, the test fails
/// until its entry is removed. All are instructions of docs the family gained (LIFETIME,
/// SWITCHJMP, NBARRIER) whose lines Intel assembles.
const KNOWN: &[Known] = &[
    k(ALL, Check::Dis, "switchjmp", "SWITCHJMP's label table `(Label0, ..., LabelN-1)` is a counted list, which no text rule prints yet", "a text rule for a counted list of labels"),
    k(ALL, Check::Asm, "switchjmp", "SWITCHJMP's label table `(Label0, ..., LabelN-1)` is a counted list, which no text rule reads yet", "a text rule for a counted list of labels"),
    k(&["PVC", "PVCXT"], Check::RoundTrip, "0x00 ?", "NBARRIER: GenX_IR 12504.6 writes three fields (Mode, Id, one thread count); the doc's format has five (Type, Num_producers, Num_consumers: the general signal form of later IGC), so the next instruction is read at the wrong byte", "an erratum or a revision rule for NBARRIER's 12504.6 encoding"),
    k(&["PVC", "PVCXT"], Check::Dis, "nbarrier", "NBARRIER: GenX_IR 12504.6 writes three fields where the doc has five", "an erratum or a revision rule for NBARRIER's 12504.6 encoding"),
    k(&["PVC", "PVCXT"], Check::Asm, "<none>", "NBARRIER: every line assembles (erratum NBARRIER-signal-forms-by-mode), to the doc's five fields; GenX_IR 12504.6 writes three, so its bytes decode no instruction where ours have NBARRIER", "an erratum or a revision rule for NBARRIER's 12504.6 encoding"),
    k(&["PVC", "PVCXT"], Check::Validate, "NBARRIER", "NBARRIER: GenX_IR 12504.6 writes three fields where the doc has five (its thread count is read as Type)", "an erratum or a revision rule for NBARRIER's 12504.6 encoding"),
];

fn must_have(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}; CI is set: it must be present"
    );
    println!("skipped: {what}");
}

fn repo() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let found = candidates
        .into_iter()
        .find(|d| d.join("tests/intel/regen-fixtures").is_file());
    if found.is_none() {
        must_have("tests/intel/regen-fixtures not found (set VISA_REPO to the repository)");
    }
    found
}

/// Rows of the table: (row name, fixture directory, Intel's platform name).
fn rows(repo: &Path) -> Vec<(String, PathBuf, &'static str)> {
    let ocl = [
        ("skl", "SKL"),
        ("icllp", "ICLLP"),
        ("tgllp", "TGLLP"),
        ("dg1", "TGLLP"),
        ("acm-g10", "DG2"),
        ("acm-g10-rev0", "DG2"),
        ("pvc", "PVC"),
    ];
    let asm = [
        "BDW", "CHV", "SKL", "BXT", "ICLLP", "TGLLP", "XeHP_SDV", "DG2", "MTL", "PVC", "PVCXT",
    ];
    let mut out: Vec<_> = ocl
        .iter()
        .map(|(d, p)| (d.to_string(), repo.join("tests/ocl/fixtures").join(d), *p))
        .collect();
    out.extend(asm.iter().map(|p| {
        (
            p.to_string(),
            repo.join("tests/intel/fixtures/asm").join(p),
            *p,
        )
    }));
    out
}

/// The platform `visa check` takes for Intel's name (`Platform::from_name`: GenX_IR's names,
/// placed in the docs' order).
fn platform(intel: &str) -> Option<Platform> {
    Platform::from_name(intel)
}

/// The mnemonic a text line starts with (`add`, `cmp.lt`, `lsc_load.ugm`): its first word
/// after the predicate, up to the first `.` or `(` after the name. GenX_IR prints a
/// kernel's first instruction on the header's last line (`.kernel_attr Target="3d"    add ...`):
/// the instruction is what such a line names.
fn mnemonic(line: &str) -> String {
    let line = line.trim_start();
    let line = match line
        .strip_prefix(".kernel_attr ")
        .and_then(|rest| rest.split_once("    "))
    {
        Some((_, instruction)) => instruction.trim_start(),
        None => line,
    };
    let line = if line.starts_with('(') {
        line.split_once(") ").map_or(line, |x| x.1)
    } else {
        line
    };
    line.split([' ', '.', '(']).next().unwrap_or("").to_string()
}

/// One `.isa` and its texts: (routine text file name, Intel's text).
struct Fixture {
    isa: PathBuf,
    texts: Vec<(String, String)>,
}

fn fixtures(dir: &Path) -> Vec<Fixture> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut isas: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "isa"))
        .collect();
    isas.sort();
    isas.into_iter()
        .map(|isa| {
            let kernel = isa.with_extension("visaasm");
            let stem = isa.file_stem().unwrap().to_string_lossy().into_owned();
            let mut texts = vec![(
                kernel.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&kernel).unwrap_or_default(),
            )];
            // `<cl>.func.<f>.visaasm` beside `<cl>.<kernel>.isa`
            let prefix = format!("{}.func.", stem.split('.').next().unwrap_or(&stem));
            let mut funcs: Vec<PathBuf> = std::fs::read_dir(dir)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .starts_with(&prefix)
                })
                .collect();
            funcs.sort();
            for f in funcs {
                texts.push((
                    f.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&f).unwrap(),
                ));
            }
            Fixture { isa, texts }
        })
        .collect()
}

/// Totals of one row.
#[derive(Default)]
struct Row {
    files: usize,
    instructions: usize,
    kinds: BTreeSet<String>,
    lines: (usize, usize),
    /// Lines `dis` prints with a note (the text cannot show some bits).
    noted: usize,
    /// Of those, the instructions our assembly writes otherwise than Intel's file holds.
    noted_differ: usize,
    streams: (usize, usize),
    checked: (usize, usize),
}

/// A failure: (row, check, mnemonic, what).
type Failure = (String, Check, String, String);

fn round_trip(row: &str, f: &Fixture, bytes: &[u8], out: &mut Vec<Failure>) -> Option<File> {
    let name = f.isa.display();
    let file = match File::parse(bytes) {
        Ok(file) => file,
        Err(e) => {
            out.push((
                row.into(),
                Check::RoundTrip,
                "*".into(),
                format!("{name}: does not read: {e}"),
            ));
            return None;
        }
    };
    match file.write() {
        Ok(w) if w == bytes => {}
        Ok(w) => {
            let at = w
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(w.len().min(bytes.len()));
            out.push((
                row.into(),
                Check::RoundTrip,
                "*".into(),
                format!("{name}: written back differs at byte {at}"),
            ));
        }
        Err(e) => out.push((
            row.into(),
            Check::RoundTrip,
            "*".into(),
            format!("{name}: does not write: {e}"),
        )),
    }
    Some(file)
}

/// Which lines of `b` (Intel's) a longest common subsequence with `a` (ours) keeps.
fn matched(a: &[&str], b: &[&str]) -> Vec<bool> {
    let (n, m) = (a.len(), b.len());
    let mut t = vec![0u32; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i * (m + 1) + j] = if a[i] == b[j] {
                t[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                t[(i + 1) * (m + 1) + j].max(t[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j, mut keep) = (0, 0, vec![false; m]);
    while i < n && j < m {
        if a[i] == b[j] {
            keep[j] = true;
            i += 1;
            j += 1;
        } else if t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    keep
}

/// Our text against Intel's, aligned (a line we cannot print shifts no other line): each
/// line of Intel's we do not print is a failure under its mnemonic.
fn dis(row: &str, f: &Fixture, file: &File, r: &mut Row, out: &mut Vec<Failure>) {
    for (i, (name, intel)) in f.texts.iter().enumerate() {
        let printed = if i == 0 {
            print_kernel(file, 0)
        } else {
            print_function(file, i - 1)
        };
        r.noted += printed.as_ref().map_or(0, |p| p.notes.len());
        let ours = printed.map(|p| p.text).unwrap_or_default();
        let a: Vec<&str> = ours.split_inclusive('\n').collect();
        let b: Vec<&str> = intel.split_inclusive('\n').collect();
        let keep = matched(&a, &b);
        // After a stream that stopped decoding, Intel's lines are all missing: the first
        // stands for them (the stop itself is a round-trip failure).
        let stopped = ours.contains("\n// decoding stopped: ");
        r.lines.1 += b.len().max(a.len());
        r.lines.0 += keep.iter().filter(|k| **k).count();
        for (at, line) in b
            .iter()
            .enumerate()
            .filter(|(at, _)| !keep[*at])
            .take(if stopped { 1 } else { usize::MAX })
        {
            let line = line.trim_end();
            out.push((
                row.into(),
                Check::Dis,
                mnemonic(line),
                format!("{name}:{}: Intel `{line}` not printed so", at + 1),
            ));
        }
        if b.len() < a.len() && keep.iter().all(|k| *k) {
            out.push((
                row.into(),
                Check::Dis,
                "*".into(),
                format!("{name}: {} more lines than Intel's", a.len() - b.len()),
            ));
        }
    }
}

/// The instruction streams of each routine, with the strings FCALL, FADDR and FILE name
/// compared by their text (their pool index follows the pool's order, which the text does not
/// hold: see asm.rs).
fn streams(f: &File) -> Vec<Vec<(String, Vec<u8>)>> {
    let routines = f
        .kernels
        .iter()
        .map(|k| (&k.data.instructions, &k.data.string_pool));
    let routines = routines.chain(
        f.functions
            .iter()
            .map(|x| (&x.data.instructions, &x.data.string_pool)),
    );
    routines
        .map(|(s, pool)| {
            s.instructions
                .iter()
                .map(|(_, inst)| {
                    let mut inst = inst.clone();
                    let mut name = inst.name().to_string();
                    let string = |i: usize| {
                        pool.get(i)
                            .map(|s| String::from_utf8_lossy(s).into_owned())
                            .unwrap_or_default()
                    };
                    match &mut inst {
                        Instruction::Fcall(x) => {
                            name = format!("FCALL {}", string(usize::from(x.func_id)));
                            x.func_id = 0;
                        }
                        Instruction::Faddr(x) => {
                            name = format!("FADDR {}", string(usize::from(x.func_id)));
                            x.func_id = 0;
                        }
                        Instruction::File(x) => {
                            name = format!("FILE {}", string(x.file_name as usize));
                            x.file_name = 0;
                        }
                        _ => {}
                    }
                    let mut bytes = Vec::new();
                    inst.encode(&mut bytes);
                    (name, bytes)
                })
                .collect()
        })
        .collect()
}

/// Our assembly of Intel's text for the platform Intel assembled or compiled it for, as
/// `GenX_IR -platform P` does (the register size places ADDR_ADD's `&V[bytes]`).
fn asm(
    row: &str,
    intel_platform: &str,
    f: &Fixture,
    intel: &File,
    r: &mut Row,
    out: &mut Vec<Failure>,
) {
    let sources: Vec<Source> = f
        .texts
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let theirs = streams(intel);
    r.streams.1 += theirs.len();
    let Some(platform) = IntelPlatform::find(intel_platform) else {
        out.push((
            row.into(),
            Check::Asm,
            "*".into(),
            format!("no Intel platform named {intel_platform}"),
        ));
        return;
    };
    let ours = match assemble_for(&sources, Options { instructions: true }, platform) {
        Ok(file) => streams(&file),
        Err(d) => {
            for d in &d {
                out.push((
                    row.into(),
                    Check::Asm,
                    mnemonic(&d.source_line),
                    format!(
                        "{}: {}",
                        f.isa.display(),
                        render(std::slice::from_ref(d)).lines().next().unwrap_or("")
                    ),
                ));
            }
            return;
        }
    };
    let noted = support::noted(intel);
    for (i, t) in theirs.iter().enumerate() {
        let o = ours.get(i).cloned().unwrap_or_default();
        // A line `dis` notes (its text cannot show some bits) assembles to what Intel's
        // assembler writes for it (intel_oracle.rs checks that against GenX_IR), not to the
        // bytes Intel's compiler wrote: the same instruction, other bits.
        let is_noted = |k: usize| noted.get(i).is_some_and(|n| n.contains(&k));
        let differing: Vec<usize> = (0..o.len().max(t.len()))
            .filter(|&k| o.get(k) != t.get(k))
            .collect();
        if differing
            .iter()
            .all(|&k| is_noted(k) && o.get(k).map(|x| &x.0) == t.get(k).map(|x| &x.0))
        {
            r.streams.0 += 1;
            r.noted_differ += differing.len();
            continue;
        }
        let at = (0..o.len().max(t.len()))
            .find(|&k| o.get(k) != t.get(k) && !is_noted(k))
            .unwrap_or(o.len().min(t.len()));
        let name = t.get(at).map_or("<none>", |x| x.0.as_str());
        let ours = o.get(at).map_or("<none>", |x| x.0.as_str());
        out.push((
            row.into(),
            Check::Asm,
            name.to_string(),
            format!(
                "{} routine {i}: instruction ${at} ({name}) differs from ours ({ours})",
                f.isa.display()
            ),
        ));
    }
}

fn validate(
    row: &str,
    intel_platform: &str,
    f: &Fixture,
    file: &File,
    r: &mut Row,
    out: &mut Vec<Failure>,
) {
    let p = platform(intel_platform);
    let routines = file
        .kernels
        .iter()
        .map(|k| &k.data.instructions)
        .chain(file.functions.iter().map(|x| &x.data.instructions));
    for s in routines {
        for (n, (_, inst)) in s.instructions.iter().enumerate() {
            r.checked.1 += 1;
            match p.map(|p| inst.validate(p)) {
                Some(Ok(())) => r.checked.0 += 1,
                Some(Err(e)) => out.push((
                    row.into(),
                    Check::Validate,
                    inst.name().into(),
                    format!(
                        "{} ${n}: {} field {}: {}",
                        f.isa.display(),
                        e.instruction,
                        e.field,
                        e.rule
                    ),
                )),
                None => out.push((
                    row.into(),
                    Check::Validate,
                    "*".into(),
                    format!("no platform for {intel_platform}"),
                )),
            }
        }
        if let Some(stop) = &s.stop {
            out.push((
                row.into(),
                Check::RoundTrip,
                stop_key(&stop.describe()),
                format!("{}: {}", f.isa.display(), stop.describe()),
            ));
        }
    }
}

/// `0x7d Surface` of "opcode 0x7d does not decode: Surface at byte 5: ...": which instruction
/// and field stopped a stream.
fn stop_key(message: &str) -> String {
    let opcode = message
        .split("opcode ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or("?");
    let field = message
        .split("does not decode: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or("?");
    format!("{opcode} {field}")
}

fn table(rows: &[(String, Row)]) -> String {
    let pct = |(a, b): (usize, usize)| {
        if a == b {
            format!("{a}/{b}")
        } else {
            format!("**{a}/{b}**")
        }
    };
    let mut t = String::from(
        "| platform (ocloc device / GenX_IR) | files | instructions (kinds) | lines exact (dis) | lines noted (dis) | routines exact (asm) | of them, noted lines assembled otherwise | instructions check clean |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for (name, r) in rows {
        t += &format!(
            "| {name} | {} | {} ({}) | {} | {} | {} | {} | {} |\n",
            r.files,
            r.instructions,
            r.kinds.len(),
            pct(r.lines),
            r.noted,
            pct(r.streams),
            r.noted_differ,
            pct(r.checked)
        );
    }
    t
}

const BEGIN: &str = "<!-- intel-fixtures: begin (written by family/tests/intel_fixtures.rs; VISA_BLESS=1 rewrites it) -->\n";
const END: &str = "<!-- intel-fixtures: end -->";

#[test]
fn every_platforms_files_are_exact_but_for_the_known_failures() {
    let Some(repo) = repo() else { return };
    let mut totals: Vec<(String, Row)> = Vec::new();
    let mut failures: Vec<Failure> = Vec::new();
    for (row, dir, intel_platform) in rows(&repo) {
        let mut r = Row::default();
        let fx = fixtures(&dir);
        assert!(
            !fx.is_empty(),
            "no fixtures in {}: run tests/intel/regen-fixtures",
            dir.display()
        );
        for f in &fx {
            r.files += 1;
            let bytes = std::fs::read(&f.isa).unwrap();
            let Some(file) = round_trip(&row, f, &bytes, &mut failures) else {
                continue;
            };
            for s in file
                .kernels
                .iter()
                .map(|k| &k.data.instructions)
                .chain(file.functions.iter().map(|x| &x.data.instructions))
            {
                r.instructions += s.instructions.len();
                r.kinds
                    .extend(s.instructions.iter().map(|(_, i)| i.name().to_string()));
            }
            dis(&row, f, &file, &mut r, &mut failures);
            asm(&row, intel_platform, f, &file, &mut r, &mut failures);
            validate(&row, intel_platform, f, &file, &mut r, &mut failures);
        }
        totals.push((row, r));
    }

    // Every failure known; every known failure still seen.
    let known = |f: &Failure| {
        KNOWN.iter().position(|k| {
            k.check == f.1
                && (k.rows.contains(&"*") || k.rows.contains(&f.0.as_str()))
                && (k.mnemonic == "*" || k.mnemonic == f.2)
        })
    };
    let mut seen = BTreeSet::new();
    let mut unknown: BTreeMap<(String, Check, String), Vec<String>> = BTreeMap::new();
    for f in &failures {
        match known(f) {
            Some(i) => {
                seen.insert(i);
            }
            None => unknown
                .entry((f.0.clone(), f.1, f.2.clone()))
                .or_default()
                .push(f.3.clone()),
        }
    }
    let t = table(&totals);
    println!("{t}");
    let verbose = std::env::var_os("VISA_VERBOSE").is_some();
    for (i, k) in KNOWN.iter().enumerate() {
        let n = failures.iter().filter(|f| known(f) == Some(i)).count();
        // VISA_VERBOSE=1: three failures of each entry.
        for f in failures
            .iter()
            .filter(|f| verbose && known(f) == Some(i))
            .take(3)
        {
            println!("  {} {:?} {}: {}", f.0, f.1, f.2, f.3);
        }
        println!(
            "known: {:?} {} on {:?}: {n} failure(s): {} ({})",
            k.check, k.mnemonic, k.rows, k.why, k.item
        );
    }
    for ((row, check, m), what) in &unknown {
        println!(
            "UNKNOWN {row} {check:?} `{m}`: {} failure(s), first: {}",
            what.len(),
            what[0]
        );
    }
    let stale: Vec<&str> = KNOWN
        .iter()
        .enumerate()
        .filter(|(i, _)| !seen.contains(i))
        .map(|(_, k)| k.why)
        .collect();

    let page_path = repo.join("docs/conformance.md");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let section = page
        .split_once(BEGIN)
        .and_then(|(_, rest)| rest.split_once(END))
        .map(|(s, _)| s);
    if std::env::var_os("VISA_BLESS").is_some() {
        let (head, rest) = page
            .split_once(BEGIN)
            .expect("docs/conformance.md has the intel-fixtures markers");
        let (_, tail) = rest
            .split_once(END)
            .expect("docs/conformance.md has the end marker");
        std::fs::write(&page_path, format!("{head}{BEGIN}{t}{END}{tail}")).unwrap();
    } else {
        assert_eq!(section, Some(t.as_str()), "the per-platform table of docs/conformance.md is not this run's: VISA_BLESS=1 rewrites it");
    }
    assert!(
        unknown.is_empty(),
        "{} kind(s) of failure not in KNOWN (listed above)",
        unknown.len()
    );
    assert!(
        stale.is_empty(),
        "KNOWN entries that no longer fail (remove them): {stale:?}"
    );
}

/// Bits the text cannot show, on the command line: `visa dis` prints Intel's line for an instruction whose
/// text cannot show all its bits, with one note per such instruction on stderr (exit 0), and
/// `--strict` makes each an error (exit 1). skl's block_io (Intel's compiler): FENCE 0xa1,
/// printed `fence_sw`, and SVM_BLOCK_LD with bit 7, printed `svm_block_ld (4)`.
#[test]
fn dis_prints_intels_line_with_a_note_and_strict_refuses_it() {
    let Some(repo) = repo() else { return };
    let Some(visa) = option_env!("CARGO_BIN_EXE_visa") else {
        return must_have("the visa tool is not built (test with --features cli)");
    };
    let isa = repo.join("tests/ocl/fixtures/skl/block_io.block_io.isa");
    let intel = std::fs::read_to_string(isa.with_extension("visaasm")).unwrap();
    let dis = |strict: bool| {
        let mut c = std::process::Command::new(visa);
        c.arg("dis").arg(&isa);
        if strict {
            c.arg("--strict");
        }
        let out = c.output().expect("visa runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, text, stderr) = dis(false);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(text, intel, "visa dis prints Intel's text");
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(": note: instruction $"))
        .collect();
    assert!(
        notes.iter().any(|l| l.contains("FENCE"))
            && notes.iter().any(|l| l.contains("SVM_BLOCK_LD")),
        "{stderr}"
    );
    let (code, strict_text, strict_err) = dis(true);
    assert_eq!(code, Some(1), "{strict_err}");
    assert_eq!(strict_text, intel);
    let errors = strict_err
        .lines()
        .filter(|l| l.contains(": error: instruction $"))
        .count();
    assert_eq!(errors, notes.len(), "{strict_err}");
}
