//! The full engine, in-process, as a [`Player`]: a thin adapter over
//! [`crate::engine::Engine`], which owns the searcher, the book, the move policy and
//! pondering.
//!
//! Limits come from three places, combined: the spec (`engine:depth=N`, `engine:time=S` for a
//! fixed time per move), the match's depth limit, and the game clock. The clock is always
//! obeyed when the game has one, whatever the spec says, so the engine never plays on after
//! its flag falls. With no clock, no depth and no time, each move gets
//! [`MATCH_MOVE_TIME_MS`]. A single legal move is played at once in every mode (the engine's
//! policy: see [`crate::engine`]).

use std::time::Duration;

use crate::board::Move;
use crate::book::{BookChoice, OwnedBook};
use crate::clock::MATCH_MOVE_TIME_MS;
use crate::engine::{Engine, EngineError, EngineOptions, Level};
use crate::eval::EngineEval;
use crate::search::tt::SHARED_HASH_MB;
use crate::search::{Limits, Selectivity, DEFAULT_SELECTIVITY};
use crate::weights::EvalChoice;

use super::{Choice, Player, PlayerError, Turn};

/// How the engine player is limited (the `engine:...` spec options).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EngineSettings {
    /// Maximum midgame depth (`depth=N`).
    pub depth: Option<u32>,
    /// Fixed time per move (`time=S`).
    pub move_time: Option<Duration>,
    /// Table size in MiB (`hash=MB`).
    pub hash_mb: usize,
    /// The evaluator (`eval=default|hand|PATH`).
    pub eval: EvalChoice,
    /// Midgame forward pruning (`selectivity=58|73|87|95|98|99|100`; `None` = 100%, full width).
    pub selectivity: Option<Selectivity>,
    /// Search threads (`threads=N`; default 1, as a match runs games side by side with `-j`).
    pub threads: usize,
    /// Think on the opponent's time about the expected reply (`ponder=on`; off by default,
    /// and never with a fixed depth, where it could not change a move).
    pub ponder: bool,
    /// The opening book (`book=default|off|PATH`; the embedded book by default).
    pub book: BookChoice,
    /// Play uniformly among the book moves within this many centi-discs of the best
    /// (`book-random=DISCS`; 0 by default: the best).
    pub book_randomness: u32,
    /// A level (`level=N`, see [`crate::engine::level`]): its depth, exact-solve empties and
    /// selectivity, untimed (a game clock still caps it); it replaces `depth`, `time` and
    /// `selectivity`, which the spec refuses alongside it.
    pub level: Option<Level>,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            depth: None,
            move_time: None,
            hash_mb: SHARED_HASH_MB,
            eval: EvalChoice::Default,
            selectivity: DEFAULT_SELECTIVITY,
            threads: 1,
            ponder: false,
            book: BookChoice::Default,
            book_randomness: 0,
            level: None,
        }
    }
}

/// The engine as a player.
pub struct EnginePlayer {
    engine: Engine,
    settings: EngineSettings,
    name: String,
}

impl EnginePlayer {
    /// An engine limited by `settings`, called `name`. Fails when the evaluator named by
    /// `settings.eval`, or the book named by `settings.book`, cannot be loaded, or the table
    /// cannot be allocated.
    pub fn new(settings: EngineSettings, name: String) -> Result<EnginePlayer, PlayerError> {
        let eval = settings
            .eval
            .load()
            .map_err(|e| PlayerError::Eval(e.to_string()))?;
        let book = settings
            .book
            .load()
            .map_err(|e| PlayerError::Eval(format!("book {}: {e}", settings.book)))?;
        EnginePlayer::from_parts(settings, eval, book, name)
    }

    /// An engine limited by `settings` (whose `eval` is ignored) searching with `eval`. A
    /// book file that cannot be read is logged and left out.
    pub fn with_eval(
        settings: EngineSettings,
        eval: EngineEval,
        name: String,
    ) -> Result<EnginePlayer, PlayerError> {
        let book = settings.book.load().unwrap_or_else(|e| {
            log::warn!("book {}: {e}; playing without a book", settings.book);
            None
        });
        EnginePlayer::from_parts(settings, eval, book, name)
    }

    /// The player around an engine set up as `settings` say.
    fn from_parts(
        settings: EngineSettings,
        eval: EngineEval,
        book: Option<std::sync::Arc<crate::book::Book>>,
        name: String,
    ) -> Result<EnginePlayer, PlayerError> {
        let options = EngineOptions {
            // `hash=` comes from the command line: a table the machine cannot give is an error.
            hash_mb: settings.hash_mb.max(1),
            eval,
            threads: settings.threads,
            ponder: settings.ponder,
            book: settings.book.clone(),
            book_randomness: settings.book_randomness,
            selectivity: settings
                .level
                .map_or(settings.selectivity, Level::selectivity),
            ..EngineOptions::default()
        };
        // A player reads its book and never learns into it.
        let book = book.map(|book| OwnedBook {
            book,
            save_to: None,
            read_only: None,
        });
        let mut engine = Engine::with_book(options, book).map_err(|e| match e {
            EngineError::HashAlloc(e) => PlayerError::Memory(e),
            e => PlayerError::Eval(e.to_string()),
        })?;
        engine.set_level(settings.level);
        Ok(EnginePlayer {
            engine,
            settings,
            name,
        })
    }

    /// The player's limits for this turn: the game clock, the depth of the spec (or the
    /// match's), the time of the spec, and [`MATCH_MOVE_TIME_MS`] when none of these is given.
    /// (The engine then plays a forced move at once.) With a level: the clock, the level's
    /// depth and solve empties, and no time per move.
    pub fn limits(&self, turn: &Turn<'_>) -> Limits {
        let clock = turn.game.clock();
        if let Some(level) = self.settings.level {
            return Limits {
                depth: Some(level.depth()),
                nodes: None,
                move_time: None,
                clock,
                solve_empties: Some(level.exact_empties()),
            };
        }
        let depth = self.settings.depth.or(turn.depth);
        let mut move_time = self.settings.move_time;
        if clock.is_none() && depth.is_none() && move_time.is_none() {
            move_time = Some(Duration::from_millis(MATCH_MOVE_TIME_MS));
        }
        Limits {
            depth,
            nodes: None,
            move_time,
            clock,
            solve_empties: None,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) -> Result<(), PlayerError> {
        self.engine.new_game(seed);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        if turn.game.position().board.is_game_over() {
            self.engine.stop_pondering();
            return Ok(Choice::new(Move::Pass));
        }
        let limits = self.limits(turn);
        self.engine.set_game(turn.game.clone());
        if self.settings.level.is_none() {
            // (The level, set once, holds its own depth.)
            self.engine.set_depth(limits.depth);
        }
        let decision = self
            .engine
            .choose(limits.clock, limits.move_time, &mut ())
            .map_err(|e| PlayerError::Eval(e.to_string()))?;
        // Think on the opponent's time, unless the depth is fixed (where it could not change
        // a move, and could make a game depend on the timing).
        if self.settings.ponder && limits.depth.is_none() {
            self.engine.start_pondering();
        }
        Ok(Choice {
            mv: decision.mv,
            eval: decision.eval,
            elapsed: None,
        })
    }

    fn set_level(&mut self, level: Level) -> Result<(), String> {
        self.settings.level = Some(level);
        self.engine.set_level(Some(level));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::clock::TimeControl;
    use crate::game::{Game, MoveRecord};
    use crate::square::Square;

    #[test]
    fn a_table_the_machine_cannot_give_is_an_error_not_a_panic() {
        let settings = EngineSettings {
            hash_mb: usize::MAX >> 21,
            book: BookChoice::Off,
            ..EngineSettings::default()
        };
        match EnginePlayer::new(settings, "engine".to_string()) {
            Err(e @ PlayerError::Memory(_)) => {
                assert!(e.to_string().contains("cannot allocate"), "{e}")
            }
            Err(e) => panic!("another error: {e}"),
            Ok(_) => panic!("a table of {} MiB", usize::MAX >> 21),
        }
    }

    /// A game from the start, first legal moves played until the side to move has exactly
    /// `count` legal moves.
    fn game_with_moves(count: u32, clock: Option<TimeControl>) -> Game {
        let mut game = Game::new(Position::start());
        game.black_clock = clock;
        game.white_clock = clock;
        loop {
            let moves = game.position().board.moves();
            assert!(!game.position().board.is_game_over());
            if moves.count_ones() == count {
                return game;
            }
            let mv =
                Square::from_index(moves.trailing_zeros() as usize).map_or(Move::Pass, Move::Place);
            game.push(MoveRecord::new(mv)).unwrap();
        }
    }

    fn limits(game: &Game) -> Limits {
        let player = EnginePlayer::with_eval(
            EngineSettings::default(),
            EngineEval::default(),
            "engine".to_string(),
        )
        .unwrap();
        player.limits(&Turn {
            game,
            depth: None,
            deadline: None,
        })
    }

    #[test]
    fn the_player_limits_come_from_the_clock_the_spec_or_the_match_default() {
        let clock = Some(TimeControl::new(60.0));
        // Timed: the clock alone (a forced move is the engine's business, see crate::engine).
        let timed = limits(&game_with_moves(3, clock));
        assert_eq!(timed.move_time, None);
        assert!(timed.clock.is_some());
        // Untimed: the default time per move.
        let untimed = limits(&game_with_moves(3, None));
        assert_eq!(
            untimed.move_time,
            Some(Duration::from_millis(MATCH_MOVE_TIME_MS))
        );
        assert!(untimed.clock.is_none());
    }

    #[test]
    fn a_forced_move_is_played_at_once_in_an_untimed_game_too() {
        let game = game_with_moves(1, None);
        let board = game.position().board;
        let mut player = EnginePlayer::new(
            EngineSettings {
                book: BookChoice::Off,
                hash_mb: 1,
                ..EngineSettings::default()
            },
            "engine".to_string(),
        )
        .unwrap();
        player.new_game(1).unwrap();
        let t0 = crate::time::Instant::now();
        let choice = player
            .choose(&Turn {
                game: &game,
                depth: None,
                deadline: None,
            })
            .unwrap();
        // Well under the 1 s an untimed move gets.
        assert!(
            t0.elapsed() < Duration::from_millis(500),
            "{:?}",
            t0.elapsed()
        );
        let Move::Place(sq) = choice.mv else {
            panic!("{:?}", choice.mv)
        };
        assert_eq!(board.moves(), sq.bit(), "the only legal move");
        assert!(choice.eval.is_some());
    }
}
