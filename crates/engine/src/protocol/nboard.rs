//! The NBoard face of the [`crate::engine::Engine`]: one handler per [`Command`], which asks
//! the engine and writes the protocol's [`Response`]s.
//!
//! Handlers write their [`Response`]s through a [`Responder`] as they go (a `hint` streams one
//! `search` line per completed iteration), and report a refused command as one `status error:`
//! line, leaving the state as it was. The searcher's stop flag is shared with the input thread:
//! every new line raises it, so searches, analyses and perft all end as soon as the GUI says
//! anything, and print nothing more about the old position.

use crate::time::Instant;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::board::Board;
use crate::discs::CentiDiscs;
use crate::engine::{Decision, Hint, MoveObserver, Source};
use crate::perft::perft;
use crate::search::{Observer, SearchResult};

use super::command::Command;
use super::response::{Depth, Responder, Response};

pub use crate::engine::{
    shown_pv, usable_threads, EngineError, EngineOptions, ANALYZE_DEPTH, LEARN_DEPTH, LEARN_PLIES,
};

/// The name the engine gives itself (`set myname othello<depth>`).
pub const ENGINE_NAME: &str = "othello";

/// `perft` counts subtrees of this depth in one call and checks for interruption in between.
const PERFT_CHUNK_DEPTH: u32 = 6;

/// What the session loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// Exit (`quit`).
    Quit,
}

/// The NBoard engine: the [`crate::engine::Engine`] and the one setting only NBoard has
/// (contempt).
pub struct Nboard {
    engine: crate::engine::Engine,
    contempt: i32,
    /// When the line being executed arrived (set by the session loop before each command).
    line_arrived: Option<Instant>,
    /// When the current position arrived (the `move`, `set game` or `setboard` line): the
    /// side to move's clock has run since then, also while pondering was being stopped.
    position_arrived: Option<Instant>,
}

impl Nboard {
    /// An engine at the standard start position with no depth limit, with the book of
    /// `options.book`; a book that cannot be used is logged and left out.
    pub fn new(options: EngineOptions) -> Result<Nboard, EngineError> {
        let engine = match crate::engine::Engine::new(options.clone()) {
            Err(e @ EngineError::OpenBook { .. }) => {
                log::warn!("{e}; playing without a book");
                crate::engine::Engine::with_book(options, None)?
            }
            other => other?,
        };
        Ok(Nboard::from_engine(engine))
    }

    /// The NBoard face of `engine`.
    pub fn from_engine(engine: crate::engine::Engine) -> Nboard {
        Nboard {
            engine,
            contempt: 0,
            line_arrived: None,
            position_arrived: None,
        }
    }

    /// The engine behind the protocol.
    pub fn engine(&mut self) -> &mut crate::engine::Engine {
        &mut self.engine
    }

    /// Starts thinking on the opponent's time in the background, if pondering is on (the
    /// session loop calls this when it is idle; new input raises the stop flag, which ends
    /// it). Returns whether a search started. See [`crate::engine::Engine::start_pondering`].
    pub fn ponder(&mut self) -> bool {
        let started = self.engine.start_pondering();
        if started {
            log::debug!("pondering");
        }
        started
    }

    /// Stops thinking on the opponent's time (before the next command runs).
    pub fn stop_pondering(&mut self) {
        self.engine.stop_pondering();
    }

    /// Records when the next command's line arrived (the session loop calls this as soon as
    /// it has the line, before pondering is stopped). A `go` after a `move`, `set game` or
    /// `setboard` takes the time since that line arrived off the clock it plans with: the
    /// GUI's clock has been running since then, also while the engine stopped pondering.
    pub fn line_arrived(&mut self, at: Instant) {
        self.line_arrived = Some(at);
    }

    /// The flag that stops whatever the engine is doing; the input thread raises it.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.engine.stop_flag()
    }

    /// The current game.
    pub fn game(&self) -> &crate::game::Game {
        self.engine.game()
    }

    /// The depth set by `set depth`, if any.
    pub fn depth(&self) -> Option<u32> {
        self.engine.depth()
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
        if matches!(
            command,
            Command::Move(_) | Command::SetGame(_) | Command::SetBoard(_)
        ) {
            self.position_arrived = self.line_arrived;
        }
        let refused = match command {
            Command::NBoard(version) => {
                if version != 2 {
                    log::info!("GUI speaks NBoard protocol version {version}; we speak 2");
                }
                Ok(())
            }
            Command::SetDepth(depth) => {
                let depth = depth.min(60);
                self.engine.set_depth(Some(depth));
                out.send(Response::MyName(format!("{ENGINE_NAME}{depth}")))?;
                Ok(())
            }
            Command::SetLevel(level) => {
                self.engine.set_level(Some(level));
                out.send(Response::MyName(format!("{ENGINE_NAME}L{level}")))?;
                Ok(())
            }
            Command::SetGame(game) => {
                self.engine.set_game(*game);
                Ok(())
            }
            Command::SetContempt(c) => {
                self.contempt = c;
                Ok(())
            }
            Command::Move(record) => self.engine.play(record),
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
            Command::SetBook(choice) => self.engine.set_book(&choice),
            Command::SetBookRandomness(centi) => {
                self.engine.set_book_randomness(centi);
                Ok(())
            }
            Command::Analyze => {
                self.analyze(out)?;
                Ok(())
            }
            Command::Quit => return Ok(Flow::Quit),
            Command::SetPonder(on) => {
                self.engine.set_ponder(on);
                Ok(())
            }
            Command::SetSelectivity(setting) => {
                self.engine.set_selectivity(setting.0);
                Ok(())
            }
            Command::SetThreads(n) => self.engine.set_threads(n),
            Command::SetHash(mb) => self.engine.set_hash_mb(mb),
            Command::SetBoard(position) => {
                self.engine.set_game(crate::game::Game::new(position));
                Ok(())
            }
            Command::SetEval(choice) => self.engine.set_eval(&choice),
            Command::Print => {
                self.print(out)?;
                Ok(())
            }
            Command::Perft(depth) => {
                self.perft(depth, out)?;
                Ok(())
            }
            Command::Eval => {
                let centi = self.engine.static_eval();
                out.send(Response::Comment(format!(
                    "eval {} (static, discs for the side to move)",
                    super::response::discs(CentiDiscs::from(centi).to_discs())
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

    fn stopped(&self) -> bool {
        self.engine.stopped()
    }

    /// `go`: the engine's move ([`crate::engine::Engine::choose`]) under the game clock, or
    /// [`EngineOptions::default_move_time`] when untimed, and `set depth`: `=== PA` when the
    /// side to move must pass, a book move at once, else `status thinking` and a search. The
    /// move is not played: the GUI sends it back as `move`.
    fn go<W: Write>(&mut self, out: &mut Responder<W>) -> io::Result<Result<(), EngineError>> {
        // The clock as the position arrived, less the time since then.
        let waited = self.position_arrived.take().map(|at| at.elapsed());
        let clock = self.engine.game().clock().map(|mut c| {
            if let Some(waited) = waited {
                c.remaining = c.remaining.saturating_sub(waited);
            }
            c
        });
        let move_time = clock
            .is_none()
            .then_some(self.engine.options().default_move_time);
        let mut thinking = Thinking { out, error: None };
        let decision = self.engine.choose(clock, move_time, &mut thinking);
        if let Some(e) = thinking.error {
            return Err(e);
        }
        let Decision {
            mv,
            eval,
            source,
            search,
            elapsed,
        } = match decision {
            Ok(decision) => decision,
            Err(e) => return Ok(Err(e)),
        };
        let seconds = elapsed.as_secs_f64();
        match source {
            Source::Pass => out.send(Response::BestMove {
                mv,
                eval: None,
                seconds: None,
            })?,
            Source::Book => out.send(Response::BestMove {
                mv,
                eval,
                seconds: Some(seconds),
            })?,
            Source::Forced | Source::Search => {
                out.send(Response::NodeStats {
                    nodes: search.map_or(0, |r| r.nodes),
                    seconds,
                })?;
                out.send(Response::BestMove {
                    mv,
                    eval,
                    seconds: Some(seconds),
                })?;
            }
        }
        Ok(Ok(()))
    }

    /// `hint k`: book lines, or a search limited by `set depth` only (no clock), one `search`
    /// line per completed iteration; with k > 1, one search per line with the lines already
    /// found excluded.
    fn hint<W: Write>(&mut self, k: u32, out: &mut Responder<W>) -> io::Result<()> {
        let board = self.engine.game().position().board;
        if board.is_game_over() {
            return out.send(Response::Status(
                "the game is over: nothing to analyse".into(),
            ));
        }
        if self.engine.book_moves().is_empty() {
            out.send(Response::Status("analysing".into()))?;
        }
        let start = Instant::now();
        let stop = self.engine.stop_flag();
        let mut lines = HintLines {
            out,
            stop: &stop,
            error: None,
        };
        let hint = self.engine.hint(k as usize, &mut lines);
        if let Some(e) = lines.error {
            return Err(e);
        }
        match hint {
            Hint::GameOver => {}
            Hint::Book(moves) => {
                for m in moves {
                    out.send(Response::Book {
                        mv: m.mv,
                        eval: CentiDiscs::from(m.value).to_discs(),
                        games: m.games,
                        depth: if m.exact {
                            Depth::Exact
                        } else {
                            Depth::Plies(u32::from(m.depth))
                        },
                    })?;
                }
            }
            Hint::Searched { nodes } => out.send(Response::NodeStats {
                nodes,
                seconds: start.elapsed().as_secs_f64(),
            })?,
        }
        out.send(Response::Status(String::new()))
    }

    /// `learn`: adds the game's positions to the book ([`crate::engine::Engine::learn`]) and
    /// answers `learned`.
    fn learn<W: Write>(&mut self, out: &mut Responder<W>) -> io::Result<Result<(), EngineError>> {
        if !self.engine.has_book() {
            return Ok(Err(EngineError::NoBook));
        }
        out.send(Response::Status("learning".into()))?;
        match self.engine.learn() {
            Ok(touched) => {
                log::info!("learn: {touched} book positions added or re-searched");
                out.send(Response::Learned)?;
                Ok(Ok(()))
            }
            Err(e) => Ok(Err(e)),
        }
    }

    /// `analyze`: one `analysis <n> <eval>` line per position, last position first (the
    /// endgame solves fill the table for the earlier positions), stopping at any new input.
    fn analyze<W: Write>(&mut self, out: &mut Responder<W>) -> io::Result<()> {
        out.send(Response::Status("analysing the game".into()))?;
        self.engine.analyze(|moves_made, value| {
            out.send(Response::Analysis {
                moves_made,
                eval: value.discs(),
            })
        })?;
        out.send(Response::Status(String::new()))
    }

    /// Extension `print`: the diagram, the board string and the game, as `#` lines.
    fn print<W: Write>(&self, out: &mut Responder<W>) -> io::Result<()> {
        let position = self.engine.game().position();
        for line in position.to_string().lines() {
            out.send(Response::Comment(line.to_string()))?;
        }
        out.send(Response::Comment(format!(
            "board {}",
            position.to_board_string()
        )))?;
        out.send(Response::Comment(format!("game {}", self.engine.game())))
    }

    /// Extension `perft n`: leaves below the current position, interruptible between chunks.
    fn perft<W: Write>(&mut self, depth: u32, out: &mut Responder<W>) -> io::Result<()> {
        // Perft does not search, but pondering must not run beside it.
        self.engine.stop_pondering();
        let start = Instant::now();
        let mut counted = 0u64;
        let board = self.engine.game().position().board;
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
        let node_cap = self.engine.options().node_cap;
        if self.stopped() || node_cap.is_some_and(|cap| *counted > cap) {
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

/// Says `status thinking` when `go` starts a search.
struct Thinking<'a, W> {
    out: &'a mut Responder<W>,
    error: Option<io::Error>,
}

impl<W> Observer for Thinking<'_, W> {
    fn on_iteration(&mut self, _: &SearchResult) {}
}

impl<W: Write> MoveObserver for Thinking<'_, W> {
    fn thinking(&mut self) {
        if let Err(e) = self.out.send(Response::Status("thinking".into())) {
            self.error = Some(e);
        }
    }
}

/// Prints `search` lines from a running hint search. Prints nothing once the stop flag is
/// up: the GUI has moved on, and a line now would describe the old position.
struct HintLines<'a, W> {
    out: &'a mut Responder<W>,
    stop: &'a AtomicBool,
    error: Option<io::Error>,
}

impl<W: Write> Observer for HintLines<'_, W> {
    fn on_iteration(&mut self, result: &SearchResult) {
        if self.error.is_some() || self.stop.load(Ordering::SeqCst) {
            return;
        }
        let line = Response::Search {
            pv: shown_pv(result),
            eval: result.value.discs(),
            depth: Depth::of(result.value, result.depth, result.selectivity),
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
    "set level <1-60>          play at a level: depth, exact solve, selectivity, untimed",
    "                          (a clock still caps it; answers set myname othelloL<n>)",
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
