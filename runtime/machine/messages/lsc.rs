//! LSC_UNTYPED: the load/store messages of Intel's compiler for acm-g10 at its default revision
//! (`lsc_load.ugm.ca.ca (M1, 16)  V0059:d32  bti(0x1)[V0057]:a32`, `lsc_store.ugm.wb.wb (M1, 16)
//! flat[V0062]:a64  V0063:d32x4`, `lsc_atomic_iadd.ugm ...`). The field values are those of
//! LSC_UNTYPED.md's bullets: `LscSFID` 0 `.ugm`, 1 `.ugml`, 3 `.slm` (the numbering of
//! `runtime::text::special::lsc`, checked against Intel's assembler); `AddrType` 1 flat, 4 bti,
//! 2 bss (a bindless handle, bound by launch like a binding-table index);
//! `AddrSize` 1 a16, 2 a32, 3 a64; `DataSize` 1 d8 ... 7 d16u32h; `DataOrder` 1 in order, 2
//! transposed; `DataElemsPerAddr` 1-4, then 8, 16, 32, 64.
//!
//! Runs `lsc_load`, `lsc_store` (and `lsc_store_uncompressed`) and the `lsc_atomic_*`
//! operations; strided, quad, block2d, status and append-counter forms, and the `ss`/`arg`
//! address models, are errors naming them.

use super::{get, lanes, put, scalar, Fields, MessageLanes};
use crate::machine::memory::{AtomicOp, Memory, MemoryError, Space};
use crate::runtime::{RawOperand, VectorOperand};
use alloc::format;

/// DataSize: (bytes in memory, bytes in the register, value in the high half of the register).
fn data_size(f: &Fields) -> Result<(u32, u32, bool), MemoryError> {
    Ok(match f.int("DataSize")? {
        1 => (1, 1, false),
        2 => (2, 2, false),
        3 => (4, 4, false),
        4 => (8, 8, false),
        5 => (1, 4, false),
        6 => (2, 4, false),
        7 => (2, 4, true),
        d => return Err(f.unsupported(format!("DataSize {d}"))),
    })
}

/// The memory and how big an address element is.
fn model<L: MessageLanes + ?Sized>(f: &Fields, l: &mut L) -> Result<(Space, u32), L::Error>
where
    L::Error: From<MemoryError>,
{
    let sfid = f.int("LscSFID")?;
    let addr = match f.int("AddrSize")? {
        1 => 2,
        2 => 4,
        3 => 8,
        // a32u, a32s (Xe3P): a 32-bit offset, zero- or sign-extended, from a 64-bit base.
        4 => A32U,
        5 => A32S,
        a => return Err(f.unsupported(format!("AddrSize {a}")).into()),
    };
    let space = match (sfid, f.int("AddrType")?) {
        (3, 1) => Space::Slm,
        (0 | 1, 1) => Space::Stateless,
        // bti: the binding-table index; bss: the bindless handle, which launch binds as an
        // index of its own (`launch::BINDLESS_FIRST` on).
        (0 | 1, 4 | 2) => Space::Surface(scalar(l, &f.vector("Surface")?)? as u32),
        (s, t) => {
            let what = match t {
                2 => "the bss address model",
                3 => "the ss address model",
                5 => "the arg address model",
                _ => "this address model",
            };
            return Err(f
                .unsupported(format!("{what} (AddrType {t}) on LscSFID {s}"))
                .into());
        }
    };
    Ok((space, addr))
}

/// The address of lane `n`: `Base + AddrScale*Src0Addrs[n] + AddrImmOffset` (Semantics,
/// LOAD), with the base in `Space`; 16- and 32-bit addresses wrap in 32 bits.
fn address<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    access: &Access,
    n: u32,
) -> Result<u64, L::Error>
where
    L::Error: From<MemoryError>,
{
    let addr_size = access.addr_size;
    let a = match addr_size {
        A32U => get(l, &access.addrs, 4, n)?,
        A32S => get(l, &access.addrs, 4, n)? as u32 as i32 as i64 as u64,
        _ => get(l, &access.addrs, addr_size, n)?,
    };
    let scale = f.int_or("AddrScale", 1);
    let imm = f.int_or("AddrImmOffset", 0) as u32 as i32 as i64 as u64;
    let full = access
        .base
        .wrapping_add(a.wrapping_mul(scale))
        .wrapping_add(imm);
    Ok(wrap(addr_size, full))
}

/// `AddrSize` 4 (a32u) and 5 (a32s) as address sizes of their own: 4-byte elements whose
/// address is 64 bits.
const A32U: u32 = 0x104;
const A32S: u32 = 0x204;

/// An address of this size: 16- and 32-bit ones wrap in 32 bits, a64, a32u and a32s do not.
fn wrap(addr_size: u32, at: u64) -> u64 {
    if matches!(addr_size, 2 | 4) {
        at & 0xffff_ffff
    } else {
        at
    }
}

/// The operation of an atomic `LscSubOp` (LSC_UNTYPED.md, "LSC Operation Encoding"), and
/// whether its two data sources go to [`AtomicOp::apply`] swapped (`lsc_atomic_icas`: the new
/// value is Src2Data, compared with Src1Data, where CMPXCHG's new value is src0).
fn atomic_op(sub: u64) -> Option<(AtomicOp, bool)> {
    use AtomicOp::*;
    Some(match sub {
        0x08 => (Inc, false),
        0x09 => (Dec, false),
        0x0a => (Load, false),
        0x0b => (Store, false),
        0x0c => (Add, false),
        0x0d => (Sub, false),
        0x0e => (IMin, false),
        0x0f => (IMax, false),
        0x10 => (Min, false),
        0x11 => (Max, false),
        0x12 => (CmpXchg, true),
        0x13 => (FAdd, false),
        0x14 => (FSub, false),
        0x15 => (FMin, false),
        0x16 => (FMax, false),
        0x17 => (FCmpWr, false),
        0x18 => (And, false),
        0x19 => (Or, false),
        0x1a => (Xor, false),
        _ => return None,
    })
}

/// Whether an LSC_UNTYPED message's `LscSubOp` is one of its atomics.
pub fn is_atomic(f: &Fields) -> bool {
    f.int("LscSubOp").is_ok_and(|sub| atomic_op(sub).is_some())
}

/// LSC_UNTYPED (LSC_UNTYPED.md, Semantics, LOAD and STORE):
///
/// ```text
/// for (n = 0; n < ExecSize; n++) {
///   if (Msg.ChEn[n]) {
///     for (v = 0; v < vect_size; v++) {
///       grf_sized src = Base + AddrScale*Src0Addrs[n] + AddrImmOffset
///       auto datum = src.elems[v];
///       if (DataOrder == LSC_DATA_ORDER_TRANSPOSED) {
///         DstData[n].elems[v] = datum
///       } else {
///         DstData[v].elems[n] = datum
///       }
///     }
///   }
/// }
/// ```
///
/// In order, component `v` of lane `n` is register element `n` of the block that starts
/// `v * ExecSize` elements in, rounded up to whole registers ("Vector elements are returned in
/// structure-of-array order ... with successive elements in successive registers");
/// transposed, the one address's `vect_size` elements are consecutive ("transpose only
/// supports SIMD1"). Atomics: `DstData[n] = old; *addr = op(old, Src1Data[n], Src2Data[n])`.
pub fn untyped<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let sub = f.int("LscSubOp")?;
    let kind = sub_op_kind(f, sub)?;
    let (mem_size, reg, high) = data_size(f)?;
    let (space, addr_size) = model(f, l)?;
    let addrs = f.raw("Src0Addrs")?;
    // "Base + AddrScale*Src0Addrs[n] + AddrImmOffset": a flat address's base is its Surface
    // (the immediate 0 before IGC 2.x, a register on Xe3P: `flat(V0062)[0x4*V0061]:a64`).
    let base = match (space, f.vector("Surface")) {
        (Space::Stateless | Space::Slm, Ok(VectorOperand::Immediate(i))) => i.value,
        (Space::Stateless | Space::Slm, Ok(s)) => scalar(l, &s)?,
        _ => 0,
    };
    let exec = f.exec()?;
    let run = lanes(l, exec, f.pred)?;
    let a = Access {
        space,
        addr_size,
        addrs,
        mem_size,
        reg,
        high,
        lanes: exec.elements().unwrap_or(1),
        base,
    };
    match kind {
        Kind::Atomic => {
            let Some(op) = atomic_op(sub) else {
                return Err(f.unsupported(format!("LscSubOp {sub:#x}")).into());
            };
            atomics(f, l, mem, &a, op, &run)
        }
        Kind::Load => load_store(f, l, mem, &a, true, &run),
        Kind::Store => load_store(f, l, mem, &a, false, &run),
    }
}

/// What an LSC_UNTYPED sub-operation does, of those this machine runs.
enum Kind {
    Load,
    Store,
    Atomic,
}

/// The kind of sub-operation `sub`; the ones not run here are unsupported by name.
fn sub_op_kind(f: &Fields, sub: u64) -> Result<Kind, MemoryError> {
    Ok(match sub {
        0x00 => Kind::Load,
        0x04 | 0x1c => Kind::Store,
        0x08..=0x1a => Kind::Atomic,
        0x01 => return Err(f.unsupported("lsc_load_strided")),
        0x02 => return Err(f.unsupported("lsc_load_quad")),
        0x03 => return Err(f.unsupported("lsc_load_block2d")),
        0x05 => return Err(f.unsupported("lsc_store_strided")),
        0x06 => return Err(f.unsupported("lsc_store_quad")),
        0x07 => return Err(f.unsupported("lsc_store_block2d")),
        0x1b => return Err(f.unsupported("lsc_load_status")),
        s => return Err(f.unsupported(format!("LscSubOp {s:#x}"))),
    })
}

/// Where an LSC_UNTYPED message's lanes address and how big its data elements are.
struct Access {
    space: Space,
    /// Bytes of an address element.
    addr_size: u32,
    addrs: RawOperand,
    /// Bytes of a datum in memory.
    mem_size: u32,
    /// Bytes of a datum in a register.
    reg: u32,
    /// Whether the datum is the upper half of its register element.
    high: bool,
    /// The message's lanes (its exec size).
    lanes: u32,
    /// The base of a flat address (its `Surface`: IGC 2.x's `flat(V)[...]`, 0 otherwise).
    base: u64,
}

/// The atomic `op` (with whether its two data sources are swapped) on each running lane:
/// `DstData[n] = old; *addr = op(old, Src1Data[n], Src2Data[n])`.
fn atomics<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
    a: &Access,
    (op, swap): (AtomicOp, bool),
    run: &[u32],
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let (s1, s2, dst) = (
        f.raw_opt("Src1Data"),
        f.raw_opt("Src2Data"),
        f.raw_opt("DstData"),
    );
    for &n in run {
        mem.at_lane(n);
        let at = address(f, l, a, n)?;
        let v1 = match s1 {
            Some(s) if op.sources() >= 1 => get(l, &s, a.reg, n)?,
            _ => 0,
        };
        let v2 = match s2 {
            Some(s) if op.sources() >= 2 => get(l, &s, a.reg, n)?,
            _ => 0,
        };
        let (a0, a1) = if swap { (v2, v1) } else { (v1, v2) };
        let old = mem.atomic(a.space, at, a.mem_size, op, a0, a1)?;
        if let Some(d) = dst {
            put(l, &d, a.reg, n, old)?;
        }
    }
    Ok(())
}

/// A load (or store) of `DataElemsPerAddr` elements per address on each running lane, in the
/// data order the message gives.
fn load_store<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
    a: &Access,
    load: bool,
    run: &[u32],
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let vect: u32 = match f.int_or("DataElemsPerAddr", 1) {
        e @ 1..=4 => e as u32,
        e @ 5..=8 => 8 << (e - 5),
        e => return Err(f.unsupported(format!("DataElemsPerAddr {e}")).into()),
    };
    let transposed = match f.int("DataOrder")? {
        1 => false,
        2 => true,
        o => return Err(f.unsupported(format!("DataOrder {o}")).into()),
    };
    let data = if load {
        f.raw_opt("DstData")
    } else {
        f.raw_opt("Src1Data")
    };
    // A load into %null is a prefetch: nothing to do.
    let Some(data) = data else {
        return Ok(());
    };
    let (reg, mem_size) = (a.reg, a.mem_size);
    let grf = mem.grf_bytes.max(1);
    let stride = (a.lanes * reg).div_ceil(grf) * grf / reg;
    let shift = if a.high { 16 } else { 0 };
    for &n in run {
        if !transposed {
            mem.at_lane(n);
        }
        let base = address(f, l, a, n)?;
        for v in 0..vect {
            let at = base.wrapping_add(u64::from(v * mem_size));
            let at = wrap(a.addr_size, at);
            let element = if transposed {
                n * vect + v
            } else {
                v * stride + n
            };
            if load {
                let x = mem.read(a.space, at, mem_size)?;
                put(l, &data, reg, element, x << shift)?;
            } else {
                let x = get(l, &data, reg, element)? >> shift;
                mem.write(a.space, at, mem_size, x)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::run_fields;
    use super::super::test_lanes::{fields, ud, TestLanes};
    use super::super::Fields;
    use crate::machine::memory::{Memory, Space, FIRST_BASE};
    use alloc::vec::Vec;

    fn setup() -> (Memory, TestLanes) {
        let mut mem = Memory::new(32);
        let b = mem.add_buffer((0u8..128).collect()).unwrap();
        mem.bind(1, b);
        mem.reset_slm(64);
        (mem, TestLanes::default())
    }

    /// `lsc_<sub>.<sfid> (M1, exec)` with the given address model, sizes and order, fields as
    /// Intel's assembler sets them for its own lines (see `runtime::text::special::lsc` tests).
    #[allow(clippy::too_many_arguments)]
    fn lsc(
        sub: u64,
        exec: u8,
        sfid: u64,
        model: u64,
        addr: u64,
        data: u64,
        vect: u64,
        order: u64,
    ) -> Fields {
        fields(
            "LSC_UNTYPED",
            Some(exec),
            &[
                ("LscSubOp", sub),
                ("LscSFID", sfid),
                ("CachingL1", 0),
                ("CachingL3", 0),
                ("AddrType", model),
                ("AddrScale", 1),
                ("AddrImmOffset", 0),
                ("AddrSize", addr),
                ("DataSize", data),
                ("DataOrder", order),
                ("DataElemsPerAddr", vect),
                ("ChMask", 0),
            ],
            // bti(0x1); a flat address's base is the immediate 0, as Intel's assembler writes it.
            &[("Surface", ud(u64::from(model == 4)))],
            &[
                ("DstData", 2),
                ("Src0Addrs", 1),
                ("Src1Data", 3),
                ("Src2Data", 4),
            ],
        )
    }

    #[test]
    fn load_bti_a32_d32x2_in_structure_of_array_order() {
        // lsc_load.ugm (M1, 16) V2:d32x2 bti(0x1)[V1]:a32 with V3 = V4 = %null.
        let (mut mem, mut l) = setup();
        l.dwords(1, &(0..16).map(|i| i * 8).collect::<Vec<_>>());
        l.zeros(2, 128);
        let mut f = lsc(0, 0x04, 0, 4, 2, 3, 2, 1);
        f.raws.retain(|(n, _)| *n != "Src1Data" && *n != "Src2Data");
        run_fields(&f, &mut l, &mut mem).unwrap();
        // Component 0 of lane 3 = bytes 24..28, component 1 at element 16 + 3 = bytes 28..32.
        assert_eq!(l.dword(2, 3), 0x1b1a_1918);
        assert_eq!(l.dword(2, 19), 0x1f1e_1d1c);
        assert_eq!(l.dword(2, 31), 0x7f7e_7d7c);
    }

    #[test]
    fn store_flat_a64_and_slm_transposed() {
        let (mut mem, mut l) = setup();
        // lsc_store.ugm (M1, 2) flat[V1]:a64 V3:d32.
        l.qwords(1, &[FIRST_BASE + 4, FIRST_BASE + 64]);
        l.dwords(3, &[0xaaaa_aaaa, 0xbbbb_bbbb]);
        let f = lsc(4, 0x01, 0, 1, 3, 3, 1, 1);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(
            mem.read(Space::Stateless, FIRST_BASE + 4, 4).unwrap(),
            0xaaaa_aaaa
        );
        assert_eq!(
            mem.read(Space::Stateless, FIRST_BASE + 64, 4).unwrap(),
            0xbbbb_bbbb
        );
        // lsc_store.slm (M1_NM, 1) flat[V1]:a32 V3:d32x4t: four dwords from SLM offset 16.
        l.dwords(1, &[16]);
        l.dwords(3, &[1, 2, 3, 4]);
        let f = lsc(4, 0x80, 3, 1, 2, 3, 4, 2);
        run_fields(&f, &mut l, &mut mem).unwrap();
        let slm: Vec<u64> = (0..4)
            .map(|i| mem.read(Space::Slm, 16 + 4 * i, 4).unwrap())
            .collect();
        assert_eq!(slm, [1, 2, 3, 4]);
        // And read back transposed into V2.
        l.zeros(2, 16);
        let f = lsc(0, 0x80, 3, 1, 2, 3, 4, 2);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(
            (0..4).map(|i| l.dword(2, i)).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn d8u32_loads_a_byte_into_each_dword() {
        let (mut mem, mut l) = setup();
        l.dwords(1, &[5, 77]);
        l.dwords(2, &[0xffff_ffff, 0xffff_ffff]);
        let f = lsc(0, 0x01, 0, 4, 2, 5, 1, 1);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!([l.dword(2, 0), l.dword(2, 1)], [5, 77]);
    }

    #[test]
    fn atomics_iadd_and_icas() {
        let (mut mem, mut l) = setup();
        mem.write(Space::Stateless, FIRST_BASE, 4, 40).unwrap();
        // lsc_atomic_iadd.ugm (M1, 2) V2:d32 flat[V1]:a64 V3 %null: both lanes on one dword.
        l.qwords(1, &[FIRST_BASE, FIRST_BASE]);
        l.dwords(3, &[1, 2]);
        l.zeros(2, 8);
        let f = lsc(0x0c, 0x01, 0, 1, 3, 3, 1, 1);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!([l.dword(2, 0), l.dword(2, 1)], [40, 41]);
        assert_eq!(mem.read(Space::Stateless, FIRST_BASE, 4).unwrap(), 43);
        // lsc_atomic_icas: new = Src2Data if old == Src1Data.
        l.qwords(1, &[FIRST_BASE]);
        l.dwords(3, &[43]);
        l.dwords(4, &[7]);
        let f = lsc(0x12, 0x00, 0, 1, 3, 3, 1, 1);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(mem.read(Space::Stateless, FIRST_BASE, 4).unwrap(), 7);
        assert_eq!(l.dword(2, 0), 43);
    }

    #[test]
    fn unsupported_forms_name_themselves() {
        let (mut mem, mut l) = setup();
        l.dwords(1, &[0]);
        for (sub, model, what) in [(3, 1, "block2d"), (1, 1, "strided"), (0, 3, "ss")] {
            let f = lsc(sub, 0x00, 0, model, 2, 3, 1, 1);
            let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
            assert!(e.0.contains(what), "{}", e.0);
        }
    }
}
