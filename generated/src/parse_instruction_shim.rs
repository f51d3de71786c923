//! TEMPORARY SHIM (asm branch; TEXT-API.md): `parse_instruction` with the contract's signature,
//! until the generated per-instruction parser ("textinst") merges. It parses nothing. At merge
//! delete this file and its two lines in `lib.rs`; `crate::parse_instruction` then resolves to
//! the generated one.

use crate::runtime::text::{Names, ParseError};
use crate::Instruction;
use alloc::string::String;

/// Always fails: instruction text cannot be parsed until the generated parser lands.
pub fn parse_instruction(text: &str, _names: &dyn Names) -> Result<Instruction, ParseError> {
    Err(ParseError {
        column: 0,
        expected:
            "an instruction this crate can parse (the instruction parser is not generated yet)",
        found: String::from(text.split(' ').next().unwrap_or("")),
    })
}
