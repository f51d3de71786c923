//! Section text: fences and common indentation removed, trimmed.

/// Is this line a code fence (```` ``` ```` or `~~~`, with or without an info string)?
pub fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// Leading tabs count as four columns, the width the docs were written with.
fn expand_leading_tabs(line: &str) -> String {
    let indent: String = line
        .chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| {
            if c == '\t' {
                "    ".to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    let rest = line.trim_start();
    format!("{indent}{rest}")
}

/// The text of a section's lines: fence lines dropped, leading tabs expanded, common
/// indentation of non-blank lines removed, trailing whitespace and outer blank lines trimmed.
pub fn clean(lines: &[&str]) -> String {
    let kept: Vec<String> = lines
        .iter()
        .filter(|l| !is_fence(l))
        .map(|l| expand_leading_tabs(l).trim_end().to_string())
        .collect();
    let indent = kept
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = kept.iter().map(|l| l.get(indent..).unwrap_or("")).collect();
    body.join("\n").trim_matches('\n').to_string()
}

/// Joins wrapped prose into one line per paragraph.
pub fn prose(lines: &[&str]) -> String {
    clean(lines)
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_drops_fences_and_common_indentation() {
        let lines = ["```", "", "    for (i) {", "      x;", "    }", "```", ""];
        assert_eq!(clean(&lines), "for (i) {\n  x;\n}");
    }

    #[test]
    fn clean_expands_tabs_before_dedenting() {
        let lines = ["    ", "", "\t\tOWORD_ST (<size>) <surface>", "```"];
        assert_eq!(clean(&lines), "OWORD_ST (<size>) <surface>");
    }

    #[test]
    fn prose_joins_wrapped_lines() {
        assert_eq!(prose(&["  a", "  b", "", "c "]), "a b\n\nc");
    }
}
