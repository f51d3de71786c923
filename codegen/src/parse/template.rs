//! `## Text` templates → typed [`Syntax`].
//!
//! A template is one line: `[(<P>)] MNEMONIC{suffix} [(<group>, ...)] {<operand>}`, where a
//! suffix is `.sat`, `.word`, `.<field>`, `.x<field>`, `.{A?B?}` (flags) or `[...]` (optional;
//! `[.16|.64]` is a choice), and a mnemonic may hold alternatives (`FENCE_{GLOBAL|LOCAL}`,
//! `{raw_send|raw_sendc}`: one form each); spaces before `[.suffix]` are allowed (`MOV [.sat]`
//! in the 2021 docs). `//` starts a comment; a trailing `|` separates
//! alternatives (MIN_MAX). A comment `<a> = string_pool[<b>]` makes slot `a` print field `b`
//! as a string. A comment of one word names its line's form: where a doc has several forms, each
//! is selected by the enumerated value named by its mnemonic, a literal suffix or that word
//! (NBARRIER's `.signal ... // baseline` and `// general`). Operands keep the template's layout: two spaces before a slot are two spaces
//! in the text (`VME_SIC <surface>  <UNIInput>`, as Intel prints it), and `0x<slot>` is a
//! number in hexadecimal with Intel's prefix (RAW_SEND's `0x<ExMsgDesc>`; `.0x<sfid>` after the
//! mnemonic, RAW_SENDG's), in upper-case digits when a comment of the template says
//! "upper-case hexadecimal"; `<a>/<b>` prints `b` right after `a` behind the text between
//! them (RAW_SENDG's `<dst>/<dstLen>`). A group keeps its
//! layout too: its separator as written (`(<w>,<h>)` prints `(16,4)`: MEDIA_LD) and no space
//! before it when written glued to the mnemonic (`VME_IME(<a>,<b>)` prints `vme_ime(0,0)`).
//! `<#slot>` prints the field's value as a decimal number even where the field names its values
//! (VME_IME's stream mode and search control).
//!
//! A slot naming no field may name a member of a bit-packed field (`member_of`): the one bit
//! range, of all fields, whose bullet's summary holds the slot's words (SAMPLE_UNORM's
//! `<output_format>` is `Channel_mask` Bit[5..4], "is Output format control"). A comment
//! `<slot> is one of "a", "b", ...` gives the text of the slot's values in the doc's order
//! (`one_of_spellings`: SAMPLE_UNORM's `"16-full", "16-downsampled", ...`).
//!
//! Rules, each documented in `codegen/DIAGNOSTICS.md`:
//! - mnemonic spelling: lower case, as Intel prints it, except debug directives (the doc's
//!   description says the instruction "is used for debugging purposes": FILE, LOC), which keep
//!   the template's upper case;
//! - a slot names the field whose name equals it ignoring case (`<src0>` → `Src0`); a slot
//!   naming no field is warning V0131 and prints [`Prints::Unknown`];
//! - what a slot prints follows from its field, first rule that holds: exec size (named
//!   `Exec_size`/`ExecSize`, or a bit range about the execution mask), vector (`vec_operand`,
//!   `scalar`), raw (`raw_operand`), surface / sampler (named so), label (named `Label`),
//!   channel mask (named `Channels`/`Channel_mask`), symbol (description mentions a string),
//!   name (enumerated values), number;
//! - special forms (warning V0132, [`Syntax::Special`]): no template; the only field is
//!   `Label`; a `NumParams` field; a template continued on deeper-indented lines.

use super::source::{Line, Source};
use crate::diag::{Code, Diagnostic};
use crate::schema::{
    BitField, Field, FieldValue, GroupLayout, Member, Prints, Slot, SpecialRule, Suffix,
    SuffixKind, Syntax, SyntaxForm,
};
use std::collections::BTreeMap;

/// Reads the templates of one doc from the lines of its `## Text` section. `heading` is the
/// span diagnostics use when there is no line to point at.
pub fn read(
    src: &Source,
    lines: &[Line],
    heading: crate::schema::Span,
    fields: &[Field],
    description: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Syntax> {
    let tlines: Vec<TLine> = lines
        .iter()
        .filter(|l| !super::text::is_fence(l.text))
        .map(|l| TLine::new(l.start, l.text))
        .collect();
    let code: Vec<&TLine> = tlines
        .iter()
        .filter(|l| !l.code.trim().is_empty())
        .collect();
    let at_first = code.first().map_or(heading, |l| {
        src.span(l.start + l.lead, l.start + l.code.trim_end().len())
    });
    if let Some((rule, reason)) = special(&tlines, &code, fields) {
        let at = if code.is_empty() { heading } else { at_first };
        diags.push(
            Diagnostic::new(
                Code::SpecialForm,
                src.name,
                at,
                format!("special form ({reason}): no template describes it; a hand-written formatter prints it"),
            )
            .expected("a one-line token template per form"),
        );
        return Some(Syntax::Special {
            rule,
            reason: reason.to_string(),
        });
    }
    let mut aliases = BTreeMap::new();
    let mut one_of = BTreeMap::new();
    let mut upper_hex = false;
    for l in &tlines {
        if let Some(c) = l.comment {
            aliases.extend(string_pool_aliases(c));
            one_of.extend(one_of_spellings(c));
            upper_hex |= c.to_ascii_lowercase().contains(UPPER_HEX);
        }
    }
    let ctx = Ctx {
        src,
        fields,
        aliases,
        one_of,
        upper_hex,
        keep_case: description
            .to_ascii_lowercase()
            .contains("used for debugging purposes"),
    };
    let mut forms = Vec::new();
    let mut labels = Vec::new();
    let mut unreadable = None;
    for l in &code {
        match ctx.template(l, diags) {
            Ok(f) => {
                labels.extend(f.iter().map(|_| form_label(l.comment)));
                forms.extend(f);
            }
            Err(why) => {
                unreadable.get_or_insert(why);
            }
        }
    }
    if let Some(why) = unreadable {
        return Some(Syntax::Unreadable { why });
    }
    if forms.len() > 1 {
        for (f, label) in forms.iter_mut().zip(labels) {
            f.selected_by = selector(f, label, fields);
        }
    }
    Some(Syntax::Templates { forms })
}

impl Ctx<'_, '_> {
    /// One template line's forms, or V0130 and the place of the unreadable token.
    fn template(&self, l: &TLine, diags: &mut Vec<Diagnostic>) -> Result<Vec<SyntaxForm>, String> {
        let text = l.code.trim_end();
        let text = text.strip_suffix('|').unwrap_or(text).trim_end();
        let e = match self.line(l.start, text, diags) {
            Ok(forms) => return Ok(forms),
            Err(e) => e,
        };
        let src = self.src;
        let span = src.span(l.start + e.at, l.start + e.at + e.len.max(1));
        let stem = src.name.strip_suffix(".md").unwrap_or(src.name);
        diags.push(
            Diagnostic::new(
                Code::BadTemplate,
                src.name,
                span,
                format!(
                    "cannot read template `{}`: {}; {stem} has no text form",
                    text.trim(),
                    e.message
                ),
            )
            .expected(e.expected),
        );
        Err(format!(
            "{}:{}:{}: its `## Text` template cannot be read (warning V0130)",
            src.name, span.line, span.column
        ))
    }
}

/// A line of the section: where it starts, its indentation, and its code and comment parts.
struct TLine<'a> {
    start: usize,
    lead: usize,
    indent: usize,
    code: &'a str,
    comment: Option<&'a str>,
}

impl<'a> TLine<'a> {
    fn new(start: usize, text: &'a str) -> Self {
        let (code, comment) = match text.find("//") {
            Some(i) => (&text[..i], Some(&text[i + 2..])),
            None => (text, None),
        };
        let lead = code.len() - code.trim_start().len();
        let indent = code[..lead]
            .chars()
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum();
        TLine {
            start,
            lead,
            indent,
            code,
            comment,
        }
    }
}

/// The special-form rules, in order (see the module docs).
fn special(
    all: &[TLine],
    code: &[&TLine],
    fields: &[Field],
) -> Option<(SpecialRule, &'static str)> {
    if code.is_empty() {
        return Some((SpecialRule::NoTemplate, "`## Text` holds no template"));
    }
    if fields.len() == 1 && fields[0].name.eq_ignore_ascii_case("label") {
        return Some((
            SpecialRule::LabelDefinition,
            "the only field is `Label`: the doc defines a label",
        ));
    }
    if fields
        .iter()
        .any(|f| f.name.eq_ignore_ascii_case("numparams"))
    {
        return Some((
            SpecialRule::VariableOperands,
            "field `NumParams` counts the operands, so the operand list varies",
        ));
    }
    let continued = all.windows(2).any(|w| {
        !w[0].code.trim().is_empty() && !w[1].code.trim().is_empty() && w[1].indent > w[0].indent
    });
    if continued {
        return Some((
            SpecialRule::MetaGrammar,
            "a template continues on deeper-indented lines: a meta-grammar, not tokens",
        ));
    }
    None
}

/// `<func_name> = string_pool[<func_id>]` → `func_name` → `func_id`.
fn string_pool_aliases(comment: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(i) = rest.find("string_pool[") {
        let before = rest[..i].trim_end();
        let after = &rest[i + "string_pool[".len()..];
        let target = after
            .split(']')
            .next()
            .unwrap_or("")
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>');
        if let Some(lhs) = before.strip_suffix('=') {
            let lhs = lhs.trim_end();
            if let Some(open) = lhs.rfind('<') {
                let name = lhs[open + 1..].trim_end_matches('>');
                if !name.is_empty() && !target.is_empty() {
                    out.push((name.to_ascii_lowercase(), target.to_string()));
                }
            }
        }
        rest = after;
    }
    out
}

/// The words of a template comment that make its hexadecimal slots print upper-case digits
/// (RAW_SENDG: IGC prints `raw_sendg.0xE` and `0x2000000A`).
const UPPER_HEX: &str = "upper-case hexadecimal";

/// `<output_format> is one of "16-full", "16-downsampled"` → `output_format` → the quoted
/// words, in order: the text of the slot's values, in the doc's order of values.
fn one_of_spellings(comment: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = comment;
    while let Some(i) = rest.find("is one of") {
        let before = rest[..i].trim_end();
        let after = &rest[i + "is one of".len()..];
        let name = before
            .strip_suffix('>')
            .and_then(|b| b.rfind('<').map(|open| &b[open + 1..]))
            .filter(|n| is_ident(n));
        // The quoted words up to the next `<slot>` (a comment may say two slots' lists).
        let list = &after[..after.find('<').unwrap_or(after.len())];
        let words: Vec<String> = list
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        if let Some(name) = name.filter(|_| !words.is_empty()) {
            out.push((name.to_ascii_lowercase(), words));
        }
        rest = after;
    }
    out
}

/// The member of a bit-packed field that a slot naming no field names: the one bit range, of
/// all fields, whose summary holds the slot's words in order as whole words (`output_format`
/// in "is Output format control"); `None` when no range or more than one does.
fn member_of<'f>(fields: &'f [Field], name: &str) -> Option<(&'f Field, &'f BitField)> {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let want = words(name);
    if want.is_empty() {
        return None;
    }
    let mut found = fields.iter().flat_map(|f| {
        f.bitfields
            .iter()
            .filter(|b| words(&b.summary).windows(want.len()).any(|w| w == want))
            .map(move |b| (f, b))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// What a slot naming a member prints: channel letters for a slot named `channel...` (as for
/// a field so named), the value's name when the range enumerates values, else a number.
fn member_prints(name: &str, b: &BitField) -> Prints {
    if name.to_ascii_lowercase().starts_with("channel") {
        Prints::Channels
    } else if !b.values.is_empty() {
        Prints::Name
    } else {
        Prints::Number
    }
}

/// The one word of a template line's comment, which names the form (NBARRIER's
/// `NBARRIER.signal <id> <num_threads>  // baseline`); `None` for no comment or a longer one.
fn form_label(comment: Option<&str>) -> Option<&str> {
    let c = comment?.trim();
    is_ident(c).then_some(c)
}

/// The enumerated value whose name is the form's mnemonic, one of its literal suffixes or the
/// one word of its line's comment (`label`): the first such value in the doc's order.
fn selector(form: &SyntaxForm, label: Option<&str>, fields: &[Field]) -> Option<FieldValue> {
    let mut words = vec![form.mnemonic.to_ascii_lowercase()];
    for s in &form.suffixes {
        if let SuffixKind::Literal { text } = &s.kind {
            words.push(text.to_ascii_lowercase());
        }
    }
    words.extend(label.map(str::to_ascii_lowercase));
    for f in fields {
        if exec_size(f) {
            continue;
        }
        let values = f
            .values
            .iter()
            .chain(f.bitfields.iter().flat_map(|b| b.values.iter()));
        for v in values {
            let name = v.meaning.split_whitespace().next().unwrap_or("");
            if words.iter().any(|w| w.eq_ignore_ascii_case(name)) {
                return Some(FieldValue {
                    field: f.name.clone(),
                    value: v.value,
                    name: name.to_string(),
                });
            }
        }
    }
    None
}

/// Does the field print an exec size `(M1, 16)`?
fn exec_size(f: &Field) -> bool {
    let n = f.name.to_ascii_lowercase().replace('_', "");
    n == "execsize"
        || f.bitfields
            .iter()
            .any(|b| b.summary.to_ascii_lowercase().contains("execution mask"))
}

/// What a slot linked to `f` prints (first rule that holds).
pub fn prints(f: &Field) -> Prints {
    let name = f.name.to_ascii_lowercase();
    let enumerated = !f.values.is_empty() || f.bitfields.iter().any(|b| !b.values.is_empty());
    if exec_size(f) {
        Prints::ExecSize
    } else if f.ty == "vec_operand" || f.ty == "scalar" {
        Prints::Vector
    } else if f.ty == "raw_operand" {
        Prints::Raw
    } else if name == "surface" {
        Prints::Surface
    } else if name == "sampler" {
        Prints::Sampler
    } else if name == "label" {
        Prints::Label
    } else if name.starts_with("channel") {
        Prints::Channels
    } else if f.description.to_ascii_lowercase().contains("string") {
        Prints::Symbol
    } else if enumerated {
        Prints::Name
    } else {
        Prints::Number
    }
}

/// A template that cannot be read: where (byte offset in the line), what, what was expected.
struct Error {
    at: usize,
    len: usize,
    message: String,
    expected: String,
}

fn err(at: usize, len: usize, message: impl Into<String>, expected: &str) -> Error {
    Error {
        at,
        len,
        message: message.into(),
        expected: expected.to_string(),
    }
}

struct Ctx<'s, 'f> {
    src: &'s Source<'s>,
    fields: &'f [Field],
    aliases: BTreeMap<String, String>,
    /// Spellings of slots' values from `<slot> is one of "a", ...` comments, by slot name.
    one_of: BTreeMap<String, Vec<String>>,
    /// A comment says "upper-case hexadecimal": every hexadecimal slot prints so.
    upper_hex: bool,
    keep_case: bool,
}

/// A cursor over one line's text; positions are byte offsets into the line.
struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        self.s.get(self.pos..).unwrap_or("")
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }
    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
    fn ident(&mut self) -> &'a str {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        self.s.get(start..self.pos).unwrap_or("")
    }
    /// At `open`: the text up to the matching `close` (nesting counted), consumed with both
    /// brackets; `None` (nothing consumed) when it is not closed.
    fn bracketed(&mut self, open: char, close: char) -> Option<(usize, &'a str)> {
        let mut depth = 0usize;
        for (i, c) in self.rest().char_indices() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let start = self.pos + open.len_utf8();
                    let inner = self.s.get(start..self.pos + i).unwrap_or("");
                    self.pos += i + close.len_utf8();
                    return Some((start, inner));
                }
            }
        }
        None
    }
}

/// At `{`: `.{E?I?S?}`, optional flag letters.
fn flags(c: &mut Cursor) -> Result<SuffixKind, Error> {
    let at = c.pos;
    let Some((_, inner)) = c.bracketed('{', '}') else {
        return Err(err(at, 1, "`{` is never closed", "`.{A?B?}`"));
    };
    let flags: Vec<String> = inner
        .split('?')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(String::from)
        .collect();
    if !inner.trim_end().ends_with('?') || !flags.iter().all(|f| is_ident(f)) {
        return Err(err(
            at,
            c.pos - at,
            format!("`{{{inner}}}` is not a set of optional flags"),
            "`.{A?B?C?}`",
        ));
    }
    Ok(SuffixKind::Flags { flags })
}

/// At `[`: `[Name]` holding a field name (no dot), consumed; its start and the name.
fn inline_value<'a>(c: &mut Cursor<'a>) -> Option<(usize, &'a str)> {
    if c.peek() != Some('[') {
        return None;
    }
    let save = c.pos;
    match c.bracketed('[', ']') {
        Some((at, inner)) if is_ident(inner) && !inner.starts_with('_') => Some((at, inner)),
        _ => {
            c.pos = save;
            None
        }
    }
}

/// The text without whitespace: `( <P> )` → `(<P>)`.
fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The mnemonic, one string per alternative: `FENCE_{GLOBAL|LOCAL}` → `FENCE_GLOBAL`,
/// `FENCE_LOCAL`.
fn mnemonics(c: &mut Cursor) -> Result<Vec<String>, Error> {
    let start = c.pos;
    let mut mnemonics = vec![String::new()];
    loop {
        match c.peek() {
            Some(ch) if ch.is_ascii_alphanumeric() || ch == '_' => {
                let word = c.ident();
                mnemonics.iter_mut().for_each(|m| m.push_str(word));
            }
            Some('{') => {
                let at = c.pos;
                let Some((_, inner)) = c.bracketed('{', '}') else {
                    return Err(err(at, 1, "`{` is never closed", "`{A|B}`"));
                };
                let options: Vec<&str> = inner.split('|').map(str::trim).collect();
                if options.len() < 2 || !options.iter().all(|o| is_ident(o)) {
                    return Err(err(
                        at,
                        c.pos - at,
                        format!("`{{{inner}}}` is not a list of alternatives"),
                        "`{A|B}` with words between `|`",
                    ));
                }
                mnemonics = mnemonics
                    .iter()
                    .flat_map(|m| options.iter().map(move |o| format!("{m}{o}")))
                    .collect();
            }
            _ => break,
        }
    }
    if c.pos == start {
        let len = c.rest().chars().next().map_or(0, char::len_utf8);
        return Err(err(c.pos, len, "no mnemonic", "a mnemonic such as `ADD`"));
    }
    Ok(mnemonics)
}

/// `<#name>`: the slot prints its field's value as a decimal number, even where the field
/// enumerates named values (VME_IME's `vme_ime(0,0)`, as Intel prints the stream mode and
/// search control). Whether the slot was so marked, and its name without the mark.
fn number_mark(inside: &str) -> (bool, &str) {
    match inside.strip_prefix('#') {
        Some(name) => (true, name),
        None => (false, inside),
    }
}

/// A slot marked `<#name>` prints a number: allowed for a field that prints a name or a number
/// (a slot naming no field keeps V0131); an operand or any other kind cannot be a number.
fn as_number(mut slot: Slot, number: bool, at: usize, text: &str) -> Result<Slot, Error> {
    if !number {
        return Ok(slot);
    }
    match slot.prints {
        Prints::Name | Prints::Number => slot.prints = Prints::Number,
        Prints::Unknown => {}
        other => {
            return Err(err(
                at,
                text.len(),
                format!("`{text}` marks a number, but its field prints {other:?}"),
                "`<#name>` on a field of enumerated values or a number",
            ))
        }
    }
    Ok(slot)
}

/// The separator between the slots of `(...)` (`inner` starts at byte `at`), as written: `, `
/// or `,` (MEDIA_LD's `(<w>,<h>)`: Intel prints `(16,4)`); `None` for one slot. Every gap
/// must be written alike.
fn group_separator(at: usize, inner: &str) -> Result<Option<String>, Error> {
    let mut gaps = inner.split(',').skip(1).map(|item| {
        let spaces = item.len() - item.trim_start().len();
        format!(",{}", &item[..spaces])
    });
    let Some(first) = gaps.next() else {
        return Ok(None);
    };
    if gaps.any(|g| g != first) {
        return Err(err(
            at,
            inner.len(),
            format!("`({inner})` separates its slots in different ways"),
            "the same separator between every two slots, `, ` or `,`",
        ));
    }
    Ok(Some(first))
}

/// The group's layout: glued to the mnemonic when the template writes no space before `(`.
fn group_layout(glued: bool, separator: Option<String>) -> GroupLayout {
    let mut layout = GroupLayout {
        glued,
        ..GroupLayout::default()
    };
    if let Some(s) = separator {
        layout.separator = s;
    }
    layout
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Ctx<'_, '_> {
    /// One template line (starting at byte `base` of the doc) → one form per mnemonic
    /// alternative. Phases: predicate, mnemonic, suffixes, group, operands.
    fn line(
        &self,
        base: usize,
        text: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Vec<SyntaxForm>, Error> {
        let mut c = Cursor { s: text, pos: 0 };
        let mut found = Vec::new();
        let predicate = self.predicate(base, &mut c, &mut found)?;
        let m_start = c.pos;
        let mnemonics = mnemonics(&mut c)?;
        let mnemonic_end = c.pos;
        let suffixes = self.suffixes(base, &mut c, &mut found)?;
        let glued = c.peek() == Some('(');
        let (group, separator) = self.group(base, &mut c, &mut found)?;
        let group_layout = group_layout(glued && !group.is_empty(), separator);
        let operands = self.operands(base, &mut c, &mut found)?;
        diags.append(&mut found);
        let template = text.trim().to_string();
        let span = self.src.span(base + m_start, base + mnemonic_end);
        Ok(mnemonics
            .into_iter()
            .map(|m| SyntaxForm {
                template: template.clone(),
                mnemonic: if self.keep_case {
                    m
                } else {
                    m.to_ascii_lowercase()
                },
                predicate: predicate.clone(),
                suffixes: suffixes.clone(),
                group: group.clone(),
                group_layout: group_layout.clone(),
                operands: operands.clone(),
                selected_by: None,
                span,
            })
            .collect())
    }

    /// The predicate prefix: `[(<P>)]`, or `(<P>)` written without brackets (the same slot:
    /// `Pred` = 0 means no predicate, which prints as nothing).
    fn predicate(
        &self,
        base: usize,
        c: &mut Cursor,
        found: &mut Vec<Diagnostic>,
    ) -> Result<Option<Slot>, Error> {
        c.skip_ws();
        let save = c.pos;
        let (at, inner) = match c.peek() {
            Some('[') => match c.bracketed('[', ']') {
                Some(x) => x,
                None => return Ok(None),
            },
            Some('(') if compact(c.rest()).starts_with("(<P>)") => match c.bracketed('(', ')') {
                Some((at, inner)) => (at - 1, c.s.get(at - 1..c.pos).unwrap_or(inner)),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        if compact(inner) != "(<P>)" {
            return Err(err(
                save,
                c.pos - save,
                format!("`[{inner}]` before the mnemonic is not the predicate `[(<P>)]`"),
                "`[(<P>)]` or a mnemonic",
            ));
        }
        let mut slot = self.slot(base, at, inner.trim(), "pred", false, found);
        slot.name = "P".into();
        if slot.field.is_some() {
            slot.prints = Prints::Predicate;
        }
        c.skip_ws();
        Ok(Some(slot))
    }

    /// Suffixes glued to the mnemonic: `.word`, `.<name>`, `[.a|.b]`, `[_word]`, ...
    fn suffixes(
        &self,
        base: usize,
        c: &mut Cursor,
        found: &mut Vec<Diagnostic>,
    ) -> Result<Vec<Suffix>, Error> {
        let mut suffixes = Vec::new();
        loop {
            // `MOV [.sat]` (2021 docs): an optional suffix after spaces is still a suffix.
            let before = c.pos;
            c.skip_ws();
            if !c.rest().starts_with("[.") {
                c.pos = before;
            }
            match c.peek() {
                Some('.') => {
                    c.bump();
                    suffixes.push(self.dot(base, c, false, found)?);
                }
                Some('[') => {
                    let at = c.pos;
                    let Some((inner_at, inner)) = c.bracketed('[', ']') else {
                        return Err(err(at, 1, "`[` is never closed", "`[.suffix]`"));
                    };
                    suffixes.extend(self.optional(base, inner_at, inner, found)?);
                }
                _ => return Ok(suffixes),
            }
        }
    }

    /// The parenthesised group after the mnemonic: `(<exec_size>)`, `(<w>, <h>)`, and the
    /// separator between its slots as written (`None`: one slot).
    fn group(
        &self,
        base: usize,
        c: &mut Cursor,
        found: &mut Vec<Diagnostic>,
    ) -> Result<(Vec<Slot>, Option<String>), Error> {
        let mut group = Vec::new();
        c.skip_ws();
        if c.peek() != Some('(') {
            return Ok((group, None));
        }
        let at = c.pos;
        let Some((inner_at, inner)) = c.bracketed('(', ')') else {
            return Err(err(at, 1, "`(` is never closed", "`(<exec_size>)`"));
        };
        let separator = group_separator(inner_at, inner)?;
        let mut off = inner_at;
        for item in inner.split(',') {
            let lead = item.len() - item.trim_start().len();
            let t = item.trim();
            let inside = t
                .strip_prefix('<')
                .and_then(|x| x.strip_suffix('>'))
                .unwrap_or(t);
            let (number, name) = number_mark(inside);
            if !is_ident(name) {
                return Err(err(
                    off + lead,
                    t.len(),
                    format!("`{t}` in `({inner})` is not a slot"),
                    "`(<name>)` or `(<name>, <name>)`",
                ));
            }
            let slot = self.slot(base, off + lead, t, name, false, found);
            group.push(as_number(slot, number, off + lead, t)?);
            off += item.len() + 1;
        }
        Ok((group, separator))
    }

    /// Operand slots to the end of the line: `<name>`, `[<name>]`, `(Item0, ..., ItemN-1)`.
    fn operands(
        &self,
        base: usize,
        c: &mut Cursor,
        found: &mut Vec<Diagnostic>,
    ) -> Result<Vec<Slot>, Error> {
        let mut operands: Vec<Slot> = Vec::new();
        loop {
            // `<a>/<b>`: the slot follows the previous one behind the text between them.
            let glue_at = c.pos;
            while c
                .peek()
                .is_some_and(|ch| !ch.is_whitespace() && !matches!(ch, '<' | '[' | '(' | '0'))
            {
                c.bump();
            }
            let glued = (c.pos > glue_at && c.peek() == Some('<') && !operands.is_empty())
                .then(|| c.s.get(glue_at..c.pos).unwrap_or("").to_string());
            if glued.is_none() {
                c.pos = glue_at;
            }
            let before = c.pos;
            c.skip_ws();
            // Spaces as written: more than one is Intel's layout (two after VME_SIC's surface).
            let extra_spaces = u8::try_from(c.pos - before)
                .unwrap_or(u8::MAX)
                .saturating_sub(1);
            // `0x<name>`: a hexadecimal number with Intel's prefix.
            let hex = c.rest().starts_with("0x<");
            if hex {
                c.pos += 2;
            }
            let at = c.pos;
            let (open, close, optional) = match c.peek() {
                None => return Ok(operands),
                Some('<') => ('<', '>', false),
                Some('[') => ('[', ']', true),
                Some('(') => {
                    operands.push(self.list(base, c, found)?);
                    continue;
                }
                Some(ch) => {
                    let word: String = c.rest().split_whitespace().next().unwrap_or("").into();
                    return Err(err(
                        at,
                        word.len().max(ch.len_utf8()),
                        format!("unexpected `{word}` among the operands"),
                        "an operand slot `<name>` or `[<name>]`",
                    ));
                }
            };
            let Some((_, inner)) = c.bracketed(open, close) else {
                return Err(err(at, 1, format!("`{open}` is never closed"), "`<name>`"));
            };
            let inside = if optional {
                inner
                    .trim()
                    .strip_prefix('<')
                    .and_then(|x| x.strip_suffix('>'))
                    .unwrap_or("")
            } else {
                inner
            };
            let (number, name) = number_mark(inside);
            if !is_ident(name) {
                return Err(err(
                    at,
                    c.pos - at,
                    format!("`{open}{inner}{close}` is not a slot"),
                    "`<name>` or `[<name>]`",
                ));
            }
            let text = c.s.get(at..c.pos).unwrap_or("");
            let slot = self.slot(base, at, text, name, optional, found);
            let mut slot = as_number(slot, number, at, text)?;
            // The first operand's too: Intel prints two spaces after RAW_SENDS's exec size.
            slot.extra_spaces = extra_spaces;
            slot.hex = hex;
            slot.glued = glued;
            operands.push(slot);
        }
    }

    /// `(Label0, Label1, ..., LabelN-1)`: every item of a counted field, one slot named by the
    /// items' stem (the field of the repetition) that prints the list.
    fn list(
        &self,
        base: usize,
        c: &mut Cursor,
        found: &mut Vec<Diagnostic>,
    ) -> Result<Slot, Error> {
        let at = c.pos;
        let expected = "`(Item0, Item1, ..., ItemN-1)`: the items of a counted field";
        let Some((_, inner)) = c.bracketed('(', ')') else {
            return Err(err(at, 1, "`(` is never closed", expected));
        };
        let items: Vec<&str> = inner.split(',').map(str::trim).collect();
        let stem = items
            .first()
            .and_then(|i| i.strip_suffix('0'))
            .filter(|s| is_ident(s));
        let of_stem = |stem: &str, i: &str| {
            i == "..."
                || i.strip_prefix(stem)
                    .is_some_and(|n| !n.is_empty() && is_ident(&n.replace('-', "")))
        };
        let Some(stem) = stem.filter(|s| items.len() >= 2 && items.iter().all(|i| of_stem(s, i)))
        else {
            return Err(err(
                at,
                c.pos - at,
                format!("`({inner})` is not a list of items"),
                expected,
            ));
        };
        let text = c.s.get(at..c.pos).unwrap_or("");
        let mut slot = self.slot(base, at, text, stem, false, found);
        slot.list = true;
        Ok(slot)
    }

    /// After a `.`: one suffix.
    fn dot(
        &self,
        base: usize,
        c: &mut Cursor,
        optional: bool,
        found: &mut Vec<Diagnostic>,
    ) -> Result<Suffix, Error> {
        let at = c.pos;
        let kind = match c.peek() {
            Some('<') => self.angle_slot(base, c, "", optional, found)?,
            Some('{') => flags(c)?,
            Some(ch) if ch.is_ascii_alphanumeric() || ch == '_' => {
                let word = c.ident();
                if c.peek() == Some('<') {
                    self.angle_slot(base, c, word, optional, found)?
                } else if let Some((at2, inner)) = inline_value(c) {
                    // `.x[Ctrl]` (BFN): the field's value right after the word, as `.x<Ctrl>`.
                    let text = c.s.get(at2 - 1..c.pos).unwrap_or("");
                    SuffixKind::Slot {
                        prefix: word.to_string(),
                        slot: self.slot(base, at2 - 1, text, inner, optional, found),
                    }
                } else if word.eq_ignore_ascii_case("sat") {
                    SuffixKind::Saturate
                } else if self.field(word).is_some() {
                    SuffixKind::Slot {
                        prefix: String::new(),
                        slot: self.slot(base, at, word, word, optional, found),
                    }
                } else {
                    SuffixKind::Literal {
                        text: word.to_string(),
                    }
                }
            }
            _ => {
                let len = c.rest().chars().next().map_or(0, char::len_utf8);
                return Err(err(
                    at.saturating_sub(1),
                    len + 1,
                    "`.` is followed by nothing a suffix can be",
                    "`.word`, `.<name>` or `.{A?B?}`",
                ));
            }
        };
        Ok(Suffix {
            optional,
            kind,
            span: self.src.span(base + at.saturating_sub(1), base + c.pos),
        })
    }

    /// At `<`: `.<name>`, or `.x<name>` after the word `prefix`.
    fn angle_slot(
        &self,
        base: usize,
        c: &mut Cursor,
        prefix: &str,
        optional: bool,
        found: &mut Vec<Diagnostic>,
    ) -> Result<SuffixKind, Error> {
        let at = c.pos;
        let expected = if prefix.is_empty() {
            "`.<name>`"
        } else {
            "`.x<name>`"
        };
        let Some((_, inner)) = c.bracketed('<', '>') else {
            return Err(err(at, 1, "`<` is never closed", expected));
        };
        let (number, name) = number_mark(inner);
        if !is_ident(name) {
            return Err(err(
                at,
                c.pos - at,
                format!("`<{inner}>` is not a slot"),
                expected,
            ));
        }
        let text = c.s.get(at..c.pos).unwrap_or("");
        let slot = self.slot(base, at, text, name, optional, found);
        Ok(SuffixKind::Slot {
            prefix: prefix.to_string(),
            slot: as_number(slot, number, at, text)?,
        })
    }

    /// The inside of `[...]` after a mnemonic: `.16|.64` (a choice) or optional suffixes.
    fn optional(
        &self,
        base: usize,
        at: usize,
        inner: &str,
        found: &mut Vec<Diagnostic>,
    ) -> Result<Vec<Suffix>, Error> {
        if inner.contains('|') {
            let options: Vec<&str> = inner
                .split('|')
                .map(|o| o.trim().strip_prefix('.').unwrap_or(""))
                .collect();
            if !options.iter().all(|o| is_ident(o)) {
                return Err(err(
                    at,
                    inner.len(),
                    format!("`[{inner}]` is not a choice of suffixes"),
                    "`[.a|.b]`",
                ));
            }
            return Ok(vec![Suffix {
                optional: true,
                kind: SuffixKind::Choice {
                    options: options.into_iter().map(String::from).collect(),
                },
                span: self.src.span(base + at - 1, base + at + inner.len() + 1),
            }]);
        }
        if let Some(word) = inner.strip_prefix('_').filter(|w| is_ident(w)) {
            // `{raw_sends|raw_sendsc}[_eot]`: a word joined to the mnemonic, optional.
            return Ok(vec![Suffix {
                optional: true,
                kind: SuffixKind::Joined {
                    text: format!("_{word}"),
                },
                span: self.src.span(base + at - 1, base + at + inner.len() + 1),
            }]);
        }
        let mut c = Cursor { s: inner, pos: 0 };
        let mut out = Vec::new();
        while c.peek() == Some('.') {
            c.bump();
            let mut s = self.dot(base + at, &mut c, true, found)?;
            s.optional = true;
            out.push(s);
        }
        if out.is_empty() || c.pos < inner.len() {
            return Err(err(
                at + c.pos,
                inner.len() - c.pos,
                format!("`[{inner}]` is not an optional suffix"),
                "`[.word]`, `[.<name>]` or `[.a|.b]`",
            ));
        }
        Ok(out)
    }

    fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
    }

    /// A slot `text` at byte `at` of the line naming `name`, linked to its field.
    fn slot(
        &self,
        base: usize,
        at: usize,
        text: &str,
        name: &str,
        optional: bool,
        found: &mut Vec<Diagnostic>,
    ) -> Slot {
        let span = self.src.span(base + at, base + at + text.len());
        let alias = self.aliases.get(&name.to_ascii_lowercase());
        let mut member = None;
        let (field, prints) = match (self.field(name), alias.and_then(|a| self.field(a))) {
            (Some(f), _) => (Some(f.name.clone()), prints(f)),
            (None, Some(f)) => (Some(f.name.clone()), Prints::Symbol),
            (None, None) => match member_of(self.fields, name) {
                Some((f, b)) => {
                    member = Some(Member { hi: b.hi, lo: b.lo });
                    (Some(f.name.clone()), member_prints(name, b))
                }
                None => self.unlinked(name, span, found),
            },
        };
        Slot {
            name: name.to_string(),
            field,
            prints,
            optional,
            list: false,
            extra_spaces: 0,
            hex: false,
            glued: None,
            upper_hex: self.upper_hex,
            member,
            spellings: self
                .one_of
                .get(&name.to_ascii_lowercase())
                .cloned()
                .unwrap_or_default(),
            span,
        }
    }

    /// V0131: the slot names no field (nor a member of one).
    fn unlinked(
        &self,
        name: &str,
        span: crate::schema::Span,
        found: &mut Vec<Diagnostic>,
    ) -> (Option<String>, Prints) {
        let known: Vec<&str> = self.fields.iter().map(|f| f.name.as_str()).collect();
        found.push(
            Diagnostic::new(
                Code::UnlinkedSlot,
                self.src.name,
                span,
                format!(
                    "template slot `{name}` names no field of the format; it prints nothing known"
                ),
            )
            .expected(format!("one of the fields: {}", known.join(", "))),
        );
        (None, Prints::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{BitField, EnumValue, Span};

    /// A field; `values` enumerated names (as a bit range), `mask` a bit range about the
    /// execution mask.
    fn field(name: &str, ty: &str, values: &[&str], desc: &str) -> Field {
        let v = |i: usize, m: &str| EnumValue {
            value: i as u64,
            meaning: m.to_string(),
            platform: None,
            span: Span::default(),
        };
        let bitfields = if values.is_empty() {
            vec![]
        } else {
            vec![BitField {
                hi: 4,
                lo: 0,
                summary: desc.to_string(),
                values: values.iter().enumerate().map(|(i, m)| v(i, m)).collect(),
                platform: None,
                span: Span::default(),
            }]
        };
        Field {
            name: name.into(),
            ty: ty.into(),
            optional: false,
            description: desc.into(),
            bitfields,
            values: vec![],
            allowed_types: vec![],
            operand_classes: vec![],
            span: Span::default(),
        }
    }

    fn exec() -> Field {
        field("Exec_size", "ub", &["1 element"], "size")
    }

    fn read_text(text: &str, fields: &[Field]) -> (Option<Syntax>, Vec<Diagnostic>) {
        let src = Source::new("T.md", text);
        let lines = src.lines(0, text.len());
        let mut diags = Vec::new();
        let s = read(&src, &lines, Span::default(), fields, "", &mut diags);
        (s, diags)
    }

    fn forms(text: &str, fields: &[Field]) -> Vec<SyntaxForm> {
        match read_text(text, fields) {
            (Some(Syntax::Templates { forms }), d) if d.is_empty() => forms,
            other => panic!("{other:#?}"),
        }
    }

    fn linked(s: &Slot) -> (&str, Option<&str>, Prints) {
        (s.name.as_str(), s.field.as_deref(), s.prints)
    }

    #[test]
    fn layout_and_hex_operands_as_written() {
        // RAW_SEND as Intel prints it (erratum RAW_SEND-text-hex-ex-msg-desc): ExMsgDesc in
        // hexadecimal after `0x`, two spaces before Desc.
        let fields = [
            exec(),
            field("ExMsgDesc", "ud", &[], ""),
            field("NumSrc", "ub", &[], ""),
            field("NumDst", "ub", &[], ""),
            field("Desc", "scalar", &[], ""),
        ];
        let f = &forms(
            "RAW_SEND (<exec_size>) 0x<ExMsgDesc> <NumSrc> <NumDst>  <Desc>",
            &fields,
        )[0];
        let layout: Vec<_> = f
            .operands
            .iter()
            .map(|s| (s.name.as_str(), s.extra_spaces, s.hex, s.prints))
            .collect();
        assert_eq!(
            layout,
            [
                ("ExMsgDesc", 0, true, Prints::Number),
                ("NumSrc", 0, false, Prints::Number),
                ("NumDst", 0, false, Prints::Number),
                ("Desc", 1, false, Prints::Vector),
            ]
        );
        // `0x` is not part of the slot's span: `<ExMsgDesc>` starts at byte 25.
        assert_eq!(f.operands[0].span.start, 25);
        // Two spaces before the first operand are two in the text too.
        let f = &forms("RAW_SEND (<exec_size>)  <ExMsgDesc> <NumSrc>", &fields)[0];
        let spaces: Vec<u8> = f.operands.iter().map(|s| s.extra_spaces).collect();
        assert_eq!(spaces, [1, 0]);
    }

    #[test]
    fn glued_operands_and_upper_case_hexadecimal() {
        // RAW_SENDG as IGC prints it (erratum RAW_SENDG-undocumented-opcode): each raw operand
        // and its size joined by `/`, the SFID after `.0x`, digits in upper case.
        let fields = [
            exec(),
            field("SFID", "ud", &[], ""),
            field("Dst", "raw_operand", &[], ""),
            field("DstLen", "ud", &[], ""),
            field("Desc", "uq", &[], ""),
        ];
        let text = "RAW_SENDG.0x<sfid> (<exec_size>) <dst>/<dstLen> 0x<desc>";
        let f = &forms(text, &fields)[0];
        let layout: Vec<_> = f
            .operands
            .iter()
            .map(|s| (s.name.as_str(), s.glued.as_deref(), s.hex, s.upper_hex))
            .collect();
        assert_eq!(
            layout,
            [
                ("dst", None, false, false),
                ("dstLen", Some("/"), false, false),
                ("desc", None, true, false),
            ]
        );
        assert!(matches!(&f.suffixes[0].kind, SuffixKind::Slot { prefix, .. } if prefix == "0x"));
        let upper = format!("{text}\n// <sfid> and <desc> are printed in upper-case hexadecimal");
        let f = &forms(&upper, &fields)[0];
        assert!(f.operands[2].upper_hex);
        let SuffixKind::Slot { slot, .. } = &f.suffixes[0].kind else {
            panic!("a slot suffix")
        };
        assert!(slot.upper_hex);
        // A first operand has nothing to be glued to.
        let (s, d) = read_text("RAW_SENDG (<exec_size>) /<dst>", &fields);
        assert!(s.is_none() || !d.is_empty(), "{s:?}");
    }

    /// A bit-packed field: (hi, lo, summary, value meanings) per member.
    fn packed(name: &str, members: &[(u8, u8, &str, &[&str])]) -> Field {
        let mut f = field(name, "ub", &[], "");
        f.bitfields = members
            .iter()
            .map(|(hi, lo, summary, values)| BitField {
                hi: *hi,
                lo: *lo,
                summary: summary.to_string(),
                values: values
                    .iter()
                    .enumerate()
                    .map(|(i, m)| EnumValue {
                        value: i as u64,
                        meaning: m.to_string(),
                        platform: None,
                        span: Span::default(),
                    })
                    .collect(),
                platform: None,
                span: Span::default(),
            })
            .collect();
        f
    }

    #[test]
    fn slots_naming_members_and_spellings_from_a_comment() {
        // SAMPLE_UNORM as the doc writes it: `<channel>` and `<output_format>` are the members
        // of Channel_mask whose summaries say "channel" and "Output format".
        let fields = [
            packed(
                "Channel_mask",
                &[
                    (3, 0, "determines the write masks for the RGBA channel", &[]),
                    (
                        5,
                        4,
                        "is Output format control.",
                        &["\"16-bit full\"", "\"8-bit full\""],
                    ),
                ],
            ),
            field("Sampler", "ub", &[], ""),
        ];
        let f = &forms(
            "SAMPLE_UNORM.<channel>.<output_format> <sampler>\n//<output_format> is one of \"16-full\", \"8-full\"",
            &fields,
        )[0];
        let member = |k: usize| match &f.suffixes[k].kind {
            SuffixKind::Slot { slot, .. } => slot.clone(),
            other => panic!("{other:?}"),
        };
        let (channel, format) = (member(0), member(1));
        assert_eq!(
            linked(&channel),
            ("channel", Some("Channel_mask"), Prints::Channels)
        );
        assert_eq!(channel.member, Some(Member { hi: 3, lo: 0 }));
        assert!(channel.spellings.is_empty());
        assert_eq!(
            linked(&format),
            ("output_format", Some("Channel_mask"), Prints::Name)
        );
        assert_eq!(format.member, Some(Member { hi: 5, lo: 4 }));
        assert_eq!(format.spellings, ["16-full", "8-full"]);
        // A slot whose words no summary holds, or more than one does, stays unlinked (V0131).
        let two = [packed(
            "Mode",
            &[(1, 0, "the format", &[]), (3, 2, "a format too", &[])],
        )];
        let (s, d) = read_text("FOO.<format> <nothing>", &two);
        let Some(Syntax::Templates { forms }) = s else {
            panic!("{s:?}")
        };
        assert!(
            matches!(&forms[0].suffixes[0].kind, SuffixKind::Slot { slot, .. } if slot.field.is_none())
        );
        let codes: Vec<_> = d.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["V0131", "V0131"]);
        // Whole words only: `<form>` is not in "the format".
        assert_eq!(member_of(&two, "form").map(|(_, b)| b.lo), None);
        assert_eq!(member_of(&two, "too").map(|(_, b)| b.lo), Some(2));
    }

    #[test]
    fn one_of_comments() {
        assert_eq!(
            one_of_spellings(r#"<a> is one of "x-1", "Y" and <b> is one of "z""#),
            [
                ("a".to_string(), vec!["x-1".to_string(), "Y".to_string()]),
                ("b".to_string(), vec!["z".to_string()]),
            ]
        );
        // No slot before it, or no quoted word: nothing.
        assert!(one_of_spellings(r#"it is one of "x""#).is_empty());
        assert!(one_of_spellings("<a> is one of the modes").is_empty());
    }

    #[test]
    fn glued_group_its_separator_and_numbers_as_written() {
        // VME_IME as Intel prints it, `vme_ime(0,0) T6 ...`: no space before the group, none
        // after its comma, the enumerated stream mode and search control as numbers.
        let fields = [
            field(
                "StreamMode",
                "ub",
                &["VME_STREAM_DISABLE", "VME_STREAM_OUT"],
                "",
            ),
            field("SearchCtrl", "ub", &["VME_SEARCH_SINGLE"], ""),
            field("Surface", "ub", &[], ""),
        ];
        let f = &forms("VME_IME(<#streamMode>,<#searchCtrl>) <surface>", &fields)[0];
        assert_eq!(
            f.group_layout,
            GroupLayout {
                glued: true,
                separator: ",".into()
            }
        );
        let group: Vec<_> = f.group.iter().map(linked).collect();
        assert_eq!(
            group,
            [
                ("streamMode", Some("StreamMode"), Prints::Number),
                ("searchCtrl", Some("SearchCtrl"), Prints::Number),
            ]
        );
        // Unmarked, the same slots print names, and the usual layout is the default.
        let f = &forms("VME_IME (<streamMode>, <searchCtrl>) <surface>", &fields)[0];
        assert_eq!(f.group_layout, GroupLayout::default());
        assert_eq!(f.group[0].prints, Prints::Name);
        // `.<#x>` and `<#x>` among the operands too.
        let f = &forms("VME_IME.<#streamMode> <#searchCtrl>", &fields)[0];
        assert!(
            matches!(&f.suffixes[0].kind, SuffixKind::Slot { slot, .. } if slot.prints == Prints::Number)
        );
        assert_eq!(f.operands[0].prints, Prints::Number);
        // A mark on an operand that is no number, and gaps written differently, are errors.
        let raw = [field("Dst", "raw_operand", &[], ""), exec()];
        let (s, d) = read_text("FOO <#dst>", &raw);
        assert!(matches!(s, Some(Syntax::Unreadable { .. })), "{s:?}");
        assert!(d[0].message.contains("marks a number"), "{d:?}");
        let (s, d) = read_text("FOO (<#dst>,<dst>, <dst>)", &raw);
        assert!(matches!(s, Some(Syntax::Unreadable { .. })), "{s:?}");
        assert!(d[0].message.contains("different ways"), "{d:?}");
    }

    #[test]
    fn add() {
        let vec = |n: &str| field(n, "vec_operand", &[], "");
        let fields = [
            exec(),
            field("Pred", "uw", &[], ""),
            vec("Dst"),
            vec("Src0"),
            vec("Src1"),
        ];
        let f = &forms(
            "[(<P>)] ADD[.sat] (<exec_size>) <dst> <src0> <src1>",
            &fields,
        )[0];
        assert_eq!(f.mnemonic, "add");
        assert_eq!(
            linked(f.predicate.as_ref().unwrap()),
            ("P", Some("Pred"), Prints::Predicate)
        );
        assert_eq!(f.suffixes.len(), 1);
        assert_eq!(
            (f.suffixes[0].optional, &f.suffixes[0].kind),
            (true, &SuffixKind::Saturate)
        );
        assert_eq!(
            linked(&f.group[0]),
            ("exec_size", Some("Exec_size"), Prints::ExecSize)
        );
        let ops: Vec<_> = f.operands.iter().map(linked).collect();
        assert_eq!(
            ops,
            [
                ("dst", Some("Dst"), Prints::Vector),
                ("src0", Some("Src0"), Prints::Vector),
                ("src1", Some("Src1"), Prints::Vector)
            ]
        );
        // `<dst>` is at bytes 32..37 of the line.
        assert_eq!(
            (f.operands[0].span.start, f.operands[0].span.column),
            (32, 33)
        );
    }

    #[test]
    fn cmp_relop_is_a_field_suffix_and_comments_are_dropped() {
        let vec = |n: &str| field(n, "vec_operand", &[], "");
        let relop = field("Rel_op", "ub", &["EQ - equal to", "NE - not equal"], "op");
        let fields = [exec(), relop, vec("Dst"), vec("Src0"), vec("Src1")];
        let f = forms(
            "CMP.rel_op  (<exec_size>) <dst> <src0> <src1>\n\n//rel_op is one of \"eq\", \"ne\"",
            &fields,
        );
        assert_eq!(f.len(), 1);
        assert_eq!(
            (f[0].mnemonic.as_str(), f[0].predicate.is_none()),
            ("cmp", true)
        );
        match &f[0].suffixes[0].kind {
            SuffixKind::Slot { prefix, slot } => {
                assert_eq!(prefix, "");
                assert_eq!(linked(slot), ("rel_op", Some("Rel_op"), Prints::Name));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn gather_scaled_and_qw_scatter() {
        let fields = [
            exec(),
            field("Pred", "uw", &[], ""),
            field("Num_blocks", "ub", &["1 block", "2 blocks"], "blocks"),
            field("Surface", "ub", &[], "Index of the surface variable"),
            field("Offset", "scalar", &[], ""),
            field("Element_offset", "raw_operand", &[], ""),
            field("Dst", "raw_operand", &[], ""),
        ];
        let f = &forms(
            "[(<P>)] GATHER_SCALED.<num_blocks> (<exec_size>) <surface> <offset> <element_offset> <dst>",
            &fields,
        )[0];
        assert_eq!(f.mnemonic, "gather_scaled");
        match &f.suffixes[0].kind {
            SuffixKind::Slot { slot, .. } => {
                assert_eq!(
                    linked(slot),
                    ("num_blocks", Some("Num_blocks"), Prints::Name)
                )
            }
            k => panic!("{k:?}"),
        }
        let prints: Vec<_> = f.operands.iter().map(|s| s.prints).collect();
        assert_eq!(
            prints,
            [Prints::Surface, Prints::Vector, Prints::Raw, Prints::Raw]
        );
        // QW_SCATTER writes its slots capitalised: matched ignoring case.
        let mut fields = fields.to_vec();
        fields[6] = field("Src", "raw_operand", &[], "");
        fields[4] = field("Offset", "raw_operand", &[], "");
        let f = &forms(
            "    [(<P>)] QW_SCATTER.<Num_blocks> (<Exec_size>) <Surface> <Offset> <Src>",
            &fields,
        )[0];
        assert_eq!(f.mnemonic, "qw_scatter");
        let ops: Vec<_> = f.operands.iter().map(linked).collect();
        assert_eq!(
            ops,
            [
                ("Surface", Some("Surface"), Prints::Surface),
                ("Offset", Some("Offset"), Prints::Raw),
                ("Src", Some("Src"), Prints::Raw)
            ]
        );
    }

    #[test]
    fn fence_alternatives_and_flags() {
        let fields = [field("Mask", "ub", &[], "Controls the caches")];
        let text = "FENCE_{GLOBAL|LOCAL}.{E?I?S?C?R?L1?}\n\nFENCE_SW\n\n//E - commit enable";
        let f = forms(text, &fields);
        let names: Vec<_> = f.iter().map(|f| f.mnemonic.as_str()).collect();
        assert_eq!(names, ["fence_global", "fence_local", "fence_sw"]);
        let flags = ["E", "I", "S", "C", "R", "L1"].map(String::from).to_vec();
        assert_eq!(f[0].suffixes[0].kind, SuffixKind::Flags { flags });
        assert!(f[2].suffixes.is_empty() && f[2].operands.is_empty());
    }

    #[test]
    fn dword_atomic() {
        let raw = |n: &str| field(n, "raw_operand", &[], "");
        let fields = [
            field("Op", "ub", &["add", "sub"], "atomic operation"),
            exec(),
            field("Pred", "uw", &[], ""),
            field("Surface", "ub", &["T0 - SLM"], "Index of the surface"),
            raw("Element_offset"),
            raw("Src0"),
            raw("Src1"),
            raw("Dst"),
        ];
        let text = "    [(<P>)] DWORD_ATOMIC.<Op>[.16] (<Exec_size>) <Surface> <Element_offset> <Src0> <Src1> <Dst>\n\n//op is the text form";
        let f = &forms(text, &fields)[0];
        assert_eq!(f.mnemonic, "dword_atomic");
        assert!(
            matches!(&f.suffixes[0].kind, SuffixKind::Slot { slot, .. } if slot.field.as_deref() == Some("Op"))
        );
        assert_eq!(
            (f.suffixes[1].optional, &f.suffixes[1].kind),
            (true, &SuffixKind::Literal { text: "16".into() })
        );
        // A Surface with enumerated values still prints as a surface.
        assert_eq!(f.operands[0].prints, Prints::Surface);
        assert_eq!(f.operands.len(), 5);
    }

    #[test]
    fn debug_directives_keep_upper_case_and_string_pool_comments_link_slots() {
        let fields = [field(
            "File_name",
            "ud",
            &[],
            "index to the string storing the name",
        )];
        let src = Source::new("T.md", "FILE <file_name>");
        let mut diags = Vec::new();
        let s = read(
            &src,
            &src.lines(0, 16),
            Span::default(),
            &fields,
            "It is used for debugging purposes.",
            &mut diags,
        );
        let Some(Syntax::Templates { forms }) = s else {
            panic!()
        };
        assert_eq!(forms[0].mnemonic, "FILE");
        assert_eq!(forms[0].operands[0].prints, Prints::Symbol);
        let fields = [
            field("Func_id", "uw", &[], "id"),
            field("Dst", "scalar", &[], ""),
        ];
        let f = &forms_of_faddr(&fields);
        assert_eq!(
            linked(&f.operands[0]),
            ("func_name", Some("Func_id"), Prints::Symbol)
        );
    }

    fn forms_of_faddr(fields: &[Field]) -> SyntaxForm {
        forms(
            "FADDR <func_name> <dst> // // <func_name> = string_pool[<func_id>]",
            fields,
        )[0]
        .clone()
    }

    #[test]
    fn choices_bfn_prefix_and_spaced_optional_suffix() {
        let vec = |n: &str| field(n, "vec_operand", &[], "");
        let fields = [
            exec(),
            field("BooleanFuncCtrl", "ub", &[], "ctrl"),
            vec("Dst"),
        ];
        let f = &forms("BFN.x<BooleanFuncCtrl> (<exec_size>) <dst>", &fields)[0];
        assert!(
            matches!(&f.suffixes[0].kind, SuffixKind::Slot { prefix, slot } if prefix == "x" && slot.prints == Prints::Number)
        );
        let f = &forms("MOV [.sat] (<exec_size>) <dst>", &fields)[0];
        assert_eq!(f.suffixes[0].kind, SuffixKind::Saturate);
        let f = &forms("SVM_ATOMIC[.16|.64] (<exec_size>) <dst>", &fields)[0];
        assert_eq!(
            f.suffixes[0].kind,
            SuffixKind::Choice {
                options: vec!["16".into(), "64".into()]
            }
        );
    }

    #[test]
    fn errors_and_special_forms() {
        let fields = [field("Src", "raw_operand", &[], "")];
        let (s, d) = read_text("FOO <src> )", &fields);
        // No text form, saying where: the doc, line and column of the unreadable token.
        assert_eq!(
            s,
            Some(Syntax::Unreadable {
                why: "T.md:1:11: its `## Text` template cannot be read (warning V0130)".into()
            })
        );
        assert!(
            d[0].message.ends_with("; T has no text form"),
            "{}",
            d[0].message
        );
        assert_eq!((d[0].code.as_str(), d[0].column), ("V0130", 11));
        let (s, d) = read_text("FOO <other>", &fields);
        assert!(matches!(s, Some(Syntax::Templates { .. })));
        assert_eq!(d[0].code, "V0131");
        let label = [field("Label", "uw", &[], "")];
        let (s, d) = read_text("LABEL <label>", &label);
        assert!(matches!(
            s,
            Some(Syntax::Special {
                rule: SpecialRule::LabelDefinition,
                ..
            })
        ));
        assert_eq!(d[0].code, "V0132");
        // Never a panic on odd bytes.
        for t in [
            "[", "[(<P>)]", "A.{", "A.<", "A[.", "A (", "A <", "A [<", "é.é", "A.x<é>",
        ] {
            let _ = read_text(t, &fields);
        }
    }
}
