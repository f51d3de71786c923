//! Operands, as laid out in the operands chapter (`5_operands.md`) and the data types chapter
//! (`2_datatypes.md`). Every decoder is lossless: what it accepts re-encodes to the same bytes,
//! and bits the chapter reserves are rejected rather than dropped.

use crate::runtime::codec::{Decode, Encode, Reader, Staging};
use crate::runtime::error::{DecodeError, DecodeErrorKind};

macro_rules! data_types {
    ($($v:ident = $n:literal, $name:literal, $bytes:literal;)*) => {
        /// A vISA data type with its binary format (`2_datatypes.md`, "Fundamental Data Types").
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum DataType { $(#[doc = $name] $v = $n,)* }

        impl DataType {
            /// Every type, in binary-format order.
            pub const ALL: &'static [DataType] = &[$(DataType::$v,)*];

            /// The 4-bit binary format.
            #[inline]
            pub fn as_u8(self) -> u8 { self as u8 }

            /// The text format, upper case as the docs write it (`UD`).
            pub fn name(self) -> &'static str {
                match self { $(DataType::$v => $name,)* }
            }

            /// Size of one element in bytes; 0 for BOOL (one bit).
            pub fn size(self) -> usize {
                match self { $(DataType::$v => $bytes,)* }
            }

            /// The type of a text name (`"UD"`), case-sensitive as the docs write them.
            pub fn from_name(name: &str) -> Option<DataType> {
                match name { $($name => Some(DataType::$v),)* _ => None }
            }
        }

        impl TryFrom<u8> for DataType {
            type Error = u8;
            #[inline]
            fn try_from(v: u8) -> Result<Self, u8> {
                match v { $($n => Ok(DataType::$v),)* _ => Err(v) }
            }
        }
    };
}

data_types! {
    Ud = 0b0000, "UD", 4;
    D = 0b0001, "D", 4;
    Uw = 0b0010, "UW", 2;
    W = 0b0011, "W", 2;
    Ub = 0b0100, "UB", 1;
    B = 0b0101, "B", 1;
    Df = 0b0110, "DF", 8;
    F = 0b0111, "F", 4;
    V = 0b1000, "V", 4;
    Vf = 0b1001, "VF", 4;
    Bool = 0b1010, "BOOL", 0;
    Uq = 0b1011, "UQ", 8;
    Uv = 0b1100, "UV", 4;
    Q = 0b1101, "Q", 8;
    Hf = 0b1110, "HF", 2;
    Bf = 0b1111, "BF", 2;
}

/// The class of a vector operand: bits 0-2 of its tag byte ("Vector Operands").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum OperandClass {
    General = 0b000,
    Address = 0b001,
    Predicate = 0b010,
    Indirect = 0b011,
    Immediate = 0b101,
    State = 0b110,
}

impl OperandClass {
    /// Lower case, as docs write it in "Operand class: general,indirect".
    pub fn name(self) -> &'static str {
        match self {
            OperandClass::General => "general",
            OperandClass::Address => "address",
            OperandClass::Predicate => "predicate",
            OperandClass::Indirect => "indirect",
            OperandClass::Immediate => "immediate",
            OperandClass::State => "state",
        }
    }

    pub fn from_name(name: &str) -> Option<OperandClass> {
        [
            OperandClass::General,
            OperandClass::Address,
            OperandClass::Predicate,
            OperandClass::Indirect,
            OperandClass::Immediate,
            OperandClass::State,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// A region word (`uw region` of general and indirect operands): vertical stride in bits 0-3,
/// width in bits 4-7, horizontal stride in bits 8-11, each in the shared encoding
/// (`0000` null, `0001` 0 elements, `0010` 1, `0011` 2, `0100` 4, ... `0111` 32). Kept as the
/// raw word so any decoded region re-encodes exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Region(pub u16);

impl Region {
    /// Builds a region from the three 4-bit encodings.
    pub fn new(vertical_stride: u8, width: u8, horizontal_stride: u8) -> Self {
        Region(
            u16::from(vertical_stride & 0xf)
                | u16::from(width & 0xf) << 4
                | u16::from(horizontal_stride & 0xf) << 8,
        )
    }
    pub fn vertical_stride(self) -> u8 {
        (self.0 & 0xf) as u8
    }
    pub fn width(self) -> u8 {
        (self.0 >> 4 & 0xf) as u8
    }
    pub fn horizontal_stride(self) -> u8 {
        (self.0 >> 8 & 0xf) as u8
    }
    /// Elements of an encoding, `None` for null and the encodings the chapter does not list.
    pub fn elements(encoding: u8) -> Option<u32> {
        match encoding {
            1 => Some(0),
            2..=7 => Some(1 << (encoding - 2)),
            _ => None,
        }
    }
}

/// The predication control word (`Pred(uw)` of instructions, and predicate operands):
/// bit 15 inverse, bits 13-14 combine, bit 12 reserved, bits 0-11 the predicate id
/// ("Predication"). Kept as the raw word so every value round-trips; 0 means no predicate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PredicateControl(pub u16);

/// How a predicate maps to channels (bits 13-14 of [`PredicateControl`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PredicateCombine {
    /// `00`: sequential channel-to-predicate mapping.
    Sequential,
    /// `01`: 1 for all channels if any predicate bit is 1.
    Any,
    /// `10`: 1 for all channels if all predicate bits are 1.
    All,
    /// `11`: reserved.
    Reserved,
}

impl PredicateControl {
    /// No predication.
    pub const NONE: PredicateControl = PredicateControl(0);
    /// What decoding in place starts from.
    // Unused by docs without fields of this type.
    #[allow(dead_code)]
    pub(crate) const PLACEHOLDER: PredicateControl = PredicateControl::NONE;

    pub fn new(id: u16, combine: PredicateCombine, inverse: bool) -> Self {
        let c = match combine {
            PredicateCombine::Sequential => 0,
            PredicateCombine::Any => 1,
            PredicateCombine::All => 2,
            PredicateCombine::Reserved => 3,
        };
        PredicateControl((id & 0xfff) | c << 13 | u16::from(inverse) << 15)
    }
    /// Index of the predicate variable, 0..=4095.
    pub fn id(self) -> u16 {
        self.0 & 0xfff
    }
    pub fn combine(self) -> PredicateCombine {
        match self.0 >> 13 & 3 {
            0 => PredicateCombine::Sequential,
            1 => PredicateCombine::Any,
            2 => PredicateCombine::All,
            _ => PredicateCombine::Reserved,
        }
    }
    pub fn inverse(self) -> bool {
        self.0 & 0x8000 != 0
    }
    /// Bit 12, which must be 0.
    pub fn reserved_bit(self) -> bool {
        self.0 & 0x1000 != 0
    }
    /// Breaks no rule of the chapter: reserved bit clear, combine not `11`.
    pub fn is_valid(self) -> bool {
        !self.reserved_bit() && self.combine() != PredicateCombine::Reserved
    }
}

impl Encode for PredicateControl {
    #[inline(always)]
    fn put(&self, out: &mut Staging<'_>) {
        self.0.put(out)
    }
}

impl Decode for PredicateControl {
    #[inline]
    fn decode(r: &mut Reader<'_>, field: &'static str) -> Result<Self, DecodeError> {
        Ok(PredicateControl(u16::decode(r, field)?))
    }
}

/// The exec-size byte of most instructions: size in bits 0-2 (`0b000` 1 element ...
/// `0b101` 32), execution mask in bits 4-7 (`M1`..`M8`, `M1_NM`..`M8_NM`). Generated
/// instructions carry typed enums of the values their doc allows; this is the generic view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ExecSize(pub u8);

impl ExecSize {
    pub fn new(size_bits: u8, mask_bits: u8) -> Self {
        ExecSize((size_bits & 7) | (mask_bits & 0xf) << 4)
    }
    /// Bits 0-2.
    pub fn size_bits(self) -> u8 {
        self.0 & 7
    }
    /// Number of elements, for the encodings 0..=5.
    pub fn elements(self) -> Option<u32> {
        (self.size_bits() <= 5).then(|| 1 << self.size_bits())
    }
    /// Bits 4-7: `0..=7` are `M1`..`M8`, `8..=15` the same with no mask (`_NM`).
    pub fn mask_bits(self) -> u8 {
        self.0 >> 4
    }
    /// Bit 3, not used by the layout.
    pub fn reserved_bit(self) -> bool {
        self.0 & 8 != 0
    }
}

/// A raw operand ("Raw Operands"): `ud id; uw offset` — a variable and a byte offset into it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct RawOperand {
    /// Index of the variable in the variables table.
    pub id: u32,
    /// Offset in bytes from the base of the variable.
    pub offset: u16,
}

impl RawOperand {
    /// What decoding in place starts from.
    // Unused by docs without fields of this type.
    #[allow(dead_code)]
    pub(crate) const PLACEHOLDER: RawOperand = RawOperand { id: 0, offset: 0 };
}

impl Encode for RawOperand {
    #[inline(always)]
    fn put(&self, out: &mut Staging<'_>) {
        out.le(u64::from(self.id) | u64::from(self.offset) << 32, 6);
    }
}

impl Decode for RawOperand {
    #[inline]
    fn decode(r: &mut Reader<'_>, field: &'static str) -> Result<Self, DecodeError> {
        let b: [u8; 6] = r.array(field)?;
        Ok(RawOperand {
            id: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            offset: u16::from_le_bytes([b[4], b[5]]),
        })
    }
}

/// The storage class of a state operand (bits 0-1 of its `class` byte).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateClass {
    /// `00`
    Surface,
    /// `01`
    Sampler,
}

/// An immediate constant: its type and value. Types of 8 bytes (DF, Q, UQ) carry a `high`
/// word in the binary form; for the others `value` must fit in 32 bits.
///
/// Packed (9 bytes, alignment 1) so that a [`VectorOperand`] takes 12 bytes rather than 24:
/// instructions hold up to a dozen operands and decoding writes every byte of them. Read the
/// fields by value (`imm.value`); a reference to a packed field is not allowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(C, packed)]
pub struct Immediate {
    pub ty: DataType,
    pub value: u64,
}

impl Immediate {
    /// Does the binary form carry the high 32 bits?
    pub fn is_wide(ty: DataType) -> bool {
        matches!(ty, DataType::Df | DataType::Q | DataType::Uq)
    }
}

/// A vector operand ("Vector Operands"): a tag byte (class in bits 0-2, modifier in bits 3-5)
/// followed by the class's info.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VectorOperand {
    /// `gen_opnd { ud id; ub row_offset; ub col_offset; uw region; }`
    General {
        modifier: u8,
        id: u32,
        row_offset: u8,
        col_offset: u8,
        region: Region,
    },
    /// `addr_opnd { uw id; ub offset; ub width; }`
    Address { id: u16, offset: u8, width: u8 },
    /// `pred_opnd { uw val; }`
    Predicate(PredicateControl),
    /// `indirect_opnd { uw id; ub addr_offset; w indirect_offset; ub bit_properties; uw region; }`
    Indirect {
        modifier: u8,
        id: u16,
        addr_offset: u8,
        indirect_offset: i16,
        /// Bits 0-3: the operand's type; other bits kept as read.
        bit_properties: u8,
        region: Region,
    },
    /// `const_opnd { ub type; ud low; ud high; /* DF, Q, UQ only */ }`
    Immediate(Immediate),
    /// `state_opnd { ub class; uw id; ub offset; }`
    State {
        class: StateClass,
        id: u16,
        offset: u8,
    },
}

impl VectorOperand {
    /// What decoding in place starts from.
    pub(crate) const PLACEHOLDER: VectorOperand = VectorOperand::Predicate(PredicateControl::NONE);

    /// `src0 is scalar` of the pseudo-code (SETP): an immediate, or a general or indirect
    /// operand whose region repeats one element (vertical stride 0, width 1: `<0;1,0>`).
    pub fn is_scalar(&self) -> bool {
        match self {
            VectorOperand::Immediate(_) => true,
            VectorOperand::General { region, .. } | VectorOperand::Indirect { region, .. } => {
                Region::elements(region.vertical_stride()) == Some(0)
                    && Region::elements(region.width()) == Some(1)
            }
            _ => false,
        }
    }

    pub fn class(&self) -> OperandClass {
        match self {
            VectorOperand::General { .. } => OperandClass::General,
            VectorOperand::Address { .. } => OperandClass::Address,
            VectorOperand::Predicate(_) => OperandClass::Predicate,
            VectorOperand::Indirect { .. } => OperandClass::Indirect,
            VectorOperand::Immediate(_) => OperandClass::Immediate,
            VectorOperand::State { .. } => OperandClass::State,
        }
    }

    /// The type the operand itself carries: immediates and indirect operands do; general
    /// operands take their variable's declared type, which the instruction does not hold.
    pub fn immediate_type(&self) -> Option<DataType> {
        match self {
            VectorOperand::Immediate(i) => Some(i.ty),
            VectorOperand::Indirect { bit_properties, .. } => {
                DataType::try_from(bit_properties & 0xf).ok()
            }
            _ => None,
        }
    }

    fn tag(&self) -> u8 {
        let modifier = match self {
            VectorOperand::General { modifier, .. } | VectorOperand::Indirect { modifier, .. } => {
                *modifier & 7
            }
            _ => 0,
        };
        self.class() as u8 | modifier << 3
    }
}

impl Encode for VectorOperand {
    /// General operands and immediates of up to 4 bytes (nearly all operands of real code) are
    /// written inline, in one or two word writes (see [`Staging::le`]); the other classes in a
    /// call, which dispatches on the class through a jump table.
    #[inline(always)]
    fn put(&self, out: &mut Staging<'_>) {
        match *self {
            VectorOperand::General {
                modifier,
                id,
                row_offset,
                col_offset,
                region,
            } => put_general((modifier & 7) << 3, id, row_offset, col_offset, region, out),
            VectorOperand::Immediate(imm) if !Immediate::is_wide(imm.ty) => put_immediate(imm, out),
            _ => self.put_any(out),
        }
    }
}

/// A general operand: the tag and the next 7 bytes in one word, the region's high byte after.
#[inline(always)]
fn put_general(tag: u8, id: u32, row: u8, col: u8, region: Region, out: &mut Staging<'_>) {
    let region = u64::from(region.0);
    out.le(
        u64::from(tag)
            | u64::from(id) << 8
            | u64::from(row) << 40
            | u64::from(col) << 48
            | (region & 0xff) << 56,
        8,
    );
    out.le(region >> 8, 1);
}

/// An immediate: tag, type and a 4-byte value in one word; an 8-byte value in two.
#[inline(always)]
fn put_immediate(imm: Immediate, out: &mut Staging<'_>) {
    let (ty, value) = (imm.ty, imm.value);
    let head = OperandClass::Immediate as u64 | u64::from(ty.as_u8()) << 8;
    if Immediate::is_wide(ty) {
        out.le(head | value << 16, 8);
        out.le(value >> 48, 2);
    } else {
        out.le(head | (value & 0xffff_ffff) << 16, 6);
    }
}

impl VectorOperand {
    /// Any operand, one or two word writes.
    #[inline(never)]
    fn put_any(&self, out: &mut Staging<'_>) {
        let tag = u64::from(self.tag());
        match *self {
            VectorOperand::General {
                id,
                row_offset,
                col_offset,
                region,
                ..
            } => put_general(self.tag(), id, row_offset, col_offset, region, out),
            VectorOperand::Address { id, offset, width } => out.le(
                tag | u64::from(id) << 8 | u64::from(offset) << 24 | u64::from(width) << 32,
                5,
            ),
            VectorOperand::Predicate(p) => out.le(tag | u64::from(p.0) << 8, 3),
            VectorOperand::Indirect {
                id,
                addr_offset,
                indirect_offset,
                bit_properties,
                region,
                ..
            } => {
                let region = u64::from(region.0);
                out.le(
                    tag | u64::from(id) << 8
                        | u64::from(addr_offset) << 24
                        | u64::from(indirect_offset as u16) << 32
                        | u64::from(bit_properties) << 48
                        | (region & 0xff) << 56,
                    8,
                );
                out.le(region >> 8, 1);
            }
            VectorOperand::Immediate(imm) => put_immediate(imm, out),
            VectorOperand::State { class, id, offset } => {
                let class: u64 = match class {
                    StateClass::Surface => 0,
                    StateClass::Sampler => 1,
                };
                out.le(
                    tag | class << 8 | u64::from(id) << 16 | u64::from(offset) << 32,
                    5,
                );
            }
        }
    }
}

/// What the strict decoder expects where an operand has bits the operands chapter does not
/// define: bits 6-7 of the tag ("contains two items: operand_class and modifiers", bits 0-5)
/// and bits 4-7 of an immediate's type byte ("bit0-3 specifies the type"), and where it sets
/// a modifier (bits 3-5) on an address, predicate, immediate or state operand ("for the other
/// operands the modifier must be zero"). Intel's reader ignores all of them (`tag & 7`, the
/// modifier only for general and indirect operands, `type & 0xF`); the object-file reader
/// reads such an instruction as Intel does and keeps the bits ([`ignored_bits`]).
pub(crate) const TAG_HIGH_BITS: &str = "an operand tag with bits 6-7 clear";
pub(crate) const NO_MODIFIER: &str =
    "modifier 0: only general and indirect operands take modifiers";
pub(crate) const IMMEDIATE_TYPE_HIGH_BITS: &str =
    "an immediate type in bits 0-3 (any type but BOOL), bits 4-7 clear";

/// The bits of the byte at `error.offset` that Intel's reader ignores and whose being set is
/// all that stopped the strict decoder, or `None` when the error is of another kind.
pub(crate) fn ignored_bits(error: &DecodeError, byte: u8) -> Option<u8> {
    let DecodeErrorKind::InvalidValue { expected, .. } = error.kind else {
        return None;
    };
    if expected == TAG_HIGH_BITS {
        Some(0xc0)
    } else if expected == NO_MODIFIER {
        // Intel's verifier rejects a modifier on a state operand once in the large
        // differential run ("Operand modifier for non-general and non-indirect operands must be
        // MODIFIER_NONE") and accepts it in 16 others: ignored like the rest.
        Some(0x38)
    } else if expected == IMMEDIATE_TYPE_HIGH_BITS
        && byte & 0xf0 != 0
        && byte & 0xf != DataType::Bool as u8
    {
        Some(0xf0)
    } else {
        None
    }
}

#[cold]
#[inline(never)]
fn invalid(
    r: &Reader<'_>,
    field: &'static str,
    at: usize,
    value: u8,
    expected: &'static str,
) -> DecodeError {
    r.error_at(
        field,
        at,
        DecodeErrorKind::InvalidValue {
            value: u64::from(value),
            expected,
        },
    )
}

impl Decode for VectorOperand {
    #[inline(always)]
    fn decode(r: &mut Reader<'_>, field: &'static str) -> Result<Self, DecodeError> {
        let mut out = VectorOperand::PLACEHOLDER;
        out.decode_in_place(r, field)?;
        Ok(out)
    }

    /// General operands and 4-byte immediates (most operands of real code) take an inlined
    /// path with one bounds check; every other operand, and every error, the full decoder.
    /// Each is written straight into `self`: built elsewhere and copied, its narrow fields
    /// would be read back as one wide word, which the CPU cannot forward from the stores.
    #[inline(always)]
    fn decode_in_place(
        &mut self,
        r: &mut Reader<'_>,
        field: &'static str,
    ) -> Result<(), DecodeError> {
        let rest = r.remaining();
        if let Some(b) = rest.first_chunk::<9>() {
            if b[0] & 0b1100_0111 == 0 {
                r.advance(9);
                *self = VectorOperand::General {
                    modifier: b[0] >> 3,
                    id: u32::from_le_bytes([b[1], b[2], b[3], b[4]]),
                    row_offset: b[5],
                    col_offset: b[6],
                    region: Region(u16::from_le_bytes([b[7], b[8]])),
                };
                return Ok(());
            }
        }
        if let Some(b) = rest.first_chunk::<6>() {
            if b[0] == 0b101 {
                if let Ok(ty) = DataType::try_from(b[1]) {
                    if ty != DataType::Bool && !Immediate::is_wide(ty) {
                        r.advance(6);
                        *self = VectorOperand::Immediate(Immediate {
                            ty,
                            value: u64::from(u32::from_le_bytes([b[2], b[3], b[4], b[5]])),
                        });
                        return Ok(());
                    }
                }
            }
        }
        *self = decode_vector_operand(r, field)?;
        Ok(())
    }
}

const OPERAND_CLASSES: &str = "operand class 0 (general), 1 (address), 2 (predicate), 3 (indirect), 5 (immediate) or 6 (state)";

/// Any vector operand, with the error of a malformed one.
#[inline(never)]
fn decode_vector_operand(
    r: &mut Reader<'_>,
    field: &'static str,
) -> Result<VectorOperand, DecodeError> {
    let at = r.position();
    let tag = u8::decode(r, field)?;
    let modifier = tag >> 3 & 7;
    if tag >> 6 != 0 {
        return Err(invalid(r, field, at, tag, TAG_HIGH_BITS));
    }
    let no_modifier = |r: &Reader<'_>| {
        if modifier != 0 {
            Err(invalid(r, field, at, tag, NO_MODIFIER))
        } else {
            Ok(())
        }
    };
    match tag & 7 {
        0b000 => {
            let b: [u8; 8] = r.array(field)?;
            Ok(VectorOperand::General {
                modifier,
                id: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                row_offset: b[4],
                col_offset: b[5],
                region: Region(u16::from_le_bytes([b[6], b[7]])),
            })
        }
        0b001 => {
            no_modifier(r)?;
            let b: [u8; 4] = r.array(field)?;
            Ok(VectorOperand::Address {
                id: u16::from_le_bytes([b[0], b[1]]),
                offset: b[2],
                width: b[3],
            })
        }
        0b010 => {
            no_modifier(r)?;
            Ok(VectorOperand::Predicate(PredicateControl::decode(
                r, field,
            )?))
        }
        0b011 => {
            let b: [u8; 8] = r.array(field)?;
            Ok(VectorOperand::Indirect {
                modifier,
                id: u16::from_le_bytes([b[0], b[1]]),
                addr_offset: b[2],
                indirect_offset: i16::from_le_bytes([b[3], b[4]]),
                bit_properties: b[5],
                region: Region(u16::from_le_bytes([b[6], b[7]])),
            })
        }
        0b101 => {
            no_modifier(r)?;
            decode_immediate(r, field)
        }
        0b110 => {
            no_modifier(r)?;
            decode_state(r, field)
        }
        _ => Err(invalid(r, field, at, tag, OPERAND_CLASSES)),
    }
}

/// An immediate operand after its tag: its type byte, then 4 or 8 bytes of value.
fn decode_immediate(r: &mut Reader<'_>, field: &'static str) -> Result<VectorOperand, DecodeError> {
    let type_at = r.position();
    let t = u8::decode(r, field)?;
    let ty = match DataType::try_from(t) {
        Ok(ty) if ty != DataType::Bool => ty,
        _ => return Err(invalid(r, field, type_at, t, IMMEDIATE_TYPE_HIGH_BITS)),
    };
    let low = u32::decode(r, field)?;
    let high = if Immediate::is_wide(ty) {
        u32::decode(r, field)?
    } else {
        0
    };
    Ok(VectorOperand::Immediate(Immediate {
        ty,
        value: u64::from(high) << 32 | u64::from(low),
    }))
}

/// A state operand after its tag: class, id and offset.
fn decode_state(r: &mut Reader<'_>, field: &'static str) -> Result<VectorOperand, DecodeError> {
    let class_at = r.position();
    let b: [u8; 4] = r.array(field)?;
    let class = match b[0] {
        0 => StateClass::Surface,
        1 => StateClass::Sampler,
        c => {
            return Err(invalid(
                r,
                field,
                class_at,
                c,
                "state class 0 (surface) or 1 (sampler)",
            ))
        }
    };
    Ok(VectorOperand::State {
        class,
        id: u16::from_le_bytes([b[1], b[2]]),
        offset: b[3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    fn enc<T: Encode>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        v.encode(&mut out);
        out
    }

    fn dec<T: Decode>(bytes: &[u8]) -> Result<(T, usize), DecodeError> {
        let mut r = Reader::new(bytes);
        let v = T::decode(&mut r, "X")?;
        Ok((v, r.position()))
    }

    #[test]
    fn general_operand_golden_bytes() {
        // tag: class General 000, modifier 0 -> 0x00; id 10 (ud) -> 0a 00 00 00; row 1; col 2;
        // region <8;8,1>: vs 8 elements = 0101, width 8 = 0101, hs 1 = 0010 -> 0x0255 -> 55 02.
        let op = VectorOperand::General {
            modifier: 0,
            id: 10,
            row_offset: 1,
            col_offset: 2,
            region: Region::new(5, 5, 2),
        };
        let bytes = vec![0x00, 0x0a, 0, 0, 0, 0x01, 0x02, 0x55, 0x02];
        assert_eq!(enc(&op), bytes);
        assert_eq!(dec::<VectorOperand>(&bytes).unwrap(), (op, 9));
    }

    #[test]
    fn immediate_golden_bytes_narrow_and_wide() {
        // tag: class Immediate 101 -> 0x05; type UD 0b0000; low 0x40 -> 40 00 00 00.
        let ud = VectorOperand::Immediate(Immediate {
            ty: DataType::Ud,
            value: 0x40,
        });
        assert_eq!(enc(&ud), vec![0x05, 0x00, 0x40, 0, 0, 0]);
        // type UQ 0b1011 = 0x0b; value 0x1_0000_0002 -> low 02 00 00 00, high 01 00 00 00.
        let uq = VectorOperand::Immediate(Immediate {
            ty: DataType::Uq,
            value: 0x1_0000_0002,
        });
        let bytes = vec![0x05, 0x0b, 2, 0, 0, 0, 1, 0, 0, 0];
        assert_eq!(enc(&uq), bytes);
        assert_eq!(dec::<VectorOperand>(&bytes).unwrap(), (uq, 10));
        assert_eq!(uq.immediate_type(), Some(DataType::Uq));
    }

    #[test]
    fn address_predicate_indirect_state_golden_bytes() {
        // Address: tag 0x01; id 3 (uw) -> 03 00; offset 1; width 4.
        let a = VectorOperand::Address {
            id: 3,
            offset: 1,
            width: 4,
        };
        assert_eq!(enc(&a), vec![0x01, 0x03, 0x00, 0x01, 0x04]);
        // Predicate: tag 0x02; val: id 5 with inverse (bit 15) -> 0x8005 -> 05 80.
        let p =
            VectorOperand::Predicate(PredicateControl::new(5, PredicateCombine::Sequential, true));
        assert_eq!(enc(&p), vec![0x02, 0x05, 0x80]);
        // Indirect with modifier 1 (bits 3-5): tag 0b001_011 = 0x0b; id 2 -> 02 00; addr_offset 0;
        // indirect_offset -4 (w) -> fc ff; bit_properties type F 0b0111 -> 07; region 0x0121 -> 21 01.
        let i = VectorOperand::Indirect {
            modifier: 1,
            id: 2,
            addr_offset: 0,
            indirect_offset: -4,
            bit_properties: 7,
            region: Region(0x0121),
        };
        let ib = vec![0x0b, 0x02, 0x00, 0x00, 0xfc, 0xff, 0x07, 0x21, 0x01];
        assert_eq!(enc(&i), ib);
        assert_eq!(dec::<VectorOperand>(&ib).unwrap(), (i, 9));
        // State: tag 0x06; class sampler 01; id 7 -> 07 00; offset 0.
        let s = VectorOperand::State {
            class: StateClass::Sampler,
            id: 7,
            offset: 0,
        };
        assert_eq!(enc(&s), vec![0x06, 0x01, 0x07, 0x00, 0x00]);
    }

    #[test]
    fn raw_operand_golden_bytes() {
        // ud id 6 -> 06 00 00 00; uw offset 32 -> 20 00.
        let r = RawOperand { id: 6, offset: 32 };
        assert_eq!(enc(&r), vec![6, 0, 0, 0, 0x20, 0]);
        assert_eq!(dec::<RawOperand>(&[6, 0, 0, 0, 0x20, 0]).unwrap(), (r, 6));
    }

    #[test]
    fn decode_errors_name_field_offset_and_reason() {
        let e = dec::<VectorOperand>(&[0x04]).unwrap_err();
        assert_eq!((e.field, e.offset), ("X", 0));
        assert!(matches!(
            e.kind,
            DecodeErrorKind::InvalidValue { value: 4, .. }
        ));
        let e = dec::<VectorOperand>(&[0x05, 0x0a, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(e.offset, 1, "BOOL immediates are rejected at the type byte");
        let e = dec::<VectorOperand>(&[0x0d, 0x00, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(
            e.offset, 0,
            "an immediate with a modifier is rejected at the tag"
        );
        let e = dec::<VectorOperand>(&[0x06, 0x02, 0, 0, 0]).unwrap_err();
        assert_eq!(e.offset, 1);
        let e = dec::<VectorOperand>(&[0x00, 1, 2]).unwrap_err();
        assert_eq!(
            e.kind,
            DecodeErrorKind::UnexpectedEnd {
                needed: 8,
                available: 2
            }
        );
        assert_eq!(e.offset, 1);
        let e = dec::<RawOperand>(&[1, 2, 3]).unwrap_err();
        assert_eq!(
            e.kind,
            DecodeErrorKind::UnexpectedEnd {
                needed: 6,
                available: 3
            }
        );
    }

    #[test]
    fn types_and_classes_by_name() {
        assert_eq!(DataType::from_name("UD"), Some(DataType::Ud));
        assert_eq!(DataType::try_from(0b1101), Ok(DataType::Q));
        assert_eq!(DataType::Hf.name(), "HF");
        assert_eq!(
            OperandClass::from_name("indirect"),
            Some(OperandClass::Indirect)
        );
        assert_eq!(OperandClass::Immediate.name(), "immediate");
    }

    #[test]
    fn predicate_and_exec_size_accessors() {
        let p = PredicateControl(0xa00c);
        assert_eq!(
            (p.id(), p.combine(), p.inverse()),
            (12, PredicateCombine::Any, true)
        );
        assert!(p.is_valid());
        assert!(!PredicateControl(0x1000).is_valid());
        let e = ExecSize(0x83);
        assert_eq!(
            (e.size_bits(), e.elements(), e.mask_bits()),
            (3, Some(8), 8)
        );
    }

    proptest! {
        #[test]
        fn vector_operands_decode_losslessly_or_fail(bytes in proptest::collection::vec(any::<u8>(), 0..16)) {
            if let Ok((op, used)) = dec::<VectorOperand>(&bytes) {
                prop_assert_eq!(enc(&op), bytes[..used].to_vec());
            }
        }

        #[test]
        fn raw_operands_round_trip(id in any::<u32>(), offset in any::<u16>()) {
            let r = RawOperand { id, offset };
            prop_assert_eq!(dec::<RawOperand>(&enc(&r)).unwrap(), (r, 6));
        }
    }
}
