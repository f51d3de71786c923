//! Every real vISA object file of `../shared/real-kernels/dg2` reads, agrees with the text
//! Intel's compiler printed beside it (`NAME.visaasm`, `NAME.func.F.visaasm`), and writes back
//! byte for byte.

#![cfg(not(family_absent))]

use std::collections::BTreeMap;
use std::path::Path;
use visa::object::{File, Routine, Variable};
use visa::Instruction;

mod support;
use support::shared;

/// Files whose instruction stream stops decoding because of an error in the docs. The test
/// fails when one of them decodes fully (the errata fixed it: remove it here) or when another
/// file stops. With the counted parameter lists of 3D_LOAD/3D_SAMPLE and the errata of
/// errata (SCATTER4_TYPED's SIMD16 among them), none stops.
const DOC_ERRORS: &[(&str, &str)] = &[];

/// Stands for a `NAME:` line among the mnemonics.
const LABEL_LINE: &str = "<label>";

/// What Intel's text says about one kernel or function.
#[derive(Default, Debug)]
struct Text {
    name: String,
    /// (class letter, name) of every `.decl` that is not a comment, in order.
    decls: Vec<(char, String)>,
    /// (variable name, offset, size) of every `.input`.
    inputs: Vec<(String, i64, u64)>,
    labels: Vec<String>,
    /// Mnemonic of every instruction, without predicate and without `.suffix`.
    mnemonics: Vec<String>,
}

fn attr<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

fn read_text(path: &Path) -> Text {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut t = Text::default();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(rest) = line
            .strip_prefix(".kernel ")
            .or_else(|| line.strip_prefix(".global_function "))
        {
            t.name = rest.trim().trim_matches('"').to_string();
        } else if let Some(rest) = line.strip_prefix(".decl ") {
            let first = rest.split_whitespace().next().unwrap_or("").to_string();
            let class = attr(line, "v_type")
                .and_then(|c| c.chars().next())
                .unwrap_or('?');
            let name = attr(line, "v_name").map_or(first, str::to_string);
            t.decls.push((class, name));
        } else if let Some(rest) = line.strip_prefix(".input ") {
            let name = rest.split_whitespace().next().unwrap_or("").to_string();
            let offset = attr(line, "offset")
                .and_then(|v| v.parse().ok())
                .unwrap_or(-1);
            let size = attr(line, "size")
                .and_then(|v| v.parse().ok())
                .unwrap_or(u64::MAX);
            t.inputs.push((name, offset, size));
        } else if line.starts_with("    ") && trimmed.contains("/// $") {
            let mut words = trimmed.split_whitespace();
            let mut first = words.next().unwrap_or("");
            if first.starts_with('(') {
                first = words.next().unwrap_or("");
            }
            let base = first.split('.').next().unwrap_or(first);
            t.mnemonics.push(base.to_ascii_uppercase());
        } else if !line.starts_with(' ')
            && !line.starts_with('.')
            && !line.starts_with('/')
            && trimmed.ends_with(':')
        {
            t.labels.push(trimmed.trim_end_matches(':').to_string());
            // A label line is the LABEL or SUBROUTINE instruction that declares it.
            t.mnemonics.push(LABEL_LINE.to_string());
        }
    }
    t
}

fn lossy(b: Option<&[u8]>) -> String {
    b.map_or_else(
        || "<none>".into(),
        |b| String::from_utf8_lossy(b).into_owned(),
    )
}

/// Compares one routine with its text; returns the disagreements.
fn compare(r: &dyn Routine, header_name: &str, t: &Text, stats: &mut Stats) -> Vec<String> {
    let mut bad = Vec::new();
    if t.name != header_name || lossy(r.name()) != header_name {
        bad.push(format!(
            "name: text `{}`, header `{header_name}`, string pool `{}`",
            t.name,
            lossy(r.name())
        ));
    }
    let of = |c: char| -> Vec<String> {
        t.decls
            .iter()
            .filter(|d| d.0 == c)
            .map(|d| d.1.clone())
            .collect()
    };
    let names =
        |idx: Vec<u32>| -> Vec<String> { idx.into_iter().map(|i| lossy(r.string(i))).collect() };
    let tables = [
        (
            'G',
            names(r.var_info().iter().map(|v| v.name_index).collect()),
        ),
        (
            'S',
            names(r.sampler_info().iter().map(|v| v.name_index).collect()),
        ),
        (
            'T',
            names(r.surface_info().iter().map(|v| v.name_index).collect()),
        ),
    ];
    for (c, got) in tables {
        if got != of(c) {
            bad.push(format!("{c} declarations: file {got:?}, text {:?}", of(c)));
        }
    }
    // Intel prints predicates by id (`P3`): each must resolve to the declaration of that id.
    let text_p = of('P');
    let ids: Vec<String> = (1..=r.predicate_info().len() as u32)
        .filter(|&id| matches!(r.predicate(id), Some(visa::object::Predicate::Declared { index, .. }) if index + 1 == id as usize))
        .map(|id| format!("P{id}"))
        .collect();
    if ids != text_p {
        bad.push(format!("P declarations: file ids {ids:?}, text {text_p:?}"));
    }
    let labels: Vec<String> = names(r.label_info().iter().map(|l| l.name_index).collect());
    for l in &t.labels {
        // Intel's print renames subroutine labels (`_main` → `_main_0`, `fa` → `fa_3`).
        let renamed = l
            .rsplit_once('_')
            .is_some_and(|(b, n)| n.parse::<u32>().is_ok() && labels.iter().any(|x| x == b));
        if !labels.contains(l) && !renamed {
            bad.push(format!(
                "label `{l}` of the text is not among the file's labels {labels:?}"
            ));
        }
    }
    let stream = r.instructions();
    let decoded: Vec<&Instruction> = stream.instructions.iter().map(|(_, i)| i).collect();
    stats.instructions += decoded.len();
    if stream.stop.is_none() && decoded.len() != t.mnemonics.len() {
        bad.push(format!(
            "{} instructions decoded, the text has {}",
            decoded.len(),
            t.mnemonics.len()
        ));
    }
    for (n, (inst, text)) in decoded.iter().zip(&t.mnemonics).enumerate() {
        // Intel's mnemonic is the doc name wherever a doc of that name exists.
        if text == LABEL_LINE {
            if matches!(inst.name(), "LABEL" | "SUBROUTINE") {
                stats.names_agree += 1;
            } else {
                bad.push(format!(
                    "instruction {n}: decoded {}, text a label",
                    inst.name()
                ));
            }
            continue;
        }
        let known = Instruction::NAMES.contains(&text.as_str());
        if known && inst.name() != text {
            bad.push(format!(
                "instruction {n}: decoded {}, text {text}",
                inst.name()
            ));
        } else if known {
            stats.names_agree += 1;
        }
    }
    bad
}

#[derive(Default)]
struct Stats {
    files: usize,
    identical: usize,
    instructions: usize,
    names_agree: usize,
}

fn inputs_of(f: &File, i: usize) -> Vec<(String, i64, u64)> {
    let Some(k) = f.kernels.get(i) else {
        return vec![];
    };
    k.data
        .input_info
        .iter()
        .map(|inp| {
            let name = match inp.kind_category() {
                0 => match k.data.variable(inp.id) {
                    Some(Variable::Declared { info, .. }) => lossy(k.data.string(info.name_index)),
                    Some(Variable::Predefined { name, .. }) => name.unwrap_or("?").to_string(),
                    None => format!("<V{} undeclared>", inp.id),
                },
                1 => k
                    .data
                    .sampler_info
                    .get(inp.id as usize)
                    .map_or("?".into(), |s| lossy(k.data.string(s.name_index))),
                _ => match k.data.surface(inp.id) {
                    Some(visa::object::Surface::Declared { info, .. }) => {
                        lossy(k.data.string(info.name_index))
                    }
                    _ => format!("T{}", inp.id),
                },
            };
            (name, i64::from(inp.offset), u64::from(inp.size))
        })
        .collect()
}

#[test]
fn real_dg2_files_read_agree_with_intels_text_and_write_back_identically() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("real-kernels/dg2");
    let files = support::dg2_isa_files(&shared);
    let mut stats = Stats::default();
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stopped: BTreeMap<String, String> = BTreeMap::new();
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        stats.files += 1;
        let bytes = std::fs::read(path).unwrap();
        let file = match File::parse(&bytes) {
            Ok(f) => f,
            Err(e) => {
                failures
                    .entry(stem)
                    .or_default()
                    .push(format!("does not read: {e}"));
                continue;
            }
        };
        let mut bad = Vec::new();
        match file.write() {
            Ok(out) if out == bytes => stats.identical += 1,
            Ok(out) => {
                let at = bytes.iter().zip(&out).position(|(a, b)| a != b);
                bad.push(format!("writes back differently, first at {at:?}"));
            }
            Err(e) => bad.push(format!("does not write: {e}")),
        }
        for (i, info) in file.header.kernel_info.iter().enumerate() {
            let t = read_text(&dir.join(format!("{stem}.visaasm")));
            let k = &file.kernels[i];
            bad.extend(compare(
                &k.data,
                &String::from_utf8_lossy(&info.name),
                &t,
                &mut stats,
            ));
            if inputs_of(&file, i) != t.inputs {
                bad.push(format!(
                    "inputs: file {:?}, text {:?}",
                    inputs_of(&file, i),
                    t.inputs
                ));
            }
            if let Some(stop) = &k.data.instructions.stop {
                let last = k
                    .data
                    .instructions
                    .instructions
                    .last()
                    .map_or("none", |l| l.1.name());
                stopped.insert(
                    stem.clone(),
                    format!("kernel {i}: {} (after {last})", stop.describe()),
                );
            }
        }
        for (i, info) in file.header.function_info.iter().enumerate() {
            let name = String::from_utf8_lossy(&info.name).into_owned();
            let text = dir.join(format!("{stem}.func.{name}.visaasm"));
            let f = &file.functions[i];
            if text.is_file() {
                let t = read_text(&text);
                bad.extend(compare(&f.data, &name, &t, &mut stats));
            } else {
                bad.push(format!("no text {} for function `{name}`", text.display()));
            }
            if let Some(stop) = &f.data.instructions.stop {
                stopped.insert(stem.clone(), format!("function {i}: {}", stop.describe()));
            }
        }
        // Names of the text cannot be compared past a stop: those files are listed apart.
        if !stopped.contains_key(&stem) && !bad.is_empty() {
            failures.insert(stem, bad);
        } else if !bad.is_empty() {
            let real: Vec<String> = bad
                .into_iter()
                .filter(|b| !b.starts_with("instruction "))
                .collect();
            if !real.is_empty() {
                failures.insert(stem, real);
            }
        }
    }
    println!(
        "{} files read, {} instructions decoded, {} byte-identical, {} opcode names checked against the text",
        stats.files, stats.instructions, stats.identical, stats.names_agree
    );
    for (f, why) in &stopped {
        println!("decoding stops in {f}: {why}");
    }
    for (f, bad) in &failures {
        println!("FAIL {f}:\n  {}", bad.join("\n  "));
    }
    assert_eq!(stats.files, 58, "the corpus has 58 files");
    assert!(failures.is_empty(), "{} file(s) disagree", failures.len());
    assert_eq!(stats.identical, 58, "every file writes back byte for byte");
    let expected: Vec<&str> = DOC_ERRORS.iter().map(|d| d.0).collect();
    let got: Vec<&str> = stopped.keys().map(String::as_str).collect();
    assert_eq!(got, expected, "files whose decoding stops (doc errors)");
}
