//! Hostile kernels cannot hurt the host: a real kernel (the committed fixtures
//! `tests/ocl/fixtures/*/*.isa`, compiled by Intel's compiler for seven platforms), mutated
//! (instruction bytes re-decoded, instructions dropped, duplicated and swapped, variables
//! resized and re-aliased, inputs moved), run on the machine over a small NDRange with
//! buffers and scalars from the input, with `--check` on or off.
//!
//! Checked: no panic; the run ends within its instruction budget (every loop is bounded by
//! it, so a hang is a bug of the machine); the heap never holds more than [`HEAP_BOUND`]
//! bytes at once (a counting allocator, `docs/reliability.md` derives the bound); every error
//! says what and where.
#![no_main]
use arbitrary::Arbitrary;
use family::machine::launch::{self, Arg, NdRange, Scalar, ScalarType};
use family::machine::Kernel;
use family::object::File;
use family::runtime::IntelPlatform;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

#[path = "common/bounded_alloc.rs"]
mod bounded_alloc;

#[global_allocator]
static ALLOC: bounded_alloc::Counting = bounded_alloc::Counting;

/// The most heap one run may hold at once: see `docs/reliability.md`.
const HEAP_BOUND: usize = 256 << 20;

/// Instructions one run may execute.
const STEPS: u64 = 20_000;

/// A fixture kernel with an argument list its inputs accept.
struct Seed {
    file: File,
    kernel: String,
    platform: &'static IntelPlatform,
    shape: Vec<Kind>,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Buffer,
    Scalar,
    LocalMem,
}

#[derive(Arbitrary, Debug)]
enum Edit {
    /// Byte `at` of instruction `index`'s encoding set to `value`, kept when it decodes.
    Byte {
        index: u16,
        at: u8,
        value: u8,
    },
    Drop(u16),
    Duplicate(u16, u16),
    Swap(u16, u16),
    /// Variable `index`'s element count and alias.
    Variable {
        index: u16,
        elements: u16,
        alias: u16,
        offset: u16,
    },
    /// Input `index`'s offset and size.
    Input {
        index: u8,
        offset: i16,
        size: u16,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    seed: u16,
    local: u8,
    groups: u8,
    check: bool,
    scalars: [u32; 4],
    buffer: Vec<u8>,
    edits: Vec<Edit>,
}

fn fixtures() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/ocl/fixtures");
        let mut seeds = Vec::new();
        let mut dirs: Vec<_> = std::fs::read_dir(root)
            .expect("the fixtures")
            .flatten()
            .collect();
        dirs.sort_by_key(|d| d.path());
        for dir in dirs {
            let name = dir.file_name().to_string_lossy().replace("-rev0", "");
            let Some(platform) = IntelPlatform::find(&name) else {
                continue;
            };
            let mut files: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            for path in files
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "isa"))
            {
                let Ok(file) = File::parse(&std::fs::read(path).unwrap()) else {
                    continue;
                };
                seeds.extend(seeds_of(file, platform));
            }
        }
        assert!(!seeds.is_empty(), "no fixture kernel runs");
        seeds
    })
}

/// The kernels of a file whose inputs some list of buffers, scalars and local pointers fits.
fn seeds_of(file: File, platform: &'static IntelPlatform) -> Vec<Seed> {
    let names: Vec<String> = file
        .header
        .kernel_info
        .iter()
        .map(|k| String::from_utf8_lossy(&k.name).into_owned())
        .collect();
    let mut out = Vec::new();
    for (k, name) in names.into_iter().enumerate() {
        if let Some(shape) = shape_of(&file, k, platform) {
            out.push(Seed {
                file: file.clone(),
                kernel: name,
                platform,
                shape,
            });
        }
    }
    out
}

/// The first list of up to 6 arguments (buffers, i32 scalars, local pointers) that fits.
fn shape_of(file: &File, k: usize, platform: &IntelPlatform) -> Option<Vec<Kind>> {
    const KINDS: [Kind; 3] = [Kind::Buffer, Kind::Scalar, Kind::LocalMem];
    for n in 0..=6u32 {
        for code in 0..3usize.pow(n) {
            let shape: Vec<Kind> = (0..n).map(|i| KINDS[code / 3usize.pow(i) % 3]).collect();
            if launch::layout(file, k, platform, &args(&shape, &[0; 4], &[])).is_ok() {
                return Some(shape);
            }
        }
    }
    None
}

fn args(shape: &[Kind], scalars: &[u32; 4], bytes: &[u8]) -> Vec<Arg> {
    let mut s = scalars.iter().cycle();
    shape
        .iter()
        .map(|k| match k {
            Kind::Buffer => Arg::Buffer(
                bytes
                    .iter()
                    .copied()
                    .cycle()
                    .take(256)
                    .chain(std::iter::repeat(0))
                    .take(256)
                    .collect(),
            ),
            Kind::Scalar => Arg::Scalar(Scalar {
                ty: ScalarType::I32,
                bits: u64::from(*s.next().unwrap()),
            }),
            Kind::LocalMem => Arg::LocalMem(64),
        })
        .collect()
}

fn pick(i: u16, len: usize) -> Option<usize> {
    (len > 0).then(|| usize::from(i) % len)
}

/// Applies an edit to the kernel's routine.
fn apply(file: &mut File, k: usize, e: &Edit) {
    let d = &mut file.kernels[k].data;
    let list = &mut d.instructions.instructions;
    match *e {
        Edit::Byte { index, at, value } => {
            let Some(i) = pick(index, list.len()) else {
                return;
            };
            let mut bytes = Vec::new();
            list[i].1.encode(&mut bytes);
            let n = bytes.len().max(1);
            if let Some(b) = bytes.get_mut(usize::from(at) % n) {
                *b = value;
            }
            if let Ok((inst, _)) = family::decode(&bytes) {
                list[i].1 = inst;
            }
        }
        Edit::Drop(i) => {
            if let Some(i) = pick(i, list.len()) {
                list.remove(i);
            }
        }
        Edit::Duplicate(from, to) => {
            if let Some(from) = pick(from, list.len()) {
                let copy = list[from].clone();
                list.insert(usize::from(to) % (list.len() + 1), copy);
            }
        }
        Edit::Swap(a, b) => {
            if let (Some(a), Some(b)) = (pick(a, list.len()), pick(b, list.len())) {
                list.swap(a, b);
            }
        }
        Edit::Variable {
            index,
            elements,
            alias,
            offset,
        } => {
            if let Some(i) = pick(index, d.var_info.len()) {
                let v = &mut d.var_info[i];
                v.num_elements = elements;
                v.alias_index = u32::from(alias);
                v.alias_offset = offset;
            }
        }
        Edit::Input {
            index,
            offset,
            size,
        } => {
            if let Some(i) = pick(index.into(), d.input_info.len()) {
                d.input_info[i].offset = offset;
                d.input_info[i].size = size;
            }
        }
    }
}

fn run(input: &Input) {
    let seeds = fixtures();
    let seed = &seeds[usize::from(input.seed) % seeds.len()];
    let mut file = seed.file.clone();
    let Ok(k) = launch::find_kernel(&file, &seed.kernel) else {
        return;
    };
    for e in input.edits.iter().take(16) {
        apply(&mut file, k, e);
    }
    let local = u32::from(input.local % 32) + 1;
    let global = local * (u32::from(input.groups % 2) + 1);
    let nd = NdRange::new(&[global], &[local]).expect("a small NDRange");
    let Ok(mut kernel) = Kernel::new(&file, &seed.kernel, seed.platform.platform()) else {
        return;
    };
    kernel.step_limit = STEPS;
    kernel.check = input.check;
    let a = args(&seed.shape, &input.scalars, &input.buffer);
    match launch::launch(&kernel, &file, k, seed.platform, &nd, a) {
        Ok(out) => {
            if let Some(c) = out.memory.check.as_deref() {
                for f in c.findings() {
                    assert!(!kernel.report(f).to_string().is_empty());
                }
            }
        }
        Err(e) => assert!(!e.0.is_empty(), "an error that says nothing"),
    }
    assert!(
        kernel.steps_used() <= STEPS + 64 + 1024,
        "ran {} steps",
        kernel.steps_used()
    );
}

fuzz_target!(|input: Input| {
    fixtures();
    let ((), peak) = bounded_alloc::peak_of(|| run(&input));
    assert!(
        peak <= HEAP_BOUND,
        "a run held {peak} heap bytes at once (bound {HEAP_BOUND})"
    );
});
