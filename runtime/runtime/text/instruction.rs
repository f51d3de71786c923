//! What the generated per-instruction printers and parsers share beyond operands: the words
//! glued to a mnemonic (`gather4_scaled.RG`, `svm_atomic.add.64`), numbers and channel masks in
//! those words, and the spaces between operands.

use super::cursor::Cursor;
use super::error::ParseError;
use super::spellings::{spell, value_of, CHANNEL_MASKS};
use alloc::string::{String, ToString};
use core::fmt::Write;

/// The mnemonic and its `.`-separated suffix words, each with its byte column. The words are
/// split off as they are consumed: no allocation, and a cheap copy for each form tried.
#[derive(Clone, Debug)]
pub struct Words<'a> {
    pub base: &'a str,
    /// The words not consumed yet, from the next one on (`None`: no word left).
    rest: Option<&'a str>,
    /// Column of the next word.
    at: usize,
    start: usize,
    end: usize,
}

impl<'a> Words<'a> {
    /// Reads `mnemonic.suffix.suffix` at the cursor. A word may hold `-`
    /// (`sample_unorm.RGBA.16-full`).
    pub fn read(c: &mut Cursor<'a>) -> Self {
        let start = c.column();
        let word = c.take_while(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '-'));
        let (base, rest) = match split_dot(word) {
            Some((base, rest)) => (base, Some(rest)),
            None => (word, None),
        };
        Words {
            base,
            rest,
            at: start + base.len() + 1,
            start,
            end: start + word.len(),
        }
    }

    /// The next word and its column.
    fn next_word(&self) -> Option<(&'a str, usize)> {
        let rest = self.rest?;
        Some((split_dot(rest).map_or(rest, |(w, _)| w), self.at))
    }

    /// Consumes the next word.
    fn advance(&mut self) {
        if let Some(rest) = self.rest {
            match split_dot(rest) {
                Some((w, after)) => {
                    self.at += w.len() + 1;
                    self.rest = Some(after);
                }
                None => {
                    self.at += rest.len() + 1;
                    self.rest = None;
                }
            }
        }
    }

    /// The next word, unconsumed.
    pub fn peek(&self) -> Option<&'a str> {
        self.next_word().map(|w| w.0)
    }

    /// Consumes the next word if it is `s`.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.peek() == Some(s) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Consumes the next word, which must start with `prefix`; returns the rest and its column.
    pub fn take(
        &mut self,
        prefix: &str,
        expected: &'static str,
    ) -> Result<(&'a str, usize), ParseError> {
        match self.next_word() {
            Some((w, at)) if w.starts_with(prefix) => {
                self.advance();
                Ok((&w[prefix.len()..], at + prefix.len()))
            }
            Some((w, at)) => Err(error(at, expected, w)),
            None => Err(error(self.end, expected, "")),
        }
    }

    /// Fails if a word is left.
    pub fn finish(&self) -> Result<(), ParseError> {
        match self.next_word() {
            Some((w, at)) => Err(error(at, "no further `.` suffix", w)),
            None => Ok(()),
        }
    }

    /// An error at the mnemonic.
    pub fn error(&self, expected: &'static str) -> ParseError {
        error(self.start, expected, self.base)
    }
}

/// `s.split_once('.')`, by bytes: words are a few bytes, too short for `memchr` to pay.
fn split_dot(s: &str) -> Option<(&str, &str)> {
    let at = s.bytes().position(|b| b == b'.')?;
    Some((s.get(..at)?, s.get(at + 1..)?))
}

/// A parse error at `column` quoting `found`.
pub fn error(column: usize, expected: &'static str, found: &str) -> ParseError {
    ParseError {
        column,
        expected,
        found: found.to_string(),
    }
}

/// A number in a suffix word: decimal, or hexadecimal digits when `hex` (`.xf8`).
pub fn word_number(w: &str, hex: bool) -> Option<u64> {
    if w.is_empty() {
        return None;
    }
    if hex {
        u64::from_str_radix(w, 16).ok()
    } else if w.bytes().all(|b| b.is_ascii_digit()) {
        w.parse().ok()
    } else {
        None
    }
}

/// Appends a suffix number (`.x` prefix: lower-case hexadecimal digits).
pub fn push_number(out: &mut String, v: u64, hex: bool) {
    if hex {
        let _ = write!(out, "{v:x}");
    } else {
        let _ = write!(out, "{v}");
    }
}

/// `v` in upper-case hexadecimal digits, as IGC prints RAW_SENDG's SFID and descriptor.
pub fn push_hex_upper(out: &mut String, v: u64) {
    let _ = write!(out, "{v:X}");
}

/// Channel-mask letters of the low four bits (`R`, `RGBA`); `None` for no channel.
pub fn channels_text(v: u64) -> Option<&'static str> {
    spell(CHANNEL_MASKS, u8::try_from(v).ok()?)
}

/// The mask of channel letters, upper or lower case.
pub fn channels_value(w: &str) -> Option<u64> {
    value_of(CHANNEL_MASKS, w)
        .or_else(|| value_of(CHANNEL_MASKS, &w.to_ascii_uppercase()))
        .map(u64::from)
}

/// The space before an operand: at least one.
pub fn operand_space(c: &mut Cursor<'_>) -> Result<(), ParseError> {
    if c.skip_spaces() == 0 {
        return Err(c.error("a space and the next operand"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_a_mnemonic() {
        let mut c = Cursor::new("svm_atomic.add.64 (M1, 8)");
        let mut w = Words::read(&mut c);
        assert_eq!(w.base, "svm_atomic");
        assert_eq!(w.take("", "op"), Ok(("add", 11)));
        assert!(w.eat("64"));
        assert!(w.finish().is_ok());
        assert_eq!(c.rest(), " (M1, 8)");
        let mut c = Cursor::new("bfn.xf8");
        let mut w = Words::read(&mut c);
        let (x, at) = w.take("x", "ctrl").unwrap();
        assert_eq!((word_number(x, true), at), (Some(0xf8), 5));
        assert_eq!(w.take("x", "ctrl").unwrap_err().column, 7);
        assert_eq!(channels_value("rg"), Some(3));
        // Empty words are words: `mov..sat` has `` then `sat`, `mov.` one empty word.
        let mut c = Cursor::new("mov..sat x");
        let mut w = Words::read(&mut c);
        assert_eq!(w.take("", "w"), Ok(("", 4)));
        assert_eq!(w.take("", "w"), Ok(("sat", 5)));
        assert_eq!(w.take("", "w").unwrap_err().column, 8);
        let mut c = Cursor::new("mov.");
        let mut w = Words::read(&mut c);
        assert_eq!(w.peek(), Some(""));
        assert!(w.eat(""));
        assert!(w.finish().is_ok());
        assert_eq!(channels_text(0xf), Some("RGBA"));
        // `-` inside a word (SAMPLE_UNORM's output formats).
        let mut c = Cursor::new("sample_unorm.RGBA.16-full S0");
        let mut w = Words::read(&mut c);
        assert_eq!(w.take("", "channels"), Ok(("RGBA", 13)));
        assert!(w.eat("16-full"));
        assert!(w.finish().is_ok());
        assert_eq!(c.rest(), " S0");
    }
}
