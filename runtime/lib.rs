//! Typed vISA instructions, generated from the vISA opcode docs in `spec/`.
//!
//! - [`runtime`] is hand-written: operands, data types, the codec primitives and errors
//!   (operands chapter and data types chapter of the vISA spec), and [`runtime::text`], the
//!   assembly-text printers and parsers of operands that instruction printers share;
//! - [`generated`] is produced by `cargo xtask regen`: one module per opcode doc, shared enums,
//!   and what spans instructions: [`Opcode`], [`Instruction`], [`decode`], [`Platform`], the
//!   [`Execute`] trait and [`dispatch`].
//!
//! # Decode, validate, encode
//!
//! ```
//! use visa::{decode, Instruction, Platform};
//!
//! // OWORD_ST (0x36): Size 0b011 (8 owords), Surface 0, Offset = immediate UD 2, Src = V30.
//! let bytes = [0x36, 0x03, 0x00, 0x05, 0x00, 0x02, 0, 0, 0, 0x1e, 0, 0, 0, 0, 0];
//! let (inst, used) = decode(&bytes).expect("a valid OWORD_ST");
//! assert_eq!(used, bytes.len());
//! assert_eq!(inst.name(), "OWORD_ST");
//! inst.validate(Platform::ALL[0]).expect("it follows every rule of its doc");
//!
//! let mut out = Vec::new();
//! inst.encode(&mut out);
//! assert_eq!(out, bytes);
//! ```
//!
//! # Validation
//!
//! `validate(platform)` checks every rule its doc states; each failure names the instruction,
//! the field and quotes the doc ([`ValidationError`]):
//! - values annotated with a platform exist only there: `{XEHP+}` is XEHP and later, `{-PVC}`
//!   and `{pre-ICLLP}` the platforms before (the docs write `{-PVC}For pre-PVC platforms`),
//!   `{PVC}` that platform only, and a comma list any of its parts; a `{TGLLP+}Bit[6..5]` range
//!   must be zero before TGLLP. The order of platforms is the chronological list of the
//!   analyzer (see [`Platform`]);
//! - bits no `Bit[hi..lo]` range covers (kept in `reserved` members, so decoding is lossless)
//!   must be zero, and members must fit their ranges;
//! - operand classes (`Operand class: ...`) and, where an operand carries a type (immediates),
//!   the allowed types (`Must have type UD`);
//! - `#### Operand type maps`: an immediate source (`Src`, `Src0`, ...) must have a type that
//!   some map available on the platform lists under `Src types` (`Dst types` go unchecked: a
//!   destination's type is its variable's, which the bytes do not carry);
//! - `At least one channel must be enabled`;
//! - exec sizes and other enumerated values need no check: their enums hold only the listed
//!   values, and decoding anything else is a [`DecodeErrorKind::InvalidValue`].
//!
//! # Assembly text
//!
//! [`Instruction::print_text`] prints an instruction as Intel's IGC 12504.6 prints it (without
//! indentation and ` /// $N`), and [`parse_instruction`] reads such a line back; names of
//! variables and labels come from a [`runtime::text::Names`]. Both are generated from each
//! doc's `## Text` templates (spellings of enumerated values per `codegen/NAMING.md`, "Text
//! spellings"); whatever prints parses back to the same instruction, and values the text
//! cannot spell are a [`runtime::text::PrintError`]. What the templates cannot express is
//! hand-written in [`runtime::text::special`]:
//! - FENCE: `fence_global`/`fence_local`/`fence_sw` and the dot rule of its flag letters;
//! - ADDR_ADD's first source, printed as the address `&V`;
//! - LSC_UNTYPED (`lsc_load.ugm.ca.ca (M1, 16)  V0059:d32  bti(0x1)[V0057]:a32`, stores,
//!   atomics, strided, quad, block2d, status, append counter): its meta-grammar, double spaces
//!   and operands without `.0` ([`runtime::text::special::lsc`]);
//! - 3D_LOAD and 3D_SAMPLE (`load_lz.RGBA (M1, 16)  0x0:uw T6 V0054.0 ...`): operation names, channels,
//!   Intel's double space and the counted parameters
//!   ([`runtime::text::special::sampler_3d`]);
//! - INFO's two formats (`resinfo`, `sampleinfo`).
//!
//! Each of these formatters of whole instructions is a [`runtime::text::special::Formatter`]
//! over the instruction's fields by doc name ([`runtime::text::special::fields`]).
//!
//! FCALL, FADDR and FILE name strings of the routine's pool through
//! [`runtime::text::Names::string`]; SVM_BLOCK_LD/ST's `(<size>)` is a template slot over bits
//! of `Properties` (by erratum).
//!
//! Not printed (a [`runtime::text::PrintError::NoTextForm`] naming the instruction): LABEL and
//! SUBROUTINE (label lines are the file printer's), the generic SVM umbrella (no template),
//! SAMPLE_UNORM (its template slot `<channel>` names no field of its format; MEDIA_LD's
//! `<mods>` is its Modifiers field by erratum in the current family). Opcodes without a doc do not decode, so they never reach the printer.
//!
//! # Executors
//!
//! [`Execute`] has one *required* method per instruction: when a spec change adds an
//! instruction, every implementation stops compiling until it handles the new one, so a
//! simulator cannot silently ignore it. [`dispatch`] calls the method of an [`Instruction`].
//!
//! # Layout choices
//!
//! Where a doc leaves the binary layout open, the generator makes one choice and warns when it
//! regenerates: optional fields (`\*` in a format table) are always encoded; a field of type
//! `unknown` holds the rest of the instruction's bytes; a `Pred(uw)` field is the predication
//! control word of the operands chapter ([`runtime::PredicateControl`]). Exec sizes a doc does
//! not list are unrepresentable: the exec-size enums hold exactly the listed values.
#![no_std]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod asm;
#[cfg(feature = "machine")]
pub mod machine;
pub mod object;
pub mod runtime;
#[cfg(test)]
mod test_support;

// `generated`: the modules `cargo xtask regen` writes into the crate's `src/generated/`, one
// per opcode doc (the build script, `runtime/build.rs`, says where they are).
include!(concat!(env!("OUT_DIR"), "/generated.rs"));

pub use generated::*;
pub use runtime::{DecodeError, DecodeErrorInfo, DecodeErrorKind, ValidationError};
