//! The named functions of the `## Semantics` pseudo-code, hand-written: the docs call them
//! (`floor(src0[i])`, `carry(src0[i] + src1[i])`) without defining them in code. Each cites the
//! doc line that says what it is. A machine's [`Lanes::call`](crate::runtime::Lanes::call)
//! runs them through [`call`]; a name it does not know (or one this build cannot compute) is
//! `None`, which the machine reports as an error naming the function.
//!
//! Besides the functions the docs name, the generator calls two for fields that act as
//! operators: `rel_op` (CMP's `src0[i] rel_op src1[i]`) and `min/max` (MIN_MAX's
//! `min/max(src0[i], src1[i])`), with the field's raw value as first argument.

use crate::runtime::lanes::Value;
use crate::runtime::value::{ceil, floor, is_float, sqrt};
use crate::runtime::DataType;

/// Every name [`call`] knows, for machines that list what they can run.
pub const NAMES: &[&str] = &[
    "abs",
    "carry",
    "ceil",
    "floor",
    "ieee_sqrt",
    "max",
    "min",
    "min/max",
    "rel_op",
    "sqrt",
];

/// Calls the named function `name` of the pseudo-code on `args`; `None` for a name it does not
/// know or arguments it cannot take.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    match (name, args) {
        // RNDD.md:27 `dst[i] = floor(src0[i])`; FRC.md:27 `src0[i] - floor(src0[i])`: the C
        // library's floor (the largest integer not above).
        ("floor", [x]) => Some(map_float(*x, floor)),
        // RNDU.md:27 `dst[i] = ceil(src0[i])`.
        ("ceil", [x]) => Some(map_float(*x, ceil)),
        // RNDZ.md:28 `abs(src0[i]) < abs(dst[i])`, SAD2.md:26 `abs( src0[i] - src1[i] )`.
        ("abs", [x]) => Some(abs(*x)),
        // SQRT.md:27 `dst[i] = sqrt(src0[i])`, RSQRT.md:27 `1.0 / sqrt(src0[i])`; SQRTM.md:27
        // `ieee_sqrt`: SQRTM.md:39 "IEEE-compliant" square root; the f64 square root rounded
        // once to the destination is correctly rounded for both.
        ("sqrt" | "ieee_sqrt", [x]) => Some(Value::Float(sqrt(x.as_f64()), float_ty(*x))),
        // ADDC.md:40 "stores ... carry into <carry>. Carry will be either 0 or 1": the bit
        // above the 32-bit (UD, the only type ADDC.md:89 allows) sum.
        // The transcendental functions need f64 math core lacks: libm, with the `machine`
        // feature. Each is computed in f64 and rounded once to the destination.
        // SIN.md:27 `sin(src0[i])`, SIN.md:39 "the sine function"; COS.md:27, COS.md:39.
        #[cfg(feature = "machine")]
        ("sin", [x]) => Some(Value::Float(libm::sin(x.as_f64()), float_ty(*x))),
        #[cfg(feature = "machine")]
        ("cos", [x]) => Some(Value::Float(libm::cos(x.as_f64()), float_ty(*x))),
        // EXP.md:39 "base-2 exponential function", LOG.md:39 "base-2 logarithm function"
        // (the pseudo-code's `exp`/`log` are corrected to `exp2`/`log2` by errata; C's
        // natural `exp` and `log` are here for the docs as published).
        #[cfg(feature = "machine")]
        ("exp2", [x]) => Some(Value::Float(libm::exp2(x.as_f64()), float_ty(*x))),
        #[cfg(feature = "machine")]
        ("log2", [x]) => Some(Value::Float(libm::log2(x.as_f64()), float_ty(*x))),
        #[cfg(feature = "machine")]
        ("exp", [x]) => Some(Value::Float(libm::exp(x.as_f64()), float_ty(*x))),
        #[cfg(feature = "machine")]
        ("log", [x]) => Some(Value::Float(libm::log(x.as_f64()), float_ty(*x))),
        // TANH.md (a doc made by erratum TANH-undocumented-opcode) `tanh(src0[i])`.
        #[cfg(feature = "machine")]
        ("tanh", [x]) => Some(Value::Float(libm::tanh(x.as_f64()), float_ty(*x))),
        // SIGM.md (a doc made by erratum SIGM-undocumented-opcode) `sigm(src0[i])`: the sigmoid,
        // 1 / (1 + e^-x), as IGC's library computes it where SIGM is missing.
        #[cfg(feature = "machine")]
        ("sigm", [x]) => Some(Value::Float(
            1.0 / (1.0 + libm::exp(-x.as_f64())),
            float_ty(*x),
        )),
        // POW.md:27 `pow(src0[i], src1[i])`, POW.md:39 "Raises ... <src0> to the power <src1>".
        #[cfg(feature = "machine")]
        ("pow", [x, y]) => Some(Value::Float(
            libm::pow(x.as_f64(), y.as_f64()),
            float_ty(*x),
        )),
        ("carry", [sum]) => Some(Value::Int((sum.as_i128() >> 32) & 1, DataType::Ud)),
        ("min", [a, b]) => Some(min_max(false, *a, *b)),
        ("max", [a, b]) => Some(min_max(true, *a, *b)),
        // MIN_MAX.md:74-77: `Op` Bit[0] 0b0 min, 0b1 max.
        ("min/max", [op, a, b]) => Some(min_max(op.as_i128() & 1 == 1, *a, *b)),
        // CMP.md:78-85: `Rel_op` Bit[2..0] 0b000 EQ, 0b001 NE, 0b010 GT, 0b011 GE, 0b100 LT,
        // 0b101 LE.
        ("rel_op", [op, a, b]) => match op.as_i128() & 7 {
            0 => Some(a.equal(*b)),
            1 => Some(a.not_equal(*b)),
            2 => Some(a.greater(*b)),
            3 => Some(a.greater_eq(*b)),
            4 => Some(a.less(*b)),
            5 => Some(a.less_eq(*b)),
            _ => None,
        },
        _ => None,
    }
}

/// The float type a float function returns: the argument's, F for an integer argument.
fn float_ty(x: Value) -> DataType {
    if is_float(x.ty()) {
        x.ty()
    } else {
        DataType::F
    }
}

fn map_float(x: Value, f: fn(f64) -> f64) -> Value {
    match x {
        Value::Float(v, t) => Value::Float(f(v), t),
        // Integers are their own floor and ceiling.
        other => other,
    }
}

fn abs(x: Value) -> Value {
    match x {
        Value::Float(v, t) => Value::Float(f64::from_bits(v.to_bits() & !(1u64 << 63)), t),
        Value::Int(v, t) => Value::Int(v.wrapping_abs(), t),
        Value::Bool(b) => Value::Bool(b),
    }
}

/// `min`/`max` as MIN_MAX.md:111 gives them for floats: "if one of the numbers is NaN and the
/// other is not, MIN or MAX of the two numbers returns the one that is not NaN. When both
/// numbers are NaN, MIN or MAX of the two numbers returns source1".
fn min_max(max: bool, a: Value, b: Value) -> Value {
    let (fa, fb) = (a.as_f64(), b.as_f64());
    if is_float(a.ty()) || is_float(b.ty()) {
        if fa.is_nan() {
            return b;
        }
        if fb.is_nan() {
            return a;
        }
    }
    let a_first = if max { b.less(a) } else { a.less(b) };
    if a_first.truth() {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DataType as T;

    #[test]
    fn named_functions() {
        let f = |x| Value::Float(x, T::F);
        let d = |x| Value::Int(x, T::D);
        assert_eq!(call("floor", &[f(-0.5)]), Some(f(-1.0)));
        assert_eq!(call("ceil", &[f(0.25)]), Some(f(1.0)));
        assert_eq!(call("abs", &[d(-3)]), Some(d(3)));
        assert_eq!(call("sqrt", &[f(9.0)]), Some(f(3.0)));
        let sum = Value::Int(0xffff_ffff, T::Ud) + Value::Int(1, T::Ud);
        assert_eq!(call("carry", &[sum]), Some(Value::Int(1, T::Ud)));
        assert_eq!(call("min/max", &[d(1), d(2), d(5)]), Some(d(5)));
        assert_eq!(call("min/max", &[d(0), f(f64::NAN), f(2.0)]), Some(f(2.0)));
        assert_eq!(
            call("rel_op", &[d(4), d(-1), d(0)]),
            Some(Value::Bool(true))
        );
        assert_eq!(call("rel_op", &[d(7), d(-1), d(0)]), None);
        assert_eq!(call("no_such_function", &[f(0.0)]), None);
        #[cfg(feature = "machine")]
        {
            assert_eq!(call("exp2", &[f(3.0)]), Some(f(8.0)));
            assert_eq!(call("log2", &[f(0.25)]), Some(f(-2.0)));
            assert_eq!(call("pow", &[f(2.0), f(10.0)]), Some(f(1024.0)));
            assert_eq!(call("sin", &[f(0.0)]), Some(f(0.0)));
            assert_eq!(call("cos", &[f(0.0)]), Some(f(1.0)));
        }
    }
}
