//! The instruction stream of a kernel or function: instructions decoded by [`crate::decode`]
//! with their byte offsets, and the bytes after the first one that does not decode, kept raw so
//! the file still writes back byte for byte.
//!
//! An instruction whose operands set bits the operands chapter does not define (bits 6-7 of
//! an operand's tag, bits 4-7 of an immediate's type byte), which Intel's reader ignores, is
//! read as Intel reads it (those bits clear) and its bytes as read are kept
//! ([`InstructionStream::kept`]): the file writes back byte for byte while the instruction
//! is unchanged.

use crate::runtime::decoder::decode_push;
use crate::runtime::object::{FileError, ObjReader, ObjWriter};
use crate::runtime::operand::ignored_bits;
use crate::runtime::Encoder;
use crate::{DecodeError, DecodeErrorKind, Instruction};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Decoding of a stream stopped here: the rest of the stream is [`InstructionStream::undecoded`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamStop {
    /// Offset of the instruction from the start of the stream.
    pub offset: u32,
    /// Its opcode byte.
    pub opcode: u8,
    pub error: DecodeError,
}

impl StreamStop {
    /// What stopped decoding, and from which docs the crate was generated.
    pub fn describe(&self) -> String {
        let what = match &self.error.kind {
            DecodeErrorKind::UnknownOpcode(op) => format!("opcode {op:#04x} is unknown"),
            _ => format!(
                "opcode {:#04x} does not decode: {}",
                self.opcode, self.error
            ),
        };
        format!(
            "{what} at instruction offset {} (this crate was generated from the docs of `{}`)",
            self.offset,
            crate::generated::object::SPEC
        )
    }
}

/// The `instructions` item of a kernel or function object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstructionStream {
    /// Decoded instructions with their offsets from the start of the stream (as read; the
    /// writer encodes them one after the other whatever the offsets say).
    pub instructions: Vec<(u32, Instruction)>,
    /// Bytes from the first instruction that did not decode to the end of the stream.
    pub undecoded: Vec<u8>,
    /// Why decoding stopped, when it did.
    pub stop: Option<StreamStop>,
    /// The instructions read with bits Intel's reader ignores, in stream order (empty for
    /// every file Intel's compiler writes).
    pub kept: Vec<KeptBits>,
}

/// An instruction of the stream read with bits set that the operands chapter does not define
/// and Intel's reader ignores: the instruction holds what Intel reads (the bits clear), this
/// holds the bytes as read. [`InstructionStream::write`] writes `read` in the instruction's
/// place as long as it still encodes to `canonical` (an edited instruction loses the bits).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeptBits {
    /// Index of the instruction in [`InstructionStream::instructions`].
    pub index: usize,
    /// Its bytes as read.
    pub read: Vec<u8>,
    /// Its bytes as the instruction encodes (`read` with the ignored bits clear).
    pub canonical: Vec<u8>,
}

/// The longest instruction read again with ignored bits cleared (real ones are under 200
/// bytes); a longer one stops the stream as any decode error does.
const MAX_REREAD: usize = 4096;

/// Decodes the instruction at the start of `rest` as Intel's reader reads it, after the strict
/// decoder failed with `error`: the bits Intel ignores cleared one byte at a time (an
/// instruction has a few operands) until it decodes, or fails for another reason.
fn decode_as_intel(
    rest: &[u8],
    at: u32,
    out: &mut Vec<(u32, Instruction)>,
    mut error: DecodeError,
) -> Result<KeptBits, DecodeError> {
    let mut buf = rest[..rest.len().min(MAX_REREAD)].to_vec();
    for _ in 0..64 {
        let Some(mask) = buf
            .get(error.offset)
            .and_then(|&byte| ignored_bits(&error, byte))
        else {
            return Err(error);
        };
        buf[error.offset] &= !mask;
        match decode_push(&buf, at, out) {
            Ok(used) if used > 0 && used <= buf.len() => {
                return Ok(KeptBits {
                    index: out.len() - 1,
                    read: rest[..used].to_vec(),
                    canonical: buf[..used].to_vec(),
                })
            }
            Ok(_) => {
                out.pop();
                return Err(error);
            }
            Err(e) => error = e,
        }
    }
    Err(error)
}

impl InstructionStream {
    /// A stream of `instructions`, with their offsets worked out.
    pub fn from_instructions(instructions: Vec<Instruction>) -> Self {
        let mut at = 0usize;
        let mut out = Vec::with_capacity(instructions.len());
        let mut buf = Vec::new();
        for inst in instructions {
            buf.clear();
            inst.encode(&mut buf);
            out.push((u32::try_from(at).unwrap_or(u32::MAX), inst));
            at += buf.len();
        }
        InstructionStream {
            instructions: out,
            undecoded: Vec::new(),
            stop: None,
            kept: Vec::new(),
        }
    }

    /// Reads `size` bytes of instructions at the cursor.
    pub fn read(r: &mut ObjReader, field: &'static str, size: u64) -> Result<Self, FileError> {
        let bytes = r.slice(field, size)?;
        let mut at = 0usize;
        // Real streams average 20-25 bytes per instruction: one allocation for most.
        let mut instructions = Vec::with_capacity(bytes.len() / 20);
        let mut kept = Vec::new();
        while at < bytes.len() {
            let rest = &bytes[at..];
            // Decoded in place into the list: no instruction is built and then moved.
            match decode_push(
                rest,
                u32::try_from(at).unwrap_or(u32::MAX),
                &mut instructions,
            ) {
                Ok(used) if used > 0 => at += used,
                Ok(_) => {
                    instructions.pop();
                    break;
                }
                Err(error) => {
                    let at32 = u32::try_from(at).unwrap_or(u32::MAX);
                    let error = match decode_as_intel(rest, at32, &mut instructions, error) {
                        Ok(k) => {
                            at += k.read.len();
                            kept.push(k);
                            continue;
                        }
                        Err(error) => error,
                    };
                    return Ok(InstructionStream {
                        instructions,
                        kept,
                        undecoded: rest.to_vec(),
                        stop: Some(StreamStop {
                            offset: u32::try_from(at).unwrap_or(u32::MAX),
                            opcode: rest[0],
                            error,
                        }),
                    });
                }
            }
        }
        Ok(InstructionStream {
            instructions,
            undecoded: bytes.get(at..).unwrap_or(&[]).to_vec(),
            stop: None,
            kept,
        })
    }

    /// Appends the instructions (the bytes as read of those in [`InstructionStream::kept`]
    /// that are unchanged), then the undecoded bytes.
    pub fn write(&self, w: &mut ObjWriter) {
        if self.kept.is_empty() {
            let mut encoder = Encoder::new(&mut w.out);
            for (_, inst) in &self.instructions {
                encoder.push(inst);
            }
            drop(encoder);
        } else {
            let mut kept = self.kept.iter().peekable();
            let mut buf = Vec::with_capacity(64);
            for (i, (_, inst)) in self.instructions.iter().enumerate() {
                buf.clear();
                inst.encode(&mut buf);
                while kept.next_if(|k| k.index < i).is_some() {}
                match kept.next_if(|k| k.index == i) {
                    Some(k) if k.canonical == buf => w.out.extend_from_slice(&k.read),
                    _ => w.out.extend_from_slice(&buf),
                }
            }
        }
        w.out.extend_from_slice(&self.undecoded);
    }

    /// The size in bytes the stream writes.
    pub fn encoded_len(&self) -> usize {
        // One instruction at a time into a small buffer: no copy of the whole stream.
        let mut buf = Vec::with_capacity(64);
        let mut len = self.undecoded.len();
        for (_, inst) in &self.instructions {
            buf.clear();
            inst.encode(&mut buf);
            len += buf.len();
        }
        len
    }
}
