//! TEMPORARY SHIM, delete at merge: stands in for the generated `Instruction::print_text` of
//! the text contract (`notes/TEXT-API.md`) until helper "textinst" lands it, so the file
//! printer ([`super::text`]) compiles. Every instruction fails to print here.

use crate::runtime::text::{Names, PrintError};
use crate::Instruction;
use alloc::string::String;

impl Instruction {
    /// The instruction's text as Intel prints it, without indentation or ` /// $N`.
    /// (Temporary shim: always fails, the generated printer replaces it.)
    pub fn print_text(&self, _names: &dyn Names, _out: &mut String) -> Result<(), PrintError> {
        Err(PrintError::Unprintable {
            what: "instruction text (the generated printer has not landed; temporary shim)",
            value: u64::from(self.opcode() as u8),
        })
    }
}
