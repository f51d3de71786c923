//! A cursor over one line of vISA text: the small lexer every operand parser shares. It never
//! panics: every step checks bounds and UTF-8 boundaries, and failures are [`ParseError`]s at
//! the cursor's byte column.

use super::error::ParseError;
use alloc::string::ToString;

/// Position in a text being parsed. Columns in errors are byte offsets into `text`.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    /// Byte column of the next character.
    #[inline]
    pub fn column(&self) -> usize {
        self.pos
    }

    /// The text not consumed yet.
    #[inline]
    pub fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    /// The text between two columns (empty when they are out of order or off boundaries).
    pub fn slice(&self, from: usize, to: usize) -> &'a str {
        self.text.get(from..to).unwrap_or("")
    }

    pub fn at_end(&self) -> bool {
        self.rest().is_empty()
    }

    #[inline]
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// An error at the current column.
    pub fn error(&self, expected: &'static str) -> ParseError {
        self.error_at(self.pos, expected)
    }

    /// An error at `column`, quoting the text there up to the next space.
    #[cold]
    pub fn error_at(&self, column: usize, expected: &'static str) -> ParseError {
        let rest = self.text.get(column..).unwrap_or("");
        let found = rest.split(' ').next().unwrap_or("").to_string();
        ParseError {
            column,
            expected,
            found,
        }
    }

    /// Consumes `s` if the text continues with it.
    #[inline]
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes `s` or fails with `expected`.
    pub fn expect(&mut self, s: &str, expected: &'static str) -> Result<(), ParseError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// Consumes spaces and tabs; returns how many.
    #[inline]
    pub fn skip_spaces(&mut self) -> usize {
        let n = self
            .rest()
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        self.pos += n;
        n
    }

    /// Consumes the longest prefix whose characters satisfy `keep` (none: empty string).
    /// ASCII is tested byte by byte; from the first other byte on, by chars.
    pub fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let rest = self.rest();
        let b = rest.as_bytes();
        let mut n = 0;
        while let Some(&x) = b.get(n) {
            if x >= 0x80 {
                let tail = rest.get(n..).unwrap_or("");
                n += tail.find(|c| !keep(c)).unwrap_or(tail.len());
                break;
            }
            if !keep(char::from(x)) {
                break;
            }
            n += 1;
        }
        self.pos += n;
        rest.get(..n).unwrap_or("")
    }

    /// An identifier as CISA.l spells names: a letter, `_`, `%`, `$`, `@` or `?`, then letters,
    /// digits and `_ $ @ ? -`. `%` starts the predefined names (`%null`, `%slm`).
    pub fn identifier(&mut self, expected: &'static str) -> Result<&'a str, ParseError> {
        let start = self.pos;
        match self.rest().as_bytes().first() {
            Some(c) if c.is_ascii_alphabetic() || matches!(c, b'_' | b'%' | b'$' | b'@' | b'?') => {
            }
            _ => return Err(self.error(expected)),
        }
        self.pos += 1;
        self.take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '@' | '?' | '-'));
        Ok(&self.text[start..self.pos])
    }

    /// A decimal or `0x` hexadecimal number without sign, as `u64`.
    #[inline]
    pub fn unsigned(&mut self, expected: &'static str) -> Result<u64, ParseError> {
        let b = self.rest().as_bytes();
        // Most numbers of a line are one digit (`(0,0)<1;1,0>`).
        if let [d @ b'0'..=b'9', rest @ ..] = b {
            if !matches!(rest.first(), Some(b'0'..=b'9' | b'x' | b'X')) {
                self.pos += 1;
                return Ok(u64::from(d - b'0'));
            }
        }
        self.unsigned_slow(expected)
    }

    fn unsigned_slow(&mut self, expected: &'static str) -> Result<u64, ParseError> {
        let start = self.pos;
        let b = self.rest().as_bytes();
        let (radix, from) = match b {
            [b'0', b'x' | b'X', ..] => (16u64, 2),
            _ => (10u64, 0),
        };
        let digit = |x: u8| -> Option<u64> {
            let d = match x {
                b'0'..=b'9' => x - b'0',
                b'a'..=b'f' if radix == 16 => x - b'a' + 10,
                b'A'..=b'F' if radix == 16 => x - b'A' + 10,
                _ => return None,
            };
            Some(u64::from(d))
        };
        let digits = b.get(from..).unwrap_or_default();
        let n = digits.iter().take_while(|x| digit(**x).is_some()).count();
        if n == 0 {
            return Err(self.error(expected));
        }
        self.pos += from + n;
        let mut v: u64 = 0;
        for x in &digits[..n] {
            let d = digit(*x).unwrap_or(0);
            v = match v.checked_mul(radix).and_then(|v| v.checked_add(d)) {
                Some(v) => v,
                None => return Err(self.error_at(start, expected)),
            };
        }
        Ok(v)
    }

    /// A number that must fit `T` (`u8`, `u16`, `u32`...).
    pub fn unsigned_as<T: TryFrom<u64>>(
        &mut self,
        expected: &'static str,
    ) -> Result<T, ParseError> {
        let start = self.pos;
        let v = self.unsigned(expected)?;
        T::try_from(v).map_err(|_| self.error_at(start, expected))
    }

    /// An optionally negative decimal or hexadecimal number, as `i64`.
    pub fn signed(&mut self, expected: &'static str) -> Result<i64, ParseError> {
        let start = self.pos;
        let negative = self.eat("-");
        let magnitude = self
            .unsigned(expected)
            .map_err(|_| self.error_at(start, expected))?;
        let v = if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        };
        v.ok_or_else(|| self.error_at(start, expected))
    }

    /// Fails unless everything was consumed.
    pub fn finish(&self) -> Result<(), ParseError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("the end of the operand"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_identifiers() {
        let mut c = Cursor::new("V0053(0x1f,-4)");
        assert_eq!(c.identifier("a name"), Ok("V0053"));
        assert!(c.eat("("));
        assert_eq!(c.unsigned("n"), Ok(0x1f));
        assert!(c.eat(","));
        assert_eq!(c.signed("n"), Ok(-4));
        assert_eq!(c.column(), 13);
        assert!(c.finish().is_err());
    }

    #[test]
    fn errors_carry_column_and_found_text() {
        let mut c = Cursor::new("ab 0xZ");
        c.identifier("x").unwrap();
        c.skip_spaces();
        let e = c.unsigned("a number").unwrap_err();
        assert_eq!(
            (e.column, e.expected, e.found.as_str()),
            (3, "a number", "0xZ")
        );
        assert_eq!(
            alloc::format!("{e}"),
            "column 4: expected a number, found `0xZ`"
        );
        let mut c = Cursor::new("99999999999999999999");
        assert_eq!(c.unsigned("n").unwrap_err().column, 0);
        let mut c = Cursor::new("-9223372036854775808");
        assert_eq!(c.signed("n"), Ok(i64::MIN));
        let mut c = Cursor::new("300");
        assert!(c.unsigned_as::<u8>("a byte").is_err());
    }
}
