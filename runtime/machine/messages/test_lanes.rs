//! A tiny stand-in machine for the message tests: variables are byte arrays (raw operands
//! index them by element), immediates and `V(0,col)` scalars are the only vector operands, and
//! every lane below the exec size runs unless `off` says otherwise.

use super::{Fields, MessageLanes};
use crate::machine::memory::MemoryError;
use crate::runtime::{
    DataType, ExecSize, Lanes, PredicateControl, RawOperand, Value, VectorOperand,
};
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

#[derive(Debug, PartialEq)]
pub struct TestError(pub String);

impl From<MemoryError> for TestError {
    fn from(e: MemoryError) -> Self {
        TestError(e.to_string())
    }
}

#[derive(Default)]
pub struct TestLanes {
    /// Variable id → bytes (and the element type scalars are read as).
    pub vars: BTreeMap<u32, (Vec<u8>, DataType)>,
    /// Surface variable index → binding-table index.
    pub surfaces: BTreeMap<u32, u32>,
    pub samplers: BTreeMap<u32, u32>,
    /// Lanes masked off.
    pub off: Vec<u32>,
    pub lanes: u32,
}

impl TestLanes {
    pub fn var(&mut self, id: u32, bytes: Vec<u8>, ty: DataType) {
        self.vars.insert(id, (bytes, ty));
    }
    pub fn zeros(&mut self, id: u32, n: usize) {
        self.var(id, vec![0; n], DataType::Ud);
    }
    pub fn dwords(&mut self, id: u32, v: &[u32]) {
        self.var(
            id,
            v.iter().flat_map(|d| d.to_le_bytes()).collect(),
            DataType::Ud,
        );
    }
    pub fn qwords(&mut self, id: u32, v: &[u64]) {
        self.var(
            id,
            v.iter().flat_map(|d| d.to_le_bytes()).collect(),
            DataType::Uq,
        );
    }
    pub fn dword(&self, id: u32, i: usize) -> u32 {
        let b = &self.vars[&id].0;
        u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap())
    }
    pub fn bytes(&self, id: u32) -> &[u8] {
        &self.vars[&id].0
    }
}

fn ty_bits(v: Value, ty: DataType) -> u64 {
    let mask = if ty.size() >= 8 {
        u64::MAX
    } else {
        (1u64 << (ty.size() * 8)) - 1
    };
    super::to_bits(v) & mask
}

impl Lanes for TestLanes {
    type Error = TestError;
    fn begin(&mut self, exec: ExecSize, _pred: Option<PredicateControl>) -> Result<u32, TestError> {
        self.lanes = exec
            .elements()
            .ok_or_else(|| TestError("exec size".into()))?;
        Ok(self.lanes)
    }
    fn enabled(&self, lane: u32) -> bool {
        lane < self.lanes && !self.off.contains(&lane)
    }
    fn enabled_by_mask(&self, lane: u32) -> bool {
        self.enabled(lane)
    }
    fn predicate(&self, _lane: u32) -> bool {
        true
    }
    fn read(&mut self, op: &VectorOperand, _lane: u32) -> Result<Value, TestError> {
        match op {
            VectorOperand::Immediate(i) => Ok(Value::Int(i128::from(i.value), i.ty)),
            VectorOperand::General { id, col_offset, .. } => {
                let (b, ty) = self
                    .vars
                    .get(id)
                    .ok_or_else(|| TestError("no var".into()))?;
                let s = ty.size();
                let at = usize::from(*col_offset) * s;
                let mut v = [0u8; 8];
                v[..s].copy_from_slice(&b[at..at + s]);
                Ok(Value::Int(i128::from(u64::from_le_bytes(v)), *ty))
            }
            _ => Err(TestError("operand kind".into())),
        }
    }
    fn write(&mut self, _op: &VectorOperand, _lane: u32, _v: Value) -> Result<(), TestError> {
        Err(TestError("write".into()))
    }
    fn read_raw(&mut self, op: &RawOperand, ty: DataType, index: u32) -> Result<Value, TestError> {
        let (b, _) = self
            .vars
            .get(&op.id)
            .ok_or_else(|| TestError(alloc::format!("no V{}", op.id)))?;
        let s = ty.size();
        let at = usize::from(op.offset) + index as usize * s;
        let src = b
            .get(at..at + s)
            .ok_or_else(|| TestError(alloc::format!("V{} element {index} out of range", op.id)))?;
        let mut v = [0u8; 8];
        v[..s].copy_from_slice(src);
        Ok(Value::Int(i128::from(u64::from_le_bytes(v)), ty))
    }
    fn write_raw(
        &mut self,
        op: &RawOperand,
        ty: DataType,
        index: u32,
        value: Value,
    ) -> Result<(), TestError> {
        let (b, _) = self
            .vars
            .get_mut(&op.id)
            .ok_or_else(|| TestError(alloc::format!("no V{}", op.id)))?;
        let s = ty.size();
        let at = usize::from(op.offset) + index as usize * s;
        let dst = b
            .get_mut(at..at + s)
            .ok_or_else(|| TestError(alloc::format!("V{} element {index} out of range", op.id)))?;
        dst.copy_from_slice(&ty_bits(value, ty).to_le_bytes()[..s]);
        Ok(())
    }
    fn call(&mut self, name: &'static str, _args: &[Value]) -> Result<Value, TestError> {
        Err(TestError(name.into()))
    }
    fn prose(&mut self, inst: &crate::generated::Instruction) -> Result<(), TestError> {
        Err(TestError(inst.name().into()))
    }
}

impl MessageLanes for TestLanes {
    fn surface(&mut self, index: u32) -> Result<u32, TestError> {
        self.surfaces
            .get(&index)
            .copied()
            .ok_or_else(|| TestError(alloc::format!("T{index} unset")))
    }
    fn sampler(&mut self, index: u32) -> Result<u32, TestError> {
        self.samplers
            .get(&index)
            .copied()
            .ok_or_else(|| TestError(alloc::format!("S{index} unset")))
    }
}

/// Fields built by hand: `ints`, `vectors` and `raws` by doc name.
pub fn fields(
    name: &'static str,
    exec: Option<u8>,
    ints: &[(&'static str, u64)],
    vectors: &[(&'static str, VectorOperand)],
    raws: &[(&'static str, u32)],
) -> Fields {
    let mut f = Fields::new(name);
    f.exec_size = exec;
    f.ints = ints.to_vec();
    f.vectors = vectors.to_vec();
    f.raws = raws
        .iter()
        .map(|&(n, id)| (n, RawOperand { id, offset: 0 }))
        .collect();
    f
}

/// An immediate UD.
pub fn ud(v: u64) -> VectorOperand {
    VectorOperand::Immediate(crate::runtime::Immediate {
        ty: DataType::Ud,
        value: v,
    })
}

/// An immediate UQ.
pub fn uq(v: u64) -> VectorOperand {
    VectorOperand::Immediate(crate::runtime::Immediate {
        ty: DataType::Uq,
        value: v,
    })
}
