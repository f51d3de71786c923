//! One malformed input per diagnostic code: the code, the message, and the exact line and
//! column it points at (worked out by hand from the inputs below).

use codegen::diag::{Code, Diagnostic, Severity};
use codegen::parse::{parse_spec, SourceFile};

/// A minimal valid doc. Line numbers below refer to it.
const BASE: &str = "## Opcode

  FOO = 0x10

## Format

| | | |
| --- | --- | --- |
| 0x10(FOO) | Exec_size | Src |

## Description

Does foo.

- **Exec_size(ub):** Execution size

  - Bit[2..0]: size

    - 0b000:  1 element

- **Src(raw_operand):** The source.

## Text
FOO <src>
";

fn diags_of(files: &[(&str, &str)]) -> Vec<Diagnostic> {
    let files: Vec<SourceFile> = files
        .iter()
        .map(|(n, t)| SourceFile {
            name: n.to_string(),
            bytes: t.as_bytes().to_vec(),
        })
        .collect();
    let parsed = parse_spec(&files);
    let (_, analysis) = codegen::analyze::analyze(&parsed.spec);
    parsed.diagnostics.into_iter().chain(analysis).collect()
}

fn one(text: &str, code: Code) -> Diagnostic {
    one_in(&[("FOO.md", text)], code)
}

/// The one diagnostic `code` of a doc set (docs and chapters by name).
fn one_in(files: &[(&str, &str)], code: Code) -> Diagnostic {
    let all = diags_of(files);
    let found: Vec<_> = all
        .iter()
        .filter(|d| d.code == code.as_str())
        .cloned()
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected one {}, got {all:#?}",
        code.as_str()
    );
    let d = found[0].clone();
    assert_eq!(d.severity, code.severity());
    d
}

fn at(d: &Diagnostic, line: u32, column: u32, message: &str) {
    assert_eq!((d.line, d.column), (line, column), "{d:#?}");
    assert!(
        d.message.contains(message),
        "message {:?} lacks {message:?}",
        d.message
    );
}

#[test]
fn the_base_doc_is_clean() {
    assert_eq!(diags_of(&[("FOO.md", BASE)]), vec![]);
}

#[test]
fn v0101_no_opcode() {
    let d = one("## Format\n\nnothing\n", Code::NoOpcode);
    at(&d, 1, 1, "no `## Opcode`");
    assert!(d.expected.as_deref().unwrap_or("").contains("NAME = 0xNN"));
    at(&one("", Code::NoOpcode), 1, 1, "no `## Opcode`");
}

#[test]
fn v0102_bad_opcode() {
    let d = one(&BASE.replace("FOO = 0x10", "FOO = 0x1zz"), Code::BadOpcode);
    at(&d, 3, 3, "FOO = 0x1zz");
    let d = one(&BASE.replace("FOO = 0x10", "FOO = 0x100"), Code::BadOpcode);
    at(&d, 3, 3, "cannot read opcode line");
}

#[test]
fn v0103_untyped_field() {
    // The table names Exec_size but its bullet has no type.
    let d = one(
        &BASE.replace("- **Exec_size(ub):**", "- **Exec_size:**"),
        Code::UntypedField,
    );
    at(&d, 15, 1, "has a bullet without a type");
    // A table cell with no bullet at all points at the cell.
    let d = one(
        &BASE
            .replace("| Src |", "| Src | Dst |")
            .replace("| --- | --- | --- |", "| --- | --- | --- | --- |")
            .replace("| | | |", "| | | | |"),
        Code::UntypedField,
    );
    at(&d, 9, 33, "field `Dst` of the format table has no");
}

#[test]
fn v0104_duplicate_field() {
    let text = BASE.replace("## Text", "- **Src(raw_operand):** Again.\n\n## Text");
    let d = one(&text, Code::DuplicateField);
    at(&d, 23, 1, "`Src` is described twice (first at line 21)");
}

#[test]
fn v0105_no_format() {
    let text = BASE.replace(
        "## Format\n\n| | | |\n| --- | --- | --- |\n| 0x10(FOO) | Exec_size | Src |\n",
        "",
    );
    let d = one(&text, Code::NoFormat);
    at(&d, 3, 3, "no format table");
}

#[test]
fn v0106_bad_bit_range() {
    let d = one(&BASE.replace("Bit[2..0]", "Bit[0..2]"), Code::BadBitRange);
    at(&d, 17, 1, "[0..2]");
}

#[test]
fn v0107_bad_value() {
    let d = one(
        &BASE.replace("0b000:  1 element", "0b1000:  1 element"),
        Code::BadValue,
    );
    at(&d, 19, 1, "does not fit bit range [2..0]");
}

#[test]
fn v0111_preamble() {
    let d = one(&format!("File: FOO.md\n1\n2\n{BASE}"), Code::Preamble);
    at(&d, 1, 1, "File: FOO.md");
    // A copyright comment is not a preamble.
    assert!(diags_of(&[("FOO.md", &format!("<!-- (c) -->\n\n{BASE}"))]).is_empty());
}

#[test]
fn v0112_extra_cells() {
    let d = one(
        &BASE
            .replace("| Exec_size | Src |", "| Exec_size | Src | Dst |")
            .replace("## Text", "- **Dst(raw_operand):** D.\n\n## Text"),
        Code::ExtraCells,
    );
    at(&d, 9, 33, "a Markdown renderer drops `Dst`");
}

#[test]
fn v0113_misindented_bullet() {
    let d = one(
        &BASE.replace("- **Src(raw_operand):**", "      - **Src(raw_operand):**"),
        Code::MisindentedBullet,
    );
    at(
        &d,
        21,
        7,
        "`Src` is indented 6 columns, as if nested under `Exec_size`",
    );
}

#[test]
fn v0114_unbalanced_fence() {
    let d = one(
        &BASE.replace("## Text\n", "## Text\n```\n"),
        Code::UnbalancedFence,
    );
    at(&d, 24, 1, "section `Text` has an unclosed code fence");
}

#[test]
fn v0115_tabs() {
    let d = one(&BASE.replace("FOO <src>", "\tFOO <src>"), Code::Tabs);
    at(&d, 24, 1, "1 line(s) contain tab characters");
}

#[test]
fn v0116_trailing_space() {
    let d = one(
        &BASE.replace("Does foo.", "Does foo.  "),
        Code::TrailingSpace,
    );
    at(&d, 13, 10, "1 line(s) end with whitespace");
}

#[test]
fn v0117_invalid_utf8() {
    let mut bytes = BASE.as_bytes().to_vec();
    let at_byte = BASE.find("Does").unwrap();
    bytes[at_byte] = 0xff;
    let files = [SourceFile {
        name: "FOO.md".into(),
        bytes,
    }];
    let d: Vec<_> = parse_spec(&files).diagnostics;
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].code, "V0117");
    assert_eq!((d[0].line, d[0].column), (13, 1));
    assert!(d[0]
        .message
        .contains(&format!("invalid UTF-8 at byte {at_byte}")));
}

#[test]
fn v0118_opcode_cell_mismatch() {
    let d = one(
        &BASE.replace("0x10(FOO)", "0x11(FOO)"),
        Code::OpcodeCellMismatch,
    );
    at(&d, 9, 3, "`0x11(FOO)` matches no line");
}

#[test]
fn v0120_bullet_not_in_table() {
    let d = one(
        &BASE.replace("## Text", "- **Extra(ub):** Not in the table.\n\n## Text"),
        Code::BulletNotInTable,
    );
    at(&d, 23, 1, "`Extra` is described but no format table has it");
}

#[test]
fn v0121_bad_condition() {
    let text = BASE.replace(
        "## Format\n\n",
        "## Format\n\n### CONDITION\n\n- whatever\n\n",
    );
    let d = one(&text, Code::BadCondition);
    at(&d, 9, 3, "cannot read condition `whatever`");
}

/// BASE with a jump table `Item0 | Item(Num_items-1)` after `Src`, `extra` bullets added.
fn counted(row_tail: &str, extra: &str) -> String {
    BASE.replace(
        "| | | |\n| --- | --- | --- |\n| 0x10(FOO) | Exec_size | Src |",
        &format!("| | | | | |\n| --- | --- | --- | --- | --- |\n| 0x10(FOO) | Exec_size | Src | {row_tail}"),
    )
    .replace(
        "- **Src(raw_operand):** The source.\n",
        &format!("- **Src(raw_operand):** The source.\n\n- **Item0(uw):** An item.\n{extra}"),
    )
}

#[test]
fn v0122_bad_count() {
    // The count field the last item names does not exist.
    let d = one(&counted("Item0 | Item(Num_items-1) |", ""), Code::BadCount);
    at(&d, 9, 33, "this table has no field `Num_items`");
    // The count is an operand, not an integer.
    let text = counted(
        "Num_items | Item0 | Item(Num_items-1) |",
        "\n- **Num_items(raw_operand):** How many.\n",
    );
    let d = one(&text, Code::BadCount);
    at(&d, 9, 45, "count field `Num_items` has type `raw_operand`");
    // A `...` that no `Item(Count-1)` closes.
    let d = one(&counted("Item0 | ... |", ""), Code::BadCount);
    at(&d, 9, 41, "`...` stands for left-out items");
    // Parameters of different types under one count.
    let text = BASE
        .replace("| Exec_size | Src |", "| NumParams | Src | Exec_size |")
        .replace(
            "| | | |\n| --- | --- | --- |",
            "| | | | |\n| --- | --- | --- | --- |",
        )
        .replace(
            "- **Src(raw_operand):**",
            "- **NumParams(ub):** number of additional parameters.\n\n- **Src(raw_operand):**",
        );
    let d = one(&text, Code::BadCount);
    at(&d, 21, 1, "a counted list needs one type");
    // A well-formed table gives the schema entry and no error.
    let text = counted(
        "Num_items | Item0 | Item(Num_items-1) |",
        "\n- **Num_items(ub):** How many. Must be in the range [1..32]\n",
    );
    assert!(!diags_of(&[("FOO.md", &text)])
        .iter()
        .any(Diagnostic::is_error));
}

#[test]
fn v0130_bad_template() {
    // Line 24 is `FOO <src>`; a word after the operands is not a slot: column 11.
    let d = one(
        &BASE.replace("FOO <src>", "FOO <src> junk"),
        Code::BadTemplate,
    );
    at(&d, 24, 11, "cannot read template `FOO <src> junk`");
    assert!(d.message.contains("unexpected `junk`"), "{d:#?}");
    // A `.` followed by nothing a suffix can be: column 4.
    let d = one(&BASE.replace("FOO <src>", "FOO. <src>"), Code::BadTemplate);
    at(&d, 24, 4, "`.` is followed by nothing");
}

#[test]
fn v0131_unlinked_slot() {
    // `<source>` is at line 24 column 5; the field is `Src`.
    let d = one(
        &BASE.replace("FOO <src>", "FOO <source>"),
        Code::UnlinkedSlot,
    );
    at(&d, 24, 5, "template slot `source` names no field");
    assert!(d
        .expected
        .as_deref()
        .unwrap_or("")
        .contains("Exec_size, Src"));
}

#[test]
fn v0132_special_form() {
    // No template: points at the `## Text` heading (line 23).
    let d = one(&BASE.replace("FOO <src>\n", ""), Code::SpecialForm);
    at(&d, 23, 1, "`## Text` holds no template");
    // A template continued on a deeper-indented line: points at the first template line.
    let d = one(
        &BASE.replace("FOO <src>\n", "FOO <src>\n    <src>\n"),
        Code::SpecialForm,
    );
    at(&d, 24, 1, "meta-grammar");
}

#[test]
fn v0201_unknown_platform() {
    let d = one(
        &BASE.replace("- 0b000:  1 element", "- {ZZZ+}0b000:  1 element"),
        Code::UnknownPlatform,
    );
    at(&d, 19, 1, "platform `ZZZ`");
}

#[test]
fn v0222_value_on_no_platform() {
    let doc = BASE.replace(
        "    - 0b000:  1 element\n",
        "    - 0b000:  1 element\n    - {PVC}0b001:  2 elements\n",
    );
    let list = "# Instructions\n\n- [FOO - foo {-PVC}](instructions/FOO.md)\n";
    let d = one_in(
        &[("FOO.md", &doc), ("chapters/6_instructions.md", list)],
        Code::ValueOnNoPlatform,
    );
    // Line 20: the `{PVC}` value, which no platform before PVC has.
    at(&d, 20, 1, "never validates");
    assert_eq!(d.file, "FOO.md");
    // Listed `{PVC+}`, the value exists: no diagnostic.
    let fine = diags_of(&[
        ("FOO.md", &doc),
        ("chapters/6_instructions.md", &list.replace("-PVC", "PVC+")),
    ]);
    assert!(!fine
        .iter()
        .any(|d| d.code == Code::ValueOnNoPlatform.as_str()));
}

#[test]
fn v0231_unknown_listed_platform() {
    let list = "# Instructions\n\n- [FOO - foo {ZZZ+}](instructions/FOO.md)\n";
    let files = [("FOO.md", BASE), ("chapters/6_instructions.md", list)];
    let d = one_in(&files, Code::UnknownListedPlatform);
    // Line 3, column 15 (`- [`, `FOO - foo`, ` {`): `ZZZ+` inside the braces.
    at(&d, 3, 15, "platform `ZZZ`");
    assert_eq!(d.file, "chapters/6_instructions.md");
    assert!(!diags_of(&files)
        .iter()
        .any(|d| d.code == Code::UnknownPlatform.as_str()));
}

#[test]
fn v0202_optional_field() {
    let d = one(&BASE.replace("| Src |", "| Src\\* |"), Code::OptionalField);
    at(&d, 21, 1, "optional field(s) `Src`");
    assert!(d.message.contains("always encoded"));
}

/// A doc of two formats, each behind its own `### CONDITION` lines (`None`: no heading),
/// with format rows `first` and `second` (two fields after the opcode each) and the bullets
/// `Op`, `Dst`, `Src` (and `Kind`).
fn two_formats(cond: [Option<&str>; 2], rows: [&str; 2]) -> String {
    let mut doc = String::from("## Opcode\n\n  FOO = 0x10\n\n## Format\n\n");
    for (c, row) in cond.iter().zip(rows) {
        if let Some(c) = c {
            doc.push_str(&format!("### CONDITION\n\n- {c}\n\n"));
        }
        doc.push_str(&format!(
            "| | | |\n| --- | --- | --- |\n| 0x10(FOO) | {row} |\n\n"
        ));
    }
    doc.push_str(
        "## Description\n\nDoes foo.\n\n- **Op(ub):** The operation\n\n  - 0: read\n  - 1: write\n\n\
         - **Dst(raw_operand):** The destination.\n\n- **Src(vec_operand):** The source.\n",
    );
    doc
}

#[test]
fn v0205_unknown_allowed_type() {
    // The parser keeps only data types; a schema from elsewhere (JSON) may name any.
    let text = BASE.replace(
        "- **Src(raw_operand):** The source.",
        "- **Src(vec_operand):** The source. Must have type UD",
    );
    let files = [SourceFile {
        name: "FOO.md".into(),
        bytes: text.into_bytes(),
    }];
    let mut spec = parse_spec(&files).spec;
    let src = spec.instructions[0]
        .fields
        .iter_mut()
        .find(|f| f.name == "Src")
        .expect("Src");
    assert_eq!(src.allowed_types, vec!["UD"]);
    src.allowed_types = vec!["INT4".into()];
    let (_, d) = codegen::analyze::analyze(&spec);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].code, Code::UnknownAllowedType.as_str());
    at(
        &d[0],
        21,
        1,
        "must have type `INT4`, which is not a vISA data type",
    );
}

#[test]
fn v0206_unranged_values() {
    let text = BASE.replace(
        "    - 0b000:  1 element\n",
        "    - 0b000:  1 element\n\n  - 0b1000: also a value, of no range\n",
    );
    let d = one(&text, Code::UnrangedValues);
    at(&d, 15, 1, "lists values both with and without bit ranges");
}

#[test]
fn v0207_rest_of_bytes() {
    let text = BASE.replace("- **Src(raw_operand):**", "- **Src(unknown):**");
    let d = one(&text, Code::RestOfBytes);
    at(
        &d,
        21,
        1,
        "field `Src` has type `unknown`, which fixes no binary layout",
    );
}

#[test]
fn v0208_rest_not_last() {
    let text = two_formats([None, None], ["Src | Dst", "Src | Dst"])
        .replace("| 0x10(FOO) | Src | Dst |\n\n| | | |\n| --- | --- | --- |\n| 0x10(FOO) | Src | Dst |\n", "| 0x10(FOO) | Src | Dst |\n")
        .replace("- **Src(vec_operand):**", "- **Src(various):**");
    let d = one(&text, Code::RestNotLast);
    at(
        &d,
        7,
        1,
        "`Src` has no fixed layout and is not the last field",
    );
}

#[test]
fn v0209_late_selector() {
    let text = two_formats(
        [Some("Op=read"), Some("Op=write")],
        ["Dst | Op", "Src | Op"],
    );
    let all = diags_of(&[("FOO.md", &text)]);
    let late: Vec<_> = all.iter().filter(|d| d.code == "V0209").collect();
    assert_eq!(late.len(), 2, "{all:#?}");
    assert_eq!((late[0].line, late[1].line), (11, 19), "{all:#?}");
    assert!(late[0]
        .message
        .contains("variant selector `Op` is not read before the variants' fields differ"));
}

#[test]
fn v0210_operand_type_variant() {
    let text = two_formats(
        [
            Some("Op=read"),
            Some("Op=read\n- field_operand_type(Src)=UD"),
        ],
        ["Op | Src", "Op | Src"],
    );
    let d = one(&text, Code::OperandTypeVariant);
    at(&d, 20, 1, "depends on an operand's declared type");
}

#[test]
fn v0211_no_selector() {
    let text = two_formats([Some("Op=read"), None], ["Op | Dst", "Op | Src"]);
    let d = one(&text, Code::NoSelector);
    // At the doc's start: the instruction as a whole.
    at(
        &d,
        1,
        1,
        "variants without a readable selector; the first decodes",
    );
}

#[test]
fn v0212_uncounted_list() {
    let text = counted(
        "Num_items | Item0 | Item(Num_items-1) |",
        "\n- **Num_items(ub):** How many.\n",
    )
    .replace("- **Item0(uw):**", "- **Item0(unknown):**");
    let d = one(&text, Code::UncountedList);
    at(&d, 9, 45, "`Num_items` cannot count `Item`");
}

#[test]
fn v0213_counted_parameters() {
    let text = BASE
        .replace("| Exec_size | Src |", "| NumParams | Src | Dst |")
        .replace(
            "| | | |\n| --- | --- | --- |",
            "| | | | |\n| --- | --- | --- | --- |",
        )
        .replace(
            "- **Src(raw_operand):**",
            "- **NumParams(ub):** number of additional parameters.\n\n- **Dst(raw_operand):** A parameter.\n\n- **Src(raw_operand):**",
        );
    let d = one(&text, Code::CountedParameters);
    at(&d, 21, 1, "`NumParams` counts the parameters after it");
}

#[test]
fn v0214_unknown_map_type() {
    let text = BASE.replace(
        "## Text\n",
        "#### Operand type maps\n- **Type map**\n  -  **Dst types:** UD\n  -  **Src types:** INT4\n\n## Text\n",
    );
    let d = one(&text, Code::UnknownMapType);
    at(
        &d,
        24,
        1,
        "type map names `INT4`, which is not a vISA data type",
    );
}

#[test]
fn v0203_unknown_selector_value() {
    let text = BASE.replace(
        "## Format\n\n",
        "## Format\n\n### CONDITION\n\n- Exec_size=nonexistent\n\n",
    );
    let d = one(&text, Code::UnknownSelectorValue);
    at(
        &d,
        11,
        1,
        "names values that `Exec_size` does not enumerate",
    );
}

#[test]
fn v0204_empty_type_list() {
    // Line 23 is `- **Type map**`; its `Src types` lists nothing.
    let text = BASE.replace(
        "## Text\n",
        "#### Operand type maps\n- **Type map**\n  -  **Dst types:** UD\n  -  **Src types:**\n\n## Text\n",
    );
    let d = one(&text, Code::EmptyTypeList);
    at(
        &d,
        24,
        1,
        "type map lists no type under `Src types`; the map is ignored",
    );
}

#[test]
fn v0220_self_contradiction() {
    // Line 24 is the `Supported Types` property (Q and BOOL in no map), line 27 the type map
    // (D, which the property lacks). The warning is raised at both, each naming the other.
    let text = BASE.replace(
        "## Text\n",
        "#### Properties\n- **Supported Types:** UD,Q.{PVC+}BOOL\n\n#### Operand type maps\n- **Type map**\n  -  **Dst types:** UD, D\n  -  **Src types:** UD, D\n\n## Text\n",
    );
    let files = vec![SourceFile {
        name: "FOO.md".into(),
        bytes: text.into_bytes(),
    }];
    let parsed = parse_spec(&files);
    let d = codegen::analyze::contradictions::check(&parsed.spec, &files);
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(d
        .iter()
        .all(|d| d.code == "V0220" && d.severity == Severity::Warning));
    let both = "lists BOOL, Q that no type map allows; the type maps allow D that `Supported Types` does not list";
    at(&d[0], 24, 1, both);
    assert!(d[0].message.contains("(type maps from line 27)"), "{d:#?}");
    at(&d[1], 27, 1, both);
    assert!(d[1].message.contains("(`Supported Types` at line 24)"));
    // The base doc and a doc whose lists agree are clean.
    let agree = BASE.replace(
        "## Text\n",
        "#### Properties\n- **Supported Types:** D,UD\n\n#### Operand type maps\n- **Type map**\n  -  **Dst types:** UD, D\n  -  **Src types:** UD\n\n## Text\n",
    );
    for t in [BASE.to_string(), agree] {
        let files = vec![SourceFile {
            name: "FOO.md".into(),
            bytes: t.into_bytes(),
        }];
        assert_eq!(
            codegen::analyze::contradictions::check(&parse_spec(&files).spec, &files),
            vec![]
        );
    }
}

/// The 1-based line of `text` that starts (after indentation) with `start`.
fn line_of(text: &str, start: &str) -> u32 {
    let n = text.lines().position(|l| l.trim_start().starts_with(start));
    u32::try_from(n.expect("the line is in the text") + 1).unwrap()
}

#[test]
fn v0221_bullet_against_table() {
    // A field listing its values as items and as a table inside the same bullet (as
    // LSC_UNTYPED's `DataElemsPerAddr` has a table): the items lack 2, the table lacks 3.
    let doc = |items: &str, rows: &str| {
        BASE.replace("| Exec_size | Src |", "| Exec_size | Mode | Src |")
            .replace("| --- | --- | --- |", "| --- | --- | --- | --- |")
            .replace("| | | |", "| | | | |")
            .replace(
                "- **Src(raw_operand):**",
                &format!("- **Mode(ub):** The mode. Valid values are:\n\n{items}\n      | Encoding | Meaning |\n      | --- | --- |\n{rows}\n- **Src(raw_operand):**"),
            )
    };
    let text = doc(
        "  - 0: invalid\n  - 1: d8\n  - 3: d32\n",
        "      | 0        | INVALID |\n      | 1        | d8      |\n      | 2        | d16     |\n",
    );
    let files = vec![SourceFile {
        name: "FOO.md".into(),
        bytes: text.clone().into_bytes(),
    }];
    let parsed = parse_spec(&files);
    let d = codegen::analyze::contradictions::check(&parsed.spec, &files);
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(d
        .iter()
        .all(|d| d.code == "V0221" && d.severity == Severity::Warning));
    let both = "field `Mode` contradicts itself: its items list 3 that its table lacks; its table lists 2 that its items lack";
    let (item, row) = (line_of(&text, "- 0: invalid"), line_of(&text, "| 0 "));
    at(&d[0], item, 1, both);
    assert!(
        d[0].message.contains(&format!("(table from line {row})")),
        "{d:#?}"
    );
    at(&d[1], row, 9, both);
    assert!(
        d[1].message.contains(&format!("(items from line {item})")),
        "{d:#?}"
    );
    // Items and a table that agree, and the base doc, are clean.
    let agree = doc(
        "  - 0: invalid\n  - 1: d8\n",
        "      | 0        | INVALID |\n      | 1        | d8      |\n",
    );
    for t in [BASE.to_string(), agree] {
        let files = vec![SourceFile {
            name: "FOO.md".into(),
            bytes: t.into_bytes(),
        }];
        assert_eq!(
            codegen::analyze::contradictions::check(&parse_spec(&files).spec, &files),
            vec![]
        );
    }
}

#[test]
fn v0230_unpinned_name() {
    use codegen::analyze::naming::Pins;
    use codegen::analyze::FieldType;
    // BASE's `Exec_size` bits 2..0 are named after their summary (`size`); a `Mode` whose value
    // 0 is named after words of its description (`EqEqualTo`), and value 1 after its name only.
    let text = BASE
        .replace("| Exec_size | Src |", "| Exec_size | Mode | Src |")
        .replace("| --- | --- | --- |", "| --- | --- | --- | --- |")
        .replace("| | | |", "| | | | |")
        .replace(
            "- **Src(raw_operand):**",
            "- **Mode(ub):** The relation.\n\n  - 0: EQ - equal to\n  - 1: NE (not equal)\n\n- **Src(raw_operand):**",
        );
    let files = vec![SourceFile {
        name: "FOO.md".into(),
        bytes: text.clone().into_bytes(),
    }];
    let spec = parse_spec(&files).spec;
    let analysed = |toml: &str| {
        let config = codegen::config::Config::parse("regen.toml", toml).expect("a valid config");
        codegen::analyze::analyze_pinned(&spec, &Pins::new(&config.pins()))
    };
    let (_, d) = analysed("");
    let d: Vec<&Diagnostic> = d.iter().filter(|d| d.code == "V0230").collect();
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(d.iter().all(|d| d.severity == Severity::Warning));
    // Line 17 is `  - Bit[2..0]: size` (BASE's line of the range).
    assert_eq!(line_of(&text, "- Bit[2..0]"), 17);
    at(
        d[0],
        17,
        1,
        "bits 2..0 of `Exec_size` are named `size` after their description",
    );
    assert_eq!(
        d[0].expected.as_deref(),
        Some("a pin in regen.toml: `[[name]]` with doc = \"FOO.md\", field = \"Exec_size\", bits = \"2..0\", name = \"size\"")
    );
    at(
        d[1],
        line_of(&text, "- 0: EQ"),
        1,
        "value 0x0 of `Mode` is named `Mode::EqEqualTo` after words of its description",
    );
    // Pinned, the names are the pins' and nothing is reported; a pin without `doc` names the
    // field's bits in every doc.
    let (model, d) = analysed(
        "[[name]]\nfield = \"Exec_size\"\nbits = \"2..0\"\nname = \"region_size\"\n\n\
         [[name]]\ndoc = \"FOO.md\"\nfield = \"Mode\"\nvalue = 0\nname = \"Equal\"\n",
    );
    assert!(d.iter().all(|d| d.code != "V0230"), "{d:#?}");
    let foo = &model.instructions[0];
    let FieldType::Bits { members, .. } = &foo.fields["Exec_size"].ty else {
        panic!("Exec_size is bit-packed");
    };
    assert_eq!(members[0].name, "region_size");
    let FieldType::Enum(_, e) = foo.fields["Mode"].ty else {
        panic!("Mode is an enum");
    };
    let names: Vec<&str> = foo.enums[e]
        .variants
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(names, ["Equal", "Ne"]);
    // A bare analysis (as tests run it) reports nothing.
    let (_, d) = codegen::analyze::analyze(&spec);
    assert!(d.iter().all(|d| d.code != "V0230"), "{d:#?}");
}

#[test]
fn v0301_conflicting_opcode() {
    let other = BASE
        .replace("FOO", "BAR")
        .replace("| Src |", "| Src | Src2 |")
        .replace("| | | |", "| | | | |")
        .replace("| --- | --- | --- |", "| --- | --- | --- | --- |")
        .replace("## Text", "- **Src2(raw_operand):** S.\n\n## Text");
    let d = diags_of(&[("BAR.md", &other), ("FOO.md", BASE)]);
    let c: Vec<_> = d.iter().filter(|d| d.code == "V0301").collect();
    assert_eq!(c.len(), 1, "{d:#?}");
    assert_eq!(
        (c[0].file.as_str(), c[0].line, c[0].column),
        ("FOO.md", 3, 3)
    );
    assert!(c[0].message.contains("already used by `BAR`"));
}

#[test]
fn v0302_alias() {
    let alias = BASE.replace("FOO", "BAR");
    let files: Vec<SourceFile> = [("BAR.md", alias.as_str()), ("FOO.md", BASE)]
        .iter()
        .map(|(n, t)| SourceFile {
            name: n.to_string(),
            bytes: t.as_bytes().to_vec(),
        })
        .collect();
    let parsed = parse_spec(&files);
    let w: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == "V0302")
        .collect();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("`BAR` decodes"));
    let foo = parsed
        .spec
        .instructions
        .iter()
        .find(|i| i.name == "FOO")
        .unwrap();
    assert_eq!(foo.alias_of.as_deref(), Some("BAR"));
    assert_eq!(foo.aliases, vec!["BAR".to_string()]);
}

#[test]
fn v0303_duplicate_name() {
    let d = diags_of(&[("A.md", BASE), ("B.md", &BASE.replace("0x10", "0x20"))]);
    let c: Vec<_> = d.iter().filter(|d| d.code == "V0303").collect();
    assert_eq!(c.len(), 1, "{d:#?}");
    assert_eq!((c[0].file.as_str(), c[0].line), ("B.md", 1));
    assert!(c[0].message.contains("`FOO` is already defined by A.md"));
    assert!(c[0].message.ends_with("; B.md is left out of the crate"));
}

#[test]
fn v0304_nothing_readable() {
    // Every doc left out: nothing to generate, an error at the first one's warning.
    let files: Vec<SourceFile> = [("A.md", ""), ("B.md", "## Opcode\n\n  B = 0xzz\n")]
        .iter()
        .map(|(n, t)| SourceFile {
            name: n.to_string(),
            bytes: t.as_bytes().to_vec(),
        })
        .collect();
    let d = codegen::generate(&files, &Default::default()).unwrap_err();
    let e: Vec<_> = d.iter().filter(|d| d.is_error()).collect();
    assert_eq!(e.len(), 1, "{d:#?}");
    assert_eq!((e[0].code.as_str(), e[0].file.as_str()), ("V0304", "A.md"));
    assert!(
        e[0].message.contains("none of the 2 docs"),
        "{}",
        e[0].message
    );
}

/// An erratum of BASE (FOO.md) in the documented format; `{hunk}` is its diff's body.
fn erratum(hunk: &str) -> String {
    format!(
        "Erratum: FOO: a second element size\n\
         Doc says: \"0b000: 1 element\" only\n\
         Intel does: writes 0b001 too\n\
         Evidence: made up for this test\n  \
         on two lines\n\
         \n\
         --- a/FOO.md\n\
         +++ b/FOO.md\n\
         {hunk}"
    )
}

/// Lines 17-21 of BASE as diff context, with `insert` after line 19.
fn hunk_after_19(insert: &str) -> String {
    format!(
        "@@ -17,5 +17,6 @@\n   - Bit[2..0]: size\n \n     - 0b000:  1 element\n+{insert}\n \n - **Src(raw_operand):** The source.\n"
    )
}

fn corrected(doc: &str, errata: &[(&str, &str)]) -> codegen::parse::Parsed {
    let file = |(n, t): &(&str, &str)| SourceFile {
        name: n.to_string(),
        bytes: t.as_bytes().to_vec(),
    };
    let errata: Vec<SourceFile> = errata.iter().map(file).collect();
    codegen::parse_corrected(&[file(&("FOO.md", doc))], &errata)
}

fn only(parsed: &codegen::parse::Parsed, code: Code) -> Diagnostic {
    let found: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.code == code.as_str())
        .collect();
    assert_eq!(found.len(), 1, "{:#?}", parsed.diagnostics);
    assert_eq!(found[0].severity, code.severity());
    found[0].clone()
}

#[test]
fn v0401_bad_erratum() {
    // No header at all: line 1 column 1 of the erratum.
    let text = format!(
        "--- a/FOO.md\n+++ b/FOO.md\n{}",
        hunk_after_19("    - 0b001:  2 elements")
    );
    let d = only(
        &corrected(BASE, &[("errata/FOO-x.patch", &text)]),
        Code::BadErratum,
    );
    assert_eq!(
        (d.file.as_str(), d.line, d.column),
        ("errata/FOO-x.patch", 1, 1)
    );
    assert!(d.message.contains("has no `Erratum:`"), "{d:#?}");
    // A header without a diff.
    let d = only(
        &corrected(BASE, &[("errata/FOO-y.patch", "Erratum: x\nDoc says: y\n")]),
        Code::BadErratum,
    );
    assert!(d.message.contains("no unified diff"), "{d:#?}");
    // A header line that is not `Key: value` (line 2).
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements")).replace("Doc says:", "Doc says");
    let d = only(
        &corrected(BASE, &[("errata/FOO-z.patch", &text)]),
        Code::BadErratum,
    );
    assert_eq!((d.line, d.column), (2, 1));
}

#[test]
fn v0402_stale_erratum() {
    // Upstream changed the context the erratum corrects: line 19 now reads differently.
    let upstream = BASE.replace("0b000:  1 element", "0b000:  one element");
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements"));
    let parsed = corrected(&upstream, &[("errata/FOO-two.patch", &text)]);
    let d = only(&parsed, Code::StaleErratum);
    // The hunk that no longer matches: its `@@` line is line 9 of the erratum.
    assert_eq!(
        (d.file.as_str(), d.line, d.column),
        ("errata/FOO-two.patch", 9, 1)
    );
    assert!(
        d.message
            .contains("no longer applies to `FOO.md`: hunk 1 does not match the doc"),
        "{d:#?}"
    );
    // An excerpt, as rustc shows one: the hunk's lines, then the doc's lines 17-21 now.
    assert_eq!(
        d.notes,
        [
            "hunk 1 (`@@ -17,5 +17,6 @@`) expects these lines at line 17:\n      - Bit[2..0]: size\n    \n        - 0b000:  1 element\n    \n    - **Src(raw_operand):** The source.",
            "the doc now reads there:\n   17 |   - Bit[2..0]: size\n   18 | \n   19 |     - 0b000:  one element\n   20 | \n   21 | - **Src(raw_operand):** The source."
        ]
    );
    let shown = codegen::diag::render(
        std::slice::from_ref(&d),
        &[SourceFile {
            name: "errata/FOO-two.patch".into(),
            bytes: text.clone().into_bytes(),
        }],
    );
    assert!(shown.contains("19 |     - 0b000:  one element"), "{shown}");
    // The doc is read as it is, and nothing is recorded as applied.
    assert!(parsed.spec.errata.is_empty());
    assert_eq!(
        parsed.spec.instructions[0].fields[0].bitfields[0]
            .values
            .len(),
        1
    );
}

#[test]
fn v0402_stale_erratum_whose_context_is_ambiguous() {
    // The context occurs twice: applying it would be a guess, so it is stale.
    let twice = BASE.replace(
        "- **Src(raw_operand):** The source.",
        "- **Src(raw_operand):** The source.\n\n  - Bit[2..0]: size\n\n    - 0b000:  1 element\n\n- **Src(raw_operand):** The source.",
    );
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements"));
    let d = only(
        &corrected(&twice, &[("errata/FOO-two.patch", &text)]),
        Code::StaleErratum,
    );
    assert!(
        d.message
            .contains("hunk 1 matches several places of the doc"),
        "{d:#?}"
    );
    assert!(
        d.notes[1].contains("occur 2 times in the doc (lines 17, 23)"),
        "{d:#?}"
    );
}

#[test]
fn v0405_obsolete_erratum() {
    // Upstream made the correction: the doc already has the line the erratum adds.
    let upstream = BASE.replace(
        "    - 0b000:  1 element\n",
        "    - 0b000:  1 element\n    - 0b001:  2 elements\n",
    );
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements"));
    let parsed = corrected(&upstream, &[("errata/FOO-two.patch", &text)]);
    let d = only(&parsed, Code::ObsoleteErratum);
    assert_eq!((d.file.as_str(), d.line), ("errata/FOO-two.patch", 9));
    assert!(
        d.message.contains("`FOO.md` already says what it says"),
        "{d:#?}"
    );
    // Not applied: the doc's own two values, not three.
    assert!(parsed.spec.errata.is_empty());
    let values = &parsed.spec.instructions[0].fields[0].bitfields[0].values;
    assert_eq!(values.len(), 2);
}

#[test]
fn errata_match_lines_ignoring_trailing_whitespace() {
    // Another revision of the doc with trailing spaces (V0116): the erratum still applies,
    // and the lines it did not change keep the doc's text.
    let spaced = BASE.replace("    - 0b000:  1 element\n", "    - 0b000:  1 element  \n");
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements"));
    let parsed = corrected(&spaced, &[("errata/FOO-two.patch", &text)]);
    assert_eq!(parsed.spec.errata.len(), 1, "{:#?}", parsed.diagnostics);
    assert_eq!(
        parsed.spec.instructions[0].fields[0].bitfields[0]
            .values
            .len(),
        2
    );
}

#[test]
fn v0403_erratum_unknown_doc() {
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements")).replace("FOO.md", "BAR.md");
    let d = only(
        &corrected(BASE, &[("errata/BAR-x.patch", &text)]),
        Code::ErratumUnknownDoc,
    );
    assert_eq!((d.line, d.column), (7, 1));
    assert!(d
        .message
        .contains("`BAR.md`, which is not in the spec directory; it is not applied"));
}

#[test]
fn v0404_bad_config() {
    use codegen::config::Config;
    // Line 2: `code` must be a string.
    let e = Config::parse(
        "regen.toml",
        "[[acknowledge]]\ncode = 111\ndoc = \"A.md\"\nreason = \"r\"\n",
    )
    .unwrap_err();
    assert_eq!((e.code.as_str(), e.line), ("V0404", 2));
    // An error code cannot be acknowledged: the caret is on `"V0402"`, line 2 column 8.
    let e = Config::parse(
        "regen.toml",
        "[[acknowledge]]\ncode = \"V0402\"\ndoc = \"A.md\"\nreason = \"r\"\n",
    )
    .unwrap_err();
    assert_eq!((e.code.as_str(), e.line, e.column), ("V0404", 2, 8));
    assert!(e.message.contains("not the code of a warning"));
    // A missing reason is an error too: acknowledgements must be reviewable.
    assert!(Config::parse(
        "regen.toml",
        "[[acknowledge]]\ncode = \"V0116\"\ndoc = \"A.md\"\n"
    )
    .is_err());
    // A `[[name]]` with bits that are no range, with neither bits nor a value, with a name that
    // is no identifier, or pinning one range twice: the caret is on the table (line 3, 4 or 6).
    let bad = |pins: &str| Config::parse("regen.toml", &format!("# pins\n\n{pins}")).unwrap_err();
    let e = bad("[[name]]\nfield = \"Size\"\nbits = \"0..2\"\nname = \"size\"\n");
    assert_eq!((e.code.as_str(), e.line), ("V0404", 3));
    assert!(
        e.message
            .contains("bits `0..2` of a `[[name]]` are no bit range"),
        "{e:#?}"
    );
    let e = bad("[[name]]\nfield = \"Size\"\nname = \"size\"\n");
    assert!(
        e.message.contains("names neither bits nor a value"),
        "{e:#?}"
    );
    let e = bad("[[name]]\nfield = \"Size\"\nvalue = 1\nname = \"2 blocks\"\n");
    assert!(
        e.message.contains("`2 blocks` is no Rust identifier"),
        "{e:#?}"
    );
    let e = bad("[[name]]\nfield = \"Size\"\nbits = \"2..0\"\nname = \"size\"\n\n[[name]]\nfield = \"Size\"\nbits = \"2 .. 0\"\nname = \"blocks\"\n");
    assert_eq!(e.line, 8, "{e:#?}");
    assert!(
        e.message
            .contains("bits 2 .. 0 of `Size` is pinned twice (`size`, `blocks`)"),
        "{e:#?}"
    );
    // The same range pinned for one doc and for every doc is no conflict: the doc's wins.
    let ok = Config::parse(
        "regen.toml",
        "[[name]]\nfield = \"Size\"\nbits = \"2..0\"\nname = \"size\"\n\n[[name]]\ndoc = \"A.md\"\nfield = \"Size\"\nbits = \"2..0\"\nname = \"blocks\"\n",
    )
    .unwrap();
    assert_eq!(ok.pins().len(), 2);
}

#[test]
fn errata_correct_the_doc_and_diagnostics_point_at_real_lines() {
    let text = erratum(&hunk_after_19("    - 0b001:  2 elements"));
    // The corrected doc has a trailing space on BASE's line 21 (now line 22 of the
    // corrected text): the warning must name FOO.md line 21, the line a person can open.
    let doc = BASE.replace("The source.", "The source. ");
    let text = text.replace("The source.", "The source. ");
    let parsed = corrected(&doc, &[("errata/FOO-two.patch", &text)]);
    let values = &parsed.spec.instructions[0].fields[0].bitfields[0].values;
    let read: Vec<_> = values
        .iter()
        .map(|v| (v.value, v.meaning.as_str()))
        .collect();
    assert_eq!(read, [(0, "1 element"), (1, "2 elements")]);
    let d = only(&parsed, Code::TrailingSpace);
    assert_eq!((d.file.as_str(), d.line, d.column), ("FOO.md", 21, 36));
    // The applied erratum is in the schema, header and all.
    let e = &parsed.spec.errata[0];
    assert_eq!(
        (e.file.as_str(), e.doc.as_str()),
        ("errata/FOO-two.patch", "FOO.md")
    );
    assert_eq!(e.title, "FOO: a second element size");
    assert_eq!(e.evidence, "made up for this test\non two lines");
    assert_eq!((e.removed, e.added), (0, 1));
}

#[test]
fn a_diagnostic_on_a_line_an_erratum_added_points_into_the_erratum() {
    // The added value does not fit Bit[2..0]: V0107 at the `+` line (line 13 of the erratum),
    // column 2, just past the `+`.
    let text = erratum(&hunk_after_19("    - 0b1000:  16 elements"));
    let parsed = corrected(BASE, &[("errata/FOO-bad.patch", &text)]);
    let d = only(&parsed, Code::BadValue);
    assert_eq!(
        (d.file.as_str(), d.line, d.column),
        ("errata/FOO-bad.patch", 13, 2)
    );
    // And it renders with a caret from the erratum's own text.
    let files = vec![
        SourceFile {
            name: "FOO.md".into(),
            bytes: BASE.as_bytes().to_vec(),
        },
        SourceFile {
            name: "errata/FOO-bad.patch".into(),
            bytes: text.clone().into_bytes(),
        },
    ];
    let out = codegen::diag::render(&[d], &files);
    assert!(out.contains("errata/FOO-bad.patch:13:2"), "{out}");
    assert!(out.contains("+    - 0b1000:  16 elements"), "{out}");
}

#[test]
fn errata_of_one_doc_apply_in_name_order() {
    let first = erratum(&hunk_after_19("    - 0b001:  2 elements"));
    // The second erratum's context includes the first one's line.
    let second = erratum(
        "@@ -19,3 +19,4 @@\n     - 0b000:  1 element\n     - 0b001:  2 elements\n+    - 0b010:  4 elements\n \n",
    );
    let parsed = corrected(
        BASE,
        &[("e/FOO-1.patch", &first), ("e/FOO-2.patch", &second)],
    );
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let values = &parsed.spec.instructions[0].fields[0].bitfields[0].values;
    assert_eq!(
        values.iter().map(|v| v.value).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    // A diagnostic on line 21 of the twice-corrected doc (BASE line 20 + 2) would land on
    // BASE's line; check the provenance through both steps with a bad third value.
    let third = erratum(
        "@@ -20,3 +20,4 @@\n     - 0b001:  2 elements\n     - 0b010:  4 elements\n+    - 0b1111:  bad\n \n",
    );
    let parsed = corrected(
        BASE,
        &[
            ("e/FOO-1.patch", &first),
            ("e/FOO-2.patch", &second),
            ("e/FOO-3.patch", &third),
        ],
    );
    let d = only(&parsed, Code::BadValue);
    assert_eq!(
        (d.file.as_str(), d.line, d.column),
        ("e/FOO-3.patch", 12, 2)
    );
}

/// The one diagnostic `code` of a chapter (`chapters/4_visa_header.md`) holding `text`.
fn chapter_one(text: &str, code: Code) -> Diagnostic {
    let all = diags_of(&[("FOO.md", BASE), ("chapters/4_visa_header.md", text)]);
    let found: Vec<_> = all
        .iter()
        .filter(|d| d.code == code.as_str())
        .cloned()
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected one {}, got {all:#?}",
        code.as_str()
    );
    assert_eq!(found[0].file, "chapters/4_visa_header.md");
    assert_eq!(found[0].severity, code.severity());
    found[0].clone()
}

#[test]
fn a_clean_chapter_adds_records_and_no_diagnostic() {
    let text = "  r {\n    UW n;\n    UB name[n];\n  }\n";
    assert_eq!(
        diags_of(&[("FOO.md", BASE), ("chapters/x.md", text)]),
        vec![]
    );
}

#[test]
fn v0501_bad_record_item() {
    let d = chapter_one("  r {\n    UB a\n  }\n", Code::BadRecordItem);
    at(&d, 2, 5, "`UB a` is not an item of `r`");
}

#[test]
fn v0502_unclosed_record() {
    let d = chapter_one("  r {\n    UB a;\n", Code::UnclosedRecord);
    at(&d, 1, 3, "has no closing");
}

#[test]
fn v0503_undescribed_record() {
    let d = chapter_one(
        "  r {\n    UB n;\n    vme_info vme_info[n];\n  }\n",
        Code::UndescribedRecord,
    );
    at(&d, 3, 5, "describes no format `vme_info`");
}

#[test]
fn v0504_bad_record_count() {
    let d = chapter_one("  r {\n    UB a[n];\n  }\n", Code::BadRecordCount);
    at(&d, 2, 5, "`n`, which is no earlier unsigned item");
}

#[test]
fn v0505_bad_bit_item() {
    let d = chapter_one(
        "  r {\n    UB k;\n  }\n\n- **k:** packed\n\n  - type (bit 4-9): t\n",
        Code::BadBitItem,
    );
    at(&d, 7, 3, "outside the field's 8 bits");
}

#[test]
fn v0506_duplicate_record() {
    let d = chapter_one(
        "  r {\n    UB a;\n  }\n  r {\n    UB b;\n  }\n",
        Code::DuplicateRecord,
    );
    at(&d, 4, 3, "already defined at line 1");
}

#[test]
fn v0507_duplicate_record_field() {
    let d = chapter_one(
        "  r {\n    UB a;\n    UW a;\n  }\n",
        Code::DuplicateRecordField,
    );
    at(&d, 3, 5, "two items named `a`");
}

#[test]
fn v0133_no_spelling() {
    // A `.<op>` slot whose values both begin with `16-bit`: no word tells them apart.
    let text = BASE
        .replace("| Exec_size | Src |", "| Exec_size | Op | Src |")
        .replace("| | | |", "| | | | |")
        .replace("| --- | --- | --- |", "| --- | --- | --- | --- |")
        .replace(
            "- **Src(raw_operand):**",
            "- **Op(ub):** The mode\n\n  - 0: 16-bit full\n  - 1: 16-bit chrominance\n\n- **Src(raw_operand):**",
        )
        .replace("FOO <src>", "FOO.<op> <src>");
    let d = one(&text, Code::NoSpelling);
    assert!(d.message.contains("16-bit"), "{d:#?}");
    // Line 24 is `  - 1: 16-bit chrominance` (BASE's 20 lines, then Op's bullet, a blank line
    // and the first value): the value whose spelling collides.
    assert_eq!((d.line, d.column), (24, 1));
}

#[test]
fn every_code_is_documented_and_tested() {
    let table = std::fs::read_to_string(visa_tests::root().join("codegen/DIAGNOSTICS.md")).unwrap();
    let tests = include_str!("parse_diagnostics.rs").to_ascii_lowercase();
    for code in Code::ALL {
        let c = code.as_str();
        assert!(
            table.contains(&format!("| `{c}` |")),
            "{c} missing from DIAGNOSTICS.md"
        );
        assert!(
            tests.contains(&format!("fn {}", c.to_ascii_lowercase())),
            "{c} has no test here"
        );
    }
}

#[test]
fn all_diagnostics_of_a_run_are_reported_and_rendered_with_carets() {
    let bad = BASE.replace("FOO = 0x10", "FOO = 0xzz");
    let files = vec![
        SourceFile {
            name: "A.md".into(),
            bytes: b"".to_vec(),
        },
        SourceFile {
            name: "B.md".into(),
            bytes: bad.into_bytes(),
        },
    ];
    let parsed = parse_spec(&files);
    let codes: Vec<_> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(
        codes.contains(&"V0101") && codes.contains(&"V0102"),
        "{codes:?}"
    );
    let text = codegen::diag::render(&parsed.diagnostics, &files);
    assert!(
        text.contains("warning[V0102]: cannot read opcode line `FOO = 0xzz`"),
        "{text}"
    );
    assert!(text.contains("B.md:3:3"), "{text}");
    assert!(text.contains("^^^^^^^^^^"), "{text}");
    assert!(text.contains("expected: `NAME = 0xNN`"), "{text}");
}

/// BASE with a `## Semantics` lane loop whose one statement is `stmt` (line 15, column 5).
fn with_semantics(stmt: &str) -> String {
    BASE.replace(
        "\n## Description",
        &format!("## Semantics\n\n```\nfor (i = 0; i < exec_size; ++i) {{\n  if (ChEn[i]) {{\n    {stmt}\n  }}\n}}\n```\n\n## Description"),
    )
}

#[test]
fn v0140_bad_pseudo_code() {
    // BFE's `1F`: no C number.
    let d = one(&with_semantics("src[i] = 1F;"), Code::BadPseudoCode);
    assert!(d.message.contains("`1F` is no number"), "{d:#?}");
    assert!(
        d.message
            .ends_with("the instruction runs through `Lanes::prose`"),
        "{d:#?}"
    );
    assert_eq!((d.line, d.column), (15, 14));
}

#[test]
fn v0141_not_runnable() {
    // `Src` is a raw operand: no element of a vector operand.
    let d = one(&with_semantics("src[i] = 1;"), Code::NotRunnable);
    assert!(
        d.message.contains("`src[...]` is no vector operand"),
        "{d:#?}"
    );
    assert_eq!((d.line, d.column), (15, 5));
}

/// The self-contradiction check runs beside the analysis, and a doc the analysis leaves out
/// (an unknown platform) is not checked: only the docs kept are, as when the check ran after.
#[test]
fn v0220_only_for_docs_the_analysis_keeps() {
    let contradicting = "#### Properties\n- **Supported Types:** UD,Q\n\n#### Operand type maps\n- **Type map**\n  -  **Dst types:** UD, D\n  -  **Src types:** UD, D\n\n## Text\n";
    let kept = BASE.replace("## Text\n", contradicting);
    let left_out = kept
        .replace("FOO", "BAR")
        .replace("0x10", "0x11")
        .replace("- 0b000:  1 element", "- {NOPE+}0b000:  1 element");
    let files: Vec<SourceFile> = [("BAR.md", left_out), ("FOO.md", kept)]
        .into_iter()
        .map(|(name, text)| SourceFile {
            name: name.into(),
            bytes: text.into_bytes(),
        })
        .collect();
    let g = codegen::generate(&files, &Default::default()).unwrap();
    let of = |code: &str| -> Vec<&str> {
        g.diagnostics
            .iter()
            .filter(|d| d.code == code)
            .map(|d| d.file.as_str())
            .collect()
    };
    assert_eq!(of("V0201"), vec!["BAR.md"], "{:#?}", g.diagnostics);
    assert_eq!(
        of("V0220"),
        vec!["FOO.md", "FOO.md"],
        "{:#?}",
        g.diagnostics
    );
    assert!(g.files.keys().any(|f| f.ends_with("foo.rs")));
    assert!(!g.files.keys().any(|f| f.ends_with("bar.rs")));
}
