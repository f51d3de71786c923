//! Counted fields: a field repeated N times, N being the value of another field.
//!
//! Docs write it two ways. A jump table repeats one field in the format row,
//! `| Num_labels | Label0 | LabelN | Label(Num_labels-1) |` (kind `repeat`). `3D_LOAD` and
//! `3D_SAMPLE` list every parameter but encode only the first `NumParams` of them: the count
//! field's bullet says "number of additional parameters" and the notes say "It is permitted to
//! skip the trailing parameters" (kind `prefix`). Both are read from the doc's own words here.

use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    last_item: Regex,
    parameters: Regex,
    skip: Regex,
    range_dash: Regex,
    range_dots: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        // The patterns are literals; a typo is caught by every test run.
        let re = |s: &str| Regex::new(s).expect("valid pattern");
        Patterns {
            last_item: re(
                r"^([A-Za-z_][A-Za-z0-9_]*?)_?\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*-\s*1\s*\)(\\?\*)?$",
            ),
            parameters: re(r"(?i)\bnumber\s+of\s+(?:additional\s+|extra\s+)?parameters\b"),
            // "paremeters": 3D_LOAD's own spelling.
            skip: re(r"(?i)\bskip\s+(?:the\s+)?trailing\s+pa\w*meters\b"),
            range_dash: re(r"(?i)valid\s+values\s+are\s*:?\s*\[\s*(\d+)\s*-\s*(\d+)\s*\]"),
            range_dots: re(r"(?i)range\s*:?\s*\[\s*(\d+)\s*\.\.\.?\s*(\d+)\s*\]"),
        }
    })
}

/// `Label(Num_labels-1)` → `("Label", "Num_labels")`: the last item of a repetition.
pub fn last_item(cell: &str) -> Option<(&str, &str)> {
    let c = patterns().last_item.captures(cell.trim())?;
    Some((c.get(1)?.as_str(), c.get(2)?.as_str()))
}

/// Is `cell` an earlier item of the repetition of `stem`: `Label0`, `Label1`, `LabelN`,
/// `Label_N`, `Label...`?
pub fn is_item(cell: &str, stem: &str) -> bool {
    let cell = cell.trim_end_matches("\\*").trim_end_matches('*');
    let Some(rest) = cell.strip_prefix(stem) else {
        return false;
    };
    let rest = rest.strip_prefix('_').unwrap_or(rest);
    !rest.is_empty()
        && (rest.chars().all(|c| c.is_ascii_digit())
            || matches!(rest, "N" | "n" | "i" | "I" | "..." | "…"))
}

/// A cell that stands for items left out: `...`, `…`.
pub fn is_ellipsis(cell: &str) -> bool {
    matches!(cell.trim(), "..." | "…" | "...." | "⋯")
}

/// Does a count field's bullet say it counts the parameters that follow?
pub fn counts_parameters(description: &str) -> bool {
    patterns().parameters.is_match(description)
}

/// The range a count field's bullet states, with its sentence: `Valid values are [1-15]`,
/// `Must be in the range [1..32]`.
pub fn range(description: &str) -> Option<(u64, u64, String)> {
    let p = patterns();
    let c = p
        .range_dash
        .captures(description)
        .or_else(|| p.range_dots.captures(description))?;
    let min = c.get(1)?.as_str().parse().ok()?;
    let max = c.get(2)?.as_str().parse().ok()?;
    let whole = c.get(0)?;
    Some((
        min,
        max,
        sentence_around(description, whole.start(), whole.end()),
    ))
}

/// The doc's sentence allowing trailing parameters to be skipped, if it has one.
pub fn skip_sentence(text: &str) -> Option<String> {
    let m = patterns().skip.find(text)?;
    Some(sentence_around(text, m.start(), m.end()))
}

/// The sentence of `text` holding bytes `from..to`, on one line, whitespace collapsed.
fn sentence_around(text: &str, from: usize, to: usize) -> String {
    let before = &text[..from];
    let start = before
        .rfind(". ")
        .map(|i| i + 2)
        .into_iter()
        .chain(before.rfind('\n').map(|i| i + 1))
        .max()
        .unwrap_or(0);
    let after = &text[to..];
    let end = after
        .find(". ")
        .map(|i| i + 1)
        .into_iter()
        .chain(after.find('\n'))
        .min()
        .map_or(text.len(), |i| to + i);
    text[start..end]
        .trim_start()
        .trim_start_matches(['-', '*', '+'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_items_name_their_stem_and_count() {
        assert_eq!(
            last_item("Label(Num_labels-1)"),
            Some(("Label", "Num_labels"))
        );
        assert_eq!(
            last_item("Item( Num_items - 1 )"),
            Some(("Item", "Num_items"))
        );
        assert_eq!(last_item("Label_(N-1)"), Some(("Label", "N")));
        assert_eq!(last_item("Label(Num_labels)"), None);
        assert_eq!(last_item("Label"), None);
    }

    #[test]
    fn earlier_items_share_the_stem() {
        assert!(is_item("Label0", "Label") && is_item("LabelN", "Label"));
        assert!(is_item("Label_1", "Label") && is_item("Label12", "Label"));
        assert!(!is_item("Label", "Label") && !is_item("Labels", "Label"));
        assert!(!is_item("Index", "Label"));
        assert!(is_ellipsis("...") && !is_ellipsis("Index"));
    }

    #[test]
    fn ranges_in_both_notations() {
        assert_eq!(
            range("number of additional parameters for this instruction. Valid values are  [1-15]"),
            Some((1, 15, "Valid values are [1-15]".into()))
        );
        assert_eq!(
            range("Number of labels. Must be in the range [1..32]. Other text."),
            Some((1, 32, "Must be in the range [1..32].".into()))
        );
        assert_eq!(range("Valid values are [-8-7]"), None);
    }

    #[test]
    fn parameters_and_skipping_are_read_from_the_words() {
        assert!(counts_parameters(
            "number of additional parameters for this instruction."
        ));
        assert!(!counts_parameters(
            "Number of GRF registers for the payload"
        ));
        let notes = "Refer to the table below. It is permitted to skip the trailing paremeters; the missing parameters will have a value of 0.\nNext line.";
        assert_eq!(
            skip_sentence(notes).as_deref(),
            Some("It is permitted to skip the trailing paremeters; the missing parameters will have a value of 0.")
        );
        assert_eq!(skip_sentence("Parameters may not be skipped."), None);
    }
}
