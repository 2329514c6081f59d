//! The worker pool of the long labelling jobs (`selfplay`, `label`): a fixed list of game
//! indices is shared by worker threads (an atomic cursor), each worker returns a game's records,
//! and one writer appends each game to the data file in a single write as soon as it is done.
//!
//! Because a game is appended whole, with its last record flagged ([`super::data`]), a run
//! killed at any moment leaves at most one incomplete game at the end of the file, which the
//! next run cuts off before resuming: nothing already computed is lost.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::data::{game_bytes, Record};
use super::LearnError;
use crate::progress::Reporter;
use crate::search::start_all;
use crate::search::tt::TableAllocError;

/// What a pool run appended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Appended {
    /// Games appended.
    pub games: usize,
    /// Records appended.
    pub positions: usize,
}

/// The states of `threads` workers (each its table), all made before any work: memory that
/// is not there is an error naming the worker, not a panic in its thread.
pub fn worker_states<S>(
    threads: usize,
    make_state: impl Fn() -> Result<S, TableAllocError>,
) -> Result<Vec<S>, LearnError> {
    (0..threads)
        .map(|k| {
            make_state()
                .map_err(|e| LearnError::Memory(format!("worker {} of {threads}: {e}", k + 1)))
        })
        .collect()
}

/// Starts one thread in `scope` for each worker state of `states`: each takes the next index
/// of `todo` (counted by `next`), sends `work`'s result for it on `tx`, and ends when `todo`
/// runs out, `stop` is raised or the receiver is gone. Either every thread starts or none
/// works ([`start_all`]).
pub(crate) fn start_workers<'scope, 'env, S, I, T, W>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    states: Vec<S>,
    todo: &'env [I],
    next: &'env AtomicUsize,
    stop: &'env AtomicBool,
    work: &'env W,
    tx: &mpsc::SyncSender<T>,
) -> Result<(), LearnError>
where
    S: Send + 'scope,
    I: Copy + Sync,
    T: Send + 'scope,
    W: Fn(&mut S, I) -> T + Sync,
{
    let workers = states
        .into_iter()
        .map(|mut state| {
            let tx = tx.clone();
            move || {
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = todo.get(k) else { break };
                    if tx.send(work(&mut state, index)).is_err() {
                        break;
                    }
                }
            }
        })
        .collect();
    start_all(scope, workers).map_err(LearnError::Threads)
}

/// Runs `work` on every game index of `todo` on `threads` threads (each with its own state
/// from `make_state`, all made first) and appends the records of each finished game to `file`
/// (the data file `path`, positioned at its end), reporting each game to `progress`. Stops at
/// the first write error; a state or a thread that cannot be had is an error before any work.
pub fn append_games<S, M, W>(
    path: &Path,
    file: &mut File,
    todo: &[u32],
    threads: usize,
    progress: &Reporter,
    make_state: M,
    work: W,
) -> Result<Appended, LearnError>
where
    S: Send,
    M: Fn() -> Result<S, TableAllocError>,
    W: Fn(&mut S, u32) -> Vec<Record> + Sync,
{
    let threads = threads.clamp(1, 256).min(todo.len().max(1));
    let states = worker_states(threads, make_state)?;
    progress.start(todo.len() as u64, "games");
    let mut done = Appended::default();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut error = None;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::sync_channel::<Vec<Record>>(2 * threads);
        if let Err(e) = start_workers(s, states, todo, &next, &stop, &work, &tx) {
            error = Some(e);
        }
        drop(tx);
        for records in rx {
            if let Err(e) = file.write_all(&game_bytes(&records)) {
                error = Some(LearnError::io(path, e));
                stop.store(true, Ordering::Relaxed);
                break;
            }
            done.games += 1;
            done.positions += records.len();
            if !progress.is_silent() {
                progress.step(&format!("{} positions", done.positions));
            }
        }
    });
    progress.finish();
    if let Some(e) = error {
        return Err(e);
    }
    file.sync_all().map_err(|e| LearnError::io(path, e))?;
    Ok(done)
}
