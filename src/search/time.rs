//! Time management: turning limits and a clock into deadlines. Pure: no clock is read here.
//!
//! Inputs are [`Limits`] (fixed depth, node budget, time per move, game clock) and the number
//! of empty squares. Outputs are a [`Budget`]:
//!
//! - a **target** (`soft`): the time the move should take on average. An iteration starts only
//!   if it is expected to end by [`STRETCH`] times the target and before the hard deadline
//!   ([`Budget::should_start_iteration`] extrapolates the last iteration by [`BRANCHING`]).
//!   As iteration end times grow by about that factor, a move takes about its target on
//!   average, and an iteration that would be cut (its work lost) is rarely started;
//! - a **hard** deadline: abort the running search and play the best move of the last
//!   completed iteration (enforced by [`super::Stopper`], which reads the clock every few
//!   thousand nodes);
//! - the choice of when to switch to a win/loss/draw and then an exact endgame solve
//!   ([`Budget::solve_kind`]): with a deadline, a solve starts when [`SOLVE_TAIL`] times its
//!   typical cost ([`Budget::typical_solve_nodes`] at the measured solver speed) fits before
//!   the hard deadline, exact if it fits, else WLD. A few cheap midgame iterations run first,
//!   so that a solve cut by the deadline still leaves a searched move to play.
//!
//! # The game plan
//!
//! With a game clock, each move plans the side's whole remaining game from what is on its
//! clock. The usable time is the time left minus a reserve ([`OVERHEAD_PER_MOVE_MS`] for every
//! move still to play, and [`SAFETY_MARGIN_MS`]); the increments still to come are added to
//! it, but only those that arrive before the first solve (after it, moves cost almost
//! nothing, so later increments cannot be spent). The plan has two parts:
//!
//! - **the first solve**, as early as the clock allows: the first of the side's moves whose
//!   reservation — a WLD solve there and an exact one at the side's next move, each at
//!   [`SOLVE_TAIL`] times its typical cost at [`PLAN_SOLVER_NPS`] — costs at most as much as
//!   [`SOLVE_AS_MOVES`] midgame moves. When that move is the one to play (the reservation
//!   fits in the usable time), the move is a solve move: its hard deadline is [`SOLVE_CAP`]
//!   of the usable time, since the moves after a solve are nearly free;
//! - **the midgame moves** before it share the rest by phase: a midgame move (20 to
//!   [`OPENING_EMPTIES`] empties, where moves matter most) weighs 1, an opening move less, down
//!   to [`OPENING_WEIGHT`] at 60 empties. A midgame move's hard deadline is [`HARD_FACTOR`]
//!   times its target, at most [`MIDGAME_CAP`] of the usable time plus the increment.
//!
//! No hard deadline exceeds [`SOLVE_CAP`] of the usable time on the clock now, so the reserve
//! and the rest of the clock always stay for the moves to come: even a half-second game is
//! finished in time. What is left unspent is mostly the solve's safety factor: in engine games
//! the engine used 87-91% of a 4 to 60 second clock on average.

use std::time::Duration;

use crate::clock::Clock;

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

impl Limits {
    /// The limits of a search without a game clock: a depth, a node budget and a time per move,
    /// each optional.
    pub fn fixed(depth: Option<u32>, nodes: Option<u64>, move_time: Option<Duration>) -> Limits {
        Limits {
            depth,
            nodes,
            move_time,
            clock: None,
        }
    }
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
/// Expected cost growth of one more ply (the ratio of successive iterations' end times).
pub const BRANCHING: f64 = 2.5;
/// An iteration starts only if it is expected to end by this multiple of the target. With
/// iteration end times growing by [`BRANCHING`], a move then takes about its target on average.
pub const STRETCH: f64 = 1.5;
/// A midgame move's hard deadline is this multiple of its target...
pub const HARD_FACTOR: f64 = 3.0;
/// ...and at most this share of the usable clock, plus the increment (within [`SOLVE_CAP`]).
pub const MIDGAME_CAP: f64 = 0.3;
/// A solve move's hard deadline: this share of the usable clock (the moves after a solve are
/// nearly free).
pub const SOLVE_CAP: f64 = 0.7;
/// Typical (median) nodes of an exact solve at 20 empties, with the midgame iterations before
/// it, and the growth per empty square (measured on positions from engine games at 16 to 24
/// empties: 3.5 M nodes at 20, about 2.2 times more per empty).
const TYPICAL_SOLVE_NODES_AT_20: f64 = 3.5e6;
const TYPICAL_SOLVE_GROWTH: f64 = 2.2;
/// A solve starts only if this many times its typical cost fits before the hard deadline
/// (hard positions take several times the median; a solve cut by the deadline is lost).
pub const SOLVE_TAIL: f64 = 3.0;
/// A WLD solve costs about this fraction of an exact one.
const WLD_FRACTION: f64 = 0.4;
/// Solver speed assumed when planning (the search measures the real one for
/// [`Budget::solve_kind`]).
pub const PLAN_SOLVER_NPS: f64 = 15e6;
/// While midgame moves remain before it, the first solve may be given at most the time of this
/// many midgame moves.
pub const SOLVE_AS_MOVES: f64 = 3.0;
/// The plan looks for a first solve at this many empties or fewer.
const MAX_PLANNED_SOLVE_EMPTIES: u32 = 32;
/// Above this many empties a move is an opening move...
pub const OPENING_EMPTIES: u32 = 46;
/// ...whose weight falls linearly to this at 60 empties (a midgame move weighs 1).
pub const OPENING_WEIGHT: f64 = 0.4;
/// Weight of a move below 20 empties, when no solve could be planned (a very short clock).
const ENDGAME_WEIGHT: f64 = 0.5;
/// Before a timed solve, midgame iterations up to `empties - PRESOLVE_GAP` plies (at most
/// [`PRESOLVE_MAX_DEPTH`]) give a move to play if the solve is cut, and fill the table.
const PRESOLVE_GAP: u32 = 12;
/// See [`PRESOLVE_GAP`].
const PRESOLVE_MAX_DEPTH: u32 = 8;
/// The longest target or hard deadline a clock gives one move (a day): clocks read from a
/// game may be absurdly long.
const MAX_MOVE_SECS: f64 = 86_400.0;
/// Without a time limit, solve exactly from this many empties (the solver is fast here).
pub const UNTIMED_EXACT_EMPTIES: u32 = 22;
/// Typical (median) nodes of the first probable solve (the 73% pass, after the midgame
/// iterations) at 20 empties, and its growth per empty square (measured on 8 positions from
/// engine games at 24 empties: 1.4 to 54 M nodes, median about 8 M; one at 28: 160 M).
const TYPICAL_PROBABLE_NODES_AT_20: f64 = 0.45e6;
const TYPICAL_PROBABLE_GROWTH: f64 = 2.1;
/// Probable solves are tried from this many empties down (see `super::transition`)...
pub const PROBABLE_MAX_EMPTIES: u32 = 36;
/// ...to this many (below, the passes' ProbCut has almost nothing to cut).
pub const PROBABLE_MIN_EMPTIES: u32 = 20;
/// The moves of the transition (from the first planned solve up to this many empties) weigh
/// [`Tuning::transition_weight`] in the game plan: they decide most games.
pub const TRANSITION_MAX_EMPTIES: u32 = 30;

/// Settings of the time plan chosen by matches (docs/SEARCH.md). `OTHELLO_TIME_TUNING`, e.g.
/// `transition_weight=2.5,probable_scale=1`, overrides them for such sweeps; it is read once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// The weight of a move at 20 to [`TRANSITION_MAX_EMPTIES`] empties in the game plan (a
    /// midgame move weighs 1).
    pub transition_weight: f64,
    /// A factor on the typical cost of the first probable solve: above 1, the midgame goes
    /// on longer before the probable solves start.
    pub probable_scale: f64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            transition_weight: 2.0,
            probable_scale: 1.0,
        }
    }
}

impl Tuning {
    /// The settings in force: the defaults, overridden by `OTHELLO_TIME_TUNING` if it parses
    /// (a bad value is logged and ignored).
    pub fn current() -> Tuning {
        static CURRENT: std::sync::OnceLock<Tuning> = std::sync::OnceLock::new();
        *CURRENT.get_or_init(|| match std::env::var("OTHELLO_TIME_TUNING") {
            Ok(text) => Tuning::parse(&text).unwrap_or_else(|e| {
                log::warn!("OTHELLO_TIME_TUNING ignored: {e}");
                Tuning::default()
            }),
            Err(_) => Tuning::default(),
        })
    }

    /// Parses `name=value` pairs separated by commas over the defaults.
    pub fn parse(text: &str) -> Result<Tuning, String> {
        let mut t = Tuning::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("{item:?} is not name=value"))?;
            let v: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite() && *v > 0.0 && *v <= 100.0)
                .ok_or_else(|| format!("{item:?}: expected a number in (0, 100]"))?;
            match name.trim() {
                "transition_weight" => t.transition_weight = v,
                "probable_scale" => t.probable_scale = v,
                other => return Err(format!("unknown setting {other:?}")),
            }
        }
        Ok(t)
    }
}

/// One move's share of a game clock, from the plan of the side's remaining game (see
/// [the module notes](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The time this move should take on average.
    pub target: Duration,
    /// The time after which this move's search is aborted.
    pub hard: Duration,
    /// The empties at the side's first planned solve (this move's when it is a solve move), or
    /// `None` when the clock is too short for any planned solve.
    pub first_solve: Option<u32>,
}

impl Plan {
    /// The plan for a move at `empties` empty squares with `clock`.
    pub fn new(clock: &Clock, empties: u32) -> Plan {
        // Keep the per-move overhead for every move still to play, not just this one.
        let my_moves = empties.div_ceil(2).max(1);
        let reserve = (OVERHEAD_PER_MOVE_MS * u64::from(my_moves) + SAFETY_MARGIN_MS) as f64 / 1e3;
        let usable = (clock.remaining.as_secs_f64() - reserve).max(0.0);
        let increment = clock.increment.as_secs_f64();
        // At least 1 ms; at most MAX_MOVE_SECS, so that deadlines stay representable.
        let secs = |s: f64| Duration::from_secs_f64(s.clamp(0.001, MAX_MOVE_SECS));
        // A solve move: the solve (WLD, then exact next move, or exact at once) fits now.
        let reservation = endgame_reservation(empties);
        if empties <= MAX_PLANNED_SOLVE_EMPTIES && reservation <= usable {
            let hard = usable * SOLVE_CAP;
            return Plan {
                target: secs((reservation / SOLVE_TAIL).min(hard)),
                hard: secs(hard),
                first_solve: Some(empties),
            };
        }
        // The first solve: the earliest own move whose reservation fits in the share of
        // `SOLVE_AS_MOVES` midgame moves; the midgame moves before it share the rest. Only
        // the increments that arrive before the solve count: the moves after it spend
        // almost nothing.
        let mut weights = 0.0;
        let mut first_solve = None;
        let mut unit = 0.0;
        for (before, x) in (1..=empties).rev().step_by(2).enumerate() {
            let pool = usable + increment * before as f64;
            if x < empties && x <= MAX_PLANNED_SOLVE_EMPTIES {
                let r = endgame_reservation(x);
                if r * (weights + SOLVE_AS_MOVES) <= pool * SOLVE_AS_MOVES {
                    first_solve = Some(x);
                    unit = (pool - r) / weights;
                    break;
                }
            }
            weights += phase_weight(x);
        }
        if first_solve.is_none() {
            unit = (usable + increment * f64::from(my_moves - 1)) / weights.max(ENDGAME_WEIGHT);
        }
        let target = unit * phase_weight(empties);
        // The increment arrives after the move: a move may use it only out of what is on the
        // clock now.
        let cap = (usable * MIDGAME_CAP + increment).min(usable * SOLVE_CAP);
        let hard = (target * HARD_FACTOR).min(cap);
        Plan {
            target: secs(target.min(hard)),
            hard: secs(hard),
            first_solve,
        }
    }
}

/// A move's weight in the plan, by its empties: the first moves of the game get less time
/// than the midgame.
fn phase_weight(empties: u32) -> f64 {
    if empties > OPENING_EMPTIES {
        let opening = f64::from(60 - empties.min(60)) / f64::from(60 - OPENING_EMPTIES);
        OPENING_WEIGHT + (1.0 - OPENING_WEIGHT) * opening
    } else if (20..=TRANSITION_MAX_EMPTIES).contains(&empties) {
        Tuning::current().transition_weight
    } else if empties >= 20 {
        1.0
    } else {
        ENDGAME_WEIGHT
    }
}

/// Seconds kept for the first solve at `empties`: a WLD solve there and an exact one two
/// empties later (or an exact one at once, which costs more), each with its tail.
fn endgame_reservation(empties: u32) -> f64 {
    let wld = Budget::typical_solve_nodes(empties) * WLD_FRACTION;
    let exact_next = Budget::typical_solve_nodes(empties.saturating_sub(2));
    (wld + exact_next) * SOLVE_TAIL / PLAN_SOLVER_NPS
}

/// Deadlines and depth limits for one search, derived from [`Limits`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// The time the move should take: iterations expected to end after [`STRETCH`] times this
    /// are not started.
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
            // A fixed time per move: start what is expected to end before the deadline.
            let h = t.saturating_sub(margin).max(Duration::from_millis(1));
            hard = Some(h);
            soft = Some(h.div_f64(STRETCH));
        }
        if let Some(c) = limits.clock {
            let plan = Plan::new(&c, empties);
            soft = Some(soft.map_or(plan.target, |x| x.min(plan.target)));
            hard = Some(hard.map_or(plan.hard, |x| x.min(plan.hard)));
        }
        Budget {
            soft,
            hard,
            max_depth: limits.depth.unwrap_or(60).clamp(1, 60),
            nodes: limits.nodes,
        }
    }

    /// Whether an iteration may start, given the time used so far and the last iteration's
    /// duration (zero before the first): it must be expected to end by [`STRETCH`] times the
    /// target and before the hard deadline.
    pub fn should_start_iteration(&self, elapsed: Duration, last_iteration: Duration) -> bool {
        let Some(soft) = self.soft else {
            return true;
        };
        let expected_end = elapsed + last_iteration.mul_f64(BRANCHING);
        expected_end <= soft.mul_f64(STRETCH) && self.hard.map_or(true, |h| expected_end <= h)
    }

    /// Whether a pass expected to take `expected` may start after `elapsed`: as for an
    /// iteration, it must be expected to end by [`STRETCH`] times the target and before the
    /// hard deadline.
    pub fn should_start_pass(&self, elapsed: Duration, expected: Duration) -> bool {
        let end = elapsed + expected;
        self.soft.map_or(true, |s| end <= s.mul_f64(STRETCH))
            && self.hard.map_or(true, |h| end <= h)
    }

    /// Typical (median) nodes of the first probable solve (the 73% pass) at `empties`.
    pub fn typical_probable_nodes(empties: u32) -> f64 {
        TYPICAL_PROBABLE_NODES_AT_20
            * TYPICAL_PROBABLE_GROWTH.powi(empties as i32 - 20)
            * Tuning::current().probable_scale
    }

    /// Whether a timed search at `empties` empties, having completed the midgame iteration
    /// before `depth`, should turn to probable solves (`super::transition`): a few midgame
    /// iterations first (a move to fall back on), then as soon as the first probable pass is
    /// expected to fit in the move's time at solver speed `nps`.
    pub fn probable_fits(&self, empties: u32, nps: f64, elapsed: Duration, depth: u32) -> bool {
        if self.soft.is_none() || !(PROBABLE_MIN_EMPTIES..=PROBABLE_MAX_EMPTIES).contains(&empties)
        {
            return false;
        }
        let presolve = empties
            .saturating_sub(PRESOLVE_GAP)
            .min(PRESOLVE_MAX_DEPTH)
            .min(self.max_depth.saturating_sub(1));
        if depth <= presolve || self.max_depth + 10 < empties {
            return false;
        }
        let expected = Duration::from_secs_f64(Self::typical_probable_nodes(empties) / nps);
        self.should_start_pass(elapsed, expected)
    }

    /// Whether the hard deadline has passed.
    pub fn should_stop(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }

    /// Typical (median) nodes of an exact solve at `empties`.
    pub fn typical_solve_nodes(empties: u32) -> f64 {
        TYPICAL_SOLVE_NODES_AT_20 * TYPICAL_SOLVE_GROWTH.powi(empties as i32 - 20)
    }

    /// Which solve fits, at `empties` empty squares, solver speed `nps` (nodes per second),
    /// time already used `elapsed`, and the midgame depth `depth` about to be searched.
    ///
    /// With a deadline or a node budget, a solve needs [`SOLVE_TAIL`] times its typical cost to
    /// fit, exact first, then WLD; a few midgame iterations run first (they give the move to
    /// play if the solve is cut), except at the last dozen empties.
    pub fn solve_kind(&self, empties: u32, nps: f64, elapsed: Duration, depth: u32) -> SolveKind {
        if depth >= empties {
            return SolveKind::Exact;
        }
        if self.hard.is_none() && self.nodes.is_none() {
            // Untimed: the caller's depth cap decides how far the midgame goes; the solver
            // takes over where it is cheap, or when the midgame depth reaches the end.
            return if empties <= UNTIMED_EXACT_EMPTIES.min(self.max_depth + 10) {
                SolveKind::Exact
            } else {
                SolveKind::None
            };
        }
        let presolve = empties
            .saturating_sub(PRESOLVE_GAP)
            .min(PRESOLVE_MAX_DEPTH)
            .min(self.max_depth.saturating_sub(1));
        if depth <= presolve {
            return SolveKind::None;
        }
        self.solve_fits(empties, nps, elapsed)
    }

    /// Which solve is expected to fit now, at `empties` empty squares, solver speed `nps` and
    /// time used `elapsed`: [`SOLVE_TAIL`] times its typical cost must fit before the hard
    /// deadline (or in the node budget), exact first, then WLD.
    pub fn solve_fits(&self, empties: u32, nps: f64, elapsed: Duration) -> SolveKind {
        let exact = Self::typical_solve_nodes(empties) * SOLVE_TAIL;
        let fits = |nodes: f64| match (self.hard, self.nodes) {
            (Some(h), _) => nodes / nps <= h.saturating_sub(elapsed).as_secs_f64(),
            (None, Some(n)) => nodes <= n as f64,
            (None, None) => false,
        };
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
    fn an_iteration_starts_only_if_expected_to_end_in_time() {
        let b = Budget::new(
            &Limits {
                move_time: Some(ms(1015)),
                ..Limits::default()
            },
            40,
        );
        // hard = 1005 ms: the next iteration is expected to end at elapsed + 2.5 * last.
        assert!(b.should_start_iteration(ms(100), ms(100)));
        assert!(b.should_start_iteration(ms(400), ms(200)));
        assert!(!b.should_start_iteration(ms(400), ms(300)));
        // With a clock, the limit is 1.5 times the target (below the hard deadline here).
        let b = Budget::new(&clock(20_000, 0), 36);
        let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
        assert!(soft.mul_f64(STRETCH) < hard);
        let last = soft.div_f64(2.0 * BRANCHING);
        assert!(b.should_start_iteration(soft.mul_f64(0.9) - last.mul_f64(BRANCHING), last));
        assert!(!b.should_start_iteration(soft.mul_f64(1.6) - last.mul_f64(BRANCHING), last));
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
    fn every_move_to_its_hard_deadline_keeps_the_reserve_of_short_games() {
        // The same worst case from a half-second game and an XOT start, both parities: every
        // move runs to its hard deadline plus its full share of the overhead reserve. Only the
        // 1 ms a search always gets can eat into the safety margin.
        for (total, first) in [(500u64, 52u32), (500, 51), (250, 60), (4_000, 52)] {
            let mut remaining = total as i64;
            for empties in (1..=first).rev().step_by(2) {
                let b = Budget::new(&clock(remaining as u64, 0), empties);
                let used = b.hard.unwrap().as_millis() as i64 + OVERHEAD_PER_MOVE_MS as i64;
                remaining -= used;
                assert!(
                    remaining > 0,
                    "{remaining} ms left at {empties} empties of a {total} ms game"
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
        // A midgame move's hard deadline never exceeds 30% of the clock.
        assert!(slow.hard.unwrap() <= ms(60_000).mul_f64(MIDGAME_CAP));
        // With time left, a move gets a real share of it.
        assert!(slow.soft.unwrap() >= ms(60_000 / 30));
        // The increments still to come are spent, but a move never counts on the increment
        // it has not received yet: with 50 ms on the clock, even a 1 s increment leaves the
        // hard deadline within the 50 ms.
        let broke = Budget::new(&clock(50, 1_000), 40);
        assert!(broke.hard.unwrap() < ms(50), "{broke:?}");
        let b = Budget::new(&clock(1_000, 1_000), 40);
        assert!(b.soft.unwrap() > fast.soft.unwrap() * 2, "{b:?}");
        assert!(b.hard.unwrap() < ms(1_000).mul_f64(SOLVE_CAP), "{b:?}");
    }

    #[test]
    fn absurd_clocks_give_representable_deadlines() {
        for empties in [60, 40, 20, 1, 0] {
            for remaining in [Duration::ZERO, ms(1), Duration::MAX] {
                for increment in [Duration::ZERO, Duration::MAX] {
                    let limits = Limits {
                        clock: Some(Clock {
                            remaining,
                            increment,
                        }),
                        ..Limits::default()
                    };
                    let b = Budget::new(&limits, empties);
                    let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                    assert!(ms(1) <= soft && soft <= hard, "{b:?}");
                    assert!(hard <= Duration::from_secs(86_400), "{b:?}");
                    if remaining < ms(20) {
                        // Nothing usable: the minimum.
                        assert_eq!(hard, ms(1), "{b:?}");
                    }
                }
            }
        }
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

    #[test]
    fn probable_solves_start_when_the_first_pass_fits_in_a_timed_search() {
        let nps = 15e6;
        // Untimed, or outside the band: never.
        let untimed = Budget::new(&Limits::default(), 26);
        assert!(!untimed.probable_fits(26, nps, ms(0), 12));
        let roomy = Budget::new(
            &Limits {
                move_time: Some(Duration::from_secs(1000)),
                ..Limits::default()
            },
            26,
        );
        assert!(!roomy.probable_fits(PROBABLE_MIN_EMPTIES - 1, nps, ms(0), 12));
        assert!(!roomy.probable_fits(PROBABLE_MAX_EMPTIES + 1, nps, ms(0), 12));
        // A few midgame iterations first, then as soon as the pass fits.
        assert!(!roomy.probable_fits(26, nps, ms(0), 8));
        assert!(roomy.probable_fits(26, nps, ms(0), 9));
        // A short move: the typical pass at 30 empties does not fit, at 20 it does.
        let short = Budget::new(
            &Limits {
                move_time: Some(ms(200)),
                ..Limits::default()
            },
            30,
        );
        assert!(!short.probable_fits(30, nps, ms(0), 9));
        assert!(short.probable_fits(20, nps, ms(0), 9));
        // Time already used counts.
        assert!(!short.probable_fits(20, nps, ms(185), 9));
        // A pass is started only if it is expected to end in time.
        assert!(short.should_start_pass(ms(50), ms(100)));
        assert!(!short.should_start_pass(ms(150), ms(100)));
    }

    #[test]
    fn the_tuning_parses_known_settings_only() {
        let t = Tuning::parse("transition_weight=2.5, probable_scale=0.5").unwrap();
        assert_eq!((t.transition_weight, t.probable_scale), (2.5, 0.5));
        assert_eq!(Tuning::parse("").unwrap(), Tuning::default());
        for bad in [
            "transition_weight",
            "x=1",
            "probable_scale=0",
            "probable_scale=nan",
        ] {
            assert!(Tuning::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_transition_moves_weigh_more_in_the_plan() {
        let w = Tuning::current().transition_weight;
        assert_eq!(phase_weight(24), w);
        assert_eq!(phase_weight(TRANSITION_MAX_EMPTIES + 1), 1.0);
        let plan = |empties| {
            Plan::new(
                &Clock {
                    remaining: ms(20_000),
                    increment: ms(0),
                },
                empties,
            )
        };
        // With the same clock, a transition move gets more than a midgame move.
        assert!(plan(28).target > plan(34).target);
    }

    #[test]
    fn a_timed_solve_comes_after_a_few_midgame_iterations() {
        // A clock that plans the solve now, at 20 empties.
        let b = Budget::new(&clock(5_000, 0), 20);
        let plan = Plan::new(
            &Clock {
                remaining: ms(5_000),
                increment: ms(0),
            },
            20,
        );
        assert_eq!(plan.first_solve, Some(20));
        assert_eq!(b.hard, Some(plan.hard));
        // Most of the clock is the solve's: the moves after it are nearly free.
        assert!(b.hard.unwrap() >= ms(3_000), "{b:?}");
        let nps = PLAN_SOLVER_NPS;
        // Depths 1-8 first (a move to fall back on), then the solve.
        for depth in 1..=8 {
            assert_eq!(b.solve_kind(20, nps, ms(0), depth), SolveKind::None);
        }
        assert_eq!(b.solve_kind(20, nps, ms(5), 9), SolveKind::Exact);
        // Fewer midgame iterations nearer the end, none at 12 empties.
        assert_eq!(b.solve_kind(14, nps, ms(0), 2), SolveKind::None);
        assert_eq!(b.solve_kind(14, nps, ms(0), 3), SolveKind::Exact);
        assert_eq!(b.solve_kind(12, nps, ms(0), 1), SolveKind::Exact);
        // A slower solver than planned: only the WLD solve fits, or nothing.
        assert_eq!(b.solve_kind(20, nps / 8.0, ms(0), 9), SolveKind::Wld);
        assert_eq!(b.solve_kind(20, nps / 20.0, ms(0), 9), SolveKind::None);
        // Time already spent counts.
        assert_eq!(
            b.solve_kind(20, nps, b.hard.unwrap() - ms(10), 9),
            SolveKind::None
        );
    }

    /// One side's whole game under a simple cost model: a midgame move takes its target, a
    /// solve its typical time at [`PLAN_SOLVER_NPS`] (WLD [`WLD_FRACTION`] of that), plus 1 ms
    /// of overhead per move.
    struct Simulated {
        /// Share of the clock used: of the initial time plus the increments received up to
        /// the first exact solve (the later ones cannot be spent: the game is solved).
        used: f64,
        /// Least time left after a move, in seconds.
        least_left: f64,
        /// Empties at the first solve.
        first_solve: Option<u32>,
        /// Empties at the first exact solve.
        first_exact: Option<u32>,
        /// Target of each midgame move, by empties.
        targets: Vec<(u32, Duration)>,
    }

    fn simulate(total_ms: u64, increment_ms: u64, first_empties: u32) -> Simulated {
        let increment = increment_ms as f64 / 1e3;
        let mut left = total_ms as f64 / 1e3;
        let mut sim = Simulated {
            used: 0.0,
            least_left: left,
            first_solve: None,
            first_exact: None,
            targets: Vec::new(),
        };
        let (mut spent, mut spendable) = (0.0, total_ms as f64 / 1e3);
        for empties in (1..=first_empties).rev().step_by(2) {
            let limits = Limits {
                clock: Some(Clock {
                    remaining: Duration::from_secs_f64(left),
                    increment: Duration::from_secs_f64(increment),
                }),
                ..Limits::default()
            };
            let b = Budget::new(&limits, empties);
            let depth = (PRESOLVE_MAX_DEPTH + 1).min(empties);
            let solve_secs = Budget::typical_solve_nodes(empties) / PLAN_SOLVER_NPS;
            let cost = match b.solve_kind(empties, PLAN_SOLVER_NPS, Duration::ZERO, depth) {
                SolveKind::Exact => {
                    sim.first_exact.get_or_insert(empties);
                    sim.first_solve.get_or_insert(empties);
                    solve_secs
                }
                SolveKind::Wld => {
                    sim.first_solve.get_or_insert(empties);
                    solve_secs * WLD_FRACTION
                }
                SolveKind::None => {
                    sim.targets.push((empties, b.soft.unwrap()));
                    b.soft.unwrap().as_secs_f64()
                }
            };
            assert!(cost <= b.hard.unwrap().as_secs_f64(), "{empties}: {b:?}");
            left -= cost + 0.001;
            spent += cost + 0.001;
            sim.least_left = sim.least_left.min(left);
            left += increment;
            if sim.first_exact.is_none() {
                spendable += increment;
            }
        }
        sim.used = spent / spendable;
        sim
    }

    #[test]
    fn the_plan_spends_most_of_the_clock_and_solves_as_early_as_it_allows() {
        let mut first_exact = Vec::new();
        for (total_ms, increment_ms) in [(4_000, 0), (20_000, 0), (60_000, 0), (10_000, 200)] {
            // Both sides of an XOT game (52 empties) and of a game from the start.
            for first in [52, 51, 60, 59] {
                let sim = simulate(total_ms, increment_ms, first);
                let label = format!("{total_ms}+{increment_ms} ms from {first} empties");
                assert!(sim.used >= 0.8, "{label}: {:.1}% used", 100.0 * sim.used);
                assert!(sim.least_left > 0.0, "{label}: {} s left", sim.least_left);
                // The midgame gets more time than the first moves of the game.
                let target = |e: u32| sim.targets.iter().find(|t| t.0 <= e).unwrap().1;
                assert!(target(36) > target(first), "{label}");
                // The solver takes over, WLD first, then exact.
                let (solve, exact) = (sim.first_solve.unwrap(), sim.first_exact.unwrap());
                assert!(exact <= solve && solve >= 18, "{label}: {solve} {exact}");
                first_exact.push((total_ms, exact));
            }
        }
        // A longer clock solves earlier.
        let earliest = |t| first_exact.iter().filter(|f| f.0 == t).map(|f| f.1).max();
        assert!(earliest(60_000) > earliest(20_000) && earliest(20_000) > earliest(4_000));
    }
}
