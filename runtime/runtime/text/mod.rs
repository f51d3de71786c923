//! vISA assembly text: the shared layer that per-instruction printers and parsers call.
//!
//! It prints the runtime's operand types ([`VectorOperand`](crate::runtime::VectorOperand),
//! [`RawOperand`](crate::runtime::RawOperand), [`Immediate`](crate::runtime::Immediate),
//! [`ExecSize`](crate::runtime::ExecSize), [`PredicateControl`](crate::runtime::PredicateControl),
//! ...) the way Intel's IGC 12504.6 prints them (`IsaDisassembly.cpp`), and parses that text
//! back, plus the extra spellings IGC's parser accepts (`notes/visa-text-syntax.md` §4.1).
//! Expected strings in the tests are Intel's print, taken from `real-kernels/dg2/*.visaasm`.
//!
//! Conventions:
//! - printers append to a `String` and return [`PrintError`] for values the text cannot spell,
//!   so whatever prints parses back to the same value;
//! - parsers read from a [`Cursor`] (one line, or one operand) and return [`ParseError`] with
//!   the byte column and what was expected; they never panic;
//! - names come from a [`Names`] implementation: [`IntelNames`] (predefined names and IGC's
//!   `V%04d`) or a per-kernel [`NameTable`];
//! - the space IGC puts before each operand and the line layout are the caller's
//!   ([`push_instruction_line`] and friends).

mod address;
mod cursor;
mod error;
mod exec;
mod immediate;
pub mod instruction;
mod label;
mod layout;
mod literal;
mod modifier;
pub(crate) mod name_index;
pub(crate) mod names;
mod predicate;
mod raw;
mod region;
pub mod special;
pub mod spellings;
mod state;
mod symbol;
mod vector;

#[cfg(test)]
mod proptests;

pub use address::{
    parse_address_of, parse_address_rest, print_address, print_address_of, AddressOf,
};
pub use cursor::Cursor;
pub use error::{ParseError, PrintError};
pub use exec::{parse_exec_count, parse_exec_size, print_exec_count, print_exec_size};
pub use immediate::{parse_immediate, print_immediate};
pub use label::{parse_label, print_label};
pub use layout::{
    push_function_start, push_instruction_line, push_label_line, split_line, Line, COMMENT_COLUMN,
    INDENT,
};
pub use literal::{parse_string_literal, push_string_literal};
pub use modifier::{is_saturated, parse_modifier, set_saturated, Modifier};
#[cfg(test)]
pub(crate) use names::TestNames;
pub use names::{
    predefined_general_count, subroutine_label_name, Dialect, IntelNames, NameTable, Names,
    FIRST_DECLARED_GENERAL, PREDEFINED_GENERAL, PREDEFINED_SURFACES,
};
pub use predicate::{
    parse_predicate_name, parse_predicate_prefix, print_predicate_operand, print_predicate_prefix,
};
pub use raw::{parse_raw, print_raw};
pub use region::{parse_region, print_region};
pub use state::{parse_state_name, parse_state_offset, print_state, print_state_name, state_of};
pub use symbol::{parse_symbol, print_symbol};
pub use vector::{parse_vector, print_vector};

/// Parses all of `text` with `parse` (one operand, say), failing if anything is left over.
pub fn parse_all<'a, T>(
    text: &'a str,
    parse: impl FnOnce(&mut Cursor<'a>) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    let mut c = Cursor::new(text);
    let v = parse(&mut c)?;
    c.finish()?;
    Ok(v)
}
