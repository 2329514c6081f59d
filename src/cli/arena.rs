//! Games between players: `match`, `tournament`, and `play` (a person in the terminal).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use othello::arena::{self, Opening, OpeningSource, SeriesConfig, Sprt};
use othello::board::Position;
use othello::clock::{TimeControl, MATCH_GRACE_SECS};
use othello::eval::EngineEval;
use othello::players::PlayerSpec;
use othello::review::audit::{AuditOptions, AuditPoints};
use othello::weights::EvalChoice;

use super::play::{self, PlayOptions};
use super::{fail, with_global_eval, CliError, CliResult};

/// Options shared by `match` and `tournament`.
#[derive(Args)]
pub struct SeriesArgs {
    /// Openings: xot (bundled list), xot+N (each XOT line and N random plies, so that
    /// deterministic players do not replay a game when a line comes back), random:N (N random
    /// plies, PAIP's random series), start, or file:PATH (one move string a line, e.g.
    /// f5d6c3d3; `#` comments), drawn as xot is.
    #[arg(long)]
    pub(super) openings: Option<OpeningSource>,
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
    #[arg(long, default_value_t = MATCH_GRACE_SECS)]
    grace: f64,
    /// In untimed games, seconds after which a silent engine forfeits.
    #[arg(long, default_value_t = arena::series::DEFAULT_MOVE_TIMEOUT_SECS as f64)]
    move_timeout: f64,
    /// Seconds an external (nboard:) engine may take to start, from its launch to its first
    /// `pong`; an engine that does not answer in time is a fault.
    #[arg(long, default_value_t = othello::players::nboard::STARTUP_TIMEOUT_SECS as f64)]
    startup_timeout: f64,
    /// Write every game to this GGF file, one per line.
    #[arg(long)]
    pub(super) ggf: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

impl SeriesArgs {
    fn config(
        &self,
        default_openings: OpeningSource,
        place: &str,
    ) -> Result<SeriesConfig, CliError> {
        let clock = match &self.time {
            Some(t) => Some(TimeControl::parse_match(t, self.grace)?),
            None => None,
        };
        if !(self.move_timeout.is_finite() && self.move_timeout > 0.0 && self.move_timeout < 1e6) {
            return Err(fail(format!("bad --move-timeout {}", self.move_timeout)));
        }
        if !(self.startup_timeout.is_finite()
            && self.startup_timeout > 0.0
            && self.startup_timeout < 1e6)
        {
            return Err(fail(format!(
                "bad --startup-timeout {}",
                self.startup_timeout
            )));
        }
        Ok(SeriesConfig {
            openings: self.openings.clone().unwrap_or(default_openings),
            seed: self.seed,
            clock,
            clock_b: None,
            depth: self.depth,
            concurrency: self.jobs as usize,
            move_timeout: Duration::from_secs_f64(self.move_timeout),
            startup_timeout: Duration::from_secs_f64(self.startup_timeout),
            place: place.to_string(),
        })
    }
}

/// A series' error; an engine whose table could not be had names `-j` too, since every game
/// played at once has its two engines, each with its table.
fn series_error(e: arena::ArenaError, config: &SeriesConfig) -> CliError {
    use othello::arena::series::SeriesError;
    use othello::players::PlayerError;
    match &e {
        arena::ArenaError::Series(SeriesError::Player {
            source: PlayerError::Memory(_),
            ..
        }) => fail(format!(
            "-j {} (two engines a game, each with its table; hash= sets its size): {e}",
            config.concurrency
        )),
        _ => e.into(),
    }
}

/// An error rate of the SPRT: a finite number strictly between 0 and 1 (`2`, `inf` or `NaN`
/// would make its bounds meaningless: a test that stops at once, or never).
fn parse_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!(
            "{s:?} is not an error rate: a number strictly between 0 and 1, e.g. 0.05"
        )),
    }
}

#[derive(Args)]
pub struct MatchArgs {
    /// Player A (e.g. engine, iago:4, maximizer:weighted, nboard:self=target/release/othello).
    pub(super) a: PlayerSpec,
    /// Player B.
    pub(super) b: PlayerSpec,
    /// Pairs of games (each opening twice, colours swapped).
    #[arg(long, conflicts_with = "games")]
    pairs: Option<usize>,
    /// Games (rounded up to whole pairs).
    #[arg(long)]
    games: Option<usize>,
    /// An SPRT: stop when H0 (Elo = elo0) or H1 (Elo = elo1) is accepted.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<Sprt>,
    /// The SPRT's false positive rate, strictly between 0 and 1.
    #[arg(long, default_value_t = 0.05, requires = "sprt", value_parser = parse_rate)]
    alpha: f64,
    /// The SPRT's false negative rate, strictly between 0 and 1.
    #[arg(long, default_value_t = 0.05, requires = "sprt", value_parser = parse_rate)]
    beta: f64,
    /// After all games are played, audit them against exact values from each of these numbers
    /// of empty squares (1 to 40), e.g. 24 or 24,20: per side, the exact value at the point,
    /// the discs lost by its own moves to the end, the final result and the games whose
    /// outcome changed. Uses -j workers; see docs/REVIEW.md.
    #[arg(long, value_name = "LIST")]
    audit: Option<AuditPoints>,
    /// Write the audit as JSON to this file.
    #[arg(long, value_name = "FILE", requires = "audit")]
    pub(super) audit_json: Option<PathBuf>,
    /// Print the summary (and the audit's, with --audit) as one JSON object on one line
    /// instead of the tables, for scripts (fields in docs/COMMANDS.md).
    #[arg(long)]
    json: bool,
    /// B's clock, SECONDS[+INCREMENT], when it differs from A's --time (a time-odds match,
    /// e.g. --time 2 --time-b 2.8 gives B 40% more time).
    #[arg(long, requires = "time", value_name = "SECONDS[+INCREMENT]")]
    time_b: Option<String>,
    #[command(flatten)]
    pub(super) series: SeriesArgs,
}

/// `othello match`, then its audit if asked for (once every game is over, so that the solves
/// take no time from the players' clocks).
pub fn run_match(
    args: MatchArgs,
    global: Option<&EvalChoice>,
    eval: &EngineEval,
    out: &mut impl Write,
) -> CliResult {
    let mut config = args.series.config(OpeningSource::Xot, "othello match")?;
    if let Some(t) = &args.time_b {
        config.clock_b = Some(TimeControl::parse_match(t, args.series.grace)?);
    }
    if let Some(path) = &args.audit_json {
        othello::files::check_output(path, &[])?;
    }
    let options = arena::MatchOptions {
        a: with_global_eval(args.a, global),
        b: with_global_eval(args.b, global),
        pairs: args
            .pairs
            .or(args.games.map(|g| g.div_ceil(2)))
            .unwrap_or(10),
        config,
        sprt: args.sprt.map(|s| Sprt {
            alpha: args.alpha,
            beta: args.beta,
            ..s
        }),
        ggf: args.series.ggf,
        progress: super::progress::Bar::reporter(!args.series.quiet, false),
    };
    let Some(points) = args.audit else {
        let summary = arena::run_match(&options).map_err(|e| series_error(e, &options.config))?;
        if args.json {
            out.write_all(arena::json::match_json(&summary, None).as_bytes())?;
        } else {
            write!(out, "{summary}")?;
        }
        return Ok(());
    };
    let (summary, pairs) =
        arena::run_match_games(&options).map_err(|e| series_error(e, &options.config))?;
    if !args.json {
        // The summary before the audit's solves, which take a while.
        write!(out, "{summary}")?;
        writeln!(out)?;
        out.flush()?;
    }
    let games = arena::audit_games_of(&pairs)?;
    let players = [format!("A: {}", summary.a), format!("B: {}", summary.b)];
    let audit = AuditOptions {
        jobs: options.config.concurrency,
        ..AuditOptions::new(points)
    };
    let report = super::audit::run_audit(
        &games,
        &players,
        &audit,
        eval,
        !args.series.quiet,
        args.audit_json.as_deref(),
    )?;
    if args.json {
        out.write_all(arena::json::match_json(&summary, Some(&report)).as_bytes())?;
    } else {
        write!(out, "{report}")?;
    }
    Ok(())
}

#[derive(Args)]
pub struct TournamentArgs {
    /// The players (at least two).
    #[arg(required = true, num_args = 2..)]
    pub(super) players: Vec<PlayerSpec>,
    /// Pairs of games per pairing.
    #[arg(long, default_value_t = 5)]
    pairs: usize,
    #[command(flatten)]
    pub(super) series: SeriesArgs,
}

/// `othello tournament`.
pub fn tournament(
    args: TournamentArgs,
    global: Option<&EvalChoice>,
    out: &mut impl Write,
) -> CliResult {
    let config = args
        .series
        .config(OpeningSource::Random(10), "othello tournament")?;
    let options = arena::TournamentOptions {
        players: args
            .players
            .into_iter()
            .map(|p| with_global_eval(p, global))
            .collect(),
        pairs: args.pairs,
        config,
        ggf: args.series.ggf,
        progress: super::progress::Bar::reporter(!args.series.quiet, false),
    };
    let table = arena::run_tournament(&options).map_err(|e| series_error(e, &options.config))?;
    write!(out, "{table}")?;
    Ok(())
}

#[derive(Args)]
pub struct PlayArgs {
    /// The opponent (default: the engine).
    #[arg(default_value = "engine")]
    pub(super) opponent: PlayerSpec,
    /// Your colour: black (moves first) or white.
    #[arg(long, default_value = "black", value_parser = ["black", "white"])]
    color: String,
    /// Clock per side, SECONDS[+INCREMENT] (default: untimed).
    #[arg(long)]
    time: Option<String>,
    /// Grace margin in seconds past the clock before a side loses on time.
    #[arg(long, default_value_t = MATCH_GRACE_SECS)]
    grace: f64,
    /// Seconds the engine thinks for a hint.
    #[arg(long, default_value_t = 1.0)]
    hint_time: f64,
    /// Search depth of `analyse` and of the review after the game (less than `othello
    /// review`'s default, so that `analyse` answers within a few seconds).
    #[arg(long, value_name = "D", default_value_t = play::ANALYSIS_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    analysis_depth: u32,
    /// `analyse` and the review solve exactly from this many empty squares.
    #[arg(long, value_name = "N", default_value_t = play::ANALYSIS_EXACT_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=60))]
    analysis_exact: u32,
    /// Where to save the game (default: games/othello-game-<unix time>.ggf, the folder made
    /// if missing).
    #[arg(long)]
    pub(super) ggf: Option<PathBuf>,
    /// Start from this position, a board string (64 squares and the side to move), instead
    /// of the standard start.
    #[arg(long, value_parser = super::search::parse_board, allow_hyphen_values = true)]
    board: Option<Position>,
    /// Start after these moves from the start, like f5d6c3d3c4 (kept in the record: undo
    /// goes back into them).
    #[arg(long, value_parser = super::search::parse_move_game, conflicts_with = "board")]
    moves: Option<othello::game::Game>,
    /// Start from a game of this file (GGF, PGN, WTHOR .wtb or a move transcript): its start
    /// and its moves (all, or those of --after).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "moves"])]
    pub(super) file: Option<PathBuf>,
    /// Which game of --file, from 1.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "file", value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// Only the first N moves of the --file game (passes not counted).
    #[arg(long, value_name = "N", requires = "file")]
    after: Option<usize>,
    /// The engine plays at this level, 1 to 60 (depth, exact solve, selectivity; untimed,
    /// but --time still caps it): the same as the opponent `engine:level=N`.
    #[arg(long, value_name = "N")]
    level: Option<othello::engine::Level>,
}

/// The folder `play` saves games in when not told where.
const GAMES_DIR: &str = "games";

/// `games/othello-game-<now>.ggf`, after making the `games` folder if it is missing.
fn default_game_path(now: u64) -> Result<PathBuf, CliError> {
    std::fs::create_dir_all(GAMES_DIR).map_err(|e| {
        fail(format!(
            "cannot make the folder {GAMES_DIR}/ for the game: {e}"
        ))
    })?;
    Ok(PathBuf::from(GAMES_DIR).join(format!("othello-game-{now}.ggf")))
}

/// `othello play`: a game in the terminal, then saved as GGF.
pub fn play(args: PlayArgs, global: Option<&EvalChoice>, eval: EngineEval) -> CliResult {
    let clock = match &args.time {
        Some(t) => Some(TimeControl::parse_match(t, args.grace)?),
        None => None,
    };
    let hint_time = args.hint_time;
    if !(hint_time.is_finite() && hint_time > 0.0 && hint_time < 1e6) {
        return Err(fail(format!("bad --hint-time {hint_time}")));
    }
    let mut opponent = args.opponent;
    if let Some(level) = args.level {
        opponent = match opponent {
            PlayerSpec::Engine(mut settings) => {
                if settings.depth.is_some() || settings.move_time.is_some() {
                    return Err(fail(format!(
                        "--level {level}: the opponent {} has a depth or time of its own",
                        PlayerSpec::Engine(settings)
                    )));
                }
                settings.level = Some(level);
                PlayerSpec::Engine(settings)
            }
            other => {
                return Err(fail(format!(
                "--level {level}: the opponent {other} is not the engine (levels are the engine's)"
            )))
            }
        };
    }
    let mut clock = clock;
    // A GGF game resumed keeps its move times (and, without --time, its clock), and is saved
    // back to its file when that holds this one game and no --ggf is given.
    let mut resume = Vec::new();
    let mut same_file = None;
    let opening = match (args.board, &args.moves, &args.file) {
        (Some(start), _, _) => Opening {
            name: "board".to_string(),
            start,
            moves: Vec::new(),
        },
        (None, Some(game), _) => play::start::from_game(game, "--moves", None)?,
        (None, None, Some(path)) => {
            let game = play::start::game_of_file(path, args.game as usize).map_err(fail)?;
            let mut opening =
                play::start::from_game(&game, &path.display().to_string(), args.after)?;
            if othello::gamedb::Format::from_path(path) == othello::gamedb::Format::Ggf {
                resume = game.moves()[..opening.moves.len()].to_vec();
                opening.moves.clear();
                if clock.is_none() {
                    let file_clock = game.time_control(othello::Color::Black);
                    clock = file_clock
                        .filter(|tc| !tc.is_untimed())
                        .map(|tc| TimeControl {
                            grace: args.grace,
                            ..tc
                        });
                }
                let one_game = play::start::game_of_file(path, 2).is_err();
                if one_game && args.game == 1 {
                    same_file = Some(path.clone());
                }
            }
            opening
        }
        (None, None, None) => Opening::start(),
    };
    let mut player = with_global_eval(opponent, global).build()?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let options = PlayOptions {
        human: if args.color == "white" {
            othello::Color::White
        } else {
            othello::Color::Black
        },
        clock,
        ggf_path: match (args.ggf, same_file) {
            (Some(path), _) | (None, Some(path)) => path,
            (None, None) => default_game_path(now)?,
        },
        assist: play::assist::AssistOptions {
            hint_time: Some(Duration::from_secs_f64(hint_time)),
            hint_depth: None,
            eval,
            analysis: othello::review::ReviewOptions {
                effort: othello::review::Effort::Depth(args.analysis_depth),
                exact_empties: args.analysis_exact,
                book: Some(othello::book::default_book()),
            },
        },
        seed: now,
        opening,
        style: play::board::Style::detect(),
        resume,
        tick: std::io::IsTerminal::is_terminal(&std::io::stdout()),
        ..Default::default()
    };
    // The person's player reads and writes the terminal itself (a player is `Send`, the
    // standard streams' locks are not).
    let stdin = std::io::BufReader::new(std::io::stdin());
    play::play(stdin, std::io::stdout(), player.as_mut(), &options)?;
    Ok(())
}
