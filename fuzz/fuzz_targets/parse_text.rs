//! Arbitrary text to `parse_instruction`: `Ok` or `Err`, never a panic; whatever parses prints,
//! and what it prints parses back to the same instruction.
#![no_main]
use libfuzzer_sys::fuzz_target;
use visa::runtime::text::IntelNames;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let names = IntelNames;
    if let Ok(inst) = visa::parse_instruction(text, &names) {
        let mut printed = String::new();
        if inst.print_text(&names, &mut printed).is_ok() {
            assert_eq!(
                visa::parse_instruction(&printed, &names).as_ref(),
                Ok(&inst),
                "{printed}"
            );
        }
    }
});
