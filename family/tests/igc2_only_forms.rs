//! Forms Intel's current compiler (IGC 2.x) reads and prints but no compiled kernel holds:
//! its code generators never write them, so the lines here are typed from IGC's printer
//! (`visa/IsaDisassembly.cpp`) and put into a kernel it wrote. Each reads, prints back
//! exactly and checks; what an object file cannot hold is refused as a `.isa`.

#![cfg(not(family_absent))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn visa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_visa"))
        .args(args)
        .output()
        .expect("the visa tool runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Intel's text of kernel `lfsr` for XE3P_CRI (`tests/modern/kernels/xe3p_builtins.cl`).
fn cri_kernel() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/modern/fixtures/cri/xe3p_builtins/lfsr.visaasm");
    std::fs::read_to_string(p).expect("the committed fixture")
}

/// One instruction line as IGC prints it: four spaces, the instruction padded to 76
/// columns, then its number (`/// $n`).
fn numbered(body: &str, n: usize) -> String {
    format!("    {body:<76} /// ${n}")
}

/// `src` with `lines` inserted after its instruction number `after`, the instructions
/// numbered again from 1.
fn with_lines(src: &str, after: usize, lines: &[&str]) -> String {
    let mut out = Vec::new();
    let mut n = 0;
    for l in src.split('\n') {
        let Some(at) = l.find("/// $") else {
            out.push(l.to_string());
            continue;
        };
        n += 1;
        out.push(numbered(l[..at].trim(), n));
        if n == after {
            for body in lines {
                n += 1;
                out.push(numbered(body, n));
            }
        }
    }
    out.join("\n")
}

/// Writes `src` as `name` in a fresh directory of its own.
fn written(name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("visa-igc2-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    path
}

/// `roundtrip` prints the file back identical and `check` finds no error.
fn reads_prints_back_and_checks(path: &Path) {
    let p = path.to_str().unwrap();
    let o = visa(&["roundtrip", p]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(": identical ("), "{}", text(&o));
    let o = visa(&["check", p]);
    assert!(
        o.status.success() && text(&o).contains(", 0 error(s)"),
        "{}",
        text(&o)
    );
}

/// `breakpoint` (BREAKPOINT-undocumented-opcode): the bare word, opcode 0x94 and no operands
/// (IGC's IsaDescription.cpp), so its encoding is the one byte 0x94.
#[test]
fn breakpoint_reads_and_prints_back() {
    let src = with_lines(&cri_kernel(), 8, &["breakpoint"]);
    assert!(src.contains("    breakpoint     "));
    let path = written("breakpoint.visaasm", &src);
    reads_prints_back_and_checks(&path);
    let inst = visa::parse_instruction("breakpoint", &visa::runtime::text::NameTable::new()).unwrap();
    let mut bytes = Vec::new();
    inst.encode(&mut bytes);
    assert_eq!(bytes, [0x94]);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}
