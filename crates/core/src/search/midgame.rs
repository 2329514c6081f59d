//! Midgame search: negamax alpha-beta in principal-variation form (PVS), with a
//! transposition table and move ordering.
//!
//! PVS (Marsland and Campbell's "principal variation search", the zero-window search PAIP
//! describes at the end of chapter 18): at each node the first move is searched with the full
//! window; every later move is first searched with a null window `(alpha, alpha + 1)`, which only
//! proves it is no better, and re-searched with the full window if that proof fails.
//!
//! Move ordering: the transposition table's move first; then, at depth 3 and more, the static
//! evaluation of the position after each move (a one-ply look-ahead), adjusted by the opponent's
//! mobility; at shallower depths mobility alone ("fastest first"), which costs one move
//! generation per move.
//!
//! Forward pruning (optional, [`Midgame::set_selectivity`]): Multi-ProbCut at null-window nodes
//! of depth 3 and more, with the model of [`super::probcut::model`]. PV nodes are never pruned.
//!
//! Passes do not use a ply; a second consecutive pass ends the game and scores it exactly
//! (100 centi-discs per disc, standard scoring).

use std::marker::PhantomData;

use crate::bitboard::{squares, CORNERS};
use crate::board::final_score;
use crate::cpu::{Cpu, Portable};
use crate::eval::{Evaluator, MAX_SCORE};
use crate::hash::table_key;
use crate::square::Square;

use super::busy::BusyTable;
use super::context::Context;
use super::order::{Candidate, MoveList, MAX_MOVES};
use super::probcut::model::{MpcModel, MPC_MIN_DEPTH};
use super::pv_loop::{pv_moves, PvSearch};
use super::selectivity::Selectivity;
use super::tt::Bound;

/// Above any score (centi-discs; exact scores reach ±6400).
pub const INF: i32 = 30_000;
/// Smallest depth at which a node of a parallel search defers the children other threads are
/// searching (see [`super::busy`]).
const DEFER_MIN_DEPTH: u32 = 4;

/// One midgame search in a thread's [`Context`] (evaluator and its state, table, stop
/// condition, node count), compiled for the code path `C` ([`crate::cpu`]).
pub struct Midgame<'c, 'a, E: Evaluator, C: Cpu = Portable> {
    cx: &'c mut Context<'a, E>,
    /// Use table entries for cut-offs only when their depth equals the node's. This makes the
    /// search return exactly the fixed-depth alpha-beta value (used by the tests); normal
    /// searches also accept deeper entries.
    pub exact_depth_cutoffs: bool,
    /// Disable null windows: plain alpha-beta (for tests comparing the two).
    pub plain_alpha_beta: bool,
    /// Multi-ProbCut: the model and the margin level, or `None` for a full-width search.
    mpc: Option<(&'c MpcModel, Selectivity)>,
    /// The marks shared with the other threads of a parallel search, if any.
    busy: Option<&'c BusyTable>,
    /// The key of the root of the current [`Midgame::root`] search, and the best move its last
    /// result stored (read from here, not from the shared table, which other threads write).
    root_key: u64,
    root_best: Option<Square>,
    /// The best move of the last [`Midgame::depth_one`] node (a depth-1 root's move: its
    /// children's values may be lazy estimates, which a second evaluation would not repeat).
    depth_one_best: Option<Square>,
    cpu: PhantomData<C>,
}

impl<'c, 'a, E: Evaluator> Midgame<'c, 'a, E, Portable> {
    /// A search in the context `cx`, its node count from zero; `used` nodes were already
    /// spent in this search. Portable code; the engine's searcher picks the processor's
    /// fastest path.
    pub fn new(cx: &'c mut Context<'a, E>, used: u64) -> Midgame<'c, 'a, E, Portable> {
        Midgame::on_cpu(cx, used)
    }
}

impl<'c, 'a, E: Evaluator, C: Cpu> Midgame<'c, 'a, E, C> {
    /// [`Midgame::new`] on the code path `C`.
    #[doc(hidden)]
    pub fn on_cpu(cx: &'c mut Context<'a, E>, used: u64) -> Midgame<'c, 'a, E, C> {
        cx.start(used);
        Midgame::nested(cx)
    }

    /// A search in `cx` that goes on counting the context's nodes: a search nested in another
    /// at its current node (see [`Context::nested`]).
    pub(crate) fn nested(cx: &'c mut Context<'a, E>) -> Midgame<'c, 'a, E, C> {
        Midgame {
            cx,
            exact_depth_cutoffs: false,
            plain_alpha_beta: false,
            mpc: None,
            busy: None,
            root_key: 0,
            root_best: None,
            depth_one_best: None,
            cpu: PhantomData,
        }
    }

    /// Makes this search one thread of a parallel search sharing `busy` (see [`super::busy`]).
    pub(crate) fn set_busy(&mut self, busy: Option<&'c BusyTable>) {
        self.busy = busy;
    }

    /// Prunes null-window nodes with Multi-ProbCut at `selectivity`, predicting deep values
    /// with `model` (see [`super::mpc`]); `None` searches full width (the default).
    pub fn set_selectivity(&mut self, model: &'c MpcModel, selectivity: Option<Selectivity>) {
        self.mpc = selectivity.map(|s| (model, s));
    }

    /// Whether the search was stopped (scores returned since then are meaningless).
    pub fn aborted(&self) -> bool {
        self.cx.stopped()
    }

    /// Nodes visited by this search (interior nodes and evaluated leaves).
    pub fn nodes(&self) -> u64 {
        self.cx.nodes
    }

    /// The evaluation of the current node (`p`, `o`).
    #[inline(always)]
    fn evaluate(&mut self, p: u64, o: u64) -> i32 {
        self.cx.evaluate::<C>(p, o)
    }

    /// The root search: value within (`alpha`, `beta`) and best move, at `depth` plies.
    /// `None` as move when the side to move must pass or the game is over.
    ///
    /// The root moves in `excluded` (0 for none) are skipped: the search then finds the best
    /// of the other moves (the next line of a multi-PV search), and must have one left.
    pub fn root(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        excluded: u64,
    ) -> (i32, Option<Square>) {
        self.root_key = table_key(p, o);
        self.root_best = None;
        self.depth_one_best = None;
        self.cx.reset(p, o);
        let v = if excluded != 0 {
            self.root_excluding(p, o, alpha, beta, depth.max(1), excluded)
        } else {
            self.pvs_node(p, o, alpha, beta, depth.max(1), false)
        };
        if depth <= 1 && excluded == 0 && C::moves(p, o) != 0 {
            // A depth-1 search (one evaluation per move) stores no move: the root's is the
            // one its depth-1 node kept.
            self.root_best = self.depth_one_best;
        }
        if depth <= 1 && self.root_best.is_none() {
            // Without it (moves excluded), the first move whose evaluation is the value is
            // the best (evaluated again, not counted as nodes).
            self.root_best = squares(C::moves(p, o) & !excluded).find(|&sq| {
                let f = C::flips(sq, p, o);
                -self.cx.evaluate_child::<C>(p, o, sq, f) == v
            });
        }
        let best = self
            .root_best
            .or_else(|| self.cx.tt.probe(self.root_key).and_then(|e| e.best));
        (v, best.filter(|b| C::moves(p, o) & b.bit() != 0))
    }

    /// The root of a search that skips the moves of `excluded`: PVS over the other moves,
    /// ordered as at any node. Nothing is stored for the root, whose value here is not its
    /// true value; the children's results are stored as usual.
    fn root_excluding(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        excluded: u64,
    ) -> i32 {
        self.cx.nodes += 1;
        let mv = C::moves(p, o) & !excluded;
        let tt_move = self.cx.tt.probe(self.root_key).and_then(|e| e.best);
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order(p, o, mv, tt_move, depth, &mut list);
        let defer = depth >= DEFER_MIN_DEPTH;
        let Some((best, best_sq)) =
            pv_moves(self, p, o, alpha, beta, depth, defer, &mut list, count)
        else {
            return 0;
        };
        self.root_best = best_sq;
        best
    }

    /// Negamax PVS of the root (`p`, `o`), fail-soft, in centi-discs; `passed`: the side to
    /// move before passed (a second pass ends the game).
    pub fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32, passed: bool) -> i32 {
        self.cx.reset(p, o);
        self.pvs_node(p, o, alpha, beta, depth, passed)
    }

    /// Negamax PVS of the current node (`p`, `o`) of the context, fail-soft, in centi-discs.
    #[inline(always)]
    pub(crate) fn pvs_node(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        passed: bool,
    ) -> i32 {
        C::call7(Self::pvs_body, self, p, o, alpha, beta, depth, passed)
    }

    /// The current node after a pass: (`o`, `p`) searched within the negated window.
    #[inline(always)]
    fn after_pass(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
        self.cx.pass();
        let v = -self.pvs_node(o, p, -beta, -alpha, depth, true);
        self.cx.pop();
        v
    }

    /// The body of [`Midgame::pvs`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn pvs_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32, passed: bool) -> i32 {
        self.cx.nodes += 1;
        if depth == 0 {
            return self.evaluate(p, o);
        }
        // No value lies outside ±MAX_SCORE (a 64-0 result), so a window reaching beyond it is
        // narrowed: a maximal score then cuts at once instead of every sibling being searched
        // for a better one. This matters in won-out positions, where the evaluation saturates.
        if alpha >= MAX_SCORE {
            return MAX_SCORE;
        }
        if beta <= -MAX_SCORE {
            return -MAX_SCORE;
        }
        let beta = beta.min(MAX_SCORE);
        if depth == 1 {
            return self.depth_one(p, o, alpha, beta, passed);
        }
        if self.cx.check() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = table_key(p, o);
        let mut tt_move = None;
        if let Some(e) = self.cx.tt.probe(key) {
            tt_move = e.best;
            let usable = if self.exact_depth_cutoffs {
                e.depth as u32 == depth
            } else {
                e.depth as u32 >= depth
            };
            if usable && !pv_node {
                let s = e.score as i32;
                if e.bound.cuts(s, alpha, beta) {
                    return s;
                }
            }
        }
        let mv = C::moves(p, o);
        if mv == 0 {
            if passed {
                return 100 * final_score(p, o);
            }
            return self.after_pass(p, o, alpha, beta, depth);
        }
        if !pv_node && depth >= MPC_MIN_DEPTH {
            if let Some((model, sel)) = self.mpc {
                if let Some(v) = self.probcut(p, o, alpha, depth, model, sel) {
                    return v;
                }
            }
        }
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order(p, o, mv, tt_move, depth, &mut list);
        let defer = depth >= DEFER_MIN_DEPTH;
        let Some((best, best_sq)) =
            pv_moves(self, p, o, alpha, beta, depth, defer, &mut list, count)
        else {
            return 0;
        };
        let bound = Bound::from_window(best, alpha, beta);
        if key == self.root_key {
            // The root cannot recur below itself (every move adds a disc; a pass changes the
            // key), so this is the root's own result.
            self.root_best = best_sq;
        }
        self.cx
            .tt
            .store(key, best as i16, bound, depth as u8, best_sq);
        best
    }

    /// Multi-ProbCut at a null-window node (`alpha`, `alpha + 1`) of `depth`: `Some(bound)`
    /// when a shallow search predicts, with `sel.t()` standard deviations to spare, that the
    /// deep value is above `alpha` (returns `alpha + 1`) or at most `alpha` (returns `alpha`).
    ///
    /// Each side is tried only when the static evaluation is within one margin of the shallow
    /// bound, which saves most of the shallow searches that could not succeed (measured on
    /// quality-30 at depth 12: 6% fewer nodes than always trying, same move quality).
    #[inline(always)]
    fn probcut(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        depth: u32,
        model: &MpcModel,
        sel: Selectivity,
    ) -> Option<i32> {
        let empties = (!(p | o)).count_ones();
        let cut = *model.cut(empties, depth)?;
        let margin = sel.t() * cut.sigma;
        let beta = alpha + 1;
        // Only a gate, so the cheaper ordering value serves.
        let static_value = self.cx.order_value::<C>(p, o);
        if let Some(high) = cut.high_bound(beta, margin) {
            if static_value >= high - margin as i32
                && self.shallow(p, o, high - 1, cut.shallow) >= high
            {
                return Some(beta);
            }
        }
        if let Some(low) = cut.low_bound(alpha, margin) {
            if static_value <= low + margin as i32 && self.shallow(p, o, low, cut.shallow) <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// The null-window search (`alpha`, `alpha + 1`) of a ProbCut prediction.
    #[inline(always)]
    fn shallow(&mut self, p: u64, o: u64, alpha: i32, depth: u32) -> i32 {
        if depth == 0 {
            self.cx.nodes += 1;
            return self.evaluate(p, o);
        }
        self.pvs_node(p, o, alpha, alpha + 1, depth, false)
    }

    /// The last ply before the leaves: every child is one evaluation, so ordering them would
    /// cost as much as evaluating them; no table either (its entries would be the cheapest).
    #[inline(always)]
    fn depth_one(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        let mv = C::moves(p, o);
        if mv == 0 {
            if passed {
                return 100 * final_score(p, o);
            }
            return self.after_pass(p, o, alpha, beta, 1);
        }
        let mut best = -INF;
        let mut best_sq = None;
        for sq in squares(mv) {
            let f = C::flips(sq, p, o);
            self.cx.nodes += 1;
            let v = -self
                .cx
                .evaluate_child_window::<C>(p, o, sq, f, -beta, -alpha);
            if v > best {
                best = v;
                best_sq = Some(sq);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.depth_one_best = best_sq;
        best
    }

    /// Fills `list` with the moves keyed for ordering (higher is better); returns the count.
    #[inline(always)]
    fn order(
        &mut self,
        p: u64,
        o: u64,
        mv: u64,
        tt_move: Option<Square>,
        depth: u32,
        list: &mut MoveList,
    ) -> usize {
        let mut count = 0;
        for sq in squares(mv) {
            let f = C::flips(sq, p, o);
            let (cp, co) = (o ^ f, p ^ f ^ sq.bit());
            let replies = C::moves(cp, co);
            let mobility = (replies.count_ones() + 2 * (replies & CORNERS).count_ones()) as i32;
            let mut key = if depth >= 3 {
                -self.cx.order_child::<C>(p, o, sq, f) - 40 * mobility
            } else {
                -100 * mobility
            };
            if Some(sq) == tt_move {
                key = i32::MAX;
            }
            list[count] = Candidate {
                sq: sq.index() as u8,
                key,
                flips: f,
            };
            count += 1;
        }
        count
    }
}

impl<'c, 'a, E: Evaluator, C: Cpu> PvSearch<'c> for Midgame<'c, 'a, E, C> {
    const FLOOR: i32 = -INF;

    #[inline(always)]
    fn busy(&self) -> Option<&'c BusyTable> {
        self.busy
    }

    #[inline(always)]
    fn plain(&self) -> bool {
        self.plain_alpha_beta
    }

    #[inline(always)]
    fn push(&mut self, p: u64, o: u64, sq: Square, flips: u64) {
        self.cx.push(p, o, sq, flips);
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.cx.pop();
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.cx.stopped()
    }

    #[inline(always)]
    fn full(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
        self.pvs_node(p, o, alpha, beta, depth, false)
    }

    #[inline(always)]
    fn null(&mut self, p: u64, o: u64, alpha: i32, depth: u32) -> i32 {
        self.pvs_node(p, o, alpha, alpha + 1, depth, false)
    }
}
