//! Element bits ↔ [`Value`]: the data types chapter's conversions (`2_datatypes.md`) as the
//! machine applies them when it reads a source element and writes a destination element.
//!
//! The one place the machine converts: reading takes the element's type (signed types
//! sign-extend, floats widen exactly to `f64`); writing fits a value to the destination type:
//! integers wrap to the type's width, or clamp with saturation; floats round by `%cr0`'s
//! rounding mode (bits 4-5), clamp to [0.0, 1.0] with saturation, and flush denormals to zero
//! unless `%cr0` allows them (bit 6 DF, bit 7 F, bit 10 HF); a float written to an integer
//! type is rounded toward zero and clamped to the type's range (NaN gives 0), as the GEN EU
//! converts.

use crate::runtime::{DataType, Value};

/// `%cr0` bits 4-5, "FPU Rounding mode" (object-format chapter, predefined variables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `00b`: round to nearest or even.
    Rtne,
    /// `01b`: round up, toward +inf.
    Ru,
    /// `10b`: round down, toward -inf.
    Rd,
    /// `11b`: round toward zero.
    Rtz,
}

/// What `%cr0` says about float results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatMode {
    pub rounding: Rounding,
    /// Denormals kept (the `%cr0` bit set) for DF, F and HF (BF follows F).
    pub denorm_df: bool,
    pub denorm_f: bool,
    pub denorm_hf: bool,
}

impl FloatMode {
    /// The mode `%cr0` holds.
    pub fn from_cr0(cr0: u32) -> FloatMode {
        FloatMode {
            rounding: match cr0 >> 4 & 3 {
                0 => Rounding::Rtne,
                1 => Rounding::Ru,
                2 => Rounding::Rd,
                _ => Rounding::Rtz,
            },
            denorm_df: cr0 & 1 << 6 != 0,
            denorm_f: cr0 & 1 << 7 != 0,
            denorm_hf: cr0 & 1 << 10 != 0,
        }
    }

    /// Are denormals of `ty` kept?
    pub fn keeps_denormals(self, ty: DataType) -> bool {
        match ty {
            DataType::Df => self.denorm_df,
            DataType::Hf => self.denorm_hf,
            _ => self.denorm_f,
        }
    }
}

/// (exponent bits, mantissa bits) of a float type other than DF.
fn format(ty: DataType) -> Option<(u32, u32)> {
    match ty {
        DataType::F => Some((8, 23)),
        DataType::Hf => Some((5, 10)),
        DataType::Bf => Some((8, 7)),
        _ => None,
    }
}

pub fn is_float(ty: DataType) -> bool {
    matches!(ty, DataType::F | DataType::Df | DataType::Hf | DataType::Bf)
}

pub fn is_signed(ty: DataType) -> bool {
    matches!(ty, DataType::B | DataType::W | DataType::D | DataType::Q)
}

/// The value of an element's bits (the low `ty.size()` bytes of `bits`).
#[inline]
pub fn from_bits(bits: u64, ty: DataType) -> Value {
    match ty {
        DataType::Ud => Value::Int(i128::from(bits as u32), ty),
        DataType::D => Value::Int(i128::from(bits as u32 as i32), ty),
        DataType::Uw => Value::Int(i128::from(bits as u16), ty),
        DataType::W => Value::Int(i128::from(bits as u16 as i16), ty),
        DataType::Ub => Value::Int(i128::from(bits as u8), ty),
        DataType::B => Value::Int(i128::from(bits as u8 as i8), ty),
        DataType::Uq => Value::Int(i128::from(bits), ty),
        DataType::Q => Value::Int(i128::from(bits as i64), ty),
        DataType::F => Value::Float(f64::from(f32::from_bits(bits as u32)), ty),
        DataType::Df => Value::Float(f64::from_bits(bits), ty),
        DataType::Hf | DataType::Bf => Value::Float(small_float(bits, ty), ty),
        DataType::Bool => Value::Bool(bits & 1 != 0),
        // Packed vector immediates are unpacked by the reader; as a whole they are UD.
        DataType::V | DataType::Uv | DataType::Vf => Value::Int(i128::from(bits as u32), ty),
    }
}

/// HF or BF bits as `f64` (exact).
fn small_float(bits: u64, ty: DataType) -> f64 {
    if ty == DataType::Bf {
        return f64::from(f32::from_bits((bits as u32 & 0xffff) << 16));
    }
    let h = bits as u32 & 0xffff;
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = h >> 10 & 0x1f;
    let m = f64::from(h & 0x3ff);
    sign * match e {
        0 => m * pow2(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * pow2(e as i32 - 25),
    }
}

/// 2^e for the exponents of these formats (exact).
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// The bits of `v` as an element of type `ty`.
pub fn to_bits(v: Value, ty: DataType, saturate: bool, mode: FloatMode) -> u64 {
    match v {
        Value::Bool(b) => int_bits(i128::from(b), ty, saturate, mode),
        Value::Int(i, _) => int_bits(i, ty, saturate, mode),
        Value::Float(f, _) => float_bits(f, ty, saturate, mode),
    }
}

fn mask(ty: DataType) -> u64 {
    match ty.size() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}

fn range(ty: DataType) -> (i128, i128) {
    let bits = 8 * ty.size() as u32;
    if is_signed(ty) {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn int_bits(i: i128, ty: DataType, saturate: bool, mode: FloatMode) -> u64 {
    if is_float(ty) {
        return float_bits(i as f64, ty, saturate, mode);
    }
    let i = if saturate {
        let (lo, hi) = range(ty);
        i.clamp(lo, hi)
    } else {
        i
    };
    (i as u64) & mask(ty)
}

fn float_bits(f: f64, ty: DataType, saturate: bool, mode: FloatMode) -> u64 {
    if !is_float(ty) {
        if f.is_nan() {
            return 0;
        }
        let (lo, hi) = range(ty);
        let t = libm::trunc(f);
        let i = if t <= lo as f64 {
            lo
        } else if t >= hi as f64 {
            hi
        } else {
            t as i128
        };
        return (i as u64) & mask(ty);
    }
    let f = if saturate {
        if f.is_nan() {
            0.0
        } else {
            f.clamp(0.0, 1.0)
        }
    } else {
        f
    };
    let flush = !mode.keeps_denormals(ty);
    match format(ty) {
        None => {
            let f = if flush && f != 0.0 && f.abs() < f64::MIN_POSITIVE {
                0.0f64.copysign(f)
            } else {
                f
            };
            f.to_bits()
        }
        Some((e, m)) => round_to(f, e, m, mode.rounding, flush),
    }
}

/// `x` rounded to the binary format with `ebits` exponent and `mbits` mantissa bits, by
/// `rounding`; its bits. Subnormal results are flushed to a signed zero when `flush`.
pub fn round_to(x: f64, ebits: u32, mbits: u32, rounding: Rounding, flush: bool) -> u64 {
    let sign = u64::from(x.is_sign_negative()) << (ebits + mbits);
    let exp_all = (1u64 << ebits) - 1;
    if x.is_nan() {
        // The quiet NaN with the top mantissa bit.
        return sign | exp_all << mbits | 1 << (mbits - 1);
    }
    if x.is_infinite() {
        return sign | exp_all << mbits;
    }
    let a = x.abs();
    let bias = (1i32 << (ebits - 1)) - 1;
    let emin = 1 - bias;
    let emax = bias;
    // Exponent of `a` (f64 subnormals are far below any target's range).
    let e = if a == 0.0 {
        emin
    } else {
        ((a.to_bits() >> 52) as i32 - 1023).max(emin)
    };
    let quantum = pow2(e - mbits as i32);
    let q = a / quantum;
    let up = match rounding {
        Rounding::Rtne => libm::rint(q),
        Rounding::Rtz => libm::trunc(q),
        // Magnitudes: up for +x rounds away from zero, for -x toward it.
        Rounding::Ru if x >= 0.0 => libm::ceil(q),
        Rounding::Ru => libm::trunc(q),
        Rounding::Rd if x >= 0.0 => libm::trunc(q),
        Rounding::Rd => libm::ceil(q),
    };
    let r = up * quantum;
    let max = (2.0 - pow2(-(mbits as i32))) * pow2(emax);
    if r > max {
        let to_inf = match rounding {
            Rounding::Rtne => true,
            Rounding::Rtz => false,
            Rounding::Ru => x > 0.0,
            Rounding::Rd => x < 0.0,
        };
        let mag = if to_inf {
            exp_all << mbits
        } else {
            (exp_all - 1) << mbits | ((1u64 << mbits) - 1)
        };
        return sign | mag;
    }
    if r < pow2(emin) {
        if flush {
            return sign;
        }
        return sign | (r / pow2(emin - mbits as i32)) as u64;
    }
    let re = (r.to_bits() >> 52) as i32 - 1023;
    let mant = (r / pow2(re - mbits as i32)) as u64 - (1u64 << mbits);
    sign | ((re + bias) as u64) << mbits | mant
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEAREST: FloatMode = FloatMode {
        rounding: Rounding::Rtne,
        denorm_df: true,
        denorm_f: true,
        denorm_hf: true,
    };

    fn with(rounding: Rounding) -> FloatMode {
        FloatMode {
            rounding,
            ..NEAREST
        }
    }

    #[test]
    fn integers_extend_as_their_type_says_and_wrap_or_saturate() {
        assert_eq!(
            from_bits(0xffff_fffe, DataType::D),
            Value::Int(-2, DataType::D)
        );
        assert_eq!(
            from_bits(0xffff_fffe, DataType::Ud),
            Value::Int(0xffff_fffe, DataType::Ud)
        );
        assert_eq!(from_bits(0x80, DataType::B), Value::Int(-128, DataType::B));
        // 300 into UB: wraps to 44, saturates to 255; -5 into UW saturates to 0.
        assert_eq!(
            to_bits(Value::Int(300, DataType::D), DataType::Ub, false, NEAREST),
            44
        );
        assert_eq!(
            to_bits(Value::Int(300, DataType::D), DataType::Ub, true, NEAREST),
            255
        );
        assert_eq!(
            to_bits(Value::Int(-5, DataType::D), DataType::Uw, true, NEAREST),
            0
        );
        assert_eq!(
            to_bits(Value::Int(-1, DataType::D), DataType::Uq, false, NEAREST),
            u64::MAX
        );
    }

    #[test]
    fn floats_to_integers_truncate_and_clamp() {
        let f = |x: f64| Value::Float(x, DataType::F);
        assert_eq!(
            to_bits(f(-2.7), DataType::D, false, NEAREST),
            (-2i32) as u32 as u64
        );
        assert_eq!(
            to_bits(f(3e10), DataType::D, false, NEAREST),
            i32::MAX as u64
        );
        assert_eq!(to_bits(f(f64::NAN), DataType::Ud, false, NEAREST), 0);
        assert_eq!(to_bits(f(-1.0), DataType::Ud, false, NEAREST), 0);
    }

    #[test]
    fn f32_rounding_modes_follow_cr0() {
        // 1 + 2^-24 lies halfway between 1 and the next f32 (1 + 2^-23): RTNE gives 1 (even),
        // RU the next one; -(1 + 2^-24) under RD goes away from zero.
        let x = 1.0 + pow2(-24);
        let v = Value::Float(x, DataType::Df);
        assert_eq!(to_bits(v, DataType::F, false, NEAREST), 0x3f80_0000);
        assert_eq!(
            to_bits(v, DataType::F, false, with(Rounding::Ru)),
            0x3f80_0001
        );
        assert_eq!(
            to_bits(v, DataType::F, false, with(Rounding::Rtz)),
            0x3f80_0000
        );
        let n = Value::Float(-x, DataType::Df);
        assert_eq!(
            to_bits(n, DataType::F, false, with(Rounding::Rd)),
            0xbf80_0001
        );
        assert_eq!(
            to_bits(n, DataType::F, false, with(Rounding::Ru)),
            0xbf80_0000
        );
        // Overflow: RTNE to infinity, RTZ to the largest finite.
        let big = Value::Float(1e39, DataType::Df);
        assert_eq!(to_bits(big, DataType::F, false, NEAREST), 0x7f80_0000);
        assert_eq!(
            to_bits(big, DataType::F, false, with(Rounding::Rtz)),
            0x7f7f_ffff
        );
        assert_eq!(
            from_bits(0x3fc0_0000, DataType::F),
            Value::Float(1.5, DataType::F)
        );
    }

    #[test]
    fn half_and_bfloat_round_trip_and_round() {
        // HF 1.0 = 0x3c00, 65504 = 0x7bff, smallest subnormal 2^-24 = 0x0001.
        assert_eq!(
            from_bits(0x3c00, DataType::Hf),
            Value::Float(1.0, DataType::Hf)
        );
        assert_eq!(
            from_bits(0x7bff, DataType::Hf),
            Value::Float(65504.0, DataType::Hf)
        );
        assert_eq!(
            from_bits(0x0001, DataType::Hf),
            Value::Float(pow2(-24), DataType::Hf)
        );
        let hf = |x: f64| to_bits(Value::Float(x, DataType::F), DataType::Hf, false, NEAREST);
        assert_eq!(hf(1.0), 0x3c00);
        assert_eq!(hf(-2.0), 0xc000);
        assert_eq!(
            hf(65520.0),
            0x7c00,
            "halfway past the largest rounds to infinity"
        );
        assert_eq!(hf(pow2(-24)), 0x0001);
        assert_eq!(hf(0.1), 0x2e66);
        // BF 1.0 = 0x3f80; 1 + 2^-8 is halfway: ties to even gives 0x3f80.
        let bf = |x: f64| to_bits(Value::Float(x, DataType::F), DataType::Bf, false, NEAREST);
        assert_eq!(bf(1.0), 0x3f80);
        assert_eq!(bf(1.0 + pow2(-8)), 0x3f80);
        assert_eq!(bf(1.0 + 3.0 * pow2(-8)), 0x3f82);
    }

    #[test]
    fn saturation_and_denormal_flush() {
        let v = Value::Float(1.5, DataType::F);
        assert_eq!(to_bits(v, DataType::F, true, NEAREST), 0x3f80_0000);
        let flush = FloatMode::from_cr0(0);
        let tiny = Value::Float(-pow2(-130), DataType::F);
        assert_eq!(to_bits(tiny, DataType::F, false, flush), 0x8000_0000);
        assert_eq!(
            to_bits(tiny, DataType::F, false, NEAREST),
            0x8000_0000 | 1 << 19
        );
        // IGC's prologue `or %cr0 0x4c0` keeps denormals of DF, F and HF.
        let m = FloatMode::from_cr0(0x4c0);
        assert!(m.denorm_df && m.denorm_f && m.denorm_hf && m.rounding == Rounding::Rtne);
    }
}
