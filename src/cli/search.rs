//! The engine's own subcommands: `perft`, `search`, `bench`, `solve` (its JSON stream is in
//! [`super::solve_stream`]), `quality`, the NBoard protocol (`nboard`, or no subcommand) and
//! GTP (`gtp`).

use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use othello::board::{Board, Position};
use othello::discs::CentiDiscs;
use othello::eval::EngineEval;
use othello::obf::ObfEntry;
use othello::search::tt::{DEFAULT_HASH_MB, MAX_HASH_MB};
use othello::search::{available_threads, Limits, SelectivitySetting, MAX_THREADS};

use super::commands::{self, SearchOptions, SolveOptions, TableSize};
use super::solve_stream::{run_solve_stream, StreamOptions};
use super::{fail, CliError, CliResult};

/// Reads a board string and its side to move.
pub fn parse_board(s: &str) -> Result<Position, String> {
    s.parse::<Position>().map_err(|e| e.to_string())
}

/// Reads a move list from the start position (`f5d6c3d3c4`, either case, spaces or commas
/// allowed, passes implicit) as a game: the one reader of move lists,
/// [`othello::gamedb::transcript::parse_move_list`], with an error that names the bad move and
/// its index.
pub fn parse_move_game(text: &str) -> Result<othello::game::Game, String> {
    use othello::gamedb::ErrorKind;
    let record = othello::gamedb::transcript::parse_move_list(text).map_err(|e| match e {
        ErrorKind::BadSquare { text: bad, ply } if bad.chars().count() < 2 => format!(
            "move {ply} ({bad:?}) of {text:?} is cut short: expected moves of two characters \
             each, like f5d6c3"
        ),
        ErrorKind::BadSquare { text: bad, ply } => {
            format!("move {ply} ({bad:?}) of {text:?} is not a square a1 to h8")
        }
        ErrorKind::Replay(r) => format!(
            "move {} ({}) of {text:?} is illegal: {}",
            r.ply, r.square, r.reason
        ),
        ErrorKind::BadPass { ply } => {
            format!("move {ply} (a pass) of {text:?} is illegal: the side to move has a legal move")
        }
        other => format!("{text:?}: {other}"),
    })?;
    record.to_game().map_err(|e| format!("{text:?}: {e}"))
}

/// Reads a move list (see [`parse_move_game`]) into the position it reaches (a pass the last
/// move forces is made, as in transcripts): what `--moves` takes.
pub fn parse_moves(text: &str) -> Result<Position, String> {
    parse_move_game(text).map(|game| game.position())
}

/// Reads a number of search threads, 1 to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => {
            // Accepted (a batch job may want it), but said: more threads than the hardware
            // has only share its cores (the NBoard engine caps them, see PROTOCOL.md).
            let hardware = std::thread::available_parallelism().map_or(1, |h| h.get());
            if n > hardware {
                log::warn!("--threads {n}: this machine has {hardware} hardware threads");
            }
            Ok(n)
        }
        _ => Err(format!(
            "expected a number of threads from 1 to {MAX_THREADS}, got {s:?}"
        )),
    }
}

/// Reads a number of parallel workers (`-j`/`--jobs` of `label`, `selfplay`, `calibrate`,
/// `train` and the book commands), 1 to [`MAX_THREADS`]: each worker is a thread with its own
/// table, so the count is bounded like `--threads`.
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of workers from 1 to {MAX_THREADS}, got {s:?}"
        )),
    }
}

/// Reads a positive number of seconds (below 10^6).
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x < 1e6 => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!("expected a positive number of seconds, got {s:?}")),
    }
}

#[derive(Args)]
pub struct PerftArgs {
    /// The deepest depth to count.
    depth: u32,
    /// The position, as a 64-square board string plus side to move (default: the start).
    #[arg(long, value_parser = parse_board, allow_hyphen_values = true)]
    board: Option<Position>,
    /// The position after these moves from the start instead, like f5d6c3d3c4.
    #[arg(long, value_parser = parse_moves, conflicts_with = "board")]
    moves: Option<Position>,
}

/// `othello perft`.
pub fn perft(args: PerftArgs, out: &mut impl Write) -> CliResult {
    let board = args
        .board
        .or(args.moves)
        .map_or(Board::start(), |p| p.board);
    commands::run_perft(&board, args.depth, out)?;
    Ok(())
}

#[derive(Args)]
pub struct SearchArgs {
    /// The position, as a board string (default: the start).
    #[arg(long, value_parser = parse_board, conflicts_with = "xot", allow_hyphen_values = true)]
    board: Option<Position>,
    /// The position after these moves from the start instead, like f5d6c3d3c4.
    #[arg(long, value_parser = parse_moves, conflicts_with_all = ["board", "xot"])]
    moves: Option<Position>,
    /// Search the first N XOT openings instead.
    #[arg(long)]
    xot: Option<usize>,
    /// Maximum midgame depth. Without --depth, --time or --nodes, a search goes on until it
    /// reaches the end of the game, which from the midgame means until you stop it (Ctrl-C).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Time per position, in seconds.
    #[arg(long, value_parser = parse_seconds)]
    time: Option<Duration>,
    /// Node budget per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: u64,
    /// Midgame forward pruning: 58, 73, 87, 95, 98, 99 (percent of Multi-ProbCut cuts expected
    /// right) or 100 (none).
    #[arg(long, default_value = "58", value_name = "PERCENT")]
    selectivity: SelectivitySetting,
    /// Search threads (default: all cores; 1 is deterministic).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Report the best K moves, each searched to the same limits with the better ones
    /// excluded at the root (values comparable between lines).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    multipv: u64,
    /// Only the summary: each position's best move (or lines) and the totals, no iterations.
    #[arg(long, visible_alias = "summary")]
    quiet: bool,
    /// Also print the odd/even swing after the totals (the mean change of value between
    /// consecutive depths: a measure for tuning the evaluator; RUST_LOG=info logs it anyway).
    #[arg(long)]
    swing: bool,
}

/// `othello search`.
pub fn search(args: SearchArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let positions: Vec<(String, Board)> = match args.xot {
        Some(n) => othello::xot::openings()
            .take(n)
            .filter_map(|l| Some((l.to_string(), othello::xot::position_after(l)?.board)))
            .collect(),
        None => {
            let pos = args.board.or(args.moves).unwrap_or(Position::start());
            vec![(pos.to_board_string(), pos.board)]
        }
    };
    let options = SearchOptions {
        limits: Limits::fixed(args.depth, args.nodes, args.time),
        hash_mb: args.hash as usize,
        eval,
        selectivity: args.selectivity.0,
        threads: args.threads.unwrap_or_else(available_threads),
        multipv: args.multipv as usize,
        quiet: args.quiet,
        swing: args.swing,
    };
    commands::run_search(&positions, &options, out)?;
    Ok(())
}

#[derive(Args)]
pub struct BenchArgs {
    /// Search threads (default 1: the node count is then the build's signature).
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    threads: usize,
}

/// `othello bench`.
pub fn bench(args: BenchArgs, eval: &EngineEval, out: &mut impl Write) -> CliResult {
    commands::run_bench(eval, args.threads, out)?;
    Ok(())
}

/// The options `solve` and `quality` share: which positions of the file, how they are
/// numbered, and the table size.
#[derive(Args)]
pub struct ObfBatch {
    /// Transposition table size in MiB [default: 64; `solve`: by each position's empties,
    /// 64 up to 24 empties, doubling with each one beyond to 1024 from 28].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: Option<u64>,
    /// Number shown for the first position (e.g. 40 for fforum-40-59.obf), at most
    /// 1,000,000,000; it only labels the rows: --only picks positions by these numbers.
    #[arg(long, default_value_t = 1, value_parser = parse_first)]
    first: usize,
    /// Only the file's first N positions (e.g. 10 for FFO #40-#49).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    count: Option<u64>,
}

/// The largest `--first`: with a file's positions after it, the numbers stay far from
/// overflowing (a file holds at most 256 MiB of lines).
pub const MAX_FIRST: usize = 1_000_000_000;

/// `--first`: a row number from 0 to [`MAX_FIRST`].
fn parse_first(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n <= MAX_FIRST => Ok(n),
        _ => Err(format!("{s:?} is not a row number from 0 to {MAX_FIRST}")),
    }
}

/// `--only`: the inclusive ranges of position numbers to solve.
#[derive(Clone, Debug)]
pub struct Only(Vec<(usize, usize)>);

/// `--only`: numbers and inclusive ranges `A..B`, separated by commas.
fn parse_only(text: &str) -> Result<Only, String> {
    let number = |s: &str| {
        s.trim().parse::<usize>().map_err(|_| {
            format!("{s:?} is not a position number (expected e.g. 45, 45..49 or 41,45..47)")
        })
    };
    text.split(',')
        .map(|part| match part.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b.trim_start_matches('='))?);
                if a > b {
                    return Err(format!("{part:?}: the range is empty ({a} > {b})"));
                }
                Ok((a, b))
            }
            None => number(part).map(|n| (n, n)),
        })
        .collect::<Result<_, _>>()
        .map(Only)
}

/// The entries of `entries` (numbered from `first`) that `only` names, with their numbers, in
/// file order; an error for a number the file does not have.
fn pick_only(
    entries: Vec<ObfEntry>,
    first: usize,
    only: &[(usize, usize)],
) -> Result<Vec<(usize, ObfEntry)>, CliError> {
    let last = first + entries.len() - 1;
    for &(a, b) in only {
        if a < first || b > last {
            return Err(fail(format!(
                "--only {}: the file's positions are numbered {first} to {last} (--first {first} \
                 numbers the first one)",
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                }
            )));
        }
    }
    Ok(entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| (first + i, e))
        .filter(|(n, _)| only.iter().any(|&(a, b)| (a..=b).contains(n)))
        .collect())
}

/// The entries of an OBF file, only the first `count` if given.
fn read_obf(file: &Path, count: Option<u64>) -> Result<Vec<ObfEntry>, CliError> {
    let text = othello::files::read_to_string(file, othello::files::TEXT_MAX_BYTES)
        .map_err(|e| fail(format!("cannot read {e}")))?;
    let mut entries =
        othello::obf::parse_obf(&text).map_err(|e| fail(format!("{}: {e}", file.display())))?;
    if let Some(n) = count {
        entries.truncate(n.min(entries.len() as u64) as usize);
    }
    Ok(entries)
}

#[derive(Args)]
pub struct SolveArgs {
    /// The OBF file, or `-` for positions on stdin, one per line (implies --jsonl).
    #[arg(required_unless_present_any = ["board", "moves"])]
    pub(super) file: Option<PathBuf>,
    /// Solve this one position instead, a board string (64 squares and the side to move).
    #[arg(long, value_parser = parse_board, allow_hyphen_values = true, conflicts_with_all = ["file", "moves", "jsonl"])]
    board: Option<Position>,
    /// Solve the position after these moves from the start instead, like f5d6c3d3c4.
    #[arg(long, value_parser = parse_moves, conflicts_with_all = ["file", "jsonl"])]
    moves: Option<Position>,
    /// Solve for win/loss/draw only.
    #[arg(long)]
    wld: bool,
    /// Answer each position with one JSON line as soon as it is solved, instead of the table;
    /// exit 1 at the end if a line was bad or a score disagreed (format: docs/SOLVE.md).
    #[arg(long)]
    jsonl: bool,
    /// With JSON lines, keep the table from one position to the next (as the table output
    /// does): faster on related positions, but a best move among equal ones may then depend
    /// on the positions before.
    #[arg(long)]
    keep_hash: bool,
    /// Solve the best K moves of each position, each exactly (the best first, then the best of
    /// the others, ...); 64 scores every move. The match column then also checks every further
    /// move's score against the file. Not with the JSON stream.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    multipv: u64,
    /// Search threads per position (default: all cores). Scores do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// A probable solve instead of an exact one: searches to the end of the game with endgame
    /// ProbCut at 73, 87, 95 and 98% up to this level, as the engine plays from about 30
    /// empties. The match column then tells how often it was right; its errors do not fail
    /// the command. 100 (the default) is the exact solve.
    #[arg(long, value_name = "PERCENT", default_value = "100")]
    selectivity: SelectivitySetting,
    /// Only the positions of these numbers (as --first numbers them): 45, 45..49 (both
    /// included), or a list, 41,45..47. `--first 40 --only 45` is FFO #45 of fforum-40-59.obf.
    #[arg(long, value_name = "LIST", value_parser = parse_only, conflicts_with_all = ["board", "moves", "jsonl"])]
    only: Option<Only>,
    /// With --board or --moves, no iterations on stderr (only the table).
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    batch: ObfBatch,
}

/// `othello solve`: exits with status 1 on any mismatch with the file.
pub fn solve(args: SolveArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let ObfBatch { hash, first, count } = args.batch;
    let table = hash.map_or(TableSize::ByEmpties, |mb| TableSize::Fixed(mb as usize));
    let one = args.board.or(args.moves);
    let file = match (&args.file, one) {
        (Some(file), _) => file.clone(),
        (None, Some(_)) => PathBuf::new(),
        (None, None) => return Err(fail("solve: give an OBF file, -, --board or --moves")),
    };
    let stdin = file.as_os_str() == "-";
    if args.selectivity.0.is_some() && (stdin || args.jsonl || args.multipv > 1 || args.wld) {
        return Err(fail(
            "--selectivity (a probable solve) prints the table of one move per position: not with --wld, --multipv or the JSON stream",
        ));
    }
    if args
        .selectivity
        .0
        .is_some_and(|s| !othello::search::probcut::endgame::LEVELS.contains(&s))
    {
        return Err(fail(
            "--selectivity: a probable solve runs at 73, 87, 95 or 98 (100: exact)",
        ));
    }
    if args.only.is_some() && count.is_some() {
        return Err(fail(
            "--only picks positions by number; --count takes the first N: give one of them",
        ));
    }
    if stdin || args.jsonl {
        if args.only.is_some() {
            return Err(fail(
                "--only picks rows of the table; the JSON stream answers every input line",
            ));
        }
        if args.multipv > 1 {
            return Err(fail(
                "--multipv prints a table; the JSON stream answers one move",
            ));
        }
        if first != 1 {
            return Err(fail(
                "--first numbers the rows of the table; JSON lines carry their input line number",
            ));
        }
        let options = StreamOptions {
            wld: args.wld,
            hash: table,
            keep_hash: args.keep_hash,
            count,
            eval,
            threads: args.threads.unwrap_or_else(available_threads),
        };
        return solve_stream(&file, stdin, &options, out);
    }
    let entries = match one {
        Some(position) => vec![(first, ObfEntry::new(position))],
        None => {
            let entries = read_obf(&file, count)?;
            match &args.only {
                Some(only) if !entries.is_empty() => pick_only(entries, first, &only.0)?,
                _ => entries
                    .into_iter()
                    .enumerate()
                    .map(|(i, e)| (first + i, e))
                    .collect(),
            }
        }
    };
    let options = SolveOptions {
        wld: args.wld,
        hash: table,
        eval,
        threads: args.threads.unwrap_or_else(available_threads),
        multipv: args.multipv as usize,
        probable: args.selectivity.0,
        // The one position of --board or --moves: its iterations as they finish.
        progress: one.is_some() && !args.quiet,
    };
    let summary = commands::run_solve(&entries, &options, out)?;
    if summary.mismatches > 0 {
        return Err(CliError::Exit(1));
    }
    Ok(())
}

/// `othello solve -` and `othello solve FILE --jsonl`: the stream of
/// [`super::solve_stream`], from stdin or the file. A reader that went away (a closed pipe)
/// ends it quietly with status 1.
fn solve_stream(
    file: &Path,
    stdin: bool,
    options: &StreamOptions,
    out: &mut impl Write,
) -> CliResult {
    let summary = if stdin {
        run_solve_stream(&mut io::stdin().lock(), options, out)
    } else {
        let f = othello::files::open(file).map_err(|e| fail(format!("cannot read {e}")))?;
        // The cap of every text file of positions, as `solve FILE` reads it: checked on the
        // open file, and the reader stops there if it grows meanwhile.
        let cap = othello::files::TEXT_MAX_BYTES;
        let len = f.metadata().map_or(0, |m| m.len());
        if len > cap {
            return Err(fail(format!(
                "cannot read {}: larger than {} MiB, the most this kind of file may hold",
                file.display(),
                cap / othello::files::MIB
            )));
        }
        run_solve_stream(&mut BufReader::new(f.take(cap)), options, out)
    };
    let summary = match summary {
        Ok(summary) => summary,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(CliError::Exit(1)),
        Err(e) => return Err(e.into()),
    };
    if summary.errors > 0 || summary.mismatches > 0 {
        return Err(fail(format!(
            "{} of {} lines could not be read as positions, {} of {} solves disagree with the listed scores",
            summary.errors,
            summary.errors + summary.solved,
            summary.mismatches,
            summary.solved
        )));
    }
    Ok(())
}

#[derive(Args)]
#[command(group(
    clap::ArgGroup::new("limit")
        .required(true)
        .multiple(true)
        .args(["depth", "time", "nodes", "game_clock"])
))]
pub struct QualityArgs {
    /// The OBF file, with every legal move's exact score (e.g. tests/data/quality-30.obf).
    pub(super) file: PathBuf,
    /// Midgame depth of every search.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Time per position, in seconds (e.g. 0.04).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time: Option<Duration>,
    /// Node budget per position.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search each position as in a game with this clock per side (SECONDS[+INCREMENT], as
    /// `match --time`), started from an XOT opening: with the clock the time plan expects the
    /// side to have left at that many empties, every earlier move having taken its target.
    #[arg(long, value_name = "SECONDS[+INC]", value_parser = parse_game_clock)]
    game_clock: Option<othello::clock::Clock>,
    #[command(flatten)]
    batch: ObfBatch,
    /// Midgame forward pruning: 58, 73, 87, 95, 98, 99 (percent of Multi-ProbCut cuts expected
    /// right) or 100 (none).
    #[arg(long, default_value = "58", value_name = "PERCENT")]
    selectivity: SelectivitySetting,
}

/// A `SECONDS[+INCREMENT]` game clock, as `match --time` reads it.
fn parse_game_clock(text: &str) -> Result<othello::clock::Clock, String> {
    let tc = othello::clock::TimeControl::parse_match(text, 0.0).map_err(|e| e.to_string())?;
    Ok(othello::clock::Clock {
        remaining: Duration::from_secs_f64(tc.initial),
        increment: Duration::from_secs_f64(tc.increment),
    })
}

/// `othello quality`: a chosen move the file does not score is an error.
pub fn quality(args: QualityArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let ObfBatch { hash, first, count } = args.batch;
    let entries = read_obf(&args.file, count)?;
    let options = othello::quality::QualityOptions {
        limits: Limits::fixed(args.depth, args.nodes, args.time),
        hash_mb: hash.map_or(DEFAULT_HASH_MB, |mb| mb as usize),
        first_number: first,
        eval,
        selectivity: args.selectivity.0,
        game_clock: args.game_clock,
    };
    let summary = othello::quality::run_quality(&entries, &options, out)?;
    if summary.errors > 0 {
        return Err(fail(format!(
            "{}: {} positions could not be scored (see the rows marked error)",
            args.file.display(),
            summary.errors
        )));
    }
    Ok(())
}

#[derive(Args, Default)]
pub struct NboardArgs {
    /// Think on the opponent's time about the expected reply (NBoard: `set ponder on`).
    #[arg(long)]
    ponder: bool,
    /// Search threads (default: all cores; NBoard: `set threads N`).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// The opening book: default (the embedded one), off, or a book file (othello or Edax
    /// format; a file that does not exist starts as a copy of the embedded book, and
    /// `learn` saves to it). NBoard: `set book ...`.
    #[arg(long, default_value = "default", value_name = "default|off|FILE")]
    pub(super) book: othello::book::BookChoice,
    /// Play uniformly among the book moves within this many discs of the best (NBoard:
    /// `set bookrandomness D`).
    #[arg(long, default_value_t = 0.0, value_name = "DISCS")]
    book_randomness: f64,
    /// Play at this level, 1 to 60: a midgame depth, an exact solve from some empties and a
    /// selectivity, untimed (a game clock still caps it; docs/COMMANDS.md has the table).
    /// NBoard: `set level N`.
    #[arg(long, value_name = "N")]
    level: Option<othello::engine::Level>,
}

/// The engine the protocol faces (`nboard`, `gtp`) run: `--book-randomness` checked, the
/// book opened once (a book that cannot be used stops the program).
fn open_engine(
    eval: EngineEval,
    threads: Option<usize>,
    book: &othello::book::BookChoice,
    book_randomness: f64,
    ponder: bool,
) -> Result<othello::engine::Engine, CliError> {
    if !(book_randomness.is_finite() && (0.0..=64.0).contains(&book_randomness)) {
        return Err(super::fail(
            "--book-randomness: expected discs from 0 to 64",
        ));
    }
    let options = othello::engine::EngineOptions {
        eval,
        threads: threads.unwrap_or_else(available_threads),
        ponder,
        book: book.clone(),
        // Checked non-negative: the centi-discs fit a u32.
        book_randomness: CentiDiscs::from_discs(book_randomness).0 as u32,
        ..othello::engine::EngineOptions::default()
    };
    othello::engine::Engine::new(options).map_err(|e| match e {
        othello::engine::EngineError::OpenBook { reason, .. } => {
            fail(format!("--book {book}: {reason}"))
        }
        e => fail(e.to_string()),
    })
}

/// `othello nboard` (and `othello` alone): the NBoard protocol on stdin/stdout.
pub fn nboard(args: NboardArgs, eval: EngineEval) -> CliResult {
    let mut engine = open_engine(
        eval,
        args.threads,
        &args.book,
        args.book_randomness,
        args.ponder,
    )?;
    engine.set_level(args.level);
    othello::protocol::run_stdio_engine(othello::protocol::Nboard::from_engine(engine))?;
    Ok(())
}

#[derive(Args)]
pub struct GtpArgs {
    /// Search threads (default: all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// The opening book: default (the embedded one), off, or a book file.
    #[arg(long, default_value = "default", value_name = "default|off|FILE")]
    pub(super) book: othello::book::BookChoice,
    /// Play uniformly among the book moves within this many discs of the best.
    #[arg(long, default_value_t = 0.0, value_name = "DISCS")]
    book_randomness: f64,
    /// Deepest midgame search of every `genmove` (default: no limit but the time).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Time per `genmove` when the GUI sets no clock, in seconds (default 5).
    #[arg(long, value_parser = parse_seconds, value_name = "SECONDS")]
    move_time: Option<Duration>,
    /// Play at this level, 1 to 60 (depth, exact solve, selectivity; untimed, but a clock from
    /// `time_settings` still caps it). GTP: `othello-level N`.
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "move_time"])]
    level: Option<othello::engine::Level>,
}

/// `othello gtp`: the Go Text Protocol on stdin/stdout (GoGui, Quarry). The protocol itself
/// is `othello::protocol::gtp`; this is only the loop that reads and writes.
pub fn gtp(args: GtpArgs, eval: EngineEval) -> CliResult {
    use othello::protocol::{Input, LineSource, SyncInput};
    let mut engine = open_engine(eval, args.threads, &args.book, args.book_randomness, false)?;
    engine.set_depth(args.depth);
    if args.level.is_some() {
        engine.set_level(args.level);
    }
    let move_time = args.move_time.unwrap_or(Duration::from_millis(
        othello::protocol::gtp::GTP_MOVE_TIME_MS,
    ));
    let mut gtp = othello::protocol::gtp::Gtp::new(engine, move_time);
    let mut input = SyncInput::new(BufReader::new(io::stdin()));
    let mut out = io::stdout().lock();
    loop {
        let response = match input.next_input() {
            Input::Eof => return Ok(()),
            Input::Line(Ok(line)) => {
                log::debug!("< {line}");
                gtp.execute(&line)
            }
            Input::Line(Err(e)) => Some(othello::protocol::gtp::GtpResponse {
                id: None,
                result: Err(e.to_string()),
                quit: false,
            }),
        };
        if let Some(response) = response {
            write!(out, "{response}")?;
            out.flush()?;
            if response.quit {
                return Ok(());
            }
        }
    }
}
