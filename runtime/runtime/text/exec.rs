//! Execution size and mask: `(M1, 16)`, `(M1_NM, 1)` (`printExecutionSize`). The parser also
//! takes `(16)` for M1 and `(NoMask, 16)` for M1_NM (note §4.1, `ParseEMask`).

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::spellings::{spell, value_of, EMASKS, NO_MASK_ALIAS};
use crate::runtime::ExecSize;
use alloc::string::String;
use core::fmt::Write;

/// Prints `(<mask>, <size>)`; fails for size encodings above 5 and the reserved bit 3.
pub fn print_exec_size(out: &mut String, e: ExecSize) -> Result<(), PrintError> {
    let size = match e.elements() {
        Some(n) if !e.reserved_bit() => n,
        _ => {
            return Err(PrintError::Unprintable {
                what: "exec size: size encodings 0-5, bit 3 clear",
                value: u64::from(e.0),
            })
        }
    };
    let mask = spell(EMASKS, e.mask_bits()).unwrap_or("");
    let _ = write!(out, "({mask}, {size})");
    Ok(())
}

/// Prints `(<mask>, <count>)` for an exec size whose count is not in the exec-size encoding
/// (SCATTER's `Num_elts`: IGC's `printExecutionSizeForScatterGather`); `mask` is bits 7..4.
pub fn print_exec_count(out: &mut String, mask: u8, count: u64) {
    let mask = spell(EMASKS, mask & 0xf).unwrap_or("");
    let _ = write!(out, "({mask}, {count})");
}

/// Parses `(<mask>, <count>)` or `(<count>)`: the mask's value (bits 7..4 of the byte) and the
/// count, any number; the caller maps it to its encoding.
pub fn parse_exec_count(c: &mut Cursor<'_>) -> Result<(u8, u64), ParseError> {
    c.expect("(", "`(` and the exec size")?;
    c.skip_spaces();
    let mut mask = 0;
    if !matches!(c.peek(), Some('0'..='9')) {
        mask = parse_mask(c)?;
    }
    let count = c.unsigned("an element count")?;
    c.skip_spaces();
    c.expect(")", "`)` closing the exec size")?;
    Ok((mask, count))
}

fn parse_mask(c: &mut Cursor<'_>) -> Result<u8, ParseError> {
    let at = c.column();
    let name = c.identifier("an exec mask (M1..M8, M1_NM..M8_NM, NoMask) or size")?;
    let mask = if name == NO_MASK_ALIAS {
        8
    } else {
        value_of(EMASKS, name)
            .ok_or_else(|| c.error_at(at, "an exec mask (M1..M8, M1_NM..M8_NM, NoMask)"))?
    };
    c.skip_spaces();
    c.expect(",", "`,` and the exec size")?;
    c.skip_spaces();
    Ok(mask)
}

const SIZE: &str = "an exec size: 1, 2, 4, 8, 16 or 32";

/// Parses `(<mask>, <size>)` or `(<size>)`.
pub fn parse_exec_size(c: &mut Cursor<'_>) -> Result<ExecSize, ParseError> {
    c.expect("(", "`(` and the exec size")?;
    c.skip_spaces();
    let mut mask = 0;
    if !matches!(c.peek(), Some('0'..='9')) {
        mask = parse_mask(c)?;
    }
    let at = c.column();
    let size = c.unsigned(SIZE)?;
    if !matches!(size, 1 | 2 | 4 | 8 | 16 | 32) {
        return Err(c.error_at(at, SIZE));
    }
    c.skip_spaces();
    c.expect(")", "`)` closing the exec size")?;
    Ok(ExecSize::new(size.trailing_zeros() as u8, mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intel_exec_sizes() {
        // real-kernels/dg2: `(M1, 16)`, `(M5, 16)`, `(M1_NM, 1)`, `(M5_NM, 4)`, `(M7, 8)`,
        // `(M1, 32)`; the byte of `(M5, 16)` is 0x44 in arith_float_float_ops.isa.
        for (text, e) in [
            ("(M1, 16)", ExecSize(0x04)),
            ("(M5, 16)", ExecSize(0x44)),
            ("(M1_NM, 1)", ExecSize(0x80)),
            ("(M5_NM, 4)", ExecSize(0xc2)),
            ("(M7, 8)", ExecSize(0x63)),
            ("(M1, 32)", ExecSize(0x05)),
            ("(M8_NM, 2)", ExecSize(0xf1)),
        ] {
            let mut s = String::new();
            print_exec_size(&mut s, e).unwrap();
            assert_eq!(s, text);
            let mut c = Cursor::new(text);
            assert_eq!(parse_exec_size(&mut c), Ok(e));
            assert!(c.at_end());
        }
    }

    #[test]
    fn element_counts_print_as_counts() {
        // `scatter.4 (M1, 16) ...`: Num_elts 0b01 (16 elements), mask M1.
        let mut s = String::new();
        print_exec_count(&mut s, 0, 16);
        assert_eq!(s, "(M1, 16)");
        s.clear();
        print_exec_count(&mut s, 8, 1);
        assert_eq!(s, "(M1_NM, 1)");
        assert_eq!(parse_exec_count(&mut Cursor::new("(M5, 8)")), Ok((4, 8)));
        assert_eq!(parse_exec_count(&mut Cursor::new("(16)")), Ok((0, 16)));
        assert_eq!(parse_exec_count(&mut Cursor::new("(M1, 3)")), Ok((0, 3)));
        assert!(parse_exec_count(&mut Cursor::new("(M9, 8)")).is_err());
    }

    #[test]
    fn parser_aliases_and_errors() {
        assert_eq!(
            parse_exec_size(&mut Cursor::new("(16)")),
            Ok(ExecSize(0x04))
        );
        assert_eq!(
            parse_exec_size(&mut Cursor::new("(NoMask, 16)")),
            Ok(ExecSize(0x84))
        );
        assert_eq!(
            parse_exec_size(&mut Cursor::new("(M1,32)")),
            Ok(ExecSize(0x05))
        );
        for (text, column) in [
            ("M1, 16)", 0),
            ("(M9, 16)", 1),
            ("(M1, 3)", 5),
            ("(M1 16)", 4),
            ("(m1, 16)", 1),
            ("(M1, 16", 7),
        ] {
            let e = parse_exec_size(&mut Cursor::new(text)).unwrap_err();
            assert_eq!(e.column, column, "{text}");
        }
        assert!(print_exec_size(&mut String::new(), ExecSize(0x06)).is_err());
        assert!(print_exec_size(&mut String::new(), ExecSize(0x0c)).is_err());
    }
}
