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
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Byte offset of the next read from the start of the input.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> &'a [u8] {
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    /// Takes the next `n` bytes, or fails naming `field`.
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], DecodeError> {
        let rest = self.remaining();
        if rest.len() < n {
            return Err(DecodeError::new(
                field,
                self.pos,
                DecodeErrorKind::UnexpectedEnd {
                    needed: n,
                    available: rest.len(),
                },
            ));
        }
        let out = &rest[..n];
        self.pos += n;
        Ok(out)
    }

    /// Takes exactly `N` bytes as an array.
    pub fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], DecodeError> {
        let bytes = self.take(N, field)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
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
    fn encode(&self, out: &mut Vec<u8>);
}

/// Reads a value in vISA binary form; `field` names the field for error messages.
pub trait Decode: Sized {
    fn decode(r: &mut Reader<'_>, field: &'static str) -> Result<Self, DecodeError>;
}

macro_rules! le_int {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            #[inline]
            fn encode(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
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
