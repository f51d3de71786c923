//! What the benches share: finding Intel's real files (`../shared/real-kernels/dg2`) and the
//! instruction streams inside them.

use std::path::PathBuf;

/// The dg2 directory: `$VISA_SHARED/real-kernels/dg2` (set by `cargo xtask bench`), else the
/// `../shared` beside the workspace. `None`, with the reason printed, when absent.
pub fn dg2_dir() -> Option<PathBuf> {
    let shared = std::env::var_os("VISA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let dir = shared.join("real-kernels/dg2");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "bench: {} is absent (set VISA_SHARED): the real-file benches are skipped",
            dir.display()
        );
        None
    }
}

/// Every file of `dir` with extension `ext`, sorted by name, with its bytes.
#[allow(dead_code)]
pub fn files(dir: &std::path::Path, ext: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == ext));
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect()
}

/// The instruction streams of every kernel and function of the dg2 files, concatenated: the
/// real mix (mov, add, mul and friends), re-encoded from what the reader decoded, which is
/// byte-identical to the files' own streams (family/tests/object_files.rs). Also the
/// instruction count. `None` when the files are absent or this crate cannot read them.
#[allow(dead_code)]
pub fn dg2_stream() -> Option<(Vec<u8>, usize)> {
    let dir = dg2_dir()?;
    let mut bytes = Vec::new();
    let mut count = 0;
    for (path, file) in files(&dir, "isa") {
        let Ok(f) = visa::object::File::parse(&file) else {
            eprintln!(
                "bench: {} does not parse with this crate: skipped",
                path.display()
            );
            continue;
        };
        let streams = f
            .kernels
            .iter()
            .map(|k| &k.data.instructions)
            .chain(f.functions.iter().map(|g| &g.data.instructions));
        for s in streams {
            for (_, inst) in &s.instructions {
                inst.encode(&mut bytes);
                count += 1;
            }
        }
    }
    (count > 0).then_some((bytes, count))
}
