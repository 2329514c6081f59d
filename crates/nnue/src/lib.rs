//! A small neural evaluator over the engine's pattern features (issue 55): the float
//! reference ([`net::Network::evaluate`]), its weight file ([`mod@file`]) and a CPU trainer
//! ([`train`]). See README.md in this crate for the architecture and the commands.

#![warn(missing_docs)]

pub mod data;
pub mod eval;
pub mod factor;
pub mod features;
pub mod file;
pub mod net;
pub mod train;

pub use file::{load_weights, read_weights, FileError};
pub use net::{Arch, Network, Params};
