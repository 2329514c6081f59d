//! `othello games`: statistics, conversion and position export of game databases (see
//! docs/GAMES.md).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use othello::gamedb::export::{EmptiesRange, ExportFormat};
use othello::gamedb::{self, Format, GameDbError, ReadOptions};

use super::CliResult;

/// `othello games` subcommands.
#[derive(Subcommand)]
pub enum GamesCommand {
    /// Per file: games, positions (moves + 1 per game), complete games (board full or both
    /// sides blocked), Black wins, draws and White wins by the replayed score, mean moves per
    /// game; then the totals and the time taken.
    Stats {
        /// Game files, or directories (their .wtb, .pgn, .ggf and .txt files, sorted by name).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        input: GamesInput,
    },
    /// Read all the games of the inputs and write them, in order, to one file.
    Convert {
        /// Game files, or directories (their .wtb, .pgn, .ggf and .txt files, sorted by name).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
        /// The output format: wtb, pgn, ggf or txt (default: from the --out extension). A .wtb
        /// keeps the tournament and player numbers of games read from a .wtb, 0 otherwise.
        #[arg(long, value_name = "FORMAT")]
        to: Option<Format>,
        /// The file to write (replaced atomically).
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        #[command(flatten)]
        input: GamesInput,
    },
    /// Write the distinct positions of the games (up to the 8 symmetries, first occurrence
    /// kept, only positions whose side to move has a legal move), one per line.
    Export {
        /// Game files, or directories (their .wtb, .pgn, .ggf and .txt files, sorted by name).
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
        /// The file to write (replaced atomically).
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// Only positions with this many empty squares: MIN..MAX, both included (also ..MAX,
        /// MIN.., N).
        #[arg(long, default_value = "0..60", value_name = "MIN..MAX")]
        empties: EmptiesRange,
        /// obf (OBF lines without scores) or board (board strings).
        #[arg(long, default_value = "obf", value_name = "obf|board")]
        format: ExportFormat,
        #[command(flatten)]
        input: GamesInput,
    },
}

/// How the game readers read their inputs (`games`, `label`).
#[derive(Args)]
pub struct GamesInput {
    /// Read every input in this format (wtb, pgn, ggf or txt) instead of the one its extension
    /// implies (.wtb, .pgn, .ggf; anything else is a transcript).
    #[arg(long, value_name = "FORMAT")]
    pub(super) from: Option<Format>,
    /// WTHOR player names for .wtb inputs (default: WTHOR.JOU beside each .wtb file).
    #[arg(long, value_name = "WTHOR.JOU")]
    pub(super) players: Option<PathBuf>,
    /// WTHOR tournament names for .wtb inputs (default: WTHOR.TRN beside each .wtb file).
    #[arg(long, value_name = "WTHOR.TRN")]
    pub(super) tournaments: Option<PathBuf>,
}

impl GamesInput {
    /// The library's reading options.
    pub fn options(self) -> ReadOptions {
        ReadOptions {
            format: self.from,
            players: self.players,
            tournaments: self.tournaments,
        }
    }
}

/// Runs an `othello games` subcommand.
pub fn run(command: GamesCommand, out: &mut impl Write) -> CliResult {
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
            let format = to.unwrap_or_else(|| Format::from_path(&path));
            let (n_files, n_games) =
                gamedb::convert(&files, &input.options(), Some(format), &path)?;
            writeln!(
                out,
                "{}: {n_games} games from {n_files} files written as {format}",
                path.display()
            )
            .map_err(|e| GameDbError::io(&path, e))?;
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
