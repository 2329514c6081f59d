//! The move-quality benchmark (`othello quality`): how good are the moves the midgame search
//! chooses, measured against exact per-move scores?
//!
//! The input is an OBF file in which every legal move of every position carries its exact
//! final disc difference (for example `tests/data/quality-30.obf`, 30 empties). Each position
//! is searched with the same [`Limits`] (a depth, a time or a node budget) from an empty
//! transposition table, so a position's result does not depend on the ones before it. The move
//! chosen is then looked up in the file:
//!
//! - its **loss** is the file's best score minus the file's score of the chosen move, in discs
//!   (0 when the search found a best move, never negative);
//! - the **best-move rate** is the share of positions with loss 0;
//! - the **mean loss** is the average loss over the positions;
//! - the search's **value** of the position is compared with the file's best score: the share
//!   of positions where it is within 3 discs, and the mean absolute error in discs (the
//!   figures the strongest engines publish for Edax's hard sets at depth 15).
//!
//! The two figures measure the search and the evaluator together: a deeper or better-ordered
//! search and a more accurate evaluation both raise the rate and lower the loss. Nodes and time
//! are reported alongside, so settings can be compared at equal cost.
//!
//! A position whose chosen move is not listed in the file (or that has no move list) cannot be
//! scored: its row says so and it is counted as an error, outside the rate and the mean loss.

use std::io::{self, Write};
use std::time::Duration;

use crate::board::Move;
use crate::eval::EngineEval;
use crate::obf::ObfEntry;
use crate::search::time::expected_clock;
use crate::search::{Limits, Searcher};

/// Options of `othello quality`.
#[derive(Clone, Debug)]
pub struct QualityOptions {
    /// The limits of every search. At least one of `depth`, `nodes`, `move_time` or `clock`
    /// must be set, or [`run_quality`] refuses to run.
    pub limits: Limits,
    /// Transposition table size in MiB (the table is cleared before each position).
    pub hash_mb: usize,
    /// Number shown for the first position.
    pub first_number: usize,
    /// The evaluator.
    pub eval: EngineEval,
    /// Midgame forward pruning (`None`: full width).
    pub selectivity: Option<crate::search::Selectivity>,
    /// A game clock: each position is searched with the clock a side is expected to have at
    /// its number of empties in such a game ([`crate::search::time::expected_clock`]), instead
    /// of `limits.clock`.
    pub game_clock: Option<crate::clock::Clock>,
}

/// The result of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct QualityRow {
    /// The number shown for the position (its index plus [`QualityOptions::first_number`]).
    pub number: usize,
    /// Empty squares in the position.
    pub empties: u32,
    /// The move the search chose.
    pub chosen: Move,
    /// The file's score of the chosen move; `None` if the file does not list it.
    pub score: Option<i32>,
    /// The file's best score; `None` if the position has no move list.
    pub best: Option<i32>,
    /// The search's value of the position, in discs (for the side to move).
    pub value: f64,
    /// Depth of the last completed iteration (the number of empties for a solve).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

impl QualityRow {
    /// The loss in discs (best score − score of the chosen move), if the row can be scored.
    pub fn loss(&self) -> Option<i32> {
        Some(self.best? - self.score?)
    }

    /// Why the row cannot be scored, if it cannot.
    pub fn error(&self) -> Option<String> {
        match (self.best, self.score) {
            (None, _) => Some("the file lists no moves for this position".to_string()),
            (Some(_), None) => Some(format!(
                "the chosen move {} is not listed in the file",
                self.chosen
            )),
            (Some(_), Some(_)) => None,
        }
    }
}

/// Totals of a `quality` run, with every row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QualitySummary {
    /// One row per position searched, in file order.
    pub rows: Vec<QualityRow>,
    /// Positions that could be scored (the chosen move is listed in the file).
    pub scored: usize,
    /// Positions that could not be scored (see [`QualityRow::error`]).
    pub errors: usize,
    /// Scored positions where the chosen move reaches the best score.
    pub best_moves: usize,
    /// Sum of the losses of the scored positions, in discs.
    pub total_loss: i64,
    /// Positions with a best score whose searched value is within 3 discs of it.
    pub within_3: usize,
    /// Sum of `|value − best score|` over the positions with a best score, in discs.
    pub total_value_error: f64,
    /// Positions with a best score (those the value figures count).
    pub valued: usize,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Search time in all.
    pub elapsed: Duration,
}

impl QualitySummary {
    /// Percentage of scored positions where a best move was chosen (0 without any).
    pub fn best_move_rate(&self) -> f64 {
        ratio(self.best_moves as f64 * 100.0, self.scored)
    }

    /// Mean loss over the scored positions, in discs (0 without any).
    pub fn mean_loss(&self) -> f64 {
        ratio(self.total_loss as f64, self.scored)
    }

    /// Percentage of positions whose searched value is within 3 discs of the best score.
    pub fn within_3_rate(&self) -> f64 {
        ratio(self.within_3 as f64 * 100.0, self.valued)
    }

    /// Mean absolute error of the searched values against the best scores, in discs.
    pub fn value_mae(&self) -> f64 {
        ratio(self.total_value_error, self.valued)
    }

    /// Mean search time per position searched, in milliseconds.
    pub fn mean_ms(&self) -> f64 {
        ratio(self.elapsed.as_secs_f64() * 1e3, self.rows.len())
    }

    /// Nodes per second over the whole run (0 if no time was measured).
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }

    /// Adds one row to the totals.
    fn add(&mut self, row: QualityRow) {
        match row.loss() {
            Some(loss) => {
                self.scored += 1;
                self.best_moves += (loss == 0) as usize;
                self.total_loss += i64::from(loss);
            }
            None => self.errors += 1,
        }
        if let Some(best) = row.best {
            let error = (row.value - f64::from(best)).abs();
            self.valued += 1;
            self.within_3 += (error <= 3.0) as usize;
            self.total_value_error += error;
        }
        self.nodes += row.nodes;
        self.elapsed += row.elapsed;
        self.rows.push(row);
    }
}

fn ratio(sum: f64, count: usize) -> f64 {
    if count > 0 {
        sum / count as f64
    } else {
        0.0
    }
}

/// Whether `limits` bound a search at all (a depth, a node budget, a time or a clock).
fn is_bounded(limits: &Limits) -> bool {
    limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.move_time.is_some()
        || limits.clock.is_some()
}

/// Writes a score column: `+4`, or `-` when unknown.
fn score_text(score: Option<i32>) -> String {
    score.map_or_else(|| "-".to_string(), |s| format!("{s:+}"))
}

/// `othello quality`: search every position of `entries` with `options.limits`, score each
/// chosen move against the file, and print a header, one line per position (number, empties,
/// chosen move, its score, the best score, the loss, the searched value, depth, nodes,
/// milliseconds) and a totals line (positions, best-move rate, mean loss, the share of values
/// within 3 discs and their mean error, nodes, mean milliseconds, nodes per second).
///
/// Positions that cannot be scored get a row ending in `error: ...` and are counted in
/// [`QualitySummary::errors`]; the caller decides whether that fails the run.
///
/// # Errors
/// An [`io::ErrorKind::InvalidInput`] error if `options.limits` sets no limit (the searches
/// would never end) or the table cannot be allocated; otherwise only errors writing to `out`.
pub fn run_quality(
    entries: &[ObfEntry],
    options: &QualityOptions,
    out: &mut impl Write,
) -> io::Result<QualitySummary> {
    if !is_bounded(&options.limits) && options.game_clock.is_none() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "quality needs a depth, time or node limit",
        ));
    }
    let mut searcher = Searcher::new(options.eval.clone(), 1);
    searcher.set_selectivity(options.selectivity);
    searcher
        .try_set_hash_mb(options.hash_mb)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let mut summary = QualitySummary::default();
    writeln!(
        out,
        "{:>4} {:>3} {:>4} {:>5} {:>5} {:>4} {:>6} {:>5} {:>12} {:>9}",
        "#", "emp", "move", "score", "best", "loss", "value", "depth", "nodes", "ms"
    )?;
    for (i, entry) in entries.iter().enumerate() {
        searcher.clear();
        let board = &entry.position.board;
        let mut limits = options.limits.clone();
        if let Some(start) = &options.game_clock {
            limits.clock = Some(expected_clock(start, board.empty_count()));
        }
        let result = searcher.search(board, &limits, &mut ());
        let row = QualityRow {
            number: i + options.first_number,
            empties: board.empty_count(),
            chosen: result.best,
            score: entry.score_of(result.best),
            best: entry.best_score(),
            value: result.value.discs(),
            depth: result.depth,
            nodes: result.nodes,
            elapsed: result.elapsed,
        };
        write!(
            out,
            "{:>4} {:>3} {:>4} {:>5} {:>5} {:>4} {:>+6.1} {:>5} {:>12} {:>9.2}",
            row.number,
            row.empties,
            row.chosen.to_string(),
            score_text(row.score),
            score_text(row.best),
            row.loss()
                .map_or_else(|| "-".to_string(), |l| l.to_string()),
            row.value,
            row.depth,
            row.nodes,
            row.elapsed.as_secs_f64() * 1e3,
        )?;
        match row.error() {
            Some(e) => writeln!(out, "  error: {e}")?,
            None => writeln!(out)?,
        }
        out.flush()?;
        summary.add(row);
    }
    write!(
        out,
        "total: {} positions, best move {:.1}% ({}/{}), mean loss {:.2} discs, value within 3 \
         discs {:.1}%, value MAE {:.2} discs, {} nodes, {:.2} ms/position, {:.0} nodes/s",
        summary.rows.len(),
        summary.best_move_rate(),
        summary.best_moves,
        summary.scored,
        summary.mean_loss(),
        summary.within_3_rate(),
        summary.value_mae(),
        summary.nodes,
        summary.mean_ms(),
        summary.nodes_per_second(),
    )?;
    if summary.errors > 0 {
        write!(out, ", {} positions not scored", summary.errors)?;
    }
    writeln!(out)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::obf::parse_obf;

    fn row(best: Option<i32>, score: Option<i32>) -> QualityRow {
        QualityRow {
            number: 1,
            empties: 30,
            chosen: Move::Pass,
            score,
            best,
            value: 0.0,
            depth: 1,
            nodes: 10,
            elapsed: Duration::from_millis(2),
        }
    }

    #[test]
    fn totals_follow_the_rows() {
        let mut s = QualitySummary::default();
        s.add(row(Some(4), Some(4)));
        s.add(row(Some(4), Some(-2)));
        s.add(row(Some(0), Some(-3)));
        s.add(row(Some(0), None));
        assert_eq!(
            (s.scored, s.errors, s.best_moves, s.total_loss),
            (3, 1, 1, 9)
        );
        assert!((s.best_move_rate() - 100.0 / 3.0).abs() < 1e-9);
        assert!((s.mean_loss() - 3.0).abs() < 1e-9);
        assert!((s.mean_ms() - 2.0).abs() < 1e-9);
        assert_eq!(s.nodes, 40);
        assert!((s.nodes_per_second() - 5000.0).abs() < 1e-6);
        // Values (all 0 here) against the best scores 4, 4, 0, 0: within 3 discs twice.
        assert_eq!((s.valued, s.within_3), (4, 2));
        assert!((s.within_3_rate() - 50.0).abs() < 1e-9);
        assert!((s.value_mae() - 2.0).abs() < 1e-9);
    }

    #[test]
    fn value_figures_take_the_error_both_ways_and_three_discs_inclusive() {
        let mut s = QualitySummary::default();
        for (value, best) in [(3.0, 0), (-3.5, 0), (10.0, 12), (5.0, 2), (-1.0, -1)] {
            let mut r = row(Some(best), Some(best));
            r.value = value;
            s.add(r);
        }
        let mut bare = row(None, None);
        bare.value = 40.0;
        s.add(bare);
        assert_eq!((s.valued, s.within_3), (5, 4));
        assert!((s.value_mae() - (3.0 + 3.5 + 2.0 + 3.0 + 0.0) / 5.0).abs() < 1e-9);
    }

    #[test]
    fn an_empty_run_has_zero_rates_not_nan() {
        let s = QualitySummary::default();
        assert_eq!(
            (
                s.best_move_rate(),
                s.mean_loss(),
                s.mean_ms(),
                s.nodes_per_second()
            ),
            (0.0, 0.0, 0.0, 0.0)
        );
    }

    fn options(limits: Limits) -> QualityOptions {
        QualityOptions {
            limits,
            hash_mb: 1,
            first_number: 7,
            eval: EngineEval::default(),
            selectivity: None,
            game_clock: None,
        }
    }

    #[test]
    fn unbounded_limits_are_refused() {
        let entries = parse_obf(&format!("{}\n", Position::start().to_board_string())).unwrap();
        let mut out = Vec::new();
        let err = run_quality(&entries, &options(Limits::default()), &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(out.is_empty());
    }

    #[test]
    fn a_move_missing_from_the_file_is_an_error_row_not_a_panic() {
        let start = Position::start().to_board_string();
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        // All four moves listed: whichever is chosen is a best move.
        let all = parse_obf(&format!("{start}; F5:+0; E6:+0; D3:+0; C4:+0;\n")).unwrap();
        let mut out = Vec::new();
        let s = run_quality(&all, &options(limits.clone()), &mut out).unwrap();
        let chosen = s.rows[0].chosen;
        assert_eq!(s.rows[0].number, 7);
        assert_eq!(
            (s.scored, s.errors, s.best_moves, s.total_loss),
            (1, 0, 1, 0)
        );

        // The same search against a list without the chosen move, then a bare position.
        let others: String = ["f5", "e6", "d3", "c4"]
            .iter()
            .filter(|m| **m != chosen.to_string())
            .map(|m| format!(" {m}:+0;"))
            .collect();
        let text = format!("{start};{others}\n{start}\n");
        let entries = parse_obf(&text).unwrap();
        assert_eq!(entries[0].moves.len(), 3);
        let mut out = Vec::new();
        let s = run_quality(&entries, &options(limits), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(s.rows[0].chosen, chosen);
        assert_eq!((s.scored, s.errors, s.best_moves), (0, 2, 0));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            lines[1].ends_with(&format!(
                "error: the chosen move {chosen} is not listed in the file"
            )),
            "{text}"
        );
        assert!(
            lines[2].ends_with("error: the file lists no moves for this position"),
            "{text}"
        );
        assert!(
            lines[3].starts_with("total: 2 positions, best move 0.0% (0/0)"),
            "{text}"
        );
        assert!(lines[3].ends_with(", 2 positions not scored"), "{text}");
    }
}
