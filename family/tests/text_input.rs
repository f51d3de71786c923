//! The `visa` tool reads vISA text wherever it reads an object file: `info`, `check`, `dis`,
//! `roundtrip` and `run` take Intel's `.visaasm` (with its functions' files beside it) and a
//! combined `.isaasm`, the platform from `--platform` or the text's `//Platform:` line.

#![cfg(not(family_absent))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

fn visa(args: &[&str]) -> Output {
    Command::new(support::visa_tool().expect("the visa tool is built"))
        .args(args)
        .output()
        .expect("the visa tool runs")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/modern/fixtures")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn info_check_and_roundtrip_read_intels_current_text() {
    let k = fixtures().join("bmg/calls/calls.visaasm");
    let k = k.to_str().unwrap();
    let o = visa(&["info", k]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    // The kernel and, from calls.func.fact.visaasm beside it, its function.
    assert!(
        out.starts_with(
            "vISA text for XE2: 2 file(s) assembled\nvISA 4.2: 1 kernel(s), 1 function(s)"
        ),
        "{out}"
    );
    let o = visa(&["check", k]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains(
            "checked for XE2 (PVC_XT in the docs) (the text's //Platform: line), 0 error(s)"
        ),
        "{out}"
    );
    let o = visa(&["roundtrip", k]);
    let (out, _) = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("calls.visaasm: identical (172 lines)"),
        "{out}"
    );
    assert!(
        out.contains("calls.func.fact.visaasm: identical (90 lines)"),
        "{out}"
    );
}

/// IGC 2.x writes multi-address sources with 32 addresses for NVL and XE3P_CRI, whose 32
/// address registers allow them (erratum 5_operands-04-multi-address-count); on PVC, with 16,
/// the same text is refused at the line that has one.
#[test]
fn thirty_two_addresses_check_on_xe3p_only() {
    let k = fixtures().join("nvl-p/subgroup_builtins/sg_math.visaasm");
    let k = k.to_str().unwrap();
    let o = visa(&["check", k]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains(", 0 error(s)"), "{out}");
    let o = visa(&["check", k, "--platform", "cri"]);
    assert!(o.status.success(), "{}", text(&o).0);
    let o = visa(&["check", k, "--platform", "PVC"]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("sg_math.visaasm:373:") && out.contains("32 address elements"),
        "{out}"
    );
}

/// `%sr0.1` is writable, `%sr0.0` is not (erratum 4_visa_header-08-sr0-read-only: IGC's verifier
/// takes sr0.1 from v2.15 on): Intel's current compiler writes sr0.1 on MTL for fp64 emulation
/// (`mov (M1_NM, 1) %sr0(0,1)<1> V0097(0,0)<0;1,0>`), and the same line writing sr0.0 is refused
/// at its line.
#[test]
fn sr0_1_is_writable_and_sr0_0_is_not() {
    const WRITE: &str = "mov (M1_NM, 1) %sr0(0,1)<1> ";
    let k = fixtures().join("mtl/double/double_float.visaasm");
    let src = std::fs::read_to_string(&k).unwrap();
    let o = visa(&["check", k.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(
        o.status.success() && out.contains(", 0 error(s)"),
        "{out}{err}"
    );
    let first = src.find(WRITE).expect("the fixture writes %sr0.1");
    let line = src[..first].matches('\n').count() + 1;
    let mut changed = src.clone();
    changed.replace_range(first..first + WRITE.len(), &WRITE.replace("(0,1)", "(0,0)"));
    let tmp = std::env::temp_dir().join(format!("visa-sr0-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let bad = tmp.join("double_float.visaasm");
    std::fs::write(&bad, changed).unwrap();
    let o = visa(&["check", bad.to_str().unwrap()]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!("double_float.visaasm:{line}:")),
        "{out}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// A combined text as IGC 2.x writes one (`CISA_IR_Builder::isaDump` with
/// `-dumpcombinedcisa`): each routine's text in turn, `.version` before the first only.
#[test]
fn a_combined_text_reads_and_prints_back_as_one_file() {
    let dir = fixtures().join("bmg/calls");
    let kernel = std::fs::read_to_string(dir.join("calls.visaasm")).unwrap();
    let func = std::fs::read_to_string(dir.join("calls.func.fact.visaasm")).unwrap();
    let (_, without_version) = func.split_once('\n').unwrap();
    let tmp = std::env::temp_dir().join(format!("visa-text-input-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let combined = tmp.join("calls.isaasm");
    std::fs::write(&combined, format!("{kernel}{without_version}")).unwrap();
    let c = combined.to_str().unwrap();
    let o = visa(&["roundtrip", c]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert_eq!(out, format!("{c}: identical (260 lines)\n"));
    let o = visa(&["info", c]);
    assert!(text(&o).0.contains("1 kernel(s), 1 function(s)"));
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn text_without_a_platform_line_needs_one_and_bad_text_says_where() {
    let tmp = std::env::temp_dir().join(format!("visa-text-bad-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let plain = tmp.join("k.visaasm");
    std::fs::write(
        &plain,
        ".version 4.1\n.kernel \"k\"\n.kernel_attr Target=\"3d\"\n    ret (M1, 1)\n",
    )
    .unwrap();
    let p = plain.to_str().unwrap();
    let o = visa(&["check", p]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o)
            .1
            .contains("the text names no platform (no `//Platform:` line); give --platform"),
        "{:?}",
        text(&o)
    );
    let o = visa(&["check", p, "--platform", "ptl"]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(
        text(&o).0.contains("checked for ptl (PVC_XT in the docs)"),
        "{:?}",
        text(&o)
    );
    let bad = tmp.join("bad.visaasm");
    std::fs::write(
        &bad,
        ".version 4.2\n.kernel \"k\"\n    frobnicate (M1, 1)\n//Platform: NOPE\n",
    )
    .unwrap();
    let o = visa(&["info", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o)
            .1
            .contains("`//Platform: NOPE` names no platform this tool knows"),
        "{:?}",
        text(&o)
    );
    std::fs::write(
        &bad,
        ".version 4.2\n.kernel \"k\"\n    frobnicate (M1, 1)\n",
    )
    .unwrap();
    let o = visa(&["info", bad.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("bad.visaasm:3:5"), "{err}");
    assert!(err.contains("expected an instruction mnemonic"), "{err}");
    std::fs::write(&bad, [0xff, 0xfe, 0x00]).unwrap();
    let o = visa(&["info", bad.to_str().unwrap()]);
    assert!(
        text(&o).1.contains("neither a vISA object file"),
        "{:?}",
        text(&o)
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn dis_prints_text_as_it_was_read() {
    let k = fixtures().join("ptl/arith_int/arith_int.visaasm");
    let o = visa(&["dis", k.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(o.stdout, std::fs::read(&k).unwrap());
}

/// A text with what the object file cannot hold (three cache levels of IGC 2.x on NVL) reads,
/// prints back, and is refused as a `.isa`, never written as a different file.
#[test]
fn three_cache_levels_print_back_and_are_no_object_file() {
    let k = fixtures().join("nvl-p/private_memory/private_memory.visaasm");
    let k = k.to_str().unwrap();
    let o = visa(&["roundtrip", k]);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = std::env::temp_dir().join(format!("visa-l2-{}.isa", std::process::id()));
    let o = visa(&["asm", k, "-o", out.to_str().unwrap(), "--no-check"]);
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    assert!(text(&o).1.contains("three cache levels"), "{:?}", text(&o));
    assert!(!out.exists());
}
