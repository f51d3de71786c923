//! What a line of IGC 2.x's text holds that no doc's layout has a field for, taken out before
//! the instruction parser reads the line (the one place that does; `object::text::with_text_only`
//! is the one that puts it back): the mnemonic's last words (`ifcall.uniform`, `.ov`, `.msaa`),
//! a third cache level, samplers and surfaces in variables, a paired resource. Each is kept
//! beside the instruction in `RoutineTextOnly`; an error of the instruction parser is reported
//! at its column in the line as written.

use crate::object::{Modifiers, RoutineTextOnly, StateVariables};
use crate::runtime::text::special::{lsc, modifiers, paired_resource, state_variables};
use crate::runtime::text::{Names, ParseError};
use crate::runtime::RawOperand;
use alloc::borrow::Cow;
use alloc::vec::Vec;

/// What one line held beside its instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineParts {
    pub modifiers: Option<Modifiers>,
    pub caching_l2: Option<u8>,
    pub state: Option<StateVariables>,
    pub paired: Option<RawOperand>,
}

impl LineParts {
    /// Records the parts of instruction `n` of a routine in `t`.
    pub fn keep(self, n: usize, t: &mut RoutineTextOnly) {
        if let Some(m) = self.modifiers {
            t.modifiers.push((n, m));
        }
        if let Some(l2) = self.caching_l2 {
            t.caching_l2.push((n, l2));
        }
        if let Some(s) = self.state {
            t.state_variables.push((n, s));
        }
        if let Some(p) = self.paired {
            t.paired_resources.push((n, p));
        }
    }
}

/// One replacement: at byte `at` of the line after it, `now` bytes stand where `was` were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Edit {
    at: usize,
    now: usize,
    was: usize,
}

impl Edit {
    /// The replacement that makes `after` of `before`: what lies between their common start and
    /// their common end.
    fn between(before: &str, after: &str) -> Edit {
        let (b, a) = (before.as_bytes(), after.as_bytes());
        let start = b.iter().zip(a).take_while(|(x, y)| x == y).count();
        let max_end = b.len().min(a.len()) - start;
        let end = b
            .iter()
            .rev()
            .zip(a.iter().rev())
            .take(max_end)
            .take_while(|(x, y)| x == y)
            .count();
        Edit {
            at: start,
            now: a.len() - start - end,
            was: b.len() - start - end,
        }
    }
}

/// A line with its text-only parts taken out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut<'c> {
    /// What the instruction parser reads.
    pub code: Cow<'c, str>,
    pub parts: LineParts,
    edits: Vec<Edit>,
}

impl Cut<'_> {
    /// The column in the line as written of column `c` of [`Cut::code`]; a column inside
    /// something put in is where that started.
    pub fn column(&self, mut c: usize) -> usize {
        for e in self.edits.iter().rev() {
            if c >= e.at + e.now {
                c = c - e.now + e.was;
            } else if c > e.at {
                c = e.at;
            }
        }
        c
    }

    /// An error of the instruction parser at its place in the line as written.
    pub fn error(&self, e: ParseError) -> ParseError {
        ParseError {
            column: self.column(e.column),
            ..e
        }
    }

    /// Replaces the line by `line`, remembering where it changed.
    fn replace(&mut self, line: alloc::string::String) {
        self.edits.push(Edit::between(&self.code, &line));
        self.code = Cow::Owned(line);
    }
}

/// Takes the text-only parts out of the instruction line `code`, in this order: the
/// mnemonic's last words, the L2 cache control, the sampler and surface variables, the paired
/// resource. A misplaced mnemonic word is an error at its column.
pub fn cut<'c>(code: &'c str, names: &dyn Names) -> Result<Cut<'c>, ParseError> {
    let mut c = Cut {
        code: Cow::Borrowed(code),
        parts: LineParts::default(),
        edits: Vec::new(),
    };
    if let Some((line, m)) = modifiers::split(code)? {
        c.parts.modifiers = Some(m);
        c.replace(line);
    }
    if let Some((line, l2)) = lsc::split_caching_l2(&c.code) {
        c.parts.caching_l2 = Some(l2);
        c.replace(line);
    }
    if let Some((line, s)) = state_variables::split(&c.code, names) {
        c.parts.state = Some(s);
        c.replace(line);
    }
    if let Some((line, p)) = paired_resource::split(&c.code, names) {
        c.parts.paired = Some(p);
        c.replace(line);
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::text::IntelNames;

    #[test]
    fn columns_map_back_to_the_line_as_written() {
        let line = "lsc_load.ugm.ca.ca.ca.ov (M1, 32)  V0050:d32  flat[V0051]:a64";
        let c = cut(line, &IntelNames).unwrap();
        assert_eq!(
            c.code,
            "lsc_load.ugm.ca.ca (M1, 32)  V0050:d32  flat[V0051]:a64"
        );
        assert_eq!(
            c.parts,
            LineParts {
                modifiers: Some(Modifiers::OVERFETCH),
                caching_l2: Some(2),
                ..LineParts::default()
            }
        );
        // Before the cuts, the same column; after them, moved by what was cut.
        assert_eq!(c.column(3), 3);
        let at = c.code.find("V0050").unwrap();
        assert_eq!(c.column(at), line.find("V0050").unwrap());
        assert_eq!(c.column(c.code.len()), line.len());
        let ifcall = "ifcall.uniform.noreturn (M1, 1) V0040(0,0)<0;1,0> 1 x";
        let c = cut(ifcall, &IntelNames).unwrap();
        assert_eq!(c.code, "ifcall (M1, 1) V0040(0,0)<0;1,0> 1 x");
        assert_eq!(c.column(c.code.len() - 1), ifcall.len() - 1);
        let e = c.error(ParseError {
            column: c.code.len() - 1,
            expected: "a number",
            found: "x".into(),
        });
        assert_eq!(&ifcall[e.column..], "x");
    }

    #[test]
    fn a_line_without_text_only_parts_is_borrowed() {
        let line = "add (M1, 16) V0010(0,0)<1> V0011(0,0)<1;1,0> 0x1:d";
        let c = cut(line, &IntelNames).unwrap();
        assert!(matches!(c.code, Cow::Borrowed(_)));
        assert_eq!(c.parts, LineParts::default());
        assert_eq!(c.column(7), 7);
        assert!(cut("ifcall.noreturn.uniform (M1, 1) V1 1 1", &IntelNames).is_err());
    }

    #[test]
    fn edits_are_what_differs() {
        assert_eq!(
            Edit::between("a.b.c (x)", "a.c (x)"),
            Edit {
                at: 2,
                now: 0,
                was: 2
            }
        );
        assert_eq!(
            Edit::between("x V1 V2 y", "x S31 %bss y"),
            Edit {
                at: 2,
                now: 8,
                was: 5
            }
        );
        assert_eq!(
            Edit::between("same", "same"),
            Edit {
                at: 4,
                now: 0,
                was: 0
            }
        );
    }
}
