//! What a crate generated from unreadable docs does with them, in the crate generated from
//! `tests/specs/degrade/` (each doc there is unreadable in one way, except `GOOD.md`). CI
//! copies this file into that crate and runs it (see `.ci/run`); `tests/tests/degrade.rs`
//! checks the warnings of the same regen. Bytes are worked out by hand from the test docs.

use visa::runtime::text::{IntelNames, PrintError};
use visa::{decode, parse_instruction, DecodeErrorKind, Instruction};

#[test]
fn the_readable_doc_decodes_prints_and_parses() {
    // GOOD 0x01: Surface 6.
    let (inst, used) = decode(&[0x01, 0x06]).expect("GOOD decodes");
    assert_eq!((inst.name(), used), ("GOOD", 2));
    let mut text = String::new();
    inst.print_text(&IntelNames, &mut text).expect("GOOD prints");
    assert_eq!(text, "good T6");
    assert_eq!(parse_instruction("good T6", &IntelNames), Ok(inst));
}

/// Each left-out doc's opcode: the error names the doc and where it could not be read.
#[test]
fn decoding_the_opcode_of_a_left_out_doc_names_the_doc() {
    for (opcode, doc, place) in [
        (0x03, "BAD_BULLET.md", "BAD_BULLET.md:18:1: "),
        (0x04, "BAD_TABLE.md", "BAD_TABLE.md:12:31: "),
        (0x05, "BAD_RANGE.md", "BAD_RANGE.md:20:1: "),
        (0x07, "ODD_PLATFORM.md", "ODD_PLATFORM.md:23:1: "),
    ] {
        let err = decode(&[opcode, 0x00, 0x00]).unwrap_err();
        match &err.kind {
            DecodeErrorKind::LeftOut {
                opcode: o,
                doc: d,
                why,
            } => {
                assert_eq!((*o, *d), (opcode, doc));
                assert!(why.starts_with(place), "{why}");
            }
            k => panic!("{opcode:#x}: {k:?}"),
        }
        assert!(err.to_string().contains(doc), "{err}");
    }
    // NO_OPCODE has no opcode to name; 0x06 (its format cell) is just unknown.
    assert_eq!(
        decode(&[0x06, 0x00]).unwrap_err().kind,
        DecodeErrorKind::UnknownOpcode(0x06)
    );
    // SAME_OPCODE lost its opcode to GOOD, which decodes it.
    assert_eq!(decode(&[0x01, 0x06]).unwrap().0.name(), "GOOD");
}

/// BAD_TEXT decodes and encodes, but has no text form: printing and parsing say why.
#[test]
fn the_instruction_without_a_text_form_says_where_its_template_is() {
    let bytes = [0x02, 0x05];
    let (inst, used) = decode(&bytes).expect("BAD_TEXT decodes");
    assert_eq!((inst.name(), used), ("BAD_TEXT", 2));
    let mut out = Vec::new();
    inst.encode(&mut out);
    assert_eq!(out, bytes);
    let mut text = String::new();
    match inst.print_text(&IntelNames, &mut text) {
        Err(PrintError::NoTextForm { instruction, why }) => {
            assert_eq!(instruction, "BAD_TEXT");
            assert!(why.starts_with("BAD_TEXT.md:22:24: "), "{why}");
        }
        other => panic!("{other:?}"),
    }
    let err = parse_instruction("bad_text T5", &IntelNames).unwrap_err();
    assert!(err.expected.contains("BAD_TEXT.md:22:24"), "{err}");
    assert!(matches!(inst, Instruction::BadText(_)));
}

/// BAD_SEMANTICS's pseudo-code cannot be read (V0140): `interpret` hands it to the machine's
/// `prose`, and nothing else of the machine is asked.
#[test]
fn an_instruction_with_unreadable_semantics_runs_through_prose() {
    use visa::runtime::{
        DataType, ExecSize, Lanes, PredicateControl, RawOperand, Value, VectorOperand,
    };
    struct ProseOnly;
    impl Lanes for ProseOnly {
        type Error = String;
        fn begin(&mut self, _: ExecSize, _: Option<PredicateControl>) -> Result<u32, String> {
            Err("begin".into())
        }
        fn enabled(&self, _: u32) -> bool {
            false
        }
        fn enabled_by_mask(&self, _: u32) -> bool {
            false
        }
        fn predicate(&self, _: u32) -> bool {
            false
        }
        fn read(&mut self, _: &VectorOperand, _: u32) -> Result<Value, String> {
            Err("read".into())
        }
        fn write(&mut self, _: &VectorOperand, _: u32, _: Value) -> Result<(), String> {
            Err("write".into())
        }
        fn read_raw(&mut self, _: &RawOperand, _: DataType, _: u32) -> Result<Value, String> {
            Err("read_raw".into())
        }
        fn write_raw(&mut self, _: &RawOperand, _: DataType, _: u32, _: Value) -> Result<(), String> {
            Err("write_raw".into())
        }
        fn call(&mut self, _: &'static str, _: &[Value]) -> Result<Value, String> {
            Err("call".into())
        }
        fn prose(&mut self, inst: &Instruction) -> Result<(), String> {
            Err(format!("prose of {}", inst.name()))
        }
    }
    // BAD_SEMANTICS 0x08: Exec_size 8 lanes, Dst V32(0,0)<1>, Src0 V33(0,0)<1;1,0>.
    let general = |id: u8, region: [u8; 2]| [0x00, id, 0, 0, 0, 0, 0, region[0], region[1]];
    let mut bytes = vec![0x08, 0x03];
    bytes.extend(general(32, [0x00, 0x01]));
    bytes.extend(general(33, [0x11, 0x00]));
    let (inst, used) = decode(&bytes).expect("BAD_SEMANTICS decodes");
    assert_eq!((inst.name(), used), ("BAD_SEMANTICS", bytes.len()));
    assert_eq!(
        visa::interpret(&inst, &mut ProseOnly),
        Err("prose of BAD_SEMANTICS".to_string())
    );
}
