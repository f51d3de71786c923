//! Intel's program binaries, as far as a launch needs them: each kernel's payload layout (as
//! [`super::zeinfo::ZeKernel`]s) and the program-scope `constant` and `global` data.
//!
//! Two formats carry them. A zebin (what ocloc writes for every device since 2023) is an ELF
//! whose `.ze_info` section is zeinfo YAML and whose `.data.const` / `.data.global` sections are
//! the program-scope data, reached by the kernels through the `const_base` / `global_base`
//! payload arguments: the `visa` tool takes the ELF apart and hands the YAML to
//! [`super::zeinfo::parse`]. The 2022 compiler's binaries for tgllp and for acm-g10 with
//! `-revision_id 0` hold patch tokens instead (an ELF section, "Intel(R) OpenCL Device Binary",
//! whose bytes start with the magic `CTNI`): [`patch_tokens`] reads them, by the layouts of
//! IGC's `patch_list.h` and `patch_shared.h` (`AdaptorOCL/ocl_igc_shared/executable_format`):
//!
//! - the program header (magic, version, device, pointer size, kernel count, stepping, size of
//!   the program's patch list: seven dwords), the program's patch list, then each kernel: a
//!   header of nine dwords (checksum, 64-bit hash, name size, patch-list size, then the sizes of
//!   the kernel heap, general state heap, dynamic state heap, surface state heap, and the
//!   unpadded kernel size), the name, the four heaps, the kernel's patch list;
//! - a patch token is `(token, size)` then its fields; `size` covers the whole token, except
//!   the program-scope data after tokens 41 and 42, which their own size field counts.
//!
//! What each token gives (token numbers of `patch_list.h`):
//!
//! | token | fields read | what it becomes |
//! | --- | --- | --- |
//! | 5 sampler state array | offset, count, border colour offset (in the dynamic state heap) | `inline_samplers`: each SAMPLER_STATE no token 16 claims, decoded (`program/sampler_state.rs`) |
//! | 8 binding table state | offset, count (in the surface state heap) | the binding-table index of each surface below |
//! | 11 stateful buffer, 12 image | argument, surface-state offset (12: after the image type) | `binding_table_indices` |
//! | 15 local surface | SLM bytes | `slm_size` |
//! | 16 sampler parameter | its state's offset in the dynamic state heap (`btiOffset`) | that state is not an inline sampler's |
//! | 17 data parameter | type, argument, offset, size, source offset | a payload argument (table below) |
//! | 22 thread payload | local ids x, y, z present; inline data | `per_thread_payload_arguments`, `inline_data_payload_size` |
//! | 23 execution environment | largest compiled SIMD size | `simd_size` |
//! | 30, 31 stateless global, constant pointer | argument, surface-state offset, offset, size | `arg_bypointer` and its binding-table index |
//! | 38 private memory | offset, size | `private_base_stateless` |
//! | 43, 44 program-scope global, constant surface | surface-state offset, offset, size | `global_base`, `const_base` and their binding-table index |
//! | 41, 42 (program) global, constant data | size, then the bytes | the program-scope data |
//!
//! Data-parameter types: 1 a by-value parameter's bytes, 2 local size, 3 global size, 4
//! number of groups, 5 work dimensions, 8 a `local` pointer, 9-11 image width, height, depth,
//! 16 global offset, 28 enqueued local size, 42 buffer offset (43, a flag of a buffer reached
//! by surface, has no bytes); each dimension of a size is a
//! token of its own (4 bytes, source offset 0, 4 or 8). A kernel with another data parameter
//! is refused by name when it is launched, not guessed.

use super::zeinfo::{
    AddrMode, AddrSpace, ArgType, InlineSampler, Loc, PayloadArg, PerThreadArg, ZeInfo, ZeKernel,
};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// What a launch takes from a program binary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub info: ZeInfo,
    /// Program-scope `constant` data (`.data.const`, patch token 42).
    pub constants: Vec<u8>,
    /// Program-scope `global` data (`.data.global`, patch token 41).
    pub globals: Vec<u8>,
}

/// The magic number a patch-token program binary starts with (`MAGIC_CL`, "INTC").
pub const PATCH_TOKEN_MAGIC: u32 = 0x494E_5443;

/// Little-endian dwords of a byte slice, every read checked.
struct Bytes<'a> {
    b: &'a [u8],
    /// Where `b` starts in the whole binary, for errors.
    base: usize,
}

impl<'a> Bytes<'a> {
    fn u32(&self, at: usize) -> Result<u32, String> {
        self.b
            .get(at..at.saturating_add(4))
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
            .ok_or_else(|| format!("byte {}: the binary ends inside a field", self.base + at))
    }
    fn slice(&self, at: usize, len: usize) -> Result<Bytes<'a>, String> {
        at.checked_add(len)
            .and_then(|end| self.b.get(at..end))
            .map(|b| Bytes {
                b,
                base: self.base + at,
            })
            .ok_or_else(|| {
                format!(
                    "byte {}: {len} bytes announced, {} left",
                    self.base + at,
                    self.b.len().saturating_sub(at)
                )
            })
    }
}

/// Reads a patch-token program binary (the device-binary section's bytes).
pub fn patch_tokens(bytes: &[u8]) -> Result<Program, String> {
    let all = Bytes { b: bytes, base: 0 };
    let magic = all.u32(0)?;
    if magic != PATCH_TOKEN_MAGIC {
        return Err(format!(
            "not a patch-token program binary: magic {magic:#010x}, expected {PATCH_TOKEN_MAGIC:#010x}"
        ));
    }
    let kernels = all.u32(16)? as usize;
    let patch_list = all.u32(24)? as usize;
    let mut program = Program::default();
    for token in tokens(&all.slice(28, patch_list)?)? {
        program_token(&token, &mut program)?;
    }
    let mut at = 28 + patch_list;
    for _ in 0..kernels {
        let (kernel, next) = kernel(&all, at)?;
        program.info.kernels.push(kernel);
        at = next;
    }
    Ok(program)
}

/// The tokens of a patch list: (token, its bytes from its header on).
fn tokens<'a>(list: &Bytes<'a>) -> Result<Vec<(u32, Bytes<'a>)>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < list.b.len() {
        let (token, size) = (list.u32(at)?, list.u32(at + 4)? as usize);
        if size < 8 {
            return Err(format!(
                "byte {}: patch token {token} of {size} bytes, less than its own header",
                list.base + at
            ));
        }
        // The program-scope data follows its token, outside the token's size.
        let inline = match token {
            42 => list.u32(at + 12)? as usize,
            41 => list.u32(at + 16)? as usize,
            _ => 0,
        };
        let whole = size.checked_add(inline).ok_or_else(|| {
            format!(
                "byte {}: patch token {token}: sizes past any binary",
                list.base + at
            )
        })?;
        out.push((token, list.slice(at, whole)?));
        at += whole;
    }
    Ok(out)
}

/// A token of the program's patch list: the program-scope data.
fn program_token(token: &(u32, Bytes<'_>), program: &mut Program) -> Result<(), String> {
    let (t, b) = token;
    match t {
        42 => {
            let size = b.u32(12)? as usize;
            program.constants = b.slice(16, size)?.b.to_vec();
        }
        41 => {
            let size = b.u32(16)? as usize;
            program.globals = b.slice(20, size)?.b.to_vec();
        }
        _ => {}
    }
    Ok(())
}

/// The kernel whose header is at `at`, and where the next one starts.
fn kernel(all: &Bytes<'_>, at: usize) -> Result<(ZeKernel, usize), String> {
    let h = all.slice(at, 40)?;
    let name_size = h.u32(12)? as usize;
    let patch_size = h.u32(16)? as usize;
    // The sizes of the kernel heap, general state heap, dynamic state heap, surface state heap.
    let sizes: Vec<usize> = (20..36)
        .step_by(4)
        .map(|o| h.u32(o).map(|v| v as usize))
        .collect::<Result<_, _>>()?;
    let heaps = sizes.iter().try_fold(0usize, |a, &s| a.checked_add(s));
    let heaps = heaps.ok_or_else(|| format!("byte {at}: heap sizes past any binary"))?;
    let name = all.slice(at + 40, name_size)?;
    let name =
        String::from_utf8_lossy(name.b.split(|&c| c == 0).next().unwrap_or(&[])).into_owned();
    let list_at = (at + 40)
        .checked_add(name_size)
        .and_then(|v| v.checked_add(heaps))
        .ok_or_else(|| format!("byte {at}: kernel `{name}`: sizes past the end"))?;
    let list = all.slice(list_at, patch_size)?;
    let mut k = ZeKernel {
        name,
        simd: 0,
        ..ZeKernel::default()
    };
    let heaps_at = at + 40 + name_size;
    let dsh = all.slice(heaps_at + sizes[0] + sizes[1], sizes[2])?;
    let mut surfaces = Surfaces {
        heap: all
            .slice(heaps_at + (heaps - sizes[3]), sizes[3])?
            .b
            .to_vec(),
        ..Surfaces::default()
    };
    let mut samplers = Samplers::default();
    for token in tokens(&list)? {
        kernel_token(&token, &mut k, &mut surfaces, &mut samplers)?;
    }
    surfaces.resolve(&mut k)?;
    k.inline_samplers = samplers
        .resolve(&dsh)
        .map_err(|e| format!("kernel `{}`: {e}", k.name))?;
    if k.simd == 0 {
        return Err(format!(
            "kernel `{}`: no execution-environment token (23) naming its SIMD size",
            k.name
        ));
    }
    Ok((k, list_at + patch_size))
}

/// The sampler states a kernel's tokens point at in its dynamic state heap: those of its inline
/// samplers, which the kernel's code reads at their sampler index.
#[derive(Default)]
struct Samplers {
    /// Token 5 (`SPatchSamplerStateArray`): the array's offset in the dynamic state heap, its
    /// count of states, and the offset of the border colour.
    array: Option<(u32, u32, u32)>,
    /// Token 16 (`SPatchSamplerKernelArgument`): the dynamic-state-heap offset of each sampler
    /// parameter's state, which the host's sampler replaces.
    parameters: Vec<u32>,
}

/// The bytes of a SAMPLER_STATE: sampler index `i` is the state at the array's offset plus
/// `16 i` (IGC 1.0.12504.6, `AdaptorOCL/OCL/sp/sp_g8.cpp`, where the state processor lays out
/// the array: four dwords per texture sampler, the sampler parameters' first, then the inline
/// samplers').
const SAMPLER_STATE_BYTES: usize = 16;

impl Samplers {
    /// The inline samplers: every state of the array that no sampler parameter claims, at its
    /// index in the array.
    fn resolve(self, dsh: &Bytes<'_>) -> Result<Vec<InlineSampler>, String> {
        let Some((offset, count, border)) = self.array else {
            return Ok(Vec::new());
        };
        let states = (count as usize)
            .checked_mul(SAMPLER_STATE_BYTES)
            .ok_or_else(|| {
                format!("sampler state array (token 5): {count} states past any heap")
            })?;
        let array = dsh.slice(offset as usize, states).map_err(|e| {
            format!(
                "sampler state array (token 5) at {offset} of the dynamic state heap's {} \
                 bytes, {count} states: {e}",
                dsh.b.len()
            )
        })?;
        let mut out = Vec::new();
        for index in 0..count {
            let at = index as usize * SAMPLER_STATE_BYTES;
            if self
                .parameters
                .iter()
                .any(|&p| p as usize == offset as usize + at)
            {
                continue;
            }
            let mut dw = [0u32; 4];
            for (i, d) in dw.iter_mut().enumerate() {
                *d = array.u32(at + 4 * i)?;
            }
            let state = sampler_state::decode(dw).map_err(|e| {
                format!(
                    "sampler {index} (SAMPLER_STATE at byte {} of the binary): {e}",
                    array.base + at
                )
            })?;
            out.push(InlineSampler {
                sampler_index: index,
                state,
                at: Loc::default(),
            });
        }
        if !out.is_empty() {
            border_colour(dsh, border)?;
        }
        Ok(out)
    }
}

/// Checks the border colour the states point at (SAMPLER_BORDER_COLOR_STATE of
/// `hw_cmds_generated_gen12lp.inl`: `BorderColorRed`, `Green`, `Blue`, `Alpha`, four floats):
/// the machine gives OpenCL's border colour (transparent black, opaque for formats without
/// alpha: [`super::sampler`]), which the zeros IGC writes there
/// (`Platform/cmd_shared_init_g8.h`, `g_cInitGfxSamplerIndirectState`) agree with.
fn border_colour(dsh: &Bytes<'_>, offset: u32) -> Result<(), String> {
    let rgba = dsh.slice(offset as usize, 16).map_err(|e| {
        format!(
            "border colour (token 5) at {offset} of the dynamic state heap's {} bytes: {e}",
            dsh.b.len()
        )
    })?;
    if rgba.b.iter().any(|&b| b != 0) {
        return Err(format!(
            "border colour at byte {} of the binary is not (0, 0, 0, 0): the machine's border \
             colour is OpenCL's",
            rgba.base
        ));
    }
    Ok(())
}

/// Surface-state offsets met in a kernel's tokens, turned into binding-table indices at its end.
#[derive(Default)]
struct Surfaces {
    /// (binding table's offset in the surface state heap, entry count)
    table: Option<(usize, usize)>,
    /// The surface state heap.
    heap: Vec<u8>,
    /// (argument or u32::MAX for the program-scope constant, u32::MAX - 1 for global, SSH offset)
    wanted: Vec<(u32, u32)>,
}

const CONST_SURFACE: u32 = u32::MAX;
const GLOBAL_SURFACE: u32 = u32::MAX - 1;

impl Surfaces {
    fn resolve(self, k: &mut ZeKernel) -> Result<(), String> {
        let Some((off, count)) = self.table else {
            return Ok(());
        };
        let heap = Bytes {
            b: &self.heap,
            base: 0,
        };
        let entries: Vec<u32> = (0..count)
            .map(|i| heap.u32(off + 4 * i))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("kernel `{}`: binding table: {e}", k.name))?;
        for (arg, ssh) in self.wanted {
            let Some(bti) = entries.iter().position(|&e| e == ssh) else {
                continue;
            };
            let bti = bti as u32;
            match arg {
                CONST_SURFACE => k.const_bti = Some(bti),
                GLOBAL_SURFACE => k.global_bti = Some(bti),
                a => k.binding_table.push((a, bti)),
            }
        }
        Ok(())
    }
}

fn entry(
    kind: ArgType,
    offset: u32,
    size: u32,
    arg_index: Option<u32>,
    source_offset: u32,
) -> PayloadArg {
    PayloadArg {
        kind,
        offset,
        size,
        arg_index,
        source_offset,
        bti: None,
        bindless: false,
        sampler_index: None,
        at: Loc::default(),
    }
}

/// One token of a kernel's patch list.
fn kernel_token(
    token: &(u32, Bytes<'_>),
    k: &mut ZeKernel,
    s: &mut Surfaces,
    samplers: &mut Samplers,
) -> Result<(), String> {
    let (t, b) = token;
    let f = |i: usize| b.u32(8 + 4 * i);
    let stateless = |space| ArgType::ByPointer {
        addrmode: AddrMode::Stateless,
        addrspace: space,
    };
    match t {
        5 => samplers.array = Some((f(0)?, f(1)?, f(2)?)),
        // A sampler parameter: its state's heap offset is `btiOffset` (field 8), which `Offset`
        // (field 2) repeats unless the sampler is bindless.
        16 => samplers.parameters.push(f(8).or_else(|_| f(2))?),
        8 => s.table = Some((f(0)? as usize, f(1)? as usize)),
        11 => s.wanted.push((f(0)?, f(1)?)),
        // An image: argument, type, then its surface-state offset.
        12 => s.wanted.push((f(0)?, f(2)?)),
        15 => k.slm_size = f(1)?,
        17 => data_parameter(b, k)?,
        22 => {
            let present = (1..4).map(f).collect::<Result<Vec<u32>, _>>()?;
            if present.iter().any(|&p| p != 0) {
                k.per_thread.push(PerThreadArg {
                    packed: false,
                    offset: 0,
                    size: 0,
                    at: Loc::default(),
                });
            }
            // Inline data of a size the tokens do not give: the cross-thread data starts right
            // after the local ids, with no gap.
            if b.b.len() >= 8 + 4 * 15 && f(14)? != 0 {
                k.inline_data = Some(0);
            }
        }
        23 => k.simd = f(3)?,
        30 | 31 => {
            let space = if *t == 30 {
                AddrSpace::Global
            } else {
                AddrSpace::Constant
            };
            let arg = f(0)?;
            s.wanted.push((arg, f(1)?));
            k.payload
                .push(entry(stateless(space), f(2)?, f(3)?, Some(arg), 0));
        }
        38 => k
            .payload
            .push(entry(ArgType::PrivateBase, f(1)?, f(2)?, None, 0)),
        43 | 44 => {
            let (kind, which) = if *t == 43 {
                (ArgType::GlobalBase, GLOBAL_SURFACE)
            } else {
                (ArgType::ConstBase, CONST_SURFACE)
            };
            s.wanted.push((which, f(1)?));
            k.payload.push(entry(kind, f(2)?, f(3)?, None, 0));
        }
        _ => {}
    }
    Ok(())
}

/// A data-parameter token (17).
fn data_parameter(b: &Bytes<'_>, k: &mut ZeKernel) -> Result<(), String> {
    let f = |i: usize| b.u32(8 + 4 * i);
    let (ty, arg, offset, size, source) = (f(0)?, f(1)?, f(2)?, f(3)?, f(4)?);
    let kind = match ty {
        1 => ArgType::ByValue,
        2 => ArgType::LocalSize,
        3 => ArgType::GlobalSize,
        4 => ArgType::NumGroups,
        5 => ArgType::WorkDimensions,
        8 => ArgType::ByPointer {
            addrmode: AddrMode::Slm,
            addrspace: AddrSpace::Local,
        },
        9 => ArgType::ImageWidth,
        10 => ArgType::ImageHeight,
        11 => ArgType::ImageDepth,
        12 => ArgType::ImageChannelDataType,
        13 => ArgType::ImageChannelOrder,
        14 => ArgType::SamplerAddress,
        15 => ArgType::SamplerNormalized,
        16 => ArgType::GlobalIdOffset,
        21 => ArgType::SamplerSnapWa,
        28 => ArgType::EnqueuedLocalSize,
        42 => ArgType::BufferOffset,
        // A flag of a buffer parameter the compiler reaches by surface: no payload bytes.
        43 => return Ok(()),
        other => ArgType::NotGiven(data_parameter_name(other)),
    };
    let per_param = matches!(
        kind,
        ArgType::ByValue
            | ArgType::ByPointer { .. }
            | ArgType::BufferOffset
            | ArgType::ImageWidth
            | ArgType::ImageHeight
            | ArgType::ImageDepth
            | ArgType::ImageChannelDataType
            | ArgType::ImageChannelOrder
            | ArgType::SamplerAddress
            | ArgType::SamplerNormalized
            | ArgType::SamplerSnapWa
    );
    k.payload
        .push(entry(kind, offset, size, per_param.then_some(arg), source));
    Ok(())
}

/// The name `patch_list.h` gives a data-parameter type launch does not give.
fn data_parameter_name(ty: u32) -> &'static str {
    match ty {
        6 => "DATA_PARAMETER_LOCAL_ID",
        7 => "DATA_PARAMETER_EXECUTION_MASK",
        17 => "DATA_PARAMETER_NUM_HARDWARE_THREADS",
        18 => "DATA_PARAMETER_IMAGE_ARRAY_SIZE",
        19 => "DATA_PARAMETER_PRINTF_SURFACE_SIZE",
        20 => "DATA_PARAMETER_IMAGE_NUM_SAMPLES",
        27 => "DATA_PARAMETER_IMAGE_NUM_MIP_LEVELS",
        29 => "DATA_PARAMETER_MAX_WORKGROUP_SIZE",
        33 => "DATA_PARAMETER_PRIVATE_MEMORY_STATELESS_SIZE",
        34 => "DATA_PARAMETER_SIMD_SIZE",
        44..=47 => "DATA_PARAMETER_FLAT_IMAGE_*",
        49 => "DATA_PARAMETER_IMPL_ARG_BUFFER",
        50 => "DATA_PARAMETER_LOCAL_ID_BUFFER",
        _ => "a data parameter of another type",
    }
}

mod sampler_state;
#[cfg(test)]
mod tests;
