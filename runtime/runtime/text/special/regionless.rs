//! DPAS's `Src2`, a general operand printed without its region: `dpas.hf.hf.8.8 (M1, 16)
//! V546.0 %null.0 V111.0 V119(0,0)` (IGC's DPAS printer shows no region for it, and its parser
//! stores `<1;1,0>`, region word 0x0122: `intel-isa asm` of that line on PVC and DG2 writes
//! `... 22 01` for Src2, and Intel prints the same line back). The text emitter uses it for a
//! `vec_operand` source of class `general` of an instruction whose destination is a raw
//! operand (DPAS's Src2 only; the `scalar` offsets of OWORD_LD and the like print regions).

use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::names::Names;
use crate::runtime::text::vector::{parse_vector, print_vector};
use crate::runtime::text::Cursor;
use crate::runtime::{Region, VectorOperand};
use alloc::string::String;

/// The region IGC's parser stores for an operand written without one here: `<1;1,0>`.
pub const REGION: Region = Region(0x0122);

/// Prints a general operand of region `<1;1,0>` as `V(r,c)`; any other class as usual.
pub fn print(out: &mut String, op: &VectorOperand, names: &dyn Names) -> Result<(), PrintError> {
    match *op {
        VectorOperand::General {
            modifier,
            id,
            row_offset,
            col_offset,
            region,
        } => {
            if region != REGION {
                return Err(PrintError::Unprintable {
                    what: "DPAS Src2: the text shows no region; the region must be <1;1,0>",
                    value: u64::from(region.0),
                });
            }
            let shown = VectorOperand::General {
                modifier,
                id,
                row_offset,
                col_offset,
                region: Region(0),
            };
            print_vector(out, &shown, names)
        }
        _ => print_vector(out, op, names),
    }
}

/// Parses a vector operand; a general one written without a region gets `<1;1,0>`.
pub fn parse(c: &mut Cursor<'_>, names: &dyn Names) -> Result<VectorOperand, ParseError> {
    let mut op = parse_vector(c, names)?;
    if let VectorOperand::General { region, .. } = &mut op {
        if region.0 == 0 {
            *region = REGION;
        }
    }
    Ok(op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::names::IntelNames;

    #[test]
    fn intel_prints_no_region_and_reads_1_1_0() {
        // `VA(0,0)` of `dpas.hf.hf.8.8 (M1, 8) VDST.0 %null.0 VB.0 VA(0,0)` on DG2: Intel's
        // assembler writes the region word 0x0122 (`22 01`).
        let names = IntelNames;
        let op = parse(&mut Cursor::new("V0119(0,0)"), &names).unwrap();
        assert_eq!(
            op,
            VectorOperand::General {
                modifier: 0,
                id: 119,
                row_offset: 0,
                col_offset: 0,
                region: Region(0x0122)
            }
        );
        let mut s = String::new();
        print(&mut s, &op, &names).unwrap();
        assert_eq!(s, "V0119(0,0)");
        let other = VectorOperand::General {
            modifier: 0,
            id: 119,
            row_offset: 0,
            col_offset: 0,
            region: Region(0x0121),
        };
        assert!(print(&mut String::new(), &other, &names).is_err());
    }
}
