//! othello-engine: the engine of the `othello` Othello engine as its faces use it: the engine
//! facade ([`engine::Engine`]: searcher, book, move policy, levels, pondering), the opening
//! [`book`], game records and GGF ([`game`]), the NBoard and GTP servers ([`protocol`]), and
//! files by path ([`files`]: the one file policy; [`weights`]: weight files and the evaluator
//! chosen by name).
//!
//! The core's modules are imported at this crate's root, so `crate::board::Board` names the
//! core's board here as it does in the core: the engine is written against the core's layout,
//! and the compiler keeps the dependency one way (the core cannot name anything here).
#![deny(missing_docs)]

use othello_core::{
    bitboard, board, clock, discs, eval, perft, progress, rng, search, square, text, time,
};

pub mod book;
pub mod engine;
pub mod files;
pub mod game;
pub mod protocol;
pub mod weights;
