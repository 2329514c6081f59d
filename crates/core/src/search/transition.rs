//! The endgame transition: probable solves in play, between the midgame and the exact solve.
//!
//! From about 30 empties, a timed search stops deepening the midgame as soon as a search to the
//! *end of the game* with endgame ProbCut fits in the move's time: the selective passes that
//! otherwise only prepare an exact solve ([`super::probcut`]) run one after another at rising
//! confidence, 73% → 87% → 95% → 98%, and each completed pass is a usable answer, reported as
//! a [`Value::Probable`] score at depth `empties@level%` (Edax's notation for a probable
//! solve). Then, if the clock allows, the exact solve (or a win/loss/draw solve) ends the
//! sequence. Strong engines (Edax, NTest) play the last 20 to 30 empties this way: a probable
//! solve at 73% already beats a deep midgame search there, because it sees every line to the
//! end of the game with exact scores at its leaves.
//!
//! Each pass starts only if it is expected to end within the move's target (its cost
//! extrapolated from the pass before it by [`PASS_GROWTH`], the first one from the typical
//! cost [`super::time::Budget::typical_probable_nodes`]); a later pass cut by the hard
//! deadline is lost, and the move is the last completed pass's. The first pass of a timed
//! search has a deadline of its own ([`super::time::Budget::first_pass_deadline`]): a few
//! times its expected cost, and early enough for more midgame. A position whose pass costs
//! far more than is typical then goes back to deepening the midgame instead of playing
//! from the shallow iteration before the pass.
//!
//! The main thread runs the passes; with helper threads, each pass is posted to them as a
//! task, as a midgame iteration is.

use crate::time::{Duration, Instant};

use crate::board::{Board, Move};
use crate::cpu::{with_cpu, Cpu};
use crate::eval::Evaluator;

use super::context::Context;
use super::endgame::Solver;
use super::multipv::RootOptions;
use super::parallel::{self, Crew, Task};
use super::probcut::endgame::LEVELS;
use super::time::{Budget, SolveKind};
use super::{Limits, Observer, Phase, SearchResult, Searcher, Selectivity, Stopper, Value};

/// The expected cost of a pass at each level relative to the pass before it (the pass at
/// index `i` costs about `PASS_GROWTH[i]` times the pass at `i - 1`; the last entry is the
/// exact solve after the 98% pass).
pub const PASS_GROWTH: [f64; 5] = [1.0, 1.5, 2.5, 2.5, 8.0];

impl<E: Evaluator> Searcher<E> {
    /// Solves `board` probably, at every selectivity level up to `until` (`None`: all of them,
    /// then exactly), each level reported to `observer` as it completes, with no limit but the
    /// stop flag; the result is the last level's. What a timed search runs from about 30
    /// empties (see the notes of `search/transition.rs`), for analysis at a chosen confidence.
    pub fn solve_probable(
        &mut self,
        board: &Board,
        until: Option<Selectivity>,
        observer: &mut impl Observer,
    ) -> SearchResult {
        with_cpu!(self.cpu, C => self.solve_probable_on::<C>(board, until, observer))
    }

    /// [`Searcher::solve_probable`] on the code path `C`.
    fn solve_probable_on<C: Cpu>(
        &mut self,
        board: &Board,
        until: Option<Selectivity>,
        observer: &mut impl Observer,
    ) -> SearchResult {
        if board.moves() == 0 {
            return self.solve_on::<C>(board, false, RootOptions::default(), observer);
        }
        let start = Instant::now();
        self.tt.new_search();
        let mut stopper = Stopper::new(Some(self.stop.clone()), None, None);
        let mut nodes = 0;
        let mut nps = self.solver_nps;
        let budget = Budget::new(&Limits::default(), board.empty_count());
        let mut result = SearchResult {
            best: Move::Place(board.legal_moves().next().expect("a legal move")),
            value: Value::Heuristic(self.eval.evaluate(board)),
            depth: 0,
            selectivity: None,
            pv: Vec::new(),
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let root = RootOptions::default();
        let job = self.job(board, root.excluded);
        let ((), helper_nodes) = parallel::run::<E, C, _>(self.threads, &job, |crew| {
            let guess = self.presearch::<C>(
                board,
                root.excluded,
                &mut stopper,
                &mut nodes,
                crew,
                &mut (),
            );
            let phase = Phase {
                stopper: &mut stopper,
                nodes: &mut nodes,
                start,
                crew,
                solver_nps: &mut nps,
                root,
            };
            self.transition_phase::<C>(
                board,
                guess,
                &budget,
                until,
                None,
                phase,
                &mut result,
                observer,
            );
        });
        self.solver_nps = nps;
        result.nodes = nodes + helper_nodes;
        result.elapsed = start.elapsed();
        result
    }

    /// The probable solves of `board` at rising selectivity up to `until` (`None`: all), each
    /// reported as it completes, then (without `until`) the exact or WLD solve if it still
    /// fits; `guess` is the last midgame score in centi-discs. `result` holds the midgame's
    /// answer on entry and the last completed pass's on return.
    ///
    /// With `first_deadline` (an instant), the first pass gives up there even if the search
    /// may go on: the caller then goes back to the midgame. Returns whether a pass completed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn transition_phase<C: Cpu>(
        &self,
        board: &Board,
        guess: Option<i32>,
        budget: &Budget,
        until: Option<Selectivity>,
        first_deadline: Option<Instant>,
        mut phase: Phase<'_, '_>,
        result: &mut SearchResult,
        observer: &mut impl Observer,
    ) -> bool {
        let empties = board.empty_count();
        // Exact scores are even numbers of discs; the midgame guess is in centi-discs.
        let mut guess = guess.map_or(0, |g| (g + 100 * g.signum()) / 200 * 2);
        let mut last_pass: Option<Duration> = None;
        for (i, &sel) in LEVELS.iter().enumerate() {
            let elapsed = phase.start.elapsed();
            let expected = match last_pass {
                Some(t) => t.mul_f64(PASS_GROWTH[i]),
                None => Budget::expected_probable(empties, phase.speed(self.threads)),
            };
            if last_pass.is_some() && !budget.should_start_pass(elapsed, expected) {
                return true;
            }
            let t0 = Instant::now();
            let outcome = match first_deadline.filter(|_| last_pass.is_none()) {
                Some(deadline) => {
                    // The first pass under its own, earlier deadline.
                    let mut own = phase.stopper.with_deadline(deadline);
                    std::mem::swap(phase.stopper, &mut own);
                    let outcome = self.end_pass::<C>(board, Some(sel), false, guess, &mut phase);
                    std::mem::swap(phase.stopper, &mut own);
                    outcome
                }
                None => self.end_pass::<C>(board, Some(sel), false, guess, &mut phase),
            };
            let Some((score, best)) = outcome else {
                return last_pass.is_some();
            };
            last_pass = Some(t0.elapsed());
            guess = score;
            self.report_end_pass::<C>(
                board,
                Value::Probable(score),
                Some(sel),
                best,
                &phase,
                result,
            );
            observer.on_iteration(result);
            if until == Some(sel) {
                return true;
            }
        }
        // The exact solve, if it is expected to fit, else a WLD solve: after the 98% pass the
        // table holds most of what they need.
        let elapsed = phase.start.elapsed();
        let speed = phase.speed(self.threads);
        let extrapolated = last_pass.map(|t| t.mul_f64(PASS_GROWTH[LEVELS.len()]));
        let kind = match budget.solve_fits(empties, speed, elapsed) {
            SolveKind::None | SolveKind::Wld
                if extrapolated.is_some_and(|t| budget.should_start_pass(elapsed, t)) =>
            {
                SolveKind::Exact
            }
            kind => kind,
        };
        let wld = match kind {
            SolveKind::Exact => false,
            SolveKind::Wld => true,
            SolveKind::None => return true,
        };
        let t0 = Instant::now();
        let outcome = self.end_pass::<C>(board, None, wld, guess, &mut phase);
        let secs = t0.elapsed().as_secs_f64();
        let Some((score, best)) = outcome else {
            return true;
        };
        log::debug!(
            "{} solve after the probable passes: {secs:.3} s",
            if wld { "WLD" } else { "exact" }
        );
        let value = if wld {
            Value::Wld(score.signum())
        } else {
            Value::Exact(score)
        };
        self.report_end_pass::<C>(board, value, None, best, &phase, result);
        observer.on_iteration(result);
        true
    }

    /// One pass to the end of the game: ProbCut at `selectivity` (`None`: exact) by MTD(f)
    /// from `guess` (discs), or with `wld` a win/loss/draw solve. `None` if it was stopped.
    fn end_pass<C: Cpu>(
        &self,
        board: &Board,
        selectivity: Option<Selectivity>,
        wld: bool,
        guess: i32,
        phase: &mut Phase<'_, '_>,
    ) -> Option<(i32, Move)> {
        if let Some(crew) = phase.crew {
            crew.post(if wld {
                Task::Solve {
                    wld,
                    guess: None,
                    upper: None,
                }
            } else {
                Task::EndPass { selectivity, guess }
            });
        }
        let (p, o) = (board.player(), board.opponent());
        let t0 = Instant::now();
        let excluded = phase.root.excluded;
        let mut cx = Context::new(&self.eval, &self.tt, phase.stopper);
        let mut solver = Solver::<E, C>::on_cpu(&mut cx, *phase.nodes);
        solver.set_busy(phase.crew.map(|c| &c.busy));
        solver.set_models(&self.mpc);
        solver.set_selectivity(selectivity);
        let (score, best) = if wld {
            solver.solve_root(p, o, -1, 1, excluded)
        } else {
            solver.solve_root_mtd(p, o, guess, excluded)
        };
        let (nodes, aborted) = (solver.nodes(), solver.aborted());
        *phase.nodes += nodes;
        phase.measure(nodes, t0.elapsed());
        (!aborted).then(|| (score, best.map_or(Move::Pass, Move::Place)))
    }

    /// Makes `result` the report of a completed pass.
    fn report_end_pass<C: Cpu>(
        &self,
        board: &Board,
        value: Value,
        selectivity: Option<Selectivity>,
        best: Move,
        phase: &Phase<'_, '_>,
        result: &mut SearchResult,
    ) {
        let best = if best == Move::Pass {
            result.best
        } else {
            best
        };
        *result = SearchResult {
            best,
            value,
            depth: board.empty_count(),
            selectivity,
            pv: self.principal_variation::<C>(board, best, matches!(value, Value::Exact(_))),
            nodes: *phase.nodes + phase.crew.map_or(0, Crew::helper_nodes),
            elapsed: phase.start.elapsed(),
        };
    }
}
