//! The messages of the board server's WebSocket protocol (docs/SERVE.md): what the page sends
//! ([`Request`], one JSON object per text frame, its kind in `type`) and what the server
//! answers ([`Reply`]). Requests are parsed strictly: an unknown `type`, a missing or unknown
//! field or a value out of range is an error reply that names the problem, never a guess.

use serde::{Deserialize, Serialize};

use crate::search::{SearchResult, Value};

/// The largest request accepted, in bytes (a pasted GGF game is a few KiB).
pub const MAX_REQUEST_BYTES: usize = 64 * 1024;

/// The deepest hint or analysis search a request may ask for.
pub const MAX_HINT_DEPTH: u32 = 30;

/// The deepest midgame search a review may ask for.
pub const MAX_REVIEW_DEPTH: u32 = 20;

/// The most empties a review may solve exactly.
pub const MAX_REVIEW_EXACT: u32 = 24;

/// The most seconds a `go` request's clock may hold (a day), and its increment.
pub const MAX_CLOCK_SECONDS: f64 = 86_400.0;

/// What a setup text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SetupKind {
    /// A move list from the start, `f5d6c3` (passes implicit).
    Moves,
    /// A board string: 64 squares `X`/`O`/`-` from a1 to h8, then the side to move.
    Board,
    /// One GGF game.
    Ggf,
}

/// A request from the page.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game from the standard start.
    New {},
    /// A game set up from a text.
    Setup {
        /// How to read `text`.
        kind: SetupKind,
        /// The move list, board string or GGF game.
        text: String,
    },
    /// Play a move (`f5`) or a pass (`pass` or `pa`) for the side to move.
    Play {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Take back the last move (a forced pass goes with the move before it).
    Undo {},
    /// Replay the move last taken back.
    Redo {},
    /// Go to the position after `ply` moves of the current line (passes count).
    Jump {
        /// The number of moves, 0 for the start.
        ply: usize,
    },
    /// The engine chooses and plays the move of the side to move: at a level (1 to 60), or
    /// by its game clock (`time` seconds left, `increment` seconds added after each move).
    /// Exactly one of `level` and `time`.
    Go {
        /// The level.
        #[serde(default)]
        level: Option<u32>,
        /// Seconds left on the engine's clock (more than 0, at most [`MAX_CLOCK_SECONDS`]).
        #[serde(default)]
        time: Option<f64>,
        /// Seconds added to it after each move (0 to [`MAX_CLOCK_SECONDS`]; with `time` only).
        #[serde(default)]
        increment: Option<f64>,
    },
    /// Every legal move's value, deepening to `depth`, streamed as `line` replies.
    Hints {
        /// The depth, 1 to [`MAX_HINT_DEPTH`].
        depth: u32,
    },
    /// Every position of the line valued (the evaluation graph), at `depth`.
    Analyze {
        /// The depth, 1 to [`MAX_HINT_DEPTH`].
        depth: u32,
    },
    /// The game reviewed move by move (`othello review`), as JSON and as its HTML page.
    Review {
        /// The midgame depth, 1 to [`MAX_REVIEW_DEPTH`].
        depth: u32,
        /// Positions with this many empties or fewer are solved, 0 to [`MAX_REVIEW_EXACT`].
        exact: u32,
    },
    /// Stop the running search: the engine plays the best move found so far, hints keep the
    /// values found so far.
    Stop {},
    /// The current state again.
    State {},
}

impl Request {
    /// The `type` of the request, as the page wrote it.
    pub fn kind(&self) -> &'static str {
        match self {
            Request::New {} => "new",
            Request::Setup { .. } => "setup",
            Request::Play { .. } => "play",
            Request::Undo {} => "undo",
            Request::Redo {} => "redo",
            Request::Jump { .. } => "jump",
            Request::Go { .. } => "go",
            Request::Hints { .. } => "hints",
            Request::Analyze { .. } => "analyze",
            Request::Review { .. } => "review",
            Request::Stop {} => "stop",
            Request::State {} => "state",
        }
    }
}

/// What a search line's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// A midgame estimate.
    Heuristic,
    /// The exact final disc difference.
    Exact,
    /// Win, draw or loss only (+1, 0, -1).
    Wld,
    /// A solve with forward pruning: exact unless a cut was wrong.
    Probable,
    /// The opening book's value.
    Book,
}

/// A value as the page shows it: discs for the side to move, and what kind of value it is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    /// Discs, the side to move's view (a heuristic to 2 decimals, the others whole).
    pub value: f64,
    /// What the value is.
    pub kind: ValueKind,
}

impl From<Value> for Shown {
    fn from(value: Value) -> Shown {
        let kind = match value {
            Value::Heuristic(_) => ValueKind::Heuristic,
            Value::Exact(_) => ValueKind::Exact,
            Value::Wld(_) => ValueKind::Wld,
            Value::Probable(_) => ValueKind::Probable,
        };
        Shown {
            value: value.discs(),
            kind,
        }
    }
}

/// What a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    /// The engine choosing a move.
    Go,
    /// Hints.
    Hints,
    /// The evaluation of every position of the line.
    Analyze,
    /// A review.
    Review,
}

/// One search line: an iteration of the engine's search, or one move's hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The job it belongs to.
    pub job: u64,
    /// The move valued (the line's first move).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move.
    #[serde(flatten)]
    pub shown: Shown,
    /// The depth searched (0 for a book value).
    pub depth: u32,
    /// The share of Multi-ProbCut cuts expected right, percent (100: no forward pruning).
    pub selectivity: u8,
    /// The principal variation, `f5 d6 c3`.
    pub pv: String,
    /// Nodes searched.
    pub nodes: u64,
}

impl Line {
    /// The line of a search iteration of job `job`.
    pub fn from_result(job: u64, result: &SearchResult) -> Line {
        let pv = crate::engine::shown_pv(result);
        Line {
            job,
            mv: pv.first().copied().unwrap_or(result.best).to_string(),
            shown: result.value.into(),
            depth: result.depth,
            selectivity: result.selectivity.map_or(100, |s| s.percent()),
            pv: pv
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            nodes: result.nodes,
        }
    }
}

/// The position and the game as the page draws them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateView {
    /// 64 characters from a1 to h8 (a1 b1 ... h1 a2 ...): `b`, `w` or `.`.
    pub board: String,
    /// `black` or `white`; the side to move (also when the game is over).
    pub to_move: String,
    /// The legal moves of the side to move, `["d3", ...]` (empty when the game is over).
    pub legal: Vec<String>,
    /// Black's and White's discs.
    pub discs: [u32; 2],
    /// Whether the game is over.
    pub over: bool,
    /// Moves made to reach this position (passes count).
    pub ply: usize,
    /// The whole line: the moves made, then those that redo would replay (`PA` for a pass).
    pub line: Vec<String>,
    /// The last move made, if any (`PA` for a pass).
    pub last: Option<String>,
    /// The squares the last move turned.
    pub flips: Vec<String>,
    /// The evaluation graph: for each position of the line (ply 0 to the end), its value in
    /// discs for Black, if known.
    pub graph: Vec<Option<f64>>,
    /// The board string of the start position (`X`/`O`/`-`, then the side).
    pub start: String,
    /// Whether the game starts at the standard start position.
    pub standard_start: bool,
    /// The moves made, as a move list from the start (`f5d6c3`; passes implicit).
    pub move_list: String,
    /// The game up to this position as a GGF record.
    pub ggf: String,
    /// The running job, if any.
    pub busy: Option<JobKind>,
}

/// A reply from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// The state, after every change and on request.
    State(Box<StateView>),
    /// A job started.
    Started {
        /// Its number.
        job: u64,
        /// What it is.
        kind: JobKind,
    },
    /// A search line of a running job (engine iterations, hints).
    Line(Line),
    /// A job ended (`stopped`: by a stop or a change of position, its results partial or
    /// dropped).
    Done {
        /// Its number.
        job: u64,
        /// What it was.
        kind: JobKind,
        /// Whether it was stopped.
        stopped: bool,
    },
    /// A review's results.
    Review {
        /// The job.
        job: u64,
        /// The review as `othello review --json` writes it.
        json: serde_json::Value,
        /// The review as `othello review --html` writes it: a self-contained page.
        html: String,
    },
    /// A request refused; nothing changed.
    Error {
        /// The `type` of the refused request, when it could be read.
        request: Option<String>,
        /// Why.
        message: String,
    },
}
