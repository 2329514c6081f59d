//! Levels: one number, 1 to 60, for how hard the engine plays, as users of Edax know them from
//! `-l N`. The whole table lives here; every face (`--level N`, NBoard `set level N`, GTP
//! `othello-level N`, the `engine:level=N` match player) goes through [`Level`].
//!
//! A level sets three things:
//!
//! | level | midgame depth | exact solve from | selectivity |
//! | --- | --- | --- | --- |
//! | 1-10 | the level | 2 x level empties (2 to 20) | 73% |
//! | 11-20 | the level | level + 10 empties (21 to 30) | 73% |
//! | 21-30 | the level | level + 10 empties (31 to 40) | 87% |
//! | 31-40 | the level | level + 10 empties (41 to 50) | 95% |
//! | 41-50 | the level | level + 10 empties (51 to 60) | 98% |
//! | 51-59 | the level | 60 empties | 99% |
//! | 60 | 60 | 60 empties (the whole game is solved) | 100% (no pruning) |
//!
//! - **Midgame depth**: the deepest midgame iteration, in plies.
//! - **Exact solve from**: at this many empty squares or fewer, the move is an exact endgame
//!   solve (as Edax's level L solves at about 2L empties at low levels, growing more slowly
//!   above); above it, the midgame search to the level's depth decides. The midgame reaching
//!   the end of the game is a solve too.
//! - **Selectivity**: the Multi-ProbCut confidence of the midgame search (see
//!   [`crate::search::Selectivity`]); higher levels prune less.
//!
//! Depth, solve empties and selectivity never decrease from one level to the next.
//!
//! # Levels and clocks
//!
//! A level is untimed: a move searches to the level's depth (or solves), however long that
//! takes, and a face's default time per move (NBoard's, GTP's, a match's) does not apply. When
//! a game clock is given too, the clock still caps every move (the time manager plans the game
//! as usual, and ends a search at its deadline), and the level caps the depth and the solve:
//! no midgame iteration deeper than the level, and no solve (exact, WLD or probable) above
//! the level's solve empties. A clock can thus make a level play faster, never deeper.
//!
//! Unlike Edax's table, there is no separate WLD or probable-solve stage a few empties before
//! the exact solve: untimed, this engine's probable solves (`search/transition.rs`) are driven
//! by the clock only.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::search::Selectivity;

/// The lowest level.
pub const MIN_LEVEL: u8 = 1;

/// The highest level (a full solve from any position).
pub const MAX_LEVEL: u8 = 60;

/// A level, [`MIN_LEVEL`] to [`MAX_LEVEL`]; see the module documentation for its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// A level that is not a whole number from 1 to 60.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("level {0:?}: expected a whole number from 1 to 60")]
pub struct LevelError(pub String);

impl Level {
    /// The level `n`, if it is one (1 to 60).
    pub fn new(n: u32) -> Result<Level, LevelError> {
        if (u32::from(MIN_LEVEL)..=u32::from(MAX_LEVEL)).contains(&n) {
            Ok(Level(n as u8))
        } else {
            Err(LevelError(n.to_string()))
        }
    }

    /// Every level, lowest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (MIN_LEVEL..=MAX_LEVEL).map(Level)
    }

    /// The level's number.
    pub fn number(self) -> u32 {
        u32::from(self.0)
    }

    /// The deepest midgame iteration, plies.
    pub fn depth(self) -> u32 {
        self.number()
    }

    /// The most empty squares at which a move is an exact solve.
    pub fn exact_empties(self) -> u32 {
        let n = self.number();
        if n <= 10 {
            2 * n
        } else {
            (n + 10).min(60)
        }
    }

    /// The midgame forward pruning (`None`: none, at level 60).
    pub fn selectivity(self) -> Option<Selectivity> {
        Some(match self.0 {
            1..=20 => Selectivity::P73,
            21..=30 => Selectivity::P87,
            31..=40 => Selectivity::P95,
            41..=50 => Selectivity::P98,
            51..=59 => Selectivity::P99,
            _ => return None,
        })
    }

    /// The selectivity as a percentage (100: no pruning), for tables and comparisons.
    pub fn selectivity_percent(self) -> u8 {
        self.selectivity().map_or(100, Selectivity::percent)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    /// A whole number from 1 to 60 (surrounding blanks allowed).
    fn from_str(s: &str) -> Result<Level, LevelError> {
        let t = s.trim();
        match t.parse::<u32>() {
            Ok(n) => Level::new(n).map_err(|_| LevelError(t.to_string())),
            Err(_) => Err(LevelError(t.chars().take(32).collect())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_never_gets_weaker_with_the_level() {
        let levels: Vec<Level> = Level::all().collect();
        assert_eq!(levels.len(), 60);
        for pair in levels.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(a.depth() < b.depth(), "{a} -> {b}");
            assert!(a.exact_empties() <= b.exact_empties(), "{a} -> {b}");
            assert!(
                a.selectivity_percent() <= b.selectivity_percent(),
                "{a} -> {b}"
            );
        }
        let at = |n| Level::new(n).unwrap();
        assert_eq!((at(1).depth(), at(1).exact_empties()), (1, 2));
        assert_eq!((at(10).depth(), at(10).exact_empties()), (10, 20));
        assert_eq!(at(11).exact_empties(), 21);
        assert_eq!(at(50).exact_empties(), 60);
        assert_eq!(
            (at(60).depth(), at(60).exact_empties(), at(60).selectivity()),
            (60, 60, None)
        );
        assert_eq!(at(1).selectivity_percent(), 73);
    }

    #[test]
    fn bad_levels_are_errors_naming_them() {
        for text in ["0", "61", "x", "", "-1", "1.5", "99999999999"] {
            let err = text.parse::<Level>().unwrap_err();
            assert!(
                err.to_string()
                    .contains("expected a whole number from 1 to 60"),
                "{err}"
            );
            assert!(err.to_string().contains(text.trim()), "{text}: {err}");
        }
        assert_eq!(" 7 ".parse::<Level>(), Ok(Level::new(7).unwrap()));
        assert_eq!(Level::new(0), Err(LevelError("0".into())));
    }
}
