//! Statistics of game files (`othello games stats`): games, positions, complete games,
//! results by the replayed score, the mean game length.
//!
//! Definitions:
//! - *positions*: the positions of [`GameRecord::replay`], that is the moves plus one per
//!   game (the start, then the position after each move; a pass adds none);
//! - *complete*: the game ends with the board full or with neither side able to move; the
//!   others stopped early (by agreement, or a resignation or time loss recorded as such);
//! - *Black wins / draws / White wins*: by the sign of [`GameRecord::final_score`], the
//!   replayed final position with the empties given to the side with more discs (the recorded
//!   results are not used: some disagree with the moves).

use crate::time::Instant;
use std::io::Write;
use std::path::PathBuf;

use super::error::{GameDbError, ReplayError};
use super::record::{black_score, GameRecord};
use super::{expand_paths, read_games_with, ReadOptions};

/// The counts of a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Games.
    pub games: u64,
    /// Positions: moves plus one per game.
    pub positions: u64,
    /// Games that end with a full board or with no move for either side.
    pub complete: u64,
    /// Games Black wins on the replayed score.
    pub black_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games White wins.
    pub white_wins: u64,
    /// Moves (passes not counted).
    pub moves: u64,
}

impl GameStats {
    /// Counts one more game (replaying it).
    pub fn add(&mut self, game: &GameRecord) -> Result<(), ReplayError> {
        let last = game.final_position()?;
        self.games += 1;
        self.moves += game.moves.len() as u64;
        self.positions += game.moves.len() as u64 + 1;
        self.complete += u64::from(last.board.is_game_over());
        match black_score(&last).signum() {
            1 => self.black_wins += 1,
            0 => self.draws += 1,
            _ => self.white_wins += 1,
        }
        Ok(())
    }

    /// The counts of `games`; the error names the 0-based game index too.
    pub fn of(games: &[GameRecord]) -> Result<GameStats, (usize, ReplayError)> {
        let mut s = GameStats::default();
        for (i, g) in games.iter().enumerate() {
            s.add(g).map_err(|e| (i, e))?;
        }
        Ok(s)
    }

    /// Adds another set's counts.
    pub fn merge(&mut self, other: &GameStats) {
        self.games += other.games;
        self.positions += other.positions;
        self.complete += other.complete;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        self.white_wins += other.white_wins;
        self.moves += other.moves;
    }

    /// Mean moves per game (0 without games).
    pub fn mean_moves(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.moves as f64 / self.games as f64
        }
    }

    /// One table row, the label padded to `width` (see [`header`]).
    pub fn row(&self, label: &str, width: usize) -> String {
        format!(
            "{label:<width$} {:>8} {:>10} {:>9} {:>8} {:>6} {:>8} {:>6.2}",
            self.games,
            self.positions,
            self.complete,
            self.black_wins,
            self.draws,
            self.white_wins,
            self.mean_moves()
        )
    }
}

/// The header of the table [`GameStats::row`] fills, the first column `width` wide.
pub fn header(width: usize) -> String {
    format!(
        "{:<width$} {:>8} {:>10} {:>9} {:>8} {:>6} {:>8} {:>6}",
        "file", "games", "positions", "complete", "black", "draws", "white", "moves"
    )
}

/// `othello games stats`: reads every file of `paths` (directories expanded), prints a row
/// per file as it is read, a total row and the time taken. Returns the totals.
pub fn run_stats(
    paths: &[PathBuf],
    options: &ReadOptions,
    out: &mut impl Write,
) -> Result<GameStats, GameDbError> {
    let start = Instant::now();
    let files = expand_paths(paths)?;
    let io = |e| GameDbError::new(super::ErrorKind::Io(e));
    let labels: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let total_label = format!("total ({} files)", files.len());
    let width = labels
        .iter()
        .map(|l| l.chars().count())
        .chain([total_label.len()])
        .max()
        .unwrap_or(0);
    writeln!(out, "{}", header(width)).map_err(io)?;
    let mut total = GameStats::default();
    for (path, label) in files.iter().zip(&labels) {
        let games = read_games_with(path, options)?;
        let s =
            GameStats::of(&games).map_err(|(i, e)| GameDbError::in_game(i + 1, e).in_file(path))?;
        writeln!(out, "{}", s.row(label, width)).map_err(io)?;
        total.merge(&s);
    }
    writeln!(out, "{}", total.row(&total_label, width)).map_err(io)?;
    writeln!(
        out,
        "(black/draws/white: results by the replayed final score; moves: mean per game)\n\
         read and replayed in {:.2} s",
        start.elapsed().as_secs_f64()
    )
    .map_err(io)?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_two_short_games() {
        let wipeout = GameRecord::from_moves(
            "d3c3b3d2e1d6d7e3f4"
                .as_bytes()
                .chunks(2)
                .map(|c| std::str::from_utf8(c).unwrap().parse().unwrap())
                .collect(),
        );
        let opening = GameRecord::from_moves(vec![crate::square::Square::F5]);
        let s = GameStats::of(&[wipeout, opening]).unwrap();
        assert_eq!(
            s,
            GameStats {
                games: 2,
                positions: 12,
                complete: 1,
                black_wins: 2,
                draws: 0,
                white_wins: 0,
                moves: 10,
            }
        );
        assert_eq!(s.mean_moves(), 5.0);
        assert_eq!(header(5).len(), s.row("x", 5).len());
    }
}
