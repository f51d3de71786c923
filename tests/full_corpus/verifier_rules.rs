//! One hand-made failing file per routine-level rule of `File::validate`: a real file Intel's
//! compiler wrote (`control_flow_branches.isa`, dg2), one instruction or declaration changed
//! through the typed API, written with `File::write`. Each must fail our check with exactly
//! the rule it breaks (its chapter line), and Intel's reader and verifier must reject the
//! same bytes (`intel-isa read f.isa DG2` exits 1; for a vertical stride the chapter does not
//! list it crashes, exit 2, which the table records), when the tools are present (skipped with
//! a printed reason when they are not, failing when `CI` is set). The unchanged file checks
//! clean on both sides.

#[path = "support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use visa::generated::enums::ExecSize;
use visa::object::verify::rules;
use visa::object::{File, Rule};
use visa::runtime::{DataType, Immediate, PredicateControl, Region, VectorOperand};
use visa::{Instruction, Platform};

fn xehp() -> Platform {
    Platform::ALL
        .iter()
        .copied()
        .find(|p| matches!(p.name(), "XEHP" | "DG2"))
        .expect("the family names XEHP")
}

/// What Intel's reader and verifier (`intel-isa read f.isa DG2`) do with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Intel {
    /// Exit 1: it reports errors.
    Rejects,
    /// Exit 2: it crashes (the doc's rule holds; Intel's reader does not survive breaking it).
    Crashes,
}

/// Intel's verdict on bytes, `None` when the tools are missing.
fn intel_verdict(shared: &Path, bytes: &[u8], name: &str) -> Option<Result<Intel, String>> {
    let script = shared.join("tools/intel-isa/intel-isa");
    let dir = std::env::temp_dir().join(format!("visa-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("{name}.isa"));
    std::fs::write(&path, bytes).ok()?;
    let work = dir.join("work");
    let out = Command::new(&script)
        .args(["read".as_ref(), path.as_os_str(), "DG2".as_ref()])
        .env("INTEL_ISA_WORK", &work)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Some(Err("accepts it".into())),
        Some(1) => Some(Ok(Intel::Rejects)),
        // 2: crashed, or the tools are missing (the script says which on stderr).
        _ if err.contains("crashed") => Some(Ok(Intel::Crashes)),
        _ => None,
    }
}

/// The `n`th instruction named `name` of kernel 0.
fn nth<'a>(f: &'a mut File, name: &str, n: usize) -> &'a mut Instruction {
    f.kernels[0]
        .data
        .instructions
        .instructions
        .iter_mut()
        .map(|(_, i)| i)
        .filter(|i| i.name() == name)
        .nth(n)
        .unwrap_or_else(|| panic!("no {name} #{n}"))
}

fn first_add(f: &mut File) -> &mut visa::Add {
    match nth(f, "ADD", 0) {
        Instruction::Add(a) => a,
        _ => unreachable!(),
    }
}

fn set_region(op: &mut VectorOperand, vs: u8, w: u8, hs: u8) {
    if let VectorOperand::General { region, .. } = op {
        *region = Region::new(vs, w, hs);
    }
}

fn set_id(op: &mut VectorOperand, to: u32) {
    if let VectorOperand::General { id, .. } = op {
        *id = to;
    }
}

type Edit = fn(&mut File);

fn cases() -> Vec<(&'static str, Rule, Intel, Edit)> {
    vec![
        // add (M1, 16) V0054(0,0)<1> V0051(0,0)<1;1,0> V0053(0,0)<1;1,0>
        ("src_horizontal_stride_8", rules::HORIZONTAL_STRIDE, Intel::Rejects, |f| {
            set_region(&mut first_add(f).src0, 2, 2, 5)
        }),
        ("src_width_32", rules::WIDTH, Intel::Rejects, |f| {
            set_region(&mut first_add(f).src0, 7, 7, 2)
        }),
        ("src_vertical_stride_encoding_8", rules::VERTICAL_STRIDE, Intel::Crashes, |f| {
            set_region(&mut first_add(f).src0, 8, 2, 2)
        }),
        ("width_16_exec_8", rules::EXEC_SIZE_WIDTH, Intel::Rejects, |f| {
            let a = first_add(f);
            a.exec_size = ExecSize::from_raw(0x03, 0).unwrap();
            set_region(&mut a.src0, 6, 6, 2);
        }),
        ("dst_horizontal_stride_0", rules::DST_HORIZONTAL_STRIDE, Intel::Rejects, |f| {
            set_region(&mut first_add(f).dst, 0, 0, 1)
        }),
        ("undeclared_variable", rules::VARIABLE_ID, Intel::Crashes, |f| {
            let n = 32 + f.kernels[0].data.var_info.len() as u32;
            set_id(&mut first_add(f).src1, n + 3)
        }),
        ("write_to_thread_x", rules::READ_ONLY, Intel::Rejects, |f| {
            set_id(&mut first_add(f).dst, 1)
        }),
        ("exec_16_mask_m8", rules::EXEC_MASK, Intel::Rejects, |f| {
            first_add(f).exec_size = ExecSize::from_raw(0x74, 0).unwrap()
        }),
        ("float_immediate_with_integer_operands", rules::TYPE_MAP, Intel::Rejects, |f| {
            first_add(f).src1 = VectorOperand::Immediate(Immediate {
                ty: DataType::F,
                value: 0x3f80_0000,
            })
        }),
        ("undeclared_predicate", rules::PREDICATE_ID, Intel::Crashes, |f| {
            let n = f.kernels[0].data.predicate_info.len() as u16;
            if let Instruction::Goto(g) = nth(f, "GOTO", 0) {
                g.pred = PredicateControl(n + 2);
            }
        }),
        ("undeclared_label", rules::LABEL_ID, Intel::Crashes, |f| {
            let n = f.kernels[0].data.label_info.len() as u16;
            if let Instruction::Goto(g) = nth(f, "GOTO", 0) {
                g.label = n + 1;
            }
        }),
        ("label_defined_twice", rules::LABEL_TWICE, Intel::Rejects, |f| {
            let first = match nth(f, "LABEL", 0) {
                Instruction::Label(l) => l.label,
                _ => unreachable!(),
            };
            if let Instruction::Label(l) = nth(f, "LABEL", 1) {
                l.label = first;
            }
        }),
        ("undeclared_surface", rules::SURFACE_ID, Intel::Crashes, |f| {
            let n = 6 + f.kernels[0].data.surface_info.len() as u8;
            if let Instruction::Scatter4Scaled(s) = nth(f, "SCATTER4_SCALED", 0) {
                s.surface = n + 1;
            }
        }),
    ]
}

fn base(shared: &Path) -> (PathBuf, File) {
    let path = shared.join("real-kernels/dg2/control_flow_branches.isa");
    let bytes = std::fs::read(&path).expect("readable");
    (path, File::parse(&bytes).expect("reads"))
}

#[test]
fn the_unchanged_file_checks_clean() {
    let Some(shared) = support::shared() else { return };
    let (_, f) = base(&shared);
    assert_eq!(f.validate(xehp()), vec![]);
}

#[test]
fn every_rule_has_a_failing_file_that_intel_rejects_too() {
    let Some(shared) = support::shared() else { return };
    let (_, original) = base(&shared);
    let mut intel_missing = false;
    let mut problems = Vec::new();
    for (name, rule, expected, edit) in cases() {
        let mut f = original.clone();
        edit(&mut f);
        let bytes = f.write().expect("writes");
        let back = File::parse(&bytes).expect("the edited file reads");
        let failures = back.validate(xehp());
        if !failures
            .iter()
            .any(|e| e.source == rule.source && e.rule.starts_with(rule.text))
        {
            problems.push(format!(
                "{name}: expected `{}` ({}), got {failures:#?}",
                rule.text, rule.source
            ));
        }
        for e in &failures {
            assert!(e.routine.starts_with("kernel 0 `"), "{e}");
            if e.instruction.is_some() {
                assert!(!e.text.is_empty(), "{e}: the instruction's text");
            }
        }
        match intel_verdict(&shared, &bytes, name) {
            Some(Ok(v)) if v == expected => {}
            Some(Ok(v)) => problems.push(format!("{name}: Intel {v:?}, expected {expected:?}")),
            Some(Err(what)) => problems.push(format!("{name}: Intel's verifier {what}")),
            None => intel_missing = true,
        }
    }
    if intel_missing {
        assert!(
            std::env::var_os("CI").is_none(),
            "Intel's tools are missing and CI is set"
        );
        println!("Intel's verdicts skipped: intel-isa/GenX_IR missing (apt-get install -y libigc-tools intel-opencl-icd)");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
