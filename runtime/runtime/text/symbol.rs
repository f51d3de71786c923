//! Strings of the routine's string pool that an instruction names by index: FCALL's callee
//! (`fcall (M1, 8) rec 1 1`, `recursion_stackcalls.visaasm` line 161), FADDR's function, FILE's
//! file name (`FILE "a.cl"`, note §1). The text holds the string, the instruction its index,
//! which [`Names::string`] and [`Names::string_index`] translate.
//!
//! IGC prints FILE's name always quoted (`encodeStringLiteral`), FADDR's quoted when it is no
//! identifier, FCALL's bare (CISA.y takes only an identifier there; IGC 12504.6 turns `.` and
//! `$` into `_`, which would name another string, so we quote such a callee instead). The
//! parser takes either spelling.

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::literal::{parse_string_literal, push_string_literal};
use super::names::Names;
use alloc::borrow::Cow;
use alloc::string::String;

/// Prints string `index` of the pool; `quoted` always quotes it (debug directives).
pub fn print_symbol<N: Names + ?Sized>(
    out: &mut String,
    index: u32,
    quoted: bool,
    names: &N,
) -> Result<(), PrintError> {
    let s = names.string(index).ok_or(PrintError::NoName {
        kind: "string of the pool",
        id: index,
    })?;
    if !quoted && is_identifier(&s) {
        out.push_str(&s);
        return Ok(());
    }
    push_string_literal(out, &s);
    Ok(())
}

/// Parses an identifier or a quoted string into its pool index.
pub fn parse_symbol<N: Names + ?Sized>(c: &mut Cursor<'_>, names: &N) -> Result<u32, ParseError> {
    let at = c.column();
    let text: Cow<'_, str> = if c.peek() == Some('"') {
        parse_string_literal(c)?
    } else {
        Cow::Borrowed(c.identifier("a name or a quoted string")?)
    };
    names
        .string_index(&text)
        .ok_or_else(|| c.error_at(at, "a string of the routine's string pool"))
}

/// CISA.l's identifier: a letter or `_`, then letters, digits and `_`. Narrower than what the
/// lexer takes (`$ @ ? -`), so what prints bare reads back as one token everywhere.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::{parse_all, IntelNames, NameTable};

    fn table() -> NameTable {
        let mut t = NameTable::new();
        // recursion_stackcalls.isa, function `rec`: string 0 is the routine's name, and the
        // pool holds `rec` again for the label and for the recursive fcall.
        t.declare_string(0, "rec");
        t.declare_string(29, "rec");
        t.declare_string(59, "rec");
        t.declare_string(31, "a \"b\".cl");
        t
    }

    #[test]
    fn intel_callee_and_file_spellings() {
        let t = table();
        let mut s = String::new();
        // `fcall (M1, 8) rec 1 1` (recursion_stackcalls.func.rec.visaasm line 81, Func_id 59).
        print_symbol(&mut s, 59, false, &t).unwrap();
        assert_eq!(s, "rec");
        s.clear();
        print_symbol(&mut s, 0, true, &t).unwrap();
        assert_eq!(
            s, "\"rec\"",
            "FILE quotes always (note §1: `FILE \"a.cl\"`)"
        );
        s.clear();
        print_symbol(&mut s, 31, false, &t).unwrap();
        assert_eq!(s, r#""a \"b\".cl""#);
        assert_eq!(parse_all(&s, |c| parse_symbol(c, &t)), Ok(31));
        assert_eq!(parse_all("rec", |c| parse_symbol(c, &t)), Ok(59));
        assert_eq!(parse_all("\"rec\"", |c| parse_symbol(c, &t)), Ok(59));
        assert!(print_symbol(&mut s, 7, false, &t).is_err());
        assert!(print_symbol(&mut s, 0, false, &IntelNames).is_err());
        assert_eq!(
            parse_all("foo", |c| parse_symbol(c, &t))
                .unwrap_err()
                .column,
            0
        );
        assert_eq!(
            parse_all("\"rec", |c| parse_symbol(c, &t))
                .unwrap_err()
                .column,
            4
        );
        assert!(parse_all("\"r\\qc\"", |c| parse_symbol(c, &t)).is_err());
    }
}
