//! The positions other search threads are working on, for the deferral of simplified ABDADA.
//!
//! ABDADA (Weill, 1996) keeps parallel threads of a shared-table search apart: a thread that
//! reaches a node whose child another thread is already searching searches the other children
//! first and comes back to that one last, by when its value is usually in the table. Tom
//! Kerrigan's *simplified* ABDADA keeps the "being searched" marks out of the transposition
//! table, in a small table of its own, which is what this module is:
//!
//! - before a thread searches a child (not the first of a node: the eldest brother is always
//!   searched at once, as in Young Brothers Wait), it asks [`BusyTable::is_busy`] and defers
//!   the child if the answer is yes;
//! - around the search of a child it calls [`BusyTable::enter`] and [`BusyTable::leave`].
//!
//! Each slot holds one position key. A collision (two positions in one slot) only makes a
//! thread defer a child it need not defer, or not defer one it could: the search stays
//! correct, since a deferred child is still searched, only later. Words are atomics with
//! relaxed ordering; a mark is a hint, never a result.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::order::Candidate;
use crate::hash::table_key;

/// Number of slots (a power of two): 32,768 keys, 256 KiB.
const SLOTS: usize = 1 << 15;

/// Marks of the children being searched; see the module docs.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BusyTable {
    /// A table with no marks.
    pub fn new() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & (SLOTS - 1)]
    }

    /// Whether some thread marked `key` as being searched.
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks `key` as being searched by this thread.
    #[inline(always)]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Removes the mark of `key` (if the slot still holds it).
    #[inline(always)]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

/// The key of the position after candidate `c` from (`p`, `o`).
#[inline(always)]
pub fn child_key(p: u64, o: u64, c: &Candidate) -> u64 {
    let bit = 1u64 << c.sq;
    table_key(o ^ c.flips, p ^ c.flips ^ bit)
}

/// Marks the position (`cp`, `co`) as being searched by this thread; returns its key, for
/// [`BusyTable::leave`].
#[inline(always)]
pub fn enter(busy: &BusyTable, cp: u64, co: u64) -> u64 {
    let key = table_key(cp, co);
    busy.enter(key);
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_seen_until_left_and_collisions_replace() {
        let busy = BusyTable::new();
        let a = 0x1234_5678_9ABC_DEF0;
        let b = a + SLOTS as u64; // same slot as a
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a) && !busy.is_busy(b));
        busy.enter(b);
        assert!(busy.is_busy(b) && !busy.is_busy(a));
        // Leaving a key whose mark was replaced leaves the other mark alone.
        busy.leave(a);
        assert!(busy.is_busy(b));
        busy.leave(b);
        assert!(!busy.is_busy(b));
    }
}
