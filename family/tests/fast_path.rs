//! The machine's fast path (`visa::machine::fast`) against the generated lane functions: the
//! same one-instruction kernels, on the same random registers, run once with the fast path and
//! once with every instruction through its lane function (`Kernel::generic_only`), must leave
//! the same bits in every register and predicate, or fail with the same error. The kernels
//! cover every opcode the fast path compiles, every element type it takes and some it does not
//! (mixed, 64-bit, half), source modifiers, saturation, regions, every exec size, mask
//! controls, predication, partial dispatch and the `%cr0` modes (denormals kept or flushed,
//! rounding); a third of them have F operands only, with F values of every kind (zeros of both
//! signs, denormals, infinities, quiet and signalling NaNs, extremes) in registers and
//! immediates.

#![cfg(not(family_absent))]
#![cfg(feature = "machine")]

use visa::asm::{assemble_for, Options, Source};
use visa::machine::memory::Memory;
use visa::machine::{Kernel, ThreadInit};
use visa::runtime::IntelPlatform;

/// Element types of the variables (`X_t`, `Y_t`, `Z_t`, 64 elements each).
const TYPES: &[(&str, usize)] = &[
    ("d", 4),
    ("ud", 4),
    ("w", 2),
    ("uw", 2),
    ("b", 1),
    ("ub", 1),
    ("f", 4),
    ("q", 8),
    ("hf", 2),
];

const ELEMENTS: usize = 64;

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// The declarations, each variable an input, laid out one after another from byte 64.
fn head() -> (String, usize) {
    let mut text = String::from(".version 4.1\n.kernel \"k\"\n");
    let mut inputs = String::new();
    let mut at = 64;
    for (t, size) in TYPES {
        for v in ["X", "Y", "Z"] {
            text += &format!(".decl {v}_{t} v_type=G type={t} num_elts={ELEMENTS} align=hword\n");
            let bytes = ELEMENTS * size;
            inputs += &format!(".input {v}_{t} offset={at} size={bytes}\n");
            at += bytes;
        }
    }
    text += ".decl P1 v_type=P num_elts=32\n.decl P2 v_type=P num_elts=32\n";
    text += &inputs;
    text += ".kernel_attr SimdSize=32\n.function \"_main_0\"\n\n_main_0:\n";
    (text, at)
}

/// Float bits worth trying: zeros, denormals, NaNs (quiet and signalling), infinities,
/// extremes, and random bits.
fn float_bits(r: &mut Rng) -> u32 {
    const SPECIAL: &[u32] = &[
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x7f7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0001,
        0xffc0_1234,
        0x7f80_0001,
        0x3f80_0000,
        0xbf80_0000,
        0x3400_0001,
        0x0c00_0000,
    ];
    match r.next() % 4 {
        0 => r.pick(SPECIAL),
        1 => r.next() as u32,
        2 => ((r.next() % 2000) as f32 / 7.0 - 100.0).to_bits(),
        // Small exponents: products and sums near the denormal range.
        _ => (r.next() as u32 & 0x80ff_ffff) | ((r.next() % 24) as u32) << 23,
    }
}

fn payload(r: &mut Rng, len: usize) -> Vec<u8> {
    let mut input = vec![0u8; len];
    let mut at = 64;
    for (t, size) in TYPES {
        for _ in 0..3 {
            for e in 0..ELEMENTS {
                let bits: u64 = match (*t, r.next() % 4) {
                    ("f", _) => u64::from(float_bits(r)),
                    (_, 0) => r.next() % 40,
                    (_, 1) => (r.next() % 40).wrapping_neg(),
                    _ => r.next(),
                };
                let b = &bits.to_le_bytes()[..*size];
                input[at + e * size..at + (e + 1) * size].copy_from_slice(b);
            }
            at += ELEMENTS * size;
        }
    }
    input
}

/// A source operand: a variable through a region, perhaps modified, or an immediate.
fn source(r: &mut Rng) -> String {
    const IMMEDIATES: &[&str] = &[
        "0x5:d",
        "0xfffffffd:d",
        "0x1f:d",
        "0x21:d",
        "0x80000000:ud",
        "0x7:ud",
        "0xfff0:w",
        "0x3:uw",
        "0x3f800000:f",
        "0xbfc00000:f",
        "0x00000003:f",
        "0x7fc00000:f",
    ];
    if r.next().is_multiple_of(5) {
        return String::from(r.pick(IMMEDIATES));
    }
    let ty = weighted_type(r);
    let modifier = r.pick(&["", "", "", "(-)", "(abs)", "(-abs)", "(~)"]);
    register_source(r, ty, modifier)
}

/// A variable of type `ty` through a region, with `modifier`.
fn register_source(r: &mut Rng, ty: &str, modifier: &str) -> String {
    const REGIONS: &[&str] = &[
        "<1;1,0>", "<1;1,0>", "<0;1,0>", "<2;1,0>", "<8;4,1>", "<4;2,2>", "<16;8,2>", "<0;4,1>",
    ];
    let var = r.pick(&["X", "Y", "Z"]);
    let offset = r.pick(&["(0,0)", "(0,0)", "(0,1)", "(1,0)", "(0,3)"]);
    format!("{modifier}{var}_{ty}{offset}{}", r.pick(REGIONS))
}

/// An F source: a variable (whose elements [`float_bits`] fills with zeros of both signs,
/// denormals, NaNs, infinities and extremes) or an F immediate of those kinds.
fn float_source(r: &mut Rng) -> String {
    const IMMEDIATES: &[&str] = &[
        "0x3f800000:f",
        "0xbfc00000:f",
        "0x00000003:f",
        "0x80000001:f",
        "0x00800000:f",
        "0x80000000:f",
        "0x7f800000:f",
        "0xff800000:f",
        "0x7fc00000:f",
        "0xffc01234:f",
        "0x7f800001:f",
        "0x7f7fffff:f",
        "0x34000001:f",
    ];
    if r.next().is_multiple_of(4) {
        String::from(r.pick(IMMEDIATES))
    } else {
        let modifier = r.pick(&["", "", "", "(-)", "(abs)", "(-abs)"]);
        register_source(r, "f", modifier)
    }
}

/// A type, mostly of those the fast path takes.
fn weighted_type(r: &mut Rng) -> &'static str {
    if r.next().is_multiple_of(8) {
        r.pick(&["q", "hf"])
    } else {
        r.pick(&["d", "ud", "w", "uw", "b", "ub", "f", "f", "d", "ud"])
    }
}

fn destination(r: &mut Rng) -> String {
    let var = r.pick(&["X", "Y", "Z"]);
    let offset = r.pick(&["(0,0)", "(0,0)", "(0,2)", "(1,0)"]);
    let stride = r.pick(&["<1>", "<1>", "<2>"]);
    format!("{var}_{}{offset}{stride}", weighted_type(r))
}

/// Exec sizes and mask controls: every lane count the fast path compiles for, partial ones.
const EXECS: &[&str] = &[
    "(M1_NM, 1)",
    "(M1, 1)",
    "(M1, 2)",
    "(M1_NM, 2)",
    "(M1, 4)",
    "(M1, 8)",
    "(M3, 8)",
    "(M1, 16)",
    "(M5, 16)",
    "(M5_NM, 16)",
    "(M1, 32)",
    "(M1_NM, 32)",
];

/// Predicates, lane by lane and any/all.
const PREDS: &[&str] = &["", "", "(P1) ", "(!P1) ", "(P1.any) ", "(!P1.all) "];

/// One instruction under test: its opcode, predicate, saturation, exec size and operands, and
/// whether its operands are all F ([`float_instruction`], a third of them).
fn instruction(r: &mut Rng) -> (String, bool) {
    const OPS: &[(&str, usize)] = &[
        ("mov", 1),
        ("sel", 2),
        ("add", 2),
        ("mul", 2),
        ("mad", 3),
        ("and", 2),
        ("or", 2),
        ("xor", 2),
        ("not", 1),
        ("shl", 2),
        ("shr", 2),
        ("asr", 2),
        ("cmp.eq", 2),
        ("cmp.ne", 2),
        ("cmp.gt", 2),
        ("cmp.ge", 2),
        ("cmp.lt", 2),
        ("cmp.le", 2),
        ("min", 2),
        ("max", 2),
        ("addc", 2),
        ("subb", 2),
    ];
    if r.next().is_multiple_of(3) {
        return (float_instruction(r), true);
    }
    let (op, sources) = r.pick(OPS);
    let is_cmp = op.starts_with("cmp");
    // MIN_MAX takes no predicate; ADDC and SUBB write a second destination.
    let pred = if is_cmp || op == "min" || op == "max" {
        ""
    } else {
        r.pick(PREDS)
    };
    if r.next().is_multiple_of(6) {
        // Logic of predicates.
        let (op, sources) = r.pick(&[("and", 2), ("or", 2), ("xor", 2), ("not", 1)]);
        let srcs: Vec<&str> = (0..sources).map(|_| r.pick(&["P1", "P2"])).collect();
        let dst = r.pick(&["P1", "P2"]);
        let inst = format!("{pred}{op} {} {dst} {}", r.pick(EXECS), srcs.join(" "));
        return (inst, false);
    }
    let sat = if !is_cmp && r.next().is_multiple_of(8) {
        ".sat"
    } else {
        ""
    };
    let mut dst = if is_cmp && !r.next().is_multiple_of(4) {
        String::from("P2")
    } else {
        destination(r)
    };
    if op == "addc" || op == "subb" {
        dst = format!("{dst} {}", destination(r));
    }
    let srcs: Vec<String> = (0..sources).map(|_| source(r)).collect();
    let inst = format!("{pred}{op}{sat} {} {dst} {}", r.pick(EXECS), srcs.join(" "));
    (inst, false)
}

/// An instruction with F sources only (registers of every region and modifier, immediates
/// of every kind of F value), mostly into F: the `f32` lanes of the fast path, MAD's `f64`
/// product and sum, and F into integer types; with predicates and partial masks.
fn float_instruction(r: &mut Rng) -> String {
    const OPS: &[(&str, usize)] = &[
        ("mov", 1),
        ("sel", 2),
        ("add", 2),
        ("add", 2),
        ("mul", 2),
        ("mul", 2),
        ("mad", 3),
        ("mad", 3),
        ("cmp.eq", 2),
        ("cmp.ne", 2),
        ("cmp.gt", 2),
        ("cmp.ge", 2),
        ("cmp.lt", 2),
        ("cmp.le", 2),
        ("min", 2),
        ("max", 2),
    ];
    let (op, sources) = r.pick(OPS);
    let is_cmp = op.starts_with("cmp");
    let pred = if is_cmp || op == "min" || op == "max" {
        ""
    } else {
        r.pick(PREDS)
    };
    let dst = if is_cmp {
        String::from(r.pick(&["P2", "P2", "P1"]))
    } else {
        let ty = r.pick(&["f", "f", "f", "f", "f", "d", "ud", "w", "b"]);
        let var = r.pick(&["X", "Y", "Z"]);
        let offset = r.pick(&["(0,0)", "(0,0)", "(0,2)", "(1,0)"]);
        format!("{var}_{ty}{offset}{}", r.pick(&["<1>", "<1>", "<2>"]))
    };
    let srcs: Vec<String> = (0..sources).map(|_| float_source(r)).collect();
    format!("{pred}{op} {} {dst} {}", r.pick(EXECS), srcs.join(" "))
}

/// A kernel: `%cr0` set, P1 and P2 from the signs of X_d and Y_d, the instruction, then the
/// end.
fn kernel(head: &str, cr0: u32, inst: &str) -> String {
    format!(
        "{head}    mov (M1_NM, 1) %cr0(0,0)<1> 0x{cr0:x}:ud\n    cmp.lt (M1_NM, 32) P1 X_d(0,0)<1;1,0> 0x0:d\n    cmp.lt (M1_NM, 32) P2 Y_d(0,0)<1;1,0> 0x0:d\n    {inst}\n    ret (M1, 1)\n"
    )
}

/// The registers and predicates after one thread, or the error.
fn run(k: &Kernel, init: &ThreadInit) -> Result<(Vec<u8>, Vec<u32>), String> {
    let mut ts = vec![k.thread(init).map_err(|e| e.to_string())?];
    k.run_threads(&mut ts, &mut Memory::default())
        .map_err(|e| e.to_string())?;
    let t = &ts[0];
    Ok((t.regs.grf.clone(), t.regs.preds.clone()))
}

#[test]
fn the_fast_path_gives_the_lane_functions_bits() {
    let p = IntelPlatform::find("DG2").expect("DG2 is a platform");
    let (head, len) = head();
    // A longer or other run: `VISA_FAST_PATH_CASES=200000 VISA_FAST_PATH_SEED=7`.
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let mut r = Rng(env("VISA_FAST_PATH_SEED").unwrap_or(0x5eed));
    let (mut tried, mut assembled, mut fast, mut float_fast) = (0, 0, 0, 0);
    for case in 0..env("VISA_FAST_PATH_CASES").unwrap_or(12000) {
        let (inst, float) = instruction(&mut r);
        let cr0 = r.pick(&[0x4c0, 0x4c0, 0, 0x10, 0x30]);
        let text = kernel(&head, cr0, &inst);
        tried += 1;
        let sources = [Source {
            name: "k.visaasm",
            text: &text,
        }];
        let Ok(file) = assemble_for(&sources, Options::default(), p) else {
            continue;
        };
        assembled += 1;
        let Ok(k) = Kernel::new(&file, "k", p.platform()) else {
            continue;
        };
        // The `mov` of `%cr0` never takes the fast path, the `cmp`s into P1 and P2 always do.
        if k.fast_steps() >= 3 {
            fast += 1;
            float_fast += usize::from(float);
        }
        let mut generic = Kernel::new(&file, "k", p.platform()).expect("it loaded once");
        generic.generic_only();
        for lanes in [32, r.pick(&[1, 7, 13, 16, 31])] {
            let init = ThreadInit {
                input: payload(&mut r, len),
                group_id: [0; 3],
                local_size: [32, 1, 1],
                lanes,
            };
            let (want, got) = (run(&generic, &init), run(&k, &init));
            assert!(
                want == got,
                "case {case}, {lanes} lanes, %cr0 {cr0:#x}: `{inst}`\n  lane functions: {}\n  fast path: {}\n  {}",
                summary(&want),
                summary(&got),
                differences(&want, &got)
            );
        }
    }
    eprintln!(
        "{tried} kernels, {assembled} assembled, {fast} with the instruction on the fast path \
         ({float_fast} of them with F operands only)"
    );
    assert!(
        assembled > tried / 2 && fast > assembled / 3 && float_fast > tried / 8,
        "{tried} tried, {assembled} assembled, {fast} fast, {float_fast} of them F"
    );
}

/// The first dwords of the GRF where two runs differ: byte offset, lane functions' bits, fast
/// path's bits.
fn differences(
    want: &Result<(Vec<u8>, Vec<u32>), String>,
    got: &Result<(Vec<u8>, Vec<u32>), String>,
) -> String {
    let (Ok((a, _)), Ok((b, _))) = (want, got) else {
        return String::new();
    };
    let dword = |g: &[u8], i: usize| u32::from_le_bytes([g[i], g[i + 1], g[i + 2], g[i + 3]]);
    let differ: Vec<String> = (0..a.len().min(b.len()) / 4 * 4)
        .step_by(4)
        .filter(|&i| a[i..i + 4] != b[i..i + 4])
        .take(4)
        .map(|i| {
            format!(
                "byte {i}: {:#010x} against {:#010x}",
                dword(a, i),
                dword(b, i)
            )
        })
        .collect();
    differ.join("; ")
}

fn summary(r: &Result<(Vec<u8>, Vec<u32>), String>) -> String {
    match r {
        Ok((grf, preds)) => format!(
            "ok, GRF hash {:#x}, predicates {preds:x?}",
            grf.iter()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b))
                    .wrapping_mul(0x100_0000_01b3))
        ),
        Err(e) => format!("error: {e}"),
    }
}
