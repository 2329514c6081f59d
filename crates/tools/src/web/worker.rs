//! The board server's worker: runs the jobs of one session ([`Job`]) on the engine
//! ([`Engine`], the same facade NBoard and GTP use), streaming search lines to a sink as
//! they come. It runs on a thread of its own, off the connection's task; the stop handle
//! ([`StopHandle`]) is how the connection interrupts it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::message::{Line, Reply, Shown, ValueKind};
use super::session::{Job, Outcome, Pace, Task};
use crate::book::Book;
use crate::clock::Clock;
use crate::discs::CentiDiscs;
use crate::engine::{Engine, EngineError, EngineOptions, Hint, MoveObserver};
use crate::eval::EngineEval;
use crate::game::Game;
use crate::gamedb::GameRecord;
use crate::review::{self, Effort, ReviewOptions};
use crate::search::{Observer, SearchResult, Searcher, Value};

/// The table of the searcher that reviews games, MiB.
pub const REVIEW_HASH_MB: usize = 32;

/// Raises the stop flags of a worker's searches, from another thread.
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    flags: Arc<Mutex<Vec<Arc<AtomicBool>>>>,
}

impl StopHandle {
    /// Stops whatever the worker is searching (it clears the flags before its next job).
    pub fn stop(&self) {
        self.set(true);
    }

    fn add(&self, flag: Arc<AtomicBool>) {
        self.flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(flag);
    }

    fn clear(&self) {
        self.set(false);
    }

    fn set(&self, raised: bool) {
        let flags = self.flags.lock().unwrap_or_else(PoisonError::into_inner);
        for flag in flags.iter() {
            flag.store(raised, Ordering::SeqCst);
        }
    }

    fn raised(&self) -> bool {
        self.flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .any(|f| f.load(Ordering::SeqCst))
    }
}

/// Runs one session's jobs.
pub struct Worker {
    engine: Engine,
    eval: EngineEval,
    book: Option<Arc<Book>>,
    /// The review's searcher, made at the first review.
    reviewer: Option<Searcher<EngineEval>>,
    stop: StopHandle,
}

impl Worker {
    /// A worker with an engine of these options (its book opened once; the embedded book is
    /// shared by every worker).
    pub fn new(options: EngineOptions) -> Result<Worker, EngineError> {
        let book = options.book.load().map_err(|e| EngineError::OpenBook {
            choice: options.book.to_string(),
            reason: e.to_string(),
        })?;
        let eval = options.eval.clone();
        let engine = Engine::new(options)?;
        let stop = StopHandle::default();
        stop.add(engine.stop_flag());
        Ok(Worker {
            engine,
            eval,
            book,
            reviewer: None,
            stop,
        })
    }

    /// The handle that stops this worker's searches.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Runs `job`, passing its search lines to `sink`, and returns how it ended.
    pub fn run(&mut self, job: &Job, sink: &mut dyn FnMut(Reply)) -> Outcome {
        self.stop.clear();
        match job.task {
            Task::Go(pace) => {
                self.engine.set_game(job.game.clone());
                let clock = match pace {
                    Pace::Level(level) => {
                        self.engine.set_level(Some(level));
                        None
                    }
                    Pace::Clock {
                        remaining,
                        increment,
                    } => {
                        self.engine.set_level(None);
                        self.engine.set_depth(None);
                        Some(Clock {
                            remaining,
                            increment,
                        })
                    }
                };
                let mut lines = Lines {
                    job: job.id,
                    sink,
                    last: HashMap::new(),
                };
                match self.engine.choose(clock, None, &mut lines) {
                    Ok(decision) => Outcome::Moved {
                        mv: decision.mv,
                        eval: decision.eval,
                    },
                    Err(e) => Outcome::Failed(e.to_string()),
                }
            }
            Task::Hints(depth) => {
                self.engine.set_game(job.game.clone());
                self.engine.set_level(None);
                self.engine.set_depth(Some(depth));
                let board = job.game.position().board;
                let k = board.moves().count_ones().max(1) as usize;
                let mut lines = Lines {
                    job: job.id,
                    sink,
                    last: HashMap::new(),
                };
                match self.engine.hint(k, &mut lines) {
                    Hint::GameOver => Outcome::Failed("the game is over".to_string()),
                    Hint::Book(moves) => {
                        for m in &moves {
                            (lines.sink)(Reply::Line(Line {
                                job: job.id,
                                mv: m.mv.to_string(),
                                shown: Shown {
                                    value: CentiDiscs::from(i32::from(m.value)).to_discs(),
                                    kind: ValueKind::Book,
                                },
                                depth: u32::from(m.depth),
                                selectivity: 100,
                                pv: m.mv.to_string(),
                                nodes: 0,
                            }));
                        }
                        Outcome::Hinted(moves.first().map(|m| m.search_value()))
                    }
                    Hint::Searched { .. } => Outcome::Hinted(
                        lines
                            .last
                            .values()
                            .copied()
                            .max_by(|a, b| a.discs().total_cmp(&b.discs())),
                    ),
                }
            }
            Task::Analyze(depth) => {
                self.engine.set_game(job.game.clone());
                self.engine.set_level(None);
                self.engine.set_depth(Some(depth));
                let mut values = Vec::new();
                let _ = self.engine.analyze(|ply, value| {
                    values.push((ply, value));
                    Ok::<(), ()>(())
                });
                Outcome::Analysed(values)
            }
            Task::Review { depth, exact } => self.review(&job.game, depth, exact),
        }
    }

    fn review(&mut self, game: &Game, depth: u32, exact: u32) -> Outcome {
        let mut moves = Vec::new();
        for record in game.moves() {
            if let crate::board::Move::Place(sq) = record.mv {
                moves.push(sq);
            }
        }
        let record = GameRecord {
            black: game.black_name.clone(),
            white: game.white_name.clone(),
            ..GameRecord::from_moves(moves)
        };
        if self.reviewer.is_none() {
            match Searcher::try_new(self.eval.clone(), REVIEW_HASH_MB) {
                Ok(searcher) => {
                    self.stop.add(searcher.stop_flag());
                    self.reviewer = Some(searcher);
                }
                Err(e) => return Outcome::Failed(e.to_string()),
            }
        }
        let Some(searcher) = self.reviewer.as_mut() else {
            return Outcome::Failed("no searcher".to_string());
        };
        let options = ReviewOptions {
            effort: Effort::Depth(depth),
            exact_empties: exact,
            book: self.book.clone(),
        };
        let result = review::review_game(&record, searcher, &options, &mut |_| {});
        if self.stop.raised() {
            return Outcome::Failed("stopped before the end; nothing to show".to_string());
        }
        match result {
            Ok(r) => {
                let json = review::json::to_json(&r);
                match serde_json::from_str(&json) {
                    Ok(json) => Outcome::Reviewed {
                        json,
                        html: review::html::to_html(&r),
                    },
                    Err(e) => Outcome::Failed(format!("the review's JSON: {e}")),
                }
            }
            Err(e) => Outcome::Failed(e.to_string()),
        }
    }
}

/// Passes each search iteration on as a line, and remembers each move's last value.
struct Lines<'a> {
    job: u64,
    sink: &'a mut dyn FnMut(Reply),
    last: HashMap<String, Value>,
}

impl Observer for Lines<'_> {
    fn on_iteration(&mut self, result: &SearchResult) {
        let line = Line::from_result(self.job, result);
        self.last.insert(line.mv.clone(), result.value);
        (self.sink)(Reply::Line(line));
    }
}

impl MoveObserver for Lines<'_> {}
