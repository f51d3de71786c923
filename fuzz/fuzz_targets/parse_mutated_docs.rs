//! Structure-aware: start from a real doc (the seed corpus is the shared docs) and apply
//! line-level edits that mimic real glitches — dropped, duplicated, swapped, re-indented lines,
//! extra or missing table pipes and fences — across one or two docs at once.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use codegen::parse::{parse_spec, SourceFile};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Edit {
    Drop(u16),
    Duplicate(u16),
    Swap(u16, u16),
    Indent(u16, u8),
    Dedent(u16),
    AppendPipe(u16),
    DropPipe(u16),
    Fence(u16),
    Tab(u16),
    Insert(u16, String),
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for e in edits {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let n = lines.len();
        let at = |i: &u16| *i as usize % n;
        match e {
            Edit::Drop(i) => {
                lines.remove(at(i));
            }
            Edit::Duplicate(i) => {
                let l = lines[at(i)].clone();
                lines.insert(at(i), l);
            }
            Edit::Swap(a, b) => lines.swap(at(a), at(b)),
            Edit::Indent(i, k) => {
                let pad = " ".repeat(*k as usize % 17);
                lines[at(i)].insert_str(0, &pad);
            }
            Edit::Dedent(i) => {
                let l = lines[at(i)].trim_start().to_owned();
                lines[at(i)] = l;
            }
            Edit::AppendPipe(i) => lines[at(i)].push_str(" | X |"),
            Edit::DropPipe(i) => {
                if let Some(p) = lines[at(i)].rfind('|') {
                    lines[at(i)].remove(p);
                }
            }
            Edit::Fence(i) => lines.insert(at(i), "```".into()),
            Edit::Tab(i) => lines[at(i)].insert(0, '\t'),
            Edit::Insert(i, s) => lines.insert(at(i), s.clone()),
        }
    }
    lines.join("\n")
}

fuzz_target!(|data: &[u8]| {
    // The input is: a doc (seed) followed by edits. Split at the first NUL so that plain docs in
    // the seed corpus are used whole.
    let (doc, rest) = match data.iter().position(|&b| b == 0) {
        Some(p) => (&data[..p], &data[p + 1..]),
        None => (data, &[][..]),
    };
    let mut u = Unstructured::new(rest);
    let edits: Vec<Edit> = Vec::arbitrary(&mut u).unwrap_or_default();
    let text = String::from_utf8_lossy(doc);
    let mutated = apply(&text, &edits);
    let files = [
        SourceFile {
            name: "A.md".into(),
            bytes: mutated.clone().into_bytes(),
        },
        // The same doc twice exercises the cross-doc duplicate/alias checks.
        SourceFile {
            name: "B.md".into(),
            bytes: apply(&text, edits.get(..1).unwrap_or(&[])).into_bytes(),
        },
    ];
    let parsed = parse_spec(&files);
    let _ = codegen::diag::render(&parsed.diagnostics, &files);
    if !parsed.diagnostics.iter().any(|d| d.is_error()) {
        // A doc that parses cleanly must also analyse and emit without panicking.
        let _ = codegen::generate(&files, &codegen::emit::Options::default());
    }
});
