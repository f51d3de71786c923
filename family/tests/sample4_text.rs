//! 3D_SAMPLE4 (`gather4`) in text: IGC's operation names against the doc's (with its erratum),
//! lines in IGC 12504.6's and IGC 2.x's text read and print back exactly and check clean,
//! malformed lines are errors at their line and column, and `visa run` refuses the
//! instruction by name. Intel's bytes and print of every line GenX_IR 12504.6 takes are
//! `tests/intel/fixtures/asm/<PLATFORM>/3D_SAMPLE4*` (checked by `intel_fixtures.rs`).

#![cfg(not(family_absent))]

use visa::asm::{assemble_for, check, Diagnostic, Options, Source};
use visa::generated::sample4_3d::OpSamplerOperation;
use visa::machine::memory::Memory;
use visa::machine::{Kernel, ThreadInit};
use visa::object::text::print_kernel;
use visa::object::{File, Severity};
use visa::runtime::text::special::sampler_3d::GATHER4_OPERATIONS;
use visa::runtime::{IntelPlatform, RawOperand};
use visa::Platform;

const DECLS: &str = ".decl V0033 v_type=G type=f num_elts=64 align=hword\n\
                     .decl V0034 v_type=G type=d num_elts=32 align=hword\n\
                     .decl V0035 v_type=G type=f num_elts=64 align=hword\n\
                     .decl V0036 v_type=G type=ud num_elts=16 align=hword\n\
                     .decl P1 v_type=P num_elts=16\n\
                     .decl S0 v_type=S num_elts=1\n\
                     .decl T6 v_type=T num_elts=1\n";

/// A kernel of `version` (`4.1`: IGC 12504.6's text, `4.2`: IGC 2.x's) on `platform`.
fn kernel(version: &str, platform: &str, lines: &[&str]) -> String {
    let body: String = lines.iter().map(|l| format!("    {l}\n")).collect();
    let tail = if version == "4.2" {
        format!("\n//Platform: {platform}\n")
    } else {
        String::new()
    };
    format!(
        ".version {version}\n\n.kernel \"k\"\n\n{DECLS}.kernel_attr Target=\"3d\"\n\
         .kernel_attr SimdSize=16\n\n.function \"_main_0\"\n_main_0:\n{body}    ret (M1, 1)\n{tail}"
    )
}

fn assemble(platform: &str, text: &str) -> Result<File, Vec<Diagnostic>> {
    let src = [Source {
        name: "k.visaasm",
        text,
    }];
    let intel = IntelPlatform::find(platform).expect("a platform");
    assemble_for(&src, Options::default(), intel)
}

/// Assembles, prints back exactly and checks clean; the file.
fn round_trip(version: &str, platform: &str, lines: &[&str]) -> File {
    let text = kernel(version, platform, lines);
    let file = assemble(platform, &text).unwrap_or_else(|d| panic!("{d:#?}"));
    let p = print_kernel(&file, 0).expect("the kernel prints");
    let mut printed: Vec<String> = p
        .text
        .lines()
        .filter_map(|l| l.split_once(" /// $").map(|(c, _)| c.trim().to_string()))
        .collect();
    assert_eq!(printed.pop().as_deref(), Some("ret (M1, 1)"));
    assert_eq!(printed, lines);
    let src = [Source {
        name: "k.visaasm",
        text: &text,
    }];
    let diags = check(&src, &file, Platform::from_name(platform).unwrap());
    assert!(diags.is_empty(), "{}", visa::asm::render(&diags));
    file
}

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
    let file = round_trip("4.1", "TGLLP", &lines);
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
    let file = round_trip("4.2", "MTL", &lines);
    assert_eq!(
        file.text.kernels[0].paired_resources,
        [(2, RawOperand { id: 35, offset: 0 })]
    );
}

/// The one error of `line` (4.1 text, TGLLP): its 0-based column in the line and message.
fn error_of(line: &str) -> (usize, String) {
    let text = kernel("4.1", "TGLLP", &[line]);
    let first = text.lines().position(|l| l == "_main_0:").unwrap() + 2;
    let d = assemble("TGLLP", &text).expect_err(line);
    let errors: Vec<&Diagnostic> = d.iter().filter(|d| d.severity == Severity::Error).collect();
    assert_eq!(errors.len(), 1, "{line}: {d:#?}");
    assert_eq!(errors[0].line, first, "{line}");
    (errors[0].column - 4, errors[0].message.clone())
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
        let (c, message) = error_of(line);
        assert_eq!(c, column, "{line}: {message}");
        assert!(message.contains(says), "{line}: {message}");
    }
    // The doc's words are no mnemonic of Intel's text.
    for line in [
        "gather4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
        "SAMPLE4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0",
    ] {
        assert_eq!(error_of(line).0, 0, "{line}");
    }
}

#[test]
fn visa_run_refuses_gather4_by_name() {
    let file = round_trip(
        "4.1",
        "TGLLP",
        &["sample4.R (M1, 16) 0x0:uw S0 T6 V0033.0 V0035.0 V0035.64"],
    );
    let k = Kernel::new(&file, "k", Platform::from_name("TGLLP").unwrap()).expect("it loads");
    let init = ThreadInit {
        input: vec![0; 256],
        group_id: [0; 3],
        local_size: [16, 1, 1],
        lanes: 16,
    };
    let e = k
        .run_group(&[init], &mut Memory::default())
        .expect_err("gather4 does not run")
        .to_string();
    assert!(e.contains("3D_SAMPLE4"), "{e}");
}
