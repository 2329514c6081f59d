//! Static evaluation: the classic evaluators of PAIP chapter 18, stable discs, and the engine's
//! hand-made evaluator, all behind one small trait.
//!
//! Every evaluator scores a [`Board`] from the point of view of the side to move, in
//! **centi-discs** (100 = one disc), clamped to `±6400` ([`MAX_SCORE`]) so that heuristic scores
//! and exact final scores (disc difference x 100) live on one scale. Implementations are plain
//! data (no allocation, no interior `dyn`), `Send + Sync`, shared by every search thread, and
//! never panic on any board (any pair of disjoint bitboards).
//!
//! The search evaluates through a per-thread [`EvalState`] ([`mod@state`]) that follows its
//! path by push, pass and pop: [`Evaluator::evaluate_in`] scores the current node and
//! [`Evaluator::evaluate_child_in`] one of its children, so an evaluator can carry work from a
//! node to its children and between siblings. The pattern evaluator keeps its siblings' shared
//! indices there ([`pattern::siblings`]); a stateless evaluator uses [`Stateless`].
//!
//! Module map:
//! - [`classic`]: PAIP's first evaluators (18.2-18.7): count difference, weighted squares,
//!   modified weighted squares.
//! - [`mobility`]: current and potential mobility, as PAIP's `mobility` counts them (18.12).
//! - [`edge`]: Iago's edge table: every configuration of an edge plus its two X-squares, valued by
//!   static stability and then by a probabilistic one-move edge search (18.12).
//! - [`iago`]: PAIP's `Iago-eval`, combining edge stability with current and potential mobility
//!   using move-number-dependent coefficients (18.12).
//! - [`stability`]: discs that can never be flipped (exact edge analysis plus full lines and
//!   growth from stable neighbours), fast enough for the endgame solver's inner loop.
//! - [`hand`]: [`HandEval`], the engine's first hand-tuned evaluator.
//! - [`pattern`]: [`pattern::PatternEval`], the learned pattern evaluator (Logistello style).
//! - [`mod@state`]: the per-thread state of the search path ([`EvalState`], [`Stateless`]).
//! - [`builtin`]: [`EngineEval`], the engine's run-time choice: embedded pattern weights (the
//!   default), a weight file, or the hand-tuned evaluator.
//!
//! The unit structs [`CountDifference`], [`WeightedSquares`], [`ModifiedWeightedSquares`],
//! [`Mobility`] and [`Iago`] wrap the classic evaluators; each documents how its native score is
//! scaled to centi-discs.

use crate::board::Board;
use crate::cpu::Cpu;
use crate::square::Square;

pub mod builtin;
pub mod classic;
pub mod edge;
pub mod hand;
pub mod iago;
pub mod mobility;
pub mod nnue;
pub mod pattern;
pub mod stability;
pub mod state;

pub use builtin::EngineEval;
pub use classic::{CountDifference, ModifiedWeightedSquares, WeightedSquares};
pub use hand::HandEval;
pub use iago::Iago;
pub use mobility::Mobility;
pub use nnue::NnueEval;
pub use stability::{stable_discs, stable_discs_both};
pub use state::{EvalState, Stateless};

/// The largest magnitude an evaluator returns: a 64-0 result, in centi-discs.
pub const MAX_SCORE: i32 = 6400;

/// A static evaluator: a heuristic score of a position.
pub trait Evaluator: Send + Sync {
    /// What one search thread keeps along its path ([`Stateless`] for an evaluator that keeps
    /// nothing).
    type State: EvalState;

    /// A new state for one search thread (positioned nowhere: the search resets it at its
    /// root).
    fn new_state(&self) -> Self::State;

    /// The score of `board` for the side to move, in centi-discs (100 = one disc), within
    /// `-MAX_SCORE..=MAX_SCORE`. Higher is better for the side to move.
    fn evaluate(&self, board: &Board) -> i32;

    /// [`Evaluator::evaluate`] compiled for the code path `C` ([`crate::cpu`]). The default
    /// calls `evaluate`; an evaluator with a hot path of bit gathers or move generation
    /// overrides it, wrapping its body in [`Cpu::run`].
    #[inline(always)]
    fn evaluate_on<C: Cpu>(&self, board: &Board) -> i32
    where
        Self: Sized,
    {
        self.evaluate(board)
    }

    /// The score of the current node of `state`, which is (`p`, `o`), as
    /// [`Evaluator::evaluate_on`] scores it: the searches call this one. The default ignores
    /// the state.
    #[inline(always)]
    fn evaluate_in<C: Cpu>(&self, state: &mut Self::State, p: u64, o: u64) -> i32
    where
        Self: Sized,
    {
        let _ = state;
        self.evaluate_on::<C>(&Board::from_bits_unchecked(p, o))
    }

    /// The score of the child of the current node (`p`, `o`) of `state` reached by the legal
    /// move `sq` flipping `flips` (the position (`o ^ flips`, `p ^ flips ^ sq`), opponent to
    /// move), as [`Evaluator::evaluate_on`] scores it, without visiting it. A node evaluating
    /// several of its children one after another lets the state share work between them; the
    /// default ignores the state.
    #[inline(always)]
    fn evaluate_child_in<C: Cpu>(
        &self,
        state: &mut Self::State,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32
    where
        Self: Sized,
    {
        let _ = state;
        self.evaluate_on::<C>(&Board::from_bits_unchecked(o ^ flips, p ^ flips ^ sq.bit()))
    }

    /// The score of a child as [`Evaluator::evaluate_child_in`] gives it, where the caller
    /// only compares it with the window (`alpha`, `beta`) of the child's side to move: an
    /// evaluator with a cheaper estimate may return that estimate instead when it lies far
    /// outside the window (a *lazy* evaluation, as chess engines do with their material
    /// count). The default is the full evaluation, so the searches' results do not change for
    /// evaluators that do not override it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn evaluate_child_window_in<C: Cpu>(
        &self,
        state: &mut Self::State,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
        alpha: i32,
        beta: i32,
    ) -> i32
    where
        Self: Sized,
    {
        let _ = (alpha, beta);
        self.evaluate_child_in::<C>(state, p, o, sq, flips)
    }

    /// A value of the current node (`p`, `o`) of `state` used only to order moves (the
    /// endgame's ordering searches): [`Evaluator::evaluate_in`] unless the evaluator has a
    /// cheaper one that orders as well.
    #[inline(always)]
    fn order_in<C: Cpu>(&self, state: &mut Self::State, p: u64, o: u64) -> i32
    where
        Self: Sized,
    {
        self.evaluate_in::<C>(state, p, o)
    }

    /// A value of a child of the current node used only to order moves:
    /// [`Evaluator::evaluate_child_in`] unless the evaluator has a cheaper one.
    #[inline(always)]
    fn order_child_in<C: Cpu>(
        &self,
        state: &mut Self::State,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32
    where
        Self: Sized,
    {
        self.evaluate_child_in::<C>(state, p, o, sq, flips)
    }

    /// A value of the current node used only to order the exact solver's moves (its ordering
    /// searches' leaves): [`Evaluator::order_in`] unless the evaluator has weights of its own
    /// for that.
    #[inline(always)]
    fn solve_order_in<C: Cpu>(&self, state: &mut Self::State, p: u64, o: u64) -> i32
    where
        Self: Sized,
    {
        self.order_in::<C>(state, p, o)
    }

    /// A value of a child of the current node used only to order the exact solver's moves:
    /// [`Evaluator::order_child_in`] unless the evaluator has weights of its own for that.
    #[inline(always)]
    fn solve_order_child_in<C: Cpu>(
        &self,
        state: &mut Self::State,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32
    where
        Self: Sized,
    {
        self.order_child_in::<C>(state, p, o, sq, flips)
    }

    /// The text of the midgame Multi-ProbCut model fitted to this evaluator, if it has its own
    /// (the searcher uses the embedded model otherwise).
    fn mpc_model_text(&self) -> Option<&str> {
        None
    }
}

/// The members of an [`Evaluator`] impl for an evaluator that keeps no state.
#[macro_export]
#[doc(hidden)]
macro_rules! stateless_evaluator {
    () => {
        type State = $crate::eval::Stateless;

        #[inline(always)]
        fn new_state(&self) -> $crate::eval::Stateless {
            $crate::eval::Stateless
        }
    };
}

/// Clamps a raw score (already in centi-discs) to `-MAX_SCORE..=MAX_SCORE`.
#[inline(always)]
pub fn clamp_score(raw: i64) -> i32 {
    raw.clamp(-(MAX_SCORE as i64), MAX_SCORE as i64) as i32
}

/// Integer division `num / den` rounded to the nearest integer, ties to even: Common Lisp's
/// two-argument `round`, which PAIP's evaluators use. `den` must be positive (a zero or negative
/// `den` is treated as 1 so that the function never panics).
#[inline]
pub fn round_div(num: i64, den: i64) -> i64 {
    let den = if den > 0 { den } else { 1 };
    let q = num.div_euclid(den);
    let r = num.rem_euclid(den); // 0 <= r < den, num = q * den + r
    match (2 * r).cmp(&den) {
        std::cmp::Ordering::Less => q,
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal => q + (q & 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_div_rounds_half_to_even_like_common_lisp() {
        assert_eq!(round_div(7, 2), 4); // 3.5 -> 4
        assert_eq!(round_div(5, 2), 2); // 2.5 -> 2
        assert_eq!(round_div(-5, 2), -2); // -2.5 -> -2
        assert_eq!(round_div(-7, 2), -4); // -3.5 -> -4
        assert_eq!(round_div(10, 3), 3);
        assert_eq!(round_div(11, 3), 4);
        assert_eq!(round_div(-11, 3), -4);
        assert_eq!(round_div(-10, 3), -3);
        assert_eq!(round_div(0, 5), 0);
        assert_eq!(round_div(9, 0), 9);
    }

    #[test]
    fn clamp_score_limits_to_a_full_board() {
        assert_eq!(clamp_score(1_000_000), MAX_SCORE);
        assert_eq!(clamp_score(-1_000_000), -MAX_SCORE);
        assert_eq!(clamp_score(-123), -123);
    }
}
