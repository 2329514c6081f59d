//! Tests of the time manager: deadlines, the game plan (simulated games) and the solve and
//! probable-solve decisions.

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
fn the_expected_clock_is_what_the_plan_leaves_after_the_earlier_moves() {
    let start = Clock {
        remaining: ms(4_000),
        increment: ms(0),
    };
    // The side's first move of an XOT game sees the whole clock.
    assert_eq!(expected_clock(&start, 52), start);
    assert_eq!(expected_clock(&start, 51), start);
    // Then it falls move by move, by each move's target, and stays positive.
    let after = expected_clock(&start, 50);
    let first = Plan::new(&start, 52).target;
    assert_eq!(after.remaining, start.remaining - first);
    let mut last = start.remaining;
    for e in (20..=48).rev().step_by(2) {
        let c = expected_clock(&start, e);
        assert!(c.remaining < last && c.remaining > ms(500), "{e}: {c:?}");
        last = c.remaining;
    }
    // Increments come back after each move.
    let inc = Clock {
        increment: ms(100),
        ..start
    };
    assert!(expected_clock(&inc, 30).remaining > expected_clock(&start, 30).remaining);
}

#[test]
fn the_tuning_parses_known_settings_only() {
    let t = Tuning::parse("transition_weight=2.5, probable_scale=0.5, pass_tail=4").unwrap();
    assert_eq!(
        (t.transition_weight, t.probable_scale, t.pass_tail),
        (2.5, 0.5, 4.0)
    );
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

#[test]
fn a_first_pass_gives_up_early_enough_for_more_midgame() {
    let tail = Tuning::current().pass_tail;
    let budget = Budget {
        soft: Some(ms(100)),
        hard: Some(ms(300)),
        max_depth: 60,
        nodes: None,
        solve_empties: None,
        solve_move: false,
    };
    // Room to spare: the pass may run `pass_tail` times its expected time.
    let d = budget.first_pass_deadline(ms(10), ms(20), ms(2)).unwrap();
    assert_eq!(d, ms(10) + ms(20).mul_f64(tail));
    // A costly last iteration: the deadline leaves room for one more (times BRANCHING)...
    let d = budget.first_pass_deadline(ms(10), ms(80), ms(40)).unwrap();
    assert_eq!(d, ms(300) - ms(40).mul_f64(BRANCHING));
    assert!(budget.should_resume_iteration(d, ms(40)));
    // ...but never before the pass's own expected end, nor after the hard deadline.
    assert_eq!(
        budget.first_pass_deadline(ms(10), ms(250), ms(40)),
        Some(ms(260))
    );
    assert_eq!(
        budget.first_pass_deadline(ms(100), ms(250), ms(40)),
        Some(ms(300))
    );
    // Without a hard deadline there is nothing to give up for.
    let untimed = Budget::new(&Limits::default(), 24);
    assert_eq!(untimed.first_pass_deadline(ms(0), ms(10), ms(1)), None);
    // After giving up, iterations run to the hard deadline, not the target.
    assert!(budget.should_resume_iteration(ms(150), ms(40)));
    assert!(!budget.should_start_iteration(ms(150), ms(40)));
    assert!(!budget.should_resume_iteration(ms(250), ms(40)));
}

#[test]
fn a_level_s_solve_empties_decide_the_untimed_solve_and_bound_the_timed_one() {
    let untimed = |depth: u32, solve: Option<u32>| {
        let limits = Limits {
            depth: Some(depth),
            solve_empties: solve,
            ..Limits::default()
        };
        move |empties: u32| Budget::new(&limits, empties).solve_kind(empties, 15e6, ms(0), 1)
    };
    // Level 5: exact from 10 empties, where depth 5 alone would solve from 15.
    assert_eq!(untimed(5, Some(10))(10), SolveKind::Exact);
    assert_eq!(untimed(5, Some(10))(11), SolveKind::None);
    assert_eq!(untimed(5, None)(15), SolveKind::Exact);
    // Level 14: exact from 24, beyond the untimed default of 22.
    assert_eq!(untimed(14, Some(24))(24), SolveKind::Exact);
    assert_eq!(untimed(14, None)(24), SolveKind::None);
    // Timed: a day per move would solve 18 empties, but not above the level's 16.
    let timed = Limits {
        depth: Some(8),
        move_time: Some(Duration::from_secs(86_400)),
        solve_empties: Some(16),
        ..Limits::default()
    };
    assert_eq!(
        Budget::new(&timed, 18).solve_kind(18, 15e6, ms(0), 8),
        SolveKind::None
    );
    assert!(!Budget::new(&timed, 18).probable_fits(18, 15e6, ms(0), 8));
    assert_eq!(
        Budget::new(&timed, 16).solve_kind(16, 15e6, ms(0), 8),
        SolveKind::Exact
    );
}

/// A solve move's iterations before its solve answer to the hard deadline only: a slow start
/// past the (solve-sized) target still reaches the solve. Other moves keep the target.
#[test]
fn a_solve_moves_presolve_iterations_ignore_the_target() {
    let clock = Clock {
        remaining: Duration::from_secs(600),
        increment: Duration::ZERO,
    };
    let limits = Limits {
        clock: Some(expected_clock(&clock, 20)),
        ..Limits::default()
    };
    let budget = Budget::new(&limits, 20);
    assert!(budget.solve_move, "{budget:?}");
    let soft = budget.soft.unwrap();
    let late = soft.mul_f64(STRETCH) + ms(1);
    // Past the target: an ordinary iteration may not start...
    assert!(!budget.should_start_iteration(late, ms(5)));
    // ...but depths up to the presolve depth (20 - 12 = 8) are before the solve.
    assert!(budget.before_planned_solve(20, 5));
    assert!(budget.before_planned_solve(20, 8));
    assert!(!budget.before_planned_solve(20, 9));
    assert!(budget.should_resume_iteration(late, ms(5)));
    // The solve then fits at the solver's usual speed.
    assert_eq!(budget.solve_kind(20, 15e6, late, 9), SolveKind::Exact);
    // A midgame move of the same game is not a solve move.
    let limits = Limits {
        clock: Some(expected_clock(&clock, 40)),
        ..Limits::default()
    };
    let midgame = Budget::new(&limits, 40);
    assert!(!midgame.solve_move && !midgame.before_planned_solve(40, 3));
}
