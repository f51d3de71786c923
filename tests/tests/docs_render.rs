//! The generated ISA reference, rendered for the whole shared corpus and read back with
//! pulldown-cmark: every table row has its header's cell count, every link resolves, and each
//! instruction page lists exactly its schema fields.

use codegen::emit::docs;
use codegen::schema::Spec;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use visa_tests::{shared, CORPORA};

fn render(spec: &Spec) -> BTreeMap<String, String> {
    docs::render(
        codegen::analyze::reference::build(spec),
        &codegen::emit::Options::default(),
    )
}

/// Counts the cells of a raw table line the way GFM splits them: unescaped `|` separators,
/// ignoring the optional leading and trailing pipe.
fn raw_cells(line: &str) -> usize {
    let t = line.trim();
    let mut seps = 0;
    let mut escaped = false;
    for c in t.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => seps += 1,
            _ => escaped = false,
        }
        if c != '\\' {
            escaped = false;
        }
    }
    let edges =
        usize::from(t.starts_with('|')) + usize::from(t.ends_with('|') && !t.ends_with("\\|"));
    seps + 1 - edges
}

/// Link targets are percent-encoded file names.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (b[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

struct Page {
    headings: BTreeSet<String>,
    links: Vec<String>,
    /// (header cells, per row cells) per table, from pulldown's model.
    tables: Vec<(usize, Vec<usize>)>,
    /// First-column cells of the "Fields" table, in order.
    field_table: Vec<String>,
}

fn read_page(text: &str) -> Page {
    let mut page = Page {
        headings: BTreeSet::new(),
        links: vec![],
        tables: vec![],
        field_table: vec![],
    };
    let mut heading: Option<String> = None;
    let mut in_fields_section = false;
    let mut cells = 0;
    let mut header = 0;
    let mut rows = vec![];
    let mut cell_text: Option<String> = None;
    let mut cell_index = 0;
    let mut first_table_in_section = false;
    for ev in Parser::new_ext(text, Options::ENABLE_TABLES) {
        match ev {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some(String::new());
                if level == HeadingLevel::H2 {
                    in_fields_section = false;
                }
            }
            Event::End(TagEnd::Heading(level)) => {
                let h = heading.take().unwrap_or_default();
                if level == HeadingLevel::H2 && h == "Fields" {
                    in_fields_section = true;
                    first_table_in_section = true;
                }
                // GitHub numbers repeated anchors: `x`, `x-1`, `x-2`, ...
                let base = docs::slug(&h);
                let mut anchor = base.clone();
                let mut n = 0;
                while page.headings.contains(&anchor) {
                    n += 1;
                    anchor = format!("{base}-{n}");
                }
                page.headings.insert(anchor);
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
                if let Some(c) = cell_text.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => page.links.push(dest_url.to_string()),
            Event::Start(Tag::Table(_)) => rows.clear(),
            Event::Start(Tag::TableHead) | Event::Start(Tag::TableRow) => {
                cells = 0;
                cell_index = 0;
            }
            Event::Start(Tag::TableCell) => {
                cells += 1;
                cell_text = Some(String::new());
            }
            Event::End(TagEnd::TableCell) => {
                let t = cell_text.take().unwrap_or_default();
                if in_fields_section
                    && first_table_in_section
                    && cell_index == 0
                    && !rows.is_empty()
                {
                    page.field_table.push(t);
                }
                cell_index += 1;
            }
            Event::End(TagEnd::TableHead) => {
                header = cells;
                rows.push(cells);
            }
            Event::End(TagEnd::TableRow) => rows.push(cells),
            Event::End(TagEnd::Table) => {
                page.tables.push((header, rows[1..].to_vec()));
                if in_fields_section {
                    first_table_in_section = false;
                }
            }
            _ => {}
        }
    }
    page
}

#[test]
fn corpus_reference_has_sound_tables_links_and_fields() {
    for corpus in CORPORA {
        let Some(dir) = shared(corpus) else { return };
        let files = codegen::parse::load_dir(&dir).expect("corpus readable");
        let parsed = codegen::parse::parse_spec(&files);
        assert!(
            !parsed.spec.instructions.is_empty(),
            "{corpus}: no instruction parsed"
        );
        check_reference(corpus, &parsed.spec);
    }
}

/// Renders `spec` and reads every page back: marker, table shapes (raw and parsed), links and
/// anchors, and each page's field table against the schema.
fn check_reference(corpus: &str, spec: &Spec) {
    let out = render(spec);
    assert_eq!(
        out.len(),
        spec.instructions.len() + 1,
        "one page per instruction plus the summary"
    );
    let pages: BTreeMap<&str, Page> = out
        .iter()
        .map(|(p, t)| (p.strip_prefix("docs/").unwrap_or(p), read_page(t)))
        .collect();
    for (path, text) in &out {
        assert!(
            text.lines().next().unwrap_or("").contains("@generated"),
            "{path}: marker"
        );
        // Raw rows: every line of a table block has the header's cell count.
        let mut header_cells: Option<usize> = None;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('|') {
                let c = raw_cells(line);
                match header_cells {
                    None => header_cells = Some(c),
                    Some(h) => assert_eq!(c, h, "{corpus}/{path}:{}: {line}", n + 1),
                }
            } else {
                header_cells = None;
            }
        }
        let name = path.strip_prefix("docs/").unwrap_or(path);
        let page = &pages[name];
        for (header, rows) in &page.tables {
            for r in rows {
                assert_eq!(r, header, "{corpus}/{path}: a row lost or gained cells");
            }
        }
        for link in &page.links {
            let (file, anchor) = link.split_once('#').unwrap_or((link, ""));
            let file = percent_decode(file);
            let target = if file.is_empty() { name } else { &file };
            let target_page = pages
                .get(target)
                .unwrap_or_else(|| panic!("{corpus}/{path}: link to missing page {link}"));
            if !anchor.is_empty() {
                assert!(
                    target_page.headings.contains(anchor),
                    "{corpus}/{path}: missing anchor {link}"
                );
            }
        }
    }
    for inst in &spec.instructions {
        let page = &pages[format!("{}.md", inst.name).as_str()];
        let expected: Vec<String> = inst.fields.iter().map(|f| f.name.clone()).collect();
        assert_eq!(page.field_table, expected, "{corpus}: {} fields", inst.name);
    }
}

#[test]
fn rendering_is_deterministic() {
    let files = codegen::parse::load_dir(&visa_tests::root().join("spec")).unwrap();
    let spec = codegen::parse::parse_spec(&files).spec;
    assert_eq!(render(&spec), render(&spec));
}

#[test]
fn applied_errata_are_listed_in_the_summary_with_their_evidence() {
    let files = codegen::parse::load_dir(&visa_tests::root().join("spec")).unwrap();
    let mut spec = codegen::parse::parse_spec(&files).spec;
    spec.errata = vec![codegen::schema::Erratum {
        file: "errata/SCATTER-x.patch".into(),
        doc: "SCATTER.md".into(),
        title: "SCATTER: *any* surface".into(),
        doc_says: "only T0\nand T5".into(),
        intel_does: "accepts T6".into(),
        evidence: "scatter.4 (M1, 16) T6 ```".into(),
        removed: 1,
        added: 2,
    }];
    let summary = &render(&spec)["docs/README.md"];
    assert!(
        summary.contains("### SCATTER: \\*any\\* surface"),
        "{summary}"
    );
    assert!(summary.contains("Erratum `errata/SCATTER-x.patch` corrects `SCATTER.md`."));
    assert!(summary.contains("- The doc says: only T0 and T5"));
    assert!(summary.contains("- Intel's tools: accepts T6"));
    // The evidence is a fence longer than the backtick run inside it.
    assert!(
        summary.contains("````text\nscatter.4 (M1, 16) T6 ```\n````"),
        "{summary}"
    );
    spec.errata.clear();
    assert!(render(&spec)["docs/README.md"].contains("No erratum was applied"));
}

#[test]
fn raw_cell_counter_respects_escapes() {
    assert_eq!(raw_cells("| a | b |"), 2);
    assert_eq!(raw_cells("| a \\| b | c |"), 2);
    assert_eq!(raw_cells("| a | b | c | d |"), 4);
    assert_eq!(percent_decode("A%20B%28c%29.md"), "A B(c).md");
}

/// Rows of the current corpus's summary worked out by hand from the docs: JMP is
/// opcode + Exec_size(ub) + Pred(uw) + Label(uw) = 6 bytes; LSC_FENCE is opcode + ExecSize(ub) +
/// Pred(uw) + LscSFID(ub) + LscFenceOp(ub) + LscScope(ub) = 7; FENCE is opcode + Mask(ub) = 2,
/// and its `{ICLLP+}Bit[5]` values are the platform-only ones.
#[test]
fn corpus_summary_rows_match_the_docs() {
    let Some(dir) = shared(CORPORA[0]) else {
        return;
    };
    let files = codegen::parse::load_dir(&dir).expect("corpus readable");
    let out = render(&codegen::parse::parse_spec(&files).spec);
    let summary = &out["docs/README.md"];
    for row in [
        "| `0x32` | none | [JMP](JMP.md) | 3 | 6 | n/a | `JMP.md` |",
        "| `0x8b` | none | [LSC\\_FENCE](LSC_FENCE.md) | 5 | 7 | n/a | `LSC_FENCE.md` |",
        "| `0x5c` | none | [FENCE](FENCE.md) | 1 | 2 | n/a | `FENCE.md` |",
        "| [FENCE](FENCE.md#field-mask) | Mask | [5] | `0b0` | fence is applied to global memory (surface-based accesses and SVM) | ICLLP+ |",
        "| [FENCE](FENCE.md#field-mask) | Mask | [5] | `0b1` | fence applies to shared local memory only | ICLLP+ |",
    ] {
        assert!(
            summary.lines().any(|l| l == row),
            "missing summary row: {row}"
        );
    }
}

/// One small page of `spec/`, reviewed by hand: OWORD_ST's layout is Size(ub) at byte 1,
/// Surface(ub) at 2, Offset(scalar) at 3 and Src(raw_operand) at a variable offset.
#[test]
fn oword_st_page_snapshot() {
    let files = codegen::parse::load_dir(&visa_tests::root().join("spec")).unwrap();
    let out = render(&codegen::parse::parse_spec(&files).spec);
    insta::assert_snapshot!("oword_st_page", out["docs/OWORD_ST.md"]);
}

/// Text built to break Markdown tables, links and fences: pipes, HTML-looking text, backticks,
/// fence runs, an HTML comment terminator, field names that differ only in case.
#[test]
fn hostile_text_keeps_tables_links_and_fields_intact() {
    let span = serde_json::json!({"start": 0, "end": 0, "line": 1, "column": 1});
    let field = |name: &str, ty: &str, text: &str| {
        serde_json::json!({
            "name": name, "type": ty, "optional": false, "description": text,
            "bitfields": [{
                "hi": 1, "lo": 0, "summary": text, "platform": "X|E",
                "values": [{"value": 3, "meaning": text, "platform": "<PVC>", "span": span}],
                "span": span
            }],
            "values": [{"value": 9, "meaning": text, "platform": null, "span": span}],
            "allowed_types": ["U|D"], "operand_classes": ["<general>"], "span": span
        })
    };
    let nasty = "a | b\n<exec_size> `c|d` ``` -->\n\n# not a heading\n- nor a list";
    let names = [
        "Src",
        "src",
        "<dst>",
        "`tick`",
        "a|b",
        "[x](y)",
        "Field: Src",
    ];
    let fields: Vec<_> = names.iter().map(|n| field(n, "ub", nasty)).collect();
    let spec = serde_json::json!({"instructions": [{
        "name": "ODD NAME", "source": "we`ird-->.md",
        "opcode": {"name": "ODD", "value": 255, "span": span},
        "sub_opcode": {"name": "S|UB", "value": 1, "span": span},
        "fields": fields,
        "variants": [
            {"condition": "Op=a|b <c>", "fields": names, "optional_fields": ["src"], "span": span},
            {"condition": "Op=a|b <c>", "fields": ["Src"], "span": span}
        ],
        "properties": {"Out-of-bound | Access": nasty, "Out-of-bound Access": nasty},
        "semantics": "x = ```` y;\n```", "description": nasty, "text": "`", "notes": nasty,
        "type_maps": [{"platform": "X|", "types": {"Dst|types": ["U|D"]}, "span": span}],
        "other_sections": {"Ex|amples": "````\n|"},
        "aliases": ["ODD NAME"], "span": span
    }]});
    let spec: Spec = serde_json::from_value(spec).expect("hand-written schema");
    check_reference("hostile", &spec);
    let out = render(&spec);
    let page = &out["docs/ODD NAME.md"];
    // The marker's comment ends where it should (a `-->` in the file name would end it early;
    // in the code span of the table it is shown literally).
    let first = page.lines().next().unwrap_or("");
    assert!(
        first.ends_with("-->") && first.matches("-->").count() == 1,
        "{first}"
    );
    // Each code block is fenced by a run longer than the longest run inside (4 → 5, 1 → 3).
    assert!(page.contains("`````\nx = ```` y;\n```\n`````"));
    assert!(page.contains("```\n`\n```"));
    // Pipes in code spans inside cells are escaped, HTML-looking text is an entity.
    assert!(page.contains("`c\\|d`") && page.contains("&lt;exec\\_size&gt;"));
    assert!(!page.contains("<exec_size>") && !page.contains("<dst>"));
}
