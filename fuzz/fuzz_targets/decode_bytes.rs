//! Arbitrary bytes to the decoder: `Ok` or `Err`, never a panic, and `Ok` never claims more
//! bytes than it was given.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((_, used)) = visa::decode(data) {
        assert!(used >= 1 && used <= data.len());
    }
});
