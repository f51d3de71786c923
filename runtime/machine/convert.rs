//! Element bits ↔ [`Value`] as the machine reads a source element and writes a destination
//! element: the data types chapter's conversions are the runtime's ([`Value::from_bits`],
//! [`Value::to_bits`]: integers extend, wrap or clamp, floats round by `%cr0`'s rounding mode,
//! floats to integers toward zero and clamped); the machine adds what `%cr0` says beyond the
//! rounding mode: denormals are flushed to a signed zero unless `%cr0` keeps them (bit 6 DF,
//! bit 7 F, bit 10 HF; BF follows F), on results here and on sources in `thread`.

use crate::runtime::value::Rounding;
use crate::runtime::{DataType, Value};

/// What `%cr0` says about float results (object-format chapter, `V14(%cr0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatMode {
    /// Bits 4-5, "FPU Rounding mode".
    pub rounding: Rounding,
    /// Denormals kept (the `%cr0` bit set) for DF, F and HF.
    pub denorm_df: bool,
    pub denorm_f: bool,
    pub denorm_hf: bool,
}

impl FloatMode {
    /// The mode `%cr0` holds.
    pub fn from_cr0(cr0: u32) -> FloatMode {
        FloatMode {
            rounding: Rounding::from_cr0(cr0),
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

pub fn is_float(ty: DataType) -> bool {
    matches!(ty, DataType::F | DataType::Df | DataType::Hf | DataType::Bf)
}

/// The value of an element's bits (the low `ty.size()` bytes of `bits`).
#[inline(always)]
pub fn from_bits(bits: u64, ty: DataType) -> Value {
    // Integer types, the common case, inline; the rest as the runtime converts.
    match ty {
        DataType::Ud => Value::Int(i128::from(bits as u32), ty),
        DataType::D => Value::Int(i128::from(bits as u32 as i32), ty),
        DataType::Uw => Value::Int(i128::from(bits as u16), ty),
        DataType::W => Value::Int(i128::from(bits as u16 as i16), ty),
        DataType::F => Value::Float(f64::from(f32::from_bits(bits as u32)), ty),
        _ => Value::from_bits(bits, ty),
    }
}

/// (exponent bits, fraction bits) of a float type.
fn format(ty: DataType) -> Option<(u32, u32)> {
    match ty {
        DataType::F => Some((8, 23)),
        DataType::Df => Some((11, 52)),
        DataType::Hf => Some((5, 10)),
        DataType::Bf => Some((8, 7)),
        _ => None,
    }
}

/// The bits of `v` as an element of type `ty`, denormal results flushed as `%cr0` says.
pub fn to_bits(v: Value, ty: DataType, saturate: bool, mode: FloatMode) -> u64 {
    let bits = v.to_bits(ty, saturate, mode.rounding);
    match format(ty) {
        Some((e, f)) if !mode.keeps_denormals(ty) => {
            let exponent = bits >> f & ((1 << e) - 1);
            let fraction = bits & ((1 << f) - 1);
            if exponent == 0 && fraction != 0 {
                bits & 1 << (e + f)
            } else {
                bits
            }
        }
        _ => bits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2^e (exact).
    fn pow2(e: i32) -> f64 {
        f64::from_bits(((1023 + e) as u64) << 52)
    }

    const NEAREST: FloatMode = FloatMode {
        rounding: Rounding::NearestEven,
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
            to_bits(v, DataType::F, false, with(Rounding::Up)),
            0x3f80_0001
        );
        assert_eq!(
            to_bits(v, DataType::F, false, with(Rounding::TowardZero)),
            0x3f80_0000
        );
        let n = Value::Float(-x, DataType::Df);
        assert_eq!(
            to_bits(n, DataType::F, false, with(Rounding::Down)),
            0xbf80_0001
        );
        assert_eq!(
            to_bits(n, DataType::F, false, with(Rounding::Up)),
            0xbf80_0000
        );
        // Overflow: RTNE to infinity, RTZ to the largest finite.
        let big = Value::Float(1e39, DataType::Df);
        assert_eq!(to_bits(big, DataType::F, false, NEAREST), 0x7f80_0000);
        assert_eq!(
            to_bits(big, DataType::F, false, with(Rounding::TowardZero)),
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
        assert!(m.denorm_df && m.denorm_f && m.denorm_hf && m.rounding == Rounding::NearestEven);
    }
}
