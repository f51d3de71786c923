//! Source lines with comments removed, classified: Intel prints ` /// $N` after instructions and
//! `// .decl` lines for predefined variables; its parser also takes `/* */` comments (note
//! §4.1). Quoted strings keep `//` (`FILE "a//b.cl"`).

use alloc::vec::Vec;

/// One non-blank line after comment removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLine<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The whole original line (for diagnostics).
    pub text: &'a str,
    /// Byte column in `text` where `code` starts.
    pub column: usize,
    /// The line without comments and surrounding blanks.
    pub code: &'a str,
}

/// The lines of `source` that hold something besides comments and blanks. Lines split as
/// `str::lines` splits them (`\n`, or `\r\n`); one pass over the bytes finds each line's end
/// and where its code ends, 8 bytes at a time.
pub fn code_lines(source: &str) -> Vec<SourceLine<'_>> {
    // Intel's lines average about 60 bytes.
    let mut out = Vec::with_capacity(source.len() / 48);
    let bytes = source.as_bytes();
    let mut in_block = false;
    let mut pos = 0;
    let mut number = 0;
    while pos < bytes.len() {
        number += 1;
        let scan = if in_block {
            Scan::Slow(line_end(bytes, pos))
        } else {
            scan_line(bytes, pos)
        };
        let (Scan::Code { line_end, .. } | Scan::Slow(line_end)) = scan;
        let mut text = source.get(pos..line_end).unwrap_or("");
        if line_end < bytes.len() {
            text = text.strip_suffix('\r').unwrap_or(text);
        }
        pos = line_end + 1;
        let (start, end) = match scan {
            Scan::Code { code_end, .. } => (0, code_end.unwrap_or(text.len()).min(text.len())),
            Scan::Slow(_) => code_range(text, &mut in_block),
        };
        let raw = text.get(start..end).unwrap_or("");
        let lead = trim_start(raw);
        let code = trim_end(lead);
        if !code.is_empty() {
            out.push(SourceLine {
                number,
                text,
                column: start + (raw.len() - lead.len()),
                code,
            });
        }
    }
    out
}

/// What one pass over a line found.
#[derive(Clone, Copy)]
enum Scan {
    /// The line ends at byte `line_end` of the source (its `\n`, or the end); its code at
    /// `code_end` bytes into the line (a `//` comment), or with the line.
    Code {
        line_end: usize,
        code_end: Option<usize>,
    },
    /// A `/*` comment, or a line inside one: [`code_range`] reads the line, which ends at
    /// this byte.
    Slow(usize),
}

/// The `\n` ending the line that holds byte `from`, or the end of the source.
fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .and_then(|r| r.iter().position(|b| *b == b'\n'))
        .map_or(bytes.len(), |p| from + p)
}

/// The line that starts at `from`: where it ends and where a `//` outside quotes starts.
fn scan_line(bytes: &[u8], from: usize) -> Scan {
    let mut quoted = false;
    let mut i = from;
    while let Some(at) = next_special(bytes, i) {
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b'\n'), _) => {
                return Scan::Code {
                    line_end: at,
                    code_end: None,
                }
            }
            (Some(b'"'), _) => quoted = !quoted,
            (Some(b'/'), Some(b'/')) if !quoted => {
                return Scan::Code {
                    line_end: line_end(bytes, at),
                    code_end: Some(at - from),
                }
            }
            (Some(b'/'), Some(b'*')) if !quoted => return Scan::Slow(line_end(bytes, at)),
            _ => {}
        }
        i = at + 1;
    }
    Scan::Code {
        line_end: bytes.len(),
        code_end: None,
    }
}

/// ASCII bytes `char::is_whitespace` takes.
fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// `str::trim_start`, byte by byte over ASCII (a line rarely starts with anything else).
fn trim_start(s: &str) -> &str {
    let n = s.bytes().take_while(|b| ascii_space(*b)).count();
    let rest = s.get(n..).unwrap_or("");
    if rest.as_bytes().first().is_some_and(|b| *b >= 0x80) {
        rest.trim_start()
    } else {
        rest
    }
}

/// `str::trim_end`, byte by byte over ASCII.
fn trim_end(s: &str) -> &str {
    let n = s.bytes().rev().take_while(|b| ascii_space(*b)).count();
    let rest = s.get(..s.len() - n).unwrap_or("");
    if rest.as_bytes().last().is_some_and(|b| *b >= 0x80) {
        rest.trim_end()
    } else {
        rest
    }
}

/// Whether a byte of the 8-byte word `w` is `\n`, `"` or `/` (a carry-free SWAR test:
/// exact). In `((x & 0x7f..) + 0x7f..) | x` a byte's high bit is clear iff the byte of `x`
/// is zero.
fn has_special(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let nonzero = |x: u64| ((x & !HIGH) + !HIGH) | x;
    let all = nonzero(w ^ (ONES * u64::from(b'\n')))
        & nonzero(w ^ (ONES * u64::from(b'"')))
        & nonzero(w ^ (ONES * u64::from(b'/')));
    all & HIGH != HIGH
}

/// The index of the first `\n`, `"` or `/` of `bytes` at or after `from`, 8 bytes at a time.
fn next_special(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..).and_then(|r| r.first_chunk::<8>()) {
        if has_special(u64::from_le_bytes(*chunk)) {
            break;
        }
        i += 8;
    }
    bytes
        .get(i..)?
        .iter()
        .position(|b| matches!(b, b'\n' | b'"' | b'/'))
        .map(|p| i + p)
}

/// The byte range of `line` before its first comment, skipping a `/* */` block that started
/// on an earlier line. A block comment in the middle of a line ends the code there (the rest
/// after `*/` is ignored; Intel never writes one).
fn code_range(line: &str, in_block: &mut bool) -> (usize, usize) {
    let bytes = line.as_bytes();
    let mut start = 0;
    if *in_block {
        match line.find("*/") {
            Some(at) => {
                *in_block = false;
                start = at + 2;
            }
            None => return (0, 0),
        }
    }
    let mut quoted = false;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'/') => return (start, i),
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'*') => {
                *in_block = !line[i + 2..].contains("*/");
                return (start, i);
            }
            _ => {}
        }
        i += 1;
    }
    (start, bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line splitting by `str::lines` and `str::trim` this module replaced.
    fn by_str_lines(source: &str) -> Vec<SourceLine<'_>> {
        let mut out = Vec::new();
        let mut in_block = false;
        for (i, text) in source.lines().enumerate() {
            let (start, end) = code_range(text, &mut in_block);
            let raw = text.get(start..end).unwrap_or("");
            let code = raw.trim();
            if !code.is_empty() {
                out.push(SourceLine {
                    number: i + 1,
                    text,
                    column: start + raw.len() - raw.trim_start().len(),
                    code,
                });
            }
        }
        out
    }

    #[test]
    fn same_lines_as_str_lines() {
        let sources = [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb\r\n",
            "a\rb\r",
            "x\r",
            " mov x // c \"q\"\r\n\r\n\n  add\t\n",
            "FILE \"a//b\" // c\nFILE \"unclosed // x\ny",
            "a /* b\n c */ d\n/* e */ f\n/*\n\n*/g\nh/",
            "  \u{a0}x\u{2003}\n\u{85}\n\x0bv\x0c\n",
            "0123456789abcdef/0123456789abcdef//x\n01234567\"89ab/cdef\"/x",
        ];
        for src in sources {
            assert_eq!(code_lines(src), by_str_lines(src), "{src:?}");
        }
    }

    #[test]
    fn specials_found_at_every_position() {
        for len in 0..20 {
            for at in 0..=len {
                for c in [b'"', b'/', b'\n', b'x'] {
                    let mut b = alloc::vec![b'.'; len];
                    // Bytes next to the searched ones in value, and high bytes.
                    for (i, v) in b.iter_mut().enumerate() {
                        *v = [b'.', b'0', b'!', b'#', 0xc3, 0x2f ^ 0x80, 0x0b, 0x8a][i % 8];
                    }
                    if at < len {
                        b[at] = c;
                    }
                    let naive = b.iter().position(|x| matches!(x, b'"' | b'/' | b'\n'));
                    assert_eq!(next_special(&b, 0), naive, "{len} {at} {c}");
                }
            }
        }
    }

    #[test]
    fn comments_go_strings_stay() {
        let src = "// .decl V0 v_type=G v_name=%null\n\n    mov (M1, 1) V0032(0,0)<1> 0x0:d  /// $3\n    FILE \"a//b.cl\"\n/* x\n y */ .version 4.1\n";
        let lines = code_lines(src);
        let codes: Vec<&str> = lines.iter().map(|l| l.code).collect();
        assert_eq!(
            codes,
            [
                "mov (M1, 1) V0032(0,0)<1> 0x0:d",
                "FILE \"a//b.cl\"",
                ".version 4.1"
            ]
        );
        assert_eq!((lines[0].number, lines[0].column), (3, 4));
        assert_eq!((lines[2].number, lines[2].column), (6, 6));
        // Tabs, vertical tabs and non-ASCII spaces are trimmed as `str::trim` does.
        let lines = code_lines("\t\u{a0} add x \u{3000}\x0b");
        assert_eq!((lines[0].code, lines[0].column), ("add x", 4));
    }
}
