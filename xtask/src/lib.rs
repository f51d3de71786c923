//! The project's front door, run as `cargo xtask <command>`:
//!
//! - `regen [--spec DIR] [--out DIR] [--check]`: regenerate the `visa` crate and its docs;
//! - `schema [--spec DIR]`: print the schema of the docs as JSON (`../shared/schema-contract.md`);
//! - `diff OLD NEW [--json]`: what changed between two doc sets, for the crate's users;
//! - `bench`: run the benchmarks and write `BENCHMARKS.md`.
//!
//! Exit status: 0 success, 1 the docs have errors or generated files are stale, 2 usage error
//! (bad flags, unreadable directories).
//!
//! One module per command (`regen/`, `schema/`, `diff/`, `bench/`), each reading its inputs
//! through `input.rs`; [`run`] parses the command line and dispatches.

pub mod bench;
mod diff;
mod input;
pub mod regen;
mod schema;

pub use diff::{api_of_dir, diff_dirs};
pub use input::product_errata_dir;
pub use regen::{changes_since_last_regen, regen, regen_with_errata, scaffold, write};

use clap::{Parser, Subcommand};
use input::InputArgs;
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
        /// Errata for both sides, each of which must apply (default: the product's `errata/`
        /// where they fit each side, as regen applies them, and each spec directory's own).
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
        /// Apply no errata on the old side (the docs as published against corrected ones).
        #[arg(long, conflicts_with_all = ["errata", "old_errata", "no_errata"])]
        old_no_errata: bool,
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
        /// Run only the interpreter beside its anchors (Oclgrind, pocl) on the same OpenCL
        /// kernels and rewrite only that table of BENCHMARKS.md (ratios, outputs compared).
        #[arg(long, conflicts_with_all = ["pipeline", "machine"])]
        anchors: bool,
    },
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
        Command::Schema { input } => schema::run(input),
        Command::Regen {
            input,
            out,
            check,
            timings,
        } => regen::run(input, out, check, timings),
        Command::Diff {
            old,
            new,
            errata,
            old_errata,
            new_errata,
            no_errata,
            old_no_errata,
            config,
            json,
            deny_warnings,
        } => {
            let side = |spec: PathBuf, own: Option<PathBuf>, none: bool| InputArgs {
                spec: Some(spec),
                chapters: None,
                errata: own.or_else(|| errata.clone()),
                no_errata: none,
                config: config.clone(),
                verbose: false,
                deny_warnings,
            };
            diff::diff(
                side(old, old_errata, no_errata || old_no_errata),
                side(new, new_errata, no_errata),
                json,
            )
        }
        Command::Bench { anchors: true, .. } => bench::bench_anchors(),
        Command::Bench { machine: true, .. } => bench::bench_machine(),
        Command::Bench {
            pipeline: false, ..
        } => bench::bench(),
        Command::Bench { pipeline: true, .. } => bench::bench_pipeline(),
    };
    ExitCode::from(code)
}
