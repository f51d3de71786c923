//! The generator's modules form layers, checked in every direction: the module import graph of
//! `codegen/src/**/*.rs` has no cycle, and the lower layers never reach up.
//!
//! The graph is built from the sources' paths (`use` trees and inline `crate::`, `super::` and
//! `self::` paths, comments and literals aside), at the granularity of modules: a file is a
//! module (`a/mod.rs` and `a.rs` are `a`), and an inline `mod tests { .. }` is part of its
//! file's module (its `super::` is the file's module). A path names the deepest module it
//! goes through. An edge between a module and one of its ancestors (a parent using its
//! children, a child its parent's helpers) is that module's own business; any other edge is
//! lifted to the two siblings under the modules' closest common ancestor, so `emit::rust::text`
//! using `diff` is `emit` using `diff`. The siblings of every module must form a DAG. Modules
//! only tests build (`#[cfg(test)] mod testing;`) sit above everything: any test may use them,
//! so edges into them are left out (edges out of them, and out of every inline test module,
//! count).

mod common;

use std::collections::{BTreeMap, BTreeSet};

/// Which layers never import which: (importer, imported), by top-level module.
const RULES: &[(&str, &str)] = &[
    ("schema", "parse"),
    ("schema", "analyze"),
    ("schema", "emit"),
    ("schema", "diff"),
    ("parse", "analyze"),
    ("parse", "emit"),
    ("parse", "diff"),
    ("analyze", "emit"),
    ("analyze", "diff"),
    // Emitters see only the analysed model.
    ("emit", "parse"),
    ("emit", "schema"),
    // The API view is read by emit (the snapshot), never the other way.
    ("diff", "emit"),
    // Diagnostics and input files are below every stage.
    ("diag", "parse"),
    ("diag", "analyze"),
    ("diag", "emit"),
    ("source_file", "diag"),
    ("source_file", "parse"),
];

#[test]
fn codegen_modules_import_each_other_without_cycles() {
    let graph = Graph::of(&common::sources("src", 40));
    assert!(graph.modules.len() >= 40, "{:?}", graph.modules);
    // The graph sees what it should: a few edges known to exist.
    for (from, to) in [
        ("analyze", "schema"),
        ("emit::rust::text", "analyze::text"),
        ("emit", "diff"),
        ("parse", "diag"),
    ] {
        assert!(
            graph.edges.keys().any(|(f, t)| f == from && t == to),
            "no edge {from} -> {to}: the graph misses imports"
        );
    }
    if let Some(cycle) = graph.cycle() {
        panic!("an import cycle: {}", graph.describe(&cycle));
    }
}

#[test]
fn lower_layers_never_import_higher_ones() {
    let graph = Graph::of(&common::sources("src", 40));
    let broken = graph.broken(RULES);
    assert!(
        broken.is_empty(),
        "layer rules broken:\n{}",
        broken.join("\n")
    );
}

/// The check itself can fail: a made-up crate with a cycle and a broken rule.
#[test]
fn a_made_up_cycle_and_a_broken_rule_are_found() {
    let file = |path: &str, text: &str| (path.to_string(), text.to_string());
    let sources = [
        file(
            "lib.rs",
            "pub mod a;\npub mod b;\npub mod c;\npub mod parse;\npub mod emit;\n\
             #[cfg(test)]\nmod testing;\n",
        ),
        // A test helper uses the pipeline, and tests use it: no cycle.
        file("testing.rs", "use crate::a::f;\n"),
        // a -> b through a `use` tree, b -> c inline, c -> a through `super`.
        file(
            "a.rs",
            "use crate::{b::{self, Thing}, other};\nfn f() { b::g() }\n",
        ),
        file(
            "b.rs",
            "pub fn g() { crate::c::h() }\n// crate::a::f in a comment is no edge\n\
             #[cfg(test)]\nmod tests {\n    use crate::testing;\n}\n",
        ),
        file(
            "c.rs",
            "pub fn h() { let s = \"super::parse::x\"; super::a::f() }\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::emit::E;\n}\n",
        ),
        file("parse/mod.rs", "mod doc;\npub use doc::D;\n"),
        file("parse/doc.rs", "use crate::emit::E;\npub struct D(E);\n"),
        file("emit/mod.rs", "pub struct E;\nuse super::parse;\n"),
    ];
    let graph = Graph::of(&sources);
    let cycle = graph.cycle().expect("a cycle");
    let named = graph.describe(&cycle);
    for m in ["a -> b", "b -> c", "c -> a"] {
        assert!(named.contains(m), "{named}");
    }
    // The comment, the string and the test module's own `super::*` are no edges; the test
    // module's `super::super` is the crate.
    assert!(!graph.edges.contains_key(&("b".into(), "a".into())));
    assert!(!graph.edges.contains_key(&("c".into(), "parse".into())));
    assert!(graph.edges.contains_key(&("c".into(), "emit".into())));
    assert!(graph.edges.contains_key(&("testing".into(), "a".into())));
    assert!(!graph.edges.contains_key(&("b".into(), "testing".into())));
    let broken = graph.broken(RULES);
    assert!(
        broken.iter().any(|b| b.starts_with("parse::doc -> emit")),
        "{broken:?}"
    );
    assert!(
        broken.iter().any(|b| b.starts_with("emit -> parse")),
        "{broken:?}"
    );
    // Without the cycle's closing edge, no cycle; parse <-> emit is a cycle too.
    let acyclic: Vec<_> = sources
        .iter()
        .filter(|(p, _)| !p.starts_with("c.rs") && !p.starts_with("emit"))
        .cloned()
        .collect();
    assert_eq!(Graph::of(&acyclic).cycle(), None);
}

/// Modules (`a::b`, the crate root is ``) and the edges between them, each with the files and
/// paths that make it.
struct Graph {
    modules: BTreeSet<String>,
    /// Every edge as written (importer, imported), neither the other's ancestor.
    edges: BTreeMap<(String, String), BTreeSet<String>>,
}

impl Graph {
    /// The graph of `sources`: (path relative to `src`, contents).
    fn of(sources: &[(String, String)]) -> Graph {
        let module_of = |rel: &str| {
            let rel = rel.trim_end_matches(".rs");
            let rel = rel.strip_suffix("/mod").unwrap_or(rel);
            match rel {
                "lib" | "main" => String::new(),
                _ => rel.replace('/', "::"),
            }
        };
        let modules: BTreeSet<String> = sources.iter().map(|(p, _)| module_of(p)).collect();
        let test_only: BTreeSet<String> = sources
            .iter()
            .flat_map(|(rel, text)| {
                let here = module_of(rel);
                test_only_children(&strip(text)).into_iter().map(move |c| {
                    segments(&here)
                        .into_iter()
                        .chain([c.as_str()])
                        .collect::<Vec<_>>()
                        .join("::")
                })
            })
            .collect();
        let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for (rel, text) in sources {
            let here = module_of(rel);
            for (path, inline_depth) in paths(&strip(text)) {
                let Some(to) = resolve(&modules, &here, inline_depth, &path) else {
                    continue;
                };
                if is_within(&here, &to) || is_within(&to, &here) || test_only.contains(&to) {
                    continue;
                }
                edges
                    .entry((here.clone(), to))
                    .or_default()
                    .insert(format!("{rel}: {}", path.join("::")));
            }
        }
        Graph { modules, edges }
    }

    /// Each edge lifted to the siblings under its modules' closest common ancestor.
    fn lifted(&self) -> BTreeMap<(String, String), Vec<(&String, &String)>> {
        let mut out: BTreeMap<(String, String), Vec<(&String, &String)>> = BTreeMap::new();
        for (from, to) in self.edges.keys() {
            let (f, t) = (segments(from), segments(to));
            let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
            let pair = (f[..=common].join("::"), t[..=common].join("::"));
            out.entry(pair).or_default().push((from, to));
        }
        out
    }

    /// A cycle of lifted edges, as the modules in order, if there is one.
    fn cycle(&self) -> Option<Vec<String>> {
        let lifted = self.lifted();
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (from, to) in lifted.keys() {
            next.entry(from).or_default().push(to);
        }
        // Depth-first, colouring: 1 on the stack, 2 done.
        fn visit<'a>(
            m: &'a str,
            next: &BTreeMap<&'a str, Vec<&'a str>>,
            colour: &mut BTreeMap<&'a str, u8>,
            stack: &mut Vec<&'a str>,
        ) -> Option<Vec<String>> {
            colour.insert(m, 1);
            stack.push(m);
            for &n in next.get(m).into_iter().flatten() {
                match colour.get(n) {
                    Some(1) => {
                        let at = stack.iter().position(|s| *s == n).unwrap_or(0);
                        return Some(stack[at..].iter().map(|s| s.to_string()).collect());
                    }
                    Some(_) => {}
                    None => {
                        if let Some(c) = visit(n, next, colour, stack) {
                            return Some(c);
                        }
                    }
                }
            }
            stack.pop();
            colour.insert(m, 2);
            None
        }
        let mut colour = BTreeMap::new();
        let starts: Vec<&str> = next.keys().copied().collect();
        for m in starts {
            if !colour.contains_key(m) {
                if let Some(c) = visit(m, &next, &mut colour, &mut Vec::new()) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// A cycle as its edges, each with the imports that make it.
    fn describe(&self, cycle: &[String]) -> String {
        let lifted = self.lifted();
        let mut text = String::new();
        for (k, from) in cycle.iter().enumerate() {
            let to = &cycle[(k + 1) % cycle.len()];
            text.push_str(&format!("\n  {from} -> {to}:"));
            for (f, t) in lifted
                .get(&(from.clone(), to.clone()))
                .into_iter()
                .flatten()
            {
                for why in &self.edges[&((*f).clone(), (*t).clone())] {
                    text.push_str(&format!("\n    {why}"));
                }
            }
        }
        text
    }

    /// The edges that break `rules`, each with the imports that make it.
    fn broken(&self, rules: &[(&str, &str)]) -> Vec<String> {
        let top = |m: &str| m.split("::").next().unwrap_or_default().to_string();
        let mut out = Vec::new();
        for ((from, to), why) in &self.edges {
            if rules.contains(&(top(from).as_str(), top(to).as_str())) {
                let why: Vec<&str> = why.iter().map(String::as_str).collect();
                out.push(format!("{from} -> {to}: {}", why.join("; ")));
            }
        }
        out
    }
}

fn segments(module: &str) -> Vec<&str> {
    module.split("::").filter(|s| !s.is_empty()).collect()
}

/// Whether `inner` is `outer` or inside it.
fn is_within(inner: &str, outer: &str) -> bool {
    outer.is_empty()
        || inner == outer
        || inner
            .strip_prefix(outer)
            .is_some_and(|r| r.starts_with("::"))
}

/// The module a path names from module `here` (inside `inline_depth` inline modules of its
/// file): the deepest module of the crate it goes through, `None` for another crate's path.
fn resolve(
    modules: &BTreeSet<String>,
    here: &str,
    inline_depth: usize,
    path: &[String],
) -> Option<String> {
    let mut at: Vec<&str> = segments(here);
    let mut rest = path;
    let mut depth = inline_depth;
    match path.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &path[1..];
        }
        Some("super" | "self") => {
            while let Some(s) = rest.first().map(String::as_str) {
                match s {
                    "self" => {}
                    "super" if depth > 0 => depth -= 1,
                    "super" => {
                        at.pop()?;
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        // A path relative to `here`: only a child module of it is of this crate.
        Some(first) => {
            let child = at
                .iter()
                .copied()
                .chain([first])
                .collect::<Vec<_>>()
                .join("::");
            if inline_depth > 0 || !modules.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    let mut module: Vec<&str> = at;
    for s in rest {
        let longer: Vec<&str> = module.iter().copied().chain([s.as_str()]).collect();
        if modules.contains(&longer.join("::")) {
            module = longer;
        } else {
            break;
        }
    }
    Some(module.join("::"))
}

/// The character at `i`, NUL past the end.
fn at(c: &[char], i: usize) -> char {
    c.get(i).copied().unwrap_or('\0')
}

/// `text` without comments and without the contents of string and character literals.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && at(&c, i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(&c, i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(&c, i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(&c, i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if (c[i] == 'r' || (c[i] == 'b' && at(&c, i + 1) == 'r'))
            && !c[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && {
                let mut k = if c[i] == 'b' { 2 } else { 1 };
                while at(&c, i + k) == '#' {
                    k += 1;
                }
                at(&c, i + k) == '"'
            }
        {
            // A raw string: `r#"..."#`.
            i += if c[i] == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while c[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) {
                    i += hashes + 1;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && (at(&c, i + 1) == '\\' || at(&c, i + 2) == '\'') {
            // A character literal (a lifetime has no closing quote).
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Tokens of stripped source: identifiers, `::`, and single punctuation.
fn tokens(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(c[i].to_string());
            }
            i += 1;
        }
    }
    out
}

/// The child modules stripped source declares for tests only (`#[cfg(test)] mod x;`).
fn test_only_children(text: &str) -> Vec<String> {
    let t = tokens(text);
    let attr = ["#", "[", "cfg", "(", "test", ")", "]"];
    let mut out = Vec::new();
    for i in 0..t.len() {
        if t[i..].starts_with(&attr.map(String::from)) {
            let mut k = i + attr.len();
            if t.get(k).is_some_and(|s| s == "pub") {
                k += 1;
            }
            if t.get(k).is_some_and(|s| s == "mod") && t.get(k + 2).is_some_and(|s| s == ";") {
                out.push(t[k + 1].clone());
            }
        }
    }
    out
}

/// Every path of stripped source that may name a module of the crate: each leaf of a `use`
/// tree, and each inline path that starts with `crate`, `super` or `self` (or a bare `a::b`,
/// which [`resolve`] keeps only when `a` is a child module), with the number of inline modules
/// (`mod x { .. }`) it is inside.
fn paths(text: &str) -> Vec<(Vec<String>, usize)> {
    let t = tokens(text);
    let mut out = Vec::new();
    // The brace depth at which each enclosing inline module opened.
    let mut inline: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => braces += 1,
            "}" => {
                braces = braces.saturating_sub(1);
                if inline.last() == Some(&braces) {
                    inline.pop();
                }
            }
            "mod" if t.get(i + 2).is_some_and(|s| s == "{") => {
                inline.push(braces);
                braces += 1;
                i += 3;
                continue;
            }
            "use" => {
                let end = (i..t.len()).find(|&k| t[k] == ";").unwrap_or(t.len());
                let mut leaves = Vec::new();
                use_tree(&t[i + 1..end], &[], &mut leaves);
                out.extend(leaves.into_iter().map(|p| (p, inline.len())));
                i = end + 1;
                continue;
            }
            _ => {
                let after_colons = i > 0 && t[i - 1] == "::";
                let starts_path = t.get(i + 1).is_some_and(|s| s == "::");
                let ident = t[i].chars().all(|ch| ch.is_alphanumeric() || ch == '_');
                if ident && starts_path && !after_colons {
                    let mut path = vec![t[i].clone()];
                    let mut k = i + 1;
                    while t.get(k).is_some_and(|s| s == "::")
                        && t.get(k + 1)
                            .is_some_and(|s| s.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
                    {
                        path.push(t[k + 1].clone());
                        k += 2;
                    }
                    out.push((path, inline.len()));
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// The leaves of the `use` tree `t` (tokens between `use` and `;`), each prefixed by `prefix`.
fn use_tree(t: &[String], prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "::" => {}
            "{" => {
                // The group's items, split at top-level commas.
                let mut depth = 0;
                let mut start = i + 1;
                let mut k = i + 1;
                while k < t.len() {
                    match t[k].as_str() {
                        "{" => depth += 1,
                        "}" if depth == 0 => break,
                        "}" => depth -= 1,
                        "," if depth == 0 => {
                            use_tree(&t[start..k], &path, out);
                            start = k + 1;
                        }
                        _ => {}
                    }
                    k += 1;
                }
                use_tree(&t[start..k], &path, out);
                return;
            }
            "as" => break,
            "*" => break,
            s => path.push(s.to_string()),
        }
        i += 1;
    }
    // `self` in a group names the group's own path.
    if path.last().is_some_and(|s| s == "self") && path.len() > 1 {
        path.pop();
    }
    if path.len() > prefix.len() || !path.is_empty() {
        out.push(path);
    }
}
