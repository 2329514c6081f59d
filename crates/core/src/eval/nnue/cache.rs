//! `ValueCache`: a small lock-free cache of the network's values, keyed by position.
//!
//! A network evaluation reads 58 embedding rows from a table far larger than the L2 cache; a
//! search evaluates many positions more than once (a null-window search re-searched with a full
//! window, aspiration re-searches, ProbCut's probes, the leaves an iteration shares with the one
//! two plies shallower, transpositions whose table entry did not cut). The cache remembers the
//! latest values in one direct-mapped array of `u64` words, each the top 48 bits of the
//! position's table key ([`crate::hash::table_key`]) and the 16-bit value, written and read
//! whole with relaxed atomics (so the type is `Sync` and no read could see half a write). The
//! slot is the key's low bits, so a hit checks 48 + [`CACHE_BITS`] bits of the key. A value is
//! a function of the position alone, so an entry never goes stale while its network is
//! unchanged. Each search thread's evaluator state owns one, born empty with the state
//! ([`super::NnueState`]), so a search's values never depend on another search's.

use std::sync::atomic::{AtomicU64, Ordering};

/// log2 of the cache's slots: 2^15 slots of 8 bytes, 256 KiB, well within an L2 cache.
pub const CACHE_BITS: u32 = 15;

/// The bits of a word that hold the key; the low 16 hold the value.
const KEY_MASK: u64 = !0xFFFF;

/// See the module docs.
pub struct ValueCache {
    slots: Box<[AtomicU64]>,
}

impl Default for ValueCache {
    fn default() -> Self {
        Self::new()
    }
}

impl ValueCache {
    /// An empty cache of 2^[`CACHE_BITS`] slots.
    pub fn new() -> ValueCache {
        ValueCache {
            slots: (0..1usize << CACHE_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// The slot of `key`.
    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The length is a power of two.
        &self.slots[key as usize & (self.slots.len() - 1)]
    }

    /// The value stored for `key`, if its slot holds it. A word of zero is an empty slot, so a
    /// key whose top 48 bits are zero is never found (one key in 2^48: it is recomputed).
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<i32> {
        let word = self.slot(key).load(Ordering::Relaxed);
        (word != 0 && (word ^ key) & KEY_MASK == 0).then_some(word as u16 as i16 as i32)
    }

    /// Stores `value` (which must fit an `i16`; centi-discs do) for `key`, over whatever its
    /// slot held.
    #[inline(always)]
    pub fn put(&self, key: u64, value: i32) {
        debug_assert!(i16::try_from(value).is_ok());
        self.slot(key).store(
            (key & KEY_MASK) | (value as i16 as u16 as u64),
            Ordering::Relaxed,
        );
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_for_their_key_only() {
        let cache = ValueCache::new();
        let key = 0x1234_5678_9ABC_DEF0u64;
        assert_eq!(cache.get(key), None);
        for value in [-6400, -1, 0, 1, 37, 6400] {
            cache.put(key, value);
            assert_eq!(cache.get(key), Some(value));
        }
        // The same slot, another key: a miss, and storing it replaces the first.
        let other = key ^ (1 << 40);
        assert_eq!(cache.get(other), None);
        cache.put(other, 5);
        assert_eq!(cache.get(other), Some(5));
        assert_eq!(cache.get(key), None);
        // Another slot is untouched.
        assert_eq!(cache.get(key ^ 1), None);
        cache.clear();
        assert_eq!(cache.get(other), None);
    }
}
