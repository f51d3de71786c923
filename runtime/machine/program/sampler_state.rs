//! A hardware SAMPLER_STATE (four dwords in a kernel's dynamic state heap) as the machine's
//! [`SamplerState`]: the fields an OpenCL sampler sets, nothing else.
//!
//! The bit positions are those of the SAMPLER_STATE of Intel's compute-runtime,
//! `shared/source/generated/gen12lp/hw_cmds_generated_gen12lp.inl` (Gen12LP: tgllp) and
//! `shared/source/generated/xe_hpg_core/hw_cmds_generated_xe_hpg_core.inl` (XeHPG: acm-g10),
//! which agree on every field read here. The 2022 compiler writes the state with one layout for
//! both platforms (IGC 1.0.12504.6, `AdaptorOCL/OCL/sp/sp_g8.cpp`
//! `CGen8OpenCLStateProcessor::AddSamplerState`, fields of `Platform/cmd_shared_def_g8.h`
//! `SSharedStateSamplerState`, at the same positions): the bytes of an inline sampler are the
//! same on tgllp and on acm-g10, so one decoder serves both.

use super::super::sampler::{AddressMode, Filter, SamplerState};
use alloc::format;
use alloc::string::String;

/// DWORD 0 `MinModeFilter`, bits 14-16 (`hw_cmds_generated_gen12lp.inl` and
/// `hw_cmds_generated_xe_hpg_core.inl`, SAMPLER_STATE, `MinModeFilter : BITFIELD_RANGE(14, 16)`).
const MIN_FILTER: (u32, u32) = (14, 3);
/// DWORD 0 `MagModeFilter`, bits 17-19 (same files, `MagModeFilter : BITFIELD_RANGE(17, 19)`).
const MAG_FILTER: (u32, u32) = (17, 3);
/// DWORD 3 `TczAddressControlMode`, bits 0-2 (same files, `BITFIELD_RANGE(0, 2)`).
const TCZ_MODE: (u32, u32) = (0, 3);
/// DWORD 3 `TcyAddressControlMode`, bits 3-5 (same files, `BITFIELD_RANGE(3, 5)`).
const TCY_MODE: (u32, u32) = (3, 3);
/// DWORD 3 `TcxAddressControlMode`, bits 6-8 (same files, `BITFIELD_RANGE(6, 8)`).
const TCX_MODE: (u32, u32) = (6, 3);
/// DWORD 3 `NonNormalizedCoordinateEnable`, bit 10 (same files, `BITFIELD_RANGE(10, 10)`).
const NON_NORMALIZED: (u32, u32) = (10, 1);

/// The field `(lowest bit, width)` of a dword.
fn field(dword: u32, (low, width): (u32, u32)) -> u32 {
    (dword >> low) & ((1 << width) - 1)
}

/// A map filter (`MIN_MODE_FILTER` / `MAG_MODE_FILTER` of the same files: NEAREST 0, LINEAR 1;
/// ANISOTROPIC 2 and MONO 6 have no OpenCL sampler).
fn filter(value: u32, name: &str) -> Result<Filter, String> {
    match value {
        0 => Ok(Filter::Nearest),
        1 => Ok(Filter::Linear),
        v => Err(format!(
            "{name} {v}: not NEAREST (0) or LINEAR (1), the filters of an OpenCL sampler"
        )),
    }
}

/// A texture-coordinate mode (`TEXTURE_COORDINATE_MODE` of the same files) as the OpenCL
/// address mode IGC writes it for (`Compiler/Optimizer/OCLBIUtils.cpp`,
/// `CreateInlineSamplerAnnotations`, through `sp/sp_convert_g8.h`
/// `g_cConvertSamplerTextureAddressMode`): WRAP 0 for repeat, MIRROR 1 for mirrored_repeat,
/// CLAMP 2 for clamp_to_edge (and for none, whose out-of-range reads OpenCL leaves undefined),
/// CLAMP_BORDER 4 for clamp. CUBE 3, MIRROR_ONCE 5, HALF_BORDER 6 and MIRROR_101 7 have no
/// OpenCL address mode.
fn address(value: u32, name: &str) -> Result<AddressMode, String> {
    match value {
        0 => Ok(AddressMode::Repeat),
        1 => Ok(AddressMode::MirroredRepeat),
        2 => Ok(AddressMode::ClampToEdge),
        4 => Ok(AddressMode::Clamp),
        v => Err(format!(
            "{name} {v}: not WRAP (0), MIRROR (1), CLAMP (2) or CLAMP_BORDER (4), the modes of \
             an OpenCL sampler"
        )),
    }
}

/// The sampler state of a SAMPLER_STATE's four dwords. An OpenCL sampler has one filter and
/// one address mode: a state whose min and mag filters, or whose three coordinates' modes,
/// differ is refused, as is a repeat mode with unnormalised coordinates (OpenCL C 6.12.14.1).
pub(super) fn decode(dw: [u32; 4]) -> Result<SamplerState, String> {
    let min = filter(field(dw[0], MIN_FILTER), "MinModeFilter")?;
    let mag = filter(field(dw[0], MAG_FILTER), "MagModeFilter")?;
    if min != mag {
        return Err(format!(
            "MinModeFilter {min:?} and MagModeFilter {mag:?} differ: an OpenCL sampler has one filter"
        ));
    }
    let x = address(field(dw[3], TCX_MODE), "TcxAddressControlMode")?;
    let y = address(field(dw[3], TCY_MODE), "TcyAddressControlMode")?;
    let z = address(field(dw[3], TCZ_MODE), "TczAddressControlMode")?;
    if x != y || x != z {
        return Err(format!(
            "address control modes x {x:?}, y {y:?}, z {z:?} differ: an OpenCL sampler has one"
        ));
    }
    let normalized = field(dw[3], NON_NORMALIZED) == 0;
    if !normalized && matches!(x, AddressMode::Repeat | AddressMode::MirroredRepeat) {
        return Err(format!(
            "address mode {x:?} with NonNormalizedCoordinateEnable: OpenCL repeats only \
             normalised coordinates"
        ));
    }
    Ok(SamplerState {
        normalized,
        address: x,
        filter: min,
    })
}
