//! Match statistics: Elo difference with a 95% confidence interval, and the SPRT, both from
//! the **pentanomial** model of game pairs.
//!
//! Games are played in pairs (one opening, colours swapped), and the two games of a pair are
//! not independent: the opening favours one colour. Treating the games as independent
//! (trinomial win/draw/loss) overstates the variance when openings are unbalanced, so, as
//! fishtest does, each *pair* is the unit: A's points in the pair are 0, ½, 1, 1½ or 2, five
//! outcomes (the pentanomial distribution). Writing `x` for the pair's score per game (0, ¼, ½,
//! ¾ or 1) and `n` for the number of pairs:
//!
//! - score `s = mean(x)`; its standard error `sqrt(var(x) / n)` with `var` the population
//!   variance of the pair scores (this is exactly the per-pair-score method);
//! - Elo `= -400 log10(1/s - 1)` (the logistic model: 75% is +190.8);
//! - the 95% interval is `s ± 1.959964 se`, each end mapped through the same formula (a bound
//!   at 0% or 100% is infinite). When every pair scored the same (`var(x) = 0`: a 10-0
//!   sweep, say), that interval would have no width; it is then Wilson's score interval for
//!   `n` pairs instead, which assumes the largest variance a mean `s` allows, so a sweep of 5
//!   pairs has the finite lower bound `n / (n + 1.96²)` (+46 Elo) and an infinite upper one.
//!
//! The SPRT (`--sprt elo0,elo1`) tests H0: Elo = elo0 against H1: Elo = elo1 with the
//! generalised SPRT of fishtest (M. Van den Bergh, "A pentanomial model for the SPRT"): the
//! log-likelihood ratio is `n Σ p_k ln(q1_k / q0_k)` where `p` is the observed pentanomial
//! frequency (zero counts replaced by 1e-3, fishtest's regularisation) and `q0`, `q1` are the
//! distributions closest to `p` (maximum likelihood) whose mean score is that of elo0 and elo1.
//! It stops when the LLR leaves `(ln(β/(1-α)), ln((1-β)/α))`: below, H0 is accepted; above, H1.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub use crate::elo::{elo_from_score, score_from_elo};

/// The 97.5% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Pair scores per game for the five pentanomial outcomes.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What replaces a zero pentanomial count in the SPRT (fishtest's choice).
const REGULARIZATION: f64 = 1e-3;

/// An Elo estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The score per game, 0..=1.
    pub score: f64,
    /// The standard error of the score.
    pub score_error: f64,
    /// The Elo difference.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub lower: f64,
    /// The upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval's width, as usually quoted (`+elo ± margin`); infinite if either end
    /// is.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Counts of game pairs by A's points in the pair: `counts[k]` pairs gave A `k/2` points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs with 0, ½, 1, 1½ and 2 points for A.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair in which A scored `half_points / 2` points (0..=4 half points).
    ///
    /// # Panics
    /// If `half_points > 4`.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The observed frequencies (all zero when there are no pairs).
    fn frequencies(&self) -> [f64; 5] {
        let n = self.pairs().max(1) as f64;
        self.counts.map(|c| c as f64 / n)
    }

    /// The mean pair score per game and its population variance.
    pub fn mean_and_variance(&self) -> (f64, f64) {
        let p = self.frequencies();
        let mean: f64 = (0..5).map(|k| p[k] * PAIR_SCORES[k]).sum();
        let var: f64 = (0..5).map(|k| p[k] * (PAIR_SCORES[k] - mean).powi(2)).sum();
        (mean, var)
    }

    /// The Elo estimate and its 95% interval, or `None` with no pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let (score, var) = self.mean_and_variance();
        let se = (var / n as f64).sqrt();
        let (low, high) = if var == 0.0 {
            wilson(score, n as f64)
        } else {
            (score - Z_95 * se, score + Z_95 * se)
        };
        Some(EloEstimate {
            score,
            score_error: se,
            elo: elo_from_score(score),
            lower: elo_from_score(low),
            upper: elo_from_score(high),
        })
    }

    /// The SPRT log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let regularized = self
            .counts
            .map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
        let total: f64 = regularized.iter().sum();
        let p = regularized.map(|c| c / total);
        llr_from_frequencies(total, &p, score_from_elo(elo0), score_from_elo(elo1))
    }
}

/// Wilson's 95% score interval for a mean score `s` over `n` observations in 0..=1 (with the
/// binomial variance `s (1 - s)`, the largest such a mean allows).
fn wilson(s: f64, n: f64) -> (f64, f64) {
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n;
    let centre = (s + z2 / (2.0 * n)) / denominator;
    let half = Z_95 / denominator * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The GSPRT log-likelihood ratio for `n` observations with frequencies `p` over
/// [`PAIR_SCORES`], between the mean-constrained maximum-likelihood distributions of means `s0`
/// and `s1`.
pub fn llr_from_frequencies(n: f64, p: &[f64; 5], s0: f64, s1: f64) -> f64 {
    let q0 = constrained_mle(p, s0);
    let q1 = constrained_mle(p, s1);
    n * (0..5)
        .filter(|&k| p[k] > 0.0)
        .map(|k| p[k] * (q1[k] / q0[k]).ln())
        .sum::<f64>()
}

/// The distribution `q` maximising `Σ p_k ln q_k` subject to `Σ q_k x_k = s`:
/// `q_k = p_k / (1 + λ (x_k - s))` with `λ` found by bisection (the constraint is decreasing
/// in `λ`). Requires `s` strictly inside the range of the observed outcomes.
fn constrained_mle(p: &[f64; 5], s: f64) -> [f64; 5] {
    let d = PAIR_SCORES.map(|x| x - s);
    // 1 + λ d_k > 0 for every observed outcome bounds λ on both sides.
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for k in 0..5 {
        if p[k] > 0.0 && d[k] > 0.0 {
            lo = lo.max(-1.0 / d[k]);
        } else if p[k] > 0.0 && d[k] < 0.0 {
            hi = hi.min(-1.0 / d[k]);
        }
    }
    if !lo.is_finite() || !hi.is_finite() {
        return *p; // s outside the observed range: no finite solution; no information.
    }
    let f = |lambda: f64| -> f64 {
        (0..5)
            .filter(|&k| p[k] > 0.0)
            .map(|k| p[k] * d[k] / (1.0 + lambda * d[k]))
            .sum()
    };
    let (mut a, mut b) = (lo, hi);
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        if f(mid) > 0.0 {
            a = mid;
        } else {
            b = mid;
        }
    }
    let lambda = 0.5 * (a + b);
    let q = [0, 1, 2, 3, 4].map(|k| {
        if p[k] > 0.0 {
            p[k] / (1.0 + lambda * d[k])
        } else {
            0.0
        }
    });
    let total: f64 = q.iter().sum();
    q.map(|x| x / total)
}

/// An SPRT: hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// The false positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted (A is not `elo1` stronger).
    AcceptH0,
    /// H1 accepted.
    AcceptH1,
}

/// The SPRT's state after some pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound, `ln(β / (1 - α))`.
    pub lower: f64,
    /// The upper bound, `ln((1 - β) / α)`.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Sprt {
    /// The test of `elo0` against `elo1` with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The test's state for the pairs in `pent`.
    pub fn state(&self, pent: &Pentanomial) -> SprtState {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let llr = pent.llr(self.elo0, self.elo1);
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// Why an SPRT spec could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad SPRT {0:?}: expected elo0,elo1 with elo0 < elo1, e.g. 0,10")]
pub struct SprtSpecError(pub String);

impl FromStr for Sprt {
    type Err = SprtSpecError;

    /// `elo0,elo1`, with α = β = 0.05.
    fn from_str(s: &str) -> Result<Sprt, SprtSpecError> {
        let bad = || SprtSpecError(s.to_string());
        let (a, b) = s.split_once(',').ok_or_else(bad)?;
        let (elo0, elo1) = (
            a.trim().parse::<f64>().map_err(|_| bad())?,
            b.trim().parse::<f64>().map_err(|_| bad())?,
        );
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && elo0.abs() < 2000.0)
            || elo1.abs() >= 2000.0
        {
            return Err(bad());
        }
        Ok(Sprt::new(elo0, elo1))
    }
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.64), 99.95, 0.01));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        for elo in [-300.0, -50.0, 0.0, 12.5, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn confidence_interval_matches_a_hand_computation() {
        // 20 pairs: 1 lost both, 2 scored 1/2, 3 scored 1, 6 scored 1 1/2, 8 won both.
        let pent = Pentanomial {
            counts: [1, 2, 3, 6, 8],
        };
        // By hand: mean = (0.5 + 1.5 + 4.5 + 8) / 20 = 0.725;
        // var = (0.525625 + 2 * 0.225625 + 3 * 0.050625 + 6 * 0.000625 + 8 * 0.075625) / 20
        //     = 1.7375 / 20 = 0.086875;
        // se = sqrt(0.086875 / 20) = 0.0659071;  1.959964 se = 0.1291756;
        // Elo(0.725) = 168.40, Elo(0.5958244) = 67.42, Elo(0.8541756) = 307.09.
        let (mean, var) = pent.mean_and_variance();
        assert!(close(mean, 0.725, 1e-12));
        assert!(close(var, 0.086875, 1e-12));
        let e = pent.elo().unwrap();
        assert!(close(e.score_error, 0.065_907_1, 1e-6));
        assert!(close(e.elo, 168.40, 0.01), "{e:?}");
        assert!(close(e.lower, 67.42, 0.01), "{e:?}");
        assert!(close(e.upper, 307.09, 0.01), "{e:?}");
        // A 75% score (every pair 1 1/2) is +190.8; with no spread in the pairs, the interval
        // is Wilson's (not one of no width).
        let even = Pentanomial {
            counts: [0, 0, 0, 10, 0],
        };
        let e = even.elo().unwrap();
        assert!(close(e.elo, 190.85, 0.01));
        assert!(e.lower < e.elo - 50.0 && e.upper > e.elo + 50.0, "{e:?}");
        assert_eq!(Pentanomial::default().elo(), None);
    }

    /// A sweep (10-0 over 5 pairs) is +inf Elo, but its 95% interval has a finite lower end:
    /// Wilson's `n / (n + z²)` = 5 / 8.8415 = 0.56551, +45.8 Elo; and a 0-10 loss mirrors it.
    #[test]
    fn a_sweep_has_a_finite_lower_bound() {
        let sweep = Pentanomial {
            counts: [0, 0, 0, 0, 5],
        };
        let e = sweep.elo().unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert!(
            close(e.lower, elo_from_score(5.0 / (5.0 + Z_95 * Z_95)), 1e-9),
            "{e:?}"
        );
        assert!(close(e.lower, 45.8, 0.1), "{e:?}");
        assert_eq!(e.upper, f64::INFINITY);
        let lost = Pentanomial {
            counts: [5, 0, 0, 0, 0],
        };
        let e = lost.elo().unwrap();
        assert_eq!(e.lower, f64::NEG_INFINITY);
        assert!(close(e.upper, -45.8, 0.1), "{e:?}");
    }

    #[test]
    fn llr_matches_the_closed_form_on_two_outcomes() {
        // Only pair scores 1/4 and 3/4 observed (4 and 16 times): the constrained MLE with mean
        // s puts (s - 1/4) / (1/2) on 3/4, the rest on 1/4.
        let p = [0.0, 0.2, 0.0, 0.8, 0.0];
        let (s0, s1) = (0.5, score_from_elo(50.0));
        let q = |s: f64| ((0.75 - s) / 0.5, (s - 0.25) / 0.5);
        let (a0, b0) = q(s0);
        let (a1, b1) = q(s1);
        let want = 4.0 * (a1 / a0).ln() + 16.0 * (b1 / b0).ln();
        let got = llr_from_frequencies(20.0, &p, s0, s1);
        assert!(close(got, want, 1e-9), "{got} {want}");
        assert!(close(want, 2.676, 1e-3), "{want}");
    }

    #[test]
    fn sprt_decides_both_ways_and_not_too_early() {
        let sprt = Sprt::new(0.0, 50.0);
        // One pair won twice is not enough evidence.
        let one = Pentanomial {
            counts: [0, 0, 0, 0, 1],
        };
        assert_eq!(sprt.state(&one).decision, SprtDecision::Continue);
        let strong = Pentanomial {
            counts: [2, 5, 20, 30, 25],
        };
        let s = sprt.state(&strong);
        assert_eq!(s.decision, SprtDecision::AcceptH1, "{s:?}");
        let weak = Pentanomial {
            counts: [25, 30, 20, 5, 2],
        };
        assert_eq!(sprt.state(&weak).decision, SprtDecision::AcceptH0);
        assert!(close(s.upper, (0.95f64 / 0.05).ln(), 1e-12));
        assert!(close(s.lower, -s.upper, 1e-12));
    }

    #[test]
    fn sprt_specs_parse() {
        assert_eq!("0,10".parse::<Sprt>(), Ok(Sprt::new(0.0, 10.0)));
        assert_eq!(" -5 , 5 ".parse::<Sprt>(), Ok(Sprt::new(-5.0, 5.0)));
        for bad in ["", "5", "10,0", "a,b", "0,inf", "0,NaN"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
