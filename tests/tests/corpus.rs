//! The whole shared family parses with zero errors, and each doc's opcode and field list agree
//! with a deliberately naive, independent line-based reading of the raw text (regexes here,
//! not the parser). Plus: the seed glitches warn at the right lines, and no bytes panic.

use codegen::parse::{parse_spec, SourceFile};
use proptest::prelude::*;
use regex::Regex;
use visa_tests::{root, shared, CORPORA};

/// Opcode value and field names, read naively: the first `NAME = 0xNN` after `## Opcode`, and
/// every non-empty, non-opcode cell of the rows under `## Format` (header and delimiter rows of
/// each table skipped), first appearance first. A jump table's cells `Label0 | LabelN |
/// Label(Num_labels-1)` are one field repeated, named by its stem: `Label`.
fn naive(text: &str) -> (u8, Vec<String>) {
    let opcode = Regex::new(r"(?m)^##\s*Opcode\s*$[\s\S]*?^\s*\w+\s*=\s*0x([0-9a-fA-F]+)").unwrap();
    let value = opcode
        .captures(text)
        .and_then(|c| u8::from_str_radix(&c[1], 16).ok())
        .expect("naive opcode");
    let opcode_cell = Regex::new(r"^0x[0-9a-fA-F]+\(\w+\)$").unwrap();
    let mut fields: Vec<String> = Vec::new();
    let mut in_format = false;
    let mut row_in_table = 0;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("## ") {
            in_format = t == "## Format";
            continue;
        }
        if !in_format {
            continue;
        }
        if !t.starts_with('|') {
            row_in_table = 0;
            continue;
        }
        row_in_table += 1;
        if row_in_table <= 2 {
            continue; // header and delimiter
        }
        for cell in t.split('|') {
            let c = cell.trim().trim_end_matches("\\*").trim();
            if c.is_empty() || opcode_cell.is_match(c) {
                continue;
            }
            if !fields.iter().any(|f| f == c) {
                fields.push(c.to_string());
            }
        }
    }
    (value, repeated_as_one(fields))
}

/// `[.., Label0, LabelN, Label(Num_labels-1)]` → `[.., Label]`: the last cell `Stem(Count-1)`
/// names the field, and the cells before it that are the stem and an index (digits or `N`)
/// are its earlier items.
fn repeated_as_one(cells: Vec<String>) -> Vec<String> {
    let last = Regex::new(r"^(\w+?)_?\(\s*\w+\s*-\s*1\s*\)$").unwrap();
    let Some(stem) = cells
        .iter()
        .find_map(|c| last.captures(c).map(|m| m[1].to_string()))
    else {
        return cells;
    };
    let item = Regex::new(&format!(r"^{stem}_?([0-9]+|N)$")).unwrap();
    let mut out = Vec::new();
    for c in cells {
        if last.is_match(&c) || item.is_match(&c) {
            if !out.contains(&stem) {
                out.push(stem.clone());
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn files(dir: &std::path::Path) -> Vec<SourceFile> {
    codegen::parse::load_dir(dir).expect("readable corpus")
}

#[test]
fn whole_family_parses_and_agrees_with_a_naive_reading() {
    for corpus in CORPORA {
        let Some(dir) = shared(corpus) else { return };
        let files = files(&dir);
        assert!(files.len() > 80, "{corpus}: {} docs", files.len());
        // The current family is read as CI reads it: with its errata (BFN's template, for
        // one, is unreadable without its erratum: V0130).
        // The errata of the current family correct its object-file chapter too: read it as
        // regen does, the workspace's chapter beside the docs.
        let mut with_chapters = files.clone();
        if corpus.contains("current") {
            with_chapters = codegen::parse::load_spec(&dir, Some(&root().join("spec/chapters")))
                .expect("readable corpus and chapters");
        }
        let errata = if corpus.contains("current") {
            visa_tests::product_errata(&with_chapters)
        } else {
            vec![]
        };
        let parsed = codegen::parse_corrected(&with_chapters, &errata);
        let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{corpus}: {errors:#?}");
        // The naive reading reads the docs as corrected (an erratum may add a field: INFO's
        // Channels), and the docs errata create (DP4's) with them.
        let corrected = codegen::errata::apply(&files, &errata).files;
        assert_eq!(
            parsed.spec.instructions.len(),
            corrected.len(),
            "{corpus}: every doc is an instruction"
        );
        for f in &corrected {
            let text = String::from_utf8_lossy(&f.bytes);
            let (value, fields) = naive(&text);
            let inst = parsed
                .spec
                .instructions
                .iter()
                .find(|i| i.source == f.name)
                .expect("instruction of the doc");
            assert_eq!(inst.opcode.value, value, "{corpus}/{}", f.name);
            let got: Vec<&str> = inst.fields.iter().map(|x| x.name.as_str()).collect();
            assert_eq!(got, fields, "{corpus}/{}", f.name);
            for field in &inst.fields {
                assert!(
                    !field.ty.is_empty(),
                    "{corpus}/{}: {} has a type",
                    f.name,
                    field.name
                );
            }
        }
        // And the whole family generates.
        let g = codegen::generate_corrected(
            &with_chapters,
            &errata,
            &codegen::emit::Options::default(),
        );
        assert!(g.is_ok(), "{corpus}: {:#?}", g.err());
    }
}

#[test]
fn counted_test_docs_agree_with_the_naive_reading() {
    // tests/specs/counted: made-up docs in the jump-table shape. The field list is written out
    // by hand from SWITCHJMP.md's format row.
    let files = files(&root().join("tests/specs/counted"));
    let parsed = parse_spec(&files);
    for f in &files {
        let (value, fields) = naive(&String::from_utf8_lossy(&f.bytes));
        let inst = parsed
            .spec
            .instructions
            .iter()
            .find(|i| i.source == f.name)
            .expect("instruction of the doc");
        assert_eq!(inst.opcode.value, value, "{}", f.name);
        let got: Vec<&str> = inst.fields.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(got, fields, "{}", f.name);
    }
    let switchjmp = files.iter().find(|f| f.name == "SWITCHJMP.md").unwrap();
    let (_, fields) = naive(&String::from_utf8_lossy(&switchjmp.bytes));
    assert_eq!(
        fields,
        ["Exec_size", "Pred", "Num_labels", "Index", "Label"],
        "the naive reading of the jump table"
    );
}

#[test]
fn known_values_of_the_current_family() {
    let Some(dir) = shared("visa-docs/current/instructions") else {
        return;
    };
    let spec = parse_spec(&files(&dir)).spec;
    let by = |n: &str| {
        spec.instructions
            .iter()
            .find(|i| i.name == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    // SVM_ATOMIC: sub-opcode, name from the file stem, and Src1 beyond the header's width.
    let a = by("SVM_ATOMIC");
    assert_eq!(
        (a.opcode.value, a.sub_opcode.as_ref().map(|s| s.value)),
        (0x4e, Some(0x05))
    );
    assert!(a.fields.iter().any(|f| f.name == "Src1"));
    // LSC_UNTYPED: four variants with selectors; LscSubOp values come from a table in its bullet.
    let l = by("LSC_UNTYPED");
    assert_eq!(l.variants.len(), 4);
    assert_eq!(
        l.variants[2].selectors[0].values,
        vec!["lsc_load_block2d", "lsc_store_block2d"]
    );
    let sub = l.fields.iter().find(|f| f.name == "LscSubOp").unwrap();
    assert!(sub
        .values
        .iter()
        .any(|v| v.value == 0x28 && v.meaning == "lsc_apndctr_atomic_add"));
    // 3D_SAMPLE's Op selects by a sub-field.
    let s = by("3D_SAMPLE");
    assert_eq!(s.variants[0].selectors[0].subfield.as_deref(), Some("op"));
    // Platform annotations on a bit range.
    let op = a.fields.iter().find(|f| f.name == "Op").unwrap();
    assert_eq!(op.bitfields[1].platform.as_deref(), Some("TGLLP+"));
    // Operand classes and type maps.
    let add = by("ADD");
    let dst = add.fields.iter().find(|f| f.name == "Dst").unwrap();
    assert_eq!(dst.operand_classes, vec!["general", "indirect"]);
    assert_eq!(
        add.type_maps
            .iter()
            .filter(|m| m.platform.as_deref() == Some("XEHP+"))
            .count(),
        1
    );
}

#[test]
fn seed_glitches_warn_at_the_right_lines() {
    let files = files(&root().join("spec"));
    let d = parse_spec(&files).diagnostics;
    let has = |file: &str, code: &str, line: u32| {
        d.iter()
            .any(|x| x.file == file && x.code == code && x.line == line)
    };
    // spec/SCATTER.md: web banner at line 1; 7 cells under a 6-cell header on line 110.
    assert!(has("SCATTER.md", "V0111", 1), "{d:#?}");
    assert!(has("SCATTER.md", "V0112", 110));
    // spec/OWORD_ST.md: `Src` beyond the header on line 35; `Offset` mis-indented on line 64.
    assert!(has("OWORD_ST.md", "V0112", 35));
    assert!(has("OWORD_ST.md", "V0113", 64));
    // Tabs in the Text sections of three seeds.
    assert!(has("OWORD_ST.md", "V0115", 76));
    assert!(d.iter().all(|x| !x.is_error()));
}

#[test]
fn truncations_of_every_doc_never_panic() {
    let spec = files(&root().join("spec"));
    let mut docs: Vec<(bool, SourceFile)> = spec.into_iter().map(|f| (true, f)).collect();
    if let Some(dir) = shared("visa-docs/current/instructions") {
        docs.extend(files(&dir).into_iter().map(|f| (false, f)));
    }
    for (generate, f) in &docs {
        for cut in (0..f.bytes.len()).step_by(97) {
            let one = [SourceFile {
                name: f.name.clone(),
                bytes: f.bytes[..cut].to_vec(),
            }];
            let parsed = parse_spec(&one);
            let _ = codegen::diag::render(&parsed.diagnostics, &one);
            // Generating is slower; every truncation of the seeds goes through it.
            if *generate && !parsed.diagnostics.iter().any(|d| d.is_error()) {
                let _ = codegen::generate(&one, &codegen::emit::Options::default());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let one = [SourceFile { name: "X.md".into(), bytes }];
        let parsed = parse_spec(&one);
        let _ = codegen::diag::render(&parsed.diagnostics, &one);
    }

    #[test]
    fn markdown_shaped_noise_never_panics(lines in proptest::collection::vec(
        prop_oneof![
            Just("## Opcode".to_string()), Just("  X = 0x10".to_string()), Just("## Format".to_string()),
            Just("| | |".to_string()), Just("| --- | --- |".to_string()), Just("| 0x10(X) | A\\* | B |".to_string()),
            Just("- **A(ub):** a".to_string()), Just("  - Bit[3..0]: b".to_string()), Just("    - 0b11: c".to_string()),
            Just("- **B(raw_operand):** Must have type UD".to_string()), Just("```".to_string()), Just("### CONDITION".to_string()),
            Just("- A=c".to_string()), Just("\t".to_string()), "[ -~]{0,20}",
        ], 0..40)) {
        let one = [SourceFile { name: "X.md".into(), bytes: lines.join("\n").into_bytes() }];
        let parsed = parse_spec(&one);
        let _ = codegen::diag::render(&parsed.diagnostics, &one);
        if !parsed.diagnostics.iter().any(|d| d.is_error()) {
            let _ = codegen::generate(&one, &codegen::emit::Options::default());
        }
    }
}

/// Regression (fuzz, parse_bytes): with invalid UTF-8 before a warning's position, spans are
/// offsets into the replaced text (each bad byte becomes a 3-byte U+FFFD) and line numbers
/// stay those of the file.
#[test]
fn spans_after_invalid_utf8_point_into_the_replaced_text_at_the_right_line() {
    let mut bytes = b"## Opcode\n\n  X = 0x10\n\xff\xfe\xfd\n## Format\n".to_vec();
    bytes.extend_from_slice(
        b"\n| | |\n| --- | --- |\n| 0x10(X) | A |\n\n## Description\n\n- **A(ub):** a\n\n\tdone\n",
    );
    let one = [SourceFile {
        name: "X.md".into(),
        bytes: bytes.clone(),
    }];
    let parsed = parse_spec(&one);
    let text = String::from_utf8_lossy(&bytes);
    let tab = parsed
        .diagnostics
        .iter()
        .find(|d| d.code == "V0115")
        .expect("tab warning");
    assert_eq!((tab.line, tab.column), (15, 1));
    assert_eq!(&text[tab.span.start..tab.span.end], "\t");
    assert!(parsed.diagnostics.iter().all(|d| d.span.end <= text.len()));
    let utf8 = parsed
        .diagnostics
        .iter()
        .find(|d| d.code == "V0117")
        .expect("utf-8 warning");
    assert_eq!((utf8.line, utf8.column), (4, 1));
    let _ = codegen::diag::render(&parsed.diagnostics, &one);
}
