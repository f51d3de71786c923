//! The string pool in the order Intel's compiler fills it, as far as the text tells.
//!
//! Measured on the 59 routines of `real-kernels/dg2`: string 0 is the routine's name, 1-27 the
//! predefined variable and surface names, 28 `S31`; a kernel then has `OutputAsmPath` (an
//! attribute the text never prints), `Target`, `SimdSize`, its `_main` label, `T006`, `S000`;
//! after that IGC adds each name when its builder creates the thing, so variables (numbered in
//! creation order) are interleaved with predicates, addresses and labels created on first use
//! (`P01` between `V0080` and `V0081`, `_0_004` when a `goto` first names it), and
//! `PerThreadInputSize` comes after the code. The text does not say when a variable was created;
//! this module places each predicate, address and label right after the last variable named by
//! the instructions up to its first mention, which is what IGC does when it creates variables
//! just before their first use. Strings are never shared (IGC stores `rec` three times).

use alloc::string::String;
use alloc::vec::Vec;

#[derive(Default)]
pub struct Pool {
    pub strings: Vec<Vec<u8>>,
}

impl Pool {
    /// Appends `s`; returns its index.
    pub fn add(&mut self, s: &str) -> u32 {
        self.strings.push(s.as_bytes().to_vec());
        u32::try_from(self.strings.len() - 1).unwrap_or(u32::MAX)
    }
}

/// The bytes of CISA.l's identifier characters, plus `%` of predefined names and `-`.
const TOKEN_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'@' | b'?' | b'%' | b'-');
        b += 1;
    }
    t
};

/// The names of an instruction line that could be declared things: runs of identifier
/// characters, in line order. Bytes, not chars: every separator a name can end at is ASCII.
pub fn tokens(code: &str) -> Tokens<'_> {
    Tokens { code, at: 0 }
}

/// Iterator of [`tokens`].
pub struct Tokens<'a> {
    code: &'a str,
    at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.code.as_bytes();
        let mut i = self.at;
        while i < b.len() && !TOKEN_BYTES[usize::from(b[i])] {
            i += 1;
        }
        if i >= b.len() {
            self.at = i;
            return None;
        }
        let start = i;
        while i < b.len() && TOKEN_BYTES[usize::from(b[i])] {
            i += 1;
        }
        self.at = i;
        self.code.get(start..i)
    }
}

/// Attributes IGC sets after the code is emitted, whose names come last in a kernel's pool.
pub const LATE_KERNEL_ATTRIBUTES: [&str; 1] = ["PerThreadInputSize"];

/// What kind of declared thing a token names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Named {
    General(usize),
    Predicate(usize),
    Address(usize),
    Label(usize),
    /// The `n`-th string an instruction names (FCALL's callee): IGC adds one string per
    /// instruction when it builds it, after the variables its line names.
    Symbol(usize),
}

impl Named {
    /// The kind (0-4) and the index within it.
    fn slot(self) -> (usize, usize) {
        match self {
            Named::General(i) => (0, i),
            Named::Predicate(i) => (1, i),
            Named::Address(i) => (2, i),
            Named::Label(i) => (3, i),
            Named::Symbol(i) => (4, i),
        }
    }
}

/// How many things of each kind a body can mention: general variables, predicates,
/// addresses, labels, strings.
pub type Counts = [usize; 5];

/// Order of first mention over a body, as a list of [`Named`] (labels by definition index);
/// each line comes with the strings it names, mentioned after its tokens.
pub fn first_mentions<'a>(
    lines: impl Iterator<Item = (&'a str, &'a [usize])>,
    lookup: impl Fn(&str) -> Option<Named>,
    counts: Counts,
) -> Vec<Named> {
    let mut seen = counts.map(|n| alloc::vec![false; n]);
    let mut out = Vec::new();
    let mut mention = |n: Named| {
        let (kind, i) = n.slot();
        if let Some(s) = seen.get_mut(kind).and_then(|k| k.get_mut(i)) {
            if !*s {
                *s = true;
                out.push(n);
            }
        }
    };
    for (code, strings) in lines {
        // Declared names are identifiers (`Cursor::identifier`): a token starting with a
        // digit or `-` (numbers, regions, offsets) names nothing and needs no lookup.
        for t in tokens(code) {
            if matches!(t.as_bytes().first(), Some(b'0'..=b'9' | b'-')) {
                continue;
            }
            if let Some(n) = lookup(t) {
                mention(n);
            }
        }
        for s in strings {
            mention(Named::Symbol(*s));
        }
    }
    out
}

/// `fa_3` printed for label 3 named `fa`: the pool name without IGC's `_<id>` suffix.
pub fn strip_label_suffix(printed: &str, id: usize) -> String {
    let suffix = alloc::format!("_{id}");
    printed
        .strip_suffix(suffix.as_str())
        .filter(|s| !s.is_empty())
        .unwrap_or(printed)
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_of_an_instruction() {
        let t: Vec<&str> =
            tokens("(!P1) goto (M1, 16) _0_009 r[A0(1),-4]<8;8,1>:d (-)V0134(0,0)<1;1,0> %null.0")
                .collect();
        assert_eq!(
            t,
            [
                "P1", "goto", "M1", "16", "_0_009", "r", "A0", "1", "-4", "8", "8", "1", "d", "-",
                "V0134", "0", "0", "1", "1", "0", "%null", "0"
            ]
        );
        assert_eq!(strip_label_suffix("fa_3", 3), "fa");
        assert_eq!(strip_label_suffix("fa_3", 4), "fa_3");
        assert_eq!(strip_label_suffix("_3", 3), "_3");
    }
}
