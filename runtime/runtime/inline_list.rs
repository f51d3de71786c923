//! [`InlineList`]: a list of at most `N` items stored in place, for counted fields whose largest
//! count is known statically (the parameters a `3D_SAMPLE` or `3D_LOAD` format lists). Filling
//! one never allocates, so decoding such an instruction allocates nothing.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut};

/// At most `N` items of `T`, stored inline: a length and `[T; N]`.
///
/// It reads as the slice of its items (`Deref<Target = [T]>`); the slots past the length hold
/// a filler that nothing can observe: equality, hashing and `Debug` see the items only.
/// `N` is at most 255 (the length is one byte), checked at compile time.
///
/// ```
/// use visa::runtime::InlineList;
///
/// const EMPTY: InlineList<u32, 2> = InlineList::new(0);
/// let mut l = EMPTY;
/// assert_eq!((l.try_push(7), l.try_push(8), l.try_push(9)), (Ok(()), Ok(()), Err(9)));
/// assert_eq!(l.as_slice(), &[7, 8]);
/// ```
///
/// ```compile_fail
/// // 256 slots: more than the one-byte length counts.
/// let l = visa::runtime::InlineList::<u8, 256>::new(0);
/// ```
#[derive(Clone, Copy)]
pub struct InlineList<T, const N: usize> {
    len: u8,
    slots: [T; N],
}

/// More items than an [`InlineList`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapacityError {
    /// How many items were given.
    pub len: usize,
    /// How many the list holds.
    pub capacity: usize,
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} items for a list of at most {}",
            self.len, self.capacity
        )
    }
}

impl core::error::Error for CapacityError {}

impl<T, const N: usize> InlineList<T, N> {
    /// How many items the list holds.
    pub const CAPACITY: usize = N;

    /// Evaluated by every constructor, so an `N` the one-byte length cannot count fails to
    /// compile rather than at run time.
    const LEN_FITS: () = assert!(
        N <= u8::MAX as usize,
        "an InlineList holds at most 255 items"
    );

    /// An empty list whose unused slots hold `filler` (never observable); usable in consts.
    pub const fn new(filler: T) -> Self
    where
        T: Copy,
    {
        let () = Self::LEN_FITS;
        InlineList {
            len: 0,
            slots: [filler; N],
        }
    }

    /// The items, in order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        // `len <= N` always holds; `get` keeps even a broken invariant from panicking.
        self.slots.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// The items, in order, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.slots
            .get_mut(..usize::from(self.len))
            .unwrap_or(&mut [])
    }

    /// Whether no more item fits.
    #[inline]
    pub fn is_full(&self) -> bool {
        usize::from(self.len) >= N
    }

    /// Removes every item; the slots stay as they are until overwritten.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` items (all of them if there are fewer).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if len < usize::from(self.len) {
            // Smaller than the current `u8` length, so it fits.
            self.len = len as u8;
        }
    }

    /// Appends `item`, or gives it back when the list is full.
    #[inline]
    pub fn try_push(&mut self, item: T) -> Result<(), T> {
        match self.slots.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = item;
                // `len < N <= 255` before the push.
                self.len += 1;
                Ok(())
            }
            None => Err(item),
        }
    }

    /// Appends every item of `items`, or none of them when they do not all fit.
    pub fn try_extend_from_slice(&mut self, items: &[T]) -> Result<(), CapacityError>
    where
        T: Clone,
    {
        let len = usize::from(self.len) + items.len();
        let Some(free) = self.slots.get_mut(usize::from(self.len)..len) else {
            return Err(CapacityError { len, capacity: N });
        };
        free.clone_from_slice(items);
        // `len <= N <= 255`: the slots exist.
        self.len = len as u8;
        Ok(())
    }

    /// Removes and returns the last item.
    #[inline]
    pub fn pop(&mut self) -> Option<T>
    where
        T: Copy,
    {
        let last = self.as_slice().last().copied()?;
        self.len -= 1;
        Some(last)
    }
}

impl<T: Default, const N: usize> Default for InlineList<T, N> {
    /// An empty list; the unused slots hold `T::default()`.
    fn default() -> Self {
        let () = Self::LEN_FITS;
        InlineList {
            len: 0,
            slots: core::array::from_fn(|_| T::default()),
        }
    }
}

impl<T: Clone + Default, const N: usize> TryFrom<&[T]> for InlineList<T, N> {
    type Error = CapacityError;

    /// The items of `items`, unless there are more than `N`.
    fn try_from(items: &[T]) -> Result<Self, CapacityError> {
        let mut list = Self::default();
        list.try_extend_from_slice(items)?;
        Ok(list)
    }
}

impl<T, const N: usize> Deref for InlineList<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T, const N: usize> DerefMut for InlineList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineList<T, N> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a mut InlineList<T, N> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: PartialEq, const N: usize> PartialEq for InlineList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, const N: usize> Eq for InlineList<T, N> {}

impl<T: Hash, const N: usize> Hash for InlineList<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for InlineList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use core::hash::BuildHasher;

    /// A hasher whose output depends on every byte written, to compare hashes.
    #[derive(Default)]
    struct Fnv(u64);

    impl Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }

    fn hash_of<T: Hash + ?Sized>(t: &T) -> u64 {
        core::hash::BuildHasherDefault::<Fnv>::default().hash_one(t)
    }

    const EMPTY: InlineList<u16, 3> = InlineList::new(0xdead);

    #[test]
    fn a_new_list_is_empty_and_usable_in_a_const() {
        assert!(EMPTY.is_empty());
        assert_eq!(EMPTY.as_slice(), &[] as &[u16]);
        assert_eq!(InlineList::<u16, 3>::CAPACITY, 3);
        assert!(InlineList::<u16, 0>::new(0).is_full());
    }

    #[test]
    fn try_push_fills_the_list_then_gives_the_item_back() {
        let mut l = EMPTY;
        assert_eq!(l.try_push(1), Ok(()));
        assert_eq!(l.try_push(2), Ok(()));
        assert!(!l.is_full());
        assert_eq!(l.try_push(3), Ok(()));
        assert!(l.is_full());
        assert_eq!(l.try_push(4), Err(4));
        assert_eq!(l.as_slice(), &[1, 2, 3]);
        assert_eq!(l.len(), 3);
        let mut none = InlineList::<u16, 0>::new(0);
        assert_eq!(none.try_push(7), Err(7));
    }

    #[test]
    fn clear_truncate_and_pop_shorten_the_list() {
        let mut l = InlineList::<u16, 3>::try_from(&[1, 2, 3][..]).expect("fits");
        assert_eq!(l.pop(), Some(3));
        l.truncate(5);
        assert_eq!(l.as_slice(), &[1, 2]);
        l.truncate(1);
        assert_eq!(l.as_slice(), &[1]);
        l.clear();
        assert!(l.is_empty());
        assert_eq!(l.pop(), None);
        // Cleared slots are reused by the next pushes.
        assert_eq!(l.try_push(9), Ok(()));
        assert_eq!(l.as_slice(), &[9]);
    }

    #[test]
    fn a_slice_converts_when_it_fits() {
        let l = InlineList::<u16, 3>::try_from(&[5, 6][..]).expect("fits");
        assert_eq!(l.as_slice(), &[5, 6]);
        let e = InlineList::<u16, 3>::try_from(&[1, 2, 3, 4][..]).expect_err("four into three");
        assert_eq!(
            e,
            CapacityError {
                len: 4,
                capacity: 3
            }
        );
        assert_eq!(format!("{e}"), "4 items for a list of at most 3");
        assert!(InlineList::<u16, 0>::try_from(&[][..]).is_ok_and(|l| l.is_empty()));
    }

    #[test]
    fn extending_appends_all_or_nothing() {
        let mut l = EMPTY;
        assert_eq!(l.try_extend_from_slice(&[1, 2]), Ok(()));
        assert_eq!(
            l.try_extend_from_slice(&[3, 4]),
            Err(CapacityError {
                len: 4,
                capacity: 3
            })
        );
        assert_eq!(l.as_slice(), &[1, 2]);
        assert_eq!(l.try_extend_from_slice(&[3]), Ok(()));
        assert_eq!(l.as_slice(), &[1, 2, 3]);
    }

    #[test]
    fn equality_hash_and_debug_see_the_items_only() {
        let mut a = InlineList::<u16, 3>::new(0);
        let mut b = InlineList::<u16, 3>::new(0xffff);
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        a.try_extend_from_slice(&[1, 2, 3]).expect("fits");
        a.truncate(1);
        b.try_push(1).expect("fits");
        // a's unused slots hold 2 and 3, b's 0xffff.
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        assert_eq!(hash_of(&a), hash_of(&[1u16][..]));
        assert_eq!(format!("{a:?}"), "[1]");
        assert_eq!(format!("{b:?}"), format!("{:?}", [1u16]));
        b.try_push(2).expect("fits");
        assert_ne!(a, b);
        assert_eq!(format!("{b:?}"), "[1, 2]");
    }

    #[test]
    fn it_reads_and_writes_as_a_slice() {
        let mut l = InlineList::<u16, 4>::try_from(&[1, 2, 3][..]).expect("fits");
        l[1] = 20;
        for x in &mut l {
            *x += 1;
        }
        let seen: Vec<u16> = (&l).into_iter().copied().collect();
        assert_eq!(seen, [2, 21, 4]);
        assert_eq!((l.first(), l.get(3)), (Some(&2), None));
        l.as_mut_slice().reverse();
        assert_eq!(&*l, &[4, 21, 2]);
    }

    #[test]
    fn copies_and_clones_are_equal_and_independent() {
        let a = InlineList::<u16, 2>::try_from(&[1][..]).expect("fits");
        let mut b = a;
        b.try_push(2).expect("fits");
        assert_eq!((a.as_slice(), b.as_slice()), (&[1][..], &[1, 2][..]));
        let s = InlineList::<String, 2>::try_from(&[String::from("x")][..]).expect("fits");
        let mut t = s.clone();
        t.try_push(String::from("y")).expect("fits");
        assert_eq!((s.len(), t.len()), (1, 2));
        assert_eq!(InlineList::<u16, 2>::default(), InlineList::new(7));
    }
}
