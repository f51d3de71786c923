//! The one writer that touches the disk (after rust-analyzer's `ensure_file_contents`).
//!
//! Generation is pure; this module turns its map of path → contents into a [`Plan`] of
//! changes, refuses the whole plan if any target is not ours (no `@generated` marker on its
//! first line), then writes only what changed, atomically, and removes generated files that are
//! no longer produced. Unchanged files are not touched, so their mtime stays and cargo rebuilds
//! nothing.

use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// A file is generated, and so ours to rewrite or remove, iff its first line contains this.
pub const MARKER: &str = "@generated";

/// Directories never searched for stale generated files.
const SKIP_DIRS: &[&str] = &["target"];

/// Extensions of the files the generator produces; only these are searched for stale files.
const GENERATED_EXTENSIONS: &[&str] = &["rs", "md"];

/// One change the writer would make, relative to the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Create {
        path: String,
        new: String,
    },
    Update {
        path: String,
        old: String,
        new: String,
    },
    Remove {
        path: String,
        old: String,
    },
}

impl Change {
    pub fn path(&self) -> &str {
        match self {
            Change::Create { path, .. }
            | Change::Update { path, .. }
            | Change::Remove { path, .. } => path,
        }
    }
}

/// What a run of [`apply`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub written: Vec<String>,
    pub removed: Vec<String>,
    pub unchanged: usize,
}

/// Why nothing was written.
#[derive(Debug)]
pub enum WriteError {
    /// Targets that exist without the marker: we never overwrite hand-written files.
    NotGenerated(Vec<PathBuf>),
    /// A path in the map escapes the output directory or is not relative.
    BadPath(String),
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotGenerated(paths) => {
                writeln!(
                    f,
                    "refusing to overwrite {} file(s) without the `{MARKER}` marker on their first line:",
                    paths.len()
                )?;
                for p in paths {
                    writeln!(f, "  {}", p.display())?;
                }
                write!(f, "move them away or add the marker if they are generated")
            }
            WriteError::BadPath(p) => write!(
                f,
                "generated path `{p}` is not a relative path inside the output directory"
            ),
            WriteError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for WriteError {}

/// The changes that would bring `out` in line with `files`, plus how many files already match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub changes: Vec<Change>,
    pub unchanged: usize,
}

/// Line endings are the only normalisation: a checkout with CRLF is not stale.
fn normalize(s: &str) -> String {
    if s.contains('\r') {
        s.replace("\r\n", "\n")
    } else {
        s.to_string()
    }
}

/// Does this text carry the marker on its first line?
pub fn is_generated(contents: &str) -> bool {
    contents.lines().next().is_some_and(|l| l.contains(MARKER))
}

fn checked_relative(path: &str) -> Result<&Path, WriteError> {
    let p = Path::new(path);
    let ok = !path.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)));
    if ok {
        Ok(p)
    } else {
        Err(WriteError::BadPath(path.to_string()))
    }
}

fn read_if_exists(path: &Path) -> Result<Option<String>, WriteError> {
    Ok(read_bytes_if_exists(path)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

fn read_bytes_if_exists(path: &Path) -> Result<Option<Vec<u8>>, WriteError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(WriteError::Io(path.to_path_buf(), e)),
    }
}

/// [`file_holds`] as a write error.
fn holds(path: &Path, expected: &[u8]) -> Result<bool, WriteError> {
    file_holds(path, expected).map_err(|e| WriteError::Io(path.to_path_buf(), e))
}

/// Whether the file at `path` holds exactly `expected`: compared a block at a time through
/// one small buffer, so the files a regen leaves as they were (most of them) cost no memory of
/// their size. A missing file holds nothing.
pub(crate) fn file_holds(path: &Path, expected: &[u8]) -> std::io::Result<bool> {
    let mut file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if file.metadata()?.len() != expected.len() as u64 {
        return Ok(false);
    }
    let mut block = [0u8; 16 * 1024];
    let mut rest = expected;
    loop {
        let n = match file.read(&mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(rest.is_empty());
        }
        match rest.split_at_checked(n) {
            Some((head, tail)) if head == &block[..n] => rest = tail,
            _ => return Ok(false),
        }
    }
}

/// Reads just enough of a file to see its first line.
fn first_line_is_marked(path: &Path) -> bool {
    let mut head = [0u8; 512];
    let n = fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    is_generated(&String::from_utf8_lossy(&head[..n]))
}

/// Every file under `dir` with a generated extension, as paths relative to `root` with `/`
/// separators: the candidates for removal. Listing only; nothing is read yet.
fn candidate_files(dir: &Path, rel: &str, out: &mut Vec<String>) -> Result<(), WriteError> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(WriteError::Io(dir.to_path_buf(), e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| WriteError::Io(dir.to_path_buf(), e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ty = entry
            .file_type()
            .map_err(|e| WriteError::Io(entry.path(), e))?;
        let path_of = |name: &str| match rel {
            "" => name.to_string(),
            _ => format!("{rel}/{name}"),
        };
        if ty.is_dir() {
            if !name.starts_with('.') && !SKIP_DIRS.contains(&name.as_ref()) {
                candidate_files(&entry.path(), &path_of(&name), out)?;
            }
        } else if ty.is_file()
            && Path::new(name.as_ref())
                .extension()
                .is_some_and(|e| GENERATED_EXTENSIONS.iter().any(|g| e == *g))
        {
            out.push(path_of(&name));
        }
    }
    Ok(())
}

/// Computes the changes without touching the disk. Fails, listing every offender, if a target
/// exists without the marker. A target that holds its new bytes is compared a block at a time
/// and not kept; any other is read whole (its contents are the diff's). Any other candidate is
/// read only far enough to see its marker (whole when it is a stale generated file).
pub fn plan(out: &Path, files: &BTreeMap<String, String>) -> Result<Plan, WriteError> {
    let mut plan = Plan::default();
    let mut foreign = Vec::new();
    for (rel, contents) in files {
        let path = out.join(checked_relative(rel)?);
        if is_generated(contents) && holds(&path, contents.as_bytes())? {
            plan.unchanged += 1;
            continue;
        }
        let text = |b: Vec<u8>| {
            String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
        };
        match read_bytes_if_exists(&path)?.map(text) {
            None => plan.changes.push(Change::Create {
                path: rel.clone(),
                new: normalize(contents),
            }),
            Some(old) if !is_generated(&old) => foreign.push(path),
            Some(old) => {
                let (old, new) = (normalize(&old), normalize(contents));
                if old == new {
                    plan.unchanged += 1;
                } else {
                    plan.changes.push(Change::Update {
                        path: rel.clone(),
                        old,
                        new,
                    });
                }
            }
        }
    }
    if !foreign.is_empty() {
        return Err(WriteError::NotGenerated(foreign));
    }
    stale_generated(out, files, &mut plan.changes)?;
    Ok(plan)
}

/// Adds to `changes` the removal of each generated file of `out` (found by its marker) that
/// `files` no longer has.
fn stale_generated(
    out: &Path,
    files: &BTreeMap<String, String>,
    changes: &mut Vec<Change>,
) -> Result<(), WriteError> {
    let mut existing = Vec::new();
    candidate_files(out, "", &mut existing)?;
    existing.sort();
    for rel in existing {
        if files.contains_key(&rel) {
            continue;
        }
        let path = out.join(&rel);
        if first_line_is_marked(&path) {
            let old = read_if_exists(&path)?.unwrap_or_default();
            changes.push(Change::Remove { path: rel, old });
        }
    }
    Ok(())
}

/// `--check`: the changes a regen would make; empty when everything is fresh. Writes nothing.
pub fn check(out: &Path, files: &BTreeMap<String, String>) -> Result<Vec<Change>, WriteError> {
    Ok(plan(out, files)?.changes)
}

/// Writes a file by temp file + rename, so a reader never sees half a file. Its directory
/// exists.
fn write_atomically(path: &Path, contents: &str) -> Result<(), WriteError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".regen-tmp");
    let tmp = PathBuf::from(tmp);
    fs::write(&tmp, contents).map_err(|e| WriteError::Io(tmp.clone(), e))?;
    fs::rename(&tmp, path).map_err(|e| WriteError::Io(path.to_path_buf(), e))
}

/// Brings `out` in line with `files`: all targets are checked before anything is written.
pub fn apply(out: &Path, files: &BTreeMap<String, String>) -> Result<Summary, WriteError> {
    write_plan(out, plan(out, files)?)
}

/// Makes the changes of `plan`, checked already, on every core (directories are made first);
/// on an error, the first failing change in plan order is reported.
pub fn write_plan(out: &Path, plan: Plan) -> Result<Summary, WriteError> {
    let mut made_dirs = BTreeSet::new();
    for change in &plan.changes {
        if let Change::Create { path, .. } | Change::Update { path, .. } = change {
            let full = out.join(path);
            if let Some(parent) = full.parent() {
                if made_dirs.insert(parent.to_path_buf()) {
                    fs::create_dir_all(parent).map_err(|e| WriteError::Io(full.clone(), e))?;
                }
            }
        }
    }
    let done: Vec<Result<(), WriteError>> = plan
        .changes
        .par_iter()
        .map(|change| {
            let full = out.join(change.path());
            match change {
                Change::Create { new, .. } | Change::Update { new, .. } => {
                    write_atomically(&full, new)
                }
                Change::Remove { .. } => {
                    fs::remove_file(&full).map_err(|e| WriteError::Io(full, e))
                }
            }
        })
        .collect();
    let mut summary = Summary {
        unchanged: plan.unchanged,
        ..Summary::default()
    };
    for (change, result) in plan.changes.into_iter().zip(done) {
        result?;
        match change {
            Change::Remove { path, .. } => summary.removed.push(path),
            change => summary.written.push(change.path().to_string()),
        }
    }
    Ok(summary)
}

/// Lines of diff shown per stale file.
const DIFF_LINES: usize = 40;

/// A short unified diff of `old` → `new`, cut after [`DIFF_LINES`] lines.
fn short_diff(path: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string();
    let total = text.lines().count();
    let mut out: String = text
        .lines()
        .take(DIFF_LINES)
        .map(|l| format!("    {l}\n"))
        .collect();
    if total > DIFF_LINES {
        out.push_str(&format!("    ... {} more diff lines\n", total - DIFF_LINES));
    }
    out
}

/// The `--check` report: each stale file with a short diff, and the command that fixes it.
pub fn describe_stale(changes: &[Change], command: &str) -> String {
    let mut s = format!("error: {} generated file(s) are stale:\n", changes.len());
    for c in changes {
        match c {
            Change::Create { path, new } => {
                s.push_str(&format!("  missing: {path}\n"));
                s.push_str(&short_diff(path, "", new));
            }
            Change::Update { path, old, new } => {
                s.push_str(&format!("  changed: {path}\n"));
                s.push_str(&short_diff(path, old, new));
            }
            Change::Remove { path, old } => {
                s.push_str(&format!("  no longer generated: {path}\n"));
                s.push_str(&short_diff(path, old, ""));
            }
        }
    }
    s.push_str(&format!("run `{command}` and commit the result\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect()
    }

    const A: &str = "// @generated by test\nfn a() {}\n";
    const B: &str = "// @generated by test\nfn b() {}\n";

    #[test]
    fn first_run_creates_every_file_and_second_run_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let files = map(&[("src/generated/a.rs", A), ("docs/b.md", B)]);
        let s = apply(dir.path(), &files).unwrap();
        assert_eq!(s.written, vec!["docs/b.md", "src/generated/a.rs"]);
        assert_eq!(
            fs::read_to_string(dir.path().join("src/generated/a.rs")).unwrap(),
            A
        );
        let again = apply(dir.path(), &files).unwrap();
        assert!(again.written.is_empty() && again.removed.is_empty());
        assert_eq!(again.unchanged, 2);
    }

    /// The summary lists files in path order, nested directories included, and removals
    /// happen alongside.
    #[test]
    fn files_of_many_directories_are_all_written_and_listed_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let old = map(&[("a/gone.rs", A)]);
        apply(dir.path(), &old).unwrap();
        let paths = [
            "a/b.rs",
            "a/c/d.rs",
            "a/e.rs",
            "docs/x.md",
            "root.rs",
            "z/y/w.rs",
        ];
        let files: BTreeMap<String, String> = paths
            .iter()
            .map(|p| (p.to_string(), format!("// @generated {p}\n")))
            .collect();
        let s = apply(dir.path(), &files).unwrap();
        assert_eq!(s.written, paths);
        assert_eq!(s.removed, ["a/gone.rs"]);
        for p in paths {
            let text = fs::read_to_string(dir.path().join(p)).unwrap();
            assert_eq!(text, format!("// @generated {p}\n"));
        }
        assert!(!dir.path().join("a/gone.rs").exists());
    }

    /// A failing write is reported as the first failure in path order, whichever thread met it.
    #[test]
    fn a_failed_write_reports_the_first_failing_path() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the writer puts its temp file makes that write fail.
        for blocked in ["b/2.rs.regen-tmp", "d/4.rs.regen-tmp"] {
            fs::create_dir_all(dir.path().join(blocked)).unwrap();
        }
        let files = map(&[("a/1.rs", A), ("b/2.rs", A), ("c/3.rs", A), ("d/4.rs", A)]);
        match apply(dir.path(), &files) {
            Err(WriteError::Io(path, _)) => assert!(path.ends_with("b/2.rs.regen-tmp"), "{path:?}"),
            other => panic!("expected an I/O error, got {other:?}"),
        }
    }

    #[test]
    fn unchanged_file_keeps_its_mtime() {
        let dir = tempfile::tempdir().unwrap();
        let files = map(&[("a.rs", A)]);
        apply(dir.path(), &files).unwrap();
        let path = dir.path().join("a.rs");
        let old = SystemTime::now() - Duration::from_secs(3600);
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        apply(dir.path(), &files).unwrap();
        assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), old);
    }

    /// Files are compared through a 16 KB block: a difference in any block, at a block's edge,
    /// or in length is seen, and a missing file holds nothing.
    #[test]
    fn a_file_holds_exactly_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let bytes: Vec<u8> = (0..40_000u32).map(|i| (i % 251) as u8).collect();
        assert!(!file_holds(&path, &bytes).unwrap(), "missing");
        fs::write(&path, &bytes).unwrap();
        assert!(file_holds(&path, &bytes).unwrap());
        assert!(
            !file_holds(&path, &bytes[..bytes.len() - 1]).unwrap(),
            "shorter"
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(!file_holds(&path, &longer).unwrap(), "longer");
        for at in [0, 16 * 1024 - 1, 16 * 1024, 32 * 1024 + 5, bytes.len() - 1] {
            let mut other = bytes.clone();
            other[at] ^= 1;
            assert!(!file_holds(&path, &other).unwrap(), "byte {at}");
        }
        fs::write(&path, b"").unwrap();
        assert!(file_holds(&path, b"").unwrap(), "empty");
    }

    #[test]
    fn crlf_checkout_is_not_stale() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a.rs"), A.replace('\n', "\r\n")).unwrap();
        assert!(check(dir.path(), &map(&[("a.rs", A)])).unwrap().is_empty());
    }

    #[test]
    fn file_without_marker_is_never_overwritten_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("hand.rs"), "fn mine() {}\n").unwrap();
        let files = map(&[("a.rs", A), ("hand.rs", B)]);
        let err = apply(dir.path(), &files).unwrap_err();
        assert!(
            matches!(&err, WriteError::NotGenerated(p) if p == &vec![dir.path().join("hand.rs")])
        );
        assert!(err.to_string().contains("without the `@generated` marker"));
        assert_eq!(
            fs::read_to_string(dir.path().join("hand.rs")).unwrap(),
            "fn mine() {}\n"
        );
        assert!(
            !dir.path().join("a.rs").exists(),
            "all-or-nothing: a.rs must not be written"
        );
    }

    #[test]
    fn stale_generated_file_is_removed_but_hand_written_and_target_files_stay() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("src/generated")).unwrap();
        fs::create_dir_all(dir.path().join("target/debug")).unwrap();
        fs::write(dir.path().join("src/generated/gone.rs"), B).unwrap();
        fs::write(dir.path().join("src/lib.rs"), "mod generated;\n").unwrap();
        fs::write(dir.path().join("target/debug/x.rs"), B).unwrap();
        let s = apply(dir.path(), &map(&[("src/generated/a.rs", A)])).unwrap();
        assert_eq!(s.removed, vec!["src/generated/gone.rs"]);
        assert!(!dir.path().join("src/generated/gone.rs").exists());
        assert!(dir.path().join("src/lib.rs").exists());
        assert!(dir.path().join("target/debug/x.rs").exists());
    }

    #[test]
    fn check_reports_every_kind_of_staleness_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("changed.rs"), A).unwrap();
        fs::write(dir.path().join("extra.rs"), A).unwrap();
        let files = map(&[("changed.rs", B), ("missing.rs", A)]);
        let changes = check(dir.path(), &files).unwrap();
        let paths: Vec<_> = changes.iter().map(Change::path).collect();
        assert_eq!(paths, vec!["changed.rs", "missing.rs", "extra.rs"]);
        assert!(!dir.path().join("missing.rs").exists());
        assert_eq!(
            fs::read_to_string(dir.path().join("changed.rs")).unwrap(),
            A
        );
        let report = describe_stale(&changes, "cargo xtask regen");
        assert!(report.contains("changed: changed.rs"));
        assert!(report.contains("-fn a() {}"));
        assert!(report.contains("+fn b() {}"));
        assert!(report.contains("missing: missing.rs"));
        assert!(report.contains("no longer generated: extra.rs"));
        assert!(report.ends_with("run `cargo xtask regen` and commit the result\n"));
    }

    #[test]
    fn paths_escaping_the_output_directory_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x.rs", "/etc/x.rs", "", "a/../../x.rs"] {
            let err = plan(dir.path(), &map(&[(bad, A)])).unwrap_err();
            assert!(matches!(err, WriteError::BadPath(_)), "{bad}");
        }
    }

    #[test]
    fn marker_must_be_on_the_first_line() {
        assert!(is_generated("// @generated x\nfn a(){}"));
        assert!(is_generated("<!-- @generated by x -->\n"));
        assert!(!is_generated("fn a(){}\n// @generated\n"));
        assert!(!is_generated(""));
    }
}
