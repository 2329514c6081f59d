//! Where `othello play` starts: the standard start, a board string (`--board`), a move list
//! (`--moves`, kept in the record so that the game can be taken back into it and reviewed), or
//! a game from a file (`--file`: GGF, kept with its own start position, or any format `othello
//! games` reads), all of it or its first moves (`--after N`).

use std::path::Path;

use othello::arena::referee::Opening;
use othello::board::Move;
use othello::game::Game;
use othello::gamedb::{self, Format};

/// The opening of a game record: its start and its moves, all of them or, with `after`, up to
/// its `after`-th placed disc (a pass forced right after it included).
pub fn from_game(game: &Game, name: &str, after: Option<usize>) -> Result<Opening, String> {
    let records = game.moves();
    let placed = records.iter().filter(|r| r.mv != Move::Pass).count();
    let take = match after {
        None => records.len(),
        Some(n) if n > placed => {
            return Err(format!(
                "{name}: --after {n}, but the game has {placed} moves"
            ))
        }
        Some(n) => {
            let mut seen = 0;
            let mut take = 0;
            for r in records {
                if r.mv != Move::Pass {
                    if seen == n {
                        break;
                    }
                    seen += 1;
                }
                take += 1;
            }
            take
        }
    };
    Ok(Opening {
        name: name.to_string(),
        start: game.start(),
        moves: records[..take].iter().map(|r| r.mv).collect(),
    })
}

/// Game `k` (from 1) of the file at `path`. A GGF game keeps its own start position; the other
/// formats are read as `othello games` reads them.
pub fn game_of_file(path: &Path, k: usize) -> Result<Game, String> {
    let shown = path.display();
    let games: Vec<Game> = if Format::from_path(path) == Format::Ggf {
        let text = othello::files::read_to_string(path, othello::files::GAMES_MAX_BYTES)
            .map_err(|e| format!("cannot read {e}"))?;
        let mut games = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let mut rest = line.trim();
            while !rest.is_empty() && games.len() < k {
                let (game, after) = Game::parse_prefix(rest)
                    .map_err(|e| format!("{shown}: line {}: {e}", n + 1))?;
                games.push(game);
                rest = after.trim();
            }
        }
        games
    } else {
        let records = gamedb::read_games(path, None).map_err(|e| e.to_string())?;
        let records = records.into_iter().take(k);
        let games: Result<Vec<Game>, _> = records.map(|r| r.to_game()).collect();
        games.map_err(|e| format!("{shown}: {e}"))?
    };
    let count = games.len();
    games.into_iter().nth(k - 1).ok_or_else(|| {
        let s = if count == 1 { "" } else { "s" };
        format!("{shown}: no game {k}: the file has {count} game{s}")
    })
}
