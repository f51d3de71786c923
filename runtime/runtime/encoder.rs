//! Writing an instruction stream through one staging buffer.

use crate::runtime::codec::Staging;
use crate::Instruction;
use alloc::vec::Vec;

/// Appends instructions to a `Vec<u8>` through one stack buffer kept across instructions.
///
/// [`Instruction::encode`] stages each instruction on its own and copies it to the vector at
/// once, while the bytes just written are still on their way to the cache, and the CPU stalls
/// on reading them back. An encoder copies the buffer out only when it is full, long after most
/// of it was written. The bytes are the same; everything is in `out` once the encoder is
/// dropped.
///
/// ```
/// fn encode_all(instructions: &[visa::Instruction]) -> Vec<u8> {
///     let mut out = Vec::new();
///     let mut encoder = visa::runtime::Encoder::new(&mut out);
///     for inst in instructions {
///         encoder.push(inst);
///     }
///     drop(encoder);
///     out
/// }
/// assert!(encode_all(&[]).is_empty());
/// ```
pub struct Encoder<'a> {
    staging: Staging<'a>,
}

impl<'a> Encoder<'a> {
    /// An encoder appending to `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Encoder {
            staging: Staging::new(out),
        }
    }

    /// Appends the binary form of `inst`.
    #[inline]
    pub fn push(&mut self, inst: &Instruction) {
        inst.put(&mut self.staging);
    }
}
