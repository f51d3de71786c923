//! The paired resource of IGC 2.x's 3D sampler messages: IGC's printer
//! (intel-graphics-compiler v2.40.13, `visa/IsaDisassembly.cpp`, `printInstructionSampler`,
//! cases `ISA_3D_SAMPLE`, `ISA_3D_LOAD` and `ISA_3D_GATHER4`) writes a raw operand after the
//! destination, and its parser (`visa/CISA.y`, `Sample3dInstruction`, `Load3dInstruction`,
//! `Gather43dInstruction`) reads one there:
//!
//! ```text
//! sample_l.RGBA (M1, 16)  0x0:uw S0 T6 V0095.0 V0070.0 V0097.0 V0084.0
//! load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 %null.0 V0051.0
//! ```
//!
//! Intel's compiler writes `%null.0` (every 3D message of `tests/modern/fixtures`), which
//! [`super::sampler_3d`] reads and prints. Another one is a surface IGC's code generator puts
//! into the message header for the sampler, on platforms with sampler feedback
//! (`IR_Builder::doPairedResourceHeaderMove`, `visa/VisaToG4/TranslateSend3D.cpp`); the docs'
//! layouts of 3D_SAMPLE and 3D_LOAD have no field for it, so it is text only: [`split`] puts
//! `%null.0` in its place and the object file keeps it beside the instruction
//! ([`crate::object::RoutineTextOnly::paired_resources`]); [`insert`] puts it back.

use super::state_variables::{locate, word, Kind};
use crate::runtime::text::{parse_raw, print_raw, Cursor, Dialect, Names};
use crate::runtime::RawOperand;
use alloc::string::String;

/// What IGC 2.x's compiler writes there, and what the instruction's line holds in its place.
pub const NULL: &str = "%null.0";

/// The byte range of the paired resource of a 3D_SAMPLE or 3D_LOAD line of IGC 2.x's text
/// (samplers and surfaces given by name, `S31` and `%bss` in the places of variables).
fn place(line: &str, names: &dyn Names) -> Option<(usize, usize)> {
    if names.dialect() != Dialect::Igc2 {
        return None;
    }
    let (kind, mut at) = locate(line)?;
    // Aoffimmi, the sampler (3D_SAMPLE), the surface and the destination.
    let before = match kind {
        Kind::Sample => 4,
        Kind::Load => 3,
        Kind::Info => return None,
    };
    for _ in 0..before {
        at = word(line, at)?.1;
    }
    word(line, at)
}

/// A 3D_SAMPLE or 3D_LOAD line of IGC 2.x's text whose paired resource is not `%null.0`: the
/// line with `%null.0` in its place, and the operand; `None` for any other line.
pub fn split(line: &str, names: &dyn Names) -> Option<(String, RawOperand)> {
    let (from, end) = place(line, names)?;
    let text = &line[from..end];
    let mut c = Cursor::new(text);
    let paired = parse_raw(&mut c, names).ok()?;
    // `%null` is the instruction's own (IGC's parser takes it at offset 0 only).
    if !c.at_end() || paired.id == 0 {
        return None;
    }
    let mut out = String::from(line);
    out.replace_range(from..end, NULL);
    Some((out, paired))
}

/// The printed line `line` of a 3D_SAMPLE or 3D_LOAD with `paired` in the place of its
/// `%null.0`; `None` when the line has no such place or the operand no name.
pub fn insert(line: &str, paired: RawOperand, names: &dyn Names) -> Option<String> {
    let (from, end) = place(line, names)?;
    (&line[from..end] == NULL).then_some(())?;
    let mut text = String::new();
    print_raw(&mut text, paired, names).ok()?;
    let mut out = String::from(line);
    out.replace_range(from..end, &text);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    use crate::runtime::text::names::Igc2Names as Igc2;

    /// Lines typed from `printInstructionSampler`: the operation and channels, ` `, the exec
    /// size, ` `, then each operand with its own leading space (Aoffimmi, `S<n>` for a
    /// sampler, the surface's name, the destination, the paired resource `name.offset` as
    /// `printRawOperand` writes it, the parameters).
    #[test]
    fn igc_lines_split_and_print_back() {
        let v = |id, offset| RawOperand { id, offset };
        for (line, cut, paired) in [
            (
                "sample_l.RGBA (M1, 16)  0x0:uw S0 T6 V0095.0 V0070.0 V0097.0 V0084.0",
                "sample_l.RGBA (M1, 16)  0x0:uw S0 T6 V0095.0 %null.0 V0097.0 V0084.0",
                v(70, 0),
            ),
            (
                "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 V0070.32 V0051.0",
                "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 %null.0 V0051.0",
                v(70, 32),
            ),
            (
                "(P1) sample_lz.R (M1, 32)  0x0:uw S31 %bss V0068.0 V0070.0 V0061.0",
                "(P1) sample_lz.R (M1, 32)  0x0:uw S31 %bss V0068.0 %null.0 V0061.0",
                v(70, 0),
            ),
        ] {
            assert_eq!(
                split(line, &Igc2),
                Some((String::from(cut), paired)),
                "{line}"
            );
            assert_eq!(insert(cut, paired, &Igc2).as_deref(), Some(line), "{line}");
        }
    }

    #[test]
    fn other_lines_are_left_alone() {
        for line in [
            "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 %null.0 V0051.0",
            "resinfo.RGBA (M1, 16)  T6 V0036.0 V0036.256",
            "add (M1, 16) V0010(0,0)<1> V0011(0,0)<1;1,0> 0x1:d",
            "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 V0060(0,0)<1;1,0> V0051.0",
            "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 %null.32 V0051.0",
            "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0",
            "sample_l.RGBA (M1, 16)",
        ] {
            assert_eq!(split(line, &Igc2), None, "{line}");
        }
        // IGC 12504.6's text has no paired resource: the word after the destination is the
        // first parameter.
        let old = "sample_l.RGBA (M5, 16)  0x0:uw S0 T6 V0095.0 V0097.0 V0084.0 V0084.64";
        assert_eq!(split(old, &IntelNames), None);
        assert_eq!(
            insert(old, RawOperand { id: 70, offset: 0 }, &IntelNames),
            None
        );
        // Printing needs `%null.0` in the place.
        assert_eq!(
            insert(
                "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 V0051.0 V0052.0",
                RawOperand { id: 70, offset: 0 },
                &Igc2
            ),
            None
        );
    }
}
