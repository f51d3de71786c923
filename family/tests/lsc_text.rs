//! LSC_UNTYPED's text in the crate of the current family: every `lsc_` line of Intel's print of
//! our OpenCL kernels (`tests/ocl/fixtures/<device>/*.visaasm`) parses into an instruction that
//! prints as Intel's line again, and real LSC instructions with bytes changed at random print
//! and parse back to themselves whenever they print (the generated print→parse property on
//! LSC, whose arbitrary instructions almost never print: the text fixes most fields).

#![cfg(not(family_absent))]

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use visa::asm::{assemble, Options, Source};
use visa::object::Routine;
use visa::runtime::text::{split_line, Line, NameTable};
use visa::Instruction;

fn must_have(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}; CI is set: it must be present"
    );
    println!("skipped: {what}");
}

fn fixtures() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let found = candidates
        .into_iter()
        .map(|d| d.join("tests/ocl/fixtures"))
        .find(|d| d.is_dir());
    if found.is_none() {
        must_have("tests/ocl/fixtures not found (set VISA_REPO to the repository)");
    }
    found
}

fn names_of(r: &dyn Routine) -> NameTable {
    let mut t = NameTable::new();
    for (index, info) in r.var_info().iter().enumerate() {
        let name = String::from_utf8_lossy(r.string(info.name_index).unwrap_or_default());
        t.declare_general(32 + index as u32, name.into_owned());
    }
    t
}

/// Every LSC line of the kernel texts without functions: (file, Intel's line, names, the
/// instruction our assembler made of it).
fn lsc_lines(fixtures: &Path) -> Vec<(String, String, NameTable, Instruction)> {
    let mut out = Vec::new();
    for device in ["tgllp", "acm-g10", "pvc"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures.join(device))
            .unwrap()
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| {
                p.extension().is_some_and(|e| e == "visaasm")
                    && !p.to_string_lossy().contains(".func.")
            })
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            if !text.contains("lsc_") {
                continue;
            }
            let name = p.display().to_string();
            // Declarations only: the lines are parsed one by one below.
            let file = assemble(
                &[Source {
                    name: &name,
                    text: &text,
                }],
                Options {
                    instructions: false,
                },
            )
            .unwrap_or_else(|d| panic!("{name}: {} error(s)", d.len()));
            let names = names_of(&file.kernels[0].data);
            for line in text.lines() {
                if let Ok(Line::Instruction { body, .. }) = split_line(line) {
                    if body.split(' ').any(|w| w.starts_with("lsc_")) {
                        let inst = visa::parse_instruction(body, &names)
                            .unwrap_or_else(|e| panic!("{name}: `{body}`: {e}"));
                        out.push((name.clone(), body.to_string(), names.clone(), inst));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn intels_lsc_lines_parse_and_print_back() {
    let Some(fixtures) = fixtures() else { return };
    let lines = lsc_lines(&fixtures);
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for (file, line, names, inst) in &lines {
        let mut ours = String::new();
        inst.print_text(names, &mut ours)
            .unwrap_or_else(|e| panic!("{file}: `{line}`: {e}"));
        assert_eq!(&ours, line, "{file}");
        *kinds
            .entry(
                line.split(['.', ' '])
                    .find(|w| w.starts_with("lsc_"))
                    .unwrap()
                    .to_string(),
            )
            .or_default() += 1;
    }
    println!(
        "{} LSC lines of Intel's print parsed and printed back: {kinds:?}",
        lines.len()
    );
    // Measured 2026-11-24: 527 lines (lsc_load, lsc_store, lsc_fence, 4 atomics).
    assert!(lines.len() >= 500, "{} LSC lines", lines.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn changed_lsc_instructions_that_print_parse_back(
        pick in any::<prop::sample::Index>(),
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let Some(fixtures) = fixtures() else { return Ok(()) };
        thread_local! {
            static LINES: std::cell::OnceCell<Vec<(String, String, NameTable, Instruction)>> = const { std::cell::OnceCell::new() };
        }
        LINES.with(|cell| {
            let lines = cell.get_or_init(|| lsc_lines(&fixtures));
            let (_, _, names, inst) = &lines[pick.index(lines.len())];
            let mut bytes = Vec::new();
            inst.encode(&mut bytes);
            for (at, v) in &changes {
                let i = at.index(bytes.len());
                bytes[i] = *v;
            }
            if let Ok((changed, n)) = visa::decode(&bytes) {
                let mut text = String::new();
                if n == bytes.len() && changed.print_text(names, &mut text).is_ok() {
                    let back = visa::parse_instruction(&text, names);
                    prop_assert_eq!(back.as_ref(), Ok(&changed), "`{}`", text);
                }
            }
            Ok(())
        })?;
    }
}

/// The property above means something only if many changed instructions print: one byte
/// changed in each instruction at each position in turn, all values tried at the exec size,
/// predicate, unit and cache bytes.
#[test]
fn many_changed_lsc_instructions_print_and_parse_back() {
    let Some(fixtures) = fixtures() else { return };
    let lines = lsc_lines(&fixtures);
    let (mut printed, mut tried) = (0, 0);
    for (_, line, names, inst) in lines.iter().step_by(7) {
        let mut bytes = Vec::new();
        inst.encode(&mut bytes);
        for at in 2..bytes.len() {
            for v in [0u8, 1, 2, 3, 4, 0x10, 0x44, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[at] = v;
                tried += 1;
                let Ok((changed, n)) = visa::decode(&b) else {
                    continue;
                };
                let mut text = String::new();
                if n == b.len() && changed.print_text(names, &mut text).is_ok() {
                    printed += 1;
                    let back = visa::parse_instruction(&text, names);
                    assert_eq!(back.as_ref(), Ok(&changed), "`{text}` (from `{line}`)");
                }
            }
        }
    }
    println!("{printed} of {tried} changed LSC instructions print (and parse back)");
    assert!(printed * 10 >= tried, "only {printed} of {tried} print");
}
