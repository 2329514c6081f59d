//! The book as plain text: one position per line, readable, diffable and easy to produce
//! with other tools.
//!
//! ```text
//! # othello book 1: board side value depth games leaf (docs/BOOK.md)
//! ---------------------------OX------XO--------------------------- X value=-0.52 depth=14 games=136055 leaf=closed
//! ---------------------------OXX-----XXX-------------------------- O value=+0.52 depth=14 games=136055 leaf=d3:-1.10:14
//! ```
//!
//! - the board string (64 squares a1..h8, `X` Black, `O` White, `-` empty) and the side to
//!   move, in the book's stored (canonical) orientation; the side is Black when the number of
//!   empty squares is even (books do not record colours; this is right in any game without
//!   passes);
//! - `value=`: the negamaxed value in discs for the side to move (`?` when unknown);
//! - `depth=`: the depth behind it (`exact` for an exact value);
//! - `games=`: the games through the position;
//! - `leaf=`: the best move out of the book as `move:value:depth` (value in discs, depth or
//!   `exact`), `closed` when every move stays in the book, `pending` when not yet searched.
//!
//! Lines starting with `#` and blank lines are skipped. On import the values are recomputed
//! from the leaves ([`Book::negamax`]); `value=` and `depth=` are optional there.

use std::fmt::Write as _;

use crate::board::{Board, Color, Move, Position};
use crate::discs::CentiDiscs;

use super::file::BookError;
use super::{Book, Entry, Leaf, LeafState};

/// The first line of an exported file.
pub const HEADER: &str = "# othello book 1: board side value depth games leaf (docs/BOOK.md)";

fn discs(centi: i16) -> String {
    format!("{:+.2}", CentiDiscs::from(centi))
}

fn depth_text(depth: u8, exact: bool) -> String {
    if exact {
        "exact".to_string()
    } else {
        depth.to_string()
    }
}

/// The text form of `book` (header line, then one line per position in file order).
pub fn to_text(book: &Book) -> String {
    let mut out = String::with_capacity(book.len() * 120);
    out.push_str(HEADER);
    out.push('\n');
    let _ = writeln!(out, "# depth {}", book.depth);
    for (board, e) in book.sorted() {
        let side = if board.empty_count() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let position = Position { board, side };
        let value = if e.known {
            discs(e.value)
        } else {
            "?".to_string()
        };
        let leaf = match e.leaf {
            LeafState::Pending => "pending".to_string(),
            LeafState::Closed => "closed".to_string(),
            LeafState::Move(l) => format!(
                "{}:{}:{}",
                l.mv,
                discs(l.value),
                depth_text(l.depth, l.exact)
            ),
        };
        let _ = writeln!(
            out,
            "{} value={value} depth={} games={} leaf={leaf}",
            position.to_board_string(),
            depth_text(e.depth, e.exact),
            e.games
        );
    }
    out
}

/// Parses `value` in discs into centi-discs.
fn parse_discs(text: &str) -> Option<i16> {
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && v.abs() <= 64.0).then(|| CentiDiscs::from_discs(v).to_i16_clamped())
}

/// Parses a depth field: a number up to 60 or `exact`.
fn parse_depth(text: &str) -> Option<(u8, bool)> {
    if text == "exact" {
        return Some((60, true));
    }
    text.parse::<u8>()
        .ok()
        .filter(|&d| d <= 60)
        .map(|d| (d, false))
}

/// Reads the text form. An error names the line and the problem; nothing is returned then.
pub fn from_text(text: &str) -> Result<Book, BookError> {
    let mut book = Book::new(0);
    let mut depth_seen = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let bad = |m: String| BookError::Format(format!("line {n}: {m}"));
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("# depth ") {
            depth_seen = rest.trim().parse::<u8>().ok();
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(bad("expected a board string and the side to move".into()));
        }
        let position: Position = format!("{} {}", fields[0], fields[1])
            .parse()
            .map_err(|e| bad(format!("{e}")))?;
        let board: Board = position.board;
        let mut entry = Entry::pending(0);
        for field in &fields[2..] {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| bad(format!("{field:?} is not key=value")))?;
            match key {
                "value" | "depth" => {}
                "games" => {
                    entry.games = value
                        .parse()
                        .map_err(|_| bad(format!("games={value} is not a count")))?
                }
                "leaf" => entry.leaf = parse_leaf(&board, value).map_err(bad)?,
                _ => return Err(bad(format!("unknown field {key:?}"))),
            }
        }
        if book.contains(&board) {
            return Err(bad(
                "this position (or a symmetric image) is already listed".into(),
            ));
        }
        book.insert(&board, entry);
    }
    book.depth = depth_seen.unwrap_or(0);
    book.negamax();
    Ok(book)
}

fn parse_leaf(board: &Board, text: &str) -> Result<LeafState, String> {
    match text {
        "pending" => return Ok(LeafState::Pending),
        "closed" => return Ok(LeafState::Closed),
        _ => {}
    }
    let parts: Vec<&str> = text.split(':').collect();
    let [mv, value, depth] = parts[..] else {
        return Err(format!(
            "leaf={text}: expected move:value:depth, closed or pending"
        ));
    };
    let mv: Move = mv.parse().map_err(|e| format!("leaf move: {e}"))?;
    if board.try_play_move(mv).is_err() {
        return Err(format!("leaf move {mv} is not legal"));
    }
    let value = parse_discs(value).ok_or(format!("leaf value {value:?} is not a disc count"))?;
    let (depth, exact) = parse_depth(depth).ok_or(format!("leaf depth {depth:?}"))?;
    Ok(LeafState::Move(Leaf {
        mv,
        value,
        depth,
        exact,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::book::sample_book as sample;

    #[test]
    fn text_round_trip() {
        let book = sample();
        let text = to_text(&book);
        let back = from_text(&text).unwrap();
        assert_eq!(back.sorted(), book.sorted());
        assert_eq!(back.depth, 12);
        assert_eq!(to_text(&back), text);
    }

    #[test]
    fn mistakes_name_their_line() {
        let text = to_text(&sample());
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let with = |n: usize, replacement: String| {
            let mut l = lines.clone();
            l[n] = replacement;
            l.join("\n")
        };
        let line = lines[2].clone();
        let cases = [
            (with(2, "not a board".into()), "line 3"),
            (with(2, line.replace("games=", "games=x")), "line 3"),
            (with(2, line.replace("games=", "colour=")), "line 3"),
            (with(2, format!("{line} leaf=a1:0:3")), "line 3"),
            (with(3, line.clone()), "line 4"),
        ];
        for (case, expected) in &cases {
            let err = from_text(case).unwrap_err().to_string();
            assert!(err.starts_with(expected), "{err}");
        }
        // A leaf move that is not legal there.
        let (n, leaf_line) = lines
            .iter()
            .enumerate()
            .find(|(_, l)| l.contains("leaf=") && !l.contains("closed") && !l.contains("pending"))
            .unwrap();
        let field = leaf_line.split_whitespace().last().unwrap();
        let bad = leaf_line.replace(field, "leaf=a1:+0.00:14");
        let err = from_text(&with(n, bad)).unwrap_err().to_string();
        assert!(err.contains("not legal"), "{err}");
    }
}
