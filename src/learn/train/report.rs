//! The training report as text: one line per phase, then the totals (what `othello train`
//! prints), and the mean errors as a person reads them (`-`, never NaN, where there were no
//! positions, as when no game was held out for validation).

use super::TrainReport;

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
