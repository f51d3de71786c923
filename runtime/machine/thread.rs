//! One thread's state and the [`crate::runtime::Lanes`] it gives lane functions: operand elements through
//! their regions, `EvaluateChEn`, source modifiers and saturation (`5_operands.md`).
//!
//! The GRF of the running activation is a byte array placed by [`Layout`]; address variables
//! hold byte offsets into it; predicate variables are 32-bit words (bit `n` is channel `n`).

use super::convert::{self, FloatMode};
use super::layout::{self, Layout};
use crate::runtime::{
    DataType, ExecSize, PredicateCombine, PredicateControl, RawOperand, Region, StateClass, Value,
    VectorOperand,
};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Why a thread cannot go on: the machine's own message; the run loop adds where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(pub String);

impl Fault {
    pub fn new(what: impl Into<String>) -> Fault {
        Fault(what.into())
    }
}

fn fault<T>(what: String) -> Result<T, Fault> {
    Err(Fault(what))
}

/// The registers of one routine activation (a kernel, or a function FCALL entered).
#[derive(Clone, Debug)]
pub struct Regs {
    pub grf: Vec<u8>,
    /// Address variables' elements (GRF byte offsets), variable by variable.
    pub addr: Vec<u32>,
    /// Predicate variables by id (index 0, "no predicate", unused).
    pub preds: Vec<u32>,
    /// Surface and sampler variables' values (binding table indices) by id.
    pub surfaces: Vec<u32>,
    pub samplers: Vec<u32>,
    /// General operands resolved against this activation's layout (lane functions read and
    /// write them lane by lane: each region is decoded once), direct-mapped by their key.
    cache: alloc::boxed::Box<[Resolved; CACHE]>,
}

/// Slots of the resolved-operand cache.
const CACHE: usize = 64;

/// The slot of an operand key.
#[inline(always)]
fn slot(key: u64) -> usize {
    ((key ^ key >> 29 ^ key >> 47) as usize) & (CACHE - 1)
}

impl Regs {
    /// Zeroed registers for `layout`, with `surfaces`/`samplers` variables (predefined
    /// surfaces `T0..T5` hold their own index).
    pub fn new(layout: &Layout, surfaces: usize, samplers: usize) -> Regs {
        Regs {
            grf: vec![0; layout.bytes as usize],
            addr: vec![0; layout.address_elements as usize],
            preds: vec![0; layout.predicates.len()],
            surfaces: (0..surfaces as u32).collect(),
            samplers: vec![0; samplers],
            cache: alloc::boxed::Box::new([EMPTY; CACHE]),
        }
    }

    /// The registers [`Regs::new`] gives, in this storage: the resolved operands are kept, as
    /// they depend on the layout alone.
    pub fn clear(&mut self) {
        self.grf.fill(0);
        self.addr.fill(0);
        self.preds.fill(0);
        for (i, s) in self.surfaces.iter_mut().enumerate() {
            *s = i as u32;
        }
        self.samplers.fill(0);
    }
}

/// The channel state of the instruction being run (`EvaluateChEn`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Inst {
    /// Exec size (lanes).
    pub n: u32,
    /// First channel of the mask control (`M1` 0, `M2` 4, ... `M8` 28).
    pub offset: u32,
    /// `ChEn`, lane `i` at bit `i`.
    pub chen: u32,
    /// `EM` under the mask control, before the predicate: what a doc's `EM[i]` guard reads.
    pub em: u32,
    /// The predicate after any/all and invert (all ones without one), lane `i` at bit `i`.
    pub pmask: u32,
    /// ADDR_ADD's `Src0`: read, a general operand gives its address, not its value
    /// (ADDR_ADD.md: "If src0 is a general operand, the byte address of the general variable is
    /// taken and the row and column offset are added to it").
    pub address_of: Option<VectorOperand>,
    /// MADW (MADW.md: "The low 32b of results are stored in the lower GRFs and the high 32b of
    /// results are stored in the high GRFs"): a destination element takes the low dword, the
    /// element one register-rounded exec size on takes the high dword.
    pub wide: bool,
}

/// What a lane function reaches: the running activation's registers and layout, the execution
/// mask and the float mode of `%cr0`.
pub struct Core<'a> {
    pub layout: &'a Layout,
    pub regs: &'a mut Regs,
    /// The 32-channel execution mask.
    pub em: u32,
    pub inst: Inst,
    pub mode: FloatMode,
}

/// A general operand resolved against the layout: lane `i` lies at byte
/// `origin + (i >> row_shift) * row + (i & col_mask) * col`, within `origin..end`.
#[derive(Clone, Copy, Debug)]
struct Resolved {
    /// id | row offset << 32 | column offset << 40 | region << 48.
    key: u64,
    destination: bool,
    origin: u32,
    end: u32,
    row_shift: u32,
    col_mask: u32,
    row: u32,
    col: u32,
    ty: DataType,
    size: u32,
}

const EMPTY: Resolved = Resolved {
    key: u64::MAX,
    destination: false,
    origin: 0,
    end: 0,
    row_shift: 0,
    col_mask: 0,
    row: 0,
    col: 0,
    ty: DataType::Ud,
    size: 4,
};

#[inline(always)]
fn general_key(id: u32, row: u8, col: u8, region: Region) -> u64 {
    u64::from(id) | u64::from(row) << 32 | u64::from(col) << 40 | u64::from(region.0) << 48
}

/// `EvaluateChEn` of the operands chapter for an exec-size byte and predicate, given the
/// execution mask and the predicate variables: the instruction's channel state.
pub fn evaluate_chen(
    exec: ExecSize,
    pred: Option<PredicateControl>,
    em: u32,
    preds: &[u32],
) -> Result<Inst, Fault> {
    let Some(n) = exec.elements() else {
        return fault(format!(
            "exec size encoding {:#b} is not in the chapter's table",
            exec.size_bits()
        ));
    };
    let mask = exec.mask_bits();
    let offset = u32::from(mask & 7) * 4;
    let ones = lanes(n);
    // `mask_control == NoMask`: every channel; else EM[n + mask_control_offset].
    let mut chen = if mask >= 8 {
        ones
    } else {
        (em >> offset) & ones
    };
    let em = chen;
    let mut pmask = ones;
    if let Some(p) = pred.filter(|p| p.id() != 0) {
        let bits = *preds
            .get(usize::from(p.id()))
            .ok_or_else(|| Fault(format!("predicate P{} is not declared", p.id())))?;
        let mut m = (bits >> offset) & ones;
        match p.combine() {
            PredicateCombine::Sequential => {}
            PredicateCombine::Any => m = if m != 0 { ones } else { 0 },
            PredicateCombine::All => m = if m == ones { ones } else { 0 },
            PredicateCombine::Reserved => {
                return fault(String::from("predicate combine 11 is reserved"))
            }
        }
        if p.inverse() {
            m = !m & ones;
        }
        chen &= m;
        pmask = m;
    }
    Ok(Inst {
        n,
        offset,
        chen,
        em,
        pmask,
        address_of: None,
        wide: false,
    })
}

/// The low `n` bits set (n ≤ 32).
pub fn lanes(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Elements of a region encoding (`0001` 0, `0010` 1, ... `0111` 32), or a fault naming the
/// parameter for null and reserved encodings.
#[inline(always)]
pub(super) fn stride(encoding: u8, what: &str) -> Result<u32, Fault> {
    match encoding {
        1 => Ok(0),
        2..=7 => Ok(1 << (encoding - 2)),
        _ => Err(bad_region(encoding, what)),
    }
}

#[cold]
#[inline(never)]
fn bad_region(encoding: u8, what: &str) -> Fault {
    Fault(format!(
        "region {what} encoding {encoding:#06b} is null or reserved"
    ))
}

/// Byte offset (from the region origin) of element `lane` of a source region
/// `<VertStride; Width, HorzStride>`: row `lane / Width`, column `lane % Width` (the operands
/// chapter's `FirstElementIndex + i * VertStride + j * HorzStride`). Widths are powers of two,
/// so rows and columns are shifts and masks.
#[inline(always)]
pub fn source_element(region: Region, lane: u32) -> Result<u32, Fault> {
    let we = region.width();
    if !(2..=7).contains(&we) {
        return Err(bad_region(we, "width"));
    }
    let shift = u32::from(we - 2);
    let vs = stride(region.vertical_stride(), "vertical stride")?;
    let hs = stride(region.horizontal_stride(), "horizontal stride")?;
    Ok((lane >> shift) * vs + (lane & ((1 << shift) - 1)) * hs)
}

/// Element index of lane `lane` of a destination region `<HorzStride>`.
#[inline(always)]
pub fn destination_element(region: Region, lane: u32) -> Result<u32, Fault> {
    Ok(lane * stride(region.horizontal_stride(), "horizontal stride")?)
}

/// Reads `size` bytes little-endian at `at`.
#[inline]
fn load(grf: &[u8], at: usize, size: usize) -> Result<u64, Fault> {
    let Some(b) = grf.get(at..at + size) else {
        return fault(format!(
            "GRF bytes {at}..{} are past the registers ({} bytes)",
            at + size,
            grf.len()
        ));
    };
    Ok(match size {
        1 => u64::from(b[0]),
        2 => u64::from(u16::from_le_bytes([b[0], b[1]])),
        4 => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => {
            let mut w = [0u8; 8];
            w[..size].copy_from_slice(b);
            u64::from_le_bytes(w)
        }
    })
}

#[inline]
fn store(grf: &mut [u8], at: usize, size: usize, bits: u64) -> Result<(), Fault> {
    let len = grf.len();
    let Some(b) = grf.get_mut(at..at + size) else {
        return fault(format!(
            "GRF bytes {at}..{} are past the registers ({len} bytes)",
            at + size
        ));
    };
    let bytes = bits.to_le_bytes();
    match b {
        [x] => *x = bytes[0],
        [_, _] => b.copy_from_slice(&bytes[..2]),
        [_, _, _, _] => b.copy_from_slice(&bytes[..4]),
        _ => b.copy_from_slice(&bytes[..size.min(8)]),
    }
    Ok(())
}

/// An element of an integer type or F at `at`, if it is one (and in bounds): the read fast path.
#[inline(always)]
fn fast_load(grf: &[u8], at: usize, ty: DataType, mode: FloatMode) -> Option<Value> {
    let w = |n: usize| grf.get(at..at + n);
    Some(match ty {
        DataType::D => Value::Int(i128::from(i32::from_le_bytes(w(4)?.try_into().ok()?)), ty),
        DataType::Ud => Value::Int(i128::from(u32::from_le_bytes(w(4)?.try_into().ok()?)), ty),
        DataType::W => Value::Int(i128::from(i16::from_le_bytes(w(2)?.try_into().ok()?)), ty),
        DataType::Uw => Value::Int(i128::from(u16::from_le_bytes(w(2)?.try_into().ok()?)), ty),
        DataType::B => Value::Int(i128::from(*grf.get(at)? as i8), ty),
        DataType::Ub => Value::Int(i128::from(*grf.get(at)?), ty),
        DataType::Q => Value::Int(i128::from(i64::from_le_bytes(w(8)?.try_into().ok()?)), ty),
        DataType::Uq => Value::Int(i128::from(u64::from_le_bytes(w(8)?.try_into().ok()?)), ty),
        DataType::F => {
            let bits = u32::from_le_bytes(w(4)?.try_into().ok()?);
            // A denormal flushed by `%cr0` takes the slow path.
            if bits & 0x7f80_0000 == 0 && bits & 0x007f_ffff != 0 && !mode.denorm_f {
                return None;
            }
            Value::Float(f64::from(f32::from_bits(bits)), ty)
        }
        _ => return None,
    })
}

/// Stores an integer into an integer type (its low bits) or a float into F rounded to nearest
/// (when `%cr0` rounds so), the write fast path; false when the slow path must convert.
#[inline(always)]
fn fast_store(grf: &mut [u8], at: usize, ty: DataType, value: Value, mode: FloatMode) -> bool {
    let size = ty.size();
    let bits = match (value, ty) {
        (
            Value::Int(i, _),
            DataType::D
            | DataType::Ud
            | DataType::W
            | DataType::Uw
            | DataType::B
            | DataType::Ub
            | DataType::Q
            | DataType::Uq,
        ) => i as u64,
        (Value::Float(f, _), DataType::F)
            if mode.rounding == crate::runtime::value::Rounding::NearestEven =>
        {
            let b = (f as f32).to_bits();
            if b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0 && !mode.denorm_f {
                return false;
            }
            u64::from(b)
        }
        _ => return false,
    };
    store(grf, at, size, bits).is_ok()
}

#[cold]
#[inline(never)]
fn undeclared(id: u32) -> Fault {
    Fault(format!("V{id} is not declared"))
}

#[cold]
#[inline(never)]
fn past_variable(id: u32, at: u32, end: u32) -> Fault {
    Fault(format!(
        "V{id}: an element at GRF byte {at} reaches past the variable's end (byte {end})"
    ))
}

/// Source modifiers (bits 3-5 of the tag; values of IGC's `VISA_Modifier`, see
/// `runtime::text::modifier`): 1 abs, 2 negate, 3 negated abs, 5 bitwise not.
#[inline]
fn modify(v: Value, modifier: u8, bits: u64, ty: DataType) -> Result<Value, Fault> {
    Ok(match (modifier, v) {
        (0, v) => v,
        (1, Value::Int(i, t)) => Value::Int(i.abs(), t),
        (1, Value::Float(f, t)) => Value::Float(f.abs(), t),
        (2, Value::Int(i, t)) => Value::Int(-i, t),
        (2, Value::Float(f, t)) => Value::Float(-f, t),
        (3, Value::Int(i, t)) => Value::Int(-i.abs(), t),
        (3, Value::Float(f, t)) => Value::Float(-f.abs(), t),
        (5, Value::Int(..)) => convert::from_bits(!bits, ty),
        (m, _) => return fault(format!("source modifier {m} on a {} operand", ty.name())),
    })
}

/// One element of a packed immediate vector (`V`: eight 4-bit signed integers, read as W;
/// `UV`: eight unsigned, UW; `VF`: four 8-bit restricted floats, F), per the operands
/// chapter's "Immediate Operands".
fn packed(bits: u64, ty: DataType, lane: u32) -> Value {
    match ty {
        DataType::V => {
            let n = (bits >> (4 * (lane % 8))) & 0xf;
            Value::Int(i128::from(((n as i8) << 4) >> 4), DataType::W)
        }
        DataType::Uv => Value::Int(i128::from((bits >> (4 * (lane % 8))) & 0xf), DataType::Uw),
        _ => {
            // Restricted float: sign bit 7, 3-bit exponent (bias 3), 4-bit mantissa; 0 is 0.
            let b = (bits >> (8 * (lane % 4))) & 0xff;
            let (e, m) = ((b >> 4) & 7, (b & 0xf) as f64);
            let mag = if b & 0x7f == 0 {
                0.0
            } else {
                (1.0 + m / 16.0) * f64::from(1u32 << e) / 8.0
            };
            Value::Float(if b & 0x80 != 0 { -mag } else { mag }, DataType::F)
        }
    }
}

impl<'a> Core<'a> {
    /// The lanes of an instruction over `regs`, with the execution mask and `%cr0`'s mode.
    pub fn new(layout: &'a Layout, regs: &'a mut Regs, em: u32, mode: FloatMode) -> Core<'a> {
        Core {
            layout,
            regs,
            em,
            inst: Inst::default(),
            mode,
        }
    }

    /// Where the lanes of a general operand lie, decoded once per instruction.
    #[inline(always)]
    fn resolve(
        &mut self,
        id: u32,
        row: u8,
        col: u8,
        region: Region,
        destination: bool,
    ) -> Result<Resolved, Fault> {
        let key = general_key(id, row, col, region);
        if let Some(c) = self.cached(key, destination) {
            return Ok(c);
        }
        self.resolve_new(key, id, row, col, region, destination)
    }

    #[inline(never)]
    fn resolve_new(
        &mut self,
        key: u64,
        id: u32,
        row: u8,
        col: u8,
        region: Region,
        destination: bool,
    ) -> Result<Resolved, Fault> {
        let v = self.var(id)?;
        let size = v.ty.size() as u32;
        let origin = v.base + u32::from(row) * self.layout.grf + u32::from(col) * size;
        let hs = stride(region.horizontal_stride(), "horizontal stride")?;
        let (row_shift, col_mask, vs) = if destination {
            // `<HorzStride>`: lane i at i * HorzStride (lanes < 32, so i >> 5 is 0).
            (5, 31, 0)
        } else {
            let we = region.width();
            if !(2..=7).contains(&we) {
                return Err(bad_region(we, "width"));
            }
            let shift = u32::from(we - 2);
            (
                shift,
                (1 << shift) - 1,
                stride(region.vertical_stride(), "vertical stride")?,
            )
        };
        let r = Resolved {
            key,
            destination,
            origin,
            end: v.base + v.size,
            row_shift,
            col_mask,
            row: vs * size,
            col: hs * size,
            ty: v.ty,
            size,
        };
        // `%ce0` and `%cr0` are read and written by the slow path, as are ADDR_ADD's and
        // MADW's operands: never cached.
        if id == layout::CE0
            || id == layout::CR0
            || self.inst.address_of.is_some()
            || self.inst.wide
        {
            return Ok(r);
        }
        self.regs.cache[slot(key) ^ usize::from(destination)] = r;
        Ok(r)
    }

    /// Byte of lane `lane` of a resolved operand, inside its variable.
    #[inline(always)]
    fn lane_at(r: &Resolved, id: u32, lane: u32) -> Result<usize, Fault> {
        let at = r.origin + (lane >> r.row_shift) * r.row + (lane & r.col_mask) * r.col;
        if at + r.size > r.end {
            return Err(past_variable(id, at, r.end));
        }
        Ok(at as usize)
    }

    #[inline(always)]
    fn var(&self, id: u32) -> Result<layout::Var, Fault> {
        match self.layout.vars.get(id as usize) {
            Some(v) => Ok(*v),
            None => Err(undeclared(id)),
        }
    }

    fn address(&self, id: u16, element: u32) -> Result<u32, Fault> {
        let (first, count) = *self
            .layout
            .addresses
            .get(usize::from(id))
            .ok_or_else(|| Fault(format!("A{id} is not declared")))?;
        if element >= count {
            return fault(format!("A{id}({element}) is past its {count} elements"));
        }
        Ok(self.regs.addr[(first + element) as usize])
    }

    /// Where element `lane` of an indirect operand lies.
    fn indirect_at(
        &self,
        op: &VectorOperand,
        lane: u32,
        source: bool,
    ) -> Result<(usize, DataType), Fault> {
        let VectorOperand::Indirect {
            id,
            addr_offset,
            indirect_offset,
            bit_properties: props,
            region,
            ..
        } = *op
        else {
            return fault(String::from("not an indirect operand"));
        };
        let ty = DataType::try_from(props & 0xf)
            .ok()
            .filter(|t| t.size() > 0 && !matches!(t, DataType::V | DataType::Uv | DataType::Vf))
            .ok_or_else(|| Fault(format!("indirect operand type {:#x}", props & 0xf)))?;
        let size = ty.size() as u32;
        let (row_addr, element) = if source && region.vertical_stride() == 0 {
            // Multi-address: row `i` starts at AN(k + i) + offset.
            let width = stride(region.width(), "width")?.max(1);
            let hs = stride(region.horizontal_stride(), "horizontal stride")?;
            (u32::from(addr_offset) + lane / width, (lane % width) * hs)
        } else if source {
            (u32::from(addr_offset), source_element(region, lane)?)
        } else {
            (u32::from(addr_offset), destination_element(region, lane)?)
        };
        let base = self.address(id, row_addr)? as i64 + i64::from(indirect_offset);
        let at = base + i64::from(element * size);
        if at < 0 {
            return fault(format!("indirect operand through A{id}: byte address {at}"));
        }
        Ok((at as usize, ty))
    }

    /// Element `lane` of a source operand, modifier applied.
    #[inline(always)]
    pub fn read(&mut self, op: &VectorOperand, lane: u32) -> Result<Value, Fault> {
        // The common case, inline: a general operand without modifier, decoded by an earlier
        // lane of this instruction, of an integer type or F.
        if let VectorOperand::General {
            modifier: 0,
            id,
            row_offset,
            col_offset,
            region,
        } = *op
        {
            let key = general_key(id, row_offset, col_offset, region);
            if let Some(c) = self.cached(key, false) {
                let at = c.origin + (lane >> c.row_shift) * c.row + (lane & c.col_mask) * c.col;
                if at + c.size <= c.end {
                    if let Some(v) = fast_load(&self.regs.grf, at as usize, c.ty, self.mode) {
                        return Ok(v);
                    }
                }
            }
        }
        if let VectorOperand::Immediate(imm) = *op {
            let (ty, bits) = (imm.ty, imm.value);
            if !matches!(ty, DataType::V | DataType::Uv | DataType::Vf) {
                return Ok(convert::from_bits(bits, ty));
            }
        }
        self.read_slow(op, lane)
    }

    /// Elements of a source operand for the lanes of `mask` (below `out.len()`), modifier
    /// applied (`Lanes::read_lanes`): a general operand's region is decoded once for all its
    /// lanes and its type matched once; what that cannot read goes lane by lane through `read`.
    pub fn read_lanes(
        &mut self,
        op: &VectorOperand,
        mask: u32,
        out: &mut [Value],
    ) -> Result<(), Fault> {
        let mask = mask & lanes(out.len().min(32) as u32);
        match *op {
            VectorOperand::General {
                modifier: 0,
                id,
                row_offset,
                col_offset,
                region,
            } if id != layout::CE0 && self.inst.address_of.is_none() => {
                let r = self.resolve(id, row_offset, col_offset, region, false)?;
                if self.load_lanes(&r, mask, out) {
                    return Ok(());
                }
            }
            VectorOperand::Immediate(imm)
                if !matches!(imm.ty, DataType::V | DataType::Uv | DataType::Vf) =>
            {
                let v = convert::from_bits(imm.value, imm.ty);
                for (i, o) in out.iter_mut().enumerate().take(32) {
                    if mask >> i & 1 != 0 {
                        *o = v;
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            let v = self.read(op, i)?;
            if let Some(o) = out.get_mut(i as usize) {
                *o = v;
            }
        }
        Ok(())
    }

    /// The lanes of `mask` of a resolved source, its type matched once; false (some lanes
    /// perhaps read) when an element lies outside its variable or its type is not one of the
    /// common ones: the caller reads lane by lane then.
    #[inline(always)]
    fn load_lanes(&self, r: &Resolved, mask: u32, out: &mut [Value]) -> bool {
        let grf = &self.regs.grf;
        let grf = &grf[..(r.end as usize).min(grf.len())];
        let ty = r.ty;
        macro_rules! each {
            ($size:literal, |$b:ident| $value:expr) => {{
                let mut m = mask;
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let at =
                        (r.origin + (i >> r.row_shift) * r.row + (i & r.col_mask) * r.col) as usize;
                    let Some(Ok($b)) = grf.get(at..at + $size).map(<[u8; $size]>::try_from) else {
                        return false;
                    };
                    let Some(o) = out.get_mut(i as usize) else {
                        return false;
                    };
                    *o = $value;
                }
                true
            }};
        }
        let keep_f = self.mode.denorm_f;
        match ty {
            DataType::D => each!(4, |b| Value::Int(i128::from(i32::from_le_bytes(b)), ty)),
            DataType::Ud => each!(4, |b| Value::Int(i128::from(u32::from_le_bytes(b)), ty)),
            DataType::W => each!(2, |b| Value::Int(i128::from(i16::from_le_bytes(b)), ty)),
            DataType::Uw => each!(2, |b| Value::Int(i128::from(u16::from_le_bytes(b)), ty)),
            DataType::B => each!(1, |b| Value::Int(i128::from(b[0] as i8), ty)),
            DataType::Ub => each!(1, |b| Value::Int(i128::from(b[0]), ty)),
            DataType::Q => each!(8, |b| Value::Int(i128::from(i64::from_le_bytes(b)), ty)),
            DataType::Uq => each!(8, |b| Value::Int(i128::from(u64::from_le_bytes(b)), ty)),
            DataType::F => each!(4, |b| {
                let x = f32::from_le_bytes(b);
                // A denormal source is flushed to a signed zero unless `%cr0` keeps them.
                if x.is_subnormal() && !keep_f {
                    Value::Float(0.0f64.copysign(f64::from(x)), ty)
                } else {
                    Value::Float(f64::from(x), ty)
                }
            }),
            _ => false,
        }
    }

    /// Integers into a resolved destination of an integer type (its low bits), its type
    /// matched once; false (some lanes perhaps written, each as `write` would) when a value
    /// is not an integer or an element lies outside its variable: the caller writes lane by
    /// lane then.
    #[inline(always)]
    fn store_lanes(&mut self, r: &Resolved, mask: u32, values: &[Value]) -> bool {
        let end = (r.end as usize).min(self.regs.grf.len());
        let grf = &mut self.regs.grf[..end];
        macro_rules! each {
            ($t:ty) => {{
                const SIZE: usize = core::mem::size_of::<$t>();
                let mut m = mask;
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let Some(&Value::Int(v, _)) = values.get(i as usize) else {
                        return false;
                    };
                    let at =
                        (r.origin + (i >> r.row_shift) * r.row + (i & r.col_mask) * r.col) as usize;
                    let Some(b) = grf.get_mut(at..at + SIZE) else {
                        return false;
                    };
                    b.copy_from_slice(&(v as $t).to_le_bytes());
                }
                true
            }};
        }
        match r.ty {
            DataType::D | DataType::Ud => each!(u32),
            DataType::W | DataType::Uw => each!(u16),
            DataType::B | DataType::Ub => each!(u8),
            DataType::Q | DataType::Uq => each!(u64),
            _ => false,
        }
    }

    /// Writes `values[i]` to the lanes `i` of `mask` of a destination (`Lanes::write_lanes`):
    /// a general destination's region is decoded once; each element is converted as `write`
    /// converts it.
    pub fn write_lanes(
        &mut self,
        op: &VectorOperand,
        mask: u32,
        values: &[Value],
    ) -> Result<(), Fault> {
        let mask = mask & lanes(values.len().min(32) as u32);
        if let (VectorOperand::Predicate(p), true) = (*op, mask != 0) {
            // One update of the predicate word for all lanes, each bit as `write` sets it.
            let (mut written, mut set) = (0u32, 0u32);
            let mut m = mask;
            while m != 0 {
                let i = m.trailing_zeros();
                m &= m - 1;
                let bit = match values.get(i as usize) {
                    Some(Value::Bool(b)) => *b,
                    Some(Value::Int(v, _)) => v & 1 != 0,
                    Some(Value::Float(f, _)) => *f != 0.0,
                    None => continue,
                };
                let shift = (self.inst.offset + i) & 31;
                written |= 1 << shift;
                set |= u32::from(bit) << shift;
            }
            let word = self.predicate_slot(p.id())?;
            *word = (*word & !written) | set;
            return Ok(());
        }
        if let VectorOperand::General {
            modifier: 0,
            id,
            row_offset,
            col_offset,
            region,
        } = *op
        {
            if id != layout::CR0 && !self.inst.wide {
                let r = self.resolve(id, row_offset, col_offset, region, true)?;
                if self.store_lanes(&r, mask, values) {
                    return Ok(());
                }
                let mut m = mask;
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let Some(&v) = values.get(i as usize) else {
                        continue;
                    };
                    let at = r.origin + (i >> r.row_shift) * r.row + (i & r.col_mask) * r.col;
                    if at + r.size > r.end
                        || !fast_store(&mut self.regs.grf, at as usize, r.ty, v, self.mode)
                    {
                        self.write_slow(op, i, v)?;
                    }
                }
                return Ok(());
            }
        }
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros();
            m &= m - 1;
            if let Some(&v) = values.get(i as usize) {
                self.write(op, i, v)?;
            }
        }
        Ok(())
    }

    /// A resolved general operand of this instruction, if an earlier lane resolved it.
    #[inline(always)]
    fn cached(&self, key: u64, destination: bool) -> Option<Resolved> {
        let c = &self.regs.cache[slot(key) ^ usize::from(destination)];
        (c.key == key && c.destination == destination).then_some(*c)
    }

    #[inline(never)]
    fn read_slow(&mut self, op: &VectorOperand, lane: u32) -> Result<Value, Fault> {
        match *op {
            VectorOperand::General {
                modifier,
                id,
                row_offset,
                col_offset,
                region,
            } => {
                if self.inst.address_of == Some(*op) {
                    return self.address_of(id, row_offset, col_offset);
                }
                if id == layout::CE0 {
                    return Ok(Value::Int(
                        i128::from(self.inst.chen << self.inst.offset),
                        DataType::Ud,
                    ));
                }
                let r = self.resolve(id, row_offset, col_offset, region, false)?;
                let at = Self::lane_at(&r, id, lane)?;
                let bits = load(&self.regs.grf, at, r.size as usize)?;
                self.source_value(bits, r.ty, modifier)
            }
            VectorOperand::Immediate(imm) => {
                let (ty, bits) = (imm.ty, imm.value);
                Ok(match ty {
                    DataType::V | DataType::Uv | DataType::Vf => packed(bits, ty, lane),
                    _ => convert::from_bits(bits, ty),
                })
            }
            VectorOperand::Indirect { modifier, .. } => {
                let (at, ty) = self.indirect_at(op, lane, true)?;
                // "The behavior is undefined if an indirect operand attempts to access an
                // out-of-bound address" (5_operands.md): a source past the registers reads
                // zeros. IGC 2.x's loops over the lanes of a SIMD32 half read one such element
                // when no lane of that half runs (`fbl` of 0, kernel `pointer_select` on tgllp
                // at a local size of 16) and use nothing of it.
                let bits = if at + ty.size() > self.regs.grf.len() {
                    0
                } else {
                    load(&self.regs.grf, at, ty.size())?
                };
                self.source_value(bits, ty, modifier)
            }
            VectorOperand::Predicate(p) => self.read_predicate(p, lane),
            VectorOperand::Address { id, offset, width } => {
                // "If the instruction's execution size exceeds the operand width, the same
                // elements are replicated for the remaining channels."
                let width = u32::from(width).max(1);
                let a = self.address(id, u32::from(offset) + lane % width)?;
                Ok(Value::Int(i128::from(a), DataType::Ud))
            }
            VectorOperand::State { class, id, offset } => {
                if self.inst.address_of == Some(*op) {
                    return fault(String::from(
                        "ADDR_ADD of a state variable's address (not supported)",
                    ));
                }
                let v = self.state(class, id, offset)?;
                Ok(Value::Int(i128::from(v), DataType::Ud))
            }
        }
    }

    /// The address ADDR_ADD takes of a general source: its variable's, plus the offsets.
    fn address_of(&self, id: u32, row_offset: u8, col_offset: u8) -> Result<Value, Fault> {
        let v = self.var(id)?;
        let at = v.base
            + u32::from(row_offset) * self.layout.grf
            + u32::from(col_offset) * v.ty.size() as u32;
        Ok(Value::Int(i128::from(at), DataType::Ud))
    }

    /// A source element's value from its bits, with its modifier, denormals flushed as the
    /// mode says.
    #[inline(always)]
    fn source_value(&self, bits: u64, ty: DataType, modifier: u8) -> Result<Value, Fault> {
        let v = convert::from_bits(bits, ty);
        let v = if modifier == 0 {
            v
        } else {
            modify(v, modifier, bits, ty)?
        };
        Ok(self.flush(v))
    }

    /// Lane `lane` of a predicate source: its bit, or with one lane the whole variable.
    fn read_predicate(&self, p: PredicateControl, lane: u32) -> Result<Value, Fault> {
        let bits = self.predicate_word(p.id())?;
        if self.inst.n == 1 {
            // MOV.md:110: "If <src0> is a predicate operand, <exec_size> must be one
            // [...] The value of the predicate variable is interpreted as an unsigned
            // integer, with element 0 corresponding to the LSB". With one lane, a
            // predicate source is its whole variable (a logic instruction's one-bit
            // destination keeps bit 0 of it, the same bit a lane would read).
            let bits = if p.inverse() { !bits } else { bits };
            return Ok(Value::Int(
                i128::from(bits >> (self.inst.offset & 31)),
                DataType::Ud,
            ));
        }
        let bit = bits >> ((self.inst.offset + lane) & 31) & 1 != 0;
        Ok(Value::Bool(bit != p.inverse()))
    }

    /// Writes element `lane` of a destination, converted to its type (saturating when its
    /// modifier says `.sat`).
    #[inline(always)]
    pub fn write(&mut self, op: &VectorOperand, lane: u32, value: Value) -> Result<(), Fault> {
        // The common case, inline: a general destination without `.sat`, resolved by an
        // earlier lane, an integer into an integer type or a float into F.
        if let VectorOperand::General {
            modifier: 0,
            id,
            row_offset,
            col_offset,
            region,
        } = *op
        {
            let key = general_key(id, row_offset, col_offset, region);
            if let Some(c) = self.cached(key, true) {
                let at = c.origin + (lane >> c.row_shift) * c.row + (lane & c.col_mask) * c.col;
                if at + c.size <= c.end
                    && fast_store(&mut self.regs.grf, at as usize, c.ty, value, self.mode)
                {
                    return Ok(());
                }
            }
        }
        self.write_slow(op, lane, value)
    }

    #[inline(never)]
    /// The element type of an operand, source or destination (`sizeof(src0)`,
    /// `CHANNEL_SIZE_IN_BITS`): its variable's, or its indirect type; what else it reads as.
    pub fn element_type(&mut self, op: &VectorOperand, lane: u32) -> Result<DataType, Fault> {
        match *op {
            VectorOperand::General {
                id,
                row_offset,
                col_offset,
                region,
                ..
            } => Ok(self.resolve(id, row_offset, col_offset, region, true)?.ty),
            VectorOperand::Indirect { .. } => Ok(self.indirect_at(op, lane, false)?.1),
            _ => Ok(self.read(op, lane)?.ty()),
        }
    }

    fn write_slow(&mut self, op: &VectorOperand, lane: u32, value: Value) -> Result<(), Fault> {
        match *op {
            VectorOperand::General {
                modifier,
                id,
                row_offset,
                col_offset,
                region,
            } => {
                let r = self.resolve(id, row_offset, col_offset, region, true)?;
                let at = Self::lane_at(&r, id, lane)?;
                let ty = r.ty;
                let bits = match value {
                    // Integers into integer types without saturation: the low bits.
                    Value::Int(i, _) if modifier != 4 && !convert::is_float(ty) => i as u64,
                    _ => convert::to_bits(value, ty, modifier == 4, self.mode),
                };
                store(&mut self.regs.grf, at, r.size as usize, bits)?;
                if self.inst.wide {
                    self.write_high(&r, id, at, value)?;
                }
                if id == layout::CR0 {
                    self.mode = FloatMode::from_cr0(load(&self.regs.grf, at, 4)? as u32);
                }
                Ok(())
            }
            VectorOperand::Indirect { modifier, .. } => {
                let (at, ty) = self.indirect_at(op, lane, false)?;
                let bits = convert::to_bits(value, ty, modifier == 4, self.mode);
                store(&mut self.regs.grf, at, ty.size(), bits)
            }
            VectorOperand::Predicate(p) => {
                let bit = match value {
                    Value::Bool(b) => b,
                    Value::Int(i, _) => i & 1 != 0,
                    Value::Float(f, _) => f != 0.0,
                };
                let shift = (self.inst.offset + lane) & 31;
                let word = self.predicate_slot(p.id())?;
                *word = (*word & !(1 << shift)) | u32::from(bit) << shift;
                Ok(())
            }
            VectorOperand::Address { id, offset, .. } => {
                let (first, count) = *self
                    .layout
                    .addresses
                    .get(usize::from(id))
                    .ok_or_else(|| Fault(format!("A{id} is not declared")))?;
                let element = u32::from(offset) + lane;
                if element >= count {
                    return fault(format!("A{id}({element}) is past its {count} elements"));
                }
                let bits = convert::to_bits(value, DataType::Ud, false, self.mode);
                self.regs.addr[(first + element) as usize] = bits as u32;
                Ok(())
            }
            VectorOperand::State { class, id, offset } => {
                let bits = convert::to_bits(value, DataType::Ud, false, self.mode) as u32;
                let slot = self.state_slot(class, id, offset)?;
                *slot = bits;
                Ok(())
            }
            VectorOperand::Immediate(_) => fault(String::from("an immediate as destination")),
        }
    }

    /// MADW's high dword of a lane written at `at`: one exec size of elements on, rounded up
    /// to whole registers.
    #[cold]
    fn write_high(&mut self, r: &Resolved, id: u32, at: usize, value: Value) -> Result<(), Fault> {
        let Value::Int(i, _) = value else {
            return fault(String::from("MADW: a result that is not an integer"));
        };
        let grf = self.layout.grf;
        let skip = (self.inst.n * r.size).div_ceil(grf) * grf;
        let high = at as u32 + skip;
        if high + r.size > r.end {
            return Err(past_variable(id, high, r.end));
        }
        store(
            &mut self.regs.grf,
            high as usize,
            r.size as usize,
            (i >> (8 * r.size)) as u64,
        )
    }

    /// Flushes a denormal float source to zero when `%cr0` says so.
    #[inline(always)]
    fn flush(&self, v: Value) -> Value {
        match v {
            // 2^-14, the smallest normal HF: below it some type may be denormal.
            Value::Float(f, ty) if f != 0.0 && f.abs() < 6.103_515_625e-5 => {
                let min_normal = match ty {
                    DataType::Hf => 6.103_515_625e-5,
                    DataType::Df => f64::MIN_POSITIVE,
                    _ => f64::from(f32::MIN_POSITIVE),
                };
                if f.abs() < min_normal && !self.mode.keeps_denormals(ty) {
                    Value::Float(0.0f64.copysign(f), ty)
                } else {
                    v
                }
            }
            v => v,
        }
    }

    pub fn predicate_word(&self, id: u16) -> Result<u32, Fault> {
        self.regs
            .preds
            .get(usize::from(id))
            .copied()
            .filter(|_| id != 0)
            .ok_or_else(|| Fault(format!("predicate P{id} is not declared")))
    }

    fn predicate_slot(&mut self, id: u16) -> Result<&mut u32, Fault> {
        if id == 0 {
            return fault(String::from("predicate P0 (no predicate) as an operand"));
        }
        self.regs
            .preds
            .get_mut(usize::from(id))
            .ok_or_else(|| Fault(format!("predicate P{id} is not declared")))
    }

    fn state_slot(&mut self, class: StateClass, id: u16, offset: u8) -> Result<&mut u32, Fault> {
        let (table, letter) = match class {
            StateClass::Surface => (&mut self.regs.surfaces, 'T'),
            StateClass::Sampler => (&mut self.regs.samplers, 'S'),
        };
        table
            .get_mut(usize::from(id) + usize::from(offset))
            .ok_or_else(|| Fault(format!("{letter}{id}({offset}) is not declared")))
    }

    fn state(&mut self, class: StateClass, id: u16, offset: u8) -> Result<u32, Fault> {
        self.state_slot(class, id, offset).map(|s| *s)
    }

    /// Moves the values of an instruction's sampler and surface variables (text only: IGC
    /// 2.x's efficient-64-bit mode, [`crate::object::StateVariables`]) into the places their
    /// text gives the instruction, `S31` and `%bss`, as the `movs` of the other modes does:
    /// the low 32 bits of each (lane 0 of its region). Returns what those held, for
    /// [`Core::restore_state`].
    pub fn place_state(&mut self, s: &crate::object::StateVariables) -> Result<[u32; 2], Fault> {
        use crate::runtime::text::special::state_variables::{SAMPLER_PLACE, SURFACE_PLACE};
        let before = [
            self.state(StateClass::Sampler, SAMPLER_PLACE, 0)?,
            self.state(StateClass::Surface, SURFACE_PLACE, 0)?,
        ];
        for (v, class, place) in [
            (&s.sampler, StateClass::Sampler, SAMPLER_PLACE),
            (&s.surface, StateClass::Surface, SURFACE_PLACE),
        ] {
            let Some(v) = v else { continue };
            if v.index != 0 {
                return fault(format!(
                    "a sampler or surface variable with index {} (`(V, {})`, `[{}]`): what the index selects is not documented",
                    v.index, v.index, v.index
                ));
            }
            let bits = super::messages::to_bits(self.read(&v.operand, 0)?);
            *self.state_slot(class, place, 0)? = bits as u32;
        }
        Ok(before)
    }

    /// Puts back what [`Core::place_state`] found in `S31` and `%bss`.
    pub fn restore_state(&mut self, [sampler, surface]: [u32; 2]) {
        use crate::runtime::text::special::state_variables::{SAMPLER_PLACE, SURFACE_PLACE};
        if let Ok(s) = self.state_slot(StateClass::Sampler, SAMPLER_PLACE, 0) {
            *s = sampler;
        }
        if let Ok(s) = self.state_slot(StateClass::Surface, SURFACE_PLACE, 0) {
            *s = surface;
        }
    }

    /// The value of surface variable `T<id>` (a binding table index).
    pub fn surface(&self, id: u32) -> Result<u32, Fault> {
        self.regs
            .surfaces
            .get(id as usize)
            .copied()
            .ok_or_else(|| Fault(format!("T{id} is not declared")))
    }

    /// The value of sampler variable `S<id>` (a sampler index).
    pub fn sampler(&self, id: u32) -> Result<u32, Fault> {
        self.regs
            .samplers
            .get(id as usize)
            .copied()
            .ok_or_else(|| Fault(format!("S{id} is not declared")))
    }

    /// Element `index` of type `ty` of a raw operand (contiguous from its byte offset).
    pub fn read_raw(&mut self, op: &RawOperand, ty: DataType, index: u32) -> Result<Value, Fault> {
        let at = self.raw_at(op, ty, index)?;
        Ok(convert::from_bits(load(&self.regs.grf, at, ty.size())?, ty))
    }

    pub fn write_raw(
        &mut self,
        op: &RawOperand,
        ty: DataType,
        index: u32,
        value: Value,
    ) -> Result<(), Fault> {
        let at = self.raw_at(op, ty, index)?;
        let bits = convert::to_bits(value, ty, false, self.mode);
        store(&mut self.regs.grf, at, ty.size(), bits)
    }

    /// Element `index` of `size` bytes of a raw operand, as bits (what `read_raw` reads as
    /// the unsigned type of that size).
    #[inline]
    pub fn raw_bits(&self, op: &RawOperand, size: u32, index: u32) -> Result<u64, Fault> {
        let v = self.var(op.id)?;
        let at = v.base as usize + usize::from(op.offset) + index as usize * size as usize;
        load(&self.regs.grf, at, size as usize)
    }

    /// Writes element `index` of `size` bytes of a raw operand from bits (as `write_raw`
    /// writes the unsigned type of that size).
    #[inline]
    pub fn put_raw_bits(
        &mut self,
        op: &RawOperand,
        size: u32,
        index: u32,
        bits: u64,
    ) -> Result<(), Fault> {
        let v = self.var(op.id)?;
        let at = v.base as usize + usize::from(op.offset) + index as usize * size as usize;
        store(&mut self.regs.grf, at, size as usize, bits)
    }

    fn raw_at(&self, op: &RawOperand, ty: DataType, index: u32) -> Result<usize, Fault> {
        let v = self.var(op.id)?;
        if ty.size() == 0 {
            return fault(format!("raw operand element of type {}", ty.name()));
        }
        Ok(v.base as usize + usize::from(op.offset) + index as usize * ty.size())
    }

    /// The raw bytes of a raw operand from its offset: `len` bytes (memory messages).
    pub fn raw_bytes(&mut self, op: &RawOperand, len: usize) -> Result<&mut [u8], Fault> {
        let at = self.raw_at(op, DataType::Ub, 0)?;
        let total = self.regs.grf.len();
        self.regs.grf.get_mut(at..at + len).ok_or_else(|| {
            Fault(format!(
                "raw operand V{}.{}: {len} bytes past the registers ({total} bytes)",
                op.id, op.offset
            ))
        })
    }
}
