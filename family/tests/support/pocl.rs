//! The oracle's harness, shared by `interp_pocl.rs` (Intel's 2022 compiler) and
//! `interp_modern.rs` (Intel's current compiler): the manifest of `tests/interp/kernels`, the
//! input buffers, the comparison rules, and running `visa run` and `pocl-run` on a kernel.
//! Each of those tests includes this file (`#[path = "support/pocl.rs"] mod pocl;`).

#![allow(dead_code)] // each test uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;

// ---------------------------------------------------------------------------------------------
// The manifest

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Elem {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
}

impl Elem {
    pub fn parse(s: &str) -> Option<Elem> {
        Some(match s {
            "i8" => Elem::I8,
            "u8" => Elem::U8,
            "i16" => Elem::I16,
            "u16" => Elem::U16,
            "i32" => Elem::I32,
            "u32" => Elem::U32,
            "i64" => Elem::I64,
            "u64" => Elem::U64,
            "f32" => Elem::F32,
            _ => return None,
        })
    }

    pub fn size(self) -> usize {
        match self {
            Elem::I8 | Elem::U8 => 1,
            Elem::I16 | Elem::U16 => 2,
            Elem::I32 | Elem::U32 | Elem::F32 => 4,
            Elem::I64 | Elem::U64 => 8,
        }
    }

    pub fn signed(self) -> bool {
        matches!(self, Elem::I8 | Elem::I16 | Elem::I32 | Elem::I64)
    }

    /// The element's bytes (little-endian) for an integer value, wrapped to its width.
    pub fn int_bytes(self, v: i128) -> Vec<u8> {
        (v as u64).to_le_bytes()[..self.size()].to_vec()
    }
}

#[derive(Debug)]
pub enum Pattern {
    Zero,
    Hash(u64),
    Range(u64, f64, f64),
    Ramp(f64, f64),
    Vals(Vec<f64>),
}

#[derive(Debug)]
pub enum KArg {
    /// `--buffer` (or `--constant` for a `constant` pointer parameter).
    Buf {
        elem: Elem,
        count: usize,
        pattern: Pattern,
        constant: bool,
    },
    /// `--image DIMS:FORMAT:ro|wo:PATTERN`: an image of `count` channel values of `elem`,
    /// read-only (`ro`, no output) or written (`wo`, compared afterwards).
    Image {
        dims: String,
        format: String,
        written: bool,
        elem: Elem,
        count: usize,
        pattern: Pattern,
    },
    /// `--scalar` as written (`i32:5`).
    Scalar(String),
    /// `--sampler` as written (`normalized,repeat,linear`).
    Sampler(String),
    Local(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    Exact,
    Ulp(u32),
}

#[derive(Debug)]
pub struct Kernel {
    pub name: String,
    pub file: String,
    pub global: String,
    pub local: String,
    pub rule: Rule,
    pub args: Vec<KArg>,
}

pub fn pattern(p: &str, elem: Elem) -> Result<Pattern, String> {
    let parts: Vec<&str> = p.split(':').collect();
    let num = |s: &str| s.parse::<f64>().map_err(|e| format!("`{s}`: {e}"));
    let seed = |s: &str| s.parse::<u64>().map_err(|e| format!("seed `{s}`: {e}"));
    match parts.as_slice() {
        ["zero"] => Ok(Pattern::Zero),
        ["hash", s] if elem != Elem::F32 => Ok(Pattern::Hash(seed(s)?)),
        ["range", s, lo, hi] => Ok(Pattern::Range(seed(s)?, num(lo)?, num(hi)?)),
        ["ramp", a, b] => Ok(Pattern::Ramp(num(a)?, num(b)?)),
        ["vals", v] => Ok(Pattern::Vals(v.split(',').map(num).collect::<Result<_, _>>()?)),
        _ => Err(format!("`{p}` is no pattern for {elem:?} (zero, hash:SEED for integers, range:SEED:LO:HI, ramp:A:B, vals:V,...)")),
    }
}

pub fn buffer(v: &str, constant: bool) -> Result<KArg, String> {
    let mut it = v.splitn(3, ':');
    let (ty, count, pat) = (
        it.next().unwrap_or(""),
        it.next().unwrap_or(""),
        it.next().unwrap_or(""),
    );
    let elem = Elem::parse(ty).ok_or_else(|| format!("--buffer {v}: `{ty}` is no element type"))?;
    let count = count
        .parse::<usize>()
        .map_err(|e| format!("--buffer {v}: count `{count}`: {e}"))?;
    Ok(KArg::Buf {
        elem,
        count,
        pattern: pattern(pat, elem).map_err(|e| format!("--buffer {v}: {e}"))?,
        constant,
    })
}

impl KArg {
    /// The element type of what the argument leaves to compare: buffers and written images.
    pub fn output(&self) -> Option<Elem> {
        match self {
            KArg::Buf { elem, .. }
            | KArg::Image {
                elem,
                written: true,
                ..
            } => Some(*elem),
            _ => None,
        }
    }
}

/// `W[,H[,D]]:FORMAT:ro|wo:PATTERN`; the channel type of FORMAT (`rgba-f32`, `r-u32`, ...)
/// gives the pattern's element type.
pub fn image(v: &str) -> Result<KArg, String> {
    let mut it = v.splitn(4, ':');
    let (dims, format, access, pat) = (
        it.next().unwrap_or(""),
        it.next().unwrap_or(""),
        it.next().unwrap_or(""),
        it.next().unwrap_or(""),
    );
    let bad = |why: String| format!("--image {v}: {why} (W[,H[,D]]:FORMAT:ro|wo:PATTERN)");
    let texels = dims
        .split(',')
        .map(|d| {
            d.parse::<usize>()
                .map_err(|e| bad(format!("size `{d}`: {e}")))
        })
        .product::<Result<usize, _>>()?;
    let (order, ty) = format
        .split_once('-')
        .ok_or_else(|| bad(format!("`{format}` is no format")))?;
    let channels = match order {
        "r" => 1,
        "rg" => 2,
        "rgba" => 4,
        _ => return Err(bad(format!("`{format}` is no format"))),
    };
    let elem = match ty {
        "f32" => Elem::F32,
        "unorm8" | "u8" => Elem::U8,
        "u32" => Elem::U32,
        "i32" => Elem::I32,
        _ => return Err(bad(format!("`{format}` is no format"))),
    };
    let written = match access {
        "ro" => false,
        "wo" => true,
        a => return Err(bad(format!("`{a}` is neither ro nor wo"))),
    };
    Ok(KArg::Image {
        dims: dims.into(),
        format: format.into(),
        written,
        elem,
        count: texels * channels,
        pattern: pattern(pat, elem).map_err(bad)?,
    })
}

pub fn manifest(text: &str) -> Result<Vec<Kernel>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("manifest.txt:{}: {e}", n + 1);
        let (fields, reason) = line
            .split_once(" -- ")
            .map_or((line, ""), |(f, r)| (f, r.trim()));
        let mut f = fields.split_whitespace();
        let (Some(name), Some(file), Some(rule)) = (f.next(), f.next(), f.next()) else {
            return Err(at(
                "expected NAME FILE RULE --global X --local X ARG...".into()
            ));
        };
        let rule = match rule {
            "exact" => Rule::Exact,
            r => match r.strip_prefix("ulp:").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) if !reason.is_empty() => Rule::Ulp(n),
                Some(_) => return Err(at(format!("`{r}` needs its reason after ` -- `"))),
                None => return Err(at(format!("`{r}` is no rule (exact, ulp:N)"))),
            },
        };
        let (mut global, mut local, mut args) = (None, None, Vec::new());
        while let Some(flag) = f.next() {
            let v = f
                .next()
                .ok_or_else(|| at(format!("{flag} needs a value")))?;
            match flag {
                "--global" => global = Some(v.to_string()),
                "--local" => local = Some(v.to_string()),
                "--buffer" => args.push(buffer(v, false).map_err(at)?),
                "--constant" => args.push(buffer(v, true).map_err(at)?),
                "--scalar" => args.push(KArg::Scalar(v.to_string())),
                "--sampler" => args.push(KArg::Sampler(v.to_string())),
                "--image" => args.push(image(v).map_err(at)?),
                "--local-mem" => args.push(KArg::Local(v.parse::<usize>().map_err(|e| at(format!("--local-mem {v}: {e}")))?)),
                _ => return Err(at(format!("`{flag}` is no option (--global, --local, --buffer, --constant, --scalar, --local-mem, --image, --sampler)"))),
            }
        }
        let (Some(global), Some(local)) = (global, local) else {
            return Err(at("--global and --local are required".into()));
        };
        out.push(Kernel {
            name: name.into(),
            file: file.into(),
            global,
            local,
            rule,
            args,
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Input buffers

/// splitmix64: the pseudo-random bits of element `i` of a buffer with this seed.
pub fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(i)
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub fn fill(elem: Elem, count: usize, p: &Pattern) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * elem.size());
    for i in 0..count {
        let value = |v: f64| -> Vec<u8> {
            if elem == Elem::F32 {
                (v as f32).to_le_bytes().to_vec()
            } else {
                elem.int_bytes(v as i128)
            }
        };
        out.extend(match p {
            Pattern::Zero => vec![0; elem.size()],
            Pattern::Hash(s) => mix(*s, i as u64).to_le_bytes()[..elem.size()].to_vec(),
            Pattern::Range(s, lo, hi) => {
                let h = mix(*s, i as u64);
                if elem == Elem::F32 {
                    value(lo + (hi - lo) * ((h >> 11) as f64 / (1u64 << 53) as f64))
                } else {
                    let (lo, hi) = (*lo as i128, *hi as i128);
                    elem.int_bytes(lo + (h as i128).rem_euclid(hi - lo + 1))
                }
            }
            Pattern::Ramp(a, b) => value(a * i as f64 + b),
            Pattern::Vals(v) => value(v[i % v.len()]),
        });
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Comparison

/// Units in the last place between two f32 (ordered on one line through zero; both NaN is 0).
pub fn ulps(a: f32, b: f32) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    let key = |x: f32| -> i64 {
        let b = x.to_bits() as i32 as i64;
        if b < 0 {
            i32::MIN as i64 - b
        } else {
            b
        }
    };
    key(a).abs_diff(key(b))
}

/// The first difference between pocl's bytes and ours under the rule, as text.
pub fn compare(elem: Elem, rule: Rule, pocl: &[u8], ours: &[u8]) -> Option<String> {
    if pocl.len() != ours.len() {
        return Some(format!("{} bytes, pocl left {}", ours.len(), pocl.len()));
    }
    let n = elem.size();
    let (mut count, mut first, mut worst) = (0usize, None, 0u64);
    for (i, (p, o)) in pocl.chunks(n).zip(ours.chunks(n)).enumerate() {
        if p == o {
            continue;
        }
        let ok = match elem {
            Elem::F32 => {
                let (p, o) = (
                    f32::from_le_bytes(p.try_into().unwrap()),
                    f32::from_le_bytes(o.try_into().unwrap()),
                );
                let d = ulps(p, o);
                let bound = match rule {
                    Rule::Exact => 0,
                    Rule::Ulp(b) => b as u64,
                };
                worst = worst.max(d);
                d <= bound
            }
            _ => false,
        };
        if !ok {
            count += 1;
            first.get_or_insert_with(|| {
                let show = |b: &[u8]| {
                    let mut x = [0u8; 8];
                    x[..n].copy_from_slice(b);
                    let v = u64::from_le_bytes(x);
                    match elem {
                        Elem::F32 => format!("{:e} ({v:#010x})", f32::from_bits(v as u32)),
                        e if e.signed() => {
                            format!("{}", ((v << (64 - 8 * n)) as i64) >> (64 - 8 * n))
                        }
                        _ => format!("{v}"),
                    }
                };
                format!("element {i}: pocl {}, interpreter {}", show(p), show(o))
            });
        }
    }
    let worst = if elem == Elem::F32 {
        format!(" (worst {worst} ulp)")
    } else {
        String::new()
    };
    first.map(|f| format!("{count} element(s) differ{worst}; first {f}"))
}

// ---------------------------------------------------------------------------------------------
// Tools

pub fn must_have(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}; CI is set: it must be present"
    );
    println!("skipped: {what}");
}

pub fn repo() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let found = candidates
        .into_iter()
        .find(|d| d.join("tests/interp/kernels/manifest.txt").is_file());
    if found.is_none() {
        must_have("tests/interp/kernels/manifest.txt not found (set VISA_REPO to the repository)");
    }
    found
}

/// Runs a command; Ok(stdout) on exit 0, else Err(what it said).
pub fn run(cmd: &mut Command) -> Result<String, String> {
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let out = String::from_utf8_lossy(&o.stdout);
            Err(format!("{}: {}{}", o.status, err.trim(), out.trim()))
        }
        Err(e) => Err(format!("{:?}: {e}", cmd.get_program())),
    }
}

/// How long one run of a kernel may take (a machine caught in a loop must not hang the test).
pub const RUN_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs a kernel's command with its output in files of `dir`, killed after [`RUN_LIMIT`].
pub fn run_limited(cmd: &mut Command, dir: &Path) -> Result<(), String> {
    let file = |n: &str| std::fs::File::create(dir.join(n)).map_err(|e| e.to_string());
    let mut child = cmd
        .stdout(file("stdout.txt")?)
        .stderr(file("stderr.txt")?)
        .spawn()
        .map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break status,
            None if start.elapsed() > RUN_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "still running after {} s: killed",
                    RUN_LIMIT.as_secs()
                ));
            }
            None => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    };
    if status.success() {
        return Ok(());
    }
    let said = |n: &str| {
        std::fs::read_to_string(dir.join(n))
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    Err(format!(
        "{status}: {}{}",
        said("stderr.txt"),
        said("stdout.txt")
    ))
}

/// `pocl-run`: `$POCL_RUN`, else built from the repository's workspace by cargo.
pub fn pocl_run(repo: &Path) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("POCL_RUN") {
        return Ok(p.into());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = run(Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "-p",
            "pocl-run",
            "--bin",
            "pocl-run",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(repo.join("Cargo.toml")))?;
    // The artifact line of the binary: `"executable":"<path>"`.
    out.lines()
        .filter(|l| l.contains("\"name\":\"pocl-run\""))
        .find_map(|l| {
            l.split_once("\"executable\":\"")
                .and_then(|(_, r)| r.split_once('"'))
                .map(|(p, _)| PathBuf::from(p))
        })
        .ok_or_else(|| "cargo built no pocl-run executable".to_string())
}

/// The ARGs of `visa run`/`pocl-run` for one kernel, buffers read from `inputs` and written to
/// `outputs` (one file per buffer argument, by argument index).
pub fn cli_args(k: &Kernel, inputs: &Path, outputs: &Path) -> Vec<String> {
    let mut v = vec![
        "--kernel".into(),
        k.name.clone(),
        "--global".into(),
        k.global.clone(),
        "--local".into(),
        k.local.clone(),
    ];
    for (i, a) in k.args.iter().enumerate() {
        match a {
            KArg::Buf { constant, .. } => {
                v.push(if *constant { "--constant" } else { "--buffer" }.into());
                v.push(format!(
                    "{}:{}",
                    inputs.join(format!("{i}.bin")).display(),
                    outputs.join(format!("{i}.bin")).display()
                ));
            }
            KArg::Scalar(s) => v.extend(["--scalar".into(), s.clone()]),
            KArg::Sampler(s) => v.extend(["--sampler".into(), s.clone()]),
            KArg::Local(n) => v.extend(["--local-mem".into(), n.to_string()]),
            KArg::Image {
                dims,
                format,
                written,
                ..
            } => {
                let input = inputs.join(format!("{i}.bin"));
                v.push("--image".into());
                v.push(if *written {
                    format!(
                        "{dims}:{format}:{}:{}",
                        input.display(),
                        outputs.join(format!("{i}.bin")).display()
                    )
                } else {
                    format!("{dims}:{format}:{}", input.display())
                });
            }
        }
    }
    v
}

/// Runs `tool FIRST ARGS` into a fresh `outputs` and returns each buffer's bytes.
pub fn launch(
    tool: &[&std::ffi::OsStr],
    k: &Kernel,
    inputs: &Path,
    outputs: &Path,
) -> Result<Vec<Vec<u8>>, String> {
    let _ = std::fs::remove_dir_all(outputs);
    std::fs::create_dir_all(outputs).map_err(|e| e.to_string())?;
    run_limited(
        Command::new(tool[0])
            .args(&tool[1..])
            .args(cli_args(k, inputs, outputs)),
        outputs,
    )?;
    let mut bufs = Vec::new();
    for (i, a) in k.args.iter().enumerate() {
        if a.output().is_some() {
            bufs.push(
                std::fs::read(outputs.join(format!("{i}.bin")))
                    .map_err(|e| format!("buffer {i}: {e}"))?,
            );
        }
    }
    Ok(bufs)
}

/// Each kernel's input buffers and images, filled by their manifest patterns, in
/// `dir/<kernel>/<argument index>.bin`: what pocl and `visa run` both read.
pub fn write_inputs(kernels: &[Kernel], dir: &Path) {
    for k in kernels {
        let dir = dir.join(&k.name);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, a) in k.args.iter().enumerate() {
            if let KArg::Buf {
                elem,
                count,
                pattern,
                ..
            }
            | KArg::Image {
                elem,
                count,
                pattern,
                ..
            } = a
            {
                std::fs::write(dir.join(format!("{i}.bin")), fill(*elem, *count, pattern)).unwrap();
            }
        }
    }
}

/// Maps `f` over `items` on two threads (the CI machine's cores), keeping the order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                *results[i].lock().unwrap() = Some(f(item));
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap().unwrap())
        .collect()
}

/// A kernel's outcome on one platform.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Match,
    /// The interpreter ran it to other bytes.
    Differs(String),
    /// `visa run` failed (or does not exist).
    Fails(String),
}
/// A fresh directory `name` for a test's files.
pub fn tempdir(name: &str) -> PathBuf {
    let base = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
