//! A small cache-resident table for endgame nodes just above the shallow solver.
//!
//! Nodes with a few more empties than the unhashed shallow search are numerous and short: a
//! probe of the main transposition table there is usually a cache miss that costs more than
//! it saves. Their transpositions, however, happen close together in the tree, so a small
//! direct-mapped table (1.5 MiB, resident in the L2 cache) catches most of them at a
//! fraction of the cost. Egaroucid keeps a similar per-thread table for its 7-13 empty nodes.
//!
//! Each slot holds the full position (so there are no false hits), separate lower and upper
//! bounds on its value (a null-window result tightens one of them) and the best move found.
//! A new position simply replaces the slot's old one.

use crate::square::Square;

/// Number of slots (a power of two): 65,536 slots of 24 bytes, 1.5 MiB, within a 2 MiB L2
/// cache, for the nodes of 6 to 9 empties (16,384 slots searched 1% more nodes and took 2% more time on FFO #40-#49).
const SLOTS: usize = 1 << 16;

#[derive(Clone, Copy)]
struct Slot {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    /// Best move's square index, or 64 for none.
    best: u8,
}

const EMPTY_SLOT: Slot = Slot {
    player: 0,
    opponent: 0,
    lower: -64,
    upper: 64,
    best: 64,
};

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
}

impl Default for LeafTable {
    fn default() -> Self {
        Self::new()
    }
}

impl LeafTable {
    /// An empty table.
    pub fn new() -> LeafTable {
        LeafTable {
            slots: vec![EMPTY_SLOT; SLOTS],
        }
    }

    /// Forgets everything (the solver makes a new table instead; the tests use this).
    #[cfg(test)]
    pub fn clear(&mut self) {
        self.slots.fill(EMPTY_SLOT);
    }

    #[inline(always)]
    fn index(player: u64, opponent: u64) -> usize {
        let h = (player ^ opponent.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// Starts loading the position's slot into cache (see [`super::tt::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        super::tt::prefetch(&self.slots[Self::index(player, opponent)]);
    }

    /// The bounds stored for the position, if it is in the table.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<LeafEntry> {
        let s = &self.slots[Self::index(player, opponent)];
        (s.player == player && s.opponent == opponent && (player | opponent) != 0).then(|| {
            LeafEntry {
                lower: s.lower as i32,
                upper: s.upper as i32,
                best: Square::from_index(s.best as usize),
            }
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
        let s = &mut self.slots[Self::index(player, opponent)];
        if s.player != player || s.opponent != opponent {
            *s = Slot {
                player,
                opponent,
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
        let mut t = LeafTable::new();
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
        while LeafTable::index(q, o) != LeafTable::index(p, o) || q == p {
            q = q.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert_eq!(t.probe(q, o), None);
        t.store(q, o, 0, -4, None);
        assert_eq!(t.probe(p, o), None, "replaced");
        t.clear();
        assert_eq!(t.probe(q, o), None);
    }
}
