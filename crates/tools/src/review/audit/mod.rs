//! The audit: where the games of a match (or of a game file) were lost, judged against exact
//! values from a fixed number of empty squares to the end (`othello match --audit 24`,
//! `othello audit FILE --at 24`).
//!
//! # The method
//!
//! For each game and each audit point `E` (a number of empty squares), the game is taken at
//! its first position with at most `E` empties (with the standard start and passes implicit,
//! the position with exactly `E` empties: every move fills one square). From there on,
//! every position of the game is solved exactly, so every figure below is a disc count under
//! perfect play, not an estimate:
//!
//! - the **value at the point**: the exact value of that position, from each player's view;
//! - the **discs lost by a player's own mistakes**: for each of its moves after the point,
//!   the exact value of its best move minus the exact value of the move it played, summed.
//!   Passes cost nothing (they are forced);
//! - the **final result**, and whether the **outcome changed** between the point and the end
//!   (win, draw or loss by the exact value at the point, against the final result), in the
//!   player's favour or against it;
//! - the **score as played** and the **score with perfect play after the point**: the
//!   latter counts each game by its final result plus the player's own losses, as if it had
//!   found the best move every time and the opponent had played the same moves. That is an
//!   estimate (better moves would have met other replies); the exact value at the point is
//!   what perfect play is sure of, so the score by it is a floor. Together they say how
//!   much a player could gain by playing the rest of its games better, in Elo.
//!
//! One exact solve per position is enough, and often less. With `v(k)` the exact value of
//! the position before move `k`, for its side to move, and `b(k)` the same value from Black's
//! view, the value of the move played at `k` is the value of the position after it, `b(k + 1)`,
//! seen by the mover; the best move's value is `b(k)` seen by the mover. So Black loses
//! `b(k) - b(k + 1)` with a move and White `b(k + 1) - b(k)`. A forced pass needs no care
//! beyond this: the replay makes it (the position after the move then has the mover to move
//! again), and turning each `v(k)` into `b(k)` by its own side to move is the only place the
//! side matters. Summed over the moves, the two players' losses telescope: the value at the
//! point minus the final result, from Black's view, is Black's loss minus White's, exactly.
//!
//! A solve also gives a best move. When the move played is that move (or the only legal
//! one), `b(k + 1) = b(k)` and the next position needs no solve: a stretch of best moves is
//! solved at every other position. The positions that are solved are solved in game order by
//! one [`Searcher`](crate::search::Searcher) (one thread, [`DEFAULT_AUDIT_HASH_MB`] of table) whose table is kept from
//! position to position, so that the later, smaller solves find much of their trees in it.
//! The first solve, at the point, is most of the cost (about two thirds, at 24 empties in
//! engine games; the next one, after a mistake, most of the rest). With several points, one
//! walk from the largest serves all of them. Games are spread over [`AuditOptions::jobs`]
//! workers, each with its own searcher; games that reach the same position at the largest
//! point (paired games between deterministic players often do) go to one worker, and the later
//! ones reuse the first one's values. The figures do not depend on the workers (exact values
//! are unique), only the node counts do.
//!
//! A game that is not played to its end (a forfeit on time, an illegal move, a record that
//! stops early) is not audited: its result is not on the board. A game that ended with more
//! empties than a point (a wipe-out, say) is not audited at that point.
//!
//! Auditing never prints: [`audit_games`] returns an [`AuditReport`], shown as a table by its
//! `Display` and as JSON by [`to_json`] (fields in `docs/REVIEW.md`).
//!
//! ```
//! use othello_core::eval::EngineEval;
//! use othello_tools::gamedb::GameRecord;
//! use othello_tools::review::audit::{audit_games, AuditGame, AuditOptions, AuditPoints};
//!
//! // The shortest game: Black wipes White out in nine moves (55 empties at the end).
//! let moves = "d3c3b3d2e1d6d7e3f4".as_bytes().chunks(2);
//! let record = GameRecord::from_moves(
//!     moves.map(|m| std::str::from_utf8(m).unwrap().parse().unwrap()).collect(),
//! );
//! let games = [AuditGame { record, black: 0, white: 1 }];
//! let names = ["X".to_string(), "Y".to_string()];
//! let options = AuditOptions::new("20".parse::<AuditPoints>()?);
//! let report = audit_games(&games, &names, &options, &EngineEval::default(), &mut |_, _| {})?;
//! // The game ended before 20 empties: nothing to audit there.
//! assert_eq!(report.points[0].sides[0].games, 0);
//! assert_eq!(report.points[0].sides[0].ended_before, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod report;
mod walk;

pub use report::{to_json, AuditSummaryJson};

use std::str::FromStr;
use std::time::Duration;

use crate::board::Color;
use crate::eval::Evaluator;
use crate::gamedb::{GameRecord, ReplayError};
use crate::square::Square;

use walk::run_audit;

/// The largest audit point: a solve from more empties takes too long for a match's games.
pub const MAX_AUDIT_EMPTIES: u32 = 40;
/// The table of each worker's searcher, in MiB.
pub const DEFAULT_AUDIT_HASH_MB: usize = 64;

/// A list of audit points, each a number of empty squares in `1..=MAX_AUDIT_EMPTIES`,
/// distinct, largest first. Parsed from `24` or `24,20`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditPoints(Vec<u32>);

impl AuditPoints {
    /// The points, largest first; refused if one is out of range or the list is empty.
    pub fn new(points: &[u32]) -> Result<AuditPoints, AuditError> {
        if points.is_empty() {
            return Err(AuditError::NoPoints);
        }
        if let Some(&bad) = points
            .iter()
            .find(|&&p| !(1..=MAX_AUDIT_EMPTIES).contains(&p))
        {
            return Err(AuditError::BadPoint(bad.to_string()));
        }
        let mut list = points.to_vec();
        list.sort_unstable_by(|a, b| b.cmp(a));
        list.dedup();
        Ok(AuditPoints(list))
    }

    /// The points, largest first.
    pub fn empties(&self) -> &[u32] {
        &self.0
    }

    /// The largest point.
    pub fn largest(&self) -> u32 {
        self.0[0]
    }
}

impl FromStr for AuditPoints {
    type Err = AuditError;

    /// `24` or `24,20` (spaces around the numbers are allowed).
    fn from_str(s: &str) -> Result<AuditPoints, AuditError> {
        let points = s
            .split(',')
            .map(|item| {
                let item = item.trim();
                item.parse::<u32>()
                    .map_err(|_| AuditError::BadPoint(item.to_string()))
            })
            .collect::<Result<Vec<u32>, AuditError>>()?;
        AuditPoints::new(&points)
    }
}

/// How games are audited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditOptions {
    /// The audit points.
    pub points: AuditPoints,
    /// Workers, each auditing whole games on one thread (at least one).
    pub jobs: usize,
    /// Each worker's table, in MiB.
    pub hash_mb: usize,
}

impl AuditOptions {
    /// `points` on one worker with [`DEFAULT_AUDIT_HASH_MB`].
    pub fn new(points: AuditPoints) -> AuditOptions {
        AuditOptions {
            points,
            jobs: 1,
            hash_mb: DEFAULT_AUDIT_HASH_MB,
        }
    }
}

/// One game to audit, and who played it: `black` and `white` are indices into the players'
/// list given to [`audit_games`] (the same index twice when a player met itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditGame {
    /// The moves, from the standard start.
    pub record: GameRecord,
    /// Black's player.
    pub black: usize,
    /// White's player.
    pub white: usize,
}

/// Why games cannot be audited.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    /// An audit point that is not a number of empties in range.
    #[error("bad audit point {0:?}: expected a number of empty squares from 1 to {MAX_AUDIT_EMPTIES}, e.g. 24 or 24,20")]
    BadPoint(String),
    /// No audit point.
    #[error("no audit point: expected a number of empty squares, e.g. 24 or 24,20")]
    NoPoints,
    /// A game names a player that is not in the list.
    #[error("game {game}: player {player} is not one of the {players} players")]
    UnknownPlayer {
        /// The game, from 1.
        game: usize,
        /// The index given.
        player: usize,
        /// How many players there are.
        players: usize,
    },
    /// A game's moves do not replay.
    #[error("game {game}: {source}")]
    Replay {
        /// The game, from 1.
        game: usize,
        /// Why.
        source: ReplayError,
    },
    /// A worker's transposition table could not be allocated.
    #[error("audit: {0}")]
    Table(#[from] crate::search::tt::TableAllocError),
    /// The system would not start the workers' threads.
    #[error("audit: the workers: {0}")]
    Threads(#[from] crate::search::ThreadStartError),
    /// A solve gave a value that is not exact (a bug in the solver).
    #[error("game {game}: the solve of the position at {empties} empties is not exact")]
    NotExact {
        /// The game, from 1.
        game: usize,
        /// The position's empties.
        empties: u32,
    },
}

/// One move of an audited game, after the largest audit point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditedMove {
    /// The move number in the game, from 1 (passes not counted).
    pub number: usize,
    /// The mover.
    pub color: Color,
    /// The square played.
    pub square: Square,
    /// Empty squares before the move.
    pub empties: u32,
    /// Discs lost by the move: the exact value of the best move minus that of the move
    /// played, mover's view (0 for a best move).
    pub loss: i32,
}

/// One game, audited from the largest point it reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAudit {
    /// Black's player (an index into [`AuditReport::players`]).
    pub black: usize,
    /// White's player.
    pub white: usize,
    /// Whether the game was played to its end (only those are audited).
    pub finished: bool,
    /// Empty squares of the first audited position (`values[0]`); the positions after it
    /// have one fewer each.
    pub first_empties: u32,
    /// The exact value of each position from the first audited one to the final one, from
    /// Black's view (the final one's is the result). Empty if the game was not audited.
    pub black_values: Vec<i32>,
    /// The moves between those positions (one fewer than the values).
    pub moves: Vec<AuditedMove>,
    /// The positions solved for this game (the others' values were known, see
    /// [the module notes](self)).
    pub solves: usize,
    /// Nodes solved for this game.
    pub nodes: u64,
    /// Time spent on this game.
    pub elapsed: Duration,
}

/// What one game says at one audit point, from Black's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointGame {
    /// The exact value at the point.
    pub black_value: i32,
    /// The final result.
    pub black_final: i32,
    /// Discs lost by Black's own moves after the point, then by White's.
    pub losses: [i32; 2],
    /// Moves played after the point by Black, then by White.
    pub moves: [u32; 2],
    /// Of those, the moves that lost discs.
    pub mistakes: [u32; 2],
}

impl GameAudit {
    /// The game at the point of `empties`: `None` if it was not audited or ended before.
    pub fn at(&self, empties: u32) -> Option<PointGame> {
        if !self.finished || self.black_values.is_empty() {
            return None;
        }
        let from = self.first_empties.checked_sub(empties)? as usize;
        let black_value = *self.black_values.get(from)?;
        let black_final = *self.black_values.last()?;
        let mut point = PointGame {
            black_value,
            black_final,
            losses: [0; 2],
            moves: [0; 2],
            mistakes: [0; 2],
        };
        for m in &self.moves[from..] {
            let i = usize::from(m.color == Color::White);
            point.losses[i] += m.loss;
            point.moves[i] += 1;
            point.mistakes[i] += u32::from(m.loss > 0);
        }
        Some(point)
    }
}

/// Wins, draws and losses (by exact value at a point, or by the final result); serialized as
/// the JSON reports' `{"wins": .., "draws": .., "losses": ..}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Outcomes {
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
}

impl Outcomes {
    /// The score per game, 0 to 1 (a draw is half a point); `None` with no game.
    pub fn score(&self) -> Option<f64> {
        let games = self.wins + self.draws + self.losses;
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
    }

    fn add(&mut self, value: i32) {
        match value.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// One player's figures at one audit point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideAudit {
    /// Games audited at this point (a player that met itself counts once per colour).
    pub games: u64,
    /// Finished games that ended with more empties than the point.
    pub ended_before: u64,
    /// Games not played to the end (forfeits, records that stop early): not audited.
    pub unfinished: u64,
    /// The sum of the exact values at the point, the player's view.
    pub value_sum: i64,
    /// The sum of the final results, the player's view.
    pub final_sum: i64,
    /// The discs lost by the player's own moves after the point, summed over the games.
    pub loss_sum: i64,
    /// The player's moves after the point.
    pub moves: u64,
    /// Of those, the moves that lost discs.
    pub mistakes: u64,
    /// Outcomes by exact value at the point.
    pub at_point: Outcomes,
    /// Final outcomes.
    pub at_end: Outcomes,
    /// The outcomes had the player lost no disc after the point while the opponent's moves
    /// lost what they did: each game by its final result plus the player's own losses (an
    /// estimate: other moves would have met other replies). Perfect play after the point
    /// guarantees at least [`SideAudit::at_point`]'s outcomes.
    pub perfect: Outcomes,
    /// Games whose outcome got better for the player between the point and the end (a loss
    /// became a draw or a win, a draw a win).
    pub changed_for: u64,
    /// Games whose outcome got worse for the player.
    pub changed_against: u64,
}

impl SideAudit {
    fn per_game(&self, sum: i64) -> f64 {
        sum as f64 / self.games.max(1) as f64
    }

    /// The mean exact value at the point, in discs (0 with no game).
    pub fn mean_value(&self) -> f64 {
        self.per_game(self.value_sum)
    }

    /// The mean final result, in discs.
    pub fn mean_final(&self) -> f64 {
        self.per_game(self.final_sum)
    }

    /// The mean discs lost per game by the player's own moves after the point.
    pub fn mean_loss(&self) -> f64 {
        self.per_game(self.loss_sum)
    }

    /// The mean number of moves per game that lost discs.
    pub fn mean_mistakes(&self) -> f64 {
        self.per_game(self.mistakes as i64)
    }

    /// Adds one game seen from the player of colour `color`.
    fn add(&mut self, color: Color, p: &PointGame) {
        let (sign, i) = match color {
            Color::Black => (1, 0),
            Color::White => (-1, 1),
        };
        let (value, result) = (sign * p.black_value, sign * p.black_final);
        self.games += 1;
        self.value_sum += i64::from(value);
        self.final_sum += i64::from(result);
        self.loss_sum += i64::from(p.losses[i]);
        self.moves += u64::from(p.moves[i]);
        self.mistakes += u64::from(p.mistakes[i]);
        self.at_point.add(value);
        self.at_end.add(result);
        self.perfect.add(result + p.losses[i]);
        match result.signum().cmp(&value.signum()) {
            std::cmp::Ordering::Greater => self.changed_for += 1,
            std::cmp::Ordering::Less => self.changed_against += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
}

/// Every player's figures at one audit point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointReport {
    /// The point, in empty squares.
    pub empties: u32,
    /// One entry per player, in the order of [`AuditReport::players`].
    pub sides: Vec<SideAudit>,
}

/// The audit of a set of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditReport {
    /// The players' names, as given.
    pub players: Vec<String>,
    /// One report per point, largest first.
    pub points: Vec<PointReport>,
    /// Every game, in the order given.
    pub games: Vec<GameAudit>,
    /// Each worker's table, in MiB.
    pub hash_mb: usize,
    /// Workers used.
    pub jobs: usize,
    /// The audit's wall-clock time.
    pub elapsed: Duration,
}

impl AuditReport {
    /// The nodes solved in all.
    pub fn nodes(&self) -> u64 {
        self.games.iter().map(|g| g.nodes).sum()
    }

    /// The positions audited in all: every position from the first audited one to the last
    /// before the end.
    pub fn positions(&self) -> usize {
        self.games.iter().map(|g| g.moves.len()).sum()
    }

    /// The positions solved in all (fewer than [`AuditReport::positions`]: see
    /// [the module notes](self)).
    pub fn solves(&self) -> usize {
        self.games.iter().map(|g| g.solves).sum()
    }

    /// The per-point figures of audited games (`players` names them).
    fn point_reports(
        players: &[String],
        points: &AuditPoints,
        games: &[GameAudit],
    ) -> Vec<PointReport> {
        points
            .empties()
            .iter()
            .map(|&empties| {
                let mut sides = vec![SideAudit::default(); players.len()];
                for g in games {
                    let both = [(g.black, Color::Black), (g.white, Color::White)];
                    match g.at(empties) {
                        Some(p) => both.iter().for_each(|&(i, c)| sides[i].add(c, &p)),
                        None if !g.finished => both.iter().for_each(|&(i, _)| {
                            sides[i].unfinished += 1;
                        }),
                        None => both.iter().for_each(|&(i, _)| sides[i].ended_before += 1),
                    }
                }
                PointReport { empties, sides }
            })
            .collect()
    }
}

/// Audits `games` (see [the module notes](self)): every game solved from the largest point to
/// its end on [`AuditOptions::jobs`] workers, `eval` ordering the solver's moves.
/// `progress(done, total)` is called on the calling thread after each game.
///
/// Every game is checked first (its players, its moves): a bad one fails the audit before
/// anything is solved.
pub fn audit_games<E: Evaluator + Clone>(
    games: &[AuditGame],
    players: &[String],
    options: &AuditOptions,
    eval: &E,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<AuditReport, AuditError> {
    let start = crate::time::Instant::now();
    let audited = run_audit(games, players.len(), options, eval, progress)?;
    let points = AuditReport::point_reports(players, &options.points, &audited);
    Ok(AuditReport {
        players: players.to_vec(),
        points,
        games: audited,
        hash_mb: options.hash_mb,
        jobs: options.jobs.max(1),
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse_sort_and_name_bad_values() {
        let p: AuditPoints = "20, 24,20".parse().unwrap();
        assert_eq!(p.empties(), [24, 20]);
        assert_eq!(p.largest(), 24);
        for (text, bad) in [
            ("0", "0"),
            ("x", "x"),
            ("24,41", "41"),
            ("", ""),
            ("-3", "-3"),
        ] {
            match text.parse::<AuditPoints>() {
                Err(AuditError::BadPoint(b)) => assert_eq!(b, bad, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        let e = "x".parse::<AuditPoints>().unwrap_err().to_string();
        assert!(e.contains("\"x\"") && e.contains("1 to 40"), "{e}");
        assert_eq!(AuditPoints::new(&[]), Err(AuditError::NoPoints));
    }

    #[test]
    fn a_side_counts_outcome_changes_from_its_own_view() {
        // Black was winning by 4 at the point and lost by 2: for Black a change against, for
        // White one in its favour.
        let p = PointGame {
            black_value: 4,
            black_final: -2,
            losses: [6, 0],
            moves: [5, 5],
            mistakes: [2, 0],
        };
        let (mut black, mut white) = (SideAudit::default(), SideAudit::default());
        black.add(Color::Black, &p);
        white.add(Color::White, &p);
        assert_eq!((black.changed_for, black.changed_against), (0, 1));
        assert_eq!((white.changed_for, white.changed_against), (1, 0));
        assert_eq!((black.mean_value(), black.mean_final()), (4.0, -2.0));
        assert_eq!((white.mean_value(), white.mean_final()), (-4.0, 2.0));
        assert_eq!((black.mean_loss(), white.mean_loss()), (6.0, 0.0));
        assert_eq!(black.at_point.wins + white.at_end.wins, 2);
        // Without its 6 lost discs Black would have won by 4; White's play had no loss.
        assert_eq!((black.perfect.wins, white.perfect.wins), (1, 1));
        assert_eq!(
            (black.at_end.score(), black.perfect.score()),
            (Some(0.0), Some(1.0))
        );
        assert_eq!(SideAudit::default().perfect.score(), None);
        // A draw kept is no change.
        let draw = PointGame {
            black_value: 0,
            black_final: 0,
            ..p
        };
        let mut s = SideAudit::default();
        s.add(Color::White, &draw);
        assert_eq!(
            (s.changed_for, s.changed_against, s.at_end.draws),
            (0, 0, 1)
        );
        assert_eq!(s.perfect.score(), Some(0.5));
    }
}
