//! Typed surfaces (OpenCL images): their size, format and texel layout, and the conversion of a
//! texel to and from the dwords a message carries.
//!
//! What the docs say and what this model does:
//! - A typed write converts each channel "based on the following rules": F to FLOAT "IEEE float
//!   conversion", F to SNORM/UNORM "Convert IEEE float to fixed point. Round to even and clamp
//!   to min/max if destination is narrower", D to SINT and UD to UINT "Clamp to min/max if
//!   destination is narrower" (SCATTER4_TYPED.md:125-138). Channels the format lacks are not
//!   written.
//! - A typed read returns, per enabled channel, the texel's channel as a float (FLOAT, UNORM) or
//!   an integer (UINT, SINT) dword; the docs do not say what a channel the format lacks reads
//!   as, so this follows OpenCL (1.2, 8.3 "Conversion Rules"... `CL_R` reads as `(r, 0, 0, 1)`),
//!   which is what Intel's sampler returns too: 0 for G and B, 1 (1.0 for float formats) for A.
//! - Out of bounds: "On write: data is dropped" (SCATTER4_TYPED.md:104); a sampler-less read
//!   (`read_imagef(img, int2)`, CLK_ADDRESS_NONE) out of bounds is undefined in OpenCL, and
//!   returns zeros here, as the untyped messages' "On read: zeros are returned" (memory.rs).
//! - Texels are stored row after row, `row_pitch` bytes apart, slices `slice_pitch` apart, with
//!   the channels of a texel in R, G, B, A order, little-endian (OpenCL's `CL_R`, `CL_RG`,
//!   `CL_RGBA` host layouts).

use alloc::format;
use alloc::string::String;
use core::fmt;

/// The channels a texel holds, in memory order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChannelOrder {
    R,
    Rg,
    Rgba,
}

impl ChannelOrder {
    pub fn count(self) -> u32 {
        match self {
            ChannelOrder::R => 1,
            ChannelOrder::Rg => 2,
            ChannelOrder::Rgba => 4,
        }
    }
}

/// The type of each channel (OpenCL's `CL_FLOAT`, `CL_UNORM_INT8`, `CL_UNSIGNED_INT8`,
/// `CL_UNSIGNED_INT32`, `CL_SIGNED_INT32`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChannelType {
    F32,
    Unorm8,
    U8,
    U32,
    I32,
}

impl ChannelType {
    pub fn size(self) -> u32 {
        match self {
            ChannelType::Unorm8 | ChannelType::U8 => 1,
            _ => 4,
        }
    }

    /// Whether the channel reads as a float (FLOAT and UNORM formats).
    pub fn is_float(self) -> bool {
        matches!(self, ChannelType::F32 | ChannelType::Unorm8)
    }
}

/// A texel format: channel order and type, as `visa run --image` names it (`rgba-f32`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageFormat {
    pub order: ChannelOrder,
    pub ty: ChannelType,
}

impl ImageFormat {
    /// Every format by name.
    pub const ALL: &'static [(&'static str, ImageFormat)] = &{
        use ChannelOrder::*;
        use ChannelType::*;
        const fn f(order: ChannelOrder, ty: ChannelType) -> ImageFormat {
            ImageFormat { order, ty }
        }
        [
            ("r-f32", f(R, F32)),
            ("rg-f32", f(Rg, F32)),
            ("rgba-f32", f(Rgba, F32)),
            ("r-unorm8", f(R, Unorm8)),
            ("rgba-unorm8", f(Rgba, Unorm8)),
            ("r-u8", f(R, U8)),
            ("rgba-u8", f(Rgba, U8)),
            ("r-u32", f(R, U32)),
            ("rgba-u32", f(Rgba, U32)),
            ("r-i32", f(R, I32)),
            ("rgba-i32", f(Rgba, I32)),
        ]
    };

    /// The format of a name, or an error listing the names.
    pub fn parse(name: &str) -> Result<ImageFormat, String> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
            .ok_or_else(|| {
                let names: alloc::vec::Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
                format!(
                    "unknown image format `{name}`; expected one of {}",
                    names.join(", ")
                )
            })
    }

    /// OpenCL's `cl_channel_order` value (`get_image_channel_order`): `CL_R` 0x10B0, `CL_RG`
    /// 0x10B2, `CL_RGBA` 0x10B5 (`cl.h`).
    pub fn cl_channel_order(self) -> u32 {
        match self.order {
            ChannelOrder::R => 0x10B0,
            ChannelOrder::Rg => 0x10B2,
            ChannelOrder::Rgba => 0x10B5,
        }
    }

    /// OpenCL's `cl_channel_type` value (`get_image_channel_data_type`): `CL_UNORM_INT8`
    /// 0x10D2, `CL_SIGNED_INT32` 0x10D9, `CL_UNSIGNED_INT8` 0x10DA, `CL_UNSIGNED_INT32`
    /// 0x10DC, `CL_FLOAT` 0x10DE (`cl.h`).
    pub fn cl_channel_type(self) -> u32 {
        match self.ty {
            ChannelType::Unorm8 => 0x10D2,
            ChannelType::I32 => 0x10D9,
            ChannelType::U8 => 0x10DA,
            ChannelType::U32 => 0x10DC,
            ChannelType::F32 => 0x10DE,
        }
    }

    /// Bytes per texel.
    pub fn texel_bytes(self) -> u32 {
        self.order.count() * self.ty.size()
    }

    /// The dword a typed read returns for channel `c` (0 R .. 3 A) of a texel's bytes.
    pub fn read_channel(self, texel: &[u8], c: u32) -> u32 {
        let float = self.ty.is_float();
        if c >= self.order.count() {
            return match (c, float) {
                (3, true) => 1.0f32.to_bits(),
                (3, false) => 1,
                _ => 0,
            };
        }
        let s = self.ty.size() as usize;
        let b = &texel[c as usize * s..c as usize * s + s];
        match self.ty {
            ChannelType::F32 | ChannelType::U32 | ChannelType::I32 => {
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            }
            ChannelType::Unorm8 => (f32::from(b[0]) / 255.0).to_bits(),
            ChannelType::U8 => u32::from(b[0]),
        }
    }

    /// Writes channel `c` of a texel from the dword a typed write carries (no-op for a channel
    /// the format lacks).
    pub fn write_channel(self, texel: &mut [u8], c: u32, dword: u32) {
        if c >= self.order.count() {
            return;
        }
        let s = self.ty.size() as usize;
        let b = &mut texel[c as usize * s..c as usize * s + s];
        match self.ty {
            ChannelType::F32 | ChannelType::U32 | ChannelType::I32 => {
                b.copy_from_slice(&dword.to_le_bytes())
            }
            ChannelType::Unorm8 => b[0] = unorm8(f32::from_bits(dword)),
            ChannelType::U8 => b[0] = dword.min(255) as u8,
        }
    }
}

/// "Convert IEEE float to fixed point. Round to even and clamp to min/max"
/// (SCATTER4_TYPED.md:133): NaN gives 0, as OpenCL's conversion to UNORM_INT8 does.
fn unorm8(x: f32) -> u8 {
    if x.is_nan() {
        return 0;
    }
    let v = x.clamp(0.0, 1.0) * 255.0;
    // Round half to even without std: the integer part, then the remainder.
    let i = v as u32;
    let frac = v - i as f32;
    let r = if frac > 0.5 || (frac == 0.5 && i % 2 == 1) {
        i + 1
    } else {
        i
    };
    r.min(255) as u8
}

impl fmt::Display for ImageFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Self::ALL
            .iter()
            .find(|(_, x)| x == self)
            .map(|(n, _)| *n)
            .unwrap_or("?");
        f.write_str(name)
    }
}

/// A typed surface's geometry: `width` x `height` x `depth` texels (1 for the dimensions an
/// image lacks), rows `row_pitch` bytes apart and slices `slice_pitch` apart, and how many
/// dimensions it has (1D, 2D or 3D: what a `resinfo` of it returns depends on it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub dims: u8,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub format: ImageFormat,
    pub row_pitch: u32,
    pub slice_pitch: u32,
}

impl Image {
    /// A tightly packed image (the pitches OpenCL gives when the host passes 0), of 3
    /// dimensions when `depth` is more than 1, 2 when `height` is, else 1 (see `dims`).
    pub fn packed(width: u32, height: u32, depth: u32, format: ImageFormat) -> Image {
        let row_pitch = width.saturating_mul(format.texel_bytes());
        let dims = if depth > 1 {
            3
        } else if height > 1 {
            2
        } else {
            1
        };
        Image {
            dims,
            width,
            height,
            depth,
            format,
            row_pitch,
            slice_pitch: row_pitch.saturating_mul(height),
        }
    }

    /// Bytes the texels take.
    pub fn bytes(&self) -> u64 {
        u64::from(self.slice_pitch) * u64::from(self.depth)
    }

    /// The byte offset of texel `(u, v, r)`, or `None` out of bounds (coordinates are the
    /// unsigned dwords of the message: a negative coordinate is out of bounds too).
    pub fn texel(&self, u: u32, v: u32, r: u32) -> Option<usize> {
        if u >= self.width || v >= self.height || r >= self.depth {
            return None;
        }
        let at = u64::from(r) * u64::from(self.slice_pitch)
            + u64::from(v) * u64::from(self.row_pitch)
            + u64::from(u) * u64::from(self.format.texel_bytes());
        usize::try_from(at).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(name: &str) -> ImageFormat {
        ImageFormat::parse(name).unwrap()
    }

    #[test]
    fn names_parse_and_print() {
        for (n, f) in ImageFormat::ALL {
            assert_eq!(ImageFormat::parse(n), Ok(*f));
            assert_eq!(alloc::string::ToString::to_string(f), *n);
        }
        let e = ImageFormat::parse("bgra-f16").unwrap_err();
        assert!(e.contains("bgra-f16") && e.contains("rgba-f32"), "{e}");
    }

    #[test]
    fn missing_channels_read_as_zero_and_one() {
        let t = 2.5f32.to_bits().to_le_bytes();
        let f = fmt("r-f32");
        assert_eq!(f.read_channel(&t, 0), 2.5f32.to_bits());
        assert_eq!(f.read_channel(&t, 1), 0);
        assert_eq!(f.read_channel(&t, 2), 0);
        assert_eq!(f.read_channel(&t, 3), 1.0f32.to_bits());
        let u = fmt("r-u32");
        assert_eq!(u.read_channel(&7u32.to_le_bytes(), 3), 1);
    }

    #[test]
    fn unorm8_rounds_to_even_and_clamps() {
        // 0.5 * 255 = 127.5 -> 128 (even); 1.5/255*255 = 1.5 -> 2; 2.5 -> 2.
        assert_eq!(unorm8(0.5), 128);
        assert_eq!(unorm8(2.5 / 255.0), 2);
        assert_eq!(unorm8(-1.0), 0);
        assert_eq!(unorm8(7.0), 255);
        assert_eq!(unorm8(f32::NAN), 0);
        let f = fmt("rgba-unorm8");
        assert_eq!(f.read_channel(&[0, 255, 51, 0], 1), 1.0f32.to_bits());
        assert_eq!(f.read_channel(&[0, 255, 51, 0], 2), 0.2f32.to_bits());
    }

    #[test]
    fn writes_clamp_and_skip_missing_channels() {
        let f = fmt("rgba-u8");
        let mut t = [9u8; 4];
        f.write_channel(&mut t, 0, 300);
        f.write_channel(&mut t, 1, 17);
        assert_eq!(t, [255, 17, 9, 9]);
        let r = fmt("r-i32");
        let mut t = [0u8; 4];
        r.write_channel(&mut t, 1, 5);
        assert_eq!(t, [0; 4]);
        r.write_channel(&mut t, 0, (-3i32) as u32);
        assert_eq!(t, (-3i32).to_le_bytes());
    }

    #[test]
    fn texel_offsets_use_the_pitches() {
        let mut i = Image::packed(3, 2, 1, fmt("rgba-f32"));
        assert_eq!((i.row_pitch, i.bytes()), (48, 96));
        assert_eq!(i.texel(2, 1, 0), Some(48 + 32));
        assert_eq!(i.texel(3, 0, 0), None);
        assert_eq!(i.texel(0, 2, 0), None);
        assert_eq!(i.texel(u32::MAX, 0, 0), None);
        i.row_pitch = 64;
        assert_eq!(i.texel(1, 1, 0), Some(64 + 16));
    }
}
