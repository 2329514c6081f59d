//! The referee: plays one game between two players, keeps the clocks, and ends the game on a
//! finished board or a fault.
//!
//! Every move, legal or not, is asked of the side to move, passes included (an NBoard engine
//! that must pass is sent `go` and must answer `PA`, as the GUI expects). The referee records
//! each move with the mover's evaluation and the time it took, so the game record carries the
//! clocks in NBoard's way: a side's time left is its initial time, plus the increments, minus
//! its recorded move times.
//!
//! [`play_game`] runs a game to the end. [`Referee`] runs it one turn at a time, for a face that
//! shows the board between moves and takes moves back (terminal play, `othello play`, where a
//! person is one of the players): a player that stops without a move
//! ([`PlayerError::Stopped`]) hands the turn back to the face instead of losing.
//!
//! # Faults
//!
//! A fault ends the game at once and loses it 64-0, as PAIP's `othello` scores a forfeit:
//!
//! - **time**: the side's used time exceeds its initial time plus increments plus the grace
//!   margin ([`TimeControl::grace`], written into the game's `TI` tag so engines know it). The
//!   GGS/NBoard rule that a side's clock gets the grace once, at its first time-out, and loses
//!   at its second, is the same rule. An engine that has not answered when even the grace is
//!   gone is not waited for any longer ([`TimeControl::deadline`]);
//! - **hung**: in an untimed game, no answer within the move timeout;
//! - **illegal**: an illegal move, a pass while a move exists, an unreadable answer, or a
//!   resignation (GTP's `resign`);
//! - **crash**: the engine's process ended, talking to it failed, or it broke its protocol
//!   (a GTP engine refusing a command or answering out of turn).
//!
//! In the record (`RE`), time and hang forfeits get GGF's `:t` suffix, illegal moves and
//! crashes `:r` (GGF has no other way to say that a game was not played out).

use std::time::SystemTime;

use crate::time::{Duration, Instant};

use crate::board::{Color, Move, Position};
use crate::clock::TimeControl;
use crate::game::{Game, GameEnd, GameMoveError, GameResult, MoveRecord};
use crate::players::{Player, PlayerError, Turn};

/// The disc margin a forfeit counts for (PAIP's `othello` returns ±64).
pub const FORFEIT_MARGIN: i32 = 64;

/// An opening: a start position and the moves played from it before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A name for reports (the XOT line, `random 10`, `start`).
    pub name: String,
    /// The start position (the standard one for XOT and random openings).
    pub start: Position,
    /// The moves, all legal from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start with no moves.
    pub fn start() -> Opening {
        Opening {
            name: "start".to_string(),
            start: Position::start(),
            moves: Vec::new(),
        }
    }

    /// The position after the opening moves, or `None` if one of them is illegal.
    pub fn position(&self) -> Option<Position> {
        self.moves
            .iter()
            .try_fold(self.start, |pos, &mv| pos.try_play(mv).ok())
    }
}

/// The rules of one game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Where the players start.
    pub opening: Opening,
    /// Each side's clock, if timed.
    pub clocks: Clocks,
    /// A depth limit passed to players that take one.
    pub depth: Option<u32>,
    /// In an untimed game, how long a move may take before the player is declared hung.
    pub move_timeout: Duration,
    /// Seeds the players' randomness (Black gets one stream, White another).
    pub seed: u64,
    /// The `PC` tag.
    pub place: String,
}

/// Black's and White's clocks: the same, but for a time-odds match (`match --time-b`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clocks {
    /// Black's clock, if timed.
    pub black: Option<TimeControl>,
    /// White's clock, if timed.
    pub white: Option<TimeControl>,
}

impl Clocks {
    /// The same clock (or none) for both sides.
    pub fn both(clock: Option<TimeControl>) -> Clocks {
        Clocks {
            black: clock,
            white: clock,
        }
    }

    /// The clock of `side`.
    pub fn of(&self, side: Color) -> Option<TimeControl> {
        match side {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Played to the end.
    Normal,
    /// The loser's time ran out (or it stopped answering in a timed game).
    Time {
        /// Who lost.
        loser: Color,
    },
    /// No answer within the move timeout of an untimed game.
    Hung {
        /// Who lost.
        loser: Color,
    },
    /// An illegal or unreadable move.
    Illegal {
        /// Who lost.
        loser: Color,
        /// The move as the player gave it, and why it is illegal.
        detail: String,
    },
    /// The engine crashed or could not be talked to.
    Crash {
        /// Who lost.
        loser: Color,
        /// What happened.
        detail: String,
    },
    /// The engine broke its protocol: a line that is not an answer, an answer to another
    /// command, or a command it refused. It is running; this is not a crash.
    Protocol {
        /// Who lost.
        loser: Color,
        /// The command and the engine's words.
        detail: String,
    },
}

impl Termination {
    /// The side that lost by a fault, if any.
    pub fn loser(&self) -> Option<Color> {
        match self {
            Termination::Normal => None,
            Termination::Time { loser }
            | Termination::Hung { loser }
            | Termination::Illegal { loser, .. }
            | Termination::Crash { loser, .. }
            | Termination::Protocol { loser, .. } => Some(*loser),
        }
    }

    /// What went wrong, for an illegal move or a crash (the player's words or ours).
    pub fn detail(&self) -> Option<&str> {
        match self {
            Termination::Illegal { detail, .. }
            | Termination::Crash { detail, .. }
            | Termination::Protocol { detail, .. } => Some(detail),
            _ => None,
        }
    }

    /// A short description: `normal`, `time`, `hung`, `illegal`, `crash`, `protocol`.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Time { .. } => "time",
            Termination::Hung { .. } => "hung",
            Termination::Illegal { .. } => "illegal",
            Termination::Crash { .. } => "crash",
            Termination::Protocol { .. } => "protocol",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// The record, with the result.
    pub game: Game,
    /// Black's final disc margin (empty squares to the winner); ±64 for a forfeit.
    pub black_margin: i32,
    /// How it ended.
    pub termination: Termination,
}

/// Rounds to `places` decimals (records stay short and exact in text).
fn round_to(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// A new game record for `setup` with the opening moves played (they carry no time).
pub fn new_record(setup: &GameSetup, black: &str, white: &str) -> Game {
    let mut game = Game::new(setup.opening.start);
    game.black_name = black.to_string();
    game.white_name = white.to_string();
    game.place = setup.place.clone();
    game.date = utc_date(SystemTime::now());
    game.black_clock = setup.clocks.black;
    game.white_clock = setup.clocks.white;
    for &mv in &setup.opening.moves {
        if game.push(MoveRecord::new(mv)).is_err() {
            break; // openings are checked when they are made
        }
    }
    game
}

/// Black's margin and the `RE` value for a game ended by `termination` on `position`.
pub fn result_of(position: &Position, termination: &Termination) -> (i32, GameResult) {
    let (margin, end) = match termination {
        Termination::Normal => {
            let score = position.board.final_score();
            let margin = match position.side {
                Color::Black => score,
                Color::White => -score,
            };
            (margin, GameEnd::Normal)
        }
        other => {
            let loser = other.loser().expect("a fault has a loser");
            let margin = match loser {
                Color::Black => -FORFEIT_MARGIN,
                Color::White => FORFEIT_MARGIN,
            };
            let end = match other {
                Termination::Time { .. } | Termination::Hung { .. } => GameEnd::Timeout,
                _ => GameEnd::Resignation,
            };
            (margin, end)
        }
    };
    let result = GameResult::Finished {
        black_margin: margin as f64,
        end,
    };
    (margin, result)
}

/// Plays one game of `black` against `white`. Never fails: every problem with a player is a
/// fault that loses the game for it (see the module notes).
pub fn play_game(black: &mut dyn Player, white: &mut dyn Player, setup: &GameSetup) -> GameOutcome {
    let mut referee = Referee::new(setup, black.name(), white.name());
    let termination = 'game: {
        if let Err(t) = referee.start(Color::Black, black) {
            break 'game t;
        }
        if let Err(t) = referee.start(Color::White, white) {
            break 'game t;
        }
        loop {
            let player: &mut dyn Player = match referee.game().position().side {
                Color::Black => &mut *black,
                Color::White => &mut *white,
            };
            match referee.turn(player) {
                Turned::Moved(_) => {}
                Turned::Over(t) => break t,
                // No player of a match stops on its own: it gave no move, a fault.
                Turned::Stopped => {
                    break Termination::Crash {
                        loser: referee.game().position().side,
                        detail: PlayerError::Stopped.to_string(),
                    }
                }
            }
        }
    };
    referee.finish(termination)
}

/// What one turn of the [`Referee`] gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Turned {
    /// The move, legal and in time, is recorded.
    Moved(MoveRecord),
    /// The game is over: played out ([`Termination::Normal`]), or lost by the side to move on
    /// this turn for a fault. Nothing was recorded.
    Over(Termination),
    /// The player stopped without a move ([`PlayerError::Stopped`]): nothing was recorded, and
    /// the face that drives it decides what comes next (take moves back, ask again, stop).
    Stopped,
}

/// A game in progress, one turn at a time: the record, the clocks and the rules of
/// [`GameSetup`]. [`play_game`] runs one to the end; terminal play (`othello play`) runs one
/// turn at a time, shows the board between them, and takes moves back at the person's request.
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    clocks: Clocks,
    depth: Option<u32>,
    move_timeout: Duration,
    seed: u64,
}

impl Referee {
    /// A game for `setup` between players named `black` and `white`, with the opening played.
    pub fn new(setup: &GameSetup, black: &str, white: &str) -> Referee {
        Referee {
            game: new_record(setup, black, white),
            clocks: setup.clocks,
            depth: setup.depth,
            move_timeout: setup.move_timeout,
            seed: setup.seed,
        }
    }

    /// Tells `player`, who plays `side`, that the game starts, with that side's seed (Black
    /// gets one stream of the setup's seed, White another). A player that cannot start loses.
    pub fn start(&self, side: Color, player: &mut dyn Player) -> Result<(), Termination> {
        let stream = match side {
            Color::Black => 1,
            Color::White => 2,
        };
        player
            .new_game(crate::rng::derive_seed(self.seed, stream))
            .map_err(|e| fault(side, e, self.clocks.of(side).is_some()))
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Asks `player`, who must be the side to move's, for its move, and records it with the
    /// mover's evaluation and the time it took; an illegal move, a fault or a fallen flag ends
    /// the game instead. In a finished game, nobody is asked.
    pub fn turn(&mut self, player: &mut dyn Player) -> Turned {
        let position = self.game.position();
        if position.board.is_game_over() {
            return Turned::Over(Termination::Normal);
        }
        let side = position.side;
        let spent = self.game.move_times(side);
        let started = Instant::now();
        let clock = self.clocks.of(side);
        let deadline = match clock {
            Some(tc) => tc.deadline(started, &spent),
            None => started + self.move_timeout,
        };
        let turn = Turn {
            game: &self.game,
            depth: self.depth,
            deadline: Some(deadline),
        };
        let choice = match player.choose(&turn) {
            Ok(c) => c,
            Err(PlayerError::Stopped) => return Turned::Stopped,
            Err(e) => return Turned::Over(fault(side, e, clock.is_some())),
        };
        let wall = started.elapsed();
        let used = choice.elapsed.unwrap_or(wall).min(wall).as_secs_f64();
        if let Some(tc) = clock {
            if tc.flag_fallen(spent.iter().copied().chain([used])) {
                return Turned::Over(Termination::Time { loser: side });
            }
        }
        let record = MoveRecord {
            mv: choice.mv,
            eval: choice
                .eval
                .filter(|e| e.is_finite())
                .map(|e| round_to(e, 2)),
            seconds: Some(round_to(used, 3)),
        };
        match self.game.push(record) {
            Ok(()) => Turned::Moved(record),
            Err(e) => Turned::Over(Termination::Illegal {
                loser: side,
                detail: e.to_string(),
            }),
        }
    }

    /// Takes back the last `count` moves (fewer if the game has fewer), returning them in the
    /// order they were played, times and evaluations included.
    pub fn take_back(&mut self, count: usize) -> Vec<MoveRecord> {
        let mut taken: Vec<MoveRecord> = (0..count).map_while(|_| self.game.pop()).collect();
        taken.reverse();
        taken
    }

    /// Plays `records` again, as they were recorded (the moves [`Referee::take_back`] took
    /// back). Stops at the first that is not legal here, and says which.
    pub fn replay(&mut self, records: &[MoveRecord]) -> Result<(), GameMoveError> {
        records.iter().try_for_each(|r| self.game.push(*r))
    }

    /// The record of a game ended by `termination`, with its result; a forfeit is logged.
    pub fn finish(self, termination: Termination) -> GameOutcome {
        let mut game = self.game;
        if let Some(loser) = termination.loser() {
            let name = match loser {
                Color::Black => &game.black_name,
                Color::White => &game.white_name,
            };
            let detail = termination
                .detail()
                .map_or(String::new(), |d| format!(": {d}"));
            log::warn!(
                "{name} ({loser:?}) forfeits the game after {} moves: {}{detail}",
                game.moves().len(),
                termination.kind()
            );
        }
        let (black_margin, result) = result_of(&game.position(), &termination);
        game.result = result;
        GameOutcome {
            game,
            black_margin,
            termination,
        }
    }

    /// The record as it stands, for a face that ends the game its own way (a person who
    /// leaves an unfinished game).
    pub fn into_game(self) -> Game {
        self.game
    }
}

/// The termination for a player error.
fn fault(side: Color, error: PlayerError, timed: bool) -> Termination {
    match error {
        PlayerError::Timeout if timed => Termination::Time { loser: side },
        PlayerError::Timeout => Termination::Hung { loser: side },
        PlayerError::BadMove(text) => Termination::Illegal {
            loser: side,
            detail: format!("unreadable move {text:?}"),
        },
        PlayerError::Resigned => Termination::Illegal {
            loser: side,
            detail: "resigned".to_string(),
        },
        PlayerError::Protocol(detail) => Termination::Protocol {
            loser: side,
            detail,
        },
        other => Termination::Crash {
            loser: side,
            detail: other.to_string(),
        },
    }
}

/// `YYYY-MM-DD hh:mm:ss GMT`, NBoard's `DT` format.
pub fn utc_date(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = crate::gamedb::civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} GMT",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_392_015_147);
        assert_eq!(utc_date(t), "2014-02-10 06:52:27 GMT");
        assert_eq!(utc_date(SystemTime::UNIX_EPOCH), "1970-01-01 00:00:00 GMT");
        let leap = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(utc_date(leap), "2000-02-29 00:00:00 GMT");
    }

    #[test]
    fn forfeits_count_64_for_the_winner() {
        let pos = Position::start();
        let (m, r) = result_of(
            &pos,
            &Termination::Time {
                loser: Color::White,
            },
        );
        assert_eq!(m, 64);
        assert_eq!(r.to_string(), "64:t");
        let (m, r) = result_of(
            &pos,
            &Termination::Illegal {
                loser: Color::Black,
                detail: String::new(),
            },
        );
        assert_eq!((m, r.to_string()), (-64, "-64:r".to_string()));
    }
}
