//! Exact endgame solver: the final disc difference under perfect play.
//!
//! The solver is a negamax alpha-beta search on raw bitboards, organised by the number of empty
//! squares, in the manner of the fastest solvers (Edax's `endgame.c`, Gunnar Andersson's
//! Zebra), written afresh here:
//!
//! - **1 to 4 empties**: hand-specialised functions taking the empty squares as arguments, with
//!   no move list and no allocation. The last empty square is scored by counting flips alone,
//!   with per-line tables ([`crate::last_flip`]). With 4 empties the squares are tried in
//!   parity order: squares in a quadrant with an odd number of empties first (the player who
//!   moves last in a region usually gains there), C- and X-squares last within each group.
//! - **5 to [`SHALLOW_MAX`] empties**: null-window search with the same ordering and the
//!   stability cut-off below, no hashing.
//! - **Up to [`LEAF_MAX`] empties**: null-window search with a small cache-resident table of
//!   bounds ([`super::leaf_table`]); a probe of the big table there would mostly be a cache miss.
//! - **More empties**: null-window search with the transposition table; up to [`NEAR_MAX`]
//!   empties in its near region, which stays in the cache and keeps these many small entries
//!   from evicting the deeper ones ([`super::tt`], "Regions"); the parent prefetches each
//!   child's cluster while it orders the moves. Then enhanced transposition cut-offs, and
//!   ordering by fastest-first (moves leaving the opponent the fewest replies first, as in
//!   Zebra) plus the evaluation of each child (static, then small searches of one to three
//!   plies as the empties grow), after the table's move (see [`ordering`]). At a null-window
//!   node the table's move is searched before the others are evaluated: it usually ends a cut
//!   node alone. The table's move is the solver's own (an exact or selective pass's), or a
//!   midgame entry's only if that search was at least as deep as the node's empties: the
//!   moves of shallower midgame searches (ProbCut's probes, the presearch) are ignored.
//! - Every null-window node above 4 empties tries the **stability cut-off**: the opponent's
//!   stable discs bound the score from above (see [`crate::eval::stability`]).
//! - **Principal variation** nodes (the root and the first line) use PVS: a full window for the
//!   first move, null windows for the rest, and a re-search when one fails high.
//!
//! **Root.** With a first guess (from a midgame search), the value is found by MTD(f): a short
//! series of null-window searches ([`Solver::solve_root_mtd`]). A solver in a *selective pass*
//! ([`Solver::set_selectivity`]) also applies ProbCut (see [`super::probcut`]); its results are
//! estimates, stored as such, that order the moves of the exact pass that follows.
//!
//! A win/loss/draw solve is the same search with the window (-1, 1). Scores are in discs from
//! the side to move's view, standard scoring (empties go to the winner).

use std::cell::Cell;
use std::marker::PhantomData;

use crate::bitboard::{squares, C_SQUARES, X_SQUARES};
use crate::board::final_score;
use crate::cpu::{Cpu, Portable};
use crate::eval::stability::stable_discs;
use crate::eval::Evaluator;
use crate::hash::table_key;
use crate::square::Square;

use super::busy::{child_key, enter, BusyTable};
use super::context::Context;
use super::leaf_table::LeafTable;
use super::order::{Candidate, Cursor, MAX_MOVES};
use super::probcut::endgame::{EndgameModel, Selectivity, PROBCUT_MIN_EMPTIES};
use super::probcut::model::MpcModel;
use super::pv_loop::{pv_moves, PvSearch};
use super::tree_record;
use super::tt::{Bound, Region, SOLVED_DEPTH};

mod ordering;
mod small;

pub use super::probcut::solver::{selective_passes, PassOutcome};

use small::{last1, odd_quadrants};

/// Highest number of empties searched without the transposition table. 5 rather than 6: at 6
/// empties the leaf table, mobility ordering and its cut-offs save more than they cost (FFO
/// #40-#49: 11% fewer nodes and 1% less time; 7 searched 30% more nodes).
pub const SHALLOW_MAX: u32 = 5;
/// Highest number of empties at which null-window nodes use the small [`LeafTable`] instead of
/// the main transposition table.
pub const LEAF_MAX: u32 = 9;
// Leaf-table bounds are exact, so ProbCut must never cut below them.
const _: () = assert!(LEAF_MAX < PROBCUT_MIN_EMPTIES);
/// Most empties at which the solver's nodes keep their table entries in the table's near
/// region ([`Region::Near`], the first [`super::tt::NEAR_MB`] MiB of a large table). FFO #55
/// (29 empties, a 1 GiB table): 4.3 G nodes against 5.0 G with one region, at more nodes a
/// second (docs/dev/PERFORMANCE.md, session 65).
pub const NEAR_MAX: u32 = 13;

/// The table region of the solver's entries for positions of `n` empties.
#[inline(always)]
pub(in crate::search) fn region(n: u32) -> Region {
    if n <= NEAR_MAX {
        Region::Near
    } else {
        Region::Main
    }
}

/// Lowest number of empties at which deep null-window nodes try enhanced transposition cut-offs.
const ETC_MIN: u32 = 12;
/// Squares tried first within a parity class at `4..=SHALLOW_MAX` empties: all but the C- and
/// X-squares (6% fewer nodes on FFO #40-#44 and #47 than parity order alone).
const SHALLOW_FIRST: u64 = !(C_SQUARES | X_SQUARES);
/// Scores lie in -64..=64; this is above any of them.
const INF: i32 = 65;
/// Fewest empties at which a node of a parallel search defers the children other threads are
/// searching (see [`super::busy`]); below, subtrees are too small to be worth it.
const DEFER_MIN_EMPTIES: u32 = 12;

/// The solver's state for one search, in a thread's [`Context`] (the evaluator for move
/// ordering far from the end and its state, the table, the stop condition and the node count,
/// which includes the shallow searches of ProbCut); compiled for the code path `C`
/// ([`crate::cpu`]).
pub struct Solver<'c, 'a, E: Evaluator, C: Cpu = Portable> {
    pub(in crate::search) cx: &'c mut Context<'a, E>,
    /// Evaluations made to order moves so far (not counted in `nodes`; for measurements).
    order_evals: Cell<u64>,
    /// `Some` in a selective pass (see [`super::probcut`]), `None` in an exact search.
    selectivity: Option<Selectivity>,
    /// The selective passes' predictions.
    pub(in crate::search) end_model: &'c EndgameModel,
    /// The midgame Multi-ProbCut model that makes ProbCut's shallow searches selective (at
    /// [`SHALLOW_SELECTIVITY`](super::probcut::solver::SHALLOW_SELECTIVITY)); `None`: full width.
    pub(in crate::search) shallow_mpc: Option<&'c MpcModel>,
    /// Empties at the root of the current search: ProbCut never cuts the root itself.
    root_empties: u32,
    /// Bounds for null-window nodes with up to [`LEAF_MAX`] empties.
    leaf: LeafTable,
    /// The marks shared with the other threads of a parallel search, if any.
    busy: Option<&'c BusyTable>,
    /// The key of the root position of the current search, and the best move the last search
    /// of it stored (read from here, not from the shared table, which other threads write).
    root_key: u64,
    root_best: Option<Square>,
    cpu: PhantomData<C>,
}

impl<'c, 'a, E: Evaluator> Solver<'c, 'a, E, Portable> {
    /// [`Solver::on_cpu`] with the portable code (for the tests).
    #[cfg(test)]
    pub fn new(cx: &'c mut Context<'a, E>, used: u64) -> Solver<'c, 'a, E, Portable> {
        Solver::on_cpu(cx, used)
    }
}

impl<'c, 'a, E: Evaluator, C: Cpu> Solver<'c, 'a, E, C> {
    /// A solver in the context `cx` (its evaluator orders moves, its table holds the deeper
    /// nodes, its stopper ends the search), its node count from zero, compiled for the code
    /// path `C`.
    ///
    /// `used` is the number of nodes already spent in this search (it counts toward a budget).
    pub(crate) fn on_cpu(cx: &'c mut Context<'a, E>, used: u64) -> Solver<'c, 'a, E, C> {
        cx.start(used);
        Solver {
            cx,
            order_evals: Cell::new(0),
            selectivity: None,
            end_model: super::probcut::solver::default_model(),
            shallow_mpc: None,
            root_empties: 0,
            leaf: LeafTable::new(),
            busy: None,
            root_key: 0,
            root_best: None,
            cpu: PhantomData,
        }
    }

    /// Makes this solver one thread of a parallel search sharing `busy` (see [`super::busy`]).
    pub(crate) fn set_busy(&mut self, busy: Option<&'c BusyTable>) {
        self.busy = busy;
    }

    /// Makes this a selective pass with ProbCut at `selectivity` (or an exact search again with
    /// `None`). A selective pass's scores are estimates, stored in the table as such.
    pub fn set_selectivity(&mut self, selectivity: Option<Selectivity>) {
        self.selectivity = selectivity;
    }

    /// Predicts with `model` in selective passes (the embedded evaluator's model unless set;
    /// the searcher sets its evaluator's with [`Solver::set_models`]). For the tests.
    #[cfg(test)]
    pub fn set_endgame_model(&mut self, model: &'c EndgameModel) {
        self.end_model = model;
    }

    /// The searcher's models: `model`'s endgame lines predict in selective passes, and its midgame lines make ProbCut's shallow searches
    /// selective themselves (Multi-ProbCut at [`SHALLOW_SELECTIVITY`](super::probcut::solver::SHALLOW_SELECTIVITY)), which makes
    /// the passes cheaper (see `probcut/solver.rs`).
    pub fn set_models(&mut self, model: &'c MpcModel) {
        self.end_model = model.endgame();
        self.shallow_mpc = Some(model);
    }

    /// Whether the search was stopped early (then every score it returned is meaningless).
    pub fn aborted(&self) -> bool {
        self.cx.stopped()
    }

    /// Nodes visited so far (including the shallow searches of ProbCut).
    pub fn nodes(&self) -> u64 {
        self.cx.nodes
    }

    /// Exact value of (`player`, `opponent`) within (`alpha`, `beta`): fail-soft, so a result
    /// `<= alpha` is an upper bound and `>= beta` a lower bound.
    pub fn solve(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        self.cx.reset(player, opponent);
        self.pvs(player, opponent, alpha, beta, empties, false)
    }

    /// The best move and exact value within (`alpha`, `beta`) at the root. `None` when the
    /// side to move must pass or the game is over.
    ///
    /// Every root search of the solver skips the root moves in its `excluded` (0 for none),
    /// which must leave a legal move: it then finds the best of the other moves (the next line
    /// of a multi-PV search).
    pub fn solve_root(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        excluded: u64,
    ) -> (i32, Option<Square>) {
        let empties = (!(player | opponent)).count_ones();
        self.root_key = table_key(player, opponent);
        self.root_best = None;
        self.cx.reset(player, opponent);
        let score = if excluded != 0 {
            self.root_empties = empties;
            self.root_excluding(player, opponent, alpha, beta, empties, excluded)
        } else {
            self.pvs(player, opponent, alpha, beta, empties, false)
        };
        let best = self.root_best;
        let legal = C::moves(player, opponent);
        let best = best.filter(|b| legal & b.bit() != 0);
        // Small positions are not stored; find the move by re-checking each one.
        let best = best.or_else(|| self.best_move_by_scan(player, opponent, score, excluded));
        (score, best)
    }

    /// The exact value and a best move at the root by a sequence of null-window searches that
    /// converge on the value from `guess` (MTD(f); Plaat, Schaeffer, Pijls and de Bruin, 1996).
    ///
    /// Exact scores are always even, so each null window tests "is the value at least `t`?"
    /// for an even `t`, and the fail-soft result tightens the bracket `lo..=hi` to the value.
    /// With a good guess this takes two or three passes, each much cheaper than a wide-window
    /// search: all nodes are null-window nodes, so nothing is ever re-searched within a pass,
    /// and each pass reuses the table's moves from the last.
    pub fn solve_root_mtd(
        &mut self,
        player: u64,
        opponent: u64,
        guess: i32,
        excluded: u64,
    ) -> (i32, Option<Square>) {
        self.solve_root_mtd_below(player, opponent, guess, 64, excluded)
    }

    /// [`Solver::solve_root_mtd`] when the value is known to be at most `upper` (the next line
    /// of a multi-PV solve, bounded by the line before): the search starts with that bracket.
    pub fn solve_root_mtd_below(
        &mut self,
        player: u64,
        opponent: u64,
        guess: i32,
        upper: i32,
        excluded: u64,
    ) -> (i32, Option<Square>) {
        let empties = (!(player | opponent)).count_ones();
        let (mut lo, mut hi) = (-64, upper.clamp(-64, 64));
        let mut g = (guess.clamp(-64, 64) / 2) * 2;
        let mut best = None;
        self.root_key = table_key(player, opponent);
        self.root_empties = empties;
        self.cx.reset(player, opponent);
        while lo < hi {
            let t = g.clamp(lo + 2, hi);
            self.root_best = None;
            let r = if excluded != 0 {
                self.root_excluding(player, opponent, t - 1, t, empties, excluded)
            } else {
                self.nws(player, opponent, t - 1, empties, false)
            };
            if self.aborted() {
                return (0, None);
            }
            log::debug!(
                "solve pass {:?}: value >= {t}? {r} ({} nodes, {} ordering evaluations)",
                self.selectivity.map(|s| s.t()),
                self.cx.nodes,
                self.order_evals.get()
            );
            // Exact scores are even; ProbCut's bounds (in a selective pass) may be odd.
            if r >= t {
                lo = r + (r & 1);
                best = self.root_best;
                g = lo;
            } else {
                hi = r - (r & 1);
                g = hi;
            }
        }
        let legal = C::moves(player, opponent);
        let best = best.filter(|b| legal & b.bit() != 0);
        let best = best.or_else(|| self.best_move_by_scan(player, opponent, lo, excluded));
        (lo, best)
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
        n: u32,
        excluded: u64,
    ) -> i32 {
        self.cx.nodes += 1;
        let mv = C::moves(p, o) & !excluded;
        let tt_move = self
            .cx
            .tt
            .probe_in(table_key(p, o), region(n))
            .and_then(|e| e.best);
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order(p, o, mv, tt_move, &mut list);
        let defer = n >= DEFER_MIN_EMPTIES;
        let Some((best, best_sq)) = pv_moves(self, p, o, alpha, beta, n, defer, &mut list, count)
        else {
            return 0;
        };
        self.root_best = best_sq;
        best
    }

    /// A move outside `excluded` achieving `score` (exactly, or at least a bound as good),
    /// found by null windows.
    fn best_move_by_scan(
        &mut self,
        player: u64,
        opponent: u64,
        score: i32,
        excluded: u64,
    ) -> Option<Square> {
        let empties = (!(player | opponent)).count_ones();
        for sq in squares(C::moves(player, opponent) & !excluded) {
            let f = C::flips(sq, player, opponent);
            let (p, o) = (opponent ^ f, player ^ f ^ sq.bit());
            self.cx.push(player, opponent, sq, f);
            let v = -self.pvs(p, o, -score - 1, -score + 1, empties - 1, false);
            self.cx.pop();
            if v >= score {
                return Some(sq);
            }
        }
        None
    }

    /// Principal-variation search over a general window.
    #[inline(always)]
    fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, passed: bool) -> i32 {
        C::call7(Self::pvs_body, self, p, o, alpha, beta, n, passed)
    }

    /// The body of [`Solver::pvs`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn pvs_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, passed: bool) -> i32 {
        if n <= SHALLOW_MAX {
            return self.small_window(p, o, alpha, beta, n);
        }
        self.cx.nodes += 1;
        if self.cx.check() {
            return 0;
        }
        let key = table_key(p, o);
        let entry = self.cx.tt.probe_in(key, region(n));
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = e.best;
            if e.is_solved() {
                let s = e.score as i32 / 100;
                if e.bound.cuts(s, alpha, beta) {
                    self.note_root_move(key, e.best);
                    return s;
                }
            }
        }
        let mv = C::moves(p, o);
        if mv == 0 {
            if passed {
                return final_score(p, o);
            }
            self.cx.pass();
            let v = -self.pvs(o, p, -beta, -alpha, n, true);
            self.cx.pop();
            return v;
        }
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order(p, o, mv, tt_move, &mut list);
        let defer = n >= DEFER_MIN_EMPTIES;
        let Some((best, best_sq)) = pv_moves(self, p, o, alpha, beta, n, defer, &mut list, count)
        else {
            return 0;
        };
        self.store(key, best, alpha, beta, n, best_sq);
        best
    }

    /// Alpha-beta over a general window at `n <= SHALLOW_MAX` empties (PV nodes near the end).
    #[inline(always)]
    fn small_window(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        C::call6(Self::small_window_body, self, p, o, alpha, beta, n)
    }

    /// The body of [`Solver::small_window`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn small_window_body(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        let empty = !(p | o);
        match n {
            0 => return final_score(p, o),
            1 => {
                self.cx.nodes += 1;
                return last1::<C>(p, o, Square::from_lowest_bit(empty));
            }
            2..=4 => return self.small_exact(p, o, alpha, beta, n, false),
            _ => {}
        }
        // 5..=SHALLOW_MAX: a plain window loop over the null-window machinery.
        self.cx.nodes += 1;
        let mv = C::moves(p, o);
        if mv == 0 {
            if C::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.small_window(o, p, -beta, -alpha, n);
        }
        let odd = odd_quadrants(empty);
        let mut best = -INF;
        for sq in squares(mv & odd).chain(squares(mv & !odd)) {
            let f = C::flips(sq, p, o);
            let v = -self.small_window(o ^ f, p ^ f ^ sq.bit(), -beta, -alpha, n - 1);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Null-window search: is the value above `alpha` (returns > alpha) or not (<= alpha)?
    #[inline(always)]
    fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32, passed: bool) -> i32 {
        C::call6(Self::nws_body, self, p, o, alpha, n, passed)
    }

    /// The body of [`Solver::nws`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn nws_body(&mut self, p: u64, o: u64, alpha: i32, n: u32, passed: bool) -> i32 {
        if n <= SHALLOW_MAX {
            return self.nws_shallow(p, o, alpha, n, passed);
        }
        self.cx.nodes += 1;
        if self.cx.check() {
            return 0;
        }
        if let Some(v) = stability_cutoff(p, o, alpha) {
            return v;
        }
        let near_leaves = n <= LEAF_MAX;
        let mut tt_move = None;
        let mut key = 0;
        if near_leaves {
            if let Some(e) = self.leaf.probe(p, o) {
                if e.lower > alpha {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                tt_move = e.best;
            }
        } else {
            key = table_key(p, o);
            if let Some(e) = self.cx.tt.probe_in(key, region(n)) {
                // Only the solver's own moves (an exact or a selective pass's) order it: a
                // midgame entry here comes from a search shallower than the node's empties
                // (ProbCut's probes in the selective passes, the presearch), and its move,
                // tried first without evaluating the others, orders worse than the solver's
                // own ordering searches (a third more nodes on 24 empties).
                if e.depth as u32 >= n {
                    tt_move = e.best;
                }
                // A selective pass may also take the estimates of selective passes at its own
                // level or a safer one (see `store`).
                let usable = e.is_solved()
                    || self
                        .selectivity
                        .is_some_and(|s| e.depth as u32 >= n + s.rank());
                if usable {
                    let s = e.score as i32 / 100;
                    if e.bound.cuts(s, alpha, alpha + 1) {
                        self.note_root_move(key, e.best);
                        return s;
                    }
                }
            }
        }
        if let Some(sel) = self.selectivity {
            if n >= PROBCUT_MIN_EMPTIES && n < self.root_empties {
                if let Some(v) = self.probcut(p, o, alpha, n, sel) {
                    return v;
                }
            }
        }
        let mv = C::moves(p, o);
        if mv == 0 {
            if passed {
                return final_score(p, o);
            }
            self.cx.pass();
            let v = -self.nws(o, p, -alpha - 1, n, true);
            self.cx.pop();
            return v;
        }
        let record = tree_record::wanted(n);
        if record {
            tree_record::enter(n, mv.count_ones(), self.cx.nodes);
        }
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order_by_mobility(p, o, mv, tt_move, &mut list);
        // The table's move goes first whatever the evaluation says, and usually ends a cut
        // node by itself: the other moves' evaluations wait until it has not.
        let tt_first = tt_move.is_some_and(|t| mv & t.bit() != 0);
        if !tt_first {
            self.add_eval_keys(p, o, &mut list[..count]);
        }
        if n >= ETC_MIN {
            if let Some((v, sq)) = self.etc(p, o, alpha, n, &list[..count]) {
                self.note_root_move(key, Some(sq));
                if record {
                    tree_record::leave(0, true, self.cx.nodes);
                }
                return v;
            }
        }
        let mut best = -INF;
        let mut best_sq = None;
        let busy = self.busy.filter(|_| n >= DEFER_MIN_EMPTIES);
        let mut cursor = Cursor::new(count);
        let mut searched = 0;
        while let Some(c) = cursor.next(&mut list, |c| {
            busy.is_some_and(|b| b.is_busy(child_key(p, o, c)))
        }) {
            if record {
                tree_record::next_child(searched);
            }
            searched += 1;
            let sq = Square::from_index_masked(c.sq as u32);
            let (cp, co) = (o ^ c.flips, p ^ c.flips ^ sq.bit());
            let child = busy.map(|b| enter(b, cp, co));
            self.cx.push(p, o, sq, c.flips);
            let v = -self.nws(cp, co, -alpha - 1, n - 1, false);
            self.cx.pop();
            if let (Some(b), Some(k)) = (busy, child) {
                b.leave(k);
            }
            if self.cx.stopped() {
                if record {
                    tree_record::leave(searched as u32, false, self.cx.nodes);
                }
                return 0;
            }
            if v > best {
                best = v;
                best_sq = Some(sq);
                if v > alpha {
                    break;
                }
            }
            if tt_first && cursor.first() {
                // The cursor put the table's move at the head of the list.
                self.add_eval_keys(p, o, &mut list[1..count]);
            }
        }
        if record {
            tree_record::leave(searched as u32, best > alpha, self.cx.nodes);
        }
        if near_leaves {
            self.leaf.store(p, o, alpha, best, best_sq);
        } else {
            self.store(key, best, alpha, alpha + 1, n, best_sq);
        }
        best
    }

    /// Null-window search without hashing, parity-ordered, for `5..=SHALLOW_MAX` empties.
    #[inline(always)]
    fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32, passed: bool) -> i32 {
        C::call6(Self::nws_shallow_body, self, p, o, alpha, n, passed)
    }

    /// The body of [`Solver::nws_shallow`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn nws_shallow_body(&mut self, p: u64, o: u64, alpha: i32, n: u32, passed: bool) -> i32 {
        if n <= 4 {
            return self.small_exact(p, o, alpha, alpha + 1, n, passed);
        }
        self.cx.nodes += 1;
        if let Some(v) = stability_cutoff(p, o, alpha) {
            return v;
        }
        let mv = C::moves(p, o);
        if mv == 0 {
            if passed {
                return final_score(p, o);
            }
            return -self.nws_shallow(o, p, -alpha - 1, n, true);
        }
        // Parity first (odd regions), then within each parity class every square but the C-
        // and X-squares next to the corners before those.
        let odd = odd_quadrants(!(p | o));
        let mut best = -INF;
        let ordered = squares(mv & odd & SHALLOW_FIRST)
            .chain(squares(mv & odd & !SHALLOW_FIRST))
            .chain(squares(mv & !odd & SHALLOW_FIRST))
            .chain(squares(mv & !odd & !SHALLOW_FIRST));
        for sq in ordered {
            let f = C::flips(sq, p, o);
            let v = -self.nws_shallow(o ^ f, p ^ f ^ sq.bit(), -alpha - 1, n - 1, false);
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Enhanced transposition cut-off: if the table already proves some child's value is
    /// above `alpha` from this side's view, return it without searching.
    #[inline(always)]
    fn etc(&self, p: u64, o: u64, alpha: i32, n: u32, list: &[Candidate]) -> Option<(i32, Square)> {
        for c in list {
            let bit = 1u64 << c.sq;
            let child = table_key(o ^ c.flips, p ^ c.flips ^ bit);
            let Some(e) = self.cx.tt.probe_in(child, region(n - 1)) else {
                continue;
            };
            if e.is_solved() && matches!(e.bound, Bound::Upper | Bound::Exact) {
                let v = -(e.score as i32 / 100);
                if v > alpha {
                    return Some((v, Square::from_index_masked(c.sq as u32)));
                }
            }
        }
        None
    }

    /// Keeps `sq` as the root's best move if `key` is the root's: the move behind the result
    /// of the root node just decided (stored, or cut by the table or ETC).
    ///
    /// The root cannot recur below itself (every move adds a disc, and a pass swaps the sides,
    /// which changes the key), so a node with the root's key is the root.
    #[inline(always)]
    fn note_root_move(&mut self, key: u64, sq: Option<Square>) {
        if key == self.root_key {
            self.root_best = sq;
        }
    }

    #[inline(always)]
    fn store(&mut self, key: u64, best: i32, alpha: i32, beta: i32, n: u32, sq: Option<Square>) {
        self.note_root_move(key, sq);
        let bound = Bound::from_window(best, alpha, beta);
        // A selective pass's result is only an estimate: stored as a search of depth `n` plus
        // its level's rank, it gives its move to the exact pass but no cut-off, and a cut-off
        // only to passes at its level or a less safe one (a 98% pass must not take a 73%
        // pass's bounds, or it would be no safer than that pass).
        let depth = if let Some(s) = self.selectivity {
            (n + s.rank()) as u8
        } else {
            SOLVED_DEPTH + n as u8
        };
        self.cx
            .tt
            .store_in(key, region(n), (best * 100) as i16, bound, depth, sq);
    }
}

impl<'c, 'a, E: Evaluator, C: Cpu> PvSearch<'c> for Solver<'c, 'a, E, C> {
    const FLOOR: i32 = -INF;

    #[inline(always)]
    fn busy(&self) -> Option<&'c BusyTable> {
        self.busy
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
    fn full(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        self.pvs(p, o, alpha, beta, n, false)
    }

    #[inline(always)]
    fn null(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nws(p, o, alpha, n, false)
    }
}

/// The stability cut-off: the opponent's stable discs stay theirs, so the side to move
/// scores at most `64 - 2 * stable`. Returns that bound when it proves the value `<= alpha`.
///
/// The opponent's disc count bounds their stable discs, which rules most nodes out before
/// any stability is computed.
#[inline(always)]
fn stability_cutoff(p: u64, o: u64, alpha: i32) -> Option<i32> {
    if 64 - 2 * (o.count_ones() as i32) > alpha {
        return None;
    }
    let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (upper <= alpha).then_some(upper)
}

#[cfg(test)]
pub(super) mod tests;
