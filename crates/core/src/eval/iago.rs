//! PAIP's approximation of Iago's evaluation function (`Iago-eval`).
//!
//! PAIP section 18.12 ("Combining the Factors"), after Rosenbloom's Iago (1982): three features,
//! each multiplied by a coefficient that depends on the move number `m`:
//!
//! - edge stability `E` ([`edge::edge_stability`]), weight `c_edge = 312000 + 6240 m`, divided
//!   by 32000;
//! - current mobility (legal moves, `p_cur` and `o_cur` for the mover and the opponent), as the
//!   normalised difference `c_cur (p_cur - o_cur) / (p_cur + o_cur + 2)` with
//!   `c_cur = 50000 + 2000 m` before move 25 and `75000 + 1000 m` from move 25 on;
//! - potential mobility ([`mobility::potential_mobility`]), as
//!   `c_pot (p_pot - o_pot) / (p_pot + o_pot + 2)` with `c_pot = 20000`.
//!
//! Each term is rounded to the nearest integer (ties to even, as Common Lisp's `round`) and the
//! three are added. PAIP's `*move-number*` is the number of the move about to be played in the
//! game (1 for Black's first move, passes not counted); here it is derived from the board being
//! evaluated as `discs - 3`, which is the same number when no pass has occurred.
//!
//! [`Iago::evaluate`] divides PAIP's score by 100 (rounding as above) and clamps it. PAIP's score
//! is not in discs, but this makes it roughly so: in self-play at depth 3, one disc of final
//! margin corresponded to about 5,000 to 16,000 raw units depending on the phase, so the scaled
//! score is within about a factor of two of centi-discs.

use crate::board::Board;
use crate::eval::edge::{self, EdgeTable};
use crate::eval::mobility::{self, current_mobility, potential_mobility};
use crate::eval::{clamp_score, round_div, Evaluator};

/// The divisor from PAIP's `Iago-eval` score to [`Iago::evaluate`]'s centi-discs.
pub const IAGO_SCALE: i64 = 100;

/// PAIP's move-dependent coefficients `(c_edge, c_cur, c_pot)` for move number `move_number`.
#[inline]
pub fn iago_coefficients(move_number: i64) -> (i64, i64, i64) {
    let c_edge = 312_000 + 6_240 * move_number;
    let c_cur = if move_number < 25 {
        50_000 + 2_000 * move_number
    } else {
        75_000 + 1_000 * move_number
    };
    (c_edge, c_cur, 20_000)
}

/// The move number PAIP would use for `board`: the number of discs minus 3 (1 at the start).
#[inline]
pub fn move_number(board: &Board) -> i64 {
    (board.player_count() + board.opponent_count()) as i64 - 3
}

/// PAIP's `Iago-eval` score of `board` for the side to move, with the given edge table.
pub fn iago_score_with(table: &EdgeTable, board: &Board) -> i64 {
    let (p, o) = (board.player(), board.opponent());
    let (c_edge, c_cur, c_pot) = iago_coefficients(move_number(board));
    let (p_cur, o_cur) = (current_mobility(p, o) as i64, current_mobility(o, p) as i64);
    let (p_pot, o_pot) = (
        potential_mobility(p, o) as i64,
        potential_mobility(o, p) as i64,
    );
    let edge = edge::edge_stability_with(table, p, o) as i64;
    round_div(c_edge * edge, 32_000)
        + round_div(c_cur * (p_cur - o_cur), p_cur + o_cur + 2)
        + round_div(c_pot * (p_pot - o_pot), p_pot + o_pot + 2)
}

/// PAIP's `Iago-eval` score of `board` for the side to move (shared edge table).
pub fn iago_score(board: &Board) -> i64 {
    iago_score_with(edge::edge_table(), board)
}

/// PAIP's Iago evaluation as an [`Evaluator`]: [`iago_score`] / [`IAGO_SCALE`], clamped.
#[derive(Clone, Copy)]
pub struct Iago {
    table: &'static EdgeTable,
}

impl std::fmt::Debug for Iago {
    /// Just the name: the edge table is too large to print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Iago")
    }
}

impl Iago {
    /// The evaluator, building the shared edge table if that has not happened yet.
    pub fn new() -> Iago {
        Iago {
            table: edge::edge_table(),
        }
    }

    /// PAIP's raw score (not scaled or clamped).
    pub fn raw(&self, board: &Board) -> i64 {
        iago_score_with(self.table, board)
    }
}

impl Default for Iago {
    fn default() -> Self {
        Iago::new()
    }
}

impl Evaluator for Iago {
    crate::stateless_evaluator!();

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        clamp_score(round_div(self.raw(board), IAGO_SCALE))
    }
}

/// PAIP's `mobility` for both sides: `((p_cur, p_pot), (o_cur, o_pot))`.
pub fn both_mobilities(board: &Board) -> ((u32, u32), (u32, u32)) {
    let (p, o) = (board.player(), board.opponent());
    (mobility::mobility(p, o), mobility::mobility(o, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_at_sample_move_numbers() {
        assert_eq!(iago_coefficients(1), (318_240, 52_000, 20_000));
        assert_eq!(iago_coefficients(24), (461_760, 98_000, 20_000));
        assert_eq!(iago_coefficients(25), (468_000, 100_000, 20_000));
        assert_eq!(iago_coefficients(60), (686_400, 135_000, 20_000));
    }

    #[test]
    fn start_position_scores_zero() {
        // Symmetric edges (all empty), equal mobilities: every term is 0.
        let b = Board::start();
        assert_eq!(move_number(&b), 1);
        assert_eq!(both_mobilities(&b), ((4, 10), (4, 10)));
        assert_eq!(iago_score(&b), 0);
        assert_eq!(Iago::new().evaluate(&b), 0);
    }

    #[test]
    fn after_one_move_the_formula_matches_by_hand() {
        // After f5, White (to move) has d6, f4 and f6, Black has c3, d3 and c4: the current
        // mobility term is 0, and there are no edge discs. White's potential mobility is the 13
        // empties around Black's d5 e4 e5 f5, Black's the 5 around White's d4.
        let b = Board::start().play(crate::square::Square::F5);
        let ((p_cur, p_pot), (o_cur, o_pot)) = both_mobilities(&b);
        assert_eq!((p_cur, o_cur), (3, 3));
        assert_eq!((p_pot, o_pot), (13, 5));
        assert_eq!(edge::edge_stability(&b), 0);
        let (_, _, c_pot) = iago_coefficients(2);
        // 20000 * 8 / 20 = 8000 exactly.
        assert_eq!(c_pot * (13 - 5) / (13 + 5 + 2), 8000);
        assert_eq!(iago_score(&b), 8000);
        // White's potential mobility (empties next to Black's four discs) beats Black's.
        assert!(p_pot > o_pot, "{p_pot} {o_pot}");
        assert!(iago_score(&b) > 0);
    }
}
