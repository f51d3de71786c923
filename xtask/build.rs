//! Gives the generator an identity for regen's no-op check: a hash of every source the
//! generator is made of (codegen's sources and templates, this crate's sources, the manifests and
//! the lock file, so every dependency's version and features), and of how it is built (the
//! compiler's version, the target, the profile). A change to any of them changes
//! `VISA_GENERATOR_ID`, so a regen after it is never skipped and no render cache of another
//! generator is read.

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = here.parent().unwrap_or(&here).to_path_buf();
    let inputs = [
        root.join("codegen/src"),
        root.join("codegen/templates"),
        root.join("codegen/Cargo.toml"),
        here.join("src"),
        here.join("Cargo.toml"),
        root.join("Cargo.lock"),
        root.join("Cargo.toml"),
    ];
    let mut all = Vec::new();
    for i in &inputs {
        println!("cargo:rerun-if-changed={}", i.display());
        if i.is_dir() {
            files(i, &mut all);
        } else {
            all.push(i.clone());
        }
    }
    all.sort();
    let mut h = DefaultHasher::new();
    for p in &all {
        h.write(
            p.strip_prefix(&root)
                .unwrap_or(p)
                .to_string_lossy()
                .as_bytes(),
        );
        h.write(&std::fs::read(p).unwrap_or_default());
    }
    // The same sources built by another compiler, for another target or profile, are another
    // binary.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    h.write(&version);
    for var in ["TARGET", "PROFILE", "OPT_LEVEL", "DEBUG"] {
        h.write(std::env::var(var).unwrap_or_default().as_bytes());
        h.write_u8(0);
    }
    println!("cargo:rustc-env=VISA_GENERATOR_ID={:016x}", h.finish());
    // The `xtask` binary is linked at a fixed address on Linux: a position-independent one
    // has about 21,600 relocations for the loader to apply at every start (the tables of
    // syn, clap, serde and the generator), which cost a regen about 1-2 ms of its wall time
    // (page faults on the tables it writes). Only the binary: tests and benches are unchanged.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
