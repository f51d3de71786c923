//! Regen vendors the workspace's hand-written `runtime/` whole into an out crate: a copy that
//! differs is rewritten, a file the workspace's runtime lacks is removed, `--check` lists both,
//! and nothing outside `runtime/` and what regen generates is touched.

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

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn regen_keeps_the_vendored_runtime_the_workspaces_and_check_reports_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    assert_eq!(regen(&out, false).0, Some(0));
    let current = read(&workspace().join("runtime/runtime/codec.rs"));
    assert_eq!(read(&out.join("runtime/runtime/codec.rs")), current);
    assert!(out.join("src/generated/mod.rs").is_file());
    // An older runtime: one file as a previous version left it, one the workspace no longer
    // has; the user's own file beside the crate's sources; a current file (its mtime stays).
    let codec = out.join("runtime/runtime/codec.rs");
    std::fs::write(&codec, "// an older runtime\n").unwrap();
    let gone = out.join("runtime/runtime/gone.rs");
    std::fs::write(&gone, "// removed from the workspace's runtime\n").unwrap();
    let mine = out.join("src/mine.rs");
    std::fs::write(&mine, "// the user's\n").unwrap();
    let operand = out.join("runtime/runtime/operand.rs");
    let mtime = std::fs::metadata(&operand).unwrap().modified().unwrap();

    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("stale runtime: runtime/runtime/codec.rs\n"),
        "{err}"
    );
    assert!(
        err.contains("stale runtime: runtime/runtime/gone.rs (not in the workspace's: removed)"),
        "{err}"
    );
    assert!(
        !err.contains("mine.rs") && !err.contains("operand.rs"),
        "{err}"
    );
    assert_eq!(
        read(&codec),
        b"// an older runtime\n",
        "--check writes nothing"
    );

    let (code, err) = regen(&out, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("runtime/ made the workspace's: 1 file(s) written, 1 removed"),
        "{err}"
    );
    assert_eq!(read(&codec), current);
    assert!(!gone.exists());
    assert_eq!(read(&mine), b"// the user's\n");
    assert_eq!(
        std::fs::metadata(&operand).unwrap().modified().unwrap(),
        mtime
    );
    let (code, err) = regen(&out, true);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn the_manifest_is_written_once_and_then_the_users() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    assert_eq!(regen(&out, false).0, Some(0));
    let manifest = String::from_utf8(read(&out.join("Cargo.toml"))).unwrap();
    assert!(manifest.contains("path = \"runtime/lib.rs\""), "{manifest}");
    assert!(manifest.contains("\n[workspace]\n"), "{manifest}");
    assert!(!manifest.contains("workspace = true"), "{manifest}");
    let edited = format!("{manifest}\n# the user's line\n");
    std::fs::write(out.join("Cargo.toml"), &edited).unwrap();
    assert_eq!(regen(&out, false).0, Some(0));
    assert_eq!(read(&out.join("Cargo.toml")), edited.as_bytes());
}
