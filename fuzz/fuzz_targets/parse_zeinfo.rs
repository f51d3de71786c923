//! Arbitrary text to the zeinfo reader, and arbitrary bytes to the patch-token reader: an
//! answer or an error with its place, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = core::str::from_utf8(data) {
        if let Err(e) = family::machine::zeinfo::parse(text) {
            assert!(e.at.line >= 1 && e.at.col >= 1, "{e}");
        }
    }
    let _ = family::machine::program::patch_tokens(data);
});
