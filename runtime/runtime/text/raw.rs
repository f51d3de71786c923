//! Raw operands: `V0054.0`, `%null.0`, `V0053.32` (variable name, `.`, byte offset), as in
//! `gather4_scaled.R (M1, 16) T6 0x0:ud V0056.0 V0058.0` (`arith_float_float_ops.visaasm`)
//! and `dword_atomic.inc (M1, 16) %slm V0078.0 %null.0 ...` (`atomics_local_lhist.visaasm`).

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::names::Names;
use crate::runtime::RawOperand;
use alloc::string::String;
use core::fmt::Write;

pub fn print_raw<N: Names + ?Sized>(
    out: &mut String,
    raw: RawOperand,
    names: &N,
) -> Result<(), PrintError> {
    let name = names.general(raw.id).ok_or(PrintError::NoName {
        kind: "general variable",
        id: raw.id,
    })?;
    let _ = write!(out, "{name}.{}", raw.offset);
    Ok(())
}

/// Parses `name.offset`; the offset may be left out (IGC's LSC syntax takes `V0059`), then 0.
pub fn parse_raw<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
) -> Result<RawOperand, ParseError> {
    let at = c.column();
    let name = c.identifier("a variable name")?;
    let id = names
        .general_id(name)
        .ok_or_else(|| c.error_at(at, "a declared general variable"))?;
    let offset = if c.eat(".") {
        c.unsigned_as::<u16>("a byte offset 0..=65535")?
    } else {
        0
    };
    Ok(RawOperand { id, offset })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    #[test]
    fn intel_raw_operands() {
        // arith_float_float_ops.visaasm `V0056.0`; atomics_local_lhist.visaasm `%null.0`;
        // `V0053.32` from the brief (a 32-byte offset).
        for (text, raw) in [
            ("V0056.0", RawOperand { id: 56, offset: 0 }),
            ("%null.0", RawOperand { id: 0, offset: 0 }),
            ("V0053.32", RawOperand { id: 53, offset: 32 }),
        ] {
            let mut c = Cursor::new(text);
            assert_eq!(parse_raw(&mut c, &IntelNames), Ok(raw));
            assert!(c.at_end());
            let mut s = String::new();
            print_raw(&mut s, raw, &IntelNames).unwrap();
            assert_eq!(s, text);
        }
        let mut c = Cursor::new("V0059");
        assert_eq!(
            parse_raw(&mut c, &IntelNames),
            Ok(RawOperand { id: 59, offset: 0 })
        );
    }

    #[test]
    fn errors() {
        let e = parse_raw(&mut Cursor::new("V0001.0"), &IntelNames).unwrap_err();
        assert_eq!(e.column, 0);
        let e = parse_raw(&mut Cursor::new("V0050.x"), &IntelNames).unwrap_err();
        assert_eq!(e.column, 6);
        let e = parse_raw(&mut Cursor::new("V0050.65536"), &IntelNames).unwrap_err();
        assert_eq!(e.column, 6);
        assert!(print_raw(
            &mut String::new(),
            RawOperand { id: 25, offset: 0 },
            &IntelNames
        )
        .is_err());
    }
}
