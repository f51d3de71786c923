//! `## Semantics`: the C-like pseudo-code of an instruction doc, read into statements and
//! expressions ([`PseudoCode`]).
//!
//! The language is what the docs write: `for`/`while`/`if`/`else`, typed locals (`UD cnt = 0;`),
//! assignments (`=`, `+=`, ..., `x++`), C's operators with C's precedence, the ternary, casts,
//! calls of named functions, element and bit indexing (`src0[i]`, `src1[i][7:0]`), members,
//! and three notations of the docs beside C: `a NAME b` (a field as operator: `rel_op`),
//! `min/max(a, b)` (a field chooses the function), `x is WORD` (`dst is predicate`).
//! A section without `;` or `{` is prose. One that looks like code but does not parse is a
//! warning (V0140) at the token where reading stopped: the instruction then runs through the
//! machine's hand-written code, never blocking the regen.

use super::source::{Line, Source};
use crate::diag::{Code, Diagnostic};
use crate::schema::{Expr, PseudoCode, Span, Stmt};

/// Reads the lines of a `## Semantics` section.
pub fn read(src: &Source<'_>, lines: &[Line<'_>], diags: &mut Vec<Diagnostic>) -> PseudoCode {
    let tokens = lex(src, lines);
    let tokens = match tokens {
        Ok(t) => t,
        Err((at, why)) => return unreadable(src, at, why, diags),
    };
    if tokens.is_empty() {
        return PseudoCode::None;
    }
    if !tokens.iter().any(|t| t.is(";") || t.is("{")) {
        return PseudoCode::Prose;
    }
    let mut p = Parser {
        tokens: &tokens,
        at: 0,
        src,
        depth: 0,
    };
    let mut body = Vec::new();
    while p.at < tokens.len() {
        match p.stmt() {
            Ok(s) => body.push(s),
            Err((at, why)) => return unreadable(src, at, why, diags),
        }
    }
    PseudoCode::Code { body }
}

fn unreadable(src: &Source<'_>, at: usize, why: String, diags: &mut Vec<Diagnostic>) -> PseudoCode {
    let span = src.span(at, at + 1);
    let where_ = format!("{}:{}:{}", src.name, span.line, span.column);
    diags.push(
        Diagnostic::new(
            Code::BadPseudoCode,
            src.name,
            span,
            format!("its ## Semantics pseudo-code cannot be read: {why}; the instruction runs through `Lanes::prose`"),
        )
        .expected("C-like statements: `for (...) {...}`, `if (...)`, `dst[i] = expr;`"),
    );
    PseudoCode::Unreadable {
        why: format!("{where_}: {why}"),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(u64),
    Float(String),
    Punct(&'static str),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    at: usize,
}

impl Token {
    fn is(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "<=",
    ">=", "==", "!=", "&&", "||", "->", "(", ")", "[", "]", "{", "}", ";", ",", "?", ":", "=", "<",
    ">", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", ".",
];

type Failure = (usize, String);

/// Tokens of the section's lines, code fences and comments dropped.
fn lex(_src: &Source<'_>, lines: &[Line<'_>]) -> Result<Vec<Token>, Failure> {
    let mut out = Vec::new();
    let mut in_block_comment = false;
    for line in lines {
        if line.text.trim_start().starts_with("```") {
            continue;
        }
        let text = line.text;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let at = line.start + i;
            let rest = &text[i..];
            if in_block_comment {
                match rest.find("*/") {
                    Some(end) => {
                        in_block_comment = false;
                        i += end + 2;
                    }
                    None => i = bytes.len(),
                }
                continue;
            }
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if rest.starts_with("//") {
                break;
            } else if rest.starts_with("/*") {
                in_block_comment = true;
                i += 2;
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let len = rest
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .unwrap_or(rest.len());
                out.push(Token {
                    tok: Tok::Ident(rest[..len].to_string()),
                    at,
                });
                i += len;
            } else if c.is_ascii_digit() {
                let len = rest
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '.' || ch == '_'))
                    .unwrap_or(rest.len());
                out.push(Token {
                    tok: number(&rest[..len])
                        .ok_or((at, format!("`{}` is no number", &rest[..len])))?,
                    at,
                });
                i += len;
            } else if let Some(p) = PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                out.push(Token {
                    tok: Tok::Punct(p),
                    at,
                });
                i += p.len();
            } else {
                let ch = rest.chars().next().unwrap_or(' ');
                return Err((at, format!("unexpected character `{ch}`")));
            }
        }
    }
    Ok(out)
}

/// A C number: decimal or `0x` hex integer, or a float with an optional `f` suffix.
fn number(s: &str) -> Option<Tok> {
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok().map(Tok::Int);
    }
    if let Ok(v) = s.parse::<u64>() {
        return Some(Tok::Int(v));
    }
    let body = s.strip_suffix(['f', 'F']).unwrap_or(s);
    if body.contains('.') && body.parse::<f64>().is_ok() {
        return Some(Tok::Float(s.to_string()));
    }
    None
}

/// Type names a local or a cast may have: the vISA data types as the docs write them, and C's.
fn is_type(name: &str) -> bool {
    crate::vocab::data_type(name).is_some_and(|t| t.is_numeric())
        || matches!(name, "bit" | "int" | "bool" | "float" | "double")
}

const KEYWORDS: &[&str] = &["for", "while", "if", "else", "is"];

struct Parser<'t, 's> {
    tokens: &'t [Token],
    at: usize,
    src: &'t Source<'s>,
    /// Nesting of statements and expressions being read: bounded, so that no doc can
    /// overflow the stack.
    depth: usize,
}

/// Deeper nesting than any doc writes is unreadable rather than a stack overflow.
const MAX_DEPTH: usize = 64;

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn peek_at(&self, n: usize) -> Option<&Token> {
        self.tokens.get(self.at + n)
    }

    fn here(&self) -> usize {
        self.peek()
            .or_else(|| self.tokens.last())
            .map_or(0, |t| t.at)
    }

    fn fail<T>(&self, what: impl Into<String>) -> Result<T, Failure> {
        let found = match self.peek().map(|t| &t.tok) {
            None => "the end of the section".to_string(),
            Some(Tok::Ident(s)) => format!("`{s}`"),
            Some(Tok::Int(v)) => format!("`{v}`"),
            Some(Tok::Float(s)) => format!("`{s}`"),
            Some(Tok::Punct(p)) => format!("`{p}`"),
        };
        Err((
            self.here(),
            format!("expected {}, found {found}", what.into()),
        ))
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is(p)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), Failure> {
        if self.eat(p) {
            Ok(())
        } else {
            self.fail(format!("`{p}`"))
        }
    }

    fn ident(&self) -> Option<&str> {
        match self.peek().map(|t| &t.tok) {
            Some(Tok::Ident(s)) => Some(s),
            _ => None,
        }
    }

    fn keyword(&mut self, k: &str) -> bool {
        if self.ident() == Some(k) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn span(&self, start: usize) -> Span {
        let end = self
            .tokens
            .get(self.at.saturating_sub(1))
            .map_or(start, |t| t.at + 1);
        self.src.span(start, end.max(start + 1))
    }

    fn stmt(&mut self) -> Result<Stmt, Failure> {
        self.depth += 1;
        let s = if self.depth > MAX_DEPTH {
            self.fail("a statement nested less deeply")
        } else {
            self.stmt_inner()
        };
        self.depth -= 1;
        s
    }

    fn stmt_inner(&mut self) -> Result<Stmt, Failure> {
        let start = self.here();
        if self.keyword("for") {
            self.expect("(")?;
            let init = if self.peek().is_some_and(|t| t.is(";")) {
                None
            } else {
                let at = self.here();
                Some(Box::new(self.simple(at)?))
            };
            self.expect(";")?;
            let cond = if self.peek().is_some_and(|t| t.is(";")) {
                None
            } else {
                Some(self.expr()?)
            };
            self.expect(";")?;
            let step = if self.peek().is_some_and(|t| t.is(")")) {
                None
            } else {
                let at = self.here();
                Some(Box::new(self.simple(at)?))
            };
            self.expect(")")?;
            let body = self.body()?;
            return Ok(Stmt::For {
                init,
                cond,
                step,
                body,
                span: self.span(start),
            });
        }
        if self.keyword("while") {
            self.expect("(")?;
            let cond = self.expr()?;
            self.expect(")")?;
            let body = self.body()?;
            return Ok(Stmt::While {
                cond,
                body,
                span: self.span(start),
            });
        }
        if self.keyword("if") {
            self.expect("(")?;
            let cond = self.expr()?;
            self.expect(")")?;
            let then = self.body()?;
            let otherwise = if self.keyword("else") {
                self.body()?
            } else {
                Vec::new()
            };
            return Ok(Stmt::If {
                cond,
                then,
                otherwise,
                span: self.span(start),
            });
        }
        if self.ident() == Some("else") {
            return self.fail("a statement (an `else` without its `if`)");
        }
        if self.peek().is_some_and(|t| t.is("{")) {
            return self.fail("a statement, not a block outside `for`, `while` or `if`");
        }
        let s = self.simple(start)?;
        self.expect(";")?;
        Ok(s)
    }

    /// `{ statements }` or one statement.
    fn body(&mut self) -> Result<Vec<Stmt>, Failure> {
        if self.eat("{") {
            let mut out = Vec::new();
            while !self.eat("}") {
                if self.peek().is_none() {
                    return self.fail("`}` (the braces do not balance)");
                }
                out.push(self.stmt()?);
            }
            Ok(out)
        } else {
            Ok(vec![self.stmt()?])
        }
    }

    /// A statement without its `;`: a typed local, an assignment, `x++`, or a call.
    fn simple(&mut self, start: usize) -> Result<Stmt, Failure> {
        if let (Some(ty), Some(Tok::Ident(name))) = (self.ident(), self.peek_at(1).map(|t| &t.tok))
        {
            if is_type(ty) && !KEYWORDS.contains(&name.as_str()) {
                let (ty, name) = (ty.to_string(), name.clone());
                self.at += 2;
                let init = if self.eat("=") {
                    Some(self.expr()?)
                } else {
                    None
                };
                return Ok(Stmt::Local {
                    ty,
                    name,
                    init,
                    span: self.span(start),
                });
            }
        }
        if self.eat("++") || self.eat("--") {
            let op = if self.tokens[self.at - 1].is("++") {
                "+="
            } else {
                "-="
            };
            let target = self.unary()?;
            return Ok(Stmt::Assign {
                target,
                op: op.into(),
                value: Expr::Int { value: 1 },
                span: self.span(start),
            });
        }
        let target = self.expr()?;
        for op in [
            "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
        ] {
            if self.eat(op) {
                let value = self.expr()?;
                return Ok(Stmt::Assign {
                    target,
                    op: op.into(),
                    value,
                    span: self.span(start),
                });
            }
        }
        for (op, assign) in [("++", "+="), ("--", "-=")] {
            if self.eat(op) {
                return Ok(Stmt::Assign {
                    target,
                    op: assign.into(),
                    value: Expr::Int { value: 1 },
                    span: self.span(start),
                });
            }
        }
        match target {
            Expr::Call { .. } => Ok(Stmt::Eval {
                expr: target,
                span: self.span(start),
            }),
            _ => self.fail("`=` or `;` after an expression that is no call"),
        }
    }

    fn expr(&mut self) -> Result<Expr, Failure> {
        self.depth += 1;
        let e = if self.depth > MAX_DEPTH {
            self.fail("an expression nested less deeply")
        } else {
            self.expr_inner()
        };
        self.depth -= 1;
        e
    }

    fn expr_inner(&mut self) -> Result<Expr, Failure> {
        let cond = self.binary(0)?;
        if self.eat("?") {
            let then = self.expr()?;
            self.expect(":")?;
            let otherwise = self.expr()?;
            return Ok(Expr::Ternary {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            });
        }
        Ok(cond)
    }

    /// Binary operators by C's precedence, lowest first.
    fn binary(&mut self, level: usize) -> Result<Expr, Failure> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", "<=", ">", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut lhs = self.binary(level + 1)?;
        loop {
            let op = ops
                .iter()
                .find(|op| self.peek().is_some_and(|t| t.is(op)))
                .copied();
            if let Some(op) = op {
                self.at += 1;
                let rhs = self.binary(level + 1)?;
                lhs = Expr::Binary {
                    op: op.into(),
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                };
                continue;
            }
            // The relational level also reads the docs' `x is WORD` and `a NAME b`.
            if ops.contains(&"<") {
                if self.keyword("is") {
                    let Some(what) = self.ident().map(str::to_string) else {
                        return self.fail("a word after `is`");
                    };
                    self.at += 1;
                    lhs = Expr::Is {
                        operand: Box::new(lhs),
                        what,
                    };
                    continue;
                }
                if let Some(name) = self.ident().filter(|n| !KEYWORDS.contains(n)) {
                    let name = name.to_string();
                    self.at += 1;
                    let rhs = self.binary(level + 1)?;
                    lhs = Expr::Binary {
                        op: name,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    };
                    continue;
                }
            }
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> Result<Expr, Failure> {
        for op in ["-", "~", "!", "*", "&", "+"] {
            if self.eat(op) {
                self.depth += 1;
                let operand = if self.depth > MAX_DEPTH {
                    self.fail("an operand with fewer prefix operators")
                } else {
                    self.unary()
                };
                self.depth -= 1;
                let operand = operand?;
                if op == "+" {
                    return Ok(operand);
                }
                return Ok(Expr::Unary {
                    op: op.into(),
                    operand: Box::new(operand),
                });
            }
        }
        // A cast: `(TYPE) operand`.
        if self.peek().is_some_and(|t| t.is("("))
            && matches!(self.peek_at(1).map(|t| &t.tok), Some(Tok::Ident(t)) if is_type(t))
            && self.peek_at(2).is_some_and(|t| t.is(")"))
        {
            let ty = match self.peek_at(1).map(|t| &t.tok) {
                Some(Tok::Ident(t)) => t.clone(),
                _ => String::new(),
            };
            self.at += 3;
            self.depth += 1;
            let operand = if self.depth > MAX_DEPTH {
                self.fail("an operand with fewer casts")
            } else {
                self.unary()
            };
            self.depth -= 1;
            let operand = operand?;
            return Ok(Expr::Cast {
                ty,
                operand: Box::new(operand),
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, Failure> {
        let mut e = self.primary()?;
        loop {
            if self.eat("[") {
                let index = self.expr()?;
                if self.eat(":") {
                    let lo = self.expr()?;
                    self.expect("]")?;
                    e = Expr::Bits {
                        base: Box::new(e),
                        hi: Box::new(index),
                        lo: Box::new(lo),
                    };
                } else {
                    self.expect("]")?;
                    e = Expr::Index {
                        base: Box::new(e),
                        index: Box::new(index),
                    };
                }
            } else if self.eat(".") || self.eat("->") {
                let Some(name) = self.ident().map(str::to_string) else {
                    return self.fail("a member name");
                };
                self.at += 1;
                e = Expr::Member {
                    base: Box::new(e),
                    name,
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, Failure> {
        let Some(t) = self.peek().cloned() else {
            return self.fail("an expression");
        };
        match t.tok {
            Tok::Int(value) => {
                self.at += 1;
                Ok(Expr::Int { value })
            }
            Tok::Float(text) => {
                self.at += 1;
                Ok(Expr::Float { text })
            }
            Tok::Punct("(") => {
                self.at += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Ident(name) if !KEYWORDS.contains(&name.as_str()) => {
                self.at += 1;
                // `min/max(a, b)`: one function whose name has a `/`.
                let mut name = name;
                if self.peek().is_some_and(|t| t.is("/"))
                    && matches!(self.peek_at(1).map(|t| &t.tok), Some(Tok::Ident(_)))
                    && self.peek_at(2).is_some_and(|t| t.is("("))
                {
                    if let Some(Tok::Ident(second)) = self.peek_at(1).map(|t| t.tok.clone()) {
                        name = format!("{name}/{second}");
                        self.at += 2;
                    }
                }
                if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(")") {
                                break;
                            }
                            self.expect(",")?;
                        }
                    }
                    return Ok(Expr::Call { name, args });
                }
                Ok(Expr::Name { name })
            }
            _ => self.fail("an expression"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (PseudoCode, Vec<Diagnostic>) {
        let src = Source::new("X.md", text);
        let lines = src.lines(0, text.len());
        let mut diags = Vec::new();
        (read(&src, &lines, &mut diags), diags)
    }

    fn json(text: &str) -> String {
        serde_json::to_string(&parse(text).0).unwrap()
    }

    #[test]
    fn the_lane_loop_of_add() {
        let (code, diags) = parse(
            "```\nfor (i = 0; i < exec_size; ++i) {\n  if (ChEn[i]) {\n    dst[i] = src0[i] + src1[i];\n  }\n}\n```\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let PseudoCode::Code { body } = code else {
            panic!("not code: {code:?}")
        };
        let [Stmt::For {
            init,
            cond,
            step,
            body,
            span,
        }] = body.as_slice()
        else {
            panic!("{body:?}")
        };
        assert_eq!((span.line, span.column), (2, 1));
        assert!(matches!(init.as_deref(), Some(Stmt::Assign { op, .. }) if op == "="));
        assert_eq!(
            serde_json::to_string(cond).unwrap(),
            r#"{"kind":"binary","op":"<","lhs":{"kind":"name","name":"i"},"rhs":{"kind":"name","name":"exec_size"}}"#
        );
        assert!(
            matches!(step.as_deref(), Some(Stmt::Assign { op, value: Expr::Int { value: 1 }, .. }) if op == "+=")
        );
        let [Stmt::If {
            then, otherwise, ..
        }] = body.as_slice()
        else {
            panic!("{body:?}")
        };
        assert!(otherwise.is_empty());
        let [Stmt::Assign { target, value, .. }] = then.as_slice() else {
            panic!("{then:?}")
        };
        assert_eq!(
            serde_json::to_string(target).unwrap(),
            r#"{"kind":"index","base":{"kind":"name","name":"dst"},"index":{"kind":"name","name":"i"}}"#
        );
        assert!(matches!(value, Expr::Binary { op, .. } if op == "+"));
    }

    #[test]
    fn c_precedence_ternary_casts_and_calls() {
        assert_eq!(
            json("x = a + b * c << 1 & d;"),
            r#"{"kind":"code","body":[{"kind":"assign","target":{"kind":"name","name":"x"},"op":"=","value":{"kind":"binary","op":"&","lhs":{"kind":"binary","op":"<<","lhs":{"kind":"binary","op":"+","lhs":{"kind":"name","name":"a"},"rhs":{"kind":"binary","op":"*","lhs":{"kind":"name","name":"b"},"rhs":{"kind":"name","name":"c"}}},"rhs":{"kind":"int","value":1}},"rhs":{"kind":"name","name":"d"}},"span":{"start":0,"end":22,"line":1,"column":1}}]}"#
        );
        let j = json("y = p ? (UD) -q : sin(r, 0.5f);");
        assert!(j.contains(r#""kind":"ternary""#), "{j}");
        assert!(
            j.contains(r#""kind":"cast","ty":"UD","operand":{"kind":"unary","op":"-""#),
            "{j}"
        );
        assert!(j.contains(r#""kind":"call","name":"sin""#), "{j}");
        assert!(j.contains(r#""kind":"float","text":"0.5f""#), "{j}");
    }

    #[test]
    fn notations_of_the_docs() {
        let j = json("d = a rel_op b; e = min/max(a, b); if (dst is predicate) { f = s[i][7:0]; }");
        assert!(j.contains(r#""kind":"binary","op":"rel_op""#), "{j}");
        assert!(j.contains(r#""kind":"call","name":"min/max""#), "{j}");
        assert!(
            j.contains(r#""kind":"is","operand":{"kind":"name","name":"dst"},"what":"predicate""#),
            "{j}"
        );
        assert!(j.contains(r#""kind":"bits""#), "{j}");
        let j = json("UD cnt = 0; while (v) { cnt++; v = v >> 1; }");
        assert!(
            j.contains(r#""kind":"local","ty":"UD","name":"cnt""#),
            "{j}"
        );
        assert!(j.contains(r#""kind":"while""#), "{j}");
    }

    #[test]
    fn prose_is_not_code() {
        assert_eq!(
            parse("```\n  Barrier synchronization within a thread group.\n```\n").0,
            PseudoCode::Prose
        );
        assert_eq!(parse("").0, PseudoCode::None);
    }

    #[test]
    fn unreadable_code_is_a_warning_with_its_place() {
        // FBL's `else` inside the `if` braces: the braces do not balance.
        let text =
            "for (i = 0; i < n; ++i) {\n  if (a) {\n    x = 1;\n  else {\n    x = 2;\n  }\n}\n";
        let (code, diags) = parse(text);
        let PseudoCode::Unreadable { why } = code else {
            panic!("{code:?}")
        };
        assert!(why.starts_with("X.md:4:3: expected a statement"), "{why}");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "V0140");
        assert_eq!((diags[0].line, diags[0].column), (4, 3));
        // `1F` is no C number (BFE's mask).
        let (_, diags) = parse("w = s & 1F;\n");
        assert!(
            diags[0].message.contains("`1F` is no number"),
            "{}",
            diags[0].message
        );
        // No stack overflow, whatever the nesting.
        let deep = format!("x = {}1{};", "(".repeat(100_000), ")".repeat(100_000));
        assert!(matches!(parse(&deep).0, PseudoCode::Unreadable { .. }));
        let deep = format!("x = {}1;", "-".repeat(100_000));
        assert!(matches!(parse(&deep).0, PseudoCode::Unreadable { .. }));
        let deep = format!("{}x = 1;", "if (a) ".repeat(100_000));
        assert!(matches!(parse(&deep).0, PseudoCode::Unreadable { .. }));
        let deep = format!("x = {}1;", "(UD) ".repeat(100_000));
        assert!(matches!(parse(&deep).0, PseudoCode::Unreadable { .. }));
        // Missing `;` before prose (MULH).
        let (_, diags) = parse("dst[n] = a * b; high 32 bits of the result\n");
        assert_eq!(diags[0].column, 22);
    }
}
