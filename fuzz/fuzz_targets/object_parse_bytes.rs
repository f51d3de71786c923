//! Arbitrary bytes to `visa::object::File::parse`: no panic, every file that reads writes back
//! byte for byte, and reading allocates in proportion to the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common/bounded_alloc.rs"]
mod bounded_alloc;

#[global_allocator]
static ALLOC: bounded_alloc::Counting = bounded_alloc::Counting;

fuzz_target!(|data: &[u8]| {
    let (parsed, peak) = bounded_alloc::peak_of(|| visa::object::File::parse(data));
    assert!(
        peak <= bounded_alloc::parse_bound(data.len()),
        "reading {} bytes held {peak} heap bytes at once",
        data.len()
    );
    match parsed {
        Ok(file) => {
            let out = file.write().expect("a file that reads must write");
            assert!(out == data, "a file that reads writes back differently");
        }
        Err(e) => assert!(
            e.offset <= data.len() && !e.path.is_empty() && !e.message.is_empty(),
            "error without a place: {e:?}"
        ),
    }
});
