//! The WTHOR binary formats of the Fédération Française d'Othello: game files (`.wtb`) and the
//! name files `WTHOR.JOU` (players) and `WTHOR.TRN` (tournaments).
//!
//! Every file starts with the same 16-byte header; integers are little-endian:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 1 | century of the file's creation (20) |
//! | 1 | 1 | year within the century (25 for 2025) |
//! | 2 | 1 | month (1-12) |
//! | 3 | 1 | day (1-31) |
//! | 4 | 4 | number of games (`.wtb`; 0 in the name files) |
//! | 8 | 2 | number of names (`.JOU`, `.TRN`; 0 in `.wtb`) |
//! | 10 | 2 | the year of the games (`.wtb`) |
//! | 12 | 1 | board size: 8 (or 0, meaning 8); 10 is the 10x10 variant, refused |
//! | 13 | 1 | game type: 0 normal games, 1 solitaires (kept as games) |
//! | 14 | 1 | depth of the theoretical score (24 in the FFO's files) |
//! | 15 | 1 | reserved |
//!
//! A `.wtb` game is 68 bytes:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 2 | tournament number (index into `WTHOR.TRN`) |
//! | 2 | 2 | Black's player number (index into `WTHOR.JOU`) |
//! | 4 | 2 | White's player number |
//! | 6 | 1 | Black's discs at the end (empties to the winner) |
//! | 7 | 1 | the theoretical score: Black's discs with perfect play from `depth` empties |
//! | 8 | 60 | the moves, `10 * row + column` (both 1-8, so a1 = 11, h8 = 88), 0 after the last |
//!
//! Passes are not written (see [`GameRecord`]). A game read from a `.wtb` gets the header's
//! year as its date and `<tournament> - <year>` as its event, as in the published PGN
//! conversion of the database, so that both give equal games. A name record is 20 bytes in
//! `WTHOR.JOU` and 26 in `WTHOR.TRN`: the name in Latin-1, padded with NUL bytes. The readers
//! check the header count against the file's length, every move byte, and the replay of every
//! game.

use std::path::{Path, PathBuf};

use crate::square::Square;

use super::error::{ErrorKind, GameDbError};
use super::record::{GameRecord, Replayer, WthorIds};

/// Bytes of the header of every WTHOR file.
pub const HEADER_LEN: usize = 16;
/// Bytes of one game in a `.wtb` file.
pub const GAME_LEN: usize = 68;
/// Bytes of one name in `WTHOR.JOU`.
pub const PLAYER_LEN: usize = 20;
/// Bytes of one name in `WTHOR.TRN`.
pub const TOURNAMENT_LEN: usize = 26;
/// Move bytes per game.
const MOVE_BYTES: usize = 60;

/// The names a `.wtb` file's numbers refer to. A number without a name (a missing file, or a
/// number past its end) is shown as `#<number>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WthorNames {
    /// Player names by number (`WTHOR.JOU`).
    pub players: Vec<String>,
    /// Tournament names by number (`WTHOR.TRN`).
    pub tournaments: Vec<String>,
}

impl WthorNames {
    /// Player `n`'s name, or `#n`.
    pub fn player(&self, n: u16) -> String {
        lookup(&self.players, n)
    }

    /// Tournament `n`'s name, or `#n`.
    pub fn tournament(&self, n: u16) -> String {
        lookup(&self.tournaments, n)
    }
}

fn lookup(names: &[String], n: u16) -> String {
    names
        .get(usize::from(n))
        .cloned()
        .unwrap_or_else(|| format!("#{n}"))
}

/// The header's 16 bytes, checked for length only.
fn header(bytes: &[u8]) -> Result<&[u8; HEADER_LEN], GameDbError> {
    bytes
        .get(..HEADER_LEN)
        .map(|h| h.try_into().expect("16 bytes"))
        .ok_or_else(|| {
            GameDbError::new(ErrorKind::Truncated {
                have: bytes.len(),
                need: HEADER_LEN,
            })
        })
}

/// Reads the names of a `WTHOR.JOU` (`record_len` 20) or `WTHOR.TRN` (26) file's bytes.
pub fn parse_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, GameDbError> {
    let h = header(bytes)?;
    let count = u64::from(u16::from_le_bytes([h[8], h[9]]));
    let body = &bytes[HEADER_LEN..];
    check_count(body.len(), record_len, count, None)?;
    Ok(body.chunks_exact(record_len).map(latin1_name).collect())
}

/// The text of a NUL-padded Latin-1 field.
fn latin1_name(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    // Latin-1 maps each byte to the code point of the same value.
    let name: String = field[..end].iter().map(|&b| char::from(b)).collect();
    name.trim_end().to_string()
}

/// Checks that `body_len` bytes are exactly `count` records of `record_len` bytes. A partial
/// record is reported in the game that it would have been when `games` is set.
fn check_count(
    body_len: usize,
    record_len: usize,
    count: u64,
    games: Option<()>,
) -> Result<(), GameDbError> {
    let whole = body_len / record_len;
    let part = body_len % record_len;
    if part != 0 {
        let kind = ErrorKind::Truncated {
            have: part,
            need: record_len,
        };
        return Err(match games {
            Some(()) => GameDbError::in_game(whole + 1, kind),
            None => GameDbError::new(kind),
        });
    }
    if whole as u64 != count {
        return Err(GameDbError::new(ErrorKind::HeaderCount {
            header: count,
            found: whole as u64,
        }));
    }
    Ok(())
}

/// Reads a `.wtb` file's bytes; the numbers are named from `names`. Each game's date is the
/// header's year and its event `<tournament name> - <year>` (as the published PGN conversion
/// of the database names it; the name alone if the year is 0).
pub fn parse_wtb(bytes: &[u8], names: &WthorNames) -> Result<Vec<GameRecord>, GameDbError> {
    let h = header(bytes)?;
    match h[12] {
        0 | 8 => {}
        10 => return Err(GameDbError::new(ErrorKind::Header("10x10 games"))),
        _ => return Err(GameDbError::new(ErrorKind::Header("board size not 8"))),
    }
    let count = u32::from_le_bytes([h[4], h[5], h[6], h[7]]);
    let year = u16::from_le_bytes([h[10], h[11]]);
    let body = &bytes[HEADER_LEN..];
    check_count(body.len(), GAME_LEN, u64::from(count), Some(()))?;
    let date = if year == 0 {
        String::new()
    } else {
        year.to_string()
    };
    body.chunks_exact(GAME_LEN)
        .enumerate()
        .map(|(i, rec)| {
            parse_game(rec.try_into().expect("68 bytes"), names, &date)
                .map_err(|kind| GameDbError::in_game(i + 1, kind))
        })
        .collect()
}

/// One 68-byte game record.
fn parse_game(
    rec: &[u8; GAME_LEN],
    names: &WthorNames,
    date: &str,
) -> Result<GameRecord, ErrorKind> {
    let word = |at: usize| u16::from_le_bytes([rec[at], rec[at + 1]]);
    let ids = WthorIds {
        tournament: word(0),
        black: word(2),
        white: word(4),
    };
    let disc = |field, value: u8| {
        if value <= 64 {
            Ok(value)
        } else {
            Err(ErrorKind::BadDiscCount { field, value })
        }
    };
    let black_discs = disc("black discs", rec[6])?;
    let theoretical = disc("theoretical score", rec[7])?;
    let mut moves = Vec::with_capacity(MOVE_BYTES);
    let mut replay = Replayer::new();
    let bytes = &rec[8..];
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(MOVE_BYTES);
    for (i, &byte) in bytes.iter().enumerate() {
        let ply = i + 1;
        if i >= end {
            if byte != 0 {
                return Err(ErrorKind::MoveAfterEnd { ply, byte });
            }
            continue;
        }
        let sq = Square::from_paip(i64::from(byte))
            .map_err(|_| ErrorKind::BadSquareByte { ply, byte })?;
        replay.play(sq)?;
        moves.push(sq);
    }
    Ok(GameRecord {
        moves,
        black: names.player(ids.black),
        white: names.player(ids.white),
        event: if date.is_empty() {
            names.tournament(ids.tournament)
        } else {
            format!("{} - {date}", names.tournament(ids.tournament))
        },
        date: date.to_string(),
        black_discs: Some(black_discs),
        theoretical: Some(theoretical),
        wthor: Some(ids),
    })
}

/// Writes games as a `.wtb` file: the header dated `created` (year, month, day), the year of
/// the first game that has one (0 if none), board size 8, game type 0, depth 0 (this program
/// computes no theoretical scores).
///
/// Per game: the tournament and player numbers of a game read from a `.wtb` ([`WthorIds`]),
/// otherwise 0; Black's discs from the recorded result, otherwise from the replay; the
/// theoretical score if known, otherwise the same as Black's discs.
pub fn write_wtb(games: &[GameRecord], created: (u16, u8, u8)) -> Result<Vec<u8>, GameDbError> {
    let count = u32::try_from(games.len())
        .map_err(|_| GameDbError::new(ErrorKind::TooManyGames(games.len())))?;
    let year = games.iter().find_map(GameRecord::year).unwrap_or(0);
    let mut out = Vec::with_capacity(HEADER_LEN + games.len() * GAME_LEN);
    let (c_year, month, day) = created;
    out.extend_from_slice(&[(c_year / 100) as u8, (c_year % 100) as u8, month, day]);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&year.to_le_bytes());
    out.extend_from_slice(&[8, 0, 0, 0]);
    for (i, game) in games.iter().enumerate() {
        let located = |kind| GameDbError::in_game(i + 1, kind);
        let black = match game.black_discs {
            Some(b) => b,
            None => game.final_black_discs().map_err(|e| located(e.into()))?,
        };
        if black > 64 {
            return Err(located(ErrorKind::BadDiscCount {
                field: "black discs",
                value: black,
            }));
        }
        // Check the moves even when the result is recorded: a .wtb holds legal games only, and
        // a legal game has at most 60 moves.
        game.final_position().map_err(|e| located(e.into()))?;
        debug_assert!(game.moves.len() <= MOVE_BYTES);
        let ids = game.wthor.unwrap_or_default();
        out.extend_from_slice(&ids.tournament.to_le_bytes());
        out.extend_from_slice(&ids.black.to_le_bytes());
        out.extend_from_slice(&ids.white.to_le_bytes());
        out.push(black);
        out.push(game.theoretical.filter(|&t| t <= 64).unwrap_or(black));
        let mut moves = [0u8; MOVE_BYTES];
        for (b, sq) in moves.iter_mut().zip(&game.moves) {
            *b = sq.paip() as u8;
        }
        out.extend_from_slice(&moves);
    }
    Ok(out)
}

/// The name files next to `wtb`: the files of its directory named `WTHOR.JOU` and
/// `WTHOR.TRN` in any case, if present.
pub fn names_beside(wtb: &Path) -> (Option<PathBuf>, Option<PathBuf>) {
    let dir = match wtb.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (mut players, mut tournaments) = (None, None);
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_ascii_uppercase();
            if name == "WTHOR.JOU" {
                players = Some(entry.path());
            } else if name == "WTHOR.TRN" {
                tournaments = Some(entry.path());
            }
        }
    }
    (players, tournaments)
}

/// Reads the name files (either may be absent: its numbers stay numbers).
pub fn read_names(
    players: Option<&Path>,
    tournaments: Option<&Path>,
) -> Result<WthorNames, GameDbError> {
    let read = |path: Option<&Path>, len| -> Result<Vec<String>, GameDbError> {
        match path {
            None => Ok(Vec::new()),
            Some(p) => {
                let bytes = crate::files::read(p, crate::files::GAMES_MAX_BYTES)?;
                parse_names(&bytes, len).map_err(|e| e.in_file(p))
            }
        }
    };
    Ok(WthorNames {
        players: read(players, PLAYER_LEN)?,
        tournaments: read(tournaments, TOURNAMENT_LEN)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_game(moves: &[u8]) -> Vec<u8> {
        let mut b = vec![20, 25, 1, 2, 1, 0, 0, 0, 0, 0, 0xe9, 0x07, 8, 0, 24, 0];
        b.extend_from_slice(&[1, 0, 2, 0, 3, 0, 40, 40]);
        let mut m = [0u8; 60];
        m[..moves.len()].copy_from_slice(moves);
        b.extend_from_slice(&m);
        b
    }

    #[test]
    fn a_record_reads_with_numbers_for_missing_names() {
        let games = parse_wtb(&one_game(&[56, 64, 33]), &WthorNames::default()).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.moves, [Square::F5, Square::D6, Square::C3]);
        assert_eq!((g.black.as_str(), g.white.as_str()), ("#2", "#3"));
        assert_eq!(g.event, "#1 - 2025");
        assert_eq!(g.date, "2025");
        assert_eq!((g.black_discs, g.theoretical), (Some(40), Some(40)));
    }

    #[test]
    fn bad_bytes_are_located_errors() {
        let e = parse_wtb(&one_game(&[56, 99]), &WthorNames::default()).unwrap_err();
        assert_eq!(e.game, Some(1));
        assert!(matches!(
            e.kind,
            ErrorKind::BadSquareByte { ply: 2, byte: 99 }
        ));
        let e = parse_wtb(&one_game(&[56, 0, 64]), &WthorNames::default()).unwrap_err();
        assert!(matches!(
            e.kind,
            ErrorKind::MoveAfterEnd { ply: 3, byte: 64 }
        ));
        let e = parse_wtb(&one_game(&[11]), &WthorNames::default()).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Replay(r) if r.ply == 1));
        let bytes = one_game(&[56]);
        let e = parse_wtb(&bytes[..bytes.len() - 1], &WthorNames::default()).unwrap_err();
        assert_eq!(e.game, Some(1));
        assert!(matches!(
            e.kind,
            ErrorKind::Truncated { have: 67, need: 68 }
        ));
        let e = parse_wtb(&bytes[..HEADER_LEN], &WthorNames::default()).unwrap_err();
        assert!(matches!(
            e.kind,
            ErrorKind::HeaderCount {
                header: 1,
                found: 0
            }
        ));
        assert!(parse_wtb(&bytes[..5], &WthorNames::default()).is_err());
    }

    #[test]
    fn written_games_read_back() {
        let names = WthorNames::default();
        let games = parse_wtb(&one_game(&[56, 64, 33]), &names).unwrap();
        let bytes = write_wtb(&games, (2026, 1, 31)).unwrap();
        assert_eq!(&bytes[..4], &[20, 26, 1, 31]);
        assert_eq!(&bytes[16..24], &one_game(&[56, 64, 33])[16..24]);
        assert_eq!(parse_wtb(&bytes, &names).unwrap(), games);
    }

    #[test]
    fn names_are_latin1_and_nul_padded() {
        let mut b = vec![20, 25, 1, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
        let mut rec = [0u8; PLAYER_LEN];
        rec[..3].copy_from_slice(b"Pr\xe9");
        b.extend_from_slice(&rec);
        b.extend_from_slice(&[b'x'; PLAYER_LEN]);
        let names = parse_names(&b, PLAYER_LEN).unwrap();
        assert_eq!(names, ["Pré", "xxxxxxxxxxxxxxxxxxxx"]);
        assert!(parse_names(&b[..30], PLAYER_LEN).is_err());
    }
}
