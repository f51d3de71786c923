//! Points the runtime's crate root (`lib.rs`) at the modules regen wrote into this crate's
//! `src/generated/`: `$OUT_DIR/generated.rs` declares `mod generated` at their path. A crate
//! whose build script generates its modules elsewhere (the workspace's `family/`) writes the
//! same file itself.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let module = manifest.join("src/generated/mod.rs");
    let declaration = format!(
        "/// Produced by `cargo xtask regen`: one module per opcode doc, and what spans them.\n\
         #[rustfmt::skip]\n#[path = {:?}]\npub mod generated;\n",
        module.display().to_string()
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let target = out.join("generated.rs");
    if std::fs::read_to_string(&target).ok().as_deref() != Some(declaration.as_str()) {
        std::fs::write(&target, declaration).expect("OUT_DIR is writable");
    }
}
