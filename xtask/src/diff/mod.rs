//! `cargo xtask diff OLD NEW`: what changed between two doc sets for the generated crate's
//! users (writes nothing).

use crate::input::{load, report, InputArgs};
use crate::EXIT_FAILURE;
use codegen::diag::Diagnostic;
use std::path::Path;

/// The view of one side of a diff, or its exit status after printing why not.
pub(crate) fn api_side(args: InputArgs) -> Result<codegen::diff::view::Api, u8> {
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
pub(crate) fn diff(old: InputArgs, new: InputArgs, json: bool) -> u8 {
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
