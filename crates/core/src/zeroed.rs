//! Zero-filled, cache-line-aligned arrays taken from the allocator's zeroed memory.
//!
//! The transposition table is an array of 64-byte clusters in which all-zero words mean
//! "empty". Filling gigabytes with empty clusters one by one costs seconds (4 GiB took 13.7 s,
//! all on the NBoard protocol thread, which answered no `ping` meanwhile) and makes every page
//! resident at once. `calloc` instead hands out a large block as fresh anonymous pages that the
//! kernel zeroes only when they are first touched: the table costs no time to make and no
//! memory until the search reaches its pages.
//!
//! Rust's allocator zeroes an over-aligned block itself (a `memset` of the whole block), so the
//! block is asked for with the alignment of a `u64`, 64 bytes too long, and the array starts at
//! the first cache-line boundary inside it.
//!
//! The network evaluator's embedding (13 MB of `i8` rows of 64) lives in one too: a `Vec`
//! from `malloc` starts 16 bytes past a page boundary, so each row would straddle two cache
//! lines, and a row load would cost two misses.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

/// Alignment of the array: one cache line.
const LINE: usize = 64;

/// Types whose all-zero bit pattern is a valid value (atomic or plain integers, arrays of
/// them), with an alignment of at most a cache line.
///
/// # Safety
/// An implementer must be valid when every byte is zero, and have `align_of` ≤ 64.
pub(crate) unsafe trait Zeroable: Sized {}

// SAFETY: an integer, valid as zero; alignment 1.
unsafe impl Zeroable for i8 {}

/// `len` values of `T`, all zero, starting on a cache-line boundary; freed on drop.
pub(crate) struct ZeroedArray<T: Zeroable> {
    /// The first element (on a cache-line boundary).
    first: NonNull<T>,
    /// Number of elements.
    len: usize,
    /// The block as allocated, and its layout, for the deallocation.
    block: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the array owns its elements as a `Box<[T]>` would; sending or sharing it sends or
// shares `T`s, which the bounds require to be `Send`/`Sync`.
unsafe impl<T: Zeroable + Send> Send for ZeroedArray<T> {}
// SAFETY: as above; `&ZeroedArray<T>` only gives out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedArray<T> {}

impl<T: Zeroable> ZeroedArray<T> {
    /// `len` zero values, or `None` if the memory cannot be had (or the size overflows).
    pub(crate) fn new(len: usize) -> Option<ZeroedArray<T>> {
        const { assert!(std::mem::align_of::<T>() <= LINE) };
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())?
            .checked_add(LINE)?;
        let layout = Layout::from_size_align(bytes, std::mem::align_of::<u64>()).ok()?;
        // SAFETY: the layout's size is at least 64 bytes, never zero.
        let block = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(LINE);
        // SAFETY: `offset` < 64 (the block is 8-byte aligned), and `offset + len * size_of::<T>()`
        // ≤ `bytes`, so the pointer and the whole array stay inside the block.
        let first = unsafe { block.as_ptr().add(offset) }.cast::<T>();
        Some(ZeroedArray {
            // SAFETY: inside a non-null block, so not null.
            first: unsafe { NonNull::new_unchecked(first) },
            len,
            block,
            layout,
        })
    }

    /// The elements.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: `first` is aligned for `T` (a cache-line boundary, and `T`'s alignment is at
        // most 64), points to `len` elements inside the block, each zero bytes, which `T:
        // Zeroable` makes valid; the block lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }

    /// Asks the kernel to back the array's (still untouched) pages with transparent huge
    /// pages. A table far larger than the TLB covers, read at random cache lines (the
    /// transposition table, the network's embedding), pays a page walk on nearly every read
    /// with 4 KiB pages and on few with 2 MiB pages.
    ///
    /// Only whole 2 MiB pages inside the array are advised. Failure is harmless (the kernel may
    /// have huge pages turned off) and ignored.
    pub(crate) fn advise_huge_pages(&self) {
        #[cfg(target_os = "linux")]
        {
            const HUGE: usize = 2 << 20;
            let start = self.first.as_ptr() as usize;
            let end = start + self.len * std::mem::size_of::<T>();
            let first = start.next_multiple_of(HUGE);
            let last = end / HUGE * HUGE;
            if last > first {
                // SAFETY: [first, last) lies inside the block this array owns, and
                // MADV_HUGEPAGE changes only how the kernel backs those pages, never their
                // contents or validity.
                unsafe {
                    libc::madvise(
                        first as *mut libc::c_void,
                        last - first,
                        libc::MADV_HUGEPAGE,
                    );
                }
            }
        }
    }

    /// The elements, mutably.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as for `as_slice`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedArray<T> {
    fn drop(&mut self) {
        // The elements are integers and atomics (`Zeroable`): nothing to drop one by one.
        // SAFETY: `block` was allocated by the global allocator with `layout`, once.
        unsafe { alloc::dealloc(self.block.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics of zero; alignment 64.
    unsafe impl Zeroable for Line {}

    #[test]
    fn arrays_are_zero_aligned_and_writable() {
        for len in [1, 2, 3, 17, 1000] {
            let mut a = ZeroedArray::<Line>::new(len).expect("memory");
            assert_eq!(a.as_slice().len(), len);
            assert_eq!(a.as_slice().as_ptr() as usize % 64, 0);
            assert!(a
                .as_slice()
                .iter()
                .all(|l| l.0.iter().all(|w| w.load(Relaxed) == 0)));
            for (i, l) in a.as_mut_slice().iter_mut().enumerate() {
                *l.0[7].get_mut() = i as u64 + 1;
            }
            let sum: u64 = a.as_slice().iter().map(|l| l.0[7].load(Relaxed)).sum();
            assert_eq!(sum, (len as u64) * (len as u64 + 1) / 2);
        }
    }

    #[test]
    fn byte_arrays_start_on_a_cache_line() {
        // Sizes that `malloc` serves from the heap and from fresh mappings alike.
        for len in [1, 63, 65, 4096, 13_058_688] {
            let a = ZeroedArray::<i8>::new(len).expect("memory");
            a.advise_huge_pages();
            assert_eq!(a.as_slice().as_ptr() as usize % 64, 0, "{len}");
            assert!(a.as_slice().iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn impossible_sizes_are_refused() {
        assert!(ZeroedArray::<Line>::new(usize::MAX / 8).is_none());
        assert!(ZeroedArray::<Line>::new(usize::MAX / 64 - 1).is_none());
    }
}
