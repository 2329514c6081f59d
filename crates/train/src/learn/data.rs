//! The training-data file written by `othello selfplay` and read by `othello train`.
//!
//! A file is a 32-byte header followed by 24-byte records, all integers little-endian:
//!
//! Header:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | magic `OthData1` ([`DATA_MAGIC`]) |
//! | 8 | 2 | format version, 1 ([`DATA_VERSION`]) |
//! | 10 | 2 | record size, 24 ([`RECORD_LEN`]) |
//! | 12 | 4 | reserved, 0 |
//! | 16 | 8 | run seed: game `i` was played from seed `mix(seed, i)` ([`crate::rng::mix`]) |
//! | 24 | 8 | reserved, 0 |
//!
//! Record (one position):
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | discs of the side to move (bit `i` = square `i`, a1 = 0) |
//! | 8 | 8 | discs of the other side |
//! | 16 | 4 | game index |
//! | 20 | 2 | label, `i16`: the position's value for the side to move, in centi-discs |
//! | 22 | 1 | colour to move: 0 Black, 1 White |
//! | 23 | 1 | flags: bits 0-1 the label kind ([`LabelKind`]); bit 7 set on the last record of a game; other bits 0 |
//!
//! The records of one game are consecutive and written with one write, after the game is
//! finished; the last one has bit 7 set. A file cut short by a crash therefore ends, at worst,
//! with an incomplete game (no record with bit 7), which [`open_for_append`] cuts off before
//! resuming and [`read_records`] skips.

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::board::{Board, Color};
use crate::discs::CentiDiscs;

use super::LearnError;

/// The first eight bytes of a data file.
pub const DATA_MAGIC: [u8; 8] = *b"OthData1";
/// The data format version.
pub const DATA_VERSION: u16 = 1;
/// Size of the header.
pub const DATA_HEADER_LEN: usize = 32;
/// Size of one record.
pub const RECORD_LEN: usize = 24;
const LAST_FLAG: u8 = 0x80;

/// Where a record's label comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    /// The exact final disc difference under perfect play (an endgame solve).
    Exact = 0,
    /// The final result of the game as played up to the exact-solve point and then finished
    /// perfectly: the exact value of the game's first position at or below the exact-solve
    /// depth, seen from this position's side to move.
    GameResult = 1,
    /// The score of a deeper midgame search (heuristic, centi-discs).
    Search = 2,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position, relative to the side to move.
    pub board: Board,
    /// The colour to move.
    pub side: Color,
    /// The index of the game it comes from.
    pub game: u32,
    /// The value for the side to move, in centi-discs (`-6400..=6400`).
    pub label: i16,
    /// Where the label comes from.
    pub kind: LabelKind,
    /// Whether this is the last record of its game.
    pub last: bool,
}

impl Record {
    /// The record's 24 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut b = [0u8; RECORD_LEN];
        b[0..8].copy_from_slice(&self.board.player().to_le_bytes());
        b[8..16].copy_from_slice(&self.board.opponent().to_le_bytes());
        b[16..20].copy_from_slice(&self.game.to_le_bytes());
        b[20..22].copy_from_slice(&self.label.to_le_bytes());
        b[22] = match self.side {
            Color::Black => 0,
            Color::White => 1,
        };
        b[23] = self.kind as u8 | if self.last { LAST_FLAG } else { 0 };
        b
    }

    /// Parses 24 bytes, checking every field; `Err` names the problem.
    pub fn from_bytes(b: &[u8; RECORD_LEN]) -> Result<Record, &'static str> {
        let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let board = Board::new(word(0), word(8)).map_err(|_| "overlapping discs")?;
        let game = u32::from_le_bytes(b[16..20].try_into().expect("4 bytes"));
        let label = i16::from_le_bytes([b[20], b[21]]);
        if !(-6400..=6400).contains(&label) {
            return Err("label out of range");
        }
        let side = match b[22] {
            0 => Color::Black,
            1 => Color::White,
            _ => return Err("bad colour byte"),
        };
        let kind = match b[23] & 0x7f {
            0 => LabelKind::Exact,
            1 => LabelKind::GameResult,
            2 => LabelKind::Search,
            _ => return Err("bad flags byte"),
        };
        Ok(Record {
            board,
            side,
            game,
            label,
            kind,
            last: b[23] & LAST_FLAG != 0,
        })
    }
}

/// The header's bytes for a run seeded with `seed`.
pub fn header_bytes(seed: u64) -> [u8; DATA_HEADER_LEN] {
    let mut h = [0u8; DATA_HEADER_LEN];
    h[0..8].copy_from_slice(&DATA_MAGIC);
    h[8..10].copy_from_slice(&DATA_VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(RECORD_LEN as u16).to_le_bytes());
    h[16..24].copy_from_slice(&seed.to_le_bytes());
    h
}

/// Parses a header, returning the run seed.
pub fn parse_header(h: &[u8]) -> Result<u64, LearnError> {
    if h.len() < DATA_HEADER_LEN || h[0..8] != DATA_MAGIC {
        return Err(LearnError::Format(
            "not an othello data file (bad magic)".into(),
        ));
    }
    let version = u16::from_le_bytes([h[8], h[9]]);
    if version != DATA_VERSION {
        return Err(LearnError::Format(format!(
            "data format version {version} is not supported (expected {DATA_VERSION})"
        )));
    }
    if u16::from_le_bytes([h[10], h[11]]) as usize != RECORD_LEN {
        return Err(LearnError::Format("unexpected record size".into()));
    }
    Ok(u64::from_le_bytes(h[16..24].try_into().expect("8 bytes")))
}

/// The contents of a data file.
#[derive(Clone, Debug, Default)]
pub struct DataFile {
    /// The run seed from the header.
    pub seed: u64,
    /// The records of complete games, in file order.
    pub records: Vec<Record>,
    /// Records of an incomplete trailing game (or a partial trailing record's bytes, counted as
    /// one), skipped.
    pub skipped: usize,
}

/// Parses a whole data file's bytes; an incomplete trailing game is skipped, any malformed
/// complete record is an error.
pub fn parse_data(bytes: &[u8]) -> Result<DataFile, LearnError> {
    let seed = parse_header(bytes)?;
    let body = &bytes[DATA_HEADER_LEN..];
    let whole = body.len() / RECORD_LEN;
    let mut records = Vec::with_capacity(whole);
    for (i, chunk) in body.chunks_exact(RECORD_LEN).enumerate() {
        let r = Record::from_bytes(chunk.try_into().expect("RECORD_LEN bytes"))
            .map_err(|why| LearnError::Format(format!("record {i}: {why}")))?;
        records.push(r);
    }
    let complete = records.iter().rposition(|r| r.last).map_or(0, |i| i + 1);
    let skipped = records.len() - complete + usize::from(!body.len().is_multiple_of(RECORD_LEN));
    records.truncate(complete);
    Ok(DataFile {
        seed,
        records,
        skipped,
    })
}

/// Reads a data file (see [`parse_data`]).
pub fn read_records(path: &Path) -> Result<DataFile, LearnError> {
    let bytes = crate::files::read(path, crate::files::DATA_MAX_BYTES)?;
    parse_data(&bytes).map_err(|e| e.in_file(path))
}

/// Opens `path` for appending games of the run seeded `seed`: creates it with a header if it
/// does not exist; otherwise checks the header (the seed must match), cuts off an incomplete
/// trailing game, and returns the set of game indices already complete.
pub fn open_for_append(path: &Path, seed: u64) -> Result<(File, HashSet<u32>), LearnError> {
    let io = |e| LearnError::io(path, e);
    let mut file = crate::files::open_for_update(path, true, false)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    if bytes.is_empty() {
        file.write_all(&header_bytes(seed)).map_err(io)?;
        file.flush().map_err(io)?;
        return Ok((file, HashSet::new()));
    }
    let data = parse_data(&bytes).map_err(|e| e.in_file(path))?;
    if data.seed != seed {
        return Err(LearnError::Format(format!(
            "{} was made with seed {}, not {seed}; use that seed to resume, or another file",
            path.display(),
            data.seed
        )));
    }
    let keep = (DATA_HEADER_LEN + data.records.len() * RECORD_LEN) as u64;
    if keep != bytes.len() as u64 {
        file.set_len(keep).map_err(io)?;
    }
    file.seek(SeekFrom::End(0)).map_err(io)?;
    let done = data.records.iter().map(|r| r.game).collect();
    Ok((file, done))
}

/// A search result as a record label: centi-discs (clamped to ±64 discs) and its kind (exact
/// for a solve, search for a heuristic or win-loss-draw value).
pub fn label_of(value: crate::search::Value) -> (i16, LabelKind) {
    use crate::search::Value;
    let centi = CentiDiscs::from(value.centi()).to_i16_clamped();
    match value {
        Value::Exact(_) => (centi, LabelKind::Exact),
        Value::Heuristic(_) | Value::Wld(_) | Value::Probable(_) => (centi, LabelKind::Search),
    }
}

/// Serialises the records of one game (the last one flagged) for a single append.
pub fn game_bytes(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(records.len() * RECORD_LEN);
    for (i, r) in records.iter().enumerate() {
        let mut r = *r;
        r.last = i + 1 == records.len();
        out.extend_from_slice(&r.to_bytes());
    }
    out
}
