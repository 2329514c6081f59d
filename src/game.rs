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
use crate::search::Clock;
use crate::square::SquareError;

/// Grace time GGF assumes when a clock does not give one: two minutes.
pub const DEFAULT_GRACE_SECS: f64 = 120.0;

/// Largest time (in seconds) a clock or a move may record: about 31 years. Keeps every time
/// convertible to a [`Duration`].
pub const MAX_SECONDS: f64 = 1e9;

/// At most this many characters of offending text are quoted in an error.
const MAX_ERROR_TEXT: usize = 32;

/// The first characters of `s`, for error messages.
pub(crate) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(MAX_ERROR_TEXT).collect();
    if s.chars().nth(MAX_ERROR_TEXT).is_some() {
        out.push('…');
    }
    out
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

/// A GGF clock: initial time, increment per move and grace time, all in seconds.
///
/// Text form `time[/increment[/grace]]`, each a time `[[d.]h:]m:s` or plain seconds: `15:00`
/// (15 minutes), `1:00:00` (an hour), `90.5`, `5:00/10` (10 s increment), `5:00//2:00` (no
/// increment, 2 minutes grace). A missing grace is [`DEFAULT_GRACE_SECS`]. When a side's time
/// runs out the first time, the grace is added once; after a second time-out its clock stays
/// at zero (the GGS rule, as NBoard applies it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time on the clock at the start, in seconds.
    pub initial: f64,
    /// Time added after each move, in seconds.
    pub increment: f64,
    /// Time added once, at the first time-out, in seconds.
    pub grace: f64,
}

impl TimeControl {
    /// A clock of `initial` seconds, no increment, the default grace.
    pub fn new(initial: f64) -> TimeControl {
        TimeControl {
            initial,
            increment: 0.0,
            grace: DEFAULT_GRACE_SECS,
        }
    }

    /// Whether the clock is unset: no time and no increment (NBoard writes `TI[0]` for untimed
    /// games).
    pub fn is_untimed(&self) -> bool {
        self.initial == 0.0 && self.increment == 0.0
    }

    /// Seconds left after moves that took `move_seconds` each, with increments and the grace.
    pub fn remaining(&self, move_seconds: impl IntoIterator<Item = f64>) -> f64 {
        let mut left = self.initial;
        let mut timeouts = 0;
        for spent in move_seconds {
            left -= spent;
            if left < 0.0 && timeouts == 0 {
                left += self.grace;
                timeouts = 1;
            }
            if left < 0.0 {
                left = 0.0;
                timeouts = 2;
            }
            if timeouts < 2 {
                left += self.increment;
            }
        }
        left.clamp(0.0, MAX_SECONDS)
    }
}

/// Why a clock could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad clock {0:?}: expected time[/increment[/grace]] with times like 15:00 or 90")]
pub struct ParseClockError(pub String);

/// Reads one time: `s`, `m:s`, `h:m:s` or `d.h:m:s`; only the seconds may have decimals.
fn parse_time(text: &str) -> Option<f64> {
    let t = text.trim();
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let integer = |p: &str| -> Option<f64> {
        if p.is_empty() || p.len() > 9 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        p.parse::<u32>().ok().map(f64::from)
    };
    let (last, leading) = parts.split_last()?;
    let mut total = 0.0;
    for (i, part) in leading.iter().enumerate() {
        let value = match part.split_once('.') {
            // Days, only in front of h:m:s.
            Some((d, h)) if i == 0 && parts.len() == 3 => integer(d)? * 24.0 + integer(h)?,
            _ => integer(part)?,
        };
        total = total * 60.0 + value;
    }
    let seconds = {
        let (whole, frac) = last.split_once('.').unwrap_or((last, ""));
        let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty()
            || !digits(whole)
            || !digits(frac)
            || (last.contains('.') && frac.is_empty())
        {
            return None;
        }
        last.parse::<f64>().ok()?
    };
    let total = total * 60.0 + seconds;
    (total.is_finite() && total <= MAX_SECONDS).then_some(total)
}

/// Writes a time the way GGF files do: `h:mm:ss`, `m:ss` or plain seconds (with decimals if
/// needed, never an exponent).
fn write_time(f: &mut fmt::Formatter<'_>, secs: f64) -> fmt::Result {
    if secs.fract() != 0.0 || secs < 60.0 {
        return write!(f, "{secs}");
    }
    let whole = secs as u64;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    if h > 0 {
        write!(f, "{h}:{m:02}:{s:02}")
    } else {
        write!(f, "{m}:{s:02}")
    }
}

impl FromStr for TimeControl {
    type Err = ParseClockError;

    fn from_str(s: &str) -> Result<TimeControl, ParseClockError> {
        let bad = || ParseClockError(clip(s));
        let mut fields = s.split('/');
        let initial = parse_time(fields.next().unwrap_or("")).ok_or_else(bad)?;
        let increment = match fields.next().map(str::trim) {
            None | Some("") => 0.0,
            Some(t) => parse_time(t).ok_or_else(bad)?,
        };
        let grace = match fields.next() {
            None => DEFAULT_GRACE_SECS,
            Some(t) => parse_time(t).ok_or_else(bad)?,
        };
        if fields.next().is_some() {
            return Err(bad());
        }
        Ok(TimeControl {
            initial,
            increment,
            grace,
        })
    }
}

impl fmt::Display for TimeControl {
    /// `15:00`, `5:00/10`, `5:00//2:00` or `5:00/10/2:00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_time(f, self.initial)?;
        let default_grace = self.grace == DEFAULT_GRACE_SECS;
        if self.increment != 0.0 || !default_grace {
            f.write_str("/")?;
            if self.increment != 0.0 {
                write_time(f, self.increment)?;
            }
        }
        if !default_grace {
            f.write_str("/")?;
            write_time(f, self.grace)?;
        }
        Ok(())
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
        if index % 2 == 0 {
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

    /// The time control of `color`, if any.
    pub fn time_control(&self, color: Color) -> Option<TimeControl> {
        match color {
            Color::Black => self.black_clock,
            Color::White => self.white_clock,
        }
    }

    /// Seconds left on `color`'s clock after the recorded move times (moves without a time
    /// count as instant), or `None` if that side is untimed (no clock, or `TI[0]`).
    pub fn remaining_seconds(&self, color: Color) -> Option<f64> {
        let tc = self.time_control(color).filter(|tc| !tc.is_untimed())?;
        let spent = self
            .moves
            .iter()
            .enumerate()
            .filter(|(i, _)| self.mover(*i) == color)
            .map(|(_, r)| r.seconds.unwrap_or(0.0));
        Some(tc.remaining(spent))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    /// The example game of the NBoard protocol notes.
    const NBOARD_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    /// White to move with no move, Black can take h8.
    fn white_must_pass() -> String {
        format!("{}O- O", "*".repeat(62))
    }

    fn round_trips(game: &Game) {
        let text = game.to_string();
        let again: Game = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(&again, game, "{text}");
        assert_eq!(again.to_string(), text);
    }

    #[test]
    fn reads_the_nboard_example() {
        let g: Game = NBOARD_EXAMPLE.parse().unwrap();
        assert_eq!(g.place, "NBoard");
        assert_eq!(g.date, "2014-02-21 20:52:27 GMT");
        assert_eq!(
            (g.black_name.as_str(), g.white_name.as_str()),
            ("./mEdax", "chris")
        );
        assert_eq!(g.result, GameResult::Unfinished);
        assert_eq!(g.black_clock, Some(TimeControl::new(900.0)));
        assert_eq!(g.white_clock, g.black_clock);
        assert_eq!(g.start(), Position::start());
        assert_eq!(g.moves().len(), 8);
        assert_eq!(g.moves()[7].mv, Move::Place(Square::F4));
        assert_eq!(g.position().side, Color::Black);
        assert_eq!(g.positions().len(), 9);
        // Our writer reproduces NBoard's own text.
        assert_eq!(g.to_string(), NBOARD_EXAMPLE);
        round_trips(&g);
    }

    #[test]
    fn move_records_in_every_form() {
        let r = |s: &str| s.parse::<MoveRecord>().unwrap();
        let f5 = Move::Place(Square::F5);
        assert_eq!(r("F5"), MoveRecord::new(f5));
        assert_eq!(r("f5"), MoveRecord::new(f5));
        assert_eq!(r("F5/1.00").eval, Some(1.0));
        assert_eq!(
            r("F5/-1.50/2.5"),
            MoveRecord {
                mv: f5,
                eval: Some(-1.5),
                seconds: Some(2.5)
            }
        );
        assert_eq!(
            r("F5//2.5"),
            MoveRecord {
                mv: f5,
                eval: None,
                seconds: Some(2.5)
            }
        );
        assert_eq!(r("PA").mv, Move::Pass);
        assert_eq!(r("pa//0").seconds, Some(0.0));
        assert_eq!(r("F5//2.5").to_string(), "F5//2.5");
        assert_eq!(
            r("F5/0,50/1,5"),
            MoveRecord {
                mv: f5,
                eval: Some(0.5),
                seconds: Some(1.5)
            }
        );
        assert_eq!(r("F5/0.5/1.0E-4").seconds, Some(1e-4));
        assert_eq!(r("f5/1.00/3").to_string(), "F5/1/3");
        for bad in [
            "", "Z9", "F5/x", "F5/1/-2", "F5/1/2/3", "F5/nan", "F5//inf", "F5/1e400",
        ] {
            assert!(bad.parse::<MoveRecord>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_in_every_form() {
        let c = |s: &str| s.parse::<TimeControl>().unwrap();
        assert_eq!(c("15:00"), TimeControl::new(900.0));
        assert_eq!(c("900"), TimeControl::new(900.0));
        assert_eq!(c("1:00:00").initial, 3600.0);
        assert_eq!(c("1.02:00:00").initial, 26.0 * 3600.0);
        assert_eq!(c("90.5").initial, 90.5);
        assert_eq!(c("5:00/10").increment, 10.0);
        let g = c("5:00//2:00");
        assert_eq!((g.initial, g.increment, g.grace), (300.0, 0.0, 120.0));
        assert_eq!(c("0//0").grace, 0.0);
        for s in [
            "15:00",
            "1:00:00",
            "5:00/10",
            "5:00//1:00",
            "90.5/0.5/3",
            "0//0",
            "30",
        ] {
            assert_eq!(c(s).to_string(), s);
            assert_eq!(c(&c(s).to_string()), c(s));
        }
        for bad in [
            "", "x", "1:2:3:4", "-5", "1.5:00", "5:00/x", "1/2/3/4", "1e3", "5.",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn remaining_time_follows_the_ggs_rules() {
        let tc = TimeControl {
            initial: 60.0,
            increment: 2.0,
            grace: 30.0,
        };
        assert_eq!(tc.remaining([]), 60.0);
        assert_eq!(tc.remaining([10.0, 5.0]), 60.0 - 15.0 + 4.0);
        // First time-out: the grace is added once.
        assert_eq!(tc.remaining([70.0]), 60.0 - 70.0 + 30.0 + 2.0);
        // Second time-out: zero, no more increments.
        assert_eq!(tc.remaining([70.0, 100.0, 1.0]), 0.0);
    }

    #[test]
    fn game_clock_counts_only_the_movers_times() {
        let text = "(;GM[Othello]TB[1:00]TW[2:00/5]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//20]B[E6//1.5];)";
        let g: Game = text.parse().unwrap();
        assert_eq!(g.remaining_seconds(Color::Black), Some(60.0 - 11.5));
        assert_eq!(g.remaining_seconds(Color::White), Some(120.0 - 20.0 + 5.0));
        let clock = g.clock().unwrap();
        assert_eq!(clock.remaining, Duration::from_secs(105));
        assert_eq!(clock.increment, Duration::from_secs(5));
        round_trips(&g);
        // TI[0] is untimed.
        let untimed: Game = "(;GM[Othello]TI[0];)".parse().unwrap();
        assert_eq!(untimed.clock(), None);
    }

    #[test]
    fn reads_any_start_position_and_alternative_letters() {
        let text = format!(
            "2 (;GM[othello]BO[8 {} x]B[h8];)",
            "xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxx0_"
        );
        let g: Game = text.parse().unwrap();
        assert_eq!(g.start().side, Color::Black);
        assert!(g.position().board.is_game_over());
        round_trips(&g);
    }

    #[test]
    fn passes_are_explicit_and_missing_ones_are_inserted() {
        let bo = format!("BO[8 {}]", white_must_pass());
        let explicit: Game = format!("(;{bo}W[PA]B[H8];)").parse().unwrap();
        assert_eq!(explicit.moves().len(), 2);
        let implicit: Game = format!("(;{bo}B[H8];)").parse().unwrap();
        assert_eq!(implicit, explicit);
        assert!(implicit.to_string().contains("W[PA]B[H8]"));
        round_trips(&implicit);
    }

    #[test]
    fn results_and_unknown_tags() {
        let g: Game =
            "1 (;GM[Othello]PC[GGS/os]RE[+12.00:r]CO[nice]KM[0]XX[1]BO[8 ---------------------------O*------*O--------------------------- *];)"
                .parse()
                .unwrap();
        assert_eq!(
            g.result,
            GameResult::Finished {
                black_margin: 12.0,
                end: GameEnd::Resignation
            }
        );
        assert_eq!(g.to_string(), "(;GM[Othello]PC[GGS/os]PB[]PW[]RE[12:r]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
        round_trips(&g);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
        let err = |s: String| s.parse::<Game>().unwrap_err();
        assert_eq!(err(String::new()), GgfError::MissingStart);
        assert_eq!(err(format!("(;{start}")), GgfError::Unterminated);
        assert_eq!(
            err(format!("(;{start};) x")),
            GgfError::Trailing("x".into())
        );
        assert!(matches!(
            err("(;GM[Chess];)".into()),
            GgfError::NotOthello(_)
        ));
        assert!(matches!(
            err(format!("(;{start}B[A1];)")),
            GgfError::Illegal { number: 1, .. }
        ));
        assert!(matches!(
            err(format!("(;{start}W[F5];)")),
            GgfError::WrongColor { number: 1, .. }
        ));
        assert!(matches!(
            err(format!("(;{start}B[F5]W[Q9];)")),
            GgfError::BadMove { number: 2, .. }
        ));
        assert!(matches!(
            err("(;BO[10 -];)".into()),
            GgfError::BadBoard { .. }
        ));
        assert!(matches!(
            err("(;BO[8 ---];)".into()),
            GgfError::BadBoard { .. }
        ));
        assert!(matches!(
            err("(;TI[soon];)".into()),
            GgfError::BadClock { tag: "TI", .. }
        ));
        assert!(matches!(err("(;RE[won];)".into()), GgfError::BadResult(_)));
        assert!(matches!(err("(;B C[1];)".into()), GgfError::BadTag(_)));
        // A pass in a finished game is illegal.
        let full = format!("(;BO[8 {} *]B[PA];)", "*".repeat(64));
        assert!(matches!(
            err(full),
            GgfError::Illegal {
                number: 1,
                source: GameMoveError::GameOver(_)
            }
        ));
    }

    #[test]
    fn push_refuses_illegal_moves_and_keeps_the_game() {
        let mut g = Game::default();
        let before = g.clone();
        assert!(g.push(MoveRecord::new(Move::Place(Square::A1))).is_err());
        assert!(g.push(MoveRecord::new(Move::Pass)).is_err());
        assert_eq!(g, before);
        g.push("F5/0.5/1".parse().unwrap()).unwrap();
        assert_eq!(g.position().side, Color::White);
        round_trips(&g);
    }

    #[test]
    fn writer_drops_brackets_from_names() {
        let g = Game {
            black_name: "a]b".into(),
            ..Game::default()
        };
        assert!(g.to_string().contains("PB[ab]"));
    }
}
