//! Source modifiers (bits 3-5 of a general or indirect operand's tag), printed before the
//! operand: `(-)V0060(0,0)<1;1,0>`. Values are IGC's `VISA_Modifier`: `(-)` is 2 and `(abs)` 1
//! in the bytes of `arith_float_float_ops.isa` (`add ... (-)V0060...` has tag 0x10,
//! `add.sat ... (abs)V0087...` tag 0x08). `(-abs)` (3) and `(~)` (5) are from IGC's printer
//! (note §1: AND/OR/XOR/NOT "`(~)` modifier ✓").

use super::cursor::Cursor;
use super::error::ParseError;

/// A modifier with its binary value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    None = 0,
    Abs = 1,
    Neg = 2,
    NegAbs = 3,
    /// Saturation, carried by a destination: IGC prints it as `.sat` after the mnemonic, not
    /// on the operand, so the operand printers print nothing for it.
    Sat = 4,
    Not = 5,
}

impl Modifier {
    pub fn from_bits(bits: u8) -> Option<Modifier> {
        Some(match bits {
            0 => Modifier::None,
            1 => Modifier::Abs,
            2 => Modifier::Neg,
            3 => Modifier::NegAbs,
            4 => Modifier::Sat,
            5 => Modifier::Not,
            _ => return None,
        })
    }

    pub fn bits(self) -> u8 {
        self as u8
    }

    /// The operand prefix: `(-)`, `(abs)`, `(-abs)`, `(~)`; empty for none and sat.
    pub fn prefix(self) -> &'static str {
        match self {
            Modifier::None | Modifier::Sat => "",
            Modifier::Abs => "(abs)",
            Modifier::Neg => "(-)",
            Modifier::NegAbs => "(-abs)",
            Modifier::Not => "(~)",
        }
    }
}

const PREFIXES: [Modifier; 4] = [
    Modifier::NegAbs,
    Modifier::Neg,
    Modifier::Abs,
    Modifier::Not,
];

/// Consumes a modifier prefix if there is one (never `Sat`).
pub fn parse_modifier(c: &mut Cursor<'_>) -> Result<Modifier, ParseError> {
    if c.peek() != Some('(') {
        return Ok(Modifier::None);
    }
    for m in PREFIXES {
        if c.eat(m.prefix()) {
            return Ok(m);
        }
    }
    Err(c.error("a source modifier: `(-)`, `(abs)`, `(-abs)` or `(~)`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_parse_to_their_values() {
        for (text, m) in [
            ("(-)", Modifier::Neg),
            ("(abs)", Modifier::Abs),
            ("(-abs)", Modifier::NegAbs),
            ("(~)", Modifier::Not),
            ("", Modifier::None),
        ] {
            let mut c = Cursor::new(text);
            assert_eq!(parse_modifier(&mut c), Ok(m));
            assert!(c.at_end());
            assert_eq!(m.prefix(), text);
            assert_eq!(Modifier::from_bits(m.bits()), Some(m));
        }
        assert_eq!(Modifier::from_bits(6), None);
        assert_eq!(
            parse_modifier(&mut Cursor::new("(+)")).unwrap_err().column,
            0
        );
    }
}
