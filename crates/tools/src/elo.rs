//! The logistic Elo model: an expected score per game and an Elo difference, each from the
//! other (`Elo = -400 log10(1/s - 1)`; 75% is +190.8). Shared by the match statistics
//! ([`crate::arena::stats`]) and the audit's perfect-play scores ([`crate::review::audit`]).

/// Elo difference for an expected score `s` (logistic model). `±inf` at 1 and 0.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}
