//! The `othello` binary: argument parsing only; everything else lives in the library.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use othello::arena::{self, OpeningSource, SeriesConfig, Sprt};
use othello::board::{Board, Position};
use othello::players::PlayerSpec;

#[derive(Parser)]
#[command(
    name = "othello",
    version,
    about = "A bitboard Othello engine (NBoard protocol by default)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The engine's evaluation: a pattern weight file, `hand` (the hand-tuned evaluator) or
    /// `default` (the embedded weights). In match, tournament and play it applies to `engine`
    /// players without `eval=`. A file that cannot be used stops the program; without this
    /// option, $OTHELLO_EVAL_FILE is tried and the embedded weights are the fallback.
    #[arg(long, global = true, value_name = "PATH|hand|default")]
    eval_file: Option<othello::eval::EvalChoice>,
}

/// `spec` with the global `--eval-file` choice, if it is an engine that names no evaluator.
fn with_global_eval(spec: PlayerSpec, choice: Option<&othello::eval::EvalChoice>) -> PlayerSpec {
    match (spec, choice) {
        (PlayerSpec::Engine(mut settings), Some(choice))
            if settings.eval == othello::eval::EvalChoice::Default =>
        {
            settings.eval = choice.clone();
            PlayerSpec::Engine(settings)
        }
        (spec, _) => spec,
    }
}

/// The environment variable naming a weight file when `--eval-file` is not given.
const EVAL_ENV: &str = "OTHELLO_EVAL_FILE";

/// The evaluator to run with: `--eval-file` if given (an unusable file is an error), else
/// `$OTHELLO_EVAL_FILE` (an unusable file is logged and the embedded weights are used), else
/// the embedded weights.
fn engine_eval(
    explicit: Option<&othello::eval::EvalChoice>,
) -> Result<othello::eval::EngineEval, String> {
    use othello::eval::{EngineEval, EvalChoice};
    if let Some(choice) = explicit {
        let eval = choice
            .load()
            .map_err(|e| format!("--eval-file {choice}: {e}"))?;
        // The Multi-ProbCut model beside the weights must be usable too.
        use othello::eval::Evaluator;
        if let Some(text) = eval.mpc_model_text() {
            othello::search::mpc::MpcModel::parse(text)
                .map_err(|e| format!("--eval-file {choice}: its .mpc model: {e}"))?;
        }
        return Ok(eval);
    }
    match std::env::var_os(EVAL_ENV) {
        Some(v) if !v.is_empty() => {
            let choice = EvalChoice::File(v.into());
            choice.load().or_else(|e| {
                log::warn!("${EVAL_ENV}={choice}: {e}; using the embedded weights");
                Ok(EngineEval::default())
            })
        }
        _ => Ok(EngineEval::default()),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Speak the NBoard protocol on stdin/stdout (also what `othello` alone does).
    Nboard,
    /// Count the leaves of the game tree to each depth up to N (pass = one ply).
    Perft {
        /// The deepest depth to count.
        depth: u32,
        /// The position, as a 64-square board string plus side to move (default: the start).
        #[arg(long, value_parser = parse_board, allow_hyphen_values = true)]
        board: Option<Position>,
    },
    /// Search positions with iterative deepening, printing every iteration.
    Search {
        /// The position, as a board string (default: the start).
        #[arg(long, value_parser = parse_board, conflicts_with = "xot", allow_hyphen_values = true)]
        board: Option<Position>,
        /// Search the first N XOT openings instead.
        #[arg(long)]
        xot: Option<usize>,
        /// Maximum midgame depth.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Time per position, in seconds.
        #[arg(long, value_parser = parse_seconds)]
        time: Option<std::time::Duration>,
        /// Node budget per position.
        #[arg(long)]
        nodes: Option<u64>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
        /// Midgame forward pruning: 73, 87, 95, 98, 99 (percent of Multi-ProbCut cuts expected
        /// right) or 100 (none).
        #[arg(long, default_value = "73", value_name = "PERCENT")]
        selectivity: othello::search::SelectivitySetting,
    },
    /// Run the fixed benchmark searches; prints the node-count signature and the speed.
    Bench,
    /// Solve every position of an OBF file and compare with its scores (exit 1 on a mismatch).
    Solve {
        /// The OBF file.
        file: std::path::PathBuf,
        /// Solve for win/loss/draw only.
        #[arg(long)]
        wld: bool,
        /// Search threads (only 1 is supported).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1))]
        threads: u32,
        #[command(flatten)]
        batch: ObfBatch,
    },
    /// Search every position of an OBF file that scores all moves, and measure the chosen
    /// moves against the file: best-move rate and mean loss in discs (exit 1 if a chosen move
    /// is not in the file). Needs --depth, --time or --nodes.
    #[command(group(
        clap::ArgGroup::new("limit")
            .required(true)
            .multiple(true)
            .args(["depth", "time", "nodes"])
    ))]
    Quality {
        /// The OBF file, with every legal move's exact score (e.g. tests/data/quality-30.obf).
        file: std::path::PathBuf,
        /// Midgame depth of every search.
        #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Time per position, in seconds (e.g. 0.04).
        #[arg(long, value_name = "S", value_parser = parse_seconds)]
        time: Option<std::time::Duration>,
        /// Node budget per position.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        #[command(flatten)]
        batch: ObfBatch,
        /// Midgame forward pruning: 73, 87, 95, 98, 99 (percent of Multi-ProbCut cuts expected
        /// right) or 100 (none).
        #[arg(long, default_value = "73", value_name = "PERCENT")]
        selectivity: othello::search::SelectivitySetting,
    },
    /// Label the positions of recorded games for training (appends to OUT; games already
    /// there are skipped): exact solves near the end, the game result (or a search score)
    /// before. See docs/WEIGHTS.md.
    Label {
        /// Game files or directories (WTHOR .wtb, PGN, GGF, transcripts), in this order.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        #[command(flatten)]
        input: GamesInput,
        /// The data file to create or extend.
        #[arg(long)]
        out: std::path::PathBuf,
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
        /// Forward pruning of those searches: 73, 87, 95, 98, 99 or 100 (none).
        #[arg(long, default_value = "73", value_name = "PERCENT")]
        selectivity: othello::search::SelectivitySetting,
        /// Transposition table per thread, in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hash: u64,
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long)]
        threads: Option<usize>,
    },
    /// Generate training data by self-play (appends to OUT; games already there are skipped).
    Selfplay {
        /// The data file to create or extend.
        #[arg(long, default_value = "selfplay.dat")]
        out: std::path::PathBuf,
        /// Games 0..N are wanted in the file.
        #[arg(long, default_value_t = 1000)]
        games: u32,
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
        openings_of: Option<std::path::PathBuf>,
        /// Label earlier positions by a search of this depth instead of the game result.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
        label_depth: Option<u32>,
        /// Transposition table per thread, in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hash: u64,
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long)]
        threads: Option<usize>,
    },
    /// Fit the midgame Multi-ProbCut model: measure shallow against deep full-width searches
    /// on sampled positions (resumable), then write the model file.
    Calibrate {
        /// The samples file to create or extend (one line per measured position).
        #[arg(long, default_value = "data/mpc-samples.txt")]
        samples: std::path::PathBuf,
        /// The model file to write.
        #[arg(long, default_value = "mpc.txt")]
        out: std::path::PathBuf,
        /// Positions 0..N are wanted in the samples file.
        #[arg(long, default_value_t = 2000)]
        positions: usize,
        /// Deepest full-width search per position.
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(3..=30))]
        depth: u32,
        /// Run seed (recorded in the samples file; resuming needs the same one).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Transposition table per thread, in MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hash: u64,
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long)]
        threads: Option<usize>,
    },
    /// Score evaluators against the labels of the validation games of self-play data.
    EvalError {
        /// Data files written by `othello selfplay`.
        #[arg(required = true)]
        data: Vec<std::path::PathBuf>,
        /// Evaluators to score: default, hand or a weight file (repeatable).
        #[arg(long = "eval", default_values = ["default", "hand"])]
        evals: Vec<othello::eval::EvalChoice>,
        /// Fraction of games held out for validation (as given to `train`).
        #[arg(long, default_value_t = 0.1)]
        validation: f64,
        /// Seed of the validation split (as given to `train`).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead of data files, score against exact values: OBF files whose moves carry solved
        /// scores (each position and the position after each scored move), by empty squares.
        #[arg(long)]
        exact: bool,
    },
    /// Fit pattern weights to self-play data and write a weight file.
    Train {
        /// Data files written by `othello selfplay`.
        #[arg(required = true)]
        data: Vec<std::path::PathBuf>,
        /// The weight file to write.
        #[arg(long, default_value = "weights.bin")]
        out: std::path::PathBuf,
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
        /// Fraction of games held out for validation.
        #[arg(long, default_value_t = 0.1)]
        validation: f64,
        /// Seed of the validation split.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Report (and check the validation error) every N iterations.
        #[arg(long, default_value_t = 10)]
        report_every: usize,
        /// Threads (default: all cores).
        #[arg(short = 'j', long)]
        threads: Option<usize>,
    },
    /// Play a match between two players: paired games from XOT or random openings, with
    /// clocks, concurrency, Elo and SPRT. Results are from A's side.
    Match {
        /// Player A (e.g. engine, iago:4, maximizer:weighted, nboard:self=target/release/othello).
        a: PlayerSpec,
        /// Player B.
        b: PlayerSpec,
        /// Pairs of games (each opening twice, colours swapped).
        #[arg(long, conflicts_with = "games")]
        pairs: Option<usize>,
        /// Games (rounded up to whole pairs).
        #[arg(long)]
        games: Option<usize>,
        /// An SPRT: stop when H0 (Elo = elo0) or H1 (Elo = elo1) is accepted.
        #[arg(long, value_name = "ELO0,ELO1")]
        sprt: Option<Sprt>,
        /// The SPRT's false positive rate.
        #[arg(long, default_value_t = 0.05, requires = "sprt")]
        alpha: f64,
        /// The SPRT's false negative rate.
        #[arg(long, default_value_t = 0.05, requires = "sprt")]
        beta: f64,
        #[command(flatten)]
        series: SeriesArgs,
    },
    /// Play a round robin (PAIP's round-robin): every player against every other, paired
    /// games; prints the table of points.
    Tournament {
        /// The players (at least two).
        #[arg(required = true, num_args = 2..)]
        players: Vec<PlayerSpec>,
        /// Pairs of games per pairing.
        #[arg(long, default_value_t = 5)]
        pairs: usize,
        #[command(flatten)]
        series: SeriesArgs,
    },
    /// Play a game in the terminal against any player (moves like f5; pass, undo, hint,
    /// resign, quit).
    Play {
        /// The opponent (default: the engine).
        #[arg(default_value = "engine")]
        opponent: PlayerSpec,
        /// Your colour: black (moves first) or white.
        #[arg(long, default_value = "black", value_parser = ["black", "white"])]
        color: String,
        /// Clock per side, SECONDS[+INCREMENT] (default: untimed).
        #[arg(long)]
        time: Option<String>,
        /// Grace margin in seconds past the clock before a side loses on time.
        #[arg(long, default_value_t = arena::series::DEFAULT_GRACE_SECS)]
        grace: f64,
        /// Seconds the engine thinks for a hint.
        #[arg(long, default_value_t = 1.0)]
        hint_time: f64,
        /// Where to save the game (default: othello-game-<unix time>.ggf).
        #[arg(long)]
        ggf: Option<std::path::PathBuf>,
    },
    /// Game databases (WTHOR .wtb, PGN, GGF, transcripts): statistics, conversion, and the
    /// export of their distinct positions. See docs/GAMES.md.
    Games {
        #[command(subcommand)]
        command: GamesCommand,
    },
    /// An NBoard engine that misbehaves on purpose (for tests of the match driver).
    #[command(hide = true)]
    FakeEngine {
        /// good, illegal, garbage, slow, crash or hang.
        #[arg(long)]
        mode: arena::fake::FakeMode,
        /// Which `go` misbehaves (from 1).
        #[arg(long, default_value_t = 3)]
        at: u32,
        /// Seconds `slow` sleeps.
        #[arg(long, default_value_t = 2.0)]
        sleep: f64,
        /// Append every line received to this file.
        #[arg(long)]
        transcript: Option<std::path::PathBuf>,
    },
}

/// `othello games` subcommands.
#[derive(Subcommand)]
enum GamesCommand {
    /// Per file: games, positions (moves + 1 per game), complete games (board full or both
    /// sides blocked), Black wins, draws and White wins by the replayed score, mean moves per
    /// game; then the totals and the time taken.
    Stats {
        /// Game files, or directories (their .wtb, .pgn, .ggf and .txt files, sorted by name).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<std::path::PathBuf>,
        #[command(flatten)]
        input: GamesInput,
    },
    /// Read all the games of the inputs and write them, in order, to one file.
    Convert {
        /// Game files, or directories (their .wtb, .pgn, .ggf and .txt files, sorted by name).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<std::path::PathBuf>,
        /// The output format: wtb, pgn, ggf or txt (default: from the --out extension). A .wtb
        /// keeps the tournament and player numbers of games read from a .wtb, 0 otherwise.
        #[arg(long, value_name = "FORMAT")]
        to: Option<othello::gamedb::Format>,
        /// The file to write (replaced atomically).
        #[arg(long, value_name = "PATH")]
        out: std::path::PathBuf,
        #[command(flatten)]
        input: GamesInput,
    },
    /// Write the distinct positions of the games (up to the 8 symmetries, first occurrence
    /// kept, only positions whose side to move has a legal move), one per line.
    Export {
        /// Game files, or directories (their .wtb, .pgn, .ggf and .txt files, sorted by name).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<std::path::PathBuf>,
        /// The file to write (replaced atomically).
        #[arg(long, value_name = "PATH")]
        out: std::path::PathBuf,
        /// Only positions with this many empty squares: MIN..MAX, both included (also ..MAX,
        /// MIN.., N).
        #[arg(long, default_value = "0..60", value_name = "MIN..MAX")]
        empties: othello::gamedb::export::EmptiesRange,
        /// obf (OBF lines without scores) or board (board strings).
        #[arg(long, default_value = "obf", value_name = "obf|board")]
        format: othello::gamedb::export::ExportFormat,
        #[command(flatten)]
        input: GamesInput,
    },
}

/// How `othello games` reads its inputs.
#[derive(Args)]
struct GamesInput {
    /// Read every input in this format (wtb, pgn, ggf or txt) instead of the one its extension
    /// implies (.wtb, .pgn, .ggf; anything else is a transcript).
    #[arg(long, value_name = "FORMAT")]
    from: Option<othello::gamedb::Format>,
    /// WTHOR player names for .wtb inputs (default: WTHOR.JOU beside each .wtb file).
    #[arg(long, value_name = "WTHOR.JOU")]
    players: Option<std::path::PathBuf>,
    /// WTHOR tournament names for .wtb inputs (default: WTHOR.TRN beside each .wtb file).
    #[arg(long, value_name = "WTHOR.TRN")]
    tournaments: Option<std::path::PathBuf>,
}

impl GamesInput {
    fn options(self) -> othello::gamedb::ReadOptions {
        othello::gamedb::ReadOptions {
            format: self.from,
            players: self.players,
            tournaments: self.tournaments,
        }
    }
}

/// The limits of a search without a game clock (`search`, `quality`).
fn fixed_limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<std::time::Duration>,
) -> othello::search::Limits {
    othello::search::Limits {
        depth,
        nodes,
        move_time,
        clock: None,
    }
}

/// The games of `files`, each as the positions it went through (for `othello label`).
fn read_game_positions(
    files: &[std::path::PathBuf],
    options: othello::gamedb::ReadOptions,
) -> Result<Vec<Vec<othello::board::Position>>, String> {
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

/// Runs an `othello games` subcommand.
fn run_games(
    command: GamesCommand,
    out: &mut impl std::io::Write,
) -> Result<(), othello::gamedb::GameDbError> {
    use othello::gamedb;
    match command {
        GamesCommand::Stats { files, input } => {
            gamedb::stats::run_stats(&files, &input.options(), out)?;
        }
        GamesCommand::Convert {
            files,
            to,
            out: path,
            input,
        } => {
            let format = to.unwrap_or_else(|| gamedb::Format::from_path(&path));
            let (n_files, n_games) =
                gamedb::convert(&files, &input.options(), Some(format), &path)?;
            writeln!(
                out,
                "{}: {n_games} games from {n_files} files written as {format}",
                path.display()
            )
            .map_err(|e| gamedb::GameDbError::io(&path, e))?;
        }
        GamesCommand::Export {
            files,
            out: path,
            empties,
            format,
            input,
        } => {
            gamedb::export::run_export(&files, &input.options(), &empties, format, &path, out)?;
        }
    }
    Ok(())
}

/// Options shared by `match` and `tournament`.
#[derive(Args)]
struct SeriesArgs {
    /// Openings: xot (bundled list), random:N (N random plies, PAIP's random series) or start.
    #[arg(long)]
    openings: Option<OpeningSource>,
    /// Seed for openings and random players (same seed, same games for deterministic players).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Clock per game and side, SECONDS[+INCREMENT], e.g. 60+0.5.
    #[arg(long, conflicts_with = "depth")]
    time: Option<String>,
    /// Depth limit for the players that take one (engine, NBoard engines).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Games played at once.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
    /// Grace margin in seconds: a side loses on time when its clock is below minus this.
    #[arg(long, default_value_t = arena::series::DEFAULT_GRACE_SECS)]
    grace: f64,
    /// In untimed games, seconds after which a silent engine forfeits.
    #[arg(long, default_value_t = arena::series::DEFAULT_MOVE_TIMEOUT_SECS as f64)]
    move_timeout: f64,
    /// Write every game to this GGF file, one per line.
    #[arg(long)]
    ggf: Option<std::path::PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

impl SeriesArgs {
    fn config(&self, default_openings: OpeningSource) -> Result<SeriesConfig, String> {
        let clock = match &self.time {
            Some(t) => {
                Some(arena::command::parse_time_control(t, self.grace).map_err(|e| e.to_string())?)
            }
            None => None,
        };
        if !(self.move_timeout.is_finite() && self.move_timeout > 0.0 && self.move_timeout < 1e6) {
            return Err(format!("bad --move-timeout {}", self.move_timeout));
        }
        Ok(SeriesConfig {
            openings: self.openings.unwrap_or(default_openings),
            seed: self.seed,
            clock,
            depth: self.depth,
            concurrency: self.jobs as usize,
            move_timeout: std::time::Duration::from_secs_f64(self.move_timeout),
            ..SeriesConfig::default()
        })
    }
}

fn parse_board(s: &str) -> Result<Position, String> {
    s.parse::<Position>().map_err(|e| e.to_string())
}

fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x < 1e6 => Ok(std::time::Duration::from_secs_f64(x)),
        _ => Err(format!("expected a positive number of seconds, got {s:?}")),
    }
}

/// The options `solve` and `quality` share: which positions of the file, how they are
/// numbered, and the table size.
#[derive(Args)]
struct ObfBatch {
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// Number shown for the first position (e.g. 40 for fforum-40-59.obf).
    #[arg(long, default_value_t = 1)]
    first: usize,
    /// Only the file's first N positions (e.g. 10 for FFO #40-#49).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    count: Option<u64>,
}

/// The entries of an OBF file, only the first `count` if given; the error is the message to show.
fn read_obf(
    file: &std::path::Path,
    count: Option<u64>,
) -> Result<Vec<othello::obf::ObfEntry>, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut entries =
        othello::obf::parse_obf(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    if let Some(n) = count {
        entries.truncate(n.min(entries.len() as u64) as usize);
    }
    Ok(entries)
}

fn fail(message: String) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let eval = match engine_eval(cli.eval_file.as_ref()) {
        Ok(e) => e,
        Err(message) => return fail(message),
    };
    let mut out = std::io::stdout().lock();
    let result = match cli.command {
        Some(Command::Perft { depth, board }) => {
            let board = board.map_or(Board::start(), |p| p.board);
            othello::commands::run_perft(&board, depth, &mut out).map(|_| ())
        }
        Some(Command::Search {
            board,
            xot,
            depth,
            time,
            nodes,
            hash,
            selectivity,
        }) => {
            let positions: Vec<(String, Board)> = match xot {
                Some(n) => othello::xot::openings()
                    .take(n)
                    .filter_map(|l| Some((l.to_string(), othello::xot::position_after(l)?.board)))
                    .collect(),
                None => {
                    let pos = board.unwrap_or(Position::start());
                    vec![(pos.to_board_string(), pos.board)]
                }
            };
            let options = othello::commands::SearchOptions {
                limits: fixed_limits(depth, nodes, time),
                hash_mb: hash as usize,
                eval,
                selectivity: selectivity.0,
            };
            othello::commands::run_search(&positions, &options, &mut out).map(|_| ())
        }
        Some(Command::Bench) => othello::commands::run_bench(&eval, &mut out).map(|_| ()),
        Some(Command::Solve {
            file,
            wld,
            threads: _,
            batch: ObfBatch { hash, first, count },
        }) => {
            let entries = match read_obf(&file, count) {
                Ok(e) => e,
                Err(message) => return fail(message),
            };
            let entries = &entries[..];
            let options = othello::commands::SolveOptions {
                wld,
                hash_mb: hash as usize,
                first_number: first,
                eval,
            };
            match othello::commands::run_solve(entries, &options, &mut out) {
                Ok(s) if s.mismatches > 0 => return ExitCode::FAILURE,
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        }
        Some(Command::Quality {
            file,
            depth,
            time,
            nodes,
            batch: ObfBatch { hash, first, count },
            selectivity,
        }) => {
            let entries = match read_obf(&file, count) {
                Ok(e) => e,
                Err(message) => return fail(message),
            };
            let options = othello::quality::QualityOptions {
                limits: fixed_limits(depth, nodes, time),
                hash_mb: hash as usize,
                first_number: first,
                eval,
                selectivity: selectivity.0,
            };
            match othello::quality::run_quality(&entries, &options, &mut out) {
                Ok(s) if s.errors > 0 => {
                    return fail(format!(
                        "{}: {} positions could not be scored (see the rows marked error)",
                        file.display(),
                        s.errors
                    ))
                }
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        }
        Some(Command::Match {
            a,
            b,
            pairs,
            games,
            sprt,
            alpha,
            beta,
            series,
        }) => {
            let config = match series.config(OpeningSource::Xot) {
                Ok(c) => c,
                Err(e) => return fail(e),
            };
            let sprt = sprt.map(|s| Sprt { alpha, beta, ..s });
            let options = arena::MatchOptions {
                a: with_global_eval(a, cli.eval_file.as_ref()),
                b: with_global_eval(b, cli.eval_file.as_ref()),
                pairs: pairs.or(games.map(|g| g.div_ceil(2))).unwrap_or(10),
                config: SeriesConfig {
                    place: "othello match".to_string(),
                    ..config
                },
                sprt,
                ggf: series.ggf,
                progress: !series.quiet,
            };
            match arena::run_match(&options) {
                Ok(summary) => {
                    use std::io::Write;
                    write!(out, "{summary}")
                }
                Err(e) => return fail(e.to_string()),
            }
        }
        Some(Command::Tournament {
            players,
            pairs,
            series,
        }) => {
            let config = match series.config(OpeningSource::Random(10)) {
                Ok(c) => c,
                Err(e) => return fail(e),
            };
            let options = arena::TournamentOptions {
                players: players
                    .into_iter()
                    .map(|p| with_global_eval(p, cli.eval_file.as_ref()))
                    .collect(),
                pairs,
                config: SeriesConfig {
                    place: "othello tournament".to_string(),
                    ..config
                },
                ggf: series.ggf,
                progress: !series.quiet,
            };
            match arena::run_tournament(&options) {
                Ok(table) => {
                    use std::io::Write;
                    write!(out, "{table}")
                }
                Err(e) => return fail(e.to_string()),
            }
        }
        Some(Command::Play {
            opponent,
            color,
            time,
            grace,
            hint_time,
            ggf,
        }) => {
            let clock = match time.map(|t| arena::command::parse_time_control(&t, grace)) {
                Some(Err(e)) => return fail(e.to_string()),
                Some(Ok(c)) => Some(c),
                None => None,
            };
            if !(hint_time.is_finite() && hint_time > 0.0 && hint_time < 1e6) {
                return fail(format!("bad --hint-time {hint_time}"));
            }
            let opponent = with_global_eval(opponent, cli.eval_file.as_ref());
            let mut player = match opponent.build() {
                Ok(p) => p,
                Err(e) => return fail(e.to_string()),
            };
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let options = othello::play::PlayOptions {
                human: if color == "white" {
                    othello::Color::White
                } else {
                    othello::Color::Black
                },
                clock,
                ggf_path: ggf.unwrap_or_else(|| format!("othello-game-{now}.ggf").into()),
                hint_limits: othello::search::Limits {
                    move_time: Some(std::time::Duration::from_secs_f64(hint_time)),
                    ..Default::default()
                },
                seed: now,
                hint_eval: eval,
                ..Default::default()
            };
            let stdin = std::io::stdin().lock();
            match othello::play::play(stdin, &mut out, player.as_mut(), &options) {
                Ok(_) => Ok(()),
                Err(e) => return fail(e.to_string()),
            }
        }
        Some(Command::Games { command }) => match run_games(command, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return fail(e.to_string()),
        },
        Some(Command::FakeEngine {
            mode,
            at,
            sleep,
            transcript,
        }) => {
            drop(out);
            let options = arena::fake::FakeOptions {
                transcript,
                mode,
                at,
                sleep: std::time::Duration::from_secs_f64(sleep.clamp(0.0, 1e6)),
            };
            let stdin = std::io::stdin().lock();
            match arena::fake::run_fake(stdin, std::io::stdout().lock(), options) {
                Ok(arena::fake::FakeExit::Crash) => std::process::exit(3),
                Ok(arena::fake::FakeExit::Quit) => Ok(()),
                Err(e) => Err(e),
            }
        }
        Some(Command::Label {
            files,
            input,
            out: path,
            exact_empties,
            depth,
            above,
            selectivity,
            hash,
            threads,
        }) => {
            let config = othello::learn::label::LabelConfig {
                exact_empties,
                depth,
                above,
                selectivity: selectivity.0,
                hash_mb: hash as usize,
                threads: threads.unwrap_or_else(othello::learn::selfplay::default_threads),
                eval,
            };
            let games = match read_game_positions(&files, input.options()) {
                Ok(g) => g,
                Err(e) => return fail(e),
            };
            match othello::learn::label::run_label(&config, &games, &path, true) {
                Ok(s) => {
                    use std::io::Write;
                    writeln!(
                        out,
                        "{}: {} games read, {} already there, {} labelled, {} positions written in {:.1} s",
                        path.display(),
                        games.len(),
                        s.games_before,
                        s.games_labelled,
                        s.positions,
                        s.elapsed.as_secs_f64()
                    )
                }
                Err(e) => return fail(e.to_string()),
            }
        }
        Some(Command::Selfplay {
            out: path,
            games,
            seed,
            depth,
            exact_empties,
            random_plies,
            epsilon,
            label_depth,
            openings_of,
            hash,
            threads,
        }) => {
            use othello::learn::selfplay::{default_threads, run_selfplay};
            let config = othello::learn::selfplay::SelfplayConfig {
                games,
                seed,
                depth,
                exact_empties,
                random_plies,
                epsilon,
                label_depth,
                hash_mb: hash as usize,
                threads: threads.unwrap_or_else(default_threads),
                eval,
            };
            if let Some(data) = openings_of {
                use std::io::Write;
                return match othello::learn::selfplay::write_opening_records(&config, &data, &path)
                {
                    Ok(n) => {
                        let _ = writeln!(out, "{}: {n} opening positions written", path.display());
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(e.to_string()),
                };
            }
            match run_selfplay(&config, &path, true) {
                Ok(s) => {
                    use std::io::Write;
                    writeln!(
                        out,
                        "{}: {} games already there, {} played, {} positions written in {:.1} s",
                        path.display(),
                        s.games_before,
                        s.games_played,
                        s.positions,
                        s.elapsed.as_secs_f64()
                    )
                }
                Err(e) => return fail(e.to_string()),
            }
        }
        Some(Command::Train {
            data,
            out: path,
            phases,
            iterations,
            lambda,
            smooth,
            dedup,
            validation,
            seed,
            report_every,
            threads,
        }) => {
            let config = othello::learn::train::TrainConfig {
                phases: phases as usize,
                iterations,
                lambda,
                smooth,
                validation,
                threads: threads.unwrap_or_else(othello::learn::selfplay::default_threads),
                seed,
                report_every,
                description: String::new(),
                dedup,
            };
            match othello::learn::train::train_files(&data, &config, &path, &mut out) {
                Ok(_) => Ok(()),
                Err(e) => return fail(e.to_string()),
            }
        }
        Some(Command::Calibrate {
            samples,
            out: path,
            positions,
            depth,
            seed,
            hash,
            threads,
        }) => {
            use othello::learn::calibrate::{fit_model, run_calibration_samples, CalibrateConfig};
            let config = CalibrateConfig {
                positions,
                max_depth: depth,
                seed,
                eval,
                hash_mb: hash as usize,
                threads: threads.unwrap_or_else(othello::learn::selfplay::default_threads),
            };
            if let Some(dir) = samples.parent().filter(|d| !d.as_os_str().is_empty()) {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    return fail(format!("{}: {e}", dir.display()));
                }
            }
            let measured = match run_calibration_samples(
                &config,
                &samples,
                std::time::Duration::from_secs(30),
            ) {
                Ok(m) => m,
                Err(e) => return fail(e.to_string()),
            };
            let model = fit_model(&measured, depth);
            let text = format!(
                "# Multi-ProbCut model: othello calibrate --positions {positions} --depth {depth} --seed {seed}\n# {} samples\n{model}",
                measured.len()
            );
            match std::fs::write(&path, text) {
                Ok(()) => {
                    use std::io::Write;
                    writeln!(
                        out,
                        "{}: {} fits from {} samples",
                        path.display(),
                        model.fits().len(),
                        measured.len()
                    )
                }
                Err(e) => return fail(format!("{}: {e}", path.display())),
            }
        }
        Some(Command::EvalError {
            data,
            evals,
            validation,
            seed,
            exact,
        }) => {
            let mut loaded = Vec::new();
            for choice in &evals {
                match choice.load() {
                    Ok(e) => loaded.push((choice.to_string(), e)),
                    Err(e) => return fail(format!("--eval {choice}: {e}")),
                }
            }
            let run = if exact {
                let mut entries = Vec::new();
                for path in &data {
                    let parsed = std::fs::read_to_string(path)
                        .map_err(|e| e.to_string())
                        .and_then(|t| othello::obf::parse_obf(&t).map_err(|e| e.to_string()));
                    match parsed {
                        Ok(e) => entries.extend(e),
                        Err(e) => return fail(format!("{}: {e}", path.display())),
                    }
                }
                let samples = othello::learn::error::exact_samples(&entries);
                othello::learn::error::report_by_empties(&loaded, &samples, &mut out)
            } else {
                othello::learn::train::load_samples(&data, false, &mut out).and_then(|(s, _)| {
                    othello::learn::error::report(&loaded, &s, seed, validation, &mut out)
                })
            };
            match run {
                Ok(()) => Ok(()),
                Err(e) => return fail(e.to_string()),
            }
        }
        None | Some(Command::Nboard) => {
            drop(out);
            othello::protocol::run_stdio(eval)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
