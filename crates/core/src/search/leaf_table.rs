//! A small cache-resident table for endgame nodes just above the shallow solver.
//!
//! Nodes with a few more empties than the unhashed shallow search are numerous and short: a
//! probe of the main transposition table there is usually a cache miss that costs more than
//! it saves. Their transpositions, however, happen close together in the tree, so a small
//! direct-mapped table, sized to stay resident in the core's L2 cache, catches most of them at
//! a fraction of the cost. Egaroucid keeps a similar per-thread table for its 7-13 empty nodes.
//!
//! Each slot holds the full position (so there are no false hits), separate lower and upper
//! bounds on its value (a null-window result tightens one of them) and the best move found.
//! A new position simply replaces the slot's old one.
//!
//! Every solve starts from an empty table, but not from a new one: a dropped table goes to a
//! list of spares ([`crate::spares`]) and the next is emptied by a new *epoch* (each slot
//! records the epoch it was written in, and a slot of an older one reads as empty), in
//! constant time instead of a fill of up to 1.5 MiB.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::spares::Spares;
use crate::square::Square;

/// The most slots a table takes, as a power of two: 65,536 slots of 24 bytes, 1.5 MiB, for a 2
/// MiB L2 cache (on a Zen 5, 16,384 slots searched 1% more nodes and took 2% more time on FFO
/// #40-#49), and the size when the processor does not report its L2 cache.
const MAX_BITS: u32 = 16;
/// The fewest slots, as a power of two (4,096 slots, 96 KiB).
const MIN_BITS: u32 = 12;

/// The table size, as a power of two of slots, for an L2 cache of `l2` bytes: the largest
/// whose slots fill at most three quarters of it, so that the table stays resident beside the
/// search's other data. On a Zen 3 with 512 KiB of L2, 16,384 slots (384 KiB) took 0.93× the
/// time of 65,536 on FFO #40-#49 for 1.1% more nodes (docs/dev/PERFORMANCE.md, session 42).
pub fn bits_for_l2(l2: Option<usize>) -> u32 {
    let Some(l2) = l2 else {
        return MAX_BITS;
    };
    let budget = l2 / 4 * 3;
    (MIN_BITS..=MAX_BITS)
        .rev()
        .find(|&b| (1usize << b) * std::mem::size_of::<Slot>() <= budget)
        .unwrap_or(MIN_BITS)
}

/// The size new tables take, as a power of two, when [`set_table_bits`] pinned one; 0: the
/// size [`bits_for_l2`] gives for this processor.
static PINNED_BITS: AtomicU32 = AtomicU32::new(0);

/// Pins the size of every leaf table made from now on in this process to `2^bits` slots
/// (clamped to 4,096..=65,536 slots), or with `None` returns to the size that fits this
/// processor's L2 cache: the largest that fills at most three quarters of it. `othello bench`
/// pins the largest, so that its node count is the same signature on every machine.
pub fn set_table_bits(bits: Option<u32>) {
    let b = bits.map_or(0, |b| b.clamp(MIN_BITS, MAX_BITS));
    PINNED_BITS.store(b, Ordering::Relaxed);
}

/// The size of a new table, as a power of two of slots.
pub fn table_bits() -> u32 {
    match PINNED_BITS.load(Ordering::Relaxed) {
        0 => bits_for_l2(crate::cpu::l2_cache_bytes()),
        b => b,
    }
}

#[derive(Clone, Copy)]
struct Slot {
    player: u64,
    opponent: u64,
    /// The table's epoch when the slot was written: it holds nothing in any other epoch.
    epoch: u32,
    lower: i8,
    upper: i8,
    /// Best move's square index, or 64 for none.
    best: u8,
}

/// A slot that holds nothing in any epoch (epochs start at 1).
const EMPTY_SLOT: Slot = Slot {
    player: 0,
    opponent: 0,
    epoch: 0,
    lower: -64,
    upper: 64,
    best: 64,
};

/// The slots of dropped tables, with the last epoch each was used in.
static SPARES: Spares<(Vec<Slot>, u32)> = Spares::new();

/// What the table knows about a position: `lower <= value <= upper`, and a best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafEntry {
    /// A lower bound on the value.
    pub lower: i32,
    /// An upper bound on the value.
    pub upper: i32,
    /// The move that cut (or was best) the last time, if any.
    pub best: Option<Square>,
}

/// The table; see the module docs.
pub struct LeafTable {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: the hash's top bits index the table.
    shift: u32,
    /// The current epoch: only slots written in it hold a position.
    epoch: u32,
}

impl Drop for LeafTable {
    fn drop(&mut self) {
        if !self.slots.is_empty() {
            SPARES.give((std::mem::take(&mut self.slots), self.epoch));
        }
    }
}

impl Default for LeafTable {
    fn default() -> Self {
        Self::new()
    }
}

impl LeafTable {
    /// An empty table of the size [`table_bits`] gives: pinned, or fitted to this processor's
    /// L2 cache ([`bits_for_l2`]).
    pub fn new() -> LeafTable {
        LeafTable::with_bits(table_bits())
    }

    /// An empty table of `2^bits` slots (`bits` clamped to the sizes [`bits_for_l2`] gives):
    /// a spare of that size in a new epoch if there is one, else a new table.
    pub fn with_bits(bits: u32) -> LeafTable {
        let bits = bits.clamp(MIN_BITS, MAX_BITS);
        let (slots, epoch) = SPARES
            .take(|(slots, _)| slots.len() == 1 << bits)
            .unwrap_or_else(|| (vec![EMPTY_SLOT; 1 << bits], 0));
        LeafTable::in_next_epoch(slots, epoch)
    }

    /// The table of `slots` (a power of two of them), last used in `epoch`, emptied by the
    /// next epoch; after the last one, by a fill.
    fn in_next_epoch(mut slots: Vec<Slot>, epoch: u32) -> LeafTable {
        let epoch = match epoch.checked_add(1) {
            Some(next) => next,
            None => {
                slots.fill(EMPTY_SLOT);
                1
            }
        };
        LeafTable {
            shift: 64 - slots.len().trailing_zeros(),
            slots,
            epoch,
        }
    }

    /// The number of slots.
    #[cfg(test)]
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Forgets everything (the solver makes a new table instead; the tests use this).
    #[cfg(test)]
    pub fn clear(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        let epoch = self.epoch;
        *self = LeafTable::in_next_epoch(slots, epoch);
    }

    #[inline(always)]
    fn index(&self, player: u64, opponent: u64) -> usize {
        let h = (player ^ opponent.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize
    }

    /// Starts loading the position's slot into cache (see [`super::tt::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        super::tt::prefetch(&self.slots[self.index(player, opponent)]);
    }

    /// The bounds stored for the position, if it is in the table.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<LeafEntry> {
        let s = &self.slots[self.index(player, opponent)];
        (s.player == player && s.opponent == opponent && s.epoch == self.epoch).then(|| LeafEntry {
            lower: s.lower as i32,
            upper: s.upper as i32,
            best: Square::from_index(s.best as usize),
        })
    }

    /// Records a fail-soft null-window result `value` of a search at `alpha`: a lower bound if
    /// it is above `alpha`, an upper bound otherwise. Keeps the other bound when the slot
    /// already holds this position.
    #[inline(always)]
    pub fn store(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        value: i32,
        best: Option<Square>,
    ) {
        let i = self.index(player, opponent);
        let epoch = self.epoch;
        let s = &mut self.slots[i];
        if s.player != player || s.opponent != opponent || s.epoch != epoch {
            *s = Slot {
                player,
                opponent,
                epoch,
                ..EMPTY_SLOT
            };
        }
        let v = value.clamp(-64, 64) as i8;
        if value > alpha {
            s.lower = s.lower.max(v);
        } else {
            s.upper = s.upper.min(v);
        }
        if let Some(b) = best {
            s.best = b.index() as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_tighten_per_position_and_never_leak_to_others() {
        for bits in [MIN_BITS, MAX_BITS] {
            bounds_tighten_in(LeafTable::with_bits(bits));
        }
    }

    fn bounds_tighten_in(mut t: LeafTable) {
        let (p, o) = (0x0000_0010_0800_0000u64, 0x0000_0008_1000_0000u64);
        assert_eq!(t.probe(p, o), None);
        t.store(p, o, 3, 6, Some(Square::D3));
        assert_eq!(
            t.probe(p, o),
            Some(LeafEntry {
                lower: 6,
                upper: 64,
                best: Some(Square::D3)
            })
        );
        t.store(p, o, 9, 8, None);
        assert_eq!(
            t.probe(p, o),
            Some(LeafEntry {
                lower: 6,
                upper: 8,
                best: Some(Square::D3)
            })
        );
        // Another position never reads this one's bounds, even in the same slot.
        assert_eq!(t.probe(o, p), None);
        let mut q = p;
        while t.index(q, o) != t.index(p, o) || q == p {
            q = q.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert_eq!(t.probe(q, o), None);
        t.store(q, o, 0, -4, None);
        assert_eq!(t.probe(p, o), None, "replaced");
        t.clear();
        assert_eq!(t.probe(q, o), None);
    }

    #[test]
    fn a_table_made_from_a_spare_holds_nothing_of_its_past() {
        // Whichever spare of this size the list gives (this test drops its tables, and so do
        // other tests), the new table reads as empty and behaves as a new one.
        for _ in 0..3 {
            bounds_tighten_in(LeafTable::with_bits(MIN_BITS));
        }
        let (p, o) = (0x0000_0010_0800_0000u64, 0x0000_0008_1000_0000u64);
        // The last epoch is followed by a real fill, and the epochs start again.
        let mut t = LeafTable::in_next_epoch(vec![EMPTY_SLOT; 1 << MIN_BITS], u32::MAX - 1);
        assert_eq!(t.epoch, u32::MAX);
        t.store(p, o, 3, 6, None);
        let old = std::mem::take(&mut t.slots);
        let t = LeafTable::in_next_epoch(old, u32::MAX);
        assert_eq!(t.epoch, 1);
        assert_eq!(t.probe(p, o), None);
        assert!(t.slots.iter().all(|s| s.epoch == 0));
    }

    #[test]
    fn the_table_fits_three_quarters_of_the_l2_cache() {
        let slot = std::mem::size_of::<Slot>();
        assert_eq!(slot, 24);
        // 512 KiB (Zen 3): 16,384 slots, 384 KiB; 1 MiB: 32,768; 2 MiB and more, or unknown:
        // 65,536; a tiny cache still gets the smallest table.
        assert_eq!(bits_for_l2(Some(512 << 10)), 14);
        assert_eq!(bits_for_l2(Some(1 << 20)), 15);
        assert_eq!(bits_for_l2(Some(2 << 20)), 16);
        assert_eq!(bits_for_l2(Some(32 << 20)), 16);
        assert_eq!(bits_for_l2(None), 16);
        assert_eq!(bits_for_l2(Some(16 << 10)), MIN_BITS);
        for l2 in [256 << 10, 512 << 10, 1 << 20, 1280 << 10, 2 << 20] {
            let bits = bits_for_l2(Some(l2));
            assert!((1usize << bits) * slot <= l2 / 4 * 3, "{l2}: {bits}");
            assert!(
                bits == MAX_BITS || (2usize << bits) * slot > l2 / 4 * 3,
                "{l2}: {bits}"
            );
        }
        assert_eq!(LeafTable::with_bits(14).slots(), 1 << 14);
        assert_eq!(LeafTable::with_bits(40).slots(), 1 << MAX_BITS);
        // Unpinned (no test pins it), a new table fits this processor.
        assert_eq!(table_bits(), bits_for_l2(crate::cpu::l2_cache_bytes()));
        assert_eq!(LeafTable::new().slots(), 1 << table_bits());
    }
}
