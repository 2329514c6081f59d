//! othello-train: the evaluation trainer of the `othello` engine ([`learn`]): self-play,
//! labelling positions by search, fitting pattern weights, centring them, and calibrating the
//! Multi-ProbCut models the search uses with them. Its scripts are in `scripts/`, its recipe in
//! `docs/dev/WEIGHTS.md`.
//!
//! The modules of the crates below are imported at this crate's root, so `crate::board` names
//! the core's board here as in the core.
#![deny(missing_docs)]

use othello_core::{bitboard, board, cpu, discs, eval, obf, progress, rng, search, square, xot};
use othello_engine::{files, weights};

pub mod learn;
