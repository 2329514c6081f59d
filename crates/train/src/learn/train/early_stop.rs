//! Early stopping. Each conjugate gradient iteration fits the training positions more closely;
//! past some point the extra precision is noise, and the error on the held-out validation
//! positions rises again. Every `report_every` iterations (and at the last) the float model's
//! errors are logged and the weights with the lowest validation error so far are kept (the
//! latest ones without validation). The starting weights are judged too (iteration 0: zero, or
//! the prior's weights when fitting a correction to them), so a fit from a prior that the data
//! cannot improve on returns the prior. The iterations after the last check, when the method
//! converges between checks, are judged once more at the end.

use std::time::Instant;

use super::cg::{ConjugateGradient, NormalEquations};
use super::encode::Encoded;
use super::report::mae;

/// The weights a fit kept, and when.
pub(super) struct Fit {
    /// The kept weights, in discs.
    pub(super) weights: Vec<f64>,
    /// Iterations run.
    pub(super) iterations: usize,
    /// The iteration whose weights were kept.
    pub(super) best_iteration: usize,
}

/// How often to check, and how much to run at most.
pub(super) struct Schedule {
    /// Most iterations.
    pub(super) iterations: usize,
    /// Check every this many iterations (0 counts as 1).
    pub(super) report_every: usize,
}

/// Runs conjugate gradient on `system` for the iterations of `schedule`, checking the
/// errors on `train` and `validation` and logging them (with the time since `start`), and
/// returns the best weights found.
pub(super) fn fit(
    system: &NormalEquations,
    train: &Encoded,
    validation: &Encoded,
    schedule: &Schedule,
    start: Instant,
    log: &mut dyn FnMut(&str),
) -> Fit {
    // What the kept weights minimise: the validation error, or without validation 0 for
    // every set of weights, so that the latest one checked is kept.
    let score = |validation_mae: f64| {
        if validation.is_empty() {
            0.0
        } else {
            validation_mae
        }
    };
    let mut cg = ConjugateGradient::new(system);
    let mut best = Fit {
        weights: cg.weights().to_vec(),
        iterations: 0,
        best_iteration: 0,
    };
    let mut best_score = f64::INFINITY;
    if !validation.is_empty() {
        best_score = validation.mean_abs_error(cg.weights());
        log(&format!(
            "iteration    0: validation MAE {} discs",
            mae(best_score, 0)
        ));
    }
    for it in 1..=schedule.iterations {
        if !cg.step() {
            break;
        }
        best.iterations = it;
        if it % schedule.report_every.max(1) == 0 || it == schedule.iterations {
            let w = cg.weights();
            let validation_mae = validation.mean_abs_error(w);
            log(&format!(
                "iteration {it:>4}: train MAE {} discs, validation MAE {} discs, {:.1} s",
                mae(train.mean_abs_error(w), 0),
                mae(validation_mae, 0),
                start.elapsed().as_secs_f64()
            ));
            let s = score(validation_mae);
            if s <= best_score {
                best_score = s;
                best.weights.copy_from_slice(w);
                best.best_iteration = it;
            }
        }
    }
    // The iterations after the last check (the method may converge between checks).
    if best.best_iteration != best.iterations {
        let latest = score(validation.mean_abs_error(cg.weights()));
        if latest <= best_score {
            best.weights.copy_from_slice(cg.weights());
            best.best_iteration = best.iterations;
        }
    }
    best
}
