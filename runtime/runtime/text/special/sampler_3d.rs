//! 3D_LOAD, 3D_SAMPLE and 3D_SAMPLE4 (`printInstructionSampler`, note §1): the operation's
//! name, its flags, the channels, the exec size, then the operands, with as many parameters as
//! the instruction counts (`NumParams`), which no template can say:
//!
//! ```text
//! load_lz.RGBA (M1, 16)  0x0:uw T6 V0054.0 V0052.0 V0056.0 V0057.0      image_rw_img_array.visaasm:137
//! sample_l.RGBA (M1, 16)  0x0:uw S0 T6 V0094.0 V0096.0 V0083.0 V0083.64  images_img_sample.visaasm:202
//! sample4_c.pixel_null_mask.G (M1, 16) 0x0:uw S0 T6 VF.0 VF.256 VF.384  GenX_IR 12504.6's reprint
//! ```
//!
//! Fields by doc name: Op, Exec_size, Pred, the channels (`Channels`, a mask printed as
//! letters; 3D_SAMPLE4's `Src_channel`, one channel printed as its letter), Aoffimmi, Sampler
//! (3D_SAMPLE and 3D_SAMPLE4), Surface, Dst, and the parameters under their count's name,
//! NumParams. Op bits 7..0 name the operation, bit 8 prints `.pixel_null_mask`, and for
//! 3D_SAMPLE bit 9 `.cps` and bit 10 `.divS`, in this order (what GenX_IR 12504.6 reads and
//! prints back: `sample_3d.pixel_null_mask.cps.RGBA`; it reads `.divS` but does not print it,
//! so we print it to keep the bit). IGC prints two spaces after the exec size of 3D_LOAD and
//! 3D_SAMPLE, one after 3D_SAMPLE4's.

use super::fields::{Fields, Parsed, Value};
use super::Formatter;
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::{channels_text, channels_value, error, Words};
use crate::runtime::text::{
    is_saturated, parse_exec_size, parse_raw, parse_state_name, parse_vector, print_exec_size,
    print_predicate_prefix, print_raw, print_state_name, print_vector, Cursor, Dialect, Names,
};
use crate::runtime::{ExecSize, PredicateControl, RawOperand, StateClass};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// The operations of 3D_LOAD and 3D_SAMPLE by the value of Op bits 7..0, as IGC 12504.6
/// names them (`getSampleOp3DName`). Checked with GenX_IR 12504.6, which reads each of these
/// lines and prints it back unchanged: `load_3d`, `load_lz`, `load_mcs`, `load_2dms_w`,
/// `sample_3d`, `sample_b`, `sample_l`, `sample_c`, `sample_d`, `sample_b_c`, `sample_l_c`,
/// `sample_d_c`, `sample_lz`, `sample_c_lz`. `lod` and the `sample_po*` operations are the
/// doc's names (12504.6's parser takes neither: it predates them or spells them otherwise).
pub const OPERATIONS: [(u8, &str); 21] = [
    (0x00, "sample_3d"),
    (0x01, "sample_b"),
    (0x02, "sample_l"),
    (0x03, "sample_c"),
    (0x04, "sample_d"),
    (0x05, "sample_b_c"),
    (0x06, "sample_l_c"),
    (0x07, "load_3d"),
    (0x09, "lod"),
    (0x14, "sample_d_c"),
    (0x18, "sample_lz"),
    (0x19, "sample_c_lz"),
    (0x1a, "load_lz"),
    (0x1c, "load_2dms_w"),
    (0x1d, "load_mcs"),
    (0x20, "sample_po"),
    (0x21, "sample_po_b"),
    (0x22, "sample_po_l"),
    (0x23, "sample_po_c"),
    (0x24, "sample_po_d"),
    (0x26, "sample_po_l_c"),
];

/// The operations of 3D_SAMPLE4 by the value of Op bits 7..0, as IGC names them
/// (`getSampleOp3DName`, intel-graphics-compiler v2.40.13 `visa/Common_ISA.cpp`: the doc's
/// `gather4` operations are IGC's `sample4`). GenX_IR 12504.6 reads and prints `sample4`,
/// `sample4_c`, `sample4_po` and `sample4_po_c` (tests/intel/fixtures/asm/*/3D_SAMPLE4.visaasm)
/// and rejects the others, which only IGC 2.x's lexer (`visa/CISA.l`) takes. The values are
/// the doc's with erratum 3D_SAMPLE4-op-bias-and-instruction-values (0x0e `sample4_b`, 0x0f
/// `sample4_i`); `family/tests/igc_forms.rs` checks each against the generated enum.
pub const GATHER4_OPERATIONS: [(u8, &str); 13] = [
    (0x08, "sample4"),
    (0x0d, "sample4_l"),
    (0x0e, "sample4_b"),
    (0x0f, "sample4_i"),
    (0x10, "sample4_c"),
    (0x11, "sample4_po"),
    (0x12, "sample4_po_c"),
    (0x15, "sample4_i_c"),
    (0x2d, "sample4_po_l"),
    (0x2e, "sample4_po_b"),
    (0x2f, "sample4_po_i"),
    (0x35, "sample4_po_i_c"),
    (0x37, "sample4_po_l_c"),
];

/// Source channels of 3D_SAMPLE4 by the value of Src_channel (the doc's values, IGC's letters).
const ONE_CHANNEL: [&str; 4] = ["R", "G", "B", "A"];

/// Flag bits of Op, in print order.
const FLAGS: [(&str, u64); 3] = [
    ("pixel_null_mask", 1 << 8),
    ("cps", 1 << 9),
    ("divS", 1 << 10),
];

/// The layout of one instruction, and its formatter: 3D_SAMPLE has a sampler and the
/// `.cps`/`.divS` flags; 3D_SAMPLE4 a sampler, one source channel and its own operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    pub sampler: bool,
    /// Op bits that may be set (operation and flags).
    pub op_mask: u64,
    pub name: &'static str,
    /// The operations' names by Op bits 7..0 (those of this instruction: `load_` ones for a
    /// load, the others for a sampler).
    pub operations: &'static [(u8, &'static str)],
    /// The doc name of the channel field; `Src_channel` is one channel, `Channels` a mask.
    pub channels: &'static str,
    /// What IGC prints between the exec size and Aoffimmi.
    pub gap: &'static str,
}

/// 3D_LOAD's formatter.
pub const LOAD: Kind = Kind {
    sampler: false,
    op_mask: 0x1ff,
    name: "3D_LOAD",
    operations: &OPERATIONS,
    channels: "Channels",
    gap: "  ",
};
/// 3D_SAMPLE's formatter.
pub const SAMPLE: Kind = Kind {
    sampler: true,
    op_mask: 0x7ff,
    name: "3D_SAMPLE",
    operations: &OPERATIONS,
    channels: "Channels",
    gap: "  ",
};
/// 3D_SAMPLE4's formatter.
pub const SAMPLE4: Kind = Kind {
    sampler: true,
    op_mask: 0x1ff,
    name: "3D_SAMPLE4",
    operations: &GATHER4_OPERATIONS,
    channels: "Src_channel",
    gap: " ",
};

impl Kind {
    /// The value of Op bits 7..0 named `base`, among this instruction's operations.
    fn operation(&self, base: &str) -> Option<u64> {
        self.operations
            .iter()
            .find(|(_, n)| *n == base && n.starts_with("load_") != self.sampler)
            .map(|(v, _)| u64::from(*v))
    }

    /// Whether the channel field is one channel (3D_SAMPLE4's `Src_channel`).
    fn one_channel(&self) -> bool {
        self.channels == "Src_channel"
    }

    /// The channels' text: a letter for one channel, else the mask's letters.
    fn channels_text(&self, v: u64) -> Option<&'static str> {
        if self.one_channel() {
            ONE_CHANNEL.get(usize::try_from(v).ok()?).copied()
        } else {
            channels_text(v)
        }
    }

    /// The channel field's value of `letters`.
    fn channels_value(&self, letters: &str) -> Option<u64> {
        if self.one_channel() {
            (0u64..)
                .zip(ONE_CHANNEL)
                .find(|(_, l)| *l == letters)
                .map(|(v, _)| v)
        } else {
            channels_value(letters)
        }
    }

    /// What the channel letters are, in an error.
    fn channels_expected(&self) -> &'static str {
        if self.one_channel() {
            "one source channel (`R`, `G`, `B` or `A`)"
        } else {
            "channel letters (`R`, `RG`, `RGBA`, ...)"
        }
    }
}

impl Formatter for Kind {
    fn is_mnemonic(&self, base: &str) -> bool {
        self.operation(base).is_some()
    }

    /// Prints the instruction whose fields are `f`.
    fn print(
        &self,
        f: Fields<'_>,
        names: &dyn Names,
        out: &mut String,
        _lossy: bool,
    ) -> Result<(), PrintError> {
        let (op, exec, pred) = (
            f.scalar("Op")?,
            f.scalar("Exec_size")?,
            f.predicate("Pred")?,
        );
        let (channels, aoffimmi) = (f.scalar(self.channels)?, f.vector("Aoffimmi")?);
        let sampler = if self.sampler {
            Some(f.scalar("Sampler")?)
        } else {
            None
        };
        let (surface, dst, params) = (f.scalar("Surface")?, f.raw("Dst")?, f.raws("NumParams")?);
        if is_saturated(&aoffimmi) {
            return Err(PrintError::Unprintable {
                what: "3D sampler Aoffimmi: saturation, which only a destination prints",
                value: 4,
            });
        }
        if op & !self.op_mask != 0 {
            return Err(PrintError::Unprintable {
                what: "3D sampler Op: bits the text does not print",
                value: op,
            });
        }
        print_predicate_prefix(out, pred, names)?;
        self.print_mnemonic(out, op, channels)?;
        out.push(' ');
        let e = u8::try_from(exec).map_err(|_| PrintError::Unprintable {
            what: "3D sampler Exec_size",
            value: exec,
        })?;
        print_exec_size(out, ExecSize(e))?;
        out.push_str(self.gap);
        print_vector(out, &aoffimmi, names)?;
        let state =
            |v: u64, what| u16::try_from(v).map_err(|_| PrintError::Unprintable { what, value: v });
        if let Some(s) = sampler {
            out.push(' ');
            print_state_name(
                out,
                StateClass::Sampler,
                state(s, "3D sampler Sampler")?,
                names,
            );
        }
        out.push(' ');
        print_state_name(
            out,
            StateClass::Surface,
            state(surface, "3D sampler Surface")?,
            names,
        );
        out.push(' ');
        print_raw(out, dst, names)?;
        if names.dialect() == Dialect::Igc2 {
            // IGC 2.x's paired resource, which the docs' layout has no field for: `%null.0`.
            out.push_str(" %null.0");
        }
        for r in params {
            out.push(' ');
            print_raw(out, *r, names)?;
        }
        Ok(())
    }

    /// Parses the line after its predicate into fields by doc name.
    fn parse(
        &self,
        pred: PredicateControl,
        mut w: Words<'_>,
        mut c: Cursor<'_>,
        names: &dyn Names,
    ) -> Result<Parsed, ParseError> {
        let Some(mut op) = self.operation(w.base) else {
            return Err(w.error(match (self.sampler, self.one_channel()) {
                (_, true) => "a gather4 operation (`sample4`, `sample4_c`, ...)",
                (true, false) => "a sampler operation (`sample_3d`, `sample_l`, ...)",
                (false, _) => "a load operation (`load_3d`, `load_lz`, ...)",
            }));
        };
        for (flag, bit) in FLAGS {
            if bit & self.op_mask != 0 && w.eat(flag) {
                op |= bit;
            }
        }
        let (letters, at) = w.take("", self.channels_expected())?;
        let channels = self
            .channels_value(letters)
            .ok_or_else(|| error(at, self.channels_expected(), letters))?;
        w.finish()?;
        c.expect(" ", "a space and the exec size")?;
        c.skip_spaces();
        let exec = u64::from(parse_exec_size(&mut c)?.0);
        space(&mut c)?;
        let aoffimmi = parse_vector(&mut c, names)?;
        let mut out = Parsed(alloc::vec![
            ("Op", Value::Scalar(op)),
            ("Exec_size", Value::Scalar(exec)),
            ("Pred", Value::Predicate(pred)),
            (self.channels, Value::Scalar(channels)),
            ("Aoffimmi", Value::Vector(aoffimmi)),
        ]);
        let state = |c: &mut Cursor<'_>, want: StateClass, expected| {
            space(c)?;
            let at = c.column();
            match parse_state_name(c, names)? {
                (class, id) if class == want => Ok(Value::Scalar(u64::from(id))),
                _ => Err(c.error_at(at, expected)),
            }
        };
        if self.sampler {
            out.set(
                "Sampler",
                state(&mut c, StateClass::Sampler, "a sampler (`S0`)")?,
            );
        }
        out.set(
            "Surface",
            state(&mut c, StateClass::Surface, "a surface (`T6`)")?,
        );
        space(&mut c)?;
        out.set("Dst", Value::Raw(parse_raw(&mut c, names)?));
        if names.dialect() == Dialect::Igc2 {
            // IGC 2.x prints a paired resource after the destination; the docs' layouts of
            // the 3D sampler messages have no field for it: the instruction's line holds
            // `%null.0` (another is text only, `special::paired_resource`).
            space(&mut c)?;
            let at = c.column();
            if parse_raw(&mut c, names)? != (RawOperand { id: 0, offset: 0 }) {
                return Err(c.error_at(
                    at,
                    "`%null.0` (IGC 2.x's paired resource: %null takes offset 0; another operand is kept beside the instruction by `visa::asm`, which no layout has a field for)",
                ));
            }
        }
        let mut params = Vec::new();
        loop {
            c.skip_spaces();
            if c.at_end() {
                break;
            }
            params.push(parse_raw(&mut c, names)?);
            if !c.at_end() && c.peek() != Some(' ') {
                return Err(c.error("a space and the next parameter"));
            }
        }
        out.set("NumParams", Value::Raws(Cow::Owned(params)));
        Ok(out)
    }
}

impl Kind {
    /// Prints the mnemonic of `op` with its flags and the `channels` suffix:
    /// `sample_3d.cps.RGBA`.
    fn print_mnemonic(&self, out: &mut String, op: u64, channels: u64) -> Result<(), PrintError> {
        let name = self
            .operations
            .iter()
            .find(|(v, _)| u64::from(*v) == op & 0xff)
            .map(|(_, n)| *n)
            .ok_or(PrintError::Unprintable {
                what: "3D sampler Op: an operation with a name",
                value: op,
            })?;
        out.push_str(name);
        for (flag, bit) in FLAGS {
            if op & bit != 0 {
                out.push('.');
                out.push_str(flag);
            }
        }
        out.push('.');
        out.push_str(
            self.channels_text(channels)
                .ok_or(PrintError::Unprintable {
                    what: if self.one_channel() {
                        "3D sampler Src_channel: one of R, G, B, A (0 to 3)"
                    } else {
                        "3D sampler Channels: at least one of R, G, B, A and no other bit"
                    },
                    value: channels,
                })?,
        );
        Ok(())
    }
}

fn space(c: &mut Cursor<'_>) -> Result<(), ParseError> {
    if c.skip_spaces() == 0 {
        return Err(c.error("a space and the next operand"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;
    use crate::runtime::{DataType, Immediate, VectorOperand};

    fn raw(id: u32, offset: u16) -> RawOperand {
        RawOperand { id, offset }
    }

    const ZERO: VectorOperand = VectorOperand::Immediate(Immediate {
        ty: DataType::Uw,
        value: 0,
    });

    /// The fields of a line: Op, Exec_size, Channels, Sampler (when given), Surface, Dst and
    /// the parameters; no predicate, Aoffimmi `0x0:uw`.
    fn fields<'a>(
        [op, exec, channels]: [u64; 3],
        sampler: Option<u64>,
        surface: u64,
        dst: RawOperand,
        params: &'a [RawOperand],
    ) -> Vec<(&'static str, Value<'a>)> {
        let mut f = alloc::vec![
            ("Op", Value::Scalar(op)),
            ("Exec_size", Value::Scalar(exec)),
            ("Pred", Value::Predicate(PredicateControl::NONE)),
            ("Channels", Value::Scalar(channels)),
            ("Aoffimmi", Value::Vector(ZERO)),
        ];
        if let Some(s) = sampler {
            f.push(("Sampler", Value::Scalar(s)));
        }
        f.push(("Surface", Value::Scalar(surface)));
        f.push(("Dst", Value::Raw(dst)));
        f.push(("NumParams", Value::Raws(Cow::Borrowed(params))));
        f
    }

    use crate::runtime::text::names::Igc2Names as Igc2;

    #[test]
    fn igc2_prints_a_paired_resource_after_the_destination() {
        // tests/modern/fixtures/mtl/images/images.visaasm (IGC 2.40): the u coordinate is
        // V0051, after IGC 2.x's paired resource `%null.0`.
        let text = "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 %null.0 V0051.0";
        let mut c = Cursor::new(text);
        let w = Words::read(&mut c);
        let p = LOAD.parse(PredicateControl::NONE, w, c, &Igc2).unwrap();
        assert_eq!(p.raws("NumParams").map(<[RawOperand]>::len), Some(1));
        assert_eq!(p.raw("Dst"), Some(raw(55, 0)));
        let mut s = String::new();
        LOAD.print(Fields::new("3D_LOAD", &p.0), &Igc2, &mut s, false)
            .unwrap();
        assert_eq!(s, text);
        // Another paired resource has no field to go to.
        let bad = "load_lz.RGBA (M1, 16)  0x0:uw %bss V0055.0 V0060.0 V0051.0";
        let mut c = Cursor::new(bad);
        let w = Words::read(&mut c);
        let e = LOAD.parse(PredicateControl::NONE, w, c, &Igc2).unwrap_err();
        assert!(e.expected.contains("paired resource"), "{e}");
    }

    fn print_line(k: Kind, f: &[(&'static str, Value<'_>)]) -> Result<String, PrintError> {
        let mut s = String::new();
        k.print(Fields::new(k.name, f), &IntelNames, &mut s, false)?;
        Ok(s)
    }

    fn round_trip(k: Kind, f: &[(&'static str, Value<'_>)], text: &str) {
        assert_eq!(print_line(k, f).as_deref(), Ok(text));
        let mut c = Cursor::new(text);
        let pred = crate::runtime::text::parse_predicate_prefix(&mut c, &IntelNames).unwrap();
        let w = Words::read(&mut c);
        assert!(k.is_mnemonic(w.base), "{text}");
        let back = k.parse(pred, w, c, &IntelNames).unwrap();
        assert_eq!(back.0, f, "{text}");
    }

    #[test]
    fn intel_load_and_sample_lines() {
        // image_rw_img_array.visaasm line 137 (bytes at 0x983 of the .isa: Op 0x1a,
        // Exec_size 0x04, Channels 0x0f, Surface 6, NumParams 3).
        let params = [raw(52, 0), raw(56, 0), raw(57, 0)];
        round_trip(
            LOAD,
            &fields([0x1a, 0x04, 0x0f], None, 6, raw(54, 0), &params),
            "load_lz.RGBA (M1, 16)  0x0:uw T6 V0054.0 V0052.0 V0056.0 V0057.0",
        );
        // images_img_sample.visaasm line 206: exec mask M5, a parameter at offset 64.
        let params = [raw(97, 0), raw(84, 0), raw(84, 64)];
        round_trip(
            SAMPLE,
            &fields([0x02, 0x44, 0x0f], Some(0), 6, raw(95, 0), &params),
            "sample_l.RGBA (M5, 16)  0x0:uw S0 T6 V0095.0 V0097.0 V0084.0 V0084.64",
        );
        // GenX_IR 12504.6 prints back `sample_3d.pixel_null_mask.cps.RGBA`; we add `.divS`.
        round_trip(
            SAMPLE,
            &fields([0x700, 0x04, 0x0a], Some(0), 6, raw(95, 0), &[]),
            "sample_3d.pixel_null_mask.cps.divS.GA (M1, 16)  0x0:uw S0 T6 V0095.0",
        );
        assert!(!LOAD.is_mnemonic("sample_l") && !SAMPLE.is_mnemonic("load_lz"));
    }

    #[test]
    fn refused_values_and_errors() {
        let load = |op, channels| fields([op, 0x04, channels], None, 6, raw(54, 0), &[]);
        assert!(
            print_line(LOAD, &load(0x200, 0x0f)).is_err(),
            "no .cps on a load"
        );
        assert!(
            print_line(LOAD, &load(0x08, 0x0f)).is_err(),
            "0x08 has no name"
        );
        assert!(print_line(LOAD, &load(0x07, 0)).is_err(), "no channel");
        assert_eq!(
            print_line(SAMPLE, &load(0x07, 0x0f)),
            Err(PrintError::NoTextForm {
                instruction: "3D_SAMPLE",
                why: "a field the formatter needs is not in this format",
            }),
            "no sampler field"
        );
        for (k, text, column) in [
            (LOAD, "sample_l.RGBA (M1, 16)  0x0:uw T6 V0054.0", 0),
            (SAMPLE, "sample_l.RGBA (M1, 16)  0x0:uw T6 V0054.0", 31),
            (LOAD, "load_lz.RGBA (M1, 16)  0x0:uw T6", 32),
            (
                LOAD,
                "load_lz.RGBA (M1, 16)  0x0:uw T6 V0054.0 V0055.0x",
                47,
            ),
            (LOAD, "load_lz.cps.RGBA (M1, 16)  0x0:uw T6 V0054.0", 8),
        ] {
            let mut c = Cursor::new(text);
            let w = Words::read(&mut c);
            let e = k
                .parse(PredicateControl::NONE, w, c, &IntelNames)
                .unwrap_err();
            assert_eq!(e.column, column, "{text}: {e}");
        }
    }
}
