//! The trainer's inputs: its settings are checked, then the samples are split into training
//! and validation sets by whole games. A game (a sample group) goes to the validation set when
//! a hash of its index and the seed falls below the validation fraction, so that no
//! near-duplicate of a validation position (the same game a ply earlier or later) is trained on,
//! and the split does not depend on the order of the samples.

use crate::eval::pattern::MAX_PHASES;
use crate::learn::LearnError;
use crate::rng::mix;

use super::{Sample, TrainConfig};

/// The samples of a run, split by game.
pub(super) struct Split<'a> {
    /// The positions the weights are fitted to.
    pub(super) train: Vec<&'a Sample>,
    /// The held-out positions that measure the fit (empty without validation).
    pub(super) validation: Vec<&'a Sample>,
}

/// Refuses settings the trainer cannot run with.
pub(super) fn check_config(config: &TrainConfig) -> Result<(), LearnError> {
    if !(1..=MAX_PHASES).contains(&config.phases) {
        return Err(LearnError::Config(format!(
            "phases must be 1 to {MAX_PHASES}"
        )));
    }
    if !(0.0..=0.9).contains(&config.validation) {
        return Err(LearnError::Config("validation must be 0 to 0.9".into()));
    }
    if config.lambda < 0.0 || config.smooth < 0.0 || !(config.lambda + config.smooth).is_finite() {
        return Err(LearnError::Config("lambda and smooth must be >= 0".into()));
    }
    if let Some(prior) = &config.prior {
        if prior.phases() != config.phases {
            return Err(LearnError::Config(format!(
                "the prior has {} phases, the fit {}",
                prior.phases(),
                config.phases
            )));
        }
    }
    Ok(())
}

/// Whether a sample's group goes to the validation set.
pub fn is_validation(group: u32, seed: u64, fraction: f64) -> bool {
    (mix(seed, group as u64) >> 11) as f64 / (1u64 << 53) as f64 <= fraction && fraction > 0.0
}

/// `samples` split by [`is_validation`] with the run's seed and fraction, each set in the
/// samples' order; an error when no sample is left to train on.
pub(super) fn split<'a>(
    samples: &'a [Sample],
    config: &TrainConfig,
) -> Result<Split<'a>, LearnError> {
    let (validation, train): (Vec<&Sample>, Vec<&Sample>) = samples
        .iter()
        .partition(|s| is_validation(s.group, config.seed, config.validation));
    if train.is_empty() {
        return Err(LearnError::Config("no training samples".into()));
    }
    Ok(Split { train, validation })
}
