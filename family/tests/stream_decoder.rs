//! `visa::runtime::Decoder`, which decodes a stream in place into one reused instruction,
//! gives exactly what `visa::decode` gives, instruction by instruction, and
//! `visa::runtime::Encoder` the bytes `encode` gives, on every instruction stream of
//! `../shared/real-kernels/dg2`.

#![cfg(not(family_absent))]

use visa::runtime::{Decoder, Encoder};

mod support;
use support::shared;

#[test]
fn stream_decoder_and_encoder_agree_with_decode_and_encode_on_every_dg2_stream() {
    let Some(shared) = shared() else { return };
    let paths = support::dg2_isa_files(&shared);
    let (mut streams, mut instructions) = (0, 0);
    for path in &paths {
        let file = visa::object::File::parse(&std::fs::read(path).expect("readable"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let routines = file.kernels.iter().map(|k| &k.data.instructions);
        for stream in routines.chain(file.functions.iter().map(|f| &f.data.instructions)) {
            // The stream's bytes, as the file holds them (object_files.rs shows the file
            // writes back byte for byte).
            let mut bytes = Vec::new();
            for (_, inst) in &stream.instructions {
                inst.encode(&mut bytes);
            }
            // The stream encoder writes the same bytes.
            let mut streamed = Vec::new();
            let mut encoder = Encoder::new(&mut streamed);
            for (_, inst) in &stream.instructions {
                encoder.push(inst);
            }
            drop(encoder);
            assert!(streamed == bytes, "{}: Encoder differs", path.display());
            let mut decoder = Decoder::new(&bytes);
            let mut n = 0;
            while let Some(item) = decoder.next() {
                let (at, inst) = item.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let (want_at, want) = &stream.instructions[n];
                assert_eq!((at, inst), (*want_at as usize, want), "{}", path.display());
                n += 1;
            }
            assert_eq!(n, stream.instructions.len(), "{}", path.display());
            // Cut inside the last instruction: the error `decode` gives, then nothing more.
            if let Some((last_at, _)) = stream.instructions.last() {
                let cut = &bytes[..bytes.len() - 1];
                let mut decoder = Decoder::new(cut);
                let mut last = None;
                while let Some(item) = decoder.next() {
                    last = Some(item.map(|(at, _)| at));
                }
                let want = visa::decode(&cut[*last_at as usize..])
                    .map(|_| 0)
                    .unwrap_err();
                assert_eq!(last, Some(Err(want)), "{}", path.display());
                assert_eq!(decoder.position(), *last_at as usize);
                assert!(decoder.next().is_none());
            }
            streams += 1;
            instructions += n;
        }
    }
    assert!(
        streams >= 58 && instructions >= 7_979,
        "{streams} streams, {instructions} instructions"
    );
}
