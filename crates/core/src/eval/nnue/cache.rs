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
//!
//! Born empty, not new: a dropped cache's slots go to a list of spares ([`crate::spares`]), and
//! the next cache takes them with a new *salt*, a random 48-bit mask that every key is xored
//! with before it is stored or compared. An old word then matches a new key only as two random
//! 48-bit values match (once in 2^48 probes, as often as two keys of one search collide), so
//! the cache is empty in constant time instead of a fill of 256 KiB, which cost short searches
//! (the labeller's, a few thousand nodes) more than the searches.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::rng::splitmix64;
use crate::spares::Spares;

/// log2 of the cache's slots: 2^15 slots of 8 bytes, 256 KiB, well within an L2 cache.
pub const CACHE_BITS: u32 = 15;

/// The bits of a word that hold the key; the low 16 hold the value.
const KEY_MASK: u64 = !0xFFFF;

/// The slots of dropped caches.
static SPARES: Spares<Box<[AtomicU64]>> = Spares::new();

/// Counts the salts handed out, each the [`splitmix64`] of the count.
static SALTS: AtomicU64 = AtomicU64::new(0);

/// See the module docs.
pub struct ValueCache {
    slots: Box<[AtomicU64]>,
    /// Xored into every key's stored and compared bits (only its [`KEY_MASK`] bits are set).
    salt: u64,
}

impl Drop for ValueCache {
    fn drop(&mut self) {
        SPARES.give(std::mem::take(&mut self.slots));
    }
}

impl Default for ValueCache {
    fn default() -> Self {
        Self::new()
    }
}

impl ValueCache {
    /// An empty cache of 2^[`CACHE_BITS`] slots: a spare's under a new salt if there is one,
    /// else new ones.
    pub fn new() -> ValueCache {
        let slots = SPARES
            .take(|slots| slots.len() == 1 << CACHE_BITS)
            .unwrap_or_else(|| {
                (0..1usize << CACHE_BITS)
                    .map(|_| AtomicU64::new(0))
                    .collect()
            });
        let (_, salt) = splitmix64(SALTS.fetch_add(1, Ordering::Relaxed));
        ValueCache {
            slots,
            salt: salt & KEY_MASK,
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
        (word != 0 && (word ^ key ^ self.salt) & KEY_MASK == 0).then_some(word as u16 as i16 as i32)
    }

    /// Stores `value` (which must fit an `i16`; centi-discs do) for `key`, over whatever its
    /// slot held.
    #[inline(always)]
    pub fn put(&self, key: u64, value: i32) {
        debug_assert!(i16::try_from(value).is_ok());
        self.slot(key).store(
            ((key ^ self.salt) & KEY_MASK) | (value as i16 as u16 as u64),
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

    #[test]
    fn a_cache_made_from_a_spare_holds_nothing_of_its_past() {
        let keys: Vec<u64> = (1..=5000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for round in 0..3 {
            // Whichever spare the list gives (other tests drop caches too), none of the keys
            // the caches before stored is found in the new one.
            let cache = ValueCache::new();
            for &k in &keys {
                assert_eq!(cache.get(k), None, "round {round}");
            }
            for (i, &k) in keys.iter().enumerate() {
                cache.put(k, i as i32);
            }
            let found = keys.iter().filter(|&&k| cache.get(k).is_some()).count();
            assert!(found > keys.len() * 3 / 4, "round {round}: {found}");
        }
    }
}
