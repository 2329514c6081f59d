//! `othello review`: one game of a file judged move by move (see `othello::review` and
//! docs/REVIEW.md). The report goes to stdout (a table, or JSON with `--json`), the page to
//! `--html FILE`, progress to stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello::book::BookChoice;
use othello::eval::EngineEval;
use othello::gamedb::{self, Format, ReadOptions};
use othello::review::{self, Effort, ReviewOptions, DEFAULT_DEPTH, DEFAULT_EXACT_EMPTIES};
use othello::search::tt::{DEFAULT_HASH_MB, MAX_HASH_MB};
use othello::search::{Searcher, SelectivitySetting};

use super::search::parse_seconds;
use super::{fail, CliResult};

#[derive(Args)]
pub struct ReviewArgs {
    /// The game file: WTHOR .wtb (names from WTHOR.JOU/.TRN beside it), PGN, GGF or a move
    /// transcript.
    pub(super) file: PathBuf,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// Midgame search depth of every position (default 16).
    #[arg(long, value_name = "D", conflicts_with = "time", value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Search every midgame position for this many seconds instead of to a depth.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time: Option<Duration>,
    /// Solve exactly the positions with this many empty squares or fewer.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXACT_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=60))]
    exact: u32,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the report as a self-contained HTML page (chart, diagrams) to this file.
    #[arg(long, value_name = "FILE")]
    pub(super) html: Option<PathBuf>,
    /// Read the file in this format (wtb, pgn, ggf or txt) instead of the one its extension
    /// implies.
    #[arg(long, value_name = "FORMAT")]
    pub(super) from: Option<Format>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: u64,
    /// Midgame forward pruning: 58, 73, 87, 95, 98, 99 (percent of Multi-ProbCut cuts expected
    /// right) or 100 (none).
    #[arg(long, default_value = "58", value_name = "PERCENT")]
    selectivity: SelectivitySetting,
    /// The opening book whose values judge the moves played in its positions: default (the
    /// embedded one), off (search every move), or a book file (othello or Edax format).
    #[arg(long, default_value = "default", value_name = "BOOK")]
    pub(super) book: BookChoice,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

/// `othello review`.
pub fn review(args: ReviewArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let options = ReadOptions {
        format: args.from,
        ..ReadOptions::default()
    };
    if let Some(path) = &args.html {
        // Before the work: a bad page path, or the game file itself, is refused at once.
        othello::files::check_output(path, &[&args.file])?;
    }
    let games = gamedb::read_games_with(&args.file, &options)?;
    let k = args.game as usize;
    let Some(game) = games.get(k - 1) else {
        return Err(fail(format!(
            "{}: no game {k}: the file has {} game{}",
            args.file.display(),
            games.len(),
            if games.len() == 1 { "" } else { "s" }
        )));
    };
    let effort = match (args.time, args.depth) {
        (Some(t), _) => Effort::Time(t),
        (None, d) => Effort::Depth(d.unwrap_or(DEFAULT_DEPTH)),
    };
    let book = args.book.load().map_err(|e| fail(format!("--book: {e}")))?;
    let options = ReviewOptions {
        effort,
        exact_empties: args.exact,
        book,
    };
    let mut searcher = Searcher::try_new(eval, args.hash as usize)?;
    searcher.set_selectivity(args.selectivity.0);
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::with_draw_target(
            Some(game.moves.len() as u64),
            ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            ProgressStyle::with_template("review {pos}/{len} moves {bar:30} {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        bar
    };
    log::info!(
        "reviewing game {k} of {} ({} moves): {options}",
        args.file.display(),
        game.moves.len()
    );
    let result = review::review_game(game, &mut searcher, &options, &mut |p| {
        bar.set_position(p.done as u64);
        bar.set_message(format!("last: move {} {}", p.last.number, p.last.played));
    });
    bar.finish_and_clear();
    let review = result.map_err(|e| fail(format!("{}: game {k}: {e}", args.file.display())))?;
    if let Some(path) = &args.html {
        gamedb::write_atomically(path, review::html::to_html(&review).as_bytes())?;
        log::info!("wrote {}", path.display());
    }
    if args.json {
        out.write_all(review::json::to_json(&review).as_bytes())?;
    } else {
        review::text::write_report(&review, out)?;
        if let Some(path) = &args.html {
            writeln!(out, "\nPage written to {}", path.display())?;
        }
    }
    Ok(())
}
