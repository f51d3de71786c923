//! The data operand of an LSC message: `V0059:d32`, `VA:d32x4`, `V0055:d32t` (transposed),
//! `VA:d32.xzw` (quad channels), `VA:d16.2x16x8nt` (block2d: blocks (when not 1), width and
//! height, then `n`/`t` for transposed and VNNI). All but the quad and block2d forms occur in
//! Intel's print of our kernels (tests/ocl/fixtures); those two were checked with GenX_IR
//! 12504.6, which reprints `d8.1x32x16nt` as `d8.32x16nt`.
//!
//! `DataElemsPerAddr` and `ChMask` share one byte in IGC (a union): GenX_IR assembles `d32x4`
//! with both 4, `d32.xzw` with both 0x0d, and a strided `d32x4` with ChMask 0. The printer
//! refuses other ChMask values, which the text cannot carry.

use super::operand::{parse_raw, print_raw};
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::error;
use crate::runtime::text::spellings::{
    spell, value_of, Spelling, LSC_BLOCK2D_ORDERS, LSC_BLOCK2D_VNNI, LSC_DATA_ORDERS,
    LSC_DATA_SIZES, LSC_DATA_SIZE_ALIASES, LSC_DATA_SIZE_DOC_SPELLINGS, LSC_QUAD_CHANNELS,
    LSC_VECTOR_SIZES,
};
use crate::runtime::text::{Cursor, Dialect, Names};
use crate::runtime::RawOperand;
use alloc::string::String;
use core::fmt::Write;

/// The shape of a gather/scatter datum.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub size: u64,
    pub order: u64,
    pub elems: u64,
    pub ch_mask: u64,
}

/// How ChMask relates to the shape: quad channels, a copy of the vector size, or zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mask {
    Quad,
    SameAsElems,
    Zero,
}

/// The shape of a block2d datum.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub size: u64,
    pub order: u64,
    pub blocks: u64,
    pub width: u64,
    pub height: u64,
    pub vnni: u64,
}

fn bad(what: &'static str, value: u64) -> PrintError {
    PrintError::Unprintable { what, value }
}

fn spelled(table: &[Spelling], v: u64, what: &'static str) -> Result<&'static str, PrintError> {
    u8::try_from(v)
        .ok()
        .and_then(|b| spell(table, b))
        .ok_or(bad(what, v))
}

fn print_size(out: &mut String, size: u64, names: &dyn Names) -> Result<(), PrintError> {
    // IGC 2.x spells the widened sizes as the docs do (`d8u32`), 12504.6 `d8c32`.
    let doc = names.dialect() == Dialect::Igc2;
    let spelling = if doc {
        u8::try_from(size)
            .ok()
            .and_then(|b| spell(LSC_DATA_SIZE_DOC_SPELLINGS, b))
    } else {
        None
    };
    out.push_str(match spelling {
        Some(s) => s,
        None => spelled(
            LSC_DATA_SIZES,
            size,
            "LSC_UNTYPED DataSize: d8..d64, d8c32, d16c32, d16c32h",
        )?,
    });
    Ok(())
}

/// Prints `V:d32x4t` or, for quad channels, `V:d32.xzw`.
pub fn print_data(
    out: &mut String,
    raw: RawOperand,
    s: Shape,
    mask: Mask,
    names: &dyn Names,
) -> Result<(), PrintError> {
    print_raw(out, raw, names)?;
    out.push(':');
    print_size(out, s.size, names)?;
    if mask == Mask::Quad {
        if s.order != 1 || s.elems != s.ch_mask || !(1..=15).contains(&s.ch_mask) {
            return Err(bad(
                "LSC_UNTYPED quad ChMask: 1..=15, DataElemsPerAddr equal to it, DataOrder 1",
                s.ch_mask,
            ));
        }
        out.push('.');
        for c in LSC_QUAD_CHANNELS {
            if s.ch_mask & u64::from(c.value) != 0 {
                out.push_str(c.text);
            }
        }
        return Ok(());
    }
    let expected_mask = if mask == Mask::Zero { 0 } else { s.elems };
    if s.ch_mask != expected_mask {
        return Err(bad(
            "LSC_UNTYPED ChMask: IGC stores the vector size there (0 for strided); the text cannot carry another value",
            s.ch_mask,
        ));
    }
    out.push_str(spelled(
        LSC_VECTOR_SIZES,
        s.elems,
        "LSC_UNTYPED DataElemsPerAddr: 1..=8",
    )?);
    out.push_str(spelled(
        LSC_DATA_ORDERS,
        s.order,
        "LSC_UNTYPED DataOrder: 1 or 2 (transposed)",
    )?);
    Ok(())
}

/// Prints `V:d16.2x16x8nt`.
pub fn print_block(
    out: &mut String,
    raw: RawOperand,
    b: Block,
    names: &dyn Names,
) -> Result<(), PrintError> {
    print_raw(out, raw, names)?;
    out.push(':');
    print_size(out, b.size, names)?;
    out.push('.');
    let fits = |v: u64, max: u16| (1..=u64::from(max)).contains(&v);
    if !fits(b.blocks, 0xff) || !fits(b.width, u16::MAX) || !fits(b.height, u16::MAX) {
        return Err(bad(
            "LSC_UNTYPED block2d: Blocks 1..=255, BlockWidth and BlockHeight 1..=65535",
            b.blocks,
        ));
    }
    if b.blocks != 1 {
        let _ = write!(out, "{}x", b.blocks);
    }
    let _ = write!(out, "{}x{}", b.width, b.height);
    out.push_str(spelled(
        LSC_BLOCK2D_ORDERS,
        b.order,
        "LSC_UNTYPED block2d DataOrder: 1 or 2",
    )?);
    out.push_str(spelled(
        LSC_BLOCK2D_VNNI,
        b.vnni,
        "LSC_UNTYPED block2d VNNI: 0 or 1",
    )?);
    Ok(())
}

const SIZE: &str = "a data size: d8, d16, d32, d64, d8c32, d16c32, d16c32h (or u8..u64)";

/// The data size at the start of `word`, and the rest of the word.
fn size_prefix(word: &str) -> Option<(u64, &str)> {
    let mut best: Option<(u64, &str)> = None;
    for table in [
        LSC_DATA_SIZES,
        LSC_DATA_SIZE_ALIASES,
        LSC_DATA_SIZE_DOC_SPELLINGS,
    ] {
        for e in table {
            if let Some(rest) = word.strip_prefix(e.text) {
                if best.is_none_or(|(_, r)| rest.len() < r.len()) {
                    best = Some((u64::from(e.value), rest));
                }
            }
        }
    }
    best
}

fn word<'a>(c: &mut Cursor<'a>) -> (&'a str, usize) {
    let at = c.column();
    (c.take_while(|ch| ch.is_ascii_alphanumeric()), at)
}

/// Parses `V:d32x4t` or (`quad`) `V:d32.xzw`; the ChMask follows `mask`.
pub fn parse_data(
    c: &mut Cursor<'_>,
    mask: Mask,
    names: &dyn Names,
) -> Result<(RawOperand, Shape), ParseError> {
    let raw = parse_raw(c, names)?;
    c.expect(":", "`:` and the data shape")?;
    let (w, at) = word(c);
    let (size, rest) = size_prefix(w).ok_or_else(|| error(at, SIZE, w))?;
    if mask == Mask::Quad {
        if !rest.is_empty() {
            return Err(error(at, "a data size, then `.` and channels xyzw", w));
        }
        c.expect(".", "`.` and the channels (x, y, z, w in this order)")?;
        let (letters, at) = word(c);
        let mut m = 0u64;
        let mut rest = letters;
        for ch in LSC_QUAD_CHANNELS {
            if let Some(r) = rest.strip_prefix(ch.text) {
                m |= u64::from(ch.value);
                rest = r;
            }
        }
        if m == 0 || !rest.is_empty() {
            return Err(error(at, "channels x, y, z, w (in this order)", letters));
        }
        let s = Shape {
            size,
            order: 1,
            elems: m,
            ch_mask: m,
        };
        return Ok((raw, s));
    }
    let (order, rest) = match rest.strip_suffix('t') {
        Some(r) => (2, r),
        None => (1, rest),
    };
    let elems = if rest.is_empty() {
        1
    } else {
        let v = value_of(LSC_VECTOR_SIZES, rest).or((rest == "x1").then_some(1));
        u64::from(v.ok_or_else(|| {
            error(at, "a data size, a vector size x2, x3, x4, x8, x16, x32 or x64, then `t` if transposed", w)
        })?)
    };
    let ch_mask = if mask == Mask::Zero { 0 } else { elems };
    Ok((
        raw,
        Shape {
            size,
            order,
            elems,
            ch_mask,
        },
    ))
}

/// Parses `V:d16.2x16x8nt` (blocks may be left out: 1).
pub fn parse_block(
    c: &mut Cursor<'_>,
    names: &dyn Names,
) -> Result<(RawOperand, Block), ParseError> {
    let raw = parse_raw(c, names)?;
    c.expect(":", "`:` and the block shape")?;
    let (w, at) = word(c);
    let (size, rest) = size_prefix(w).ok_or_else(|| error(at, SIZE, w))?;
    if !rest.is_empty() {
        return Err(error(at, SIZE, w));
    }
    c.expect(".", "`.` and the block shape (`2x16x8nn`)")?;
    let (w, at) = word(c);
    const SHAPE: &str = "[blocks x] width x height, then n or t (transposed), n or t (VNNI)";
    let split = w.len().checked_sub(2).filter(|&n| w.is_char_boundary(n));
    let (dims, letters) = split.map_or(("", ""), |n| w.split_at(n));
    let order = value_of(LSC_BLOCK2D_ORDERS, &letters[..letters.len().min(1)]);
    let vnni = value_of(LSC_BLOCK2D_VNNI, letters.get(1..).unwrap_or(""));
    let mut n = [0u64; 3];
    let mut count = 0;
    for part in dims.split('x') {
        let v = part
            .parse::<u64>()
            .ok()
            .filter(|_| count < 3 && !part.starts_with('+'));
        n[count.min(2)] = v.ok_or_else(|| error(at, SHAPE, w))?;
        count += 1;
    }
    let (blocks, width, height) = match count {
        2 => (1, n[0], n[1]),
        3 => (n[0], n[1], n[2]),
        _ => return Err(error(at, SHAPE, w)),
    };
    // The fields' widths: Blocks a byte, BlockWidth and BlockHeight 16 bits.
    if blocks > 0xff || width > 0xffff || height > 0xffff {
        return Err(error(at, SHAPE, w));
    }
    let (Some(order), Some(vnni)) = (order, vnni) else {
        return Err(error(at, SHAPE, w));
    };
    Ok((
        raw,
        Block {
            size,
            order: u64::from(order),
            blocks,
            width,
            height,
            vnni: u64::from(vnni),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::NameTable;

    fn names() -> NameTable {
        let mut n = NameTable::new();
        n.declare_general(59, "V0059");
        n
    }

    fn shape(size: u64, order: u64, elems: u64, ch_mask: u64) -> Shape {
        Shape {
            size,
            order,
            elems,
            ch_mask,
        }
    }

    #[test]
    fn intel_shapes() {
        // Fixtures (Intel's print): `V0059:d32`, `:d32x4`, `:d32t`, `:d32x2t`, `:d8c32`,
        // `:d16c32`; GenX_IR reprints `:d16c32h`, `:d64x3t`, `:d32.xzw`.
        let n = names();
        let raw = RawOperand { id: 59, offset: 0 };
        for (text, s, mask) in [
            ("V0059:d32", shape(3, 1, 1, 1), Mask::SameAsElems),
            ("V0059:d32x4", shape(3, 1, 4, 4), Mask::SameAsElems),
            ("V0059:d32t", shape(3, 2, 1, 1), Mask::SameAsElems),
            ("V0059:d32x2t", shape(3, 2, 2, 2), Mask::SameAsElems),
            ("V0059:d8c32", shape(5, 1, 1, 1), Mask::SameAsElems),
            ("V0059:d16c32", shape(6, 1, 1, 1), Mask::SameAsElems),
            ("V0059:d16c32h", shape(7, 1, 1, 1), Mask::SameAsElems),
            ("V0059:d64x3t", shape(4, 2, 3, 3), Mask::SameAsElems),
            ("V0059:d32x4", shape(3, 1, 4, 0), Mask::Zero),
            ("V0059:d32.xzw", shape(3, 1, 0xd, 0xd), Mask::Quad),
        ] {
            let mut s2 = String::new();
            print_data(&mut s2, raw, s, mask, &n).unwrap();
            assert_eq!(s2, text);
            let mut c = Cursor::new(text);
            assert_eq!(parse_data(&mut c, mask, &n), Ok((raw, s)), "{text}");
            assert!(c.at_end());
        }
        // IGC's parser takes `u32` and `x1` (note §4.1; the doc's `..x1`).
        let mut c = Cursor::new("V0059:u32x1");
        assert_eq!(
            parse_data(&mut c, Mask::SameAsElems, &n),
            Ok((raw, shape(3, 1, 1, 1)))
        );
        // The doc's `d8u32` (12504.6 prints `d8c32`).
        let mut c = Cursor::new("V0059:d8u32");
        assert_eq!(
            parse_data(&mut c, Mask::SameAsElems, &n),
            Ok((raw, shape(5, 1, 1, 1)))
        );
        // A ChMask the text cannot carry.
        assert!(print_data(
            &mut String::new(),
            raw,
            shape(3, 1, 4, 1),
            Mask::SameAsElems,
            &n
        )
        .is_err());
    }

    #[test]
    fn intel_blocks() {
        // GenX_IR 12504.6 reprints `VA:d16.2x16x8nn`, `d8.1x32x16nt` as `d8.32x16nt`, `d32.8x8tn`.
        let n = names();
        let raw = RawOperand { id: 59, offset: 0 };
        let b = |size, order, blocks, width, height, vnni| Block {
            size,
            order,
            blocks,
            width,
            height,
            vnni,
        };
        for (text, blk) in [
            ("V0059:d16.2x16x8nn", b(2, 1, 2, 16, 8, 0)),
            ("V0059:d8.32x16nt", b(1, 1, 1, 32, 16, 1)),
            ("V0059:d32.8x8tn", b(3, 2, 1, 8, 8, 0)),
        ] {
            let mut s = String::new();
            print_block(&mut s, raw, blk, &n).unwrap();
            assert_eq!(s, text);
            let mut c = Cursor::new(text);
            assert_eq!(parse_block(&mut c, &n), Ok((raw, blk)));
        }
        let mut c = Cursor::new("V0059:d8.1x32x16nt");
        assert_eq!(parse_block(&mut c, &n), Ok((raw, b(1, 1, 1, 32, 16, 1))));
        for bad in [
            "V0059:d8.32x16",
            "V0059:d8.x16nn",
            "V0059:d8.1x2x3x4nn",
            "V0059:d8.32x16ab",
        ] {
            assert!(parse_block(&mut Cursor::new(bad), &n).is_err(), "{bad}");
        }
    }
}
