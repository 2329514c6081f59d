//! The evaluator's per-thread state along the search path: the seam where an evaluator that
//! updates its features incrementally (Edax's `eval_update`/`eval_restore`, the accumulators
//! of a neural network) keeps what it carries from a node to its children.
//!
//! Each search thread owns one state (in its [`crate::search::Context`]). The search tells it
//! every step of its path: [`EvalState::reset`] at a new root, [`EvalState::push`] when it
//! visits the child reached by a move, [`EvalState::pass`] when the side to move passes, and
//! [`EvalState::pop`] when it returns to the parent. Between those calls the state describes
//! the *current node*, and the evaluator scores it, or one of its children, through the state
//! ([`super::Evaluator::evaluate_in`], [`super::Evaluator::evaluate_child_in`]).
//!
//! The exact solver's last plies (up to 5 empties, the solver's `SHALLOW_MAX`), where
//! nothing is ever evaluated, walk their moves without telling the state; everywhere else
//! (midgame, endgame above them, move ordering, ProbCut's searches) every child visit goes
//! through `push`/`pop`.
//!
//! A stateless evaluator uses [`Stateless`], whose calls compile to nothing.

use crate::square::Square;

/// An evaluator's state along one thread's search path (see the module docs).
pub trait EvalState: Send {
    /// Starts a new path at the root (`p`, `o`): `p` the discs of the side to move.
    fn reset(&mut self, p: u64, o: u64);

    /// The side to move of the current node (`p`, `o`) plays `sq`, flipping `flips`; the child
    /// (`o ^ flips`, `p ^ flips ^ sq`) becomes the current node.
    fn push(&mut self, p: u64, o: u64, sq: Square, flips: u64);

    /// The side to move of the current node passes; (`o`, `p`) becomes the current node.
    fn pass(&mut self);

    /// Returns to the parent of the current node (undoes the last `push` or `pass`).
    fn pop(&mut self);
}

/// The state of an evaluator that carries nothing from node to node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stateless;

impl EvalState for Stateless {
    #[inline(always)]
    fn reset(&mut self, _p: u64, _o: u64) {}

    #[inline(always)]
    fn push(&mut self, _p: u64, _o: u64, _sq: Square, _flips: u64) {}

    #[inline(always)]
    fn pass(&mut self) {}

    #[inline(always)]
    fn pop(&mut self) {}
}
