//! `cargo xtask bench --anchors`: the interpreter side by side with its anchors, in one run.
//!
//! The kernels of `tests/interp/bench/anchors.cl` (matmul, mandelbrot, an integer hash, a
//! stencil, a reduction with barriers, a histogram with atomics) run on `visa run` (Intel's
//! vISA for tgllp, compiled by `../shared/tools/intel-isa`), on Oclgrind (the OpenCL simulator,
//! through the ICD loader: `pocl-run` with `POCL_RUN_OPENCL_PLATFORM=Oclgrind`) and on pocl
//! (`pocl-run`, native code). Every output buffer of the interpreter and of Oclgrind is compared
//! with pocl's. Each tool runs as a whole process from the same inputs (start-up and, for pocl and
//! Oclgrind, the OpenCL C compile included), timed by wall clock, the median of up to five runs
//! (as many as fit in a second); the table gives ratios, as the machine's speed drifts between
//! runs but not within one. A tool that is not installed is left
//! out with the reason.

use super::{cargo, run};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One argument: its `visa run` flag and value, and the bytes of a buffer's input.
enum Arg {
    /// A global buffer of `n` 32-bit words: pseudo-random floats in [0, 1), words masked by
    /// `mask`, or zero.
    Floats(usize),
    Words(usize, u32),
    Zeros(usize),
    Scalar(&'static str),
    LocalMem(u32),
}

struct Case {
    kernel: &'static str,
    global: &'static str,
    local: &'static str,
    args: Vec<Arg>,
}

fn cases() -> Vec<Case> {
    use Arg::*;
    vec![
        Case {
            kernel: "matmul",
            global: "256,256",
            local: "16,16",
            args: vec![
                Floats(65536),
                Floats(65536),
                Zeros(65536),
                Scalar("i32:256"),
            ],
        },
        Case {
            kernel: "mandelbrot",
            global: "512,256",
            local: "16,4",
            args: vec![
                Zeros(131072),
                Scalar("i32:512"),
                Scalar("i32:256"),
                Scalar("i32:64"),
            ],
        },
        Case {
            kernel: "xorshift",
            global: "8192",
            local: "64",
            args: vec![Zeros(8192), Scalar("i32:256")],
        },
        Case {
            kernel: "stencil",
            global: "256,256",
            local: "16,16",
            args: vec![
                Words(65536, 0xffff),
                Zeros(65536),
                Scalar("i32:256"),
                Scalar("i32:256"),
            ],
        },
        Case {
            kernel: "reduction",
            global: "65536",
            local: "256",
            args: vec![Words(65536, 0xffff), Zeros(256), LocalMem(1024)],
        },
        Case {
            kernel: "histogram",
            global: "65536",
            local: "64",
            args: vec![Words(65536, u32::MAX), Zeros(64)],
        },
    ]
}

/// splitmix64: the inputs, the same on every machine.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn input(arg: &Arg, seed: u64) -> Option<Vec<u8>> {
    let words = |n: usize, f: &dyn Fn(u64) -> u32| -> Vec<u8> {
        (0..n)
            .flat_map(|i| f(mix(seed * 1_000_003 + i as u64)).to_le_bytes())
            .collect()
    };
    match arg {
        Arg::Floats(n) => Some(words(*n, &|r| {
            ((r >> 40) as f32 / (1u64 << 24) as f32).to_bits()
        })),
        Arg::Words(n, mask) => Some(words(*n, &|r| (r as u32) & mask)),
        Arg::Zeros(n) => Some(vec![0; n * 4]),
        Arg::Scalar(_) | Arg::LocalMem(_) => None,
    }
}

/// The three runners and what each needs.
struct Tools {
    visa: PathBuf,
    pocl_run: PathBuf,
    /// The ICD directory that makes Oclgrind a platform, when Oclgrind is installed.
    oclgrind: Option<PathBuf>,
}

/// One tool's run of a case: seconds, and the output buffers in argument order.
type Ran = (f64, Vec<Vec<u8>>);

fn run_case(c: &Case, program: &Path, dir: &Path, tool: &str, t: &Tools) -> Result<Ran, String> {
    let (exe, source) = match tool {
        "visa" => (&t.visa, program.join(format!("{}.isa", c.kernel))),
        _ => (&t.pocl_run, program.join("anchors.cl")),
    };
    let mut cmd = Command::new(exe);
    if tool == "visa" {
        cmd.arg("run");
    }
    cmd.arg(&source).args([
        "--kernel", c.kernel, "--global", c.global, "--local", c.local,
    ]);
    if tool == "visa" {
        // The program binary says where each argument and implicit value goes (the `.isa`
        // alone leaves some kernels' layouts open: the reduction's local size).
        cmd.arg("--program").arg(program.join("anchors.bin"));
    }
    let mut outputs = Vec::new();
    for (i, a) in c.args.iter().enumerate() {
        match a {
            Arg::Scalar(s) => {
                cmd.args(["--scalar", s]);
            }
            Arg::LocalMem(n) => {
                cmd.args(["--local-mem", &n.to_string()]);
            }
            _ => {
                let (inp, out) = (
                    dir.join(format!("in{i}")),
                    dir.join(format!("{tool}-out{i}")),
                );
                cmd.arg("--buffer")
                    .arg(format!("{}:{}", inp.display(), out.display()));
                outputs.push(out);
            }
        }
    }
    if tool == "oclgrind" {
        let icd = t.oclgrind.as_ref().ok_or("Oclgrind is not installed")?;
        cmd.env("OCL_ICD_VENDORS", icd)
            .env("POCL_RUN_OPENCL_PLATFORM", "Oclgrind");
    }
    let start = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| format!("{tool}: cannot run {}: {e}", exe.display()))?;
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!(
            "{tool} {}: exit {:?}: {}",
            c.kernel,
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let bytes = outputs
        .iter()
        .map(|p| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect::<Result<_, _>>()?;
    Ok((secs, bytes))
}

/// Most runs of one tool on one case, and the time after which it is not run again.
const RUNS: usize = 5;
const ENOUGH_SECONDS: f64 = 1.0;

/// [`run_case`] repeated while it has taken under [`ENOUGH_SECONDS`], at most [`RUNS`] times:
/// the median time (a process of a few milliseconds varies by half from one start to the
/// next), and the outputs of the first run.
fn timed_case(c: &Case, program: &Path, dir: &Path, tool: &str, t: &Tools) -> Result<Ran, String> {
    let (first, outputs) = run_case(c, program, dir, tool, t)?;
    let mut times = vec![first];
    while times.len() < RUNS && times.iter().sum::<f64>() < ENOUGH_SECONDS {
        times.push(run_case(c, program, dir, tool, t)?.0);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], outputs))
}

/// The anchors' section of BENCHMARKS.md, from running every case.
pub fn measure(root: &Path, shared: &Path) -> Result<String, String> {
    let work = root.join("target/xtask-bench/anchors");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let source = root.join("tests/interp/bench/anchors.cl");
    let intel = shared.join("tools/intel-isa/intel-isa");
    run(Command::new(&intel)
        .arg("ocl")
        .arg(&source)
        .args(["tgllp"])
        .arg(&work))?;
    std::fs::copy(&source, work.join("anchors.cl")).map_err(|e| e.to_string())?;
    run(cargo()
        .args(["build", "--release", "-p", "visa-family", "--bin", "visa"])
        .args(["-p", "pocl-run", "--bin", "pocl-run"])
        .current_dir(root))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(|d| std::path::absolute(&d).unwrap_or_else(|_| d.into()))
        .unwrap_or_else(|| root.join("target"));
    let release = target.join("release");
    let icd_dir = work.join("oclgrind-icd");
    let icd = Path::new("/usr/lib/oclgrind/liboclgrind-rt-icd.so");
    let oclgrind = if icd.is_file() {
        std::fs::create_dir_all(&icd_dir).map_err(|e| e.to_string())?;
        std::fs::write(icd_dir.join("oclgrind.icd"), format!("{}\n", icd.display()))
            .map_err(|e| e.to_string())?;
        Some(icd_dir)
    } else {
        None
    };
    let tools = Tools {
        visa: release.join("visa"),
        pocl_run: release.join("pocl-run"),
        oclgrind,
    };
    table(&cases(), &work, &tools)
}

fn table(cases: &[Case], work: &Path, t: &Tools) -> Result<String, String> {
    let mut md = String::from(
        "| kernel | NDRange | Oclgrind's time ÷ `visa run`'s | `visa run`'s time ÷ pocl's | outputs equal to pocl's |\n| --- | --- | --- | --- | --- |\n",
    );
    for (n, c) in cases.iter().enumerate() {
        let dir = work.join(c.kernel);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        for (i, a) in c.args.iter().enumerate() {
            if let Some(bytes) = input(a, n as u64 * 16 + i as u64) {
                std::fs::write(dir.join(format!("in{i}")), bytes).map_err(|e| e.to_string())?;
            }
        }
        let (pocl_s, pocl_out) = timed_case(c, work, &dir, "pocl", t)?;
        let (visa_s, visa_out) = timed_case(c, work, &dir, "visa", t)?;
        let grind = if t.oclgrind.is_some() {
            Some(timed_case(c, work, &dir, "oclgrind", t)?)
        } else {
            None
        };
        let faster = grind
            .as_ref()
            .map_or("Oclgrind not installed".to_string(), |(s, _)| {
                format!("{:.1}", s / visa_s)
            });
        let mut equal = vec![if visa_out == pocl_out {
            "visa run: yes"
        } else {
            "visa run: **no**"
        }];
        if let Some((_, out)) = &grind {
            equal.push(if *out == pocl_out {
                "Oclgrind: yes"
            } else {
                "Oclgrind: **no**"
            });
        }
        eprintln!(
            "bench: {}: pocl {pocl_s:.2} s, visa run {visa_s:.2} s{}",
            c.kernel,
            grind
                .as_ref()
                .map_or(String::new(), |(s, _)| format!(", Oclgrind {s:.2} s"))
        );
        let _ = writeln!(
            md,
            "| {} | {} / {} | {faster} | {:.1} | {} |",
            c.kernel,
            c.global,
            c.local,
            visa_s / pocl_s,
            equal.join(", ")
        );
    }
    Ok(md)
}

const BEGIN: &str = "<!-- anchors: begin (written by `cargo xtask bench --anchors`) -->\n";
const END: &str = "<!-- anchors: end -->";

/// The section's heading and what it says of the figures.
const SECTION: &str = "## The interpreter beside its anchors

`cargo xtask bench --anchors` (and the full `cargo xtask bench`) runs the kernels of
`tests/interp/bench/anchors.cl` on `visa run` (Intel's vISA for tgllp, from `intel-isa ocl`), on
Oclgrind (Debian's `oclgrind`, as an OpenCL platform through the ICD loader) and on pocl, from the
same inputs, and compares every output buffer with pocl's. Each tool runs as a whole process,
timed by wall clock (the median of up to five runs, as many as fit in a second): start-up and,
for pocl and Oclgrind, their OpenCL C compile are included, so
the small kernels (stencil, reduction, histogram) measure mostly that, and pocl's figure is its
compile plus native code. Ratios, as this machine's speed drifts between runs but not within one.
The goal is 10 times Oclgrind on every kernel.

";

/// `text` with the anchors' table between its markers; when absent, the section goes before
/// the closing `## Reproduce` (the file `cargo xtask bench` writes ends with it), else last.
pub fn splice(text: &str, table: &str) -> String {
    if let Some((head, tail)) = text
        .split_once(BEGIN)
        .and_then(|(h, r)| Some((h, r.split_once(END)?.1)))
    {
        return format!("{head}{BEGIN}{table}{END}{tail}");
    }
    let section = format!("{SECTION}{BEGIN}{table}{END}\n\n");
    match text.find("## Reproduce\n") {
        Some(at) => format!("{}{section}{}", &text[..at], &text[at..]),
        None => format!("{text}\n{section}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_replaces_the_one_between_the_markers() {
        let once = splice("# B\n", "| a |\n");
        assert!(
            once.ends_with(&format!("{BEGIN}| a |\n{END}\n\n")),
            "{once}"
        );
        // Before the closing `## Reproduce` of the file the full bench writes.
        let placed = splice("# B\n\n## Reproduce\n\nrun\n", "| a |\n");
        assert!(placed.ends_with("## Reproduce\n\nrun\n"), "{placed}");
        assert!(placed.contains(SECTION));
        let twice = splice(&once, "| b |\n");
        assert_eq!(twice.matches(BEGIN).count(), 1);
        assert!(twice.contains("| b |") && !twice.contains("| a |"));
    }

    #[test]
    fn inputs_are_the_same_on_every_run_and_floats_in_zero_one() {
        let a = input(&Arg::Floats(8), 3).unwrap();
        assert_eq!(a, input(&Arg::Floats(8), 3).unwrap());
        for w in a.chunks(4) {
            let f = f32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            assert!((0.0..1.0).contains(&f), "{f}");
        }
        assert_eq!(input(&Arg::Zeros(2), 1), Some(vec![0; 8]));
        assert!(input(&Arg::Words(16, 0xff), 2)
            .unwrap()
            .chunks(4)
            .all(|w| w[1..] == [0, 0, 0]));
    }
}
