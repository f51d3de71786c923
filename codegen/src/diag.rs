//! Diagnostics: every problem found in a doc, with a stable code, file, line and column.
//!
//! Rendering uses codespan-reporting: it prints rustc-style caret excerpts from plain byte
//! ranges, needs no trait plumbing on our types, and has no heavy dependencies. Codes are listed
//! with an example each in `codegen/DIAGNOSTICS.md`; a test keeps the two in step.

use crate::schema::Span;
use crate::source_file::SourceFile;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $sev:ident, $degrades:ident, $summary:literal;)*) => {
        /// Every diagnostic the generator can raise. Codes are stable: never reuse or renumber.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// All codes, in order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code, e.g. `V0101`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }

            /// What of the generated crate a diagnostic of this code leaves out.
            pub fn degrades(self) -> Degrades {
                match self { $(Code::$variant => Degrades::$degrades,)* }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }
        }
    };
}

codes! {
    // Per-doc errors: the doc cannot be read faithfully.
    NoOpcode = "V0101", Warning, Doc, "the doc has no `## Opcode` section or it declares no opcode";
    BadOpcode = "V0102", Warning, Doc, "an opcode line is not `NAME = 0xNN` with a value in 0..=255";
    UntypedField = "V0103", Warning, Doc, "a format-table field has no `**Name(type):**` bullet, or the bullet has no type";
    DuplicateField = "V0104", Warning, Doc, "two field bullets of one doc have the same name";
    NoFormat = "V0105", Warning, Doc, "the doc has no format table";
    BadBitRange = "V0106", Warning, Doc, "a `Bit[hi..lo]` range is reversed or wider than 64 bits";
    BadValue = "V0107", Warning, Doc, "an enumerated value does not fit its bit range";
    // Per-doc warnings: read faithfully, but the doc is glitched.
    Preamble = "V0111", Warning, Nothing, "unrelated text before `## Opcode`";
    ExtraCells = "V0112", Warning, Nothing, "a table row has more cells than its header; the extra cells were read from the source";
    MisindentedBullet = "V0113", Warning, Nothing, "a field bullet is indented as if nested under other text";
    UnbalancedFence = "V0114", Warning, Nothing, "a section has an unclosed code fence";
    Tabs = "V0115", Warning, Nothing, "the doc contains tab characters";
    TrailingSpace = "V0116", Warning, Nothing, "the doc has lines with trailing whitespace";
    InvalidUtf8 = "V0117", Warning, Nothing, "the doc is not valid UTF-8; invalid bytes were replaced";
    OpcodeCellMismatch = "V0118", Warning, Nothing, "a format table's opcode cell disagrees with `## Opcode`";
    BulletNotInTable = "V0120", Warning, Nothing, "a field bullet names a field that no format table has";
    BadCondition = "V0121", Warning, Nothing, "a `### CONDITION` is not `Field[.sub]=value, ...`";
    BadCount = "V0122", Warning, Doc, "a counted repetition is malformed: its count field is missing, not a plain integer, or after the list, or its items differ in type";
    // The `## Text` templates.
    BadTemplate = "V0130", Warning, TextForm, "a `## Text` template cannot be read";
    UnlinkedSlot = "V0131", Warning, Nothing, "a `## Text` template slot names no format field";
    SpecialForm = "V0132", Warning, Nothing, "the doc's syntax is a special form no template describes; a hand-written formatter prints it";
    NoSpelling = "V0133", Warning, Nothing, "an enumerated value printed by a `## Text` slot has no text spelling";
    // The `## Semantics` pseudo-code.
    BadPseudoCode = "V0140", Warning, LaneFunction, "the `## Semantics` pseudo-code cannot be read";
    NotRunnable = "V0141", Warning, LaneFunction, "the `## Semantics` pseudo-code names what no lane function can compute (memory, an unknown name, another lane)";
    // Analysis of the schema (layouts, platforms, names).
    UnknownPlatform = "V0201", Warning, Doc, "a platform annotation names a platform the generator does not know";
    UnknownListedPlatform = "V0231", Warning, Nothing, "an entry of a chapter's list of instructions names a platform the generator does not know: the entry is ignored, and the instruction exists on every platform";
    // Each choice where a doc leaves the binary layout open has a code of its own, so that
    // acknowledging one in `regen.toml` never hides another.
    OptionalField = "V0202", Warning, Nothing, "optional (`\\*`) fields: the doc states no rule for their absence; they are always encoded";
    UnknownSelectorValue = "V0203", Warning, Doc, "a `### CONDITION` names a value that its selector field does not enumerate";
    EmptyTypeList = "V0204", Warning, Nothing, "a type map, or one of its operand type lists, names no type; the map constrains nothing and is ignored";
    UnknownAllowedType = "V0205", Warning, Nothing, "a field must have a type that is not a vISA data type; its types are not checked";
    UnrangedValues = "V0206", Warning, Nothing, "a field lists values both with and without bit ranges; the values without a range are documentation only";
    RestOfBytes = "V0207", Warning, Nothing, "a field's type fixes no binary layout; it holds the rest of the instruction's bytes, verbatim";
    RestNotLast = "V0208", Warning, Nothing, "a field without a fixed layout is not the last of its format; decoding stops there";
    LateSelector = "V0209", Warning, Nothing, "a variant's selector is not read before the variants' fields differ; the first variant decodes";
    OperandTypeVariant = "V0210", Warning, Nothing, "a variant depends on an operand's declared type, which the bytes do not carry; the first such variant decodes";
    NoSelector = "V0211", Warning, Nothing, "variants without a readable selector; the first decodes";
    UncountedList = "V0212", Warning, Nothing, "a count cannot count its items (not a plain integer, or items without a fixed layout); the fields are generated one by one";
    CountedParameters = "V0213", Warning, Nothing, "a count of the parameters after it: they are one list of which exactly the count are encoded";
    UnknownMapType = "V0214", Warning, Nothing, "a type map names a type that is not a vISA data type; the doc's type maps are not checked";
    SelfContradiction = "V0220", Warning, Nothing, "a doc contradicts itself: its `Supported Types` property and its type maps name different types (raised at both places)";
    ValueOnNoPlatform = "V0222", Warning, Nothing, "a doc contradicts itself: a value's platforms and its instruction's entry in the list of instructions share none, so the value decodes and never validates (left out of the generated round-trip tests)";
    BulletAgainstTable = "V0221", Warning, Nothing, "a doc contradicts itself: a field bullet's listed values and the values table inside the same bullet name different values (raised at both places)";
    UnpinnedName = "V0230", Warning, Nothing, "a Rust name comes from a description (a bit range's, or the words of a value's meaning beyond its name) and no `[[name]]` of `regen.toml` pins it: rewording the description would rename it";
    // Cross-doc checks.
    ConflictingOpcode = "V0301", Warning, Doc, "two docs claim the same opcode and sub-opcode with different formats";
    AliasOpcode = "V0302", Warning, Nothing, "two docs claim the same opcode and sub-opcode with identical formats (aliases)";
    DuplicateName = "V0303", Warning, Doc, "two docs define instructions of the same name";
    NothingReadable = "V0304", Error, Nothing, "no doc of the spec directory can be read: there is nothing to generate";
    // Errata and the spec directory's configuration.
    BadErratum = "V0401", Error, Nothing, "an erratum cannot be read: no header keys, no diff, or a diff of several docs";
    StaleErratum = "V0402", Error, Nothing, "an erratum no longer applies to its doc (the doc changed upstream)";
    ErratumUnknownDoc = "V0403", Warning, Nothing, "an erratum corrects a doc that is not in the spec directory";
    BadConfig = "V0404", Error, Nothing, "the spec directory's `regen.toml` cannot be read";
    ObsoleteErratum = "V0405", Warning, Nothing, "an erratum is obsolete: its doc already says what it says; it is not applied";
    // Chapters (`chapters/*.md`): the object-format pseudo-structures .
    BadRecordItem = "V0501", Warning, Item, "a pseudo-structure item is not `TYPE name;`, `TYPE name[count];` or `name;` with a fundamental TYPE";
    UnclosedRecord = "V0502", Warning, Item, "a pseudo-structure has no closing `}`";
    UndescribedRecord = "V0503", Warning, Nothing, "an array's element type is neither fundamental nor a format the chapter describes; it reads only when its count is 0";
    BadRecordCount = "V0504", Warning, Item, "an array's count or an untyped item's `size` names no earlier unsigned item of the pseudo-structure";
    BadBitItem = "V0505", Warning, Item, "a bit item of a field bullet lies outside the field's width";
    DuplicateRecord = "V0506", Warning, Item, "two pseudo-structures have the same name";
    DuplicateRecordField = "V0507", Warning, Item, "two items of one pseudo-structure have the same name";
}

/// What a diagnostic leaves out of the generated crate: a doc the generator cannot read
/// degrades only the part it describes, never the rest (`codegen/DIAGNOSTICS.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Degrades {
    /// Nothing: the doc is read as the message says (or the error stops the run).
    Nothing,
    /// The instruction has no text form: `print_text` and `parse_instruction` return an
    /// error naming the doc and line.
    TextForm,
    /// The doc is left out: decoding its opcode is an error naming the doc.
    Doc,
    /// The instruction has no generated lane function: `interpret` hands it to
    /// `Lanes::prose`, where a machine runs it by hand or reports it.
    LaneFunction,
    /// The chapter's item (or pseudo-structure) is skipped: the object-file reader lacks it.
    Item,
}

/// One diagnostic. `file` is relative to the spec directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `V0103`; listed in `codegen/DIAGNOSTICS.md`.
    pub code: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// What was expected instead, when that can be said.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expected: Option<String>,
    /// More lines to show under the excerpt: what a stale erratum expects and what the doc
    /// now says.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub notes: Vec<String>,
    #[serde(skip)]
    pub span: Span,
    /// When an erratum's line is what the diagnostic points at, the doc that line belongs to
    /// (`file` then names the erratum).
    #[serde(skip)]
    pub corrected_doc: Option<String>,
}

impl Diagnostic {
    pub fn new(code: Code, file: &str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.severity(),
            code: code.as_str().to_string(),
            file: file.to_string(),
            line: span.line,
            column: span.column,
            message: message.into(),
            expected: None,
            notes: Vec::new(),
            span,
            corrected_doc: None,
        }
    }

    /// Adds what was expected instead.
    pub fn expected(mut self, what: impl Into<String>) -> Self {
        self.expected = Some(what.into());
        self
    }

    /// The doc this diagnostic is about: `file`, or the doc an erratum's line belongs to.
    pub fn doc(&self) -> &str {
        self.corrected_doc.as_deref().unwrap_or(&self.file)
    }

    /// What of the generated crate this diagnostic leaves out (by its code).
    pub fn degrades(&self) -> Degrades {
        Code::ALL
            .iter()
            .find(|c| c.as_str() == self.code)
            .map_or(Degrades::Nothing, |c| c.degrades())
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Renders diagnostics rustc-style, with caret excerpts, without colours.
pub fn render(diags: &[Diagnostic], files: &[SourceFile]) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as Cs, Label};
    use codespan_reporting::files::SimpleFiles;
    use codespan_reporting::term::{self, termcolor::NoColor};

    let mut db = SimpleFiles::new();
    let ids: Vec<_> = files
        .iter()
        .map(|f| {
            (
                f.name.as_str(),
                db.add(
                    f.name.clone(),
                    String::from_utf8_lossy(&f.bytes).into_owned(),
                ),
            )
        })
        .collect();
    let mut out = NoColor::new(Vec::new());
    let config = term::Config::default();
    for d in diags {
        let base = match d.severity {
            Severity::Error => Cs::error(),
            Severity::Warning => Cs::warning(),
        }
        .with_code(d.code.clone())
        .with_message(d.message.clone());
        let mut cs = base.clone();
        let mut notes = Vec::new();
        if let Some(e) = &d.expected {
            notes.push(format!("expected: {e}"));
        }
        notes.extend(d.notes.iter().cloned());
        if let Some((_, id)) = ids.iter().find(|(n, _)| *n == d.file) {
            let len = files
                .iter()
                .find(|f| f.name == d.file)
                .map_or(0, |f| String::from_utf8_lossy(&f.bytes).len());
            let start = d.span.start.min(len);
            let end = d.span.end.clamp(start, len);
            cs = cs.with_labels(vec![Label::primary(*id, start..end)]);
        } else {
            notes.push(format!("in {}:{}:{}", d.file, d.line, d.column));
        }
        cs = cs.with_notes(notes);
        if term::emit(&mut out, &config, &db, &cs).is_err() {
            // A span codespan cannot show still gets its position.
            let _ = term::emit(
                &mut out,
                &config,
                &db,
                &base.with_notes(vec![format!("at {}:{}:{}", d.file, d.line, d.column)]),
            );
        }
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}
