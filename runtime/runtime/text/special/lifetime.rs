//! LIFETIME's text, as IGC 2.x prints it: `lifetime.start V0142` (kernel `pointer_select` of
//! `tests/interp/kernels/calls.cl` on tgllp). The template `LIFETIME.start <variable>` gives
//! `<variable>` as the field `variable(ud)`, a variable id, whose spelling depends on the
//! variable class of `properties` bits 5..4, which a template slot cannot follow: IGC's
//! printer (`IsaDisassembly.cpp`, `ISA_LIFETIME`) writes the general variable's name, `A<id>`
//! for an address variable and `P<id>` for a predicate, after `start` (bit 0 clear) or `end`
//! (bit 0 set); its lexer reads `lifetime.start` and `lifetime.end` (`CISA.l`). This formatter
//! prints and reads those.

use super::fields::{Fields, Parsed, Value};
use super::Formatter;
use crate::runtime::text::error::{ParseError, PrintError};
use crate::runtime::text::instruction::{error, operand_space, Words};
use crate::runtime::text::{Cursor, Names};
use crate::runtime::PredicateControl;
use alloc::string::String;

/// `properties` bits 5..4: the variable class (LIFETIME.md).
const GENERAL: u64 = 0;
const ADDRESS: u64 = 1;
const PREDICATE: u64 = 2;

/// LIFETIME's formatter.
pub const LIFETIME: Lifetime = Lifetime;

#[derive(Clone, Copy, Debug)]
pub struct Lifetime;

fn unprintable(what: &'static str, value: u64) -> PrintError {
    PrintError::Unprintable { what, value }
}

impl Formatter for Lifetime {
    fn is_mnemonic(&self, base: &str) -> bool {
        base == "lifetime"
    }

    fn print(
        &self,
        f: Fields<'_>,
        names: &dyn Names,
        out: &mut String,
        lossy: bool,
    ) -> Result<(), PrintError> {
        let p = f.scalar("properties")?;
        if !lossy && p & !0x31 != 0 {
            return Err(unprintable(
                "LIFETIME properties: bits the text does not print (only bit 0 and bits 5..4)",
                p,
            ));
        }
        let id = f.scalar("variable")?;
        out.push_str(if p & 1 == 0 {
            "lifetime.start "
        } else {
            "lifetime.end "
        });
        match (p >> 4) & 3 {
            GENERAL => {
                let id = u32::try_from(id)
                    .map_err(|_| unprintable("LIFETIME variable: a general variable id", id))?;
                let name = names.general(id).ok_or_else(|| {
                    unprintable("LIFETIME variable: a declared general variable", id.into())
                })?;
                out.push_str(&name);
            }
            class @ (ADDRESS | PREDICATE) => {
                let id = u16::try_from(id)
                    .map_err(|_| unprintable("LIFETIME variable: an address or predicate id", id))?;
                let name = if class == ADDRESS {
                    names.address(id)
                } else {
                    names.predicate(id)
                };
                out.push_str(&name);
            }
            _ => {
                return Err(unprintable(
                    "LIFETIME properties bits 5..4: a variable class 0 (general), 1 (address) or 2 (predicate)",
                    p,
                ))
            }
        }
        Ok(())
    }

    /// Parses `lifetime.start NAME` or `lifetime.end NAME`: a general variable's name, an
    /// address variable's or a predicate's.
    fn parse(
        &self,
        pred: PredicateControl,
        mut w: Words<'_>,
        mut c: Cursor<'_>,
        names: &dyn Names,
    ) -> Result<Parsed, ParseError> {
        if pred != PredicateControl::NONE {
            return Err(error(0, "no predicate: this instruction takes none", "("));
        }
        let end = if w.eat("start") {
            0
        } else if w.eat("end") {
            1
        } else {
            return Err(w
                .take("", "`.start` or `.end`")
                .err()
                .unwrap_or_else(|| w.error("`.start` or `.end`")));
        };
        w.finish()?;
        operand_space(&mut c)?;
        let at = c.column();
        let name = c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '%');
        let (class, id) = if let Some(id) = names.general_id(name) {
            (GENERAL, u64::from(id))
        } else if let Some(id) = names.address_id(name) {
            (ADDRESS, u64::from(id))
        } else if let Some(id) = names.predicate_id(name) {
            (PREDICATE, u64::from(id))
        } else {
            return Err(error(
                at,
                "a declared general, address or predicate variable",
                name,
            ));
        };
        c.skip_spaces();
        c.finish()?;
        Ok(Parsed(alloc::vec![
            ("properties", Value::Scalar(end | class << 4)),
            ("variable", Value::Scalar(id)),
        ]))
    }
}
