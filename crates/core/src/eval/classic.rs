//! PAIP's first evaluators: count difference, weighted squares and modified weighted squares.
//!
//! These are the static evaluation functions of PAIP chapter 18 (Norvig, *Paradigms of AI
//! Programming*, 1992), sections 18.2-18.7:
//!
//! - `count-difference`: the mover's discs minus the opponent's;
//! - `weighted-squares`: the sum of PAIP's `*weights*` over the mover's discs minus the same sum
//!   over the opponent's. The table rewards corners (120) and edges, and punishes the squares next
//!   to corners (C-squares -20, X-squares -40), which tend to give corners away;
//! - `modified-weighted-squares`: like weighted squares, but once a corner is taken its three
//!   neighbours (the two C-squares and the X-square) are no longer dangerous, so each occupied one
//!   counts 5 for whoever owns it instead of its table weight. PAIP applies this per occupied
//!   corner, whoever owns the corner.
//!
//! PAIP's table lives on a 10x10 mailbox (squares 11..88); [`WEIGHTS`] is the same table on the
//! 8x8 board, indexed by [`Square::index`](crate::square::Square::index). The table is symmetric
//! under all eight board symmetries. The sums are computed with one mask and two popcounts per
//! distinct weight.

use crate::bitboard::{neighbours, squares, CORNERS};
use crate::board::Board;
use crate::eval::{clamp_score, Evaluator};

/// PAIP's `*weights*`, 8x8, row 1 (a1..h1) first.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 64] = [
    120, -20,  20,   5,   5,  20, -20, 120,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
     20,  -5,  15,   3,   3,  15,  -5,  20,
      5,  -5,   3,   3,   3,   3,  -5,   5,
      5,  -5,   3,   3,   3,   3,  -5,   5,
     20,  -5,  15,   3,   3,  15,  -5,  20,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
    120, -20,  20,   5,   5,  20, -20, 120,
];

/// The weight a corner's occupied neighbours count for in modified weighted squares.
pub const NEAR_TAKEN_CORNER_WEIGHT: i32 = 5;

/// The distinct values of [`WEIGHTS`].
const DISTINCT: [i32; 8] = [120, -20, 20, 5, -40, -5, 15, 3];

/// `(weight, squares with that weight)` for each distinct weight.
const WEIGHT_CLASSES: [(i32, u64); 8] = weight_classes();

const fn weight_classes() -> [(i32, u64); 8] {
    let mut out = [(0, 0u64); 8];
    let mut k = 0;
    while k < 8 {
        let mut mask = 0u64;
        let mut sq = 0;
        while sq < 64 {
            if WEIGHTS[sq] == DISTINCT[k] {
                mask |= 1 << sq;
            }
            sq += 1;
        }
        out[k] = (DISTINCT[k], mask);
        k += 1;
    }
    out
}

/// PAIP's `count-difference`: the player's discs minus the opponent's.
#[inline]
pub fn count_difference(player: u64, opponent: u64) -> i32 {
    player.count_ones() as i32 - opponent.count_ones() as i32
}

/// PAIP's `weighted-squares`: the sum of [`WEIGHTS`] over the player's discs minus the sum over
/// the opponent's.
#[inline]
pub fn weighted_squares(player: u64, opponent: u64) -> i32 {
    let mut sum = 0;
    for (w, mask) in WEIGHT_CLASSES {
        sum += w * ((player & mask).count_ones() as i32 - (opponent & mask).count_ones() as i32);
    }
    sum
}

/// PAIP's `modified-weighted-squares`: [`weighted_squares`], except that for every occupied
/// corner, each occupied neighbour of that corner counts [`NEAR_TAKEN_CORNER_WEIGHT`] (5) for its
/// owner instead of its table weight.
#[inline]
pub fn modified_weighted_squares(player: u64, opponent: u64) -> i32 {
    let mut sum = weighted_squares(player, opponent);
    let occupied = player | opponent;
    // The neighbours of distinct corners are disjoint, so each square is adjusted at most once.
    let near = neighbours(occupied & CORNERS) & occupied;
    for sq in squares(near) {
        let delta = NEAR_TAKEN_CORNER_WEIGHT - WEIGHTS[sq.index()];
        if player & sq.bit() != 0 {
            sum += delta;
        } else {
            sum -= delta;
        }
    }
    sum
}

/// Count difference as an [`Evaluator`]: exactly 100 x (mover's discs - opponent's discs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountDifference;

impl Evaluator for CountDifference {
    crate::stateless_evaluator!();

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        100 * count_difference(board.player(), board.opponent())
    }
}

/// Weighted squares as an [`Evaluator`]: one PAIP weight point is one centi-disc (a corner is
/// worth 1.2 discs). The sum of all absolute weights is 1176, so no clamping ever happens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WeightedSquares;

impl Evaluator for WeightedSquares {
    crate::stateless_evaluator!();

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        clamp_score(weighted_squares(board.player(), board.opponent()) as i64)
    }
}

/// Modified weighted squares as an [`Evaluator`]: one PAIP weight point is one centi-disc, as
/// for [`WeightedSquares`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModifiedWeightedSquares;

impl Evaluator for ModifiedWeightedSquares {
    crate::stateless_evaluator!();

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        clamp_score(modified_weighted_squares(board.player(), board.opponent()) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::symmetry;
    use crate::square::Square;

    #[test]
    fn weights_match_paip_and_are_symmetric() {
        // Spot checks against PAIP's 10x10 table (square numbers 11..88).
        let paip = |n: i64| WEIGHTS[Square::from_paip(n).unwrap().index()];
        assert_eq!(paip(11), 120);
        assert_eq!(paip(12), -20);
        assert_eq!(paip(22), -40);
        assert_eq!(paip(13), 20);
        assert_eq!(paip(14), 5);
        assert_eq!(paip(23), -5);
        assert_eq!(paip(33), 15);
        assert_eq!(paip(34), 3);
        assert_eq!(paip(44), 3);
        for (sq, &w) in WEIGHTS.iter().enumerate() {
            for sym in 0..8 {
                let img = symmetry(1 << sq, sym).trailing_zeros() as usize;
                assert_eq!(w, WEIGHTS[img], "square {sq} symmetry {sym}");
            }
        }
        let classes: u64 = WEIGHT_CLASSES.iter().map(|&(_, m)| m).fold(0, |a, m| {
            assert_eq!(a & m, 0);
            a | m
        });
        assert_eq!(classes, u64::MAX);
    }

    #[test]
    fn weighted_squares_matches_a_square_by_square_sum() {
        let (p, o) = (0x8100_0000_0042_81ffu64, 0x0000_1234_5600_0000u64);
        let slow: i32 = (0..64)
            .map(|i| {
                let bit = 1u64 << i;
                if p & bit != 0 {
                    WEIGHTS[i]
                } else if o & bit != 0 {
                    -WEIGHTS[i]
                } else {
                    0
                }
            })
            .sum();
        assert_eq!(weighted_squares(p, o), slow);
    }

    #[test]
    fn modified_weighted_squares_resets_the_corner_neighbours() {
        let sq = |s: Square| s.bit();
        // Corner a1 empty: b2 counts its full -40.
        assert_eq!(modified_weighted_squares(sq(Square::B2), 0), -40);
        // Opponent owns a1: the mover's b2 and b1 count 5 each, the corner -120.
        let p = sq(Square::B2) | sq(Square::B1);
        let o = sq(Square::A1);
        assert_eq!(weighted_squares(p, o), -40 - 20 - 120);
        assert_eq!(modified_weighted_squares(p, o), 5 + 5 - 120);
        // The opponent's own a2 next to its corner also counts 5 (for the opponent).
        let o2 = o | sq(Square::A2);
        assert_eq!(modified_weighted_squares(p, o2), 5 + 5 - 120 - 5);
        // Neighbours of an empty corner keep their weights even if another corner is taken.
        let p3 = sq(Square::H8) | sq(Square::B2);
        assert_eq!(modified_weighted_squares(p3, 0), 120 - 40);
    }
}
