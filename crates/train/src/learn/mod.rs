//! Learning the pattern evaluator's weights: self-play data generation and the trainer.
//!
//! This module tree is tooling, not engine: the engine only ever loads a weight file
//! ([`crate::weights::PatternFile::load`]). The pipeline, documented step by step in
//! `docs/dev/WEIGHTS.md`:
//!
//! 1. [`selfplay`]: play games from XOT openings plus random plies with a shallow search and
//!    some random moves; label every position (exact solves near the end, the perfectly
//!    finished game's result before that) and append them to a [`data`] file, resumably, on
//!    every core.
//! 2. [`train`]: fit the weights of every phase at once by regularised least squares
//!    (preconditioned conjugate gradient), with a validation split and per-phase errors, and
//!    write the weight file.
//!
//! 3. [`error`]: score evaluators (new weights, the hand-tuned evaluator) against the labels
//!    of the validation games, band by band of empty squares.
//!
//! 4. [`calibrate`]: measure shallow against deep searches with the evaluator and fit the
//!    midgame Multi-ProbCut model that ships next to its weights.
//!
//!    [`endcal`] does the same for the exact solver's selective passes (endgame ProbCut):
//!    shallow searches against exact solves.
//!
//! 5. [`centre`]: shift the parity weights so that searches of the start position (a draw)
//!    average 0, removing the colour bias that search labels pass on.
//!
//! [`crate::rng`] is the deterministic generator they use.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::eval::pattern::WeightsError;

pub mod calibrate;
pub mod centre;
pub mod data;
pub mod endcal;
pub mod error;
pub mod label;
pub mod pool;
pub mod selfplay;
pub mod train;

/// Why a self-play or training run failed.
#[derive(Debug, Error)]
pub enum LearnError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A data file is malformed or does not match the run.
    #[error("{0}")]
    Format(String),
    /// Bad settings.
    #[error("{0}")]
    Config(String),
    /// A weight file problem.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// The memory of the workers (their tables, their sums) is not there; nothing was done.
    #[error("{0}")]
    Memory(String),
    /// The system would not start the workers' threads; nothing was done.
    #[error("the workers: {0}")]
    Threads(#[from] crate::search::ThreadStartError),
}

impl From<crate::files::FileError> for LearnError {
    fn from(e: crate::files::FileError) -> LearnError {
        LearnError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

impl LearnError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> LearnError {
        LearnError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A format error, prefixed with the file it is in.
    pub fn in_file(self, path: &Path) -> LearnError {
        match self {
            LearnError::Format(m) => LearnError::Format(format!("{}: {m}", path.display())),
            e => e,
        }
    }
}
