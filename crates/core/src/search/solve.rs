//! The exact (or win/loss/draw) solve of a root, as [`Searcher::solve`] runs it: midgame
//! iterations first that fill the table with best moves (the presearch, from
//! [`PRESEARCH_MIN_EMPTIES`] empties), then the selective passes of endgame Multi-ProbCut at
//! rising confidence ([`super::probcut::endgame::schedule`]), each by MTD(f) from the value before, and
//! the exact pass by MTD(f) from theirs (Plaat, Schaeffer, Pijls and de Bruin, 1996). The
//! helpers of a parallel solve run the same sequence ([`solve_sequence`]).

use crate::time::{Duration, Instant};

use crate::board::{Board, Move};
use crate::cpu::Cpu;
use crate::eval::Evaluator;
use crate::square::Square;

use super::context::Context;
use super::endgame::Solver;
use super::midgame::Midgame;
use super::multipv::RootOptions;
use super::parallel::{self, Crew, Task};
use super::probcut::endgame::schedule;
use super::{aspiration, Observer, Phase, SearchResult, Searcher, Selectivity, Stopper, Value};

impl<E: Evaluator> Searcher<E> {
    /// Before a deep solve, midgame iterations to `empties - PRESEARCH_GAP` plies fill the
    /// table with best moves, which the solver tries first (as a timed search does anyway
    /// before it switches to solving). Each finished iteration goes to `observer` (a
    /// heuristic value, the time from its start). The root moves in `excluded` are skipped,
    /// as in the solve.
    pub(super) fn presearch<C: Cpu>(
        &self,
        board: &Board,
        excluded: u64,
        stopper: &mut Stopper,
        nodes: &mut u64,
        crew: Option<&Crew>,
        observer: &mut dyn Observer,
    ) -> Option<i32> {
        let start = Instant::now();
        let empties = board.empty_count();
        if empties < PRESEARCH_MIN_EMPTIES {
            return None;
        }
        let (p, o) = (board.player(), board.opponent());
        let mut prev = None;
        for depth in 1..=empties - PRESEARCH_GAP {
            if let Some(crew) = crew {
                crew.post(Task::Midgame {
                    depth,
                    guess: prev,
                    selectivity: None,
                });
            }
            let mut cx = Context::new(&self.eval, &self.tt, stopper);
            let mut search = Midgame::<E, C>::on_cpu(&mut cx, *nodes);
            search.set_busy(crew.map(|c| &c.busy));
            let (score, best) = aspiration(&mut search, p, o, depth, prev, excluded);
            *nodes += search.nodes();
            if search.aborted() {
                return None;
            }
            prev = Some(score);
            let best = best.map_or(Move::Pass, Move::Place);
            observer.on_iteration(&SearchResult {
                best,
                value: Value::Heuristic(score),
                depth,
                selectivity: None,
                pv: vec![best],
                nodes: *nodes,
                elapsed: start.elapsed(),
            });
        }
        prev
    }

    /// Solves `board` exactly (or for win/loss/draw) with no time limit beyond the stop flag.
    ///
    /// # Example
    ///
    /// Reach a position with 9 empties by random play, solve it, and check the value against
    /// a plain negamax over the rules:
    ///
    /// ```
    /// use othello_core::eval::EngineEval;
    /// use othello_core::rng::SplitMix64;
    /// use othello_core::search::{Searcher, Value};
    /// use othello_core::Board;
    ///
    /// fn negamax(board: Board) -> i32 {
    ///     if board.is_game_over() {
    ///         return board.final_score();
    ///     }
    ///     if board.must_pass() {
    ///         return -negamax(board.pass());
    ///     }
    ///     board.legal_moves().map(|sq| -negamax(board.play(sq))).max().unwrap()
    /// }
    ///
    /// let mut rng = SplitMix64::new(7);
    /// let mut board = Board::start();
    /// while board.empty_count() > 9 && !board.is_game_over() {
    ///     let moves: Vec<_> = board.legal_moves().collect();
    ///     board = if moves.is_empty() {
    ///         board.pass()
    ///     } else {
    ///         board.play(moves[rng.below_u32(moves.len())])
    ///     };
    /// }
    /// let mut searcher = Searcher::new(EngineEval::default(), 1);
    /// let exact = searcher.solve(&board, false, &mut ());
    /// assert_eq!(exact.value, Value::Exact(negamax(board)));
    /// // A win/loss/draw solve agrees on the sign.
    /// let wld = searcher.solve(&board, true, &mut ());
    /// assert_eq!(wld.value, Value::Wld(negamax(board).signum()));
    /// ```
    pub fn solve(
        &mut self,
        board: &Board,
        wld: bool,
        observer: &mut impl Observer,
    ) -> SearchResult {
        self.solve_with(board, wld, RootOptions::default(), observer)
    }

    /// [`Searcher::solve_with`] on the code path `C`.
    pub(super) fn solve_on<C: Cpu>(
        &mut self,
        board: &Board,
        wld: bool,
        root: RootOptions,
        observer: &mut impl Observer,
    ) -> SearchResult {
        let start = Instant::now();
        if root.excluded == 0 {
            self.tt.new_search();
        }
        let mut stopper = Stopper::new(Some(self.stop.clone()), None, None);
        let mut nodes = 0;
        let mut result = SearchResult {
            best: Move::Pass,
            value: Value::Exact(board.final_score()),
            depth: board.empty_count(),
            selectivity: None,
            pv: vec![Move::Pass],
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if board.moves() == 0 {
            if !board.is_game_over() {
                let mut cx = Context::new(&self.eval, &self.tt, &mut stopper);
                let mut solver = Solver::<E, C>::on_cpu(&mut cx, 0);
                let s = solver.solve(board.player(), board.opponent(), -64, 64);
                result.value = Value::Exact(s);
                result.nodes = solver.nodes();
            }
            result.elapsed = start.elapsed();
            return result;
        }
        let mut nps = self.solver_nps;
        let job = self.job(board, root.excluded);
        let ((), helper_nodes) = parallel::run::<E, C, _>(self.threads, &job, |crew| {
            let guess = match root.line_bound {
                Some(_) => None,
                None => self.presearch::<C>(
                    board,
                    root.excluded,
                    &mut stopper,
                    &mut nodes,
                    crew,
                    observer,
                ),
            };
            self.solve_phase::<C>(
                board,
                wld,
                guess,
                Phase {
                    stopper: &mut stopper,
                    nodes: &mut nodes,
                    start,
                    crew,
                    solver_nps: &mut nps,
                    root,
                },
                &mut result,
                observer,
            );
        });
        self.solver_nps = nps;
        result.nodes = nodes + helper_nodes;
        result
    }
}

/// The solve of the root (`p`, `o`): for an exact solve, the selective passes of
/// [`probcut::schedule`] from `guess` (centi-discs), then MTD(f) from their value; for a WLD
/// solve, one search over (-1, 1); every search skips the root moves in `excluded`. The same
/// sequence runs on every thread of a parallel search. Meaningless if the solver was stopped.
/// `report` hears each finished selective pass: its selectivity, value, best move and the
/// solver's nodes so far.
pub(super) fn solve_sequence<E: Evaluator, C: Cpu>(
    solver: &mut Solver<'_, '_, E, C>,
    p: u64,
    o: u64,
    wld: bool,
    guess: Option<i32>,
    excluded: u64,
    report: &mut dyn FnMut(Selectivity, i32, Option<Square>, u64),
) -> (i32, Option<Square>) {
    let empties = (!(p | o)).count_ones();
    // The midgame guess is in centi-discs; exact scores are even numbers of discs.
    let mut guess = guess.map(|g| (g + 100 * g.signum()) / 200 * 2);
    if !wld {
        for &sel in schedule(empties) {
            solver.set_selectivity(Some(sel));
            let (v, best) = solver.solve_root_mtd(p, o, guess.unwrap_or(0), excluded);
            if solver.aborted() {
                break;
            }
            guess = Some(v);
            report(sel, v, best, solver.nodes());
        }
        solver.set_selectivity(None);
    }
    match guess {
        Some(g) if !wld && !solver.aborted() => solver.solve_root_mtd(p, o, g, excluded),
        _ if wld => solver.solve_root(p, o, -1, 1, excluded),
        _ => solver.solve_root(p, o, -64, 64, excluded),
    }
}

/// Fewest empties at which [`Searcher::solve`] runs midgame iterations first.
pub const PRESEARCH_MIN_EMPTIES: u32 = 20;
/// Those iterations stop this many plies short of the end.
pub const PRESEARCH_GAP: u32 = 14;
