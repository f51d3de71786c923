//! Samplers and surfaces held in general variables: IGC 2.x's efficient-64-bit mode
//! (`-enableEfficient64b`, what ocloc gives NVL and XE3P_CRI) passes the state of 3D_SAMPLE,
//! 3D_LOAD and INFO as a 64-bit value in a variable where the docs' layouts hold a sampler or
//! surface index (`S<n>`, `T<n>`). IGC's printer (`IsaDisassembly.cpp`, cases `ISA_3D_SAMPLE`,
//! `ISA_3D_LOAD`, `ISA_3D_INFO`) writes the variable's name, or `(name, index) ` for a nonzero
//! index, and 3D_LOAD's surface as a source operand and `[index] `:
//!
//! ```text
//! sample_lz.RGBA (M1, 32)  0x0:uw V0064 V0066 V0068.0 %null.0 V0061.0 V0061.128   nvl-p images.visaasm
//! load_lz.RGBA (M1, 32)  0x0:uw V0060(0,0)<0;1,0>[0]  V0061.0 %null.0 V0055.0      nvl-p int_images.visaasm
//! resinfo.RG (M1_NM, 16)  V0071 V0073.0 V0075.0                                    nvl-p sample_modes.visaasm
//! ```
//!
//! No doc gives these operands a binary encoding, so they are text only: [`split`] takes them
//! out of a line and leaves in their place what the older modes write for the same state, the
//! bindless sampler `S31` and the bindless surface `%bss` (IGC 2.x on MTL moves the handle
//! there first: `movs (M1_NM, 1) %bss(0) V0061(0,0)<0;1,0>`); the object file keeps them beside
//! the instruction ([`crate::object::RoutineTextOnly::state_variables`]), [`insert`] puts them
//! back into the printed line, and the machine moves each variable's value into `S31` or `%bss`
//! while the instruction runs.

use super::info::INFO;
use super::sampler_3d::{LOAD, SAMPLE, SAMPLE4};
use super::Formatter;
use crate::runtime::text::{parse_vector, print_vector, state_of, Cursor, Names};
use crate::runtime::{Region, VectorOperand};
use alloc::string::String;
use core::fmt::Write;

/// A sampler or surface held in a variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateVariable {
    /// The value: for 3D_LOAD's surface the source operand the text gives
    /// (`V0060(0,0)<0;1,0>`), for the others a whole general variable ([`whole`]).
    pub operand: VectorOperand,
    /// The index IGC prints with it (`[0]`, `(V0064, 2)`), 0 when it prints none.
    pub index: u8,
}

/// The state operands of one instruction that are variables; `None` for one given as an
/// index (`S0`, `T6`) or that the instruction does not have.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct StateVariables {
    pub sampler: Option<StateVariable>,
    pub surface: Option<StateVariable>,
}

/// The sampler index whose place a sampler variable takes: `S31`, "reserved and represents
/// bindless samplers" (4_visa_header.md, "Sampler Variables").
pub const SAMPLER_PLACE: u16 = 31;
/// The surface index whose place a surface variable takes: `%bss` (T4), the bindless surface.
pub const SURFACE_PLACE: u16 = 4;

/// General variable `id` as a whole scalar operand: offset 0, region `<0;1,0>`.
pub fn whole(id: u32) -> VectorOperand {
    VectorOperand::General {
        modifier: 0,
        id,
        row_offset: 0,
        col_offset: 0,
        region: Region::new(1, 2, 1),
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    Sample,
    Load,
    Info,
}

/// The kind of a 3D_SAMPLE, 3D_LOAD or INFO line and the byte just past its exec size's `)`.
pub(super) fn locate(line: &str) -> Option<(Kind, usize)> {
    let start = if line.starts_with('(') {
        line.find(')')? + 1
    } else {
        0
    };
    let lead = line.len() - line.get(start..)?.trim_start().len();
    let rest = line.get(lead..)?;
    let end = rest.find([' ', '('])?;
    let base = rest[..end].split('.').next()?;
    let kind = if SAMPLE.is_mnemonic(base) || SAMPLE4.is_mnemonic(base) {
        Kind::Sample
    } else if LOAD.is_mnemonic(base) {
        Kind::Load
    } else if INFO.is_mnemonic(base) {
        Kind::Info
    } else {
        return None;
    };
    Some((kind, lead + end + rest[end..].find(')')? + 1))
}

/// The byte range of the next space-delimited word of `line` from `at`.
pub(super) fn word(line: &str, at: usize) -> Option<(usize, usize)> {
    let rest = line.get(at..)?;
    let from = at + (rest.len() - rest.trim_start_matches(' ').len());
    let len = line.get(from..)?.find(' ').unwrap_or(line.len() - from);
    (len > 0).then_some((from, from + len))
}

/// Reads a variable the way IGC prints a sampler or surface variable from `at`: `V0064`, or
/// `(V0064, 2) `; the variable and the end of its text. A state name (`S0`, `%bss`) is none.
fn read_named(line: &str, at: usize, names: &dyn Names) -> Option<(StateVariable, usize)> {
    let rest = line.get(at..)?;
    let mut c = Cursor::new(rest);
    let paren = c.eat("(");
    let name = c.identifier("a variable").ok()?;
    if state_of(name, names).is_some() {
        return None;
    }
    let id = names.general_id(name)?;
    let mut index = 0;
    if paren {
        c.expect(", ", "").ok()?;
        index = c.unsigned_as::<u8>("").ok()?;
        c.expect(")", "").ok()?;
    }
    let end = at + c.column();
    let next = line.as_bytes().get(end);
    if !matches!(next, None | Some(b' ')) {
        return None;
    }
    // IGC's space after `)`.
    let end = end + usize::from(paren && next.is_some());
    Some((
        StateVariable {
            operand: whole(id),
            index,
        },
        end,
    ))
}

/// Reads 3D_LOAD's surface operand as IGC prints it in this mode from `at`:
/// `V0060(0,0)<0;1,0>[0]`; the variable and the end of its text.
fn read_operand(line: &str, at: usize, names: &dyn Names) -> Option<(StateVariable, usize)> {
    let mut c = Cursor::new(line.get(at..)?);
    let operand = parse_vector(&mut c, names).ok()?;
    if !matches!(operand, VectorOperand::General { .. }) {
        return None;
    }
    c.expect("[", "").ok()?;
    let index = c.unsigned_as::<u8>("").ok()?;
    c.expect("]", "").ok()?;
    // IGC's space after `]`.
    let trailing = usize::from(c.peek() == Some(' '));
    Some((StateVariable { operand, index }, at + c.column() + trailing))
}

/// A 3D_SAMPLE, 3D_LOAD or INFO line (after an optional predicate) whose sampler or surface
/// is a variable: the line with `S31` and `%bss` in their places, and the variables; `None`
/// for any other line (which the instruction parser then reads, or reports).
pub fn split(line: &str, names: &dyn Names) -> Option<(String, StateVariables)> {
    let (kind, mut at) = locate(line)?;
    if kind != Kind::Info {
        // Aoffimmi.
        at = word(line, at)?.1;
    }
    let mut out = String::from(line);
    let mut found = StateVariables::default();
    // Replaced from the right, so that the byte ranges found stay valid.
    let mut places: alloc::vec::Vec<(usize, usize, &str)> = alloc::vec::Vec::new();
    let (sampler_place, surface_place) =
        (names.sampler(SAMPLER_PLACE), names.surface(SURFACE_PLACE));
    if kind == Kind::Sample {
        let (from, _) = word(line, at)?;
        match read_named(line, from, names) {
            Some((v, end)) => {
                found.sampler = Some(v);
                places.push((from, end, &sampler_place));
                at = end;
            }
            None => at = word(line, from)?.1,
        }
    }
    let (from, _) = word(line, at)?;
    let surface = match kind {
        Kind::Load => read_operand(line, from, names),
        _ => read_named(line, from, names),
    };
    if let Some((v, end)) = surface {
        found.surface = Some(v);
        places.push((from, end, &surface_place));
    }
    if places.is_empty() {
        return None;
    }
    for (from, end, place) in places.into_iter().rev() {
        out.replace_range(from..end, place);
    }
    Some((out, found))
}

/// The printed line `line` of a 3D_SAMPLE, 3D_LOAD or INFO with its state variables `s` put
/// back in the places of `S31` and `%bss`, as IGC prints them; `None` when `line` is no such
/// instruction, the places do not hold `S31` and `%bss`, or a variable has no name.
pub fn insert(line: &str, s: &StateVariables, names: &dyn Names) -> Option<String> {
    let (kind, mut at) = locate(line)?;
    if kind != Kind::Info {
        at = word(line, at)?.1;
    }
    let mut places: alloc::vec::Vec<(usize, usize, String)> = alloc::vec::Vec::new();
    if kind == Kind::Sample {
        let (from, end) = word(line, at)?;
        if let Some(v) = &s.sampler {
            (line.get(from..end)? == names.sampler(SAMPLER_PLACE)).then_some(())?;
            places.push((from, end, print_named(v, names)?));
        }
        at = end;
    } else if s.sampler.is_some() {
        return None;
    }
    let (from, end) = word(line, at)?;
    if let Some(v) = &s.surface {
        (line.get(from..end)? == names.surface(SURFACE_PLACE)).then_some(())?;
        let text = match kind {
            Kind::Load => print_operand(v, names)?,
            _ => print_named(v, names)?,
        };
        places.push((from, end, text));
    }
    let mut out = String::from(line);
    for (from, end, text) in places.into_iter().rev() {
        out.replace_range(from..end, &text);
    }
    Some(out)
}

/// `V0064`, or `(V0064, 2) ` (IGC's trailing space included).
fn print_named(v: &StateVariable, names: &dyn Names) -> Option<String> {
    let VectorOperand::General { id, .. } = v.operand else {
        return None;
    };
    (v.operand == whole(id)).then_some(())?;
    let name = names.general(id)?;
    Some(if v.index == 0 {
        String::from(name)
    } else {
        alloc::format!("({name}, {}) ", v.index)
    })
}

/// `V0060(0,0)<0;1,0>[0] ` (IGC's trailing space included).
fn print_operand(v: &StateVariable, names: &dyn Names) -> Option<String> {
    let mut out = String::new();
    print_vector(&mut out, &v.operand, names).ok()?;
    let _ = write!(out, "[{}] ", v.index);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::Cow;

    /// Variables `V<n>` for every n, as IGC numbers them.
    struct Numbered;

    impl Names for Numbered {
        fn general(&self, id: u32) -> Option<Cow<'_, str>> {
            Some(Cow::Owned(alloc::format!("V{id:04}")))
        }
        fn general_id(&self, name: &str) -> Option<u32> {
            name.strip_prefix('V')?.parse().ok()
        }
        fn label(&self, _: u32) -> Option<Cow<'_, str>> {
            None
        }
        fn label_id(&self, _: &str) -> Option<u32> {
            None
        }
    }

    fn round_trip(line: &str, placed: &str, s: StateVariables) {
        let (got, vars) = split(line, &Numbered).expect(line);
        assert_eq!((got.as_str(), vars), (placed, s), "{line}");
        assert_eq!(insert(placed, &s, &Numbered).as_deref(), Some(line));
    }

    #[test]
    fn intel_lines_split_and_print_back() {
        // tests/modern/fixtures/nvl-p (ocloc 26.27, IGC 2.40), lines as written.
        let named = |id, index| StateVariable {
            operand: whole(id),
            index,
        };
        round_trip(
            "sample_lz.RGBA (M1, 32)  0x0:uw V0064 V0066 V0068.0 %null.0 V0061.0 V0061.128",
            "sample_lz.RGBA (M1, 32)  0x0:uw S31 %bss V0068.0 %null.0 V0061.0 V0061.128",
            StateVariables {
                sampler: Some(named(64, 0)),
                surface: Some(named(66, 0)),
            },
        );
        round_trip(
            "resinfo.RG (M1_NM, 16)  V0071 V0073.0 V0075.0",
            "resinfo.RG (M1_NM, 16)  %bss V0073.0 V0075.0",
            StateVariables {
                sampler: None,
                surface: Some(named(71, 0)),
            },
        );
        let mut c = Cursor::new("V0060(0,0)<0;1,0>");
        let operand = parse_vector(&mut c, &Numbered).unwrap();
        round_trip(
            "load_lz.RGBA (M1, 32)  0x0:uw V0060(0,0)<0;1,0>[0]  V0061.0 %null.0 V0055.0 V0059.0",
            "load_lz.RGBA (M1, 32)  0x0:uw %bss V0061.0 %null.0 V0055.0 V0059.0",
            StateVariables {
                sampler: None,
                surface: Some(StateVariable { operand, index: 0 }),
            },
        );
        // A nonzero index: IGC's `(name, index) ` with its trailing space; a predicate.
        round_trip(
            "(P1) sample_l.R (M1, 16)  0x0:uw (V0010, 2)  V0011 V0012.0",
            "(P1) sample_l.R (M1, 16)  0x0:uw S31 %bss V0012.0",
            StateVariables {
                sampler: Some(named(10, 2)),
                surface: Some(named(11, 0)),
            },
        );
    }

    #[test]
    fn state_names_and_other_lines_are_left_alone() {
        for line in [
            "sample_l.RGBA (M5, 16)  0x0:uw S0 T6 V0095.0 V0097.0",
            "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 %null.0 V0051.0",
            "resinfo.RGBA (M1, 16)  T6 V0036.0 V0036.256",
            "add (M1, 16) V0010(0,0)<1> V0011(0,0)<1;1,0> 0x1:d",
            "sample_l.RGBA (M5, 16)",
            "",
            "(",
        ] {
            assert_eq!(split(line, &Numbered), None, "{line}");
        }
        // A sampler index with a surface variable: only the surface moves.
        let (line, s) =
            split("sample_l.RGBA (M1, 16)  0x0:uw S0 V0066 V0095.0", &Numbered).unwrap();
        assert_eq!(line, "sample_l.RGBA (M1, 16)  0x0:uw S0 %bss V0095.0");
        assert_eq!(s.sampler, None);
        // Printing refuses places that do not hold S31 and %bss.
        let s = StateVariables {
            sampler: None,
            surface: Some(StateVariable {
                operand: whole(66),
                index: 0,
            }),
        };
        assert_eq!(
            insert("resinfo.RG (M1, 16)  T6 V0073.0 V0075.0", &s, &Numbered),
            None
        );
    }
}
