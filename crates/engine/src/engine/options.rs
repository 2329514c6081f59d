//! The settings fixed when an [`Engine`](super::Engine) starts: [`EngineOptions`].

use std::time::Duration;

use crate::book::BookChoice;
use crate::clock::NBOARD_MOVE_TIME_MS;
use crate::eval::EngineEval;
use crate::search::tt::{TranspositionTable, MAX_SHARED_HASH_MB};
use crate::search::{Selectivity, DEFAULT_SELECTIVITY};

/// Settings fixed when the engine starts. The caps exist for tests and fuzzing, where no
/// command may search for long.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB at start.
    pub hash_mb: usize,
    /// Largest size [`Engine::set_hash_mb`](super::Engine::set_hash_mb) accepts, in MiB.
    pub max_hash_mb: u64,
    /// Time per move in an untimed game, for the faces that use it (NBoard's `go`).
    pub default_move_time: Duration,
    /// A depth no search may exceed, whatever
    /// [`Engine::set_depth`](super::Engine::set_depth) says.
    pub depth_cap: Option<u32>,
    /// A node budget no search may exceed.
    pub node_cap: Option<u64>,
    /// The evaluator at start (`--eval-file`; the embedded network by default).
    pub eval: EngineEval,
    /// Whether [`Engine::set_eval`](super::Engine::set_eval) and
    /// [`Engine::set_book`](super::Engine::set_book) may read files (off under
    /// fuzzing, where a path could name a device).
    pub allow_eval_files: bool,
    /// Search threads at start; 1 is the deterministic search.
    pub threads: usize,
    /// Think on the opponent's time at start
    /// ([`Engine::set_ponder`](super::Engine::set_ponder) changes it).
    pub ponder: bool,
    /// The opening book [`Engine::new`](super::Engine::new) opens.
    pub book: BookChoice,
    /// Book randomness at start, centi-discs.
    pub book_randomness: u32,
    /// Midgame forward pruning at start.
    pub selectivity: Option<Selectivity>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: TranspositionTable::DEFAULT_MB,
            max_hash_mb: MAX_SHARED_HASH_MB as u64,
            default_move_time: Duration::from_millis(NBOARD_MOVE_TIME_MS),
            depth_cap: None,
            node_cap: None,
            eval: EngineEval::default(),
            allow_eval_files: true,
            threads: 1,
            ponder: false,
            book: BookChoice::Default,
            book_randomness: 0,
            selectivity: DEFAULT_SELECTIVITY,
        }
    }
}
