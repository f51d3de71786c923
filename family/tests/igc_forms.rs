//! Forms of documented opcodes that IGC 2.40's printer writes and no OpenCL kernel we have makes
//! it write (intel-graphics-compiler v2.40.13, `visa/IsaDisassembly.cpp`): every expected line
//! here is typed from that printer's code, not from ours. Each form assembles in a 4.2 kernel,
//! prints back exactly, checks on its platform; malformed lines are errors at their line and
//! column; what the docs' layouts have no field for (IFCALL's flags, LSC `.ov` and `.msaa`, a
//! paired resource, types past the 4-bit type field) is refused as an object file; `visa run`
//! runs what it can. Also here: the opcodes IGC reads and prints but never writes (BREAKPOINT,
//! RAW_SENDG), and 3D_SAMPLE4, whose 4.1 lines are GenX_IR 12504.6's own print.

#![cfg(not(family_absent))]

use visa::asm::{assemble_for, check, Diagnostic, Options, Source};
use visa::generated::sample4_3d::OpSamplerOperation;
use visa::machine::memory::Memory;
use visa::machine::{Kernel, ThreadInit};
use visa::object::text::print_kernel;
use visa::object::{File, Modifiers, Severity};
use visa::runtime::text::special::sampler_3d::GATHER4_OPERATIONS;
use visa::runtime::IntelPlatform;
use visa::runtime::RawOperand;
use visa::Platform;

/// A 4.2 kernel of IGC 2.x's layout on `platform` (GenX_IR's name) with the declarations
/// `decls` and the instruction lines `lines`, then `ret`.
fn kernel(platform: &str, decls: &str, lines: &[&str]) -> String {
    kernel_of("4.2", platform, decls, lines)
}

/// A kernel of `version` (`4.1`: IGC 12504.6's text, without trailer; `4.2`: IGC 2.x's, with
/// its `//Platform:` line).
fn kernel_of(version: &str, platform: &str, decls: &str, lines: &[&str]) -> String {
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    let tail = if version == "4.2" {
        format!("\n//Platform: {platform}\n")
    } else {
        String::new()
    };
    format!(
        ".version {version}\n\n.kernel \"k\"\n\n{decls}.kernel_attr Target=\"3d\"\n.kernel_attr SimdSize=16\n\n\
         .function \"_main_0\"\n_main_0:\n{body}    ret (M1, 1)\n{tail}"
    )
}

fn intel(platform: &str) -> &'static IntelPlatform {
    IntelPlatform::find(platform).expect("a platform")
}

fn assemble(platform: &str, text: &str) -> Result<File, Vec<Diagnostic>> {
    let src = [Source {
        name: "k.visaasm",
        text,
    }];
    assemble_for(&src, Options::default(), intel(platform))
}

/// The instruction lines of the printed kernel, without the layout's padding and ids, and
/// without the final `ret`.
fn printed(file: &File) -> Vec<String> {
    let p = print_kernel(file, 0).expect("the kernel prints");
    assert!(p.problems.is_empty(), "{:?}", p.problems);
    let mut lines: Vec<String> = p
        .text
        .lines()
        .filter_map(|l| {
            l.split_once(" /// $")
                .map(|(code, _)| code.trim().to_string())
        })
        .collect();
    assert_eq!(lines.pop().as_deref(), Some("ret (M1, 1)"));
    lines
}

/// Assembles `lines` on `platform`, prints them back exactly and checks them clean; the file.
fn round_trip(platform: &str, decls: &str, lines: &[&str]) -> File {
    round_trip_text(platform, &kernel(platform, decls, lines), lines)
}

/// [`round_trip`] of a kernel's `text` holding `lines`.
fn round_trip_text(platform: &str, text: &str, lines: &[&str]) -> File {
    let file = assemble(platform, text).unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(printed(&file), lines);
    let src = [Source {
        name: "k.visaasm",
        text,
    }];
    let p = Platform::from_name(platform).expect("a platform");
    let diags = check(&src, &file, p);
    assert!(diags.is_empty(), "{}", visa::asm::render(&diags));
    file
}

/// The one error of `line` in a kernel on `platform`: its 0-based column and message.
fn error_of(platform: &str, decls: &str, line: &str) -> (usize, String) {
    error_in(platform, &kernel(platform, decls, &[line]), line)
}

/// [`error_of`] in a kernel's `text` whose one instruction line is `line`.
fn error_in(platform: &str, text: &str, line: &str) -> (usize, String) {
    // 1-based: the line after `_main_0:`.
    let first = text.lines().position(|l| l == "_main_0:").expect("a label") + 2;
    let d = assemble(platform, text).expect_err(line);
    let errors: Vec<&Diagnostic> = d.iter().filter(|d| d.severity == Severity::Error).collect();
    assert_eq!(errors.len(), 1, "{line}: {d:#?}");
    assert_eq!(errors[0].line, first, "{line}");
    (errors[0].column - 4, errors[0].message.clone())
}

fn assert_error(platform: &str, decls: &str, line: &str, column: usize, says: &str) {
    let (c, message) = error_of(platform, decls, line);
    assert_eq!(c, column, "{line}: {message}");
    assert!(message.contains(says), "{line}: {message}");
}

/// The error kernel `k` of `file` stops with on one 16-lane thread of `platform`.
fn run_error(file: &File, platform: &str) -> String {
    let k = Kernel::new(file, "k", Platform::from_name(platform).unwrap()).expect("it loads");
    let init = ThreadInit {
        input: vec![0; 256],
        group_id: [0; 3],
        local_size: [16, 1, 1],
        lanes: 16,
    };
    let e = k
        .run_group(&[init], &mut Memory::default())
        .expect_err("the kernel does not run");
    e.to_string()
}

const IFCALL_DECLS: &str =
    ".decl V0033 v_type=G type=ud num_elts=16 align=hword\n.decl P1 v_type=P num_elts=16\n";

/// `printInstructionControlFlow`, case ISA_IFCALL: `ifcall`, `.uniform` for flag bit 0,
/// `.noreturn` for bit 1, ` `, the exec size, the function's address as a source operand with
/// its leading space, ` `, the argument size, ` `, the return size.
#[test]
fn ifcall_flags_print_back_and_are_no_object_file() {
    let lines = [
        "ifcall (M1, 1) V0033(0,0)<0;1,0> 1 1",
        "ifcall.uniform (M1, 1) V0033(0,0)<0;1,0> 1 1",
        "ifcall.noreturn (M1, 1) V0033(0,1)<0;1,0> 0 2",
        "(P1) ifcall.uniform.noreturn (M1, 16) V0033(0,0)<0;1,0> 2 0",
    ];
    let file = round_trip("PVC", IFCALL_DECLS, &lines);
    // Instruction 0 is the SUBROUTINE of `_main_0`.
    assert_eq!(
        file.text.kernels[0].modifiers,
        [
            (2, Modifiers::UNIFORM),
            (3, Modifiers::NORETURN),
            (4, Modifiers(Modifiers::UNIFORM.0 | Modifiers::NORETURN.0)),
        ]
    );
    let lost = file.text.unwritable();
    assert!(
        lost.iter()
            .any(|w| w.contains("`ifcall.uniform` or `.noreturn`")),
        "{lost:?}"
    );
    // `visa run` does not run IFCALL, with flags or without.
    let e = run_error(&file, "PVC");
    assert!(e.contains("IFCALL cannot run yet"), "{e}");
}

#[test]
fn ifcall_flags_out_of_place_are_errors_at_their_column() {
    let d = IFCALL_DECLS;
    // IGC's grammar (CISA.y) takes `.uniform`, `.noreturn`, `.uniform.noreturn` only.
    assert_error(
        "PVC",
        d,
        "ifcall.noreturn.uniform (M1, 1) V0033(0,0)<0;1,0> 1 1",
        16,
        "IGC's order",
    );
    assert_error(
        "PVC",
        d,
        "ifcall.uniform.uniform (M1, 1) V0033(0,0)<0;1,0> 1 1",
        15,
        "IGC's order",
    );
    assert_error(
        "PVC",
        d,
        "fcall.uniform (M1, 1) f 1 1",
        6,
        "`.uniform` only after `ifcall`",
    );
    assert_error(
        "PVC",
        d,
        "ifcall.noreturn.x (M1, 1) V0033(0,0)<0;1,0> 1 1",
        16,
        "end the mnemonic",
    );
    // After the words are taken out, an error of the rest is at its place in the line.
    assert_error(
        "PVC",
        d,
        "ifcall.uniform.noreturn (M1, 1) V0033(0,0)<0;1,0> 1",
        51,
        "",
    );
    assert_error(
        "PVC",
        d,
        "ifcall.uniform (M1, 1) V0033(0,0)<0;1,0> 1 1 7",
        45,
        "",
    );
}

const NBARRIER_DECLS: &str = ".decl V0034 v_type=G type=ub num_elts=32 align=hword\n";

/// `printInstructionCommon`, the ISA_NBARRIER branch: `.wait` and the id for Mode 0; for Mode 1
/// `.signal`, the id and operand 3 (the count); otherwise `.signal`, the id, the type and both
/// counts; each operand with its leading space (erratum NBARRIER-signal-forms-by-mode).
#[test]
fn nbarrier_forms_print_back_with_their_modes() {
    let lines = [
        "nbarrier.wait 0x1:ub",
        "nbarrier.wait V0034(0,0)<0;1,0>",
        "nbarrier.signal 0x1:ub 0x8:ub",
        "nbarrier.signal V0034(0,0)<0;1,0> V0034(0,1)<0;1,0>",
        "nbarrier.signal 0x1:ub 0x0:uw 0x8:ub 0x8:ub",
        "nbarrier.signal V0034(0,0)<0;1,0> 0x2:uw V0034(0,1)<0;1,0> V0034(0,2)<0;1,0>",
    ];
    let file = round_trip("PVC", NBARRIER_DECLS, &lines);
    // Modes 0, 0, 1, 1, 2, 2; the baseline signal's Type and Num_consumers (ignored) hold
    // `0x0:uw` (what IGC's builder writes for Type) and `0x0:ub`.
    let bytes = file.write().expect("an object file");
    let imm = |ty: u8, v: u8| [0x05, ty, v, 0, 0, 0];
    let (ub, uw) = (0x04, 0x02);
    let mut baseline = vec![0x60, 0x01];
    for (ty, v) in [(ub, 1), (uw, 0), (ub, 8), (ub, 0)] {
        baseline.extend(imm(ty, v));
    }
    assert!(
        bytes
            .windows(baseline.len())
            .any(|w| w == baseline.as_slice()),
        "no NBARRIER bytes {baseline:02x?}"
    );
    let modes: Vec<u8> = file.kernels[0].data.instructions.instructions[1..7]
        .iter()
        .map(|(_, inst)| {
            let mut b = Vec::new();
            inst.encode(&mut b);
            b[1]
        })
        .collect();
    assert_eq!(modes, [0, 0, 1, 1, 2, 2]);
    assert!(file.text.unwritable().is_empty());
    let e = run_error(&file, "PVC");
    assert!(e.contains("NBARRIER cannot run yet"), "{e}");
}

/// IGC 12504.6's text of the same forms (GenX_IR's reprint on PVC, vISA 4.1) reads and prints
/// back too.
#[test]
fn nbarrier_lines_of_igc_12504_read_and_print_back() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/intel/fixtures/asm/PVC/NBARRIER.visaasm");
    let text = std::fs::read_to_string(&path).expect("the fixture");
    let file = assemble("PVC", &text).unwrap_or_else(|d| panic!("{d:#?}"));
    let ours = print_kernel(&file, 0).expect("it prints").text;
    assert_eq!(ours, text);
}

#[test]
fn nbarrier_with_other_operand_counts_are_errors() {
    let d = NBARRIER_DECLS;
    assert_error(
        "PVC",
        d,
        "nbarrier.wait",
        13,
        "a space and the next operand",
    );
    assert_error("PVC", d, "nbarrier.signal 0x1:ub", 22, "");
    assert_error("PVC", d, "nbarrier.signal 0x1:ub 0x0:uw 0x8:ub", 36, "");
    // The mnemonic's word names no form: the error is at the mnemonic.
    assert_error("PVC", d, "nbarrier.go 0x1:ub", 0, "`.wait`");
}

const DPAS_DECLS: &str =
    ".decl VD v_type=G type=d num_elts=2048 align=GRF\n.decl P1 v_type=P num_elts=16\n";

/// `printInstructionMisc`, case ISA_DPAS, prints `printPredicate(...)`, which is empty for an
/// opcode `hasPredicate` (Common_ISA_util.cpp) refuses, DPAS among them; IGC's grammar reads a
/// predicate before `dpas` but its builder (`AppendVISADpasInstCommon`, "DPAS may not have
/// predicate") stops the compiler; DPASW and BDPAS alike. So `(P1) dpas` is refused here too,
/// at the predicate, and the line without it prints back.
#[test]
fn predicated_dpas_is_refused_as_igc_refuses_it() {
    let line = "dpas.hf.hf.8.8 (M1, 16) VD.0 VD.512 VD.1024 VD(48,0)";
    round_trip("PVC", DPAS_DECLS, &[line]);
    for p in ["(P1) ", "(!P1) ", "(P1.any) "] {
        let (column, message) = error_of("PVC", DPAS_DECLS, &format!("{p}{line}"));
        assert_eq!(column, 0, "{message}");
        assert!(message.contains("no predicate"), "{message}");
    }
    for line in [
        "(P1) dpasw.hf.hf.8.8 (M1, 8) VD.0 VD.512 VD.1024 VD(48,0)",
        // AppendVISABdpasInst: "BDPAS may not have predicate".
        "(P1) bdpas.hf.hf.8.8 (M1, 16) VD.0 VD.512 VD.1024 VD.1536 VD(48,0) VD(49,0)",
    ] {
        let (column, message) = error_of("PVC", DPAS_DECLS, line);
        assert_eq!(column, 0, "{message}");
        assert!(message.contains("no predicate"), "{message}");
    }
}

const LSC_DECLS: &str = ".decl V0040 v_type=G type=d num_elts=32 align=wordx32\n\
                         .decl V0041 v_type=G type=q num_elts=32 align=wordx32\n\
                         .decl V0042 v_type=G type=d num_elts=128 align=wordx32\n\
                         .decl V0043 v_type=G type=ud num_elts=1 align=dword\n\
                         .decl V0044 v_type=G type=d num_elts=32 align=wordx32\n\
                         .decl V0045 v_type=G type=d num_elts=32 align=wordx32\n";

/// `LscInstFormatter::formatUntypedSimple` prints the mnemonic, `.ugm`, the cache controls
/// unless all are `.df`, `.ov` when the overfetch byte is set, ` `, the exec size, two spaces,
/// the destination `name:d32`, two spaces, the address; `formatTyped` prints `.msaa` in the
/// same place and an atomic's destination, address (coordinates up to the first `%null`, `,`
/// apart) and both sources, two spaces apart.
#[test]
fn lsc_overfetch_and_msaa_print_back_and_are_no_object_file() {
    let lines = [
        "lsc_load.ugm.ov (M1, 16)  V0040:d32  flat[V0041]:a64",
        "lsc_load.ugm.ca.ca.ov (M1, 16)  V0040:d32  flat[V0041]:a64",
        "lsc_load_quad.ugm.ov (M1, 16)  V0042:d32.xyzw  flat[V0041]:a64",
        "lsc_atomic_iadd.tgm.msaa (M1, 16)  V0040:d32  bss(V0043)[V0044,V0045]:a32  V0040  %null",
        "lsc_atomic_iinc.tgm.uc.uc.msaa (M1, 16)  %null:d32  bss(V0043)[V0044]:a32  %null  %null",
    ];
    let file = round_trip("XE2", LSC_DECLS, &lines);
    let m = &file.text.kernels[0].modifiers;
    assert_eq!(m.len(), 5, "{m:?}");
    let lost = file.text.unwritable().join("; ");
    assert!(lost.contains("`.ov`") && lost.contains("`.msaa`"), "{lost}");
    // `.msaa` does not run: what it changes is not documented.
    let msaa = kernel("XE2", LSC_DECLS, &lines[3..4]);
    let e = run_error(&assemble("XE2", &msaa).unwrap(), "XE2");
    assert!(e.contains("`.msaa`") && e.contains("does not run"), "{e}");
}

#[test]
fn lsc_words_out_of_place_are_errors_at_their_column() {
    let d = LSC_DECLS;
    // IGC keeps `.ov` for untyped loads of ugm only; its grammar has none on stores.
    assert_error(
        "XE2",
        d,
        "lsc_store.ugm.ov (M1, 16)  flat[V0041]:a64  V0040:d32",
        14,
        "`.ov` only",
    );
    assert_error(
        "XE2",
        d,
        "lsc_load.slm.ov (M1, 16)  V0040:d32  flat[V0044]:a32",
        13,
        "`.ov` only",
    );
    assert_error(
        "XE2",
        d,
        "lsc_load.ugm.ov.ca.ca (M1, 16)  V0040:d32  flat[V0041]:a64",
        16,
        "end the mnemonic",
    );
    assert_error(
        "XE2",
        d,
        "lsc_atomic_iadd.ugm.msaa (M1, 16)  V0040:d32  flat[V0041]:a64  V0040  %null",
        20,
        "`.msaa` only",
    );
    // An error after the words taken out is at its column in the line as written.
    assert_error(
        "XE2",
        d,
        "lsc_load.ugm.ca.ca.ov (M1, 16)  V0040:d33  flat[V0041]:a64",
        38,
        "",
    );
}

/// `.ov` is a cache hint: a kernel's loads with it compute what they compute without it.
#[test]
fn overfetch_loads_run_as_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/modern/fixtures/bmg/arith_int");
    let text = std::fs::read_to_string(dir.join("arith_int.visaasm")).expect("the fixture");
    assert!(
        text.contains("lsc_load.ugm (M1, 32)"),
        "the fixture loads through ugm"
    );
    let ov = text.replace("lsc_load.ugm (M1, 32)", "lsc_load.ugm.ov (M1, 32)");
    let tmp = std::env::temp_dir().join(format!("visa-ov-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let a: Vec<u8> = (0..64i32)
        .flat_map(|i| (i * 7 - 100).to_le_bytes())
        .collect();
    let b: Vec<u8> = (0..64i32).flat_map(|i| (i * 3 + 1).to_le_bytes()).collect();
    let u: Vec<u8> = (0..64u32)
        .flat_map(|i| (i * 0x0101_0101).to_le_bytes())
        .collect();
    for (name, bytes) in [("a.bin", &a), ("b.bin", &b), ("u.bin", &u)] {
        std::fs::write(tmp.join(name), bytes).unwrap();
    }
    let mut outs = Vec::new();
    for (tag, src) in [("plain", &text), ("ov", &ov)] {
        let k = tmp.join(format!("{tag}.visaasm"));
        std::fs::write(&k, src).unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_visa"))
            .current_dir(&tmp)
            .args([
                "run",
                k.to_str().unwrap(),
                "--program",
                dir.join("arith_int.bin").to_str().unwrap(),
                "--kernel",
                "arith_int",
                "--global",
                "64",
                "--buffer",
                &format!("a.bin:{tag}.a"),
                "--buffer",
                &format!("b.bin:{tag}.b"),
                "--buffer",
                &format!("u.bin:{tag}.u"),
                "--scalar",
                "i32:5",
            ])
            .output()
            .expect("visa runs");
        assert!(
            o.status.success(),
            "{tag}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        outs.push((
            std::fs::read(tmp.join(format!("{tag}.a"))).unwrap(),
            std::fs::read(tmp.join(format!("{tag}.u"))).unwrap(),
        ));
    }
    assert_eq!(outs[0], outs[1]);
    assert_ne!(outs[0].0, a, "the kernel wrote its output");
    std::fs::remove_dir_all(&tmp).unwrap();
}

const SAMPLER_DECLS: &str = ".decl V0033 v_type=G type=f num_elts=32 align=hword\n\
                             .decl V0034 v_type=G type=d num_elts=32 align=hword\n\
                             .decl V0035 v_type=G type=f num_elts=64 align=hword\n\
                             .decl V0036 v_type=G type=ud num_elts=16 align=hword\n";

/// `printInstructionSampler`, cases ISA_3D_SAMPLE and ISA_3D_LOAD: the operation and the
/// channels, ` `, the exec size, ` `, then each operand with its leading space: Aoffimmi,
/// ` S<n>` (3D_SAMPLE), the surface, the destination, the paired resource (`printRawOperand`:
/// `name.offset`), the parameters.
#[test]
fn paired_resources_print_back_and_do_not_run() {
    let lines = [
        "sample_lz.RGBA (M1, 16)  0x0:uw S31 %bss V0035.0 V0036.0 V0033.0 V0033.64",
        "load_lz.RGBA (M1, 16)  0x0:uw %bss V0035.0 V0036.32 V0034.0 V0034.64",
        "sample_lz.R (M1, 16)  0x0:uw S31 %bss V0035.0 %null.0 V0033.0 V0033.64",
    ];
    let file = round_trip("MTL", SAMPLER_DECLS, &lines);
    assert_eq!(
        file.text.kernels[0].paired_resources,
        [
            // V0036 is the fourth variable declared: id 35 (V32 is the first).
            (1, RawOperand { id: 35, offset: 0 }),
            (2, RawOperand { id: 35, offset: 32 })
        ]
    );
    let lost = file.text.unwritable().join("; ");
    assert!(lost.contains("paired resource other than %null"), "{lost}");
    let e = run_error(&file, "MTL");
    assert!(
        e.contains("paired resource other than %null") && e.contains("does not run"),
        "{e}"
    );
    // In IGC 12504.6's text (vISA 4.1) the word after the destination is the first parameter.
    let old = kernel("MTL", SAMPLER_DECLS, &lines[..1]).replace(".version 4.2", ".version 4.1");
    let file = assemble("MTL", &old).unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(file
        .text
        .kernels
        .iter()
        .all(|t| t.paired_resources.is_empty()));
}

#[test]
fn a_paired_resource_that_is_no_raw_operand_is_an_error() {
    // IGC's grammar: a raw operand, and `%null` only at offset 0 ("%null must have 0 as
    // offset", CISA.y RawOperand).
    for paired in ["V0036(0,0)<1;1,0>", "V0099.0", "%null.32"] {
        let line = format!("load_lz.RGBA (M1, 16)  0x0:uw %bss V0035.0 {paired} V0034.0");
        assert_error("MTL", SAMPLER_DECLS, &line, 43, "");
    }
    let (_, message) = error_of(
        "MTL",
        SAMPLER_DECLS,
        "load_lz.RGBA (M1, 16)  0x0:uw %bss V0035.0 %null.32 V0034.0",
    );
    assert!(message.contains("paired resource"), "{message}");
}

/// `breakpoint` (erratum BREAKPOINT-undocumented-opcode): the bare word
/// (`printInstructionMisc`, case ISA_BREAKPOINT), opcode 0x94 and no operands
/// (`IsaDescription.cpp`), so its encoding is the one byte 0x94. IGC's code generators never
/// write it (`CEncoder::AppendBreakpoint` has no caller).
#[test]
fn breakpoint_reads_and_prints_back() {
    let decls = ".decl V0033 v_type=G type=ud num_elts=16 align=hword\n";
    let lines = [
        "mov (M1, 16) V0033(0,0)<1> 0x1:ud",
        "breakpoint",
        "add (M1, 16) V0033(0,0)<1> V0033(0,0)<1;1,0> 0x1:ud",
    ];
    round_trip("XE3P_CRI", decls, &lines);
    round_trip("TGLLP", decls, &lines);
    let inst = visa::parse_instruction("breakpoint", &visa::runtime::text::NameTable::new());
    let mut bytes = Vec::new();
    inst.unwrap().encode(&mut bytes);
    assert_eq!(bytes, [0x94]);
    assert_error("XE3P_CRI", decls, "breakpoint (M1, 1)", 11, "");
}

const SENDG_DECLS: &str = ".decl V0033 v_type=G type=ud num_elts=64 align=wordx32\n\
    .decl V0034 v_type=G type=uq num_elts=1 align=qword\n\
    .decl V0035 v_type=G type=uq num_elts=1 align=qword\n\
    .decl V0061 v_type=G type=ud num_elts=64 align=wordx32\n\
    .decl V0062 v_type=G type=ud num_elts=32 align=wordx32\n";

/// `raw_sendg` (erratum RAW_SENDG-undocumented-opcode), as `printInstructionMisc` (case
/// ISA_RAW_SENDG) writes it: `raw_sendg`, `raw_sendg_eot`, `raw_sendgc` or `raw_sendgc_eot` by
/// the modifier's bits 1 (EoT) and 0 (conditional), `.0x` and the SFID in upper-case
/// hexadecimal, ` ` and the exec size, each raw operand with its leading space then `/` and its
/// size in bytes, the two indirect operands, ` 0x` and the 64-bit descriptor in upper-case
/// hexadecimal.
#[test]
fn raw_sendg_reads_and_prints_back() {
    let lines = [
        "raw_sendg.0xE (M1, 32) V0061.0/256 V0062.0/128 %null.0/0 V0034(0,0)<0;1,0> V0035(0,0)<0;1,0> 0x2000000A",
        "raw_sendgc.0xF (M1_NM, 16) V0033.0/64 V0062.0/64 V0061.0/64 0x0:uq 0x0:uq 0x0",
        "raw_sendg_eot.0x3 (M1_NM, 1) %null.0/0 V0033.0/64 %null.0/0 0x0:uq 0x0:uq 0xC2",
        "raw_sendgc_eot.0x0 (M1, 32) %null.0/0 V0062.0/128 V0061.0/128 V0034(0,0)<0;1,0> 0x0:uq 0xFFFFFFFF00000001",
    ];
    round_trip("XE3P_CRI", SENDG_DECLS, &lines);

    // The bytes in IGC's operand order (IsaDescription.cpp): opcode 0x93, Modifiers, Exec_size
    // (M1 and 32 elements: 0x05), SFID as a ud, Pred as a uw, each raw operand (a ud variable
    // id and a uw offset) and its size as a ud, the indirect operands, then the descriptor's
    // low and high ud: the bytes of one little-endian uq.
    let mut names = visa::runtime::text::NameTable::new();
    for id in [33, 34, 35, 61, 62] {
        names.declare_general(id, format!("V{id:04}"));
    }
    let bytes = |line: &str| {
        let mut b = Vec::new();
        visa::parse_instruction(line, &names)
            .unwrap()
            .encode(&mut b);
        b
    };
    let b = bytes(lines[0]);
    assert_eq!(b[..9], [0x93, 0x00, 0x05, 0x0e, 0, 0, 0, 0, 0]);
    assert_eq!(b[9..19], [61, 0, 0, 0, 0, 0, 0, 1, 0, 0], "V0061.0 and 256");
    assert_eq!(b[b.len() - 8..], [0x0a, 0, 0, 0x20, 0, 0, 0, 0]);
    assert_eq!(
        bytes(lines[2])[..9],
        [0x93, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0]
    );
    let b = bytes(lines[3]);
    assert_eq!(b[1], 0x03, "conditional and EoT");
    assert_eq!(b[b.len() - 8..], [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    // Lower-case digits read too, and print upper case as IGC prints them.
    let lower = lines[0].replace("0x2000000A", "0x2000000a");
    let mut back = String::new();
    let inst = visa::parse_instruction(&lower, &names).unwrap();
    inst.print_text(&names, &mut back).unwrap();
    assert_eq!(back, lines[0]);
    // A size is glued to its operand by `/`: `raw_sendgc.0xF (M1_NM, 16) V0033.0` is 34
    // characters, and the space after it is no `/`.
    let spaced = lines[1].replace("V0033.0/64", "V0033.0 /64");
    assert_error("XE3P_CRI", SENDG_DECLS, &spaced, 34, "`/`");
}

/// Variables of IGC 2.x's types `tf32`, `hf8`, `bf8` and `e2m1` (`visa_igc_common_header.h`
/// codes 0x10-0x13, `CISATypeTable` names) read and print back; the docs lack the types, so the
/// variables hold the docs' types of their values (FCVT.md: TF32 as UD; SRND.md: HF8 as B,
/// BF8 as UB) and an object file, whose type field has 4 bits, cannot hold them.
#[test]
fn types_the_docs_lack_read_and_are_no_object_file() {
    let decls = ".decl V0033 v_type=G type=ud num_elts=32 align=wordx32\n\
        .decl V0034 v_type=G type=tf32 num_elts=32 align=wordx32\n\
        .decl V0035 v_type=G type=hf8 num_elts=64 align=wordx32\n\
        .decl V0036 v_type=G type=bf8 num_elts=64 align=wordx32\n\
        .decl V0037 v_type=G type=e2m1 num_elts=64 align=wordx32\n";
    let lines = [
        "mov (M1, 32) V0034(0,0)<1> V0033(0,0)<1;1,0>",
        "mov (M1, 32) V0035(0,0)<1> V0033(0,0)<1;1,0>",
    ];
    let file = round_trip("XE3P_CRI", decls, &lines);
    let text = print_kernel(&file, 0).unwrap().text;
    for d in decls.lines() {
        assert!(text.contains(d), "{d}\n{text}");
    }
    let held: Vec<u8> = file.kernels[0].data.var_info[1..]
        .iter()
        .map(|v| v.bit_properties & 0xf)
        .collect();
    // UD 0, B 5, UB 4, UB 4 (2_datatypes.md's binary formats).
    assert_eq!(held, [0, 5, 4, 4]);
    let lost = file.text.unwritable();
    assert!(
        lost.iter().any(|w| w.contains("tf32, hf8, bf8 or e2m1")),
        "{lost:?}"
    );

    // IGC's lexer takes the upper-case names too; IGC prints lower case.
    let upper = kernel("XE3P_CRI", &decls.replace("type=hf8", "type=HF8"), &lines);
    let file = assemble("XE3P_CRI", &upper).unwrap();
    assert!(print_kernel(&file, 0).unwrap().text.contains("type=hf8 "));
    // Mixed case is no name of IGC's: an error at the word, column 26 (0-based) of the line.
    let mixed = kernel("XE3P_CRI", &decls.replace("type=bf8", "type=Bf8"), &lines);
    let d = assemble("XE3P_CRI", &mixed).expect_err("Bf8");
    let line = mixed.lines().position(|l| l.contains("Bf8")).unwrap() + 1;
    assert_eq!((d[0].line, d[0].column), (line, 26), "{d:#?}");
    assert!(d[0].message.contains("e2m1"), "{}", d[0].message);
}

// 3D_SAMPLE4 (`gather4`) in text: IGC's operation names against the doc's (with its erratum),
// lines in IGC 12504.6's and IGC 2.x's text, malformed lines, and `visa run`'s refusal by name.
// Intel's bytes and print of every line GenX_IR 12504.6 takes are
// `tests/intel/fixtures/asm/<PLATFORM>/3D_SAMPLE4*` (checked by `intel_fixtures.rs`).

const SAMPLE4_DECLS: &str = ".decl V0033 v_type=G type=f num_elts=64 align=hword\n\
                     .decl V0034 v_type=G type=d num_elts=32 align=hword\n\
                     .decl V0035 v_type=G type=f num_elts=64 align=hword\n\
                     .decl V0036 v_type=G type=ud num_elts=16 align=hword\n\
                     .decl P1 v_type=P num_elts=16\n\
                     .decl S0 v_type=S num_elts=1\n\
                     .decl T6 v_type=T num_elts=1\n";

#[test]
fn igc_names_are_the_docs_operations() {
    // IGC's `sample4...` is the doc's `gather4...`, value for value (erratum
    // 3D_SAMPLE4-op-bias-and-instruction-values swaps the doc's gather4_b and gather4_i).
    assert_eq!(GATHER4_OPERATIONS.len(), OpSamplerOperation::ALL.len());
    for op in OpSamplerOperation::ALL {
        let igc = GATHER4_OPERATIONS
            .iter()
            .find(|(v, _)| *v == *op as u8)
            .map(|(_, n)| n.replacen("sample4", "gather4", 1));
        assert_eq!(igc.as_deref(), Some(op.meaning()), "{op:?}");
    }
}

#[test]
fn lines_of_both_texts_print_back_and_check() {
    // GenX_IR 12504.6's reprint (tests/intel/fixtures/asm/TGLLP/3D_SAMPLE4.visaasm), with
    // this kernel's variables; then the operations only IGC 2.x's lexer takes.
    let lines = [
        "sample4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0 V0035.64",
        "sample4_c.pixel_null_mask.G (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0 V0035.64",
        "sample4_po.A (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0 V0035.64 V0034.0 V0034.64",
        "(P1) sample4_b.B (M5, 8) 0x123:uw S0 T6 V0033.0 V0035.0 V0035.64 V0035.128",
        "sample4_i.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
        "sample4_po_l_c.A (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0 V0035.64 V0035.128 V0035.192",
    ];
    let file = round_trip_text(
        "TGLLP",
        &kernel_of("4.1", "TGLLP", SAMPLE4_DECLS, &lines),
        &lines,
    );
    assert!(file
        .text
        .kernels
        .iter()
        .all(|t| t.paired_resources.is_empty()));
    // IGC 2.x: the paired resource after the destination, `%null.0` or another (text only).
    let lines = [
        "sample4.R (M1, 16) 0x0:uw S0 T6 V0033.0 %null.0 V0035.0 V0035.64",
        "sample4_l.G (M1, 16) 0x0:uw S31 %bss V0033.0 V0036.0 V0035.0 V0035.64",
    ];
    let file = round_trip_text(
        "MTL",
        &kernel_of("4.2", "MTL", SAMPLE4_DECLS, &lines),
        &lines,
    );
    assert_eq!(
        file.text.kernels[0].paired_resources,
        [(2, RawOperand { id: 35, offset: 0 })]
    );
}

/// The one error of `line` in a 4.1 kernel on TGLLP: its 0-based column and message.
fn sample4_error(line: &str) -> (usize, String) {
    error_in(
        "TGLLP",
        &kernel_of("4.1", "TGLLP", SAMPLE4_DECLS, &[line]),
        line,
    )
}

#[test]
fn malformed_lines_are_errors_at_their_column() {
    for (line, column, says) in [
        (
            "sample4.RG (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
            8,
            "one source channel",
        ),
        (
            "sample4.cps.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
            8,
            "one source channel",
        ),
        (
            "sample4.R (M1, 16) 0x0:uw T6 V0033.0 V0035.0",
            26,
            "sampler",
        ),
        (
            "sample4.R (M1, 16) 0x0:uw S0 S0 V0033.0 V0035.0",
            29,
            "surface",
        ),
        ("sample4.R (M1, 16) 0x0:uw S0 T6", 31, ""),
        (
            "sample4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0x",
            46,
            "byte offset",
        ),
        ("sample4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0099.0", 40, ""),
    ] {
        let (c, message) = sample4_error(line);
        assert_eq!(c, column, "{line}: {message}");
        assert!(message.contains(says), "{line}: {message}");
    }
    // The doc's words are no mnemonic of Intel's text.
    for line in [
        "gather4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
        "SAMPLE4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
    ] {
        assert_eq!(sample4_error(line).0, 0, "{line}");
    }
}

#[test]
fn visa_run_refuses_gather4_by_name() {
    let lines = ["sample4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0 V0035.64"];
    let text = kernel_of("4.1", "TGLLP", SAMPLE4_DECLS, &lines);
    let file = round_trip_text("TGLLP", &text, &lines);
    let e = run_error(&file, "TGLLP");
    assert!(e.contains("3D_SAMPLE4"), "{e}");
}
