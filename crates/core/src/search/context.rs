//! The per-thread search context: what one search thread carries through a search, whichever
//! of the midgame search ([`super::midgame::Midgame`]) and the exact solver
//! ([`super::endgame::Solver`]) is working.
//!
//! A context owns the evaluator's per-thread state ([`EvalState`]), which follows the search
//! path by push, pass and pop, and holds the shared transposition table, the stop decision
//! and the node count of the searcher working in it. Searchers borrow it: the solver's
//! ProbCut searches run a midgame search in the solver's own context, at the solver's current
//! node, with the same evaluator state ([`Context::nested`]).

use crate::cpu::Cpu;
use crate::eval::{EvalState, Evaluator};
use crate::square::Square;

use super::tt::TranspositionTable;
use super::Stopper;

/// One search thread's context (see the module docs).
pub struct Context<'a, E: Evaluator> {
    eval: &'a E,
    state: E::State,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) stopper: &'a mut Stopper,
    /// Nodes visited by the searcher working in this context (interior nodes and evaluated
    /// leaves), counted from zero when it starts ([`Context::start`]).
    pub(crate) nodes: u64,
}

impl<'a, E: Evaluator> Context<'a, E> {
    /// A context searching with `eval` and `tt`, stopping when `stopper` says so, with a new
    /// evaluator state.
    pub fn new(eval: &'a E, tt: &'a TranspositionTable, stopper: &'a mut Stopper) -> Self {
        Context {
            eval,
            state: eval.new_state(),
            tt,
            stopper,
            nodes: 0,
        }
    }

    /// The evaluator.
    #[inline(always)]
    pub fn eval(&self) -> &'a E {
        self.eval
    }

    /// Nodes visited by the searcher working in this context since it started.
    #[inline(always)]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the search was stopped (scores returned since then are meaningless).
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stopper.stopped()
    }

    /// Starts a searcher in this context: its node count from zero, after `used` nodes spent
    /// by earlier searchers of the same search (they count toward a node budget).
    pub(crate) fn start(&mut self, used: u64) {
        self.stopper.rebase(used);
        self.nodes = 0;
    }

    /// Whether to stop now (reads the clock only every few thousand nodes).
    #[inline(always)]
    pub(crate) fn check(&mut self) -> bool {
        self.stopper.check(self.nodes)
    }

    /// Runs `search` as a searcher nested in the current one, at its current node: the nested
    /// searcher counts its nodes from zero on its own check schedule, and they are added to
    /// the current searcher's when it returns.
    #[inline]
    pub(crate) fn nested<R>(&mut self, search: impl FnOnce(&mut Self) -> R) -> R {
        let mark = self.stopper.mark();
        let outer = self.nodes;
        self.start(mark.used() + outer);
        let result = search(self);
        self.nodes += outer;
        self.stopper.restore(mark);
        result
    }

    /// Starts the evaluator's path at the root (`p`, `o`).
    #[inline(always)]
    pub(crate) fn reset(&mut self, p: u64, o: u64) {
        self.state.reset(p, o);
    }

    /// Visits the child of the current node (`p`, `o`) reached by `sq` flipping `flips`.
    #[inline(always)]
    pub(crate) fn push(&mut self, p: u64, o: u64, sq: Square, flips: u64) {
        self.state.push(p, o, sq, flips);
    }

    /// Visits the current node after a pass.
    #[inline(always)]
    pub(crate) fn pass(&mut self) {
        self.state.pass();
    }

    /// Returns to the parent of the current node.
    #[inline(always)]
    pub(crate) fn pop(&mut self) {
        self.state.pop();
    }

    /// The evaluation of the current node, which is (`p`, `o`).
    #[inline(always)]
    pub(crate) fn evaluate<C: Cpu>(&mut self, p: u64, o: u64) -> i32 {
        self.eval.evaluate_in::<C>(&mut self.state, p, o)
    }

    /// The ordering value of the current node (`p`, `o`) ([`Evaluator::order_in`]).
    #[inline(always)]
    pub(crate) fn order_value<C: Cpu>(&mut self, p: u64, o: u64) -> i32 {
        self.eval.order_in::<C>(&mut self.state, p, o)
    }

    /// The ordering value of a child of the current node ([`Evaluator::order_child_in`]).
    #[inline(always)]
    pub(crate) fn order_child<C: Cpu>(&mut self, p: u64, o: u64, sq: Square, flips: u64) -> i32 {
        self.eval
            .order_child_in::<C>(&mut self.state, p, o, sq, flips)
    }

    /// The exact solver's ordering value of the current node ([`Evaluator::solve_order_in`]).
    #[inline(always)]
    pub(crate) fn solve_order_value<C: Cpu>(&mut self, p: u64, o: u64) -> i32 {
        self.eval.solve_order_in::<C>(&mut self.state, p, o)
    }

    /// The exact solver's ordering value of a child of the current node
    /// ([`Evaluator::solve_order_child_in`]).
    #[inline(always)]
    pub(crate) fn solve_order_child<C: Cpu>(
        &mut self,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        self.eval
            .solve_order_child_in::<C>(&mut self.state, p, o, sq, flips)
    }

    /// The evaluation of the child of the current node (`p`, `o`) reached by `sq` flipping
    /// `flips`, without visiting it.
    #[inline(always)]
    pub(crate) fn evaluate_child<C: Cpu>(&mut self, p: u64, o: u64, sq: Square, flips: u64) -> i32 {
        self.eval
            .evaluate_child_in::<C>(&mut self.state, p, o, sq, flips)
    }

    /// The evaluation of a child of the current node compared with the child's window
    /// (`alpha`, `beta`) only ([`Evaluator::evaluate_child_window_in`]).
    #[inline(always)]
    pub(crate) fn evaluate_child_window<C: Cpu>(
        &mut self,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.eval
            .evaluate_child_window_in::<C>(&mut self.state, p, o, sq, flips, alpha, beta)
    }
}
