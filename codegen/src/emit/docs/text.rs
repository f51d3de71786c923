//! Escaping for GitHub-flavoured Markdown: table cells, inline prose, code blocks, anchors.

/// Inline prose: characters that would start HTML, an entity or emphasis render literally.
/// Code spans the docs write (`` `lsc_load` ``) are kept, since their content is literal on
/// GitHub anyway; only their `|` is escaped, which GFM tables require even inside code.
pub fn escape_inline(s: &str) -> String {
    escape(s, false, true)
}

/// A name (field, instruction) in a cell or heading: every character literal, backticks too.
pub fn name_cell(s: &str) -> String {
    escape(
        &s.split_whitespace().collect::<Vec<_>>().join(" "),
        true,
        false,
    )
}

/// `table`: the text goes in a table cell, where `|` ends the cell even inside a code span.
/// `code`: backtick spans of the docs stay code spans.
fn escape(s: &str, table: bool, code: bool) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' && code {
            let run = chars[i..].iter().take_while(|&&c| c == '`').count();
            if let Some(close) = closing_run(&chars, i + run, run) {
                for &c in &chars[i..close + run] {
                    if c == '|' && table {
                        out.push('\\');
                    }
                    out.push(c);
                }
                i = close + run;
                continue;
            }
            for _ in 0..run {
                out.push_str("\\`");
            }
            i += run;
            continue;
        }
        match chars[i] {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '|' => out.push_str("\\|"),
            '\\' => out.push_str("\\\\"),
            '*' => out.push_str("\\*"),
            '_' => out.push_str("\\_"),
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '~' => out.push_str("\\~"),
            '`' => out.push_str("\\`"),
            // Only at the start could these open a heading or a list.
            '#' | '-' | '+' if out.trim().is_empty() => {
                out.push('\\');
                out.push(chars[i]);
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// Start of the backtick run of exactly `len` that closes a code span opened before `from`.
fn closing_run(chars: &[char], from: usize, len: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '`' {
            let run = chars[j..].iter().take_while(|&&c| c == '`').count();
            if run == len {
                return Some(j);
            }
            j += run;
        } else {
            j += 1;
        }
    }
    None
}

/// A table cell: one line, `|` escaped, HTML-looking text literal.
pub fn cell(s: &str) -> String {
    escape(
        &s.split_whitespace().collect::<Vec<_>>().join(" "),
        true,
        true,
    )
}

/// A code span for a table cell, delimited by a backtick run longer than any inside.
pub fn code_cell(s: &str) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.is_empty() {
        return String::new();
    }
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest + 1);
    // A space keeps a leading or trailing backtick of the content apart from the delimiter.
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{}{pad}{ticks}", s.replace('|', "\\|"))
}

/// A link target for a page name: anything but `[A-Za-z0-9._-]` percent-encoded.
pub fn url_path(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A fenced code block longer than any backtick run inside, so no content can close it.
/// Empty text gives an empty string (the section is then omitted).
pub fn code_block(s: &str, lang: &str) -> String {
    if s.trim().is_empty() {
        return String::new();
    }
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{lang}\n{}\n{fence}", s.trim_end())
}

/// GitHub's heading anchor: lower case, spaces to `-`, punctuation other than `-` and `_` dropped.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap_or(c)),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings in order, deduplicated as GitHub does: a repeated slug
/// gets `-1`, `-2`, ... (skipping any suffix already taken).
#[derive(Debug, Default)]
pub struct Anchors {
    taken: std::collections::BTreeSet<String>,
}

impl Anchors {
    /// Records the next heading of the page and returns its anchor.
    pub fn add(&mut self, heading: &str) -> String {
        let base = slug(heading);
        let mut anchor = base.clone();
        let mut n = 0;
        while self.taken.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        self.taken.insert(anchor.clone());
        anchor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_escape_pipes_html_and_join_lines() {
        assert_eq!(cell("a | b"), "a \\| b");
        assert_eq!(
            cell("<exec_size>\n  elements"),
            "&lt;exec\\_size&gt; elements"
        );
        assert_eq!(cell("M1_NM"), "M1\\_NM");
        assert_eq!(cell("a*b* [x]"), "a\\*b\\* \\[x\\]");
        assert_eq!(cell("# not a heading"), "\\# not a heading");
    }

    #[test]
    fn code_spans_stay_code_with_pipes_escaped() {
        assert_eq!(cell("use `lsc_load` <here>"), "use `lsc_load` &lt;here&gt;");
        assert_eq!(cell("`a|b` or c"), "`a\\|b` or c");
        assert_eq!(cell("``x ` y`` z"), "``x ` y`` z");
        // An unclosed backtick is literal text, not the start of a span.
        assert_eq!(cell("a ` b_c"), "a \\` b\\_c");
        assert_eq!(cell("``a` b"), "\\`\\`a\\` b");
        // Outside a table a pipe in code is shown as written.
        assert_eq!(escape_inline("`a|b`"), "`a|b`");
        assert_eq!(escape_inline("- item ~x~"), "\\- item \\~x\\~");
        assert_eq!(name_cell("`Src|0`"), "\\`Src\\|0\\`");
    }

    #[test]
    fn code_block_fence_outlasts_backticks_inside() {
        assert_eq!(code_block("a = b;", ""), "```\na = b;\n```");
        assert_eq!(code_block("x ```` y", ""), "`````\nx ```` y\n`````");
        assert_eq!(code_block("  \n", ""), "");
    }

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slug("Field: Exec_size"), "field-exec_size");
        assert_eq!(
            slug("When LscSubOp=lsc_load, lsc_store"),
            "when-lscsuboplsc_load-lsc_store"
        );
        assert_eq!(slug("3D_SAMPLE"), "3d_sample");
        assert_eq!(slug("Field: a<b> & `c`"), "field-ab--c");
    }

    #[test]
    fn code_cells_and_url_paths() {
        assert_eq!(code_cell("ADD.md"), "`ADD.md`");
        assert_eq!(code_cell("a`b|c"), "``a`b\\|c``");
        assert_eq!(code_cell("`x"), "`` `x ``");
        assert_eq!(code_cell(""), "");
        assert_eq!(url_path("LSC_FENCE"), "LSC_FENCE");
        assert_eq!(url_path("A B(c)"), "A%20B%28c%29");
    }

    #[test]
    fn repeated_headings_get_numbered_anchors() {
        let mut a = Anchors::default();
        assert_eq!(a.add("Field: Src"), "field-src");
        assert_eq!(a.add("Field: src"), "field-src-1");
        assert_eq!(a.add("Field: SRC"), "field-src-2");
        assert_eq!(a.add("Field: src-1"), "field-src-1-1");
    }
}
