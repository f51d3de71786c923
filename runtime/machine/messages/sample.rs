//! 3D_SAMPLE: `read_imagef(img, sampler, coords)` and `read_imagei/ui` with a sampler, which
//! Intel's compiler turns into `sample_lz` (tgllp) or `sample_l` with LOD 0 (acm-g10):
//! `movs S0 0x0`, `movs T6 0x0`, `sample_lz.RGBA (M1, 16) 0x0:uw S0 T6 dst u v [r]` (kernels
//! `sampler.cl` on tgllp and acm-g10 `-revision_id 0`). What the sampler state does is in
//! [`crate::machine::sampler`].

use super::typed::{channel_stride, image_bti, put_channels};
use super::{get, lanes, scalar, Fields, MessageLanes};
use crate::machine::memory::{Memory, MemoryError};
use crate::machine::sampler;
use crate::runtime::RawOperand;
use alloc::format;
use alloc::vec::Vec;

/// The operations run here (3D_SAMPLE.md, `Op` bits 7..0), with how many parameters come
/// before the coordinates: `sample` (u, v, r), `sample_b` (bias, u, v, r), `sample_l`
/// (lod, u, v, r), `sample_lz` (u, v, r). Images have one mip level, so bias and LOD select
/// level 0 whatever their values.
fn leading_params(op: u64) -> Option<usize> {
    match op & 0xff {
        0b0000_0000 | 0b0001_1000 => Some(0),
        0b0000_0001 | 0b0000_0010 => Some(1),
        _ => None,
    }
}

/// The message's parameters in order: every raw operand after `Dst` (the generated
/// `visit_operands` gives the counted list under its first name, `U`, `Bias` or `Lod`).
fn params(f: &Fields) -> Vec<RawOperand> {
    f.raws
        .iter()
        .skip_while(|(n, _)| *n != "Dst")
        .skip(1)
        .map(|(_, r)| *r)
        .collect()
}

/// Checks the parts of `Op` and `Aoffimmi` this machine does not model, and returns how many
/// parameters precede the coordinates.
fn check<L: MessageLanes + ?Sized>(f: &Fields, l: &mut L) -> Result<usize, L::Error>
where
    L::Error: From<MemoryError>,
{
    let op = f.int("Op")?;
    let lead = leading_params(op).ok_or_else(|| {
        f.unsupported(format!(
            "sampler operation {:#010b} (sample, sample_b, sample_l and sample_lz run)",
            op & 0xff
        ))
    })?;
    if op & 0x100 != 0 {
        return Err(f.unsupported("the pixel null mask").into());
    }
    if let Ok(a) = f.vector("Aoffimmi") {
        let a = scalar(l, &a)?;
        if a & 0xfff != 0 {
            return Err(f.unsupported(format!("_aoffimmi offsets {a:#x}")).into());
        }
    }
    Ok(lead)
}

/// The sampler index or bindless handle a message's sampler variable holds. `S31` "is
/// reserved and represents bindless samplers" (4_visa_header.md, "Sampler Variables"): it
/// holds a sampler state's handle with bit 0 set, which IGC sets "to select Bindless Sampler
/// State Base Address" (`ResolveSampledImageBuiltins.cpp`; kernels `sampler.cl` on acm-g10:
/// `or (M1_NM, 1) V0065 V0063 0x1:d`, `movs (M1_NM, 1) S31(0) V0065`), so that bit is not
/// part of the handle.
fn sampler_key<L: MessageLanes + ?Sized>(f: &Fields, l: &mut L) -> Result<u32, L::Error>
where
    L::Error: From<MemoryError>,
{
    let var = f.int("Sampler")? as u32;
    let v = l.sampler(var)?;
    Ok(if var == 31 { v & !1 } else { v })
}

/// 3D_SAMPLE (3D_SAMPLE.md): "Samples `<surface>` using the indicated sampler state
/// `<sampler>` ... Up to 4 channels of data is returned for each pixel in `<dst>`", in RGBA
/// order with the disabled channels skipped, each channel's data from the next register (as
/// 3D_LOAD.md:213 says of the same sampler's returns). The sampler variable holds a sampler
/// index, whose state the host bound ([`Memory::bind_sampler`]); the coordinates are F, one
/// per axis given (trailing `%null` parameters left out, a `%null` one in between reads 0).
pub fn sample<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let lead = check(f, l)?;
    let exec = f.exec()?;
    let mask = f.int("Channels")? & 0xf;
    let bti = image_bti(f, l)?;
    let state = mem.sampler(f.name, sampler_key(f, l)?)?;
    let dst = f.raw("Dst")?;
    let mut coords: Vec<RawOperand> = params(f).into_iter().skip(lead).take(3).collect();
    while coords.last().is_some_and(|r| r.id == 0) {
        coords.pop();
    }
    let run = lanes(l, exec, f.pred)?;
    let stride = channel_stride(exec.elements().unwrap_or(1), mem.grf_bytes);
    for &i in &run {
        let mut xyz = [0.0f32; 3];
        for (x, op) in xyz.iter_mut().zip(&coords) {
            if op.id != 0 {
                *x = f32::from_bits(get(l, op, 4, i)? as u32);
            }
        }
        let (image, bytes) = mem.image_mut(f.name, bti)?;
        let data = sampler::sample(&image, bytes, &state, &xyz[..coords.len()])
            .map_err(|e| f.unsupported(e))?;
        put_channels(l, &dst, mask, stride, i, &data)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::run_fields;
    use super::super::test_lanes::{fields, ud, TestLanes};
    use crate::machine::image::{Image, ImageFormat};
    use crate::machine::memory::Memory;
    use crate::machine::sampler::SamplerState;
    use alloc::vec::Vec;

    /// A 4x2 `r-f32` image (texel (x, y) = 10y + x) at binding-table index 0, which T6 holds,
    /// and sampler index 0 (S0) with `state`.
    fn setup(state: &str) -> (Memory, TestLanes) {
        let image = Image::packed(4, 2, 1, ImageFormat::parse("r-f32").unwrap());
        let mut bytes = Vec::new();
        for y in 0..2 {
            for x in 0..4 {
                bytes.extend_from_slice(&((10 * y + x) as f32).to_le_bytes());
            }
        }
        let mut mem = Memory::new(32);
        let id = mem.add_image(image, bytes).unwrap();
        mem.bind(0, id);
        mem.bind_sampler(0, SamplerState::parse(state).unwrap());
        let mut l = TestLanes::default();
        l.surfaces.insert(6, 0);
        l.samplers.insert(0, 0);
        (mem, l)
    }

    fn f32s(l: &TestLanes, id: u32, from: usize, n: usize) -> Vec<f32> {
        (from..from + n)
            .map(|i| f32::from_bits(l.dword(id, i)))
            .collect()
    }

    fn floats(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn sample_lz_nearest_unnormalized_reads_texels_a_channel_per_register() {
        // sample_lz.RGBA (M1, 8) 0x0:uw S0 T6 V3 V1 V2 (tgllp's form).
        let (mut mem, mut l) = setup("unnormalized,clamp,nearest");
        l.dwords(1, &floats(&[0.5, 1.5, 3.9, -0.5, 0.0, 2.2, 1.0, 1.0]));
        l.dwords(2, &floats(&[0.5, 0.5, 1.2, 0.0, 2.0, 0.0, 1.9, 1.0]));
        l.dwords(3, &[0xffff_ffff; 32]);
        l.off.push(7);
        let f = fields(
            "3D_SAMPLE",
            Some(0x03),
            &[
                ("Op", 0b0001_1000),
                ("Channels", 0b1111),
                ("Sampler", 0),
                ("Surface", 6),
            ],
            &[("Aoffimmi", ud(0))],
            &[("Dst", 3), ("U", 1), ("U", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        // Texels (0,0) (1,0) (3,1), border, border (y 2), (2,0), (1,1).
        assert_eq!(f32s(&l, 3, 0, 7), [0.0, 1.0, 13.0, 0.0, 0.0, 2.0, 11.0]);
        // A: 1 (an `r` format's missing alpha, and the border colour's alpha).
        assert_eq!(f32s(&l, 3, 24, 7), [1.0; 7]);
        assert_eq!(l.dword(3, 7), 0xffff_ffff);
    }

    #[test]
    fn s31_holds_a_bindless_sampler_handle_with_bit_0_set_and_bss_a_bindless_image() {
        // IGC 2.x on acm-g10: `or V0065 V0063 0x1:d`, `movs S31(0) V0065`, `movs %bss(0)
        // V0072`, `sample_lz.RGBA (M1, 16) 0x0:uw S31 %bss ...`: the state bound at handle
        // 0x1000 answers S31 holding 0x1001; the image bound at 0x105 answers %bss (T4).
        let (mut mem, mut l) = setup("unnormalized,clamp,nearest");
        mem.bind(0x105, crate::machine::memory::BufferId(0));
        mem.bind_sampler(
            0x1000,
            SamplerState::parse("normalized,repeat,nearest").unwrap(),
        );
        l.samplers.insert(31, 0x1001);
        l.surfaces.insert(4, 0x105);
        // s = 1.25 repeats to 0.25: texel x 1; t = 0.75: y 1 -> 11. Through S0's clamp
        // state, unnormalised (1.25, 0.75) would read texel (1, 0) = 1.
        l.dwords(1, &floats(&[1.25; 8]));
        l.dwords(2, &floats(&[0.75; 8]));
        l.zeros(3, 32);
        let f = |sampler: u64| {
            fields(
                "3D_SAMPLE",
                Some(0x03),
                &[
                    ("Op", 0b0001_1000),
                    ("Channels", 0b0001),
                    ("Sampler", sampler),
                    ("Surface", 4),
                ],
                &[],
                &[("Dst", 3), ("U", 1), ("U", 2)],
            )
        };
        run_fields(&f(31), &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 0, 2), [11.0, 11.0]);
        run_fields(&f(0), &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 0, 2), [1.0, 1.0]);
        // Another variable keeps bit 0: S0 holding 1 names sampler index 1, which nothing binds.
        l.samplers.insert(0, 1);
        let e = run_fields(&f(0), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("sampler index 0x1"), "{}", e.0);
    }

    #[test]
    fn sample_l_linear_normalized_repeat_skips_the_lod() {
        // sample_l.R (M1, 8) 0x0:uw S0 T6 V3 V4 V1 V2 (acm-g10's form: lod, u, v).
        let (mut mem, mut l) = setup("normalized,repeat,linear");
        l.dwords(4, &floats(&[0.0; 8]));
        // s = 1.5: u = 0.5 * 4 - 0.5 = 1.5 -> x 1, 2 (a 0.5); t = 0.5: v = 1 - 0.5 -> y 0, 1
        // (b 0.5): (1 + 2 + 11 + 12) / 4 = 6.5. s = 0.0, t = 0.0: u = -0.5 -> x 3, 0
        // (a 0.5); v = -0.5 -> y 1, 0 (b 0.5): (13 + 10 + 3 + 0) / 4 = 6.5.
        // s = 0.375, t = 0.25: u = 1.0 -> x 1, 2 (a 0); v = 0.0 -> y 0, 1 (b 0): 1.
        l.dwords(1, &floats(&[1.5, 0.0, 0.375, 0.0, 0.0, 0.0, 0.0, 0.0]));
        l.dwords(2, &floats(&[0.5, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0]));
        l.zeros(3, 32);
        let f = fields(
            "3D_SAMPLE",
            Some(0x03),
            &[
                ("Op", 0b0000_0010),
                ("Channels", 0b0001),
                ("Sampler", 0),
                ("Surface", 6),
            ],
            &[],
            &[("Dst", 3), ("Lod", 4), ("Lod", 1), ("Lod", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 0, 3), [6.5, 6.5, 1.0]);
    }

    #[test]
    fn sample_refuses_unbound_samplers_and_other_operations() {
        let (mut mem, mut l) = setup("unnormalized,clamp,nearest");
        l.dwords(1, &[0; 8]);
        l.zeros(3, 128);
        let sample = |op: u64| {
            fields(
                "3D_SAMPLE",
                Some(0x03),
                &[("Op", op), ("Channels", 1), ("Sampler", 0), ("Surface", 6)],
                &[],
                &[("Dst", 3), ("U", 1), ("U", 1)],
            )
        };
        let e = run_fields(&sample(0b0000_0011), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("0b00000011"), "{}", e.0);
        let e = run_fields(&sample(0x118), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("pixel null mask"), "{}", e.0);
        l.samplers.insert(0, 3);
        let e = run_fields(&sample(0b0001_1000), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("sampler index 0x3"), "{}", e.0);
    }
}
