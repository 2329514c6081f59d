//! Multi-ProbCut calibration: measure how well shallow searches predict deep ones, and fit
//! the model the midgame search prunes with ([`crate::search::probcut::model`]).
//!
//! 1. **Positions.** Sample `i` plays the first plies of XOT opening `i` (fewer when the
//!    target is early in the game), then a policy of one-ply static evaluation with 20% random
//!    moves, until the position has its target number of empties, drawn uniformly from
//!    [`MIN_EMPTIES`]..=[`MAX_EMPTIES`]. Everything is seeded by `(seed, i)`, so a sample is
//!    the same whichever thread or run computes it.
//! 2. **Values.** Each position is searched full width (no pruning) by iterative deepening
//!    from depth 0 (the static evaluation) to the maximum depth, with a fresh table; the value
//!    of every depth is kept. The samples file gets one line per position, appended as each
//!    finishes, so a run that is stopped resumes where it was.
//! 3. **Fit.** For every band of empties ([`BANDS`]) and node depth `d` from
//!    [`MPC_MIN_DEPTH`] to the maximum depth, least squares fits `v_d = a·v_s + b` with
//!    `s = shallow_depth(d)`, and `σ` is the residual standard deviation. Deeper depths, which
//!    the samples do not reach, keep the deepest fit of their parity for `a` and `b`, and
//!    extend `σ` by a plane fitted to `σ` against the shallow depth and the gap between the
//!    depths (never below the deepest measured `σ` of their parity).
//!
//! The command is `othello calibrate`; `docs/dev/SEARCH.md` shows how the shipped model was made.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::board::{Board, Position};
use crate::cpu::{with_cpu, CpuPath};
use crate::eval::{EngineEval, Evaluator};
use crate::search::midgame::{Midgame, INF};
use crate::search::probcut::model::{
    shallow_depth, Cut, Fit, MpcModel, MPC_MAX_DEPTH, MPC_MIN_DEPTH,
};
use crate::search::tt::{TableAllocError, TranspositionTable};
use crate::search::{Context, Stopper};

use super::LearnError;
use crate::rng::{mix, SplitMix64};

/// Fewest empties of a sampled position.
pub const MIN_EMPTIES: u32 = 12;
/// Most empties of a sampled position.
pub const MAX_EMPTIES: u32 = 56;
/// The bands of empties the model fits separately (inclusive ranges covering 0..=60).
pub const BANDS: [(u32, u32); 7] = [
    (0, 17),
    (18, 23),
    (24, 29),
    (30, 35),
    (36, 41),
    (42, 47),
    (48, 60),
];

/// Settings of a calibration run.
#[derive(Clone, Debug)]
pub struct CalibrateConfig {
    /// Positions `0..positions` are wanted in the samples file.
    pub positions: usize,
    /// Deepest full-width search per position.
    pub max_depth: u32,
    /// Run seed (recorded in the samples file; resuming needs the same one).
    pub seed: u64,
    /// The evaluator whose searches are measured.
    pub eval: EngineEval,
    /// Table per thread, MiB.
    pub hash_mb: usize,
    /// Worker threads.
    pub threads: usize,
}

/// One measured position: its index, empties and the value of every depth `0..=max_depth`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The sample's index in the run.
    pub index: usize,
    /// Empty squares.
    pub empties: u32,
    /// `values[d]`: the full-width depth-`d` value, centi-discs.
    pub values: Vec<i32>,
}

/// The position of sample `index` of a run seeded with `seed`, or `None` if its game ended
/// (or reached a position with no move) before the target.
pub fn sample_position<E: Evaluator>(eval: &E, seed: u64, index: usize) -> Option<Board> {
    sample_position_between(eval, seed, index, MIN_EMPTIES, MAX_EMPTIES)
}

/// [`sample_position`] with the target drawn uniformly from `min..=max` empties instead.
pub fn sample_position_between<E: Evaluator>(
    eval: &E,
    seed: u64,
    index: usize,
    min: u32,
    max: u32,
) -> Option<Board> {
    let mut rng = SplitMix64::new(mix(seed, index as u64));
    let target = min + rng.below((max.max(min) - min + 1) as u64) as u32;
    let openings: Vec<&str> = crate::xot::openings().collect();
    let line = openings[index % openings.len()];
    let mut pos = Position::start();
    for mv in crate::xot::parse_moves(line)? {
        if pos.board.empty_count() <= target {
            break;
        }
        pos = pos.try_play(mv).ok()?;
    }
    let mut board = pos.board;
    while board.empty_count() > target {
        if board.is_game_over() {
            return None;
        }
        if board.moves() == 0 {
            board = board.pass();
            continue;
        }
        let legal: Vec<_> = board.legal_moves().collect();
        let sq = if rng.chance(0.2) {
            legal[rng.below(legal.len() as u64) as usize]
        } else {
            *legal
                .iter()
                .max_by_key(|&&sq| -eval.evaluate(&board.play(sq)))
                .expect("a legal move")
        };
        board = board.play(sq);
    }
    (board.moves() != 0).then_some(board)
}

/// The full-width values of `board` at depths `0..=max_depth`, by iterative deepening with
/// `tt` (cleared first).
pub fn measure<E: Evaluator>(
    eval: &E,
    tt: &mut TranspositionTable,
    board: &Board,
    max_depth: u32,
) -> Vec<i32> {
    tt.clear();
    let (p, o) = (board.player(), board.opponent());
    let mut stopper = Stopper::unlimited();
    let mut values = vec![eval.evaluate(board)];
    with_cpu!(CpuPath::current(), C => {
        for depth in 1..=max_depth {
            let mut cx = Context::new(eval, tt, &mut stopper);
            let mut search = Midgame::<E, C>::on_cpu(&mut cx, 0);
            values.push(search.pvs(p, o, -INF, INF, depth, false));
        }
    });
    values
}

fn header(config: &CalibrateConfig) -> String {
    format!(
        "# othello mpc samples seed={} depth={}",
        config.seed, config.max_depth
    )
}

/// Reads a samples file written by a run with `config`'s seed and depth.
pub fn read_samples(path: &Path, config: &CalibrateConfig) -> Result<Vec<Sample>, LearnError> {
    let file = match crate::files::open(path) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut samples = Vec::new();
    let bad = |n: usize, why: &str| LearnError::Format(format!("line {n}: {why}")).in_file(path);
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| LearnError::io(path, e))?;
        if i == 0 {
            if line != header(config) {
                return Err(bad(
                    1,
                    &format!("the header {line:?} is not {:?}", header(config)),
                ));
            }
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if fields.len() != config.max_depth as usize + 3 {
            // A line cut short by an interrupted run: the sample is measured again.
            continue;
        }
        let num = |s: &str| s.parse::<i64>().map_err(|_| bad(i + 1, "not a number"));
        let index = num(fields[0])? as usize;
        let empties = num(fields[1])? as u32;
        let values = fields[2..]
            .iter()
            .map(|s| num(s).map(|v| v as i32))
            .collect::<Result<Vec<_>, _>>()?;
        samples.push(Sample {
            index,
            empties,
            values,
        });
    }
    Ok(samples)
}

/// Measures the samples `0..config.positions` missing from `path`, appending each as it is
/// done, on `config.threads` threads; logs progress every `report` interval.
pub fn run_calibration_samples(
    config: &CalibrateConfig,
    path: &Path,
    report: Duration,
) -> Result<Vec<Sample>, LearnError> {
    if config.max_depth < MPC_MIN_DEPTH || config.max_depth > 30 {
        return Err(LearnError::Config(format!(
            "the depth must be {MPC_MIN_DEPTH}..=30"
        )));
    }
    let mut samples = read_samples(path, config)?;
    let done: HashSet<usize> = samples.iter().map(|s| s.index).collect();
    let todo: Vec<usize> = (0..config.positions)
        .filter(|i| !done.contains(i))
        .collect();
    let fresh = run_resumable(
        path,
        &header(config),
        &todo,
        config.threads,
        report,
        || TranspositionTable::try_new(config.hash_mb.max(1)),
        |tt, index| {
            sample_position(&config.eval, config.seed, index).map(|b| Sample {
                index,
                empties: b.empty_count(),
                values: measure(&config.eval, tt, &b, config.max_depth),
            })
        },
        |sample| {
            let mut line = format!("{} {}", sample.index, sample.empties);
            for v in &sample.values {
                line.push_str(&format!(" {v}"));
            }
            line
        },
    )?;
    samples.extend(fresh);
    samples.sort_by_key(|s| s.index);
    Ok(samples)
}

/// The resumable part of a calibration run: computes `work(state, i)` for every `i` of `todo`
/// on `threads` threads (each with its own `state`, made by `init`), and appends `line` of
/// each result to `path` as it arrives (creating the file with `header` first), so that a run
/// that is stopped keeps what it finished. `None` results (positions that could not be
/// drawn) write nothing. Logs progress every `report` interval; returns the new results.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_resumable<S: Send, W>(
    path: &Path,
    header: &str,
    todo: &[usize],
    threads: usize,
    report: Duration,
    init: impl Fn() -> Result<W, TableAllocError>,
    work: impl Fn(&mut W, usize) -> Option<S> + Sync,
    line: impl Fn(&S) -> String,
) -> Result<Vec<S>, LearnError>
where
    W: Send,
{
    let threads = threads.clamp(1, 256).min(todo.len().max(1));
    // Every worker's tables before the file is touched or any work starts.
    let states = super::pool::worker_states(threads, init)?;
    let fresh = !crate::files::exists(path)?;
    let mut file = crate::files::open_for_update(path, true, false)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0))
        .map_err(|e| LearnError::io(path, e))?;
    if fresh {
        writeln!(file, "{header}").map_err(|e| LearnError::io(path, e))?;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut error = None;
    let start = Instant::now();
    let mut last_report = start;
    let mut results = Vec::new();
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::sync_channel::<Option<S>>(2 * threads);
        if let Err(e) = super::pool::start_workers(s, states, todo, &next, &stop, &work, &tx) {
            error = Some(e);
        }
        drop(tx);
        let mut finished = 0;
        for result in rx {
            finished += 1;
            let Some(result) = result else { continue };
            if let Err(e) = writeln!(file, "{}", line(&result)).and_then(|_| file.flush()) {
                error = Some(LearnError::io(path, e));
                stop.store(true, Ordering::Relaxed);
                break;
            }
            results.push(result);
            if last_report.elapsed() >= report {
                last_report = Instant::now();
                log::info!(
                    "calibrate: {finished}/{} positions measured, {:.0} s",
                    todo.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    log::info!(
        "calibrate: {} new samples in {:.0} s",
        results.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(results)
}

/// Least squares `y = a·x + b`: `(a, b, sigma)`, or `None` with fewer than 8 points or no
/// spread in `x`.
pub fn linear_fit(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 8 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = points.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    Some((a, b, (sse / (n - 2.0)).sqrt()))
}

/// Least squares `sigma = c0 + c1·s + c2·(d - s)` over measured fits (`s` the shallow depth,
/// `d` the node depth), or `None` when the fits do not determine it.
pub fn sigma_trend(fits: &[Fit]) -> Option<(f64, f64, f64)> {
    if fits.len() < 4 {
        return None;
    }
    // Normal equations of the three-parameter fit, solved by Cramer's rule.
    let rows: Vec<[f64; 3]> = fits
        .iter()
        .map(|f| [1.0, f.cut.shallow as f64, (f.depth - f.cut.shallow) as f64])
        .collect();
    let mut m = [[0.0f64; 3]; 3];
    let mut v = [0.0f64; 3];
    for (r, f) in rows.iter().zip(fits) {
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += r[i] * r[j];
            }
            v[i] += r[i] * f.cut.sigma as f64;
        }
    }
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&m);
    if d.abs() < 1e-9 {
        return None;
    }
    let mut coef = [0.0; 3];
    for (k, c) in coef.iter_mut().enumerate() {
        let mut mk = m;
        for i in 0..3 {
            mk[i][k] = v[i];
        }
        *c = det(&mk) / d;
    }
    Some((coef[0], coef[1], coef[2]))
}

/// `x` rounded to a multiple of `1 / scale` (the model file keeps a few digits).
fn round_to(x: f64, scale: f64) -> f32 {
    ((x * scale).round() / scale) as f32
}

/// Fits the model to `samples` (see the module documentation).
pub fn fit_model(samples: &[Sample], max_depth: u32) -> MpcModel {
    let mut fits = Vec::new();
    for &(lo, hi) in &BANDS {
        let in_band: Vec<&Sample> = samples
            .iter()
            .filter(|s| (lo..=hi).contains(&s.empties))
            .collect();
        let mut measured: Vec<Fit> = Vec::new();
        for d in MPC_MIN_DEPTH..=max_depth {
            let s = shallow_depth(d);
            let points: Vec<(f64, f64)> = in_band
                .iter()
                .filter(|x| x.values.len() > d as usize)
                .map(|x| (x.values[s as usize] as f64, x.values[d as usize] as f64))
                .collect();
            let Some((a, b, sigma)) = linear_fit(&points) else {
                continue;
            };
            measured.push(Fit {
                empties_min: lo,
                empties_max: hi,
                depth: d,
                cut: Cut {
                    shallow: s,
                    a: round_to(a.clamp(0.5, 2.0), 1e4),
                    b: round_to(b, 10.0),
                    sigma: round_to(sigma.max(1.0), 10.0),
                },
                samples: points.len() as u32,
            });
        }
        let Some(last) = measured.last().copied() else {
            continue;
        };
        // sigma against the two depths, for the depths the samples do not reach: the error
        // grows with the gap between the shallow and the deep search.
        let trend = sigma_trend(&measured);
        let mut extended = Vec::new();
        for d in last.depth + 1..=MPC_MAX_DEPTH {
            let Some(same_parity) = measured.iter().rev().find(|f| f.depth % 2 == d % 2) else {
                continue;
            };
            let s = shallow_depth(d);
            let floor = same_parity.cut.sigma;
            let sigma = trend.map_or(floor, |(c0, c1, c2)| {
                round_to(c0 + c1 * s as f64 + c2 * (d - s) as f64, 10.0).max(floor)
            });
            extended.push(Fit {
                depth: d,
                cut: Cut {
                    shallow: s,
                    sigma: sigma.min(6400.0),
                    ..same_parity.cut
                },
                samples: 0,
                ..*same_parity
            });
        }
        fits.extend(measured);
        fits.extend(extended);
    }
    MpcModel::from_fits(fits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandEval;

    #[test]
    fn linear_fit_recovers_a_line_and_its_noise() {
        let points: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = i as f64;
                let noise = if i % 2 == 0 { 3.0 } else { -3.0 };
                (x, 1.5 * x - 20.0 + noise)
            })
            .collect();
        let (a, b, sigma) = linear_fit(&points).unwrap();
        assert!((a - 1.5).abs() < 0.01 && (b + 20.0).abs() < 0.5, "{a} {b}");
        assert!((sigma - 3.0).abs() < 0.1, "{sigma}");
        assert_eq!(linear_fit(&points[..5]), None);
        assert_eq!(linear_fit(&[(1.0, 2.0); 10]), None);
    }

    #[test]
    fn the_sigma_trend_recovers_a_plane() {
        let fits: Vec<Fit> = (3..=12)
            .map(|d| {
                let s = shallow_depth(d);
                Fit {
                    empties_min: 0,
                    empties_max: 60,
                    depth: d,
                    cut: Cut {
                        shallow: s,
                        a: 1.0,
                        b: 0.0,
                        sigma: 300.0 - 5.0 * s as f32 + 40.0 * (d - s) as f32,
                    },
                    samples: 10,
                }
            })
            .collect();
        let (c0, c1, c2) = sigma_trend(&fits).unwrap();
        assert!((c0 - 300.0).abs() < 1e-3 && (c1 + 5.0).abs() < 1e-3 && (c2 - 40.0).abs() < 1e-3);
        assert_eq!(sigma_trend(&fits[..3]), None);
    }

    #[test]
    fn samples_are_reproducible_and_in_range() {
        let eval = HandEval::new();
        let mut seen = 0;
        for i in 0..40 {
            let a = sample_position(&eval, 9, i);
            assert_eq!(a, sample_position(&eval, 9, i));
            if let Some(b) = a {
                seen += 1;
                assert!((MIN_EMPTIES..=MAX_EMPTIES).contains(&b.empty_count()));
                assert_ne!(b.moves(), 0);
            }
        }
        assert!(seen >= 35, "{seen} of 40");
    }

    #[test]
    fn measured_values_are_the_full_width_values() {
        let eval = HandEval::new();
        let board = sample_position(&eval, 3, 0).unwrap();
        let mut tt = TranspositionTable::new(1);
        let values = measure(&eval, &mut tt, &board, 4);
        assert_eq!(values.len(), 5);
        assert_eq!(values[0], eval.evaluate(&board));
        // Depth 1 by hand: the best child's negated evaluation (the position has moves).
        let want = board
            .legal_moves()
            .map(|sq| -eval.evaluate(&board.play(sq)))
            .max()
            .unwrap();
        assert_eq!(values[1], want);
    }

    #[test]
    fn the_fit_finds_a_planted_model_and_extends_it() {
        // Depth-d values that are 0.9 * (shallow value) + 30 (+-50 at depth 8): the fit recovers it.
        let samples: Vec<Sample> = (0..200)
            .map(|i| {
                let mut values = vec![0; 9];
                for (d, v) in values.iter_mut().enumerate() {
                    *v = (i as i32 * 7 % 900) - 450 + d as i32;
                }
                for d in MPC_MIN_DEPTH as usize..=8 {
                    let s = shallow_depth(d as u32) as usize;
                    // Noise only at depth 8, so that its shallow value (depth 4) is noise-free.
                    let noise = match (d, i % 2) {
                        (8, 0) => 50.0,
                        (8, _) => -50.0,
                        _ => 0.0,
                    };
                    values[d] = (0.9 * values[s] as f64 + 30.0 + noise).round() as i32;
                }
                Sample {
                    index: i,
                    empties: 30,
                    values,
                }
            })
            .collect();
        let model = fit_model(&samples, 8);
        let c = model.cut(32, 8).expect("a fit in the 30-35 band");
        assert_eq!(c.shallow, shallow_depth(8));
        assert!(
            (c.a - 0.9).abs() < 0.02 && (c.b - 30.0).abs() < 3.0,
            "{c:?}"
        );
        assert!((c.sigma - 50.0).abs() < 3.0, "{c:?}");
        // Extended beyond the measured depths, never below the deepest measured sigma.
        let deep = model.cut(30, 20).expect("an extended fit");
        assert_eq!(deep.shallow, shallow_depth(20));
        assert!(deep.sigma >= 49.0);
        // No samples in other bands: no cut there.
        assert!(model.cut(20, 8).is_none());
        assert_eq!(MpcModel::parse(&model.to_string()), Ok(model));
    }
}
