//! Predicates: the operand `P5` (`and (M1, 16) P6 P6 P5`, note §1) and the instruction prefix
//! `(!P1.any) ` (`(!P1) goto (M1, 16) _0_009`, real-kernels/dg2). The printed number is the
//! id field of the control word (`P1` is the word 0x0001 in `arith_float_float_ops.isa`); the
//! combine suffixes `.any`/`.all` are IGC's `printPredicate` spellings.

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::names::Names;
use crate::runtime::{PredicateCombine, PredicateControl};
use alloc::string::String;

/// Prints a predicate operand: only the name. Inverse, combine and reserved bits have no text
/// in operand position, so a word carrying them is refused.
pub fn print_predicate_operand<N: Names + ?Sized>(
    out: &mut String,
    p: PredicateControl,
    names: &N,
) -> Result<(), PrintError> {
    if p.0 & 0xf000 != 0 {
        return Err(PrintError::Unprintable {
            what: "predicate operand: only the id bits have text in operand position",
            value: u64::from(p.0),
        });
    }
    out.push_str(&names.predicate(p.id()));
    Ok(())
}

/// Prints `(!P1.any) ` (with its trailing space), or nothing for [`PredicateControl::NONE`].
pub fn print_predicate_prefix<N: Names + ?Sized>(
    out: &mut String,
    p: PredicateControl,
    names: &N,
) -> Result<(), PrintError> {
    if p == PredicateControl::NONE {
        return Ok(());
    }
    if !p.is_valid() {
        return Err(PrintError::Unprintable {
            what: "predicate: reserved bit 12 or combine `11`",
            value: u64::from(p.0),
        });
    }
    out.push('(');
    if p.inverse() {
        out.push('!');
    }
    out.push_str(&names.predicate(p.id()));
    out.push_str(match p.combine() {
        PredicateCombine::Any => ".any",
        PredicateCombine::All => ".all",
        _ => "",
    });
    out.push_str(") ");
    Ok(())
}

/// Parses a predicate name into its id.
pub fn parse_predicate_name<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
) -> Result<u16, ParseError> {
    let at = c.column();
    let name = c.identifier(PREDICATE)?;
    let id = names
        .predicate_id(name)
        .ok_or_else(|| c.error_at(at, PREDICATE))?;
    if id > 0xfff {
        return Err(c.error_at(at, "a predicate id up to 4095"));
    }
    Ok(id)
}

const PREDICATE: &str = "a predicate (P<n>)";

/// Parses `(!P1.any)` and the spaces after it; no `(` means no predicate.
pub fn parse_predicate_prefix<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
) -> Result<PredicateControl, ParseError> {
    if !c.eat("(") {
        return Ok(PredicateControl::NONE);
    }
    let inverse = c.eat("!");
    let id = parse_predicate_name(c, names)?;
    let combine = if c.eat(".any") {
        PredicateCombine::Any
    } else if c.eat(".all") {
        PredicateCombine::All
    } else {
        PredicateCombine::Sequential
    };
    c.expect(")", "`)`, or `.any`/`.all` then `)`")?;
    c.skip_spaces();
    Ok(PredicateControl::new(id, combine, inverse))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    fn prefix(p: PredicateControl) -> String {
        let mut s = String::new();
        print_predicate_prefix(&mut s, p, &IntelNames).unwrap();
        s
    }

    #[test]
    fn prefixes_round_trip() {
        // real-kernels/dg2: `(P1) sel ...`, `(!P1) goto ...`, `(P30) ...`;
        // `.any`/`.all` per note §5 (printPredicate).
        for (text, p) in [
            ("(P1) ", PredicateControl(0x0001)),
            ("(!P1) ", PredicateControl(0x8001)),
            ("(P30) ", PredicateControl(30)),
            (
                "(!P1.any) ",
                PredicateControl::new(1, PredicateCombine::Any, true),
            ),
            (
                "(P2.all) ",
                PredicateControl::new(2, PredicateCombine::All, false),
            ),
            ("", PredicateControl::NONE),
        ] {
            assert_eq!(prefix(p), text);
            let mut c = Cursor::new(text);
            assert_eq!(parse_predicate_prefix(&mut c, &IntelNames), Ok(p), "{text}");
            assert!(c.at_end());
        }
        assert!(
            print_predicate_prefix(&mut String::new(), PredicateControl(0x6001), &IntelNames)
                .is_err()
        );
    }

    #[test]
    fn operands_and_errors() {
        let mut s = String::new();
        print_predicate_operand(&mut s, PredicateControl(5), &IntelNames).unwrap();
        assert_eq!(s, "P5");
        assert!(print_predicate_operand(&mut s, PredicateControl(0x8005), &IntelNames).is_err());
        let e = parse_predicate_prefix(&mut Cursor::new("(!P1.one)"), &IntelNames).unwrap_err();
        assert_eq!(e.column, 4);
        let e = parse_predicate_prefix(&mut Cursor::new("(Q1)"), &IntelNames).unwrap_err();
        assert_eq!((e.column, e.expected), (1, PREDICATE));
        let e = parse_predicate_prefix(&mut Cursor::new("(P4096)"), &IntelNames).unwrap_err();
        assert_eq!(e.column, 1);
    }
}
