//! The memory a kernel's memory instructions reach: the host's buffers, seen through a binding
//! table (surfaces by index) and at 64-bit virtual addresses (stateless, SVM), and the shared
//! local memory (SLM) of the work-group that runs.
//!
//! What the docs say and what this model does:
//! - "Surface variables ... Their primary usage is as a parameter in memory access" and "the
//!   special surface variable T0" is SLM (`4_visa_header.md`, "Surface Variables";
//!   `3_execution_model.md`, "Shared Local Memory (SLM)"). A surface variable holds a binding-table
//!   index (Intel's compiler sets it with `movs (M1_NM, 1) T6(0) 0x1:ud` before each message,
//!   see `launch.rs`); [`Memory::bind`] fills the table the host gives.
//! - A surface access out of bounds follows the message docs' `Out-of-bound Access` property:
//!   "On read: zeros are returned", "On write: data is dropped" (GATHER4_SCALED.md:101,
//!   SCATTER4_SCALED.md:100, GATHER_SCALED.md:103, SCATTER_SCALED.md:103, OWORD_LD.md:66,
//!   OWORD_ST.md:63, DWORD_ATOMIC.md:144). Such accesses are counted in
//!   [`Memory::dropped`], so a host can tell that one happened.
//! - Stateless and SVM addresses: "Behavior for out-of-bounds SVM access is
//!   implementation-defined" (SVM.md); here each host buffer sits at a base address this module
//!   chooses ([`Memory::add_buffer`]), and an access that falls outside every buffer is an error
//!   naming the address ([`MemoryError::Unmapped`]): a wrong address is a bug worth stopping on.
//! - "Out-of-bound SLM accesses have undefined behavior" (`3_execution_model.md`): an error too.
//! - Private memory that does not fit in registers goes to the scratch surface (predefined
//!   T5, which Intel's compiler prints `%scratch`); each thread addresses it from its own
//!   offset in `r0.5` (`and (M1_NM, 1) V0049 V0036(0,5) 0xfffffc00:d`, then
//!   `scatter4_scaled.R ... %scratch ...`, kernel `private_memory` on tgllp), which launch
//!   gives. Out of bounds: an error.
//! - Data lives little-endian (Intel GPUs are little-endian; the data types chapter's element
//!   layouts are little-endian).
//! - Atomics ([`AtomicOp`]) follow the table of DWORD_ATOMIC.md ("new = old + src0" ...), which
//!   SVM_ATOMIC and LSC_UNTYPED's atomics share; one instruction's lanes are applied in lane
//!   order ("they will be serialized and atomically updated, though the order is
//!   non-deterministic", DWORD_ATOMIC.md, Notes).

use super::check::{Access, Checker, Kind};
use super::image::Image;
use super::sampler::SamplerState;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Where the first host buffer sits in the stateless address space: above 4 GiB, so a kernel
/// that truncates a pointer to 32 bits reaches no buffer and says so.
pub const FIRST_BASE: u64 = 0x0000_0100_0000_0000;
/// Distance between the bases of successive buffers (and the largest buffer): 4 GiB.
pub const BASE_STRIDE: u64 = 0x1_0000_0000;

/// The SLM address bits a message uses: Intel's compiler tags the addresses of a kernel's
/// `local` arrays with bit 28 (`or (M1, 16) V0050 V0050 0x10000000:d` before `scatter4_scaled.R
/// ... %slm`, and before `dword_atomic.inc ... %slm`, kernel `local_histogram` on tgllp and
/// acm-g10), which the hardware's SLM offset (at most 64 KiB) never sees.
pub const SLM_ADDRESS_BITS: u64 = 0x0fff_ffff;

/// Which memory an access goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    /// The work-group's shared local memory (surface T0, binding-table index 254, LSC `.slm`).
    Slm,
    /// The buffer bound at this binding-table index; addresses are byte offsets into it.
    Surface(u32),
    /// 64-bit virtual addresses (SVM, stateless, LSC `flat` on `.ugm`).
    Stateless,
    /// The scratch surface (predefined T5, printed `%scratch`): private memory, each thread at
    /// the offset `r0.5 & 0xfffffc00` its payload gives it.
    Scratch,
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Space::Slm => f.write_str("SLM"),
            Space::Surface(bti) => write!(f, "surface bti({bti})"),
            Space::Stateless => f.write_str("stateless memory"),
            Space::Scratch => f.write_str("scratch memory"),
        }
    }
}

/// Why a memory instruction could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// A stateless or SLM access outside every buffer (or past the SLM's end).
    Unmapped {
        space: Space,
        address: u64,
        size: u32,
    },
    /// A surface index the host bound nothing to.
    Unbound { bti: u32 },
    /// An access whose address breaks the alignment its message requires.
    Misaligned {
        space: Space,
        address: u64,
        align: u32,
    },
    /// A memory instruction, or a form of one, this machine does not run: which, and why.
    Unsupported {
        instruction: &'static str,
        what: String,
    },
    /// A field the message needs is not in the instruction (a spec without it).
    MissingField {
        instruction: &'static str,
        field: &'static str,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::Unmapped {
                space,
                address,
                size,
            } => write!(
                f,
                "{size}-byte access at {address:#x} in {space} falls outside every buffer"
            ),
            MemoryError::Unbound { bti } => {
                write!(f, "binding-table index {bti} has no buffer bound")
            }
            MemoryError::Misaligned {
                space,
                address,
                align,
            } => write!(
                f,
                "address {address:#x} in {space} is not {align}-byte aligned as the message requires"
            ),
            MemoryError::Unsupported { instruction, what } => {
                write!(f, "{instruction}: {what} is not supported by this machine")
            }
            MemoryError::MissingField { instruction, field } => {
                write!(f, "{instruction}: the instruction has no field `{field}`")
            }
        }
    }
}

/// One host buffer: its bytes and where they sit in the stateless address space.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Buffer {
    pub base: u64,
    pub bytes: Vec<u8>,
}

/// Index of a buffer in [`Memory`], in the order [`Memory::add_buffer`] was called.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BufferId(pub usize);

/// Host buffers, the binding table and the SLM of the running work-group.
#[derive(Clone, Debug)]
pub struct Memory {
    buffers: Vec<Buffer>,
    /// For each buffer, the byte from which it is known to hold zeros (its length when that is
    /// not known): what [`Memory::fork`] need not copy.
    zero_from: Vec<usize>,
    /// Binding-table index → buffer.
    table: Vec<Option<usize>>,
    slm: Vec<u8>,
    /// The end of the SLM bytes any access of this work-group reached: a new work-group's SLM
    /// is zeroed up to here only.
    slm_touched: usize,
    scratch: Vec<u8>,
    /// The end of the scratch bytes any access of this work-group reached.
    scratch_touched: usize,
    /// The bytes of each buffer read and written, while a copy of the memory runs some of a
    /// launch's work-groups on a thread of its own ([`super::parallel`]).
    track: Option<alloc::boxed::Box<super::parallel::Tracking>>,
    /// Bytes per general register of the platform the kernel runs on (message layouts
    /// depend on it: "ch_start = ch_pos * max(exec_size, GRF_SIZE / 4)", GATHER4_SCALED.md).
    pub grf_bytes: u32,
    /// Surface accesses out of bounds, read as zeros or dropped as the docs say.
    pub dropped: u64,
    /// The buffers that are typed surfaces (images): buffer index and geometry.
    images: Vec<(usize, Image)>,
    /// The sampler states by sampler index (what a sampler variable `S<n>` holds) or by
    /// bindless handle (what `S31` holds).
    samplers: Vec<(u32, SamplerState)>,
    /// `visa run --check`: out-of-bounds accesses, divergent barriers and data races are
    /// reported here (and an out-of-bounds access reads zeros or is dropped) when set.
    pub check: Option<alloc::boxed::Box<Checker>>,
    /// The lane of the message running (`None`: a block message of the whole thread).
    lane: Option<u32>,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new(32)
    }
}

/// An atomic operation: DWORD_ATOMIC.md's table (`new` is what is written, the returned
/// value is `old` except for PREDEC), plus LSC_UNTYPED's `lsc_atomic_load`/`store`/`fadd`/`fsub`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// "ADD: new = old + src0"
    Add,
    /// "SUB: new = old - src0"
    Sub,
    /// "INC : new = old+1"
    Inc,
    /// "DEC: new = old-1"
    Dec,
    /// "MIN: new = min(old, src0)" (unsigned)
    Min,
    /// "MAX: new = max(old, src0)" (unsigned)
    Max,
    /// "XCHG: new = src0"
    Xchg,
    /// "CMPXCHG : new = (old==src1) ? src0 : old"
    CmpXchg,
    /// "AND: new = old & src0"
    And,
    /// "OR: new = old | src0"
    Or,
    /// "XOR: new = old ^ src0"
    Xor,
    /// "IMIN: new = min(old, src0), signed"
    IMin,
    /// "IMAX: new = max(old, src0), signed"
    IMax,
    /// "PREDEC: new = old - 1", returning the new value.
    PreDec,
    /// "FMAX: new = max(old, src0)"
    FMax,
    /// "FMIN: new = min(old, src0)"
    FMin,
    /// "FCMPWR: new = (src0 == old) ? src1 : old"
    FCmpWr,
    /// `lsc_atomic_fadd` "floating-point add"
    FAdd,
    /// `lsc_atomic_fsub` "floating-point subtract"
    FSub,
    /// `lsc_atomic_load`: new = old.
    Load,
    /// `lsc_atomic_store`: new = src0, returning old.
    Store,
}

impl AtomicOp {
    /// The operation of DWORD_ATOMIC's and SVM_ATOMIC's `Op` bits 4..0 (DWORD_ATOMIC.md, `Op`).
    pub fn from_legacy(bits: u64) -> Option<AtomicOp> {
        use AtomicOp::*;
        Some(match bits & 0x1f {
            0b00000 => Add,
            0b00001 => Sub,
            0b00010 => Inc,
            0b00011 => Dec,
            0b00100 => Min,
            0b00101 => Max,
            0b00110 => Xchg,
            0b00111 => CmpXchg,
            0b01000 => And,
            0b01001 => Or,
            0b01010 => Xor,
            0b01011 => IMin,
            0b01100 => IMax,
            0b01101 => PreDec,
            0b10000 => FMax,
            0b10001 => FMin,
            0b10010 => FCmpWr,
            // SVM_ATOMIC erratum `SVM_ATOMIC-ops-fadd-fsub.patch`: fadd 0b10011, fsub 0b10100.
            0b10011 => FAdd,
            0b10100 => FSub,
            _ => return None,
        })
    }

    /// How many data sources the operation reads (0, 1 or 2).
    pub fn sources(self) -> u32 {
        use AtomicOp::*;
        match self {
            Inc | Dec | PreDec | Load => 0,
            CmpXchg | FCmpWr => 2,
            _ => 1,
        }
    }

    /// `(new, returned)` for `old` and the sources, all `size` bytes wide (2, 4 or 8).
    pub fn apply(self, size: u32, old: u64, src0: u64, src1: u64) -> Option<(u64, u64)> {
        use AtomicOp::*;
        let mask = mask(size);
        let sext = |v: u64| -> i64 {
            let shift = 64 - size * 8;
            ((v << shift) as i64) >> shift
        };
        let (old, src0, src1) = (old & mask, src0 & mask, src1 & mask);
        let new = match self {
            Add => old.wrapping_add(src0),
            Sub => old.wrapping_sub(src0),
            Inc => old.wrapping_add(1),
            Dec | PreDec => old.wrapping_sub(1),
            Min => old.min(src0),
            Max => old.max(src0),
            Xchg | Store => src0,
            CmpXchg => {
                if old == src1 {
                    src0
                } else {
                    old
                }
            }
            And => old & src0,
            Or => old | src0,
            Xor => old ^ src0,
            IMin => sext(old).min(sext(src0)) as u64,
            IMax => sext(old).max(sext(src0)) as u64,
            Load => old,
            FMax | FMin | FCmpWr | FAdd | FSub => float_op(self, size, old, src0, src1)?,
        } & mask;
        Some((new, if self == PreDec { new } else { old }))
    }
}

/// The float atomics on 4- and 8-byte data (16-bit floats are not supported: `None`).
fn float_op(op: AtomicOp, size: u32, old: u64, src0: u64, src1: u64) -> Option<u64> {
    fn run<
        T: Copy + PartialEq + PartialOrd + core::ops::Add<Output = T> + core::ops::Sub<Output = T>,
    >(
        op: AtomicOp,
        old: T,
        a: T,
        b: T,
        nan: impl Fn(T) -> bool,
    ) -> (T, bool) {
        // FMAX/FMIN: a NaN operand gives the other one (IEEE maxNum/minNum, what the hardware's
        // float min/max do); the docs say only "max(old, src0)".
        match op {
            AtomicOp::FMax => (
                if nan(a) || (!nan(old) && old >= a) {
                    old
                } else {
                    a
                },
                true,
            ),
            AtomicOp::FMin => (
                if nan(a) || (!nan(old) && old <= a) {
                    old
                } else {
                    a
                },
                true,
            ),
            AtomicOp::FCmpWr => (if a == old { b } else { old }, true),
            AtomicOp::FAdd => (old + a, true),
            AtomicOp::FSub => (old - a, true),
            _ => (old, false),
        }
    }
    match size {
        4 => {
            let f = |v: u64| f32::from_bits(v as u32);
            let (r, ok) = run(op, f(old), f(src0), f(src1), f32::is_nan);
            ok.then(|| u64::from(r.to_bits()))
        }
        8 => {
            let f = f64::from_bits;
            let (r, ok) = run(op, f(old), f(src0), f(src1), f64::is_nan);
            ok.then(|| r.to_bits())
        }
        _ => None,
    }
}

/// The low `size` bytes.
fn mask(size: u32) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// Where an access lands: a byte range of a buffer or of the SLM, or nowhere (a surface
/// access out of bounds, dropped as the docs say).
enum Place {
    Buffer(usize, usize),
    Slm(usize),
    Scratch(usize),
    Dropped,
}

impl Memory {
    /// Memory without buffers, for a platform with `grf_bytes`-byte registers.
    pub fn new(grf_bytes: u32) -> Memory {
        Memory {
            buffers: Vec::new(),
            zero_from: Vec::new(),
            table: Vec::new(),
            slm: Vec::new(),
            slm_touched: 0,
            scratch: Vec::new(),
            scratch_touched: 0,
            track: None,
            grf_bytes,
            dropped: 0,
            images: Vec::new(),
            samplers: Vec::new(),
            check: None,
            lane: None,
        }
    }

    /// Turns `--check` on ([`super::check`]).
    pub fn enable_check(&mut self) {
        self.check = Some(alloc::boxed::Box::default());
    }

    /// The next accesses are lane `lane`'s (what `--check` reports).
    #[inline(always)]
    pub fn at_lane(&mut self, lane: u32) {
        self.lane = Some(lane);
    }

    /// A message starts at instruction `pc` of routine `routine`: its accesses are the
    /// thread's until [`Memory::at_lane`] names a lane.
    #[inline]
    pub fn at_instruction(&mut self, routine: usize, pc: usize) {
        self.lane = None;
        if let Some(c) = self.check.as_deref_mut() {
            c.site.routine = routine;
            c.site.pc = pc;
        }
    }

    /// Work-group `group` starts (its SLM is reset apart).
    pub fn begin_group(&mut self, group: [u32; 3]) {
        if let Some(c) = self.check.as_deref_mut() {
            c.begin_group(group);
        }
    }

    /// Adds a host buffer at the next free base address ([`FIRST_BASE`], then every
    /// [`BASE_STRIDE`]); buffers of 4 GiB or more are refused.
    pub fn add_buffer(&mut self, bytes: Vec<u8>) -> Result<BufferId, MemoryError> {
        if bytes.len() as u64 >= BASE_STRIDE {
            return Err(MemoryError::Unsupported {
                instruction: "launch",
                what: format!("a buffer of {} bytes (at most 4 GiB - 1)", bytes.len()),
            });
        }
        let base = FIRST_BASE + BASE_STRIDE * self.buffers.len() as u64;
        self.zero_from.push(bytes.len());
        self.buffers.push(Buffer { base, bytes });
        Ok(BufferId(self.buffers.len() - 1))
    }

    /// Adds a host buffer of `n` zero bytes (a private or scratch area, mostly never touched).
    pub fn add_zeroed(&mut self, n: usize) -> Result<BufferId, MemoryError> {
        let id = self.add_buffer(alloc::vec![0; n])?;
        if let Some(z) = self.zero_from.get_mut(id.0) {
            *z = 0;
        }
        Ok(id)
    }

    /// Bytes `..end` of buffer `b` may be other than zero from now on.
    #[inline(always)]
    fn touch(&mut self, b: usize, end: usize) {
        if let Some(z) = self.zero_from.get_mut(b) {
            *z = (*z).max(end);
        }
    }

    /// A copy of this memory, cheaper than a clone where buffers are known to hold zeros.
    pub fn fork(&self) -> Memory {
        let buffers = self
            .buffers
            .iter()
            .zip(&self.zero_from)
            .map(|(b, &z)| {
                let mut bytes = alloc::vec![0; b.bytes.len()];
                let n = z.min(bytes.len());
                bytes[..n].copy_from_slice(&b.bytes[..n]);
                Buffer {
                    base: b.base,
                    bytes,
                }
            })
            .collect();
        Memory {
            buffers,
            zero_from: self.zero_from.clone(),
            table: self.table.clone(),
            slm: self.slm.clone(),
            slm_touched: self.slm_touched,
            scratch: self.scratch.clone(),
            scratch_touched: self.scratch_touched,
            track: self.track.clone(),
            grf_bytes: self.grf_bytes,
            dropped: self.dropped,
            images: self.images.clone(),
            samplers: self.samplers.clone(),
            check: self.check.clone(),
            lane: self.lane,
        }
    }

    /// Adds an image (a typed surface) with its texels; `bytes` must hold `image.bytes()`.
    pub fn add_image(&mut self, image: Image, bytes: Vec<u8>) -> Result<BufferId, MemoryError> {
        if (bytes.len() as u64) < image.bytes() {
            return Err(MemoryError::Unsupported {
                instruction: "launch",
                what: format!(
                    "an image of {}x{}x{} {} texels in {} bytes (it needs {})",
                    image.width,
                    image.height,
                    image.depth,
                    image.format,
                    bytes.len(),
                    image.bytes()
                ),
            });
        }
        let id = self.add_buffer(bytes)?;
        self.images.push((id.0, image));
        Ok(id)
    }

    /// The image bound at a binding-table index and its texels, for typed message
    /// `instruction` (which an error names).
    pub fn image_mut(
        &mut self,
        instruction: &'static str,
        bti: u32,
    ) -> Result<(Image, &mut [u8]), MemoryError> {
        let b = self
            .table
            .get(bti as usize)
            .copied()
            .flatten()
            .ok_or(MemoryError::Unbound { bti })?;
        let image = self
            .images
            .iter()
            .find(|(i, _)| *i == b)
            .map(|(_, im)| *im)
            .ok_or_else(|| MemoryError::Unsupported {
                instruction,
                what: format!(
                    "binding-table index {bti} is a buffer, not an image; a typed access to it"
                ),
            })?;
        if let Some(t) = self.track.as_deref_mut() {
            t.note_all(b, self.buffers[b].bytes.len());
        }
        self.touch(b, usize::MAX);
        Ok((image, &mut self.buffers[b].bytes))
    }

    /// Binds a sampler state at a sampler index or bindless handle.
    pub fn bind_sampler(&mut self, index: u32, state: SamplerState) {
        self.samplers.retain(|(i, _)| *i != index);
        self.samplers.push((index, state));
    }

    /// The sampler state at a sampler index, for message `instruction` (which an error names).
    pub fn sampler(
        &self,
        instruction: &'static str,
        index: u32,
    ) -> Result<SamplerState, MemoryError> {
        self.samplers
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, s)| *s)
            .ok_or_else(|| MemoryError::Unsupported {
                instruction,
                what: format!(
                    "a read through sampler index {index:#x}, which no `--sampler` argument \
                     binds (an inline `const sampler_t` has its state only in the compiler's \
                     binary: zeinfo's `inline_samplers` or a patch-token binary's sampler state \
                     array, which `--zeinfo` or `--program` gives)"
                ),
            })
    }

    /// Binds a buffer at a binding-table index.
    pub fn bind(&mut self, bti: u32, buffer: BufferId) {
        let i = bti as usize;
        if self.table.len() <= i {
            self.table.resize(i + 1, None);
        }
        self.table[i] = Some(buffer.0);
    }

    /// A buffer.
    pub fn buffer(&self, id: BufferId) -> &Buffer {
        &self.buffers[id.0]
    }

    /// Every buffer, in the order they were added.
    pub fn buffers(&self) -> &[Buffer] {
        &self.buffers
    }

    /// Gives back the buffers, in the order they were added.
    pub fn into_buffers(self) -> Vec<Buffer> {
        self.buffers
    }

    /// A fresh SLM of `bytes` bytes for the next work-group. "Its contents are uninitialized
    /// at creation" (`3_execution_model.md`): here they are zero, the same on every run.
    pub fn reset_slm(&mut self, bytes: usize) {
        if self.slm.len() == bytes {
            // Only the bytes the last work-group reached can be other than zero.
            let touched = self.slm_touched.min(bytes);
            self.slm[..touched].fill(0);
        } else {
            self.slm.clear();
            self.slm.resize(bytes, 0);
        }
        self.slm_touched = 0;
    }

    /// A scratch surface of `bytes` bytes (zero), for the threads of one work-group.
    pub fn reset_scratch(&mut self, bytes: usize) {
        if self.scratch.len() == bytes {
            let touched = self.scratch_touched.min(bytes);
            self.scratch[..touched].fill(0);
        } else {
            self.scratch.clear();
            self.scratch.resize(bytes, 0);
        }
        self.scratch_touched = 0;
    }

    /// Notes from now on the bytes of each buffer read and written ([`super::parallel`]).
    pub fn track(&mut self) {
        let buffers = self.buffers.len();
        self.track = Some(alloc::boxed::Box::new(super::parallel::Tracking::new(
            buffers,
        )));
    }

    /// Stops noting accesses.
    pub fn untrack(&mut self) {
        self.track = None;
    }

    /// The bytes read and written since [`Memory::track`].
    pub fn tracking(&self) -> Option<&super::parallel::Tracking> {
        self.track.as_deref()
    }

    /// Lays the bytes `later` wrote since it was a copy of this memory over this one, and adds
    /// the accesses it dropped since then (it had `base` when copied).
    pub fn lay_over(&mut self, later: &Memory, base: u64) {
        if let Some(t) = later.tracking() {
            for (b, at) in super::parallel::written(t) {
                let from = later.buffers.get(b).and_then(|x| x.bytes.get(at));
                let to = self.buffers.get_mut(b).and_then(|x| x.bytes.get_mut(at));
                if let (Some(from), Some(to)) = (from, to) {
                    *to = *from;
                }
            }
        }
        self.dropped += later.dropped.saturating_sub(base);
    }

    /// The SLM of the running work-group.
    pub fn slm(&self) -> &[u8] {
        &self.slm
    }

    /// The bytes of an access that lands in memory, without `--check`: the common case of
    /// [`Memory::place_for`], with no error or dropped access to account for (`None` sends
    /// the access the long way).
    #[inline(always)]
    fn direct(&mut self, space: Space, address: u64, size: u32) -> Option<&mut [u8]> {
        if self.check.is_some() {
            return None;
        }
        let (bytes, at) = match space {
            Space::Surface(bti) => {
                if self.track.is_some() {
                    return None;
                }
                let b = (*self.table.get(bti as usize)?)?;
                let end = usize::try_from(address).ok()?.checked_add(size as usize)?;
                self.touch(b, end);
                (&mut self.buffers.get_mut(b)?.bytes, address)
            }
            Space::Slm => {
                let at = (address & SLM_ADDRESS_BITS) as usize;
                let end = at.checked_add(size as usize)?;
                let b = self.slm.get_mut(at..end)?;
                self.slm_touched = self.slm_touched.max(end);
                return Some(b);
            }
            Space::Scratch => {
                let at = usize::try_from(address).ok()?;
                let end = at.checked_add(size as usize)?;
                let b = self.scratch.get_mut(at..end)?;
                self.scratch_touched = self.scratch_touched.max(end);
                return Some(b);
            }
            Space::Stateless => return None,
        };
        let at = usize::try_from(at).ok()?;
        bytes.get_mut(at..at.checked_add(size as usize)?)
    }

    #[inline]
    fn place(&mut self, space: Space, address: u64, size: u32) -> Result<Place, MemoryError> {
        let unmapped = MemoryError::Unmapped {
            space,
            address,
            size,
        };
        let fits = |len: usize, at: u64| {
            at.checked_add(u64::from(size))
                .is_some_and(|e| e <= len as u64)
        };
        match space {
            Space::Slm => {
                let address = address & SLM_ADDRESS_BITS;
                if fits(self.slm.len(), address) {
                    Ok(Place::Slm(address as usize))
                } else {
                    Err(unmapped)
                }
            }
            Space::Scratch => {
                if fits(self.scratch.len(), address) {
                    Ok(Place::Scratch(address as usize))
                } else {
                    Err(unmapped)
                }
            }
            Space::Surface(bti) => {
                let b = self
                    .table
                    .get(bti as usize)
                    .copied()
                    .flatten()
                    .ok_or(MemoryError::Unbound { bti })?;
                if fits(self.buffers[b].bytes.len(), address) {
                    Ok(Place::Buffer(b, address as usize))
                } else {
                    self.dropped += 1;
                    Ok(Place::Dropped)
                }
            }
            Space::Stateless => {
                let found = self
                    .buffers
                    .iter()
                    .position(|b| address >= b.base && fits(b.bytes.len(), address - b.base));
                match found {
                    Some(b) => Ok(Place::Buffer(b, (address - self.buffers[b].base) as usize)),
                    None => Err(unmapped),
                }
            }
        }
    }

    #[inline]
    fn bytes_mut(&mut self, place: &Place, size: u32) -> Option<&mut [u8]> {
        let n = size as usize;
        match *place {
            Place::Buffer(b, at) => Some(&mut self.buffers[b].bytes[at..at + n]),
            Place::Slm(at) => {
                self.slm_touched = self.slm_touched.max(at + n);
                Some(&mut self.slm[at..at + n])
            }
            Place::Scratch(at) => {
                self.scratch_touched = self.scratch_touched.max(at + n);
                Some(&mut self.scratch[at..at + n])
            }
            Place::Dropped => None,
        }
    }

    /// Where an access lands; with `--check`, an out-of-bounds access is reported and
    /// dropped, and any other is checked for races.
    #[inline(always)]
    fn place_for(
        &mut self,
        space: Space,
        address: u64,
        size: u32,
        access: Access,
    ) -> Result<Place, MemoryError> {
        let placed = self.place(space, address, size);
        if let Ok(Place::Buffer(b, at)) = placed {
            self.touch(b, at + size as usize);
            if let Some(t) = self.track.as_deref_mut() {
                t.note(b, at, size as usize, access);
            }
        }
        if self.check.is_none() {
            return placed;
        }
        self.checked(placed, space, address, size, access)
    }

    /// [`Memory::place_for`] under `--check`.
    #[inline(never)]
    fn checked(
        &mut self,
        placed: Result<Place, MemoryError>,
        space: Space,
        address: u64,
        size: u32,
        access: Access,
    ) -> Result<Place, MemoryError> {
        let place = match placed {
            Err(MemoryError::Unmapped { .. }) => Place::Dropped,
            other => other?,
        };
        let what = match place {
            Place::Dropped => Some(self.bounds(space, address)),
            _ => None,
        };
        let lane = self.lane;
        if let Some(c) = self.check.as_deref_mut() {
            c.site.lane = lane;
            match (&place, what) {
                (_, Some(what)) => {
                    let kind = Kind::OutOfBounds {
                        space,
                        address,
                        size,
                        access,
                        what,
                    };
                    c.report(kind, c.site);
                }
                (Place::Buffer(b, at), _) => {
                    c.access(space, address, b + 1, *at as u64, size, access)
                }
                (Place::Slm(at), _) => c.access(space, *at as u64, 0, *at as u64, size, access),
                _ => {}
            }
        }
        Ok(place)
    }

    /// What an out-of-bounds access at `address` of `space` missed, in words.
    fn bounds(&self, space: Space, address: u64) -> String {
        match space {
            Space::Slm => format!(
                "SLM offset {:#x} is past the work-group's {} bytes of SLM",
                address & SLM_ADDRESS_BITS,
                self.slm.len()
            ),
            Space::Scratch => format!("past the {} bytes of scratch", self.scratch.len()),
            Space::Surface(bti) => {
                let len = self
                    .table
                    .get(bti as usize)
                    .copied()
                    .flatten()
                    .map_or(0, |b| self.buffers[b].bytes.len());
                format!("past the end of the {len}-byte buffer bound at binding-table index {bti}")
            }
            Space::Stateless => match self
                .buffers
                .iter()
                .enumerate()
                .rev()
                .find(|(_, b)| b.base <= address)
            {
                Some((i, b)) => format!(
                    "byte {} of host buffer {i}, which has {} bytes (from {:#x})",
                    address - b.base,
                    b.bytes.len(),
                    b.base
                ),
                None => String::from("below every host buffer"),
            },
        }
    }

    /// A typed access (lane `lane`, `write` or a read) to texel `(u, v, r)` of the image at
    /// binding-table index `bti`, which the image does not have: counted in
    /// [`Memory::dropped`] and, with `--check`, reported.
    pub fn image_out_of_bounds(&mut self, lane: u32, bti: u32, texel: [u32; 3], write: bool) {
        self.dropped += 1;
        let Some(c) = self.check.as_deref_mut() else {
            return;
        };
        let image = self
            .table
            .get(bti as usize)
            .copied()
            .flatten()
            .and_then(|b| self.images.iter().find(|(i, _)| *i == b));
        let Some((_, im)) = image else {
            return;
        };
        let [u, v, r] = texel;
        let what = format!(
            "texel ({u}, {v}, {r}) outside the {}x{}x{} image",
            im.width, im.height, im.depth
        );
        let address = (u64::from(r) * u64::from(im.slice_pitch))
            .saturating_add(u64::from(v) * u64::from(im.row_pitch))
            .saturating_add(u64::from(u) * u64::from(im.format.texel_bytes()));
        c.site.lane = Some(lane);
        let kind = Kind::OutOfBounds {
            space: Space::Surface(bti),
            address,
            size: im.format.texel_bytes(),
            access: if write { Access::Write } else { Access::Read },
            what,
        };
        c.report(kind, c.site);
    }

    /// Reads `size` bytes (1 to 8), little-endian, zero-extended.
    pub fn read(&mut self, space: Space, address: u64, size: u32) -> Result<u64, MemoryError> {
        if let Some(b) = self.direct(space, address, size) {
            return Ok(le(b));
        }
        let place = self.place_for(space, address, size, Access::Read)?;
        Ok(self.bytes_mut(&place, size).map_or(0, |b| le(b)))
    }

    /// Writes the low `size` bytes (1 to 8) of `value`, little-endian.
    pub fn write(
        &mut self,
        space: Space,
        address: u64,
        size: u32,
        value: u64,
    ) -> Result<(), MemoryError> {
        if let Some(b) = self.direct(space, address, size) {
            let n = b.len().min(8);
            b[..n].copy_from_slice(&value.to_le_bytes()[..n]);
            return Ok(());
        }
        let place = self.place_for(space, address, size, Access::Write)?;
        if let Some(b) = self.bytes_mut(&place, size) {
            b.copy_from_slice(&value.to_le_bytes()[..size as usize]);
        }
        Ok(())
    }

    /// Reads `out.len()` contiguous bytes.
    pub fn read_bytes(
        &mut self,
        space: Space,
        address: u64,
        out: &mut [u8],
    ) -> Result<(), MemoryError> {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.read(space, address.wrapping_add(i as u64), 1)? as u8;
        }
        Ok(())
    }

    /// An atomic read-modify-write of `size` bytes (2, 4 or 8); returns what the operation
    /// returns (the old value, the new one for PREDEC). Out of bounds on a surface: "On read:
    /// zeros are returned. On write: data is dropped." (DWORD_ATOMIC.md:144).
    pub fn atomic(
        &mut self,
        space: Space,
        address: u64,
        size: u32,
        op: AtomicOp,
        src0: u64,
        src1: u64,
    ) -> Result<u64, MemoryError> {
        if !address.is_multiple_of(u64::from(size)) {
            return Err(MemoryError::Misaligned {
                space,
                address,
                align: size,
            });
        }
        let place = self.place_for(space, address, size, Access::Atomic)?;
        let Some(bytes) = self.bytes_mut(&place, size) else {
            return Ok(0);
        };
        let old = le(bytes);
        let (new, ret) =
            op.apply(size, old, src0, src1)
                .ok_or_else(|| MemoryError::Unsupported {
                    instruction: "atomic",
                    what: format!("{op:?} on {size}-byte data"),
                })?;
        bytes.copy_from_slice(&new.to_le_bytes()[..size as usize]);
        Ok(ret)
    }
}

/// Little-endian bytes (at most 8) as an integer.
#[inline]
fn le(b: &[u8]) -> u64 {
    match *b {
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_le_bytes([a, b])),
        [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
        _ => {
            let mut v = [0u8; 8];
            let n = b.len().min(8);
            v[..n].copy_from_slice(&b[..n]);
            u64::from_le_bytes(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn two_buffers() -> (Memory, BufferId, BufferId) {
        let mut m = Memory::new(32);
        let a = m.add_buffer((0u8..16).collect()).unwrap();
        let b = m.add_buffer(vec![0xaa; 8]).unwrap();
        m.bind(0, b);
        m.bind(3, a);
        (m, a, b)
    }

    #[test]
    fn buffers_sit_at_distinct_bases_above_4_gib() {
        let (m, a, b) = two_buffers();
        assert_eq!(m.buffer(a).base, 0x100_0000_0000);
        assert_eq!(m.buffer(b).base, 0x101_0000_0000);
    }

    #[test]
    fn stateless_reads_and_writes_are_little_endian() {
        let (mut m, a, _) = two_buffers();
        let base = m.buffer(a).base;
        // Bytes 4..8 of buffer a are 4, 5, 6, 7.
        assert_eq!(m.read(Space::Stateless, base + 4, 4).unwrap(), 0x0706_0504);
        m.write(Space::Stateless, base + 14, 2, 0xbeef).unwrap();
        assert_eq!(&m.buffer(a).bytes[14..], &[0xef, 0xbe]);
    }

    #[test]
    fn stateless_outside_every_buffer_names_the_address() {
        let (mut m, a, _) = two_buffers();
        let end = m.buffer(a).base + 16;
        let e = m.read(Space::Stateless, end - 2, 4).unwrap_err();
        assert_eq!(
            e,
            MemoryError::Unmapped {
                space: Space::Stateless,
                address: end - 2,
                size: 4
            }
        );
        let text = alloc::string::ToString::to_string(&e);
        assert!(text.contains("0x1000000000e"), "{text}");
        assert!(m.write(Space::Stateless, 0x1000, 4, 0).is_err());
        assert!(m.read(Space::Stateless, u64::MAX, 4).is_err());
    }

    #[test]
    fn surfaces_by_binding_table_index_with_the_docs_out_of_bounds_rule() {
        let (mut m, a, b) = two_buffers();
        assert_eq!(m.read(Space::Surface(3), 8, 1).unwrap(), 8);
        assert_eq!(m.read(Space::Surface(0), 0, 4).unwrap(), 0xaaaa_aaaa);
        // Out of bounds: zeros read, writes dropped, both counted.
        assert_eq!(m.read(Space::Surface(0), 8, 4).unwrap(), 0);
        m.write(Space::Surface(3), 16, 4, 7).unwrap();
        assert_eq!(m.dropped, 2);
        assert_eq!(m.buffer(a).bytes.len(), 16);
        assert_eq!(m.buffer(b).bytes, vec![0xaa; 8]);
        assert_eq!(
            m.read(Space::Surface(1), 0, 4),
            Err(MemoryError::Unbound { bti: 1 })
        );
        assert_eq!(
            m.read(Space::Surface(9), 0, 4),
            Err(MemoryError::Unbound { bti: 9 })
        );
    }

    #[test]
    fn slm_is_per_work_group_and_bounded() {
        let mut m = Memory::new(32);
        m.reset_slm(8);
        m.write(Space::Slm, 4, 4, 0x1234_5678).unwrap();
        assert_eq!(m.read(Space::Slm, 4, 2).unwrap(), 0x5678);
        assert!(m.read(Space::Slm, 6, 4).is_err());
        m.reset_slm(8);
        assert_eq!(m.read(Space::Slm, 4, 4).unwrap(), 0);
        // Bit 28, Intel's tag of `local` array addresses, is not part of the offset.
        m.write(Space::Slm, 0x1000_0004, 4, 9).unwrap();
        assert_eq!(m.read(Space::Slm, 4, 4).unwrap(), 9);
    }

    #[test]
    fn atomics_follow_the_dword_atomic_table() {
        use AtomicOp::*;
        // (op, size, old, src0, src1) -> (new, returned), worked out from DWORD_ATOMIC.md.
        let cases: &[(AtomicOp, u32, u64, u64, u64, u64, u64)] = &[
            (Add, 4, 0xffff_ffff, 2, 0, 1, 0xffff_ffff),
            (Sub, 4, 1, 2, 0, 0xffff_ffff, 1),
            (Inc, 4, 7, 0, 0, 8, 7),
            (Dec, 2, 0, 0, 0, 0xffff, 0),
            (Min, 4, 5, 0xffff_fff0, 0, 5, 5),
            (IMin, 4, 5, 0xffff_fff0, 0, 0xffff_fff0, 5),
            (Max, 8, 1, u64::MAX, 0, u64::MAX, 1),
            (IMax, 8, 1, u64::MAX, 0, 1, 1),
            (Xchg, 4, 3, 9, 0, 9, 3),
            (CmpXchg, 4, 3, 9, 3, 9, 3),
            (CmpXchg, 4, 3, 9, 4, 3, 3),
            (And, 4, 0b1100, 0b1010, 0, 0b1000, 0b1100),
            (Or, 4, 0b1100, 0b1010, 0, 0b1110, 0b1100),
            (Xor, 4, 0b1100, 0b1010, 0, 0b0110, 0b1100),
            (PreDec, 4, 5, 0, 0, 4, 4),
            // 1.5 + 2.0 = 3.5 as f32 bits.
            (
                FAdd,
                4,
                0x3fc0_0000,
                0x4000_0000,
                0,
                0x4060_0000,
                0x3fc0_0000,
            ),
            (
                FMax,
                4,
                0x3fc0_0000,
                0x4000_0000,
                0,
                0x4000_0000,
                0x3fc0_0000,
            ),
            (
                FMin,
                4,
                0x3fc0_0000,
                0x4000_0000,
                0,
                0x3fc0_0000,
                0x3fc0_0000,
            ),
            // FCMPWR: new = (src0 == old) ? src1 : old.
            (
                FCmpWr,
                4,
                0x3fc0_0000,
                0x3fc0_0000,
                0x4000_0000,
                0x4000_0000,
                0x3fc0_0000,
            ),
        ];
        for &(op, size, old, s0, s1, new, ret) in cases {
            assert_eq!(op.apply(size, old, s0, s1), Some((new, ret)), "{op:?}");
        }
        assert_eq!(FAdd.apply(2, 0, 0, 0), None);
    }

    #[test]
    fn with_the_check_an_access_out_of_bounds_is_reported_and_dropped() {
        use super::super::check::{Access, Kind};
        let (mut m, a, _) = two_buffers();
        m.reset_slm(8);
        m.enable_check();
        m.at_instruction(0, 3);
        m.at_lane(5);
        let end = m.buffer(a).base + 16;
        // Stateless past buffer a (16 bytes): zeros, not an error; SLM past its 8 bytes; a
        // surface write past bti 3's buffer (a, 16 bytes): dropped.
        assert_eq!(m.read(Space::Stateless, end, 4), Ok(0));
        assert_eq!(m.write(Space::Slm, 8, 2, 1), Ok(()));
        assert_eq!(m.write(Space::Surface(3), 15, 2, 1), Ok(()));
        assert_eq!(m.buffer(a).bytes[15], 15);
        let f = m.check.as_deref().unwrap().findings();
        assert_eq!(f.len(), 1, "one finding per kind and instruction: {f:?}");
        assert_eq!(f[0].count, 3);
        assert_eq!((f[0].site.pc, f[0].site.lane), (3, Some(5)));
        let Kind::OutOfBounds {
            space,
            address,
            size,
            access,
            what,
        } = &f[0].kind
        else {
            panic!("{f:?}")
        };
        assert_eq!(
            (*space, *address, *size, *access),
            (Space::Stateless, end, 4, Access::Read)
        );
        assert_eq!(
            what,
            "byte 16 of host buffer 0, which has 16 bytes (from 0x10000000000)"
        );
        // Unbound surfaces and misaligned atomics are still errors.
        assert_eq!(
            m.read(Space::Surface(9), 0, 4),
            Err(MemoryError::Unbound { bti: 9 })
        );
    }

    #[test]
    fn atomic_on_memory_returns_old_and_checks_alignment() {
        let (mut m, a, _) = two_buffers();
        let base = m.buffer(a).base;
        let old = m
            .atomic(Space::Stateless, base, 4, AtomicOp::Add, 0x10, 0)
            .unwrap();
        assert_eq!(old, 0x0302_0100);
        assert_eq!(m.read(Space::Stateless, base, 4).unwrap(), 0x0302_0110);
        assert!(matches!(
            m.atomic(Space::Stateless, base + 2, 4, AtomicOp::Add, 1, 0),
            Err(MemoryError::Misaligned { .. })
        ));
        // Out of bounds on a surface: zero returned, nothing written.
        assert_eq!(
            m.atomic(Space::Surface(0), 8, 4, AtomicOp::Inc, 0, 0),
            Ok(0)
        );
    }
}
