//! `othello audit`, and the audit that `othello match --audit` runs after its games: games
//! judged against exact values from a number of empties to the end, per player (see
//! `othello::review::audit` and docs/REVIEW.md). The table goes to stdout, the JSON to a file,
//! progress to stderr.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello::eval::EngineEval;
use othello::gamedb::{self, Format, ReadOptions};
use othello::review::audit::{
    self, AuditGame, AuditOptions, AuditPoints, AuditReport, DEFAULT_AUDIT_HASH_MB,
};
use othello::search::tt::MAX_HASH_MB;

use super::{CliError, CliResult};

#[derive(Args)]
pub struct AuditArgs {
    /// Game files: GGF as `othello match --ggf` writes it (also WTHOR .wtb, PGN and move
    /// transcripts). Players are told apart by name (the GGF PB and PW tags).
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// Audit points: numbers of empty squares (1 to 40), e.g. 24 or 24,20. Each game is
    /// solved exactly from the largest point to its end.
    #[arg(long, value_name = "LIST")]
    at: AuditPoints,
    /// Games audited at once, one thread each.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
    /// Also write the report as JSON to this file (fields in docs/REVIEW.md).
    #[arg(long, value_name = "FILE")]
    pub(super) json: Option<PathBuf>,
    /// Read the files in this format (wtb, pgn, ggf or txt) instead of the one their
    /// extensions imply.
    #[arg(long, value_name = "FORMAT")]
    pub(super) from: Option<Format>,
    /// Transposition table size of each worker in MiB.
    #[arg(long, default_value_t = DEFAULT_AUDIT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// `othello audit`.
pub fn audit_files(args: AuditArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    let read = ReadOptions {
        format: args.from,
        ..ReadOptions::default()
    };
    if let Some(path) = &args.json {
        let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
        othello::files::check_output(path, &inputs)?;
    }
    let mut players: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut games = Vec::new();
    for path in &args.files {
        for record in gamedb::read_games_with(path, &read)? {
            let mut id = |name: &str| {
                let name = match name.trim() {
                    "" => "?".to_string(),
                    n => n.to_string(),
                };
                *index.entry(name.clone()).or_insert_with(|| {
                    players.push(name);
                    players.len() - 1
                })
            };
            let (black, white) = (id(&record.black), id(&record.white));
            games.push(AuditGame {
                record,
                black,
                white,
            });
        }
    }
    let options = AuditOptions {
        points: args.at,
        jobs: args.jobs as usize,
        hash_mb: args.hash as usize,
    };
    let report = run_audit(
        &games,
        &players,
        &options,
        &eval,
        !args.quiet,
        args.json.as_deref(),
    )?;
    write!(out, "{report}")?;
    Ok(())
}

/// Audits `games` with a progress bar on stderr (if `progress`), writes the JSON report to
/// `json` if given, and returns the report (the caller shows it).
pub fn run_audit(
    games: &[AuditGame],
    players: &[String],
    options: &AuditOptions,
    eval: &EngineEval,
    progress: bool,
    json: Option<&Path>,
) -> Result<AuditReport, CliError> {
    let bar = if progress {
        let bar =
            ProgressBar::with_draw_target(Some(games.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "audit {pos}/{len} games {bar:30} {elapsed_precise} eta {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let result = audit::audit_games(games, players, options, eval, &mut |done, _| {
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let report = result.map_err(|e| match e {
        // The workers: `-j` of them, each with its table.
        audit::AuditError::Table(_) | audit::AuditError::Threads(_) => CliError::Message(format!(
            "-j {} (a {} MiB table each): {e}",
            options.jobs, options.hash_mb
        )),
        e => e.into(),
    })?;
    if let Some(path) = json {
        gamedb::write_atomically(path, audit::to_json(&report).as_bytes())?;
        log::info!("wrote {}", path.display());
    }
    Ok(report)
}
