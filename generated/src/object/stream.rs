//! The instruction stream of a kernel or function: instructions decoded by [`crate::decode`]
//! with their byte offsets, and the bytes after the first one that does not decode, kept raw so
//! the file still writes back byte for byte.

use crate::runtime::decoder::decode_push;
use crate::runtime::object::{FileError, ObjReader, ObjWriter};
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
        }
    }

    /// Reads `size` bytes of instructions at the cursor.
    pub fn read(r: &mut ObjReader, field: &'static str, size: u64) -> Result<Self, FileError> {
        let bytes = r.slice(field, size)?;
        let mut at = 0usize;
        // Real streams average 20-25 bytes per instruction: one allocation for most.
        let mut instructions = Vec::with_capacity(bytes.len() / 20);
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
                    return Ok(InstructionStream {
                        instructions,
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
        })
    }

    /// Appends the instructions, then the undecoded bytes.
    pub fn write(&self, w: &mut ObjWriter) {
        let mut encoder = Encoder::new(&mut w.out);
        for (_, inst) in &self.instructions {
            encoder.push(inst);
        }
        drop(encoder);
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
