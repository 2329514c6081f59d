//! The distinct positions of a set of games (`othello games export`), for labelling and
//! training.
//!
//! The positions of each game are those of [`GameRecord::replay`]; kept are the ones whose
//! side to move has a legal move (so no game-over position) and whose number of empty squares
//! is in the range asked for. Two positions are the same when a rotation or reflection of the
//! board ([`Board::canonical`]) maps one onto the other, the discs taken relative to the side
//! to move: Black to move on some discs is the same position as White to move on the same
//! discs with the colours swapped. The first occurrence is kept, in the order of the files,
//! the games and the moves.
//!
//! Output is one position per line, as an OBF line ([`ObfEntry`] without scores) or a board
//! string ([`Position::to_board_string`]): 64 squares `X`/`O`/`-` from a1 to h8, a space and the
//! side to move. Without scores the two are the same text.

use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::board::{Board, Position};
use crate::obf::ObfEntry;

use super::error::{GameDbError, ReplayError};
use super::record::GameRecord;
use super::{read_all_with, write_atomically_with, ReadOptions};

/// How exported positions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ExportFormat {
    /// OBF lines without move scores.
    #[default]
    Obf,
    /// Board strings.
    Board,
}

impl FromStr for ExportFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<ExportFormat, String> {
        match s {
            "obf" => Ok(ExportFormat::Obf),
            "board" => Ok(ExportFormat::Board),
            _ => Err(format!(
                "unknown position format {s:?}: expected obf or board"
            )),
        }
    }
}

impl ExportFormat {
    /// One position's line, without the newline.
    pub fn line(self, pos: Position) -> String {
        match self {
            ExportFormat::Obf => ObfEntry::new(pos).to_string(),
            ExportFormat::Board => pos.to_board_string(),
        }
    }
}

/// A range of empty-square counts, `MIN..MAX` (both included); either end may be left out
/// (`..20`, `40..`), and `N` alone is `N..N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptiesRange(pub RangeInclusive<u32>);

impl Default for EmptiesRange {
    /// Every position: `0..60`.
    fn default() -> EmptiesRange {
        EmptiesRange(0..=60)
    }
}

impl FromStr for EmptiesRange {
    type Err = String;

    fn from_str(s: &str) -> Result<EmptiesRange, String> {
        let number = |t: &str, default: u32| -> Result<u32, String> {
            let t = t.trim();
            if t.is_empty() {
                return Ok(default);
            }
            t.parse::<u32>()
                .ok()
                .filter(|&n| n <= 60)
                .ok_or_else(|| format!("bad number of empties {t:?}: expected 0..=60"))
        };
        let (min, max) = match s.split_once("..") {
            Some((a, b)) => (number(a, 0)?, number(b.trim_start_matches('='), 60)?),
            None => {
                let n = number(s, 0)?;
                (n, n)
            }
        };
        if min > max {
            return Err(format!("empty range {s:?}: MIN is above MAX"));
        }
        Ok(EmptiesRange(min..=max))
    }
}

impl fmt::Display for EmptiesRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.0.start(), self.0.end())
    }
}

/// Collects distinct positions across games (see the module docs).
#[derive(Debug, Default)]
pub struct PositionSet {
    seen: HashSet<Board>,
    /// The kept positions, in order of first occurrence.
    pub positions: Vec<Position>,
    /// Positions looked at (in range, side to move with a move), duplicates included.
    pub considered: u64,
}

impl PositionSet {
    /// An empty set.
    pub fn new() -> PositionSet {
        PositionSet::default()
    }

    /// Adds the positions of `game` whose empties are in `empties`.
    pub fn add_game(
        &mut self,
        game: &GameRecord,
        empties: &RangeInclusive<u32>,
    ) -> Result<(), ReplayError> {
        for pos in game.replay()? {
            if pos.board.moves() == 0 || !empties.contains(&pos.board.empty_count()) {
                continue;
            }
            self.considered += 1;
            if self.seen.insert(pos.board.canonical()) {
                self.positions.push(pos);
            }
        }
        Ok(())
    }
}

/// The distinct positions of `games` with a number of empties in `empties`.
pub fn distinct_positions<'a>(
    games: impl IntoIterator<Item = &'a GameRecord>,
    empties: &RangeInclusive<u32>,
) -> Result<Vec<Position>, ReplayError> {
    let mut set = PositionSet::new();
    for g in games {
        set.add_game(g, empties)?;
    }
    Ok(set.positions)
}

/// What [`run_export`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportSummary {
    /// Games read.
    pub games: u64,
    /// Positions in range with a move for the side to move, duplicates included.
    pub considered: u64,
    /// Distinct positions written.
    pub written: u64,
}

/// `othello games export`: reads the games of `paths`, writes their distinct positions to
/// `out_path` (atomically) and a one-line summary to `out`.
pub fn run_export(
    paths: &[PathBuf],
    options: &ReadOptions,
    empties: &EmptiesRange,
    format: ExportFormat,
    out_path: &Path,
    out: &mut impl Write,
) -> Result<ExportSummary, GameDbError> {
    let paths = super::expand_paths(paths)?;
    let inputs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    crate::files::check_output(out_path, &inputs)?;
    let mut set = PositionSet::new();
    let mut games = 0u64;
    for (path, file_games) in read_all_with(&paths, options)? {
        for (i, g) in file_games.iter().enumerate() {
            set.add_game(g, &empties.0)
                .map_err(|e| GameDbError::in_game(i + 1, e).in_file(&path))?;
        }
        games += file_games.len() as u64;
    }
    write_atomically_with(out_path, |w| {
        for &pos in &set.positions {
            writeln!(w, "{}", format.line(pos))?;
        }
        Ok(())
    })?;
    let summary = ExportSummary {
        games,
        considered: set.considered,
        written: set.positions.len() as u64,
    };
    writeln!(
        out,
        "{}: {} distinct positions written ({} positions with {} empties in {} games)",
        out_path.display(),
        summary.written,
        summary.considered,
        empties,
        summary.games
    )
    .map_err(|e| GameDbError::io(out_path, e))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn ranges_parse() {
        assert_eq!("20..30".parse(), Ok(EmptiesRange(20..=30)));
        assert_eq!("..=12".parse(), Ok(EmptiesRange(0..=12)));
        assert_eq!("40..".parse(), Ok(EmptiesRange(40..=60)));
        assert_eq!("7".parse(), Ok(EmptiesRange(7..=7)));
        assert!("30..20".parse::<EmptiesRange>().is_err());
        assert!("61".parse::<EmptiesRange>().is_err());
        assert!("a..b".parse::<EmptiesRange>().is_err());
    }

    #[test]
    fn symmetric_openings_count_once() {
        // f5 and d3 are mirror images; f5 d6 and d3 c5 too (reflection in the a8-h1 diagonal).
        let a = GameRecord::from_moves(vec![Square::F5, Square::D6]);
        let b = GameRecord::from_moves(vec![Square::D3, Square::C5]);
        let all = distinct_positions([&a, &b], &(0..=60)).unwrap();
        assert_eq!(all.len(), 3); // the start, after one move, after two
        assert_eq!(all[1], a.replay().unwrap()[1]);
        let only = distinct_positions([&a, &b], &(59..=59)).unwrap();
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].board.empty_count(), 59);
    }
}
