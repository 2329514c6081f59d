//! What a search reports: its [`Value`] (heuristic, exact, win/loss/draw or probable), the
//! [`SearchResult`] of each completed iteration, and the [`Observer`] that receives them.

use std::time::Duration;

use crate::board::{Board, Move};
use crate::discs::CentiDiscs;
use crate::search::Selectivity;

/// A search value. Heuristic and exact scores are different kinds and never mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A heuristic estimate, in centi-discs (100 = one disc), side to move's view.
    Heuristic(i32),
    /// The exact final disc difference under perfect play.
    Exact(i32),
    /// Win (+1), draw (0) or loss (-1) under perfect play.
    Wld(i32),
    /// The final disc difference found by a search to the end of the game with forward
    /// pruning (a *probable* solve, reported with its [`Selectivity`]): exact unless one of
    /// its ProbCut cuts was wrong.
    Probable(i32),
}

impl Value {
    /// The value in discs, as a float (WLD results give ±1 or 0).
    pub fn discs(&self) -> f64 {
        match *self {
            Value::Heuristic(c) => CentiDiscs::from(c).to_discs(),
            Value::Exact(d) | Value::Wld(d) | Value::Probable(d) => d as f64,
        }
    }

    /// The value in centi-discs (a heuristic as it is, a disc count times 100).
    pub fn centi(&self) -> i32 {
        match *self {
            Value::Heuristic(c) => c,
            // A disc count is at most 64: its centi-discs fit an i32.
            Value::Exact(d) | Value::Wld(d) | Value::Probable(d) => {
                CentiDiscs::from_whole_discs(d).0 as i32
            }
        }
    }

    /// The same value from the other side's view.
    pub fn negate(self) -> Value {
        match self {
            Value::Heuristic(c) => Value::Heuristic(-c),
            Value::Exact(d) => Value::Exact(-d),
            Value::Wld(d) => Value::Wld(-d),
            Value::Probable(d) => Value::Probable(-d),
        }
    }
}

/// The outcome of a search, or of one completed iteration of it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (`Move::Pass` when the side to move must pass or the game is over).
    pub best: Move,
    /// Its value.
    pub value: Value,
    /// Midgame depth in plies, or the number of empties for a solve or a probable solve.
    pub depth: u32,
    /// The forward pruning of a midgame iteration or of a probable solve (`None`: full width,
    /// or a solve).
    pub selectivity: Option<Selectivity>,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl SearchResult {
    /// The position the principal variation expects after its first two moves from `root`
    /// (the move chosen, then the reply), if both are legal and the game goes on there: what
    /// to ponder on.
    pub fn expected_position(&self, root: &Board) -> Option<Board> {
        let [ours, reply, ..] = self.pv[..] else {
            return None;
        };
        let after = root.try_play_move(ours).ok()?.try_play_move(reply).ok()?;
        (!after.is_game_over()).then_some(after)
    }
}

/// Receives progress from a running search. Search itself never prints.
pub trait Observer {
    /// Called after each completed iteration (midgame depth, WLD solve, exact solve).
    fn on_iteration(&mut self, result: &SearchResult);
}

/// An observer that ignores everything.
impl Observer for () {
    fn on_iteration(&mut self, _: &SearchResult) {}
}

/// Collects every iteration (useful in tests and batch commands).
impl Observer for Vec<SearchResult> {
    fn on_iteration(&mut self, result: &SearchResult) {
        self.push(result.clone());
    }
}
