//! Edax's opening book format (`.dat`, Edax 4.4), read and written, so that books move between
//! Edax and this engine.
//!
//! # Layout (little-endian, as Edax writes it on x86)
//!
//! A 42-byte header:
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 4 | `0x45444158` ("EDAX" as a number; bytes `58 41 44 45`) |
//! | 4 | 4 | `0x424F4F4B` ("BOOK"; bytes `4B 4F 4F 42`) |
//! | 8 | 1 | version (4) |
//! | 9 | 1 | release (4) |
//! | 10 | 8 | date: year (`i16`), month, day, hour, minute, second (`u8` each), one padding byte |
//! | 18 | 20 | options (`i32` each): level, minimum empties, midgame error, endcut error, verbosity |
//! | 38 | 4 | number of positions N (`i32`) |
//!
//! then N positions, each:
//!
//! | size | field |
//! |---:|---|
//! | 8, 8 | the side to move's discs, the opponent's (bit 0 = a1, bit 63 = h8) |
//! | 4 × 4 | wins, draws, losses, lines (`u32`; statistics Edax recomputes) |
//! | 3 × 2 | value, lower bound, upper bound (`i16`, discs) |
//! | 1 | number of links L |
//! | 1 | level (Edax's search level of the leaf) |
//! | 2 × L | links: score (`i8`, discs), move (`u8`: square 0-63, 64 pass) |
//! | 2 | leaf: score (`i8`), move (`u8`; 65 = none, with score −127) |
//!
//! Edax keeps each position in the least of its eight images (the same canonical form as
//! [`Board::canonical`]), and moves are square indices from a1 = 0 to h8 = 63, as here.
//!
//! # Mapping
//!
//! - **Import**: a position's leaf becomes our leaf (value × 100, depth = the Edax level); a
//!   link whose position is missing from the file is treated as a candidate leaf (the better
//!   of it and the leaf is kept, as Edax does when it prunes); a position with no leaf whose
//!   every move is linked is closed, otherwise pending. Games = wins + draws + losses, or the
//!   line count if that is larger.
//! - **Export**: values are rounded to whole discs; links are the book moves whose position is
//!   in the book and valued; the leaf is ours unless it has become a link; the level is the
//!   leaf's depth (at most 60); lines = our games count; bounds equal the value for an exact
//!   one and lie two discs either side otherwise.

use crate::board::{Board, Move};
use crate::discs::CentiDiscs;
use crate::square::Square;

use super::file::BookError;
use super::{Book, Entry, Leaf, LeafState};

const EDAX: u32 = 0x4544_4158;
const BOOK: u32 = 0x424F_4F4B;
const HEADER_LEN: usize = 42;
const POSITION_FIXED_LEN: usize = 40;
const PASS: u8 = 64;
const NO_MOVE: u8 = 65;
const SCORE_INF: i8 = 127;

/// The date written into an exported header: (year, month, day, hour, minute, second).
pub type EdaxDate = (i16, u8, u8, u8, u8, u8);

fn disc_value(centi: i16) -> i8 {
    let v = CentiDiscs::from(centi).to_discs().round();
    v.clamp(-64.0, 64.0) as i8
}

/// An Edax score (whole discs, unchecked: up to ±128) in centi-discs; it always fits an `i16`.
fn centi_of_score(discs: i8) -> i16 {
    CentiDiscs::from_whole_discs(i32::from(discs)).0 as i16
}

/// A position as read: its board, its entry (leaf from the file) and its links (move,
/// score in discs).
type RawPosition = (Board, Entry, Vec<(Move, i8)>);

/// Reads an Edax book. Every malformed part is an error naming the position; never panics.
pub fn from_edax_bytes(bytes: &[u8]) -> Result<Book, BookError> {
    let bad = |m: String| BookError::Format(m);
    if bytes.len() < HEADER_LEN {
        return Err(bad(format!(
            "truncated Edax book: {} bytes, the header has {HEADER_LEN}",
            bytes.len()
        )));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    if u32_at(0) != EDAX || u32_at(4) != BOOK {
        return Err(bad("not an Edax book (bad magic)".into()));
    }
    if bytes[8] != 4 {
        return Err(bad(format!(
            "Edax book version {}.{}, this program reads version 4",
            bytes[8], bytes[9]
        )));
    }
    let level = i32::from_le_bytes(bytes[18..22].try_into().expect("4 bytes"));
    let count = i32::from_le_bytes(bytes[38..42].try_into().expect("4 bytes"));
    if count < 0 {
        return Err(bad(format!("negative position count {count}")));
    }
    let mut book = Book::new(level.clamp(0, 60) as u8);
    // Per position, before the leaves are resolved.
    let mut raw: Vec<RawPosition> = Vec::new();
    let mut at = HEADER_LEN;
    for k in 0..count as usize {
        let start = at;
        let here = |m: String| bad(format!("Edax position {k} (byte {start}): {m}"));
        if bytes.len() < at + POSITION_FIXED_LEN {
            return Err(here("truncated".into()));
        }
        let p = &bytes[at..at + POSITION_FIXED_LEN];
        let word = |i: usize| u64::from_le_bytes(p[i..i + 8].try_into().expect("8 bytes"));
        let int = |i: usize| u32::from_le_bytes(p[i..i + 4].try_into().expect("4 bytes"));
        let board = Board::new(word(0), word(8)).map_err(|e| here(e.to_string()))?;
        let games = int(16)
            .saturating_add(int(20))
            .saturating_add(int(24))
            .max(int(28));
        let n_link = p[38] as usize;
        let level = p[39].min(60);
        at += POSITION_FIXED_LEN;
        if bytes.len() < at + 2 * n_link + 2 {
            return Err(here("truncated in its moves".into()));
        }
        let parse_move = |code: u8| -> Result<Move, String> {
            if code == PASS {
                if board.moves() == 0 && !board.is_game_over() {
                    Ok(Move::Pass)
                } else {
                    Err("a pass where the side to move can move".into())
                }
            } else {
                let sq = Square::from_index(code as usize)
                    .ok_or_else(|| format!("move code {code} is not a square"))?;
                if board.is_legal(sq) {
                    Ok(Move::Place(sq))
                } else {
                    Err(format!("move {sq} is not legal"))
                }
            }
        };
        let mut links = Vec::with_capacity(n_link);
        for i in 0..n_link {
            let (score, code) = (bytes[at + 2 * i] as i8, bytes[at + 2 * i + 1]);
            links.push((parse_move(code).map_err(here)?, score));
        }
        at += 2 * n_link;
        let (leaf_score, leaf_code) = (bytes[at] as i8, bytes[at + 1]);
        at += 2;
        let leaf = if leaf_code == NO_MOVE {
            LeafState::Pending
        } else {
            LeafState::Move(Leaf {
                mv: parse_move(leaf_code).map_err(here)?,
                value: centi_of_score(leaf_score),
                depth: level,
                exact: false,
            })
        };
        raw.push((board, Entry::pending(games), links));
        raw.last_mut().expect("just pushed").1.leaf = leaf;
    }
    if at != bytes.len() {
        return Err(bad(format!(
            "{} bytes after the last of {count} positions",
            bytes.len() - at
        )));
    }
    for (board, entry, _) in &raw {
        book.insert(board, *entry);
    }
    // Links to positions not in the file become leaf candidates; a leafless position whose
    // moves are all linked is closed.
    for (board, entry, links) in &raw {
        let mut leaf = entry.leaf;
        for &(mv, score) in links {
            let child = board.try_play_move(mv).expect("checked legal");
            if book.contains(&child) {
                continue;
            }
            let value = centi_of_score(score);
            let better = match leaf {
                LeafState::Move(l) => value > l.value,
                _ => true,
            };
            if better {
                leaf = LeafState::Move(Leaf {
                    mv,
                    value,
                    depth: book.depth,
                    exact: false,
                });
            }
        }
        if leaf == LeafState::Pending {
            let (linked, pass_linked) = book.links(board);
            let moves = board.moves();
            if board.is_game_over()
                || (moves != 0 && linked == moves)
                || (moves == 0 && pass_linked)
            {
                leaf = LeafState::Closed;
            }
        }
        book.set_leaf(board, leaf);
    }
    book.mark_stale_pending();
    book.negamax();
    Ok(book)
}

/// Writes `book` as an Edax book dated `date` (see the module documentation for the mapping).
pub fn to_edax_bytes(book: &Book, date: EdaxDate) -> Vec<u8> {
    let sorted = book.sorted();
    let mut out = Vec::with_capacity(HEADER_LEN + sorted.len() * 48);
    out.extend_from_slice(&EDAX.to_le_bytes());
    out.extend_from_slice(&BOOK.to_le_bytes());
    out.extend_from_slice(&[4, 4]);
    out.extend_from_slice(&date.0.to_le_bytes());
    out.extend_from_slice(&[date.1, date.2, date.3, date.4, date.5, 0]);
    let min_empties = sorted
        .iter()
        .map(|(b, _)| b.empty_count() as i32)
        .min()
        .unwrap_or(60);
    for option in [book.depth.min(60) as i32, min_empties, 2, 1, 1] {
        out.extend_from_slice(&option.to_le_bytes());
    }
    out.extend_from_slice(&(sorted.len() as i32).to_le_bytes());
    for (board, entry) in &sorted {
        out.extend_from_slice(&board.player().to_le_bytes());
        out.extend_from_slice(&board.opponent().to_le_bytes());
        for stat in [0u32, 0, 0, entry.games] {
            out.extend_from_slice(&stat.to_le_bytes());
        }
        let value = if entry.known {
            disc_value(entry.value) as i16
        } else {
            -(SCORE_INF as i16)
        };
        let (lower, upper) = if entry.exact || !entry.known {
            (value, value)
        } else {
            ((value - 2).max(-64), (value + 2).min(64))
        };
        for v in [value, lower, upper] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        // Links and leaf, in the stored (canonical) orientation.
        let moves = book.moves(board);
        let links: Vec<(u8, i8)> = moves
            .iter()
            .filter(|m| m.link)
            .map(|m| (move_code(m.mv), disc_value(m.value)))
            .collect();
        let leaf = moves
            .iter()
            .find(|m| !m.link)
            .map_or((-SCORE_INF, NO_MOVE), |m| {
                (disc_value(m.value), move_code(m.mv))
            });
        let level = match entry.leaf {
            LeafState::Move(l) => l.depth.min(60),
            _ => book.depth.min(60),
        };
        out.push(links.len() as u8);
        out.push(level);
        for (code, score) in links {
            out.extend_from_slice(&[score as u8, code]);
        }
        out.extend_from_slice(&[leaf.0 as u8, leaf.1]);
    }
    out
}

fn move_code(mv: Move) -> u8 {
    match mv {
        Move::Place(sq) => sq.index() as u8,
        Move::Pass => PASS,
    }
}

/// Whether `bytes` start like an Edax book.
pub fn looks_like_edax(bytes: &[u8]) -> bool {
    bytes.len() >= 8
        && u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) == EDAX
        && u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) == BOOK
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookMove;

    const DATE: EdaxDate = (2026, 11, 24, 12, 0, 0);

    use crate::book::sample_book as sample;

    /// The moves with their values in whole discs, in a fixed order (rounding makes ties).
    fn rounded(moves: &[BookMove]) -> Vec<(String, i8, bool)> {
        let mut v: Vec<(String, i8, bool)> = moves
            .iter()
            .map(|m| (m.mv.to_string(), disc_value(m.value), m.link))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn round_trip_keeps_positions_moves_and_values() {
        let book = sample();
        let bytes = to_edax_bytes(&book, DATE);
        let back = from_edax_bytes(&bytes).unwrap();
        assert_eq!(back.len(), book.len());
        for (board, entry) in book.iter() {
            let other = back.get(board).expect("every position comes back");
            assert_eq!(other.games, entry.games);
            assert_eq!(rounded(&back.moves(board)), rounded(&book.moves(board)));
        }
        // Written again, the bytes are the same.
        assert_eq!(to_edax_bytes(&back, DATE), bytes);
    }

    #[test]
    fn reads_a_hand_made_edax_file() {
        // One position: after f5, White to move; one link (d6, score +1) to a position not
        // in the file, and the leaf f4 at -3, level 10. Written byte by byte from the layout.
        let after = Board::start().play("f5".parse().unwrap()).canonical();
        let d6 = after
            .legal_moves()
            .find(|&sq| {
                after.play(sq).canonical()
                    == Board::start()
                        .play("f5".parse().unwrap())
                        .play("d6".parse().unwrap())
                        .canonical()
            })
            .unwrap();
        let f4 = after
            .legal_moves()
            .find(|&sq| {
                sq != d6
                    && after.play(sq).canonical()
                        == Board::start()
                            .play("f5".parse().unwrap())
                            .play("f4".parse().unwrap())
                            .canonical()
            })
            .unwrap();
        let mut bytes = Vec::new();
        bytes.extend_from_slice(b"XADEKOOB");
        bytes.extend_from_slice(&[4, 4, 0xEA, 0x07, 1, 2, 3, 4, 5, 0]);
        for v in [10i32, 59, 2, 1, 1, 1] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&after.player().to_le_bytes());
        bytes.extend_from_slice(&after.opponent().to_le_bytes());
        for v in [3u32, 0, 1, 4] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        for v in [1i16, -1, 3] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&[1, 10, 1, d6.index() as u8, (-3i8) as u8, f4.index() as u8]);
        let book = from_edax_bytes(&bytes).unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(book.depth, 10);
        let e = book.get(&after).unwrap();
        assert_eq!(e.games, 4);
        // The link's position is missing, so it is the leaf (better than f4's -3).
        assert_eq!(e.value, 100);
        let moves = book.moves(&after);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].mv, Move::Place(d6));
        // Damaged copies are errors, never panics.
        for cut in 0..bytes.len() {
            assert!(from_edax_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut illegal = bytes.clone();
        let n = illegal.len();
        illegal[n - 1] = 0; // a1 is not a legal move there
        assert!(from_edax_bytes(&illegal).is_err());
        assert!(looks_like_edax(&bytes) && !looks_like_edax(b"OthBook1"));
    }
}
