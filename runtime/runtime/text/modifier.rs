//! Source modifiers (bits 3-5 of a general or indirect operand's tag), printed before the
//! operand: `(-)V0060(0,0)<1;1,0>`. Values are IGC's `VISA_Modifier`: `(-)` is 2 and `(abs)` 1
//! in the bytes of `arith_float_float_ops.isa` (`add ... (-)V0060...` has tag 0x10,
//! `add.sat ... (abs)V0087...` tag 0x08, and its sat dst `V0089` tag 0x20, i.e. sat = 4).
//! `(-abs)` = 3 and `(~)` = 5 follow IGC's `VISA_Modifier` enum; the corpus has neither, so
//! those two values are not checked against bytes (the `(~)` spelling is, note §1).

use super::cursor::Cursor;
use super::error::ParseError;
use crate::runtime::VectorOperand;

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

/// Does a destination carry saturation (printed as `.sat` after the mnemonic)?
pub fn is_saturated(op: &VectorOperand) -> bool {
    matches!(
        op,
        VectorOperand::General { modifier: 4, .. } | VectorOperand::Indirect { modifier: 4, .. }
    )
}

/// Marks a parsed destination as saturated, for an instruction parser that read `.sat`.
/// Other classes carry no modifier and are left alone.
pub fn set_saturated(op: &mut VectorOperand) {
    if let VectorOperand::General { modifier, .. } | VectorOperand::Indirect { modifier, .. } = op {
        *modifier = Modifier::Sat.bits();
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

    #[test]
    fn saturation_belongs_to_the_instruction() {
        // arith_float_float_ops.visaasm: `add.sat (M1, 16) V0089(0,0)<1> ...`: the dst
        // operand text carries no modifier.
        let mut op = VectorOperand::General {
            modifier: 0,
            id: 89,
            row_offset: 0,
            col_offset: 0,
            region: crate::runtime::Region(0x0200),
        };
        assert!(!is_saturated(&op));
        set_saturated(&mut op);
        assert!(is_saturated(&op));
        let mut s = alloc::string::String::new();
        crate::runtime::text::print_vector(&mut s, &op, &crate::runtime::text::IntelNames).unwrap();
        assert_eq!(s, "V0089(0,0)<1>");
    }
}
