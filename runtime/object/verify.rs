//! Routine-level validation: every instruction of a kernel or function against its doc
//! (`Instruction::validate`), the operands chapter (`5_operands.md`: regions, address,
//! indirect and raw operands, predication), the routine's declarations (variables, addresses,
//! predicates, labels, surfaces, samplers; the chapter `4_visa_header.md`), the doc's operand
//! type maps for destinations and sources, and labels defined once.
//!
//! The chapters' rules are prose, so they are written here by hand, each with the line it
//! comes from ([`Rule::source`]); what the docs state in structure (operand classes, type
//! maps, values) comes from the generated code (`Instruction::validate`,
//! `Instruction::visit_operands`, `Instruction::type_maps`).
//!
//! The success path allocates nothing: a failure is built only when a rule is broken.

use super::text::instruction_text;
use super::{File, Routine, PREDEFINED_SURFACES, PREDEFINED_VARIABLES};

/// The predefined sampler: 4_visa_header.md, "Sampler Variables": "S31 is reserved and
/// represents bindless samplers" (the table's one row: index 31, `S31`). Intel's compilers
/// write it without declaring it (`movs (M1_NM, 1) S31(0) ...`, `sample_lz ... S31 %bss`).
const BINDLESS_SAMPLER: u32 = 31;
use crate::runtime::IntelPlatform;
use crate::runtime::{
    DataType, Immediate, OperandVisitor, PredicateControl, RawOperand, Region, VectorOperand,
};
use crate::{Instruction, Platform};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// A rule and the doc line it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// What must hold, in the doc's words where it has them.
    pub text: &'static str,
    /// `chapters/5_operands.md:133`, or the instruction doc for its own rules.
    pub source: &'static str,
    /// [`Severity::Warning`] where Intel's verifier accepts what the doc forbids.
    pub severity: Severity,
}

/// How a broken rule counts.
///
/// The docs are the rules; Intel's verifier (GenX_IR, which runs what Intel's compiler
/// writes) is what users' files meet. Where both forbid something, or Intel's reader cannot
/// read the file (it crashes, or reads another instruction than the bytes say), the file is
/// invalid: an error. Where the docs forbid something Intel's verifier accepts, the file is
/// one Intel's tools run, and saying "invalid" would be a disagreement users feel: a
/// warning, with the doc line, which `visa check --strict` (and [`Failure::is_error`]'s
/// callers that want the docs' letter) count as errors. `docs/crate.md` ("Warnings") lists each
/// warning class with Intel's evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The docs forbid it, and Intel's verifier rejects it too (or cannot read the file).
    Error,
    /// The docs forbid it; Intel's verifier accepts it.
    Warning,
}

macro_rules! severity {
    () => {
        super::Severity::Error
    };
    (warning) => {
        super::Severity::Warning
    };
}

macro_rules! rules {
    ($($name:ident = $text:literal, $source:literal $(, $sev:ident)?;)*) => {
        /// The hand-written rules, one constant each, with the chapter line they come from.
        pub mod rules {
            use super::Rule;
            $(#[doc = $text] pub const $name: Rule = Rule { text: $text, source: $source, severity: severity!($($sev)?) };)*
            /// Every hand-written rule (for the list of `docs/crate.md` and its tests).
            pub const ALL: &[Rule] = &[$($name,)*];
        }
    };
}

rules! {
    WIDTH = "The legal values for Width are {1, 2, 4, 8, 16}", "chapters/5_operands.md:133";
    HORIZONTAL_STRIDE = "The legal values for HorzStride are {0, 1, 2, 4}", "chapters/5_operands.md:135";
    EXEC_SIZE_WIDTH = "ExecSize must be greater than or equal to Width", "chapters/5_operands.md:136";
    DST_HORIZONTAL_STRIDE = "HorzStride for a destination operand must not be 0", "chapters/5_operands.md:137";
    TWO_GRFS = "The elements accessed by an operand may not span more than two adjacent GRF registers", "chapters/5_operands.md:138";
    MULTI_ADDRESS_DST = "Multi-address indirect operand may not be used as the destination of an instruction", "chapters/5_operands.md:151";
    VARIABLE_ID = "id: index of the variable in the variables table (V0-V31 predefined, then the routine's var_info)", "chapters/5_operands.md:309";
    COLUMN_OFFSET = "The column offset may not cross the GRF boundary", "chapters/5_operands.md:313";
    ADDRESS_ID = "id: index of the variable in the addresses table", "chapters/5_operands.md:349";
    ADDRESS_WIDTH = "width: the legal values are the same of those for execution size, except that 32 is not allowed", "chapters/5_operands.md:352";
    ADDRESS_RANGE = "The sum of operand offset and width must be less than the size of the address variable", "chapters/5_operands.md:358";
    PREDICATE_ID = "Predicate ID: index of the predicate variable (P0 is no predicate; then the routine's predicate_info)", "chapters/5_operands.md:182";
    INDIRECT_OFFSET = "indirect_offset: It has the range of [-512, 511]", "chapters/5_operands.md:398";
    INDIRECT_TYPE = "An indirect operand may have any type except for V, UV, VF, and BOOL", "chapters/5_operands.md:402";
    STATE_ID = "id: index of the variable to the state_var table based on its storage class", "chapters/5_operands.md:450";
    IMMEDIATE_DST = "A constant operand is not allowed to be a destination", "chapters/5_operands.md:458";
    RAW_ID = "id: index of the variable in the variables table", "chapters/5_operands.md:498";
    RAW_ALIGNED = "Unless otherwise specified, all raw operands must be GRF-aligned", "chapters/5_operands.md:487";
    SURFACE_ID = "surface_info: A global symbol table that declares the surface variables used in the kernel (T0-T5 predefined)", "chapters/4_visa_header.md:771";
    SAMPLER_ID = "sampler_info: A global symbol table that declares the sampler variables used in the kernel", "chapters/4_visa_header.md:769";
    LABEL_ID = "label_info: A global symbol table that declares all labels used in the kernel", "chapters/4_visa_header.md:767";
    LABEL_TWICE = "Label marks the start of the basic block: one LABEL (or SUBROUTINE) per label", "instructions/LABEL.md:58";
    READ_ONLY = "a predefined variable whose R/W column is R may not be a destination", "chapters/4_visa_header.md:400";
    READ_ONLY_RAW = "a predefined variable whose R/W column is R may not be a destination (here a message's raw destination, which Intel's verifier does not check)", "chapters/4_visa_header.md:400", warning;
    EXEC_MASK = "the channels the mask control selects stay within the 32 of the execution mask: first channel (M1 = 0, M2 = 4, ... M8 = 28) + exec size <= 32", "chapters/5_operands.md:187";
    MODIFIER_NOT = "The \"not\" modifier may only appear in certain logic instructions (namely and, not, or, and xor)", "chapters/5_operands.md:289";
    MODIFIER_LOGIC = "the arithmetic modifiers may appear in arithmetic, shift, and move instructions: not in logic instructions (AND, OR, XOR, NOT and the bit instructions CBIT, FBH, FBL, BFREV, BFE, BFI, BFN)", "chapters/5_operands.md:291";
    MODIFIER_SOURCE = "modifiers that can be applied on the operand values: saturation (4) applies to the destination's, not to a source (printed `.sat` after the mnemonic)", "chapters/5_operands.md:285";
    LSC_DATA_ORDER = "DataOrder: Valid values are 1 (non-transposed) and 2 (transposed) (erratum LSC_UNTYPED-data-order-values.patch)", "instructions/LSC_UNTYPED.md:544";
    LSC_TRANSPOSE_SIMD1 = "transpose only supports SIMD1 (DataOrder 2, transposed, with exec size 1)", "instructions/LSC_UNTYPED.md:330";
    LSC_ATOMIC_TRANSPOSE = "Transpose is not permitted for atomic operations", "instructions/LSC_UNTYPED.md:336";
    LSC_SRC1_DATA = "Src1Data: This will hold the null register for load operations; for atomics it holds the first argument of the atomic operation and is null if the atomic op is unary (the sub-op table's extra atomic arguments: 0 null, 1 or 2 not null)", "instructions/LSC_UNTYPED.md:616";
    LSC_SRC2_DATA = "Src2Data: This will hold the null register for all but ternary atomic ops (the sub-op table's extra atomic arguments: 2 not null, else null)", "instructions/LSC_UNTYPED.md:619";
    LSC_FLAT_SURFACE = "Surface: Use the immediate value 0 for flat operations unless the platforms supports an a64 base value (none does for Intel's verifier: an immediate 0 or %null)", "instructions/LSC_UNTYPED.md:580";
    MULTI_ADDRESS_COUNT = "A multi-address indirect source (null vertical stride) uses ExecSize / Width address elements, at most 16 (32 on XE3P_CRI and later); a source whose vertical stride is null or an encoding the chapter does not list counts the same (erratum 5_operands-04-multi-address-count.patch)", "chapters/5_operands.md:97";
    RESERVED_VARIABLE = "Thirty-two variables (V0-V31) are reserved for pre-defined variables: V21-V31 have no row in the table and name no variable", "chapters/4_visa_header.md:397";
    MOVS_SATURATION = "Neither saturation nor predication is supported for this instruction (MOVS: saturation on a state destination)", "instructions/MOVS.md:100";
    MOVS_SATURATION_GENERAL = "Neither saturation nor predication is supported for this instruction (MOVS: saturation on a general destination, which Intel's verifier accepts)", "instructions/MOVS.md:100", warning;
    MOVS_TYPE = "Supported Type: UD (for general and immediate operand) (MOVS: a BF operand)", "instructions/MOVS.md:95";
    MOVS_TYPE_OTHER = "Supported Type: UD (for general and immediate operand) (MOVS: a type other than UD and BF, which Intel's verifier accepts)", "instructions/MOVS.md:95", warning;
    PREDICATE_LOGIC = "The instruction may operate on predicate operands. In this mode, all operands must be predicates, and `<pred>` must be zero (no predication)", "instructions/AND.md:107 (OR.md:107, XOR.md:107, NOT.md:104)";
    LSC_CACHE = "CachingL1: Only certain combinations of this with CachingL3 are valid (the table's rows that apply to both, or to loads for a load, to stores for a store)", "instructions/LSC_UNTYPED.md:478";
    TYPE_MAP = "the operand types match one of the instruction's operand type maps (Dst types of the destination's variable, Src types of each source)", "instruction doc";
    TYPE_MAP_CMP_SEL = "the operand types match one of the instruction's operand type maps (Dst types of the destination's variable, Src types of each source)", "instruction doc", warning;
    TYPE_MAP_INTEGER_MATH = "the operand types match one of the instruction's operand type maps (here integer operands of INV, RSQRT or SQRT, which Intel's verifier does not check)", "instruction doc", warning;
}

/// A broken rule: where (routine, instruction, field), what, and the doc line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `kernel 0 \`name\`` or `function 1 \`name\``.
    pub routine: String,
    /// The same routine, by index.
    pub routine_ref: RoutineRef,
    /// Index of the instruction in its stream and its byte offset in the stream; `None` for
    /// a failure of the routine as a whole (a stream that stops decoding).
    pub instruction: Option<(usize, u32)>,
    /// Intel's text of the instruction (`add (M1, 16) V33(0,0)<1> ...`), as our printer
    /// gives it, or why it does not print.
    pub text: String,
    /// The doc name of the field (`Dst`, `Src1`, `Pred`, `Exec_size`, `Label`).
    pub field: String,
    pub rule: String,
    /// The doc line of the rule (`chapters/5_operands.md:135`, `ADD.md:28`).
    pub source: String,
    /// An error, or a warning where Intel's verifier accepts what the doc forbids.
    pub severity: Severity,
}

impl Failure {
    /// Whether the file is invalid for Intel's verifier too ([`Severity::Error`]).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.routine)?;
        if let Some((n, offset)) = self.instruction {
            write!(f, ": instruction {n} at offset {offset} `{}`", self.text)?;
        }
        write!(f, ": field {}: {} ({})", self.field, self.rule, self.source)
    }
}

/// What a check knows of the platform: the docs' generation, and the facts of Intel's platform
/// the docs leave to it (a register's size, the number of address registers).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The docs' generation, whose rules apply.
    pub platform: Platform,
    /// Bytes per general register.
    pub grf_bytes: u32,
    /// Address registers: the most address elements a multi-address indirect source uses.
    pub address_registers: u32,
}

impl From<Platform> for Target {
    /// A generation of the docs: 64-byte registers from PVC on (the chapter's "32 bytes" is
    /// the older size), 16 address registers.
    fn from(platform: Platform) -> Target {
        Target {
            platform,
            grf_bytes: if platform.name().starts_with("PVC") {
                64
            } else {
                32
            },
            address_registers: 16,
        }
    }
}

impl From<&IntelPlatform> for Target {
    fn from(p: &IntelPlatform) -> Target {
        Target {
            platform: p.platform(),
            grf_bytes: p.grf_bytes,
            address_registers: p.address_registers(),
        }
    }
}

impl File {
    /// Every broken rule of every kernel and function for `target` (a [`Platform`] of the
    /// docs or one of Intel's, [`IntelPlatform`]), in file order: each instruction's own doc
    /// (`Instruction::validate`), the operands chapter, the routine's declarations, the type
    /// maps, and labels. Empty when the file is valid.
    pub fn validate(&self, target: impl Into<Target>) -> Vec<Failure> {
        let target = target.into();
        let mut out = Vec::new();
        for (i, k) in self.kernels.iter().enumerate() {
            check_routine(self, RoutineRef::Kernel(i), &k.data, target, &mut out);
        }
        for (i, func) in self.functions.iter().enumerate() {
            check_routine(self, RoutineRef::Function(i), &func.data, target, &mut out);
        }
        out
    }
}

/// Which routine of the file: kernel or function, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutineRef {
    Kernel(usize),
    Function(usize),
}

impl RoutineRef {
    fn describe(self, file: &File) -> String {
        let (kind, i, name) = match self {
            RoutineRef::Kernel(i) => ("kernel", i, file.header.kernel_info.get(i).map(|k| &k.name)),
            RoutineRef::Function(i) => (
                "function",
                i,
                file.header.function_info.get(i).map(|k| &k.name),
            ),
        };
        let name = name.map_or_else(|| "?".into(), |n| String::from_utf8_lossy(n).into_owned());
        format!("{kind} {i} `{name}`")
    }
}

/// A failure found while visiting one instruction, before the routine and text are known.
struct Found {
    field: &'static str,
    rule: Rule,
    detail: String,
    severity: Severity,
}

fn check_routine<R: Routine + ?Sized>(
    file: &File,
    which: RoutineRef,
    r: &R,
    target: Target,
    out: &mut Vec<Failure>,
) {
    let platform = target.platform;
    let stream = r.instructions();
    let labels = r.label_info().len();
    let mut defined = vec![false; labels];
    let mut found = Vec::new();
    let mut ctx = Ctx::new(r, target, super::text::modern_layout(file));
    // Messages with three cache levels (text only): the docs' table of L1/L3 pairs is not theirs.
    let text_only = match which {
        RoutineRef::Kernel(i) => file.text.kernels.get(i),
        RoutineRef::Function(i) => file.text.functions.get(i),
    };
    let three_levels = text_only.map_or(&[][..], |t| t.caching_l2.as_slice());
    let mut kept = stream.kept.iter().peekable();
    for (n, (offset, inst)) in stream.instructions.iter().enumerate() {
        ctx.index = n;
        ctx.offset = *offset;
        ctx.start(inst);
        ctx.three_levels = three_levels.iter().any(|(i, _)| *i == n);
        inst.visit_operands(&mut ctx);
        if let Err(e) = inst.validate(platform) {
            found.push(Found {
                field: e.field,
                rule: Rule {
                    text: e.rule,
                    source: "instruction doc",
                    severity: Severity::Error,
                },
                detail: format!("{} doc", e.instruction),
                severity: doc_rule_severity(inst, e.field, e.rule, &ctx),
            });
        }
        ctx.finish(inst);
        while kept.next_if(|k| k.index < n).is_some() {}
        if let Some(k) = kept.next_if(|k| k.index == n) {
            ctx.kept(&k.read);
        }
        found.append(&mut ctx.found);
        if let Some(id) = ctx.defines {
            if let Some(d) = defined.get_mut(id as usize) {
                if *d {
                    found.push(Found {
                        field: "Label",
                        rule: rules::LABEL_TWICE,
                        detail: format!("label {id} is already defined"),
                        severity: rules::LABEL_TWICE.severity,
                    });
                }
                *d = true;
            }
        }
        for f in found.drain(..) {
            out.push(failure(file, which, Some((n, *offset, inst)), f));
        }
    }
    if let Some(stop) = &stream.stop {
        out.push(Failure {
            routine: which.describe(file),
            routine_ref: which,
            instruction: None,
            text: String::new(),
            field: "instructions".into(),
            rule: stop.describe(),
            source: "instruction doc".into(),
            severity: Severity::Error,
        });
    }
}

#[cold]
#[inline(never)]
fn failure(
    file: &File,
    which: RoutineRef,
    at: Option<(usize, u32, &Instruction)>,
    f: Found,
) -> Failure {
    let text = match at {
        Some((n, _, inst)) => instruction_text(file, which, (n, inst)),
        None => String::new(),
    };
    Failure {
        routine: which.describe(file),
        routine_ref: which,
        instruction: at.map(|(n, o, _)| (n, o)),
        text,
        field: f.field.into(),
        rule: if f.detail.is_empty() {
            f.rule.text.into()
        } else {
            format!("{} ({})", f.rule.text, f.detail)
        },
        source: f.rule.source.into(),
        severity: f.severity,
    }
}

/// The severity of an instruction doc's own rule (`Instruction::validate`, `rule` as it
/// quotes the doc): a warning for the classes Intel's verifier accepts (`docs/crate.md`,
/// "Warnings", with the differential run's evidence), an error for every other.
fn doc_rule_severity<R: Routine + ?Sized>(
    inst: &Instruction,
    field: &str,
    rule: &str,
    ctx: &Ctx<'_, R>,
) -> Severity {
    // "Operand class: general,indirect,immediate" broken by a state operand as a source:
    // Intel's verifier does not check where state sources go (`cmp.ne ... S0(0)`,
    // `mov ... T1(0)` read and verify); other classes, and destinations, it checks
    // ("Destination operand of CISA SETP instruction only supports predicate operands").
    let state = rule.starts_with("Operand class")
        && is_source(field)
        && ctx.state_fields.contains(&Some(field));
    // "Must have type UD" of an immediate message parameter: Intel's verifier does not check
    // these operands' types (`gather4_scaled ... 0x0:vf`, `load_lz ... 0x0:d`). Those of an
    // instruction operand (the field's bullet gives operand classes) it checks, immediates as
    // register operands: `bfn.x1 ... 0x3f80:hf ...`, `cbit ... 0x3f80:f`, `addr_add ... 0x1:d`
    // are rejected on TGLLP, DG2 and PVC ("All operands of logic instructions must be of
    // integral type", "Data type of the second source of ADDR_ADD should be WORD or BYTE").
    let operand = || {
        inst.operand_types()
            .iter()
            .any(|l| l.operand && l.field == field)
    };
    if state || (rule.starts_with("Must have type") && !operand()) {
        Severity::Warning
    } else {
        Severity::Error
    }
}

/// R/W and type of the predefined variables V0-V19 (`4_visa_header.md:402-421`): whether an
/// instruction may write it, and its type (`None`: N/A or several).
const PREDEFINED: &[(bool, Option<DataType>)] = &[
    (true, None), // V0 %null: R by the table, but Intel's code writes it (a sink)
    (false, Some(DataType::Uw)), // V1 %thread_x
    (false, Some(DataType::Uw)), // V2 %thread_y
    (false, Some(DataType::Ud)), // V3 %group_id_x
    (false, Some(DataType::Ud)), // V4 %group_id_y
    (false, Some(DataType::Ud)), // V5 %group_id_z
    (false, Some(DataType::Ud)), // V6 %tm: R but for the pause counter (tm.4), see `writable`
    (false, Some(DataType::Ud)), // V7 %r0 (Intel: "Not allowed to write to a read only variable")
    (true, Some(DataType::Ud)), // V8 %arg
    (true, Some(DataType::Ud)), // V9 %retval
    (true, Some(DataType::Uq)), // V10 %sp: UQ (erratum 4_visa_header-09-sp-fp-uq.patch)
    (true, Some(DataType::Uq)), // V11 %fp: UQ (the same erratum)
    (false, Some(DataType::Ud)), // V12 %hw_id
    (true, Some(DataType::Ud)), // V13 %sr0
    (true, Some(DataType::Ud)), // V14 %cr0
    (false, Some(DataType::Ud)), // V15 %ce0
    (true, Some(DataType::Ud)), // V16 %dbg0
    (false, Some(DataType::Uw)), // V17 %color
    (true, Some(DataType::Uq)), // V18 %implicit_arg_ptr
    (true, Some(DataType::Uq)), // V19 %implicit_local_id_buf_ptr
    // V20: reserved (:397), no row; Intel's reader names it %msg0 and reads it as an integer
    // (`add (M1, 8) VD ... V20` verifies on DG2 and PVC, `add (M1, 8) VF ... V20` does not):
    // UD, so float arithmetic breaks the type maps. V21-V31 are rules::RESERVED_VARIABLE.
    (false, Some(DataType::Ud)),
];

/// The visitor: one routine's declarations, and what one instruction showed so far.
struct Ctx<'a, R: Routine + ?Sized> {
    r: &'a R,
    platform: Platform,
    /// vISA 4.2 or later (IGC 2.x): V21 is `%scratchloc`, and a flat address may have a base.
    modern: bool,
    /// The instruction is an LSC message with three cache levels (`RoutineTextOnly`).
    three_levels: bool,
    grf: u32,
    /// The most address elements a multi-address indirect source may use.
    address_registers: u32,
    /// Elements of the exec size (1 when the instruction has none).
    exec: u32,
    /// The type of the destination and of each source, for the type maps.
    dst_type: Option<DataType>,
    src_types: [Option<DataType>; 4],
    srcs: usize,
    /// The declared type of each register operand (general: its variable's; indirect: its
    /// own), by field, for the doc's "Must have type" lists (the first eight).
    reg_types: [(&'static str, DataType); 8],
    regs: usize,
    /// The instruction's doc name.
    name: &'static str,
    /// `AddrType` is flat (LSC), and the `Surface` operand is neither an immediate 0 nor %null.
    flat: bool,
    surface_not_null: bool,
    /// LSC_UNTYPED: its sub-op, data order, and whether Src1Data and Src2Data are %null.
    lsc_sub_op: Option<u64>,
    data_order: u32,
    src1_data_null: Option<bool>,
    src2_data_null: Option<bool>,
    /// The instruction is LABEL or SUBROUTINE (defines its `Label`), or uses its `Label`.
    label_defines: bool,
    /// Fields of the instruction that hold a state operand (the first four).
    state_fields: [Option<&'static str>; 4],
    /// The instruction's predicate id (its `Pred` field), and whether an operand is a predicate.
    pred: u16,
    predicate_operand: bool,
    /// The first operand that is no predicate (for logic on predicates).
    not_predicate: Option<&'static str>,
    /// LSC_UNTYPED's CachingL1 and CachingL3.
    caching: (u64, u64),
    defines: Option<u32>,
    index: usize,
    offset: u32,
    found: Vec<Found>,
}

impl<'a, R: Routine + ?Sized> Ctx<'a, R> {
    fn new(r: &'a R, target: Target, modern: bool) -> Self {
        Ctx {
            r,
            platform: target.platform,
            address_registers: target.address_registers,
            modern,
            three_levels: false,
            grf: target.grf_bytes,
            exec: 1,
            dst_type: None,
            src_types: [None; 4],
            srcs: 0,
            reg_types: [("", DataType::Ud); 8],
            regs: 0,
            name: "",
            flat: false,
            surface_not_null: false,
            lsc_sub_op: None,
            data_order: 0,
            src1_data_null: None,
            src2_data_null: None,
            label_defines: false,
            state_fields: [None; 4],
            pred: 0,
            predicate_operand: false,
            not_predicate: None,
            caching: (0, 0),
            defines: None,
            index: 0,
            offset: 0,
            found: Vec::new(),
        }
    }

    fn start(&mut self, inst: &Instruction) {
        self.exec = 1;
        self.dst_type = None;
        self.src_types = [None; 4];
        self.srcs = 0;
        self.regs = 0;
        self.name = inst.name();
        self.flat = false;
        self.surface_not_null = false;
        self.lsc_sub_op = None;
        self.data_order = 0;
        self.src1_data_null = None;
        self.src2_data_null = None;
        self.label_defines = matches!(self.name, "LABEL" | "SUBROUTINE");
        self.state_fields = [None; 4];
        self.pred = 0;
        self.predicate_operand = false;
        self.not_predicate = None;
        self.caching = (0, 0);
        self.defines = None;
    }

    /// Checks across operands, once all are seen.
    fn finish(&mut self, inst: &Instruction) {
        // IGC 2.x gives flat addresses a base on NVL and XE3P_CRI (`flat(V0067)[...]`); the
        // rule is IGC 12504.6's verifier's, which knows no platform with one.
        if self.flat && self.surface_not_null && !self.modern {
            self.fail("Surface", rules::LSC_FLAT_SURFACE, String::new());
        }
        if let Some(op) = self.lsc_sub_op {
            self.lsc(op);
        }
        // AND.md:107 (OR, XOR; NOT.md:104): logic on predicates takes no predicate. Intel:
        // "Predicate can not be used in logic operantion for predicate operands".
        // Intel rejects a mix of predicates and other operands too ("Operand type of logic
        // operantion for predicate operands should all be BOOL"), on TGLLP, DG2 and PVC.
        if self.predicate_operand && matches!(self.name, "AND" | "OR" | "XOR" | "NOT") {
            if self.pred != 0 {
                let detail = format!("P{}", self.pred);
                self.fail("Pred", rules::PREDICATE_LOGIC, detail);
            }
            if let Some(field) = self.not_predicate {
                let detail = String::from("an operand that is no predicate");
                self.fail(field, rules::PREDICATE_LOGIC, detail);
            }
        }
        if self.name == "MOVS" {
            self.movs_types();
        }
        self.operand_types(inst);
        let maps = inst.type_maps();
        if maps.is_empty() || (self.dst_type.is_none() && self.srcs == 0) {
            return;
        }
        let platform = self.platform;
        let srcs = &self.src_types[..self.srcs.min(4)];
        let ok = maps
            .iter()
            .filter(|m| (m.applies)(platform))
            .any(|m| allows(m.dst, self.dst_type) && srcs.iter().all(|t| allows(m.src, *t)));
        if !ok && maps.iter().any(|m| (m.applies)(platform)) {
            let show = |t: Option<DataType>| t.map_or("?", DataType::name);
            let mut detail = format!("Dst {}", show(self.dst_type));
            for (i, t) in srcs.iter().enumerate() {
                detail.push_str(&format!(", Src{i} {}", show(*t)));
            }
            detail.push_str(&format!(", {} line {}", maps[0].source, maps[0].line));
            // CMP's and SEL's source types Intel's verifier does not check against each other
            // or the destination (`cmp.eq ... D, 0x0:vf`, `sel F, 0x0:b, F` verify), but for
            // BF ("Src opnd in BF mixed mode should be either BF or F").
            let bf = self.dst_type == Some(DataType::Bf) || srcs.contains(&Some(DataType::Bf));
            // INV's, RSQRT's and SQRT's operands all of integer types Intel's verifier accepts
            // (`inv (M1, 16) D D`, `rsqrt UD UW`, on TGLLP, DG2 and PVC); a float operand among
            // integers, or BF, it rejects.
            let integer = |t: &Option<DataType>| {
                use DataType::*;
                matches!(t, Some(B | Ub | W | Uw | D | Ud | Q | Uq))
            };
            let rule = if matches!(self.name, "CMP" | "SEL") && !bf {
                rules::TYPE_MAP_CMP_SEL
            } else if matches!(self.name, "INV" | "RSQRT" | "SQRT")
                && integer(&self.dst_type)
                && srcs.iter().all(integer)
            {
                rules::TYPE_MAP_INTEGER_MATH
            } else {
                rules::TYPE_MAP
            };
            self.fail("Dst", rule, detail);
        }
    }

    /// LSC_UNTYPED's prose rules on transposition and the atomics' data operands.
    fn lsc(&mut self, op: u64) {
        if (0x00..=0x07).contains(&op)
            && !self.three_levels
            && !lsc_caching_allowed(op <= 0x03, self.caching)
        {
            let (l1, l3) = self.caching;
            let kind = if op <= 0x03 { "load" } else { "store" };
            self.fail(
                "CachingL1",
                rules::LSC_CACHE,
                format!("{kind} with L1 {l1}, L3 {l3}"),
            );
        }
        let transposed = self.data_order == 2;
        if transposed && self.exec != 1 {
            let detail = format!("exec size {}", self.exec);
            self.fail("DataOrder", rules::LSC_TRANSPOSE_SIMD1, detail);
        }
        // The LSC Operation Encoding table (LSC_UNTYPED.md:388-416), its column "Extra
        // atomic arguments" for the sub-ops 0x08-0x1A: iinc, idec and load take none, icas
        // and fcas two, the others one.
        // Loads (lsc_load, lsc_load_strided, lsc_load_quad: 0x00-0x02) and stores take
        // no extra argument: Src1Data is null for a load, Src2Data for both.
        let args = match op {
            0x08..=0x0a => Some(0),
            0x12 | 0x17 => Some(2),
            0x0b..=0x1a => Some(1),
            _ => None,
        };
        if transposed && args.is_some() {
            self.fail("DataOrder", rules::LSC_ATOMIC_TRANSPOSE, String::new());
        }
        let detail = |n: u32| format!("sub-op {op:#04x} takes {n} extra arguments");
        let src1_null = match args {
            Some(n) => Some(n == 0),
            None if op <= 0x02 => Some(true),
            None => None,
        };
        if let (Some(want), Some(is)) = (src1_null, self.src1_data_null) {
            if want != is {
                let d = match args {
                    Some(n) => detail(n),
                    None => "a load takes none".into(),
                };
                self.fail("Src1Data", rules::LSC_SRC1_DATA, d);
            }
        }
        // Every sub-op with a Src2Data but the append counters (0x28, 0x29).
        let src2_null = match args {
            Some(n) => Some(n < 2),
            None if op < 0x28 => Some(true),
            None => None,
        };
        if let (Some(want), Some(is)) = (src2_null, self.src2_data_null) {
            if want != is {
                self.fail("Src2Data", rules::LSC_SRC2_DATA, detail(args.unwrap_or(0)));
            }
        }
    }

    /// The doc's "Must have type" lists against the register operands' declared types (an
    /// immediate's own type `Instruction::validate` checks).
    fn operand_types(&mut self, inst: &Instruction) {
        for list in inst.operand_types() {
            for i in 0..self.regs.min(self.reg_types.len()) {
                let (field, t) = self.reg_types[i];
                if field == list.field && !list.types.contains(&t) {
                    // Intel's verifier checks the types of instruction operands (CBIT, FBH:
                    // "All operands of logic instructions must be of integral type", ADDR_ADD:
                    // "Data type of the second source of ADDR_ADD should be WORD or BYTE";
                    // where it allows more than the doc, an erratum says so), not those of
                    // message parameters (`oword_ld (2) T6 VF(0,0)<0;1,0> ...` verifies):
                    // those lists are warnings (docs/crate.md, "Validation").
                    let severity = if list.operand {
                        Severity::Error
                    } else {
                        Severity::Warning
                    };
                    let rule = Rule {
                        text: list.rule,
                        source: list.source,
                        severity,
                    };
                    self.fail(list.field, rule, format!("declared {}", t.name()));
                }
            }
        }
    }

    fn register_type(&mut self, field: &'static str, t: Option<DataType>) {
        if let (Some(t), Some(slot)) = (t, self.reg_types.get_mut(self.regs)) {
            *slot = (field, t);
            self.regs += 1;
        }
    }

    #[cold]
    #[inline(never)]
    fn fail(&mut self, field: &'static str, rule: Rule, detail: String) {
        self.found.push(Found {
            field,
            rule,
            detail,
            severity: rule.severity,
        });
    }

    /// The declared type of general variable `id`, if it has one.
    fn variable_type(&self, id: u32) -> Option<DataType> {
        let predefined = PREDEFINED_VARIABLES.len() as u32;
        if id < predefined {
            return PREDEFINED.get(id as usize).and_then(|p| p.1);
        }
        let info = self.r.var_info().get((id - predefined) as usize)?;
        DataType::try_from(info.bit_properties & 0xf).ok()
    }

    /// The declared size in bytes of a variable of the routine's var_info (`None` for the
    /// predefined ones): its elements times its type's size.
    fn variable_bytes(&self, id: u32) -> Option<u32> {
        let predefined = PREDEFINED_VARIABLES.len() as u32;
        let info = self
            .r
            .var_info()
            .get(id.checked_sub(predefined)? as usize)?;
        let ty = DataType::try_from(info.bit_properties & 0xf).ok()?;
        Some(u32::from(info.num_elements) * ty.size() as u32)
    }

    fn variable_exists(&self, id: u32) -> bool {
        let predefined = PREDEFINED_VARIABLES.len() as u32;
        id < predefined || ((id - predefined) as usize) < self.r.var_info().len()
    }

    /// The region rules of a general or indirect operand.
    fn region(&mut self, field: &'static str, dst: bool, region: Region) {
        let (w, hs) = (region.width(), region.horizontal_stride());
        if dst {
            if hs == 0 || hs > 4 {
                self.fail(field, rules::HORIZONTAL_STRIDE, format!("encoding {hs}"));
            } else if hs == 1 {
                self.fail(field, rules::DST_HORIZONTAL_STRIDE, String::new());
            }
            return;
        }
        if !(1..=4).contains(&hs) {
            self.fail(field, rules::HORIZONTAL_STRIDE, format!("encoding {hs}"));
        }
        // Of the width encodings, 32 elements (0111) and 0 elements (0001) break the rule:
        // encodings the chapter does not list (0000 null, 1000-1111) are accepted, as Intel's
        // verifier does (docs/crate.md, "Rules not checked, and why").
        if w == 7 || w == 1 {
            self.fail(field, rules::WIDTH, format!("encoding {w}"));
        } else if (2..=6).contains(&w) && (1u32 << (w - 2)) > self.exec {
            self.fail(
                field,
                rules::EXEC_SIZE_WIDTH,
                format!("width {} > exec size {}", 1u32 << (w - 2), self.exec),
            );
        }
        // The vertical stride is not checked: Intel's verifier accepts every encoding, and
        // the chapter's rule (5_operands.md:134) has an erratum
        // (errata/5_operands-vertical-stride.patch).
    }

    /// The modifier rules of a general or indirect source operand (bits 3-5 of its tag). A
    /// destination's modifier other than saturation, and the values 6 and 7 (the chapter's
    /// table of values is empty), are not checked: Intel's verifier accepts them.
    fn modifier(&mut self, field: &'static str, modifier: u8) {
        // neg, abs, neg-abs (1-3) on a source, saturation (4) on either.
        let arithmetic = (1..=4).contains(&modifier) && (modifier == 4 || is_source(field));
        if arithmetic && is_logic(self.name) {
            self.fail(field, rules::MODIFIER_LOGIC, format!("in {}", self.name));
            return;
        }
        if !is_source(field) {
            if modifier == 4 && self.name == "MOVS" {
                self.fail(field, rules::MOVS_SATURATION_GENERAL, String::new());
            }
            return;
        }
        if modifier == 5 && !matches!(self.name, "AND" | "OR" | "XOR" | "NOT") {
            self.fail(field, rules::MODIFIER_NOT, format!("in {}", self.name));
        } else if modifier == 4 {
            self.fail(field, rules::MODIFIER_SOURCE, String::new());
        }
    }

    fn source_type(&mut self, field: &'static str, t: Option<DataType>) {
        if field.eq_ignore_ascii_case("dst") {
            self.dst_type = t;
        } else if is_source(field) {
            if let Some(slot) = self.src_types.get_mut(self.srcs) {
                *slot = t;
            }
            self.srcs += 1;
        }
    }
}

/// May an instruction write element `element` (in dwords) of variable `id`? Declared
/// variables yes; predefined ones by the R/W column of the table (4_visa_header.md:400-421),
/// where %tm (V6) is R but for its pause counter, tm.4 (:412), and %sr0 (V13) R/W but for
/// sr0.0 (:420, erratum 4_visa_header-08-sr0-read-only.patch); V20-V31, reserved (:397) and in
/// no row, no.
fn writable(id: u32, element: u32) -> bool {
    match id {
        6 => element == 4,
        13 => element >= 1,
        _ => match PREDEFINED.get(id as usize) {
            Some(p) => p.0,
            None => id >= PREDEFINED_VARIABLES.len() as u32,
        },
    }
}

fn allows(list: &[DataType], t: Option<DataType>) -> bool {
    let Some(t) = t else { return true };
    if list.is_empty() || list.contains(&t) {
        return true;
    }
    // "the V type is compatible with all signed integer types, the UV type is compatible
    // with all unsigned integer types, and the VF type is compatible with the F type"
    // (2_datatypes.md; the generator's `analyze/packed.rs` reads maps the same way).
    use DataType::*;
    let any = |of: &[DataType]| of.iter().any(|e| list.contains(e));
    match t {
        V => any(&[B, W, D, Q]),
        Uv => any(&[Ub, Uw, Ud, Uq]),
        Vf => any(&[F]),
        _ => false,
    }
}

/// The logic instructions of Intel's verifier ("Only arithmetic modifiers should be used with
/// arithmetic instruction general or indirect operands" for each of them; SHL, SHR, ASR, ROL
/// and ROR, the shifts, take arithmetic modifiers).
fn is_logic(name: &str) -> bool {
    matches!(
        name,
        "AND" | "OR" | "XOR" | "NOT" | "CBIT" | "FBH" | "FBL" | "BFREV" | "BFE" | "BFI" | "BFN"
    )
}

fn is_source(field: &str) -> bool {
    let b = field.as_bytes();
    b.len() >= 3 && b[..3].eq_ignore_ascii_case(b"src") && b[3..].iter().all(u8::is_ascii_digit)
}

fn is_dst(field: &str) -> bool {
    field.eq_ignore_ascii_case("dst")
}

impl<R: Routine + ?Sized> OperandVisitor for Ctx<'_, R> {
    fn exec_size(&mut self, raw: u8) {
        let size = raw & 7;
        self.exec = if size <= 5 { 1 << size } else { 1 };
        let mask = u32::from(raw >> 4 & 7);
        let first = mask * 4;
        if size <= 5 && first + self.exec > 32 {
            self.fail(
                "Exec_size",
                rules::EXEC_MASK,
                format!("M{} with exec size {}", mask + 1, self.exec),
            );
        }
    }

    fn predicate(&mut self, field: &'static str, p: PredicateControl) {
        self.pred = p.id();
        let id = u32::from(p.id());
        if id != 0 && id as usize > self.r.predicate_info().len() {
            self.fail(field, rules::PREDICATE_ID, format!("P{id} is not declared"));
        }
    }

    fn vector(&mut self, field: &'static str, op: &VectorOperand) {
        // ADDC's Carry and SUBB's Borrow are written as the destination is (ADDC.md:40,
        // SUBB.md:40): a destination's region rules.
        let dst = is_dst(field) || matches!(field, "Carry" | "Borrow");
        if field == "Surface" {
            self.surface_not_null = !matches!(
                *op,
                VectorOperand::General { id: 0, .. }
                    | VectorOperand::Immediate(Immediate { value: 0, .. })
            );
        }
        if !matches!(op, VectorOperand::Predicate(_)) && self.not_predicate.is_none() {
            self.not_predicate = Some(field);
        }
        match *op {
            VectorOperand::General {
                id,
                region,
                modifier,
                row_offset,
                col_offset,
            } => {
                if modifier != 0 {
                    self.modifier(field, modifier);
                }
                if !self.variable_exists(id) {
                    self.fail(field, rules::VARIABLE_ID, format!("V{id} is not declared"));
                    self.source_type(field, None);
                    return;
                }
                // Intel's reader rejects V21-V31 (TGLLP) or crashes on them (DG2, PVC), in
                // integer and float arithmetic alike.
                // vISA 4.2 names V21 `%scratchloc` (IGC 2.x's PreDefinedVars).
                let first_reserved = if self.modern { 22 } else { 21 };
                if (first_reserved..PREDEFINED_VARIABLES.len() as u32).contains(&id) {
                    self.fail(field, rules::RESERVED_VARIABLE, format!("V{id}"));
                } else if dst && !writable(id, u32::from(row_offset) * 8 + u32::from(col_offset)) {
                    self.fail(field, rules::READ_ONLY, format!("V{id}"));
                }
                let ty = self.variable_type(id);
                if is_source(field) {
                    self.multi_address(field, region);
                }
                self.register_operand(field, dst, ty, region);
            }
            VectorOperand::Indirect {
                id,
                indirect_offset,
                bit_properties,
                region,
                modifier,
                ..
            } => {
                if modifier != 0 {
                    self.modifier(field, modifier);
                }
                let ty = self.indirect_type(field, id, indirect_offset, bit_properties);
                if is_source(field) {
                    self.multi_address(field, region);
                }
                self.register_operand(field, dst, ty, region);
            }
            VectorOperand::Address { id, offset, width } => {
                self.address_operand(field, dst, id, offset, width);
            }
            VectorOperand::Predicate(p) => {
                self.predicate_operand = true;
                let id = u32::from(p.id());
                if id == 0 || id as usize > self.r.predicate_info().len() {
                    self.fail(field, rules::PREDICATE_ID, format!("P{id} is not declared"));
                }
            }
            VectorOperand::Immediate(imm) => {
                if dst {
                    self.fail(field, rules::IMMEDIATE_DST, String::new());
                }
                self.source_type(field, Some(imm.ty));
            }
            VectorOperand::State { class, id, .. } => self.state_operand(field, class, id),
        }
    }

    fn raw(&mut self, field: &'static str, op: &RawOperand) {
        match field {
            "Src1Data" => self.src1_data_null = Some(op.id == 0),
            "Src2Data" => self.src2_data_null = Some(op.id == 0),
            _ => {}
        }
        if !self.variable_exists(op.id) {
            self.fail(field, rules::RAW_ID, format!("V{} is not declared", op.id));
            return;
        }
        // Intel's verifier checks general destinations only: `dword_atomic ... %thread_x.0`
        // verifies, `mov (M1, 8) %group_id_y(0,0)<1> ...` does not ("Not allowed to write to
        // a read only variable"), on TGLLP, DG2 and PVC: a warning (docs/crate.md, "Warnings").
        if is_dst(field) && !writable(op.id, u32::from(op.offset) / 4) {
            self.fail(field, rules::READ_ONLY_RAW, format!("V{}", op.id));
        }
        // Intel's verifier applies the rule to variables of at least one GRF only: a raw
        // operand of a smaller variable may start anywhere ("Raw operand should be
        // GRF-aligned" for 8 UD elements on DG2 and 16 on PVC, not for 7 and 15; docs/crate.md,
        // "Validation"). Predefined variables keep the rule.
        let small = self.variable_bytes(op.id).is_some_and(|b| b < self.grf);
        if op.id != 0 && u32::from(op.offset) % self.grf != 0 && !small {
            self.fail(field, rules::RAW_ALIGNED, format!("offset {}", op.offset));
        }
    }

    fn value(&mut self, field: &'static str, bits: u64) {
        // LSC_UNTYPED.md:514, "1: flat".
        if field == "AddrType" {
            self.flat = bits == 1;
        }
        if self.name == "LSC_UNTYPED" {
            match field {
                "LscSubOp" => self.lsc_sub_op = Some(bits),
                "CachingL1" => self.caching.0 = bits,
                "CachingL3" => self.caching.1 = bits,
                _ => {}
            }
        }
    }

    fn index(&mut self, field: &'static str, value: u32) {
        match field {
            "Label" => {
                if value as usize >= self.r.label_info().len() {
                    self.fail(
                        field,
                        rules::LABEL_ID,
                        format!("label {value} is not declared"),
                    );
                } else if self.label_defines {
                    self.defines = Some(value);
                }
            }
            "Surface" if value >= PREDEFINED_SURFACES + self.r.surface_info().len() as u32 => {
                self.fail(
                    field,
                    rules::SURFACE_ID,
                    format!("T{value} is not declared"),
                );
            }
            // LSC_UNTYPED's only field of this name; Intel: "invalid LSC_DATA_ORDER".
            "DataOrder" => {
                self.data_order = value;
                if !(1..=2).contains(&value) {
                    self.fail(field, rules::LSC_DATA_ORDER, format!("{value}"));
                }
            }
            "Sampler"
                if value as usize >= self.r.sampler_info().len() && value != BINDLESS_SAMPLER =>
            {
                self.fail(
                    field,
                    rules::SAMPLER_ID,
                    format!("S{value} is not declared"),
                );
            }
            _ => {}
        }
    }
}

impl<R: Routine + ?Sized> Ctx<'_, R> {
    /// The rules of a general or indirect operand's type `ty` and region.
    fn register_operand(
        &mut self,
        field: &'static str,
        dst: bool,
        ty: Option<DataType>,
        region: Region,
    ) {
        self.source_type(field, ty);
        self.register_type(field, ty);
        if dst || is_source(field) {
            self.region(field, dst, region);
        }
    }

    /// Checks an indirect operand's address register, offset and type; its type.
    fn indirect_type(
        &mut self,
        field: &'static str,
        id: u16,
        indirect_offset: i16,
        bit_properties: u8,
    ) -> Option<DataType> {
        if usize::from(id) >= self.address_count() {
            self.fail(field, rules::ADDRESS_ID, format!("A{id} is not declared"));
        }
        if !(-512..=511).contains(&indirect_offset) {
            self.fail(field, rules::INDIRECT_OFFSET, format!("{indirect_offset}"));
        }
        let ty = DataType::try_from(bit_properties & 0xf).ok();
        if matches!(
            ty,
            Some(DataType::V | DataType::Uv | DataType::Vf | DataType::Bool)
        ) {
            self.fail(field, rules::INDIRECT_TYPE, String::new());
        }
        ty
    }

    /// An address operand: declared, and as a source of a valid width within its variable.
    fn address_operand(&mut self, field: &'static str, dst: bool, id: u16, offset: u8, width: u8) {
        let count = self.address_count();
        if usize::from(id) >= count {
            self.fail(field, rules::ADDRESS_ID, format!("A{id} is not declared"));
        } else if !dst && !matches!(width, 1 | 2 | 4 | 8 | 16) {
            // "When used as the destination, an address operand's width is ignored."
            self.fail(field, rules::ADDRESS_WIDTH, format!("{width}"));
        } else if let Some(size) = self.address_size(id) {
            if u32::from(offset) + u32::from(width) > size && !dst {
                self.fail(
                    field,
                    rules::ADDRESS_RANGE,
                    format!("offset {offset} + width {width} > {size} elements"),
                );
            }
        }
    }

    /// A state operand (surface or sampler): declared; its field is remembered.
    fn state_operand(&mut self, field: &'static str, class: crate::runtime::StateClass, id: u16) {
        if let Some(slot) = self.state_fields.iter_mut().find(|s| s.is_none()) {
            *slot = Some(field);
        }
        let ok = match class {
            crate::runtime::StateClass::Surface => {
                u32::from(id) < PREDEFINED_SURFACES + self.r.surface_info().len() as u32
            }
            crate::runtime::StateClass::Sampler => {
                usize::from(id) < self.r.sampler_info().len() || u32::from(id) == BINDLESS_SAMPLER
            }
        };
        if !ok {
            self.fail(field, rules::STATE_ID, format!("{id} is not declared"));
        }
    }

    fn address_count(&self) -> usize {
        self.r.address_info().len()
    }
    fn address_size(&self, id: u16) -> Option<u32> {
        self.r
            .address_info()
            .get(usize::from(id))
            .map(|a| u32::from(a.num_elements))
    }

    /// A multi-address indirect source (null vertical stride, 5_operands.md:89) reads
    /// ExecSize / Width address elements (:97), at most the platform's address registers for
    /// Intel's verifier ("Number of Address for indirect operand exceeds 16": 16, and 32 on
    /// XE3P_CRI and later, [`IntelPlatform::address_registers`]; erratum
    /// 5_operands-04-multi-address-count).
    /// Intel counts them for a general source with a null vertical stride too, or one of an
    /// encoding the chapter does not list, which its reader otherwise accepts (erratum
    /// 5_operands-01-vertical-stride): `mad (M1, 32) ... V0065(0,0)<1,0>` (encoding 1100) is
    /// rejected with the same message.
    fn multi_address(&mut self, field: &'static str, region: Region) {
        // The encodings the chapter does not list (1000-1111) Intel reads as null: it prints
        // no vertical stride for them (`V0065(0,0)<1,0>`) and counts their addresses.
        let (vs, w) = (region.vertical_stride(), region.width());
        if (1..8).contains(&vs) || !(2..=6).contains(&w) {
            return;
        }
        let addresses = self.exec / (1u32 << (w - 2));
        if addresses > self.address_registers {
            let detail = format!("{addresses} address elements");
            self.fail(field, rules::MULTI_ADDRESS_COUNT, detail);
        }
    }

    /// MOVS.md:95, "Supported Type: UD (for general and immediate operand)": BF Intel's
    /// verifier rejects ("BF opnd is not allowed on this instruction"), every other type it
    /// accepts (`movs ... T6(0) VF(0,0)<0;1,0>`, `0x5:df`, on TGLLP, DG2 and PVC): a warning.
    fn movs_types(&mut self) {
        let types = [("Dst", self.dst_type), ("Src0", self.src_types[0])];
        for (field, t) in types {
            match t {
                Some(DataType::Bf) => self.fail(field, rules::MOVS_TYPE, String::new()),
                Some(DataType::Ud) | None => {}
                Some(t) => self.fail(field, rules::MOVS_TYPE_OTHER, t.name().into()),
            }
        }
    }

    /// What the bytes as read hold and the instruction does not (`InstructionStream::kept`):
    /// a modifier on MOVS's state destination (bits 3-5 of its tag, the third byte). Intel's
    /// reader ignores modifiers on state operands, but saturation there it rejects
    /// ("saturation forbidden on this instruction", TGLLP, DG2 and PVC; MOVS.md:100).
    fn kept(&mut self, read: &[u8]) {
        if self.name != "MOVS" {
            return;
        }
        if let Some(&tag) = read.get(2) {
            if tag & 7 == 6 && (tag >> 3) & 7 == 4 {
                self.fail("Dst", rules::MOVS_SATURATION, String::new());
            }
        }
    }
}

/// LSC_UNTYPED.md:478-496: the CachingL1/CachingL3 pairs (0 .df, 1 .uc, 2 .ca, 3 .wb, 4 .wt,
/// 5 .st, 6 .ri, 7 .cc) the table allows, for a load or a store. Intel's verifier applies
/// exactly these on DG2 and PVC ("invalid cache-control options for load (#53560)", "...
/// store"); `.ca.cc` for loads is erratum LSC_UNTYPED-caching-const-cached (IGC 2.x, XE3 on).
fn lsc_caching_allowed(load: bool, pair: (u64, u64)) -> bool {
    const BOTH: [(u64, u64); 3] = [(0, 0), (1, 1), (5, 1)];
    const LOADS: [(u64, u64); 6] = [(1, 2), (2, 1), (2, 2), (5, 2), (6, 2), (2, 7)];
    const STORES: [(u64, u64); 5] = [(1, 3), (4, 1), (4, 3), (5, 3), (3, 3)];
    BOTH.contains(&pair)
        || if load {
            LOADS.contains(&pair)
        } else {
            STORES.contains(&pair)
        }
}
