//! LSC_TYPED: the typed messages of the `tgm` unit (images), `lsc_load_quad.tgm`,
//! `lsc_store_quad.tgm` and the typed atomics. Their address holds up to four coordinates,
//! U, V, R and LOD. Intel's two printers spell it differently:
//!
//! ```text
//! lsc_store_quad.tgm (M1, 16)  bss(V0032)[V0033, V0034, %null, %null]:a32  V0035:d32.xyzw
//! lsc_store_quad.tgm (M1, 32)  bss(V0100)[V0054,V0058]:a32  V0101:d32.xyzw
//! ```
//!
//! IGC 12504.6 (`intel-isa asm` of the first line on DG2 reprints it so) writes all four,
//! `, ` apart; IGC 2.x (`tests/modern/fixtures/bmg/images/images.visaasm`) writes them up to
//! the first `%null`, `,` apart. The parser takes both. IGC 2.x also has coordinate offsets
//! (`V0054+1`), for which the docs' LSC_TYPED layout has no field: such a line is refused
//! (`.msaa`, which it has no field for either, is text only: [`super::super::modifiers`]). The
//! block2d and surface-information forms have no text here.

use super::address::{parse_model, print_model};
use super::data::{parse_data, print_data, Mask};
use super::operand::{parse_raw, print_raw};
use super::{bad, byte, null, Kind, NULL, SEP};
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::operand_space;
use crate::runtime::text::special::fields::{Fields, Parsed, Value};
use crate::runtime::text::spellings::{spell, value_of, LSC_ADDRESS_SIZES, LSC_CACHE_CONTROLS};
use crate::runtime::text::{print_exec_size, print_predicate_prefix};
use crate::runtime::text::{Cursor, Dialect, Names};
use crate::runtime::{ExecSize, PredicateControl};
use alloc::string::String;

const COORDINATES: [&str; 4] = ["Src0AddrsU", "Src0AddrsV", "Src0AddrsR", "Src0AddrsLOD"];

/// Whether sub-operation `kind` has an LSC_TYPED form with text here.
pub(super) fn typed(kind: Kind) -> bool {
    matches!(kind, Kind::LoadQuad | Kind::StoreQuad | Kind::Atomic)
}

/// Prints an LSC_TYPED instruction (`mnemonic` of sub-operation `kind`).
pub(super) fn print(
    f: &Fields<'_>,
    mnemonic: &str,
    kind: Kind,
    names: &dyn Names,
    out: &mut String,
) -> Result<(), PrintError> {
    if !typed(kind) {
        return Err(PrintError::NoTextForm {
            instruction: "LSC_TYPED",
            why:
                "block2d, status and surface-information messages of the tgm unit have no text here",
        });
    }
    // LSC_TYPED's `Predicate(uw)` is the predicate control word, typed as a plain word.
    let pred = f.scalar("Predicate")?;
    let pred = u16::try_from(pred).map_err(|_| bad("LSC_TYPED Predicate: a word", pred))?;
    print_predicate_prefix(out, PredicateControl(pred), names)?;
    out.push_str(mnemonic);
    out.push_str(".tgm");
    let (l1, l3) = (f.scalar("CachingL1")?, f.scalar("CachingL3")?);
    if (l1, l3) != (0, 0) {
        for c in [l1, l3] {
            out.push('.');
            out.push_str(
                spell(LSC_CACHE_CONTROLS, byte(c, "LSC_TYPED caching")?)
                    .ok_or(bad("LSC_TYPED caching: df uc ca wb wt st ri cc", c))?,
            );
        }
    }
    out.push(' ');
    print_exec_size(
        out,
        ExecSize(byte(f.scalar("ExecSize")?, "LSC_TYPED ExecSize")?),
    )?;
    out.push_str(SEP);
    let shape = super::shape(f)?;
    let mask = if kind == Kind::Atomic {
        Mask::SameAsElems
    } else {
        Mask::Quad
    };
    match kind {
        Kind::StoreQuad => {
            null(f, "DstData")?;
            print_address(f, names, out)?;
            out.push_str(SEP);
            print_data(out, f.raw("Src1Data")?, shape, mask, names)?;
            null(f, "Src2Data")
        }
        Kind::LoadQuad => {
            print_data(out, f.raw("DstData")?, shape, mask, names)?;
            out.push_str(SEP);
            print_address(f, names, out)?;
            null(f, "Src1Data")?;
            null(f, "Src2Data")
        }
        _ => {
            print_data(out, f.raw("DstData")?, shape, mask, names)?;
            out.push_str(SEP);
            print_address(f, names, out)?;
            for src in ["Src1Data", "Src2Data"] {
                out.push_str(SEP);
                print_raw(out, f.raw(src)?, names)?;
            }
            Ok(())
        }
    }
}

/// `bss(V0032)[U, V, R, LOD]:a32` in the text's dialect.
fn print_address(f: &Fields<'_>, names: &dyn Names, out: &mut String) -> Result<(), PrintError> {
    print_model(out, f.scalar("AddrType")?, f.vector("Surface")?, names)?;
    out.push('[');
    let igc2 = names.dialect() == Dialect::Igc2;
    for (i, name) in COORDINATES.iter().enumerate() {
        let r = f.raw(name)?;
        if igc2 && r == NULL {
            break;
        }
        if i > 0 {
            out.push_str(if igc2 { "," } else { ", " });
        }
        print_raw(out, r, names)?;
    }
    out.push_str("]:");
    let size = f.scalar("AddrSize")?;
    out.push_str(
        u8::try_from(size)
            .ok()
            .and_then(|s| spell(LSC_ADDRESS_SIZES, s))
            .ok_or(bad("LSC_TYPED AddrSize: a16, a32, a64, a32u or a32s", size))?,
    );
    Ok(())
}

/// Parses the operands of a typed line (after its exec size) into `p`, whose sub-operation,
/// predicate and caching are set.
pub(super) fn parse_operands(
    kind: Kind,
    c: &mut Cursor<'_>,
    p: &mut Parsed,
    names: &dyn Names,
) -> Result<(), ParseError> {
    let mask = if kind == Kind::Atomic {
        Mask::SameAsElems
    } else {
        Mask::Quad
    };
    let raw = |p: &mut Parsed, name, r| p.set(name, Value::Raw(r));
    let (dst, src1, src2, shape) = match kind {
        Kind::StoreQuad => {
            parse_address(c, p, names)?;
            operand_space(c)?;
            let (src, s) = parse_data(c, mask, names)?;
            (NULL, src, NULL, s)
        }
        Kind::LoadQuad => {
            let (dst, s) = parse_data(c, mask, names)?;
            operand_space(c)?;
            parse_address(c, p, names)?;
            (dst, NULL, NULL, s)
        }
        _ => {
            let (dst, s) = parse_data(c, mask, names)?;
            operand_space(c)?;
            parse_address(c, p, names)?;
            operand_space(c)?;
            let src1 = parse_raw(c, names)?;
            operand_space(c)?;
            (dst, src1, parse_raw(c, names)?, s)
        }
    };
    p.set("DataSize", Value::Scalar(shape.size));
    p.set("DataOrder", Value::Scalar(shape.order));
    p.set("DataElemsPerAddr", Value::Scalar(shape.elems));
    p.set("ChMask", Value::Scalar(shape.ch_mask));
    raw(p, "DstData", dst);
    raw(p, "Src1Data", src1);
    raw(p, "Src2Data", src2);
    Ok(())
}

/// `model(surface)[U, V, R, LOD]:size`, one to four coordinates, `,` apart with or without a
/// space; those left out are `%null`.
fn parse_address(c: &mut Cursor<'_>, p: &mut Parsed, names: &dyn Names) -> Result<(), ParseError> {
    let (model, surface) = parse_model(c, names)?;
    c.expect("[", "`[` and the U coordinate")?;
    let mut coords = [NULL; 4];
    for (i, slot) in coords.iter_mut().enumerate() {
        if i > 0 && !c.eat(",") {
            break;
        }
        c.skip_spaces();
        *slot = parse_raw(c, names)?;
        if matches!(c.peek(), Some('+' | '-')) {
            return Err(c.error(
                "`,` or `]`: a coordinate offset (IGC 2.x's `V+1`) has no field in the docs' LSC_TYPED",
            ));
        }
    }
    c.expect("]", "`]` after at most four coordinates (U, V, R, LOD)")?;
    c.expect(":", "`:` and the address size")?;
    let at = c.column();
    let word = c.take_while(|ch| ch.is_ascii_alphanumeric());
    let size = value_of(LSC_ADDRESS_SIZES, word).ok_or_else(|| {
        crate::runtime::text::instruction::error(
            at,
            "an address size: a16, a32, a64, a32u or a32s",
            word,
        )
    })?;
    p.set("AddrType", Value::Scalar(model));
    p.set("Surface", Value::Vector(surface));
    p.set("AddrSize", Value::Scalar(u64::from(size)));
    for (name, r) in COORDINATES.iter().zip(coords) {
        p.set(name, Value::Raw(r));
    }
    Ok(())
}

/// The fields every typed line sets before its operands.
pub(super) fn head(
    p: &mut Parsed,
    op: u8,
    pred: PredicateControl,
    caching: [u8; 2],
    exec: ExecSize,
) {
    p.set("LscSubOp", Value::Scalar(op.into()));
    p.set("Predicate", Value::Scalar(pred.0.into()));
    p.set("CachingL1", Value::Scalar(caching[0].into()));
    p.set("CachingL3", Value::Scalar(caching[1].into()));
    p.set("ExecSize", Value::Scalar(exec.0.into()));
}
