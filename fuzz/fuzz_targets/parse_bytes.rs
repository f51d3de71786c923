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
    // Every diagnostic points inside the text it was read from (invalid UTF-8 is replaced, so
    // offsets are in the replaced text), at a line that exists.
    let text = String::from_utf8_lossy(data);
    let lines = text.split('\n').count() as u32;
    for d in &parsed.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?}");
        assert!(d.line >= 1 && d.line <= lines.max(1) && d.column >= 1, "{d:?}");
    }
    let _ = codegen::diag::render(&parsed.diagnostics, &files);
});
