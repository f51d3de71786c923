//! Arbitrary vISA text through the assembler, whole files as `visa asm` and the commands that
//! read text take them: `Ok` or diagnostics, never a panic; a file that assembles prints, and
//! its printed text (one routine after another, as a combined `.isaasm`) assembles again. The
//! three-level cache controls of IGC 2.x are split and put back without a panic too.
#![no_main]
use libfuzzer_sys::fuzz_target;
use visa::asm::{assemble, platform_line, Options, Source};
use visa::object::text::print_combined;
use visa::runtime::text::special::lsc::{insert_caching_l2, split_caching_l2};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let _ = platform_line(text);
    for line in text.lines() {
        if let Some((two, l2)) = split_caching_l2(line) {
            let _ = insert_caching_l2(&two, l2);
        }
    }
    let src = [Source {
        name: "fuzz.visaasm",
        text,
    }];
    if let Ok(file) = assemble(&src, Options::default()) {
        let printed = print_combined(&file);
        if printed.problems.is_empty() {
            let again = [Source {
                name: "printed.visaasm",
                text: &printed.text,
            }];
            let _ = assemble(&again, Options::default());
        }
        let _ = file.write();
    }
});
