//! What every command reads: the docs, their errata, the spec directory's configuration
//! (`regen.toml`), and how diagnostics and errata are reported.

use crate::{workspace_root, EXIT_FAILURE, EXIT_USAGE};
use codegen::diag::Diagnostic;
use codegen::parse::{SourceFile, CHAPTERS_PREFIX};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What a run reads: the docs, their errata, the spec directory's configuration.
#[derive(clap::Args, Debug)]
pub(crate) struct InputArgs {
    /// Directory of opcode docs (default: spec/ of the workspace).
    #[arg(long)]
    pub(crate) spec: Option<PathBuf>,
    /// Directory of chapters (default: `chapters/` of the spec directory; a spec directory
    /// without one takes the workspace's `spec/chapters/`, the object-file chapter every
    /// instruction family shares).
    #[arg(long)]
    pub(crate) chapters: Option<PathBuf>,
    /// Directory of errata (`*.patch`) to apply to the docs (default: `errata/` of the spec
    /// directory, when it exists).
    #[arg(long, conflicts_with = "no_errata")]
    pub(crate) errata: Option<PathBuf>,
    /// Apply no errata: the docs exactly as they are.
    #[arg(long)]
    pub(crate) no_errata: bool,
    /// The spec directory's configuration (default: `regen.toml` of the spec directory, when it
    /// exists): warnings it acknowledges print as one summary line.
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// Print acknowledged warnings in full too.
    #[arg(long, short)]
    pub(crate) verbose: bool,
    /// Turn every warning `regen.toml` does not acknowledge into an error: exit 1, nothing
    /// written (a doc the generator cannot read degrades the crate only with a warning).
    #[arg(long)]
    pub(crate) deny_warnings: bool,
}

/// [`InputArgs`] read from disk.
pub(crate) struct Input {
    /// `--spec` and `--chapters` as given, for the command that reproduces the run.
    pub(crate) spec_arg: PathBuf,
    pub(crate) chapters_arg: Option<PathBuf>,
    pub(crate) no_errata: bool,
    /// The folder of instruction docs.
    pub(crate) spec: PathBuf,
    pub(crate) docs: Vec<SourceFile>,
    /// The errata directory used, if any, and its files.
    pub(crate) errata_dir: Option<PathBuf>,
    pub(crate) errata: Vec<SourceFile>,
    /// The product's errata that do not fit the docs' revision: not applied, listed.
    pub(crate) skipped: Vec<codegen::errata::Skipped>,
    pub(crate) config: codegen::config::Config,
    pub(crate) verbose: bool,
    pub(crate) deny_warnings: bool,
}

pub(crate) fn default_spec() -> PathBuf {
    workspace_root().join("spec")
}

/// Reads the docs, errata and configuration, or explains on stderr why it cannot.
pub(crate) fn load(args: InputArgs) -> Result<Input, u8> {
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
pub(crate) struct Layout {
    pub(crate) instructions: PathBuf,
    pub(crate) chapters: Option<PathBuf>,
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
pub(crate) const INTEL_CHAPTER: &str = "4_visa_header.md";

/// The product's corrections of Intel's docs: `errata/` at the top of the workspace.
pub fn product_errata_dir() -> PathBuf {
    workspace_root().join("errata")
}

/// The errata a run applies: the directory named in headers, the files, and the names of the
/// product's among them.
pub(crate) type LoadedErrata = (Option<PathBuf>, Vec<SourceFile>, BTreeSet<String>);

/// The errata a run applies: `--errata DIR` alone (each must apply), none with `--no-errata`,
/// else the product's (applied where they fit this revision, the rest skipped and listed) and
/// the spec directory's own `errata/` (each must apply). Returns the directory named in
/// headers, the files, and the names of the product's among them.
pub(crate) fn load_errata(
    args: &InputArgs,
    spec: &Path,
    own: Option<PathBuf>,
) -> Result<LoadedErrata, u8> {
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
pub(crate) fn load_docs(spec: &Path, chapters: Option<&Path>) -> Result<Vec<SourceFile>, u8> {
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
pub(crate) fn load_config(path: &Path) -> Result<codegen::config::Config, u8> {
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
pub(crate) fn errata_label(spec: &Path, dir: &Path) -> String {
    match dir.strip_prefix(spec) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().replace('\\', "/"),
        _ => dir_label(dir),
    }
}

/// Prints diagnostics: acknowledged warnings as one summary line unless `verbose`.
pub(crate) fn report(diags: Vec<Diagnostic>, input: &Input) {
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
pub(crate) fn skipped_errata(skipped: &[codegen::errata::Skipped], verbose: bool) -> String {
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
pub(crate) fn report_errata(errata: &[codegen::schema::Erratum]) {
    if errata.is_empty() {
        return;
    }
    let mut text = format!("errata applied: {}\n", errata.len());
    for e in errata {
        text.push_str(&format!("  {} -> {}: {}\n", e.file, e.doc, e.title));
    }
    eprint!("{text}");
}

/// How headers name a directory, without machine paths: relative to the workspace when inside
/// it, else by its own name. So two regens of the same docs into two places agree byte for byte.
pub(crate) fn dir_label(dir: &Path) -> String {
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
