//! Tests of the endgame solver against a plain negamax oracle, and of its root searches.

use super::*;
use crate::board::Board;
use crate::eval::HandEval;
use crate::flip::flips;
use crate::movegen::moves;
use crate::rng::{random_playout, SplitMix64};
use crate::search::order::{Candidate, MoveList, MAX_MOVES};
use crate::search::tt::TranspositionTable;
use crate::search::{Context, Stopper};

/// Plain negamax over every move to the end: the oracle for small positions.
fn minimax(p: u64, o: u64) -> i32 {
    let mv = moves(p, o);
    if mv == 0 {
        if moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -minimax(o, p);
    }
    squares(mv)
        .map(|sq| {
            let f = flips(sq, p, o);
            -minimax(o ^ f, p ^ f ^ sq.bit())
        })
        .max()
        .unwrap()
}

/// Deterministic random positions with `empties` empty squares: the first position with that
/// many empties of each random play-out (a game that ends earlier gives none).
pub(in crate::search) fn random_positions(empties: u32, count: usize, seed: u64) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        out.extend(random_playout(Board::start(), &mut rng).find(|b| b.empty_count() == empties));
    }
    out
}

#[test]
fn solver_agrees_with_minimax_on_small_endgames() {
    let tt = TranspositionTable::new(1);
    let eval = HandEval::new();
    for empties in 1..=9 {
        for b in random_positions(empties, 30, 0x1234 + empties as u64) {
            let (p, o) = (b.player(), b.opponent());
            let want = minimax(p, o);
            let mut stopper = Stopper::unlimited();
            let mut cx = Context::new(&eval, &tt, &mut stopper);
            let mut solver = Solver::new(&mut cx, 0);
            assert_eq!(
                solver.solve(p, o, -64, 64),
                want,
                "{empties} empties: {b:?}"
            );
            // Null windows around the value bound it from the right sides.
            assert!(solver.nws(p, o, want - 1, empties, false) > want - 1);
            assert!(solver.nws(p, o, want, empties, false) <= want);
        }
    }
}

/// The value of (`p`, `o`), solved with a full window from a fresh table.
fn fresh_value(p: u64, o: u64) -> i32 {
    let tt = TranspositionTable::new(1);
    let eval = HandEval::new();
    let mut stopper = Stopper::unlimited();
    let mut cx = Context::new(&eval, &tt, &mut stopper);
    Solver::new(&mut cx, 0).solve(p, o, -64, 64)
}

/// The value after `sq`, for the side playing it.
fn value_after(p: u64, o: u64, sq: Square) -> i32 {
    let f = flips(sq, p, o);
    -fresh_value(o ^ f, p ^ f ^ sq.bit())
}

#[test]
fn mtd_from_any_guess_finds_the_value_and_a_move_achieving_it() {
    let eval = HandEval::new();
    for (k, b) in random_positions(13, 6, 0xBEEF).into_iter().enumerate() {
        let (p, o) = (b.player(), b.opponent());
        if moves(p, o) == 0 {
            continue;
        }
        let want = fresh_value(p, o);
        for guess in [-64, -9, 0, 7, want, 64] {
            let tt = TranspositionTable::new(1);
            let mut stopper = Stopper::unlimited();
            let mut cx = Context::new(&eval, &tt, &mut stopper);
            let mut solver = Solver::new(&mut cx, 0);
            let (v, best) = solver.solve_root_mtd(p, o, guess, 0);
            assert_eq!(v, want, "position {k}, guess {guess}");
            let best = best.expect("a legal move");
            assert_eq!(value_after(p, o, best), want, "position {k}: {best}");
        }
    }
}

#[test]
fn selective_passes_leave_the_exact_pass_exact() {
    let eval = HandEval::new();
    let empties = PROBCUT_MIN_EMPTIES + 3;
    for (k, b) in random_positions(empties, 4, 0xFACE).into_iter().enumerate() {
        let (p, o) = (b.player(), b.opponent());
        if moves(p, o) == 0 {
            continue;
        }
        let want = fresh_value(p, o);
        // One table through selective passes at every level, then the exact pass.
        let tt = TranspositionTable::new(4);
        let mut stopper = Stopper::unlimited();
        let mut cx = Context::new(&eval, &tt, &mut stopper);
        let mut solver = Solver::new(&mut cx, 0);
        let mut guess = 0;
        for sel in super::super::probcut::endgame::LEVELS {
            solver.set_selectivity(Some(sel));
            guess = solver.solve_root_mtd(p, o, guess, 0).0;
        }
        solver.set_selectivity(None);
        let (v, best) = solver.solve_root_mtd(p, o, guess, 0);
        assert_eq!(v, want, "position {k}");
        assert_eq!(value_after(p, o, best.unwrap()), want, "position {k}");
    }
}

#[test]
fn last_square_scoring_follows_standard_rules() {
    // Board full except h8; the mover owns everything else but cannot flip: the opponent
    // has no disc, so nobody moves and the empty goes to the mover.
    let p = !Square::H8.bit();
    assert_eq!(last1::<Portable>(p, 0, Square::H8), 64);
    assert_eq!(minimax(p, 0), 64);
}

#[test]
fn a_pass_takes_the_estimates_of_its_own_level_or_a_safer_one_only() {
    let eval = HandEval::new();
    let levels = super::super::probcut::endgame::LEVELS;
    let b = random_positions(PROBCUT_MIN_EMPTIES + 2, 1, 0xC0DE)[0];
    let (p, o) = (b.player(), b.opponent());
    let n = b.empty_count();
    // A planted estimate of the root, as the 87% pass would store it: "at least 64".
    let tt = TranspositionTable::new(1);
    tt.store_in(
        table_key(p, o),
        super::region(n),
        6400,
        Bound::Lower,
        (n + 1) as u8,
        None,
    );
    let mut stopper = Stopper::unlimited();
    let mut cx = Context::new(&eval, &tt, &mut stopper);
    let mut solver = Solver::new(&mut cx, 0);
    for (k, sel) in levels.into_iter().enumerate() {
        solver.set_selectivity(Some(sel));
        // The 73% and 87% passes take it; the 95% and 98% passes and the exact one do not.
        let cut = solver.nws(p, o, 10, n, false) == 64;
        assert_eq!(cut, k <= 1, "{sel}");
    }
    solver.set_selectivity(None);
    assert_ne!(solver.nws(p, o, 10, n, false), 64);
}

#[test]
fn a_model_with_no_cuts_makes_a_pass_an_exact_search() {
    use crate::search::probcut::endgame::EndgameModel;
    let eval = HandEval::new();
    let none = EndgameModel::from_fits(&[]);
    for b in random_positions(PROBCUT_MIN_EMPTIES + 3, 3, 0xD1CE) {
        let (p, o) = (b.player(), b.opponent());
        let want = fresh_value(p, o);
        let tt = TranspositionTable::new(1);
        let mut stopper = Stopper::unlimited();
        let mut cx = Context::new(&eval, &tt, &mut stopper);
        let mut solver = Solver::new(&mut cx, 0);
        solver.set_endgame_model(&none);
        solver.set_selectivity(Some(super::super::probcut::endgame::LEVELS[0]));
        assert_eq!(solver.solve_root_mtd(p, o, 0, 0).0, want);
    }
}

#[test]
fn the_searchers_models_make_the_shallow_searches_selective() {
    use crate::search::probcut::model::MpcModel;
    let eval = HandEval::new();
    let model = MpcModel::default();
    let pass = |board: &Board, shallow_mpc: bool| {
        let tt = TranspositionTable::new(4);
        let mut stopper = Stopper::unlimited();
        let mut cx = Context::new(&eval, &tt, &mut stopper);
        let mut solver = Solver::new(&mut cx, 0);
        if shallow_mpc {
            solver.set_models(&model);
        } else {
            solver.set_endgame_model(model.endgame());
        }
        solver.set_selectivity(Some(super::super::probcut::endgame::LEVELS[0]));
        let (value, _) = solver.solve_root_mtd(board.player(), board.opponent(), 0, 0);
        (value, solver.nodes())
    };
    // Same cuts tried, by cheaper shallow searches: fewer nodes over a few positions with
    // shallow searches deep enough for Multi-ProbCut to prune (depth 8 from 20 empties).
    let (mut full, mut selective) = (0, 0);
    for b in random_positions(21, 3, 0x5E1E) {
        if b.moves() == 0 {
            continue;
        }
        full += pass(&b, false).1;
        selective += pass(&b, true).1;
    }
    assert!(
        selective < full,
        "selective {selective} >= full width {full}"
    );
}

/// Plain negamax to `depth` plies with `eval` at the leaves (no pruning): the oracle for the
/// ordering searches.
fn eval_negamax(eval: &HandEval, p: u64, o: u64, depth: u32) -> i32 {
    if depth == 0 {
        return eval.evaluate(&Board::from_bits_unchecked(p, o));
    }
    let mv = moves(p, o);
    if mv == 0 {
        if moves(o, p) == 0 {
            return final_score(p, o) * 100;
        }
        return -eval_negamax(eval, o, p, depth);
    }
    squares(mv)
        .map(|sq| {
            let f = flips(sq, p, o);
            -eval_negamax(eval, o ^ f, p ^ f ^ sq.bit(), depth - 1)
        })
        .max()
        .unwrap()
}

#[test]
fn ordering_searches_agree_with_negamax_and_keep_the_keys_of_a_full_ordering() {
    let tt = TranspositionTable::new(1);
    let eval = HandEval::new();
    let mut stopper = Stopper::unlimited();
    let mut cx = Context::new(&eval, &tt, &mut stopper);
    let mut solver = Solver::new(&mut cx, 0);
    for (i, b) in random_positions(24, 12, 77).into_iter().enumerate() {
        let (p, o) = (b.player(), b.opponent());
        solver.cx.reset(p, o);
        for depth in 0..=3 {
            assert_eq!(
                solver.order_search(p, o, depth, -INF * 100, INF * 100),
                eval_negamax(&eval, p, o, depth),
                "position {i}, depth {depth}"
            );
        }
        // Keys made in two steps (mobility first, the evaluation once the table's move has
        // not cut) are the keys of the one-step ordering, and the table's move stays first.
        let mv = moves(p, o);
        let tt_move = squares(mv).last();
        let mut whole = [Candidate::default(); MAX_MOVES];
        let mut lazy = [Candidate::default(); MAX_MOVES];
        let count = solver.order(p, o, mv, tt_move, &mut whole);
        assert_eq!(
            solver.order_by_mobility(p, o, mv, tt_move, &mut lazy),
            count
        );
        solver.add_eval_keys(p, o, &mut lazy[..count]);
        let keys = |l: &MoveList| l[..count].iter().map(|c| (c.sq, c.key)).collect::<Vec<_>>();
        assert_eq!(keys(&whole), keys(&lazy), "position {i}");
        let first = whole[..count].iter().max_by_key(|c| c.key).unwrap();
        assert_eq!(Some(first.sq as u32), tt_move.map(|t| t.index() as u32));
        assert!(solver.order_evals.get() > 0);
    }
}
