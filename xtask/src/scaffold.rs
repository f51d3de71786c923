//! Keeps an `--out` crate whole. An empty directory becomes a crate that builds on its own: the
//! hand-written parts of the workspace's `generated/` crate (runtime, crate root, test support,
//! benches) are copied, and a standalone `Cargo.toml` is written. An existing crate gets the
//! current hand-written parts: each copy that differs from the workspace's is rewritten (only
//! those, so cargo rebuilds nothing else), and `--check` reports them; files the user added and
//! the manifest are never touched.

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

/// The hand-written files of `out` that are missing or differ from `template`'s, in path order;
/// none when `out` is `template` itself.
pub fn stale_runtime(out: &Path, template: &Path) -> io::Result<Vec<String>> {
    if !out.join("Cargo.toml").exists() || same_dir(out, template) {
        return Ok(Vec::new());
    }
    let mut stale = Vec::new();
    for (rel, bytes) in runtime_files(template)? {
        if !crate::write::file_holds(&out.join(&rel), &bytes)? {
            stale.push(rel);
        }
    }
    Ok(stale)
}

/// Rewrites the stale hand-written files of an existing crate `out` from `template`; returns
/// their paths. Unchanged files keep their mtime.
pub fn refresh_runtime(out: &Path, template: &Path) -> io::Result<Vec<String>> {
    let stale = stale_runtime(out, template)?;
    refresh_listed(out, template, &stale)?;
    Ok(stale)
}

/// Rewrites the hand-written files `stale` of `out` from `template` (found by
/// [`stale_runtime`], while the regen generated).
pub fn refresh_listed(out: &Path, template: &Path, stale: &[String]) -> io::Result<()> {
    for rel in stale {
        let to = out.join(rel);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(template.join(rel), to)?;
    }
    Ok(())
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
        let stale = vec!["src/runtime/codec.rs", "src/runtime/mod.rs"];
        assert_eq!(stale_runtime(o, t).unwrap(), stale);
        assert_eq!(refresh_runtime(o, t).unwrap(), stale);
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
        assert!(stale_runtime(o, t).unwrap().is_empty());
        // The template itself is never stale against itself.
        fs::write(t.join("Cargo.toml"), "[package]").unwrap();
        assert!(stale_runtime(t, t).unwrap().is_empty());
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
