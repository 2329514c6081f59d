//! `HandEval`: the engine's first evaluator, a hand-tuned linear combination of classic features.
//!
//! The features are those of PAIP chapter 18 and of Iago and Bill before it, computed with
//! bitboards, from the side to move's point of view:
//!
//! - **edges and corners**: Iago's edge table ([`super::edge`]) summed over the four edges. It
//!   values corners, X- and C-squares and edge stability, including whose turn it is;
//! - **current mobility**: legal moves, the mover's minus the opponent's;
//! - **potential mobility**: empty squares next to an opponent disc (PAIP's definition), the
//!   mover's minus the opponent's;
//! - **stable discs** ([`super::stability`]), from 29 empties down only (the fixed point is the
//!   most expensive feature and rarely non-zero before then);
//! - **disc difference**, negative in the midgame (fewer discs mean fewer frontier discs and more
//!   moves later) and positive near the end;
//! - **parity**: who is expected to play the last move (odd number of empties: the mover).
//!
//! Each feature has a weight for each number of empty squares, linearly interpolated between
//! five anchor phases ([`DEFAULT_ANCHORS`], [`HandEval::with_anchors`]). Weights are in 1/1024
//! centi-disc per feature unit, so the weighted sum divided by 1024 is a score in centi-discs.
//!
//! How the weights were set (scratch experiments, not part of the crate):
//!
//! 1. Initial magnitudes by hand, guided by least-squares fits of final results on the features
//!    in self-play games of PAIP's Iago at depth 3 (mobility is worth about one to two discs per
//!    move, potential mobility about a third of that, a stable disc one to three discs).
//! 2. Coordinate search on the weights (first one factor per feature, then per anchor), keeping a
//!    change when it improved the mean disc difference of 1200-game matches at depth 3 (XOT
//!    openings, both colours) against [`super::Iago`] and against the previous version. The edge
//!    weight went up by 1.6x and the midgame mobility weights down by 0.6x from the first guess.
//! 3. Calibration: scaled so that a score of 100 predicts about one disc of final margin
//!    (regression slope of the final result on the score close to 1 between 10 and 49 empties
//!    in self-play at depth 4).
//!
//! On openings not used for tuning, it beats PAIP's Iago evaluation at equal depth (300 games per
//! depth, both sides solving the last 12 empties exactly): about +13 discs per game (68% of the
//! games) at depth 3, +12 (64%) at depth 4 and +14 (78%) at depth 5. Without the endgame solver
//! (600 games per depth): +7.6 at depth 2, +9.6 at depth 3, +13.3 at depth 4.
//!
//! Cost: two move generations, two neighbour fills, eight small-table and four edge-table
//! lookups and a few popcounts; from 29 empties down also the stable discs of both sides
//! ([`stable_discs_both`]). No allocation, no dynamic dispatch. Measured on the development
//! machine (AMD EPYC, shared): about 20 ns per call above 29 empties, 40 ns below.

use crate::bitboard::neighbours;
use crate::board::{moves, Board};
use crate::eval::edge::{self, EdgeTable};
use crate::eval::stability::stable_discs_both;
use crate::eval::{Evaluator, MAX_SCORE};

/// Fixed-point denominator of the weights: a weight of 1024 is one centi-disc per feature unit.
pub const WEIGHT_ONE: i32 = 1024;

/// The weights of the features for one phase, in 1/1024 centi-disc per feature unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseWeights {
    /// Per unit of Iago's edge table sum (a corner is worth roughly 1000-2400 units).
    pub edge: i32,
    /// Per legal move of difference.
    pub mobility: i32,
    /// Per empty square of difference in potential mobility.
    pub potential: i32,
    /// Per stable disc of difference (0 disables the stable-disc computation).
    pub stable: i32,
    /// Per disc of difference.
    pub discs: i32,
    /// Added when the number of empties is odd, subtracted when it is even.
    pub parity: i32,
}

/// The feature values of a position (mover's view), as [`HandEval`] sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Edge table sum over the four edges.
    pub edge: i32,
    /// Legal moves, mover minus opponent.
    pub mobility: i32,
    /// Potential mobility, mover minus opponent.
    pub potential: i32,
    /// Stable discs, mover minus opponent (0 when the phase does not use them).
    pub stable: i32,
    /// Discs, mover minus opponent.
    pub discs: i32,
    /// +1 for an odd number of empties, -1 for even.
    pub parity: i32,
}

/// The default anchors: `(empties, weights)`, empties decreasing. Between anchors the weights
/// are interpolated linearly; beyond the ends they are constant. Weights are in 1/1024
/// centi-disc per unit: at 30 empties, one move of mobility is worth 70313 / 1024 = 69
/// centi-discs, and a corner (about 1000-2400 edge-table units) one to four discs.
#[rustfmt::skip]
pub const DEFAULT_ANCHORS: [(u32, PhaseWeights); 5] = [
    (60, PhaseWeights { edge: 64, mobility: 37_500, potential: 18_750, stable: 0,
                        discs: -10_000, parity: 0 }),
    (45, PhaseWeights { edge: 144, mobility: 75_000, potential: 28_125, stable: 0,
                        discs: -30_000, parity: 0 }),
    (30, PhaseWeights { edge: 192, mobility: 70_313, potential: 37_500, stable: 0,
                        discs: -30_000, parity: 0 }),
    (20, PhaseWeights { edge: 96, mobility: 126_750, potential: 18_750, stable: 100_000,
                        discs: 0, parity: 50_000 }),
    (8,  PhaseWeights { edge: 64, mobility: 105_625, potential: 6_250, stable: 100_000,
                        discs: 33_750, parity: 100_000 }),
];

/// The engine's hand-tuned evaluator. Cheap to copy around by reference; build it once.
#[derive(Clone)]
pub struct HandEval {
    edge: &'static EdgeTable,
    /// Weights by number of empty squares (0..=64; above 60 only for unreachable boards).
    phases: [PhaseWeights; 65],
}

impl std::fmt::Debug for HandEval {
    /// The weights at a few phases (the edge table is too large to print).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandEval")
            .field("weights_at_50_empties", &self.phases[50])
            .field("weights_at_30_empties", &self.phases[30])
            .field("weights_at_10_empties", &self.phases[10])
            .finish()
    }
}

impl Default for HandEval {
    fn default() -> Self {
        HandEval::new()
    }
}

impl HandEval {
    /// The evaluator with the default weights ([`DEFAULT_ANCHORS`]).
    pub fn new() -> HandEval {
        HandEval::with_anchors(&DEFAULT_ANCHORS)
    }

    /// An evaluator whose weights are interpolated from `(empties, weights)` anchors, sorted by
    /// decreasing empties. With no anchors every weight is 0.
    pub fn with_anchors(anchors: &[(u32, PhaseWeights)]) -> HandEval {
        let mut phases = [PhaseWeights::default(); 65];
        for (empties, slot) in phases.iter_mut().enumerate() {
            *slot = interpolate(anchors, empties as i64);
        }
        HandEval {
            edge: edge::edge_table(),
            phases,
        }
    }

    /// The weights used for positions with `empties` empty squares.
    pub fn weights(&self, empties: u32) -> PhaseWeights {
        self.phases[empties.min(64) as usize]
    }

    /// The feature values of `board` (stable discs only if its phase uses them).
    #[inline(always)]
    pub fn features(&self, board: &Board) -> Features {
        let (p, o) = (board.player(), board.opponent());
        let empty = !(p | o);
        let empties = empty.count_ones();
        let w = &self.phases[empties as usize];
        let stable = if w.stable != 0 {
            let (sp, so) = stable_discs_both(p, o);
            sp.count_ones() as i32 - so.count_ones() as i32
        } else {
            0
        };
        Features {
            edge: edge::edge_stability_with(self.edge, p, o),
            mobility: moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32,
            potential: (neighbours(o) & empty).count_ones() as i32
                - (neighbours(p) & empty).count_ones() as i32,
            stable,
            discs: p.count_ones() as i32 - o.count_ones() as i32,
            parity: if empties & 1 == 1 { 1 } else { -1 },
        }
    }
}

/// Linear interpolation of the anchors at `empties`, rounded toward zero.
fn interpolate(anchors: &[(u32, PhaseWeights)], empties: i64) -> PhaseWeights {
    let Some(&(first_e, first)) = anchors.first() else {
        return PhaseWeights::default();
    };
    if empties >= first_e as i64 {
        return first;
    }
    for pair in anchors.windows(2) {
        let ((e0, w0), (e1, w1)) = (pair[0], pair[1]);
        let (e0, e1) = (e0 as i64, e1 as i64);
        if empties <= e0 && empties >= e1 && e0 > e1 {
            let lerp = |a: i32, b: i32| {
                (a as i64 + (b as i64 - a as i64) * (e0 - empties) / (e0 - e1)) as i32
            };
            return PhaseWeights {
                edge: lerp(w0.edge, w1.edge),
                mobility: lerp(w0.mobility, w1.mobility),
                potential: lerp(w0.potential, w1.potential),
                stable: lerp(w0.stable, w1.stable),
                discs: lerp(w0.discs, w1.discs),
                parity: lerp(w0.parity, w1.parity),
            };
        }
    }
    anchors[anchors.len() - 1].1
}

impl Evaluator for HandEval {
    crate::stateless_evaluator!();

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        let f = self.features(board);
        let w = &self.phases[board.empty_count() as usize];
        let sum = w.edge as i64 * f.edge as i64
            + w.mobility as i64 * f.mobility as i64
            + w.potential as i64 * f.potential as i64
            + w.stable as i64 * f.stable as i64
            + w.discs as i64 * f.discs as i64
            + w.parity as i64 * f.parity as i64;
        (sum / WEIGHT_ONE as i64).clamp(-(MAX_SCORE as i64), MAX_SCORE as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_between_anchors() {
        let a = PhaseWeights {
            edge: 100,
            mobility: 0,
            ..Default::default()
        };
        let b = PhaseWeights {
            edge: 0,
            mobility: 1000,
            ..Default::default()
        };
        let h = HandEval::with_anchors(&[(40, a), (20, b)]);
        assert_eq!(h.weights(60), a);
        assert_eq!(h.weights(40), a);
        assert_eq!(h.weights(30).edge, 50);
        assert_eq!(h.weights(30).mobility, 500);
        assert_eq!(h.weights(20), b);
        assert_eq!(h.weights(0), b);
        assert_eq!(h.weights(99), a);
        let none = HandEval::with_anchors(&[]);
        assert_eq!(none.weights(30), PhaseWeights::default());
        assert_eq!(none.evaluate(&Board::start()), 0);
    }

    #[test]
    fn features_of_a_hand_made_position() {
        // X to move: a1 b1 c1 (a stable wall), d5 e4; O: d4 e5 and h8.
        let b: Board = "XXX----- -------- -------- ---OX--- ---XO--- -------- -------- -------O X"
            .parse()
            .unwrap();
        let h = HandEval::new();
        let f = h.features(&b);
        let (p, o) = (b.player(), b.opponent());
        assert_eq!(f.discs, 5 - 3);
        // 8 discs, 56 empties: even, so the opponent is expected to move last.
        assert_eq!(f.parity, -1);
        // Potential mobility: the empties around O's d4 e5 h8 (5 + 5 + 3) minus those around
        // X's wall and centre discs.
        let around = |bits: u64| (neighbours(bits) & b.empty()).count_ones() as i32;
        assert_eq!(f.potential, around(o) - around(p));
        assert_eq!(around(o), 13);
        assert_eq!(
            f.mobility,
            moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32
        );
        assert_eq!(f.edge, crate::eval::edge::edge_stability(&b));
        // 56 empties: stable discs are not computed yet.
        assert_eq!(b.empty_count(), 56);
        assert_eq!(f.stable, 0);
        // With stable discs enabled at every phase, the wall of three counts against h8.
        let all = PhaseWeights {
            stable: 1,
            ..Default::default()
        };
        assert_eq!(
            HandEval::with_anchors(&[(60, all)]).features(&b).stable,
            3 - 1
        );
    }

    #[test]
    fn features_of_the_start_position() {
        let f = HandEval::new().features(&Board::start());
        assert_eq!(
            f,
            Features {
                parity: -1,
                ..Default::default()
            }
        );
    }

    #[test]
    fn one_feature_at_a_time() {
        // Only mobility, 1 disc per move: the score after f5 is White's 3 - Black's 3 = 0;
        // after f5 d6 Black has more moves than White.
        let mob = PhaseWeights {
            mobility: 100 * WEIGHT_ONE,
            ..Default::default()
        };
        let h = HandEval::with_anchors(&[(60, mob)]);
        let b = Board::start().play(crate::square::Square::F5);
        assert_eq!(h.evaluate(&b), 0);
        let b = b.play(crate::square::Square::D6);
        let expected = 100 * (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32);
        assert_eq!(h.evaluate(&b), expected);
    }
}
