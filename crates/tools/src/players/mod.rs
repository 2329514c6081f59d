//! Players: PAIP's strategies, the engine itself, and external NBoard and GTP programs
//! (driven by [`nboard`] and [`gtp`], the clients), behind one small trait.
//!
//! A [`Player`] is asked for a move with a [`Turn`]: the game so far (start position, moves with
//! their recorded times, clocks) plus the match's depth limit and the moment after which the
//! arena stops waiting. It answers with a [`Choice`] or a [`PlayerError`]. Players never print;
//! the arena and the binary report.
//!
//! Players are built from spec strings ([`PlayerSpec`], see [`spec`] for the grammar):
//!
//! | spec | strategy (PAIP chapter 18) |
//! | --- | --- |
//! | `random` | `random-strategy` (18.2) |
//! | `maximizer:<eval>` | `maximizer` (18.3) |
//! | `minimax:<depth>:<eval>` | `minimax-searcher` (18.4) |
//! | `alphabeta:<depth>:<eval>` | `alpha-beta-searcher` (18.5) |
//! | `alphabeta2:<depth>:<eval>` | `alpha-beta-searcher2`, sorted moves (18.9) |
//! | `alphabeta3:<depth>:<eval>` | `alpha-beta-searcher3`, killer moves (18.10) |
//! | `iago:<depth>` | `Iago` = `alpha-beta-searcher3` with `Iago-eval` (18.12) |
//! | `engine[:depth=N,time=S,hash=MB,eval=E]` | this crate's [`Searcher`](crate::search::Searcher) |
//! | `nboard:<name>[@<dir>]=<command>` | an external NBoard engine ([`nboard`]) |
//! | `gtp:<name>[@<dir>]=<command>` | an external GTP engine ([`gtp`]) |
//!
//! `<eval>` is `count`, `weighted`, `modified` or `iago`.

pub mod gtp;
pub mod native;
pub mod nboard;
pub mod paip;
pub mod spec;

use crate::time::{Duration, Instant};

use thiserror::Error;

use crate::board::Move;
use crate::game::Game;
use crate::rng::SplitMix64;

pub use native::EnginePlayer;
pub use paip::{PaipEval, PaipSearcher};
pub use spec::{PlayerSpec, SpecError};

/// What a player is asked: the game so far and the limits of this move.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The game: start, moves (with times), clocks. The side to move is the player's.
    pub game: &'a Game,
    /// The match's depth limit, for players that take one (the engine, NBoard engines).
    pub depth: Option<u32>,
    /// When the arena stops waiting for an answer (a hung engine loses at this point).
    /// In-process players cannot be interrupted and may ignore it.
    pub deadline: Option<Instant>,
}

/// A player's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The move (a pass when the player must pass).
    pub mv: Move,
    /// The player's evaluation in discs, from its own point of view, if it reports one.
    pub eval: Option<f64>,
    /// The thinking time the player measured itself, if it is more exact than the arena's
    /// measurement of the whole call (an NBoard engine is timed from `go` to `===`, not
    /// including the `ping`/`pong` before it).
    pub elapsed: Option<Duration>,
}

impl Choice {
    /// A move with no evaluation and no time of its own.
    pub fn new(mv: Move) -> Choice {
        Choice {
            mv,
            eval: None,
            elapsed: None,
        }
    }
}

/// Why a player could not give a move.
#[derive(Debug, Error)]
pub enum PlayerError {
    /// The external program could not be started.
    #[error("cannot start {command:?}: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The external program exited or closed its output.
    #[error("the engine crashed: {0}")]
    Crashed(String),
    /// No answer before the deadline.
    #[error("no answer before the deadline")]
    Timeout,
    /// The answer is not a move (`=== zz`).
    #[error("unreadable move {0:?}")]
    BadMove(String),
    /// The engine broke its protocol: a line that is not an answer, an answer to another
    /// command, or a refused command (GTP).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The engine resigned (GTP `genmove` answered `resign`).
    #[error("the engine resigned")]
    Resigned,
    /// The player gave no move because its user stopped it: a person at the terminal taking
    /// moves back or leaving the game. The face that drives the player knows what was asked;
    /// the referee hands the turn back to it ([`crate::arena::referee::Turned::Stopped`]).
    #[error("the player stopped without a move")]
    Stopped,
    /// Reading from or writing to the program failed.
    #[error("i/o error talking to the engine: {0}")]
    Io(#[from] std::io::Error),
    /// The in-process engine's evaluator could not be loaded.
    #[error("cannot load the evaluator: {0}")]
    Eval(String),
    /// The in-process engine's transposition table could not be allocated (`hash=`).
    #[error("{0}")]
    Memory(#[from] crate::search::tt::TableAllocError),
}

/// A player: anything that picks moves.
pub trait Player: Send {
    /// A short name for tables and game records.
    fn name(&self) -> &str;

    /// Prepares for a new game; `seed` drives any randomness, so the same seed gives the same
    /// game. Forgets what earlier games taught (the engine clears its table), so results do
    /// not depend on which games a player happened to play before.
    fn new_game(&mut self, seed: u64) -> Result<(), PlayerError>;

    /// Chooses a move for the side to move of `turn.game`. When that side has no legal move
    /// the answer must be a pass (NBoard engines are asked too, as the GUI asks them).
    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError>;

    /// Starts over after a fault (crash, hang, illegal move): external engines are killed and
    /// started again. In-process players have nothing to do.
    fn restart(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }

    /// Plays at `level` from its next move (`othello play`'s `level N`): the engine does;
    /// the others refuse, saying why.
    fn set_level(&mut self, level: crate::engine::Level) -> Result<(), String> {
        let _ = level;
        Err(format!(
            "{} has no levels (only the engine does)",
            self.name()
        ))
    }
}

/// PAIP's `random-strategy`: a uniformly random legal move, from a generator seeded per game.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: SplitMix64,
}

impl RandomPlayer {
    /// A random player (seeded again by every [`Player::new_game`]).
    pub fn new() -> RandomPlayer {
        RandomPlayer {
            rng: SplitMix64::new(0),
        }
    }
}

impl Default for RandomPlayer {
    fn default() -> Self {
        RandomPlayer::new()
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        "random"
    }

    fn new_game(&mut self, seed: u64) -> Result<(), PlayerError> {
        self.rng = SplitMix64::new(seed);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let board = turn.game.position().board;
        let moves: Vec<_> = board.legal_moves().collect();
        Ok(Choice::new(if moves.is_empty() {
            Move::Pass
        } else {
            Move::Place(moves[self.rng.below_u32(moves.len())])
        }))
    }
}

/// PAIP's `maximizer` with one of its evaluations.
#[derive(Clone, Debug)]
pub struct MaximizerPlayer {
    eval: PaipEval,
    name: String,
}

impl MaximizerPlayer {
    /// The maximizer of `eval`.
    pub fn new(eval: PaipEval) -> MaximizerPlayer {
        MaximizerPlayer {
            eval,
            name: format!("maximizer:{}", eval.name()),
        }
    }
}

impl Player for MaximizerPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), PlayerError> {
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let board = turn.game.position().board;
        Ok(Choice::new(
            paip::maximizer(&board, self.eval).map_or(Move::Pass, Move::Place),
        ))
    }
}

/// One of PAIP's searchers as a player.
#[derive(Clone, Debug)]
pub struct SearcherPlayer {
    searcher: PaipSearcher,
    name: String,
}

impl SearcherPlayer {
    /// The player for `searcher`, called `name`.
    pub fn new(searcher: PaipSearcher, name: String) -> SearcherPlayer {
        SearcherPlayer { searcher, name }
    }
}

impl Player for SearcherPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), PlayerError> {
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let board = turn.game.position().board;
        let (mv, value) = self.searcher.choose(&board);
        let mut choice = Choice::new(mv);
        // Count difference is in discs; the other evaluations have no disc scale. Proven
        // wins and losses are not reported as a number of discs either.
        if self.searcher.eval == PaipEval::Count && value.abs() <= 64 {
            choice.eval = Some(value as f64);
        }
        Ok(choice)
    }
}
