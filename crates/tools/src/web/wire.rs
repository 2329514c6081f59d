//! Jobs and their outcomes as JSON, for a session and a worker that do not share memory: the
//! static page (crates/web), where the [`Session`](super::Session) runs in the page and the
//! [`Worker`](super::Worker) in a Web Worker, each a WebAssembly instance of its own.
//!
//! A job crosses as its start position (a board string) and its moves; an outcome as a tagged
//! object. [`stopped_outcome`] is what a job that was cut off (the Web Worker terminated, the
//! only way to stop a search that runs on the browser's one thread) leaves behind: the engine's
//! move is the best of its last search line, hints keep the values they sent.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::message::{JobKind, Line, ValueKind};
use super::session::{Job, Outcome, Pace, Task};
use crate::board::{Move, Position};
use crate::engine::Level;
use crate::game::{Game, MoveRecord};
use crate::search::Value;

/// A job as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobWire {
    /// The job's number.
    pub id: u64,
    /// What to do.
    pub task: TaskWire,
    /// The game's start position, a board string.
    pub start: String,
    /// The game's moves (`f5`, `PA` for a pass).
    pub moves: Vec<String>,
}

/// A task as JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TaskWire {
    /// [`Task::Go`] at a level.
    Go {
        /// The level.
        level: u32,
    },
    /// [`Task::Go`] by the clock.
    GoClock {
        /// Time left, milliseconds.
        remaining_ms: u64,
        /// Increment, milliseconds.
        increment_ms: u64,
    },
    /// [`Task::Hints`].
    Hints {
        /// The depth.
        depth: u32,
    },
    /// [`Task::Analyze`].
    Analyze {
        /// The depth.
        depth: u32,
    },
    /// [`Task::Review`].
    Review {
        /// The midgame depth.
        depth: u32,
        /// The solved empties.
        exact: u32,
    },
}

/// A search value as JSON: its kind and its number (centi-discs for a heuristic, discs for
/// an exact or probable score, ±1 or 0 for a WLD one).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum ValueWire {
    /// [`Value::Heuristic`].
    Heuristic(i32),
    /// [`Value::Exact`].
    Exact(i32),
    /// [`Value::Wld`].
    Wld(i32),
    /// [`Value::Probable`].
    Probable(i32),
}

impl From<Value> for ValueWire {
    fn from(v: Value) -> ValueWire {
        match v {
            Value::Heuristic(x) => ValueWire::Heuristic(x),
            Value::Exact(x) => ValueWire::Exact(x),
            Value::Wld(x) => ValueWire::Wld(x),
            Value::Probable(x) => ValueWire::Probable(x),
        }
    }
}

impl From<ValueWire> for Value {
    fn from(v: ValueWire) -> Value {
        match v {
            ValueWire::Heuristic(x) => Value::Heuristic(x),
            ValueWire::Exact(x) => Value::Exact(x),
            ValueWire::Wld(x) => Value::Wld(x),
            ValueWire::Probable(x) => Value::Probable(x),
        }
    }
}

/// An outcome as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case", deny_unknown_fields)]
pub enum OutcomeWire {
    /// [`Outcome::Moved`].
    Moved {
        /// The move (`f5`, `PA`).
        #[serde(rename = "move")]
        mv: String,
        /// Its value for the mover, discs.
        eval: Option<f64>,
    },
    /// [`Outcome::Hinted`].
    Hinted {
        /// The position's value.
        value: Option<ValueWire>,
    },
    /// [`Outcome::Analysed`].
    Analysed {
        /// (ply, value) pairs.
        values: Vec<(usize, ValueWire)>,
    },
    /// [`Outcome::Reviewed`].
    Reviewed {
        /// The review's JSON.
        json: serde_json::Value,
        /// The review's page.
        html: String,
    },
    /// [`Outcome::Failed`].
    Failed {
        /// Why.
        message: String,
    },
}

impl JobWire {
    /// The wire form of `job`.
    pub fn from_job(job: &Job) -> JobWire {
        let task = match job.task {
            Task::Go(Pace::Level(level)) => TaskWire::Go {
                level: level.number(),
            },
            Task::Go(Pace::Clock {
                remaining,
                increment,
            }) => TaskWire::GoClock {
                remaining_ms: remaining.as_millis().try_into().unwrap_or(u64::MAX),
                increment_ms: increment.as_millis().try_into().unwrap_or(u64::MAX),
            },
            Task::Hints(depth) => TaskWire::Hints { depth },
            Task::Analyze(depth) => TaskWire::Analyze { depth },
            Task::Review { depth, exact } => TaskWire::Review { depth, exact },
        };
        JobWire {
            id: job.id,
            task,
            start: job.game.start().to_board_string(),
            moves: job.game.moves().iter().map(|r| r.mv.to_string()).collect(),
        }
    }

    /// The job again, or what is wrong with the text.
    pub fn to_job(&self) -> Result<Job, String> {
        let task = match self.task {
            TaskWire::Go { level } => Task::Go(Pace::Level(Level::new(level).map_err(|e| e.0)?)),
            TaskWire::GoClock {
                remaining_ms,
                increment_ms,
            } => Task::Go(Pace::Clock {
                remaining: Duration::from_millis(remaining_ms),
                increment: Duration::from_millis(increment_ms),
            }),
            TaskWire::Hints { depth } => Task::Hints(depth),
            TaskWire::Analyze { depth } => Task::Analyze(depth),
            TaskWire::Review { depth, exact } => Task::Review { depth, exact },
        };
        let start: Position = self
            .start
            .parse()
            .map_err(|e| format!("the job's start position: {e}"))?;
        let mut game = Game::new(start);
        for text in &self.moves {
            let mv: Move = text
                .parse()
                .map_err(|e| format!("the job's move {text:?}: {e}"))?;
            game.push(MoveRecord::new(mv))
                .map_err(|e| format!("the job's move {text}: {e}"))?;
        }
        Ok(Job {
            id: self.id,
            game,
            task,
        })
    }
}

impl OutcomeWire {
    /// The wire form of `outcome`.
    pub fn from_outcome(outcome: Outcome) -> OutcomeWire {
        match outcome {
            Outcome::Moved { mv, eval } => OutcomeWire::Moved {
                mv: mv.to_string(),
                eval,
            },
            Outcome::Hinted(value) => OutcomeWire::Hinted {
                value: value.map(ValueWire::from),
            },
            Outcome::Analysed(values) => OutcomeWire::Analysed {
                values: values.into_iter().map(|(p, v)| (p, v.into())).collect(),
            },
            Outcome::Reviewed { json, html } => OutcomeWire::Reviewed { json, html },
            Outcome::Failed(message) => OutcomeWire::Failed { message },
        }
    }

    /// The outcome again, or what is wrong with the text.
    pub fn to_outcome(self) -> Result<Outcome, String> {
        Ok(match self {
            OutcomeWire::Moved { mv, eval } => Outcome::Moved {
                mv: mv
                    .parse()
                    .map_err(|e| format!("the outcome's move {mv:?}: {e}"))?,
                eval,
            },
            OutcomeWire::Hinted { value } => Outcome::Hinted(value.map(Value::from)),
            OutcomeWire::Analysed { values } => {
                Outcome::Analysed(values.into_iter().map(|(p, v)| (p, v.into())).collect())
            }
            OutcomeWire::Reviewed { json, html } => Outcome::Reviewed { json, html },
            OutcomeWire::Failed { message } => Outcome::Failed(message),
        })
    }
}

/// The value a shown line stands for (the display rounds a heuristic to centi-discs anyway).
pub fn line_value(line: &Line) -> Value {
    let v = line.shown.value;
    match line.shown.kind {
        ValueKind::Heuristic | ValueKind::Book => Value::Heuristic((v * 100.0).round() as i32),
        ValueKind::Exact => Value::Exact(v.round() as i32),
        ValueKind::Wld => Value::Wld(v.round() as i32),
        ValueKind::Probable => Value::Probable(v.round() as i32),
    }
}

/// The outcome of a job of `kind` cut off after streaming `lines` (oldest first): a move
/// choice plays the first move of its last line (the deepest iteration finished), or fails if
/// it sent none; hints keep their best value; an analysis or a review is lost.
pub fn stopped_outcome(kind: JobKind, lines: &[Line]) -> Outcome {
    match kind {
        JobKind::Go => match lines.last() {
            Some(line) => match line.mv.parse::<Move>() {
                Ok(mv) => Outcome::Moved {
                    mv,
                    eval: Some(line.shown.value),
                },
                Err(e) => Outcome::Failed(format!("the last line's move {:?}: {e}", line.mv)),
            },
            None => Outcome::Failed("stopped before the first iteration ended".to_string()),
        },
        JobKind::Hints => Outcome::Hinted(
            lines
                .iter()
                .map(line_value)
                .max_by(|a, b| a.discs().total_cmp(&b.discs())),
        ),
        JobKind::Analyze => Outcome::Analysed(Vec::new()),
        JobKind::Review => Outcome::Failed("stopped before the end; nothing to show".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_crosses_the_wire_unchanged_passes_included() {
        let mut session = super::super::Session::new();
        let outputs = session.handle(r#"{"type":"setup","kind":"moves","text":"f5d6c3d3c4"}"#);
        assert!(!outputs.is_empty());
        let outputs = session.handle(r#"{"type":"hints","depth":3}"#);
        let job = outputs
            .into_iter()
            .find_map(|o| match o {
                super::super::Output::Start(job) => Some(*job),
                _ => None,
            })
            .expect("a job");
        let wire = JobWire::from_job(&job);
        let text = serde_json::to_string(&wire).unwrap();
        let back: JobWire = serde_json::from_str(&text).unwrap();
        let again = back.to_job().unwrap();
        assert_eq!(again.id, job.id);
        assert_eq!(again.task, job.task);
        assert_eq!(again.game.positions(), job.game.positions());
        assert_eq!(wire.moves, ["f5", "d6", "c3", "d3", "c4"]);
    }

    /// A game of pseudo-random moves that contains a pass, played to its end.
    fn game_with_a_pass() -> Game {
        let mut seed = 1u64;
        loop {
            let mut game = Game::default();
            let mut passed = false;
            loop {
                let board = game.position().board;
                if board.is_game_over() {
                    break;
                }
                let moves: Vec<_> = board.legal_moves().collect();
                let mv = if moves.is_empty() {
                    passed = true;
                    Move::Pass
                } else {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    Move::Place(moves[(seed >> 33) as usize % moves.len()])
                };
                game.push(MoveRecord::new(mv)).unwrap();
            }
            if passed {
                return game;
            }
        }
    }

    #[test]
    fn a_game_with_a_pass_and_a_set_up_start_cross_the_wire() {
        let game = game_with_a_pass();
        assert!(game.moves().iter().any(|r| r.mv == Move::Pass));
        let job = Job {
            id: 7,
            game: game.clone(),
            task: Task::Go(Pace::Level(Level::new(5).unwrap())),
        };
        let wire = JobWire::from_job(&job);
        assert!(wire.moves.iter().any(|m| m == "PA"), "{:?}", wire.moves);
        let again = wire.to_job().unwrap();
        assert_eq!(again.game.positions(), game.positions());
        assert_eq!(wire.task, TaskWire::Go { level: 5 });
        // A set-up start: the position after ten moves of that game.
        let start = game.positions()[10];
        let job = Job {
            id: 8,
            game: Game::new(start),
            task: Task::Review {
                depth: 4,
                exact: 10,
            },
        };
        let again = JobWire::from_job(&job).to_job().unwrap();
        assert_eq!(again.game.start(), start);
        assert_eq!(again.task, job.task);
    }

    #[test]
    fn bad_jobs_are_refused_with_a_reason() {
        let mut wire = JobWire {
            id: 1,
            task: TaskWire::Go { level: 61 },
            start: Position::start().to_board_string(),
            moves: vec![],
        };
        assert!(wire.to_job().is_err());
        wire.task = TaskWire::Hints { depth: 4 };
        wire.moves = vec!["a1".to_string()];
        assert!(wire.to_job().unwrap_err().contains("a1"));
        wire.moves = vec![];
        wire.start = "nonsense".to_string();
        assert!(wire.to_job().unwrap_err().contains("start"));
        assert!(serde_json::from_str::<JobWire>(r#"{"id":1}"#).is_err());
    }

    #[test]
    fn every_outcome_crosses_the_wire_unchanged() {
        let outcomes = [
            Outcome::Moved {
                mv: "f5".parse().unwrap(),
                eval: Some(1.25),
            },
            Outcome::Moved {
                mv: Move::Pass,
                eval: None,
            },
            Outcome::Hinted(Some(Value::Exact(-4))),
            Outcome::Hinted(None),
            Outcome::Analysed(vec![(0, Value::Heuristic(12)), (3, Value::Probable(6))]),
            Outcome::Reviewed {
                json: serde_json::json!({"moves": [1, 2]}),
                html: "<p>x</p>".to_string(),
            },
            Outcome::Failed("why".to_string()),
        ];
        for outcome in outcomes {
            let text = serde_json::to_string(&OutcomeWire::from_outcome(outcome.clone())).unwrap();
            let back: OutcomeWire = serde_json::from_str(&text).unwrap();
            assert_eq!(back.to_outcome().unwrap(), outcome, "{text}");
        }
        let bad = OutcomeWire::Moved {
            mv: "z9".to_string(),
            eval: None,
        };
        assert!(bad.to_outcome().is_err());
    }

    fn line(mv: &str, value: f64, kind: ValueKind) -> Line {
        Line {
            job: 1,
            mv: mv.to_string(),
            shown: super::super::message::Shown { value, kind },
            depth: 3,
            selectivity: 100,
            pv: mv.to_string(),
            nodes: 10,
        }
    }

    #[test]
    fn a_stopped_job_keeps_what_its_lines_said() {
        let lines = [
            line("d3", 0.5, ValueKind::Heuristic),
            line("c4", 1.75, ValueKind::Heuristic),
            line("e6", -3.0, ValueKind::Exact),
        ];
        assert_eq!(
            stopped_outcome(JobKind::Go, &lines),
            Outcome::Moved {
                mv: "e6".parse().unwrap(),
                eval: Some(-3.0)
            }
        );
        assert_eq!(
            stopped_outcome(JobKind::Hints, &lines),
            Outcome::Hinted(Some(Value::Heuristic(175)))
        );
        assert!(matches!(
            stopped_outcome(JobKind::Go, &[]),
            Outcome::Failed(_)
        ));
        assert_eq!(stopped_outcome(JobKind::Hints, &[]), Outcome::Hinted(None));
        assert!(matches!(
            stopped_outcome(JobKind::Review, &lines),
            Outcome::Failed(_)
        ));
    }
}
