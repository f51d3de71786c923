//! `src/generated/semantics.rs`: one lane function per instruction whose `## Semantics` runs
//! (the analysed [`LaneFn`]), and [`interpret`](#bridge), which drives any instruction through
//! the generated `Execute`/`dispatch`: its lane function, or the machine's `Lanes::prose`.

use super::lane_expr::{atom, cond, data_type, expr, uses_machine};
use super::top::decodable;
use super::{docs, ident, idents_in, unparen, use_only};
use crate::analyze::naming::snake_name;
use crate::analyze::semantics::{LaneExpr, LaneFn, LaneModel, LaneStmt};
use crate::analyze::{InstModel, Model};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// The module: its head, each instruction's lane function, then the interpreter, with a
/// method per instruction.
pub fn tokens(model: &Model) -> TokenStream {
    let insts: Vec<&InstModel> = decodable(model).collect();
    let lane_fns: Vec<TokenStream> = insts
        .iter()
        .map(|i| match &i.lanes {
            LaneModel::Formal(f) => lane_fn(i, f),
            LaneModel::Prose { .. } => quote!(),
        })
        .collect();
    let lane_fns = quote!(#(#lane_fns)*);
    let methods: Vec<TokenStream> = insts.iter().map(|i| method(i)).collect();
    let methods = quote!(#(#methods)*);
    let any_prose = insts
        .iter()
        .any(|i| matches!(i.lanes, LaneModel::Prose { .. }));
    let interpreter = interpreter(any_prose, &methods);
    let mut used = idents_in(&lane_fns);
    used.extend(idents_in(&methods));
    used.extend(idents_in(&interpreter));
    let head = with_head(&used);
    quote! {
        #head
        #lane_fns
        #interpreter
    }
}

/// The interpreter's method running `inst`.
fn method(i: &InstModel) -> TokenStream {
    let method = ident(&snake_name(&i.doc_name));
    let ty = ident(&i.rust_name);
    match &i.lanes {
        LaneModel::Formal(_) => quote! {
            fn #method(&mut self, inst: &super::#ty) -> Self::Output {
                #method(inst, self.lanes)
            }
        },
        LaneModel::Prose { .. } => quote! {
            fn #method(&mut self, _inst: &super::#ty) -> Self::Output {
                self.lanes.prose(self.inst)
            }
        },
    }
}

/// The `Execute` implementation that runs each instruction through its lane function or the
/// machine's prose (`methods`, one per instruction), and `interpret`.
fn interpreter(any_prose: bool, methods: &TokenStream) -> TokenStream {
    let (inst_field, inst_init) = if any_prose {
        (
            quote!(
                /// The instruction as a whole, for [`Lanes::prose`].
                inst: &'a Instruction,
            ),
            quote!(inst),
        )
    } else {
        (quote!(), quote!())
    };
    quote! {
        /// Runs instructions for [`interpret`]: each through its lane function, or the
        /// machine's [`Lanes::prose`].
        struct Interpreter<'a, L: ?Sized> {
            lanes: &'a mut L,
            #inst_field
        }

        impl<L: Lanes + ?Sized> Execute for Interpreter<'_, L> {
            type Output = Result<(), L::Error>;
            #methods
        }

        /// Runs `inst` on the machine `l`: through its lane function when its doc's
        /// `## Semantics` pseudo-code runs (a function of this module), else through [`Lanes::prose`].
        pub fn interpret<L: Lanes + ?Sized>(inst: &Instruction, l: &mut L) -> Result<(), L::Error> {
            dispatch(inst, &mut Interpreter { lanes: l, #inst_init })
        }
    }
}

/// The module's docs and only the imports and helpers its code (which uses `used`) needs.
fn with_head(used: &BTreeSet<String>) -> TokenStream {
    let runtime = use_only(
        quote!(crate::runtime),
        &["DataType", "Lanes", "OperandClass", "Value"],
        used,
    );
    let unsigned = if used.contains("is_unsigned") {
        quote!(
            use crate::runtime::value::is_unsigned;
        )
    } else {
        quote!()
    };
    let call = if used.contains("call_named") {
        quote! {
            /// `name(args)` of the pseudo-code, through [`Lanes::call`] (the arguments come
            /// first: they are computed before the machine is borrowed for the call).
            fn call_named<L: Lanes + ?Sized>(args: &[Value], l: &mut L, name: &'static str) -> Result<Value, L::Error> {
                l.call(name, args)
            }
        }
    } else {
        quote!()
    };
    quote! {
        //! Lane functions generated from the `## Semantics` pseudo-code of the docs, and
        //! [`interpret`], the bridge from any instruction to them (or to [`Lanes::prose`]).
        #runtime
        #unsigned
        use super::{dispatch, Execute, Instruction};
        #call
    }
}

/// `pub fn add<L>(inst: &Add, l: &mut L)`: the lane loop of the doc.
fn lane_fn(inst: &InstModel, f: &LaneFn) -> TokenStream {
    let name = ident(&snake_name(&inst.doc_name));
    let ty = ident(&inst.rust_name);
    let exec = ident(&f.exec_size);
    let exec = if f.exec_size_packed {
        quote!(inst.#exec.to_raw())
    } else {
        quote!(inst.#exec)
    };
    let pred = match &f.pred {
        Some(p) => {
            let p = ident(p);
            quote!(Some(inst.#p))
        }
        None => quote!(None),
    };
    if let Some(shape) = super::semantics_block::shape(f) {
        let doc = docs(&[format!(
            "The lanes of `{}` ({}): its `## Semantics` pseudo-code, over whole operands.",
            inst.doc_name, f.place
        )]);
        let body = super::semantics_block::body(f, &shape);
        return quote! {
            #doc
            pub fn #name<L: Lanes + ?Sized>(inst: &super::#ty, l: &mut L) -> Result<(), L::Error> {
                let lanes = l.begin(crate::runtime::ExecSize(#exec), #pred)?;
                #body
            }
        };
    }
    let body: Vec<TokenStream> = f.body.iter().map(stmt).collect();
    let lanes = match f.step {
        1 => quote!(0..lanes),
        n => {
            let n = Literal::usize_unsuffixed(n as usize);
            quote!((0..lanes).step_by(#n))
        }
    };
    let guard = match (f.guarded, f.guard_em) {
        (false, _) => quote!(),
        (true, true) => quote!(if !l.enabled_by_mask(i) {
            continue;
        }),
        (true, false) => quote!(if !l.enabled(i) {
            continue;
        }),
    };
    let doc = docs(&[format!(
        "The lanes of `{}` ({}): its `## Semantics` pseudo-code.",
        inst.doc_name, f.place
    )]);
    quote! {
        #doc
        pub fn #name<L: Lanes + ?Sized>(inst: &super::#ty, l: &mut L) -> Result<(), L::Error> {
            let lanes = l.begin(crate::runtime::ExecSize(#exec), #pred)?;
            for i in #lanes {
                #guard
                #(#body)*
            }
            Ok(())
        }
    }
}

fn stmt(s: &LaneStmt) -> TokenStream {
    match s {
        LaneStmt::Let {
            name,
            ty,
            mutable,
            value,
        } => {
            let n = ident(name);
            let v = typed(value, ty.as_deref());
            if *mutable {
                quote!(let mut #n = #v;)
            } else {
                quote!(let #n = #v;)
            }
        }
        LaneStmt::Set { name, ty, value } => {
            let n = ident(name);
            let v = typed(value, ty.as_deref());
            quote!(#n = #v;)
        }
        LaneStmt::Write { field, value, keep } => write(field, value, keep.as_ref()),
        LaneStmt::If {
            cond: c,
            then,
            otherwise,
        } => if_stmt(c, then, otherwise),
        LaneStmt::While { cond: c, body } => {
            let c = cond(c);
            let body: Vec<TokenStream> = body.iter().map(stmt).collect();
            quote!(while #c { #(#body)* })
        }
        LaneStmt::For {
            var,
            from,
            to,
            body,
            builds,
        } => for_stmt(var, from, to, body, builds.as_ref()),
        LaneStmt::SetBit { name, bit, value } => {
            let n = ident(name);
            let (bit, value) = (unparen(expr(bit)), unparen(expr(value)));
            quote!(#n = #n.with_bit(#bit, #value);)
        }
    }
}

/// `field[i] = value`, through a local when the value is kept or asks the machine (which
/// `l.write` borrows).
fn write(field: &str, value: &LaneExpr, keep: Option<&(String, bool, bool)>) -> TokenStream {
    let f = ident(field);
    let v = unparen(expr(value));
    match keep {
        Some((local, first, mutable)) => {
            let n = ident(local);
            let bind = match (first, mutable) {
                (true, true) => quote!(let mut #n = #v;),
                (true, false) => quote!(let #n = #v;),
                _ => quote!(#n = #v;),
            };
            quote!(#bind l.write(&inst.#f, i, #n)?;)
        }
        None if uses_machine(value) => quote! {
            let value = #v;
            l.write(&inst.#f, i, value)?;
        },
        None => quote!(l.write(&inst.#f, i, #v)?;),
    }
}

/// `if c { then } else { otherwise }`, an `else if` where the else branch is one `if`.
fn if_stmt(c: &LaneExpr, then: &[LaneStmt], otherwise: &[LaneStmt]) -> TokenStream {
    let c = cond(c);
    let then: Vec<TokenStream> = then.iter().map(stmt).collect();
    match otherwise {
        [] => quote!(if #c { #(#then)* }),
        [nested @ LaneStmt::If { .. }] => {
            let nested = stmt(nested);
            quote!(if #c { #(#then)* } else #nested)
        }
        _ => {
            let otherwise: Vec<TokenStream> = otherwise.iter().map(stmt).collect();
            quote!(if #c { #(#then)* } else { #(#otherwise)* })
        }
    }
}

/// `for var in from..to { body }`; a loop that builds an element bit by bit (`builds`: the
/// field and the local) starts the local at 0 and writes it after.
fn for_stmt(
    var: &str,
    from: &LaneExpr,
    to: &LaneExpr,
    body: &[LaneStmt],
    builds: Option<&(String, String)>,
) -> TokenStream {
    let v = ident(var);
    let (from, to) = (atom(from), atom(to));
    let body: Vec<TokenStream> = body.iter().map(stmt).collect();
    let the_loop = quote! {
        for #v in #from.as_i128()..#to.as_i128() {
            let #v = Value::Int(#v, DataType::D);
            #(#body)*
        }
    };
    match builds {
        None => the_loop,
        Some((field, local)) => {
            let (f, n) = (ident(field), ident(local));
            quote! {
                let mut #n = Value::literal(0);
                #the_loop
                let ty = l.element_type(&inst.#f, i)?;
                l.write(&inst.#f, i, Value::from_bits(#n.as_i128() as u64, ty))?;
            }
        }
    }
}

/// A value assigned to a local of type `ty` (the C conversion on assignment).
fn typed(value: &LaneExpr, ty: Option<&str>) -> TokenStream {
    match ty {
        Some(ty) => {
            let t = data_type(ty);
            let v = atom(value);
            quote!(#v.cast(#t))
        }
        None => unparen(expr(value)),
    }
}

#[cfg(test)]
mod tests {
    use crate::emit::Options;

    /// A made-up doc whose pseudo-code uses every construct a lane function takes: typed and
    /// untyped locals, `while`, `if`/`else if`/`else`, the ternary, a cast, `Pred[i]`, a field
    /// as operator, a named function, an operand class test, a read back of the destination.
    const LANEY: &str = "## Opcode

  LANEY = 0x70

## Format

| | | | | | | |
| --- | --- | --- | --- | --- | --- | --- |
| 0x70(LANEY) | Exec_size | Pred | Rel_op | Dst | Src0 | Src1 |

## Semantics

```
    for (i = 0; i < exec_size; ++i) {
      if (ChEn[i]) {
        UD cnt = 0;
        x = (UD) src0[i];
        while (x != 0 && cnt < 32) {
          cnt++;
          x = x >> 1;
        }
        dst[i] = floor(src1[i]) + 0.5f;
        if (dst is predicate) {
          dst[i] = src0[i] rel_op src1[i];
        } else if (Pred[i]) {
          dst[i] = dst[i] * -2;
        } else {
          dst[i] = cnt > 3 ? ~cnt : 1 << i;
        }
      }
    }
```

## Description

Made up.

- **Exec_size(ub):** Execution size
- **Pred(uw):** Predication control
- **Rel_op(ub):** Relational operator
  - Bit[2..0]: the operator
    - 0b000: EQ - equal to
    - 0b001: NE - not equal
- **Dst(vec_operand):** The destination operand. Operand class: general,predicate
- **Src0(vec_operand):** The first source operand. Operand class: general,immediate
- **Src1(vec_operand):** The second source operand. Operand class: general,immediate
";

    /// LANEY with its lane loop (from `for (i` to the end of the pseudo-code) replaced by `code`.
    fn laney_with(code: &str) -> String {
        let start = LANEY.find("for (i").unwrap();
        let end = start + LANEY[start..].find("\n```").unwrap();
        format!("{}{}{}", &LANEY[..start], code, &LANEY[end..])
    }

    /// LANEY's lane loop with `body` (whole lines) as what runs in each enabled lane.
    fn guarded(body: &str) -> String {
        format!("for (i = 0; i < exec_size; ++i) {{\n      if (ChEn[i]) {{\n{body}      }}\n    }}")
    }

    fn render(doc: &str) -> (String, Vec<crate::diag::Diagnostic>) {
        let analysed = crate::testing::doc("LANEY.md", doc);
        let (model, mut diags) = (analysed.model, analysed.analysed);
        diags.extend(analysed.parsed);
        let files = super::super::jobs(&model, &Options::default())
            .into_iter()
            .filter(|j| j.path == "src/generated/semantics.rs")
            .map(|j| j.render(&crate::timings::Timings::off()))
            .collect::<Vec<_>>();
        (files.concat(), diags)
    }

    #[test]
    fn a_lane_function_as_reviewed() {
        let (text, diags) = render(LANEY);
        let ours: Vec<_> = diags
            .iter()
            .filter(|d| d.code.starts_with("V014"))
            .collect();
        assert!(ours.is_empty(), "{ours:?}");
        insta::assert_snapshot!("laney_semantics", text);
    }

    #[test]
    fn what_cannot_run_goes_to_prose_with_a_warning() {
        // SAD2's shape: another lane.
        let doc = LANEY.replace("dst[i] = cnt > 3 ? ~cnt : 1 << i;", "dst[i+1] = src0[i+1];");
        let (text, diags) = render(&doc);
        let d: Vec<_> = diags.iter().filter(|d| d.code == "V0141").collect();
        assert_eq!(d.len(), 1, "{diags:?}");
        assert_eq!((d[0].line, d[0].column), (28, 11));
        assert!(
            d[0].message.contains("another lane than `i`"),
            "{}",
            d[0].message
        );
        assert!(!text.contains("pub fn laney"), "{text}");
        assert!(text.contains("fn laney(&mut self, _inst: &super::Laney) -> Self::Output {\n        self.lanes.prose(self.inst)"), "{text}");
        // A step other than 1 (every lane) or 2 (SAD2's pairs).
        let doc = LANEY.replace("++i) {", "i += 3) {");
        let (_, diags) = render(&doc);
        assert!(
            diags
                .iter()
                .any(|d| d.code == "V0141" && d.message.contains("does not step `++i`")),
            "{diags:?}"
        );
    }

    /// SETP's shape (lanes that test `ChEn[i]` themselves, a scalar operand) and SAD2's
    /// (pairs of lanes, the other lane of a pair, `undefined`).
    #[test]
    fn guards_inside_the_lane_and_pairs_of_lanes_run() {
        let body = "for (i = 0; i < exec_size; ++i) {
      if (ChEn[i]) {
        UD cnt = 0;
        x = (UD) src0[i];
        while (x != 0 && cnt < 32) {
          cnt++;
          x = x >> 1;
        }
        dst[i] = floor(src1[i]) + 0.5f;
        if (dst is predicate) {
          dst[i] = src0[i] rel_op src1[i];
        } else if (Pred[i]) {
          dst[i] = dst[i] * -2;
        } else {
          dst[i] = cnt > 3 ? ~cnt : 1 << i;
        }
      }
    }";
        assert_eq!(laney_with(body), LANEY);
        let setp = laney_with(
            "for (i = 0; i < exec_size; ++i) {
      if (src0 is scalar) {
        dst[i] = (src0 >> i) & 1;
      } else {
        if (ChEn[i]) {
          dst[i] = src0[i] & 1;
        }
      }
    }",
        );
        let (text, diags) = render(&setp);
        assert!(
            !diags.iter().any(|d| d.code.starts_with("V014")),
            "{diags:?}"
        );
        assert!(
            text.contains("for i in 0..lanes {\n        if inst.src0.is_scalar() {"),
            "{text}"
        );
        assert!(
            text.contains("(l.read(&inst.src0, 0)? >> Value::lane(i)) & Value::literal(1)"),
            "{text}"
        );
        assert!(text.contains("} else if l.enabled(i) {"), "{text}");
        let sad2 = laney_with(
            "for (i = 0; i < exec_size; i += 2) {
      if (ChEn[i]) {
        dst[i] = src0[i] + src0[i+1];
        dst[i+1] = undefined;
      }
    }",
        );
        let (text, diags) = render(&sad2);
        assert!(
            !diags.iter().any(|d| d.code.starts_with("V014")),
            "{diags:?}"
        );
        assert!(text.contains("for i in (0..lanes).step_by(2) {"), "{text}");
        assert!(
            text.contains(
                "l.read(&inst.src0, (Value::lane(i) + Value::literal(1)).as_i128() as u32)?"
            ),
            "{text}"
        );
        assert_eq!(text.matches("l.write(").count(), 1, "{text}");
        // No lane guard at all: which lanes run is not said.
        let (_, diags) = render(&laney_with(
            "for (i = 0; i < exec_size; ++i) {
      dst[i] = src0[i];
    }",
        ));
        assert!(
            diags
                .iter()
                .any(|d| d.code == "V0141" && d.message.contains("tests neither `ChEn[i]`")),
            "{diags:?}"
        );
    }

    /// The common shape (element writes of source expressions, under tests of operand classes)
    /// is generated over whole operands: each source read once for every lane before any
    /// write, each destination written once; other shapes stay lane by lane.
    #[test]
    fn the_common_shape_runs_over_whole_operands() {
        let body = |code: &str| laney_with(&guarded(code));
        let doc = body(
            "        if (dst is predicate) {
          dst[i] = src0[i] rel_op src1[i];
        } else {
          dst[i] = Pred[i] ? src1[i] + i : -src0[i];
        }
",
        );
        let (text, diags) = render(&doc);
        assert!(
            !diags.iter().any(|d| d.code.starts_with("V014")),
            "{diags:?}"
        );
        let f = &text[text.find("pub fn laney").unwrap()..];
        let f = &f[..f.find("\n}\n").unwrap()];
        for line in [
            "let chen = l.enabled_lanes(lanes);",
            "l.read_lanes(&inst.src0, chen, &mut src0_lanes[..n])?;",
            "l.read_lanes(&inst.src1, chen, &mut src1_lanes[..n])?;",
            "if inst.dst.class() == OperandClass::Predicate {",
            "if chen >> i & 1 == 0 {",
            "let src0 = src0_lanes[k];",
            "Value::Int(i128::from(inst.rel_op.to_raw()), DataType::Ud),\n                    src0,\n                    src1,",
            "dst_lanes[k] = if l.predicate(i) { src1 + Value::lane(i) } else { -src0 };",
            "l.write_lanes(&inst.dst, chen, &dst_lanes[..n])?;",
        ] {
            assert!(f.contains(line), "{line}\n{f}");
        }
        // Every source is read before the first write.
        assert!(
            f.rfind("read_lanes").unwrap() < f.find("write_lanes").unwrap(),
            "{f}"
        );
        assert!(!f.contains("l.read(") && !f.contains("l.write("), "{f}");
        // A lane that reads its destination back, a local, a class test per lane: lane by lane.
        for code in [
            "        dst[i] = src0[i];\n        dst[i] = dst[i] + 1;\n",
            "        x = src0[i];\n        dst[i] = x;\n",
            "        if (src0[i] > 0) {\n          dst[i] = src1[i];\n        }\n",
            "        dst[i] = sizeof(src0);\n",
        ] {
            let (text, _) = render(&body(code));
            let f = &text[text.find("pub fn laney").unwrap()..];
            assert!(
                f.contains("if !l.enabled(i) {") && !f.contains("read_lanes"),
                "{code}\n{f}"
            );
        }
    }

    /// Bits of elements: a bit range, `sizeof`, and an element built bit by bit in a counted
    /// loop over `CHANNEL_SIZE_IN_BITS` (`.chan[i]` is element `i`).
    #[test]
    fn bits_of_elements_run() {
        let doc = laney_with(&guarded(
            "        m = sizeof(src0) * 8 - 1;
        for (k = 0; k < CHANNEL_SIZE_IN_BITS; k++) {
          dst.chan[i][k] = (src0.chan[i][k] + src1[i][15:8]) & m;
        }
",
        ));
        let (text, diags) = render(&doc);
        let ours: Vec<_> = diags
            .iter()
            .filter(|d| d.code.starts_with("V014"))
            .collect();
        assert!(ours.is_empty(), "{ours:?}\n{doc}");
        for line in [
            "let m = (Value::literal(l.element_type(&inst.src0, i)?.size() as u64)",
            "let mut dst_bits = Value::literal(0);",
            "for k in Value::literal(0)",
            "Value::literal(8 * l.element_type(&inst.dst, i)?.size() as u64)",
            "let k = Value::Int(k, DataType::D);",
            "dst_bits = dst_bits",
            ".with_bit(",
            "l.read(&inst.src0, i)?.bit(k)",
            "l.read(&inst.src1, i)?.bits(15, 8)",
            "let ty = l.element_type(&inst.dst, i)?;",
            "l.write(&inst.dst, i, Value::from_bits(dst_bits.as_i128() as u64, ty))?;",
        ] {
            assert!(text.contains(line), "{line}\n{text}");
        }
        // Assigned whole before the loop (CMP's predicate case assigns it whole in another
        // branch): the loop's element, written after it, is the one that stays.
        let both = doc.replace("        for (k", "        dst[i] = 1;\n        for (k");
        let (text, diags) = render(&both);
        assert!(!diags.iter().any(|d| d.code == "V0141"), "{diags:?}");
        let (whole, bits) = (
            text.find("l.write(&inst.dst, i, Value::literal(1))?;")
                .unwrap(),
            text.find("Value::from_bits(dst_bits").unwrap(),
        );
        assert!(whole < bits, "{text}");
        // A bit set outside a counted loop.
        let (_, diags) = render(&doc.replace("        for (k = 0; k < CHANNEL_SIZE_IN_BITS; k++) {\n          dst.chan[i][k] = (src0.chan[i][k] + src1[i][15:8]) & m;\n        }", "        dst.chan[i][3] = 1;"));
        assert!(
            diags
                .iter()
                .any(|d| d.code == "V0141" && d.message.contains("outside a counted loop")),
            "{diags:?}"
        );
        // A range with bounds that are not numbers.
        let (_, diags) = render(&doc.replace("[15:8]", "[k:8]"));
        assert!(
            diags
                .iter()
                .any(|d| d.code == "V0141" && d.message.contains("bounds are no numbers")),
            "{diags:?}"
        );
    }
}
