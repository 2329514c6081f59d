//! Search: iterative deepening PVS for the midgame and an exact solver for the endgame.
//!
//! Search never prints. It reports every completed iteration through an [`Observer`], and the
//! caller (protocol, command line, match driver) decides what to show.
//!
//! A search runs on [`Searcher::set_threads`] threads (1 by default): the calling thread runs
//! the search described here, and helper threads share its table and keep out of each
//! other's way with ABDADA's deferral (see `parallel.rs` and `docs/PARALLEL.md`).
//!
//! The API is [`Searcher`] ([`Searcher::search`] with [`Limits`] and an [`Observer`],
//! [`Searcher::solve`]), its results ([`SearchResult`], [`Value`]), the forward-pruning levels
//! ([`Selectivity`]), the Multi-ProbCut model file ([`probcut`]), the time manager ([`time`]) and
//! the table sizes ([`tt`]). The searchers themselves (the endgame solver, move ordering, the
//! leaf table, ProbCut) are private; `midgame`, `Stopper` and the table type stay reachable,
//! hidden from the docs, for the engine's own measurement tools (`tests/mpc.rs`,
//! `examples/probcut_sigma.rs`, the trainer's calibration) and are not a stable interface.
//!
//! ```
//! use othello_core::search::{Limits, SearchResult, Searcher};
//! use othello_core::eval::HandEval;
//! use othello_core::Board;
//!
//! let mut searcher = Searcher::new(HandEval::new(), 1);
//! let mut iterations: Vec<SearchResult> = Vec::new(); // an observer that keeps every iteration
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let result = searcher.search(&Board::start(), &limits, &mut iterations);
//! assert_eq!(iterations.last().map(|r| r.best), Some(result.best));
//! ```

mod busy;
mod context;
mod endgame;
mod every_move;
mod headroom;
mod leaf_table;
pub use leaf_table::{set_table_bits as set_leaf_table_bits, table_bits as leaf_table_bits};
#[doc(hidden)]
pub mod midgame;
mod multipv;
mod order;
mod parallel;
pub mod probcut;
mod pv_loop;
mod result;
pub mod selectivity;
mod solve;
mod stopper;
pub mod time;
mod transition;
pub mod tree_record;
pub mod tt;

use crate::time::{Duration, Instant};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::board::{Board, Move};
use crate::cpu::{Cpu, CpuPath, CpuPathError};
use crate::eval::Evaluator;
use crate::hash::table_key;
use crate::square::Square;

pub use context::Context;
use endgame::Solver;
use midgame::{Midgame, INF};
use multipv::RootOptions;
pub use parallel::{check_threads, start_all, ThreadStartError};
use parallel::{Crew, Job, Task};
use probcut::model::MpcModel;
pub use result::{Observer, SearchResult, Value};
pub use selectivity::{Selectivity, SelectivitySetting};
use solve::solve_sequence;
pub use solve::{PRESEARCH_GAP, PRESEARCH_MIN_EMPTIES};
#[doc(hidden)]
pub use stopper::{Stopper, StopperMark, CHECK_INTERVAL_NODES};
pub use time::{Budget, Limits, SolveKind};
use tt::TranspositionTable;

/// The engine's searcher: evaluator, transposition table and stop flag, reused across
/// searches (the table keeps what earlier searches learned).
pub struct Searcher<E: Evaluator> {
    eval: E,
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    /// Endgame solver speed of one thread assumed by the time manager, updated from
    /// measurements (the main thread's own nodes, also in a parallel search).
    solver_nps: f64,
    /// Multi-ProbCut model of the midgame search.
    mpc: MpcModel,
    /// Forward pruning of midgame iterations (`None`: full width).
    selectivity: Option<Selectivity>,
    /// The code path the searches run on.
    cpu: CpuPath,
    /// Search threads (1: the deterministic single-threaded search).
    threads: usize,
}

/// The Multi-ProbCut model of `eval`: its own if it has one that parses (a bad one is logged
/// and replaced), else the embedded model.
fn model_for<E: Evaluator>(eval: &E) -> MpcModel {
    match eval.mpc_model_text().map(MpcModel::parse) {
        Some(Ok(model)) => model,
        Some(Err(e)) => {
            log::warn!(
                "the evaluator's Multi-ProbCut model is unusable ({e}); using the embedded one"
            );
            MpcModel::default()
        }
        None => MpcModel::default(),
    }
}

/// The midgame selectivity a new [`Searcher`] uses: 58%, the best level at 2 s a game for
/// both the network and pattern-v6 (docs/dev/NNUE.md, session 57).
pub const DEFAULT_SELECTIVITY: Option<Selectivity> = Some(Selectivity::P58);

impl<E: Evaluator> Searcher<E> {
    /// A searcher with evaluator `eval` and a table of `hash_mb` MiB.
    ///
    /// # Panics
    /// If the table cannot be allocated; a size from a user goes through
    /// [`Searcher::try_new`].
    pub fn new(eval: E, hash_mb: usize) -> Searcher<E> {
        Self::with_table(eval, TranspositionTable::new(hash_mb))
    }

    /// A searcher with evaluator `eval` and a table of `hash_mb` MiB, or an error if the table
    /// cannot be allocated (`--hash 65536` on a smaller machine).
    pub fn try_new(eval: E, hash_mb: usize) -> Result<Searcher<E>, tt::TableAllocError> {
        Ok(Self::with_table(
            eval,
            TranspositionTable::try_new(hash_mb)?,
        ))
    }

    fn with_table(eval: E, tt: TranspositionTable) -> Searcher<E> {
        Searcher {
            mpc: model_for(&eval),
            eval,
            tt,
            stop: Arc::new(AtomicBool::new(false)),
            solver_nps: 15e6,
            selectivity: DEFAULT_SELECTIVITY,
            cpu: CpuPath::current(),
            threads: 1,
        }
    }

    /// Search threads (1 unless set).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the system can start this searcher's threads now (see [`check_threads`]): a
    /// command asks before its work, since a search that cannot have them runs on one.
    pub fn check_threads(&self) -> Result<(), ThreadStartError> {
        check_threads(self.threads)
    }

    /// Runs each search on `threads` threads sharing the table (see [`MAX_THREADS`]; 0 counts
    /// as 1). One thread is the deterministic single-threaded search; with more, exact solves
    /// keep their scores but the node counts, midgame values and the choice among equal moves
    /// may vary from run to run.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// The code path the searches run on ([`CpuPath::current`] unless set).
    pub fn cpu_path(&self) -> CpuPath {
        self.cpu
    }

    /// Runs the searches on `path` (for measurements and tests); refused, with no change, when
    /// this processor lacks one of its instructions. Results never depend on the path.
    pub fn set_cpu_path(&mut self, path: CpuPath) -> Result<(), CpuPathError> {
        if !path.supported() {
            return Err(CpuPathError::Unsupported(path));
        }
        self.cpu = path;
        Ok(())
    }

    /// Sets the midgame forward pruning: a Multi-ProbCut level, or `None` for full width.
    pub fn set_selectivity(&mut self, selectivity: Option<Selectivity>) {
        self.selectivity = selectivity;
    }

    /// The midgame forward pruning.
    pub fn selectivity(&self) -> Option<Selectivity> {
        self.selectivity
    }

    /// Replaces the Multi-ProbCut model (it belongs with the evaluator's weights).
    pub fn set_mpc_model(&mut self, model: MpcModel) {
        self.mpc = model;
    }

    /// The flag that stops a running search when set. The caller clears it before a search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The table's size in MiB (rounded down).
    pub fn hash_mb(&self) -> usize {
        self.tt.size_bytes() >> 20
    }

    /// Reallocates the table at `mb` MiB (its contents are lost).
    ///
    /// # Panics
    /// If the memory cannot be allocated; see [`Searcher::try_set_hash_mb`].
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    /// Reallocates the table at `mb` MiB, keeping the old table if the memory is not there.
    pub fn try_set_hash_mb(&mut self, mb: usize) -> Result<(), tt::TableAllocError> {
        // Free the old table first, so the two need not fit at once; restore a small one on
        // failure rather than keep nothing.
        let old_mb = self.tt.size_bytes() >> 20;
        self.tt = TranspositionTable::new(1);
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = tt;
                Ok(())
            }
            Err(e) => {
                self.tt = TranspositionTable::try_new(old_mb)
                    .unwrap_or_else(|_| TranspositionTable::new(1));
                Err(e)
            }
        }
    }

    /// Forgets everything learned (table contents).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Replaces the evaluator and forgets the table (its scores came from the old one).
    pub fn set_evaluator(&mut self, eval: E) {
        self.mpc = model_for(&eval);
        self.eval = eval;
        self.tt.clear();
    }

    /// Searches `board` within `limits`, reporting each completed iteration to `observer`.
    ///
    /// Iterative deepening: each midgame iteration searches the root with an aspiration window
    /// around the previous score (widening on failure) and the table's move first. As soon as
    /// the time manager expects it to fit, a WLD and then an exact solve replace the midgame
    /// iterations. On a hard stop the last completed iteration's move is returned.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        observer: &mut impl Observer,
    ) -> SearchResult {
        self.search_with(board, limits, RootOptions::default(), observer)
    }

    /// [`Searcher::search_with`] on the code path `C`: the main thread's search, with helpers.
    fn search_on<C: Cpu>(
        &mut self,
        board: &Board,
        limits: &Limits,
        root: RootOptions,
        observer: &mut impl Observer,
    ) -> SearchResult {
        if root.excluded == 0 {
            // A multi-PV search's later lines keep the first line's generation.
            self.tt.new_search();
        }
        let mut nps = self.solver_nps;
        let job = self.job(board, root.excluded);
        let (mut result, helper_nodes) = parallel::run::<E, C, _>(self.threads, &job, |crew| {
            self.search_main::<C>(board, limits, root, observer, crew, &mut nps)
        });
        self.solver_nps = nps;
        result.nodes += helper_nodes;
        result
    }

    /// The shared state of a parallel search of `board` that skips the root moves in
    /// `excluded`.
    fn job(&self, board: &Board, excluded: u64) -> Job<'_, E> {
        Job {
            eval: &self.eval,
            tt: &self.tt,
            mpc: &self.mpc,
            board: *board,
            excluded,
        }
    }

    /// The main thread of [`Searcher::search_with`]; `crew` is `None` without helpers. Reports
    /// count only this thread's nodes plus those the helpers have reported so far.
    fn search_main<C: Cpu>(
        &self,
        board: &Board,
        limits: &Limits,
        root: RootOptions,
        observer: &mut impl Observer,
        crew: Option<&Crew>,
        solver_nps: &mut f64,
    ) -> SearchResult {
        let start = Instant::now();
        let empties = board.empty_count();
        let budget = Budget::new(limits, empties);
        let mut stopper = Stopper::new(
            Some(self.stop.clone()),
            budget.hard.map(|h| start + h),
            budget.nodes,
        );
        let (p, o) = (board.player(), board.opponent());
        let legal = board.moves() & !root.excluded;
        let first = Square::from_index(legal.trailing_zeros() as usize);
        let mut result = SearchResult {
            best: first.map_or(Move::Pass, Move::Place),
            value: Value::Heuristic(self.eval.evaluate(board)),
            depth: 0,
            selectivity: None,
            pv: Vec::new(),
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if legal == 0 {
            // Pass or game over: nothing to choose; report the position's value.
            if board.is_game_over() {
                result.value = Value::Exact(board.final_score());
            }
            result.pv = vec![Move::Pass];
            return result;
        }
        log::trace!("budget at {empties} empties: {budget:?}");
        let mut nodes = 0u64;
        let mut last_iteration = Duration::ZERO;
        let mut prev_score = None;
        // Set when the first probable pass gave up: the midgame goes on to the hard deadline.
        let mut resumed = false;
        for depth in 1..=budget.max_depth.max(1) {
            let elapsed = start.elapsed();
            let speed = *solver_nps * parallel_speedup(self.threads);
            let kind = budget.solve_kind(empties, speed, elapsed, depth);
            let probable = kind == SolveKind::None
                && !resumed
                && budget.probable_fits(empties, speed, elapsed, depth);
            if (kind == SolveKind::Wld && !resumed) || probable {
                // A probable solve fits: the selective passes to the end of the game, each a
                // move to play, then the exact or WLD solve if it still fits. The first pass
                // (when the midgame chose it) gives up at its own deadline, and then the
                // midgame goes on.
                let first_deadline = probable
                    .then(|| {
                        let expected = Budget::expected_probable(empties, speed);
                        budget.first_pass_deadline(elapsed, expected, last_iteration)
                    })
                    .flatten()
                    .map(|d| start + d);
                let completed = self.transition_phase::<C>(
                    board,
                    prev_score,
                    &budget,
                    None,
                    first_deadline,
                    Phase {
                        stopper: &mut stopper,
                        nodes: &mut nodes,
                        start,
                        crew,
                        solver_nps,
                        root,
                    },
                    &mut result,
                    observer,
                );
                if completed || first_deadline.is_none() || stopper.expired() {
                    break;
                }
                log::debug!(
                    "the first probable pass at {empties} empties gave up after {:.3} s; \
                     back to the midgame at depth {depth}",
                    start.elapsed().as_secs_f64()
                );
                resumed = true;
            } else if kind != SolveKind::None {
                self.solve_phase::<C>(
                    board,
                    kind == SolveKind::Wld,
                    prev_score,
                    Phase {
                        stopper: &mut stopper,
                        nodes: &mut nodes,
                        start,
                        crew,
                        solver_nps,
                        root,
                    },
                    &mut result,
                    observer,
                );
                break;
            }
            let elapsed = start.elapsed();
            let may_start = if resumed || budget.before_planned_solve(empties, depth) {
                budget.should_resume_iteration(elapsed, last_iteration)
            } else {
                budget.should_start_iteration(elapsed, last_iteration)
            };
            if depth > 1 && !may_start {
                break;
            }
            let t0 = Instant::now();
            if let Some(crew) = crew {
                crew.post(Task::Midgame {
                    depth,
                    guess: prev_score,
                    selectivity: self.selectivity,
                });
            }
            let mut cx = Context::new(&self.eval, &self.tt, &mut stopper);
            let mut search = Midgame::<E, C>::on_cpu(&mut cx, nodes);
            search.set_selectivity(&self.mpc, self.selectivity);
            search.set_busy(crew.map(|c| &c.busy));
            let (score, best) = aspiration(&mut search, p, o, depth, prev_score, root.excluded);
            nodes += search.nodes();
            if search.aborted() {
                break;
            }
            last_iteration = t0.elapsed();
            prev_score = Some(score);
            let best = best.map_or(result.best, Move::Place);
            result = SearchResult {
                best,
                value: Value::Heuristic(score),
                depth,
                selectivity: self.selectivity,
                pv: self.principal_variation::<C>(board, best, false),
                nodes: nodes + crew.map_or(0, Crew::helper_nodes),
                elapsed: start.elapsed(),
            };
            log::trace!(
                "midgame depth {depth} done at {:.3} s ({:.3} s)",
                start.elapsed().as_secs_f64(),
                last_iteration.as_secs_f64()
            );
            observer.on_iteration(&result);
        }
        result.nodes = nodes;
        result.elapsed = start.elapsed();
        result
    }

    /// Runs the WLD or exact solve, updating `result` only with a completed solve.
    fn solve_phase<C: Cpu>(
        &self,
        board: &Board,
        wld: bool,
        guess: Option<i32>,
        phase: Phase<'_, '_>,
        result: &mut SearchResult,
        observer: &mut impl Observer,
    ) {
        let (p, o) = (board.player(), board.opponent());
        let empties = board.empty_count();
        let t0 = Instant::now();
        let RootOptions {
            excluded,
            line_bound,
        } = phase.root;
        if let Some(crew) = phase.crew {
            crew.post(Task::Solve {
                wld,
                guess,
                upper: line_bound,
            });
        }
        let mut cx = Context::new(&self.eval, &self.tt, phase.stopper);
        let mut solver = Solver::<E, C>::on_cpu(&mut cx, *phase.nodes);
        solver.set_busy(phase.crew.map(|c| &c.busy));
        solver.set_models(&self.mpc);
        let (score, best) = match line_bound {
            // A later line of a multi-PV solve: the table is full of this position's work, and
            // the line before bounds the value from above; straight to MTD(f) from that bound
            // (it also ends the search at once when another move ties the line before). A
            // midgame guess instead cost 11% more nodes on hard-20 #1-#20: the fail-soft
            // bounds of each failed pass, read back from the table, guide better.
            Some(upper) if !wld => solver.solve_root_mtd_below(p, o, upper, upper, excluded),
            _ => {
                // Each selective pass is an iteration for the observer (`24@73%`).
                let base = *phase.nodes;
                let mut report = |sel: Selectivity, v: i32, sq: Option<Square>, n: u64| {
                    let best = sq.map_or(result.best, Move::Place);
                    observer.on_iteration(&SearchResult {
                        best,
                        value: Value::Probable(v),
                        depth: empties,
                        selectivity: Some(sel),
                        pv: vec![best],
                        nodes: base + n,
                        elapsed: phase.start.elapsed(),
                    });
                };
                solve_sequence(&mut solver, p, o, wld, guess, excluded, &mut report)
            }
        };
        let solver_nodes = solver.nodes();
        *phase.nodes += solver_nodes;
        let secs = t0.elapsed().as_secs_f64();
        if solver_nodes > 1_000_000 && secs > 0.0 {
            *phase.solver_nps = solver_nodes as f64 / secs;
        }
        if solver.aborted() {
            return;
        }
        let best = best.map_or(result.best, Move::Place);
        let value = if wld {
            Value::Wld(score.signum())
        } else {
            Value::Exact(score)
        };
        *result = SearchResult {
            best,
            value,
            depth: empties,
            selectivity: None,
            pv: self.principal_variation::<C>(board, best, true),
            nodes: *phase.nodes + phase.crew.map_or(0, Crew::helper_nodes),
            elapsed: phase.start.elapsed(),
        };
        observer.on_iteration(result);
    }

    /// The principal variation: `best`, then the table's best moves (with passes) while they
    /// stay legal, up to the end of the game or a repetition-free 60 plies.
    ///
    /// After a solve (`solved`), the line is completed to the end of the game: the solver
    /// keeps no main-table entries below [`endgame::LEAF_MAX`] + 1 empties, so from there each
    /// move is found by solving the position again (a few thousand nodes at most).
    fn principal_variation<C: Cpu>(&self, board: &Board, best: Move, solved: bool) -> Vec<Move> {
        let mut pv = vec![best];
        let Ok(mut b) = board.try_play_move(best) else {
            return pv;
        };
        // The solves near the end share one context: its evaluator state is reset at each
        // root, and it takes no part in the solver's ordering there.
        let mut stopper = Stopper::unlimited();
        let mut solver_cx = solved.then(|| Context::new(&self.eval, &self.tt, &mut stopper));
        while pv.len() < 60 && !b.is_game_over() {
            if b.moves() == 0 {
                pv.push(Move::Pass);
                b = b.pass();
                continue;
            }
            let found = if let Some(cx) = solver_cx
                .as_mut()
                .filter(|_| b.empty_count() <= endgame::LEAF_MAX)
            {
                Self::solved_best_move::<C>(cx, &b)
            } else {
                // A solve keeps its entries near the end in the table's near region; the
                // midgame's (the presearch's) are in the main one.
                let key = table_key(b.player(), b.opponent());
                let near = solved && endgame::region(b.empty_count()) == tt::Region::Near;
                near.then(|| self.tt.probe_in(key, tt::Region::Near))
                    .flatten()
                    .or_else(|| self.tt.probe(key))
                    .and_then(|e| e.best)
            };
            let Some(sq) = found else {
                break;
            };
            let Ok(next) = b.try_play(sq) else { break };
            pv.push(Move::Place(sq));
            b = next;
        }
        pv
    }

    /// A best move of `board` (which has a legal move) by an exact solve in `cx`, for short
    /// endgames. Each solve has a leaf table of its own, empty.
    fn solved_best_move<C: Cpu>(cx: &mut Context<'_, E>, board: &Board) -> Option<Square> {
        let mut solver = Solver::<E, C>::on_cpu(cx, 0);
        solver
            .solve_root(board.player(), board.opponent(), -64, 64, 0)
            .1
    }
}

/// Root search with an aspiration window around `prev` (centi-discs), widening on failure,
/// skipping the root moves in `excluded` (0 for none).
fn aspiration<E: Evaluator, C: Cpu>(
    search: &mut Midgame<'_, '_, E, C>,
    p: u64,
    o: u64,
    depth: u32,
    prev: Option<i32>,
    excluded: u64,
) -> (i32, Option<Square>) {
    let Some(prev) = prev else {
        return search.root(p, o, -INF, INF, depth, excluded);
    };
    let mut delta = 200;
    let (mut alpha, mut beta) = (prev - delta, prev + delta);
    loop {
        let (score, best) = search.root(p, o, alpha, beta, depth, excluded);
        if search.aborted() || (score > alpha && score < beta) {
            return (score, best);
        }
        delta *= 3;
        if delta > 3200 {
            (alpha, beta) = (-INF, INF);
        } else if score <= alpha {
            alpha = (score - delta).max(-INF);
        } else {
            beta = (score + delta).min(INF);
        }
        if alpha == -INF && beta == INF {
            return search.root(p, o, alpha, beta, depth, excluded);
        }
    }
}

/// The main thread's state through a solve phase.
struct Phase<'s, 'c> {
    stopper: &'s mut Stopper,
    /// The main thread's nodes so far.
    nodes: &'s mut u64,
    start: Instant,
    crew: Option<&'c Crew>,
    /// The solver speed of one thread the time manager assumes (updated from this solve).
    solver_nps: &'s mut f64,
    /// What the search leaves out at the root.
    root: RootOptions,
}

impl Phase<'_, '_> {
    /// The solver speed assumed for a search on `threads` threads, in nodes per second.
    fn speed(&self, threads: usize) -> f64 {
        *self.solver_nps * parallel_speedup(threads)
    }

    /// Updates the assumed solver speed from a pass of `nodes` nodes (on the main thread) that
    /// took `time`, if it was long enough to tell.
    fn measure(&mut self, nodes: u64, time: Duration) {
        let secs = time.as_secs_f64();
        if nodes > 1_000_000 && secs > 0.0 {
            *self.solver_nps = nodes as f64 / secs;
        }
    }
}

/// How many times faster than one thread the time manager assumes a solve on `threads`
/// threads to be: 1.8 on two (FFO #40-#49 measured 2.1, docs/PARALLEL.md), with the gain of
/// each further thread assumed to fall off, as a shared-table search's does.
fn parallel_speedup(threads: usize) -> f64 {
    if threads <= 1 {
        return 1.0;
    }
    1.0 + 0.8 * (threads as f64 - 1.0).powf(0.8)
}

/// The processor's hardware threads, at most [`MAX_THREADS`] (1 if unknown): the default
/// thread count of the NBoard engine, `solve` and `search`.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Most search threads a [`Searcher`] runs (the `--threads` options and NBoard's
/// `set threads` accept up to this).
pub const MAX_THREADS: usize = 256;

#[cfg(test)]
mod tests;
