//! The training report. The quantised evaluator (exactly what the engine will compute) is
//! measured on the training and validation positions, phase by phase ([`phase_errors`]); the
//! report is printed as text, one line per phase, then the totals (what `othello train`
//! prints), with the mean errors as a person reads them (`-`, never NaN, where there were no
//! positions, as when no game was held out for validation); and a summary of the run goes
//! into the weight file's metadata.

use crate::discs::CentiDiscs;
use crate::eval::pattern::{phase_empties, PatternEval};
use crate::eval::Evaluator;

use super::split::Split;
use super::{PhaseStat, Sample, TrainConfig, TrainReport};

/// Per-phase (count, mean absolute error in discs) of an evaluator on samples, using
/// [`Evaluator::evaluate`] (rounded to centi-discs and clamped, as in the engine).
pub fn phase_errors<'a>(
    eval: &PatternEval,
    samples: impl IntoIterator<Item = &'a Sample>,
) -> Vec<(usize, f64)> {
    let mut acc = vec![(0usize, 0f64); eval.phases()];
    for s in samples {
        let p = eval.phase(s.board.empty_count());
        let v = CentiDiscs::from(eval.evaluate(&s.board)).to_discs();
        acc[p].0 += 1;
        acc[p].1 += (v - s.label).abs();
    }
    acc.into_iter()
        .map(|(n, sum)| (n, if n == 0 { f64::NAN } else { sum / n as f64 }))
        .collect()
}

/// The report of a run that kept `best_iteration` of `iterations`: the errors of `eval` (the
/// quantised weights) on the positions of `split`.
pub(super) fn measure(
    eval: &PatternEval,
    split: &Split,
    iterations: usize,
    best_iteration: usize,
) -> TrainReport {
    let phases = eval.phases();
    let (tr, val) = (&split.train, &split.validation);
    let train_err = phase_errors(eval, tr.iter().copied());
    let val_err = phase_errors(eval, val.iter().copied());
    let stats: Vec<PhaseStat> = (0..phases)
        .map(|p| PhaseStat {
            phase: p,
            empties: phase_empties(p, phases),
            train_count: train_err[p].0,
            val_count: val_err[p].0,
            train_mae: train_err[p].1,
            val_mae: val_err[p].1,
        })
        .collect();
    TrainReport {
        train_count: tr.len(),
        val_count: val.len(),
        iterations,
        best_iteration,
        train_mae: overall(&train_err),
        val_mae: overall(&val_err),
        val_mae_zero: if val.is_empty() {
            f64::NAN
        } else {
            val.iter().map(|s| s.label.abs()).sum::<f64>() / val.len() as f64
        },
        phases: stats,
    }
}

/// The mean absolute error over every phase of per-phase (count, error) pairs (NaN without
/// positions).
fn overall(errors: &[(usize, f64)]) -> f64 {
    let total: usize = errors.iter().map(|x| x.0).sum();
    if total == 0 {
        return f64::NAN;
    }
    errors
        .iter()
        .filter(|x| x.0 > 0)
        .map(|x| x.1 * x.0 as f64)
        .sum::<f64>()
        / total as f64
}

/// The weight file's metadata: the run's description, then a line summing up the run and its
/// result, cut to the file's limit.
pub(super) fn weight_file_meta(config: &TrainConfig, report: &TrainReport) -> String {
    let mut meta = config.description.clone();
    if !meta.is_empty() {
        meta.push('\n');
    }
    meta.push_str(&format!(
        "trained on {} positions ({} validation); phases {}; lambda {}; smooth {}; \
         iterations {} (kept {}); train MAE {} discs; validation MAE {} discs",
        report.train_count,
        report.val_count,
        config.phases,
        config.lambda,
        config.smooth,
        report.iterations,
        report.best_iteration,
        mae(report.train_mae, 0),
        mae(report.val_mae, 0)
    ));
    if let Some(prior) = &config.prior {
        let first = prior.meta().lines().next().unwrap_or("");
        let first: String = first.chars().take(200).collect();
        meta.push_str(&format!(
            "; fitted as a correction to prior weights ({first})"
        ));
    }
    // Cut to the file's limit, on a character boundary.
    let mut end = meta.len().min(crate::eval::pattern::file::MAX_META_LEN);
    while !meta.is_char_boundary(end) {
        end -= 1;
    }
    meta.truncate(end);
    meta
}

/// A mean absolute error for a person, right-aligned in `width`: three decimals, or `-` when
/// there were no positions to measure (the error is NaN then, which no report should show).
pub(super) fn mae(x: f64, width: usize) -> String {
    if x.is_nan() {
        format!("{:>width$}", "-")
    } else {
        format!("{x:>width$.3}")
    }
}

/// The report as a table: one line per phase, then the totals.
pub fn format_report(report: &TrainReport) -> String {
    let mut s = String::from("phase  empties  train_n    val_n  train_MAE  val_MAE (discs)\n");
    for p in &report.phases {
        s.push_str(&format!(
            "{:>5}  {:>2}-{:<2}   {:>8} {:>8}  {}  {}\n",
            p.phase,
            p.empties.0,
            p.empties.1,
            p.train_count,
            p.val_count,
            mae(p.train_mae, 9),
            mae(p.val_mae, 7)
        ));
    }
    s.push_str(&format!(
        "all             {:>8} {:>8}  {}  {}  (predicting 0: {}; kept iteration {} of {})\n",
        report.train_count,
        report.val_count,
        mae(report.train_mae, 9),
        mae(report.val_mae, 7),
        mae(report.val_mae_zero, 0),
        report.best_iteration,
        report.iterations
    ));
    s
}
