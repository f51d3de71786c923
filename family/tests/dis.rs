//! `visa dis` against Intel: for every `.isa` of `../shared/real-kernels/dg2`, the text of each
//! kernel and function (`visa::object::text`) is compared byte for byte with the text Intel's
//! compiler printed beside it (`NAME.visaasm`, `NAME.func.F.visaasm`), line by line, each line
//! classified by kind.
//!
//! What is asserted:
//! - every line that is not an instruction (header, predefined comments, `.decl`, `.input`,
//!   `.kernel_attr`, `.function`, labels, blank lines) is exact: no kind is excused;
//! - an instruction line that prints is exact (wrong text is worse than none);
//! - an instruction that does not print is a failure once the instruction printer exists,
//!   unless its opcode is in [`UNPRINTED`] with the reason. While the printer is the temporary
//!   shim (no instruction prints at all), unprinted lines are only counted.
//!
//! It prints the totals: lines exact / total per kind, files identical / total.

#![cfg(not(family_absent))]

use std::collections::BTreeMap;
use visa::object::text::{print_function, print_kernel, Printed};
use visa::object::File;

mod support;
use support::shared;

/// Opcodes whose instructions may stay unprinted once the printer exists: (mnemonic as
/// `Instruction::name`, why). Empty: every instruction of the corpus must print.
const UNPRINTED: &[(&str, &str)] = &[];

/// What our printer writes for an instruction it cannot print (see `object/text/body.rs`).
const NOT_PRINTED: &str = "    // cannot print: ";

/// The kind of one line of Intel's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Version,
    RoutineName,
    PredefinedComment,
    Decl,
    Input,
    KernelAttr,
    Function,
    Label,
    Blank,
    Instruction,
    Other,
}

fn kind(line: &str) -> Kind {
    if line.trim().is_empty() {
        Kind::Blank
    } else if line.starts_with(".version ") {
        Kind::Version
    } else if line.starts_with(".kernel ")
        || line.starts_with(".global_function ")
        || line.starts_with(".funcdecl ")
    {
        Kind::RoutineName
    } else if line.starts_with("// .decl ") || line == "/// VISA Predefined Variables" {
        Kind::PredefinedComment
    } else if line.starts_with(".decl ") {
        Kind::Decl
    } else if line.starts_with(".input ") {
        Kind::Input
    } else if line.starts_with(".kernel_attr ") {
        Kind::KernelAttr
    } else if line.starts_with(".function ") {
        Kind::Function
    } else if line.starts_with("    ") {
        Kind::Instruction
    } else if line.ends_with(':') && !line.contains(' ') {
        Kind::Label
    } else {
        Kind::Other
    }
}

/// Counts and differences over the corpus. A line's kind is that of Intel's line: the header's
/// last line carries the first `.function`'s indentation (`.kernel_attr SimdSize=8    `) and
/// is still an attribute.
#[derive(Default)]
struct Totals {
    /// kind -> (exact, total)
    lines: BTreeMap<Kind, (usize, usize)>,
    texts: usize,
    identical_texts: usize,
    /// Instruction lines our printer could not print, by mnemonic (from the `cannot print`
    /// message).
    unprinted: BTreeMap<String, usize>,
    printed_instructions: usize,
    /// Every differing line: (text, line, kind, ours, Intel's).
    differences: Vec<(String, usize, Kind, String, String)>,
}

/// `OR` of `    // cannot print: OR: ...`.
fn unprinted_mnemonic(line: &str) -> Option<String> {
    let rest = line.strip_prefix(NOT_PRINTED)?;
    Some(rest.split(':').next().unwrap_or("?").to_string())
}

fn compare(name: &str, ours: &Printed, intel: &str, t: &mut Totals) {
    t.texts += 1;
    if ours.text == intel {
        t.identical_texts += 1;
    }
    // Lines keep their newline, so a missing final newline is a difference too.
    let a: Vec<&str> = ours.text.split_inclusive('\n').collect();
    let b: Vec<&str> = intel.split_inclusive('\n').collect();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied(), b.get(i).copied());
        let k = kind(y.or(x).unwrap_or("").trim_end_matches('\n'));
        let entry = t.lines.entry(k).or_default();
        entry.1 += 1;
        if let Some(m) = x.and_then(unprinted_mnemonic) {
            *t.unprinted.entry(m).or_default() += 1;
            continue;
        }
        if x.is_some_and(|x| kind(x.trim_end_matches('\n')) == Kind::Instruction) {
            t.printed_instructions += 1;
        }
        if x == y {
            entry.0 += 1;
        } else {
            t.differences.push((
                name.to_string(),
                i + 1,
                k,
                x.unwrap_or("<no line>").to_string(),
                y.unwrap_or("<no line>").to_string(),
            ));
        }
    }
}

#[test]
fn every_dg2_routine_prints_as_intel_printed_it() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("real-kernels/dg2");
    let isas = support::dg2_isa_files(&shared);
    let mut t = Totals::default();
    let mut missing = Vec::new();
    for path in &isas {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let file = File::parse(&std::fs::read(path).unwrap()).expect("every dg2 file reads");
        let mut routines: Vec<(String, Printed)> = Vec::new();
        for i in 0..file.kernels.len() {
            routines.push((format!("{stem}.visaasm"), print_kernel(&file, i).unwrap()));
        }
        for (i, info) in file.header.function_info.iter().enumerate() {
            let f = String::from_utf8_lossy(&info.name);
            routines.push((
                format!("{stem}.func.{f}.visaasm"),
                print_function(&file, i).unwrap(),
            ));
        }
        for (name, printed) in routines {
            match std::fs::read_to_string(dir.join(&name)) {
                Ok(intel) => compare(&name, &printed, &intel, &mut t),
                Err(e) => missing.push(format!("{name}: {e}")),
            }
        }
    }

    let landed = t.printed_instructions > 0;
    println!(
        "{} / {} texts byte-identical ({} .isa files)",
        t.identical_texts,
        t.texts,
        isas.len()
    );
    let (mut exact, mut total) = (0, 0);
    for (k, (e, n)) in &t.lines {
        println!("{k:?}: {e} / {n} lines exact");
        exact += e;
        total += n;
    }
    println!("all lines: {exact} / {total} exact");
    let unprinted: usize = t.unprinted.values().sum();
    println!(
        "instruction lines not printed: {unprinted} ({}); instruction printer {}",
        t.unprinted
            .iter()
            .map(|(m, n)| format!("{m} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        if landed {
            "present"
        } else {
            "absent (temporary shim): instruction lines only counted"
        }
    );
    for (file, line, k, ours, intel) in &t.differences {
        println!("{file}:{line} [{k:?}]\n  ours:  {ours:?}\n  intel: {intel:?}");
    }

    assert!(
        missing.is_empty(),
        "texts missing beside the .isa files: {missing:?}"
    );
    assert_eq!(isas.len(), 58, "the corpus has 58 .isa files");
    assert_eq!(t.texts, 59, "58 kernels and one function");
    let wrong_headers: Vec<_> = t
        .differences
        .iter()
        .filter(|d| d.2 != Kind::Instruction)
        .collect();
    assert!(
        wrong_headers.is_empty(),
        "{} non-instruction line(s) differ from Intel's (listed above)",
        wrong_headers.len()
    );
    let wrong_instructions = t.differences.len() - wrong_headers.len();
    assert_eq!(
        wrong_instructions, 0,
        "instruction lines printed differently from Intel's (listed above)"
    );
    if landed {
        let excused: Vec<&str> = UNPRINTED.iter().map(|u| u.0).collect();
        let bad: Vec<_> = t
            .unprinted
            .keys()
            .filter(|m| !excused.contains(&m.as_str()))
            .collect();
        assert!(bad.is_empty(), "instructions that do not print: {bad:?}");
    }
}
