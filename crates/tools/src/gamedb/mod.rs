//! Game databases: reading and writing whole files of games in the WTHOR binary format
//! (`.wtb`, with the `WTHOR.JOU`/`WTHOR.TRN` name files), Othello PGN (`.pgn`), GGF (`.ggf`)
//! and plain move transcripts (`.txt` and anything else); statistics and the export of the
//! distinct positions of the games.
//!
//! Every game is a [`GameRecord`]: the moves from the standard start with passes implicit (the
//! side that must pass is skipped), the names, the event, the date and the recorded results.
//! Every reader replays every game and fails with a [`GameDbError`] naming the file, the game
//! number and (text formats) the line; no reader panics, whatever the bytes. Writers build the
//! whole file in memory, write it to a temporary file in the same directory and rename it over
//! the output, so an error or a crash never leaves a half-written output.
//!
//! The formats and the commands built on this module (`othello games ...`) are described in
//! `docs/GAMES.md`.
//!
//! Read the same 1977 tournament from its WTHOR binary and its PGN export (both in
//! `tests/data/wthor/` of the repository) and check they agree:
//!
//! ```
//! use othello_tools::gamedb::read_games;
//! use std::path::Path;
//!
//! let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/wthor");
//! // Player and tournament names come from WTHOR.JOU and WTHOR.TRN beside the file.
//! let wtb = read_games(&dir.join("WTH_1977.wtb"), None)?;
//! let pgn = read_games(&dir.join("WTH_1977.pgn"), None)?;
//! assert!(!wtb.is_empty());
//! assert_eq!(wtb.len(), pgn.len());
//! for (a, b) in wtb.iter().zip(&pgn) {
//!     let positions = a.replay()?; // checked: the readers already replayed it
//!     assert_eq!(positions.len(), b.replay()?.len());
//!     assert_eq!(a.final_score()?, b.final_score()?);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

mod error;
pub mod export;
pub mod ggf;
pub mod pgn;
mod record;
pub mod stats;
pub mod transcript;
pub mod wthor;

pub use error::{ErrorKind, GameDbError, ReplayError, ReplayProblem};
pub use record::{GameRecord, WthorIds};
pub use wthor::WthorNames;

/// A game file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// WTHOR binary games (`.wtb`).
    Wtb,
    /// Othello PGN (`.pgn`).
    Pgn,
    /// GGF, one game per line (`.ggf`).
    Ggf,
    /// Move transcripts, one game per line (`.txt` and any other extension).
    Txt,
}

impl Format {
    /// All formats, in the order of [`Format::EXTENSIONS`].
    pub const ALL: [Format; 4] = [Format::Wtb, Format::Pgn, Format::Ggf, Format::Txt];

    /// The extensions a directory is searched for (any case), one per format.
    pub const EXTENSIONS: [&'static str; 4] = ["wtb", "pgn", "ggf", "txt"];

    /// The format a file name implies: by extension, any case; a transcript if none matches.
    pub fn from_path(path: &Path) -> Format {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        Format::ALL
            .into_iter()
            .zip(Format::EXTENSIONS)
            .find(|&(_, e)| e == ext)
            .map_or(Format::Txt, |(f, _)| f)
    }

    /// The extension of this format (`wtb`, `pgn`, `ggf`, `txt`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Wtb => "wtb",
            Format::Pgn => "pgn",
            Format::Ggf => "ggf",
            Format::Txt => "txt",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

/// A format name that is not one of `wtb`, `pgn`, `ggf`, `txt`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game format {0:?}: expected wtb, pgn, ggf or txt")]
pub struct ParseFormatError(pub String);

impl FromStr for Format {
    type Err = ParseFormatError;

    /// `wtb`, `pgn`, `ggf`, `txt` (any case; `transcript` is `txt` too).
    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "wtb" | "wthor" => Ok(Format::Wtb),
            "pgn" => Ok(Format::Pgn),
            "ggf" => Ok(Format::Ggf),
            "txt" | "transcript" => Ok(Format::Txt),
            _ => Err(ParseFormatError(s.to_string())),
        }
    }
}

/// How files are read: the format (default: from each file's extension) and where the WTHOR
/// names come from (default: `WTHOR.JOU` and `WTHOR.TRN` beside each `.wtb` file).
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Read every file in this format instead of the one its extension implies.
    pub format: Option<Format>,
    /// The players file (`WTHOR.JOU`) for `.wtb` files.
    pub players: Option<PathBuf>,
    /// The tournaments file (`WTHOR.TRN`) for `.wtb` files.
    pub tournaments: Option<PathBuf>,
}

/// Reads the games of a file's bytes, in a known format; `names` names the numbers of a `.wtb`.
/// Errors carry the game and line but no path. This is what the file readers and the fuzz
/// targets call.
pub fn parse_games(
    bytes: &[u8],
    format: Format,
    names: &WthorNames,
) -> Result<Vec<GameRecord>, GameDbError> {
    match format {
        Format::Wtb => wthor::parse_wtb(bytes, names),
        Format::Pgn => pgn::parse_pgn(bytes),
        Format::Ggf => ggf::parse_ggf(bytes),
        Format::Txt => transcript::parse_transcript(bytes),
    }
}

/// Reads every game of one file, in `format` or the one its extension implies. A `.wtb`
/// file's player and tournament names come from `WTHOR.JOU` and `WTHOR.TRN` in its directory
/// if they are there (otherwise they stay numbers, `#12`).
pub fn read_games(path: &Path, format: Option<Format>) -> Result<Vec<GameRecord>, GameDbError> {
    read_games_with(
        path,
        &ReadOptions {
            format,
            ..ReadOptions::default()
        },
    )
}

/// [`read_games`] with every option.
pub fn read_games_with(path: &Path, options: &ReadOptions) -> Result<Vec<GameRecord>, GameDbError> {
    let format = options.format.unwrap_or_else(|| Format::from_path(path));
    let bytes = crate::files::read(path, crate::files::GAMES_MAX_BYTES)?;
    let names = if format == Format::Wtb {
        let (players, tournaments) = wthor::names_beside(path);
        wthor::read_names(
            options.players.as_deref().or(players.as_deref()),
            options.tournaments.as_deref().or(tournaments.as_deref()),
        )?
    } else {
        WthorNames::default()
    };
    parse_games(&bytes, format, &names).map_err(|e| e.in_file(path))
}

/// Reads every file of `paths`, directories expanded ([`expand_paths`]), each with
/// [`read_games`]; the games of each file with its path, in order.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Vec<GameRecord>)>, GameDbError> {
    read_all_with(paths, &ReadOptions::default())
}

/// [`read_all`] with every option.
pub fn read_all_with(
    paths: &[PathBuf],
    options: &ReadOptions,
) -> Result<Vec<(PathBuf, Vec<GameRecord>)>, GameDbError> {
    expand_paths(paths)?
        .into_iter()
        .map(|p| read_games_with(&p, options).map(|games| (p, games)))
        .collect()
}

/// The files `paths` name: a file stands for itself (whatever its extension); a directory
/// for the files directly in it with a supported extension (`.wtb`, `.pgn`, `.ggf`, `.txt`,
/// any case), sorted by name. Subdirectories are not searched.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, GameDbError> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| GameDbError::io(path, e))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found = Vec::new();
        for entry in std::fs::read_dir(path).map_err(|e| GameDbError::io(path, e))? {
            let entry = entry.map_err(|e| GameDbError::io(path, e))?;
            let p = entry.path();
            let supported = p.extension().is_some_and(|e| {
                let e = e.to_string_lossy().to_ascii_lowercase();
                Format::EXTENSIONS.contains(&e.as_str())
            });
            if supported && p.is_file() {
                found.push(p);
            }
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// The bytes of `games` written in `format`. A `.wtb` header is dated today (UTC).
pub fn games_to_bytes(games: &[GameRecord], format: Format) -> Result<Vec<u8>, GameDbError> {
    Ok(match format {
        Format::Wtb => wthor::write_wtb(games, today())?,
        Format::Pgn => pgn::write_pgn(games).into_bytes(),
        Format::Ggf => ggf::write_ggf(games)?.into_bytes(),
        Format::Txt => transcript::write_transcript(games)?.into_bytes(),
    })
}

/// Writes `games` to `path` in `format` (see [`games_to_bytes`]), atomically
/// ([`write_atomically`]).
pub fn write_games(path: &Path, format: Format, games: &[GameRecord]) -> Result<(), GameDbError> {
    let bytes = games_to_bytes(games, format).map_err(|e| e.in_file(path))?;
    write_atomically(path, &bytes)
}

/// Writes `bytes` to `path` atomically, by the program's file policy
/// ([`crate::files::write_atomically`]): a temporary file beside the target, flushed to disk and
/// renamed; a target that is not a regular file is refused, a symbolic link is followed. On an
/// error the temporary file is removed and `path` is left as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), GameDbError> {
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomically`], the content written by `write` through a buffered writer (for
/// outputs too large to build in memory first).
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), GameDbError> {
    crate::files::write_atomically_with(path, write).map_err(GameDbError::from)
}

/// `othello games convert`: reads every game of `paths` (directories expanded) and writes them
/// all, in order, to `out_path` in `to` (default: the format `out_path`'s extension implies).
/// Returns the number of files read and of games written.
pub fn convert(
    paths: &[PathBuf],
    options: &ReadOptions,
    to: Option<Format>,
    out_path: &Path,
) -> Result<(usize, usize), GameDbError> {
    let paths = expand_paths(paths)?;
    let inputs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    crate::files::check_output(out_path, &inputs)?;
    let files = read_all_with(&paths, options)?;
    let games: Vec<GameRecord> = files.iter().flat_map(|(_, g)| g.iter().cloned()).collect();
    let format = to.unwrap_or_else(|| Format::from_path(out_path));
    write_games(out_path, format, &games)?;
    Ok((files.len(), games.len()))
}

/// Today's UTC date (year, month, day), from the system clock.
fn today() -> (u16, u8, u8) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
pub fn civil_from_days(days: i64) -> (u16, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as u16, month as u8, day as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_come_from_extensions_and_names() {
        assert_eq!(Format::from_path(Path::new("a/WTH_1977.WTB")), Format::Wtb);
        assert_eq!(Format::from_path(Path::new("x.pgn")), Format::Pgn);
        assert_eq!(Format::from_path(Path::new("x.ggf")), Format::Ggf);
        assert_eq!(Format::from_path(Path::new("x.games")), Format::Txt);
        assert_eq!(Format::from_path(Path::new("noext")), Format::Txt);
        assert_eq!("PGN".parse(), Ok(Format::Pgn));
        assert!("obf".parse::<Format>().is_err());
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
