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
fn schema_of_a_broken_doc_warns_and_fails_only_with_deny_warnings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("BROKEN.md"), "no opcode section here\n").unwrap();
    for (strict, code, severity) in [(false, 0, "warning"), (true, 1, "error")] {
        let mut args = vec!["schema", "--spec", dir.path().to_str().unwrap()];
        if strict {
            args.push("--deny-warnings");
        }
        let out = xtask(&args);
        assert_eq!(out.status.code(), Some(code), "--deny-warnings: {strict}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
        let diags = json["diagnostics"].as_array().expect("diagnostics");
        assert!(diags.iter().any(|d| d["severity"] == severity
            && d["file"] == "BROKEN.md"
            && d["code"] == "V0101"));
        assert_eq!(json["left_out"][0]["doc"], "BROKEN.md");
        assert!(String::from_utf8_lossy(&out.stderr).contains("BROKEN.md"));
    }
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
    // Its one doc is left out (V0101), so nothing is left to generate (V0304).
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("warning[V0101]") && stderr.contains("error[V0304]"),
        "{stderr}"
    );
    assert!(
        !target.exists(),
        "nothing may be written when the docs have errors"
    );
}

/// Every file under `dir` (but `target/`), path → bytes.
fn tree(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(
        base: &std::path::Path,
        at: &std::path::Path,
        out: &mut std::collections::BTreeMap<String, Vec<u8>>,
    ) {
        for entry in std::fs::read_dir(at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    walk(base, &path, out);
                }
            } else {
                let rel = path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn regen_into_two_directories_gives_identical_bytes() {
    // Output depends only on the docs: no machine path in any header. The spec dir is copied
    // outside the workspace too, so it is named by its file name, not its location.
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let spec_b = b.path().join("elsewhere").join("spec");
    std::fs::create_dir_all(&spec_b).unwrap();
    for entry in std::fs::read_dir(spec_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, spec_b.join(path.file_name().unwrap())).unwrap();
        }
    }
    let spec_a = a.path().join("spec");
    std::fs::create_dir_all(&spec_a).unwrap();
    for entry in std::fs::read_dir(&spec_b).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, spec_a.join(path.file_name().unwrap())).unwrap();
    }
    let errata = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/errata");
    let mut outs = Vec::new();
    for (spec, out) in [
        (&spec_a, a.path().join("one")),
        (&spec_b, b.path().join("deep/two")),
    ] {
        let mut args = vec![
            "regen",
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        if std::path::Path::new(errata).is_dir() {
            args.extend(["--errata", errata]);
        }
        let run = xtask(&args);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        outs.push(tree(&out));
    }
    assert_eq!(
        outs[0].keys().collect::<Vec<_>>(),
        outs[1].keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &outs[0] {
        let text = String::from_utf8_lossy(bytes);
        // Generated files only: hand-written ones are copies of the workspace's.
        let generated = text
            .lines()
            .next()
            .is_some_and(|l| l.contains("@generated"));
        assert!(
            !generated || (!text.contains(a.path().to_str().unwrap()) && !text.contains("/tmp/")),
            "{path} names a machine path"
        );
        assert!(
            bytes == &outs[1][path],
            "{path} differs between the two directories"
        );
    }
    let header = String::from_utf8_lossy(&outs[0]["src/generated/scatter.rs"]).into_owned();
    let first = header.lines().next().unwrap_or_default();
    assert!(
        first.contains("from spec/SCATTER.md")
            && first.contains("--spec spec")
            && first.contains("--out <this crate>"),
        "{first}"
    );
}

#[test]
fn acknowledged_warnings_print_as_one_line_and_new_ones_in_full() {
    // spec/regen.toml acknowledges the seeds' 10 known glitches.
    let quiet = xtask(&["schema", "--spec", &spec_dir()]);
    let err = String::from_utf8_lossy(&quiet.stderr);
    assert!(
        err.contains("14 acknowledged warnings in 4 docs (regen.toml); --verbose shows them"),
        "{err}"
    );
    assert!(!err.contains("warning[V0111]"), "{err}");
    let verbose = xtask(&["schema", "--spec", &spec_dir(), "--verbose"]);
    let err = String::from_utf8_lossy(&verbose.stderr);
    assert!(
        err.contains("warning[V0111]") && err.contains("SCATTER.md:1:1"),
        "{err}"
    );
    assert!(!err.contains("acknowledged warnings"), "{err}");
    // The same glitch in a doc regen.toml does not name prints in full.
    let dir = tempfile::tempdir().unwrap();
    let spec = std::path::Path::new(&spec_dir()).to_path_buf();
    std::fs::copy(spec.join("OWORD_ST.md"), dir.path().join("OWORD_ST.md")).unwrap();
    std::fs::copy(spec.join("OWORD_ST.md"), dir.path().join("OWORD_ST2.md")).unwrap();
    let text = std::fs::read_to_string(spec.join("regen.toml")).unwrap();
    std::fs::write(dir.path().join("regen.toml"), text).unwrap();
    let out = xtask(&["schema", "--spec", dir.path().to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("OWORD_ST2.md:64:7"), "{err}");
    // OWORD_ST.md and the workspace chapter (borrowed, with its V0503) are acknowledged.
    assert!(err.contains("acknowledged warnings in 2 docs "), "{err}");
}

#[test]
fn no_errata_shows_the_docs_as_they_are() {
    let with = xtask(&["schema", "--spec", &spec_dir()]);
    let without = xtask(&["schema", "--spec", &spec_dir(), "--no-errata"]);
    let with: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    let without: serde_json::Value = serde_json::from_slice(&without.stdout).unwrap();
    assert!(without["errata"].as_array().is_some_and(Vec::is_empty));
    let applied: Vec<&str> = with["errata"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["doc"].as_str())
        .collect();
    assert!(applied.contains(&"SCATTER.md") && applied.contains(&"QW_SCATTER.md"));
    // SCATTER's Surface lists two values as received, none once corrected.
    let surface = |json: &serde_json::Value| {
        json["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == "SCATTER")
            .and_then(|i| i["fields"].as_array())
            .and_then(|f| f.iter().find(|f| f["name"] == "Surface"))
            .map(|f| f["values"].as_array().map_or(0, Vec::len))
    };
    assert_eq!((surface(&without), surface(&with)), (Some(2), Some(0)));
    // A regen report names every erratum it applied.
    let out = tempfile::tempdir().unwrap();
    let run = xtask(&[
        "regen",
        "--spec",
        &spec_dir(),
        "--out",
        out.path().join("c").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("errata/SCATTER-surface-any-index.patch -> SCATTER.md"),
        "{err}"
    );
}

#[test]
fn a_stale_erratum_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let spec = std::path::Path::new(&spec_dir()).to_path_buf();
    let doc = std::fs::read_to_string(spec.join("SCATTER.md")).unwrap();
    // Upstream rewrote the lines the erratum corrects.
    let changed = doc.replace("T255 - Stateless surface access", "T5 - stateless");
    std::fs::write(dir.path().join("SCATTER.md"), changed).unwrap();
    // The doc set's own erratum must apply; the product's of the same correction does not fit
    // the changed doc and is skipped with a note.
    let errata = dir.path().join("errata");
    std::fs::create_dir(&errata).unwrap();
    std::fs::copy(
        spec.join("../errata/SCATTER-surface-any-index.patch"),
        errata.join("SCATTER-own-surface.patch"),
    )
    .unwrap();
    let out = xtask(&["schema", "--spec", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[V0402]") && err.contains("errata/SCATTER-own-surface.patch"),
        "{err}"
    );
    assert!(err.contains("note: "), "{err}");
    assert!(!err.contains("error[V0402]: the erratum no longer applies to `SCATTER.md`: hunk 1 does not match the doc (it changed upstream); it is not applied\n   ┌─ errata/SCATTER-surface-any-index.patch"), "{err}");
}

#[test]
fn a_regen_with_nothing_changed_writes_nothing_and_a_changed_doc_erratum_or_file_is_regenerated() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    std::fs::create_dir_all(spec.join("errata")).unwrap();
    let seeds = std::path::Path::new(&spec_dir()).to_path_buf();
    for doc in ["OWORD_ST.md", "SCATTER.md"] {
        std::fs::copy(seeds.join(doc), spec.join(doc)).unwrap();
    }
    let out = dir.path().join("crate");
    let regen = || {
        let run = xtask(&[
            "regen",
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8_lossy(&run.stderr).into_owned()
    };
    let unchanged = |log: &str| log.contains("regen: 0 written,") && log.contains(" 0 removed");
    assert!(!unchanged(&regen()), "the first regen writes");
    let module = out.join("src/generated/scatter.rs");
    let mtime = std::fs::metadata(&module).unwrap().modified().unwrap();
    assert!(unchanged(&regen()), "nothing changed");
    assert_eq!(
        std::fs::metadata(&module).unwrap().modified().unwrap(),
        mtime
    );

    // A changed doc: one byte of a description, away from the lines the product's errata of
    // SCATTER correct (an edit there is another revision, which those errata do not fit).
    let doc = std::fs::read_to_string(spec.join("SCATTER.md")).unwrap();
    std::fs::write(
        spec.join("SCATTER.md"),
        doc.replace("the values to be written.", "the values to be written!"),
    )
    .unwrap();
    let log = regen();
    // The module, its page, and the API snapshot (which keeps a hash of each wording).
    assert!(log.contains("regen: 3 written"), "{log}");
    assert!(std::fs::read_to_string(&module)
        .unwrap()
        .contains("the values to be written!"));
    assert!(unchanged(&regen()));

    // A new erratum: applied, and reported again by every regen.
    std::fs::write(spec.join("SCATTER.md"), &doc).unwrap();
    let src = doc
        .lines()
        .find(|l| l.starts_with("- **Src(raw_operand):**"))
        .expect("SCATTER's Src bullet");
    std::fs::write(
        spec.join("errata/SCATTER-own.patch"),
        format!(
            "Erratum: SCATTER: Src, reworded\nDoc says: x\nIntel does: y\nEvidence: z\n\n\
             --- a/SCATTER.md\n+++ b/SCATTER.md\n@@ -1,1 +1,1 @@\n-{src}\n+{}\n",
            src.replace("the values to be written.", "the values written.")
        ),
    )
    .unwrap();
    let log = regen();
    assert!(
        !unchanged(&log) && log.contains("SCATTER-own.patch -> SCATTER.md"),
        "{log}"
    );
    let again = regen();
    assert!(unchanged(&again), "{again}");
    let report = |log: &str| {
        log.split("what changed since the last regen")
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        report(&log).contains("warning[")
            && report(&log).contains("errata applied: ")
            && report(&log).contains("SCATTER-own.patch -> SCATTER.md"),
        "{log}"
    );
    assert_eq!(report(&again), report(&log));

    // A generated file edited by hand.
    std::fs::write(&module, "// @generated\n").unwrap();
    let log = regen();
    assert!(log.contains("regen: 1 written"), "{log}");
}
