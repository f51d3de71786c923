//! FENCE (`fence_global.EL1`, `fence_local.E`, `fence_sw`, real-kernels/dg2): the template's
//! meta-notation `FENCE_{GLOBAL|LOCAL}.{E?I?S?C?R?L1?}` leaves the dot rule open. IGC prints
//! `fence_sw` when bit 7 is set, else `fence_local` (bit 5) or `fence_global`, then a dot and
//! the letters of bits 0-4 and 6 when any is set (note §1, FENCE row). `fence_local.` (local,
//! no flag), which IGC prints but cannot re-parse, is what we print too; we parse it back.

use super::fields::{Fields, Parsed, Value};
use super::Formatter;
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::{error, Words};
use crate::runtime::text::{Cursor, Names};
use crate::runtime::PredicateControl;
use alloc::string::String;

/// Letters of the flag bits, in IGC's order.
const FLAGS: [(&str, u8); 6] = [
    ("E", 0x01),
    ("I", 0x02),
    ("S", 0x04),
    ("C", 0x08),
    ("R", 0x10),
    ("L1", 0x40),
];
const LOCAL: u8 = 0x20;
const SW: u8 = 0x80;

/// The mnemonics this formatter parses.
pub const MNEMONICS: [&str; 3] = ["fence_global", "fence_local", "fence_sw"];

/// FENCE's formatter, over its field `Mask`.
pub const FENCE: Fence = Fence;

#[derive(Clone, Copy, Debug)]
pub struct Fence;

impl Formatter for Fence {
    fn is_mnemonic(&self, base: &str) -> bool {
        MNEMONICS.contains(&base)
    }

    fn print(
        &self,
        f: Fields<'_>,
        _: &dyn Names,
        out: &mut String,
        lossy: bool,
    ) -> Result<(), PrintError> {
        print_mask(f.scalar("Mask")?, out, lossy)
    }

    fn parse(
        &self,
        pred: PredicateControl,
        mut w: Words<'_>,
        mut c: Cursor<'_>,
        _: &dyn Names,
    ) -> Result<Parsed, ParseError> {
        if pred != PredicateControl::NONE {
            return Err(error(0, "no predicate: this instruction takes none", "("));
        }
        let mask = parse_mask(&mut w)?;
        c.skip_spaces();
        c.finish()?;
        Ok(Parsed(alloc::vec![("Mask", Value::Scalar(mask))]))
    }
}

/// Prints the fence of mask `raw`, or with `lossy` Intel's line whatever it cannot show:
/// `fence_sw` for any mask with bit 7 (Intel's compiler writes 0xa1 on SKL and prints
/// `fence_sw`; its assembler writes 0x80 for `fence_sw`).
pub fn print_mask(raw: u64, out: &mut String, lossy: bool) -> Result<(), PrintError> {
    let mask = u8::try_from(raw).map_err(|_| PrintError::Unprintable {
        what: "FENCE Mask: one byte",
        value: raw,
    })?;
    if mask & SW != 0 {
        if mask != SW && !lossy {
            return Err(PrintError::Unprintable {
                what: "FENCE Mask: `fence_sw` carries no other bit",
                value: raw,
            });
        }
        out.push_str("fence_sw");
        return Ok(());
    }
    out.push_str(if mask & LOCAL != 0 {
        "fence_local"
    } else {
        "fence_global"
    });
    let flags = mask & !LOCAL;
    // A dot before the letters; IGC prints a bare dot for a local fence without flags.
    if flags != 0 || mask == LOCAL {
        out.push('.');
    }
    for (letter, bit) in FLAGS {
        if flags & bit != 0 {
            out.push_str(letter);
        }
    }
    Ok(())
}

/// Parses the words of a fence mnemonic into its mask.
pub fn parse_mask(w: &mut Words<'_>) -> Result<u64, ParseError> {
    let mut mask = match w.base {
        "fence_sw" => return w.finish().map(|()| u64::from(SW)),
        "fence_local" => LOCAL,
        "fence_global" => 0,
        _ => return Err(w.error("fence_global, fence_local or fence_sw")),
    };
    if let Some(letters) = w.peek() {
        let (_, at) = w.take("", "flag letters")?;
        let mut rest = letters;
        'next: while !rest.is_empty() {
            for (letter, bit) in FLAGS {
                if let Some(r) = rest.strip_prefix(letter) {
                    if mask & bit != 0 {
                        break;
                    }
                    mask |= bit;
                    rest = r;
                    continue 'next;
                }
            }
            return Err(error(
                at,
                "flag letters E I S C R L1, in this order",
                letters,
            ));
        }
    }
    w.finish()?;
    Ok(u64::from(mask))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    #[test]
    fn fence_sw_with_other_bits_prints_only_when_lossy() {
        // 0xa1: Intel's compiler on SKL (bits 7, 5, 0), printed `fence_sw` by Intel.
        assert!(print_mask(0xa1, &mut String::new(), false).is_err());
        let mut s = String::new();
        print_mask(0xa1, &mut s, true).unwrap();
        assert_eq!(s, "fence_sw");
    }

    #[test]
    fn intel_fences() {
        // fence_global.EL1 = 0x41 and fence_local.E = 0x21 in c11_atomics_c11.isa and
        // local_mem_reduce.isa; fence_sw, fence_global and `fence_local.` from note §1.
        for (text, mask) in [
            ("fence_global.EL1", 0x41),
            ("fence_local.E", 0x21),
            ("fence_global.E", 0x01),
            ("fence_global", 0x00),
            ("fence_local.", 0x20),
            ("fence_sw", 0x80),
            ("fence_global.EISCRL1", 0x5f),
        ] {
            let mut s = String::new();
            let fields = [("Mask", Value::Scalar(mask))];
            FENCE
                .print(Fields::new("FENCE", &fields), &IntelNames, &mut s, false)
                .unwrap();
            assert_eq!(s, text);
            let mut c = Cursor::new(text);
            let w = Words::read(&mut c);
            assert!(FENCE.is_mnemonic(w.base), "{text}");
            let back = FENCE.parse(PredicateControl::NONE, w, c, &IntelNames);
            assert_eq!(back, Ok(Parsed(alloc::vec![("Mask", Value::Scalar(mask))])));
        }
        assert!(print_mask(0x81, &mut String::new(), false).is_err());
        let mut c = Cursor::new("fence_local.LE");
        assert!(parse_mask(&mut Words::read(&mut c)).is_err());
        // No predicate, nothing after the mnemonic.
        let mut c = Cursor::new("fence_sw V0001");
        let w = Words::read(&mut c);
        assert!(FENCE
            .parse(PredicateControl::NONE, w, c, &IntelNames)
            .is_err());
    }
}
