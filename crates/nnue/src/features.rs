//! The network's inputs: one embedding row per pattern placement, plus cheap global inputs.
//!
//! Each of the 58 placements ([`INSTANCES`](geometry::INSTANCES)) of the 14 shapes reads its base-3 index with
//! [`geometry::instance_indices`] (digit 0 empty, 1 a disc of the side to move, 2 an opponent
//! disc). The index is mapped to its *weight class* ([`othello_core::eval::pattern::geometry::Geometry::canon`]):
//! the indices equal under the symmetries that map a shape onto itself (an edge read
//! backwards, a corner reflected in its diagonal) share one class. The embedding row of a
//! placement is `compact_offset[shape] + class`, so a shape's placements share one table and
//! the network is exactly invariant under the eight board symmetries (no augmentation needed).
//! There are [`row_count`] rows (204,030 for pattern set 3).

use othello_core::eval::pattern::geometry::{self, INSTANCE_COUNT};

/// The engine's own reading of the inputs: one definition for the trainer and the inference.
pub use othello_core::eval::nnue::file::EXTRA;
pub use othello_core::eval::nnue::{bucket, rows_from_indices, MOBILITY_SCALE};

/// Number of embedding rows (weight classes of all shapes together).
pub fn row_count() -> usize {
    geometry::geometry().compact_patterns_len
}

/// First embedding row of each shape (the shape's classes follow in compact-id order).
pub fn shape_row_offset(shape: usize) -> usize {
    geometry::geometry().compact_offset[shape]
}

/// The embedding rows of a position (side to move's discs, opponent's discs).
#[inline]
pub fn rows(player: u64, opponent: u64) -> [u32; INSTANCE_COUNT] {
    rows_from_indices(&geometry::instance_indices(player, opponent))
}

/// The global inputs: the side to move's and the opponent's move counts, each divided by
/// [`MOBILITY_SCALE`].
#[inline]
pub fn extras(player: u64, opponent: u64) -> [f32; EXTRA] {
    [
        othello_core::movegen::moves(player, opponent).count_ones() as f32 / MOBILITY_SCALE,
        othello_core::movegen::moves(opponent, player).count_ones() as f32 / MOBILITY_SCALE,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_core::eval::pattern::geometry::{instance_indices_reference, INSTANCES, PATTERNS};

    fn random_boards(n: usize, seed: u64) -> Vec<(u64, u64)> {
        let mut rng = othello_core::rng::SplitMix64::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            for b in othello_core::rng::random_playout(othello_core::Board::start(), &mut rng) {
                out.push((b.player(), b.opponent()));
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn indices_equal_the_reference_and_rows_are_in_range() {
        let rows_total = row_count() as u32;
        for (p, o) in random_boards(3000, 5) {
            let fast = geometry::instance_indices(p, o);
            assert_eq!(fast, instance_indices_reference(p, o));
            let r = rows(p, o);
            assert_eq!(r, rows_from_indices(&instance_indices_reference(p, o)));
            for (slot, &row) in r.iter().enumerate() {
                let shape = INSTANCES[slot].pattern as usize;
                assert!(row >= shape_row_offset(shape) as u32 && row < rows_total);
                if shape + 1 < PATTERNS.len() {
                    assert!(row < shape_row_offset(shape + 1) as u32);
                }
            }
        }
    }

    #[test]
    fn symmetric_boards_have_the_same_multiset_of_rows() {
        for (p, o) in random_boards(500, 9) {
            let b = othello_core::Board::from_bits_unchecked(p, o);
            let mut base = rows(p, o).to_vec();
            base.sort_unstable();
            for g in 0..8 {
                let s = b.symmetry(g);
                let mut r = rows(s.player(), s.opponent()).to_vec();
                r.sort_unstable();
                assert_eq!(r, base, "symmetry {g}");
            }
        }
    }

    #[test]
    fn buckets_cover_all_empties() {
        assert_eq!(bucket(0, 8), 0);
        assert_eq!(bucket(60, 8), 7);
        assert_eq!(bucket(7, 8), 0);
        assert_eq!(bucket(8, 8), 1);
        assert_eq!(bucket(60, 1), 0);
    }
}
