//! Running a thread: the [`Lanes`] of one instruction ([`Exec`]), and control flow with SIMD
//! divergence (`3_execution_model.md`, "Control Flow").
//!
//! - GOTO: a forward goto turns the jumping channels (active and predicated) off until
//!   execution reaches the label; when no channel is left, execution goes to the next program
//!   point where channels wait. A backward goto jumps when any channel jumps; the others wait
//!   at the next instruction. A goto of exec size 1 moves every active channel (IGC writes
//!   `goto (M1, 1) L` for a branch of the whole thread inside divergent code).
//! - JMP: uniform; jumps when its predicate (at the mask control's first channel) holds.
//! - CALL/FCALL: the call mask and the execution mask become the active channels that are
//!   predicated (every active channel for exec size 1); RET/FRET turn off the active
//!   predicated channels and return when the call mask is empty, restoring the caller's masks.
//!   FCALL enters a fresh activation of the function (its own variables; `%arg`, `%sp`, `%fp`
//!   and the rest of the predefined block copied in); FRET copies the predefined block
//!   (`%retval`, `%sp`, `%fp`, `%cr0`) back. A RET with no call to return from ends the thread.
//! - BARRIER: the thread stops until every thread of the group reaches one (see
//!   [`super::Kernel::run_group`]).

use super::convert::FloatMode;
use super::fast::Fast;
use super::layout::Layout;
use super::limits::{MAX_CALL_DEPTH, MAX_THREAD_REGISTER_BYTES};
use super::memory::{Memory, MemoryError};
use super::thread::{evaluate_chen, lanes, Core, Fault, Regs};
use super::Routine;
use crate::generated::Instruction;
use crate::runtime::{
    DataType, ExecSize, Lanes, PredicateControl, RawOperand, Value, VectorOperand,
};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// What an instruction does to control flow, read once when the kernel is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Runs through its lane function (or a memory message).
    None,
    /// LABEL, SUBROUTINE: a place, nothing to run.
    Label,
    Goto(usize),
    Jmp(usize),
    Call(usize),
    Ret,
    /// FCALL of routine index `Some(r)` (`None`: the file has no function of that name).
    Fcall(Option<usize>),
    Fret,
    Barrier,
    /// A label id that names no LABEL/SUBROUTINE of the routine.
    BadLabel(u32),
}

/// One instruction of a routine, decoded.
pub struct Step<'f> {
    /// Byte offset in the routine's instruction stream.
    pub offset: u32,
    pub inst: &'f Instruction,
    pub flow: Flow,
    pub exec: ExecSize,
    pub pred: Option<PredicateControl>,
    pub address_of: Option<VectorOperand>,
    /// MADW: 64-bit results, low dwords then high dwords (see `thread::Inst::wide`).
    pub wide: bool,
    /// The instruction compiled for the fast path, when it has one ([`super::fast`]).
    pub fast: Option<alloc::boxed::Box<Fast>>,
    /// A memory instruction's fields by doc name, read once when the kernel loads.
    pub message: Option<alloc::boxed::Box<super::messages::Fields>>,
    /// Its sampler and surface variables, when its text gave them so
    /// ([`crate::object::RoutineTextOnly::state_variables`]).
    pub state: Option<crate::object::StateVariables>,
    /// Why it does not run, when its text held something beside it whose meaning no doc or
    /// source at hand gives (`.msaa`, a paired resource: [`crate::object::RoutineTextOnly`]).
    pub refused: Option<&'static str>,
}

/// A call being run: where to return and the caller's masks.
struct Call {
    ret_pc: usize,
    em: u32,
    call_mask: u32,
    waiting: Vec<(usize, u32)>,
    /// FCALL: the caller's routine and registers.
    caller: Option<(usize, Regs)>,
}

/// Where a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    AtBarrier,
    Done,
}

/// One thread of a work-group.
pub struct Thread {
    pub routine: usize,
    pub regs: Regs,
    pub pc: usize,
    pub em: u32,
    pub call_mask: u32,
    /// Channels waiting to be re-activated, by instruction index (join points of gotos).
    waiting: Vec<(usize, u32)>,
    calls: Vec<Call>,
    pub mode: FloatMode,
    pub status: Status,
    /// Bytes of the predefined block (the same in every routine: [`Layout`]).
    predefined: usize,
    /// Instructions run (for run limits).
    pub steps: u64,
    /// Lane operations run: the enabled channels of each instruction that is not control flow.
    pub lane_ops: u64,
    /// The channels the thread was dispatched with (its work-items).
    pub dispatch: u32,
}

impl Thread {
    /// A thread at the start of routine 0 with `regs`, channels `dispatch` on.
    pub fn new(regs: Regs, dispatch: u32, layout: &Layout) -> Thread {
        Thread {
            routine: 0,
            regs,
            pc: 0,
            em: dispatch,
            call_mask: dispatch,
            waiting: Vec::new(),
            calls: Vec::new(),
            mode: FloatMode::from_cr0(0),
            status: Status::Running,
            predefined: layout.predefined_bytes as usize,
            steps: 0,
            lane_ops: 0,
            dispatch,
        }
    }

    /// This thread at the start of routine 0 again, with channels `dispatch` on (its
    /// registers are the caller's to reset).
    pub fn restart(&mut self, dispatch: u32) {
        self.routine = 0;
        self.pc = 0;
        self.em = dispatch;
        self.call_mask = dispatch;
        self.waiting.clear();
        self.calls.clear();
        self.mode = FloatMode::from_cr0(0);
        self.status = Status::Running;
        self.steps = 0;
        self.lane_ops = 0;
        self.dispatch = dispatch;
    }

    fn wait_at(&mut self, pc: usize, mask: u32) {
        if mask == 0 {
            return;
        }
        match self.waiting.iter_mut().find(|(p, _)| *p == pc) {
            Some(w) => w.1 |= mask,
            None => self.waiting.push((pc, mask)),
        }
    }

    /// Re-activates the channels waiting at the current instruction.
    #[inline]
    pub fn join(&mut self) {
        if self.waiting.is_empty() {
            return;
        }
        let pc = self.pc;
        if let Some(i) = self.waiting.iter().position(|(p, _)| *p == pc) {
            self.em |= self.waiting.swap_remove(i).1;
        }
    }

    /// No channel is active: go to the next point where channels wait (after `pc`, else the
    /// first), or on with none when nothing waits.
    fn resume(&mut self, next: usize) {
        let after = self
            .waiting
            .iter()
            .filter(|(p, _)| *p >= next)
            .map(|(p, _)| *p)
            .min();
        let any = self.waiting.iter().map(|(p, _)| *p).min();
        self.pc = after.or(any).unwrap_or(next);
    }

    /// Runs until the thread ends or stops at a barrier.
    pub fn run(
        &mut self,
        routines: &[Routine<'_>],
        mem: &mut Memory,
        limit: u64,
    ) -> Result<(), (Fault, usize)> {
        self.status = Status::Running;
        while self.status == Status::Running {
            let r = &routines[self.routine];
            let Some(step) = r.steps.get(self.pc) else {
                // Past the last instruction: the routine returns with every channel.
                self.ret_all().map_err(|e| (e, self.pc))?;
                continue;
            };
            self.join();
            self.steps += 1;
            if self.steps > limit {
                return Err((
                    Fault(format!(
                        "more than {limit} instructions run: the thread does not end"
                    )),
                    self.pc,
                ));
            }
            let here = self.pc;
            if let Some(f) = &step.fast {
                let ran = f.run(&mut self.regs, self.em, self.mode);
                if let Some(chen) = ran.map_err(|e| (e, here))? {
                    self.lane_ops += u64::from(chen.count_ones());
                    self.pc += 1;
                    continue;
                }
            }
            self.step(r, step, routines, mem).map_err(|e| (e, here))?;
        }
        Ok(())
    }

    fn step(
        &mut self,
        r: &Routine<'_>,
        step: &Step<'_>,
        routines: &[Routine<'_>],
        mem: &mut Memory,
    ) -> Result<(), Fault> {
        if let Some(why) = step.refused {
            return Err(Fault(String::from(why)));
        }
        if step.flow != Flow::None {
            return self.control(step.flow, step.exec, step.pred, routines);
        }
        let mut x = Exec {
            core: Core::new(&r.layout, &mut self.regs, self.em, self.mode),
            mem: Some(mem),
            address_of: step.address_of,
            wide: step.wide,
            at: (self.routine, self.pc),
            message: step.message.as_deref(),
        };
        match &step.state {
            None => super::interpret(step.inst, &mut x)?,
            Some(s) => {
                let before = x.core.place_state(s)?;
                let ran = super::interpret(step.inst, &mut x);
                x.core.restore_state(before);
                ran?
            }
        }
        self.mode = x.core.mode;
        self.lane_ops += u64::from(x.core.inst.chen.count_ones());
        self.pc += 1;
        Ok(())
    }

    /// The channels a control-flow instruction moves: the active predicated ones (all active
    /// ones at exec size 1 without a predicate, or when its predicate holds on its first
    /// channel), in the 32-channel positions.
    fn moving(&self, exec: ExecSize, pred: Option<PredicateControl>) -> Result<u32, Fault> {
        let i = evaluate_chen(exec, pred, self.em, &self.regs.preds)?;
        if i.n == 1 {
            return Ok(if i.pmask & 1 != 0 { self.em } else { 0 });
        }
        Ok(i.chen << i.offset)
    }

    /// Runs a control-flow instruction at `self.pc`: moves `pc` and the masks.
    pub fn control(
        &mut self,
        flow: Flow,
        exec: ExecSize,
        pred: Option<PredicateControl>,
        routines: &[Routine<'_>],
    ) -> Result<(), Fault> {
        let pc = self.pc;
        match flow {
            Flow::None | Flow::Label => self.pc += 1,
            Flow::BadLabel(id) => {
                return Err(Fault(format!(
                    "label {id} marks no instruction of the routine"
                )))
            }
            Flow::Goto(target) => {
                let j = self.moving(exec, pred)?;
                self.goto(target, j);
            }
            Flow::Jmp(target) => {
                let i = evaluate_chen(exec, pred, self.em, &self.regs.preds)?;
                self.pc = if i.pmask & 1 != 0 { target } else { pc + 1 };
            }
            Flow::Call(target) => {
                let c = self.moving(exec, pred)?;
                if c == 0 {
                    self.pc += 1;
                } else {
                    self.enter(c, pc + 1, None)?;
                    self.pc = target;
                }
            }
            Flow::Fcall(callee) => {
                let c = self.moving(exec, pred)?;
                if c == 0 {
                    self.pc += 1;
                } else {
                    self.fcall(c, callee, routines)?;
                }
            }
            Flow::Ret | Flow::Fret => {
                let r = self.moving(exec, pred)?;
                self.ret(r)?;
            }
            Flow::Barrier => {
                self.status = Status::AtBarrier;
                self.pc += 1;
            }
        }
        Ok(())
    }

    /// GOTO of channels `j` to `target`: forward, they wait there; backward (a loop), the
    /// others wait after the GOTO.
    #[inline]
    fn goto(&mut self, target: usize, j: u32) {
        let pc = self.pc;
        if target > pc {
            self.wait_at(target, j);
            self.em &= !j;
            if self.em == 0 {
                self.resume(pc + 1);
            } else {
                self.pc += 1;
            }
        } else if j != 0 {
            let stay = self.em & !j;
            self.wait_at(pc + 1, stay);
            self.em = j;
            self.pc = target;
        } else {
            self.pc += 1;
        }
    }

    /// FCALL of routine `callee` by channels `c`: the callee gets fresh registers with the
    /// caller's predefined ones, and the caller's are kept for its return.
    fn fcall(
        &mut self,
        c: u32,
        callee: Option<usize>,
        routines: &[Routine<'_>],
    ) -> Result<(), Fault> {
        let Some(callee) = callee else {
            return Err(Fault(String::from(
                "FCALL of a function the file does not have",
            )));
        };
        let Some(r) = routines.get(callee) else {
            return Err(Fault(format!(
                "FCALL of routine {callee}, which is not loaded"
            )));
        };
        let lay = &r.layout;
        let mut regs = r.fresh_regs();
        let n = self
            .predefined
            .min(lay.bytes as usize)
            .min(self.regs.grf.len());
        regs.grf[..n].copy_from_slice(&self.regs.grf[..n]);
        let held = self.held_registers() + regs.grf.len();
        if held > MAX_THREAD_REGISTER_BYTES {
            return Err(Fault(format!(
                "FCALL of `{}` would hold {held} bytes of registers in this thread, past the \
                 {MAX_THREAD_REGISTER_BYTES} a thread may (`machine::limits::MAX_THREAD_REGISTER_BYTES`): \
                 the calls nest too deep",
                r.name
            )));
        }
        let caller = core::mem::replace(&mut self.regs, regs);
        self.enter(c, self.pc + 1, Some((self.routine, caller)))?;
        self.routine = callee;
        self.pc = 0;
        Ok(())
    }

    /// RET or FRET of channels `r`: the call ends when none of its channels is left, or when
    /// none runs and none waits.
    fn ret(&mut self, r: u32) -> Result<(), Fault> {
        self.em &= !r;
        self.call_mask &= !r;
        if self.call_mask == 0 || self.em == 0 && self.waiting.is_empty() {
            self.leave()?;
        } else if self.em == 0 {
            self.resume(self.pc + 1);
        } else {
            self.pc += 1;
        }
        Ok(())
    }

    /// Register bytes this thread holds: its activation and the callers' FCALL keeps.
    fn held_registers(&self) -> usize {
        let callers: usize = self
            .calls
            .iter()
            .filter_map(|c| c.caller.as_ref())
            .map(|(_, r)| r.grf.len())
            .sum();
        callers + self.regs.grf.len()
    }

    fn enter(
        &mut self,
        mask: u32,
        ret_pc: usize,
        caller: Option<(usize, Regs)>,
    ) -> Result<(), Fault> {
        if self.calls.len() >= MAX_CALL_DEPTH {
            return Err(Fault(format!(
                "a call nested {} deep: at most {MAX_CALL_DEPTH} calls may be open in a thread \
                 (`machine::limits::MAX_CALL_DEPTH`); runaway recursion?",
                self.calls.len() + 1
            )));
        }
        self.calls.push(Call {
            ret_pc,
            em: self.em,
            call_mask: self.call_mask,
            waiting: core::mem::take(&mut self.waiting),
            caller,
        });
        self.em = mask;
        self.call_mask = mask;
        Ok(())
    }

    /// Returns from the current call (or ends the thread when there is none).
    fn leave(&mut self) -> Result<(), Fault> {
        let Some(c) = self.calls.pop() else {
            self.status = Status::Done;
            return Ok(());
        };
        if let Some((routine, mut regs)) = c.caller {
            let n = self.predefined.min(regs.grf.len()).min(self.regs.grf.len());
            regs.grf[..n].copy_from_slice(&self.regs.grf[..n]);
            self.regs = regs;
            self.routine = routine;
        }
        self.pc = c.ret_pc;
        self.em = c.em;
        self.call_mask = c.call_mask;
        self.waiting = c.waiting;
        Ok(())
    }

    fn ret_all(&mut self) -> Result<(), Fault> {
        self.em = 0;
        self.call_mask = 0;
        self.leave()
    }
}

/// The [`Lanes`] of one instruction.
pub struct Exec<'a> {
    pub core: Core<'a>,
    /// Taken while a memory message runs (it gets `self` and the memory apart).
    mem: Option<&'a mut Memory>,
    address_of: Option<VectorOperand>,
    wide: bool,
    /// The routine and instruction index running (where `--check` reports a message).
    at: (usize, usize),
    /// A memory instruction's fields, read when the kernel loaded.
    message: Option<&'a super::messages::Fields>,
}

impl From<MemoryError> for Fault {
    fn from(e: MemoryError) -> Fault {
        Fault(format!("{e}"))
    }
}

impl super::messages::MessageLanes for Exec<'_> {
    fn surface(&mut self, index: u32) -> Result<u32, Fault> {
        self.core.surface(index)
    }
    fn sampler(&mut self, index: u32) -> Result<u32, Fault> {
        self.core.sampler(index)
    }
    #[inline]
    fn raw_bits(&mut self, op: &RawOperand, size: u32, index: u32) -> Result<u64, Fault> {
        self.core.raw_bits(op, size, index)
    }
    #[inline]
    fn put_raw_bits(
        &mut self,
        op: &RawOperand,
        size: u32,
        index: u32,
        bits: u64,
    ) -> Result<(), Fault> {
        self.core.put_raw_bits(op, size, index, bits)
    }
}

impl Lanes for Exec<'_> {
    type Error = Fault;

    #[inline]
    fn begin(&mut self, exec_size: ExecSize, pred: Option<PredicateControl>) -> Result<u32, Fault> {
        let mut i = evaluate_chen(exec_size, pred, self.core.em, &self.core.regs.preds)?;
        i.address_of = self.address_of;
        i.wide = self.wide;
        self.core.inst = i;
        Ok(i.n)
    }

    #[inline(always)]
    fn enabled(&self, lane: u32) -> bool {
        lane < 32 && self.core.inst.chen >> lane & 1 != 0
    }

    #[inline(always)]
    fn enabled_by_mask(&self, lane: u32) -> bool {
        lane < 32 && self.core.inst.em >> lane & 1 != 0
    }

    #[inline(always)]
    fn predicate(&self, lane: u32) -> bool {
        lane < 32 && self.core.inst.pmask >> lane & 1 != 0
    }

    #[inline(always)]
    fn enabled_lanes(&self, n: u32) -> u32 {
        self.core.inst.chen & lanes(n)
    }

    #[inline(always)]
    fn enabled_by_mask_lanes(&self, n: u32) -> u32 {
        self.core.inst.em & lanes(n)
    }

    #[inline(always)]
    fn read(&mut self, op: &VectorOperand, lane: u32) -> Result<Value, Fault> {
        self.core.read(op, lane)
    }

    #[inline(always)]
    fn read_lanes(
        &mut self,
        op: &VectorOperand,
        mask: u32,
        out: &mut [Value],
    ) -> Result<(), Fault> {
        self.core.read_lanes(op, mask, out)
    }

    #[inline(always)]
    fn write_lanes(
        &mut self,
        op: &VectorOperand,
        mask: u32,
        values: &[Value],
    ) -> Result<(), Fault> {
        self.core.write_lanes(op, mask, values)
    }

    #[inline(always)]
    fn write(&mut self, op: &VectorOperand, lane: u32, value: Value) -> Result<(), Fault> {
        self.core.write(op, lane, value)
    }

    fn element_type(&mut self, op: &VectorOperand, lane: u32) -> Result<DataType, Fault> {
        self.core.element_type(op, lane)
    }

    fn read_raw(&mut self, op: &RawOperand, ty: DataType, index: u32) -> Result<Value, Fault> {
        self.core.read_raw(op, ty, index)
    }

    fn write_raw(
        &mut self,
        op: &RawOperand,
        ty: DataType,
        index: u32,
        value: Value,
    ) -> Result<(), Fault> {
        self.core.write_raw(op, ty, index, value)
    }

    fn call(&mut self, name: &'static str, args: &[Value]) -> Result<Value, Fault> {
        super::named_function(name, args)
    }

    /// Control flow never reaches here (the run loop runs it from the [`Flow`] read at load);
    /// memory instructions go to the messages; anything else cannot run yet.
    fn prose(&mut self, inst: &Instruction) -> Result<(), Fault> {
        let Some(mem) = self.mem.take() else {
            return Err(Fault(String::from(
                "a memory message inside a memory message",
            )));
        };
        mem.at_instruction(self.at.0, self.at.1);
        let done = match self.message {
            Some(f) => Some(super::messages::run_fields(f, self, mem)),
            None => super::messages::run(inst, self, mem),
        };
        self.mem = Some(mem);
        match done {
            Some(r) => r,
            None => Err(Fault(format!(
                "{} cannot run yet: its doc gives no pseudo-code the generator reads, and the machine has no hand-written implementation",
                inst.name()
            ))),
        }
    }
}

/// Channels `0..n` on (the dispatch mask of a thread with `n` live lanes).
pub fn dispatch_mask(n: u32) -> u32 {
    lanes(n)
}

impl Routine<'_> {
    /// Zeroed registers of a new activation.
    pub fn fresh_regs(&self) -> Regs {
        Regs::new(&self.layout, self.surfaces, self.samplers)
    }
}
