//! Vector operands in IGC's spelling (`printVectorOperand`), every class:
//! general `V0050(0,0)<1;1,0>` (a destination `V0053(0,0)<1>`), with a modifier
//! `(-)V0060(0,0)<1;1,0>`; indirect `r[A0(0),0]<1,0>:d`, `r[A0(0),32]<1>:d`; address
//! `A0(0)<1>`; predicate `P5`; immediate `0x3fc00000:f`; state `T6(0)`.
//!
//! Destinations and sources share one spelling: the region word decides what is printed
//! (see [`region`](super::region)). The leading space IGC puts before each operand is the
//! caller's. Printing refuses values the text cannot spell, so whatever prints parses back to
//! the same operand, saturation aside: a destination's sat modifier (4) prints nothing, as in
//! IGC, because the instruction prints it as `.sat` ([`set_saturated`](super::set_saturated)
//! restores it).

use super::address::{parse_address_rest, print_address};
use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::immediate::{parse_immediate, print_immediate};
use super::modifier::{parse_modifier, Modifier};
use super::names::Names;
use super::predicate::print_predicate_operand;
use super::region::{parse_region, print_region};
use super::spellings::{type_of, type_text};
use super::state::{parse_state_offset, print_state, state_of};
use crate::runtime::{DataType, PredicateControl, VectorOperand};
use alloc::string::String;
use core::fmt::Write;

/// Prints `op`.
pub fn print_vector<N: Names + ?Sized>(
    out: &mut String,
    op: &VectorOperand,
    names: &N,
) -> Result<(), PrintError> {
    match *op {
        VectorOperand::General {
            modifier,
            id,
            row_offset,
            col_offset,
            region,
        } => {
            out.push_str(modifier_prefix(modifier)?);
            let name = names.general(id).ok_or(PrintError::NoName {
                kind: "general variable",
                id,
            })?;
            let _ = write!(out, "{name}({row_offset},{col_offset})");
            print_region(out, region)
        }
        VectorOperand::Indirect {
            modifier,
            id,
            addr_offset,
            indirect_offset,
            bit_properties,
            region,
        } => {
            out.push_str(modifier_prefix(modifier)?);
            let ty = match DataType::try_from(bit_properties) {
                Ok(ty) => ty,
                Err(_) => {
                    return Err(PrintError::Unprintable {
                        what: "indirect operand bit properties: only the type (bits 0-3) has text",
                        value: u64::from(bit_properties),
                    })
                }
            };
            let _ = write!(
                out,
                "r[{}({addr_offset}),{indirect_offset}]",
                names.address(id)
            );
            print_region(out, region)?;
            let _ = write!(out, ":{}", type_text(ty));
            Ok(())
        }
        VectorOperand::Address { id, offset, width } => {
            print_address(out, id, offset, width, names)
        }
        VectorOperand::Predicate(p) => print_predicate_operand(out, p, names),
        VectorOperand::Immediate(i) => print_immediate(out, i),
        VectorOperand::State { class, id, offset } => {
            print_state(out, class, id, offset, names);
            Ok(())
        }
    }
}

fn modifier_prefix(bits: u8) -> Result<&'static str, PrintError> {
    Modifier::from_bits(bits)
        .map(Modifier::prefix)
        .ok_or(PrintError::Unprintable {
            what: "operand modifier: values 0-5",
            value: u64::from(bits),
        })
}

const OPERAND: &str = "an operand: a variable, `r[` (indirect), a number, or a modifier";
const NAME: &str = "a declared variable, address, predicate, surface or sampler";

/// Parses one vector operand of any class. Names resolve in this order: general variable,
/// address, predicate, surface, sampler. Offsets `(r,c)` and the region are optional (IGC
/// accepts `VD<1>`); both absent mean (0,0) and the zero region word.
pub fn parse_vector<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
) -> Result<VectorOperand, ParseError> {
    let modifier = parse_modifier(c)?;
    let modified = modifier != Modifier::None;
    if c.eat("r[") {
        return parse_indirect_rest(c, names, modifier.bits());
    }
    match c.peek() {
        Some('0'..='9' | '-') if !modified => {
            return parse_immediate(c).map(VectorOperand::Immediate);
        }
        Some(_) => {}
        None => return Err(c.error(OPERAND)),
    }
    let at = c.column();
    let name = c.identifier(OPERAND)?;
    if let Some(id) = names.general_id(name) {
        let (row_offset, col_offset) = parse_offsets(c)?;
        let region = parse_region(c)?;
        return Ok(VectorOperand::General {
            modifier: modifier.bits(),
            id,
            row_offset,
            col_offset,
            region,
        });
    }
    if modified {
        return Err(c.error_at(at, "a general variable or `r[` after a modifier"));
    }
    if let Some(id) = names.address_id(name) {
        let (offset, width) = parse_address_rest(c)?;
        return Ok(VectorOperand::Address { id, offset, width });
    }
    if let Some(id) = names.predicate_id(name) {
        if id > 0xfff {
            return Err(c.error_at(at, "a predicate id up to 4095"));
        }
        return Ok(VectorOperand::Predicate(PredicateControl(id)));
    }
    if let Some((class, id)) = state_of(name, names) {
        let offset = parse_state_offset(c)?;
        return Ok(VectorOperand::State { class, id, offset });
    }
    Err(c.error_at(at, NAME))
}

/// `(row,col)` if present, else (0,0).
fn parse_offsets(c: &mut Cursor<'_>) -> Result<(u8, u8), ParseError> {
    if !c.eat("(") {
        return Ok((0, 0));
    }
    let row = c.unsigned_as::<u8>("a row offset 0..=255")?;
    c.expect(",", "`,` and the column offset")?;
    let col = c.unsigned_as::<u8>("a column offset 0..=255")?;
    c.expect(")", "`)` closing the offsets")?;
    Ok((row, col))
}

/// The rest of `r[A0(0),-4]<8;8,1>:d` after `r[`. The immediate offset is optional
/// (`r[A0(0)]<0>:d`, note §4.1).
fn parse_indirect_rest<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
    modifier: u8,
) -> Result<VectorOperand, ParseError> {
    let at = c.column();
    let name = c.identifier("an address variable (A<n>)")?;
    let id = names
        .address_id(name)
        .ok_or_else(|| c.error_at(at, "an address variable (A<n>)"))?;
    c.expect("(", "`(` and the address offset")?;
    let addr_offset = c.unsigned_as::<u8>("an address offset 0..=255")?;
    c.expect(")", "`)` closing the address offset")?;
    let indirect_offset = if c.eat(",") {
        let at = c.column();
        let v = c.signed("an immediate byte offset")?;
        i16::try_from(v).map_err(|_| c.error_at(at, "a byte offset that fits 16 bits"))?
    } else {
        0
    };
    c.expect("]", "`]` closing the indirect address")?;
    let region = parse_region(c)?;
    c.expect(":", "`:` and the indirect operand's type")?;
    let type_at = c.column();
    let ty = type_of(c.take_while(|ch| ch.is_ascii_alphanumeric()))
        .ok_or_else(|| c.error_at(type_at, "a type (ud d uw w ub b df f ...)"))?;
    Ok(VectorOperand::Indirect {
        modifier,
        id,
        addr_offset,
        indirect_offset,
        bit_properties: ty.as_u8(),
        region,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;
    use crate::runtime::{Immediate, Region, StateClass};

    fn general(modifier: u8, id: u32, row: u8, col: u8, region: u16) -> VectorOperand {
        VectorOperand::General {
            modifier,
            id,
            row_offset: row,
            col_offset: col,
            region: Region(region),
        }
    }

    fn indirect(id: u16, ao: u8, io: i16, ty: DataType, region: u16) -> VectorOperand {
        VectorOperand::Indirect {
            modifier: 0,
            id,
            addr_offset: ao,
            indirect_offset: io,
            bit_properties: ty as u8,
            region: Region(region),
        }
    }

    /// Intel's strings, each with the operand it denotes. Sources: arith_float_float_ops.visaasm
    /// (`or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud`, `mul (M1_NM, 1) V0047(0,0)<1>
    /// V0037(0,0)<0;1,0> V0035(0,1)<0;1,0>`, `add ... (-)V0060(0,0)<1;1,0>`, `add.sat ...
    /// (abs)V0087(0,0)<1;1,0>`, `movs (M1_NM, 1) T6(0) 0x0:ud`, `cmp.eq (M1, 16) P1 ...`);
    /// private_arrays_priv.visaasm (`mov ... r[A0(0),0]<1,0>:d`, `(P1) mov (M1, 8)
    /// r[A2(0),0]<1>:d ...`, `(P16) mov (M3, 8) r[A2(15),0]<1>:d V0115(1,7)<0;1,0>`,
    /// `addr_add (M1, 16) A0(0)<1> ...`); the brief's `r[A0(1),-4]<8;8,1>:d`,
    /// `r[A0(0),32]<1>:d`, `(-abs)`, `(~)` and `S0(0)`.
    fn intel_examples() -> [(&'static str, VectorOperand); 18] {
        [
            ("V0050(0,0)<1;1,0>", general(0, 50, 0, 0, 0x0122)),
            ("V0053(0,0)<1>", general(0, 53, 0, 0, 0x0200)),
            ("%cr0(0,0)<1>", general(0, 14, 0, 0, 0x0200)),
            ("%cr0(0,0)<0;1,0>", general(0, 14, 0, 0, 0x0121)),
            ("V0035(0,1)<0;1,0>", general(0, 35, 0, 1, 0x0121)),
            ("V0115(1,7)<0;1,0>", general(0, 115, 1, 7, 0x0121)),
            ("(-)V0060(0,0)<1;1,0>", general(2, 60, 0, 0, 0x0122)),
            ("(abs)V0087(0,0)<1;1,0>", general(1, 87, 0, 0, 0x0122)),
            ("(-abs)V0087(0,0)<1;1,0>", general(3, 87, 0, 0, 0x0122)),
            ("(~)V0087(0,0)<1;1,0>", general(5, 87, 0, 0, 0x0122)),
            ("r[A0(0),0]<1,0>:d", indirect(0, 0, 0, DataType::D, 0x0120)),
            ("r[A2(15),0]<1>:d", indirect(2, 15, 0, DataType::D, 0x0200)),
            (
                "r[A0(1),-4]<8;8,1>:d",
                indirect(0, 1, -4, DataType::D, 0x0255),
            ),
            ("r[A0(0),32]<1>:d", indirect(0, 0, 32, DataType::D, 0x0200)),
            (
                "A0(0)<1>",
                VectorOperand::Address {
                    id: 0,
                    offset: 0,
                    width: 0,
                },
            ),
            ("P1", VectorOperand::Predicate(PredicateControl(1))),
            (
                "T6(0)",
                VectorOperand::State {
                    class: StateClass::Surface,
                    id: 6,
                    offset: 0,
                },
            ),
            (
                "S0(0)",
                VectorOperand::State {
                    class: StateClass::Sampler,
                    id: 0,
                    offset: 0,
                },
            ),
        ]
    }

    fn parse(text: &str) -> Result<VectorOperand, ParseError> {
        let mut c = Cursor::new(text);
        let op = parse_vector(&mut c, &IntelNames)?;
        c.finish()?;
        Ok(op)
    }

    fn print(op: &VectorOperand) -> String {
        let mut s = String::new();
        print_vector(&mut s, op, &IntelNames).unwrap();
        s
    }

    #[test]
    fn intel_strings_print_and_parse() {
        for (text, op) in intel_examples() {
            assert_eq!(parse(text), Ok(op), "{text}");
            assert_eq!(print(&op), text);
            assert_eq!(print(&parse(text).unwrap()), text);
        }
        let imm = VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: 0x4c0,
        });
        assert_eq!(parse("0x4c0:ud"), Ok(imm));
        assert_eq!(print(&imm), "0x4c0:ud");
        assert_eq!(
            parse("%slm(0)"),
            Ok(VectorOperand::State {
                class: StateClass::Surface,
                id: 0,
                offset: 0
            })
        );
    }

    #[test]
    fn lenient_forms() {
        // note §4.1: `VD<1>` (no offsets), `r[A0(0)]<0>:d` (no immediate), upper-case types.
        assert_eq!(parse("V0053<1>"), Ok(general(0, 53, 0, 0, 0x0200)));
        assert_eq!(
            parse("r[A0(0)]<0>:D"),
            Ok(indirect(0, 0, 0, DataType::D, 0x0100))
        );
        assert_eq!(parse("V0053(0,0)"), Ok(general(0, 53, 0, 0, 0)));
    }

    #[test]
    fn errors_with_columns() {
        for (text, column) in [
            ("", 0),
            ("V0005(0,0)<1>", 0),
            ("V0050(0;0)<1>", 7),
            ("V0050(0,0)<3>", 11),
            ("(-)0x1:d", 3),
            ("(-)P1", 3),
            ("r[V0050(0),0]<1>:d", 2),
            ("r[A0(0),40000]<1>:d", 8),
            ("r[A0(0),0]<1>", 13),
            ("r[A0(0),0]<1>:zz", 14),
            ("T6", 2),
            ("A0(0)<3>", 6),
            ("P4096", 0),
            ("(+)V0050", 0),
            ("#", 0),
            ("V0050(0,0)<1;1,0> ", 17),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.column, column, "{text}: {e}");
        }
    }

    #[test]
    fn unprintable_operands_are_refused() {
        let mut s = String::new();
        assert!(print_vector(&mut s, &general(6, 50, 0, 0, 0x122), &IntelNames).is_err());
        assert!(print_vector(&mut s, &general(0, 22, 0, 0, 0x122), &IntelNames).is_err());
        assert!(
            print_vector(&mut s, &indirect(0, 0, 0, DataType::D, 0x0f00), &IntelNames).is_err()
        );
        let mut odd = indirect(0, 0, 0, DataType::D, 0x200);
        if let VectorOperand::Indirect { bit_properties, .. } = &mut odd {
            *bit_properties = 0x11;
        }
        assert!(print_vector(&mut s, &odd, &IntelNames).is_err());
    }
}
