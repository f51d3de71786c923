//! Helpers shared by the workspace's integration tests.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared/<rel>` beside the workspace (or `$VISA_SHARED/<rel>`), or `None` (with the reason printed) when it is
/// absent. Under CI (`CI` set) its absence is a failure, never a skip.
pub fn shared(rel: &str) -> Option<PathBuf> {
    // `VISA_SHARED` names the shared directory when it is not beside the workspace
    // (a git worktree one level deeper).
    let base = std::env::var_os("VISA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared"));
    let dir = base.join(rel);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{} is missing, and CI is set: the shared corpus must be present in CI",
            dir.display()
        );
    }
    eprintln!(
        "skipped: {} is absent (place ../shared beside the workspace to run this test)",
        dir.display()
    );
    None
}

/// The two instruction corpora of the shared docs, by label.
pub const CORPORA: &[&str] = &[
    "visa-docs/current/instructions",
    "visa-docs/2021/instructions",
];

/// The examples of the user guide's page on the crate, run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../docs/crate.md")]
pub struct CrateGuideDoctests;

/// The README's example, run as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// A shared family's docs as regen reads them, with the workspace's object-file chapter beside
/// them, and its errata (`errata/` for the current family, none for 2021).
pub fn family_with_errata(
    dir: &Path,
    corpus: &str,
) -> (
    Vec<codegen::parse::SourceFile>,
    Vec<codegen::parse::SourceFile>,
) {
    let docs = codegen::parse::load_spec(dir, Some(&root().join("spec/chapters")))
        .expect("readable corpus and chapters");
    let errata = if corpus.contains("current") {
        product_errata(&docs)
    } else {
        Vec::new()
    };
    (docs, errata)
}

/// The product's errata (`errata/`) that fit `docs`, as regen picks them by default: those
/// written for another revision, or for docs the set lacks, are left out.
pub fn product_errata(docs: &[codegen::parse::SourceFile]) -> Vec<codegen::parse::SourceFile> {
    let all = codegen::errata::load_dir(&root().join("errata"), "errata").expect("readable errata");
    codegen::errata::fitting(docs, &[], &all).0
}
