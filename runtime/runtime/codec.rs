//! Little-endian codec primitives: a bounds-checked [`Reader`] and the [`Encode`]/[`Decode`]
//! traits that every field type implements.

use crate::runtime::error::{DecodeError, DecodeErrorKind};
use alloc::vec::Vec;

/// A cursor over instruction bytes. Every read is bounds-checked and names the field it reads.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Byte offset of the next read from the start of the input.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    /// Takes the next `n` bytes, or fails naming `field`.
    #[inline]
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], DecodeError> {
        match self.bytes.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(out) => {
                self.pos += n;
                Ok(out)
            }
            None => Err(self.unexpected_end(n, field)),
        }
    }

    /// Moves past `n` bytes the caller has checked are there.
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Takes exactly `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], DecodeError> {
        match self
            .bytes
            .get(self.pos..)
            .and_then(|rest| rest.first_chunk::<N>())
        {
            Some(out) => {
                self.pos += N;
                Ok(*out)
            }
            None => Err(self.unexpected_end(N, field)),
        }
    }

    /// The error of a read past the end: kept out of line, as decoding valid input never
    /// takes this path.
    #[cold]
    #[inline(never)]
    fn unexpected_end(&self, needed: usize, field: &'static str) -> DecodeError {
        DecodeError::new(
            field,
            self.pos,
            DecodeErrorKind::UnexpectedEnd {
                needed,
                available: self.remaining().len(),
            },
        )
    }

    /// Checks that `count` items of at least `item_bytes` bytes each can fit in the bytes
    /// left, before anything is allocated for them; `field` names the count field.
    pub fn check_count(
        &self,
        count: u64,
        item_bytes: usize,
        field: &'static str,
    ) -> Result<usize, DecodeError> {
        let available = self.remaining().len();
        match usize::try_from(count) {
            Ok(n) if n.saturating_mul(item_bytes.max(1)) <= available => Ok(n),
            _ => Err(DecodeError::new(
                field,
                self.pos,
                DecodeErrorKind::CountTooLarge {
                    count,
                    item_bytes,
                    available,
                },
            )),
        }
    }

    /// An error about the value that starts at `offset`.
    #[cold]
    #[inline(never)]
    pub fn error_at(
        &self,
        field: &'static str,
        offset: usize,
        kind: DecodeErrorKind,
    ) -> DecodeError {
        DecodeError::new(field, offset, kind)
    }
}

/// Appends the vISA binary form of a value.
pub trait Encode {
    /// Writes the value into a staging buffer; what instructions call for each field.
    fn put(&self, out: &mut Staging<'_>);

    /// Appends the value to `out`.
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) {
        self.put(&mut Staging::new(out));
    }
}

/// Bytes of the stack buffer instructions are staged in: some twenty instructions of real
/// code, so that an [`crate::runtime::Encoder`] copies it out rarely (measured on the dg2
/// streams: 512 bytes encode 14% faster than 128, 1024 no faster than 512).
const STAGE: usize = 512;
/// Bytes copied out at a time: a fixed-size copy the compiler inlines.
const CHUNK: usize = 64;

/// A stack buffer in front of a `Vec<u8>`: encoders write each field here and the buffer is
/// appended to the vector, in 64-byte copies up to what was written, when it fills up and when
/// the staging is dropped.
///
/// Why: a byte stored through a `Vec<u8>`'s pointer may alias the vector's own length and
/// capacity, so pushing field by field reloads and re-checks them at every byte; a local
/// buffer keeps its length in a register. Nothing is lost: dropping the staging flushes it.
pub struct Staging<'a> {
    out: &'a mut Vec<u8>,
    buf: [u8; STAGE],
    len: usize,
}

// Each write reads `len` once into a local and stores the new length from it: a byte stored
// into `buf` might alias `len` as far as the compiler knows, so `self.len += n` after the store
// reloads `len` from memory, and every field of an instruction then waits on the store of the
// field before it (measured on the dg2 streams: encoding through an `Encoder` about 8% faster).
impl<'a> Staging<'a> {
    /// Stages bytes for `out`.
    #[inline]
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Staging {
            out,
            buf: [0; STAGE],
            len: 0,
        }
    }

    /// Appends one byte.
    #[inline(always)]
    pub fn byte(&mut self, b: u8) {
        self.array([b]);
    }

    /// Appends `N` bytes.
    #[inline(always)]
    pub fn array<const N: usize>(&mut self, b: [u8; N]) {
        let len = self.len;
        match self.buf.get_mut(len..len + N) {
            Some(d) => {
                d.copy_from_slice(&b);
                self.len = len + N;
            }
            None => self.spill(&b),
        }
    }

    /// Appends the `n` low bytes of `word`, little-endian (`n` at most 8). The word is stored
    /// whole, in one write from a register: building the bytes in an array first would store
    /// them one by one and read them back as one word, which the CPU cannot forward.
    #[inline(always)]
    pub fn le(&mut self, word: u64, n: usize) {
        let len = self.len;
        match self.buf.get_mut(len..len + 8) {
            Some(d) => {
                d.copy_from_slice(&word.to_le_bytes());
                self.len = len + n.min(8);
            }
            None => self.spill(word.to_le_bytes().get(..n).unwrap_or_default()),
        }
    }

    /// Appends a slice of any length.
    #[inline]
    pub fn slice(&mut self, b: &[u8]) {
        let len = self.len;
        match self.buf.get_mut(len..len + b.len()) {
            Some(d) => {
                d.copy_from_slice(b);
                self.len = len + b.len();
            }
            None => self.spill(b),
        }
    }

    /// The buffer is full: flush it, then append `b` directly.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, b: &[u8]) {
        self.flush();
        self.out.extend_from_slice(b);
    }

    /// Appends the staged bytes. The whole buffer is copied (a fixed-size copy the compiler
    /// inlines, unlike a call to `memcpy` for a few bytes) and the vector cut back to what was
    /// staged.
    #[inline]
    fn flush(&mut self) {
        let end = self.out.len() + self.len;
        for chunk in self.buf.chunks_exact(CHUNK).take(self.len.div_ceil(CHUNK)) {
            self.out.extend_from_slice(chunk);
        }
        self.out.truncate(end);
        self.len = 0;
    }
}

impl Drop for Staging<'_> {
    #[inline]
    fn drop(&mut self) {
        self.flush();
    }
}

/// Reads a value in vISA binary form; `field` names the field for error messages.
pub trait Decode: Sized {
    fn decode(r: &mut Reader<'_>, field: &'static str) -> Result<Self, DecodeError>;

    /// Decodes into `self`, what decoding a whole instruction in place calls. On error `self`
    /// is unchanged or holds another valid value.
    #[inline(always)]
    fn decode_in_place(
        &mut self,
        r: &mut Reader<'_>,
        field: &'static str,
    ) -> Result<(), DecodeError> {
        *self = Self::decode(r, field)?;
        Ok(())
    }
}

macro_rules! le_int {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            #[inline(always)]
            fn put(&self, out: &mut Staging<'_>) {
                out.le(*self as u64, core::mem::size_of::<$t>());
            }
        }
        impl Decode for $t {
            #[inline]
            fn decode(r: &mut Reader<'_>, field: &'static str) -> Result<Self, DecodeError> {
                Ok(<$t>::from_le_bytes(r.array(field)?))
            }
        }
    )*};
}
le_int!(u8, u16, u32, u64, i8, i16, i32, i64);
