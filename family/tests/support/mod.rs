//! Shared by the family's tests (each `tests/*.rs` is its own test crate and includes this
//! module).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The shared reference directory (`$VISA_SHARED`, else `../shared` or `../../shared` beside the
/// crate) holding `real-kernels/dg2`, or `None` with the reason printed. With `CI` set its
/// absence fails the test instead.
#[allow(dead_code)] // each test crate includes this module; not all of them read ../shared
pub fn shared() -> Option<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = std::env::var_os("VISA_SHARED")
        .map(PathBuf::from)
        .into_iter()
        .chain([here.join("../shared"), here.join("../../shared")])
        .find(|d| d.join("real-kernels/dg2").is_dir());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "real-kernels/dg2 not found (set VISA_SHARED to the shared directory); CI is set: the corpus must be present"
        );
        println!("skipped: real-kernels/dg2 not found; set VISA_SHARED to the shared directory");
    }
    found
}

/// The `.isa` files of `real-kernels/dg2` under `shared`, sorted by name.
#[allow(dead_code)] // each test crate includes this module; not all of them list the files
pub fn dg2_isa_files(shared: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join("real-kernels/dg2"))
        .expect("real-kernels/dg2 is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "isa"))
        .collect();
    files.sort();
    files
}

/// For each routine of `file` (kernels, then functions), the instructions (`$N`) that `visa
/// dis` prints as Intel prints them with a note: their text cannot show some of their bits
/// (FENCE 0xa1 prints `fence_sw`, SVM_BLOCK_ST 0x80 `svm_block_st (1)`), so our assembly of
/// that line writes what Intel's assembler writes for it, not these bytes.
#[allow(dead_code)] // each test crate includes this module; not all of them assemble
pub fn noted(file: &visa::object::File) -> Vec<BTreeSet<usize>> {
    use visa::object::text::{print_function, print_kernel};
    let printed = (0..file.kernels.len())
        .map(|k| print_kernel(file, k))
        .chain((0..file.functions.len()).map(|f| print_function(file, f)));
    printed
        .map(|p| {
            p.map(|p| {
                p.notes
                    .iter()
                    .filter_map(|n| n.instruction)
                    .map(|n| n as usize)
                    .collect()
            })
            .unwrap_or_default()
        })
        .collect()
}

/// The `visa` tool of this crate (built with `--features cli`, a default feature), or `None`
/// with the reason printed. With `CI` set its absence fails the test instead.
#[allow(dead_code)] // each test crate includes this module; not all of them run the tool
pub fn visa_tool() -> Option<PathBuf> {
    let found = option_env!("CARGO_BIN_EXE_visa").map(PathBuf::from);
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "visa was not built (--features cli); CI is set"
        );
        println!("skipped: the visa tool is not built (test with --features cli)");
    }
    found
}
