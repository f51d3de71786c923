//! ADDR_ADD's first source `&V0063` (private_arrays_priv.visaasm): a general operand printed as
//! the variable's address, `&V0060[64]` with a byte offset: row × register size + column ×
//! element size (Intel's assembler writes `&V0060[64]` of a `d` variable as row 1, column 0 on
//! PVC, 64-byte registers, and row 2 on DG2; `[96]` as (1,8) and (3,0)). The sizes come from
//! [`Names::general_element_bytes`] and [`Names::grf_bytes`]; without them only (0,0) prints.
//! A state operand (ADDR_ADD.md: "Operand class: address,general,state") is the address of a
//! surface or sampler, `&T6`, `&S0` (GenX_IR 12504.6 on SKL: `addr_add (M1_NM, 1) A0(0)<1> &T6
//! 0x0:uw` assembles to a state operand with offset 0 and prints so again).

use crate::runtime::text::address::{parse_address_of, print_address_of, AddressOf};
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::names::Names;
use crate::runtime::text::state::{print_state_name, state_of};
use crate::runtime::text::vector::{parse_vector, print_vector};
use crate::runtime::text::Cursor;
use crate::runtime::VectorOperand;
use alloc::string::String;
use core::fmt::Write;

/// Prints `&V` or `&V[bytes]` for a general operand with IGC's region, `&T6` for a surface or
/// sampler, any other class as usual.
pub fn print(out: &mut String, op: &VectorOperand, names: &dyn Names) -> Result<(), PrintError> {
    print_as(out, op, names, false)
}

/// [`print`], or with `lossy` Intel's line whatever it cannot show: a surface or sampler with
/// an offset, which GenX_IR prints as `&T6[<offset × 4>]` but parses `&T6[k]` as offset k (12504.6
/// on SKL: `&T6[1]` assembles to offset 1 and prints `&T6[4]`; `&S0[8]` prints `&S0[32]`), so
/// the line does not assemble back to the same bytes.
pub fn print_as(
    out: &mut String,
    op: &VectorOperand,
    names: &dyn Names,
    lossy: bool,
) -> Result<(), PrintError> {
    match *op {
        VectorOperand::General {
            modifier: 0,
            id,
            row_offset,
            col_offset,
            region,
        } if region == AddressOf::REGION => {
            let a = if (row_offset, col_offset) == (0, 0) {
                AddressOf { id, byte_offset: 0 }
            } else {
                let (Some(element), Some(grf)) = (names.general_element_bytes(id), names.grf_bytes())
                else {
                    return Err(PrintError::Unprintable {
                        what: "ADDR_ADD src0: a byte offset needs the variable's type and the platform's register size",
                        value: u64::from(row_offset) << 8 | u64::from(col_offset),
                    });
                };
                AddressOf::from_offsets(id, row_offset, col_offset, element, grf)
            };
            print_address_of(out, a, names)
        }
        VectorOperand::General { .. } => Err(PrintError::Unprintable {
            what: "ADDR_ADD src0: a general operand prints as `&V`, with region <0;1,0> and no modifier",
            value: 0,
        }),
        VectorOperand::State {
            class,
            id,
            offset: 0,
        } => {
            out.push('&');
            print_state_name(out, class, id, names);
            Ok(())
        }
        VectorOperand::State { class, id, offset } if lossy => {
            out.push('&');
            print_state_name(out, class, id, names);
            let _ = write!(out, "[{}]", u32::from(offset) * 4);
            Ok(())
        }
        VectorOperand::State { offset, .. } => Err(PrintError::Unprintable {
            what: "ADDR_ADD src0: a surface or sampler with an offset (Intel prints `&T6[<offset × 4>]` and reads `&T6[k]` as offset k)",
            value: u64::from(offset),
        }),
        _ => print_vector(out, op, names),
    }
}

/// Parses `&V`, `&V[bytes]` or any vector operand.
pub fn parse(c: &mut Cursor<'_>, names: &dyn Names) -> Result<VectorOperand, ParseError> {
    if c.peek() != Some('&') {
        return parse_vector(c, names);
    }
    let at = c.column();
    let mut state = c.clone();
    state.expect("&", "`&`")?;
    if let Some((class, id)) = state
        .identifier("a surface or sampler")
        .ok()
        .filter(|name| names.general_id(name).is_none())
        .and_then(|name| state_of(name, names))
    {
        // GenX_IR reads `[k]` after a surface or sampler as its offset k.
        let offset = if state.eat("[") {
            let k = state.unsigned_as::<u8>("an offset 0..=255")?;
            state.expect("]", "`]` closing the offset")?;
            k
        } else {
            0
        };
        *c = state;
        return Ok(VectorOperand::State { class, id, offset });
    }
    let a = parse_address_of(c, names)?;
    let (row_offset, col_offset) = if a.byte_offset == 0 {
        (0, 0)
    } else {
        let (Some(element), Some(grf)) = (names.general_element_bytes(a.id), names.grf_bytes())
        else {
            return Err(c.error_at(
                at,
                "`&V` without a byte offset, or a platform (`visa asm --platform P`) and a declared variable for `&V[bytes]`",
            ));
        };
        a.to_offsets(element, grf)
            .ok_or_else(|| c.error_at(at, "a byte offset of whole elements"))?
    };
    Ok(VectorOperand::General {
        modifier: 0,
        id: a.id,
        row_offset,
        col_offset,
        region: AddressOf::REGION,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::names::IntelNames;
    use alloc::borrow::Cow;

    /// IGC's names, every variable of `element` bytes, registers of `grf` bytes.
    struct Sized(u32, u32);
    impl Names for Sized {
        fn general(&self, id: u32) -> Option<Cow<'_, str>> {
            IntelNames.general(id)
        }
        fn general_id(&self, name: &str) -> Option<u32> {
            IntelNames.general_id(name)
        }
        fn label(&self, _: u32) -> Option<Cow<'_, str>> {
            None
        }
        fn label_id(&self, _: &str) -> Option<u32> {
            None
        }
        fn general_element_bytes(&self, _: u32) -> Option<u32> {
            Some(self.0)
        }
        fn grf_bytes(&self) -> Option<u32> {
            Some(self.1)
        }
    }

    fn at(row_offset: u8, col_offset: u8) -> VectorOperand {
        VectorOperand::General {
            modifier: 0,
            id: 60,
            row_offset,
            col_offset,
            region: AddressOf::REGION,
        }
    }

    #[test]
    fn byte_offsets_as_intel_assembles_them() {
        // `intel-isa asm` of `addr_add (M5, 16) A3(0)<1> &V0060[64] V0111(0,16)<1;1,0>`, V0060
        // of type d: (row, col) (1,0) on PVC, (2,0) on DG2; `[96]`: (1,8) and (3,0); a w
        // variable's `[66]`: (1,1) on PVC.
        for (text, element, grf, op) in [
            ("&V0060[64]", 4, 64, at(1, 0)),
            ("&V0060[64]", 4, 32, at(2, 0)),
            ("&V0060[96]", 4, 64, at(1, 8)),
            ("&V0060[96]", 4, 32, at(3, 0)),
            ("&V0060[66]", 2, 64, at(1, 1)),
            ("&V0060", 4, 64, at(0, 0)),
        ] {
            let names = Sized(element, grf);
            assert_eq!(parse(&mut Cursor::new(text), &names), Ok(op), "{text}");
            let mut s = String::new();
            print(&mut s, &op, &names).unwrap();
            assert_eq!(s, text);
        }
        // A surface's and a sampler's address (GenX_IR on SKL: `&T6`, `&S0`, offset 0).
        for (text, class, id) in [
            ("&T6", crate::runtime::StateClass::Surface, 6),
            ("&S0", crate::runtime::StateClass::Sampler, 0),
        ] {
            let op = VectorOperand::State {
                class,
                id,
                offset: 0,
            };
            assert_eq!(parse(&mut Cursor::new(text), &IntelNames), Ok(op), "{text}");
            let mut s = String::new();
            print(&mut s, &op, &IntelNames).unwrap();
            assert_eq!(s, text);
        }
        let offset = VectorOperand::State {
            class: crate::runtime::StateClass::Surface,
            id: 6,
            offset: 1,
        };
        assert!(print(&mut String::new(), &offset, &IntelNames).is_err());
        let mut s = String::new();
        print_as(&mut s, &offset, &IntelNames, true).unwrap();
        assert_eq!(s, "&T6[4]");
        assert_eq!(parse(&mut Cursor::new("&T6[1]"), &IntelNames), Ok(offset));
        // Not a whole element; no sizes known.
        assert!(parse(&mut Cursor::new("&V0060[66]"), &Sized(4, 64)).is_err());
        assert!(parse(&mut Cursor::new("&V0060[64]"), &IntelNames).is_err());
        assert!(print(&mut String::new(), &at(1, 0), &IntelNames).is_err());
    }
}
