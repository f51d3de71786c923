//! The project's front door, run as `cargo xtask <command>`:
//!
//! - `regen [--spec DIR] [--out DIR] [--check]`: regenerate the `visa` crate and its docs;
//! - `schema [--spec DIR]`: print the schema of the docs as JSON (`../shared/schema-contract.md`);
//! - `bench`: run the benchmarks and write `BENCHMARKS.md`.
//!
//! Exit status: 0 success, 1 the docs have errors or generated files are stale, 2 usage error
//! (bad flags, unreadable directories).

pub mod bench;
pub mod scaffold;
pub mod write;

use clap::{Parser, Subcommand};
use codegen::diag::Diagnostic;
use codegen::parse::{SourceFile, CHAPTERS_PREFIX};
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
        /// Directory of opcode docs (default: spec/ of the workspace).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// Directory of chapters (default: chapters/ of the spec directory, when it exists).
        #[arg(long)]
        chapters: Option<PathBuf>,
    },
    /// Regenerate the crate and its docs from the opcode docs.
    Regen {
        /// Directory of opcode docs (default: spec/ of the workspace).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// Directory of chapters (default: chapters/ of the spec directory, when it exists).
        #[arg(long)]
        chapters: Option<PathBuf>,
        /// Root of the generated crate (default: generated/ of the workspace). A directory that is
        /// not a crate yet is scaffolded from the workspace's hand-written runtime first.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write nothing; exit 1 listing stale files with a diff.
        #[arg(long)]
        check: bool,
    },
    /// Run the benchmarks and write BENCHMARKS.md (takes several minutes).
    Bench,
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
        Command::Schema { spec, chapters } => {
            schema_with(&spec.unwrap_or_else(default_spec), chapters.as_deref())
        }
        Command::Regen {
            spec,
            chapters,
            out,
            check,
        } => regen_with(
            &spec.unwrap_or_else(default_spec),
            chapters.as_deref(),
            &out.unwrap_or_else(|| workspace_root().join("generated")),
            check,
        ),
        Command::Bench => bench::bench(),
    };
    ExitCode::from(code)
}

fn default_spec() -> PathBuf {
    workspace_root().join("spec")
}

/// Reads every doc of `dir` and the chapters, or explains on stderr why it cannot.
fn load(dir: &Path, chapters: Option<&Path>) -> Result<Vec<SourceFile>, u8> {
    // A spec directory without chapters (the shared instruction families) takes the
    // workspace's: the object-file chapter describes the container every family shares.
    let fallback = workspace_root().join("spec/chapters");
    let chapters = chapters.or_else(|| {
        (!dir.join("chapters").is_dir() && fallback.is_dir()).then_some(fallback.as_path())
    });
    match codegen::parse::load_spec(dir, chapters) {
        Ok(files) if files.iter().all(|f| f.name.starts_with(CHAPTERS_PREFIX)) => {
            eprintln!("error: no *.md doc in {}", dir.display());
            Err(EXIT_USAGE)
        }
        Ok(files) => Ok(files),
        Err(e) => {
            eprintln!(
                "error: cannot read spec directory {} (or its chapters {}): {e}",
                dir.display(),
                chapters
                    .map_or_else(|| dir.join("chapters"), Path::to_path_buf)
                    .display()
            );
            Err(EXIT_USAGE)
        }
    }
}

fn report(diags: &[Diagnostic], files: &[SourceFile]) {
    if !diags.is_empty() {
        eprint!("{}", codegen::diag::render(diags, files));
    }
}

/// `cargo xtask schema`: the JSON contract on stdout.
pub fn schema(dir: &Path) -> u8 {
    schema_with(dir, None)
}

/// `cargo xtask schema --chapters DIR`.
pub fn schema_with(dir: &Path, chapters: Option<&Path>) -> u8 {
    let files = match load(dir, chapters) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let parsed = codegen::parse::parse_spec(&files);
    report(&parsed.diagnostics, &files);
    let doc = serde_json::json!({
        "instructions": parsed.spec.instructions,
        "records": parsed.spec.records,
        "predefined": parsed.spec.predefined,
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

/// How headers name the spec directory: relative to the workspace when inside it.
fn spec_label(dir: &Path) -> String {
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

/// The exact command that reproduces a regen of `spec` into `out`.
fn regen_command(spec: &Path, chapters: Option<&Path>, out: &Path) -> String {
    let root = workspace_root();
    let mut cmd = String::from("cargo xtask regen");
    if spec != root.join("spec") {
        cmd.push_str(&format!(" --spec {}", spec.display()));
    }
    if let Some(c) = chapters {
        cmd.push_str(&format!(" --chapters {}", c.display()));
    }
    if out != root.join("generated") {
        cmd.push_str(&format!(" --out {}", out.display()));
    }
    cmd
}

/// `cargo xtask regen`: generate, then write (or check) through the one writer.
pub fn regen(spec: &Path, out: &Path, check: bool) -> u8 {
    regen_with(spec, None, out, check)
}

/// `cargo xtask regen --chapters DIR`.
pub fn regen_with(spec: &Path, chapters: Option<&Path>, out: &Path, check: bool) -> u8 {
    let files = match load(spec, chapters) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let opts = codegen::emit::Options {
        spec_label: spec_label(spec),
        regen_command: regen_command(spec, chapters, out),
    };
    let generated = match codegen::generate(&files, &opts) {
        Ok(g) => g,
        Err(diags) => {
            report(&diags, &files);
            eprintln!("error: the docs have errors; nothing was written");
            return EXIT_FAILURE;
        }
    };
    report(&generated.diagnostics, &files);
    if check {
        return match write::check(out, &generated.files) {
            Ok(stale) if stale.is_empty() => {
                eprintln!(
                    "generated files are fresh ({} files)",
                    generated.files.len()
                );
                0
            }
            Ok(stale) => {
                eprint!("{}", write::describe_stale(&stale, &opts.regen_command));
                EXIT_FAILURE
            }
            Err(e) => {
                eprintln!("error: {e}");
                EXIT_FAILURE
            }
        };
    }
    if let Err(e) = scaffold::ensure_crate(out, &workspace_root().join("generated")) {
        eprintln!("error: cannot scaffold {}: {e}", out.display());
        return EXIT_FAILURE;
    }
    match write::apply(out, &generated.files) {
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
