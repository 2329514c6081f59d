//! othello-core: the engine core of the `othello` Othello (Reversi) engine: the rules on two
//! 64-bit bitboards, evaluation, search and exact solving.
//!
//! The design follows chapter 18 of Norvig's *Paradigms of AI Programming* (PAIP), done the
//! modern way: the board is two 64-bit bitboards with shift-based move generation
//! ([`board`], [`flip`]), checked against a plain PAIP-style mailbox board ([`mod@reference`]).
//!
//! This crate reads no file, prints nothing, draws on no terminal and starts no thread except
//! in the parallel search (a one-thread search runs on the caller's thread), so it builds for
//! `wasm32-unknown-unknown`. Files by path, the book and the protocols are the engine crate's
//! (`othello-engine`); the `othello` crate re-exports everything under one name.
//!
//! Module map:
//! - [`square`]: squares and their notations; [`bitboard`]: masks, bit iteration, symmetries.
//! - [`board`]: the two-bitboard position, moves, play, pass, score, board strings.
//! - [`flip`]: flip generation; [`mod@reference`]: the mailbox oracle.
//! - [`cpu`]: the code paths (portable, AVX2, AVX2 with BMI2) chosen at run time.
//! - [`discs`]: scores in centi-discs and discs, and the conversions between them.
//! - [`hash`]: Zobrist keys; [`perft`]: leaf counting; [`obf`]: the OBF test-position format;
//!   [`xot`]: the embedded XOT opening list.
//! - [`eval`]: PAIP's classic evaluators, Iago's edge table, stable discs, the learned pattern
//!   evaluator, behind the [`eval::Evaluator`] trait and its per-thread [`eval::EvalState`].
//! - [`search`]: iterative deepening PVS with aspiration windows, Multi-ProbCut, the
//!   transposition table, the time manager and the exact endgame solver. Search reports
//!   through an observer and never prints.
//! - [`clock`]: time controls, their text forms, the remaining-time and flag rules, the
//!   search's clock; [`time`]: the monotonic clock (the browser's on WebAssembly).
//! - [`rng`]: the one pseudo-random generator (SplitMix64) and random play-outs;
//!   [`progress`]: the observer of long jobs.
//!
//! # Example
//!
//! Parse a position and search it to depth 6 with the built-in evaluator:
//!
//! ```
//! use othello_core::eval::EngineEval;
//! use othello_core::search::{Limits, Searcher};
//! use othello_core::{Move, Position};
//!
//! let position: Position =
//!     "---------------------------OX------XO--------------------------- X".parse().unwrap();
//! let mut searcher = Searcher::new(EngineEval::default(), 1);
//! let limits = Limits { depth: Some(6), ..Limits::default() };
//! let result = searcher.search(&position.board, &limits, &mut ());
//! assert!(matches!(result.best, Move::Place(sq) if position.board.is_legal(sq)));
//! assert_eq!(result.depth, 6);
//! ```
#![deny(missing_docs)]

pub mod bitboard;
pub mod board;
pub mod clock;
pub mod cpu;
pub mod discs;
pub mod eval;
pub mod flip;
pub mod hash;
mod last_flip;
pub mod movegen;
pub mod obf;
pub mod perft;
pub mod progress;
pub mod reference;
pub mod rng;
pub mod search;
mod spares;
pub mod square;
#[doc(hidden)]
pub mod text;
pub mod time;
pub mod xot;
mod zeroed;

pub use board::{Board, Color, Move, Position};
pub use square::Square;
