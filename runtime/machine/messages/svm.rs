//! The shared-virtual-memory messages (`svm_scatter.4.4`, `svm_gather.1.4`, `svm_block_ld`,
//! `svm_atomic.cmpxchg.64` in Intel's output for acm-g10 rev 0 and tgllp): 64-bit virtual
//! addresses, mapped onto the host's buffers by [`Memory`] (stateless space).

use super::{get, lanes, put, scalar, Fields, MessageLanes};
use crate::machine::memory::{AtomicOp, Memory, MemoryError, Space};

/// SVM_GATHER and SVM_SCATTER (SVM_GATHER.md, SVM_SCATTER.md, Semantics):
///
/// ```text
/// for (i = 0; i < exec_size; ++i) {
///     if (ChEn[i]) {
///         if (block_size == 4 || block_size == 8) {
///             for (j = 0; j < num_blocks; ++j) {
///                 dst[j*exec_size+i] = *(Addresses[i] + j*block_size); //4 or 8 byte
///             }
///         }
///         else { // block_size == 1
///             UD min_block_size = num_blocks < 4 ? 4 : num_blocks;
///             for (j = 0; j < num_blocks; ++j) {
///                 dst[i*min_block_size+j] = *(Addresses[i] + j); //1 byte
///             }
///         }
///     }
/// }
/// ```
///
/// `Block_size` bits 1..0: 0b00 1 byte, 0b01 4 bytes, 0b10 8 bytes (erratum
/// `SVM_GATHER-block-size-8-is-0b10.patch`; SVM_SCATTER.md says 0b10 itself); `Num_blocks`
/// bits 1..0: 1, 2, 4 or 8 blocks. Addresses are UQ.
pub fn scattered<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let load = f.name == "SVM_GATHER";
    let exec = f.exec()?;
    let block: u32 = match f.int("Block_size")? & 3 {
        0 => 1,
        1 => 4,
        2 => 8,
        b => return Err(f.unsupported(alloc::format!("Block_size {b:#b}")).into()),
    };
    let blocks: u32 = 1 << (f.int("Num_blocks")? & 3);
    let addresses = f.raw("Addresses")?;
    let data = f.raw(if load { "Dst" } else { "Src" })?;
    let n = exec.elements().unwrap_or(1);
    for i in lanes(l, exec, f.pred)? {
        mem.at_lane(i);
        let base = get(l, &addresses, 8, i)?;
        for j in 0..blocks {
            let address = base.wrapping_add(u64::from(j * block));
            let at = if block == 1 {
                i * blocks.max(4) + j
            } else {
                j * n + i
            };
            if load {
                let v = mem.read(Space::Stateless, address, block)?;
                put(l, &data, block, at, v)?;
            } else {
                let v = get(l, &data, block, at)?;
                mem.write(Space::Stateless, address, block, v)?;
            }
        }
    }
    Ok(())
}

/// SVM_BLOCK_LD and SVM_BLOCK_ST (their docs' Semantics):
/// `for (i = 0; i < num_owords; ++i) dst[i] = *(address+i*16); //16 byte`; `Properties`
/// bits 2..0 are 1, 2, 4, 8 or 16 owords (0b100: errata `SVM_BLOCK_LD-values-16-owords-bit-7`
/// and `SVM_BLOCK_ST-values-16-owords`), bit 3 "the address can be dword aligned", and bit 7
/// the unaligned flag Intel's compiler writes instead (errata `SVM_BLOCK_LD-values-16-owords-bit-7`,
/// `SVM_BLOCK_ST-unaligned-bit-7`). "The execution mask is set to NoMask".
pub fn block<L: MessageLanes + ?Sized>(
    f: &Fields,
    l: &mut L,
    mem: &mut Memory,
) -> Result<(), L::Error>
where
    L::Error: From<MemoryError>,
{
    let load = f.name == "SVM_BLOCK_LD";
    let props = f.int("Properties")?;
    let owords: u32 = match props & 7 {
        s @ 0..=4 => 1 << s,
        _ => {
            return Err(f
                .unsupported(alloc::format!("Properties {props:#x}"))
                .into())
        }
    };
    // Bit 3 (the docs) or bit 7 (where Intel's compiler writes its unaligned flag, errata
    // above: 0x82 for `svm_block_ld (4)` of `intel_sub_group_block_read`, "a64 unaligned oword
    // block write" for 0x80) allow a dword-aligned address.
    let align = if props & 0x88 != 0 { 4 } else { 16 };
    let address = scalar(l, &f.vector("Address")?)?;
    if !address.is_multiple_of(align) {
        return Err(MemoryError::Misaligned {
            space: Space::Stateless,
            address,
            align: align as u32,
        }
        .into());
    }
    let data = f.raw(if load { "Dst" } else { "Src" })?;
    for d in 0..owords * 2 {
        let at = address.wrapping_add(8 * u64::from(d));
        if load {
            let v = mem.read(Space::Stateless, at, 8)?;
            put(l, &data, 8, d, v)?;
        } else {
            let v = get(l, &data, 8, d)?;
            mem.write(Space::Stateless, at, 8, v)?;
        }
    }
    Ok(())
}

/// SVM_ATOMIC (SVM_ATOMIC.md, Semantics):
///
/// ```text
/// for (i = 0; i < exec_size; ++i) {
///     if (ChEn[i]) {
///         // 2, 4, or 8 byte, atomic operation
///         dst[i] = *(addresses[i]);
///         *(addresses[i]) = op(*(addresses[i]), src0, src1);
///     }
/// }
/// ```
///
/// `Op` bits 4..0 are DWORD_ATOMIC's operations, bits 6..5 the width: 0b00 32-bit, 0b01
/// 16-bit (unpacked in dwords, like DWORD_ATOMIC's), 0b10 64-bit ("src and dst operands must
/// have 64-bit types").
pub fn atomic<L: MessageLanes + ?Sized>(
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
    let (size, slot) = match (bits >> 5) & 3 {
        0 => (4, 4),
        1 => (2, 4),
        2 => (8, 8),
        w => return Err(f.unsupported(alloc::format!("Op width {w:#b}")).into()),
    };
    let addresses = f.raw("Addresses")?;
    let (src0, src1, dst) = (f.raw_opt("Src0"), f.raw_opt("Src1"), f.raw_opt("Dst"));
    for i in lanes(l, f.exec()?, f.pred)? {
        mem.at_lane(i);
        let address = get(l, &addresses, 8, i)?;
        let s0 = match (op.sources() >= 1, src0) {
            (true, Some(s)) => get(l, &s, slot, i)?,
            _ => 0,
        };
        let s1 = match (op.sources() >= 2, src1) {
            (true, Some(s)) => get(l, &s, slot, i)?,
            _ => 0,
        };
        let old = mem.atomic(Space::Stateless, address, size, op, s0, s1)?;
        if let Some(d) = dst {
            put(l, &d, slot, i, old)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::run_fields;
    use super::super::test_lanes::{fields, uq, TestLanes};
    use crate::machine::memory::{Memory, Space, FIRST_BASE};
    use alloc::vec::Vec;

    fn setup() -> (Memory, TestLanes) {
        let mut mem = Memory::new(32);
        mem.add_buffer((0u8..64).collect()).unwrap();
        (mem, TestLanes::default())
    }

    #[test]
    fn svm_gather_4_byte_blocks_and_1_byte_blocks() {
        let (mut mem, mut l) = setup();
        // svm_gather.4.2 (M1, 8): lane i reads dwords at base + 4i and base + 4i + 4.
        l.qwords(1, &(0..8).map(|i| FIRST_BASE + 4 * i).collect::<Vec<_>>());
        l.zeros(2, 64);
        let f = fields(
            "SVM_GATHER",
            Some(0x03),
            &[("Block_size", 1), ("Num_blocks", 1)],
            &[],
            &[("Addresses", 1), ("Dst", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(l.dword(2, 0), 0x0302_0100);
        assert_eq!(l.dword(2, 8), 0x0706_0504); // block 1 of lane 0: dst[1*8+0]
        assert_eq!(l.dword(2, 15), 0x2322_2120); // block 1 of lane 7 at 4*7+4 = 32
                                                 // svm_gather.1.4 (M1, 2): 4 bytes per lane, byte j of lane i at dst byte 4i + j.
        l.qwords(1, &[FIRST_BASE + 9, FIRST_BASE + 30]);
        l.zeros(2, 8);
        let f = fields(
            "SVM_GATHER",
            Some(0x01),
            &[("Block_size", 0), ("Num_blocks", 2)],
            &[],
            &[("Addresses", 1), ("Dst", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(l.bytes(2), &[9, 10, 11, 12, 30, 31, 32, 33]);
    }

    #[test]
    fn svm_scatter_and_unmapped_addresses() {
        let (mut mem, mut l) = setup();
        l.qwords(1, &[FIRST_BASE + 8, FIRST_BASE + 56]);
        l.qwords(2, &[0x1111_2222_3333_4444, 0x5555_6666_7777_8888]);
        // svm_scatter.8.1 (M1, 2): one qword per lane.
        let f = fields(
            "SVM_SCATTER",
            Some(0x01),
            &[("Block_size", 2), ("Num_blocks", 0)],
            &[],
            &[("Addresses", 1), ("Src", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(
            mem.read(Space::Stateless, FIRST_BASE + 8, 8).unwrap(),
            0x1111_2222_3333_4444
        );
        assert_eq!(
            mem.read(Space::Stateless, FIRST_BASE + 56, 8).unwrap(),
            0x5555_6666_7777_8888
        );
        // Lane 1 now points past the buffer's end: an error naming the address.
        l.qwords(1, &[FIRST_BASE, FIRST_BASE + 60]);
        let e = run_fields(&f, &mut l, &mut mem).unwrap_err();
        assert!(e.0.contains("0x1000000003c"), "{}", e.0);
    }

    #[test]
    fn svm_block_ld_and_st_move_owords() {
        let (mut mem, mut l) = setup();
        l.zeros(2, 32);
        let f = fields(
            "SVM_BLOCK_LD",
            None,
            &[("Properties", 1)],
            &[("Address", uq(FIRST_BASE + 16))],
            &[("Dst", 2)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(l.bytes(2), &(16u8..48).collect::<Vec<_>>()[..]);
        // Oword alignment is required unless bit 3 says dword.
        let mut f = f;
        f.vectors[0] = ("Address", uq(FIRST_BASE + 4));
        assert!(run_fields(&f, &mut l, &mut mem).is_err());
        f.ints[0] = ("Properties", 0b1000);
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(&l.bytes(2)[..16], &(4u8..20).collect::<Vec<_>>()[..]);
        // Intel's `svm_block_ld (2)` of a sub-group block read: Properties 0x81.
        f.ints[0] = ("Properties", 0x81);
        f.vectors[0] = ("Address", uq(FIRST_BASE + 8));
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(l.bytes(2), &(8u8..40).collect::<Vec<_>>()[..]);
        // Store 1 oword back at 48.
        f.name = "SVM_BLOCK_ST";
        f.ints[0] = ("Properties", 0);
        f.vectors[0] = ("Address", uq(FIRST_BASE + 48));
        f.raws[0] = ("Src", crate::runtime::RawOperand { id: 2, offset: 0 });
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(
            &mem.buffers()[0].bytes[48..],
            &(8u8..24).collect::<Vec<_>>()[..]
        );
    }

    #[test]
    fn svm_atomic_64_bit_cmpxchg_and_32_bit_add() {
        let (mut mem, mut l) = setup();
        mem.write(Space::Stateless, FIRST_BASE, 8, 5).unwrap();
        l.qwords(1, &[FIRST_BASE]);
        l.qwords(2, &[99]); // src0: new value
        l.qwords(3, &[5]); // src1: compared with old
        l.zeros(4, 8);
        // svm_atomic.cmpxchg.64 (M1, 1): Op 0b111 with width 0b10 in bits 6..5.
        let f = fields(
            "SVM_ATOMIC",
            Some(0x00),
            &[("Op", 0b100_0111)],
            &[],
            &[("Addresses", 1), ("Src0", 2), ("Src1", 3), ("Dst", 4)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(mem.read(Space::Stateless, FIRST_BASE, 8).unwrap(), 99);
        assert_eq!(l.dword(4, 0), 5);
        // svm_atomic.add (M1, 2) on dwords 8 and 12.
        l.qwords(1, &[FIRST_BASE + 8, FIRST_BASE + 12]);
        l.dwords(2, &[1, 0x100]);
        let f = fields(
            "SVM_ATOMIC",
            Some(0x01),
            &[("Op", 0)],
            &[],
            &[("Addresses", 1), ("Src0", 2), ("Src1", 0), ("Dst", 4)],
        );
        run_fields(&f, &mut l, &mut mem).unwrap();
        assert_eq!(
            mem.read(Space::Stateless, FIRST_BASE + 8, 4).unwrap(),
            0x0b0a_0909
        );
        assert_eq!(
            mem.read(Space::Stateless, FIRST_BASE + 12, 4).unwrap(),
            0x0f0e_0e0c
        );
        assert_eq!([l.dword(4, 0), l.dword(4, 1)], [0x0b0a_0908, 0x0f0e_0d0c]);
    }
}
