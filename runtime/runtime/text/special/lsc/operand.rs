//! Operands as IGC 12504.6 spells them inside LSC instructions (`LscInstFormatter`): a raw
//! operand without its `.0` (`V0059`, `%null`, `VA.64` for a byte offset), and a vector
//! operand (surface, stride, block2d coordinates) as a bare name (`VS`, `VS(0,1)` off the
//! origin) or an immediate in upper-case hexadecimal without a type (`0xAB`), all reprinted so
//! by GenX_IR. The parser makes what IGC's parser makes of them (GenX_IR's assembly of
//! `bti(0xab)` and `bss(VS(0,1))`): an immediate of type `ud`, a general operand of region
//! `<0;1,0>`; other operands have no LSC spelling and are refused by the printer.

use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::{AddressOf, Cursor, Names};
use crate::runtime::{DataType, Immediate, RawOperand, VectorOperand};
use alloc::string::String;
use core::fmt::Write;

/// The region of a general operand in LSC (`<0;1,0>`, a scalar).
const SCALAR: crate::runtime::Region = AddressOf::REGION;

fn name_of(names: &dyn Names, id: u32) -> Result<alloc::borrow::Cow<'_, str>, PrintError> {
    names.general(id).ok_or(PrintError::NoName {
        kind: "general variable",
        id,
    })
}

/// Prints `V`, or `V.off` for a non-zero byte offset.
pub fn print_raw(out: &mut String, raw: RawOperand, names: &dyn Names) -> Result<(), PrintError> {
    out.push_str(&name_of(names, raw.id)?);
    if raw.offset != 0 {
        let _ = write!(out, ".{}", raw.offset);
    }
    Ok(())
}

/// Prints a surface, stride or coordinate operand.
pub fn print_vector(
    out: &mut String,
    op: VectorOperand,
    names: &dyn Names,
) -> Result<(), PrintError> {
    match op {
        VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value,
        }) => {
            let _ = write!(out, "0x{value:X}");
            Ok(())
        }
        VectorOperand::General {
            modifier: 0,
            id,
            row_offset,
            col_offset,
            region,
        } if region == SCALAR => {
            out.push_str(&name_of(names, id)?);
            if (row_offset, col_offset) != (0, 0) {
                let _ = write!(out, "({row_offset},{col_offset})");
            }
            Ok(())
        }
        _ => Err(PrintError::Unprintable {
            what: "LSC_UNTYPED vector operand: LSC spells only a `ud` immediate or a variable with region <0;1,0> and no modifier",
            value: op.class() as u64,
        }),
    }
}

/// A variable name. `-` may continue a name in vISA (`Cursor::identifier`), but in LSC it
/// starts a negative offset (`flat[VB-0x10]`): it belongs to the name only when the longer
/// name is declared.
pub fn parse_name(c: &mut Cursor<'_>, names: &dyn Names) -> Result<u32, ParseError> {
    let at = c.column();
    let mut longer = c.clone();
    let full = longer.identifier("a variable name")?;
    if let Some(id) = names.general_id(full) {
        *c = longer;
        return Ok(id);
    }
    c.eat(&full[..1]);
    let rest = c.take_while(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '$' | '@' | '?'));
    let name = c.slice(at, at + 1 + rest.len());
    names
        .general_id(name)
        .ok_or_else(|| c.error_at(at, "a declared general variable"))
}

/// Parses `V` or `V.off`.
pub fn parse_raw(c: &mut Cursor<'_>, names: &dyn Names) -> Result<RawOperand, ParseError> {
    let id = parse_name(c, names)?;
    let offset =
        if c.peek() == Some('.') && c.rest()[1..].starts_with(|ch: char| ch.is_ascii_digit()) {
            c.eat(".");
            c.unsigned_as::<u16>("a byte offset 0..=65535")?
        } else {
            0
        };
    Ok(RawOperand { id, offset })
}

/// Parses a number (an immediate of type `ud`) or `V` / `V(r,c)`.
pub fn parse_vector(c: &mut Cursor<'_>, names: &dyn Names) -> Result<VectorOperand, ParseError> {
    if matches!(c.peek(), Some('0'..='9')) {
        let v = c.unsigned_as::<u32>("a 32-bit number")?;
        return Ok(VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: u64::from(v),
        }));
    }
    let id = parse_name(c, names)?;
    let (mut row_offset, mut col_offset) = (0, 0);
    if c.eat("(") {
        row_offset = c.unsigned_as::<u8>("a row offset 0..=255")?;
        c.expect(",", "`,`")?;
        c.skip_spaces();
        col_offset = c.unsigned_as::<u8>("a column offset 0..=255")?;
        c.expect(")", "`)`")?;
    }
    Ok(VectorOperand::General {
        modifier: 0,
        id,
        row_offset,
        col_offset,
        region: SCALAR,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::NameTable;

    fn names() -> NameTable {
        let mut n = NameTable::new();
        n.declare_general(32, "VA");
        n.declare_general(33, "VB");
        n.declare_general(34, "V-B");
        n
    }

    #[test]
    fn intel_spellings() {
        // GenX_IR 12504.6 reprints: `VA.64:d32`, `bti(0xAB)` (typed `0xab` and `171`),
        // `bss(VS(0,1))`; fixtures print `%null` without `.0`.
        let n = names();
        let mut s = String::new();
        print_raw(&mut s, RawOperand { id: 32, offset: 64 }, &n).unwrap();
        s.push(' ');
        print_raw(&mut s, RawOperand { id: 0, offset: 0 }, &n).unwrap();
        s.push(' ');
        let imm = VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: 0xab,
        });
        print_vector(&mut s, imm, &n).unwrap();
        s.push(' ');
        let general = VectorOperand::General {
            modifier: 0,
            id: 33,
            row_offset: 0,
            col_offset: 1,
            region: SCALAR,
        };
        print_vector(&mut s, general, &n).unwrap();
        assert_eq!(s, "VA.64 %null 0xAB VB(0,1)");
        let mut c = Cursor::new("171");
        assert_eq!(parse_vector(&mut c, &n), Ok(imm));
        let mut c = Cursor::new("VB(0,1)]");
        assert_eq!(parse_vector(&mut c, &n), Ok(general));
        assert_eq!(c.rest(), "]");
    }

    #[test]
    fn a_minus_ends_a_name_unless_the_longer_name_is_declared() {
        let n = names();
        let mut c = Cursor::new("VB-0x10]");
        assert_eq!(parse_name(&mut c, &n), Ok(33));
        assert_eq!(c.rest(), "-0x10]");
        let mut c = Cursor::new("V-B]");
        assert_eq!(parse_name(&mut c, &n), Ok(34));
        let mut c = Cursor::new("VA.64:d32");
        assert_eq!(parse_raw(&mut c, &n), Ok(RawOperand { id: 32, offset: 64 }));
        assert_eq!(c.rest(), ":d32");
        assert!(parse_name(&mut Cursor::new("VZ"), &n).is_err());
    }

    #[test]
    fn refused_operands() {
        let n = names();
        let typed = VectorOperand::Immediate(Immediate {
            ty: DataType::D,
            value: 1,
        });
        assert!(print_vector(&mut String::new(), typed, &n).is_err());
    }
}
