//! Line layout of IGC's printer (`printInstruction`, note §1 caveat 1 and §3), measured on the
//! 59 files of `real-kernels/dg2`:
//! - an instruction is indented by 4 spaces; the text is padded with spaces to column 80 and
//!   followed by ` /// $<id>`, so the comment starts at column 81 (0-based 80) when the text is
//!   shorter than 80 columns and right after one space otherwise (7 236 of 8 000 lines have
//!   ` ///` at column 80; the rest are longer instructions, e.g.
//!   `    add3 (M1, 16) V0052(0,0)<1> V0047(0,0)<0;1,0> V0048(0,0)<1;1,0> V0036(0,0)<0;1,0> /// $5`);
//! - a label is a line `name:` after a blank line, with no comment (its id is used up:
//!   `control_flow_branches.visaasm` jumps from `$9` to `$11` around `_0_020:`);
//! - a subroutine starts with a line of 4 spaces, `.function "name"`, a blank line and the
//!   label (`calls_caller.visaasm`). IGC's header ends without a newline, so the first
//!   `.function` puts its 4 spaces at the end of the last header line
//!   (`.kernel_attr PerThreadInputSize=96    `).

use super::cursor::Cursor;
use super::error::ParseError;
use alloc::string::String;
use core::fmt::Write;

/// Indentation of instruction lines.
pub const INDENT: &str = "    ";
/// Instruction lines are padded to this many columns before ` /// $<id>`.
pub const COMMENT_COLUMN: usize = 80;

/// Appends `    <body>`, padding and ` /// $<id>` (no padding nor comment without an id, as for
/// `FILE`/`LOC`), and a newline.
pub fn push_instruction_line(out: &mut String, body: &str, id: Option<u32>) {
    let start = out.len();
    out.push_str(INDENT);
    out.push_str(body);
    if let Some(id) = id {
        let width = out.len() - start;
        for _ in width..COMMENT_COLUMN {
            out.push(' ');
        }
        let _ = write!(out, " /// ${id}");
    }
    out.push('\n');
}

/// Appends a block label: a blank line, then `name:`.
pub fn push_label_line(out: &mut String, name: &str) {
    let _ = writeln!(out, "\n{name}:");
}

/// Appends the start of a subroutine: `    `, `.function "name"`, a blank line, `name:`.
pub fn push_function_start(out: &mut String, name: &str) {
    let _ = writeln!(out, "{INDENT}\n.function \"{name}\"");
    push_label_line(out, name);
}

/// What one line of a kernel's text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// An indented instruction: its text (padding removed), the column where that text starts,
    /// and the `/// $<id>` if any.
    Instruction {
        body: &'a str,
        column: usize,
        id: Option<u32>,
    },
    /// `name:`
    Label(&'a str),
    /// `.function "name"`
    Function(&'a str),
    /// Empty or only spaces.
    Blank,
    /// Anything else (header, declarations, comments).
    Other(&'a str),
}

/// Classifies one line (without its newline). Fails only on a malformed `/// $<id>` comment.
pub fn split_line(line: &str) -> Result<Line<'_>, ParseError> {
    if line.trim().is_empty() {
        return Ok(Line::Blank);
    }
    if let Some(body) = line.strip_prefix(INDENT) {
        let (text, id) = match body.rfind(" /// $") {
            Some(at) => {
                let digits_at = INDENT.len() + at + " /// $".len();
                let mut c = Cursor::new(line);
                c.eat(line.get(..digits_at).unwrap_or(""));
                let id = c.unsigned_as::<u32>("an instruction id after `/// $`")?;
                c.finish()?;
                (&body[..at], Some(id))
            }
            None => (body, None),
        };
        return Ok(Line::Instruction {
            body: text.trim_end_matches(' '),
            column: INDENT.len(),
            id,
        });
    }
    if let Some(name) = line
        .strip_prefix(".function \"")
        .and_then(|r| r.strip_suffix('"'))
    {
        return Ok(Line::Function(name));
    }
    if let Some(name) = line.strip_suffix(':') {
        if !name.is_empty() && !name.contains(' ') {
            return Ok(Line::Label(name));
        }
    }
    Ok(Line::Other(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_lines_short_and_long() {
        // arith_float_float_ops.visaasm lines 127 and 131.
        let short = "    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud                         /// $1\n";
        let long = "    add3 (M1, 16) V0052(0,0)<1> V0047(0,0)<0;1,0> V0048(0,0)<1;1,0> V0036(0,0)<0;1,0> /// $5\n";
        let mut out = String::new();
        push_instruction_line(
            &mut out,
            "or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud",
            Some(1),
        );
        push_instruction_line(
            &mut out,
            "add3 (M1, 16) V0052(0,0)<1> V0047(0,0)<0;1,0> V0048(0,0)<1;1,0> V0036(0,0)<0;1,0>",
            Some(5),
        );
        assert_eq!(out, [short, long].concat());
        for (line, body, id) in [
            (
                short,
                "or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud",
                1,
            ),
            (
                long,
                "add3 (M1, 16) V0052(0,0)<1> V0047(0,0)<0;1,0> V0048(0,0)<1;1,0> V0036(0,0)<0;1,0>",
                5,
            ),
        ] {
            assert_eq!(
                split_line(line.trim_end_matches('\n')),
                Ok(Line::Instruction {
                    body,
                    column: 4,
                    id: Some(id)
                })
            );
        }
    }

    #[test]
    fn column_80_boundary() {
        // A 79-column text is padded to 80; an 80-column text gets no padding; 81 neither.
        for (len, expect) in [(79usize, 80usize), (80, 80), (81, 81)] {
            let body = "x".repeat(len - 4);
            let mut out = String::new();
            push_instruction_line(&mut out, &body, Some(7));
            assert_eq!(out.find(" /// $7"), Some(expect), "{len}");
        }
    }

    #[test]
    fn labels_and_functions() {
        // control_flow_branches.visaasm lines 97-100 and calls_caller.visaasm's
        // `    ret (M1, 1) ... /// $27`, `    `, `.function "helper_loop_2"`, ``,
        // `helper_loop_2:`.
        let mut out = String::new();
        push_instruction_line(&mut out, "(P1) goto (M1, 16) _0_019", Some(9));
        push_label_line(&mut out, "_0_020");
        assert!(out.ends_with("/// $9\n\n_0_020:\n"));
        let mut out = String::new();
        push_instruction_line(&mut out, "ret (M1, 1)", Some(27));
        push_function_start(&mut out, "helper_loop_2");
        assert!(out.ends_with("/// $27\n    \n.function \"helper_loop_2\"\n\nhelper_loop_2:\n"));
        assert_eq!(split_line("_0_020:"), Ok(Line::Label("_0_020")));
        assert_eq!(
            split_line(".function \"_main_0\""),
            Ok(Line::Function("_main_0"))
        );
        assert_eq!(split_line("    "), Ok(Line::Blank));
        assert_eq!(
            split_line(".decl V0032 v_type=G"),
            Ok(Line::Other(".decl V0032 v_type=G"))
        );
        assert_eq!(
            split_line("    FILE \"a.cl\""),
            Ok(Line::Instruction {
                body: "FILE \"a.cl\"",
                column: 4,
                id: None
            })
        );
        let e = split_line("    mov /// $x").unwrap_err();
        assert_eq!(e.column, 13);
    }
}
