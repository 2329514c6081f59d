//! The trainer's subcommands: `label`, `selfplay`, `calibrate`, `eval-error` and `train` (see
//! docs/dev/WEIGHTS.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use othello::board::Position;
use othello::discs::fraction_to_discs;
use othello::eval::EngineEval;
use othello::gamedb::export::EmptiesRange;
use othello::learn::selfplay::default_threads;
use othello::search::tt::{MAX_SHARED_HASH_MB, SHARED_HASH_MB};
use othello::search::SelectivitySetting;
use othello::weights::{EvalChoice, PatternFile};

use super::games::GamesInput;
use super::search::{parse_jobs, parse_threads};
use super::{fail, CliError, CliResult};

/// The most games `selfplay --games` asks for (about 600 million positions).
pub const MAX_SELFPLAY_GAMES: u32 = 10_000_000;
/// The most positions `calibrate --positions` asks for.
pub const MAX_CALIBRATE_POSITIONS: usize = 10_000_000;

/// `calibrate --positions`: a count up to [`MAX_CALIBRATE_POSITIONS`].
fn parse_positions(s: &str) -> Result<usize, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n <= MAX_CALIBRATE_POSITIONS as u64 => Ok(n as usize),
        _ => Err(format!(
            "{s:?} is not a count from 0 to {MAX_CALIBRATE_POSITIONS}"
        )),
    }
}

/// A learning run's error, with the options to change when its workers could not be had:
/// their tables (`--hash` each, `-j` of them) or their threads.
fn workers_error(e: othello::learn::LearnError, jobs: usize, hash: u64) -> CliError {
    use othello::learn::LearnError;
    match e {
        LearnError::Memory(m) => fail(format!(
            "--hash {hash} (MiB per worker) with -j {jobs}: {m}"
        )),
        e @ LearnError::Threads(_) => fail(format!("-j {jobs}: {e}")),
        e => e.into(),
    }
}

#[derive(Args)]
pub struct LabelArgs {
    /// Game files or directories (WTHOR .wtb, PGN, GGF, transcripts), in this order.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(super) input: GamesInput,
    /// The data file to create or extend.
    #[arg(long)]
    pub(super) out: PathBuf,
    /// Solve positions with at most this many empties exactly.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact_empties: u32,
    /// Label earlier positions by a search of this depth instead of the game result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: Option<u32>,
    /// With --depth: label only positions with more empties than this (e.g. when the exact
    /// zone is already in another file).
    #[arg(long, default_value_t = 0, requires = "depth", value_parser = clap::value_parser!(u32).range(0..=60))]
    above: u32,
    /// Forward pruning of those searches: 58, 73, 87, 95, 98, 99 or 100 (none).
    #[arg(long, default_value = "73", value_name = "PERCENT")]
    selectivity: SelectivitySetting,
    /// With --depth: label with the mean of the scores at depths D-1 and D, which cancels the
    /// pessimism of an even depth (or the optimism of an odd one) for the side to move.
    #[arg(long, requires = "depth")]
    parity_mean: bool,
    /// With --depth: label, instead of the game's positions, up to N random other children of
    /// each position (moves the players did not play), by the same rule; train on this file
    /// beside one of the game positions (see docs/dev/WEIGHTS.md).
    #[arg(long, value_name = "N", requires = "depth", value_parser = clap::value_parser!(u32).range(1..=8))]
    deviations: Option<u32>,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = SHARED_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_SHARED_HASH_MB as u64))]
    hash: u64,
    /// Parallel workers, each with its own search (default: all cores; `--threads` is an old
    /// name of this option).
    #[arg(short = 'j', long = "jobs", alias = "threads", value_name = "JOBS", value_parser = parse_jobs)]
    threads: Option<usize>,
}

/// The games of `files`, each as the positions it went through.
fn read_game_positions(
    files: &[PathBuf],
    options: othello::gamedb::ReadOptions,
) -> Result<Vec<Vec<Position>>, String> {
    let mut games = Vec::new();
    for (path, records) in
        othello::gamedb::read_all_with(files, &options).map_err(|e| e.to_string())?
    {
        for (k, record) in records.iter().enumerate() {
            let positions = record
                .replay()
                .map_err(|e| format!("{}: game {}: {e}", path.display(), k + 1))?;
            games.push(positions);
        }
    }
    Ok(games)
}

/// `othello label`.
pub fn label(args: LabelArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let config = othello::learn::label::LabelConfig {
        exact_empties: args.exact_empties,
        depth: args.depth,
        above: args.above,
        selectivity: args.selectivity.0,
        parity_mean: args.parity_mean,
        deviations: args.deviations.unwrap_or(0),
        hash_mb: args.hash as usize,
        threads: args.threads.unwrap_or_else(default_threads),
        eval,
    };
    let games = read_game_positions(&args.files, args.input.options()).map_err(fail)?;
    let path = &args.out;
    let s = othello::learn::label::run_label(
        &config,
        &games,
        path,
        &super::progress::Bar::reporter(true, true),
    )
    .map_err(|e| workers_error(e, config.threads, args.hash))?;
    writeln!(
        out,
        "{}: {} games read, {} already there, {} labelled, {} positions written in {:.1} s",
        path.display(),
        games.len(),
        s.games_before,
        s.games_labelled,
        s.positions,
        s.elapsed.as_secs_f64()
    )?;
    Ok(())
}

#[derive(Args)]
pub struct SelfplayArgs {
    /// The data file to create or extend.
    #[arg(long, default_value = "selfplay.dat")]
    pub(super) out: PathBuf,
    /// Games 0..N are wanted in the file (at most 10,000,000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=MAX_SELFPLAY_GAMES as i64))]
    pub(super) games: u32,
    /// Run seed (stored in the file; resuming needs the same one).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Depth of the move-choice search.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Solve positions with at most this many empties exactly (labels are exact there).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact_empties: u32,
    /// Random moves after the XOT opening.
    #[arg(long, default_value_t = 2)]
    random_plies: u32,
    /// Probability of a random move instead of the solver's, inside the exact zone only.
    #[arg(long, default_value_t = 0.05)]
    epsilon: f64,
    /// Instead of playing: write the opening positions of this file's games (made before
    /// openings were recorded, with the same --seed and --random-plies) to OUT, labelled
    /// with each game's result.
    #[arg(long, value_name = "DATA")]
    pub(super) openings_of: Option<PathBuf>,
    /// Label earlier positions by a search of this depth instead of the game result.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    label_depth: Option<u32>,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = SHARED_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_SHARED_HASH_MB as u64))]
    hash: u64,
    /// Parallel workers, each with its own search (default: all cores; `--threads` is an old
    /// name of this option).
    #[arg(short = 'j', long = "jobs", alias = "threads", value_name = "JOBS", value_parser = parse_jobs)]
    threads: Option<usize>,
}

/// `othello selfplay`.
pub fn selfplay(args: SelfplayArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    use othello::learn::selfplay::{run_selfplay, write_opening_records, SelfplayConfig};
    let config = SelfplayConfig {
        games: args.games,
        seed: args.seed,
        depth: args.depth,
        exact_empties: args.exact_empties,
        random_plies: args.random_plies,
        epsilon: args.epsilon,
        label_depth: args.label_depth,
        hash_mb: args.hash as usize,
        threads: args.threads.unwrap_or_else(default_threads),
        eval,
    };
    let path = &args.out;
    if let Some(data) = args.openings_of {
        let n = write_opening_records(&config, &data, path)?;
        // As before the split of main.rs: a failed write of this line is not an error.
        let _ = writeln!(out, "{}: {n} opening positions written", path.display());
        return Ok(());
    }
    let s = run_selfplay(&config, path, &super::progress::Bar::reporter(true, true))
        .map_err(|e| workers_error(e, config.threads, args.hash))?;
    writeln!(
        out,
        "{}: {} games already there, {} played, {} positions written in {:.1} s",
        path.display(),
        s.games_before,
        s.games_played,
        s.positions,
        s.elapsed.as_secs_f64()
    )?;
    Ok(())
}

#[derive(Args)]
pub struct CalibrateArgs {
    /// The samples file to create or extend (one line per measured position; default
    /// data/mpc-samples.txt, with --endgame data/end-samples.txt).
    #[arg(long)]
    pub(super) samples: Option<PathBuf>,
    /// The model file to write.
    #[arg(long, default_value = "mpc.txt")]
    pub(super) out: PathBuf,
    /// Positions 0..N are wanted in the samples file (at most 10,000,000).
    #[arg(long, default_value_t = 2000, value_parser = parse_positions)]
    positions: usize,
    /// Deepest full-width search per position (default 12, with --endgame 10).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    depth: Option<u32>,
    /// Run seed (recorded in the samples file; resuming needs the same one).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Calibrate the exact solver's selective passes (endgame ProbCut) instead: solve sampled
    /// positions exactly, fit the exact score against shallow searches, and write the
    /// evaluator's model (or --base) with these `end` lines (see docs/TRANSITION.md).
    #[arg(long)]
    pub(super) endgame: bool,
    /// With --endgame: the empties of the sampled positions, MIN..MAX.
    #[arg(
        long,
        requires = "endgame",
        default_value = "14..24",
        value_name = "MIN..MAX"
    )]
    empties: EmptiesRange,
    /// With --endgame: take the positions from these game files or directories (WTHOR .wtb,
    /// PGN, GGF, transcripts) instead of drawing them.
    #[arg(long, requires = "endgame", num_args = 1.., value_name = "FILE|DIR")]
    pub(super) games: Vec<PathBuf>,
    /// With --endgame: the model file whose midgame lines (and leading comments) the output
    /// keeps (default: the evaluator's model).
    #[arg(long, requires = "endgame", value_name = "FILE")]
    pub(super) base: Option<PathBuf>,
    /// Transposition table per thread, in MiB.
    #[arg(long, default_value_t = SHARED_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_SHARED_HASH_MB as u64))]
    hash: u64,
    /// Parallel workers, each with its own search (default: all cores; `--threads` is an old
    /// name of this option).
    #[arg(short = 'j', long = "jobs", alias = "threads", value_name = "JOBS", value_parser = parse_jobs)]
    threads: Option<usize>,
}

/// `othello calibrate`.
pub fn calibrate(args: CalibrateArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    use othello::learn::calibrate::{fit_model, run_calibration_samples, CalibrateConfig};
    if args.endgame {
        return calibrate_endgame(args, eval, out);
    }
    let CalibrateArgs {
        samples,
        out: path,
        positions,
        depth,
        seed,
        hash,
        threads,
        ..
    } = args;
    let samples = samples.unwrap_or_else(|| PathBuf::from("data/mpc-samples.txt"));
    let depth = depth.unwrap_or(12);
    if depth < 3 {
        return Err(fail("--depth must be 3..=30"));
    }
    let config = CalibrateConfig {
        positions,
        max_depth: depth,
        seed,
        eval,
        hash_mb: hash as usize,
        threads: threads.unwrap_or_else(default_threads),
    };
    create_parent(&samples)?;
    let measured = run_calibration_samples(&config, &samples, std::time::Duration::from_secs(30))
        .map_err(|e| workers_error(e, config.threads, hash))?;
    let model = fit_model(&measured, depth);
    let text = format!(
        "# Multi-ProbCut model: othello calibrate --positions {positions} --depth {depth} --seed {seed}\n# {} samples\n{model}",
        measured.len()
    );
    othello::files::write_atomically(&path, text.as_bytes())?;
    writeln!(
        out,
        "{}: {} fits from {} samples",
        path.display(),
        model.fits().len(),
        measured.len()
    )?;
    Ok(())
}

/// Creates the directory `path` is in, if it names one.
fn create_parent(path: &std::path::Path) -> CliResult {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    }
    Ok(())
}

/// `othello calibrate --endgame`.
fn calibrate_endgame(args: CalibrateArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    use othello::eval::Evaluator;
    use othello::learn::endcal::{
        fit_endgame, fit_grid, run_end_samples, EndCalibrateConfig, EndSource, DEFAULT_DEPTH,
    };
    use othello::search::probcut::model::{MpcModel, DEFAULT_MODEL};
    let samples = args
        .samples
        .unwrap_or_else(|| PathBuf::from("data/end-samples.txt"));
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    let empties = args.empties.0.clone();
    let base_text = match &args.base {
        Some(p) => othello::files::read_to_string(p, othello::files::TEXT_MAX_BYTES)?,
        None => eval.mpc_model_text().unwrap_or(DEFAULT_MODEL).to_string(),
    };
    let base = MpcModel::parse(&base_text).map_err(|e| fail(format!("the base model: {e}")))?;
    let source = if args.games.is_empty() {
        EndSource::Drawn
    } else {
        let (lo, hi) = (*empties.start(), *empties.end());
        let games = read_game_positions(&args.games, Default::default()).map_err(fail)?;
        EndSource::Games(
            games
                .into_iter()
                .map(|g| {
                    g.into_iter()
                        .map(|p| p.board)
                        .filter(|b| (lo..=hi).contains(&b.empty_count()))
                        .collect()
                })
                .collect(),
        )
    };
    let config = EndCalibrateConfig {
        positions: args.positions,
        max_depth: depth,
        seed: args.seed,
        empties: empties.clone(),
        source,
        eval,
        hash_mb: args.hash as usize,
        threads: args.threads.unwrap_or_else(default_threads),
    };
    create_parent(&samples)?;
    let measured = run_end_samples(&config, &samples, std::time::Duration::from_secs(30))
        .map_err(|e| workers_error(e, config.threads, args.hash))?;
    // The measured fits, for the record: sigma (discs) by empties and depth.
    let grid = fit_grid(&measured);
    writeln!(
        out,
        "sigma (discs) of 100*exact = a*v_d + b, by empties (rows) and depth d:"
    )?;
    let depths = grid.iter().map(|g| g.depth + 1).max().unwrap_or(0);
    write!(out, "{:>4} {:>5}", "n", "count")?;
    for d in 0..depths {
        write!(out, " {d:>5}")?;
    }
    writeln!(out)?;
    for n in empties.clone() {
        let row: Vec<_> = grid.iter().filter(|g| g.empties == n).collect();
        let Some(first) = row.first() else { continue };
        write!(out, "{n:>4} {:>5}", first.samples)?;
        for g in row {
            write!(out, " {:>5.2}", fraction_to_discs(g.sigma))?;
        }
        writeln!(out)?;
    }
    let end = fit_endgame(&measured);
    let model = base.with_endgame(end);
    let games = args
        .games
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>();
    let mut command = format!(
        "othello calibrate --endgame --positions {} --depth {depth} --seed {} --empties {}..{}",
        args.positions,
        args.seed,
        empties.start(),
        empties.end()
    );
    if !games.is_empty() {
        command.push_str(&format!(" --games {}", games.join(" ")));
    }
    // The base file's comments before its header, less an older endgame note.
    let mut text = String::new();
    for line in base_text
        .lines()
        .take_while(|l| l.trim_start().starts_with('#'))
    {
        if !line.starts_with("# endgame ProbCut") {
            text.push_str(line);
            text.push('\n');
        }
    }
    text.push_str(&format!(
        "# endgame ProbCut: {command} ({} samples)\n{model}",
        measured.len()
    ));
    othello::files::write_atomically(&args.out, text.as_bytes())?;
    writeln!(
        out,
        "{}: {} end lines from {} samples",
        args.out.display(),
        model.end_fits().len(),
        measured.len()
    )?;
    Ok(())
}

#[derive(Args)]
pub struct EvalErrorArgs {
    /// Data files written by `othello selfplay`.
    #[arg(required = true)]
    pub(super) data: Vec<PathBuf>,
    /// Evaluators to score: default, hand or a weight file (repeatable).
    #[arg(long = "eval", default_values = ["default", "hand"])]
    pub(super) evals: Vec<EvalChoice>,
    /// Fraction of games held out for validation (as given to `train`).
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Seed of the validation split (as given to `train`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instead of data files, score against exact values: OBF files whose moves carry solved
    /// scores (each position and the position after each scored move), by empty squares.
    #[arg(long)]
    pub(super) exact: bool,
}

/// `othello eval-error`.
pub fn eval_error(args: EvalErrorArgs, out: &mut impl Write) -> CliResult {
    let mut loaded = Vec::new();
    for choice in &args.evals {
        let eval = choice
            .load()
            .map_err(|e| fail(format!("--eval {choice}: {e}")))?;
        loaded.push((choice.to_string(), eval));
    }
    if args.exact {
        let mut entries = Vec::new();
        for path in &args.data {
            let parsed = othello::files::read_to_string(path, othello::files::TEXT_MAX_BYTES)
                .map_err(|e| e.source.to_string())
                .and_then(|t| othello::obf::parse_obf(&t).map_err(|e| e.to_string()));
            entries.extend(parsed.map_err(|e| fail(format!("{}: {e}", path.display())))?);
        }
        let samples = othello::learn::error::exact_samples(&entries);
        othello::learn::error::report_by_empties(&loaded, &samples, out)?;
    } else {
        let (samples, _) = othello::learn::train::load_samples(&args.data, false, 0.0, false, out)?;
        othello::learn::error::report(&loaded, &samples, args.seed, args.validation, out)?;
    }
    Ok(())
}

#[derive(Args)]
pub struct TrainArgs {
    /// Data files written by `othello selfplay`.
    #[arg(required = true)]
    pub(super) data: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long, default_value = "weights.bin")]
    pub(super) out: PathBuf,
    /// Number of game phases (1 to 61).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..=61))]
    phases: u32,
    /// Maximum conjugate-gradient iterations.
    #[arg(long, default_value_t = 200)]
    iterations: usize,
    /// L2 regularisation.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Phase smoothing.
    #[arg(long, default_value_t = 2.0)]
    smooth: f64,
    /// Merge positions equal under the board symmetries (one sample each, the mean of their
    /// best labels), e.g. the openings shared by many recorded games.
    #[arg(long)]
    dedup: bool,
    /// Blend every search label of a recorded game with the game's result (its first exact
    /// label, seen from the position's side to move) by this weight, 0 to 1; for files of game
    /// positions, not of deviations (see docs/dev/WEIGHTS.md).
    #[arg(long, default_value_t = 0.0, value_parser = parse_unit)]
    result_mix: f64,
    /// Subtract from every search label of a recorded game the mean offset, at its number of
    /// empties, of the file's search labels from their games' results (see docs/dev/WEIGHTS.md).
    #[arg(long)]
    debias: bool,
    /// Fit a correction to these weights instead of fitting from zero: the regularisation pulls
    /// towards them, and weights the data does not reach keep their values (a weight file with
    /// the same number of phases, or `default` for the embedded pattern weights).
    #[arg(long, value_name = "PATH|default")]
    pub(super) prior: Option<PathBuf>,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Seed of the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Report (and check the validation error) every N iterations.
    #[arg(long, default_value_t = 10)]
    report_every: usize,
    /// Parallel workers over the data (default: all cores; `--threads` is an old name of this
    /// option).
    #[arg(short = 'j', long = "jobs", alias = "threads", value_name = "JOBS", value_parser = parse_jobs)]
    threads: Option<usize>,
}

#[derive(Args)]
pub struct CentreArgs {
    /// The weight file to centre (its `.mpc` model, if any, is copied beside the output).
    pub(super) weights: PathBuf,
    /// The centred weight file to write.
    #[arg(long)]
    pub(super) out: PathBuf,
    /// The depths whose iteration values are averaged, FROM-TO (use an even number of them,
    /// so that the odd/even swing cancels).
    #[arg(long, default_value = "10-19", value_parser = parse_depth_band)]
    depths: (u32, u32),
    /// The shift is full in phases at or above this many empties.
    #[arg(long, default_value_t = 36, value_parser = clap::value_parser!(u32).range(1..=60))]
    full_from: u32,
    /// The shift fades linearly to nothing at this many empties.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(0..=59))]
    zero_at: u32,
    /// At most this many measure-and-shift rounds.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    rounds: u32,
    /// Search threads (1, the default, is deterministic; `-j` is an old name of this option).
    #[arg(long, short_alias = 'j', default_value_t = 1, value_parser = parse_threads)]
    threads: usize,
    /// First balance the value of having the move: measure the signed odd/even swing of
    /// searches of XOT openings and move both parity weights by minus half of it, so that
    /// searches of odd and even depth agree (see docs/dev/WEIGHTS.md, "Centring").
    #[arg(long)]
    tempo: bool,
    /// With --tempo: how many XOT openings are searched.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    tempo_positions: u32,
    /// With --tempo: the depths whose consecutive pairs are measured, FROM-TO.
    #[arg(long, default_value = "5-14", value_parser = parse_depth_band)]
    tempo_depths: (u32, u32),
}

/// A band of search depths `FROM-TO`, 1 ≤ FROM ≤ TO ≤ 40.
fn parse_depth_band(s: &str) -> Result<(u32, u32), String> {
    let err = || format!("{s:?} is not a depth band FROM-TO (1 to 40, e.g. 10-15)");
    let (a, b) = s.split_once('-').ok_or_else(err)?;
    let (a, b) = (a.trim().parse::<u32>(), b.trim().parse::<u32>());
    match (a, b) {
        (Ok(a), Ok(b)) if 1 <= a && a <= b && b <= 40 => Ok((a, b)),
        _ => Err(err()),
    }
}

/// `othello centre`.
pub fn centre(args: CentreArgs, out: &mut impl Write) -> CliResult {
    use othello::learn::centre::{balance_tempo, centre, CentreOptions, ShiftPlan, TempoOptions};
    if args.full_from <= args.zero_at {
        return Err(fail(format!(
            "--full-from {} must be above --zero-at {}",
            args.full_from, args.zero_at
        )));
    }
    let mut eval = othello::eval::pattern::PatternEval::load(&args.weights)
        .map_err(|e| fail(format!("{}: {e}", args.weights.display())))?;
    let plan = ShiftPlan {
        full_from: args.full_from,
        zero_at: args.zero_at,
        rounds: args.rounds as usize,
        threads: args.threads,
        ..ShiftPlan::default()
    };
    let mut lines = Lines::new(out);
    let mut tempo = 0.0;
    if args.tempo {
        let options = TempoOptions {
            positions: args.tempo_positions as usize,
            depths: args.tempo_depths,
            plan: plan.clone(),
        };
        let (from, to) = options.depths;
        (eval, tempo) = balance_tempo(eval, &options, |r| {
            lines.line(format_args!(
                "tempo {:+.3} discs: signed odd/even swing {:+.3} ({} XOT openings, depths {from}-{to})",
                r.shift, r.swing, options.positions
            ))
        })
        .map_err(|e| fail(e.to_string()))?;
    }
    let options = CentreOptions {
        depths: args.depths,
        plan,
    };
    let (from, to) = options.depths;
    let (centred, shift) = centre(eval, &options, |r| {
        lines.line(format_args!(
            "shift {:+.3} discs: start position {:+.3} (mean of depths {from}-{to})",
            r.shift, r.level
        ))
    })
    .map_err(|e| fail(e.to_string()))?;
    let out = lines.finish()?;
    // The model first: weights are never left without the model they were centred with (both
    // paths were checked before the work).
    if let Some(text) = centred.mpc_model_text() {
        let model = args.out.with_extension("mpc");
        othello::files::write_atomically(&model, text.as_bytes())
            .map_err(|e| fail(format!("cannot write {e}")))?;
    }
    centred.save(&args.out).map_err(|e| fail(e.to_string()))?;
    writeln!(
        out,
        "wrote {} (parity weights shifted by {shift:+.3} discs, tempo {tempo:+.3})",
        args.out.display()
    )?;
    Ok(())
}

/// Progress lines written from a callback that cannot return an error: the first write error
/// is kept, later lines are dropped, and [`Lines::finish`] returns it.
struct Lines<'a, W: Write> {
    out: &'a mut W,
    error: Option<std::io::Error>,
}

impl<'a, W: Write> Lines<'a, W> {
    fn new(out: &'a mut W) -> Self {
        Lines { out, error: None }
    }

    fn line(&mut self, args: std::fmt::Arguments) {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{args}") {
                self.error = Some(e);
            }
        }
    }

    /// The writer back, or the first write error.
    fn finish(self) -> std::io::Result<&'a mut W> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }
}

/// A number from 0 to 1.
fn parse_unit(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{s:?} is not a number from 0 to 1")),
    }
}

/// `othello train`.
pub fn train(args: TrainArgs, out: &mut impl Write) -> CliResult {
    let config = othello::learn::train::TrainConfig {
        phases: args.phases as usize,
        iterations: args.iterations,
        lambda: args.lambda,
        smooth: args.smooth,
        validation: args.validation,
        threads: args.threads.unwrap_or_else(default_threads),
        seed: args.seed,
        report_every: args.report_every,
        description: String::new(),
        dedup: args.dedup,
        result_mix: args.result_mix,
        debias: args.debias,
        prior: match &args.prior {
            Some(path) if path.as_os_str() == "default" => {
                Some(othello::eval::builtin::default_pattern())
            }
            Some(path) => Some(std::sync::Arc::new(
                othello::eval::pattern::PatternEval::load(path)
                    .map_err(|e| fail(format!("--prior {}: {e}", path.display())))?,
            )),
            None => None,
        },
    };
    let (jobs, phases) = (config.threads, args.phases);
    othello::learn::train::train_files(&args.data, &config, &args.out, out).map_err(
        |e| match e {
            othello::learn::LearnError::Memory(m) => {
                fail(format!("-j {jobs} with --phases {phases}: {m}"))
            }
            e => e.into(),
        },
    )?;
    Ok(())
}
