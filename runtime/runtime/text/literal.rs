//! Quoted strings of the text (`.kernel "caller"`, `.function "_main_0"`, FILE's name, a
//! callee that is no identifier): IGC's `encodeStringLiteral` quotes the string and escapes
//! what would end or break the literal. The corpus only has plain identifiers; the escapes
//! follow C, as IGC's lexer reads them. One printer and one parser, so every quoted string of
//! the text reads back as it was printed.

use super::cursor::Cursor;
use super::error::ParseError;
use alloc::borrow::Cow;
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

const ESCAPE: &str = "an escape `\\\"`, `\\\\`, `\\n`, `\\t`, `\\r` or `\\xHH`";

/// Reads a quoted string at the cursor, undoing [`push_string_literal`]'s escapes; borrowed
/// from the text when it holds none.
pub fn parse_string_literal<'a>(c: &mut Cursor<'a>) -> Result<Cow<'a, str>, ParseError> {
    c.expect("\"", "a quoted string")?;
    let body = c.rest();
    let mut owned: Option<String> = None;
    let mut at = 0;
    while let Some(ch) = body.get(at..).and_then(|r| r.chars().next()) {
        match ch {
            '"' => {
                c.eat(body.get(..=at).unwrap_or(""));
                return Ok(match owned {
                    Some(s) => Cow::Owned(s),
                    None => Cow::Borrowed(body.get(..at).unwrap_or("")),
                });
            }
            '\\' => {
                let s = owned.get_or_insert_with(|| body.get(..at).unwrap_or("").into());
                let tail = body.get(at + 1..).unwrap_or("");
                let (decoded, len) = match tail.as_bytes().first() {
                    Some(b'"') => ('"', 1),
                    Some(b'\\') => ('\\', 1),
                    Some(b'n') => ('\n', 1),
                    Some(b't') => ('\t', 1),
                    Some(b'r') => ('\r', 1),
                    Some(b'x') => match tail.get(1..3).and_then(|h| u8::from_str_radix(h, 16).ok())
                    {
                        Some(b) if b.is_ascii() => (char::from(b), 3),
                        _ => {
                            c.eat(body.get(..at).unwrap_or(""));
                            return Err(c.error(ESCAPE));
                        }
                    },
                    _ => {
                        c.eat(body.get(..at).unwrap_or(""));
                        return Err(c.error(ESCAPE));
                    }
                };
                s.push(decoded);
                at += 1 + len;
            }
            ch => {
                if let Some(s) = owned.as_mut() {
                    s.push(ch);
                }
                at += ch.len_utf8();
            }
        }
    }
    c.eat(body);
    Err(c.error("a closing `\"`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<(Cow<'_, str>, &str), ParseError> {
        let mut c = Cursor::new(text);
        let s = parse_string_literal(&mut c)?;
        Ok((s, c.rest()))
    }

    #[test]
    fn plain_names_are_only_quoted() {
        // calls_caller.visaasm: `.kernel "caller"`, `.function "helper_poly_1"`.
        let mut s = String::new();
        push_string_literal(&mut s, "helper_poly_1");
        assert_eq!(s, "\"helper_poly_1\"");
        let (name, rest) = parse("\"helper_poly_1\" x").unwrap();
        assert!(matches!(name, Cow::Borrowed("helper_poly_1")));
        assert_eq!(rest, " x");
    }

    #[test]
    fn quotes_backslashes_and_controls_are_escaped_and_read_back() {
        let mut s = String::new();
        push_string_literal(&mut s, "a\"b\\c\nd\u{1}\re\t");
        assert_eq!(s, r#""a\"b\\c\nd\x01\re\t""#);
        let (back, rest) = parse(r#""a\"b\\c\nd\x01\re\t"!"#).unwrap();
        assert_eq!(back, "a\"b\\c\nd\u{1}\re\t");
        assert_eq!(rest, "!");
    }

    #[test]
    fn errors_say_where() {
        let e = parse(r#""ab\q""#).unwrap_err();
        assert_eq!((e.column, e.expected), (3, ESCAPE));
        let e = parse(r#""a\x4""#).unwrap_err();
        assert_eq!(e.column, 2);
        let e = parse("\"open").unwrap_err();
        assert_eq!((e.column, e.expected), (5, "a closing `\"`"));
        let e = parse("bare").unwrap_err();
        assert_eq!((e.column, e.expected), (0, "a quoted string"));
    }
}
