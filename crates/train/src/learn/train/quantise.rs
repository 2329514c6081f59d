//! From the fitted float weights to the weight file's. Phases that no training position falls
//! in get a copy of the nearest phase that has data, then every weight is rounded to the
//! file's `i16` units of `1 / WEIGHT_SCALE` disc, saturating at the ends of the range (with a
//! warning: a saturated weight no longer says what the fit found).

use crate::eval::pattern::{phase_of, FEATURES_PER_PHASE, WEIGHT_SCALE};

use super::Sample;

/// Phases that no training position falls in (with XOT openings, the first ones: games start
/// at about 50 empties) get a copy of the nearest phase that has data (the later one on a tie).
/// The regulariser alone would leave them a shrunken echo of their neighbour, which would make
/// positions near the start look more even than they are.
pub(super) fn fill_empty_phases(
    w: &mut [f64],
    train: &[&Sample],
    phases: usize,
    log: &mut dyn FnMut(&str),
) {
    let mut has_data = vec![false; phases];
    for s in train {
        has_data[phase_of(s.board.empty_count(), phases)] = true;
    }
    for p in 0..phases {
        if has_data[p] {
            continue;
        }
        let source = (1..phases).find_map(|d| {
            [p + d, p.wrapping_sub(d)]
                .into_iter()
                .find(|&q| q < phases && has_data[q])
        });
        if let Some(q) = source {
            let f = FEATURES_PER_PHASE;
            w.copy_within(q * f..(q + 1) * f, p * f);
            log(&format!(
                "phase {p} has no training positions: copied phase {q}"
            ));
        }
    }
}

/// The weights `w` (in discs) in the weight file's `i16` units, rounded to the nearest and
/// clamped to the range; logs how many saturated.
pub(super) fn quantise(w: &[f64], log: &mut dyn FnMut(&str)) -> Vec<i16> {
    let scale = WEIGHT_SCALE as f64;
    let quantised: Vec<i16> = w
        .iter()
        .map(|&x| (x * scale).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16)
        .collect();
    let saturated = quantised
        .iter()
        .filter(|&&q| q == i16::MIN || q == i16::MAX)
        .count();
    if saturated > 0 {
        log(&format!(
            "warning: {saturated} weights saturated the i16 range"
        ));
    }
    quantised
}
