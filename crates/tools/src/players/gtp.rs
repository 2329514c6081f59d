//! The GTP client: drives an external engine that speaks the Go Text Protocol (version 2) with
//! Othello vertices, as GoGui drives Othello engines (Edax, Egaroucid, GRhino's `gtp-rhino`,
//! and `othello gtp`).
//!
//! The session, every command numbered (`<id> <command>`, the answer must echo the id):
//!
//! ```text
//! boardsize 8                       once at start, within the start-up deadline (a refusal
//!                                   is logged and accepted: the engine may know only 8x8)
//! clear_board                       when the game is not the one the engine holds plus moves
//! time_settings <main> 0 0          after clear_board, when the game has a clock (whole
//!                                   seconds, as GTP has them; the increment is not sent)
//! play b|w <vertex|pass>            for every move the engine has not seen (the opponent's);
//!                                   an engine that refuses `play b|w pass` (GRhino) passes
//!                                   implicitly, and its passes are no longer sent
//! time_left b|w <seconds> 0         before every genmove of a timed game (whole seconds,
//!                                   rounded down); a refused clock command is only logged
//! genmove b|w                       its move: a vertex, pass or resign
//! quit                              at the end
//! ```
//!
//! - **Vertices** are Othello square names (`D3` is d3, row 1 the row of a1), as Edax and
//!   our own `othello gtp` read them ([`crate::protocol::gtp::parse_vertex`]).
//! - **Faults** end the game for the engine (the referee, [`crate::arena::referee`], scores
//!   them): no answer before the deadline is [`PlayerError::Timeout`]; an engine whose output
//!   ends is [`PlayerError::Crashed`]; a line that is not a GTP response (`=`/`?` with our
//!   id), or a refused `play`, `clear_board` or `genmove`, is [`PlayerError::Protocol`]; an
//!   answer to `genmove` that is not a vertex is [`PlayerError::BadMove`]; `resign` is
//!   [`PlayerError::Resigned`]. A legal-looking move that is illegal, or `pass` while a move
//!   exists, is refused by the referee as for any player. The engine is asked for passes too,
//!   and must answer `pass`.
//! - The process handling (start, the reader threads with their bounded lines and queue,
//!   `quit` then kill) is the NBoard client's ([`super::nboard`]); so is the start-up deadline.
//! - The engine's thinking time is measured from writing `genmove` to reading its answer.
//! - A match's depth limit is not sent (GTP has no such command).
//! - A game that does not start from the standard position cannot be set up over GTP: it is
//!   a [`PlayerError::Protocol`] fault, said plainly.

use crate::time::{Duration, Instant};

use super::nboard::{EngineCommand, Process};
use super::{Choice, Player, PlayerError, Turn};
use crate::board::{Color, Move, Position};
use crate::game::Game;
use crate::protocol::gtp::{parse_vertex, vertex};

/// At most this many characters of an engine's line are quoted in an error.
const QUOTE_CHARS: usize = 80;

/// An external GTP engine as a [`Player`].
pub struct GtpPlayer {
    command: EngineCommand,
    process: Option<Process>,
    /// The id of the last command sent.
    id: u32,
    /// The start and moves the engine holds, as last sent; `None` when unknown.
    synced: Option<(Position, Vec<Move>)>,
    /// How long a start (or restart) may take to answer `boardsize`.
    startup_timeout: Duration,
    /// The engine refused `play <colour> pass` (GRhino does: its passes are implicit), so
    /// passes are not sent to it.
    implicit_passes: bool,
}

/// A GTP answer: `Ok(text)` for `=`, `Err(text)` for `?`, and when its first line was read.
type Answer = (Instant, Result<String, String>);

fn quote(line: &str) -> String {
    line.chars().take(QUOTE_CHARS).collect()
}

fn colour(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl GtpPlayer {
    /// Starts the engine and waits (at most `startup_timeout`) for its answer to
    /// `boardsize 8`, so that start-up time is never charged to a clock.
    pub fn spawn_with_startup(
        command: EngineCommand,
        startup_timeout: Duration,
    ) -> Result<GtpPlayer, PlayerError> {
        let mut player = GtpPlayer {
            command,
            process: None,
            id: 0,
            synced: None,
            startup_timeout,
            implicit_passes: false,
        };
        player.start()?;
        Ok(player)
    }

    fn start(&mut self) -> Result<(), PlayerError> {
        let process = self.command.spawn()?;
        self.process = Some(process);
        self.synced = None;
        self.implicit_passes = false;
        let deadline = Instant::now() + self.startup_timeout;
        match self.request("boardsize 8", Some(deadline)) {
            Ok((_, Ok(_))) => Ok(()),
            Ok((_, Err(message))) => {
                log::info!(
                    "{}: boardsize 8 refused ({message}); going on",
                    self.command.name
                );
                Ok(())
            }
            Err(e) => {
                if let Some(mut process) = self.process.take() {
                    process.kill();
                }
                Err(e)
            }
        }
    }

    /// Sends `command` with the next id and reads its answer, waiting until `deadline`.
    fn request(&mut self, command: &str, deadline: Option<Instant>) -> Result<Answer, PlayerError> {
        self.id += 1;
        let id = self.id;
        let name = self.command.name.clone();
        let Some(process) = self.process.as_mut() else {
            return Err(PlayerError::Crashed("not running".to_string()));
        };
        process.send(&name, &format!("{id} {command}"))?;
        // The answer's first line; blank lines before it are the end of earlier answers.
        let (read_at, head) = loop {
            let (read_at, line) = process.receive_stamped(deadline)?;
            if !line.trim().is_empty() {
                break (read_at, line);
            }
        };
        let text = head.trim();
        let (ok, rest) = match text.as_bytes()[0] {
            b'=' => (true, &text[1..]),
            b'?' => (false, &text[1..]),
            _ => {
                return Err(PlayerError::Protocol(format!(
                    "{command}: expected an answer starting with = or ?, got {:?}",
                    quote(text)
                )))
            }
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[..digits].parse::<u32>() != Ok(id) {
            return Err(PlayerError::Protocol(format!(
                "{command}: the answer {:?} does not carry the command's id {id}",
                quote(text)
            )));
        }
        let mut body = rest[digits..].trim().to_string();
        // Further lines, up to the blank line that ends the answer.
        loop {
            let line = process.receive(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            body.push('\n');
            body.push_str(line.trim_end());
        }
        Ok((read_at, if ok { Ok(body) } else { Err(body) }))
    }

    /// Sends `command`, which the engine may refuse (logged): the clock commands, which GTP
    /// makes optional.
    fn optional(&mut self, command: &str, deadline: Option<Instant>) -> Result<(), PlayerError> {
        if let Err(message) = self.request(command, deadline)?.1 {
            log::debug!(
                "{}: {command} refused ({}); going on",
                self.command.name,
                quote(&message)
            );
        }
        Ok(())
    }

    /// Sends `command`, which the engine must accept.
    fn command(&mut self, command: &str, deadline: Option<Instant>) -> Result<(), PlayerError> {
        match self.request(command, deadline)?.1 {
            Ok(_) => Ok(()),
            Err(message) => Err(PlayerError::Protocol(format!(
                "the engine refused {command:?}: {}",
                quote(&message)
            ))),
        }
    }

    fn exchange(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        if self.process.is_none() {
            self.start()?;
        }
        let game = turn.game;
        if game.start() != Position::start() {
            return Err(PlayerError::Protocol(
                "a GTP engine cannot be given a game that does not start from the standard \
                 position"
                    .to_string(),
            ));
        }
        let moves: Vec<Move> = game.moves().iter().map(|r| r.mv).collect();
        let known = match &self.synced {
            Some((start, old)) if *start == game.start() && moves.starts_with(old) => old.len(),
            _ => {
                self.command("clear_board", turn.deadline)?;
                if let Some(tc) = game.time_control(game.position().side) {
                    if !tc.is_untimed() {
                        // GTP's times are whole seconds.
                        let main = tc.initial.max(0.0).floor() as u64;
                        self.optional(&format!("time_settings {main} 0 0"), turn.deadline)?;
                    }
                }
                0
            }
        };
        // Whatever fails from here leaves the engine's game unknown.
        self.synced = None;
        for (k, mv) in moves.iter().enumerate().skip(known) {
            if *mv == Move::Pass && self.implicit_passes {
                continue;
            }
            let line = format!("play {} {}", colour(game.mover(k)), vertex(*mv));
            match self.request(&line, turn.deadline)?.1 {
                Ok(_) => {}
                // A forced pass the engine will not be told of: it passes implicitly, as
                // GRhino does (`? syntax error`). Its game is the same without the pass.
                Err(message) if *mv == Move::Pass => {
                    log::info!(
                        "{}: {line:?} refused ({}); its passes are implicit",
                        self.command.name,
                        quote(&message)
                    );
                    self.implicit_passes = true;
                }
                Err(message) => {
                    return Err(PlayerError::Protocol(format!(
                        "the engine refused {line:?}: {}",
                        quote(&message)
                    )))
                }
            }
        }
        let side = game.position().side;
        if let Some(seconds) = game.remaining_seconds(side) {
            let whole = seconds.max(0.0).floor() as u64;
            self.optional(
                &format!("time_left {} {whole} 0", colour(side)),
                turn.deadline,
            )?;
        }
        let line = format!("genmove {}", colour(side));
        let sent = Instant::now();
        let (read_at, answer) = self.request(&line, turn.deadline)?;
        let text = answer.map_err(|message| {
            PlayerError::Protocol(format!("the engine refused {line:?}: {}", quote(&message)))
        })?;
        let word = text.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(PlayerError::Resigned);
        }
        let mv = match parse_vertex(word) {
            Ok(mv) if text.split_whitespace().count() == 1 => mv,
            _ => return Err(PlayerError::BadMove(quote(&text))),
        };
        let mut held = moves;
        held.push(mv);
        self.synced = Some((game.start(), held));
        Ok(Choice {
            mv,
            eval: None,
            elapsed: Some(read_at.saturating_duration_since(sent)),
        })
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> &str {
        &self.command.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), PlayerError> {
        if self.process.is_none() {
            self.start()?;
        }
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let result = self.exchange(turn);
        if result.is_err() {
            // The engine's game is unknown: clear the board next time.
            self.synced = None;
        }
        result
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.start()
    }
}

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.quit(&self.command.name);
        }
    }
}

/// The game's moves as the GTP `play` commands that replay them from the start, for messages
/// and tests.
pub fn play_commands(game: &Game) -> Vec<String> {
    game.moves()
        .iter()
        .enumerate()
        .map(|(k, r)| format!("play {} {}", colour(game.mover(k)), vertex(r.mv)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveRecord;
    use crate::square::Square;

    #[test]
    fn moves_become_play_commands_with_the_mover_s_colour() {
        let mut game = Game::default();
        game.push(MoveRecord::new(Move::Place(Square::F5))).unwrap();
        game.push(MoveRecord::new(Move::Place(Square::D6))).unwrap();
        assert_eq!(play_commands(&game), ["play b F5", "play w D6"]);
    }
}
