//! `cargo xtask schema`: the schema of the docs as JSON on stdout
//! (`../shared/schema-contract.md`); diagnostics on stderr.

use crate::input::{load, report, Input, InputArgs};
use crate::EXIT_FAILURE;
use codegen::diag::Diagnostic;

/// `cargo xtask schema`: the docs of `input` read, their schema printed.
pub(crate) fn run(input: InputArgs) -> u8 {
    match load(input) {
        Ok(input) => schema(&input),
        Err(code) => code,
    }
}

/// `cargo xtask schema`: the JSON contract on stdout.
pub(crate) fn schema(input: &Input) -> u8 {
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
