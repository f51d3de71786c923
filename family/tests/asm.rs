//! The assembler (`visa::asm`) against Intel's own files:
//! 1. every `real-kernels/dg2/NAME.visaasm` (with its `NAME.func.F.visaasm`) assembles to the
//!    declarations, inputs, attributes and labels of the `NAME.isa` Intel wrote beside it, and
//!    to its instruction streams byte for byte once `visa::parse_instruction` is generated;
//! 2. our OpenCL fixtures (`tests/ocl/fixtures/<device>/*.visaasm`, Intel's print), assembled
//!    and read back by Intel's reader (`GenX_IR -dumpcommonisa`), print Intel's text again.

#![cfg(not(family_absent))]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use visa::asm::{assemble, render, Options, Source};
use visa::object::{AttributeInfo, File, Routine};

mod support;
use support::shared;

/// What an assembled file lacks or orders differently, by design: the text does not hold it.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("GEN binaries", "a kernel's GEN binaries (gen_binary_info) are compiled code, not in the text: asm writes none"),
    ("OutputAsmPath", "kernel attribute OutputAsmPath (the dump path) is never printed (note §3): asm cannot write it, nor its string"),
    ("string-pool order", "Intel adds a string when its builder creates the thing; the text gives variables in creation order but not when predicates, labels and late attributes were created among them (asm places them at their first mention, see asm/pool.rs)"),
    ("fcall callee index", "an FCALL names its callee by string-pool index; the pool's order differs where the text does not say it (the two above), so callees are compared by their string"),
];

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

fn lossy(b: Option<&[u8]>) -> String {
    b.map_or_else(
        || "<none>".into(),
        |b| String::from_utf8_lossy(b).into_owned(),
    )
}

/// A kernel's text and its functions' texts (`NAME.func.F.visaasm`), kernel first.
fn sources_of(kernel: &Path) -> Vec<(String, String)> {
    let dir = kernel.parent().unwrap();
    let stem = kernel
        .file_name()
        .unwrap()
        .to_string_lossy()
        .trim_end_matches(".visaasm")
        .to_string();
    let mut out = vec![(
        kernel.display().to_string(),
        std::fs::read_to_string(kernel).unwrap(),
    )];
    let prefix = format!("{}.func.", stem.split('.').next().unwrap_or(&stem));
    let mut funcs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(&prefix) && n.ends_with(".visaasm")
        })
        .collect();
    funcs.sort();
    for f in funcs {
        out.push((
            f.display().to_string(),
            std::fs::read_to_string(&f).unwrap(),
        ));
    }
    out
}

fn run_asm(
    texts: &[(String, String)],
    instructions: bool,
) -> Result<File, Vec<visa::asm::Diagnostic>> {
    let sources: Vec<Source> = texts
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    assemble(&sources, Options { instructions })
}

/// Everything of a routine the text determines, with string indices resolved to strings.
fn declarations(
    r: &dyn Routine,
    attrs: &[AttributeInfo],
    addresses: Vec<(String, u16)>,
) -> Vec<String> {
    let s = |i: u32| lossy(r.string(i));
    let mut out = vec![format!("name {}", lossy(r.name()))];
    for v in r.var_info() {
        out.push(format!(
            "V {} props={:#x} n={} alias={}+{} scope={} attrs={:?}",
            s(v.name_index),
            v.bit_properties,
            v.num_elements,
            v.alias_index,
            v.alias_offset,
            v.alias_scope_specifier,
            v.attribute_info
                .iter()
                .map(|a| (s(a.name), a.value.clone()))
                .collect::<Vec<_>>()
        ));
    }
    out.extend(addresses.into_iter().map(|(n, e)| format!("A {n} n={e}")));
    out.extend(
        r.predicate_info()
            .iter()
            .map(|p| format!("P {} n={}", s(p.name_index), p.num_elements)),
    );
    out.extend(
        r.label_info()
            .iter()
            .map(|l| format!("L {} kind={}", s(l.name_index), l.kind)),
    );
    out.extend(
        r.sampler_info()
            .iter()
            .map(|x| format!("S {} n={}", s(x.name_index), x.num_elements)),
    );
    out.extend(
        r.surface_info()
            .iter()
            .map(|x| format!("T {} n={}", s(x.name_index), x.num_elements)),
    );
    for a in attrs.iter().filter(|a| s(a.name) != "OutputAsmPath") {
        out.push(format!("attr {}={:?}", s(a.name), a.value));
    }
    let labels: Vec<String> = r
        .instructions()
        .instructions
        .iter()
        .filter(|(_, i)| matches!(i.name(), "LABEL" | "SUBROUTINE"))
        .map(|(_, i)| format!("{i:?}"))
        .collect();
    out.push(format!("label instructions {labels:?}"));
    out
}

fn all_declarations(f: &File) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (k, info) in f.kernels.iter().zip(&f.header.kernel_info) {
        let s = |i: u32| lossy(k.data.string(i));
        let addr = k
            .data
            .address_info
            .iter()
            .map(|a| (s(a.name_index), a.num_elements))
            .collect();
        let mut d = declarations(&k.data, &k.data.attribute_info, addr);
        d.insert(0, format!("kernel {}", lossy(Some(&info.name))));
        d.push(format!("inputs {:?}", k.data.input_info));
        out.push(d);
    }
    for (x, info) in f.functions.iter().zip(&f.header.function_info) {
        let s = |i: u32| lossy(x.data.string(i));
        let addr = x
            .data
            .address_info
            .iter()
            .map(|a| (s(a.name_index), a.num_elements))
            .collect();
        let mut d = declarations(&x.data, &x.data.attribute_info, addr);
        d.insert(
            0,
            format!(
                "function {} linkage {}",
                lossy(Some(&info.name)),
                info.linkage
            ),
        );
        d.push(format!(
            "sizes in={} ret={}",
            x.data.input_size, x.data.return_value_size
        ));
        out.push(d);
    }
    out
}

fn pools(f: &File) -> Vec<Vec<Vec<u8>>> {
    let mut out: Vec<Vec<Vec<u8>>> = f
        .kernels
        .iter()
        .map(|k| k.data.string_pool.clone())
        .collect();
    out.extend(f.functions.iter().map(|x| x.data.string_pool.clone()));
    out
}

/// Length of the longest common subsequence.
fn lcs<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut prev = 0;
        for (j, y) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if x == y {
                prev + 1
            } else {
                row[j + 1].max(row[j])
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[test]
fn dg2_declarations_are_intels() {
    let Some(shared) = shared() else { return };
    for (what, why) in KNOWN_DIFFERENCES {
        println!("known difference, not compared: {what}: {why}");
    }
    let (mut files, mut routines, mut same_pos, mut total, mut common) =
        (0, 0, 0usize, 0usize, 0usize);
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for isa in support::dg2_isa_files(&shared) {
        files += 1;
        let stem = isa.file_stem().unwrap().to_string_lossy().into_owned();
        let intel = File::parse(&std::fs::read(&isa).unwrap()).expect("Intel's file reads");
        let texts = sources_of(&isa.with_extension("visaasm"));
        let ours = match run_asm(&texts, false) {
            Ok(f) => f,
            Err(d) => {
                failures.entry(stem).or_default().push(render(&d));
                continue;
            }
        };
        let bad = failures.entry(stem.clone()).or_default();
        if (ours.header.major_version, ours.header.minor_version)
            != (intel.header.major_version, intel.header.minor_version)
        {
            bad.push("version differs".into());
        }
        let (a, b) = (all_declarations(&ours), all_declarations(&intel));
        if a.len() != b.len() {
            bad.push(format!("{} routines, Intel {}", a.len(), b.len()));
        }
        for (x, y) in a.iter().zip(&b) {
            routines += 1;
            for (l, m) in x.iter().zip(y) {
                if l != m {
                    bad.push(format!("ours  {l}\nIntel {m}"));
                }
            }
            if x.len() != y.len() {
                bad.push(format!("{} declaration lines, Intel {}", x.len(), y.len()));
            }
        }
        // The pools hold the same strings, but Intel's may also have the ones the text lacks.
        for (p, q) in pools(&ours).iter().zip(&pools(&intel)) {
            let mut extra: Vec<&Vec<u8>> = p.iter().collect();
            let mut missing = Vec::new();
            for s in q {
                match extra.iter().position(|e| *e == s) {
                    Some(i) => {
                        extra.remove(i);
                    }
                    None => missing.push(String::from_utf8_lossy(s).into_owned()),
                }
            }
            let fcall_names: Vec<String> = texts
                .iter()
                .flat_map(|(_, t)| t.lines())
                .filter_map(|l| {
                    l.trim()
                        .strip_prefix("fcall ")
                        .and_then(|r| r.split_whitespace().nth(2))
                        .map(str::to_string)
                })
                .collect();
            missing.retain(|m| m != "OutputAsmPath" && !fcall_names.contains(m));
            if !extra.is_empty() || !missing.is_empty() {
                bad.push(format!(
                    "string pool: ours only {extra:?}, Intel only {missing:?}"
                ));
            }
            same_pos += p.iter().zip(q).filter(|(x, y)| x == y).count();
            total += q.len();
            common += lcs(p, q);
        }
        if bad.is_empty() {
            failures.remove(&stem);
        }
    }
    println!(
        "{files} files, {routines} routines: declarations compared; string pools: {total} strings in Intel's, {same_pos} at the same index, {common} in the same relative order (LCS)"
    );
    for (f, bad) in &failures {
        println!("FAIL {f}:\n  {}", bad.join("\n  "));
    }
    assert_eq!(files, 58);
    assert!(failures.is_empty(), "{} file(s) differ", failures.len());
}

#[test]
fn dg2_instruction_streams_are_intels_byte_for_byte() {
    let Some(shared) = shared() else { return };
    let (mut same, mut routines, mut pending, mut noted_lines) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for isa in support::dg2_isa_files(&shared) {
        let stem = isa.file_stem().unwrap().to_string_lossy().into_owned();
        let intel = File::parse(&std::fs::read(&isa).unwrap()).expect("Intel's file reads");
        let ours = match run_asm(&sources_of(&isa.with_extension("visaasm")), true) {
            Ok(f) => f,
            Err(d) if only_not_yet(&d) => {
                pending += 1;
                continue;
            }
            Err(d) => {
                failures.push(format!(
                    "{stem}: {} error(s)\n{}",
                    d.len(),
                    render(&d[..d.len().min(5)])
                ));
                continue;
            }
        };
        // An FCALL names its callee by pool index, and the pool's order differs where the text
        // does not say it (OutputAsmPath, attributes: DIFFERENCES): the callee is compared by
        // its string, the rest of the stream byte for byte.
        let streams = |f: &File| -> Vec<(Vec<u8>, Vec<String>)> {
            let mut out = Vec::new();
            let routines = f
                .kernels
                .iter()
                .map(|k| (&k.data.instructions, &k.data.string_pool));
            let routines = routines.chain(
                f.functions
                    .iter()
                    .map(|x| (&x.data.instructions, &x.data.string_pool)),
            );
            for (s, pool) in routines {
                let mut s = s.clone();
                let mut callees = Vec::new();
                for (_, inst) in &mut s.instructions {
                    if let visa::Instruction::Fcall(call) = inst {
                        let name = pool
                            .get(usize::from(call.func_id))
                            .map(|s| String::from_utf8_lossy(s).into_owned());
                        callees
                            .push(name.unwrap_or_else(|| format!("<no string {}>", call.func_id)));
                        call.func_id = 0;
                    }
                }
                let mut w = visa::object::ObjWriter::new();
                s.write(&mut w);
                out.push((w.out, callees));
            }
            out
        };
        // A line `dis` notes (its text cannot show some bits: SVM_BLOCK_ST's bit 7, which
        // Intel's compiler sets) assembles as Intel's assembler writes it: that instruction
        // alone may differ, and only in its bits.
        let noted = support::noted(&intel);
        let instructions = |f: &File, i: usize| -> Vec<visa::Instruction> {
            let s = f
                .kernels
                .iter()
                .map(|k| &k.data.instructions)
                .chain(f.functions.iter().map(|x| &x.data.instructions))
                .nth(i);
            // Callees are compared by their string above.
            let plain = |x: &visa::Instruction| {
                let mut x = x.clone();
                if let visa::Instruction::Fcall(call) = &mut x {
                    call.func_id = 0;
                }
                x
            };
            s.map(|s| s.instructions.iter().map(|(_, x)| plain(x)).collect())
                .unwrap_or_default()
        };
        for (i, (a, b)) in streams(&ours).iter().zip(&streams(&intel)).enumerate() {
            routines += 1;
            if a.1 != b.1 {
                failures.push(format!(
                    "{stem} routine {i}: fcall callees {:?}, Intel {:?}",
                    a.1, b.1
                ));
                continue;
            }
            let (x, y) = (instructions(&ours, i), instructions(&intel, i));
            let only_noted = x.len() == y.len()
                && x.iter().zip(&y).enumerate().all(|(k, (p, q))| {
                    p == q || (p.name() == q.name() && noted.get(i).is_some_and(|n| n.contains(&k)))
                });
            let (a, b) = (&a.0, &b.0);
            if a == b {
                same += 1;
            } else if only_noted {
                same += 1;
                noted_lines += x.iter().zip(&y).filter(|(p, q)| p != q).count();
            } else {
                let at = a
                    .iter()
                    .zip(b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.len().min(b.len()));
                failures.push(format!(
                    "{stem} routine {i}: first difference at stream byte {at} ({} bytes, Intel {})",
                    a.len(),
                    b.len()
                ));
            }
        }
    }
    println!("{routines} routines compared, {same} identical streams ({noted_lines} noted lines assembled as Intel's assembler writes them); {pending} files hold forms not parsed yet ({NOT_YET:?})");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} stream(s) differ", failures.len());
    // Measured 2026-11-23: all 59 routines of the 58 files.
    assert!(
        same >= 59 && pending == 0,
        "{same} identical, {pending} not parsed yet"
    );
}

/// Intel's print made comparable: `.function` lines and call/label suffixes differ on re-print
/// (note §4.3, and GenX_IR's reader appends `_<name_index>` to every label), so labels are
/// renamed `L<n>` in order of definition; trailing blanks go.
/// Mnemonics whose text the generated parser does not take yet (none since the LSC, 3D
/// sampler, SVM block and FCALL forms landed). A routine whose only errors are these is counted
/// apart, never as a failure; any other error fails the test.
const NOT_YET: &[&str] = &[];

fn only_not_yet(d: &[visa::asm::Diagnostic]) -> bool {
    let mnemonic = |d: &visa::asm::Diagnostic| {
        let line = d.source_line.trim_start();
        let line = line
            .strip_prefix('(')
            .map_or(line, |l| l.split_once(") ").map_or(l, |x| x.1));
        line.split([' ', '.']).next().unwrap_or("").to_string()
    };
    !d.is_empty()
        && d.iter()
            .all(|d| NOT_YET.iter().any(|m| mnemonic(d).starts_with(m)))
}

fn normalized(text: &str, instructions: bool) -> Vec<String> {
    let labels: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_suffix(':'))
        .filter(|l| !l.is_empty() && !l.starts_with([' ', '.', '/']))
        .collect();
    let rename: BTreeMap<&str, String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (*l, format!("L{i}")))
        .collect();
    text.lines()
        .filter(|l| !l.starts_with(".function "))
        .filter(|l| instructions || !l.starts_with("    ") || l.trim().is_empty())
        .map(|l| {
            let l = l.trim_end();
            // Renamed labels change the padding before ` /// $N`: compare the comment alone.
            let (l, comment) = match l.find(" /// $") {
                Some(at) => (l[..at].trim_end(), &l[at..]),
                None => (l, ""),
            };
            let words: Vec<String> = l
                .split(' ')
                .map(|w| {
                    let (core, colon) = w.strip_suffix(':').map_or((w, ""), |c| (c, ":"));
                    rename
                        .get(core)
                        .map_or_else(|| w.to_string(), |r| format!("{r}{colon}"))
                })
                .collect();
            format!("{}{comment}", words.join(" "))
        })
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// Our own `visa dis` of the file our `visa asm` made of Intel's text: the text, byte for byte,
/// but for a routine assembled without its instructions (it holds forms not parsed yet), whose
/// instruction lines are left out on both sides (as `normalized` does). Labels keep their
/// names and `.function` lines their text here: only Intel's reader renames them (note §4.3).
fn our_print_differs(
    file: &File,
    routine: usize,
    intel: &str,
    instructions: bool,
) -> Option<String> {
    let printed = if routine == 0 {
        visa::object::text::print_kernel(file, 0)
    } else {
        visa::object::text::print_function(file, routine - 1)
    };
    let Some(printed) = printed else {
        return Some("our printer has no such routine".into());
    };
    let keep = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| instructions || !l.starts_with("    ") || l.trim().is_empty())
            .map(str::to_string)
            .collect()
    };
    if instructions && printed.text == intel {
        return None;
    }
    let (a, b) = (keep(intel), keep(&printed.text));
    if !instructions && a == b {
        return None;
    }
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Some(format!(
        "line {} of the compared text: Intel `{}`, ours `{}`",
        at + 1,
        a.get(at).map_or("<end>", |s| s),
        b.get(at).map_or("<end>", |s| s)
    ))
}

#[test]
fn ocl_fixtures_read_back_by_intels_reader_print_intels_text() {
    let Some(fixtures) = fixtures() else { return };
    let genx = std::process::Command::new("GenX_IR").arg("-h").output();
    if genx.is_err() {
        must_have("GenX_IR (Intel's vISA reader, package libigc-tools) not found");
        return;
    }
    let (mut checked, mut with_instructions) = (0, 0);
    let (mut ours_checked, mut ours_equal, mut ours_equal_with_instructions) = (0, 0, 0);
    let mut without_instructions = Vec::new();
    let mut failures = Vec::new();
    for (device, platform) in [("tgllp", "TGLLP"), ("acm-g10", "DG2"), ("pvc", "PVC")] {
        let dir = fixtures.join(device);
        let mut kernels: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "visaasm")
                    && !p.to_string_lossy().contains(".func.")
            })
            .collect();
        kernels.sort();
        for k in kernels {
            let name = format!("{device}/{}", k.file_name().unwrap().to_string_lossy());
            let texts = sources_of(&k);
            let (file, instructions) = match run_asm(&texts, true) {
                Ok(f) => (f, true),
                // Declarations and labels only, for routines with forms not parsed yet.
                Err(d) if only_not_yet(&d) => match run_asm(&texts, false) {
                    Ok(f) => {
                        let mut forms: Vec<String> = d
                            .iter()
                            .map(|d| {
                                d.source_line
                                    .trim()
                                    .split([' ', '.'])
                                    .next()
                                    .unwrap_or("")
                                    .to_string()
                            })
                            .collect();
                        forms.sort();
                        forms.dedup();
                        without_instructions.push(format!(
                            "{name} ({} routine(s)): {}",
                            texts.len(),
                            forms.join(", ")
                        ));
                        (f, false)
                    }
                    Err(d) => {
                        failures.push(format!("{name}: {}", render(&d)));
                        continue;
                    }
                },
                Err(d) => {
                    failures.push(format!(
                        "{name}: {} error(s)\n{}",
                        d.len(),
                        render(&d[..d.len().min(5)])
                    ));
                    continue;
                }
            };
            for (routine, (src, text)) in texts.iter().enumerate() {
                ours_checked += 1;
                match our_print_differs(&file, routine, text, instructions) {
                    None => {
                        ours_equal += 1;
                        ours_equal_with_instructions += usize::from(instructions);
                    }
                    Some(d) => failures.push(format!("{src}: our `visa dis`: {d}")),
                }
            }
            let tmp = tempdir(&name);
            std::fs::write(tmp.join("k.isa"), file.write().expect("writes")).unwrap();
            let out = std::process::Command::new("GenX_IR")
                .args([
                    "k.isa",
                    "-platform",
                    platform,
                    "-dumpcommonisa",
                    "-dumpToCurrentDir",
                ])
                .current_dir(&tmp)
                .output()
                .expect("GenX_IR runs");
            // Without OutputAsmPath GenX_IR names the kernel's print `.visaasm` and function
            // i's `_f<i>.visaasm`.
            let mut printed = vec![tmp.join(".visaasm")];
            printed.extend((0..file.functions.len()).map(|i| tmp.join(format!("_f{i}.visaasm"))));
            for ((src, text), p) in texts.iter().zip(&printed) {
                checked += 1;
                let Ok(back) = std::fs::read_to_string(p) else {
                    failures.push(format!(
                        "{src}: GenX_IR printed nothing (exit {:?}): {}",
                        out.status.code(),
                        String::from_utf8_lossy(&out.stdout)
                            .lines()
                            .last()
                            .unwrap_or("")
                    ));
                    continue;
                };
                let (a, b) = (
                    normalized(text, instructions),
                    normalized(&back, instructions),
                );
                match a.iter().zip(&b).position(|(x, y)| x != y) {
                    None if a.len() == b.len() => with_instructions += usize::from(instructions),
                    at => {
                        let at = at.unwrap_or(a.len().min(b.len()));
                        failures.push(format!(
                            "{src}: line {at} of the compared text: Intel `{}`, read back `{}`",
                            a.get(at).map_or("<end>", |s| s),
                            b.get(at).map_or("<end>", |s| s)
                        ));
                    }
                }
            }
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
    println!("{checked} routine texts read back by GenX_IR, {with_instructions} with their instructions (the others: declarations and labels, as they hold forms not parsed yet: {NOT_YET:?})");
    for w in &without_instructions {
        println!("compared without instructions: {w}");
    }
    println!("our `visa dis` of our `visa asm` output: {ours_equal} of {ours_checked} routine texts equal to Intel's, {ours_equal_with_instructions} byte for byte with their instructions (the others without instruction lines, as above)");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(checked > 0);
    assert!(failures.is_empty(), "{} text(s) differ", failures.len());
    // Measured 2026-11-23: 57 routine texts read back, all 57 with their instructions; our
    // own print equals Intel's in all 57.
    assert!(checked >= 57, "{checked} texts read back");
    assert!(
        with_instructions >= 57,
        "{with_instructions} texts read back with their instructions"
    );
    assert_eq!(
        ours_equal, ours_checked,
        "texts our `visa dis` prints differently"
    );
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "visa-asm-{}-{}",
        std::process::id(),
        name.replace(['/', '.'], "_")
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
