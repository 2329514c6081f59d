//! othello-tools: what is built on the engine to study and compare it: game databases
//! ([`gamedb`]: WTHOR, PGN, GGF, transcripts), players behind one trait ([`players`]: PAIP's
//! strategies, the engine, external NBoard and GTP engines), games, matches and tournaments
//! between them ([`arena`]), game review and the match audit ([`review`]), the Elo model
//! ([`elo`]) and the move-quality benchmark ([`quality`]).
//!
//! The core's and the engine's modules are imported at this crate's root, so `crate::board`
//! and `crate::engine` name them here as in their own crates; the compiler keeps every
//! dependency pointing down.
#![deny(missing_docs)]

use othello_core::{
    board, clock, discs, eval, obf, progress, rng, search, square, text, time, xot,
};
use othello_engine::{book, engine, files, game, protocol, weights};

pub mod arena;
pub mod elo;
pub mod gamedb;
pub mod players;
pub mod quality;
pub mod review;
pub mod scaling;
pub mod web;
