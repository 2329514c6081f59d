//! ProbCut, in one place: Buro's forward pruning, which predicts a deep search from a shallow
//! one and cuts a node when the prediction clears the window by a chosen number of standard
//! deviations.
//!
//! - [`model`]: the Multi-ProbCut model of both searches and its text file (`NAME.mpc` beside
//!   the weights): the midgame's fits per depth and band of empties, applied at the midgame's
//!   null-window nodes (`Midgame::probcut` in [`super::midgame`]).
//! - [`endgame`]: endgame ProbCut, the selective passes before an exact solve: their levels
//!   and schedule and the endgame model's predictions.
//! - [`solver`]: the cut at the solver's null-window nodes with the shallow midgame search it
//!   runs, and the selective passes measured alone ([`solver::selective_passes`]).
//!
//! The selectivity levels both use (73% to 98% and the margins `t`) are
//! [`super::selectivity`]; the fitting is the trainer's (`othello calibrate`).

pub mod endgame;
pub mod model;
pub mod solver;
