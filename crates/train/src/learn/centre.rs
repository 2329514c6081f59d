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
//!
//! Tempo balancing ([`balance_tempo`]) is the same idea for the side to move instead of a
//! colour. An evaluator that values having the move by `τ` discs too much makes every search of
//! even depth `τ` too high for the root's side to move and every search of odd depth `τ` too
//! low: the odd/even swing. Balancing measures the signed swing — the mean of
//! `v(d) − v(d−1)`, counted positive at even `d` and negative at odd `d` — over the iterative
//! deepening of a set of XOT positions, and adds `−swing / 2` discs to both parity weights of
//! the shifted phases. Every position of a phase moves alike, so a search whose leaves lie in
//! phases shifted alike chooses the same move.

use std::sync::Arc;

use crate::board::Board;
use crate::eval::pattern::file::MAX_META_LEN;
use crate::eval::pattern::{
    phase_empties, PatternEval, WeightsError, COMPACT_PATTERNS_LEN, FEATURES_PER_PHASE,
    MOBILITY_BUCKETS, WEIGHT_SCALE,
};
use crate::eval::EngineEval;
use crate::search::{Limits, Observer, SearchResult, Searcher, Value};

/// How a measured shift is applied and repeated, for centring and tempo balancing alike.
#[derive(Clone, Debug)]
pub struct ShiftPlan {
    /// The shift is full in phases whose empties are all at least this.
    pub full_from: u32,
    /// The shift is nothing in phases whose empties are all at most this.
    pub zero_at: u32,
    /// At most this many measure-and-shift rounds.
    pub rounds: usize,
    /// Stop once the measurement is within this many discs of 0.
    pub tolerance: f64,
    /// Search threads (1 is deterministic).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
}

impl Default for ShiftPlan {
    fn default() -> Self {
        ShiftPlan {
            full_from: 36,
            zero_at: 24,
            rounds: 4,
            tolerance: 0.1,
            threads: 1,
            hash_mb: 64,
        }
    }
}

/// What [`centre`] measures, and its [`ShiftPlan`].
#[derive(Clone, Debug)]
pub struct CentreOptions {
    /// The band of depths whose iteration values are averaged (inclusive; odd and even).
    pub depths: (u32, u32),
    /// How the shift is applied and repeated.
    pub plan: ShiftPlan,
}

impl Default for CentreOptions {
    fn default() -> Self {
        CentreOptions {
            depths: (10, 19),
            plan: ShiftPlan::default(),
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

/// What [`balance_tempo`] measures, and its [`ShiftPlan`].
#[derive(Clone, Debug)]
pub struct TempoOptions {
    /// How many XOT openings (from the top of the list) are searched.
    pub positions: usize,
    /// The band of depths whose consecutive pairs are measured (inclusive).
    pub depths: (u32, u32),
    /// How the shift is applied and repeated.
    pub plan: ShiftPlan,
}

impl Default for TempoOptions {
    fn default() -> Self {
        TempoOptions {
            positions: 100,
            depths: (5, 14),
            plan: ShiftPlan::default(),
        }
    }
}

/// Collects the heuristic iteration values (depth, discs) in a depth band.
struct BandValues {
    band: (u32, u32),
    values: Vec<(u32, f64)>,
}

impl BandValues {
    fn new(band: (u32, u32)) -> BandValues {
        BandValues {
            band,
            values: Vec::new(),
        }
    }
}

impl Observer for BandValues {
    fn on_iteration(&mut self, r: &SearchResult) {
        if let Value::Heuristic(_) = r.value {
            if (self.band.0..=self.band.1).contains(&r.depth) {
                self.values.push((r.depth, r.value.discs()));
            }
        }
    }
}

/// The mean value of the start position (Black to move, so Black's view) over the iterations
/// of a search to `options.depths.1` whose depth lies in the band.
pub fn start_level(eval: &Arc<PatternEval>, options: &CentreOptions) -> f64 {
    let mut searcher = Searcher::new(EngineEval::Pattern(eval.clone()), options.plan.hash_mb);
    searcher.set_threads(options.plan.threads.max(1));
    let mut band = BandValues::new(options.depths);
    let limits = Limits::fixed(Some(options.depths.1), None, None);
    searcher.search(&Board::start(), &limits, &mut band);
    if band.values.is_empty() {
        return 0.0;
    }
    band.values.iter().map(|&(_, v)| v).sum::<f64>() / band.values.len() as f64
}

/// The signed odd/even swing of `values` (one search's iterations, depth and value from the
/// root's side to move): the sum over consecutive depths `d−1, d` of `v(d) − v(d−1)`, counted
/// positive at even `d` and negative at odd `d`, and the number of such pairs.
fn signed_swing(values: &[(u32, f64)]) -> (f64, usize) {
    let mut sum = 0.0;
    let mut pairs = 0;
    for w in values.windows(2) {
        let ((d0, v0), (d1, v1)) = (w[0], w[1]);
        if d1 == d0 + 1 {
            let diff = v1 - v0;
            sum += if d1 % 2 == 0 { diff } else { -diff };
            pairs += 1;
        }
    }
    (sum, pairs)
}

/// The mean signed odd/even swing (discs) of searches of the first `options.positions` XOT
/// openings over the depth band `options.depths` (see the module header): about twice the
/// evaluator's excess value for having the move.
pub fn tempo_swing(eval: &Arc<PatternEval>, options: &TempoOptions) -> f64 {
    let mut searcher = Searcher::new(EngineEval::Pattern(eval.clone()), options.plan.hash_mb);
    searcher.set_threads(options.plan.threads.max(1));
    let limits = Limits::fixed(Some(options.depths.1), None, None);
    let (mut sum, mut pairs) = (0.0, 0);
    for line in crate::xot::openings().take(options.positions) {
        let Some(pos) = crate::xot::position_after(line) else {
            continue;
        };
        searcher.clear();
        let mut band = BandValues::new(options.depths);
        searcher.search(&pos.board, &limits, &mut band);
        let (s, n) = signed_swing(&band.values);
        sum += s;
        pairs += n;
    }
    if pairs == 0 {
        0.0
    } else {
        sum / pairs as f64
    }
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
    let by = ParityShift {
        even: -delta,
        odd: delta,
    };
    shifted(eval, by, full_from, zero_at, eval.meta().to_string())
}

/// `eval` with `tau` discs (scaled per phase by [`shift_share`]) added to both parity weights:
/// every position of a phase is worth `tau` more to its side to move. The Multi-ProbCut model
/// text stays attached.
pub fn shift_tempo(
    eval: &PatternEval,
    tau: f64,
    full_from: u32,
    zero_at: u32,
) -> Result<PatternEval, WeightsError> {
    let by = ParityShift {
        even: tau,
        odd: tau,
    };
    shifted(eval, by, full_from, zero_at, eval.meta().to_string())
}

/// Discs added to the even-empties and the odd-empties parity weight of a fully shifted phase.
#[derive(Clone, Copy)]
struct ParityShift {
    even: f64,
    odd: f64,
}

/// The parity weights of `eval` moved by `by` (scaled per phase by [`shift_share`]), with the
/// description `meta`.
fn shifted(
    eval: &PatternEval,
    by: ParityShift,
    full_from: u32,
    zero_at: u32,
    meta: String,
) -> Result<PatternEval, WeightsError> {
    let phases = eval.phases();
    let mut weights = eval.compact_weights().to_vec();
    let parity = COMPACT_PATTERNS_LEN + 2 * MOBILITY_BUCKETS;
    for phase in 0..phases {
        let share = shift_share(phase, phases, full_from, zero_at) * WEIGHT_SCALE as f64;
        let units = |discs: f64| (discs * share).round() as i32;
        let base = phase * FEATURES_PER_PHASE + parity;
        let nudge =
            |w: i16, by: i32| (w as i32 + by).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        weights[base] = nudge(weights[base], units(by.even));
        weights[base + 1] = nudge(weights[base + 1], units(by.odd));
    }
    let out = PatternEval::from_compact(phases, weights, meta)?;
    Ok(match eval.mpc_model_text() {
        Some(text) => out.with_mpc_model_text(text.to_string()),
        None => out,
    })
}

/// `meta` with `note` appended, if it fits the file format's limit.
fn with_note(meta: &str, note: &str) -> String {
    let mut meta = meta.to_string();
    if meta.len() + note.len() <= MAX_META_LEN {
        meta.push_str(note);
    }
    meta
}

/// One measurement of [`balance_tempo`]: the tempo shift in effect and the signed swing
/// measured with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TempoRound {
    /// The discs added to both parity weights (0 for the input weights).
    pub shift: f64,
    /// The mean signed odd/even swing measured with that shift (discs).
    pub swing: f64,
}

/// The measure-and-shift loop of [`centre`] and [`balance_tempo`]: measures with the shift in
/// effect (0 first), reports, and stops once the measurement is within the plan's tolerance
/// or its rounds are spent; otherwise `next` gives the next shift. Returns the last shift.
fn converge(
    plan: &ShiftPlan,
    mut measure_at: impl FnMut(f64) -> Result<f64, WeightsError>,
    next: impl Fn(f64, f64) -> f64,
    mut report: impl FnMut(f64, f64),
) -> Result<f64, WeightsError> {
    let mut shift = 0.0;
    for round in 0.. {
        let measured = measure_at(shift)?;
        report(shift, measured);
        if measured.abs() <= plan.tolerance || round >= plan.rounds {
            break;
        }
        shift = next(shift, measured);
    }
    Ok(shift)
}

/// `eval` with its parity weights moved by `by` and `note` added to its description, or `eval`
/// itself when there is nothing to move.
fn finish(
    eval: PatternEval,
    by: ParityShift,
    plan: &ShiftPlan,
    note: &str,
) -> Result<PatternEval, WeightsError> {
    if by.even == 0.0 && by.odd == 0.0 {
        return Ok(eval);
    }
    let meta = with_note(eval.meta(), note);
    shifted(&eval, by, plan.full_from, plan.zero_at, meta)
}

/// Balances `eval`'s value for the side to move: measures the signed odd/even swing
/// ([`tempo_swing`]), adds minus half of it to both parity weights, and measures again, until
/// the swing is within the tolerance or `options.plan.rounds` shifts are made. `report` sees
/// each measurement. Returns the balanced evaluator (its description notes the shift) and the
/// total shift in discs.
pub fn balance_tempo(
    eval: PatternEval,
    options: &TempoOptions,
    mut report: impl FnMut(&TempoRound),
) -> Result<(PatternEval, f64), WeightsError> {
    let plan = &options.plan;
    let shift = converge(
        plan,
        |tau| {
            let current = shift_tempo(&eval, tau, plan.full_from, plan.zero_at)?;
            Ok(tempo_swing(&Arc::new(current), options))
        },
        |tau, swing| tau - swing / 2.0,
        |shift, swing| report(&TempoRound { shift, swing }),
    )?;
    let note = format!(
        "\ntempo: both parity weights moved by {shift:+.3} discs (full from {} empties, none at {}), swing of {} XOT openings at depths {}-{}",
        plan.full_from, plan.zero_at, options.positions, options.depths.0, options.depths.1
    );
    let by = ParityShift {
        even: shift,
        odd: shift,
    };
    Ok((finish(eval, by, plan, &note)?, shift))
}

/// Centres `eval`: measures the start position's level, shifts the parity weights by it, and
/// measures again, until the level is within the tolerance or `options.plan.rounds` shifts are
/// made. `report` sees each measurement. Returns the centred evaluator (its description notes
/// the shift) and the total shift in discs.
pub fn centre(
    eval: PatternEval,
    options: &CentreOptions,
    mut report: impl FnMut(&CentreRound),
) -> Result<(PatternEval, f64), WeightsError> {
    let plan = &options.plan;
    let shift = converge(
        plan,
        |delta| {
            let current = shift_parity(&eval, delta, plan.full_from, plan.zero_at)?;
            Ok(start_level(&Arc::new(current), options))
        },
        |delta, level| delta + level,
        |shift, level| report(&CentreRound { shift, level }),
    )?;
    let note = format!(
        "\ncentred: parity weights shifted by {shift:+.3} discs (full from {} empties, none at {}), start position searched at depths {}-{}",
        plan.full_from, plan.zero_at, options.depths.0, options.depths.1
    );
    let by = ParityShift {
        even: -shift,
        odd: shift,
    };
    Ok((finish(eval, by, plan, &note)?, shift))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::builtin::default_pattern;

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
            plan: ShiftPlan {
                tolerance: 0.05,
                hash_mb: 16,
                ..ShiftPlan::default()
            },
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

    #[test]
    fn the_tempo_shift_moves_every_position_alike_by_the_share() {
        let eval = default_pattern();
        let tau = -0.75;
        let shifted = shift_tempo(&eval, tau, 36, 24).unwrap();
        assert_eq!(shifted.mpc_model_text(), eval.mpc_model_text());
        let mut moved = 0;
        for board in line_positions() {
            let e = board.empty_count();
            let share = shift_share(eval.phase(e), eval.phases(), 36, 24);
            let units = (tau * share * WEIGHT_SCALE as f64).round() as i32;
            let got = shifted.score_units(&board) - eval.score_units(&board);
            assert_eq!(got, units, "{e} empties");
            moved += (units != 0) as usize;
        }
        assert!(moved > 20, "only {moved} positions moved");
    }

    #[test]
    fn the_signed_swing_counts_even_depths_up_and_odd_depths_down() {
        // Values that alternate 1, 3, 1, 3 from depth 5: every pair says "even depths are 2
        // higher", so each counts +2; a gap in the depths breaks the pairs.
        let values = [(5, 1.0), (6, 3.0), (7, 1.0), (8, 3.0), (10, 9.0), (11, 8.0)];
        assert_eq!(signed_swing(&values), (2.0 + 2.0 + 2.0 + 1.0, 4));
        assert_eq!(signed_swing(&[(6, 1.0)]), (0.0, 0));
    }

    #[test]
    fn balancing_finds_a_tempo_bonus_put_into_the_weights() {
        let options = TempoOptions {
            positions: 6,
            depths: (3, 8),
            plan: ShiftPlan {
                tolerance: 0.02,
                hash_mb: 16,
                ..ShiftPlan::default()
            },
        };
        let eval = (*default_pattern()).clone();
        let (_, own) = balance_tempo(eval.clone(), &options, |_| {}).unwrap();
        // Every searched position lies in fully shifted phases (44 empties and more), so a
        // bonus of 1.5 discs for the side to move must come back as a shift of about -1.5.
        let bonus = 1.5;
        let biased = shift_tempo(&eval, bonus, 36, 24).unwrap();
        let before = tempo_swing(&Arc::new(biased.clone()), &options);
        assert!(before > 2.0 * bonus - 1.0, "swing {before}");
        let mut rounds = Vec::new();
        let (balanced, shift) = balance_tempo(biased, &options, |r| rounds.push(*r)).unwrap();
        assert!(
            (shift - (own - bonus)).abs() < 0.1,
            "{shift} against {own} - {bonus}"
        );
        let after = tempo_swing(&Arc::new(balanced.clone()), &options);
        assert!(after.abs() < before.abs() / 4.0, "{before} -> {after}");
        assert_eq!(rounds.last().unwrap().swing, after);
        assert!(balanced.meta().contains("tempo"));
    }
}
