//! Makes an `--out` directory a crate that builds on its own, with the runtime vendored whole.
//!
//! An out crate is three things:
//! - `Cargo.toml`, written once, when the directory is not a crate yet: the workspace's
//!   `generated/Cargo.toml` with its workspace inheritance resolved and its paths into
//!   `../runtime` made `runtime`, plus an empty `[workspace]` (and the workspace's
//!   `Cargo.lock`). It is the user's afterwards: regen never touches it again;
//! - `runtime/`, the workspace's hand-written `runtime/` copied whole. Regen owns that folder:
//!   every run makes it equal to the workspace's (a file that differs is rewritten, a file the
//!   workspace's lacks is removed), and `--check` lists what differs;
//! - what regen writes (`src/generated/`, `docs/`), through the writer.
//!
//! The workspace's own `generated/` reads the runtime in place (`../runtime`): it has no copy.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

/// The folder of an out crate that holds the vendored runtime.
pub const RUNTIME: &str = "runtime";

/// Where an out crate's `runtime/` is not the workspace's, by path relative to the crate root.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct StaleRuntime {
    /// Missing from the out crate, or not as the workspace has them: written by a regen.
    pub differ: Vec<String>,
    /// In the out crate's `runtime/` but not in the workspace's: removed by a regen.
    pub extra: Vec<String>,
}

impl StaleRuntime {
    pub fn is_empty(&self) -> bool {
        self.differ.is_empty() && self.extra.is_empty()
    }
}

/// Every file under `dir`, by path relative to `dir` (`/`-separated), with its bytes.
fn files_under(dir: &Path) -> io::Result<BTreeMap<String, Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) -> io::Result<()> {
        let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if path.is_file() {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), fs::read(&path)?);
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    if dir.is_dir() {
        walk(dir, dir, &mut out)?;
    }
    Ok(out)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Whether `out` is the workspace's own crate, which reads the runtime in place.
fn reads_runtime_in_place(out: &Path, root: &Path) -> bool {
    same_dir(out, &root.join("generated"))
}

/// What keeps `out`'s `runtime/` from being the workspace's (`root/runtime`); nothing for the
/// workspace's own crate.
pub fn stale_runtime(out: &Path, root: &Path) -> io::Result<StaleRuntime> {
    if reads_runtime_in_place(out, root) {
        return Ok(StaleRuntime::default());
    }
    let want = files_under(&root.join(RUNTIME))?;
    let have = files_under(&out.join(RUNTIME))?;
    Ok(StaleRuntime {
        differ: want
            .iter()
            .filter(|(rel, bytes)| have.get(*rel) != Some(*bytes))
            .map(|(rel, _)| format!("{RUNTIME}/{rel}"))
            .collect(),
        extra: have
            .keys()
            .filter(|rel| !want.contains_key(*rel))
            .map(|rel| format!("{RUNTIME}/{rel}"))
            .collect(),
    })
}

/// Makes `out`'s `runtime/` the workspace's: writes what `stale` says differs, removes what it
/// says the workspace lacks (and the folders that leaves empty).
pub fn refresh(out: &Path, root: &Path, stale: &StaleRuntime) -> io::Result<()> {
    for rel in &stale.differ {
        let from = root.join(rel);
        let to = out.join(rel);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&to, fs::read(&from)?)?;
    }
    for rel in &stale.extra {
        let path = out.join(rel);
        fs::remove_file(&path)?;
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| *d != out && d.starts_with(out.join(RUNTIME))) {
            if fs::read_dir(d)?.next().is_some() {
                break;
            }
            fs::remove_dir(d)?;
            dir = d.parent();
        }
    }
    Ok(())
}

/// Makes `out` a crate unless it is one already: its manifest ([`manifest`]) and the
/// workspace's lock file, which pins the versions the workspace tests with.
pub fn ensure_crate(out: &Path, root: &Path) -> io::Result<()> {
    if out.join("Cargo.toml").exists() {
        return Ok(());
    }
    let text = manifest(root)?;
    fs::create_dir_all(out)?;
    let lock = root.join("Cargo.lock");
    if lock.is_file() {
        fs::copy(&lock, out.join("Cargo.lock"))?;
    }
    fs::write(out.join("Cargo.toml"), text)
}

/// The workspace's `generated/Cargo.toml` as a standalone manifest: each `workspace = true`
/// replaced by what the workspace's manifest says, paths into `../runtime` made `runtime`, and
/// an empty `[workspace]` so that it builds alone.
pub fn manifest(root: &Path) -> io::Result<String> {
    let read = |path: &Path| -> io::Result<toml::Table> {
        fs::read_to_string(path)?
            .parse::<toml::Table>()
            .map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {e}", path.display()),
                )
            })
    };
    let mut crate_ = read(&root.join("generated/Cargo.toml"))?;
    let workspace = read(&root.join("Cargo.toml"))?;
    let shared = |key: &str| {
        workspace
            .get("workspace")
            .and_then(|w| w.get(key))
            .and_then(toml::Value::as_table)
            .cloned()
            .unwrap_or_default()
    };
    let (package, dependencies) = (shared("package"), shared("dependencies"));
    if let Some(p) = crate_
        .get_mut("package")
        .and_then(toml::Value::as_table_mut)
    {
        for (key, value) in p.iter_mut() {
            if is_inherited(value) {
                if let Some(v) = package.get(key) {
                    *value = v.clone();
                }
            }
        }
    }
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(deps) = crate_.get_mut(section).and_then(toml::Value::as_table_mut) else {
            continue;
        };
        for (name, dep) in deps.iter_mut() {
            if is_inherited(dep) {
                *dep = inherit(dep, dependencies.get(name));
            }
        }
    }
    let mut text = toml::to_string(&crate_)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    text = text.replace("\"../runtime/", "\"runtime/");
    text.push_str("\n[workspace]\n");
    Ok(text)
}

/// `{ workspace = true, ... }`, or `x.workspace = true`.
fn is_inherited(value: &toml::Value) -> bool {
    value
        .as_table()
        .and_then(|t| t.get("workspace"))
        .and_then(toml::Value::as_bool)
        == Some(true)
}

/// A dependency inherited from the workspace: the workspace's entry (a version or a table)
/// with the crate's own keys (`optional`, `features`) added.
fn inherit(local: &toml::Value, shared: Option<&toml::Value>) -> toml::Value {
    let mut out = match shared {
        Some(toml::Value::String(version)) => {
            let mut t = toml::Table::new();
            t.insert("version".into(), toml::Value::String(version.clone()));
            t
        }
        Some(toml::Value::Table(t)) => t.clone(),
        _ => toml::Table::new(),
    };
    if let Some(local) = local.as_table() {
        for (key, value) in local {
            match (key.as_str(), out.get_mut("features"), value) {
                ("workspace", _, _) => {}
                ("features", Some(toml::Value::Array(have)), toml::Value::Array(more)) => {
                    have.extend(more.iter().cloned())
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
    }
    toml::Value::Table(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// A made-up workspace: a manifest with shared package keys and dependencies, a
    /// `generated/Cargo.toml` inheriting them, and a runtime of two files.
    fn workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path();
        write(
            &w.join("Cargo.toml"),
            "[workspace]\nmembers = [\"generated\"]\n\n[workspace.package]\nedition = \"2021\"\n\n\
             [workspace.dependencies]\nclap = { version = \"4\", features = [\"derive\"] }\nlibm = \"0.2\"\n",
        );
        write(
            &w.join("generated/Cargo.toml"),
            "[package]\nname = \"visa\"\nversion = \"0.1.0\"\nedition.workspace = true\nbuild = \"../runtime/build.rs\"\n\n\
             [lib]\npath = \"../runtime/lib.rs\"\n\n[dependencies]\nclap = { workspace = true, optional = true, features = [\"env\"] }\n\
             libm = { workspace = true, optional = true }\n",
        );
        write(&w.join("runtime/lib.rs"), "pub mod runtime;\n");
        write(&w.join("runtime/runtime/mod.rs"), "pub struct R;\n");
        dir
    }

    #[test]
    fn the_manifest_is_the_workspaces_own_resolved_to_build_alone() {
        let w = workspace();
        let m: toml::Table = manifest(w.path()).unwrap().parse().unwrap();
        assert_eq!(m["package"]["edition"].as_str(), Some("2021"));
        assert_eq!(m["package"]["build"].as_str(), Some("runtime/build.rs"));
        assert_eq!(m["lib"]["path"].as_str(), Some("runtime/lib.rs"));
        let clap = &m["dependencies"]["clap"];
        assert_eq!(clap["version"].as_str(), Some("4"));
        assert_eq!(clap["optional"].as_bool(), Some(true));
        let features: Vec<&str> = clap["features"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(toml::Value::as_str)
            .collect();
        assert_eq!(features, ["derive", "env"]);
        assert_eq!(m["dependencies"]["libm"]["version"].as_str(), Some("0.2"));
        assert!(m["workspace"].as_table().is_some_and(toml::Table::is_empty));
    }

    #[test]
    fn the_runtime_is_vendored_whole_and_only_runtime_is_touched() {
        let w = workspace();
        let out = tempfile::tempdir().unwrap();
        let o = out.path().join("crate");
        ensure_crate(&o, w.path()).unwrap();
        let stale = stale_runtime(&o, w.path()).unwrap();
        assert_eq!(stale.differ, ["runtime/lib.rs", "runtime/runtime/mod.rs"]);
        refresh(&o, w.path(), &stale).unwrap();
        assert_eq!(
            fs::read_to_string(o.join("runtime/runtime/mod.rs")).unwrap(),
            "pub struct R;\n"
        );
        assert!(stale_runtime(&o, w.path()).unwrap().is_empty());
        // An edited copy, a file the workspace's runtime lacks, the user's own file and manifest.
        write(&o.join("runtime/lib.rs"), "// edited\n");
        write(&o.join("runtime/old/gone.rs"), "// removed upstream\n");
        write(&o.join("src/mine.rs"), "// the user's\n");
        write(&o.join("Cargo.toml"), "# the user's manifest\n");
        let stale = stale_runtime(&o, w.path()).unwrap();
        assert_eq!(stale.differ, ["runtime/lib.rs"]);
        assert_eq!(stale.extra, ["runtime/old/gone.rs"]);
        refresh(&o, w.path(), &stale).unwrap();
        ensure_crate(&o, w.path()).unwrap();
        assert_eq!(
            fs::read_to_string(o.join("runtime/lib.rs")).unwrap(),
            "pub mod runtime;\n"
        );
        assert!(!o.join("runtime/old").exists());
        assert_eq!(
            fs::read_to_string(o.join("src/mine.rs")).unwrap(),
            "// the user's\n"
        );
        assert_eq!(
            fs::read_to_string(o.join("Cargo.toml")).unwrap(),
            "# the user's manifest\n"
        );
    }

    #[test]
    fn the_workspaces_crate_reads_the_runtime_in_place() {
        let w = workspace();
        let stale = stale_runtime(&w.path().join("generated"), w.path()).unwrap();
        assert!(stale.is_empty());
    }
}
