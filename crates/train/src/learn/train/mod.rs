//! The trainer (`othello train`): regularised least squares over all phases at once, solved by
//! preconditioned conjugate gradient.
//!
//! # Model
//!
//! A position `x` in phase `p` is valued `Σ_f w[p][f]` over its 49 compact features
//! ([`features`](crate::eval::pattern::features): 46 pattern placements, two mobility buckets, one parity bucket), in discs.
//! The weights minimise
//!
//! ```text
//!   Σ_samples (value(x) − label)²  +  λ Σ_{p,f} w[p][f]²  +  μ Σ_{p,f} (w[p][f] − w[p+1][f])²
//! ```
//!
//! - the data term is ordinary least squares on the labels (in discs);
//! - `λ` (`--lambda`) is L2 regularisation: a weight seen in few positions stays near zero
//!   instead of absorbing their noise (the penalty is the same for every weight, so it weighs
//!   most on rare pattern configurations, whose data term is small); weights never seen stay 0
//!   unless the smoothing term lends them a neighbour's value;
//! - `μ` (`--smooth`) is phase smoothing: each weight is pulled towards the same weight in the
//!   neighbouring phases, which lets sparse phases borrow from dense ones.
//!
//! # Fitting from a prior
//!
//! With a prior evaluator `w⁰` (`--prior`, [`TrainConfig::prior`]) both penalties apply to the
//! correction `w − w⁰` instead of to `w`: the trainer fits the correction to the residual labels
//! `label − value⁰(x)`, and adds the prior's weights back before rounding. A weight the data says
//! little about stays at the prior's value rather than at 0, so a small set of better labels
//! (deeper searches of fewer positions) can refine weights fitted to a large set of shallower
//! ones without forgetting what only the large set covers. Phases without data keep the prior.
//!
//! The objective is quadratic, so its minimum solves a linear system, the normal equations,
//! which the trainer solves by preconditioned conjugate gradient without ever forming their
//! matrix (`cg.rs`). Logistello's and Edax's weights were fitted the same way.
//!
//! # Validation
//!
//! Whole games go to the validation set (chosen by a hash of the game index and `--seed`), so no
//! near-duplicate of a validation position is trained on. Every `report_every` iterations the
//! validation mean absolute error is measured and the best weights so far are kept (early
//! stopping). The final report gives, per phase, the mean absolute error in discs of the
//! quantised evaluator (exactly what the engine will compute) on the training and validation
//! positions.
//!
//! # Steps
//!
//! [`train`] runs them in order, one file each:
//!
//! 1. `split.rs`: check the settings, and hold out the validation games;
//! 2. `encode.rs`: turn each position into the indices of the weights it sums;
//! 3. `cg.rs`: set up the normal equations and the conjugate gradient method on them;
//! 4. `early_stop.rs`: iterate, measuring the validation error now and then, and keep the best
//!    weights;
//! 5. `quantise.rs`: give phases without data their nearest neighbour's weights, and round
//!    every weight to the weight file's `i16` units;
//! 6. `report.rs`: measure the quantised evaluator phase by phase, and sum the run up in the
//!    weight file's metadata.
//!
//! Before that, `samples.rs` reads the data files into [`Sample`]s ([`load_samples`]), with
//! the optional treatments of their labels.

use std::time::Instant;

use crate::board::Board;
use crate::eval::pattern::{PatternEval, FEATURES_PER_PHASE, WEIGHT_SCALE};
use crate::weights::PatternFile;

use super::LearnError;

mod cg;
mod early_stop;
mod encode;
mod quantise;
mod report;
mod samples;
mod split;

use cg::NormalEquations;
use encode::Encoded;
pub use report::{format_report, phase_errors};
pub use samples::{
    debias_search_labels, load_samples, merge_duplicates, mix_game_results, samples_from_records,
};
pub use split::is_validation;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position (side to move's view).
    pub board: Board,
    /// Its value for the side to move, in discs.
    pub label: f64,
    /// The group it belongs to (its game): groups are never split between training and
    /// validation.
    pub group: u32,
}

/// The trainer's settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Number of phases (1..=61).
    pub phases: usize,
    /// Maximum conjugate-gradient iterations.
    pub iterations: usize,
    /// L2 regularisation `λ`.
    pub lambda: f64,
    /// Phase smoothing `μ`.
    pub smooth: f64,
    /// Fraction of games held out for validation (0 to 0.9).
    pub validation: f64,
    /// Threads for the passes over the data.
    pub threads: usize,
    /// Seed of the validation split.
    pub seed: u64,
    /// Measure the validation error (and log progress) every this many iterations.
    pub report_every: usize,
    /// Text stored in the weight file's metadata, before the training summary.
    pub description: String,
    /// Merge positions equal under symmetry before training ([`merge_duplicates`]).
    pub dedup: bool,
    /// Blend each search label with its game's result by this weight ([`mix_game_results`]);
    /// 0 leaves the labels as they are.
    pub result_mix: f64,
    /// Remove the mean offset of the search labels from the game results, per number of
    /// empties ([`debias_search_labels`]).
    pub debias: bool,
    /// Fit the correction to these weights (see [Fitting from a prior](self#fitting-from-a-prior));
    /// `None` fits from zero. Its phase count must equal `phases`.
    pub prior: Option<std::sync::Arc<PatternEval>>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            phases: crate::eval::pattern::DEFAULT_PHASES,
            iterations: 200,
            lambda: 1.0,
            smooth: 2.0,
            validation: 0.1,
            threads: super::selfplay::default_threads(),
            seed: 1,
            report_every: 10,
            description: String::new(),
            dedup: false,
            result_mix: 0.0,
            debias: false,
            prior: None,
        }
    }
}

/// Errors of one phase.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseStat {
    /// The phase.
    pub phase: usize,
    /// The empty-square counts it covers (high, low).
    pub empties: (u32, u32),
    /// Training positions in the phase.
    pub train_count: usize,
    /// Validation positions in the phase.
    pub val_count: usize,
    /// Mean absolute error on the training positions, in discs (NaN when none).
    pub train_mae: f64,
    /// Mean absolute error on the validation positions, in discs (NaN when none).
    pub val_mae: f64,
}

/// What the trainer did and how well the result fits.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Training positions.
    pub train_count: usize,
    /// Validation positions.
    pub val_count: usize,
    /// Iterations run.
    pub iterations: usize,
    /// The iteration whose weights were kept.
    pub best_iteration: usize,
    /// Per-phase errors of the quantised evaluator.
    pub phases: Vec<PhaseStat>,
    /// Overall training mean absolute error (quantised evaluator), in discs.
    pub train_mae: f64,
    /// Overall validation mean absolute error (quantised evaluator), in discs (NaN when none).
    pub val_mae: f64,
    /// Validation mean absolute error of always predicting 0, in discs (a baseline).
    pub val_mae_zero: f64,
}

/// Fits a [`PatternEval`] to `samples` (see the module documentation), reporting progress
/// lines to `log`.
pub fn train(
    samples: &[Sample],
    config: &TrainConfig,
    log: &mut dyn FnMut(&str),
) -> Result<(PatternEval, TrainReport), LearnError> {
    // The inputs: the settings checked, the validation games held out.
    split::check_config(config)?;
    let sets = split::split(samples, config)?;
    let start = Instant::now();
    // The samples as weight indices, with the prior's value taken off their labels.
    let phases = config.phases;
    let prior = config.prior.as_deref();
    let train_set = Encoded::new(&sets.train, phases, prior);
    let validation_set = Encoded::new(&sets.validation, phases, prior);
    log(&format!(
        "{} training and {} validation positions, {} phases, {} weights",
        train_set.len(),
        validation_set.len(),
        phases,
        phases * FEATURES_PER_PHASE
    ));
    // The fit: conjugate gradient on the normal equations, with early stopping.
    let system = NormalEquations::new(
        &train_set,
        phases,
        config.lambda,
        config.smooth,
        config.threads,
    )?;
    let schedule = early_stop::Schedule {
        iterations: config.iterations,
        report_every: config.report_every,
    };
    let mut fit = early_stop::fit(&system, &train_set, &validation_set, &schedule, start, log);
    // The weight file's weights.
    match prior {
        Some(prior) => add_prior(&mut fit.weights, prior),
        None => quantise::fill_empty_phases(&mut fit.weights, &sets.train, phases, log),
    }
    let quantised = quantise::quantise(&fit.weights, log);
    // The report, measured on the engine's evaluator, and the metadata.
    let provisional = PatternEval::from_compact(phases, quantised.clone(), String::new())?;
    let report = report::measure(&provisional, &sets, fit.iterations, fit.best_iteration);
    let meta = report::weight_file_meta(config, &report);
    let eval = PatternEval::from_compact(phases, quantised, meta)?;
    Ok((eval, report))
}

/// Adds the `prior`'s weights (in discs) to the fitted correction `w`.
fn add_prior(w: &mut [f64], prior: &PatternEval) {
    for (x, &p) in w.iter_mut().zip(prior.compact_weights()) {
        *x += p as f64 / WEIGHT_SCALE as f64;
    }
}

/// `othello train`: reads the data files, trains, writes the weight file to `out_path`, and
/// prints progress and the per-phase report to `out`.
pub fn train_files(
    paths: &[std::path::PathBuf],
    config: &TrainConfig,
    out_path: &std::path::Path,
    out: &mut dyn std::io::Write,
) -> Result<TrainReport, LearnError> {
    let (samples, names) =
        load_samples(paths, config.dedup, config.result_mix, config.debias, out)?;
    let mut config = config.clone();
    if config.description.is_empty() {
        config.description = format!("data: {}", names.join(", "));
    }
    let mut io_error = None;
    let (eval, report) = train(&samples, &config, &mut |line| {
        if let Err(e) = writeln!(out, "{line}") {
            io_error.get_or_insert(e);
        }
    })?;
    let write = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    if let Some(e) = io_error {
        return Err(write(e));
    }
    eval.save(out_path)?;
    write!(out, "{}", format_report(&report)).map_err(write)?;
    writeln!(
        out,
        "wrote {} ({} bytes)",
        out_path.display(),
        eval.to_bytes().len()
    )
    .map_err(write)?;
    Ok(report)
}
