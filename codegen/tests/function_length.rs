//! One phase per function: no function under `codegen/src` is longer than about 80 lines
//! unless the comment above it says why (a table, one match arm per case, where splitting would
//! hurt), or it is listed below. The scan is a heuristic (braces outside strings, char literals
//! and `//` comments), the same one `longfns.py` of the issue runs.

mod common;

/// The most lines a function may span, signature to closing brace ("about 80").
const LIMIT: usize = 85;

/// Longer functions known and accepted, as `file:function`. Take an entry off once its
/// function is split.
const ALLOWED: &[&str] = &[];

/// Words in the comment above a function that say why it is long.
const WHY: &[&str] = &["one arm per", "a table", "long:"];

/// Each line of `text` without its string and char literals and `//` comments (strings may
/// span lines; raw strings `r#"..."#` included).
fn code_lines(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = text.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push(String::new()),
            '"' => {
                // `r"`, `r#"`, `br"`: a raw string ends at `"` and as many `#` as it opened with.
                let hashes = if prev == 'r' || prev == '#' {
                    out.last()
                        .map_or(0, |l| l.chars().rev().take_while(|&h| h == '#').count())
                } else {
                    usize::MAX
                };
                while let Some(s) = chars.next() {
                    match s {
                        '\n' => out.push(String::new()),
                        // An escape takes the next char (a line break continues the string).
                        '\\' if hashes == usize::MAX => {
                            let escaped = chars.next();
                            if escaped == Some('\n') {
                                out.push(String::new());
                            }
                        }
                        '"' => {
                            let n = if hashes == usize::MAX { 0 } else { hashes };
                            let mut ahead = chars.clone();
                            if (0..n).all(|_| ahead.next() == Some('#')) {
                                for _ in 0..n {
                                    chars.next();
                                }
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            // A char literal (`'{'`, `'\''`), not a lifetime (`'a`).
            '\'' => {
                let mut ahead = chars.clone();
                match (ahead.next(), ahead.next()) {
                    (Some('\\'), Some(_)) => {
                        chars.next();
                        chars.next();
                        for s in chars.by_ref() {
                            if s == '\'' {
                                break;
                            }
                        }
                    }
                    (Some(_), Some('\'')) => {
                        chars.next();
                        chars.next();
                    }
                    _ => {}
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                while chars.peek().is_some_and(|&s| s != '\n') {
                    chars.next();
                }
            }
            _ => out.last_mut().unwrap().push(c),
        }
        prev = c;
    }
    out
}

/// The name of the function `line` declares, if it declares one.
fn fn_name(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if w == "fn" {
            let name = words.next()?;
            let end = name
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(name.len());
            return Some(&name[..end]);
        }
        let qualifier = w == "pub"
            || w.starts_with("pub(")
            || matches!(w, "const" | "async" | "unsafe" | "extern");
        if !qualifier {
            return None;
        }
    }
    None
}

/// `(name, first line (1-based), lines spanned, comment above)` of each function of `text`.
fn functions(text: &str) -> Vec<(String, usize, usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let code = code_lines(text);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i64;
        let mut started = false;
        let mut end = None;
        for (j, code) in code.iter().enumerate().skip(i) {
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if started && depth <= 0 {
                end = Some(j);
                break;
            }
            if !started && code.trim_end().ends_with(';') {
                break;
            }
        }
        let Some(end) = end else { continue };
        let above: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .take_while(|l| {
                let t = l.trim_start();
                t.starts_with("//") || t.starts_with("#[")
            })
            .copied()
            .collect();
        out.push((name.to_string(), i + 1, end - i + 1, above.join("\n")));
    }
    out
}

#[test]
fn the_scan_measures_functions() {
    let text = "/// Short.\nfn a() {\n    let s = \"}\n\";\n    let c = '{';\n    let r = r#\"\"}\"#;\n}\n\n// one arm per case\npub(crate) fn b<'a>(x: &'a str) -> &'a str {\n    x // }\n}\n";
    let found = functions(text);
    let found: Vec<(&str, usize, usize)> = found
        .iter()
        .map(|(n, at, len, _)| (n.as_str(), *at, *len))
        .collect();
    assert_eq!(found, [("a", 2, 6), ("b", 10, 3)]);
    assert!(functions(text)[1].3.contains("one arm per"));
}

#[test]
fn no_function_is_long_without_a_reason() {
    let mut long = Vec::new();
    for (rel, text) in common::sources("src", 30) {
        for (name, at, len, above) in functions(&text) {
            if len <= LIMIT {
                continue;
            }
            let key = format!("{rel}:{name}");
            if ALLOWED.contains(&key.as_str()) {
                continue;
            }
            if !WHY.iter().any(|w| above.to_lowercase().contains(w)) {
                long.push(format!("{rel}:{at} {name} ({len} lines)"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines, without a comment above saying why (\"one arm per ...\", \
         \"a table\", \"long: ...\"): split them into one phase each\n{}",
        long.join("\n")
    );
}
