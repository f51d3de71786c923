//! Intel's files for every platform (`tests/ocl/fixtures`, `tests/intel/fixtures/asm`) are what
//! Intel's tools make now: `tests/intel/regen-fixtures --check` makes them all again (ocloc for
//! each device, GenX_IR for each platform) and lists every file that differs. Without Intel's
//! tools it skips with the reason printed; with `CI` set it fails instead. To rewrite the
//! fixtures: `tests/intel/regen-fixtures` (then run family/tests/intel_fixtures.rs, which
//! checks our reader, printer, assembler and validator on them, and rewrite the table of
//! `docs/conformance.md`).

use std::path::PathBuf;
use std::process::Command;

fn script() -> PathBuf {
    visa_tests::root().join("tests/intel/regen-fixtures")
}

/// `// devices: a b` of a kernel file, or every device.
fn devices_of(cl: &str) -> Vec<String> {
    let all = [
        "skl",
        "icllp",
        "tgllp",
        "dg1",
        "acm-g10",
        "acm-g10-rev0",
        "pvc",
    ];
    cl.lines()
        .take(3)
        .find_map(|l| l.strip_prefix("// devices:"))
        .map_or_else(
            || all.map(String::from).to_vec(),
            |d| d.split_whitespace().map(String::from).collect(),
        )
}

#[test]
fn every_kernel_has_intels_files_for_each_of_its_devices() {
    let kernels = visa_tests::root().join("tests/ocl/kernels");
    let fixtures = visa_tests::root().join("tests/ocl/fixtures");
    let mut cls: Vec<PathBuf> = std::fs::read_dir(&kernels)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    cls.sort();
    // Only OpenCL sources: ocloc's by-products (`*.bin`, `*.spv`) do not belong here.
    let other: Vec<_> = cls
        .iter()
        .filter(|p| p.extension().is_none_or(|e| e != "cl"))
        .collect();
    assert!(other.is_empty(), "not OpenCL sources: {other:?}");
    assert!(cls.len() >= 20, "{cls:?}");
    for cl in &cls {
        let stem = cl.file_stem().unwrap().to_string_lossy().into_owned();
        for device in devices_of(&std::fs::read_to_string(cl).unwrap()) {
            let dir = fixtures.join(&device);
            let has = |ext: &str| {
                std::fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .any(|e| {
                        let n = e.file_name().to_string_lossy().into_owned();
                        n.starts_with(&format!("{stem}."))
                            && !n.contains(".func.")
                            && n.ends_with(ext)
                    })
            };
            assert!(
                has(".isa") && has(".visaasm"),
                "no .isa and .visaasm of {stem} for {device}: run tests/intel/regen-fixtures ocl"
            );
        }
    }
}

#[test]
fn committed_fixtures_are_what_intels_tools_make() {
    let out = Command::new("python3")
        .arg(script())
        .arg("--check")
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(3) {
        assert!(
            std::env::var_os("CI").is_none(),
            "Intel's tools are missing and CI is set: {stderr}"
        );
        eprintln!("skipped: {stderr}");
        return;
    }
    assert!(
        out.status.success(),
        "fixtures differ from what Intel's tools make (rerun tests/intel/regen-fixtures):\n{stdout}\n{stderr}"
    );
}
