//! Keeps an `--out` crate whole. An empty directory becomes a crate that builds on its own: the
//! hand-written parts of the workspace's `generated/` crate (runtime, crate root, test support,
//! benches) are copied, and a standalone `Cargo.toml` is written. An existing crate gets the
//! current hand-written parts: each copy that differs from the workspace's is rewritten (only
//! those, so cargo rebuilds nothing else), and each one an earlier regen copied that the
//! workspace no longer has is removed, if unedited (by the record `stamp::RUNTIME`); `--check`
//! reports both. Files the user added and the manifest are never touched.

use crate::stamp;
use crate::trust::{Entry, Kind, Sig, Trust};
use crate::write::is_generated;
use std::collections::BTreeMap;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

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

/// What keeps the hand-written runtime of an existing crate `out` from being the workspace's.
#[derive(Debug, Default, PartialEq)]
pub struct StaleRuntime {
    /// Missing from `out` or not as the workspace has them, in path order: rewritten.
    pub differ: Vec<String>,
    /// Copied by an earlier regen, no longer in the workspace's runtime, in path order.
    pub gone: Vec<Gone>,
    /// The files of `out` that are as the workspace has them, with their content hash: what
    /// the runtime record (`stamp::RUNTIME`) says once the regen is done.
    pub current: BTreeMap<String, u64>,
    /// Whether the record does not say so yet (an older regen, or a change): only a regen
    /// mends that, and nothing the crate builds from is stale for it.
    pub unrecorded: bool,
    /// Whether `out` was a crate, and so was checked (else a regen scaffolds it whole).
    pub(crate) checked: bool,
    /// Each file of the workspace's runtime: its signature as seen, its content hash.
    pub(crate) template: BTreeMap<String, (Option<Sig>, u64)>,
    /// The signature of each file of [`StaleRuntime::current`] in `out`, as seen.
    pub(crate) out: BTreeMap<String, Option<Sig>>,
}

/// A runtime file an earlier regen copied that the workspace's runtime no longer has.
#[derive(Debug, PartialEq)]
pub struct Gone {
    pub path: String,
    /// Its content is not what regen wrote: the user's now, kept (with a warning), forgotten.
    pub edited: bool,
}

impl StaleRuntime {
    /// The runtime files of `out` that hold the workspace's once [`refresh`] is done: all of
    /// the workspace's (none when `out` was no crate and was not checked).
    pub fn refreshed(&self) -> Vec<String> {
        self.template.keys().cloned().collect()
    }

    /// Whether the files of `out` are current (the record aside).
    pub fn is_empty(&self) -> bool {
        self.differ.is_empty() && self.gone.is_empty()
    }
}

/// The runtime files removed from the workspace before regen recorded what it copied
/// (`stamp::RUNTIME`), each with the content hash of every version any branch had. In a crate
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
    stale_runtime_trusting(out, template, &Trust::none())
}

/// [`stale_runtime`], not reading the files `trust` vouches for: a runtime file of `out` and
/// its template, both as the last regen left them and recorded with the same content, are the
/// same.
pub fn stale_runtime_trusting(
    out: &Path,
    template: &Path,
    trust: &Trust,
) -> io::Result<StaleRuntime> {
    let mut stale = StaleRuntime::default();
    if !out.join("Cargo.toml").exists() || same_dir(out, template) {
        return Ok(stale);
    }
    stale.checked = true;
    for (rel, (path, sig)) in runtime_paths(template)? {
        let to = out.join(&rel);
        if let Some(t) = trust.trusted(Kind::Template, &rel, sig) {
            let out_sig = Sig::at(&to);
            let copy = trust.trusted(Kind::Runtime, &rel, out_sig);
            if copy.is_some_and(|c| c.hash == t.hash) {
                stale.template.insert(rel.clone(), (sig, t.hash as u64));
                stale.current.insert(rel.clone(), t.hash as u64);
                stale.out.insert(rel, out_sig);
                continue;
            }
        }
        let bytes = fs::read(&path)?;
        if first_line_is_marked(&bytes) {
            continue;
        }
        let hash = stamp::content_hash(&bytes);
        stale.template.insert(rel.clone(), (sig, hash));
        // Compared a block at a time: most files are as they were, and need no copy.
        let out_sig = Sig::at(&to);
        if crate::write::file_holds(&to, &bytes)? {
            stale.current.insert(rel.clone(), hash);
            stale.out.insert(rel, out_sig);
        } else {
            stale.differ.push(rel);
        }
    }
    let recorded = stamp::read_runtime(out)?;
    stale.gone = gone(out, &stale.template, recorded.as_ref())?;
    stale.unrecorded = recorded.as_ref() != Some(&stale.current);
    Ok(stale)
}

/// Whether a file's first line says it is generated.
fn first_line_is_marked(bytes: &[u8]) -> bool {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    is_generated(&String::from_utf8_lossy(first))
}

/// Files by path relative to a directory: where each is, and its signature.
type Listing = BTreeMap<String, (PathBuf, Option<Sig>)>;

/// The files under the hand-written parts of `template`, by path relative to it, with their
/// signature (listing only: which of them are generated is seen when they are read).
fn runtime_paths(template: &Path) -> io::Result<Listing> {
    /// Adds the file or the files under the directory at `path`, at `rel` in the template.
    fn add(path: PathBuf, rel: String, meta: Metadata, out: &mut Listing) -> io::Result<()> {
        if meta.is_file() {
            out.insert(rel, (path, Sig::of(&meta)));
        } else if meta.is_dir() {
            for e in fs::read_dir(&path)? {
                let e = e?;
                // The entry's own metadata (no lookup of its whole path), but through a link.
                let meta = match e.file_type()?.is_symlink() {
                    true => fs::metadata(e.path())?,
                    false => e.metadata()?,
                };
                let rel = format!("{rel}/{}", e.file_name().to_string_lossy());
                add(e.path(), rel, meta, out)?;
            }
        }
        Ok(())
    }
    let mut files = BTreeMap::new();
    for part in HAND_WRITTEN {
        let path = template.join(part);
        match fs::metadata(&path) {
            Ok(meta) => add(path, part.to_string(), meta, &mut files)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(files)
}

/// The files of `out` that regen copied (by the record, else by [`REMOVED_BEFORE_RECORD`]) and
/// `files`, the workspace's runtime, no longer has.
fn gone<T>(
    out: &Path,
    files: &BTreeMap<String, T>,
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
        let hash = stamp::content_hash(&fs::read(file)?);
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
/// regen copied. Unchanged files keep their mtime. Returns what the next regen may trust of the
/// runtime (`crate::trust`): the stamp's lines of its files in `out` and in `template`.
pub fn refresh(out: &Path, template: &Path, stale: &StaleRuntime) -> io::Result<String> {
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
    if !stale.checked {
        return record(out, template);
    }
    // Every file of the template is now in `out` as the template has it: those that were, as
    // seen, and those copied.
    let mut copied = stale.current.clone();
    let mut lines = String::new();
    for (rel, &(template_sig, hash)) in &stale.template {
        let out_sig = match stale.out.get(rel) {
            Some(sig) => *sig,
            None => Sig::at(&out.join(rel)),
        };
        copied.insert(rel.clone(), hash);
        trust_lines(&mut lines, rel, template_sig, out_sig, hash);
    }
    stamp::record_runtime(out, &copied)?;
    Ok(lines)
}

/// Appends the stamp's lines of runtime file `rel`, in the template and in `out`, which hold
/// the content of hash `hash`.
fn trust_lines(lines: &mut String, rel: &str, template: Option<Sig>, out: Option<Sig>, hash: u64) {
    let hash = u128::from(hash);
    for (kind, sig) in [(Kind::Template, template), (Kind::Runtime, out)] {
        if let Some(sig) = sig {
            lines.push_str(&Trust::line(kind, rel, &Entry { sig, hash }));
        }
    }
}

/// Records the runtime files of `out` that are as `template` has them (all of them after a
/// refresh; in a directory that was no crate, not those it already held otherwise); returns
/// the stamp's lines of them, as [`refresh`].
fn record(out: &Path, template: &Path) -> io::Result<String> {
    if !out.join("Cargo.toml").exists() || same_dir(out, template) {
        return Ok(String::new());
    }
    let mut copied = BTreeMap::new();
    let mut lines = String::new();
    for (rel, (path, template_sig)) in runtime_paths(template)? {
        let bytes = fs::read(&path)?;
        if first_line_is_marked(&bytes) {
            continue;
        }
        let to = out.join(&rel);
        let out_sig = Sig::at(&to);
        if fs::read(&to).is_ok_and(|old| old == bytes) {
            let hash = stamp::content_hash(&bytes);
            copied.insert(rel.clone(), hash);
            trust_lines(&mut lines, &rel, template_sig, out_sig, hash);
        }
    }
    stamp::record_runtime(out, &copied)?;
    Ok(lines)
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
        fs::write(o.join(stamp::RUNTIME), record).unwrap();

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
        let mut rec = fs::read_to_string(o.join(stamp::RUNTIME)).unwrap();
        rec.push_str("src/runtime/old/deep.rs cbf29ce484222325\n");
        fs::write(o.join(stamp::RUNTIME), rec).unwrap();
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
            fs::read_to_string(o.join(stamp::RUNTIME))
                .unwrap()
                .lines()
                .nth(1),
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
}
