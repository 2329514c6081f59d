//! Fuzz target: arbitrary bytes as a session of the board server (`othello serve`,
//! docs/SERVE.md), without a socket: each line is one WebSocket message given to
//! `Session::handle`, and a line that starts with byte 0x01 ends the running job with an
//! outcome of its kind chosen by the next byte (a move, hints, an analysis, a review or a
//! failure). The property test `tests/serve_session.rs` generates messages from templates;
//! this target finds what the templates leave out.
//!
//! Checks: no panic; every message answered; a refused one (an `error`) is the only reply and
//! changes nothing (state, redo list, running job); at most one job runs; every job is
//! started once and done once.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use othello::board::Move;
use othello::search::Value;
use othello::web::{Job, Outcome, Output, Reply, Session, Task};

fn outcome(job: &Job, choice: u8) -> Outcome {
    let board = job.game.position().board;
    if choice % 7 == 0 {
        return Outcome::Failed("busy".to_string());
    }
    match job.task {
        Task::Go(_) => Outcome::Moved {
            mv: board
                .legal_moves()
                .nth(usize::from(choice) % board.moves().count_ones().max(1) as usize)
                .map_or(Move::Pass, Move::Place),
            eval: Some(f64::from(choice) - 100.0),
        },
        Task::Hints(_) => Outcome::Hinted(Some(Value::Heuristic(i32::from(choice) * 10))),
        Task::Analyze(_) => Outcome::Analysed(vec![(usize::from(choice), Value::Exact(2))]),
        Task::Review { .. } => Outcome::Reviewed {
            json: serde_json::Value::Null,
            html: String::new(),
        },
    }
}

fuzz_target!(|data: &[u8]| {
    let mut session = Session::new();
    let mut running: Option<Job> = None;
    let mut started = BTreeSet::new();
    let mut done = BTreeSet::new();
    for line in data.split(|&b| b == b'\n') {
        let outputs = if line.first() == Some(&1) {
            let Some(job) = running.take() else { continue };
            session.finish(job.id, outcome(&job, line.get(1).copied().unwrap_or(0)))
        } else {
            let text = String::from_utf8_lossy(line);
            let before = (session.view(), format!("{:?}", session.redo_moves()), session.running_job());
            let outputs = session.handle(&text);
            assert!(!outputs.is_empty(), "no answer");
            if outputs.iter().any(|o| matches!(o, Output::Reply(Reply::Error { .. }))) {
                assert_eq!(outputs.len(), 1);
                let after = (session.view(), format!("{:?}", session.redo_moves()), session.running_job());
                assert_eq!(after, before, "a refused message changed the session");
            }
            outputs
        };
        for output in outputs {
            match output {
                Output::Reply(Reply::Started { job, .. }) => assert!(started.insert(job)),
                Output::Reply(Reply::Done { job, .. }) => {
                    assert!(started.contains(&job));
                    assert!(done.insert(job));
                }
                Output::Start(job) => {
                    assert!(running.is_none(), "two jobs at once");
                    running = Some(*job);
                }
                _ => {}
            }
        }
    }
});
