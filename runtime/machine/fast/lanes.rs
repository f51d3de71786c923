//! Running a compiled instruction: every source read into an array of lanes, one loop per
//! operation, one pass into the destination. The lane count is a constant of each function
//! (`N`: 1, 2, 4, 8, 16 or 32, the exec sizes), so the loops have no remainder, the compiler
//! vectorises them, the lanes stay in registers or on the stack, and the bytes of a contiguous
//! operand move as one fixed-size copy. The lane type is the instruction's [`Kind`]: `i32`,
//! `i64`, `f32` or `f64`, through the [`Int`] and [`Float`] traits.

use super::{outside, Dst, Fast, Kind, Op, Place, Src, Ty};
use crate::machine::convert::FloatMode;
use crate::machine::thread::{lanes, Fault, Regs};
use crate::runtime::value::Rounding;
use core::ops::{Add, BitAnd, BitOr, BitXor, Mul, Neg, Not};

/// The lanes of one instruction, typed and counted: chosen when it is compiled.
pub(super) type Runner = fn(&Fast, &mut Regs, Masks) -> Result<(), Fault>;

/// The runner of `kind` lanes, `n` of them (`None` for a lane count no exec size has).
pub(super) fn runner(kind: Kind, n: u32) -> Option<Runner> {
    fn of<const N: usize>(kind: Kind) -> Runner {
        match kind {
            Kind::Pred => Fast::predicates,
            Kind::Narrow => Fast::ints::<i32, N>,
            Kind::Exact => Fast::ints::<i64, N>,
            Kind::Single => Fast::floats::<f32, N>,
            Kind::Double => Fast::floats::<f64, N>,
        }
    }
    Some(match n {
        1 => of::<1>(kind),
        2 => of::<2>(kind),
        4 => of::<4>(kind),
        8 => of::<8>(kind),
        16 => of::<16>(kind),
        32 => of::<32>(kind),
        _ => return None,
    })
}

/// The masks of one run: the predicate after any/all and inversion (SEL's choice), the
/// channels written, their offset in the 32-channel masks, and whether F denormals are kept.
#[derive(Clone, Copy)]
pub(super) struct Masks {
    pmask: u32,
    mask: u32,
    offset: u32,
    keep: bool,
}

/// The lanes of one instruction: its sources and its result (kept in one array so that the
/// reads, the operation and the write meet in memory in the same vector widths).
type Lanes<T, const N: usize> = [[T; N]; 4];

impl Fast {
    /// Runs the instruction on `regs` with execution mask `em` and `%cr0`'s mode: the
    /// instruction's `ChEn` (the lanes a thread counts), or `None` when the lane function must
    /// run it (a float result while `%cr0` rounds other than to nearest).
    #[inline]
    pub fn run(&self, regs: &mut Regs, em: u32, mode: FloatMode) -> Result<Option<u32>, Fault> {
        if self.float_result && mode.rounding != Rounding::NearestEven {
            return Ok(None);
        }
        let i = self.channels.of(em, &regs.preds);
        let m = Masks {
            pmask: i.pmask,
            // SEL.md guards its lanes with EM, and selects by the predicate.
            mask: if self.op == Op::Sel { i.em } else { i.chen },
            offset: i.offset,
            keep: mode.denorm_f,
        };
        (self.runner)(self, regs, m)?;
        Ok(Some(i.chen))
    }

    /// An integer operation in lanes of `T`, with ADDC's carry or SUBB's borrow.
    fn ints<T: Int, const N: usize>(&self, regs: &mut Regs, m: Masks) -> Result<(), Fault> {
        let mut s: Lanes<T, N> = [[T::default(); N]; 4];
        for (out, src) in s.iter_mut().zip(&self.src).take(self.sources) {
            read_int(&regs.grf, src, out)?;
        }
        let bits = int_lanes(self.op, &mut s, m.pmask, self.unsigned);
        write_ints(&self.dst, regs, &s[3], bits, m)?;
        if let Some(d) = &self.dst2 {
            second_lanes(self.op, &mut s, self.unsigned);
            write_ints(d, regs, &s[2], None, m)?;
        }
        Ok(())
    }

    /// A float operation in lanes of `T`.
    fn floats<T: Float, const N: usize>(&self, regs: &mut Regs, m: Masks) -> Result<(), Fault> {
        let mut s: Lanes<T, N> = [[T::default(); N]; 4];
        for (out, src) in s.iter_mut().zip(&self.src).take(self.sources) {
            read_float(&regs.grf, src, m.keep, out)?;
        }
        let bits = float_lanes(self.op, &mut s, m.pmask);
        write_floats(&self.dst, regs, &s[3], bits, m)
    }

    /// AND, OR, XOR or NOT of predicates: lane `i` of a source is bit `offset + i` of its
    /// word (inverted when it says), for every exec size (with one lane, the whole word the
    /// lane function reads has that bit as its lowest).
    fn predicates(&self, regs: &mut Regs, m: Masks) -> Result<(), Fault> {
        let mut w = [0u32; 2];
        for (w, s) in w.iter_mut().zip(&self.src) {
            if let Src::Pred(id, inverse) = *s {
                let word = *regs.preds.get(id).ok_or_else(outside)?;
                let lanes = word.rotate_right(m.offset & 31);
                *w = if inverse { !lanes } else { lanes };
            }
        }
        let bits = match self.op {
            Op::And => w[0] & w[1],
            Op::Or => w[0] | w[1],
            Op::Xor => w[0] ^ w[1],
            _ => !w[0],
        };
        let Dst::Pred(id) = self.dst else {
            return Err(outside());
        };
        write_pred(regs, id, bits, m.mask, m.offset)
    }
}

/// An integer lane: `i32` for the results that keep only their low 32 bits, `i64` for exact
/// ones (every source of at most 32 bits extends into it exactly).
trait Int:
    Copy
    + Default
    + Ord
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
{
    fn from_i32(v: i32) -> Self;
    fn from_u32(v: u32) -> Self;
    /// The low bits of `v` (an immediate's value, an element's bits extended by its type).
    fn from_i64(v: i64) -> Self;
    /// The low 32 bits.
    fn low(self) -> u32;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn wrapping_mul(self, other: Self) -> Self;
    fn wrapping_abs(self) -> Self;
    fn wrapping_neg(self) -> Self;
    /// `self << count` and the arithmetic `self >> count`, `count` below 32.
    fn shl(self, count: u32) -> Self;
    fn sar(self, count: u32) -> Self;
    /// Bit 32 of an exact sum, ADDC's carry (an `i32` has none: ADDC computes in `i64`).
    fn carry(self) -> Self;
    /// Rounded to F from the exact value (to nearest, even on a tie).
    fn to_f32(self) -> f32;
}

macro_rules! int_lane {
    ($t:ty) => {
        impl Int for $t {
            #[inline(always)]
            fn from_i32(v: i32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn from_u32(v: u32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn low(self) -> u32 {
                self as u32
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn wrapping_mul(self, other: Self) -> Self {
                <$t>::wrapping_mul(self, other)
            }
            #[inline(always)]
            fn wrapping_abs(self) -> Self {
                <$t>::wrapping_abs(self)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn shl(self, count: u32) -> Self {
                self.wrapping_shl(count)
            }
            #[inline(always)]
            fn sar(self, count: u32) -> Self {
                self.wrapping_shr(count)
            }
            #[inline(always)]
            fn carry(self) -> Self {
                (self as i64 >> 32 & 1) as $t
            }
            #[inline(always)]
            fn to_f32(self) -> f32 {
                self as f32
            }
        }
    };
}

int_lane!(i32);
int_lane!(i64);

/// A float lane: `f32` where rounding each operation to F gives what the lane function
/// computes, `f64` where the unrounded value converts to an integer.
trait Float:
    Copy + Default + PartialOrd + Add<Output = Self> + Mul<Output = Self> + Neg<Output = Self>
{
    fn from_f32(v: f32) -> Self;
    fn abs(self) -> Self;
    fn is_nan(self) -> bool;
    /// `self + other`, a NaN operand giving itself ([`nan_first`]).
    #[inline(always)]
    fn sum(self, other: Self) -> Self {
        nan_first(self, other, self + other)
    }
    /// `self * other`, a NaN operand giving itself ([`nan_first`]).
    #[inline(always)]
    fn product(self, other: Self) -> Self {
        nan_first(self, other, self * other)
    }
    /// MAD: `(a * b) + c` in `f64` (an exact product, one rounding), in this width.
    fn mad(a: Self, b: Self, c: Self) -> Self;
    /// Rounded to F (to nearest).
    fn single(self) -> f32;
    fn wide(self) -> f64;
}

impl Float for f32 {
    #[inline(always)]
    fn from_f32(v: f32) -> f32 {
        v
    }
    #[inline(always)]
    fn abs(self) -> f32 {
        f32::abs(self)
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    #[inline(always)]
    fn mad(a: f32, b: f32, c: f32) -> f32 {
        f64::mad(f64::from(a), f64::from(b), f64::from(c)) as f32
    }
    #[inline(always)]
    fn single(self) -> f32 {
        self
    }
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }
}

impl Float for f64 {
    #[inline(always)]
    fn from_f32(v: f32) -> f64 {
        f64::from(v)
    }
    #[inline(always)]
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    #[inline(always)]
    fn mad(a: f64, b: f64, c: f64) -> f64 {
        a.product(b).sum(c)
    }
    #[inline(always)]
    fn single(self) -> f32 {
        self as f32
    }
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
}

/// `r`, the sum or product of `x` and `y`, unless `x` or `y` is a NaN: then the first NaN of
/// the two (quieted when written), as the lane function's `x + y` and `x * y` give it on x86.
/// The hardware keeps the first operand's NaN, but the compiler may swap the operands of a
/// vectorised sum or product, so the choice is made here.
#[inline(always)]
fn nan_first<T: Float>(x: T, y: T, r: T) -> T {
    if x.is_nan() {
        x
    } else if y.is_nan() {
        y
    } else {
        r
    }
}

/// Reads the `N` lanes of little-endian `S`-byte elements at `place` through `get`.
#[inline(always)]
fn gather<T: Copy, const S: usize, const N: usize>(
    grf: &[u8],
    place: &Place,
    out: &mut [T; N],
    get: impl Fn([u8; S]) -> T,
) -> Result<(), Fault> {
    let one = |at: u32| -> Result<T, Fault> {
        let at = at as usize;
        let b = grf.get(at..at + S).ok_or_else(outside)?;
        Ok(get(<[u8; S]>::try_from(b).map_err(|_| outside())?))
    };
    match place {
        Place::Scalar(at) => *out = [one(*at)?; N],
        Place::Contiguous(at) => {
            let at = *at as usize;
            let bytes = grf.get(at..at + N * S).ok_or_else(outside)?;
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(S)) {
                *o = get(<[u8; S]>::try_from(c).unwrap_or([0; S]));
            }
        }
        Place::Table(t) => {
            for (o, &at) in out.iter_mut().zip(t.iter()) {
                *o = one(at)?;
            }
        }
    }
    Ok(())
}

/// Writes the lanes of `mask` of `S`-byte elements at `place` from `put`, in lane order (a
/// destination of stride 0 keeps the last lane's).
#[inline(always)]
fn scatter<T: Copy, const S: usize, const N: usize>(
    grf: &mut [u8],
    place: &Place,
    mask: u32,
    values: &[T; N],
    put: impl Fn(T) -> [u8; S],
) -> Result<(), Fault> {
    let all = lanes(N as u32);
    let mask = mask & all;
    if let Place::Contiguous(at) = place {
        let at = *at as usize;
        let bytes = grf.get_mut(at..at + N * S).ok_or_else(outside)?;
        // Built in a local array and copied whole: lane-sized stores would leave the next
        // instruction's vector loads of these bytes waiting for them.
        let mut out = [[0u8; S]; N];
        if mask == all {
            for (o, v) in out.iter_mut().zip(values) {
                *o = put(*v);
            }
        } else {
            // The lanes off keep their bytes: a choice per lane the compiler vectorises.
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(S)) {
                *o = <[u8; S]>::try_from(c).unwrap_or([0; S]);
            }
            for (i, (o, v)) in out.iter_mut().zip(values).enumerate() {
                let new = put(*v);
                *o = if mask >> i & 1 != 0 { new } else { *o };
            }
        }
        bytes.copy_from_slice(out.as_flattened());
        return Ok(());
    }
    let mut m = mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let at = place.at(i, S as u32) as usize;
        let b = grf.get_mut(at..at + S).ok_or_else(outside)?;
        let b = <&mut [u8; S]>::try_from(b).map_err(|_| outside())?;
        *b = put(values.get(i).copied().ok_or_else(outside)?);
    }
    Ok(())
}

/// The lanes of an integer source, its modifier applied.
fn read_int<T: Int, const N: usize>(grf: &[u8], src: &Src, v: &mut [T; N]) -> Result<(), Fault> {
    let (ty, modifier, place) = match src {
        Src::Reg {
            ty,
            modifier,
            place,
        } => (*ty, *modifier, place),
        Src::Int(x, _) => {
            *v = [T::from_i64(*x); N];
            return Ok(());
        }
        Src::Float(_) | Src::Pred(..) => return Err(outside()),
    };
    match ty {
        Ty::B => gather(grf, place, v, |b: [u8; 1]| {
            T::from_i32(i32::from(b[0] as i8))
        }),
        Ty::Ub => gather(grf, place, v, |b: [u8; 1]| T::from_i32(i32::from(b[0]))),
        Ty::W => gather(grf, place, v, |b| {
            T::from_i32(i32::from(i16::from_le_bytes(b)))
        }),
        Ty::Uw => gather(grf, place, v, |b| {
            T::from_i32(i32::from(u16::from_le_bytes(b)))
        }),
        Ty::D => gather(grf, place, v, |b| T::from_i32(i32::from_le_bytes(b))),
        Ty::Ud | Ty::F => gather(grf, place, v, |b| T::from_u32(u32::from_le_bytes(b))),
    }?;
    match modifier {
        1 => v.iter_mut().for_each(|x| *x = x.wrapping_abs()),
        2 => v.iter_mut().for_each(|x| *x = x.wrapping_neg()),
        3 => v
            .iter_mut()
            .for_each(|x| *x = x.wrapping_abs().wrapping_neg()),
        // Bitwise not: the complement of the element's bits, as its type reads them.
        5 => v
            .iter_mut()
            .for_each(|x| *x = T::from_i64(ty.extend(!x.low()))),
        _ => {}
    }
    Ok(())
}

/// F bits with a denormal flushed to its sign's zero unless `%cr0` keeps them (a zero is its
/// own flush).
#[inline(always)]
fn flush(bits: u32, keep: bool) -> u32 {
    if !keep && bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// The lanes of an F source: denormals flushed unless `%cr0` keeps them, then its modifier.
fn read_float<T: Float, const N: usize>(
    grf: &[u8],
    src: &Src,
    keep: bool,
    v: &mut [T; N],
) -> Result<(), Fault> {
    let (modifier, place) = match src {
        Src::Reg {
            modifier, place, ..
        } => (*modifier, place),
        Src::Float(x) => {
            *v = [T::from_f32(*x); N];
            return Ok(());
        }
        Src::Int(..) | Src::Pred(..) => return Err(outside()),
    };
    gather(grf, place, v, |b| {
        T::from_f32(f32::from_bits(flush(u32::from_le_bytes(b), keep)))
    })?;
    match modifier {
        1 => v.iter_mut().for_each(|x| *x = x.abs()),
        2 => v.iter_mut().for_each(|x| *x = -*x),
        3 => v.iter_mut().for_each(|x| *x = -x.abs()),
        _ => {}
    }
    Ok(())
}

/// `r[i] = f(a[i], b[i])` for every lane.
#[inline(always)]
fn map2<T: Copy, U, const N: usize>(r: &mut [U; N], a: &[T; N], b: &[T; N], f: impl Fn(T, T) -> U) {
    for ((v, x), y) in r.iter_mut().zip(a).zip(b) {
        *v = f(*x, *y);
    }
}

/// `r[i] = f(a[i], b[i], c[i])` for every lane.
#[inline(always)]
fn map3<T: Copy, const N: usize>(
    r: &mut [T; N],
    a: &[T; N],
    b: &[T; N],
    c: &[T; N],
    f: impl Fn(T, T, T) -> T,
) {
    for (((v, x), y), z) in r.iter_mut().zip(a).zip(b).zip(c) {
        *v = f(*x, *y, *z);
    }
}

/// SEL: lane `i` of `a` where bit `i` of `pmask` is set, else of `b`.
#[inline(always)]
fn pick<T: Copy, const N: usize>(r: &mut [T; N], a: &[T; N], b: &[T; N], pmask: u32) {
    for (i, ((v, x), y)) in r.iter_mut().zip(a).zip(b).enumerate() {
        *v = if pmask >> i & 1 != 0 { *x } else { *y };
    }
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

/// The truth values of a comparison (0 EQ, 1 NE, 2 GT, 3 GE, 4 LT, 5 LE), lane `i` at bit
/// `i`.
#[inline(always)]
fn compare<T: PartialOrd + Copy, const N: usize>(rel: u8, a: &[T; N], b: &[T; N]) -> u32 {
    let mut t = [false; N];
    match rel {
        0 => map2(&mut t, a, b, |x, y| x == y),
        1 => map2(&mut t, a, b, |x, y| x != y),
        2 => map2(&mut t, a, b, |x, y| x > y),
        3 => map2(&mut t, a, b, |x, y| x >= y),
        4 => map2(&mut t, a, b, |x, y| x < y),
        _ => map2(&mut t, a, b, |x, y| x <= y),
    }
    t.iter()
        .enumerate()
        .fold(0, |bits, (i, &t)| bits | u32::from(t) << i)
}

/// Integer lanes: the result in `s[3]`, or the truth values of a comparison. `unsigned` says
/// whether src0 and src1 are UD (C's promotion to unsigned int for `>>` and comparisons).
#[inline(always)]
fn int_lanes<T: Int, const N: usize>(
    op: Op,
    s: &mut Lanes<T, N>,
    pmask: u32,
    unsigned: (bool, bool),
) -> Option<u32> {
    let [a, b, c, r] = s;
    let either = unsigned.0 || unsigned.1;
    match op {
        Op::Mov => *r = *a,
        Op::Sel => pick(r, a, b, pmask),
        // Exact in `i64`: sources of at most 32 bits.
        Op::Add | Op::Addc => map2(r, a, b, T::wrapping_add),
        Op::Subb => map2(r, a, b, T::wrapping_sub),
        Op::Mul => map2(r, a, b, T::wrapping_mul),
        Op::Mad => map3(r, a, b, c, |x, y, z| x.wrapping_mul(y).wrapping_add(z)),
        Op::And => map2(r, a, b, |x, y| x & y),
        Op::Or => map2(r, a, b, |x, y| x | y),
        Op::Xor => map2(r, a, b, |x, y| x ^ y),
        Op::Not => map2(r, a, a, |x, _| !x),
        // The count's low 5 bits (a left operand of at most 32 bits).
        Op::Shl => map2(r, a, b, |x, y| x.shl(y.low() & 31)),
        Op::Shr if unsigned.0 => map2(r, a, b, |x, y| T::from_u32(x.low() >> (y.low() & 31))),
        Op::Shr => map2(r, a, b, |x, y| x.sar(y.low() & 31)),
        // Compared as unsigned ints: each value modulo 2^32.
        Op::Cmp(rel) if either => return Some(compare(rel, &a.map(T::low), &b.map(T::low))),
        Op::Cmp(rel) => return Some(compare(rel, a, b)),
        // Compared as unsigned ints when either is UD, as CMP.
        Op::MinMax(max) if either => {
            map2(
                r,
                a,
                b,
                |x, y| {
                    if first(max, x.low(), y.low()) {
                        x
                    } else {
                        y
                    }
                },
            )
        }
        Op::MinMax(max) => map2(r, a, b, |x, y| if first(max, x, y) { x } else { y }),
    }
    None
}

/// ADDC's carry, the bit above the low 32 of the exact sum (`carry` of the runtime's named
/// functions), or SUBB's borrow, `src0 < src1` (unsigned when either is UD): into `s[2]`,
/// from the sources and the result [`int_lanes`] left in `s`.
fn second_lanes<T: Int, const N: usize>(op: Op, s: &mut Lanes<T, N>, unsigned: (bool, bool)) {
    let [a, b, c, r] = s;
    let bit = |t: bool| T::from_i32(i32::from(t));
    match op {
        Op::Addc => map2(c, r, r, |x, _| x.carry()),
        _ if unsigned.0 || unsigned.1 => map2(c, a, b, |x, y| bit(x.low() < y.low())),
        _ => map2(c, a, b, |x, y| bit(x < y)),
    }
}

/// F lanes: the result in `s[3]` (MAD's product and sum in `f64`, rounded once to `T`), or
/// the truth values of a comparison.
#[inline(always)]
fn float_lanes<T: Float, const N: usize>(op: Op, s: &mut Lanes<T, N>, pmask: u32) -> Option<u32> {
    let [a, b, c, r] = s;
    match op {
        Op::Sel => pick(r, a, b, pmask),
        Op::Add => map2(r, a, b, T::sum),
        Op::Mul => map2(r, a, b, T::product),
        Op::Mad => map3(r, a, b, c, T::mad),
        Op::Cmp(rel) => return Some(compare(rel, a, b)),
        // A NaN source gives the other one.
        Op::MinMax(max) => map2(r, a, b, |x, y| {
            if !x.is_nan() && (y.is_nan() || first(max, x, y)) {
                x
            } else {
                y
            }
        }),
        // MOV (the other operations are not compiled with float sources).
        _ => *r = *a,
    }
    None
}

/// Writes integer lanes (or truth values) to `dst`.
fn write_ints<T: Int, const N: usize>(
    dst: &Dst,
    regs: &mut Regs,
    v: &[T; N],
    bits: Option<u32>,
    m: Masks,
) -> Result<(), Fault> {
    let Some((ty, place)) = register_or_predicate(dst, regs, bits, m)? else {
        return Ok(());
    };
    let grf = &mut regs.grf;
    match ty {
        Ty::B | Ty::Ub => scatter(grf, place, m.mask, v, |x| [x.low() as u8]),
        Ty::W | Ty::Uw => scatter(grf, place, m.mask, v, |x| (x.low() as u16).to_le_bytes()),
        Ty::D | Ty::Ud => scatter(grf, place, m.mask, v, |x| x.low().to_le_bytes()),
        // Integer to float: rounded once from the exact value (to nearest, even on a tie).
        Ty::F => scatter(grf, place, m.mask, v, |x| x.to_f32().to_le_bytes()),
    }
}

/// F bits of a result: a denormal flushed to its sign's zero unless `%cr0` keeps them, a NaN
/// made quiet with its sign and payload (as the lane function writes one).
#[inline(always)]
fn result_bits(x: f32, keep: bool) -> u32 {
    let b = flush(x.to_bits(), keep);
    if b & 0x7f80_0000 == 0x7f80_0000 && b & 0x007f_ffff != 0 {
        b | 0x0040_0000
    } else {
        b
    }
}

/// Writes float lanes (or truth values) to `dst`.
fn write_floats<T: Float, const N: usize>(
    dst: &Dst,
    regs: &mut Regs,
    v: &[T; N],
    bits: Option<u32>,
    m: Masks,
) -> Result<(), Fault> {
    let Some((ty, place)) = register_or_predicate(dst, regs, bits, m)? else {
        return Ok(());
    };
    let (grf, mask) = (&mut regs.grf, m.mask);
    // Float to integer: toward zero, clamped to the type's range, NaN to 0 (Rust's `as`).
    match ty {
        Ty::B => scatter(grf, place, mask, v, |x| [x.wide() as i8 as u8]),
        Ty::Ub => scatter(grf, place, mask, v, |x| [x.wide() as u8]),
        Ty::W => scatter(grf, place, mask, v, |x| (x.wide() as i16).to_le_bytes()),
        Ty::Uw => scatter(grf, place, mask, v, |x| (x.wide() as u16).to_le_bytes()),
        Ty::D => scatter(grf, place, mask, v, |x| (x.wide() as i32).to_le_bytes()),
        Ty::Ud => scatter(grf, place, mask, v, |x| (x.wide() as u32).to_le_bytes()),
        Ty::F => scatter(grf, place, mask, v, |x| {
            result_bits(x.single(), m.keep).to_le_bytes()
        }),
    }
}

/// Sets bits `offset + i` of predicate `id` to bit `i` of `bits` for the lanes `i` of `mask`.
/// A register destination's type and place; truth values `bits` written to a predicate
/// destination here (`None` then: nothing is left to write).
#[inline(always)]
fn register_or_predicate<'d>(
    dst: &'d Dst,
    regs: &mut Regs,
    bits: Option<u32>,
    m: Masks,
) -> Result<Option<(Ty, &'d Place)>, Fault> {
    match (dst, bits) {
        (Dst::Pred(id), Some(bits)) => write_pred(regs, *id, bits, m.mask, m.offset).map(|()| None),
        (Dst::Reg { ty, place }, None) => Ok(Some((*ty, place))),
        _ => Err(outside()),
    }
}

fn write_pred(regs: &mut Regs, id: usize, bits: u32, mask: u32, offset: u32) -> Result<(), Fault> {
    let word = regs.preds.get_mut(id).ok_or_else(outside)?;
    let written = mask.rotate_left(offset & 31);
    let set = (bits & mask).rotate_left(offset & 31);
    *word = (*word & !written) | set;
    Ok(())
}
