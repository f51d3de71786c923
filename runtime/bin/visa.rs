//! `visa`: look into vISA object files and text with the crate generated from the docs.
//!
//! Every command that reads a FILE takes an object file (`.isa`) or vISA text: Intel's
//! `.visaasm` (a kernel's stack-called functions, `K.func.F.visaasm` beside it, are read too)
//! or a combined `.isaasm` (every routine, one `.version`), of vISA 4.2 and older. The text's
//! `//Platform:` line (IGC 2.x writes one) names its platform where `--platform` does not.
//!
//! - `visa info FILE.isa`: kernels, functions, declaration counts, version, GEN binaries;
//! - `visa check FILE.isa [--platform P] [--strict]`: validate every routine for platform P
//!   (`File::validate`: instruction docs, operands chapter, declarations, type maps, labels);
//!   errors exit 1, warnings (what the docs forbid and Intel's verifier accepts) print as
//!   `warning: ...` and exit 0 unless `--strict`;
//!   P by any name: the docs' (`XEHP`, `pre-ICLLP`), GenX_IR's (`SKL`, `XeHP_SDV`, `DG2`,
//!   `PVCXT`) or an ocloc device (`acm-g10`, `pvc`), case-insensitively; without `--platform`,
//!   the platform the file's first GEN binary names (`gen_platform`);
//! - `visa roundtrip FILE.isa`: read, write back and compare byte for byte;
//! - `visa dis FILE.isa [-o DIR]`: the vISA text of every routine, as Intel prints it.
//!
//! `dis` prints each kernel on stdout, byte for byte what Intel's compiler writes to
//! `NAME.visaasm`. A function is a text of its own (own `.version` header, own `$N` ids; Intel
//! writes it to `NAME.func.F.visaasm` and its reader takes one routine per file), so it is not
//! glued to stdout: `-o DIR` writes every routine under Intel's file names (`STEM.visaasm`,
//! `STEM.func.F.visaasm`, with STEM the input's file stem), and without `-o` stderr names the
//! functions left out. Instructions that cannot be printed are `//` lines, listed on stderr,
//! and make the exit status 1. An instruction with bits its text cannot show prints as Intel
//! prints it, with a note on stderr (that line assembles to other bytes); `--strict` makes
//! those notes errors (exit status 1).
//! - `visa asm K.visaasm [F.visaasm ...] -o K.isa [--platform P] [--no-check] [--strict]`:
//!   assemble Intel's text, refusing instructions with errors of `visa check` (file:line:col;
//!   its warnings are printed, and refused too under `--strict`); the platform,
//!   as GenX_IR's `-platform`, also places ADDR_ADD's `&V[bytes]`; each input holds
//!   kernels (`.kernel`) or stack-called functions (`.global_function`, Intel prints each in
//!   its own `K.func.F.visaasm`), which join the file in the order given.
//!
//! - `visa run FILE.isa --kernel K --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--platform P] ARG...`:
//!   run a kernel on the interpreter (`visa::machine`), one ARG per kernel parameter, in order:
//!   `--buffer IN.bin:OUT.bin` (a global buffer starting as IN.bin's bytes, written to OUT.bin
//!   after the run), `--scalar TYPE:VALUE` (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64: `i32:5`,
//!   `u64:0x7`, `f32:1.5`), `--local-mem BYTES` (a `local` pointer parameter),
//!   `--constant IN.bin:OUT.bin` (a `constant` pointer: Intel's compiler places those after
//!   the `global` ones, so `--buffer` for one misplaces the others),
//!   `--image W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]` (an image, written and saved when OUT is given,
//!   read-only otherwise; formats in `visa::machine::image`),
//!   `--sampler normalized|unnormalized,ADDRESS,FILTER` (a `sampler_t`: ADDRESS `none`,
//!   `clamp_to_edge`, `clamp`, `repeat` or `mirrored_repeat`, FILTER `nearest` or `linear`).
//!   Without
//!   `--local`, dimension 0 takes the largest divisor of its global size up to 64; without
//!   `--platform`, the platform of the file's GEN binary. How the arguments reach the kernel
//!   (the thread payload Intel's compiler expects) is `runtime/machine/PAYLOAD.md`;
//!   notes on what the `.isa` leaves ambiguous go to stderr.
//!   `--zeinfo P.zeinfo` (Intel's zeinfo YAML, as `intel-modern ocl` writes it) or `--program
//!   K.bin` (ocloc's program binary: a zebin, whose `.ze_info` section is that YAML, or the 2022
//!   compiler's patch-token ELF) give the layout instead, and the program-scope `constant` and
//!   `global` data a binary holds: every argument and implicit value is placed where Intel's
//!   description says (`runtime/bin/program.rs`, `visa::machine::zeinfo`,
//!   `visa::machine::program`). Without them, a kernel whose inputs could hold either of two
//!   implicit values (the global size or the number of groups) is refused, naming them.
//!
//! Exit status: 0 success, 1 a check, roundtrip or run failed or the file does not read, 2 usage.

mod input;
mod program;

use clap::{Parser, Subcommand};
use input::{load, Loaded};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use visa::object::text::{print_combined, print_function, print_kernel, Printed};
use visa::object::verify::Target;
use visa::object::{File, Routine};
use visa::runtime::{IntelPlatform, INTEL_PLATFORMS};
use visa::Platform;

#[derive(Parser, Debug)]
#[command(
    name = "visa",
    about = "Read, check and round-trip vISA object files (.isa)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print kernels, functions, declaration counts, the vISA version and GEN binaries.
    Info { file: PathBuf },
    /// Validate every routine for a platform: each instruction's doc and its entry in the list
    /// of instructions (the platforms it exists on), the operands chapter, the declarations,
    /// type maps and labels (`visa::object::File::validate`). A platform the docs do not
    /// describe follows the rules of the newest one before it that they do: ARL those of MTL,
    /// XE2, XE3, XE3P_CRI and NVL those of PVC_XT (the docs of 2025-02 stop there), tightened or
    /// widened where errata name it because Intel's compiler differs (the sampler from XE2 on,
    /// the Xe3P opcodes from XE3P_CRI on), with each platform's register size and address
    /// registers (32 from XE3P_CRI on; `IntelPlatform`).
    Check {
        file: PathBuf,
        /// A platform: the docs' name (XEHP), GenX_IR's (SKL, DG2, XeHP_SDV, PVCXT, ARL, XE2,
        /// LNL, XE3, PTL, XE3P_CRI, CRI, NVL) or an ocloc device (acm-g10, pvc, bmg, ptl, ...);
        /// case does not matter. Default: the platform of the file's GEN binary or of the
        /// text's `//Platform:` line.
        #[arg(long)]
        platform: Option<String>,
        /// Count warnings (what the docs forbid and Intel's verifier accepts) as errors.
        #[arg(long)]
        strict: bool,
    },
    /// Read, write back and compare byte for byte.
    Roundtrip { file: PathBuf },
    /// Print the vISA text of the kernels (stdout) and functions (`-o DIR`) as Intel does.
    Dis {
        file: PathBuf,
        /// Write every routine to this directory under Intel's names (`STEM.visaasm`,
        /// `STEM.func.F.visaasm`) instead of printing kernels on stdout.
        #[arg(short = 'o', long = "out")]
        out: Option<PathBuf>,
        /// Fail (exit 1) when a printed line would not assemble back to the same bytes.
        #[arg(long)]
        strict: bool,
    },
    /// Assemble vISA text: kernels and functions of every input, in order, into one file.
    Asm {
        /// `.visaasm` files: a kernel's, then its functions' (`K.func.F.visaasm`).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The object file to write.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Skip instruction lines: declarations and labels only.
        #[arg(long)]
        declarations_only: bool,
        /// Write the file even when its instructions break the rules `visa check` applies.
        #[arg(long)]
        no_check: bool,
        /// Refuse the text on warnings of the checks too (what the docs forbid and Intel's
        /// verifier accepts), as `visa check --strict` does.
        #[arg(long)]
        strict: bool,
        /// The platform the text is for, as GenX_IR's `-platform` (the docs', GenX_IR's or
        /// ocloc's names): checked for, and its register size places ADDR_ADD's `&V[bytes]`.
        /// Default: the text's `//Platform:` line, else XEHP (else the newest the docs name).
        #[arg(long)]
        platform: Option<String>,
    },
    /// Run a kernel on the interpreter: `visa run FILE.isa --kernel K --global X[,Y[,Z]]
    /// [--local X[,Y[,Z]]] [--platform P] ARG...`, one ARG per kernel parameter in order:
    /// `--buffer IN.bin:OUT.bin`, `--constant IN.bin:OUT.bin` (a `constant` pointer),
    /// `--scalar TYPE:VALUE` (i32:5, u64:7, f32:1.5), `--local-mem BYTES`,
    /// `--image W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]` (an image; written when OUT is given),
    /// `--sampler normalized|unnormalized,ADDRESS,FILTER` (a `sampler_t`).
    /// `--max-steps N`: the instructions the whole run may execute (default 1000000000).
    /// `--threads N`: host threads for the work-groups (default: the host's cores).
    /// `--check`: report out-of-bounds accesses, divergent barriers and data races (exit 1
    /// when any). `--zeinfo P.zeinfo` or `--program K.bin`: the payload layout (and
    /// program-scope data) from Intel's zeinfo or program binary.
    /// `visa run FILE --kernel K --help` says more.
    Run {
        file: PathBuf,
        /// `--kernel K --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--platform P]`, then the ARGs.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Info { file } => load(&file, None).map(|l| info(&l)),
        Command::Check {
            file,
            platform,
            strict,
        } => check(&file, platform.as_deref(), strict),
        Command::Roundtrip { file } => roundtrip(&file),
        Command::Dis { file, out, strict } => dis(&file, out.as_deref(), strict),
        Command::Asm {
            inputs,
            output,
            declarations_only,
            no_check,
            strict,
            platform,
        } => asm(
            &inputs,
            &output,
            !declarations_only,
            (!no_check).then_some(platform.as_deref()),
            strict,
            platform.as_deref(),
        ),
        Command::Run { file, args } => run(&file, &args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

fn text(b: Option<&[u8]>) -> String {
    b.map_or_else(|| "?".into(), |b| String::from_utf8_lossy(b).into_owned())
}

/// The routines of a file: kind, index, name in the header, data.
fn routines(f: &File) -> Vec<(&'static str, usize, String, &dyn Routine)> {
    let mut out: Vec<(&'static str, usize, String, &dyn Routine)> = Vec::new();
    for (i, k) in f.kernels.iter().enumerate() {
        let name = f.header.kernel_info.get(i).map(|k| k.name.as_slice());
        out.push(("kernel", i, text(name), &k.data));
    }
    for (i, func) in f.functions.iter().enumerate() {
        let name = f.header.function_info.get(i).map(|k| k.name.as_slice());
        out.push(("function", i, text(name), &func.data));
    }
    out
}

fn info(loaded: &Loaded) -> u8 {
    let f = &loaded.file;
    if let Some(texts) = &loaded.texts {
        let platform = loaded
            .named
            .map_or(String::new(), |p| format!(" for {}", p.name));
        println!("vISA text{platform}: {} file(s) assembled", texts.len());
    }
    println!(
        "vISA {}.{}: {} kernel(s), {} function(s), {} file-scope variable(s)",
        f.header.major_version,
        f.header.minor_version,
        f.kernels.len(),
        f.functions.len(),
        f.header.file_scope_var_info.len()
    );
    for (kind, i, name, r) in routines(f) {
        let s = r.instructions();
        println!(
            "{kind} {i} `{name}`: {} strings, {} variables, {} predicates, {} labels, {} samplers, {} surfaces, {} instructions",
            r.string_pool().len(),
            r.var_info().len(),
            r.predicate_info().len(),
            r.label_info().len(),
            r.sampler_info().len(),
            r.surface_info().len(),
            s.instructions.len()
        );
        if let Some(stop) = &s.stop {
            println!(
                "  decoding stopped: {}; {} byte(s) kept undecoded",
                stop.describe(),
                s.undecoded.len()
            );
        }
        if kind == "kernel" {
            if let Some(k) = f.kernels.get(i) {
                println!("  {} input(s)", k.data.input_info.len());
            }
            for (j, g) in f
                .header
                .kernel_info
                .get(i)
                .map(|k| k.gen_binary_info.as_slice())
                .unwrap_or(&[])
                .iter()
                .enumerate()
            {
                println!(
                    "  GEN binary {j}: platform {} ({}), {} bytes",
                    g.gen_platform,
                    g.gen_platform_meaning()
                        .unwrap_or("not listed by the chapter"),
                    g.binary_size
                );
            }
        }
    }
    0
}

/// The platform `--platform` names, else the one of the file's first GEN binary; `Err` is the
/// message of a usage error.
/// The target of `visa check`: the platform `--platform` names, else the text's `//Platform:`
/// line, else the file's platform code; with what to call it.
fn platform_of(loaded: &Loaded, platform: Option<&str>) -> Result<(Target, String), String> {
    let f = &loaded.file;
    if let Some(name) = platform {
        let p = Platform::from_name(name).ok_or_else(|| {
            let docs: Vec<&str> = Platform::ALL.iter().map(|p| p.name()).collect();
            let intel: Vec<&str> = INTEL_PLATFORMS.iter().map(|p| p.name).collect();
            format!(
                "unknown platform `{name}`; expected one of the docs' {}, GenX_IR's {} or an ocloc device name ({})",
                docs.join(", "),
                intel.join(", "),
                INTEL_PLATFORMS
                    .iter()
                    .flat_map(|p| p.ocloc.iter().copied())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        let target = IntelPlatform::find(name).map_or(Target::from(p), Target::from);
        return Ok((target, described(name, p)));
    }
    if let Some(intel) = loaded.named {
        let p = intel.platform();
        return Ok((
            Target::from(intel),
            format!("{} (the text's //Platform: line)", described(intel.name, p)),
        ));
    }
    if loaded.texts.is_some() {
        return Err("the text names no platform (no `//Platform:` line); give --platform".into());
    }
    let code = f
        .header
        .kernel_info
        .iter()
        .flat_map(|k| k.gen_binary_info.iter())
        .map(|g| u32::from(g.gen_platform))
        .next()
        .ok_or("the file has no GEN binary to name its platform; give --platform")?;
    let intel = IntelPlatform::from_gen_platform(code).ok_or_else(|| {
        format!("the file's platform code {code} is no known platform; give --platform")
    })?;
    let p = intel.platform();
    Ok((
        Target::from(intel),
        format!(
            "{} (platform code {code} of the file)",
            described(intel.name, p)
        ),
    ))
}

/// `SKL (pre-ICLLP in the docs)`, or the docs' name alone.
fn described(name: &str, p: Platform) -> String {
    if p.name().eq_ignore_ascii_case(name) {
        p.name().to_string()
    } else {
        format!("{name} ({} in the docs)", p.name())
    }
}

/// Errors exit 1; warnings (what the docs forbid and Intel's verifier accepts) are printed
/// as `warning: ...` and exit 0, unless `strict`.
fn check(path: &Path, platform: Option<&str>, strict: bool) -> Result<u8, String> {
    let loaded = load(path, platform)?;
    let f = &loaded.file;
    let (p, shown) = match platform_of(&loaded, platform) {
        Ok(p) => p,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(2);
        }
    };
    let checked: usize = routines(f)
        .iter()
        .map(|(_, _, _, r)| r.instructions().instructions.len())
        .sum();
    let (errors, warnings) = if loaded.texts.is_some() {
        // Text: each finding at its line and column.
        let diags = visa::asm::check(&loaded.sources(), f, p);
        print!("{}", visa::asm::render(&diags));
        let errors = diags
            .iter()
            .filter(|d| d.severity == visa::object::Severity::Error)
            .count();
        (errors, diags.len() - errors)
    } else {
        let failures = f.validate(p);
        for e in &failures {
            if e.is_error() {
                println!("{e}");
            } else {
                println!("warning: {e}");
            }
        }
        let errors = failures.iter().filter(|e| e.is_error()).count();
        (errors, failures.len() - errors)
    };
    println!(
        "{checked} instruction(s) checked for {shown}, {errors} error(s), {warnings} warning(s){}",
        if strict && warnings > 0 {
            " (--strict: warnings count as errors)"
        } else {
            ""
        }
    );
    Ok(u8::from(errors > 0 || (strict && warnings > 0)))
}

fn roundtrip(path: &Path) -> Result<u8, String> {
    let loaded = load(path, None)?;
    if let Some(texts) = &loaded.texts {
        return roundtrip_text(&loaded.file, texts);
    }
    let (bytes, f) = (&loaded.bytes, &loaded.file);
    let out = f
        .write()
        .map_err(|e| format!("{}: writing: {e}", path.display()))?;
    if out == *bytes {
        println!("{}: identical ({} bytes)", path.display(), bytes.len());
        return Ok(0);
    }
    let at = bytes
        .iter()
        .zip(&out)
        .position(|(a, b)| a != b)
        .unwrap_or(bytes.len().min(out.len()));
    let show = |b: &[u8]| {
        b.get(at)
            .map_or("end of data".into(), |x| format!("{x:#04x}"))
    };
    println!(
        "{}: differs at byte {at} ({at:#x}): read {}, wrote {} ({} bytes read, {} written)",
        path.display(),
        show(bytes),
        show(&out),
        bytes.len(),
        out.len()
    );
    Ok(1)
}

/// Text read, assembled and printed again: each text must come back line for line. The
/// routines are the texts' in order (a kernel's text, then its functions' files), or all of
/// them in one combined text (`.isaasm`: one `.version`, routine after routine).
fn roundtrip_text(f: &File, texts: &[(String, String)]) -> Result<u8, String> {
    let mut printed: Vec<Printed> = (0..f.kernels.len())
        .filter_map(|i| print_kernel(f, i))
        .chain((0..f.functions.len()).filter_map(|i| print_function(f, i)))
        .collect();
    if texts.len() == 1 && printed.len() > 1 {
        printed = vec![print_combined(f)];
    }
    if printed.len() != texts.len() {
        let name = texts.first().map_or("", |t| t.0.as_str());
        return Err(format!(
            "{name}: {} routine(s) in {} file(s): expected one routine per file, or one file with them all",
            printed.len(),
            texts.len()
        ));
    }
    let mut differ = 0;
    for ((name, text), p) in texts.iter().zip(&printed) {
        let (read, wrote): (Vec<&str>, Vec<&str>) =
            (text.lines().collect(), p.text.lines().collect());
        let at = read
            .iter()
            .zip(&wrote)
            .position(|(a, b)| a != b)
            .or((read.len() != wrote.len()).then(|| read.len().min(wrote.len())));
        match at {
            None => println!("{name}: identical ({} lines)", read.len()),
            Some(i) => {
                differ += 1;
                let line = |l: &[&str]| {
                    l.get(i)
                        .map_or("(end of text)".to_string(), |s| format!("`{s}`"))
                };
                println!(
                    "{name}:{}: prints back differently: read {}, printed {} ({} lines read, {} printed)",
                    i + 1,
                    line(&read),
                    line(&wrote),
                    read.len(),
                    wrote.len()
                );
            }
        }
    }
    Ok(u8::from(differ > 0))
}

/// One routine's text to print: the file name Intel gives it and the text.
fn dis_routines(f: &File, stem: &str) -> Vec<(String, Printed)> {
    let mut out = Vec::new();
    let many = f.kernels.len() > 1;
    for i in 0..f.kernels.len() {
        let name = text(f.header.kernel_info.get(i).map(|k| k.name.as_slice()));
        let file = if many {
            format!("{stem}.{name}.visaasm")
        } else {
            format!("{stem}.visaasm")
        };
        if let Some(p) = print_kernel(f, i) {
            out.push((file, p));
        }
    }
    for i in 0..f.functions.len() {
        let name = text(f.header.function_info.get(i).map(|k| k.name.as_slice()));
        if let Some(p) = print_function(f, i) {
            out.push((format!("{stem}.func.{name}.visaasm"), p));
        }
    }
    out
}

fn dis(path: &Path, dir: Option<&Path>, strict: bool) -> Result<u8, String> {
    let loaded = load(path, None)?;
    let f = &loaded.file;
    let stem = path
        .file_stem()
        .map_or_else(|| "out".into(), |s| s.to_string_lossy().into_owned());
    let mut problems = 0usize;
    let mut notes = 0usize;
    let kernels = f.kernels.len();
    for (n, (name, printed)) in dis_routines(f, &stem).into_iter().enumerate() {
        for p in &printed.problems {
            problems += 1;
            eprintln!("{name}:{}: {}", p.line, p.message);
        }
        for p in &printed.notes {
            notes += 1;
            let kind = if strict { "error" } else { "note" };
            eprintln!("{name}:{}: {kind}: {}", p.line, p.message);
        }
        match dir {
            Some(dir) => {
                let to = dir.join(&name);
                std::fs::write(&to, printed.text)
                    .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
            }
            None if n < kernels => print!("{}", printed.text),
            None => eprintln!("note: function text {name} not printed; give -o DIR to write it"),
        }
    }
    if problems > 0 {
        eprintln!("{problems} problem(s): the lines named above are `//` comments in the text");
    }
    if notes > 0 {
        eprintln!(
            "{notes} line(s) printed as Intel prints them will not assemble back to the same bytes{}",
            if strict { " (--strict)" } else { "" }
        );
    }
    Ok(u8::from(problems > 0 || (strict && notes > 0)))
}

/// The platform named `name` (any name `check` takes), or the default of `visa asm`: XEHP when
/// the docs name it, else the newest they name.
fn platform_or_default(name: Option<&str>) -> Result<Platform, String> {
    let find = Platform::from_name;
    match name {
        Some(n) => find(n).ok_or_else(|| {
            let names: Vec<&str> = Platform::ALL.iter().map(|p| p.name()).collect();
            format!(
                "unknown platform `{n}`; expected one of {}",
                names.join(", ")
            )
        }),
        None => find("XEHP")
            .or_else(|| Platform::ALL.last().copied())
            .ok_or_else(|| "the docs name no platform".to_string()),
    }
}

/// `check`: `None` skips the checks (`--no-check`), else the platform name to check for;
/// `platform` (`--platform`) also gives the register size of ADDR_ADD's `&V[bytes]`.
fn asm(
    inputs: &[PathBuf],
    output: &Path,
    instructions: bool,
    check: Option<Option<&str>>,
    strict: bool,
    platform: Option<&str>,
) -> Result<u8, String> {
    let target = match platform {
        None => None,
        Some(name) => match IntelPlatform::find(name) {
            Some(p) => Some(p),
            // A docs name no Intel platform has (`pre-ICLLP`): checked for, no register size.
            None if Platform::from_name(name).is_some() => None,
            None => {
                let intel: Vec<&str> = INTEL_PLATFORMS.iter().map(|p| p.name).collect();
                eprintln!(
                    "error: unknown platform `{name}`; expected one of GenX_IR's {}, an ocloc device name or a docs name",
                    intel.join(", ")
                );
                return Ok(2);
            }
        },
    };
    let mut texts = Vec::new();
    for p in inputs {
        let text =
            std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        texts.push((p.display().to_string(), text));
    }
    // Without --platform, the platform of the text's `//Platform:` line, as `visa check` takes.
    let named = texts
        .iter()
        .find_map(|(_, t)| visa::asm::platform_line(t))
        .and_then(IntelPlatform::find);
    let (target, platform) = match (platform, named) {
        (None, Some(p)) => (Some(p), Some(p.name)),
        _ => (target, platform),
    };
    let check = check.map(|c| c.or(platform));
    let sources: Vec<visa::asm::Source> = texts
        .iter()
        .map(|(name, text)| visa::asm::Source { name, text })
        .collect();
    let options = visa::asm::Options { instructions };
    let assembled = match target {
        Some(p) => visa::asm::assemble_for(&sources, options, p),
        None => visa::asm::assemble(&sources, options),
    };
    let file = match assembled {
        Ok(f) => f,
        Err(diags) => {
            eprint!("{}", visa::asm::render(&diags));
            eprintln!("error: {} error(s); nothing written", diags.len());
            return Ok(1);
        }
    };
    if let Some(name) = check {
        let platform = platform_or_default(name)?;
        let diags = visa::asm::check(&sources, &file, platform);
        eprint!("{}", visa::asm::render(&diags));
        let refused = diags
            .iter()
            .filter(|d| strict || d.severity == visa::object::Severity::Error)
            .count();
        if refused > 0 {
            eprintln!(
                "error: {} instruction(s) break the rules of `visa check` for {}; nothing written (`--no-check` writes it anyway)",
                refused,
                platform.name()
            );
            return Ok(1);
        }
    }
    let lost = file.text.unwritable();
    if !lost.is_empty() {
        eprintln!(
            "error: the text has what a vISA object file cannot hold (IGC 2.x's text): {}; nothing written",
            lost.join("; ")
        );
        return Ok(1);
    }
    let bytes = file.write().map_err(|e| format!("writing: {e}"))?;
    std::fs::write(output, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    println!(
        "{}: {} kernel(s), {} function(s), {} bytes",
        output.display(),
        file.kernels.len(),
        file.functions.len(),
        bytes.len()
    );
    Ok(0)
}

/// `visa run`: usage errors (exit 2) name the argument and what was expected; a kernel that
/// cannot run (exit 1) says where.
fn run(path: &Path, words: &[String]) -> Result<u8, String> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    if words.iter().any(|w| *w == "--help" || *w == "-h") {
        print_run_help();
        return Ok(0);
    }
    match prepare_run(path, &words) {
        Ok(prepared) => run_kernel(path, prepared),
        Err(Stop::Usage(message)) => {
            eprintln!("error: {message}");
            Ok(2)
        }
        Err(Stop::Fail(message)) => Err(message),
    }
}

fn print_run_help() {
    println!(
        "visa run FILE.isa --kernel K --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--platform P]\n         \
[--zeinfo P.zeinfo | --program K.bin] [--check] [--max-steps N] [--threads N] ARG...\n\
         one ARG per kernel parameter, in order:\n  \
         --buffer IN.bin:OUT.bin    a global buffer: IN.bin's bytes, written to OUT.bin after the run\n  \
         --constant IN.bin:OUT.bin  a constant buffer, likewise\n  \
         --scalar TYPE:VALUE        i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 (i32:5, u64:0x7, f32:1.5)\n  \
         --local-mem BYTES          a local pointer to BYTES of the work-group's SLM\n  \
         --image W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]\n                            \
an image of FORMAT (rgba-f32, r-f32, rgba-unorm8, rgba-u8, r-u32, ...), texels packed\n                            \
row after row; with OUT.bin a written image, saved after the run, else read-only\n  \
         --sampler normalized|unnormalized,ADDRESS,FILTER\n                            \
a sampler_t: ADDRESS none, clamp_to_edge, clamp, repeat or mirrored_repeat,\n                            \
FILTER nearest or linear (normalized,repeat,linear)\n\
         options:\n  \
         --zeinfo P.zeinfo          place every argument and implicit value (sizes, number of groups,\n                            \
global offset, work dimensions, buffer offsets, private base, local ids) where Intel's\n                            \
zeinfo for the kernel says (`intel-modern ocl` writes OUT/F.zeinfo); without it the\n                            \
layout is inferred from the kernel's .input lines, and a kernel whose inputs could\n                            \
hold either of two values (get_global_size, get_num_groups) is refused\n  \
         --program K.bin            the same from ocloc's program binary (a zebin: its .ze_info section;\n                            \
or the 2022 compiler's patch tokens), with the program-scope constant and global\n                            \
data the kernels read\n  \
         --max-steps N              the instructions the whole run may execute (every thread of every\n                            \
work-group together; default 1000000000): past it the run stops (exit 1)\n  \
         --threads N                host threads the work-groups may run on (default: the host's\n                            \
cores); the result is always that of one thread: a split whose groups read what\n                            \
another thread's groups wrote, or kernels with atomics or --check, run on one\n  \
         --check                    report out-of-bounds accesses (buffers, images, SLM), barriers not\n                            \
every work-item reaches, and data races between the work-items of a work-group\n                            \
(SLM and global memory) on stderr with the kernel, instruction, lane and address;\n                            \
exit 1 with their count when there is any. Out of bounds, a read gives zeros and a\n                            \
write is dropped, and the run goes on\n\
         limits (an error names the one hit): 1024 work-items per work-group, 2^32 per NDRange, 1 MiB of\n\
         registers per routine, 16 MiB per thread, 1024 nested calls, 256 MiB of scratch per work-group"
    );
}

/// Why `visa run` stops before the kernel runs: a usage error (exit 2) or another (exit 1).
enum Stop {
    Usage(String),
    Fail(String),
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Fail(message)
    }
}

/// Everything `visa run` needs to launch, checked.
struct Prepared {
    kernel: String,
    file: File,
    k: usize,
    intel: &'static IntelPlatform,
    nd: visa::machine::launch::NdRange,
    args: Vec<visa::machine::launch::Arg>,
    max_steps: Option<u64>,
    check: bool,
    /// `--threads N`.
    threads: Option<u32>,
    /// Parameters whose memory is written to a file after the run.
    outputs: Vec<(usize, PathBuf)>,
    /// `--zeinfo` or `--program`: the layout and program-scope data described.
    described: Option<visa::machine::program::Program>,
}

/// Reads the command line, the file and the arguments' inputs, and checks that the arguments
/// fit the kernel's inputs, before anything runs.
fn prepare_run(path: &Path, words: &[&str]) -> Result<Prepared, Stop> {
    use visa::machine::launch::{find_kernel, parse_run, NdRange};
    let spec = parse_run(words).map_err(Stop::Usage)?;
    let loaded = load(path, spec.platform.as_deref())?;
    let intel = run_platform(spec.platform.as_deref(), &loaded)?;
    let file = loaded.file;
    let k = find_kernel(&file, &spec.kernel)
        .map_err(|e| Stop::Usage(format!("--kernel {}: {e}", spec.kernel)))?;
    let local = spec
        .local
        .clone()
        .unwrap_or_else(|| NdRange::default_local(&spec.global));
    let nd = NdRange::new(&spec.global, &local).map_err(Stop::Usage)?;
    let mut args = Vec::new();
    let mut outputs = Vec::new();
    for (i, a) in spec.args.iter().enumerate() {
        args.push(run_arg(i, a, &mut outputs)?);
    }
    let described = read_described(&spec)?;
    let fits = match &described {
        Some(d) => {
            let ze = described_kernel(d, &spec.kernel)?;
            visa::machine::launch::layout_described(&file, k, intel, &args, ze).map(|_| ())
        }
        None => visa::machine::launch::layout(&file, k, intel, &args).map(|_| ()),
    };
    if let Err(e) = fits {
        return Err(Stop::Usage(format!(
            "the {} ARG(s) given do not fit kernel `{}`: {e}",
            args.len(),
            spec.kernel
        )));
    }
    Ok(Prepared {
        kernel: spec.kernel,
        file,
        k,
        intel,
        nd,
        args,
        max_steps: spec.max_steps,
        check: spec.check,
        threads: spec.threads,
        outputs,
        described,
    })
}

/// The program `--zeinfo` or `--program` names, read.
fn read_described(
    spec: &visa::machine::launch::RunSpec,
) -> Result<Option<visa::machine::program::Program>, Stop> {
    match (&spec.zeinfo, &spec.program) {
        (Some(z), _) => program::read_zeinfo(Path::new(z))
            .map(Some)
            .map_err(Stop::Fail),
        (None, Some(p)) => program::read_program(Path::new(p))
            .map(Some)
            .map_err(Stop::Fail),
        (None, None) => Ok(None),
    }
}

/// Kernel `name` of a described program.
fn described_kernel<'a>(
    p: &'a visa::machine::program::Program,
    name: &str,
) -> Result<&'a visa::machine::zeinfo::ZeKernel, Stop> {
    p.info.kernel(name).ok_or_else(|| {
        let names: Vec<&str> = p.info.kernels.iter().map(|k| k.name.as_str()).collect();
        Stop::Usage(format!(
            "--kernel {name}: the zeinfo or program binary describes no such kernel (it has: {})",
            names.join(", ")
        ))
    })
}

/// The platform of `--platform`, else the one the file's GEN binaries name.
fn run_platform(name: Option<&str>, loaded: &Loaded) -> Result<&'static IntelPlatform, Stop> {
    let file = &loaded.file;
    if let Some(name) = name {
        return IntelPlatform::find(name).ok_or_else(|| {
            let intel: Vec<&str> = INTEL_PLATFORMS.iter().map(|p| p.name).collect();
            Stop::Usage(format!(
                "--platform {name}: unknown; expected one of {} or an ocloc device name",
                intel.join(", ")
            ))
        });
    }
    if let Some(p) = loaded.named {
        return Ok(p);
    }
    let code = file
        .header
        .kernel_info
        .iter()
        .flat_map(|k| k.gen_binary_info.iter())
        .map(|g| u32::from(g.gen_platform))
        .next();
    code.and_then(IntelPlatform::from_gen_platform)
        .ok_or_else(|| {
            Stop::Usage(
                "the file names no platform (no GEN binary, no `//Platform:` line); give --platform".into(),
            )
        })
}

/// Argument `i` with its input read; a written one's output file is added to `outputs`.
fn run_arg(
    i: usize,
    a: &visa::machine::launch::ArgSpec,
    outputs: &mut Vec<(usize, PathBuf)>,
) -> Result<visa::machine::launch::Arg, Stop> {
    use visa::machine::launch::{Arg, ArgSpec};
    Ok(match a {
        ArgSpec::Buffer { input, output } | ArgSpec::Constant { input, output } => {
            let constant = matches!(a, ArgSpec::Constant { .. });
            let flag = if constant { "--constant" } else { "--buffer" };
            let bytes = std::fs::read(input).map_err(|e| {
                format!("argument {i} ({flag} {input}:{output}): cannot read {input}: {e}")
            })?;
            outputs.push((i, PathBuf::from(output)));
            if constant {
                Arg::Constant(bytes)
            } else {
                Arg::Buffer(bytes)
            }
        }
        ArgSpec::Scalar(s) => Arg::Scalar(*s),
        ArgSpec::LocalMem(n) => Arg::LocalMem(*n),
        ArgSpec::Sampler(s) => Arg::Sampler(*s),
        ArgSpec::Image {
            size,
            dims,
            format,
            input,
            output,
        } => {
            let mut image = visa::machine::image::Image::packed(size[0], size[1], size[2], *format);
            image.dims = *dims;
            let bytes = std::fs::read(input)
                .map_err(|e| format!("argument {i} (--image): cannot read {input}: {e}"))?;
            if bytes.len() as u64 != image.bytes() {
                return Err(Stop::Usage(format!(
                    "argument {i} (--image): {input} has {} bytes; a {}x{}x{} {format} image has {}",
                    bytes.len(),
                    size[0],
                    size[1],
                    size[2],
                    image.bytes()
                )));
            }
            if let Some(o) = output {
                outputs.push((i, PathBuf::from(o)));
            }
            Arg::Image {
                image,
                bytes,
                written: output.is_some(),
            }
        }
    })
}

/// Runs the prepared kernel, prints its notes and `--check`'s findings and writes the written
/// memory to the output files; exit status 1 when the check found anything.
fn run_kernel(path: &Path, p: Prepared) -> Result<u8, String> {
    let mut kernel = visa::machine::Kernel::new(&p.file, &p.kernel, p.intel.platform())
        .map_err(|e| format!("{}: kernel `{}`: {e}", path.display(), p.kernel))?;
    kernel.step_limit = p.max_steps.unwrap_or(kernel.step_limit);
    kernel.check = p.check;
    let threads = p.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    if threads > 1 {
        kernel.parallel = Some(Box::new(Threads(threads)));
    }
    let out = match &p.described {
        Some(d) => {
            let ze = described_kernel(d, &p.kernel).map_err(|e| match e {
                Stop::Usage(m) | Stop::Fail(m) => m,
            })?;
            let described = visa::machine::launch::Described {
                kernel: ze,
                constants: &d.constants,
                globals: &d.globals,
            };
            visa::machine::launch::launch_described(
                &kernel, &p.file, p.k, p.intel, &p.nd, p.args, &described,
            )
        }
        None => visa::machine::launch::launch(&kernel, &p.file, p.k, p.intel, &p.nd, p.args),
    }
    .map_err(|e| format!("{}: kernel `{}`: {e}", path.display(), p.kernel))?;
    for n in &out.layout.notes {
        eprintln!("note: {n}");
    }
    if out.memory.dropped > 0 {
        eprintln!(
            "note: {} surface access(es) out of bounds read zeros or were dropped, as the docs say",
            out.memory.dropped
        );
    }
    for (param, id) in &out.buffers {
        if let Some((_, path)) = p.outputs.iter().find(|(q, _)| q == param) {
            std::fs::write(path, &out.memory.buffer(*id).bytes)
                .map_err(|e| format!("argument {param}: cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(print_findings(&kernel, &out.memory))
}

/// The host's threads for the work-groups: std's scoped threads, the last task on the calling
/// one.
struct Threads(usize);

impl visa::machine::parallel::Parallel for Threads {
    fn workers(&self) -> usize {
        self.0
    }

    fn run<'a>(&self, mut tasks: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        let last = tasks.pop();
        std::thread::scope(|s| {
            for t in tasks {
                s.spawn(t);
            }
            if let Some(t) = last {
                t();
            }
        });
    }
}

/// `--check`'s findings on stderr, then their count; 1 when there is any.
fn print_findings(kernel: &visa::machine::Kernel, memory: &visa::machine::memory::Memory) -> u8 {
    let Some(c) = memory.check.as_deref() else {
        return 0;
    };
    let total: u64 = c.findings().iter().map(|f| f.count).sum::<u64>() + c.dropped;
    for f in c.findings() {
        eprintln!("error: {}", kernel.report(f));
    }
    if c.unchecked > 0 {
        eprintln!(
            "note: {} access(es) not checked for races: more than {} bytes were accessed between two barriers",
            c.unchecked,
            visa::machine::check::MAX_SHADOW_BYTES
        );
    }
    eprintln!(
        "check: {total} finding(s) at {} instruction(s)",
        c.findings().len()
    );
    u8::from(total > 0)
}
