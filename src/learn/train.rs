//! The trainer (`othello train`): regularised least squares over all phases at once, solved by
//! preconditioned conjugate gradient.
//!
//! # Model
//!
//! A position `x` in phase `p` is valued `Σ_f w[p][f]` over its 49 compact features
//! ([`features`]: 46 pattern placements, two mobility buckets, one parity bucket), in discs.
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
//! The objective is quadratic, so its minimum solves the normal equations
//! `(XᵀX + λI + μL) w = Xᵀy` (`L` is the path-graph Laplacian linking adjacent phases). The
//! trainer runs the conjugate gradient method (Hestenes and Stiefel, 1952; see Shewchuk, "An
//! Introduction to the Conjugate Gradient Method Without the Agonizing Pain", 1994) on them with
//! a Jacobi (diagonal) preconditioner, never forming `XᵀX`: each iteration is one pass over the
//! training samples (split across threads) computing `XᵀX d`. Logistello's and Edax's weights
//! were fitted the same way, by conjugate gradient on least squares.
//!
//! # Validation
//!
//! Whole games go to the validation set (chosen by a hash of the game index and `--seed`), so no
//! near-duplicate of a validation position is trained on. Every `report_every` iterations the
//! validation mean absolute error is measured and the best weights so far are kept (early
//! stopping). The final report gives, per phase, the mean absolute error in discs of the
//! quantised evaluator (exactly what the engine will compute) on the training and validation
//! positions.

use std::time::Instant;

use crate::board::Board;
use crate::discs::{fraction_to_discs, CentiDiscs};
use crate::eval::pattern::{
    feature_slot_base, features, phase_empties, phase_of, PatternEval, FEATURES_PER_PHASE,
    FEATURE_SLOTS, MAX_PHASES, WEIGHT_SCALE,
};
use crate::eval::Evaluator;

use super::data::Record;
use super::LearnError;
use crate::rng::mix;

mod report;
pub use report::format_report;
use report::mae;

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

/// Samples from data records (label in discs, grouped by game).
pub fn samples_from_records(records: &[Record]) -> Vec<Sample> {
    records
        .iter()
        .map(|r| Sample {
            board: r.board,
            label: CentiDiscs::from(r.label).to_discs(),
            group: r.game,
        })
        .collect()
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

/// The samples, encoded: 16-bit features per slot, phase, label.
struct Encoded {
    feats: Vec<[u16; FEATURE_SLOTS]>,
    phase: Vec<u8>,
    label: Vec<f64>,
}

impl Encoded {
    fn new(samples: &[&Sample], phases: usize, base: &[usize; FEATURE_SLOTS]) -> Encoded {
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
            label.push(s.label);
        }
        Encoded {
            feats,
            phase,
            label,
        }
    }

    fn len(&self) -> usize {
        self.label.len()
    }

    /// The global weight indices of sample `i`.
    #[inline]
    fn indices(&self, i: usize, base: &[usize; FEATURE_SLOTS]) -> [usize; FEATURE_SLOTS] {
        let off = self.phase[i] as usize * FEATURES_PER_PHASE;
        let mut out = [0usize; FEATURE_SLOTS];
        for k in 0..FEATURE_SLOTS {
            out[k] = off + base[k] + self.feats[i][k] as usize;
        }
        out
    }

    /// The float model's value of sample `i`.
    #[inline]
    fn predict(&self, i: usize, w: &[f64], base: &[usize; FEATURE_SLOTS]) -> f64 {
        self.indices(i, base).iter().map(|&j| w[j]).sum()
    }
}

/// `out = Σ_i x_i · g(i, x_i · v)` over the samples, split across `threads` threads, where
/// `g` gives the value to scatter for each sample from its dot product with `v`.
fn scatter_pass(
    enc: &Encoded,
    base: &[usize; FEATURE_SLOTS],
    v: &[f64],
    threads: usize,
    g: &(dyn Fn(usize, f64) -> f64 + Sync),
) -> Vec<f64> {
    let n = enc.len();
    let threads = threads.clamp(1, 64).min(n.max(1));
    let chunk = n.div_ceil(threads).max(1);
    let mut parts: Vec<Vec<f64>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut out = vec![0f64; v.len()];
                    for i in t * chunk..((t + 1) * chunk).min(n) {
                        let idx = enc.indices(i, base);
                        let dot: f64 = idx.iter().map(|&j| v[j]).sum();
                        let x = g(i, dot);
                        for &j in &idx {
                            out[j] += x;
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("trainer thread"))
            .collect()
    });
    let mut total = parts.pop().unwrap_or_else(|| vec![0f64; v.len()]);
    for p in parts {
        for (a, b) in total.iter_mut().zip(p) {
            *a += b;
        }
    }
    total
}

/// Adds `λ v + μ L v` (regularisation and phase smoothing) to `out`.
fn add_regularisation(out: &mut [f64], v: &[f64], phases: usize, lambda: f64, mu: f64) {
    let d = FEATURES_PER_PHASE;
    for p in 0..phases {
        for f in 0..d {
            let j = p * d + f;
            let mut r = lambda * v[j];
            if mu > 0.0 {
                if p > 0 {
                    r += mu * (v[j] - v[j - d]);
                }
                if p + 1 < phases {
                    r += mu * (v[j] - v[j + d]);
                }
            }
            out[j] += r;
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn mae_float(enc: &Encoded, w: &[f64], base: &[usize; FEATURE_SLOTS]) -> f64 {
    if enc.len() == 0 {
        return f64::NAN;
    }
    (0..enc.len())
        .map(|i| (enc.predict(i, w, base) - enc.label[i]).abs())
        .sum::<f64>()
        / enc.len() as f64
}

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

/// Phases that no training position falls in (with XOT openings, the first ones: games start
/// at about 50 empties) get a copy of the nearest phase that has data (the later one on a tie).
/// The regulariser alone would leave them a shrunken echo of their neighbour, which would make
/// positions near the start look more even than they are.
fn fill_empty_phases(w: &mut [f64], train: &[&Sample], phases: usize, log: &mut dyn FnMut(&str)) {
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

/// Whether a sample's group goes to the validation set.
pub fn is_validation(group: u32, seed: u64, fraction: f64) -> bool {
    (mix(seed, group as u64) >> 11) as f64 / (1u64 << 53) as f64 <= fraction && fraction > 0.0
}

/// Fits a [`PatternEval`] to `samples` (see the module documentation), reporting progress
/// lines to `log`.
pub fn train(
    samples: &[Sample],
    config: &TrainConfig,
    log: &mut dyn FnMut(&str),
) -> Result<(PatternEval, TrainReport), LearnError> {
    let phases = config.phases;
    if !(1..=MAX_PHASES).contains(&phases) {
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
    let (val, tr): (Vec<&Sample>, Vec<&Sample>) = samples
        .iter()
        .partition(|s| is_validation(s.group, config.seed, config.validation));
    if tr.is_empty() {
        return Err(LearnError::Config("no training samples".into()));
    }
    let start = Instant::now();
    let mut base = [0usize; FEATURE_SLOTS];
    for (k, b) in base.iter_mut().enumerate() {
        *b = feature_slot_base(k);
    }
    let train_set = Encoded::new(&tr, phases, &base);
    let val_set = Encoded::new(&val, phases, &base);
    log(&format!(
        "{} training and {} validation positions, {} phases, {} weights",
        train_set.len(),
        val_set.len(),
        phases,
        phases * FEATURES_PER_PHASE
    ));

    let n = phases * FEATURES_PER_PHASE;
    let threads = config.threads.max(1);
    let zero = vec![0f64; n];
    // Right-hand side Xᵀy and the Jacobi preconditioner diag(XᵀX) + λ + μ·degree.
    let labels = &train_set.label;
    let rhs = scatter_pass(&train_set, &base, &zero, threads, &|i, _| labels[i]);
    let counts = scatter_pass(&train_set, &base, &zero, threads, &|_, _| 1.0);
    let precond: Vec<f64> = (0..n)
        .map(|j| {
            let p = j / FEATURES_PER_PHASE;
            let degree = (p > 0) as u32 + (p + 1 < phases) as u32;
            let d = counts[j] + config.lambda + config.smooth * degree as f64;
            if d > 0.0 {
                1.0 / d
            } else {
                0.0
            }
        })
        .collect();
    let apply = |v: &[f64]| {
        let mut out = scatter_pass(&train_set, &base, v, threads, &|_, dot| dot);
        add_regularisation(&mut out, v, phases, config.lambda, config.smooth);
        out
    };

    // Preconditioned conjugate gradient from w = 0.
    let mut w = vec![0f64; n];
    let mut r = rhs;
    let mut z: Vec<f64> = r.iter().zip(&precond).map(|(a, m)| a * m).collect();
    let mut d = z.clone();
    let mut rz = dot(&r, &z);
    let rz0 = rz;
    let mut best_w = w.clone();
    let mut best_val = f64::INFINITY;
    let mut best_iteration = 0;
    let mut iterations = 0;
    for it in 1..=config.iterations {
        if rz <= rz0 * 1e-24 || rz == 0.0 {
            break;
        }
        let q = apply(&d);
        let dq = dot(&d, &q);
        if dq <= 0.0 || !dq.is_finite() {
            break;
        }
        let alpha = rz / dq;
        for j in 0..n {
            w[j] += alpha * d[j];
            r[j] -= alpha * q[j];
            z[j] = r[j] * precond[j];
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for j in 0..n {
            d[j] = z[j] + beta * d[j];
        }
        iterations = it;
        if it % config.report_every.max(1) == 0 || it == config.iterations {
            let train_mae = mae_float(&train_set, &w, &base);
            let val_mae = mae_float(&val_set, &w, &base);
            log(&format!(
                "iteration {it:>4}: train MAE {} discs, validation MAE {} discs, {:.1} s",
                mae(train_mae, 0),
                mae(val_mae, 0),
                start.elapsed().as_secs_f64()
            ));
            // Early stopping on validation (or keep the latest without validation).
            let score = if val_set.len() > 0 { val_mae } else { 0.0 };
            if score <= best_val {
                best_val = score;
                best_w.copy_from_slice(&w);
                best_iteration = it;
            }
        }
    }
    // The iterations after the last report (CG may converge between reports).
    if best_iteration != iterations {
        let latest = if val_set.len() > 0 {
            mae_float(&val_set, &w, &base)
        } else {
            0.0
        };
        if best_iteration == 0 || latest <= best_val {
            best_w.copy_from_slice(&w);
            best_iteration = iterations;
        }
    }

    fill_empty_phases(&mut best_w, &tr, phases, log);

    // Quantise to i16 weight units.
    let scale = WEIGHT_SCALE as f64;
    let quantised: Vec<i16> = best_w
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
    let provisional = PatternEval::from_compact(phases, quantised.clone(), String::new())?;
    let train_err = phase_errors(&provisional, tr.iter().copied());
    let val_err = phase_errors(&provisional, val.iter().copied());
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
    let overall = |e: &[(usize, f64)]| {
        let total: usize = e.iter().map(|x| x.0).sum();
        if total == 0 {
            return f64::NAN;
        }
        e.iter()
            .filter(|x| x.0 > 0)
            .map(|x| x.1 * x.0 as f64)
            .sum::<f64>()
            / total as f64
    };
    let report = TrainReport {
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
    };
    let mut meta = config.description.clone();
    if !meta.is_empty() {
        meta.push('\n');
    }
    meta.push_str(&format!(
        "trained on {} positions ({} validation); phases {phases}; lambda {}; smooth {}; \
         iterations {} (kept {}); train MAE {} discs; validation MAE {} discs",
        report.train_count,
        report.val_count,
        config.lambda,
        config.smooth,
        report.iterations,
        report.best_iteration,
        mae(report.train_mae, 0),
        mae(report.val_mae, 0)
    ));
    meta.truncate(crate::eval::pattern::file::MAX_META_LEN);
    let eval = PatternEval::from_compact(phases, quantised, meta)?;
    Ok((eval, report))
}

/// Reads data files into samples, printing one line per file to `out`; returns the samples
/// and the files' names. Games of different files become different groups. With
/// `result_mix > 0`, each file's search labels are blended with their games' results
/// ([`mix_game_results`]). With `dedup`,
/// positions equal under the board symmetries are merged ([`merge_duplicates`]).
pub fn load_samples(
    paths: &[std::path::PathBuf],
    dedup: bool,
    result_mix: f64,
    debias: bool,
    out: &mut dyn std::io::Write,
) -> Result<(Vec<Sample>, Vec<String>), LearnError> {
    let mut records = Vec::new();
    let mut names = Vec::new();
    let write = |e| LearnError::io(std::path::Path::new("<stdout>"), e);
    for (k, path) in paths.iter().enumerate() {
        let mut data = super::data::read_records(path)?;
        if debias {
            let shift = debias_search_labels(&mut data.records);
            let at = |e: usize| shift.get(e).copied().flatten().unwrap_or(0.0);
            writeln!(
                out,
                "{}: search labels shifted by {:+.2} / {:+.2} / {:+.2} / {:+.2} discs at 20 / 30 / 40 / 50 empties",
                path.display(),
                at(20),
                at(30),
                at(40),
                at(50)
            )
            .map_err(write)?;
        }
        if result_mix > 0.0 {
            mix_game_results(&mut data.records, result_mix);
        }
        writeln!(
            out,
            "{}: {} positions{}",
            path.display(),
            data.records.len(),
            if data.skipped > 0 {
                format!(" ({} from an incomplete last game skipped)", data.skipped)
            } else {
                String::new()
            }
        )
        .map_err(write)?;
        // Games of different files are different groups.
        let offset = (k as u32).wrapping_mul(0x9E37_79B9);
        records.extend(data.records.into_iter().map(|mut r| {
            r.game = r.game.wrapping_add(offset);
            r
        }));
        names.push(
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        );
    }
    let samples = if dedup {
        let samples = merge_duplicates(&records);
        writeln!(
            out,
            "{} positions, {} distinct under symmetry",
            records.len(),
            samples.len()
        )
        .map_err(write)?;
        samples
    } else {
        samples_from_records(&records)
    };
    Ok((samples, names))
}

/// Blends the search labels of recorded games with the games' results: in each game (a run of
/// records with one game index, in the order of play), every [`LabelKind::Search`] record
/// before the game's first exact record gets `(1 − w) · search + w · result`, where the result
/// is that exact record's value (the game as played, finished perfectly) seen from the
/// record's side to move. Games without an exact record are left as they are. Meant for files
/// of game positions (`label --depth`), not of deviations, whose exact records are not on the
/// game's path. The result is unbiased but noisy (the players' later mistakes), the search
/// score biased by the evaluator that made it; a blend trades one against the other.
///
/// [`LabelKind::Search`]: super::data::LabelKind::Search
pub fn mix_game_results(records: &mut [Record], w: f64) {
    for_each_search_and_result(records, |r, result| {
        r.label = ((1.0 - w) * r.label as f64 + w * result).round() as i16;
    });
}

/// Calls `f(search record, its game's result in centi-discs)` for every search-labelled record
/// of a recorded game before the game's first exact record (see [`mix_game_results`]).
fn for_each_search_and_result(records: &mut [Record], mut f: impl FnMut(&mut Record, f64)) {
    use super::data::LabelKind;
    let mut start = 0;
    while start < records.len() {
        let game = records[start].game;
        let end = start
            + records[start..]
                .iter()
                .position(|r| r.game != game)
                .unwrap_or(records.len() - start);
        let run = &mut records[start..end];
        if let Some(k) = run.iter().position(|r| r.kind == LabelKind::Exact) {
            let (side, result) = (run[k].side, run[k].label as f64);
            for r in run[..k].iter_mut().filter(|r| r.kind == LabelKind::Search) {
                let result = if r.side == side { result } else { -result };
                f(r, result);
            }
        }
        start = end;
    }
}

/// Removes the bias of the search labels of recorded games: for each number of empties, the
/// mean of (search label − game result) over the records that have both (see
/// [`mix_game_results`]) is subtracted from every search label with that many empties. The
/// game results are noisy but unbiased on average; a search is not (measured on depth-8
/// parity-mean labels of the WTHOR games: about +1.1 discs for the side to move at every
/// stage). Returns the shift per number of empties, in discs (`None` where no record had
/// both). Meant for files of game positions, like [`mix_game_results`].
pub fn debias_search_labels(records: &mut [Record]) -> Vec<Option<f64>> {
    let mut sum = [0.0f64; 61];
    let mut count = [0u64; 61];
    for_each_search_and_result(records, |r, result| {
        let e = r.board.empty_count().min(60) as usize;
        sum[e] += r.label as f64 - result;
        count[e] += 1;
    });
    let shift: Vec<Option<f64>> = (0..61)
        .map(|e| (count[e] > 0).then(|| sum[e] / count[e] as f64))
        .collect();
    for r in records.iter_mut() {
        if r.kind == super::data::LabelKind::Search {
            if let Some(d) = shift[r.board.empty_count().min(60) as usize] {
                r.label = (r.label as f64 - d).round().clamp(-6400.0, 6400.0) as i16;
            }
        }
    }
    shift
        .into_iter()
        .map(|d| d.map(fraction_to_discs))
        .collect()
}

/// Merges the records of positions equal under the eight board symmetries into one sample each,
/// in order of first appearance, with the group (game) of the first. Its label is the mean of
/// the labels of the best kind present: exact solves before search scores before game results
/// (the same opening reached in many games gets the mean of their results).
pub fn merge_duplicates(records: &[Record]) -> Vec<Sample> {
    use super::data::LabelKind;
    use std::collections::hash_map::{Entry, HashMap};
    let rank = |k: LabelKind| match k {
        LabelKind::Exact => 0u8,
        LabelKind::Search => 1,
        LabelKind::GameResult => 2,
    };
    // Per distinct position: the sample, its best label kind, the sum and count of its labels.
    let mut merged: Vec<(Sample, u8, f64, u32)> = Vec::new();
    let mut index: HashMap<Board, usize> = HashMap::with_capacity(records.len());
    for r in records {
        let label = CentiDiscs::from(r.label).to_discs();
        let r_rank = rank(r.kind);
        match index.entry(r.board.canonical()) {
            Entry::Vacant(v) => {
                v.insert(merged.len());
                let sample = Sample {
                    board: r.board,
                    label,
                    group: r.game,
                };
                merged.push((sample, r_rank, label, 1));
            }
            Entry::Occupied(o) => {
                let m = &mut merged[*o.get()];
                if r_rank < m.1 {
                    (m.1, m.2, m.3) = (r_rank, label, 1);
                } else if r_rank == m.1 {
                    m.2 += label;
                    m.3 += 1;
                }
            }
        }
    }
    merged
        .into_iter()
        .map(|(mut s, _, sum, count)| {
            s.label = sum / count as f64;
            s
        })
        .collect()
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
