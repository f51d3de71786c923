//! Whole-operand lane functions: the common shape of `## Semantics` (`dst[i] = <expression of
//! src0[i], src1[i], ...>` under `if (ChEn[i])`, perhaps under a test of an operand's class)
//! generated as the hardware runs it: every source read once per instruction, the lanes computed
//! in a loop, each destination written once. The machine decodes an operand's region once for
//! all its lanes ([`Lanes::read_lanes`], [`Lanes::write_lanes`]) instead of once per lane and
//! operand; that is what makes the interpreter's ALU code fast (BENCHMARKS.md, "Machine").
//!
//! A body takes this shape when it is only writes of whole elements (`field[i] = e`, no local
//! kept, no destination read back) and `if`s on what is the same for every lane (an operand's
//! class, a plain field); its expressions read elements `i` of sources, `Pred[i]`, the lane
//! number, literals, fields and named functions, but no locals, `sizeof` or an element's
//! signedness. Anything else keeps the lane-by-lane form of `semantics.rs`.
//!
//! [`Lanes::read_lanes`]: ../../../../runtime/runtime/lanes.rs
//! [`Lanes::write_lanes`]: ../../../../runtime/runtime/lanes.rs

use super::ident;
use crate::analyze::semantics::{LaneExpr, LaneFn, LaneStmt};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeSet;

/// Names the whole-operand form declares; an operand field of one of these names keeps the
/// lane-by-lane form (they would shadow each other).
const RESERVED: &[&str] = &["lanes", "chen", "n", "i", "k", "l", "inst", "value"];

/// The fields a body in whole-operand shape reads and writes, or `None` when it has another
/// shape.
pub(super) struct Shape {
    reads: BTreeSet<String>,
}

/// Whether `f`'s body has the whole-operand shape.
pub(super) fn shape(f: &LaneFn) -> Option<Shape> {
    // Only the plain lane loop: one lane per step, guarded by ChEn (or EM) around the body.
    if f.step != 1 || !f.guarded {
        return None;
    }
    let (mut reads, mut writes) = (BTreeSet::new(), BTreeSet::new());
    if f.body.is_empty() || !f.body.iter().all(|s| stmt_fits(s, &mut reads, &mut writes)) {
        return None;
    }
    let clash = |n: &String| RESERVED.contains(&n.as_str()) || n.ends_with("_lanes");
    if reads.intersection(&writes).next().is_some() || reads.iter().chain(&writes).any(clash) {
        return None;
    }
    Some(Shape { reads })
}

fn stmt_fits(s: &LaneStmt, reads: &mut BTreeSet<String>, writes: &mut BTreeSet<String>) -> bool {
    match s {
        LaneStmt::Write {
            field,
            value,
            keep: None,
        } => {
            writes.insert(field.clone());
            expr_fits(value, reads)
        }
        LaneStmt::If {
            cond,
            then,
            otherwise,
        } => {
            invariant(cond)
                && then
                    .iter()
                    .chain(otherwise)
                    .all(|s| stmt_fits(s, reads, writes))
        }
        _ => false,
    }
}

/// An expression computed per lane from elements `i` of sources (collected into `reads`).
fn expr_fits(e: &LaneExpr, reads: &mut BTreeSet<String>) -> bool {
    match e {
        LaneExpr::Read(f) => {
            reads.insert(f.clone());
            true
        }
        LaneExpr::Lane
        | LaneExpr::Pred
        | LaneExpr::Int(_)
        | LaneExpr::Float(..)
        | LaneExpr::Field(..)
        | LaneExpr::IsClass(..) => true,
        LaneExpr::Unary(_, a) | LaneExpr::Cast(_, a) | LaneExpr::BitRange(a, ..) => {
            expr_fits(a, reads)
        }
        LaneExpr::Bit(a, b) | LaneExpr::Binary(_, a, b) => {
            expr_fits(a, reads) && expr_fits(b, reads)
        }
        LaneExpr::Ternary(a, b, c) => {
            expr_fits(a, reads) && expr_fits(b, reads) && expr_fits(c, reads)
        }
        LaneExpr::Call(_, args) => args.iter().all(|a| expr_fits(a, reads)),
        LaneExpr::Local(_)
        | LaneExpr::IsUnsigned(..)
        | LaneExpr::SizeOf(_)
        | LaneExpr::Width(_)
        // Another lane, the lane's own guard, a scalar's element 0: lane by lane.
        | LaneExpr::ReadAt(..)
        | LaneExpr::Enabled(_)
        | LaneExpr::IsScalar(_)
        | LaneExpr::Scalar(_) => false,
    }
}

/// A condition that is the same for every lane: operand classes, fields, literals.
fn invariant(e: &LaneExpr) -> bool {
    match e {
        LaneExpr::Int(_) | LaneExpr::Float(..) | LaneExpr::Field(..) | LaneExpr::IsClass(..) => {
            true
        }
        LaneExpr::Unary(_, a) | LaneExpr::Cast(_, a) => invariant(a),
        LaneExpr::Binary(_, a, b) => invariant(a) && invariant(b),
        LaneExpr::Ternary(a, b, c) => invariant(a) && invariant(b) && invariant(c),
        _ => false,
    }
}

/// `expr` with each read of element `i` of a source turned into the local that holds it.
fn lanewise(e: &LaneExpr) -> LaneExpr {
    let b = |a: &LaneExpr| Box::new(lanewise(a));
    match e {
        LaneExpr::Read(f) => LaneExpr::Local(f.clone()),
        LaneExpr::Unary(op, a) => LaneExpr::Unary(op.clone(), b(a)),
        LaneExpr::Cast(t, a) => LaneExpr::Cast(t.clone(), b(a)),
        LaneExpr::BitRange(a, hi, lo) => LaneExpr::BitRange(b(a), *hi, *lo),
        LaneExpr::Bit(x, y) => LaneExpr::Bit(b(x), b(y)),
        LaneExpr::Binary(op, x, y) => LaneExpr::Binary(op.clone(), b(x), b(y)),
        LaneExpr::Ternary(x, y, z) => LaneExpr::Ternary(b(x), b(y), b(z)),
        LaneExpr::Call(n, args) => LaneExpr::Call(n.clone(), args.iter().map(lanewise).collect()),
        other => other.clone(),
    }
}

/// The statements of a whole-operand lane function after `let lanes = l.begin(..)?;`.
pub(super) fn body(f: &LaneFn, shape: &Shape) -> TokenStream {
    let chen = if f.guard_em {
        quote!(l.enabled_by_mask_lanes(lanes))
    } else {
        quote!(l.enabled_lanes(lanes))
    };
    let sources = shape.reads.iter().map(|r| {
        let (f, all) = (ident(r), format_ident!("{r}_lanes"));
        quote! {
            let mut #all = [Value::Bool(false); 32];
            l.read_lanes(&inst.#f, chen, &mut #all[..n])?;
        }
    });
    let stmts = f.body.iter().map(stmt);
    quote! {
        let lanes = lanes.min(32);
        let chen = #chen;
        let n = lanes as usize;
        #(#sources)*
        #(#stmts)*
        Ok(())
    }
}

fn stmt(s: &LaneStmt) -> TokenStream {
    match s {
        LaneStmt::Write { field, value, .. } => {
            let mut reads = BTreeSet::new();
            expr_fits(value, &mut reads);
            let elements = reads.iter().map(|r| {
                let (f, all) = (ident(r), format_ident!("{r}_lanes"));
                quote!(let #f = #all[k];)
            });
            let value = super::unparen(super::lane_expr::expr(&lanewise(value)));
            let (f, all) = (ident(field), format_ident!("{field}_lanes"));
            quote! {
                let mut #all = [Value::Bool(false); 32];
                for i in 0..lanes {
                    if chen >> i & 1 == 0 {
                        continue;
                    }
                    let k = i as usize;
                    #(#elements)*
                    #all[k] = #value;
                }
                l.write_lanes(&inst.#f, chen, &#all[..n])?;
            }
        }
        LaneStmt::If {
            cond,
            then,
            otherwise,
        } => {
            let c = super::lane_expr::cond(cond);
            let then = then.iter().map(stmt);
            let otherwise: Vec<TokenStream> = otherwise.iter().map(stmt).collect();
            if otherwise.is_empty() {
                quote!(if #c { #(#then)* })
            } else {
                quote!(if #c { #(#then)* } else { #(#otherwise)* })
            }
        }
        // `shape` admits nothing else.
        _ => TokenStream::new(),
    }
}
