//! The generated ISA reference, rendered for the whole shared corpus and read back with
//! pulldown-cmark: every table row has its header's cell count, every link resolves, and each
//! instruction page lists exactly its schema fields.

use codegen::emit::docs;
use codegen::schema::Spec;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use visa_tests::{shared, CORPORA};

fn render(spec: &Spec) -> BTreeMap<String, String> {
    docs::render(spec, &codegen::emit::Options::default())
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
        let out = render(&parsed.spec);
        assert_eq!(
            out.len(),
            parsed.spec.instructions.len() + 1,
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
                let target = if file.is_empty() { name } else { file };
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
        for inst in &parsed.spec.instructions {
            let page = &pages[format!("{}.md", inst.name).as_str()];
            let expected: Vec<String> = inst.fields.iter().map(|f| f.name.clone()).collect();
            assert_eq!(page.field_table, expected, "{corpus}: {} fields", inst.name);
        }
    }
}

#[test]
fn rendering_is_deterministic() {
    let files = codegen::parse::load_dir(&visa_tests::root().join("spec")).unwrap();
    let spec = codegen::parse::parse_spec(&files).spec;
    assert_eq!(render(&spec), render(&spec));
}

#[test]
fn raw_cell_counter_respects_escapes() {
    assert_eq!(raw_cells("| a | b |"), 2);
    assert_eq!(raw_cells("| a \\| b | c |"), 2);
    assert_eq!(raw_cells("| a | b | c | d |"), 4);
}
