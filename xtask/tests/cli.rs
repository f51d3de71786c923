//! The CLI's exit codes, run as the real binary: 0 clean, 1 doc errors, 2 usage errors.

use std::process::Command;

fn xtask(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

fn spec_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../spec").to_string()
}

#[test]
fn schema_of_spec_exits_0_with_json_on_stdout() {
    let out = xtask(&["schema", "--spec", &spec_dir()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(json["instructions"].as_array().map(Vec::len), Some(5));
    assert!(json["diagnostics"].is_array());
}

#[test]
fn schema_of_a_broken_doc_exits_1_and_still_prints_json() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("BROKEN.md"), "no opcode section here\n").unwrap();
    let out = xtask(&["schema", "--spec", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let diags = json["diagnostics"].as_array().expect("diagnostics");
    assert!(diags
        .iter()
        .any(|d| d["severity"] == "error" && d["file"] == "BROKEN.md"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("BROKEN.md"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(xtask(&["schema", "--no-such-flag"]).status.code(), Some(2));
    assert_eq!(xtask(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(xtask(&[]).status.code(), Some(2));
    let missing = xtask(&["schema", "--spec", "/nonexistent/spec/dir"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/spec/dir"));
}

#[test]
fn regen_of_a_broken_spec_writes_nothing_and_exits_1() {
    let spec = tempfile::tempdir().unwrap();
    std::fs::write(spec.path().join("BROKEN.md"), "").unwrap();
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("crate");
    let run = xtask(&[
        "regen",
        "--spec",
        spec.path().to_str().unwrap(),
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        !target.exists(),
        "nothing may be written when the docs have errors"
    );
}
