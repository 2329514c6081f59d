//! The samples encoded for the solver. Each position becomes the indices of the 49 weights it
//! sums ([`features`]: 46 pattern placements, two mobility buckets, one parity bucket), stored
//! compactly as each slot's local index in 16 bits, with its phase and its label. The global
//! index of a weight is `phase · FEATURES_PER_PHASE + slot base + local index`; every pass of
//! the solver reads the samples in this form instead of extracting the features again.

use crate::eval::pattern::{
    feature_slot_base, features, phase_of, PatternEval, FEATURES_PER_PHASE, FEATURE_SLOTS,
    WEIGHT_SCALE,
};

use super::Sample;

/// Samples as weight indices, phases and labels (in discs).
pub(super) struct Encoded {
    /// Each sample's feature in each slot, relative to the slot's base.
    feats: Vec<[u16; FEATURE_SLOTS]>,
    /// Each sample's phase.
    phase: Vec<u8>,
    /// Each sample's label.
    label: Vec<f64>,
    /// The first index of each slot's features within a phase.
    base: [usize; FEATURE_SLOTS],
}

impl Encoded {
    /// `samples` encoded for a model of `phases` phases, each label less the `prior`'s value
    /// of its position (in discs) when there is a prior.
    pub(super) fn new(samples: &[&Sample], phases: usize, prior: Option<&PatternEval>) -> Encoded {
        let mut base = [0usize; FEATURE_SLOTS];
        for (k, b) in base.iter_mut().enumerate() {
            *b = feature_slot_base(k);
        }
        let mut feats = Vec::with_capacity(samples.len());
        let mut phase = Vec::with_capacity(samples.len());
        let mut label = Vec::with_capacity(samples.len());
        for s in samples {
            let f = features(&s.board);
            let mut local = [0u16; FEATURE_SLOTS];
            for k in 0..FEATURE_SLOTS {
                local[k] = (f[k] as usize - base[k]) as u16;
            }
            feats.push(local);
            phase.push(phase_of(s.board.empty_count(), phases) as u8);
            let base_value = prior.map_or(0.0, |prior| {
                prior.score_units_reference(&s.board) as f64 / WEIGHT_SCALE as f64
            });
            label.push(s.label - base_value);
        }
        Encoded {
            feats,
            phase,
            label,
            base,
        }
    }

    /// The number of samples.
    pub(super) fn len(&self) -> usize {
        self.label.len()
    }

    /// Whether there are no samples.
    pub(super) fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// The labels, in discs.
    pub(super) fn labels(&self) -> &[f64] {
        &self.label
    }

    /// The global weight indices of sample `i`.
    #[inline]
    pub(super) fn indices(&self, i: usize) -> [usize; FEATURE_SLOTS] {
        let off = self.phase[i] as usize * FEATURES_PER_PHASE;
        let local = &self.feats[i];
        let mut out = [0usize; FEATURE_SLOTS];
        for (k, o) in out.iter_mut().enumerate() {
            *o = off + self.base[k] + local[k] as usize;
        }
        out
    }

    /// The float model's value of sample `i` with weights `w`.
    #[inline]
    fn predict(&self, i: usize, w: &[f64]) -> f64 {
        self.indices(i).iter().map(|&j| w[j]).sum()
    }

    /// The float model's mean absolute error with weights `w`, in discs (NaN without samples).
    pub(super) fn mean_abs_error(&self, w: &[f64]) -> f64 {
        if self.is_empty() {
            return f64::NAN;
        }
        (0..self.len())
            .map(|i| (self.predict(i, w) - self.label[i]).abs())
            .sum::<f64>()
            / self.len() as f64
    }
}
