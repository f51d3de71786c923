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

const SIZE: &str = "an exec size: 1, 2, 4, 8, 16 or 32";

/// Parses `(<mask>, <size>)` or `(<size>)`.
pub fn parse_exec_size(c: &mut Cursor<'_>) -> Result<ExecSize, ParseError> {
    c.expect("(", "`(` and the exec size")?;
    c.skip_spaces();
    let mut mask = 0;
    if !matches!(c.peek(), Some('0'..='9')) {
        let at = c.column();
        let name = c.identifier("an exec mask (M1..M8, M1_NM..M8_NM, NoMask) or size")?;
        mask = if name == NO_MASK_ALIAS {
            8
        } else {
            value_of(EMASKS, name)
                .ok_or_else(|| c.error_at(at, "an exec mask (M1..M8, M1_NM..M8_NM, NoMask)"))?
        };
        c.skip_spaces();
        c.expect(",", "`,` and the exec size")?;
        c.skip_spaces();
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
