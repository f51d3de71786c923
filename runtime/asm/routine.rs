//! One routine's text → its object: ids given out (general variables V32.. in declaration
//! order, predicates P1.., addresses and samplers from 0, surfaces from T6, labels in order of
//! first mention, which is Intel's: `_main` 0, `_0_004` 1 when a `goto` names it before
//! `_0_005:` is defined), the string pool (see [`super::pool`]), then each instruction line
//! parsed with [`crate::parse_instruction`].

use super::directives::Errors;
use super::names::{AsmNames, Declared, Kind, LineNames};
use super::pool::{first_mentions, strip_label_suffix, Named, Pool, LATE_KERNEL_ATTRIBUTES};
use super::syntax::{Body, RoutineKind, RoutineText, Span};
use super::tables::{pool_name_of_indexed, PREDEFINED_SAMPLER_NAME};
use crate::object::{
    AddressInfo, AttributeInfo, InputInfo, InstructionStream, LabelInfo, PredicateInfo,
    RoutineTextOnly, SurfaceInfo, VarInfo,
};
use crate::runtime::text::{
    predefined_general_count, Names, PREDEFINED_GENERAL, PREDEFINED_SURFACES,
};
use crate::Instruction;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// What kernels and functions share, before they become `KernelData`/`FunctionData`.
#[derive(Default)]
pub struct Parts {
    pub string_pool: Vec<Vec<u8>>,
    pub var_info: Vec<VarInfo>,
    pub address_info: Vec<AddressInfo>,
    pub predicate_info: Vec<PredicateInfo>,
    pub label_info: Vec<LabelInfo>,
    pub sampler_info: Vec<SurfaceInfo>,
    pub surface_info: Vec<SurfaceInfo>,
    pub input_info: Vec<InputInfo>,
    pub attribute_info: Vec<AttributeInfo>,
    pub instructions: InstructionStream,
    /// What the instruction lines held that the instructions cannot (no trailer:
    /// `super::trailer` reads that).
    pub text: RoutineTextOnly,
}

/// A label definition of the body.
struct LabelDef<'a> {
    printed: &'a str,
    subroutine: bool,
}

fn id16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// Builds one routine; `instructions` false skips instruction lines (labels stay).
pub fn build(
    r: &RoutineText<'_>,
    instructions: bool,
    grf: Option<u32>,
    errors: &mut Errors<'_>,
) -> Parts {
    let decls = r.generals.len()
        + r.predicates.len()
        + r.addresses.len()
        + r.samplers.len()
        + r.surfaces.len();
    let mut names = AsmNames::with_capacity(decls + r.body.len() / 8);
    names.set_version(r.version);
    declare_variables(r, grf, &mut names, errors);
    // Labels: definitions, then ids in order of first mention.
    let defs = label_defs(r, &mut names, errors);
    let (symbols, line_symbols) = line_strings(r, instructions, &names);
    // IGC builds a call after the variables of its result, which the next line names (and
    // the unnamed ones after them, see the pool loop): a line's strings are mentioned after
    // the next line's names. recursion_stackcalls.isa, kernel: `... V0087 V0088 V0089 rec
    // V0090`, where `fcall (M1, 8) rec 1 1` is followed by `mov (M1, 8) V0088(0,0)<1> ...` and
    // V0089 is never named; function `rec`: `V0053 V0054 V0055 rec V0056`, alike.
    let codes = r.body.iter().map(|b| match b {
        Body::Label { name, .. } => *name,
        Body::Instruction(l) => l.code,
    });
    let strings_before = core::iter::once(&[][..]).chain(line_symbols.iter().map(Vec::as_slice));
    let body_codes = codes.chain(core::iter::once("")).zip(strings_before);
    let counts = [
        r.generals.len(),
        r.predicates.len(),
        r.addresses.len(),
        defs.len(),
        symbols.len(),
    ];
    let mentions = first_mentions(body_codes, |t| names.get(t)?.named(), counts);
    let label_order: Vec<usize> = mentions
        .iter()
        .filter_map(|m| match m {
            Named::Label(i) => Some(*i),
            _ => None,
        })
        .collect();
    let def_names: Vec<&str> = defs.iter().map(|d| d.printed).collect();
    names.set_labels(&label_order, &def_names);
    let mut p = pooled(r, &defs, &names, &mentions, &symbols);
    let var_info = var_info(r, &names, &mut p, errors);
    let predicate_info = r
        .predicates
        .iter()
        .zip(&p.predicates)
        .map(|(d, p)| PredicateInfo {
            name_index: p.unwrap_or(0),
            num_elements: d.num_elts,
            attribute_info: attrs_placed(&d.attrs),
        })
        .collect();
    let address_info = r
        .addresses
        .iter()
        .zip(&p.addresses)
        .map(|(d, p)| AddressInfo {
            name_index: p.unwrap_or(0),
            num_elements: d.num_elts,
            attribute_info: attrs_placed(&d.attrs),
        })
        .collect();
    let label_info = label_order
        .iter()
        .map(|&def| LabelInfo {
            name_index: p.labels[def].unwrap_or(0),
            kind: u8::from(defs[def].subroutine),
            attribute_info: Vec::new(),
        })
        .collect();
    let input_info = inputs(r, &names, errors);
    let (stream, mut text) =
        body_stream(r, instructions, &names, (&line_symbols, &p.symbols), errors);
    text.declared_types = r
        .generals
        .iter()
        .enumerate()
        .filter_map(|(i, g)| Some((i, g.text_only_type?)))
        .collect();
    Parts {
        string_pool: p.pool.strings,
        var_info,
        address_info,
        predicate_info,
        label_info,
        sampler_info: p.sampler_info,
        surface_info: p.surface_info,
        input_info,
        attribute_info: p.attribute_info,
        instructions: InstructionStream::from_instructions(stream),
        text,
    }
}

/// Declares the routine's variables; declared names share one namespace with each other and
/// the predefined names.
fn declare_variables<'a>(
    r: &RoutineText<'a>,
    grf: Option<u32>,
    names: &mut AsmNames<'a>,
    errors: &mut Errors<'_>,
) {
    for (i, g) in r.generals.iter().enumerate() {
        let before = names.declare(Kind::General, g.name, i);
        check_new(&before, g.name, g.span, errors);
    }
    let general_bytes = r
        .generals
        .iter()
        .map(|g| {
            crate::runtime::DataType::try_from(g.ty)
                .map_or(0, |t| u32::try_from(t.size()).unwrap_or(0))
        })
        .collect();
    names.set_sizes(general_bytes, grf);
    for (kind, list) in [
        (Kind::Predicate, &r.predicates),
        (Kind::Address, &r.addresses),
        (Kind::Sampler, &r.samplers),
        (Kind::Surface, &r.surfaces),
    ] {
        for (i, d) in list.iter().enumerate() {
            let before = names.declare(kind, d.name, i);
            check_new(&before, d.name, d.span, errors);
        }
    }
}

/// The body's label definitions, declared in order; one defined twice is an error.
fn label_defs<'a>(
    r: &RoutineText<'a>,
    names: &mut AsmNames<'a>,
    errors: &mut Errors<'_>,
) -> Vec<LabelDef<'a>> {
    let mut defs: Vec<LabelDef<'_>> = Vec::new();
    for b in &r.body {
        if let Body::Label {
            name,
            subroutine,
            span,
        } = b
        {
            if names.get(name).and_then(Declared::label_def).is_some() {
                errors.at(
                    *span,
                    format!("label `{name}` is defined twice"),
                    "a second definition".to_string(),
                );
                continue;
            }
            names.declare(Kind::Label, name, defs.len());
            defs.push(LabelDef {
                printed: name,
                subroutine: *subroutine,
            });
        }
    }
    defs
}

/// Strings the instruction lines name (FCALL's callee), found by parsing each line once
/// before the pool exists (labels are not declared yet: no line naming a string names one):
/// the strings, and per body line the indices of its own.
fn line_strings(
    r: &RoutineText<'_>,
    instructions: bool,
    names: &AsmNames<'_>,
) -> (Vec<String>, Vec<Vec<usize>>) {
    let mut symbols: Vec<String> = Vec::new();
    let line_symbols: Vec<Vec<usize>> = r
        .body
        .iter()
        .map(|b| match b {
            Body::Instruction(line) if instructions && names_a_string(line.code, names) => {
                let ln = LineNames {
                    names,
                    asked: core::cell::RefCell::new(Vec::new()),
                    indices: None,
                };
                if let Ok(cut) = super::text_only::cut(line.code, &ln) {
                    let _ = crate::parse_instruction(&cut.code, &ln);
                }
                ln.asked
                    .into_inner()
                    .into_iter()
                    .map(|s| {
                        symbols.push(s);
                        symbols.len() - 1
                    })
                    .collect()
            }
            _ => Vec::new(),
        })
        .collect();
    (symbols, line_symbols)
}

/// The string pool and where each name is in it.
struct Pooled {
    pool: Pool,
    attribute_info: Vec<AttributeInfo>,
    generals: Vec<Option<u32>>,
    general_attrs: Vec<Vec<AttributeInfo>>,
    predicates: Vec<Option<u32>>,
    addresses: Vec<Option<u32>>,
    labels: Vec<Option<u32>>,
    symbols: Vec<u32>,
    surface_info: Vec<SurfaceInfo>,
    sampler_info: Vec<SurfaceInfo>,
}

/// The string pool in Intel's order: the routine's name, the predefined names, the early
/// attributes, the state variables, then names in order of first mention, the rest, and the
/// late attributes.
fn pooled(
    r: &RoutineText<'_>,
    defs: &[LabelDef<'_>],
    names: &AsmNames<'_>,
    mentions: &[Named],
    symbols: &[String],
) -> Pooled {
    let label_id = |def: usize| names.label_of_def(def).map_or(0, |id| id as usize);
    let label_pool_name = |i: usize| -> String {
        if defs[i].subroutine {
            strip_label_suffix(defs[i].printed, label_id(i))
        } else {
            defs[i].printed.to_string()
        }
    };
    let mut p = Pooled::start(r, defs.len(), symbols.len());
    // A routine that starts with its subroutine label names it before its state variables.
    let mut mentions = mentions;
    if let (
        Some(Named::Label(i)),
        Some(Body::Label {
            subroutine: true, ..
        }),
    ) = (mentions.first(), r.body.first())
    {
        p.labels[*i] = Some(p.pool.add(&label_pool_name(*i)));
        mentions = &mentions[1..];
    }
    p.surface_info = state_pool(&r.surfaces, &mut p.pool);
    p.sampler_info = state_pool(&r.samplers, &mut p.pool);
    let mut named = alloc::vec![false; r.generals.len()];
    for m in mentions {
        if let Named::General(i) = m {
            if let Some(n) = named.get_mut(*i) {
                *n = true;
            }
        }
    }
    let mut next_g = 0usize;
    for m in mentions {
        if let Named::Symbol(_) = m {
            // The variables IGC creates for a call and the text never names come first.
            let mut last = next_g;
            while last < r.generals.len() && !named.get(last).copied().unwrap_or(false) {
                last += 1;
            }
            if last > next_g {
                p.generals_to(r, last - 1, &mut next_g);
            }
        }
        match *m {
            Named::General(i) => p.generals_to(r, i, &mut next_g),
            Named::Predicate(i) => p.predicates[i] = Some(p.pool.add(&predicate_pool_name(r, i))),
            Named::Address(i) => p.addresses[i] = Some(p.pool.add(&address_pool_name(r, i))),
            Named::Label(i) => p.labels[i] = Some(p.pool.add(&label_pool_name(i))),
            Named::Symbol(n) => p.symbols[n] = p.pool.add(&symbols[n]),
        }
    }
    p.generals_to(r, usize::MAX, &mut next_g);
    p.unmentioned(r, &label_pool_name);
    p
}

/// Whether attribute `name` comes after the names in the pool: every attribute of a
/// function, the late ones of a kernel.
fn late_attribute(r: &RoutineText<'_>, name: &str) -> bool {
    r.kind == RoutineKind::Function || LATE_KERNEL_ATTRIBUTES.contains(&name)
}

/// The state variables' declarations, their names added to the pool.
fn state_pool(decls: &[super::syntax::OtherDecl<'_>], pool: &mut Pool) -> Vec<SurfaceInfo> {
    decls
        .iter()
        .map(|d| SurfaceInfo {
            name_index: pool.add(d.v_name.unwrap_or(d.name)),
            num_elements: d.num_elts,
            attribute_info: attrs(&d.attrs, pool),
        })
        .collect()
}

impl Pooled {
    /// The pool with the routine's name, the predefined names and the early attributes; no
    /// variable, label or string placed yet.
    fn start(r: &RoutineText<'_>, labels: usize, symbols: usize) -> Pooled {
        let mut pool = Pool::default();
        pool.add(&r.name);
        // The names Intel's reader of that version places first (21 before 4.2, then 22).
        let (major, minor) = r.version.unwrap_or((4, 1));
        let general = predefined_general_count(major, minor);
        for n in PREDEFINED_GENERAL[..general]
            .iter()
            .chain(PREDEFINED_SURFACES.iter())
        {
            pool.add(n);
        }
        pool.add(PREDEFINED_SAMPLER_NAME);
        let mut attribute_info = alloc::vec![AttributeInfo::default(); r.attributes.len()];
        for (a, (name, value)) in attribute_info.iter_mut().zip(&r.attributes) {
            if !late_attribute(r, name) {
                *a = AttributeInfo {
                    name: pool.add(name),
                    value: value.clone(),
                };
            }
        }
        Pooled {
            pool,
            attribute_info,
            generals: alloc::vec![None; r.generals.len()],
            general_attrs: alloc::vec![Vec::new(); r.generals.len()],
            predicates: alloc::vec![None; r.predicates.len()],
            addresses: alloc::vec![None; r.addresses.len()],
            labels: alloc::vec![None; labels],
            symbols: alloc::vec![0u32; symbols],
            surface_info: Vec::new(),
            sampler_info: Vec::new(),
        }
    }

    /// Adds the general variables from `*next` up to `last` (in declaration order).
    fn generals_to(&mut self, r: &RoutineText<'_>, last: usize, next: &mut usize) {
        while *next <= last && *next < r.generals.len() {
            let g = &r.generals[*next];
            self.generals[*next] = Some(self.pool.add(g.name));
            self.general_attrs[*next] = attrs(&g.attrs, &mut self.pool);
            *next += 1;
        }
    }

    /// Adds the predicates, addresses and labels no line names, then the late attributes.
    fn unmentioned(&mut self, r: &RoutineText<'_>, label_pool_name: &dyn Fn(usize) -> String) {
        let pool = &mut self.pool;
        for (i, p) in self.predicates.iter_mut().enumerate() {
            p.get_or_insert_with(|| pool.add(&predicate_pool_name(r, i)));
        }
        for (i, a) in self.addresses.iter_mut().enumerate() {
            a.get_or_insert_with(|| pool.add(&address_pool_name(r, i)));
        }
        for (i, l) in self.labels.iter_mut().enumerate() {
            l.get_or_insert_with(|| pool.add(&label_pool_name(i)));
        }
        for (a, (name, value)) in self.attribute_info.iter_mut().zip(&r.attributes) {
            if late_attribute(r, name) {
                *a = AttributeInfo {
                    name: pool.add(name),
                    value: value.clone(),
                };
            }
        }
    }
}

/// The general variables' declarations (their attributes taken from `p`); an alias of an
/// undeclared variable is an error.
fn var_info(
    r: &RoutineText<'_>,
    names: &AsmNames<'_>,
    p: &mut Pooled,
    errors: &mut Errors<'_>,
) -> Vec<VarInfo> {
    let mut var_info = Vec::new();
    for (i, g) in r.generals.iter().enumerate() {
        let (alias_index, alias_offset) = match g.alias {
            None => (0, 0),
            Some((base, off, span)) => match names.general_id(base) {
                Some(id) => (id, off),
                None => {
                    errors.at(
                        span,
                        format!("expected a declared general variable, found `{base}`"),
                        "not declared".to_string(),
                    );
                    (0, 0)
                }
            },
        };
        var_info.push(VarInfo {
            name_index: p.generals[i].unwrap_or(0),
            bit_properties: g.ty | (g.align << 4),
            num_elements: g.num_elts,
            alias_index,
            alias_offset,
            alias_scope_specifier: 0,
            attribute_info: core::mem::take(&mut p.general_attrs[i]),
        });
    }
    var_info
}

/// The body's instructions: labels as LABEL/SUBROUTINE, each instruction line parsed with
/// the pool indices of the strings it names (`line_symbols` per line into `symbol_index`),
/// what it holds beside its instruction taken out ([`super::text_only`]); `instructions`
/// false skips instruction lines.
fn body_stream(
    r: &RoutineText<'_>,
    instructions: bool,
    names: &AsmNames<'_>,
    (line_symbols, symbol_index): (&[Vec<usize>], &[u32]),
    errors: &mut Errors<'_>,
) -> (Vec<Instruction>, RoutineTextOnly) {
    let label_id = |def: usize| names.label_of_def(def).map_or(0, |id| id as usize);
    let mut stream = Vec::with_capacity(r.body.len());
    let mut text = RoutineTextOnly::default();
    for (b, syms) in r.body.iter().zip(line_symbols) {
        match b {
            Body::Label {
                name,
                subroutine,
                span,
            } => {
                let Some(def) = names.get(name).and_then(Declared::label_def) else {
                    continue;
                };
                let opcode = if *subroutine { 0x30 } else { 0x31 };
                match label_instruction(opcode, label_id(def)) {
                    Some(inst) => stream.push(inst),
                    None => errors.at(
                        *span,
                        "expected an instruction this crate knows: it was generated without LABEL or SUBROUTINE".to_string(),
                        String::new(),
                    ),
                }
            }
            Body::Instruction(_) if !instructions => {}
            Body::Instruction(line) => {
                let indices: Vec<u32> = syms.iter().map(|n| symbol_index[*n]).collect();
                let ln = LineNames {
                    names,
                    asked: core::cell::RefCell::new(Vec::new()),
                    indices: Some(&indices),
                };
                let cut = match super::text_only::cut(line.code, &ln) {
                    Ok(cut) => cut,
                    Err(e) => {
                        errors.parse(*line, &e);
                        continue;
                    }
                };
                match crate::parse_instruction(&cut.code, &ln) {
                    Ok(inst) => {
                        cut.parts.keep(stream.len(), &mut text);
                        stream.push(inst);
                    }
                    Err(e) => errors.parse(*line, &cut.error(e)),
                }
            }
        }
    }
    (stream, text)
}

/// Reports `name` declared again: `before` is what it declared until now.
fn check_new(before: &Declared, name: &str, span: Span<'_>, errors: &mut Errors<'_>) {
    if before.is_declared()
        || (name.starts_with(['%', 'T'])
            && (PREDEFINED_GENERAL.contains(&name) || PREDEFINED_SURFACES.contains(&name)))
    {
        errors.at(
            span,
            format!("expected a new name, found `{name}`, declared before"),
            "declared twice".to_string(),
        );
    }
}

fn predicate_pool_name(r: &RoutineText<'_>, i: usize) -> String {
    let d = &r.predicates[i];
    d.v_name
        .map(str::to_string)
        .or_else(|| pool_name_of_indexed('P', d.name))
        .unwrap_or_else(|| d.name.to_string())
}

fn address_pool_name(r: &RoutineText<'_>, i: usize) -> String {
    let d = &r.addresses[i];
    d.v_name
        .map(str::to_string)
        .or_else(|| pool_name_of_indexed('A', d.name))
        .unwrap_or_else(|| d.name.to_string())
}

fn attrs(list: &[(String, Vec<u8>)], pool: &mut Pool) -> Vec<AttributeInfo> {
    list.iter()
        .map(|(n, v)| AttributeInfo {
            name: pool.add(n),
            value: v.clone(),
        })
        .collect()
}

/// Predicate and address attributes are rare enough (none in Intel's output) that their
/// names are not placed in the pool; none is accepted.
fn attrs_placed(_list: &[(String, Vec<u8>)]) -> Vec<AttributeInfo> {
    Vec::new()
}

/// LABEL (0x31) or SUBROUTINE (0x30) with a UW label id, through the decoder so this works in
/// any crate generated from a doc set that has them.
fn label_instruction(opcode: u8, id: usize) -> Option<Instruction> {
    let [lo, hi] = id16(id).to_le_bytes();
    crate::decode(&[opcode, lo, hi])
        .ok()
        .filter(|(_, used)| *used == 3)
        .map(|(inst, _)| inst)
}

fn inputs(r: &RoutineText<'_>, names: &AsmNames<'_>, errors: &mut Errors<'_>) -> Vec<InputInfo> {
    let mut out = Vec::new();
    for inp in &r.inputs {
        if r.kind == RoutineKind::Function {
            errors.at(
                inp.span,
                "expected no inputs in a function: only kernels have them".to_string(),
                "an input".to_string(),
            );
            continue;
        }
        let found = names
            .general_id(inp.name)
            .map(|id| (0u8, id))
            .or_else(|| names.get(inp.name)?.sampler_id().map(|i| (1, i)))
            .or_else(|| names.surface_id(inp.name).map(|i| (2, u32::from(i))));
        let Some((class, id)) = found else {
            errors.at(
                inp.span,
                format!(
                    "expected a declared variable, sampler or surface, found `{}`",
                    inp.name
                ),
                "not declared".to_string(),
            );
            continue;
        };
        out.push(InputInfo {
            kind: ((inp.provenance << 3) | class) as i8,
            id,
            offset: inp.offset,
            size: inp.size,
        });
    }
    out
}

/// Whether a line's mnemonic is one whose form names a string of the pool: only those lines
/// are parsed before the pool is built.
fn names_a_string(code: &str, names: &dyn crate::runtime::text::Names) -> bool {
    let mut c = crate::runtime::text::Cursor::new(code);
    if crate::runtime::text::parse_predicate_prefix(&mut c, names).is_err() {
        return true;
    }
    let words = crate::runtime::text::instruction::Words::read(&mut c);
    crate::generated::text::SYMBOL_MNEMONICS.contains(&words.base)
}
