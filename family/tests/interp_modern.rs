//! The interpreter on what Intel's current compiler writes, checked against pocl. Every kernel
//! of `tests/interp/kernels/manifest.txt` is compiled by ocloc 26.27 (`intel-modern ocl`) for
//! each device of [`DEVICES`], which gives its vISA text (`OUT/<kernel>.visaasm`), the
//! program's zeinfo (`OUT/<file>.zeinfo`) and its program binary (`OUT/<file>.bin`, a zebin
//! whose `.ze_info` section is that zeinfo); `visa run OUT/<kernel>.visaasm --program
//! OUT/<file>.bin --check` runs it with the layout zeinfo gives and the program-scope data of
//! the binary (which zeinfo alone lacks), and every buffer it leaves
//! is compared with what pocl leaves by the manifest's rule (the harness of `interp_pocl.rs`,
//! `support/pocl.rs`).
//!
//! A kernel that does not compile, does not run or differs is listed in [`EXPECTED_FAILURES`]
//! with its root cause (by name, or every kernel of its file); the list only shrinks (a listed kernel that matches fails the test, and
//! `VISA_BLESS=1` removes its entry). The per-device counts are the `interp-modern` table of
//! `docs/interpreter.md` and `README.md`, which `VISA_BLESS=1` rewrites. Skipped with the reason when Intel's
//! current compiler is not set up (`intel-modern setup`), failing under `CI`.

#![cfg(not(family_absent))]

#[path = "support/pocl.rs"]
mod pocl;

use pocl::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The devices, in the order of the table.
const DEVICES: &[&str] = &[
    "tgllp", "acm-g10", "pvc", "mtl", "arl-h", "lnl-m", "bmg", "ptl", "nvl-p", "cri",
];

/// Runs that do not match pocl: (device or `*`, kernel, its file (every kernel of it) or `*`, the
/// root cause). Shrink only.
const EXPECTED_FAILURES: &[(&str, &str, &str)] = &[
    ("pvc", "images.cl", "ocloc 26.27 refuses images on pvc (\"For PVC platform images should not be used\"): nothing to run"),
    ("pvc", "sampler.cl", "ocloc 26.27 refuses images on pvc (\"For PVC platform images should not be used\"): nothing to run"),
    ("pvc", "image_3d_write.cl", "ocloc 26.27 refuses images on pvc (\"For PVC platform images should not be used\"): nothing to run"),
    ("nvl-p", "u64_arith", ULONG_MUL_HI),
    ("cri", "u64_arith", ULONG_MUL_HI),
    ("cri", "image_3d_write.cl", "ocloc 26.27 has no cl_khr_3d_image_writes on cri (\"use of type '__write_only image3d_t' requires cl_khr_3d_image_writes support\"): nothing to run"),
];

/// IGC 2.40's `mul_hi(ulong, ulong)` on Xe3P.
const ULONG_MUL_HI: &str = "differs in mul_hi(ulong, ulong) (element 4i+3), a defect of IGC 2.40 on Xe3P: where a kernel takes both x * y and mul_hi(x, y), its pattern match pairs them into one wide multiply (`PatternMatchPass.cpp`, `isUnsigned`), and `EmitPass::emitWideMul` makes only the high destination unsigned while `EmitPass::Mul64` takes the signedness of the high halves from the low destination (`q`): the text multiplies `d` high halves, the instructions it writes for mul_hi(long, long) (kernel `i64_mul_hi`, which matches pocl); kernel `u64_mul_hi`, mul_hi(ulong, ulong) alone, gets `ud` high halves and matches pocl";

/// Every kernel of `files` compiled for `device` into `out` (`out/<file stem>/`); a file that
/// does not compile gives its error.
fn compile(
    tool: &Path,
    kernels_dir: &Path,
    files: &[&str],
    device: &str,
    out: &Path,
) -> BTreeMap<String, Result<(), String>> {
    let mut r = BTreeMap::new();
    for f in files {
        let stem = f.strip_suffix(".cl").unwrap_or(f);
        let dir = out.join(stem);
        let res = run(Command::new(tool)
            .arg("ocl")
            .arg(kernels_dir.join(f))
            .arg(device)
            .arg(&dir))
        .map(|_| ())
        .map_err(|e| {
            let last: Vec<&str> = e.lines().filter(|l| !l.trim().is_empty()).collect();
            last.iter()
                .rev()
                .take(3)
                .rev()
                .cloned()
                .collect::<Vec<_>>()
                .join(" / ")
        });
        r.insert(stem.to_string(), res);
    }
    r
}

/// The text of kernel `k` in `dir`: `<k>.visaasm`, or when ocloc built several widths, the one
/// of the SIMD size zeinfo names.
fn kernel_text(dir: &Path, zeinfo: &Path, k: &str) -> Result<PathBuf, String> {
    let plain = dir.join(format!("{k}.visaasm"));
    if plain.is_file() {
        return Ok(plain);
    }
    let text = std::fs::read_to_string(zeinfo).map_err(|e| format!("{}: {e}", zeinfo.display()))?;
    let info =
        visa::machine::zeinfo::parse(&text).map_err(|e| format!("{}:{e}", zeinfo.display()))?;
    let simd = info.kernel(k).ok_or("zeinfo has no such kernel")?.simd;
    let wide = dir.join(format!("{k}_simd{simd}.visaasm"));
    if wide.is_file() {
        Ok(wide)
    } else {
        Err(format!("no {k}.visaasm nor {k}_simd{simd}.visaasm"))
    }
}

const BEGIN: &str = "<!-- interp-modern: begin (written by family/tests/interp_modern.rs; VISA_BLESS=1 rewrites it) -->\n";
const END: &str = "<!-- interp-modern: end -->";

/// The per-device table: kernels that match pocl, differ, do not run, do not compile.
fn table(
    kernels: &[Kernel],
    outcomes: &BTreeMap<(usize, usize), Outcome>,
    not_compiled: &BTreeMap<(usize, usize), String>,
) -> String {
    let mut t = format!(
        "{} kernels per device, compiled by ocloc 26.27 (IGC 2.40), run from their vISA text with \
         `--program` (their zeinfo and program-scope data):\n\n| device | match pocl | differ | do not run | do not compile |\n| --- | --- | --- | --- | --- |\n",
        kernels.len()
    );
    for (d, device) in DEVICES.iter().enumerate() {
        let count = |f: &dyn Fn(&Outcome) -> bool| {
            (0..kernels.len())
                .filter(|&k| !not_compiled.contains_key(&(d, k)) && f(&outcomes[&(d, k)]))
                .count()
        };
        let nc = (0..kernels.len())
            .filter(|&k| not_compiled.contains_key(&(d, k)))
            .count();
        let _ = writeln!(
            t,
            "| {device} | {} | {} | {} | {nc} |",
            count(&|o| *o == Outcome::Match),
            count(&|o| matches!(o, Outcome::Differs(_))),
            count(&|o| matches!(o, Outcome::Fails(_))),
        );
    }
    t
}

/// Intel's current compiler, or why it is not there.
fn intel_modern(repo: &Path) -> Option<PathBuf> {
    let root = std::env::var_os("INTEL_MODERN_ROOT")
        .map_or_else(|| PathBuf::from("/opt/intel-modern"), PathBuf::from);
    let tool = repo.join("../shared/tools/intel-modern/intel-modern");
    if tool.exists() && root.is_dir() {
        return Some(tool);
    }
    must_have(&format!(
        "{} or its root {} absent (run `intel-modern setup`)",
        tool.display(),
        root.display()
    ));
    None
}

/// pocl's buffers for every kernel (one run each; `interp_pocl.rs` checks they repeat).
fn pocl_outputs(
    pocl: &Path,
    kernels_dir: &Path,
    kernels: &[Kernel],
    tmp: &Path,
) -> Vec<Vec<Vec<u8>>> {
    write_inputs(kernels, &tmp.join("in"));
    par_map(kernels, |k| {
        let src = kernels_dir.join(&k.file);
        let tool = [pocl.as_os_str(), src.as_os_str()];
        launch(
            &tool,
            k,
            &tmp.join("in").join(&k.name),
            &tmp.join("pocl").join(&k.name),
        )
        .unwrap_or_else(|e| panic!("the oracle fails: {}: {e}", k.name))
    })
}

/// One kernel on `visa run` with its zeinfo, against pocl's buffers.
fn run_one(
    visa: &str,
    dir: &Path,
    k: &Kernel,
    tmp: &Path,
    device: &str,
    pocl: &[Vec<u8>],
) -> Outcome {
    let stem = k.file.strip_suffix(".cl").unwrap_or(&k.file);
    let zeinfo = dir.join(stem).join(format!("{stem}.zeinfo"));
    let text = match kernel_text(&dir.join(stem), &zeinfo, &k.name) {
        Ok(t) => t,
        Err(e) => return Outcome::Fails(e),
    };
    // The program binary: its `.ze_info` is the zeinfo beside it, and it holds the
    // program-scope data (`f32_pow`'s table, `constant_program_scope`).
    let program = dir.join(stem).join(format!("{stem}.bin"));
    let tool = [
        visa.as_ref(),
        "run".as_ref(),
        text.as_os_str(),
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
    let elems = k.args.iter().filter_map(KArg::output);
    for (b, ((elem, p), o)) in elems.zip(pocl).zip(&ours).enumerate() {
        if let Some(d) = compare(elem, k.rule, p, o) {
            return Outcome::Differs(format!("buffer {b}: {d}"));
        }
    }
    Outcome::Match
}

#[test]
fn the_interpreter_runs_the_current_compilers_kernels_as_pocl_does() {
    let Some(repo) = repo() else { return };
    let Some(tool) = intel_modern(&repo) else {
        return;
    };
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
    let tmp = tempdir("interp-modern");
    let mut files: Vec<&str> = kernels.iter().map(|k| k.file.as_str()).collect();
    files.sort();
    files.dedup();
    let compiled = par_map(DEVICES, |device| {
        compile(&tool, &kernels_dir, &files, device, &tmp.join(device))
    });
    let pocl_out = pocl_outputs(&pocl, &kernels_dir, &kernels, &tmp);

    let mut not_compiled = BTreeMap::new();
    let jobs: Vec<(usize, usize)> = (0..DEVICES.len())
        .flat_map(|d| (0..kernels.len()).map(move |k| (d, k)))
        .collect();
    for &(d, ki) in &jobs {
        let stem = kernels[ki].file.trim_end_matches(".cl");
        if let Err(e) = &compiled[d][stem] {
            not_compiled.insert((d, ki), format!("does not compile: {e}"));
        }
    }
    let results = par_map(&jobs, |&(d, ki)| match not_compiled.get(&(d, ki)) {
        Some(e) => Outcome::Fails(e.clone()),
        None => run_one(
            visa,
            &tmp.join(DEVICES[d]),
            &kernels[ki],
            &tmp,
            DEVICES[d],
            &pocl_out[ki],
        ),
    });
    let outcomes: BTreeMap<(usize, usize), Outcome> = jobs.into_iter().zip(results).collect();
    report(&repo, &kernels, &outcomes, &not_compiled);
}

/// Checks every failure is expected and every expected failure still fails; writes or checks
/// the table.
fn report(
    repo: &Path,
    kernels: &[Kernel],
    outcomes: &BTreeMap<(usize, usize), Outcome>,
    not_compiled: &BTreeMap<(usize, usize), String>,
) {
    let expected = |d: usize, k: &Kernel| {
        EXPECTED_FAILURES.iter().position(|(ed, ek, _)| {
            (*ed == "*" || *ed == DEVICES[d]) && (*ek == "*" || *ek == k.name || *ek == k.file)
        })
    };
    let mut unexpected = Vec::new();
    let mut seen = vec![false; EXPECTED_FAILURES.len()];
    for (&(d, ki), o) in outcomes {
        let name = &kernels[ki].name;
        match o {
            Outcome::Match => println!("{}: {name}: matches pocl", DEVICES[d]),
            Outcome::Differs(w) | Outcome::Fails(w) => {
                println!("{}: {name}: {w}", DEVICES[d]);
                match expected(d, &kernels[ki]) {
                    Some(i) => seen[i] = true,
                    None => unexpected.push(format!("{} {name}: {w}", DEVICES[d])),
                }
            }
        }
    }
    let stale: Vec<String> = EXPECTED_FAILURES
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|((d, k, _), _)| format!("(\"{d}\", \"{k}\","))
        .collect();
    let t = table(kernels, outcomes, not_compiled);
    println!("{t}");
    // The table is in docs/interpreter.md and, beside the text results, in README.md.
    let pages = [repo.join("docs/interpreter.md"), repo.join("README.md")];
    let bless = std::env::var_os("VISA_BLESS").is_some();
    if bless {
        for page_path in &pages {
            let page = std::fs::read_to_string(page_path).unwrap();
            let (head, rest) = page
                .split_once(BEGIN)
                .unwrap_or_else(|| panic!("{} has the interp-modern markers", page_path.display()));
            let (_, tail) = rest.split_once(END).unwrap_or_else(|| {
                panic!("{} has the interp-modern end marker", page_path.display())
            });
            std::fs::write(page_path, format!("{head}{BEGIN}{t}{END}{tail}")).unwrap();
        }
        let source_path = repo.join("family/tests/interp_modern.rs");
        let source = std::fs::read_to_string(&source_path).unwrap();
        let kept: Vec<&str> = source
            .split_inclusive('\n')
            .filter(|l| !stale.iter().any(|g| l.trim_start().starts_with(g.as_str())))
            .collect();
        std::fs::write(&source_path, kept.concat()).unwrap();
    }
    assert!(
        unexpected.is_empty(),
        "{} kernel run(s) fail and are not in EXPECTED_FAILURES:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        bless || stale.is_empty(),
        "EXPECTED_FAILURES entries that now match pocl (remove them, or VISA_BLESS=1): {stale:?}"
    );
    if !bless {
        for page_path in &pages {
            let page = std::fs::read_to_string(page_path).unwrap();
            let section = page
                .split_once(BEGIN)
                .and_then(|(_, r)| r.split_once(END))
                .map(|(s, _)| s);
            assert_eq!(
                section,
                Some(t.as_str()),
                "the interp-modern table of {} is not this run's: VISA_BLESS=1 rewrites it",
                page_path.display()
            );
        }
    }
}
