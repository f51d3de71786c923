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

/// Bit 0: a byte of [`TOKEN_BYTES`]; bit 1: one a name can start with (not a digit or `-`).
const TOKEN_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        if TOKEN_BYTES[b] {
            let c = b as u8;
            t[b] = if c.is_ascii_digit() || c == b'-' {
                1
            } else {
                3
            };
        }
        b += 1;
    }
    t
};

/// Calls `f` with each token of `code` that can be a name: the [`tokens`] that do not start
/// with a digit or `-` (numbers, regions, offsets). A line of up to 128 bytes is classified
/// into two bit masks, without a branch per byte; tokens start where a token bit follows a
/// clear one.
pub fn name_tokens<'a>(code: &'a str, mut f: impl FnMut(&'a str)) {
    let b = code.as_bytes();
    if b.len() > 128 {
        for t in tokens(code) {
            if !matches!(t.as_bytes().first(), Some(b'0'..=b'9' | b'-')) {
                f(t);
            }
        }
        return;
    }
    // Two 64-byte halves, each in 64-bit registers.
    let half = |b: &[u8]| {
        let (mut token, mut name) = (0u64, 0u64);
        for (i, x) in b.iter().take(64).enumerate() {
            let c = TOKEN_CLASS[usize::from(*x)];
            token |= u64::from(c & 1) << i;
            name |= u64::from(c >> 1) << i;
        }
        (token, name)
    };
    let (lo_token, lo_name) = half(b);
    let (hi_token, hi_name) = half(b.get(64..).unwrap_or_default());
    let token = u128::from(lo_token) | (u128::from(hi_token) << 64);
    let name = u128::from(lo_name) | (u128::from(hi_name) << 64);
    let mut starts = token & !(token << 1) & name;
    while starts != 0 {
        let at = starts.trailing_zeros() as usize;
        starts &= starts - 1;
        let len = (token >> at).trailing_ones() as usize;
        if let Some(t) = code.get(at..at + len) {
            f(t);
        }
    }
}

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
        name_tokens(code, |t| {
            if let Some(n) = lookup(t) {
                mention(n);
            }
        });
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
    fn name_tokens_are_the_tokens_that_can_be_names() {
        // Lines of every length around the 128-byte masks, tokens at both ends.
        for n in 0..140 {
            for line in [
                "a-b V1(0,0)<1> -2 x9 %null.0 é9 q ".repeat(6),
                "_ 12 V0032(0,0)<1;1,0>:é $x".repeat(6),
            ] {
                let line = line
                    .get(..line.char_indices().nth(n).map_or(line.len(), |c| c.0))
                    .unwrap();
                let mut got = Vec::new();
                name_tokens(line, |t| got.push(t));
                let want: Vec<&str> = tokens(line)
                    .filter(|t| !t.starts_with(|c: char| c.is_ascii_digit() || c == '-'))
                    .collect();
                assert_eq!(got, want, "{line}");
            }
        }
    }

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
        let mut names = Vec::new();
        name_tokens(
            "(!P1) goto (M1, 16) _0_009 r[A0(1),-4]<8;8,1>:d (-)V0134(0,0)<1;1,0> %null.0",
            |t| names.push(t),
        );
        assert_eq!(
            names,
            ["P1", "goto", "M1", "_0_009", "r", "A0", "d", "V0134", "%null"]
        );
        assert_eq!(strip_label_suffix("fa_3", 3), "fa");
        assert_eq!(strip_label_suffix("fa_3", 4), "fa_3");
        assert_eq!(strip_label_suffix("_3", 3), "_3");
    }
}
