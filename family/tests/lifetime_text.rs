//! LIFETIME's text as IGC 2.x writes it (`lifetime.start V0142`, kernel `pointer_select` of
//! `tests/interp/kernels/calls.cl` on tgllp): the variable by name, whatever its class, reads
//! and prints back exactly; the bytes carry the class in `properties` bits 5..4 (LIFETIME.md).

#![cfg(not(family_absent))]

use visa::asm::{assemble_for, Source};
use visa::object::text::print_kernel;
use visa::runtime::IntelPlatform;

const KERNEL: &str = r#".version 4.2

.kernel "k"

.decl V0032 v_type=G type=d num_elts=8 align=hword
.decl A0 v_type=A num_elts=1
.decl P1 v_type=P num_elts=16
.kernel_attr Target="3d"
.kernel_attr SimdSize=16

.function "_main_0"
_main_0:
    lifetime.start V0032                                                         /// $1
    mov (M1, 8) V0032(0,0)<1> 0x1:d                                              /// $2
    lifetime.end V0032                                                           /// $3
    lifetime.start A0                                                            /// $4
    lifetime.end P1                                                              /// $5
    ret (M1, 1)                                                                  /// $6

//Platform: TGLLP
"#;

fn assemble(text: &str) -> Result<visa::object::File, Vec<visa::asm::Diagnostic>> {
    let platform = IntelPlatform::find("TGLLP").expect("TGLLP is a platform");
    assemble_for(
        &[Source {
            name: "k.visaasm",
            text,
        }],
        Default::default(),
        platform,
    )
}

#[test]
fn lifetime_markers_read_and_print_back_by_variable_name() {
    let file = assemble(KERNEL).unwrap_or_else(|d| panic!("{d:?}"));
    let printed = print_kernel(&file, 0).expect("the kernel prints").text;
    let lines = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.trim_start().starts_with("lifetime"))
            .map(String::from)
            .collect()
    };
    assert_eq!(lines(&printed), lines(KERNEL));
    assert_eq!(lines(KERNEL).len(), 4);
    // The instruction bytes: opcode 0x7b, properties (bit 0 end, bits 5..4 the class: 0
    // general, 1 address, 2 predicate), the variable id (u32).
    let out = file.write().expect("the file writes");
    for (properties, id) in [(0x00u8, 32u32), (0x01, 32), (0x10, 0), (0x21, 1)] {
        let mut want = vec![0x7b, properties];
        want.extend_from_slice(&id.to_le_bytes());
        assert!(
            out.windows(want.len()).any(|w| w == want.as_slice()),
            "no LIFETIME bytes {want:02x?}"
        );
    }
}

#[test]
fn a_lifetime_marker_of_an_undeclared_name_or_without_start_or_end_says_so() {
    let text = KERNEL.replace("lifetime.start A0 ", "lifetime.start V0099");
    let d = assemble(&text).unwrap_err();
    assert!(
        d.iter().any(|d| d.line == 16
            && d.message
                .contains("a declared general, address or predicate variable")),
        "{d:?}"
    );
    let text = KERNEL.replace("lifetime.end P1", "lifetime.stop P1");
    let d = assemble(&text).unwrap_err();
    assert!(
        d.iter()
            .any(|d| d.line == 17 && d.message.contains("`.start` or `.end`")),
        "{d:?}"
    );
}
