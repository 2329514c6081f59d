//! The stop decision of a running search: an external flag (NBoard's `stop`, a GUI thread), a
//! hard deadline from the time manager ([`super::time`]) or a node budget.
//!
//! Reading the clock costs far more than a node, so the deadline and the flag are read only
//! every [`CHECK_INTERVAL_NODES`] nodes (as Carp and Reckless do), and the node budget is
//! checked on the same schedule. Each searcher (midgame, endgame solver) counts its own nodes
//! from zero: [`Stopper::rebase`] shifts the schedule by the nodes already spent in the search,
//! and [`Stopper::mark`]/[`Stopper::restore`] bring it back after a nested search (the solver's
//! shallow midgame searches for move ordering).

use crate::time::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How often (in nodes) the clock and the stop flag are read.
pub const CHECK_INTERVAL_NODES: u64 = 1024;

/// Decides when a running search must stop: an external flag, a hard deadline or a node budget.
///
/// The clock is read only every [`CHECK_INTERVAL_NODES`] nodes, never at every node.
#[derive(Debug)]
pub struct Stopper {
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    node_limit: u64,
    offset: u64,
    next_check: u64,
    stopped: bool,
}

/// A saved check schedule of a [`Stopper`] (see [`Stopper::mark`]).
#[derive(Clone, Copy, Debug)]
pub struct StopperMark {
    offset: u64,
    next_check: u64,
}

impl StopperMark {
    /// Nodes spent by earlier searchers when the mark was taken.
    pub fn used(&self) -> u64 {
        self.offset
    }
}

impl Stopper {
    /// A stopper that never stops.
    pub fn unlimited() -> Stopper {
        Stopper {
            flag: None,
            deadline: None,
            node_limit: u64::MAX,
            offset: 0,
            next_check: CHECK_INTERVAL_NODES,
            stopped: false,
        }
    }

    /// A stopper with an optional external flag, hard deadline and node budget.
    pub fn new(
        flag: Option<Arc<AtomicBool>>,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
    ) -> Stopper {
        Stopper {
            flag,
            deadline,
            node_limit: node_limit.unwrap_or(u64::MAX),
            ..Stopper::unlimited()
        }
    }

    /// Restarts the check schedule for a searcher whose node counter starts at zero, after
    /// `used` nodes were already spent by earlier searchers (they count toward the budget).
    pub fn rebase(&mut self, used: u64) {
        self.offset = used;
        self.next_check = CHECK_INTERVAL_NODES.min(self.node_limit.saturating_sub(used));
    }

    /// Whether to stop, given the nodes searched so far. Cheap unless a check is due.
    #[inline(always)]
    pub fn check(&mut self, nodes: u64) -> bool {
        if nodes < self.next_check {
            return self.stopped;
        }
        self.check_now(nodes)
    }

    #[cold]
    fn check_now(&mut self, nodes: u64) -> bool {
        self.next_check = nodes + CHECK_INTERVAL_NODES;
        if self.offset + nodes >= self.node_limit || self.flag_or_deadline() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the flag is set or the deadline has passed (reads the clock).
    fn flag_or_deadline(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The current check schedule, to [`restore`](Self::restore) after a nested search that
    /// rebased this stopper.
    pub fn mark(&self) -> StopperMark {
        StopperMark {
            offset: self.offset,
            next_check: self.next_check,
        }
    }

    /// Returns to the check schedule saved by [`mark`](Self::mark). A stop decided meanwhile
    /// stays decided.
    pub fn restore(&mut self, mark: StopperMark) {
        self.offset = mark.offset;
        self.next_check = mark.next_check;
    }

    /// Whether a stop has been decided.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// A stopper for a nested attempt that must also end by `deadline`: the same flag, node
    /// budget and check schedule, and the earlier of the two deadlines. When it stops, this
    /// stopper can tell with [`expired`](Self::expired) whether its own limits were reached
    /// or only the attempt's deadline.
    pub fn with_deadline(&self, deadline: Instant) -> Stopper {
        Stopper {
            flag: self.flag.clone(),
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            node_limit: self.node_limit,
            offset: self.offset,
            next_check: self.next_check,
            stopped: self.stopped,
        }
    }

    /// Reads the flag and the clock now (not on the node schedule): whether this stopper's
    /// flag is set or its deadline has passed, which then stops it.
    pub fn expired(&mut self) -> bool {
        if self.flag_or_deadline() {
            self.stopped = true;
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn an_attempt_stops_at_its_own_deadline_and_leaves_the_search_running() {
        let flag = Arc::new(AtomicBool::new(false));
        let later = Instant::now() + Duration::from_secs(3600);
        let mut search = Stopper::new(Some(flag.clone()), Some(later), None);
        let mut attempt = search.with_deadline(Instant::now());
        assert!(attempt.check(CHECK_INTERVAL_NODES));
        assert!(!search.expired());
        assert!(!search.check(CHECK_INTERVAL_NODES));
        // The attempt never outlives the search's own deadline.
        let mut short = Stopper::new(None, Some(Instant::now()), None);
        assert!(short.with_deadline(later).expired());
        assert!(short.expired());
        // The flag stops both, read at once by `expired`.
        let mut attempt = search.with_deadline(later);
        flag.store(true, Ordering::Relaxed);
        assert!(attempt.expired());
        assert!(search.expired());
        assert!(search.stopped());
    }
}
