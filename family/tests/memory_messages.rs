//! Every memory instruction Intel's compiler wrote (our OpenCL fixtures for acm-g10 rev 0,
//! acm-g10 and tgllp, and `../shared/real-kernels/dg2`) runs through
//! `visa::machine::messages::run` with its fields read by doc name: on a stand-in machine
//! whose registers hold an address that lands in a buffer (bound at every binding-table index
//! and placed at the first stateless address), each one runs, or is an error naming a form
//! this machine does not run yet (block2d). A field the code asks for under a
//! name the docs do not use would fail here.

#![cfg(not(family_absent))]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use visa::machine::image::{Image, ImageFormat};
use visa::machine::memory::{Memory, MemoryError, FIRST_BASE};
use visa::machine::messages::{run, MessageLanes};
use visa::machine::sampler::SamplerState;
use visa::object::File;
use visa::runtime::{
    DataType, ExecSize, Lanes, PredicateControl, RawOperand, Value, VectorOperand,
};
use visa::Instruction;

#[derive(Debug)]
struct Failed(String);

impl From<MemoryError> for Failed {
    fn from(e: MemoryError) -> Self {
        Failed(e.to_string())
    }
}

/// Every register element reads as [`FIRST_BASE`]: as a 64-bit address it is the start of the
/// buffer, as a 32-bit offset (its low half) zero.
struct StandIn {
    lanes: u32,
    writes: usize,
}

impl Lanes for StandIn {
    type Error = Failed;
    fn begin(&mut self, exec: ExecSize, _pred: Option<PredicateControl>) -> Result<u32, Failed> {
        self.lanes = exec.elements().ok_or_else(|| Failed("exec size".into()))?;
        Ok(self.lanes)
    }
    fn enabled(&self, lane: u32) -> bool {
        lane < self.lanes
    }
    fn enabled_by_mask(&self, lane: u32) -> bool {
        lane < self.lanes
    }
    fn predicate(&self, _lane: u32) -> bool {
        true
    }
    fn read(&mut self, _op: &VectorOperand, _lane: u32) -> Result<Value, Failed> {
        Ok(Value::Int(i128::from(FIRST_BASE), DataType::Uq))
    }
    fn write(&mut self, _op: &VectorOperand, _lane: u32, _v: Value) -> Result<(), Failed> {
        Err(Failed("a memory instruction wrote a vector operand".into()))
    }
    fn read_raw(&mut self, _op: &RawOperand, ty: DataType, _i: u32) -> Result<Value, Failed> {
        Ok(Value::Int(i128::from(FIRST_BASE), ty))
    }
    fn write_raw(
        &mut self,
        _op: &RawOperand,
        _ty: DataType,
        _i: u32,
        _v: Value,
    ) -> Result<(), Failed> {
        self.writes += 1;
        Ok(())
    }
    fn call(&mut self, name: &'static str, _args: &[Value]) -> Result<Value, Failed> {
        Err(Failed(format!("call {name}")))
    }
    fn prose(&mut self, inst: &Instruction) -> Result<(), Failed> {
        Err(Failed(format!("prose {}", inst.name())))
    }
}

impl MessageLanes for StandIn {
    fn surface(&mut self, _index: u32) -> Result<u32, Failed> {
        Ok(0)
    }
    fn sampler(&mut self, _index: u32) -> Result<u32, Failed> {
        Ok(0)
    }
}

fn repo() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("VISA_REPO")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let found = candidates
        .into_iter()
        .find(|d| d.join("tests/ocl/fixtures").is_dir());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "tests/ocl/fixtures not found (set VISA_REPO); CI is set"
        );
        println!("skipped: tests/ocl/fixtures not found; set VISA_REPO to the repository");
    }
    found
}

fn isa_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "isa"))
        .collect();
    v.sort();
    v
}

/// Forms not run yet, as the error names them.
const NOT_YET: &[&str] = &["lsc_load_block2d", "lsc_store_block2d"];

/// The typed-surface messages, which need an image bound (and 3D_SAMPLE a sampler).
const TYPED: &[&str] = &["SCATTER4_TYPED", "GATHER4_TYPED", "3D_LOAD", "3D_SAMPLE"];

#[test]
fn every_memory_instruction_of_intel_kernels_runs_by_doc_field_names() {
    let Some(repo) = repo() else { return };
    let mut files = Vec::new();
    for d in ["acm-g10-rev0", "acm-g10", "tgllp"] {
        files.extend(isa_files(&repo.join("tests/ocl/fixtures").join(d)));
    }
    if let Some(shared) = support::shared() {
        files.extend(support::dg2_isa_files(&shared));
    }
    let mut ran: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut not_yet: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in &files {
        let file = File::parse(&std::fs::read(path).unwrap()).unwrap();
        let streams = file
            .kernels
            .iter()
            .map(|k| &k.data.instructions)
            .chain(file.functions.iter().map(|f| &f.data.instructions));
        for stream in streams {
            for (at, inst) in &stream.instructions {
                let mut mem = Memory::new(32);
                // Typed messages get an image at index 0 (coordinates read as 0: in bounds).
                let b = if TYPED.contains(&inst.name()) {
                    let image = Image::packed(64, 64, 1, ImageFormat::parse("rgba-f32").unwrap());
                    mem.add_image(image, vec![0; 1 << 16]).unwrap()
                } else {
                    mem.add_buffer(vec![0; 1 << 16]).unwrap()
                };
                mem.bind(0, b);
                mem.bind_sampler(0, SamplerState::parse("normalized,repeat,linear").unwrap());
                mem.reset_slm(1 << 16);
                mem.reset_scratch(1 << 16);
                let mut l = StandIn {
                    lanes: 0,
                    writes: 0,
                };
                match run(inst, &mut l, &mut mem) {
                    None => {}
                    Some(Ok(())) => *ran.entry(inst.name()).or_default() += 1,
                    Some(Err(Failed(e))) => match NOT_YET.iter().find(|n| e.contains(*n)) {
                        Some(n) if e.contains("not supported") => {
                            *not_yet.entry(n.to_string()).or_default() += 1
                        }
                        _ => {
                            failures.push(format!("{}@{at}: {}: {e}", path.display(), inst.name()))
                        }
                    },
                }
            }
        }
    }
    println!("ran: {ran:?}\nnot run yet: {not_yet:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for name in [
        "GATHER4_SCALED",
        "SCATTER4_SCALED",
        "SVM_SCATTER",
        "SVM_ATOMIC",
        "DWORD_ATOMIC",
        "LSC_UNTYPED",
        "OWORD_LD_UNALIGNED",
        "SCATTER4_TYPED",
        "3D_LOAD",
        "3D_SAMPLE",
    ] {
        assert!(
            ran.get(name).is_some_and(|&n| n > 0),
            "no {name} ran: {ran:?}"
        );
    }
}
