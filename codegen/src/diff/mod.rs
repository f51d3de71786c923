//! What changed between two doc sets, for the generated crate's users: compares the views
//! ([`view::Api`]) of two analysed models, doc by doc, and says of each change whether it
//! breaks users: code that compiled may no longer compile (a removed or renamed item, a new
//! field or variant, a new required `Execute` method, a changed type) or the same bytes or text
//! now mean something else (a moved field, a changed opcode or template), or are now rejected
//! (a tightened validation rule). Prose alone (wording) never breaks.

pub mod view;

use crate::analyze::platform;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use view::{Api, FieldApi, InstApi, MemberApi, RecordApi, RecordFieldApi, ValueApi, VariantApi};

/// Where regen keeps the view of what it generated, beside the output, to compare the next
/// regen with.
pub const SNAPSHOT: &str = "docs/api-snapshot.txt";

/// The doc name of changes to the crate as a whole (the `Platform` enum).
pub const CRATE: &str = "(crate)";

/// One change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The file stem of the doc (`OWORD_ST`, `4_visa_header`), or [`CRATE`].
    pub doc: String,
    /// One line: what changed.
    pub what: String,
    pub breaking: bool,
    /// `instruction`, `field`, `value`, `platforms`, `text`, `validation`, `record`, `wording`.
    pub kind: &'static str,
}

/// Every change, by doc; within a doc breaking changes first, then in the order found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub breaking: bool,
    pub changes: Vec<Change>,
}

/// Compares two views.
pub fn compare(old: &Api, new: &Api) -> Report {
    let mut out = Out {
        doc: CRATE.into(),
        changes: Vec::new(),
    };
    let (gone, added) = set_diff(&old.platforms, &new.platforms);
    for p in gone {
        out.push(
            "platforms",
            true,
            format!("platform `{p}` removed (variant `Platform::{p}`)"),
        );
    }
    // `Platform` is `#[non_exhaustive]`: Intel ships generations, and docs and errata name them.
    for p in added {
        out.push(
            "platforms",
            false,
            format!("platform `{p}` added (variant `Platform::{p}`)"),
        );
    }
    let stems: BTreeSet<&String> = old.docs.keys().chain(new.docs.keys()).collect();
    for stem in stems {
        out.doc = stem.clone();
        let empty = view::DocApi::default();
        let o = old.docs.get(stem).unwrap_or(&empty);
        let n = new.docs.get(stem).unwrap_or(&empty);
        instructions(&mut out, &o.instructions, &n.instructions);
        records(&mut out, &o.records, &n.records);
    }
    let mut changes = out.changes;
    // Stable: docs in name order (the crate first), breaking first within a doc.
    changes.sort_by(|a, b| {
        (a.doc != CRATE, &a.doc, !a.breaking).cmp(&(b.doc != CRATE, &b.doc, !b.breaking))
    });
    Report {
        breaking: changes.iter().any(|c| c.breaking),
        changes,
    }
}

struct Out {
    doc: String,
    changes: Vec<Change>,
}

impl Out {
    fn push(&mut self, kind: &'static str, breaking: bool, what: String) {
        self.changes.push(Change {
            doc: self.doc.clone(),
            what,
            breaking,
            kind,
        });
    }
}

/// Items of `old` not in `new`, and of `new` not in `old`, each in its list's order.
fn set_diff<'a, T: PartialEq>(old: &'a [T], new: &'a [T]) -> (Vec<&'a T>, Vec<&'a T>) {
    (
        old.iter().filter(|x| !new.contains(x)).collect(),
        new.iter().filter(|x| !old.contains(x)).collect(),
    )
}

fn instructions(out: &mut Out, old: &[InstApi], new: &[InstApi]) {
    // One instruction per doc on both sides: the same instruction, whatever its name.
    if old.len() == 1 && new.len() == 1 {
        return instruction(out, &old[0], &new[0]);
    }
    for o in old {
        match new.iter().find(|n| n.name == o.name) {
            Some(n) => instruction(out, o, n),
            None => out.push(
                "instruction",
                true,
                format!(
                    "instruction `{}` removed (`{}`, `Execute::{}`)",
                    o.name, o.rust, o.execute
                ),
            ),
        }
    }
    for n in new.iter().filter(|n| !old.iter().any(|o| o.name == n.name)) {
        out.push(
            "instruction",
            true,
            format!(
                "instruction `{}` added (opcode {:#04x}): new required method `Execute::{}`, new variants `Instruction::{}` and `Opcode::{}`",
                n.name, n.opcode, n.execute, n.rust, n.opcode_rust
            ),
        );
    }
}

fn instruction(out: &mut Out, o: &InstApi, n: &InstApi) {
    identity(out, o, n);
    platforms(
        out,
        &format!("instruction `{}`", n.name),
        &o.platforms,
        &n.platforms,
    );
    fields(out, o, n);
    variants(out, o, n);
    if o.type_maps != n.type_maps {
        // No map allows every type; fewer types in the maps reject more.
        let all = |m: &[(String, Vec<String>)]| -> BTreeSet<String> {
            m.iter().flat_map(|(_, t)| t.iter().cloned()).collect()
        };
        let lost = !n.type_maps.is_empty()
            && (o.type_maps.is_empty() || !all(&o.type_maps).is_subset(&all(&n.type_maps)));
        out.push(
            "validation",
            lost,
            format!(
                "operand type maps: {} → {}",
                type_maps(&o.type_maps),
                type_maps(&n.type_maps)
            ),
        );
    }
    text(out, o, n);
    let reworded: Vec<&str> = o
        .wording
        .iter()
        .filter(|(k, v)| n.wording.get(*k) != Some(v) && k.as_str() != "text section")
        .map(|(k, _)| k.as_str())
        .collect();
    if !reworded.is_empty() {
        out.push(
            "wording",
            false,
            format!("wording of the {}", reworded.join(", ")),
        );
    }
}

/// What names and places the instruction: its names, opcode and alias.
fn identity(out: &mut Out, o: &InstApi, n: &InstApi) {
    if o.rust != n.rust || o.execute != n.execute {
        out.push(
            "instruction",
            true,
            format!(
                "instruction renamed: `{}` → `{}` (`Execute::{}` → `Execute::{}`)",
                o.rust, n.rust, o.execute, n.execute
            ),
        );
    } else if o.name != n.name {
        out.push(
            "wording",
            false,
            format!("doc name `{}` → `{}`", o.name, n.name),
        );
    }
    if o.opcode_rust != n.opcode_rust {
        out.push(
            "instruction",
            true,
            format!(
                "opcode renamed: `Opcode::{}` → `Opcode::{}`",
                o.opcode_rust, n.opcode_rust
            ),
        );
    }
    if (o.opcode, o.sub_opcode) != (n.opcode, n.sub_opcode) {
        out.push(
            "instruction",
            true,
            format!(
                "opcode {} → {}: these bytes now decode as something else",
                opcode(o),
                opcode(n)
            ),
        );
    }
    if o.alias_of != n.alias_of {
        out.push(
            "instruction",
            true,
            format!(
                "alias of {} → {}",
                o.alias_of.as_deref().unwrap_or("nothing"),
                n.alias_of.as_deref().unwrap_or("nothing")
            ),
        );
    }
}

fn opcode(i: &InstApi) -> String {
    match i.sub_opcode {
        Some(s) => format!("{:#04x}/{s:#04x}", i.opcode),
        None => format!("{:#04x}", i.opcode),
    }
}

fn type_maps(m: &[(String, Vec<String>)]) -> String {
    if m.is_empty() {
        return "any".into();
    }
    m.iter()
        .map(|(rule, types)| {
            let rule = if rule.is_empty() {
                String::new()
            } else {
                format!("{{{rule}}}")
            };
            format!("{rule}{}", types.join("/"))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn text(out: &mut Out, o: &InstApi, n: &InstApi) {
    if o.text != n.text && o.text_hash != n.text_hash {
        match (o.text.is_empty(), n.text.is_empty()) {
            (true, _) => out.push(
                "text",
                false,
                format!("text syntax added: `{}`", n.text.join("` | `")),
            ),
            (_, true) => out.push(
                "text",
                true,
                format!(
                    "text syntax removed (was `{}`): `print_text` and `parse_instruction` refuse it",
                    o.text.join("` | `")
                ),
            ),
            _ => out.push(
                "text",
                true,
                format!(
                    "text syntax: `{}` → `{}`",
                    o.text.join("` | `"),
                    n.text.join("` | `")
                ),
            ),
        }
    } else if o.text_hash != n.text_hash {
        out.push(
            "text",
            true,
            "text forms changed (spellings, or the bits a slot prints): some text now parses to other bytes, or not at all"
                .into(),
        );
    }
    if o.text_hash == n.text_hash && o.wording.get("text section") != n.wording.get("text section")
    {
        out.push("wording", false, "wording of the text section".into());
    }
}

/// Formats both sides have: by Rust name, or the only format of each side.
fn common_variants<'a>(o: &'a InstApi, n: &'a InstApi) -> Vec<(&'a VariantApi, &'a VariantApi)> {
    if o.variants.len() == 1 && n.variants.len() == 1 {
        return vec![(&o.variants[0], &n.variants[0])];
    }
    o.variants
        .iter()
        .filter_map(|ov| Some((ov, n.variants.iter().find(|nv| nv.rust == ov.rust)?)))
        .collect()
}

/// The fields that moved in a format both sides have: a field moves when the fields both
/// sides have before it change order, not when a field is added or removed beside it. Each
/// field once, with the first format where it moved: (field, format, old and new position).
fn moved(o: &InstApi, n: &InstApi, common: &BTreeSet<&str>) -> Vec<(String, String, usize, usize)> {
    let mut out: Vec<(String, String, usize, usize)> = Vec::new();
    for (ov, nv) in common_variants(o, n) {
        let kept = |v: &VariantApi| -> Vec<String> {
            v.fields
                .iter()
                .filter(|f| {
                    common.contains(f.as_str()) && nv.fields.contains(f) && ov.fields.contains(f)
                })
                .cloned()
                .collect()
        };
        let (a, b) = (kept(ov), kept(nv));
        for (i, f) in a.iter().enumerate() {
            let j = b.iter().position(|x| x == f).unwrap_or(i);
            if i != j && !out.iter().any(|m| m.0 == *f) {
                out.push((f.clone(), nv.rust.clone(), i + 1, j + 1));
            }
        }
    }
    out
}

/// Byte position of a field in the first format that has it, for rename pairing.
fn first_position(inst: &InstApi, field: &str) -> Option<(usize, usize)> {
    inst.variants
        .iter()
        .enumerate()
        .find_map(|(vi, v)| Some((vi, v.fields.iter().position(|f| f == field)?)))
}

/// `f` with the types of the instruction's own module named without it (`Op`, not
/// `load_3d::Op`): a module renamed with its instruction is that rename, not a retype of each
/// field. A type moving to or from the shared `enums` keeps `enums::` here; [`retyped`] tells
/// that apart from a retype.
fn local(f: &FieldApi, module: &str) -> FieldApi {
    let prefix = format!("{module}::");
    let mut f = f.clone();
    f.ty = f.ty.replace(&prefix, "");
    for m in &mut f.members {
        m.ty = m.ty.replace(&prefix, "");
    }
    f
}

fn fields(out: &mut Out, o: &InstApi, n: &InstApi) {
    let (o, n) = (&with_local_fields(o), &with_local_fields(n));
    let (removed, added, renames) = field_matches(o, n);
    for r in removed {
        out.push(
            "field",
            true,
            format!("field `{}` removed (`{}: {}`)", r.name, r.rust, r.ty),
        );
    }
    for a in added {
        out.push(
            "field",
            true,
            format!(
                "field `{}` added (`{}: {}`): a struct literal of `{}` no longer compiles, and the bytes after it move",
                a.name, a.rust, a.ty, n.rust
            ),
        );
    }
    for (r, a) in &renames {
        out.push(
            "field",
            true,
            format!(
                "field renamed: `{}` → `{}` (`{}` → `{}`)",
                r.name, a.name, r.rust, a.rust
            ),
        );
        field(out, r, a, &a.name);
    }
    common_fields(out, o, n);
}

/// `inst` with its fields' types named from inside its module (see [`local`]).
fn with_local_fields(inst: &InstApi) -> InstApi {
    InstApi {
        fields: inst.fields.iter().map(|f| local(f, &inst.module)).collect(),
        ..inst.clone()
    }
}

/// Fields removed, fields added, and the pairs (old, new) of a rename among them.
type FieldMatches<'a> = (
    Vec<&'a FieldApi>,
    Vec<&'a FieldApi>,
    Vec<(&'a FieldApi, &'a FieldApi)>,
);

/// The fields only `o` has and only `n` has, a removed one and an added one at the same place
/// with the same type being a rename.
fn field_matches<'a>(o: &'a InstApi, n: &'a InstApi) -> FieldMatches<'a> {
    let mut removed = only_in(&o.fields, &n.fields, |f| &f.name);
    let mut added = only_in(&n.fields, &o.fields, |f| &f.name);
    // A field gone and one new at the same place with the same type: a rename.
    let mut renames = Vec::new();
    removed.retain(|r| {
        let at = first_position(o, &r.name);
        match added.iter().position(|a| {
            doc_path(&a.ty) == doc_path(&r.ty) && first_position(n, &a.name) == at && at.is_some()
        }) {
            Some(i) => {
                renames.push((*r, added.remove(i)));
                false
            }
            None => true,
        }
    });
    (removed, added, renames)
}

/// The fields both sides have (by doc name): renamed in Rust, moved in the encoding, changed.
fn common_fields(out: &mut Out, o: &InstApi, n: &InstApi) {
    let common: BTreeSet<&str> = o
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .filter(|f| n.fields.iter().any(|nf| nf.name == *f))
        .collect();
    let moves = moved(o, n, &common);
    for of in &o.fields {
        let Some(nf) = n.fields.iter().find(|f| f.name == of.name) else {
            continue;
        };
        if of.rust != nf.rust {
            out.push(
                "field",
                true,
                format!(
                    "field `{}` renamed in Rust: `{}` → `{}`",
                    of.name, of.rust, nf.rust
                ),
            );
        }
        if let Some((_, format, a, b)) = moves.iter().find(|m| m.0 == of.name) {
            out.push(
                "field",
                true,
                format!(
                    "field `{}` moved in the encoding of `{format}`: field {a} → {b} (of the fields both have)",
                    of.name
                ),
            );
        }
        field(out, of, nf, &of.name);
    }
}

/// A type as the doc's module names it: the doc's module re-exports the shared types of its
/// fields (`NAMING.md`), so `enums::X` and the doc's own `X` are one path to users.
fn doc_path(ty: &str) -> String {
    ty.replace("enums::", "")
}

/// Reports a change of the type of `what` (`o` → `n`, as [`local`] names them), if any: a
/// retype breaks; a type that joins the shared `enums` breaks nothing (the doc's module still
/// names it); one that leaves it breaks code that names it `enums::X` for this doc, or mixes it
/// with another doc's.
fn retyped(out: &mut Out, what: &str, o: &str, n: &str) {
    if o == n {
        return;
    }
    if doc_path(o) != doc_path(n) {
        out.push("field", true, format!("{what} retyped: `{o}` → `{n}`"));
        return;
    }
    // `enum X (u8)`, `struct X (u8)`, `enum X`: the name is the second word.
    let ty = doc_path(n);
    let ty = ty.split_whitespace().nth(1).unwrap_or(&ty);
    if n.contains("enums::") {
        out.push(
            "field",
            false,
            format!(
                "{what}: its type `{ty}` is now the shared `enums::{ty}` (identical in other docs); the doc's module still names it"
            ),
        );
    } else {
        out.push(
            "field",
            true,
            format!(
                "{what}: its type `{ty}` is no longer the shared `enums::{ty}` but the doc's own: code naming `enums::{ty}` for it, or giving it another doc's, no longer compiles"
            ),
        );
    }
}

/// One field both sides have (`name` is the new doc name).
fn field(out: &mut Out, o: &FieldApi, n: &FieldApi, name: &str) {
    let before = out.changes.len();
    retyped(out, &format!("field `{name}`"), &o.ty, &n.ty);
    values(out, &format!("field `{name}`"), &o.values, &n.values, true);
    members(out, name, &o.members, &n.members);
    if o.reserved != n.reserved {
        out.push(
            "validation",
            n.reserved & !o.reserved != 0,
            format!(
                "reserved bits of `{name}`: {:#x} → {:#x}",
                o.reserved, n.reserved
            ),
        );
    }
    validation_set(
        out,
        &format!("operand classes of `{name}`"),
        &o.classes,
        &n.classes,
    );
    validation_set(out, &format!("types of `{name}`"), &o.types, &n.types);
    if o.nonzero != n.nonzero {
        out.push(
            "validation",
            n.nonzero,
            format!(
                "`{name}` {} be zero",
                if n.nonzero {
                    "may no longer"
                } else {
                    "may now"
                }
            ),
        );
    }
    // Prose that changed with a rule is that rule's change, not news of its own.
    if o.wording != n.wording && out.changes.len() == before {
        out.push("wording", false, format!("wording of field `{name}`"));
    }
}

/// An empty list allows everything (no check); fewer entries reject more.
fn validation_set(out: &mut Out, what: &str, o: &[String], n: &[String]) {
    if o == n {
        return;
    }
    let tightened =
        (o.is_empty() && !n.is_empty()) || o.iter().any(|x| !n.contains(x)) && !n.is_empty();
    let show = |l: &[String]| {
        if l.is_empty() {
            "any".to_string()
        } else {
            l.join(", ")
        }
    };
    out.push(
        "validation",
        tightened,
        format!("{what}: {} → {}", show(o), show(n)),
    );
}

fn members(out: &mut Out, field: &str, o: &[MemberApi], n: &[MemberApi]) {
    let mut pairs = member_renames(out, field, o, n);
    for om in o {
        if let Some(nm) = n.iter().find(|m| m.name == om.name) {
            pairs.push((om, nm));
        }
    }
    for (om, nm) in pairs {
        member(out, &format!("`{field}.{}`", nm.name), om, nm);
    }
}

/// Reports the members only one side has, a removed one and an added one at the same bits
/// being a rename; gives the pairs (old, new) of the renames.
fn member_renames<'a>(
    out: &mut Out,
    field: &str,
    o: &'a [MemberApi],
    n: &'a [MemberApi],
) -> Vec<(&'a MemberApi, &'a MemberApi)> {
    let mut removed = only_in(o, n, |m| &m.name);
    let mut added = only_in(n, o, |m| &m.name);
    let mut pairs: Vec<(&MemberApi, &MemberApi)> = Vec::new();
    removed.retain(
        |r| match added.iter().position(|a| (a.hi, a.lo) == (r.hi, r.lo)) {
            Some(i) => {
                let a = added.remove(i);
                out.push(
                    "field",
                    true,
                    format!(
                        "bits {}..{} of `{field}` renamed: `{}` → `{}`",
                        r.hi, r.lo, r.name, a.name
                    ),
                );
                pairs.push((r, a));
                false
            }
            None => true,
        },
    );
    for r in removed {
        out.push(
            "field",
            true,
            format!(
                "bits `{}` ({}..{}) of `{field}` removed",
                r.name, r.hi, r.lo
            ),
        );
    }
    for a in added {
        out.push(
            "field",
            true,
            format!("bits `{}` ({}..{}) of `{field}` added", a.name, a.hi, a.lo),
        );
    }
    pairs
}

/// One member both sides have (`what` names it).
fn member(out: &mut Out, what: &str, om: &MemberApi, nm: &MemberApi) {
    if (om.hi, om.lo) != (nm.hi, nm.lo) {
        out.push(
            "field",
            true,
            format!(
                "{what} moved: bits {}..{} → {}..{}",
                om.hi, om.lo, nm.hi, nm.lo
            ),
        );
    }
    retyped(out, what, &om.ty, &nm.ty);
    values(out, what, &om.values, &nm.values, true);
    platforms(out, what, &om.platforms, &nm.platforms);
    if om.nonzero != nm.nonzero {
        out.push(
            "validation",
            nm.nonzero,
            format!(
                "{what} {} be zero",
                if nm.nonzero {
                    "may no longer"
                } else {
                    "may now"
                }
            ),
        );
    }
    if om.wording != nm.wording && doc_path(&om.ty) == doc_path(&nm.ty) {
        out.push("wording", false, format!("wording of {what}"));
    }
}

/// Enumerated values, by value. `exhaustive`: the values are variants of a Rust enum (an added
/// one breaks exhaustive matches); else constants.
fn values(out: &mut Out, what: &str, o: &[ValueApi], n: &[ValueApi], exhaustive: bool) {
    let renumbered = |ov: &ValueApi| {
        n.iter().find(|v| {
            v.rust == ov.rust && v.value != ov.value && !o.iter().any(|x| x.value == v.value)
        })
    };
    for ov in o {
        match n.iter().find(|v| v.value == ov.value) {
            None => match renumbered(ov) {
                Some(nv) => out.push(
                    "value",
                    true,
                    format!(
                        "value `{}` of {what} renumbered: {:#x} → {:#x}: the same bytes now mean something else",
                        ov.rust, ov.value, nv.value
                    ),
                ),
                None => out.push(
                    "value",
                    true,
                    format!("value {:#x} (`{}`) of {what} removed", ov.value, ov.rust),
                ),
            },
            Some(nv) => {
                if ov.rust != nv.rust {
                    out.push(
                        "value",
                        true,
                        format!(
                            "value {:#x} of {what} renamed: `{}` → `{}`",
                            ov.value, ov.rust, nv.rust
                        ),
                    );
                } else if ov.meaning != nv.meaning {
                    out.push(
                        "wording",
                        false,
                        format!("wording of value {:#x} of {what}", ov.value),
                    );
                }
                platforms(
                    out,
                    &format!("value {:#x} of {what}", ov.value),
                    &ov.platforms,
                    &nv.platforms,
                );
            }
        }
    }
    for nv in n.iter().filter(|v| {
        !o.iter().any(|x| x.value == v.value)
            && !o
                .iter()
                .any(|x| renumbered(x).is_some_and(|r| r.value == v.value))
    }) {
        let tail = if exhaustive {
            ": an exhaustive match no longer compiles"
        } else {
            ""
        };
        out.push(
            "value",
            exhaustive,
            format!(
                "value {:#x} (`{}`) of {what} added{tail}",
                nv.value, nv.rust
            ),
        );
    }
}

/// The platforms an annotation allows, of the known ones.
fn allowed(annotation: &Option<String>) -> BTreeSet<&'static str> {
    let Some(a) = annotation else {
        return platform::KNOWN.iter().copied().collect();
    };
    let Ok(rule) = platform::parse(a) else {
        return BTreeSet::new();
    };
    // As the docs' generations are generated, the undescribed ones inheriting.
    let known: Vec<String> = platform::KNOWN.iter().map(|p| p.to_string()).collect();
    let rule = platform::inherit(&rule, &known);
    platform::KNOWN
        .iter()
        .copied()
        .filter(|p| platform::holds_on(&rule, p))
        .collect()
}

/// A platform annotation changed: breaking when some platform that allowed it no longer does.
fn platforms(out: &mut Out, what: &str, o: &Option<String>, n: &Option<String>) {
    if o == n {
        return;
    }
    let (a, b) = (allowed(o), allowed(n));
    // Oldest first, as the docs order platforms.
    let lost: Vec<&str> = platform::KNOWN
        .iter()
        .copied()
        .filter(|p| a.contains(p) && !b.contains(p))
        .collect();
    let show = |x: &Option<String>| x.as_ref().map_or("all".to_string(), |s| format!("{{{s}}}"));
    let tail = if lost.is_empty() {
        String::new()
    } else {
        format!(": now rejected on {}", lost.join(", "))
    };
    out.push(
        "platforms",
        !lost.is_empty(),
        format!("platforms of {what}: {} → {}{tail}", show(o), show(n)),
    );
}

fn variants(out: &mut Out, o: &InstApi, n: &InstApi) {
    let only_one = |i: &InstApi| i.variants.len() == 1;
    for ov in &o.variants {
        let nv = if only_one(o) && only_one(n) {
            n.variants.first()
        } else {
            n.variants.iter().find(|v| v.rust == ov.rust)
        };
        let Some(nv) = nv else {
            out.push("field", true, format!("format `{}` removed", ov.rust));
            continue;
        };
        // A lone format is the instruction's struct itself: renamed with it.
        if ov.rust != nv.rust && !(only_one(o) && only_one(n)) {
            out.push(
                "field",
                true,
                format!("format renamed: `{}` → `{}`", ov.rust, nv.rust),
            );
        }
        if ov.choices != nv.choices {
            out.push(
                "field",
                true,
                format!(
                    "format `{}` selected by {} → {}: the same bytes decode in another format",
                    nv.rust,
                    or_none(&ov.choices),
                    or_none(&nv.choices)
                ),
            );
        }
        if ov.counted != nv.counted {
            out.push(
                "validation",
                true,
                format!(
                    "counted lists of `{}`: {} → {}",
                    nv.rust,
                    or_none(&ov.counted),
                    or_none(&nv.counted)
                ),
            );
        }
        if ov.shadowed != nv.shadowed {
            out.push(
                "field",
                true,
                format!(
                    "format `{}` {}",
                    nv.rust,
                    if nv.shadowed {
                        "now never decodes (an earlier format takes its bytes)"
                    } else {
                        "now decodes"
                    }
                ),
            );
        }
    }
    if !(only_one(o) && only_one(n)) {
        for nv in n
            .variants
            .iter()
            .filter(|v| !o.variants.iter().any(|x| x.rust == v.rust))
        {
            out.push("field", true, format!("format `{}` added", nv.rust));
        }
    }
}

fn or_none(l: &[String]) -> String {
    if l.is_empty() {
        "none".into()
    } else {
        l.join("; ")
    }
}

fn records(out: &mut Out, old: &[RecordApi], new: &[RecordApi]) {
    for o in old {
        match new.iter().find(|r| r.name == o.name) {
            Some(n) => record(out, o, n),
            None => out.push(
                "record",
                true,
                format!("record `{}` removed (`object::{}`)", o.name, o.rust),
            ),
        }
    }
    for n in new.iter().filter(|n| !old.iter().any(|o| o.name == n.name)) {
        out.push(
            "record",
            false,
            format!("record `{}` added (`object::{}`)", n.name, n.rust),
        );
    }
}

/// The items of `a` whose name no item of `b` has, in `a`'s order.
fn only_in<'a, T>(a: &'a [T], b: &[T], name: impl Fn(&T) -> &String) -> Vec<&'a T> {
    a.iter()
        .filter(|x| !b.iter().any(|y| name(y) == name(x)))
        .collect()
}

/// One record both sides have: fields removed, added, reordered and changed.
fn record(out: &mut Out, o: &RecordApi, n: &RecordApi) {
    let what = |f: &str| format!("`{}.{f}`", o.name);
    for f in only_in(&o.fields, &n.fields, |f| &f.name) {
        out.push(
            "record",
            true,
            format!(
                "record field {} removed: files written before read differently",
                what(&f.name)
            ),
        );
    }
    for f in only_in(&n.fields, &o.fields, |f| &f.name) {
        out.push(
            "record",
            true,
            format!(
                "record field {} added (`{}`): a struct literal of `object::{}` no longer compiles",
                what(&f.name),
                f.kind,
                n.rust
            ),
        );
    }
    let common: Vec<&str> = o
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .filter(|f| n.fields.iter().any(|x| x.name == *f))
        .collect();
    let order_new: Vec<&str> = n
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .filter(|f| common.contains(f))
        .collect();
    if common != order_new {
        out.push(
            "record",
            true,
            format!(
                "fields of record `{}` reordered: the same bytes read differently",
                o.name
            ),
        );
    }
    for of in &o.fields {
        if let Some(nf) = n.fields.iter().find(|f| f.name == of.name) {
            record_field(out, &o.name, of, nf);
        }
    }
}

/// One field of record `record` both sides have.
fn record_field(out: &mut Out, record: &str, of: &RecordFieldApi, nf: &RecordFieldApi) {
    let what = format!("`{record}.{}`", of.name);
    if of.kind != nf.kind {
        out.push(
            "record",
            true,
            format!("record field {what} retyped: `{}` → `{}`", of.kind, nf.kind),
        );
    }
    values(
        out,
        &format!("record field {what}"),
        &of.values,
        &nf.values,
        false,
    );
    members(
        out,
        &format!("{record}.{}", of.name),
        &of.members,
        &nf.members,
    );
    if of.wording != nf.wording {
        out.push("wording", false, format!("wording of record field {what}"));
    }
}

impl Report {
    /// The report as a reviewer reads it in a pull request: a count, then per doc its changes,
    /// breaking first.
    pub fn human(&self) -> String {
        if self.changes.is_empty() {
            return "no change to the generated crate's API or meaning\n".into();
        }
        let breaking = self.changes.iter().filter(|c| c.breaking).count();
        let docs: BTreeSet<&str> = self.changes.iter().map(|c| c.doc.as_str()).collect();
        let mut s = format!(
            "{} change(s) in {} doc(s), {breaking} breaking\n",
            self.changes.len(),
            docs.len()
        );
        let mut last = "";
        for c in &self.changes {
            if c.doc != last {
                s.push_str(&format!("\n{}\n", c.doc));
                last = &c.doc;
            }
            let mark = if c.breaking { "breaking" } else { "ok" };
            s.push_str(&format!("  {mark:<8}  {}\n", c.what));
        }
        s
    }

    /// `{"breaking": bool, "changes": [{"doc", "what", "breaking", "kind"}, ...]}`.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The version of the snapshot's view: a snapshot of another version is not compared (its
/// strings would differ where the docs did not).
const SNAPSHOT_VERSION: u64 = 2;

/// The snapshot file regen writes beside its output: the `@generated` header, then one JSON
/// line for the crate's platforms and one per doc (so a spec change is a small text diff).
pub fn snapshot(api: &Api, header: &str) -> String {
    let mut s = format!("{header}\n{}\n", head_line(&api.platforms));
    for (stem, doc) in &api.docs {
        s.push_str(&doc_line(stem, doc));
        s.push('\n');
    }
    s
}

/// The snapshot's second line: its version and the crate's platforms.
fn head_line(platforms: &[String]) -> String {
    let head = serde_json::json!({ "version": SNAPSHOT_VERSION, "platforms": platforms });
    serde_json::to_string(&head).unwrap_or_default()
}

/// One doc's line of the snapshot (through `serde_json::Value`, whose maps keep their keys
/// sorted: the line's bytes do not depend on the order of the view's fields).
fn doc_line(stem: &str, doc: &view::DocApi) -> String {
    serde_json::to_string(&serde_json::json!({ "doc": stem, "api": doc })).unwrap_or_default()
}

/// The `@generated` line of the API snapshot (`#` comment: the file is read only by regen),
/// naming the command that regenerates it and the spec directory.
pub(crate) fn snapshot_header(regen_command: &str, spec_label: &str) -> String {
    format!(
        "# @generated by `{regen_command}` from {spec_label}. Do not edit: regen compares the next regen with it to say what changed."
    )
}

/// Reads a snapshot back; `None` when it is not one (absent, edited, of another generator).
pub fn read_snapshot(text: &str) -> Option<Api> {
    read_snapshot_but(text, |_| false)
}

/// What changed from the snapshot `old` to the snapshot `new` (both texts): [`compare`] of the
/// docs whose lines differ, since a doc's changes are its own and a doc whose line is the same
/// on both sides has none. Only those lines are read back (regen after one doc changed reads
/// one doc of each side, not all). `None` when `old` is not a snapshot (or `new`, which regen
/// wrote).
pub fn compare_snapshots(old: &str, new: &str) -> Option<Report> {
    if !old.lines().next()?.contains("@generated") {
        return None;
    }
    // The new side is regen's own text, whatever its header.
    let (old_head, old_docs) = after_header(old).split_once('\n')?;
    let (new_head, new_docs) = after_header(new).split_once('\n')?;
    let (old_docs, new_docs) = differing_lines(old_docs, new_docs);
    let old_lines: BTreeSet<&str> = old_docs.lines().collect();
    let new_lines: BTreeSet<&str> = new_docs.lines().collect();
    let old_all = std::iter::once(old_head).chain(old_docs.lines());
    let old = read_lines(old_all, |line| new_lines.contains(line))?;
    let new_all = std::iter::once(new_head).chain(new_docs.lines());
    let new = read_lines(new_all, |line| old_lines.contains(line))?;
    Some(compare(&old, &new))
}

/// `text` after its first line.
fn after_header(text: &str) -> &str {
    text.split_once('\n').map_or("", |(_, rest)| rest)
}

/// `a` and `b` without the whole lines they share at their start and at their end: after one
/// doc changed, its line in each (found at memory speed, not line by line). A line of one
/// side left in may still be in the other (a doc added moves the lines after it):
/// [`compare_snapshots`] skips those.
fn differing_lines<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let p = common_prefix(x, y);
    // From the start of the line the texts first differ in (just after a newline: a char
    // boundary).
    let start = x[..p]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let (x, y) = (&x[start..], &y[start..]);
    let s = common_suffix(x, y);
    // The shared end, from its first line that starts on both sides.
    let at_line_start = |t: &[u8]| t.len() == s || t[t.len() - s - 1] == b'\n';
    let skip = if at_line_start(x) && at_line_start(y) {
        0
    } else {
        let tail = &x[x.len() - s..];
        tail.iter().position(|&c| c == b'\n').map_or(s, |i| i + 1)
    };
    let s = s - skip;
    (&a[start..a.len() - s], &b[start..b.len() - s])
}

/// The length of the longest common prefix of `x` and `y`, compared in blocks (memcmp): a
/// snapshot after one doc changed is mostly the same bytes.
fn common_prefix(x: &[u8], y: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = x.len().min(y.len());
    let mut i = 0;
    while i + BLOCK <= n && x[i..i + BLOCK] == y[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && x[i] == y[i] {
        i += 1;
    }
    i
}

/// The length of the longest common suffix of `x` and `y`, as [`common_prefix`].
fn common_suffix(x: &[u8], y: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = x.len().min(y.len());
    let (ex, ey) = (x.len(), y.len());
    let mut i = 0;
    while i + BLOCK <= n && x[ex - i - BLOCK..ex - i] == y[ey - i - BLOCK..ey - i] {
        i += BLOCK;
    }
    while i < n && x[ex - 1 - i] == y[ey - 1 - i] {
        i += 1;
    }
    i
}

/// [`read_snapshot`] without the doc lines `skip` holds.
fn read_snapshot_but(text: &str, skip: impl Fn(&str) -> bool) -> Option<Api> {
    let mut lines = text.lines();
    if !lines.next()?.contains("@generated") {
        return None;
    }
    read_lines(lines, skip)
}

/// The lines of a snapshot after its header, but the doc lines `skip` holds, read straight into
/// the view (no `serde_json::Value` in between); `None` when one is not a snapshot line of this
/// version.
fn read_lines<'a>(
    mut lines: impl Iterator<Item = &'a str>,
    skip: impl Fn(&str) -> bool,
) -> Option<Api> {
    #[derive(serde::Deserialize)]
    struct Head {
        version: u64,
    }
    #[derive(serde::Deserialize)]
    struct Platforms {
        platforms: Vec<String>,
    }
    #[derive(serde::Deserialize)]
    struct Line {
        doc: String,
        api: view::DocApi,
    }
    let head = lines.next()?;
    // The version first: a snapshot of another version may hold other keys.
    if serde_json::from_str::<Head>(head).ok()?.version != SNAPSHOT_VERSION {
        return None;
    }
    let mut api = Api {
        platforms: serde_json::from_str::<Platforms>(head).ok()?.platforms,
        docs: BTreeMap::new(),
    };
    for line in lines.filter(|l| !skip(l)) {
        let line: Line = serde_json::from_str(line).ok()?;
        api.docs.insert(line.doc, line.api);
    }
    Some(api)
}

#[cfg(test)]
mod tests {
    use super::*;
    use view::{DocApi, RecordFieldApi};

    fn field(name: &str, kind: &str, values: &[(u64, &str)]) -> RecordFieldApi {
        RecordFieldApi {
            name: name.into(),
            rust: name.into(),
            kind: kind.into(),
            values: values
                .iter()
                .map(|(v, m)| ValueApi {
                    value: *v,
                    rust: m.to_string(),
                    meaning: m.to_string(),
                    platforms: None,
                })
                .collect(),
            members: Vec::new(),
            wording: "w".into(),
        }
    }

    fn chapter(records: Vec<RecordApi>) -> Api {
        let mut api = Api::default();
        api.docs.insert(
            "4_header".into(),
            DocApi {
                instructions: Vec::new(),
                records,
            },
        );
        api
    }

    fn record(name: &str, fields: Vec<RecordFieldApi>) -> RecordApi {
        RecordApi {
            name: name.into(),
            rust: crate::analyze::naming::type_name(name),
            fields,
        }
    }

    /// Object-file records of a chapter: fields added, removed, retyped, reordered; values of
    /// a field (constants: an added one breaks nothing); records added and removed.
    #[test]
    fn record_changes_are_reported_per_chapter() {
        let old = chapter(vec![
            record(
                "kernel",
                vec![
                    field("size", "UD", &[]),
                    field("kind", "UB", &[(0, "plain"), (1, "fancy")]),
                    field("flags", "UW", &[]),
                    field("gone", "UB", &[]),
                ],
            ),
            record("old_table", vec![field("n", "UD", &[])]),
        ]);
        let new = chapter(vec![
            record(
                "kernel",
                vec![
                    field("kind", "UB", &[(0, "plain"), (2, "other")]),
                    field("size", "UQ", &[]),
                    field("flags", "UW", &[]),
                    field("extra", "UB", &[]),
                ],
            ),
            record("new_table", vec![field("n", "UD", &[])]),
        ]);
        let report = compare(&old, &new);
        let got: Vec<(bool, String)> = report
            .changes
            .iter()
            .map(|c| (c.breaking, c.what.clone()))
            .collect();
        let want = [
            (true, "record field `kernel.gone` removed: files written before read differently"),
            (true, "record field `kernel.extra` added (`UB`): a struct literal of `object::Kernel` no longer compiles"),
            (true, "fields of record `kernel` reordered: the same bytes read differently"),
            (true, "record field `kernel.size` retyped: `UD` → `UQ`"),
            (true, "value 0x1 (`fancy`) of record field `kernel.kind` removed"),
            (true, "record `old_table` removed (`object::OldTable`)"),
            (false, "value 0x2 (`other`) of record field `kernel.kind` added"),
            (false, "record `new_table` added (`object::NewTable`)"),
        ];
        let want: Vec<(bool, String)> = want.iter().map(|(b, w)| (*b, w.to_string())).collect();
        assert_eq!(got, want);
        assert!(report.breaking);
        assert!(report.changes.iter().all(|c| c.doc == "4_header"));
    }

    /// A field's type moving into the shared `enums` breaks nothing (the doc's module still
    /// names it); out of it breaks code that names `enums::X`; another type is a retype.
    #[test]
    fn joining_the_shared_enums_breaks_nothing_leaving_them_does() {
        let mut out = Out {
            doc: "A".into(),
            changes: Vec::new(),
        };
        retyped(
            &mut out,
            "field `Mode`",
            "enum Mode (u8)",
            "enum enums::Mode (u8)",
        );
        retyped(
            &mut out,
            "`Size.blocks`",
            "enum enums::SizeBlocks",
            "enum SizeBlocks",
        );
        retyped(
            &mut out,
            "field `Mode`",
            "enum Mode (u8)",
            "enum Mode (u16)",
        );
        retyped(&mut out, "field `Mode`", "enum Mode (u8)", "enum Mode (u8)");
        let got: Vec<(bool, &str)> = out
            .changes
            .iter()
            .map(|c| (c.breaking, c.what.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (false, "field `Mode`: its type `Mode` is now the shared `enums::Mode` (identical in other docs); the doc's module still names it"),
                (true, "`Size.blocks`: its type `SizeBlocks` is no longer the shared `enums::SizeBlocks` but the doc's own: code naming `enums::SizeBlocks` for it, or giving it another doc's, no longer compiles"),
                (true, "field `Mode` retyped: `enum Mode (u8)` → `enum Mode (u16)`"),
            ]
        );
    }

    /// The snapshot regen keeps reads back to the view it was written from.
    #[test]
    fn a_snapshot_reads_back() {
        let api = chapter(vec![record("kernel", vec![field("size", "UD", &[])])]);
        let text = snapshot(&api, "# @generated by a test");
        assert_eq!(read_snapshot(&text), Some(api));
        assert_eq!(read_snapshot("# not generated\n{}"), None);
        assert_eq!(read_snapshot(&text[..text.len() - 5]), None);
        let older = text.replace("\"version\":2", "\"version\":1");
        assert_ne!(older, text);
        assert_eq!(read_snapshot(&older), None, "a snapshot of another version");
    }

    /// Docs named `stems`, each with one record whose field's kind is the doc's `kind`.
    fn docs(stems: &[(&str, &str)]) -> Api {
        let mut api = Api::default();
        for (stem, kind) in stems {
            let doc = DocApi {
                instructions: Vec::new(),
                records: vec![record("r", vec![field("f", kind, &[(1, "one")])])],
            };
            api.docs.insert(stem.to_string(), doc);
        }
        api
    }

    /// The lines two snapshot bodies do not share at their start and end are found whole.
    #[test]
    fn differing_lines_are_whole_lines() {
        let cases = [
            ("a\nb\nc\n", "a\nB\nc\n", "b\n", "B\n"),
            ("a\nc\n", "a\nb\nc\n", "", "b\n"),
            ("a\nb\nc\n", "a\nc\n", "b\n", ""),
            // Texts that first differ inside a line, and share the end of a line.
            ("ab\nc\n", "ac\nc\n", "ab\n", "ac\n"),
            ("xa\nc\n", "ya\nc\n", "xa\n", "ya\n"),
            ("a\nb\n", "a\nb\n", "", ""),
            ("a\nb", "a\nb\n", "b", "b\n"),
            ("", "a\n", "", "a\n"),
            ("é\nà\n", "é\nè\n", "à\n", "è\n"),
        ];
        for (a, b, da, db) in cases {
            assert_eq!(differing_lines(a, b), (da, db), "{a:?} {b:?}");
        }
        // Longer than the blocks compared at once, on both ends.
        let long = |mid: &str| format!("{}{mid}\n{}", "x\n".repeat(400), "y\n".repeat(400));
        let (a, b) = (long("old"), long("new"));
        assert_eq!(differing_lines(&a, &b), ("old\n", "new\n"));
    }

    /// Comparing snapshot texts (only the lines that differ read back) reports what comparing
    /// the whole views reports: a doc changed, added in the middle, removed; the platforms
    /// changed; nothing changed.
    #[test]
    fn a_platform_added_breaks_nothing_one_removed_does() {
        let with = |names: &[&str]| Api {
            platforms: names.iter().map(|n| n.to_string()).collect(),
            docs: BTreeMap::new(),
        };
        let r = compare(
            &with(&["Xehp", "PvcXt"]),
            &with(&["Xehp", "PvcXt", "Xe3PCri"]),
        );
        assert!(!r.breaking, "{r:?}");
        assert_eq!(r.changes.len(), 1);
        assert_eq!(
            r.changes[0].what,
            "platform `Xe3PCri` added (variant `Platform::Xe3PCri`)"
        );
        let r = compare(
            &with(&["PreIcllp", "Icllp"]),
            &with(&["PreSkl", "Skl", "Icllp"]),
        );
        assert!(r.breaking, "{r:?}");
        assert!(r.changes.iter().any(|c| c.breaking
            && c.what == "platform `PreIcllp` removed (variant `Platform::PreIcllp`)"));
    }

    #[test]
    fn comparing_snapshots_is_comparing_views() {
        let old = docs(&[("A", "UB"), ("B", "UW"), ("C", "UD"), ("D", "UB")]);
        let mut platforms = old.clone();
        platforms.platforms = vec!["Tgllp".into()];
        let cases = [
            docs(&[("A", "UB"), ("B", "UD"), ("C", "UD"), ("D", "UB")]),
            docs(&[
                ("A", "UB"),
                ("B", "UW"),
                ("BB", "UW"),
                ("C", "UD"),
                ("D", "UB"),
            ]),
            docs(&[("B", "UW"), ("C", "UD"), ("D", "UB")]),
            docs(&[("A", "UB"), ("B", "UW"), ("C", "UD")]),
            platforms,
            old.clone(),
        ];
        let old_text = snapshot(&old, "# @generated by a test");
        for new in cases {
            let report = compare_snapshots(&old_text, &snapshot(&new, ""));
            assert_eq!(report, Some(compare(&old, &new)), "{new:?}");
        }
        let changed = compare_snapshots(&old_text, &snapshot(&docs(&[("A", "UW")]), ""));
        assert!(changed.is_some_and(|r| r.breaking && r.changes.len() == 4));
        // A snapshot cut short or not generated is not read.
        let new = snapshot(&old, "");
        assert_eq!(
            compare_snapshots(&old_text[..old_text.len() - 5], &new),
            None
        );
        assert_eq!(compare_snapshots(&new, &new), None);
    }
}
