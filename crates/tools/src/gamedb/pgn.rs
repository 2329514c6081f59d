//! Othello PGN, as in the PGN conversion of the WTHOR database:
//!
//! ```text
//! [Event "World Championship - 1977"]
//! [Date "1977"]
//! [Black "Inoue Hiroshi"]
//! [White "Heiberg Thomas"]
//! [Result "34-30"]
//! 1. F5 D6
//! 2. C3 F3
//! ...
//!
//! ```
//!
//! Reading:
//! - a game is its tag lines `[Name "value"]` (`\"` and `\\` escapes) then its move text; it
//!   ends at a blank line after move text, at a tag line after move text, or at the end;
//! - tags read: `Event`, `Date`, `Black`, `White` (a value of only `?` and `.` is unknown) and
//!   `Result` `"<black discs>-<white discs>"` (`*`, `1-0`, `0-1`, `1/2-1/2`: no result); other
//!   tags are skipped;
//! - move text: squares in either case (`F5`, `f5`), move numbers (`1.`, `12...`, also glued
//!   as `1.F5`) are skipped, so are result tokens, `$n` annotations, `{...}` comments (which may
//!   span lines) and `;` comments to the end of the line; lines starting with `%` are skipped;
//! - passes are implicit (see [`GameRecord`]); an explicit `--`, `pass` or `PA` is accepted
//!   right after a move that forces one, and is an error anywhere else;
//! - every move is checked as it is read; errors carry the game number and the line.
//!
//! Writing gives the layout above: the five tags (control characters in values made spaces),
//! `Result` as `"<b>-<64-b>"` from the recorded
//! result (`"*"` if none), unknown values as `?`, then the moves in numbered pairs, upper case,
//! a blank line after each game. A game without moves gets the move text `*`, so that it stays
//! a game when read back.

use std::fmt::Write as _;

use crate::square::Square;

use super::error::{clip, ErrorKind, GameDbError};
use super::record::{GameRecord, Replayer};
use crate::text::one_line;

/// The game being read.
struct Current {
    record: GameRecord,
    replay: Replayer,
    /// Whether move text (a move, a number, a result, a comment) has been seen.
    in_moves: bool,
}

impl Current {
    fn new() -> Current {
        Current {
            record: GameRecord::default(),
            replay: Replayer::new(),
            in_moves: false,
        }
    }
}

/// Reads every game of a PGN text.
pub fn parse_pgn(bytes: &[u8]) -> Result<Vec<GameRecord>, GameDbError> {
    let mut games = Vec::new();
    let mut current: Option<Current> = None;
    let mut in_comment = false;
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = index + 1;
        let game_no = games.len() + 1;
        let at = |kind| GameDbError::at_line(game_no, line_no, kind);
        let line = std::str::from_utf8(raw).map_err(|_| at(ErrorKind::BadUtf8))?;
        let t = line.trim();
        if in_comment {
            let cur = current.get_or_insert_with(Current::new);
            movetext(line, cur, &mut in_comment).map_err(at)?;
            continue;
        }
        if t.is_empty() {
            if current.as_ref().is_some_and(|c| c.in_moves) {
                games.push(current.take().expect("checked").record);
            }
            continue;
        }
        if t.starts_with('%') {
            continue;
        }
        if t.starts_with('[') {
            if current.as_ref().is_some_and(|c| c.in_moves) {
                games.push(current.take().expect("checked").record);
            }
            let game_no = games.len() + 1;
            let cur = current.get_or_insert_with(Current::new);
            tag(t, &mut cur.record).map_err(|k| GameDbError::at_line(game_no, line_no, k))?;
            continue;
        }
        let cur = current.get_or_insert_with(Current::new);
        movetext(line, cur, &mut in_comment).map_err(at)?;
    }
    if let Some(cur) = current {
        games.push(cur.record);
    }
    Ok(games)
}

/// Reads one tag line into `record`.
fn tag(line: &str, record: &mut GameRecord) -> Result<(), ErrorKind> {
    let bad = || ErrorKind::BadTag(clip(line));
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?
        .trim();
    let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(bad)?;
    let value = unescape(value);
    let known = |v: String| {
        if v.chars().all(|c| c == '?' || c == '.') {
            String::new()
        } else {
            v
        }
    };
    match name {
        "Event" => record.event = known(value),
        "Date" => record.date = known(value),
        "Black" => record.black = known(value),
        "White" => record.white = known(value),
        "Result" => record.black_discs = parse_result(&value),
        _ => {}
    }
    Ok(())
}

/// Undoes PGN's `\"` and `\\` escapes.
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Black's discs from `"<black>-<white>"` with at most 64 discs in all.
fn parse_result(v: &str) -> Option<u8> {
    if v == "1-0" || v == "0-1" {
        return None;
    }
    let (b, w) = v.trim().split_once('-')?;
    let (b, w): (u8, u8) = (b.trim().parse().ok()?, w.trim().parse().ok()?);
    (u16::from(b) + u16::from(w) <= 64).then_some(b)
}

/// Whether a token is a game termination marker.
fn is_result(t: &str) -> bool {
    matches!(t, "*" | "1/2-1/2")
        || t.split_once('-').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        })
}

/// Reads the move text of one line into `cur`.
fn movetext(line: &str, cur: &mut Current, in_comment: &mut bool) -> Result<(), ErrorKind> {
    cur.in_moves = true;
    let mut rest = line;
    loop {
        if *in_comment {
            match rest.find('}') {
                Some(i) => {
                    rest = &rest[i + 1..];
                    *in_comment = false;
                }
                None => return Ok(()),
            }
        }
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with(';') {
            return Ok(());
        }
        if let Some(r) = rest.strip_prefix('{') {
            *in_comment = true;
            rest = r;
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '{' || c == ';')
            .unwrap_or(rest.len());
        token(&rest[..end], cur)?;
        rest = &rest[end..];
    }
}

/// Reads one move-text token.
fn token(t: &str, cur: &mut Current) -> Result<(), ErrorKind> {
    // A move number `12.` or `12...`, possibly glued to the move (`12.F5`).
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let dots = t[digits..].bytes().take_while(|&b| b == b'.').count();
    let t = if digits > 0 && dots > 0 {
        &t[digits + dots..]
    } else {
        t
    };
    if t.is_empty() || t.starts_with('$') || is_result(t) {
        return Ok(());
    }
    if t == "--" || t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("pa") {
        return cur.replay.explicit_pass();
    }
    let ply = cur.replay.plies + 1;
    let sq: Square = t
        .parse()
        .map_err(|_| ErrorKind::BadSquare { text: clip(t), ply })?;
    cur.replay.play(sq)?;
    cur.record.moves.push(sq);
    Ok(())
}

/// Writes a tag value with PGN's escapes, `?` if empty, control characters as spaces.
fn quoted(v: &str) -> String {
    if v.is_empty() {
        return "?".to_string();
    }
    one_line(v).replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes games as PGN text (see the module docs).
pub fn write_pgn(games: &[GameRecord]) -> String {
    let mut out = String::with_capacity(games.len() * 400);
    for g in games {
        let result = match g.black_discs {
            Some(b) => format!("{b}-{}", 64u8.saturating_sub(b)),
            None => "*".to_string(),
        };
        // Writing to a String cannot fail.
        let _ = write!(
            out,
            "[Event \"{}\"]\n[Date \"{}\"]\n[Black \"{}\"]\n[White \"{}\"]\n[Result \"{result}\"]\n",
            quoted(&g.event),
            quoted(&g.date),
            quoted(&g.black),
            quoted(&g.white),
        );
        for (i, pair) in g.moves.chunks(2).enumerate() {
            let _ = write!(out, "{}. {:#}", i + 1, pair[0]);
            if let Some(sq) = pair.get(1) {
                let _ = write!(out, " {sq:#}");
            }
            out.push('\n');
        }
        if g.moves.is_empty() {
            out.push_str("*\n");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"Club - 1999\"]\n[Date \"1999\"]\n[Black \"A \\\"B\\\"\"]\n\
        [White \"?\"]\n[Result \"40-24\"]\n1. F5 D6\n2. C3\n\n\
        [Event \"x\"]\n\n1.f5 {a comment\nover lines} d6 ; rest\n$1 c3 34-30\n";

    #[test]
    fn tags_moves_comments_and_numbers_are_read() {
        let games = parse_pgn(TWO.as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.event, "Club - 1999");
        assert_eq!(g.black, "A \"B\"");
        assert_eq!(g.white, "");
        assert_eq!(g.black_discs, Some(40));
        assert_eq!(g.moves, [Square::F5, Square::D6, Square::C3]);
        assert_eq!(games[1].moves, g.moves);
        assert_eq!(games[1].black_discs, None);
        assert_eq!(parse_pgn(write_pgn(&games).as_bytes()).unwrap(), games);
    }

    #[test]
    fn errors_carry_game_and_line() {
        let text = format!("{TWO}\n[Event \"third\"]\n1. F5 D6\n2. C3 A1\n");
        let e = parse_pgn(text.as_bytes()).unwrap_err();
        assert_eq!((e.game, e.line), (Some(3), Some(17)));
        assert!(matches!(e.kind, ErrorKind::Replay(r) if r.ply == 4 && r.square == Square::A1));
        let e = parse_pgn(b"1. F5 Z9\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::BadSquare { ply: 2, .. }));
        let e = parse_pgn(b"1. F5 --\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::BadPass { ply: 2 }));
        let e = parse_pgn(b"[Event x]\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::BadTag(_)));
        let e = parse_pgn(b"\n\n1. F5 \xff\n").unwrap_err();
        assert_eq!((e.game, e.line), (Some(1), Some(3)));
        assert!(matches!(e.kind, ErrorKind::BadUtf8));
    }

    #[test]
    fn games_without_moves_survive_a_round_trip() {
        let g = GameRecord {
            black: "lonely".into(),
            ..GameRecord::default()
        };
        let games = vec![g.clone(), g];
        let text = write_pgn(&games);
        assert_eq!(parse_pgn(text.as_bytes()).unwrap(), games);
    }
}
