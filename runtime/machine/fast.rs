//! The fast path of the common ALU instructions: each is compiled once, when its kernel loads,
//! into a [`Fast`] (operand places resolved to GRF byte offsets, element types and regions
//! read, immediates converted), and run with lane loops typed per operand class: integers of
//! up to 32 bits as `i64`, F as `f64`, whole operands at a time.
//!
//! The generated lane functions stay the reference: a `Fast` computes exactly what the
//! instruction's lane function computes through [`crate::runtime::Value`] (integers exact
//! until written, F widened to `f64` and rounded once at the write, denormals flushed as
//! `%cr0` says), and `family/tests/fast_path.rs` checks the two against each other on random
//! operands. What a `Fast` does not cover is never compiled (the instruction runs its lane
//! function): other opcodes, indirect, predicate and special operands (`%cr0`, `%ce0`),
//! saturation, mixed integer and float sources, 64-bit and half types, regions that reach
//! past their variable. A `Fast` also hands an instruction back ([`Fast::run`] gives `None`)
//! when `%cr0` rounds other than to nearest and the result is a float.
//!
//! Integer lanes compute in `i64`: sources of at most 32 bits sign- or zero-extend into it
//! exactly, the results that keep only their low bits (sums, products, bitwise operations,
//! left shifts) have the low 64 bits of the exact result, and the ones that depend on the
//! high bits (right shifts, comparisons, conversion to a float) are exact.

use super::convert::FloatMode;
use super::layout::{self, Layout};
use super::thread::{lanes, stride, Fault, Regs};
use crate::generated::Instruction;
use crate::runtime::value::Rounding;
use crate::runtime::{
    DataType, ExecSize, OperandVisitor, PredicateCombine, PredicateControl, RawOperand,
    VectorOperand,
};
use alloc::boxed::Box;
use alloc::string::String;

/// An element type of the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    B,
    Ub,
    W,
    Uw,
    D,
    Ud,
    F,
}

impl Ty {
    fn of(t: DataType) -> Option<Ty> {
        Some(match t {
            DataType::B => Ty::B,
            DataType::Ub => Ty::Ub,
            DataType::W => Ty::W,
            DataType::Uw => Ty::Uw,
            DataType::D => Ty::D,
            DataType::Ud => Ty::Ud,
            DataType::F => Ty::F,
            _ => return None,
        })
    }

    fn size(self) -> u32 {
        match self {
            Ty::B | Ty::Ub => 1,
            Ty::W | Ty::Uw => 2,
            Ty::D | Ty::Ud | Ty::F => 4,
        }
    }

    /// An integer element's bits, sign- or zero-extended as the type says.
    #[inline(always)]
    fn extend(self, bits: u32) -> i64 {
        match self {
            Ty::B => i64::from(bits as u8 as i8),
            Ty::Ub => i64::from(bits as u8),
            Ty::W => i64::from(bits as u16 as i16),
            Ty::Uw => i64::from(bits as u16),
            Ty::D => i64::from(bits as i32),
            Ty::Ud | Ty::F => i64::from(bits),
        }
    }
}

/// The operations the fast path runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Mov,
    Sel,
    Add,
    Mul,
    Mad,
    And,
    Or,
    Xor,
    Not,
    Shl,
    /// SHR and ASR: both `src0 >> src1`, arithmetic or logical by src0's promoted type.
    Shr,
    /// CMP into a predicate, with its relational operator (0 EQ, 1 NE, 2 GT, 3 GE, 4 LT, 5 LE).
    Cmp(u8),
    /// MIN_MAX: the maximum when set, else the minimum (a NaN source gives the other).
    MinMax(bool),
    /// ADDC and SUBB: the exact sum or difference, and its carry or borrow into a second
    /// destination.
    Addc,
    Subb,
}

impl Op {
    fn of(name: &str, rel_op: Option<u64>, min_max: Option<u64>) -> Option<(Op, usize)> {
        Some(match name {
            "MOV" => (Op::Mov, 1),
            "SEL" => (Op::Sel, 2),
            "ADD" => (Op::Add, 2),
            "MUL" => (Op::Mul, 2),
            "MAD" => (Op::Mad, 3),
            "AND" => (Op::And, 2),
            "OR" => (Op::Or, 2),
            "XOR" => (Op::Xor, 2),
            "NOT" => (Op::Not, 1),
            "SHL" => (Op::Shl, 2),
            "SHR" | "ASR" => (Op::Shr, 2),
            "CMP" => match rel_op? & 7 {
                r @ 0..=5 => (Op::Cmp(r as u8), 2),
                _ => return None,
            },
            // MIN_MAX.md: `Op` Bit[0] 0b0 min, 0b1 max.
            "MIN_MAX" => (Op::MinMax(min_max? & 1 == 1), 2),
            "ADDC" => (Op::Addc, 2),
            "SUBB" => (Op::Subb, 2),
            _ => return None,
        })
    }

    /// Whether the operation takes float sources (the bitwise ones and shifts do not here).
    fn takes_floats(self) -> bool {
        matches!(
            self,
            Op::Mov | Op::Sel | Op::Add | Op::Mul | Op::Mad | Op::Cmp(_) | Op::MinMax(_)
        )
    }
}

/// Where the lanes of a register operand lie: the GRF byte of each lane.
#[derive(Clone, Debug)]
enum Place {
    /// Every lane reads one element.
    Scalar(u32),
    /// Lane `i` at `at + i * size`.
    Contiguous(u32),
    /// Lane `i` at `table[i]`.
    Table(Box<[u32; 32]>),
}

impl Place {
    #[inline(always)]
    fn at(&self, lane: usize, size: u32) -> u32 {
        match self {
            Place::Scalar(at) => *at,
            Place::Contiguous(at) => at + lane as u32 * size,
            Place::Table(t) => t[lane & 31],
        }
    }
}

/// A source operand compiled.
#[derive(Clone, Debug)]
enum Src {
    /// A general operand: its type, source modifier (0 none, 1 abs, 2 negate, 3 negated abs,
    /// 5 bitwise not) and place.
    Reg {
        ty: Ty,
        modifier: u8,
        place: Place,
    },
    /// An immediate integer (its type's value) or F.
    Int(i64, Ty),
    Float(f64),
    /// A predicate variable's word, inverted or not (AND, OR, XOR and NOT of predicates).
    Pred(usize, bool),
}

impl Src {
    fn ty(&self) -> Ty {
        match self {
            Src::Reg { ty, .. } | Src::Int(_, ty) => *ty,
            Src::Float(_) => Ty::F,
            Src::Pred(..) => Ty::Ud,
        }
    }
}

/// The destination compiled.
#[derive(Clone, Debug)]
enum Dst {
    Reg {
        ty: Ty,
        place: Place,
    },
    /// A predicate variable's word (CMP).
    Pred(usize),
}

/// An instruction compiled for the fast path.
#[derive(Clone, Debug)]
pub struct Fast {
    op: Op,
    /// The channels: `EvaluateChEn`'s inputs, read once.
    channels: Channels,
    /// Lanes.
    n: u32,
    /// The sources are F (else integers, or predicates with a predicate destination).
    float: bool,
    /// Integers whose result keeps only its low 32 bits (sums, products, bitwise operations,
    /// left shifts, moves into integer types): computed in `i32`.
    narrow: bool,
    dst: Dst,
    /// ADDC's `Carry`, SUBB's `Borrow`.
    dst2: Option<Dst>,
    src: [Src; 3],
}

/// The fields of an instruction the fast path reads, by doc name.
#[derive(Default)]
struct Fields {
    exec: Option<u8>,
    pred: Option<PredicateControl>,
    rel_op: Option<u64>,
    /// MIN_MAX's `Op`.
    min_max: Option<u64>,
    dst: Option<VectorOperand>,
    /// ADDC's `Carry`, SUBB's `Borrow`.
    dst2: Option<VectorOperand>,
    src: [Option<VectorOperand>; 3],
    /// A field the fast path does not know (a raw operand, another vector operand).
    other: bool,
}

impl OperandVisitor for Fields {
    fn exec_size(&mut self, raw: u8) {
        self.exec = Some(raw);
    }
    fn predicate(&mut self, _: &'static str, p: PredicateControl) {
        self.pred = Some(p);
    }
    fn vector(&mut self, field: &'static str, op: &VectorOperand) {
        match field {
            "Dst" => self.dst = Some(*op),
            "Carry" | "Borrow" => self.dst2 = Some(*op),
            "Src0" => self.src[0] = Some(*op),
            "Src1" => self.src[1] = Some(*op),
            "Src2" => self.src[2] = Some(*op),
            _ => self.other = true,
        }
    }
    fn raw(&mut self, _: &'static str, _: &RawOperand) {
        self.other = true;
    }
    fn index(&mut self, _: &'static str, _: u32) {
        self.other = true;
    }
    fn value(&mut self, field: &'static str, bits: u64) {
        match field {
            "Rel_op" => self.rel_op = Some(bits),
            "Op" => self.min_max = Some(bits),
            _ => self.other = true,
        }
    }
}

/// `inst` compiled for the fast path against its routine's layout, or `None` when its lane
/// function must run it.
pub fn compile(inst: &Instruction, layout: &Layout) -> Option<Box<Fast>> {
    let mut f = Fields::default();
    inst.visit_operands(&mut f);
    let (op, sources) = Op::of(inst.name(), f.rel_op, f.min_max)?;
    if f.other || f.src.iter().skip(sources).any(Option::is_some) {
        return None;
    }
    let exec = ExecSize(f.exec?);
    let n = exec.elements()?;
    if n > 32 {
        return None;
    }
    let none = Src::Int(0, Ty::D);
    let mut src = [none.clone(), none.clone(), none];
    if let (Some(VectorOperand::Predicate(_)), Op::And | Op::Or | Op::Xor | Op::Not) = (f.dst, op) {
        for (s, op) in src.iter_mut().zip(&f.src).take(sources) {
            *s = match (*op)? {
                VectorOperand::Predicate(p) => Src::Pred(predicate(p.id(), layout)?, p.inverse()),
                _ => return None,
            };
        }
    } else {
        for (s, op) in src.iter_mut().zip(&f.src).take(sources) {
            *s = source(&(*op)?, layout, n)?;
        }
    }
    let float = src[0].ty() == Ty::F;
    if src[..sources].iter().any(|s| (s.ty() == Ty::F) != float) || float && !op.takes_floats() {
        return None;
    }
    let dst = match (op, f.dst?) {
        (Op::Cmp(_) | Op::And | Op::Or | Op::Xor | Op::Not, VectorOperand::Predicate(p)) => {
            Dst::Pred(predicate(p.id(), layout)?)
        }
        (Op::Cmp(_), _) => return None,
        (_, d) => destination(&d, layout, n)?,
    };
    let dst2 = match (op, f.dst2) {
        (Op::Addc | Op::Subb, Some(d)) => Some(destination(&d, layout, n)?),
        (Op::Addc | Op::Subb, None) => return None,
        (_, d) => {
            if d.is_some() {
                return None;
            }
            None
        }
    };
    // An integer result converted to F rounds from its exact value, which `i64` may not hold
    // for products and left shifts (UD * UD).
    if !float
        && matches!(dst, Dst::Reg { ty: Ty::F, .. })
        && matches!(op, Op::Mul | Op::Mad | Op::Shl)
    {
        return None;
    }
    let narrow = !float && narrow(op, &dst, &src);
    Some(Box::new(Fast {
        op,
        channels: Channels::new(exec, f.pred, layout)?,
        n,
        float,
        narrow,
        dst,
        dst2,
        src,
    }))
}

/// Whether integer lanes compute in `i32`: an operation whose result keeps only its low 32
/// bits (sums, products, bitwise operations, left shifts, moves) into an integer type, or a
/// right shift or comparison of sources an `i32` holds exactly (no abs or negation, which take
/// -2^31 out of its range; a UD is compared and shifted as `u32`).
fn narrow(op: Op, dst: &Dst, src: &[Src; 3]) -> bool {
    let int_dst = matches!(dst, Dst::Reg { ty, .. } if *ty != Ty::F);
    let negated = |s: &Src| {
        matches!(
            s,
            Src::Reg {
                modifier: 1..=3,
                ..
            }
        )
    };
    match op {
        Op::Mov
        | Op::Sel
        | Op::Add
        | Op::Mul
        | Op::Mad
        | Op::And
        | Op::Or
        | Op::Xor
        | Op::Not
        | Op::Shl => {
            // The absolute value of a UD element is itself, which its `i32` bits do not say.
            int_dst
                && !src.iter().any(|s| {
                    matches!(
                        s,
                        Src::Reg {
                            ty: Ty::Ud,
                            modifier: 1 | 3,
                            ..
                        }
                    )
                })
        }
        Op::Shr | Op::MinMax(_) => int_dst && !src.iter().any(negated),
        Op::Cmp(_) => !src.iter().any(negated),
        // The carry and the borrow depend on the exact result.
        Op::Addc | Op::Subb => false,
    }
}

/// An instruction's exec size, mask control and predicate, checked once: `EvaluateChEn` of
/// the operands chapter without its errors (an undeclared predicate or a reserved combine is
/// not compiled, and the lane function reports it).
#[derive(Clone, Copy, Debug)]
struct Channels {
    /// The low `n` bits.
    ones: u32,
    /// First channel of the mask control (`M1` 0, `M2` 4, ... `M8` 28).
    offset: u32,
    /// `NoMask`: every channel.
    no_mask: bool,
    /// The predicate: its variable, combine (`Any`, `All` or lane by lane) and inversion.
    pred: Option<(usize, PredicateCombine, bool)>,
}

/// The channel masks of one instruction, lane `i` at bit `i`.
struct Chen {
    /// `ChEn`.
    chen: u32,
    /// `EM` under the mask control, before the predicate.
    em: u32,
    /// The predicate after any/all and inversion (all ones without one).
    pmask: u32,
    offset: u32,
}

impl Channels {
    fn new(exec: ExecSize, pred: Option<PredicateControl>, layout: &Layout) -> Option<Channels> {
        let mask = exec.mask_bits();
        let pred = match pred.filter(|p| p.id() != 0) {
            None => None,
            Some(p) if p.combine() == PredicateCombine::Reserved => return None,
            Some(p) => Some((predicate(p.id(), layout)?, p.combine(), p.inverse())),
        };
        Some(Channels {
            ones: lanes(exec.elements()?),
            offset: u32::from(mask & 7) * 4,
            no_mask: mask >= 8,
            pred,
        })
    }

    /// [`super::thread::evaluate_chen`] of these channels, given the execution mask and the
    /// predicate variables.
    #[inline(always)]
    fn of(&self, em: u32, preds: &[u32]) -> Chen {
        let (ones, offset) = (self.ones, self.offset);
        let chen = if self.no_mask {
            ones
        } else {
            (em >> offset) & ones
        };
        let mut c = Chen {
            chen,
            em: chen,
            pmask: ones,
            offset,
        };
        if let Some((id, combine, inverse)) = self.pred {
            let bits = preds.get(id).copied().unwrap_or(0);
            let mut m = (bits >> offset) & ones;
            match combine {
                PredicateCombine::Any => m = if m != 0 { ones } else { 0 },
                PredicateCombine::All => m = if m == ones { ones } else { 0 },
                _ => {}
            }
            if inverse {
                m = !m & ones;
            }
            c.chen &= m;
            c.pmask = m;
        }
        c
    }
}

/// A declared predicate variable's index (P0, "no predicate", is none).
fn predicate(id: u16, layout: &Layout) -> Option<usize> {
    let id = usize::from(id);
    (id != 0 && id < layout.predicates.len()).then_some(id)
}

/// A general operand's variable, type and first byte, when the fast path may take it.
fn general(id: u32, row: u8, col: u8, layout: &Layout) -> Option<(Ty, u32, u32)> {
    if id == layout::CR0 || id == layout::CE0 {
        return None;
    }
    let v = layout.vars.get(id as usize)?;
    let ty = Ty::of(v.ty)?;
    let origin = v.base + u32::from(row) * layout.grf + u32::from(col) * ty.size();
    let end = (v.base + v.size).min(layout.bytes);
    Some((ty, origin, end))
}

/// The place of `n` lanes of type `ty` at `lane(i)`, when every lane lies before `end`.
fn place(n: u32, size: u32, end: u32, lane: impl Fn(u32) -> u32) -> Option<Place> {
    let mut table = [0u32; 32];
    for (i, t) in table.iter_mut().enumerate().take(n as usize) {
        *t = lane(i as u32);
        if *t + size > end {
            return None;
        }
    }
    let first = table[0];
    if (0..n as usize).all(|i| table[i] == first) {
        Some(Place::Scalar(first))
    } else if (0..n as usize).all(|i| table[i] == first + i as u32 * size) {
        Some(Place::Contiguous(first))
    } else {
        Some(Place::Table(Box::new(table)))
    }
}

fn source(op: &VectorOperand, layout: &Layout, n: u32) -> Option<Src> {
    match *op {
        VectorOperand::General {
            modifier,
            id,
            row_offset,
            col_offset,
            region,
        } => {
            let (ty, origin, end) = general(id, row_offset, col_offset, layout)?;
            let ok = match ty {
                Ty::F => matches!(modifier, 0..=3),
                _ => matches!(modifier, 0..=3 | 5),
            };
            let we = region.width();
            if !ok || !(2..=7).contains(&we) {
                return None;
            }
            let shift = u32::from(we - 2);
            let vs = stride(region.vertical_stride(), "").ok()? * ty.size();
            let hs = stride(region.horizontal_stride(), "").ok()? * ty.size();
            let place = place(n, ty.size(), end, |i| {
                origin + (i >> shift) * vs + (i & ((1 << shift) - 1)) * hs
            })?;
            Some(Src::Reg {
                ty,
                modifier,
                place,
            })
        }
        VectorOperand::Immediate(imm) => {
            let ty = Ty::of(imm.ty)?;
            Some(match ty {
                Ty::F => Src::Float(f64::from(f32::from_bits(imm.value as u32))),
                _ => Src::Int(ty.extend(imm.value as u32), ty),
            })
        }
        _ => None,
    }
}

fn destination(op: &VectorOperand, layout: &Layout, n: u32) -> Option<Dst> {
    let VectorOperand::General {
        modifier: 0,
        id,
        row_offset,
        col_offset,
        region,
    } = *op
    else {
        return None;
    };
    let (ty, origin, end) = general(id, row_offset, col_offset, layout)?;
    let hs = stride(region.horizontal_stride(), "").ok()? * ty.size();
    let place = place(n, ty.size(), end, |i| origin + i * hs)?;
    Some(Dst::Reg { ty, place })
}

/// Lanes of values, one per channel.
type Ints = [i64; 32];
type Floats = [f64; 32];

#[cold]
fn outside() -> Fault {
    Fault(String::from(
        "an operand of a compiled instruction lies past the registers",
    ))
}

/// Reads lanes `0..n` of little-endian `S`-byte elements at `place` through `get`.
#[inline(always)]
fn gather<T: Copy, const S: usize>(
    grf: &[u8],
    place: &Place,
    n: usize,
    out: &mut [T; 32],
    get: impl Fn([u8; S]) -> T,
) -> Result<(), Fault> {
    let one = |at: u32| -> Result<T, Fault> {
        let at = at as usize;
        let b = grf.get(at..at + S).ok_or_else(outside)?;
        Ok(get(<[u8; S]>::try_from(b).map_err(|_| outside())?))
    };
    match place {
        Place::Scalar(at) => {
            let v = one(*at)?;
            out[..n].fill(v);
        }
        Place::Contiguous(at) => {
            let at = *at as usize;
            let bytes = grf.get(at..at + n * S).ok_or_else(outside)?;
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(S)) {
                *o = get(<[u8; S]>::try_from(c).unwrap_or([0; S]));
            }
        }
        Place::Table(t) => {
            for (o, &at) in out.iter_mut().zip(t.iter()).take(n) {
                *o = one(at)?;
            }
        }
    }
    Ok(())
}

/// Writes the lanes of `mask` (below `n`) of `S`-byte elements at `place` from `put`, in lane
/// order (a destination of stride 0 keeps the last lane's).
#[inline(always)]
fn scatter<T: Copy, const S: usize>(
    grf: &mut [u8],
    place: &Place,
    n: usize,
    mask: u32,
    values: &[T; 32],
    put: impl Fn(T) -> [u8; S],
) -> Result<(), Fault> {
    if let (Place::Contiguous(at), true) = (place, mask == lanes(n as u32)) {
        let at = *at as usize;
        let bytes = grf.get_mut(at..at + n * S).ok_or_else(outside)?;
        for (c, v) in bytes.chunks_exact_mut(S).zip(values) {
            if let Ok(c) = <&mut [u8; S]>::try_from(c) {
                *c = put(*v);
            }
        }
        return Ok(());
    }
    let mut m = mask & lanes(n as u32);
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let at = place.at(i, S as u32) as usize;
        let b = grf.get_mut(at..at + S).ok_or_else(outside)?;
        let b = <&mut [u8; S]>::try_from(b).map_err(|_| outside())?;
        *b = put(values[i]);
    }
    Ok(())
}

/// Lanes `0..n` of an integer source, its modifier applied.
fn read_ints(grf: &[u8], src: &Src, n: usize, out: &mut Ints) -> Result<(), Fault> {
    let (ty, modifier, place) = match src {
        Src::Reg {
            ty,
            modifier,
            place,
        } => (*ty, *modifier, place),
        Src::Int(v, _) => {
            out[..n].fill(*v);
            return Ok(());
        }
        Src::Float(_) | Src::Pred(..) => return Err(outside()),
    };
    match ty {
        Ty::B => gather(grf, place, n, out, |b: [u8; 1]| i64::from(b[0] as i8))?,
        Ty::Ub => gather(grf, place, n, out, |b: [u8; 1]| i64::from(b[0]))?,
        Ty::W => gather(grf, place, n, out, |b| i64::from(i16::from_le_bytes(b)))?,
        Ty::Uw => gather(grf, place, n, out, |b| i64::from(u16::from_le_bytes(b)))?,
        Ty::D => gather(grf, place, n, out, |b| i64::from(i32::from_le_bytes(b)))?,
        Ty::Ud | Ty::F => gather(grf, place, n, out, |b| i64::from(u32::from_le_bytes(b)))?,
    }
    let lanes = &mut out[..n];
    match modifier {
        1 => lanes.iter_mut().for_each(|v| *v = v.wrapping_abs()),
        2 => lanes.iter_mut().for_each(|v| *v = v.wrapping_neg()),
        3 => lanes
            .iter_mut()
            .for_each(|v| *v = v.wrapping_abs().wrapping_neg()),
        // Bitwise not: the complement of the element's bits, as its type reads them.
        5 => lanes.iter_mut().for_each(|v| *v = ty.extend(!(*v as u32))),
        _ => {}
    }
    Ok(())
}

/// Lanes `0..n` of an integer source as `i32` (the low 32 bits of [`read_ints`]'s).
fn read_narrow(grf: &[u8], src: &Src, n: usize, out: &mut [i32; 32]) -> Result<(), Fault> {
    let (ty, modifier, place) = match src {
        Src::Reg {
            ty,
            modifier,
            place,
        } => (*ty, *modifier, place),
        Src::Int(v, _) => {
            out[..n].fill(*v as i32);
            return Ok(());
        }
        Src::Float(_) | Src::Pred(..) => return Err(outside()),
    };
    match ty {
        Ty::B => gather(grf, place, n, out, |b: [u8; 1]| i32::from(b[0] as i8))?,
        Ty::Ub => gather(grf, place, n, out, |b: [u8; 1]| i32::from(b[0]))?,
        Ty::W => gather(grf, place, n, out, |b| i32::from(i16::from_le_bytes(b)))?,
        Ty::Uw => gather(grf, place, n, out, |b| i32::from(u16::from_le_bytes(b)))?,
        Ty::D | Ty::Ud | Ty::F => gather(grf, place, n, out, i32::from_le_bytes)?,
    }
    let lanes = &mut out[..n];
    match modifier {
        1 => lanes.iter_mut().for_each(|v| *v = v.wrapping_abs()),
        2 => lanes.iter_mut().for_each(|v| *v = v.wrapping_neg()),
        3 => lanes
            .iter_mut()
            .for_each(|v| *v = v.wrapping_abs().wrapping_neg()),
        5 => lanes
            .iter_mut()
            .for_each(|v| *v = ty.extend(!(*v as u32)) as i32),
        _ => {}
    }
    Ok(())
}

/// Integer lanes `0..n` in `i32`, for the operations whose low 32 bits depend only on their
/// operands' low 32 bits.
#[inline(always)]
fn narrow_lanes(
    op: Op,
    s: &mut [[i32; 32]; 4],
    n: usize,
    pmask: u32,
    unsigned: (bool, bool),
) -> Lanes<'_, i32> {
    let [a, b, c, r] = s;
    match op {
        Op::Mov => return Lanes::Values(a),
        Op::Sel => {
            for i in 0..n {
                r[i] = if pmask >> i & 1 != 0 { a[i] } else { b[i] };
            }
        }
        Op::Add => binary(r, a, b, n, i32::wrapping_add),
        Op::Mul => binary(r, a, b, n, i32::wrapping_mul),
        Op::Mad => {
            for i in 0..n {
                r[i] = a[i].wrapping_mul(b[i]).wrapping_add(c[i]);
            }
        }
        Op::And => binary(r, a, b, n, |x, y| x & y),
        Op::Or => binary(r, a, b, n, |x, y| x | y),
        Op::Xor => binary(r, a, b, n, |x, y| x ^ y),
        Op::Not => {
            for i in 0..n {
                r[i] = !a[i];
            }
        }
        Op::Shl => binary(r, a, b, n, |x, y| x << (y & 31)),
        Op::Shr if unsigned.0 => binary(r, a, b, n, |x, y| ((x as u32) >> (y & 31)) as i32),
        Op::Shr => binary(r, a, b, n, |x, y| x >> (y & 31)),
        Op::Cmp(rel) if unsigned.0 || unsigned.1 => {
            let (mut x, mut y) = ([0u32; 32], [0u32; 32]);
            for i in 0..n {
                (x[i], y[i]) = (a[i] as u32, b[i] as u32);
            }
            return Lanes::Bits(compare(rel, &x, &y, n));
        }
        Op::Cmp(rel) => return Lanes::Bits(compare(rel, a, b, n)),
        Op::MinMax(max) if unsigned.0 || unsigned.1 => {
            select(r, a, b, n, |x, y| first(max, x as u32, y as u32));
        }
        Op::MinMax(max) => select(r, a, b, n, |x, y| first(max, x, y)),
        // Not compiled narrow.
        Op::Addc | Op::Subb => {}
    }
    Lanes::Values(r)
}

/// Whether MIN_MAX keeps its first source: `a < b` for the minimum, `b < a` for the
/// maximum (MIN_MAX.md's `min/max`; equal values give the second).
#[inline(always)]
fn first<T: PartialOrd>(max: bool, a: T, b: T) -> bool {
    if max {
        b < a
    } else {
        a < b
    }
}

/// `r[i] = a[i]` where `keep(a[i], b[i])`, else `b[i]`, for lanes `0..n`.
#[inline(always)]
fn select<T: Copy>(
    r: &mut [T; 32],
    a: &[T; 32],
    b: &[T; 32],
    n: usize,
    keep: impl Fn(T, T) -> bool,
) {
    for ((v, x), y) in r.iter_mut().zip(a).zip(b).take(n) {
        *v = if keep(*x, *y) { *x } else { *y };
    }
}

/// Lanes `0..n` of an F source: denormals flushed to a signed zero unless `%cr0` keeps them,
/// then its modifier.
fn read_floats(grf: &[u8], src: &Src, n: usize, keep: bool, out: &mut Floats) -> Result<(), Fault> {
    let (modifier, place) = match src {
        Src::Reg {
            modifier, place, ..
        } => (*modifier, place),
        Src::Float(v) => {
            out[..n].fill(*v);
            return Ok(());
        }
        Src::Int(..) | Src::Pred(..) => return Err(outside()),
    };
    gather(grf, place, n, out, |b| {
        let bits = u32::from_le_bytes(b);
        let denormal = bits & 0x7f80_0000 == 0 && bits & 0x007f_ffff != 0;
        // A flushed denormal keeps its sign.
        let bits = if denormal && !keep {
            bits & 0x8000_0000
        } else {
            bits
        };
        f64::from(f32::from_bits(bits))
    })?;
    let lanes = &mut out[..n];
    match modifier {
        1 => lanes.iter_mut().for_each(|v| *v = v.abs()),
        2 => lanes.iter_mut().for_each(|v| *v = -*v),
        3 => lanes.iter_mut().for_each(|v| *v = -v.abs()),
        _ => {}
    }
    Ok(())
}

impl Fast {
    /// Runs the instruction on `regs` with execution mask `em` and `%cr0`'s mode: the
    /// instruction's `ChEn` (the lanes a thread counts), or `None` when the lane function must
    /// run it (a float result while `%cr0` rounds other than to nearest).
    #[inline]
    pub fn run(
        &self,
        regs: &mut Regs,
        lanes: &mut Scratch,
        em: u32,
        mode: FloatMode,
    ) -> Result<Option<u32>, Fault> {
        let float_result = matches!(self.dst, Dst::Reg { ty: Ty::F, .. });
        if float_result && mode.rounding != Rounding::NearestEven {
            return Ok(None);
        }
        let i = self.channels.of(em, &regs.preds);
        // SEL.md guards its lanes with EM, and selects by the predicate.
        let mask = if self.op == Op::Sel { i.em } else { i.chen };
        let n = self.n as usize;
        let keep = mode.denorm_f;
        let count = match self.op {
            Op::Mov | Op::Not => 1,
            Op::Mad => 3,
            _ => 2,
        };
        if let Src::Pred(..) = self.src[0] {
            let bits = self.predicate_lanes(regs, i.offset)?;
            let Dst::Pred(id) = self.dst else {
                return Err(outside());
            };
            write_pred(regs, id, bits, mask, i.offset)?;
        } else if self.narrow {
            let s = &mut lanes.narrow;
            for (out, src) in s.iter_mut().zip(&self.src).take(count) {
                read_narrow(&regs.grf, src, n, out)?;
            }
            let unsigned = (self.src[0].ty() == Ty::Ud, self.src[1].ty() == Ty::Ud);
            let (ty, place, r) = match (&self.dst, narrow_lanes(self.op, s, n, i.pmask, unsigned)) {
                (Dst::Pred(id), Lanes::Bits(bits)) => {
                    write_pred(regs, *id, bits, mask, i.offset)?;
                    return Ok(Some(i.chen));
                }
                (Dst::Reg { ty, place }, Lanes::Values(r)) => (ty, place, r),
                _ => return Err(outside()),
            };
            let grf = &mut regs.grf;
            match ty {
                Ty::B | Ty::Ub => scatter(grf, place, n, mask, r, |x| [x as u8]),
                Ty::W | Ty::Uw => scatter(grf, place, n, mask, r, |x| (x as u16).to_le_bytes()),
                _ => scatter(grf, place, n, mask, r, |x| x.to_le_bytes()),
            }?;
        } else if self.float {
            let s = &mut lanes.floats;
            for (out, src) in s.iter_mut().zip(&self.src).take(count) {
                read_floats(&regs.grf, src, n, keep, out)?;
            }
            let r = float_lanes(self.op, s, n, i.pmask);
            self.write_floats(regs, r, n, mask, i.offset, keep)?;
        } else {
            let s = &mut lanes.ints;
            for (out, src) in s.iter_mut().zip(&self.src).take(count) {
                read_ints(&regs.grf, src, n, out)?;
            }
            let unsigned = (self.src[0].ty() == Ty::Ud, self.src[1].ty() == Ty::Ud);
            let r = int_lanes(self.op, s, n, i.pmask, unsigned);
            write_ints(&self.dst, regs, r, n, mask, i.offset)?;
            if let Some(d) = &self.dst2 {
                let c = second_lanes(self.op, s, n, unsigned);
                write_ints(d, regs, Lanes::Values(c), n, mask, i.offset)?;
            }
        }
        Ok(Some(i.chen))
    }

    /// AND, OR, XOR or NOT of predicates: lane `i` of a source is bit `offset + i` of its
    /// word (inverted when it says), for every exec size (with one lane, the whole word the
    /// lane function reads has that bit as its lowest).
    fn predicate_lanes(&self, regs: &Regs, offset: u32) -> Result<u32, Fault> {
        let mut w = [0u32; 2];
        for (w, s) in w.iter_mut().zip(&self.src) {
            if let Src::Pred(id, inverse) = *s {
                let word = *regs.preds.get(id).ok_or_else(outside)?;
                let lanes = word.rotate_right(offset & 31);
                *w = if inverse { !lanes } else { lanes };
            }
        }
        Ok(match self.op {
            Op::And => w[0] & w[1],
            Op::Or => w[0] | w[1],
            Op::Xor => w[0] ^ w[1],
            _ => !w[0],
        })
    }
}

/// Writes integer lanes (or truth values) to `dst`.
fn write_ints(
    dst: &Dst,
    regs: &mut Regs,
    r: Lanes<'_, i64>,
    n: usize,
    mask: u32,
    offset: u32,
) -> Result<(), Fault> {
    let (ty, place, v) = match (dst, r) {
        (Dst::Pred(id), Lanes::Bits(bits)) => return write_pred(regs, *id, bits, mask, offset),
        (Dst::Reg { ty, place }, Lanes::Values(v)) => (*ty, place, v),
        _ => return Err(outside()),
    };
    let grf = &mut regs.grf;
    match ty {
        Ty::B | Ty::Ub => scatter(grf, place, n, mask, v, |x| [x as u8]),
        Ty::W | Ty::Uw => scatter(grf, place, n, mask, v, |x| (x as u16).to_le_bytes()),
        Ty::D | Ty::Ud => scatter(grf, place, n, mask, v, |x| (x as u32).to_le_bytes()),
        // Integer to float: rounded once from the exact value (to nearest, even on a tie).
        Ty::F => scatter(grf, place, n, mask, v, |x| (x as f32).to_le_bytes()),
    }
}

impl Fast {
    fn write_floats(
        &self,
        regs: &mut Regs,
        r: Lanes<'_, f64>,
        n: usize,
        mask: u32,
        offset: u32,
        keep: bool,
    ) -> Result<(), Fault> {
        let (ty, place, v) = match (&self.dst, r) {
            (Dst::Pred(id), Lanes::Bits(bits)) => return write_pred(regs, *id, bits, mask, offset),
            (Dst::Reg { ty, place }, Lanes::Values(v)) => (*ty, place, v),
            _ => return Err(outside()),
        };
        let grf = &mut regs.grf;
        // Float to integer: toward zero, clamped to the type's range, NaN to 0 (Rust's `as`).
        match ty {
            Ty::B => scatter(grf, place, n, mask, v, |x| [x as i8 as u8]),
            Ty::Ub => scatter(grf, place, n, mask, v, |x| [x as u8]),
            Ty::W => scatter(grf, place, n, mask, v, |x| (x as i16).to_le_bytes()),
            Ty::Uw => scatter(grf, place, n, mask, v, |x| (x as u16).to_le_bytes()),
            Ty::D => scatter(grf, place, n, mask, v, |x| (x as i32).to_le_bytes()),
            Ty::Ud => scatter(grf, place, n, mask, v, |x| (x as u32).to_le_bytes()),
            Ty::F => scatter(grf, place, n, mask, v, |x| {
                // Rounded to nearest; a denormal result flushed to its sign's zero unless
                // `%cr0` keeps them.
                let b = (x as f32).to_bits();
                let denormal = b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0;
                if denormal && !keep {
                    b & 0x8000_0000
                } else {
                    b
                }
                .to_le_bytes()
            }),
        }
    }
}

/// What an operation computes: a value per lane, or a truth value per lane (bit `i`).
enum Lanes<'a, T> {
    Values(&'a [T; 32]),
    Bits(u32),
}

/// The lanes of a thread's running instruction: three sources and a result, as integers or
/// floats (kept between instructions: lanes past an instruction's exec size are never read).
pub struct Scratch {
    ints: [Ints; 4],
    narrow: [[i32; 32]; 4],
    floats: [Floats; 4],
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            ints: [[0; 32]; 4],
            narrow: [[0; 32]; 4],
            floats: [[0.0; 32]; 4],
        }
    }
}

/// Sets bits `offset + i` of predicate `id` to bit `i` of `bits` for the lanes `i` of `mask`.
fn write_pred(regs: &mut Regs, id: usize, bits: u32, mask: u32, offset: u32) -> Result<(), Fault> {
    let word = regs.preds.get_mut(id).ok_or_else(outside)?;
    let written = mask.rotate_left(offset & 31);
    let set = (bits & mask).rotate_left(offset & 31);
    *word = (*word & !written) | set;
    Ok(())
}

/// The truth values of a comparison, lanes `0..n` at bits `0..n`.
#[inline(always)]
fn compare<T: PartialOrd>(rel: u8, a: &[T], b: &[T], n: usize) -> u32 {
    let mut bits = 0u32;
    for (i, (x, y)) in a.iter().zip(b).take(n).enumerate() {
        let t = match rel {
            0 => x == y,
            1 => x != y,
            2 => x > y,
            3 => x >= y,
            4 => x < y,
            _ => x <= y,
        };
        bits |= u32::from(t) << i;
    }
    bits
}

/// Integer lanes `0..n`: `unsigned` says whether src0 and src1 are UD (C's promotion to
/// unsigned int for `>>` and comparisons).
#[inline(always)]
fn int_lanes(
    op: Op,
    s: &mut [Ints; 4],
    n: usize,
    pmask: u32,
    unsigned: (bool, bool),
) -> Lanes<'_, i64> {
    let [a, b, c, r] = s;
    match op {
        Op::Mov => return Lanes::Values(a),
        Op::Sel => {
            for i in 0..n {
                r[i] = if pmask >> i & 1 != 0 { a[i] } else { b[i] };
            }
        }
        Op::Add => binary(r, a, b, n, i64::wrapping_add),
        Op::Mul => binary(r, a, b, n, i64::wrapping_mul),
        Op::Mad => {
            for i in 0..n {
                r[i] = a[i].wrapping_mul(b[i]).wrapping_add(c[i]);
            }
        }
        Op::And => binary(r, a, b, n, |x, y| x & y),
        Op::Or => binary(r, a, b, n, |x, y| x | y),
        Op::Xor => binary(r, a, b, n, |x, y| x ^ y),
        Op::Not => {
            for i in 0..n {
                r[i] = !a[i];
            }
        }
        // The count's low 5 bits (a left operand of at most 32 bits).
        Op::Shl => binary(r, a, b, n, |x, y| x << (y & 31)),
        Op::Shr if unsigned.0 => binary(r, a, b, n, |x, y| i64::from(x as u32 >> (y & 31))),
        Op::Shr => binary(r, a, b, n, |x, y| x >> (y & 31)),
        Op::Cmp(rel) if unsigned.0 || unsigned.1 => {
            // Compared as unsigned ints: each value modulo 2^32.
            let (mut x, mut y) = ([0u32; 32], [0u32; 32]);
            for i in 0..n {
                (x[i], y[i]) = (a[i] as u32, b[i] as u32);
            }
            return Lanes::Bits(compare(rel, &x, &y, n));
        }
        Op::Cmp(rel) => return Lanes::Bits(compare(rel, a, b, n)),
        // Compared as unsigned ints when either is UD, as CMP.
        Op::MinMax(max) if unsigned.0 || unsigned.1 => {
            select(r, a, b, n, |x, y| first(max, x as u32, y as u32));
        }
        Op::MinMax(max) => select(r, a, b, n, |x, y| first(max, x, y)),
        // Exact: sources of at most 32 bits.
        Op::Addc => binary(r, a, b, n, i64::wrapping_add),
        Op::Subb => binary(r, a, b, n, i64::wrapping_sub),
    }
    Lanes::Values(r)
}

/// ADDC's carry, the bit above the low 32 of the exact sum (`carry` of the runtime's named
/// functions), or SUBB's borrow, `src0 < src1` (unsigned when either is UD): lanes `0..n`
/// in `s[2]`, from the sources and the result [`int_lanes`] left in `s`.
fn second_lanes(op: Op, s: &mut [Ints; 4], n: usize, unsigned: (bool, bool)) -> &Ints {
    let [a, b, c, r] = s;
    for i in 0..n {
        c[i] = match op {
            Op::Addc => (r[i] >> 32) & 1,
            _ if unsigned.0 || unsigned.1 => i64::from((a[i] as u32) < (b[i] as u32)),
            _ => i64::from(a[i] < b[i]),
        };
    }
    c
}

#[inline(always)]
fn binary<T: Copy>(r: &mut [T; 32], a: &[T; 32], b: &[T; 32], n: usize, f: impl Fn(T, T) -> T) {
    for ((v, x), y) in r.iter_mut().zip(a).zip(b).take(n) {
        *v = f(*x, *y);
    }
}

/// F lanes `0..n`, computed in `f64` (rounded once, at the write).
#[inline(always)]
fn float_lanes(op: Op, s: &mut [Floats; 4], n: usize, pmask: u32) -> Lanes<'_, f64> {
    let [a, b, c, r] = s;
    match op {
        Op::Mov => return Lanes::Values(a),
        Op::Sel => {
            for i in 0..n {
                r[i] = if pmask >> i & 1 != 0 { a[i] } else { b[i] };
            }
        }
        Op::Add => binary(r, a, b, n, |x, y| x + y),
        Op::Mul => binary(r, a, b, n, |x, y| x * y),
        Op::Mad => {
            for i in 0..n {
                r[i] = a[i] * b[i] + c[i];
            }
        }
        Op::Cmp(rel) => return Lanes::Bits(compare(rel, a, b, n)),
        // A NaN source gives the other one.
        Op::MinMax(max) => select(r, a, b, n, |x, y| {
            !x.is_nan() && (y.is_nan() || first(max, x, y))
        }),
        // Not compiled with float sources.
        Op::And | Op::Or | Op::Xor | Op::Not | Op::Shl | Op::Shr | Op::Addc | Op::Subb => {}
    }
    Lanes::Values(r)
}
