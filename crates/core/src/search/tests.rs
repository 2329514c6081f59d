//! Tests of the iterative-deepening driver: PVS and aspiration against plain negamax, the
//! reports, the limits, passes, and the principal variation of a solve.

use super::*;
use crate::bitboard::squares;
use crate::eval::HandEval;
use crate::flip::flips;
use crate::movegen::moves;
use proptest::prelude::*;
use std::sync::atomic::Ordering;

/// Full-width negamax to `depth` with the same leaf and pass rules: the oracle.
fn negamax(eval: &HandEval, p: u64, o: u64, depth: u32, passed: bool) -> i32 {
    if depth == 0 {
        return eval.evaluate(&Board::from_bits_unchecked(p, o));
    }
    let mv = moves(p, o);
    if mv == 0 {
        if passed {
            return 100 * crate::board::final_score(p, o);
        }
        return -negamax(eval, o, p, depth, true);
    }
    squares(mv)
        .map(|sq| {
            let f = flips(sq, p, o);
            -negamax(eval, o ^ f, p ^ f ^ sq.bit(), depth - 1, false)
        })
        .max()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn pvs_aspiration_and_alpha_beta_agree_with_negamax(
        indices in proptest::collection::vec(0usize..64, 4..56),
        depth in 1u32..5,
    ) {
        let b = Board::from_move_indices(&indices);
        let (p, o) = (b.player(), b.opponent());
        let eval = HandEval::new();
        let want = negamax(&eval, p, o, depth, false);
        for (plain, asp) in [(false, false), (true, false), (false, true)] {
            let tt = TranspositionTable::new(1);
            let mut stopper = Stopper::unlimited();
            let mut cx = Context::new(&eval, &tt, &mut stopper);
            let mut search = Midgame::new(&mut cx, 0);
            search.exact_depth_cutoffs = true;
            search.plain_alpha_beta = plain;
            let got = if asp {
                // Aspiration around a deliberately wrong guess must still find the value.
                aspiration(&mut search, p, o, depth, Some(want + 350), 0).0
            } else {
                search.pvs(p, o, -INF, INF, depth, false)
            };
            prop_assert_eq!(got, want, "plain {} aspiration {}", plain, asp);
        }
    }
}

#[test]
fn search_reports_iterations_and_respects_depth() {
    let mut s = Searcher::new(HandEval::new(), 4);
    let mut seen: Vec<SearchResult> = Vec::new();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let r = s.search(&Board::start(), &limits, &mut seen);
    assert_eq!(
        seen.iter().map(|i| i.depth).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert_eq!(r.depth, 6);
    let Move::Place(sq) = r.best else {
        panic!("the start position has moves")
    };
    assert!(Board::start().is_legal(sq));
    assert_eq!(r.pv.first(), Some(&r.best));
    // The PV is a legal line.
    let mut b = Board::start();
    for mv in &r.pv {
        b = b.try_play_move(*mv).expect("legal PV");
    }
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let mut s = Searcher::new(HandEval::new(), 4);
    s.stop_flag().store(true, Ordering::Relaxed);
    let r = s.search(&Board::start(), &Limits::default(), &mut ());
    let Move::Place(sq) = r.best else {
        panic!("expected a move")
    };
    assert!(Board::start().is_legal(sq));
}

#[test]
fn node_budget_is_respected_within_a_check_interval() {
    let mut s = Searcher::new(HandEval::new(), 4);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let r = s.search(&Board::start(), &limits, &mut ());
    assert!(
        r.nodes <= 20_000 + 2 * CHECK_INTERVAL_NODES,
        "{} nodes",
        r.nodes
    );
}

#[test]
fn must_pass_and_game_over_positions() {
    let mut s = Searcher::new(HandEval::new(), 1);
    // White to move with no move: a pass.
    let pos: crate::board::Position =
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- O"
            .parse()
            .unwrap();
    let r = s.search(&pos.board, &Limits::default(), &mut ());
    assert_eq!(r.best, Move::Pass);
    // A full board: game over, exact value.
    let full = Board::new(u64::MAX >> 1, 1 << 63).unwrap();
    let r = s.search(&full, &Limits::default(), &mut ());
    assert_eq!((r.best, r.value), (Move::Pass, Value::Exact(62)));
}

/// The exact value of `board` for its side to move, from a fresh searcher.
fn exact_value(board: &Board) -> i32 {
    match Searcher::new(HandEval::new(), 1)
        .solve(board, false, &mut ())
        .value
    {
        Value::Exact(v) => v,
        other => panic!("a solve gave {other:?}"),
    }
}

#[test]
fn a_solve_reports_a_pv_that_plays_perfectly_to_the_end() {
    // Positions with 16 empties from fixed pseudo-random lines, with a small table and with
    // one large enough to keep the near region's entries apart (the PV must find them there).
    let mut checked = 0;
    let sizes = [4, 4 * super::tt::NEAR_MB];
    for (b, mb) in endgame::tests::random_positions(16, 4, 0x5EED)
        .into_iter()
        .flat_map(|b| sizes.map(|mb| (b, mb)))
    {
        if b.moves() == 0 {
            continue;
        }
        checked += 1;
        let r = Searcher::new(HandEval::new(), mb).solve(&b, false, &mut ());
        // Follow the PV to where the table stops holding moves; from there the line must
        // be perfect play: its final score equals that position's exact value.
        let mut pos = b;
        let mut tail = None;
        for mv in &r.pv {
            if tail.is_none() && pos.empty_count() <= endgame::LEAF_MAX {
                tail = Some((exact_value(&pos), 1));
            }
            pos = pos.try_play_move(*mv).expect("legal PV");
            if let Some((_, sign)) = tail.as_mut() {
                *sign = -*sign;
            }
        }
        assert!(
            pos.is_game_over(),
            "the PV stops before the end: {:?}",
            r.pv
        );
        let (value, sign) = tail.expect("the PV reaches the last empties");
        assert_eq!(sign * pos.final_score(), value, "PV {:?}", r.pv);
    }
    assert!(checked >= 6, "only {checked} positions had a move");
}

#[test]
fn the_expected_position_plays_the_move_and_the_reply() {
    use crate::square::Square;
    let start = Board::start();
    let (f5, d6) = (Move::Place(Square::F5), Move::Place(Square::D6));
    let result = |pv: Vec<Move>| SearchResult {
        best: pv[0],
        value: Value::Heuristic(0),
        depth: 3,
        selectivity: None,
        pv,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    let want = start.play(Square::F5).play(Square::D6);
    assert_eq!(
        result(vec![f5, d6, f5]).expected_position(&start),
        Some(want)
    );
    assert_eq!(result(vec![f5]).expected_position(&start), None);
    // An illegal reply expects nothing.
    assert_eq!(result(vec![f5, f5]).expected_position(&start), None);
}

/// A depth-1 search with lazy leaves plays the move whose leaf gave the value (the network's
/// value or the estimate that stood for it), not a move found by evaluating again.
#[test]
fn a_depth_one_search_with_lazy_leaves_plays_the_move_of_its_value() {
    use crate::eval::nnue::FloatNet;
    let pattern = crate::eval::builtin::default_pattern();
    // A small network of random weights (a network's values, not a trained one's).
    let mut rng = crate::rng::SplitMix64::new(15);
    let mut uniform =
        |scale: f32| (rng.below(1 << 20) as f32 / (1 << 20) as f32 * 2.0 - 1.0) * scale;
    let (hidden, l2, buckets) = (16, 8, 2);
    let rows = crate::eval::pattern::geometry::geometry().compact_patterns_len;
    let float = FloatNet {
        hidden,
        l2,
        buckets,
        emb: (0..rows * hidden).map(|_| uniform(0.12)).collect(),
        b0: (0..hidden).map(|_| 0.3 + uniform(0.3)).collect(),
        w2: (0..buckets * l2 * (hidden + 2))
            .map(|_| uniform(1.0))
            .collect(),
        b2: (0..buckets * l2).map(|_| uniform(0.5)).collect(),
        w3: (0..buckets * l2).map(|_| uniform(3.0)).collect(),
        b3: (0..buckets).map(|_| uniform(2.0)).collect(),
        base: 0,
    };
    let lazy = float
        .quantise()
        .unwrap()
        .with_orderer(pattern.clone())
        .with_lazy_margin(Some(100));
    let mut searcher = Searcher::new(lazy, 1);
    let mut checked = 0;
    for b in endgame::tests::random_positions(30, 120, 0x1A2B) {
        if b.moves() == 0 {
            continue;
        }
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = searcher.search(&b, &limits, &mut ());
        let Move::Place(sq) = r.best else {
            panic!("{r:?}")
        };
        let child = b.play(sq);
        // Near the end the search solves instead.
        let Value::Heuristic(v) = r.value else {
            continue;
        };
        checked += 1;
        let leaf = [
            searcher.evaluator().evaluate(&child),
            pattern.evaluate(&child),
        ];
        assert!(leaf.contains(&-v), "{r:?}: {leaf:?}");
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn a_depth_one_search_plays_the_move_with_the_best_evaluation() {
    let eval = HandEval::new();
    for b in endgame::tests::random_positions(40, 8, 0xD1) {
        if b.moves() == 0 {
            continue;
        }
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = Searcher::new(HandEval::new(), 1).search(&b, &limits, &mut ());
        let Move::Place(sq) = r.best else {
            panic!("{r:?}")
        };
        let best = b
            .legal_moves()
            .map(|m| -eval.evaluate(&b.play(m)))
            .max()
            .unwrap();
        assert_eq!(r.value, Value::Heuristic(best));
        assert_eq!(-eval.evaluate(&b.play(sq)), best, "{r:?}");
    }
}

#[test]
fn the_assumed_parallel_speedup_is_one_alone_and_grows_ever_slower() {
    assert_eq!(parallel_speedup(1), 1.0);
    assert!((parallel_speedup(2) - 1.8).abs() < 1e-9);
    let gains: Vec<f64> = (1..=64)
        .map(parallel_speedup)
        .collect::<Vec<_>>()
        .windows(2)
        .map(|w| w[1] - w[0])
        .collect();
    assert!(gains.iter().all(|&g| g > 0.0));
    assert!(gains.windows(2).all(|w| w[1] <= w[0] + 1e-12));
    assert!(parallel_speedup(64) < 64.0);
}
