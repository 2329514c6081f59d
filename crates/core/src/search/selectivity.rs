//! Selectivity: how much forward pruning a search may do, named as Edax and NTest name it.
//!
//! ProbCut (Buro, 1995) cuts a node when a shallow search predicts the deep value outside the
//! window by `t` standard deviations of the prediction's error. With a normal error, the cut is
//! right with probability `P(|Z| < t)`: 58% for `t = 0.8`, 73% for 1.1, 87% for 1.5, 95% for
//! 2.0, 98% for 2.6 and 99% for 3.3. A search shows its depth as `14@73%`; a search with no
//! forward pruning is "100%" and is written `None` where an `Option<Selectivity>` is expected.
//!
//! 58% is below Edax's levels; at 2 s a game both the neural network's search and
//! pattern-v6's play better with it than with 73% (docs/dev/NNUE.md, session 57).

use std::fmt;
use std::str::FromStr;

/// A forward-pruning level: the margin `t` in standard deviations and its percent name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Selectivity {
    /// Index into [`Selectivity::LEVELS`]; higher is safer.
    level: u8,
}

/// Percent names and margins of the levels, safest last.
const TABLE: [(u8, f32); 6] = [
    (58, 0.8),
    (73, 1.1),
    (87, 1.5),
    (95, 2.0),
    (98, 2.6),
    (99, 3.3),
];

impl Selectivity {
    /// Every level, from the most aggressive (58%) to the safest (99%).
    pub const LEVELS: [Selectivity; 6] = [
        Selectivity::P58,
        Selectivity::P73,
        Selectivity::P87,
        Selectivity::P95,
        Selectivity::P98,
        Selectivity::P99,
    ];
    /// 58%: `t = 0.8`, the most aggressive level.
    pub const P58: Selectivity = Selectivity { level: 0 };
    /// 73%: `t = 1.1`, the most aggressive of Edax's levels.
    pub const P73: Selectivity = Selectivity { level: 1 };
    /// 87%: `t = 1.5`.
    pub const P87: Selectivity = Selectivity { level: 2 };
    /// 95%: `t = 2.0`.
    pub const P95: Selectivity = Selectivity { level: 3 };
    /// 98%: `t = 2.6`.
    pub const P98: Selectivity = Selectivity { level: 4 };
    /// 99%: `t = 3.3`, the safest level.
    pub const P99: Selectivity = Selectivity { level: 5 };

    /// The margin in standard deviations of the prediction error.
    #[inline(always)]
    pub fn t(self) -> f32 {
        TABLE[self.level as usize].1
    }

    /// The level's rank among the endgame's selective passes, 0 (58% and 73%) to 4 (99%):
    /// higher is safer. The solver stores a selective pass's result as a search of the
    /// position's empties plus this rank; no selective pass runs at 58%, so it shares 73%'s
    /// rank, and the stored depths are those of the levels before 58% existed.
    #[inline(always)]
    pub fn rank(self) -> u32 {
        u32::from(self.level.saturating_sub(1))
    }

    /// The level's position in [`Selectivity::LEVELS`].
    #[inline(always)]
    pub fn index(self) -> usize {
        self.level as usize
    }

    /// The level's name in percent (58, 73, 87, 95, 98 or 99).
    pub fn percent(self) -> u8 {
        TABLE[self.level as usize].0
    }

    /// The level named `percent`, if there is one.
    pub fn from_percent(percent: u32) -> Option<Selectivity> {
        TABLE
            .iter()
            .position(|&(p, _)| p as u32 == percent)
            .map(|i| Selectivity { level: i as u8 })
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.percent())
    }
}

/// A selectivity setting that cannot be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "selectivity {0:?}: expected 58, 73, 87, 95, 98, 99 or 100 (percent; 100 or none = no pruning)"
)]
pub struct SelectivityError(pub String);

/// A selectivity setting: a level, or `None` for no forward pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelectivitySetting(pub Option<Selectivity>);

impl FromStr for SelectivitySetting {
    type Err = SelectivityError;

    /// Parses `58`, `73`, `87`, `95`, `98`, `99` (an optional `%` may follow), or `100` / `none` for
    /// no pruning.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("none") {
            return Ok(SelectivitySetting(None));
        }
        let digits = t.strip_suffix('%').unwrap_or(t);
        match digits.parse::<u32>() {
            Ok(100) => Ok(SelectivitySetting(None)),
            Ok(p) => Selectivity::from_percent(p)
                .map(|s| SelectivitySetting(Some(s)))
                .ok_or_else(|| SelectivityError(s.to_string())),
            Err(_) => Err(SelectivityError(s.to_string())),
        }
    }
}

impl fmt::Display for SelectivitySetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => s.fmt(f),
            None => f.write_str("100%"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `P(|Z| < t)` for a standard normal, by numerical integration of its density.
    fn two_sided(t: f64) -> f64 {
        let steps = 20_000;
        let h = t / steps as f64;
        let density = |x: f64| (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let area: f64 = (0..steps).map(|i| density((i as f64 + 0.5) * h) * h).sum();
        2.0 * area
    }

    #[test]
    fn percent_names_match_the_normal_probability_of_a_right_cut() {
        for s in Selectivity::LEVELS {
            let p = 100.0 * two_sided(s.t() as f64);
            // Edax's names round loosely (2.6 sigmas is 99.1%, named 98%).
            assert!(
                (p - s.percent() as f64).abs() < 1.2,
                "{s}: t {} gives {p:.2}%",
                s.t()
            );
        }
        assert!(Selectivity::LEVELS.windows(2).all(|w| w[0].t() < w[1].t()));
    }

    #[test]
    fn settings_parse_and_print_round_trip() {
        for s in Selectivity::LEVELS {
            let text = s.to_string();
            assert_eq!(text.parse(), Ok(SelectivitySetting(Some(s))));
            assert_eq!(
                text.trim_end_matches('%').parse(),
                Ok(SelectivitySetting(Some(s)))
            );
        }
        assert_eq!("100".parse(), Ok(SelectivitySetting(None)));
        assert_eq!("none".parse(), Ok(SelectivitySetting(None)));
        assert_eq!(SelectivitySetting(None).to_string(), "100%");
        for bad in ["", "50", "57", "x", "73.5", "-1", "1000%", "%"] {
            assert!(bad.parse::<SelectivitySetting>().is_err(), "{bad:?}");
        }
    }
}
