//! The board server's session (`othello::web::session`) fed random message sequences, with
//! no socket: well-formed requests, requests out of order, malformed and oversized ones,
//! interleaved with the ends of the jobs they start. Checked at every step:
//!
//! - no panic, and every request answered (a reply, or the stop of the running job);
//! - a refused request (an `error` reply) changes nothing: the same state, the same redo
//!   list, no job started or stopped;
//! - at most one job runs; every job announced `started` ends with exactly one `done`;
//! - the state drawn is consistent: the board has the discs counted, the legal moves are the
//!   board's, the graph has one point per position of the line.
//!
//! Jobs are run by a model of the worker here (fast, seeded), and in the last test by the
//! real worker on the engine at small depths.

use std::collections::BTreeSet;

use othello::board::{Move, Position};
use othello::engine::EngineOptions;
use othello::rng::SplitMix64;
use othello::search::Value;
use othello::web::message::{JobKind, StateView, MAX_REQUEST_BYTES};
use othello::web::{Job, Outcome, Output, Reply, Session, Task, Worker};
use othello::Board;
use proptest::prelude::*;

/// A request text: mostly well-formed, some out of range, some malformed.
fn request(rng: &mut SplitMix64) -> String {
    let n = rng.below(100);
    let square = |rng: &mut SplitMix64| {
        let f = b"abcdefghij"[rng.below(10) as usize] as char;
        format!("{f}{}", rng.below(10))
    };
    match n {
        0..=19 => format!(r#"{{"type":"play","move":"{}"}}"#, square(rng)),
        20..=24 => r#"{"type":"play","move":"pass"}"#.to_string(),
        25..=31 => r#"{"type":"undo"}"#.to_string(),
        32..=36 => r#"{"type":"redo"}"#.to_string(),
        37..=40 => format!(r#"{{"type":"jump","ply":{}}}"#, rng.below(70)),
        41..=47 => format!(r#"{{"type":"go","level":{}}}"#, rng.below(64)),
        48..=53 => format!(r#"{{"type":"hints","depth":{}}}"#, rng.below(34)),
        54..=55 => format!(r#"{{"type":"analyze","depth":{}}}"#, rng.below(34)),
        56..=57 => format!(
            r#"{{"type":"review","depth":{},"exact":{}}}"#,
            rng.below(24),
            rng.below(30)
        ),
        58..=62 => r#"{"type":"stop"}"#.to_string(),
        63..=64 => r#"{"type":"state"}"#.to_string(),
        65..=66 => r#"{"type":"new"}"#.to_string(),
        67..=70 => {
            let moves: String = (0..rng.below(12)).map(|_| square(rng)).collect();
            format!(r#"{{"type":"setup","kind":"moves","text":"{moves}"}}"#)
        }
        71..=72 => {
            let chars = b"XO--..xz ";
            let text: String = (0..rng.below(70))
                .map(|_| chars[rng.below(chars.len() as u64) as usize] as char)
                .collect();
            format!(r#"{{"type":"setup","kind":"board","text":"{text}"}}"#)
        }
        73..=74 => {
            let moves: String = (0..rng.below(6))
                .map(|_| format!("B[{}]", square(rng)))
                .collect();
            format!(
                r#"{{"type":"setup","kind":"ggf","text":"(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]{moves};)"}}"#
            )
        }
        75 => "x".repeat(MAX_REQUEST_BYTES + 1 + rng.below(100) as usize),
        76 => format!(
            r#"{{"type":"setup","kind":"moves","text":"{}"}}"#,
            "f5".repeat(MAX_REQUEST_BYTES / 2)
        ),
        77 => r#"{"type":"play","move":"f5","extra":1}"#.to_string(),
        78 => r#"{"type":"play"}"#.to_string(),
        79 => r#"{"type":"go","level":"high"}"#.to_string(),
        80 => r#"{"type":"jump","ply":-1}"#.to_string(),
        81 => r#"{"type":"launch"}"#.to_string(),
        82 => r#"[]"#.to_string(),
        83 => String::new(),
        84 => r#"{"type":"hints","depth":1e9}"#.to_string(),
        85 => r#"{"type":"go","level":18446744073709551617}"#.to_string(),
        86 => "\u{0}\u{ffff}{".to_string(),
        87 => r#"{"type":"setup","kind":"wtb","text":""}"#.to_string(),
        88..=89 => {
            // The clock: in range, out of range, with a level, without either.
            let time = [0.0, -1.0, 0.5, 30.0, 1e9][rng.below(5) as usize];
            match rng.below(4) {
                0 => format!(r#"{{"type":"go","time":{time}}}"#),
                1 => format!(
                    r#"{{"type":"go","time":{time},"increment":{}}}"#,
                    rng.below(5)
                ),
                2 => format!(r#"{{"type":"go","level":3,"time":{time}}}"#),
                _ => r#"{"type":"go","increment":2}"#.to_string(),
            }
        }
        _ => {
            let len = rng.below(40) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(128) as u8).collect();
            String::from_utf8_lossy(&bytes).to_string()
        }
    }
}

/// A model of the worker: an outcome of the right kind for the job, or a refusal.
fn model_outcome(job: &Job, rng: &mut SplitMix64) -> Outcome {
    if rng.below(10) == 0 {
        return Outcome::Failed("busy: the model says so".to_string());
    }
    let board = job.game.position().board;
    match job.task {
        Task::Go(_) => {
            let mv = board
                .legal_moves()
                .nth(rng.below(u64::from(board.moves().count_ones().max(1))) as usize)
                .map_or(Move::Pass, Move::Place);
            Outcome::Moved {
                mv,
                eval: Some(rng.below(20) as f64 - 10.0),
            }
        }
        Task::Hints(_) => Outcome::Hinted(Some(Value::Heuristic(rng.below(800) as i32 - 400))),
        Task::Analyze(_) => Outcome::Analysed(
            (0..=job.game.moves().len())
                .map(|ply| (ply, Value::Exact(rng.below(20) as i32 - 10)))
                .collect(),
        ),
        Task::Review { .. } => Outcome::Reviewed {
            json: serde_json::json!({"moves": []}),
            html: "<html></html>".to_string(),
        },
    }
}

/// The bookkeeping of jobs seen in replies.
#[derive(Default)]
struct Jobs {
    started: BTreeSet<u64>,
    done: BTreeSet<u64>,
    /// The job the transport is running (at most one).
    running: Option<Job>,
}

impl Jobs {
    fn take(&mut self, outputs: &[Output]) {
        for output in outputs {
            match output {
                Output::Reply(Reply::Started { job, .. }) => {
                    assert!(self.started.insert(*job), "job {job} started twice");
                }
                Output::Reply(Reply::Done { job, .. }) => {
                    assert!(self.started.contains(job), "job {job} done, never started");
                    assert!(self.done.insert(*job), "job {job} done twice");
                }
                Output::Start(job) => {
                    assert!(
                        self.running.is_none(),
                        "job {} started while job {} runs",
                        job.id,
                        self.running.as_ref().unwrap().id
                    );
                    assert!(
                        self.started.contains(&job.id),
                        "job {} not announced",
                        job.id
                    );
                    self.running = Some(job.as_ref().clone());
                }
                _ => {}
            }
        }
    }
}

/// What a refused request must leave as it was.
fn snapshot(session: &Session) -> (StateView, String, Option<u64>) {
    (
        session.view(),
        format!("{:?}", session.redo_moves()),
        session.running_job(),
    )
}

fn check_view(view: &StateView) {
    assert_eq!(view.board.len(), 64);
    let black = view.board.matches('b').count() as u32;
    let white = view.board.matches('w').count() as u32;
    assert_eq!(view.discs, [black, white]);
    assert_eq!(view.graph.len(), view.line.len() + 1);
    assert!(view.ply <= view.line.len());
    // The legal moves are the board's: rebuild the position from the drawn board.
    let text: String = view
        .board
        .chars()
        .map(|c| match c {
            'b' => 'X',
            'w' => 'O',
            _ => '-',
        })
        .collect();
    let side = if view.to_move == "black" { 'X' } else { 'O' };
    let position: Position = format!("{text} {side}").parse().unwrap();
    let moves = if position.board.is_game_over() {
        0
    } else {
        position.board.moves()
    };
    let legal: Vec<String> = othello::Square::ALL
        .iter()
        .filter(|sq| moves & sq.bit() != 0)
        .map(|sq| sq.to_string())
        .collect();
    assert_eq!(view.legal, legal);
    assert_eq!(view.over, position.board.is_game_over());
    // Forced passes are played: the side to move can move, or the game is over.
    assert!(view.over || !view.legal.is_empty(), "{view:?}");
}

/// Runs one random session of `steps` steps; `outcome` runs the jobs.
fn run(seed: u64, steps: usize, mut outcome: impl FnMut(&Job, &mut SplitMix64) -> Outcome) {
    let mut rng = SplitMix64::new(seed);
    let mut session = Session::new();
    let mut jobs = Jobs::default();
    for _ in 0..steps {
        if jobs.running.is_some() && rng.below(3) == 0 {
            let job = jobs.running.take().unwrap();
            let result = outcome(&job, &mut rng);
            let outputs = session.finish(job.id, result);
            jobs.take(&outputs);
            check_view(&session.view());
            continue;
        }
        let text = request(&mut rng);
        let before = snapshot(&session);
        let outputs = session.handle(&text);
        assert!(!outputs.is_empty(), "no answer to {text:?}");
        let refused = outputs
            .iter()
            .any(|o| matches!(o, Output::Reply(Reply::Error { .. })));
        if refused {
            assert_eq!(outputs.len(), 1, "{text:?}: an error and more: {outputs:?}");
            assert_eq!(
                snapshot(&session),
                before,
                "{text:?} refused but changed the state"
            );
            if let Output::Reply(Reply::Error { message, .. }) = &outputs[0] {
                assert!(!message.is_empty());
                assert!(message.len() < 400, "a long message: {message}");
            }
        }
        jobs.take(&outputs);
        check_view(&session.view());
    }
    // Drive every job to its end: each started job is done.
    let mut rounds = 0;
    while let Some(job) = jobs.running.take() {
        let result = outcome(&job, &mut rng);
        let outputs = session.finish(job.id, result);
        jobs.take(&outputs);
        rounds += 1;
        assert!(rounds < 10, "jobs keep starting");
    }
    assert_eq!(jobs.started, jobs.done, "jobs started but never done");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_message_sequences_keep_every_rule(seed in any::<u64>()) {
        run(seed, 300, model_outcome);
    }
}

#[test]
fn a_game_is_played_to_the_end_through_messages() {
    let mut session = Session::new();
    let mut board = Board::start();
    let mut plies = 0;
    while !board.is_game_over() {
        let sq = board
            .legal_moves()
            .next()
            .expect("passes are played by the session");
        let out = session.handle(&format!(r#"{{"type":"play","move":"{sq}"}}"#));
        assert!(
            matches!(&out[..], [Output::Reply(Reply::State(_))]),
            "{out:?}"
        );
        board = board.play(sq);
        if board.moves() == 0 && !board.is_game_over() {
            board = board.pass();
        }
        plies += 1;
    }
    let view = session.view();
    assert!(view.over);
    assert!(plies >= 30);
    // Playing on is refused; undo then redo come back to the end.
    let out = session.handle(r#"{"type":"play","move":"pass"}"#);
    assert!(matches!(&out[..], [Output::Reply(Reply::Error { .. })]));
    session.handle(r#"{"type":"undo"}"#);
    assert!(!session.view().over);
    session.handle(r#"{"type":"redo"}"#);
    assert_eq!(session.view(), view);
    // The GGF reads back into the same game.
    let ggf = view.ggf.clone();
    let out =
        session.handle(&serde_json::json!({"type":"setup","kind":"ggf","text":ggf}).to_string());
    assert!(matches!(&out[..], [Output::Reply(Reply::State(_))]));
    assert_eq!(session.view().move_list, view.move_list);
    assert_eq!(session.view().ply, view.ply);
}

#[test]
fn a_change_of_position_drops_the_running_job_and_starts_the_waiting_one() {
    let mut session = Session::new();
    let out = session.handle(r#"{"type":"hints","depth":4}"#);
    let Some(Output::Start(first)) = out.iter().find(|o| matches!(o, Output::Start(_))) else {
        panic!("{out:?}")
    };
    let first = first.clone();
    // Busy: a second job is refused while the first one runs.
    let out = session.handle(r#"{"type":"go","level":1}"#);
    assert!(
        matches!(&out[..], [Output::Reply(Reply::Error { .. })]),
        "{out:?}"
    );
    // A move stops the hints; a job asked for then waits.
    let out = session.handle(r#"{"type":"play","move":"f5"}"#);
    assert!(out.iter().any(|o| matches!(o, Output::Stop)));
    assert!(!session.forwards(first.id));
    let out = session.handle(r#"{"type":"go","level":1}"#);
    assert!(matches!(
        &out[..],
        [Output::Reply(Reply::Started {
            kind: JobKind::Go,
            ..
        })]
    ));
    // The dropped job ends: done (stopped), and the waiting one starts on the new position.
    let out = session.finish(first.id, Outcome::Hinted(Some(Value::Heuristic(300))));
    match &out[..] {
        [Output::Reply(Reply::Done { stopped: true, .. }), Output::Start(job)] => {
            assert_eq!(job.game.moves().len(), 1);
            assert_eq!(job.task.kind(), JobKind::Go);
        }
        _ => panic!("{out:?}"),
    }
    // The hint's value, dropped, is not in the graph.
    assert_eq!(session.view().graph, vec![None, None]);
}

#[test]
fn the_real_worker_runs_random_sessions() {
    let options = EngineOptions {
        hash_mb: 1,
        depth_cap: Some(4),
        node_cap: Some(50_000),
        ..EngineOptions::default()
    };
    let mut worker = Worker::new(options).unwrap();
    for seed in 0..3 {
        run(seed, 150, |job, _| {
            // A review searches with its own searcher, which the caps do not bound.
            let small = Job {
                task: match job.task {
                    Task::Review { .. } => Task::Review { depth: 2, exact: 4 },
                    task => task,
                },
                ..job.clone()
            };
            let mut lines = Vec::new();
            let outcome = worker.run(&small, &mut |reply| lines.push(reply));
            for line in &lines {
                let Reply::Line(line) = line else {
                    panic!("not a line: {line:?}")
                };
                assert_eq!(line.job, job.id);
            }
            if let (Task::Go(_), Outcome::Moved { mv, .. }) = (job.task, &outcome) {
                let board = job.game.position().board;
                assert!(board.try_play_move(*mv).is_ok(), "{mv} illegal");
            }
            outcome
        });
    }
}
