//! SVM_BLOCK_LD and SVM_BLOCK_ST, whose Properties byte Intel's two printers spell apart:
//!
//! ```text
//! svm_block_ld (4) V0045(0,0)<0;1,0> V0044.0              IGC 12504.6 (vISA 4.1)
//! svm_block_ld.unaligned (4) V0045(0,0)<0;1,0> V0044.0    IGC 2.x (vISA 4.2)
//! ```
//!
//! The oword count is Properties bits 2..0 (1, 2, 4, 8, 16: 0-4; errata
//! SVM_BLOCK_LD-values-16-owords-bit-7 and SVM_BLOCK_ST-values-16-owords). IGC 2.x prints bit 7
//! as `.unaligned` and its absence as `.aligned` (`IsaDisassembly.cpp`, the SVM printer;
//! `tests/modern/fixtures/tgllp/block_io/block_io.visaasm`); IGC 12504.6 prints neither, refuses
//! both words, and assembles `(N)` with bits 3..7 clear (erratum
//! SVM_BLOCK_LD-text-properties-slot), so a byte with any of them set prints its line with a
//! note there (it assembles to another byte). The parser takes both spellings.

use super::fields::{Fields, Parsed, Value};
use super::Formatter;
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::{error, operand_space, Words};
use crate::runtime::text::{
    is_saturated, parse_raw, parse_vector, print_raw, print_vector, Cursor, Dialect, Names,
};
use crate::runtime::PredicateControl;
use alloc::string::String;

/// The oword counts by the value of Properties bits 2..0.
const OWORDS: [&str; 5] = ["1", "2", "4", "8", "16"];
const UNALIGNED: u64 = 0x80;

/// The formatter of both block messages.
pub const SVM_BLOCK: SvmBlock = SvmBlock;

#[derive(Clone, Copy, Debug)]
pub struct SvmBlock;

/// The mnemonic's data field: the load's destination, the store's source.
fn data_field(mnemonic: &str) -> &'static str {
    if mnemonic == "svm_block_st" {
        "Src"
    } else {
        "Dst"
    }
}

impl Formatter for SvmBlock {
    fn is_mnemonic(&self, base: &str) -> bool {
        matches!(base, "svm_block_ld" | "svm_block_st")
    }

    fn print(
        &self,
        f: Fields<'_>,
        names: &dyn Names,
        out: &mut String,
        lossy: bool,
    ) -> Result<(), PrintError> {
        let store = f.instruction == "SVM_BLOCK_ST";
        let mnemonic = if store {
            "svm_block_st"
        } else {
            "svm_block_ld"
        };
        let p = f.scalar("Properties")?;
        let address = f.vector("Address")?;
        let data = f.raw(data_field(mnemonic))?;
        let igc2 = names.dialect() == Dialect::Igc2;
        let shown = if igc2 { 0x7 | UNALIGNED } else { 0x7 };
        if !lossy && p & !shown != 0 {
            return Err(PrintError::Unprintable {
                what: "SVM_BLOCK Properties: bits the text does not print",
                value: p,
            });
        }
        if is_saturated(&address) {
            return Err(PrintError::Unprintable {
                what: "SVM_BLOCK address: saturation prints only on a destination as `.sat`",
                value: 4,
            });
        }
        let count = usize::try_from(p & 0x7)
            .ok()
            .and_then(|i| OWORDS.get(i))
            .ok_or(PrintError::Unprintable {
                what: "SVM_BLOCK Properties: an oword count 1, 2, 4, 8 or 16 (0-4)",
                value: p & 0x7,
            })?;
        out.push_str(mnemonic);
        if igc2 {
            out.push_str(if p & UNALIGNED != 0 {
                ".unaligned"
            } else {
                ".aligned"
            });
        }
        out.push_str(" (");
        out.push_str(count);
        out.push_str(") ");
        print_vector(out, &address, names)?;
        out.push(' ');
        print_raw(out, data, names)
    }

    fn parse(
        &self,
        pred: PredicateControl,
        mut w: Words<'_>,
        mut c: Cursor<'_>,
        names: &dyn Names,
    ) -> Result<Parsed, ParseError> {
        if pred != PredicateControl::NONE {
            return Err(error(0, "no predicate: this instruction takes none", "("));
        }
        let mnemonic = w.base;
        let mut properties = 0;
        if w.eat("unaligned") {
            properties |= UNALIGNED;
        } else {
            w.eat("aligned");
        }
        w.finish()?;
        operand_space(&mut c)?;
        c.expect("(", "`(` and the oword count")?;
        let at = c.column();
        let x = c.take_while(|ch| ch.is_ascii_alphanumeric());
        let count = OWORDS
            .iter()
            .position(|o| *o == x)
            .ok_or_else(|| error(at, "an oword count: 1, 2, 4, 8 or 16", x))?;
        properties |= count as u64;
        c.expect(")", "`)`")?;
        operand_space(&mut c)?;
        let address = parse_vector(&mut c, names)?;
        operand_space(&mut c)?;
        let data = parse_raw(&mut c, names)?;
        c.skip_spaces();
        c.finish()?;
        let mut p = Parsed::default();
        p.set("Properties", Value::Scalar(properties));
        p.set("Address", Value::Vector(address));
        p.set(data_field(mnemonic), Value::Raw(data));
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::NameTable;
    use crate::runtime::RawOperand;

    struct Igc2(NameTable);

    impl Names for Igc2 {
        fn general(&self, id: u32) -> Option<alloc::borrow::Cow<'_, str>> {
            self.0.general(id)
        }
        fn general_id(&self, name: &str) -> Option<u32> {
            self.0.general_id(name)
        }
        fn label(&self, id: u32) -> Option<alloc::borrow::Cow<'_, str>> {
            self.0.label(id)
        }
        fn label_id(&self, name: &str) -> Option<u32> {
            self.0.label_id(name)
        }
        fn dialect(&self) -> Dialect {
            Dialect::Igc2
        }
    }

    fn names() -> NameTable {
        let mut n = NameTable::new();
        for id in [44, 45] {
            n.declare_general(id, alloc::format!("V{id:04}"));
        }
        n
    }

    fn parse(text: &str, n: &dyn Names) -> Result<Parsed, ParseError> {
        let mut c = Cursor::new(text);
        let w = Words::read(&mut c);
        SVM_BLOCK.parse(PredicateControl::NONE, w, c, n)
    }

    fn print(
        doc: &'static str,
        p: &Parsed,
        n: &dyn Names,
        lossy: bool,
    ) -> Result<String, PrintError> {
        let mut s = String::new();
        SVM_BLOCK.print(Fields::new(doc, &p.0), n, &mut s, lossy)?;
        Ok(s)
    }

    #[test]
    fn both_printers_spellings() {
        let igc2 = Igc2(names());
        // tests/modern/fixtures/tgllp/block_io/block_io.visaasm: bit 7 and 4 owords, 0x82 (the
        // byte Intel's compiler of 2022 wrote for `svm_block_ld (4)`, tests/ocl/fixtures).
        let line = "svm_block_ld.unaligned (4) V0045(0,0)<0;1,0> V0044.0";
        let p = parse(line, &igc2).unwrap();
        assert_eq!(p.scalar("Properties"), Some(0x82));
        assert_eq!(p.raw("Dst"), Some(RawOperand { id: 44, offset: 0 }));
        assert_eq!(print("SVM_BLOCK_LD", &p, &igc2, false).as_deref(), Ok(line));
        // IGC 12504.6 prints no alignment: the bit has no text there, a note in lossy mode.
        let n = names();
        assert!(print("SVM_BLOCK_LD", &p, &n, false).is_err());
        assert_eq!(
            print("SVM_BLOCK_LD", &p, &n, true).as_deref(),
            Ok("svm_block_ld (4) V0045(0,0)<0;1,0> V0044.0")
        );
        let p = parse("svm_block_st (16) V0045(0,0)<0;1,0> V0044.0", &n).unwrap();
        assert_eq!(p.scalar("Properties"), Some(4));
        assert!(p.raw("Src").is_some() && p.raw("Dst").is_none());
        assert_eq!(
            print("SVM_BLOCK_ST", &p, &igc2, false).as_deref(),
            Ok("svm_block_st.aligned (16) V0045(0,0)<0;1,0> V0044.0")
        );
        let e = parse("svm_block_ld (3) V0045(0,0)<0;1,0> V0044.0", &n).unwrap_err();
        assert!(e.expected.contains("oword count"), "{e}");
    }
}
