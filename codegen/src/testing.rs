//! Test helpers: the analysed model of a doc, a directory or the workspace's `spec/`, so the
//! emitters' unit tests build what they render through the pipeline and never name the parser
//! or the schema themselves; and, for the analyzer's tests, schema instructions built by hand.

use crate::analyze::reference::{self, Reference};
use crate::analyze::{analyze, Model};
use crate::diag::Diagnostic;
use crate::parse::{self, SourceFile};
use crate::schema::{Field, Instruction, OpcodeDef, Span, Variant};
use std::collections::BTreeMap;
use std::path::Path;

/// What parsing and analysing gave.
pub(crate) struct Analysed {
    pub model: Model,
    /// The parser's diagnostics.
    pub parsed: Vec<Diagnostic>,
    /// The analysis' diagnostics.
    pub analysed: Vec<Diagnostic>,
    /// What the reference pages show.
    pub reference: Reference,
}

impl Analysed {
    /// Panics when the parser reported an error.
    pub fn readable(self) -> Self {
        assert!(
            !self.parsed.iter().any(|d| d.is_error()),
            "{:?}",
            self.parsed
        );
        self
    }
}

fn of(files: &[SourceFile]) -> Analysed {
    let parsed = parse::parse_spec(files);
    let (model, analysed) = analyze(&parsed.spec);
    Analysed {
        model,
        parsed: parsed.diagnostics,
        analysed,
        reference: reference::build(&parsed.spec),
    }
}

/// One doc named `name` (e.g. `TINY.md`).
pub(crate) fn doc(name: &str, text: &str) -> Analysed {
    of(&[SourceFile {
        name: name.into(),
        bytes: text.as_bytes().to_vec(),
    }])
}

/// Every doc of `dir` (without chapters).
pub(crate) fn dir(dir: &Path) -> Analysed {
    of(&parse::load_dir(dir).unwrap())
}

/// The workspace's `spec/` with its chapters.
/// The current family's instruction docs in `../shared` (or `VISA_SHARED`), or `None` when
/// they are absent, said on stderr; absent in CI is a failure.
pub(crate) fn current_family() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("VISA_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared").into())
        .join("visa-docs/current/instructions");
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing in CI",
            dir.display()
        );
        eprintln!("skipped: {} is absent", dir.display());
        return None;
    }
    Some(dir)
}

pub(crate) fn workspace_spec() -> Analysed {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    of(&parse::load_spec(&root, None).unwrap())
}

/// A span on line `line` (offsets made up from it), for schemas built by hand.
pub(crate) fn span(line: u32) -> Span {
    Span {
        start: line as usize * 10,
        end: line as usize * 10 + 5,
        line,
        column: 1,
    }
}

/// A schema instruction built by hand: `name` (from `NAME.md`), `opcode`, `fields` and
/// `variants`, every other part empty; the opcode and the instruction are at `at`.
pub(crate) fn instruction(
    name: &str,
    opcode: u8,
    fields: Vec<Field>,
    variants: Vec<Variant>,
    at: Span,
) -> Instruction {
    Instruction {
        name: name.into(),
        source: format!("{name}.md"),
        opcode: OpcodeDef {
            name: name.into(),
            value: opcode,
            span: at,
        },
        sub_opcode: None,
        fields,
        variants,
        properties: BTreeMap::new(),
        semantics: String::new(),
        description: String::new(),
        text: String::new(),
        notes: String::new(),
        type_maps: vec![],
        other_sections: BTreeMap::new(),
        aliases: vec![],
        alias_of: None,
        syntax: None,
        pseudo_code: Default::default(),
        span: at,
    }
}
