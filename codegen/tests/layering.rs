//! The pipeline's layers stay apart: emitters see only the analysed model. No file under
//! `codegen/src/emit`, tests included, names the schema or the parser (their tests build a
//! model through the crate's `testing` helpers).

mod common;

#[test]
fn no_emitter_reads_the_schema_or_the_parser() {
    let mut offenders = Vec::new();
    for (rel, text) in common::sources("src/emit", 11) {
        if text.contains("schema::") || text.contains("parse::") {
            offenders.push(rel);
        }
    }
    assert!(
        offenders.is_empty(),
        "emitters reading the schema or the parser: {offenders:?}"
    );
}
