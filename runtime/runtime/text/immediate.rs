//! Immediates. IGC prints the bit pattern in lower-case hex with the type (`0x3fc00000:f`):
//! 32 bits for every type but DF, Q and UQ, so a negative W is `0xfffffffd:w` (sign-extended,
//! as IGC stores it: `control_flow_branches.visaasm`). The parser also takes decimal, negative
//! and float literals (`-1:d`, `1.5:f`, `1.5e+2:f`, `1.5:df`) and upper-case types (note §4.1).

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::spellings::{type_of, type_text};
use crate::runtime::{DataType, Immediate};
use alloc::string::String;
use core::fmt::Write;

/// Prints `0x<hex>:<type>`. Fails for BOOL (no immediate has it) and for a narrow type whose
/// value does not fit 32 bits (the binary form has no room for it).
pub fn print_immediate(out: &mut String, imm: Immediate) -> Result<(), PrintError> {
    if imm.ty == DataType::Bool {
        return Err(PrintError::Unprintable {
            what: "immediate of type BOOL",
            value: imm.value,
        });
    }
    if !Immediate::is_wide(imm.ty) && imm.value > u64::from(u32::MAX) {
        return Err(PrintError::Unprintable {
            what: "immediate of a 32-bit-or-narrower type",
            value: imm.value,
        });
    }
    let value = imm.value;
    let _ = write!(out, "{value:#x}:{}", type_text(imm.ty));
    Ok(())
}

const LITERAL: &str = "an immediate: a number such as 0x3f800000, -1 or 1.5";
const TYPE: &str = "an immediate type after `:` (ud d uw w ub b df f v vf uq uv q hf bf)";

/// Parses `<literal>:<type>`.
pub fn parse_immediate(c: &mut Cursor<'_>) -> Result<Immediate, ParseError> {
    let start = c.column();
    let negative = c.eat("-");
    let literal = if c.eat("0x") || c.eat("0X") {
        let digits = c.take_while(|ch| ch.is_ascii_hexdigit());
        u64::from_str_radix(digits, 16)
            .map(Literal::Int)
            .map_err(|_| c.error_at(start, LITERAL))?
    } else {
        let digits_at = c.column();
        let int = c.take_while(|ch| ch.is_ascii_digit());
        if int.is_empty() {
            return Err(c.error_at(start, LITERAL));
        }
        if matches!(c.peek(), Some('.' | 'e' | 'E')) {
            c.take_while(|ch| ch.is_ascii_digit() || ch == '.');
            if c.eat("e") || c.eat("E") {
                let _ = c.eat("+") || c.eat("-");
                c.take_while(|ch| ch.is_ascii_digit());
            }
            let end = c.column();
            Literal::Float(c.slice(digits_at, end))
        } else {
            int.parse::<u64>()
                .map(Literal::Int)
                .map_err(|_| c.error_at(start, LITERAL))?
        }
    };
    c.expect(":", "`:` and the immediate's type")?;
    let type_at = c.column();
    let name = c.take_while(|ch| ch.is_ascii_alphanumeric());
    let ty = match type_of(name) {
        Some(t) if t != DataType::Bool => t,
        _ => return Err(c.error_at(type_at, TYPE)),
    };
    let value = match literal {
        Literal::Int(magnitude) => int_bits(magnitude, negative, ty),
        Literal::Float(text) => float_bits(text, negative, ty),
    };
    value
        .map_err(|e| match e {
            LiteralError::Range => c.error_at(start, "an integer that fits the type's bits"),
            LiteralError::Float => c.error_at(start, LITERAL),
            LiteralError::Type => c.error_at(
                type_at,
                "a float type (f, df, hf, bf) after a float literal",
            ),
        })
        .map(|value| Immediate { ty, value })
}

enum Literal<'a> {
    Int(u64),
    Float(&'a str),
}

enum LiteralError {
    /// An integer too large for the type.
    Range,
    /// A malformed float literal.
    Float,
    /// A float literal with an integer type.
    Type,
}

/// Integer literals are bit patterns: hex and decimal as written (up to 32 bits for narrow
/// types), negatives in two's complement, sign-extended to 32 bits for narrow types as IGC
/// stores them (`0xfffffffd:w`).
fn int_bits(magnitude: u64, negative: bool, ty: DataType) -> Result<u64, LiteralError> {
    let wide = Immediate::is_wide(ty);
    if !negative {
        return if wide || magnitude <= u64::from(u32::MAX) {
            Ok(magnitude)
        } else {
            Err(LiteralError::Range)
        };
    }
    let n = 0i64
        .checked_sub_unsigned(magnitude)
        .ok_or(LiteralError::Range)?;
    if wide {
        Ok(n as u64)
    } else {
        let n = i32::try_from(n).map_err(|_| LiteralError::Range)?;
        Ok(u64::from(n as u32))
    }
}

/// Float literals: F and DF as Rust parses them (correctly rounded), HF and BF rounded to
/// nearest-even from the DF value (a double rounding that can differ from a direct one only
/// for literals within one DF ulp of a tie).
fn float_bits(text: &str, negative: bool, ty: DataType) -> Result<u64, LiteralError> {
    let sign = if negative { -1.0 } else { 1.0 };
    let df = || text.parse::<f64>().map_err(|_| LiteralError::Float);
    match ty {
        DataType::F => {
            let f = text.parse::<f32>().map_err(|_| LiteralError::Float)?;
            Ok(u64::from((sign as f32 * f).to_bits()))
        }
        DataType::Df => Ok((sign * df()?).to_bits()),
        DataType::Hf => Ok(narrow_float(sign * df()?, 5, 10)),
        DataType::Bf => Ok(narrow_float(sign * df()?, 8, 7)),
        _ => Err(LiteralError::Type),
    }
}

/// Rounds `x` to nearest-even in a binary format of `e_bits` exponent and `m_bits` mantissa
/// bits, overflowing to infinity; returns the bit pattern.
fn narrow_float(x: f64, e_bits: u32, m_bits: u32) -> u64 {
    let b = x.to_bits();
    let sign = (b >> 63) << (e_bits + m_bits);
    let exp = (b >> 52 & 0x7ff) as i64;
    let man = b & ((1 << 52) - 1);
    let max_e = (1u64 << e_bits) - 1;
    let inf = sign | max_e << m_bits;
    if exp == 0x7ff {
        return if man == 0 {
            inf
        } else {
            inf | 1 << (m_bits - 1)
        };
    }
    if exp == 0 {
        return sign; // DF subnormals are far below every narrower format's range
    }
    let bias = (1i64 << (e_bits - 1)) - 1;
    let e = exp - 1023 + bias;
    let full = man | 1 << 52;
    let shift = 52 - i64::from(m_bits) + if e > 0 { 0 } else { 1 - e };
    if shift >= 64 {
        return sign;
    }
    let shift = shift as u32;
    let mut r = full >> shift;
    let rem = full & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && r & 1 == 1) {
        r += 1;
    }
    let bits = if e > 0 {
        ((e as u64) << m_bits) + (r - (1 << m_bits))
    } else {
        r
    };
    if bits >= max_e << m_bits {
        inf
    } else {
        sign | bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imm(ty: DataType, value: u64) -> Immediate {
        Immediate { ty, value }
    }

    fn parse(text: &str) -> Result<Immediate, ParseError> {
        let mut c = Cursor::new(text);
        let v = parse_immediate(&mut c)?;
        c.finish()?;
        Ok(v)
    }

    fn print(i: Immediate) -> String {
        let mut s = String::new();
        print_immediate(&mut s, i).unwrap();
        s
    }

    #[test]
    fn intel_prints_round_trip() {
        // arith_float_float_ops.visaasm: `mov (M1_NM, 1) V0064(0,0)<1> 0x3fc00000:f` (1.5f),
        // `or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud`;
        // control_flow_branches.visaasm: `mul ... 0xfffffffd:w`; `0xfffffffc:b`, `0x3c00:hf`,
        // `0x76543210:v`, `0x40:uv` occur in real-kernels/dg2.
        for (text, i) in [
            ("0x3fc00000:f", imm(DataType::F, 0x3fc0_0000)),
            ("0x4c0:ud", imm(DataType::Ud, 0x4c0)),
            ("0xfffffffd:w", imm(DataType::W, 0xffff_fffd)),
            ("0xfffffffc:b", imm(DataType::B, 0xffff_fffc)),
            ("0x3c00:hf", imm(DataType::Hf, 0x3c00)),
            ("0x76543210:v", imm(DataType::V, 0x7654_3210)),
            ("0x40:uv", imm(DataType::Uv, 0x40)),
            ("0x0:d", imm(DataType::D, 0)),
            (
                "0x3ff8000000000000:df",
                imm(DataType::Df, 0x3ff8_0000_0000_0000),
            ),
            ("0xffffffffffffffff:q", imm(DataType::Q, u64::MAX)),
        ] {
            assert_eq!(parse(text), Ok(i), "{text}");
            assert_eq!(print(i), text);
        }
    }

    #[test]
    fn lenient_literals_as_igc_parses_them() {
        // note §4.1: decimal and negative integers, float literals, upper-case types.
        assert_eq!(parse("1.5:f"), Ok(imm(DataType::F, 0x3fc0_0000)));
        assert_eq!(parse("-2.25:f"), Ok(imm(DataType::F, 0xc010_0000)));
        assert_eq!(parse("1.5e+2:f"), Ok(imm(DataType::F, 0x4316_0000)));
        assert_eq!(
            parse("1.5:df"),
            Ok(imm(DataType::Df, 0x3ff8_0000_0000_0000))
        );
        assert_eq!(parse("-1:d"), Ok(imm(DataType::D, 0xffff_ffff)));
        assert_eq!(parse("-3:w"), Ok(imm(DataType::W, 0xffff_fffd)));
        assert_eq!(parse("-1:q"), Ok(imm(DataType::Q, u64::MAX)));
        assert_eq!(parse("16:UD"), Ok(imm(DataType::Ud, 16)));
        assert_eq!(parse("0x3F800000:F"), Ok(imm(DataType::F, 0x3f80_0000)));
        // 0x3800:hf is 0.5 (seen in real-kernels/dg2); 1.5 is 0x3e00; 65520 rounds to inf.
        assert_eq!(parse("0.5:hf"), Ok(imm(DataType::Hf, 0x3800)));
        assert_eq!(parse("1.5:hf"), Ok(imm(DataType::Hf, 0x3e00)));
        assert_eq!(parse("65504.0:hf"), Ok(imm(DataType::Hf, 0x7bff)));
        assert_eq!(parse("65520.0:hf"), Ok(imm(DataType::Hf, 0x7c00)));
        assert_eq!(parse("6e-8:hf"), Ok(imm(DataType::Hf, 0x0001)));
        assert_eq!(parse("1.5:bf"), Ok(imm(DataType::Bf, 0x3fc0)));
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse("1.5:d").unwrap_err();
        assert_eq!(e.column, 4);
        let e = parse("0x100000000:ud").unwrap_err();
        assert_eq!(e.column, 0);
        let e = parse("-2147483649:d").unwrap_err();
        assert_eq!(e.column, 0);
        let e = parse("1:bool").unwrap_err();
        assert_eq!((e.column, e.expected), (2, TYPE));
        let e = parse("0x:d").unwrap_err();
        assert_eq!(e.column, 0);
        let e = parse("12").unwrap_err();
        assert_eq!(e.column, 2);
        let e = parse("1.2.3:f").unwrap_err();
        assert_eq!(e.column, 0);
        assert!(print_immediate(&mut String::new(), imm(DataType::D, 1 << 32)).is_err());
        assert!(print_immediate(&mut String::new(), imm(DataType::Bool, 1)).is_err());
    }
}
