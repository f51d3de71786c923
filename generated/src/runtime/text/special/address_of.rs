//! ADDR_ADD's first source `&V0063` (private_arrays_priv.visaasm): a general operand printed as
//! the variable's address. Only offset (0,0) has a byte offset this layer can compute without
//! the variable's type and the GRF size, so other offsets are refused.

use crate::runtime::text::address::{parse_address_of, print_address_of, AddressOf};
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::names::Names;
use crate::runtime::text::vector::{parse_vector, print_vector};
use crate::runtime::text::Cursor;
use crate::runtime::VectorOperand;
use alloc::string::String;

/// Prints `&V` for a general operand at (0,0) with IGC's region, any other class as usual.
pub fn print(out: &mut String, op: &VectorOperand, names: &dyn Names) -> Result<(), PrintError> {
    match *op {
        VectorOperand::General {
            modifier: 0,
            id,
            row_offset: 0,
            col_offset: 0,
            region,
        } if region == AddressOf::REGION => {
            print_address_of(out, AddressOf { id, byte_offset: 0 }, names)
        }
        VectorOperand::General { .. } => Err(PrintError::Unprintable {
            what: "ADDR_ADD src0: a general operand prints as `&V`, at offset (0,0) with region <0;1,0>",
            value: 0,
        }),
        _ => print_vector(out, op, names),
    }
}

/// Parses `&V` (offset 0) or any vector operand.
pub fn parse(c: &mut Cursor<'_>, names: &dyn Names) -> Result<VectorOperand, ParseError> {
    if c.peek() != Some('&') {
        return parse_vector(c, names);
    }
    let at = c.column();
    let a = parse_address_of(c, names)?;
    if a.byte_offset != 0 {
        return Err(c.error_at(at, "`&V` without a byte offset"));
    }
    Ok(VectorOperand::General {
        modifier: 0,
        id: a.id,
        row_offset: 0,
        col_offset: 0,
        region: AddressOf::REGION,
    })
}
