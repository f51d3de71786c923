//! Properties over arbitrary input: parsers never panic, and every operand that prints parses
//! back to itself (printers refuse what the text cannot spell).

use super::*;
use crate::runtime::{
    DataType, ExecSize, Immediate, PredicateControl, RawOperand, Region, StateClass, VectorOperand,
};
use alloc::string::String;
use proptest::prelude::*;

fn vector_operand() -> impl Strategy<Value = VectorOperand> {
    prop_oneof![
        (
            0u8..8,
            any::<u32>(),
            any::<u8>(),
            any::<u8>(),
            region_word()
        )
            .prop_map(
                |(modifier, id, row_offset, col_offset, r)| VectorOperand::General {
                    modifier,
                    id,
                    row_offset,
                    col_offset,
                    region: Region(r),
                }
            ),
        (any::<u16>(), any::<u8>(), 0u8..8)
            .prop_map(|(id, offset, width)| VectorOperand::Address { id, offset, width }),
        any::<u16>().prop_map(|w| VectorOperand::Predicate(PredicateControl(w))),
        (
            0u8..8,
            any::<u16>(),
            any::<u8>(),
            any::<i16>(),
            0u8..32,
            region_word()
        )
            .prop_map(
                |(modifier, id, addr_offset, indirect_offset, bit_properties, r)| {
                    VectorOperand::Indirect {
                        modifier,
                        id,
                        addr_offset,
                        indirect_offset,
                        bit_properties,
                        region: Region(r),
                    }
                }
            ),
        (0u8..16, any::<u64>(), any::<bool>()).prop_map(|(t, v, narrow)| {
            let ty = DataType::try_from(t).unwrap_or(DataType::Ud);
            let value = if narrow { v & 0xffff_ffff } else { v };
            VectorOperand::Immediate(Immediate { ty, value })
        }),
        (any::<bool>(), any::<u16>(), any::<u8>()).prop_map(|(s, id, offset)| {
            VectorOperand::State {
                class: if s {
                    StateClass::Sampler
                } else {
                    StateClass::Surface
                },
                id,
                offset,
            }
        }),
    ]
}

/// Region words: mostly valid ones, some arbitrary.
fn region_word() -> impl Strategy<Value = u16> {
    prop_oneof![3 => valid_region().prop_map(|r| r.0), 1 => any::<u16>()]
}

/// Regions every field of which is a valid encoding, so the printer must accept them.
fn valid_region() -> impl Strategy<Value = Region> {
    (0u8..8, 0u8..8, 1u8..8).prop_map(|(v, w, h)| Region::new(v, w, h))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}") {
        let n = IntelNames;
        let _ = parse_all(&s, |c| parse_vector(c, &n));
        let _ = parse_all(&s, |c| parse_raw(c, &n));
        let _ = parse_all(&s, parse_exec_size);
        let _ = parse_all(&s, |c| parse_predicate_prefix(c, &n));
        let _ = parse_all(&s, parse_immediate);
        let _ = parse_all(&s, |c| parse_address_of(c, &n));
        let _ = parse_all(&s, |c| parse_label(c, &n));
        let _ = split_line(&s);
    }

    #[test]
    fn parsers_never_panic_on_operand_like_text(s in "[-(~)absr\\[\\]A0-9,;<>:.%VPTSxfdq&!_ ]{0,30}") {
        let n = IntelNames;
        let _ = parse_all(&s, |c| parse_vector(c, &n));
        let _ = parse_all(&s, |c| parse_raw(c, &n));
        let _ = parse_all(&s, parse_exec_size);
        let _ = parse_all(&s, |c| parse_predicate_prefix(c, &n));
    }

    #[test]
    fn printed_vector_operands_parse_back(op in vector_operand()) {
        let mut s = String::new();
        if print_vector(&mut s, &op, &IntelNames).is_ok() {
            let mut back = parse_all(&s, |c| parse_vector(c, &IntelNames));
            // Saturation is the instruction's `.sat`, restored by its parser.
            if is_saturated(&op) {
                if let Ok(b) = back.as_mut() {
                    set_saturated(b);
                }
            }
            prop_assert_eq!(back, Ok(op), "{}", s);
        }
    }

    #[test]
    fn valid_general_operands_always_print(
        modifier in prop_oneof![Just(0u8), Just(1), Just(2), Just(3), Just(5)],
        id in 32u32.., row in any::<u8>(), col in any::<u8>(), region in valid_region(),
    ) {
        let op = VectorOperand::General { modifier, id, row_offset: row, col_offset: col, region };
        let mut s = String::new();
        prop_assert!(print_vector(&mut s, &op, &IntelNames).is_ok());
        prop_assert_eq!(parse_all(&s, |c| parse_vector(c, &IntelNames)), Ok(op));
    }

    #[test]
    fn raw_operands_round_trip(id in 32u32.., offset in any::<u16>()) {
        let raw = RawOperand { id, offset };
        let mut s = String::new();
        print_raw(&mut s, raw, &IntelNames).unwrap();
        prop_assert_eq!(parse_all(&s, |c| parse_raw(c, &IntelNames)), Ok(raw));
    }

    #[test]
    fn exec_sizes_round_trip(b in any::<u8>()) {
        let mut s = String::new();
        if print_exec_size(&mut s, ExecSize(b)).is_ok() {
            prop_assert_eq!(parse_all(&s, parse_exec_size), Ok(ExecSize(b)));
        } else {
            prop_assert!(b & 7 > 5 || b & 8 != 0);
        }
    }

    #[test]
    fn predicate_prefixes_round_trip(w in any::<u16>()) {
        let mut s = String::new();
        let p = PredicateControl(w);
        if print_predicate_prefix(&mut s, p, &IntelNames).is_ok() {
            prop_assert_eq!(parse_all(&s, |c| parse_predicate_prefix(c, &IntelNames)), Ok(p));
        } else {
            prop_assert!(!p.is_valid());
        }
    }

    #[test]
    fn float_literals_match_their_bits(x in any::<f32>().prop_filter("finite", |x| x.is_finite())) {
        let text = alloc::format!("{x:e}:f");
        let i = parse_all(&text, parse_immediate);
        prop_assert_eq!(i, Ok(Immediate { ty: DataType::F, value: u64::from(x.to_bits()) }));
    }
}
