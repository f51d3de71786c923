//! The typed schema of a spec directory: what the docs say, faithfully, with source spans.
//!
//! This is the contract of `cargo xtask schema` (see `../shared/schema-contract.md`): keys may be
//! added, never renamed or dropped. Everything downstream (analysis, emitters) reads only this.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A position in a doc: byte range plus 1-based line and column of its start.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub column: u32,
}

/// Every instruction of a spec directory, ordered by (opcode, sub-opcode, name).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    pub instructions: Vec<Instruction>,
    /// Pseudo-structures of the object-format chapter (`chapters/*.md`), in document order.
    #[serde(default)]
    pub records: Vec<Record>,
    /// Predefined ids of the chapters: `V0-V31` (with the names of the predefined-variable
    /// table), `T0-T5`.
    #[serde(default)]
    pub predefined: Vec<Predefined>,
    /// Errata applied to the docs before parsing, in the order they were applied.
    #[serde(default)]
    pub errata: Vec<Erratum>,
    /// Docs the generator could not read (a warning each), left out of the crate: decoding
    /// their opcode is an error naming the doc.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// The platforms of instructions, from the chapters' lists of them
    /// (`6_instructions.md`: `- [DPAS - Dot Product Accumulate Systolic {XEHP+}](instructions/DPAS.md)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listed: Vec<Listed>,
}

/// An entry of a chapter's list of instructions that names platforms:
/// `- [DPAS - Dot Product Accumulate Systolic {XEHP+}](instructions/DPAS.md)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed {
    /// The chapter (`chapters/6_instructions.md`).
    pub chapter: String,
    /// The doc the entry links to, by file name (`DPAS.md`).
    pub doc: String,
    /// The entry's text before the annotation (`DPAS - Dot Product Accumulate Systolic`).
    pub title: String,
    /// The annotation without braces (`XEHP+`).
    pub annotation: String,
    /// Where the annotation is.
    pub span: Span,
}

/// A doc left out of the crate because a part every other part needs (its opcode, format or
/// fields) cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    /// The doc, relative to the spec directory (`BFN.md`).
    pub doc: String,
    /// Its opcode and sub-opcode, when they could be read.
    pub opcode: Option<u8>,
    #[serde(default)]
    pub sub_opcode: Option<u8>,
    /// Why, with the place: `BFN.md:12:3: V0103 field `Src` ...`.
    pub why: String,
}

/// A correction of an upstream doc that was applied (`spec/errata/*.patch`): where a doc
/// disagrees with Intel's tools, what it says, what the tools do, and the evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Erratum {
    /// The erratum's file, as named in diagnostics (e.g. `errata/SCATTER-surface.patch`).
    pub file: String,
    /// The doc it corrects, relative to the spec directory.
    pub doc: String,
    /// The one-line title (`Erratum:`).
    pub title: String,
    pub doc_says: String,
    pub intel_does: String,
    pub evidence: String,
    /// Lines the diff removes and adds.
    pub removed: usize,
    pub added: usize,
}

/// One instruction doc.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instruction {
    /// Unique name: the opcode's name, or the file stem for a doc with a sub-opcode (`SVM_ATOMIC`).
    pub name: String,
    /// File name relative to the spec directory.
    pub source: String,
    pub opcode: OpcodeDef,
    pub sub_opcode: Option<OpcodeDef>,
    /// Every field of every format table, in order of first appearance (opcode cells excluded).
    pub fields: Vec<Field>,
    /// One per format table, in document order.
    pub variants: Vec<Variant>,
    /// `#### Properties` bullets, name → text.
    pub properties: BTreeMap<String, String>,
    /// Section texts: fences and common indentation removed, trimmed; empty when absent.
    pub semantics: String,
    pub description: String,
    pub text: String,
    pub notes: String,
    /// `#### Operand type maps`: which type combinations the operands may have.
    #[serde(default)]
    pub type_maps: Vec<TypeMap>,
    /// Level-2 sections the contract does not name (e.g. `## Examples`), title → text.
    #[serde(default)]
    pub other_sections: BTreeMap<String, String>,
    /// Names of other docs that encode identically (same opcode, sub-opcode and format).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// When this doc is an alias, the name that decodes (the alphabetically first).
    #[serde(default)]
    pub alias_of: Option<String>,
    /// The `## Text` templates, typed; `None` when they cannot be read (error V0130).
    #[serde(default)]
    pub syntax: Option<Syntax>,
    /// The `## Semantics` section read as pseudo-code (`codegen/src/parse/semantics.rs`).
    #[serde(default)]
    pub pseudo_code: PseudoCode,
    /// Span of the `## Opcode` heading.
    pub span: Span,
}

/// A `NAME = 0xNN` line of `## Opcode`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpcodeDef {
    pub name: String,
    pub value: u8,
    pub span: Span,
}

/// A field: a cell of a format table joined with its `**Name(type):**` bullet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    /// The bullet's type, lower case as written: `ub`, `uw`, `ud`, `d`, `vec_operand`,
    /// `raw_operand`, `scalar`, `unknown`, ...
    #[serde(rename = "type")]
    pub ty: String,
    /// Marked `\*` in a format table.
    pub optional: bool,
    /// The bullet's prose (after the `**Name(type):**`), without nested bit ranges and values.
    #[serde(default)]
    pub description: String,
    pub bitfields: Vec<BitField>,
    /// Enumerated values listed without a bit range.
    pub values: Vec<EnumValue>,
    /// Upper case type names from "Must have type ..." / "must have one of ... type".
    pub allowed_types: Vec<String>,
    /// Lower case class names from "Operand class: ...".
    pub operand_classes: Vec<String>,
    /// Span of the bullet (or of the table cell when there is no bullet).
    pub span: Span,
}

/// A `Bit[hi..lo]:` item of a field bullet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BitField {
    pub hi: u8,
    pub lo: u8,
    pub summary: String,
    pub values: Vec<EnumValue>,
    /// Platform annotation on the bit range itself (`{TGLLP+}Bit[6..5]`), verbatim without braces.
    #[serde(default)]
    pub platform: Option<String>,
    pub span: Span,
}

/// An enumerated value: `0b011: 8 elements`, `5: T255 - Stateless surface access`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnumValue {
    pub value: u64,
    pub meaning: String,
    /// Platform annotation such as `XEHP+`, verbatim without braces.
    pub platform: Option<String>,
    pub span: Span,
}

/// One format table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// The `### CONDITION` text (e.g. `LscSubOp=lsc_load, lsc_store`), or `None`.
    pub condition: Option<String>,
    /// Field names in encoding order (row by row, left to right).
    pub fields: Vec<String>,
    /// The condition's clauses, each split into field, optional sub-field and value names.
    /// All clauses must hold for the variant to apply.
    #[serde(default)]
    pub selectors: Vec<Selector>,
    /// Fields marked `\*` in this table.
    #[serde(default)]
    pub optional_fields: Vec<String>,
    /// Fields repeated as many times as another field of the table says.
    #[serde(default)]
    pub counted: Vec<Counted>,
    pub span: Span,
}

/// How a counted list is written in a doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum CountKind {
    /// One field repeated N times: `| Label0 | LabelN | Label(Num_labels-1) |` (the cells
    /// become the one field `Label`).
    Repeat,
    /// Of the fields listed after the count field, only the first N are encoded: `NumParams`
    /// ("number of additional parameters") of `3D_LOAD`.
    Prefix,
}

/// A repetition and the field that counts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counted {
    /// The integer field whose value is N; it precedes the list in the table.
    pub count: String,
    /// `repeat`: the one repeated field. `prefix`: the fields of which the first N are present,
    /// in table order.
    pub fields: Vec<String>,
    pub kind: CountKind,
    /// The inclusive range the count field's bullet states (`Valid values are [1-15]`,
    /// `Must be in the range [1..32]`), if any.
    #[serde(default)]
    pub min: Option<u64>,
    #[serde(default)]
    pub max: Option<u64>,
    /// The count bullet's sentence stating the range, quoted by validators.
    #[serde(default)]
    pub range_sentence: Option<String>,
    /// `prefix`: the doc's sentence allowing trailing fields to be skipped
    /// (`It is permitted to skip the trailing parameters`), when it has one.
    #[serde(default)]
    pub skip_sentence: Option<String>,
    /// The cells of the repetition (`repeat`) or the count field's cell (`prefix`).
    pub span: Span,
}

/// `Op.op=sample_b, sample_c` → field `Op`, sub-field `op`, values `[sample_b, sample_c]`.
/// `field_operand_type(Si)=UD` → field `Si`, values `[UD]`, `operand_type` set: the clause is on
/// the type of the operand's variable, which the instruction's bytes do not carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selector {
    pub field: String,
    pub subfield: Option<String>,
    pub values: Vec<String>,
    #[serde(default)]
    pub operand_type: bool,
}

/// One `- **Type map{PLATFORM}**` of `#### Operand type maps`: operand group → allowed types.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeMap {
    pub platform: Option<String>,
    /// e.g. `Dst types` → `[UD, D]`.
    pub types: BTreeMap<String, Vec<String>>,
    pub span: Span,
}

/// A pseudo-structure of a chapter: `kernel_info { UW name_len; UB name[name_len]; ... }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub name: String,
    /// Chapter file name relative to the spec directory (`chapters/4_visa_header.md`).
    pub source: String,
    /// Other names the chapter gives this format ("Sampler and surface variables share the
    /// same format": `sampler_info` for `surface_info`).
    #[serde(default)]
    pub aliases: Vec<String>,
    pub fields: Vec<RecordField>,
    /// Span of the `name {` line.
    pub span: Span,
}

/// One item of a pseudo-structure, joined with its `- **name:** text` bullet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordField {
    pub name: String,
    pub kind: RecordFieldKind,
    /// The bullet's prose, without nested items; empty when the chapter has no bullet.
    #[serde(default)]
    pub description: String,
    /// Enumerated values of the whole field (`- 0:  extern`, `- Block ('0'): ...`).
    #[serde(default)]
    pub values: Vec<EnumValue>,
    /// Bit-packed items of the field (`- type (bit 0-3): ...`).
    #[serde(default)]
    pub bits: Vec<RecordBits>,
    /// Span of the item's line in the pseudo-structure.
    pub span: Span,
}

/// What an item of a pseudo-structure holds, as the chapter declares it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordFieldKind {
    /// `UD offset;`: one value of a fundamental type (`UB`, `UW`, `UD`, `B`, `W`, `D`, `UQ`, `Q`).
    Scalar { ty: String },
    /// `UB name[name_len];`: values of a fundamental type, counted by an earlier field.
    Array { ty: String, count: String },
    /// `var_info var_info[variable_count];`: records counted by an earlier field. `record` is
    /// `None` when the chapter describes no format of that name (`vme_info`).
    Records {
        ty: String,
        record: Option<String>,
        count: String,
    },
    /// `string_pool string_pool[string_count];`: null-terminated strings (the String Pool
    /// section says the pool's strings are separated by the null character).
    Strings { ty: String, count: String },
    /// `value;`: raw bytes, as many as the nearest earlier field named `size` says.
    Bytes { size: String },
    /// `instructions;`: the instruction stream, `size` bytes of instructions of the opcode docs.
    Instructions { size: String },
}

/// A bit-packed item of a record field: `- alignment (bit 4-7): ...`, `- bits 7..3 form the
/// provenance field`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordBits {
    /// The item's name as written (`alignment`), or taken from its text (`provenance` from
    /// "form the provenance field"); `reserved` for "must be zero"; else `bits_HI_LO`.
    pub name: String,
    pub hi: u8,
    pub lo: u8,
    pub text: String,
    pub values: Vec<EnumValue>,
    pub span: Span,
}

/// A range of predefined ids a chapter states: "Thirty-two variables (V0-V31) are reserved for
/// pre-defined variables", "T0-T5 are pre-defined surfaces".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Predefined {
    /// The id letter: `V`, `T`.
    pub class: String,
    /// Ids 0..count are predefined.
    pub count: u32,
    /// Names from the chapter's table (`V1(%thread_x)`), by id.
    pub names: BTreeMap<u32, String>,
    pub span: Span,
}

/// The typed form of a doc's `## Text` section (`codegen/src/parse/template.rs` reads it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Syntax {
    /// Token templates, one per form (sub-op, variant or alternative mnemonic), in doc order.
    Templates { forms: Vec<SyntaxForm> },
    /// The doc's syntax is not a token template: a hand-written formatter prints it.
    /// `rule` names which rule of `codegen/DIAGNOSTICS.md` (V0132) made it special.
    Special { rule: SpecialRule, reason: String },
    /// A template cannot be read (warning V0130): the instruction has no text form. `why`
    /// names the doc, line and column.
    Unreadable { why: String },
}

/// Why a doc's syntax is a special form (see V0132 in `codegen/DIAGNOSTICS.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialRule {
    /// `## Text` holds no template (the SVM umbrella doc).
    NoTemplate,
    /// The format's only field is `Label`: the doc defines a label, printed as `name:`.
    LabelDefinition,
    /// A `NumParams` field counts the operands: the operand list varies per sub-op.
    VariableOperands,
    /// A template line continues on deeper-indented lines: a meta-grammar, not tokens.
    MetaGrammar,
}

/// One template line: `[(<P>)] ADD[.sat] (<exec_size>) <dst> <src0> <src1>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyntaxForm {
    /// The template as written, comments removed.
    pub template: String,
    /// The mnemonic as Intel prints it: lower case, except for debug directives (`FILE`, `LOC`).
    pub mnemonic: String,
    /// The optional predicate prefix `[(<P>)]`, linked to the `Pred` field.
    pub predicate: Option<Slot>,
    /// Everything glued to the mnemonic: `.sat`, `.<Num_blocks>`, `[.16|.64]`, ...
    pub suffixes: Vec<Suffix>,
    /// The parenthesised group after the mnemonic: `(<exec_size>)`, `(<size>)`, `(<w>, <h>)`.
    /// Empty when the template has none.
    pub group: Vec<Slot>,
    /// The group's layout as the template writes it (`VME_IME(<a>,<b>)`: glued, `,`).
    #[serde(default, skip_serializing_if = "GroupLayout::is_default")]
    pub group_layout: GroupLayout,
    /// Operand slots in print order.
    pub operands: Vec<Slot>,
    /// When the doc has several forms: the enumerated value that selects this one (the value
    /// whose name is the form's mnemonic or one of its literal suffixes).
    #[serde(default)]
    pub selected_by: Option<FieldValue>,
    pub span: Span,
}

/// How a template writes its group, kept as written: Intel prints `vme_ime(0,0)` (no space
/// before the group, none after its comma) and `media_ld.nomod (16,4)`, and the errata of those
/// templates write exactly that.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct GroupLayout {
    /// No space between the mnemonic (or its last suffix) and `(`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub glued: bool,
    /// Between two slots of the group: `, ` unless the template writes `,` alone.
    pub separator: String,
}

impl Default for GroupLayout {
    fn default() -> Self {
        GroupLayout {
            glued: false,
            separator: ", ".into(),
        }
    }
}

impl GroupLayout {
    pub fn is_default(&self) -> bool {
        *self == GroupLayout::default()
    }
}

/// `Op = 1` (`max`): a field's enumerated value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldValue {
    pub field: String,
    pub value: u64,
    pub name: String,
}

/// A suffix of the mnemonic; `optional` when written in `[...]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suffix {
    pub optional: bool,
    #[serde(flatten)]
    pub kind: SuffixKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "suffix", rename_all = "snake_case")]
pub enum SuffixKind {
    /// `.sat`: printed when the destination saturates.
    Saturate,
    /// A fixed word: `.signal`, `.unaligned`, `.pixel_null_mask`.
    Literal { text: String },
    /// A word joined to the mnemonic without a dot: `[_eot]` in `{raw_sends|raw_sendsc}[_eot]`.
    Joined { text: String },
    /// One of several words: `[.16|.64]`.
    Choice { options: Vec<String> },
    /// A field's value, after a fixed `prefix` (`.x<BooleanFuncCtrl>` has prefix `x`).
    Slot { prefix: String, slot: Slot },
    /// A set of optional flag letters, printed in this order: `.{E?I?S?C?R?L1?}`.
    Flags { flags: Vec<String> },
}

/// A placeholder of a template and the field it prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// As written, without `<>`: `src0`, `Exec_size`, `func_name`.
    pub name: String,
    /// The format field it prints (matched case-insensitively), or `None` (warning V0131).
    pub field: Option<String>,
    pub prints: Prints,
    /// Written `[<name>]`.
    #[serde(default)]
    pub optional: bool,
    /// Prints every item of a counted field, `(Label0, Label1, ..., LabelN-1)`: the list
    /// in parentheses, comma separated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub list: bool,
    /// Spaces before the operand beyond the one that separates operands, as the template
    /// writes them (`VME_SIC <surface>  <UNIInput>`: Intel prints two there).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_spaces: u8,
    /// Written `0x<name>`: a number printed and read in hexadecimal with Intel's `0x`
    /// (RAW_SEND's `<ExMsgDesc>`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hex: bool,
    /// Written right after the previous operand behind this text instead of a space
    /// (`<dst>/<dstLen>`: RAW_SENDG's raw operands and their sizes in bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub glued: Option<String>,
    /// Hexadecimal digits in upper case: a comment of the template says "upper-case
    /// hexadecimal" (RAW_SENDG's `.0x<sfid>` and `0x<desc>`, as IGC prints them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub upper_hex: bool,
    /// The member of a bit-packed field the slot prints, when it names one rather than a
    /// field: SAMPLE_UNORM's `<output_format>` is `Channel_mask` bits 5..4, the one range whose
    /// summary says "Output format" (`field` is then `Channel_mask`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<Member>,
    /// The text of each enumerated value, in the doc's order of values, from a template
    /// comment `<slot> is one of "a", "b", ...` (SAMPLE_UNORM's `"16-full", ...`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spellings: Vec<String>,
    pub span: Span,
}

/// A member of a bit-packed field: its bit range (`Bit[5..4]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub hi: u8,
    pub lo: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// What a slot prints, derived from its field (rules in `codegen/src/parse/template.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prints {
    /// `(M1, 16)`: execution mask and size (field `Exec_size`).
    ExecSize,
    /// The predicate prefix `(P1)`, `(!P2.any)`.
    Predicate,
    /// A vector operand (`vec_operand` or `scalar`): `V32(0,0)<1;1,0>`, `0x1:ud`.
    Vector,
    /// A raw operand: `V32.0`.
    Raw,
    /// A surface index from a byte field: `T6`, `%slm`.
    Surface,
    /// A sampler index from a byte field: `S0`.
    Sampler,
    /// A label name.
    Label,
    /// Channel-mask letters `R`, `RG`, `RGBA` (a field named `Channels`/`Channel_mask`).
    Channels,
    /// A string of the string pool (function or file names).
    Symbol,
    /// The name of an enumerated value of the field.
    Name,
    /// A plain number.
    Number,
    /// The slot names no field (V0131).
    Unknown,
}

/// What a doc's `## Semantics` section is, read as the C-like pseudo-code of the docs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PseudoCode {
    /// The doc has no `## Semantics` section, or an empty one.
    #[default]
    None,
    /// The section is prose (no statement ends in `;`, no `{`): nothing to read.
    Prose,
    /// Statements, in order.
    Code { body: Vec<Stmt> },
    /// The section looks like code but cannot be read (warning V0140): `why` names the doc,
    /// line and column.
    Unreadable { why: String },
}

/// A statement of the pseudo-code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Stmt {
    /// `for (init; cond; step) body`.
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Box<Stmt>>,
        body: Vec<Stmt>,
        span: Span,
    },
    /// `while (cond) body`.
    While {
        cond: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    /// `if (cond) then else otherwise` (`else if` is an `if` alone in `otherwise`).
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        span: Span,
    },
    /// A typed local: `UD width = src0[i] & 0x1F;`.
    Local {
        ty: String,
        name: String,
        init: Option<Expr>,
        span: Span,
    },
    /// `target op value;` with `op` one of `=`, `+=`, `-=`, ...; `x++` is `x += 1`.
    Assign {
        target: Expr,
        op: String,
        value: Expr,
        span: Span,
    },
    /// An expression evaluated for nothing but its effect (a call).
    Eval { expr: Expr, span: Span },
}

/// An expression of the pseudo-code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Expr {
    /// An integer literal (decimal or `0x` hex).
    Int { value: u64 },
    /// A floating-point literal as written (`1.0`, `0.5f`).
    Float { text: String },
    /// A name: an operand (`dst`, `src0`), a field, a local, `i`, `exec_size`, `ChEn`...
    Name { name: String },
    /// `base[index]`: an element (`src0[i]`) or a bit (`dScalar[31]`).
    Index { base: Box<Expr>, index: Box<Expr> },
    /// `base[hi:lo]`: a bit range (`src1[i][7:0]`).
    Bits {
        base: Box<Expr>,
        hi: Box<Expr>,
        lo: Box<Expr>,
    },
    /// `base.name`.
    Member { base: Box<Expr>, name: String },
    /// A prefix operator: `-`, `~`, `!`, `*` (dereference), `&` (address).
    Unary { op: String, operand: Box<Expr> },
    /// A binary operator of C, or a name written between two operands (`src0[i] rel_op
    /// src1[i]`: the field `Rel_op` chooses the operator).
    Binary {
        op: String,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `cond ? then : otherwise`.
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// A named function: `sin(src0[i])`, `min/max(a, b)` (a field chooses which).
    Call { name: String, args: Vec<Expr> },
    /// `(TYPE) operand`.
    Cast { ty: String, operand: Box<Expr> },
    /// `operand is what` (`dst is predicate`, `src0 is unsigned`, `floor(x) is odd`).
    Is { operand: Box<Expr>, what: String },
}
