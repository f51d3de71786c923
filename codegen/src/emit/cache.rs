//! A memo of rendered output, so that a regen after a small spec change re-renders only what
//! the change reaches. Four kinds of entries, each keyed by a hash of everything its output
//! depends on:
//!
//! - one doc's errata applied (keyed by the doc's name and bytes and its errata's names and
//!   bytes) and one file parsed (keyed by its name and corrected bytes), as JSON
//!   (`value_or`): after one doc changed only that doc is corrected and parsed again;
//! - a whole file job whose inputs the emitter can name (one instruction's module: its
//!   `InstModel`; one reference page: the analysed page its row is made from; `enums.rs`: the
//!   shared value sets; `object.rs`: the chapters' records), keyed by those inputs and the
//!   header;
//! - one section of a file that spans every doc (`rust::section`): the items one instruction
//!   contributes to `text.rs` (its printers and parsers) or `roundtrip.rs` (its property tests),
//!   keyed by that instruction's model, formatted, with the identifiers they use (from which the
//!   file's imports are decided), so an unchanged instruction's part is neither built nor
//!   formatted again;
//! - one top-level Rust item as formatted by syn and prettyplease, keyed by its tokens (their
//!   text hashed as it is written, never built as a string): the
//!   rest of the shared files (`mod.rs`, `operands.rs`, the dispatch of `text.rs`) is built as
//!   tokens, but only the items a change touched are formatted again.
//!
//! Emitters do not call the memo: they name what a file job or a section reads
//! (`FileJob::keyed`, `rust::section`) and the memo is applied there, so a new emitter's files
//! are memoised item by item (`rust::format`) without knowing of it, and whole when it names its
//! inputs.
//!
//! The memo is never a source: a run without one, with an empty, stale or corrupt one, gives
//! the same bytes (tested). Only the entries a run used are kept for the next run, so it holds
//! about one copy of the output. A memo file from another generator (its `salt` differs) is
//! ignored, since the same key may then render differently.

use serde::{de::DeserializeOwned, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::hash::Hasher;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

/// The first line of a memo file.
const MAGIC: &str = "visa-regen-cache v3";

/// A memo file's bytes: mapped from the file on disk ([`MemoFile::open`]), or held.
#[derive(Default)]
pub struct MemoFile(Held);

#[derive(Default)]
enum Held {
    #[default]
    Nothing,
    Bytes(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl MemoFile {
    /// The memo file at `path`, mapped rather than read: a regen after a small change uses a
    /// few MB of it in place, where reading it copied all of it into fresh memory (which the
    /// kernel clears first). Absent or unreadable: an empty memo.
    ///
    /// The map shows the file as it is on disk while the run reads it. Regen changes the file
    /// only by appending (past what is mapped) or by writing a new file in its place (the old
    /// one removed, never cut: `xtask::stamp::write_anew`), so a map of it stays whole; bytes
    /// changed under the map are caught like any damage (a checked entry that does not match
    /// is a miss).
    pub fn open(path: &std::path::Path) -> MemoFile {
        let Ok(file) = std::fs::File::open(path) else {
            return MemoFile::default();
        };
        // SAFETY: the map is read-only and only ever read as bytes, each entry checked before
        // use (see above); an empty file (which cannot be mapped) is read instead.
        match unsafe { memmap2::Mmap::map(&file) } {
            Ok(map) => MemoFile(Held::Mapped(map)),
            Err(_) => std::fs::read(path).map(MemoFile::from).unwrap_or_default(),
        }
    }
}

impl From<Vec<u8>> for MemoFile {
    fn from(bytes: Vec<u8>) -> Self {
        MemoFile(Held::Bytes(bytes))
    }
}

impl std::ops::Deref for MemoFile {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Held::Nothing => &[],
            Held::Bytes(b) => b,
            Held::Mapped(m) => m,
        }
    }
}

/// A memo file read: its bytes (mapped or owned, never copied), and where each entry's body is
/// in them. Nothing is checked until an entry is used (a run uses a few of them after a small
/// change, or reads them all once): a damaged entry is then a miss.
#[derive(Default)]
struct Old {
    /// Shared with the [`Text`]s of the run that are entries of it, read in place.
    bytes: Arc<MemoFile>,
    /// Key → (checksum, start of the entry's line, start and end of its body). A key written
    /// twice (appended again after its first copy was damaged) is its last copy.
    entries: HashMap<u128, (u64, usize, usize, usize), KeyHash>,
}

/// Hashes a memo key by its low 64 bits: keys are XXH3 hashes already, so hashing them again
/// (SipHash, the default) only cost the index of a run's thousands of entries.
type KeyHash = std::hash::BuildHasherDefault<LowBits>;

#[derive(Default)]
struct LowBits(u64);

impl Hasher for LowBits {
    fn write(&mut self, bytes: &[u8]) {
        // Only `u128` keys are hashed; any other write still spreads its bytes.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Old {
    /// The body of `key`'s entry, if there is one and it is as it was written.
    fn get(&self, key: u128) -> Option<&str> {
        self.checked(key).map(|(_, body)| body)
    }

    /// [`Old::get`] with where the body starts in the file.
    fn checked(&self, key: u128) -> Option<(usize, &str)> {
        let &(sum, _, start, end) = self.entries.get(&key)?;
        let body = std::str::from_utf8(self.bytes.get(start..end)?).ok()?;
        (checksum(body) == sum).then_some((start, body))
    }

    /// The whole entry of `key` (its line and body), to copy into the next memo file.
    fn raw(&self, key: u128) -> Option<&[u8]> {
        let &(_, line, _, end) = self.entries.get(&key)?;
        self.bytes.get(line..end)
    }

    /// Bytes of the entry of `key`, line and body.
    fn size(&self, key: u128) -> usize {
        self.entries
            .get(&key)
            .map_or(0, |&(_, line, _, end)| end.saturating_sub(line))
    }
}

/// What a run used: an old entry (by key, its bytes still in the old file) or a new text.
enum Kept {
    Old,
    New(String),
}

struct Memo {
    old: Old,
    used: Mutex<BTreeMap<u128, Kept>>,
}

/// The memo of the run in progress, if any; one run at a time ([`SCOPE`]).
static ACTIVE: RwLock<Option<Arc<Memo>>> = RwLock::new(None);
static SCOPE: Mutex<()> = Mutex::new(());

/// A 128-bit key over `parts` (length-prefixed, so moving bytes between parts changes it).
pub fn key(parts: &[&str]) -> u128 {
    let bytes: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
    key_bytes(&bytes)
}

/// [`key`] over raw bytes (a doc's bytes need not be UTF-8: a lossy decoding would give two
/// different docs one key).
pub fn key_bytes(parts: &[&[u8]]) -> u128 {
    // Parts are whole docs: streamed, not gathered (the same value either way).
    let mut h = twox_hash::XxHash3_128::default();
    for p in parts {
        h.write(&p.len().to_ne_bytes());
        h.write(p);
    }
    h.finish_128()
}

/// XXH3-128 as a `std::hash::Hasher`, so a derived `Hash` writes into it. The bytes are
/// gathered and hashed once at the end: a derived `Hash` makes many writes of a few bytes
/// each, which cost more through the streaming hasher's per-write path than a copy does
/// (XXH3 of the same bytes is the same value, streamed or whole).
#[derive(Default)]
struct Xxh3(Vec<u8>);

impl Xxh3 {
    fn finish_128(&self) -> u128 {
        twox_hash::XxHash3_128::oneshot(&self.0)
    }
}

impl Hasher for Xxh3 {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// The low half of the 128-bit hash (keys take [`Xxh3::finish_128`] whole).
    fn finish(&self) -> u64 {
        self.finish_128() as u64
    }
}

/// [`key`] over `tag` and `value` as its `Hash` writes it: an analysed model's fields in
/// binary, which costs a fraction of its `Debug` text and sees every field (a derived `Hash`
/// writes each one; its encoding tells a value of one type from every other value of it).
pub(crate) fn key_of<T: std::hash::Hash + ?Sized>(tag: &str, value: &T) -> u128 {
    use std::hash::Hash;
    // The bytes are gathered in a buffer kept by the thread: a model writes tens of KB, and a
    // fresh buffer grew by copies into fresh pages for each of the run's hundreds of keys.
    thread_local! {
        static GATHERED: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut h = Xxh3(GATHERED.with(std::cell::Cell::take));
    h.0.clear();
    tag.hash(&mut h);
    value.hash(&mut h);
    let key = h.finish_128();
    GATHERED.with(|g| g.set(h.0));
    key
}

/// [`key`] over `tag` and the `Display` text of `value`, hashed as it is written (a token
/// stream's text, which is never built as a string).
pub(crate) fn key_of_display(tag: &str, value: &dyn std::fmt::Display) -> u128 {
    key_of_fmt(tag, format_args!("{value}"))
}

/// [`key`] over `tag` and the text `args` writes, hashed as it is written. The key is the
/// same however the text is split into writes (the hasher buffers them).
fn key_of_fmt(tag: &str, args: std::fmt::Arguments<'_>) -> u128 {
    struct Text(Xxh3, usize);
    impl std::fmt::Write for Text {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write(s.as_bytes());
            self.1 += s.len();
            Ok(())
        }
    }
    let mut w = Text(Xxh3::default(), 0);
    w.0.write_usize(tag.len());
    w.0.write(tag.as_bytes());
    // Writing into a hasher cannot fail; a `Debug` that fails leaves a key of what it wrote.
    let _ = std::fmt::write(&mut w, args);
    let n = w.1;
    w.0.write_usize(n);
    w.0.finish_128()
}

/// A checksum of an entry's body, against damage to the file (not against an adversary):
/// XXH3's low 64 bits, which a run computes over most of the file at memory speed.
fn checksum(text: &str) -> u64 {
    twox_hash::XxHash3_128::oneshot(text.as_bytes()) as u64
}

/// Whether a memo is in use (callers that would pay to compute a key skip it otherwise).
pub(crate) fn active() -> bool {
    ACTIVE
        .read()
        .map(|a| a.is_some())
        .unwrap_or_else(|e| e.into_inner().is_some())
}

fn current() -> Option<Arc<Memo>> {
    ACTIVE
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

impl Memo {
    fn keep(&self, key: u128, kept: Kept) {
        self.used
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, kept);
    }
}

/// The memo's value for `key`, or `compute()` recorded under it: a stage's result that is not
/// text (a doc parsed, a doc's errata applied), kept as JSON. An entry that does not read back
/// as a `T` is a miss, so a memo written by other code is never trusted; and `T` must read back
/// from its JSON as it was (tested for every type memoised).
pub(crate) fn value_or<T: Serialize + DeserializeOwned>(
    key: u128,
    compute: impl FnOnce() -> T,
) -> T {
    let Some(memo) = current() else {
        return compute();
    };
    if let Some(text) = memo.old.get(key) {
        if let Ok(value) = serde_json::from_str(text) {
            memo.keep(key, Kept::Old);
            return value;
        }
    }
    let value = compute();
    if let Ok(text) = crate::compact::with(|| serde_json::to_string(&value)) {
        memo.keep(key, Kept::New(text));
    }
    value
}

/// [`value_or`] for a value that comes with a text (a doc's corrected text), the text kept raw
/// in an entry of its own: as a JSON string every line of a doc is escaped, and reading it back
/// was most of reading the entry. Both entries are read back or neither is used.
pub(crate) fn value_text_or<T: Serialize + DeserializeOwned>(
    key: u128,
    compute: impl FnOnce() -> (T, Option<String>),
) -> (T, Option<String>) {
    let Some(memo) = current() else {
        return compute();
    };
    let text_key = key_bytes(&[b"the raw text of", &key.to_le_bytes()]);
    let old = memo.old.get(key).and_then(|body| {
        let (value, has_text) = serde_json::from_str::<(T, bool)>(body).ok()?;
        let text = match has_text {
            true => Some(memo.old.get(text_key)?.to_string()),
            false => None,
        };
        Some((value, text))
    });
    if let Some((value, text)) = old {
        memo.keep(key, Kept::Old);
        if text.is_some() {
            memo.keep(text_key, Kept::Old);
        }
        return (value, text);
    }
    let (value, text) = compute();
    if let Ok(json) = crate::compact::with(|| serde_json::to_string(&(&value, text.is_some()))) {
        memo.keep(key, Kept::New(json));
        if let Some(text) = &text {
            memo.keep(text_key, Kept::New(text.clone()));
        }
    }
    (value, text)
}

/// The memo's entry for `key`, or `render()` recorded under it. A hit is the entry read in
/// place in the memo file: a regen after a small change takes most of its 4 MB of output from
/// the memo, and copying it into fresh memory cost more than the rest of its use.
pub(crate) fn text_or(key: u128, render: impl FnOnce() -> String) -> Text {
    let Some(memo) = current() else {
        return render().into();
    };
    if let Some((start, body)) = memo.old.checked(key) {
        memo.keep(key, Kept::Old);
        return Text(Repr::Memo {
            file: memo.old.bytes.clone(),
            start,
            len: body.len(),
        });
    }
    let text = render();
    memo.keep(key, Kept::New(text.clone()));
    text.into()
}

/// The contents of an output file: made by this run, or an entry of the memo file it read,
/// held in place (`text_or`). Reads as a `str`.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Made(String),
    /// Bytes `start..start + len` of `file`: UTF-8, checked when the entry was used.
    Memo {
        file: Arc<MemoFile>,
        start: usize,
        len: usize,
    },
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.0 {
            Repr::Made(s) => s,
            Repr::Memo { file, start, len } => {
                let bytes = &file[*start..*start + *len];
                // SAFETY: `text_or` made this `Text` only after `Old::checked` found these
                // bytes valid UTF-8, and a memo file's bytes do not change while it is held
                // (owned bytes are never written; a mapped file is replaced by regen, never
                // written in place: see `MemoFile::open`).
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
        }
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Made(s))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(Repr::Made(s.to_string()))
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        **self == **other
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &**self == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &**self == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl Text {
    /// The text as an owned `String` (a copy when it is held in the memo file).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Made(s) => s,
            Repr::Memo { .. } => self.to_string(),
        }
    }
}

/// Clears the active memo when the run ends, even by a panic.
struct Active;

impl Drop for Active {
    fn drop(&mut self) {
        *ACTIVE.write().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Runs `f` with the memo read from `file` (the bytes of a memo file, empty for none) and
/// returns its result with the memo file to keep: the entries this run used. `salt` names the
/// generator; a file of another salt is not read.
pub fn with<R>(file: &[u8], salt: &str, f: impl FnOnce() -> R) -> (R, Vec<u8>) {
    let (result, memo) = session(file.to_vec().into(), salt, f);
    let file = crate::timings::time("cache: encode", || memo.encode_used(salt));
    (result, file)
}

/// How the memo file a run read must change for the next run.
#[derive(Debug, PartialEq, Eq)]
pub enum Update {
    /// The run used only entries the file holds, and it holds little else: keep it as it is.
    Keep,
    /// Append these bytes (the entries the run made) to the file as it was read.
    Append(Vec<u8>),
    /// Replace the file by these bytes: the entries the run used, no others.
    Replace(Vec<u8>),
}

/// [`with`] for a memo file kept on disk ([`MemoFile::open`]: mapped, indexed in place, never
/// copied; or bytes read, owned). A run after a small change makes a few entries; writing the whole file again (a
/// few MB, most of it what was read) would cost more than the rest of such a run, so the
/// entries it made are appended ([`Update::Append`]). Entries no run uses any more are dropped
/// when they come to weigh as much as those the run used: then the file is written anew with
/// only the used ones ([`Update::Replace`]), so it stays within about twice one run's output.
pub fn run<R>(file: impl Into<MemoFile>, salt: &str, f: impl FnOnce() -> R) -> (R, Update) {
    run_decoded(Decoded::new(file, salt), f)
}

/// A memo file indexed ahead of the run that uses it ([`run_decoded`]): decoding the index
/// needs only the file, so regen does it on another core while it reads the docs.
pub struct Decoded {
    old: Old,
    salt: String,
}

impl Decoded {
    /// The index of `file`'s entries (see [`run`]); a file of another `salt`, or damaged, is
    /// an empty memo.
    pub fn new(file: impl Into<MemoFile>, salt: &str) -> Decoded {
        let old = crate::timings::time("cache: decode", || decode(file, salt).unwrap_or_default());
        Decoded {
            old,
            salt: salt.to_string(),
        }
    }
}

/// [`run`] with a memo file decoded already.
pub fn run_decoded<R>(memo: Decoded, f: impl FnOnce() -> R) -> (R, Update) {
    let (result, used) = session_of(memo.old, f);
    let update = crate::timings::time("cache: encode", || used.update(&memo.salt));
    (result, update)
}

/// Runs `f` with the memo of `file` active; returns what it used.
fn session<R>(file: MemoFile, salt: &str, f: impl FnOnce() -> R) -> (R, Memo) {
    let old = crate::timings::time("cache: decode", || decode(file, salt).unwrap_or_default());
    session_of(old, f)
}

/// Runs `f` with the memo `old` active; returns what it used.
fn session_of<R>(old: Old, f: impl FnOnce() -> R) -> (R, Memo) {
    let _scope = SCOPE.lock().unwrap_or_else(PoisonError::into_inner);
    let memo = Arc::new(Memo {
        old,
        used: Mutex::new(BTreeMap::new()),
    });
    *ACTIVE.write().unwrap_or_else(PoisonError::into_inner) = Some(memo.clone());
    let guard = Active;
    let result = f();
    drop(guard);
    let used = std::mem::take(&mut *memo.used.lock().unwrap_or_else(PoisonError::into_inner));
    // The only other handle was the one `ACTIVE` held, dropped with the guard; a thread of `f`
    // that kept one would be a bug, and then the index is copied.
    let old = Arc::try_unwrap(memo).map_or_else(
        |m| Old {
            bytes: m.old.bytes.clone(),
            entries: m.old.entries.clone(),
        },
        |m| m.old,
    );
    (
        result,
        Memo {
            old,
            used: Mutex::new(used),
        },
    )
}

impl Memo {
    fn used(&self) -> std::sync::MutexGuard<'_, BTreeMap<u128, Kept>> {
        self.used.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A memo file of only the entries the run used.
    fn encode_used(&self, salt: &str) -> Vec<u8> {
        encode(&self.used(), &self.old, salt)
    }

    /// What becomes of the file read: see [`run`].
    fn update(&self, salt: &str) -> Update {
        let used = self.used();
        let valid = !self.old.bytes.is_empty() && !self.old.entries.is_empty();
        let kept_bytes: usize = used
            .iter()
            .filter(|(_, k)| matches!(k, Kept::Old))
            .map(|(&key, _)| self.old.size(key))
            .sum();
        let unused_bytes = self.old.bytes.len().saturating_sub(kept_bytes);
        if !valid || unused_bytes > kept_bytes {
            return Update::Replace(encode(&used, &self.old, salt));
        }
        let mut out = Vec::new();
        for (&k, kept) in used.iter() {
            if let Kept::New(text) = kept {
                push_entry(&mut out, k, text);
            }
        }
        if out.is_empty() {
            Update::Keep
        } else {
            Update::Append(out)
        }
    }
}

/// Runs `f` with no memo in use, even while other threads would run with one: what a run
/// gives without a memo, for comparing.
pub fn without<R>(f: impl FnOnce() -> R) -> R {
    let _scope = SCOPE.lock().unwrap_or_else(PoisonError::into_inner);
    f()
}

/// One entry: `key checksum length`, a newline and the text.
fn push_entry(out: &mut Vec<u8>, key: u128, text: &str) {
    out.extend_from_slice(
        format!("{key:032x} {:016x} {}\n", checksum(text), text.len()).as_bytes(),
    );
    out.extend_from_slice(text.as_bytes());
}

/// `MAGIC salt`, then each entry ([`push_entry`]). An old entry is copied as it was read (it
/// was checked when used).
fn encode(entries: &BTreeMap<u128, Kept>, old: &Old, salt: &str) -> Vec<u8> {
    let mut out = format!("{MAGIC} {salt}\n").into_bytes();
    out.reserve(old.bytes.len() + old.bytes.len() / 4);
    for (&k, kept) in entries {
        match (kept, old.raw(k)) {
            (Kept::Old, Some(raw)) => out.extend_from_slice(raw),
            (Kept::Old, None) => {}
            (Kept::New(text), _) => push_entry(&mut out, k, text),
        }
    }
    out
}

/// An entry's line ([`push_entry`]): its key, checksum and length, or `None` if it is not one.
/// Read by hand: the 32 and 16 hex digits are fixed-width, as written.
fn entry_line(line: &[u8]) -> Option<(u128, u64, usize)> {
    let hex = |digits: &[u8]| {
        digits.iter().try_fold(0u128, |acc, &d| {
            let v = (d as char).to_digit(16)?;
            Some(acc << 4 | u128::from(v))
        })
    };
    let (key, rest) = (line.get(..32)?, line.get(32..)?);
    let (sum, rest) = (rest.strip_prefix(b" ")?.get(..16)?, rest.get(17..)?);
    let len = rest.strip_prefix(b" ")?;
    if len.is_empty() || len.len() > 19 || !len.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let len = len
        .iter()
        .fold(0usize, |acc, &d| acc * 10 + usize::from(d - b'0'));
    Some((hex(key)?, u64::try_from(hex(sum)?).ok()?, len))
}

/// Where each entry of a memo file is; `None` when it is not one of this salt or its structure
/// is damaged (then nothing of it is trusted). Bodies are checked when used ([`Old::get`]).
fn decode(file: impl Into<MemoFile>, salt: &str) -> Option<Old> {
    let file: MemoFile = file.into();
    let line_end = |from: usize| {
        file.get(from..)?
            .iter()
            .position(|&b| b == b'\n')
            .map(|n| from + n)
    };
    let head_end = line_end(0)?;
    if file[..head_end] != *format!("{MAGIC} {salt}").as_bytes() {
        return None;
    }
    // Room for an entry per 2 KB of file (they average about 3.7 KB): one allocation, whose
    // pages are all touched, sized to the file rather than to the largest memo.
    let mut entries = HashMap::with_capacity_and_hasher(file.len() / 2048, KeyHash::default());
    let mut at = head_end + 1;
    while at < file.len() {
        let end_of_line = line_end(at)?;
        let (k, sum, len) = entry_line(&file[at..end_of_line])?;
        let start = end_of_line + 1;
        let end = start.checked_add(len)?;
        file.get(start..end)?;
        entries.insert(k, (sum, at, start, end));
        at = end;
    }
    Some(Old {
        bytes: Arc::new(file),
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_entries(texts: &[(&str, &str)]) -> BTreeMap<u128, Kept> {
        texts
            .iter()
            .map(|(k, t)| (key(&[k]), Kept::New(t.to_string())))
            .collect()
    }

    #[test]
    fn a_memo_file_reads_back_and_a_damaged_one_is_dropped() {
        let entries = new_entries(&[("a", "fn a() {}\n"), ("b", "multi\nline\n")]);
        let file = encode(&entries, &Old::default(), "g1");
        let back = decode(file.clone(), "g1").unwrap();
        assert_eq!(back.entries.len(), 2);
        assert_eq!(back.get(key(&["b"])), Some("multi\nline\n"));
        assert_eq!(back.get(key(&["a"])), Some("fn a() {}\n"));
        assert!(decode(file.clone(), "g2").is_none(), "another generator");
        // A flipped byte in a body: that entry is a miss, the other still reads.
        let mut bad = file.clone();
        let last = bad.len() - 2;
        bad[last] ^= 1;
        let back = decode(bad.clone(), "g1").unwrap();
        let (damaged, intact) = if back.get(key(&["a"])).is_none() {
            ("a", "b")
        } else {
            ("b", "a")
        };
        assert_eq!(back.get(key(&[damaged])), None, "a flipped byte");
        assert!(back.get(key(&[intact])).is_some());
        // A flipped byte in a line of keys and lengths: the file is not read.
        let mut bad = file.clone();
        let line = MAGIC.len() + 5;
        bad[line] = b'g';
        assert!(decode(bad.clone(), "g1").is_none(), "a damaged entry line");
        assert!(
            decode(file[..file.len() - 3].to_vec(), "g1").is_none(),
            "cut short"
        );
        assert!(decode(b"\xff\xfe".to_vec(), "g1").is_none(), "not text");
    }

    #[test]
    fn the_checksum_sees_any_one_changed_byte() {
        let text = "fn a() -> u32 { 7 }\n// and a comment that runs past a few words\n";
        let sum = checksum(text);
        for i in 0..text.len() {
            let mut b = text.as_bytes().to_vec();
            b[i] ^= 0x20;
            let changed = String::from_utf8_lossy(&b).into_owned();
            assert_ne!(checksum(&changed), sum, "byte {i}");
        }
        assert_ne!(checksum(&text[1..]), sum, "shorter");
    }

    #[test]
    fn keys_separate_their_parts() {
        assert_ne!(key(&["ab", "c"]), key(&["a", "bc"]));
        assert_eq!(key(&["x"]), key(&["x"]));
    }

    /// A key of text as it is written is the same however the text is split into writes,
    /// and over 16 KB blocks; it sees the tag, every byte and the length.
    #[test]
    fn keys_of_written_text_see_the_text_not_its_writes() {
        struct Pieces(Vec<String>);
        impl std::fmt::Display for Pieces {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.iter().try_for_each(|p| f.write_str(p))
            }
        }
        let text: String = (0..40_000u32)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let whole = key_of_display("t", &text);
        let split = Pieces(
            text.as_bytes()
                .chunks(7)
                .map(|c| String::from_utf8(c.to_vec()).unwrap())
                .collect(),
        );
        assert_eq!(key_of_display("t", &split), whole);
        let big = Pieces(vec![text[..5].to_string(), text[5..].to_string()]);
        assert_eq!(key_of_display("t", &big), whole, "a piece over a block");
        assert_ne!(key_of_display("u", &text), whole, "tag");
        assert_ne!(key_of_display("t", &&text[1..]), whole, "shorter");
        let mut other = text.clone().into_bytes();
        other[20_000] = b'!';
        assert_ne!(
            key_of_display("t", &String::from_utf8(other).unwrap()),
            whole,
            "a byte"
        );
    }

    /// A model's key (its derived `Hash`) is the same for an equal model and differs when any
    /// part of it differs, however deep: a value's meaning, a field's doc, the lane function,
    /// a float literal's sign; and the tag separates what the same model keys.
    #[test]
    fn keys_of_models_see_every_part_of_them() {
        use crate::analyze::semantics::{LaneExpr, LaneModel, LaneStmt};
        let model = crate::testing::workspace_spec().model;
        let with_enum = model
            .instructions
            .iter()
            .find(|i| i.enums.iter().any(|e| !e.variants.is_empty()))
            .expect("a seed instruction with a value set");
        let key = key_of("instruction", with_enum);
        assert_eq!(key_of("instruction", &with_enum.clone()), key);
        assert_ne!(key_of("page", with_enum), key, "tag");
        let mut meaning = with_enum.clone();
        let e = meaning.enums.iter_mut().find(|e| !e.variants.is_empty());
        e.expect("found above").variants[0].meaning.push('!');
        assert_ne!(key_of("instruction", &meaning), key, "a value's meaning");
        let mut doc = with_enum.clone();
        if let Some(f) = doc.fields.values_mut().next() {
            f.doc.push('!');
            assert_ne!(key_of("instruction", &doc), key, "a field's doc");
        }
        let mut lanes = with_enum.clone();
        lanes.lanes = LaneModel::Prose {
            why: Some("a made-up reason".into()),
        };
        assert_ne!(key_of("instruction", &lanes), key, "the lane function");
        let float = |v: f64| LaneStmt::Set {
            name: "x".into(),
            ty: None,
            value: LaneExpr::Float(v, false),
        };
        assert_ne!(key_of("s", &float(0.0)), key_of("s", &float(-0.0)));
        assert_eq!(key_of("s", &float(0.5)), key_of("s", &float(0.5)));
        assert_ne!(
            key_of("s", &LaneExpr::Float(0.5, false)),
            key_of("s", &LaneExpr::Float(0.5, true))
        );
    }

    /// A hit is the entry in place in the memo's bytes (not a copy), reads as the text that
    /// was recorded, and outlives the run; a miss is the text made.
    #[test]
    fn a_hit_is_the_entry_in_place() {
        let file = encode(
            &new_entries(&[("a", "fn a() {}\n"), ("b", "fn b() {}\n")]),
            &Old::default(),
            "s",
        );
        let held: MemoFile = file.clone().into();
        let range = held.as_ptr_range();
        let ((a, c), _) = run(held, "s", || {
            let a = text_or(key(&["a"]), || unreachable!("memoised"));
            (a, text_or(key(&["c"]), || "fn c() {}\n".to_string()))
        });
        assert!(range.contains(&a.as_ptr()), "a hit is read in place");
        assert_eq!(&*a, "fn a() {}\n");
        assert_eq!(a, Text::from("fn a() {}\n"));
        assert_eq!(
            (format!("{a}"), format!("{a:?}")),
            ("fn a() {}\n".to_string(), "\"fn a() {}\\n\"".to_string())
        );
        assert_eq!(a.clone().into_string(), "fn a() {}\n");
        assert!(!range.contains(&c.as_ptr()));
        assert_eq!(c, "fn c() {}\n");
    }

    /// A memo file on disk is mapped and reads as its bytes; an absent or empty one is an
    /// empty memo; a run with the mapped file uses its entries as with the bytes read.
    #[test]
    fn a_memo_file_on_disk_reads_as_its_bytes() {
        let dir = std::env::temp_dir().join(format!("visa-memo-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("memo");
        let bytes = encode(&new_entries(&[("a", "fn a() {}\n")]), &Old::default(), "s");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(&*MemoFile::open(&path), bytes.as_slice());
        let (got, update) = run(MemoFile::open(&path), "s", || {
            text_or(key(&["a"]), || unreachable!("in the mapped file"))
        });
        assert_eq!((&*got, update), ("fn a() {}\n", Update::Keep));
        assert!(MemoFile::open(&dir.join("absent")).is_empty());
        std::fs::write(&path, b"").unwrap();
        assert!(MemoFile::open(&path).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_run_keeps_only_the_entries_it_used() {
        let (_, first) = with(b"", "s", || {
            text_or(1, || "one".into());
            text_or(2, || "two".into());
        });
        let (got, second) = with(&first, "s", || text_or(2, || unreachable!("memoised")));
        assert_eq!(got, "two");
        let kept = decode(second, "s").unwrap();
        assert_eq!(kept.entries.len(), 1);
        assert_eq!(kept.get(2), Some("two"));
        // Checked holding the scope, as a run does: tests run on several threads, and another
        // test's run may be active meanwhile.
        let scope = SCOPE.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(!active(), "no memo outside a run");
        drop(scope);
        // Another generator (another salt, as another build of the generator has): its memo
        // is not read, though it holds the key.
        let (got, _) = with(&first, "another", || text_or(2, || "made again".into()));
        assert_eq!(got, "made again");
    }

    /// A run after a small change appends what it made; the file read that way holds the old
    /// entries and the new ones (a key appended again reads as its last copy). Once the
    /// entries no run uses weigh more than those used, the file is written anew.
    #[test]
    fn a_run_appends_what_it_made_and_compacts_when_mostly_unused() {
        let big = "x".repeat(1000);
        let (_, first) = run(Vec::new(), "s", || {
            text_or(1, || big.clone());
            text_or(2, || "two".into());
        });
        let Update::Replace(file) = first else {
            panic!("no file yet: written whole")
        };
        // Entry 1 used, entry 3 new: appended.
        let (_, second) = run(file.clone(), "s", || {
            text_or(1, || unreachable!("memoised"));
            text_or(3, || "three".into());
        });
        let Update::Append(tail) = second else {
            panic!("appended: {second:?}")
        };
        let mut appended = file.clone();
        appended.extend_from_slice(&tail);
        let back = decode(appended.clone(), "s").unwrap();
        assert_eq!(back.get(2), Some("two"), "an unused entry stays");
        assert_eq!(back.get(3), Some("three"));
        // Nothing new: kept as it is.
        let (_, third) = run(appended.clone(), "s", || text_or(1, || unreachable!()));
        assert_eq!(third, Update::Keep);
        // Entry 1 no longer used: what is unused outweighs what is used, written anew.
        let (_, fourth) = run(appended.clone(), "s", || text_or(3, || unreachable!()));
        let Update::Replace(file) = fourth else {
            panic!("compacted: {fourth:?}")
        };
        let back = decode(file, "s").unwrap();
        assert_eq!(back.entries.len(), 1);
        assert_eq!(back.get(3), Some("three"));
        // A damaged entry, appended again, reads as its new copy.
        let mut damaged = appended.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        let (got, fifth) = run(damaged.clone(), "s", || {
            text_or(1, || unreachable!("memoised"));
            text_or(3, || "three".into())
        });
        assert_eq!(got, "three");
        let Update::Append(tail) = fifth else {
            panic!("appended again: {fifth:?}")
        };
        damaged.extend_from_slice(&tail);
        assert_eq!(decode(damaged, "s").unwrap().get(3), Some("three"));
        // Another generator's file is replaced.
        let (_, other) = run(appended, "t", || text_or(3, || "three".into()));
        assert!(matches!(other, Update::Replace(_)));
    }

    /// A memo indexed ahead, on another thread, runs as one indexed by the run: its entries
    /// read back, another generator's file or a damaged one is empty, and the update is the same.
    #[test]
    fn a_memo_decoded_ahead_runs_as_one_decoded_by_the_run() {
        let (_, first) = run(Vec::new(), "s", || {
            text_or(1, || "one".into());
            text_or(2, || "two".into());
        });
        let Update::Replace(file) = first else {
            panic!("no file yet: written whole")
        };
        let ahead = {
            let file = file.clone();
            std::thread::spawn(move || Decoded::new(file, "s"))
                .join()
                .unwrap()
        };
        let (got, update) = run_decoded(ahead, || {
            (
                text_or(1, || unreachable!("memoised")),
                text_or(3, || "three".into()),
            )
        });
        assert_eq!((&*got.0, &*got.1), ("one", "three"));
        let (_, by_run) = run(file.clone(), "s", || {
            text_or(1, || unreachable!("memoised"));
            text_or(3, || "three".into())
        });
        assert_eq!(update, by_run);
        let other = Decoded::new(file.clone(), "t");
        let (got, _) = run_decoded(other, || text_or(1, || "made again".into()));
        assert_eq!(got, "made again", "another generator's memo is not read");
        let mut damaged = file;
        damaged[0] ^= 1;
        let (got, _) = run_decoded(Decoded::new(damaged, "s"), || text_or(1, || "again".into()));
        assert_eq!(got, "again", "a damaged file is an empty memo");
    }

    /// A value with its text reads back whole from the two entries; with the text's entry
    /// damaged or gone both are made again, and a value without a text needs no second entry.
    #[test]
    fn a_value_and_its_raw_text_read_back_together_or_not_at_all() {
        let made = || (vec![1u32, 2], Some("line \"one\"\nline two\n".to_string()));
        let (first, file) = with(b"", "s", || value_text_or(7, made));
        assert_eq!(first, made());
        let (back, _) = with(&file, "s", || value_text_or(7, || unreachable!("memoised")));
        assert_eq!(back, made());
        // The raw text is its own entry, not escaped: damage it, and both are made again.
        let at = file
            .windows(9)
            .position(|w| w == b"line \"one")
            .expect("the text kept raw");
        let mut damaged = file.clone();
        damaged[at] ^= 1;
        let (again, _) = with(&damaged, "s", || {
            value_text_or(7, || (vec![3u32], Some("made again".to_string())))
        });
        assert_eq!(again, (vec![3], Some("made again".to_string())));
        let (_, file) = with(b"", "s", || value_text_or(8, || (vec![4u32], None)));
        let kept = decode(file.clone(), "s").unwrap();
        assert_eq!(kept.entries.len(), 1, "no text, no text entry");
        let (back, _) = with(&file, "s", || {
            value_text_or::<Vec<u32>>(8, || unreachable!("memoised"))
        });
        assert_eq!(back, (vec![4], None));
    }
}
