//! The `match` and `tournament` commands: a series reporting its progress, every game
//! appended to a GGF file, and the results table at the end.
//!
//! The GGF file gets one game per line, in game order (game `2k` is pair `k` with A as Black,
//! game `2k + 1` the same opening with colours swapped), written as soon as every earlier game
//! is written, so a long match can be inspected while it runs.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::gamedb::{ErrorKind, GameRecord};
use crate::players::PlayerSpec;
use crate::review::audit::AuditGame;

use super::referee::GameOutcome;
use super::series::{
    match_tasks, round_robin_tasks, run_series, PairOutcome, PairTask, SeriesConfig, SeriesError,
    SeriesObserver,
};
use super::stats::{Sprt, SprtDecision};
use super::summary::{MatchSummary, TournamentTable};

/// The most pairs a match or tournament plays (all pairings together): 200,000 games, days of
/// play even at a second a game. Every pair's opening is drawn before the first game, so a
/// larger number would take memory before anything is played (a billion pairs, tens of GB).
pub const MAX_PAIRS: usize = 100_000;

/// Why a match or tournament failed.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// More pairs than [`MAX_PAIRS`].
    #[error("{0} pairs of games: at most {MAX_PAIRS} may be played in one match or tournament")]
    TooManyPairs(u128),
    /// The series could not be played.
    #[error(transparent)]
    Series(#[from] SeriesError),
    /// The GGF file could not be written.
    #[error("cannot write {path}: {source}")]
    Ggf {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A played game that cannot be audited (it does not start from the standard position).
    #[error("game {game} cannot be audited: {source}")]
    Audit {
        /// The game, from 1, in the GGF file's order.
        game: usize,
        /// Why.
        source: ErrorKind,
    },
    /// Fewer than two players in a tournament.
    #[error("a tournament needs at least two players")]
    TooFewPlayers,
}

/// A match between two players.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// Player A (results are from A's side).
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Pairs of games to play (at most; an SPRT may stop earlier).
    pub pairs: usize,
    /// How games are played.
    pub config: SeriesConfig,
    /// An SPRT that stops the match when it decides.
    pub sprt: Option<Sprt>,
    /// Where to write the games.
    pub ggf: Option<PathBuf>,
    /// Where progress goes (each game, and the score after each pair).
    pub progress: crate::progress::Reporter,
}

/// A round robin.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// Pairs per pairing.
    pub pairs: usize,
    /// How games are played.
    pub config: SeriesConfig,
    /// Where to write the games.
    pub ggf: Option<PathBuf>,
    /// Where progress goes (each game, and the score after each pair).
    pub progress: crate::progress::Reporter,
}

/// Writes games to a GGF file in game order.
struct GgfSink {
    path: PathBuf,
    out: BufWriter<File>,
    pending: BTreeMap<usize, String>,
    next: usize,
}

impl GgfSink {
    fn create(path: &Path) -> Result<GgfSink, ArenaError> {
        // Games are appended as they finish (not written at the end), so the file is opened in
        // place, by the file policy: never a FIFO, a device or a directory.
        let file =
            crate::files::open_for_update(path, true, true).map_err(|e| ArenaError::Ggf {
                path: path.to_path_buf(),
                source: e.source,
            })?;
        Ok(GgfSink {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            pending: BTreeMap::new(),
            next: 0,
        })
    }

    fn add(&mut self, number: usize, outcome: &GameOutcome) -> io::Result<()> {
        self.pending.insert(number, outcome.game.to_string());
        while let Some(line) = self.pending.remove(&self.next) {
            writeln!(self.out, "{line}")?;
            self.next += 1;
        }
        self.out.flush()
    }

    /// Writes what is left (games after a gap left by a stopped series).
    fn finish(mut self) -> Result<(), ArenaError> {
        let result = (|| {
            for line in std::mem::take(&mut self.pending).into_values() {
                writeln!(self.out, "{line}")?;
            }
            self.out.flush()
        })();
        result.map_err(|source| ArenaError::Ggf {
            path: self.path.clone(),
            source,
        })
    }
}

/// What both commands share: the progress and the GGF file.
struct Output {
    progress: crate::progress::Reporter,
    ggf: Option<GgfSink>,
    error: Option<ArenaError>,
}

impl Output {
    fn new(
        games: usize,
        progress: &crate::progress::Reporter,
        ggf: &Option<PathBuf>,
    ) -> Result<Output, ArenaError> {
        progress.start(games as u64, "games");
        Ok(Output {
            progress: progress.clone(),
            ggf: ggf.as_deref().map(GgfSink::create).transpose()?,
            error: None,
        })
    }

    fn game(&mut self, task: &PairTask, a_is_black: bool, outcome: &GameOutcome) {
        self.progress.step("");
        if let Some(sink) = &mut self.ggf {
            let number = 2 * task.index + usize::from(!a_is_black);
            if let Err(source) = sink.add(number, outcome) {
                let path = sink.path.clone();
                self.error.get_or_insert(ArenaError::Ggf { path, source });
            }
        }
    }

    fn finish(self) -> Result<(), ArenaError> {
        self.progress.finish();
        if let Some(e) = self.error {
            return Err(e);
        }
        self.ggf.map_or(Ok(()), GgfSink::finish)
    }
}

struct MatchObserver {
    output: Output,
    summary: MatchSummary,
}

impl SeriesObserver for MatchObserver {
    fn on_game(&mut self, task: &PairTask, a_is_black: bool, outcome: &GameOutcome) {
        self.output.game(task, a_is_black, outcome);
    }

    fn on_pair(&mut self, pair: &PairOutcome) -> ControlFlow<()> {
        self.summary.add_pair(pair);
        let t = &self.summary.total;
        let mut msg = format!(
            "+{} ={} -{}  {:.1}%",
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        );
        if let Some((_, state)) = &self.summary.sprt {
            msg.push_str(&format!("  LLR {:.2}", state.llr));
        }
        self.output.progress.status(&msg);
        let decided = matches!(
            self.summary.sprt,
            Some((_, s)) if s.decision != SprtDecision::Continue
        );
        if decided || self.output.error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Plays a match and returns its summary (the caller prints it).
pub fn run_match(options: &MatchOptions) -> Result<MatchSummary, ArenaError> {
    run_match_games(options).map(|(summary, _)| summary)
}

/// [`run_match`], also returning the pairs played, in order (for [`audit_games_of`]).
pub fn run_match_games(
    options: &MatchOptions,
) -> Result<(MatchSummary, Vec<PairOutcome>), ArenaError> {
    if options.pairs > MAX_PAIRS {
        return Err(ArenaError::TooManyPairs(options.pairs as u128));
    }
    let tasks = match_tasks(&options.config, options.pairs);
    let specs = [options.a.clone(), options.b.clone()];
    let mut observer = MatchObserver {
        output: Output::new(2 * tasks.len(), &options.progress, &options.ggf)?,
        summary: MatchSummary::new(&options.a.name(), &options.b.name(), options.sprt),
    };
    let result = run_series(&specs, &tasks, &options.config, &mut observer);
    let MatchObserver { output, summary } = observer;
    output.finish()?;
    Ok((summary, result?))
}

/// The games of played pairs as the input of [`crate::review::audit::audit_games`], in the
/// GGF file's order (each pair's game with its first player as Black, then the other); the
/// players are the pairs' indices into the series' players (in a match, A is 0 and B is 1).
pub fn audit_games_of(pairs: &[PairOutcome]) -> Result<Vec<AuditGame>, ArenaError> {
    let mut games = Vec::with_capacity(2 * pairs.len());
    for pair in pairs {
        for (outcome, a_is_black) in pair.games.iter().zip([true, false]) {
            let record =
                GameRecord::from_game(&outcome.game).map_err(|source| ArenaError::Audit {
                    game: games.len() + 1,
                    source,
                })?;
            let (black, white) = if a_is_black {
                (pair.task.a, pair.task.b)
            } else {
                (pair.task.b, pair.task.a)
            };
            games.push(AuditGame {
                record,
                black,
                white,
            });
        }
    }
    Ok(games)
}

struct TournamentObserver {
    output: Output,
    table: TournamentTable,
}

impl SeriesObserver for TournamentObserver {
    fn on_game(&mut self, task: &PairTask, a_is_black: bool, outcome: &GameOutcome) {
        self.output.game(task, a_is_black, outcome);
    }

    fn on_pair(&mut self, pair: &PairOutcome) -> ControlFlow<()> {
        self.table.add_pair(pair);
        if self.output.error.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Plays a round robin and returns its table.
pub fn run_tournament(options: &TournamentOptions) -> Result<TournamentTable, ArenaError> {
    if options.players.len() < 2 {
        return Err(ArenaError::TooFewPlayers);
    }
    let n = options.players.len() as u128;
    let total = n * (n - 1) / 2 * options.pairs as u128;
    if total > MAX_PAIRS as u128 {
        return Err(ArenaError::TooManyPairs(total));
    }
    let tasks = round_robin_tasks(&options.config, options.players.len(), options.pairs);
    let names = options.players.iter().map(PlayerSpec::name).collect();
    let mut observer = TournamentObserver {
        output: Output::new(2 * tasks.len(), &options.progress, &options.ggf)?,
        table: TournamentTable::new(names),
    };
    let result = run_series(&options.players, &tasks, &options.config, &mut observer);
    let TournamentObserver { output, table } = observer;
    output.finish()?;
    result?;
    Ok(table)
}
