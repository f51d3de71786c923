//! zeinfo: the YAML in which Intel's OpenCL compiler describes each kernel's payload (the
//! `.ze_info` section of a zebin, or the `.zeinfo` file `intel-modern ocl` writes beside it).
//!
//! Each kernel names its SIMD width (`execution_env: simd_size`), whether its first cross-thread
//! register travels as inline data (`inline_data_payload_size`), and for every byte of its
//! cross-thread data what it holds (`payload_arguments`: `arg_type`, `offset`, `size`, and for
//! a parameter its `arg_index`), the per-thread data (`per_thread_payload_arguments`: the local
//! ids) and the binding-table index of each surface parameter (`binding_table_indices`). That is
//! what [`super::launch`] needs to place every argument and implicit value where the kernel's
//! `.input`s read them, which the object file alone cannot say (`PAYLOAD.md`).
//!
//! [`parse`] reads the YAML into [`ZeInfo`]. Every error says where (line and column, both
//! 1-based) and what was expected there; an `arg_type` this reader does not know is an error
//! naming the ones it knows, never a guess. Keys the launch does not need (`user_attributes`,
//! `debug_env`, `kernels_misc_info`, ...) are skipped.

use super::sampler::{AddressMode, Filter, SamplerState};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

/// A place in the YAML text: line and column, both from 1.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// What is wrong with a zeinfo text, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZeinfoError {
    pub at: Loc,
    pub message: String,
}

impl fmt::Display for ZeinfoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// The program's kernels, in the order zeinfo lists them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ZeInfo {
    pub kernels: Vec<ZeKernel>,
}

impl ZeInfo {
    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<&ZeKernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// One kernel's payload description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ZeKernel {
    pub name: String,
    pub at: Loc,
    /// `execution_env: simd_size` (1, 8, 16 or 32).
    pub simd: u32,
    /// `execution_env: grf_count`, when given.
    pub grf_count: Option<u32>,
    /// `execution_env: inline_data_payload_size`: the first cross-thread bytes travel inline.
    pub inline_data: Option<u32>,
    /// `execution_env: slm_size`: bytes of the kernel's own `local` arrays.
    pub slm_size: u32,
    /// `payload_arguments`, in the order given.
    pub payload: Vec<PayloadArg>,
    /// `per_thread_payload_arguments`, in the order given.
    pub per_thread: Vec<PerThreadArg>,
    /// `binding_table_indices`: (arg_index, bti_value).
    pub binding_table: Vec<(u32, u32)>,
    /// The binding-table index of the program-scope `constant` surface (patch-token binaries).
    pub const_bti: Option<u32>,
    /// The binding-table index of the program-scope `global` surface (patch-token binaries).
    pub global_bti: Option<u32>,
    /// `inline_samplers`: the state of each inline `const sampler_t`, by sampler index.
    pub inline_samplers: Vec<InlineSampler>,
}

/// One entry of `inline_samplers`: an inline `const sampler_t`'s state and the sampler index
/// the kernel's code reads it at (a stateful index, or the `inline_sampler` payload entry of
/// the same `sampler_index` that holds its bindless handle).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InlineSampler {
    pub sampler_index: u32,
    pub state: SamplerState,
    pub at: Loc,
}

/// `addrmode` of an `arg_bypointer`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AddrMode {
    Stateless,
    Stateful,
    Bindless,
    Slm,
}

/// `addrspace` of an `arg_bypointer`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AddrSpace {
    Global,
    Local,
    Constant,
    Image,
    Sampler,
}

/// What one payload argument holds (zeinfo `arg_type`; the names are Intel's).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgType {
    GlobalIdOffset,
    LocalSize,
    EnqueuedLocalSize,
    GlobalSize,
    /// `group_count` (also spelled `num_groups`).
    NumGroups,
    WorkDimensions,
    /// `arg_bypointer`: a pointer parameter; `size` 0 when it has no cross-thread bytes (a
    /// stateful buffer, whose address is a `buffer_address`, or an image).
    ByPointer {
        addrmode: AddrMode,
        addrspace: AddrSpace,
    },
    /// `arg_byvalue`: bytes `source_offset..source_offset + size` of a by-value parameter.
    ByValue,
    /// `buffer_address`: the 64-bit address of a stateful buffer parameter.
    BufferAddress,
    /// `buffer_offset`: the offset of a buffer parameter into its surface.
    BufferOffset,
    /// `private_base_stateless`: the private memory's address.
    PrivateBase,
    /// `const_base`: the program-scope `constant` data's address.
    ConstBase,
    /// `global_base`: the program-scope `global` data's address.
    GlobalBase,
    /// `implicit_arg_buffer`: the address of the implicit-argument buffer.
    ImplicitArgBuffer,
    /// `indirect_data_pointer`: the address of the cross-thread data in memory.
    IndirectDataPointer,
    /// `scratch_pointer`: the address of the thread's scratch.
    ScratchPointer,
    ImageWidth,
    ImageHeight,
    ImageDepth,
    /// `image_channel_data_type`: OpenCL's `CL_FLOAT`, `CL_UNORM_INT8`, ... of an image.
    ImageChannelDataType,
    /// `image_channel_order`: OpenCL's `CL_R`, `CL_RGBA`, ... of an image.
    ImageChannelOrder,
    /// `sampler_address`: Intel's encoding of a sampler parameter's address mode.
    SamplerAddress,
    /// `sampler_normalized`: whether a sampler parameter normalises coordinates.
    SamplerNormalized,
    /// `sampler_snap_wa`: the snap workaround flag of a sampler parameter.
    SamplerSnapWa,
    /// `inline_sampler`: the bindless handle of the inline sampler of `sampler_index`.
    InlineSampler,
    /// An `arg_type` Intel's runtime knows and launch does not give (printf buffers, sampler
    /// state, sync buffers, ...): named so a kernel that uses one is refused by name.
    NotGiven(&'static str),
}

/// The `arg_type`s read, by zeinfo name.
const ARG_TYPES: &[(&str, ArgType)] = &[
    ("global_id_offset", ArgType::GlobalIdOffset),
    ("local_size", ArgType::LocalSize),
    ("enqueued_local_size", ArgType::EnqueuedLocalSize),
    ("global_size", ArgType::GlobalSize),
    ("group_count", ArgType::NumGroups),
    ("num_groups", ArgType::NumGroups),
    ("work_dimensions", ArgType::WorkDimensions),
    ("arg_byvalue", ArgType::ByValue),
    ("buffer_address", ArgType::BufferAddress),
    ("buffer_offset", ArgType::BufferOffset),
    ("private_base_stateless", ArgType::PrivateBase),
    ("const_base", ArgType::ConstBase),
    ("global_base", ArgType::GlobalBase),
    ("implicit_arg_buffer", ArgType::ImplicitArgBuffer),
    ("indirect_data_pointer", ArgType::IndirectDataPointer),
    ("scratch_pointer", ArgType::ScratchPointer),
    ("image_width", ArgType::ImageWidth),
    ("image_height", ArgType::ImageHeight),
    ("image_depth", ArgType::ImageDepth),
    ("printf_buffer", ArgType::NotGiven("printf_buffer")),
    ("sync_buffer", ArgType::NotGiven("sync_buffer")),
    ("rt_global_buffer", ArgType::NotGiven("rt_global_buffer")),
    ("assert_buffer", ArgType::NotGiven("assert_buffer")),
    ("buffer_size", ArgType::NotGiven("buffer_size")),
    ("image_channel_data_type", ArgType::ImageChannelDataType),
    ("image_channel_order", ArgType::ImageChannelOrder),
    ("image_array_size", ArgType::NotGiven("image_array_size")),
    ("image_num_samples", ArgType::NotGiven("image_num_samples")),
    (
        "image_num_mip_levels",
        ArgType::NotGiven("image_num_mip_levels"),
    ),
    (
        "flat_image_baseoffset",
        ArgType::NotGiven("flat_image_baseoffset"),
    ),
    ("flat_image_width", ArgType::NotGiven("flat_image_width")),
    ("flat_image_height", ArgType::NotGiven("flat_image_height")),
    ("flat_image_pitch", ArgType::NotGiven("flat_image_pitch")),
    ("sampler_address", ArgType::SamplerAddress),
    ("sampler_normalized", ArgType::SamplerNormalized),
    ("sampler_snap_wa", ArgType::SamplerSnapWa),
    ("region_group_size", ArgType::NotGiven("region_group_size")),
    (
        "region_group_dimension",
        ArgType::NotGiven("region_group_dimension"),
    ),
    (
        "region_group_wg_count",
        ArgType::NotGiven("region_group_wg_count"),
    ),
    (
        "region_group_barrier_buffer",
        ArgType::NotGiven("region_group_barrier_buffer"),
    ),
    ("inline_sampler", ArgType::InlineSampler),
];

/// One entry of `payload_arguments`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PayloadArg {
    pub kind: ArgType,
    /// Cross-thread byte offset.
    pub offset: u32,
    pub size: u32,
    /// `arg_index`: the parameter, for parameters and per-parameter values.
    pub arg_index: Option<u32>,
    /// `source_offset`: the first byte of the parameter this entry holds (`arg_byvalue`).
    pub source_offset: u32,
    /// `bti_value`: the binding-table index of the surface it describes (`const_base`,
    /// `global_base` of a kernel that reaches program-scope data by surface).
    pub bti: Option<u32>,
    /// `addrmode: bindless` on an entry that is not an `arg_bypointer` (a `const_base` or
    /// `global_base` of 4 bytes: the program-scope data's bindless handle).
    pub bindless: bool,
    /// `sampler_index`: the sampler index of a sampler parameter or an inline sampler.
    pub sampler_index: Option<u32>,
    pub at: Loc,
}

/// One entry of `per_thread_payload_arguments`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PerThreadArg {
    /// `local_id` (x, y, z arrays of words, one register-rounded array per dimension) or
    /// `packed_local_ids` (x, y, z words of each lane, one after the other).
    pub packed: bool,
    pub offset: u32,
    pub size: u32,
    pub at: Loc,
}

type Node<'a> = MarkedYaml<'a>;

fn loc(n: &Node<'_>) -> Loc {
    let m = n.span.start;
    Loc {
        line: m.line(),
        col: m.col() + 1,
    }
}

fn fail<T>(at: Loc, message: String) -> Result<T, ZeinfoError> {
    Err(ZeinfoError { at, message })
}

/// The text of a scalar node.
fn text<'n>(n: &'n Node<'_>) -> Option<&'n str> {
    match &n.data {
        YamlData::Value(Scalar::String(s)) => Some(s),
        YamlData::Representation(s, _, _) => Some(s),
        _ => None,
    }
}

/// A short description of what a node is, for errors.
fn what(n: &Node<'_>) -> String {
    match &n.data {
        YamlData::Value(Scalar::String(s)) | YamlData::Representation(s, _, _) => {
            let s: String = s.chars().take(40).collect();
            format!("`{s}`")
        }
        YamlData::Value(Scalar::Integer(i)) => format!("the integer {i}"),
        YamlData::Value(Scalar::Boolean(b)) => format!("the boolean {b}"),
        YamlData::Value(Scalar::FloatingPoint(f)) => format!("the number {f}"),
        YamlData::Value(Scalar::Null) => "nothing (null)".into(),
        YamlData::Sequence(_) => "a sequence".into(),
        YamlData::Mapping(_) => "a mapping".into(),
        _ => "another kind of node".into(),
    }
}

/// The (key, value) pairs of a mapping node; `ctx` names it in the error.
fn entries<'n, 'a>(
    n: &'n Node<'a>,
    ctx: &str,
) -> Result<Vec<(&'n str, &'n Node<'a>)>, ZeinfoError> {
    let YamlData::Mapping(m) = &n.data else {
        return fail(
            loc(n),
            format!("{ctx}: expected a mapping, found {}", what(n)),
        );
    };
    m.iter()
        .map(|(k, v)| match text(k) {
            Some(t) => Ok((t, v)),
            None => fail(
                loc(k),
                format!("{ctx}: expected a key name, found {}", what(k)),
            ),
        })
        .collect()
}

fn sequence<'n, 'a>(n: &'n Node<'a>, ctx: &str) -> Result<&'n [Node<'a>], ZeinfoError> {
    match &n.data {
        YamlData::Sequence(s) => Ok(s),
        // `key:` with nothing after it: an empty list.
        YamlData::Value(Scalar::Null) => Ok(&[]),
        _ => fail(
            loc(n),
            format!("{ctx}: expected a sequence, found {}", what(n)),
        ),
    }
}

/// A non-negative integer that fits 32 bits.
fn uint(n: &Node<'_>, key: &str) -> Result<u32, ZeinfoError> {
    let v = match &n.data {
        YamlData::Value(Scalar::Integer(i)) => Some(*i),
        YamlData::Representation(s, _, _) => s.parse::<i64>().ok(),
        _ => None,
    };
    match v.and_then(|v| u32::try_from(v).ok()) {
        Some(v) => Ok(v),
        None => fail(
            loc(n),
            format!(
                "`{key}`: expected an integer from 0 to 4294967295, found {}",
                what(n)
            ),
        ),
    }
}

fn name_of(n: &Node<'_>, key: &str) -> Result<String, ZeinfoError> {
    match &n.data {
        YamlData::Value(Scalar::Integer(i)) => Ok(i.to_string()),
        _ => text(n).map(String::from).ok_or_else(|| ZeinfoError {
            at: loc(n),
            message: format!("`{key}`: expected a name, found {}", what(n)),
        }),
    }
}

/// Reads a zeinfo text: its first YAML document, a mapping with `kernels`.
pub fn parse(yaml: &str) -> Result<ZeInfo, ZeinfoError> {
    let docs = Node::load_from_str(yaml).map_err(|e| ZeinfoError {
        at: Loc {
            line: e.marker().line(),
            col: e.marker().col() + 1,
        },
        message: format!("not YAML: {}", e.info()),
    })?;
    let Some(doc) = docs.first() else {
        return fail(
            Loc { line: 1, col: 1 },
            "empty: expected a mapping with `kernels`".into(),
        );
    };
    let mut kernels = None;
    for (key, value) in entries(doc, "the zeinfo document")? {
        if key == "kernels" {
            kernels = Some(sequence(value, "`kernels`")?);
        }
    }
    let Some(list) = kernels else {
        return fail(
            loc(doc),
            "expected a key `kernels` (the list of kernels)".into(),
        );
    };
    let kernels = list.iter().map(kernel).collect::<Result<Vec<_>, _>>()?;
    Ok(ZeInfo { kernels })
}

/// One entry of `kernels`.
fn kernel(n: &Node<'_>) -> Result<ZeKernel, ZeinfoError> {
    let mut k = ZeKernel {
        at: loc(n),
        ..ZeKernel::default()
    };
    let (mut named, mut env) = (false, false);
    for (key, v) in entries(n, "a kernel")? {
        match key {
            "name" => {
                k.name = name_of(v, key)?;
                named = true;
            }
            "execution_env" => {
                execution_env(v, &mut k)?;
                env = true;
            }
            "payload_arguments" => {
                for a in sequence(v, key)? {
                    let arg = payload_arg(a)?;
                    match (arg.kind, arg.bti) {
                        (ArgType::ConstBase, Some(b)) => k.const_bti = Some(b),
                        (ArgType::GlobalBase, Some(b)) => k.global_bti = Some(b),
                        _ => {}
                    }
                    k.payload.push(arg);
                }
            }
            "per_thread_payload_arguments" => {
                for a in sequence(v, key)? {
                    k.per_thread.push(per_thread_arg(a)?);
                }
            }
            "binding_table_indices" => {
                for a in sequence(v, key)? {
                    k.binding_table.push(binding(a)?);
                }
            }
            "inline_samplers" => {
                for a in sequence(v, key)? {
                    k.inline_samplers.push(inline_sampler(a)?);
                }
            }
            _ => {}
        }
    }
    if !named {
        return fail(
            k.at,
            "a kernel without `name`: expected `name: KERNEL`".into(),
        );
    }
    if !env {
        return fail(
            k.at,
            format!(
                "kernel `{}` has no `execution_env`: expected one with `simd_size`",
                k.name
            ),
        );
    }
    Ok(k)
}

fn execution_env(n: &Node<'_>, k: &mut ZeKernel) -> Result<(), ZeinfoError> {
    let mut simd = None;
    for (key, v) in entries(n, "`execution_env`")? {
        match key {
            "simd_size" => {
                let s = uint(v, key)?;
                if !matches!(s, 1 | 8 | 16 | 32) {
                    return fail(
                        loc(v),
                        format!("`simd_size`: expected 1, 8, 16 or 32, found {s}"),
                    );
                }
                simd = Some(s);
            }
            "grf_count" => k.grf_count = Some(uint(v, key)?),
            "inline_data_payload_size" => k.inline_data = Some(uint(v, key)?),
            "slm_size" => k.slm_size = uint(v, key)?,
            _ => {}
        }
    }
    match simd {
        Some(s) => {
            k.simd = s;
            Ok(())
        }
        None => fail(
            loc(n),
            "`execution_env` without `simd_size`: expected `simd_size: 8`, 16 or 32".into(),
        ),
    }
}

/// The fields of one list entry every payload and per-thread argument has.
struct Common<'n, 'a> {
    arg_type: Option<(&'n str, &'n Node<'a>)>,
    offset: Option<u32>,
    size: Option<u32>,
    rest: Vec<(&'n str, &'n Node<'a>)>,
}

fn common<'n, 'a>(n: &'n Node<'a>, ctx: &str) -> Result<Common<'n, 'a>, ZeinfoError> {
    let mut c = Common {
        arg_type: None,
        offset: None,
        size: None,
        rest: Vec::new(),
    };
    for (key, v) in entries(n, ctx)? {
        match key {
            "arg_type" => {
                let t = text(v).ok_or_else(|| ZeinfoError {
                    at: loc(v),
                    message: format!("`arg_type`: expected a name, found {}", what(v)),
                })?;
                c.arg_type = Some((t, v));
            }
            "offset" => c.offset = Some(uint(v, key)?),
            "size" => c.size = Some(uint(v, key)?),
            _ => c.rest.push((key, v)),
        }
    }
    if c.arg_type.is_none() {
        return fail(loc(n), format!("{ctx} without `arg_type`"));
    }
    Ok(c)
}

fn payload_arg(n: &Node<'_>) -> Result<PayloadArg, ZeinfoError> {
    let c = common(n, "a payload argument")?;
    let (name, at) = c.arg_type.unwrap_or(("", n));
    let mut kind = match ARG_TYPES.iter().find(|(t, _)| *t == name) {
        Some(&(_, k)) => k,
        None if name == "arg_bypointer" => ArgType::ByPointer {
            addrmode: AddrMode::Stateless,
            addrspace: AddrSpace::Global,
        },
        None => {
            let known: Vec<&str> = ARG_TYPES.iter().map(|(t, _)| *t).collect();
            return fail(
                loc(at),
                format!(
                    "unknown `arg_type: {name}`: expected arg_bypointer or one of {}",
                    known.join(", ")
                ),
            );
        }
    };
    let mut arg = PayloadArg {
        kind,
        offset: c.offset.unwrap_or(0),
        size: c.size.unwrap_or(0),
        arg_index: None,
        source_offset: 0,
        bti: None,
        bindless: false,
        sampler_index: None,
        at: loc(n),
    };
    for (key, v) in c.rest {
        match key {
            "arg_index" => arg.arg_index = Some(uint(v, key)?),
            "sampler_index" => arg.sampler_index = Some(uint(v, key)?),
            "source_offset" => arg.source_offset = uint(v, key)?,
            "bti_value" => arg.bti = Some(uint(v, key)?),
            "addrmode" if !matches!(kind, ArgType::ByPointer { .. }) => {
                arg.bindless = text(v) == Some("bindless");
            }
            "addrmode" | "addrspace" => pointer_field(key, v, &mut kind)?,
            _ => {}
        }
    }
    arg.kind = kind;
    check_payload_arg(&arg, name, c.offset.is_some(), c.size.is_some())?;
    Ok(arg)
}

fn pointer_field(key: &str, v: &Node<'_>, kind: &mut ArgType) -> Result<(), ZeinfoError> {
    let ArgType::ByPointer {
        addrmode,
        addrspace,
    } = kind
    else {
        return Ok(());
    };
    let t = text(v).unwrap_or("");
    match (key, t) {
        ("addrmode", "stateless") => *addrmode = AddrMode::Stateless,
        ("addrmode", "stateful") => *addrmode = AddrMode::Stateful,
        ("addrmode", "bindless") => *addrmode = AddrMode::Bindless,
        ("addrmode", "slm") => *addrmode = AddrMode::Slm,
        ("addrspace", "global") => *addrspace = AddrSpace::Global,
        ("addrspace", "local") => *addrspace = AddrSpace::Local,
        ("addrspace", "constant") => *addrspace = AddrSpace::Constant,
        ("addrspace", "image") => *addrspace = AddrSpace::Image,
        ("addrspace", "sampler") => *addrspace = AddrSpace::Sampler,
        ("addrmode", _) => {
            return fail(
                loc(v),
                format!(
                    "`addrmode`: expected stateless, stateful, bindless or slm, found {}",
                    what(v)
                ),
            )
        }
        _ => {
            return fail(
                loc(v),
                format!(
                    "`addrspace`: expected global, local, constant, image or sampler, found {}",
                    what(v)
                ),
            )
        }
    }
    Ok(())
}

/// What every payload argument must have: an offset and size where it has bytes, an
/// `arg_index` where it belongs to a parameter, a size its kind allows.
fn check_payload_arg(
    a: &PayloadArg,
    name: &str,
    has_offset: bool,
    has_size: bool,
) -> Result<(), ZeinfoError> {
    let per_param = matches!(
        a.kind,
        ArgType::ByPointer { .. }
            | ArgType::ByValue
            | ArgType::BufferAddress
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
    if a.kind == ArgType::InlineSampler && a.sampler_index.is_none() {
        return fail(
            a.at,
            format!(
                "`arg_type: {name}` without `sampler_index`: expected the inline sampler it holds"
            ),
        );
    }
    if per_param && a.arg_index.is_none() {
        return fail(
            a.at,
            format!("`arg_type: {name}` without `arg_index`: expected the parameter it belongs to"),
        );
    }
    let zero_ok = matches!(a.kind, ArgType::ByPointer { .. });
    if !zero_ok && (!has_offset || !has_size) {
        return fail(
            a.at,
            format!("`arg_type: {name}` without `offset` and `size`"),
        );
    }
    let sizes: &[u32] = match a.kind {
        ArgType::GlobalIdOffset
        | ArgType::LocalSize
        | ArgType::EnqueuedLocalSize
        | ArgType::GlobalSize
        | ArgType::NumGroups => &[4, 8, 12],
        ArgType::WorkDimensions | ArgType::BufferOffset => &[4],
        ArgType::ByPointer { .. } => &[0, 4, 8],
        // 32-bit program-scope bases: acm-g10, mtl and arl-h kernels of ocloc 26.27.
        ArgType::ConstBase | ArgType::GlobalBase => &[4, 8],
        ArgType::BufferAddress
        | ArgType::PrivateBase
        | ArgType::ImplicitArgBuffer
        | ArgType::IndirectDataPointer
        | ArgType::ScratchPointer => &[8],
        ArgType::ImageWidth
        | ArgType::ImageHeight
        | ArgType::ImageDepth
        | ArgType::ImageChannelDataType
        | ArgType::ImageChannelOrder
        | ArgType::SamplerAddress
        | ArgType::SamplerNormalized
        | ArgType::SamplerSnapWa => &[4],
        ArgType::InlineSampler => &[4, 8],
        ArgType::ByValue | ArgType::NotGiven(_) => &[],
    };
    if !sizes.is_empty() && !sizes.contains(&a.size) {
        let list: Vec<String> = sizes.iter().map(u32::to_string).collect();
        return fail(
            a.at,
            format!(
                "`arg_type: {name}` of size {}: expected size {}",
                a.size,
                list.join(" or ")
            ),
        );
    }
    if a.offset.checked_add(a.size).is_none_or(|end| end > 1 << 16) {
        return fail(
            a.at,
            format!(
                "`arg_type: {name}` at offset {} size {}: past 64 KiB of cross-thread data",
                a.offset, a.size
            ),
        );
    }
    Ok(())
}

fn per_thread_arg(n: &Node<'_>) -> Result<PerThreadArg, ZeinfoError> {
    let c = common(n, "a per-thread payload argument")?;
    let (name, at) = c.arg_type.unwrap_or(("", n));
    let packed = match name {
        "local_id" => false,
        "packed_local_ids" => true,
        _ => {
            return fail(
                loc(at),
                format!(
                    "unknown per-thread `arg_type: {name}`: expected local_id or packed_local_ids"
                ),
            )
        }
    };
    let (Some(offset), Some(size)) = (c.offset, c.size) else {
        return fail(
            loc(n),
            format!("`arg_type: {name}` without `offset` and `size`"),
        );
    };
    if offset.checked_add(size).is_none_or(|end| end > 1 << 16) {
        return fail(
            loc(n),
            format!("`arg_type: {name}` at offset {offset} size {size}: past 64 KiB"),
        );
    }
    Ok(PerThreadArg {
        packed,
        offset,
        size,
        at: loc(n),
    })
}

/// One entry of `inline_samplers` (IGC's `zeinfo.md`, "Inline samplers": `sampler_index`,
/// `addrmode` none, clamp_border, clamp_edge, repeat or mirror, `filtermode` nearest or
/// linear, `normalized` false unless given).
fn inline_sampler(n: &Node<'_>) -> Result<InlineSampler, ZeinfoError> {
    let (mut index, mut address, mut filter, mut normalized) = (None, None, None, false);
    for (key, v) in entries(n, "an inline sampler")? {
        match key {
            "sampler_index" => index = Some(uint(v, key)?),
            "addrmode" => {
                address = Some(match text(v) {
                    Some("none") => AddressMode::None,
                    Some("clamp_border") => AddressMode::Clamp,
                    Some("clamp_edge") => AddressMode::ClampToEdge,
                    Some("repeat") => AddressMode::Repeat,
                    Some("mirror") => AddressMode::MirroredRepeat,
                    _ => {
                        return fail(
                            loc(v),
                            format!(
                                "`addrmode`: expected none, clamp_border, clamp_edge, repeat or \
                                 mirror, found {}",
                                what(v)
                            ),
                        )
                    }
                })
            }
            "filtermode" => {
                filter = Some(match text(v) {
                    Some("nearest") => Filter::Nearest,
                    Some("linear") => Filter::Linear,
                    _ => {
                        return fail(
                            loc(v),
                            format!(
                                "`filtermode`: expected nearest or linear, found {}",
                                what(v)
                            ),
                        )
                    }
                })
            }
            "normalized" => {
                normalized = match &v.data {
                    YamlData::Value(Scalar::Boolean(b)) => *b,
                    _ => match text(v) {
                        Some("true") => true,
                        Some("false") => false,
                        _ => {
                            return fail(
                                loc(v),
                                format!("`normalized`: expected true or false, found {}", what(v)),
                            )
                        }
                    },
                }
            }
            _ => {}
        }
    }
    match (index, address, filter) {
        (Some(sampler_index), Some(address), Some(filter)) => Ok(InlineSampler {
            sampler_index,
            state: SamplerState {
                normalized,
                address,
                filter,
            },
            at: loc(n),
        }),
        _ => fail(
            loc(n),
            "an inline sampler needs `sampler_index`, `addrmode` and `filtermode`".into(),
        ),
    }
}

fn binding(n: &Node<'_>) -> Result<(u32, u32), ZeinfoError> {
    let (mut arg, mut bti) = (None, None);
    for (key, v) in entries(n, "a binding-table index")? {
        match key {
            "arg_index" => arg = Some(uint(v, key)?),
            "bti_value" => bti = Some(uint(v, key)?),
            _ => {}
        }
    }
    match (arg, bti) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => fail(
            loc(n),
            "a binding-table index needs `bti_value` and `arg_index`".into(),
        ),
    }
}

#[cfg(test)]
mod tests;
