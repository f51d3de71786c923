//! Primitives of the object-file reader and writer that the chapter does not state: a cursor
//! whose errors carry the byte offset and the path of what failed, counts bounded by the bytes
//! left, and a writer that remembers where top-level items went (for offsets derived later).
//!
//! The generated record readers and writers (`generated/object.rs`) are built on these.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Reading or writing an object file failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// Byte offset in the file (reading) or in the output (writing).
    pub offset: usize,
    /// What failed, e.g. `kernel[0].var_info[12].alias_index`.
    pub path: String,
    /// What went wrong and what was expected.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} ({:#x}): {}",
            self.path, self.offset, self.offset, self.message
        )
    }
}

/// A record type the chapter names but does not describe (`vme_info`): no value exists, so a
/// table of them can only be empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undescribed {}

/// A fundamental type of the chapter (UB, UW, UD, UQ, B, W, D, Q): little-endian, fixed size.
pub trait ObjScalar: Copy + Default {
    const SIZE: usize;
    const NAME: &'static str;
    fn from_le(bytes: &[u8]) -> Self;
    fn put(self, out: &mut Vec<u8>);
    /// A count or size of this type for `len` items, if it fits.
    fn from_len(len: usize) -> Option<Self>;
}

macro_rules! scalar {
    ($($t:ty = $name:literal),*) => {$(
        impl ObjScalar for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            const NAME: &'static str = $name;
            /// The value of the first `SIZE` bytes (0 when there are fewer). A fixed-size
            /// load: copying into an array byte by byte compiled to a call of `memcpy` and a
            /// stalled reload of what it stored, a third of the time of reading a record.
            #[inline]
            fn from_le(bytes: &[u8]) -> Self {
                match bytes.first_chunk::<{ core::mem::size_of::<$t>() }>() {
                    Some(a) => <$t>::from_le_bytes(*a),
                    None => 0,
                }
            }
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn from_len(len: usize) -> Option<Self> {
                <$t>::try_from(len).ok()
            }
        }
    )*};
}
scalar!(
    u8 = "UB",
    u16 = "UW",
    u32 = "UD",
    u64 = "UQ",
    i8 = "B",
    i16 = "W",
    i32 = "D",
    i64 = "Q"
);

#[derive(Clone, Debug)]
enum Seg {
    Name(&'static str),
    Index(&'static str, usize),
}

fn render(path: &[Seg], last: Option<&str>) -> String {
    let mut s = String::new();
    for seg in path {
        if !s.is_empty() {
            s.push('.');
        }
        match seg {
            Seg::Name(n) => s.push_str(n),
            Seg::Index(n, i) => s.push_str(&format!("{n}[{i}]")),
        }
    }
    if let Some(l) = last {
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(l);
    }
    s
}

/// A bounds-checked cursor over a whole object file. Like [`ObjWriter`], it remembers where
/// each top-level item of the record being read started, so the file layout can check the
/// header's offsets against them without writing anything.
#[derive(Clone, Debug)]
pub struct ObjReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    path: Vec<Seg>,
    depth: usize,
    marks: Vec<(&'static str, usize)>,
}

impl<'a> ObjReader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        ObjReader {
            bytes,
            pos: 0,
            path: Vec::new(),
            depth: 0,
            marks: Vec::new(),
        }
    }

    /// Records that top-level item `field` starts at the cursor (items of nested records
    /// are not recorded).
    #[inline]
    pub fn mark(&mut self, field: &'static str) {
        if self.depth == 0 {
            self.marks.push((field, self.pos));
        }
    }

    /// Records that top-level item `field` started at byte `at` (an item of a run read with
    /// [`ObjReader::fixed`]).
    #[inline]
    pub fn mark_at(&mut self, field: &'static str, at: usize) {
        if self.depth == 0 {
            self.marks.push((field, at));
        }
    }

    /// The next `N` bytes, for a run of fixed-size items read with one bounds check; `None`,
    /// and nothing consumed, when fewer are left (the caller then reads the items one by one,
    /// so the error names the one that is cut).
    #[inline]
    pub fn fixed<const N: usize>(&mut self) -> Option<&'a [u8; N]> {
        let run = self.bytes.get(self.pos..)?.first_chunk::<N>()?;
        self.pos += N;
        Some(run)
    }

    /// The value of type `T` at byte `at` of a run from [`ObjReader::fixed`].
    #[inline]
    pub fn le<T: ObjScalar>(run: &[u8], at: usize) -> T {
        T::from_le(run.get(at..).unwrap_or(&[]))
    }

    /// Where top-level item `field` started, from the start of the file; the first one since
    /// [`ObjReader::clear_marks`].
    pub fn position_of(&self, field: &str) -> Option<usize> {
        self.marks.iter().find(|(n, _)| *n == field).map(|m| m.1)
    }

    /// Forgets the marks, before reading the next record.
    pub fn clear_marks(&mut self) {
        self.marks.clear();
    }

    /// Byte offset of the next read from the start of the file.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left after the cursor.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Moves the cursor to `offset` (named by `field`, e.g. `kernel_info[0].offset`).
    pub fn seek(&mut self, offset: u64, field: &'static str) -> Result<(), FileError> {
        match usize::try_from(offset) {
            Ok(o) if o <= self.bytes.len() => {
                self.pos = o;
                Ok(())
            }
            _ => Err(self.error(
                Some(field),
                format!(
                    "offset {offset:#x} is past the end of the file ({} bytes)",
                    self.bytes.len()
                ),
            )),
        }
    }

    /// Reads the following items under `name[index]` of the error path.
    pub fn enter(&mut self, name: &'static str, index: Option<usize>) {
        self.path.push(match index {
            Some(i) => Seg::Index(name, i),
            None => Seg::Name(name),
        });
    }

    pub fn leave(&mut self) {
        self.path.pop();
    }

    /// An error at the cursor, for `field` under the current path.
    pub fn error(&self, field: Option<&str>, message: String) -> FileError {
        FileError {
            offset: self.pos,
            path: render(&self.path, field),
            message,
        }
    }

    #[inline]
    fn take(&mut self, n: usize, field: &'static str, what: &str) -> Result<&'a [u8], FileError> {
        let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
        match rest.get(..n) {
            Some(b) => {
                self.pos += n;
                Ok(b)
            }
            None => Err(self.ends(n, field, what)),
        }
    }

    /// The error of a read past the end, out of line: reading a valid file never builds one,
    /// and keeping it apart lets reads inline into the record readers.
    #[cold]
    #[inline(never)]
    fn ends(&self, n: usize, field: &'static str, what: &str) -> FileError {
        let left = self.bytes.len().saturating_sub(self.pos);
        self.error(
            Some(field),
            format!("the file ends: {what} needs {n} byte(s), {left} left"),
        )
    }

    /// One value of a fundamental type.
    #[inline]
    pub fn scalar<T: ObjScalar>(&mut self, field: &'static str) -> Result<T, FileError> {
        let b = self.take(T::SIZE, field, T::NAME)?;
        Ok(T::from_le(b))
    }

    /// `count` values of a fundamental type; a count the bytes left cannot hold is an error
    /// before anything is allocated.
    pub fn array<T: ObjScalar>(
        &mut self,
        field: &'static str,
        count: u64,
    ) -> Result<Vec<T>, FileError> {
        self.bound(field, count, T::SIZE)?;
        // The bound above makes the count at most the bytes left.
        let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        for _ in 0..count {
            out.push(self.scalar(field)?);
        }
        Ok(out)
    }

    /// `size` raw bytes.
    pub fn bytes(&mut self, field: &'static str, size: u64) -> Result<Vec<u8>, FileError> {
        Ok(self.slice(field, size)?.to_vec())
    }

    /// `size` raw bytes, borrowed from the input.
    pub fn slice(&mut self, field: &'static str, size: u64) -> Result<&'a [u8], FileError> {
        self.bound(field, size, 1)?;
        let n = usize::try_from(size).unwrap_or(usize::MAX);
        self.take(n, field, "the bytes")
    }

    /// `count` null-terminated strings, without their terminators.
    pub fn strings(&mut self, field: &'static str, count: u64) -> Result<Vec<Vec<u8>>, FileError> {
        self.bound(field, count, 1)?;
        let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        for i in 0..count {
            let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
            let Some(end) = rest.iter().position(|&b| b == 0) else {
                self.enter(field, usize::try_from(i).ok());
                let e = self.error(
                    None,
                    "the file ends inside a string: no null character".into(),
                );
                self.leave();
                return Err(e);
            };
            out.push(rest[..end].to_vec());
            self.pos += end + 1;
        }
        Ok(out)
    }

    /// `count` records read by `read`, each under `field[i]` of the error path.
    #[inline]
    pub fn records<T>(
        &mut self,
        field: &'static str,
        count: u64,
        min_size: usize,
        read: fn(&mut Self) -> Result<T, FileError>,
    ) -> Result<Vec<T>, FileError> {
        // Most tables are empty (a variable's attributes): no call, and no `Result` of a
        // `Vec` passed back through memory.
        if count == 0 {
            return Ok(Vec::new());
        }
        self.nonempty_records(field, count, min_size, read)
    }

    // Inlined too: an empty `Vec` merged with one returned through memory was stored as two
    // words and reloaded as one, a stalled load that was two thirds of reading a `var_info`.
    #[inline(always)]
    fn nonempty_records<T>(
        &mut self,
        field: &'static str,
        count: u64,
        min_size: usize,
        read: fn(&mut Self) -> Result<T, FileError>,
    ) -> Result<Vec<T>, FileError> {
        self.bound(field, count, min_size.max(1))?;
        // The bound above makes the count at most the bytes left.
        let count = usize::try_from(count).unwrap_or(0);
        let mut out = Vec::with_capacity(count);
        self.depth += 1;
        // One path segment for the table, its index updated per record.
        self.path.push(Seg::Index(field, 0));
        for i in 0..count {
            if let Some(Seg::Index(_, at)) = self.path.last_mut() {
                *at = i;
            }
            match read(self) {
                Ok(item) => out.push(item),
                Err(e) => {
                    self.path.pop();
                    self.depth -= 1;
                    return Err(e);
                }
            }
        }
        self.path.pop();
        self.depth -= 1;
        Ok(out)
    }

    /// A table of a format the chapter does not describe: only an empty one can be read.
    pub fn undescribed(
        &mut self,
        field: &'static str,
        count: u64,
    ) -> Result<Vec<Undescribed>, FileError> {
        if count == 0 {
            Ok(Vec::new())
        } else {
            Err(self.error(
                Some(field),
                format!("{count} entries of a format the object-file chapter does not describe; expected 0"),
            ))
        }
    }

    /// Fails unless `count` items of at least `size` bytes each fit in the bytes left.
    #[inline]
    fn bound(&self, field: &'static str, count: u64, size: usize) -> Result<(), FileError> {
        let need = u128::from(count) * size as u128;
        if need > self.remaining() as u128 {
            return Err(self.too_many(field, count, need));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_many(&self, field: &'static str, count: u64, need: u128) -> FileError {
        self.error(
            Some(field),
            format!(
                "count {count} needs at least {need} byte(s), only {} left in the file",
                self.remaining()
            ),
        )
    }

    /// The bytes of the file.
    pub fn file(&self) -> &'a [u8] {
        self.bytes
    }
}

/// An output buffer that remembers where each top-level item of the record being written
/// went, so a file layout can point at them (`input_offset` → `num_inputs`).
#[derive(Clone, Debug, Default)]
pub struct ObjWriter {
    pub out: Vec<u8>,
    depth: usize,
    marks: Vec<(&'static str, usize)>,
    path: Vec<Seg>,
}

impl ObjWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the position of top-level item `field` (nested records are not recorded).
    pub fn mark(&mut self, field: &'static str) {
        if self.depth == 0 {
            self.marks.push((field, self.out.len()));
        }
    }

    /// Where top-level item `field` was written.
    pub fn position_of(&self, field: &str) -> Option<usize> {
        self.marks.iter().find(|(n, _)| *n == field).map(|m| m.1)
    }

    pub fn scalar<T: ObjScalar>(&mut self, v: T) {
        v.put(&mut self.out);
    }

    /// The count (or byte size) of `len` items, in type `T`; an error when it does not fit.
    pub fn count<T: ObjScalar>(
        &mut self,
        field: &'static str,
        len: usize,
    ) -> Result<(), FileError> {
        match T::from_len(len) {
            Some(v) => {
                v.put(&mut self.out);
                Ok(())
            }
            None => Err(FileError {
                offset: self.out.len(),
                path: render(&self.path, Some(field)),
                message: format!("{len} does not fit its field of type {}", T::NAME),
            }),
        }
    }

    pub fn array<T: ObjScalar>(&mut self, items: &[T]) {
        for v in items {
            v.put(&mut self.out);
        }
    }

    /// Strings, each followed by its null terminator. A string holding a null character is
    /// an error: it would read back as two strings (found by fuzzing, `object_edit_real`).
    pub fn strings(&mut self, field: &'static str, items: &[Vec<u8>]) -> Result<(), FileError> {
        for (i, s) in items.iter().enumerate() {
            if let Some(at) = s.iter().position(|&b| b == 0) {
                self.path.push(Seg::Index(field, i));
                let e = FileError {
                    offset: self.out.len() + at,
                    path: render(&self.path, None),
                    message: format!(
                        "a null character at byte {at} of the string; strings are null-terminated and cannot hold one"
                    ),
                };
                self.path.pop();
                return Err(e);
            }
            self.out.extend_from_slice(s);
            self.out.push(0);
        }
        Ok(())
    }

    pub fn records<T>(
        &mut self,
        field: &'static str,
        items: &[T],
        write: fn(&T, &mut Self) -> Result<(), FileError>,
    ) -> Result<(), FileError> {
        self.depth += 1;
        for (i, item) in items.iter().enumerate() {
            self.path.push(Seg::Index(field, i));
            let r = write(item, self);
            self.path.pop();
            if r.is_err() {
                self.depth -= 1;
                return r;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Overwrites the little-endian value at `at` (a position from [`ObjWriter::position_of`]).
    pub fn patch<T: ObjScalar>(&mut self, at: usize, v: T) {
        let mut b = Vec::new();
        v.put(&mut b);
        if let Some(dst) = self.out.get_mut(at..at + b.len()) {
            dst.copy_from_slice(&b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_beyond_the_input_fail_before_allocating() {
        let bytes = [1u8, 2, 3];
        let mut r = ObjReader::new(&bytes);
        r.enter("kernel", Some(0));
        let e = r.array::<u32>("var_info", u64::from(u32::MAX)).unwrap_err();
        assert_eq!(e.path, "kernel[0].var_info");
        assert!(e.message.contains("only 3 left"), "{e}");
        let e = r
            .records("x", 1 << 40, 4, |r| r.scalar::<u32>("y"))
            .unwrap_err();
        assert_eq!(e.offset, 0);
    }

    #[test]
    fn paths_name_the_failing_item() {
        let bytes = [1u8, 0, 0];
        let mut r = ObjReader::new(&bytes);
        let e = r
            .records("var_info", 2, 1, |r| r.scalar::<u16>("alias_offset"))
            .unwrap_err();
        assert_eq!((e.offset, e.path.as_str()), (2, "var_info[1].alias_offset"));
    }

    #[test]
    fn runs_read_as_one_block_or_not_at_all() {
        let bytes = [1u8, 0, 2, 0, 0, 0, 9];
        let mut r = ObjReader::new(&bytes);
        let run = r.fixed::<6>().expect("6 bytes");
        // UW 1 at 0, UD 2 at 2.
        assert_eq!(
            (ObjReader::le::<u16>(run, 0), ObjReader::le::<u32>(run, 2)),
            (1, 2)
        );
        assert_eq!(r.position(), 6);
        assert!(r.fixed::<2>().is_none());
        assert_eq!(r.position(), 6);
    }

    #[test]
    fn marks_are_kept_for_top_level_items_only() {
        let bytes = [1u8, 7, 8];
        let mut r = ObjReader::new(&bytes);
        r.mark("count");
        let n: u8 = r.scalar("count").unwrap();
        r.mark_at("table", 1);
        let items = r
            .records("table", u64::from(n) + 1, 1, |r| {
                r.mark("item");
                r.scalar::<u8>("item")
            })
            .unwrap();
        assert_eq!(items, [7, 8]);
        assert_eq!(r.position_of("count"), Some(0));
        assert_eq!(r.position_of("table"), Some(1));
        assert_eq!(r.position_of("item"), None);
        r.clear_marks();
        assert_eq!(r.position_of("count"), None);
    }

    #[test]
    fn strings_are_null_terminated() {
        let bytes = *b"ab\0\0c";
        let mut r = ObjReader::new(&bytes);
        assert_eq!(r.strings("s", 2).unwrap(), [b"ab".to_vec(), b"".to_vec()]);
        assert!(r.strings("s", 1).is_err());
    }

    #[test]
    fn strings_with_a_null_character_do_not_write() {
        let mut w = ObjWriter::new();
        w.strings("string_pool", &[b"ok".to_vec()]).unwrap();
        let e = w
            .strings("string_pool", &[b"a".to_vec(), b"b\0c".to_vec()])
            .unwrap_err();
        // "ok\0" and "a\0" are written, the null of "b\0c" is its byte 1.
        assert_eq!((e.path.as_str(), e.offset), ("string_pool[1]", 3 + 2 + 1));
        assert!(e.message.contains("null character"), "{e}");
    }

    #[test]
    fn writer_counts_must_fit() {
        let mut w = ObjWriter::new();
        assert!(w.count::<u8>("n", 256).is_err());
        w.count::<u16>("n", 256).unwrap();
        assert_eq!(w.out, [0, 1]);
    }
}
