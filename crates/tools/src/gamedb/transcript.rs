//! Plain transcripts: one game per line, its moves concatenated, `f5d6c3d3c4f4`.
//!
//! Reading: squares in either case, spaces, tabs or commas anywhere between them; blank lines
//! and lines whose first non-blank character is `#` are skipped. Passes are implicit (see
//! [`GameRecord`]); `--` or `pa` is accepted as an explicit pass right after a move that forces
//! one. Errors name the game (the count of game lines so far) and the line.
//!
//! One line alone is [`parse_move_list`]: what the command line's `--moves f5d6c3` reads, so a
//! move list means the same everywhere.
//!
//! Writing: one line per game, lower-case squares, no spaces. A game without moves cannot be
//! written (its line would be blank), so it is an error.

use crate::square::Square;

use super::error::{clip, ErrorKind, GameDbError};
use super::record::{GameRecord, Replayer};

/// Reads every game of a transcript text.
pub fn parse_transcript(bytes: &[u8]) -> Result<Vec<GameRecord>, GameDbError> {
    let mut games = Vec::new();
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let game_no = games.len() + 1;
        let at = |kind| GameDbError::at_line(game_no, index + 1, kind);
        let line = std::str::from_utf8(raw).map_err(|_| at(ErrorKind::BadUtf8))?;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        games.push(parse_move_list(t).map_err(at)?);
    }
    Ok(games)
}

/// Reads one game's moves from the standard start, `f5d6c3` (also `F5 D6 C3` or `f5,d6,c3`):
/// two characters a move, passes implicit. An error names the move and its 1-based index among
/// the listed moves: [`ErrorKind::BadSquare`] (not a square, or a last move of one character),
/// [`ErrorKind::Replay`] (illegal there, or after the end of the game), or
/// [`ErrorKind::BadPass`] (an explicit pass where none is forced). An empty list is the start.
pub fn parse_move_list(line: &str) -> Result<GameRecord, ErrorKind> {
    let chars: Vec<char> = line
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    let mut replay = Replayer::new();
    let mut moves = Vec::with_capacity(chars.len() / 2);
    for pair in chars.chunks(2) {
        let text: String = pair.iter().collect();
        if text == "--" || text.eq_ignore_ascii_case("pa") {
            replay.explicit_pass()?;
            continue;
        }
        let sq: Square = text.parse().map_err(|_| ErrorKind::BadSquare {
            text: clip(&text),
            ply: replay.plies + 1,
        })?;
        replay.play(sq)?;
        moves.push(sq);
    }
    Ok(GameRecord::from_moves(moves))
}

/// Writes games as a transcript, one line each.
pub fn write_transcript(games: &[GameRecord]) -> Result<String, GameDbError> {
    let mut out = String::with_capacity(games.len() * 121);
    for (i, g) in games.iter().enumerate() {
        if g.moves.is_empty() {
            return Err(GameDbError::in_game(
                i + 1,
                ErrorKind::Unwritable("a game without moves cannot be written as a transcript"),
            ));
        }
        for sq in &g.moves {
            out.push_str(&sq.to_string());
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_spaces_and_case() {
        let text = "# two games\n\nf5d6c3\r\n  F5 D6 c3 D3 \n";
        let games = parse_transcript(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, [Square::F5, Square::D6, Square::C3]);
        assert_eq!(games[1].moves.len(), 4);
        assert_eq!(write_transcript(&games).unwrap(), "f5d6c3\nf5d6c3d3\n");
    }

    #[test]
    fn errors_name_game_and_line() {
        let e = parse_transcript(b"f5d6\n# c\nf5d6c3x9\n").unwrap_err();
        assert_eq!((e.game, e.line), (Some(2), Some(3)));
        assert!(matches!(e.kind, ErrorKind::BadSquare { ply: 4, .. }));
        let e = parse_transcript(b"f5f5").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Replay(r) if r.ply == 2));
        let e = parse_transcript(b"f5d").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::BadSquare { ply: 2, .. }));
        assert!(write_transcript(&[GameRecord::default()]).is_err());
    }

    #[test]
    fn a_move_list_takes_commas_and_names_the_bad_move() {
        let g = parse_move_list("f5, d6,c3 D3").unwrap();
        assert_eq!(g.moves, [Square::F5, Square::D6, Square::C3, Square::D3]);
        assert_eq!(parse_move_list("").unwrap().moves, []);
        match parse_move_list("f5d6a1") {
            Err(ErrorKind::Replay(r)) => assert_eq!((r.ply, r.square), (3, Square::A1)),
            other => panic!("{other:?}"),
        }
        match parse_move_list("f5,z9") {
            Err(ErrorKind::BadSquare { text, ply }) => assert_eq!((text.as_str(), ply), ("z9", 2)),
            other => panic!("{other:?}"),
        }
    }
}
