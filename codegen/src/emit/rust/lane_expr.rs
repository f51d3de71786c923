//! The pseudo-code's expressions as Rust (`i128` values, `bool` conditions), for the lane
//! functions of `semantics.rs`: shared by their statements and by the whole-operand blocks of
//! `semantics_block.rs`.

use super::{ident, unparen};
use crate::analyze::semantics::{FieldRead, LaneExpr};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

pub(super) fn data_type(ty: &str) -> TokenStream {
    let v = ident(&crate::analyze::naming::type_name(ty));
    quote!(DataType::#v)
}

/// Whether computing `e` asks the machine (a read, the predicate, a call).
pub(super) fn uses_machine(e: &LaneExpr) -> bool {
    match e {
        LaneExpr::Read(_) | LaneExpr::Pred | LaneExpr::Call(..) | LaneExpr::IsUnsigned(..) => true,
        LaneExpr::Scalar(_) | LaneExpr::Enabled(_) | LaneExpr::ReadAt(..) => true,
        LaneExpr::SizeOf(_) | LaneExpr::Width(_) => true,
        LaneExpr::Unary(_, a) | LaneExpr::Cast(_, a) | LaneExpr::BitRange(a, ..) => uses_machine(a),
        LaneExpr::Bit(a, b) => uses_machine(a) || uses_machine(b),
        LaneExpr::Binary(_, a, b) => uses_machine(a) || uses_machine(b),
        LaneExpr::Ternary(a, b, c) => uses_machine(a) || uses_machine(b) || uses_machine(c),
        LaneExpr::Lane
        | LaneExpr::Int(_)
        | LaneExpr::Float(..)
        | LaneExpr::Local(_)
        | LaneExpr::Field(..)
        | LaneExpr::IsClass(..)
        | LaneExpr::IsScalar(_) => false,
    }
}

/// A condition as a Rust `bool`.
pub(super) fn cond(e: &LaneExpr) -> TokenStream {
    match e {
        LaneExpr::IsClass(f, class) => {
            let (f, class) = (ident(f), ident(class));
            quote!(inst.#f.class() == OperandClass::#class)
        }
        LaneExpr::Binary(op, a, b) if op == "&&" || op == "||" => {
            let (a, b) = (cond_operand(a), cond_operand(b));
            if op == "&&" {
                quote!(#a && #b)
            } else {
                quote!(#a || #b)
            }
        }
        LaneExpr::Unary(op, a) if op == "!" => {
            let a = cond_operand(a);
            quote!(!#a)
        }
        LaneExpr::Pred => quote!(l.predicate(i)),
        LaneExpr::Enabled(false) => quote!(l.enabled(i)),
        LaneExpr::Enabled(true) => quote!(l.enabled_by_mask(i)),
        LaneExpr::IsScalar(f) => {
            let f = ident(f);
            quote!(inst.#f.is_scalar())
        }
        _ => {
            let a = atom(e);
            quote!(#a.truth())
        }
    }
}

/// A condition as an operand of `&&`, `||`, `!`: parenthesized when it is one of those.
fn cond_operand(e: &LaneExpr) -> TokenStream {
    let c = cond(e);
    match e {
        LaneExpr::Binary(op, ..) if op == "&&" || op == "||" => quote!((#c)),
        LaneExpr::IsClass(..) => quote!((#c)),
        _ => c,
    }
}

/// `e` where a method is called on it or an operator applies: parenthesized unless it is a
/// call, a path or a name.
pub(super) fn atom(e: &LaneExpr) -> TokenStream {
    let t = expr(e);
    match e {
        LaneExpr::Binary(op, ..) if is_comparison(op) => t,
        LaneExpr::Binary(..) | LaneExpr::Unary(..) | LaneExpr::Ternary(..) => quote!((#t)),
        _ => t,
    }
}

/// The Rust expression of `e`: one arm per form of lane expression (a table; the longer
/// arms have functions of their own).
pub(super) fn expr(e: &LaneExpr) -> TokenStream {
    match e {
        LaneExpr::Read(f) => {
            let f = ident(f);
            quote!(l.read(&inst.#f, i)?)
        }
        LaneExpr::Lane => quote!(Value::lane(i)),
        LaneExpr::Pred => quote!(Value::from_bool(l.predicate(i))),
        LaneExpr::Int(v) => {
            let v = Literal::u64_unsuffixed(*v);
            quote!(Value::literal(#v))
        }
        LaneExpr::Float(v, single) => {
            let v = Literal::f64_unsuffixed(*v);
            let t = data_type(if *single { "F" } else { "DF" });
            quote!(Value::Float(#v, #t))
        }
        LaneExpr::Local(n) => {
            let n = ident(n);
            quote!(#n)
        }
        LaneExpr::Field(f, read) => field_value(f, read),
        LaneExpr::Unary(op, a) => {
            let a = atom(a);
            match op.as_str() {
                "-" => quote!(-#a),
                "~" => quote!(!#a),
                _ => quote!(#a.logical_not()),
            }
        }
        LaneExpr::Binary(op, a, b) => binary(op, a, b),
        LaneExpr::Ternary(c, a, b) => {
            let (c, a, b) = (cond(c), unparen(expr(a)), unparen(expr(b)));
            quote!(if #c { #a } else { #b })
        }
        LaneExpr::Call(name, args) => {
            let args = args.iter().map(|a| unparen(expr(a)));
            quote!(call_named(&[#(#args),*], l, #name)?)
        }
        LaneExpr::Cast(ty, a) => {
            let t = data_type(ty);
            let a = atom(a);
            quote!(#a.cast(#t))
        }
        LaneExpr::IsClass(..) | LaneExpr::IsScalar(_) | LaneExpr::Enabled(_) => {
            let c = cond(e);
            quote!(Value::from_bool(#c))
        }
        LaneExpr::Scalar(f) => {
            let f = ident(f);
            quote!(l.read(&inst.#f, 0)?)
        }
        LaneExpr::ReadAt(f, index) => {
            let (f, index) = (ident(f), atom(index));
            quote!(l.read(&inst.#f, #index.as_i128() as u32)?)
        }
        LaneExpr::IsUnsigned(f, unsigned) => {
            let f = ident(f);
            if *unsigned {
                quote!(Value::from_bool(is_unsigned(l.read(&inst.#f, i)?.ty())))
            } else {
                quote!(Value::from_bool(!is_unsigned(l.read(&inst.#f, i)?.ty())))
            }
        }
        LaneExpr::Bit(a, b) => {
            let (a, b) = (atom(a), unparen(expr(b)));
            quote!(#a.bit(#b))
        }
        LaneExpr::BitRange(a, hi, lo) => {
            let a = atom(a);
            let (hi, lo) = (Literal::u32_unsuffixed(*hi), Literal::u32_unsuffixed(*lo));
            quote!(#a.bits(#hi, #lo))
        }
        LaneExpr::SizeOf(f) => {
            let n = element_bytes(f);
            quote!(Value::literal(#n))
        }
        LaneExpr::Width(f) => {
            let n = element_bytes(f);
            quote!(Value::literal(8 * #n))
        }
    }
}

/// The value of field `f` of the instruction, read as `read` says.
fn field_value(f: &str, read: &FieldRead) -> TokenStream {
    let f = ident(f);
    let v = match read {
        FieldRead::Int => quote!(i128::from(inst.#f)),
        FieldRead::Packed => quote!(i128::from(inst.#f.to_raw())),
        FieldRead::Enum => quote!(inst.#f as i128),
    };
    quote!(Value::Int(#v, DataType::Ud))
}

/// `sizeof(field)` and `CHANNEL_SIZE_IN_BITS`: the element type of the operand, in bytes.
fn element_bytes(f: &str) -> TokenStream {
    let f = ident(f);
    quote!(l.element_type(&inst.#f, i)?.size() as u64)
}

fn is_comparison(op: &str) -> bool {
    matches!(op, "<" | "<=" | ">" | ">=" | "==" | "!=")
}

fn binary(op: &str, a: &LaneExpr, b: &LaneExpr) -> TokenStream {
    let method = match op {
        "<" => Some("less"),
        "<=" => Some("less_eq"),
        ">" => Some("greater"),
        ">=" => Some("greater_eq"),
        "==" => Some("equal"),
        "!=" => Some("not_equal"),
        _ => None,
    };
    if let Some(m) = method {
        let (m, a, b) = (ident(m), atom(a), unparen(expr(b)));
        return quote!(#a.#m(#b));
    }
    if op == "&&" || op == "||" {
        let c = cond(&LaneExpr::Binary(
            op.into(),
            Box::new(a.clone()),
            Box::new(b.clone()),
        ));
        return quote!(Value::from_bool(#c));
    }
    let (x, y) = (atom(a), atom(b));
    let op: TokenStream = op.parse().unwrap_or_else(|_| quote!(+));
    quote!(#x #op #y)
}
