//! The machine's parts on hand-built states: regions, `EvaluateChEn`, variable placement,
//! operand reads and writes, and SIMD divergence. Expected values are worked out by hand
//! from the operands and execution-model chapters.

use super::convert::FloatMode;
use super::exec::{Flow, Status, Thread};
use super::layout::{self, Layout};
use super::thread::{destination_element, evaluate_chen, source_element, Core, Inst, Regs};
use crate::object::{AddressInfo, KernelData, PredicateInfo, VarInfo};
use crate::runtime::{
    DataType, ExecSize, Immediate, PredicateCombine, PredicateControl, Region, StateClass, Value,
    VectorOperand,
};
use alloc::vec;
use alloc::vec::Vec;

/// Region encodings: 0 elements is 1, 1 is 2, 2 is 3, 4 is 4, 8 is 5, 16 is 6, 32 is 7.
fn enc(n: u32) -> u8 {
    match n {
        0 => 1,
        1 => 2,
        2 => 3,
        4 => 4,
        8 => 5,
        16 => 6,
        _ => 7,
    }
}

fn region(vs: u32, w: u32, hs: u32) -> Region {
    Region::new(enc(vs), enc(w), enc(hs))
}

#[test]
fn source_regions_walk_rows_of_width_elements() {
    // <8;8,1>: lane 9 is row 1 (8 elements on), column 1.
    assert_eq!(source_element(region(8, 8, 1), 9).unwrap(), 9);
    // <0;1,0>: every lane reads element 0 (a scalar broadcast).
    assert_eq!(source_element(region(0, 1, 0), 13).unwrap(), 0);
    // <16;8,2>: lane 9 = row 1 (16) + column 1 * 2.
    assert_eq!(source_element(region(16, 8, 2), 9).unwrap(), 18);
    // <1;4,0>... <0;4,1>: lane 6 = row 1 (0) + column 2.
    assert_eq!(source_element(region(0, 4, 1), 6).unwrap(), 2);
    // <2;1,0> (IGC's 64-bit halves): lane 3 = row 3 * 2.
    assert_eq!(source_element(region(2, 1, 0), 3).unwrap(), 6);
    // A null width is no region.
    assert!(source_element(Region::new(5, 0, 2), 0).is_err());
    // Destination <2>: lane 3 is element 6.
    assert_eq!(destination_element(region(0, 0, 2), 3).unwrap(), 6);
}

fn exec(size_bits: u8, mask: u8) -> ExecSize {
    ExecSize::new(size_bits, mask)
}

#[test]
fn chen_takes_the_mask_control_offset_nomask_and_predicates() {
    let preds = [0, 0b1010_0000_1111_0000, u32::MAX];
    // M1, 16 lanes, EM = low byte: ChEn = 0xff.
    let i = evaluate_chen(exec(4, 0), None, 0x00ff, &preds).unwrap();
    assert_eq!((i.n, i.offset, i.chen, i.pmask), (16, 0, 0xff, 0xffff));
    // M2 (offset 4), 4 lanes, EM bits 4-7 on: ChEn = 0xf.
    let i = evaluate_chen(exec(2, 1), None, 0xf0, &preds).unwrap();
    assert_eq!((i.offset, i.chen), (4, 0xf));
    // M1_NM: every lane, whatever EM says.
    let i = evaluate_chen(exec(3, 8), None, 0, &preds).unwrap();
    assert_eq!(i.chen, 0xff);
    // Sequential predicate P1 at M2 (offset 4), 8 lanes: P1 bits 4-11 = 0b0000_1111.
    let p1 = PredicateControl::new(1, PredicateCombine::Sequential, false);
    let i = evaluate_chen(exec(3, 1), Some(p1), u32::MAX, &preds).unwrap();
    assert_eq!((i.chen, i.pmask), (0x0f, 0x0f));
    // Inverted.
    let p1n = PredicateControl::new(1, PredicateCombine::Sequential, true);
    assert_eq!(
        evaluate_chen(exec(3, 1), Some(p1n), u32::MAX, &preds)
            .unwrap()
            .chen,
        0xf0
    );
    // any: some bit of P1's first 16 is set, so every lane; all: not all, so none; inverted
    // all: every lane.
    let any = PredicateControl::new(1, PredicateCombine::Any, false);
    assert_eq!(
        evaluate_chen(exec(4, 0), Some(any), u32::MAX, &preds)
            .unwrap()
            .chen,
        0xffff
    );
    let all = PredicateControl::new(1, PredicateCombine::All, false);
    assert_eq!(
        evaluate_chen(exec(4, 0), Some(all), u32::MAX, &preds)
            .unwrap()
            .chen,
        0
    );
    let nall = PredicateControl::new(1, PredicateCombine::All, true);
    assert_eq!(
        evaluate_chen(exec(4, 0), Some(nall), 0x3, &preds)
            .unwrap()
            .chen,
        0x3
    );
    // 32 lanes of P2 (all ones).
    let p2 = PredicateControl::new(2, PredicateCombine::Sequential, false);
    assert_eq!(
        evaluate_chen(exec(5, 0), Some(p2), u32::MAX, &preds)
            .unwrap()
            .chen,
        u32::MAX
    );
    // P0 is "no predicate"; reserved combine, undeclared predicates and exec size 0b110 fail.
    let p0 = PredicateControl::NONE;
    assert_eq!(
        evaluate_chen(exec(0, 0), Some(p0), 1, &preds).unwrap().chen,
        1
    );
    let reserved = PredicateControl::new(1, PredicateCombine::Reserved, false);
    assert!(evaluate_chen(exec(0, 0), Some(reserved), 1, &preds).is_err());
    let p9 = PredicateControl::new(9, PredicateCombine::Sequential, false);
    assert!(evaluate_chen(exec(0, 0), Some(p9), 1, &preds).is_err());
    assert!(evaluate_chen(exec(6, 0), None, 1, &preds).is_err());
}

/// `type` in bits 0-3, alignment code in bits 4-7.
fn var(ty: DataType, align: u8, n: u16) -> VarInfo {
    VarInfo {
        bit_properties: ty.as_u8() | align << 4,
        num_elements: n,
        ..VarInfo::default()
    }
}

fn alias(ty: DataType, n: u16, of: u32, offset: u16) -> VarInfo {
    VarInfo {
        alias_index: of,
        alias_offset: offset,
        ..var(ty, 0, n)
    }
}

/// V32 D x16 (hword), V33 W x3 (word), V34 UW alias of V32 at byte 4, V35 UD alias of %r0 at
/// 8, V36 UB x40 (byte: crosses a GRF from byte 6, so GRF-aligned), V37 F x8; two address
/// variables of 4 elements, P1 and P2.
fn kernel() -> KernelData {
    KernelData {
        var_info: vec![
            var(DataType::D, 7, 16),
            var(DataType::W, 1, 3),
            alias(DataType::Uw, 2, 32, 4),
            alias(DataType::Ud, 2, layout::R0, 8),
            var(DataType::Ub, 0, 40),
            var(DataType::F, 7, 8),
        ],
        address_info: vec![
            AddressInfo {
                num_elements: 4,
                ..AddressInfo::default()
            };
            2
        ],
        predicate_info: vec![
            PredicateInfo {
                num_elements: 16,
                ..PredicateInfo::default()
            };
            2
        ],
        ..KernelData::default()
    }
}

#[test]
fn variables_are_placed_as_declared_with_aliases_into_their_bases() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let p = l.predefined_bytes;
    assert_eq!(p % 32, 0);
    // %arg: 256 UD; %retval 96 UD; %sp UQ-sized.
    assert_eq!(l.vars[layout::ARG as usize].size, 1024);
    assert_eq!(l.vars[layout::RETVAL as usize].size, 384);
    assert_eq!(l.vars[layout::SP as usize].size, 8);
    assert_eq!(l.vars[32].base, p);
    assert_eq!(l.vars[32].size, 64);
    assert_eq!(l.vars[33].base, p + 64);
    assert_eq!(l.vars[34].base, p + 4);
    assert_eq!(l.vars[34].ty, DataType::Uw);
    assert_eq!(l.vars[35].base, l.vars[layout::R0 as usize].base + 8);
    // V33 ends at p + 70; 40 bytes from there would cross p + 96: next GRF.
    assert_eq!(l.vars[36].base, p + 96);
    assert_eq!(l.vars[37].base, p + 160);
    assert_eq!(l.bytes, p + 192);
    assert_eq!(l.addresses, vec![(0, 4), (4, 4)]);
    // PVC: 64-byte GRF, %arg 512 UD.
    let w = Layout::new(&kernel(), 64).unwrap();
    assert_eq!(w.vars[layout::ARG as usize].size, 2048);
    assert_eq!(w.vars[32].base % 64, 0);
}

#[test]
fn bad_declarations_are_errors() {
    let mut k = kernel();
    k.var_info.push(alias(DataType::D, 1, 99, 0));
    assert!(Layout::new(&k, 32).unwrap_err().contains("V38"));
    let mut k = kernel();
    k.var_info.push(alias(DataType::D, 1, 38, 0));
    assert!(Layout::new(&k, 32).unwrap_err().contains("cycle"));
    let mut k = kernel();
    k.var_info.push(var(DataType::Bool, 0, 1));
    assert!(Layout::new(&k, 32).is_err());
    // An alias of V32 at byte 65535: past every register of the activation.
    let mut k = kernel();
    k.var_info.push(alias(DataType::D, 1, 32, u16::MAX));
    let e = Layout::new(&k, 32).unwrap_err();
    assert!(
        e.starts_with("V38: 4 bytes at register byte ") && e.contains("end past the routine's"),
        "{e}"
    );
    // Aliases of aliases whose offsets add up past 2^32 saturate, and are refused the same.
    let mut k = kernel();
    k.var_info.push(alias(DataType::D, 1, 32, u16::MAX));
    for i in 0..70_000u32 {
        k.var_info.push(alias(DataType::D, 1, 38 + i, u16::MAX));
    }
    assert!(Layout::new(&k, 32)
        .unwrap_err()
        .contains("end past the routine's"));
}

fn general(id: u32, row: u8, col: u8, region: Region, modifier: u8) -> VectorOperand {
    VectorOperand::General {
        modifier,
        id,
        row_offset: row,
        col_offset: col,
        region,
    }
}

fn core<'a>(l: &'a Layout, regs: &'a mut Regs, n: u32) -> Core<'a> {
    let mut c = Core::new(l, regs, u32::MAX, FloatMode::from_cr0(0x4c0));
    c.inst = Inst {
        n,
        chen: u32::MAX,
        pmask: u32::MAX,
        ..Inst::default()
    };
    c
}

#[test]
fn general_operands_read_through_regions_with_modifiers_and_write_with_saturation() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let mut regs = Regs::new(&l, 6, 0);
    let base = l.vars[32].base as usize;
    for i in 0..16i32 {
        let at = base + 4 * i as usize;
        regs.grf[at..at + 4].copy_from_slice(&(i - 8).to_le_bytes());
    }
    let mut c = core(&l, &mut regs, 8);
    // V32(0,0)<2;1,0>... <16;8,2> from (0,1): lane 3 is element 1 + 6 = 7, value -1.
    let src = general(32, 0, 1, region(16, 8, 2), 0);
    assert_eq!(c.read(&src, 3).unwrap(), Value::Int(-1, DataType::D));
    // Row offset 1 = 32 bytes = 8 D elements on: V32(1,0)<0;1,0> is element 8, value 0.
    assert_eq!(
        c.read(&general(32, 1, 0, region(0, 1, 0), 0), 5).unwrap(),
        Value::Int(0, DataType::D)
    );
    // (-) and (abs) of element 0 (-8); (~) of it is 7.
    let s = region(0, 1, 0);
    assert_eq!(
        c.read(&general(32, 0, 0, s, 2), 0).unwrap(),
        Value::Int(8, DataType::D)
    );
    assert_eq!(
        c.read(&general(32, 0, 0, s, 1), 0).unwrap(),
        Value::Int(8, DataType::D)
    );
    assert_eq!(
        c.read(&general(32, 0, 0, s, 3), 0).unwrap(),
        Value::Int(-8, DataType::D)
    );
    assert_eq!(
        c.read(&general(32, 0, 0, s, 5), 0).unwrap(),
        Value::Int(7, DataType::D)
    );
    // The alias V34 (UW at byte 4 of V32) sees element 1 (-7 = 0xfffffff9): 0xfff9, 0xffff.
    assert_eq!(
        c.read(&general(34, 0, 0, region(1, 1, 0), 0), 0).unwrap(),
        Value::Int(0xfff9, DataType::Uw)
    );
    assert_eq!(
        c.read(&general(34, 0, 0, region(1, 1, 0), 0), 1).unwrap(),
        Value::Int(0xffff, DataType::Uw)
    );
    // Destination <2> of UB V36 with .sat (modifier 4): 300 clamps to 255 at element 2 * lane.
    let dst = general(36, 0, 0, region(0, 0, 2), 4);
    c.write(&dst, 3, Value::Int(300, DataType::D)).unwrap();
    let b36 = l.vars[36].base as usize;
    assert_eq!(c.regs.grf[b36 + 6], 255);
    // Without .sat it wraps: 300 = 0x12c -> 0x2c.
    c.write(
        &general(36, 0, 0, region(0, 0, 1), 0),
        0,
        Value::Int(300, DataType::D),
    )
    .unwrap();
    assert_eq!(c.regs.grf[b36], 0x2c);
    // Past the variable: V33 has 3 elements.
    assert!(c.read(&general(33, 0, 3, s, 0), 0).is_err());
    assert!(c.read(&general(99, 0, 0, s, 0), 0).is_err());
    // Floats: F 1.5 written, read back negated.
    c.write(
        &general(37, 0, 0, region(0, 0, 1), 0),
        2,
        Value::Float(1.5, DataType::F),
    )
    .unwrap();
    let f = c.read(&general(37, 0, 2, s, 2), 0).unwrap();
    assert_eq!(f, Value::Float(-1.5, DataType::F));
}

#[test]
fn immediates_broadcast_and_packed_vectors_unpack() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let mut regs = Regs::new(&l, 6, 0);
    let mut c = core(&l, &mut regs, 8);
    let imm = |ty, value| VectorOperand::Immediate(Immediate { ty, value });
    assert_eq!(
        c.read(&imm(DataType::D, 0xffff_fffb), 7).unwrap(),
        Value::Int(-5, DataType::D)
    );
    // V 0x76543210 -> lane i is i; 0xf... is -1 (signed 4-bit).
    assert_eq!(
        c.read(&imm(DataType::V, 0x7654_3210), 5).unwrap(),
        Value::Int(5, DataType::W)
    );
    assert_eq!(
        c.read(&imm(DataType::V, 0xf000_0000), 7).unwrap(),
        Value::Int(-1, DataType::W)
    );
    assert_eq!(
        c.read(&imm(DataType::Uv, 0xf000_0000), 7).unwrap(),
        Value::Int(15, DataType::Uw)
    );
    // VF: 0x30 = exponent 3 (bias 3), mantissa 0 = 1.0; 0xb8 = -(1 + 8/16) * 2^0 = -1.5.
    assert_eq!(
        c.read(&imm(DataType::Vf, 0xb830), 0).unwrap(),
        Value::Float(1.0, DataType::F)
    );
    assert_eq!(
        c.read(&imm(DataType::Vf, 0xb830), 1).unwrap(),
        Value::Float(-1.5, DataType::F)
    );
    assert!(c
        .write(&imm(DataType::D, 0), 0, Value::Int(0, DataType::D))
        .is_err());
}

/// Registers of the test kernel (7 surfaces) with V32's 16 dwords 100 to 115, and V32's
/// first byte.
fn regs_with_v32(l: &Layout) -> (Regs, u32) {
    let mut regs = Regs::new(l, 7, 0);
    let base = l.vars[32].base;
    for i in 0..16u32 {
        let at = (base + 4 * i) as usize;
        regs.grf[at..at + 4].copy_from_slice(&(100 + i).to_le_bytes());
    }
    (regs, base)
}

#[test]
fn predicates_are_bits_per_lane_and_one_lane_reads_the_whole_variable() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let (mut regs, _) = regs_with_v32(&l);
    let mut c = core(&l, &mut regs, 4);
    // Predicate destination at M2 (offset 4): lane 1 sets bit 5 of P1.
    c.inst.offset = 4;
    let p1 = VectorOperand::Predicate(PredicateControl::new(
        1,
        PredicateCombine::Sequential,
        false,
    ));
    c.write(&p1, 1, Value::Bool(true)).unwrap();
    assert_eq!(c.regs.preds[1], 1 << 5);
    assert_eq!(c.read(&p1, 1).unwrap(), Value::Bool(true));
    let p1n =
        VectorOperand::Predicate(PredicateControl::new(1, PredicateCombine::Sequential, true));
    assert_eq!(c.read(&p1n, 1).unwrap(), Value::Bool(false));
    // One lane (`mov (M1_NM, 1) V P1`, MOV.md: "The value of the predicate variable is
    // interpreted as an unsigned integer"): the whole variable from the mask offset on.
    c.regs.preds[1] = 0x8000_0f21;
    c.inst.n = 1;
    c.inst.offset = 0;
    assert_eq!(
        c.read(&p1, 0).unwrap(),
        Value::Int(0x8000_0f21, DataType::Ud)
    );
    assert_eq!(
        c.read(&p1n, 0).unwrap(),
        Value::Int(0x7fff_f0de, DataType::Ud)
    );
    c.inst.offset = 4;
    assert_eq!(
        c.read(&p1, 0).unwrap(),
        Value::Int(0x0800_00f2, DataType::Ud)
    );
}

#[test]
fn address_of_address_registers_and_indirect_operands() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let (mut regs, base) = regs_with_v32(&l);
    let mut c = core(&l, &mut regs, 4);
    // ADDR_ADD's source: the address of V32(1,2) = base + 32 + 2 * 4.
    let src0 = general(32, 1, 2, region(0, 1, 0), 0);
    c.inst.address_of = Some(src0);
    let a = c.read(&src0, 0).unwrap();
    assert_eq!(a, Value::Int(i128::from(base + 40), DataType::Ud));
    // Its Src1, another general operand, is read as a value (V32(0,0) = 100).
    let src1 = general(32, 0, 0, region(0, 1, 0), 0);
    assert_eq!(c.read(&src1, 0).unwrap(), Value::Int(100, DataType::D));
    c.inst.address_of = None;
    // A0(0..4) = base + 0, +8, +16, +24 (written through an address destination).
    for lane in 0..4 {
        let dst = VectorOperand::Address {
            id: 0,
            offset: 0,
            width: 1,
        };
        c.write(
            &dst,
            lane,
            Value::Int(i128::from(base + 8 * lane), DataType::Ud),
        )
        .unwrap();
    }
    // Single-address r[A0(1), 4]<4;2,1>:d: origin base + 8 + 4 (element 3); lane 2 = row 1
    // (+4 elements), column 0: element 7, value 107.
    let ind = |addr_offset, region| VectorOperand::Indirect {
        modifier: 0,
        id: 0,
        addr_offset,
        indirect_offset: 4,
        bit_properties: DataType::D.as_u8(),
        region,
    };
    assert_eq!(
        c.read(&ind(1, region(4, 2, 1)), 2).unwrap(),
        Value::Int(107, DataType::D)
    );
    // Multi-address (null vertical stride) <;2,1>: row i starts at A0(i) + 4; lane 5 = row 2
    // (base + 16 + 4 = element 5), column 1: element 6, 106.
    let multi = ind(0, Region::new(0, enc(2), enc(1)));
    assert_eq!(c.read(&multi, 5).unwrap(), Value::Int(106, DataType::D));
    // Destination r[A0(0), 4]<1>: lane 2 writes element 1 + 2 = 3.
    c.write(&ind(0, region(0, 0, 1)), 2, Value::Int(-1, DataType::D))
        .unwrap();
    let at = (base + 12) as usize;
    assert_eq!(&c.regs.grf[at..at + 4], &[0xff; 4]);
    // Address elements past the variable fail.
    assert!(c.read(&ind(4, region(0, 1, 0)), 0).is_err());
}

#[test]
fn surface_variables_are_written_and_read() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let (mut regs, _) = regs_with_v32(&l);
    let mut c = core(&l, &mut regs, 4);
    // Surface variables: MOVS T6(0) 1, read back.
    let t6 = VectorOperand::State {
        class: StateClass::Surface,
        id: 6,
        offset: 0,
    };
    c.write(&t6, 0, Value::Int(1, DataType::Ud)).unwrap();
    assert_eq!(c.surface(6).unwrap(), 1);
    assert_eq!(c.read(&t6, 0).unwrap(), Value::Int(1, DataType::Ud));
    assert!(c.surface(7).is_err());
}

#[test]
fn cr0_writes_change_the_rounding_and_ce0_reads_the_channel_enables() {
    let l = Layout::new(&kernel(), 32).unwrap();
    let mut regs = Regs::new(&l, 6, 0);
    let mut c = core(&l, &mut regs, 1);
    let cr0 = general(layout::CR0, 0, 0, region(0, 0, 1), 0);
    c.write(&cr0, 0, Value::Int(0x30, DataType::Ud)).unwrap();
    // RTZ: 1 + 2^-24 + 2^-30... written to F rounds down to 1.0.
    let x = 1.0 + 1.0 / 16_777_216.0 + 1.0 / 1_073_741_824.0;
    c.write(
        &general(37, 0, 0, region(0, 0, 1), 0),
        0,
        Value::Float(x, DataType::Df),
    )
    .unwrap();
    let s = region(0, 1, 0);
    assert_eq!(
        c.read(&general(37, 0, 0, s, 0), 0).unwrap(),
        Value::Float(1.0, DataType::F)
    );
    c.write(&cr0, 0, Value::Int(0x4c0, DataType::Ud)).unwrap();
    c.write(
        &general(37, 0, 0, region(0, 0, 1), 0),
        0,
        Value::Float(x, DataType::Df),
    )
    .unwrap();
    assert_eq!(
        c.read(&general(37, 0, 0, s, 0), 0).unwrap(),
        Value::Float(1.0 + 2.0 / 16_777_216.0, DataType::F)
    );
    c.inst.chen = 0b1011;
    c.inst.offset = 8;
    let ce0 = general(layout::CE0, 0, 0, s, 0);
    assert_eq!(
        c.read(&ce0, 0).unwrap(),
        Value::Int(0b1011 << 8, DataType::Ud)
    );
}

/// A program of control flow; `Flow::None` steps record the execution mask they run with.
fn run(
    prog: &[(Flow, ExecSize, Option<PredicateControl>)],
    preds: &[u32],
    dispatch: u32,
) -> Vec<(usize, u32)> {
    let l = Layout::new(&kernel(), 32).unwrap();
    let mut regs = Regs::new(&l, 6, 0);
    regs.preds.copy_from_slice(preds);
    let mut t = Thread::new(regs, dispatch, &l);
    let mut trace = Vec::new();
    for _ in 0..1000 {
        if t.status == Status::Done {
            return trace;
        }
        let Some(&(flow, exec, pred)) = prog.get(t.pc) else {
            return trace;
        };
        t.join();
        if flow == Flow::None {
            trace.push((t.pc, t.em));
            t.pc += 1;
        } else {
            t.control(flow, exec, pred, &[]).unwrap();
        }
    }
    panic!("the program does not end");
}

const M1_16: ExecSize = ExecSize(4);
const M1_1: ExecSize = ExecSize(0);

fn p(id: u16, inverse: bool) -> Option<PredicateControl> {
    Some(PredicateControl::new(
        id,
        PredicateCombine::Sequential,
        inverse,
    ))
}

#[test]
fn if_else_diverges_and_reconverges_at_the_labels() {
    // 0 (!P1) goto ELSE(4); 1 then; 2 goto (M1, 1) ENDIF(6); 3 (skipped); 4 ELSE: 5 else;
    // 6 ENDIF: 7 after. P1 = lanes 0-3 (then), the rest of 8 lanes take the else.
    let n = (Flow::None, M1_16, None);
    let prog = [
        (Flow::Goto(4), M1_16, p(1, true)),
        n,
        (Flow::Goto(6), M1_1, None),
        n,
        (Flow::Label, M1_16, None),
        n,
        (Flow::Label, M1_16, None),
        n,
    ];
    let trace = run(&prog, &[0, 0x0f, 0], 0xff);
    assert_eq!(trace, vec![(1, 0x0f), (5, 0xf0), (7, 0xff)]);
    // Every lane takes the else: the then-block is skipped (jump to the waiting point).
    let trace = run(&prog, &[0, 0, 0], 0xff);
    assert_eq!(trace, vec![(5, 0xff), (7, 0xff)]);
}

#[test]
fn loops_run_until_every_lane_leaves_and_breaks_wait_at_the_exit() {
    // 0 LOOP: 1 body; 2 (P1) goto END(5); 3 body2; 4 (P2) goto LOOP(0); 5 END: 6 after.
    // P1 (break) = lane 0, P2 (continue) = none: one pass; lane 0 waits at END.
    let n = (Flow::None, M1_16, None);
    let prog = [
        (Flow::Label, M1_16, None),
        n,
        (Flow::Goto(5), M1_16, p(1, false)),
        n,
        (Flow::Goto(0), M1_16, p(2, false)),
        (Flow::Label, M1_16, None),
        n,
    ];
    let trace = run(&prog, &[0, 0x1, 0x0], 0xf);
    assert_eq!(trace, vec![(1, 0xf), (3, 0xe), (6, 0xf)]);
    // P2 = lanes 1-2: they run the body again while lane 3 waits at 5 (step by step, since
    // a constant P2 would loop forever).
    let l = Layout::new(&kernel(), 32).unwrap();
    let mut regs = Regs::new(&l, 6, 0);
    regs.preds.copy_from_slice(&[0, 0x1, 0x6]);
    let mut t = Thread::new(regs, 0xf, &l);
    t.pc = 2;
    t.control(Flow::Goto(5), M1_16, p(1, false), &[]).unwrap();
    assert_eq!((t.pc, t.em), (3, 0xe));
    t.pc = 4;
    t.control(Flow::Goto(0), M1_16, p(2, false), &[]).unwrap();
    assert_eq!((t.pc, t.em), (0, 0x6));
    // No lane breaks on the second pass and none continues: lanes 1-2 fall through to 5,
    // where lanes 0 and 3 rejoin.
    t.regs.preds[1] = 0;
    t.regs.preds[2] = 0;
    t.pc = 2;
    t.control(Flow::Goto(5), M1_16, p(1, false), &[]).unwrap();
    t.pc = 4;
    t.control(Flow::Goto(0), M1_16, p(2, false), &[]).unwrap();
    assert_eq!((t.pc, t.em), (5, 0x6));
    t.join();
    assert_eq!(t.em, 0xf);
}

#[test]
fn calls_run_with_the_calling_lanes_and_return_when_all_have_returned() {
    // 0 (P1) call SUB(4); 1 after; 2 ret (M1, 1); 3 -; 4 SUB: 5 body; 6 (P2) ret; 7 body2;
    // 8 ret. P1 = lanes 0-2 call; P2 = lane 0 returns early.
    let n = (Flow::None, M1_16, None);
    let prog = [
        (Flow::Call(4), M1_16, p(1, false)),
        n,
        (Flow::Ret, M1_1, None),
        n,
        (Flow::Label, M1_16, None),
        n,
        (Flow::Ret, M1_16, p(2, false)),
        n,
        (Flow::Ret, M1_16, None),
    ];
    let trace = run(&prog, &[0, 0x7, 0x1], 0xf);
    assert_eq!(trace, vec![(5, 0x7), (7, 0x6), (1, 0xf)]);
    // A kernel-level ret of every lane ends the thread: nothing after it runs.
    let trace = run(&[(Flow::Ret, M1_16, None), n], &[0, 0, 0], 0xf);
    assert!(trace.is_empty());
    // A ret of some lanes goes on with the others.
    let trace = run(&[(Flow::Ret, M1_16, p(1, false)), n], &[0, 0x3, 0], 0xf);
    assert_eq!(trace, vec![(1, 0xc)]);
}

#[test]
fn jmp_is_uniform_and_bad_labels_are_errors() {
    let n = (Flow::None, M1_16, None);
    // (P1) jmp (1) 3 with P1 bit 0 set: skips 1-2.
    let prog = [(Flow::Jmp(3), M1_1, p(1, false)), n, n, n];
    assert_eq!(run(&prog, &[0, 1, 0], 0xf), vec![(3, 0xf)]);
    assert_eq!(
        run(&prog, &[0, 0, 0], 0xf),
        vec![(1, 0xf), (2, 0xf), (3, 0xf)]
    );
    let l = Layout::new(&kernel(), 32).unwrap();
    let mut t = Thread::new(Regs::new(&l, 6, 0), 1, &l);
    let e = t.control(Flow::BadLabel(7), M1_16, None, &[]).unwrap_err();
    assert!(e.0.contains("label 7"));
    let e = t.control(Flow::Fcall(None), M1_16, None, &[]).unwrap_err();
    assert!(e.0.contains("FCALL"));
}
