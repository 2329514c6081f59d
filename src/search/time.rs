//! Time management: turning limits and a clock into deadlines. Pure: no clock is read here.
//!
//! Inputs are [`Limits`] (fixed depth, node budget, time per move, game clock) and the number
//! of empty squares. Outputs are a [`Budget`]:
//!
//! - a **soft** deadline: do not start an iteration that is unlikely to finish before it
//!   ([`Budget::should_start_iteration`] extrapolates the last iteration by the effective
//!   branching factor);
//! - a **hard** deadline: abort the running search and play the best move of the last
//!   completed iteration (enforced by [`super::Stopper`], which reads the clock every few
//!   thousand nodes);
//! - the choice of when to switch to a win/loss/draw and then an exact endgame solve
//!   ([`Budget::solve_kind`]), from an estimate of the solver's node count per empty square.
//!
//! With a game clock, a move gets the remaining time divided by the moves the side still has to
//! make (plus a few in reserve), plus most of the increment; the hard deadline is a multiple of
//! that, capped at a fraction of the clock and always leaving a safety margin, so that the
//! engine never loses on time even from a one-second game.

use std::time::Duration;

/// What the caller allows a search to use. Every field is optional; none means "no limit".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum midgame depth in plies. The endgame solver chooses its own depth.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// The side to move's game clock.
    pub clock: Option<Clock>,
}

/// A game clock: time left for the side to move, and the increment per move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Which endgame solve to run instead of a midgame iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveKind {
    /// Keep searching the midgame.
    None,
    /// Solve for win, loss or draw only.
    Wld,
    /// Solve for the exact final disc difference.
    Exact,
}

/// Time kept back from every move for process and I/O overhead.
pub const SAFETY_MARGIN_MS: u64 = 10;
/// Time kept back for each move still to play (reading, writing, thread hand-over).
pub const OVERHEAD_PER_MOVE_MS: u64 = 3;
/// Moves kept in reserve when dividing the clock.
const RESERVE_MOVES: u32 = 3;
/// Multiple of the soft budget the hard deadline may reach.
const HARD_FACTOR: u32 = 4;
/// Expected cost growth of one more ply or one more empty square.
pub const BRANCHING: f64 = 2.5;
/// Estimated exact-solve nodes at 20 empties, and growth per empty square.
const SOLVE_NODES_AT_20: f64 = 15.0e6;
const SOLVE_GROWTH: f64 = 2.6;
/// A WLD solve costs about this fraction of an exact one.
const WLD_FRACTION: f64 = 0.4;
/// Without a time limit, solve exactly from this many empties (the solver is fast here).
pub const UNTIMED_EXACT_EMPTIES: u32 = 22;

/// Deadlines and depth limits for one search, derived from [`Limits`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Don't start an iteration expected to end after this.
    pub soft: Option<Duration>,
    /// Abort at this point.
    pub hard: Option<Duration>,
    /// Deepest midgame iteration.
    pub max_depth: u32,
    /// Node budget.
    pub nodes: Option<u64>,
}

impl Budget {
    /// The budget for a position with `empties` empty squares.
    pub fn new(limits: &Limits, empties: u32) -> Budget {
        let margin = Duration::from_millis(SAFETY_MARGIN_MS);
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(t) = limits.move_time {
            let h = t.saturating_sub(margin).max(Duration::from_millis(1));
            hard = Some(h);
            soft = Some(h.mul_f64(0.6));
        }
        if let Some(c) = limits.clock {
            // Keep the per-move overhead for every move still to play, not just this one.
            let my_moves = empties.div_ceil(2).max(1);
            let reserve = Duration::from_millis(OVERHEAD_PER_MOVE_MS) * my_moves;
            let usable = c.remaining.saturating_sub(reserve + margin);
            let share = usable / (my_moves + RESERVE_MOVES) + c.increment.mul_f64(0.8);
            let cap = usable.mul_f64(0.35) + c.increment.mul_f64(0.8);
            let one_ms = Duration::from_millis(1);
            let s = share.min(cap).max(one_ms);
            let h = (share * HARD_FACTOR).min(cap).max(one_ms);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        Budget {
            soft,
            hard,
            max_depth: limits.depth.unwrap_or(60).clamp(1, 60),
            nodes: limits.nodes,
        }
    }

    /// Whether an iteration may start, given the time used so far and the last iteration's
    /// duration (zero before the first).
    pub fn should_start_iteration(&self, elapsed: Duration, last_iteration: Duration) -> bool {
        match self.soft {
            None => true,
            Some(soft) => elapsed + last_iteration.mul_f64(BRANCHING) <= soft,
        }
    }

    /// Whether the hard deadline has passed.
    pub fn should_stop(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }

    /// Estimated nodes of an exact solve at `empties`.
    pub fn estimated_solve_nodes(empties: u32) -> f64 {
        SOLVE_NODES_AT_20 * SOLVE_GROWTH.powi(empties as i32 - 20)
    }

    /// Which solve fits, at `empties` empty squares, solver speed `nps` (nodes per second),
    /// time already used `elapsed`, and the midgame depth `depth` about to be searched.
    pub fn solve_kind(&self, empties: u32, nps: f64, elapsed: Duration, depth: u32) -> SolveKind {
        if depth >= empties {
            return SolveKind::Exact;
        }
        let exact = Self::estimated_solve_nodes(empties);
        let fits = |nodes: f64| match (self.hard, self.nodes) {
            (Some(h), _) => {
                let left = h.saturating_sub(elapsed).as_secs_f64();
                nodes / nps <= left * 0.5
            }
            (None, Some(n)) => nodes <= n as f64 * 0.5,
            (None, None) => false,
        };
        if self.hard.is_none() && self.nodes.is_none() {
            // Untimed: the caller's depth cap decides how far the midgame goes; the solver
            // takes over where it is cheap, or when the midgame depth reaches the end.
            return if empties <= UNTIMED_EXACT_EMPTIES.min(self.max_depth + 10) {
                SolveKind::Exact
            } else {
                SolveKind::None
            };
        }
        if fits(exact) {
            SolveKind::Exact
        } else if fits(exact * WLD_FRACTION) {
            SolveKind::Wld
        } else {
            SolveKind::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining_ms: u64, increment_ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: ms(remaining_ms),
                increment: ms(increment_ms),
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn no_limits_means_no_deadlines() {
        let b = Budget::new(&Limits::default(), 40);
        assert_eq!(
            (b.soft, b.hard, b.max_depth, b.nodes),
            (None, None, 60, None)
        );
        assert!(b.should_start_iteration(Duration::from_secs(3600), Duration::from_secs(60)));
        assert!(!b.should_stop(Duration::from_secs(3600)));
    }

    #[test]
    fn move_time_keeps_a_margin() {
        let b = Budget::new(
            &Limits {
                move_time: Some(ms(1000)),
                ..Limits::default()
            },
            40,
        );
        assert_eq!(b.hard, Some(ms(1000 - SAFETY_MARGIN_MS)));
        assert!(b.soft.unwrap() < b.hard.unwrap());
        assert!(b.should_stop(ms(990)));
        assert!(!b.should_stop(ms(900)));
    }

    #[test]
    fn soft_deadline_extrapolates_the_last_iteration() {
        let b = Budget::new(
            &Limits {
                move_time: Some(ms(1015)),
                ..Limits::default()
            },
            40,
        );
        // soft = 600 ms
        assert!(b.should_start_iteration(ms(100), ms(100)));
        assert!(!b.should_start_iteration(ms(400), ms(100)));
    }

    #[test]
    fn a_one_second_game_is_always_finished_in_time() {
        // Simulate a whole game with a fake clock: each move uses its full hard deadline (the
        // worst case), plus 1 ms past it (the stopper reads the clock every few thousand
        // nodes) and 2 ms of overhead. The clock must never run out.
        for increment in [0, 10] {
            let mut remaining = 1000i64;
            for empties in (1..=60).rev().step_by(2) {
                let limits = clock(remaining as u64, increment);
                let b = Budget::new(&limits, empties);
                let used = b.hard.unwrap().as_millis() as i64 + 3;
                remaining = remaining - used + increment as i64;
                assert!(
                    remaining > 0,
                    "ran out at {empties} empties (inc {increment})"
                );
            }
        }
    }

    #[test]
    fn clock_budget_grows_with_time_left_and_increment() {
        let slow = Budget::new(&clock(60_000, 0), 40);
        let fast = Budget::new(&clock(1_000, 0), 40);
        let inc = Budget::new(&clock(1_000, 500), 40);
        assert!(slow.soft > fast.soft);
        assert!(inc.soft > fast.soft);
        // A hard deadline never exceeds 35% of the clock.
        assert!(slow.hard.unwrap() <= ms(60_000).mul_f64(0.35));
        // With time left, a move gets a real share of it.
        assert!(slow.soft.unwrap() >= ms(60_000 / 30));
    }

    #[test]
    fn the_solver_takes_over_when_it_fits() {
        let b = Budget::new(&clock(60_000, 0), 30);
        let nps = 20e6;
        assert_eq!(b.solve_kind(30, nps, ms(0), 10), SolveKind::None);
        assert_eq!(b.solve_kind(14, nps, ms(0), 10), SolveKind::Exact);
        // Somewhere in between there is a WLD-only band.
        assert!((14..30).any(|e| b.solve_kind(e, nps, ms(0), 10) == SolveKind::Wld));
        // Reaching the end by depth is a solve whatever the clock.
        assert_eq!(b.solve_kind(12, nps, ms(0), 12), SolveKind::Exact);
        // Untimed searches solve at moderate empties.
        let untimed = Budget::new(&Limits::default(), 30);
        assert_eq!(untimed.solve_kind(20, nps, ms(0), 5), SolveKind::Exact);
        assert_eq!(untimed.solve_kind(30, nps, ms(0), 5), SolveKind::None);
    }
}
