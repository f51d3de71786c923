//! Label operands: the target of `goto`/`jmp`/`call` (`(!P1) goto (M1, 16) _0_009`,
//! `call (M1, 8) helper_poly_1` in `calls_caller.visaasm`), printed by the name the
//! [`Names`] give (see [`subroutine_label_name`](super::subroutine_label_name) for calls).

use super::cursor::Cursor;
use super::error::{ParseError, PrintError};
use super::names::Names;
use alloc::string::String;

pub fn print_label<N: Names + ?Sized>(
    out: &mut String,
    id: u32,
    names: &N,
) -> Result<(), PrintError> {
    let name = names
        .label(id)
        .ok_or(PrintError::NoName { kind: "label", id })?;
    out.push_str(&name);
    Ok(())
}

pub fn parse_label<N: Names + ?Sized>(c: &mut Cursor<'_>, names: &N) -> Result<u32, ParseError> {
    let at = c.column();
    let name = c.identifier("a label name")?;
    names
        .label_id(name)
        .ok_or_else(|| c.error_at(at, "a declared label"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::{IntelNames, NameTable};

    #[test]
    fn labels_by_table() {
        // control_flow_branches.visaasm: `(P1) goto (M1, 16) _0_019`.
        let mut t = NameTable::new();
        t.declare_label(19, "_0_019");
        let mut s = String::new();
        print_label(&mut s, 19, &t).unwrap();
        assert_eq!(s, "_0_019");
        assert_eq!(parse_label(&mut Cursor::new("_0_019"), &t), Ok(19));
        assert_eq!(
            parse_label(&mut Cursor::new("_0_020"), &t)
                .unwrap_err()
                .column,
            0
        );
        assert!(print_label(&mut s, 1, &IntelNames).is_err());
    }
}
