//! Colour centring of a pattern evaluator: anchoring its level to the start position's value.
//!
//! Othello is a draw under perfect play (Takizawa, 2023), so the start position is worth 0 and
//! a search from it should report about 0 at every depth. An evaluator trained on search labels
//! can carry a bias for the colour to move in the opening: searches label positions with the
//! previous evaluator's leaves, and the parity-mean labels (the mean of an odd and an even
//! depth) cancel a bias for the side to move but pass a bias for one colour on from round to
//! round unchanged.
//!
//! Centring measures the level — the mean value of an iterative-deepening search of the start
//! position over a band of consecutive depths, odd and even, so that the odd/even swing cancels —
//! and moves it to 0 by shifting the parity weights of the opening and middle-game phases: `δ`
//! discs off the even-empties weight and onto the odd-empties weight. Without passes an even
//! number of empty squares means Black is to move, so the shift takes `δ` from Black's value of
//! every position of a shifted phase, and a search whose leaves lie in phases shifted alike
//! moves by `δ` without changing its choice of move. The shift is full down to `full_from`
//! empties and fades linearly to nothing at `zero_at` empties, below which exact labels anchor
//! the evaluator. A changed evaluator searches a slightly different tree, so the measurement
//! and the shift repeat for a few rounds.

use std::sync::Arc;

use crate::board::Board;
use crate::eval::pattern::file::MAX_META_LEN;
use crate::eval::pattern::{
    phase_empties, PatternEval, WeightsError, COMPACT_PATTERNS_LEN, FEATURES_PER_PHASE,
    MOBILITY_BUCKETS, WEIGHT_SCALE,
};
use crate::eval::EngineEval;
use crate::search::{Limits, Observer, SearchResult, Searcher, Value};

/// What [`centre`] measures and how it shifts.
#[derive(Clone, Debug)]
pub struct CentreOptions {
    /// The band of depths whose iteration values are averaged (inclusive; odd and even).
    pub depths: (u32, u32),
    /// The shift is full in phases whose empties are all at least this.
    pub full_from: u32,
    /// The shift is nothing in phases whose empties are all at most this.
    pub zero_at: u32,
    /// At most this many measure-and-shift rounds.
    pub rounds: usize,
    /// Stop once the measured level is within this many discs of 0.
    pub tolerance: f64,
    /// Search threads (1 is deterministic).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
}

impl Default for CentreOptions {
    fn default() -> Self {
        CentreOptions {
            depths: (10, 19),
            full_from: 36,
            zero_at: 24,
            rounds: 4,
            tolerance: 0.1,
            threads: 1,
            hash_mb: 64,
        }
    }
}

/// One measurement of [`centre`]: the shift in effect and the level measured with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CentreRound {
    /// The shift of the parity weights in effect (discs; 0 for the input weights).
    pub shift: f64,
    /// The mean value (discs, Black's view) of the start position over the depth band.
    pub level: f64,
}

/// Collects the heuristic iteration values in a depth band.
struct BandValues {
    band: (u32, u32),
    values: Vec<f64>,
}

impl Observer for BandValues {
    fn on_iteration(&mut self, r: &SearchResult) {
        if let Value::Heuristic(_) = r.value {
            if (self.band.0..=self.band.1).contains(&r.depth) {
                self.values.push(r.value.discs());
            }
        }
    }
}

/// The mean value of the start position (Black to move, so Black's view) over the iterations
/// of a search to `options.depths.1` whose depth lies in the band.
pub fn start_level(eval: &Arc<PatternEval>, options: &CentreOptions) -> f64 {
    let mut searcher = Searcher::new(EngineEval::Pattern(eval.clone()), options.hash_mb);
    searcher.set_threads(options.threads.max(1));
    let mut band = BandValues {
        band: options.depths,
        values: Vec::new(),
    };
    let limits = Limits::fixed(Some(options.depths.1), None, None);
    searcher.search(&Board::start(), &limits, &mut band);
    if band.values.is_empty() {
        return 0.0;
    }
    band.values.iter().sum::<f64>() / band.values.len() as f64
}

/// The share (0 to 1) of the shift that phase `phase` of `phases` gets: 1 when all its
/// empties are at least `full_from`, 0 when all are at most `zero_at`, linear in its middle
/// empties count between.
pub fn shift_share(phase: usize, phases: usize, full_from: u32, zero_at: u32) -> f64 {
    let (hi, lo) = phase_empties(phase, phases);
    if lo >= full_from {
        return 1.0;
    }
    if hi <= zero_at || full_from <= zero_at {
        return 0.0;
    }
    let mid = (hi + lo) as f64 / 2.0;
    ((mid - zero_at as f64) / (full_from - zero_at) as f64).clamp(0.0, 1.0)
}

/// `eval` with `delta` discs (scaled per phase by [`shift_share`]) taken off its even-empties
/// parity weight and added to its odd-empties parity weight. The Multi-ProbCut model text
/// stays attached: a uniform shift leaves the shallow-to-deep relation unchanged.
pub fn shift_parity(
    eval: &PatternEval,
    delta: f64,
    full_from: u32,
    zero_at: u32,
) -> Result<PatternEval, WeightsError> {
    shifted(eval, delta, full_from, zero_at, eval.meta().to_string())
}

/// [`shift_parity`] with the description `meta`.
fn shifted(
    eval: &PatternEval,
    delta: f64,
    full_from: u32,
    zero_at: u32,
    meta: String,
) -> Result<PatternEval, WeightsError> {
    let phases = eval.phases();
    let mut weights = eval.compact_weights().to_vec();
    let parity = COMPACT_PATTERNS_LEN + 2 * MOBILITY_BUCKETS;
    for phase in 0..phases {
        let units = (delta * shift_share(phase, phases, full_from, zero_at) * WEIGHT_SCALE as f64)
            .round() as i32;
        let base = phase * FEATURES_PER_PHASE + parity;
        let nudge =
            |w: i16, by: i32| (w as i32 + by).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        weights[base] = nudge(weights[base], -units);
        weights[base + 1] = nudge(weights[base + 1], units);
    }
    let out = PatternEval::from_compact(phases, weights, meta)?;
    Ok(match eval.mpc_model_text() {
        Some(text) => out.with_mpc_model_text(text.to_string()),
        None => out,
    })
}

/// Centres `eval`: measures the start position's level, shifts the parity weights by it, and
/// measures again, until the level is within the tolerance or `options.rounds` shifts are
/// made. `report` sees each measurement. Returns the centred evaluator (its description notes
/// the shift) and the total shift in discs.
pub fn centre(
    eval: PatternEval,
    options: &CentreOptions,
    mut report: impl FnMut(&CentreRound),
) -> Result<(PatternEval, f64), WeightsError> {
    let (full_from, zero_at) = (options.full_from, options.zero_at);
    let mut current = Arc::new(eval.clone());
    let mut shift = 0.0;
    for round in 0.. {
        let level = start_level(&current, options);
        report(&CentreRound { shift, level });
        if level.abs() <= options.tolerance || round >= options.rounds {
            break;
        }
        shift += level;
        current = Arc::new(shift_parity(&eval, shift, full_from, zero_at)?);
    }
    if shift == 0.0 {
        return Ok((eval, shift));
    }
    let note = format!(
        "\ncentred: parity weights shifted by {shift:+.3} discs (full from {full_from} empties, none at {zero_at}), start position searched at depths {}-{}",
        options.depths.0, options.depths.1
    );
    let mut meta = eval.meta().to_string();
    if meta.len() + note.len() <= MAX_META_LEN {
        meta.push_str(&note);
    }
    Ok((shifted(&eval, shift, full_from, zero_at, meta)?, shift))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::engine::default_pattern;

    /// Positions along a fixed line of play: every number of empties from 60 down to 20.
    fn line_positions() -> Vec<Board> {
        let mut board = Board::start();
        let mut out = vec![board];
        while board.empty_count() > 20 {
            // The lowest-numbered legal move: deterministic, and passes are rare this early.
            board = match board.legal_moves().next() {
                Some(sq) => board.play(sq),
                None => board.pass(),
            };
            out.push(board);
        }
        out
    }

    #[test]
    fn the_share_is_full_above_fades_between_and_is_zero_below() {
        let phases = 15;
        for phase in 0..phases {
            let (hi, lo) = phase_empties(phase, phases);
            let share = shift_share(phase, phases, 36, 24);
            if lo >= 36 {
                assert_eq!(share, 1.0, "phase {phase} ({hi}-{lo})");
            } else if hi <= 24 {
                assert_eq!(share, 0.0, "phase {phase} ({hi}-{lo})");
            } else {
                assert!(share > 0.0 && share < 1.0, "phase {phase}: {share}");
            }
        }
    }

    #[test]
    fn the_shift_moves_even_and_odd_empties_apart_by_the_share() {
        let eval = default_pattern();
        let delta = 1.5;
        let shifted = shift_parity(&eval, delta, 36, 24).unwrap();
        assert_eq!(shifted.mpc_model_text(), eval.mpc_model_text());
        for board in line_positions() {
            let e = board.empty_count();
            let share = shift_share(eval.phase(e), eval.phases(), 36, 24);
            let units = (delta * share * WEIGHT_SCALE as f64).round() as i32;
            let expected = if e % 2 == 0 { -units } else { units };
            let got = shifted.score_units(&board) - eval.score_units(&board);
            assert_eq!(got, expected, "{e} empties");
        }
    }

    #[test]
    fn a_search_whose_leaves_are_all_shifted_moves_by_the_shift() {
        // From the start, a depth-6 search has its leaves at 54 empties (Black to move), all in
        // fully shifted phases: its value drops by the shift, up to the rounding of each leaf.
        let eval = default_pattern();
        let delta = 2.0;
        let shifted = Arc::new(shift_parity(&eval, delta, 36, 24).unwrap());
        let value = |e: Arc<PatternEval>| {
            let mut s = Searcher::new(EngineEval::Pattern(e), 16);
            s.set_selectivity(None);
            s.set_threads(1);
            let limits = Limits::fixed(Some(6), None, None);
            s.search(&Board::start(), &limits, &mut ()).value.discs()
        };
        let (before, after) = (value(eval), value(shifted));
        assert!(
            (before - after - delta).abs() <= 0.02,
            "{before} -> {after}"
        );
    }

    #[test]
    fn centring_brings_the_start_level_within_the_tolerance() {
        let options = CentreOptions {
            depths: (4, 7),
            tolerance: 0.05,
            hash_mb: 16,
            ..CentreOptions::default()
        };
        let eval = default_pattern();
        let before = start_level(&eval, &options);
        let mut rounds = Vec::new();
        let (centred, shift) = centre((*eval).clone(), &options, |r| rounds.push(*r)).unwrap();
        assert_eq!(
            rounds[0],
            CentreRound {
                shift: 0.0,
                level: before
            }
        );
        let last = rounds.last().unwrap();
        assert_eq!(last.shift, shift);
        assert!(last.level.abs() < before.abs(), "{rounds:?}");
        assert_eq!(
            start_level(&Arc::new(centred.clone()), &options),
            last.level
        );
        assert!(centred.meta().contains("centred"));
    }
}
