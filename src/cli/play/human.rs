//! The person at the terminal as a [`Player`], PAIP's `human` strategy with a friendlier
//! prompt: it reads one line at a time from an injected reader, answers on an injected writer,
//! and gives the referee only legal moves.
//!
//! A bad line (not a command, an illegal move, a pass while a move exists, bytes that are not
//! text, a line longer than [`MAX_TYPED_LINE`]) is answered with the reason and the prompt
//! again: nothing changes. `hint`, `analyse` and `help` are answered at the prompt too. `undo`,
//! `redo` and `quit` (and the end of the input) are requests for the loop that runs the game:
//! the player stops without a move ([`PlayerError::Stopped`]) and leaves the request in
//! [`Human::take_request`]; `resign` resigns ([`PlayerError::Resigned`]).

use std::io::{self, BufRead, Write};

use othello::board::{Color, Move, Position};
use othello::game::{Game, GameMoveError};
use othello::players::{Choice, Player, PlayerError, Turn};

use super::assist::Assistant;
use super::command::{Command, HELP};

/// What the person asked of the loop that runs the game.
#[derive(Debug)]
pub enum Request {
    /// Take back the last own move and the replies to it.
    Undo,
    /// Play again what the last undo took back.
    Redo,
    /// Stop, the game unfinished.
    Quit,
    /// Give up.
    Resign,
    /// The terminal failed.
    Failed(io::Error),
}

/// The person as a player.
pub struct Human<R, W> {
    input: R,
    out: W,
    name: String,
    color: Color,
    assistant: Assistant,
    request: Option<Request>,
    can_redo: bool,
}

/// Where `undo` goes back to in `game` for the person playing `color`: the number of moves
/// before the person's last placed disc (`None` when there is none).
pub fn undo_point(game: &Game, color: Color) -> Option<usize> {
    (0..game.moves().len())
        .rev()
        .find(|&i| game.mover(i) == color && game.moves()[i].mv != Move::Pass)
}

impl<R: BufRead + Send, W: Write + Send> Human<R, W> {
    /// The person called `name`, playing `color`, with the engine's help at hand.
    pub fn new(input: R, out: W, name: &str, color: Color, assistant: Assistant) -> Self {
        Human {
            input,
            out,
            name: name.to_string(),
            color,
            assistant,
            request: None,
            can_redo: false,
        }
    }

    /// The terminal's output, for the loop's board and messages.
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// Whether `redo` has anything to play again (the loop knows).
    pub fn set_can_redo(&mut self, can: bool) {
        self.can_redo = can;
    }

    /// What the person asked when the player last stopped or resigned.
    pub fn take_request(&mut self) -> Option<Request> {
        self.request.take()
    }

    /// After the game: offers the review, on the person's terminal.
    pub fn offer_review(&mut self, game: &Game) -> io::Result<()> {
        self.assistant
            .offer_review(&mut self.input, &mut self.out, game)
    }

    /// Reads lines until one is a move or a request.
    fn read_move(&mut self, game: &Game) -> io::Result<Result<Move, Request>> {
        let pos = game.position();
        loop {
            if pos.board.moves() == 0 {
                write!(self.out, "You have no move and must pass: type pass > ")?;
            } else {
                write!(self.out, "Your move [{}] > ", legal_list(&pos))?;
            }
            self.out.flush()?;
            let line = match read_typed_line(&mut self.input)? {
                TypedLine::End => {
                    writeln!(self.out)?;
                    return Ok(Err(Request::Quit));
                }
                TypedLine::Bad(why) => {
                    writeln!(self.out, "  {why}")?;
                    continue;
                }
                TypedLine::Text(line) if line.trim().is_empty() => continue,
                TypedLine::Text(line) => line,
            };
            let command = match line.parse::<Command>() {
                Ok(c) => c,
                Err(e) => {
                    writeln!(self.out, "  {e}")?;
                    continue;
                }
            };
            let mv = match command {
                Command::Quit => return Ok(Err(Request::Quit)),
                Command::Resign => return Ok(Err(Request::Resign)),
                Command::Help => {
                    writeln!(self.out, "{HELP}")?;
                    continue;
                }
                Command::Hint => {
                    self.assistant.hint(game, &mut self.out)?;
                    continue;
                }
                Command::Analyse => {
                    self.assistant.analyse(&pos, &mut self.out)?;
                    continue;
                }
                Command::Undo if undo_point(game, self.color).is_some() => {
                    return Ok(Err(Request::Undo))
                }
                Command::Undo => {
                    writeln!(self.out, "  nothing to undo")?;
                    continue;
                }
                Command::Redo if self.can_redo => return Ok(Err(Request::Redo)),
                Command::Redo => {
                    writeln!(self.out, "  nothing to redo")?;
                    continue;
                }
                Command::Pass => Move::Pass,
                Command::Place(sq) => Move::Place(sq),
            };
            match pos.try_play(mv) {
                Ok(_) => return Ok(Ok(mv)),
                Err(_) if mv == Move::Pass => {
                    let legal = legal_list(&pos);
                    writeln!(self.out, "  you cannot pass: you can play {legal}")?
                }
                Err(source) => {
                    let e = GameMoveError::Illegal {
                        mv,
                        side: pos.side,
                        source,
                    };
                    writeln!(self.out, "  illegal move: {e}")?
                }
            }
        }
    }
}

impl<R: BufRead + Send, W: Write + Send> Player for Human<R, W> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), PlayerError> {
        self.request = None;
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        match self.read_move(turn.game) {
            Ok(Ok(mv)) => Ok(Choice::new(mv)),
            Ok(Err(Request::Resign)) => {
                self.request = Some(Request::Resign);
                Err(PlayerError::Resigned)
            }
            Ok(Err(request)) => {
                self.request = Some(request);
                Err(PlayerError::Stopped)
            }
            Err(e) => {
                self.request = Some(Request::Failed(e));
                Err(PlayerError::Stopped)
            }
        }
    }
}

/// The legal moves, `c4 d3 e6 f5`.
fn legal_list(pos: &Position) -> String {
    pos.board
        .legal_moves()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The longest line read from the person (bytes); the rest of a longer line is dropped.
pub const MAX_TYPED_LINE: usize = 1024;

/// A line the person typed.
pub enum TypedLine {
    /// The input ended.
    End,
    /// Not a line to act on (not UTF-8, too long): why, to tell the person.
    Bad(String),
    /// A line of text.
    Text(String),
}

/// Reads one line: never more than [`MAX_TYPED_LINE`] bytes of it are kept, and bytes that are
/// not UTF-8 are an answer to give, not an error that ends the game.
pub fn read_typed_line(input: &mut impl BufRead) -> io::Result<TypedLine> {
    let mut bytes = Vec::new();
    let n = io::Read::take(&mut *input, MAX_TYPED_LINE as u64).read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(TypedLine::End);
    }
    if bytes.last() != Some(&b'\n') && n == MAX_TYPED_LINE {
        // Drop the rest of the line, however long.
        loop {
            let mut rest = Vec::new();
            let m =
                io::Read::take(&mut *input, MAX_TYPED_LINE as u64).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(TypedLine::Bad(format!(
            "that line is longer than {MAX_TYPED_LINE} bytes; type a move like f5"
        )));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(TypedLine::Text(text)),
        Err(_) => Ok(TypedLine::Bad(
            "that line is not text (invalid UTF-8); type a move like f5".to_string(),
        )),
    }
}
