//! The full engine, in-process: the crate's [`Searcher`] (iterative-deepening PVS with the
//! endgame solver) with the engine's evaluator, as a [`Player`].
//!
//! Limits come from three places, combined: the spec (`engine:depth=N`, `engine:time=S` for a
//! fixed time per move), the match's depth limit, and the game clock. The clock is always
//! obeyed when the game has one, whatever the spec says, so the engine never plays on after
//! its flag falls. With no clock, no depth and no time, each move gets
//! [`DEFAULT_MOVE_TIME_MS`].

use std::time::Duration;

use crate::board::Move;
use crate::eval::{EngineEval, EvalChoice};
use crate::search::{Limits, Searcher, Selectivity, DEFAULT_SELECTIVITY};

use super::{Choice, Player, PlayerError, Turn};

/// Time per move when nothing else limits the engine.
pub const DEFAULT_MOVE_TIME_MS: u64 = 1_000;

/// Transposition table size of an in-process engine. Small, because a match at `-j 20` runs
/// forty of them at once.
pub const DEFAULT_ENGINE_HASH_MB: usize = 16;

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
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            depth: None,
            move_time: None,
            hash_mb: DEFAULT_ENGINE_HASH_MB,
            eval: EvalChoice::Default,
            selectivity: DEFAULT_SELECTIVITY,
        }
    }
}

/// The engine as a player.
pub struct EnginePlayer {
    searcher: Searcher<EngineEval>,
    settings: EngineSettings,
    name: String,
}

impl EnginePlayer {
    /// An engine limited by `settings`, called `name`. Fails when the evaluator named by
    /// `settings.eval` cannot be loaded.
    pub fn new(settings: EngineSettings, name: String) -> Result<EnginePlayer, PlayerError> {
        let eval = settings
            .eval
            .load()
            .map_err(|e| PlayerError::Eval(e.to_string()))?;
        Ok(EnginePlayer::with_eval(settings, eval, name))
    }

    /// An engine limited by `settings` (whose `eval` is ignored) searching with `eval`.
    pub fn with_eval(settings: EngineSettings, eval: EngineEval, name: String) -> EnginePlayer {
        let mut searcher = Searcher::new(eval, settings.hash_mb.max(1));
        searcher.set_selectivity(settings.selectivity);
        EnginePlayer {
            searcher,
            settings,
            name,
        }
    }

    /// The search limits for this turn.
    pub fn limits(&self, turn: &Turn<'_>) -> Limits {
        let clock = turn.game.clock();
        let depth = self.settings.depth.or(turn.depth);
        let mut move_time = self.settings.move_time;
        if clock.is_none() && depth.is_none() && move_time.is_none() {
            move_time = Some(Duration::from_millis(DEFAULT_MOVE_TIME_MS));
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

    fn new_game(&mut self, _seed: u64) -> Result<(), PlayerError> {
        self.searcher.clear();
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let board = turn.game.position().board;
        if board.moves() == 0 {
            return Ok(Choice::new(Move::Pass));
        }
        let limits = self.limits(turn);
        self.searcher
            .stop_flag()
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let result = self.searcher.search(&board, &limits, &mut ());
        Ok(Choice {
            mv: result.best,
            eval: Some(result.value.discs()),
            elapsed: None,
        })
    }
}
