//! Where a routine's variables live in a thread's GRF bytes.
//!
//! The GRF is one byte array per routine activation; an address variable holds a byte offset
//! into it (ADDR_ADD: "the finalizer is concerned, the ADDR_ADD instruction is just adding two
//! integers representing GRF byte offsets"), so indirect operands reach any variable.
//!
//! - Predefined variables `V0..V31` come first, each at a GRF boundary, with the sizes of the
//!   object-format chapter's table (`4_visa_header.md`, "Thirty-two variables (V0-V31) are
//!   reserved"): `%arg` 256 (512 from PVC on) UD, `%retval` 96 (192) UD, `%r0` 8 UD... Every
//!   routine has the same predefined block, so FCALL/FRET copy it between activations. IGC aliases
//!   `%sp` and `%fp` as UQ (`alias=<%sp, 0>` type uq in `recursion_stackcalls.func.rec.visaasm`),
//!   so no predefined variable takes less than 8 bytes.
//! - Declared variables follow, in declaration order, at their `alignment` (bits 4-7 of
//!   `bit_properties`, the chapter's table for file-scope variables), and by the operands
//!   chapter's implementation note: one of at least a GRF is GRF-aligned, a smaller one does
//!   not cross a GRF boundary.
//! - An alias (`alias_index` non-zero) has no storage: it is its base's bytes from
//!   `alias_offset` on, with its own type.

use crate::object::{Routine, PREDEFINED_VARIABLES};
use crate::runtime::DataType;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// A general variable as placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Var {
    /// Byte offset of element 0 in the GRF bytes.
    pub base: u32,
    /// Size in bytes (elements times the type's size).
    pub size: u32,
    /// Element type; predefined variables take the chapter's (UD for most).
    pub ty: DataType,
}

/// The placement of one routine's declarations.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Bytes per GRF register (32, or 64 from PVC on).
    pub grf: u32,
    /// General variables by id (`V0..` predefined first).
    pub vars: Vec<Var>,
    /// Bytes of the predefined block (copied between activations by FCALL/FRET).
    pub predefined_bytes: u32,
    /// Total GRF bytes of an activation.
    pub bytes: u32,
    /// Address variables: index of the first element in the address file, and the count.
    pub addresses: Vec<(u32, u32)>,
    pub address_elements: u32,
    /// Predicate variables by id (P0 is "no predicate"): first bit, bit count.
    pub predicates: Vec<(u32, u32)>,
    pub predicate_bits: u32,
}

/// The chapter's predefined variables: (elements, type) by id; the `%arg`/`%retval` counts
/// double from PVC on ("256 elements for PrePVC/512 elements for PVC+").
fn predefined(id: usize, wide: bool) -> (u32, DataType) {
    let scale = if wide { 2 } else { 1 };
    match id {
        1 | 2 | 17 => (1, DataType::Uw), // %thread_x, %thread_y, %color
        6 => (5, DataType::Ud),          // %tm
        7 => (8, DataType::Ud),          // %r0
        8 => (256 * scale, DataType::Ud),
        9 => (96 * scale, DataType::Ud),
        13 => (4, DataType::Ud), // %sr0
        16 => (2, DataType::Ud), // %dbg0
        18 | 19 => (1, DataType::Uq),
        // %null, group ids, %sp, %fp, %hw_id, %cr0, %ce0; V20.. (reserved) likewise.
        _ => (1, DataType::Ud),
    }
}

/// Id of `%arg`, `%retval`, `%sp`, `%fp`, `%cr0`, `%ce0`, `%r0` in the chapter's table.
pub const ARG: u32 = 8;
pub const RETVAL: u32 = 9;
pub const SP: u32 = 10;
pub const FP: u32 = 11;
pub const SR0: u32 = 13;
pub const CR0: u32 = 14;
pub const CE0: u32 = 15;
pub const R0: u32 = 7;

/// The chapter's alignment codes (0-9) in bytes.
fn alignment(code: u8, grf: u32) -> Option<u32> {
    Some(match code {
        0 => 1,
        1 => 2,
        2 => 4,
        3 => 8,
        4 => 16,
        5 | 7 => grf.max(32),
        6 | 8 => 64,
        9 => 128,
        _ => return None,
    })
}

fn round_up(x: u32, to: u32) -> u32 {
    x.div_ceil(to) * to
}

/// `end` as a byte count of the activation when it is within
/// [`super::limits::MAX_ACTIVATION_BYTES`]; else an error naming what passed it.
fn within_limit(end: u64, what: &dyn Fn() -> String) -> Result<u32, String> {
    let max = super::limits::MAX_ACTIVATION_BYTES;
    if end > u64::from(max) {
        return Err(format!(
            "{} end(s) past {max} bytes of registers, the most one routine activation may \
             declare (`machine::limits::MAX_ACTIVATION_BYTES`)",
            what()
        ));
    }
    Ok(end as u32)
}

impl Layout {
    /// Places the declarations of `r`; an error names the declaration that cannot be placed.
    pub fn new<R: Routine + ?Sized>(r: &R, grf: u32) -> Result<Layout, String> {
        let wide = grf >= 64;
        let mut vars = Vec::new();
        let mut at = 0u32;
        for id in 0..PREDEFINED_VARIABLES.len() {
            let (n, ty) = predefined(id, wide);
            let size = (n * ty.size() as u32).max(8);
            vars.push(Var { base: at, size, ty });
            at = round_up(at + size, grf);
        }
        let predefined_bytes = at;
        let decls = r.var_info();
        let first = vars.len();
        // Roots first (their storage), then aliases, which may name a later variable.
        for (i, v) in decls.iter().enumerate() {
            let name = || format!("V{}", first + i);
            let ty = DataType::try_from(v.bit_properties_type() as u8)
                .ok()
                .filter(|t| t.size() > 0 && !matches!(t, DataType::V | DataType::Vf | DataType::Uv))
                .ok_or_else(|| {
                    format!(
                        "{}: type {:#x} is no variable type",
                        name(),
                        v.bit_properties_type()
                    )
                })?;
            let size = u32::from(v.num_elements) * ty.size() as u32;
            if v.alias_index != 0 {
                vars.push(Var { base: 0, size, ty });
                continue;
            }
            let align = alignment(v.bit_properties_alignment() as u8, grf)
                .ok_or_else(|| {
                    format!(
                        "{}: alignment code {} is not in the chapter's table",
                        name(),
                        v.bit_properties_alignment()
                    )
                })?
                .max(ty.size() as u32);
            at = round_up(at, align);
            if size >= grf || at / grf != (at + size.max(1) - 1) / grf {
                at = round_up(at, grf);
            }
            vars.push(Var { base: at, size, ty });
            at = within_limit(u64::from(at) + u64::from(size), &name)?;
        }
        place_aliases(decls, &mut vars, first)?;
        let bytes = round_up(at.max(1), grf);
        inside(&vars, bytes)?;
        let mut addresses = Vec::new();
        let mut address_elements = 0;
        for a in r.address_info() {
            addresses.push((address_elements, u32::from(a.num_elements)));
            address_elements = within_limit(
                u64::from(address_elements) + u64::from(a.num_elements),
                &|| String::from("the address variables"),
            )?;
        }
        let mut predicates = vec![(0, 0)];
        let mut predicate_bits = 0;
        for p in r.predicate_info() {
            predicates.push((predicate_bits, u32::from(p.num_elements)));
            predicate_bits = within_limit(
                u64::from(predicate_bits) + u64::from(p.num_elements),
                &|| String::from("the predicate variables"),
            )?;
        }
        Ok(Layout {
            grf,
            vars,
            predefined_bytes,
            bytes,
            addresses,
            address_elements,
            predicates,
            predicate_bits,
        })
    }
}

/// The base of alias `id`: its base variable's, plus its offset, through chains of aliases.
/// Checks that every variable (aliases included) lies inside the activation's `bytes`.
fn inside(vars: &[Var], bytes: u32) -> Result<(), String> {
    let past = |v: &Var| u64::from(v.base) + u64::from(v.size) > u64::from(bytes);
    match vars.iter().enumerate().find(|(_, v)| past(v)) {
        Some((id, v)) => Err(format!(
            "V{id}: {} bytes at register byte {} end past the routine's {bytes} bytes of \
             registers (an alias past its base?)",
            v.size, v.base
        )),
        None => Ok(()),
    }
}

/// Places every alias at its base's bytes plus its offset (chains included), walking each
/// chain once: a file of many aliases costs time in proportion to their number.
fn place_aliases(
    decls: &[crate::object::VarInfo],
    vars: &mut [Var],
    first: usize,
) -> Result<(), String> {
    // 0: an alias not placed yet, 1: on the chain being walked, 2: placed (or a root).
    let mut state: Vec<u8> = (0..vars.len())
        .map(
            |id| match id.checked_sub(first).and_then(|i| decls.get(i)) {
                Some(d) if d.alias_index != 0 => 0,
                _ => 2,
            },
        )
        .collect();
    let mut chain = Vec::new();
    for id in first..vars.len() {
        chain.clear();
        let mut at = id;
        while state[at] != 2 {
            if state[at] == 1 {
                return Err(format!("V{id}: its aliases form a cycle"));
            }
            let d = &decls[at - first];
            if d.alias_scope_specifier != 0 {
                return Err(format!(
                    "V{id}: an alias of a file-scope variable (not supported)"
                ));
            }
            state[at] = 1;
            chain.push(at);
            at = d.alias_index as usize;
            if at >= vars.len() {
                return Err(format!("V{id}: alias of V{at}, which is not declared"));
            }
        }
        let mut base = vars[at].base;
        for &c in chain.iter().rev() {
            base = base.saturating_add(u32::from(decls[c - first].alias_offset));
            vars[c].base = base;
            state[c] = 2;
        }
    }
    Ok(())
}
