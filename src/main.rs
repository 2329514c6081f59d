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
    /// Count the leaves of the game tree to each depth up to N (pass = one ply).
    Perft {
        /// The deepest depth to count.
        depth: u32,
        /// The position, as a 64-square board string plus side to move (default: the start).
        #[arg(long, value_parser = parse_board)]
        board: Option<Position>,
    },
    /// Solve every position of an OBF file exactly.
    Solve {
        /// The OBF file.
        file: std::path::PathBuf,
    },
}

fn parse_board(s: &str) -> Result<Position, String> {
    s.parse::<Position>().map_err(|e| e.to_string())
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
        Some(Command::Solve { file }) => match std::fs::read_to_string(&file) {
            Ok(text) => othello::commands::run_solve_scratch(&text, &mut out),
            Err(e) => Err(e),
        },
        None => {
            eprintln!("the NBoard protocol is not implemented yet; try `othello --help`");
            return ExitCode::FAILURE;
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
