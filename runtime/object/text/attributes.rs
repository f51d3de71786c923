//! Attributes as the text spells them: `.kernel_attr` lines of a routine and the `attrs={...}`
//! of a declaration.
//!
//! Measured on `real-kernels/dg2` (the binary values beside Intel's print):
//! - `Target` holds one byte, 1, printed `Target="3d"` (IGC's `VISA_3D`; 0 is `cm`, 2 `cs`);
//! - `SimdSize` (1 byte) and `PerThreadInputSize` (2 bytes, little-endian: `[192, 0]` prints
//!   `PerThreadInputSize=192`), `ArgSize`, `RetValSize` print as decimal integers;
//! - `OutputAsmPath` is in every kernel and never printed;
//! - attributes print in the order stored; a routine without `Target` gets
//!   `Target="3d"` last (the compiler's target; `recursion_stackcalls.func.rec.visaasm` ends
//!   its attributes with `.kernel_attr Target="3d"` which its binary also stores last).
//!
//! Not in the corpus, so following IGC's `Attributes.hpp` as remembered, unverified: which
//! other names are integers, bare names for empty values, quoted strings for the rest; and the
//! declaration form `attrs={Name,Name=value}` (`printAttributes`).

use super::pool_string;
use crate::object::AttributeInfo;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Integer-valued attributes (IGC's `DEF_ATTR_INT32`/`INT64` names of 12504.6); the first four
/// are seen in the corpus.
const INTEGER_ATTRIBUTES: &[&str] = &[
    "SimdSize",
    "PerThreadInputSize",
    "ArgSize",
    "RetValSize",
    "SLMSize",
    "SurfaceUsage",
    "SpillMemOffset",
    "FloatingPointControl",
    "NumGRF",
    "NBarrierCnt",
    "CrossThreadInputSize",
];

/// The attribute IGC skips when printing (`printKernelHeader`).
const SKIPPED: &str = "OutputAsmPath";
/// The attribute IGC prints even when absent.
pub(crate) const TARGET: &str = "Target";
/// What an absent `Target` prints (the compiler's target for OpenCL, see the module doc).
pub(crate) const DEFAULT_TARGET: &str = "Target=\"3d\"";

/// Little-endian integer of up to 8 bytes.
fn integer(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() || bytes.len() > 8 {
        return None;
    }
    Some(
        bytes
            .iter()
            .rev()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)),
    )
}

/// `Name`, `Name=12` or `Name=<text>` (`quote` puts strings in double quotes), or an error
/// saying why the value has no spelling.
fn spell(name: &str, value: &[u8], quote: bool) -> Result<String, String> {
    if name == TARGET {
        return match integer(value) {
            Some(0) => Ok(String::from("Target=\"cm\"")),
            Some(1) => Ok(String::from(DEFAULT_TARGET)),
            Some(2) => Ok(String::from("Target=\"cs\"")),
            _ => Err(format!(
                "attribute Target has value {value:?}; expected one byte 0 (cm), 1 (3d) or 2 (cs)"
            )),
        };
    }
    if value.is_empty() {
        return Ok(String::from(name));
    }
    if INTEGER_ATTRIBUTES.contains(&name) {
        return match integer(value) {
            Some(v) => Ok(format!("{name}={v}")),
            None => Err(format!(
                "attribute {name} has {} bytes; expected an integer of 1 to 8 bytes",
                value.len()
            )),
        };
    }
    let text = String::from_utf8_lossy(value);
    let text = text.trim_end_matches('\0');
    Ok(if quote {
        format!("{name}=\"{text}\"")
    } else {
        format!("{name}={text}")
    })
}

fn name_of(pool: &[Vec<u8>], a: &AttributeInfo) -> Result<String, String> {
    pool_string(pool, a.name)
        .ok_or_else(|| format!("attribute name is string {}, past the string pool", a.name))
}

/// The text after `.kernel_attr ` for attribute `a`, `Ok(None)` for the skipped one.
pub fn kernel_attribute_line(
    pool: &[Vec<u8>],
    a: &AttributeInfo,
) -> Result<Option<String>, String> {
    let name = name_of(pool, a)?;
    if name == SKIPPED {
        return Ok(None);
    }
    spell(&name, &a.value, true).map(Some)
}

/// ` attrs={A,B=1}` for a declaration's attributes, empty when it has none.
pub fn attribute_text(pool: &[Vec<u8>], attrs: &[AttributeInfo]) -> Result<String, String> {
    if attrs.is_empty() {
        return Ok(String::new());
    }
    let mut out = String::from(" attrs={");
    for (i, a) in attrs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&spell(&name_of(pool, a)?, &a.value, false)?);
    }
    out.push('}');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> Vec<Vec<u8>> {
        [
            "k",
            "Target",
            "SimdSize",
            "PerThreadInputSize",
            "OutputAsmPath",
            "Extern",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect()
    }

    fn attr(name: u32, value: &[u8]) -> AttributeInfo {
        AttributeInfo {
            name,
            value: value.to_vec(),
        }
    }

    #[test]
    fn corpus_values_print_as_intel_prints_them() {
        // calls_caller.isa stores Target [1], SimdSize [8], PerThreadInputSize [96, 0] and an
        // OutputAsmPath; calls_caller.visaasm prints the first three only.
        let p = pool();
        let line = |a: AttributeInfo| kernel_attribute_line(&p, &a).unwrap();
        assert_eq!(line(attr(1, &[1])).as_deref(), Some("Target=\"3d\""));
        assert_eq!(line(attr(2, &[8])).as_deref(), Some("SimdSize=8"));
        assert_eq!(
            line(attr(3, &[96, 0])).as_deref(),
            Some("PerThreadInputSize=96")
        );
        assert_eq!(line(attr(4, b"/tmp/x.asm")), None);
    }

    #[test]
    fn bad_values_are_errors_not_guesses() {
        let p = pool();
        assert!(kernel_attribute_line(&p, &attr(1, &[7])).is_err());
        assert!(kernel_attribute_line(&p, &attr(2, &[0; 9])).is_err());
        assert!(kernel_attribute_line(&p, &attr(60, &[0])).is_err());
    }

    #[test]
    fn declaration_attributes() {
        let p = pool();
        assert_eq!(attribute_text(&p, &[]).unwrap(), "");
        let t = attribute_text(&p, &[attr(5, &[]), attr(2, &[16])]).unwrap();
        assert_eq!(t, " attrs={Extern,SimdSize=16}");
    }
}
