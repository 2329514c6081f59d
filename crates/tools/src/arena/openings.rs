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
//! - `start`: the standard position every time;
//! - `file:PATH`: the openings listed in a text file, one move string a line (`f5d6c3d3`, any
//!   number of moves; blank lines and lines starting with `#` are skipped), drawn as the XOT
//!   list is. This is how a match plays openings that no training game started from (the
//!   held-out openings of `docs/dev/WEIGHTS.md`), or a list of its own.

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;

use crate::board::{Move, Position};
use crate::rng::{derive_seed, SplitMix64};
use crate::xot;

use super::referee::Opening;

/// Where the games of a series start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The standard start position.
    Start,
    /// The XOT list.
    Xot,
    /// This many random plies from the start.
    Random(u32),
    /// The openings of a file (`file:PATH`).
    List(OpeningList),
}

/// Openings read from a file: each a legal move string from the start after which the game
/// is still on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningList {
    /// The file, as given.
    path: String,
    /// The move strings, in file order (shared: a series clones its configuration).
    lines: Arc<[String]>,
}

/// The largest openings file read (a line is a few dozen bytes).
const LIST_MAX_BYTES: u64 = 64 * crate::files::MIB;

impl OpeningList {
    /// Reads and checks the openings file at `path`.
    pub fn read(path: &str) -> Result<OpeningList, OpeningSourceError> {
        let text = crate::files::read_to_string(Path::new(path), LIST_MAX_BYTES)
            .map_err(|e| OpeningSourceError::File(e.to_string()))?;
        OpeningList::parse(path, &text)
    }

    /// Checks the openings of `text` (read from `path`, which names it in errors).
    pub fn parse(path: &str, text: &str) -> Result<OpeningList, OpeningSourceError> {
        let mut lines = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| {
                OpeningSourceError::File(format!("{path}: line {}: {line:?}: {why}", number + 1))
            };
            match xot::position_after(line) {
                None => return Err(bad("not a legal move string from the start")),
                Some(pos) if pos.board.is_game_over() => return Err(bad("the game is over")),
                Some(_) => lines.push(line.to_ascii_lowercase()),
            }
        }
        if lines.is_empty() {
            return Err(OpeningSourceError::File(format!("{path}: no openings")));
        }
        Ok(OpeningList {
            path: path.to_string(),
            lines: lines.into(),
        })
    }

    /// The file, as given.
    pub fn path(&self) -> &Path {
        Path::new(&self.path)
    }

    /// Number of openings.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the list is empty (never, once read).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// Why an opening source could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OpeningSourceError {
    /// Not a source this code knows.
    #[error("bad openings {0:?}: expected xot, start, random:N (N from 0 to 50) or file:PATH")]
    Unknown(String),
    /// An openings file that could not be read or holds a bad line.
    #[error("bad openings file: {0}")]
    File(String),
}

impl FromStr for OpeningSource {
    type Err = OpeningSourceError;

    fn from_str(s: &str) -> Result<OpeningSource, OpeningSourceError> {
        if let Some(path) = s.trim().strip_prefix("file:") {
            return OpeningList::read(path).map(OpeningSource::List);
        }
        let t = s.trim().to_ascii_lowercase();
        let bad = || OpeningSourceError::Unknown(s.to_string());
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
            OpeningSource::List(list) => write!(f, "file:{}", list.path),
        }
    }
}

/// The openings of `count` pairs from `source`, determined by `seed`.
pub fn openings(source: &OpeningSource, count: usize, seed: u64) -> Vec<Opening> {
    match source {
        OpeningSource::Start => vec![Opening::start(); count],
        OpeningSource::Xot => {
            let lines: Vec<&str> = xot::openings().collect();
            drawn(&lines, count, seed)
        }
        OpeningSource::List(list) => {
            let lines: Vec<&str> = list.lines.iter().map(String::as_str).collect();
            drawn(&lines, count, seed)
        }
        OpeningSource::Random(plies) => (0..count)
            .map(|k| random_opening(*plies, derive_seed(seed, k as u64)))
            .collect(),
    }
}

/// `count` openings drawn from the move strings `lines` without replacement, in a seeded
/// random order (a new order for each pass through the list).
fn drawn(lines: &[&str], count: usize, seed: u64) -> Vec<Opening> {
    // No capacity from `count`: it comes from the command line.
    let mut out = Vec::new();
    let mut round = 0u64;
    while out.len() < count && !lines.is_empty() {
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
    fn opening_lists_are_checked_line_by_line() {
        let list = OpeningList::parse("o.txt", "# held out\nf5d6c3d3\n\nF5F6E6\n").expect("valid");
        assert_eq!(list.len(), 2);
        let source = OpeningSource::List(list);
        let a = openings(&source, 5, 3);
        assert_eq!(a, openings(&source, 5, 3));
        // Each pass through the list draws every line once.
        let mut first: Vec<_> = a[..2].iter().map(|o| o.name.clone()).collect();
        first.sort();
        assert_eq!(first, ["f5d6c3d3", "f5f6e6"]);
        assert_eq!(
            a[0].position().expect("legal").board.empty_count() as usize,
            60 - a[0].moves.len()
        );
        for (text, why) in [
            ("f5d6\nf5f5\n", "line 2: \"f5f5\": not a legal move string"),
            ("f5d6\nz9\n", "line 2: \"z9\": not a legal"),
            ("# nothing\n\n", "o.txt: no openings"),
            // A line after which the game is over (Black wins in nine plies).
            (
                "d3c3b3d2e1d6d7e3f4\n",
                "line 1: \"d3c3b3d2e1d6d7e3f4\": the game is over",
            ),
        ] {
            let e = OpeningList::parse("o.txt", text)
                .expect_err(text)
                .to_string();
            assert!(e.contains(why), "{e}");
        }
        let e = "file:/no/such/openings.txt"
            .parse::<OpeningSource>()
            .expect_err("missing");
        assert!(e.to_string().contains("/no/such/openings.txt"), "{e}");
    }

    #[test]
    fn xot_openings_are_distinct_legal_and_seeded() {
        let a = openings(&OpeningSource::Xot, 50, 7);
        let b = openings(&OpeningSource::Xot, 50, 7);
        let c = openings(&OpeningSource::Xot, 50, 8);
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
        let a = openings(&OpeningSource::Random(10), 20, 3);
        assert_eq!(a, openings(&OpeningSource::Random(10), 20, 3));
        for o in &a {
            assert_eq!(o.moves.len(), 10);
            let pos = o.position().expect("legal");
            assert!(!pos.board.is_game_over());
        }
        // Different pairs get different lines.
        assert_ne!(a[0], a[1]);
        assert_eq!(
            openings(&OpeningSource::Start, 2, 0),
            vec![Opening::start(); 2]
        );
    }
}
