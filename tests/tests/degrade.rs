//! Degrade, never block: a part of a doc the generator cannot read is a warning with
//! file:line:col, and only that part degrades (`codegen/DIAGNOSTICS.md`, "Degrade, never
//! block"). `tests/specs/degrade/` holds made-up docs, each unreadable in one way; CI builds
//! the crate regen makes of them and runs `tests/specs/degrade_tests.rs` in it (`.ci/run`).
//! Also here: the template shapes of other revisions, each on a made-up doc.

use codegen::diag::{Degrades, Severity};
use codegen::parse::SourceFile;
use codegen::schema::{Prints, SuffixKind, Syntax, SyntaxForm};
use std::path::PathBuf;
use visa_tests::{root, shared};

fn degrade_dir() -> PathBuf {
    root().join("tests/specs/degrade")
}

fn degrade_docs() -> Vec<SourceFile> {
    codegen::parse::load_spec(&degrade_dir(), Some(&root().join("spec/chapters")))
        .expect("tests/specs/degrade is readable")
}

#[test]
fn every_unreadable_part_is_a_warning_that_says_what_it_leaves_out() {
    let g = codegen::generate(&degrade_docs(), &codegen::emit::Options::default())
        .unwrap_or_else(|d| panic!("unreadable parts degrade, they do not block: {d:#?}"));
    let mut seen: Vec<(&str, &str, u32, u32)> = g
        .diagnostics
        .iter()
        .filter(|d| !d.file.starts_with("chapters/"))
        .map(|d| (d.code.as_str(), d.file.as_str(), d.line, d.column))
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("V0101", "NO_OPCODE.md", 1, 1),
            // The bullet `- **Surface:**` (no type).
            ("V0103", "BAD_BULLET.md", 18, 1),
            // The cell `Src+1`.
            ("V0103", "BAD_TABLE.md", 12, 31),
            // `- Bit[0..2]`.
            ("V0106", "BAD_RANGE.md", 20, 1),
            // `junk` after the operands.
            ("V0130", "BAD_TEXT.md", 22, 24),
            // The `if (ChEn[i]) {` that is never closed: the end of the section.
            ("V0140", "BAD_SEMANTICS.md", 21, 5),
            // `{ZZZ+}0b01: future`.
            ("V0201", "ODD_PLATFORM.md", 23, 1),
            // GOOD's opcode with another format: the later doc is left out.
            ("V0301", "SAME_OPCODE.md", 6, 3),
        ]
    );
    for d in &g.diagnostics {
        assert_eq!(d.severity, Severity::Warning, "{d:#?}");
        let says = match d.degrades() {
            Degrades::Doc => format!("{} is left out of the crate", d.file),
            Degrades::TextForm => "BAD_TEXT has no text form".to_string(),
            Degrades::LaneFunction => "the instruction runs through `Lanes::prose`".to_string(),
            Degrades::Item | Degrades::Nothing => continue,
        };
        assert!(d.message.ends_with(&says), "{d:#?}");
    }
    // Only the readable docs are generated; BAD_TEXT with its codec, without a text form.
    for (module, generated) in [
        ("good", true),
        ("bad_text", true),
        ("bad_semantics", true),
        ("bad_bullet", false),
        ("bad_table", false),
        ("bad_range", false),
        ("no_opcode", false),
        ("odd_platform", false),
        ("same_opcode", false),
    ] {
        let path = format!("src/generated/{module}.rs");
        assert_eq!(g.files.contains_key(&path), generated, "{path}");
    }
    let text = &g.files["src/generated/text.rs"];
    assert!(text.contains("BAD_TEXT.md:22:24: its `## Text` template cannot be read"));
    let top = &g.files["src/generated/mod.rs"];
    for doc in [
        "BAD_BULLET.md",
        "BAD_TABLE.md",
        "BAD_RANGE.md",
        "ODD_PLATFORM.md",
    ] {
        assert!(top.contains(&format!("doc: \"{doc}\"")), "{doc}");
    }
}

#[test]
fn deny_warnings_fails_the_same_regen_and_writes_nothing() {
    let out = tempfile::tempdir().unwrap();
    let krate = out.path().join("visa-degrade");
    let run = |strict: bool| {
        let mut args = vec![
            "xtask".into(),
            "regen".into(),
            "--spec".into(),
            degrade_dir().into_os_string(),
            "--out".into(),
            krate.clone().into_os_string(),
        ];
        if strict {
            args.push("--deny-warnings".into());
        }
        xtask::run(args)
    };
    assert_eq!(run(true), std::process::ExitCode::from(1));
    assert!(!krate.exists(), "--deny-warnings: nothing may be written");
    assert_eq!(run(false), std::process::ExitCode::SUCCESS);
    assert!(krate.join("src/generated/good.rs").is_file());
    // Strict again over the crate written: still a failure, not the no-op fast path.
    assert_eq!(run(true), std::process::ExitCode::from(1));
}

#[test]
fn deny_warnings_spares_acknowledged_warnings_only() {
    let docs = degrade_docs();
    let mut diags = codegen::parse::parse_spec(&docs).diagnostics;
    let config = codegen::config::Config::parse(
        "regen.toml",
        "[[acknowledge]]\ncode = \"V0130\"\ndoc = \"BAD_TEXT.md\"\nreason = \"a test\"\n",
    )
    .expect("a valid config");
    let warnings = diags.iter().filter(|d| !d.is_error()).count();
    assert_eq!(
        codegen::config::deny_warnings(&mut diags, &config),
        warnings - 1
    );
    let kept: Vec<&str> = diags
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(kept, ["V0130"]);
}

/// A made-up doc of `FOO` (opcode 0x10) with format cells `cells`, field bullets and one
/// template.
fn doc(cells: &[&str], bullets: &str, template: &str) -> SourceFile {
    let head = "| |".to_string() + &" |".repeat(cells.len());
    let rule = "| --- |".to_string() + &" --- |".repeat(cells.len());
    let text = format!(
        "## Opcode\n\n  FOO = 0x10\n\n## Format\n\n{head}\n{rule}\n| 0x10(FOO) | {} |\n\n\
         ## Description\n\nA made-up doc.\n\n{bullets}\n## Text\n```\n    {template}\n```\n",
        cells.join(" | ")
    );
    SourceFile {
        name: "FOO.md".into(),
        bytes: text.into_bytes(),
    }
}

const EXEC: &str = "- **Exec_size(ub):** Execution size\n\n  - Bit[2..0]: size of the region\n\n    - 0b000: 1 element\n\n";

/// The forms of a made-up doc, which must parse without any warning.
fn forms(doc: SourceFile) -> Vec<SyntaxForm> {
    let parsed = codegen::parse::parse_spec(&[doc]);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    match &parsed.spec.instructions[0].syntax {
        Some(Syntax::Templates { forms }) => forms.clone(),
        other => panic!("{other:#?}"),
    }
}

fn slots(s: &[codegen::schema::Slot]) -> Vec<(&str, Option<&str>, Prints)> {
    s.iter()
        .map(|s| (s.name.as_str(), s.field.as_deref(), s.prints))
        .collect()
}

#[test]
fn a_predicate_written_without_brackets_is_the_predicate() {
    let bullets = format!(
        "{EXEC}- **Pred(uw):** Predication control\n\n- **Dst(vec_operand):** The destination\n\n- **Src0(vec_operand):** The source\n"
    );
    let f = &forms(doc(
        &["Exec_size", "Pred", "Dst", "Src0"],
        &bullets,
        "(<P>) FOO (<exec_size>) <dst> <src0>",
    ))[0];
    assert_eq!(f.mnemonic, "foo");
    let p = f.predicate.as_ref().expect("a predicate");
    assert_eq!(
        (p.name.as_str(), p.field.as_deref(), p.prints),
        ("P", Some("Pred"), Prints::Predicate)
    );
    assert_eq!(
        slots(&f.group),
        [("exec_size", Some("Exec_size"), Prints::ExecSize)]
    );
    assert_eq!(
        slots(&f.operands),
        [
            ("dst", Some("Dst"), Prints::Vector),
            ("src0", Some("Src0"), Prints::Vector)
        ]
    );
}

#[test]
fn alternatives_with_an_optional_joined_suffix_give_one_form_each() {
    let bullets = "- **A(raw_operand):** The first\n\n- **B(raw_operand):** The second\n";
    let f = forms(doc(&["A", "B"], bullets, "{foo|fooc}[_eot] <a> <b>"));
    let names: Vec<&str> = f.iter().map(|f| f.mnemonic.as_str()).collect();
    assert_eq!(names, ["foo", "fooc"]);
    for f in &f {
        assert_eq!(f.suffixes.len(), 1);
        assert!(f.suffixes[0].optional);
        assert_eq!(
            f.suffixes[0].kind,
            SuffixKind::Joined {
                text: "_eot".into()
            }
        );
        assert_eq!(
            slots(&f.operands),
            [("a", Some("A"), Prints::Raw), ("b", Some("B"), Prints::Raw)]
        );
    }
}

#[test]
fn an_inline_value_after_a_dot_prints_the_field_after_the_word() {
    let bullets = format!(
        "{EXEC}- **Ctrl(ub):** The function control\n\n- **Dst(vec_operand):** The destination\n"
    );
    let f = &forms(doc(
        &["Ctrl", "Exec_size", "Dst"],
        &bullets,
        "FOO.x[Ctrl] (<exec_size>) <dst>",
    ))[0];
    match &f.suffixes[..] {
        [s] => match &s.kind {
            SuffixKind::Slot { prefix, slot } => {
                assert!(!s.optional);
                assert_eq!(prefix, "x");
                assert_eq!(
                    (slot.field.as_deref(), slot.prints),
                    (Some("Ctrl"), Prints::Number)
                );
            }
            k => panic!("{k:?}"),
        },
        s => panic!("{s:?}"),
    }
}

#[test]
fn the_labels_of_a_counted_field_are_one_list_slot() {
    let bullets = format!(
        "{EXEC}- **Num_labels(ub):** Number of labels. Must be in the range [1..32]\n\n- **Index(scalar):** The index\n\n- **Label0(uw):** A label\n"
    );
    let f = &forms(doc(
        &[
            "Exec_size",
            "Num_labels",
            "Index",
            "Label0",
            "LabelN",
            "Label(Num_labels-1)",
        ],
        &bullets,
        "FOO (<exec_size>) <index> (Label0, Label1, ..., LabelN-1)",
    ))[0];
    assert_eq!(
        slots(&f.operands),
        [
            ("index", Some("Index"), Prints::Vector),
            ("Label", Some("Label"), Prints::Label)
        ]
    );
    assert_eq!(
        f.operands.iter().map(|s| s.list).collect::<Vec<_>>(),
        [false, true]
    );
}

/// Intel prints BFN's control as hex digits after `.x` (`bfn.xf8`, 135 lines of
/// `../shared/real-kernels/dg2`, and GenX_IR reads it: the erratum `BFN-text-function-control`
/// has the evidence). The doc as published writes `.x[BooleanFuncCtrl]`: read as written, it
/// gives the very syntax the erratum's `.x<BooleanFuncCtrl>` gives.
#[test]
fn bfn_as_published_reads_as_intel_prints_it() {
    let Some(dir) = shared("visa-docs/current/instructions") else {
        return;
    };
    let docs = codegen::parse::load_dir(&dir).expect("readable docs");
    let errata =
        codegen::errata::load_dir(&root().join("errata"), "errata").expect("readable errata");
    let bfn_errata: Vec<SourceFile> = errata
        .into_iter()
        .filter(|e| e.name.contains("BFN-text-function-control"))
        .collect();
    assert_eq!(bfn_errata.len(), 1);
    let syntax = |errata: &[SourceFile]| {
        let parsed = codegen::parse_corrected(&docs, errata);
        let bfn = parsed
            .spec
            .instructions
            .iter()
            .find(|i| i.name == "BFN")
            .cloned();
        let Some(Syntax::Templates { mut forms }) = bfn.and_then(|b| b.syntax) else {
            panic!("BFN has templates");
        };
        // Compare what the template means, not where its text is.
        for f in &mut forms {
            f.template.clear();
            f.span = Default::default();
            for s in f
                .predicate
                .iter_mut()
                .chain(&mut f.group)
                .chain(&mut f.operands)
            {
                s.span = Default::default();
            }
            for s in &mut f.suffixes {
                s.span = Default::default();
                if let SuffixKind::Slot { slot, .. } = &mut s.kind {
                    slot.span = Default::default();
                    slot.name = slot.name.to_ascii_lowercase();
                }
            }
        }
        forms
    };
    assert_eq!(syntax(&[]), syntax(&bfn_errata));
}

/// (doc, warning) pairs a regen leaves out.
type LeftOut = &'static [(&'static str, &'static str)];

/// What each family's docs leave out of the crate (doc, warning), as Intel publishes them and
/// with the product's errata that fit them (regen's default). RAW_SENDS's template writes the
/// SFID and the register counts as separate words, a form Intel neither prints nor reads, and
/// cannot be read: without a correction the crate has no text form of RAW_SENDS. The erratum
/// `RAW_SENDS-text-dotted-counts` (with Intel's evidence) corrects the current text; the 2021
/// doc indents that line with a tab, so the erratum does not fit it and 2021 keeps the
/// degradation. Nothing else degrades.
const DEGRADES: &[(&str, LeftOut, LeftOut)] = &[
    (
        "visa-docs/current/instructions",
        &[("RAW_SENDS.md", "V0130")],
        &[],
    ),
    (
        "visa-docs/2021/instructions",
        &[("RAW_SENDS.md", "V0130")],
        &[("RAW_SENDS.md", "V0130")],
    ),
];

/// The family command (docs/regen.md, "Degrade, never block"): both revisions regenerate, bare and with the errata that fit
/// them, with warnings only; what they leave out is exactly [`DEGRADES`].
#[test]
fn both_revisions_regenerate_with_only_the_listed_parts_left_out() {
    let degraded = |docs: &[SourceFile], errata: &[SourceFile], corpus: &str| {
        let g = codegen::generate_corrected(docs, errata, &codegen::emit::Options::default())
            .unwrap_or_else(|d| {
                panic!(
                    "{corpus}: {:#?}",
                    d.iter().filter(|d| d.is_error()).collect::<Vec<_>>()
                )
            });
        let mut out: Vec<(String, String)> = g
            .diagnostics
            .iter()
            .filter(|d| matches!(d.degrades(), Degrades::Doc | Degrades::TextForm))
            .map(|d| (d.file.clone(), d.code.clone()))
            .collect();
        out.sort();
        out
    };
    let owned = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(f, c)| (f.to_string(), c.to_string()))
            .collect()
    };
    for corpus in visa_tests::CORPORA {
        let Some(dir) = shared(corpus) else { return };
        let docs = codegen::parse::load_spec(&dir, Some(&root().join("spec/chapters")))
            .expect("readable docs");
        let (_, bare, corrected) = DEGRADES
            .iter()
            .find(|(c, _, _)| c == corpus)
            .expect("each family has its lists");
        assert_eq!(degraded(&docs, &[], corpus), owned(bare), "{corpus}, bare");
        let errata = visa_tests::product_errata(&docs);
        assert_eq!(
            degraded(&docs, &errata, corpus),
            owned(corrected),
            "{corpus}, with the errata that fit it"
        );
    }
}

/// A chapter's line that is no item (V0501) skips that line only: every pseudo-structure and
/// every other item is read as without it. CI builds the crate of `tests/specs/degrade` with
/// such a chapter (`.ci/run`).
#[test]
fn a_chapter_line_that_is_no_item_skips_only_that_line() {
    let chapter = root().join("spec/chapters/4_visa_header.md");
    let text = std::fs::read_to_string(&chapter).expect("the workspace's chapter");
    let junk = text.replacen(
        "  kernel_info {\n",
        "  kernel_info {\n    this is not an item\n",
        1,
    );
    assert_ne!(junk, text, "the chapter has `kernel_info {{`");
    let read = |text: &str| {
        let file = SourceFile {
            name: "chapters/4_visa_header.md".into(),
            bytes: text.as_bytes().to_vec(),
        };
        codegen::parse::parse_spec(&[file])
    };
    let (clean, degraded) = (read(&text), read(&junk));
    let new: Vec<_> = degraded
        .diagnostics
        .iter()
        .filter(|d| d.code != "V0503")
        .map(|d| (d.code.as_str(), d.line, d.severity, d.degrades()))
        .collect();
    let line = text[..text.find("  kernel_info {").unwrap()]
        .lines()
        .count() as u32
        + 2;
    assert_eq!(new, [("V0501", line, Severity::Warning, Degrades::Item)]);
    let fields = |p: &codegen::parse::Parsed| {
        p.spec
            .records
            .iter()
            .map(|r| {
                (
                    r.name.clone(),
                    r.fields.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(fields(&degraded), fields(&clean));
}
