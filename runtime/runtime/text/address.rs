//! Address operands `A0(0)<1>` (the width byte is an exec-size encoding: 0 prints `<1>`, as in
//! `addr_add (M1, 16) A0(0)<1> ...` of `private_arrays_priv.visaasm`, whose dst bytes are
//! `01 0000 00 00`) and the address-of form `&V0063` / `&V[64]` of ADDR_ADD's src0.

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::names::Names;
use crate::runtime::Region;
use alloc::string::String;
use core::fmt::Write;

/// Prints `A<id>(<offset>)<<width>>`; fails for width encodings above 5 (32 elements).
pub fn print_address<N: Names + ?Sized>(
    out: &mut String,
    id: u16,
    offset: u8,
    width: u8,
    names: &N,
) -> Result<(), PrintError> {
    if width > 5 {
        return Err(PrintError::Unprintable {
            what: "address operand width: encodings 0-5 (1-32 elements)",
            value: u64::from(width),
        });
    }
    out.push_str(&names.address(id));
    let _ = write!(out, "({offset})<{}>", 1u32 << width);
    Ok(())
}

/// Parses `(<offset>)<<width>>` after an address name.
pub fn parse_address_rest(c: &mut Cursor<'_>) -> Result<(u8, u8), ParseError> {
    c.expect("(", "`(` and the address operand's offset")?;
    let offset = c.unsigned_as::<u8>("an offset 0..=255")?;
    c.expect(")", "`)` closing the offset")?;
    c.expect("<", "`<` and the address operand's width")?;
    let at = c.column();
    const WIDTH: &str = "a width: 1, 2, 4, 8, 16 or 32";
    let width = c.unsigned(WIDTH)?;
    if !matches!(width, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(c.error_at(at, WIDTH));
    }
    c.expect(">", "`>` closing the width")?;
    Ok((offset, width.trailing_zeros() as u8))
}

/// ADDR_ADD's src0 `&V[bytes]`: a general variable and a byte offset, printed without the
/// region. IGC computes the offset as row × GRF size + column × element size and omits it
/// when 0 (note §1, ADDR_ADD row), so converting needs the variable's type and the platform.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AddressOf {
    pub id: u32,
    pub byte_offset: u32,
}

impl AddressOf {
    /// From a general operand's offsets; `element_size` and `grf_size` in bytes.
    pub fn from_offsets(id: u32, row: u8, col: u8, element_size: u32, grf_size: u32) -> Self {
        AddressOf {
            id,
            byte_offset: u32::from(row) * grf_size + u32::from(col) * element_size,
        }
    }

    /// Back to (row, column); `None` when the offset is not a whole element or does not fit.
    pub fn to_offsets(self, element_size: u32, grf_size: u32) -> Option<(u8, u8)> {
        if element_size == 0 || grf_size == 0 {
            return None;
        }
        let row = self.byte_offset / grf_size;
        let rest = self.byte_offset % grf_size;
        if rest / element_size * element_size != rest {
            return None;
        }
        Some((
            u8::try_from(row).ok()?,
            u8::try_from(rest / element_size).ok()?,
        ))
    }

    /// The region IGC stores for `&V` sources: `<0;1,0>` (0x0121, the bytes of
    /// `addr_add (M1, 16) A0(0)<1> &V0063 ...` in `private_arrays_priv.isa`).
    pub const REGION: Region = Region(0x0121);
}

/// Prints `&<name>` and `[<bytes>]` when the offset is not 0.
pub fn print_address_of<N: Names + ?Sized>(
    out: &mut String,
    a: AddressOf,
    names: &N,
) -> Result<(), PrintError> {
    let name = names.general(a.id).ok_or(PrintError::NoName {
        kind: "general variable",
        id: a.id,
    })?;
    let _ = write!(out, "&{name}");
    if a.byte_offset != 0 {
        let _ = write!(out, "[{}]", a.byte_offset);
    }
    Ok(())
}

/// Parses `&<name>[<bytes>]`, the offset optional.
pub fn parse_address_of<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
) -> Result<AddressOf, ParseError> {
    c.expect("&", "`&` and a variable name")?;
    let at = c.column();
    let name = c.identifier("a variable name")?;
    let id = names
        .general_id(name)
        .ok_or_else(|| c.error_at(at, "a declared general variable"))?;
    let byte_offset = if c.eat("[") {
        let v = c.unsigned_as::<u32>("a byte offset")?;
        c.expect("]", "`]` closing the byte offset")?;
        v
    } else {
        0
    };
    Ok(AddressOf { id, byte_offset })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    #[test]
    fn address_operands() {
        // private_arrays_priv.visaasm: `addr_add (M1, 16) A0(0)<1> &V0063 V0120(0,0)<1;1,0>`.
        let mut out = String::new();
        print_address(&mut out, 0, 0, 0, &IntelNames).unwrap();
        out.push(' ');
        print_address_of(
            &mut out,
            AddressOf {
                id: 63,
                byte_offset: 0,
            },
            &IntelNames,
        )
        .unwrap();
        assert_eq!(out, "A0(0)<1> &V0063");
        let mut c = Cursor::new("(3)<16>");
        assert_eq!(parse_address_rest(&mut c), Ok((3, 4)));
        let e = parse_address_rest(&mut Cursor::new("(0)<3>")).unwrap_err();
        assert_eq!(e.column, 4);
        assert!(print_address(&mut out, 0, 0, 6, &IntelNames).is_err());
    }

    #[test]
    fn address_of_offsets() {
        // note §1: `addr_add (M1_NM, 1) A0(0)<1> &VD[64] 0x10:uw`.
        let mut c = Cursor::new("&V0040[64]");
        let a = parse_address_of(&mut c, &IntelNames).unwrap();
        assert_eq!(
            a,
            AddressOf {
                id: 40,
                byte_offset: 64
            }
        );
        let mut out = String::new();
        print_address_of(&mut out, a, &IntelNames).unwrap();
        assert_eq!(out, "&V0040[64]");
        // row 2 of 32-byte GRFs = 64; column 3 of dwords = 12.
        assert_eq!(AddressOf::from_offsets(40, 2, 3, 4, 32).byte_offset, 76);
        assert_eq!(a.to_offsets(4, 32), Some((2, 0)));
        assert_eq!(
            AddressOf {
                id: 1,
                byte_offset: 3
            }
            .to_offsets(4, 32),
            None
        );
        let e = parse_address_of(&mut Cursor::new("&V0005"), &IntelNames).unwrap_err();
        assert_eq!(e.column, 1);
    }
}
