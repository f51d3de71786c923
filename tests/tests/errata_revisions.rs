//! Errata across revisions: an erratum is written against one revision's text. Applied to
//! another revision's docs, each one is applied (its place in the doc is certain), obsolete
//! (the doc already says what it says), stale (its context is gone or ambiguous) or of a doc
//! the revision lacks; never applied anywhere else. The errata of the current family
//! (`errata`) on the 2021 docs of `../shared`, each outcome checked against the
//! erratum's own diff, read here line by line.

use codegen::parse::SourceFile;
use visa_tests::{root, shared};

/// A hunk's lines as the erratum writes them: (`' '` / `'-'` / `'+'`, text).
type Hunk = Vec<(char, String)>;

/// The doc an erratum names and its hunks, read from its text.
fn diff_of(text: &str) -> (String, Vec<Hunk>) {
    let mut doc = String::new();
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut in_diff = false;
    for line in text.lines() {
        if let Some(d) = line.strip_prefix("+++ b/") {
            doc = d.trim().to_string();
            in_diff = true;
        } else if line.starts_with("@@") && in_diff {
            hunks.push(Vec::new());
        } else if let (Some(h), Some(kind)) = (hunks.last_mut(), line.chars().next()) {
            if matches!(kind, ' ' | '-' | '+') {
                h.push((kind, line[1..].to_string()));
            }
        } else if let Some(h) = hunks.last_mut().filter(|_| line.is_empty()) {
            // An empty context line whose leading space an editor dropped.
            h.push((' ', String::new()));
        }
    }
    (doc, hunks)
}

fn side(h: &Hunk, keep: char) -> Vec<&str> {
    h.iter()
        .filter(|(k, _)| *k == ' ' || *k == keep)
        .map(|(_, t)| t.as_str())
        .collect()
}

/// Starts of `block` in `lines`, trailing whitespace ignored (as the parser ignores it).
fn found(lines: &[&str], block: &[&str]) -> Vec<usize> {
    (0..lines.len().saturating_sub(block.len()) + 1)
        .filter(|&i| {
            block.len() <= lines.len() - i
                && block
                    .iter()
                    .zip(&lines[i..])
                    .all(|(a, b)| a.trim_end() == b.trim_end())
        })
        .collect()
}

#[test]
fn errata_of_the_current_docs_on_the_2021_docs_are_applied_obsolete_or_stale_never_misapplied() {
    let Some(dir) = shared("visa-docs/2021/instructions") else {
        return;
    };
    let docs = codegen::parse::load_spec(&dir, Some(&root().join("spec/chapters")))
        .expect("readable docs");
    let errata =
        codegen::errata::load_dir(&root().join("errata"), "errata").expect("readable errata");
    let corrected = codegen::errata::apply(&docs, &errata);
    let doc_text = |files: &[SourceFile], name: &str| {
        files
            .iter()
            .find(|f| f.name == name)
            .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
    };
    let mut outcomes: Vec<(String, &str)> = Vec::new();
    let mut current: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for e in &errata {
        let text = String::from_utf8_lossy(&e.bytes).into_owned();
        let (doc, hunks) = diff_of(&text);
        assert!(!hunks.is_empty(), "{}: a diff", e.name);
        let applied = corrected
            .applied
            .iter()
            .filter(|a| a.file == e.name)
            .count();
        let reported: Vec<&str> = corrected
            .diagnostics
            .iter()
            .filter(|d| d.file == e.name)
            .map(|d| d.code.as_str())
            .collect();
        // Exactly one outcome per erratum.
        let outcome = match (applied, reported.as_slice()) {
            (1, []) => "applied",
            (0, ["V0405"]) => "obsolete",
            (0, ["V0402"]) => "stale",
            (0, ["V0403"]) => "no such doc",
            other => panic!("{}: {other:?}", e.name),
        };
        // An erratum that creates a doc 2021 lacks too (`--- /dev/null`): the doc is its lines.
        let creates = text
            .lines()
            .find(|l| l.starts_with("--- "))
            .is_some_and(|l| l[4..].trim() == "/dev/null");
        if creates && doc_text(&docs, &doc).is_none() {
            assert_eq!(outcome, "applied", "{}", e.name);
            assert_eq!(hunks.len(), 1, "{}", e.name);
            let lines = hunks[0].iter().map(|(k, t)| {
                assert_eq!(*k, '+', "{}", e.name);
                t.clone()
            });
            current.insert(doc.clone(), lines.collect());
            outcomes.push((e.name.clone(), "created"));
            continue;
        }
        outcomes.push((e.name.clone(), outcome));
        // Errata of one doc apply in order: each meets the doc as the ones before left it.
        let Some(lines) = current
            .get(&doc)
            .cloned()
            .or_else(|| doc_text(&docs, &doc).map(|t| t.lines().map(String::from).collect()))
        else {
            assert_eq!(outcome, "no such doc", "{}", e.name);
            continue;
        };
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        match outcome {
            "applied" => {
                // Each hunk's context and removed lines occur once: the place is certain, and
                // the doc becomes the one before with each replaced by the hunk's new side.
                let mut expected: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                let mut at: Vec<(usize, &Hunk)> = hunks
                    .iter()
                    .map(|h| {
                        let f = found(&lines, &side(h, '-'));
                        assert_eq!(f.len(), 1, "{}: hunk context occurs once", e.name);
                        (f[0], h)
                    })
                    .collect();
                at.sort_by_key(|(i, _)| std::cmp::Reverse(*i));
                for (i, h) in at {
                    let old = side(h, '-').len();
                    let new: Vec<String> = side(h, '+').iter().map(|l| l.to_string()).collect();
                    expected.splice(i..i + old, new);
                }
                current.insert(doc.clone(), expected);
            }
            "obsolete" => {
                for h in &hunks {
                    assert!(!found(&lines, &side(h, '+')).is_empty(), "{}", e.name);
                }
            }
            "stale" => {
                assert!(
                    hunks
                        .iter()
                        .any(|h| found(&lines, &side(h, '-')).len() != 1),
                    "{}: stale, but every hunk's context occurs once",
                    e.name
                );
                let d = corrected
                    .diagnostics
                    .iter()
                    .find(|d| d.file == e.name)
                    .expect("its diagnostic");
                // The excerpt: the hunk the doc no longer matches, and the doc's lines now.
                assert!(d.notes.len() == 2, "{d:#?}");
                assert!(d.notes[0].contains("expects these lines"), "{d:#?}");
                assert!(
                    d.notes[1].contains("now reads there") || d.notes[1].contains("occur"),
                    "{d:#?}"
                );
            }
            _ => panic!("{}: {outcome} but {doc} is there", e.name),
        }
    }
    // What was applied is exactly what the errata's diffs say, and nothing else changed.
    for f in &corrected.files {
        let text = String::from_utf8_lossy(&f.bytes).into_owned();
        let got: Vec<&str> = text.lines().map(str::trim_end).collect();
        let expected: Vec<String> = match current.get(&f.name) {
            Some(lines) => lines.clone(),
            None => doc_text(&docs, &f.name)
                .expect("a doc of the spec dir, or one an erratum created")
                .lines()
                .map(String::from)
                .collect(),
        };
        let expected: Vec<&str> = expected.iter().map(|l| l.trim_end()).collect();
        assert_eq!(got, expected, "{}", f.name);
    }
    let count = |o: &str| outcomes.iter().filter(|(_, x)| *x == o).count();
    eprintln!(
        "{} errata on the 2021 docs: {} applied, {} created a doc, {} obsolete, {} stale, {} of a doc 2021 lacks",
        outcomes.len(),
        count("applied"),
        count("created"),
        count("obsolete"),
        count("stale"),
        count("no such doc")
    );
    // The chapter's errata apply (the workspace's chapter is the one they were written for);
    // most instruction errata meet a 2021 text they were not written against.
    assert!(count("applied") >= 7 && count("stale") >= 1 && count("no such doc") >= 1);
}
