//! Endgame solver against published exact results: FFO #1-#19 and a sample of hard-20.

use othello::board::Move;
use othello::eval::{EngineEval, HandEval};
use othello::obf::{parse_obf, ObfEntry};
use othello::search::{Searcher, Value};

fn entries(name: &str) -> Vec<ObfEntry> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_obf(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn ffo_1_to_19_exact_scores_and_best_moves() {
    let mut searcher = Searcher::new(HandEval::new(), 16);
    for (i, e) in entries("fforum-1-19.obf").iter().enumerate() {
        let r = searcher.solve(&e.position.board, false, &mut ());
        assert_eq!(
            r.value,
            Value::Exact(e.best_score().unwrap()),
            "FFO #{}",
            i + 1
        );
        assert!(
            e.best_moves().contains(&r.best),
            "FFO #{}: {} is not among {:?}",
            i + 1,
            r.best,
            e.best_moves()
        );
    }
}

#[test]
fn wld_solve_agrees_in_sign_with_the_exact_solve() {
    let mut searcher = Searcher::new(HandEval::new(), 16);
    for (i, e) in entries("fforum-1-19.obf").iter().enumerate() {
        let exact = e.best_score().unwrap();
        let r = searcher.solve(&e.position.board, true, &mut ());
        assert_eq!(r.value, Value::Wld(exact.signum()), "FFO #{}", i + 1);
        // The move keeps the result: the file scores it with the same sign.
        assert_eq!(
            e.score_of(r.best).map(i32::signum),
            Some(exact.signum()),
            "FFO #{}",
            i + 1
        );
    }
}

#[test]
fn hard_20_sample_values_and_moves() {
    let all = entries("hard-20.obf");
    let mut searcher = Searcher::new(HandEval::new(), 16);
    // Every 23rd position: 12 positions spread over the file.
    for (i, e) in all.iter().enumerate().step_by(23) {
        let r = searcher.solve(&e.position.board, false, &mut ());
        assert_eq!(
            r.value,
            Value::Exact(e.best_score().unwrap()),
            "hard-20 #{}",
            i + 1
        );
        assert!(e.best_moves().contains(&r.best), "hard-20 #{}", i + 1);
    }
}

#[test]
fn hard_20_every_move_score_of_a_few_positions() {
    let all = entries("hard-20.obf");
    let mut searcher = Searcher::new(HandEval::new(), 16);
    for (i, e) in all.iter().enumerate().take(3) {
        for &(mv, listed) in &e.moves {
            let Move::Place(_) = mv else { continue };
            let child = e.position.board.try_play_move(mv).unwrap();
            let r = searcher.solve(&child, false, &mut ());
            let Value::Exact(v) = r.value else {
                panic!("exact solve expected")
            };
            assert_eq!(-v, listed, "hard-20 #{} move {mv}", i + 1);
        }
    }
}

/// Re-solves every move of the given lines (from 0) of a file that scores every move, and
/// compares each with the file's score.
fn every_move_score_of_lines(file: &str, lines: &[usize]) {
    let all = entries(file);
    let mut searcher = Searcher::new(EngineEval::default(), 16);
    for &i in lines {
        let e = &all[i];
        for &(mv, listed) in &e.moves {
            let child = e.position.board.try_play_move(mv).unwrap();
            let r = searcher.solve(&child, false, &mut ());
            let Value::Exact(v) = r.value else {
                panic!("exact solve expected")
            };
            assert_eq!(-v, listed, "{file} line {} move {mv}", i + 1);
        }
    }
}

#[test]
fn heldout_set_every_move_score_of_a_few_positions() {
    // Lines 1 and 121 (20 and 22 empties) of the held-out set.
    every_move_score_of_lines("heldout-20-24.obf", &[0, 120]);
}

#[test]
fn transition_benchmark_every_move_score_of_a_few_positions() {
    // Lines 1 and 45 (20 and 21 empties) of the transition benchmark.
    every_move_score_of_lines("transition-20-28.obf", &[0, 44]);
}
