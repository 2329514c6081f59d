//! The engine every face uses: one [`Engine`] owns the searcher (with the evaluator and its
//! Multi-ProbCut model), the opening book, the settings, the game, the move policy and
//! pondering. The NBoard protocol ([`crate::protocol`]), the GTP protocol
//! ([`crate::protocol::gtp`]) and the `engine` player (`othello_tools::players::native`) are thin
//! adapters over it: they translate their own commands and print, the engine decides.
//!
//! # The move policy, decided once
//!
//! [`Engine::choose`] picks the move of the side to move of the current game, in this order:
//!
//! 1. **Game over**: refused ([`EngineError::GameOver`]).
//! 2. **No legal move**: a pass, at once, without a search.
//! 3. **Book**: a book move (uniformly among those within the book randomness of the best),
//!    at once, with the book's value.
//! 4. **Forced move** (a single legal move): played at once in *every* mode (timed, untimed,
//!    fixed time, depth-limited), after a search of at most [`FORCED_MOVE_TIME_MS`] that is
//!    only there to report an evaluation. (Before the facade, the NBoard engine shortened
//!    forced moves in every game but the `engine` player only in timed ones; a forced move
//!    is not a decision, so neither spends a fixed time or the clock on it now.)
//! 5. **Search**, limited by everything the face gives at once: the game clock of the side to
//!    move, a time per move, the depth ([`Engine::set_depth`], capped by
//!    [`EngineOptions::depth_cap`]) and the node cap. What an untimed game gets per move is
//!    the face's convention and is passed in by it: NBoard [`NBOARD_MOVE_TIME_MS`](crate::clock::NBOARD_MOVE_TIME_MS)
//!    ([`EngineOptions::default_move_time`]), a match player with neither depth nor time
//!    [`crate::clock::MATCH_MOVE_TIME_MS`], GTP its own default. A **level**
//!    ([`Engine::set_level`], the table in [`level`]) replaces the depth, the selectivity and
//!    the point where the exact solve starts, and is untimed: the face's time per move is
//!    dropped, and only a game clock still caps the search.
//!
//! After a search, the engine remembers the position its principal variation expects after
//! the reply, for pondering.
//!
//! # Pondering, one design
//!
//! [`Engine::start_pondering`] searches the expected position on a background thread, on the
//! engine's own searcher, with no limit but the caps; [`Engine::stop_pondering`] raises the
//! searcher's stop flag, joins the thread and lowers the flag again. Every method that needs
//! the searcher stops pondering first, so the faces cannot forget. The NBoard loop starts
//! pondering whenever it waits for input (the input thread raises the same stop flag on every
//! line, so the search ends at once); the `engine` player starts it after each of its moves.
//! A hit (the opponent played the expected reply) finds the table full of that position's
//! work; a miss only leaves table entries behind.
//!
//! # Opened once
//!
//! The book is opened by whoever builds the engine and handed over ([`Engine::with_book`]);
//! [`Engine::new`] opens [`EngineOptions::book`] itself and reports a book that cannot be
//! used as an error rather than opening it a second time.
//!
//! # Example
//!
//! Play an opening, take the book's reply, then let a search decide:
//!
//! ```
//! use othello_engine::book::BookChoice;
//! use othello_engine::engine::{Engine, EngineOptions, Source};
//! use othello_engine::game::MoveRecord;
//! use othello_core::Move;
//!
//! let options = EngineOptions { hash_mb: 4, ..EngineOptions::default() };
//! let mut engine = Engine::new(options).unwrap(); // with the embedded book
//! for name in ["f5", "d6", "c3"] {
//!     engine.play(MoveRecord::new(Move::Place(name.parse().unwrap()))).unwrap();
//! }
//! // A main line: the book answers at once, with its value.
//! let decision = engine.choose(None, None, &mut ()).unwrap();
//! assert_eq!(decision.source, Source::Book);
//! assert!(decision.eval.is_some());
//!
//! // Without the book, a depth-6 search decides; the move is not played until asked.
//! engine.set_book(&BookChoice::Off).unwrap();
//! engine.set_depth(Some(6));
//! let decision = engine.choose(None, None, &mut ()).unwrap();
//! assert_eq!(decision.source, Source::Search);
//! assert_eq!(decision.search.as_ref().map(|s| s.depth), Some(6));
//! let Move::Place(square) = decision.mv else { panic!("White has moves here") };
//! assert!(engine.game().position().board.is_legal(square));
//! engine.play(MoveRecord::new(decision.mv)).unwrap();
//! assert_eq!(engine.game().moves().len(), 4);
//! ```

use crate::time::{Duration, Instant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use thiserror::Error;

use crate::board::{Board, Move};
use crate::book::build::learn_game;
use crate::book::{BookChoice, BookMove, OwnedBook};
use crate::clock::{Clock, FORCED_MOVE_TIME_MS};
use crate::discs::CentiDiscs;
use crate::eval::{EngineEval, Evaluator};
use crate::game::{Game, GameMoveError, MoveRecord};
use crate::rng::SplitMix64;
use crate::search::tt::TableAllocError;
use crate::search::{Limits, Observer, SearchResult, Searcher, Selectivity, Value, MAX_THREADS};
use crate::weights::EvalChoice;

mod analysis;
pub mod level;
mod options;

pub use analysis::shown_pv;
pub use level::{Level, LevelError};
pub use options::EngineOptions;

/// Depth of the search run on each position by [`Engine::analyze`] (lower if the engine's
/// depth is lower).
pub const ANALYZE_DEPTH: u32 = 8;

/// [`Engine::learn`] adds a game's positions up to this many moves from the start.
pub const LEARN_PLIES: u32 = 24;

/// The table of [`Engine::learn`]'s own searcher, MiB.
const LEARN_HASH_MB: usize = 16;

/// The leaf search depth of [`Engine::learn`] when the book does not record one.
pub const LEARN_DEPTH: u8 = 12;

/// Why the engine refused a request; the engine is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// A move that is illegal here.
    #[error("move refused: {0}")]
    Move(#[from] GameMoveError),
    /// A thread count outside 1..=[`MAX_THREADS`].
    #[error("set threads {0}: expected 1 to {MAX_THREADS} threads")]
    Threads(u32),
    /// A table whose memory could not be allocated (the previous table is kept).
    #[error("set hash: {0}")]
    HashAlloc(TableAllocError),
    /// A table size beyond the limit.
    #[error("set hash {requested}: the limit is {limit} MiB")]
    Hash {
        /// The size asked for.
        requested: u64,
        /// The largest size allowed.
        limit: u64,
    },
    /// A move asked for in a finished game.
    #[error("go: the game is over, there is no move to play")]
    GameOver,
    /// An evaluator file that cannot be used (the current evaluator is kept).
    #[error("set eval: {0} (the current evaluator is kept)")]
    Eval(String),
    /// A book that cannot be used (the current book is kept).
    #[error("set book: {0} (the current book is kept)")]
    Book(String),
    /// `learn` without a book.
    #[error("learn: the book is off (set book on)")]
    NoBook,
    /// `learn` could not save the book.
    #[error("learn: {0}")]
    LearnSave(String),
    /// `learn` into an Edax book, which is read but never written.
    #[error("learn: {0} is an Edax book, which is read but never written; nothing learned (othello book import makes an othello book of it)")]
    LearnReadOnly(String),
    /// `learn` of a game that does not begin at the standard start position.
    #[error("learn: the game does not begin at the standard start position; nothing learned (a book holds games from the start)")]
    LearnNotFromStart,
    /// `set eval` or `set book` (the command named) with a file when file loading is
    /// switched off.
    #[error("{0}: loading weight and book files is disabled in this session")]
    FilesDisabled(&'static str),
    /// The book the engine was built with cannot be opened.
    #[error("the book {choice}: {reason}")]
    OpenBook {
        /// The book asked for.
        choice: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// An undo with no move to take back.
    #[error("undo: no move to take back")]
    NothingToUndo,
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

/// Where a [`Decision`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The side to move had no legal move.
    Pass,
    /// The opening book.
    Book,
    /// The only legal move (a short search for its evaluation).
    Forced,
    /// A search.
    Search,
}

/// The move [`Engine::choose`] picked.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move (a pass when the side to move has none).
    pub mv: Move,
    /// Its value in discs for the side to move (`None` for a pass).
    pub eval: Option<f64>,
    /// Where it came from.
    pub source: Source,
    /// The search result behind it (`None` for a pass or a book move).
    pub search: Option<SearchResult>,
    /// Time from the request to the decision.
    pub elapsed: Duration,
}

/// What [`Engine::choose`] reports besides the search iterations.
pub trait MoveObserver: Observer {
    /// Called once when a search starts (not for a pass or a book move): NBoard says
    /// `status thinking` here.
    fn thinking(&mut self) {}
}

impl MoveObserver for () {}

/// What [`Engine::hint`] found.
#[derive(Clone, Debug, PartialEq)]
pub enum Hint {
    /// The game is over: nothing to analyse.
    GameOver,
    /// The position is in the book: its moves, best first (at most the number asked).
    Book(Vec<BookMove>),
    /// The position was searched (iterations went to the observer); nodes spent.
    Searched {
        /// Nodes searched in all.
        nodes: u64,
    },
}

/// The value of a position for the side to move, and the line that shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The value.
    pub value: Value,
    /// The line, starting with the move (or `PA`) of the side to move; empty at the end.
    pub pv: Vec<Move>,
    /// Nodes spent.
    pub nodes: u64,
}

/// What the last search expects: the position it was asked about, the position after the
/// move it chose, and the position after the reply its principal variation expects.
#[derive(Clone, Copy, Debug)]
struct Expected {
    before: Board,
    after_ours: Option<Board>,
    target: Board,
}

/// A background search of an expected position.
struct Pondering {
    handle: JoinHandle<()>,
}

/// The engine; see the module documentation.
pub struct Engine {
    /// Shared with the pondering thread, which holds it while it thinks.
    searcher: Arc<Mutex<Searcher<EngineEval>>>,
    /// The searcher's stop flag.
    stop: Arc<AtomicBool>,
    pondering: Option<Pondering>,
    /// The position the last background search was about, until the next decision.
    pondered: Option<Board>,
    ponder: bool,
    expected: Option<Expected>,
    game: Game,
    depth: Option<u32>,
    /// The level, if one is set (its depth is in `depth`, its selectivity in the searcher).
    level: Option<Level>,
    book: Option<OwnedBook>,
    book_randomness: u32,
    rng: SplitMix64,
    options: EngineOptions,
}

impl Engine {
    /// An engine at the standard start position, with the book of `options.book`. Fails when
    /// that book cannot be used or the table cannot be allocated.
    pub fn new(options: EngineOptions) -> Result<Engine, EngineError> {
        let book = options
            .book
            .open_owned()
            .map_err(|e| EngineError::OpenBook {
                choice: options.book.to_string(),
                reason: e.to_string(),
            })?;
        Engine::with_book(options, book)
    }

    /// An engine with a book already opened (`options.book` is not read). Fails when the
    /// table cannot be allocated.
    pub fn with_book(
        options: EngineOptions,
        book: Option<OwnedBook>,
    ) -> Result<Engine, EngineError> {
        let mut searcher = Searcher::try_new(options.eval.clone(), options.hash_mb.max(1))
            .map_err(EngineError::HashAlloc)?;
        searcher.set_threads(usable_threads(options.threads));
        searcher.set_selectivity(options.selectivity);
        Ok(Engine {
            stop: searcher.stop_flag(),
            searcher: Arc::new(Mutex::new(searcher)),
            pondering: None,
            pondered: None,
            ponder: options.ponder,
            expected: None,
            game: Game::default(),
            depth: None,
            level: None,
            book,
            book_randomness: options.book_randomness,
            rng: SplitMix64::new(0x0B00_C0DE),
            options,
        })
    }

    /// The options the engine started with.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The flag that stops whatever the engine is doing (an input thread may raise it).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Whether the stop flag is up.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The searcher, once pondering has stopped.
    fn searcher(&mut self) -> MutexGuard<'_, Searcher<EngineEval>> {
        self.stop_pondering();
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }

    // ----- the game -----

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Replaces the game (position and history).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Plays a move in the current game; an illegal move is refused and changes nothing.
    pub fn play(&mut self, record: MoveRecord) -> Result<(), EngineError> {
        self.game.push(record).map_err(EngineError::from)
    }

    /// Takes back the last move of the current game.
    pub fn undo(&mut self) -> Result<MoveRecord, EngineError> {
        self.game.pop().ok_or(EngineError::NothingToUndo)
    }

    /// Starts a new game: forgets the table, and reseeds the book's randomness with `seed`.
    pub fn new_game(&mut self, seed: u64) {
        self.rng = SplitMix64::new(seed ^ 0xB00C_B00C_B00C_B00C);
        self.expected = None;
        self.searcher().clear();
    }

    // ----- settings -----

    /// The depth limit of every search (`None`: none but the cap).
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// Sets the depth limit (at most 60). This ends a level ([`Engine::set_level`]): its
    /// selectivity goes back to the one the engine started with, and its solve rule with it.
    pub fn set_depth(&mut self, depth: Option<u32>) {
        if self.level.take().is_some() {
            let selectivity = self.options.selectivity;
            self.set_selectivity(selectivity);
        }
        self.depth = depth.map(|d| d.min(60));
    }

    /// The level, if one is set.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// Plays at `level` ([`level`] has the table): its midgame depth, its exact-solve empties
    /// and its selectivity, untimed (a face's default time per move no longer applies; a
    /// game clock still does). `None` ends the level: no depth limit, and the selectivity the
    /// engine started with.
    pub fn set_level(&mut self, level: Option<Level>) {
        let selectivity = level.map_or(self.options.selectivity, Level::selectivity);
        self.set_selectivity(selectivity);
        self.depth = level.map(Level::depth);
        self.level = level;
    }

    /// Whether the engine thinks on the opponent's time.
    pub fn ponder(&self) -> bool {
        self.ponder
    }

    /// Switches pondering on or off (off stops a running background search).
    pub fn set_ponder(&mut self, on: bool) {
        if !on {
            self.stop_pondering();
        }
        self.ponder = on;
    }

    /// Sets the midgame forward pruning.
    pub fn set_selectivity(&mut self, selectivity: Option<Selectivity>) {
        self.searcher().set_selectivity(selectivity);
    }

    /// Sets the search threads, 1 to [`MAX_THREADS`] (capped at the hardware's).
    pub fn set_threads(&mut self, threads: u32) -> Result<(), EngineError> {
        if !(1..=MAX_THREADS as u32).contains(&threads) {
            return Err(EngineError::Threads(threads));
        }
        self.searcher()
            .set_threads(usable_threads(threads as usize));
        Ok(())
    }

    /// Reallocates the table at `mb` MiB; beyond the limit, or when the memory is not there,
    /// the table is kept.
    pub fn set_hash_mb(&mut self, mb: u64) -> Result<(), EngineError> {
        if mb > self.options.max_hash_mb {
            return Err(EngineError::Hash {
                requested: mb,
                limit: self.options.max_hash_mb,
            });
        }
        self.searcher()
            .try_set_hash_mb(mb as usize)
            .map_err(EngineError::HashAlloc)
    }

    /// Replaces the evaluator (and forgets the table); one that cannot be loaded is refused.
    pub fn set_eval(&mut self, choice: &EvalChoice) -> Result<(), EngineError> {
        if matches!(choice, EvalChoice::File(_)) && !self.options.allow_eval_files {
            return Err(EngineError::FilesDisabled("set eval"));
        }
        let eval = choice
            .load()
            .map_err(|e| EngineError::Eval(e.to_string()))?;
        log::info!("evaluator: {} ({choice})", eval.describe());
        self.searcher().set_evaluator(eval);
        Ok(())
    }

    /// The static evaluation of the current position for its side to move, centi-discs.
    pub fn static_eval(&mut self) -> i32 {
        let board = self.game.position().board;
        self.searcher().evaluator().evaluate(&board)
    }

    /// Replaces the book; one that cannot be opened is refused.
    pub fn set_book(&mut self, choice: &BookChoice) -> Result<(), EngineError> {
        if matches!(choice, BookChoice::File(_)) && !self.options.allow_eval_files {
            return Err(EngineError::FilesDisabled("set book"));
        }
        let book = choice
            .open_owned()
            .map_err(|e| EngineError::Book(e.to_string()))?;
        log::info!("book: {choice}");
        self.book = book;
        Ok(())
    }

    /// Whether the engine has a book.
    pub fn has_book(&self) -> bool {
        self.book.is_some()
    }

    /// The book's moves in the current position, best first (none when it is not in the book
    /// or the book is off).
    pub fn book_moves(&self) -> Vec<BookMove> {
        let board = self.game.position().board;
        self.book
            .as_ref()
            .map_or_else(Vec::new, |b| b.book.moves(&board))
    }

    /// The book's best move of `board` (none when it is not in the book or the book is off).
    pub fn book_best(&self, board: &Board) -> Option<BookMove> {
        self.book.as_ref().and_then(|b| b.book.best(board))
    }

    /// Sets the book randomness, centi-discs.
    pub fn set_book_randomness(&mut self, centi: u32) {
        self.book_randomness = centi;
    }

    /// `depth` limited by the depth cap.
    fn capped(&self, depth: Option<u32>) -> Option<u32> {
        match (depth, self.options.depth_cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        }
    }

    // ----- moves -----

    /// Chooses the move of the side to move of the current game, by the policy of the module
    /// documentation, within the game `clock` of the side to move and `move_time` (both
    /// optional; the depth and the caps always apply). The move is not played.
    pub fn choose(
        &mut self,
        clock: Option<Clock>,
        move_time: Option<Duration>,
        observer: &mut impl MoveObserver,
    ) -> Result<Decision, EngineError> {
        let start = Instant::now();
        let board = self.game.position().board;
        // Pondering stops here (a hit or a miss), before anything else.
        self.stop_pondering();
        if let Some(pondered) = self.pondered.take() {
            log::debug!("ponder {}", if pondered == board { "hit" } else { "miss" });
        }
        // The side's clock ran while the ponder search was being stopped.
        let clock = clock.map(|mut c| {
            c.remaining = c.remaining.saturating_sub(start.elapsed());
            c
        });
        if board.is_game_over() {
            return Err(EngineError::GameOver);
        }
        if board.moves() == 0 {
            return Ok(Decision {
                mv: Move::Pass,
                eval: None,
                source: Source::Pass,
                search: None,
                elapsed: start.elapsed(),
            });
        }
        if let Some(m) = self
            .book
            .as_ref()
            .and_then(|b| b.book.choose(&board, self.book_randomness, &mut self.rng))
        {
            self.expected = None;
            return Ok(Decision {
                mv: m.mv,
                eval: Some(CentiDiscs::from(m.value).to_discs()),
                source: Source::Book,
                search: None,
                elapsed: start.elapsed(),
            });
        }
        observer.thinking();
        let forced = board.moves().count_ones() == 1;
        // A level is untimed: only the clock caps it (see `level`).
        let mut move_time = if self.level.is_some() {
            None
        } else {
            move_time
        };
        if forced {
            let short = Duration::from_millis(FORCED_MOVE_TIME_MS);
            move_time = Some(move_time.map_or(short, |t| t.min(short)));
        }
        let limits = Limits {
            depth: self.capped(self.depth),
            nodes: self.options.node_cap,
            move_time,
            clock,
            solve_empties: self.level.map(Level::exact_empties),
        };
        let result = self.searcher().search(&board, &limits, observer);
        self.expected = result.expected_position(&board).map(|target| Expected {
            before: board,
            after_ours: board.try_play_move(result.best).ok(),
            target,
        });
        Ok(Decision {
            mv: result.best,
            eval: Some(result.value.discs()),
            source: if forced {
                Source::Forced
            } else {
                Source::Search
            },
            search: Some(result),
            elapsed: start.elapsed(),
        })
    }

    // ----- pondering -----

    /// Starts thinking on the opponent's time, in the background, if pondering is on and the
    /// last search expects a position: about the position after the reply it expects, while
    /// that reply (or the engine's own move before it) is awaited, and about that position
    /// itself once it has been reached. Anything else (another reply, a new game) is a miss:
    /// nothing is searched. Returns whether a search started; [`Engine::stop_pondering`] (or
    /// any method that needs the searcher) ends it.
    pub fn start_pondering(&mut self) -> bool {
        if !self.ponder {
            return false;
        }
        let Some(expected) = self.expected else {
            return false;
        };
        let current = self.game.position().board;
        let waiting = current == expected.before || Some(current) == expected.after_ours;
        if !waiting && current != expected.target {
            log::debug!("ponder miss");
            self.expected = None;
            return false;
        }
        self.stop_pondering();
        let limits = Limits {
            depth: self.options.depth_cap,
            nodes: self.options.node_cap,
            ..Limits::default()
        };
        let searcher = Arc::clone(&self.searcher);
        let target = expected.target;
        let spawned = std::thread::Builder::new().spawn(move || {
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            searcher.search(&target, &limits, &mut ());
        });
        // A thread the system will not start (its limits reached) is no ponder, not a panic.
        let handle = match spawned {
            Ok(handle) => handle,
            Err(e) => {
                log::warn!("no pondering: cannot start its thread: {e}");
                return false;
            }
        };
        self.pondering = Some(Pondering { handle });
        self.pondered = Some(target);
        true
    }

    /// Stops the background search, if one runs: raises the stop flag, waits for the thread,
    /// and lowers the flag. Returns whether one was running.
    pub fn stop_pondering(&mut self) -> bool {
        let Some(pondering) = self.pondering.take() else {
            return false;
        };
        self.stop.store(true, Ordering::SeqCst);
        // A panic in the search thread has been reported already; the searcher is still usable.
        let _ = pondering.handle.join();
        self.stop.store(false, Ordering::SeqCst);
        log::trace!("pondering stopped");
        true
    }

    // ----- the book -----

    /// Adds the game's positions (up to [`LEARN_PLIES`] moves from the start) to the book,
    /// searches the leaves that became pending, negamaxes, and saves the book if it came
    /// from a file. Returns the number of book positions added or searched again.
    pub fn learn(&mut self) -> Result<usize, EngineError> {
        let eval = self.searcher().evaluator().clone();
        let Some(owned) = self.book.as_mut() else {
            return Err(EngineError::NoBook);
        };
        if let Some(path) = &owned.read_only {
            return Err(EngineError::LearnReadOnly(path.display().to_string()));
        }
        let positions = self.game.positions();
        if positions.first().map(|p| p.board) != Some(Board::start()) {
            return Err(EngineError::LearnNotFromStart);
        }
        let boards: Vec<Board> = positions.iter().map(|p| p.board).collect();
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
        let mut searcher = Searcher::new(eval, LEARN_HASH_MB);
        let Some(path) = owned.save_to.clone() else {
            let book = Arc::make_mut(&mut owned.book);
            return Ok(learn_game(book, &boards, LEARN_PLIES, &mut searcher, depth).len());
        };
        // A book file: under its lock, the book as other processes left it (their learned
        // games, a long job's journal) learns the game and is stored at once.
        let (book, touched) =
            crate::book::file::update_locked(&path, &owned.book, &boards, |book| {
                learn_game(book, &boards, LEARN_PLIES, &mut searcher, depth).len()
            })
            .map_err(|e| EngineError::LearnSave(e.to_string()))?;
        owned.book = Arc::new(book);
        Ok(touched)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

#[cfg(test)]
mod tests;
