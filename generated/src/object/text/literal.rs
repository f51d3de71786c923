//! Quoted strings of the text (`.kernel "caller"`, `.function "_main_0"`): IGC's
//! `encodeStringLiteral` quotes the name and escapes what would end or break the literal.
//! The corpus only has plain identifiers; the escapes follow C, as IGC's lexer reads them.

use alloc::string::String;
use core::fmt::Write;

/// Appends `s` in double quotes, with `"` and `\` escaped, C escapes for control characters
/// and `\xHH` for other non-printing ASCII.
pub fn push_string_literal(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii_control() => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_only_quoted() {
        // calls_caller.visaasm: `.kernel "caller"`, `.function "helper_poly_1"`.
        let mut s = String::new();
        push_string_literal(&mut s, "helper_poly_1");
        assert_eq!(s, "\"helper_poly_1\"");
    }

    #[test]
    fn quotes_backslashes_and_controls_are_escaped() {
        let mut s = String::new();
        push_string_literal(&mut s, "a\"b\\c\nd\u{1}");
        assert_eq!(s, r#""a\"b\\c\nd\x01""#);
    }
}
