//! Regen's no-op path: a stamp in the output directory records what the last regen read (a key
//! over the generator's identity, the options and every input's name and bytes) and what it
//! left (each file's metadata and content hash, `crate::trust`). When the key and every file
//! still match, nothing can have changed and regen stops before parsing. Any other case
//! regenerates: a changed doc, erratum, chapter, option or generator changes the key; a
//! generated file edited or removed by hand changes its metadata. The stamp is a cache, never a
//! source: losing it only costs one regen that compares every file by content. It also keeps
//! what the regen reported (its diagnostics and the errata it applied, as JSON on its second
//! line), so a regen that stops early says what a full one says.
//!
//! Layout: the key; `reported ` and the JSON; `rendered ` and a JSON list of each diagnostic's
//! key, the checksum of its text and its text as rendered; `trust ` and the generator's identity; one line per file the
//! regen left (`crate::trust::Trust::line`).

use crate::trust::{Kind, Sig, Trust};
use codegen::parse::SourceFile;
use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::Path;
use std::time::UNIX_EPOCH;

/// The stamp's file name in the output directory (ignored by git).
pub const FILE: &str = ".regen-stamp";

/// The render cache's file name in the output directory (ignored by git): what the last regen
/// rendered, by a hash of its inputs (`codegen::emit::cache`), so that a regen after a small
/// change renders only what the change reaches. A cache, never a source: any content gives the
/// same output.
pub const CACHE: &str = ".regen-cache";

/// Writes the render cache of a regen into `out`: as it was, with the entries the regen made
/// appended, or anew (`codegen::emit::cache::run`).
pub fn write_cache(out: &Path, update: codegen::emit::cache::Update) -> std::io::Result<()> {
    use codegen::emit::cache::Update;
    match update {
        Update::Keep => Ok(()),
        Update::Append(tail) => {
            use std::io::Write;
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(out.join(CACHE))?;
            file.write_all(&tail)
        }
        Update::Replace(bytes) => write_anew(&out.join(CACHE), &bytes),
    }
}

/// Removes the file at `path`, if there is one.
pub(crate) fn remove_if_exists(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Writes `bytes` as a new file at `path` (the old one removed first), not truncating the old
/// one: ext4 (`auto_da_alloc`) writes a file truncated and written again to disk when it is
/// closed, which costs milliseconds of waiting. For the stamp and the cache only: caches, which
/// a crash can leave empty or cut, at the cost of the next regen's shortcuts, never its output.
fn write_anew(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    remove_if_exists(path)?;
    std::fs::write(path, bytes)
}

/// The generator's identity: a hash of its sources (see `xtask/build.rs`).
pub const GENERATOR: &str = env!("VISA_GENERATOR_ID");

/// A key over everything a regen's output depends on: XXH3 128 of the generator, the options
/// and each input's name and bytes, each length-prefixed.
pub fn key(generator: &str, options: &[&str], inputs: &[&SourceFile]) -> String {
    let mut h = twox_hash::XxHash3_128::new();
    let mut part = |bytes: &[u8]| {
        h.write(&(bytes.len() as u64).to_le_bytes());
        h.write(bytes);
    };
    part(generator.as_bytes());
    for o in options {
        part(o.as_bytes());
    }
    for f in inputs {
        part(f.name.as_bytes());
        part(&f.bytes);
    }
    format!("{:032x}", h.finish_128())
}

/// What the last regen into `out` reported, kept in its stamp: the diagnostics, then the errata
/// it applied.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Reported {
    /// Whole, spans included: they are printed again as they were.
    #[serde(with = "codegen::diag::whole")]
    pub diagnostics: Vec<codegen::diag::Diagnostic>,
    pub errata: Vec<codegen::schema::Erratum>,
}

/// The stamp's line of what was reported.
const REPORTED: &str = "reported ";

/// The stamp's line of the diagnostics as rendered.
const RENDERED: &str = "rendered ";

/// Diagnostics as a regen rendered them (codespan's excerpts), kept in the stamp so that the
/// next regen prints again without rendering each diagnostic whose key is the same.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Rendered {
    /// Each diagnostic's key ([`Rendered::key`]) and text, in the order printed.
    pub pieces: Vec<(u128, String)>,
}

impl Rendered {
    /// The hash of a file a diagnostic quotes: its name and bytes.
    pub fn file_hash(file: &SourceFile) -> u128 {
        let mut h = twox_hash::XxHash3_128::new();
        h.write(&(file.name.len() as u64).to_le_bytes());
        h.write(file.name.as_bytes());
        h.write(&file.bytes);
        h.finish_128()
    }

    /// The key of one diagnostic's rendering: XXH3 128 of the generator (its renderer), the
    /// diagnostic whole, and the hash of the file it quotes (`None`: no such file).
    pub fn key(diagnostic: &codegen::diag::Diagnostic, file: Option<u128>) -> u128 {
        let mut h = twox_hash::XxHash3_128::new();
        h.write(&(GENERATOR.len() as u64).to_le_bytes());
        h.write(GENERATOR.as_bytes());
        h.write(format!("{diagnostic:?}").as_bytes());
        h.write(&file.unwrap_or(0).to_le_bytes());
        h.write(&[u8::from(file.is_some())]);
        h.finish_128()
    }
}

/// The stamp's line before the files it trusts (`crate::trust`), naming the generator that
/// recorded them: a record of another generator is not read.
const TRUST: &str = "trust ";

/// The stamp of an output directory as read at the start of a regen: its text and its own
/// modification time, the moment its record of files was written.
#[derive(Clone, Debug, Default)]
pub struct Stamp {
    text: String,
    since: u128,
}

impl Stamp {
    /// The stamp of `out`; empty (it trusts nothing and is fresh for no key) when there is none
    /// or it cannot be read.
    pub fn load(out: &Path) -> Stamp {
        use std::io::Read;
        let read = || -> std::io::Result<Stamp> {
            let mut file = std::fs::File::open(out.join(FILE))?;
            let meta = file.metadata()?;
            let since = meta.modified()?.duration_since(UNIX_EPOCH);
            let mut text = String::with_capacity(meta.len() as usize);
            file.read_to_string(&mut text)?;
            let since = since.map_err(std::io::Error::other)?.as_nanos();
            Ok(Stamp { text, since })
        };
        read().unwrap_or_default()
    }

    /// The diagnostics as the last regen rendered them, if it recorded them.
    pub fn rendered(&self) -> Option<Rendered> {
        let line = self.text.lines().nth(2)?.strip_prefix(RENDERED)?;
        let pieces: Vec<(String, String, String)> = serde_json::from_str(line).ok()?;
        // A piece whose text is not the one recorded (damaged) is dropped: rendered again.
        let whole = |(k, check, t): (String, String, String)| {
            let ok = u128::from_str_radix(&check, 16).ok()? == crate::trust::hash(t.as_bytes());
            ok.then_some((u128::from_str_radix(&k, 16).ok()?, t))
        };
        let pieces = pieces.into_iter().filter_map(whole).collect();
        Some(Rendered { pieces })
    }

    /// The files the stamp trusts, when the generator that wrote it is this one.
    pub fn trust(&self) -> Trust {
        let mut parts = self.text.splitn(5, '\n');
        let ours = parts.nth(3).and_then(|l| l.strip_prefix(TRUST)) == Some(GENERATOR);
        match parts.next() {
            Some(files) if ours => Trust::parse(files, self.since),
            _ => Trust::none(),
        }
    }

    /// How many files the last regen wrote and what it reported, if it had this `key` and each
    /// of its generated files is as it left them: trusted by `trust`, or (modified in the tick
    /// the stamp was written) holding the recorded content.
    pub fn fresh(&self, out: &Path, key: &str, trust: &Trust) -> Option<(usize, Reported)> {
        let mut lines = self.text.lines();
        if lines.next()? != key {
            return None;
        }
        let reported: Reported =
            serde_json::from_str(lines.next()?.strip_prefix(REPORTED)?).ok()?;
        let files = trust.files(Kind::Out);
        for (path, entry) in &files {
            let file = out.join(path);
            let sig = Sig::at(&file);
            if trust.trusted(Kind::Out, path, sig).is_some() {
                continue;
            }
            // Racy (see `crate::trust`): the same file still, holding the recorded content.
            let same = sig == Some(entry.sig)
                && std::fs::read(&file).is_ok_and(|b| crate::trust::hash(&b) == entry.hash);
            if !same {
                return None;
            }
        }
        (!files.is_empty()).then_some((files.len(), reported))
    }
}

/// Records in `out`'s stamp the `key`, what the regen reported, how it rendered its
/// diagnostics and the `files` it trusts from now on (their lines,
/// `crate::trust::Trust::line`).
pub fn record(
    out: &Path,
    key: &str,
    reported: &Reported,
    rendered: Option<&Rendered>,
    files: &str,
) -> std::io::Result<()> {
    record_head(out, key, &head(reported, rendered)?, files)
}

/// The stamp's lines after its key and before its files: what the regen reported and how it
/// rendered it. They do not depend on what was written, so regen makes them while it writes.
pub fn head(reported: &Reported, rendered: Option<&Rendered>) -> std::io::Result<String> {
    let json = serde_json::to_string(reported).map_err(std::io::Error::other)?;
    fn piece((k, t): &(u128, String)) -> (String, String, &str) {
        let check = crate::trust::hash(t.as_bytes());
        (format!("{k:032x}"), format!("{check:032x}"), t.as_str())
    }
    let pieces: Vec<_> = rendered
        .map(|r| r.pieces.iter().map(piece).collect())
        .unwrap_or_default();
    let rendered = serde_json::to_string(&pieces).map_err(std::io::Error::other)?;
    Ok(format!(
        "{REPORTED}{json}\n{RENDERED}{rendered}\n{TRUST}{GENERATOR}\n"
    ))
}

/// [`record`] with its [`head`] made already.
pub fn record_head(out: &Path, key: &str, head: &str, files: &str) -> std::io::Result<()> {
    let mut text = String::with_capacity(key.len() + head.len() + files.len() + 1);
    text.push_str(key);
    text.push('\n');
    text.push_str(head);
    text.push_str(files);
    write_anew(&out.join(FILE), text.as_bytes())
}

/// The record of the hand-written runtime files regen copied into an output crate: a comment
/// line, then `path hash` per file (the FNV-1a 64 of its content, in hex). Never written into
/// the workspace's own `generated/`, which is the runtime.
/// Unlike the stamp it is a source, not a cache: it is how regen tells a runtime file it wrote
/// from one the user added, so that it removes the first once the workspace's runtime no longer
/// has it, and never touches the second (`scaffold::stale_runtime`). Kept apart from the stamp,
/// so losing the stamp still costs only a full regen.
pub const RUNTIME: &str = ".regen-runtime";

const RUNTIME_HEADER: &str =
    "# runtime files `cargo xtask regen` copied into this crate: path, FNV-1a 64 of the content";

/// The content hash of the runtime record: FNV-1a 64, fixed by its definition (unlike std's
/// hasher), so a record stays readable by every later build of regen.
pub fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    h.finish()
}

/// The runtime record of `out`, `None` when it has none (a crate an older regen wrote, or the
/// record was deleted). A line that cannot be read is skipped: it proves nothing regen wrote.
pub fn read_runtime(out: &Path) -> std::io::Result<Option<BTreeMap<String, u64>>> {
    let text = match std::fs::read_to_string(out.join(RUNTIME)) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let entry = |line: &str| {
        let (path, hash) = line.rsplit_once(' ')?;
        Some((path.to_string(), u64::from_str_radix(hash, 16).ok()?))
    };
    let lines = text.lines().filter(|l| !l.starts_with('#'));
    Ok(Some(lines.filter_map(entry).collect()))
}

/// Records `files` (path and content hash) as the runtime files regen copied into `out`;
/// writes only when the record changes.
pub fn record_runtime(out: &Path, files: &BTreeMap<String, u64>) -> std::io::Result<()> {
    let mut text = format!("{RUNTIME_HEADER}\n");
    for (path, hash) in files {
        text.push_str(&format!("{path} {hash:016x}\n"));
    }
    match std::fs::read_to_string(out.join(RUNTIME)) {
        Ok(old) if old == text => Ok(()),
        // A source, written only when it changes: ext4 keeps it whole through a crash.
        _ => std::fs::write(out.join(RUNTIME), text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, bytes: &[u8]) -> SourceFile {
        SourceFile {
            name: name.into(),
            bytes: bytes.to_vec(),
        }
    }

    #[test]
    fn the_key_changes_with_every_input() {
        let a = doc("A.md", b"## Opcode\n");
        let base = key("g1", &["spec"], &[&a]);
        assert_eq!(base, key("g1", &["spec"], &[&a]), "deterministic");
        assert_ne!(base, key("g2", &["spec"], &[&a]), "generator");
        assert_ne!(base, key("g1", &["other"], &[&a]), "options");
        assert_ne!(
            base,
            key("g1", &["spec"], &[&doc("A.md", b"## Opcode\n ")]),
            "a byte"
        );
        assert_ne!(
            base,
            key("g1", &["spec"], &[&doc("B.md", b"## Opcode\n")]),
            "a name"
        );
        let e = doc("errata/A.patch", b"x");
        assert_ne!(base, key("g1", &["spec"], &[&a, &e]), "an erratum");
        // Names and bytes are length-prefixed: moving a byte between them changes the key.
        assert_ne!(
            key("g", &[], &[&doc("ab", b"c")]),
            key("g", &[], &[&doc("a", b"bc")])
        );
    }

    /// Sets the modification time of `path` (which changes its change time).
    fn set_mtime(path: &Path, t: std::time::SystemTime) {
        let f = std::fs::File::options().write(true).open(path).unwrap();
        f.set_modified(t).unwrap();
    }

    /// The stamp's line of `path` in `dir` as it is now, recorded as holding `bytes`.
    fn line(dir: &Path, path: &str, bytes: &[u8]) -> String {
        let sig = Sig::at(&dir.join(path)).unwrap();
        let hash = crate::trust::hash(bytes);
        Trust::line(Kind::Out, path, &crate::trust::Entry { sig, hash })
    }

    fn fresh(dir: &Path, key: &str) -> Option<(usize, Reported)> {
        let stamp = Stamp::load(dir);
        stamp.fresh(dir, key, &stamp.trust())
    }

    #[test]
    fn a_file_touched_or_removed_after_the_regen_is_not_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let a = d.join("src/a.rs");
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::write(&a, "x").unwrap();
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        set_mtime(&a, hour_ago);
        let reported = Reported {
            diagnostics: vec![codegen::diag::Diagnostic::new(
                codegen::diag::Code::NothingReadable,
                "A.md",
                Default::default(),
                "a message\nof two lines",
            )],
            errata: Vec::new(),
        };
        record(d, "k", &reported, None, &line(d, "src/a.rs", b"x")).unwrap();
        assert_eq!(fresh(d, "k"), Some((1, reported.clone())));
        assert_eq!(Stamp::load(d).trust().count(Kind::Out), 1);
        assert_eq!(fresh(d, "other key"), None);
        std::fs::write(&a, "y").unwrap();
        assert_eq!(fresh(d, "k"), None, "edited by hand, same length");
        record(d, "k", &reported, None, &line(d, "src/a.rs", b"y")).unwrap();
        assert!(
            fresh(d, "k").is_some(),
            "recorded again (racy: compared by content)"
        );
        // A record that says the file holds what it does not: trusted while the file is older
        // than the stamp (the documented limit), compared by content when it is not.
        record(d, "k", &reported, None, &line(d, "src/a.rs", b"z")).unwrap();
        let stamp_time = std::fs::metadata(d.join(FILE)).unwrap().modified().unwrap();
        let file_time = std::fs::metadata(&a).unwrap().modified().unwrap();
        set_mtime(&d.join(FILE), file_time);
        assert_eq!(fresh(d, "k"), None, "racy: compared by content");
        set_mtime(
            &d.join(FILE),
            stamp_time.max(file_time) + std::time::Duration::from_secs(1),
        );
        assert!(fresh(d, "k").is_some(), "older than the stamp: trusted");
        // Another generator's record is not read.
        let text = std::fs::read_to_string(d.join(FILE)).unwrap();
        let other = text.replace(&format!("{TRUST}{GENERATOR}"), &format!("{TRUST}other"));
        std::fs::write(d.join(FILE), other).unwrap();
        assert!(Stamp::load(d).trust().is_empty());
        assert_eq!(fresh(d, "k"), None);
        record(d, "k", &reported, None, &line(d, "src/a.rs", b"y")).unwrap();
        let stamp = std::fs::read_to_string(d.join(FILE)).unwrap();
        let without: Vec<&str> = stamp.lines().filter(|l| !l.starts_with(REPORTED)).collect();
        std::fs::write(d.join(FILE), without.join("\n")).unwrap();
        assert_eq!(fresh(d, "k"), None, "a stamp without what was reported");
        record(d, "k", &reported, None, &line(d, "src/a.rs", b"y")).unwrap();
        std::fs::remove_file(&a).unwrap();
        assert_eq!(fresh(d, "k"), None, "removed");
        std::fs::write(d.join(FILE), "garbage").unwrap();
        assert_eq!(fresh(d, "k"), None, "an unreadable stamp");
        assert!(Stamp::load(d).trust().is_empty());
    }

    #[test]
    fn renderings_read_back_and_a_damaged_one_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let reported = Reported {
            diagnostics: Vec::new(),
            errata: Vec::new(),
        };
        let rendered = Rendered {
            pieces: vec![
                (1, "warning: a\n".into()),
                (u128::MAX, "warning: \"b\"\n".into()),
            ],
        };
        record(d, "k", &reported, Some(&rendered), "").unwrap();
        assert_eq!(Stamp::load(d).rendered(), Some(rendered.clone()));
        let text = std::fs::read_to_string(d.join(FILE)).unwrap();
        std::fs::write(d.join(FILE), text.replace("warning: a", "warning: A")).unwrap();
        let kept = Stamp::load(d).rendered().unwrap();
        assert_eq!(
            kept.pieces,
            rendered.pieces[1..],
            "the damaged piece is dropped"
        );
        record(d, "k", &reported, None, "").unwrap();
        assert_eq!(Stamp::load(d).rendered(), Some(Rendered::default()));
    }

    #[test]
    fn the_runtime_record_hashes_with_fnv_1a_64_and_reads_back() {
        // The published FNV-1a 64 test vectors: a record written today reads the same forever.
        assert_eq!(content_hash(b""), 0xcbf29ce484222325);
        assert_eq!(content_hash(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(content_hash(b"foobar"), 0x85944171f73967e8);
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_runtime(dir.path()).unwrap(), None, "no record");
        let files = BTreeMap::from([
            ("src/lib.rs".to_string(), 0x85944171f73967e8),
            ("src/runtime/a b.rs".to_string(), 7),
        ]);
        record_runtime(dir.path(), &files).unwrap();
        let text = std::fs::read_to_string(dir.path().join(RUNTIME)).unwrap();
        assert!(
            text.ends_with("\nsrc/lib.rs 85944171f73967e8\nsrc/runtime/a b.rs 0000000000000007\n"),
            "{text}"
        );
        assert_eq!(read_runtime(dir.path()).unwrap(), Some(files));
        std::fs::write(
            dir.path().join(RUNTIME),
            "# x\nno-hash\nsrc/a.rs zz\nsrc/b.rs 1f\n",
        )
        .unwrap();
        assert_eq!(
            read_runtime(dir.path()).unwrap(),
            Some(BTreeMap::from([("src/b.rs".to_string(), 0x1f)])),
            "unreadable lines skipped"
        );
    }
}
