//! The engine's analysis of positions and games: hints (the book's moves, or a search of one
//! or several lines; every move of an endgame solved on its own), the value of one position,
//! and the analysis of a whole game, last position first. Positions in the book get the book's
//! values; a side that must pass is searched after the pass and reported with `PA` first.

use crate::board::{Board, Move};
use crate::search::{Limits, Observer, SearchResult, Value};

use super::{Engine, Evaluation, Hint, Level, ANALYZE_DEPTH};

impl Engine {
    /// Analyses the current position for a hint: its book moves if it is in the book (at most
    /// `k`), else a search limited by the depth only (no clock), each completed iteration
    /// reported to `observer`; with `k` > 1, one search per line with the lines already found
    /// excluded. A position whose side must pass is searched after the pass, and reported as
    /// `PA` followed by the line, valued for the side that passes.
    pub fn hint(&mut self, k: usize, observer: &mut impl Observer) -> Hint {
        let board = self.game.position().board;
        if board.is_game_over() {
            return Hint::GameOver;
        }
        let mut moves = self.book_moves();
        if !moves.is_empty() {
            moves.truncate(k.max(1));
            return Hint::Book(moves);
        }
        let limits = Limits {
            depth: self.capped(self.depth),
            nodes: self.options.node_cap,
            solve_empties: self.level.map(Level::exact_empties),
            ..Limits::default()
        };
        let moves = board.moves().count_ones() as usize;
        let nodes = if k >= moves && moves > 1 && limits.solves_at_once(board.empty_count()) {
            // Every move, exactly: each solved on its own around an estimate, which costs
            // less than re-searching the root once per line.
            let results = self.searcher().solve_multipv(&board, false, k, observer);
            results.iter().map(|r| r.nodes).sum()
        } else if k > 1 && moves > 1 {
            let results = self.searcher().search_multipv(&board, &limits, k, observer);
            results.iter().map(|r| r.nodes).sum()
        } else if board.moves() == 0 {
            let mut after = AfterPass(observer);
            self.searcher()
                .search(&board.pass(), &limits, &mut after)
                .nodes
        } else {
            self.searcher().search(&board, &limits, observer).nodes
        };
        Hint::Searched { nodes }
    }

    /// The value of `board` for its side to move within `limits`, also when it must pass or
    /// the game is over.
    pub fn evaluate(&mut self, board: &Board, limits: &Limits) -> Evaluation {
        if board.is_game_over() {
            return Evaluation {
                value: Value::Exact(board.final_score()),
                pv: Vec::new(),
                nodes: 0,
            };
        }
        if board.moves() == 0 {
            let after = self.evaluate(&board.pass(), limits);
            let mut pv = vec![Move::Pass];
            pv.extend(after.pv);
            return Evaluation {
                value: after.value.negate(),
                pv,
                nodes: after.nodes,
            };
        }
        let r = self.searcher().search(board, limits, &mut ());
        Evaluation {
            value: r.value,
            pv: shown_pv(&r),
            nodes: r.nodes,
        }
    }

    /// Analyses the game: every position's value for its side to move, last position first
    /// (the endgame solves fill the table for the earlier positions), each passed to `report`
    /// with the number of moves made before it. A position in the book gets the book's value
    /// (its best move's: the negamax of deep searches, what the engine plays by); the others
    /// are searched to [`ANALYZE_DEPTH`] (or the engine's depth, if lower); a finished
    /// position gets its final score, even with the stop flag up. Stops when the stop flag
    /// goes up, or when `report` returns an error, which is returned.
    pub fn analyze<E>(
        &mut self,
        mut report: impl FnMut(usize, Value) -> Result<(), E>,
    ) -> Result<(), E> {
        let depth = self.capped(Some(self.depth.unwrap_or(ANALYZE_DEPTH).min(ANALYZE_DEPTH)));
        let limits = Limits {
            depth,
            nodes: self.options.node_cap,
            ..Limits::default()
        };
        for (moves_made, position) in self.game.positions().into_iter().enumerate().rev() {
            // A finished game's last position costs nothing: its final score is reported even
            // when new input has already stopped the analysis.
            if position.board.is_game_over() {
                report(moves_made, Value::Exact(position.board.final_score()))?;
                continue;
            }
            if self.stopped() {
                break;
            }
            if let Some(best) = self.book_best(&position.board) {
                report(moves_made, best.search_value())?;
                continue;
            }
            let eval = self.evaluate(&position.board, &limits);
            if self.stopped() {
                break;
            }
            report(moves_made, eval.value)?;
        }
        Ok(())
    }
}

/// Passes a search's iterations on as seen from before a forced pass: `PA` first, the value
/// negated, one ply more.
struct AfterPass<'a, O>(&'a mut O);

impl<O: Observer> Observer for AfterPass<'_, O> {
    fn on_iteration(&mut self, result: &SearchResult) {
        let mut pv = vec![Move::Pass];
        if result.pv.is_empty() {
            pv.push(result.best);
        } else {
            pv.extend_from_slice(&result.pv);
        }
        let seen = SearchResult {
            best: Move::Pass,
            value: result.value.negate(),
            depth: result.depth + 1,
            selectivity: result.selectivity,
            pv,
            nodes: result.nodes,
            elapsed: result.elapsed,
        };
        self.0.on_iteration(&seen);
    }
}

/// The principal variation to show for a search result: never empty, and for a midgame
/// value no longer than the depth searched (the table's moves beyond it are guesses).
pub fn shown_pv(result: &SearchResult) -> Vec<Move> {
    if result.pv.is_empty() {
        return vec![result.best];
    }
    let keep = match result.value {
        Value::Heuristic(_) => result.depth.max(1) as usize,
        Value::Exact(_) | Value::Wld(_) | Value::Probable(_) => result.pv.len(),
    };
    result.pv[..keep.min(result.pv.len())].to_vec()
}
