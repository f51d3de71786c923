//! Launching a kernel over an ndrange: its arguments, the thread payload Intel's compiler
//! expects (`%r0`, the local ids, the cross-thread data the `.input` directives address), one
//! work-group after another.
//!
//! The docs say only that an input "may have one of the following storage classes: General,
//! Sampler, and Surface", where it sits in the GRF (`offset`, `size`) and, through the kind's
//! provenance field, which CM runtime implicit argument it is (`4_visa_header.md`, "Input
//! Variables"). Intel's OpenCL compiler writes every input with kind 0 (`../shared/notes`,
//! `visa-object-file.md`: "All inputs seen are kind 0"), so what each input holds is read here
//! from Intel's own output: the layout below, its evidence and its limits are in
//! `PAYLOAD.md` beside this file (`runtime/machine/PAYLOAD.md`).
//! In short, for a GRF of `G` bytes (32 on tgllp and acm-g10) and a kernel of SIMD width `S`:
//!
//! - `r0` (bytes `0..32`): the work-group id in dwords 1 (x), 6 (y) and 7 (z), the thread's
//!   scratch offset in dword 5;
//! - the per-thread local ids (`PerThreadInputSize` bytes from byte `G`, when the kernel has the
//!   attribute): three arrays of `S` words, x then y then z, each a third of that size;
//! - the cross-thread data, from byte `C` = `G + PerThreadInputSize` on XeHP and later
//!   (DG2, PVC: the first cross-thread register travels as inline data) and
//!   `G + max(PerThreadInputSize, G)` before (tgllp); in it, at offset 0 the payload header
//!   (global offset x, y, z then local size x, y, z, as dwords), then from offset 32 the
//!   explicit arguments: the `local` pointers (their SLM offsets), then the global and constant
//!   buffers (64-bit addresses), then the by-value scalars, each in parameter order; then the
//!   implicit arguments the kernel uses, in IGC's order: private base, buffer offsets, work
//!   dimensions, number of groups, global size, local size, enqueued local size. Each value
//!   is aligned to its size and moved to the next register when it would straddle one.
//!
//! Where the `.input`s fit several sets of implicit arguments that give a 12-byte input
//! different values (the global size or the number of groups), [`layout`] refuses, naming them.
//! [`layout_described`] and [`launch_described`] take the layout from Intel's own description
//! instead (zeinfo or patch tokens: [`super::zeinfo`], [`super::program`]), with the
//! program-scope data of the binary (PAYLOAD.md, "Described layouts").
//!
//! Buffers are also bound to binding-table indices 0, 1, ... in parameter order, since Intel's
//! compiler reaches them through surfaces (`movs T6 0x1` + `gather4_scaled ... T6`) as often as
//! through their addresses; read-only images come first in that table, written images take
//! their place among the buffers, and images have no payload slot (PAYLOAD.md, "Images").

use super::image::{Image, ImageFormat};
use super::memory::{BufferId, Memory, MemoryError};
use super::sampler::SamplerState;
use crate::object::File;
use crate::runtime::IntelPlatform;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// SLM bytes reserved for the kernel's own `local` arrays before the `local` pointer
/// arguments: the object file does not say how many the kernel uses (its `SLMSize` attribute
/// is not written by Intel's OpenCL compiler), so the largest SLM of these platforms, 64 KiB.
pub const STATIC_SLM: u32 = 64 * 1024;

/// Bytes of the private-memory area a kernel's private base points at.
pub const PRIVATE_BYTES: usize = 16 << 20;

/// What the program-scope `constant` and `global` buffer addresses are given: an address no
/// buffer covers (their bytes are in the compiler's binary, not in the `.isa`), so a kernel
/// that reads program-scope data stops with an error naming an address from here.
pub const PROGRAM_SCOPE_BASE: u64 = 0x0000_00C0_0000_0000;

/// Scratch bytes per thread (at least; more when the kernel's `SpillMemOffset` asks): thread
/// `t` of a work-group finds its scratch at `t * scratch` in `r0.5` (bits 31..10, as Intel's
/// code reads them: `and ... V0036(0,5) 0xfffffc00:d`).
pub const SCRATCH_PER_THREAD: u32 = 128 * 1024;

/// A scalar argument's type, as `visa run --scalar TYPE:VALUE` names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScalarType {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl ScalarType {
    pub const ALL: &'static [(&'static str, ScalarType)] = &[
        ("i8", ScalarType::I8),
        ("u8", ScalarType::U8),
        ("i16", ScalarType::I16),
        ("u16", ScalarType::U16),
        ("i32", ScalarType::I32),
        ("u32", ScalarType::U32),
        ("i64", ScalarType::I64),
        ("u64", ScalarType::U64),
        ("f32", ScalarType::F32),
        ("f64", ScalarType::F64),
    ];

    /// Bytes of a value.
    pub fn size(self) -> u32 {
        use ScalarType::*;
        match self {
            I8 | U8 => 1,
            I16 | U16 => 2,
            I32 | U32 | F32 => 4,
            I64 | U64 | F64 => 8,
        }
    }

    pub fn name(self) -> &'static str {
        ScalarType::ALL
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("?", |(n, _)| n)
    }
}

/// A scalar argument: its type and its bytes (little-endian, `size()` of them in the low bits).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Scalar {
    pub ty: ScalarType,
    pub bits: u64,
}

impl Scalar {
    /// Reads `TYPE:VALUE` (`i32:5`, `u64:0x7`, `i8:-3`, `f32:1.5`).
    pub fn parse(text: &str) -> Result<Scalar, String> {
        let (ty, value) = text
            .split_once(':')
            .ok_or_else(|| format!("`{text}`: expected TYPE:VALUE (i32:5, u64:7, f32:1.5)"))?;
        let ty = ScalarType::ALL
            .iter()
            .find(|(n, _)| *n == ty)
            .map(|(_, t)| *t)
            .ok_or_else(|| {
                format!("`{text}`: unknown type `{ty}` (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)")
            })?;
        let bad = |why: &str| format!("`{text}`: `{value}` is not a {}: {why}", ty.name());
        let bits = match ty {
            ScalarType::F32 => u64::from(
                value
                    .parse::<f32>()
                    .map_err(|e| bad(&e.to_string()))?
                    .to_bits(),
            ),
            ScalarType::F64 => value
                .parse::<f64>()
                .map_err(|e| bad(&e.to_string()))?
                .to_bits(),
            _ => {
                let (neg, digits) = value
                    .strip_prefix('-')
                    .map_or((false, value), |d| (true, d));
                let n = match digits
                    .strip_prefix("0x")
                    .or_else(|| digits.strip_prefix("0X"))
                {
                    Some(hex) => i128::from_str_radix(hex, 16),
                    None => digits.parse::<i128>(),
                }
                .map_err(|e| bad(&e.to_string()))?;
                let n = if neg { -n } else { n };
                let signed = matches!(
                    ty,
                    ScalarType::I8 | ScalarType::I16 | ScalarType::I32 | ScalarType::I64
                );
                let bits = ty.size() * 8;
                let (lo, hi) = if signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                if n < lo || n > hi {
                    return Err(bad(&format!("out of range {lo}..={hi}")));
                }
                (n as u64) & mask(ty.size())
            }
        };
        Ok(Scalar { ty, bits })
    }
}

fn mask(size: u32) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A `global` buffer with its initial bytes.
    Buffer(Vec<u8>),
    /// A `constant` buffer with its initial bytes: Intel's compiler places `constant` pointers
    /// after the `global` ones in the payload and in the binding table (PAYLOAD.md).
    Constant(Vec<u8>),
    /// A by-value scalar.
    Scalar(Scalar),
    /// A `local` pointer to this many bytes of SLM.
    LocalMem(u32),
    /// An image with its texels; `written` when the kernel writes it (a `write_only` image),
    /// which decides its binding-table index (PAYLOAD.md, "Images").
    Image {
        image: Image,
        bytes: Vec<u8>,
        written: bool,
    },
    /// A `sampler_t` parameter: no payload slot, bound at the next sampler index (sampler
    /// parameters take indices 0, 1, ... in parameter order: `movs S0 0x0` before the
    /// `sample_lz` of kernel `arg_s`, PAYLOAD.md "Samplers").
    Sampler(SamplerState),
}

impl Arg {
    fn kind(&self) -> &'static str {
        match self {
            Arg::Buffer(_) => "--buffer",
            Arg::Constant(_) => "--constant",
            Arg::Scalar(_) => "--scalar",
            Arg::LocalMem(_) => "--local-mem",
            Arg::Image { .. } => "--image",
            Arg::Sampler(_) => "--sampler",
        }
    }
}

/// Global and local sizes (1 to 3 dimensions; missing ones are 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub dims: u32,
    pub global: [u32; 3],
    pub local: [u32; 3],
}

impl NdRange {
    /// Checks the sizes: each positive, the global a multiple of the local (OpenCL 1.2's
    /// uniform work-groups), and `dims` 1 to 3.
    pub fn new(global: &[u32], local: &[u32]) -> Result<NdRange, String> {
        if global.is_empty() || global.len() > 3 {
            return Err(format!(
                "--global has {} sizes; expected 1 to 3",
                global.len()
            ));
        }
        if local.len() != global.len() {
            return Err(format!(
                "--local has {} dimension(s), --global {}",
                local.len(),
                global.len()
            ));
        }
        let mut nd = NdRange {
            dims: global.len() as u32,
            global: [1; 3],
            local: [1; 3],
        };
        for d in 0..global.len() {
            if global[d] == 0 || local[d] == 0 {
                return Err(format!("dimension {d}: sizes must be positive"));
            }
            if !global[d].is_multiple_of(local[d]) {
                return Err(format!(
                    "--global {} is not a multiple of --local {} in dimension {d}",
                    global[d], local[d]
                ));
            }
            nd.global[d] = global[d];
            nd.local[d] = local[d];
        }
        let items = nd.local.iter().map(|&x| u64::from(x)).product::<u64>();
        if items > 1024 {
            return Err(format!("a work-group of {items} work-items (at most 1024)"));
        }
        let total = nd.global.iter().map(|&x| u64::from(x)).product::<u64>();
        if total > super::limits::MAX_WORK_ITEMS {
            return Err(format!(
                "--global: an NDRange of {total} work-items; at most {} \
                 (`machine::limits::MAX_WORK_ITEMS`)",
                super::limits::MAX_WORK_ITEMS
            ));
        }
        Ok(nd)
    }

    /// The default local size when none is given: in dimension 0 the largest divisor of the
    /// global size up to 64, 1 elsewhere.
    pub fn default_local(global: &[u32]) -> Vec<u32> {
        global
            .iter()
            .enumerate()
            .map(|(d, &g)| {
                if d == 0 {
                    (1..=g.min(64))
                        .rev()
                        .find(|l| g.is_multiple_of(*l))
                        .unwrap_or(1)
                } else {
                    1
                }
            })
            .collect()
    }

    /// Work-groups per dimension.
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.global[d] / self.local[d])
    }

    /// Work-items per work-group.
    pub fn group_items(&self) -> u32 {
        self.local.iter().product()
    }
}

/// Why a kernel cannot be launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchError(pub String);

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<MemoryError> for LaunchError {
    fn from(e: MemoryError) -> Self {
        LaunchError(e.to_string())
    }
}

fn err<T>(s: String) -> Result<T, LaunchError> {
    Err(LaunchError(s))
}

/// An implicit argument of Intel's OpenCL compiler (the names of its zeinfo `arg_type`s).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Implicit {
    /// The program-scope `constant` buffer (patch-token binaries only).
    ConstantBase,
    /// The program-scope `global` buffer (patch-token binaries only).
    GlobalBase,
    PrivateBase,
    /// `buffer_offset` of the n-th buffer parameter (its position among all parameters).
    BufferOffset(usize),
    WorkDim,
    NumGroups,
    GlobalSize,
    LocalSize,
    EnqueuedLocalSize,
    /// `image_height` of the n-th parameter (an image).
    ImageHeight(usize),
    ImageWidth(usize),
    ImageDepth(usize),
    /// `image_channel_data_type` (OpenCL's `CL_FLOAT`, `CL_UNORM_INT8`, ... value).
    ImageChannelDataType(usize),
    /// `image_channel_order` (OpenCL's `CL_R`, `CL_RG`, `CL_RGBA` value).
    ImageChannelOrder(usize),
    /// `sampler_address` of the n-th parameter (a sampler): [`SamplerState::address_arg`].
    SamplerAddress(usize),
    /// `sampler_normalized`: [`SamplerState::normalized_arg`].
    SamplerNormalized(usize),
    /// `sampler_snap_wa`: [`SamplerState::snap_wa_arg`].
    SamplerSnapWa(usize),
    /// The global offset (zeinfo `global_id_offset`; 0 in every dimension).
    GlobalOffset,
    /// The address of the implicit-argument buffer (zeinfo `implicit_arg_buffer`).
    ImplicitArgBuffer,
    /// The address of a copy of the cross-thread data (zeinfo `indirect_data_pointer`).
    IndirectData,
    /// The address of a scratch area (zeinfo `scratch_pointer`).
    ScratchPointer,
    /// The bindless handle of buffer parameter `n` (zeinfo `arg_bypointer` with `addrmode:
    /// bindless`): [`BINDLESS_FIRST`] + `n`, the index the buffer is also bound at, which an
    /// LSC message's `bss(...)` surface names.
    Bindless(usize),
    /// The bindless handle of the program-scope `constant` (0) or `global` (1) data:
    /// [`BINDLESS_PROGRAM`] + 0 or 1.
    ProgramBindless(u8),
    /// The bindless handle of sampler parameter `n` (zeinfo `arg_bypointer` with `addrspace:
    /// sampler`, `addrmode: bindless`): [`BINDLESS_SAMPLER`] + 32 `n`, the handle its state is
    /// bound at, which the code ORs with 1 and moves to `S31`.
    SamplerBindless(usize),
    /// The bindless handle of the inline sampler of sampler index `n` (zeinfo
    /// `inline_sampler`): [`BINDLESS_INLINE_SAMPLER`] + 32 `n`.
    InlineSampler(u32),
}

/// The first bindless handle of the sampler parameters (32 apart: a sampler state's alignment
/// leaves bit 0 free for the flag the code sets, see `messages::sample`).
pub const BINDLESS_SAMPLER: u32 = 0x1000;

/// The first bindless handle of the inline samplers (32 apart).
pub const BINDLESS_INLINE_SAMPLER: u32 = 0x2000;

/// The bindless handles of the program-scope `constant` and `global` data.
pub const BINDLESS_PROGRAM: u32 = 0x200;

/// The first index of the bindless handles launch gives buffers (past the 256 binding-table
/// indices of stateful surfaces).
pub const BINDLESS_FIRST: u32 = 0x100;

impl Implicit {
    fn size(self) -> u32 {
        match self {
            Implicit::ConstantBase
            | Implicit::GlobalBase
            | Implicit::PrivateBase
            | Implicit::ImplicitArgBuffer
            | Implicit::IndirectData
            | Implicit::ScratchPointer => 8,
            Implicit::NumGroups
            | Implicit::GlobalSize
            | Implicit::LocalSize
            | Implicit::EnqueuedLocalSize
            | Implicit::GlobalOffset => 12,
            _ => 4,
        }
    }
    fn align(self) -> u32 {
        match self {
            Implicit::ConstantBase | Implicit::GlobalBase | Implicit::PrivateBase => 8,
            _ => 4,
        }
    }
}

/// What one input of the kernel holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Holds {
    /// Part of `r0`.
    R0,
    /// Local ids.
    LocalIds,
    /// The payload header (global offset, local size).
    Header,
    /// Parameter `n` (its position in the kernel's parameter list).
    Arg(usize),
    Implicit(Implicit),
}

/// Where a kernel's inputs are and what each holds, read from its `.input` directives and
/// attributes with the rules of the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Dispatch SIMD width (`SimdSize`).
    pub simd: u32,
    pub grf: u32,
    /// Bytes of local ids per thread (`PerThreadInputSize`).
    pub per_thread: u32,
    /// GRF byte where the cross-thread data starts.
    pub cross: u32,
    /// Cross-thread offset of each parameter, in parameter order.
    pub args: Vec<u32>,
    /// The implicit arguments found, with their cross-thread offsets.
    pub implicits: Vec<(Implicit, u32)>,
    /// Every input: GRF offset, size, what it holds.
    pub inputs: Vec<(u32, u32, Holds)>,
    /// Bytes of input per thread (up to the last input's end, whole registers).
    pub input_bytes: u32,
    /// Scratch bytes per thread.
    pub scratch: u32,
    /// Notes on the layout, printed by `visa run`.
    pub notes: Vec<String>,
    /// Whether the payload header (global offset, local size) is at cross-thread offset 0, as
    /// the layout read from the `.isa` has it; a described layout has `slots` instead.
    pub header: bool,
    /// Bytes of each dimension's local ids (a register-rounded array of `simd` words).
    pub id_stride: u32,
    /// A layout described by zeinfo or patch tokens: every value at its cross-thread offset.
    pub slots: Vec<Slot>,
    /// Binding-table indices the description gives: (parameter, index); empty when the
    /// binding table follows the rule of the module docs.
    pub bindings: Vec<(usize, u32)>,
    /// Binding-table indices of the program-scope `constant` and `global` surfaces.
    pub program_bti: [Option<u32>; 2],
}

/// One value of a described layout: bytes `from..from + size` of what it holds, written at
/// cross-thread offset `at`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub holds: Holds,
    pub at: u32,
    pub size: u32,
    pub from: u32,
}

/// Places an item of `size` bytes aligned to `align` at or after `off`: it moves to the next
/// register when it would straddle one, and items of a register or more start one.
fn place(off: u32, size: u32, align: u32, grf: u32) -> u32 {
    let o = off.div_ceil(align.max(1)) * align.max(1);
    if size >= grf || (o / grf != (o + size - 1) / grf) {
        o.div_ceil(grf) * grf
    } else {
        o
    }
}

/// A kernel attribute's value, little-endian.
fn attribute(file: &File, k: usize, name: &str) -> Option<u64> {
    let data = &file.kernels.get(k)?.data;
    data.attribute_info.iter().find_map(|a| {
        let n = data.string_pool.get(a.name as usize)?;
        (n.as_slice() == name.as_bytes()).then(|| {
            let mut v = [0u8; 8];
            let len = a.value.len().min(8);
            v[..len].copy_from_slice(&a.value[..len]);
            u64::from_le_bytes(v)
        })
    })
}

/// The index of kernel `name` in the file.
pub fn find_kernel(file: &File, name: &str) -> Result<usize, LaunchError> {
    file.header
        .kernel_info
        .iter()
        .position(|k| k.name.as_slice() == name.as_bytes())
        .ok_or_else(|| {
            let names: Vec<String> = file
                .header
                .kernel_info
                .iter()
                .map(|k| String::from_utf8_lossy(&k.name).into_owned())
                .collect();
            LaunchError(format!(
                "no kernel `{name}` in the file (kernels: {})",
                names.join(", ")
            ))
        })
}

/// Whether the platform passes the first cross-thread register as inline data (XeHP and
/// later), which puts the cross-thread data right after the local ids.
fn inline_data(platform: &IntelPlatform) -> bool {
    matches!(platform.name, "XeHP_SDV" | "DG2" | "MTL" | "PVC" | "PVCXT")
}

/// Reads the layout of kernel `k` for these arguments (their kinds and sizes matter).
pub fn layout(
    file: &File,
    k: usize,
    platform: &IntelPlatform,
    args: &[Arg],
) -> Result<Layout, LaunchError> {
    let grf = platform.grf_bytes;
    let simd = simd_size(file, k)?;
    let per_thread = per_thread_bytes(file, k, platform, simd)?;
    let cross = if inline_data(platform) {
        grf + per_thread
    } else {
        grf + per_thread.max(grf)
    };
    let (offs, explicit_end) = explicit_slots(args, grf);
    let mut inputs: Vec<(u32, u32)> = file.kernels[k]
        .data
        .input_info
        .iter()
        .map(|i| (i.offset as u16 as u32, u32::from(i.size)))
        .collect();
    inputs.sort_unstable();
    let parts = Parts {
        grf,
        per_thread,
        cross,
        explicit_end,
        offs: &offs,
        args,
    };
    let mut held = Vec::new();
    let mut rest = Vec::new();
    for &(o, s) in &inputs {
        match parts.holds(o, s)? {
            Some(h) => held.push((o, s, h)),
            None => rest.push((o - cross, s)),
        }
    }
    let all = implicit_layouts(&implicit_candidates(args), &rest, explicit_end, grf);
    let Some(best) = all.first().cloned() else {
        return Err(unexplained(&rest, cross));
    };
    let scratch = scratch_bytes(file, k)?;
    refuse_ambiguity(&all, cross)?;
    let notes = ambiguity_note(&all, &best).into_iter().collect();
    for &(imp, rel) in &best {
        held.push((rel + cross, imp.size(), Holds::Implicit(imp)));
    }
    held.sort_unstable_by_key(|h| h.0);
    let end = inputs.iter().map(|(o, s)| o + s).max().unwrap_or(32);
    Ok(Layout {
        simd,
        grf,
        per_thread,
        scratch,
        cross,
        args: offs,
        implicits: best,
        inputs: held,
        input_bytes: end.div_ceil(grf) * grf,
        notes,
        header: true,
        id_stride: per_thread / 3,
        slots: Vec::new(),
        bindings: Vec::new(),
        program_bti: [None; 2],
    })
}

/// The kernel's SIMD width, from its `SimdSize` attribute.
fn simd_size(file: &File, k: usize) -> Result<u32, LaunchError> {
    match attribute(file, k, "SimdSize") {
        Some(s @ (8 | 16 | 32)) => Ok(s as u32),
        Some(s) => err(format!(
            "the kernel's SimdSize attribute is {s}, not 8, 16 or 32"
        )),
        None => err(
            "the kernel has no SimdSize attribute (not a kernel of Intel's OpenCL compiler?)"
                .into(),
        ),
    }
}

/// The bytes of per-thread input (the three arrays of local ids) after `r0`.
fn per_thread_bytes(
    file: &File,
    k: usize,
    platform: &IntelPlatform,
    simd: u32,
) -> Result<u32, LaunchError> {
    let grf = platform.grf_bytes;
    // Intel's compiler writes `PerThreadInputSize` for tgllp and later; for older platforms
    // (skl, icllp, dg1) it does not, and the local ids are there when an input starts at `r1`.
    let starts_r1 = file.kernels[k]
        .data
        .input_info
        .iter()
        .any(|i| i.offset as u16 as u32 == grf);
    let per_thread = match attribute(file, k, "PerThreadInputSize") {
        Some(p) => p as u32,
        None if starts_r1 && !inline_data(platform) => 3 * (2 * simd).div_ceil(grf) * grf,
        None => 0,
    };
    if !per_thread.is_multiple_of(3) || (per_thread > 0 && per_thread / 3 < simd * 2) {
        return err(format!(
            "PerThreadInputSize {per_thread} does not hold three arrays of {simd} local ids"
        ));
    }
    Ok(per_thread)
}

/// The cross-thread offset of each explicit argument (local pointers, then buffers, then
/// scalars, each in order; images get none) and the offset after the last.
fn explicit_slots(args: &[Arg], grf: u32) -> (Vec<u32>, u32) {
    let mut offs = vec![0u32; args.len()];
    let mut off = 32;
    for group in 0..4 {
        for (i, a) in args.iter().enumerate() {
            let (g, size, align) = match a {
                Arg::LocalMem(_) => (0, 8, 8),
                Arg::Buffer(_) => (1, 8, 8),
                Arg::Constant(_) => (2, 8, 8),
                Arg::Scalar(s) => (3, s.ty.size().max(4), s.ty.size().max(4)),
                // Images and samplers have no slot: the code reaches them by binding-table
                // and sampler index only.
                Arg::Image { .. } | Arg::Sampler(_) => continue,
            };
            if g == group {
                offs[i] = place(off, size, align, grf);
                off = offs[i] + size;
            }
        }
    }
    (offs, off)
}

/// The parts of the payload an input can lie in (GRF byte offsets).
struct Parts<'a> {
    grf: u32,
    per_thread: u32,
    cross: u32,
    explicit_end: u32,
    offs: &'a [u32],
    args: &'a [Arg],
}

impl Parts<'_> {
    /// What the input of `s` bytes at GRF byte `o` holds; `None` for one after the explicit
    /// arguments (an implicit argument, matched later).
    fn holds(&self, o: u32, s: u32) -> Result<Option<Holds>, LaunchError> {
        let (grf, cross) = (self.grf, self.cross);
        Ok(if o + s <= 32 {
            Some(Holds::R0)
        } else if o >= grf && o + s <= grf + self.per_thread {
            Some(Holds::LocalIds)
        } else if o >= cross && o + s <= cross + 32 {
            Some(Holds::Header)
        } else if o >= cross + 32 && o < cross + self.explicit_end {
            Some(Holds::Arg(self.explicit(o, s)?))
        } else if o >= cross + self.explicit_end {
            None
        } else {
            return err(format!(
                "input at GRF byte {o} (size {s}) lies in no part of the payload \
                 (r0, local ids up to {}, cross-thread data from {cross})",
                grf + self.per_thread
            ));
        })
    }

    /// The parameter whose slot the input of `s` bytes at GRF byte `o` is, checked against
    /// the parameter's kind.
    fn explicit(&self, o: u32, s: u32) -> Result<usize, LaunchError> {
        let (offs, args) = (self.offs, self.args);
        let rel = o - self.cross;
        let i = offs.iter().position(|&a| a == rel).ok_or_else(|| {
            LaunchError(format!(
                "input at GRF byte {o} (size {s}) is no parameter's slot: the ARGs given \
                 place the parameters at cross-thread offsets {offs:?} (see PAYLOAD.md); \
                 are their kinds and order the kernel's?"
            ))
        })?;
        let fits = match &args[i] {
            Arg::LocalMem(_) => s == 4 || s == 8,
            Arg::Buffer(_) | Arg::Constant(_) => s == 8,
            Arg::Scalar(sc) => s == sc.ty.size(),
            Arg::Image { .. } | Arg::Sampler(_) => false,
        };
        if !fits {
            return err(format!(
                "parameter {i} ({}) has an input of {s} bytes at GRF byte {o}: \
                 expected {}",
                args[i].kind(),
                match &args[i] {
                    Arg::LocalMem(_) => "a 4-byte SLM offset".to_string(),
                    Arg::Buffer(_) | Arg::Constant(_) => "an 8-byte address".to_string(),
                    Arg::Scalar(sc) => format!("{} bytes of {}", sc.ty.size(), sc.ty.name()),
                    Arg::Image { .. } => "none (an image has no payload slot)".to_string(),
                    Arg::Sampler(_) => "none (a sampler has no payload slot)".to_string(),
                }
            ));
        }
        Ok(i)
    }
}

/// Intel's implicit arguments in the order they may follow the explicit ones.
fn implicit_candidates(args: &[Arg]) -> Vec<Implicit> {
    let mut cands = vec![
        Implicit::ConstantBase,
        Implicit::GlobalBase,
        Implicit::PrivateBase,
    ];
    cands.extend(
        args.iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Arg::Buffer(_) | Arg::Constant(_)))
            .map(|(i, _)| Implicit::BufferOffset(i)),
    );
    cands.extend([
        Implicit::WorkDim,
        Implicit::NumGroups,
        Implicit::GlobalSize,
        Implicit::LocalSize,
        Implicit::EnqueuedLocalSize,
    ]);
    cands.extend(image_candidates(args));
    cands
}

/// The image and sampler values, each kind over the parameters it applies to, in IGC's order
/// (`KernelArgs.cpp`'s allocation order: image height, width, depth, channel data type,
/// channel order, sampler address, normalized, snap workaround; kernel `queries`, PAYLOAD.md
/// "Images"). Height is offered for images of 2 or 3 dimensions, depth for 3 (an image with
/// more than one row, or slice).
fn image_candidates(args: &[Arg]) -> Vec<Implicit> {
    let images: Vec<(usize, &Image)> = args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Arg::Image { image, .. } => Some((i, image)),
            _ => None,
        })
        .collect();
    let samplers: Vec<usize> = (0..args.len())
        .filter(|&i| matches!(args[i], Arg::Sampler(_)))
        .collect();
    let mut c = Vec::new();
    c.extend(
        images
            .iter()
            .filter(|(_, m)| m.height > 1 || m.depth > 1)
            .map(|(i, _)| Implicit::ImageHeight(*i)),
    );
    c.extend(images.iter().map(|(i, _)| Implicit::ImageWidth(*i)));
    c.extend(
        images
            .iter()
            .filter(|(_, m)| m.depth > 1)
            .map(|(i, _)| Implicit::ImageDepth(*i)),
    );
    c.extend(
        images
            .iter()
            .map(|(i, _)| Implicit::ImageChannelDataType(*i)),
    );
    c.extend(images.iter().map(|(i, _)| Implicit::ImageChannelOrder(*i)));
    c.extend(samplers.iter().map(|&i| Implicit::SamplerAddress(i)));
    c.extend(samplers.iter().map(|&i| Implicit::SamplerNormalized(i)));
    c.extend(samplers.iter().map(|&i| Implicit::SamplerSnapWa(i)));
    c
}

/// Whether a layout's sampler values are ones Intel's code asks for together: a sampler's
/// address mode and normalized flag come as a pair, with the height and width of an image
/// (the integer-image read through a clamp sampler, which turns normalised coordinates into
/// texel ones: kernel `arg_ui`, PAYLOAD.md "Samplers").
fn plausible(set: &[(Implicit, u32)]) -> bool {
    let has = |x: Implicit| set.iter().any(|(i, _)| *i == x);
    set.iter().all(|&(imp, _)| match imp {
        Implicit::SamplerAddress(s) | Implicit::SamplerNormalized(s) => {
            has(Implicit::SamplerAddress(s))
                && has(Implicit::SamplerNormalized(s))
                && set.iter().any(|&(h, _)| match h {
                    Implicit::ImageHeight(m) => has(Implicit::ImageWidth(m)),
                    _ => false,
                })
        }
        _ => true,
    })
}

/// The distinct sequences of implicit arguments that lay out the inputs `rest` (cross-thread
/// offsets and sizes) from offset `off`, the preferred first.
fn implicit_layouts(
    cands: &[Implicit],
    rest: &[(u32, u32)],
    off: u32,
    grf: u32,
) -> Vec<Vec<(Implicit, u32)>> {
    let mut found = Vec::new();
    let mut all = Vec::new();
    match_implicits(cands, rest, off, grf, &mut found, &mut all);
    // The 8-byte values are told apart by preference, not position: the last is the private
    // base (the one a kernel's private memory needs), the ones before it the program-scope
    // constant then global buffers.
    for set in all.iter_mut() {
        let bases: Vec<usize> = (0..set.len()).filter(|&i| set[i].0.size() == 8).collect();
        let names: &[Implicit] = match bases.len() {
            1 => &[Implicit::PrivateBase],
            2 => &[Implicit::ConstantBase, Implicit::PrivateBase],
            _ => &[
                Implicit::ConstantBase,
                Implicit::GlobalBase,
                Implicit::PrivateBase,
            ],
        };
        for (&i, &n) in bases.iter().zip(names) {
            set[i].0 = n;
        }
    }
    let mut unique: Vec<Vec<(Implicit, u32)>> = Vec::new();
    for set in all {
        if plausible(&set) && !unique.contains(&set) {
            unique.push(set);
        }
    }
    // The sort is stable: the search's preference decides among equals.
    unique.sort_by_key(|set| sampler_rank(set));
    unique
}

/// The sampler parameter an implicit value belongs to, if it is a sampler's.
fn sampler_of(i: Implicit) -> Option<usize> {
    match i {
        Implicit::SamplerAddress(s)
        | Implicit::SamplerNormalized(s)
        | Implicit::SamplerSnapWa(s) => Some(s),
        _ => None,
    }
}

/// How likely a layout's image and sampler values are, the likeliest least: a sampler argument
/// a kernel reads through has values (the snap workaround of a float read, or the address and
/// normalized flag of an integer read, kernels `arg_s` and `arg_ui` on tgllp and acm-g10),
/// rarely all three (a float and an integer read through one sampler); then the fewer image
/// values the better (each needs a query, or an integer read, in the kernel).
fn sampler_rank(set: &[(Implicit, u32)]) -> (core::cmp::Reverse<usize>, usize, usize) {
    let mut used: Vec<usize> = set.iter().filter_map(|(i, _)| sampler_of(*i)).collect();
    used.sort_unstable();
    used.dedup();
    // With at most one of each value per sampler, 3 values per sampler means all three.
    let all_three = used
        .iter()
        .filter(|&&s| {
            set.iter()
                .filter(|(i, _)| sampler_of(*i) == Some(s))
                .count()
                == 3
        })
        .count();
    let images = set
        .iter()
        .filter(|(i, _)| {
            matches!(
                i,
                Implicit::ImageHeight(_)
                    | Implicit::ImageWidth(_)
                    | Implicit::ImageDepth(_)
                    | Implicit::ImageChannelDataType(_)
                    | Implicit::ImageChannelOrder(_)
            )
        })
        .count();
    (core::cmp::Reverse(used.len()), all_three, images)
}

/// The error for inputs after the parameters that no sequence of implicit arguments explains.
fn unexplained(rest: &[(u32, u32)], cross: u32) -> LaunchError {
    let list: Vec<String> = rest
        .iter()
        .map(|(o, s)| format!("{s} bytes at GRF byte {}", o + cross))
        .collect();
    LaunchError(format!(
        "inputs after the parameters that no sequence of Intel's implicit arguments \
         (private base, buffer offsets, work dimensions, number of groups, global size, \
         local size, enqueued local size) explains: {}",
        list.join(", ")
    ))
}

/// The implicit argument a layout puts at cross-thread offset `at`, the local size taken as the
/// enqueued local size (the same values: work-groups are uniform).
fn value_at(set: &[(Implicit, u32)], at: u32) -> Option<Implicit> {
    set.iter().find(|s| s.1 == at).map(|s| match s.0 {
        Implicit::LocalSize => Implicit::EnqueuedLocalSize,
        i => i,
    })
}

/// Refuses a layout whose inputs fit sets of implicit arguments that give a 12-byte input
/// different values (the global size, the number of groups, the local size): the `.isa`
/// cannot tell which the kernel reads. The last 12-byte input is taken as the enqueued local
/// size, which every kernel that computes a global id has; a 4-byte input as a buffer offset
/// before the work dimensions (both noted, PAYLOAD.md, "Limits").
fn refuse_ambiguity(all: &[Vec<(Implicit, u32)>], cross: u32) -> Result<(), LaunchError> {
    let Some(best) = all.first() else {
        return Ok(());
    };
    let last12 = best.iter().filter(|s| s.0.size() == 12).map(|s| s.1).max();
    let mut offsets: Vec<u32> = all.iter().flatten().map(|s| s.1).collect();
    offsets.sort_unstable();
    offsets.dedup();
    for at in offsets {
        let mut seen: Vec<Implicit> = all.iter().filter_map(|set| value_at(set, at)).collect();
        seen.sort_unstable_by_key(|i| format!("{i:?}"));
        seen.dedup();
        let sizes12 = seen.iter().all(|i| i.size() == 12);
        if seen.len() < 2 || !sizes12 || Some(at) == last12 {
            continue;
        }
        let names: Vec<String> = seen
            .iter()
            .map(|i| match i {
                Implicit::EnqueuedLocalSize => "LocalSize or EnqueuedLocalSize".to_string(),
                i => format!("{i:?}"),
            })
            .collect();
        return err(format!(
            "the input at GRF byte {} may hold any of {} (the inputs fit several sets of \
             implicit arguments and the .isa cannot tell which the kernel reads): give \
             --zeinfo P.zeinfo or --program K.bin (runtime/machine/PAYLOAD.md, \"Limits\")",
            at + cross,
            names.join(", ")
        ));
    }
    Ok(())
}

/// A note naming the other layouts of implicit arguments the inputs fit, if any differ in
/// values from `best`.
fn ambiguity_note(all: &[Vec<(Implicit, u32)>], best: &[(Implicit, u32)]) -> Option<String> {
    // Alternatives that differ only in local size against enqueued local size give the same
    // values (work-groups are uniform): not worth a note.
    let same = |a: &[(Implicit, u32)], b: &[(Implicit, u32)]| {
        let norm = |i: Implicit| match i {
            Implicit::LocalSize => Implicit::EnqueuedLocalSize,
            i => i,
        };
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.1 == y.1 && norm(x.0) == norm(y.0))
    };
    let names = |set: &[(Implicit, u32)]| -> String {
        let v: Vec<String> = set.iter().map(|(i, o)| format!("{i:?}@{o}")).collect();
        v.join(" ")
    };
    let others: Vec<String> = all
        .iter()
        .skip(1)
        .filter(|o| !same(o, best))
        .take(3)
        .map(|o| names(o))
        .collect();
    (!others.is_empty()).then(|| {
        format!(
            "implicit arguments taken as [{}]; the inputs also fit [{}] (the .isa cannot tell; see PAYLOAD.md)",
            names(best),
            others.join("] or [")
        )
    })
}

/// Scratch bytes per thread: the default, or more when the kernel spills further.
fn scratch_bytes(file: &File, k: usize) -> Result<u32, LaunchError> {
    let spill = attribute(file, k, "SpillMemOffset").unwrap_or(0) as u32;
    if spill > 16 << 20 {
        return err(format!(
            "the kernel's SpillMemOffset is {spill} bytes; this machine gives a thread at most 16 MiB of scratch"
        ));
    }
    Ok(SCRATCH_PER_THREAD.max((spill + SCRATCH_PER_THREAD).div_ceil(1024) * 1024))
}

/// Every way (up to 64) the candidates, in order, each taken or not, lay out exactly the
/// inputs `rest` (cross-thread offsets and sizes) from offset `off`; the preferred first.
/// Preference: a later 12-byte value over an earlier one (a kernel that computes a global id
/// always has the enqueued local size), a buffer offset over the work dimensions.
fn match_implicits(
    cands: &[Implicit],
    rest: &[(u32, u32)],
    off: u32,
    grf: u32,
    taken: &mut Vec<(Implicit, u32)>,
    out: &mut Vec<Vec<(Implicit, u32)>>,
) {
    if out.len() >= 64 {
        return;
    }
    let Some((&(o, s), more)) = rest.split_first() else {
        out.push(taken.clone());
        return;
    };
    let Some((&c, others)) = cands.split_first() else {
        return;
    };
    let at = place(off, c.size(), c.align(), grf);
    let fits = at == o && s == c.size();
    let take_first = !matches!(c.size(), 12);
    for take in [take_first, !take_first] {
        if take && fits {
            taken.push((c, at));
            match_implicits(others, more, at + s, grf, taken, out);
            taken.pop();
        } else if !take {
            match_implicits(others, rest, off, grf, taken, out);
        }
    }
}

/// One thread's start: its input bytes (r0 on), its work-group and how many of its lanes are
/// work-items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadPayload {
    pub input: Vec<u8>,
    pub group_id: [u32; 3],
    pub local_size: [u32; 3],
    /// Lanes `0..lanes` are live (the last thread of a group may be partial).
    pub lanes: u32,
}

/// The values written into every thread's cross-thread data.
struct Values {
    args: Vec<u64>,
    private_base: u64,
    /// Addresses of the program-scope `constant` and `global` data.
    program: [u64; 2],
    implicit_args: u64,
    indirect: u64,
    scratch: u64,
    /// The image and sampler parameters by parameter index.
    images: Vec<(usize, Image)>,
    samplers: Vec<(usize, SamplerState)>,
}

impl Values {
    /// The value of an image or sampler implicit argument (0 for a parameter of another kind,
    /// which the layout never pairs with one).
    fn image_value(&self, imp: Implicit) -> u32 {
        let image = |n: usize| self.images.iter().find(|(i, _)| *i == n).map(|(_, m)| *m);
        let sampler = |n: usize| self.samplers.iter().find(|(i, _)| *i == n).map(|(_, s)| *s);
        let v = match imp {
            Implicit::ImageHeight(n) => image(n).map(|m| m.height),
            Implicit::ImageWidth(n) => image(n).map(|m| m.width),
            Implicit::ImageDepth(n) => image(n).map(|m| m.depth),
            Implicit::ImageChannelDataType(n) => image(n).map(|m| m.format.cl_channel_type()),
            Implicit::ImageChannelOrder(n) => image(n).map(|m| m.format.cl_channel_order()),
            Implicit::SamplerAddress(n) => sampler(n).map(|s| s.address_arg()),
            Implicit::SamplerNormalized(n) => sampler(n).map(|s| s.normalized_arg()),
            Implicit::SamplerSnapWa(n) => sampler(n).map(|s| s.snap_wa_arg()),
            _ => None,
        };
        v.unwrap_or(0)
    }
}

fn put(buf: &mut [u8], at: u32, size: u32, v: u64) {
    let at = at as usize;
    let n = size.min(8) as usize;
    if let Some(dst) = buf.get_mut(at..at + n) {
        dst.copy_from_slice(&v.to_le_bytes()[..n]);
    }
}

fn put3(buf: &mut [u8], at: u32, v: [u32; 3]) {
    for (d, x) in v.iter().enumerate() {
        put(buf, at + 4 * d as u32, 4, u64::from(*x));
    }
}

impl Values {
    /// The values of a launch without program-scope data: the arguments' and a private base.
    fn plain(args: Vec<u64>, private_base: u64) -> Values {
        Values {
            args,
            private_base,
            program: [PROGRAM_SCOPE_BASE; 2],
            implicit_args: PROGRAM_SCOPE_BASE,
            indirect: PROGRAM_SCOPE_BASE,
            scratch: PROGRAM_SCOPE_BASE,
            images: Vec::new(),
            samplers: Vec::new(),
        }
    }
}

/// The bytes of implicit value `imp`, a vector of three dwords or one value.
fn implicit_bytes(imp: Implicit, nd: &NdRange, values: &Values) -> [u8; 12] {
    let three = |v: [u32; 3]| {
        let mut b = [0u8; 12];
        for (d, x) in v.iter().enumerate() {
            b[4 * d..4 * d + 4].copy_from_slice(&x.to_le_bytes());
        }
        b
    };
    let one = |v: u64| {
        let mut b = [0u8; 12];
        b[..8].copy_from_slice(&v.to_le_bytes());
        b
    };
    match imp {
        Implicit::PrivateBase => one(values.private_base),
        Implicit::ConstantBase => one(values.program[0]),
        Implicit::GlobalBase => one(values.program[1]),
        Implicit::ImplicitArgBuffer => one(values.implicit_args),
        Implicit::IndirectData => one(values.indirect),
        Implicit::ScratchPointer => one(values.scratch),
        Implicit::BufferOffset(_) | Implicit::GlobalOffset => one(0),
        Implicit::WorkDim => one(u64::from(nd.dims)),
        Implicit::NumGroups => three(nd.groups()),
        Implicit::GlobalSize => three(nd.global),
        Implicit::LocalSize | Implicit::EnqueuedLocalSize => three(nd.local),
        Implicit::Bindless(i) => one(u64::from(BINDLESS_FIRST) + i as u64),
        Implicit::ProgramBindless(w) => one(u64::from(BINDLESS_PROGRAM + u32::from(w))),
        Implicit::SamplerBindless(i) => one(u64::from(BINDLESS_SAMPLER) + 32 * i as u64),
        Implicit::InlineSampler(n) => one(u64::from(BINDLESS_INLINE_SAMPLER) + 32 * u64::from(n)),
        other => one(u64::from(values.image_value(other))),
    }
}

/// Writes the cross-thread data (the same for every thread of the launch) into `buf`.
fn cross_thread(buf: &mut [u8], layout: &Layout, nd: &NdRange, values: &Values) {
    let c = layout.cross;
    if layout.header {
        put3(buf, c, [0, 0, 0]);
        put3(buf, c + 12, nd.local);
        for (i, &rel) in layout.args.iter().enumerate() {
            put(buf, c + rel, 8, values.args[i]);
        }
    }
    for &(imp, rel) in &layout.implicits {
        let b = implicit_bytes(imp, nd, values);
        let n = imp.size().min(12) as usize;
        if let Some(dst) = buf.get_mut((c + rel) as usize..(c + rel) as usize + n) {
            dst.copy_from_slice(&b[..n]);
        }
    }
    for s in &layout.slots {
        let b: [u8; 12] = match s.holds {
            Holds::Arg(i) => {
                let mut b = [0u8; 12];
                b[..8].copy_from_slice(&values.args[i].to_le_bytes());
                b
            }
            Holds::Implicit(imp) => implicit_bytes(imp, nd, values),
            _ => [0; 12],
        };
        let from = (s.from as usize).min(12);
        let n = (s.size as usize).min(12 - from);
        let at = (c + s.at) as usize;
        if let Some(dst) = buf.get_mut(at..at + n) {
            dst.copy_from_slice(&b[from..from + n]);
        }
    }
}

/// The payloads of the threads of work-group `group`.
fn payloads(layout: &Layout, nd: &NdRange, group: [u32; 3], values: &Values) -> Vec<ThreadPayload> {
    let items = nd.group_items();
    let threads = items.div_ceil(layout.simd);
    let mut template = vec![0u8; layout.input_bytes as usize];
    // r0: group ids in dwords 1, 6, 7.
    put(&mut template, 4, 4, u64::from(group[0]));
    put(&mut template, 24, 4, u64::from(group[1]));
    put(&mut template, 28, 4, u64::from(group[2]));
    cross_thread(&mut template, layout, nd, values);
    let per_dim = layout.id_stride;
    // Arrays of local ids: three, or as many as a described layout's bytes hold.
    let dims = layout.per_thread.checked_div(per_dim).unwrap_or(0).min(3) as usize;
    (0..threads)
        .map(|t| {
            let mut input = template.clone();
            put(&mut input, 20, 4, u64::from(t * layout.scratch));
            let first = t * layout.simd;
            let lanes = (items - first).min(layout.simd);
            if dims > 0 {
                for lane in 0..lanes {
                    let id = first + lane;
                    let xyz = [
                        id % nd.local[0],
                        id / nd.local[0] % nd.local[1],
                        id / (nd.local[0] * nd.local[1]),
                    ];
                    for (d, v) in xyz.iter().enumerate().take(dims) {
                        let at = layout.grf + d as u32 * per_dim + 2 * lane;
                        put(&mut input, at, 2, u64::from(*v));
                    }
                }
            }
            ThreadPayload {
                input,
                group_id: group,
                local_size: nd.local,
                lanes,
            }
        })
        .collect()
}

/// Runs one work-group on a machine.
pub trait GroupRunner {
    /// Runs the threads of one work-group to completion over `mem`; `ws` is the runner's to
    /// keep what it may reuse from one group to the next.
    fn run_group(
        &self,
        threads: &[ThreadPayload],
        mem: &mut Memory,
        ws: &mut super::Workspace,
    ) -> Result<(), String>;

    /// Whether the run is checked (`visa run --check`): the memory gets a checker.
    fn check(&self) -> bool {
        false
    }

    /// Where the work-groups may run on several threads ([`super::parallel`]): the threads,
    /// and this runner as one they may share. `None`: one after another.
    fn parallel(&self) -> Option<(&dyn super::parallel::Parallel, &(dyn GroupRunner + Sync))> {
        None
    }

    /// Instructions run so far against the run's budget, and a way to set it back (after a
    /// parallel attempt that is not kept).
    fn steps_used(&self) -> u64 {
        0
    }
    fn set_steps_used(&self, _steps: u64) {}
}

/// What every work-group of a launch shares.
struct Groups<'a> {
    layout: &'a Layout,
    nd: &'a NdRange,
    values: &'a Values,
    slm: usize,
    scratch: usize,
}

/// The work-groups of `nd` in launch order: x fastest, then y, then z.
fn group_ids(nd: &NdRange) -> Vec<[u32; 3]> {
    let g = nd.groups();
    let mut ids = Vec::new();
    for z in 0..g[2] {
        for y in 0..g[1] {
            for x in 0..g[0] {
                ids.push([x, y, z]);
            }
        }
    }
    ids
}

/// Runs work-groups `ids` one after another over `memory`, each with a fresh SLM and scratch.
fn run_groups(
    runner: &dyn GroupRunner,
    g: &Groups<'_>,
    ids: &[[u32; 3]],
    memory: &mut Memory,
) -> Result<(), LaunchError> {
    let mut ws = super::Workspace::default();
    for &[x, y, z] in ids {
        memory.reset_slm(g.slm);
        memory.reset_scratch(g.scratch);
        memory.begin_group([x, y, z]);
        let threads = payloads(g.layout, g.nd, [x, y, z], g.values);
        runner
            .run_group(&threads, memory, &mut ws)
            .map_err(|e| LaunchError(format!("work-group ({x}, {y}, {z}): {e}")))?;
    }
    Ok(())
}

/// Runs every work-group of a launch: on several threads when the runner allows and that
/// gives the bits of a run on one ([`super::parallel`]), else one after another.
fn run_all(
    runner: &dyn GroupRunner,
    g: &Groups<'_>,
    memory: &mut Memory,
) -> Result<(), LaunchError> {
    let ids = group_ids(g.nd);
    if let Some((par, shared)) = runner.parallel() {
        let before = shared.steps_used();
        let work = |ids: &[[u32; 3]], m: &mut Memory| run_groups(shared, g, ids, m);
        if super::parallel::run(par, &ids, memory, &work) {
            return Ok(());
        }
        shared.set_steps_used(before);
    }
    run_groups(runner, g, &ids, memory)
}

/// What a launch leaves: the memory (the buffers, in parameter order among the buffer
/// parameters) and the notes on the layout.
pub struct Outcome {
    pub memory: Memory,
    /// For each parameter that is a buffer, its buffer in `memory`.
    pub buffers: Vec<(usize, BufferId)>,
    pub layout: Layout,
}

/// Each argument's binding-table index (0 for those without one): the read-only images, then
/// the `global` buffers and the written images, then the `constant` buffers, each in parameter
/// order (zeinfo `binding_table_indices` of kernels `mixed` and `copy_img`, and `order`,
/// PAYLOAD.md).
fn binding_table(args: &[Arg]) -> Vec<u32> {
    let class = |a: &Arg| match a {
        Arg::Image { written: false, .. } => Some(0),
        Arg::Buffer(_) | Arg::Image { written: true, .. } => Some(1),
        Arg::Constant(_) => Some(2),
        Arg::Scalar(_) | Arg::LocalMem(_) | Arg::Sampler(_) => None,
    };
    let mut bti = vec![0; args.len()];
    let mut next = 0;
    for pass in 0..3 {
        for (i, a) in args.iter().enumerate() {
            if class(a) == Some(pass) {
                bti[i] = next;
                next += 1;
            }
        }
    }
    bti
}

/// Launches kernel `k` of `file` over `nd` with `args` (one per kernel parameter, in order):
/// builds the memory (buffers at their addresses and bound at binding-table indices 0, 1, ...
/// in parameter order, the SLM of each work-group, a private area) and each thread's payload,
/// and runs the work-groups one after another (x fastest, then y, then z). The layout is read
/// from the `.isa` ([`layout`]); [`launch_described`] takes it from zeinfo or patch tokens.
pub fn launch(
    runner: &dyn GroupRunner,
    file: &File,
    k: usize,
    platform: &IntelPlatform,
    nd: &NdRange,
    args: Vec<Arg>,
) -> Result<Outcome, LaunchError> {
    let layout = layout(file, k, platform, &args)?;
    run_layout(runner, platform, nd, args, layout, None)
}

/// What a program binary or zeinfo says of a kernel: its payload and the program-scope data.
#[derive(Copy, Clone, Debug)]
pub struct Described<'a> {
    pub kernel: &'a super::zeinfo::ZeKernel,
    /// Program-scope `constant` data (empty when there is none or only zeinfo was given).
    pub constants: &'a [u8],
    /// Program-scope `global` data.
    pub globals: &'a [u8],
}

/// [`launch`] with the layout a program binary or zeinfo describes ([`layout_described`]).
pub fn launch_described(
    runner: &dyn GroupRunner,
    file: &File,
    k: usize,
    platform: &IntelPlatform,
    nd: &NdRange,
    args: Vec<Arg>,
    described: &Described<'_>,
) -> Result<Outcome, LaunchError> {
    let layout = layout_described(file, k, platform, &args, described.kernel)?;
    run_layout(runner, platform, nd, args, layout, Some(described))
}

/// Each parameter's binding-table index: the description's, else [`binding_table`]'s rule.
fn bindings(layout: &Layout, args: &[Arg]) -> Vec<u32> {
    let mut bti = binding_table(args);
    if !layout.bindings.is_empty() {
        for (i, b) in bti.iter_mut().enumerate() {
            *b = layout
                .bindings
                .iter()
                .find(|(p, _)| *p == i)
                .map_or(u32::MAX, |(_, v)| *v);
        }
    }
    bti
}

/// Adds the arguments' memory: buffers and images (bound), the SLM offsets of `local`
/// pointers; returns each parameter's value, the buffers and the SLM bytes used.
fn place_args(
    memory: &mut Memory,
    args: Vec<Arg>,
    bti: &[u32],
    values: &mut Vec<u64>,
    buffers: &mut Vec<(usize, BufferId)>,
) -> Result<u32, LaunchError> {
    let mut slm = STATIC_SLM;
    let mut samplers = 0;
    for (i, a) in args.into_iter().enumerate() {
        values.push(match a {
            Arg::Buffer(bytes) | Arg::Constant(bytes) => {
                let id = memory.add_buffer(bytes)?;
                if bti[i] != u32::MAX {
                    memory.bind(bti[i], id);
                }
                buffers.push((i, id));
                memory.buffer(id).base
            }
            Arg::Image { image, bytes, .. } => {
                let id = memory.add_image(image, bytes)?;
                if bti[i] != u32::MAX {
                    memory.bind(bti[i], id);
                }
                buffers.push((i, id));
                0
            }
            Arg::Sampler(state) => {
                memory.bind_sampler(samplers, state);
                samplers += 1;
                0
            }
            Arg::Scalar(s) => s.bits,
            Arg::LocalMem(n) => {
                let at = slm;
                slm = slm
                    .checked_add(n.div_ceil(16) * 16)
                    .filter(|&end| end <= STATIC_SLM + (16 << 20))
                    .ok_or_else(|| {
                        LaunchError(format!(
                            "parameter {i}: --local-mem {n}: the local pointers take at most 16 MiB here"
                        ))
                    })?;
                u64::from(at)
            }
        });
    }
    Ok(slm)
}

/// A buffer of `bytes` (at least one byte), its address; bound at each index of `binds`.
fn add_data(
    memory: &mut Memory,
    bytes: &[u8],
    binds: impl IntoIterator<Item = u32>,
) -> Result<u64, LaunchError> {
    let id = memory.add_buffer(if bytes.is_empty() {
        vec![0]
    } else {
        bytes.to_vec()
    })?;
    for b in binds {
        memory.bind(b, id);
    }
    Ok(memory.buffer(id).base)
}

/// The sampler states at the indices a description gives: each sampler parameter at its
/// `sampler_index`, each inline sampler at its own and at its bindless handle.
fn bind_described_samplers(
    memory: &mut Memory,
    ze: &super::zeinfo::ZeKernel,
    samplers: &[(usize, SamplerState)],
) {
    for p in &ze.payload {
        let is_sampler = matches!(
            p.kind,
            super::zeinfo::ArgType::ByPointer {
                addrspace: super::zeinfo::AddrSpace::Sampler,
                ..
            }
        );
        if let (true, Some(i), Some(index)) = (is_sampler, p.arg_index, p.sampler_index) {
            if let Some(&(_, state)) = samplers.iter().find(|s| s.0 == i as usize) {
                memory.bind_sampler(index, state);
            }
        }
    }
    for s in &ze.inline_samplers {
        memory.bind_sampler(s.sampler_index, s.state);
        memory.bind_sampler(BINDLESS_INLINE_SAMPLER + 32 * s.sampler_index, s.state);
    }
}

/// The values of a launch: the arguments' and the areas the implicit arguments point at.
fn launch_values(
    memory: &mut Memory,
    layout: &Layout,
    images: Vec<(usize, Image)>,
    samplers: Vec<(usize, SamplerState)>,
    described: Option<&Described<'_>>,
) -> Result<Values, LaunchError> {
    let private = memory.add_zeroed(PRIVATE_BYTES)?;
    let mut values = Values::plain(Vec::new(), memory.buffer(private).base);
    values.images = images;
    values.samplers = samplers;
    if let Some(d) = described {
        let [c, g] = layout.program_bti;
        values.program = [
            add_data(memory, d.constants, c.into_iter().chain([BINDLESS_PROGRAM]))?,
            add_data(
                memory,
                d.globals,
                g.into_iter().chain([BINDLESS_PROGRAM + 1]),
            )?,
        ];
        values.implicit_args = add_data(memory, &[0; IMPLICIT_ARGS_BYTES], None)?;
        values.indirect = add_data(memory, &vec![0; layout.input_bytes as usize], None)?;
        // Zeroed in place (not copied from a zeroed slice): most of it is never touched.
        let scratch = memory.add_zeroed(PRIVATE_BYTES)?;
        values.scratch = memory.buffer(scratch).base;
    }
    Ok(values)
}

/// Bytes of IGC's `implicit_args` structure (`WIFuncs/implicit_args_struct.h`).
const IMPLICIT_ARGS_BYTES: usize = 152;

/// IGC's `implicit_args` for this launch: its size, work dimensions, SIMD width, local
/// size, global size and offset (64-bit each), the local-id table's address, group counts.
fn implicit_args(layout: &Layout, nd: &NdRange, local_ids: u64) -> Vec<u8> {
    let mut b = vec![0u8; IMPLICIT_ARGS_BYTES];
    b[0] = IMPLICIT_ARGS_BYTES as u8;
    b[2] = nd.dims as u8;
    b[3] = layout.simd as u8;
    for d in 0..3 {
        put(&mut b, 4 + 4 * d as u32, 4, u64::from(nd.local[d]));
        put(&mut b, 16 + 8 * d as u32, 8, u64::from(nd.global[d]));
        put(&mut b, 80 + 4 * d as u32, 4, u64::from(nd.groups()[d]));
    }
    put(&mut b, 72, 8, local_ids);
    b
}

/// Writes `bytes` at stateless address `at`.
fn fill(memory: &mut Memory, at: u64, bytes: &[u8]) -> Result<(), LaunchError> {
    for (i, &v) in bytes.iter().enumerate() {
        memory.write(
            super::memory::Space::Stateless,
            at + i as u64,
            1,
            u64::from(v),
        )?;
    }
    Ok(())
}

/// Builds the memory and values of a launch with `layout` and runs its work-groups.
fn run_layout(
    runner: &dyn GroupRunner,
    platform: &IntelPlatform,
    nd: &NdRange,
    args: Vec<Arg>,
    layout: Layout,
    described: Option<&Described<'_>>,
) -> Result<Outcome, LaunchError> {
    let mut memory = Memory::new(platform.grf_bytes);
    let bti = bindings(&layout, &args);
    let images = args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Arg::Image { image, .. } => Some((i, *image)),
            _ => None,
        })
        .collect();
    let samplers: Vec<(usize, SamplerState)> = args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Arg::Sampler(state) => Some((i, *state)),
            _ => None,
        })
        .collect();
    let (mut arg_values, mut buffers) = (Vec::new(), Vec::new());
    let slm = place_args(&mut memory, args, &bti, &mut arg_values, &mut buffers)?;
    for s in &layout.slots {
        match s.holds {
            Holds::Implicit(Implicit::Bindless(i)) => {
                if let Some(&(_, id)) = buffers.iter().find(|b| b.0 == i) {
                    memory.bind(BINDLESS_FIRST + i as u32, id);
                }
            }
            Holds::Implicit(Implicit::SamplerBindless(i)) => {
                if let Some(&(_, state)) = samplers.iter().find(|b| b.0 == i) {
                    memory.bind_sampler(BINDLESS_SAMPLER + 32 * i as u32, state);
                }
            }
            _ => {}
        }
    }
    if let Some(d) = described {
        bind_described_samplers(&mut memory, d.kernel, &samplers);
    }
    let mut values = launch_values(&mut memory, &layout, images, samplers, described)?;
    values.args = arg_values;
    if described.is_some() {
        // The copies the pointers of newer compilers reach: the cross-thread data, the
        // implicit arguments and the local ids of the first work-group's threads.
        let threads = payloads(&layout, nd, [0; 3], &values);
        let ids: Vec<u8> = threads
            .iter()
            .flat_map(|t| {
                t.input[layout.grf as usize..(layout.grf + layout.per_thread) as usize].to_vec()
            })
            .collect();
        let table = add_data(&mut memory, &ids, None)?;
        fill(
            &mut memory,
            values.implicit_args,
            &implicit_args(&layout, nd, table),
        )?;
        if let Some(t) = threads.first() {
            fill(
                &mut memory,
                values.indirect,
                &t.input[layout.cross as usize..],
            )?;
        }
    }
    if runner.check() {
        memory.enable_check();
    }
    let threads = nd.group_items().div_ceil(layout.simd);
    let scratch = u64::from(threads) * u64::from(layout.scratch);
    if scratch > super::limits::MAX_GROUP_SCRATCH {
        return err(format!(
            "{threads} threads of {} scratch bytes each: {scratch} bytes of scratch for a \
             work-group, past the {} this machine gives (`machine::limits::MAX_GROUP_SCRATCH`); \
             a smaller --local or a kernel that spills less",
            layout.scratch,
            super::limits::MAX_GROUP_SCRATCH
        ));
    }
    let groups = Groups {
        layout: &layout,
        nd,
        values: &values,
        slm: slm as usize,
        scratch: scratch as usize,
    };
    run_all(runner, &groups, &mut memory)?;
    Ok(Outcome {
        memory,
        buffers,
        layout,
    })
}

/// One ARG of `visa run`, before its files are read.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    Buffer {
        input: String,
        output: String,
    },
    /// `--constant IN.bin:OUT.bin`: a `constant` pointer parameter.
    Constant {
        input: String,
        output: String,
    },
    Scalar(Scalar),
    LocalMem(u32),
    /// `--image W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]`: an image, written (and saved) when OUT is
    /// given, read-only otherwise.
    Image {
        size: [u32; 3],
        /// How many sizes were given (the image's dimensions).
        dims: u8,
        format: ImageFormat,
        input: String,
        output: Option<String>,
    },
    /// `--sampler normalized|unnormalized,ADDRESS,FILTER`: a `sampler_t` parameter.
    Sampler(SamplerState),
}

/// `W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]` of `--image`.
fn image_spec(v: &str) -> Result<ArgSpec, String> {
    let bad =
        |why: String| format!("--image {v}: {why}; expected W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]");
    let parts: Vec<&str> = v.split(':').collect();
    if !(3..=4).contains(&parts.len()) || parts.iter().any(|p| p.is_empty()) {
        return Err(bad("wrong number of parts".into()));
    }
    let dims = sizes("--image", parts[0]).map_err(bad)?;
    let mut size = [1; 3];
    size[..dims.len()].copy_from_slice(&dims);
    let format = ImageFormat::parse(parts[1]).map_err(bad)?;
    Ok(ArgSpec::Image {
        size,
        dims: dims.len() as u8,
        format,
        input: parts[2].to_string(),
        output: parts.get(3).map(|o| o.to_string()),
    })
}

/// The command line of `visa run` after the file name.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    pub kernel: String,
    pub global: Vec<u32>,
    pub local: Option<Vec<u32>>,
    pub platform: Option<String>,
    pub args: Vec<ArgSpec>,
    /// `--max-steps N`: the run's instruction budget ([`super::Kernel::step_limit`]).
    pub max_steps: Option<u64>,
    /// `--check`: report out-of-bounds accesses, divergent barriers and data races
    /// ([`super::check`]).
    pub check: bool,
    /// `--zeinfo P.zeinfo`: the payload layout from Intel's zeinfo.
    pub zeinfo: Option<String>,
    /// `--program K.bin`: the payload layout and program-scope data from ocloc's binary.
    pub program: Option<String>,
    /// `--threads N`: host threads for the work-groups ([`super::parallel`]); `None`: as
    /// many as the host has.
    pub threads: Option<u32>,
}

fn sizes(flag: &str, text: &str) -> Result<Vec<u32>, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(format!(
            "{flag} {text}: expected 1 to 3 sizes separated by commas"
        ));
    }
    parts
        .iter()
        .map(|p| match p.trim().parse::<u32>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("{flag} {text}: `{p}` is not a positive integer")),
        })
        .collect()
}

/// Reads `--kernel K --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--platform P] ARG...`, ARGs in
/// parameter order: `--buffer IN.bin:OUT.bin`, `--constant IN.bin:OUT.bin` (a `constant`
/// pointer), `--scalar TYPE:VALUE`, `--local-mem BYTES`.
pub fn parse_run(words: &[&str]) -> Result<RunSpec, String> {
    let (mut kernel, mut global, mut local, mut platform) = (None, None, None, None);
    let (mut max_steps, mut check) = (None, false);
    let (mut zeinfo, mut program, mut threads) = (None, None, None);
    let mut args = Vec::new();
    let mut it = words.iter();
    while let Some(&w) = it.next() {
        let mut value = || {
            it.next()
                .copied()
                .ok_or_else(|| format!("{w} needs a value"))
        };
        match w {
            "--kernel" => kernel = Some(value()?.to_string()),
            "--global" => global = Some(sizes(w, value()?)?),
            "--local" => local = Some(sizes(w, value()?)?),
            "--platform" => platform = Some(value()?.to_string()),
            "--check" => check = true,
            "--zeinfo" => zeinfo = Some(value()?.to_string()),
            "--program" => program = Some(value()?.to_string()),
            "--max-steps" => {
                let v = value()?;
                match v.parse::<u64>() {
                    Ok(n) if n > 0 => max_steps = Some(n),
                    _ => return Err(format!("--max-steps {v}: expected a positive count")),
                }
            }
            "--threads" => {
                let v = value()?;
                match v.parse::<u32>() {
                    Ok(n) if n > 0 => threads = Some(n),
                    _ => return Err(format!("--threads {v}: expected a positive count")),
                }
            }
            "--buffer" | "--constant" => {
                let v = value()?;
                let (i, o) = v
                    .split_once(':')
                    .filter(|(i, o)| !i.is_empty() && !o.is_empty())
                    .ok_or_else(|| format!("{w} {v}: expected IN.bin:OUT.bin"))?;
                let (input, output) = (i.to_string(), o.to_string());
                args.push(if w == "--buffer" {
                    ArgSpec::Buffer { input, output }
                } else {
                    ArgSpec::Constant { input, output }
                });
            }
            "--scalar" => {
                let v = value()?;
                args.push(ArgSpec::Scalar(
                    Scalar::parse(v).map_err(|e| format!("--scalar {e}"))?,
                ));
            }
            "--image" => args.push(image_spec(value()?)?),
            "--sampler" => args.push(ArgSpec::Sampler(
                SamplerState::parse(value()?).map_err(|e| format!("--sampler {e}"))?,
            )),
            "--local-mem" => {
                let v = value()?;
                match v.parse::<u32>() {
                    Ok(n) if n > 0 => args.push(ArgSpec::LocalMem(n)),
                    _ => return Err(format!("--local-mem {v}: expected a positive byte count")),
                }
            }
            other => {
                return Err(format!(
                    "unexpected `{other}`: expected --kernel, --global, --local, --platform, \
                     --max-steps N, --threads N, --check, --zeinfo P.zeinfo, --program K.bin, --buffer IN.bin:OUT.bin, --constant IN.bin:OUT.bin, \
                     --scalar TYPE:VALUE, --local-mem BYTES, --image W[,H[,D]]:FORMAT:IN.bin[:OUT.bin] \
                     or --sampler normalized|unnormalized,ADDRESS,FILTER"
                ))
            }
        }
    }
    let kernel = kernel.ok_or("--kernel K is required")?;
    let global = global.ok_or("--global X[,Y[,Z]] is required")?;
    if zeinfo.is_some() && program.is_some() {
        return Err("--zeinfo and --program: give one (a program binary holds its zeinfo)".into());
    }
    if let Some(l) = &local {
        NdRange::new(&global, l)?;
    }
    Ok(RunSpec {
        kernel,
        global,
        local,
        platform,
        args,
        max_steps,
        check,
        zeinfo,
        program,
        threads,
    })
}

mod described;
pub use described::layout_described;

#[cfg(test)]
mod tests;
