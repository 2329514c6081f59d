//! Multi-PV: the best `k` root moves, each with a value exact at its reported depth (or an
//! exact solve), by re-searching the root with the lines already found excluded, as Edax and
//! Egaroucid do.
//!
//! Line 1 is an ordinary search. Line `i + 1` searches the same root again, to the same
//! limits, with the moves of lines `1..=i` skipped at the root only: its result is the best of
//! the remaining moves and their value at that depth. Every line shares the transposition
//! table, so the later lines find most of their subtrees already searched, and each line's
//! value is comparable with the others' (same depth, same search), unlike searching each
//! child separately one ply shallower.
//!
//! The root's own table entry is never written while moves are excluded (its value would not
//! be the position's), so a later ordinary search of the same position is not misled.
//!
//! Each line's exclusions travel with its search as [`RootOptions`], passed down to the root
//! searches of the midgame and the solver: nothing about a line outlives its search.

use std::sync::atomic::Ordering;

use crate::board::{Board, Move};
use crate::cpu::with_cpu;
use crate::eval::Evaluator;

use super::{Limits, Observer, SearchResult, Searcher, Value};

/// What a search leaves out at its root: set for the later lines of a multi-PV search and for
/// [`Searcher::search_excluding`], the default (nothing) for every other search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct RootOptions {
    /// Root moves the search skips (the lines already found), 0 for none. At least one legal
    /// move must be left.
    pub(super) excluded: u64,
    /// The exact value of the previous line of a multi-PV solve: this line's value is at most
    /// that.
    pub(super) line_bound: Option<i32>,
}

impl<E: Evaluator> Searcher<E> {
    /// The best `k` lines of `board`, best first (fewer if it has fewer legal moves, or if the
    /// stop flag ends the search early: the lines completed so far). `limits` apply to each
    /// line's search. Every completed iteration of every line is reported to `observer`.
    /// A position whose side must pass, or a finished game, has one line.
    pub fn search_multipv(
        &mut self,
        board: &Board,
        limits: &Limits,
        k: usize,
        observer: &mut impl Observer,
    ) -> Vec<SearchResult> {
        self.lines(board, k, observer, |s, root, obs| {
            s.search_with(board, limits, root, obs)
        })
    }

    /// The best `k` lines of `board` by exact (or WLD) solves, best first: with `k` at least
    /// the number of legal moves, the exact value of every move (then each move is solved on
    /// its own around an estimate, see `every_move`, rather than by re-searching the root).
    pub fn solve_multipv(
        &mut self,
        board: &Board,
        wld: bool,
        k: usize,
        observer: &mut impl Observer,
    ) -> Vec<SearchResult> {
        let moves = board.moves().count_ones() as usize;
        if !wld && moves > 1 && k >= moves {
            return with_cpu!(self.cpu, C => self.solve_every_move::<C>(board, observer));
        }
        self.lines(board, k, observer, |s, root, obs| {
            s.solve_with(board, wld, root, obs)
        })
    }

    /// A search of `board` that skips the root moves in `excluded` (the best of the other
    /// moves, at the depth `limits` allow): what an opening book asks when it values the best
    /// move that leaves the book. `excluded` must leave at least one legal move, or be 0.
    /// The root's table entry is not written meanwhile.
    pub fn search_excluding(
        &mut self,
        board: &Board,
        limits: &Limits,
        excluded: u64,
        observer: &mut impl Observer,
    ) -> SearchResult {
        debug_assert!(excluded == 0 || board.moves() & !excluded != 0);
        let root = RootOptions {
            excluded: excluded & board.moves(),
            line_bound: None,
        };
        self.search_with(board, limits, root, observer)
    }

    /// [`Searcher::search`] leaving out at the root what `root` says.
    pub(super) fn search_with(
        &mut self,
        board: &Board,
        limits: &Limits,
        root: RootOptions,
        observer: &mut impl Observer,
    ) -> SearchResult {
        with_cpu!(self.cpu, C => self.search_on::<C>(board, limits, root, observer))
    }

    /// [`Searcher::solve`] leaving out at the root what `root` says.
    pub(super) fn solve_with(
        &mut self,
        board: &Board,
        wld: bool,
        root: RootOptions,
        observer: &mut impl Observer,
    ) -> SearchResult {
        with_cpu!(self.cpu, C => self.solve_on::<C>(board, wld, root, observer))
    }

    /// Runs `line` once per line, with the moves found so far excluded at its root.
    fn lines<O: Observer>(
        &mut self,
        board: &Board,
        k: usize,
        observer: &mut O,
        mut line: impl FnMut(&mut Self, RootOptions, &mut O) -> SearchResult,
    ) -> Vec<SearchResult> {
        let legal = board.moves();
        let mut root = RootOptions::default();
        if legal == 0 {
            return vec![line(self, root, observer)];
        }
        let mut lines = Vec::new();
        while lines.len() < k.max(1) && legal & !root.excluded != 0 {
            let result = line(self, root, observer);
            let stopped = self.stop.load(Ordering::Relaxed);
            let Move::Place(sq) = result.best else {
                break;
            };
            if stopped && result.depth == 0 {
                break;
            }
            root.excluded |= sq.bit();
            root.line_bound = match result.value {
                Value::Exact(v) => Some(v),
                _ => None,
            };
            lines.push(result);
            if stopped {
                break;
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, Move};
    use crate::eval::HandEval;
    use crate::search::{Limits, Searcher, Value};

    /// The exact value of every move of `board`, by solving each child on its own.
    fn every_move(board: &Board) -> Vec<(Move, i32)> {
        board
            .legal_moves()
            .map(|sq| {
                let child = board.play(sq);
                let v = Searcher::new(HandEval::new(), 1)
                    .solve(&child, false, &mut ())
                    .value;
                let Value::Exact(v) = v else { panic!("{v:?}") };
                (Move::Place(sq), -v)
            })
            .collect()
    }

    #[test]
    fn solve_multipv_gives_every_moves_exact_value_best_first() {
        for b in crate::search::endgame::tests::random_positions(14, 6, 0x3141) {
            if b.moves() == 0 {
                continue;
            }
            let mut want = every_move(&b);
            let mut s = Searcher::new(HandEval::new(), 4);
            let lines = s.solve_multipv(&b, false, 64, &mut ());
            assert_eq!(lines.len(), want.len());
            let got: Vec<(Move, i32)> = lines
                .iter()
                .map(|r| match r.value {
                    Value::Exact(v) => (r.best, v),
                    other => panic!("{other:?}"),
                })
                .collect();
            // Best first; ties in any order.
            assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "{got:?}");
            let mut sorted = got.clone();
            sorted.sort_by_key(|&(m, v)| (m.to_string(), v));
            want.sort_by_key(|&(m, v)| (m.to_string(), v));
            assert_eq!(sorted, want);
            // A later ordinary solve of the same position is not misled by the table.
            let again = s.solve(&b, false, &mut ());
            assert_eq!(again.value, Value::Exact(got[0].1));
        }
    }

    #[test]
    fn search_multipv_lines_are_distinct_and_agree_with_excluded_depth_searches() {
        let b = Board::from_move_indices(&[37, 43, 34, 29, 20, 21]);
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let mut s = Searcher::new(HandEval::new(), 4);
        s.set_selectivity(None);
        let lines = s.search_multipv(&b, &limits, 3, &mut ());
        assert_eq!(lines.len(), 3);
        let moves: Vec<Move> = lines.iter().map(|r| r.best).collect();
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
        // Line 1 is the ordinary search's move and value.
        let mut alone = Searcher::new(HandEval::new(), 4);
        alone.set_selectivity(None);
        let plain = alone.search(&b, &limits, &mut ());
        assert_eq!((lines[0].best, lines[0].value), (plain.best, plain.value));
        assert!(lines.iter().all(|r| r.depth == 5));
        // Values are in order.
        let v: Vec<f64> = lines.iter().map(|r| r.value.discs()).collect();
        assert!(v[0] >= v[1] && v[1] >= v[2], "{v:?}");
        // Fewer legal moves than asked: one line per move.
        let start =
            Searcher::new(HandEval::new(), 4).search_multipv(&Board::start(), &limits, 10, &mut ());
        assert_eq!(start.len(), 4);
    }

    /// The measurement behind docs/dev/ANALYSIS.md's floor for `hint 64` (ignored: about 8 minutes
    /// for all 276 positions in a release build; `HARD20_FLOOR_N` takes fewer). For each
    /// position of `hard-20.obf` it counts the nodes of (a) an ordinary solve, (b) the multi-PV
    /// solve of every move, and (c) an *oracle*: each child proved at its known exact value
    /// `x` with the narrowest window, `(x - 1, x + 1)`, all sharing one table. (c) is what
    /// every move's exact value costs when the values are known in advance: in practice a
    /// floor under (b), however (b) finds them. Each child's proved value must equal the
    /// file's, and so must every multi-PV line's.
    #[test]
    #[ignore]
    fn hard20_every_move_proof_against_solve() {
        use crate::eval::EngineEval;
        use crate::search::endgame::Solver;
        use crate::search::tt::TranspositionTable;
        use crate::search::{Context, Stopper};

        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/hard-20.obf"
        ))
        .unwrap();
        let entries = crate::obf::parse_obf(&text).unwrap();
        let n: usize =
            std::env::var("HARD20_FLOOR_N").map_or(entries.len(), |s| s.parse().unwrap());
        let eval = EngineEval::default();
        let (mut total_solve, mut total_lines, mut total_oracle) = (0u64, 0u64, 0u64);
        for (i, e) in entries.iter().take(n).enumerate() {
            let b = e.position.board;
            let mut s = Searcher::new(eval.clone(), 64);
            s.set_threads(1);
            let solve = s.solve(&b, false, &mut ()).nodes;
            let mut s = Searcher::new(eval.clone(), 64);
            s.set_threads(1);
            let lines = s.solve_multipv(&b, false, 64, &mut ());
            assert_eq!(lines.len(), e.moves.len(), "#{}", i + 1);
            for r in &lines {
                assert_eq!(
                    Some(r.value),
                    e.score_of(r.best).map(Value::Exact),
                    "#{}",
                    i + 1
                );
            }
            let multipv: u64 = lines.iter().map(|r| r.nodes).sum();
            let tt = TranspositionTable::new(64);
            let mut oracle = 0;
            for &(mv, x) in &e.moves {
                let Move::Place(sq) = mv else { continue };
                let child = b.play(sq);
                let mut stopper = Stopper::unlimited();
                let mut cx = Context::new(&eval, &tt, &mut stopper);
                let mut solver = Solver::new(&mut cx, 0);
                let v = -solver.solve(child.player(), child.opponent(), -x - 1, -x + 1);
                assert_eq!(v, x, "#{} {mv}", i + 1);
                oracle += solver.nodes();
            }
            total_solve += solve;
            total_lines += multipv;
            total_oracle += oracle;
            eprintln!(
                "#{:<3} {:>2} moves  solve {solve:>10}  multi-PV {multipv:>11} ({:>5.2})  \
                 oracle {oracle:>11} ({:>5.2})",
                i + 1,
                e.moves.len(),
                multipv as f64 / solve as f64,
                oracle as f64 / solve as f64
            );
        }
        eprintln!(
            "{n} positions: solve {total_solve} nodes, multi-PV {total_lines} ({:.2} times), \
             oracle {total_oracle} ({:.2} times)",
            total_lines as f64 / total_solve as f64,
            total_oracle as f64 / total_solve as f64
        );
    }
}
