//! Whole LSC lines: Intel's print (tests/ocl/fixtures, Intel's own text of our kernels) and
//! GenX_IR 12504.6 reprints of lines we wrote, read into fields and printed back.

use super::*;
use crate::runtime::text::{parse_predicate_prefix, NameTable};
use crate::runtime::{DataType, Immediate};
use alloc::vec::Vec;

fn names() -> NameTable {
    let mut n = NameTable::new();
    for id in 32..200 {
        n.declare_general(id, alloc::format!("V{id:04}"));
    }
    n
}

fn parse_line(text: &str, n: &NameTable) -> Result<Parsed, ParseError> {
    let mut c = Cursor::new(text);
    let pred = parse_predicate_prefix(&mut c, n)?;
    let w = Words::read(&mut c);
    LSC.parse(pred, w, c, n)
}

fn print_fields(p: &Parsed, n: &NameTable) -> Result<String, PrintError> {
    let mut s = String::new();
    LSC.print(Fields::new("LSC_UNTYPED", &p.0), n, &mut s, false)?;
    Ok(s)
}

/// Lines of Intel's print, each once per shape (tests/ocl/fixtures/*/*.visaasm).
const FIXTURE_LINES: &[&str] = &[
    "lsc_load.ugm.ca.ca (M1, 16)  V0059:d32  bti(0x1)[V0057]:a32",
    "lsc_load.ugm (M1, 32)  V0062:d32  flat[V0060]:a64",
    "lsc_load.ugm.ca.ca (M5, 16)  V0070:d32x2  bti(0x2)[V0068]:a32",
    "lsc_load.slm (M1_NM, 1)  V0055:d32t  flat[V0053]:a32",
    "lsc_load.ugm.ca.ca (M1, 32)  V0071:d32  ss(V0049)[V0066]:a32",
    "lsc_load.ugm.ca.ca (M1, 16)  V0071:d16c32  bti(0x3)[V0066]:a32",
    "lsc_store.ugm.wb.wb (M1, 32)  ss(V0049)[V0066]:a32  V0071:d32",
    "lsc_store.ugm.wb.wb (M5, 16)  flat[V0081]:a64  V0083:d32x4",
    "lsc_store.ugm (M1_NM, 1)  flat[V0081]:a64  V0083:d32x2t",
    "lsc_store.ugm (M1, 32)  flat[V0081]:a64  V0083:d8c32",
    "lsc_atomic_iadd.ugm (M1, 16)  %null:d32  flat[V0060]:a64  V0062  %null",
    "lsc_atomic_icas.ugm (M5, 16)  %null:d32  flat[V0060]:a64  V0062  V0063",
    "lsc_atomic_iinc.slm (M1, 32)  %null:d32  flat[V0060]:a32  %null  %null",
];

/// Lines GenX_IR 12504.6 reprinted unchanged (or as given here) on PVC.
const GENX_LINES: &[&str] = &[
    "(P1) lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033]:a64",
    "lsc_load.ugm.uc.ca (M1, 16)  V0032:d32  flat[V0033+0x10]:a64",
    "lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033-0xab]:a32",
    "lsc_load.ugm (M1_NM, 1)  V0032.32:d32x64t  bti(0x4)[V0033.64]:a32",
    "lsc_load.ugm (M1, 16)  V0032:d32  bss(V0036(0,1))[V0033]:a32",
    "lsc_load.ugm (M1, 16)  V0032:d32  bti(0xAB)[V0033]:a32",
    "lsc_load.ugm (M1, 16)  V0032:d32  arg[V0033]:a32",
    "lsc_load.ugml (M1, 16)  V0032:d32  flat[V0033-0x10]:a64",
    "lsc_store.slm (M1, 16)  flat[V0033]:a16  V0032:d16c32h",
    "lsc_atomic_fcas.ugm (M1, 16)  V0032:d32  flat[V0033]:a64  V0035  V0035",
    "lsc_atomic_icas.ugm (M1, 16)  V0032.64:d32  flat[V0033]:a64  V0035.64  V0035.128",
    "lsc_load_quad.ugm (M1, 16)  V0032:d32.xzw  flat[V0033]:a64",
    "lsc_store_quad.ugm (M1, 16)  flat[V0033]:a64  V0032:d32.xyzw",
    "lsc_load_strided.ugm (M1, 16)  V0032:d32  flat[V0036, 0x8]:a64",
    "lsc_load_strided.ugm (M1, 16)  V0032:d32  flat[V0036, V0035]:a64",
    "lsc_store_strided.ugm (M1, 16)  flat[V0036+0x10, 0x4]:a64  V0032:d32",
    "lsc_load_block2d.ugm (M1, 1)  V0032:d16.2x16x8nn  flat[V0034, V0036, V0036, V0036, V0036, V0036]",
    "lsc_load_block2d.ugm (M1, 1)  V0032:d32.8x8tn  flat[V0034, V0036, V0036, V0036, 0x10, V0036]",
    "lsc_store_block2d.ugm (M1, 1)  flat[V0034, V0036, V0036, V0036, V0036, V0036]  V0032:d16.16x8nn",
    "lsc_load_status.ugm (M1, 16)  V0032:d32  flat[V0033]:a64",
    "lsc_store_uncompressed.ugm (M1, 16)  flat[V0033]:a64  V0032:d32",
];

/// Every sub-operation the spellings table names has a kind, read from its mnemonic; the values
/// checked are LSC_UNTYPED.md's LscSubOp table (0x00 load, 0x03 load_block2d, 0x1c
/// store_uncompressed, 0x12 atomic_icas, 0x29 apndctr_atomic_sub); 0x1d is none.
#[test]
fn every_sub_operation_has_a_kind_by_its_mnemonic() {
    for e in LSC_UNTYPED_OPS {
        assert!(kind(e.value).is_some(), "{}", e.text);
    }
    assert_eq!(kind(0x00), Some(Kind::Load));
    assert_eq!(kind(0x03), Some(Kind::LoadBlock));
    assert_eq!(kind(0x1c), Some(Kind::Store));
    assert_eq!(kind(0x12), Some(Kind::Atomic));
    assert_eq!(kind(0x29), Some(Kind::Append));
    assert_eq!(kind(0x1d), None);
}

#[test]
fn intel_lines_read_and_print_back() {
    let n = names();
    for line in FIXTURE_LINES.iter().chain(GENX_LINES) {
        let p = parse_line(line, &n).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(print_fields(&p, &n).as_deref(), Ok(*line));
    }
}

fn scalar(p: &Parsed, name: &str) -> u64 {
    p.scalar(name).unwrap_or_else(|| panic!("{name} missing"))
}

#[test]
fn fields_of_intel_lines() {
    // Worked out by hand from the doc's tables and GenX_IR's assembly of the same lines
    // (LscSFID ugm 0, slm 3; DataOrder 1; ChMask = vector size; surface `0x1:ud`).
    let n = names();
    let p = parse_line(FIXTURE_LINES[0], &n).unwrap();
    for (name, v) in [
        ("LscSubOp", 0),
        ("Exec_size", 0x04),
        ("LscSFID", 0),
        ("CachingL1", 2),
        ("CachingL3", 2),
        ("AddrType", 4),
        ("AddrScale", 1),
        ("AddrImmOffset", 0),
        ("AddrSize", 2),
        ("DataSize", 3),
        ("DataOrder", 1),
        ("DataElemsPerAddr", 1),
        ("ChMask", 1),
    ] {
        assert_eq!(scalar(&p, name), v, "{name}");
    }
    assert_eq!(
        p.vector("Surface"),
        Some(VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: 1
        }))
    );
    assert_eq!(p.raw("DstData"), Some(RawOperand { id: 59, offset: 0 }));
    assert_eq!(p.raw("Src0Addrs"), Some(RawOperand { id: 57, offset: 0 }));
    assert_eq!(p.raw("Src1Data"), Some(NULL));
    // `(M1_NM, 1)  V0055:d32t`: exec 0x80, transposed.
    let p = parse_line(FIXTURE_LINES[3], &n).unwrap();
    assert_eq!(
        [
            scalar(&p, "Exec_size"),
            scalar(&p, "LscSFID"),
            scalar(&p, "DataOrder")
        ],
        [0x80, 3, 2]
    );
    // A store: data in Src1Data, DstData null; `d32x4` is DataElemsPerAddr 4, ChMask 4.
    let p = parse_line(FIXTURE_LINES[7], &n).unwrap();
    assert_eq!(p.raw("DstData"), Some(NULL));
    assert_eq!(p.raw("Src1Data"), Some(RawOperand { id: 83, offset: 0 }));
    assert_eq!(
        [scalar(&p, "DataElemsPerAddr"), scalar(&p, "ChMask")],
        [4, 4]
    );
    // An offset of -0xab is AddrImmOffset 0xffffff55.
    let p = parse_line(GENX_LINES[2], &n).unwrap();
    assert_eq!(scalar(&p, "AddrImmOffset"), 0xffff_ff55);
    // Block2d `d16.2x16x8nn`: 2 blocks of 16 x 8 (GenX_IR: Blocks 2, BlockWidth 16,
    // BlockHeight 8, VNNI 0).
    let p = parse_line(GENX_LINES[16], &n).unwrap();
    assert_eq!(
        ["Blocks", "BlockWidth", "BlockHeight", "VNNI", "DataOrder"].map(|f| scalar(&p, f)),
        [2, 16, 8, 0, 1]
    );
}

#[test]
fn what_igc_reprints_differently() {
    // IGC's parser takes these; GenX_IR 12504.6 reprints them as the second string.
    let n = names();
    for (input, reprint) in [
        (
            "lsc_load.ugm.df.df (M1, 16)  V0032:u32  flat[V0033]:a64",
            "lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033]:a64",
        ),
        (
            "lsc_load.slm (M1, 16)  V0032:d32  [V0033]:a32",
            "lsc_load.slm (M1, 16)  V0032:d32  flat[V0033]:a32",
        ),
        (
            "lsc_load_strided.ugm (M1, 16)  V0032:d32  flat[V0036]:a64",
            "lsc_load_strided.ugm (M1, 16)  V0032:d32  flat[V0036, 0x4]:a64",
        ),
        (
            "lsc_load_block2d.ugm (M1, 1)  V0032:d8.1x32x16nt  flat[V0034,V0036,V0036,V0036,V0036,V0036]",
            "lsc_load_block2d.ugm (M1, 1)  V0032:d8.32x16nt  flat[V0034, V0036, V0036, V0036, V0036, V0036]",
        ),
        (
            "lsc_load.ugm (M1, 16)  V0032:d32  bti(171)[V0033]:a32",
            "lsc_load.ugm (M1, 16)  V0032:d32  bti(0xAB)[V0033]:a32",
        ),
        (
            "lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033+171]:a32",
            "lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033+0xab]:a32",
        ),
    ] {
        let p = parse_line(input, &n).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(print_fields(&p, &n).as_deref(), Ok(reprint));
    }
}

#[test]
fn the_doc_append_counter_example() {
    // LSC_UNTYPED.md `lsc_apndctr_atomic_add.ugm  (M1,32) VDATA:d32 bti(0xA0) VADDEND:d32`,
    // with our names and IGC's spacing (12504.6 has no append-counter atomics).
    let n = names();
    let p = parse_line(
        "lsc_apndctr_atomic_add.ugm  (M1,32) V0040:d32 bti(0xA0) V0041:d32",
        &n,
    )
    .unwrap();
    assert_eq!(scalar(&p, "LscSubOp"), 0x28);
    assert_eq!(p.raw("Src0Data"), Some(RawOperand { id: 41, offset: 0 }));
    assert_eq!(
        print_fields(&p, &n).as_deref(),
        Ok("lsc_apndctr_atomic_add.ugm (M1, 32)  V0040:d32  bti(0xA0)  V0041:d32")
    );
}

#[test]
fn errors_say_where() {
    // Each error points at the marked text (its first occurrence in the line).
    let n = names();
    for (line, at) in [
        ("lsc_load.xyz (M1, 16)  V0032:d32  flat[V0033]:a64", "xyz"),
        (
            "lsc_load.ugm.ca.zz (M1, 16)  V0032:d32  flat[V0033]:a64",
            "zz",
        ),
        ("lsc_load.ugm (M1, 16)  V0032:q32  flat[V0033]:a64", "q32"),
        ("lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033]:a65", "a65"),
        ("lsc_load.ugm (M1, 16)  V0032:d32  flat[V0033]:a64 x", "x"),
        (
            "lsc_load.ugm (M1, 16)  V0032:d32x5  flat[V0033]:a64",
            "d32x5",
        ),
        ("lsc_load.ugm (M1, 16)  V0032:d32  flat[V9999]:a64", "V9999"),
    ] {
        let e = parse_line(line, &n).unwrap_err();
        let want = if at == "x" {
            line.len() - 1
        } else {
            line.find(at).unwrap()
        };
        assert_eq!(e.column, want, "{line}: {e}");
    }
    // A store without its data: the error is at the end.
    let line = "lsc_store.ugm (M1, 16)  flat[V0033]:a64";
    assert_eq!(parse_line(line, &n).unwrap_err().column, line.len());
}

#[test]
fn unprintable_fields_are_refused() {
    let n = names();
    let good = parse_line(FIXTURE_LINES[0], &n).unwrap();
    let with = |name: &'static str, v: Value<'static>| {
        let mut p = good.clone();
        p.set(name, v);
        print_fields(&p, &n)
    };
    // The text cannot carry a ChMask other than the vector size, a non-null Src1Data of a
    // load, a flat surface, or an unknown sub-op.
    assert!(with("ChMask", Value::Scalar(0)).is_err());
    assert!(with("Src1Data", Value::Raw(RawOperand { id: 40, offset: 0 })).is_err());
    assert!(with("LscSubOp", Value::Scalar(0x1d)).is_err());
    let mut flat = good.clone();
    flat.set("AddrType", Value::Scalar(1));
    assert!(print_fields(&flat, &n).is_err());
    let missing = Parsed(
        good.0
            .iter()
            .filter(|(f, _)| *f != "DstData")
            .cloned()
            .collect::<Vec<_>>(),
    );
    assert!(print_fields(&missing, &n).is_err());
}

mod properties {
    //! Whatever prints parses back to the same fields, and parsers never panic.
    use super::*;
    use crate::runtime::text::IntelNames;
    use proptest::prelude::*;

    fn raw() -> impl Strategy<Value = RawOperand> {
        prop_oneof![
            1 => Just(NULL),
            4 => (30u32..70, prop_oneof![3 => Just(0u16), 1 => any::<u16>()])
                .prop_map(|(id, offset)| RawOperand { id, offset }),
        ]
    }

    /// Operands LSC can spell: a `ud` immediate or a variable at `<0;1,0>`.
    fn vector() -> impl Strategy<Value = VectorOperand> {
        prop_oneof![
            any::<u32>().prop_map(|v| VectorOperand::Immediate(Immediate {
                ty: DataType::Ud,
                value: u64::from(v),
            })),
            (30u32..70, 0u8..3, 0u8..3).prop_map(|(id, row_offset, col_offset)| {
                VectorOperand::General {
                    modifier: 0,
                    id,
                    row_offset,
                    col_offset,
                    region: crate::runtime::text::AddressOf::REGION,
                }
            }),
        ]
    }

    /// A field replaced by an arbitrary value, in some cases.
    fn corruption() -> impl Strategy<Value = Option<(usize, u64, u8)>> {
        prop_oneof![6 => Just(None), 1 => (0usize..40, any::<u64>(), 0u8..16).prop_map(Some)]
    }

    /// Fields of the format of a random sub-operation, mostly values the text can spell (the
    /// operands it does not show are `%null`, ChMask follows the vector size, a stateless
    /// address has no surface), sometimes one field replaced by an arbitrary value.
    fn fields() -> impl Strategy<Value = Vec<(&'static str, Value<'static>)>> {
        let ops: Vec<u8> = LSC_UNTYPED_OPS.iter().map(|e| e.value).collect();
        let head = (
            proptest::sample::select(ops),
            (0u8..6, 0u8..16).prop_map(|(size, mask)| size | mask << 4),
            prop_oneof![3 => Just(0u16), 1 => (1u16..4, 0u16..2).prop_map(|(p, inv)| p | inv << 15)],
            0u64..4,
            prop_oneof![Just((0u64, 0u64)), (0u64..7, 0u64..7)],
            1u64..6,
            prop_oneof![3 => Just(1u64), 1 => any::<u16>().prop_map(u64::from)],
            any::<i32>(),
            1u64..4,
        );
        let shape = (
            1u64..8,
            1u64..3,
            1u64..9,
            1u64..16,
            1u64..5,
            1u64..65,
            1u64..65,
            0u64..2,
        );
        let operands = (
            vector(),
            vector(),
            [vector(), vector(), vector(), vector(), vector(), vector()],
            raw(),
            raw(),
            raw(),
            raw(),
            raw(),
        );
        (head, shape, operands, corruption()).prop_map(|(h, s, o, bad)| {
            let mut v = build(h, s, o);
            if let Some(bad) = bad {
                corrupt(&mut v, bad);
            }
            v
        })
    }

    type Head = (u8, u8, u16, u64, (u64, u64), u64, u64, i32, u64);
    type Shape8 = (u64, u64, u64, u64, u64, u64, u64, u64);
    type Operands = (
        VectorOperand,
        VectorOperand,
        [VectorOperand; 6],
        RawOperand,
        RawOperand,
        RawOperand,
        RawOperand,
        RawOperand,
    );

    /// The fields of one drawn case, values the text can spell.
    fn build(h: Head, s: Shape8, o: Operands) -> Vec<(&'static str, Value<'static>)> {
        let (op, exec, pred, sfid, (l1, l3), model, scale, offset, size) = h;
        let (dsize, order, elems, quad, blocks, width, height, vnni) = s;
        let (surface, pitch, block_ops, dst, src0, src1, src2, src0_data) = o;
        let k = kind(op).unwrap();
        let stateless = model == 1 || model == 5;
        let mut order = order;
        let (elems, ch_mask) = match k {
            Kind::LoadQuad | Kind::StoreQuad => {
                order = 1;
                (quad, quad)
            }
            Kind::LoadStrided | Kind::StoreStrided => (elems, 0),
            _ => (elems, elems),
        };
        let loads = matches!(
            k,
            Kind::Load
                | Kind::LoadQuad
                | Kind::LoadStrided
                | Kind::LoadBlock
                | Kind::Atomic
                | Kind::Append
        );
        let stores = matches!(
            k,
            Kind::Store | Kind::StoreQuad | Kind::StoreStrided | Kind::StoreBlock
        );
        let sc = Value::Scalar;
        let mut v: Vec<(&'static str, Value<'static>)> = alloc::vec![
            ("LscSubOp", sc(op.into())),
            ("Exec_size", sc(exec.into())),
            ("Pred", Value::Predicate(PredicateControl(pred))),
            ("LscSFID", sc(sfid)),
            ("CachingL1", sc(l1)),
            ("CachingL3", sc(l3)),
            ("AddrType", sc(model)),
            ("AddrScale", sc(scale)),
            ("AddrImmOffset", sc(u64::from(offset as u32))),
            ("AddrSize", sc(size)),
            ("DataSize", sc(dsize)),
            ("DataOrder", sc(order)),
            ("DataElemsPerAddr", sc(elems)),
            ("ChMask", sc(ch_mask)),
            ("Blocks", sc(blocks)),
            ("BlockWidth", sc(width)),
            ("BlockHeight", sc(height)),
            ("VNNI", sc(vnni)),
            (
                "Surface",
                Value::Vector(if stateless {
                    address::NO_SURFACE
                } else {
                    surface
                })
            ),
            ("DstData", Value::Raw(if loads { dst } else { NULL })),
            ("Src0Addrs", Value::Raw(src0)),
            ("Src0AddrBase", Value::Raw(src0)),
            ("Src0AddrPitch", Value::Vector(pitch)),
            (
                "Src1Data",
                Value::Raw(if stores || k == Kind::Atomic {
                    src1
                } else {
                    NULL
                })
            ),
            (
                "Src2Data",
                Value::Raw(if k == Kind::Atomic { src2 } else { NULL })
            ),
            ("Src0Data", Value::Raw(src0_data)),
        ];
        for (name, op) in BLOCK_OPERANDS.into_iter().zip(block_ops) {
            v.push((name, Value::Vector(op)));
        }
        v
    }

    /// Replaces field `at` (modulo their number) by the arbitrary value `x` (`t`: a type).
    fn corrupt(v: &mut [(&'static str, Value<'static>)], (at, x, t): (usize, u64, u8)) {
        let at = at % v.len();
        v[at].1 = match &v[at].1 {
            Value::Scalar(_) | Value::Raws(_) => Value::Scalar(x),
            Value::Predicate(_) => Value::Predicate(PredicateControl(x as u16)),
            Value::Raw(_) => Value::Raw(RawOperand {
                id: (x as u32) % 100,
                offset: (x >> 32) as u16,
            }),
            Value::Vector(_) => Value::Vector(VectorOperand::Immediate(Immediate {
                ty: DataType::try_from(t).unwrap_or(DataType::Ud),
                value: x & 0xffff_ffff,
            })),
        };
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn printed_fields_parse_back(f in fields()) {
            let n = IntelNames;
            let mut text = String::new();
            if LSC.print(Fields::new("LSC_UNTYPED", &f), &n, &mut text, false).is_ok() {
                let mut c = Cursor::new(&text);
                let pred = parse_predicate_prefix(&mut c, &n).map_err(|e| TestCaseError::fail(alloc::format!("{text}: {e}")))?;
                let w = Words::read(&mut c);
                let back = LSC.parse(pred, w, c, &n).map_err(|e| TestCaseError::fail(alloc::format!("{text}: {e}")))?;
                // Every field the parser sets that the printed format has is the same value.
                for (name, v) in &back.0 {
                    if let Some(orig) = Fields::new("LSC_UNTYPED", &f).get(name) {
                        prop_assert_eq!(orig, v, "{} in `{}`", name, text);
                    }
                }
                let mut again = String::new();
                LSC.print(Fields::new("LSC_UNTYPED", &back.0), &n, &mut again, false).map_err(|e| TestCaseError::fail(alloc::format!("{text}: {e}")))?;
                prop_assert_eq!(again, text);
            }
        }

        #[test]
        fn parsers_never_panic(s in "(\\(P1\\) )?lsc_[a-z_0-9]{0,12}(\\.[a-z0-9]{0,4}){0,3} [(M1_NM, 0-9)]{0,9} [-+ %V0-9:.dxuctn\\[\\]\\(\\)a-z,*]{0,60}") {
            let n = IntelNames;
            let _ = parse_line_with(&s, &n);
        }
    }

    /// The property above means something only if many generated cases print.
    #[test]
    fn many_generated_fields_print() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = fields();
        let (mut printed, mut kinds) = (0, alloc::collections::BTreeSet::<String>::new());
        for _ in 0..4000 {
            let f = strategy.new_tree(&mut runner).unwrap().current();
            let mut text = String::new();
            if LSC
                .print(
                    Fields::new("LSC_UNTYPED", &f),
                    &IntelNames,
                    &mut text,
                    false,
                )
                .is_ok()
            {
                printed += 1;
                kinds.insert(
                    text.split(['.', ' '])
                        .find(|w| w.starts_with("lsc_"))
                        .unwrap_or("")
                        .into(),
                );
            }
        }
        assert!(printed >= 200, "only {printed} of 4000 cases print");
        assert!(
            kinds.len() >= 25,
            "only {} sub-operations print: {kinds:?}",
            kinds.len()
        );
    }

    fn parse_line_with(text: &str, n: &IntelNames) -> Result<Parsed, ParseError> {
        let mut c = Cursor::new(text);
        let pred = parse_predicate_prefix(&mut c, n)?;
        let w = Words::read(&mut c);
        LSC.parse(pred, w, c, n)
    }
}

/// Names that print as IGC 2.x does (vISA 4.2).
struct Igc2(NameTable);

impl Names for Igc2 {
    fn general(&self, id: u32) -> Option<alloc::borrow::Cow<'_, str>> {
        self.0.general(id)
    }
    fn general_id(&self, name: &str) -> Option<u32> {
        self.0.general_id(name)
    }
    fn label(&self, id: u32) -> Option<alloc::borrow::Cow<'_, str>> {
        self.0.label(id)
    }
    fn label_id(&self, name: &str) -> Option<u32> {
        self.0.label_id(name)
    }
    fn dialect(&self) -> crate::runtime::text::Dialect {
        crate::runtime::text::Dialect::Igc2
    }
}

#[test]
fn typed_lines_in_both_printers_spellings() {
    let n = names();
    // GenX_IR 12504.6 (`intel-isa asm` on DG2) reprints `[V0033,V0034]` with all four
    // coordinates; its bytes are opcode 0x8a, which our assembly of this line matches.
    let igc1 =
        "lsc_store_quad.tgm (M1, 16)  bss(V0032)[V0033, V0034, %null, %null]:a32  V0035:d32.xyzw";
    let p = parse_line(igc1, &n).unwrap();
    assert_eq!(p.scalar("LscSubOp"), Some(0x06));
    assert_eq!(p.raw("Src0AddrsV"), Some(RawOperand { id: 34, offset: 0 }));
    assert_eq!(p.raw("Src0AddrsR"), Some(NULL));
    assert!(p.get("LscSFID").is_none(), "a typed line has no SFID field");
    let mut s = String::new();
    LSC.print(Fields::new("LSC_TYPED", &p.0), &n, &mut s, false)
        .unwrap();
    assert_eq!(s, igc1);
    // IGC 2.x (tests/modern/fixtures/bmg/images/images.visaasm) stops at the first %null.
    let igc2 = "lsc_store_quad.tgm (M1, 32)  bss(V0100)[V0054,V0058]:a32  V0101:d32.xyzw";
    let names2 = Igc2(names());
    let p = parse_line(igc2, &n).unwrap();
    let mut s = String::new();
    LSC.print(Fields::new("LSC_TYPED", &p.0), &names2, &mut s, false)
        .unwrap();
    assert_eq!(s, igc2);
    let load = "lsc_load_quad.tgm (M1, 32)  V0035:d32.xyzw  bss(V0032)[V0033]:a32";
    let p = parse_line(load, &n).unwrap();
    let mut s = String::new();
    LSC.print(Fields::new("LSC_TYPED", &p.0), &names2, &mut s, false)
        .unwrap();
    assert_eq!(s, load);
    // An untyped unit keeps LSC_UNTYPED's fields.
    let p = parse_line(
        "lsc_load_quad.ugm (M1, 16)  V0032:d32.xzw  flat[V0033]:a64",
        &n,
    )
    .unwrap();
    assert_eq!(p.scalar("LscSFID"), Some(0));
    // IGC 2.x's coordinate offsets have no field in the docs' layout.
    let e = parse_line(
        "lsc_load_quad.tgm (M1, 32)  V0035:d32.xyzw  bss(V0032)[V0033+1]:a32",
        &n,
    )
    .unwrap_err();
    assert!(e.expected.contains("coordinate offset"), "{e}");
}

#[test]
fn three_cache_levels_come_apart_and_back() {
    // tests/modern/fixtures/nvl-p/private_memory/private_memory.visaasm (IGC 2.x, NVL).
    let line = "lsc_store.ugm.wb.wb.uc (M1, 32)  surf(V0043)[V0046]:a32u  V0048:d32";
    let (two, l2) = split_caching_l2(line).unwrap();
    assert_eq!(
        two,
        "lsc_store.ugm.wb.uc (M1, 32)  surf(V0043)[V0046]:a32u  V0048:d32"
    );
    assert_eq!(l2, 3); // wb
    assert_eq!(insert_caching_l2(&two, l2).as_deref(), Some(line));
    let pred = "(P1) lsc_load.ugm.ca.cc.ca (M1, 32)  V0032:d32  flat[V0033]:a64";
    let (two, l2) = split_caching_l2(pred).unwrap();
    assert_eq!(
        two,
        "(P1) lsc_load.ugm.ca.ca (M1, 32)  V0032:d32  flat[V0033]:a64"
    );
    assert_eq!(insert_caching_l2(&two, l2).as_deref(), Some(pred));
    // Default L1 and L3 print no cache controls: all three come back.
    assert_eq!(
        insert_caching_l2("lsc_load.ugm (M1, 32)  V0032:d32  flat[V0033]:a64", 1).as_deref(),
        Some("lsc_load.ugm.df.uc.df (M1, 32)  V0032:d32  flat[V0033]:a64")
    );
    // Two levels, or no LSC message: nothing to split.
    assert_eq!(
        split_caching_l2("lsc_load.ugm.ca.ca (M1, 16)  V0059:d32  bti(0x1)[V0057]:a32"),
        None
    );
    assert_eq!(split_caching_l2("add.sat.x.y.z (M1, 16) V1 V2 V3"), None);
    assert_eq!(split_caching_l2("lsc_load.ugm.ca.zz.ca (M1, 16)"), None);
}
