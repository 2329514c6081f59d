//! Results of a match and of a tournament, and their tables.
//!
//! A match is seen from A's side: wins, draws and losses, the score (a draw is half a point),
//! the average final disc difference (a forfeit counts 64-0, as in PAIP), the same per colour,
//! the Elo difference with its 95% interval from the pentanomial pair counts
//! ([`super::stats`]), the SPRT state when one runs, the faults (time, hang, illegal move,
//! crash) per player, and in timed games how much of its clock a side used.
//!
//! A tournament is PAIP's `round-robin` table: each player's points against each other player
//! (wins plus half the draws) and its total.

use std::collections::BTreeMap;
use std::fmt;

use crate::board::Color;
use crate::clock::TimeControl;

use super::referee::GameOutcome;
use super::series::{half_points, PairOutcome};
use super::stats::{EloEstimate, Pentanomial, Sprt, SprtState};

/// Wins, draws and losses of one side, with its disc difference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// The sum of final disc differences.
    pub discs: i64,
}

impl Record {
    /// Adds a game ending with `margin` discs for this side.
    pub fn add(&mut self, margin: i32) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.discs += i64::from(margin);
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score per game, 0..=1 (0 with no games).
    pub fn score(&self) -> f64 {
        self.points() / self.games().max(1) as f64
    }

    /// The average disc difference per game.
    pub fn average_discs(&self) -> f64 {
        self.discs as f64 / self.games().max(1) as f64
    }
}

/// Faults counted by player and kind (`time`, `hung`, `illegal`, `crash`).
pub type Faults = BTreeMap<(String, &'static str), u64>;

/// How much of their clocks the sides used: one sample per side and timed game, the time the
/// side spent over its initial time plus its increments.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClockUse {
    /// Samples (sides in timed games).
    pub count: u64,
    /// The sum of the fractions.
    pub sum: f64,
    /// The smallest fraction (0 with no sample).
    pub min: f64,
}

impl ClockUse {
    /// Adds one side's fraction of its clock used in one game.
    pub fn add(&mut self, fraction: f64) {
        self.min = if self.count == 0 {
            fraction
        } else {
            self.min.min(fraction)
        };
        self.count += 1;
        self.sum += fraction;
    }

    /// The mean fraction, if there is a sample.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }
}

/// A match's results, from A's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// A's name.
    pub a: String,
    /// B's name.
    pub b: String,
    /// All games.
    pub total: Record,
    /// Games with A as Black.
    pub as_black: Record,
    /// Games with A as White.
    pub as_white: Record,
    /// Pair counts.
    pub pentanomial: Pentanomial,
    /// Faults by player.
    pub faults: Faults,
    /// The SPRT, if one runs, and its state.
    pub sprt: Option<(Sprt, SprtState)>,
    /// In timed games, the most time one side used in one game, and the clock's initial
    /// time plus increments it had (how close anyone came to losing on time).
    pub most_time_used: Option<(f64, f64)>,
    /// In timed games, the fraction of its clock each side used in each game.
    pub clock_use: ClockUse,
    /// A's and B's clocks, when they differ (a time-odds match, `match --time-b`).
    pub time_odds: Option<(TimeControl, TimeControl)>,
}

impl MatchSummary {
    /// An empty summary.
    pub fn new(a: &str, b: &str, sprt: Option<Sprt>) -> MatchSummary {
        MatchSummary {
            a: a.to_string(),
            b: b.to_string(),
            total: Record::default(),
            as_black: Record::default(),
            as_white: Record::default(),
            pentanomial: Pentanomial::default(),
            faults: Faults::new(),
            sprt: sprt.map(|s| (s, s.state(&Pentanomial::default()))),
            most_time_used: None,
            clock_use: ClockUse::default(),
            time_odds: None,
        }
    }

    /// Adds a game, A being Black or not.
    pub fn add_game(&mut self, a_is_black: bool, outcome: &GameOutcome) {
        let margin = if a_is_black {
            outcome.black_margin
        } else {
            -outcome.black_margin
        };
        self.total.add(margin);
        if a_is_black {
            self.as_black.add(margin);
        } else {
            self.as_white.add(margin);
        }
        let (a_color, b_color) = if a_is_black {
            (Color::Black, Color::White)
        } else {
            (Color::White, Color::Black)
        };
        if let (Some(a), Some(b)) = (
            outcome.game.time_control(a_color),
            outcome.game.time_control(b_color),
        ) {
            if a != b {
                self.time_odds = Some((a, b));
            }
        }
        for color in [Color::Black, Color::White] {
            if let Some(tc) = outcome.game.time_control(color) {
                let times = outcome.game.move_times(color);
                let used: f64 = times.iter().sum();
                let allowed = tc.initial + tc.increment * times.len() as f64;
                if self.most_time_used.is_none_or(|(u, _)| used > u) {
                    self.most_time_used = Some((used, allowed));
                }
                if allowed > 0.0 {
                    self.clock_use.add(used / allowed);
                }
            }
        }
        if let Some(loser) = outcome.termination.loser() {
            let a_lost = (loser == Color::Black) == a_is_black;
            let name = if a_lost { &self.a } else { &self.b };
            *self
                .faults
                .entry((name.clone(), outcome.termination.kind()))
                .or_default() += 1;
        }
    }

    /// Adds a pair (both its games, and the pentanomial count) and updates the SPRT.
    pub fn add_pair(&mut self, pair: &PairOutcome) {
        self.add_game(true, &pair.games[0]);
        self.add_game(false, &pair.games[1]);
        self.pentanomial.add(pair.a_half_points());
        if let Some((sprt, state)) = &mut self.sprt {
            *state = sprt.state(&self.pentanomial);
        }
    }

    /// The Elo estimate, if a pair was played.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.pentanomial.elo()
    }
}

/// Formats an Elo value: `+190.8`, `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{elo:+.1}")
    }
}

impl fmt::Display for MatchSummary {
    /// The results table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} vs {}: {} games, {} pairs",
            self.a,
            self.b,
            self.total.games(),
            self.pentanomial.pairs()
        )?;
        writeln!(
            f,
            "{:<10} {:>6} {:>6} {:>6} {:>6} {:>7} {:>7}",
            "", "games", "wins", "draws", "losses", "score", "discs"
        )?;
        for (label, r) in [
            ("total", &self.total),
            ("as Black", &self.as_black),
            ("as White", &self.as_white),
        ] {
            writeln!(
                f,
                "{:<10} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>+7.2}",
                label,
                r.games(),
                r.wins,
                r.draws,
                r.losses,
                100.0 * r.score(),
                r.average_discs()
            )?;
        }
        match self.elo() {
            Some(e) => writeln!(
                f,
                "Elo {} [{}, {}] (95%; pentanomial over {} pairs: {})",
                format_elo(e.elo),
                format_elo(e.lower),
                format_elo(e.upper),
                self.pentanomial.pairs(),
                self.pentanomial
                    .counts
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            )?,
            None => writeln!(f, "Elo: no pair played")?,
        }
        if let Some((sprt, state)) = &self.sprt {
            writeln!(
                f,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}]: {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                state.llr,
                state.lower,
                state.upper,
                state.decision
            )?;
        }
        if let Some((a, b)) = self.time_odds {
            let clock = |tc: TimeControl| {
                if tc.increment == 0.0 {
                    format!("{} s", tc.initial)
                } else {
                    format!("{} s + {} s a move", tc.initial, tc.increment)
                }
            };
            writeln!(f, "time odds: A {}, B {}", clock(a), clock(b))?;
        }
        if let Some((used, allowed)) = self.most_time_used {
            writeln!(
                f,
                "most time used by a side in one game: {used:.3} s of {allowed:.3} s"
            )?;
        }
        if let Some(mean) = self.clock_use.mean() {
            writeln!(
                f,
                "clock used per side and game: mean {:.1}%, min {:.1}% ({} sides)",
                100.0 * mean,
                100.0 * self.clock_use.min,
                self.clock_use.count
            )?;
        }
        if self.faults.is_empty() {
            writeln!(f, "faults: none")?;
        } else {
            let list: Vec<String> = self
                .faults
                .iter()
                .map(|((name, kind), n)| format!("{name} {n} {kind}"))
                .collect();
            writeln!(f, "faults (games lost by): {}", list.join(", "))?;
        }
        Ok(())
    }
}

/// PAIP's round-robin table.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentTable {
    /// The players' names.
    pub names: Vec<String>,
    /// `points[i][j]`: player i's points against player j (wins + draws / 2).
    pub points: Vec<Vec<f64>>,
    /// `discs[i]`: player i's total disc difference.
    pub discs: Vec<i64>,
    /// Games played by each player.
    pub games: Vec<u64>,
    /// Faults by player.
    pub faults: Faults,
}

impl TournamentTable {
    /// An empty table for `names`.
    pub fn new(names: Vec<String>) -> TournamentTable {
        let n = names.len();
        TournamentTable {
            names,
            points: vec![vec![0.0; n]; n],
            discs: vec![0; n],
            games: vec![0; n],
            faults: Faults::new(),
        }
    }

    /// Adds a pair.
    pub fn add_pair(&mut self, pair: &PairOutcome) {
        let (a, b) = (pair.task.a, pair.task.b);
        for (game, a_is_black) in pair.games.iter().zip([true, false]) {
            let margin = if a_is_black {
                game.black_margin
            } else {
                -game.black_margin
            };
            let ha = half_points(margin) as f64 / 2.0;
            self.points[a][b] += ha;
            self.points[b][a] += 1.0 - ha;
            self.discs[a] += i64::from(margin);
            self.discs[b] -= i64::from(margin);
            self.games[a] += 1;
            self.games[b] += 1;
            if let Some(loser) = game.termination.loser() {
                let who = if (loser == Color::Black) == a_is_black {
                    a
                } else {
                    b
                };
                *self
                    .faults
                    .entry((self.names[who].clone(), game.termination.kind()))
                    .or_default() += 1;
            }
        }
    }

    /// Player i's total points.
    pub fn total(&self, i: usize) -> f64 {
        self.points[i].iter().sum()
    }

    /// Player indices by decreasing total (ties in entry order).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&x, &y| self.total(y).total_cmp(&self.total(x)));
        order
    }
}

impl fmt::Display for TournamentTable {
    /// PAIP's layout: name, total, then the points against each player (`---` for itself);
    /// columns are numbered in entry order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(6);
        write!(
            f,
            "{:<w$} {:>7} {:>6} {:>7}",
            "player",
            "total",
            "score",
            "discs",
            w = width + 4
        )?;
        for j in 0..self.names.len() {
            write!(f, " {:>6}", format!("#{}", j + 1))?;
        }
        writeln!(f)?;
        for i in 0..self.names.len() {
            let games = self.games[i].max(1) as f64;
            write!(
                f,
                "{:<w$} {:>7.1} {:>5.1}% {:>+7.2}",
                format!("#{} {}", i + 1, self.names[i]),
                self.total(i),
                100.0 * self.total(i) / games,
                self.discs[i] as f64 / games,
                w = width + 4
            )?;
            for j in 0..self.names.len() {
                if i == j {
                    write!(f, " {:>6}", "---")?;
                } else {
                    write!(f, " {:>6.1}", self.points[i][j])?;
                }
            }
            writeln!(f)?;
        }
        if !self.faults.is_empty() {
            let list: Vec<String> = self
                .faults
                .iter()
                .map(|((name, kind), n)| format!("{name} {n} {kind}"))
                .collect();
            writeln!(f, "faults (games lost by): {}", list.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::Termination;
    use crate::board::{Move, Position};
    use crate::clock::TimeControl;
    use crate::game::{Game, MoveRecord};
    use crate::square::Square;

    /// A game from the start with `clock` for both sides, Black taking `black` seconds for
    /// each of its moves and White `white`, ended early as a time loss for White.
    fn timed_game(clock: Option<TimeControl>, black: f64, white: f64) -> GameOutcome {
        let mut game = Game::new(Position::start());
        game.black_clock = clock;
        game.white_clock = clock;
        for (i, sq) in [Square::F5, Square::D6, Square::C3, Square::D3, Square::C4]
            .into_iter()
            .enumerate()
        {
            let seconds = if i % 2 == 0 { black } else { white };
            game.push(MoveRecord {
                mv: Move::Place(sq),
                eval: None,
                seconds: Some(seconds),
            })
            .unwrap();
        }
        GameOutcome {
            game,
            black_margin: 64,
            termination: Termination::Time {
                loser: Color::White,
            },
        }
    }

    #[test]
    fn the_summary_reports_the_share_of_the_clock_used() {
        let clock = TimeControl {
            initial: 4.0,
            increment: 0.0,
            grace: 0.1,
        };
        let mut s = MatchSummary::new("a", "b", None);
        // Black: 3 moves of 1 s (75% of 4 s); White: 2 of 0.5 s (25%).
        s.add_game(true, &timed_game(Some(clock), 1.0, 0.5));
        // With a 1 s increment, Black's 3 moves of 1.75 s are 5.25 s of 4 + 3 = 7 s (75%), and
        // White's 2 of 2 s are 4 s of 4 + 2 = 6 s (66.7%).
        let with_increment = TimeControl {
            increment: 1.0,
            ..clock
        };
        s.add_game(false, &timed_game(Some(with_increment), 1.75, 2.0));
        // Untimed games add nothing.
        s.add_game(true, &timed_game(None, 1.0, 1.0));
        assert_eq!(s.clock_use.count, 4);
        let mean = (0.75 + 0.25 + 0.75 + 4.0 / 6.0) / 4.0;
        assert!((s.clock_use.mean().unwrap() - mean).abs() < 1e-9);
        assert!((s.clock_use.min - 0.25).abs() < 1e-9);
        assert_eq!(s.most_time_used, Some((5.25, 7.0)));
        let text = s.to_string();
        // Both sides had the same clock in every game: no odds to report.
        assert_eq!(s.time_odds, None);
        assert!(!text.contains("time odds"), "{text}");
        assert!(
            text.contains("clock used per side and game: mean 60.4%, min 25.0% (4 sides)"),
            "{text}"
        );
        // The time losses are counted against the right player.
        assert_eq!(s.faults.get(&("b".to_string(), "time")), Some(&2));
        assert_eq!(s.faults.get(&("a".to_string(), "time")), Some(&1));
    }

    #[test]
    fn untimed_matches_print_no_clock_line() {
        let mut s = MatchSummary::new("a", "b", None);
        s.add_game(true, &timed_game(None, 0.0, 0.0));
        assert_eq!(s.clock_use, ClockUse::default());
        assert!(!s.to_string().contains("clock used"));
    }
}
