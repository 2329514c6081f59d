//! Where games start: the XOT list, random plies (PAIP's `random-othello-series`), or the
//! standard position.
//!
//! Each opening is played twice, colours swapped (a *pair*), so that an unbalanced opening
//! favours neither player. Openings are chosen from a seed, so a series is reproducible:
//!
//! - `xot`: openings drawn without replacement from the bundled XOT list ([`crate::xot`]), in
//!   a seeded random order (cycling through the list again if more pairs are asked for);
//! - `xot+N`: the same XOT lines, each followed by N random plies drawn from the seed and the
//!   pair's number. Deterministic players replay a game exactly whenever its opening comes
//!   back, so a series longer than the list (or several series from other seeds) repeats
//!   whole games under `xot`; two random plies after the XOT line make that rare (about 80
//!   continuations of each line). For self-play data (`scripts/xot-games.sh`);
//! - `random:N`: N random plies from the start, as PAIP's `random-othello-series` has both
//!   players play `random-strategy` for the first N moves (PAIP's default N is 10). A forced
//!   pass counts as a ply; a line that ends the game is drawn again;
//! - `start`: the standard position every time;
//! - `file:PATH`: the openings listed in a text file, one move list a line, read as
//!   `--moves` reads one ([`crate::gamedb::transcript::parse_move_list`]: `f5d6c3d3`, either
//!   case, spaces or commas between moves, passes implicit or written `pa`/`--`; any number of
//!   moves; blank lines and lines starting with `#` are skipped), drawn as the XOT list is. This is how a match plays openings that no training game started from (the
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
    /// The XOT list, each line followed by this many random plies.
    XotPlus(u32),
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
    /// The openings, in file order: each line's squares in lower case (its name) and its
    /// moves, passes included (shared: a series clones its configuration).
    lines: Arc<[(String, Vec<Move>)]>,
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
            let record = crate::gamedb::transcript::parse_move_list(line)
                .map_err(|e| bad(&format!("not a legal move list from the start: {e}")))?;
            let game = record
                .to_game()
                .map_err(|e| bad(&format!("not a legal move list from the start: {e}")))?;
            if game.position().board.is_game_over() {
                return Err(bad("the game is over"));
            }
            let name: String = record.moves.iter().map(|sq| sq.to_string()).collect();
            let moves = game.moves().iter().map(|m| m.mv).collect();
            lines.push((name, moves));
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
    #[error(
        "bad openings {0:?}: expected xot, xot+N (N from 1 to 20), start, random:N (N from 0 to 50) or file:PATH"
    )]
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
            None => match t.strip_prefix("xot+").map(|n| n.trim().parse::<u32>()) {
                Some(Ok(n)) if (1..=20).contains(&n) => Ok(OpeningSource::XotPlus(n)),
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
            OpeningSource::XotPlus(n) => write!(f, "xot+{n}"),
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
            drawn(lines.len(), count, seed, |i| Opening {
                name: lines[i].to_string(),
                start: Position::start(),
                moves: xot::parse_moves(lines[i]).unwrap_or_default(),
            })
        }
        OpeningSource::XotPlus(plies) => {
            let lines: Vec<&str> = xot::openings().collect();
            let mut k = 0u64;
            drawn(lines.len(), count, seed, |i| {
                // The pair's own seed: its number in the series, apart from the draw order's.
                let pair = derive_seed(derive_seed(seed, u64::MAX), k);
                k += 1;
                extended(lines[i], *plies, pair)
            })
        }
        OpeningSource::List(list) => drawn(list.lines.len(), count, seed, |i| Opening {
            name: list.lines[i].0.clone(),
            start: Position::start(),
            moves: list.lines[i].1.clone(),
        }),
        OpeningSource::Random(plies) => (0..count)
            .map(|k| random_opening(*plies, derive_seed(seed, k as u64)))
            .collect(),
    }
}

/// `count` openings drawn without replacement from a list of `len` (`opening(i)` makes the
/// `i`-th), in a seeded random order (a new order for each pass through the list).
fn drawn(
    len: usize,
    count: usize,
    seed: u64,
    mut opening: impl FnMut(usize) -> Opening,
) -> Vec<Opening> {
    // No capacity from `count`: it comes from the command line.
    let mut out = Vec::new();
    let mut round = 0u64;
    while out.len() < count && len > 0 {
        // A seeded Fisher-Yates shuffle per pass through the list.
        let mut order: Vec<usize> = (0..len).collect();
        let mut rng = SplitMix64::new(derive_seed(seed, round));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below_u32(i + 1));
        }
        for &i in order.iter().take(count - out.len()) {
            out.push(opening(i));
        }
        round += 1;
    }
    out
}

/// The XOT `line` followed by `plies` random plies from `seed`, the plies redrawn until the
/// game is still on (an XOT line never ends it; a line the bundled list could not hold is
/// played as far as it is legal).
fn extended(line: &str, plies: u32, seed: u64) -> Opening {
    let mut start = Vec::new();
    let mut pos = Position::start();
    for mv in xot::parse_moves(line).unwrap_or_default() {
        match pos.try_play(mv) {
            Ok(next) => {
                pos = next;
                start.push(mv);
            }
            Err(_) => break,
        }
    }
    let tail = random_plies(pos, plies, seed);
    let mut moves = start;
    moves.extend(tail);
    let name: String = moves.iter().map(|m| format!("{m}")).collect();
    Opening {
        name,
        start: Position::start(),
        moves,
    }
}

/// `plies` random plies from `from`, redrawn until the game is still on after them (or, if
/// every line tried ends it, fewer: never an opening after which the game is over).
fn random_plies(from: Position, plies: u32, seed: u64) -> Vec<Move> {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..64 {
        let (pos, moves) = play_random(from, plies, &mut rng);
        if !pos.board.is_game_over() {
            return moves;
        }
    }
    Vec::new()
}

/// `plies` random plies from the start, the line redrawn until the game is still on.
pub fn random_opening(plies: u32, seed: u64) -> Opening {
    let mut rng = SplitMix64::new(seed);
    loop {
        let (pos, moves) = play_random(Position::start(), plies, &mut rng);
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

/// Up to `plies` uniformly random legal plies from `pos` (a forced pass counts as one; the
/// line stops where the game ends): the position reached and the plies.
fn play_random(mut pos: Position, plies: u32, rng: &mut SplitMix64) -> (Position, Vec<Move>) {
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
    (pos, moves)
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
        assert_eq!("xot+2".parse(), Ok(OpeningSource::XotPlus(2)));
        assert_eq!("XOT+20".parse(), Ok(OpeningSource::XotPlus(20)));
        for bad in [
            "",
            "xot:3",
            "random:x",
            "random:99",
            "book",
            "xot+",
            "xot+0",
            "xot+21",
            "xot+x",
            "xot+-1",
        ] {
            assert!(bad.parse::<OpeningSource>().is_err(), "{bad}");
        }
        for source in [OpeningSource::Xot, OpeningSource::XotPlus(3)] {
            assert_eq!(source.to_string().parse(), Ok(source));
        }
    }

    #[test]
    fn xot_lines_with_random_plies_do_not_repeat_games() {
        let list: Vec<&str> = xot::openings().collect();
        let (source, count) = (OpeningSource::XotPlus(2), list.len() + 500);
        let a = openings(&source, count, 7);
        assert_eq!(a, openings(&source, count, 7), "a seed gives one series");
        assert_ne!(a, openings(&source, count, 8));
        let plain = openings(&OpeningSource::Xot, count, 7);
        let mut names = std::collections::HashSet::new();
        for (extended, line) in a.iter().zip(&plain) {
            // The XOT line of the plain series, in the same order, then two legal plies.
            assert_eq!(
                extended.moves.len(),
                line.moves.len() + 2,
                "{}",
                extended.name
            );
            assert_eq!(extended.moves[..line.moves.len()], line.moves[..]);
            let pos = extended.position().expect("legal");
            assert!(!pos.board.is_game_over());
            assert_eq!(pos.board.empty_count() as usize, 60 - extended.moves.len());
            names.insert(extended.name.clone());
        }
        // The plain series repeats the first 500 lines; with two random plies almost none
        // of the openings come back (about 80 continuations of each line).
        let repeats = count - names.len();
        assert!(repeats < 50, "{repeats} repeated openings of {count}");
        let plain_names: std::collections::HashSet<_> = plain.iter().map(|o| &o.name).collect();
        assert_eq!(count - plain_names.len(), 500);
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
            ("f5d6\nf5f5\n", "line 2: \"f5f5\": not a legal move list"),
            ("f5d6\nz9\n", "line 2: \"z9\": not a legal"),
            // An explicit pass where none is forced.
            ("f5 pa d6\n", "line 1: \"f5 pa d6\": not a legal move list"),
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

    /// A random line from the start whose last two plies are a forced pass and a move, the
    /// game still on: its squares.
    fn a_line_with_a_pass(seed: u64) -> Vec<crate::square::Square> {
        let mut rng = SplitMix64::new(seed);
        loop {
            let mut pos = Position::start();
            let mut squares = Vec::new();
            while !pos.board.is_game_over() {
                if pos.board.must_pass() {
                    pos = pos.try_play(Move::Pass).expect("forced");
                    let legal: Vec<_> = pos.board.legal_moves().collect();
                    let sq = legal[rng.below_u32(legal.len())];
                    pos = pos.try_play(Move::Place(sq)).expect("legal");
                    squares.push(sq);
                    if !pos.board.is_game_over() {
                        return squares;
                    }
                    break;
                }
                let legal: Vec<_> = pos.board.legal_moves().collect();
                let sq = legal[rng.below_u32(legal.len())];
                pos = pos.try_play(Move::Place(sq)).expect("legal");
                squares.push(sq);
            }
        }
    }

    #[test]
    fn opening_lines_are_read_as_moves_reads_a_move_list() {
        // Spaces, commas and upper case: the same opening as the plain string.
        let list = OpeningList::parse("o.txt", "F5 d6, C3\n").expect("valid");
        let a = openings(&OpeningSource::List(list), 1, 1);
        assert_eq!(a[0].name, "f5d6c3");
        assert_eq!(
            a[0].position().expect("legal"),
            xot::position_after("f5d6c3").expect("legal")
        );
        // A forced pass, implicit or written `pa` or `--`: the opening plays it.
        for seed in 1..4 {
            let squares = a_line_with_a_pass(seed);
            let plain: String = squares.iter().map(|s| s.to_string()).collect();
            let last = plain.len() - 2;
            let spelled = [
                plain.clone(),
                format!("{} pa {}", &plain[..last], &plain[last..]),
                format!("{}--{}", &plain[..last], &plain[last..]).to_uppercase(),
            ];
            for text in spelled {
                let list = OpeningList::parse("o.txt", &text).expect(&text);
                let o = &openings(&OpeningSource::List(list), 1, 1)[0];
                assert_eq!(o.name, plain);
                assert_eq!(o.moves.len(), squares.len() + 1, "{text}");
                assert!(o.moves.contains(&Move::Pass), "{text}");
                let pos = o.position().expect("legal");
                assert_eq!(pos.board.empty_count() as usize, 60 - squares.len());
            }
        }
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
