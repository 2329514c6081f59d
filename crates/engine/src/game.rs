//! Game records: a start position, the moves played (each with an optional evaluation and time),
//! the players, the clocks and the result; the GGF text format that carries them; and the clock
//! arithmetic that turns a record into time left for the side to move.
//!
//! # GGF
//!
//! GGF (Generic Game Format) is the game format of the Generic Game Server and of the NBoard GUI,
//! which sends the current game to engines as `set game <GGF>`. A game is one line of tags:
//!
//! ```text
//! (;GM[Othello]PC[NBoard]PB[alice]PW[bob]RE[?]TI[15:00]TY[8]
//!   BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/-1.50/3.2];)
//! ```
//!
//! - the wrapper is `(;` ... `;)`, optionally preceded by `1 ` or `2 ` (GGS's match count);
//! - each tag is `KEY[value]`, with no nesting and no escaping: a value ends at the first `]`;
//! - `BO[8 <64 squares> <side>]` is the start position: squares a1, b1, ... h1, a2, ... h8, `*`
//!   (also `x`, `X`) Black, `O` (also `o`, `0`) White, `-` (also `.`, `_`) empty, whitespace
//!   ignored, then the side to move. Any position is allowed; without `BO` the game starts from
//!   the standard position;
//! - `B[..]` and `W[..]` are the moves in play order, `<move>[/<eval>[/<seconds>]]` with `PA`
//!   for a pass (see [`MoveRecord`]). Passes are explicit, so the letters alternate; a letter that
//!   does not match the side to move is accepted only where that side must pass, and then the
//!   pass is inserted. Every move is checked: an illegal one makes the whole game an error;
//! - `TI` (both sides), `TB` and `TW` (one side) are clocks, `time[/increment[/grace]]` (see
//!   [`TimeControl`]); `RE` is the result (see [`GameResult`]); `PC` place, `DT` date, `PB` and
//!   `PW` player names and `TY` game type are kept as text; `GM` must be `Othello`;
//! - unknown tags (`CO`, `RB`, `KM`, ...) are skipped.
//!
//! The writer ([`Game`]'s `Display`) emits tags in NBoard's order, `GM PC [DT] PB PW RE TI|TB TW
//! TY BO moves`, and never an exponent in a number; what it writes reads back to an equal game.
//! The reader returns errors, never panics, whatever the input.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use crate::board::{Color, IllegalMove, Move, Position};
use crate::clock::{Clock, ParseClockError, TimeControl, MAX_SECONDS};
use crate::square::SquareError;

/// At most this many characters of offending text are quoted in an error.
const MAX_ERROR_TEXT: usize = 32;

/// The first characters of `s`, for error messages.
pub(crate) fn clip(s: &str) -> String {
    crate::text::clip(s, MAX_ERROR_TEXT)
}

/// One move of a game record: the move and what the mover reported with it.
///
/// Text form `<move>[/<eval>[/<seconds>]]`: `F5`, `f5`, `F5/1.00`, `F5/1.00/2.5`, `F5//2.5`, `PA`.
/// The move is anything [`Move`]'s `FromStr` accepts; the eval (discs, the mover's view) and
/// the time (seconds spent) may each be blank. Numbers may use a decimal comma (`0,50`, as a
/// GUI formatting with a German locale sends it) or an exponent (`1.0E-4`, as Java prints
/// small times); they are always written with a point and no exponent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRecord {
    /// The move, or a pass.
    pub mv: Move,
    /// The mover's evaluation in discs, if reported.
    pub eval: Option<f64>,
    /// Seconds the mover spent, if recorded.
    pub seconds: Option<f64>,
}

impl MoveRecord {
    /// A record with no eval and no time.
    pub fn new(mv: Move) -> MoveRecord {
        MoveRecord {
            mv,
            eval: None,
            seconds: None,
        }
    }
}

/// Why a move record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseMoveRecordError {
    /// The move part is not a square or a pass.
    #[error("bad move {text:?}: {source}")]
    Move {
        /// The move text.
        text: String,
        /// Why it is not a square.
        source: SquareError,
    },
    /// The eval is not a finite decimal number.
    #[error("bad eval {0:?}: expected a number of discs like 1.50")]
    Eval(String),
    /// The time is not a non-negative decimal number of seconds.
    #[error("bad time {0:?}: expected seconds like 2.5")]
    Time(String),
    /// More than three `/`-separated fields.
    #[error("too many '/' in {0:?}: expected move[/eval[/seconds]]")]
    TooManyFields(String),
}

impl FromStr for MoveRecord {
    type Err = ParseMoveRecordError;

    fn from_str(s: &str) -> Result<MoveRecord, ParseMoveRecordError> {
        let mut fields = s.split('/');
        let mv_text = fields.next().unwrap_or("").trim();
        let eval_text = fields.next().map(str::trim).unwrap_or("");
        let time_text = fields.next().map(str::trim).unwrap_or("");
        if fields.next().is_some() {
            return Err(ParseMoveRecordError::TooManyFields(clip(s)));
        }
        let mv = mv_text
            .parse::<Move>()
            .map_err(|source| ParseMoveRecordError::Move {
                text: clip(mv_text),
                source,
            })?;
        let eval = match eval_text {
            "" => None,
            t => Some(parse_decimal(t).ok_or_else(|| ParseMoveRecordError::Eval(clip(t)))?),
        };
        let seconds = match time_text {
            "" => None,
            t => Some(
                parse_decimal(t)
                    .filter(|v| (0.0..=MAX_SECONDS).contains(v))
                    .ok_or_else(|| ParseMoveRecordError::Time(clip(t)))?,
            ),
        };
        Ok(MoveRecord { mv, eval, seconds })
    }
}

/// A finite number (`inf` and `NaN` are refused; `-0` becomes `0`).
fn parse_number(t: &str) -> Option<f64> {
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| v + 0.0)
}

/// A finite number that may use a decimal comma: NBoard formats evals with Java's
/// locale-dependent `%.2f`, so a German locale sends `move F5/0,50`.
fn parse_decimal(t: &str) -> Option<f64> {
    if t.contains(',') && !t.contains('.') {
        parse_number(&t.replacen(',', ".", 1))
    } else {
        parse_number(t)
    }
}

impl fmt::Display for MoveRecord {
    /// `F5`, `F5/1.5`, `F5//2.5` or `F5/1.5/2.5` (upper-case squares, no exponent ever).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.mv)?;
        match (self.eval, self.seconds) {
            (None, None) => Ok(()),
            (Some(e), None) => write!(f, "/{e}"),
            (None, Some(t)) => write!(f, "//{t}"),
            (Some(e), Some(t)) => write!(f, "/{e}/{t}"),
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Played out (or ended by agreement): no suffix.
    Normal,
    /// A player resigned: suffix `:r`.
    Resignation,
    /// A player ran out of time: suffix `:t`.
    Timeout,
}

/// A game's result (`RE` tag): unfinished (`?`), or Black's disc margin and how it ended.
///
/// Text form `?`, `12`, `-4`, `+12.00`, `0:r`, `-64:t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GameResult {
    /// Not finished (`RE[?]`).
    Unfinished,
    /// Finished.
    Finished {
        /// Black's discs minus White's (fractional with komi).
        black_margin: f64,
        /// How the game ended.
        end: GameEnd,
    },
}

/// Why a result could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad result {0:?}: expected ?, or Black's margin like 12, -4 or +2:r")]
pub struct ParseResultError(pub String);

impl FromStr for GameResult {
    type Err = ParseResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseResultError> {
        let t = s.trim();
        if t == "?" {
            return Ok(GameResult::Unfinished);
        }
        let (number, end) = match t.split_once(':') {
            None => (t, GameEnd::Normal),
            Some((n, "r")) => (n, GameEnd::Resignation),
            Some((n, "t")) => (n, GameEnd::Timeout),
            Some(_) => return Err(ParseResultError(clip(s))),
        };
        let number = number.trim();
        let plain = number
            .trim_start_matches(['+', '-'])
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.');
        match parse_number(number) {
            Some(m) if plain && m.abs() <= 64.0 => Ok(GameResult::Finished {
                black_margin: m,
                end,
            }),
            _ => Err(ParseResultError(clip(s))),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Unfinished => f.write_str("?"),
            GameResult::Finished { black_margin, end } => {
                write!(f, "{black_margin}")?;
                match end {
                    GameEnd::Normal => Ok(()),
                    GameEnd::Resignation => f.write_str(":r"),
                    GameEnd::Timeout => f.write_str(":t"),
                }
            }
        }
    }
}

/// Why a move cannot be added to a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum GameMoveError {
    /// The move is illegal in the current position.
    #[error("{mv:#} is illegal for {side:?}: {source}")]
    Illegal {
        /// The move.
        mv: Move,
        /// The side that was to move.
        side: Color,
        /// Why it is illegal.
        source: IllegalMove,
    },
    /// Neither side can move any more.
    #[error("{0:#} is illegal: the game is over")]
    GameOver(Move),
}

/// Why a GGF text could not be read. Move numbers count from 1 and include passes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GgfError {
    /// The text does not start with `(;` (after an optional `1 ` or `2 `).
    #[error("a GGF game starts with (; and ends with ;)")]
    MissingStart,
    /// The text ends before `;)` or inside a tag.
    #[error("the game is not terminated by ;)")]
    Unterminated,
    /// Something other than whitespace follows `;)`.
    #[error("unexpected text after the game: {0:?}")]
    Trailing(String),
    /// A tag name that is empty or not alphanumeric.
    #[error("bad tag name {0:?}")]
    BadTag(String),
    /// `GM` names another game.
    #[error("GM[{0}]: only Othello is supported")]
    NotOthello(String),
    /// `BO` is malformed.
    #[error("bad BO[{text}]: {reason}")]
    BadBoard {
        /// The tag value.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// `TI`, `TB` or `TW` is malformed.
    #[error("{tag}: {source}")]
    BadClock {
        /// The tag name.
        tag: &'static str,
        /// The parse error.
        source: ParseClockError,
    },
    /// `RE` is malformed.
    #[error("RE: {0}")]
    BadResult(ParseResultError),
    /// A `B[..]` or `W[..]` value is malformed.
    #[error("move {number}: {source}")]
    BadMove {
        /// The move number.
        number: usize,
        /// The parse error.
        source: ParseMoveRecordError,
    },
    /// A move is tagged with the colour that is not to move (and that colour cannot pass).
    #[error("move {number}: {found:?} is tagged but {expected:?} is to move")]
    WrongColor {
        /// The move number.
        number: usize,
        /// The colour of the tag.
        found: Color,
        /// The colour to move.
        expected: Color,
    },
    /// A move is illegal.
    #[error("move {number}: {source}")]
    Illegal {
        /// The move number.
        number: usize,
        /// Why.
        source: GameMoveError,
    },
}

/// A game record: metadata, a start position and the legal moves played from it.
///
/// The moves are private so that every record is legal: add them with [`Game::push`].
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Where the game was played (`PC`).
    pub place: String,
    /// When it was played (`DT`), free text; empty if unknown.
    pub date: String,
    /// Black's name (`PB`).
    pub black_name: String,
    /// White's name (`PW`).
    pub white_name: String,
    /// The result (`RE`).
    pub result: GameResult,
    /// Black's clock (`TB`, or `TI` for both), if timed.
    pub black_clock: Option<TimeControl>,
    /// White's clock (`TW`, or `TI` for both), if timed.
    pub white_clock: Option<TimeControl>,
    /// The game type (`TY`), `8` for a standard game.
    pub game_type: String,
    start: Position,
    moves: Vec<MoveRecord>,
    current: Position,
}

impl Default for Game {
    /// A game from the standard start with no moves, untimed.
    fn default() -> Game {
        Game::new(Position::start())
    }
}

impl Game {
    /// A game from `start` with no moves, no clocks and empty names.
    pub fn new(start: Position) -> Game {
        Game {
            place: String::new(),
            date: String::new(),
            black_name: String::new(),
            white_name: String::new(),
            result: GameResult::Unfinished,
            black_clock: None,
            white_clock: None,
            game_type: "8".to_string(),
            start,
            moves: Vec::new(),
            current: start,
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The moves played, passes included.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// The position after the last move: the position of interest.
    pub fn position(&self) -> Position {
        self.current
    }

    /// Every position of the game: the start, then the position after each move (so
    /// `positions()[n]` is the position after `n` moves).
    pub fn positions(&self) -> Vec<Position> {
        let mut all = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        all.push(pos);
        for record in &self.moves {
            pos = pos
                .try_play(record.mv)
                .expect("moves are checked when they are added");
            all.push(pos);
        }
        all
    }

    /// The colour that played move `index` (0-based): colours alternate from the start side,
    /// passes included.
    pub fn mover(&self, index: usize) -> Color {
        if index.is_multiple_of(2) {
            self.start.side
        } else {
            self.start.side.opposite()
        }
    }

    /// Adds a move after checking that it is legal. On error the game is unchanged.
    pub fn push(&mut self, record: MoveRecord) -> Result<(), GameMoveError> {
        let board = self.current.board;
        if board.is_game_over() {
            return Err(GameMoveError::GameOver(record.mv));
        }
        self.current =
            self.current
                .try_play(record.mv)
                .map_err(|source| GameMoveError::Illegal {
                    mv: record.mv,
                    side: self.current.side,
                    source,
                })?;
        self.moves.push(record);
        Ok(())
    }

    /// Takes back the last move (a pass counts as a move), returning it; `None` when no move
    /// has been played.
    pub fn pop(&mut self) -> Option<MoveRecord> {
        let record = self.moves.pop()?;
        let mut pos = self.start;
        for r in &self.moves {
            pos = pos
                .try_play(r.mv)
                .expect("moves are checked when they are added");
        }
        self.current = pos;
        Some(record)
    }

    /// The time control of `color`, if any.
    pub fn time_control(&self, color: Color) -> Option<TimeControl> {
        match color {
            Color::Black => self.black_clock,
            Color::White => self.white_clock,
        }
    }

    /// The recorded move times of `color`, in order (moves without a time count as instant):
    /// what the [`TimeControl`] rules are applied to.
    pub fn move_times(&self, color: Color) -> Vec<f64> {
        self.moves
            .iter()
            .enumerate()
            .filter(|(i, _)| self.mover(*i) == color)
            .map(|(_, r)| r.seconds.unwrap_or(0.0))
            .collect()
    }

    /// Seconds left on `color`'s clock after the recorded move times (moves without a time
    /// count as instant), or `None` if that side is untimed (no clock, or `TI[0]`).
    pub fn remaining_seconds(&self, color: Color) -> Option<f64> {
        let tc = self.time_control(color).filter(|tc| !tc.is_untimed())?;
        Some(tc.remaining(self.move_times(color)))
    }

    /// The search clock of the side to move: its remaining time and increment, if timed.
    pub fn clock(&self) -> Option<Clock> {
        let side = self.current.side;
        let remaining = self.remaining_seconds(side)?;
        let increment = self.time_control(side)?.increment;
        Some(Clock {
            remaining: Duration::try_from_secs_f64(remaining).unwrap_or_default(),
            increment: Duration::try_from_secs_f64(increment).unwrap_or_default(),
        })
    }

    /// Reads one GGF game at the start of `text` and returns it with the text that follows it.
    pub fn parse_prefix(text: &str) -> Result<(Game, &str), GgfError> {
        let mut rest = text.trim_start();
        if let Some(r) = rest.strip_prefix(['1', '2']) {
            rest = r.trim_start();
        }
        rest = rest
            .strip_prefix('(')
            .and_then(|r| r.trim_start().strip_prefix(';'))
            .ok_or(GgfError::MissingStart)?;
        let mut game = Game::default();
        let mut start = Position::start();
        let mut move_tags: Vec<(Color, &str)> = Vec::new();
        loop {
            let t = rest.trim_start();
            if let Some(after) = t.strip_prefix(';') {
                rest = after
                    .trim_start()
                    .strip_prefix(')')
                    .ok_or(GgfError::Unterminated)?;
                break;
            }
            let open = t.find('[').ok_or(GgfError::Unterminated)?;
            let key = t[..open].trim();
            let after = &t[open + 1..];
            let close = after.find(']').ok_or(GgfError::Unterminated)?;
            let value = &after[..close];
            rest = &after[close + 1..];
            if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return Err(GgfError::BadTag(clip(key)));
            }
            match key {
                "GM" if value.trim().eq_ignore_ascii_case("othello") => {}
                "GM" => return Err(GgfError::NotOthello(clip(value))),
                "PC" => game.place = value.to_string(),
                "DT" => game.date = value.to_string(),
                "PB" => game.black_name = value.to_string(),
                "PW" => game.white_name = value.to_string(),
                "TY" => game.game_type = value.to_string(),
                "RE" => game.result = value.parse().map_err(GgfError::BadResult)?,
                "TI" | "TB" | "TW" => {
                    let tag = match key {
                        "TI" => "TI",
                        "TB" => "TB",
                        _ => "TW",
                    };
                    let tc: TimeControl = value
                        .parse()
                        .map_err(|source| GgfError::BadClock { tag, source })?;
                    if key != "TW" {
                        game.black_clock = Some(tc);
                    }
                    if key != "TB" {
                        game.white_clock = Some(tc);
                    }
                }
                "BO" => start = parse_bo(value)?,
                "B" => move_tags.push((Color::Black, value)),
                "W" => move_tags.push((Color::White, value)),
                _ => log::debug!("GGF: skipping tag {key}"),
            }
        }
        game.start = start;
        game.current = start;
        for (color, text) in move_tags {
            let number = game.moves.len() + 1;
            let record: MoveRecord = text
                .parse()
                .map_err(|source| GgfError::BadMove { number, source })?;
            let expected = game.current.side;
            if color != expected {
                // A missing pass: accepted only where the side to move must pass.
                if !game.current.board.must_pass() {
                    return Err(GgfError::WrongColor {
                        number,
                        found: color,
                        expected,
                    });
                }
                game.push(MoveRecord::new(Move::Pass))
                    .expect("a forced pass is legal");
            }
            let number = game.moves.len() + 1;
            game.push(record)
                .map_err(|source| GgfError::Illegal { number, source })?;
        }
        Ok((game, rest))
    }
}

/// Reads a `BO` value: board size 8, 64 squares, the side to move.
fn parse_bo(value: &str) -> Result<Position, GgfError> {
    let bad = |reason| GgfError::BadBoard {
        text: clip(value),
        reason,
    };
    let t = value.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if &t[..digits] != "8" {
        return Err(bad("only 8x8 boards (BO[8 ...]) are supported"));
    }
    let (mut black, mut white, mut n) = (0u64, 0u64, 0);
    let mut side = None;
    for c in t[digits..].chars().filter(|c| !c.is_whitespace()) {
        let color = match c {
            '*' | 'x' | 'X' => Some(Color::Black),
            'O' | 'o' | '0' => Some(Color::White),
            '-' | '.' | '_' => None,
            _ => return Err(bad("unexpected character")),
        };
        if n < 64 {
            match color {
                Some(Color::Black) => black |= 1 << n,
                Some(Color::White) => white |= 1 << n,
                None => {}
            }
            n += 1;
        } else if side.is_none() {
            side = Some(color.ok_or_else(|| bad("the side to move must be * or O"))?);
        } else {
            return Err(bad("text after the side to move"));
        }
    }
    if n < 64 {
        return Err(bad("fewer than 64 squares"));
    }
    let side = side.ok_or_else(|| bad("missing the side to move"))?;
    Ok(Position::from_colors(black, white, side).expect("each square is set once"))
}

/// Writes a tag value, dropping any `]` (GGF cannot escape it; the reader never produces one).
fn write_tag(f: &mut fmt::Formatter<'_>, key: &str, value: &str) -> fmt::Result {
    write!(f, "{key}[")?;
    for c in value.chars().filter(|&c| c != ']') {
        write!(f, "{c}")?;
    }
    f.write_str("]")
}

impl FromStr for Game {
    type Err = GgfError;

    /// Reads exactly one GGF game (surrounding whitespace allowed).
    fn from_str(s: &str) -> Result<Game, GgfError> {
        let (game, rest) = Game::parse_prefix(s)?;
        match rest.trim() {
            "" => Ok(game),
            t => Err(GgfError::Trailing(clip(t))),
        }
    }
}

impl fmt::Display for Game {
    /// The game as one GGF line, tags in NBoard's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        write_tag(f, "PC", &self.place)?;
        if !self.date.is_empty() {
            write_tag(f, "DT", &self.date)?;
        }
        write_tag(f, "PB", &self.black_name)?;
        write_tag(f, "PW", &self.white_name)?;
        write!(f, "RE[{}]", self.result)?;
        match (self.black_clock, self.white_clock) {
            (Some(b), Some(w)) if b == w => write!(f, "TI[{b}]")?,
            (b, w) => {
                if let Some(b) = b {
                    write!(f, "TB[{b}]")?;
                }
                if let Some(w) = w {
                    write!(f, "TW[{w}]")?;
                }
            }
        }
        write_tag(f, "TY", &self.game_type)?;
        let (black, white) = self.start.black_white();
        f.write_str("BO[8 ")?;
        for sq in crate::square::Square::ALL {
            let c = if black & sq.bit() != 0 {
                '*'
            } else if white & sq.bit() != 0 {
                'O'
            } else {
                '-'
            };
            write!(f, "{c}")?;
        }
        let side = match self.start.side {
            Color::Black => '*',
            Color::White => 'O',
        };
        write!(f, " {side}]")?;
        for (i, record) in self.moves.iter().enumerate() {
            let letter = match self.mover(i) {
                Color::Black => 'B',
                Color::White => 'W',
            };
            write!(f, "{letter}[{record}]")?;
        }
        f.write_str(";)")
    }
}
