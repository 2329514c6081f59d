//! Pondering for the in-process engine: after choosing a move, think on the opponent's time
//! about the position after the reply the principal variation expects.
//!
//! The search runs on a background thread, on the player's own searcher (behind a mutex), with
//! no limit but the searcher's stop flag. When the player's next turn comes, the flag stops it
//! at once (within a check interval of nodes) and the thread is joined. If the opponent played
//! the expected reply (a *hit*), the new search finds the table full of that position's work:
//! its early iterations cost next to nothing, and the clock buys depth. If not (a *miss*), the
//! work is simply dropped; nothing of it is used but the table entries it left.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use crate::board::Board;
use crate::eval::EngineEval;
use crate::search::{Limits, Searcher};

/// A background search of an expected position; see the module docs.
#[derive(Default)]
pub struct Ponderer {
    running: Option<(JoinHandle<()>, Arc<AtomicBool>, Board)>,
    /// Turns whose position was the one pondered.
    pub hits: u64,
    /// Turns whose position was another.
    pub misses: u64,
}

impl Ponderer {
    /// Starts searching `target` on `searcher` until [`Ponderer::finish`].
    pub fn start(&mut self, searcher: &Arc<Mutex<Searcher<EngineEval>>>, target: Board) {
        self.stop();
        let stop = searcher
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stop_flag();
        stop.store(false, Ordering::Relaxed);
        let searcher = Arc::clone(searcher);
        let handle = std::thread::spawn(move || {
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            searcher.search(&target, &Limits::default(), &mut ());
        });
        self.running = Some((handle, stop, target));
    }

    /// Stops the background search, if any, and counts whether it searched `actual`.
    pub fn finish(&mut self, actual: &Board) {
        if let Some(target) = self.stop() {
            if target == *actual {
                self.hits += 1;
            } else {
                self.misses += 1;
            }
            log::debug!(
                "ponder {}: {} hits, {} misses",
                if target == *actual { "hit" } else { "miss" },
                self.hits,
                self.misses
            );
        }
    }

    /// Stops and joins the background search; returns the position it searched.
    fn stop(&mut self) -> Option<Board> {
        let (handle, stop, target) = self.running.take()?;
        stop.store(true, Ordering::Relaxed);
        // A panic in the search thread has been reported already; the searcher is still usable.
        let _ = handle.join();
        Some(target)
    }
}

impl Drop for Ponderer {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn a_ponder_search_stops_at_once_and_counts_hits_and_misses() {
        let searcher = Arc::new(Mutex::new(Searcher::new(EngineEval::default(), 1)));
        let mut ponder = Ponderer::default();
        let target = Board::start().play(Square::F5).play(Square::D6);
        ponder.start(&searcher, target);
        std::thread::sleep(std::time::Duration::from_millis(50));
        let t0 = std::time::Instant::now();
        ponder.finish(&target);
        assert!(t0.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!((ponder.hits, ponder.misses), (1, 0));
        ponder.start(&searcher, target);
        ponder.finish(&Board::start());
        assert_eq!((ponder.hits, ponder.misses), (1, 1));
        // The searcher is free again.
        assert!(searcher.try_lock().is_ok());
    }
}
