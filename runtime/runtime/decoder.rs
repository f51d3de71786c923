//! Walking an instruction stream without moving instructions around.

use crate::generated::PLACEHOLDER;
use crate::runtime::error::DecodeError;
use crate::{decode, decode_into, Instruction};
use alloc::vec::Vec;

/// Decodes a stream of instructions one at a time into one reused [`Instruction`].
///
/// Each call to [`Decoder::next`] lends the instruction just decoded. Decoding into the same
/// storage stores every field once, where collecting owned instructions builds each one and
/// then moves it (an `Instruction` is as large as its largest variant), which costs more than
/// reading its fields. Use [`crate::decode`] for an instruction to keep.
///
/// ```
/// fn count(bytes: &[u8]) -> Result<usize, visa::DecodeError> {
///     let mut stream = visa::runtime::Decoder::new(bytes);
///     let mut n = 0;
///     while let Some(item) = stream.next() {
///         let (_offset, _instruction) = item?;
///         n += 1;
///     }
///     Ok(n)
/// }
/// assert_eq!(count(&[]).ok(), Some(0));
/// ```
pub struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
    current: Option<Instruction>,
    failed: bool,
}

impl<'a> Decoder<'a> {
    /// A decoder at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Decoder {
            bytes,
            at: 0,
            current: PLACEHOLDER,
            failed: false,
        }
    }

    /// Byte offset of the next instruction.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The next instruction and its byte offset; `None` at the end of the bytes, and after an
    /// error (whose offsets count from the instruction's start, at [`Decoder::position`]).
    #[allow(clippy::should_implement_trait)] // it lends the instruction: no `Iterator`
    pub fn next(&mut self) -> Option<Result<(usize, &Instruction), DecodeError>> {
        if self.failed {
            return None;
        }
        let rest = self.bytes.get(self.at..).filter(|r| !r.is_empty())?;
        let used = match &mut self.current {
            Some(inst) => decode_into(rest, inst),
            None => decode(rest).map(|(inst, used)| {
                self.current = Some(inst);
                used
            }),
        };
        match used {
            Ok(used) => {
                let at = self.at;
                self.at += used;
                self.current.as_ref().map(|inst| Ok((at, inst)))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// Decodes the instruction at the start of `bytes` straight into a new last element of
/// `out`, paired with `at`; how many bytes it took. On error `out` is as it was.
pub(crate) fn decode_push(
    bytes: &[u8],
    at: u32,
    out: &mut Vec<(u32, Instruction)>,
) -> Result<usize, DecodeError> {
    let Some(blank) = PLACEHOLDER else {
        return decode(bytes).map(|(inst, used)| {
            out.push((at, inst));
            used
        });
    };
    out.push((at, blank));
    let result = match out.last_mut() {
        Some((_, slot)) => decode_into(bytes, slot),
        None => decode(bytes).map(|(_, used)| used),
    };
    if result.is_err() {
        out.pop();
    }
    result
}
