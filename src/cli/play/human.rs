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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use othello::board::{Color, Move, Position};
use othello::engine::Level;
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
    /// The engine plays this move for the person.
    Go,
    /// Leave this game and start a new one.
    New,
    /// Change sides.
    Swap,
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
    /// Keep a clock line ticking above the prompt (standard output is a terminal).
    tick: bool,
    /// How `board` draws the board.
    style: super::board::Style,
    /// The level `level N` asked for, for the loop to give the opponent before its move.
    level: Option<Level>,
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
            tick: false,
            style: super::board::Style::default(),
            level: None,
        }
    }

    /// How `board` draws the board.
    pub fn set_style(&mut self, style: super::board::Style) {
        self.style = style;
    }

    /// The level the person asked for with `level N` since the last call, if any.
    pub fn take_level(&mut self) -> Option<Level> {
        self.level.take()
    }

    /// Shows the clocks above the prompt and updates them every second while the person
    /// thinks: for a terminal (the updates are cursor movements, written to standard output).
    pub fn set_ticking(&mut self, tick: bool) {
        self.tick = tick;
    }

    /// The colour the person plays from now on (`swap`).
    pub fn set_color(&mut self, color: Color) {
        self.color = color;
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
        // The turn's start: the clock line counts from here across the prompts of this turn.
        let started = Instant::now();
        loop {
            if self.tick {
                let line = clock_line(game, self.color, started.elapsed());
                writeln!(self.out, "{line}")?;
            }
            if pos.board.moves() == 0 {
                write!(self.out, "You have no move and must pass: type pass > ")?;
            } else {
                write!(self.out, "Your move [{}] > ", legal_list(&pos))?;
            }
            self.out.flush()?;
            let ticker = self.tick.then(|| Ticker::start(game, self.color, started));
            let typed = read_typed_line(&mut self.input);
            drop(ticker);
            let line = match typed? {
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
                Command::Go => return Ok(Err(Request::Go)),
                Command::New => return Ok(Err(Request::New)),
                Command::Board => {
                    super::board::write_board(&mut self.out, game, self.color, true, self.style)?;
                    continue;
                }
                Command::Level(level) => {
                    self.level = Some(level);
                    writeln!(self.out, "  level {level} from the opponent's next move")?;
                    continue;
                }
                Command::Swap => return Ok(Err(Request::Swap)),
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

/// `  clock: X 4:58 (you) | O 5:00`: each side's time left (or used, untimed), `elapsed` of
/// the person's current turn taken off (or added).
fn clock_line(game: &Game, you: Color, elapsed: Duration) -> String {
    let side = |color: Color| -> String {
        let times = game.move_times(color);
        let now = if color == you {
            elapsed.as_secs_f64()
        } else {
            0.0
        };
        let shown = match game.time_control(color).filter(|tc| !tc.is_untimed()) {
            Some(tc) => super::board::clock_string(tc.shown(&times) - now),
            None => format!(
                "{} used",
                super::board::clock_string(times.iter().sum::<f64>() + now)
            ),
        };
        let letter = if color == Color::Black { 'X' } else { 'O' };
        let who = if color == you { " (you)" } else { "" };
        format!("{letter} {shown}{who}")
    };
    format!("  clock: {} | {}", side(Color::Black), side(Color::White))
}

/// The clock line above the prompt, rewritten every second from a thread while the person
/// thinks (cursor saved, one line up, the line rewritten, cursor restored: what is being typed
/// stays where it is). Stops when dropped.
struct Ticker {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    fn start(game: &Game, you: Color, started: Instant) -> Ticker {
        let stop = Arc::new(AtomicBool::new(false));
        let game = game.clone();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut shown = started.elapsed().as_secs();
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                let elapsed = started.elapsed();
                if elapsed.as_secs() == shown {
                    continue;
                }
                shown = elapsed.as_secs();
                let line = clock_line(&game, you, elapsed);
                let mut out = io::stdout().lock();
                let _ = write!(out, "\x1b7\x1b[1A\r\x1b[2K{line}\x1b8");
                let _ = out.flush();
            }
        });
        Ticker {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
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
