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
    /// The most empty squares at which a solve may start (a level's exact-solve empties).
    /// Untimed, the search solves exactly at this many empties or fewer instead of at
    /// [`UNTIMED_EXACT_EMPTIES`] (capped by the depth); timed, no solve (exact, WLD or
    /// probable) starts above it. `None`: the search decides alone.
    pub solve_empties: Option<u32>,
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
            solve_empties: None,
        }
    }
}

impl Limits {
    /// Whether a search of a position with `empties` empty squares under these limits is an
    /// exact solve from the start: no clock, no time per move, no node budget, and `empties`
    /// within the untimed solve point ([`Budget::solve_kind`]'s rule). Multi-move hints use
    /// it to solve every move on its own instead.
    pub fn solves_at_once(&self, empties: u32) -> bool {
        self.move_time.is_none()
            && self.clock.is_none()
            && self.nodes.is_none()
            && Budget::new(self, empties).solve_kind(empties, 1.0, Duration::ZERO, 1)
                == SolveKind::Exact
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

/// Settings of the time plan chosen by matches (docs/TRANSITION.md). `OTHELLO_TIME_TUNING`, e.g.
/// `transition_weight=2.5,probable_scale=1`, overrides them for such sweeps; it is read once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// The weight of a move at 20 to [`TRANSITION_MAX_EMPTIES`] empties in the game plan (a
    /// midgame move weighs 1).
    pub transition_weight: f64,
    /// A factor on the typical cost of the first probable solve: above 1, the midgame goes
    /// on longer before the probable solves start.
    pub probable_scale: f64,
    /// The first probable pass of a move may run until its start plus this many times its
    /// expected time; cut there, the move goes back to deepening the midgame
    /// ([`Budget::first_pass_deadline`]).
    pub pass_tail: f64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            transition_weight: 2.0,
            probable_scale: 1.0,
            pass_tail: 3.0,
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
                "pass_tail" => t.pass_tail = v,
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

/// The clock a side is expected to have at `empties` empty squares in a game started from an
/// XOT opening (52 empties) with `start` on its clock, if every earlier move of that side took
/// its plan's target: the clock `othello quality --game-clock` gives each position, so that it
/// is searched with the time the plan gives it in a game.
pub fn expected_clock(start: &Clock, empties: u32) -> Clock {
    let mut clock = *start;
    let first = if empties.is_multiple_of(2) { 52 } else { 51 };
    for e in (empties + 2..=first).rev().step_by(2) {
        let plan = Plan::new(&clock, e);
        clock.remaining = clock.remaining.saturating_sub(plan.target) + clock.increment;
    }
    clock
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
    /// The most empties at which a solve may start ([`Limits::solve_empties`]).
    pub solve_empties: Option<u32>,
    /// The clock's plan makes this a solve move ([`Plan::first_solve`] is this move's).
    pub solve_move: bool,
}

impl Budget {
    /// The budget for a position with `empties` empty squares.
    pub fn new(limits: &Limits, empties: u32) -> Budget {
        let margin = Duration::from_millis(SAFETY_MARGIN_MS);
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut solve_move = false;
        if let Some(t) = limits.move_time {
            // A fixed time per move: start what is expected to end before the deadline.
            let h = t.saturating_sub(margin).max(Duration::from_millis(1));
            hard = Some(h);
            soft = Some(h.div_f64(STRETCH));
        }
        if let Some(c) = limits.clock {
            let plan = Plan::new(&c, empties);
            solve_move = plan.first_solve == Some(empties);
            soft = Some(soft.map_or(plan.target, |x| x.min(plan.target)));
            hard = Some(hard.map_or(plan.hard, |x| x.min(plan.hard)));
        }
        Budget {
            soft,
            hard,
            max_depth: limits.depth.unwrap_or(60).clamp(1, 60),
            nodes: limits.nodes,
            solve_empties: limits.solve_empties,
            solve_move,
        }
    }

    /// The deepest midgame iteration run before a timed solve at `empties`.
    fn presolve_depth(&self, empties: u32) -> u32 {
        empties
            .saturating_sub(PRESOLVE_GAP)
            .min(PRESOLVE_MAX_DEPTH)
            .min(self.max_depth.saturating_sub(1))
    }

    /// Whether midgame iteration `depth` at `empties` is one of a solve move's iterations
    /// before its solve. Those answer to the hard deadline only
    /// ([`Budget::should_resume_iteration`]), not to the target: the target of a solve move is
    /// the solve's, and a slow start (a fresh table's page faults on a loaded machine took
    /// 126 ms to depth 4 against a 141 ms target) must not end the move before its solve.
    pub fn before_planned_solve(&self, empties: u32, depth: u32) -> bool {
        self.solve_move && depth <= self.presolve_depth(empties)
    }

    /// Whether an iteration may start, given the time used so far and the last iteration's
    /// duration (zero before the first): it must be expected to end by [`STRETCH`] times the
    /// target and before the hard deadline.
    pub fn should_start_iteration(&self, elapsed: Duration, last_iteration: Duration) -> bool {
        let Some(soft) = self.soft else {
            return true;
        };
        let expected_end = elapsed + last_iteration.mul_f64(BRANCHING);
        expected_end <= soft.mul_f64(STRETCH) && self.hard.is_none_or(|h| expected_end <= h)
    }

    /// Whether a pass expected to take `expected` may start after `elapsed`: as for an
    /// iteration, it must be expected to end by [`STRETCH`] times the target and before the
    /// hard deadline.
    pub fn should_start_pass(&self, elapsed: Duration, expected: Duration) -> bool {
        let end = elapsed + expected;
        self.soft.is_none_or(|s| end <= s.mul_f64(STRETCH)) && self.hard.is_none_or(|h| end <= h)
    }

    /// When the first probable pass of a move, started after `elapsed` and expected to take
    /// `expected`, must give up (measured from the search's start), so that a pass far costlier
    /// than its kind does not cost the move its midgame: [`Tuning::pass_tail`] times its expected
    /// time, but early enough that one more midgame iteration (the last one, `last_iteration`,
    /// times [`BRANCHING`]) still fits before the hard deadline; never before the pass's
    /// expected end, never after the hard deadline. `None` without a hard deadline.
    pub fn first_pass_deadline(
        &self,
        elapsed: Duration,
        expected: Duration,
        last_iteration: Duration,
    ) -> Option<Duration> {
        let hard = self.hard?;
        let tail = elapsed + expected.mul_f64(Tuning::current().pass_tail);
        let resume = hard.saturating_sub(last_iteration.mul_f64(BRANCHING));
        Some(tail.min(resume).max(elapsed + expected).min(hard))
    }

    /// Whether a midgame iteration may start after a first probable pass gave up: it must be
    /// expected to end (the last iteration's time times [`BRANCHING`]) before the hard
    /// deadline. The target no longer applies: the pass spent it, and the move still needs
    /// a deeper search than the one before the pass.
    pub fn should_resume_iteration(&self, elapsed: Duration, last_iteration: Duration) -> bool {
        let expected_end = elapsed + last_iteration.mul_f64(BRANCHING);
        self.hard.is_none_or(|h| expected_end <= h)
    }

    /// The expected time of the first probable pass (the 73% pass) at `empties` at solver
    /// speed `nps`.
    pub fn expected_probable(empties: u32, nps: f64) -> Duration {
        Duration::from_secs_f64(Self::typical_probable_nodes(empties) / nps)
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
        let presolve = self.presolve_depth(empties);
        if depth <= presolve
            || self.max_depth + 10 < empties
            || self.solve_empties.is_some_and(|s| empties > s)
        {
            return false;
        }
        self.should_start_pass(elapsed, Self::expected_probable(empties, nps))
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
            let from = self
                .solve_empties
                .unwrap_or(UNTIMED_EXACT_EMPTIES.min(self.max_depth + 10));
            return if empties <= from {
                SolveKind::Exact
            } else {
                SolveKind::None
            };
        }
        let presolve = self.presolve_depth(empties);
        if depth <= presolve || self.solve_empties.is_some_and(|s| empties > s) {
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
mod tests;
