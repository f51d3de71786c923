//! Keeps an `--out` crate whole. An empty directory becomes a crate that builds on its own: the
//! hand-written parts of the workspace's `generated/` crate (runtime, crate root, test support,
//! benches) are copied, and a standalone `Cargo.toml` is written. An existing crate gets the
//! current hand-written parts: each copy that differs from the workspace's is rewritten (only
//! those, so cargo rebuilds nothing else), and each one an earlier regen copied that the
//! workspace no longer has is removed, if unedited (by the record `RUNTIME`); `--check`
//! reports both. Files the user added and the manifest are never touched.

use crate::write::is_generated;
use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

/// Hand-written parts of the `visa` crate that a scaffolded crate needs, relative to its root.
const HAND_WRITTEN: &[&str] = &[
    "src/lib.rs",
    "src/runtime",
    "src/object",
    "src/asm",
    "src/machine",
    "src/bin",
    "src/test_support.rs",
    "benches",
];

/// A standalone manifest: no workspace inheritance, its own `[workspace]` so it builds alone.
fn manifest(template: &Path) -> String {
    let has_benches = template.join("benches").is_dir();
    let mut m = String::from(
        "[package]\nname = \"visa\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[features]\ncli = [\"dep:clap\", \"machine\"]\nmachine = [\"libm\"]\nlibm = [\"dep:libm\"]\n\n\
         [dependencies]\nclap = { version = \"4\", features = [\"derive\"], optional = true }\n\
         libm = { version = \"0.2\", optional = true }\n\n\
         [dev-dependencies]\nproptest = \"1\"\n",
    );

    if has_benches {
        m.push_str(
            "criterion = { version = \"0.5\", default-features = false, features = [\"cargo_bench_support\"] }\n",
        );
        if let Ok(entries) = fs::read_dir(template.join("benches")) {
            let mut names: Vec<String> = entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let p = e.path();
                    if p.extension()? != "rs" {
                        return None;
                    }
                    Some(p.file_stem()?.to_string_lossy().into_owned())
                })
                .collect();
            names.sort();
            for n in names {
                m.push_str(&format!("\n[[bench]]\nname = \"{n}\"\nharness = false\n"));
            }
        }
    }
    if template.join("src/bin/visa.rs").is_file() {
        m.push_str("\n[[bin]]\nname = \"visa\"\nrequired-features = [\"cli\"]\n");
    }
    m
}

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    if from.is_dir() {
        fs::create_dir_all(to)?;
        let mut entries: Vec<_> = fs::read_dir(from)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
    } else if from.is_file() && !to.exists() {
        let text = fs::read(from)?;
        // Only hand-written files: generated ones come from the generator itself.
        if !is_generated(&String::from_utf8_lossy(&text)) {
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(to, text)?;
        }
    }
    Ok(())
}

/// The hand-written files of `template` a crate needs, by path relative to the crate root.
pub fn runtime_files(template: &Path) -> io::Result<BTreeMap<String, Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) -> io::Result<()> {
        if dir.is_file() {
            let bytes = fs::read(dir)?;
            // Only the first line says whether a file is generated.
            let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
            if !is_generated(&String::from_utf8_lossy(first)) {
                let rel = dir.strip_prefix(root).unwrap_or(dir);
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), bytes);
            }
            return Ok(());
        }
        if dir.is_dir() {
            for e in fs::read_dir(dir)? {
                walk(root, &e?.path(), out)?;
            }
        }
        Ok(())
    }
    let mut files = BTreeMap::new();
    for part in HAND_WRITTEN {
        walk(template, &template.join(part), &mut files)?;
    }
    Ok(files)
}

/// What keeps the hand-written runtime of an existing crate `out` from being the workspace's.
#[derive(Debug, Default, PartialEq)]
pub struct StaleRuntime {
    /// Missing from `out` or not as the workspace has them, in path order: rewritten.
    pub differ: Vec<String>,
    /// Copied by an earlier regen, no longer in the workspace's runtime, in path order.
    pub gone: Vec<Gone>,
    /// The files of `out` that are as the workspace has them, with their content hash: what
    /// the runtime record (`RUNTIME`) says once the regen is done.
    pub current: BTreeMap<String, u64>,
    /// Whether the record does not say so yet (an older regen, or a change): only a regen
    /// mends that, and nothing the crate builds from is stale for it.
    pub unrecorded: bool,
}

/// A runtime file an earlier regen copied that the workspace's runtime no longer has.
#[derive(Debug, PartialEq)]
pub struct Gone {
    pub path: String,
    /// Its content is not what regen wrote: the user's now, kept (with a warning), forgotten.
    pub edited: bool,
}

impl StaleRuntime {
    /// Whether the files of `out` are current (the record aside).
    pub fn is_empty(&self) -> bool {
        self.differ.is_empty() && self.gone.is_empty()
    }
}

/// The runtime files removed from the workspace before regen recorded what it copied
/// (`RUNTIME`), each with the content hash of every version any branch had. In a crate
/// without a record (written by an older regen), a file at one of these paths with one of these
/// contents is one regen copied and is removed; other content is kept with a warning, and any
/// other file is never touched. Later removals are found by the record: this list is closed.
const REMOVED_BEFORE_RECORD: &[(&str, &[u64])] = &[
    ("src/object/print_text_shim.rs", &[0xf852d64274292b84]),
    ("src/object/text/literal.rs", &[0xa83b2be79755ee63]),
    (
        "src/runtime/text/special/load_3d.rs",
        &[0x10f48046f871a2e1, 0xa9b7fe213f69769d],
    ),
    ("src/runtime/text/special/members.rs", &[0x910e2395918fb461]),
    (
        "src/runtime/text/special/sample_3d.rs",
        &[0xe622789b232546c7, 0x3a98a46a86559d9b],
    ),
];

/// The hand-written files of `out` that are not `template`'s (see [`StaleRuntime`]); none when
/// `out` is no crate yet or is `template` itself.
pub fn stale_runtime(out: &Path, template: &Path) -> io::Result<StaleRuntime> {
    let mut stale = StaleRuntime::default();
    if !out.join("Cargo.toml").exists() || same_dir(out, template) {
        return Ok(stale);
    }
    let files = runtime_files(template)?;
    for (rel, bytes) in &files {
        // Compared a block at a time: most files are as they were, and need no copy.
        if crate::write::file_holds(&out.join(rel), bytes)? {
            stale.current.insert(rel.clone(), content_hash(bytes));
        } else {
            stale.differ.push(rel.clone());
        }
    }
    let recorded = read_runtime(out)?;
    stale.gone = gone(out, &files, recorded.as_ref())?;
    stale.unrecorded = recorded.as_ref() != Some(&stale.current);
    Ok(stale)
}

/// The files of `out` that regen copied (by the record, else by [`REMOVED_BEFORE_RECORD`]) and
/// `files`, the workspace's runtime, no longer has.
fn gone(
    out: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    recorded: Option<&BTreeMap<String, u64>>,
) -> io::Result<Vec<Gone>> {
    let copied: Vec<(&str, &[u64])> = match recorded {
        Some(r) => r
            .iter()
            .map(|(p, h)| (p.as_str(), std::slice::from_ref(h)))
            .collect(),
        None => REMOVED_BEFORE_RECORD.to_vec(),
    };
    let mut gone = Vec::new();
    for (path, hashes) in copied {
        let file = out.join(path);
        if files.contains_key(path) || !in_runtime(path) || !file.is_file() {
            continue;
        }
        let hash = content_hash(&fs::read(file)?);
        gone.push(Gone {
            path: path.to_string(),
            edited: !hashes.contains(&hash),
        });
    }
    Ok(gone)
}

/// Whether `path` (from the record, which anyone can edit) names a file under one of
/// [`HAND_WRITTEN`]: regen removes nothing else.
fn in_runtime(path: &str) -> bool {
    let plain = path
        .split('/')
        .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\\'));
    plain
        && HAND_WRITTEN.iter().any(|part| {
            path.strip_prefix(part)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
}

/// Brings the runtime of an existing crate `out` to `template`'s: rewrites the files that
/// differ, removes the unedited gone ones (and directories they leave empty), and records what
/// regen copied. Unchanged files keep their mtime.
pub fn refresh(out: &Path, template: &Path, stale: &StaleRuntime) -> io::Result<()> {
    for rel in &stale.differ {
        let to = out.join(rel);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(template.join(rel), to)?;
    }
    for g in stale.gone.iter().filter(|g| !g.edited) {
        let file = out.join(&g.path);
        fs::remove_file(&file)?;
        // Directories the removal leaves empty go too (`remove_dir` refuses any other).
        let mut dir = file.parent();
        while let Some(d) = dir {
            if d == out || fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
    record(out, template)
}

/// Records the runtime files of `out` that are as `template` has them (all of them after a
/// refresh; in a directory that was no crate, not those it already held otherwise).
fn record(out: &Path, template: &Path) -> io::Result<()> {
    if !out.join("Cargo.toml").exists() || same_dir(out, template) {
        return Ok(());
    }
    let mut copied = BTreeMap::new();
    for (rel, bytes) in runtime_files(template)? {
        if fs::read(out.join(&rel)).is_ok_and(|old| old == bytes) {
            copied.insert(rel, content_hash(&bytes));
        }
    }
    record_runtime(out, &copied)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Scaffolds `out` from `template` (the workspace's `generated/`) unless `out` is a crate already.
pub fn ensure_crate(out: &Path, template: &Path) -> io::Result<()> {
    if out.join("Cargo.toml").exists() {
        return Ok(());
    }
    fs::create_dir_all(out)?;
    for part in HAND_WRITTEN {
        copy_tree(&template.join(part), &out.join(part))?;
    }
    // The workspace's lock file pins the same dependency versions the workspace tests with.
    let lock = template.join("../Cargo.lock");
    if lock.is_file() {
        fs::copy(&lock, out.join("Cargo.lock"))?;
    }
    fs::write(out.join("Cargo.toml"), manifest(template))
}

/// The record of the hand-written runtime files regen copied into an output crate: a comment
/// line, then `path hash` per file (the FNV-1a 64 of its content, in hex). Never written into
/// the workspace's own `generated/`, which is the runtime.
///
/// It is a source, not a cache: it is how regen tells a runtime file it wrote from one the user
/// added, so that it removes the first once the workspace's runtime no longer has it, and never
/// touches the second ([`stale_runtime`]).
pub const RUNTIME: &str = ".regen-runtime";

const RUNTIME_HEADER: &str =
    "# runtime files `cargo xtask regen` copied into this crate: path, FNV-1a 64 of the content";

/// The content hash of the runtime record: FNV-1a 64, fixed by its definition (unlike std's
/// hasher), so a record stays readable by every later build of regen.
pub fn content_hash(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    h.finish()
}

/// The runtime record of `out`, `None` when it has none (a crate an older regen wrote, or the
/// record was deleted). A line that cannot be read is skipped: it proves nothing regen wrote.
pub fn read_runtime(out: &Path) -> std::io::Result<Option<BTreeMap<String, u64>>> {
    let text = match std::fs::read_to_string(out.join(RUNTIME)) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let entry = |line: &str| {
        let (path, hash) = line.rsplit_once(' ')?;
        Some((path.to_string(), u64::from_str_radix(hash, 16).ok()?))
    };
    let lines = text.lines().filter(|l| !l.starts_with('#'));
    Ok(Some(lines.filter_map(entry).collect()))
}

/// Records `files` (path and content hash) as the runtime files regen copied into `out`;
/// writes only when the record changes.
pub fn record_runtime(out: &Path, files: &BTreeMap<String, u64>) -> std::io::Result<()> {
    let mut text = format!("{RUNTIME_HEADER}\n");
    for (path, hash) in files {
        text.push_str(&format!("{path} {hash:016x}\n"));
    }
    match std::fs::read_to_string(out.join(RUNTIME)) {
        Ok(old) if old == text => Ok(()),
        // A source, written only when it changes: ext4 keeps it whole through a crash.
        _ => std::fs::write(out.join(RUNTIME), text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaffold_copies_hand_written_files_only_and_writes_a_standalone_manifest() {
        let tpl = tempfile::tempdir().unwrap();
        let t = tpl.path();
        fs::create_dir_all(t.join("src/runtime")).unwrap();
        fs::create_dir_all(t.join("src/generated")).unwrap();
        fs::write(t.join("src/lib.rs"), "mod runtime;\n").unwrap();
        fs::write(t.join("src/runtime/mod.rs"), "pub struct R;\n").unwrap();
        fs::write(t.join("src/generated/mod.rs"), "// @generated\n").unwrap();
        let out = tempfile::tempdir().unwrap();
        let o = out.path().join("crate");
        ensure_crate(&o, t).unwrap();
        assert_eq!(
            fs::read_to_string(o.join("src/lib.rs")).unwrap(),
            "mod runtime;\n"
        );
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/mod.rs")).unwrap(),
            "pub struct R;\n"
        );
        assert!(!o.join("src/generated/mod.rs").exists());
        let m = fs::read_to_string(o.join("Cargo.toml")).unwrap();
        assert!(
            m.contains("[workspace]") && !m.contains("workspace = true"),
            "{m}"
        );
    }

    #[test]
    fn a_stale_runtime_is_refreshed_and_a_file_the_user_added_is_not_touched() {
        let tpl = tempfile::tempdir().unwrap();
        let t = tpl.path();
        fs::create_dir_all(t.join("src/runtime")).unwrap();
        fs::write(t.join("src/lib.rs"), "mod runtime;\n").unwrap();
        fs::write(t.join("src/runtime/mod.rs"), "pub struct New;\n").unwrap();
        fs::write(t.join("src/runtime/codec.rs"), "pub struct C;\n").unwrap();
        let out = tempfile::tempdir().unwrap();
        let o = out.path();
        fs::create_dir_all(o.join("src/runtime")).unwrap();
        fs::write(o.join("Cargo.toml"), "mine").unwrap();
        fs::write(o.join("src/lib.rs"), "mod runtime;\n").unwrap();
        fs::write(o.join("src/runtime/mod.rs"), "pub struct Old;\n").unwrap();
        fs::write(o.join("src/runtime/extra.rs"), "// the user's\n").unwrap();
        // mod.rs differs and codec.rs is missing; lib.rs is current.
        let stale = stale_runtime(o, t).unwrap();
        assert_eq!(stale.differ, ["src/runtime/codec.rs", "src/runtime/mod.rs"]);
        assert!(stale.gone.is_empty() && stale.unrecorded);
        refresh(o, t, &stale).unwrap();
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/mod.rs")).unwrap(),
            "pub struct New;\n"
        );
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/codec.rs")).unwrap(),
            "pub struct C;\n"
        );
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/extra.rs")).unwrap(),
            "// the user's\n"
        );
        assert_eq!(fs::read_to_string(o.join("Cargo.toml")).unwrap(), "mine");
        let after = stale_runtime(o, t).unwrap();
        assert!(after.is_empty() && !after.unrecorded, "{after:?}");
        // The template itself is never stale against itself.
        fs::write(t.join("Cargo.toml"), "[package]").unwrap();
        assert_eq!(stale_runtime(t, t).unwrap(), StaleRuntime::default());
    }

    #[test]
    fn files_regen_copied_that_the_runtime_dropped_go_and_nothing_else_is_touched() {
        let tpl = tempfile::tempdir().unwrap();
        let t = tpl.path();
        fs::create_dir_all(t.join("src/runtime")).unwrap();
        fs::write(t.join("src/lib.rs"), "mod runtime;\n").unwrap();
        fs::write(t.join("src/runtime/mod.rs"), "").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let o = &dir.path().join("crate");
        fs::create_dir_all(o.join("src/runtime/old")).unwrap();
        fs::write(o.join("Cargo.toml"), "a").unwrap();
        fs::write(o.join("src/lib.rs"), "mod runtime;\n").unwrap();
        fs::write(o.join("src/runtime/mod.rs"), "").unwrap();
        let files = [
            ("src/runtime/old.rs", "a"),
            ("src/runtime/old/deep.rs", ""),
            ("src/runtime/edited.rs", "b"),
            ("src/runtime/mine.rs", "a"),
            ("src/runtime/old/mine.rs", "foobar"),
        ];
        for (path, text) in files {
            fs::write(o.join(path), text).unwrap();
        }
        fs::write(dir.path().join("escape.rs"), "").unwrap();
        // As an earlier regen recorded them: FNV-1a 64 of "a", "" and "foobar" (the published
        // test vectors); then paths regen never copies, which it must not remove either.
        let record = "# earlier\nsrc/runtime/old.rs af63dc4c8601ec8c\n\
            src/runtime/old/deep.rs cbf29ce484222325\nsrc/runtime/edited.rs af63dc4c8601ec8c\n\
            src/lib.rs 85944171f73967e8\n../escape.rs cbf29ce484222325\nCargo.toml af63dc4c8601ec8c\n\
            src/runtime/../../Cargo.toml af63dc4c8601ec8c\n";
        fs::write(o.join(RUNTIME), record).unwrap();

        let stale = stale_runtime(o, t).unwrap();
        let gone = |path: &str, edited| Gone {
            path: path.into(),
            edited,
        };
        assert_eq!(
            stale.gone,
            [
                gone("src/runtime/edited.rs", true),
                gone("src/runtime/old.rs", false),
                gone("src/runtime/old/deep.rs", false),
            ]
        );
        assert!(stale.differ.is_empty() && stale.unrecorded);
        refresh(o, t, &stale).unwrap();
        assert!(!o.join("src/runtime/old.rs").exists());
        assert!(!o.join("src/runtime/old/deep.rs").exists());
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/edited.rs")).unwrap(),
            "b"
        );
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/mine.rs")).unwrap(),
            "a"
        );
        assert_eq!(
            fs::read_to_string(o.join("src/runtime/old/mine.rs")).unwrap(),
            "foobar"
        );
        assert_eq!(fs::read_to_string(o.join("Cargo.toml")).unwrap(), "a");
        assert!(dir.path().join("escape.rs").exists());
        // Now the record names the current runtime only: the edited file is the user's.
        let after = stale_runtime(o, t).unwrap();
        assert!(after.is_empty() && !after.unrecorded, "{after:?}");
        assert_eq!(after.current.len(), 2);
        // A directory a removal empties goes with it.
        fs::remove_file(o.join("src/runtime/old/mine.rs")).unwrap();
        fs::write(o.join("src/runtime/old/deep.rs"), "").unwrap();
        let mut rec = fs::read_to_string(o.join(RUNTIME)).unwrap();
        rec.push_str("src/runtime/old/deep.rs cbf29ce484222325\n");
        fs::write(o.join(RUNTIME), rec).unwrap();
        refresh(o, t, &stale_runtime(o, t).unwrap()).unwrap();
        assert!(!o.join("src/runtime/old").exists());
        assert!(o.join("src/runtime/mod.rs").exists());
    }

    #[test]
    fn without_a_record_only_the_known_removed_runtime_files_are_considered() {
        let tpl = tempfile::tempdir().unwrap();
        let t = tpl.path();
        fs::create_dir_all(t.join("src")).unwrap();
        fs::write(t.join("src/lib.rs"), "").unwrap();
        let out = tempfile::tempdir().unwrap();
        let o = out.path();
        fs::create_dir_all(o.join("src/runtime/text/special")).unwrap();
        fs::write(o.join("Cargo.toml"), "").unwrap();
        fs::write(o.join("src/lib.rs"), "").unwrap();
        // At a path an older runtime had, with content none of its versions had; and a file
        // of no runtime's.
        fs::write(o.join("src/runtime/text/special/members.rs"), "mine").unwrap();
        fs::write(o.join("src/runtime/text/special/other.rs"), "").unwrap();
        let stale = stale_runtime(o, t).unwrap();
        assert_eq!(
            stale.gone,
            [Gone {
                path: "src/runtime/text/special/members.rs".into(),
                edited: true
            }]
        );
        assert!(stale.unrecorded);
        refresh(o, t, &stale).unwrap();
        assert!(o.join("src/runtime/text/special/members.rs").exists());
        assert!(o.join("src/runtime/text/special/other.rs").exists());
        assert_eq!(
            fs::read_to_string(o.join(RUNTIME)).unwrap().lines().nth(1),
            Some("src/lib.rs cbf29ce484222325")
        );
        assert_eq!(
            stale_runtime(o, t).unwrap().gone,
            [],
            "forgotten once recorded"
        );
    }

    #[test]
    fn an_existing_crate_is_left_alone() {
        let out = tempfile::tempdir().unwrap();
        fs::write(out.path().join("Cargo.toml"), "mine").unwrap();
        ensure_crate(out.path(), Path::new("/nonexistent")).unwrap();
        assert_eq!(
            fs::read_to_string(out.path().join("Cargo.toml")).unwrap(),
            "mine"
        );
    }

    #[test]
    fn the_runtime_record_hashes_with_fnv_1a_64_and_reads_back() {
        // The published FNV-1a 64 test vectors: a record written today reads the same forever.
        assert_eq!(content_hash(b""), 0xcbf29ce484222325);
        assert_eq!(content_hash(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(content_hash(b"foobar"), 0x85944171f73967e8);
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_runtime(dir.path()).unwrap(), None, "no record");
        let files = BTreeMap::from([
            ("src/lib.rs".to_string(), 0x85944171f73967e8),
            ("src/runtime/a b.rs".to_string(), 7),
        ]);
        record_runtime(dir.path(), &files).unwrap();
        let text = std::fs::read_to_string(dir.path().join(RUNTIME)).unwrap();
        assert!(
            text.ends_with("\nsrc/lib.rs 85944171f73967e8\nsrc/runtime/a b.rs 0000000000000007\n"),
            "{text}"
        );
        assert_eq!(read_runtime(dir.path()).unwrap(), Some(files));
        std::fs::write(
            dir.path().join(RUNTIME),
            "# x\nno-hash\nsrc/a.rs zz\nsrc/b.rs 1f\n",
        )
        .unwrap();
        assert_eq!(
            read_runtime(dir.path()).unwrap(),
            Some(BTreeMap::from([("src/b.rs".to_string(), 0x1f)])),
            "unreadable lines skipped"
        );
    }
}
