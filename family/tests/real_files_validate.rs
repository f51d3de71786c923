//! Every instruction of the real vISA object files of `../shared/real-kernels/dg2` validates on
//! XEHP, the family of the platform they were compiled for (GEN binary platform 13 = DG2): what
//! `visa check FILE --platform XEHP` reports, kept at zero failures. The errata of
//! errata correct the docs where Intel's compiler writes what they forbade. CI
//! copies this file into the crate generated from `../shared/visa-docs/current/instructions`
//! and runs it there (see `.ci/run`), with `VISA_SHARED` naming the shared directory.

#![cfg(not(family_absent))]

use std::path::{Path, PathBuf};
use visa::object::File;
use visa::Platform;

fn corpus() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("VISA_SHARED") {
        candidates.push(PathBuf::from(dir));
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    candidates.push(here.join("../shared"));
    candidates.push(here.join("../../shared"));
    let found = candidates
        .into_iter()
        .map(|d| d.join("real-kernels/dg2"))
        .find(|d| d.is_dir());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "real-kernels/dg2 not found (set VISA_SHARED to the shared directory); CI is set: the corpus must be present"
        );
        println!("skipped: real-kernels/dg2 not found; set VISA_SHARED to the shared directory");
    }
    found
}

#[test]
fn every_real_instruction_validates_on_dg2() {
    let Some(dir) = corpus() else { return };
    let dg2 = Platform::from_name("DG2").expect("a platform");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "isa"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 58, "the dg2 corpus holds 58 object files");
    let (mut checked, mut failures) = (0usize, Vec::new());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let file = File::parse(&bytes).unwrap_or_else(|e| panic!("{name} must read: {e}"));
        let streams = file
            .kernels
            .iter()
            .map(|k| &k.data.instructions)
            .chain(file.functions.iter().map(|f| &f.data.instructions));
        for s in streams {
            assert!(s.stop.is_none(), "{name}: decoding stops");
            for (offset, inst) in &s.instructions {
                checked += 1;
                if let Err(e) = inst.validate(dg2) {
                    failures.push(format!(
                        "{name} at {offset}: {} {}: {}",
                        e.instruction, e.field, e.rule
                    ));
                }
            }
        }
    }
    println!(
        "{checked} instructions checked on XEHP, {} failure(s)",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Intel's printed text of the 58 files holds 7979 instruction lines (`    op ... /// $N`)
    // and 328 label lines (`NAME:`), each label being a LABEL instruction in the binary.
    assert_eq!(checked, 7979 + 328);
}
