//! Intel's own vISA text for our OpenCL kernels (`tests/ocl/kernels/*.cl`), compiled by ocloc
//! for tgllp, acm-g10 and pvc with Intel's shader dump, is committed under
//! `tests/ocl/fixtures/<device>/` so that the text tests run without Intel's tools. This test
//! compiles every kernel again with the installed tools and fails when the committed text
//! differs; `VISA_BLESS=1 cargo test -p visa-tests --test ocl_fixtures` rewrites the fixtures.
//! Without ocloc it skips with the reason printed; with `CI` set it fails instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const DEVICES: [&str; 3] = ["tgllp", "acm-g10", "pvc"];

fn kernels_dir() -> PathBuf {
    visa_tests::root().join("tests/ocl/kernels")
}

fn fixtures_dir() -> PathBuf {
    visa_tests::root().join("tests/ocl/fixtures")
}

/// `.kernel "name"` or `.global_function "name"` of a dump.
fn routine_name(text: &str) -> Option<(&'static str, String)> {
    for line in text.lines().take(8) {
        for (directive, kind) in [(".kernel ", "kernel"), (".global_function ", "func")] {
            if let Some(rest) = line.strip_prefix(directive) {
                return Some((kind, rest.trim().trim_matches('"').to_string()));
            }
        }
    }
    None
}

/// Compiles one kernel file for one device; returns fixture path → Intel's text.
fn compile(cl: &Path, device: &str) -> Result<BTreeMap<String, String>, String> {
    let dump = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = Command::new("ocloc")
        .args(["compile", "-q", "-file"])
        .arg(cl)
        .args(["-device", device, "-output_no_suffix", "-out_dir"])
        .arg(dump.path().join("bin"))
        .env("IGC_ShaderDumpEnable", "1")
        .env("IGC_DumpToCustomDir", dump.path())
        .output()
        .map_err(|e| format!("cannot run ocloc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "ocloc failed on {} for {device}: {}",
            cl.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let stem = cl
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dump.path()).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_none_or(|e| e != "visaasm") {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let (kind, name) = routine_name(&text)
            .ok_or_else(|| format!("{} names no kernel or function", path.display()))?;
        let file = match kind {
            "kernel" => format!("{device}/{stem}.{name}.visaasm"),
            _ => format!("{device}/{stem}.func.{name}.visaasm"),
        };
        files.insert(file, text);
    }
    if files.is_empty() {
        return Err(format!(
            "ocloc wrote no vISA text for {} on {device}",
            cl.display()
        ));
    }
    Ok(files)
}

fn ocloc_available() -> bool {
    let found = Command::new("ocloc").arg("--help").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "ocloc is missing and CI is set: .ci/run installs Intel's tools"
        );
        eprintln!(
            "skipped: ocloc is not installed (apt-get install libigc-tools intel-opencl-icd)"
        );
    }
    found
}

fn committed() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for device in DEVICES {
        let Ok(dir) = std::fs::read_dir(fixtures_dir().join(device)) else {
            continue;
        };
        for entry in dir.flatten() {
            let path = entry.path();
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if let Ok(text) = std::fs::read_to_string(&path) {
                out.insert(format!("{device}/{name}"), text);
            }
        }
    }
    out
}

#[test]
fn the_kernels_cover_what_the_text_tests_need() {
    let mut names: Vec<String> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cl"))
        .collect();
    names.sort();
    assert!(names.len() >= 15, "{names:?}");
    let fixtures = committed();
    for cl in &names {
        let stem = cl.trim_end_matches(".cl");
        for device in DEVICES {
            assert!(
                fixtures.keys().any(|k| k.starts_with(&format!("{device}/{stem}."))),
                "no fixture of {cl} for {device}: run VISA_BLESS=1 cargo test -p visa-tests --test ocl_fixtures"
            );
        }
    }
}

#[test]
fn committed_text_is_what_intels_compiler_prints() {
    if !ocloc_available() {
        return;
    }
    let mut jobs: Vec<(PathBuf, &str)> = Vec::new();
    let mut cls: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    cls.sort();
    for cl in &cls {
        for device in DEVICES {
            jobs.push((cl.clone(), device));
        }
    }
    // Two workers: the machines have two cores.
    let results: Vec<Result<BTreeMap<String, String>, String>> = std::thread::scope(|s| {
        let halves: Vec<_> = jobs.chunks(jobs.len().div_ceil(2)).collect();
        let handles: Vec<_> = halves
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|(cl, d)| compile(cl, d))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut fresh = BTreeMap::new();
    for r in results {
        fresh.extend(r.unwrap_or_else(|e| panic!("{e}")));
    }
    if std::env::var_os("VISA_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(fixtures_dir());
        for (path, text) in &fresh {
            let to = fixtures_dir().join(path);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::write(to, text).unwrap();
        }
        eprintln!("wrote {} fixtures", fresh.len());
        return;
    }
    let old = committed();
    let missing: Vec<_> = fresh.keys().filter(|k| !old.contains_key(*k)).collect();
    let extra: Vec<_> = old.keys().filter(|k| !fresh.contains_key(*k)).collect();
    let differ: Vec<_> = fresh
        .iter()
        .filter(|(k, v)| old.get(*k).is_some_and(|o| o != *v))
        .map(|(k, _)| k)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && differ.is_empty(),
        "fixtures differ from Intel's print: missing {missing:?}, no longer printed {extra:?}, \
         changed {differ:?}; run VISA_BLESS=1 cargo test -p visa-tests --test ocl_fixtures"
    );
}
