//! Every enumerated spelling the text uses and the docs lack or get wrong, in one place. Each
//! table maps a binary value to IGC 12504.6's spelling; each entry says where the spelling was
//! seen: a `real-kernels/dg2/*.visaasm` file (Intel's own print), a doc, or a section of
//! `notes/visa-text-syntax.md` ("note §N", which names the IGC table it was read from).

use crate::runtime::DataType;

/// One spelling: the binary `value`, the `text` IGC prints, and the `source` of that fact.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spelling {
    pub value: u8,
    pub text: &'static str,
    pub source: &'static str,
}

const fn s(value: u8, text: &'static str, source: &'static str) -> Spelling {
    Spelling {
        value,
        text,
        source,
    }
}

/// The text of `value` in `table`.
pub fn spell(table: &[Spelling], value: u8) -> Option<&'static str> {
    table.iter().find(|e| e.value == value).map(|e| e.text)
}

/// The value spelled `text` in `table` (case-sensitive, as IGC's lexer is for these).
pub fn value_of(table: &[Spelling], text: &str) -> Option<u8> {
    table.iter().find(|e| e.text == text).map(|e| e.value)
}

const CORPUS: &str = "real-kernels/dg2 (e.g. arith_float_float_ops.visaasm)";
const EXEC_DOC: &str =
    "Exec_size Bit[7..4] list of every doc (e.g. CMP.md); `_NM` as IGC spells it, note §4.2";

/// Execution masks (bits 4-7 of the exec-size byte). `M1`, `M3`, `M5`, `M7`, `M1_NM` and
/// `M5_NM` occur in the corpus; the rest follow the docs' list.
pub const EMASKS: &[Spelling] = &[
    s(0, "M1", CORPUS),
    s(1, "M2", EXEC_DOC),
    s(
        2,
        "M3",
        "private_arrays_priv.visaasm: `(P9) mov (M3, 8) ...`",
    ),
    s(3, "M4", EXEC_DOC),
    s(4, "M5", CORPUS),
    s(5, "M6", EXEC_DOC),
    s(6, "M7", "real-kernels/dg2: `(M7, 8)` occurs 114 times"),
    s(7, "M8", EXEC_DOC),
    s(8, "M1_NM", CORPUS),
    s(9, "M2_NM", EXEC_DOC),
    s(10, "M3_NM", EXEC_DOC),
    s(11, "M4_NM", EXEC_DOC),
    s(
        12,
        "M5_NM",
        "real-kernels/dg2: `(M5_NM, 16)` occurs 62 times",
    ),
    s(13, "M6_NM", EXEC_DOC),
    s(14, "M7_NM", EXEC_DOC),
    s(15, "M8_NM", EXEC_DOC),
];

/// The parser's alias for `M1_NM` (`ParseEMask`; note §4.1, tested with GenX_IR).
pub const NO_MASK_ALIAS: &str = "NoMask";

/// Data type suffixes of immediates and indirect operands (`:ud`): IGC prints lower case
/// (`CISATypeTable`), the parser also takes upper case (note §4.1).
pub const TYPES: &[Spelling] = &[
    s(DataType::Ud as u8, "ud", CORPUS),
    s(DataType::D as u8, "d", CORPUS),
    s(
        DataType::Uw as u8,
        "uw",
        "arith_int_uint_ops.visaasm et al.: `0x20:uw`",
    ),
    s(
        DataType::W as u8,
        "w",
        "control_flow_branches.visaasm: `0xfffffffd:w`",
    ),
    s(DataType::Ub as u8, "ub", "note §3 (CISATypeTable)"),
    s(DataType::B as u8, "b", "real-kernels/dg2: `0xfffffffc:b`"),
    s(DataType::Df as u8, "df", "note §4.1: `1.5:df`"),
    s(DataType::F as u8, "f", CORPUS),
    s(DataType::V as u8, "v", "real-kernels/dg2: `0x76543210:v`"),
    s(DataType::Vf as u8, "vf", "note §3 (CISATypeTable)"),
    s(DataType::Bool as u8, "bool", "note §3 (CISATypeTable)"),
    s(DataType::Uq as u8, "uq", "note §3 (CISATypeTable)"),
    s(DataType::Uv as u8, "uv", "real-kernels/dg2: `0x40:uv`"),
    s(DataType::Q as u8, "q", "note §3 (CISATypeTable)"),
    s(DataType::Hf as u8, "hf", "real-kernels/dg2: `0x3c00:hf`"),
    s(
        DataType::Bf as u8,
        "bf",
        "note §4.3: `0x…:bf` is printed (and not re-parsed by IGC)",
    ),
];

/// A type IGC 2.x declares variables with (`.decl V0100 v_type=G type=hf8 num_elts=64`) that
/// the docs do not have: its code (IGC's `VISA_Type`, past the object file's 4-bit type field)
/// and its text, and the docs' type that holds its values, as the docs' own instructions
/// denote them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextOnlyType {
    pub code: u8,
    pub text: &'static str,
    pub held_as: DataType,
    pub source: &'static str,
}

/// The types IGC 2.x declares that the docs lack ("vISA has no BF8/HF8 types", SRND.md). Codes
/// and texts: IGC 2.40 `visa/include/visa_igc_common_header.h` (`ISA_TYPE_TF32 = 0x10` to
/// `ISA_TYPE_E2M1 = 0x13`) and `visa/Common_ISA.cpp` (`CISATypeTable`).
pub const TEXT_ONLY_TYPES: &[TextOnlyType] = &[
    TextOnlyType {
        code: 0x10,
        text: "tf32",
        held_as: DataType::Ud,
        source: "FCVT.md: a TF32 value is given as UD",
    },
    TextOnlyType {
        code: 0x11,
        text: "hf8",
        held_as: DataType::B,
        source: "SRND.md: HF8 is denoted as B",
    },
    TextOnlyType {
        code: 0x12,
        text: "bf8",
        held_as: DataType::Ub,
        source: "SRND.md and FCVT.md: BF8 is denoted as UB",
    },
    TextOnlyType {
        code: 0x13,
        text: "e2m1",
        held_as: DataType::Ub,
        source: "IGC's CISATypeTable: one byte; DNSCL packs E2M1 values in unsigned integers",
    },
];

/// The text-only type of a declaration's `type=` word, lower or upper case as IGC's lexer
/// takes it (`hf8`, `HF8`).
pub fn text_only_type(text: &str) -> Option<TextOnlyType> {
    TEXT_ONLY_TYPES
        .iter()
        .find(|t| {
            let one_case = !text.bytes().any(|b| b.is_ascii_lowercase())
                || !text.bytes().any(|b| b.is_ascii_uppercase());
            t.text.eq_ignore_ascii_case(text) && one_case
        })
        .copied()
}

/// The lower-case suffix of a type (`ud`).
pub fn type_text(ty: DataType) -> &'static str {
    spell(TYPES, ty as u8).unwrap_or("")
}

/// The type of a suffix, in either case (`ud`, `UD`).
pub fn type_of(text: &str) -> Option<DataType> {
    let i = TYPES
        .iter()
        .position(|e| e.text.eq_ignore_ascii_case(text))?;
    DataType::try_from(TYPES[i].value).ok()
}

/// Relational operators of CMP (`Rel_op`), printed after the mnemonic: `cmp.lt`. Values from
/// CMP.md; `eq` (0) and `ge` (3) checked in the bytes of `arith_float_float_ops.isa`. Upper case
/// is rejected by IGC (note §4.2).
pub const CONDITION_MODIFIERS: &[Spelling] = &[
    s(0, "eq", "real-kernels/dg2: `cmp.eq` (182 lines)"),
    s(1, "ne", "real-kernels/dg2: `cmp.ne` (64 lines)"),
    s(2, "gt", "real-kernels/dg2: `cmp.gt` (90 lines)"),
    s(3, "ge", "real-kernels/dg2: `cmp.ge` (19 lines)"),
    s(4, "lt", "real-kernels/dg2: `cmp.lt` (127 lines)"),
    s(5, "le", "real-kernels/dg2: `cmp.le` (8 lines)"),
];

const ATOMIC_NOTE: &str = "note §5 (Common_ISA.cpp:CISAAtomicOpNames); value from DWORD_ATOMIC.md";

/// Atomic operations of DWORD_ATOMIC, SVM_ATOMIC and friends. The docs' `imin`/`imax` are
/// `minsint`/`maxsint` in IGC (values 0x0b/0x0c checked in `atomics_local_lhist.isa`); `predec`
/// (0x0d) has no IGC name and is left out; `fadd`/`fsub` are missing from the docs.
pub const ATOMIC_OPS: &[Spelling] = &[
    s(
        0x00,
        "add",
        "atomics_local_lhist.visaasm: `dword_atomic.add`",
    ),
    s(0x01, "sub", ATOMIC_NOTE),
    s(
        0x02,
        "inc",
        "atomics_local_lhist.visaasm: `dword_atomic.inc`",
    ),
    s(0x03, "dec", ATOMIC_NOTE),
    s(0x04, "min", "real-kernels/dg2: `svm_atomic.min`"),
    s(0x05, "max", ATOMIC_NOTE),
    s(
        0x06,
        "xchg",
        "atomics_local_lhist.visaasm: `dword_atomic.xchg`",
    ),
    s(
        0x07,
        "cmpxchg",
        "atomics_local_lhist.visaasm: `dword_atomic.cmpxchg`",
    ),
    s(0x08, "and", "real-kernels/dg2: `svm_atomic.and`"),
    s(0x09, "or", "real-kernels/dg2: `svm_atomic.or`"),
    s(0x0a, "xor", "real-kernels/dg2: `svm_atomic.xor`"),
    s(
        0x0b,
        "minsint",
        "atomics_local_lhist.visaasm: `dword_atomic.minsint`",
    ),
    s(
        0x0c,
        "maxsint",
        "atomics_local_lhist.visaasm: `dword_atomic.maxsint`",
    ),
    s(0x10, "fmax", ATOMIC_NOTE),
    s(0x11, "fmin", ATOMIC_NOTE),
    s(0x12, "fcmpwr", ATOMIC_NOTE),
    s(
        0x13,
        "fadd",
        "note §1 (DWORD_ATOMIC row): fadd/fsub (0x13/0x14) missing from the doc",
    ),
    s(
        0x14,
        "fsub",
        "note §1 (DWORD_ATOMIC row): fadd/fsub (0x13/0x14) missing from the doc",
    ),
];

const CHANNEL_NOTE: &str =
    "GATHER4_SCALED.md (R is bit 0, A bit 3); letters in RGBA order (note §5, channel_mask_str)";

/// Channel masks (R bit 0 ... A bit 3, enabled channels), printed after the mnemonic:
/// `gather4_scaled.RG`. `.R` is the value 1 in the bytes of `arith_float_float_ops.isa`.
/// IGC's parser also takes lower case (note §4.1).
pub const CHANNEL_MASKS: &[Spelling] = &[
    s(
        0x1,
        "R",
        "arith_float_float_ops.visaasm: `gather4_scaled.R`",
    ),
    s(0x2, "G", CHANNEL_NOTE),
    s(0x3, "RG", "calls_caller.visaasm: `gather4_scaled.RG`"),
    s(0x4, "B", CHANNEL_NOTE),
    s(0x5, "RB", CHANNEL_NOTE),
    s(0x6, "GB", CHANNEL_NOTE),
    s(0x7, "RGB", "real-kernels/dg2: `gather4_scaled.RGB`"),
    s(0x8, "A", CHANNEL_NOTE),
    s(0x9, "RA", CHANNEL_NOTE),
    s(0xa, "GA", CHANNEL_NOTE),
    s(0xb, "RGA", CHANNEL_NOTE),
    s(0xc, "BA", CHANNEL_NOTE),
    s(0xd, "RBA", CHANNEL_NOTE),
    s(0xe, "GBA", CHANNEL_NOTE),
    s(
        0xf,
        "RGBA",
        "real-kernels/dg2: `gather4_scaled.RGBA`, `scatter4_typed.RGBA`",
    ),
];

const MEDIA_NOTE: &str = "note §1 (MEDIA_LD row) and §5: IsaDisassembly.cpp media_ld_mod_str";

/// MEDIA_LD modifiers: the doc says "no modifiers / top_field / bottom_field"; IGC prints these.
pub const MEDIA_MODIFIERS: &[Spelling] = &[
    s(
        0,
        "nomod",
        "note §1: `media_ld.nomod (16,4) T6 ...` seen in 12504.6 output",
    ),
    s(1, "modified", MEDIA_NOTE),
    s(2, "top", MEDIA_NOTE),
    s(3, "bottom", MEDIA_NOTE),
    s(4, "top_mod", MEDIA_NOTE),
    s(5, "bottom_mod", MEDIA_NOTE),
];

const DPAS_DOC: &str = "DPAS.md precision table";

/// DPAS operand precisions (`dpas.s8.s8.8.8`). The doc gives tf32 as 0x0b; IGC has bf8 = 11 and
/// tf32 = 12 (note §5, GenPrecisionTable): IGC's values are used here.
pub const DPAS_PRECISIONS: &[Spelling] = &[
    s(0x01, "u1", DPAS_DOC),
    s(0x02, "s1", DPAS_DOC),
    s(0x03, "u2", DPAS_DOC),
    s(0x04, "s2", DPAS_DOC),
    s(0x05, "u4", DPAS_DOC),
    s(0x06, "s4", DPAS_DOC),
    s(0x07, "u8", DPAS_DOC),
    s(
        0x08,
        "s8",
        "note §1 (DPAS row): `dpas.s8.s8.8.8 (M1, 16) ...`",
    ),
    s(0x09, "bf", DPAS_DOC),
    s(0x0a, "hf", DPAS_DOC),
    s(0x0b, "bf8", "note §5: IGC GenPrecisionTable (11 = bf8)"),
    s(
        0x0c,
        "tf32",
        "note §5: IGC GenPrecisionTable (12 = tf32; the doc says 0x0b)",
    ),
];

/// LSC shared-function ids (`lsc_load.ugm`).
pub const LSC_SFIDS: &[Spelling] = &[
    s(
        0,
        "ugm",
        "LSC_FENCE.md SFID table; note §1: `lsc_load.ugm.ca.ca ...`",
    ),
    s(
        1,
        "ugml",
        "LSC_FENCE.md SFID table; GenX_IR 12504.6 assembles `lsc_load.ugml` with LscSFID 1",
    ),
    s(2, "tgm", "LSC_FENCE.md SFID table"),
    s(
        3,
        "slm",
        "LSC_FENCE.md SFID table; GenX_IR 12504.6 assembles `lsc_load.slm` with LscSFID 3",
    ),
];

const LSC_OPS_DOC: &str = "LSC_UNTYPED.md LscSubOp table";
const LSC_OPS_FIXTURE: &str =
    "LSC_UNTYPED.md LscSubOp table; Intel's print in tests/ocl/fixtures (e.g. atomics_global)";
const LSC_OPS_GENX: &str =
    "LSC_UNTYPED.md LscSubOp table; GenX_IR 12504.6 reads and reprints it unchanged";

/// LSC_UNTYPED sub-operations: the mnemonic of each `LscSubOp`. IGC 12504.6 knows no
/// `lsc_apndctr_atomic_*` (its reader says "invalid subop"): the doc's spelling is used.
pub const LSC_UNTYPED_OPS: &[Spelling] = &[
    s(0x00, "lsc_load", LSC_OPS_FIXTURE),
    s(0x01, "lsc_load_strided", LSC_OPS_GENX),
    s(0x02, "lsc_load_quad", LSC_OPS_GENX),
    s(0x03, "lsc_load_block2d", LSC_OPS_GENX),
    s(0x04, "lsc_store", LSC_OPS_FIXTURE),
    s(0x05, "lsc_store_strided", LSC_OPS_GENX),
    s(0x06, "lsc_store_quad", LSC_OPS_GENX),
    s(0x07, "lsc_store_block2d", LSC_OPS_GENX),
    s(0x08, "lsc_atomic_iinc", LSC_OPS_FIXTURE),
    s(0x09, "lsc_atomic_idec", LSC_OPS_GENX),
    s(0x0a, "lsc_atomic_load", LSC_OPS_DOC),
    s(0x0b, "lsc_atomic_store", LSC_OPS_FIXTURE),
    s(0x0c, "lsc_atomic_iadd", LSC_OPS_FIXTURE),
    s(0x0d, "lsc_atomic_isub", LSC_OPS_DOC),
    s(0x0e, "lsc_atomic_smin", LSC_OPS_DOC),
    s(0x0f, "lsc_atomic_smax", LSC_OPS_DOC),
    s(0x10, "lsc_atomic_umin", LSC_OPS_DOC),
    s(0x11, "lsc_atomic_umax", LSC_OPS_DOC),
    s(0x12, "lsc_atomic_icas", LSC_OPS_FIXTURE),
    s(0x13, "lsc_atomic_fadd", LSC_OPS_DOC),
    s(0x14, "lsc_atomic_fsub", LSC_OPS_DOC),
    s(0x15, "lsc_atomic_fmin", LSC_OPS_DOC),
    s(0x16, "lsc_atomic_fmax", LSC_OPS_DOC),
    s(0x17, "lsc_atomic_fcas", LSC_OPS_GENX),
    s(0x18, "lsc_atomic_and", LSC_OPS_DOC),
    s(0x19, "lsc_atomic_or", LSC_OPS_DOC),
    s(0x1a, "lsc_atomic_xor", LSC_OPS_DOC),
    s(0x1b, "lsc_load_status", LSC_OPS_GENX),
    s(0x1c, "lsc_store_uncompressed", LSC_OPS_GENX),
    s(0x28, "lsc_apndctr_atomic_add", LSC_OPS_DOC),
    s(0x29, "lsc_apndctr_atomic_sub", LSC_OPS_DOC),
];

/// LSC data orders (`DataOrder`), the suffix after the vector size: `V0055:d32t` is
/// transposed. The doc names the field but not its values.
pub const LSC_DATA_ORDERS: &[Spelling] = &[
    s(
        1,
        "",
        "GenX_IR 12504.6 assembles `VA:d32x4` with DataOrder 1 (non-transposed)",
    ),
    s(
        2,
        "t",
        "GenX_IR 12504.6 assembles `VA:d32x8t` with DataOrder 2; fixtures print `V0055:d32t`",
    ),
];

/// Channels of `lsc_load_quad`/`lsc_store_quad` (`VA:d32.xzw`), one letter per ChMask bit, in
/// this order.
pub const LSC_QUAD_CHANNELS: &[Spelling] = &[
    s(
        1,
        "x",
        "LSC_UNTYPED.md (`.xzw`); GenX_IR 12504.6 assembles `d32.xzw` with ChMask 0x0d",
    ),
    s(
        2,
        "y",
        "LSC_UNTYPED.md ChMask: X, Y, Z, W channel-enable bits",
    ),
    s(4, "z", "GenX_IR 12504.6: `d32.xzw` is ChMask 0x0d"),
    s(8, "w", "GenX_IR 12504.6: `d32.xzw` is ChMask 0x0d"),
];

/// Block2d layout letters (`VA:d16.2x16x8nt`): the first for DataOrder (`n` 1, `t` 2)...
pub const LSC_BLOCK2D_ORDERS: &[Spelling] = &[
    s(
        1,
        "n",
        "LSC_UNTYPED.md block2d examples; GenX_IR 12504.6 assembles `d16.16x8nn` with DataOrder 1",
    ),
    s(
        2,
        "t",
        "LSC_UNTYPED.md block2d example `d16.1x32x16tn` (transposed)",
    ),
];

/// ... the second for VNNI (`n` 0, `t` 1).
pub const LSC_BLOCK2D_VNNI: &[Spelling] = &[
    s(0, "n", "GenX_IR 12504.6 assembles `d16.16x8nn` with VNNI 0"),
    s(
        1,
        "t",
        "GenX_IR 12504.6 assembles `d16.2x16x8nt` with VNNI 1",
    ),
];

const LSC_CACHE_DOC: &str = "LSC_UNTYPED.md caching table";

/// LSC cache controls (`lsc_load.ugm.ca.ca`). Both are omitted when both are `df` (note §5,
/// `LscInstFormatter::formatCacheOpt`). IGC 2.x adds `.cc` (erratum
/// LSC_UNTYPED-caching-const-cached), which 12504.6 lacks.
pub const LSC_CACHE_CONTROLS: &[Spelling] = &[
    s(0, "df", LSC_CACHE_DOC),
    s(1, "uc", LSC_CACHE_DOC),
    s(
        2,
        "ca",
        "note §1 (LSC_UNTYPED row): `lsc_load.ugm.ca.ca` seen in 12504.6 output",
    ),
    s(3, "wb", LSC_CACHE_DOC),
    s(4, "wt", LSC_CACHE_DOC),
    s(5, "st", LSC_CACHE_DOC),
    s(6, "ri", LSC_CACHE_DOC),
    s(
        7,
        "cc",
        "LSC_UNTYPED.md caching table with erratum LSC_UNTYPED-caching-const-cached",
    ),
];

/// LSC address models (`bti(0x1)[V0057]:a32`). `surf` (6) is IGC 2.x's (erratum
/// LSC_UNTYPED-surf-and-widened-a32).
pub const LSC_ADDRESS_MODELS: &[Spelling] = &[
    s(1, "flat", "LSC_UNTYPED.md AddrType"),
    s(2, "bss", "LSC_UNTYPED.md AddrType"),
    s(3, "ss", "LSC_UNTYPED.md AddrType"),
    s(
        4,
        "bti",
        "LSC_UNTYPED.md AddrType; note §1: `bti(0x1)[V0057]:a32`",
    ),
    s(5, "arg", "LSC_UNTYPED.md AddrType"),
    s(
        6,
        "surf",
        "LSC_UNTYPED.md AddrType with erratum LSC_UNTYPED-surf-and-widened-a32",
    ),
];

/// LSC address sizes (`:a32`).
pub const LSC_ADDRESS_SIZES: &[Spelling] = &[
    s(1, "a16", "LSC_UNTYPED.md AddrSize"),
    s(2, "a32", "LSC_UNTYPED.md AddrSize; note §1: `[V0057]:a32`"),
    s(3, "a64", "LSC_UNTYPED.md AddrSize"),
    s(
        4,
        "a32u",
        "LSC_UNTYPED.md AddrSize with erratum LSC_UNTYPED-surf-and-widened-a32",
    ),
    s(
        5,
        "a32s",
        "LSC_UNTYPED.md AddrSize with erratum LSC_UNTYPED-surf-and-widened-a32",
    ),
];

const LSC_SIZE_1250: &str =
    "note §5/§7: 12504.6 prints d8c32/d16c32/d16c32h where the doc and HEAD say d8u32/d16u32/d16u32h";

/// LSC data sizes (`V0059:d32`), as 12504.6 prints them. The parser also takes `u8..u64` for
/// `d8..d64` ([`LSC_DATA_SIZE_ALIASES`]).
pub const LSC_DATA_SIZES: &[Spelling] = &[
    s(1, "d8", "LSC_UNTYPED.md DataSize"),
    s(2, "d16", "LSC_UNTYPED.md DataSize"),
    s(3, "d32", "LSC_UNTYPED.md DataSize; note §1: `V0059:d32`"),
    s(4, "d64", "LSC_UNTYPED.md DataSize"),
    s(5, "d8c32", LSC_SIZE_1250),
    s(6, "d16c32", LSC_SIZE_1250),
    s(7, "d16c32h", LSC_SIZE_1250),
];

/// Spellings IGC's parser takes for LSC data sizes but never prints (note §4.1: `u32` is
/// reprinted as `d32`).
pub const LSC_DATA_SIZE_ALIASES: &[Spelling] = &[
    s(1, "u8", "note §4.1"),
    s(2, "u16", "note §4.1"),
    s(3, "u32", "note §4.1 (reprinted as d32)"),
    s(4, "u64", "note §4.1"),
];

/// The doc's (and IGC HEAD's) spellings of data sizes 5-7, which 12504.6 prints `d8c32`,
/// `d16c32`, `d16c32h`; the parser takes them too (note §4.1: HEAD accepts both).
pub const LSC_DATA_SIZE_DOC_SPELLINGS: &[Spelling] = &[
    s(5, "d8u32", "LSC_UNTYPED.md DataSize"),
    s(6, "d16u32", "LSC_UNTYPED.md DataSize"),
    s(7, "d16u32h", "LSC_UNTYPED.md DataSize"),
];

/// LSC vector sizes (`d32x4`), the suffix after the data size; 1 prints nothing.
pub const LSC_VECTOR_SIZES: &[Spelling] = &[
    s(1, "", "LSC_UNTYPED.md DataElemsPerAddr (`..x1` or omit)"),
    s(2, "x2", "LSC_UNTYPED.md DataElemsPerAddr"),
    s(3, "x3", "LSC_UNTYPED.md DataElemsPerAddr"),
    s(
        4,
        "x4",
        "LSC_UNTYPED.md DataElemsPerAddr; its example `VVAL:d32x4`",
    ),
    s(5, "x8", "LSC_UNTYPED.md DataElemsPerAddr"),
    s(6, "x16", "LSC_UNTYPED.md DataElemsPerAddr"),
    s(7, "x32", "LSC_UNTYPED.md DataElemsPerAddr"),
    s(8, "x64", "LSC_UNTYPED.md DataElemsPerAddr"),
];

/// LSC fence operations (`lsc_fence.ugm.invalidate.gpu`).
pub const LSC_FENCE_OPS: &[Spelling] = &[
    s(0, "none", "LSC_FENCE.md LscFenceOp"),
    s(1, "evict", "LSC_FENCE.md LscFenceOp"),
    s(
        2,
        "invalidate",
        "LSC_FENCE.md LscFenceOp; note §1: `lsc_fence.ugm.invalidate.gpu`",
    ),
    s(3, "discard", "LSC_FENCE.md LscFenceOp"),
    s(4, "clean", "LSC_FENCE.md LscFenceOp"),
    s(5, "flushl3", "LSC_FENCE.md LscFenceOp"),
    s(
        6,
        "type6",
        "note §1 (LSC_FENCE row): `type6` is not in the doc",
    ),
];

/// LSC fence scopes. The doc's 0x5 `system` is `sysrel` in IGC, which rejects `system`
/// (note §1, LSC_FENCE row).
pub const LSC_FENCE_SCOPES: &[Spelling] = &[
    s(0, "group", "LSC_FENCE.md LscScope"),
    s(1, "local", "LSC_FENCE.md LscScope"),
    s(2, "tile", "LSC_FENCE.md LscScope"),
    s(
        3,
        "gpu",
        "LSC_FENCE.md LscScope; note §1: `lsc_fence.ugm.invalidate.gpu`",
    ),
    s(4, "gpus", "LSC_FENCE.md LscScope"),
    s(
        5,
        "sysrel",
        "note §1 (LSC_FENCE row): IGC prints and accepts only `sysrel`",
    ),
    s(6, "sysacq", "LSC_FENCE.md LscScope"),
];

/// Every table, by name: for tests and tools that list the spellings.
pub const ALL_TABLES: &[(&str, &[Spelling])] = &[
    ("emasks", EMASKS),
    ("types", TYPES),
    ("condition modifiers", CONDITION_MODIFIERS),
    ("atomic ops", ATOMIC_OPS),
    ("channel masks", CHANNEL_MASKS),
    ("media modifiers", MEDIA_MODIFIERS),
    ("dpas precisions", DPAS_PRECISIONS),
    ("lsc sfids", LSC_SFIDS),
    ("lsc untyped ops", LSC_UNTYPED_OPS),
    ("lsc data orders", LSC_DATA_ORDERS),
    ("lsc quad channels", LSC_QUAD_CHANNELS),
    ("lsc block2d orders", LSC_BLOCK2D_ORDERS),
    ("lsc block2d vnni", LSC_BLOCK2D_VNNI),
    ("lsc cache controls", LSC_CACHE_CONTROLS),
    ("lsc address models", LSC_ADDRESS_MODELS),
    ("lsc address sizes", LSC_ADDRESS_SIZES),
    ("lsc data sizes", LSC_DATA_SIZES),
    ("lsc data size aliases", LSC_DATA_SIZE_ALIASES),
    ("lsc data size doc spellings", LSC_DATA_SIZE_DOC_SPELLINGS),
    ("lsc vector sizes", LSC_VECTOR_SIZES),
    ("lsc fence ops", LSC_FENCE_OPS),
    ("lsc fence scopes", LSC_FENCE_SCOPES),
];

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;

    #[test]
    fn every_table_is_a_bijection_with_sources() {
        for (name, table) in ALL_TABLES {
            let values: BTreeSet<u8> = table.iter().map(|e| e.value).collect();
            let texts: BTreeSet<&str> = table.iter().map(|e| e.text).collect();
            assert_eq!(values.len(), table.len(), "{name}: duplicate value");
            assert_eq!(texts.len(), table.len(), "{name}: duplicate text");
            assert!(table.iter().all(|e| !e.source.is_empty()), "{name}");
        }
    }

    #[test]
    fn text_only_types_read_in_one_case_and_never_shadow_the_docs() {
        let code = |w: &str| text_only_type(w).map(|t| t.code);
        assert_eq!(code("tf32"), Some(0x10));
        assert_eq!(code("HF8"), Some(0x11));
        assert_eq!(code("bf8"), Some(0x12));
        assert_eq!(code("E2M1"), Some(0x13));
        assert_eq!(code("Bf8"), None);
        assert_eq!(code("bf"), None);
        assert_eq!(text_only_type("hf8").map(|t| t.held_as), Some(DataType::B));
        for t in TEXT_ONLY_TYPES {
            assert!(t.code > 0xf, "{}: fits the 4-bit field", t.text);
            assert_eq!(type_of(t.text), None, "{}", t.text);
        }
    }

    #[test]
    fn lookups_both_ways() {
        // atomics_local_lhist.visaasm: `dword_atomic.minsint (M1_NM, 1) %slm V0096.0 ...`,
        // whose Op byte in atomics_local_lhist.isa is 0x0b.
        assert_eq!(spell(ATOMIC_OPS, 0x0b), Some("minsint"));
        assert_eq!(value_of(ATOMIC_OPS, "maxsint"), Some(0x0c));
        assert_eq!(
            value_of(ATOMIC_OPS, "imin"),
            None,
            "the doc's name is not IGC's"
        );
        assert_eq!(spell(EMASKS, 12), Some("M5_NM"));
        assert_eq!(type_text(DataType::Uq), "uq");
        assert_eq!(type_of("UD"), Some(DataType::Ud));
        assert_eq!(type_of("Hf"), Some(DataType::Hf));
        assert_eq!(type_of("x"), None);
        assert_eq!(spell(CHANNEL_MASKS, 0xf), Some("RGBA"));
        assert_eq!(value_of(LSC_DATA_SIZES, "d8c32"), Some(5));
    }

    #[test]
    fn channel_mask_letters_follow_the_bits() {
        for e in CHANNEL_MASKS {
            let letters: alloc::string::String = ['R', 'G', 'B', 'A']
                .iter()
                .enumerate()
                .filter(|(i, _)| e.value >> i & 1 == 1)
                .map(|(_, c)| *c)
                .collect();
            assert_eq!(letters, e.text);
        }
    }
}
