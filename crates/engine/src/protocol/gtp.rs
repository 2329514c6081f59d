//! The Go Text Protocol (GTP version 2) face of the [`Engine`], for GUIs that host Othello
//! engines over GTP (GoGui, Quarry), with GoGui's rules extension (`gogui-rules_*`).
//!
//! I/O-free: [`Gtp::execute`] takes one input line and returns the response to write (or
//! nothing, for a blank or comment line); the binary's loop (`othello gtp`) reads standard
//! input and writes standard output. `PROTOCOL.md` describes the commands.
//!
//! **Vertices.** A GTP vertex is the Othello square of the same name: column letter `A`-`H`
//! (no letter skipped on 8x8), row number `1`-`8`, with `D3` the square d3 of Othello
//! notation (row 1 the row of a1). This is what Edax and Egaroucid do in their GTP modes, so
//! move lists read as Othello move lists (`F5` is the usual first move) and a GUI can set
//! this engine against theirs. A Go GUI draws GTP row 1 at the bottom, so it shows the board
//! mirrored top to bottom compared with an Othello diagram (the same game, seen in a
//! mirror); `gogui-rules_board` lists the rows as such a GUI draws them, row 8 first.
//!
//! **Clock.** `time_settings main byo stones` and `time_left colour seconds stones` give the
//! side to move a clock; without them (or with `time_settings` meaning no limit: byo-yomi
//! time with 0 stones), `genmove` searches for the default time per move
//! ([`GTP_MOVE_TIME_MS`] unless the engine was started otherwise).
//!
//! **Levels.** `othello-level N` (1 to 60, GoGui-style custom command) plays at level N
//! ([`crate::engine::level`]): untimed, so the default time per move no longer applies, but
//! a clock from `time_settings` still caps every move.
//!
//! Every refused command (unknown, wrong arguments, an illegal move, a colour that is not to
//! move) is answered `? message` and changes nothing.

use std::fmt;
use std::time::Duration;

use crate::board::{Color, Move, Position};
use crate::clock::Clock;
use crate::engine::{Engine, EngineError, Level};
use crate::game::{Game, MoveRecord};
use crate::square::Square;

/// Time per `genmove` when no clock has been set.
pub const GTP_MOVE_TIME_MS: u64 = 5_000;

/// The name `name` answers.
pub const GTP_NAME: &str = "othello";

/// The commands known, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "list_games",
    "set_game",
    "othello-level",
];

/// One GTP response: `=[id] text` or `?[id] text`, ended by an empty line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpResponse {
    /// The command's id, echoed.
    pub id: Option<u32>,
    /// The result (`Ok`) or the error message (`Err`).
    pub result: Result<String, String>,
    /// Whether the session ends after this response (`quit`).
    pub quit: bool,
}

impl fmt::Display for GtpResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        write!(f, "{mark}")?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        write!(f, " {text}\n\n")
    }
}

/// A side's clock as GTP describes it: seconds left, and the stones to play in them (0: main
/// time, the rest of the game).
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeLeft {
    seconds: f64,
    stones: u32,
}

/// The time settings: main time, byo-yomi time and stones.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeSettings {
    main: f64,
    byo: f64,
    stones: u32,
}

/// The GTP session: the engine, and the clocks GTP gave.
pub struct Gtp {
    engine: Engine,
    settings: Option<TimeSettings>,
    left: [Option<TimeLeft>; 2],
    default_move_time: Duration,
}

/// Why a command was refused: the message after `?`.
type Refusal = String;

fn side_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Reads a GTP colour: `b`, `black`, `w`, `white`, in any case.
fn parse_color(word: &str) -> Result<Color, Refusal> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("invalid color {:?}", clip(word))),
    }
}

/// Reads a vertex (`D3`, any case; the Othello square of that name) or `pass`.
pub fn parse_vertex(word: &str) -> Result<Move, Refusal> {
    if word.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = word.as_bytes();
    let square = match bytes {
        [c, r] => {
            let column = c.to_ascii_lowercase().wrapping_sub(b'a') as usize;
            let row = r.wrapping_sub(b'1') as usize;
            if column < 8 && row < 8 {
                Square::from_coords(column, row)
            } else if c.is_ascii_alphabetic() && r.is_ascii_digit() {
                return Err(format!("vertex {:?} is off the 8x8 board", clip(word)));
            } else {
                None
            }
        }
        [c, ..] if c.is_ascii_alphabetic() && word[1..].bytes().all(|b| b.is_ascii_digit()) => {
            return Err(format!("vertex {:?} is off the 8x8 board", clip(word)));
        }
        _ => None,
    };
    square
        .map(Move::Place)
        .ok_or_else(|| format!("invalid vertex {:?}", clip(word)))
}

/// Writes a move as a vertex: `D3`, or `pass`.
pub fn vertex(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Place(sq) => sq.to_string().to_ascii_uppercase(),
    }
}

/// At most 32 characters of `text`, for quoting bad input.
fn clip(text: &str) -> String {
    text.chars().take(32).collect()
}

/// Removes what GTP says to remove: control characters but tab and newline, a comment from
/// `#`; tabs become spaces.
fn preprocess(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

impl Gtp {
    /// A session over `engine`, searching `default_move_time` per move when no clock is set.
    pub fn new(engine: Engine, default_move_time: Duration) -> Gtp {
        Gtp {
            engine,
            settings: None,
            left: [None, None],
            default_move_time,
        }
    }

    /// The engine.
    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Runs one input line; `None` for a line with no command (blank, or a comment).
    pub fn execute(&mut self, line: &str) -> Option<GtpResponse> {
        let line = preprocess(line);
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let (id, command) = match first.parse::<u32>() {
            Ok(id) => (Some(id), words.next()),
            Err(_) if first.bytes().all(|b| b.is_ascii_digit()) => {
                return Some(GtpResponse {
                    id: None,
                    result: Err(format!("id {:?} is too large", clip(first))),
                    quit: false,
                });
            }
            Err(_) => (None, Some(first)),
        };
        let args: Vec<&str> = words.collect();
        let Some(command) = command else {
            return Some(GtpResponse {
                id,
                result: Err("missing command after the id".to_string()),
                quit: false,
            });
        };
        let result = self.run(command, &args);
        Some(GtpResponse {
            id,
            quit: command == "quit" && result.is_ok(),
            result,
        })
    }

    /// One command with its arguments.
    fn run(&mut self, command: &str, args: &[&str]) -> Result<String, Refusal> {
        let arity = |n: usize| -> Result<(), Refusal> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "{command} takes {n} argument{}, got {}",
                    if n == 1 { "" } else { "s" },
                    args.len()
                ))
            }
        };
        match command {
            "protocol_version" => arity(0).map(|()| "2".to_string()),
            "name" => arity(0).map(|()| GTP_NAME.to_string()),
            "version" => arity(0).map(|()| env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => {
                arity(1)?;
                Ok(COMMANDS.contains(&args[0]).to_string())
            }
            "list_commands" => arity(0).map(|()| COMMANDS.join("\n")),
            "quit" => arity(0).map(|()| String::new()),
            "boardsize" => {
                arity(1)?;
                match args[0].parse::<u32>() {
                    Ok(8) => Ok(String::new()),
                    Ok(_) => Err("unacceptable size".to_string()),
                    Err(_) => Err(format!("boardsize: {:?} is not a number", clip(args[0]))),
                }
            }
            "clear_board" => {
                arity(0)?;
                self.engine.set_game(Game::default());
                self.engine.new_game(0);
                Ok(String::new())
            }
            "komi" => {
                arity(1)?;
                match args[0].parse::<f64>() {
                    Ok(k) if k.is_finite() => Ok(String::new()),
                    _ => Err(format!("komi: {:?} is not a number", clip(args[0]))),
                }
            }
            "play" => {
                arity(2)?;
                let color = parse_color(args[0])?;
                let mv = parse_vertex(args[1])?;
                self.play(color, mv)
            }
            "genmove" => {
                arity(1)?;
                let color = parse_color(args[0])?;
                self.genmove(color)
            }
            "undo" => {
                arity(0)?;
                self.engine.undo().map_err(|_| "cannot undo".to_string())?;
                // A pass is never a choice: take back the move before it too.
                if matches!(self.engine.game().moves().last(), Some(r) if r.mv == Move::Pass) {
                    let _ = self.engine.undo();
                }
                Ok(String::new())
            }
            "showboard" => {
                arity(0)?;
                Ok(format!("\n{}", self.engine.game().position()))
            }
            "time_settings" => {
                arity(3)?;
                let main = parse_seconds(args[0])?;
                let byo = parse_seconds(args[1])?;
                let stones = args[2]
                    .parse::<u32>()
                    .map_err(|_| format!("time_settings: {:?} is not a count", clip(args[2])))?;
                if byo > 0.0 && stones == 0 {
                    // GTP's way of saying: no time limit.
                    self.settings = None;
                    self.left = [None, None];
                } else {
                    let settings = TimeSettings { main, byo, stones };
                    let start = if main > 0.0 {
                        TimeLeft {
                            seconds: main,
                            stones: 0,
                        }
                    } else {
                        TimeLeft {
                            seconds: byo,
                            stones,
                        }
                    };
                    self.settings = Some(settings);
                    self.left = [Some(start); 2];
                }
                Ok(String::new())
            }
            "time_left" => {
                arity(3)?;
                let color = parse_color(args[0])?;
                let seconds = parse_seconds(args[1])?;
                let stones = args[2]
                    .parse::<u32>()
                    .map_err(|_| format!("time_left: {:?} is not a count", clip(args[2])))?;
                self.left[side_index(color)] = Some(TimeLeft { seconds, stones });
                Ok(String::new())
            }
            // GTP's own score command (GRhino's and GoGui's): the final result, refused
            // while the game goes on.
            "final_score" => {
                arity(0)?;
                match self.final_result().as_str() {
                    "unknown" => Err("cannot score: the game is not over".to_string()),
                    result => Ok(result.to_string()),
                }
            }
            "gogui-rules_game_id" => arity(0).map(|()| "Othello".to_string()),
            "gogui-rules_board_size" => arity(0).map(|()| "8".to_string()),
            "gogui-rules_board" => arity(0).map(|()| self.rules_board()),
            "gogui-rules_legal_moves" => arity(0).map(|()| self.legal_moves()),
            "gogui-rules_side_to_move" => arity(0).map(|()| {
                match self.engine.game().position().side {
                    Color::Black => "black",
                    Color::White => "white",
                }
                .to_string()
            }),
            "gogui-rules_final_result" => arity(0).map(|()| self.final_result()),
            // Quarry's game selection: it asks which games an engine plays, then picks one.
            "list_games" => arity(0).map(|()| "Othello".to_string()),
            "set_game" => {
                if args.is_empty() {
                    return Err("set_game takes a game name".to_string());
                }
                let name = args.join(" ");
                if name.eq_ignore_ascii_case("othello") || name.eq_ignore_ascii_case("reversi") {
                    Ok(String::new())
                } else {
                    Err(format!("unsupported game {:?}", clip(&name)))
                }
            }
            "othello-level" => {
                arity(1)?;
                let level = args[0]
                    .parse::<Level>()
                    .map_err(|e| format!("othello-level: {e}"))?;
                self.engine.set_level(Some(level));
                Ok(String::new())
            }
            _ => Err(format!("unknown command {:?}", clip(command))),
        }
    }

    /// The game with a pass added first when `color` is not to move but the side to move must
    /// pass (GUIs often leave forced passes implicit); an error when the game is over (whoever
    /// asks), or when `color` is not to move otherwise.
    fn game_for(&self, color: Color) -> Result<Game, Refusal> {
        let mut game = self.engine.game().clone();
        let position = game.position();
        if position.board.is_game_over() {
            return Err("the game is over".to_string());
        }
        if position.side != color {
            if position.board.must_pass() {
                game.push(MoveRecord::new(Move::Pass))
                    .map_err(|e| e.to_string())?;
            } else {
                return Err(format!(
                    "wrong color: {} is to move",
                    color_name(position.side)
                ));
            }
        }
        Ok(game)
    }

    /// `play`: the move, after an implicit pass of the other side if it must pass.
    fn play(&mut self, color: Color, mv: Move) -> Result<String, Refusal> {
        let mut game = self.game_for(color)?;
        game.push(MoveRecord::new(mv))
            .map_err(|e| format!("illegal move: {e}"))?;
        self.engine.set_game(game);
        Ok(String::new())
    }

    /// `genmove`: the engine's move for `color`, played.
    fn genmove(&mut self, color: Color) -> Result<String, Refusal> {
        let game = self.game_for(color)?;
        let saved = self.engine.game().clone();
        self.engine.set_game(game);
        let (clock, move_time) = self.budget(color);
        let decision = match self.engine.choose(clock, move_time, &mut ()) {
            Ok(decision) => decision,
            Err(e) => {
                self.engine.set_game(saved);
                return Err(e.to_string());
            }
        };
        if let Err(e) = self.engine.play(MoveRecord::new(decision.mv)) {
            self.engine.set_game(saved);
            return Err(match e {
                EngineError::Move(e) => format!("the engine chose an illegal move: {e}"),
                e => e.to_string(),
            });
        }
        self.spend(color, decision.elapsed);
        Ok(vertex(decision.mv))
    }

    /// The clock and time per move for `color`'s move.
    fn budget(&self, color: Color) -> (Option<Clock>, Option<Duration>) {
        let (Some(settings), Some(left)) = (self.settings, self.left[side_index(color)]) else {
            return (None, Some(self.default_move_time));
        };
        let seconds = |s: f64| Duration::try_from_secs_f64(s.max(0.0)).unwrap_or_default();
        if left.stones > 0 {
            // Byo-yomi: this period's time shared by its stones.
            let per_move = seconds(0.9 * left.seconds / f64::from(left.stones));
            return (None, Some(per_move));
        }
        // Main time; a byo-yomi period after it counts as a small increment.
        let increment = if settings.stones > 0 {
            settings.byo / f64::from(settings.stones)
        } else {
            0.0
        };
        (
            Some(Clock {
                remaining: seconds(left.seconds),
                increment: seconds(increment),
            }),
            None,
        )
    }

    /// Takes `elapsed` off `color`'s clock (the GUI's `time_left` corrects it).
    fn spend(&mut self, color: Color, elapsed: Duration) {
        let (Some(settings), Some(left)) = (self.settings, &mut self.left[side_index(color)])
        else {
            return;
        };
        left.seconds -= elapsed.as_secs_f64();
        if left.stones > 0 {
            left.stones -= 1;
            if left.stones == 0 {
                *left = TimeLeft {
                    seconds: settings.byo,
                    stones: settings.stones,
                };
            }
        } else if left.seconds <= 0.0 && settings.stones > 0 {
            *left = TimeLeft {
                seconds: settings.byo,
                stones: settings.stones,
            };
        }
    }

    /// `gogui-rules_board`: the rows as a Go GUI draws them, row 8 first, `X` Black, `O`
    /// White, `.` empty, separated by spaces.
    fn rules_board(&self) -> String {
        let (black, white) = self.engine.game().position().black_white();
        let mut out = String::new();
        for row in (0..8).rev() {
            out.push('\n');
            let cells: Vec<&str> = (0..8)
                .map(|column| {
                    let bit = 1u64 << (row * 8 + column);
                    if black & bit != 0 {
                        "X"
                    } else if white & bit != 0 {
                        "O"
                    } else {
                        "."
                    }
                })
                .collect();
            out.push_str(&cells.join(" "));
        }
        out
    }

    /// `gogui-rules_legal_moves`: the vertices, `pass` when the side to move must pass,
    /// nothing when the game is over.
    fn legal_moves(&self) -> String {
        let board = self.engine.game().position().board;
        if board.is_game_over() {
            return String::new();
        }
        if board.must_pass() {
            return "pass".to_string();
        }
        board
            .legal_moves()
            .map(|sq| vertex(Move::Place(sq)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `gogui-rules_final_result`: `B+n`, `W+n` or `0` (a draw) by the final disc count
    /// (empty squares going to the winner), `unknown` while the game goes on.
    fn final_result(&self) -> String {
        final_result(&self.engine.game().position())
    }
}

/// The result of a finished game in GTP/SGF style (`B+4`, `W+10`, `0`), `unknown` while it
/// goes on. The score is the final disc difference with the empty squares given to the
/// winner, as Othello counts it.
pub fn final_result(position: &Position) -> String {
    if !position.board.is_game_over() {
        return "unknown".to_string();
    }
    let score = position.board.final_score();
    let black = match position.side {
        Color::Black => score,
        Color::White => -score,
    };
    match black {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Reads a number of seconds, finite and not negative.
fn parse_seconds(word: &str) -> Result<f64, Refusal> {
    match word.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(s),
        _ => Err(format!("{:?} is not a number of seconds", clip(word))),
    }
}
