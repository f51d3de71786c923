//! The instruction lines of a routine's text (IGC's `printInstruction` per instruction, each
//! followed by a newline), numbered from `$0`: every instruction, a label too, uses an id.
//!
//! - `SUBROUTINE` prints `    `, a newline, `.function "N"`, a blank line and `N:`, with N the
//!   label's name made a subroutine name (`_main` → `_main_0`);
//! - `LABEL` prints a blank line and `name:`;
//! - `FILE` and `LOC` print without the ` /// $N` comment;
//! - every other instruction is `    ` + [`Instruction::print_text`] padded to column 80 and
//!   ` /// $N` (`push_instruction_line`).
//!
//! The header ends without a newline, so a routine whose first instruction is not a label
//! would have it on the header's last line: that is what GenX_IR prints (visa-object-file.md
//! §2.9), and this printer does the same. Intel's compiler never shows the case: all 59 dg2
//! routines begin with `SUBROUTINE`, whose `    ` is what trails the last `.kernel_attr`.
//!
//! Both label instructions are an opcode byte and the label id (UW), read from the encoded
//! bytes so this module compiles in crates generated from any doc set, with or without them.

use super::names::RoutineNames;
use super::{line_number, Printed, Problem, View};
use crate::object::RoutineTextOnly;
use crate::runtime::text::push_string_literal;
use crate::runtime::text::{push_instruction_line, subroutine_label_name, PrintError};
use crate::Instruction;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// The label id of a `LABEL` or `SUBROUTINE`.
fn label_id(inst: &Instruction) -> Option<u32> {
    let mut bytes = Vec::new();
    inst.encode(&mut bytes);
    match bytes.as_slice() {
        [_, lo, hi, ..] => Some(u32::from(u16::from_le_bytes([*lo, *hi]))),
        _ => None,
    }
}

/// The label's name in the string pool.
fn label_name(v: &View<'_>, inst: &Instruction) -> Result<(u32, String), String> {
    let id = label_id(inst).ok_or_else(|| format!("{} has no label id", inst.name()))?;
    let info = v
        .label_info
        .get(id as usize)
        .ok_or_else(|| format!("{} names label {id}, which is not declared", inst.name()))?;
    let name = v.string(info.name_index).ok_or_else(|| {
        format!(
            "label {id} is named by string {}, past the string pool",
            info.name_index
        )
    })?;
    Ok((id, name))
}

/// `text_only`: what the routine's text held that its instructions cannot
/// (`RoutineTextOnly`: L2 cache controls, sampler and surface variables, mnemonic words,
/// paired resources), put back into their lines.
pub(crate) fn push_body(
    p: &mut Printed,
    v: &View<'_>,
    names: &RoutineNames<'_>,
    text_only: Option<&RoutineTextOnly>,
) {
    let mut body = String::new();
    for (n, (_, inst)) in v.instructions.instructions.iter().enumerate() {
        let id = u32::try_from(n).unwrap_or(u32::MAX);
        match inst.name() {
            "SUBROUTINE" => match label_name(v, inst) {
                Ok((label, name)) => {
                    let name = subroutine_label_name(&name, label);
                    // IGC 2.x puts the blank line before `.function`, 12504.6 after it.
                    let (before, after) = if v.modern { ("\n", "") } else { ("", "\n") };
                    let _ = write!(p.text, "    \n{before}.function ");
                    push_string_literal(&mut p.text, &name);
                    let _ = writeln!(p.text, "\n{after}{name}:");
                }
                Err(e) => failed(p, id, e),
            },
            "LABEL" => match label_name(v, inst) {
                Ok((_, name)) => {
                    let _ = writeln!(p.text, "\n{name}:");
                }
                Err(e) => failed(p, id, e),
            },
            other => {
                body.clear();
                let line_id = (!matches!(other, "FILE" | "LOC")).then_some(id);
                match inst.print_text(names, &mut body) {
                    Ok(()) => {
                        match super::with_text_only(body.clone(), n, text_only, names) {
                            Some(line) => push_instruction_line(&mut p.text, &line, line_id),
                            None => failed(p, id, format!("{other}: what its text held beside it (RoutineTextOnly) has no place in `{body}`")),
                        }
                    }
                    Err(e @ PrintError::Unprintable { .. }) => {
                        // Intel prints the line whatever bits its text cannot show: so do we,
                        // and say that it will not assemble back to these bytes.
                        body.clear();
                        match inst.print_text_lossy(names, &mut body) {
                            Ok(()) => {
                                let line = line_number(&p.text);
                                p.notes.push(Problem {
                                    line,
                                    message: format!("instruction ${id}: {other}: will not assemble back to the same bytes: {e}"),
                                    instruction: Some(id),
                                });
                                push_instruction_line(&mut p.text, &body, line_id);
                            }
                            Err(_) => failed(p, id, format!("{other}: {e}")),
                        }
                    }
                    Err(e) => failed(p, id, format!("{other}: {e}")),
                }
            }
        }
    }
    if let Some(stop) = &v.instructions.stop {
        let message = stop.describe();
        own_line(p);
        p.problem(message.clone());
        let _ = writeln!(p.text, "// decoding stopped: {message}");
    }
}

/// A line standing for an instruction that cannot be printed: a comment with its id, so the
/// lines after it keep their places.
fn failed(p: &mut Printed, id: u32, message: String) {
    own_line(p);
    p.problem_at(format!("instruction ${id}: {message}"), Some(id));
    push_instruction_line(
        &mut p.text,
        &format!("// cannot print: {message}"),
        Some(id),
    );
}

/// Our comment lines start a line of their own, even right after the header (which ends
/// without a newline).
fn own_line(p: &mut Printed) {
    if !p.text.is_empty() && !p.text.ends_with('\n') {
        p.text.push('\n');
    }
}
