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
//! - [`cpu`]: the code paths (portable, AVX2, AVX2 with BMI2) chosen at run time.
//! - [`discs`]: scores in centi-discs and discs, and the conversions between them;
//!   [`elo`]: the logistic Elo model (a score per game and an Elo difference).
//! - [`hash`]: Zobrist keys; [`perft`]: leaf counting; [`obf`]: the OBF test-position format;
//!   [`xot`]: the embedded XOT opening list.
//! - [`eval`]: PAIP's classic evaluators, Iago's edge table, stable discs, the engine's
//!   evaluator, behind the [`eval::Evaluator`] trait.
//! - [`search`]: iterative deepening PVS with aspiration windows, the transposition table, the
//!   time manager and the exact endgame solver. Search reports through an observer and never
//!   prints.
//! - [`clock`]: time controls, their text forms, the remaining-time and flag rules, the
//!   search's clock; [`rng`]: the one pseudo-random generator (SplitMix64) and random play-outs.
//! - [`engine`]: the engine every face uses (searcher, book, move policy, pondering);
//!   [`game`]: game records and GGF; [`protocol`]: the NBoard protocol and its extensions.
//! - [`gamedb`]: game databases (WTHOR `.wtb`, PGN, GGF, transcripts): reading, writing,
//!   statistics, the export of distinct positions.
//! - [`players`]: PAIP's strategies, the engine and external NBoard engines behind one trait;
//!   [`arena`]: games between them, matches, tournaments, statistics.
//! - [`quality`]: the move-quality benchmark against exact per-move scores; [`learn`]: the
//!   evaluation trainer (self-play, labelling, fitting, calibration).
//! - [`book`]: the opening book (positions under symmetry, leaves valued by search, negamax;
//!   its file, journal, text and Edax formats; building and deviation).
//! - [`review`]: game review, every move of a recorded game against the engine's best (exact
//!   near the end), with its terminal, JSON and HTML reports.
//!
//! The command line (`src/main.rs` and `src/cli/`) is the binary's own code and not part of
//! this API: it only parses arguments, prints, and calls what is here.
//!
//! **What is the API.** The library a program embeds is the position ([`Board`], [`Position`],
//! [`Move`], [`Square`], [`bitboard`], [`movegen`], [`flip`]), the search ([`search::Searcher`]
//! with [`search::Limits`] and an [`search::Observer`]; `solve` for exact values), the
//! evaluators ([`eval`], including loading weight files), the file formats ([`obf`], [`game`]
//! for GGF, [`gamedb`] for WTHOR, PGN and transcripts), the opening book ([`book`]), [`clock`],
//! [`cpu`], [`perft`], [`xot`], [`rng`] and [`discs`]. The engine's tools are public because the binary is built on them, and are
//! documented, but they follow the binary's needs rather than a stability promise: [`arena`]
//! and [`players`] (matches), [`protocol`] (NBoard), [`quality`], [`learn`] and
//! [`mod@reference`] (the test oracle). Search internals are private, or hidden from the
//! documentation where the measurement tools need them.
//!
//! # Example
//!
//! Parse a position and search it to depth 6 with the built-in evaluator:
//!
//! ```
//! use othello::eval::EngineEval;
//! use othello::search::{Limits, Searcher};
//! use othello::{Move, Position};
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

pub use othello_core::{
    bitboard, board, clock, cpu, discs, eval, flip, hash, movegen, obf, perft, progress, reference,
    rng, search, square, time, xot,
};
pub use othello_engine::{book, engine, files, game, protocol, weights};
pub use othello_tools::{arena, elo, gamedb, players, quality, review, web};
pub use othello_train::learn;

pub use board::{Board, Color, Move, Position};
pub use square::Square;
