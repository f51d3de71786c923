//! Typed-surface (image) messages: SCATTER4_TYPED (`write_imagef` and friends), GATHER4_TYPED
//! (which Intel's OpenCL compiler does not write for tgllp or acm-g10: its image reads are
//! 3D_LOAD and 3D_SAMPLE; run by its doc) and 3D_LOAD's
//! `ld_lz` and `ld` at LOD 0 (`read_imagef(img, int2)`, sampler-less or with a
//! `CLK_FILTER_NEAREST | CLK_ADDRESS_NONE` sampler, which Intel's compiler turns into
//! `load_lz.RGBA ... T6 dst u v`, kernel `copy_img` on tgllp and acm-g10, see PAYLOAD.md).
//! Texel formats and conversions are in [`crate::machine::image`].

use super::{get, lanes, put, scalar, surface_space, Fields, MessageLanes};
use crate::machine::image::Image;
use crate::machine::memory::{Memory, MemoryError, Space};
use crate::runtime::RawOperand;
use alloc::format;

/// The image a typed message's `Surface` names: a surface variable holding a binding-table
/// index ("It must be a 1D, 2D, or 3D surface. T0 (SLM): no, T5 (stateless): no",
/// SCATTER4_TYPED.md:83-87).
pub(super) fn image_bti<L: MessageLanes + ?Sized>(f: &Fields, l: &mut L) -> Result<u32, L::Error>
where
    L::Error: From<MemoryError>,
{
    match surface_space(f, l, f.int("Surface")? as u32)? {
        Space::Surface(bti) => Ok(bti),
        s => Err(f.unsupported(format!("a typed access to {s}")).into()),
    }
}

/// A coordinate operand's element `i` (UD), 0 when the operand is absent or `%null`
/// ("If an offset operand is not applicable ... it should be set to V0", SCATTER4_TYPED.md:142;
/// "the missing parameters will have a value of 0", 3D_LOAD.md:218).
fn coord<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    field: &'static str,
    i: u32,
) -> Result<u32, L::Error> {
    match f.raw_opt(field) {
        Some(op) => Ok(get(l, &op, 4, i)? as u32),
        None => Ok(0),
    }
}

/// Elements of 4 bytes between two channels' data: "The next enabled channel will get its
/// data from the next register" (SCATTER4_TYPED.md:100), "Each channel's return data start
/// in the next GRF" (3D_LOAD.md:213): `exec_size` dwords rounded up to whole registers.
pub(super) fn channel_stride(n: u32, grf_bytes: u32) -> u32 {
    let per_grf = (grf_bytes / 4).max(1);
    n.div_ceil(per_grf) * per_grf
}

/// SCATTER4_TYPED (SCATTER4_TYPED.md, Semantics): for each enabled channel `c` and enabled
/// lane `i`, `*(&surface[u][v][r] + c) = src[ch_start+i]; //one pixel, with type conversion`.
/// A texel out of bounds is dropped (counted in [`Memory::dropped`]); a non-zero LOD is an
/// error (images here have one level).
pub fn scatter4<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let exec = f.exec()?;
    let mask = f.int("Channels")? & 0xf;
    let bti = image_bti(f, l)?;
    let src = f.raw("Src")?;
    let run = lanes(l, exec, f.pred)?;
    let stride = channel_stride(exec.elements().unwrap_or(1), mem.grf_bytes);
    for &i in &run {
        let (u, v, r) = (
            coord(f, l, "U", i)?,
            coord(f, l, "V", i)?,
            coord(f, l, "R", i)?,
        );
        if coord(f, l, "LOD", i)? != 0 {
            return Err(f.unsupported("a LOD other than 0").into());
        }
        let mut data = [0u32; 4];
        get_channels(l, &src, mask, stride, i, &mut data)?;
        let (image, bytes) = mem.image_mut(f.name, bti)?;
        match texel_range(&image, u, v, r, bytes.len()) {
            Some((at, end)) => {
                for (c, d) in data.iter().enumerate() {
                    if mask & (1 << c) != 0 {
                        image
                            .format
                            .write_channel(&mut bytes[at..end], c as u32, *d);
                    }
                }
            }
            None => mem.image_out_of_bounds(i, bti, [u, v, r], true),
        }
    }
    Ok(())
}

/// GATHER4_TYPED (GATHER4_TYPED.md, Semantics): for each enabled channel `c` and enabled lane
/// `i`, `dst[ch_start+i] = *(&surface[u,v,r] + c); //one pixel, with type conversion`, each
/// channel from `ch_pos * max(exec_size, GRF_SIZE / 4)`. "Out-of-bound Access: On read: ones
/// are returned in the alpha channel, zeros in the other channels": the one of the texel's
/// kind (1.0 for float formats, 1 for integer ones, as a channel the format lacks reads). A
/// non-zero LOD is an error (images here have one level).
pub fn gather4<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let exec = f.exec()?;
    let mask = f.int("Channels")? & 0xf;
    let bti = image_bti(f, l)?;
    let dst = f.raw("Dst")?;
    let run = lanes(l, exec, f.pred)?;
    let stride = channel_stride(exec.elements().unwrap_or(1), mem.grf_bytes);
    for &i in &run {
        let (u, v, r) = (
            coord(f, l, "U", i)?,
            coord(f, l, "V", i)?,
            coord(f, l, "R", i)?,
        );
        if coord(f, l, "LOD", i)? != 0 {
            return Err(f.unsupported("a LOD other than 0").into());
        }
        let (image, bytes) = mem.image_mut(f.name, bti)?;
        let data: [u32; 4] = match texel_range(&image, u, v, r, bytes.len()) {
            Some((at, end)) => {
                core::array::from_fn(|c| image.format.read_channel(&bytes[at..end], c as u32))
            }
            None => {
                mem.image_out_of_bounds(i, bti, [u, v, r], false);
                let one = if image.format.ty.is_float() {
                    1.0f32.to_bits()
                } else {
                    1
                };
                [0, 0, 0, one]
            }
        };
        put_channels(l, &dst, mask, stride, i, &data)?;
    }
    Ok(())
}

/// Writes the channels `mask` enables of a texel for lane `i`: each enabled channel into the
/// next block of `stride` elements of `op`, the disabled ones skipped (the typed messages'
/// and samplers' return layout).
pub(super) fn put_channels<L: MessageLanes + ?Sized>(
    l: &mut L,
    op: &RawOperand,
    mask: u64,
    stride: u32,
    i: u32,
    texel: &[u32; 4],
) -> Result<(), L::Error> {
    let mut block = 0;
    for (c, d) in texel.iter().enumerate() {
        if mask & (1 << c) != 0 {
            put(l, op, 4, block * stride + i, u64::from(*d))?;
            block += 1;
        }
    }
    Ok(())
}

/// Reads the channels `mask` enables of lane `i`'s texel from `op`, laid out as
/// [`put_channels`] writes them; the disabled channels keep their value.
fn get_channels<L: MessageLanes + ?Sized>(
    l: &mut L,
    op: &RawOperand,
    mask: u64,
    stride: u32,
    i: u32,
    texel: &mut [u32; 4],
) -> Result<(), L::Error> {
    let mut block = 0;
    for (c, d) in texel.iter_mut().enumerate() {
        if mask & (1 << c) != 0 {
            *d = get(l, op, 4, block * stride + i)? as u32;
            block += 1;
        }
    }
    Ok(())
}

/// LSC_TYPED's `lsc_load_quad` and `lsc_store_quad` (LSC_TYPED.md, Semantics: "The
/// `lsc_load_quad` and `lsc_store_quad` LSC_UNTYPED versions, except the address calculation
/// uses surface state and the U, V, R, and LOD coordinates"; IGC 2.x's image writes on Xe2 and
/// later, `lsc_store_quad.tgm (M1, 32)  bss(V0083)[V0047,V0051]:a32  V0084:d32.xyzw`). Each
/// channel `ChMask` enables (x, y, z, w: bits 0-3) takes `ExecSize` elements of the data,
/// rounded up to whole registers, the next channel the next block, as the untyped quad
/// messages' structure-of-arrays order; a texel's channels convert to and from the image's
/// format as SCATTER4_TYPED's do ("the data and address types chosen must match the values in
/// the surface state": 32-bit data, 32-bit coordinates). The surface is a binding-table index
/// (`bti`) or a bindless handle (`bss`, or `surf` in IGC 2.x's efficient-64-bit mode), which
/// launch binds alike. A texel out of bounds reads
/// as zeros (as an untyped load outside its surface) or is dropped. A LOD other than 0, other
/// data and address sizes, transposed data and the other sub-operations are errors.
pub fn lsc_typed<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let load = match f.int("LscSubOp")? {
        0x02 => true,
        0x06 => false,
        0x03 => return Err(f.unsupported("lsc_load_block2d.tgm").into()),
        0x07 => return Err(f.unsupported("lsc_store_block2d.tgm").into()),
        0x08..=0x1a => return Err(f.unsupported("typed atomics (lsc_atomic_*.tgm)").into()),
        s => return Err(f.unsupported(format!("LscSubOp {s:#x}")).into()),
    };
    // AddrSize 2 a32; 4 a32u and 5 a32s (erratum LSC_UNTYPED-surf-and-widened-a32: 32-bit
    // values widened to 64 bits, IGC 2.x on NVL and XE3P_CRI): as coordinates, the same
    // texels (a negative one is outside the image either way).
    match (f.int("DataSize")?, f.int("AddrSize")?, f.int("DataOrder")?) {
        (3, 2 | 4 | 5, 1) => {}
        (d, a, o) => {
            return Err(f
                .unsupported(format!(
                    "DataSize {d}, AddrSize {a}, DataOrder {o} (d32 data at a32 coordinates, in \
                     order, run)"
                ))
                .into())
        }
    }
    // bss, bti, and surf (6: the surface state IGC 2.x's efficient-64-bit mode passes in a
    // variable, `surf(V0085)[V0049,V0053]:a32u`, which holds the image's bindless handle).
    let bti = match f.int("AddrType")? {
        2 | 4 | 6 => scalar(l, &f.vector("Surface")?)? as u32,
        t => {
            return Err(f
                .unsupported(format!("AddrType {t} (bss, bti and surf run)"))
                .into())
        }
    };
    let exec = crate::runtime::ExecSize(f.int("ExecSize")? as u8);
    let pred = match f.int_or("Predicate", 0) as u16 {
        0 => None,
        p => Some(crate::runtime::PredicateControl(p)),
    };
    let mask = f.int("ChMask")? & 0xf;
    let data = if load {
        f.raw_opt("DstData")
    } else {
        f.raw_opt("Src1Data")
    };
    let run = lanes(l, exec, pred)?;
    // A load into %null is a prefetch.
    let Some(data) = data else {
        return Ok(());
    };
    let stride = channel_stride(exec.elements().unwrap_or(1), mem.grf_bytes);
    for &i in &run {
        let (u, v, r) = (
            coord(f, l, "Src0AddrsU", i)?,
            coord(f, l, "Src0AddrsV", i)?,
            coord(f, l, "Src0AddrsR", i)?,
        );
        if coord(f, l, "Src0AddrsLOD", i)? != 0 {
            return Err(f.unsupported("a LOD other than 0").into());
        }
        let mut texel = [0u32; 4];
        if !load {
            get_channels(l, &data, mask, stride, i, &mut texel)?;
        }
        let (image, bytes) = mem.image_mut(f.name, bti)?;
        match texel_range(&image, u, v, r, bytes.len()) {
            Some((at, end)) => {
                for (c, d) in texel.iter_mut().enumerate() {
                    if mask & (1 << c) == 0 {
                        continue;
                    }
                    if load {
                        *d = image.format.read_channel(&bytes[at..end], c as u32);
                    } else {
                        image
                            .format
                            .write_channel(&mut bytes[at..end], c as u32, *d);
                    }
                }
            }
            None => mem.image_out_of_bounds(i, bti, [u, v, r], !load),
        }
        if load {
            put_channels(l, &data, mask, stride, i, &texel)?;
        }
    }
    Ok(())
}

/// INFO's `resinfo` (INFO.md): "`<exec_size>`*4 elements are returned in RGBA order" with the
/// doc's return format, for a 1D image `(Width+1)>>LOD, 0, 0, MIPCount`, 2D `(Width+1)>>LOD,
/// (Height+1)>>LOD, 0, MIPCount` (no quilting), 3D `(Width+1)>>LOD, (Height+1)>>LOD,
/// (Depth+1)>>LOD, MIPCount`, where the surface state's `Width` is the width less one, so
/// `Width+1` is the image's width; MIPCount is 1, the one level images have here. Each
/// enabled channel fills the next register-rounded block of `Dst`, the disabled ones skipped,
/// as 3D_LOAD returns its channels; IGC 2.x asks it an image's size through a bindless
/// surface (`resinfo.RG (M1_NM, 8)  %bss V0066.0 V0068.0`, `get_image_width` of kernel
/// `image_queries` on acm-g10). `sampleinfo` is an error.
pub fn info<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let op = f.int("Op")? & 0xff;
    if op != 0b0000_1010 {
        return Err(f
            .unsupported(format!("INFO operation {op:#010b} (resinfo runs)"))
            .into());
    }
    let exec = f.exec()?;
    let mask = f.int("Channels")? & 0xf;
    let bti = image_bti(f, l)?;
    let dst = f.raw("Dst")?;
    let run = lanes(l, exec, f.pred)?;
    let stride = channel_stride(exec.elements().unwrap_or(1), mem.grf_bytes);
    let (image, _) = mem.image_mut(f.name, bti)?;
    for &i in &run {
        let lod = coord(f, l, "LOD", i)?;
        let at = |size: u32| size.checked_shr(lod).unwrap_or(0);
        let data = match image.dims {
            1 => [at(image.width), 0, 0, 1],
            2 => [at(image.width), at(image.height), 0, 1],
            _ => [at(image.width), at(image.height), at(image.depth), 1],
        };
        put_channels(l, &dst, mask, stride, i, &data)?;
    }
    Ok(())
}

/// The byte range of texel `(u, v, r)`, `None` when out of bounds.
pub(super) fn texel_range(
    image: &Image,
    u: u32,
    v: u32,
    r: u32,
    len: usize,
) -> Option<(usize, usize)> {
    let at = image.texel(u, v, r)?;
    let end = at.checked_add(image.format.texel_bytes() as usize)?;
    (end <= len).then_some((at, end))
}

/// 3D_LOAD's parameters in order. The generated `visit_operands` gives the counted list
/// (the first `NumParams` of the format's U, V, Lod, R) under the first name, `U`, once per
/// parameter; a spec that names each slot gives them as U, V, Lod, R. `%null` reads as absent.
fn params(f: &Fields) -> alloc::vec::Vec<Option<RawOperand>> {
    let listed: alloc::vec::Vec<_> = f.raws.iter().filter(|(n, _)| *n == "U").collect();
    let keep = |r: crate::runtime::RawOperand| (r.id != 0).then_some(r);
    if listed.len() > 1 {
        return listed.iter().map(|(_, r)| keep(*r)).collect();
    }
    ["U", "V", "Lod", "R"]
        .iter()
        .map(|n| f.raw(n).ok().and_then(keep))
        .collect()
}

/// 3D_LOAD's `ld_lz` (parameters u, v, r) and `ld` (u, v, lod, r; LOD 0 only), 3D_LOAD.md:
/// "Loads data from `<surface>` at the given integer texel addresses"; "For each enabled channel
/// `<exec_size>` elements are returned in RGBA order, with the disabled channels skipped in the
/// results. Only the enabled pixels are returned in `<dst>`" (3D_LOAD.md:213). The format table
/// names the binary's parameter slots U, V, Lod, R; they are taken by position, so for
/// `ld_lz` the third holds r (the Notes'
/// table, 3D_LOAD.md:228-230), see `params`. Parameters and `Dst` are taken as 32-bit (UD coordinates, F/D/UD
/// data: what Intel's OpenCL compiler writes); a texel out of bounds reads as zeros. Other
/// operations, the pixel null mask and `_aoffimmi` offsets other than 0 are errors.
pub fn load<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let op = f.int("Op")?;
    let lz = match op & 0xff {
        0b0001_1010 => true,
        0b0000_0111 => false,
        o => return Err(f.unsupported(format!("sampler operation {o:#010b}")).into()),
    };
    if op & 0x100 != 0 {
        return Err(f.unsupported("the pixel null mask").into());
    }
    if let Ok(a) = f.vector("Aoffimmi") {
        let a = scalar(l, &a)?;
        if a & 0xfff != 0 {
            return Err(f.unsupported(format!("_aoffimmi offsets {a:#x}")).into());
        }
    }
    let exec = f.exec()?;
    let mask = f.int("Channels")? & 0xf;
    let bti = image_bti(f, l)?;
    let dst = f.raw("Dst")?;
    let run = lanes(l, exec, f.pred)?;
    let stride = channel_stride(exec.elements().unwrap_or(1), mem.grf_bytes);
    // Parameter slots: u, v, r (`ld_lz`) or u, v, lod, r (`ld`); a missing one is 0.
    let params = params(f);
    let param = |l: &mut L, slot: usize, i: u32| -> Result<u32, L::Error> {
        match params.get(slot).copied().flatten() {
            Some(op) => Ok(get(l, &op, 4, i)? as u32),
            None => Ok(0),
        }
    };
    for &i in &run {
        let (u, v) = (param(l, 0, i)?, param(l, 1, i)?);
        let r = if lz {
            param(l, 2, i)?
        } else {
            if param(l, 2, i)? != 0 {
                return Err(f.unsupported("`ld` at a LOD other than 0").into());
            }
            param(l, 3, i)?
        };
        let (image, bytes) = mem.image_mut(f.name, bti)?;
        let mut data = [0u32; 4];
        match texel_range(&image, u, v, r, bytes.len()) {
            Some((at, end)) => {
                for (c, d) in data.iter_mut().enumerate() {
                    *d = image.format.read_channel(&bytes[at..end], c as u32);
                }
            }
            None => mem.image_out_of_bounds(i, bti, [u, v, r], false),
        }
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
    use alloc::vec;
    use alloc::vec::Vec;

    /// A buffer at binding-table index 0 and a 3x2 image at 1, which T6 holds; texel (x, y) channel c = 100y+10x+c.
    fn setup(format: &str) -> (Memory, TestLanes) {
        let format = ImageFormat::parse(format).unwrap();
        let image = Image::packed(3, 2, 1, format);
        let mut bytes = vec![0u8; image.bytes() as usize];
        for y in 0..2 {
            for x in 0..3 {
                let at = image.texel(x, y, 0).unwrap();
                for c in 0..format.order.count() {
                    let v = (100 * y + 10 * x + c) as f32;
                    let s = format.ty.size() as usize;
                    let b = &mut bytes[at + c as usize * s..at + (c as usize + 1) * s];
                    format.write_channel(b, 0, v.to_bits());
                }
            }
        }
        let mut mem = Memory::new(32);
        let buffer = mem.add_buffer(vec![0; 16]).unwrap();
        mem.bind(0, buffer);
        let id = mem.add_image(image, bytes).unwrap();
        mem.bind(1, id);
        let mut l = TestLanes::default();
        l.surfaces.insert(6, 1);
        (mem, l)
    }

    fn f32s(l: &TestLanes, id: u32, from: usize, n: usize) -> Vec<f32> {
        (from..from + n)
            .map(|i| f32::from_bits(l.dword(id, i)))
            .collect()
    }

    #[test]
    fn load_lz_rgba_reads_texels_a_channel_per_register_pair() {
        // load_lz.RGBA (M1, 16) 0x0:uw T6 V3 V1 V2 (kernel copy_img on acm-g10, PAYLOAD.md):
        // lanes 0..6 at (i % 3, i / 3), lane 6 at (3, 0) out of bounds, lane 7 masked off.
        let (mut mem, mut l) = setup("rgba-f32");
        let mut u: Vec<u32> = (0..16).map(|i| i % 3).collect();
        let mut v: Vec<u32> = (0..16).map(|i| (i / 3) % 2).collect();
        (u[6], v[6]) = (3, 0);
        l.dwords(1, &u);
        l.dwords(2, &v);
        l.dwords(3, &[0xffff_ffff; 64]);
        l.off.push(7);
        let f = fields(
            "3D_LOAD",
            Some(0x04),
            &[("Op", 0b0001_1010), ("Channels", 0b1111), ("Surface", 6)],
            &[("Aoffimmi", ud(0))],
            // The generated visitor's form: every parameter under the list's name, `U`.
            &[("Dst", 3), ("U", 1), ("U", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        // R of lanes 0..6: texels (0,0) (1,0) (2,0) (0,1) (1,1) (2,1).
        assert_eq!(f32s(&l, 3, 0, 6), [0.0, 10.0, 20.0, 100.0, 110.0, 120.0]);
        // G, B, A start 16 dwords (two 32-byte registers) apart.
        assert_eq!(f32s(&l, 3, 16 + 5, 1), [121.0]);
        assert_eq!(f32s(&l, 3, 32 + 5, 1), [122.0]);
        assert_eq!(f32s(&l, 3, 48 + 4, 1), [113.0]);
        // Out of bounds reads zeros; a masked-off lane is not written.
        assert_eq!([l.dword(3, 6), l.dword(3, 48 + 6)], [0, 0]);
        assert_eq!(l.dword(3, 7), 0xffff_ffff);
        assert_eq!(mem.dropped, 1);
    }

    #[test]
    fn load_lz_of_a_one_channel_image_fills_g_b_a_with_0_0_1() {
        let (mut mem, mut l) = setup("r-f32");
        l.dwords(1, &[2; 8]);
        l.dwords(2, &[1; 8]);
        l.zeros(3, 4 * 32);
        // Channels .GA only: G then A, a register apart.
        let f = fields(
            "3D_LOAD",
            Some(0x03),
            &[("Op", 0b0001_1010), ("Channels", 0b1010), ("Surface", 6)],
            &[],
            &[("Dst", 3), ("U", 1), ("V", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 0, 1), [0.0]);
        assert_eq!(f32s(&l, 3, 8, 1), [1.0]);
        // R alone reads the texel (2, 1) = 120.
        let mut f = f;
        f.ints[1] = ("Channels", 0b0001);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 0, 1), [120.0]);
    }

    #[test]
    fn scatter4_typed_writes_converted_channels_and_drops_out_of_bounds() {
        // scatter4_typed.RGBA (M1, 8) T6 V1 V2 %null %null V3 (kernel copy_img on acm-g10).
        let (mut mem, mut l) = setup("rgba-unorm8");
        l.dwords(1, &[0, 1, 2, 0, 1, 2, 5, 0]);
        l.dwords(2, &[0, 0, 0, 1, 1, 1, 0, 0]);
        let mut src = Vec::new();
        for c in 0..4 {
            src.extend((0..8).map(|i| if c == 0 { 0.5f32 } else { i as f32 / 255.0 }.to_bits()));
        }
        l.dwords(3, &src);
        l.off.push(7);
        let f = fields(
            "SCATTER4_TYPED",
            Some(0x03),
            &[("Channels", 0b1111), ("Surface", 6)],
            &[],
            &[("U", 1), ("V", 2), ("R", 0), ("LOD", 0), ("Src", 3)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        let b = &mem.buffers()[1].bytes;
        // Texel (2, 1) from lane 5: R 0.5 -> 128 (round to even of 127.5), G B A 5/255 -> 5.
        assert_eq!(&b[12 + 8..12 + 12], &[128, 5, 5, 5]);
        // Texel (0, 0) from lane 0 and lane 7 (masked off) leaves it as lane 0 wrote it.
        assert_eq!(&b[0..4], &[128, 0, 0, 0]);
        assert_eq!(mem.dropped, 1);
        // Only the R and A channels (.RA): G and B keep their bytes.
        let mut f = f;
        f.ints[0] = ("Channels", 0b1001);
        l.dwords(3, &[255.0f32.to_bits(); 16]);
        run_fields(&f, &mut l, &mut mem).unwrap();
        let b = &mem.buffers()[1].bytes;
        assert_eq!(&b[12 + 8..12 + 12], &[255, 5, 5, 255]);
    }

    #[test]
    fn gather4_typed_reads_enabled_channels_and_ones_in_alpha_out_of_bounds() {
        // gather4_typed.RA (M1, 8) T6 V1 V2 %null %null V3: channels R and A, a register apart.
        let (mut mem, mut l) = setup("rgba-f32");
        l.dwords(1, &[0, 1, 2, 2, 9, 0, 0, 0]);
        l.dwords(2, &[0, 0, 1, 0, 0, 1, 0, 0]);
        l.dwords(3, &[0xffff_ffff; 16]);
        l.off.extend([6, 7]);
        let f = fields(
            "GATHER4_TYPED",
            Some(0x03),
            &[("Channels", 0b1001), ("Surface", 6)],
            &[],
            &[("U", 1), ("V", 2), ("R", 0), ("LOD", 0), ("Dst", 3)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        // R of texels (0,0) (1,0) (2,1) (2,0), (9,0) out of bounds, (0,1): 100y + 10x.
        assert_eq!(f32s(&l, 3, 0, 6), [0.0, 10.0, 120.0, 20.0, 0.0, 100.0]);
        // A (channel 3) one register on: 100y + 10x + 3, and 1.0 out of bounds.
        assert_eq!(f32s(&l, 3, 8, 6), [3.0, 13.0, 123.0, 23.0, 1.0, 103.0]);
        assert_eq!([l.dword(3, 6), l.dword(3, 15)], [0xffff_ffff; 2]);
        assert_eq!(mem.dropped, 1);
        // An integer image's out-of-bounds alpha is 1.
        let (mut mem, mut l) = setup("r-u32");
        l.dwords(1, &[7; 8]);
        l.dwords(2, &[0; 8]);
        l.zeros(3, 64);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!([l.dword(3, 0), l.dword(3, 8)], [0, 1]);
    }

    #[test]
    fn typed_messages_refuse_buffers_other_ops_and_lods() {
        let (mut mem, mut l) = setup("r-u32");
        l.dwords(1, &[0; 8]);
        l.zeros(3, 128);
        let load = |op: u64, surface: u32| {
            fields(
                "3D_LOAD",
                Some(0x03),
                &[("Op", op), ("Channels", 1), ("Surface", 6)],
                &[],
                &[("Dst", 3), ("U", 1), ("V", surface)],
            )
        };
        let e = run_fields(&load(0b0000_0111, 1), &mut l, &mut mem);
        assert!(e.is_ok(), "ld at LOD 0 runs: {e:?}");
        let e = run_fields(&load(0b0001_1101, 1), &mut l, &mut mem).unwrap_err();
        assert!(
            e.0.contains("3D_LOAD") && e.0.contains("0b00011101"),
            "{}",
            e.0
        );
        let e = run_fields(&load(0x11a, 1), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("pixel null mask"), "{}", e.0);
        // T6 holding binding-table index 0, a plain buffer.
        l.surfaces.insert(6, 0);
        let e = run_fields(&load(0b0001_1010, 1), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("not an image"), "{}", e.0);
        l.surfaces.insert(6, 1);
        l.dwords(4, &[1; 8]);
        let f = fields(
            "SCATTER4_TYPED",
            Some(0x03),
            &[("Channels", 1), ("Surface", 6)],
            &[],
            &[("U", 1), ("V", 1), ("LOD", 4), ("Src", 3)],
        );
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("LOD"), "{}", e.0);
        // T0 (SLM) is no image.
        let mut f = f;
        f.ints[1] = ("Surface", 0);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("typed access to SLM"), "{}", e.0);
    }

    #[test]
    fn bss_is_the_bindless_surface_a_movs_wrote() {
        // `movs (M1_NM, 1) %bss(0) V0061` then `load_lz.RGBA (M1, 16) 0x0:uw %bss ...` (IGC
        // 2.x, acm-g10): T4 holds the handle, at which launch binds the image.
        let (mut mem, mut l) = setup("rgba-f32");
        mem.bind(0x101, crate::machine::memory::BufferId(1));
        l.surfaces.insert(4, 0x101);
        l.dwords(1, &[2; 8]);
        l.dwords(2, &[1; 8]);
        l.zeros(3, 32);
        let f = fields(
            "3D_LOAD",
            Some(0x03),
            &[("Op", 0b0001_1010), ("Channels", 0b0001), ("Surface", 4)],
            &[],
            &[("Dst", 3), ("U", 1), ("V", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 0, 2), [120.0, 120.0]);
        // A handle nothing is bound at.
        l.surfaces.insert(4, 0x102);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("258"), "{}", e.0);
    }

    /// LSC_TYPED's fields as the generated visitor gives them (`ExecSize` and `Predicate` as
    /// plain fields), for sub-operation `sub` on surface `surface` (a bss handle).
    fn lsc_typed(sub: u64, exec: u64, ch_mask: u64, surface: u64) -> super::super::Fields {
        fields(
            "LSC_TYPED",
            None,
            &[
                ("LscSubOp", sub),
                ("ExecSize", exec),
                ("Predicate", 0),
                ("CachingL1", 0),
                ("CachingL3", 0),
                ("AddrType", 2),
                ("AddrSize", 2),
                ("DataSize", 3),
                ("DataOrder", 1),
                ("DataElemsPerAddr", 0),
                ("ChMask", ch_mask),
            ],
            &[("Surface", ud(surface))],
            &[
                ("DstData", 3),
                ("Src0AddrsU", 1),
                ("Src0AddrsV", 2),
                ("Src0AddrsR", 0),
                ("Src0AddrsLOD", 0),
                ("Src1Data", 3),
            ],
        )
    }

    #[test]
    fn lsc_store_quad_and_load_quad_tgm_move_enabled_channels_in_register_blocks() {
        // lsc_store_quad.tgm (M1, 8)  bss(0x101)[V1,V2]:a32  V3:d32.xz, then
        // lsc_load_quad.tgm (M1, 8)  V3:d32.xz  bss(0x101)[V1,V2]:a32.
        let (mut mem, mut l) = setup("rgba-f32");
        mem.bind(0x101, crate::machine::memory::BufferId(1));
        // Lanes 0..5 at (i % 3, i / 3), lane 6 at (0, 2) out of bounds, lane 7 off.
        let mut u: Vec<u32> = (0..8).map(|i| i % 3).collect();
        let mut v: Vec<u32> = (0..8).map(|i| (i / 3) % 2).collect();
        (u[6], v[6]) = (0, 2);
        l.dwords(1, &u);
        l.dwords(2, &v);
        // x of lane i is 1000 + i, z 2000 + i: two blocks of 8 dwords (one 32-byte register).
        let data: Vec<u32> = (0..16)
            .map(|k| (if k < 8 { 1000 + k } else { 2000 + k - 8 }) as f32)
            .map(f32::to_bits)
            .collect();
        l.dwords(3, &data);
        l.off.push(7);
        run_fields(&lsc_typed(0x06, 0x03, 0b0101, 0x101), &mut l, &mut mem).unwrap();
        let texel = |x: usize, y: usize| -> Vec<f32> {
            let b = &mem.buffers()[1].bytes;
            let at = (y * 3 + x) * 16;
            (0..4)
                .map(|c| f32::from_le_bytes(b[at + 4 * c..at + 4 * c + 4].try_into().unwrap()))
                .collect()
        };
        // Texel (2, 1) from lane 5: x and z written, y and w kept (121, 123).
        assert_eq!(texel(2, 1), [1005.0, 121.0, 2005.0, 123.0]);
        assert_eq!(texel(0, 0), [1000.0, 1.0, 2000.0, 3.0]);
        assert_eq!(mem.dropped, 1);
        // Read back x and z: lane 5 gets its own values, lane 6 (out of bounds) zeros.
        l.dwords(3, &[0xffff_ffff; 16]);
        run_fields(&lsc_typed(0x02, 0x03, 0b0101, 0x101), &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 5, 1), [1005.0]);
        assert_eq!(f32s(&l, 3, 8 + 5, 1), [2005.0]);
        assert_eq!([l.dword(3, 6), l.dword(3, 8 + 6)], [0, 0]);
        assert_eq!(l.dword(3, 7), 0xffff_ffff);
        // Other sub-operations and data sizes are refused by name.
        let e = run_fields(&lsc_typed(0x0c, 0x03, 1, 0x101), &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("typed atomics"), "{}", e.0);
        let mut f = lsc_typed(0x02, 0x03, 1, 0x101);
        f.ints[7] = ("DataSize", 4);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("DataSize 4"), "{}", e.0);
        // `surf(V)[U,V]:a32u` (AddrType 6, AddrSize 4: IGC 2.x's efficient-64-bit mode) reads
        // the same texels; AddrType 3 (ss) is refused.
        let mut f = lsc_typed(0x02, 0x03, 0b0101, 0x101);
        (f.ints[5], f.ints[6]) = (("AddrType", 6), ("AddrSize", 4));
        l.dwords(3, &[0xffff_ffff; 16]);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(f32s(&l, 3, 5, 1), [1005.0]);
        assert_eq!(f32s(&l, 3, 8 + 5, 1), [2005.0]);
        f.ints[5] = ("AddrType", 3);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("AddrType 3"), "{}", e.0);
    }

    #[test]
    fn resinfo_returns_the_size_by_the_images_dimensions() {
        // resinfo.RG (M1_NM, 8)  %bss V1.0 V3.0 (get_image_width/height, IGC 2.x on acm-g10).
        let (mut mem, mut l) = setup("rgba-f32");
        l.zeros(1, 32);
        l.dwords(3, &[0xffff_ffff; 32]);
        let f = |channels: u64| {
            fields(
                "INFO",
                Some(0x83),
                &[("Op", 0b0000_1010), ("Channels", channels), ("Surface", 6)],
                &[],
                &[("LOD", 1), ("Dst", 3)],
            )
        };
        run_fields(&f(0b0011), &mut l, &mut mem).unwrap();
        // R (the width, 3) in the first register, G (the height, 2) in the next.
        assert_eq!([l.dword(3, 0), l.dword(3, 7), l.dword(3, 8)], [3, 3, 2]);
        // RGBA of this 2D image: B is 0, A the one level; at LOD 1, 3 >> 1 and 2 >> 1.
        l.dwords(1, &[1; 8]);
        run_fields(&f(0b1111), &mut l, &mut mem).unwrap();
        assert_eq!(
            [l.dword(3, 0), l.dword(3, 8), l.dword(3, 16), l.dword(3, 24)],
            [1, 1, 0, 1]
        );
        // A 3D image (4x3x2) reports its depth in B; a 1D one (8) only its width.
        for (image, want) in [
            (
                Image::packed(4, 3, 2, ImageFormat::parse("r-f32").unwrap()),
                [4, 3, 2, 1],
            ),
            (
                Image::packed(8, 1, 1, ImageFormat::parse("r-f32").unwrap()),
                [8, 0, 0, 1],
            ),
        ] {
            let id = mem
                .add_image(image, vec![0; image.bytes() as usize])
                .unwrap();
            mem.bind(7, id);
            l.surfaces.insert(6, 7);
            l.zeros(1, 32);
            run_fields(&f(0b1111), &mut l, &mut mem).unwrap();
            assert_eq!(
                [l.dword(3, 0), l.dword(3, 8), l.dword(3, 16), l.dword(3, 24)],
                want
            );
        }
        let mut sampleinfo = f(1);
        sampleinfo.ints[0] = ("Op", 0b0000_1011);
        let e = run_fields(&sampleinfo, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("resinfo runs"), "{}", e.0);
    }
}
