//! Helpers shared by the workspace's integration tests.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared/<rel>` beside the workspace (or under `$VISA_SHARED` when set, for worktrees
/// that do not sit beside it), or `None` (with the reason printed) when it is absent. Under CI
/// (`CI` set) its absence is a failure, never a skip.
pub fn shared(rel: &str) -> Option<PathBuf> {
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

/// The README's example, run as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
