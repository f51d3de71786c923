//! The legacy (pre-LSC) surface messages: what Intel's compiler emits for acm-g10 at
//! `-revision_id 0` and for tgllp (`gather4_scaled.R`, `scatter4_scaled.RG`, `gather_scaled.1`,
//! `oword_ld_unaligned`, `dword_atomic.add` ...). Each function cites its doc's `## Semantics`.

use super::{get, lanes, put, scalar, surface_space, Fields, MessageLanes};
use crate::machine::memory::{AtomicOp, Memory, MemoryError, Space};
use crate::runtime::ExecSize;

/// A byte address `address` that must be a multiple of `align`.
fn aligned(space: Space, address: u64, align: u32) -> Result<u64, MemoryError> {
    if address.is_multiple_of(u64::from(align)) {
        Ok(address)
    } else {
        Err(MemoryError::Misaligned {
            space,
            address,
            align,
        })
    }
}

/// GATHER4_SCALED and SCATTER4_SCALED (GATHER4_SCALED.md and SCATTER4_SCALED.md, Semantics):
///
/// ```text
/// UD ch_pos = 0;
/// for (c = 0; c < 4; ++c) {
///   if (ch_mask[c] == 1) {
///     for (i = 0; i < exec_size; ++i) {
///       if (ChEn[i]) {
///         UD address = offset+element_offset[i]*(scale+1);
///         UD ch_start = ch_pos * max(exec_size, GRF_SIZE / 4);
///         dst[ch_start+i] = surface[(address/4)+c]; //4 bytes
///       }
///     }
///     ch_pos++;
///   }
/// }
/// ```
///
/// "Scale: This field is ignored and scale is always zero"; "the final address must be
/// dword-aligned" (a misaligned one is an error here); `Channels` bits 3..0 are the RGBA
/// mask, R in bit 0.
pub fn scaled4<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let load = f.name == "GATHER4_SCALED";
    let exec = f.exec()?;
    let mask = f.int("Channels")? & 0xf;
    let space = surface_space(f, l, f.int("Surface")? as u32)?;
    let offset = scalar(l, &f.vector("Offset")?)? as u32;
    let elem = f.raw("Element_offset")?;
    let data = f.raw(if load { "Dst" } else { "Src" })?;
    let run = lanes(l, exec, f.pred)?;
    let n = exec.elements().unwrap_or(1);
    let per_channel = n.max(mem.grf_bytes / 4);
    let mut ch_pos = 0;
    for c in 0..4u32 {
        if mask & (1 << c) == 0 {
            continue;
        }
        for &i in &run {
            mem.at_lane(i);
            let address = offset.wrapping_add(get(l, &elem, 4, i)? as u32);
            let address = aligned(space, u64::from(address), 4)? + 4 * u64::from(c);
            let at = ch_pos * per_channel + i;
            if load {
                let v = mem.read(space, address, 4)?;
                put(l, &data, 4, at, v)?;
            } else {
                let v = get(l, &data, 4, at)?;
                mem.write(space, address, 4, v)?;
            }
        }
        ch_pos += 1;
    }
    Ok(())
}

/// GATHER_SCALED and SCATTER_SCALED (GATHER_SCALED.md, SCATTER_SCALED.md, Semantics):
/// `dst[i] = surface[offset+element_offset[i]]; //<num_blocks> bytes` and its store, with
/// `Num_blocks` bits 1..0 giving 1, 2 or 4 bytes ("Block_size: This field is ignored and
/// block size is always one byte"). A 1- or 2-byte read fills the low bytes of the dword
/// ("the upper bytes have undefined values": zero here).
pub fn scaled<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let load = f.name == "GATHER_SCALED";
    let exec = f.exec()?;
    let size = match f.int("Num_blocks")? & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        b => return Err(f.unsupported(alloc::format!("Num_blocks {b:#b}")).into()),
    };
    let space = surface_space(f, l, f.int("Surface")? as u32)?;
    let offset = scalar(l, &f.vector("Offset")?)? as u32;
    let elem = f.raw("Element_offset")?;
    let data = f.raw(if load { "Dst" } else { "Src" })?;
    for i in lanes(l, exec, f.pred)? {
        mem.at_lane(i);
        let address = u64::from(offset.wrapping_add(get(l, &elem, 4, i)? as u32));
        if load {
            let v = mem.read(space, address, size)?;
            put(l, &data, 4, i, v)?;
        } else {
            let v = get(l, &data, 4, i)?;
            mem.write(space, address, size, v)?;
        }
    }
    Ok(())
}

/// GATHER and SCATTER (GATHER.md, SCATTER.md, Semantics):
/// `surface[global_offset+element_offset[i]] = src[i]; //1, 2, or 4 byte` and its load, with
/// offsets "in the unit of element size"; `Elt_size` bits 1..0 are 1, 2 or 4 bytes,
/// `Num_elts` bits 1..0 are 8, 16 or 1 elements and bits 7..4 the execution mask.
pub fn gather<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let load = f.name == "GATHER";
    let size = match f.int("Elt_size")? & 3 {
        0 => 1,
        1 => 2,
        2 => 4,
        b => return Err(f.unsupported(alloc::format!("Elt_size {b:#b}")).into()),
    };
    let num = f.int("Num_elts")?;
    let size_bits = match num & 3 {
        0 => 3,
        1 => 4,
        2 => 0,
        b => return Err(f.unsupported(alloc::format!("Num_elts {b:#b}")).into()),
    };
    let exec = ExecSize::new(size_bits, (num >> 4) as u8);
    let space = surface_space(f, l, f.int("Surface")? as u32)?;
    let global = scalar(l, &f.vector("Global_offset")?)? as u32;
    let elem = f.raw("Element_offset")?;
    let data = f.raw(if load { "Dst" } else { "Src" })?;
    for i in lanes(l, exec, None)? {
        mem.at_lane(i);
        let index = global.wrapping_add(get(l, &elem, 4, i)? as u32);
        let address = u64::from(index) * u64::from(size);
        if load {
            let v = mem.read(space, address, size)?;
            put(l, &data, 4, i, v)?;
        } else {
            let v = get(l, &data, 4, i)?;
            mem.write(space, address, size, v)?;
        }
    }
    Ok(())
}

/// OWORD_LD, OWORD_LD_UNALIGNED and OWORD_ST (their docs' Semantics):
/// `for (i = 0; i < num_owords; ++i) dst[i] = surface[offset+i]; //16 byte`, with `Size`
/// bits 2..0 giving 1, 2, 4, 8 or 16 owords. OWORD_LD and OWORD_ST: "The offset of the read
/// in units of owords"; OWORD_LD_UNALIGNED: "The offset of the read in bytes", dword-aligned.
/// "The execution mask is set to 'NoMask' (i.e., every element is returned)".
pub fn oword<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let owords: u32 = match f.int("Size")? & 7 {
        s @ 0..=4 => 1 << s,
        s => return Err(f.unsupported(alloc::format!("Size {s:#b}")).into()),
    };
    let space = surface_space(f, l, f.int("Surface")? as u32)?;
    let offset = scalar(l, &f.vector("Offset")?)?;
    let (address, load) = match f.name {
        "OWORD_LD_UNALIGNED" => (aligned(space, offset & 0xffff_ffff, 4)?, true),
        "OWORD_LD" => ((offset & 0xffff_ffff) * 16, true),
        _ => ((offset & 0xffff_ffff) * 16, false),
    };
    let data = f.raw(if load { "Dst" } else { "Src" })?;
    for d in 0..owords * 4 {
        let at = address + 4 * u64::from(d);
        if load {
            let v = mem.read(space, at, 4)?;
            put(l, &data, 4, d, v)?;
        } else {
            let v = get(l, &data, 4, d)?;
            mem.write(space, at, 4, v)?;
        }
    }
    Ok(())
}

/// DWORD_ATOMIC (DWORD_ATOMIC.md, Semantics):
///
/// ```text
/// for (i = 0; i < exec_size; ++i) {
///   if (ChEn[i]) {
///     // 2 or 4 byte, atomic operation
///     UD offset = element_offset[i];
///     dst[i] =  surface[offset];
///     surface[offset] = op(surface[offset], src0, src1);
///   }
/// }
/// ```
///
/// `Op` bits 4..0 are the operation (the doc's table, [`AtomicOp::from_legacy`]), bit 5 a
/// 16-bit atomic ("the source operand shall be in an unpacked form, and only the lower 16bit
/// part of each dword is used. The writeback (if any) has the same unpacked layout"). Src0,
/// Src1 and Dst may be V0 when the operation does not use them.
pub fn dword_atomic<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let bits = f.int("Op")?;
    let op = AtomicOp::from_legacy(bits)
        .ok_or_else(|| f.unsupported(alloc::format!("Op {:#07b}", bits & 0x1f)))?;
    let size = if bits & 0x20 != 0 { 2 } else { 4 };
    let space = surface_space(f, l, f.int("Surface")? as u32)?;
    let elem = f.raw("Element_offset")?;
    let (src0, src1, dst) = (f.raw_opt("Src0"), f.raw_opt("Src1"), f.raw_opt("Dst"));
    for i in lanes(l, f.exec()?, f.pred)? {
        mem.at_lane(i);
        let address = get(l, &elem, 4, i)? & 0xffff_ffff;
        let s0 = match (op.sources() >= 1, src0) {
            (true, Some(s)) => get(l, &s, 4, i)?,
            _ => 0,
        };
        let s1 = match (op.sources() >= 2, src1) {
            (true, Some(s)) => get(l, &s, 4, i)?,
            _ => 0,
        };
        let old = mem.atomic(space, address, size, op, s0, s1)?;
        if let Some(d) = dst {
            put(l, &d, 4, i, old)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::run_fields;
    use super::super::test_lanes::{fields, ud, TestLanes};
    use crate::machine::memory::{Memory, Space};
    use crate::runtime::DataType;
    use alloc::vec::Vec;

    /// Memory with one 64-byte buffer (bytes 0..64) at binding-table index 1, and a machine
    /// whose T6 holds 1.
    fn setup() -> (Memory, TestLanes) {
        let mut mem = Memory::new(32);
        let b = mem.add_buffer((0u8..64).collect()).unwrap();
        mem.bind(1, b);
        mem.reset_slm(64);
        let mut l = TestLanes::default();
        l.surfaces.insert(6, 1);
        (mem, l)
    }

    fn dw(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap())
    }

    #[test]
    fn gather4_scaled_rg_lays_channels_a_register_apart() {
        // gather4_scaled.RG (M1, 8) T6 0x4:ud V1 V2: offsets 0, 8, ..., 56 plus 4; lane 3 off.
        let (mut mem, mut l) = setup();
        l.dwords(1, &[0, 8, 16, 24, 32, 40, 48, 52]);
        l.zeros(2, 64);
        l.off.push(3);
        let f = fields(
            "GATHER4_SCALED",
            Some(0x03),
            &[("Channels", 0b0011), ("Scale", 0), ("Surface", 6)],
            &[("Offset", ud(4))],
            &[("Element_offset", 1), ("Dst", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        // R of lane 0 is bytes 4..8 = 0x07060504, G bytes 8..12 = 0x0b0a0908.
        assert_eq!(l.dword(2, 0), 0x0706_0504);
        assert_eq!(l.dword(2, 8), 0x0b0a_0908);
        // Lane 7 reads 56..60 and 60..64; lane 3 stays zero.
        assert_eq!(l.dword(2, 7), 0x3b3a_3938);
        assert_eq!(l.dword(2, 15), 0x3f3e_3d3c);
        assert_eq!(l.dword(2, 3), 0);
        assert_eq!(l.dword(2, 11), 0);
    }

    #[test]
    fn scatter4_scaled_r_writes_and_out_of_bounds_is_dropped() {
        let (mut mem, mut l) = setup();
        // SIMD16, 16 lanes; offsets 0, 4, ...: lanes 0..16 cover 64 bytes; lane 15 at 64 is out.
        l.dwords(1, &(0..16).map(|i| i * 4 + 4).collect::<Vec<_>>());
        l.dwords(2, &(0..16).map(|i| 0x100 + i).collect::<Vec<_>>());
        let f = fields(
            "SCATTER4_SCALED",
            Some(0x04),
            &[("Channels", 0b0001), ("Scale", 0), ("Surface", 6)],
            &[("Offset", ud(0))],
            &[("Element_offset", 1), ("Src", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        let b = &mem.buffers()[0].bytes;
        assert_eq!(dw(b, 0), 0x0302_0100); // untouched
        assert_eq!(dw(b, 1), 0x100);
        assert_eq!(dw(b, 15), 0x10e);
        assert_eq!(mem.dropped, 1);
    }

    #[test]
    fn gather_scaled_reads_1_2_4_bytes_and_slm_through_t0() {
        let (mut mem, mut l) = setup();
        mem.write(Space::Slm, 8, 4, 0xdead_beef).unwrap();
        l.dwords(1, &[1, 8]);
        l.zeros(2, 8);
        // gather_scaled.2 (M1, 2) T0 0x0:ud V1 V2 (Num_blocks 0b01 = 2 bytes).
        let f = fields(
            "GATHER_SCALED",
            Some(0x01),
            &[
                ("Block_size", 0),
                ("Num_blocks", 1),
                ("Scale", 0),
                ("Surface", 0),
            ],
            &[("Offset", ud(0))],
            &[("Element_offset", 1), ("Dst", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!([l.dword(2, 0), l.dword(2, 1)], [0, 0xbeef]);
        // The same from the buffer through T6, 1 byte each: bytes 1 and 8.
        let mut f = f;
        f.ints = alloc::vec![("Num_blocks", 0), ("Surface", 6)];
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!([l.dword(2, 0), l.dword(2, 1)], [1, 8]);
    }

    #[test]
    fn oword_ld_counts_owords_and_unaligned_bytes() {
        let (mut mem, mut l) = setup();
        l.zeros(2, 32);
        // oword_ld (2) T6 0x1:ud V2: owords 1 and 2, bytes 16..48.
        let f = fields(
            "OWORD_LD",
            None,
            &[("Size", 1), ("Is_modified", 0), ("Surface", 6)],
            &[("Offset", ud(1))],
            &[("Dst", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(l.bytes(2), &(16u8..48).collect::<Vec<_>>()[..]);
        // oword_ld_unaligned (1) T6 0x4:ud V2: bytes 4..20.
        let mut f = f;
        f.name = "OWORD_LD_UNALIGNED";
        f.ints[0] = ("Size", 0);
        f.vectors[0] = ("Offset", ud(4));
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(&l.bytes(2)[..16], &(4u8..20).collect::<Vec<_>>()[..]);
        // A misaligned unaligned load is an error naming the address.
        f.vectors[0] = ("Offset", ud(6));
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("0x6"), "{}", e.0);
    }

    #[test]
    fn oword_st_writes_through_t5_scratch_too() {
        let (mut mem, mut l) = setup();
        l.var(3, (100u8..116).collect(), DataType::Ud);
        let f = fields(
            "OWORD_ST",
            None,
            &[("Size", 0), ("Surface", 6)],
            &[("Offset", ud(3))],
            &[("Src", 3)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(
            &mem.buffers()[0].bytes[48..],
            &(100u8..116).collect::<Vec<_>>()[..]
        );
        // T5 (scratch): oword 3 lands at scratch byte 48; past its end, an error naming it.
        let mut f = f;
        f.ints[1] = ("Surface", 5);
        mem.reset_scratch(64);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(mem.read(Space::Scratch, 48, 1).unwrap(), 100);
        mem.reset_scratch(32);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("0x30") && e.0.contains("scratch"), "{}", e.0);
    }

    #[test]
    fn dword_atomic_add_inc_and_cmpxchg_return_old_values() {
        let (mut mem, mut l) = setup();
        mem.write(Space::Slm, 0, 4, 10).unwrap();
        l.dwords(1, &[0, 0, 4, 0]);
        l.dwords(2, &[1, 2, 3, 4]);
        l.zeros(4, 16);
        // dword_atomic.add (M1, 4) T0 V1 V2 V0 V4: three lanes add to SLM[0], one to SLM[4].
        let f = fields(
            "DWORD_ATOMIC",
            Some(0x02),
            &[("Op", 0), ("Surface", 0)],
            &[],
            &[("Element_offset", 1), ("Src0", 2), ("Src1", 0), ("Dst", 4)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        // Lanes in order: 10 -> 11 -> 13; lane 3 adds 4 to 10 -> 14; SLM[4] = 3.
        assert_eq!(
            (0..4).map(|i| l.dword(4, i)).collect::<Vec<_>>(),
            [10, 11, 0, 13]
        );
        assert_eq!(mem.read(Space::Slm, 0, 4).unwrap(), 17);
        assert_eq!(mem.read(Space::Slm, 4, 4).unwrap(), 3);
        // inc with Src0 = V0.
        let mut f = f;
        f.ints[0] = ("Op", 2);
        f.raws[1] = ("Src0", crate::runtime::RawOperand { id: 0, offset: 0 });
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(mem.read(Space::Slm, 0, 4).unwrap(), 20);
        // cmpxchg: new = (old == src1) ? src0 : old; SLM[4] is 4 after inc.
        l.dwords(5, &[0, 0, 4, 0]);
        f.ints[0] = ("Op", 7);
        f.raws[1] = ("Src0", crate::runtime::RawOperand { id: 2, offset: 0 });
        f.raws[2] = ("Src1", crate::runtime::RawOperand { id: 5, offset: 0 });
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(mem.read(Space::Slm, 4, 4).unwrap(), 3);
    }

    #[test]
    fn unsupported_and_missing_fields_are_errors_naming_them() {
        let (mut mem, mut l) = setup();
        let f = fields("SCATTER4_TYPED", Some(3), &[], &[], &[]);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("SCATTER4_TYPED"), "{}", e.0);
        let f = fields("GATHER4_SCALED", Some(3), &[("Surface", 6)], &[], &[]);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("Channels"), "{}", e.0);
        // A predefined surface other than T0 and T5.
        let f = fields(
            "GATHER_SCALED",
            Some(3),
            &[("Num_blocks", 2), ("Surface", 3)],
            &[("Offset", ud(0))],
            &[("Element_offset", 1), ("Dst", 2)],
        );
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("T3"), "{}", e.0);
        // Fences are no-ops.
        let f = fields("LSC_FENCE", None, &[], &[], &[]);
        assert_eq!(run_fields(&f, &mut l, &mut mem), Ok(()));
    }
}
