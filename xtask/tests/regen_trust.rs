//! Regen trusts what it wrote, git-index style (`xtask::trust`): a file whose metadata is as
//! the stamp recorded it is neither read nor hashed. Every way a file can change since is seen
//! (by its metadata, then by its content) by a regen and by `--check`, and a regen into a
//! directory whose stamp is damaged or of another generator writes what a full regen writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A copy of the workspace's seed docs (with their errata and `regen.toml`) in `dir`.
fn spec_copy(dir: &Path) -> PathBuf {
    let spec = dir.join("spec");
    copy_dir(&workspace().join("spec"), &spec);
    spec
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// `cargo xtask regen --spec SPEC --out OUT [--check]`: exit code and stderr.
fn regen(spec: &Path, out: &Path, check: bool) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xtask"));
    cmd.args(["regen", "--spec", spec.to_str().unwrap()]);
    cmd.args(["--out", out.to_str().unwrap()]);
    if check {
        cmd.arg("--check");
    }
    let o = cmd.output().expect("the xtask binary runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Regen that must succeed; its stderr.
fn regen_ok(spec: &Path, out: &Path) -> String {
    let (code, err) = regen(spec, out, false);
    assert_eq!(code, Some(0), "{err}");
    err
}

/// `--check` that must find `out` fresh.
fn assert_fresh(spec: &Path, out: &Path) {
    let (code, err) = regen(spec, out, true);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("generated files are fresh"), "{err}");
}

/// Every file under `dir` but the stamp, the render cache and build output.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == "target" || rel == xtask::stamp::FILE || rel == xtask::stamp::CACHE {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, dir, &mut files);
    files
}

/// The tree of a full regen of `spec` into an empty directory.
fn full_regen(spec: &Path) -> BTreeMap<String, Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crate");
    regen_ok(spec, &out);
    tree(&out)
}

/// Asserts that `out` holds exactly what a full regen of `spec` writes (file names listed on
/// a difference, not megabytes of bytes).
fn assert_full(spec: &Path, out: &Path, context: &str) {
    let (got, want) = (tree(out), full_regen(spec));
    let differ: Vec<&String> = (got.keys().chain(want.keys()))
        .filter(|k| got.get(*k) != want.get(*k))
        .collect();
    assert!(
        differ.is_empty(),
        "{context}: differ from a full regen: {differ:?}"
    );
}

fn set_mtime(path: &Path, t: SystemTime) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(t).unwrap();
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// Edits text in place, keeping its length: its last character but the newline, another
/// ASCII one. Twice is no edit.
fn flip(bytes: &mut [u8]) {
    let last = bytes.len() - 2;
    bytes[last] ^= 1;
}

fn skipped(log: &str) -> bool {
    log.contains("nothing changed since the last regen")
}

/// Waits until the clock has moved past the stamp's time, so the files the last regen wrote
/// are older than its record (not racy) and are trusted by the next one.
fn past_the_stamp(out: &Path) {
    let stamp = mtime(&out.join(xtask::stamp::FILE));
    while SystemTime::now() <= stamp + Duration::from_millis(20) {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A generated module of the seeds: edited, deleted, replaced, touched below.
const MODULE: &str = "src/generated/scatter.rs";
/// A hand-written runtime file copied into the out crate.
const RUNTIME: &str = "src/runtime/codec.rs";

#[test]
fn every_change_to_a_file_regen_trusts_is_seen_by_regen_and_check() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_copy(dir.path());
    let out = dir.path().join("crate");
    regen_ok(&spec, &out);
    past_the_stamp(&out);
    assert!(skipped(&regen_ok(&spec, &out)));
    let module = out.join(MODULE);
    let original = std::fs::read(&module).unwrap();

    // Edited normally: --check reports it, regen rewrites it.
    let mut edited = original.clone();
    edited.extend_from_slice(b"// mine\n");
    std::fs::write(&module, &edited).unwrap();
    let (code, err) = regen(&spec, &out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("changed: {MODULE}")), "{err}");
    let log = regen_ok(&spec, &out);
    assert!(log.contains("regen: 1 written"), "{log}");
    assert_full(&spec, &out, "after an edit");
    past_the_stamp(&out);

    // Edited in place keeping its length, its modification time set back as it was: the
    // change time (which no user call sets) still gives it away.
    let before = mtime(&module);
    let mut same_length = original.clone();
    let last = same_length.len() - 2;
    same_length[last] = if same_length[last] == b'x' {
        b'y'
    } else {
        b'x'
    };
    std::fs::write(&module, &same_length).unwrap();
    set_mtime(&module, before);
    assert_eq!(mtime(&module), before);
    let (code, err) = regen(&spec, &out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("changed: {MODULE}")), "{err}");
    assert!(regen_ok(&spec, &out).contains("regen: 1 written"));
    assert_full(&spec, &out, "after an edit of the same length");
    past_the_stamp(&out);

    // Deleted.
    std::fs::remove_file(&module).unwrap();
    let (code, err) = regen(&spec, &out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("missing: {MODULE}")), "{err}");
    assert!(regen_ok(&spec, &out).contains("regen: 1 written"));
    assert_full(&spec, &out, "after a deletion");
    past_the_stamp(&out);

    // Touched without a change: nothing is written, and the next regen stops early again.
    set_mtime(&module, SystemTime::now() - Duration::from_secs(60));
    assert_fresh(&spec, &out);
    let log = regen_ok(&spec, &out);
    assert!(!skipped(&log) && log.contains("regen: 0 written"), "{log}");
    past_the_stamp(&out);
    assert!(skipped(&regen_ok(&spec, &out)));
    assert_full(&spec, &out, "after a touch");

    // A runtime file edited: --check names it, regen refreshes it.
    let runtime = out.join(RUNTIME);
    let workspace_runtime = std::fs::read(workspace().join("generated").join(RUNTIME)).unwrap();
    let mut edited = workspace_runtime.clone();
    edited.extend_from_slice(b"// mine\n");
    std::fs::write(&runtime, &edited).unwrap();
    let (code, err) = regen(&spec, &out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(&format!("stale runtime: {RUNTIME}")), "{err}");
    let log = regen_ok(&spec, &out);
    assert!(
        log.contains("refreshed from the workspace's: src/runtime/codec.rs"),
        "{log}"
    );
    assert_eq!(std::fs::read(&runtime).unwrap(), workspace_runtime);
    assert_fresh(&spec, &out);
    assert_full(&spec, &out, "after a runtime edit");

    // Replaced by a directory: no regen writes over it, and --check says so.
    std::fs::remove_file(&module).unwrap();
    std::fs::create_dir(&module).unwrap();
    let (code, err) = regen(&spec, &out, true);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(MODULE), "{err}");
    let (code, err) = regen(&spec, &out, false);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(MODULE) && err.contains("nothing was written"),
        "{err}"
    );
    std::fs::remove_dir(&module).unwrap();
    regen_ok(&spec, &out);
    assert_full(&spec, &out, "after the directory went");
}

/// Changes a doc of the seeds and edits a generated module by hand (same length), then damages
/// the stamp with `damage` (given its text and the out dir) and regenerates; returns the out
/// dir's tree and the tree of a full regen.
type Trees = (BTreeMap<String, Vec<u8>>, BTreeMap<String, Vec<u8>>);

fn regen_with_damaged_stamp(damage: impl Fn(&str, &Path) -> String) -> Trees {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_copy(dir.path());
    let out = dir.path().join("crate");
    regen_ok(&spec, &out);
    past_the_stamp(&out);
    let doc = spec.join("OWORD_ST.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    let edited = text.replace("It must be a buffer.", "It must be a buffer!");
    assert_ne!(edited, text);
    std::fs::write(&doc, edited).unwrap();
    // A generated file the doc does not reach, edited by hand: only its content shows it.
    let module = out.join(MODULE);
    let mut bytes = std::fs::read(&module).unwrap();
    flip(&mut bytes);
    std::fs::write(&module, bytes).unwrap();
    let stamp = out.join(xtask::stamp::FILE);
    let text = std::fs::read_to_string(&stamp).unwrap();
    std::fs::write(&stamp, damage(&text, &out)).unwrap();
    // Dated an hour ahead, so no file is racy against it: each of its lines that matches a
    // file's metadata would be believed.
    set_mtime(&stamp, SystemTime::now() + Duration::from_secs(3600));
    regen_ok(&spec, &out);
    let got = tree(&out);
    let want = full_regen(&spec);
    assert_fresh_or_not(&spec, &out, got == want);
    (got, want)
}

/// `--check` agrees with what the comparison with a full regen found.
fn assert_fresh_or_not(spec: &Path, out: &Path, equal: bool) {
    if equal {
        assert_fresh(spec, out);
    }
}

fn assert_same(trees: Trees, what: &str) {
    let (got, want) = trees;
    let differ: Vec<&String> = (got.keys().chain(want.keys()))
        .filter(|k| got.get(*k) != want.get(*k))
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: differ from a full regen: {differ:?}"
    );
}

/// The stamp `text` with its line of `MODULE` as a perfect lie: the edited file's metadata
/// now, and the hash of what a regen writes there (its bytes before the edit).
fn perfect_lie(text: &str, out: &Path, generator: &str) -> String {
    let module = out.join(MODULE);
    let mut unedited = std::fs::read(&module).unwrap();
    flip(&mut unedited);
    let sig = xtask::trust::Sig::at(&module).unwrap();
    let entry = xtask::trust::Entry {
        sig,
        hash: xtask::trust::hash(&unedited),
    };
    let lie = xtask::trust::Trust::line(xtask::trust::Kind::Out, MODULE, &entry);
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| !l.ends_with(&format!(" {MODULE}")))
        .map(|l| format!("{l}\n"))
        .collect();
    lines.push(lie);
    let id = xtask::stamp::GENERATOR;
    lines.concat().replace(
        &format!("\ntrust {id}\n"),
        &format!("\ntrust {generator}\n"),
    )
}

#[test]
fn a_stamp_cut_short_writes_what_a_full_regen_writes() {
    let trees = regen_with_damaged_stamp(|t, _| t[..t.len() * 2 / 3].to_string());
    assert_same(trees, "a stamp cut short");
}

#[test]
fn a_stamp_of_garbage_writes_what_a_full_regen_writes() {
    let trees = regen_with_damaged_stamp(|t, _| t.replace(' ', "  ").replace('0', "x"));
    assert_same(trees, "a stamp of garbage");
}

#[test]
fn a_stamp_of_another_generator_writes_what_a_full_regen_writes() {
    // Its record lies about the edited module perfectly, but it is another generator's.
    let trees = regen_with_damaged_stamp(|t, out| perfect_lie(t, out, "another-generator"));
    assert_same(trees, "a stamp of another generator");
}

#[test]
fn the_limit_a_perfect_lie_of_this_generator_is_believed() {
    // What the module docs state as the limit: a record of this generator that names a file's
    // metadata exactly as it is now is believed, so the edit is not seen. Only an edit that
    // restores the change time (the system clock set back) can make regen's own record lie.
    let (got, want) =
        regen_with_damaged_stamp(|t, out| perfect_lie(t, out, xtask::stamp::GENERATOR));
    assert_ne!(got[MODULE], want[MODULE]);
    let others = |t: &BTreeMap<String, Vec<u8>>| {
        let mut t = t.clone();
        t.remove(MODULE);
        t
    };
    assert_eq!(
        others(&got),
        others(&want),
        "everything else is regenerated"
    );
}

#[test]
fn a_stamp_of_an_older_layout_writes_what_a_full_regen_writes() {
    // The layout before the record of metadata: key, what was reported, `path len mtime`.
    let trees = regen_with_damaged_stamp(|t, _| {
        let mut lines = t.lines();
        let mut old = format!("{}\n{}\n", lines.next().unwrap(), lines.next().unwrap());
        for l in lines.filter(|l| l.starts_with("out ")) {
            let parts: Vec<&str> = l.splitn(7, ' ').collect();
            old.push_str(&format!("{} {} {}\n", parts[6], parts[1], parts[2]));
        }
        old
    });
    assert_same(trees, "a stamp of an older layout");
}

/// What a regen prints before it says what changed and what it wrote: its diagnostics and the
/// errata it applied.
fn diagnostics_of(log: &str) -> &str {
    let end = ["what changed since the last regen", "regen: "]
        .iter()
        .filter_map(|m| log.find(m))
        .min()
        .unwrap_or(log.len());
    &log[..end]
}

#[test]
fn diagnostics_printed_from_the_stamp_are_those_a_full_regen_renders() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_copy(dir.path());
    let out = dir.path().join("crate");
    let first = regen_ok(&spec, &out);
    assert!(first.contains("OWORD_ST.md:43:7"), "{first}");
    // A line more above the semantics OWORD_ST's warning quotes: the warning moves, and the
    // regen prints it where it now is (the other docs' warnings come from the stamp).
    let doc = spec.join("OWORD_ST.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    let edited = text.replacen("Copyright (c)", "A line more.\n\nCopyright (c)", 1);
    std::fs::write(&doc, &edited).unwrap();
    let log = regen_ok(&spec, &out);
    let full = {
        let dir = tempfile::tempdir().unwrap();
        regen_ok(&spec, &dir.path().join("crate"))
    };
    assert!(
        log.contains("OWORD_ST.md:45:7") && !log.contains("OWORD_ST.md:43:7"),
        "{log}"
    );
    assert_eq!(diagnostics_of(&log), diagnostics_of(&full));
    // And back, and a no-op: each prints what a full regen prints.
    std::fs::write(&doc, &text).unwrap();
    let back = regen_ok(&spec, &out);
    assert_eq!(diagnostics_of(&back), diagnostics_of(&first));
    let noop = regen_ok(&spec, &out);
    assert!(skipped(&noop));
    assert_eq!(diagnostics_of(&noop), diagnostics_of(&first));
    // A stamp whose renderings are damaged (their keys intact) renders them again.
    let stamp = out.join(xtask::stamp::FILE);
    let damaged: String = std::fs::read_to_string(&stamp)
        .unwrap()
        .lines()
        .map(|l| match l.strip_prefix("rendered ") {
            Some(json) => format!("rendered {}\n", json.replace("warning", "GARBAGE")),
            None => format!("{l}\n"),
        })
        .collect();
    std::fs::write(&stamp, damaged).unwrap();
    std::fs::write(&doc, &edited).unwrap();
    let log = regen_ok(&spec, &out);
    assert_eq!(diagnostics_of(&log), diagnostics_of(&full));
}

#[test]
fn a_file_kept_with_crlf_line_endings_is_still_watched() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_copy(dir.path());
    let out = dir.path().join("crate");
    regen_ok(&spec, &out);
    let module = out.join(MODULE);
    let crlf = std::fs::read_to_string(&module)
        .unwrap()
        .replace('\n', "\r\n");
    std::fs::write(&module, &crlf).unwrap();
    // A checkout with CRLF is not stale: kept as it is.
    assert_fresh(&spec, &out);
    assert!(regen_ok(&spec, &out).contains("regen: 0 written"));
    assert_eq!(std::fs::read_to_string(&module).unwrap(), crlf);
    // The stamp cannot vouch for its bytes, so no regen stops early on it.
    past_the_stamp(&out);
    let log = regen_ok(&spec, &out);
    assert!(!skipped(&log) && log.contains("regen: 0 written"), "{log}");
    // An edit of it is seen.
    std::fs::write(&module, format!("{crlf}// mine\r\n")).unwrap();
    assert!(regen_ok(&spec, &out).contains("regen: 1 written"));
    assert_full(&spec, &out, "after an edit of a CRLF file");
}
