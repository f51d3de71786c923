//! Sampler state and sampling: what 3D_SAMPLE returns for an image, a sampler and coordinates.
//!
//! The vISA docs leave the sampler to its state ("Samples `<surface>` using the indicated
//! sampler state `<sampler>`", 3D_SAMPLE.md); what that state means for an OpenCL kernel is the
//! OpenCL C spec's (1.2, 8.2 "Addressing and Filter Modes"), which this module follows formula
//! by formula, per axis of the image:
//!
//! - **nearest**, `none`, `clamp_to_edge`, `clamp`: `u = s * w` (normalised coordinates) or
//!   `u = s`, `i = floor(u)`; `clamp_to_edge` clamps `i` to `0..w-1`; `clamp` reads the border
//!   colour outside `0..w-1`; `none` leaves `i` (out of range is undefined in OpenCL: the
//!   border colour here).
//! - **linear**, same modes: `i0 = floor(u - 0.5)`, `i1 = i0 + 1`, `a = frac(u - 0.5)`, each
//!   index clamped or bordered as above; the texel is `(1 - a) T[i0] + a T[i1]` per axis
//!   (bilinear in 2D, trilinear in 3D: 8.2.1, the weighted sum of `T_i0j0k0` ... `T_i1j1k1`).
//! - **repeat** (normalised only): `u = (s - floor(s)) * w`; nearest `i = floor(u)`, `w` less
//!   when `i > w - 1`; linear `i0 = floor(u - 0.5)`, `i1 = i0 + 1`, `i0 + w` when `i0 < 0`,
//!   `i1 - w` when `i1 > w - 1`.
//! - **mirrored_repeat** (normalised only): `s' = |s - 2 rint(0.5 s)|`, `u = s' * w`; nearest
//!   `i = min(floor(u), w - 1)`; linear `i0 = max(floor(u - 0.5), 0)`,
//!   `i1 = min(floor(u - 0.5) + 1, w - 1)`.
//!
//! The border colour is `(0, 0, 0, 0)` for a format with alpha (`rgba`) and `(0, 0, 0, 1)` for
//! one without (`r`, `rg`) (8.2, CL_ADDRESS_CLAMP). Linear filtering is defined for float
//! formats only (8.2: "read_imagei and read_imageui ... sampler with filter mode set to
//! CLK_FILTER_NEAREST"); on an integer format it is an error here. Images have one mip level,
//! so the LOD a message carries selects level 0 whatever its value.

use super::image::Image;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// What a sampler does with a coordinate outside the image (OpenCL's `CLK_ADDRESS_*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AddressMode {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

/// How a sampler picks texels (OpenCL's `CLK_FILTER_*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

/// A sampler's state: what an OpenCL `sampler_t` holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SamplerState {
    pub normalized: bool,
    pub address: AddressMode,
    pub filter: Filter,
}

const ADDRESS_NAMES: [(&str, AddressMode); 5] = [
    ("none", AddressMode::None),
    ("clamp_to_edge", AddressMode::ClampToEdge),
    ("clamp", AddressMode::Clamp),
    ("repeat", AddressMode::Repeat),
    ("mirrored_repeat", AddressMode::MirroredRepeat),
];

impl SamplerState {
    /// A state from `visa run --sampler`'s spelling, `normalized|unnormalized,ADDRESS,FILTER`
    /// (`normalized,repeat,linear`); repeat modes with unnormalised coordinates are refused,
    /// as OpenCL allows them only with normalised ones (6.12.14.1).
    pub fn parse(text: &str) -> Result<SamplerState, String> {
        let bad = |why: String| {
            format!(
                "sampler `{text}`: {why}; expected normalized|unnormalized,\
                 none|clamp_to_edge|clamp|repeat|mirrored_repeat,nearest|linear"
            )
        };
        let parts: Vec<&str> = text.split(',').collect();
        let [coords, address, filter] = parts[..] else {
            return Err(bad(format!("{} parts, not 3", parts.len())));
        };
        let normalized = match coords {
            "normalized" => true,
            "unnormalized" => false,
            c => return Err(bad(format!("unknown coordinates `{c}`"))),
        };
        let address = ADDRESS_NAMES
            .iter()
            .find(|(n, _)| *n == address)
            .map(|(_, a)| *a)
            .ok_or_else(|| bad(format!("unknown address mode `{address}`")))?;
        let filter = match filter {
            "nearest" => Filter::Nearest,
            "linear" => Filter::Linear,
            f => return Err(bad(format!("unknown filter `{f}`"))),
        };
        if !normalized && matches!(address, AddressMode::Repeat | AddressMode::MirroredRepeat) {
            return Err(bad("repeat modes need normalized coordinates".into()));
        }
        Ok(SamplerState {
            normalized,
            address,
            filter,
        })
    }

    /// The sampler's `sampler_address` implicit argument: Intel's runtime encoding of the
    /// address mode (IGC `OCLBIUtils.h`, `LEGACY_CLK_ADDRESS_*`: none 0, clamp 1,
    /// clamp_to_edge 2, repeat 3, mirrored_repeat 4).
    pub fn address_arg(&self) -> u32 {
        match self.address {
            AddressMode::None => 0,
            AddressMode::Clamp => 1,
            AddressMode::ClampToEdge => 2,
            AddressMode::Repeat => 3,
            AddressMode::MirroredRepeat => 4,
        }
    }

    /// The `sampler_normalized` implicit argument (`LEGACY_CLK_NORMALIZED_COORDS_TRUE` 8).
    pub fn normalized_arg(&self) -> u32 {
        if self.normalized {
            8
        } else {
            0
        }
    }

    /// The `sampler_snap_wa` implicit argument: all ones for a clamp (border) sampler with the
    /// nearest filter, whose negative coordinates Intel's code then moves to -1 (`cmp.eq` of
    /// it with 0, then `sel` of -1.0 for coordinates below 0, kernel `arg_s` on tgllp);
    /// 0 otherwise. Either value samples the same texels here.
    pub fn snap_wa_arg(&self) -> u32 {
        if self.address == AddressMode::Clamp && self.filter == Filter::Nearest {
            u32::MAX
        } else {
            0
        }
    }
}

impl fmt::Display for SamplerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let address = ADDRESS_NAMES
            .iter()
            .find(|(_, a)| *a == self.address)
            .map_or("?", |(n, _)| *n);
        write!(
            f,
            "{},{address},{}",
            if self.normalized {
                "normalized"
            } else {
                "unnormalized"
            },
            match self.filter {
                Filter::Nearest => "nearest",
                Filter::Linear => "linear",
            }
        )
    }
}

/// `x - floor(x)`.
fn frac(x: f32) -> f32 {
    x - libm::floorf(x)
}

/// `floor(x)` as an integer, saturated far outside any image.
fn ifloor(x: f32) -> i64 {
    let f = libm::floorf(x);
    if f.is_nan() {
        0
    } else {
        f.clamp(-1.0e12, 1.0e12) as i64
    }
}

/// A texel index along one axis: `None` for the border colour.
type Index = Option<u32>;

/// An index of a `none`, `clamp_to_edge` or `clamp` sampler: clamped, or the border outside.
fn bound(s: &SamplerState, i: i64, size: u32) -> Index {
    let last = i64::from(size) - 1;
    match s.address {
        AddressMode::ClampToEdge => Some(i.clamp(0, last) as u32),
        _ => (0..=last).contains(&i).then_some(i as u32),
    }
}

/// The texel the nearest filter takes along an axis of `size` texels for coordinate `x`.
pub fn nearest(s: &SamplerState, x: f32, size: u32) -> Index {
    let size = size.max(1);
    let w = size as f32;
    let last = i64::from(size) - 1;
    match s.address {
        AddressMode::Repeat => {
            let i = ifloor(frac(x) * w);
            Some((if i > last { i - i64::from(size) } else { i }).clamp(0, last) as u32)
        }
        AddressMode::MirroredRepeat => Some(ifloor(mirror(x) * w).clamp(0, last) as u32),
        _ => bound(s, ifloor(if s.normalized { x * w } else { x }), size),
    }
}

/// `|s - 2 rint(0.5 s)|`: the mirrored coordinate in `0..=1`.
fn mirror(x: f32) -> f32 {
    (x - 2.0 * libm::rintf(0.5 * x)).abs()
}

/// The two texels the linear filter blends along an axis of `size` texels for coordinate `x`,
/// and the weight `a` of the second: `(1 - a) T[i0] + a T[i1]`.
pub fn linear(s: &SamplerState, x: f32, size: u32) -> (Index, Index, f32) {
    let size = size.max(1);
    let w = size as f32;
    let n = i64::from(size);
    match s.address {
        AddressMode::Repeat => {
            let u = frac(x) * w - 0.5;
            let i0 = ifloor(u);
            let i0w = if i0 < 0 { i0 + n } else { i0 };
            let i1 = if i0 + 1 > n - 1 { i0 + 1 - n } else { i0 + 1 };
            (
                Some(i0w.clamp(0, n - 1) as u32),
                Some(i1.clamp(0, n - 1) as u32),
                frac(u),
            )
        }
        AddressMode::MirroredRepeat => {
            let u = mirror(x) * w - 0.5;
            let i0 = ifloor(u);
            (
                Some(i0.clamp(0, n - 1) as u32),
                Some((i0 + 1).clamp(0, n - 1) as u32),
                frac(u),
            )
        }
        _ => {
            let u = if s.normalized { x * w } else { x } - 0.5;
            let i0 = ifloor(u);
            (bound(s, i0, size), bound(s, i0 + 1, size), frac(u))
        }
    }
}

/// The channels (R, G, B, A as a typed read returns them: float bits or integers) of the
/// texel at `at` (`None`: the border colour).
fn texel(image: &Image, bytes: &[u8], at: [Index; 3]) -> [u32; 4] {
    let float = image.format.ty.is_float();
    let found = match at {
        [Some(u), Some(v), Some(r)] => image.texel(u, v, r).and_then(|o| {
            let end = o.checked_add(image.format.texel_bytes() as usize)?;
            bytes.get(o..end)
        }),
        _ => None,
    };
    match found {
        Some(t) => core::array::from_fn(|c| image.format.read_channel(t, c as u32)),
        None => {
            let one = if float { 1.0f32.to_bits() } else { 1 };
            let alpha = if image.format.order.count() == 4 {
                0
            } else {
                one
            };
            [0, 0, 0, alpha]
        }
    }
}

/// Samples `image` (its texels `bytes`) at `coords` through sampler `s`: the four channels a
/// typed read returns. `coords` has one coordinate per axis the message gives (1 to 3); the
/// image's other axes read at index 0. An error for linear filtering of an integer format.
pub fn sample(
    image: &Image,
    bytes: &[u8],
    s: &SamplerState,
    coords: &[f32],
) -> Result<[u32; 4], String> {
    let sizes = [image.width, image.height, image.depth];
    let axes = coords.len().min(3);
    if s.filter == Filter::Nearest {
        let mut at: [Index; 3] = [Some(0); 3];
        for a in 0..axes {
            at[a] = nearest(s, coords[a], sizes[a].max(1));
        }
        return Ok(texel(image, bytes, at));
    }
    if !image.format.ty.is_float() {
        return Err(format!(
            "linear filtering of a {} image (OpenCL defines it for float formats only)",
            image.format
        ));
    }
    let mut pairs = [(Some(0), Some(0), 0.0f32); 3];
    for a in 0..axes {
        pairs[a] = linear(s, coords[a], sizes[a].max(1));
    }
    let mut sum = [0.0f32; 4];
    // The 2^axes corners, each weighted by the product of its axes' weights.
    for corner in 0..(1usize << axes) {
        let mut weight = 1.0f32;
        let mut at: [Index; 3] = [Some(0); 3];
        for (a, &(i0, i1, w)) in pairs.iter().enumerate().take(axes) {
            let hi = corner >> a & 1 == 1;
            at[a] = if hi { i1 } else { i0 };
            weight *= if hi { w } else { 1.0 - w };
        }
        let t = texel(image, bytes, at);
        for (s, c) in sum.iter_mut().zip(t) {
            *s += weight * f32::from_bits(c);
        }
    }
    Ok(sum.map(f32::to_bits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::image::ImageFormat;
    use alloc::string::ToString;
    use alloc::vec;

    fn st(text: &str) -> SamplerState {
        SamplerState::parse(text).unwrap()
    }

    #[test]
    fn states_parse_print_and_refuse() {
        for t in [
            "normalized,repeat,linear",
            "unnormalized,clamp,nearest",
            "normalized,mirrored_repeat,nearest",
            "unnormalized,clamp_to_edge,linear",
            "unnormalized,none,nearest",
        ] {
            assert_eq!(st(t).to_string(), t);
        }
        let e = SamplerState::parse("unnormalized,repeat,nearest").unwrap_err();
        assert!(e.contains("need normalized"), "{e}");
        let e = SamplerState::parse("normalized,wrap,nearest").unwrap_err();
        assert!(e.contains("unknown address mode `wrap`"), "{e}");
        assert!(SamplerState::parse("normalized,none").is_err());
        assert_eq!(st("normalized,repeat,linear").address_arg(), 3);
        assert_eq!(st("normalized,repeat,linear").normalized_arg(), 8);
        assert_eq!(st("unnormalized,clamp,nearest").snap_wa_arg(), u32::MAX);
        assert_eq!(st("unnormalized,clamp,linear").snap_wa_arg(), 0);
    }

    // Axes of 4 texels; every expected index is worked out from the module docs' formulas.

    #[test]
    fn nearest_clamp_to_edge_clamp_and_none() {
        let edge = st("unnormalized,clamp_to_edge,nearest");
        let border = st("unnormalized,clamp,nearest");
        let none = st("unnormalized,none,nearest");
        // u = 2.7 -> 2; u = -0.5 -> floor -1; u = 4.0 -> 4.
        assert_eq!(nearest(&edge, 2.7, 4), Some(2));
        assert_eq!(nearest(&edge, -0.5, 4), Some(0));
        assert_eq!(nearest(&edge, 4.0, 4), Some(3));
        assert_eq!(nearest(&border, -0.5, 4), None);
        assert_eq!(nearest(&border, 4.0, 4), None);
        assert_eq!(nearest(&border, 3.99, 4), Some(3));
        assert_eq!(nearest(&none, 1.0, 4), Some(1));
        // Normalised: 0.3 * 4 = 1.2 -> 1; 0.25 * 4 = 1.0 -> 1.
        let norm = st("normalized,clamp_to_edge,nearest");
        assert_eq!(nearest(&norm, 0.3, 4), Some(1));
        assert_eq!(nearest(&norm, 0.25, 4), Some(1));
        assert_eq!(nearest(&norm, 1.5, 4), Some(3));
    }

    #[test]
    fn nearest_repeat_and_mirrored_repeat() {
        let rep = st("normalized,repeat,nearest");
        // 1.3: frac 0.3 (in f32 0.29999995) * 4 = 1.2 -> 1; -0.1: frac 0.9 * 4 = 3.6 -> 3.
        assert_eq!(nearest(&rep, 1.3, 4), Some(1));
        assert_eq!(nearest(&rep, -0.1, 4), Some(3));
        assert_eq!(nearest(&rep, 2.0, 4), Some(0));
        let mir = st("normalized,mirrored_repeat,nearest");
        // 1.3: rint(0.65) = 1, s' = |1.3 - 2| = 0.7, u = 2.8 -> 2.
        assert_eq!(nearest(&mir, 1.3, 4), Some(2));
        // -0.2: rint(-0.1) = 0, s' = 0.2, u = 0.8 -> 0.
        assert_eq!(nearest(&mir, -0.2, 4), Some(0));
        // 1.0: rint(0.5) = 0 (to even), s' = 1, u = 4 -> min(4, 3) = 3.
        assert_eq!(nearest(&mir, 1.0, 4), Some(3));
        // 2.9: rint(1.45) = 1, s' = 0.9, u = 3.6 -> 3.
        assert_eq!(nearest(&mir, 2.9, 4), Some(3));
    }

    #[test]
    fn linear_indices_and_weights() {
        let close = |(i0, i1, a): (Index, Index, f32), want: (Index, Index, f32)| {
            assert_eq!((i0, i1), (want.0, want.1));
            assert!((a - want.2).abs() < 1e-6, "{a} vs {}", want.2);
        };
        let edge = st("unnormalized,clamp_to_edge,linear");
        // u = 1.75: 1.25 -> i0 1, i1 2, a 0.25.
        close(linear(&edge, 1.75, 4), (Some(1), Some(2), 0.25));
        // u = 0.25: -0.25 -> i0 -1 -> 0, i1 0, a 0.75.
        close(linear(&edge, 0.25, 4), (Some(0), Some(0), 0.75));
        let border = st("unnormalized,clamp,linear");
        close(linear(&border, 0.25, 4), (None, Some(0), 0.75));
        // u = 3.9: 3.4 -> i0 3, i1 4 (border), a 0.4.
        close(linear(&border, 3.9, 4), (Some(3), None, 0.4));
        let rep = st("normalized,repeat,linear");
        // s = 1.05: u = 0.05 * 4 = 0.2, - 0.5 = -0.3 -> i0 -1 + 4 = 3, i1 0, a 0.7.
        close(linear(&rep, 1.05, 4), (Some(3), Some(0), 0.7));
        // s = 0.95: u = 3.8 - 0.5 = 3.3 -> i0 3, i1 4 - 4 = 0, a 0.3.
        close(linear(&rep, 0.95, 4), (Some(3), Some(0), 0.3));
        let mir = st("normalized,mirrored_repeat,linear");
        // s = 1.1: s' = |1.1 - 2| = 0.9, u = 3.6 - 0.5 = 3.1 -> i0 3, i1 min(4, 3), a 0.1.
        close(linear(&mir, 1.1, 4), (Some(3), Some(3), 0.1));
        // s = -0.05: s' = 0.05, u = 0.2 - 0.5 = -0.3 -> i0 max(-1, 0), i1 0, a 0.7.
        close(linear(&mir, -0.05, 4), (Some(0), Some(0), 0.7));
    }

    /// A 4x2 `r-f32` image: texel (x, y) holds 10y + x.
    fn image() -> (Image, Vec<u8>) {
        let image = Image::packed(4, 2, 1, ImageFormat::parse("r-f32").unwrap());
        let mut bytes = vec![];
        for y in 0..2 {
            for x in 0..4 {
                bytes.extend_from_slice(&((10 * y + x) as f32).to_le_bytes());
            }
        }
        (image, bytes)
    }

    fn r(v: [u32; 4]) -> [f32; 4] {
        v.map(f32::from_bits)
    }

    #[test]
    fn bilinear_blend_and_border_colour() {
        let (img, bytes) = image();
        let lin = st("unnormalized,clamp_to_edge,linear");
        // (2.0, 1.0): x 1.5 -> 1, 2, a 0.5; y 0.5 -> 0, 1, b 0.5:
        // 0.25 (1 + 2 + 11 + 12) = 6.5.
        let got = r(sample(&img, &bytes, &lin, &[2.0, 1.0]).unwrap());
        assert_eq!(got, [6.5, 0.0, 0.0, 1.0]);
        // Border on y: (1.5, 2.0) with clamp: y 1.5 -> 1, 2 (border), b 0.5;
        // x 1.0 -> 1, 2, a 0: 0.5 T(1, 1) + 0.5 border (0, A 1) = 5.5, A 1.
        let border = st("unnormalized,clamp,linear");
        let got = r(sample(&img, &bytes, &border, &[1.5, 2.0]).unwrap());
        assert_eq!(got, [5.5, 0.0, 0.0, 1.0]);
        // Nearest outside with clamp: the border colour of an `r` format, (0, 0, 0, 1).
        let near = st("unnormalized,clamp,nearest");
        let got = r(sample(&img, &bytes, &near, &[-0.5, 0.0]).unwrap());
        assert_eq!(got, [0.0, 0.0, 0.0, 1.0]);
        // Normalised repeat nearest: (1.3, 0.75) -> x 1, y 1: 11.
        let rep = st("normalized,repeat,nearest");
        let got = r(sample(&img, &bytes, &rep, &[1.3, 0.75]).unwrap());
        assert_eq!(got[0], 11.0);
    }

    #[test]
    fn rgba_border_is_transparent_and_integer_linear_is_refused() {
        let img = Image::packed(2, 1, 1, ImageFormat::parse("rgba-u32").unwrap());
        let bytes = vec![7u8; img.bytes() as usize];
        let near = st("unnormalized,clamp,nearest");
        assert_eq!(sample(&img, &bytes, &near, &[5.0]).unwrap(), [0, 0, 0, 0]);
        assert_eq!(
            sample(&img, &bytes, &near, &[1.0]).unwrap(),
            [0x0707_0707; 4]
        );
        let e = sample(&img, &bytes, &st("unnormalized,clamp,linear"), &[1.0]).unwrap_err();
        assert!(e.contains("rgba-u32"), "{e}");
    }
}
