//! Generated code must match the spec: `cargo test` fails while it is stale and names the fix.
//! Generation must be deterministic: twice the same input gives byte-identical output.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn generate() -> codegen::Generated {
    let files = codegen::parse::load_spec(&root().join("spec"), None).expect("spec/ is readable");
    let errata = visa_tests::product_errata(&files);
    // The names spec/regen.toml pins, as regen takes them.
    let text = std::fs::read_to_string(root().join("spec/regen.toml")).expect("spec/regen.toml");
    let config = codegen::config::Config::parse("regen.toml", &text).expect("a valid regen.toml");
    let pins = codegen::analyze::naming::Pins::new(&config.pins());
    codegen::generate_pinned(&files, &errata, &pins, &codegen::emit::Options::default())
        .unwrap_or_else(|d| panic!("spec/ must generate without errors: {d:#?}"))
}

#[test]
fn generated_crate_is_fresh() {
    let g = generate();
    let stale = xtask::write::check(&root().join("generated"), &g.files).expect("check runs");
    assert!(
        stale.is_empty(),
        "{}",
        xtask::write::describe_stale(&stale, "cargo xtask regen")
    );
}

#[test]
fn generation_is_deterministic() {
    let a = generate();
    let b = generate();
    assert_eq!(a.files, b.files);
    // And through the writer: two fresh directories hold byte-identical trees.
    let (d1, d2) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    xtask::write::apply(d1.path(), &a.files).unwrap();
    xtask::write::apply(d2.path(), &b.files).unwrap();
    for path in a.files.keys() {
        let x = std::fs::read(d1.path().join(path)).unwrap();
        let y = std::fs::read(d2.path().join(path)).unwrap();
        assert_eq!(x, y, "{path} differs between two runs");
    }
}

#[test]
fn every_generated_file_carries_the_marker_and_the_command() {
    for (path, contents) in &generate().files {
        let first = contents.lines().next().unwrap_or_default();
        assert!(first.contains("@generated"), "{path}: first line {first:?}");
        assert!(
            first.contains("cargo xtask regen"),
            "{path}: first line {first:?}"
        );
    }
}

#[test]
fn a_removed_doc_removes_its_generated_files_and_nothing_else_is_touched() {
    let spec = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root().join("spec")).unwrap() {
        let p = entry.unwrap().path();
        // The docs only: no errata (they would name the doc this test removes).
        if p.is_file() {
            std::fs::copy(&p, spec.path().join(p.file_name().unwrap())).unwrap();
        }
    }
    let out = tempfile::tempdir().unwrap();
    let krate = out.path().join("visa");
    assert_eq!(xtask::regen(spec.path(), &krate, false), 0);
    let kept = krate.join("src/generated/qw_scatter.rs");
    let before = std::fs::metadata(&kept).unwrap().modified().unwrap();
    assert!(krate.join("src/generated/scatter.rs").exists());
    assert!(krate.join("docs/SCATTER.md").exists());
    assert!(
        krate.join("runtime/runtime/operand.rs").exists(),
        "scaffolded runtime"
    );

    std::fs::remove_file(spec.path().join("SCATTER.md")).unwrap();
    assert_eq!(
        xtask::regen(spec.path(), &krate, true),
        1,
        "check sees the stale files"
    );
    assert_eq!(xtask::regen(spec.path(), &krate, false), 0);
    assert!(!krate.join("src/generated/scatter.rs").exists());
    assert!(!krate.join("docs/SCATTER.md").exists());
    assert_eq!(
        std::fs::metadata(&kept).unwrap().modified().unwrap(),
        before,
        "unchanged file untouched"
    );
    assert!(
        krate.join("runtime/runtime/operand.rs").exists(),
        "hand-written files stay"
    );
    assert_eq!(xtask::regen(spec.path(), &krate, true), 0);
}
