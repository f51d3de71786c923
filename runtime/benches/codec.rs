//! Codec throughput of the generated crate, on two streams: at least 100,000 random valid
//! instructions mixing every instruction (group `codec`), and the real instruction streams of
//! Intel's dg2 files (group `dg2`, skipped when `../shared` is absent). Each is decoded and
//! encoded whole, against a memcpy of the same bytes measured in the same run (the ceiling).
//! `decode` decodes every instruction to a value the loop consumes (what a disassembler or
//! simulator does, and what peers' decode figures measure); `decode_collect` also stores each
//! in a `Vec<Instruction>`. Heap allocations per decoded instruction are counted by a counting
//! global allocator.
//!
//! The stream is built from random bytes: every candidate whose decode succeeds is a valid
//! instruction, so no hand-written generator can drift from the spec. Extra figures (stream
//! size, mix, allocations) are written to `target/visa-bench/codec.json` for `cargo xtask bench`.
//!
//! What bounds the random stream is measured beside it: variants of the same stream with one
//! source of unpredictability removed at a time (groups `codec_<variant>`, decode and encode
//! only): `by_opcode`, the same instructions grouped by instruction (the opcode dispatch
//! becomes predictable, operands stay random); `one_instance`, the same opcode sequence with
//! each instruction always the same bytes (operands repeat with the opcode); and both.

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

mod support;

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const STREAM_LEN: usize = 100_000;

/// xorshift64*: deterministic, dependency-free.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

struct Stream {
    bytes: Vec<u8>,
    count: usize,
    per_instruction: BTreeMap<&'static str, usize>,
    /// The same stream with one source of unpredictability removed at a time: name, bytes,
    /// instruction count.
    variants: Vec<(&'static str, Vec<u8>, usize)>,
}

/// One instruction of the stream: its pool (one per instruction, in name order) and which
/// instance of the pool.
#[derive(Clone, Copy)]
struct Pick {
    pool: usize,
    instance: usize,
}

/// Valid instructions found by decoding random candidates, round-robin over instructions so every
/// instruction that random bytes can reach appears.
fn stream() -> Stream {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut found: BTreeMap<&'static str, Vec<Vec<u8>>> = BTreeMap::new();
    let mut candidate = [0u8; 160];
    for _ in 0..2_000_000 {
        for chunk in candidate.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next().to_le_bytes()[..chunk.len()]);
        }
        // Small values make more operands and enums decode.
        for b in candidate[1..].iter_mut() {
            if rng.next() & 3 != 0 {
                *b &= 0x07;
            }
        }
        if let Ok((inst, used)) = visa::decode(&candidate) {
            let mut re = Vec::new();
            inst.encode(&mut re);
            // An instruction that took every byte given (a field of unknown layout holds the
            // rest) cannot sit inside a stream.
            if re == candidate[..used] && used < candidate.len() {
                let pool = found.entry(inst.name()).or_default();
                if pool.len() < 256 {
                    pool.push(re);
                }
            }
        }
    }
    let pools: Vec<_> = found.into_iter().collect();
    let mut picks = Vec::with_capacity(STREAM_LEN);
    let mut per_instruction = BTreeMap::new();
    while !pools.is_empty() && picks.len() < STREAM_LEN {
        let pool = picks.len() % pools.len();
        let instance = (rng.next() as usize) % pools[pool].1.len();
        picks.push(Pick { pool, instance });
        *per_instruction.entry(pools[pool].0).or_default() += 1;
    }
    let concat = |picks: &[Pick]| -> Vec<u8> {
        picks
            .iter()
            .flat_map(|p| pools[p.pool].1[p.instance].iter().copied())
            .collect()
    };
    // Grouped by instruction (a stable sort: the same multiset of instructions, the same
    // bytes), the opcode dispatch becomes predictable while operands stay random.
    let mut grouped = picks.clone();
    grouped.sort_by_key(|p| p.pool);
    // Always the first instance of each instruction: each operand's class, modifier and values
    // repeat with the opcode.
    let first = |picks: &[Pick]| -> Vec<Pick> {
        picks
            .iter()
            .map(|p| Pick {
                pool: p.pool,
                instance: 0,
            })
            .collect()
    };
    let variants = vec![
        ("by_opcode", concat(&grouped), grouped.len()),
        ("one_instance", concat(&first(&picks)), picks.len()),
        (
            "by_opcode_one_instance",
            concat(&first(&grouped)),
            grouped.len(),
        ),
    ];
    Stream {
        bytes: concat(&picks),
        count: picks.len(),
        per_instruction,
        variants,
    }
}

fn decode_all(bytes: &[u8], out: &mut Vec<visa::Instruction>) {
    let mut at = 0;
    while at < bytes.len() {
        match visa::decode(&bytes[at..]) {
            Ok((inst, used)) => {
                out.push(inst);
                at += used;
            }
            Err(e) => panic!("stream instruction failed to decode at {at}: {e}"),
        }
    }
}

/// Decodes every instruction of `bytes` with the stream decoder, handing each to the
/// optimizer's black box; returns the count.
fn decode_each(bytes: &[u8]) -> usize {
    let mut stream = visa::runtime::Decoder::new(bytes);
    let mut n = 0;
    while let Some(item) = stream.next() {
        match item {
            Ok(inst) => {
                std::hint::black_box(inst);
                n += 1;
            }
            Err(e) => panic!(
                "stream instruction failed to decode at {}: {e}",
                stream.position()
            ),
        }
    }
    n
}

fn stream_group(c: &mut Criterion, group: &str, bytes: &[u8], count: usize) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    decode_and_encode(&mut g, bytes, count);
    g.bench_function("decode_collect", |b| {
        let mut out = Vec::with_capacity(count);
        b.iter(|| {
            out.clear();
            decode_all(std::hint::black_box(bytes), &mut out);
        })
    });
    g.bench_function("memcpy", |b| {
        let mut out = vec![0u8; bytes.len()];
        b.iter(|| out.copy_from_slice(std::hint::black_box(bytes)))
    });
    g.finish();
}

/// A variant of the random stream, decoded and encoded only, measured for less time: it is
/// compared with the random stream's figures of the same run.
fn variant_group(c: &mut Criterion, group: &str, bytes: &[u8], count: usize) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    decode_and_encode(&mut g, bytes, count);
    g.finish();
}

/// `decode` (through [`visa::runtime::Decoder`]) and `encode` (through
/// [`visa::runtime::Encoder`]) of the whole stream.
fn decode_and_encode(g: &mut BenchmarkGroup<'_, WallTime>, bytes: &[u8], count: usize) {
    let mut decoded = Vec::with_capacity(count);
    decode_all(bytes, &mut decoded);
    g.bench_function("decode", |b| {
        b.iter(|| decode_each(std::hint::black_box(bytes)))
    });
    g.bench_function("encode", |b| {
        let mut out = Vec::with_capacity(bytes.len());
        b.iter(|| {
            out.clear();
            let mut encoder = visa::runtime::Encoder::new(&mut out);
            for inst in std::hint::black_box(&decoded) {
                encoder.push(inst);
            }
        })
    });
}

/// Heap allocations of decoding every instruction of `bytes` once (the Vec reserved first).
fn allocations(bytes: &[u8], count: usize) -> usize {
    let mut sink = Vec::with_capacity(count);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    decode_all(bytes, &mut sink);
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// Allocations while a [`visa::runtime::Decoder`] walks `bytes`.
fn stream_allocations(bytes: &[u8]) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    decode_each(bytes);
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

fn benches(c: &mut Criterion) {
    let s = stream();
    assert!(s.count >= STREAM_LEN, "no valid instruction found");
    let allocs = allocations(&s.bytes, s.count);
    let dg2 = support::dg2_stream();
    let dg2_json = match &dg2 {
        Some((bytes, count)) => format!(
            "{{\"instructions\": {count}, \"bytes\": {}, \"allocations\": {}}}",
            bytes.len(),
            allocations(bytes, *count)
        ),
        None => "null".to_string(),
    };
    let variants_json = s
        .variants
        .iter()
        .map(|(name, bytes, count)| {
            format!(
                "\"{name}\": {{\"instructions\": {count}, \"bytes\": {}}}",
                bytes.len()
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let report = format!(
        "{{\"instructions\": {}, \"bytes\": {}, \"instructions_mixed\": {}, \"instructions_in_crate\": {}, \"allocations\": {}, \"allocations_per_decode\": {:.4}, \"allocations_per_stream_decode\": {:.4}, \"instruction_size\": {}, \"variants\": {{{variants_json}}}, \"dg2\": {dg2_json}}}\n",
        s.count,
        s.bytes.len(),
        s.per_instruction.len(),
        visa::Instruction::NAMES.len(),
        allocs,
        allocs as f64 / s.count as f64,
        stream_allocations(&s.bytes) as f64 / s.count as f64,
        std::mem::size_of::<visa::Instruction>(),
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/visa-bench");
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(|t| std::path::PathBuf::from(t).join("visa-bench"))
        .unwrap_or(dir);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("codec.json"), &report);
    eprint!("codec stream: {report}");

    stream_group(c, "codec", &s.bytes, s.count);
    for (name, bytes, count) in &s.variants {
        variant_group(c, &format!("codec_{name}"), bytes, *count);
    }
    if let Some((bytes, count)) = &dg2 {
        stream_group(c, "dg2", bytes, *count);
    }
}

criterion_group! {
    name = codec;
    config = Criterion::default().sample_size(30);
    targets = benches
}
criterion_main!(codec);
