//! The arena: games between players, matches, tournaments and their statistics.
//!
//! PAIP chapter 18 measures its strategies by playing them against each other: `othello`
//! plays one game with a clock, `othello-series` plays each start twice with colours swapped,
//! `random-othello-series` starts from random plies, and `round-robin` fills a table of
//! scores. This module does the same for any [`Player`](crate::players::Player), built-in or
//! external:
//!
//! - [`referee`]: one game, with clocks, a grace margin, and forfeits for time, illegal moves,
//!   crashes and hangs, run to the end or one turn at a time ([`Referee`], for terminal play);
//! - [`openings`]: XOT, random plies, or the start position;
//! - [`series`]: pairs of games on worker threads (`-j N`), reproducible from a seed;
//! - [`stats`]: Elo with a 95% interval and the SPRT, on the pentanomial pair model;
//! - [`summary`]: the match and tournament tables;
//! - [`json`]: a match's summary as JSON, for scripts (`othello match --json`);
//! - [`command`]: the `match` and `tournament` commands (progress bar, GGF output), and the
//!   played games as the input of an audit ([`crate::review::audit`]);

pub mod command;
pub mod json;
pub mod openings;
pub mod referee;
pub mod series;
pub mod stats;
pub mod summary;

pub use command::{
    audit_games_of, run_match, run_match_games, run_tournament, ArenaError, MatchOptions,
    TournamentOptions,
};
pub use openings::OpeningSource;
pub use referee::{
    play_game, Clocks, GameOutcome, GameSetup, Opening, Referee, Termination, Turned,
};
pub use series::SeriesConfig;
pub use stats::Sprt;
pub use summary::{MatchSummary, TournamentTable};
