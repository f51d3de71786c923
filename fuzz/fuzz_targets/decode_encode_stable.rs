//! decode → encode → decode is stable: re-encoding a decoded instruction gives exactly the
//! bytes it was decoded from, and decoding those gives the same instruction.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok((first, used)) = visa::decode(data) {
        let mut out = Vec::new();
        first.encode(&mut out);
        assert_eq!(&out[..], &data[..used], "re-encoding changed the bytes of {first:?}");
        let (second, used2) = visa::decode(&out).expect("re-encoded bytes must decode");
        assert_eq!(used2, out.len());
        assert_eq!(first, second);
    }
});
