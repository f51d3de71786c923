//! `cargo xtask regen`: regenerate the `visa` crate and its docs through the one writer
//! ([`mod@write`]), the crate kept whole around them ([`scaffold`]).

pub mod scaffold;
pub mod write;

use crate::input::{dir_label, load, report, report_errata, Input, InputArgs};
use crate::{workspace_root, EXIT_FAILURE};
use codegen::diag::Diagnostic;
use codegen::timings::Timings;
use std::path::{Path, PathBuf};

/// `cargo xtask regen`: `out` (default: the workspace's `generated/`) regenerated from `input`,
/// or checked (`check`); with `timings`, each stage's time printed on stderr.
pub(crate) fn run(input: InputArgs, out: Option<PathBuf>, check: bool, timings: bool) -> u8 {
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

/// What changed since the last regen into `out`, from the snapshot it left there, as regen
/// prints it; `None` when there is none (the first regen, or an output written before
/// snapshots).
pub fn changes_since_last_regen(out: &Path, api: &codegen::diff::view::Api) -> Option<String> {
    changes_against(out, &codegen::diff::snapshot(api, ""), &Timings::off())
}

/// [`changes_since_last_regen`] given the new snapshot's text.
pub(crate) fn changes_against(out: &Path, snapshot: &str, timings: &Timings) -> Option<String> {
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

/// The command that reproduces a regen, naming directories as [`dir_label`] does and the
/// output crate by a placeholder when it is not the workspace's `generated/`.
pub(crate) fn regen_command(input: &Input, out: &Path) -> String {
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
pub(crate) fn check_out(
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
pub(crate) fn describe_stale_runtime(runtime: &scaffold::StaleRuntime, command: &str) -> String {
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
pub(crate) fn regen_prepared(input: &Input, out: &Path, check: bool, timings: &Timings) -> u8 {
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
pub(crate) fn accept(
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
pub(crate) fn scaffold_out(
    out: &Path,
    root: &Path,
    stale: std::io::Result<scaffold::StaleRuntime>,
) -> bool {
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
