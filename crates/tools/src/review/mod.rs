//! Game review: every move of a recorded game judged by the engine, as post-game analysis in
//! the manner of WZebra's and Edax's "review" (no code from either): the value of the move
//! played against the value of the engine's best move, searched to the same depth, and the
//! loss in discs between them.
//!
//! # How a move is judged
//!
//! For the position before each move (the mover has a legal move: the databases make forced
//! passes implicit, see [`crate::gamedb`]), in [`review_game`]:
//!
//! - **exactly**, with [`Searcher::solve`], when it has at most
//!   [`ReviewOptions::exact_empties`] empty squares: the best move and its exact value, then,
//!   if another move was played, the exact value of the position after it (negated, or not if
//!   the opponent must pass). Both values are exact final disc differences, so the loss is
//!   exact;
//! - **by search** otherwise: [`Searcher::search`] to the depth (or for the time) of
//!   [`Effort`] gives the best move and its value at depth `d`; a different played move is
//!   valued by searching the position after it to depth `d - 1` (after a forced pass, to
//!   `d - 1` for the same side), so that both values look `d` plies ahead of the same position
//!   and can be subtracted. Two searches of different trees can disagree by a little (the
//!   table, forward pruning); when the played move comes out as high or higher, it counts as
//!   the best move, and a loss is never negative.
//!
//! A search that solves its position by itself (an untimed search does so near the end; a
//! timed one may solve for win/loss/draw) is not mixed with a heuristic value: the move is then
//! judged exactly, as above. Whether a move was judged exactly is kept with it.
//!
//! All values are in discs from the mover's point of view (the final disc difference, empties
//! to the winner, for exact values); the loss is `best - played >= 0`. The evaluation curve is
//! the value of the position after each move, from Black's point of view, with the odd/even
//! swing of fixed-depth searches cancelled ([`Review::curve`]). Turning points are the largest
//! losses of the game: up to [`TURNING_POINTS`] moves losing at least [`MISTAKE_CENTI`].
//!
//! The [`audit`] judges many games at once, from a fixed number of empties to the end, against
//! exact values only, one solve per position: where the games of a match were lost.
//!
//! Reviewing never prints: progress goes to a callback, and the reports are built from the
//! [`Review`] by [`text`] (the terminal table), [`json`] and [`html`] (a page with an SVG
//! chart and board diagrams, drawn by [`svg`]).
//!
//! [`Searcher::solve`]: crate::search::Searcher::solve
//! [`Searcher::search`]: crate::search::Searcher::search
//!
//! ```
//! use othello_core::eval::EngineEval;
//! use othello_tools::gamedb::GameRecord;
//! use othello_tools::review::{review_game, Effort, ReviewOptions};
//! use othello_core::search::Searcher;
//!
//! // The shortest game: Black wipes White out in nine moves.
//! let moves = "d3c3b3d2e1d6d7e3f4".as_bytes().chunks(2);
//! let game = GameRecord::from_moves(
//!     moves.map(|m| std::str::from_utf8(m).unwrap().parse().unwrap()).collect(),
//! );
//! let mut searcher = Searcher::new(EngineEval::default(), 1);
//! let options = ReviewOptions { effort: Effort::Depth(4), exact_empties: 12, book: None };
//! let review = review_game(&game, &mut searcher, &options, &mut |_progress| {})?;
//! assert_eq!(review.moves.len(), 9);
//! assert_eq!(review.black_score(), 64);
//! assert!(review.moves.iter().all(|m| m.loss_centi() >= 0));
//! let json = othello_tools::review::json::to_json(&review);
//! assert!(json.contains("\"black_score\": 64"));
//! # Ok::<(), othello_tools::review::ReviewError>(())
//! ```

pub mod audit;
pub mod html;
pub mod json;
mod judge;
pub mod svg;
pub mod text;

pub use judge::{analyse_position, review_game, MoveValue};

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::board::{Color, Position};
use crate::book::Book;
use crate::discs::CentiDiscs;
use crate::gamedb::{GameRecord, ReplayError};
use crate::search::Value;
use crate::square::Square;
use crate::text::one_line;

/// The midgame depth a review searches to by default: a 60-move game takes 4-9 s on the
/// development machine (depth 12: about 2 s), see docs/REVIEW.md.
pub const DEFAULT_DEPTH: u32 = 16;
/// Positions with this many empty squares or fewer are solved exactly by default.
pub const DEFAULT_EXACT_EMPTIES: u32 = 22;
/// The smallest loss, in centi-discs, that counts as a mistake (and can be a turning point).
pub const MISTAKE_CENTI: i32 = 400;
/// The most turning points a review reports.
pub const TURNING_POINTS: usize = 5;

/// How hard each midgame position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Effort {
    /// To this depth in plies.
    Depth(u32),
    /// For this long (the position after a played move then goes one ply less deep than the
    /// depth this search reached).
    Time(Duration),
}

/// What a review searches and solves.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// How midgame positions are searched.
    pub effort: Effort,
    /// Positions with this many empty squares or fewer are solved exactly.
    pub exact_empties: u32,
    /// An opening book: a move played in a book position, and valued by the book, is judged
    /// by the book's values (its best move's against the played move's) instead of a search.
    pub book: Option<Arc<Book>>,
}

impl PartialEq for ReviewOptions {
    /// Equal settings and the same book (the same shared copy, or none).
    fn eq(&self, other: &ReviewOptions) -> bool {
        self.effort == other.effort
            && self.exact_empties == other.exact_empties
            && match (&self.book, &other.book) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl fmt::Display for ReviewOptions {
    /// `depth 12, exact at 22 empties or fewer` (or `2 s per position, ...`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.effort {
            Effort::Depth(d) => write!(f, "depth {d}")?,
            Effort::Time(t) => write!(f, "{} s per position", t.as_secs_f64())?,
        }
        write!(f, ", exact at {} empties or fewer", self.exact_empties)?;
        if self.book.is_some() {
            f.write_str(", book values in book positions")?;
        }
        Ok(())
    }
}

impl Default for ReviewOptions {
    fn default() -> ReviewOptions {
        ReviewOptions {
            effort: Effort::Depth(DEFAULT_DEPTH),
            exact_empties: DEFAULT_EXACT_EMPTIES,
            book: None,
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move number, from 1; passes are not counted.
    pub number: usize,
    /// The position before the move (its side to move is the mover).
    pub before: Position,
    /// The square played.
    pub played: Square,
    /// The engine's best move, or the played one if that is as good (a tie, or a search that
    /// valued it higher).
    pub best: Square,
    /// The best move's value, mover's view.
    pub best_value: Value,
    /// The played move's value, mover's view, of the same kind as `best_value`.
    pub played_value: Value,
    /// How many legal moves the mover had.
    pub legal_moves: u32,
    /// The midgame depth of the judgement, or the empties for an exact one (for a book
    /// judgement, the depth behind the book's best value).
    pub depth: u32,
    /// Judged by the book's values rather than a search.
    pub from_book: bool,
    /// The opponent had no move after this one and passed.
    pub pass_after: bool,
    /// Nodes searched to judge this move.
    pub nodes: u64,
    /// Time taken to judge this move.
    pub elapsed: Duration,
}

impl MoveReview {
    /// The mover's colour.
    pub fn color(&self) -> Color {
        self.before.side
    }

    /// Whether both values are exact.
    pub fn is_exact(&self) -> bool {
        matches!(self.best_value, Value::Exact(_))
    }

    /// The loss in centi-discs: best minus played, never negative.
    pub fn loss_centi(&self) -> i32 {
        (centi(self.best_value) - centi(self.played_value)).max(0)
    }

    /// The loss in discs.
    pub fn loss(&self) -> f64 {
        CentiDiscs::from(self.loss_centi()).to_discs()
    }

    /// How the move was judged: `book`, `exact`, `probable`, or the depth (`d12` when
    /// `short`, else `depth 12`).
    pub fn judged(&self, short: bool) -> String {
        match self.best_value {
            _ if self.from_book => "book".to_string(),
            Value::Exact(_) | Value::Wld(_) => "exact".to_string(),
            Value::Probable(_) => "probable".to_string(),
            Value::Heuristic(_) if short => format!("d{}", self.depth),
            Value::Heuristic(_) => format!("depth {}", self.depth),
        }
    }

    /// Whether the move played was a best move (no loss).
    pub fn is_best(&self) -> bool {
        self.loss_centi() == 0
    }

    /// Whether the mover had a choice (two legal moves or more).
    pub fn had_choice(&self) -> bool {
        self.legal_moves > 1
    }

    /// Whether the loss makes it a mistake ([`MISTAKE_CENTI`] or more).
    pub fn is_mistake(&self) -> bool {
        self.loss_centi() >= MISTAKE_CENTI
    }

    /// The value of the position after the move, in centi-discs from Black's point of view.
    pub fn black_centi(&self) -> i32 {
        black_view(self.color(), centi(self.played_value))
    }

    /// The best value before the move, in centi-discs from Black's point of view.
    pub fn black_best_centi(&self) -> i32 {
        black_view(self.color(), centi(self.best_value))
    }
}

/// A value in centi-discs (exact values are whole discs).
pub fn centi(value: Value) -> i32 {
    value.centi()
}

/// A value as text: `+1.23` (discs, a search's estimate) or `+4` (an exact disc difference;
/// `0` for a draw).
pub fn value_text(value: Value) -> String {
    match value {
        Value::Heuristic(c) => format!("{:+.2}", CentiDiscs::from(c)),
        Value::Exact(0) | Value::Wld(0) | Value::Probable(0) => "0".to_string(),
        Value::Exact(d) | Value::Wld(d) | Value::Probable(d) => format!("{d:+}"),
    }
}

/// A loss in centi-discs as text: `0`, `4` (whole discs) or `1.25`.
pub fn loss_text(centi: i64) -> String {
    let loss = CentiDiscs(centi);
    if loss.is_whole() {
        loss.whole_discs().to_string()
    } else {
        format!("{loss:.2}")
    }
}

/// `centi` (the mover's view) from Black's point of view.
fn black_view(mover: Color, centi: i32) -> i32 {
    match mover {
        Color::Black => centi,
        Color::White => -centi,
    }
}

/// One player's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerStats {
    /// The player's colour.
    pub color: Color,
    /// Moves played.
    pub moves: usize,
    /// Moves played with a choice (two legal moves or more).
    pub choices: usize,
    /// Of those, the best moves (no loss).
    pub best_moves: usize,
    /// The sum of the losses, in centi-discs.
    pub total_loss_centi: i64,
    /// Moves losing [`MISTAKE_CENTI`] or more.
    pub mistakes: usize,
}

impl PlayerStats {
    /// The total loss in discs.
    pub fn total_loss(&self) -> f64 {
        CentiDiscs(self.total_loss_centi).to_discs()
    }

    /// The mean loss per move with a choice, in discs (0 without one).
    pub fn mean_loss(&self) -> f64 {
        if self.choices == 0 {
            0.0
        } else {
            self.total_loss() / self.choices as f64
        }
    }

    /// The share of best moves among the moves with a choice, 0 to 1 (1 without one).
    pub fn best_share(&self) -> f64 {
        if self.choices == 0 {
            1.0
        } else {
            self.best_moves as f64 / self.choices as f64
        }
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The game as recorded.
    pub game: GameRecord,
    /// How it was reviewed.
    pub options: ReviewOptions,
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// The position after the last move.
    pub final_position: Position,
    /// The whole review's time.
    pub elapsed: Duration,
}

impl Review {
    /// Whether the game was played to its end (neither side can move).
    pub fn is_finished(&self) -> bool {
        self.final_position.board.is_game_over()
    }

    /// Black's disc difference on the final board, empties to the side with more discs (the
    /// result, if the game is finished).
    pub fn black_score(&self) -> i32 {
        let score = self.final_position.board.final_score();
        black_view(self.final_position.side, score)
    }

    /// A player's name from the record, or `Black`/`White` if it has none; control
    /// characters become spaces.
    pub fn name(&self, color: Color) -> String {
        let name = match color {
            Color::Black => &self.game.black,
            Color::White => &self.game.white,
        };
        let name = name.trim();
        if name.is_empty() {
            color_name(color).to_string()
        } else {
            one_line(name)
        }
    }

    /// The event and date, `World Championship - 2025, 2025`, control characters made spaces
    /// (empty if the record has neither).
    pub fn event(&self) -> String {
        let parts: Vec<&str> = [self.game.event.trim(), self.game.date.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        one_line(&parts.join(", "))
    }

    /// The result line: `31-33 (Black -2)` for a finished game, or the discs on the board
    /// of a game not played to the end (resigned, lost on time, cut short); the recorded
    /// result and WTHOR's theoretical score if the record has them and they differ.
    pub fn result_text(&self) -> String {
        let (b, w) = self.final_discs();
        let mut text = if self.is_finished() {
            let score = self.black_score();
            let (nb, nw) = ((64 + score) / 2, (64 - score) / 2);
            format!("{nb}-{nw} (Black {score:+})")
        } else {
            format!("not played to the end, {b}-{w} on the board")
        };
        if let Some(recorded) = self.game.black_discs {
            let replayed = (64 + self.black_score()) / 2;
            if !self.is_finished() || i32::from(recorded) != replayed {
                text += &format!("; recorded {recorded}-{}", 64 - i32::from(recorded));
            }
        }
        if let Some(t) = self.game.theoretical {
            text += &format!("; WTHOR theoretical score {t}-{}", 64 - i32::from(t));
        }
        text
    }

    /// The total nodes searched.
    pub fn nodes(&self) -> u64 {
        self.moves.iter().map(|m| m.nodes).sum()
    }

    /// Black's and White's discs on the final board.
    pub fn final_discs(&self) -> (u32, u32) {
        let (b, w) = self.final_position.black_white();
        (b.count_ones(), w.count_ones())
    }

    /// Black's totals, then White's.
    pub fn players(&self) -> [PlayerStats; 2] {
        [Color::Black, Color::White].map(|color| {
            let mut s = PlayerStats {
                color,
                moves: 0,
                choices: 0,
                best_moves: 0,
                total_loss_centi: 0,
                mistakes: 0,
            };
            for m in self.moves.iter().filter(|m| m.color() == color) {
                s.moves += 1;
                s.total_loss_centi += i64::from(m.loss_centi());
                s.mistakes += usize::from(m.is_mistake());
                if m.had_choice() {
                    s.choices += 1;
                    s.best_moves += usize::from(m.is_best());
                }
            }
            s
        })
    }

    /// The turning points: indices into [`Review::moves`] of the largest losses (at least
    /// [`MISTAKE_CENTI`]), at most [`TURNING_POINTS`] of them, in game order. Equal losses go
    /// to the earlier move.
    pub fn turning_points(&self) -> Vec<usize> {
        let mut worst: Vec<usize> = (0..self.moves.len())
            .filter(|&i| self.moves[i].is_mistake())
            .collect();
        worst.sort_by_key(|&i| (-self.moves[i].loss_centi(), i));
        worst.truncate(TURNING_POINTS);
        worst.sort_unstable();
        worst
    }

    /// The evaluation curve, Black's point of view in centi-discs: the best value of the start
    /// position at move 0, then the value of the position after each move (`moves.len() + 1`
    /// points; one, 0, for a game without moves).
    ///
    /// Two searches value the position after move `k`: the one before the move (the played
    /// value) and the one of the position itself, before move `k + 1` (its best value). Their
    /// horizons are one ply apart, and a fixed-depth search's values swing with the parity of
    /// the horizon (by 3.6 discs on average between consecutive moves at depth 16 on the game
    /// of docs/REVIEW.md: the curve of either alone is a saw). The curve takes their mean,
    /// which cancels the swing; where one of the two is exact, it takes the exact one; after
    /// the last move, the played value.
    pub fn curve(&self) -> Vec<i32> {
        let start = self.moves.first().map_or(0, MoveReview::black_best_centi);
        let after = self.moves.iter().enumerate().map(|(k, m)| {
            let Some(next) = self.moves.get(k + 1) else {
                return m.black_centi();
            };
            match (m.is_exact(), next.is_exact()) {
                (true, _) => m.black_centi(),
                (false, true) => next.black_best_centi(),
                (false, false) => (m.black_centi() + next.black_best_centi()).div_euclid(2),
            }
        });
        std::iter::once(start).chain(after).collect()
    }
}

/// `Black` or `White`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Progress of a running review, after each judged move.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Moves judged so far.
    pub done: usize,
    /// Moves to judge in all.
    pub total: usize,
    /// The move just judged.
    pub last: &'a MoveReview,
}

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The moves do not replay from the standard start.
    #[error("the game does not replay: {0}")]
    Replay(#[from] ReplayError),
}
