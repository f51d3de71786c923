//! The text layer against Intel's own print: every instruction line of
//! `real-kernels/dg2/*.visaasm` (IGC 12504.6 output) keeps its exact layout through
//! `split_line` + `push_instruction_line`, and every operand token, exec size and predicate
//! prefix in it parses and prints back to the same string.

use std::fs;
use visa::runtime::text::{
    parse_address_of, parse_all, parse_exec_size, parse_predicate_prefix, parse_raw, parse_vector,
    print_address_of, print_exec_size, print_predicate_prefix, print_raw, print_vector,
    push_instruction_line, split_line, Cursor, IntelNames, Line,
};
use visa_tests::shared;

/// Counts of what was checked, so the test cannot pass by checking nothing.
#[derive(Default, Debug)]
struct Checked {
    lines: usize,
    vector: usize,
    raw: usize,
    address_of: usize,
    exec: usize,
    predicates: usize,
}

/// Tokens that must be operands: they have an operand's shape in IGC's print.
fn operand_shaped(t: &str) -> bool {
    let raw_shape = t.split_once('.').is_some_and(|(n, o)| {
        !n.is_empty() && !o.is_empty() && o.bytes().all(|b| b.is_ascii_digit())
    }) && (t.starts_with('V') || t.starts_with('%'));
    let predicate = t.len() > 1 && t.starts_with('P') && t[1..].bytes().all(|b| b.is_ascii_digit());
    predicate
        || t.contains(")<")
        || t.starts_with("r[")
        || t.starts_with('&')
        || (t.starts_with("0x") && t.contains(':'))
        || raw_shape
}

fn check_body(body: &str, seen: &mut Checked, failures: &mut Vec<String>) {
    let n = IntelNames;
    let mut c = Cursor::new(body);
    let start = c.column();
    match parse_predicate_prefix(&mut c, &n) {
        Ok(p) => {
            let mut s = String::new();
            print_predicate_prefix(&mut s, p, &n).unwrap();
            if s != body[start..c.column()] {
                failures.push(format!("predicate prefix reprinted as {s:?}: {body}"));
            }
            seen.predicates += usize::from(!s.is_empty());
        }
        Err(e) => failures.push(format!("{e}: {body}")),
    }
    // The mnemonic with its dotted options, then an exec size when one follows.
    c.take_while(|ch| ch != ' ');
    c.skip_spaces();
    if c.rest().starts_with("(M") {
        let at = c.column();
        match parse_exec_size(&mut c) {
            Ok(e) => {
                let mut s = String::new();
                print_exec_size(&mut s, e).unwrap();
                if s != body[at..c.column()] {
                    failures.push(format!("exec size reprinted as {s}: {body}"));
                }
                seen.exec += 1;
            }
            Err(e) => failures.push(format!("{e}: {body}")),
        }
    }
    for token in c.rest().split(' ').filter(|t| !t.is_empty()) {
        if !operand_shaped(token) {
            continue;
        }
        let mut s = String::new();
        let reprinted = if token.starts_with('&') {
            seen.address_of += 1;
            parse_all(token, |c| parse_address_of(c, &n))
                .map(|a| print_address_of(&mut s, a, &n).is_ok())
        } else if let Ok(op) = parse_all(token, |c| parse_vector(c, &n)) {
            seen.vector += 1;
            Ok(print_vector(&mut s, &op, &n).is_ok())
        } else {
            seen.raw += 1;
            parse_all(token, |c| parse_raw(c, &n)).map(|r| print_raw(&mut s, r, &n).is_ok())
        };
        match reprinted {
            Ok(true) if s == token => {}
            Ok(_) => failures.push(format!("{token} reprinted as {s}: {body}")),
            Err(e) => failures.push(format!("{token}: {e}: {body}")),
        }
    }
}

#[test]
fn dg2_visaasm_operands_and_layout_round_trip() {
    let Some(dir) = shared("real-kernels/dg2") else {
        return;
    };
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "visaasm"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .visaasm files in {}", dir.display());
    let mut seen = Checked::default();
    let mut failures = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let Ok(Line::Instruction { body, id, .. }) = split_line(line) else {
                continue;
            };
            seen.lines += 1;
            let mut again = String::new();
            push_instruction_line(&mut again, body, id);
            if again.trim_end_matches('\n') != line {
                failures.push(format!("layout: {line:?} reprinted as {again:?}"));
            }
            check_body(body, &mut seen, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    // 59 files hold about 8 000 instruction lines; the operand counts are their tokens.
    assert!(seen.lines > 7000, "{seen:?}");
    assert!(
        seen.vector > 15000 && seen.raw > 300 && seen.address_of > 0,
        "{seen:?}"
    );
    assert!(seen.exec > 7000 && seen.predicates > 300, "{seen:?}");
    eprintln!("checked {seen:?}");
}
