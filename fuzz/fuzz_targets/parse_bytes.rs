//! Arbitrary bytes as a doc: the parser must report, never panic.
#![no_main]
use codegen::parse::{parse_spec, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files = [SourceFile {
        name: "FUZZ.md".into(),
        bytes: data.to_vec(),
    }];
    let parsed = parse_spec(&files);
    // Every diagnostic must point inside the file it names.
    for d in &parsed.diagnostics {
        assert!(d.span.start <= data.len().max(1) && d.line >= 1 && d.column >= 1, "{d:?}");
    }
    let _ = codegen::diag::render(&parsed.diagnostics, &files);
});
