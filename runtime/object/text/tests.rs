//! The header printer on a kernel built by hand, against lines of Intel's
//! `real-kernels/dg2/calls_caller.visaasm` (and `recursion_stackcalls*.visaasm` for functions).
//! Instruction lines are covered by the full-corpus test (`family/tests/dis.rs`), which
//! runs in the crate generated from the whole doc family.

use super::{print_function, print_kernel};
use crate::object::{
    AddressInfo, AttributeInfo, File, Function, FunctionData, FunctionInfo, InputInfo,
    InstructionStream, Kernel, KernelData, KernelInfo, PredicateInfo, StreamStop, SurfaceInfo,
    VarInfo,
};
use crate::{DecodeError, DecodeErrorKind};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Lines 4-31 of every dg2 text: the predefined variables and surfaces.
const PREDEFINED: &str = "/// VISA Predefined Variables
// .decl V0 v_type=G v_name=%null
// .decl V1 v_type=G v_name=%thread_x
// .decl V2 v_type=G v_name=%thread_y
// .decl V3 v_type=G v_name=%group_id_x
// .decl V4 v_type=G v_name=%group_id_y
// .decl V5 v_type=G v_name=%group_id_z
// .decl V6 v_type=G v_name=%tsc
// .decl V7 v_type=G v_name=%r0
// .decl V8 v_type=G v_name=%arg
// .decl V9 v_type=G v_name=%retval
// .decl V10 v_type=G v_name=%sp
// .decl V11 v_type=G v_name=%fp
// .decl V12 v_type=G v_name=%hw_id
// .decl V13 v_type=G v_name=%sr0
// .decl V14 v_type=G v_name=%cr0
// .decl V15 v_type=G v_name=%ce0
// .decl V16 v_type=G v_name=%dbg0
// .decl V17 v_type=G v_name=%color
// .decl V18 v_type=G v_name=%impl_arg_buf_ptr
// .decl V19 v_type=G v_name=%local_id_buf_ptr
// .decl V20 v_type=G v_name=%msg0
// .decl T0 v_type=T v_name=%slm
// .decl T1 v_type=T v_name=T1
// .decl T2 v_type=T v_name=T2
// .decl T3 v_type=T v_name=TSS
// .decl T4 v_type=T v_name=%bss
// .decl T5 v_type=T v_name=%scratch
";

fn pool(names: &[&str]) -> Vec<Vec<u8>> {
    names.iter().map(|s| s.as_bytes().to_vec()).collect()
}

fn attr(name: u32, value: &[u8]) -> AttributeInfo {
    AttributeInfo {
        name,
        value: value.to_vec(),
    }
}

fn var(name_index: u32, bit_properties: u8, num_elements: u16, alias_index: u32) -> VarInfo {
    VarInfo {
        name_index,
        bit_properties,
        num_elements,
        alias_index,
        ..Default::default()
    }
}

/// A kernel `caller` with declarations of calls_caller.isa's kinds, and a function `rec`.
fn file() -> File {
    let mut f = File::default();
    f.header.major_version = 4;
    f.header.minor_version = 1;
    f.header.kernel_info.push(KernelInfo {
        name: b"caller".to_vec(),
        ..Default::default()
    });
    f.header.function_info.push(FunctionInfo {
        name: b"rec".to_vec(),
        ..Default::default()
    });
    let k = KernelData {
        string_pool: pool(&[
            "caller",
            "V0032",
            "V0033",
            "V0034",
            "A00",
            "P01",
            "S000",
            "T006",
            "Target",
            "SimdSize",
            "PerThreadInputSize",
            "OutputAsmPath",
        ]),
        var_info: vec![
            // type d (1), align hword (7); ud (0) aliasing %r0 (V7); b (5) with alignment 0.
            var(1, 0x71, 8, 0),
            var(2, 0x70, 8, 7),
            var(3, 0x05, 5, 0),
        ],
        address_info: vec![AddressInfo {
            name_index: 4,
            num_elements: 16,
            attribute_info: vec![],
        }],
        predicate_info: vec![PredicateInfo {
            name_index: 5,
            num_elements: 8,
            attribute_info: vec![],
        }],
        sampler_info: vec![SurfaceInfo {
            name_index: 6,
            num_elements: 1,
            attribute_info: vec![],
        }],
        surface_info: vec![SurfaceInfo {
            name_index: 7,
            num_elements: 1,
            attribute_info: vec![],
        }],
        input_info: vec![InputInfo {
            kind: 0,
            id: 32,
            offset: 32,
            size: 32,
        }],
        attribute_info: vec![
            attr(8, &[1]),
            attr(9, &[8]),
            attr(10, &[96, 0]),
            attr(11, b"/tmp/caller.asm"),
        ],
        ..Default::default()
    };
    f.kernels.push(Kernel {
        data: k,
        gen_binaries: vec![],
    });
    let func = FunctionData {
        string_pool: pool(&["rec", "V0032", "SimdSize", "Target"]),
        var_info: vec![var(1, 0x71, 8, 0)],
        attribute_info: vec![attr(2, &[8]), attr(3, &[1])],
        ..Default::default()
    };
    f.functions.push(Function { data: func });
    f
}

#[test]
fn kernel_header_as_intel_prints_it() {
    // Lines of calls_caller.visaasm (`.decl V0033 ... alias=<%r0, 0>`, `.decl P1`, `.decl S0`,
    // `.decl T6`, `.input`, the three attributes), recursion_stackcalls.visaasm line 3
    // (`.funcdecl "rec"`), and 12 dg2 `.decl`s of type b without `align=`.
    let p = print_kernel(&file(), 0).unwrap();
    let expected = String::from(".version 4.1\n.kernel \"caller\"\n.funcdecl \"rec\"\n\n")
        + PREDEFINED
        + "
.decl V0032 v_type=G type=d num_elts=8 align=hword
.decl V0033 v_type=G type=ud num_elts=8 align=hword alias=<%r0, 0>
.decl V0034 v_type=G type=b num_elts=5
.decl A0 v_type=A num_elts=16
.decl P1 v_type=P num_elts=8
.decl S0 v_type=S num_elts=1 v_name=S000
.decl T6 v_type=T num_elts=1 v_name=T006
.input V0032 offset=32 size=32
.kernel_attr Target=\"3d\"
.kernel_attr SimdSize=8
.kernel_attr PerThreadInputSize=96";
    assert_eq!(p.text, expected);
    assert_eq!(p.problems, vec![]);
}

#[test]
fn function_header_has_no_inputs_and_its_own_attributes() {
    // recursion_stackcalls.func.rec.visaasm: `.global_function "rec"`, no `.funcdecl`, the
    // stored attributes in order with Target last.
    let p = print_function(&file(), 0).unwrap();
    let expected = String::from(".version 4.1\n.global_function \"rec\"\n\n")
        + PREDEFINED
        + "
.decl V0032 v_type=G type=d num_elts=8 align=hword
.kernel_attr SimdSize=8
.kernel_attr Target=\"3d\"";
    assert_eq!(p.text, expected);
    assert!(print_function(&file(), 1).is_none());
    assert!(print_kernel(&file(), 1).is_none());
}

#[test]
fn absent_target_is_printed_last() {
    let mut f = file();
    f.functions[0].data.attribute_info.truncate(1);
    let p = print_function(&f, 0).unwrap();
    assert!(p
        .text
        .ends_with(".kernel_attr SimdSize=8\n.kernel_attr Target=\"3d\""));
}

#[test]
fn kernel_names_with_dots_print_spaces() {
    // printFunctionDecl replaces `.` by a space (note §3).
    let mut f = file();
    f.kernels[0].data.string_pool[0] = b"a.b".to_vec();
    let p = print_kernel(&f, 0).unwrap();
    assert!(p.text.starts_with(".version 4.1\n.kernel \"a b\"\n"));
}

#[test]
fn what_cannot_be_printed_is_a_problem_on_its_line_not_a_panic() {
    let mut f = file();
    let k = &mut f.kernels[0].data;
    k.var_info[0].bit_properties = 0xb1; // alignment 11: IGC names 0-9
    k.var_info[1].alias_index = 25; // a reserved predefined id: no name
    k.var_info[2].name_index = 99;
    k.input_info[0].kind = 0x0b; // implicit kind 1, class 3
    k.attribute_info[0].value = vec![9];
    k.instructions = InstructionStream {
        instructions: vec![],
        undecoded: vec![0xff],
        stop: Some(StreamStop {
            offset: 0,
            opcode: 0xff,
            error: DecodeError::new("opcode", 0, DecodeErrorKind::UnknownOpcode(0xff)),
        }),
        kept: vec![],
    };
    let p = print_kernel(&f, 0).unwrap();
    let lines: Vec<&str> = p.text.lines().collect();
    let at = |n: usize| lines.get(n - 1).copied().unwrap_or("");
    assert_eq!(p.problems.len(), 7, "{:#?}", p.problems);
    for pr in &p.problems {
        assert!(pr.line >= 1 && pr.line <= lines.len(), "{pr:?}");
    }
    assert!(at(p.problems[0].line).starts_with(".decl V0032 "));
    assert!(p.problems[0].message.contains("alignment 11"));
    assert!(at(p.problems[1].line).contains("alias=<V25, 0>"));
    assert!(at(p.problems[2].line).starts_with(".decl V0034 "));
    assert!(at(p.problems[3].line).starts_with(".input"));
    assert!(p.problems[5].message.contains("Target"));
    assert_eq!(at(p.problems[5].line), "// .kernel_attr: cannot print");
    assert_eq!(
        at(p.problems[5].line + 2),
        ".kernel_attr PerThreadInputSize=96"
    );
    assert!(at(p.problems[6].line).starts_with("// decoding stopped: opcode 0xff is unknown"));
    assert_eq!(p.problems[6].line, lines.len());
}
