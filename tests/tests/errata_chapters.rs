//! Errata of the chapters whose rules are hand-written (`5_operands.md`: the generator reads
//! only the pseudo-structures of `4_visa_header.md`, so the operands chapter's prose rules live
//! in `runtime/object/verify.rs` and the operand decoder, each citing its line). Their
//! corrections are errata in the same format as the docs' (`errata/*.patch`,
//! header with Intel's evidence, then one diff), which the runtime's rules follow and cite.
//! Each must apply, by the generator's own errata code, to the chapter in `../shared` it was
//! written for; one that no longer applies means the chapter changed and the rule must be
//! read again.

use codegen::parse::SourceFile;
use visa_tests::{root, shared};

#[test]
fn every_chapter_erratum_applies_to_its_chapter() {
    let Some(dir) = shared("visa-docs/chapters") else {
        return;
    };
    let errata: Vec<SourceFile> = codegen::errata::load_dir(&root().join("errata"), "errata")
        .expect("readable errata")
        .into_iter()
        .filter(|e| e.name.starts_with("errata/5_operands-"))
        .collect();
    assert!(errata.len() >= 3, "the operands chapter's errata");
    let chapter = SourceFile {
        name: "chapters/5_operands.md".into(),
        bytes: std::fs::read(dir.join("5_operands.md")).expect("the operands chapter"),
    };
    for e in &errata {
        // Each on its own: they touch different lines, and each states one correction.
        let corrected =
            codegen::errata::apply(std::slice::from_ref(&chapter), std::slice::from_ref(e));
        assert!(
            corrected.diagnostics.is_empty(),
            "{}: {:?}",
            e.name,
            corrected.diagnostics
        );
        assert_eq!(corrected.applied.len(), 1, "{}: applied once", e.name);
        let text = String::from_utf8_lossy(&corrected.files[0].bytes).into_owned();
        assert!(
            text.contains("readers") || text.contains("A reader"),
            "{}",
            e.name
        );
    }
    // All of them together, in name order, as a reader of the corrected chapter sees it.
    let all = codegen::errata::apply(std::slice::from_ref(&chapter), &errata);
    assert!(all.diagnostics.is_empty(), "{:?}", all.diagnostics);
    assert_eq!(all.applied.len(), errata.len());
}
