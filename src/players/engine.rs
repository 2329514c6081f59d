//! The full engine, in-process: the crate's [`Searcher`] (iterative-deepening PVS with the
//! endgame solver) with the engine's evaluator, as a [`Player`].
//!
//! Limits come from three places, combined: the spec (`engine:depth=N`, `engine:time=S` for a
//! fixed time per move), the match's depth limit, and the game clock. The clock is always
//! obeyed when the game has one, whatever the spec says, so the engine never plays on after
//! its flag falls. With no clock, no depth and no time, each move gets
//! [`MATCH_MOVE_TIME_MS`]. In a timed game, a single legal move gets a short search for its
//! eval ([`FORCED_MOVE_TIME_MS`], as the NBoard engine does), so the clock is kept for real
//! choices.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::board::{Board, Move};
use crate::book::{Book, BookChoice};
use crate::clock::{FORCED_MOVE_TIME_MS, MATCH_MOVE_TIME_MS};
use crate::eval::{EngineEval, EvalChoice};
use crate::rng::SplitMix64;
use crate::search::tt::SHARED_HASH_MB;
use crate::search::{Limits, Searcher, Selectivity, DEFAULT_SELECTIVITY};

use super::ponder::Ponderer;
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
    /// Midgame forward pruning (`selectivity=73|87|95|98|99|100`; `None` = 100%, full width).
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
        }
    }
}

/// The engine as a player.
pub struct EnginePlayer {
    /// Shared with the pondering thread, which holds it while it thinks.
    searcher: Arc<Mutex<Searcher<EngineEval>>>,
    ponderer: Ponderer,
    book: Option<Arc<Book>>,
    /// Draws among near-equal book moves; reseeded by each game's seed.
    rng: SplitMix64,
    settings: EngineSettings,
    name: String,
}

impl EnginePlayer {
    /// An engine limited by `settings`, called `name`. Fails when the evaluator named by
    /// `settings.eval`, or the book named by `settings.book`, cannot be loaded.
    pub fn new(settings: EngineSettings, name: String) -> Result<EnginePlayer, PlayerError> {
        let eval = settings
            .eval
            .load()
            .map_err(|e| PlayerError::Eval(e.to_string()))?;
        let book = settings
            .book
            .load()
            .map_err(|e| PlayerError::Eval(format!("book {}: {e}", settings.book)))?;
        // `hash=` comes from the command line: a table the machine cannot give is an error.
        let searcher = Searcher::try_new(eval, settings.hash_mb.max(1))?;
        Ok(EnginePlayer::from_parts(settings, searcher, book, name))
    }

    /// An engine limited by `settings` (whose `eval` is ignored) searching with `eval`. A
    /// book file that cannot be read is logged and left out.
    pub fn with_eval(settings: EngineSettings, eval: EngineEval, name: String) -> EnginePlayer {
        let book = settings.book.load().unwrap_or_else(|e| {
            log::warn!("book {}: {e}; playing without a book", settings.book);
            None
        });
        let searcher = Searcher::new(eval, settings.hash_mb.max(1));
        EnginePlayer::from_parts(settings, searcher, book, name)
    }

    /// The player around `searcher`, set up as `settings` say.
    fn from_parts(
        settings: EngineSettings,
        mut searcher: Searcher<EngineEval>,
        book: Option<Arc<Book>>,
        name: String,
    ) -> EnginePlayer {
        searcher.set_selectivity(settings.selectivity);
        searcher.set_threads(settings.threads);
        EnginePlayer {
            searcher: Arc::new(Mutex::new(searcher)),
            ponderer: Ponderer::default(),
            book,
            rng: SplitMix64::new(0),
            settings,
            name,
        }
    }

    /// The searcher (waits for a pondering search to let go of it; none is running when the
    /// player is asked for a move).
    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<EngineEval>> {
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The search limits for this turn.
    pub fn limits(&self, turn: &Turn<'_>) -> Limits {
        let clock = turn.game.clock();
        let depth = self.settings.depth.or(turn.depth);
        let mut move_time = self.settings.move_time;
        if clock.is_none() && depth.is_none() && move_time.is_none() {
            move_time = Some(Duration::from_millis(MATCH_MOVE_TIME_MS));
        }
        if clock.is_some() && turn.game.position().board.moves().count_ones() == 1 {
            let forced = Duration::from_millis(FORCED_MOVE_TIME_MS);
            move_time = Some(move_time.map_or(forced, |t| t.min(forced)));
        }
        Limits {
            depth,
            nodes: None,
            move_time,
            clock,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) -> Result<(), PlayerError> {
        self.rng = SplitMix64::new(seed ^ 0xB00C_B00C_B00C_B00C);
        self.ponderer.finish(&Board::start());
        self.searcher().clear();
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let board = turn.game.position().board;
        self.ponderer.finish(&board);
        if board.moves() == 0 {
            return Ok(Choice::new(Move::Pass));
        }
        let randomness = self.settings.book_randomness;
        if let Some(m) = self
            .book
            .as_ref()
            .and_then(|b| b.choose(&board, randomness, &mut self.rng))
        {
            return Ok(Choice {
                mv: m.mv,
                eval: Some(f64::from(m.value) / 100.0),
                elapsed: None,
            });
        }
        let limits = self.limits(turn);
        let result = {
            let mut searcher = self.searcher();
            searcher
                .stop_flag()
                .store(false, std::sync::atomic::Ordering::Relaxed);
            searcher.search(&board, &limits, &mut ())
        };
        if self.settings.ponder && limits.depth.is_none() {
            if let Some(target) = result.expected_position(&board) {
                self.ponderer.start(&self.searcher, target);
            }
        }
        Ok(Choice {
            mv: result.best,
            eval: Some(result.value.discs()),
            elapsed: None,
        })
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
        );
        player.limits(&Turn {
            game,
            depth: None,
            deadline: None,
        })
    }

    #[test]
    fn a_forced_move_in_a_timed_game_gets_a_short_search() {
        let clock = Some(TimeControl::new(60.0));
        let forced = limits(&game_with_moves(1, clock));
        assert_eq!(
            forced.move_time,
            Some(Duration::from_millis(FORCED_MOVE_TIME_MS))
        );
        assert!(forced.clock.is_some());
        // A real choice is left to the clock.
        let choice = limits(&game_with_moves(3, clock));
        assert_eq!(choice.move_time, None);
        assert!(choice.clock.is_some());
        // Untimed games are unchanged: the default time per move, forced or not.
        let untimed = limits(&game_with_moves(1, None));
        assert_eq!(
            untimed.move_time,
            Some(Duration::from_millis(MATCH_MOVE_TIME_MS))
        );
    }
}
