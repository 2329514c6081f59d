//! othello: a bitboard Othello (Reversi) engine.
//!
//! The design follows chapter 18 of Norvig's *Paradigms of AI Programming* (PAIP), done the
//! modern way: the board is two 64-bit bitboards with shift-based move generation
//! ([`board`], [`flip`]), checked against a plain PAIP-style mailbox board ([`mod@reference`]).
//!
//! Module map:
//! - [`square`]: squares and their notations; [`bitboard`]: masks, bit iteration, symmetries.
//! - [`board`]: the two-bitboard position, moves, play, pass, score, board strings.
//! - [`flip`]: flip generation; [`mod@reference`]: the mailbox oracle.
//! - [`hash`]: Zobrist keys; [`perft`]: leaf counting; [`obf`]: the OBF test-position format;
//!   [`xot`]: the embedded XOT opening list.
//! - [`eval`]: PAIP's classic evaluators, Iago's edge table, stable discs, the engine's
//!   evaluator, behind the [`eval::Evaluator`] trait.
//! - [`search`]: iterative deepening PVS with aspiration windows, the transposition table, the
//!   time manager and the exact endgame solver. Search reports through an observer and never
//!   prints.
//! - [`game`]: game records, GGF, clocks; [`protocol`]: the NBoard protocol and its extensions.
//! - [`gamedb`]: game databases (WTHOR `.wtb`, PGN, GGF, transcripts): reading, writing,
//!   statistics, the export of distinct positions.
//! - [`commands`]: the binary's batch commands (`perft`, `solve`, `search`, `bench`);
//!   [`quality`]: the move-quality benchmark against exact per-move scores (`quality`).
#![deny(missing_docs)]

pub mod arena;
pub mod bitboard;
pub mod board;
pub mod commands;
pub mod eval;
pub mod flip;
pub mod game;
pub mod gamedb;
pub mod hash;
pub mod last_flip;
pub mod learn;
pub mod movegen;
pub mod obf;
pub mod perft;
pub mod play;
pub mod players;
pub mod protocol;
pub mod quality;
pub mod reference;
pub mod search;
pub mod square;
pub mod xot;

pub use board::{Board, Color, Move, Position};
pub use square::Square;
