//! Parallel search: shared-table threads (Lazy SMP) kept apart by simplified ABDADA.
//!
//! # Design
//! One search runs on `threads` threads. The calling thread is the *main* thread: it runs the
//! search exactly as a single-threaded search would (iterative deepening, the time manager,
//! the solve phase, the reports), and only its results are returned. The other threads are
//! *helpers*. Whenever the main thread starts a piece of work (a midgame iteration at some
//! depth, or the endgame solve), it *posts* it as a [`Task`]; every helper drops what it was
//! doing and starts the same work on the same position. All threads share:
//!
//! - the transposition table ([`super::tt`], lock-free: a torn entry reads as a miss), through
//!   which a helper's finished subtrees become the main thread's instant cut-offs and move
//!   orders;
//! - a [`BusyTable`] of the children being searched, so that threads arriving at the same node
//!   take different children first (ABDADA's deferral, [`super::busy`]) instead of repeating
//!   each other's work.
//!
//! A helper that finishes a midgame iteration before the main thread goes one ply deeper on
//! its own; one that finishes the solve waits. When the main thread is done, it posts
//! [`Task::Quit`] and the helpers stop within [`super::CHECK_INTERVAL_NODES`] nodes.
//!
//! Why this rather than a split-point design (YBWC, as Edax does): it needs no
//! synchronisation inside the search (a busy mark is one relaxed store), a helper never waits
//! for another thread, and the searches stay the plain recursive functions of one thread.
//! Egaroucid's author measured YBWC's overhead at about 36% against such a shared-table
//! design. `docs/dev/PARALLEL.md` has the measurements and how the design should scale.
//!
//! # Guarantees
//! - Exact solves give the same score with any number of threads: every thread runs a complete
//!   exact search, and the table only ever holds exact bounds for them.
//! - One thread is the single-threaded search, unchanged and deterministic (no helper, no
//!   busy marks). With more, which move is chosen among equal ones, the midgame values and
//!   the node counts may vary from run to run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, RwLock};
use std::thread::Scope;

use crate::board::Board;
use crate::cpu::Cpu;
use crate::eval::Evaluator;

use super::busy::BusyTable;
use super::context::Context;
use super::endgame::Solver;
use super::midgame::Midgame;
use super::probcut::model::MpcModel;
use super::selectivity::Selectivity;
use super::tt::TranspositionTable;
use super::{aspiration, solve_sequence, Stopper};

/// A piece of work the main thread posts for the helpers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Task {
    /// Nothing yet.
    Idle,
    /// A midgame iteration at `depth` (then deeper), with the aspiration guess and pruning of
    /// the main thread's.
    Midgame {
        /// The main thread's depth.
        depth: u32,
        /// The previous iteration's score (centi-discs), for the aspiration window.
        guess: Option<i32>,
        /// The forward pruning.
        selectivity: Option<Selectivity>,
    },
    /// The endgame solve (win/loss/draw or exact), from a guess in centi-discs.
    Solve {
        /// Win/loss/draw only.
        wld: bool,
        /// The last midgame score, in centi-discs.
        guess: Option<i32>,
        /// A known upper bound on the value, in discs (a later line of a multi-PV solve).
        upper: Option<i32>,
    },
    /// One pass to the end of the game (see `super::transition`): ProbCut at `selectivity`
    /// (`None`: exact), by MTD(f) from `guess` (discs).
    EndPass {
        /// The pass's forward pruning.
        selectivity: Option<Selectivity>,
        /// The first guess, in discs.
        guess: i32,
    },
    /// An exact solve of the root within (`alpha`, `beta`), in discs (one window of
    /// `super::every_move`).
    Window {
        /// The lower bound of the window.
        alpha: i32,
        /// The upper bound of the window.
        beta: i32,
    },
    /// The search is over.
    Quit,
}

/// The task board: the latest task, its generation, and the flag that stops it.
struct Posted {
    generation: u64,
    task: Task,
    stop: Arc<AtomicBool>,
}

/// What the threads of one parallel search share besides the table.
pub struct Crew {
    posted: Mutex<Posted>,
    wake: Condvar,
    /// The children being searched (ABDADA's marks).
    pub busy: BusyTable,
    /// Nodes searched by the helpers so far (added after each piece of work).
    helper_nodes: AtomicU64,
}

impl Crew {
    fn new() -> Crew {
        Crew {
            posted: Mutex::new(Posted {
                generation: 0,
                task: Task::Idle,
                stop: Arc::new(AtomicBool::new(false)),
            }),
            wake: Condvar::new(),
            busy: BusyTable::new(),
            helper_nodes: AtomicU64::new(0),
        }
    }

    /// Stops the helpers' current work and sets them on `task`.
    pub fn post(&self, task: Task) {
        let mut posted = self.posted.lock().unwrap_or_else(PoisonError::into_inner);
        posted.stop.store(true, Ordering::Relaxed);
        posted.generation += 1;
        posted.task = task;
        posted.stop = Arc::new(AtomicBool::new(false));
        drop(posted);
        self.wake.notify_all();
    }

    /// The first task after generation `seen`, with its generation and stop flag (blocks).
    fn next_task(&self, seen: u64) -> (u64, Task, Arc<AtomicBool>) {
        let mut posted = self.posted.lock().unwrap_or_else(PoisonError::into_inner);
        while posted.generation == seen {
            posted = self
                .wake
                .wait(posted)
                .unwrap_or_else(PoisonError::into_inner);
        }
        (posted.generation, posted.task, posted.stop.clone())
    }

    /// Nodes the helpers have reported so far.
    pub fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Ordering::Relaxed)
    }
}

/// Posts [`Task::Quit`] when dropped, so that the helpers stop however the main thread leaves
/// (even by a panic, which the scope then propagates).
struct QuitOnDrop<'a>(&'a Crew);

impl Drop for QuitOnDrop<'_> {
    fn drop(&mut self) {
        self.0.post(Task::Quit);
    }
}

/// The position and the shared state a helper searches with.
pub struct Job<'a, E: Evaluator> {
    /// The evaluator (shared, read-only).
    pub eval: &'a E,
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// The Multi-ProbCut model of the midgame.
    pub mpc: &'a MpcModel,
    /// The root position.
    pub board: Board,
    /// The root moves the search skips (multi-PV).
    pub excluded: u64,
}

/// The system would not start all the threads of a parallel job (a limit on threads or on
/// the address space, each thread's stack being part of it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot start {wanted} threads: {reason}")]
pub struct ThreadStartError {
    /// The threads asked for.
    pub wanted: usize,
    /// How many had started when one was refused (0 when the address space was found short
    /// before any started).
    pub started: usize,
    /// Why: which thread the system refused and its answer, or the address space short.
    pub reason: String,
}

/// Starts one thread in `scope` for each of `tasks`, and lets them run their tasks only once
/// every thread has started. If the system refuses a thread, no task runs (the threads already
/// started return at once, dropping theirs) and the error says how many had started: a job
/// that cannot have all its threads fails before any work, instead of panicking half-way.
/// Under a limit on the address space, a count whose stacks and allocator arenas would not
/// fit is refused before any thread starts (module `headroom`): running out in the
/// middle of a thread's start-up aborts the process instead of returning an error.
pub fn start_all<'scope, F>(
    scope: &'scope Scope<'scope, '_>,
    tasks: Vec<F>,
) -> Result<(), ThreadStartError>
where
    F: FnOnce() + Send + 'scope,
{
    start_beside(scope, tasks, 0)
}

/// [`start_all`] for a job that has `running` threads already (the caller's own): the error
/// counts them among the wanted and the started.
fn start_beside<'scope, F>(
    scope: &'scope Scope<'scope, '_>,
    tasks: Vec<F>,
    running: usize,
) -> Result<(), ThreadStartError>
where
    F: FnOnce() + Send + 'scope,
{
    let wanted = running + tasks.len();
    super::headroom::room_for_threads(tasks.len()).map_err(|reason| ThreadStartError {
        wanted,
        started: running,
        reason,
    })?;
    // Held for writing until every thread is there; `true` once they may work.
    let gate = Arc::new(RwLock::new(false));
    let mut open = gate.write().unwrap_or_else(PoisonError::into_inner);
    for (index, task) in tasks.into_iter().enumerate() {
        let gate = Arc::clone(&gate);
        let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
            let go = *gate.read().unwrap_or_else(PoisonError::into_inner);
            if go {
                task();
            }
        });
        if let Err(e) = spawned {
            drop(open);
            let started = running + index;
            return Err(ThreadStartError {
                wanted,
                started,
                reason: format!("the system refused thread {}: {e}", started + 1),
            });
        }
    }
    *open = true;
    Ok(())
}

/// Whether a search on `threads` threads can start its helpers now: starts them idle, all at
/// once, and stops them. A command checks this before its work (after its table is
/// allocated, since both take address space), so that `--threads` the system cannot give is
/// an error up front; a search that meets the refusal later runs on its own thread instead.
pub fn check_threads(threads: usize) -> Result<(), ThreadStartError> {
    if threads <= 1 {
        return Ok(());
    }
    std::thread::scope(|scope| start_beside(scope, (1..threads).map(|_| || ()).collect(), 1))
}

/// Warned once per process: a search ran on fewer threads than asked.
static SHORT_OF_THREADS: AtomicBool = AtomicBool::new(false);

/// Runs `main` on this thread with `threads - 1` helpers working beside it (see the module
/// docs); returns its result and the helpers' node count. With one thread, `main` runs alone
/// and gets no crew; so it does, with a warning, when the system will not start the helpers.
pub fn run<E: Evaluator, C: Cpu, R>(
    threads: usize,
    job: &Job<'_, E>,
    main: impl FnOnce(Option<&Crew>) -> R,
) -> (R, u64) {
    if threads <= 1 {
        return (main(None), 0);
    }
    let crew = Crew::new();
    let result = std::thread::scope(|scope| {
        let crew = &crew;
        let helpers = (1..threads)
            .map(|id| move || helper::<E, C>(job, crew, id))
            .collect();
        if let Err(e) = start_all(scope, helpers) {
            if !SHORT_OF_THREADS.swap(true, Ordering::Relaxed) {
                log::warn!(
                    "the search runs on one thread: its {} helpers: {e}",
                    threads - 1
                );
            }
            return main(None);
        }
        let quit = QuitOnDrop(crew);
        let result = main(Some(crew));
        drop(quit);
        result
    });
    (result, crew.helper_nodes())
}

/// A helper thread's loop: the posted tasks, one after another, until [`Task::Quit`].
fn helper<E: Evaluator, C: Cpu>(job: &Job<'_, E>, crew: &Crew, id: usize) {
    let (p, o) = (job.board.player(), job.board.opponent());
    let empties = job.board.empty_count();
    let mut seen = 0;
    loop {
        let (generation, task, stop) = crew.next_task(seen);
        seen = generation;
        let mut stopper = Stopper::new(Some(stop), None, None);
        let mut cx = Context::new(job.eval, job.tt, &mut stopper);
        let mut nodes = 0;
        match task {
            Task::Idle => {}
            Task::Quit => return,
            Task::Midgame {
                depth,
                guess,
                selectivity,
            } => {
                // Every other helper starts one ply deeper than the main thread.
                let mut guess = guess;
                let first = depth + id.is_multiple_of(2) as u32;
                for d in first..=empties.max(first) {
                    let mut search = Midgame::<E, C>::on_cpu(&mut cx, 0);
                    search.set_selectivity(job.mpc, selectivity);
                    search.set_busy(Some(&crew.busy));
                    let (score, _) = aspiration(&mut search, p, o, d, guess, job.excluded);
                    nodes += search.nodes();
                    crew.helper_nodes
                        .fetch_add(search.nodes(), Ordering::Relaxed);
                    if search.aborted() {
                        break;
                    }
                    guess = Some(score);
                }
            }
            Task::EndPass { selectivity, guess } => {
                let mut solver = Solver::<E, C>::on_cpu(&mut cx, 0);
                solver.set_busy(Some(&crew.busy));
                solver.set_models(job.mpc);
                solver.set_selectivity(selectivity);
                solver.solve_root_mtd(p, o, guess, job.excluded);
                nodes += solver.nodes();
                crew.helper_nodes
                    .fetch_add(solver.nodes(), Ordering::Relaxed);
            }
            Task::Window { alpha, beta } => {
                let mut solver = Solver::<E, C>::on_cpu(&mut cx, 0);
                solver.set_busy(Some(&crew.busy));
                solver.set_models(job.mpc);
                solver.solve(p, o, alpha, beta);
                nodes += solver.nodes();
                crew.helper_nodes
                    .fetch_add(solver.nodes(), Ordering::Relaxed);
            }
            Task::Solve { wld, guess, upper } => {
                let mut solver = Solver::<E, C>::on_cpu(&mut cx, 0);
                solver.set_busy(Some(&crew.busy));
                solver.set_models(job.mpc);
                match upper {
                    Some(upper) if !wld => {
                        solver.solve_root_mtd_below(p, o, upper, upper, job.excluded);
                    }
                    _ => {
                        let quiet = &mut |_, _, _, _| {};
                        solve_sequence(&mut solver, p, o, wld, guess, job.excluded, quiet);
                    }
                }
                nodes += solver.nodes();
                crew.helper_nodes
                    .fetch_add(solver.nodes(), Ordering::Relaxed);
            }
        }
        log::trace!("helper {id}: {task:?} done after {nodes} nodes");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn start_all_runs_every_task_once_all_threads_have_started() {
        let ran = AtomicU64::new(0);
        std::thread::scope(|s| {
            let ran = &ran;
            let tasks = (0..8)
                .map(|k| {
                    move || {
                        ran.fetch_add(1 << (8 * (k % 8)), Ordering::Relaxed);
                    }
                })
                .collect();
            assert_eq!(start_all(s, tasks), Ok(()));
        });
        assert_eq!(ran.into_inner(), 0x0101_0101_0101_0101);
        assert_eq!(check_threads(4), Ok(()));
        assert_eq!(check_threads(1), Ok(()));
    }

    #[test]
    fn a_post_stops_the_previous_task_and_wakes_the_waiters() {
        let crew = Crew::new();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| crew.next_task(0));
            std::thread::sleep(Duration::from_millis(20));
            crew.post(Task::Quit);
            let (generation, task, stop) = waiter.join().unwrap();
            assert_eq!((generation, task), (1, Task::Quit));
            assert!(!stop.load(Ordering::Relaxed));
            crew.post(Task::Idle);
            assert!(
                stop.load(Ordering::Relaxed),
                "the old task's flag is raised"
            );
        });
    }
}
