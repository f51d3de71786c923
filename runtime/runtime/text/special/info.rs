//! INFO's text, as GenX_IR prints it: `resinfo.RGBA (M1, 16)  T6 VUD.0 VUD.256` and
//! `sampleinfo.RGBA (M1, 16)  T6 VUD.256`: the channel mask as a suffix and two spaces after the
//! exec size (notes/visa-text-syntax.md, INFO row). INFO has two formats (erratum
//! INFO-op-byte-channels-sampleinfo-no-lod: sampleinfo has no LOD), which a template of the
//! generator cannot print, so this formatter takes the fields of either format.

use super::fields::{Fields, Parsed, Value};
use super::Formatter;
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::{channels_text, channels_value, operand_space, Words};
use crate::runtime::text::{
    parse_exec_size, parse_raw, parse_state_name, print_exec_size, print_raw, print_state_name,
    Cursor, Names,
};
use crate::runtime::{ExecSize, PredicateControl, StateClass};
use alloc::string::String;

/// Op values and their mnemonics (INFO.md: 0b00001010 resinfo, 0b00001011 sampleinfo).
const OPS: &[(&str, u64)] = &[("resinfo", 0x0a), ("sampleinfo", 0x0b)];
const RESINFO: u64 = 0x0a;
/// GenX_IR's separator after the exec size.
const SEP: &str = "  ";

/// INFO's formatter.
pub const INFO: Info = Info;

#[derive(Clone, Copy, Debug)]
pub struct Info;

impl Formatter for Info {
    fn is_mnemonic(&self, base: &str) -> bool {
        OPS.iter().any(|(m, _)| *m == base)
    }

    /// Prints the fields of either format.
    fn print(
        &self,
        f: Fields<'_>,
        names: &dyn Names,
        out: &mut String,
        _lossy: bool,
    ) -> Result<(), PrintError> {
        let op = f.scalar("Op")?;
        let mnemonic = OPS
            .iter()
            .find(|(_, v)| *v == op)
            .map(|(m, _)| *m)
            .ok_or_else(|| unprintable("INFO Op: resinfo (0x0a) or sampleinfo (0x0b)", op))?;
        let channels = f.scalar("Channels")?;
        let suffix = channels_text(channels)
            .ok_or_else(|| unprintable("INFO Channels: a channel mask 0x1-0xf", channels))?;
        out.push_str(mnemonic);
        out.push('.');
        out.push_str(suffix);
        out.push(' ');
        let exec = f.scalar("Exec_size")?;
        let exec = u8::try_from(exec).map_err(|_| unprintable("INFO Exec_size", exec))?;
        print_exec_size(out, ExecSize(exec))?;
        out.push_str(SEP);
        let surface = f.scalar("Surface")?;
        let surface = u16::try_from(surface).map_err(|_| unprintable("INFO Surface", surface))?;
        print_state_name(out, StateClass::Surface, surface, names);
        if op == RESINFO {
            out.push(' ');
            print_raw(out, f.raw("LOD")?, names)?;
        }
        out.push(' ');
        print_raw(out, f.raw("Dst")?, names)
    }

    /// Parses `resinfo.<channels> (<exec>) <surface> <lod> <dst>` or `sampleinfo.<channels> (<exec>)
    /// <surface> <dst>`.
    fn parse(
        &self,
        pred: PredicateControl,
        mut w: Words<'_>,
        mut c: Cursor<'_>,
        names: &dyn Names,
    ) -> Result<Parsed, ParseError> {
        let op = OPS
            .iter()
            .find(|(m, _)| *m == w.base)
            .map(|(_, v)| *v)
            .ok_or_else(|| w.error("resinfo or sampleinfo"))?;
        if pred != PredicateControl::NONE {
            return Err(w.error("no predicate: INFO takes none"));
        }
        let (suffix, at) = w.take(
            "",
            "`.` and a channel mask: R, G, B, A or a combination (RGBA)",
        )?;
        let channels = channels_value(suffix).ok_or_else(|| {
            crate::runtime::text::instruction::error(
                at,
                "a channel mask: R, G, B, A or a combination (RGBA)",
                suffix,
            )
        })?;
        w.finish()?;
        let mut p = Parsed::default();
        p.set("Op", Value::Scalar(op));
        p.set("Channels", Value::Scalar(channels));
        operand_space(&mut c)?;
        p.set(
            "Exec_size",
            Value::Scalar(parse_exec_size(&mut c)?.0.into()),
        );
        operand_space(&mut c)?;
        let at = c.column();
        let (class, id) = parse_state_name(&mut c, names)?;
        if class != StateClass::Surface {
            return Err(c.error_at(at, "a surface"));
        }
        p.set("Surface", Value::Scalar(id.into()));
        if op == RESINFO {
            operand_space(&mut c)?;
            p.set("LOD", Value::Raw(parse_raw(&mut c, names)?));
        }
        operand_space(&mut c)?;
        p.set("Dst", Value::Raw(parse_raw(&mut c, names)?));
        c.skip_spaces();
        c.finish()?;
        Ok(p)
    }
}

fn unprintable(what: &'static str, value: u64) -> PrintError {
    PrintError::Unprintable { what, value }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;
    use crate::runtime::RawOperand;

    #[test]
    fn intel_lines_print_and_parse() {
        // GenX_IR 12504.6 (SKL/INFO.visaasm of tests/intel/fixtures/asm): Op 0x0a, Exec_size
        // 0x04, Channels 0x0f, Surface 6, LOD V36.0, Dst V36.256; sampleinfo without LOD.
        let raw = |offset| RawOperand { id: 36, offset };
        let res = [
            ("Op", Value::Scalar(0x0a)),
            ("Exec_size", Value::Scalar(0x04)),
            ("Channels", Value::Scalar(0x0f)),
            ("Surface", Value::Scalar(6)),
            ("LOD", Value::Raw(raw(0))),
            ("Dst", Value::Raw(raw(256))),
        ];
        let sample = [
            ("Op", Value::Scalar(0x0b)),
            ("Exec_size", Value::Scalar(0x04)),
            ("Channels", Value::Scalar(0x0f)),
            ("Surface", Value::Scalar(6)),
            ("Dst", Value::Raw(raw(256))),
        ];
        for (fields, text) in [
            (&res[..], "resinfo.RGBA (M1, 16)  T6 V0036.0 V0036.256"),
            (&sample[..], "sampleinfo.RGBA (M1, 16)  T6 V0036.256"),
        ] {
            let mut out = String::new();
            INFO.print(Fields::new("INFO", fields), &IntelNames, &mut out, false)
                .unwrap();
            assert_eq!(out, text);
            let mut c = Cursor::new(text);
            let w = Words::read(&mut c);
            let p = INFO
                .parse(PredicateControl::NONE, w, c, &IntelNames)
                .unwrap();
            for (name, v) in fields {
                assert_eq!(
                    p.0.iter().find(|(n, _)| n == name).map(|x| &x.1),
                    Some(v),
                    "{name}"
                );
            }
        }
        let mut c = Cursor::new("resinfo.RGBX (M1, 16)  T6 V0036.0 V0036.256");
        let w = Words::read(&mut c);
        assert!(INFO
            .parse(PredicateControl::NONE, w, c, &IntelNames)
            .is_err());
    }
}
