//! Evaluator error on labelled data (`othello eval-error`): how far each evaluator's static
//! value is from the labels of a self-play data set, by band of empty squares.
//!
//! The positions measured are the trainer's validation games (the same hash split, see
//! [`super::train::is_validation`]), so weights are never scored on positions they were fitted
//! to, and every evaluator is scored on the very same labels.
//!
//! Two errors are reported per evaluator and band:
//! - the **mean absolute error** of its value in discs (centi-discs / 100) against the label;
//! - the same error after the best **least-squares scale** `a · value` is applied, with `a`
//!   fitted on the band itself. An evaluator whose unit is not a disc (the hand-tuned one
//!   counts mobility and stability in its own units) is then compared on its ranking power,
//!   not on its calibration. The fitted `a` is printed too.

use std::io::Write;

use crate::eval::{EngineEval, Evaluator};

use super::train::{is_validation, Sample};
use super::LearnError;

/// The error of one evaluator on one band of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BandError {
    /// Positions in the band.
    pub count: usize,
    /// Mean absolute error in discs.
    pub mae: f64,
    /// The least-squares scale `a` minimising `Σ (a·v − label)²`.
    pub scale: f64,
    /// Mean absolute error in discs of `a·v`.
    pub scaled_mae: f64,
}

/// The error of `eval` on the samples whose empty count is in `min..=max` (NaN fields when
/// there are none).
pub fn band_error(eval: &EngineEval, samples: &[Sample], min: u32, max: u32) -> BandError {
    let pairs: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| (min..=max).contains(&s.board.empty_count()))
        .map(|s| (eval.evaluate(&s.board) as f64 / 100.0, s.label))
        .collect();
    let n = pairs.len();
    let mean_abs = |a: f64| pairs.iter().map(|&(v, l)| (a * v - l).abs()).sum::<f64>() / n as f64;
    let (vv, vl) = pairs
        .iter()
        .fold((0.0, 0.0), |(vv, vl), &(v, l)| (vv + v * v, vl + v * l));
    let scale = if vv > 0.0 { vl / vv } else { 0.0 };
    BandError {
        count: n,
        mae: mean_abs(1.0),
        scale,
        scaled_mae: mean_abs(scale),
    }
}

/// The bands reported: every 10 empties, plus the 30-40 band the issue asks about.
pub const BANDS: [(u32, u32); 7] = [
    (0, 9),
    (10, 19),
    (20, 29),
    (30, 40),
    (41, 50),
    (51, 60),
    (0, 60),
];

/// `othello eval-error`: the validation games of `samples` (split by `seed` and `fraction`)
/// scored by each named evaluator, one table row per band.
pub fn report(
    evals: &[(String, EngineEval)],
    samples: &[Sample],
    seed: u64,
    fraction: f64,
    out: &mut dyn Write,
) -> Result<(), LearnError> {
    if !(fraction > 0.0 && fraction <= 1.0) {
        return Err(LearnError::Config(
            "validation must be above 0 and at most 1".into(),
        ));
    }
    let held_out: Vec<Sample> = samples
        .iter()
        .filter(|s| is_validation(s.group, seed, fraction))
        .copied()
        .collect();
    let io = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    writeln!(
        out,
        "{} validation positions of {} (fraction {fraction}, seed {seed})",
        held_out.len(),
        samples.len()
    )
    .map_err(io)?;
    writeln!(
        out,
        "{:<24} {:>7} {:>9} {:>9} {:>7} {:>10}",
        "evaluator", "empties", "positions", "MAE", "scale", "scaled MAE"
    )
    .map_err(io)?;
    for (name, eval) in evals {
        for &(min, max) in &BANDS {
            let e = band_error(eval, &held_out, min, max);
            writeln!(
                out,
                "{:<24} {:>7} {:>9} {:>9.3} {:>7.3} {:>10.3}",
                name,
                format!("{min}-{max}"),
                e.count,
                e.mae,
                e.scale,
                e.scaled_mae
            )
            .map_err(io)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::HandEval;

    #[test]
    fn scale_and_errors_are_least_squares_and_absolute() {
        let eval = EngineEval::Hand(HandEval::new());
        let board = Board::start();
        let v = eval.evaluate(&board) as f64 / 100.0;
        let samples: Vec<Sample> = [v + 1.0, v - 3.0]
            .iter()
            .map(|&label| Sample {
                board,
                label,
                group: 0,
            })
            .collect();
        let e = band_error(&eval, &samples, 60, 60);
        assert_eq!(e.count, 2);
        assert!((e.mae - 2.0).abs() < 1e-9, "{e:?}");
        if v != 0.0 {
            assert!((e.scale - (v - 1.0) / v).abs() < 1e-9, "{e:?}");
        }
        let none = band_error(&eval, &samples, 0, 10);
        assert_eq!(none.count, 0);
        assert!(none.mae.is_nan());
    }
}
