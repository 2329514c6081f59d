//! Where games start: the XOT list, random plies (PAIP's `random-othello-series`), or the
//! standard position.
//!
//! Each opening is played twice, colours swapped (a *pair*), so that an unbalanced opening
//! favours neither player. Openings are chosen from a seed, so a series is reproducible:
//!
//! - `xot`: openings drawn without replacement from the bundled XOT list ([`crate::xot`]), in
//!   a seeded random order (cycling through the list again if more pairs are asked for);
//! - `random:N`: N random plies from the start, as PAIP's `random-othello-series` has both
//!   players play `random-strategy` for the first N moves (PAIP's default N is 10). A forced
//!   pass counts as a ply; a line that ends the game is drawn again;
//! - `start`: the standard position every time.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Move, Position};
use crate::rng::{derive_seed, SplitMix64};
use crate::xot;

use super::referee::Opening;

/// Where the games of a series start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The standard start position.
    Start,
    /// The XOT list.
    Xot,
    /// This many random plies from the start.
    Random(u32),
}

/// Why an opening source could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad openings {0:?}: expected xot, start or random:N (N from 0 to 50)")]
pub struct OpeningSourceError(pub String);

impl FromStr for OpeningSource {
    type Err = OpeningSourceError;

    fn from_str(s: &str) -> Result<OpeningSource, OpeningSourceError> {
        let t = s.trim().to_ascii_lowercase();
        let bad = || OpeningSourceError(s.to_string());
        match t.split_once(':') {
            None if t == "xot" => Ok(OpeningSource::Xot),
            None if t == "start" => Ok(OpeningSource::Start),
            None if t == "random" => Ok(OpeningSource::Random(10)),
            Some(("random", n)) => match n.trim().parse::<u32>() {
                Ok(n) if n <= 50 => Ok(OpeningSource::Random(n)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::Start => f.write_str("start"),
            OpeningSource::Xot => f.write_str("xot"),
            OpeningSource::Random(n) => write!(f, "random:{n}"),
        }
    }
}

/// The openings of `count` pairs from `source`, determined by `seed`.
pub fn openings(source: OpeningSource, count: usize, seed: u64) -> Vec<Opening> {
    match source {
        OpeningSource::Start => vec![Opening::start(); count],
        OpeningSource::Xot => {
            let lines: Vec<&str> = xot::openings().collect();
            // No capacity from `count`: it comes from the command line.
            let mut out = Vec::new();
            let mut round = 0u64;
            while out.len() < count {
                // A seeded Fisher-Yates shuffle per pass through the list.
                let mut order: Vec<usize> = (0..lines.len()).collect();
                let mut rng = SplitMix64::new(derive_seed(seed, round));
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below_u32(i + 1));
                }
                for &i in order.iter().take(count - out.len()) {
                    let moves = xot::parse_moves(lines[i]).unwrap_or_default();
                    out.push(Opening {
                        name: lines[i].to_string(),
                        start: Position::start(),
                        moves,
                    });
                }
                round += 1;
            }
            out
        }
        OpeningSource::Random(plies) => (0..count)
            .map(|k| random_opening(plies, derive_seed(seed, k as u64)))
            .collect(),
    }
}

/// `plies` random plies from the start, the line redrawn until the game is still on.
pub fn random_opening(plies: u32, seed: u64) -> Opening {
    let mut rng = SplitMix64::new(seed);
    loop {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            if pos.board.is_game_over() {
                break;
            }
            let legal: Vec<_> = pos.board.legal_moves().collect();
            let mv = if legal.is_empty() {
                Move::Pass
            } else {
                Move::Place(legal[rng.below_u32(legal.len())])
            };
            pos = pos.try_play(mv).expect("a legal move or a forced pass");
            moves.push(mv);
        }
        if !pos.board.is_game_over() {
            let name: String = moves.iter().map(|m| format!("{m}")).collect();
            return Opening {
                name,
                start: Position::start(),
                moves,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse() {
        assert_eq!("xot".parse(), Ok(OpeningSource::Xot));
        assert_eq!("START".parse(), Ok(OpeningSource::Start));
        assert_eq!("random:8".parse(), Ok(OpeningSource::Random(8)));
        assert_eq!("random".parse(), Ok(OpeningSource::Random(10)));
        for bad in ["", "xot:3", "random:x", "random:99", "book"] {
            assert!(bad.parse::<OpeningSource>().is_err(), "{bad}");
        }
    }

    #[test]
    fn xot_openings_are_distinct_legal_and_seeded() {
        let a = openings(OpeningSource::Xot, 50, 7);
        let b = openings(OpeningSource::Xot, 50, 7);
        let c = openings(OpeningSource::Xot, 50, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut names: Vec<_> = a.iter().map(|o| o.name.clone()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 50);
        for o in &a {
            assert_eq!(o.moves.len(), 8);
            assert_eq!(o.position().unwrap().board.empty_count(), 52);
        }
    }

    #[test]
    fn random_openings_have_the_plies_asked_for() {
        let a = openings(OpeningSource::Random(10), 20, 3);
        assert_eq!(a, openings(OpeningSource::Random(10), 20, 3));
        for o in &a {
            assert_eq!(o.moves.len(), 10);
            let pos = o.position().expect("legal");
            assert!(!pos.board.is_game_over());
        }
        // Different pairs get different lines.
        assert_ne!(a[0], a[1]);
        assert_eq!(
            openings(OpeningSource::Start, 2, 0),
            vec![Opening::start(); 2]
        );
    }
}
