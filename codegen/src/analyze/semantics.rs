//! Which instructions have runnable semantics, and what their lane functions compute: the
//! `## Semantics` pseudo-code with its names resolved to the instruction's fields.
//!
//! Runnable is the shape of 42 docs: the lane loop `for (i = 0; i < exec_size; ++i)` (or by
//! pairs, `i += 2`) around one `if (ChEn[i])` (or `EM[i]`), or whose statements test `ChEn[i]`
//! themselves (SETP), inside it locals, `if`/`else`, `while`, and assignments to the elements
//! `[i]` of vector operands (`= undefined` writes nothing), computed from the elements of
//! vector operands (`[i]`, another lane `[i+1]`, a scalar `src0` with `src0 is scalar`),
//! `Pred[i]`, the values of plain fields (`BooleanFuncCtrl`), literals and named functions;
//! bits and bit ranges of elements (`src1[i][7:0]`, `src0.chan[i][idx]`: `.chan[i]` is element
//! `i`), an element built bit by bit in a counted loop (`for (idx = 0; idx <
//! CHANNEL_SIZE_IN_BITS; idx++) dst.chan[i][idx] = ...;`), bits of locals and
//! `sizeof(operand)`. Anything else (a write to another lane, memory, another member) is reported
//! (V0141) and the instruction goes to `Lanes::prose`.

use super::{FieldModel, FieldType};
use crate::diag::{Code, Diagnostic};
use crate::schema::{Expr, Instruction, PseudoCode, Span, Stmt};
use std::collections::{BTreeMap, BTreeSet};

/// What `interpret` does with an instruction.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum LaneModel {
    /// The machine runs it by hand (`Lanes::prose`); `why` says why there is no lane function
    /// (none when the doc gives prose only).
    Prose { why: Option<String> },
    /// Its generated lane function.
    Formal(LaneFn),
}

/// A lane function: what one enabled lane computes.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct LaneFn {
    /// Rust name of the `Exec_size` field and whether it is a bit-packed struct (`to_raw`).
    pub exec_size: String,
    pub exec_size_packed: bool,
    /// Rust name of the `Pred` field, when the instruction has one.
    pub pred: Option<String>,
    /// The lane loop's step: 1, or 2 where the doc goes by pairs of lanes (SAD2).
    pub step: u32,
    /// The lane's statements run only on enabled lanes (one `if (ChEn[i])` around them all);
    /// otherwise they run on every lane and test `ChEn[i]` themselves (`LaneExpr::Enabled`).
    pub guarded: bool,
    /// The lane guard is `EM[i]` (SEL), not `ChEn[i]`: the predicate enables no lane.
    pub guard_em: bool,
    /// Where the lane loop is (`ADD.md:22`).
    pub place: String,
    pub body: Vec<LaneStmt>,
}

/// A statement of a lane function.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum LaneStmt {
    /// A new local: typed (`UD cnt = 0;`: cast to the type at every assignment) or not.
    Let {
        name: String,
        ty: Option<String>,
        mutable: bool,
        value: LaneExpr,
    },
    /// An assignment to a local.
    Set {
        name: String,
        ty: Option<String>,
        value: LaneExpr,
    },
    /// `field[i] = value`. `keep` names the local that holds the value when the lane reads
    /// the element back (`RNDZ`); `declare` when this write introduces it.
    Write {
        field: String,
        value: LaneExpr,
        keep: Option<(String, bool, bool)>,
    },
    If {
        cond: LaneExpr,
        then: Vec<LaneStmt>,
        otherwise: Vec<LaneStmt>,
    },
    While {
        cond: LaneExpr,
        body: Vec<LaneStmt>,
    },
    /// `for (var = from; var < to; var++)` inside the lane (BFN's loop over the bits).
    For {
        var: String,
        from: LaneExpr,
        to: LaneExpr,
        body: Vec<LaneStmt>,
        /// The loop sets the bits of an element (`dst[i][idx] = ...`): (field, local). The
        /// local starts at 0 and, after the loop, is written to the field as the bits of its
        /// element type (CMP's all ones of a float destination are 0xFFFFFFFF, not -1.0).
        builds: Option<(String, String)>,
    },
    /// `field[i][bit] = value;`: bit `bit` of the element being built in local `name` (written
    /// to the operand once the lane's statements ran).
    SetBit {
        name: String,
        bit: LaneExpr,
        value: LaneExpr,
    },
}

/// How a plain field's value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldRead {
    /// An integer field.
    Int,
    /// A bit-packed field: its `to_raw()`.
    Packed,
    /// An enumerated field: `as u8`.
    Enum,
}

/// An expression of a lane function.
#[derive(Clone, Debug, PartialEq)]
pub enum LaneExpr {
    /// Element `i` of a vector operand (Rust field name).
    Read(String),
    /// The lane number `i`.
    Lane,
    /// `Pred[i]`.
    Pred,
    Int(u64),
    /// A float literal and whether it is `float` (`0.5f`) rather than `double`.
    Float(f64, bool),
    Local(String),
    /// A plain field's value (Rust field name).
    Field(String, FieldRead),
    /// `-`, `~`, `!`.
    Unary(String, Box<LaneExpr>),
    /// A C binary operator (`&&` and `||` short-circuit).
    Binary(String, Box<LaneExpr>, Box<LaneExpr>),
    Ternary(Box<LaneExpr>, Box<LaneExpr>, Box<LaneExpr>),
    /// A named function of the runtime (`runtime::functions`).
    Call(String, Vec<LaneExpr>),
    /// `(TYPE) e`: a data type name of the docs.
    Cast(String, Box<LaneExpr>),
    /// `field is predicate` and the like: the operand's class (the runtime's `OperandClass`
    /// variant name).
    IsClass(String, String),
    /// `field is unsigned` (or `signed`: negated): the type element `i` is read as.
    IsUnsigned(String, bool),
    /// `e[bit]` of an element `e`: that bit (0 or 1).
    Bit(Box<LaneExpr>, Box<LaneExpr>),
    /// `e[hi:lo]` of an element `e`: those bits, extended as `e`'s type is signed or not.
    BitRange(Box<LaneExpr>, u32, u32),
    /// `sizeof(field)`: the byte size of the operand's element type.
    SizeOf(String),
    /// Element `index` of a vector operand, another lane than `i` (`src0[i+1]`, SAD2).
    ReadAt(String, Box<LaneExpr>),
    /// `ChEn[i]` (`EM[i]` when true) inside the lane's statements: lane `i` is enabled.
    Enabled(bool),
    /// `field is scalar`: an immediate or a `<0;1,0>` region (`VectorOperand::is_scalar`).
    IsScalar(String),
    /// A vector operand named without an element (`src0` where `src0 is scalar`): its
    /// element 0.
    Scalar(String),
    /// `CHANNEL_SIZE_IN_BITS`: the bit width of the operand's element type (the operand whose
    /// bits the lane writes).
    Width(String),
}

/// By hand for the float literal (`f64` has no `Hash`): its bits, so `0.0` and `-0.0` differ,
/// as their `Debug` text does. A new variant must be added here (no wildcard arm).
impl std::hash::Hash for LaneExpr {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::mem::discriminant(self).hash(h);
        match self {
            LaneExpr::Lane | LaneExpr::Pred => {}
            LaneExpr::Read(s)
            | LaneExpr::Local(s)
            | LaneExpr::SizeOf(s)
            | LaneExpr::IsScalar(s)
            | LaneExpr::Scalar(s)
            | LaneExpr::Width(s) => s.hash(h),
            LaneExpr::Int(v) => v.hash(h),
            LaneExpr::Float(v, single) => (v.to_bits(), single).hash(h),
            LaneExpr::Field(s, read) => (s, read).hash(h),
            LaneExpr::Unary(op, e) | LaneExpr::Cast(op, e) | LaneExpr::ReadAt(op, e) => {
                (op, e).hash(h)
            }
            LaneExpr::Binary(op, a, b) => (op, a, b).hash(h),
            LaneExpr::Ternary(a, b, c) => (a, b, c).hash(h),
            LaneExpr::Call(f, args) => (f, args).hash(h),
            LaneExpr::IsClass(a, b) => (a, b).hash(h),
            LaneExpr::IsUnsigned(s, b) => (s, b).hash(h),
            LaneExpr::Bit(a, b) => (a, b).hash(h),
            LaneExpr::BitRange(e, hi, lo) => (e, hi, lo).hash(h),
            LaneExpr::Enabled(b) => b.hash(h),
        }
    }
}

/// A type a lane computes in: a numeric vISA data type.
fn is_lane_type(ty: &str) -> bool {
    crate::vocab::data_type(ty).is_some_and(|t| t.is_numeric())
}

/// Decides what `interpret` does with `inst`; a block that cannot run is warning V0141.
pub fn lanes(
    inst: &Instruction,
    fields: &BTreeMap<String, FieldModel>,
    variants: usize,
    diags: &mut Vec<Diagnostic>,
) -> LaneModel {
    let body = match &inst.pseudo_code {
        PseudoCode::Code { body } => body,
        PseudoCode::Unreadable { why } => {
            return LaneModel::Prose {
                why: Some(format!("its pseudo-code cannot be read ({why})")),
            }
        }
        PseudoCode::None | PseudoCode::Prose => return LaneModel::Prose { why: None },
    };
    let at = first_span(body).unwrap_or(inst.span);
    let result = if variants != 1 {
        Err((at, "the instruction has several formats".to_string()))
    } else {
        let mut r = Resolver::new(inst, fields);
        r.span = at;
        r.lane_fn(body)
    };
    match result {
        Ok(f) => LaneModel::Formal(f),
        Err((span, why)) => {
            diags.push(
                Diagnostic::new(
                    Code::NotRunnable,
                    &inst.source,
                    span,
                    format!("its ## Semantics pseudo-code cannot run as a lane function: {why}; the instruction runs through `Lanes::prose`"),
                )
                .expected("`for (i = 0; i < exec_size; ++i) { if (ChEn[i]) { dst[i] = <expression of operands [i]>; } }`"),
            );
            LaneModel::Prose {
                why: Some(format!(
                    "{}:{}:{}: {why}",
                    inst.source, span.line, span.column
                )),
            }
        }
    }
}

/// Whether a statement of `body` (at any depth) tests `guard` (`ChEn[i]`, `EM[i]`).
fn tests_guard(body: &[Stmt], guard: &dyn Fn(&Expr) -> bool) -> bool {
    fn expr(e: &Expr, guard: &dyn Fn(&Expr) -> bool) -> bool {
        guard(e)
            || match e {
                Expr::Binary { lhs, rhs, .. } => expr(lhs, guard) || expr(rhs, guard),
                Expr::Unary { operand, .. } => expr(operand, guard),
                _ => false,
            }
    }
    body.iter().any(|s| match s {
        Stmt::If {
            cond,
            then,
            otherwise,
            ..
        } => expr(cond, guard) || tests_guard(then, guard) || tests_guard(otherwise, guard),
        Stmt::While { cond, body, .. } => expr(cond, guard) || tests_guard(body, guard),
        Stmt::For { body, .. } => tests_guard(body, guard),
        _ => false,
    })
}

fn first_span(body: &[Stmt]) -> Option<Span> {
    body.first().map(stmt_span)
}

fn stmt_span(s: &Stmt) -> Span {
    match s {
        Stmt::For { span, .. }
        | Stmt::While { span, .. }
        | Stmt::If { span, .. }
        | Stmt::Local { span, .. }
        | Stmt::Assign { span, .. }
        | Stmt::Eval { span, .. } => *span,
    }
}

type Fail = (Span, String);

struct Resolver<'a> {
    inst: &'a Instruction,
    fields: &'a BTreeMap<String, FieldModel>,
    /// Locals by pseudo-code name: Rust name and type.
    locals: BTreeMap<String, (String, Option<String>)>,
    /// Rust names of locals assigned after their declaration.
    assigned: BTreeSet<String>,
    /// Operands read back after being written: field → local.
    kept: BTreeMap<String, String>,
    /// Where the statement being resolved is.
    span: Span,
    depth: usize,
    /// The operand whose element the lane builds bit by bit (`dst[i][idx] = ...`): field
    /// doc name → Rust field and the local holding the element.
    bit_built: Option<(String, String, String)>,
    /// Counted loops around the statement being resolved.
    loops: usize,
}

fn is_lane(e: &Expr) -> bool {
    matches!(e, Expr::Name { name } if name == "i")
}

impl<'a> Resolver<'a> {
    fn new(inst: &'a Instruction, fields: &'a BTreeMap<String, FieldModel>) -> Self {
        Resolver {
            inst,
            fields,
            locals: BTreeMap::new(),
            assigned: BTreeSet::new(),
            kept: BTreeMap::new(),
            span: inst.span,
            depth: 0,
            bit_built: None,
            loops: 0,
        }
    }

    fn fail<T>(&self, why: impl Into<String>) -> Result<T, Fail> {
        Err((self.span, why.into()))
    }

    /// The field a pseudo-code name means: `dst`, `src0`, `carry`, `BooleanFuncCtrl` (case
    /// and `_` ignored).
    fn field(&self, name: &str) -> Option<&'a FieldModel> {
        let key = |s: &str| s.to_ascii_lowercase().replace('_', "");
        self.fields.values().find(|f| key(&f.doc_name) == key(name))
    }

    fn vector(&self, name: &str) -> Option<&'a FieldModel> {
        self.field(name).filter(|f| f.ty == FieldType::Vector)
    }

    fn lane_fn(mut self, body: &[Stmt]) -> Result<LaneFn, Fail> {
        let [Stmt::For {
            init,
            cond,
            step,
            body,
            span,
        }] = body
        else {
            return self.fail("it is not one lane loop `for (i = 0; i < exec_size; ++i)`");
        };
        self.span = *span;
        let init_ok = matches!(init.as_deref(), Some(Stmt::Assign { target, op, value: Expr::Int { value: 0 }, .. }) if op == "=" && is_lane(target));
        let cond_ok = matches!(cond, Some(Expr::Binary { op, lhs, rhs }) if op == "<" && is_lane(lhs) && matches!(&**rhs, Expr::Name { name } if name == "exec_size"));
        // `++i`, or `i += 2` where the lanes go by pairs (SAD2's 2-tuples).
        let lane_step = match step.as_deref() {
            Some(Stmt::Assign {
                target,
                op,
                value: Expr::Int { value },
                ..
            }) if op == "+=" && is_lane(target) && (*value == 1 || *value == 2) => *value as u32,
            _ => 0,
        };
        let step_ok = lane_step != 0;
        if !(init_ok && cond_ok) {
            return self.fail("the loop is not `for (i = 0; i < exec_size; ...)`");
        }
        if !step_ok {
            return self.fail("the lane loop does not step `++i` (every lane once) or `i += 2`");
        }
        // The usual shape: the whole lane under one `if (ChEn[i])` (or `EM[i]`). Otherwise the
        // lane's statements test `ChEn[i]` themselves (SETP writes a scalar's bits to every
        // lane, and only the enabled lanes from a vector).
        let guard = |e: &Expr| matches!(e, Expr::Index { base, index } if is_lane(index) && matches!(&**base, Expr::Name { name } if name == "ChEn" || name == "EM"));
        let (then, guarded, guard_em, span) = match body.as_slice() {
            [Stmt::If {
                cond,
                then,
                otherwise,
                span,
            }] if guard(cond) && otherwise.is_empty() => {
                self.span = *span;
                let em = matches!(cond, Expr::Index { base, .. } if matches!(&**base, Expr::Name { name } if name == "EM"));
                (then, true, em, *span)
            }
            _ if tests_guard(body, &guard) => (body, false, false, *span),
            _ => {
                return self.fail(
                    "the lane loop's body tests neither `ChEn[i]` nor `EM[i]` (which lanes run?)",
                )
            }
        };
        let Some(exec) = self.field("Exec_size") else {
            return self.fail("the instruction has no `Exec_size` field");
        };
        let exec_size_packed = match exec.ty {
            FieldType::Bits { .. } => true,
            FieldType::Int(_) => false,
            _ => return self.fail("`Exec_size` is neither an integer nor bit-packed"),
        };
        let pred = self
            .fields
            .values()
            .find(|f| f.ty == FieldType::Predicate)
            .map(|f| f.rust_name.clone());
        self.find_kept(then);
        self.find_bit_built(then)?;
        let body = self.block(then)?;
        let body = mark_mutable(body, &self.assigned);
        Ok(LaneFn {
            exec_size: exec.rust_name.clone(),
            exec_size_packed,
            pred,
            step: lane_step,
            guarded,
            guard_em,
            place: format!("{}:{}", self.inst.source, span.line),
            body,
        })
    }

    /// `X[i]` or `X.chan[i]` (the docs' name of the same element): the vector operand `X`.
    fn element_of(&self, e: &Expr) -> Option<&'a FieldModel> {
        let Expr::Index { base, index } = e else {
            return None;
        };
        if !is_lane(index) {
            return None;
        }
        match &**base {
            Expr::Name { name } => self.vector(name),
            Expr::Member { base, name: member } if member == "chan" => match &**base {
                Expr::Name { name } => self.vector(name),
                _ => None,
            },
            _ => None,
        }
    }

    /// The operand whose element `i` the lane assigns bit by bit (`X[i][idx] = ...`), if any:
    /// one operand, never also assigned whole.
    fn find_bit_built(&mut self, body: &[Stmt]) -> Result<(), Fail> {
        fn walk<'s>(s: &'s [Stmt], bits: &mut Vec<&'s Expr>, whole: &mut Vec<&'s Expr>) {
            for s in s {
                match s {
                    Stmt::Assign { target, .. } => match target {
                        Expr::Index { base, .. } if matches!(&**base, Expr::Index { .. }) => {
                            bits.push(base)
                        }
                        _ => whole.push(target),
                    },
                    Stmt::If {
                        then, otherwise, ..
                    } => {
                        walk(then, bits, whole);
                        walk(otherwise, bits, whole);
                    }
                    Stmt::While { body, .. } | Stmt::For { body, .. } => walk(body, bits, whole),
                    _ => {}
                }
            }
        }
        let (mut bits, mut whole) = (Vec::new(), Vec::new());
        walk(body, &mut bits, &mut whole);
        let mut fields = BTreeSet::new();
        for e in &bits {
            match self.element_of(e) {
                Some(f) => fields.insert(f.rust_name.clone()),
                None => return self.fail("an assignment to a bit of no operand element `X[i]`"),
            };
        }
        let Some(field) = fields.iter().next().cloned() else {
            return Ok(());
        };
        if fields.len() > 1 {
            return self.fail("the bits of more than one operand are assigned");
        }
        // Whole assignments elsewhere (CMP's predicate case) write their own values; the
        // element built bit by bit is written after the loop that sets its bits.
        let _ = whole;
        let doc = self
            .fields
            .values()
            .find(|f| f.rust_name == field)
            .map_or(field.clone(), |f| f.doc_name.clone());
        self.bit_built = Some((doc, field.clone(), format!("{field}_bits")));
        Ok(())
    }

    /// Operands whose element `i` the lane reads after writing it.
    fn find_kept(&mut self, body: &[Stmt]) {
        let mut written = BTreeSet::new();
        let mut read_back = BTreeSet::new();
        fn reads(e: &Expr, written: &BTreeSet<String>, out: &mut BTreeSet<String>) {
            match e {
                Expr::Index { base, index } => {
                    if let Expr::Name { name } = &**base {
                        if is_lane(index) && written.contains(name) {
                            out.insert(name.clone());
                        }
                    }
                    reads(base, written, out);
                    reads(index, written, out);
                }
                Expr::Bits { base, hi, lo } => {
                    for x in [base, hi, lo] {
                        reads(x, written, out);
                    }
                }
                Expr::Member { base, .. } | Expr::Cast { operand: base, .. } => {
                    reads(base, written, out)
                }
                Expr::Unary { operand, .. } | Expr::Is { operand, .. } => {
                    reads(operand, written, out)
                }
                Expr::Binary { lhs, rhs, .. } => {
                    reads(lhs, written, out);
                    reads(rhs, written, out);
                }
                Expr::Ternary {
                    cond,
                    then,
                    otherwise,
                } => {
                    for x in [cond, then, otherwise] {
                        reads(x, written, out);
                    }
                }
                Expr::Call { args, .. } => args.iter().for_each(|a| reads(a, written, out)),
                Expr::Int { .. } | Expr::Float { .. } | Expr::Name { .. } => {}
            }
        }
        fn walk(s: &[Stmt], w: &mut BTreeSet<String>, r: &mut BTreeSet<String>) {
            for s in s {
                match s {
                    Stmt::Assign { target, value, .. } => {
                        reads(value, w, r);
                        if let Expr::Index { base, .. } = target {
                            if let Expr::Name { name } = &**base {
                                w.insert(name.clone());
                            }
                        }
                    }
                    Stmt::Local { init: Some(e), .. } | Stmt::Eval { expr: e, .. } => {
                        reads(e, w, r)
                    }
                    Stmt::If {
                        cond,
                        then,
                        otherwise,
                        ..
                    } => {
                        reads(cond, w, r);
                        walk(then, w, r);
                        walk(otherwise, w, r);
                    }
                    Stmt::While { cond, body, .. } => {
                        reads(cond, w, r);
                        walk(body, w, r);
                    }
                    Stmt::For { body, .. } => walk(body, w, r),
                    Stmt::Local { init: None, .. } => {}
                }
            }
        }
        walk(body, &mut written, &mut read_back);
        for name in read_back {
            if let Some(f) = self.vector(&name) {
                self.kept
                    .insert(f.rust_name.clone(), format!("{}_lane", f.rust_name));
            }
        }
    }

    fn block(&mut self, body: &[Stmt]) -> Result<Vec<LaneStmt>, Fail> {
        self.depth += 1;
        let scope = self.locals.clone();
        // `dst[i+1] = undefined;` (SAD2): any value will do, so the element is left as it is.
        let undefined = |s: &&Stmt| matches!(s, Stmt::Assign { op, value: Expr::Name { name }, .. } if op == "=" && name == "undefined");
        let out = body
            .iter()
            .filter(|s| !undefined(s))
            .map(|s| self.stmt(s))
            .collect();
        self.locals = scope;
        self.depth -= 1;
        out
    }

    fn local_name(&self, name: &str) -> String {
        let snake = super::naming::snake_name(name);
        let snake = if snake.is_empty() {
            "value".into()
        } else {
            snake
        };
        // The lane function's own names, and the kept operands' locals.
        if ["i", "l", "inst", "lanes", "args"].contains(&snake.as_str())
            || snake.ends_with("_lane")
            || self.fields.values().any(|f| f.rust_name == snake)
        {
            format!("{snake}_")
        } else {
            snake
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<LaneStmt, Fail> {
        self.span = stmt_span(s);
        match s {
            Stmt::Local { ty, name, init, .. } => {
                if !is_lane_type(ty) {
                    return self.fail(format!("local `{name}` has type `{ty}`, no vISA data type"));
                }
                let value = match init {
                    Some(e) => self.expr(e)?,
                    None => LaneExpr::Int(0),
                };
                let rust = self.local_name(name);
                self.locals
                    .insert(name.clone(), (rust.clone(), Some(ty.clone())));
                Ok(LaneStmt::Let {
                    name: rust,
                    ty: Some(ty.clone()),
                    mutable: false,
                    value,
                })
            }
            Stmt::Assign {
                target, op, value, ..
            } => self.assign(target, op, value),
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => Ok(LaneStmt::If {
                cond: self.expr(cond)?,
                then: self.block(then)?,
                otherwise: self.block(otherwise)?,
            }),
            Stmt::While { cond, body, .. } => Ok(LaneStmt::While {
                cond: self.expr(cond)?,
                body: self.block(body)?,
            }),
            Stmt::For {
                init,
                cond,
                step,
                body,
                ..
            } => self.counted_loop(init.as_deref(), cond.as_ref(), step.as_deref(), body),
            Stmt::Eval { .. } => self.fail("a call for its effect only"),
        }
    }

    /// `for (v = from; v < to; v++) { ... }` inside the lane: a counted loop over a new local.
    fn counted_loop(
        &mut self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Stmt>,
        body: &[Stmt],
    ) -> Result<LaneStmt, Fail> {
        let Some(Stmt::Assign {
            target: Expr::Name { name: var },
            op,
            value: from,
            ..
        }) = init
        else {
            return self.fail("a loop inside the lane that does not start `for (v = ...;`");
        };
        let counts = |e: &Expr| matches!(e, Expr::Name { name } if name == var);
        let to = match cond {
            Some(Expr::Binary { op: lt, lhs, rhs }) if lt == "<" && counts(lhs) => rhs,
            _ => {
                return self.fail(format!(
                    "a loop inside the lane whose condition is not `{var} < ...`"
                ))
            }
        };
        let steps = matches!(step, Some(Stmt::Assign { target, op, value: Expr::Int { value: 1 }, .. }) if op == "+=" && counts(target));
        if op != "=" || !steps || self.locals.contains_key(var) || self.field(var).is_some() {
            return self.fail(format!("a loop inside the lane that is not `for ({var} = ...; {var} < ...; {var}++)` over a new name"));
        }
        let (from, to) = (self.expr(from)?, self.expr(to)?);
        let rust = self.local_name(var);
        let scope = self.locals.clone();
        self.locals.insert(var.clone(), (rust.clone(), None));
        self.loops += 1;
        let body = self.block(body);
        self.loops -= 1;
        self.locals = scope;
        let body = body?;
        // The loop that sets the bits of an element starts it at 0 and writes it after.
        let builds = match &self.bit_built {
            Some((_, field, local)) if sets_bits(&body, local) => {
                self.assigned.insert(local.clone());
                Some((field.clone(), local.clone()))
            }
            _ => None,
        };
        Ok(LaneStmt::For {
            var: rust,
            from,
            to,
            body,
            builds,
        })
    }

    /// `target op value`: a bit of the element built bit by bit, an operand's element, or a
    /// local.
    fn assign(&mut self, target: &Expr, op: &str, value: &Expr) -> Result<LaneStmt, Fail> {
        let compound = op.strip_suffix('=').filter(|o| !o.is_empty());
        if let Some(set) = self.set_bit(target, compound, value)? {
            return Ok(set);
        }
        match target {
            Expr::Index { base, index } => {
                let Expr::Name { name } = &**base else {
                    return self.fail("an assignment to no operand element");
                };
                self.write_element(name, index, compound, value)
            }
            Expr::Name { name } => self.set_local(name, compound, value),
            _ => self.fail("an assignment to something other than an operand element or a local"),
        }
    }

    /// `X[b] = value` where `X` is the element built bit by bit (inside a counted loop);
    /// `None` when `target` is no such bit.
    fn set_bit(
        &self,
        target: &Expr,
        compound: Option<&str>,
        value: &Expr,
    ) -> Result<Option<LaneStmt>, Fail> {
        let Expr::Index { base, index } = target else {
            return Ok(None);
        };
        let (Some(f), Some((_, field, local))) = (self.element_of(base), &self.bit_built) else {
            return Ok(None);
        };
        if &f.rust_name != field || compound.is_some() {
            return Ok(None);
        }
        if self.loops == 0 {
            return self.fail(format!(
                "a bit of `{field}` set outside a counted loop over its bits"
            ));
        }
        Ok(Some(LaneStmt::SetBit {
            name: local.clone(),
            bit: self.expr(index)?,
            value: self.expr(value)?,
        }))
    }

    /// `name[i] = value`: a write of the lane's element of an operand (kept in a local when
    /// the pseudo-code reads it back).
    fn write_element(
        &mut self,
        name: &str,
        index: &Expr,
        compound: Option<&str>,
        value: &Expr,
    ) -> Result<LaneStmt, Fail> {
        let Some(f) = self.vector(name) else {
            return self.fail(format!("`{name}[...]` is no vector operand of the format"));
        };
        if !is_lane(index) {
            return self.fail(format!(
                "an assignment to `{name}[...]` of another lane than `i`"
            ));
        }
        if compound.is_some() {
            return self.fail(format!("a compound assignment to `{name}[i]`"));
        }
        let value = self.expr(value)?;
        let keep = self.kept.get(&f.rust_name).map(|local| {
            let first = !self.locals.contains_key(&format!("{name}[i]"));
            (local.clone(), first, false)
        });
        if let Some((local, first, _)) = &keep {
            if *first {
                if self.depth > 1 {
                    return self.fail(format!(
                        "`{name}[i]` is read back but first written inside a branch"
                    ));
                }
                self.locals
                    .insert(format!("{name}[i]"), (local.clone(), None));
            } else {
                self.assigned.insert(local.clone());
            }
        }
        Ok(LaneStmt::Write {
            field: f.rust_name.clone(),
            value,
            keep,
        })
    }

    /// `name op value`: an update of a local, or the declaration of a new one.
    fn set_local(
        &mut self,
        name: &str,
        compound: Option<&str>,
        value: &Expr,
    ) -> Result<LaneStmt, Fail> {
        let value = self.expr(value)?;
        if let Some((rust, ty)) = self.locals.get(name).cloned() {
            self.assigned.insert(rust.clone());
            let value = match compound {
                Some(o) => LaneExpr::Binary(
                    o.into(),
                    Box::new(LaneExpr::Local(rust.clone())),
                    Box::new(value),
                ),
                None => value,
            };
            return Ok(LaneStmt::Set {
                name: rust,
                ty,
                value,
            });
        }
        if compound.is_some() {
            return self.fail(format!("`{name}` is updated before it is set"));
        }
        if self.depth > 1 {
            return self.fail(format!(
                "`{name}` is first set inside a branch (no declaration)"
            ));
        }
        if self.field(name).is_some() || name == "i" {
            return self.fail(format!("an assignment to `{name}`"));
        }
        let rust = self.local_name(name);
        self.locals.insert(name.into(), (rust.clone(), None));
        Ok(LaneStmt::Let {
            name: rust,
            ty: None,
            mutable: false,
            value,
        })
    }

    /// The lane expression of `e`: one arm per form of the pseudo-code, the longer ones in
    /// methods of their own.
    fn expr(&self, e: &Expr) -> Result<LaneExpr, Fail> {
        Ok(match e {
            Expr::Int { value } => LaneExpr::Int(*value),
            Expr::Float { text } => {
                let single = text.ends_with(['f', 'F']);
                let body = text.trim_end_matches(['f', 'F']);
                match body.parse::<f64>() {
                    Ok(v) => LaneExpr::Float(v, single),
                    Err(_) => return self.fail(format!("`{text}` is no float")),
                }
            }
            Expr::Name { name } => return self.name_expr(name),
            Expr::Index { base, index } => return self.index_expr(e, base, index),
            Expr::Bits { base, hi, lo } => return self.bit_range(base, hi, lo),
            Expr::Member { name, .. } => return self.fail(format!("a member `.{name}`")),
            Expr::Unary { op, operand } => match op.as_str() {
                "-" | "~" | "!" => LaneExpr::Unary(op.clone(), Box::new(self.expr(operand)?)),
                _ => return self.fail(format!("the memory operator `{op}`")),
            },
            Expr::Binary { op, lhs, rhs } => return self.binary(op, lhs, rhs),
            Expr::Ternary {
                cond,
                then,
                otherwise,
            } => LaneExpr::Ternary(
                Box::new(self.expr(cond)?),
                Box::new(self.expr(then)?),
                Box::new(self.expr(otherwise)?),
            ),
            Expr::Call { name, args } => return self.call(name, args),
            Expr::Cast { ty, operand } => {
                if !is_lane_type(ty) {
                    return self.fail(format!("a cast to `{ty}`, no vISA data type"));
                }
                LaneExpr::Cast(ty.clone(), Box::new(self.expr(operand)?))
            }
            Expr::Is { operand, what } => return self.is(operand, what),
        })
    }

    /// A name: the lane, the width of the element built bit by bit, a local or a field.
    fn name_expr(&self, name: &str) -> Result<LaneExpr, Fail> {
        if name == "i" {
            return Ok(LaneExpr::Lane);
        }
        if name == "CHANNEL_SIZE_IN_BITS" {
            return match &self.bit_built {
                Some((_, field, _)) => Ok(LaneExpr::Width(field.clone())),
                None => self.fail("`CHANNEL_SIZE_IN_BITS` where no operand is built bit by bit"),
            };
        }
        if let Some((rust, _)) = self.locals.get(name) {
            return Ok(LaneExpr::Local(rust.clone()));
        }
        let Some(f) = self.field(name) else {
            return self.fail(format!("`{name}` names no field, local or lane"));
        };
        Ok(match f.ty {
            FieldType::Int(_) => LaneExpr::Field(f.rust_name.clone(), FieldRead::Int),
            FieldType::Bits { .. } => LaneExpr::Field(f.rust_name.clone(), FieldRead::Packed),
            FieldType::Enum(..) => LaneExpr::Field(f.rust_name.clone(), FieldRead::Enum),
            FieldType::Vector => LaneExpr::Scalar(f.rust_name.clone()),
            _ => return self.fail(format!("operand `{name}` without an element index")),
        })
    }

    /// `e`, which is `base[index]`: a bit of an element or of a local, a channel of the lane,
    /// or an operand's element (the predicate, the channel enable, a kept local).
    fn index_expr(&self, e: &Expr, base: &Expr, index: &Expr) -> Result<LaneExpr, Fail> {
        // `dScalar[31]` (FBH): a bit of a local holding an element.
        let of_local = matches!(base, Expr::Name { name } if self.locals.contains_key(name));
        if self.element_of(base).is_some() || of_local {
            return Ok(LaneExpr::Bit(
                Box::new(self.expr(base)?),
                Box::new(self.expr(index)?),
            ));
        }
        if is_lane(index) && matches!(base, Expr::Member { name, .. } if name == "chan") {
            let Some(f) = self.element_of(e) else {
                return self.fail("`.chan[i]` of no vector operand");
            };
            return Ok(LaneExpr::Read(f.rust_name.clone()));
        }
        let Expr::Name { name } = base else {
            return self.fail("an index of something other than a name");
        };
        if !is_lane(index) {
            return match self.vector(name) {
                Some(f) => Ok(LaneExpr::ReadAt(
                    f.rust_name.clone(),
                    Box::new(self.expr(index)?),
                )),
                _ => self.fail(format!("`{name}[...]` reads another lane than `i`")),
            };
        }
        if name == "Pred" {
            return Ok(LaneExpr::Pred);
        }
        if name == "ChEn" || name == "EM" {
            return Ok(LaneExpr::Enabled(name == "EM"));
        }
        if let Some((local, _)) = self.locals.get(&format!("{name}[i]")) {
            return Ok(LaneExpr::Local(local.clone()));
        }
        match self.vector(name) {
            Some(f) => Ok(LaneExpr::Read(f.rust_name.clone())),
            None => self.fail(format!(
                "`{name}[i]`: `{name}` is no vector operand of the format"
            )),
        }
    }

    /// `base[hi:lo]`: bits of an operand element.
    fn bit_range(&self, base: &Expr, hi: &Expr, lo: &Expr) -> Result<LaneExpr, Fail> {
        let (Expr::Int { value: hi }, Expr::Int { value: lo }) = (hi, lo) else {
            return self.fail("a bit range `[hi:lo]` whose bounds are no numbers");
        };
        if self.element_of(base).is_none() || hi < lo || *hi > 63 {
            return self
                .fail("a bit range `[hi:lo]` (hi >= lo, below 64) of no operand element `X[i]`");
        }
        Ok(LaneExpr::BitRange(
            Box::new(self.expr(base)?),
            *hi as u32,
            *lo as u32,
        ))
    }

    /// `lhs op rhs`: a C operator, or a field naming the operator (`src0[i] rel_op src1[i]`).
    fn binary(&self, op: &str, lhs: &Expr, rhs: &Expr) -> Result<LaneExpr, Fail> {
        let (l, r) = (self.expr(lhs)?, self.expr(rhs)?);
        const C_OPS: &[&str] = &[
            "||", "&&", "|", "^", "&", "==", "!=", "<", "<=", ">", ">=", "<<", ">>", "+", "-", "*",
            "/", "%",
        ];
        if C_OPS.contains(&op) {
            return Ok(LaneExpr::Binary(op.into(), Box::new(l), Box::new(r)));
        }
        // `src0[i] rel_op src1[i]`: the field chooses the operator.
        let field = self.expr(&Expr::Name { name: op.into() })?;
        if !matches!(field, LaneExpr::Field(..)) {
            return self.fail(format!("`{op}` between two operands names no field"));
        }
        Ok(LaneExpr::Call(op.to_ascii_lowercase(), vec![field, l, r]))
    }

    /// `name(args)`: `sizeof` of an operand, or a function of the lane functions' runtime
    /// (`min/max` takes the field that chooses first).
    fn call(&self, name: &str, args: &[Expr]) -> Result<LaneExpr, Fail> {
        if name == "sizeof" {
            let [Expr::Name { name: op }] = args else {
                return self.fail("`sizeof` of something other than an operand");
            };
            return match self.vector(op) {
                Some(f) => Ok(LaneExpr::SizeOf(f.rust_name.clone())),
                None => self.fail(format!("`sizeof({op})`: `{op}` is no vector operand")),
            };
        }
        let mut args: Vec<LaneExpr> = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<_, _>>()?;
        if let Some((a, b)) = name.split_once('/') {
            // `min/max(a, b)`: the field whose values are named `a` and `b` chooses.
            let Some(f) = self.chooser(a, b) else {
                return self.fail(format!("no field chooses between `{a}` and `{b}`"));
            };
            args.insert(0, self.expr(&Expr::Name { name: f })?);
        }
        Ok(LaneExpr::Call(name.into(), args))
    }

    /// `operand is what`: a test of an operand's class, signedness or region, or `is odd`.
    fn is(&self, operand: &Expr, what: &str) -> Result<LaneExpr, Fail> {
        let field = match operand {
            Expr::Name { name } => self.vector(name),
            _ => None,
        };
        Ok(match (field, what) {
            (Some(f), "predicate") => LaneExpr::IsClass(f.rust_name.clone(), "Predicate".into()),
            (Some(f), "unsigned") => LaneExpr::IsUnsigned(f.rust_name.clone(), true),
            (Some(f), "signed") => LaneExpr::IsUnsigned(f.rust_name.clone(), false),
            (Some(f), "scalar") => LaneExpr::IsScalar(f.rust_name.clone()),
            (_, "odd") => LaneExpr::Binary(
                "!=".into(),
                Box::new(LaneExpr::Binary(
                    "%".into(),
                    Box::new(self.expr(operand)?),
                    Box::new(LaneExpr::Int(2)),
                )),
                Box::new(LaneExpr::Int(0)),
            ),
            _ => return self.fail(format!("`... is {what}`")),
        })
    }

    /// The field of the doc whose enumerated values are named `a` and `b` (MIN_MAX's `Op`:
    /// `0b0: min`, `0b1: max`).
    fn chooser(&self, a: &str, b: &str) -> Option<String> {
        let named =
            |v: &crate::schema::EnumValue, n: &str| v.meaning.split_whitespace().next() == Some(n);
        self.inst
            .fields
            .iter()
            .find(|f| {
                let values: Vec<_> = f
                    .values
                    .iter()
                    .chain(f.bitfields.iter().flat_map(|b| &b.values))
                    .collect();
                values.iter().any(|v| named(v, a)) && values.iter().any(|v| named(v, b))
            })
            .map(|f| f.name.clone())
    }
}

/// Whether `body` sets a bit of the element held in `local`.
fn sets_bits(body: &[LaneStmt], local: &str) -> bool {
    body.iter().any(|s| match s {
        LaneStmt::SetBit { name, .. } => name == local,
        LaneStmt::If {
            then, otherwise, ..
        } => sets_bits(then, local) || sets_bits(otherwise, local),
        LaneStmt::While { body, .. } | LaneStmt::For { body, .. } => sets_bits(body, local),
        _ => false,
    })
}

/// Marks the locals assigned after their declaration `mut`.
fn mark_mutable(body: Vec<LaneStmt>, assigned: &BTreeSet<String>) -> Vec<LaneStmt> {
    body.into_iter()
        .map(|s| match s {
            LaneStmt::Let {
                name, ty, value, ..
            } => LaneStmt::Let {
                mutable: assigned.contains(&name),
                name,
                ty,
                value,
            },
            LaneStmt::Write {
                field,
                value,
                keep: Some((local, true, _)),
            } => LaneStmt::Write {
                keep: Some((local.clone(), true, assigned.contains(&local))),
                field,
                value,
            },
            LaneStmt::If {
                cond,
                then,
                otherwise,
            } => LaneStmt::If {
                cond,
                then: mark_mutable(then, assigned),
                otherwise: mark_mutable(otherwise, assigned),
            },
            LaneStmt::While { cond, body } => LaneStmt::While {
                cond,
                body: mark_mutable(body, assigned),
            },
            LaneStmt::For {
                var,
                from,
                to,
                body,
                builds,
            } => LaneStmt::For {
                var,
                from,
                to,
                body: mark_mutable(body, assigned),
                builds,
            },
            other => other,
        })
        .collect()
}
