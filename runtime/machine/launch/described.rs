//! The layout of a kernel's payload as its program binary describes it (zeinfo, or the patch
//! tokens of the 2022 compiler, both read into [`ZeKernel`]): every explicit argument and
//! implicit value at the cross-thread offset the description gives, nothing inferred from the
//! `.input`s, which are only checked to lie where the description puts something.
//!
//! Where the cross-thread data starts is the `.isa` rule ([`super::layout`]): after `r0` and
//! the per-thread local ids, plus a register on platforms without inline data when a kernel
//! has fewer local-id bytes than a register. The local ids: one array of `simd` words per
//! dimension, each rounded up to whole registers; a kernel has as many arrays as its
//! `local_id` bytes hold (Xe3P kernels that use two dimensions get two).

use super::{
    attribute, err, inline_data, per_thread_bytes, scratch_bytes, simd_size, Arg, Holds, Implicit,
    LaunchError, Layout, Slot,
};
use crate::machine::zeinfo::{AddrMode, AddrSpace, ArgType, PayloadArg, ZeKernel};
use crate::object::File;
use crate::runtime::IntelPlatform;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Reads the layout of kernel `k` of `file` from its description `ze`, for these arguments.
pub fn layout_described(
    file: &File,
    k: usize,
    platform: &IntelPlatform,
    args: &[Arg],
    ze: &ZeKernel,
) -> Result<Layout, LaunchError> {
    let grf = platform.grf_bytes;
    let simd = described_simd(file, k, ze)?;
    let per_thread = described_per_thread(file, k, platform, ze, simd)?;
    let cross = if ze.inline_data.is_some() || inline_data(platform) {
        grf + per_thread
    } else {
        grf + per_thread.max(grf)
    };
    check_arity(args, ze)?;
    // Inline data of fewer bytes than a register fills the rest of it: the cross-thread data
    // after it starts at the next register (Xe2 and later: 32 inline bytes, 64-byte registers).
    let inline = ze.inline_data.unwrap_or(0);
    let gap = inline.div_ceil(grf) * grf - inline;
    let mut slots = Vec::new();
    for p in &ze.payload {
        if let Some(mut s) = slot(p, args)? {
            if inline > 0 && s.at >= inline {
                s.at += gap;
            }
            slots.push(s);
        }
    }
    let inputs = check_inputs(file, k, grf, per_thread, cross, &slots)?;
    let bindings = described_bindings(args, ze)?;
    if let Some(b) = [ze.const_bti, ze.global_bti]
        .into_iter()
        .flatten()
        .find(|&b| b > 255)
    {
        return err(format!(
            "kernel `{}`: program-scope data at binding-table index {b}: expected 0 to 255",
            ze.name
        ));
    }
    let end = inputs.iter().map(|(o, s, _)| o + s).max().unwrap_or(32);
    let implicits = Vec::new();
    Ok(Layout {
        simd,
        grf,
        per_thread,
        cross,
        args: Vec::new(),
        implicits,
        inputs,
        input_bytes: end.max(cross).div_ceil(grf) * grf,
        scratch: scratch_bytes(file, k)?,
        notes: Vec::new(),
        header: false,
        id_stride: (2 * simd).div_ceil(grf) * grf,
        slots,
        bindings,
        program_bti: [ze.const_bti, ze.global_bti],
    })
}

/// The binding-table indices the description gives; every image must have one.
fn described_bindings(args: &[Arg], ze: &ZeKernel) -> Result<Vec<(usize, u32)>, LaunchError> {
    let mut out = Vec::new();
    for &(a, b) in &ze.binding_table {
        if b > 255 {
            return err(format!(
                "kernel `{}`: parameter {a} at binding-table index {b}: expected 0 to 255",
                ze.name
            ));
        }
        out.push((a as usize, b));
    }
    let bindless = |i: usize| {
        ze.payload.iter().any(|p| {
            p.arg_index == Some(i as u32)
                && matches!(
                    p.kind,
                    ArgType::ByPointer {
                        addrmode: AddrMode::Bindless,
                        ..
                    }
                )
        })
    };
    for (i, a) in args.iter().enumerate() {
        if matches!(a, Arg::Image { .. }) && !out.iter().any(|b| b.0 == i) && !bindless(i) {
            return err(format!(
                "parameter {i} is an image, and the description gives it neither a \
                 binding-table index nor a bindless handle"
            ));
        }
    }
    Ok(out)
}

/// The SIMD width: the description's, which the `.isa`'s `SimdSize` must agree with.
fn described_simd(file: &File, k: usize, ze: &ZeKernel) -> Result<u32, LaunchError> {
    let isa = attribute(file, k, "SimdSize");
    if ze.simd == 1 {
        return err(format!(
            "kernel `{}` is SIMD1 (zeinfo simd_size 1): its packed local ids are not given yet",
            ze.name
        ));
    }
    match isa {
        Some(s) if s != u64::from(ze.simd) => err(format!(
            "the kernel's SimdSize is {s} but its description says simd_size {}: the vISA of \
             another compile (ocloc writes `K_simd16.visaasm` and `K_simd32.visaasm` beside the \
             one the binary holds)?",
            ze.simd
        )),
        _ => simd_size(file, k).or(Ok(ze.simd)),
    }
}

/// Bytes of per-thread local ids after `r0`.
fn described_per_thread(
    file: &File,
    k: usize,
    platform: &IntelPlatform,
    ze: &ZeKernel,
    simd: u32,
) -> Result<u32, LaunchError> {
    let Some(p) = ze.per_thread.first() else {
        return Ok(0);
    };
    if p.packed {
        return err(format!(
            "kernel `{}`: per-thread `packed_local_ids` (zeinfo line {}) are not given yet",
            ze.name, p.at.line
        ));
    }
    if p.offset != 0 {
        return err(format!(
            "kernel `{}`: local ids at per-thread offset {}: expected 0",
            ze.name, p.offset
        ));
    }
    if p.size == 0 {
        // Patch tokens say only that local ids are present: the `.isa` says how many bytes.
        return per_thread_bytes(file, k, platform, simd);
    }
    let stride = (2 * simd).div_ceil(platform.grf_bytes) * platform.grf_bytes;
    if p.size % stride != 0 || p.size / stride > 3 {
        return err(format!(
            "kernel `{}`: {} bytes of local ids: expected 1 to 3 arrays of {stride} bytes (SIMD{simd})",
            ze.name, p.size
        ));
    }
    Ok(p.size)
}

/// The ARGs must be as many as the parameters the description names.
fn check_arity(args: &[Arg], ze: &ZeKernel) -> Result<(), LaunchError> {
    let params = ze
        .payload
        .iter()
        .filter_map(|p| p.arg_index)
        .chain(ze.binding_table.iter().map(|b| b.0))
        .map(|i| i as usize + 1)
        .max()
        .unwrap_or(0);
    if params > args.len() {
        return err(format!(
            "kernel `{}` has at least {params} parameter(s) (its description names parameter {}); {} ARG(s) given",
            ze.name,
            params - 1,
            args.len()
        ));
    }
    Ok(())
}

/// The ARG kind a description entry wants, for errors.
fn wants(p: &PayloadArg) -> &'static str {
    match p.kind {
        ArgType::ByPointer {
            addrmode: AddrMode::Slm,
            ..
        }
        | ArgType::ByPointer {
            addrspace: AddrSpace::Local,
            ..
        } => "--local-mem BYTES",
        ArgType::ByPointer {
            addrspace: AddrSpace::Image,
            ..
        }
        | ArgType::ImageWidth
        | ArgType::ImageHeight
        | ArgType::ImageDepth
        | ArgType::ImageChannelDataType
        | ArgType::ImageChannelOrder => "--image",
        ArgType::ByPointer {
            addrspace: AddrSpace::Sampler,
            ..
        }
        | ArgType::SamplerAddress
        | ArgType::SamplerNormalized
        | ArgType::SamplerSnapWa => "--sampler",
        ArgType::ByValue => "--scalar TYPE:VALUE",
        _ => "--buffer or --constant",
    }
}

/// The slot of one payload entry, checked against the ARG it belongs to; `None` for an entry
/// without bytes (a stateful buffer or an image).
fn slot(p: &PayloadArg, args: &[Arg]) -> Result<Option<Slot>, LaunchError> {
    if p.offset.checked_add(p.size).is_none_or(|end| end > 1 << 16) {
        return err(format!(
            "{} at cross-thread offset {} of {} bytes: past 64 KiB of cross-thread data",
            name(p),
            p.offset,
            p.size
        ));
    }
    let param = p.arg_index.map(|i| i as usize);
    let arg = param.and_then(|i| args.get(i));
    let fits = match (p.kind, arg) {
        (
            ArgType::ByPointer {
                addrmode: AddrMode::Slm,
                ..
            },
            Some(Arg::LocalMem(_)),
        )
        | (
            ArgType::ByPointer {
                addrspace: AddrSpace::Local,
                ..
            },
            Some(Arg::LocalMem(_)),
        ) => true,
        (
            ArgType::ByPointer {
                addrspace: AddrSpace::Image,
                ..
            },
            Some(Arg::Image { .. }),
        ) => true,
        (
            ArgType::ImageWidth
            | ArgType::ImageHeight
            | ArgType::ImageDepth
            | ArgType::ImageChannelDataType
            | ArgType::ImageChannelOrder,
            Some(Arg::Image { .. }),
        ) => true,
        (
            ArgType::ByPointer {
                addrspace: AddrSpace::Sampler,
                ..
            }
            | ArgType::SamplerAddress
            | ArgType::SamplerNormalized
            | ArgType::SamplerSnapWa,
            Some(Arg::Sampler(_)),
        ) => true,
        (
            ArgType::ByPointer {
                addrspace: AddrSpace::Global | AddrSpace::Constant,
                ..
            }
            | ArgType::BufferAddress
            | ArgType::BufferOffset,
            Some(Arg::Buffer(_) | Arg::Constant(_)),
        ) => true,
        (ArgType::ByValue, Some(Arg::Scalar(s))) => p
            .source_offset
            .checked_add(p.size)
            .is_some_and(|end| end <= s.ty.size()),
        (_, None) => param.is_none(),
        _ => false,
    };
    if !fits {
        let i = param.unwrap_or(0);
        let given = args.get(i).map_or("nothing", |a| a.kind());
        return err(format!(
            "parameter {i}: its description ({}{}) wants {}; {given} given",
            name(p),
            if p.size > 0 {
                format!(" of {} bytes at cross-thread offset {}", p.size, p.offset)
            } else {
                String::new()
            },
            wants(p)
        ));
    }
    if p.size == 0 {
        return Ok(None);
    }
    let holds = match (p.kind, param) {
        (
            ArgType::ByPointer {
                addrmode: AddrMode::Bindless,
                addrspace: AddrSpace::Global | AddrSpace::Constant | AddrSpace::Image,
            },
            Some(i),
        ) => Holds::Implicit(Implicit::Bindless(i)),
        (
            ArgType::ByPointer {
                addrmode: AddrMode::Bindless,
                addrspace: AddrSpace::Sampler,
            },
            Some(i),
        ) => Holds::Implicit(Implicit::SamplerBindless(i)),
        (ArgType::ByPointer { .. } | ArgType::ByValue | ArgType::BufferAddress, Some(i)) => {
            Holds::Arg(i)
        }
        (kind, i) => Holds::Implicit(implicit(kind, i.unwrap_or(0), p)?),
    };
    Ok(Some(Slot {
        holds,
        at: p.offset,
        size: p.size,
        from: p.source_offset,
    }))
}

/// The implicit value of an entry that is not a parameter's own bytes.
fn implicit(kind: ArgType, param: usize, p: &PayloadArg) -> Result<Implicit, LaunchError> {
    Ok(match kind {
        ArgType::GlobalIdOffset => Implicit::GlobalOffset,
        ArgType::LocalSize => Implicit::LocalSize,
        ArgType::EnqueuedLocalSize => Implicit::EnqueuedLocalSize,
        ArgType::GlobalSize => Implicit::GlobalSize,
        ArgType::NumGroups => Implicit::NumGroups,
        ArgType::WorkDimensions => Implicit::WorkDim,
        ArgType::BufferOffset => Implicit::BufferOffset(param),
        ArgType::PrivateBase => Implicit::PrivateBase,
        ArgType::ConstBase if p.bindless => Implicit::ProgramBindless(0),
        ArgType::GlobalBase if p.bindless => Implicit::ProgramBindless(1),
        ArgType::ConstBase => Implicit::ConstantBase,
        ArgType::GlobalBase => Implicit::GlobalBase,
        ArgType::ImplicitArgBuffer => Implicit::ImplicitArgBuffer,
        ArgType::IndirectDataPointer => Implicit::IndirectData,
        ArgType::ScratchPointer => Implicit::ScratchPointer,
        ArgType::ImageWidth => Implicit::ImageWidth(param),
        ArgType::ImageHeight => Implicit::ImageHeight(param),
        ArgType::ImageDepth => Implicit::ImageDepth(param),
        ArgType::ImageChannelDataType => Implicit::ImageChannelDataType(param),
        ArgType::ImageChannelOrder => Implicit::ImageChannelOrder(param),
        ArgType::SamplerAddress => Implicit::SamplerAddress(param),
        ArgType::SamplerNormalized => Implicit::SamplerNormalized(param),
        ArgType::SamplerSnapWa => Implicit::SamplerSnapWa(param),
        ArgType::InlineSampler => Implicit::InlineSampler(p.sampler_index.unwrap_or(0)),
        _ => {
            return err(format!(
                "{} at cross-thread offset {} ({} bytes) is not given yet",
                name(p),
                p.offset,
                p.size
            ))
        }
    })
}

/// An entry's name for errors, with its zeinfo line when it has one.
fn name(p: &PayloadArg) -> String {
    let n = match p.kind {
        ArgType::NotGiven(n) => n,
        ArgType::ByPointer { .. } => "arg_bypointer",
        ArgType::ByValue => "arg_byvalue",
        _ => "",
    };
    let n = if n.is_empty() {
        format!("{:?}", p.kind)
    } else {
        String::from(n)
    };
    if p.at.line > 0 {
        format!("`{n}` (zeinfo line {})", p.at.line)
    } else {
        format!("`{n}`")
    }
}

/// Every `.input` of the kernel must lie in `r0`, the local ids or over a described slot; returns
/// what each holds.
fn check_inputs(
    file: &File,
    k: usize,
    grf: u32,
    per_thread: u32,
    cross: u32,
    slots: &[Slot],
) -> Result<Vec<(u32, u32, Holds)>, LaunchError> {
    let mut out = Vec::new();
    for i in &file.kernels[k].data.input_info {
        let (o, s) = (i.offset as u16 as u32, u32::from(i.size));
        let holds = if o + s <= 32 {
            Some(Holds::R0)
        } else if o >= grf && o + s <= grf + per_thread {
            Some(Holds::LocalIds)
        } else {
            // An input may span several described values and the padding between them (the
            // 32 bytes of global offset and local size): it holds the first.
            let covered = (o..o + s).any(|b| {
                slots
                    .iter()
                    .any(|sl| b >= cross + sl.at && b < cross + sl.at + sl.size)
            });
            let first = slots.iter().find(|sl| cross + sl.at == o);
            covered.then(|| first.map_or(Holds::Header, |sl| sl.holds))
        };
        match holds {
            Some(h) => out.push((o, s, h)),
            None => {
                return err(format!(
                    "input at GRF byte {o} (size {s}) is not where the description puts a value \
                     (r0, local ids up to GRF byte {}, cross-thread data from {cross} at the \
                     offsets it lists)",
                    grf + per_thread
                ))
            }
        }
    }
    out.sort_unstable_by_key(|h| h.0);
    Ok(out)
}
