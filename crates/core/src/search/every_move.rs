//! The exact value of every root move, for `solve --multipv` and hints with at least as many
//! lines as moves: each move's position solved on its own, with an aspiration window around
//! a shallow midgame estimate of it.
//!
//! Re-searching the root with the lines found so far excluded ([`super::multipv`]) locates
//! each later value by MTD(f) steps down from the line before, and those failed null-window
//! tests are what made `hint 64` cost 5.7 times a solve on hard-20 when proving every move at
//! its known value (an oracle) costs 3.4 times. Here each child is first estimated by a
//! depth-8 midgame search, then solved in the window of that estimate ± 3 discs, and
//! re-solved on the failing side only when the value falls outside (docs/dev/ANALYSIS.md has
//! the measurements). All children share the table, so the later ones reuse the earlier ones'
//! work. With helper threads, every window the main thread searches is posted to them as
//! [`Task::Window`], so they search the same tree with the same bounds (ABDADA's deferral
//! keeps them apart).

use crate::time::Instant;
use std::cmp::Reverse;
use std::sync::atomic::Ordering;

use crate::bitboard::squares;
use crate::board::{Board, Move};
use crate::cpu::Cpu;
use crate::eval::Evaluator;

use super::context::Context;
use super::endgame::Solver;
use super::midgame::Midgame;
use super::parallel::{self, Crew, Task};
use super::{aspiration, Observer, SearchResult, Searcher, Stopper, Value};

/// The depth of the midgame estimate around which each move is solved.
const ESTIMATE_DEPTH: u32 = 8;
/// The half-width of the first window, in discs.
const WINDOW: i32 = 3;

impl<E: Evaluator> Searcher<E> {
    /// Every legal move of `board` (which has two or more) with its exact value, best first
    /// (ties in square order); fewer lines if the stop flag ends it early (the moves solved
    /// so far). Each line is reported to `observer` once all are known, best first.
    pub(super) fn solve_every_move<C: Cpu>(
        &mut self,
        board: &Board,
        observer: &mut impl Observer,
    ) -> Vec<SearchResult> {
        self.tt.new_search();
        let mut lines = Vec::new();
        for sq in squares(board.moves()) {
            let start = Instant::now();
            let child = board.play(sq);
            // After a forced pass the same side moves again: its value is not negated.
            let (target, sign) = if child.moves() == 0 && !child.is_game_over() {
                (child.pass(), 1)
            } else {
                (child, -1)
            };
            let (value, nodes) = if target.is_game_over() {
                (target.final_score(), 0)
            } else {
                match self.solve_around_estimate::<C>(&target) {
                    Some(solved) => solved,
                    None => break,
                }
            };
            let best = Move::Place(sq);
            lines.push(SearchResult {
                best,
                value: Value::Exact(sign * value),
                depth: board.empty_count(),
                selectivity: None,
                pv: self.principal_variation::<C>(board, best, true),
                nodes,
                elapsed: start.elapsed(),
            });
        }
        lines.sort_by_key(|r| Reverse(r.value.centi()));
        for line in &lines {
            observer.on_iteration(line);
        }
        lines
    }

    /// The exact value of `board` (not over, with a legal move) and the nodes spent: the
    /// estimate, then the solve in its window, widened on the failing side. `None` if stopped.
    fn solve_around_estimate<C: Cpu>(&mut self, board: &Board) -> Option<(i32, u64)> {
        let (p, o) = (board.player(), board.opponent());
        let mut stopper = Stopper::new(Some(self.stop.clone()), None, None);
        let mut nodes = 0;
        let mut cx = Context::new(&self.eval, &self.tt, &mut stopper);
        let mut search = Midgame::<E, C>::on_cpu(&mut cx, 0);
        search.set_selectivity(&self.mpc, self.selectivity);
        let depth = ESTIMATE_DEPTH.min(board.empty_count());
        let (estimate, _) = aspiration(&mut search, p, o, depth, None, 0);
        nodes += search.nodes();
        if search.aborted() {
            return None;
        }
        // Centi-discs to whole discs, rounded to the nearest.
        let centre = (estimate + 50 * estimate.signum()) / 100;
        let job = self.job(board, 0);
        let (value, helper_nodes) = parallel::run::<E, C, _>(self.threads, &job, |crew| {
            let mut solver = Solver::<E, C>::on_cpu(&mut cx, 0);
            solver.set_busy(crew.map(|c| &c.busy));
            solver.set_models(&self.mpc);
            let value = solve_in_windows(&mut solver, p, o, centre, crew);
            nodes += solver.nodes();
            value
        });
        let stopped = self.stop.load(Ordering::Relaxed);
        match value {
            Some(v) if !stopped => Some((v, nodes + helper_nodes)),
            _ => None,
        }
    }
}

/// The exact value of (`p`, `o`) by windows: `centre` ± [`WINDOW`] first, then, if the value
/// falls outside, the side it fell to, bounded by the fail-soft result. Each window is posted
/// to the helpers first. `None` if the solver was stopped.
fn solve_in_windows<E: Evaluator, C: Cpu>(
    solver: &mut Solver<'_, '_, E, C>,
    p: u64,
    o: u64,
    centre: i32,
    crew: Option<&Crew>,
) -> Option<i32> {
    let centre = centre.clamp(-64, 64);
    let (mut alpha, mut beta) = (centre - WINDOW - 1, centre + WINDOW + 1);
    loop {
        if let Some(crew) = crew {
            crew.post(Task::Window { alpha, beta });
        }
        let score = solver.solve(p, o, alpha, beta);
        if solver.aborted() {
            return None;
        }
        if score <= alpha && alpha > -64 {
            // At most `score`: search below it.
            (alpha, beta) = (-65, score + 1);
        } else if score >= beta && beta < 64 {
            // At least `score`: search above it.
            (alpha, beta) = (score - 1, 65);
        } else {
            return Some(score);
        }
    }
}
