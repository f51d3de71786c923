//! The address operand of an LSC message: the address model, its surface for the stateful
//! ones, then in brackets an optional scale, the address register, an optional immediate
//! offset and, for strided messages, the stride; then the address size: `flat[V0057]:a64`,
//! `bti(0x1)[V0057]:a32`, `ss(V0049)[V0050]:a32` (Intel's print, tests/ocl/fixtures),
//! `flat[VB+0x10]:a64`, `flat[VB-0x10]:a32`, `flat[VS+0x10, 0x4]:a64` (GenX_IR 12504.6
//! reprints). IGC's parser also takes `[VB]` for `flat[VB]` and a strided address without a
//! stride; both are reprinted in full. The scale (`0x4*VOFF`) is the doc's spelling: GenX_IR
//! 12504.6 reads it but crashes before printing ("address scaling not supported yet").

use super::operand::{parse_raw, parse_vector, print_raw, print_vector};
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::error;
use crate::runtime::text::spellings::{spell, value_of, LSC_ADDRESS_MODELS, LSC_ADDRESS_SIZES};
use crate::runtime::text::{Cursor, Dialect, Names};
use crate::runtime::{DataType, Immediate, RawOperand, VectorOperand};
use alloc::string::String;
use core::fmt::Write;

const FLAT: u64 = 1;
const ARG: u64 = 5;

/// The surface of the stateless models (`flat`, `arg`), which print none: what IGC's parser
/// stores (GenX_IR assembles `flat[VB]` with an immediate 0 of type `ud`).
pub const NO_SURFACE: VectorOperand = VectorOperand::Immediate(Immediate {
    ty: DataType::Ud,
    value: 0,
});

/// An address, field by field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub model: u64,
    pub surface: VectorOperand,
    pub scale: u64,
    /// AddrImmOffset's bits (a signed 32-bit field).
    pub offset: u64,
    pub size: u64,
    pub base: RawOperand,
    /// The stride of a strided message.
    pub stride: Option<VectorOperand>,
}

fn bad(what: &'static str, value: u64) -> PrintError {
    PrintError::Unprintable { what, value }
}

/// Prints the model and surface: `flat`, `bti(0x1)`, `ss(V0049)`; a flat or arg address with
/// a base (LSC_UNTYPED.md's Surface: "a nonzero register or immediate" where the platform has
/// an a64 base) as IGC 2.x prints it, `flat(V0067)`.
pub fn print_model(
    out: &mut String,
    model: u64,
    surface: VectorOperand,
    names: &dyn Names,
) -> Result<(), PrintError> {
    let text = u8::try_from(model)
        .ok()
        .and_then(|m| spell(LSC_ADDRESS_MODELS, m))
        .ok_or(bad(
            "LSC_UNTYPED AddrType: flat, bss, ss, bti, arg or surf",
            model,
        ))?;
    out.push_str(text);
    if (model == FLAT || model == ARG) && surface == NO_SURFACE {
        return Ok(());
    }
    if (model == FLAT || model == ARG) && names.dialect() == Dialect::Igc1 {
        return Err(bad(
            "LSC_UNTYPED Surface: IGC 12504.6 prints no base of a flat or arg address, so it must be the immediate 0:ud",
            0,
        ));
    }
    out.push('(');
    print_vector(out, surface, names)?;
    out.push(')');
    Ok(())
}

/// Prints the whole address.
pub fn print_address(out: &mut String, a: Address, names: &dyn Names) -> Result<(), PrintError> {
    print_model(out, a.model, a.surface, names)?;
    out.push('[');
    if a.scale > u64::from(u16::MAX) {
        return Err(bad("LSC_UNTYPED AddrScale: 16 bits", a.scale));
    }
    if a.scale != 1 {
        let _ = write!(out, "0x{:x}*", a.scale);
    }
    print_raw(out, a.base, names)?;
    let offset = u32::try_from(a.offset)
        .map_err(|_| bad("LSC_UNTYPED AddrImmOffset: 32 bits", a.offset))? as i32;
    if offset > 0 {
        let _ = write!(out, "+0x{offset:x}");
    } else if offset < 0 {
        let _ = write!(out, "-0x{:x}", offset.unsigned_abs());
    }
    if let Some(s) = a.stride {
        out.push_str(", ");
        print_vector(out, s, names)?;
    }
    out.push_str("]:");
    out.push_str(
        u8::try_from(a.size)
            .ok()
            .and_then(|s| spell(LSC_ADDRESS_SIZES, s))
            .ok_or(bad(
                "LSC_UNTYPED AddrSize: a16, a32, a64, a32u or a32s",
                a.size,
            ))?,
    );
    Ok(())
}

/// Parses the model and its surface (`bti(0x1)`); an empty model is `flat`.
pub fn parse_model(
    c: &mut Cursor<'_>,
    names: &dyn Names,
) -> Result<(u64, VectorOperand), ParseError> {
    let at = c.column();
    let word = c.take_while(|ch| ch.is_ascii_alphanumeric());
    let model = if word.is_empty() {
        FLAT
    } else {
        value_of(LSC_ADDRESS_MODELS, word)
            .map(u64::from)
            .ok_or_else(|| {
                error(
                    at,
                    "an address model: flat, bss, ss, bti, arg or surf",
                    word,
                )
            })?
    };
    if (model == FLAT || model == ARG) && c.peek() != Some('(') {
        return Ok((model, NO_SURFACE));
    }
    c.expect("(", "`(` and the surface")?;
    let surface = parse_vector(c, names)?;
    c.expect(")", "`)`")?;
    Ok((model, surface))
}

/// Parses an address; a `strided` one may carry `, stride` (left out: `stride` is `None` and
/// the caller supplies the default, which depends on the data shape).
pub fn parse_address(
    c: &mut Cursor<'_>,
    strided: bool,
    names: &dyn Names,
) -> Result<Address, ParseError> {
    let (model, surface) = parse_model(c, names)?;
    c.expect("[", "`[` and the address")?;
    let mut scale = 1;
    if matches!(c.peek(), Some('0'..='9')) {
        scale = c.unsigned_as::<u16>("a scale 0..=65535, then `*`")?.into();
        c.expect("*", "`*` and the address register")?;
    }
    let base = parse_raw(c, names)?;
    let mut offset = 0i64;
    if matches!(c.peek(), Some('+' | '-')) {
        let at = c.column();
        let negative = c.eat("-");
        if !negative {
            c.eat("+");
        }
        let v = c.unsigned("an immediate offset")?;
        offset = i64::try_from(v)
            .ok()
            .map(|v| if negative { -v } else { v })
            .unwrap_or(i64::MAX);
        if i32::try_from(offset).is_err() {
            return Err(c.error_at(at, "an offset that fits 32 signed bits"));
        }
    }
    let stride = if strided && c.eat(",") {
        c.skip_spaces();
        Some(parse_vector(c, names)?)
    } else {
        None
    };
    c.expect("]", "`]`")?;
    c.expect(":", "`:` and the address size (a16, a32, a64)")?;
    let at = c.column();
    let word = c.take_while(|ch| ch.is_ascii_alphanumeric());
    let size = value_of(LSC_ADDRESS_SIZES, word)
        .ok_or_else(|| error(at, "an address size: a16, a32, a64, a32u or a32s", word))?;
    Ok(Address {
        model,
        surface,
        scale,
        offset: u64::from(offset as i32 as u32),
        size: u64::from(size),
        base,
        stride,
    })
}

/// Prints block2d's `flat[base, width, height, pitch, x, y]`.
pub fn print_block_address(
    out: &mut String,
    ops: &[VectorOperand; 6],
    names: &dyn Names,
) -> Result<(), PrintError> {
    out.push_str("flat[");
    for (k, op) in ops.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        print_vector(out, *op, names)?;
    }
    out.push(']');
    Ok(())
}

/// Parses block2d's address (`flat` may be left out).
pub fn parse_block_address(
    c: &mut Cursor<'_>,
    names: &dyn Names,
) -> Result<[VectorOperand; 6], ParseError> {
    c.eat("flat");
    c.expect(
        "[",
        "`[` and the block's surface base, width, height, pitch, x, y",
    )?;
    let mut ops = [NO_SURFACE; 6];
    for (k, op) in ops.iter_mut().enumerate() {
        if k > 0 {
            c.expect(",", "`,` and the next block2d operand")?;
            c.skip_spaces();
        }
        *op = parse_vector(c, names)?;
    }
    c.expect("]", "`]`")?;
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::NameTable;

    fn names() -> NameTable {
        let mut n = NameTable::new();
        for (id, name) in [(49, "V0049"), (50, "V0050"), (57, "V0057"), (60, "VS")] {
            n.declare_general(id, name);
        }
        n
    }

    fn reg(id: u32) -> VectorOperand {
        VectorOperand::General {
            modifier: 0,
            id,
            row_offset: 0,
            col_offset: 0,
            region: crate::runtime::text::AddressOf::REGION,
        }
    }

    fn ud(value: u64) -> VectorOperand {
        VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value,
        })
    }

    fn addr(model: u64, surface: VectorOperand, offset: i32, size: u64, base: u32) -> Address {
        Address {
            model,
            surface,
            scale: 1,
            offset: u64::from(offset as u32),
            size,
            base: RawOperand {
                id: base,
                offset: 0,
            },
            stride: None,
        }
    }

    #[test]
    fn intel_addresses() {
        // Fixtures: `flat[V0057]:a64`, `bti(0x1)[V0057]:a32`, `ss(V0049)[V0050]:a32`;
        // GenX_IR 12504.6 reprints `flat[V0057+0x10]:a64`, `flat[V0057-0xab]:a32` (of
        // `-0xAB`), `bti(0xAB)[V0057]:a32`, `arg[V0057]:a32`, `flat[VS+0x10, 0x4]:a64`.
        let n = names();
        let mut strided = addr(1, NO_SURFACE, 0x10, 3, 60);
        strided.stride = Some(ud(4));
        for (text, a) in [
            ("flat[V0057]:a64", addr(1, NO_SURFACE, 0, 3, 57)),
            ("bti(0x1)[V0057]:a32", addr(4, ud(1), 0, 2, 57)),
            ("ss(V0049)[V0050]:a32", addr(3, reg(49), 0, 2, 50)),
            ("flat[V0057+0x10]:a64", addr(1, NO_SURFACE, 0x10, 3, 57)),
            ("flat[V0057-0xab]:a32", addr(1, NO_SURFACE, -0xab, 2, 57)),
            ("bti(0xAB)[V0057]:a32", addr(4, ud(0xab), 0, 2, 57)),
            ("arg[V0057]:a32", addr(5, NO_SURFACE, 0, 2, 57)),
            ("flat[VS+0x10, 0x4]:a64", strided),
        ] {
            let mut s = String::new();
            print_address(&mut s, a, &n).unwrap();
            assert_eq!(s, text);
            let mut c = Cursor::new(text);
            let got = parse_address(&mut c, a.stride.is_some(), &n);
            assert_eq!(got, Ok(a), "{text}");
            assert!(c.at_end());
        }
        // IGC's parser: `[V]` is flat; a strided address without stride takes the default.
        let mut c = Cursor::new("[V0057]:a32");
        assert_eq!(
            parse_address(&mut c, false, &n),
            Ok(addr(1, NO_SURFACE, 0, 2, 57))
        );
        let mut c = Cursor::new("flat[VS+0x10]:a64");
        strided.stride = None;
        assert_eq!(parse_address(&mut c, true, &n), Ok(strided));
        // The doc's scale: `flat[0x4*VOFF-0x10]:a32`.
        let mut scaled = addr(1, NO_SURFACE, -0x10, 2, 57);
        scaled.scale = 4;
        let mut s = String::new();
        print_address(&mut s, scaled, &n).unwrap();
        assert_eq!(s, "flat[0x4*V0057-0x10]:a32");
        assert_eq!(parse_address(&mut Cursor::new(&s), false, &n), Ok(scaled));
        // A flat address with a surface has no text.
        assert!(print_address(&mut String::new(), addr(1, ud(1), 0, 2, 57), &n).is_err());
        assert!(parse_address(&mut Cursor::new("flat[V0057+0x80000000]:a32"), false, &n).is_err());
    }

    #[test]
    fn intel_block_addresses() {
        // GenX_IR 12504.6 reprints `flat[VQ,VS,...]` as `flat[VQ, VS, VS, VS, 0x10, VS]`.
        let n = names();
        let ops = [reg(49), reg(60), reg(60), reg(60), ud(0x10), reg(60)];
        let mut s = String::new();
        print_block_address(&mut s, &ops, &n).unwrap();
        assert_eq!(s, "flat[V0049, VS, VS, VS, 0x10, VS]");
        assert_eq!(
            parse_block_address(&mut Cursor::new("flat[V0049,VS,VS,VS,16,VS]"), &n),
            Ok(ops)
        );
    }
}
