//! What regen trusts of the files it left, git-index style.
//!
//! The stamp (`stamp::FILE`) keeps, for every file a regen wrote or found as it should be (the
//! generated files, the runtime files copied into an `--out` crate and the workspace's runtime
//! they were copied from), its length, modification and change times (ns), inode and content
//! hash as the regen saw them. A file whose metadata is still the same has not been touched
//! since, so it still holds that content: the next regen neither reads nor hashes it. This is
//! evidence, not a cache key (keys stay contents): a file whose metadata changed, or that is
//! missing from the record, is compared by content as before.
//!
//! Racy case (as git's index): a file modified in the same clock tick as the record was written
//! keeps the recorded times. So a file whose modification time is not older than the stamp's
//! own is not trusted. The limit, as git's: an edit that keeps a file's length and inode and
//! restores both its times (the change time can only be set by setting the system clock) is not
//! seen until the file changes again.

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::Path;
use std::time::UNIX_EPOCH;

/// A file's metadata as regen saw it: any change of its content changes at least one of these
/// (but see the module's limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sig {
    pub len: u64,
    /// Modification time, ns since the epoch.
    pub mtime: u128,
    /// Status change time, ns since the epoch (0 where the platform has none).
    pub ctime: u128,
    /// Inode (0 where the platform has none): a file replaced by a copy with the same times is
    /// another inode.
    pub ino: u64,
}

impl Sig {
    /// The signature of a regular file's metadata; `None` for anything else.
    pub fn of(meta: &Metadata) -> Option<Sig> {
        if !meta.is_file() {
            return None;
        }
        let mtime = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        let (ctime, ino) = platform(meta);
        Some(Sig {
            len: meta.len(),
            mtime: mtime.as_nanos(),
            ctime,
            ino,
        })
    }

    /// The signature of the file at `path` (following links), `None` when it is no file.
    pub fn at(path: &Path) -> Option<Sig> {
        Sig::of(&std::fs::metadata(path).ok()?)
    }
}

#[cfg(unix)]
fn platform(meta: &Metadata) -> (u128, u64) {
    use std::os::unix::fs::MetadataExt;
    let ctime = u128::try_from(meta.ctime()).unwrap_or(0) * 1_000_000_000
        + u128::try_from(meta.ctime_nsec()).unwrap_or(0);
    (ctime, meta.ino())
}

#[cfg(not(unix))]
fn platform(_: &Metadata) -> (u128, u64) {
    (0, 0)
}

/// The content hash of a generated file in the record: XXH3 128.
pub fn hash(bytes: &[u8]) -> u128 {
    twox_hash::XxHash3_128::oneshot(bytes)
}

/// What a file held when regen left it: its signature and content hash (XXH3 128 for a
/// generated file, the runtime record's FNV-1a 64 for a runtime file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub sig: Sig,
    pub hash: u128,
}

/// The kinds of files the record trusts, each with its own paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A generated file of the output, by its path in the output.
    Out,
    /// A runtime file regen copied into an `--out` crate, by its path there.
    Runtime,
    /// A file of the workspace's runtime (the template), by its path in the template.
    Template,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Out => "out",
            Kind::Runtime => "runtime",
            Kind::Template => "template",
        }
    }

    fn of_tag(tag: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.tag() == tag)
    }

    const ALL: [Kind; 3] = [Kind::Out, Kind::Runtime, Kind::Template];

    fn index(self) -> usize {
        self as usize
    }
}

/// The files a record trusts, and when it was written.
#[derive(Clone, Debug, Default)]
pub struct Trust {
    /// The record's own modification time (ns): a file modified at or after it is not trusted.
    since: u128,
    /// By kind (`Kind::index`), then path.
    entries: [HashMap<String, Entry>; 3],
    /// Files of the output known to be hand-written this run (`Trust::vouch_hand_written`).
    hand_written: std::collections::HashSet<String>,
}

impl Trust {
    /// Trusts nothing: every file is compared by content.
    pub fn none() -> Trust {
        Trust::default()
    }

    /// The record of the lines of `text` (see [`Trust::line`]), written at `since` (ns). Lines
    /// of anything else are skipped.
    pub fn parse(text: &str, since: u128) -> Trust {
        let mut sizes = [0; 3];
        for kind in text
            .lines()
            .filter_map(|l| Kind::of_tag(l.split(' ').next()?))
        {
            sizes[kind.index()] += 1;
        }
        let mut entries: [HashMap<String, Entry>; 3] = sizes.map(HashMap::with_capacity);
        for ((kind, path), entry) in text.lines().filter_map(parse_line) {
            entries[kind.index()].insert(path, entry);
        }
        Trust {
            since,
            entries,
            hand_written: Default::default(),
        }
    }

    /// Whether nothing is trusted.
    pub fn is_empty(&self) -> bool {
        self.entries.iter().all(HashMap::is_empty)
    }

    /// How many files of `kind` the record names.
    pub fn count(&self, kind: Kind) -> usize {
        self.entries[kind.index()].len()
    }

    /// The recorded entry of `path` if `sig`, the file's signature now, is the recorded one and
    /// the file was modified before the record was written: then it holds the recorded content.
    pub fn trusted(&self, kind: Kind, path: &str, sig: Option<Sig>) -> Option<Entry> {
        let entry = self.entries[kind.index()].get(path)?;
        (Some(entry.sig) == sig && entry.sig.mtime < self.since).then_some(*entry)
    }

    /// Vouches for `paths` of the output being hand-written: this run compared each with the
    /// workspace's runtime file (or copied that file there), so the writer does not look for
    /// its marker.
    pub fn vouch_hand_written(&mut self, paths: impl IntoIterator<Item = String>) {
        self.hand_written.extend(paths);
    }

    /// Whether `path` of the output is hand-written by [`Trust::vouch_hand_written`] or by a
    /// runtime file the record trusts.
    pub fn hand_written(&self, path: &str, sig: impl FnOnce() -> Option<Sig>) -> bool {
        self.hand_written.contains(path) || self.trusted(Kind::Runtime, path, sig()).is_some()
    }

    /// The files of `kind` the record names, with what it says of them.
    pub fn files(&self, kind: Kind) -> Vec<(&str, Entry)> {
        let files = self.entries[kind.index()].iter();
        files.map(|(p, e)| (p.as_str(), *e)).collect()
    }

    /// The recorded entry of `path`, whatever its file looks like now.
    pub fn recorded(&self, kind: Kind, path: &str) -> Option<Entry> {
        self.entries[kind.index()].get(path).copied()
    }

    /// The record's line of one file: `kind len mtime ctime ino hash path`.
    pub fn line(kind: Kind, path: &str, entry: &Entry) -> String {
        let Sig {
            len,
            mtime,
            ctime,
            ino,
        } = entry.sig;
        format!(
            "{} {len} {mtime} {ctime} {ino} {:032x} {path}\n",
            kind.tag(),
            entry.hash
        )
    }
}

fn parse_line(line: &str) -> Option<((Kind, String), Entry)> {
    let mut parts = line.splitn(7, ' ');
    let kind = Kind::of_tag(parts.next()?)?;
    let mut num = || parts.next()?.parse::<u128>().ok();
    let len = u64::try_from(num()?).ok()?;
    let (mtime, ctime) = (num()?, num()?);
    let ino = u64::try_from(num()?).ok()?;
    let hash = u128::from_str_radix(parts.next()?, 16).ok()?;
    let path = parts.next().filter(|p| !p.is_empty())?;
    let sig = Sig {
        len,
        mtime,
        ctime,
        ino,
    };
    Some(((kind, path.to_string()), Entry { sig, hash }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_its_lines_and_trusts_only_unchanged_files_older_than_itself() {
        let sig = Sig {
            len: 3,
            mtime: 100,
            ctime: 101,
            ino: 7,
        };
        let e = Entry { sig, hash: 0xab };
        let mut text = Trust::line(Kind::Out, "src/a b.rs", &e);
        text.push_str(&Trust::line(Kind::Runtime, "src/lib.rs", &e));
        text.push_str("out 1 2 3\ngarbage\nout x 1 1 1 0 p\n");
        let t = Trust::parse(&text, 200);
        assert_eq!(t.count(Kind::Out), 1);
        assert_eq!(t.count(Kind::Runtime), 1);
        assert_eq!(t.trusted(Kind::Out, "src/a b.rs", Some(sig)), Some(e));
        assert_eq!(t.trusted(Kind::Template, "src/lib.rs", Some(sig)), None);
        assert_eq!(t.trusted(Kind::Out, "src/a b.rs", None), None, "gone");
        for changed in [
            Sig { len: 4, ..sig },
            Sig { mtime: 99, ..sig },
            Sig { ctime: 102, ..sig },
            Sig { ino: 8, ..sig },
        ] {
            assert_eq!(t.trusted(Kind::Out, "src/a b.rs", Some(changed)), None);
        }
        // Modified in the tick the record was written: racy, compared by content.
        let racy = Trust::parse(&text, 100);
        assert_eq!(racy.trusted(Kind::Out, "src/a b.rs", Some(sig)), None);
        assert!(racy.recorded(Kind::Out, "src/a b.rs").is_some());
    }

    #[test]
    fn the_hash_is_xxh3_128() {
        // XXH3 128 of the empty input, from the reference implementation's test vectors.
        assert_eq!(hash(b""), 0x99aa06d3014798d86001c324468d497f);
        assert_ne!(hash(b"a"), hash(b"b"));
    }
}
