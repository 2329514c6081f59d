//! The end of `othello play`: the result the referee's rules give the game, the sentence that
//! says it, and the game saved as one GGF line (or, when the file cannot be written, printed so
//! that it is not lost).

use std::io::Write;
use std::path::Path;

use othello::arena::referee::{result_of, Termination};
use othello::board::Color;
use othello::game::{Game, GameResult};

use super::{PlayEnd, PlayError};

/// The `RE` value of a game that ended as `end`, with the person playing `human`: as the
/// referee scores it (a resignation is the person's forfeit), or unfinished after a quit.
pub fn result(game: &Game, end: &PlayEnd, human: Color) -> GameResult {
    let termination = match end {
        PlayEnd::Quit => return GameResult::Unfinished,
        PlayEnd::Finished => Termination::Normal,
        PlayEnd::Resigned => Termination::Illegal {
            loser: human,
            detail: "resigned".to_string(),
        },
        PlayEnd::Fault(t) => t.clone(),
    };
    result_of(&game.position(), &termination).1
}

/// The sentence that ends the game, for the person playing `human`.
pub fn verdict(game: &Game, end: &PlayEnd, human: Color) -> String {
    match end {
        PlayEnd::Quit => "Game stopped unfinished.".to_string(),
        PlayEnd::Resigned => "You resigned.".to_string(),
        PlayEnd::Fault(Termination::Time { loser }) if *loser == human => {
            "You lost on time.".to_string()
        }
        PlayEnd::Fault(Termination::Time { .. }) => "Your opponent lost on time.".to_string(),
        PlayEnd::Fault(t) => {
            let who = match t.loser() == Some(human) {
                true => "You forfeit",
                false => "Your opponent forfeits",
            };
            let why = t.detail().unwrap_or(match t {
                Termination::Hung { .. } => "no answer in time",
                _ => t.kind(),
            });
            format!("{who}: {why}.")
        }
        PlayEnd::Finished => {
            let (b, w) = game.position().black_white();
            let (nb, nw) = (b.count_ones(), w.count_ones());
            let human_margin = match (&game.result, human) {
                (GameResult::Finished { black_margin, .. }, Color::Black) => *black_margin,
                (GameResult::Finished { black_margin, .. }, Color::White) => -*black_margin,
                _ => 0.0,
            };
            let how = match human_margin.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => "You win",
                Some(std::cmp::Ordering::Less) => "You lose",
                _ => "Draw",
            };
            format!("The game is over: X={nb} O={nw}. {how} ({human_margin:+}).")
        }
    }
}

/// Saves `games` (the session's, one GGF line each) to `path` and says where; when that fails,
/// prints the records to copy from the terminal and returns the error.
pub fn save(out: &mut impl Write, games: &[Game], path: &Path) -> Result<(), PlayError> {
    let text: String = games.iter().map(|g| format!("{g}\n")).collect();
    if let Err(e) = othello::files::write_atomically(path, text.as_bytes()) {
        writeln!(
            out,
            "Cannot save the game to {}: {}. The game record (GGF):",
            path.display(),
            e.source
        )?;
        write!(out, "{text}")?;
        return Err(PlayError::Save {
            path: path.to_path_buf(),
            source: e.source,
        });
    }
    match games.len() {
        1 => writeln!(out, "Game saved to {}", path.display())?,
        n => writeln!(out, "{n} games saved to {}", path.display())?,
    }
    Ok(())
}
