//! What Intel's tools say, each on Intel's bytes: Intel's tools (`../shared/tools/intel-isa`) compile
//! and assemble small inputs at test time, and we check our reader, printer, assembler and
//! validator against what they wrote:
//! - platforms by Intel's names: every ocloc device's kernel checks clean for the platform its
//!   file names (a SKL kernel included), and `Platform::from_name` places each in the docs' order;
//! - 64-bit integer `shl`/`add`/`shr`/`asr` (errata `*-int64-types`) valid on PVC and SKL;
//! - `lsc_fence`: printed as Intel prints it, assembled to Intel's exec size byte 0x80;
//! - `addr_add ... &V0060[64] ...`: the byte offset, on PVC (64-byte registers) and DG2 (32);
//! - SCATTER/GATHER: the exec size is the element count of `Num_elts`;
//! - DPAS: `dpas.hf.hf.8.8 (M1, 16) ... V119(0,0)` reads and prints as Intel's.
//!
//! Nothing Intel wrote is committed: the inputs are here, the outputs are made on each run (in
//! a private `INTEL_ISA_WORK`). Without the tools the tests skip, and fail when `CI` is set.

#![cfg(not(family_absent))]

use std::path::{Path, PathBuf};
use std::process::Command;
use visa::asm::{assemble, assemble_for, render, Diagnostic, Options, Source};
use visa::object::text::print_kernel;
use visa::object::{File, Routine};
use visa::runtime::IntelPlatform;
use visa::{Instruction, Platform};

mod support;
use support::shared;

fn must_have(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}; CI is set: it must be present"
    );
    println!("skipped: {what}");
}

/// A scratch directory of this test, and `intel-isa`, or `None` (skipped) without the tools.
fn tools(test: &str) -> Option<(PathBuf, PathBuf)> {
    let script = shared()?.join("tools/intel-isa/intel-isa");
    let has = |tool: &str| Command::new(tool).arg("--help").output().is_ok();
    if !script.is_file() || !has("GenX_IR") || !has("ocloc") {
        must_have("Intel's tools (tools/intel-isa, GenX_IR, ocloc) are not installed");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("visa-intel-oracle-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Some((dir, script))
}

/// Runs `intel-isa ARGS` with a work directory of its own; `false` when Intel rejects.
fn intel(script: &Path, dir: &Path, args: &[&str]) -> bool {
    let out = Command::new(script)
        .args(args)
        .env("INTEL_ISA_WORK", dir.join("work"))
        .current_dir(dir)
        .output()
        .expect("intel-isa runs");
    out.status.success()
}

/// `intel-isa asm` of a kernel whose body is `body` (declarations in `decls`): Intel's file and
/// its print.
fn assembled(
    script: &Path,
    dir: &Path,
    name: &str,
    platform: &str,
    decls: &str,
    body: &str,
) -> (File, String) {
    let text = format!(
        ".version 4.1\n.kernel \"k\"\n{decls}.kernel_attr Target=\"3d\"\n.kernel_attr SimdSize=16\n.function \"_main_0\"\n_main_0:\n{body}    ret (M1, 1)\n"
    );
    let input = dir.join(format!("{name}.visaasm"));
    std::fs::write(&input, text).unwrap();
    let out = dir.join(format!("{name}-{platform}"));
    assert!(
        intel(
            script,
            dir,
            &[
                "asm",
                input.to_str().unwrap(),
                platform,
                out.to_str().unwrap()
            ]
        ),
        "Intel's assembler rejects {name} on {platform}"
    );
    read_pair(&out.join(format!("{name}.isa")))
}

fn read_pair(isa: &Path) -> (File, String) {
    let bytes = std::fs::read(isa).unwrap();
    let file = File::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", isa.display()));
    let text = std::fs::read_to_string(isa.with_extension("visaasm")).unwrap();
    (file, text)
}

/// Instruction lines of a text (`    ... /// $N`), trailing spaces dropped.
fn instruction_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("    ") && l.contains("/// $"))
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn instructions(f: &File) -> Vec<Instruction> {
    let s = f.kernels[0].data.instructions();
    assert!(
        s.stop.is_none(),
        "decoding stopped: {:?}",
        s.stop.as_ref().map(|s| s.describe())
    );
    s.instructions.iter().map(|(_, i)| i.clone()).collect()
}

/// Our print of Intel's file is Intel's print, line for line, with no problem and no note; our
/// assembly of Intel's print gives Intel's instructions.
fn exact(file: &File, intel_text: &str, what: &str) {
    let ours = print_kernel(file, 0).unwrap();
    assert_eq!(ours.problems, vec![], "{what}");
    assert_eq!(ours.notes, vec![], "{what}");
    assert_eq!(
        instruction_lines(&ours.text),
        instruction_lines(intel_text),
        "{what}"
    );
    let asm = assemble_as(file, intel_text, what);
    assert_eq!(
        instructions(&asm),
        instructions(file),
        "{what}: our assembly of Intel's text"
    );
}

/// Our assembly of `text` for the platform `file` names (as `GenX_IR -platform P`).
fn assemble_as(file: &File, text: &str, what: &str) -> File {
    let src = [Source { name: what, text }];
    let options = Options { instructions: true };
    let code = file
        .header
        .kernel_info
        .iter()
        .flat_map(|k| k.gen_binary_info.iter())
        .next()
        .map(|g| u32::from(g.gen_platform));
    let done: Result<File, Vec<Diagnostic>> = match code.and_then(IntelPlatform::from_gen_platform)
    {
        Some(p) => assemble_for(&src, options, p),
        None => assemble(&src, options),
    };
    done.unwrap_or_else(|d| panic!("{what}: {}", render(&d)))
}

/// `visa check` without `--platform` is clean: every routine validates (`File::validate`:
/// each instruction's doc, operands, declarations, type maps) for the platform the file names.
fn check_clean(file: &File, what: &str) -> Platform {
    let code = file.header.kernel_info[0].gen_binary_info[0].gen_platform;
    let p = Platform::from_gen_platform(u32::from(code))
        .unwrap_or_else(|| panic!("{what}: platform code {code}"));
    let failures: Vec<String> = file.validate(p).iter().map(|f| f.to_string()).collect();
    assert_eq!(failures, Vec::<String>::new(), "{what} ({})", p.name());
    p
}

/// As [`exact`], for a file Intel's compiler wrote: its bits the text cannot show (FENCE 0xa1
/// on SKL prints `fence_sw`) are noted, one note per such instruction, and our assembly of
/// Intel's print gives what Intel's assembler gives for it (`reassembled`).
fn as_intel(file: &File, intel_text: &str, reassembled: &File, what: &str) {
    let ours = print_kernel(file, 0).unwrap();
    assert_eq!(ours.problems, vec![], "{what}");
    assert_eq!(
        instruction_lines(&ours.text),
        instruction_lines(intel_text),
        "{what}"
    );
    let (a, b) = (instructions(file), instructions(reassembled));
    assert_eq!(a.len(), b.len(), "{what}");
    let lost = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert_eq!(ours.notes.len(), lost, "{what}: {:#?}", ours.notes);
    let asm = assemble_as(file, intel_text, what);
    assert_eq!(
        instructions(&asm),
        b,
        "{what}: our assembly of Intel's text against Intel's"
    );
}

#[test]
fn every_ocloc_device_checks_clean_for_the_platform_its_file_names() {
    let Some((dir, script)) = tools("devices") else {
        return;
    };
    // 64-bit shifts and adds, a local barrier (FENCE on SKL, lsc_fence on PVC).
    let cl = dir.join("k.cl");
    std::fs::write(
        &cl,
        "kernel void shifts(global ulong *a, global long *b, int n) {\n  size_t i = get_global_id(0);\n  a[i] = (a[i] << 2) + (a[i] >> (n & 63));\n  b[i] = b[i] >> 3;\n  barrier(CLK_LOCAL_MEM_FENCE);\n}\n",
    )
    .unwrap();
    // (ocloc device, GenX_IR name of the platform its files name, the docs' platform)
    for (device, intel_name, docs) in [
        ("skl", "SKL", "SKL"),
        ("icllp", "ICLLP", "ICLLP"),
        ("tgllp", "TGLLP", "TGLLP"),
        ("dg1", "TGLLP", "TGLLP"),
        ("acm-g10", "DG2", "DG2"),
        ("pvc", "PVCXT", "PVC_XT"),
    ] {
        let out = dir.join(device);
        assert!(
            intel(
                &script,
                &dir,
                &["ocl", cl.to_str().unwrap(), device, out.to_str().unwrap()]
            ),
            "ocloc {device}"
        );
        let (file, text) = read_pair(&out.join("shifts.isa"));
        let code = u32::from(file.header.kernel_info[0].gen_binary_info[0].gen_platform);
        assert_eq!(
            IntelPlatform::from_gen_platform(code).map(|p| p.name),
            Some(intel_name),
            "{device}"
        );
        assert_eq!(
            Platform::from_name(device).map(Platform::name),
            Some(docs),
            "{device}"
        );
        assert_eq!(
            Platform::from_name(intel_name).map(Platform::name),
            Some(docs),
            "{device}"
        );
        assert_eq!(check_clean(&file, device).name(), docs);
        // The 64-bit shift Intel writes where the hardware has it (errata `*-int64-types`;
        // ICL, TGL and DG2 get it emulated in 32 bits): `shl (M1, 16|32) ... 0x2:q`.
        if matches!(device, "skl" | "pvc") {
            assert!(text.contains(" 0x2:q "), "{device}: {text}");
        }
        let again = dir.join(format!("{device}-asm"));
        let printed = out.join("shifts.visaasm");
        assert!(
            intel(
                &script,
                &dir,
                &[
                    "asm",
                    printed.to_str().unwrap(),
                    intel_name,
                    again.to_str().unwrap()
                ]
            ),
            "GenX_IR {device}"
        );
        let (reassembled, _) = read_pair(&again.join("shifts.isa"));
        as_intel(&file, &text, &reassembled, device);
    }
}

#[test]
fn lsc_fence_prints_as_intel_and_assembles_to_exec_size_0x80() {
    let Some((dir, script)) = tools("lsc-fence") else {
        return;
    };
    let (file, text) = assembled(
        &script,
        &dir,
        "fence",
        "PVC",
        "",
        "    lsc_fence.slm.none.group\n    lsc_fence.ugm.evict.gpu\n",
    );
    let fences: Vec<_> = instructions(&file)
        .into_iter()
        .filter(|i| i.name() == "LSC_FENCE")
        .collect();
    assert_eq!(fences.len(), 2);
    for f in &fences {
        let mut bytes = Vec::new();
        f.encode(&mut bytes);
        assert_eq!(&bytes[..2], &[0x8b, 0x80], "Intel's exec size byte");
    }
    exact(&file, &text, "lsc_fence");
    // Another exec size: Intel's line still prints, with a note (the text cannot show it).
    let Instruction::LscFence(mut other) = fences[0].clone() else {
        unreachable!()
    };
    other.exec_size = 0x84;
    let mut line = String::new();
    assert!(Instruction::LscFence(other.clone())
        .print_text(&visa::runtime::text::IntelNames, &mut line)
        .is_err());
    Instruction::LscFence(other)
        .print_text_lossy(&visa::runtime::text::IntelNames, &mut line)
        .unwrap();
    assert_eq!(line, "lsc_fence.slm.none.group");
}

#[test]
fn scatter_and_gather_exec_size_is_the_element_count() {
    let Some((dir, script)) = tools("scatter") else {
        return;
    };
    let decls = ".decl V32 v_type=G type=ud num_elts=16 align=hword\n.decl V33 v_type=G type=ud num_elts=16 align=hword\n.decl T6 v_type=T num_elts=1 v_name=T006\n.input V32 offset=64 size=64\n.input T6 offset=128 size=4\n";
    // Num_elts: 0b00 8 elements, 0b01 16, 0b10 1; bits 7..4 the mask (M5 = 4).
    for (n, num_elts) in [(16, 0x41u8), (8, 0x40), (1, 0x42)] {
        for op in ["scatter", "gather"] {
            let name = format!("{op}{n}");
            let body = format!("    {op}.4 (M5, {n}) T6 0x0:ud V32.0 V33.0\n");
            let (file, text) = assembled(&script, &dir, &name, "DG2", decls, &body);
            let inst = instructions(&file)
                .into_iter()
                .find(|i| i.name() == op.to_uppercase())
                .unwrap();
            let mut bytes = Vec::new();
            inst.encode(&mut bytes);
            let at = if op == "scatter" { 2 } else { 3 };
            assert_eq!(bytes[at], num_elts, "{name}: {bytes:02x?}");
            exact(&file, &text, &name);
        }
    }
}

#[test]
fn dpas_reads_and_prints_as_intel() {
    let Some((dir, script)) = tools("dpas") else {
        return;
    };
    let decls = ".decl VDST v_type=G type=f num_elts=256 align=wordx32\n.decl VB v_type=G type=d num_elts=256 align=wordx32\n.decl VA v_type=G type=d num_elts=128 align=wordx32\n";
    for (platform, size, precisions) in [
        ("DG2", 8, &["hf", "bf", "s8", "u8", "u4", "s2"][..]),
        ("PVC", 16, &["hf", "bf", "s8", "u4", "tf32"][..]),
    ] {
        let body: String = precisions
            .iter()
            .map(|p| format!("    dpas.{p}.{p}.8.8 (M1, {size}) VDST.0 %null.0 VB.0 VA(0,0)\n"))
            .collect();
        let (file, text) = assembled(
            &script,
            &dir,
            &format!("dpas-{platform}"),
            platform,
            decls,
            &body,
        );
        assert!(
            text.contains(&format!(
                "dpas.hf.hf.8.8 (M1, {size}) VDST.0 %null.0 VB.0 VA(0,0) "
            )),
            "{text}"
        );
        exact(&file, &text, platform);
        check_clean(&file, platform);
    }
}

#[test]
fn int64_logic_of_the_errata_is_valid_where_intel_takes_it() {
    let Some((dir, script)) = tools("int64") else {
        return;
    };
    let Some(repo) = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .or_else(|| Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")))
    else {
        return;
    };
    let evidence = repo.join("errata/evidence/int64_logic.visaasm");
    if !evidence.is_file() {
        return must_have("errata/evidence not found (set VISA_REPO to the repository)");
    }
    for platform in ["SKL", "TGLLP", "DG2", "PVC"] {
        let out = dir.join(platform);
        assert!(intel(
            &script,
            &dir,
            &[
                "asm",
                evidence.to_str().unwrap(),
                platform,
                out.to_str().unwrap()
            ]
        ));
        let (file, text) = read_pair(&out.join("int64_logic.isa"));
        check_clean(&file, platform);
        exact(&file, &text, platform);
    }
}

#[test]
fn addr_add_byte_offsets_as_intel_prints_them() {
    let Some((dir, script)) = tools("addr-add") else {
        return;
    };
    // `addr_add (M5, 16) A3(0)<1> &V0060[64] V0111(0,16)<1;1,0>` (Intel's print on PVC): the
    // byte offset is row x register size + column x element size, so (1,0) on PVC and (2,0) on
    // DG2 for a `d` variable.
    let decls = ".decl V0060 v_type=G type=d num_elts=64 align=wordx32\n.decl V0061 v_type=G type=w num_elts=64 align=wordx32\n.decl V0111 v_type=G type=uw num_elts=32 align=hword\n.decl A3 v_type=A num_elts=16\n";
    let body = "    addr_add (M5, 16) A3(0)<1> &V0060[64] V0111(0,16)<1;1,0>\n    addr_add (M1, 16) A3(0)<1> &V0060[96] V0111(0,0)<1;1,0>\n    addr_add (M1, 16) A3(0)<1> &V0061[66] V0111(0,0)<1;1,0>\n    addr_add (M1, 16) A3(0)<1> &V0060 V0111(0,0)<1;1,0>\n";
    for (platform, rows) in [
        ("PVC", [(1, 0), (1, 8), (1, 1), (0, 0)]),
        ("DG2", [(2, 0), (3, 0), (2, 1), (0, 0)]),
    ] {
        let (file, text) = assembled(
            &script,
            &dir,
            &format!("addr-{platform}"),
            platform,
            decls,
            body,
        );
        assert!(text.contains("&V0060[64] V0111(0,16)<1;1,0>"), "{text}");
        let offsets: Vec<(u8, u8)> = instructions(&file)
            .iter()
            .filter_map(|i| match i {
                Instruction::AddrAdd(a) => match a.src0 {
                    visa::runtime::VectorOperand::General {
                        row_offset,
                        col_offset,
                        ..
                    } => Some((row_offset, col_offset)),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(offsets, rows, "{platform}");
        exact(&file, &text, platform);
    }
}

/// DP2, DP3, DP4, DPH and LINE (opcodes 0x04-0x07 and 0x0a), which no doc of the family
/// describes and the errata `*-undocumented-opcode.patch` add: Intel's assembler writes them on
/// every platform, with ADD's fields; we read Intel's bytes, print Intel's text, assemble it
/// back to Intel's instructions, and check the file clean.
#[test]
fn undocumented_opcodes_read_print_and_assemble_as_intels() {
    let Some((dir, script)) = tools("dp") else {
        return;
    };
    let decls = ".decl V32 v_type=G type=f num_elts=16 align=hword\n.decl V33 v_type=G type=f num_elts=16 align=hword\n.decl V34 v_type=G type=f num_elts=16 align=hword\n";
    let body = "    dp2 (M1, 16) V32(0,0)<1> V33(0,0)<1;1,0> V34(0,0)<1;1,0>\n    dp3 (M1, 16) V32(0,0)<1> V33(0,0)<1;1,0> V34(0,0)<1;1,0>\n    dp4.sat (M1, 8) V32(0,0)<1> (-)V33(0,0)<1;1,0> V34(0,0)<1;1,0>\n    dph (M5, 8) V32(0,8)<1> V33(0,8)<1;1,0> 0x3f800000:f\n    line (M1, 16) V32(0,0)<1> V33(0,0)<0;1,0> V34(0,0)<1;1,0>\n";
    for platform in ["SKL", "TGLLP", "DG2", "PVC"] {
        let (file, text) = assembled(
            &script,
            &dir,
            &format!("dp-{platform}"),
            platform,
            decls,
            body,
        );
        let names: Vec<&str> = instructions(&file).iter().map(|i| i.name()).collect();
        assert_eq!(
            names,
            ["SUBROUTINE", "DP2", "DP3", "DP4", "DPH", "LINE", "RET"],
            "{platform}"
        );
        check_clean(&file, platform);
        exact(&file, &text, platform);
    }
}

/// Conditions of Intel's verifier the chapters do not state (docs/crate.md, "Validation"), on Intel's
/// own bytes for TGLLP, DG2 and PVC:
/// - a raw operand need not be GRF-aligned in a variable smaller than one GRF (7 UD elements on
///   TGLLP and DG2, 15 on PVC: `V33.4` verifies), and must be in one of a GRF or more (Intel's
///   "Raw operand should be GRF-aligned", and our error);
/// - a message's raw destination may be a read-only predefined variable (`%thread_x.0`): our
///   warning, not an error;
/// - INV with integer operands verifies: our warning.
#[test]
fn raw_operands_and_integer_math_as_intels_verifier_checks_them() {
    let Some((dir, script)) = tools("raw-conds") else {
        return;
    };
    for platform in ["TGLLP", "DG2", "PVC"] {
        let grf_ud = if platform == "PVC" { 16 } else { 8 };
        let decls = format!(
            ".decl V32 v_type=G type=ud num_elts=64 align=hword\n.decl V33 v_type=G type=ud num_elts={} align=hword\n.decl V34 v_type=G type=ud num_elts=64 align=hword\n.decl V35 v_type=G type=d num_elts=16 align=hword\n",
            grf_ud - 1
        );
        let body = "    dword_atomic.add (M1_NM, 1) %slm V32.0 V33.4 %null.0 V34.0\n    dword_atomic.add (M1, 8) %slm V32.0 V34.0 %null.0 %thread_x.0\n    inv (M1, 16) V35(0,0)<1> V35(0,0)<1;1,0>\n";
        let (file, text) = assembled(
            &script,
            &dir,
            &format!("raw-{platform}"),
            platform,
            &decls,
            body,
        );
        exact(&file, &text, platform);
        let code = file.header.kernel_info[0].gen_binary_info[0].gen_platform;
        let p = Platform::from_gen_platform(u32::from(code)).expect("the file's platform");
        let failures = file.validate(p);
        let errors: Vec<String> = failures
            .iter()
            .filter(|f| f.is_error())
            .map(|f| f.to_string())
            .collect();
        assert_eq!(errors, Vec::<String>::new(), "{platform}");
        let warnings: Vec<&str> = failures
            .iter()
            .map(|f| f.rule.split(" (").next().unwrap_or(""))
            .collect();
        let expected: Vec<&str> = [
            visa::object::verify::rules::READ_ONLY_RAW,
            visa::object::verify::rules::TYPE_MAP_INTEGER_MATH,
        ]
        .iter()
        .map(|r| r.text.split(" (").next().unwrap_or(""))
        .collect();
        assert_eq!(warnings, expected, "{platform}");
        // V33 of one GRF: the same offset breaks Intel's rule and ours.
        let mut big = file.clone();
        big.kernels[0].data.var_info[1].num_elements = grf_ud;
        let bytes = big.write().expect("writes");
        let path = dir.join(format!("raw-big-{platform}.isa"));
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            !intel(&script, &dir, &["read", path.to_str().unwrap(), platform]),
            "Intel rejects V33.4 of {grf_ud} UD on {platform}"
        );
        let failures = File::parse(&bytes).expect("reads").validate(p);
        let aligned: Vec<_> = failures
            .iter()
            .filter(|f| f.is_error())
            .map(|f| f.rule.as_str())
            .collect();
        assert_eq!(aligned.len(), 1, "{platform}: {aligned:?}");
        assert!(
            aligned[0].starts_with(visa::object::verify::rules::RAW_ALIGNED.text),
            "{platform}: {aligned:?}"
        );
    }
}

/// The bits Intel's text cannot show, each class on Intel's bytes: `dis`
/// prints Intel's line with one note per such instruction, and our assembly of Intel's print
/// gives what GenX_IR gives for it:
/// - SVM_BLOCK_LD/ST Properties bit 7, which Intel's compiler sets (`svm_block_ld (4)` is 0x82)
///   and GenX_IR writes clear (errata `SVM_BLOCK_*-text-properties-slot`);
/// - a predicated SCATTER4_TYPED, whose predicate Intel's printer drops (erratum
///   `SCATTER4_TYPED-text-no-predicate`).
///
/// (FENCE 0xa1 on SKL, printed `fence_sw`, is in the SKL kernel of
/// `every_ocloc_device_checks_clean_for_the_platform_its_file_names`.)
#[test]
fn bits_the_text_cannot_show_are_noted_and_assembled_as_genx_ir_does() {
    let Some((dir, script)) = tools("noted") else {
        return;
    };
    // Sub-group block reads: SVM_BLOCK_LD on ICLLP, with bit 7 set (`svm_block_ld (4)` 0x82).
    let cl = dir.join("block.cl");
    std::fs::write(
        &cl,
        "#pragma OPENCL EXTENSION cl_intel_subgroups : enable\nkernel void block(global uint *a) {\n  uint x = intel_sub_group_block_read(a);\n  uint4 y = intel_sub_group_block_read4(a + 64);\n  intel_sub_group_block_write(a + 128, x + y.x + y.w);\n}\n",
    )
    .unwrap();
    let out = dir.join("icllp");
    assert!(
        intel(
            &script,
            &dir,
            &["ocl", cl.to_str().unwrap(), "icllp", out.to_str().unwrap()]
        ),
        "ocloc icllp"
    );
    let (file, text) = read_pair(&out.join("block.isa"));
    let again = dir.join("icllp-asm");
    assert!(
        intel(
            &script,
            &dir,
            &[
                "asm",
                out.join("block.visaasm").to_str().unwrap(),
                "ICLLP",
                again.to_str().unwrap()
            ]
        ),
        "GenX_IR ICLLP"
    );
    let (reassembled, _) = read_pair(&again.join("block.isa"));
    let flagged = |f: &File| -> Vec<u8> {
        instructions(f)
            .iter()
            .filter_map(|i| match i {
                Instruction::SvmBlockLd(x) => Some(x.properties.to_raw()),
                Instruction::SvmBlockSt(x) => Some(x.properties.to_raw()),
                _ => None,
            })
            .collect()
    };
    let (compiled, assembled_again) = (flagged(&file), flagged(&reassembled));
    assert!(
        !compiled.is_empty() && compiled.iter().all(|p| p & 0x80 != 0),
        "Intel's compiler sets bit 7: {compiled:02x?}"
    );
    assert!(
        assembled_again.iter().all(|p| p & 0x80 == 0),
        "GenX_IR writes it clear: {assembled_again:02x?}"
    );
    as_intel(&file, &text, &reassembled, "block on icllp");

    // A predicated SCATTER4_TYPED: Intel prints it without `(P1)`; GenX_IR's print assembles
    // with Pred 0.
    let decls = ".decl VUD v_type=G type=ud num_elts=512 align=GRF\n.decl VF v_type=G type=f num_elts=512 align=GRF\n.decl P1 v_type=P num_elts=16\n.decl T6 v_type=T num_elts=1\n";
    let body = "    (P1) scatter4_typed.R (M1, 8) T6 VUD.0 VUD.64 VUD.128 VUD.192 VF.256\n    scatter4_typed.RGBA (M1, 8) T6 VUD.0 VUD.64 VUD.128 VUD.192 VF.256\n";
    for platform in ["SKL", "DG2", "PVC"] {
        let (file, text) = assembled(
            &script,
            &dir,
            &format!("typed-{platform}"),
            platform,
            decls,
            body,
        );
        assert!(
            text.contains("    scatter4_typed.R (M1, 8) T6 VUD.0 VUD.64 VUD.128 VUD.192 VF.256 "),
            "{text}"
        );
        let printed = dir.join(format!("typed-{platform}-print.visaasm"));
        std::fs::write(&printed, &text).unwrap();
        let again = dir.join(format!("typed-{platform}-asm"));
        assert!(
            intel(
                &script,
                &dir,
                &[
                    "asm",
                    printed.to_str().unwrap(),
                    platform,
                    again.to_str().unwrap()
                ]
            ),
            "GenX_IR {platform}"
        );
        let (reassembled, _) = read_pair(&again.join(format!("typed-{platform}-print.isa")));
        let preds = |f: &File| -> Vec<u16> {
            instructions(f)
                .iter()
                .filter_map(|i| match i {
                    Instruction::Scatter4Typed(x) => Some(x.pred.0),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            preds(&file),
            [1, 0],
            "{platform}: Intel's assembler writes P1"
        );
        assert_eq!(
            preds(&reassembled),
            [0, 0],
            "{platform}: and its print drops it"
        );
        as_intel(&file, &text, &reassembled, platform);
    }
}
