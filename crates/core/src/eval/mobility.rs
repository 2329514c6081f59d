//! Current and potential mobility, as PAIP's `mobility` counts them.
//!
//! PAIP section 18.12 ("Mobility", after Rosenbloom's Iago): *current mobility* is the number of
//! legal moves; *potential mobility* is the number of empty squares adjacent to an opponent disc,
//! legal moves included. (PAIP's `mobility` counts the non-legal ones separately and returns
//! `current` and `current + potential`; that second value is what [`potential_mobility`] gives.)
//! Since every legal move is an empty square next to an opponent disc, the count is simply
//! `|empty ∩ neighbours(opponent)|`: one neighbour fill and a popcount.

use crate::bitboard::neighbours;
use crate::board::{moves, Board};
use crate::eval::Evaluator;

/// The number of legal moves of `player` against `opponent`.
#[inline(always)]
pub fn current_mobility(player: u64, opponent: u64) -> u32 {
    moves(player, opponent).count_ones()
}

/// PAIP's potential mobility of `player`: the empty squares adjacent (in any of the eight
/// directions) to at least one `opponent` disc, legal moves included.
#[inline(always)]
pub fn potential_mobility(player: u64, opponent: u64) -> u32 {
    (neighbours(opponent) & !(player | opponent)).count_ones()
}

/// PAIP's `mobility`: `(current, potential)` for `player`, potential including current.
#[inline]
pub fn mobility(player: u64, opponent: u64) -> (u32, u32) {
    (
        current_mobility(player, opponent),
        potential_mobility(player, opponent),
    )
}

/// Current mobility as an [`Evaluator`]: 100 x (the mover's legal moves - the opponent's), i.e.
/// one move counts as one disc. (Not one of PAIP's strategies; a baseline for comparisons.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mobility;

impl Evaluator for Mobility {
    crate::stateless_evaluator!();

    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        let (p, o) = (board.player(), board.opponent());
        // At most 64 moves each, so the difference is within +-6400.
        100 * (current_mobility(p, o) as i32 - current_mobility(o, p) as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PAIP's loop, square by square: legal moves, then other empties next to an opponent disc.
    fn paip_mobility(board: &Board) -> (u32, u32) {
        let o = board.opponent();
        let (mut current, mut potential) = (0, 0);
        for sq in crate::square::Square::ALL {
            if board.empty() & sq.bit() == 0 {
                continue;
            }
            if board.is_legal(sq) {
                current += 1;
            } else if neighbours(sq.bit()) & o != 0 {
                potential += 1;
            }
        }
        (current, current + potential)
    }

    #[test]
    fn start_position_mobility() {
        let b = Board::start();
        // Four moves; the empties next to White's d4/e5 are the 10 squares around them.
        assert_eq!(mobility(b.player(), b.opponent()), (4, 10));
        assert_eq!(paip_mobility(&b), (4, 10));
        assert_eq!(Mobility.evaluate(&b), 0);
    }

    #[test]
    fn matches_paips_square_by_square_count_along_a_game() {
        let mut b = Board::start();
        for _ in 0..40 {
            assert_eq!(mobility(b.player(), b.opponent()), paip_mobility(&b));
            match b.legal_moves().nth(b.moves().count_ones() as usize / 2) {
                Some(sq) => b = b.play(sq),
                None if b.is_game_over() => break,
                None => b = b.pass(),
            }
        }
    }
}
