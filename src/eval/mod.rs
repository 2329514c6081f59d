//! Evaluation (stub: the classic PAIP evaluators arrive with the search issue).

use crate::board::Board;

/// A static evaluation: a heuristic score in centi-discs (100 = one disc) from the side to
/// move's view, clamped to ±6400 so it is comparable with exact scores times 100.
pub trait Evaluator: Send + Sync {
    /// The score of `board` for the side to move.
    fn evaluate(&self, board: &Board) -> i32;
}

/// Placeholder: mobility difference.
#[derive(Default, Clone, Copy)]
pub struct HandEval;

impl HandEval {
    /// The evaluator.
    pub fn new() -> HandEval {
        HandEval
    }
}

impl Evaluator for HandEval {
    fn evaluate(&self, board: &Board) -> i32 {
        let m = board.moves().count_ones() as i32;
        let o = board.pass().moves().count_ones() as i32;
        (m - o) * 50
    }
}
pub mod stability;
