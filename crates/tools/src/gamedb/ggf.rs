//! GGF game files, through the GGF reader and writer of [`crate::game`]: one game per line
//! (a line may also hold several games, as GGS archives do); blank lines are skipped.
//!
//! Only games from the standard start position can become [`GameRecord`]s; any other start is
//! an error ([`ErrorKind::NotStandardStart`]). Explicit passes are dropped on reading and
//! written back on writing. A game's event is its `PC` tag, its date `DT`, its recorded result
//! `RE` (Black's margin `m`, kept as Black's discs `(64 + m) / 2` when `m` is a whole even
//! number). GGF carries no WTHOR numbers nor theoretical scores.

use crate::game::Game;

use super::error::{ErrorKind, GameDbError};
use super::record::GameRecord;

/// Reads every game of a GGF text.
pub fn parse_ggf(bytes: &[u8]) -> Result<Vec<GameRecord>, GameDbError> {
    let mut games = Vec::new();
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let at = |game_no, kind| GameDbError::at_line(game_no, index + 1, kind);
        let line = std::str::from_utf8(raw).map_err(|_| at(games.len() + 1, ErrorKind::BadUtf8))?;
        let mut rest = line.trim();
        while !rest.is_empty() {
            let game_no = games.len() + 1;
            let (game, after) = Game::parse_prefix(rest).map_err(|e| at(game_no, e.into()))?;
            games.push(GameRecord::from_game(&game).map_err(|k| at(game_no, k))?);
            rest = after.trim();
        }
    }
    Ok(games)
}

/// Writes games as GGF, one line each.
pub fn write_ggf(games: &[GameRecord]) -> Result<String, GameDbError> {
    let mut out = String::with_capacity(games.len() * 300);
    for (i, g) in games.iter().enumerate() {
        let game = g
            .to_game()
            .map_err(|e| GameDbError::in_game(i + 1, ErrorKind::from(e)))?;
        out.push_str(&game.to_string());
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn games_per_line_and_several_on_a_line() {
        let text = "(;GM[Othello]PB[a]PW[b]RE[+4]B[F5]W[D6];)\n\n\
                    (;GM[Othello]B[f5];) (;GM[Othello]B[f5]W[f6];)\n";
        let games = parse_ggf(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].black, "a");
        assert_eq!(games[0].black_discs, Some(34));
        assert_eq!(games[2].moves, [Square::F5, Square::F6]);
        assert_eq!(
            parse_ggf(write_ggf(&games).unwrap().as_bytes()).unwrap(),
            games
        );
    }

    #[test]
    fn other_starts_and_bad_games_are_located() {
        let bo = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- O];)";
        let text = format!("(;GM[Othello];)\n{bo}\n");
        let e = parse_ggf(text.as_bytes()).unwrap_err();
        assert_eq!((e.game, e.line), (Some(2), Some(2)));
        assert!(matches!(e.kind, ErrorKind::NotStandardStart));
        let e = parse_ggf(b"(;GM[Othello]B[A1];)").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Ggf(_)));
    }
}
