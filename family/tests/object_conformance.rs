//! Conformance of the object-file writer against Intel's reader: `GenX_IR FILE.isa -platform
//! DG2 -dumpcommonisa -dumpToCurrentDir` reads a file and prints its vISA text into the current
//! directory: one `.visaasm` per kernel and function, named after the base name of the kernel's
//! OutputAsmPath attribute (`OCL_asm…_entry_0002.visaasm`, functions `…_f0.visaasm`), or just
//! `.visaasm` when the kernel has none. Exit status 0 when it read the file, 1 when it cannot
//! open it; on some bad files it crashes (SIGSEGV). The expected lines below are
//! written by hand in the syntax of Intel's print (`../shared/real-kernels/dg2/*.visaasm`).

#![cfg(not(family_absent))]

use std::path::PathBuf;
use std::process::Command;
use visa::cmp::{RelOp, RelOpEncodeRelationalOperator};
use visa::enums::{ExecSize, ExecSizeExecutionMask as Mask, ExecSizeSize as Size};
use visa::object::{
    AttributeInfo, File, InputInfo, InstructionStream, Kernel, KernelData, KernelInfo, LabelInfo,
    PredicateInfo, SurfaceInfo, VarInfo,
};
use visa::runtime::{DataType, Immediate, PredicateControl, Region, StateClass, VectorOperand};
use visa::{Add, Cmp};
use visa::{Instruction, Mov, Movs, Ret, Subroutine};

mod support;
use support::shared;

fn missing(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}; CI is set: it must be present"
    );
    println!("skipped: {what}");
}

fn genx_ir_present() -> bool {
    let ok = Command::new("GenX_IR").arg("-help").output().is_ok();
    if !ok {
        missing("Intel's vISA reader GenX_IR is not on PATH (package libigc-tools)");
    }
    ok
}

/// Has GenX_IR read `bytes` and returns its printed texts, sorted by file name (the kernel's
/// first, then `..._f0` and on for functions), or what went wrong.
fn intel_print(bytes: &[u8], tag: &str) -> Result<Vec<String>, String> {
    let dir = std::env::temp_dir().join(format!("visa-objconf-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("in.isa"), bytes).map_err(|e| e.to_string())?;
    let out = Command::new("GenX_IR")
        .args([
            "in.isa",
            "-platform",
            "DG2",
            "-dumpcommonisa",
            "-dumpToCurrentDir",
        ])
        .current_dir(&dir)
        .output()
        .map_err(|e| format!("GenX_IR does not run: {e}"))?;
    let mut texts: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".visaasm"))
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap_or_default();
            (p, t)
        })
        .collect();
    texts.sort();
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() || texts.is_empty() {
        return Err(format!(
            "GenX_IR {} with {} text(s): {}{}",
            out.status,
            texts.len(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(texts.into_iter().map(|t| t.1).collect())
}

/// The lines of a print without the `/// $N` instruction numbers (they shift when an
/// instruction is added) and trailing blanks.
fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split("/// $").next().unwrap_or(l).trim_end().to_string())
        .collect()
}

/// Instruction lines, words joined by one space.
fn instruction_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains("/// $"))
        .map(|l| {
            let code = l.split("/// $").next().unwrap_or(l);
            code.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn exec(size: Size, mask: Mask) -> ExecSize {
    ExecSize {
        size,
        execution_mask: mask,
        reserved: 0,
    }
}

/// `V(0,0)` with a region: `<1>` for destinations, `<1;1,0>` and `<0;1,0>` for sources.
fn var(id: u32, region: Region) -> VectorOperand {
    VectorOperand::General {
        modifier: 0,
        id,
        row_offset: 0,
        col_offset: 0,
        region,
    }
}

const DST: fn() -> Region = || Region::new(0, 0, 2);
const SEQ: fn() -> Region = || Region::new(2, 2, 1);
const SCALAR: fn() -> Region = || Region::new(1, 2, 1);

fn imm(ty: DataType, value: u64) -> VectorOperand {
    VectorOperand::Immediate(Immediate { ty, value })
}

/// Type D (1) or UD (0) in bits 3..0, alignment hword (7) in bits 7..4, as Intel's files have.
fn hword(ty: u8, name_index: u32, alias_index: u32) -> VarInfo {
    VarInfo {
        name_index,
        bit_properties: 0x70 | ty,
        num_elements: 8,
        alias_index,
        ..Default::default()
    }
}

/// A kernel built with the writer only: four general variables (one an alias), a predicate,
/// a surface, a subroutine label, an input, the Target and SimdSize attributes and seven
/// instructions.
fn from_scratch() -> File {
    let pool = [
        "objconf", "Target", "SimdSize", "_main", "src", "dst", "sum", "sum_ud", "flag", "buf",
    ];
    let (src, dst, sum, sum_ud) = (32, 33, 34, 35);
    let m1_8 = || exec(Size::N8Elements, Mask::M1);
    let body = vec![
        Instruction::Subroutine(Subroutine { label: 0 }),
        Instruction::Mov(Mov {
            exec_size: m1_8(),
            pred: PredicateControl::NONE,
            dst: var(dst, DST()),
            src0: var(src, SEQ()),
        }),
        Instruction::Add(Add {
            exec_size: m1_8(),
            pred: PredicateControl::NONE,
            dst: var(sum, DST()),
            src0: var(src, SEQ()),
            src1: imm(DataType::D, 5),
        }),
        Instruction::Cmp(Cmp {
            exec_size: m1_8(),
            rel_op: RelOp {
                encode_relational_operator: RelOpEncodeRelationalOperator::LtLessThan,
                reserved: 0,
            },
            dst: VectorOperand::Predicate(PredicateControl(1)),
            src0: var(src, SEQ()),
            src1: imm(DataType::D, 0),
        }),
        Instruction::Mov(Mov {
            exec_size: m1_8(),
            pred: PredicateControl(1),
            dst: var(dst, DST()),
            src0: var(sum_ud, SEQ()),
        }),
        Instruction::Movs(Movs {
            exec_size: exec(Size::N1Element, Mask::M1Nm),
            dst: VectorOperand::State {
                class: StateClass::Surface,
                id: 6,
                offset: 0,
            },
            src0: imm(DataType::Ud, 0),
        }),
        Instruction::Ret(Ret {
            exec_size: exec(Size::N1Element, Mask::M1),
            pred: PredicateControl::NONE,
        }),
    ];
    let data = KernelData {
        string_pool: pool.iter().map(|s| s.as_bytes().to_vec()).collect(),
        name_index: 0,
        var_info: vec![
            hword(1, 4, 0),
            hword(1, 5, 0),
            hword(1, 6, 0),
            hword(0, 7, sum),
        ],
        predicate_info: vec![PredicateInfo {
            name_index: 8,
            num_elements: 8,
            ..Default::default()
        }],
        surface_info: vec![SurfaceInfo {
            name_index: 9,
            num_elements: 1,
            ..Default::default()
        }],
        label_info: vec![LabelInfo {
            name_index: 3,
            kind: 1,
            ..Default::default()
        }],
        input_info: vec![InputInfo {
            kind: 0,
            id: src,
            offset: 32,
            size: 32,
        }],
        // Target 1 is "3d", as in every dg2 file; SimdSize one byte.
        attribute_info: vec![
            AttributeInfo {
                name: 1,
                value: vec![1],
            },
            AttributeInfo {
                name: 2,
                value: vec![8],
            },
        ],
        instructions: InstructionStream::from_instructions(body),
        ..Default::default()
    };
    let mut file = File::default();
    file.header.magic_number = visa::object::MAGIC;
    (file.header.major_version, file.header.minor_version) = (4, 1);
    file.header.kernel_info.push(KernelInfo {
        name: b"objconf".to_vec(),
        ..Default::default()
    });
    file.kernels.push(Kernel {
        data,
        gen_binaries: vec![],
    });
    file
}

#[test]
fn intels_reader_reads_a_file_built_from_scratch() {
    if !genx_ir_present() {
        return;
    }
    let bytes = from_scratch().write().expect("writes");
    let texts = intel_print(&bytes, "scratch").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(texts.len(), 1, "one kernel, no function: {texts:#?}");
    let got = lines(&texts[0]);
    let has = |l: &str| got.iter().any(|g| g == l);
    let expected = [
        ".version 4.1",
        ".kernel \"objconf\"",
        ".decl src v_type=G type=d num_elts=8 align=hword",
        ".decl dst v_type=G type=d num_elts=8 align=hword",
        ".decl sum v_type=G type=d num_elts=8 align=hword",
        ".decl sum_ud v_type=G type=ud num_elts=8 align=hword alias=<sum, 0>",
        ".decl P1 v_type=P num_elts=8",
        ".decl T6 v_type=T num_elts=1 v_name=buf",
        ".input src offset=32 size=32",
        ".kernel_attr Target=\"3d\"",
        ".kernel_attr SimdSize=8",
    ];
    let absent: Vec<&str> = expected.iter().copied().filter(|l| !has(l)).collect();
    assert!(
        absent.is_empty(),
        "lines missing: {absent:#?}\nprint:\n{}",
        texts[0]
    );
    assert_eq!(
        instruction_lines(&texts[0]),
        [
            "mov (M1, 8) dst(0,0)<1> src(0,0)<1;1,0>",
            "add (M1, 8) sum(0,0)<1> src(0,0)<1;1,0> 0x5:d",
            "cmp.lt (M1, 8) P1 src(0,0)<1;1,0> 0x0:d",
            "(P1) mov (M1, 8) dst(0,0)<1> sum_ud(0,0)<1;1,0>",
            "movs (M1_NM, 1) T6(0) 0x0:ud",
            "ret (M1, 1)",
        ],
        "print:\n{}",
        texts[0]
    );
    // GenX_IR names a subroutine label NAME_INDEX_0, INDEX its string's (the dg2 files print
    // `_main_32_0` for `_main` at index 32); SUBROUTINE prints as that label's line.
    assert!(
        has(".function \"_main_3_0\"") && has("_main_3_0:"),
        "print:\n{}",
        texts[0]
    );
}

/// Every kernel and function of `file` (in the order GenX_IR's texts sort: the kernel, then
/// `_f0`, `_f1`, ...).
fn routine_count(file: &File) -> usize {
    file.kernels.len() + file.functions.len()
}

/// Replaces the token `from` by `to` where it stands as a whole name.
fn rename(line: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().last();
        let after = rest[at + from.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..at]);
        out.push_str(if word(before) || word(after) {
            from
        } else {
            to
        });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn intels_reader_prints_edits_of_real_files_and_nothing_else() {
    let Some(shared) = shared() else { return };
    if !genx_ir_present() {
        return;
    }
    let paths = support::dg2_isa_files(&shared);
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &paths {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let original = match intel_print(&bytes, &format!("{stem}-orig")) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{stem}: Intel's reader fails on the original: {e}"));
                continue;
            }
        };
        let mut file = File::parse(&bytes).expect("every dg2 file reads");
        assert_eq!(
            original.len(),
            routine_count(&file),
            "{stem}: one text per routine"
        );
        let k = &mut file.kernels[0].data;
        // The kernel's first variable whose name no other entry of the pool shares.
        let Some(v) = k.var_info.iter().find(|v| {
            let n = &k.string_pool[v.name_index as usize];
            k.string_pool.iter().filter(|s| *s == n).count() == 1
        }) else {
            failures.push(format!("{stem}: no variable with a name of its own"));
            continue;
        };
        let (name_index, ty) = (v.name_index as usize, v.bit_properties & 0xf);
        let id = 32 + k.var_info.iter().position(|x| std::ptr::eq(x, v)).unwrap() as u32;
        let old = String::from_utf8_lossy(&k.string_pool[name_index]).into_owned();
        let new = format!("objconf_{old}");
        k.string_pool[name_index] = new.clone().into_bytes();
        // ADD (M1_NM, 1) new(0,0)<1> new(0,0)<0;1,0> 0x7:d, before the kernel's last instruction.
        let list = &mut k.instructions.instructions;
        let at = list.len() - 1;
        list.insert(
            at,
            (
                0,
                Instruction::Add(Add {
                    exec_size: exec(Size::N1Element, Mask::M1Nm),
                    pred: PredicateControl::NONE,
                    dst: var(id, DST()),
                    src0: var(id, SCALAR()),
                    src1: imm(DataType::D, 7),
                }),
            ),
        );
        let edited = file.write().expect("writes");
        let texts = match intel_print(&edited, &format!("{stem}-edit")) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!(
                    "{stem}: Intel's reader fails on the edited file: {e}"
                ));
                continue;
            }
        };
        // Expected: the original print with the variable renamed, and the new instruction's
        // line before the last instruction of the kernel. Functions print unchanged.
        let mut want: Vec<Vec<String>> = original
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let l = lines(t);
                if i == 0 {
                    l.iter().map(|x| rename(x, &old, &new)).collect()
                } else {
                    l
                }
            })
            .collect();
        let last = original[0]
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("/// $"))
            .map(|(n, _)| n)
            .last()
            .expect("the kernel prints instructions");
        want[0].insert(
            last,
            format!("    add (M1_NM, 1) {new}(0,0)<1> {new}(0,0)<0;1,0> 0x7:d"),
        );
        let decl = want[0]
            .iter()
            .any(|l| l.starts_with(&format!(".decl {new} v_type=G")));
        assert!(
            decl,
            "{stem}: the renamed .decl line is expected (type {ty})"
        );
        let got: Vec<Vec<String>> = texts.iter().map(|t| lines(t)).collect();
        // The added line is compared word by word: Intel pads instructions to a column.
        let squash = |v: &Vec<Vec<String>>| -> Vec<Vec<String>> {
            v.iter()
                .map(|t| {
                    t.iter()
                        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                        .collect()
                })
                .collect()
        };
        if squash(&got) != squash(&want) {
            let (g, w) = (squash(&got), squash(&want));
            let count = |v: &Vec<Vec<String>>| v.iter().map(Vec::len).collect::<Vec<_>>();
            if count(&g) != count(&w) {
                failures.push(format!(
                    "{stem}: lines per text {:?}, expected {:?}",
                    count(&g),
                    count(&w)
                ));
            }
            let diff: Vec<String> = g
                .iter()
                .flatten()
                .zip(w.iter().flatten())
                .filter(|(a, b)| a != b)
                .take(5)
                .map(|(a, b)| format!("printed `{a}`, expected `{b}`"))
                .collect();
            failures.push(format!("{stem}: {diff:#?}"));
            continue;
        }
        checked += 1;
    }
    println!("{checked} of {} real files: Intel's reader prints the rename and the added instruction, and otherwise the original text", paths.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 58);
}
