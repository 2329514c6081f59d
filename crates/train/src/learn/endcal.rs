//! Endgame ProbCut calibration: how well shallow midgame searches predict the exact score, and
//! the `end` lines of the Multi-ProbCut model the solver's selective passes cut with
//! (`search/probcut/endgame.rs`).
//!
//! 1. **Positions.** Sample `i` has a number of empties drawn uniformly from the configured
//!    range (14 to 24 by default), seeded by `(seed, i)`. From game files, it is the position
//!    with that many empties of game `perm[i mod games]` (`perm` a seeded shuffle of the
//!    games); otherwise it is drawn as the midgame calibration draws its positions (XOT
//!    opening `i`, then one-ply greedy play with 20% random moves;
//!    [`super::calibrate::sample_position_between`]). Positions whose side to move has no
//!    move are skipped.
//! 2. **Values.** Each position is solved exactly ([`Searcher::solve`]) and searched full
//!    width, with a fresh table, at every depth from 0 (the static evaluation) to the maximum
//!    depth ([`super::calibrate::measure`]). One line per position is appended to the samples
//!    file as it finishes (`index empties player opponent exact best v0 .. vD`: the board in
//!    hex, the exact score and a best move of the solve, the values),
//!    so a run that is stopped resumes where it was.
//! 3. **Fit.** The solver predicts a node with `n` empties from a search of depth
//!    `d = shallow_depth(n)`, so the empties fall in bands of one depth each (14: depth 4;
//!    15-19: 6; 20-24: 8; 25-29: 10; ...). For each band the samples reach, least squares
//!    over its samples fits `100·exact = a·v_d + b`, with `σ` the residual standard
//!    deviation, and the fit covers the whole band ([`fit_endgame`]). A band above the samples
//!    gets the fit of its depth over the samples of the highest band measured (the largest
//!    gaps `n - d` measured), or, for a depth deeper than any measured, of the deepest depth
//!    measured: on the shipped weights `σ` hardly depends on `n` at a given depth (it falls
//!    with `d`), so a band's own depth measured a few empties lower predicts it well, and a
//!    shallower depth's `σ` errs on the safe side. Bands up to 60 empties get a line.
//!    [`fit_grid`] gives the fit of every number of empties and depth, for the record.
//!
//! The command is `othello calibrate --endgame`, described in `docs/TRANSITION.md`;
//! `docs/dev/TRANSITION.md` has its first run and why the shipped model keeps the formula.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::ops::RangeInclusive;
use std::path::Path;
use std::time::Duration;

use crate::board::{Board, Move};
use crate::discs::CentiDiscs;
use crate::eval::EngineEval;
use crate::rng::{mix, SplitMix64};
use crate::search::probcut::model::end::{shallow_depth, EndFit, PROBCUT_MIN_EMPTIES};
use crate::search::probcut::model::Cut;
use crate::search::tt::TranspositionTable;
use crate::search::{Searcher, Value};
use crate::square::Square;

use super::calibrate::{linear_fit, measure, run_resumable, sample_position_between};
use super::LearnError;

/// The default range of empties of the sampled positions.
pub const DEFAULT_EMPTIES: RangeInclusive<u32> = PROBCUT_MIN_EMPTIES..=24;
/// The default deepest shallow search measured (the solver uses depth 8 at 20 to 24 empties;
/// 10 is its neighbour and the depth of 25 to 29 empties).
pub const DEFAULT_DEPTH: u32 = 10;
/// Where the sampled positions come from.
#[derive(Clone, Debug)]
pub enum EndSource {
    /// Drawn like the midgame calibration's positions.
    Drawn,
    /// From these games, each given by its positions (only those in the range are needed).
    Games(Vec<Vec<Board>>),
}

/// Settings of an endgame calibration run.
#[derive(Clone, Debug)]
pub struct EndCalibrateConfig {
    /// Samples `0..positions` are wanted in the samples file.
    pub positions: usize,
    /// Deepest full-width search per position.
    pub max_depth: u32,
    /// Run seed (recorded in the samples file; resuming needs the same one).
    pub seed: u64,
    /// The empties of the sampled positions.
    pub empties: RangeInclusive<u32>,
    /// Where the positions come from.
    pub source: EndSource,
    /// The evaluator whose searches are measured.
    pub eval: EngineEval,
    /// Table per thread, MiB (the exact solves use one of this size, the shallow searches
    /// another).
    pub hash_mb: usize,
    /// Worker threads.
    pub threads: usize,
}

/// One measured position.
#[derive(Clone, Debug, PartialEq)]
pub struct EndSample {
    /// The sample's index in the run.
    pub index: usize,
    /// The position.
    pub board: Board,
    /// Its exact score, discs.
    pub exact: i32,
    /// A best move.
    pub best: Square,
    /// `values[d]`: the full-width depth-`d` value, centi-discs.
    pub values: Vec<i32>,
}

/// The position of sample `index`, or `None` if there is none (a game that ended before its
/// target, a position whose side to move must pass).
pub fn end_sample_position(config: &EndCalibrateConfig, index: usize) -> Option<Board> {
    let (lo, hi) = (*config.empties.start(), *config.empties.end());
    match &config.source {
        EndSource::Drawn => sample_position_between(&config.eval, config.seed, index, lo, hi),
        EndSource::Games(games) if games.is_empty() => None,
        EndSource::Games(games) => {
            let perm = shuffled(games.len(), config.seed);
            let mut rng = SplitMix64::new(mix(config.seed, index as u64));
            let target = lo + rng.below((hi.max(lo) - lo + 1) as u64) as u32;
            games[perm[index % games.len()]]
                .iter()
                .find(|b| b.empty_count() == target && b.moves() != 0)
                .copied()
        }
    }
}

/// `0..n` in the seeded shuffle of [`EndSource::Games`].
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..n).collect();
    let mut rng = SplitMix64::new(mix(seed, u64::MAX));
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    perm
}

fn header(config: &EndCalibrateConfig) -> String {
    let source = match &config.source {
        EndSource::Drawn => "drawn".to_string(),
        EndSource::Games(g) => format!("games:{}", g.len()),
    };
    format!(
        "# othello endgame probcut samples seed={} depth={} empties={}..{} source={source}",
        config.seed,
        config.max_depth,
        config.empties.start(),
        config.empties.end()
    )
}

/// A sample's line in the samples file.
fn sample_line(s: &EndSample) -> String {
    let mut line = format!(
        "{} {} {:016x} {:016x} {} {}",
        s.index,
        s.board.empty_count(),
        s.board.player(),
        s.board.opponent(),
        s.exact,
        s.best
    );
    for v in &s.values {
        line.push_str(&format!(" {v}"));
    }
    line
}

/// Reads a samples file written by a run with `config`'s settings (none if it does not exist).
pub fn read_end_samples(
    path: &Path,
    config: &EndCalibrateConfig,
) -> Result<Vec<EndSample>, LearnError> {
    read_samples_with(path, Some((&header(config), config.max_depth)))
}

/// Reads any endgame samples file (a held-out set for measurements): its samples, by index,
/// whatever run wrote them. An error if it does not exist.
pub fn read_end_samples_file(path: &Path) -> Result<Vec<EndSample>, LearnError> {
    if !path.exists() {
        return Err(LearnError::io(path, std::io::ErrorKind::NotFound.into()));
    }
    read_samples_with(path, None)
}

/// The samples of `path`; with `expected`, the header must be that and the lines must have
/// that depth (shorter lines, cut by an interrupted run, are skipped).
fn read_samples_with(
    path: &Path,
    expected: Option<(&str, u32)>,
) -> Result<Vec<EndSample>, LearnError> {
    let file = match crate::files::open(path) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let bad = |n: usize, why: &str| LearnError::Format(format!("line {n}: {why}")).in_file(path);
    let mut samples = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| LearnError::io(path, e))?;
        if i == 0 {
            match expected {
                Some((h, _)) if line != h => {
                    return Err(bad(1, &format!("the header {line:?} is not {h:?}")));
                }
                _ => continue,
            }
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let fields = expected.map_or(f.len().max(7), |(_, depth)| depth as usize + 7);
        if f.len() != fields {
            // Empty, or cut short by an interrupted run: the sample is measured again.
            continue;
        }
        let num = |s: &str| s.parse::<i64>().map_err(|_| bad(i + 1, "not a number"));
        let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|_| bad(i + 1, "not a board"));
        let board = Board::new(hex(f[2])?, hex(f[3])?).map_err(|e| bad(i + 1, &e.to_string()))?;
        if num(f[1])? != board.empty_count() as i64 {
            return Err(bad(i + 1, "the empties do not match the board"));
        }
        samples.push(EndSample {
            index: num(f[0])? as usize,
            board,
            exact: num(f[4])? as i32,
            best: f[5].parse().map_err(|_| bad(i + 1, "not a move"))?,
            values: f[6..]
                .iter()
                .map(|s| num(s).map(|v| v as i32))
                .collect::<Result<_, _>>()?,
        });
    }
    samples.sort_by_key(|s| s.index);
    Ok(samples)
}

/// Measures the samples `0..config.positions` missing from `path`, appending each as it is
/// done, on `config.threads` threads; logs progress every `report` interval. Returns all the
/// file's samples, by index.
pub fn run_end_samples(
    config: &EndCalibrateConfig,
    path: &Path,
    report: Duration,
) -> Result<Vec<EndSample>, LearnError> {
    let (lo, hi) = (*config.empties.start(), *config.empties.end());
    if lo > hi || hi > 30 || config.max_depth > 20 || config.max_depth >= lo.max(1) {
        return Err(LearnError::Config(format!(
            "the empties must be within 0..=30 and the depth (at most 20) below them, not \
             {lo}..{hi} and {}",
            config.max_depth
        )));
    }
    let mut samples = read_end_samples(path, config)?;
    let done: HashSet<usize> = samples.iter().map(|s| s.index).collect();
    let todo: Vec<usize> = (0..config.positions)
        .filter(|i| !done.contains(i))
        .collect();
    let hash = config.hash_mb.max(1);
    let fresh = run_resumable(
        path,
        &header(config),
        &todo,
        config.threads,
        report,
        || {
            Ok((
                Searcher::try_new(config.eval.clone(), hash)?,
                TranspositionTable::try_new(hash)?,
            ))
        },
        |(searcher, tt), index| {
            let board = end_sample_position(config, index)?;
            let solved = searcher.solve(&board, false, &mut ());
            let (Value::Exact(exact), Move::Place(best)) = (solved.value, solved.best) else {
                return None;
            };
            Some(EndSample {
                index,
                board,
                exact,
                best,
                values: measure(&config.eval, tt, &board, config.max_depth),
            })
        },
        sample_line,
    )?;
    samples.extend(fresh);
    samples.sort_by_key(|s| s.index);
    Ok(samples)
}

/// One measured prediction: at `empties`, `100·exact ≈ a·v_depth + b ± sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridFit {
    /// Empties of the positions.
    pub empties: u32,
    /// Depth of the shallow search.
    pub depth: u32,
    /// Slope.
    pub a: f64,
    /// Intercept, centi-discs.
    pub b: f64,
    /// Residual standard deviation, centi-discs.
    pub sigma: f64,
    /// Positions.
    pub samples: usize,
}

/// The fit of every number of empties and every depth the samples have (at least 8 positions).
pub fn fit_grid(samples: &[EndSample]) -> Vec<GridFit> {
    let mut grid = Vec::new();
    let (Some(lo), Some(hi)) = (
        samples.iter().map(|s| s.board.empty_count()).min(),
        samples.iter().map(|s| s.board.empty_count()).max(),
    ) else {
        return grid;
    };
    let depths = samples.iter().map(|s| s.values.len()).max().unwrap_or(0) as u32;
    for n in lo..=hi {
        for d in 0..depths.min(n) {
            let points: Vec<(f64, f64)> = samples
                .iter()
                .filter(|s| s.board.empty_count() == n && s.values.len() > d as usize)
                .map(|s| (s.values[d as usize] as f64, exact_centi(s)))
                .collect();
            if let Some((a, b, sigma)) = linear_fit(&points) {
                grid.push(GridFit {
                    empties: n,
                    depth: d,
                    a,
                    b,
                    sigma,
                    samples: points.len(),
                });
            }
        }
    }
    grid
}

/// The exact score of `sample` in centi-discs, the unit of the shallow values it is fitted to.
fn exact_centi(sample: &EndSample) -> f64 {
    CentiDiscs::from_whole_discs(sample.exact).0 as f64
}

/// `x` rounded to a multiple of `1 / scale`.
fn round_to(x: f64, scale: f64) -> f32 {
    ((x * scale).round() / scale) as f32
}

/// The least squares fit of `100·exact = a·v_depth + b` over `samples` (those that have that
/// depth), as an `end` line for `empties_min..=empties_max`; `None` with fewer than
/// [`MIN_BAND_SAMPLES`] samples.
fn band_fit(
    samples: &[&EndSample],
    depth: u32,
    empties_min: u32,
    empties_max: u32,
) -> Option<EndFit> {
    let points: Vec<(f64, f64)> = samples
        .iter()
        .filter(|s| s.values.len() > depth as usize)
        .map(|s| (s.values[depth as usize] as f64, exact_centi(s)))
        .collect();
    if points.len() < MIN_BAND_SAMPLES {
        return None;
    }
    let (a, b, sigma) = linear_fit(&points)?;
    Some(EndFit {
        empties_min,
        empties_max,
        cut: Cut {
            shallow: shallow_depth(empties_min),
            a: round_to(a.clamp(0.5, 2.0), 1e4),
            b: round_to(b.clamp(-6400.0, 6400.0), 10.0),
            sigma: round_to(sigma, 10.0).clamp(1.0, 6400.0),
        },
        samples: points.len() as u32,
    })
}

/// Fewest samples a band's fit is made from.
pub const MIN_BAND_SAMPLES: usize = 20;

/// The `end` lines of the model fitted to `samples` (see the module documentation): one per
/// band of empties with one shallow depth, from [`PROBCUT_MIN_EMPTIES`] to 60, measured where
/// the samples are (with `samples` the number of positions) and carried over above them (0).
/// Empty if no band has enough samples.
pub fn fit_endgame(samples: &[EndSample]) -> Vec<EndFit> {
    // The bands: maximal runs of empties with the same shallow depth.
    let mut bands: Vec<(u32, u32)> = Vec::new();
    for n in PROBCUT_MIN_EMPTIES..=60 {
        match bands.last_mut() {
            Some(b) if shallow_depth(b.0) == shallow_depth(n) => b.1 = n,
            _ => bands.push((n, n)),
        }
    }
    let in_band = |lo: u32, hi: u32| -> Vec<&EndSample> {
        samples
            .iter()
            .filter(|s| (lo..=hi).contains(&s.board.empty_count()))
            .collect()
    };
    let mut lines = Vec::new();
    // The samples of the highest band measured, and the deepest depth they all have.
    let mut top: Option<Vec<&EndSample>> = None;
    for &(lo, hi) in &bands {
        let own = in_band(lo, hi);
        if let Some(fit) = band_fit(&own, shallow_depth(lo), lo, hi) {
            lines.push(fit);
            top = Some(own);
            continue;
        }
        let Some(top) = &top else { continue };
        let deepest = top.iter().map(|s| s.values.len() as u32).min().unwrap_or(0);
        let depth = shallow_depth(lo).min(deepest.saturating_sub(1));
        if let Some(mut fit) = band_fit(top, depth, lo, hi) {
            fit.cut.shallow = shallow_depth(lo);
            fit.samples = 0;
            lines.push(fit);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::probcut::model::MpcModel;

    /// A sample at `n` empties whose values (every depth alike) are `v` and whose exact score
    /// is `a·v + b + noise`, in discs rounded to a whole number.
    fn planted(index: usize, n: u32, v: i32, a: f64, b: f64, noise: f64) -> EndSample {
        let exact = ((a * v as f64 + b + noise) / 100.0).round() as i32;
        // Any board with n empties: the fit only reads the count.
        let board = Board::from_bits_unchecked(!0u64 << n, 0);
        EndSample {
            index,
            board,
            exact,
            best: Square::from_index_masked(0),
            values: vec![v; 13],
        }
    }

    /// The shallow value of pair `k` of planted samples (each pair has noise `+x` and `-x`).
    fn value(k: usize) -> i32 {
        (k * 37 % 4001) as i32 - 2000
    }

    #[test]
    fn the_fit_recovers_a_planted_model_band_by_band_and_carries_it_up() {
        let mut samples = Vec::new();
        for i in 0..1100 {
            let k = i / 2;
            let n = 14 + (k % 11) as u32;
            let noise = if i % 2 == 0 { 300.0 } else { -300.0 };
            // 20-24 empties: a different model, to see the bands apart.
            let (a, b) = if n >= 20 { (0.9, 50.0) } else { (1.1, -40.0) };
            samples.push(planted(i, n, value(k), a, b, noise));
        }
        let lines = fit_endgame(&samples);
        let model = MpcModel::empty().with_endgame(lines.clone());
        let e = model.endgame();
        assert!(e.cut(13).is_none());
        for n in 14..=60 {
            let c = e.cut(n).unwrap_or_else(|| panic!("no cut at {n}"));
            assert_eq!(c.shallow, shallow_depth(n));
            let (a, b) = if n >= 20 { (0.9, 50.0) } else { (1.1, -40.0) };
            assert!((c.a as f64 - a).abs() < 0.01, "{n}: {c:?}");
            assert!((c.b as f64 - b).abs() < 10.0, "{n}: {c:?}");
            // The noise, and the rounding of the exact scores to whole discs.
            assert!((c.sigma - 300.0).abs() < 6.0, "{n}: {c:?}");
        }
        // One line per band: 14, 15-19 and 20-24 measured, the bands above carried over.
        let measured: Vec<_> = lines.iter().filter(|l| l.samples > 0).collect();
        let ranges: Vec<_> = measured
            .iter()
            .map(|l| (l.empties_min, l.empties_max))
            .collect();
        assert_eq!(ranges, [(14, 14), (15, 19), (20, 24)]);
        assert_eq!(measured.iter().map(|l| l.samples).sum::<u32>(), 1100);
        assert_eq!(lines.last().unwrap().empties_max, 60);
        assert_eq!(MpcModel::parse(&model.to_string()), Ok(model));
        // Too few samples: no line at all.
        assert!(fit_endgame(&samples[..10]).is_empty());
    }

    #[test]
    fn the_grid_measures_each_empties_and_depth() {
        let samples: Vec<EndSample> = (0..200)
            .map(|i| {
                let noise = if i % 2 == 0 { 100.0 } else { -100.0 };
                planted(
                    i,
                    16 + (i / 2 % 2) as u32 * 4,
                    value(i / 2),
                    1.0,
                    0.0,
                    noise,
                )
            })
            .collect();
        let grid = fit_grid(&samples);
        // 16 and 20 empties, depths 0..=12 each.
        assert_eq!(grid.len(), 26);
        for g in &grid {
            assert!([16, 20].contains(&g.empties) && g.samples == 100);
            assert!(
                (g.a - 1.0).abs() < 0.01 && (g.sigma - 100.0).abs() < 6.0,
                "{g:?}"
            );
        }
    }

    #[test]
    fn a_small_run_solves_measures_and_resumes() {
        let dir = std::env::temp_dir().join(format!("othello-endcal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("samples.txt");
        let _ = std::fs::remove_file(&path);
        let eval = EngineEval::default();
        let mut config = EndCalibrateConfig {
            positions: 6,
            max_depth: 3,
            seed: 5,
            empties: 12..=14,
            source: EndSource::Drawn,
            eval: eval.clone(),
            hash_mb: 1,
            threads: 2,
        };
        let samples = run_end_samples(&config, &path, Duration::from_secs(60)).unwrap();
        assert!(samples.len() >= 4, "{} of 6 positions", samples.len());
        for s in &samples {
            let n = s.board.empty_count();
            assert!((12..=14).contains(&n));
            assert_eq!(Some(s.board), end_sample_position(&config, s.index));
            // Exact scores are even; the best move is legal and achieves the score.
            assert_eq!(s.exact % 2, 0);
            let mut searcher = Searcher::new(eval.clone(), 1);
            let after = searcher.solve(&s.board.play(s.best), false, &mut ());
            assert_eq!(after.value, Value::Exact(-s.exact));
            assert_eq!(s.values.len(), 4);
            assert_eq!(
                s.values[0],
                crate::eval::Evaluator::evaluate(&eval, &s.board)
            );
        }
        // Resuming measures only what is missing; the file reads back the same.
        config.positions = 8;
        let more = run_end_samples(&config, &path, Duration::from_secs(60)).unwrap();
        assert!(more.len() >= samples.len());
        assert_eq!(&more[..samples.len()], &samples[..]);
        assert_eq!(read_end_samples_file(&path).unwrap(), more);
        // Another depth does not resume this file.
        config.max_depth = 4;
        assert!(run_end_samples(&config, &path, Duration::from_secs(60)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn game_positions_are_drawn_from_the_games_at_the_target() {
        let mut games = Vec::new();
        let mut b = Board::start();
        let mut game = Vec::new();
        while !b.is_game_over() {
            game.push(b);
            b = match b.legal_moves().next() {
                Some(sq) => b.play(sq),
                None => b.pass(),
            };
        }
        games.push(game);
        let config = EndCalibrateConfig {
            positions: 10,
            max_depth: 2,
            seed: 3,
            empties: 14..=24,
            source: EndSource::Games(games.clone()),
            eval: EngineEval::default(),
            hash_mb: 1,
            threads: 1,
        };
        let mut seen = 0;
        for i in 0..20 {
            if let Some(p) = end_sample_position(&config, i) {
                seen += 1;
                assert!((14..=24).contains(&p.empty_count()) && p.moves() != 0);
                assert!(games[0].contains(&p));
            }
        }
        assert!(seen >= 10, "{seen}");
        assert_eq!(shuffled(50, 3), shuffled(50, 3));
        let mut sorted = shuffled(50, 3);
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
