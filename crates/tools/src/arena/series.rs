//! Playing many games: pairs of games on worker threads, for matches and tournaments alike.
//!
//! PAIP's `othello-series` plays each (random) start twice with colours swapped; here the unit
//! of work is such a **pair**: the same opening with A as Black, then with A as White. Pairs are
//! handed out in order to `concurrency` worker threads. Each worker owns its own instance of
//! every player it needs (an external engine is one process per worker and side), reuses it
//! from game to game, and restarts it after a fault.
//!
//! Reproducibility: every game's seed derives from the series seed and the game's number, and
//! players forget earlier games at [`crate::players::Player::new_game`], so a
//! game's moves do not depend on which worker played it or when. With deterministic players
//! (PAIP's searchers, the engine at a fixed depth) the same seed gives the same games at any
//! `-j`.
//!
//! The caller sees every finished game and pair through a [`SeriesObserver`], which may stop
//! the series (the SPRT does); pairs already being played are finished and reported.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use thiserror::Error;

use crate::board::Color;
use crate::clock::TimeControl;
use crate::players::{Player, PlayerError, PlayerSpec};
use crate::rng::derive_seed;

use super::openings::{openings, OpeningSource};
use super::referee::{play_game, Clocks, GameOutcome, GameSetup, Opening, Termination};

/// Default per-move timeout of untimed games (a hung engine is given up on after this).
pub const DEFAULT_MOVE_TIMEOUT_SECS: u64 = 300;

/// How a series is played.
#[derive(Clone, Debug)]
pub struct SeriesConfig {
    /// Where games start.
    pub openings: OpeningSource,
    /// Seeds openings and players' randomness.
    pub seed: u64,
    /// Each side's clock per game (with the grace margin), if timed.
    pub clock: Option<TimeControl>,
    /// The second player's clock (`match`'s B) when it differs from the others' (a time-odds
    /// match); `None`: `clock`.
    pub clock_b: Option<TimeControl>,
    /// A depth limit for the players that take one.
    pub depth: Option<u32>,
    /// Games played at once.
    pub concurrency: usize,
    /// In untimed games, the longest a move may take.
    pub move_timeout: Duration,
    /// The longest an external engine may take to start (from its launch to its first
    /// `pong`), at the start of the match and at every restart after a fault.
    pub startup_timeout: Duration,
    /// The `PC` tag of the game records.
    pub place: String,
}

impl Default for SeriesConfig {
    fn default() -> SeriesConfig {
        SeriesConfig {
            openings: OpeningSource::Xot,
            seed: 1,
            clock: None,
            clock_b: None,
            depth: None,
            concurrency: 1,
            move_timeout: Duration::from_secs(DEFAULT_MOVE_TIMEOUT_SECS),
            startup_timeout: Duration::from_secs(crate::players::nboard::STARTUP_TIMEOUT_SECS),
            place: "othello arena".to_string(),
        }
    }
}

/// One pair to play: players `a` and `b` (indices into the spec list) from one opening.
#[derive(Clone, Debug)]
pub struct PairTask {
    /// The pair's number in the series (games `2 * index` and `2 * index + 1`).
    pub index: usize,
    /// The first player: Black in the pair's first game.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// The opening of both games.
    pub opening: Opening,
}

/// A played pair.
#[derive(Clone, Debug)]
pub struct PairOutcome {
    /// The task.
    pub task: PairTask,
    /// The game with `a` as Black, then the game with `a` as White.
    pub games: [GameOutcome; 2],
}

impl PairOutcome {
    /// A's points in the pair, in half points (0..=4): the pentanomial outcome.
    pub fn a_half_points(&self) -> usize {
        let [first, second] = &self.games;
        half_points(first.black_margin) + half_points(-second.black_margin)
    }
}

/// 2 for a win, 1 for a draw, 0 for a loss, from a margin.
pub fn half_points(margin: i32) -> usize {
    match margin.signum() {
        1 => 2,
        0 => 1,
        _ => 0,
    }
}

/// Receives results as they come.
pub trait SeriesObserver {
    /// A game finished (`game_number` counts from 0 in the series; players `a` and `b` as in
    /// the task, `a_is_black` for the first game of a pair).
    fn on_game(&mut self, _task: &PairTask, _a_is_black: bool, _outcome: &GameOutcome) {}

    /// A pair finished. Returning `Break` stops the series after the pairs in play.
    fn on_pair(&mut self, _pair: &PairOutcome) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// An observer that ignores everything.
impl SeriesObserver for () {}

/// Why a series could not be played.
#[derive(Debug, Error)]
pub enum SeriesError {
    /// A player could not be built or restarted.
    #[error("player {name}: {source}")]
    Player {
        /// The player's name.
        name: String,
        /// Why.
        source: PlayerError,
    },
    /// The system would not start the threads of the games played at once (`-j`).
    #[error("the games played at once (-j): {0}")]
    Threads(#[from] crate::search::ThreadStartError),
}

/// The pair tasks of a match of `pairs` pairs between players 0 and 1.
pub fn match_tasks(config: &SeriesConfig, pairs: usize) -> Vec<PairTask> {
    openings(&config.openings, pairs, config.seed)
        .into_iter()
        .enumerate()
        .map(|(index, opening)| PairTask {
            index,
            a: 0,
            b: 1,
            opening,
        })
        .collect()
}

/// The pair tasks of a round robin among `players` players: for every two players `i < j`,
/// `pairs` pairs, each opening shared by all pairings (PAIP's `round-robin` plays every
/// pairing under the same conditions).
pub fn round_robin_tasks(config: &SeriesConfig, players: usize, pairs: usize) -> Vec<PairTask> {
    let opens = openings(&config.openings, pairs, config.seed);
    let mut tasks = Vec::new();
    for i in 0..players {
        for j in i + 1..players {
            for opening in &opens {
                tasks.push(PairTask {
                    index: tasks.len(),
                    a: i,
                    b: j,
                    opening: opening.clone(),
                });
            }
        }
    }
    tasks
}

enum Event {
    Game(PairTask, bool, Box<GameOutcome>),
    Pair(Box<PairOutcome>),
    Failed(SeriesError),
}

/// Plays `tasks` among the players of `specs`, reporting to `observer`; returns the pairs
/// played, in task order.
pub fn run_series(
    specs: &[PlayerSpec],
    tasks: &[PairTask],
    config: &SeriesConfig,
    observer: &mut dyn SeriesObserver,
) -> Result<Vec<PairOutcome>, SeriesError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = config.concurrency.clamp(1, tasks.len().max(1));
    let (tx, rx) = mpsc::channel::<Event>();
    let mut pairs: Vec<PairOutcome> = Vec::new();
    let mut failure = None;
    std::thread::scope(|scope| {
        let games = (0..workers)
            .map(|_| {
                let tx = tx.clone();
                let (next, stop) = (&next, &stop);
                move || worker(specs, tasks, config, next, stop, tx)
            })
            .collect();
        if let Err(e) = crate::search::start_all(scope, games) {
            failure = Some(SeriesError::Threads(e));
        }
        drop(tx);
        for event in rx {
            match event {
                Event::Game(task, a_is_black, outcome) => {
                    observer.on_game(&task, a_is_black, &outcome)
                }
                Event::Pair(pair) => {
                    if observer.on_pair(&pair).is_break() {
                        stop.store(true, Ordering::SeqCst);
                    }
                    pairs.push(*pair);
                }
                Event::Failed(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    pairs.sort_by_key(|p| p.task.index);
    Ok(pairs)
}

/// A worker: takes pairs until none are left or the series is stopped.
fn worker(
    specs: &[PlayerSpec],
    tasks: &[PairTask],
    config: &SeriesConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<Event>,
) {
    // Player instances by slot: spec index, or `specs.len() + index` for the second instance
    // needed when a player meets itself.
    let mut players: HashMap<usize, Box<dyn Player>> = HashMap::new();
    let failed = |name: &str, source| {
        Event::Failed(SeriesError::Player {
            name: name.to_string(),
            source,
        })
    };
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(task) = tasks.get(i) else { return };
        let slots = [
            task.a,
            if task.a == task.b {
                specs.len() + task.b
            } else {
                task.b
            },
        ];
        for (slot, spec) in slots.iter().zip([&specs[task.a], &specs[task.b]]) {
            if !players.contains_key(slot) {
                match spec.build_with_startup(config.startup_timeout) {
                    Ok(p) => {
                        players.insert(*slot, p);
                    }
                    Err(e) => {
                        let _ = tx.send(failed(&spec.name(), e));
                        return;
                    }
                }
            }
        }
        let mut games = Vec::with_capacity(2);
        for (k, a_is_black) in [(0u64, true), (1, false)] {
            let clock_of = |spec: usize| match config.clock_b {
                Some(b) if spec == 1 => Some(b),
                _ => config.clock,
            };
            let (clock_a, clock_b) = (clock_of(task.a), clock_of(task.b));
            let setup = GameSetup {
                opening: task.opening.clone(),
                clocks: if a_is_black {
                    Clocks {
                        black: clock_a,
                        white: clock_b,
                    }
                } else {
                    Clocks {
                        black: clock_b,
                        white: clock_a,
                    }
                },
                depth: config.depth,
                move_timeout: config.move_timeout,
                seed: derive_seed(config.seed, 2 * task.index as u64 + k),
                place: config.place.clone(),
            };
            let [mut pa, mut pb] = slots.map(|s| players.remove(&s).expect("built above"));
            let outcome = if a_is_black {
                play_game(pa.as_mut(), pb.as_mut(), &setup)
            } else {
                play_game(pb.as_mut(), pa.as_mut(), &setup)
            };
            // Restart whoever faulted, so the next game starts from a sane engine.
            if let Some(loser) = outcome.termination.loser() {
                let a_lost = (loser == Color::Black) == a_is_black;
                let (player, spec) = if a_lost {
                    (&mut pa, &specs[task.a])
                } else {
                    (&mut pb, &specs[task.b])
                };
                if outcome.termination != Termination::Normal {
                    if let Err(e) = player.restart() {
                        let _ = tx.send(failed(&spec.name(), e));
                        return;
                    }
                }
            }
            players.insert(slots[0], pa);
            players.insert(slots[1], pb);
            let _ = tx.send(Event::Game(
                task.clone(),
                a_is_black,
                Box::new(outcome.clone()),
            ));
            games.push(outcome);
        }
        let second = games.pop().expect("two games");
        let first = games.pop().expect("two games");
        let _ = tx.send(Event::Pair(Box::new(PairOutcome {
            task: task.clone(),
            games: [first, second],
        })));
    }
}
