//! Spare tables: a small free list that lets each search reuse the per-search tables of the
//! searches before it instead of allocating and filling new ones.
//!
//! Every exact solve makes a leaf table ([`crate::search`]'s `LeafTable`, up to 1.5 MiB) and
//! every search context a network value cache (256 KiB). For the short searches that label
//! training positions, or walk a solved principal variation, filling those tables cost more
//! than the searches themselves (a profile of `othello label` at depth 6: about 30% of the
//! time in the fills). A table that is dropped goes back to the list; the next one of that
//! size is taken from it and emptied in constant time by its owner (a new epoch or salt,
//! which makes every old entry unreadable), so a search still starts from an empty table and
//! finds exactly what it would have found in a new one.

use std::sync::Mutex;

/// Most spares kept of each kind: enough for the searches of a few threads, a bounded amount
/// of memory (8 leaf tables are 12 MiB).
const MAX_SPARES: usize = 8;

/// A free list of spare `T`s.
pub(crate) struct Spares<T> {
    list: Mutex<Vec<T>>,
}

impl<T> Spares<T> {
    /// An empty list.
    pub(crate) const fn new() -> Spares<T> {
        Spares {
            list: Mutex::new(Vec::new()),
        }
    }

    /// A spare for which `fits` holds, if the list has one.
    pub(crate) fn take(&self, fits: impl Fn(&T) -> bool) -> Option<T> {
        // A poisoned lock only means a thread panicked while holding it: the list is still a
        // list of whole tables.
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        let i = list.iter().position(fits)?;
        Some(list.swap_remove(i))
    }

    /// Keeps `spare` for a later [`Spares::take`], unless the list is full.
    pub(crate) fn give(&self, spare: T) {
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        if list.len() < MAX_SPARES {
            list.push(spare);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spare_is_taken_once_and_only_if_it_fits() {
        let spares = Spares::new();
        assert_eq!(spares.take(|_: &Vec<u8>| true), None);
        spares.give(vec![1u8; 4]);
        spares.give(vec![2u8; 8]);
        assert_eq!(spares.take(|v| v.len() == 16), None);
        assert_eq!(spares.take(|v| v.len() == 8), Some(vec![2u8; 8]));
        assert_eq!(spares.take(|v| v.len() == 8), None);
        for _ in 0..2 * MAX_SPARES {
            spares.give(vec![3u8; 2]);
        }
        let mut kept = 0;
        while spares.take(|_| true).is_some() {
            kept += 1;
        }
        assert_eq!(kept, MAX_SPARES);
    }
}
