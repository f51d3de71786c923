//! A memo of rendered output, so that a regen after a small spec change re-renders only what
//! the change reaches. Four kinds of entries, each keyed by a hash of everything its output
//! depends on:
//!
//! - one doc's errata applied (keyed by the doc's name and bytes and its errata's names and
//!   bytes) and one file parsed (keyed by its name and corrected bytes), as JSON
//!   ([`value_or`]): after one doc changed only that doc is corrected and parsed again;
//! - a whole file job whose inputs the emitter can name (one instruction's module: its
//!   `InstModel`; one reference page: its row; `enums.rs`: the shared value sets; `object.rs`:
//!   the chapters' records), keyed by those inputs and the header;
//! - one section of a file that spans every doc (`rust::section`): the items one instruction
//!   contributes to `text.rs` (its printers and parsers) or `roundtrip.rs` (its property tests),
//!   keyed by that instruction's model, formatted, with the identifiers they use (from which the
//!   file's imports are decided), so an unchanged instruction's part is neither built nor
//!   formatted again;
//! - one top-level Rust item as formatted by syn and prettyplease, keyed by its tokens: the
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
use std::hash::{DefaultHasher, Hasher};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

/// The first line of a memo file.
const MAGIC: &str = "visa-regen-cache v1";

struct Memo {
    old: HashMap<u128, String>,
    used: Mutex<BTreeMap<u128, String>>,
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
    let mut halves = [DefaultHasher::new(), DefaultHasher::new()];
    for (i, h) in halves.iter_mut().enumerate() {
        h.write_usize(i);
        for p in parts {
            h.write_usize(p.len());
            h.write(p);
        }
    }
    (u128::from(halves[0].finish()) << 64) | u128::from(halves[1].finish())
}

fn checksum(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(text.as_bytes());
    h.finish()
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
    fn keep(&self, key: u128, text: String) {
        self.used
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, text);
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
    if let Some(text) = memo.old.get(&key) {
        if let Ok(value) = serde_json::from_str(text) {
            memo.keep(key, text.clone());
            return value;
        }
    }
    let value = compute();
    if let Ok(text) = serde_json::to_string(&value) {
        memo.keep(key, text);
    }
    value
}

/// The memo's entry for `key`, or `render()` recorded under it.
pub(crate) fn get_or(key: u128, render: impl FnOnce() -> String) -> String {
    let Some(memo) = current() else {
        return render();
    };
    let text = match memo.old.get(&key) {
        Some(t) => t.clone(),
        None => render(),
    };
    memo.keep(key, text.clone());
    text
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
    let _scope = SCOPE.lock().unwrap_or_else(PoisonError::into_inner);
    let memo = Arc::new(Memo {
        old: crate::timings::time("cache: decode", || decode(file, salt).unwrap_or_default()),
        used: Mutex::new(BTreeMap::new()),
    });
    *ACTIVE.write().unwrap_or_else(PoisonError::into_inner) = Some(memo.clone());
    let guard = Active;
    let result = f();
    drop(guard);
    let used = std::mem::take(&mut *memo.used.lock().unwrap_or_else(PoisonError::into_inner));
    (result, encode(&used, salt))
}

/// Runs `f` with no memo in use, even while other threads would run with one: what a run
/// gives without a memo, for comparing.
pub fn without<R>(f: impl FnOnce() -> R) -> R {
    let _scope = SCOPE.lock().unwrap_or_else(PoisonError::into_inner);
    f()
}

/// `MAGIC salt`, then per entry `key checksum length`, a newline and the text.
fn encode(entries: &BTreeMap<u128, String>, salt: &str) -> Vec<u8> {
    let mut out = format!("{MAGIC} {salt}\n").into_bytes();
    for (k, text) in entries {
        out.extend_from_slice(
            format!("{k:032x} {:016x} {}\n", checksum(text), text.len()).as_bytes(),
        );
        out.extend_from_slice(text.as_bytes());
    }
    out
}

/// The entries of a memo file; `None` when it is not one of this salt or any entry is damaged
/// (then nothing of it is trusted).
fn decode(file: &[u8], salt: &str) -> Option<HashMap<u128, String>> {
    let text = std::str::from_utf8(file).ok()?;
    let (head, mut rest) = text.split_once('\n')?;
    if head != format!("{MAGIC} {salt}") {
        return None;
    }
    let mut map = HashMap::new();
    while !rest.is_empty() {
        let (line, after) = rest.split_once('\n')?;
        let mut parts = line.split(' ');
        let k = u128::from_str_radix(parts.next()?, 16).ok()?;
        let sum = u64::from_str_radix(parts.next()?, 16).ok()?;
        let len: usize = parts.next()?.parse().ok()?;
        let body = after.get(..len)?;
        if checksum(body) != sum {
            return None;
        }
        map.insert(k, body.to_string());
        rest = &after[len..];
    }
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memo_file_reads_back_and_a_damaged_one_is_dropped_whole() {
        let mut entries = BTreeMap::new();
        entries.insert(key(&["a"]), "fn a() {}\n".to_string());
        entries.insert(key(&["b"]), "multi\nline\n".to_string());
        let file = encode(&entries, "g1");
        let back = decode(&file, "g1").unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[&key(&["b"])], "multi\nline\n");
        assert!(decode(&file, "g2").is_none(), "another generator");
        let mut bad = file.clone();
        let last = bad.len() - 2;
        bad[last] ^= 1;
        assert!(decode(&bad, "g1").is_none(), "a flipped byte");
        assert!(decode(&file[..file.len() - 3], "g1").is_none(), "cut short");
        assert!(decode(b"\xff\xfe", "g1").is_none(), "not text");
    }

    #[test]
    fn keys_separate_their_parts() {
        assert_ne!(key(&["ab", "c"]), key(&["a", "bc"]));
        assert_eq!(key(&["x"]), key(&["x"]));
    }

    #[test]
    fn a_run_keeps_only_the_entries_it_used() {
        let (_, first) = with(b"", "s", || {
            get_or(1, || "one".into());
            get_or(2, || "two".into());
        });
        let (got, second) = with(&first, "s", || get_or(2, || unreachable!("memoised")));
        assert_eq!(got, "two");
        let kept = decode(&second, "s").unwrap();
        assert_eq!(kept.len(), 1);
        assert!(!active(), "no memo outside a run");
    }
}
