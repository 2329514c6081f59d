//! One page's session with the board server, as a pure state machine: [`Session::handle`]
//! takes a request's text and returns what to do ([`Output`]: replies to send, a job to start,
//! a search to stop); [`Session::finish`] takes a job's outcome. No socket, thread or clock is
//! involved, so every sequence of messages can be replayed in a test (tests/serve_session.rs
//! feeds random ones).
//!
//! # The rules
//!
//! - A request is checked completely before anything changes: a refused request gets one
//!   `error` reply and leaves the game, the redo list, the graph and the running job exactly as
//!   they were.
//! - At most one job runs. A request that starts a job while another one runs is refused
//!   (`busy`), except after a change of position: a change (new, setup, play, undo, redo,
//!   jump) stops the running job and drops its results, and a job asked for then waits for the
//!   stopped one to end (one waiting job at most; a newer one replaces it).
//! - Every job request is answered by `started` or `error`, and every started job ends with
//!   exactly one `done`.
//! - A forced pass is played at once: the side to move of the session always has a legal move
//!   or the game is over. Undo and redo step over forced passes with the move before them.

use std::collections::HashMap;
use std::time::Duration;

use serde::Deserialize;

use super::message::{
    JobKind, Reply, Request, SetupKind, StateView, MAX_CLOCK_SECONDS, MAX_HINT_DEPTH,
    MAX_REQUEST_BYTES, MAX_REVIEW_DEPTH, MAX_REVIEW_EXACT,
};
use crate::board::{Color, Move, Position};
use crate::engine::Level;
use crate::game::{Game, MoveRecord};
use crate::gamedb::transcript::parse_move_list;
use crate::search::Value;
use crate::square::Square;
use crate::text::clip;

/// The most positions whose value the session remembers for the graph; past it the memory is
/// cleared (a session that analyses thousands of games stays bounded).
const MAX_REMEMBERED_VALUES: usize = 100_000;

/// A job for the worker: a snapshot of the game and what to do with it.
#[derive(Clone, Debug)]
pub struct Job {
    /// The job's number in this session.
    pub id: u64,
    /// The game, up to the position to work on.
    pub game: Game,
    /// What to do.
    pub task: Task,
}

/// How the engine times its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pace {
    /// At a level: a depth, untimed.
    Level(Level),
    /// By the engine's game clock, as NBoard's `go` plans it.
    Clock {
        /// Time left.
        remaining: Duration,
        /// Time added after each move.
        increment: Duration,
    },
}

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Task {
    /// Choose the move of the side to move.
    Go(Pace),
    /// Value every legal move, to a depth.
    Hints(u32),
    /// Value every position of the game, to a depth.
    Analyze(u32),
    /// Review the game.
    Review {
        /// Midgame depth.
        depth: u32,
        /// Positions with this many empties or fewer are solved.
        exact: u32,
    },
}

impl Task {
    /// The kind of job it is.
    pub fn kind(&self) -> JobKind {
        match self {
            Task::Go(_) => JobKind::Go,
            Task::Hints(_) => JobKind::Hints,
            Task::Analyze(_) => JobKind::Analyze,
            Task::Review { .. } => JobKind::Review,
        }
    }
}

/// How a job ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The engine chose a move (its value in discs for the mover, if any).
    Moved {
        /// The move.
        mv: Move,
        /// Its value for the side that moves.
        eval: Option<f64>,
    },
    /// Hints ended (their lines were streamed); the value of the position, if found.
    Hinted(Option<Value>),
    /// Values of the positions of the game: (moves made before it, value for its side to move).
    Analysed(Vec<(usize, Value)>),
    /// A review, as JSON and as a page.
    Reviewed {
        /// `othello review --json`.
        json: serde_json::Value,
        /// `othello review --html`.
        html: String,
    },
    /// The job could not run (the server is busy, the engine refused): why.
    Failed(String),
}

/// What the transport must do after a message.
#[derive(Clone, Debug)]
pub enum Output {
    /// Send this reply.
    Reply(Reply),
    /// Start this job (and report its outcome to [`Session::finish`]).
    Start(Box<Job>),
    /// Raise the stop flag of the running job.
    Stop,
}

#[derive(Clone, Copy, Debug)]
struct Running {
    id: u64,
    kind: JobKind,
    /// A change of position stopped it: its results are dropped.
    abandoned: bool,
    /// A `stop` request stopped it: its results stand.
    stop_asked: bool,
}

/// One page's session: the game, the moves taken back, the values known, the running job.
#[derive(Clone, Debug, Default)]
pub struct Session {
    game: Game,
    /// Moves taken back, the last one taken back at the end.
    redo: Vec<MoveRecord>,
    /// Values found so far (engine moves, hints, analyses), in discs for Black.
    values: HashMap<Position, f64>,
    running: Option<Running>,
    waiting: Option<Job>,
    next_job: u64,
}

/// A request refused: the message of its error reply.
type Refusal = String;

impl Session {
    /// A session at the standard start position.
    pub fn new() -> Session {
        Session::default()
    }

    /// The game up to the current position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The moves redo would replay, the next one last.
    pub fn redo_moves(&self) -> &[MoveRecord] {
        &self.redo
    }

    /// Whether lines of job `id` are to be sent to the page (it runs and was not dropped).
    pub fn forwards(&self, id: u64) -> bool {
        self.running.is_some_and(|r| r.id == id && !r.abandoned)
    }

    /// The job running, if any (dropped ones included, until they end).
    pub fn running_job(&self) -> Option<u64> {
        self.running.map(|r| r.id)
    }

    /// What job `id` is, if it is the one running (dropped or not).
    pub fn running_kind(&self, id: u64) -> Option<JobKind> {
        self.running.filter(|r| r.id == id).map(|r| r.kind)
    }

    /// Answers one request (the text of one WebSocket message).
    pub fn handle(&mut self, text: &str) -> Vec<Output> {
        if text.len() > MAX_REQUEST_BYTES {
            return error(
                None,
                format!(
                    "a request of {} bytes: the limit is {MAX_REQUEST_BYTES}",
                    text.len()
                ),
            );
        }
        let request = match serde_json::from_str::<Request>(text) {
            Ok(request) => request,
            Err(e) => return error(request_type(text), format!("bad request: {e}")),
        };
        let kind = request.kind();
        match self.dispatch(request) {
            Ok(outputs) => outputs,
            Err(message) => error(Some(kind.to_string()), format!("{kind}: {message}")),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<Vec<Output>, Refusal> {
        match request {
            Request::New {} => Ok(self.change(Game::default(), Vec::new())),
            Request::Setup { kind, text } => {
                let game = setup(kind, &text)?;
                Ok(self.change(game, Vec::new()))
            }
            Request::Play { mv } => {
                let mv: Move = mv.parse().map_err(|_| {
                    format!(
                        "{:?} is not a move (a square like f5, or pass)",
                        clip(&mv, 16)
                    )
                })?;
                let (mut game, mut redo) = (self.game.clone(), self.redo.clone());
                advance(&mut game, &mut redo, MoveRecord::new(mv))?;
                Ok(self.change(game, redo))
            }
            Request::Undo {} => {
                let (mut game, mut redo) = (self.game.clone(), self.redo.clone());
                undo(&mut game, &mut redo)?;
                Ok(self.change(game, redo))
            }
            Request::Redo {} => {
                let (mut game, mut redo) = (self.game.clone(), self.redo.clone());
                redo_one(&mut game, &mut redo)?;
                Ok(self.change(game, redo))
            }
            Request::Jump { ply } => {
                let total = self.game.moves().len() + self.redo.len();
                if ply > total {
                    return Err(format!("ply {ply}: the line has {total} moves"));
                }
                let (mut game, mut redo) = (self.game.clone(), self.redo.clone());
                while game.moves().len() > ply {
                    let record = game.pop().ok_or("nothing to take back")?;
                    redo.push(record);
                }
                while game.moves().len() < ply
                    || (must_pass(&game) && redo.last().is_some_and(|r| r.mv == Move::Pass))
                {
                    let record = redo.pop().ok_or("nothing to replay")?;
                    game.push(record).map_err(|e| e.to_string())?;
                }
                Ok(self.change(game, redo))
            }
            Request::Go {
                level,
                time,
                increment,
            } => {
                let pace = pace(level, time, increment)?;
                if self.game.position().board.is_game_over() {
                    return Err("the game is over".to_string());
                }
                self.start(Task::Go(pace))
            }
            Request::Hints { depth } => {
                check_range("depth", depth, 1, MAX_HINT_DEPTH)?;
                if self.game.position().board.is_game_over() {
                    return Err("the game is over: there are no moves to value".to_string());
                }
                self.start(Task::Hints(depth))
            }
            Request::Analyze { depth } => {
                check_range("depth", depth, 1, MAX_HINT_DEPTH)?;
                self.start(Task::Analyze(depth))
            }
            Request::Review { depth, exact } => {
                check_range("depth", depth, 1, MAX_REVIEW_DEPTH)?;
                check_range("exact", exact, 0, MAX_REVIEW_EXACT)?;
                if self.game.start() != Position::start() {
                    return Err(
                        "the game does not begin at the standard start position".to_string()
                    );
                }
                if self.game.moves().is_empty() {
                    return Err("no move has been played".to_string());
                }
                self.start(Task::Review { depth, exact })
            }
            Request::Stop {} => {
                let mut outputs = self.drop_waiting();
                match &mut self.running {
                    Some(r) if !r.abandoned => {
                        r.stop_asked = true;
                        outputs.push(Output::Stop);
                    }
                    _ if !outputs.is_empty() => {}
                    _ => return Err("no search is running".to_string()),
                }
                Ok(outputs)
            }
            Request::State {} => Ok(vec![self.state()]),
        }
    }

    /// Starts a job now, or after the dropped one still ending.
    fn start(&mut self, task: Task) -> Result<Vec<Output>, Refusal> {
        if let Some(r) = self.running.filter(|r| !r.abandoned) {
            return Err(format!(
                "busy: job {} ({}) is running; send stop first",
                r.id,
                kind_name(r.kind)
            ));
        }
        let id = self.next_job;
        self.next_job += 1;
        let job = Job {
            id,
            game: self.game.clone(),
            task,
        };
        let mut outputs = self.drop_waiting();
        outputs.push(Output::Reply(Reply::Started {
            job: id,
            kind: task.kind(),
        }));
        if self.running.is_some() {
            self.waiting = Some(job);
        } else {
            outputs.extend(self.launch(job));
        }
        Ok(outputs)
    }

    fn launch(&mut self, job: Job) -> Vec<Output> {
        self.running = Some(Running {
            id: job.id,
            kind: job.task.kind(),
            abandoned: false,
            stop_asked: false,
        });
        vec![Output::Start(Box::new(job))]
    }

    /// Drops the job waiting to start, if any (it ends, stopped).
    fn drop_waiting(&mut self) -> Vec<Output> {
        match self.waiting.take() {
            Some(job) => vec![Output::Reply(Reply::Done {
                job: job.id,
                kind: job.task.kind(),
                stopped: true,
            })],
            None => Vec::new(),
        }
    }

    /// Moves to a new position: the running job is stopped and dropped.
    fn change(&mut self, game: Game, redo: Vec<MoveRecord>) -> Vec<Output> {
        let mut outputs = self.drop_waiting();
        if let Some(r) = &mut self.running {
            if !r.abandoned {
                r.abandoned = true;
                outputs.push(Output::Stop);
            }
        }
        self.game = game;
        self.redo = redo;
        outputs.push(self.state());
        outputs
    }

    /// Takes the outcome of job `id`. An outcome of a job that is not running is ignored.
    pub fn finish(&mut self, id: u64, outcome: Outcome) -> Vec<Output> {
        let Some(running) = self.running.filter(|r| r.id == id) else {
            log::warn!("board server: the outcome of job {id}, which is not running, ignored");
            return Vec::new();
        };
        self.running = None;
        let done = |stopped| {
            Output::Reply(Reply::Done {
                job: id,
                kind: running.kind,
                stopped,
            })
        };
        if running.abandoned {
            let mut outputs = vec![done(true)];
            if let Some(job) = self.waiting.take() {
                outputs.extend(self.launch(job));
            }
            return outputs;
        }
        let stopped = running.stop_asked;
        match outcome {
            Outcome::Moved { mv, eval } => {
                let before = self.game.position();
                let (mut game, mut redo) = (self.game.clone(), self.redo.clone());
                let record = MoveRecord {
                    mv,
                    eval,
                    seconds: None,
                };
                if let Err(e) = advance(&mut game, &mut redo, record) {
                    return vec![
                        Output::Reply(Reply::Error {
                            request: Some("go".to_string()),
                            message: format!("go: the engine's move {mv} was refused: {e}"),
                        }),
                        done(true),
                    ];
                }
                if let Some(v) = eval {
                    self.remember(before, v);
                }
                self.game = game;
                self.redo = redo;
                vec![done(stopped), self.state()]
            }
            Outcome::Hinted(value) => {
                if let Some(v) = value {
                    self.remember(self.game.position(), v.discs());
                }
                vec![done(stopped), self.state()]
            }
            Outcome::Analysed(values) => {
                let positions = self.game.positions();
                for (ply, value) in values {
                    if let Some(&position) = positions.get(ply) {
                        self.remember(position, value.discs());
                    }
                }
                vec![done(stopped), self.state()]
            }
            Outcome::Reviewed { json, html } => {
                vec![
                    Output::Reply(Reply::Review {
                        job: id,
                        json,
                        html,
                    }),
                    done(stopped),
                ]
            }
            Outcome::Failed(message) => vec![
                Output::Reply(Reply::Error {
                    request: Some(kind_name(running.kind).to_string()),
                    message: format!("{}: {message}", kind_name(running.kind)),
                }),
                done(true),
            ],
        }
    }

    /// Remembers `value` (discs for the side to move of `position`) for the graph.
    fn remember(&mut self, position: Position, value: f64) {
        if self.values.len() >= MAX_REMEMBERED_VALUES {
            self.values.clear();
        }
        let black = match position.side {
            Color::Black => value,
            Color::White => -value,
        };
        self.values.insert(position, black);
    }

    /// The state as the page draws it.
    pub fn view(&self) -> StateView {
        let position = self.game.position();
        let (black, white) = position.black_white();
        let board = Square::ALL
            .iter()
            .map(|sq| {
                if black & sq.bit() != 0 {
                    'b'
                } else if white & sq.bit() != 0 {
                    'w'
                } else {
                    '.'
                }
            })
            .collect();
        let over = position.board.is_game_over();
        let legal = if over {
            Vec::new()
        } else {
            position
                .board
                .legal_moves()
                .map(|sq| sq.to_string())
                .collect()
        };
        let positions = self.game.positions();
        let moves = self.game.moves();
        let (last, flips) = match moves.last() {
            Some(record) => {
                let flips = match record.mv {
                    Move::Place(sq) => {
                        let before = positions[positions.len() - 2].board;
                        squares(before.flips(sq))
                    }
                    Move::Pass => Vec::new(),
                };
                (Some(record.mv.to_string()), flips)
            }
            None => (None, Vec::new()),
        };
        // The whole line: the moves made, then the ones taken back, replayed.
        let mut line_game = self.game.clone();
        for record in self.redo.iter().rev() {
            if line_game.push(*record).is_err() {
                break;
            }
        }
        let graph = line_game
            .positions()
            .iter()
            .map(|p| {
                if p.board.is_game_over() {
                    let diff = p.board.final_score();
                    Some(f64::from(if p.side == Color::Black { diff } else { -diff }))
                } else {
                    self.values.get(p).copied()
                }
            })
            .collect();
        let move_list = moves
            .iter()
            .filter_map(|r| match r.mv {
                Move::Place(sq) => Some(sq.to_string()),
                Move::Pass => None,
            })
            .collect();
        StateView {
            board,
            to_move: match position.side {
                Color::Black => "black",
                Color::White => "white",
            }
            .to_string(),
            legal,
            discs: [black.count_ones(), white.count_ones()],
            over,
            ply: moves.len(),
            line: line_game.moves().iter().map(|r| r.mv.to_string()).collect(),
            last,
            flips,
            graph,
            start: self.game.start().to_board_string(),
            standard_start: self.game.start() == Position::start(),
            move_list,
            ggf: self.game.to_string(),
            busy: self.running.filter(|r| !r.abandoned).map(|r| r.kind),
        }
    }

    fn state(&self) -> Output {
        Output::Reply(Reply::State(Box::new(self.view())))
    }
}

fn error(request: Option<String>, message: String) -> Vec<Output> {
    vec![Output::Reply(Reply::Error { request, message })]
}

/// The `type` of a request that could not be read, if it has one (clipped).
fn request_type(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Typed {
        #[serde(rename = "type")]
        kind: String,
    }
    serde_json::from_str::<Typed>(text)
        .ok()
        .map(|t| clip(&t.kind, 32))
}

fn kind_name(kind: JobKind) -> &'static str {
    match kind {
        JobKind::Go => "go",
        JobKind::Hints => "hints",
        JobKind::Analyze => "analyze",
        JobKind::Review => "review",
    }
}

fn check_range(name: &str, value: u32, low: u32, high: u32) -> Result<(), Refusal> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(format!("{name} {value}: expected {low} to {high}"))
    }
}

fn squares(bits: u64) -> Vec<String> {
    Square::ALL
        .iter()
        .filter(|sq| bits & sq.bit() != 0)
        .map(|sq| sq.to_string())
        .collect()
}

/// Whether the side to move of `game` has no move but the game goes on.
fn must_pass(game: &Game) -> bool {
    let board = game.position().board;
    board.moves() == 0 && !board.is_game_over()
}

/// Plays the forced passes of `game`'s position (from the redo list when it has them there).
fn pass_if_forced(game: &mut Game, redo: &mut Vec<MoveRecord>) {
    while must_pass(game) {
        let record = match redo.last() {
            Some(r) if r.mv == Move::Pass => redo.pop().expect("just seen"),
            _ => {
                redo.clear();
                MoveRecord::new(Move::Pass)
            }
        };
        game.push(record).expect("a forced pass is legal");
    }
}

/// Plays `record` and any pass it forces; the redo list is kept if the move is its next one.
fn advance(game: &mut Game, redo: &mut Vec<MoveRecord>, record: MoveRecord) -> Result<(), Refusal> {
    game.push(record).map_err(|e| e.to_string())?;
    match redo.last() {
        Some(next) if next.mv == record.mv => {
            redo.pop();
        }
        _ => redo.clear(),
    }
    pass_if_forced(game, redo);
    Ok(())
}

/// Takes back the last move, and the move before a forced pass with it.
fn undo(game: &mut Game, redo: &mut Vec<MoveRecord>) -> Result<(), Refusal> {
    let before = (game.clone(), redo.len());
    loop {
        let Some(record) = game.pop() else {
            // Only forced passes to take back: nothing to undo.
            *game = before.0;
            redo.truncate(before.1);
            return Err("no move to take back".to_string());
        };
        redo.push(record);
        if !must_pass(game) {
            return Ok(());
        }
    }
}

/// Replays the move last taken back, and the pass it forces.
fn redo_one(game: &mut Game, redo: &mut Vec<MoveRecord>) -> Result<(), Refusal> {
    let record = redo.pop().ok_or("no move to replay")?;
    game.push(record).map_err(|e| e.to_string())?;
    pass_if_forced(game, redo);
    Ok(())
}

/// The game a setup text describes, with its forced passes played.
/// The pace of a `go` request: a level, or a clock and its increment.
fn pace(level: Option<u32>, time: Option<f64>, increment: Option<f64>) -> Result<Pace, Refusal> {
    match (level, time) {
        (Some(level), None) => {
            if increment.is_some() {
                return Err("increment goes with time, not with level".to_string());
            }
            Ok(Pace::Level(Level::new(level).map_err(|e| e.0)?))
        }
        (None, Some(time)) => {
            let increment = increment.unwrap_or(0.0);
            if !(time.is_finite() && time > 0.0 && time <= MAX_CLOCK_SECONDS) {
                return Err(format!(
                    "time {time}: seconds on the clock, more than 0 and at most {MAX_CLOCK_SECONDS}"
                ));
            }
            if !(increment.is_finite() && (0.0..=MAX_CLOCK_SECONDS).contains(&increment)) {
                return Err(format!(
                    "increment {increment}: seconds from 0 to {MAX_CLOCK_SECONDS}"
                ));
            }
            Ok(Pace::Clock {
                remaining: Duration::from_secs_f64(time),
                increment: Duration::from_secs_f64(increment),
            })
        }
        (Some(_), Some(_)) => Err("give level or time, not both".to_string()),
        (None, None) => Err("give level (1-60) or time (seconds on the clock)".to_string()),
    }
}

fn setup(kind: SetupKind, text: &str) -> Result<Game, Refusal> {
    let mut game = match kind {
        SetupKind::Moves => {
            let record = parse_move_list(text).map_err(|e| format!("the move list: {e}"))?;
            let mut game = Game::default();
            let mut redo = Vec::new();
            for sq in record.moves {
                pass_if_forced(&mut game, &mut redo);
                game.push(MoveRecord::new(Move::Place(sq)))
                    .map_err(|e| e.to_string())?;
            }
            game
        }
        SetupKind::Board => {
            let position: Position = text.parse().map_err(|e| format!("the board: {e}"))?;
            Game::new(position)
        }
        SetupKind::Ggf => {
            let (game, rest) =
                Game::parse_prefix(text).map_err(|e| format!("the GGF game: {e}"))?;
            if !rest.trim().is_empty() {
                return Err(format!(
                    "the GGF game: text after the game: {:?}",
                    clip(rest.trim(), 24)
                ));
            }
            game
        }
    };
    pass_if_forced(&mut game, &mut Vec::new());
    Ok(game)
}
