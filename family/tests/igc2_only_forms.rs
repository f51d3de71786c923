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
    let inst =
        visa::parse_instruction("breakpoint", &visa::runtime::text::NameTable::new()).unwrap();
    let mut bytes = Vec::new();
    inst.encode(&mut bytes);
    assert_eq!(bytes, [0x94]);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

/// `src` with `decls` after its last general variable's declaration.
fn with_decls(src: &str, decls: &[&str]) -> String {
    let last = src.rfind("\n.decl V").expect("a general variable");
    let end = last + 1 + src[last + 1..].find('\n').unwrap();
    format!("{}\n{}{}", &src[..end], decls.join("\n"), &src[end..])
}

/// Variables of IGC 2.x's types `tf32`, `hf8`, `bf8` and `e2m1` (`visa_igc_common_header.h`
/// codes 0x10-0x13, `CISATypeTable` names) read and print back; the docs lack the types, so the
/// variables hold the docs' types of their values (FCVT.md: TF32 as UD; SRND.md: HF8 as B,
/// BF8 as UB) and an object file, whose type field has 4 bits, cannot hold them.
#[test]
fn types_the_docs_lack_read_and_are_no_object_file() {
    let decls = [
        ".decl V0085 v_type=G type=tf32 num_elts=32 align=wordx32",
        ".decl V0086 v_type=G type=hf8 num_elts=64 align=wordx32",
        ".decl V0087 v_type=G type=bf8 num_elts=64 align=wordx32",
        ".decl V0088 v_type=G type=e2m1 num_elts=64 align=wordx32",
    ];
    let src = with_decls(&cri_kernel(), &decls);
    let src = with_lines(
        &src,
        8,
        &[
            "mov (M1, 32) V0085(0,0)<1> V0063(0,0)<1;1,0>",
            "mov (M1, 32) V0086(0,0)<1> V0063(0,0)<1;1,0>",
        ],
    );
    let path = written("types.visaasm", &src);
    reads_prints_back_and_checks(&path);
    let p = path.to_str().unwrap();
    let o = visa(&["info", p]);
    assert!(o.status.success(), "{}", text(&o));

    // IGC's lexer takes the upper-case names too; IGC prints lower case.
    let upper = written("upper.visaasm", &src.replace("type=hf8", "type=HF8"));
    let o = visa(&["dis", upper.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), src);

    // `.decl V0087 v_type=G type=` is 26 characters: the word is at column 27.
    let line = src.lines().position(|l| l.contains("type=bf8")).unwrap() + 1;
    let mixed = written("mixed.visaasm", &src.replace("type=bf8", "type=Bf8"));
    let o = visa(&["check", mixed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("mixed.visaasm:{line}:27")) && text(&o).contains("e2m1"),
        "{}",
        text(&o)
    );

    let out = path.with_extension("isa");
    let o = visa(&["asm", p, "-o", out.to_str().unwrap(), "--no-check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("tf32, hf8, bf8 or e2m1"), "{}", text(&o));
    assert!(!out.exists());
    for f in [&path, &upper, &mixed] {
        std::fs::remove_dir_all(f.parent().unwrap()).unwrap();
    }
}

/// `raw_sendg` (RAW_SENDG-undocumented-opcode): the four mnemonics of the two modifier bits,
/// `.0x` and the SFID, raw operands each with `/` and its size in bytes, the two indirect
/// operands and the 64-bit descriptor, hexadecimal digits in upper case (IGC's
/// printInstructionMisc).
#[test]
fn raw_sendg_reads_and_prints_back() {
    let lines = [
        "raw_sendg.0xE (M1, 32) V0061.0/256 V0062.0/128 %null.0/0 V0034(0,0)<0;1,0> V0035(0,0)<0;1,0> 0x2000000A",
        "raw_sendgc.0xF (M1_NM, 16) V0063.0/64 V0062.0/64 V0080.0/64 0x0:uq 0x0:uq 0x0",
        "raw_sendg_eot.0x3 (M1_NM, 1) %null.0/0 V0033.0/64 %null.0/0 0x0:uq 0x0:uq 0xC2",
        "raw_sendgc_eot.0x0 (M1, 32) %null.0/0 V0062.0/128 V0081.0/128 V0034(0,0)<0;1,0> 0x0:uq 0xFFFFFFFF00000001",
    ];
    let path = written("raw_sendg.visaasm", &with_lines(&cri_kernel(), 8, &lines));
    reads_prints_back_and_checks(&path);
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();

    // The bytes of IGC's operand order (IsaDescription.cpp): opcode 0x93, Modifiers (bit 0
    // conditional, bit 1 EoT), Exec_size (M1, 32 elements: 0x05), SFID as a ud, Pred as a uw,
    // then the operands and sizes, and the descriptor's low and high ud (one little-endian uq).
    let mut names = visa::runtime::text::NameTable::new();
    for id in [33, 34, 35, 61, 62, 63, 80, 81] {
        names.declare_general(id, format!("V{id:04}"));
    }
    let inst = visa::parse_instruction(lines[0], &names).unwrap();
    let mut bytes = Vec::new();
    inst.encode(&mut bytes);
    assert_eq!(bytes[..9], [0x93, 0x00, 0x05, 0x0e, 0, 0, 0, 0, 0]);
    assert_eq!(
        bytes[9..19],
        [61, 0, 0, 0, 0, 0, 0, 1, 0, 0],
        "V0061.0 and 256"
    );
    assert_eq!(bytes[bytes.len() - 8..], [0x0a, 0, 0, 0x20, 0, 0, 0, 0]);
    let inst = visa::parse_instruction(lines[2], &names).unwrap();
    let mut bytes = Vec::new();
    inst.encode(&mut bytes);
    assert_eq!(bytes[..9], [0x93, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0]);
    let inst = visa::parse_instruction(lines[3], &names).unwrap();
    let mut bytes = Vec::new();
    inst.encode(&mut bytes);
    assert_eq!(bytes[1], 0x03, "conditional and EoT");
    assert_eq!(
        bytes[bytes.len() - 8..],
        [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]
    );
    // IGC's reader takes the SFID as `.0xE` and its printer writes nothing else; lower-case
    // hexadecimal digits read too, and print upper case.
    let lower = visa::parse_instruction(&lines[0].replace("0x2000000A", "0x2000000a"), &names);
    let mut back = String::new();
    lower.unwrap().print_text(&names, &mut back).unwrap();
    assert_eq!(back, lines[0]);
}
