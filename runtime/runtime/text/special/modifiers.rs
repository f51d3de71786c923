//! Words IGC 2.x prints at the end of a mnemonic, before the exec size, for which the docs'
//! layouts have no field (intel-graphics-compiler v2.40.13, `visa/IsaDisassembly.cpp`):
//!
//! ```text
//! ifcall.uniform.noreturn (M1, 1) V0040(0,0)<0;1,0> 1 1      printInstructionControlFlow, ISA_IFCALL
//! lsc_load.ugm.ca.ca.ov (M1, 16)  V0050:d32  flat[V0051]:a64 LscInstFormatter::formatUntypedSimple
//! lsc_atomic_iadd.tgm.msaa (M1, 16)  V0060:d32  bss(V0061)[V0062]:a32  V0063  %null
//!                                                            LscInstFormatter::formatTyped
//! ```
//!
//! - IFCALL's `.uniform` (all lanes call the same function) and `.noreturn` (the function
//!   ends the thread) are bits 0 and 1 of a byte IGC 2.x's layout has before the function's
//!   address (`visa/IsaDescription.cpp`, "isUniform"), which the layout of vISA 4.1 (IGC
//!   12504.6, the docs) does not have; IGC's parser (`visa/CISA.y`) takes `.uniform`,
//!   `.noreturn` and `.uniform.noreturn`, in that order only.
//! - `.ov` (overfetch, a cache hint of cacheable loads: `visa/BuildIR.h`) is a byte IGC 2.x
//!   keeps for `lsc_load`, `lsc_load_quad` and `lsc_load_status` of the `ugm` unit
//!   (`hasOV` in `visa/Common_ISA_util.h`); its parser reads `.ov` on any untyped load, and
//!   keeps and prints it there only.
//! - `.msaa` is a byte IGC 2.x keeps for the typed atomics `lsc_atomic_iinc` to
//!   `lsc_atomic_xor` (`hasMSAA`); its code generator passes it to the descriptor and sets no
//!   bit for it (`IR_Builder::createTypedAtomicDesc`).
//!
//! [`split`] takes them out of a line, so the instruction parser reads what the docs' layouts
//! hold; the object file keeps them beside the instruction
//! ([`crate::object::RoutineTextOnly::modifiers`]) and [`insert`] puts them back into the
//! printed line.

use crate::runtime::text::error::ParseError;
use crate::runtime::text::instruction::error;
use crate::runtime::text::spellings::{value_of, LSC_UNTYPED_OPS};
use alloc::string::String;

/// Which of the words an instruction's text has, one bit each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modifiers(pub u8);

impl Modifiers {
    /// IFCALL `.uniform`: every lane calls the same function (IGC's flag bit 0).
    pub const UNIFORM: Modifiers = Modifiers(1);
    /// IFCALL `.noreturn`: the function ends the thread (IGC's flag bit 1).
    pub const NORETURN: Modifiers = Modifiers(2);
    /// LSC `.ov`: overfetch, a cache hint of cacheable loads.
    pub const OVERFETCH: Modifiers = Modifiers(4);
    /// LSC typed atomic `.msaa`.
    pub const MSAA: Modifiers = Modifiers(8);

    /// Whether every word of `m` is set.
    pub fn contains(self, m: Modifiers) -> bool {
        self.0 & m.0 == m.0
    }

    /// Whether any word of `m` is set.
    pub fn intersects(self, m: Modifiers) -> bool {
        self.0 & m.0 != 0
    }
}

/// One word: its text, its bit, and the mnemonics it follows (the first word and the LSC
/// unit), said in `only` for errors.
struct Word {
    text: &'static str,
    bit: Modifiers,
    follows: fn(&str, Option<&str>) -> bool,
    only: &'static str,
}

/// The words in IGC's print order.
const WORDS: [Word; 4] = [
    Word {
        text: "uniform",
        bit: Modifiers::UNIFORM,
        follows: ifcall,
        only: "`.uniform` only after `ifcall`",
    },
    Word {
        text: "noreturn",
        bit: Modifiers::NORETURN,
        follows: ifcall,
        only: "`.noreturn` only after `ifcall` or `ifcall.uniform`",
    },
    Word {
        text: "ov",
        bit: Modifiers::OVERFETCH,
        follows: overfetch,
        only: "`.ov` only on lsc_load, lsc_load_quad and lsc_load_status of the ugm unit",
    },
    Word {
        text: "msaa",
        bit: Modifiers::MSAA,
        follows: msaa,
        only: "`.msaa` only on the typed atomics lsc_atomic_iinc to lsc_atomic_xor of the tgm unit",
    },
];

fn ifcall(base: &str, _: Option<&str>) -> bool {
    base == "ifcall"
}

fn overfetch(base: &str, unit: Option<&str>) -> bool {
    matches!(base, "lsc_load" | "lsc_load_quad" | "lsc_load_status") && unit == Some("ugm")
}

fn msaa(base: &str, unit: Option<&str>) -> bool {
    // LSC_OP's LSC_ATOMIC_IINC (0x08) to LSC_ATOMIC_XOR (0x1A).
    value_of(LSC_UNTYPED_OPS, base).is_some_and(|op| (0x08..=0x1a).contains(&op))
        && unit == Some("tgm")
}

/// The byte range of a line's mnemonic, after an optional predicate: up to the first space or
/// `(`.
fn mnemonic(line: &str) -> Option<(usize, usize)> {
    let start = if line.starts_with('(') {
        line.find(')')? + 1
    } else {
        0
    };
    let lead = start + (line.get(start..)?.len() - line.get(start..)?.trim_start().len());
    let len = line
        .get(lead..)?
        .find([' ', '('])
        .unwrap_or(line.len() - lead);
    (len > 0).then_some((lead, lead + len))
}

/// The line without the words `.uniform`, `.noreturn`, `.ov` and `.msaa` that end its
/// mnemonic, and which they were; `Ok(None)` for a line without any. A word on a mnemonic it
/// does not follow, out of IGC's order, or before another word of the mnemonic is an error at
/// its column.
pub fn split(line: &str) -> Result<Option<(String, Modifiers)>, ParseError> {
    let Some((start, end)) = mnemonic(line) else {
        return Ok(None);
    };
    let text = &line[start..end];
    let mut words = text.split('.');
    let base = words.next().unwrap_or("");
    let unit = words.next();
    let mut found = Modifiers::default();
    let mut cut = None;
    let mut last = None;
    let mut at = start + base.len();
    for w in text.split('.').skip(1) {
        let column = at + 1;
        at = column + w.len();
        let Some(i) = WORDS.iter().position(|x| x.text == w) else {
            if cut.is_some() {
                return Err(error(
                    column,
                    "nothing after `.uniform`, `.noreturn`, `.ov` or `.msaa`: they end the mnemonic",
                    w,
                ));
            }
            continue;
        };
        let word = &WORDS[i];
        if !(word.follows)(base, unit) {
            return Err(error(column, word.only, w));
        }
        if last.is_some_and(|l| l >= i) {
            return Err(error(
                column,
                "IGC's order, `ifcall.uniform.noreturn`, each word once",
                w,
            ));
        }
        last = Some(i);
        found.0 |= word.bit.0;
        cut.get_or_insert(column - 1);
    }
    Ok(cut.map(|from| {
        let mut out = String::from(&line[..from]);
        out.push_str(&line[end..]);
        (out, found)
    }))
}

/// The printed line `line` with the words of `m` put back at the end of its mnemonic, in
/// IGC's order; `None` when a word does not follow this mnemonic.
pub fn insert(line: &str, m: Modifiers) -> Option<String> {
    let (start, end) = mnemonic(line)?;
    let mut words = line[start..end].split('.');
    let (base, unit) = (words.next()?, words.next());
    let mut out = String::from(&line[..end]);
    for w in WORDS.iter().filter(|w| m.contains(w.bit)) {
        if !(w.follows)(base, unit) {
            return None;
        }
        out.push('.');
        out.push_str(w.text);
    }
    out.push_str(&line[end..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines typed from IGC 2.40's printer: `printInstructionControlFlow` writes `ifcall`, then
    /// `.uniform` for flag bit 0 and `.noreturn` for bit 1, then ` ` and the exec size;
    /// `LscInstFormatter::formatUntypedSimple` writes `.ov` after the cache controls (none when
    /// both are `.df`); `formatTyped` writes `.msaa` there.
    #[test]
    fn igc_lines_split_and_print_back() {
        for (line, cut, m) in [
            (
                "ifcall.uniform (M1, 1) V0040(0,0)<0;1,0> 1 1",
                "ifcall (M1, 1) V0040(0,0)<0;1,0> 1 1",
                Modifiers::UNIFORM,
            ),
            (
                "ifcall.noreturn (M1, 1) V0040(0,0)<0;1,0> 1 1",
                "ifcall (M1, 1) V0040(0,0)<0;1,0> 1 1",
                Modifiers::NORETURN,
            ),
            (
                "(P1) ifcall.uniform.noreturn (M1, 16) V0040(0,0)<0;1,0> 2 0",
                "(P1) ifcall (M1, 16) V0040(0,0)<0;1,0> 2 0",
                Modifiers(3),
            ),
            (
                "lsc_load.ugm.ov (M1, 32)  V0050:d32  flat[V0051]:a64",
                "lsc_load.ugm (M1, 32)  V0050:d32  flat[V0051]:a64",
                Modifiers::OVERFETCH,
            ),
            (
                "lsc_load_quad.ugm.ca.ca.ov (M1, 16)  V0050:d32.xyzw  flat[V0051]:a64",
                "lsc_load_quad.ugm.ca.ca (M1, 16)  V0050:d32.xyzw  flat[V0051]:a64",
                Modifiers::OVERFETCH,
            ),
            (
                "lsc_load.ugm.ca.ca.ca.ov (M1, 32)  V0050:d32  flat[V0051]:a64",
                "lsc_load.ugm.ca.ca.ca (M1, 32)  V0050:d32  flat[V0051]:a64",
                Modifiers::OVERFETCH,
            ),
            (
                "lsc_atomic_iadd.tgm.msaa (M1, 16)  V0060:d32  bss(V0061)[V0062]:a32  V0063  %null",
                "lsc_atomic_iadd.tgm (M1, 16)  V0060:d32  bss(V0061)[V0062]:a32  V0063  %null",
                Modifiers::MSAA,
            ),
        ] {
            assert_eq!(split(line), Ok(Some((String::from(cut), m))), "{line}");
            assert_eq!(insert(cut, m).as_deref(), Some(line), "{line}");
        }
    }

    #[test]
    fn lines_without_the_words_are_left_alone() {
        for line in [
            "ifcall (M1, 1) V0040(0,0)<0;1,0> 1 1",
            "lsc_load.ugm.ca.ca (M1, 16)  V0059:d32  bti(0x1)[V0057]:a32",
            "add (M1, 16) V0010(0,0)<1> V0011(0,0)<1;1,0> 0x1:d",
            "",
            "(P1",
        ] {
            assert_eq!(split(line), Ok(None), "{line}");
        }
        assert_eq!(
            insert("ifcall (M1, 1) V1 1 1", Modifiers::default()).as_deref(),
            Some("ifcall (M1, 1) V1 1 1")
        );
        // A word the mnemonic does not take has no place in its line.
        assert_eq!(
            insert(
                "lsc_store.ugm (M1, 16)  flat[V1]:a64  V2:d32",
                Modifiers::OVERFETCH
            ),
            None
        );
        assert_eq!(insert("add (M1, 1) V1 V2 V3", Modifiers::UNIFORM), None);
    }

    #[test]
    fn misplaced_words_are_errors_at_their_column() {
        for (line, column, expected) in [
            ("ifcall.noreturn.uniform (M1, 1) V1 1 1", 16, "IGC's order"),
            ("ifcall.uniform.uniform (M1, 1) V1 1 1", 15, "IGC's order"),
            (
                "lsc_store.ugm.ov (M1, 16)  flat[V1]:a64  V2:d32",
                14,
                "`.ov` only",
            ),
            (
                "lsc_load.slm.ov (M1, 16)  V2:d32  flat[V1]:a32",
                13,
                "`.ov` only",
            ),
            (
                "lsc_load_strided.ugm.ov (M1, 16)  V2:d32  flat[V1]:a64",
                21,
                "`.ov` only",
            ),
            (
                "lsc_load_quad.tgm.ov (M1, 16)  V2:d32.x  bti(0x1)[V1]:a32",
                18,
                "`.ov` only",
            ),
            (
                "lsc_atomic_iadd.ugm.msaa (M1, 16)  V2:d32  flat[V1]:a64  V3  %null",
                20,
                "`.msaa` only",
            ),
            (
                "lsc_load_quad.tgm.msaa (M1, 16)  V2:d32.x  bti(0x1)[V1]:a32",
                18,
                "`.msaa` only",
            ),
            ("add.uniform (M1, 1) V1 V2 V3", 4, "`.uniform` only"),
            (
                "lsc_load.ugm.ov.ca.ca (M1, 16)  V2:d32  flat[V1]:a64",
                16,
                "end the mnemonic",
            ),
            (
                "(P2) ifcall.noreturn.x (M1, 1) V1 1 1",
                21,
                "end the mnemonic",
            ),
        ] {
            let e = split(line).expect_err(line);
            assert_eq!(e.column, column, "{line}: {e}");
            assert!(e.expected.contains(expected), "{line}: {e}");
        }
    }
}
