//! The machine: a reference interpreter of vISA kernels (feature `machine`).
//!
//! It runs the threads of a work-group on the CPU: each thread's state (its GRF bytes with the
//! variables placed as the kernel declares them, address and predicate registers: [`layout`],
//! [`thread`]), regions and `EvaluateChEn` of the operands chapter, control flow with SIMD
//! divergence ([`exec`]), barriers. Lane semantics come from the generated lane functions
//! (`## Semantics` of each doc), reached through the generated `interpret` bridge and
//! [`crate::runtime::Lanes`]; instructions whose docs give prose are run by hand here (control
//! flow) or in [`messages`] (memory), and any other is an error naming it, never a silent
//! no-op. The common ALU instructions are compiled once per kernel and run by [`fast`], which
//! gives the lane functions' bits with typed lane loops.
//!
//! Modules: [`memory`] (surfaces, SLM, stateless addresses), [`messages`] (the memory
//! instructions) and [`launch`] (ndrange, arguments, the thread payload).
//!
//! ```no_run
//! # fn demo(file: &visa::object::File, mem: &mut visa::machine::memory::Memory) -> Result<(), visa::machine::RunError> {
//! use visa::machine::{Kernel, ThreadInit};
//! let platform = visa::Platform::from_name("acm-g10").expect("a platform");
//! let kernel = Kernel::new(file, "add", platform)?;
//! let input = vec![0u8; 256]; // r0 and the `.input` area as IGC lays it out
//! kernel.run_group(&[ThreadInit { input, group_id: [0; 3], local_size: [16, 1, 1], lanes: 16 }], mem)?;
//! # Ok(()) }
//! ```

pub mod check;
pub mod convert;
pub mod exec;
pub mod fast;
pub mod image;
pub mod launch;
pub mod layout;
pub mod limits;
pub mod memory;
pub mod messages;
pub mod parallel;
pub mod program;
pub mod sampler;
pub mod thread;
pub mod zeinfo;

#[cfg(test)]
mod tests;

use crate::generated::{Instruction, Platform};
use crate::object::{File, Routine as _};
use crate::runtime::{ExecSize, IntelPlatform, OperandVisitor, PredicateControl, Value};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
use exec::{Flow, Status, Step, Thread};
use layout::Layout;
use memory::Memory;
use thread::{Fault, Regs};

/// Why a run stopped: what, and where (routine, instruction offset, Intel's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    pub what: String,
    /// The routine's name (kernel or function), when the error is inside one.
    pub routine: Option<String>,
    /// Byte offset of the instruction in the routine's instruction stream.
    pub offset: Option<u32>,
    /// Intel's text of the instruction (`add (M1, 16) V33(0,0)<1> ...`).
    pub text: Option<String>,
    /// The thread of the work-group, when one thread failed.
    pub thread: Option<usize>,
}

impl RunError {
    fn new(what: impl Into<String>) -> RunError {
        RunError {
            what: what.into(),
            routine: None,
            offset: None,
            text: None,
            thread: None,
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(r) = &self.routine {
            write!(f, "{r}")?;
            if let Some(o) = self.offset {
                write!(f, " at instruction offset {o:#x}")?;
            }
            if let Some(t) = self.thread {
                write!(f, " (thread {t})")?;
            }
            if let Some(t) = &self.text {
                write!(f, " `{t}`")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", self.what)
    }
}

/// A `visa run --check` finding, located: what, the kernel, the instruction (its routine,
/// offset and Intel's text), the work-group, thread and lane, and the address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// `out-of-bounds access`, `divergent barrier` or `data race`.
    pub kind: &'static str,
    pub what: String,
    pub kernel: String,
    /// The routine of the instruction (the kernel or a function).
    pub routine: String,
    pub offset: u32,
    pub text: String,
    pub group: [u32; 3],
    pub thread: usize,
    /// The lane (work-item of the thread); `None` for a whole thread (a block message, a
    /// thread at a barrier).
    pub lane: Option<u32>,
    pub address: Option<u64>,
    /// Findings of this kind at this instruction in the run.
    pub count: u64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.group;
        write!(
            f,
            "{}: kernel `{}`, work-group ({x}, {y}, {z}), thread {}{}",
            self.kind,
            self.kernel,
            self.thread,
            check::lane_text(self.lane)
        )?;
        if let Some(a) = self.address {
            write!(f, ", address {a:#x}")?;
        }
        write!(
            f,
            ": {} at instruction offset {:#x} `{}`: {}",
            self.routine, self.offset, self.text, self.what
        )?;
        if self.count > 1 {
            write!(f, " ({} more like it at this instruction)", self.count - 1)?;
        }
        Ok(())
    }
}

/// Lanes of a mask, as `0-2, 5`.
fn mask_list(mask: u32) -> String {
    let mut parts = Vec::new();
    let mut lane = 0;
    while lane < 32 {
        if mask >> lane & 1 == 0 {
            lane += 1;
            continue;
        }
        let start = lane;
        while lane < 32 && mask >> lane & 1 != 0 {
            lane += 1;
        }
        parts.push(if lane - 1 == start {
            format!("{start}")
        } else {
            format!("{start}-{}", lane - 1)
        });
    }
    parts.join(", ")
}

/// What one thread starts with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadInit {
    /// The GRF bytes from r0 on, r0 included: what the kernel's `.input` offsets address.
    /// `%r0` takes the first 32 bytes; each general `.input` variable its `offset..offset+size`,
    /// each surface or sampler input a dword at its offset; bytes past the end read as 0.
    pub input: Vec<u8>,
    /// `%group_id_x/y/z`.
    pub group_id: [u32; 3],
    /// The work-group's size (for the launcher's payload; the machine does not read it).
    pub local_size: [u32; 3],
    /// Live channels: the execution mask starts with channels `0..lanes` on.
    pub lanes: u32,
}

/// What one runner of work-groups keeps from one group to the next: the threads of the last
/// group, whose storage the next group's threads take.
#[derive(Default)]
pub struct Workspace {
    spare: Vec<Thread>,
    running: Vec<Thread>,
}

/// `visa run` and [`launch::launch`] run work-groups on a kernel.
impl launch::GroupRunner for Kernel<'_> {
    fn run_group(
        &self,
        threads: &[launch::ThreadPayload],
        mem: &mut Memory,
        ws: &mut Workspace,
    ) -> Result<(), String> {
        let mut ts = core::mem::take(&mut ws.running);
        ts.clear();
        let mut ran = Ok(());
        for p in threads {
            match self.start(ws.spare.pop(), &p.input, p.group_id, p.lanes) {
                Ok(t) => ts.push(t),
                Err(e) => {
                    ran = Err(e);
                    break;
                }
            }
        }
        if ran.is_ok() {
            ran = self.run_threads(&mut ts, mem);
        }
        ws.spare.append(&mut ts);
        ws.running = ts;
        ran.map_err(|e| alloc::string::ToString::to_string(&e))
    }

    fn check(&self) -> bool {
        self.check
    }

    /// Unchecked runs of kernels without atomics (whose groups all meet at the same words,
    /// which a parallel run would find and then run again one after another).
    fn parallel(&self) -> Option<(&dyn parallel::Parallel, &(dyn launch::GroupRunner + Sync))> {
        if self.check || self.atomics {
            return None;
        }
        Some((self.parallel.as_deref()?, self))
    }

    fn steps_used(&self) -> u64 {
        self.steps_used.load(Relaxed)
    }

    fn set_steps_used(&self, steps: u64) {
        self.steps_used.store(steps, Relaxed);
    }
}

/// A routine as the machine runs it: placed variables and decoded steps.
pub struct Routine<'f> {
    pub name: String,
    pub layout: Layout,
    pub steps: Vec<Step<'f>>,
    surfaces: usize,
    samplers: usize,
    /// The routine's `.input` directives: (kind, variable id, offset, size).
    inputs: Vec<(u8, u32, i16, u16)>,
}

/// A kernel of an object file, its declarations resolved, ready to run work-groups.
pub struct Kernel<'f> {
    file: &'f File,
    index: usize,
    grf: u32,
    simd: u32,
    routines: Vec<Routine<'f>>,
    /// Instructions the whole run may execute: every thread of every work-group run on this
    /// kernel together ([`limits::DEFAULT_MAX_STEPS`] unless set; `visa run --max-steps`).
    pub step_limit: u64,
    /// Instructions run so far by every thread of every work-group.
    steps_used: AtomicU64,
    /// `visa run --check`: [`launch::launch`] gives the memory a [`check::Checker`], and the
    /// barriers are checked ([`check`]).
    pub check: bool,
    /// Host threads [`launch::launch`] may run work-groups on ([`parallel`]); `None`: one.
    pub parallel: Option<alloc::boxed::Box<dyn parallel::Parallel>>,
    /// Whether a routine has an atomic memory instruction.
    atomics: bool,
}

/// The fields of an instruction control flow needs, by doc name.
#[derive(Default)]
struct Fields {
    exec: Option<u8>,
    pred: Option<PredicateControl>,
    label: Option<u32>,
    func: Option<u32>,
    mode: Option<u64>,
    src0: Option<crate::runtime::VectorOperand>,
}

impl OperandVisitor for Fields {
    fn exec_size(&mut self, raw: u8) {
        self.exec = Some(raw);
    }
    fn predicate(&mut self, _: &'static str, p: PredicateControl) {
        self.pred = Some(p);
    }
    fn vector(&mut self, field: &'static str, op: &crate::runtime::VectorOperand) {
        if field == "Src0" {
            self.src0 = Some(*op);
        }
    }
    fn raw(&mut self, _: &'static str, _: &crate::runtime::RawOperand) {}
    fn index(&mut self, field: &'static str, value: u32) {
        match field {
            "Label" => self.label = Some(value),
            "Func_id" => self.func = Some(value),
            _ => {}
        }
    }
    fn value(&mut self, field: &'static str, bits: u64) {
        if field == "Mode" {
            self.mode = Some(bits);
        }
    }
}

/// The GRF size of a docs platform: Intel's size for the first of its platforms.
fn grf_bytes(platform: Platform) -> u32 {
    crate::runtime::INTEL_PLATFORMS
        .iter()
        .find(|p| IntelPlatform::platform(p) == platform)
        .map_or(32, |p| p.grf_bytes)
}

impl<'f> Kernel<'f> {
    /// Kernel `name` of `file`, for `platform` (its GRF size: 32 bytes, 64 from PVC on).
    pub fn new(file: &'f File, name: &str, platform: Platform) -> Result<Kernel<'f>, RunError> {
        let index = file
            .header
            .kernel_info
            .iter()
            .position(|k| k.name == name.as_bytes())
            .ok_or_else(|| {
                let names: Vec<String> = file
                    .header
                    .kernel_info
                    .iter()
                    .map(|k| String::from_utf8_lossy(&k.name).into_owned())
                    .collect();
                RunError::new(format!(
                    "no kernel `{name}` in the file (it has: {})",
                    names.join(", ")
                ))
            })?;
        let kernel = &file
            .kernels
            .get(index)
            .ok_or_else(|| RunError::new(format!("kernel `{name}` has no kernel object")))?
            .data;
        let grf = grf_bytes(platform);
        let fnames: Vec<Vec<u8>> = file
            .header
            .function_info
            .iter()
            .map(|f| f.name.clone())
            .collect();
        let mut routines = vec![routine(kernel, name, grf, &fnames, &kernel.input_info)?];
        place_text_only(&mut routines[0], file.text.kernels.get(index));
        for (i, f) in file.functions.iter().enumerate() {
            let fname = fnames
                .get(i)
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .unwrap_or_default();
            let mut r = routine(&f.data, &fname, grf, &fnames, &[])?;
            place_text_only(&mut r, file.text.functions.get(i));
            routines.push(r);
        }
        let atomics = routines.iter().flat_map(|r| &r.steps).any(|s| {
            s.message
                .as_deref()
                .is_some_and(|m| m.name.contains("ATOMIC") || is_lsc_atomic(m))
        });
        let simd = kernel
            .attribute_info
            .iter()
            .find(|a| kernel.string(a.name) == Some(b"SimdSize"))
            .and_then(|a| a.value.first())
            .map_or(0, |v| u32::from(*v));
        Ok(Kernel {
            file,
            index,
            grf,
            simd,
            routines,
            step_limit: limits::DEFAULT_MAX_STEPS,
            steps_used: AtomicU64::new(0),
            check: false,
            parallel: None,
            atomics,
        })
    }

    /// The `SimdSize` attribute (8, 16 or 32), 0 when the kernel has none.
    pub fn simd(&self) -> u32 {
        self.simd
    }

    /// Runs every instruction through its generated lane function, none through the fast
    /// path ([`fast`]): the reference the fast path is checked against.
    pub fn generic_only(&mut self) {
        for r in &mut self.routines {
            for s in &mut r.steps {
                s.fast = None;
            }
        }
    }

    /// How many instructions of the kernel's routines run through the fast path ([`fast`]).
    pub fn fast_steps(&self) -> usize {
        self.routines
            .iter()
            .map(|r| r.steps.iter().filter(|s| s.fast.is_some()).count())
            .sum()
    }

    /// Bytes per GRF register on the platform.
    pub fn grf_size(&self) -> usize {
        self.grf as usize
    }

    /// The kernel's `.input` directives: (kind, variable id, GRF byte offset, size).
    pub fn inputs(&self) -> &[(u8, u32, i16, u16)] {
        &self.routines[0].inputs
    }

    /// The id (`V<id>`) of the kernel's variable declared with name `name`.
    pub fn variable_id(&self, name: &str) -> Option<u32> {
        let k = &self.file.kernels[self.index].data;
        let i = k
            .var_info
            .iter()
            .position(|v| k.string(v.name_index) == Some(name.as_bytes()))?;
        Some(crate::object::PREDEFINED_VARIABLES.len() as u32 + i as u32)
    }

    /// The bytes of the kernel's variable `id` in thread `t` (once `t` has ended, or while it
    /// runs the kernel itself rather than a function).
    pub fn variable<'t>(&self, t: &'t Thread, id: u32) -> Option<&'t [u8]> {
        let v = self.routines.get(t.routine)?.layout.vars.get(id as usize)?;
        t.regs.grf.get(v.base as usize..(v.base + v.size) as usize)
    }

    /// A thread at the kernel's entry with `init`'s payload.
    pub fn thread(&self, init: &ThreadInit) -> Result<Thread, RunError> {
        self.start(None, &init.input, init.group_id, init.lanes)
    }

    /// A thread at the kernel's entry with payload `input` (the GRF bytes from r0 on), in
    /// work-group `group_id` with channels `0..lanes` on: in `reuse`'s storage when that is a
    /// thread of this kernel that ended (its registers zeroed, its resolved operands kept, as
    /// they depend on the layout alone), else in new storage.
    fn start(
        &self,
        reuse: Option<Thread>,
        input: &[u8],
        group_id: [u32; 3],
        lanes: u32,
    ) -> Result<Thread, RunError> {
        let k = &self.routines[0];
        let dispatch = exec::dispatch_mask(lanes.min(32));
        let mut t = match reuse {
            Some(mut t) if t.routine == 0 && t.regs.grf.len() == k.layout.bytes as usize => {
                t.regs.clear();
                t.restart(dispatch);
                t
            }
            _ => Thread::new(k.fresh_regs(), dispatch, &k.layout),
        };
        self.load_payload(&mut t.regs, input, group_id)?;
        Ok(t)
    }

    /// Writes a thread's payload into zeroed registers: `r0`, the group ids and each `.input`
    /// of the kernel (bytes past the payload's end read as zero).
    fn load_payload(
        &self,
        regs: &mut Regs,
        input: &[u8],
        group_id: [u32; 3],
    ) -> Result<(), RunError> {
        let lay = &self.routines[0].layout;
        // Variable `id` from `from`: `len` bytes at most, zeros past `from`'s end.
        let put = |regs: &mut Regs, id: u32, from: &[u8], len: usize| -> Result<(), RunError> {
            let v = lay
                .vars
                .get(id as usize)
                .ok_or_else(|| RunError::new(format!("input V{id} is not declared")))?;
            let n = len.min(v.size as usize);
            let m = n.min(from.len());
            let dst = regs
                .grf
                .get_mut(v.base as usize..v.base as usize + n)
                .ok_or_else(|| RunError::new(format!("input V{id} lies past the registers")))?;
            dst[..m].copy_from_slice(&from[..m]);
            dst[m..].fill(0);
            Ok(())
        };
        let payload = |at: usize| input.get(at..).unwrap_or(&[]);
        put(regs, layout::R0, payload(0), 32)?;
        for (i, g) in group_id.iter().enumerate() {
            put(regs, 3 + i as u32, &g.to_le_bytes(), 4)?;
        }
        for &(kind, id, offset, size) in &self.routines[0].inputs {
            let at = usize::try_from(offset)
                .map_err(|_| RunError::new(format!("input V{id} at a negative offset {offset}")))?;
            match kind & 3 {
                0 => put(regs, id, payload(at), usize::from(size))?,
                c => {
                    let mut b = [0u8; 4];
                    let from = payload(at);
                    let n = from.len().min(4);
                    b[..n].copy_from_slice(&from[..n]);
                    let table = if c == 1 {
                        &mut regs.samplers
                    } else {
                        &mut regs.surfaces
                    };
                    let slot = table.get_mut(id as usize).ok_or_else(|| {
                        RunError::new(format!(
                            "input {}{id} is not declared",
                            if c == 1 { 'S' } else { 'T' }
                        ))
                    })?;
                    *slot = u32::from_le_bytes(b);
                }
            }
        }
        Ok(())
    }

    /// Runs one work-group: each thread starts from its [`ThreadInit`]; threads run in turn
    /// until each reaches a barrier or ends, then all go on past the barrier.
    pub fn run_group(&self, threads: &[ThreadInit], mem: &mut Memory) -> Result<(), RunError> {
        let mut ts: Vec<Thread> = threads
            .iter()
            .map(|t| self.thread(t))
            .collect::<Result<_, _>>()?;
        self.run_threads(&mut ts, mem)
    }

    /// Runs threads made by [`Kernel::thread`] to their end (the bench reuses them).
    pub fn run_threads(&self, ts: &mut [Thread], mem: &mut Memory) -> Result<(), RunError> {
        // Each thread costs at least one step, so a run of empty threads ends too.
        self.steps_used.fetch_add(ts.len() as u64, Relaxed);
        loop {
            let mut waiting = 0;
            for (i, t) in ts.iter_mut().enumerate() {
                if t.status == Status::Done {
                    continue;
                }
                self.run_thread(t, i, mem)?;
                if t.status == Status::AtBarrier {
                    waiting += 1;
                }
            }
            if waiting == 0 {
                return Ok(());
            }
            if let Some(c) = mem.check.as_deref_mut() {
                self.check_barrier(ts, c);
                c.barrier();
            }
            for t in ts.iter_mut().filter(|t| t.status == Status::AtBarrier) {
                t.status = Status::Running;
            }
        }
    }

    /// Runs thread `i` until it ends or waits at a barrier, within what is left of the run's
    /// instruction budget.
    fn run_thread(&self, t: &mut Thread, i: usize, mem: &mut Memory) -> Result<(), RunError> {
        let used = self.steps_used.load(Relaxed);
        let limit = t.steps + self.step_limit.saturating_sub(used);
        let before = t.steps;
        if let Some(c) = mem.check.as_deref_mut() {
            c.site.thread = i;
        }
        let done = t.run(&self.routines, mem, limit);
        self.steps_used.fetch_add(t.steps - before, Relaxed);
        done.map_err(|(mut e, pc)| {
            if t.steps > limit {
                e = Fault(format!(
                    "more than {} instructions run (every thread of the run together): the \
                     kernel may not end; raise the budget with `visa run --max-steps N` \
                     (`Kernel::step_limit`)",
                    self.step_limit
                ));
            }
            self.locate(e, t.routine, pc, i)
        })
    }

    /// Instructions run so far on this kernel by every thread (what counts against
    /// [`Kernel::step_limit`]).
    pub fn steps_used(&self) -> u64 {
        self.steps_used.load(Relaxed)
    }

    /// `--check` when every running thread of the group waits at a barrier: each must have
    /// all its work-items there, all must wait at the same barrier, and none may have ended.
    fn check_barrier(&self, ts: &[Thread], c: &mut check::Checker) {
        let at = |i: usize| (ts[i].routine, ts[i].pc.saturating_sub(1));
        let site = |i: usize, lane: Option<u32>| check::Site {
            routine: at(i).0,
            pc: at(i).1,
            thread: i,
            lane,
        };
        let waiting: Vec<usize> = (0..ts.len())
            .filter(|&i| ts[i].status == Status::AtBarrier)
            .collect();
        let Some(&first) = waiting.first() else {
            return;
        };
        for &i in &waiting {
            let missing = ts[i].dispatch & !ts[i].em;
            if missing != 0 {
                let what = format!(
                    "lane(s) {} of thread {i} do not reach this barrier, which lane(s) {} wait at",
                    mask_list(missing),
                    mask_list(ts[i].em & ts[i].dispatch)
                );
                let lane = Some(missing.trailing_zeros());
                c.report(check::Kind::Barrier { what }, site(i, lane));
            }
            if at(i) != at(first) {
                let what = format!(
                    "thread {i} waits at this barrier while thread {first} waits at another \
                     (instruction offset {:#x} of {})",
                    self.offset_of(at(first)),
                    self.routines[at(first).0].name
                );
                c.report(check::Kind::Barrier { what }, site(i, None));
            }
        }
        let ended: Vec<String> = (0..ts.len())
            .filter(|&i| ts[i].status == Status::Done)
            .map(|i| format!("{i}"))
            .collect();
        if !ended.is_empty() {
            let what = format!(
                "thread(s) {} ended without reaching this barrier, which {} thread(s) wait at",
                ended.join(", "),
                waiting.len()
            );
            c.report(check::Kind::Barrier { what }, site(first, None));
        }
    }

    /// The byte offset of instruction `pc` of routine `r`.
    fn offset_of(&self, (r, pc): (usize, usize)) -> u32 {
        self.routines
            .get(r)
            .and_then(|r| r.steps.get(pc))
            .map_or(0, |s| s.offset)
    }

    /// Intel's text of instruction `pc` of routine `r`.
    fn text_of(&self, (r, pc): (usize, usize)) -> String {
        let which = if r == 0 {
            crate::object::verify::RoutineRef::Kernel(self.index)
        } else {
            crate::object::verify::RoutineRef::Function(r - 1)
        };
        self.routines
            .get(r)
            .and_then(|r| r.steps.get(pc))
            .map_or_else(String::new, |s| {
                crate::object::text::instruction_text(self.file, which, (pc, s.inst))
            })
    }

    /// A `--check` finding with its instruction's offset and Intel's text.
    pub fn report(&self, f: &check::Finding) -> Report {
        let place = |s: &check::Site| {
            format!(
                "instruction offset {:#x} of {} `{}`",
                self.offset_of((s.routine, s.pc)),
                self.routines
                    .get(s.routine)
                    .map_or("?", |r| r.name.as_str()),
                self.text_of((s.routine, s.pc))
            )
        };
        let at = (f.site.routine, f.site.pc);
        Report {
            kind: f.kind.name(),
            what: f.kind.describe(&place),
            kernel: self.routines[0].name.clone(),
            routine: self
                .routines
                .get(at.0)
                .map_or_else(String::new, |r| r.name.clone()),
            offset: self.offset_of(at),
            text: self.text_of(at),
            group: f.group,
            thread: f.site.thread,
            lane: f.site.lane,
            address: f.kind.address(),
            count: f.count,
        }
    }

    /// A fault of thread `thread` at instruction `pc` of routine `r`, with Intel's text.
    fn locate(&self, e: Fault, r: usize, pc: usize, thread: usize) -> RunError {
        let routine = &self.routines[r];
        let step = routine.steps.get(pc);
        RunError {
            what: e.0,
            routine: Some(routine.name.clone()),
            offset: step.map(|s| s.offset),
            text: step.map(|_| self.text_of((r, pc))),
            thread: Some(thread),
        }
    }
}

/// Whether an LSC_UNTYPED message is one of its atomics (its `Op` names an `lsc_atomic_*`).
fn is_lsc_atomic(m: &messages::Fields) -> bool {
    m.name == "LSC_UNTYPED" && messages::lsc::is_atomic(m)
}

/// Decodes a routine's instructions into steps: control flow resolved to instruction indices.
fn routine<'f, R: crate::object::Routine>(
    r: &'f R,
    name: &str,
    grf: u32,
    functions: &[Vec<u8>],
    inputs: &[crate::object::InputInfo],
) -> Result<Routine<'f>, RunError> {
    let stream = r.instructions();
    if let Some(stop) = &stream.stop {
        return Err(RunError {
            routine: Some(String::from(name)),
            offset: Some(stop.offset),
            ..RunError::new(format!(
                "an instruction does not decode: {}",
                stop.describe()
            ))
        });
    }
    let layout = Layout::new(r, grf).map_err(|e| RunError {
        routine: Some(String::from(name)),
        ..RunError::new(e)
    })?;
    let fields: Vec<Fields> = stream
        .instructions
        .iter()
        .map(|(_, inst)| {
            let mut f = Fields::default();
            inst.visit_operands(&mut f);
            f
        })
        .collect();
    let labels = label_targets(&stream.instructions, &fields);
    let fcall = |id: u32| {
        r.string(id)
            .and_then(|n| functions.iter().position(|f| f.as_slice() == n))
            .map(|i| i + 1)
    };
    let steps = stream
        .instructions
        .iter()
        .zip(fields)
        .map(|((offset, inst), f)| Step {
            offset: *offset,
            inst,
            flow: flow(inst, &f, &labels, &fcall),
            exec: ExecSize(f.exec.unwrap_or(0)),
            pred: f.pred,
            address_of: f.src0.filter(|_| inst.name() == "ADDR_ADD"),
            wide: inst.name() == "MADW",
            fast: fast::compile(inst, &layout),
            message: messages::is_memory(inst.name()).then(|| {
                let mut m = messages::Fields::new(inst.name());
                inst.visit_operands(&mut m);
                alloc::boxed::Box::new(m)
            }),
            state: None,
            refused: None,
        })
        .collect();
    Ok(Routine {
        name: String::from(name),
        layout,
        steps,
        surfaces: crate::object::PREDEFINED_SURFACES as usize + r.surface_info().len(),
        // S31 is reserved for bindless samplers (4_visa_header.md, "Sampler Variables"): the
        // code moves a handle to it without declaring it.
        samplers: r.sampler_info().len().max(32),
        inputs: inputs
            .iter()
            .map(|i| (i.kind as u8, i.id, i.offset, i.size))
            .collect(),
    })
}

/// Gives the steps of `r` what its text held beside their instructions
/// ([`crate::object::RoutineTextOnly`]): the sampler and surface variables, which the steps
/// use, and what a step cannot run with. IFCALL's `.uniform` and `.noreturn` change nothing
/// (IFCALL does not run), nor does LSC's `.ov`, a cache hint (`visa/BuildIR.h`: "overfetch
/// for cacheable load", which reads the same data).
fn place_text_only(r: &mut Routine<'_>, text: Option<&crate::object::RoutineTextOnly>) {
    let Some(t) = text else { return };
    for (n, s) in &t.state_variables {
        if let Some(step) = r.steps.get_mut(*n) {
            step.state = Some(*s);
        }
    }
    let msaa = t
        .modifiers
        .iter()
        .filter(|(_, m)| m.contains(crate::object::Modifiers::MSAA))
        .map(|(n, _)| (*n, MSAA_REFUSED));
    let paired = t.paired_resources.iter().map(|(n, _)| (*n, PAIRED_REFUSED));
    for (n, why) in msaa.chain(paired) {
        if let Some(step) = r.steps.get_mut(n) {
            step.refused = Some(why);
        }
    }
}

/// Why an LSC typed atomic with `.msaa` does not run.
const MSAA_REFUSED: &str = "`.msaa` (IGC 2.x's text only: no doc's layout has it) does not run: IGC's code generator passes it to the typed atomic's descriptor and sets no bit for it, and no doc says what it changes";

/// Why a 3D sampler message with a paired resource other than `%null` does not run.
const PAIRED_REFUSED: &str = "a paired resource other than %null (IGC 2.x's text only: no doc's layout has it) does not run: IGC puts it into the sampler message's header (sampler feedback), and no doc says what the sampler does with it";

/// Label id → the index of the LABEL/SUBROUTINE instruction that marks it.
fn label_targets(instructions: &[(u32, Instruction)], fields: &[Fields]) -> Vec<Option<usize>> {
    let mut labels = Vec::new();
    for (i, ((_, inst), f)) in instructions.iter().zip(fields).enumerate() {
        if matches!(inst.name(), "LABEL" | "SUBROUTINE") {
            if let Some(l) = f.label {
                if labels.len() <= l as usize {
                    labels.resize(l as usize + 1, None);
                }
                labels[l as usize] = Some(i);
            }
        }
    }
    labels
}

/// What an instruction does to control flow; `fcall` gives the routine index (functions from
/// 1) of a function name's string id.
fn flow(
    inst: &Instruction,
    f: &Fields,
    labels: &[Option<usize>],
    fcall: &dyn Fn(u32) -> Option<usize>,
) -> Flow {
    let to = |make: fn(usize) -> Flow| match f
        .label
        .and_then(|l| labels.get(l as usize).copied().flatten())
    {
        Some(t) => make(t),
        None => Flow::BadLabel(f.label.unwrap_or(u32::MAX)),
    };
    match inst.name() {
        "LABEL" | "SUBROUTINE" => Flow::Label,
        "GOTO" => to(Flow::Goto),
        "JMP" => to(Flow::Jmp),
        "CALL" => to(Flow::Call),
        "RET" => Flow::Ret,
        "FRET" => Flow::Fret,
        "FCALL" => Flow::Fcall(f.func.and_then(fcall)),
        "BARRIER" => Flow::Barrier,
        // YIELD.md: "Causes the EU to switch to another thread. The hardware selects the
        // thread to yield to": a scheduling hint, which changes no result.
        "YIELD" => Flow::Label,
        // LIFETIME.md: "Marks the start/end of a variable's lifetime", and "the behavior is
        // undefined if the variable or one of its aliases is referenced ... outside the
        // lifetime markers": a hint to the register allocator; the variable keeps its bytes.
        "LIFETIME" => Flow::Label,
        // Bit 0: 1 signal, 0 wait. Run in turn, a signal needs nothing; a wait is a barrier.
        "SBARRIER" if f.mode.is_some_and(|m| m & 1 == 1) => Flow::Label,
        "SBARRIER" => Flow::Barrier,
        _ => Flow::None,
    }
}

/// Runs one instruction through the generated bridge: its lane function, or
/// [`crate::runtime::Lanes::prose`] when its doc has no pseudo-code the generator reads.
#[inline]
fn interpret(inst: &Instruction, x: &mut exec::Exec<'_>) -> Result<(), Fault> {
    crate::generated::interpret(inst, x)
}

/// A named function of the pseudo-code (`sin`, `min`, `rel_op`...): the runtime's.
fn named_function(name: &'static str, args: &[Value]) -> Result<Value, Fault> {
    crate::runtime::functions::call(name, args).ok_or_else(|| {
        Fault(format!(
            "the named function `{name}` is not available for these arguments"
        ))
    })
}
