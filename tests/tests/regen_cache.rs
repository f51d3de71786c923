//! Regen's render cache (`<out>/.regen-cache`, `codegen::emit::cache`): a regen after a change
//! re-renders only what the change reaches, and its output is byte for byte a full regen's,
//! whatever the cache holds (nothing, a stale cache of other docs, a damaged file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Every file under `dir` but the stamp and the cache, by relative path.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                if rel != xtask::stamp::FILE && rel != xtask::stamp::CACHE {
                    out.insert(rel, std::fs::read(&p).unwrap());
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} lacks {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A full regen of `spec` into a new directory: no cache.
fn full(spec: &Path) -> BTreeMap<String, Vec<u8>> {
    let out = tempfile::tempdir().unwrap();
    assert_eq!(xtask::regen(spec, out.path(), false), 0);
    tree(out.path())
}

#[test]
fn a_cached_regen_after_each_kind_of_change_equals_a_full_regen() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("spec");
    copy_dir(&workspace().join("spec"), &spec);
    let out = work.path().join("out");
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    assert!(out.join(xtask::stamp::CACHE).is_file(), "the cache is kept");
    // Wording of one doc, then a value of another (its module, enums, text and pages change).
    edit(
        &spec.join("OWORD_ST.md"),
        "Writes contiguous owords",
        "Writes owords",
    );
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    assert_eq!(tree(&out), full(&spec), "after a wording change");
    let gs = std::fs::read_to_string(spec.join("GATHER_SCALED.md")).unwrap();
    let doc = gs.replacen("## Semantics", "## Semantics\n\n    (changed)\n", 1);
    std::fs::write(spec.join("GATHER_SCALED.md"), doc).unwrap();
    edit(
        &spec.join("OWORD_ST.md"),
        "**Surface(ub):**",
        "**Surface(uw):**",
    );
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    assert_eq!(tree(&out), full(&spec), "after a retyped field");
}

#[test]
fn a_damaged_or_stale_cache_changes_no_byte() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("spec");
    copy_dir(&workspace().join("spec"), &spec);
    let out = work.path().join("out");
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    let expected = full(&spec);
    let cache = std::fs::read(out.join(xtask::stamp::CACHE)).unwrap();
    assert!(cache.len() > 1000, "{} bytes", cache.len());
    let stamp = out.join(xtask::stamp::FILE);
    let mut damaged = cache.clone();
    let mid = damaged.len() / 2;
    damaged[mid] ^= 0x20;
    // A stale cache: the one a regen of other docs left.
    let other = tempfile::tempdir().unwrap();
    let diff_old = workspace().join("tests/specs/diff/values/old");
    assert_eq!(xtask::regen(&diff_old, other.path(), false), 0);
    let stale = std::fs::read(other.path().join(xtask::stamp::CACHE)).unwrap();
    for (what, bytes) in [
        ("a flipped byte", damaged),
        ("cut in half", cache[..cache.len() / 2].to_vec()),
        ("garbage", b"visa-regen-cache v1 x\n\xff\xff".to_vec()),
        ("another spec's cache", stale),
    ] {
        std::fs::write(out.join(xtask::stamp::CACHE), bytes).unwrap();
        // Without the stamp the regen runs in full (with this cache) instead of stopping early.
        std::fs::remove_file(&stamp).unwrap();
        // A file edited so the writer has something to rewrite from the cache's output.
        std::fs::write(out.join("src/generated/oword_st.rs"), "// @generated\n").unwrap();
        assert_eq!(xtask::regen(&spec, &out, false), 0, "{what}");
        assert_eq!(tree(&out), expected, "{what}");
    }
}

/// An edit of the spec: what it is, what it does, and the shared files it must change.
type Step<'a> = (&'a str, &'a dyn Fn(), &'a [&'a str]);

/// A sequence of spec edits, each regenerated into the same crate with the cache the regen
/// before left, and each compared with a full regen of the same docs into an empty dir: a doc
/// added, one changed, one removed, an erratum changed, a doc's semantics made readable and
/// changed, an erratum added, one made obsolete by its doc, a chapter changed, an opcode, a
/// template and an operand's types changed. Every edit must reach the output (else the
/// comparison would prove nothing), and the shared files it names (those that span every doc,
/// made of each instruction's pieces: its dispatch arms, lane function, operand lists, printers
/// and parsers); after each one the cached regen gives the bytes of the full one, re-emitted
/// files and the others alike.
#[test]
fn a_sequence_of_edits_regenerates_with_the_cache_as_without() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("spec");
    copy_dir(&workspace().join("spec"), &spec);
    let out = work.path().join("out");
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    let odd = workspace().join("tests/specs");
    let (top, text, semantics, operands) = (
        "src/generated/mod.rs",
        "src/generated/text.rs",
        "src/generated/semantics.rs",
        "src/generated/operands.rs",
    );
    // What each step does, and the shared files it must change.
    let steps: [Step; 14] = [
        (
            "a doc added",
            &|| {
                std::fs::copy(odd.join("counted/SWITCHJMP.md"), spec.join("SWITCHJMP.md")).unwrap();
            },
            &[top, text, semantics, operands],
        ),
        (
            "another doc added",
            &|| {
                std::fs::copy(odd.join("odd/TWO_FORMS.md"), spec.join("TWO_FORMS.md")).unwrap();
            },
            &[top, text, semantics, operands],
        ),
        (
            "a value renamed",
            &|| edit(&spec.join("OWORD_ST.md"), "8 owords", "8 owords, edited"),
            &[],
        ),
        (
            "a doc removed",
            &|| {
                std::fs::remove_file(spec.join("GATHER_SCALED.md")).unwrap();
            },
            &[top, text, semantics, operands],
        ),
        (
            "an erratum changed",
            &|| {
                edit(
                    &spec.join("errata/QW_SCATTER-num-blocks-2-4.patch"),
                    "+    - 0b10:  4 blocks",
                    "+    - 0b10:  4 blocks each",
                )
            },
            &[],
        ),
        (
            "a doc with unreadable semantics added",
            &|| {
                let doc = odd.join("degrade/BAD_SEMANTICS.md");
                std::fs::copy(doc, spec.join("BAD_SEMANTICS.md")).unwrap();
            },
            &[top, semantics],
        ),
        (
            "its semantics made readable",
            &|| {
                edit(
                    &spec.join("BAD_SEMANTICS.md"),
                    "        dst[i] = src0[i];\n",
                    "        dst[i] = src0[i];\n      }\n",
                )
            },
            &[semantics],
        ),
        (
            "its semantics changed",
            &|| {
                edit(
                    &spec.join("BAD_SEMANTICS.md"),
                    "dst[i] = src0[i];",
                    "dst[i] = src0[i] + src0[i];",
                )
            },
            &[semantics],
        ),
        (
            "an opcode changed: its decoder arms",
            &|| {
                edit(
                    &spec.join("OWORD_ST.md"),
                    "OWORD_ST = 0x36",
                    "OWORD_ST = 0x37",
                );
                edit(
                    &spec.join("OWORD_ST.md"),
                    "| 0x36(OWORD_ST)",
                    "| 0x37(OWORD_ST)",
                );
            },
            &[top],
        ),
        (
            "a template changed: its print arm and parsers",
            &|| {
                edit(
                    &spec.join("OWORD_ST.md"),
                    "OWORD_ST (<size>) <surface> <offset> <src>",
                    "OWORD_ST (<size>) <surface> <src> <offset>",
                )
            },
            &[text],
        ),
        (
            "an operand's types changed",
            &|| {
                edit(
                    &spec.join("OWORD_ST.md"),
                    "owords. Must have type UD",
                    "owords. Must have type UD, D",
                )
            },
            &[operands],
        ),
        (
            "an erratum added",
            &|| {
                let patch = "Erratum: OWORD_ST: a test erratum\nDoc says: contiguous\nIntel does: \
                         nothing; a test\nEvidence: none\n\n--- a/OWORD_ST.md\n+++ b/OWORD_ST.md\n\
                         @@ -50,1 +50,1 @@\n-    Writes contiguous owords (one oword is 16 byte) to \
                         <surface> starting at <offset>, taking the values from <Src>. The execution \
                         mask is set to 'NoMask' (i.e., every element is written to).\n+    Writes \
                         owords, corrected.\n";
                std::fs::write(spec.join("errata/OWORD_ST-test.patch"), patch).unwrap();
            },
            &[],
        ),
        (
            "a correction made upstream: its erratum obsolete",
            &|| {
                edit(
                    &spec.join("SCATTER.md"),
                    "SCATTER.<elt_size> <surface>",
                    "SCATTER.<elt_size> (<num_elts>) <surface>",
                )
            },
            &[],
        ),
        (
            "a chapter changed",
            &|| {
                edit(
                    &spec.join("chapters/4_visa_header.md"),
                    // A line more: the records after it are quoted at other lines.
                    "once declared its location is fixed.",
                    "once declared its location\nis fixed.",
                )
            },
            &[],
        ),
    ];
    let mut before = tree(&out);
    let cache = || std::fs::read(out.join(xtask::stamp::CACHE)).unwrap();
    let (mut appended, mut rewritten) = (0, 0);
    for (what, step, shared) in steps {
        step();
        let old_cache = cache();
        assert_eq!(xtask::regen(&spec, &out, false), 0, "{what}");
        let cached = tree(&out);
        assert_ne!(cached, before, "{what} changes the output");
        for file in shared {
            assert_ne!(
                cached.get(*file),
                before.get(*file),
                "{what} changes {file}"
            );
        }
        assert_eq!(cached, full(&spec), "{what}");
        before = cached;
        let new_cache = cache();
        if new_cache.len() > old_cache.len() && new_cache.starts_with(&old_cache) {
            appended += 1;
        } else if new_cache != old_cache {
            rewritten += 1;
        }
    }
    // The cache file took both paths: the entries a run made appended to it, and the file
    // written anew once what no run used outweighed what was used.
    assert!(
        appended > 0 && rewritten > 0,
        "{appended} appended, {rewritten} rewritten"
    );
}

/// A doc edited back and forth, as a user tries a change and reverts it, many times: each
/// regen appends the few entries it made, and reuses those of the states before; the output is
/// always a full regen's and the cache file stays within about twice its compact size.
#[test]
fn a_doc_edited_back_and_forth_regenerates_from_an_appended_cache() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("spec");
    copy_dir(&workspace().join("spec"), &spec);
    let out = work.path().join("out");
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    let compact = std::fs::metadata(out.join(xtask::stamp::CACHE))
        .unwrap()
        .len();
    let doc = spec.join("GATHER_SCALED.md");
    let original = std::fs::read_to_string(&doc).unwrap();
    let states = [
        original.clone(),
        original.replacen("## Semantics", "## Semantics\n\n    (changed)\n", 1),
        original.replacen("## Semantics", "## Semantics\n\n    (changed again)\n", 1),
    ];
    let fulls: Vec<_> = states
        .iter()
        .map(|text| {
            std::fs::write(&doc, text).unwrap();
            full(&spec)
        })
        .collect();
    assert!(fulls[0] != fulls[1] && fulls[1] != fulls[2]);
    for round in 0..12 {
        let i = [1, 0, 2, 1, 2, 0][round % 6];
        std::fs::write(&doc, &states[i]).unwrap();
        assert_eq!(xtask::regen(&spec, &out, false), 0);
        assert!(tree(&out) == fulls[i], "round {round}, state {i}");
        let size = std::fs::metadata(out.join(xtask::stamp::CACHE))
            .unwrap()
            .len();
        assert!(
            size <= 2 * compact + compact / 4,
            "{size} against {compact}"
        );
    }
}

/// The lines of an API snapshot by what they are of: `(head)` for the version and platforms,
/// else the doc's file stem.
fn snapshot_lines(text: &[u8]) -> BTreeMap<String, String> {
    let text = std::str::from_utf8(text).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().contains("@generated"));
    let mut by = BTreeMap::from([("(head)".to_string(), lines.next().unwrap().to_string())]);
    for line in lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        by.insert(v["doc"].as_str().unwrap().to_string(), line.to_string());
    }
    by
}

/// The API snapshot regen keeps (each doc's line memoised under what the doc's view reads) is
/// the one a full regen writes, after edits that change a doc's own view, the view of a doc
/// that was not edited (a value set it shared with the edited doc is no longer shared: its type
/// moves out of `enums`), and the crate's platform list; and each edit changes the lines it
/// must and no other.
#[test]
fn the_memoised_api_snapshot_is_a_full_regens() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("spec");
    copy_dir(&workspace().join("spec"), &spec);
    let out = work.path().join("out");
    assert_eq!(xtask::regen(&spec, &out, false), 0);
    let snapshot = codegen::diff::SNAPSHOT;
    let lines_of = |tree: &BTreeMap<String, Vec<u8>>| snapshot_lines(&tree[snapshot]);
    let (gather, oword) = (spec.join("GATHER_SCALED.md"), spec.join("OWORD_ST.md"));
    let steps: [Step; 4] = [
        (
            "a doc's API: a value renamed",
            &|| edit(&oword, "8 owords", "8 owords, edited"),
            &["OWORD_ST"],
        ),
        (
            "a value set no longer shared: the doc that kept it changes too",
            &|| edit(&gather, "0b10:  4 blocks", "0b10:  4 blocks, edited"),
            &["GATHER_SCALED", "QW_SCATTER"],
        ),
        (
            "shared again",
            &|| edit(&gather, "0b10:  4 blocks, edited", "0b10:  4 blocks"),
            &["GATHER_SCALED", "QW_SCATTER"],
        ),
        (
            "a platform named: the crate's platform list",
            &|| edit(&oword, "- 0b010:  4 owords", "- {PVC}0b010:  4 owords"),
            &["(head)", "OWORD_ST"],
        ),
    ];
    let mut before = lines_of(&tree(&out));
    for (what, step, changed) in steps {
        step();
        assert_eq!(xtask::regen(&spec, &out, false), 0, "{what}");
        let cached = tree(&out);
        let want = full(&spec);
        assert!(
            cached[snapshot] == want[snapshot],
            "{what}: the memoised snapshot is not a full regen's"
        );
        assert!(cached == want, "{what}");
        let now = lines_of(&cached);
        let differ: Vec<&str> = now
            .iter()
            .filter(|(k, v)| before.get(*k) != Some(v))
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(differ, changed.to_vec(), "{what}");
        before = now;
    }
    assert!(before["(head)"].contains("\"Pvc\""), "{}", before["(head)"]);
}

/// What the generator returns, comparable: the files, every diagnostic (in order) and the
/// errata applied; or the diagnostics that stopped it.
type Outcome = (
    BTreeMap<String, codegen::emit::Text>,
    Vec<codegen::diag::Diagnostic>,
    Vec<codegen::schema::Erratum>,
);

fn outcome(r: Result<codegen::Generated, Vec<codegen::diag::Diagnostic>>) -> Outcome {
    match r {
        Ok(g) => (g.files, g.diagnostics, g.errata),
        Err(d) => (BTreeMap::new(), d, Vec::new()),
    }
}

/// The memo also holds each doc parsed and each doc's errata applied: with it, cold and then
/// warm, the generator returns what it returns without one, files, diagnostics (parse, errata
/// and analysis warnings, at their places) and errata alike. On the seeds, and when
/// `../shared` is present on both families: the current one with its errata, and 2021 with
/// the current family's errata, which stops at errata no longer applying (stale, obsolete).
#[test]
fn parsing_and_errata_from_the_memo_give_what_they_give_without_it() {
    let root = workspace();
    let seeds = codegen::parse::load_spec(&root.join("spec"), None).unwrap();
    let seed_errata = visa_tests::product_errata(&seeds);
    let mut sets = vec![("spec".to_string(), seeds, seed_errata)];
    for corpus in visa_tests::CORPORA {
        if let Some(dir) = visa_tests::shared(corpus) {
            let (docs, errata) = visa_tests::family_with_errata(&dir, corpus);
            sets.push((corpus.to_string(), docs.clone(), errata));
            if corpus.contains("2021") {
                let (_, current) = visa_tests::family_with_errata(&dir, "current");
                sets.push((format!("{corpus} with the current errata"), docs, current));
            }
        }
    }
    let opts = codegen::emit::Options::default();
    for (what, docs, errata) in &sets {
        let run = || outcome(codegen::generate_corrected(docs, errata, &opts));
        let plain = codegen::emit::cache::without(run);
        let (cold, memo) = codegen::emit::cache::with(b"", "test", run);
        let (warm, again) = codegen::emit::cache::with(&memo, "test", run);
        for (memo, got) in [("cold", &cold), ("warm", &warm)] {
            let differ: Vec<&String> = (plain.0.keys().chain(got.0.keys()))
                .filter(|p| plain.0.get(*p) != got.0.get(*p))
                .collect();
            assert!(
                differ.is_empty(),
                "{what}, {memo} memo: files {differ:?} differ"
            );
            assert_eq!(plain.1, got.1, "{what}, {memo} memo: diagnostics");
            assert_eq!(plain.2, got.2, "{what}, {memo} memo: errata applied");
        }
        // A warm run keeps what it used; a run from that keeps the same (no entry flips).
        let (_, third) = codegen::emit::cache::with(&again, "test", run);
        assert!(again == third, "{what}: a memo from a warm run is stable");
        assert!(memo.len() > again.len() / 2, "{what}: the memo was used");
    }
    assert!(
        sets.iter().any(|(_, _, e)| !e.is_empty()),
        "errata are exercised"
    );
}
