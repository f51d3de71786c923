//! What the pseudo-code of `## Semantics` computes with: [`Value`]'s operators (C's, with the
//! type promotions of the data types chapter) and the conversions between values and the bits
//! of an element (`2_datatypes.md`, "Type Conversion" and "Saturation"; `4_visa_header.md`,
//! `%cr0` "FPU Rounding mode: Bit 4-5").
//!
//! Integers are exact (`i128`) until they are written: the chapter says "for integer execution
//! types, extra precision is provided within the hardware", and a write converts ("bit
//! truncation", or clamping under saturation). Floats are computed in `f64` and rounded once,
//! to the destination's format, when written: for `+ - * /` and square root of F, HF and BF
//! operands `f64` is wide enough that this single rounding is the correctly rounded result.

use crate::runtime::lanes::Value;
use crate::runtime::DataType;
use core::ops;

/// A rounding mode of `%cr0` bits 4-5 (`4_visa_header.md`, the predefined variable table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rounding {
    /// `00b`: round to nearest, ties to even (RTNE).
    #[default]
    NearestEven,
    /// `01b`: round up, toward +inf (RU).
    Up,
    /// `10b`: round down, toward -inf (RD).
    Down,
    /// `11b`: round toward zero (RTZ).
    TowardZero,
}

impl Rounding {
    /// The mode `%cr0` selects (bits 4-5).
    pub fn from_cr0(cr0: u32) -> Rounding {
        match (cr0 >> 4) & 3 {
            0 => Rounding::NearestEven,
            1 => Rounding::Up,
            2 => Rounding::Down,
            _ => Rounding::TowardZero,
        }
    }
}

/// Whether a type is one of the floating-point types (VF, the packed restricted floats, is
/// not an element type and reads as its dword).
#[inline]
pub fn is_float(ty: DataType) -> bool {
    matches!(ty, DataType::F | DataType::Df | DataType::Hf | DataType::Bf)
}

/// Whether a type is an unsigned integer type.
#[inline]
pub fn is_unsigned(ty: DataType) -> bool {
    matches!(
        ty,
        DataType::Ub | DataType::Uw | DataType::Ud | DataType::Uq | DataType::Uv | DataType::Vf
    )
}

/// Width in bits of an integer type's element (32 for the packed V, UV and VF dwords).
#[inline]
fn int_bits(ty: DataType) -> u32 {
    match ty {
        DataType::Ub | DataType::B => 8,
        DataType::Uw | DataType::W => 16,
        DataType::Uq | DataType::Q | DataType::Df => 64,
        DataType::Bool => 1,
        _ => 32,
    }
}

/// The range of an integer type: its saturation target range (`2_datatypes.md`, "Saturation").
fn int_range(ty: DataType) -> (i128, i128) {
    let bits = int_bits(ty);
    if is_unsigned(ty) || ty == DataType::Bool {
        (0, (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    }
}

/// `v` as an element of `ty`: its low bits, sign- or zero-extended as the type says ("Integer
/// to Integer with Lower Precision ... is based on bit truncation").
fn wrap(v: i128, ty: DataType) -> i128 {
    let bits = int_bits(ty);
    let low = v & ((1i128 << bits) - 1);
    if !is_unsigned(ty) && ty != DataType::Bool && low >> (bits - 1) != 0 {
        low - (1i128 << bits)
    } else {
        low
    }
}

/// An IEEE binary format: exponent and fraction bits.
#[derive(Clone, Copy)]
struct Format {
    exp: u32,
    frac: u32,
}

fn format(ty: DataType) -> Option<Format> {
    match ty {
        DataType::Df => Some(Format { exp: 11, frac: 52 }),
        DataType::F => Some(Format { exp: 8, frac: 23 }),
        DataType::Hf => Some(Format { exp: 5, frac: 10 }),
        DataType::Bf => Some(Format { exp: 8, frac: 7 }),
        _ => None,
    }
}

/// The value of the bits of a float format, exactly.
fn decode_float(bits: u64, f: Format) -> f64 {
    let frac = bits & ((1u64 << f.frac) - 1);
    let exp = (bits >> f.frac) & ((1u64 << f.exp) - 1);
    let neg = (bits >> (f.frac + f.exp)) & 1 == 1;
    let bias = (1i32 << (f.exp - 1)) - 1;
    let mag = if exp == (1u64 << f.exp) - 1 {
        if frac == 0 {
            f64::INFINITY
        } else {
            // The payload kept (in the top of f64's), the sign applied below.
            f64::from_bits(0x7ffu64 << 52 | frac << (52 - f.frac))
        }
    } else if exp == 0 {
        scale(frac as f64, 1 - bias - f.frac as i32)
    } else {
        scale(
            (frac | 1u64 << f.frac) as f64,
            exp as i32 - bias - f.frac as i32,
        )
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// `x * 2^e`, exactly where the result is representable (no `powi` in core).
fn scale(mut x: f64, mut e: i32) -> f64 {
    while e > 0 {
        let s = e.min(1000);
        x *= f64::from_bits(((1023 + s) as u64) << 52);
        e -= s;
    }
    while e < 0 {
        let s = (-e).min(1000);
        x *= f64::from_bits(((1023 - s) as u64) << 52);
        e += s;
    }
    x
}

/// Rounds `(-1)^neg * sig * 2^ex` to format `f` in mode `r` and returns its bits ("Float to
/// Float with Lower Precision ... uses the rounding mode set in the control register";
/// overflow gives infinity or the largest finite value as the mode directs).
fn round_bits(neg: bool, sig: u128, ex: i32, f: Format, r: Rounding) -> u64 {
    let sign = u64::from(neg) << (f.exp + f.frac);
    if sig == 0 {
        return sign;
    }
    let bias = (1i32 << (f.exp - 1)) - 1;
    let emin = 1 - bias;
    let emax = bias;
    // Exponent of the leading bit of the value.
    let lead = 127 - sig.leading_zeros() as i32 + ex;
    let quantum = lead.max(emin) - f.frac as i32;
    let shift = quantum - ex;
    // The kept bits, the first dropped bit and whether any later bit is set.
    let (mut q, half, sticky) = if shift <= 0 {
        (sig << (-shift).min(127), false, false)
    } else if shift > 128 {
        (0, false, true)
    } else {
        let q = sig.checked_shr(shift as u32).unwrap_or(0);
        let half = (sig >> (shift - 1)) & 1 == 1;
        let below = if shift == 1 {
            0
        } else {
            sig & (u128::MAX >> (129 - shift))
        };
        (q, half, below != 0)
    };
    let inexact = half || sticky;
    let up = match r {
        Rounding::NearestEven => half && (sticky || q & 1 == 1),
        Rounding::Up => inexact && !neg,
        Rounding::Down => inexact && neg,
        Rounding::TowardZero => false,
    };
    if up {
        q += 1;
    }
    let mut e = quantum + f.frac as i32;
    if q >> (f.frac + 1) != 0 {
        q >>= 1;
        e += 1;
    }
    let max_exp_field = (1u64 << f.exp) - 1;
    if e > emax {
        let to_inf = match r {
            Rounding::NearestEven => true,
            Rounding::Up => !neg,
            Rounding::Down => neg,
            Rounding::TowardZero => false,
        };
        return if to_inf {
            sign | max_exp_field << f.frac
        } else {
            sign | (max_exp_field - 1) << f.frac | ((1u64 << f.frac) - 1)
        };
    }
    let q = q as u64;
    if q >> f.frac == 0 {
        // Subnormal (or zero after rounding).
        sign | q
    } else {
        sign | ((e + bias) as u64) << f.frac | (q & ((1u64 << f.frac) - 1))
    }
}

/// The bits of `x` in float format `f`, rounded in mode `r`.
fn float_bits(x: f64, f: Format, r: Rounding) -> u64 {
    let top = f.exp + f.frac;
    if x.is_nan() {
        // A quiet NaN with the sign and the top of the payload kept (a NaN read from an
        // element is written back with its bits: CMP's all ones in an F element).
        let payload = (x.to_bits() & ((1u64 << 52) - 1)) >> (52 - f.frac);
        return u64::from(x.is_sign_negative()) << top
            | ((1u64 << f.exp) - 1) << f.frac
            | 1u64 << (f.frac - 1)
            | payload;
    }
    if x.is_infinite() {
        return u64::from(x < 0.0) << top | ((1u64 << f.exp) - 1) << f.frac;
    }
    let b = x.to_bits();
    let neg = b >> 63 == 1;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    let (sig, ex) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1u64 << 52, exp - 1075)
    };
    round_bits(neg, u128::from(sig), ex, f, r)
}

/// Float to integer: "discarding the fractional part (i.e., rounding toward zero)", clamped
/// to the type's range, NaN to 0 (`2_datatypes.md`, "Float to Integer"). The unsigned table's
/// "qNaN Indefinite" for negative values is no integer; they clamp to 0, the smallest value,
/// as the section's text says.
fn float_to_int(x: f64, ty: DataType) -> i128 {
    let (lo, hi) = int_range(ty);
    if x.is_nan() {
        return 0;
    }
    let t = trunc(x);
    if t <= lo as f64 {
        lo
    } else if t >= hi as f64 {
        hi
    } else {
        t as i128
    }
}

/// `x` rounded toward zero (core has no `f64::trunc`).
pub fn trunc(x: f64) -> f64 {
    let b = x.to_bits();
    let exp = ((b >> 52) & 0x7ff) as i32 - 1023;
    if exp >= 52 || x.is_nan() {
        x
    } else if exp < 0 {
        f64::from_bits(b & (1u64 << 63))
    } else {
        f64::from_bits(b & !((1u64 << (52 - exp)) - 1))
    }
}

/// The largest integer not above `x` (core has no `f64::floor`).
pub fn floor(x: f64) -> f64 {
    let t = trunc(x);
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// The smallest integer not below `x`.
pub fn ceil(x: f64) -> f64 {
    let t = trunc(x);
    if t < x {
        t + 1.0
    } else {
        t
    }
}

/// The correctly rounded square root of `x`, in `f64` (core has no `f64::sqrt`).
pub fn sqrt(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let b = x.to_bits();
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    let (mut sig, mut ex) = if exp == 0 {
        (u128::from(frac), -1074)
    } else {
        (u128::from(frac | 1u64 << 52), exp - 1075)
    };
    // sqrt(sig * 2^ex) = sqrt(sig * 2^k) * 2^((ex-k)/2): widen to ~120 bits, even exponent.
    let k = 120 - (128 - sig.leading_zeros() as i32);
    let k = if (ex - k) % 2 != 0 { k + 1 } else { k };
    sig <<= k;
    ex -= k;
    let root = isqrt(sig);
    // A remainder makes the (60-bit) root inexact: a sticky bit below it decides rounding.
    let sticky = u128::from(root * root != sig);
    let f = Format { exp: 11, frac: 52 };
    f64::from_bits(round_bits(
        false,
        root << 1 | sticky,
        ex / 2 - 1,
        f,
        Rounding::NearestEven,
    ))
}

fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    // Newton from above (2^ceil(bits/2) >= sqrt(n)): decreasing until floor(sqrt(n)).
    let mut x = 1u128 << (128 - n.leading_zeros()).div_ceil(2);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            return x;
        }
        x = y;
    }
}

impl Value {
    /// Element bits of type `ty` as a value: integers sign- or zero-extended as the type says
    /// ("Integer to Integer with Same or Higher Precision"), floats widened exactly ("Float to
    /// Float with Higher Precision ... a precise representation of the input"). The packed
    /// types (V, UV, VF) are a dword here: the machine unpacks immediates per lane.
    pub fn from_bits(bits: u64, ty: DataType) -> Value {
        match format(ty) {
            Some(f) => Value::Float(decode_float(bits, f), ty),
            None if ty == DataType::Bool => Value::Bool(bits & 1 != 0),
            None => Value::Int(wrap(i128::from(bits), ty), ty),
        }
    }

    /// The bits of an element of type `ty` holding this value, as the data types chapter
    /// converts: integers truncated (or clamped when `saturate`), floats to integers toward
    /// zero and clamped, to floats rounded in mode `rounding`; saturation of a float
    /// destination clamps to [0.0, 1.0], NaN to 0.0.
    pub fn to_bits(self, ty: DataType, saturate: bool, rounding: Rounding) -> u64 {
        let mask = if int_bits(ty) >= 64 {
            u64::MAX
        } else {
            (1u64 << int_bits(ty)) - 1
        };
        if let Some(f) = format(ty) {
            let x = self.as_f64();
            let x = if saturate {
                if x.is_nan() || x < 0.0 {
                    0.0
                } else if x > 1.0 {
                    1.0
                } else {
                    x
                }
            } else {
                x
            };
            return match self {
                // Integers round once, from their exact value ("Integer to Float").
                Value::Int(v, _) if !saturate => {
                    round_bits(v < 0, v.unsigned_abs(), 0, f, rounding)
                }
                _ if ty == DataType::Df => x.to_bits(),
                _ => float_bits(x, f, rounding),
            };
        }
        let v = match self {
            Value::Int(v, _) => v,
            Value::Bool(b) => i128::from(b),
            Value::Float(x, _) => float_to_int(x, ty),
        };
        let v = if saturate {
            let (lo, hi) = int_range(ty);
            v.clamp(lo, hi)
        } else {
            v
        };
        (v as u64) & mask
    }

    /// The C cast `(ty) value` of a typed local (`UD width = ...;`): the value as an element
    /// of `ty` holds it (round to nearest even for floats).
    pub fn cast(self, ty: DataType) -> Value {
        if ty == DataType::Bool {
            return Value::Bool(self.truth());
        }
        Value::from_bits(self.to_bits(ty, false, Rounding::NearestEven), ty)
    }

    /// The type of the value (`BOOL` for a truth value).
    #[inline]
    pub fn ty(self) -> DataType {
        match self {
            Value::Int(_, t) | Value::Float(_, t) => t,
            Value::Bool(_) => DataType::Bool,
        }
    }

    /// The value as a C condition: non-zero is true.
    pub fn truth(self) -> bool {
        match self {
            Value::Int(v, _) => v != 0,
            Value::Float(x, _) => x != 0.0,
            Value::Bool(b) => b,
        }
    }

    /// The value as a float (integers rounded to nearest, truth values 0.0 or 1.0).
    #[inline]
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(v, _) => v as f64,
            Value::Float(x, _) => x,
            Value::Bool(b) => f64::from(u8::from(b)),
        }
    }

    /// The value as an integer (floats toward zero, saturated to `i128`).
    #[inline]
    pub fn as_i128(self) -> i128 {
        match self {
            Value::Int(v, _) => v,
            Value::Float(x, _) if x.is_nan() => 0,
            Value::Float(x, _) => trunc(x) as i128,
            Value::Bool(b) => i128::from(b),
        }
    }

    /// A C integer literal: `int` when it fits, else `unsigned int`, else the 64-bit types,
    /// as C types an unsuffixed hex literal.
    pub fn literal(v: u64) -> Value {
        let ty = if v <= i32::MAX as u64 {
            DataType::D
        } else if v <= u64::from(u32::MAX) {
            DataType::Ud
        } else if v <= i64::MAX as u64 {
            DataType::Q
        } else {
            DataType::Uq
        };
        Value::Int(i128::from(v), ty)
    }

    /// The bits of the value as its type holds them: an integer two's complement (exact), a
    /// float its encoding.
    fn raw_bits(self) -> i128 {
        match self {
            Value::Int(v, _) => v,
            Value::Float(_, t) => i128::from(self.to_bits(t, false, Rounding::NearestEven)),
            Value::Bool(b) => i128::from(b),
        }
    }

    /// `e[bit]` of the pseudo-code: bit `bit` of the element (0 or 1, an `int`); bits past the
    /// type's width are its sign (or 0).
    pub fn bit(self, bit: Value) -> Value {
        let n = bit.as_i128().clamp(0, 127) as u32;
        Value::Int((self.raw_bits() >> n) & 1, DataType::D)
    }

    /// `e[hi:lo]` of the pseudo-code (`src1[i][15:8]`): bits `hi` down to `lo` of the element,
    /// sign-extended when its type is signed, zero-extended when unsigned, typed as the integer
    /// type of that width and signedness (DP4A's bytes are B for D, UB for UD).
    pub fn bits(self, hi: u32, lo: u32) -> Value {
        let (hi, lo) = (hi.min(127), lo.min(hi));
        let width = hi - lo + 1;
        let unsigned = is_unsigned(self.ty()) || self.ty() == DataType::Bool;
        let field = (self.raw_bits() >> lo) & ((1i128 << width) - 1);
        let v = if !unsigned && (field >> (width - 1)) & 1 != 0 {
            field - (1i128 << width)
        } else {
            field
        };
        let ty = match (width, unsigned) {
            (..=8, true) => DataType::Ub,
            (..=8, false) => DataType::B,
            (..=16, true) => DataType::Uw,
            (..=16, false) => DataType::W,
            (..=32, true) => DataType::Ud,
            (..=32, false) => DataType::D,
            (_, true) => DataType::Uq,
            (_, false) => DataType::Q,
        };
        Value::Int(v, ty)
    }

    /// The value with bit `bit` set to the low bit of `to` (`dst[i][idx] = ...`, an element
    /// built bit by bit).
    pub fn with_bit(self, bit: Value, to: Value) -> Value {
        let n = bit.as_i128().clamp(0, 126) as u32;
        let b = to.raw_bits() & 1;
        let ty = int_ty(self);
        Value::Int((self.raw_bits() & !(1i128 << n)) | (b << n), ty)
    }

    /// A lane number as a value (`1 << i`).
    pub fn lane(i: u32) -> Value {
        Value::Int(i128::from(i), DataType::D)
    }

    /// `a < b` and the other relational operators: exact, in the common type.
    pub fn less(self, rhs: Value) -> Value {
        Value::Bool(compare(self, rhs).is_some_and(|o| o.is_lt()))
    }
    pub fn less_eq(self, rhs: Value) -> Value {
        Value::Bool(compare(self, rhs).is_some_and(|o| o.is_le()))
    }
    pub fn greater(self, rhs: Value) -> Value {
        Value::Bool(compare(self, rhs).is_some_and(|o| o.is_gt()))
    }
    pub fn greater_eq(self, rhs: Value) -> Value {
        Value::Bool(compare(self, rhs).is_some_and(|o| o.is_ge()))
    }
    pub fn equal(self, rhs: Value) -> Value {
        Value::Bool(compare(self, rhs).is_some_and(|o| o.is_eq()))
    }
    /// `a != b`: true also when either is NaN (unordered).
    pub fn not_equal(self, rhs: Value) -> Value {
        Value::Bool(compare(self, rhs).is_none_or(|o| o.is_ne()))
    }
    /// `!a`.
    pub fn logical_not(self) -> Value {
        Value::Bool(!self.truth())
    }
    /// A truth value as C's `bool`.
    pub fn from_bool(b: bool) -> Value {
        Value::Bool(b)
    }
}

/// The ordering of two values; `None` when a NaN makes them unordered.
fn compare(a: Value, b: Value) -> Option<core::cmp::Ordering> {
    match (a, b) {
        (Value::Float(..), _) | (_, Value::Float(..)) => a.as_f64().partial_cmp(&b.as_f64()),
        _ => {
            // C compares in the common type: a negative value meets an unsigned one as its
            // two's complement in that width (`-1 == 0xFFFFFFFF` of D and UD, FBH.md).
            let ty = promote(a.ty(), b.ty());
            let fit = |v: i128| {
                if is_unsigned(ty) && v < 0 {
                    v & ((1i128 << int_bits(ty)) - 1)
                } else {
                    v
                }
            };
            Some(fit(a.as_i128()).cmp(&fit(b.as_i128())))
        }
    }
}

/// C's usual arithmetic conversions on vISA types: the wider float wins over any integer;
/// integers narrower than a dword promote to D ("integer promotion"); of two dword or qword
/// integers, the wider, and unsigned at equal width. A table of `promotion` by the types'
/// 4-bit encodings: every operator of every lane asks it.
#[inline]
pub fn promote(a: DataType, b: DataType) -> DataType {
    PROMOTE[a as usize & 15][b as usize & 15]
}

const PROMOTE: [[DataType; 16]; 16] = {
    let mut t = [[DataType::D; 16]; 16];
    let mut i = 0;
    while i < DataType::ALL.len() && i < 16 {
        let mut j = 0;
        while j < DataType::ALL.len() && j < 16 {
            let (a, b) = (DataType::ALL[i], DataType::ALL[j]);
            t[a as usize & 15][b as usize & 15] = promotion(a, b);
            j += 1;
        }
        i += 1;
    }
    t
};

/// The rule [`promote`] tabulates.
const fn promotion(a: DataType, b: DataType) -> DataType {
    use DataType as T;
    const fn float_rank(t: DataType) -> u8 {
        match t {
            T::Df => 3,
            T::F => 2,
            T::Hf | T::Bf => 1,
            _ => 0,
        }
    }
    const fn int_rank(t: DataType) -> u8 {
        match t {
            T::Uq => 4,
            T::Q => 3,
            T::Ud | T::Uv | T::Vf => 2,
            _ => 1,
        }
    }
    let (fa, fb) = (float_rank(a), float_rank(b));
    if fa > 0 || fb > 0 {
        return if fa >= fb { a } else { b };
    }
    let (ia, ib) = (int_rank(a), int_rank(b));
    match if ia > ib { ia } else { ib } {
        4 => T::Uq,
        3 => T::Q,
        2 => T::Ud,
        _ => T::D,
    }
}

/// One operand's promotion alone (`~a`, `-a`, shifts take the left operand's).
#[inline]
fn promote1(a: DataType) -> DataType {
    promote(a, DataType::D)
}

#[inline]
fn arith(a: Value, b: Value, int: fn(i128, i128) -> i128, float: fn(f64, f64) -> f64) -> Value {
    let ty = promote(a.ty(), b.ty());
    if is_float(ty) {
        Value::Float(float(a.as_f64(), b.as_f64()), ty)
    } else {
        Value::Int(int(a.as_i128(), b.as_i128()), ty)
    }
}

impl ops::Add for Value {
    type Output = Value;
    #[inline]
    fn add(self, rhs: Value) -> Value {
        arith(self, rhs, i128::wrapping_add, |a, b| a + b)
    }
}

impl ops::Sub for Value {
    type Output = Value;
    #[inline]
    fn sub(self, rhs: Value) -> Value {
        arith(self, rhs, i128::wrapping_sub, |a, b| a - b)
    }
}

impl ops::Mul for Value {
    type Output = Value;
    #[inline]
    fn mul(self, rhs: Value) -> Value {
        arith(self, rhs, i128::wrapping_mul, |a, b| a * b)
    }
}

impl ops::Div for Value {
    type Output = Value;
    /// Integer division truncates toward zero, as C's; a division by zero, which the docs
    /// leave undefined, gives all ones (-1).
    fn div(self, rhs: Value) -> Value {
        arith(
            self,
            rhs,
            |a, b| a.checked_div(b).unwrap_or(-1),
            |a, b| a / b,
        )
    }
}

impl ops::Rem for Value {
    type Output = Value;
    /// C's `%`: the sign of the dividend; by zero (undefined in the docs) gives the dividend.
    fn rem(self, rhs: Value) -> Value {
        arith(
            self,
            rhs,
            |a, b| a.checked_rem(b).unwrap_or(a),
            |a, b| a % b,
        )
    }
}

#[inline]
fn bitwise(a: Value, b: Value, op: fn(i128, i128) -> i128) -> Value {
    Value::Int(op(a.as_i128(), b.as_i128()), promote(int_ty(a), int_ty(b)))
}

/// The type an operand of a bitwise operator has: floats have none in C; their value is used.
#[inline]
fn int_ty(v: Value) -> DataType {
    if is_float(v.ty()) {
        DataType::D
    } else {
        v.ty()
    }
}

impl ops::BitAnd for Value {
    type Output = Value;
    #[inline]
    fn bitand(self, rhs: Value) -> Value {
        bitwise(self, rhs, |a, b| a & b)
    }
}

impl ops::BitOr for Value {
    type Output = Value;
    #[inline]
    fn bitor(self, rhs: Value) -> Value {
        bitwise(self, rhs, |a, b| a | b)
    }
}

impl ops::BitXor for Value {
    type Output = Value;
    #[inline]
    fn bitxor(self, rhs: Value) -> Value {
        bitwise(self, rhs, |a, b| a ^ b)
    }
}

/// The shift count: its low bits, 5 for a left operand of up to 32 bits, 6 for 64 bits (a
/// C shift by the width or more is undefined; this is what the hardware's shifters keep).
#[inline]
fn shift_count(ty: DataType, count: Value) -> u32 {
    let mask = if int_bits(ty) == 64 { 63 } else { 31 };
    (count.as_i128() & mask) as u32
}

impl ops::Shl for Value {
    type Output = Value;
    #[inline]
    fn shl(self, rhs: Value) -> Value {
        let ty = promote1(int_ty(self));
        Value::Int(self.as_i128().wrapping_shl(shift_count(ty, rhs)), ty)
    }
}

impl ops::Shr for Value {
    type Output = Value;
    /// Arithmetic for a signed left operand, logical for an unsigned one (C's, on its
    /// promoted type); an exact negative value of an unsigned type is taken modulo its width.
    #[inline]
    fn shr(self, rhs: Value) -> Value {
        let ty = promote1(int_ty(self));
        let v = self.as_i128();
        let v = if is_unsigned(ty) && v < 0 {
            v & ((1i128 << int_bits(ty)) - 1)
        } else {
            v
        };
        Value::Int(v >> shift_count(ty, rhs), ty)
    }
}

impl ops::Not for Value {
    type Output = Value;
    /// `~a` (bitwise complement, exact: the low bits are the complement's in any width).
    #[inline]
    fn not(self) -> Value {
        Value::Int(!self.as_i128(), promote1(int_ty(self)))
    }
}

impl ops::Neg for Value {
    type Output = Value;
    #[inline]
    fn neg(self) -> Value {
        match self {
            Value::Float(x, t) => Value::Float(-x, t),
            v => Value::Int(v.as_i128().wrapping_neg(), promote1(v.ty())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DataType as T;

    fn f32_bits(x: f64, r: Rounding) -> u32 {
        Value::Float(x, T::Df).to_bits(T::F, false, r) as u32
    }

    #[test]
    fn nan_bits_survive_a_round_trip() {
        let r = Rounding::NearestEven;
        for (bits, ty) in [
            (0xffff_ffffu64, T::F),
            (0x7fc0_0001, T::F),
            (0xffff, T::Hf),
            (0xfff8_0000_0000_0001, T::Df),
        ] {
            let v = Value::from_bits(bits, ty);
            assert!(v.as_f64().is_nan());
            assert_eq!(v.to_bits(ty, false, r), bits, "{bits:#x} {ty:?}");
        }
        // A signalling NaN comes back quiet.
        assert_eq!(
            Value::from_bits(0x7f80_0001, T::F).to_bits(T::F, false, r),
            0x7fc0_0001
        );
    }

    #[test]
    fn comparisons_meet_in_the_common_type() {
        // C: `-1 == 0xFFFFFFFF` with D and UD (0xFFFFFFFF is an unsigned int literal).
        let minus_one = Value::Int(-1, T::D);
        assert_eq!(
            minus_one.equal(Value::literal(0xFFFF_FFFF)),
            Value::Bool(true)
        );
        assert_eq!(minus_one.less(Value::literal(0)), Value::Bool(true));
        assert_eq!(minus_one.greater(Value::Int(1, T::Ud)), Value::Bool(true));
        assert_eq!(
            Value::Int(-1, T::Q).equal(Value::literal(0xFFFF_FFFF)),
            Value::Bool(false)
        );
        assert_eq!(
            Value::Int(-2, T::W).less(Value::Int(3, T::Uw)),
            Value::Bool(true)
        );
    }

    #[test]
    fn integers_truncate_or_saturate_at_write() {
        let v = Value::Int(0x1_0000_0005, T::Q);
        assert_eq!(v.to_bits(T::Ud, false, Rounding::NearestEven), 5);
        assert_eq!(v.to_bits(T::Ud, true, Rounding::NearestEven), 0xffff_ffff);
        assert_eq!(
            Value::Int(-1, T::D).to_bits(T::Ub, false, Rounding::NearestEven),
            0xff
        );
        assert_eq!(
            Value::Int(-1, T::D).to_bits(T::Ub, true, Rounding::NearestEven),
            0
        );
        assert_eq!(
            Value::Int(-200, T::D).to_bits(T::B, true, Rounding::NearestEven),
            0x80
        );
    }

    #[test]
    fn from_bits_extends_as_the_type_says() {
        assert_eq!(Value::from_bits(0xff, T::B), Value::Int(-1, T::B));
        assert_eq!(Value::from_bits(0xff, T::Ub), Value::Int(255, T::Ub));
        assert_eq!(Value::from_bits(0x3c00, T::Hf), Value::Float(1.0, T::Hf));
        assert_eq!(
            Value::from_bits(0x0001, T::Hf),
            Value::Float(1.0 / 16_777_216.0, T::Hf)
        );
        assert_eq!(Value::from_bits(0x3f80, T::Bf), Value::Float(1.0, T::Bf));
        assert_eq!(
            Value::from_bits(0xc000_0000, T::F),
            Value::Float(-2.0, T::F)
        );
    }

    #[test]
    fn float_to_int_truncates_and_clamps() {
        let r = Rounding::NearestEven;
        assert_eq!(
            Value::Float(-2.7, T::F).to_bits(T::D, false, r),
            (-2i32) as u32 as u64
        );
        assert_eq!(
            Value::Float(3e10, T::F).to_bits(T::D, false, r),
            0x7fff_ffff
        );
        assert_eq!(Value::Float(-5.0, T::F).to_bits(T::Ud, false, r), 0);
        assert_eq!(Value::Float(f64::NAN, T::F).to_bits(T::D, false, r), 0);
    }

    #[test]
    fn rounding_modes_of_cr0() {
        // 1 + 2^-24 lies halfway between two floats: RTNE keeps 1.0 (even), RU goes up.
        let x = 1.0 + 1.0 / 16_777_216.0;
        assert_eq!(f32_bits(x, Rounding::NearestEven), 0x3f80_0000);
        assert_eq!(f32_bits(x, Rounding::Up), 0x3f80_0001);
        assert_eq!(f32_bits(-x, Rounding::Down), 0xbf80_0001);
        assert_eq!(f32_bits(-x, Rounding::TowardZero), 0xbf80_0000);
        assert_eq!(f32_bits(1e300, Rounding::TowardZero), 0x7f7f_ffff);
        assert_eq!(f32_bits(1e300, Rounding::NearestEven), 0x7f80_0000);
        assert_eq!(Rounding::from_cr0(0x30), Rounding::TowardZero);
        // An f32 computed in f64 and rounded once agrees with f32 arithmetic.
        let (a, b) = (0.1f32, 0.2f32);
        let sum = Value::Float(f64::from(a), T::F) + Value::Float(f64::from(b), T::F);
        assert_eq!(
            sum.to_bits(T::F, false, Rounding::NearestEven),
            u64::from((a + b).to_bits())
        );
        // Integers round from their exact value.
        let big = Value::Int((1 << 60) + 1, T::Q);
        assert_eq!(big.to_bits(T::F, false, Rounding::Up), 0x5d80_0001);
    }

    #[test]
    fn saturation_of_floats_clamps_to_unit_interval() {
        let r = Rounding::NearestEven;
        assert_eq!(Value::Float(2.0, T::F).to_bits(T::F, true, r), 0x3f80_0000);
        assert_eq!(Value::Float(-2.0, T::F).to_bits(T::F, true, r), 0);
        assert_eq!(Value::Float(f64::NAN, T::F).to_bits(T::F, true, r), 0);
        assert_eq!(Value::Float(0.5, T::F).to_bits(T::Hf, true, r), 0x3800);
    }

    #[test]
    fn c_operators_with_promotions() {
        let ud = |v| Value::Int(v, T::Ud);
        let d = |v| Value::Int(v, T::D);
        assert_eq!(ud(0xffff_ffff) + ud(1), Value::Int(0x1_0000_0000, T::Ud));
        assert_eq!((d(-8) >> d(1)).as_i128(), -4);
        assert_eq!((ud(0x8000_0000) >> d(31)).as_i128(), 1);
        assert_eq!((d(1) << d(33)).as_i128(), 2);
        assert_eq!(
            (!ud(0)).to_bits(T::Ud, false, Rounding::NearestEven),
            0xffff_ffff
        );
        assert_eq!(Value::Int(3, T::W) + Value::Int(4, T::Ub), d(7));
        assert_eq!((d(7) / d(-2)).as_i128(), -3);
        assert_eq!((d(-7) % d(2)).as_i128(), -1);
        // C's comparison in the common type: -1 meets 0u as 0xFFFFFFFF.
        assert_eq!(d(-1).less(ud(0)), Value::Bool(false));
        assert_eq!(d(-1).less(d(0)), Value::Bool(true));
        let f = Value::Float(1.5, T::F) * d(2);
        assert_eq!(f, Value::Float(3.0, T::F));
        assert_eq!(Value::literal(0xffff_ffff).ty(), T::Ud);
        assert_eq!(
            Value::Float(f64::NAN, T::F).not_equal(d(0)),
            Value::Bool(true)
        );
    }

    #[test]
    fn rounding_helpers() {
        assert_eq!(floor(-1.5), -2.0);
        assert_eq!(ceil(-1.5), -1.0);
        assert_eq!(trunc(-1.5), -1.0);
        assert_eq!(floor(3.0), 3.0);
        assert_eq!(sqrt(2.0).to_bits(), 0x3ff6_a09e_667f_3bcd);
        assert_eq!(sqrt(16.0), 4.0);
        assert!(sqrt(1e-310) * sqrt(1e-310) > 0.0);
        assert_eq!(Value::Float(1.0, T::F).cast(T::Ud), Value::Int(1, T::Ud));
    }

    #[test]
    fn bits_of_elements() {
        let d = Value::Int(-2, T::D); // 0xffff_fffe
        assert_eq!(d.bit(Value::literal(0)), Value::Int(0, T::D));
        assert_eq!(d.bit(Value::literal(31)), Value::Int(1, T::D));
        let x = Value::Int(0x80_7f_01_ff, T::Ud);
        // Unsigned: zero-extended bytes, typed UB.
        assert_eq!(x.bits(7, 0), Value::Int(0xff, T::Ub));
        assert_eq!(x.bits(31, 24), Value::Int(0x80, T::Ub));
        // Signed: the same bits sign-extended, typed B.
        let y = Value::Int(0x80_7f_01_ff_u32 as i32 as i128, T::D);
        assert_eq!(y.bits(7, 0), Value::Int(-1, T::B));
        assert_eq!(y.bits(23, 16), Value::Int(0x7f, T::B));
        assert_eq!(y.bits(31, 24), Value::Int(-128, T::B));
        assert_eq!(y.bits(15, 0), Value::Int(0x01ff, T::W));
        // Built bit by bit.
        let mut v = Value::literal(0);
        for (n, b) in [(0, 1), (3, 1), (31, 1), (3, 0)] {
            v = v.with_bit(Value::literal(n), Value::literal(b));
        }
        assert_eq!(v.as_i128(), 0x8000_0001);
    }
}
