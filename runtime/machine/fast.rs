//! The fast path of the common ALU instructions: each is compiled once, when its kernel loads,
//! into a [`Fast`] (operand places resolved to GRF byte offsets, element types and regions
//! read, immediates converted), and run whole operands at a time in lanes typed per operand
//! class (`fast::lanes`).
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
//! The lanes of an instruction are of one type, chosen when it is compiled (`Kind`):
//!
//! - `i32` for integer results that keep only their low 32 bits (sums, products, bitwise
//!   operations, left shifts, moves into integer types) and for right shifts and comparisons
//!   of sources an `i32` holds exactly;
//! - `i64` for the others (ADDC's carry, SUBB's borrow, abs of UD, integers into F): sources of
//!   at most 32 bits sign- or zero-extend into it exactly, so the results that depend on the
//!   high bits are exact;
//! - `f32` for F sources into F or a predicate: an `f32` sum or product is the `f64` one
//!   rounded once to F (an `f64` holds the exact product of two F, and rounding an F sum
//!   through `f64` gives the F rounding), comparisons and selections are the same in either
//!   width; MAD's product and sum are computed in `f64` lane by lane and rounded once, as the
//!   lane function rounds them;
//! - `f64` for F sources into an integer type, which converts from the unrounded value.
//!
//! A NaN operand of a sum or product gives itself, the first of two (quieted when written), as
//! the lane function's scalar `x + y` gets it from the CPU: the compiler may swap the operands
//! of vectorised lanes, so the fast path chooses explicitly.

mod lanes;

use super::layout::{self, Layout};
use super::thread::{lanes, stride, Fault};
use crate::generated::Instruction;
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
    Float(f32),
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

/// The lanes an instruction computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// AND, OR, XOR or NOT of predicates: bits of their words.
    Pred,
    /// Integers in `i32`: results that keep only their low 32 bits ([`narrow`]).
    Narrow,
    /// Integers in `i64`, exact.
    Exact,
    /// F sources into F or a predicate: `f32`.
    Single,
    /// F sources into an integer type: `f64`.
    Double,
}

/// An instruction compiled for the fast path.
#[derive(Clone, Debug)]
pub struct Fast {
    op: Op,
    /// The channels: `EvaluateChEn`'s inputs, read once.
    channels: Channels,
    /// Runs the lanes, of the type its `Kind` says and as many as the exec size.
    runner: lanes::Runner,
    /// Sources the operation reads.
    sources: usize,
    /// Whether src0 and src1 are UD (C's promotion to unsigned int for `>>` and comparisons).
    unsigned: (bool, bool),
    /// The destination is F: `%cr0`'s rounding mode matters.
    float_result: bool,
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
    let float_result = matches!(dst, Dst::Reg { ty: Ty::F, .. });
    let kind = match src[0] {
        Src::Pred(..) => Kind::Pred,
        _ if float && (float_result || matches!(dst, Dst::Pred(_))) => Kind::Single,
        _ if float => Kind::Double,
        _ if narrow(op, &dst, &src) => Kind::Narrow,
        _ => Kind::Exact,
    };
    Some(Box::new(Fast {
        op,
        channels: Channels::new(exec, f.pred, layout)?,
        runner: lanes::runner(kind, n)?,
        sources,
        unsigned: (src[0].ty() == Ty::Ud, src[1].ty() == Ty::Ud),
        float_result,
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
                Ty::F => Src::Float(f32::from_bits(imm.value as u32)),
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

#[cold]
fn outside() -> Fault {
    Fault(String::from(
        "an operand of a compiled instruction lies past the registers",
    ))
}
