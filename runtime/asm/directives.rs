//! Reads the lines of one source into routines: directives parsed, instruction lines and labels
//! kept in order for the second pass. Every error is collected; a bad line is skipped.

use super::diag::Diagnostic;
use super::lines::{code_lines, SourceLine};
use super::syntax::{Body, GeneralDecl, InputDecl, OtherDecl, RoutineKind, RoutineText, Span};
use super::tables::{alignment, IMPLICIT_INPUTS, INT_ATTRIBUTE_WIDTHS, TARGETS};
use crate::runtime::text::spellings::{text_only_type as text_only_type_of, type_of};
use crate::runtime::text::{parse_string_literal, Cursor, ParseError};
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Collects the errors of one file.
pub struct Errors<'f> {
    pub file: &'f str,
    pub list: Vec<Diagnostic>,
}

impl Errors<'_> {
    pub fn at(&mut self, span: Span<'_>, message: String, label: String) {
        self.list.push(Diagnostic {
            file: self.file.to_string(),
            line: span.line.number,
            column: span.column,
            len: span.len,
            message,
            label,
            source_line: span.line.text.to_string(),
            severity: crate::object::Severity::Error,
        });
    }

    /// A parse error of `line.code`, whose columns count from the code's start.
    pub fn parse(&mut self, line: SourceLine<'_>, e: &ParseError) {
        let found = if e.found.is_empty() {
            "found the end of the line".to_string()
        } else {
            format!("found `{}`", e.found)
        };
        let span = Span {
            line,
            column: line.column + e.column,
            len: e.found.len(),
        };
        self.at(span, format!("expected {}", e.expected), found);
    }
}

fn span_of<'a>(line: SourceLine<'a>, c: &Cursor<'_>, from: usize) -> Span<'a> {
    Span {
        line,
        column: line.column + from,
        len: c.column().saturating_sub(from),
    }
}

/// Reads every routine of `source`.
pub fn read_source<'a>(source: &'a str, errors: &mut Errors<'_>) -> Vec<RoutineText<'a>> {
    let mut routines: Vec<RoutineText<'a>> = Vec::new();
    let mut version = None;
    let mut pending_function: Option<(Cow<'a, str>, Span<'a>)> = None;
    let lines = code_lines(source);
    // Declarations and body lines still to come: a new routine reserves room for them all
    // (exact for one routine per source, as Intel writes), so its lists never grow by copying.
    let mut decls_left = lines.iter().filter(|l| l.code.starts_with(".decl")).count();
    let mut body_left = lines.iter().filter(|l| !l.code.starts_with('.')).count();
    for line in lines {
        let routines_before = routines.len();
        let r = read_line(line, &mut routines, &mut version, &mut pending_function);
        if let Err(e) = r {
            errors.parse(line, &e);
        }
        if line.code.starts_with(".decl") {
            decls_left = decls_left.saturating_sub(1);
        } else if !line.code.starts_with('.') {
            body_left = body_left.saturating_sub(1);
        }
        if routines.len() > routines_before {
            if let Some(r) = routines.last_mut() {
                r.generals.reserve(decls_left);
                r.body.reserve(body_left);
            }
        }
    }
    if let Some((name, span)) = pending_function {
        errors.at(
            span,
            format!("expected the label `{name}:` after `.function \"{name}\"`"),
            "no label follows".to_string(),
        );
    }
    routines
}

const STRING: &str = "a quoted name";

/// A quoted string, with the escapes the printer writes (`runtime::text::push_string_literal`).
fn quoted<'a>(c: &mut Cursor<'a>) -> Result<Cow<'a, str>, ParseError> {
    c.skip_spaces();
    if c.peek() != Some('"') {
        return Err(c.error(STRING));
    }
    parse_string_literal(c)
}

fn read_line<'a>(
    line: SourceLine<'a>,
    routines: &mut Vec<RoutineText<'a>>,
    version: &mut Option<(u8, u8)>,
    pending_function: &mut Option<(Cow<'a, str>, Span<'a>)>,
) -> Result<(), ParseError> {
    let mut c = Cursor::new(line.code);
    if !line.code.starts_with('.') {
        let routine = routines
            .last_mut()
            .ok_or_else(|| c.error("`.kernel \"name\"` or `.global_function \"name\"` first"))?;
        return body_line(line, &c, routine, pending_function);
    }
    let start = c.column();
    let directive = c.take_while(|ch| ch == '.' || ch == '_' || ch.is_ascii_alphanumeric());
    let dir_span = span_of(line, &c, start);
    match directive {
        ".version" => {
            c.skip_spaces();
            let major = c.unsigned_as::<u8>("a major version number")?;
            c.expect(".", "`.` between major and minor version")?;
            let minor = c.unsigned_as::<u8>("a minor version number")?;
            *version = Some((major, minor));
        }
        ".kernel" | ".global_function" => {
            let name = quoted(&mut c)?;
            let kind = if directive == ".kernel" {
                RoutineKind::Kernel
            } else {
                RoutineKind::Function
            };
            routines.push(RoutineText::new(kind, name.to_string(), *version));
        }
        // A declaration of a called function: nothing of it is stored (the `fcall` names it).
        ".funcdecl" => {
            quoted(&mut c)?;
        }
        ".function" => {
            let name = quoted(&mut c)?;
            *pending_function = Some((name, dir_span));
        }
        _ => {
            let routine = routines
                .last_mut()
                .ok_or_else(|| c.error_at(start, "`.kernel` or `.global_function` first"))?;
            if routine_directive(line, &mut c, start, directive, routine)? {
                return Ok(());
            }
        }
    }
    c.skip_spaces();
    c.finish().map_err(|_| c.error("the end of the line"))
}

/// A line of a routine's body: a label definition (the subroutine a `.function` line
/// announced, when it names it) or an instruction.
fn body_line<'a>(
    line: SourceLine<'a>,
    c: &Cursor<'a>,
    routine: &mut RoutineText<'a>,
    pending_function: &mut Option<(Cow<'a, str>, Span<'a>)>,
) -> Result<(), ParseError> {
    let Some(name) = label_definition(line.code) else {
        if pending_function.is_some() {
            return Err(c.error("the label the preceding `.function` line names"));
        }
        routine.body.push(Body::Instruction(line));
        return Ok(());
    };
    let span = Span {
        line,
        column: line.column,
        len: name.len(),
    };
    let subroutine = match pending_function.take() {
        Some((f, _)) if f == name => true,
        Some(_) => {
            return Err(c.error("the label the preceding `.function` line names"));
        }
        None => false,
    };
    routine.body.push(Body::Label {
        name,
        subroutine,
        span,
    });
    Ok(())
}

/// A directive of the current routine's header (`directive` starts at column `start`); true
/// when the rest of the line was taken as the routine's first instruction.
fn routine_directive<'a>(
    line: SourceLine<'a>,
    c: &mut Cursor<'a>,
    start: usize,
    directive: &str,
    routine: &mut RoutineText<'a>,
) -> Result<bool, ParseError> {
    match directive {
        ".decl" => decl(line, c, routine)?,
        ".input" => input(line, c, routine, 0)?,
        ".kernel_attr" => {
            c.skip_spaces();
            routine.attributes.push(attribute(c)?);
            // GenX_IR's print runs a first instruction that is not a label onto the
            // last header line (object-file note §2.9): `SimdSize=8    mov ...`.
            if c.skip_spaces() > 0 && !c.at_end() {
                let at = c.column();
                routine.body.push(Body::Instruction(SourceLine {
                    column: line.column + at,
                    code: c.rest(),
                    ..line
                }));
                return Ok(true);
            }
        }
        d if d.starts_with(".implicit_") => {
            let kind = &d[".implicit_".len()..];
            let provenance = IMPLICIT_INPUTS
                .iter()
                .find(|i| i.0 == kind)
                .map(|i| i.1)
                .or_else(|| kind.strip_prefix("UNDEFINED_")?.parse::<u8>().ok())
                .filter(|p| *p < 32)
                .ok_or_else(|| c.error_at(start, IMPLICIT_KINDS))?;
            input(line, c, routine, provenance)?;
        }
        _ => return Err(c.error_at(start, DIRECTIVES)),
    }
    Ok(false)
}

const IMPLICIT_KINDS: &str =
    "an implicit input kind: LOCAL_SIZE, GROUP_COUNT, LOCAL_ID or UNDEFINED_<0-31>";

const DIRECTIVES: &str = "a directive: .version .kernel .global_function .funcdecl .function .decl .input .implicit_<KIND> .kernel_attr";

/// `NAME:` with a label name (CISA.l's identifier characters).
fn label_definition(code: &str) -> Option<&str> {
    let name = code.strip_suffix(':')?;
    let mut c = Cursor::new(name);
    let id = c.identifier("").ok()?;
    c.at_end().then_some(id)
}

/// One `key=value` pair: the key, the column of the value.
fn key<'a>(c: &mut Cursor<'a>) -> Result<Option<&'a str>, ParseError> {
    c.skip_spaces();
    if c.at_end() {
        return Ok(None);
    }
    let at = c.column();
    let k = c.take_while(|ch| ch == '_' || ch.is_ascii_alphanumeric());
    if k.is_empty() {
        return Err(c.error("a `key=value` attribute"));
    }
    if !c.eat("=") {
        return Err(c.error_at(at, "a `key=value` attribute"));
    }
    Ok(Some(k))
}

fn word<'a>(c: &mut Cursor<'a>) -> &'a str {
    c.take_while(|ch| !ch.is_whitespace())
}

fn decl<'a>(
    line: SourceLine<'a>,
    c: &mut Cursor<'a>,
    routine: &mut RoutineText<'a>,
) -> Result<(), ParseError> {
    c.skip_spaces();
    let at = c.column();
    let name = c.identifier("a variable name")?;
    let span = span_of(line, c, at);
    let mut class = None;
    let mut ty = None;
    let mut text_only_type = None;
    let mut num_elts = None;
    let mut align = 0u8;
    let mut alias = None;
    let mut v_name = None;
    let mut attrs = Vec::new();
    while let Some(k) = key(c)? {
        let vat = c.column();
        match k {
            "v_type" => {
                let v = word(c);
                class = Some(match v {
                    "G" | "P" | "A" | "S" | "T" => v,
                    _ => return Err(c.error_at(vat, "a variable class: G, P, A, S or T")),
                });
            }
            "type" => {
                let v = word(c);
                text_only_type = text_only_type_of(v);
                let t = type_of(v)
                    .filter(|t| t.as_u8() <= 0xf)
                    .or(text_only_type.map(|t| t.held_as))
                    .ok_or_else(|| {
                        c.error_at(
                            vat,
                            "a data type (ud d uw w ub b df f uq q hf bf tf32 hf8 bf8 e2m1)",
                        )
                    })?;
                ty = Some(t.as_u8());
            }
            "num_elts" => num_elts = Some(c.unsigned_as::<u16>("a number of elements (0-65535)")?),
            "align" => {
                let v = word(c);
                align = alignment(v).ok_or_else(|| {
                    c.error_at(
                        vat,
                        "an alignment: byte word dword qword oword GRF GRFx2 hword wordx32 wordx64",
                    )
                })?;
            }
            "alias" => alias = Some(alias_value(line, c)?),
            "v_name" => v_name = Some(word(c)),
            "attrs" => attrs = attribute_list(c)?,
            _ => {
                return Err(c.error_at(
                    vat - k.len() - 1,
                    "a declaration attribute: v_type type num_elts align alias v_name attrs",
                ))
            }
        }
    }
    let Some(class) = class else {
        return Err(c.error("`v_type=G|P|A|S|T` in the declaration"));
    };
    let num_elts = || num_elts.ok_or_else(|| c.error("`num_elts=` in the declaration"));
    if class == "G" {
        let ty = ty.ok_or_else(|| c.error("`type=` in a general variable's declaration"))?;
        let num_elts = num_elts()?;
        routine.generals.push(GeneralDecl {
            name,
            span,
            ty,
            text_only_type,
            num_elts,
            align,
            alias,
            attrs,
        });
        return Ok(());
    }
    let d = OtherDecl {
        name,
        span,
        num_elts: num_elts()?,
        v_name,
        attrs,
    };
    match class {
        "P" => routine.predicates.push(d),
        "A" => routine.addresses.push(d),
        "S" => routine.samplers.push(d),
        _ => routine.surfaces.push(d),
    }
    Ok(())
}

/// `<variable, offset>` after `alias=`: the aliased variable, the byte offset and where the
/// variable's name is.
fn alias_value<'a>(
    line: SourceLine<'a>,
    c: &mut Cursor<'a>,
) -> Result<(&'a str, u16, Span<'a>), ParseError> {
    c.expect("<", "`<` starting `alias=<variable, offset>`")?;
    c.skip_spaces();
    let at = c.column();
    let base = c.identifier("the aliased variable's name")?;
    let bspan = span_of(line, c, at);
    c.skip_spaces();
    c.expect(",", "`,` between the aliased variable and the offset")?;
    c.skip_spaces();
    let off = c.unsigned_as::<u16>("a byte offset (0-65535)")?;
    c.skip_spaces();
    c.expect(">", "`>` closing `alias=<variable, offset>`")?;
    Ok((base, off, bspan))
}

fn input<'a>(
    line: SourceLine<'a>,
    c: &mut Cursor<'a>,
    routine: &mut RoutineText<'a>,
    provenance: u8,
) -> Result<(), ParseError> {
    c.skip_spaces();
    let at = c.column();
    let name = c.identifier("the input variable's name")?;
    let span = span_of(line, c, at);
    let mut offset = None;
    let mut size = None;
    while let Some(k) = key(c)? {
        match k {
            "offset" => {
                let at = c.column();
                let v = c.signed("a byte offset")?;
                offset = Some(
                    i16::try_from(v).map_err(|_| c.error_at(at, "an offset that fits 16 bits"))?,
                );
            }
            "size" => size = Some(c.unsigned_as::<u16>("a size in bytes (0-65535)")?),
            _ => return Err(c.error_at(c.column() - k.len() - 1, "`offset=` or `size=`")),
        }
    }
    routine.inputs.push(InputDecl {
        provenance,
        name,
        span,
        offset: offset.ok_or_else(|| c.error("`offset=` in the input"))?,
        size: size.ok_or_else(|| c.error("`size=` in the input"))?,
    });
    Ok(())
}

/// `Name`, `Name=<int>` or `Name="<string>"`, encoded as the object file holds it.
fn attribute(c: &mut Cursor<'_>) -> Result<(String, Vec<u8>), ParseError> {
    let name = c.identifier("an attribute name")?.to_string();
    if !c.eat("=") {
        return Ok((name, Vec::new()));
    }
    let at = c.column();
    if c.peek() == Some('"') {
        let text = quoted(c)?;
        if name == "Target" {
            let v = TARGETS
                .iter()
                .find(|t| t.0 == text)
                .ok_or_else(|| c.error_at(at, "a target: \"cm\", \"3d\" or \"cs\""))?;
            return Ok((name, alloc::vec![v.1]));
        }
        return Ok((name, text.as_bytes().to_vec()));
    }
    let v = c.signed("an integer or a quoted string")?;
    let width = INT_ATTRIBUTE_WIDTHS
        .iter()
        .find(|w| w.0 == name)
        .map_or(4, |w| w.1);
    let bytes = v.to_le_bytes();
    let fits = if v < 0 {
        width == 8 || v >= -(1i64 << (width * 8 - 1))
    } else {
        width == 8 || v < (1i64 << (width * 8))
    };
    if !fits {
        return Err(c.error_at(at, "a value that fits the attribute's width"));
    }
    Ok((name, bytes[..width].to_vec()))
}

/// `{Name, Name=1, Name="s"}` after `attrs=`.
fn attribute_list(c: &mut Cursor<'_>) -> Result<Vec<(String, Vec<u8>)>, ParseError> {
    c.expect("{", "`{` starting the attribute list")?;
    let mut out = Vec::new();
    loop {
        c.skip_spaces();
        if c.eat("}") {
            return Ok(out);
        }
        out.push(attribute(c)?);
        c.skip_spaces();
        if !c.eat(",") {
            c.skip_spaces();
            c.expect("}", "`,` or `}` in the attribute list")?;
            return Ok(out);
        }
    }
}
