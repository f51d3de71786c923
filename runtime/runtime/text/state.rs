//! State operands and the surface/sampler names of instruction fields: `T6(0)`, `S0(0)`,
//! `%slm(0)` as operands (`movs (M1_NM, 1) T6(0) 0x0:ud`, `arith_float_float_ops.visaasm`), and
//! `T6`, `%slm`, `S0` as ub fields (`gather4_scaled.R (M1, 16) T6 ...`,
//! `dword_atomic.inc (M1, 16) %slm ...` in `atomics_local_lhist.visaasm`).

use super::cursor::Cursor;
use super::error::ParseError;
use super::names::Names;
use crate::runtime::StateClass;
use alloc::string::String;
use core::fmt::Write;

/// Prints `name(offset)`.
pub fn print_state<N: Names + ?Sized>(
    out: &mut String,
    class: StateClass,
    id: u16,
    offset: u8,
    names: &N,
) {
    print_state_name(out, class, id, names);
    let _ = write!(out, "({offset})");
}

/// Prints a surface or sampler name alone (`T6`, `%slm`, `S0`).
pub fn print_state_name<N: Names + ?Sized>(
    out: &mut String,
    class: StateClass,
    id: u16,
    names: &N,
) {
    match class {
        StateClass::Surface => out.push_str(&names.surface(id)),
        StateClass::Sampler => out.push_str(&names.sampler(id)),
    }
}

/// The class and id of a surface or sampler name.
pub fn state_of<N: Names + ?Sized>(name: &str, names: &N) -> Option<(StateClass, u16)> {
    names
        .surface_id(name)
        .map(|id| (StateClass::Surface, id))
        .or_else(|| names.sampler_id(name).map(|id| (StateClass::Sampler, id)))
}

/// Parses a surface or sampler name alone.
pub fn parse_state_name<N: Names + ?Sized>(
    c: &mut Cursor<'_>,
    names: &N,
) -> Result<(StateClass, u16), ParseError> {
    let at = c.column();
    let name = c.identifier(EXPECTED)?;
    state_of(name, names).ok_or_else(|| c.error_at(at, EXPECTED))
}

/// Parses the `(offset)` after a state name.
pub fn parse_state_offset(c: &mut Cursor<'_>) -> Result<u8, ParseError> {
    c.expect("(", "`(` and the state operand's offset")?;
    let offset = c.unsigned_as::<u8>("an offset 0..=255")?;
    c.expect(")", "`)` closing the offset")?;
    Ok(offset)
}

const EXPECTED: &str = "a surface (T<n>, %slm, %bss, %scratch, TSS) or sampler (S<n>)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    #[test]
    fn names_and_offsets() {
        let mut out = String::new();
        print_state(&mut out, StateClass::Surface, 6, 0, &IntelNames);
        out.push(' ');
        print_state(&mut out, StateClass::Surface, 0, 0, &IntelNames);
        out.push(' ');
        print_state_name(&mut out, StateClass::Sampler, 0, &IntelNames);
        assert_eq!(out, "T6(0) %slm(0) S0");
        let mut c = Cursor::new("%bss(3)");
        assert_eq!(
            parse_state_name(&mut c, &IntelNames),
            Ok((StateClass::Surface, 4))
        );
        assert_eq!(parse_state_offset(&mut c), Ok(3));
        let e = parse_state_name(&mut Cursor::new("V0032"), &IntelNames).unwrap_err();
        assert_eq!((e.column, e.expected), (0, EXPECTED));
        let e = parse_state_offset(&mut Cursor::new("(256)")).unwrap_err();
        assert_eq!(e.column, 1);
    }
}
