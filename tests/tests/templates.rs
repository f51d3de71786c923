//! The `## Text` templates as typed syntax, on the whole family: every doc yields a syntax or a
//! listed special form, with no error; and for the docs whose templates Intel's printer follows
//! (class (a) of `../shared/notes/visa-text-syntax.md` §1), the forms predict the token order
//! of Intel's own lines in `../shared/real-kernels/dg2/*.visaasm`.

use codegen::schema::{Instruction, Prints, Slot, SuffixKind, Syntax, SyntaxForm};
use visa_tests::{shared, CORPORA};

/// Docs whose syntax no template describes (rules of V0132), per family.
const SPECIAL: &[&str] = &[
    "3D_LOAD",
    "3D_SAMPLE",
    "3D_SAMPLE4",
    "LABEL",
    "LSC_TYPED",
    "LSC_UNTYPED",
    "RT_WRITE",
    "SUBROUTINE",
    "SVM",
];

/// Docs whose template cannot be read (V0130), per family as the tests read it: 2021's
/// RAW_SENDS, whose template (the SFID and counts as separate words) only the current family's
/// erratum `RAW_SENDS-text-dotted-counts` corrects.
const UNREADABLE: &[(&str, &[&str])] = &[
    ("visa-docs/current/instructions", &[]),
    ("visa-docs/2021/instructions", &["RAW_SENDS"]),
];

fn family(corpus: &str) -> Option<Vec<Instruction>> {
    let dir = shared(corpus)?;
    let (docs, errata) = visa_tests::family_with_errata(&dir, corpus);
    let parsed = codegen::parse_corrected(&docs, &errata);
    let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{corpus}: {errors:#?}");
    Some(parsed.spec.instructions)
}

#[test]
fn every_doc_has_a_syntax_or_a_listed_special_form() {
    for corpus in CORPORA {
        let Some(insts) = family(corpus) else { return };
        let mut special = Vec::new();
        let mut unreadable = Vec::new();
        for i in &insts {
            match &i.syntax {
                Some(Syntax::Special { .. }) => special.push(i.name.as_str()),
                Some(Syntax::Templates { forms }) => assert!(!forms.is_empty(), "{}", i.name),
                Some(Syntax::Unreadable { .. }) => unreadable.push(i.name.as_str()),
                None => panic!("{corpus}/{}: no syntax", i.name),
            }
        }
        unreadable.sort();
        let listed = UNREADABLE
            .iter()
            .find(|(c, _)| c == corpus)
            .map(|(_, l)| *l);
        assert_eq!(
            unreadable,
            listed.expect("each family has its list"),
            "{corpus}"
        );
        special.sort();
        let expected: Vec<&str> = SPECIAL
            .iter()
            .copied()
            .filter(|n| insts.iter().any(|i| i.name == *n))
            .collect();
        assert_eq!(special, expected, "{corpus}");
    }
}

/// Class (a) of the note's §1 table: same tokens in the same order as Intel's printer.
const CLASS_A: &[&str] = &[
    "ADD",
    "ADD3",
    "ADDC",
    "ADDR_ADD",
    "AND",
    "ASR",
    "AVG",
    "BARRIER",
    "BFE",
    "BFI",
    "BFREV",
    "CALL",
    "CBIT",
    "CMP",
    "COS",
    "DIV",
    "DIVM",
    "DPAS",
    "EXP",
    "FADDR",
    "FBH",
    "FBL",
    "FCALL",
    "FCVT",
    "FILE",
    "FRC",
    "FRET",
    "GATHER4_SCALED",
    "GATHER_SCALED",
    "GOTO",
    "INV",
    "JMP",
    "LOC",
    "LOG",
    "LRP",
    "LZD",
    "MAD",
    "MIN_MAX",
    "MOD",
    "MOV",
    "MOVS",
    "MUL",
    "NOT",
    "OR",
    "OWORD_ST",
    "PLANE",
    "POW",
    "QW_GATHER",
    "QW_SCATTER",
    "RAW_SEND",
    "RET",
    "RNDD",
    "RNDE",
    "RNDU",
    "RNDZ",
    "ROL",
    "RSQRT",
    "SAD2",
    "SAMPLE_UNORM",
    "SBARRIER",
    "SCATTER4_SCALED",
    "SEL",
    "SETP",
    "SHL",
    "SHR",
    "SIN",
    "SQRT",
    "SQRTM",
    "SUBB",
    "SVM_GATHER",
    "VME_IME",
    "VME_SIC",
    "WAIT",
    "XOR",
    "YIELD",
];

/// An instruction line of Intel's print split into tokens: predicate dropped, `(M1, 16)` one
/// token, the `/// $N` comment dropped.
fn tokens(line: &str) -> Vec<String> {
    let code = line.split("///").next().unwrap_or("").trim();
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for w in code.split_whitespace() {
        if open {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(w);
            }
        } else {
            out.push(w.to_string());
        }
        open = out
            .last()
            .is_some_and(|t| t.starts_with('(') && t.matches('(').count() > t.matches(')').count());
    }
    if out.first().is_some_and(|t| t.starts_with('(')) && out.len() > 1 {
        out.remove(0); // the predicate `(P1)`, `(!P2)`
    }
    out
}

/// Does Intel's token look like what the slot prints?
fn looks_like(slot: &Slot, tok: &str) -> bool {
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '%')
    };
    match slot.prints {
        Prints::Raw => tok
            .rsplit_once('.')
            .is_some_and(|(v, off)| ident(v) && off.chars().all(|c| c.is_ascii_digit())),
        Prints::Vector => {
            tok.starts_with("0x")
                || tok.starts_with('&')
                || tok.contains('(')
                || tok.contains('[')
                || tok.contains('<')
                || ident(tok)
        }
        Prints::Surface | Prints::Sampler => ident(tok),
        Prints::Label | Prints::Symbol => !tok.is_empty(),
        Prints::Number => tok.chars().all(|c| c.is_ascii_hexdigit() || c == 'x'),
        Prints::Name | Prints::Channels => ident(tok),
        Prints::ExecSize | Prints::Predicate | Prints::Unknown => false,
    }
}

/// Does the form predict the tokens: mnemonic, number of suffixes, group, operand count and
/// the shape of each operand?
fn agrees(form: &SyntaxForm, toks: &[String]) -> bool {
    let Some(head) = toks.first() else {
        return false;
    };
    let mut parts = head.split('.');
    if parts.next() != Some(form.mnemonic.as_str()) {
        return false;
    }
    let got = parts.count();
    let required = form.suffixes.iter().filter(|s| !s.optional).count();
    let most: usize = form
        .suffixes
        .iter()
        .map(|s| match &s.kind {
            SuffixKind::Flags { .. } => 1,
            _ => 1,
        })
        .sum();
    if got < required || got > most {
        return false;
    }
    let mut rest = &toks[1..];
    if !form.group.is_empty() {
        match rest.first() {
            Some(t) if t.starts_with('(') && t.ends_with(')') => {
                let inner = t.trim_start_matches('(').trim_end_matches(')');
                let n = inner.split(',').count();
                let exec = form.group.iter().any(|s| s.prints == Prints::ExecSize);
                if !(exec && n == 2) && n != form.group.len() {
                    return false;
                }
                rest = &rest[1..];
            }
            _ => return false,
        }
    }
    let required = form.operands.iter().filter(|s| !s.optional).count();
    if rest.len() < required || rest.len() > form.operands.len() {
        return false;
    }
    form.operands
        .iter()
        .zip(rest)
        .all(|(s, t)| looks_like(s, t))
}

#[test]
fn class_a_templates_predict_intels_printed_lines() {
    let Some(insts) = family("visa-docs/current/instructions") else {
        return;
    };
    let Some(kernels) = shared("real-kernels/dg2") else {
        return;
    };
    let forms_of = |all: bool| -> Vec<SyntaxForm> {
        insts
            .iter()
            .filter(|i| all || CLASS_A.contains(&i.name.as_str()))
            .flat_map(|i| match &i.syntax {
                Some(Syntax::Templates { forms }) => forms.clone(),
                _ => vec![],
            })
            .collect()
    };
    let (seen, agreed, misses) = measure(&kernels, &forms_of(false));
    // Every templated doc, class (b) corrected by errata included: reported, not asserted.
    let (all_seen, all_agreed, all_misses) = measure(&kernels, &forms_of(true));
    println!("all templates agree with {all_agreed} of {all_seen} lines; e.g. {all_misses:?}");
    println!("class (a) templates agree with {agreed} of {seen} of Intel's printed lines");
    for m in &misses {
        println!("  differs: {m}");
    }
    assert!(seen > 4000, "{seen} lines of class (a) docs");
    assert_eq!(agreed, seen, "{misses:#?}");
}

/// Intel's lines whose mnemonic one of `forms` has: how many, how many agree, some that differ.
fn measure(kernels: &std::path::Path, forms: &[SyntaxForm]) -> (usize, usize, Vec<String>) {
    let mut files: Vec<_> = std::fs::read_dir(kernels)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "visaasm"))
        .collect();
    files.sort();
    let (mut seen, mut agreed) = (0usize, 0usize);
    let mut misses: Vec<String> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for line in text.lines().filter(|l| l.starts_with("    ")) {
            let toks = tokens(line);
            let Some(head) = toks.first() else { continue };
            let mnemonic = head.split('.').next().unwrap_or("");
            let mine: Vec<_> = forms.iter().filter(|f| f.mnemonic == mnemonic).collect();
            if mine.is_empty() {
                continue;
            }
            seen += 1;
            if mine.iter().any(|f| agrees(f, &toks)) {
                agreed += 1;
            } else if misses.len() < 20 {
                misses.push(line.trim().to_string());
            }
        }
    }
    (seen, agreed, misses)
}

#[test]
fn the_forms_of_known_docs() {
    let Some(insts) = family("visa-docs/current/instructions") else {
        return;
    };
    let by = |n: &str| insts.iter().find(|i| i.name == n).unwrap();
    let forms = |n: &str| match &by(n).syntax {
        Some(Syntax::Templates { forms }) => forms.clone(),
        other => panic!("{n}: {other:?}"),
    };
    // FILE and LOC keep upper case (debug directives); everything else is lower case.
    assert_eq!(forms("FILE")[0].mnemonic, "FILE");
    assert_eq!(forms("LOC")[0].mnemonic, "LOC");
    assert_eq!(forms("PLANE")[0].mnemonic, "plane");
    // Errata: the mnemonics Intel prints.
    assert_eq!(forms("CACHE_FLUSH")[0].mnemonic, "sampler_cache_flush");
    assert_eq!(
        forms("SVM_SCATTER4_SCALED")[0].mnemonic,
        "svm_scatter4scaled"
    );
    // GATHER's exec size comes from Num_elts (erratum), printed as an exec size.
    let g = &forms("GATHER")[0];
    assert_eq!(g.group[0].field.as_deref(), Some("Num_elts"));
    assert_eq!(g.group[0].prints, Prints::ExecSize);
    // FCALL's function name is a string-pool symbol of Func_id (the template's comment).
    let f = &forms("FCALL")[0];
    assert_eq!(
        (f.operands[0].field.as_deref(), f.operands[0].prints),
        (Some("Func_id"), Prints::Symbol)
    );
    // RAW_SEND: one form per alternative, selected by Modifiers.
    let r = forms("RAW_SEND");
    let names: Vec<_> = r.iter().map(|f| f.mnemonic.as_str()).collect();
    assert_eq!(names, ["raw_send", "raw_sendc"]);
    let sel = r[1].selected_by.as_ref().unwrap();
    assert_eq!((sel.field.as_str(), sel.value), ("Modifiers", 1));
    // SBARRIER: the literal suffix selects the Mode.
    let s = forms("SBARRIER");
    assert_eq!(s[1].selected_by.as_ref().map(|v| v.value), Some(1));
    // NBARRIER (erratum NBARRIER-signal-forms-by-mode): `.wait`, and the two `.signal` forms
    // by the word of their comments, `baseline` and `general`: Mode 0, 1, 2.
    let n = forms("NBARRIER");
    let modes: Vec<_> = n
        .iter()
        .map(|f| f.selected_by.as_ref().map(|v| (v.field.as_str(), v.value)))
        .collect();
    assert_eq!(
        modes,
        [Some(("Mode", 0)), Some(("Mode", 1)), Some(("Mode", 2))]
    );
    assert_eq!(n[1].operands[1].field.as_deref(), Some("Num_producers"));
}

/// Rule: a template line's comment of one word names its form: with several forms, each is
/// selected by the enumerated value named by its mnemonic, a literal suffix or that word
/// (NBARRIER's `// baseline` and `// general`); a longer comment names nothing.
#[test]
fn a_one_word_comment_names_its_lines_form() {
    let text = "## Opcode\n\n  BAZ = 0x12\n\n## Format\n\n| | | | |\n| --- | --- | --- | --- |\n\
                | 0x12(BAZ) | Mode | A | B |\n\n## Description\n\nA made-up doc.\n\n\
                - **Mode(ub):** A mode. Valid values are:\n\n  - 0: stop\n  - 1: short go\n  - 2: long go\n\n\
                - **A(ub):** A number.\n\n- **B(ub):** Another.\n\n## Text\n```\n\
                \x20   BAZ.stop\n    BAZ.go <a>      // short\n    BAZ.go <a> <b>  // long\n\
                \x20   BAZ.go <b> <a>  // not one word\n```\n";
    let parsed = codegen::parse::parse_spec(&[codegen::parse::SourceFile {
        name: "BAZ.md".into(),
        bytes: text.as_bytes().to_vec(),
    }]);
    let forms = match &parsed.spec.instructions[0].syntax {
        Some(Syntax::Templates { forms }) => forms.clone(),
        other => panic!("{other:#?}"),
    };
    let values: Vec<_> = forms
        .iter()
        .map(|f| f.selected_by.as_ref().map(|v| v.value))
        .collect();
    assert_eq!(values, [Some(0), Some(1), Some(2), None]);
}

/// A made-up doc of `FOO` (opcode 0x10): fields `A` and `B` (one byte each, named values),
/// `W` and `H` (plain numbers) and `Surface`, and one template.
fn made_up(template: &str) -> codegen::parse::SourceFile {
    let text = format!(
        "## Opcode\n\n  FOO = 0x10\n\n## Format\n\n| | | | | | |\n| --- | --- | --- | --- | --- | --- |\n\
         | 0x10(FOO) | A | B | W | H | Surface |\n\n## Description\n\nA made-up doc.\n\n\
         - **A(ub):** A mode. Valid values are:\n\n  - 0: FIRST_MODE\n  - 1: SECOND_MODE\n\n\
         - **B(ub):** B control. Valid values are:\n\n  - 0: ONE_CONTROL\n  - 3: OTHER_CONTROL\n\n\
         - **W(ub):** A width.\n\n- **H(ub):** A height.\n\n- **Surface(ub):** The surface.\n\n\
         ## Text\n```\n    {template}\n```\n"
    );
    codegen::parse::SourceFile {
        name: "FOO.md".into(),
        bytes: text.into_bytes(),
    }
}

/// The made-up doc's one form as parsed (no diagnostic at all) and as the analyzer resolves it.
fn made_up_form(template: &str) -> (SyntaxForm, codegen::analyze::text::TextForm) {
    let parsed = codegen::parse::parse_spec(&[made_up(template)]);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let form = match &parsed.spec.instructions[0].syntax {
        Some(Syntax::Templates { forms }) => forms[0].clone(),
        other => panic!("{other:#?}"),
    };
    let (model, diags) = codegen::analyze::analyze(&parsed.spec);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:#?}");
    let text = model.text["FOO"].forms[0].clone();
    assert_eq!(text.unsupported, None);
    (form, text)
}

/// Rule: a group's separator is kept as written. `(<w>,<h>)` prints `(16,4)` (MEDIA_LD, as
/// Intel prints it); `(<w>, <h>)` prints `(16, 4)`, the usual layout.
#[test]
fn a_groups_separator_is_kept_as_written() {
    let (form, text) = made_up_form("FOO (<w>,<h>) <surface>");
    assert_eq!(
        (
            form.group_layout.glued,
            form.group_layout.separator.as_str()
        ),
        (false, ",")
    );
    assert_eq!(text.group_layout.separator, ",");
    assert_eq!(text.group.len(), 2);
    let (form, _) = made_up_form("FOO (<w>, <h>) <surface>");
    assert!(form.group_layout.is_default(), "{:?}", form.group_layout);
    assert_eq!(form.group_layout.separator, ", ");
    // Gaps written in different ways are not a layout: the template cannot be read (V0130).
    let parsed = codegen::parse::parse_spec(&[made_up("FOO (<a>,<b>, <w>) <surface>")]);
    let codes: Vec<_> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["V0130"], "{:#?}", parsed.diagnostics);
}

/// Rule: a group written right after the mnemonic, `FOO(<w>,<h>)`, prints glued to it
/// (`vme_ime(0,0)`, as Intel prints VME_IME); a space before `(` keeps the space.
#[test]
fn a_group_glued_to_the_mnemonic_prints_glued() {
    let (form, text) = made_up_form("FOO(<w>,<h>) <surface>");
    assert!(form.group_layout.glued);
    assert_eq!(form.mnemonic, "foo");
    assert!(text.group_layout.glued);
    let (form, _) = made_up_form("FOO.<a> (<w>,<h>) <surface>");
    assert!(!form.group_layout.glued);
    // Glued after a suffix too.
    let (form, _) = made_up_form("FOO.<a>(<w>,<h>) <surface>");
    assert!(form.group_layout.glued);
}

/// Rule: `<a>/<b>` prints `b` right after `a` behind the text between them (RAW_SENDG's
/// `<dst>/<dstLen>`); `.0x<slot>` after the mnemonic and `0x<slot>` are hexadecimal, in upper
/// case when a comment of the template says "upper-case hexadecimal".
#[test]
fn glued_operands_and_upper_case_hexadecimal() {
    use codegen::analyze::text::{Piece, SlotKind};
    let (form, text) = made_up_form("FOO.0x<w> (<a>,<b>) <surface>/<h>");
    assert_eq!(form.operands[1].glued.as_deref(), Some("/"));
    assert_eq!(text.operands[1].glued.as_deref(), Some("/"));
    assert_eq!(text.operands[0].glued, None);
    let Piece::Slot { prefix, slot } = &text.suffixes[0] else {
        panic!("{:?}", text.suffixes)
    };
    assert_eq!(prefix, "0x");
    assert_eq!(slot.kind, SlotKind::Number { hex: true });
    assert!(!slot.upper_hex);
    let (_, text) = made_up_form(
        "FOO.0x<w> (<a>,<b>) <surface> 0x<h>\n    // <w> and <h> are printed in upper-case hexadecimal",
    );
    let Piece::Slot { slot, .. } = &text.suffixes[0] else {
        panic!("{:?}", text.suffixes)
    };
    assert!(slot.upper_hex);
    assert!(text.operands[1].upper_hex && text.operands[1].zero_x);
    assert!(!text.operands[0].upper_hex, "a surface prints no digits");
}

/// Rule: `<#name>` prints the field's value as a decimal number even where the field
/// enumerates named values (VME_IME's stream mode and search control, `vme_ime(1,3)`);
/// unmarked, the same slot prints the value's name.
#[test]
fn a_slot_marked_with_a_hash_prints_a_number() {
    use codegen::analyze::text::SlotKind;
    let (form, text) = made_up_form("FOO(<#a>,<#b>) <surface>");
    let group: Vec<_> = form
        .group
        .iter()
        .map(|s| (s.name.as_str(), s.field.as_deref(), s.prints))
        .collect();
    assert_eq!(
        group,
        [
            ("a", Some("A"), Prints::Number),
            ("b", Some("B"), Prints::Number)
        ]
    );
    assert!(
        text.group
            .iter()
            .all(|s| s.kind == SlotKind::Number { hex: false }),
        "{:?}",
        text.group
    );
    let (form, text) = made_up_form("FOO(<a>,<b>) <surface>");
    assert_eq!(form.group[0].prints, Prints::Name);
    match &text.group[1].kind {
        SlotKind::Name { spellings, .. } => assert_eq!(
            spellings,
            &[
                (0, "one_control".to_string()),
                (3, "other_control".to_string())
            ]
        ),
        other => panic!("{other:?}"),
    }
    // As a suffix and as an operand as well.
    let (form, _) = made_up_form("FOO.<#a> <#b> <surface>");
    assert!(
        matches!(&form.suffixes[0].kind, SuffixKind::Slot { slot, .. } if slot.prints == Prints::Number)
    );
    assert_eq!(form.operands[0].prints, Prints::Number);
    // A surface is no number: the mark on it makes the template unreadable (V0130).
    let parsed = codegen::parse::parse_spec(&[made_up("FOO <#surface>")]);
    let codes: Vec<_> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["V0130"], "{:#?}", parsed.diagnostics);
}

/// The errata of VME_IME and MEDIA_LD use these rules: their forms, from the family.
#[test]
fn vme_ime_and_media_ld_as_intel_prints_them() {
    let Some(insts) = family("visa-docs/current/instructions") else {
        return;
    };
    let form = |n: &str| match &insts.iter().find(|i| i.name == n).unwrap().syntax {
        Some(Syntax::Templates { forms }) => forms[0].clone(),
        other => panic!("{n}: {other:?}"),
    };
    let vme = form("VME_IME");
    assert!(vme.group_layout.glued && vme.group_layout.separator == ",");
    assert!(vme.group.iter().all(|s| s.prints == Prints::Number));
    assert_eq!(vme.operands[1].extra_spaces, 1);
    let media = form("MEDIA_LD");
    assert!(!media.group_layout.glued && media.group_layout.separator == ",");
    assert!(
        matches!(&media.suffixes[0].kind, SuffixKind::Slot { slot, .. } if slot.field.as_deref() == Some("Modifiers") && slot.prints == Prints::Name)
    );
}

/// A made-up doc of `BAR` (opcode 0x11): `Mask`, a bit-packed byte whose members the doc
/// describes by bits (channels in 3..0, an output format with values in 5..4), `Mode` (named
/// values) and `Surface`; its template, and comment lines after it.
fn made_up_packed(template: &str, comments: &str) -> codegen::parse::SourceFile {
    let text = format!(
        "## Opcode\n\n  BAR = 0x11\n\n## Format\n\n| | | | |\n| --- | --- | --- | --- |\n\
         | 0x11(BAR) | Mask | Mode | Surface |\n\n## Description\n\nA made-up doc.\n\n\
         - **Mask(ub):**\n\n  - Bit[3..0]: the write masks of each channel\n\n\
         \x20 - Bit[5..4]: is the Output format.\n\n    - 0b00: \"16-bit wide\"\n    - 0b01: \"16-bit narrow\"\n\n\
         - **Mode(ub):** A mode. Valid values are:\n\n  - 0: 16x4\n  - 1: 8x4\n\n\
         - **Surface(ub):** The surface.\n\n## Text\n```\n    {template}\n{comments}```\n"
    );
    codegen::parse::SourceFile {
        name: "BAR.md".into(),
        bytes: text.into_bytes(),
    }
}

/// Rules: a slot naming no field names the member of a bit-packed field whose summary holds
/// its words (`<channel>` is Mask bits 3..0, `<output_format>` bits 5..4: SAMPLE_UNORM's
/// Channel_mask); a comment `<slot> is one of "a", "b"` spells the slot's values in the doc's
/// order (SAMPLE_UNORM's `16-full`, AVS's `AVS_16x4` by erratum), case and `-` kept.
#[test]
fn a_slot_names_a_member_and_a_comment_spells_its_values() {
    use codegen::analyze::text::{Piece, SlotKind};
    let comments = "    //<output_format> is one of \"16-wide\", \"16-narrow\"\n    //<mode> is one of \"MODE_16x4\", \"MODE_8x4\"\n";
    let template = "BAR.<channel>.<output_format> <mode> <surface>";
    let parsed = codegen::parse::parse_spec(&[made_up_packed(template, comments)]);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let form = match &parsed.spec.instructions[0].syntax {
        Some(Syntax::Templates { forms }) => forms[0].clone(),
        other => panic!("{other:#?}"),
    };
    let suffix = |k: usize| match &form.suffixes[k].kind {
        SuffixKind::Slot { slot, .. } => slot.clone(),
        other => panic!("{other:?}"),
    };
    let (channel, format) = (suffix(0), suffix(1));
    assert_eq!(
        (
            channel.field.as_deref(),
            channel.prints,
            channel.member.map(|m| (m.hi, m.lo))
        ),
        (Some("Mask"), Prints::Channels, Some((3, 0)))
    );
    assert_eq!(
        (
            format.field.as_deref(),
            format.prints,
            format.member.map(|m| (m.hi, m.lo))
        ),
        (Some("Mask"), Prints::Name, Some((5, 4)))
    );
    assert_eq!(format.spellings, ["16-wide", "16-narrow"]);
    assert_eq!(form.operands[0].spellings, ["MODE_16x4", "MODE_8x4"]);
    // The analyzer prints each member's bits only, with the comment's words.
    let (model, diags) = codegen::analyze::analyze(&parsed.spec);
    assert!(diags.is_empty(), "{diags:#?}");
    let text = &model.text["BAR"].forms[0];
    assert_eq!(text.unsupported, None);
    let slots: Vec<_> = text
        .suffixes
        .iter()
        .map(|p| match p {
            Piece::Slot { slot, .. } => (slot.lo, slot.mask, slot.kind.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    let names = |words: &[&str]| SlotKind::Name {
        spellings: words
            .iter()
            .enumerate()
            .map(|(v, w)| (v as u64, w.to_string()))
            .collect(),
        default: None,
    };
    assert_eq!(
        slots,
        [
            (0, 0xf, SlotKind::Channels),
            (4, 0x3, names(&["16-wide", "16-narrow"]))
        ]
    );
    assert_eq!(text.operands[0].kind, names(&["MODE_16x4", "MODE_8x4"]));
    // Without the comments the meanings' first words spell them: `16` twice, and none for
    // `16x4`: V0133 for each value that has no spelling.
    let parsed = codegen::parse::parse_spec(&[made_up_packed(template, "")]);
    let (_, diags) = codegen::analyze::analyze(&parsed.spec);
    let codes: Vec<_> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["V0133", "V0133", "V0133"], "{diags:#?}");
    // A comment with another number of words than values: V0133, the meanings spell them.
    let short = "    //<output_format> is one of \"16-wide\"\n";
    let parsed = codegen::parse::parse_spec(&[made_up_packed(template, short)]);
    let (_, diags) = codegen::analyze::analyze(&parsed.spec);
    assert!(
        diags.iter().any(|d| d.code == "V0133"
            && d.message
                .contains("spells 1 values of `<output_format>`, its field lists 2")),
        "{diags:#?}"
    );
    // Words that no summary holds, or that two ranges hold, name nothing (V0131).
    let parsed = codegen::parse::parse_spec(&[made_up_packed("BAR.<width> <surface>", "")]);
    let codes: Vec<_> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["V0131"], "{:#?}", parsed.diagnostics);
}

/// SAMPLE_UNORM as its doc writes it and AVS as its errata correct it use these rules.
#[test]
fn sample_unorm_and_avs_as_intel_prints_them() {
    let Some(insts) = family("visa-docs/current/instructions") else {
        return;
    };
    let form = |n: &str| match &insts.iter().find(|i| i.name == n).unwrap().syntax {
        Some(Syntax::Templates { forms }) => forms[0].clone(),
        other => panic!("{n}: {other:?}"),
    };
    let unorm = form("SAMPLE_UNORM");
    let members: Vec<_> = unorm
        .suffixes
        .iter()
        .map(|s| match &s.kind {
            SuffixKind::Slot { slot, .. } => (
                slot.field.as_deref(),
                slot.member.map(|m| (m.hi, m.lo)),
                slot.prints,
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        members,
        [
            (Some("Channel_mask"), Some((3, 0)), Prints::Channels),
            (Some("Channel_mask"), Some((5, 4)), Prints::Name)
        ]
    );
    let SuffixKind::Slot { slot, .. } = &unorm.suffixes[1].kind else {
        unreachable!()
    };
    assert_eq!(
        slot.spellings,
        ["16-full", "16-downsampled", "8-full", "8-downsampled"]
    );
    let avs = form("AVS");
    let spelled: Vec<_> = avs
        .operands
        .iter()
        .filter(|s| !s.spellings.is_empty())
        .map(|s| (s.field.as_deref().unwrap_or(""), s.spellings.join(" ")))
        .collect();
    assert_eq!(
        spelled,
        [
            (
                "cntrl",
                "AVS_16_FULL AVS_16_DOWN_SAMPLE AVS_8_FULL AVS_8_DOWN_SAMPLE".to_string()
            ),
            (
                "execMode",
                "AVS_16x4 AVS_INVALID AVS_16x8 AVS_4x4".to_string()
            )
        ]
    );
}
