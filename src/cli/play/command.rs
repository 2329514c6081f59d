//! What the person types at the prompt of `othello play`: one [`Command`] per line, and the
//! text of `help`.

use std::str::FromStr;

use thiserror::Error;

use othello::board::Move;
use othello::engine::Level;
use othello::square::Square;

/// One line of the person's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play a square.
    Place(Square),
    /// Pass.
    Pass,
    /// Take back the last own move and the replies to it.
    Undo,
    /// Play again what the last `undo` took back.
    Redo,
    /// Ask the engine.
    Hint,
    /// Every legal move's value.
    Analyse,
    /// The commands.
    Help,
    /// Give up.
    Resign,
    /// Stop playing.
    Quit,
    /// The engine plays this move for the person.
    Go,
    /// Leave this game (it is saved) and start a new one from the standard start.
    New,
    /// Show the board again.
    Board,
    /// The engine opponent plays at this level from its next move.
    Level(Level),
    /// Change sides: the person plays the other colour, the engine this one.
    Swap,
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct CommandError(pub String);

/// Why `level N` could not be read.
fn level_error(why: impl std::fmt::Display) -> CommandError {
    CommandError(format!("level: {why}; type level N, N from 1 to 60"))
}

impl FromStr for Command {
    type Err = CommandError;

    /// A square (`f5`, `F5`, PAIP's `56`) or a command word, in any case.
    fn from_str(s: &str) -> Result<Command, CommandError> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "pass" | "pa" => Command::Pass,
            "undo" => Command::Undo,
            "redo" => Command::Redo,
            "hint" => Command::Hint,
            "analyse" | "analyze" => Command::Analyse,
            "help" | "?" => Command::Help,
            "resign" => Command::Resign,
            "quit" | "exit" => Command::Quit,
            "go" => Command::Go,
            "new" => Command::New,
            "board" | "b" => Command::Board,
            "swap" => Command::Swap,
            _ if t == "level" || t.starts_with("level ") => {
                let n = t["level".len()..].trim();
                if n.is_empty() {
                    return Err(level_error("which level?"));
                }
                Command::Level(n.parse::<Level>().map_err(level_error)?)
            }
            _ => match t.parse::<Move>() {
                Ok(Move::Place(sq)) => Command::Place(sq),
                _ => {
                    return Err(CommandError(format!(
                        "{:?} is not a move or a command: type a square like f5, or help for the \
                         commands",
                        s.trim()
                    )))
                }
            },
        })
    }
}

/// What `help` prints. Its first line is a heading, so that after a prompt whose input was
/// not echoed (typed ahead, or piped) the list still starts on a line of its own.
pub const HELP: &str = "\
Commands:
  f5        play that square (either case; PAIP's 56 too); your legal moves are marked +
  pass      pass, when you have no move
  undo      take back your last move and the replies to it
  redo      play again what undo took back
  hint      the engine's move here, with its value (from the opening book while in it)
  analyse   every legal move with its value, best first
  go        the engine plays this move for you
  level N   the engine opponent plays at level N (1-60) from its next move
  swap      change sides: you take the other colour, the engine this one
  board     show the board again
  new       leave this game (it is saved) and start a new one
  resign    lose the game
  quit      stop; the unfinished game is saved
  help      this list
  The last move played is shown in brackets, like [X].";
