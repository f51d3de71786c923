//! LSC_UNTYPED (`lsc_load`, `lsc_store`, `lsc_atomic_*`, strided, quad, block2d, status,
//! append counter): its `## Text` is a meta-grammar no template can use (note §1). IGC
//! 12504.6 prints (`LscInstFormatter`; lines of Intel's print in tests/ocl/fixtures):
//!
//! ```text
//! lsc_load.ugm.ca.ca (M1, 16)  V0059:d32  bti(0x1)[V0057]:a32
//! (P1) lsc_store.ugm (M1, 32)  flat[V0060]:a64  V0061:d32x4
//! lsc_atomic_icas.ugm (M1, 16)  %null:d32  flat[V0062]:a64  V0063  V0064
//! ```
//!
//! The mnemonic, the unit (`ugm`, `ugml`, `slm`), both cache controls unless both are `df`,
//! the exec size, then the operands two spaces apart: loads print the destination then the
//! address, stores the address then the data, atomics destination, address and both sources.
//! Operand forms: [`operand`], [`data`], [`address`]. The append-counter atomics, which
//! 12504.6 does not know, follow the doc's example (`VDATA:d32 bti(0xA0) VADDEND:d32`).
//!
//! The formatter works on the fields by their doc names ([`Fields`]); every field the text does
//! not show must hold what IGC's parser puts there (`%null` operands, the ChMask rule of
//! [`data`]), or printing fails.

pub mod address;
pub mod data;
pub mod operand;
mod typed;

use self::address::{
    parse_address, parse_block_address, parse_model, print_address, print_block_address,
    print_model, Address,
};
use self::data::{parse_block, parse_data, print_block, print_data, Block, Mask, Shape};
use self::operand::{parse_raw, print_raw};
use super::fields::{Fields, Parsed, Value};
use super::Formatter;
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::{error, operand_space, Words};
use crate::runtime::text::spellings::{
    spell, value_of, LSC_CACHE_CONTROLS, LSC_SFIDS, LSC_UNTYPED_OPS,
};
use crate::runtime::text::{parse_exec_size, print_exec_size, print_predicate_prefix};
use crate::runtime::text::{Cursor, Names};
use crate::runtime::{DataType, ExecSize, Immediate, PredicateControl, RawOperand, VectorOperand};
use alloc::string::String;
use alloc::vec::Vec;

/// What the operands of a sub-operation look like.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Load,
    Store,
    LoadQuad,
    StoreQuad,
    LoadStrided,
    StoreStrided,
    LoadBlock,
    StoreBlock,
    Atomic,
    Append,
}

/// The kind of sub-operation `op`, by its mnemonic in [`LSC_UNTYPED_OPS`] (LSC_UNTYPED.md's
/// LscSubOp table, with each spelling's source): the sub-opcode values are in that one table.
fn kind(op: u8) -> Option<Kind> {
    let name = spell(LSC_UNTYPED_OPS, op)?.strip_prefix("lsc_")?;
    Some(match name {
        "load" | "load_status" => Kind::Load,
        "load_strided" => Kind::LoadStrided,
        "load_quad" => Kind::LoadQuad,
        "load_block2d" => Kind::LoadBlock,
        "store" | "store_uncompressed" => Kind::Store,
        "store_strided" => Kind::StoreStrided,
        "store_quad" => Kind::StoreQuad,
        "store_block2d" => Kind::StoreBlock,
        _ if name.starts_with("atomic_") => Kind::Atomic,
        _ if name.starts_with("apndctr_atomic_") => Kind::Append,
        _ => return None,
    })
}

/// LSC_UNTYPED's formatter.
pub const LSC: Lsc = Lsc;

#[derive(Clone, Copy, Debug)]
pub struct Lsc;

impl Formatter for Lsc {
    fn is_mnemonic(&self, base: &str) -> bool {
        value_of(LSC_UNTYPED_OPS, base).is_some()
    }

    /// Prints the instruction whose fields are `f`.
    fn print(
        &self,
        f: Fields<'_>,
        names: &dyn Names,
        out: &mut String,
        lossy: bool,
    ) -> Result<(), PrintError> {
        let op = byte(f.scalar("LscSubOp")?, "LSC_UNTYPED LscSubOp")?;
        let (Some(mnemonic), Some(kind)) = (spell(LSC_UNTYPED_OPS, op), kind(op)) else {
            return Err(bad(
                "LSC_UNTYPED LscSubOp: a documented sub-operation",
                op.into(),
            ));
        };
        if f.instruction == "LSC_TYPED" {
            return typed::print(&f, mnemonic, kind, names, out);
        }
        print_predicate_prefix(out, f.predicate("Pred")?, names)?;
        out.push_str(mnemonic);
        out.push('.');
        let sfid = f.scalar("LscSFID")?;
        let unit = spell(LSC_SFIDS, byte(sfid, "LSC_UNTYPED LscSFID")?)
            .ok_or(bad("LSC_UNTYPED LscSFID: ugm, ugml, tgm or slm", sfid))?;
        if unit == "tgm" && typed::typed(kind) && !lossy {
            // Intel's parsers read such a line as LSC_TYPED (opcode 0x8a).
            return Err(bad(
                "LSC_UNTYPED LscSFID: the tgm unit's quad and atomic lines read as LSC_TYPED",
                sfid,
            ));
        }
        out.push_str(unit);
        let (l1, l3) = (f.scalar("CachingL1")?, f.scalar("CachingL3")?);
        if (l1, l3) != (0, 0) {
            for c in [l1, l3] {
                out.push('.');
                out.push_str(
                    spell(LSC_CACHE_CONTROLS, byte(c, "LSC_UNTYPED caching")?)
                        .ok_or(bad("LSC_UNTYPED caching: df uc ca wb wt st ri", c))?,
                );
            }
        }
        out.push(' ');
        print_exec_size(
            out,
            ExecSize(byte(f.scalar("Exec_size")?, "LSC_UNTYPED Exec_size")?),
        )?;
        out.push_str(SEP);
        print_operands(kind, &f, names, out)
    }

    /// Parses an LSC_UNTYPED line after its predicate: fields by doc name.
    fn parse(
        &self,
        pred: PredicateControl,
        mut w: Words<'_>,
        mut c: Cursor<'_>,
        names: &dyn Names,
    ) -> Result<Parsed, ParseError> {
        let op = value_of(LSC_UNTYPED_OPS, w.base).ok_or_else(|| w.error("an lsc_ mnemonic"))?;
        let kind = kind(op).ok_or_else(|| w.error("an lsc_ mnemonic"))?;
        let (unit, at) = w.take("", "`.` and an LSC unit: ugm, ugml, slm")?;
        let sfid = value_of(LSC_SFIDS, unit)
            .ok_or_else(|| error(at, "an LSC unit: ugm, ugml, tgm, slm", unit))?;
        let mut caching = [0u8; 2];
        for slot in &mut caching {
            if let Some(x) = w.peek() {
                let (_, at) = w.take("", "a cache control")?;
                *slot = value_of(LSC_CACHE_CONTROLS, x)
                    .ok_or_else(|| error(at, "a cache control: df, uc, ca, wb, wt, st, ri", x))?;
            }
        }
        w.finish()?;
        let mut p = Parsed::default();
        if spell(LSC_SFIDS, sfid) == Some("tgm") && typed::typed(kind) {
            // The tgm unit's quad and atomic messages are LSC_TYPED (GenX_IR 12504.6 assembles
            // `lsc_store_quad.tgm` to opcode 0x8a).
            operand_space(&mut c)?;
            let exec = parse_exec_size(&mut c)?;
            typed::head(&mut p, op, pred, caching, exec);
            operand_space(&mut c)?;
            typed::parse_operands(kind, &mut c, &mut p, names)?;
            c.skip_spaces();
            c.finish()?;
            return Ok(p);
        }
        p.set("LscSubOp", Value::Scalar(op.into()));
        p.set("Pred", Value::Predicate(pred));
        p.set("LscSFID", Value::Scalar(sfid.into()));
        p.set("CachingL1", Value::Scalar(caching[0].into()));
        p.set("CachingL3", Value::Scalar(caching[1].into()));
        operand_space(&mut c)?;
        let exec = parse_exec_size(&mut c)?;
        p.set("Exec_size", Value::Scalar(exec.0.into()));
        operand_space(&mut c)?;
        parse_operands(kind, &mut c, &mut p, names)?;
        c.skip_spaces();
        c.finish()?;
        Ok(p)
    }
}

/// IGC 2.x's efficient-64-bit mode (NVL, XE3P_CRI) writes three cache controls, L1, L2 and
/// L3 (`lsc_store.ugm.wb.wb.uc`), where the docs' LSC layout has CachingL1 and CachingL3 only:
/// the line without the L2 word and its value, for a line whose mnemonic has three (after an
/// optional predicate); `None` for any other line.
pub fn split_caching_l2(line: &str) -> Option<(String, u8)> {
    let start = if line.starts_with('(') {
        line.find(')')? + 1
    } else {
        0
    };
    let lead = line.len() - line[start..].trim_start().len();
    let rest = &line[lead..];
    let end = rest.find([' ', '(']).unwrap_or(rest.len());
    let words: Vec<&str> = rest[..end].split('.').collect();
    let [base, unit, l1, l2, l3] = words.as_slice() else {
        return None;
    };
    value_of(LSC_UNTYPED_OPS, base)?;
    value_of(LSC_SFIDS, unit)?;
    let code = |w: &str| value_of(LSC_CACHE_CONTROLS, w);
    let (_, l2v, _) = (code(l1)?, code(l2)?, code(l3)?);
    let mnemonic = alloc::format!("{base}.{unit}.{l1}.{l3}");
    Some((
        alloc::format!("{}{mnemonic}{}", &line[..lead], &rest[end..]),
        l2v,
    ))
}

/// The printed line `line` of an LSC message with its L2 cache control `l2` put back between
/// L1 and L3 (`.df` for a level the line left out: it prints none when L1 and L3 are both
/// default); `None` when `line` is no LSC message.
pub fn insert_caching_l2(line: &str, l2: u8) -> Option<String> {
    let l2 = spell(LSC_CACHE_CONTROLS, l2)?;
    let start = if line.starts_with('(') {
        line.find(')')? + 1
    } else {
        0
    };
    let lead = line.len() - line[start..].trim_start().len();
    let rest = &line[lead..];
    let end = rest.find([' ', '(']).unwrap_or(rest.len());
    let words: Vec<&str> = rest[..end].split('.').collect();
    let mnemonic = match words.as_slice() {
        [base, unit, l1, l3] => alloc::format!("{base}.{unit}.{l1}.{l2}.{l3}"),
        [base, unit] => alloc::format!("{base}.{unit}.df.{l2}.df"),
        _ => return None,
    };
    Some(alloc::format!(
        "{}{mnemonic}{}",
        &line[..lead],
        &rest[end..]
    ))
}

const NULL: RawOperand = RawOperand { id: 0, offset: 0 };
const SEP: &str = "  ";

fn bad(what: &'static str, value: u64) -> PrintError {
    PrintError::Unprintable { what, value }
}

fn byte(v: u64, what: &'static str) -> Result<u8, PrintError> {
    u8::try_from(v).map_err(|_| bad(what, v))
}

/// Fails unless the raw operand `name`, which the text does not show, is `%null`.
fn null(f: &Fields<'_>, name: &'static str) -> Result<(), PrintError> {
    let r = f.raw(name)?;
    if r != NULL {
        return Err(bad(
            "LSC_UNTYPED: an operand this sub-operation does not print must be %null",
            u64::from(r.id),
        ));
    }
    Ok(())
}

fn shape(f: &Fields<'_>) -> Result<Shape, PrintError> {
    Ok(Shape {
        size: f.scalar("DataSize")?,
        order: f.scalar("DataOrder")?,
        elems: f.scalar("DataElemsPerAddr")?,
        ch_mask: f.scalar("ChMask")?,
    })
}

fn address(f: &Fields<'_>, strided: bool) -> Result<Address, PrintError> {
    Ok(Address {
        model: f.scalar("AddrType")?,
        surface: f.vector("Surface")?,
        scale: f.scalar("AddrScale")?,
        offset: f.scalar("AddrImmOffset")?,
        size: f.scalar("AddrSize")?,
        base: f.raw(if strided { "Src0AddrBase" } else { "Src0Addrs" })?,
        stride: if strided {
            Some(f.vector("Src0AddrPitch")?)
        } else {
            None
        },
    })
}

const BLOCK_OPERANDS: [&str; 6] = [
    "SurfaceBaseAddr",
    "SurfaceWidth",
    "SurfaceHeight",
    "SurfacePitch",
    "Src0AddrX",
    "Src0AddrY",
];

fn block(f: &Fields<'_>) -> Result<(Block, [VectorOperand; 6]), PrintError> {
    let b = Block {
        size: f.scalar("DataSize")?,
        order: f.scalar("DataOrder")?,
        blocks: f.scalar("Blocks")?,
        width: f.scalar("BlockWidth")?,
        height: f.scalar("BlockHeight")?,
        vnni: f.scalar("VNNI")?,
    };
    let mut ops = [address::NO_SURFACE; 6];
    for (op, name) in ops.iter_mut().zip(BLOCK_OPERANDS) {
        *op = f.vector(name)?;
    }
    Ok((b, ops))
}

/// The operands of sub-operation `kind`, two spaces apart; those the text does not show must
/// be `%null`.
fn print_operands(
    kind: Kind,
    f: &Fields<'_>,
    names: &dyn Names,
    out: &mut String,
) -> Result<(), PrintError> {
    match kind {
        Kind::Load | Kind::LoadQuad | Kind::LoadStrided => {
            let strided = kind == Kind::LoadStrided;
            print_data(out, f.raw("DstData")?, shape(f)?, mask_of(kind), names)?;
            out.push_str(SEP);
            print_address(out, address(f, strided)?, names)?;
            null(f, "Src1Data")?;
            if !strided {
                null(f, "Src2Data")?;
            }
        }
        Kind::Store | Kind::StoreQuad | Kind::StoreStrided => {
            let strided = kind == Kind::StoreStrided;
            null(f, "DstData")?;
            print_address(out, address(f, strided)?, names)?;
            out.push_str(SEP);
            print_data(out, f.raw("Src1Data")?, shape(f)?, mask_of(kind), names)?;
            if !strided {
                null(f, "Src2Data")?;
            }
        }
        Kind::Atomic => {
            print_data(out, f.raw("DstData")?, shape(f)?, Mask::SameAsElems, names)?;
            out.push_str(SEP);
            print_address(out, address(f, false)?, names)?;
            for src in ["Src1Data", "Src2Data"] {
                out.push_str(SEP);
                print_raw(out, f.raw(src)?, names)?;
            }
        }
        Kind::LoadBlock => {
            let (b, ops) = block(f)?;
            print_block(out, f.raw("DstData")?, b, names)?;
            out.push_str(SEP);
            print_block_address(out, &ops, names)?;
            null(f, "Src1Data")?;
        }
        Kind::StoreBlock => {
            let (b, ops) = block(f)?;
            null(f, "DstData")?;
            print_block_address(out, &ops, names)?;
            out.push_str(SEP);
            print_block(out, f.raw("Src1Data")?, b, names)?;
        }
        Kind::Append => {
            let s = shape(f)?;
            print_data(out, f.raw("DstData")?, s, Mask::SameAsElems, names)?;
            out.push_str(SEP);
            print_model(out, f.scalar("AddrType")?, f.vector("Surface")?, names)?;
            out.push_str(SEP);
            print_data(out, f.raw("Src0Data")?, s, Mask::SameAsElems, names)?;
        }
    }
    Ok(())
}

fn mask_of(kind: Kind) -> Mask {
    match kind {
        Kind::LoadQuad | Kind::StoreQuad => Mask::Quad,
        Kind::LoadStrided | Kind::StoreStrided => Mask::Zero,
        _ => Mask::SameAsElems,
    }
}

/// Bytes of one datum of `size` (`d8c32` and friends occupy 32 bits), for the default stride.
fn size_bytes(size: u64) -> u64 {
    match size {
        1 => 1,
        2 => 2,
        4 => 8,
        _ => 4,
    }
}

/// The vector length of DataElemsPerAddr's encoding.
fn elems_count(e: u64) -> u64 {
    match e {
        0..=4 => e.max(1),
        5..=8 => 1 << (e - 2),
        _ => 1,
    }
}

fn set_shape(p: &mut Parsed, s: Shape) {
    p.set("DataSize", Value::Scalar(s.size));
    p.set("DataOrder", Value::Scalar(s.order));
    p.set("DataElemsPerAddr", Value::Scalar(s.elems));
    p.set("ChMask", Value::Scalar(s.ch_mask));
}

fn set_address(p: &mut Parsed, a: Address) {
    p.set("AddrType", Value::Scalar(a.model));
    p.set("Surface", Value::Vector(a.surface));
    p.set("AddrScale", Value::Scalar(a.scale));
    p.set("AddrImmOffset", Value::Scalar(a.offset));
    p.set("AddrSize", Value::Scalar(a.size));
    match a.stride {
        Some(s) => {
            p.set("Src0AddrBase", Value::Raw(a.base));
            p.set("Src0AddrPitch", Value::Vector(s));
        }
        None => p.set("Src0Addrs", Value::Raw(a.base)),
    }
}

fn set_block(p: &mut Parsed, b: Block, ops: [VectorOperand; 6]) {
    p.set("DataSize", Value::Scalar(b.size));
    p.set("DataOrder", Value::Scalar(b.order));
    p.set("Blocks", Value::Scalar(b.blocks));
    p.set("BlockWidth", Value::Scalar(b.width));
    p.set("BlockHeight", Value::Scalar(b.height));
    p.set("VNNI", Value::Scalar(b.vnni));
    for (op, name) in ops.into_iter().zip(BLOCK_OPERANDS) {
        p.set(name, Value::Vector(op));
    }
}

/// Gives a strided address without stride its default: the datum's size times the vector
/// length (the doc: "defaults to the data width times the vector size"; GenX_IR reprints a
/// `d32` `flat[VS]` as `flat[VS, 0x4]`).
fn default_stride(a: &mut Address, s: Shape) {
    if a.stride.is_none() {
        a.stride = Some(VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: size_bytes(s.size) * elems_count(s.elems),
        }));
    }
}

/// Reads the operands of sub-operation `kind` into `p` (those the text does not show are
/// `%null`). Long: one arm per kind of sub-operation, each its operands in text order.
fn parse_operands(
    kind: Kind,
    c: &mut Cursor<'_>,
    p: &mut Parsed,
    names: &dyn Names,
) -> Result<(), ParseError> {
    let raw = |p: &mut Parsed, name, r| p.set(name, Value::Raw(r));
    match kind {
        Kind::Load | Kind::LoadQuad | Kind::LoadStrided => {
            let (dst, s) = parse_data(c, mask_of(kind), names)?;
            operand_space(c)?;
            let mut a = parse_address(c, kind == Kind::LoadStrided, names)?;
            if kind == Kind::LoadStrided {
                default_stride(&mut a, s);
            }
            set_shape(p, s);
            set_address(p, a);
            raw(p, "DstData", dst);
            raw(p, "Src1Data", NULL);
            if kind != Kind::LoadStrided {
                raw(p, "Src2Data", NULL);
            }
        }
        Kind::Store | Kind::StoreQuad | Kind::StoreStrided => {
            let mut a = parse_address(c, kind == Kind::StoreStrided, names)?;
            operand_space(c)?;
            let (src, s) = parse_data(c, mask_of(kind), names)?;
            if kind == Kind::StoreStrided {
                default_stride(&mut a, s);
            }
            set_shape(p, s);
            set_address(p, a);
            raw(p, "DstData", NULL);
            raw(p, "Src1Data", src);
            if kind != Kind::StoreStrided {
                raw(p, "Src2Data", NULL);
            }
        }
        Kind::Atomic => {
            let (dst, s) = parse_data(c, Mask::SameAsElems, names)?;
            operand_space(c)?;
            let a = parse_address(c, false, names)?;
            operand_space(c)?;
            let src1 = parse_raw(c, names)?;
            operand_space(c)?;
            let src2 = parse_raw(c, names)?;
            set_shape(p, s);
            set_address(p, a);
            raw(p, "DstData", dst);
            raw(p, "Src1Data", src1);
            raw(p, "Src2Data", src2);
        }
        Kind::LoadBlock => {
            let (dst, b) = parse_block(c, names)?;
            operand_space(c)?;
            let ops = parse_block_address(c, names)?;
            set_block(p, b, ops);
            raw(p, "DstData", dst);
            raw(p, "Src1Data", NULL);
        }
        Kind::StoreBlock => {
            let ops = parse_block_address(c, names)?;
            operand_space(c)?;
            let (src, b) = parse_block(c, names)?;
            set_block(p, b, ops);
            raw(p, "DstData", NULL);
            raw(p, "Src1Data", src);
        }
        Kind::Append => {
            let (dst, s) = parse_data(c, Mask::SameAsElems, names)?;
            operand_space(c)?;
            let (model, surface) = parse_model(c, names)?;
            operand_space(c)?;
            let at = c.column();
            let (src, s0) = parse_data(c, Mask::SameAsElems, names)?;
            if s0 != s {
                return Err(c.error_at(at, "the destination's data shape"));
            }
            set_shape(p, s);
            p.set("AddrType", Value::Scalar(model));
            p.set("Surface", Value::Vector(surface));
            raw(p, "DstData", dst);
            raw(p, "Src0Data", src);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
