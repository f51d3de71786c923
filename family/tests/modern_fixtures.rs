//! What Intel's current compiler writes (ocloc 26.27, IGC 2.40: vISA 4.2 text), on every device
//! (`tests/modern/regen` made `tests/modern/fixtures/<device>/<file>/`): each kernel's text,
//! with its functions' texts beside it, must
//!
//! - assemble: every line reads (`visa::asm::assemble_for`, the platform of its `//Platform:`
//!   line);
//! - print back exactly: each routine printed again is the text it was read from, line for line;
//! - check clean: `visa check` for that platform finds no error.
//!
//! Every failure must be listed in [`KNOWN`] with its reason, and every entry must still fail
//! somewhere: the list only shrinks. The totals per device are the table of `README.md` and
//! `docs/text.md` (between the `modern-fixtures` markers); `VISA_BLESS=1` rewrites them. A
//! second test makes the fixtures again with Intel's compiler and compares them byte for byte
//! (skipped with the reason when `../shared/tools/intel-modern` is not set up; failing under
//! `CI`).

#![cfg(not(family_absent))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use visa::asm::{assemble_for, check, platform_line, Source};
use visa::object::text::{print_function, print_kernel};
use visa::object::{File, Severity};
use visa::runtime::IntelPlatform;

/// The devices, in the order of the table (`tests/modern/regen`'s DEVICES).
const DEVICES: &[&str] = &[
    "tgllp", "acm-g10", "pvc", "mtl", "arl-h", "lnl-m", "bmg", "ptl", "nvl-p", "cri",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// A line does not read.
    Asm,
    /// A line prints back differently (keyed by the first word of Intel's line).
    Print,
    /// `visa check` reports an error.
    Check,
}

/// A failure we know of: on which devices (`*` for all), at which stage, for which word (the
/// mnemonic or directive starting the line; `*` for any), and why.
struct Known {
    devices: &'static [&'static str],
    stage: Stage,
    word: &'static str,
    why: &'static str,
}

/// Every failure the fixtures are known to have (none now): a fixture that fails otherwise, or
/// an entry that no longer fails, fails the test.
const KNOWN: &[Known] = &[];

/// One failure: device, stage, word, what (file:line and message).
type Failure = (String, Stage, String, String);

#[derive(Default)]
struct Row {
    files: usize,
    routines: usize,
    assembled: usize,
    lines: usize,
    exact: usize,
    routines_exact: usize,
    instructions: usize,
    clean: usize,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Each kernel text of a device (not a function's), with its functions' texts beside it.
fn kernels(dir: &Path) -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .collect();
    files.sort();
    for f in &files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.contains(".func.") {
            continue;
        }
        let stem = name.trim_end_matches(".visaasm");
        let funcs = files
            .iter()
            .filter(|g| {
                g.parent() == f.parent()
                    && g.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(&format!("{stem}.func.")))
            })
            .cloned()
            .collect();
        out.push((f.clone(), funcs));
    }
    out
}

/// The first word of a line: its mnemonic or directive.
fn word(line: &str) -> String {
    let t = line.trim_start();
    let t = t
        .strip_prefix('(')
        .map_or(t, |r| r.split_once(')').map_or(r, |x| x.1).trim_start());
    t.split([' ', '(']).next().unwrap_or_default().to_string()
}

/// Lines of `read` not printed back, by a line diff (`similar`): (line number, line).
fn differing<'a>(read: &'a str, printed: &str) -> Vec<(usize, &'a str)> {
    let diff = similar::TextDiff::from_lines(read, printed);
    let lines: Vec<&str> = read.lines().collect();
    let mut out = Vec::new();
    for op in diff.ops() {
        if let similar::DiffOp::Delete {
            old_index, old_len, ..
        }
        | similar::DiffOp::Replace {
            old_index, old_len, ..
        } = *op
        {
            for i in old_index..old_index + old_len {
                out.push((i + 1, lines.get(i).copied().unwrap_or_default()));
            }
        }
    }
    out
}

/// One kernel with its functions: assembled, printed back and checked.
fn one(device: &str, kernel: &Path, funcs: &[PathBuf], r: &mut Row, failures: &mut Vec<Failure>) {
    let texts: Vec<(String, String)> = std::iter::once(kernel)
        .chain(funcs.iter().map(PathBuf::as_path))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap()))
        .collect();
    r.files += texts.len();
    r.routines += texts.len();
    let lines: usize = texts.iter().map(|(_, t)| t.lines().count()).sum();
    r.lines += lines;
    let sources: Vec<Source<'_>> = texts
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let Some(platform) = platform_line(&texts[0].1).and_then(IntelPlatform::find) else {
        failures.push((
            device.into(),
            Stage::Asm,
            "//Platform".into(),
            format!("{}: no known //Platform: line", texts[0].0),
        ));
        return;
    };
    let file = match assemble_for(&sources, Default::default(), platform) {
        Ok(f) => f,
        Err(diags) => {
            for d in diags {
                let w = word(&d.source_line);
                failures.push((
                    device.into(),
                    Stage::Asm,
                    w,
                    format!("{}:{}: {}", d.file, d.line, d.message),
                ));
            }
            return;
        }
    };
    r.assembled += texts.len();
    print_back(device, &file, &texts, r, failures);
    let routines = file
        .kernels
        .iter()
        .map(|k| k.data.instructions.instructions.len())
        .chain(
            file.functions
                .iter()
                .map(|f| f.data.instructions.instructions.len()),
        );
    let n: usize = routines.sum();
    r.instructions += n;
    let errors: Vec<_> = check(&sources, &file, platform)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let bad: BTreeSet<(String, usize)> = errors.iter().map(|d| (d.file.clone(), d.line)).collect();
    r.clean += n.saturating_sub(bad.len());
    for d in errors {
        failures.push((
            device.into(),
            Stage::Check,
            word(&d.source_line),
            format!("{}:{}: {}", d.file, d.line, d.message),
        ));
    }
}

/// Each routine printed again against the text it was read from.
fn print_back(
    device: &str,
    file: &File,
    texts: &[(String, String)],
    r: &mut Row,
    failures: &mut Vec<Failure>,
) {
    let printed: Vec<String> = (0..file.kernels.len())
        .filter_map(|i| print_kernel(file, i))
        .chain((0..file.functions.len()).filter_map(|i| print_function(file, i)))
        .map(|p| p.text)
        .collect();
    for (i, (name, text)) in texts.iter().enumerate() {
        let out = printed.get(i).map_or("", String::as_str);
        let bad = differing(text, out);
        r.exact += text.lines().count() - bad.len();
        r.routines_exact += usize::from(bad.is_empty());
        for (n, line) in bad {
            failures.push((
                device.into(),
                Stage::Print,
                word(line),
                format!("{name}:{n}: `{line}`"),
            ));
        }
    }
}

fn table(rows: &[(String, Row)]) -> String {
    let mut t = String::from(
        "| device (platform) | texts | assembled | lines printed back exactly | texts exact | instructions check clean |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    let bold = |a: usize, b: usize| {
        if a == b {
            format!("{a}/{b}")
        } else {
            format!("**{a}/{b}**")
        }
    };
    for (name, r) in rows {
        t.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {} |\n",
            r.files,
            bold(r.assembled, r.routines),
            bold(r.exact, r.lines),
            bold(r.routines_exact, r.routines),
            bold(r.clean, r.instructions),
        ));
    }
    t
}

const BEGIN: &str = "<!-- modern-fixtures: begin (written by family/tests/modern_fixtures.rs; VISA_BLESS=1 rewrites it) -->\n";
const END: &str = "<!-- modern-fixtures: end -->";

/// The table between the markers of `page`: compared, or written under `VISA_BLESS`.
fn page_table(page: &Path, t: &str) {
    let text = std::fs::read_to_string(page).unwrap();
    let Some((head, rest)) = text.split_once(BEGIN) else {
        panic!("{} has no modern-fixtures markers", page.display());
    };
    let (section, tail) = rest.split_once(END).expect("the end marker");
    if std::env::var_os("VISA_BLESS").is_some() {
        std::fs::write(page, format!("{head}{BEGIN}{t}{END}{tail}")).unwrap();
    } else {
        assert_eq!(
            section,
            t,
            "the table of {} is not this run's: VISA_BLESS=1 rewrites it",
            page.display()
        );
    }
}

#[test]
fn every_line_of_intels_current_compiler_reads_prints_back_and_checks() {
    let repo = repo();
    let mut rows = Vec::new();
    let mut failures: Vec<Failure> = Vec::new();
    for device in DEVICES {
        let dir = repo.join("tests/modern/fixtures").join(device);
        let ks = kernels(&dir);
        assert!(
            !ks.is_empty(),
            "no fixtures in {}: run tests/modern/regen",
            dir.display()
        );
        let mut r = Row::default();
        for (k, funcs) in &ks {
            one(device, k, funcs, &mut r, &mut failures);
        }
        let platform = ks.first().and_then(|(k, _)| {
            let text = std::fs::read_to_string(k).ok()?;
            platform_line(&text).map(str::to_string)
        });
        rows.push((format!("{device} ({})", platform.unwrap_or_default()), r));
    }
    let known = |f: &Failure| {
        KNOWN.iter().position(|k| {
            k.stage == f.1
                && (k.devices.contains(&"*") || k.devices.contains(&f.0.as_str()))
                && (k.word == "*" || k.word == f.2)
        })
    };
    let mut seen = BTreeSet::new();
    let mut unknown: BTreeMap<(String, Stage, String), Vec<String>> = BTreeMap::new();
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
    let t = table(&rows);
    println!("{t}");
    for (i, k) in KNOWN.iter().enumerate() {
        let n = failures.iter().filter(|f| known(f) == Some(i)).count();
        println!(
            "known: {:?} `{}` on {:?}: {n} failure(s): {}",
            k.stage, k.word, k.devices, k.why
        );
    }
    for ((device, stage, w), what) in &unknown {
        println!(
            "UNKNOWN {device} {stage:?} `{w}`: {} failure(s), first: {}",
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
    page_table(&repo.join("README.md"), &t);
    page_table(&repo.join("docs/text.md"), &t);
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

#[test]
fn committed_fixtures_are_what_intels_current_compiler_makes() {
    let repo = repo();
    let root = std::env::var_os("INTEL_MODERN_ROOT")
        .map_or_else(|| PathBuf::from("/opt/intel-modern"), PathBuf::from);
    let tool = repo.join("../shared/tools/intel-modern/intel-modern");
    if !tool.exists() || !root.is_dir() {
        let why = format!(
            "{} or its root {} absent (run `intel-modern setup`)",
            tool.display(),
            root.display()
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "{why}; CI is set: Intel's current compiler must be set up"
        );
        println!("skipped: {why}");
        return;
    }
    let out = std::process::Command::new(repo.join("tests/modern/regen"))
        .arg("--check")
        .output()
        .expect("tests/modern/regen runs");
    assert!(
        out.status.success(),
        "tests/modern/regen --check: exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
