//! The engine behind the protocol: the game, the user's settings and the searcher, with one
//! handler per [`Command`].
//!
//! Handlers write their [`Response`]s through a [`Responder`] as they go (a `hint` streams one
//! `search` line per completed iteration), and report a refused command as one `status error:`
//! line, leaving the state as it was. The searcher's stop flag is shared with the input thread:
//! every new line raises it, so searches, analyses and perft all end as soon as the GUI says
//! anything, and print nothing more about the old position.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::board::{Board, Move};
use crate::book::build::learn_game;
use crate::book::{BookChoice, OwnedBook};
use crate::clock::{FORCED_MOVE_TIME_MS, NBOARD_MOVE_TIME_MS};
use crate::eval::{EngineEval, EvalChoice, Evaluator};
use crate::game::{Game, GameMoveError};
use crate::perft::perft;
use crate::rng::SplitMix64;
use crate::search::tt::{TranspositionTable, MAX_SHARED_HASH_MB};
use crate::search::{Limits, Observer, SearchResult, Searcher, Selectivity, Value, MAX_THREADS};

use super::command::Command;
use super::response::{Depth, Responder, Response};

/// The name the engine gives itself (`set myname othello<depth>`).
pub const ENGINE_NAME: &str = "othello";

/// Depth of the search run on each position by `analyze` (lower if `set depth` is lower).
pub const ANALYZE_DEPTH: u32 = 8;

/// `perft` counts subtrees of this depth in one call and checks for interruption in between.
const PERFT_CHUNK_DEPTH: u32 = 6;

/// Settings fixed when the engine starts. The caps exist for tests and fuzzing, where no
/// command may search for long.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB at start.
    pub hash_mb: usize,
    /// Largest size `set hash` accepts, in MiB.
    pub max_hash_mb: u64,
    /// Time per move for `go` in an untimed game.
    pub default_move_time: Duration,
    /// A depth no search may exceed, whatever `set depth` says.
    pub depth_cap: Option<u32>,
    /// A node budget no search (or perft) may exceed.
    pub node_cap: Option<u64>,
    /// The evaluator at start (`--eval-file`; the embedded weights by default).
    pub eval: EngineEval,
    /// Whether `set eval` may read files (off under fuzzing, where a path could name a device).
    pub allow_eval_files: bool,
    /// Search threads at start (`set threads` changes it); 1 is the deterministic search.
    pub threads: usize,
    /// Think on the opponent's time at start (`set ponder` changes it).
    pub ponder: bool,
    /// The opening book at start (`set book` changes it; also subject to
    /// `allow_eval_files` for files).
    pub book: BookChoice,
    /// Book randomness at start, centi-discs (`set bookrandomness` changes it).
    pub book_randomness: u32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: TranspositionTable::DEFAULT_MB,
            max_hash_mb: MAX_SHARED_HASH_MB as u64,
            default_move_time: Duration::from_millis(NBOARD_MOVE_TIME_MS),
            depth_cap: None,
            node_cap: None,
            eval: EngineEval::default(),
            allow_eval_files: true,
            threads: 1,
            ponder: false,
            book: BookChoice::Default,
            book_randomness: 0,
        }
    }
}

/// `learn` adds a game's positions up to this many moves from the start.
pub const LEARN_PLIES: u32 = 24;

/// The table of `learn`'s own searcher, MiB.
const LEARN_HASH_MB: usize = 16;

/// The leaf search depth of `learn` when the book does not record one.
pub const LEARN_DEPTH: u8 = 12;

/// Why the engine refused a well-formed command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// `move` with a move that is illegal here.
    #[error("move refused: {0}")]
    Move(#[from] GameMoveError),
    /// `set threads` with a count outside 1..=[`MAX_THREADS`].
    #[error("set threads {0}: expected 1 to {MAX_THREADS} threads")]
    Threads(u32),
    /// `set hash` whose memory could not be allocated (the previous table is kept).
    #[error("set hash: {0}")]
    HashAlloc(crate::search::tt::TableAllocError),
    /// `set hash` beyond the limit.
    #[error("set hash {requested}: the limit is {limit} MiB")]
    Hash {
        /// The size asked for.
        requested: u64,
        /// The largest size allowed.
        limit: u64,
    },
    /// `go` in a finished game.
    #[error("go: the game is over, there is no move to play")]
    GameOver,
    /// `set eval` with a file that cannot be used (the current evaluator is kept).
    #[error("set eval: {0} (the current evaluator is kept)")]
    Eval(String),
    /// `set book` with a book that cannot be used (the current book is kept).
    #[error("set book: {0} (the current book is kept)")]
    Book(String),
    /// `learn` without a book.
    #[error("learn: the book is off (set book on)")]
    NoBook,
    /// `learn` could not save the book.
    #[error("learn: {0}")]
    LearnSave(String),
    /// `set eval` or `set book` (the command named) with a file when file loading is
    /// switched off.
    #[error("{0}: loading weight and book files is disabled in this session")]
    FilesDisabled(&'static str),
}

/// What the session loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Exit (`quit`).
    Quit,
}

/// What the last `go` expects: the position it was asked about, the position after the move
/// it chose, and the position after the reply its principal variation expects.
#[derive(Clone, Copy, Debug)]
struct Expected {
    before: Board,
    after_ours: Option<Board>,
    target: Board,
}

/// The value of a position for the side to move, the line that shows it, the nodes spent and
/// the midgame depth reached.
struct Evaluation {
    value: Value,
    pv: Vec<Move>,
    nodes: u64,
    depth: u32,
    selectivity: Option<Selectivity>,
}

/// The protocol engine: current game, settings and searcher.
pub struct Engine {
    searcher: Searcher<EngineEval>,
    /// Whether to think on the opponent's time ([`Engine::ponder`]).
    ponder: bool,
    /// What the last `go` expects to happen next, for pondering.
    expected: Option<Expected>,
    stop: Arc<AtomicBool>,
    game: Game,
    depth: Option<u32>,
    contempt: i32,
    /// The opening book (`None`: off).
    book: Option<OwnedBook>,
    /// Book randomness in centi-discs.
    book_randomness: u32,
    /// Draws among near-equal book moves.
    rng: SplitMix64,
    options: EngineOptions,
}

/// The threads the engine searches with when `requested` are asked for: at most the machine's
/// hardware threads. More would only share the same cores, slow every search and delay the
/// answer to a `ping` while they all stop (256 threads on 2 cores: a depth-4 `go` took 3.5 s, a
/// `ping` during a hint 1.5 s), so a larger count is accepted, logged as a warning, and capped.
pub fn usable_threads(requested: usize) -> usize {
    let hardware = std::thread::available_parallelism().map_or(1, |n| n.get());
    if requested > hardware {
        log::warn!(
            "threads {requested}: this machine has {hardware} hardware threads; searching with {hardware}"
        );
        return hardware;
    }
    requested
}

impl Engine {
    /// An engine at the standard start position with no depth limit.
    pub fn new(options: EngineOptions) -> Engine {
        let mut searcher = Searcher::new(options.eval.clone(), options.hash_mb);
        searcher.set_threads(usable_threads(options.threads));
        let book = options.book.open_owned().unwrap_or_else(|e| {
            log::warn!("book {}: {e}; playing without a book", options.book);
            None
        });
        Engine {
            book,
            book_randomness: options.book_randomness,
            rng: SplitMix64::new(0x0B00_C0DE),
            stop: searcher.stop_flag(),
            searcher,
            ponder: options.ponder,
            expected: None,
            game: Game::default(),
            depth: None,
            contempt: 0,
            options,
        }
    }

    /// Thinks on the opponent's time, silently, until the stop flag is raised (the session
    /// loop calls this when it is idle and new input can interrupt it): about the position
    /// after the reply the last `go` expects, while that reply (or the echo of the engine's
    /// own move before it) is awaited, and about that position itself once it has been
    /// reached and `go` is awaited. Anything else (another reply, a new game) is a miss:
    /// nothing is searched. Off unless `set ponder on`.
    pub fn ponder(&mut self) {
        if !self.ponder {
            return;
        }
        let Some(expected) = self.expected else {
            return;
        };
        let current = self.game.position().board;
        let waiting = current == expected.before || Some(current) == expected.after_ours;
        if !waiting && current != expected.target {
            log::debug!("ponder miss");
            self.expected = None;
            return;
        }
        log::debug!("pondering");
        let limits = Limits {
            depth: self.options.depth_cap,
            nodes: self.options.node_cap,
            ..Limits::default()
        };
        self.searcher.search(&expected.target, &limits, &mut ());
    }

    /// The flag that stops whatever the engine is doing; the input thread raises it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The depth set by `set depth`, if any.
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// The contempt set by `set contempt` (centi-discs for Black; recorded, not yet used).
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// Runs one command, writing its responses. I/O errors on the output are returned; a
    /// refused command is reported as one `status error:` line.
    pub fn execute<W: Write>(
        &mut self,
        command: Command,
        out: &mut Responder<W>,
    ) -> io::Result<Flow> {
        let refused = match command {
            Command::NBoard(version) => {
                if version != 2 {
                    log::info!("GUI speaks NBoard protocol version {version}; we speak 2");
                }
                Ok(())
            }
            Command::SetDepth(depth) => {
                let depth = depth.min(60);
                self.depth = Some(depth);
                out.send(Response::MyName(format!("{ENGINE_NAME}{depth}")))?;
                Ok(())
            }
            Command::SetGame(game) => {
                self.game = *game;
                Ok(())
            }
            Command::SetContempt(c) => {
                self.contempt = c;
                Ok(())
            }
            Command::Move(record) => self.game.push(record).map_err(EngineError::from),
            Command::Hint(k) => {
                self.hint(k, out)?;
                Ok(())
            }
            Command::Go => self.go(out)?,
            Command::Ping(n) => {
                out.send(Response::Pong(n))?;
                Ok(())
            }
            Command::Learn => self.learn(out)?,
            Command::SetBook(BookChoice::File(_)) if !self.options.allow_eval_files => {
                Err(EngineError::FilesDisabled("set book"))
            }
            Command::SetBook(choice) => match choice.open_owned() {
                Ok(book) => {
                    log::info!("book: {choice}");
                    self.book = book;
                    Ok(())
                }
                Err(e) => Err(EngineError::Book(e.to_string())),
            },
            Command::SetBookRandomness(centi) => {
                self.book_randomness = centi;
                Ok(())
            }
            Command::Analyze => {
                self.analyze(out)?;
                Ok(())
            }
            Command::Quit => return Ok(Flow::Quit),
            Command::SetPonder(on) => {
                self.ponder = on;
                Ok(())
            }
            Command::SetSelectivity(setting) => {
                self.searcher.set_selectivity(setting.0);
                Ok(())
            }
            Command::SetThreads(n) if (1..=MAX_THREADS as u32).contains(&n) => {
                self.searcher.set_threads(usable_threads(n as usize));
                Ok(())
            }
            Command::SetThreads(n) => Err(EngineError::Threads(n)),
            Command::SetHash(mb) if mb > self.options.max_hash_mb => Err(EngineError::Hash {
                requested: mb,
                limit: self.options.max_hash_mb,
            }),
            Command::SetHash(mb) => self
                .searcher
                .try_set_hash_mb(mb as usize)
                .map_err(EngineError::HashAlloc),
            Command::SetBoard(position) => {
                self.game = Game::new(position);
                Ok(())
            }
            Command::SetEval(EvalChoice::File(_)) if !self.options.allow_eval_files => {
                Err(EngineError::FilesDisabled("set eval"))
            }
            Command::SetEval(choice) => match choice.load() {
                Ok(eval) => {
                    log::info!("evaluator: {} ({choice})", eval.describe());
                    self.searcher.set_evaluator(eval);
                    Ok(())
                }
                Err(e) => Err(EngineError::Eval(e.to_string())),
            },
            Command::Print => {
                self.print(out)?;
                Ok(())
            }
            Command::Perft(depth) => {
                self.perft(depth, out)?;
                Ok(())
            }
            Command::Eval => {
                let board = self.game.position().board;
                let centi = self.searcher.evaluator().evaluate(&board);
                out.send(Response::Comment(format!(
                    "eval {} (static, discs for the side to move)",
                    super::response::discs(f64::from(centi) / 100.0)
                )))?;
                Ok(())
            }
            Command::Help => {
                for line in HELP {
                    out.send(Response::Comment(line.to_string()))?;
                }
                Ok(())
            }
        };
        if let Err(e) = refused {
            out.send(Response::Status(format!("error: {e}")))?;
        }
        Ok(Flow::Continue)
    }

    /// `depth` limited by the engine's depth cap.
    fn capped(&self, depth: Option<u32>) -> Option<u32> {
        match (depth, self.options.depth_cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// `go`: `=== PA` when the side to move must pass; otherwise a search limited by the game
    /// clock (or [`NBOARD_MOVE_TIME_MS`] when untimed) and `set depth`. The move is not played:
    /// the GUI sends it back as `move`.
    fn go<W: Write>(&mut self, out: &mut Responder<W>) -> io::Result<Result<(), EngineError>> {
        let board = self.game.position().board;
        if board.is_game_over() {
            return Ok(Err(EngineError::GameOver));
        }
        if board.moves() == 0 {
            out.send(Response::BestMove {
                mv: Move::Pass,
                eval: None,
                seconds: None,
            })?;
            return Ok(Ok(()));
        }
        let start = Instant::now();
        if let Some(m) = self
            .book
            .as_ref()
            .and_then(|b| b.book.choose(&board, self.book_randomness, &mut self.rng))
        {
            self.expected = None;
            out.send(Response::BestMove {
                mv: m.mv,
                eval: Some(f64::from(m.value) / 100.0),
                seconds: Some(start.elapsed().as_secs_f64()),
            })?;
            return Ok(Ok(()));
        }
        out.send(Response::Status("thinking".into()))?;
        let clock = self.game.clock();
        let mut move_time = clock.is_none().then_some(self.options.default_move_time);
        if board.moves().count_ones() == 1 {
            move_time = Some(Duration::from_millis(FORCED_MOVE_TIME_MS));
        }
        let limits = Limits {
            depth: self.capped(self.depth),
            nodes: self.options.node_cap,
            move_time,
            clock,
        };
        let result = self.searcher.search(&board, &limits, &mut ());
        self.expected = result.expected_position(&board).map(|target| Expected {
            before: board,
            after_ours: board.try_play_move(result.best).ok(),
            target,
        });
        let seconds = start.elapsed().as_secs_f64();
        out.send(Response::NodeStats {
            nodes: result.nodes,
            seconds,
        })?;
        out.send(Response::BestMove {
            mv: result.best,
            eval: Some(result.value.discs()),
            seconds: Some(seconds),
        })?;
        Ok(Ok(()))
    }

    /// `hint k`: search limited by `set depth` only (no clock), one `search` line per completed
    /// iteration; with k > 1, one search per line with the lines already found excluded.
    fn hint<W: Write>(&mut self, k: u32, out: &mut Responder<W>) -> io::Result<()> {
        let board = self.game.position().board;
        if board.is_game_over() {
            return out.send(Response::Status(
                "the game is over: nothing to analyse".into(),
            ));
        }
        let book_moves = self.book.as_ref().map(|b| b.book.moves(&board));
        if let Some(moves) = book_moves.filter(|m| !m.is_empty()) {
            for m in moves.iter().take(k.max(1) as usize) {
                out.send(Response::Book {
                    mv: m.mv,
                    eval: f64::from(m.value) / 100.0,
                    games: m.games,
                    depth: if m.exact {
                        Depth::Exact
                    } else {
                        Depth::Plies(u32::from(m.depth))
                    },
                })?;
            }
            return out.send(Response::Status(String::new()));
        }
        out.send(Response::Status("analysing".into()))?;
        let start = Instant::now();
        let limits = Limits {
            depth: self.capped(self.depth),
            nodes: self.options.node_cap,
            ..Limits::default()
        };
        let nodes = if k > 1 && board.moves().count_ones() > 1 {
            self.hint_multi(&board, k as usize, &limits, out)?
        } else {
            self.hint_single(&board, &limits, out)?
        };
        out.send(Response::NodeStats {
            nodes,
            seconds: start.elapsed().as_secs_f64(),
        })?;
        out.send(Response::Status(String::new()))
    }

    /// One search, printing each iteration's best line; a must-pass position is searched
    /// after the pass and shown as `PA-...`.
    fn hint_single<W: Write>(
        &mut self,
        board: &Board,
        limits: &Limits,
        out: &mut Responder<W>,
    ) -> io::Result<u64> {
        let after_pass = board.moves() == 0;
        let root = if after_pass { board.pass() } else { *board };
        let mut lines = HintLines {
            out,
            stop: &self.stop,
            after_pass,
            error: None,
        };
        let result = self.searcher.search(&root, limits, &mut lines);
        match lines.error {
            Some(e) => Err(e),
            None => Ok(result.nodes),
        }
    }

    /// Multi-PV: the best `k` moves, one search per line with the lines already found
    /// excluded at the root ([`Searcher::search_multipv`]), sharing the table; each line's
    /// iterations are printed as they complete.
    fn hint_multi<W: Write>(
        &mut self,
        board: &Board,
        k: usize,
        limits: &Limits,
        out: &mut Responder<W>,
    ) -> io::Result<u64> {
        let mut lines = HintLines {
            out,
            stop: &self.stop,
            after_pass: false,
            error: None,
        };
        let results = self.searcher.search_multipv(board, limits, k, &mut lines);
        match lines.error {
            Some(e) => Err(e),
            None => Ok(results.iter().map(|r| r.nodes).sum()),
        }
    }

    /// `learn`: adds the game's positions (up to [`LEARN_PLIES`] moves from the start) to the
    /// book, searches the leaves that became pending, negamaxes, saves the book if it came
    /// from a file, and answers `learned`.
    fn learn<W: Write>(&mut self, out: &mut Responder<W>) -> io::Result<Result<(), EngineError>> {
        let Some(owned) = self.book.as_mut() else {
            return Ok(Err(EngineError::NoBook));
        };
        out.send(Response::Status("learning".into()))?;
        let boards: Vec<Board> = self.game.positions().iter().map(|p| p.board).collect();
        let depth = match owned.book.depth {
            0 => LEARN_DEPTH,
            d => d,
        };
        let depth = self
            .options
            .depth_cap
            .map_or(depth, |c| depth.min(c.min(60) as u8));
        // A searcher of its own, which new input does not stop: a learned game is at most a
        // few dozen searches (seconds), and an interrupted one would stay pending.
        let mut searcher = Searcher::new(self.searcher.evaluator().clone(), LEARN_HASH_MB);
        let touched = learn_game(&mut owned.book, &boards, LEARN_PLIES, &mut searcher, depth);
        log::info!(
            "learn: {} book positions added or re-searched",
            touched.len()
        );
        if let Some(path) = &owned.save_to {
            if let Err(e) = crate::book::file::save(&owned.book, path) {
                return Ok(Err(EngineError::LearnSave(e.to_string())));
            }
        }
        out.send(Response::Learned)?;
        Ok(Ok(()))
    }

    /// The value of `board` for its side to move, also when it must pass or the game is over.
    fn evaluate(&mut self, board: &Board, limits: &Limits) -> Evaluation {
        if board.is_game_over() {
            return Evaluation {
                value: Value::Exact(board.final_score()),
                pv: Vec::new(),
                nodes: 0,
                depth: 0,
                selectivity: None,
            };
        }
        if board.moves() == 0 {
            let after = self.evaluate(&board.pass(), limits);
            let mut pv = vec![Move::Pass];
            pv.extend(after.pv);
            return Evaluation {
                value: after.value.negate(),
                pv,
                nodes: after.nodes,
                depth: after.depth + 1,
                selectivity: after.selectivity,
            };
        }
        let r = self.searcher.search(board, limits, &mut ());
        Evaluation {
            value: r.value,
            pv: shown_pv(&r),
            nodes: r.nodes,
            depth: r.depth,
            selectivity: r.selectivity,
        }
    }

    /// `analyze`: one `analysis <n> <eval>` line per position, last position first (the
    /// endgame solves fill the table for the earlier positions), stopping at any new input.
    fn analyze<W: Write>(&mut self, out: &mut Responder<W>) -> io::Result<()> {
        out.send(Response::Status("analysing the game".into()))?;
        let depth = self.capped(Some(self.depth.unwrap_or(ANALYZE_DEPTH).min(ANALYZE_DEPTH)));
        let limits = Limits {
            depth,
            nodes: self.options.node_cap,
            ..Limits::default()
        };
        for (moves_made, position) in self.game.positions().into_iter().enumerate().rev() {
            if self.stopped() {
                break;
            }
            let eval = self.evaluate(&position.board, &limits);
            if self.stopped() {
                break;
            }
            out.send(Response::Analysis {
                moves_made,
                eval: eval.value.discs(),
            })?;
        }
        out.send(Response::Status(String::new()))
    }

    /// Extension `print`: the diagram, the board string and the game, as `#` lines.
    fn print<W: Write>(&self, out: &mut Responder<W>) -> io::Result<()> {
        let position = self.game.position();
        for line in position.to_string().lines() {
            out.send(Response::Comment(line.to_string()))?;
        }
        out.send(Response::Comment(format!(
            "board {}",
            position.to_board_string()
        )))?;
        out.send(Response::Comment(format!("game {}", self.game)))
    }

    /// Extension `perft n`: leaves below the current position, interruptible between chunks.
    fn perft<W: Write>(&self, depth: u32, out: &mut Responder<W>) -> io::Result<()> {
        let start = Instant::now();
        let mut counted = 0u64;
        let board = self.game.position().board;
        if let Some(leaves) = self.perft_walk(&board, depth, &mut counted) {
            out.send(Response::Comment(format!(
                "perft {depth} leaves {leaves} seconds {}",
                super::response::seconds(start.elapsed().as_secs_f64())
            )))?;
        }
        Ok(())
    }

    /// Perft by chunks; `None` once stopped or over the node cap. Same convention as
    /// [`perft`]: a side with no move passes, even at the end of the game.
    fn perft_walk(&self, board: &Board, depth: u32, counted: &mut u64) -> Option<u64> {
        if self.stopped() || self.options.node_cap.is_some_and(|cap| *counted > cap) {
            return None;
        }
        if depth <= PERFT_CHUNK_DEPTH {
            let leaves = perft(board, depth);
            *counted = counted.saturating_add(leaves);
            return Some(leaves);
        }
        if board.moves() == 0 {
            return self.perft_walk(&board.pass(), depth - 1, counted);
        }
        let mut total = 0u64;
        for square in board.legal_moves() {
            total =
                total.saturating_add(self.perft_walk(&board.play(square), depth - 1, counted)?);
        }
        Some(total)
    }
}

/// The principal variation to show for a search result: never empty, and for a midgame
/// value no longer than the depth searched (the table's moves beyond it are guesses).
fn shown_pv(result: &SearchResult) -> Vec<Move> {
    if result.pv.is_empty() {
        return vec![result.best];
    }
    let keep = match result.value {
        Value::Heuristic(_) => result.depth.max(1) as usize,
        Value::Exact(_) | Value::Wld(_) | Value::Probable(_) => result.pv.len(),
    };
    result.pv[..keep.min(result.pv.len())].to_vec()
}

/// Prints `search` lines from a running hint search. Prints nothing once the stop flag is
/// up: the GUI has moved on, and a line now would describe the old position.
struct HintLines<'a, W> {
    out: &'a mut Responder<W>,
    stop: &'a AtomicBool,
    /// The search runs after a forced pass: prefix `PA` and negate.
    after_pass: bool,
    error: Option<io::Error>,
}

impl<W: Write> Observer for HintLines<'_, W> {
    fn on_iteration(&mut self, result: &SearchResult) {
        if self.error.is_some() || self.stop.load(Ordering::SeqCst) {
            return;
        }
        let mut pv = Vec::with_capacity(result.pv.len() + 1);
        let (mut value, mut depth) = (result.value, result.depth);
        if self.after_pass {
            pv.push(Move::Pass);
            value = value.negate();
            depth += 1;
        }
        pv.extend(shown_pv(result));
        let line = Response::Search {
            pv,
            eval: value.discs(),
            depth: Depth::of(value, depth, result.selectivity),
        };
        if let Err(e) = self.out.send(line) {
            self.error = Some(e);
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// The `help` text (each line is sent as a `#` comment).
const HELP: &[&str] = &[
    "othello speaks the NBoard protocol (version 2); see PROTOCOL.md",
    "nboard <version>          start of a session (any version is accepted)",
    "set depth <n>             deepest midgame search (answers set myname othello<n>)",
    "set game <GGF>            replace the game; set contempt <centi-discs>",
    "move <mv>[/<eval>[/<s>]]  append a move (F5, f5, PA)",
    "hint <k>                  analyse: book lines, or search lines for the best k moves",
    "go                        choose a move (from the book if it can): === <move>/<eval>/<s>",
    "learn                     add the game to the book (saved if it is a file): learned",
    "ping <n>                  answer pong <n>; analyze, quit",
    "extensions: setboard <board string>, print, perft <n>, eval,",
    "            set threads <n>, set hash <MiB>, set eval <file|default|hand>,",
    "            set selectivity <73|87|95|98|99|100>, set ponder <on|off>,",
    "            set book <on|off|default|file>, set bookrandomness <discs>, help",
];
