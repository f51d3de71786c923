//! `cargo xtask diff` and regen's summary of what changed: made-up doc pairs
//! (`tests/specs/diff/<case>/{old,new}`), each with the report a reviewer should read written by
//! hand in `expected.txt`.

use std::path::{Path, PathBuf};

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("specs/diff")
        .join(name)
}

fn check(name: &str) {
    let dir = case(name);
    let report = xtask::diff_dirs(&dir.join("old"), &dir.join("new"))
        .unwrap_or_else(|code| panic!("{name}: diff failed with exit status {code}"));
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    assert_eq!(report.human(), expected, "{name}");
}

#[test]
fn an_added_instruction_is_a_new_required_execute_method() {
    check("added");
}

#[test]
fn a_removed_instruction_breaks() {
    check("removed");
}

#[test]
fn renamed_fields_and_instructions_break() {
    check("renamed");
}

#[test]
fn a_retyped_field_breaks() {
    check("retyped");
}

#[test]
fn moved_bits_and_fields_change_what_bytes_mean() {
    check("moved");
}

#[test]
fn added_and_removed_values_break() {
    check("values");
}

#[test]
fn fewer_platforms_break_more_do_not() {
    check("platforms");
}

#[test]
fn an_instruction_on_fewer_platforms_breaks_a_new_platform_does_not() {
    // Each side's `chapters/6_instructions.md` lists BLOCK_PUT: `{XEHP+}`, then `{PVC+}`.
    check("instruction_platforms");
}

#[test]
fn a_changed_template_changes_what_text_means() {
    check("text");
}

#[test]
fn wording_alone_breaks_nothing() {
    check("wording");
}

#[test]
fn a_tightened_type_rule_breaks() {
    check("validation");
}

#[test]
fn the_same_docs_change_nothing() {
    let dir = case("wording").join("old");
    let report = xtask::diff_dirs(&dir, &dir).unwrap();
    assert_eq!(
        report.human(),
        "no change to the generated crate's API or meaning\n"
    );
    assert!(!report.breaking);
}

/// `--json`: `{"breaking": bool, "changes": [{"doc", "what", "breaking"}, ...]}`.
#[test]
fn the_json_form_has_doc_what_and_breaking() {
    let dir = case("platforms");
    let report = xtask::diff_dirs(&dir.join("old"), &dir.join("new")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["breaking"], serde_json::json!(true));
    let changes = json["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[1]["doc"], "BLOCK_PUT");
    assert_eq!(
        changes[1]["what"],
        "platforms of value 0x3 of `Size.number_of_blocks`: {XEHP+} → all"
    );
    assert_eq!(changes[1]["breaking"], serde_json::json!(false));
}

/// Regen keeps a generated snapshot of what it generated beside the output, and the next
/// regen into the same place says what changed since.
#[test]
fn regen_says_what_changed_since_the_last_regen_into_its_out_dir() {
    let out = tempfile::tempdir().unwrap();
    let dir = case("values");
    assert_eq!(xtask::regen(&dir.join("old"), out.path(), false), 0);
    let snapshot = std::fs::read_to_string(out.path().join(codegen::diff::SNAPSHOT)).unwrap();
    assert!(snapshot.lines().next().unwrap().contains("@generated"));
    let api = xtask::api_of_dir(&dir.join("new")).unwrap();
    let summary = xtask::changes_since_last_regen(out.path(), &api).unwrap();
    assert_eq!(
        summary,
        "what changed since the last regen: 3 change(s) in 1 doc(s), 3 breaking\n\
         \n\
         BLOCK_PUT\n  \
         breaking  value 0x2 (`N4Blocks`) of `Size.number_of_blocks` removed\n  \
         breaking  value 0x4 (`N16Blocks`) of `Size.number_of_blocks` added: an exhaustive match no longer compiles\n  \
         breaking  text forms changed (spellings, or the bits a slot prints): some text now parses to other bytes, or not at all\n"
    );
    // After the regen of the new docs, the snapshot is theirs: nothing changed since.
    assert_eq!(xtask::regen(&dir.join("new"), out.path(), false), 0);
    let summary = xtask::changes_since_last_regen(out.path(), &api).unwrap();
    assert_eq!(
        summary,
        "what changed since the last regen: no change to the generated crate's API or meaning\n"
    );
}

/// A snapshot edited by hand or cut short gives no summary rather than a wrong one.
#[test]
fn an_unreadable_snapshot_is_said_not_misread() {
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(out.path().join("docs")).unwrap();
    std::fs::write(out.path().join(codegen::diff::SNAPSHOT), "# @generated\n{").unwrap();
    let summary = xtask::changes_since_last_regen(out.path(), &Default::default()).unwrap();
    assert!(summary.starts_with("note: "), "{summary}");
}

/// `diff --deny-warnings`: a warning of either doc set (here the chapter's V0503, which the
/// made-up spec dirs do not acknowledge in a `regen.toml`) fails the diff; without it the diff
/// runs.
#[test]
fn deny_warnings_fails_a_diff_of_doc_sets_with_warnings() {
    let dir = case("wording");
    let run = |deny: bool| {
        let mut args: Vec<std::ffi::OsString> = vec![
            "xtask".into(),
            "diff".into(),
            dir.join("old").into(),
            dir.join("new").into(),
        ];
        if deny {
            args.push("--deny-warnings".into());
        }
        xtask::run(args)
    };
    assert_eq!(run(false), std::process::ExitCode::from(0));
    assert_eq!(run(true), std::process::ExitCode::from(xtask::EXIT_FAILURE));
}

/// The Rust files regen writes into `out` (by path under `src/`), as the API reads them: no
/// comments (the header, rustdoc) and no text inside string literals (the docs' prose quoted in
/// messages), so what is left is every item, name, type and value.
fn rust_api_of(out: &Path) -> std::collections::BTreeMap<String, String> {
    let strings = regex::Regex::new(r#""(?:[^"\\]|\\.)*""#).unwrap();
    let mut files = std::collections::BTreeMap::new();
    let mut dirs = vec![out.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code: Vec<String> = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .map(|l| strings.replace_all(l, "\"\"").into_owned())
                    .collect();
                let rel = path
                    .strip_prefix(out)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(rel, code.join("\n"));
            }
        }
    }
    files
}

/// The crates regen writes from a case's old and new docs (each with its own `regen.toml`).
fn regen_both(name: &str) -> (tempfile::TempDir, tempfile::TempDir) {
    let dir = case(name);
    let (old, new) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(xtask::regen(&dir.join("old"), old.path(), false), 0);
    assert_eq!(xtask::regen(&dir.join("new"), new.path(), false), 0);
    (old, new)
}

/// A bit range's summary and two values' descriptions reworded, their names pinned in each
/// side's `regen.toml`: the diff says wording only, and the generated API is the same to the
/// byte (only docs and quoted prose differ).
#[test]
fn a_reworded_description_renames_nothing() {
    check("reworded");
    let dir = case("reworded");
    let report = xtask::diff_dirs(&dir.join("old"), &dir.join("new")).unwrap();
    assert!(!report.breaking);
    let (old, new) = regen_both("reworded");
    let module = "src/generated/block_put.rs";
    let raw = |d: &Path| std::fs::read_to_string(d.join(module)).unwrap();
    // The prose reaches the crate's docs...
    assert!(raw(old.path()).contains("/// Bit[2..0]: Number of blocks to write"));
    assert!(raw(new.path()).contains("/// Bit[2..0]: How many blocks are written"));
    // ...and the names are the pins', on both sides.
    for d in [old.path(), new.path()] {
        let text = raw(d);
        assert!(
            text.contains("pub number_of_blocks: SizeNumberOfBlocks,"),
            "{text}"
        );
        assert!(text.contains("    WriteBack = 0x0,\n"), "{text}");
        assert!(text.contains("    WriteThrough = 0x1,\n"), "{text}");
    }
    let (a, b) = (rust_api_of(old.path()), rust_api_of(new.path()));
    assert!(a.contains_key(module) && a.len() > 5, "{:?}", a.keys());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, code) in &a {
        assert!(
            code == &b[path],
            "{path} differs beyond docs and quoted prose"
        );
    }
}

/// A value removed breaks, pinned or not (its pin then names nothing, which is harmless).
#[test]
fn a_removed_value_breaks() {
    check("value_removed");
}

/// A doc added whose `Mode` is identical to an existing doc's: the enum becomes shared
/// (`enums::Mode`), and the existing doc's module still names it, with the same variants; the
/// diff says so without breaking (only the new instruction's `Execute` method breaks).
#[test]
fn a_doc_sharing_an_enum_moves_no_name_of_another_doc() {
    check("shared");
    let (old, new) = regen_both("shared");
    let read =
        |d: &Path, f: &str| std::fs::read_to_string(d.join("src/generated").join(f)).unwrap();
    let before = read(old.path(), "block_put.rs");
    let after = read(new.path(), "block_put.rs");
    assert!(before.contains("pub enum Mode {"), "{before}");
    assert!(!after.contains("pub enum Mode {"), "{after}");
    assert!(after.contains("pub use super::enums::Mode;\n"), "{after}");
    assert!(after.contains("pub mode: Mode,"), "{after}");
    let shared = read(new.path(), "enums.rs");
    assert!(shared.contains("pub enum Mode {"), "{shared}");
    assert!(shared.contains("    WriteBack = 0x0,\n"), "{shared}");
    assert!(shared.contains("    WriteThrough = 0x1,\n"), "{shared}");
    assert!(read(new.path(), "block_get.rs").contains("pub use super::enums::Mode;\n"));
}
