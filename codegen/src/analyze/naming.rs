//! Naming policy (see `codegen/NAMING.md`): how doc names and value meanings become Rust names.
//! Names are API: these functions change only with a deliberate, documented decision.

/// Rust keywords and reserved words that cannot be plain identifiers.
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Splits a doc name into words: at `_`, `-`, spaces and other punctuation, and at
/// lower→upper case changes (`LscSubOp` → `Lsc`, `Sub`, `Op`).
pub fn words(s: &str) -> Vec<&str> {
    // Each word is a run of ASCII letters and digits, so a slice of `s`: names are made of
    // thousands of them, and a string each was most of naming's cost.
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut has_alpha = false;
    let mut prev: Option<u8> = None;
    for (i, c) in s.char_indices() {
        if !c.is_ascii_alphanumeric() {
            if let Some(st) = start.take() {
                out.push(&s[st..i]);
            }
            (prev, has_alpha) = (None, false);
            continue;
        }
        let b = c as u8;
        if let (Some(p), Some(st)) = (prev, start) {
            // `LscSubOp` → Lsc Sub Op; `Src0Data` → Src0 Data (but `3D` stays one word).
            let after_digit = p.is_ascii_digit() && has_alpha;
            if (p.is_ascii_lowercase() || after_digit) && b.is_ascii_uppercase() {
                out.push(&s[st..i]);
                (start, has_alpha) = (None, false);
            }
        }
        start.get_or_insert(i);
        has_alpha |= b.is_ascii_alphabetic();
        prev = Some(b);
    }
    if let Some(st) = start {
        out.push(&s[st..]);
    }
    out
}

/// Appends `w` (ASCII, as [`words`] gives) capitalised: `SAMPLE` → `Sample`.
fn push_capitalized(out: &mut String, w: &str) {
    for (k, c) in w.chars().enumerate() {
        out.push(match k {
            0 => c.to_ascii_uppercase(),
            _ => c.to_ascii_lowercase(),
        });
    }
}

/// A type name: `QW_SCATTER` → `QwScatter`; leading digit words move to the end
/// (`3D_SAMPLE` → `Sample3d`), since Rust names cannot start with a digit.
pub fn type_name(s: &str) -> String {
    let mut ws = words(s);
    let lead = ws
        .iter()
        .take_while(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    if lead > 0 && lead < ws.len() {
        ws.rotate_left(lead);
    }
    let mut name = String::with_capacity(s.len() + 1);
    for w in &ws {
        push_capitalized(&mut name, w);
    }
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'N');
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// A field or module name: `Exec_size` → `exec_size`, `LscSubOp` → `lsc_sub_op`,
/// `3D_SAMPLE` → `sample_3d`; keywords get a trailing `_` (`type` → `type_`).
pub fn snake_name(s: &str) -> String {
    let mut ws = words(s);
    let lead = ws
        .iter()
        .take_while(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    if lead > 0 && lead < ws.len() {
        ws.rotate_left(lead);
    }
    let mut name = ws
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'n');
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// An enum variant from a value's meaning: the text before any `(`, at most four words,
/// CamelCase; a leading digit gets an `N` (`8 elements` → `N8Elements`, `M1_NM` → `M1Nm`,
/// `lsc_load` → `LscLoad`). Empty results fall back to `V{value}`.
pub fn variant_name(meaning: &str, value: u64) -> String {
    let head = meaning.split('(').next().unwrap_or("").trim();
    let source = if head.is_empty() { meaning } else { head };
    let mut name = String::with_capacity(source.len() + 1);
    for w in words(source).into_iter().take(4) {
        push_capitalized(&mut name, w);
    }
    if name.is_empty() {
        return format!("V{value}");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'N');
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// A bit-range member name from its summary: the text before any `(`, `:`, `.` or `,`;
/// a leading verb phrase (`encodes the`, `determines the`, `specifies the`) dropped; cut at the
/// first ` to `, ` for `, ` that `, ` as `, ` when `, ` with `, ` in `; articles dropped. If at
/// most four plain words remain they are the name (`size`, `execution_mask`,
/// `number_of_blocks`), else `bits_hi_lo` (`bit_n` for one bit).
pub fn member_name(summary: &str, hi: u8, lo: u8) -> String {
    let head = summary
        .split(['(', ':', '.', ','])
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let mut text = head.as_str();
    for verb in [
        "encodes the ",
        "encodes ",
        "determines the ",
        "specifies the ",
        "specifies ",
    ] {
        if let Some(rest) = text.strip_prefix(verb) {
            text = rest;
            break;
        }
    }
    for cut in [
        " of each ",
        " of the ",
        " to ",
        " for ",
        " that ",
        " as ",
        " when ",
        " with ",
        " in ",
    ] {
        if let Some(i) = text.find(cut) {
            text = &text[..i];
        }
    }
    let ws: Vec<&str> = words(text)
        .into_iter()
        .filter(|w| !matches!(*w, "the" | "a" | "an"))
        .collect();
    if !ws.is_empty()
        && ws.len() <= 4
        && ws
            .iter()
            .all(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
    {
        return snake_name(&ws.join("_"));
    }
    if hi == lo {
        format!("bit_{hi}")
    } else {
        format!("bits_{hi}_{lo}")
    }
}

/// The name part of a value's meaning, when it has one: a quoted name (`"16-bit full". Two
/// bytes ...` → `16-bit full`), else the text before a `(`, ` - `, ` -- `, `:`, `;`, `,` or
/// `. `, when that is one word (`lsc_load`, `M1_NM`, `16-bit`, `bf (bfloat16)` → `bf`) or a
/// count and its unit (`8 elements`, `1 element (scalar)` → `1 element`). A phrase (`flag
/// clear`, `fence applies to ...`) is a description, not a name: `None`.
pub fn value_name(meaning: &str) -> Option<&str> {
    let m = meaning.trim();
    if let Some(rest) = m.strip_prefix('"') {
        let name = rest.split('"').next().unwrap_or("").trim();
        return (!name.is_empty()).then_some(name);
    }
    let mut head = m;
    for cut in ["(", " - ", " -- ", ":", ";", ",", ". "] {
        if let Some(i) = head.find(cut) {
            head = &head[..i];
        }
    }
    let head = head.trim().trim_end_matches('.');
    let ws: Vec<&str> = head.split_whitespace().collect();
    let unit = |w: &str| w.chars().all(|c| c.is_ascii_alphabetic());
    let count = |w: &str| w.chars().all(|c| c.is_ascii_digit());
    match ws.as_slice() {
        [_] => Some(head),
        [n, u] if count(n) && unit(u) => Some(head),
        _ => None,
    }
}

/// Whether [`variant_name`] of `meaning` comes from the value's name ([`value_name`]) alone,
/// not from words of its description: `1 element (scalar)` (`N1Element`) and `cached (.ca)`
/// do, `EQ - equal to` (`EqEqualTo`) and `flag clear` do not. A value without meaning is named
/// after its number, which is no description either.
pub fn variant_from_name(meaning: &str, value: u64) -> bool {
    if meaning.trim().is_empty() {
        return true;
    }
    value_name(meaning).is_some_and(|n| variant_name(n, value) == variant_name(meaning, value))
}

/// A pinned name as the generated code spells it: a keyword gets a trailing `_`.
pub fn pinned(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// What a pin of a bit range names: doc (`None`: every doc), field, `hi`, `lo`.
type MemberKey = (Option<String>, String, u8, u8);
/// What a pin of a value names: doc (`None`: every doc), field, bit range (if any), value.
type ValueKey = (Option<String>, String, Option<(u8, u8)>, u64);

/// The Rust names pinned beside the docs (`[[name]]` of `regen.toml`,
/// [`crate::config::NamePin`]), by doc (`None`: every doc), field, bit range and value; and
/// whether a name taken from a description that no pin names is reported (`V0230`).
#[derive(Clone, Debug, Default, Hash)]
pub struct Pins {
    members: std::collections::BTreeMap<MemberKey, String>,
    values: std::collections::BTreeMap<ValueKey, String>,
    /// Report names from descriptions that no pin names (regen and diff do; a bare analysis,
    /// as tests run it, does not).
    pub report: bool,
}

impl Pins {
    /// The pins of `pins`, reporting names from descriptions that none of them names.
    pub fn new(pins: &[crate::config::NamePin]) -> Pins {
        let mut out = Pins {
            report: true,
            ..Pins::default()
        };
        for p in pins {
            match (p.value, p.range()) {
                (Some(v), range) => {
                    out.values
                        .insert((p.doc.clone(), p.field.clone(), range, v), p.name.clone());
                }
                (None, Some((hi, lo))) => {
                    out.members
                        .insert((p.doc.clone(), p.field.clone(), hi, lo), p.name.clone());
                }
                (None, None) => {}
            }
        }
        out
    }

    /// The pinned name of bits `hi..lo` of `field` in `doc`: the doc's own pin, else one for
    /// every doc.
    pub fn member(&self, doc: &str, field: &str, hi: u8, lo: u8) -> Option<&str> {
        let key = |d: Option<&str>| (d.map(str::to_string), field.to_string(), hi, lo);
        self.members
            .get(&key(Some(doc)))
            .or_else(|| self.members.get(&key(None)))
            .map(String::as_str)
    }

    /// The pinned name of `value` of `field` (of its bits `range`, if any) in `doc`.
    pub fn value(
        &self,
        doc: &str,
        field: &str,
        range: Option<(u8, u8)>,
        value: u64,
    ) -> Option<&str> {
        let key = |d: Option<&str>| (d.map(str::to_string), field.to_string(), range, value);
        self.values
            .get(&key(Some(doc)))
            .or_else(|| self.values.get(&key(None)))
            .map(String::as_str)
    }
}

/// The names taken in one namespace (an enum's variants, a struct's members): written once,
/// so every place that picks names resolves a collision the same way, until none is left.
#[derive(Clone, Debug, Default)]
pub struct Names(std::collections::BTreeSet<String>);

impl Names {
    /// A namespace in which `taken` are never given out.
    pub fn reserving(taken: &[&str]) -> Self {
        Names(taken.iter().map(|s| s.to_string()).collect())
    }

    /// The first free one of `base`, `alternative`, `alternative_2`, `alternative_3`, ...,
    /// now taken.
    pub fn claim(&mut self, base: &str, alternative: &str) -> String {
        let mut name = base.to_string();
        if self.0.contains(&name) {
            name = alternative.to_string();
        }
        let mut n = 2;
        while self.0.contains(&name) {
            name = format!("{alternative}_{n}");
            n += 1;
        }
        self.0.insert(name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_every_collision() {
        let mut n = Names::reserving(&["reserved"]);
        assert_eq!(n.claim("a", "a1"), "a");
        assert_eq!(n.claim("a", "a1"), "a1");
        // Retrying once was not enough: `a1` was taken too.
        assert_eq!(n.claim("a", "a1"), "a1_2");
        assert_eq!(n.claim("a", "a1"), "a1_3");
        assert_eq!(n.claim("reserved", "bits_3_0"), "bits_3_0");
        assert_eq!(n.claim("src", "src"), "src");
        assert_eq!(n.claim("src", "src"), "src_2");
    }

    #[test]
    fn words_split_at_separators_case_changes_and_digits_after_letters() {
        assert_eq!(words("LscSubOp"), vec!["Lsc", "Sub", "Op"]);
        assert_eq!(words("Src0Data"), vec!["Src0", "Data"]);
        assert_eq!(words("3D_SAMPLE"), vec!["3D", "SAMPLE"]);
        assert_eq!(words("Exec_size"), vec!["Exec", "size"]);
    }

    #[test]
    fn type_names_never_start_with_a_digit_or_are_keywords() {
        assert_eq!(type_name("3D"), "N3d");
        assert_eq!(type_name(""), "N");
        assert_eq!(type_name("self"), "Self_");
    }

    #[test]
    fn type_names() {
        assert_eq!(type_name("QW_SCATTER"), "QwScatter");
        assert_eq!(type_name("SCATTER4_SCALED"), "Scatter4Scaled");
        assert_eq!(type_name("3D_SAMPLE"), "Sample3d");
        assert_eq!(type_name("LscSubOp"), "LscSubOp");
        assert_eq!(type_name("SVM_ATOMIC"), "SvmAtomic");
    }

    #[test]
    fn snake_names() {
        assert_eq!(snake_name("Exec_size"), "exec_size");
        assert_eq!(snake_name("LscSubOp"), "lsc_sub_op");
        assert_eq!(snake_name("SVM_ID"), "svm_id");
        assert_eq!(snake_name("3D_SAMPLE"), "sample_3d");
        assert_eq!(snake_name("type"), "type_");
        assert_eq!(snake_name("Src0Data"), "src0_data");
    }

    #[test]
    fn variant_names() {
        assert_eq!(variant_name("1 element (scalar)", 0), "N1Element");
        assert_eq!(variant_name("M1_NM", 8), "M1Nm");
        assert_eq!(variant_name("lsc_load", 0), "LscLoad");
        assert_eq!(
            variant_name("T0 - Shared Local Memory (SLM) access", 0),
            "T0SharedLocalMemory"
        );
        assert_eq!(variant_name("32-bit", 0), "N32Bit");
        assert_eq!(variant_name("", 7), "V7");
        assert_eq!(variant_name("self", 1), "Self_");
    }

    #[test]
    fn value_names_are_one_word_a_count_and_unit_or_quoted() {
        assert_eq!(value_name("lsc_load"), Some("lsc_load"));
        assert_eq!(value_name("1 element (scalar)"), Some("1 element"));
        assert_eq!(value_name("1 element(scalar)"), Some("1 element"));
        assert_eq!(value_name("cached  (.ca)"), Some("cached"));
        assert_eq!(value_name("EQ - equal to"), Some("EQ"));
        assert_eq!(
            value_name("aligned: the address must be oword aligned"),
            Some("aligned")
        );
        assert_eq!(
            value_name("8 blocks. It is only valid for 4 byte blocks"),
            Some("8 blocks")
        );
        assert_eq!(
            value_name("\"16-bit full\". Two bytes"),
            Some("16-bit full")
        );
        assert_eq!(value_name("16-bit"), Some("16-bit"));
        assert_eq!(value_name("flag clear"), None);
        assert_eq!(
            value_name("fence applies to shared local memory only"),
            None
        );
        assert_eq!(value_name(""), None);
    }

    #[test]
    fn variants_from_descriptions_are_told_apart() {
        assert!(variant_from_name("1 element (scalar)", 0));
        assert!(variant_from_name("1 block (16 bytes)", 0));
        assert!(variant_from_name("M1_NM", 8));
        assert!(variant_from_name("bf (bfloat16)", 9));
        assert!(variant_from_name("", 3));
        // `EqEqualTo`, `FlagClear`, `N8BlocksItIs`: words of a description are in the name.
        assert!(!variant_from_name("EQ - equal to", 0));
        assert!(!variant_from_name("flag clear", 0));
        assert!(!variant_from_name(
            "8 blocks. It is only valid for 4 byte blocks",
            3
        ));
    }

    #[test]
    fn a_doc_pin_comes_before_a_pin_for_every_doc() {
        let pin = |doc: Option<&str>, bits: Option<&str>, value: Option<u64>, name: &str| {
            crate::config::NamePin {
                doc: doc.map(str::to_string),
                field: "Size".into(),
                bits: bits.map(str::to_string),
                value,
                name: name.into(),
            }
        };
        let pins = Pins::new(&[
            pin(None, Some("2..0"), None, "size"),
            pin(Some("B.md"), Some("2..0"), None, "number_of_blocks"),
            pin(None, Some("2..0"), Some(1), "Two"),
            pin(Some("B.md"), None, Some(1), "One"),
        ]);
        assert_eq!(pins.member("A.md", "Size", 2, 0), Some("size"));
        assert_eq!(pins.member("B.md", "Size", 2, 0), Some("number_of_blocks"));
        assert_eq!(pins.member("A.md", "Size", 3, 0), None);
        assert_eq!(pins.member("A.md", "Other", 2, 0), None);
        assert_eq!(pins.value("A.md", "Size", Some((2, 0)), 1), Some("Two"));
        assert_eq!(pins.value("B.md", "Size", None, 1), Some("One"));
        assert_eq!(pins.value("A.md", "Size", None, 1), None);
        assert!(pins.report && !Pins::default().report);
    }

    #[test]
    fn member_names() {
        let m = member_name;
        assert_eq!(
            m(
                "execution mask (explicit control over the enabled channels)",
                7,
                4
            ),
            "execution_mask"
        );
        assert_eq!(
            m(
                "size of the region for source and destination operands",
                2,
                0
            ),
            "size"
        );
        assert_eq!(
            m(
                "encodes the number of blocks to read for each address",
                1,
                0
            ),
            "number_of_blocks"
        );
        assert_eq!(
            m("encodes the byte size of each element", 1, 0),
            "byte_size"
        );
        assert_eq!(
            m("encodes the execution mask as described in Table 4.", 7, 4),
            "execution_mask"
        );
        assert_eq!(
            m(
                "determines the write masks for the RGBA channel, with R",
                3,
                0
            ),
            "write_masks"
        );
        assert_eq!(
            m("pixel null mask enable. Specifies", 8, 8),
            "pixel_null_mask_enable"
        );
        assert_eq!(m("the data width in 2^n bytes", 6, 5), "data_width");
        assert_eq!(
            m("encodes the data width of the atomic operation", 6, 5),
            "data_width"
        );
        assert_eq!(
            m("encodes the 32 bit thing and more words here", 3, 3),
            "bit_3"
        );
    }
}
