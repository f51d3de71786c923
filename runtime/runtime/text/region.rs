//! Regions: `<vs;w,hs>`. IGC prints each non-null field: the vertical stride followed by `;`,
//! the width followed by `,`, and always the horizontal stride. So a source is `<1;1,0>`, a
//! destination (only hs encoded) `<1>`, and an indirect source with a null vertical stride
//! `<1,0>` (its region word is 0x0120 in `private_arrays_priv.isa`, printed
//! `r[A0(0),0]<1,0>:d`). A zero region word has no text at all (DPAS src2, note §1).

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use crate::runtime::Region;
use alloc::string::String;
use core::fmt::Write;

const VALUES: &str = "a region value: 0, 1, 2, 4, 8, 16 or 32";

/// Prints `region`, nothing for the zero word. Fails on encodings above 7, bits 12-15, and a
/// null horizontal stride under a non-null field (none of which the text can spell).
pub fn print_region(out: &mut String, region: Region) -> Result<(), PrintError> {
    if region.0 == 0 {
        return Ok(());
    }
    let bad = |what| PrintError::Unprintable {
        what,
        value: u64::from(region.0),
    };
    if region.0 >> 12 != 0 {
        return Err(bad("region: bits 12-15 must be clear"));
    }
    let value = |enc: u8| Region::elements(enc).ok_or(bad("region: encodings 1-7 only"));
    let hs = value(region.horizontal_stride())?;
    out.push('<');
    if region.vertical_stride() != 0 {
        let _ = write!(out, "{};", value(region.vertical_stride())?);
    }
    if region.width() != 0 {
        let _ = write!(out, "{},", value(region.width())?);
    }
    let _ = write!(out, "{hs}>");
    Ok(())
}

/// Parses a region if the text continues with `<`, else returns the zero word.
/// `<a>` is hs, `<a,b>` w and hs, `<a;b>` vs and hs, `<a;b,c>` all three.
pub fn parse_region(c: &mut Cursor<'_>) -> Result<Region, ParseError> {
    if !c.eat("<") {
        return Ok(Region(0));
    }
    let first = value(c)?;
    let (mut vs, mut w) = (0, 0);
    let hs;
    if c.eat(";") {
        vs = first;
        let second = value(c)?;
        if c.eat(",") {
            w = second;
            hs = value(c)?;
        } else {
            hs = second;
        }
    } else if c.eat(",") {
        w = first;
        hs = value(c)?;
    } else {
        hs = first;
    }
    c.expect(">", "`>` closing the region")?;
    Ok(Region::new(vs, w, hs))
}

/// One region value, as its 4-bit encoding.
fn value(c: &mut Cursor<'_>) -> Result<u8, ParseError> {
    let at = c.column();
    let n = c.unsigned(VALUES)?;
    match n {
        0 => Ok(1),
        1 | 2 | 4 | 8 | 16 | 32 => Ok(2 + n.trailing_zeros() as u8),
        _ => Err(c.error_at(at, VALUES)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(text: &str, region: Region) {
        let mut c = Cursor::new(text);
        assert_eq!(parse_region(&mut c), Ok(region), "{text}");
        c.finish().unwrap();
        let mut out = String::new();
        print_region(&mut out, region).unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn regions_as_intel_prints_them() {
        // arith_float_float_ops.visaasm: `mul (M1_NM, 1) V0047(0,0)<1> V0037(0,0)<0;1,0> ...`;
        // private_arrays_priv.visaasm: `mov (M1, 16) V0115(0,0)<1> r[A0(0),0]<1,0>:d`, whose
        // region word is 0x0120 in private_arrays_priv.isa; `<8;8,1>` from the brief's example.
        round("<1>", Region::new(0, 0, 2));
        round("<0;1,0>", Region(0x0121));
        round("<1;1,0>", Region::new(2, 2, 1));
        round("<1,0>", Region(0x0120));
        round("<8;8,1>", Region::new(5, 5, 2));
        round("<32;16,2>", Region::new(7, 6, 3));
        round("<4;2>", Region::new(4, 0, 3));
        round("", Region(0));
    }

    #[test]
    fn unprintable_and_unparsable_regions() {
        let mut out = String::new();
        assert!(print_region(&mut out, Region(0x0008)).is_err());
        assert!(print_region(&mut out, Region(0x1122)).is_err());
        assert!(print_region(&mut out, Region(0x0022)).is_err(), "null hs");
        let e = parse_region(&mut Cursor::new("<1;3,0>")).unwrap_err();
        assert_eq!((e.column, e.expected), (3, VALUES));
        let e = parse_region(&mut Cursor::new("<1;1,0")).unwrap_err();
        assert_eq!(e.column, 6);
    }
}
