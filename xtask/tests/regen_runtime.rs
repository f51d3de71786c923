//! Regen keeps an out crate's hand-written runtime current: a runtime file an earlier regen
//! copied and the workspace's runtime no longer has is removed, unless edited since (kept, with
//! a warning); a file regen did not write is never touched; `--check` reports such files.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `cargo xtask regen --spec spec --out OUT [--check]`: exit code and stderr.
fn regen(out: &Path, check: bool) -> (Option<i32>, String) {
    let spec = workspace().join("spec");
    let mut args = vec!["regen", "--spec", spec.to_str().unwrap()];
    args.extend(["--out", out.to_str().unwrap()]);
    if check {
        args.push("--check");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(&args)
        .output()
        .expect("the xtask binary runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// FNV-1a 64, as the record's format defines it, written here apart from regen's.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100000001b3)
    })
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn regen_into_an_existing_crate_refreshes_a_stale_runtime_and_check_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    assert_eq!(regen(&out, false).0, Some(0));
    let current = read(&workspace().join("generated/src/runtime/codec.rs"));
    // An older runtime: one file as a previous version left it, one the user added, one that
    // is current (its mtime must stay).
    let codec = out.join("src/runtime/codec.rs");
    std::fs::write(&codec, "// an older runtime\n").unwrap();
    let mine = out.join("src/runtime/mine.rs");
    std::fs::write(&mine, "// the user's\n").unwrap();
    let operand = out.join("src/runtime/operand.rs");
    let mtime = std::fs::metadata(&operand).unwrap().modified().unwrap();

    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("stale runtime: src/runtime/codec.rs"), "{err}");
    assert!(
        !err.contains("mine.rs") && !err.contains("operand.rs"),
        "{err}"
    );
    assert_eq!(std::fs::read(&codec).unwrap(), b"// an older runtime\n");

    // The runtime alone is refreshed.
    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(
            "1 hand-written runtime file(s) refreshed from the workspace's: src/runtime/codec.rs"
        ),
        "{err}"
    );
    // Said where it always was, though the runtime is refreshed beside other work: after the
    // diagnostics, before what was written.
    let at = |what: &str| err.find(what).unwrap_or_else(|| panic!("{what}: {err}"));
    assert!(
        at("errata applied") < at("runtime file(s) refreshed"),
        "{err}"
    );
    assert!(at("runtime file(s) refreshed") < at(" written, "), "{err}");
    assert_eq!(std::fs::read(&codec).unwrap(), current);
    assert_eq!(std::fs::read(&mine).unwrap(), b"// the user's\n");
    assert_eq!(
        std::fs::metadata(&operand).unwrap().modified().unwrap(),
        mtime
    );
    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_runtime_file_an_earlier_regen_copied_goes_an_edited_one_stays_and_check_reports_both() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    let record = out.join(".regen-runtime");
    let codec = read(&out.join("src/runtime/codec.rs"));
    let line = format!("src/runtime/codec.rs {:016x}", fnv1a(&codec));
    let recorded = String::from_utf8(read(&record)).unwrap();
    assert!(recorded.lines().any(|l| l == line), "{line} in\n{recorded}");

    // As if an earlier runtime had `gone.rs` and `edited.rs` (the user edited the second since),
    // and the user added `mine.rs`: the record lists the first two as an earlier regen would.
    let runtime = out.join("src/runtime");
    let edited = [codec.as_slice(), b"// mine now\n"].concat();
    std::fs::write(runtime.join("gone.rs"), &codec).unwrap();
    std::fs::write(runtime.join("edited.rs"), &edited).unwrap();
    std::fs::write(runtime.join("mine.rs"), &codec).unwrap();
    let mut earlier = recorded.clone();
    for path in ["src/runtime/gone.rs", "src/runtime/edited.rs"] {
        earlier.push_str(&format!("{path} {:016x}\n", fnv1a(&codec)));
    }
    std::fs::write(&record, earlier).unwrap();

    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("stale runtime: src/runtime/gone.rs (removed by a regen)"),
        "{err}"
    );
    assert!(
        err.contains("stale runtime: src/runtime/edited.rs (edited since"),
        "{err}"
    );
    assert!(!err.contains("mine.rs"), "{err}");
    assert!(runtime.join("gone.rs").exists(), "--check writes nothing");

    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(
            "hand-written runtime: 1 removed, no longer in the workspace's: src/runtime/gone.rs"
        ),
        "{err}"
    );
    assert!(
        err.contains("warning: src/runtime/edited.rs: an earlier regen copied it"),
        "{err}"
    );
    assert!(!runtime.join("gone.rs").exists());
    assert_eq!(read(&runtime.join("edited.rs")), edited);
    assert_eq!(read(&runtime.join("mine.rs")), codec);
    assert_eq!(
        String::from_utf8(read(&record)).unwrap(),
        recorded,
        "the record names the current runtime again"
    );

    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("regen: 0 written"), "{err}");
    assert!(!err.contains("edited.rs"), "warned once: {err}");
}

/// The runtime files removed before regen recorded what it copied, each with the git blob of
/// every version it had (`git log --all --no-renames -- PATH`).
const REMOVED_BEFORE_RECORD: &[(&str, &[&str])] = &[
    (
        "src/object/print_text_shim.rs",
        &["b14c430e016a11f27210cde3870956c2f271baf7"],
    ),
    (
        "src/object/text/literal.rs",
        &["8f16e019ad7a15f849968f3df3b44525d0f8c473"],
    ),
    (
        "src/runtime/text/special/load_3d.rs",
        &[
            "920923bb5d0720cad1be6aa96bf2492bda5f0d7c",
            "520f3ca36824aef777f786701a6e3051373eec1e",
        ],
    ),
    (
        "src/runtime/text/special/members.rs",
        &["877194088487256ea5769692c88ea9e20d23c22f"],
    ),
    (
        "src/runtime/text/special/sample_3d.rs",
        &[
            "42f8132c7ea93f9f86fcc6993289907b61632ec4",
            "268e23b68a1ca434986b89a49d821a3118340d5e",
        ],
    ),
];

/// The content of a git blob of this repository; `None` (said why) when the history is absent.
fn blob(id: &str) -> Option<Vec<u8>> {
    let o = Command::new("git")
        .args(["cat-file", "blob", id])
        .current_dir(workspace())
        .output();
    match o {
        Ok(o) if o.status.success() => Some(o.stdout),
        other => {
            // A shallow clone (as some CI checkouts are) has no older blobs: that is no
            // missing tool, so the test skips with the reason even under CI.
            println!("skipped: git blob {id} unreadable ({other:?}): no full history");
            None
        }
    }
}

#[test]
fn a_crate_an_older_regen_wrote_loses_the_runtime_files_removed_before_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    // An older regen wrote no record.
    std::fs::remove_file(out.join(".regen-runtime")).unwrap();
    let special = out.join("src/runtime/text/special");
    std::fs::write(special.join("mine.rs"), "// the user's\n").unwrap();
    let template = workspace().join("generated");
    // Every older version of each: one at a time, as the library sees it.
    for (path, versions) in REMOVED_BEFORE_RECORD {
        for id in &versions[1..] {
            let Some(bytes) = blob(id) else { return };
            std::fs::create_dir_all(out.join(path).parent().unwrap()).unwrap();
            std::fs::write(out.join(path), bytes).unwrap();
            let stale = xtask::scaffold::stale_runtime(&out, &template).unwrap();
            let gone: Vec<_> = stale.gone.iter().map(|g| (&*g.path, g.edited)).collect();
            assert_eq!(gone, [(*path, false)], "version {id}");
            std::fs::remove_file(out.join(path)).unwrap();
        }
    }
    // The last version of each, all at once, through the CLI.
    for (path, versions) in REMOVED_BEFORE_RECORD {
        let Some(bytes) = blob(versions[0]) else {
            return;
        };
        std::fs::create_dir_all(out.join(path).parent().unwrap()).unwrap();
        std::fs::write(out.join(path), bytes).unwrap();
    }
    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(1), "{err}");
    for (path, _) in REMOVED_BEFORE_RECORD {
        assert!(
            err.contains(&format!("stale runtime: {path} (removed by a regen)")),
            "{path}: {err}"
        );
    }
    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("hand-written runtime: 5 removed"), "{err}");
    for (path, _) in REMOVED_BEFORE_RECORD {
        assert!(!out.join(path).exists(), "{path}");
    }
    assert_eq!(read(&special.join("mine.rs")), b"// the user's\n");
    assert!(out.join(".regen-runtime").exists());
    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(0), "{err}");
}
