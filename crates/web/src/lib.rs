//! othello-web: the board page without a server. The page's [`Session`] and the engine's
//! [`Worker`] (crates/tools, `web`) compiled to WebAssembly, for `web/static.js`:
//!
//! - [`Page`] runs in the page itself. It is the session of `othello serve`: requests in,
//!   replies and jobs out, the same JSON ([SERVE.md](../../docs/SERVE.md)). It remembers the
//!   search lines of the running job, so that when the job is cut off it can finish it as a
//!   stop would (the engine plays its best move so far, hints keep their values).
//! - [`Runner`] runs in a Web Worker: one job at a time, on one thread, with the embedded
//!   weights and book, its search lines passed to a JavaScript callback as they come.
//!
//! Why two instances: a search in WebAssembly holds the worker's only thread until it ends,
//! so nothing can raise its stop flag. The page stops a job by terminating the Web Worker and
//! starting another; the session, in the page, loses nothing. Jobs and outcomes cross between
//! the two as JSON ([`othello_tools::web::wire`]).
//!
//! Every function here is also plain Rust, tested natively (the `wasm_bindgen` attributes only
//! add the JavaScript bindings).
#![deny(missing_docs)]

use othello_engine::engine::EngineOptions;
use othello_tools::web::message::{Line, Reply};
use othello_tools::web::wire::{stopped_outcome, JobWire, OutcomeWire};
use othello_tools::web::{Output, Session, Worker};
use wasm_bindgen::prelude::*;

/// The session of the page: [`Session`] with the lines of its running job.
#[wasm_bindgen]
#[derive(Default)]
pub struct Page {
    session: Session,
    /// The running job's lines sent so far (the job and its lines).
    lines: Option<(u64, Vec<Line>)>,
}

#[wasm_bindgen]
impl Page {
    /// A session at the standard start.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Page {
        Page::default()
    }

    /// Answers one request (the text the page would send to the server): a JSON array of
    /// actions, each `{"reply": REPLY}` (pass it to the page), `{"start": JOB}` (run it in the
    /// worker) or `{"stop": ID}` (cut job ID off and call [`Page::stopped`]).
    pub fn handle(&mut self, text: &str) -> String {
        let outputs = self.session.handle(text);
        self.actions(outputs)
    }

    /// A search line the worker sent for job `job` (a `line` reply's JSON): whether to pass it
    /// to the page (the job runs and was not dropped). A line that cannot be read is dropped.
    /// (Job numbers cross as JavaScript numbers, exact below 2^53.)
    pub fn line(&mut self, job: f64, text: &str) -> bool {
        let job = job as u64;
        if !self.session.forwards(job) {
            return false;
        }
        let Ok(Reply::Line(line)) = serde_json::from_str::<Reply>(text) else {
            return false;
        };
        match &mut self.lines {
            Some((id, lines)) if *id == job => lines.push(line),
            _ => self.lines = Some((job, vec![line])),
        }
        true
    }

    /// The worker's outcome of job `job` (an [`OutcomeWire`]'s JSON): the actions that follow,
    /// as [`Page::handle`] gives them.
    pub fn finish(&mut self, job: f64, text: &str) -> String {
        let job = job as u64;
        let outcome = match serde_json::from_str::<OutcomeWire>(text)
            .map_err(|e| e.to_string())
            .and_then(OutcomeWire::to_outcome)
        {
            Ok(outcome) => outcome,
            Err(e) => othello_tools::web::Outcome::Failed(format!("the worker's outcome: {e}")),
        };
        self.end(job, outcome)
    }

    /// Job `job` was cut off (its worker terminated): it ends as a stop ends it.
    pub fn stopped(&mut self, job: f64) -> String {
        let job = job as u64;
        let lines = match self.lines.take() {
            Some((id, lines)) if id == job => lines,
            _ => Vec::new(),
        };
        let Some(kind) = self.session.running_kind(job) else {
            return "[]".to_string();
        };
        self.end(job, stopped_outcome(kind, &lines))
    }

    fn end(&mut self, job: u64, outcome: othello_tools::web::Outcome) -> String {
        if self.lines.as_ref().is_some_and(|(id, _)| *id == job) {
            self.lines = None;
        }
        let outputs = self.session.finish(job, outcome);
        self.actions(outputs)
    }

    fn actions(&mut self, outputs: Vec<Output>) -> String {
        let running = self.session.running_job();
        let actions: Vec<serde_json::Value> = outputs
            .into_iter()
            .map(|output| match output {
                Output::Reply(reply) => serde_json::json!({ "reply": reply }),
                Output::Start(job) => serde_json::json!({ "start": JobWire::from_job(&job) }),
                Output::Stop => serde_json::json!({ "stop": running }),
            })
            .collect();
        serde_json::Value::Array(actions).to_string()
    }
}

/// The engine's transposition table in the browser, MiB: a tab's memory, and the size the
/// browser tests give `othello serve` so that both pages' hints are the same.
pub const HASH_MB: usize = 16;

/// What the worker calls with each search line: an object with an `emit(text)` method.
#[wasm_bindgen]
extern "C" {
    /// The JavaScript sink of search lines.
    pub type Emitter;

    /// Passes one `line` reply's JSON on.
    #[wasm_bindgen(method)]
    fn emit(this: &Emitter, text: &str);
}

/// Runs jobs on the engine: one thread, the embedded weights and book.
#[wasm_bindgen]
pub struct Runner {
    worker: Worker,
}

#[wasm_bindgen]
impl Runner {
    /// An engine of the default options on one thread.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Runner, JsError> {
        Runner::native().map_err(|e| JsError::new(&e))
    }

    /// Runs job `text` (a [`JobWire`]'s JSON), passing each search line to `sink.emit`, and
    /// returns its outcome's JSON ([`OutcomeWire`]).
    pub fn run(&mut self, text: &str, sink: &Emitter) -> String {
        self.run_with(text, &mut |line| sink.emit(&line))
    }
}

impl Runner {
    /// [`Runner::new`] without the JavaScript error type.
    pub fn native() -> Result<Runner, String> {
        let options = EngineOptions {
            hash_mb: HASH_MB,
            threads: 1,
            allow_eval_files: false,
            ..EngineOptions::default()
        };
        Ok(Runner {
            worker: Worker::new(options).map_err(|e| e.to_string())?,
        })
    }

    /// [`Runner::run`] with a Rust sink.
    pub fn run_with(&mut self, text: &str, sink: &mut dyn FnMut(String)) -> String {
        let outcome = match serde_json::from_str::<JobWire>(text)
            .map_err(|e| format!("the job: {e}"))
            .and_then(|wire| wire.to_job())
        {
            Ok(job) => self.worker.run(&job, &mut |reply| {
                if let Ok(text) = serde_json::to_string(&reply) {
                    sink(text);
                }
            }),
            Err(e) => othello_tools::web::Outcome::Failed(e),
        };
        let wire = OutcomeWire::from_outcome(outcome);
        serde_json::to_string(&wire).unwrap_or_else(|e| {
            format!(r#"{{"outcome":"failed","message":"the outcome's JSON: {e}"}}"#)
        })
    }
}

#[cfg(test)]
mod tests;
