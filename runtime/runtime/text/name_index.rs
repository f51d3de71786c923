//! A map from names to values for the lookups text parsing does at every token: an open
//! addressing hash table (linear probing) whose slots hold 32 bits of each name's hash, so a
//! lookup usually touches one slot and compares one string. Assembling a file looks up every
//! token of every line; a `BTreeMap` spent most of that walking nodes and comparing strings.
//! Keys are owned (`String`) or borrowed (`&str`) names.

use alloc::string::String;
use alloc::vec::Vec;

/// Names to values, in insertion order underneath.
#[derive(Clone, Debug)]
pub struct NameIndex<K, V> {
    /// Power-of-two table, at most half full: `(hash tag, entry index)`, `EMPTY` when free.
    slots: Vec<(u32, u32)>,
    entries: Vec<(K, V)>,
    /// One bit per [`filter_bit`] of the names held: most tokens a lookup is asked about
    /// (mnemonics, masks, types) have a bit no name has and need no hash.
    filter: [u64; 4],
}

impl<K, V> Default for NameIndex<K, V> {
    fn default() -> Self {
        NameIndex {
            slots: Vec::new(),
            entries: Vec::new(),
            filter: [0; 4],
        }
    }
}

const EMPTY: u32 = u32::MAX;

/// The bit of `name` in a [`NameIndex`]'s filter: its length with its first and last bytes.
#[inline]
fn filter_bit(name: &str) -> usize {
    let b = name.as_bytes();
    let first = usize::from(b.first().copied().unwrap_or(0));
    let last = usize::from(b.last().copied().unwrap_or(0));
    (first.wrapping_mul(29) ^ last.wrapping_mul(7) ^ (b.len() << 4)) & 255
}

/// Word-at-a-time multiplicative hash (FxHash's step), then a final multiply so the high
/// bits, which pick the slot, depend on every byte. Names are short: the last (or only) word
/// is read with two overlapping loads from the name itself, not copied to the stack byte by
/// byte (a copy the CPU cannot forward to the word load that follows).
pub fn hash(name: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let mut rest = name.as_bytes();
    let mut h = rest.len() as u64;
    while let Some((w, r)) = rest.split_first_chunk::<8>() {
        if r.is_empty() {
            break;
        }
        h = mix(h, u64::from_le_bytes(*w));
        rest = r;
    }
    // 0 to 8 bytes left.
    let n = rest.len();
    let w = match (rest.first_chunk::<4>(), rest.last_chunk::<4>()) {
        (Some(lo), Some(hi)) => {
            u64::from(u32::from_le_bytes(*lo)) | (u64::from(u32::from_le_bytes(*hi)) << 32)
        }
        _ => match (rest.first(), rest.get(n / 2), rest.last()) {
            (Some(a), Some(b), Some(c)) => {
                u64::from(*a) | (u64::from(*b) << 8) | (u64::from(*c) << 16)
            }
            _ => 0,
        },
    };
    h = mix(h, w);
    (h ^ (h >> 29)).wrapping_mul(K)
}

/// `a == b` without a call to `memcmp` for names up to 16 bytes: two overlapping loads of
/// each (the slice comparison calls it for every length).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    let w8 = |s: &[u8], at: usize| s.get(at..).and_then(|r| r.first_chunk::<8>()).copied();
    let w4 = |s: &[u8], at: usize| s.get(at..).and_then(|r| r.first_chunk::<4>()).copied();
    match n {
        0 => true,
        1..=3 => a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last(),
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

impl<K: AsRef<str>, V> NameIndex<K, V> {
    /// A map with room for `n` names before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let mut m = Self::default();
        m.entries.reserve(n);
        m.resize_slots(n);
        m
    }

    /// The entry index of `name` (its hash `h`), or the free slot where it would go.
    fn find(&self, name: &str, h: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let tag = h as u32;
        let mut i = (h >> 32) as usize & mask;
        loop {
            let (t, at) = self.slots[i];
            if at == EMPTY {
                return Err(i);
            }
            if t == tag {
                if let Some((k, _)) = self.entries.get(at as usize) {
                    if same(k.as_ref().as_bytes(), name.as_bytes()) {
                        return Ok(at as usize);
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `name`.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&V> {
        let bit = filter_bit(name);
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        let at = self.find(name, hash(name)).ok()?;
        self.entries.get(at).map(|e| &e.1)
    }

    /// The value of `key`'s name, inserted by `make` first when absent.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let at = match self.slot_for(key.as_ref()) {
            Ok(at) => at,
            Err(slot) => self.push(slot, key, make()),
        };
        &mut self.entries[at].1
    }

    /// Sets the value of `key`'s name, returning the old one.
    pub fn insert(&mut self, key: K, v: V) -> Option<V> {
        match self.slot_for(key.as_ref()) {
            Ok(at) => Some(core::mem::replace(&mut self.entries[at].1, v)),
            Err(slot) => {
                self.push(slot, key, v);
                None
            }
        }
    }

    /// Removes `name`, returning its value. Rare (a name declared again): the slots are
    /// rebuilt.
    pub fn remove(&mut self, name: &str) -> Option<V> {
        if self.entries.is_empty() {
            return None;
        }
        let at = self.find(name, hash(name)).ok()?;
        let (_, v) = self.entries.remove(at);
        let n = self.entries.len();
        self.resize_slots(n);
        Some(v)
    }

    /// `find` after making room for one more name.
    fn slot_for(&mut self, name: &str) -> Result<usize, usize> {
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.resize_slots(self.entries.len() + 1);
        }
        self.find(name, hash(name))
    }

    /// Appends an entry whose free slot `find` gave.
    fn push(&mut self, slot: usize, key: K, v: V) -> usize {
        let at = self.entries.len();
        self.slots[slot] = (hash(key.as_ref()) as u32, at as u32);
        let bit = filter_bit(key.as_ref());
        self.filter[bit / 64] |= 1 << (bit % 64);
        self.entries.push((key, v));
        at
    }

    /// Rebuilds the slots for `n` names (at least twice as many slots).
    fn resize_slots(&mut self, n: usize) {
        let size = (n * 2).next_power_of_two().max(8);
        self.slots.clear();
        self.slots.resize(size, (0, EMPTY));
        let mask = size - 1;
        self.filter = [0; 4];
        for (at, (k, _)) in self.entries.iter().enumerate() {
            let bit = filter_bit(k.as_ref());
            self.filter[bit / 64] |= 1 << (bit % 64);
            let h = hash(k.as_ref());
            let mut i = (h >> 32) as usize & mask;
            while self.slots[i].1 != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = (h as u32, at as u32);
        }
    }
}

/// A `NameIndex` of owned names.
pub type OwnedNameIndex<V> = NameIndex<String, V>;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn insert_get_replace_remove() {
        let mut m: OwnedNameIndex<i32> = NameIndex::default();
        assert_eq!(m.get("V0032"), None);
        assert_eq!(m.remove("V0032"), None);
        assert_eq!(m.insert("V0032".into(), 32), None);
        assert_eq!(m.insert("_0_009".into(), 9), None);
        assert_eq!(m.get("V0032"), Some(&32));
        assert_eq!(m.get("V0033"), None);
        assert_eq!(m.insert("V0032".into(), 40), Some(32));
        assert_eq!(m.get("V0032"), Some(&40));
        *m.get_or_insert_with("P1".into(), || 1) += 10;
        assert_eq!(m.get("P1"), Some(&11));
        assert_eq!(m.remove("V0032"), Some(40));
        assert_eq!(m.get("V0032"), None);
        assert_eq!(m.remove("V0032"), None);
        assert_eq!(m.get("_0_009"), Some(&9));
    }

    #[test]
    fn many_names_borrowed_keys_and_growth() {
        let names: Vec<String> = (0..5000).map(|i| format!("V{i:04}")).collect();
        let mut m: NameIndex<&str, usize> = NameIndex::with_capacity(10);
        for (i, n) in names.iter().enumerate() {
            assert_eq!(m.insert(n.as_str(), i), None);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(m.get(n), Some(&i));
        }
        assert_eq!(m.get("V5000"), None);
        assert_eq!(m.get(""), None);
        assert_eq!(m.remove("V0100"), Some(100));
        assert_eq!(m.get("V0100"), None);
        assert_eq!(m.get("V4999"), Some(&4999));
        *m.get_or_insert_with("V4999", || 0) = 1;
        assert_eq!(m.get("V4999"), Some(&1));
    }

    #[test]
    fn same_is_slice_equality() {
        let words: Vec<String> = (0..20)
            .flat_map(|n| {
                let base: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
                let last = base.clone();
                (0..n.max(1))
                    .map(move |at| {
                        let mut b = base.clone().into_bytes();
                        if let Some(x) = b.get_mut(at) {
                            *x = b'Z';
                        }
                        String::from_utf8(b).unwrap()
                    })
                    .chain(core::iter::once(last))
            })
            .collect();
        for a in &words {
            for b in &words {
                assert_eq!(same(a.as_bytes(), b.as_bytes()), a == b, "{a} {b}");
            }
        }
    }

    #[test]
    fn hash_depends_on_every_byte_and_the_length() {
        assert_ne!(hash("a"), hash("a\0"));
        assert_ne!(hash("V0032"), hash("V0033"));
        assert_ne!(hash("abcdefgh1"), hash("abcdefgh2"));
        assert_eq!(hash("V0032"), hash("V0032"));
    }
}
