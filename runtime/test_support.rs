//! Hand-written proptest strategies for the runtime's operand types, used by the generated
//! property tests (`src/generated/roundtrip.rs`). They produce only operands the operands chapter
//! allows, restricted to the classes and types a field's doc allows.

#![allow(dead_code)]

use crate::runtime::{
    DataType, Immediate, OperandClass, PredicateCombine, PredicateControl, RawOperand, Region,
    StateClass, VectorOperand,
};
use alloc::vec;
use alloc::vec::Vec;
use proptest::prelude::*;

/// Predicate control words the chapter allows (reserved bit clear, combine not `11`).
pub fn predicate() -> impl Strategy<Value = PredicateControl> {
    (
        0u16..=0xfff,
        prop_oneof![
            Just(PredicateCombine::Sequential),
            Just(PredicateCombine::Any),
            Just(PredicateCombine::All)
        ],
        any::<bool>(),
    )
        .prop_map(|(id, c, inv)| PredicateControl::new(id, c, inv))
}

pub fn raw_operand() -> impl Strategy<Value = RawOperand> {
    (any::<u32>(), any::<u16>()).prop_map(|(id, offset)| RawOperand { id, offset })
}

fn types(allowed: &[&str], immediate: bool) -> Vec<DataType> {
    let all: Vec<DataType> = DataType::ALL
        .iter()
        .copied()
        .filter(|t| *t != DataType::Bool || !immediate)
        .collect();
    if allowed.is_empty() {
        return all;
    }
    let picked: Vec<DataType> = all
        .into_iter()
        .filter(|t| allowed.contains(&t.name()))
        .collect();
    if picked.is_empty() {
        DataType::ALL.to_vec()
    } else {
        picked
    }
}

fn class_strategy(class: OperandClass, allowed_types: &[&str]) -> BoxedStrategy<VectorOperand> {
    match class {
        OperandClass::General => (0u8..8, any::<u32>(), any::<u8>(), any::<u8>(), any::<u16>())
            .prop_map(
                |(modifier, id, row_offset, col_offset, region)| VectorOperand::General {
                    modifier,
                    id,
                    row_offset,
                    col_offset,
                    region: Region(region),
                },
            )
            .boxed(),
        OperandClass::Address => (any::<u16>(), any::<u8>(), any::<u8>())
            .prop_map(|(id, offset, width)| VectorOperand::Address { id, offset, width })
            .boxed(),
        OperandClass::Predicate => predicate().prop_map(VectorOperand::Predicate).boxed(),
        OperandClass::Indirect => {
            let tys = types(allowed_types, false);
            (
                0u8..8,
                any::<u16>(),
                any::<u8>(),
                any::<i16>(),
                proptest::sample::select(tys),
                0u8..16,
                any::<u16>(),
            )
                .prop_map(
                    |(modifier, id, addr_offset, indirect_offset, ty, high, region)| {
                        VectorOperand::Indirect {
                            modifier,
                            id,
                            addr_offset,
                            indirect_offset,
                            bit_properties: ty.as_u8() | high << 4,
                            region: Region(region),
                        }
                    },
                )
                .boxed()
        }
        OperandClass::Immediate => {
            let tys = types(allowed_types, true);
            (proptest::sample::select(tys), any::<u64>())
                .prop_map(|(ty, v)| {
                    let value = if Immediate::is_wide(ty) {
                        v
                    } else {
                        v & 0xffff_ffff
                    };
                    VectorOperand::Immediate(Immediate { ty, value })
                })
                .boxed()
        }
        OperandClass::State => (
            prop_oneof![Just(StateClass::Surface), Just(StateClass::Sampler)],
            any::<u16>(),
            any::<u8>(),
        )
            .prop_map(|(class, id, offset)| VectorOperand::State { class, id, offset })
            .boxed(),
    }
}

/// Vector operands of the given classes (all when empty) whose carried type, if any, is one of
/// `allowed_types` (any when empty). Names as the docs write them: `general`, `UD`.
pub fn vector_operand(classes: &[&str], allowed_types: &[&str]) -> BoxedStrategy<VectorOperand> {
    let mut picked: Vec<OperandClass> = classes
        .iter()
        .filter_map(|c| OperandClass::from_name(c))
        .collect();
    if picked.is_empty() {
        picked = vec![
            OperandClass::General,
            OperandClass::Address,
            OperandClass::Predicate,
            OperandClass::Indirect,
            OperandClass::Immediate,
            OperandClass::State,
        ];
    }
    let strategies: Vec<BoxedStrategy<VectorOperand>> = picked
        .into_iter()
        .map(|c| class_strategy(c, allowed_types))
        .collect();
    proptest::strategy::Union::new(strategies).boxed()
}
