//! The command line: the argument grammar (clap), one function per subcommand in the files
//! beside this one, and the one error type they return.
//!
//! - [`search`]: `perft`, `search`, `bench`, `solve`, `quality`, the NBoard protocol and GTP;
//! - [`solve_stream`]: `solve -` and `solve --jsonl`, positions in, JSON lines out;
//! - [`arena`]: `match`, `tournament`, `play` (with [`play`], the terminal game loop);
//! - [`learn`]: `label`, `selfplay`, `calibrate`, `eval-error`, `train`;
//! - [`games`]: `games stats|convert|export`;
//! - [`book`]: `book build|evaluate|deviate|merge|stats|show|export|import`;
//! - [`review`]: `review`, a game judged move by move;
//! - [`serve`]: `serve`, the board in the browser (a local web server);
//! - [`audit`]: `audit`, games judged against exact values from N empties (also `match --audit`);
//! - [`fake`]: the hidden `fake-engine`, an NBoard engine that misbehaves on purpose.
//!
//! These are binary modules, not part of the library: what they do is print and parse, and
//! everything they compute comes from `othello`'s public API.

pub mod arena;
pub mod audit;
pub mod book;
pub mod commands;
pub mod fake;
pub mod games;
pub mod learn;
pub mod play;
pub mod progress;
pub mod review;
pub mod roles;
pub mod search;
pub mod serve;
pub mod solve_stream;

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use othello::eval::{EngineEval, Evaluator};
use othello::players::PlayerSpec;
use othello::weights::EvalChoice;

/// How a subcommand failed.
#[derive(Debug)]
pub enum CliError {
    /// Print `error: <message>` and exit with status 1.
    Message(String),
    /// Exit with this status; what went wrong was already reported.
    Exit(u8),
}

impl CliError {
    /// The exit status for this error, after printing its message (to stderr).
    pub fn report(self) -> ExitCode {
        match self {
            // The reader of our output went away (`othello book stats default | head`):
            // nothing is wrong with the command, so it ends quietly.
            CliError::Message(message) if message.ends_with("Broken pipe (os error 32)") => {
                ExitCode::SUCCESS
            }
            CliError::Message(message) => {
                eprintln!("error: {message}");
                ExitCode::FAILURE
            }
            CliError::Exit(code) => ExitCode::from(code),
        }
    }
}

impl<E: fmt::Display> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError::Message(e.to_string())
    }
}

/// What every subcommand returns.
pub type CliResult = Result<(), CliError>;

/// A failure with a message.
pub fn fail(message: impl Into<String>) -> CliError {
    CliError::Message(message.into())
}

#[derive(Parser)]
#[command(
    name = "othello",
    version,
    about = "A bitboard Othello engine (NBoard protocol by default)",
    after_help = "The commands marked [dev] make the evaluator's weights and models \
                  (docs/dev/WEIGHTS.md). docs/COMMANDS.md has every command and option."
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    /// The engine's evaluation: a weight file (a network `.nnue` or pattern weights),
    /// `default` (the embedded network), `pattern` (the embedded pattern weights, the default
    /// before the network) or `hand` (the hand-tuned evaluator). In match, tournament and play
    /// it applies to `engine` players without `eval=`. A file that cannot be used stops the
    /// program; without this option, $OTHELLO_EVAL_FILE is tried (the same words or a path,
    /// for those players too) and the embedded network is the fallback.
    #[arg(long, global = true, value_name = "PATH|default|pattern|hand")]
    pub(crate) eval_file: Option<EvalChoice>,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Speak the NBoard protocol on stdin/stdout (also what `othello` alone does).
    #[command(display_order = 10)]
    Nboard(search::NboardArgs),
    /// Speak the Go Text Protocol (GTP 2, with GoGui's rules commands) on stdin/stdout, for
    /// GoGui or Quarry (see PROTOCOL.md).
    #[command(display_order = 11)]
    Gtp(search::GtpArgs),
    /// Count the leaves of the game tree to each depth up to N (pass = one ply).
    #[command(display_order = 14)]
    Perft(search::PerftArgs),
    /// Search positions with iterative deepening, printing every iteration (--quiet: only the
    /// result). With no --depth, --time or --nodes it runs until stopped (Ctrl-C).
    #[command(display_order = 2, visible_alias = "analyse", alias = "analyze")]
    Search(search::SearchArgs),
    /// Run the fixed benchmark searches; prints the node-count signature and the speed.
    #[command(display_order = 13)]
    Bench(search::BenchArgs),
    /// Solve every position of an OBF file and compare with its scores (exit 1 on a mismatch);
    /// `solve -` reads positions from stdin and answers each with a JSON line (see docs/SOLVE.md).
    #[command(display_order = 3)]
    Solve(search::SolveArgs),
    /// Search every position of an OBF file that scores all moves, and measure the chosen
    /// moves against the file: best-move rate and mean loss in discs (exit 1 if a chosen move
    /// is not in the file). Needs --depth, --time or --nodes.
    #[command(display_order = 12)]
    Quality(search::QualityArgs),
    /// [dev] Label the positions of recorded games for training (appends to OUT; games already
    /// there are skipped): exact solves near the end, the game result (or a search score)
    /// before. See docs/dev/WEIGHTS.md.
    #[command(display_order = 20)]
    Label(learn::LabelArgs),
    /// [dev] Generate training data by self-play (appends to OUT; games already there are skipped).
    #[command(display_order = 21)]
    Selfplay(learn::SelfplayArgs),
    /// [dev] Fit the midgame Multi-ProbCut model: measure shallow against deep full-width searches
    /// on sampled positions (resumable), then write the model file.
    #[command(display_order = 25)]
    Calibrate(learn::CalibrateArgs),
    /// [dev] Score evaluators against the labels of the validation games of self-play data.
    #[command(display_order = 23)]
    EvalError(learn::EvalErrorArgs),
    /// [dev] Fit pattern weights to self-play data and write a weight file.
    #[command(display_order = 22)]
    Train(learn::TrainArgs),
    /// [dev] Centre a weight file on the start position's value (a draw, 0): shift its parity
    /// weights until searches of the start position average 0. See docs/dev/WEIGHTS.md.
    #[command(alias = "center", display_order = 24)]
    Centre(learn::CentreArgs),
    /// Play a match between two players: paired games from XOT or random openings, with
    /// clocks, concurrency, Elo and SPRT. Results are from A's side. With --audit N, the games
    /// are then judged against exact values from N empties to the end, per side.
    #[command(display_order = 5)]
    Match(Box<arena::MatchArgs>),
    /// Play a round robin (PAIP's round-robin): every player against every other, paired
    /// games; prints the table of points.
    #[command(display_order = 6)]
    Tournament(arena::TournamentArgs),
    /// Play a game in the terminal against any player (moves like f5; pass, undo, redo, hint,
    /// analyse, go, level N, swap, board, new, help, resign, quit; review after the game), from
    /// the start, a position, a move list or a game file (resumed with its clocks).
    #[command(display_order = 1)]
    Play(Box<arena::PlayArgs>),
    /// Game databases (WTHOR .wtb, PGN, GGF, transcripts): statistics, conversion, and the
    /// export of their distinct positions. See docs/GAMES.md.
    #[command(display_order = 8)]
    Games {
        #[command(subcommand)]
        command: games::GamesCommand,
    },
    /// Opening books: build one from game databases, deepen it along its best lines, merge,
    /// inspect, export and import (plain text or Edax .dat). See docs/BOOK.md.
    #[command(display_order = 9)]
    Book {
        #[command(subcommand)]
        command: book::BookCommand,
    },
    /// Review one game of a file (WTHOR .wtb, PGN, GGF, transcript): every move against the
    /// engine's best at the same depth (exact near the end), the loss in discs, each player's
    /// totals and the turning points. A table on stdout, or --json; --html FILE writes a page
    /// with the evaluation curve and diagrams. See docs/REVIEW.md.
    #[command(display_order = 4)]
    Review(review::ReviewArgs),
    /// Audit the games of files (GGF from `match --ggf`, or WTHOR .wtb, PGN, transcripts)
    /// against exact values from N empties to the end, per player: the exact value at the
    /// point, the discs each player lost by its own moves, the final result and the games whose
    /// outcome changed. See docs/REVIEW.md.
    #[command(display_order = 7)]
    Audit(audit::AuditArgs),
    /// Play, analyse and review on a board in the browser: a local web server (127.0.0.1 by
    /// default) whose page talks to the engine. Prints the address to open. See docs/BOARD.md.
    // After `play` (the same order, then by name): the two ways to play.
    #[command(display_order = 1)]
    Serve(serve::ServeArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell), e.g.
    /// `othello completions bash > ~/.local/share/bash-completion/completions/othello`.
    #[command(display_order = 15)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// An NBoard engine that misbehaves on purpose (for tests of the match driver).
    #[command(hide = true)]
    FakeEngine(fake::FakeArgs),
}

impl Cli {
    /// Whether everything the command produces goes to standard output, so that with standard
    /// output closed it would all be lost (`othello solve - >&-`). Commands that also write
    /// files, or speak a protocol, are not refused: a parent may give them a read-write
    /// `/dev/null` on purpose (systemd, Python's `subprocess.DEVNULL`), which looks the same.
    pub fn writes_only_to_stdout(&self) -> bool {
        matches!(
            &self.command,
            Some(
                Command::Solve(_)
                    | Command::Search(_)
                    | Command::Perft(_)
                    | Command::Bench(_)
                    | Command::Quality(_)
                    | Command::Games {
                        command: games::GamesCommand::Stats { .. }
                    }
                    | Command::Book {
                        command: book::BookCommand::Stats { .. } | book::BookCommand::Show { .. }
                    }
            )
        )
    }
}

/// The environment variable naming a weight file when `--eval-file` is not given.
const EVAL_ENV: &str = "OTHELLO_EVAL_FILE";

/// The evaluator to run with, and the choice that `engine` players without `eval=` take:
/// `--eval-file` if given (an unusable file is an error), else `$OTHELLO_EVAL_FILE` (the same
/// words, `default`, `pattern` or `hand`, or a path; an unusable file is logged, and the
/// embedded network is used and given to the players), else the embedded network (the
/// players' own default).
fn engine_eval(
    explicit: Option<&EvalChoice>,
) -> Result<(EngineEval, Option<EvalChoice>), CliError> {
    if let Some(choice) = explicit {
        let eval = choice
            .load()
            .map_err(|e| fail(format!("--eval-file {choice}: {e}")))?;
        // The Multi-ProbCut model beside the weights must be usable too.
        if let Some(text) = eval.mpc_model_text() {
            othello::search::probcut::model::MpcModel::parse(text)
                .map_err(|e| fail(format!("--eval-file {choice}: its .mpc model: {e}")))?;
        }
        return Ok((eval, Some(choice.clone())));
    }
    match std::env::var_os(EVAL_ENV) {
        Some(v) if !v.is_empty() => {
            // The words of `--eval-file` (default, pattern, hand), else a path; a name that
            // is not UTF-8 can only be a path.
            let choice = match v.to_str() {
                Some(text) => match text.parse::<EvalChoice>() {
                    Ok(choice) => choice,
                    Err(never) => match never {},
                },
                None => EvalChoice::File(v.into()),
            };
            match choice.load() {
                Ok(eval) => Ok((eval, Some(choice))),
                Err(e) => {
                    log::warn!("${EVAL_ENV}={choice}: {e}; using the embedded network");
                    Ok((EngineEval::default(), None))
                }
            }
        }
        _ => Ok((EngineEval::default(), None)),
    }
}

/// `spec` with the global choice (`--eval-file`, or `$OTHELLO_EVAL_FILE`: [`engine_eval`]), if
/// it is an engine that names no evaluator.
fn with_global_eval(spec: PlayerSpec, choice: Option<&EvalChoice>) -> PlayerSpec {
    match (spec, choice) {
        (PlayerSpec::Engine(mut settings), Some(choice))
            if settings.eval == EvalChoice::Default =>
        {
            settings.eval = choice.clone();
            PlayerSpec::Engine(settings)
        }
        (spec, _) => spec,
    }
}

/// What `othello` alone says on stderr when its input is a terminal (a GUI hears nothing).
pub const TERMINAL_GREETING: &str = concat!(
    "othello ",
    env!("CARGO_PKG_VERSION"),
    ": an Othello engine. Without a command it speaks the NBoard protocol on\n",
    "stdin/stdout, for a GUI such as NBoard (commands in PROTOCOL.md; `quit` leaves).\n",
    "To play here, run `othello play`; every command: `othello --help`.\n",
);

/// Runs the command line: the subcommand, or the NBoard protocol without one.
pub fn run(cli: Cli) -> CliResult {
    // The one rule for files, before any work (the table is in roles.rs).
    roles::check(&cli)?;
    let (eval, global) = engine_eval(cli.eval_file.as_ref())?;
    let global = global.as_ref();
    let mut out = std::io::stdout().lock();
    match cli.command {
        None => {
            drop(out);
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                // A person at a terminal, not a GUI: say what this is (on stderr, so that the
                // protocol's stdout stays clean).
                eprintln!("{}", TERMINAL_GREETING.trim_end());
            }
            search::nboard(search::NboardArgs::default(), eval)
        }
        Some(Command::Nboard(args)) => {
            drop(out);
            search::nboard(args, eval)
        }
        Some(Command::Gtp(args)) => {
            drop(out);
            search::gtp(args, eval)
        }
        Some(Command::Perft(args)) => search::perft(args, &mut out),
        Some(Command::Search(args)) => search::search(args, eval, &mut out),
        Some(Command::Bench(args)) => search::bench(args, &eval, &mut out),
        Some(Command::Solve(args)) => search::solve(args, eval, &mut out),
        Some(Command::Quality(args)) => search::quality(args, eval, &mut out),
        Some(Command::Label(args)) => learn::label(args, eval, &mut out),
        Some(Command::Selfplay(args)) => learn::selfplay(args, eval, &mut out),
        Some(Command::Calibrate(args)) => learn::calibrate(args, eval, &mut out),
        Some(Command::EvalError(args)) => learn::eval_error(args, &mut out),
        Some(Command::Train(args)) => learn::train(args, &mut out),
        Some(Command::Centre(args)) => learn::centre(args, &mut out),
        Some(Command::Match(args)) => arena::run_match(*args, global, &eval, &mut out),
        Some(Command::Tournament(args)) => arena::tournament(args, global, &mut out),
        Some(Command::Play(args)) => {
            drop(out);
            arena::play(*args, global, eval)
        }
        Some(Command::Games { command }) => games::run(command, &mut out),
        Some(Command::Book { command }) => book::run(command, eval, &mut out),
        Some(Command::Review(args)) => review::review(args, eval, &mut out),
        Some(Command::Serve(args)) => serve::serve(args, eval, &mut out),
        Some(Command::Audit(args)) => audit::audit_files(args, eval, &mut out),
        Some(Command::Completions { shell }) => {
            // Into a buffer first: clap_complete panics on a write error, and a reader that
            // stops early (`| head`) is a broken pipe, not a crash.
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "othello", &mut script);
            out.write_all(&script)?;
            out.flush()?;
            Ok(())
        }
        Some(Command::FakeEngine(args)) => {
            drop(out);
            fake::fake_engine(args)
        }
    }
}
