//! Every doc the parser accepts generates a crate that compiles without warnings and passes its
//! own generated tests. `tests/specs/odd/` holds valid docs in the family's style whose lists
//! sit at the edges (empty type maps, single values, one-field tables, one bit range, a lone
//! CONDITION, fields all optional, no fields at all): the crate is generated from them with
//! `cargo xtask regen`'s code path, then built and tested by cargo with `-D warnings`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn odd_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/odd")
}

/// Parses and analyses the odd docs: no error, and only the warnings each doc is there for.
#[test]
fn odd_docs_parse_without_errors_and_warn_only_where_expected() {
    let files = codegen::parse::load_dir(&odd_dir()).expect("tests/specs/odd is readable");
    assert!(files.len() >= 9, "{} docs", files.len());
    let parsed = codegen::parse::parse_spec(&files);
    let (model, analysis) = codegen::analyze::analyze(&parsed.spec);
    let diags: Vec<_> = parsed.diagnostics.iter().chain(&analysis).collect();
    assert!(!diags.iter().any(|d| d.is_error()), "{diags:#?}");
    let mut seen: Vec<(&str, &str, u32)> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.file.as_str(), d.line))
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![
            // The optional fields of ALL_OPTIONAL are always encoded (line of `Aoff`).
            ("V0202", "ALL_OPTIONAL.md", 16),
            // EMPTY_MAP's two maps name no source type: `Type map` and `Type map{XEHP+}`.
            ("V0204", "EMPTY_MAP.md", 43),
            ("V0204", "EMPTY_MAP.md", 46),
        ]
    );
    let inst = |name: &str| {
        model
            .instructions
            .iter()
            .find(|i| i.doc_name == name)
            .unwrap_or_else(|| panic!("{name} is generated"))
    };
    // Ignored maps check nothing; ONE_TYPE keeps its `{XEHP+}` map of one type.
    assert!(inst("EMPTY_MAP").src_type_maps.is_empty());
    assert_eq!(inst("ONE_TYPE").src_type_maps.len(), 1);
    assert_eq!(inst("ONE_TYPE").src_type_maps[0].types, vec!["F"]);
    assert_eq!(inst("NO_FIELDS").fields.len(), 0);
    assert_eq!(inst("ONE_CONDITION").variants.len(), 1);
}

/// Cargo with `-D warnings`, in a target directory of its own kept across runs (the outer
/// `cargo test` holds the workspace's), so only the first run compiles proptest.
fn cargo(krate: &Path, args: &[&str]) {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("odd-specs-target");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .arg("--offline")
        .arg("--manifest-path")
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} failed on the crate generated from tests/specs/odd:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The scaffolded crate carries the codec benches of `generated/`: they name the spec's
/// instructions and pull in criterion, neither of which this crate is about.
fn drop_benches(krate: &Path) {
    let manifest = krate.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    // Drop each `[[bench]]` table (up to the next table header) and criterion; keep the rest,
    // such as the `visa` tool's `[[bin]]` and its `cli` feature.
    let mut kept: Vec<&str> = Vec::new();
    let mut in_bench = false;
    for line in text.lines() {
        if line.starts_with('[') {
            in_bench = line.starts_with("[[bench]]");
        }
        if !in_bench && !line.starts_with("criterion") {
            kept.push(line);
        }
    }
    std::fs::write(&manifest, kept.join("\n") + "\n").unwrap();
    let _ = std::fs::remove_dir_all(krate.join("benches"));
}

#[test]
fn the_crate_of_odd_docs_builds_without_warnings_and_passes_its_tests() {
    if Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: cargo is not available to build the generated crate");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let krate = out.path().join("visa-odd");
    assert_eq!(
        xtask::regen(&odd_dir(), &krate, false),
        0,
        "regen of tests/specs/odd"
    );
    for module in ["empty_map", "one_bit", "one_condition", "no_fields"] {
        assert!(krate.join(format!("src/generated/{module}.rs")).is_file());
    }
    drop_benches(&krate);
    cargo(&krate, &["build", "--quiet"]);
    // The library's doctests use the spec's OWORD_ST; the generated tests are the lib's.
    cargo(&krate, &["test", "--quiet", "--lib"]);
}
