//! The project's front door, run as `cargo xtask <command>`:
//!
//! - `regen [--spec DIR] [--out DIR] [--check]`: regenerate the `visa` crate and its docs;
//! - `schema [--spec DIR]`: print the schema of the docs as JSON (`../shared/schema-contract.md`);
//! - `diff OLD NEW [--json]`: what changed between two doc sets, for the crate's users;
//! - `bench`: run the benchmarks and write `BENCHMARKS.md`.
//!
//! Exit status: 0 success, 1 the docs have errors or generated files are stale, 2 usage error
//! (bad flags, unreadable directories).

pub mod bench;
mod bench_interp;
mod bench_report;
pub mod scaffold;
pub mod write;

use clap::{Parser, Subcommand};
use codegen::diag::Diagnostic;
use codegen::parse::{SourceFile, CHAPTERS_PREFIX};
use codegen::timings::Timings;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status for a usage error, as clap uses for bad flags.
pub const EXIT_USAGE: u8 = 2;
/// Exit status when docs have errors or generated files are stale.
pub const EXIT_FAILURE: u8 = 1;

#[derive(Parser, Debug)]
#[command(name = "cargo xtask", about = "vISA code generator tasks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the schema of the docs as JSON on stdout; diagnostics go to stderr.
    Schema {
        #[command(flatten)]
        input: InputArgs,
    },
    /// Regenerate the crate and its docs from the opcode docs.
    Regen {
        #[command(flatten)]
        input: InputArgs,
        /// Root of the generated crate (default: generated/ of the workspace). A directory that is
        /// not a crate yet is scaffolded from the workspace's hand-written runtime first.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write nothing; exit 1 listing stale files with a diff.
        #[arg(long)]
        check: bool,
        /// Print on stderr how long each stage took (parse, analyze, each emitter's token
        /// building, syn parsing and formatting, templates, writing) and the slowest files.
        #[arg(long)]
        timings: bool,
    },
    /// Say what changed between two doc sets for the generated crate's users (writes nothing).
    Diff {
        /// The old spec directory.
        old: PathBuf,
        /// The new spec directory.
        new: PathBuf,
        /// Errata for both sides (default: each spec directory's own `errata/`).
        #[arg(long)]
        errata: Option<PathBuf>,
        /// Errata for the old side only.
        #[arg(long, conflicts_with = "errata")]
        old_errata: Option<PathBuf>,
        /// Errata for the new side only.
        #[arg(long, conflicts_with = "errata")]
        new_errata: Option<PathBuf>,
        /// Apply no errata on either side.
        #[arg(long, conflicts_with_all = ["errata", "old_errata", "new_errata"])]
        no_errata: bool,
        /// The configuration of both sides, with the names it pins (default: each spec
        /// directory's own `regen.toml`).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Print `{"breaking": bool, "changes": [{"doc", "what", "breaking", "kind"}]}`.
        #[arg(long)]
        json: bool,
        /// Turn every warning of either doc set into an error.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Run the benchmarks and write BENCHMARKS.md (takes several minutes).
    Bench {
        /// Run only the generator benches and rewrite only their rows of BENCHMARKS.md.
        #[arg(long)]
        pipeline: bool,
        /// Run only the interpreter's bench (`machine`, on the full-family crate) and rewrite
        /// only its row of BENCHMARKS.md.
        #[arg(long, conflicts_with = "pipeline")]
        machine: bool,
    },
}

/// What a run reads: the docs, their errata, the spec directory's configuration.
#[derive(clap::Args, Debug)]
struct InputArgs {
    /// Directory of opcode docs (default: spec/ of the workspace).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Directory of chapters (default: `chapters/` of the spec directory; a spec directory
    /// without one takes the workspace's `spec/chapters/`, the object-file chapter every
    /// instruction family shares).
    #[arg(long)]
    chapters: Option<PathBuf>,
    /// Directory of errata (`*.patch`) to apply to the docs (default: `errata/` of the spec
    /// directory, when it exists).
    #[arg(long, conflicts_with = "no_errata")]
    errata: Option<PathBuf>,
    /// Apply no errata: the docs exactly as they are.
    #[arg(long)]
    no_errata: bool,
    /// The spec directory's configuration (default: `regen.toml` of the spec directory, when it
    /// exists): warnings it acknowledges print as one summary line.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Print acknowledged warnings in full too.
    #[arg(long, short)]
    verbose: bool,
    /// Turn every warning `regen.toml` does not acknowledge into an error: exit 1, nothing
    /// written (a doc the generator cannot read degrades the crate only with a warning).
    #[arg(long)]
    deny_warnings: bool,
}

/// [`InputArgs`] read from disk.
struct Input {
    /// `--spec` and `--chapters` as given, for the command that reproduces the run.
    spec_arg: PathBuf,
    chapters_arg: Option<PathBuf>,
    no_errata: bool,
    /// The folder of instruction docs.
    spec: PathBuf,
    docs: Vec<SourceFile>,
    /// The errata directory used, if any, and its files.
    errata_dir: Option<PathBuf>,
    errata: Vec<SourceFile>,
    /// The product's errata that do not fit the docs' revision: not applied, listed.
    skipped: Vec<codegen::errata::Skipped>,
    config: codegen::config::Config,
    verbose: bool,
    deny_warnings: bool,
}

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// Runs the CLI on `args` (including the program name) and returns the exit status.
pub fn run<I: IntoIterator<Item = OsString>>(args: I) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` are not errors.
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Schema { input } => match load(input) {
            Ok(input) => schema(&input),
            Err(code) => code,
        },
        Command::Regen {
            input,
            out,
            check,
            timings,
        } => {
            let t = match timings {
                true => Timings::new(),
                false => Timings::off(),
            };
            let (start, cpu) = (std::time::Instant::now(), codegen::timings::process_cpu());
            let out = out.unwrap_or_else(|| workspace_root().join("generated"));
            let code = match t.time("load inputs", || load(input)) {
                Ok(input) => regen_prepared(&input, &out, check, &t),
                Err(code) => code,
            };
            if timings {
                t.record(
                    "regen (wall; cpu of all threads)",
                    String::new(),
                    start.elapsed(),
                    codegen::timings::process_cpu().saturating_sub(cpu),
                );
                let records = t.into_records();
                eprint!("{}", codegen::timings::report(&records, 8));
                if std::env::var_os("VISA_TIMINGS_WATERFALL").is_some() {
                    eprint!("{}", codegen::timings::waterfall(&records));
                }
            }
            code
        }
        Command::Diff {
            old,
            new,
            errata,
            old_errata,
            new_errata,
            no_errata,
            config,
            json,
            deny_warnings,
        } => {
            let side = |spec: PathBuf, own: Option<PathBuf>| InputArgs {
                spec: Some(spec),
                chapters: None,
                errata: own.or_else(|| errata.clone()),
                no_errata,
                config: config.clone(),
                verbose: false,
                deny_warnings,
            };
            diff(side(old, old_errata), side(new, new_errata), json)
        }
        Command::Bench { machine: true, .. } => bench::bench_machine(),
        Command::Bench {
            pipeline: false, ..
        } => bench::bench(),
        Command::Bench { pipeline: true, .. } => bench::bench_pipeline(),
    };
    ExitCode::from(code)
}

fn default_spec() -> PathBuf {
    workspace_root().join("spec")
}

/// Reads the docs, errata and configuration, or explains on stderr why it cannot.
fn load(args: InputArgs) -> Result<Input, u8> {
    let spec_arg = args.spec.clone().unwrap_or_else(default_spec);
    let layout = Layout::of(spec_arg.clone());
    let spec = layout.instructions;
    let chapters = args.chapters.clone().or(layout.chapters);
    let docs = load_docs(&spec, chapters.as_deref())?;
    let own = Some(spec.join("errata")).filter(|d| d.is_dir());
    let (errata_dir, errata, product) = load_errata(&args, &spec, own)?;
    let (product_files, mut errata): (Vec<SourceFile>, Vec<SourceFile>) =
        errata.into_iter().partition(|f| product.contains(&f.name));
    let (fit, skipped) = codegen::errata::fitting(&docs, &errata, &product_files);
    errata.extend(fit);
    errata.sort_by(|a, b| a.name.cmp(&b.name));
    // The doc set's own configuration (`--config`, or its `regen.toml`); else, with the
    // product's errata, the product's (acknowledged glitches and pinned names of Intel's docs,
    // which publish none).
    let product_config = Some(product_errata_dir().join("regen.toml"))
        .filter(|p| !product.is_empty() && p.is_file());
    let config = match args
        .config
        .clone()
        .or_else(|| Some(spec.join("regen.toml")).filter(|p| p.is_file()))
        .or(product_config)
    {
        None => codegen::config::Config::default(),
        Some(path) => load_config(&path)?,
    };
    Ok(Input {
        spec_arg,
        chapters_arg: args.chapters.clone(),
        no_errata: args.no_errata,
        spec,
        docs,
        errata_dir,
        errata,
        skipped,
        config,
        verbose: args.verbose,
        deny_warnings: args.deny_warnings,
    })
}

/// Where a `--spec DIR` keeps its instruction docs and its chapters.
struct Layout {
    instructions: PathBuf,
    chapters: Option<PathBuf>,
}

impl Layout {
    /// Intel's layout (the chapters beside `instructions/`, given either folder), or a folder
    /// of docs with its own `chapters/`; any other folder takes the workspace's `spec/chapters`,
    /// the object-file chapter every instruction family shares.
    fn of(dir: PathBuf) -> Layout {
        let is_chapters = |d: &Path| d.join(INTEL_CHAPTER).is_file();
        if dir.join("instructions").is_dir() && is_chapters(&dir) {
            return Layout {
                instructions: dir.join("instructions"),
                chapters: Some(dir),
            };
        }
        let beside = dir
            .parent()
            .filter(|p| dir.file_name().is_some_and(|n| n == "instructions") && is_chapters(p))
            .map(Path::to_path_buf);
        let chapters = if dir.join("chapters").is_dir() {
            None
        } else {
            beside.or_else(|| Some(workspace_root().join("spec/chapters")).filter(|d| d.is_dir()))
        };
        Layout {
            instructions: dir,
            chapters,
        }
    }
}

/// The chapter that marks a folder of Intel's chapters (the object file's pseudo-structures).
const INTEL_CHAPTER: &str = "4_visa_header.md";

/// The product's corrections of Intel's docs: `errata/` at the top of the workspace.
pub fn product_errata_dir() -> PathBuf {
    workspace_root().join("errata")
}

/// The errata a run applies: the directory named in headers, the files, and the names of the
/// product's among them.
type LoadedErrata = (Option<PathBuf>, Vec<SourceFile>, BTreeSet<String>);

/// The errata a run applies: `--errata DIR` alone (each must apply), none with `--no-errata`,
/// else the product's (applied where they fit this revision, the rest skipped and listed) and
/// the spec directory's own `errata/` (each must apply). Returns the directory named in
/// headers, the files, and the names of the product's among them.
fn load_errata(args: &InputArgs, spec: &Path, own: Option<PathBuf>) -> Result<LoadedErrata, u8> {
    let read = |dir: &Path, label: &str| {
        codegen::errata::load_dir(dir, label).map_err(|e| {
            eprintln!("error: cannot read errata directory {}: {e}", dir.display());
            EXIT_USAGE
        })
    };
    if args.no_errata {
        return Ok((None, Vec::new(), BTreeSet::new()));
    }
    if let Some(dir) = &args.errata {
        let files = read(dir, &errata_label(spec, dir))?;
        return Ok((Some(dir.clone()), files, BTreeSet::new()));
    }
    let product_dir = product_errata_dir();
    let mut files = if product_dir.is_dir() {
        read(&product_dir, "errata")?
    } else {
        Vec::new()
    };
    let product: BTreeSet<String> = files.iter().map(|f| f.name.clone()).collect();
    if let Some(dir) = &own {
        for f in read(dir, &errata_label(spec, dir))? {
            if product.contains(&f.name) {
                eprintln!(
                    "error: {} corrects what the product's {} does: one erratum, one place",
                    dir.join(f.name.trim_start_matches("errata/")).display(),
                    f.name
                );
                return Err(EXIT_USAGE);
            }
            files.push(f);
        }
        files.sort_by(|a, b| a.name.cmp(&b.name));
    }
    Ok((own, files, product))
}

/// The docs of `spec` and the chapters; a directory without docs is a usage error.
fn load_docs(spec: &Path, chapters: Option<&Path>) -> Result<Vec<SourceFile>, u8> {
    match codegen::parse::load_spec(spec, chapters) {
        Ok(files) if files.iter().all(|f| f.name.starts_with(CHAPTERS_PREFIX)) => {
            eprintln!("error: no *.md doc in {}", spec.display());
            Err(EXIT_USAGE)
        }
        Ok(files) => Ok(files),
        Err(e) => {
            eprintln!(
                "error: cannot read spec directory {} (or its chapters): {e}",
                spec.display()
            );
            Err(EXIT_USAGE)
        }
    }
}

/// Reads and parses a `regen.toml`; what is wrong with it is printed as a diagnostic.
fn load_config(path: &Path) -> Result<codegen::config::Config, u8> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Err(EXIT_USAGE);
        }
    };
    let name = "regen.toml".to_string();
    codegen::config::Config::parse(&name, &text).map_err(|d| {
        let file = SourceFile {
            name,
            bytes: text.into_bytes(),
        };
        eprint!("{}", codegen::diag::render(&[*d], &[file]));
        EXIT_FAILURE
    })
}

/// How diagnostics name an errata directory: `errata` inside the spec directory, else as
/// headers name directories.
fn errata_label(spec: &Path, dir: &Path) -> String {
    match dir.strip_prefix(spec) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().replace('\\', "/"),
        _ => dir_label(dir),
    }
}

/// Prints diagnostics: acknowledged warnings as one summary line unless `verbose`.
fn report(diags: Vec<Diagnostic>, input: &Input) {
    let part = input.config.partition(diags);
    let mut shown = part.shown.clone();
    if input.verbose {
        shown.extend(part.acknowledged.iter().cloned());
    }
    let mut text = String::new();
    if !shown.is_empty() {
        let files: Vec<SourceFile> = input.docs.iter().chain(&input.errata).cloned().collect();
        text.push_str(&codegen::diag::render(&shown, &files));
    }
    if !input.verbose {
        if let Some(line) = part.summary() {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text.push_str(&skipped_errata(&input.skipped, input.verbose));
    eprint!("{text}");
}

/// The product's errata that do not fit the docs' revision: a note, never an error; one line
/// unless `verbose`, then one per erratum with why.
fn skipped_errata(skipped: &[codegen::errata::Skipped], verbose: bool) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "note: {} of the product's errata skipped: they correct docs this doc set lacks, or another revision of its docs{}\n",
        skipped.len(),
        if verbose { ":" } else { " (--verbose lists them)" }
    );
    if verbose {
        for s in skipped {
            text.push_str(&format!("  {}: {}\n", s.erratum, s.why));
        }
    }
    text
}

/// One line per erratum applied, so a regen always says which docs it corrected.
fn report_errata(errata: &[codegen::schema::Erratum]) {
    if errata.is_empty() {
        return;
    }
    let mut text = format!("errata applied: {}\n", errata.len());
    for e in errata {
        text.push_str(&format!("  {} -> {}: {}\n", e.file, e.doc, e.title));
    }
    eprint!("{text}");
}

/// `cargo xtask schema`: the JSON contract on stdout.
fn schema(input: &Input) -> u8 {
    let mut parsed = codegen::parse_corrected(&input.docs, &input.errata);
    if input.deny_warnings {
        codegen::config::deny_warnings(&mut parsed.diagnostics, &input.config);
    }
    report(parsed.diagnostics.clone(), input);
    let doc = serde_json::json!({
        "instructions": parsed.spec.instructions,
        "left_out": parsed.spec.left_out,
        "records": parsed.spec.records,
        "predefined": parsed.spec.predefined,
        "errata": parsed.spec.errata,
        "diagnostics": parsed.diagnostics,
    });
    match serde_json::to_string_pretty(&doc) {
        Ok(text) => println!("{text}"),
        Err(e) => {
            eprintln!("error: cannot serialise the schema: {e}");
            return EXIT_FAILURE;
        }
    }
    if parsed.diagnostics.iter().any(Diagnostic::is_error) {
        EXIT_FAILURE
    } else {
        0
    }
}

/// The view of one side of a diff, or its exit status after printing why not.
fn api_side(args: InputArgs) -> Result<codegen::diff::view::Api, u8> {
    let input = load(args)?;
    let pins = codegen::analyze::naming::Pins::new(&input.config.pins());
    match codegen::api_of_pinned(&input.docs, &input.errata, &pins) {
        Ok((api, mut diags)) => {
            if input.deny_warnings {
                codegen::config::deny_warnings(&mut diags, &input.config);
            }
            let failed = diags.iter().any(Diagnostic::is_error);
            report(diags, &input);
            if failed {
                eprintln!(
                    "error: warnings in {} are errors (--deny-warnings)",
                    input.spec.display()
                );
                return Err(EXIT_FAILURE);
            }
            Ok(api)
        }
        Err(diags) => {
            report(diags, &input);
            eprintln!("error: the docs of {} have errors", input.spec.display());
            Err(EXIT_FAILURE)
        }
    }
}

/// `cargo xtask diff OLD NEW`: the report on stdout (human or JSON).
fn diff(old: InputArgs, new: InputArgs, json: bool) -> u8 {
    let old = match api_side(old) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let new = match api_side(new) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let report = codegen::diff::compare(&old, &new);
    if json {
        println!("{}", report.json());
    } else {
        print!("{}", report.human());
    }
    0
}

/// What changed since the last regen into `out`, from the snapshot it left there, as regen
/// prints it; `None` when there is none (the first regen, or an output written before
/// snapshots).
pub fn changes_since_last_regen(out: &Path, api: &codegen::diff::view::Api) -> Option<String> {
    changes_against(out, &codegen::diff::snapshot(api, ""), &Timings::off())
}

/// [`changes_since_last_regen`] given the new snapshot's text.
fn changes_against(out: &Path, snapshot: &str, timings: &Timings) -> Option<String> {
    let text = timings
        .time("changes: read the last snapshot", || {
            std::fs::read_to_string(out.join(codegen::diff::SNAPSHOT))
        })
        .ok()?;
    let report = timings.time("changes: compare", || {
        codegen::diff::compare_snapshots(&text, snapshot)
    });
    let Some(report) = report else {
        return Some(format!(
            "note: {} is not a snapshot this generator reads (edited, or of an older generator); no summary of what changed\n",
            codegen::diff::SNAPSHOT
        ));
    };
    Some(format!(
        "what changed since the last regen: {}",
        report.human()
    ))
}

/// `cargo xtask diff OLD NEW` (each side with its own errata directory when it has one), for
/// callers in Rust.
pub fn diff_dirs(old: &Path, new: &Path) -> Result<codegen::diff::Report, u8> {
    Ok(codegen::diff::compare(&api_of_dir(old)?, &api_of_dir(new)?))
}

/// The view of the crate regen would generate from `spec` (read as regen reads it: chapters,
/// errata and `regen.toml` of the spec directory), or the exit status after printing why not.
pub fn api_of_dir(spec: &Path) -> Result<codegen::diff::view::Api, u8> {
    let args = InputArgs {
        spec: Some(spec.to_path_buf()),
        chapters: None,
        errata: None,
        no_errata: false,
        config: None,
        verbose: false,
        deny_warnings: false,
    };
    api_side(args)
}

/// How headers name a directory, without machine paths: relative to the workspace when inside
/// it, else by its own name. So two regens of the same docs into two places agree byte for byte.
fn dir_label(dir: &Path) -> String {
    let root = workspace_root();
    let abs = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let root = root.canonicalize().unwrap_or(root);
    match abs.strip_prefix(&root) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => abs
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "spec".into()),
    }
}

/// The command that reproduces a regen, naming directories as [`dir_label`] does and the
/// output crate by a placeholder when it is not the workspace's `generated/`.
fn regen_command(input: &Input, out: &Path) -> String {
    let root = workspace_root();
    let mut cmd = String::from("cargo xtask regen");
    if input.spec_arg != root.join("spec") {
        cmd.push_str(&format!(" --spec {}", dir_label(&input.spec_arg)));
    }
    if let Some(dir) = &input.chapters_arg {
        cmd.push_str(&format!(" --chapters {}", dir_label(dir)));
    }
    match &input.errata_dir {
        Some(dir) if *dir != input.spec.join("errata") => {
            cmd.push_str(&format!(" --errata {}", dir_label(dir)));
        }
        _ if input.no_errata => cmd.push_str(" --no-errata"),
        _ => {}
    }
    if out != root.join("generated") {
        cmd.push_str(" --out <this crate>");
    }
    cmd
}

/// `cargo xtask regen --spec SPEC --out OUT [--check]` (errata and `regen.toml` of SPEC
/// applied when present), for callers in Rust.
pub fn regen(spec: &Path, out: &Path, check: bool) -> u8 {
    regen_with_errata(spec, None, out, check)
}

/// [`regen`] with the errata of `errata` (`--errata DIR`) rather than the spec dir's own.
pub fn regen_with_errata(spec: &Path, errata: Option<&Path>, out: &Path, check: bool) -> u8 {
    let args = InputArgs {
        spec: Some(spec.to_path_buf()),
        chapters: None,
        errata: errata.map(Path::to_path_buf),
        no_errata: false,
        config: None,
        verbose: false,
        deny_warnings: false,
    };
    match load(args) {
        Ok(input) => regen_prepared(&input, out, check, &Timings::off()),
        Err(code) => code,
    }
}

/// `--check`: the generated files and the hand-written runtime of `out` are current.
fn check_out(
    out: &Path,
    files: &std::collections::BTreeMap<String, String>,
    command: &str,
    runtime: std::io::Result<scaffold::StaleRuntime>,
) -> u8 {
    let runtime = match runtime {
        Ok(stale) => stale,
        Err(e) => {
            eprintln!("error: cannot read the runtime of {}: {e}", out.display());
            return EXIT_FAILURE;
        }
    };
    let generated = match write::plan(out, files) {
        Ok(plan) => plan.changes,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_FAILURE;
        }
    };
    if generated.is_empty() && runtime.is_empty() {
        eprintln!("generated files are fresh ({} files)", files.len());
        return 0;
    }
    if !generated.is_empty() {
        eprint!("{}", write::describe_stale(&generated, command));
    }
    if !runtime.is_empty() {
        eprint!("{}", describe_stale_runtime(&runtime, command));
    }
    EXIT_FAILURE
}

/// What `--check` says of a stale runtime: each file, and what a regen does with it.
fn describe_stale_runtime(runtime: &scaffold::StaleRuntime, command: &str) -> String {
    let mut text = format!(
        "error: the crate's runtime/ is not the workspace's runtime/ ({} file(s) to write, {} to remove):\n",
        runtime.differ.len(),
        runtime.extra.len()
    );
    for rel in &runtime.differ {
        text.push_str(&format!("  stale runtime: {rel}\n"));
    }
    for rel in &runtime.extra {
        text.push_str(&format!(
            "  stale runtime: {rel} (not in the workspace's: removed)\n"
        ));
    }
    text.push_str(&format!("run `{command}` to refresh it\n"));
    text
}

/// `cargo xtask regen`: generate, then write (or check) through the one writer; each stage
/// timed in `timings`.
fn regen_prepared(input: &Input, out: &Path, check: bool, timings: &Timings) -> u8 {
    let opts = codegen::emit::Options {
        spec_label: dir_label(&input.spec),
        regen_command: regen_command(input, out),
    };
    let root = workspace_root();
    let stale = timings.time("scaffold: stale runtime", || {
        scaffold::stale_runtime(out, &root)
    });
    let generated = timings.time("generate (wall)", || {
        let pins = codegen::analyze::naming::Pins::new(&input.config.pins());
        codegen::generate_timed(&input.docs, &input.errata, &pins, &opts, timings)
    });
    let Some(generated) = timings.time("report diagnostics", || accept(generated, input)) else {
        return EXIT_FAILURE;
    };
    if check {
        return check_out(out, &generated.files, &opts.regen_command, stale);
    }
    let summary = timings.time("changes since the last regen", || {
        changes_against(out, &generated.files[codegen::diff::SNAPSHOT], timings)
    });
    if let Some(summary) = summary {
        eprint!("{summary}");
    }
    if !timings.time("scaffold", || scaffold_out(out, &root, stale)) {
        return EXIT_FAILURE;
    }
    let written = timings.time("write", || write::apply(out, &generated.files));
    match written {
        Ok(summary) => {
            eprintln!(
                "regen: {} written, {} unchanged, {} removed",
                summary.written.len(),
                summary.unchanged,
                summary.removed.len()
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}\nnothing was written");
            EXIT_FAILURE
        }
    }
}

/// The generated crate when the docs allow it (no errors, and no unacknowledged warning under
/// `--deny-warnings`), with its diagnostics and errata reported; else `None`, said why.
fn accept(
    generated: Result<codegen::Generated, Vec<Diagnostic>>,
    input: &Input,
) -> Option<codegen::Generated> {
    let generated = match generated {
        Ok(mut g) if input.deny_warnings => {
            match codegen::config::deny_warnings(&mut g.diagnostics, &input.config) {
                0 => Ok(g),
                _ => Err(g.diagnostics),
            }
        }
        other => other,
    };
    match generated {
        Ok(g) => {
            report(g.diagnostics.clone(), input);
            report_errata(&g.errata);
            Some(g)
        }
        Err(diags) if input.deny_warnings => {
            report(diags, input);
            eprintln!(
                "error: --deny-warnings: the docs have warnings or errors; nothing was written"
            );
            None
        }
        Err(diags) => {
            report(diags, input);
            eprintln!("error: the docs have errors; nothing was written");
            None
        }
    }
}

/// Makes `out` a crate and its `runtime/` the workspace's (`scaffold`), saying what changed;
/// `false` (said why) when it cannot.
fn scaffold_out(out: &Path, root: &Path, stale: std::io::Result<scaffold::StaleRuntime>) -> bool {
    let scaffolded = (|| {
        let stale = stale?;
        scaffold::ensure_crate(out, root)?;
        scaffold::refresh(out, root, &stale)?;
        Ok::<_, std::io::Error>(stale)
    })();
    match scaffolded {
        Ok(stale) => {
            if !stale.is_empty() {
                eprintln!(
                    "regen: runtime/ made the workspace's: {} file(s) written, {} removed",
                    stale.differ.len(),
                    stale.extra.len()
                );
            }
            true
        }
        Err(e) => {
            eprintln!("error: cannot scaffold {}: {e}", out.display());
            false
        }
    }
}
