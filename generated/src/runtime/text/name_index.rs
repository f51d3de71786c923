//! A map from names to values whose lookups compare 64-bit hashes, not strings: assembling a
//! file looks up every token of every line, and a `BTreeMap<String, _>` spends most of that
//! in string comparisons along its search path. Names with the same hash share a bucket,
//! searched by string.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// Names to values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameIndex<V> {
    buckets: BTreeMap<u64, Vec<(String, V)>>,
}

/// FNV-1a: a few instructions per byte, and names are short.
fn hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl<V> NameIndex<V> {
    pub fn new() -> Self {
        NameIndex {
            buckets: BTreeMap::new(),
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.buckets
            .get(&hash(name))?
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// The value of `name`, inserted by `make` first when absent.
    pub fn get_or_insert_with(&mut self, name: &str, make: impl FnOnce() -> V) -> &mut V {
        let bucket = self.buckets.entry(hash(name)).or_default();
        let at = match bucket.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                bucket.push((name.into(), make()));
                bucket.len() - 1
            }
        };
        &mut bucket[at].1
    }

    /// Sets the value of `name`, returning the old one.
    pub fn insert(&mut self, name: &str, v: V) -> Option<V> {
        let bucket = self.buckets.entry(hash(name)).or_default();
        match bucket.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => Some(core::mem::replace(&mut slot.1, v)),
            None => {
                bucket.push((name.into(), v));
                None
            }
        }
    }

    /// Removes `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<V> {
        let h = hash(name);
        let bucket = self.buckets.get_mut(&h)?;
        let at = bucket.iter().position(|(n, _)| n == name)?;
        let (_, v) = bucket.swap_remove(at);
        if bucket.is_empty() {
            self.buckets.remove(&h);
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_replace_remove() {
        let mut m = NameIndex::new();
        assert_eq!(m.insert("V0032", 32), None);
        assert_eq!(m.insert("_0_009", 9), None);
        assert_eq!(m.get("V0032"), Some(&32));
        assert_eq!(m.get("V0033"), None);
        assert_eq!(m.insert("V0032", 40), Some(32));
        assert_eq!(m.get("V0032"), Some(&40));
        *m.get_or_insert_with("P1", || 1) += 10;
        assert_eq!(m.get("P1"), Some(&11));
        assert_eq!(m.remove("V0032"), Some(40));
        assert_eq!(m.get("V0032"), None);
        assert_eq!(m.remove("V0032"), None);
        assert_eq!(m.get("_0_009"), Some(&9));
    }

    #[test]
    fn hash_is_fnv_1a() {
        // The published FNV-1a 64 test vectors: the offset basis for "", and "a".
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
