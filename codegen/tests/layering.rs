//! The pipeline's layers stay apart: emitters see only the analysed model. No file under
//! `codegen/src/emit`, tests included, names the schema or the parser (their tests build a
//! model through the crate's `testing` helpers).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_emitter_reads_the_schema_or_the_parser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/emit");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(
        files.len() > 10,
        "the emitters are under {}",
        root.display()
    );
    let mut offenders = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&f).unwrap();
        if text.contains("schema::") || text.contains("parse::") {
            offenders.push(rel);
        }
    }
    assert!(
        offenders.is_empty(),
        "emitters reading the schema or the parser: {offenders:?}"
    );
}
