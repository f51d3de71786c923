//! The memory instructions: each doc's `## Semantics` run by hand over [`Memory`], reading the
//! instruction's fields by their doc names (through the generated `visit_operands`, so this
//! compiles for any spec: no generated variant is named here).
//!
//! | instructions | module | memory |
//! | --- | --- | --- |
//! | GATHER4_SCALED, SCATTER4_SCALED, GATHER_SCALED, SCATTER_SCALED, GATHER, SCATTER, OWORD_LD, OWORD_LD_UNALIGNED, OWORD_ST, DWORD_ATOMIC | [`legacy`] | a surface variable: T0 SLM, T5 scratch (see `surface_space`), T6 and up a binding-table index the surface variable holds |
//! | SVM_GATHER, SVM_SCATTER, SVM_BLOCK_LD, SVM_BLOCK_ST, SVM_ATOMIC | [`svm`] | 64-bit virtual addresses |
//! | LSC_UNTYPED (load, store, atomics; strided, quad, block2d and append counters are errors) | [`lsc`] | `.ugm` flat (64-bit addresses) or `bti(N)`, `.slm` |
//! | SCATTER4_TYPED, GATHER4_TYPED, 3D_LOAD (`ld_lz`, `ld` at LOD 0) | [`typed`] | an image a surface variable names: a binding-table index, or `%bss`'s bindless handle |
//! | INFO (`resinfo`) | [`typed`] | the same: an image's size |
//! | LSC_TYPED (`lsc_load_quad.tgm`, `lsc_store_quad.tgm`) | [`typed`] | `bti(N)` or `bss(V)`: an image's binding-table index or bindless handle |
//! | 3D_SAMPLE (`sample`, `sample_b`, `sample_l`, `sample_lz`) | [`sample`] | the same, through a sampler state a sampler variable's index names |
//! | FENCE, LSC_FENCE, CACHE_FLUSH | here | none: no-ops (below) |
//!
//! Fences and cache flushes do nothing here, by design: this machine has no caches and every
//! access is performed, in program order, when its instruction runs, so "all previous reads and
//! writes from the issuing thread have been globally observed" (`3_execution_model.md`, "Memory
//! Model") holds at every instruction boundary. The other memory instructions (typed reads,
//! samplers, media and VME messages, RAW_SEND) are errors naming them.

pub mod legacy;
pub mod lsc;
pub mod sample;
pub mod svm;
pub mod typed;

use super::memory::{Memory, MemoryError, Space};
use crate::generated::Instruction;
use crate::runtime::{
    DataType, ExecSize, Lanes, OperandVisitor, PredicateControl, RawOperand, Value, VectorOperand,
};
use alloc::format;
use alloc::vec::Vec;

/// What the memory instructions need of a machine beyond [`Lanes`].
pub trait MessageLanes: Lanes {
    /// The value of surface variable `T<index>` (`index` ≥ 6): the binding-table index a
    /// `MOVS` last wrote to it. T0-T5 are predefined and never asked for.
    fn surface(&mut self, index: u32) -> Result<u32, Self::Error>;
    /// The value of sampler variable `S<index>`: the sampler index a `MOVS` last wrote to it.
    fn sampler(&mut self, index: u32) -> Result<u32, Self::Error>;
    /// Element `index` of `size` bytes (1, 2, 4 or 8) of a raw operand, as bits: what
    /// [`Lanes::read_raw`] reads as the unsigned type of that size. A machine may read the
    /// bytes directly.
    fn raw_bits(&mut self, op: &RawOperand, size: u32, index: u32) -> Result<u64, Self::Error> {
        self.read_raw(op, bits_type(size), index).map(to_bits)
    }
    /// Writes element `index` of `size` bytes of a raw operand from bits, as
    /// [`Lanes::write_raw`] writes the unsigned type of that size.
    fn put_raw_bits(
        &mut self,
        op: &RawOperand,
        size: u32,
        index: u32,
        bits: u64,
    ) -> Result<(), Self::Error> {
        let ty = bits_type(size);
        self.write_raw(op, ty, index, Value::Int(i128::from(bits), ty))
    }
}

/// Runs `inst` if it is a memory instruction; `None` when it is not one.
pub fn run<L: MessageLanes + ?Sized>(
    inst: &Instruction,
    l: &mut L,
    mem: &mut Memory,
) -> Option<Result<(), L::Error>>
where
    L::Error: From<MemoryError>,
{
    let name = inst.name();
    if !is_memory(name) {
        return None;
    }
    let mut f = Fields::new(name);
    inst.visit_operands(&mut f);
    Some(run_fields(&f, l, mem))
}

/// Whether an instruction (by doc name) is one this module answers for.
pub fn is_memory(name: &str) -> bool {
    SUPPORTED.contains(&name) || NO_OPS.contains(&name) || UNSUPPORTED.contains(&name)
}

/// The instructions run here.
pub const SUPPORTED: &[&str] = &[
    "GATHER4_SCALED",
    "SCATTER4_SCALED",
    "GATHER_SCALED",
    "SCATTER_SCALED",
    "GATHER",
    "SCATTER",
    "OWORD_LD",
    "OWORD_LD_UNALIGNED",
    "OWORD_ST",
    "DWORD_ATOMIC",
    "SVM_GATHER",
    "SVM_SCATTER",
    "SVM_BLOCK_LD",
    "SVM_BLOCK_ST",
    "SVM_ATOMIC",
    "LSC_UNTYPED",
    "LSC_TYPED",
    "SCATTER4_TYPED",
    "GATHER4_TYPED",
    "3D_LOAD",
    "3D_SAMPLE",
    "INFO",
];

/// Fences and cache flushes: no-ops (see the module docs).
pub const NO_OPS: &[&str] = &["FENCE", "LSC_FENCE", "CACHE_FLUSH"];

/// Memory instructions this machine does not run yet: an error naming them.
pub const UNSUPPORTED: &[&str] = &[
    "QW_GATHER",
    "QW_SCATTER",
    "SVM_GATHER4_SCALED",
    "SVM_SCATTER4_SCALED",
    "MEDIA_LD",
    "MEDIA_ST",
    "SAMPLE_UNORM",
    "3D_SAMPLE4",
    "AVS",
    "VME_IME",
    "VME_SIC",
    "VME_FBR",
    "RT_READ",
    "RT_WRITE",
    "RAW_SEND",
    "RAW_SENDS",
    "SVM",
];

/// Runs a memory instruction from its fields (what [`run`] collected).
pub fn run_fields<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    match f.name {
        "GATHER4_SCALED" | "SCATTER4_SCALED" => legacy::scaled4(f, l, mem),
        "GATHER_SCALED" | "SCATTER_SCALED" => legacy::scaled(f, l, mem),
        "GATHER" | "SCATTER" => legacy::gather(f, l, mem),
        "OWORD_LD" | "OWORD_LD_UNALIGNED" | "OWORD_ST" => legacy::oword(f, l, mem),
        "DWORD_ATOMIC" => legacy::dword_atomic(f, l, mem),
        "SVM_GATHER" | "SVM_SCATTER" => svm::scattered(f, l, mem),
        "SVM_BLOCK_LD" | "SVM_BLOCK_ST" => svm::block(f, l, mem),
        "SVM_ATOMIC" => svm::atomic(f, l, mem),
        "LSC_UNTYPED" => lsc::untyped(f, l, mem),
        "LSC_TYPED" => typed::lsc_typed(f, l, mem),
        "SCATTER4_TYPED" => typed::scatter4(f, l, mem),
        "GATHER4_TYPED" => typed::gather4(f, l, mem),
        "3D_LOAD" => typed::load(f, l, mem),
        "3D_SAMPLE" => sample::sample(f, l, mem),
        "INFO" => typed::info(f, l, mem),
        n if NO_OPS.contains(&n) => Ok(()),
        n => Err(MemoryError::Unsupported {
            instruction: f.name,
            what: format!("the memory instruction {n}"),
        }
        .into()),
    }
}

/// The fields of one instruction by doc name, as the generated `visit_operands` gives them.
#[derive(Clone, Debug)]
pub struct Fields {
    /// The instruction's doc name (`GATHER4_SCALED`).
    pub name: &'static str,
    pub exec_size: Option<u8>,
    pub pred: Option<PredicateControl>,
    /// Whole-field integers: indices, counts, enumerated values and bit fields, raw.
    pub ints: Vec<(&'static str, u64)>,
    pub vectors: Vec<(&'static str, VectorOperand)>,
    pub raws: Vec<(&'static str, RawOperand)>,
}

impl Fields {
    pub fn new(name: &'static str) -> Fields {
        Fields {
            name,
            exec_size: None,
            pred: None,
            ints: Vec::new(),
            vectors: Vec::new(),
            raws: Vec::new(),
        }
    }

    fn missing(&self, field: &'static str) -> MemoryError {
        MemoryError::MissingField {
            instruction: self.name,
            field,
        }
    }

    /// An integer field, raw.
    pub fn int(&self, field: &'static str) -> Result<u64, MemoryError> {
        self.ints
            .iter()
            .find(|(n, _)| *n == field)
            .map(|(_, v)| *v)
            .ok_or_else(|| self.missing(field))
    }

    /// An integer field, or `default` when the format has none.
    pub fn int_or(&self, field: &'static str, default: u64) -> u64 {
        self.int(field).unwrap_or(default)
    }

    pub fn vector(&self, field: &'static str) -> Result<VectorOperand, MemoryError> {
        self.vectors
            .iter()
            .find(|(n, _)| *n == field)
            .map(|(_, v)| *v)
            .ok_or_else(|| self.missing(field))
    }

    pub fn raw(&self, field: &'static str) -> Result<RawOperand, MemoryError> {
        self.raws
            .iter()
            .find(|(n, _)| *n == field)
            .map(|(_, v)| *v)
            .ok_or_else(|| self.missing(field))
    }

    /// A raw operand that may be absent or the null variable V0 (`None` for both).
    pub fn raw_opt(&self, field: &'static str) -> Option<RawOperand> {
        self.raw(field).ok().filter(|r| r.id != 0)
    }

    /// The exec-size byte.
    pub fn exec(&self) -> Result<ExecSize, MemoryError> {
        self.exec_size
            .map(ExecSize)
            .ok_or_else(|| self.missing("Exec_size"))
    }

    /// An error saying a form of this instruction is not run here.
    pub fn unsupported(&self, what: impl Into<alloc::string::String>) -> MemoryError {
        MemoryError::Unsupported {
            instruction: self.name,
            what: what.into(),
        }
    }
}

impl OperandVisitor for Fields {
    fn exec_size(&mut self, raw: u8) {
        self.exec_size = Some(raw);
    }
    fn predicate(&mut self, _field: &'static str, p: PredicateControl) {
        self.pred = Some(p);
    }
    fn vector(&mut self, field: &'static str, op: &VectorOperand) {
        self.vectors.push((field, *op));
    }
    fn raw(&mut self, field: &'static str, op: &RawOperand) {
        self.raws.push((field, *op));
    }
    fn index(&mut self, field: &'static str, value: u32) {
        self.ints.push((field, u64::from(value)));
    }
    fn value(&mut self, field: &'static str, bits: u64) {
        self.ints.push((field, bits));
    }
}

/// The element type of `size` bytes that moves bits unchanged (UB, UW, UD, UQ).
pub(crate) fn bits_type(size: u32) -> DataType {
    match size {
        1 => DataType::Ub,
        2 => DataType::Uw,
        8 => DataType::Uq,
        _ => DataType::Ud,
    }
}

/// The bits of a value as an element of its type holds them (two's complement for integers,
/// IEEE bits for floats of their type).
pub(crate) fn to_bits(v: Value) -> u64 {
    match v {
        Value::Int(i, _) => i as u64,
        Value::Float(x, DataType::F) => u64::from((x as f32).to_bits()),
        Value::Float(x, _) => x.to_bits(),
        Value::Bool(b) => u64::from(b),
    }
}

/// Element `index` of `size` bytes of a raw operand, as bits.
#[inline]
pub(crate) fn get<L: MessageLanes + ?Sized>(
    l: &mut L,
    op: &RawOperand,
    size: u32,
    index: u32,
) -> Result<u64, L::Error> {
    l.raw_bits(op, size, index)
}

/// Writes element `index` of `size` bytes of a raw operand.
#[inline]
pub(crate) fn put<L: MessageLanes + ?Sized>(
    l: &mut L,
    op: &RawOperand,
    size: u32,
    index: u32,
    bits: u64,
) -> Result<(), L::Error> {
    l.put_raw_bits(op, size, index, bits)
}

/// A scalar operand (`Offset`, `Address`) as bits: lane 0 of its region.
pub(crate) fn scalar<L: Lanes + ?Sized>(l: &mut L, op: &VectorOperand) -> Result<u64, L::Error> {
    l.read(op, 0).map(to_bits)
}

/// Starts the instruction (exec size and predicate) and lists the lanes that run.
pub(crate) fn lanes<L: Lanes + ?Sized>(
    l: &mut L,
    exec: ExecSize,
    pred: Option<PredicateControl>,
) -> Result<Run, L::Error> {
    let n = l.begin(exec, pred)?;
    let mut run = Run {
        lanes: [0; 32],
        len: 0,
    };
    for i in (0..n.min(32)).filter(|&i| l.enabled(i)) {
        run.lanes[run.len] = i;
        run.len += 1;
    }
    Ok(run)
}

/// The lanes of a message that run, in order (at most 32, kept inline).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    lanes: [u32; 32],
    len: usize,
}

impl core::ops::Deref for Run {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.lanes[..self.len.min(32)]
    }
}

impl<'a> IntoIterator for &'a Run {
    type Item = &'a u32;
    type IntoIter = core::slice::Iter<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for Run {
    type Item = u32;
    type IntoIter = core::iter::Take<core::array::IntoIter<u32, 32>>;
    fn into_iter(self) -> Self::IntoIter {
        self.lanes.into_iter().take(self.len)
    }
}

/// The memory a surface variable of a legacy message names: "0: T0 - Shared Local Memory
/// (SLM) access" (DWORD_ATOMIC.md, `Surface`); T5 the scratch surface: the docs call it "5:
/// T255 - Stateless surface access" (DWORD_ATOMIC.md, OWORD_LD.md), but Intel's compiler
/// prints T5 as `%scratch` and addresses it from the thread's scratch offset in `r0.5`
/// (private arrays of kernel `private_memory` on tgllp, skl, icllp, dg1), so it is
/// [`Space::Scratch`] here. T4 is `%bss`, the bindless surface state: it holds the handle a
/// `MOVS` wrote, which names a surface as a binding-table index does. T6 and up hold a
/// binding-table index, where 254 is SLM and 255 stateless.
pub(crate) fn surface_space<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    index: u32,
) -> Result<Space, L::Error>
where
    L::Error: From<MemoryError>,
{
    Ok(match index {
        0 => Space::Slm,
        5 => Space::Scratch,
        // %bss: the bindless surface a `movs %bss(0) V` names (IGC 2.x's images:
        // `movs (M1_NM, 1) %bss(0) V0061(0,0)<0;1,0>` then `load_lz ... %bss ...`); launch
        // binds each bindless image and buffer at its handle.
        4 => Space::Surface(l.surface(4)?),
        1..=3 => {
            return Err(f
                .unsupported(format!(
                    "predefined surface T{index} (only T0, SLM, and T5, scratch, are)"
                ))
                .into())
        }
        _ => match l.surface(index)? {
            254 => Space::Slm,
            255 => Space::Stateless,
            bti => Space::Surface(bti),
        },
    })
}

#[cfg(test)]
pub(crate) mod test_lanes;
