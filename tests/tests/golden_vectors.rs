//! Golden vectors (`tests/vectors/spec.txt`, worked out by hand from the docs): each `ok` line
//! decodes to exactly the fields it lists and re-encodes to the same bytes; each `error` line
//! fails at the field and byte offset it names.

use visa::runtime::{DataType, RawOperand, VectorOperand};
use visa::{decode, Instruction};

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap_or_else(|_| panic!("bad hex byte {b}")))
        .collect()
}

/// `[hi..lo]:0bVALUE` with the range's width in binary digits.
fn bits(parts: &[(u8, u8, u64)]) -> String {
    parts
        .iter()
        .map(|(hi, lo, v)| format!("[{hi}..{lo}]:0b{v:0w$b}", w = usize::from(hi - lo + 1)))
        .collect::<Vec<_>>()
        .join(",")
}

fn raw(r: &RawOperand) -> String {
    format!("raw({},{})", r.id, r.offset)
}

fn vector(v: &VectorOperand) -> String {
    match v {
        VectorOperand::Immediate(i) => format!("imm({},{:#x})", i.ty.name(), { i.value }),
        VectorOperand::General {
            id,
            row_offset,
            col_offset,
            region,
            ..
        } => format!(
            "gen({id},{row_offset},{col_offset},0b{:04b},0b{:04b},0b{:04b})",
            region.vertical_stride(),
            region.width(),
            region.horizontal_stride()
        ),
        other => format!("{other:?}"),
    }
}

/// The vector file's view of a decoded instruction, written against the generated API.
fn describe(inst: &Instruction) -> (String, Vec<String>) {
    let f = |n: &str, v: String| format!("{n}={v}");
    match inst {
        Instruction::QwScatter(i) => (
            "QW_SCATTER".into(),
            vec![
                f(
                    "Exec_size",
                    bits(&[
                        (2, 0, i.exec_size.size.bits()),
                        (7, 4, i.exec_size.execution_mask.bits()),
                    ]),
                ),
                f("Pred", format!("{:#06x}", i.pred.0)),
                f(
                    "Num_blocks",
                    bits(&[(1, 0, i.num_blocks.number_of_blocks.bits())]),
                ),
                f("Surface", format!("{:#04x}", i.surface)),
                f("Offset", raw(&i.offset)),
                f("Src", raw(&i.src)),
            ],
        ),
        Instruction::Scatter4Scaled(i) => (
            "SCATTER4_SCALED".into(),
            vec![
                f(
                    "Exec_size",
                    bits(&[
                        (2, 0, i.exec_size.size.bits()),
                        (7, 4, i.exec_size.execution_mask.bits()),
                    ]),
                ),
                f("Pred", format!("{:#06x}", i.pred.0)),
                f(
                    "Channels",
                    bits(&[(3, 0, u64::from(i.channels.write_masks))]),
                ),
                f("Scale", format!("{:#06x}", i.scale)),
                f("Surface", format!("{:#04x}", i.surface)),
                f("Offset", vector(&i.offset)),
                f("Element_offset", raw(&i.element_offset)),
                f("Src", raw(&i.src)),
            ],
        ),
        Instruction::Scatter(i) => (
            "SCATTER".into(),
            vec![
                f("Elt_size", bits(&[(1, 0, i.elt_size.byte_size.bits())])),
                f(
                    "Num_elts",
                    bits(&[
                        (1, 0, i.num_elts.number_of_elements.bits()),
                        (7, 4, u64::from(i.num_elts.execution_mask)),
                    ]),
                ),
                f("Surface", format!("{:#04x}", i.surface)),
                f("Global_offset", vector(&i.global_offset)),
                f("Element_offset", raw(&i.element_offset)),
                f("Src", raw(&i.src)),
            ],
        ),
        Instruction::GatherScaled(i) => (
            "GATHER_SCALED".into(),
            vec![
                f(
                    "Exec_size",
                    bits(&[
                        (2, 0, i.exec_size.size.bits()),
                        (7, 4, i.exec_size.execution_mask.bits()),
                    ]),
                ),
                f("Pred", format!("{:#06x}", i.pred.0)),
                f("Block_size", format!("{:#04x}", i.block_size)),
                f(
                    "Num_blocks",
                    bits(&[(1, 0, i.num_blocks.number_of_blocks.bits())]),
                ),
                f("Scale", format!("{:#06x}", i.scale)),
                f("Surface", format!("{:#04x}", i.surface)),
                f("Offset", vector(&i.offset)),
                f("Element_offset", raw(&i.element_offset)),
                f("Dst", raw(&i.dst)),
            ],
        ),
        Instruction::OwordSt(i) => (
            "OWORD_ST".into(),
            vec![
                f("Size", bits(&[(2, 0, i.size.number_of_owords.bits())])),
                f("Surface", format!("{:#04x}", i.surface)),
                f("Offset", vector(&i.offset)),
                f("Src", raw(&i.src)),
            ],
        ),
    }
}

#[test]
fn spec_vectors() {
    let text = std::fs::read_to_string(visa_tests::root().join("tests/vectors/spec.txt")).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [kind, name, bytes, rest] = parts[..] else {
            panic!("line {}: four parts expected", n + 1)
        };
        let bytes = hex(bytes);
        count += 1;
        match kind {
            "ok" => {
                let (inst, used) = decode(&bytes).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
                assert_eq!(used, bytes.len(), "line {}", n + 1);
                let (got_name, fields) = describe(&inst);
                assert_eq!(got_name, name, "line {}", n + 1);
                assert_eq!(inst.name(), name);
                let expected: Vec<String> = rest.split_whitespace().map(String::from).collect();
                assert_eq!(fields, expected, "line {}", n + 1);
                let mut out = Vec::new();
                inst.encode(&mut out);
                assert_eq!(out, bytes, "line {}: re-encoding", n + 1);
                inst.validate(visa::Platform::ALL[visa::Platform::ALL.len() - 1])
                    .unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
                seen.insert(name.to_string());
            }
            "error" => {
                let e = decode(&bytes).expect_err(&format!("line {} must not decode", n + 1));
                let want: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(
                    want,
                    vec![
                        format!("field={}", e.field).as_str(),
                        format!("offset={}", e.offset).as_str()
                    ],
                    "line {}: {e}",
                    n + 1
                );
            }
            other => panic!("line {}: unknown kind {other}", n + 1),
        }
    }
    assert_eq!(
        seen.len(),
        5,
        "one ok vector per spec instruction: {seen:?}"
    );
    assert!(count >= 9);
    // The immediate of the OWORD_ST vector is typed UD.
    let (inst, _) = decode(&hex("36 03 00 05 00 02 00 00 00 1e 00 00 00 00 00")).unwrap();
    let Instruction::OwordSt(o) = inst else {
        panic!()
    };
    assert_eq!(o.offset.immediate_type(), Some(DataType::Ud));
}
