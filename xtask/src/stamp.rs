//! Regen's no-op path: a stamp in the output directory records what the last regen read (a key
//! over the generator's identity, the options and every input's name and bytes) and what it
//! wrote (each file's length and modification time). When the key and every file still match,
//! nothing can have changed and regen stops before parsing. Any other case regenerates: a
//! changed doc, erratum, chapter, option or generator changes the key; a generated file edited
//! or removed by hand changes its length or time. The stamp is a cache, never a source: losing
//! it only costs one full regen. It also keeps what the regen reported (its diagnostics and the
//! errata it applied, as JSON on its second line), so a regen that stops early says what a full
//! one says.

use codegen::parse::SourceFile;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hasher};
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
        Update::Replace(bytes) => std::fs::write(out.join(CACHE), bytes),
    }
}

/// The generator's identity: a hash of its sources (see `xtask/build.rs`).
pub const GENERATOR: &str = env!("VISA_GENERATOR_ID");

/// A key over everything a regen's output depends on. Two hashes with different prefixes make
/// an accidental collision beyond reach.
pub fn key(generator: &str, options: &[&str], inputs: &[&SourceFile]) -> String {
    let mut halves = [DefaultHasher::new(), DefaultHasher::new()];
    for (i, h) in halves.iter_mut().enumerate() {
        h.write_usize(i);
        h.write(generator.as_bytes());
        for o in options {
            h.write_usize(o.len());
            h.write(o.as_bytes());
        }
        for f in inputs {
            h.write_usize(f.name.len());
            h.write(f.name.as_bytes());
            h.write_usize(f.bytes.len());
            h.write(&f.bytes);
        }
    }
    format!("{:016x}{:016x}", halves[0].finish(), halves[1].finish())
}

/// Length and modification time (ns since the epoch) of `path`.
fn signature(path: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::metadata(path).ok()?;
    let time = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some((meta.len(), time.as_nanos()))
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

/// How many files the last regen into `out` wrote and what it reported, if it had this `key`
/// and every one of its files is as it left them.
pub fn fresh(out: &Path, key: &str) -> Option<(usize, Reported)> {
    let text = std::fs::read_to_string(out.join(FILE)).ok()?;
    let mut lines = text.lines();
    if lines.next()? != key {
        return None;
    }
    let reported: Reported = serde_json::from_str(lines.next()?.strip_prefix(REPORTED)?).ok()?;
    let mut n = 0;
    for line in lines {
        let mut parts = line.rsplitn(3, ' ');
        let time: u128 = parts.next()?.parse().ok()?;
        let len: u64 = parts.next()?.parse().ok()?;
        let path = parts.next()?;
        if signature(&out.join(path))? != (len, time) {
            return None;
        }
        n += 1;
    }
    (n > 0).then_some((n, reported))
}

/// Records `key`, what the regen reported and the current signature of every file of `files`
/// in `out`.
pub fn record(
    out: &Path,
    key: &str,
    reported: &Reported,
    files: &BTreeMap<String, String>,
) -> std::io::Result<()> {
    let json = serde_json::to_string(reported).map_err(std::io::Error::other)?;
    let mut text = format!("{key}\n{REPORTED}{json}\n");
    for path in files.keys() {
        let (len, time) = signature(&out.join(path))
            .ok_or_else(|| std::io::Error::other(format!("{path} was not written")))?;
        text.push_str(&format!("{path} {len} {time}\n"));
    }
    std::fs::write(out.join(FILE), text)
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

    #[test]
    fn a_file_touched_or_removed_after_the_regen_is_not_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = BTreeMap::new();
        files.insert("src/a.rs".to_string(), "x".to_string());
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.rs"), "x").unwrap();
        let reported = Reported {
            diagnostics: vec![codegen::diag::Diagnostic::new(
                codegen::diag::Code::NothingReadable,
                "A.md",
                Default::default(),
                "a message\nof two lines",
            )],
            errata: Vec::new(),
        };
        record(dir.path(), "k", &reported, &files).unwrap();
        assert_eq!(fresh(dir.path(), "k"), Some((1, reported.clone())));
        assert_eq!(fresh(dir.path(), "other key"), None);
        std::fs::write(dir.path().join("src/a.rs"), "xy").unwrap();
        assert_eq!(fresh(dir.path(), "k"), None, "edited by hand");
        record(dir.path(), "k", &reported, &files).unwrap();
        assert!(fresh(dir.path(), "k").is_some(), "recorded again");
        let stamp = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        let without: Vec<&str> = stamp.lines().filter(|l| !l.starts_with(REPORTED)).collect();
        std::fs::write(dir.path().join(FILE), without.join("\n")).unwrap();
        assert_eq!(
            fresh(dir.path(), "k"),
            None,
            "a stamp without what was reported"
        );
        std::fs::remove_file(dir.path().join("src/a.rs")).unwrap();
        assert_eq!(fresh(dir.path(), "k"), None, "removed");
        std::fs::write(dir.path().join(FILE), "garbage").unwrap();
        assert_eq!(fresh(dir.path(), "k"), None, "an unreadable stamp");
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
