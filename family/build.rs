//! Generates the family's modules with the workspace's generator, as `cargo xtask regen --spec
//! ../shared/visa-docs/current` does, into `OUT_DIR`, and declares them as the runtime's
//! `generated` module (`$OUT_DIR/generated.rs`, as `runtime/build.rs` does for a crate whose
//! modules are in its `src/generated/`). Without `../shared` (or `$VISA_SHARED`) the seeds of
//! `spec/` stand in, so the crate builds, and the cfg `family_absent` tells the tests to skip.

use std::path::{Path, PathBuf};

fn main() {
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = here
        .parent()
        .expect("family/ is in the workspace")
        .to_path_buf();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("crate");
    println!("cargo::rustc-check-cfg=cfg(family_absent)");
    println!("cargo::rerun-if-env-changed=VISA_SHARED");
    for watched in ["errata", "spec", "codegen/templates"] {
        println!("cargo::rerun-if-changed={}", root.join(watched).display());
    }
    let docs = docs(&root);
    let spec = match &docs {
        Some(docs) => {
            println!("cargo::rerun-if-changed={}", docs.display());
            docs.clone()
        }
        None => {
            println!("cargo::rustc-cfg=family_absent");
            println!(
                "cargo::warning=../shared/visa-docs/current not found (set VISA_SHARED): the family's tests are skipped"
            );
            root.join("spec")
        }
    };
    if xtask::regen(&spec, &out, false) != 0 {
        panic!(
            "regen of {} failed: see the build script's stderr",
            spec.display()
        );
    }
    let module = out.join("src/generated/mod.rs");
    let root_rs = format!(
        "/// Produced by `cargo xtask regen`: one module per opcode doc, and what spans them.\n#[rustfmt::skip]\n#[path = {:?}]\npub mod generated;\n",
        module.display().to_string()
    );
    let target =
        Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets it")).join("generated.rs");
    if std::fs::read_to_string(&target).ok().as_deref() != Some(root_rs.as_str()) {
        std::fs::write(&target, root_rs).expect("OUT_DIR is writable");
    }
}

/// Intel's current docs: `$VISA_SHARED/visa-docs/current`, else `../shared` beside the
/// workspace.
fn docs(root: &Path) -> Option<PathBuf> {
    let shared = std::env::var_os("VISA_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared"));
    Some(shared.join("visa-docs/current")).filter(|d| d.join("instructions").is_dir())
}
