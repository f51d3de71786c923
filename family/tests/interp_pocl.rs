//! The interpreter checked against pocl. Every kernel of `tests/interp/kernels/manifest.txt`
//! (OpenCL C written for this test) is compiled by Intel's ocloc (`intel-isa ocl`) for acm-g10
//! with `-revision_id 0` (the legacy gather/scatter messages of `real-kernels/dg2`) and for
//! tgllp, run by `visa run` on the interpreter (with the layout and program-scope data of the
//! patch-token program binary ocloc wrote beside the kernels: `--program F.bin`) and by
//! `pocl-run` (the workspace's
//! `tests/pocl-run`, the same command line on pocl), and every buffer both leave is compared by
//! the manifest's rule: bit for bit, or within a stated ULP bound for the float operations
//! OpenCL does not require correctly rounded.
//!
//! The oracle itself must hold: every kernel compiles for both platforms, and pocl runs every
//! kernel, twice, with the same bytes. A kernel the interpreter cannot run yet, or runs to other
//! bytes, is listed in [`EXPECTED_FAILURES`] with the reason; the list only shrinks (a listed
//! kernel that matches fails the test until its entry is removed). While `visa` has no `run`
//! subcommand, every kernel is an expected failure. The per-kernel table in `docs/interpreter.md`
//! (between the `interp-pocl` markers) is this test's report; `VISA_BLESS=1` rewrites it and removes
//! the entries of [`EXPECTED_FAILURES`] that now match from this file in the repository.

#![cfg(not(family_absent))]

#[path = "support/pocl.rs"]
mod pocl;
mod support;

use pocl::*;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The two platforms: (column name, ocloc device, extra ocloc arguments). `visa run` takes the
/// platform from the file (the GEN binary ocloc wrote beside the vISA).
const PLATFORMS: &[(&str, &str, &str)] = &[
    ("acm-g10 (legacy)", "acm-g10", "-revision_id 0"),
    ("tgllp", "tgllp", ""),
];

/// Kernels the interpreter does not run to pocl's bytes yet: (platform column or `*`, kernel or
/// `*`, why: the root cause found for each, on sem3, 2026-11-24). Shrink only: each entry must still
/// fail (`VISA_BLESS=1` removes those that match); the test prints the entries a run needs.
const EXPECTED_FAILURES: &[(&str, &str, &str)] = &[];

/// Opcodes among those that make 99 % of `real-kernels/dg2`'s instructions that no kernel here
/// produces, and why: (mnemonic, why). Shrink only.
const NOT_COVERED: &[(&str, &str)] = &[];

/// Each kernel's `.isa` for one platform, from every `.cl` of the manifest.
fn compile(
    intel_isa: &Path,
    kernels_dir: &Path,
    files: &[&str],
    device: &str,
    args: &str,
    out: &Path,
) -> Result<(), String> {
    for f in files {
        let mut cmd = Command::new(intel_isa);
        cmd.arg("ocl").arg(kernels_dir.join(f)).arg(device).arg(out);
        cmd.env("INTEL_ISA_WORK", out.join("work"))
            .env("INTEL_ISA_OCLOC_ARGS", args);
        run(&mut cmd).map_err(|e| format!("intel-isa ocl {f} {device}: {e}"))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Opcode coverage

/// How often each mnemonic starts an instruction line of Intel's vISA text (`add`, `cmp`,
/// `fence_local`; the part before the first `.`, after a predicate).
fn mnemonics(texts: impl Iterator<Item = String>, counts: &mut BTreeMap<String, usize>) {
    for text in texts {
        for line in text.lines().map(str::trim) {
            if line.is_empty()
                || line.starts_with('.')
                || line.starts_with("//")
                || line.ends_with(':')
            {
                continue;
            }
            let line = if line.starts_with('(') {
                line.split_once(')').map_or(line, |x| x.1.trim_start())
            } else {
                line
            };
            let word = line.split([' ', '.']).next().unwrap_or("");
            *counts.entry(word.to_string()).or_default() += 1;
        }
    }
}

fn visaasm_texts(dir: &Path) -> impl Iterator<Item = String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "visaasm"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
}

/// The opcodes that make 99 % of the dg2 set's instructions, most frequent first, and which of
/// them the kernels' code (compiled into `ours`) lacks.
fn coverage(shared: &Path, ours: &Path) -> (Vec<String>, Vec<String>) {
    let mut dg2 = BTreeMap::new();
    mnemonics(visaasm_texts(&shared.join("real-kernels/dg2")), &mut dg2);
    let mut mine = BTreeMap::new();
    mnemonics(visaasm_texts(ours), &mut mine);
    let total: usize = dg2.values().sum();
    let mut by_count: Vec<(String, usize)> = dg2.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let (mut top, mut sum) = (Vec::new(), 0);
    for (m, n) in by_count {
        if sum * 100 >= total * 99 {
            break;
        }
        sum += n;
        top.push(m);
    }
    let missing = top
        .iter()
        .filter(|m| !mine.contains_key(*m))
        .cloned()
        .collect();
    (top, missing)
}

// ---------------------------------------------------------------------------------------------
// The test

const BEGIN: &str = "<!-- interp-pocl: begin (written by family/tests/interp_pocl.rs; VISA_BLESS=1 rewrites it) -->\n";
const END: &str = "<!-- interp-pocl: end -->";

fn table(
    kernels: &[Kernel],
    outcomes: &BTreeMap<(usize, usize), Outcome>,
    has_run: bool,
    (top, missing): &(Vec<String>, Vec<String>),
) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Their code for acm-g10 has {} of the {} opcodes that make 99 % of the instructions of `real-kernels/dg2`{}.\n",
        top.len() - missing.len(),
        top.len(),
        if missing.is_empty() { String::new() } else { format!(" (not: {})", missing.join(", ")) }
    );
    let matched: Vec<usize> = (0..PLATFORMS.len())
        .map(|p| {
            (0..kernels.len())
                .filter(|&k| outcomes[&(p, k)] == Outcome::Match)
                .count()
        })
        .collect();
    let _ = writeln!(
        t,
        "{} kernels; match pocl: {}.",
        kernels.len(),
        PLATFORMS
            .iter()
            .zip(&matched)
            .map(|(p, n)| format!("{n} on {}", p.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !has_run {
        t += "`visa run` does not exist yet: every kernel is an expected failure.\n";
    }
    t += "\n| kernel | file | comparison |";
    for p in PLATFORMS {
        let _ = write!(t, " {} |", p.0);
    }
    t += "\n| --- | --- | --- |";
    t += &" --- |".repeat(PLATFORMS.len());
    t += "\n";
    for (ki, k) in kernels.iter().enumerate() {
        let rule = match k.rule {
            Rule::Exact => "exact".to_string(),
            Rule::Ulp(n) => format!("≤ {n} ulp"),
        };
        let _ = write!(t, "| `{}` | {} | {rule} |", k.name, k.file);
        for p in 0..PLATFORMS.len() {
            t += match outcomes[&(p, ki)] {
                Outcome::Match => " matches |",
                Outcome::Differs(_) => " differs |",
                Outcome::Fails(_) => " does not run |",
            };
        }
        t += "\n";
    }
    t
}

#[test]
fn the_interpreter_leaves_the_buffers_pocl_leaves() {
    let Some(shared) = support::shared() else {
        return;
    };
    let Some(repo) = repo() else { return };
    let intel_isa = shared.join("tools/intel-isa/intel-isa");
    let Some(visa) = option_env!("CARGO_BIN_EXE_visa") else {
        return must_have("the `visa` binary (run these tests with `--features cli`)");
    };
    let pocl = match pocl_run(&repo) {
        Ok(p) => p,
        Err(e) => return must_have(&format!("pocl-run does not build: {e}")),
    };
    let kernels_dir = repo.join("tests/interp/kernels");
    let kernels = manifest(&std::fs::read_to_string(kernels_dir.join("manifest.txt")).unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    let tmp = tempdir("interp-pocl");

    // Intel compiles every kernel for both platforms (one ocloc run per file and platform).
    let mut files: Vec<&str> = kernels.iter().map(|k| k.file.as_str()).collect();
    files.sort();
    files.dedup();
    let compiled = par_map(PLATFORMS, |(_, device, args)| {
        compile(
            &intel_isa,
            &kernels_dir,
            &files,
            device,
            args,
            &tmp.join(device),
        )
    });
    for r in compiled {
        r.unwrap_or_else(|e| panic!("{e}"));
    }
    let cover = coverage(&shared, &tmp.join(PLATFORMS[0].1));
    let uncovered: Vec<&String> = cover
        .1
        .iter()
        .filter(|m| !NOT_COVERED.iter().any(|(n, _)| n == m))
        .collect();
    assert!(
        uncovered.is_empty(),
        "opcodes of the dg2 set's 99 % that no kernel produces: {uncovered:?}"
    );
    let stale: Vec<&str> = NOT_COVERED
        .iter()
        .filter(|(n, _)| !cover.1.iter().any(|m| m == n))
        .map(|(n, _)| *n)
        .collect();
    assert!(
        stale.is_empty(),
        "NOT_COVERED entries the kernels now produce (remove them): {stale:?}"
    );
    for (_, device, _) in PLATFORMS {
        let mut isas: Vec<String> = std::fs::read_dir(tmp.join(device))
            .unwrap()
            .flatten()
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".isa"))
                    .map(String::from)
            })
            .collect();
        isas.sort();
        let mut names: Vec<String> = kernels.iter().map(|k| k.name.clone()).collect();
        names.sort();
        assert_eq!(
            isas, names,
            "the kernels Intel compiled for {device} are not the manifest's (each kernel once)"
        );
    }

    // The inputs, then pocl's outputs: every kernel runs on pocl, twice to the same bytes.
    write_inputs(&kernels, &tmp.join("in"));
    let pocl_out = par_map(&kernels, |k| {
        let src = kernels_dir.join(&k.file);
        let tool = [pocl.as_os_str(), src.as_os_str()];
        let inputs = tmp.join("in").join(&k.name);
        let first = launch(&tool, k, &inputs, &tmp.join("pocl").join(&k.name))?;
        let again = launch(&tool, k, &inputs, &tmp.join("pocl2").join(&k.name))?;
        if first != again {
            return Err(
                "two runs on pocl left different bytes: the kernel is not deterministic"
                    .to_string(),
            );
        }
        Ok(first)
    });
    let bad: Vec<String> = kernels
        .iter()
        .zip(&pocl_out)
        .filter_map(|(k, r)| r.as_ref().err().map(|e| format!("{}: {e}", k.name)))
        .collect();
    assert!(bad.is_empty(), "the oracle fails:\n{}", bad.join("\n"));
    let by_name = |n: &str| {
        let i = kernels
            .iter()
            .position(|k| k.name == n)
            .unwrap_or_else(|| panic!("no kernel {n} in the manifest"));
        (tmp.join("in").join(n), pocl_out[i].as_ref().unwrap())
    };
    oracle_sanity(by_name);

    // The interpreter, per platform and kernel.
    let has_run = match run(Command::new(visa).args(["run", "--help"])) {
        Ok(_) => true,
        Err(e) if e.contains("unrecognized subcommand") => false,
        Err(e) => panic!("`visa run --help`: {e}"),
    };
    let jobs: Vec<(usize, usize)> = (0..PLATFORMS.len())
        .flat_map(|p| (0..kernels.len()).map(move |k| (p, k)))
        .collect();
    let results = par_map(&jobs, |&(p, ki)| {
        let (_, device, _) = PLATFORMS[p];
        let k = &kernels[ki];
        if !has_run {
            return Outcome::Fails("`visa` has no `run` subcommand".into());
        }
        let isa = tmp.join(device).join(format!("{}.isa", k.name));
        // The layout and program-scope data from ocloc's program binary (`<file>.bin`, patch
        // tokens); `--check`: these kernels are correct, so any finding (out of bounds, a
        // divergent barrier, a race) fails the run.
        let stem = k.file.strip_suffix(".cl").unwrap_or(&k.file);
        let program = tmp.join(device).join(format!("{stem}.bin"));
        let tool = [
            visa.as_ref(),
            "run".as_ref(),
            isa.as_os_str(),
            "--program".as_ref(),
            program.as_os_str(),
            "--check".as_ref(),
        ];
        let ours = match launch(
            &tool,
            k,
            &tmp.join("in").join(&k.name),
            &tmp.join("visa").join(device).join(&k.name),
        ) {
            Ok(b) => b,
            Err(e) => return Outcome::Fails(e),
        };
        let pocl = pocl_out[ki].as_ref().unwrap();
        let elems = k.args.iter().filter_map(KArg::output);
        for (b, ((elem, p), o)) in elems.zip(pocl).zip(&ours).enumerate() {
            if let Some(d) = compare(elem, k.rule, p, o) {
                return Outcome::Differs(format!("buffer {b}: {d}"));
            }
        }
        Outcome::Match
    });
    let outcomes: BTreeMap<(usize, usize), Outcome> = jobs.into_iter().zip(results).collect();

    // Report; every failure expected, every expected failure still failing.
    let expected = |p: usize, k: &str| {
        EXPECTED_FAILURES.iter().position(|(ep, ek, _)| {
            (*ep == "*" || *ep == PLATFORMS[p].0) && (*ek == "*" || *ek == k)
        })
    };
    let mut unexpected = Vec::new();
    let mut seen = vec![false; EXPECTED_FAILURES.len()];
    for (&(p, ki), o) in &outcomes {
        let name = &kernels[ki].name;
        let listed = expected(p, name);
        match o {
            Outcome::Match => println!("{}: {name}: matches pocl", PLATFORMS[p].0),
            Outcome::Differs(w) | Outcome::Fails(w) => {
                println!("{}: {name}: {w}", PLATFORMS[p].0);
                match listed {
                    Some(i) => seen[i] = true,
                    None if has_run => unexpected.push(format!("{} {name}: {w}", PLATFORMS[p].0)),
                    None => {}
                }
            }
        }
    }
    let stale: Vec<String> = EXPECTED_FAILURES
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|((p, k, why), _)| format!("{p} {k} ({why})"))
        .collect();

    let t = table(&kernels, &outcomes, has_run, &cover);
    println!("{t}");
    let page_path = repo.join("docs/interpreter.md");
    let page = std::fs::read_to_string(&page_path).unwrap();
    if std::env::var_os("VISA_BLESS").is_some() {
        let (head, rest) = page
            .split_once(BEGIN)
            .expect("docs/interpreter.md has the interp-pocl markers");
        let (_, tail) = rest
            .split_once(END)
            .expect("docs/interpreter.md has the interp-pocl end marker");
        std::fs::write(&page_path, format!("{head}{BEGIN}{t}{END}{tail}")).unwrap();
        // The list only shrinks, and a bless shrinks it: entries that now match are removed
        // from this file in the repository (new failures are never added: they need a reason).
        if has_run {
            let source_path = repo.join("family/tests/interp_pocl.rs");
            let source = std::fs::read_to_string(&source_path).unwrap();
            let gone: Vec<String> = EXPECTED_FAILURES
                .iter()
                .zip(&seen)
                .filter(|(_, s)| !**s)
                .map(|((p, k, _), _)| format!("(\"{p}\", \"{k}\","))
                .collect();
            let kept: Vec<&str> = source
                .split_inclusive('\n')
                .filter(|l| !gone.iter().any(|g| l.trim_start().starts_with(g.as_str())))
                .collect();
            std::fs::write(&source_path, kept.concat()).unwrap();
        }
    }
    if !unexpected.is_empty() {
        // What EXPECTED_FAILURES needs for this run to pass (each reason's last words), to paste
        // after reading each reason in full above.
        println!("entries for EXPECTED_FAILURES:");
        for (&(p, ki), o) in &outcomes {
            if let (Outcome::Differs(w) | Outcome::Fails(w), None) =
                (o, expected(p, &kernels[ki].name))
            {
                let why: String = w
                    .chars()
                    .rev()
                    .take(100)
                    .collect::<Vec<char>>()
                    .into_iter()
                    .rev()
                    .collect::<String>()
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\n', " ");
                println!(
                    "    (\"{}\", \"{}\", \"{why}\"),",
                    PLATFORMS[p].0, kernels[ki].name
                );
            }
        }
    }
    assert!(
        unexpected.is_empty(),
        "{} kernel run(s) differ from pocl and are not in EXPECTED_FAILURES:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    let blessed = std::env::var_os("VISA_BLESS").is_some();
    assert!(
        !has_run || blessed || stale.is_empty(),
        "EXPECTED_FAILURES entries that now match pocl (remove them, or VISA_BLESS=1): {stale:?}"
    );
    let section = page
        .split_once(BEGIN)
        .and_then(|(_, rest)| rest.split_once(END))
        .map(|(s, _)| s);
    if std::env::var_os("VISA_BLESS").is_none() {
        assert_eq!(section, Some(t.as_str()), "the interp-pocl table of docs/interpreter.md is not this run's: VISA_BLESS=1 rewrites it");
    }
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// pocl's results of a few kernels against this file's own arithmetic: the oracle's arguments,
/// ndranges and buffers go where the manifest says.
fn oracle_sanity<'a>(by_name: impl Fn(&str) -> (PathBuf, &'a Vec<Vec<u8>>)) {
    let input = |dir: &Path, i: usize| words(&std::fs::read(dir.join(format!("{i}.bin"))).unwrap());
    // u32_wrap: out[4i..] = a+b, a-b, a*b, 3a+5b+7 (wrapping).
    let (dir, out) = by_name("u32_wrap");
    let (a, b, o) = (input(&dir, 0), input(&dir, 1), words(&out[2]));
    for i in 0..a.len() {
        let want = [
            a[i].wrapping_add(b[i]),
            a[i].wrapping_sub(b[i]),
            a[i].wrapping_mul(b[i]),
        ];
        assert_eq!(o[4 * i..4 * i + 3], want, "pocl's u32_wrap, work-item {i}");
        assert_eq!(
            o[4 * i + 3],
            a[i].wrapping_mul(3)
                .wrapping_add(b[i].wrapping_mul(5))
                .wrapping_add(7)
        );
    }
    // ids_3d over 8,4,4 in groups of 4,2,2: local and group ids packed per work-item.
    let (_, out) = by_name("ids_3d");
    let o = words(&out[0]);
    for (z, y, x) in (0..4).flat_map(|z| (0..4).flat_map(move |y| (0..8).map(move |x| (z, y, x)))) {
        let i = (z * 4 + y) * 8 + x;
        assert_eq!(
            o[2 * i],
            ((z % 2) << 16 | (y % 2) << 8 | (x % 4)) as u32,
            "pocl's ids_3d local ids at {x},{y},{z}"
        );
        assert_eq!(
            o[2 * i + 1],
            ((z / 2) << 16 | (y / 2) << 8 | (x / 4)) as u32,
            "pocl's ids_3d group ids at {x},{y},{z}"
        );
    }
    // global_atomic_add: four sums of every fourth element.
    let (dir, out) = by_name("global_atomic_add");
    let a = input(&dir, 0);
    let sums: Vec<u32> = (0..4)
        .map(|j| {
            a.iter()
                .skip(j)
                .step_by(4)
                .fold(0u32, |s, x| s.wrapping_add(*x))
        })
        .collect();
    assert_eq!(words(&out[1]), sums, "pocl's global_atomic_add");
    // local_reduce: the sum of each group of 64.
    let (dir, out) = by_name("local_reduce");
    let a = input(&dir, 0);
    let sums: Vec<u32> = a
        .chunks(64)
        .map(|g| g.iter().fold(0u32, |s, x| s.wrapping_add(*x)))
        .collect();
    assert_eq!(words(&out[1]), sums, "pocl's local_reduce");

    // The ULP rules count on pocl's own error (the manifest's reasons): against f64 results of
    // the same inputs, pocl's functions are within these bounds.
    let floats = |b: &[u8]| -> Vec<f32> {
        b.chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let f = |dir: &Path, i: usize| floats(&std::fs::read(dir.join(format!("{i}.bin"))).unwrap());
    let within = |what: &str, got: &[f32], exact: Vec<f64>, bound: f64| {
        for (g, e) in got.iter().zip(exact) {
            let err = ulp_error(*g, e);
            assert!(
                err <= bound,
                "pocl's {what}: {g:e} is {err:.2} ulp from {e:e} (bound {bound})"
            );
        }
    };
    let every = |v: &[f32], n: usize, k: usize| -> Vec<f32> {
        v.iter().skip(k).step_by(n).copied().collect()
    };
    let (dir, out) = by_name("f32_exp_log");
    let (a, o) = (f(&dir, 0), floats(&out[1]));
    let pos = |x: &f32| (x.abs() + 0.5) as f64;
    within(
        "exp",
        &every(&o, 4, 0),
        a.iter().map(|x| (*x as f64).exp()).collect(),
        0.7,
    );
    within(
        "exp2",
        &every(&o, 4, 1),
        a.iter().map(|x| (*x as f64).exp2()).collect(),
        0.7,
    );
    within(
        "log",
        &every(&o, 4, 2),
        a.iter().map(|x| pos(x).ln()).collect(),
        0.7,
    );
    within(
        "log2",
        &every(&o, 4, 3),
        a.iter().map(|x| pos(x).log2()).collect(),
        0.7,
    );
    let (dir, out) = by_name("f32_trig");
    let (a, o) = (f(&dir, 0), floats(&out[1]));
    within(
        "sin",
        &every(&o, 2, 0),
        a.iter().map(|x| (*x as f64).sin()).collect(),
        1.2,
    );
    within(
        "cos",
        &every(&o, 2, 1),
        a.iter().map(|x| (*x as f64).cos()).collect(),
        1.2,
    );
    let (dir, out) = by_name("f32_pow");
    let (a, b, o) = (f(&dir, 0), f(&dir, 1), floats(&out[2]));
    within(
        "pow",
        &o,
        a.iter()
            .zip(&b)
            .map(|(x, y)| pos(x).powf(*y as f64))
            .collect(),
        0.7,
    );
    let (dir, out) = by_name("f32_div");
    let (a, b, o) = (f(&dir, 0), f(&dir, 1), floats(&out[2]));
    within(
        "x / y",
        &every(&o, 2, 0),
        a.iter()
            .zip(&b)
            .map(|(x, y)| *x as f64 / *y as f64)
            .collect(),
        0.5,
    );
    within(
        "1 / y",
        &every(&o, 2, 1),
        b.iter().map(|y| 1.0 / *y as f64).collect(),
        0.5,
    );
    let (dir, out) = by_name("f32_sqrt");
    let (a, o) = (f(&dir, 0), floats(&out[1]));
    within(
        "sqrt",
        &every(&o, 2, 0),
        a.iter().map(|x| (x.abs() as f64).sqrt()).collect(),
        0.5,
    );
    within(
        "rsqrt",
        &every(&o, 2, 1),
        a.iter()
            .map(|x| 1.0 / ((x.abs() + 1.0) as f64).sqrt())
            .collect(),
        1.01,
    );
}

/// `got`'s distance from `exact` in units of the last place of an f32 at `exact`.
fn ulp_error(got: f32, exact: f64) -> f64 {
    let e = exact.abs().log2().floor() as i32;
    (got as f64 - exact).abs() / 2f64.powi(e - 23)
}

/// A fresh scratch directory under the target dir (kept for inspection after a failure).

#[test]
fn ulps_count_through_zero_and_nan() {
    assert_eq!(ulps(1.0, 1.0), 0);
    assert_eq!(ulps(1.0, f32::from_bits(1.0f32.to_bits() + 3)), 3);
    assert_eq!(ulps(0.0, -0.0), 0);
    assert_eq!(ulps(f32::from_bits(1), -f32::from_bits(1)), 2);
    assert_eq!(ulps(f32::NAN, -f32::NAN), 0);
    assert_eq!(ulps(f32::NAN, 1.0), u64::MAX);
}

#[test]
fn patterns_fill_what_the_manifest_says() {
    assert_eq!(
        fill(Elem::I16, 3, &Pattern::Ramp(2.0, -1.0)),
        [0xff, 0xff, 1, 0, 3, 0]
    );
    assert_eq!(
        fill(Elem::U32, 3, &Pattern::Vals(vec![4294967295.0, 7.0])),
        [255, 255, 255, 255, 7, 0, 0, 0, 255, 255, 255, 255]
    );
    assert_eq!(
        fill(Elem::F32, 1, &Pattern::Ramp(0.0, 1.5)),
        1.5f32.to_le_bytes()
    );
    let r = fill(Elem::I32, 1000, &Pattern::Range(3, -5.0, 5.0));
    let v: Vec<i32> = r
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert!(v.iter().all(|x| (-5..=5).contains(x)) && v.contains(&-5) && v.contains(&5));
    let f = fill(Elem::F32, 1000, &Pattern::Range(4, -2.0, 2.0));
    assert!(f
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .all(|x| (-2.0..2.0).contains(&x)));
    // splitmix64 of seed 0, index 0: the published first output of splitmix64 seeded with 0.
    assert_eq!(mix(0, 0), 0xe220_a839_7b1d_cdaf);
}

#[test]
fn ulp_error_against_an_exact_value() {
    assert_eq!(ulp_error(1.0, 1.0), 0.0);
    assert_eq!(ulp_error(f32::from_bits(1.0f32.to_bits() + 1), 1.0), 1.0);
    assert_eq!(ulp_error(1.0, 1.0 + 2f64.powi(-24)), 0.5);
    assert_eq!(ulp_error(-3.0, -3.0 - 2f64.powi(-23)), 0.5);
}

#[test]
fn mnemonics_of_intel_text() {
    let text = ".decl V1 v_type=G type=d num_elts=8\n_main:\n    add (M1, 16) V1(0,0)<1> V1(0,0)<1;1,0> 0x1:d\n    (!P1) goto (M1, 16) L1\n    fence_local\n    lsc_load.ugm (M1, 16) V2:d32 flat[V3]:a64\n// comment\n    cmp.lt (M1, 16) P1 V1(0,0)<1;1,0> 0x0:d\n";
    let mut counts = BTreeMap::new();
    mnemonics(std::iter::once(text.to_string()), &mut counts);
    let got: Vec<(&str, usize)> = counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        got,
        [
            ("add", 1),
            ("cmp", 1),
            ("fence_local", 1),
            ("goto", 1),
            ("lsc_load", 1)
        ]
    );
}

#[test]
fn manifest_lines() {
    let k = manifest("# c\n\nk f.cl ulp:3 --global 8,2 --local 4,1 --buffer f32:16:range:1:-1:1 --scalar u32:7 --local-mem 64 -- why\n").unwrap();
    assert_eq!(
        (k[0].name.as_str(), k[0].file.as_str(), k[0].rule),
        ("k", "f.cl", Rule::Ulp(3))
    );
    assert_eq!((k[0].global.as_str(), k[0].local.as_str()), ("8,2", "4,1"));
    assert!(
        matches!(&k[0].args[..], [KArg::Buf { elem: Elem::F32, count: 16, pattern: Pattern::Range(1, _, _), constant: false }, KArg::Scalar(s), KArg::Local(64)] if s == "u32:7")
    );
    let err = |line: &str| manifest(line).unwrap_err();
    assert!(err("k f.cl ulp:3 --global 8 --local 4").contains("needs its reason"));
    assert!(err("k f.cl exact --global 8").contains("--global and --local are required"));
    assert!(
        err("k f.cl exact --global 8 --local 4 --buffer f32:4:hash:1")
            .contains("no pattern for F32")
    );
    assert!(err("x\nk f.cl exact --global 8 --local 4 --image a").starts_with("manifest.txt:1:"));
    let k = manifest("k f.cl exact --global 8 --local 4 --image 4,2:rgba-unorm8:wo:zero --image 4:r-f32:ro:ramp:1:0\n").unwrap();
    assert!(matches!(
        &k[0].args[..],
        [
            KArg::Image {
                written: true,
                elem: Elem::U8,
                count: 32,
                ..
            },
            KArg::Image {
                written: false,
                elem: Elem::F32,
                count: 4,
                ..
            }
        ]
    ));
    assert_eq!(
        k[0].args
            .iter()
            .filter_map(KArg::output)
            .collect::<Vec<_>>(),
        [Elem::U8]
    );
    assert!(
        err("k f.cl exact --global 8 --local 4 --image 4:bgra-f16:ro:zero")
            .contains("is no format")
    );
    assert!(
        err("k f.cl exact --global 8 --local 4 --image 4:r-f32:rw:zero")
            .contains("neither ro nor wo")
    );
    assert!(err("k f.cl exact --global 8 --local 4 --bogus 1").contains("`--bogus` is no option"));
}

#[test]
fn comparison_rules() {
    let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let one_up = f32::from_bits(2.0f32.to_bits() + 2);
    assert_eq!(
        compare(Elem::F32, Rule::Exact, &f(&[1.0, 2.0]), &f(&[1.0, 2.0])),
        None
    );
    assert!(
        compare(Elem::F32, Rule::Exact, &f(&[1.0, 2.0]), &f(&[1.0, one_up]))
            .unwrap()
            .contains("element 1")
    );
    assert_eq!(
        compare(Elem::F32, Rule::Ulp(2), &f(&[1.0, 2.0]), &f(&[1.0, one_up])),
        None
    );
    assert_eq!(
        compare(Elem::F32, Rule::Exact, &f(&[f32::NAN]), &f(&[-f32::NAN])),
        None
    );
    assert!(compare(Elem::I32, Rule::Ulp(5), &[1, 0, 0, 0], &[2, 0, 0, 0]).is_some());
    assert!(compare(Elem::I8, Rule::Exact, &[0xff], &[0x01])
        .unwrap()
        .contains("pocl -1, interpreter 1"));
}
