//! The `othello` binary: argument parsing only; everything else lives in the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use othello::board::{Board, Position};

#[derive(Parser)]
#[command(
    name = "othello",
    version,
    about = "A bitboard Othello engine (NBoard protocol by default)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
        #[arg(long, value_parser = parse_board)]
        board: Option<Position>,
    },
    /// Search positions with iterative deepening, printing every iteration.
    Search {
        /// The position, as a board string (default: the start).
        #[arg(long, value_parser = parse_board, conflicts_with = "xot")]
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
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
        /// Number shown for the first position (e.g. 40 for fforum-40-59.obf).
        #[arg(long, default_value_t = 1)]
        first: usize,
    },
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

fn fail(message: String) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
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
                limits: othello::search::Limits {
                    depth,
                    nodes,
                    move_time: time,
                    clock: None,
                },
                hash_mb: hash as usize,
            };
            othello::commands::run_search(&positions, &options, &mut out).map(|_| ())
        }
        Some(Command::Bench) => othello::commands::run_bench(&mut out).map(|_| ()),
        Some(Command::Solve {
            file,
            wld,
            threads: _,
            hash,
            first,
        }) => {
            let text = match std::fs::read_to_string(&file) {
                Ok(t) => t,
                Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
            };
            let entries = match othello::obf::parse_obf(&text) {
                Ok(e) => e,
                Err(e) => return fail(format!("{}: {e}", file.display())),
            };
            let options = othello::commands::SolveOptions {
                wld,
                hash_mb: hash as usize,
                first_number: first,
            };
            match othello::commands::run_solve(&entries, &options, &mut out) {
                Ok(s) if s.mismatches > 0 => return ExitCode::FAILURE,
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        }
        None | Some(Command::Nboard) => {
            drop(out);
            othello::protocol::run_stdio()
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
