//! The errors of the game database: [`GameDbError`] says where (file, game, line) and
//! [`ErrorKind`] says what; [`ReplayError`] is the part that comes from replaying the moves.

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

use crate::board::IllegalMove;
use crate::game::GgfError;
use crate::square::Square;

/// Why a game's moves do not replay from the standard start. Plies count the listed moves from
/// 1; implicit passes are not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("illegal move {square} at ply {ply}: {reason}")]
pub struct ReplayError {
    /// The 1-based index of the move in the game's list.
    pub ply: usize,
    /// The move.
    pub square: Square,
    /// Why it cannot be played.
    pub reason: ReplayProblem,
}

/// What is wrong with a move that does not replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ReplayProblem {
    /// The board rejects it.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// Neither side can move any more.
    #[error("the game is already over")]
    GameOver,
}

/// What went wrong while reading or writing games (see [`GameDbError`] for where).
#[derive(Debug, Error)]
pub enum ErrorKind {
    /// The file could not be read, written or listed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A line of a text format is not UTF-8.
    #[error("bad UTF-8: the text formats must be UTF-8 (or ASCII)")]
    BadUtf8,
    /// The moves do not replay.
    #[error("{0}")]
    Replay(#[from] ReplayError),
    /// A WTHOR move byte is neither 0 (end) nor `10*row+column` with both in 1..=8.
    #[error("bad square byte {byte} at ply {ply}")]
    BadSquareByte {
        /// The 1-based move index.
        ply: usize,
        /// The byte.
        byte: u8,
    },
    /// A WTHOR move byte other than 0 after the end of the moves (a 0 byte).
    #[error("move byte {byte} at ply {ply} follows the end of the game")]
    MoveAfterEnd {
        /// The 1-based move index.
        ply: usize,
        /// The byte.
        byte: u8,
    },
    /// A WTHOR disc count above 64.
    #[error("bad {field} {value}: a disc count is 0..=64")]
    BadDiscCount {
        /// Which byte (`black discs` or `theoretical score`).
        field: &'static str,
        /// Its value.
        value: u8,
    },
    /// A binary file ends inside a record (or inside the header).
    #[error("truncated record: the file ends {have} bytes into a {need}-byte record")]
    Truncated {
        /// Bytes present.
        have: usize,
        /// Bytes a whole record (or header) needs.
        need: usize,
    },
    /// A binary file holds a different number of records from what its header says.
    #[error("header count mismatch: the header says {header} records, the file holds {found}")]
    HeaderCount {
        /// The count in the header.
        header: u64,
        /// The whole records in the file.
        found: u64,
    },
    /// A WTHOR header describes something this reader does not handle.
    #[error("unsupported WTHOR header: {0}")]
    Header(&'static str),
    /// A move in a text format is not a square (or a pass).
    #[error("bad move {text:?} at ply {ply}: expected a square a1..h8")]
    BadSquare {
        /// The text (shortened if long).
        text: String,
        /// The 1-based move index it would have had.
        ply: usize,
    },
    /// An explicit pass where the side to move has a legal move.
    #[error("pass at ply {ply}, but the side to move has a legal move")]
    BadPass {
        /// The 1-based index of the next move.
        ply: usize,
    },
    /// A PGN tag line that is not `[Name "value"]`.
    #[error("bad tag line {0:?}: expected [Name \"value\"]")]
    BadTag(String),
    /// A GGF game that does not read.
    #[error("GGF: {0}")]
    Ggf(#[from] GgfError),
    /// A GGF game from a position other than the standard start.
    #[error("the game starts from a position other than the standard start: not importable")]
    NotStandardStart,
    /// A format cannot hold this game.
    #[error("{0}")]
    Unwritable(&'static str),
    /// More games than a WTHOR file can count.
    #[error("{0} games do not fit in a WTHOR file")]
    TooManyGames(usize),
}

/// An error of the game database, with where it happened: the file, the 1-based game number
/// and the 1-based line (text formats), where they apply.
#[derive(Debug, Error)]
pub struct GameDbError {
    /// The file (empty when reading bytes that come from no file).
    pub path: PathBuf,
    /// The 1-based game number in the file, if the error is in a game.
    pub game: Option<usize>,
    /// The 1-based line, in the text formats.
    pub line: Option<usize>,
    /// What went wrong (shown in the message, so not also a `source`).
    pub kind: ErrorKind,
}

impl GameDbError {
    /// An error with no location yet.
    pub fn new(kind: impl Into<ErrorKind>) -> GameDbError {
        GameDbError {
            path: PathBuf::new(),
            game: None,
            line: None,
            kind: kind.into(),
        }
    }

    /// An error in game `game` (1-based).
    pub fn in_game(game: usize, kind: impl Into<ErrorKind>) -> GameDbError {
        GameDbError {
            game: Some(game),
            ..GameDbError::new(kind)
        }
    }

    /// An error in game `game` at line `line` (both 1-based).
    pub fn at_line(game: usize, line: usize, kind: impl Into<ErrorKind>) -> GameDbError {
        GameDbError {
            game: Some(game),
            line: Some(line),
            ..GameDbError::new(kind)
        }
    }

    /// The same error, located in the file `path`.
    pub fn in_file(self, path: impl Into<PathBuf>) -> GameDbError {
        GameDbError {
            path: path.into(),
            ..self
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, e: std::io::Error) -> GameDbError {
        GameDbError::new(e).in_file(path)
    }
}

impl From<crate::files::FileError> for GameDbError {
    fn from(e: crate::files::FileError) -> GameDbError {
        GameDbError::io(e.path, e.source)
    }
}

impl fmt::Display for GameDbError {
    /// `<file>: game <n>, line <l>: <problem>`, leaving out the parts that do not apply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.path.as_os_str().is_empty() {
            parts.push(self.path.display().to_string());
        }
        let mut place = Vec::new();
        if let Some(g) = self.game {
            place.push(format!("game {g}"));
        }
        if let Some(l) = self.line {
            place.push(format!("line {l}"));
        }
        if !place.is_empty() {
            parts.push(place.join(", "));
        }
        for p in parts {
            write!(f, "{p}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

/// At most this many characters of offending text are quoted in an error.
const MAX_ERROR_TEXT: usize = 24;

/// The first characters of `s`, for error messages.
pub(crate) fn clip(s: &str) -> String {
    crate::text::clip(s, MAX_ERROR_TEXT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_file_game_and_line() {
        let e = GameDbError::at_line(3, 25, ErrorKind::BadPass { ply: 7 }).in_file("a/b.pgn");
        assert_eq!(
            e.to_string(),
            "a/b.pgn: game 3, line 25: pass at ply 7, but the side to move has a legal move"
        );
        let e = GameDbError::in_game(2, ErrorKind::BadSquareByte { ply: 4, byte: 99 });
        assert_eq!(e.to_string(), "game 2: bad square byte 99 at ply 4");
        let e = GameDbError::new(ErrorKind::HeaderCount {
            header: 12,
            found: 11,
        })
        .in_file("x.wtb");
        assert_eq!(
            e.to_string(),
            "x.wtb: header count mismatch: the header says 12 records, the file holds 11"
        );
    }
}
