//! The endgame transition: probable solves (searches to the end of the game with endgame
//! ProbCut at rising confidence) against the exact values of hard-20 and FFO positions.

use othello::board::Move;
use othello::eval::EngineEval;
use othello::obf::{parse_obf, ObfEntry};
use othello::search::probcut::model::end::EndFit;
use othello::search::probcut::model::{Cut, MpcModel};
use othello::search::{SearchResult, Searcher, Selectivity, Value};

fn entries(name: &str) -> Vec<ObfEntry> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_obf(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn probable_solves_report_every_level_in_order_then_the_exact_value() {
    let mut searcher = Searcher::new(EngineEval::default(), 16);
    for (i, e) in entries("hard-20.obf").iter().take(3).enumerate() {
        let board = &e.position.board;
        let mut reports: Vec<SearchResult> = Vec::new();
        let r = searcher.solve_probable(board, None, &mut reports);
        let exact = e.best_score().unwrap();
        assert_eq!(r.value, Value::Exact(exact), "hard-20 #{}", i + 1);
        assert!(e.best_moves().contains(&r.best), "hard-20 #{}", i + 1);
        // The probable levels come first, each once, safest last, at the position's empties.
        let levels: Vec<Option<u8>> = reports
            .iter()
            .map(|r| r.selectivity.map(Selectivity::percent))
            .collect();
        assert_eq!(levels, [Some(73), Some(87), Some(95), Some(98), None]);
        for p in &reports[..4] {
            let Value::Probable(v) = p.value else {
                panic!("hard-20 #{}: {:?}", i + 1, p.value);
            };
            assert_eq!(v % 2, 0, "a probable score is a whole even disc count");
            assert!(v.abs() <= 64);
            assert_eq!(p.depth, board.empty_count());
            let Move::Place(sq) = p.best else {
                panic!("no move");
            };
            assert!(board.is_legal(sq), "hard-20 #{}: {sq}", i + 1);
            assert_eq!(p.pv.first(), Some(&p.best));
        }
    }
}

#[test]
fn a_probable_solve_stops_at_its_level_and_is_mostly_right() {
    // FFO #20-#29 (the bench's endgame set): the 98% level must be right on most of them.
    let mut searcher = Searcher::new(EngineEval::default(), 16);
    let mut right = 0;
    let list = entries("fforum-20-39.obf");
    for e in list.iter().take(10) {
        let mut reports: Vec<SearchResult> = Vec::new();
        let level = Selectivity::P98;
        let r = searcher.solve_probable(&e.position.board, Some(level), &mut reports);
        assert_eq!(r.selectivity, Some(level));
        assert!(reports.iter().all(|r| r.selectivity.is_some()));
        if r.value == Value::Probable(e.best_score().unwrap()) {
            right += 1;
        }
    }
    assert!(right >= 8, "{right} of 10 right at 98%");
}

#[test]
fn probable_solves_cut_with_the_searchers_endgame_model() {
    // A model whose margins no shallow search can clear never cuts, so each selective pass is
    // an exact search: the 73% level must then give the exact value, on one thread and on two
    // (the helpers' passes use the model too). The embedded model's 73% pass is wrong on some
    // of these positions, so a searcher that ignored its model would fail here.
    let never = EndFit {
        empties_min: 0,
        empties_max: 60,
        cut: Cut {
            shallow: 2,
            a: 1.0,
            b: 0.0,
            sigma: 100_000.0,
        },
        samples: 0,
    };
    let model = MpcModel::default().with_endgame(vec![never]);
    let list = entries("hard-20.obf");
    let level = Some(Selectivity::P73);
    let mut plain = Searcher::new(EngineEval::default(), 16);
    let wrong = list
        .iter()
        .take(12)
        .filter(|e| {
            let r = plain.solve_probable(&e.position.board, level, &mut ());
            r.value != Value::Probable(e.best_score().unwrap())
        })
        .count();
    assert!(
        wrong > 0,
        "the embedded model is exact on all 12: pick other positions"
    );
    for threads in [1, 2] {
        let mut searcher = Searcher::new(EngineEval::default(), 16);
        searcher.set_threads(threads);
        searcher.set_mpc_model(model.clone());
        for (i, e) in list.iter().take(12).enumerate() {
            let r = searcher.solve_probable(&e.position.board, level, &mut ());
            let exact = e.best_score().unwrap();
            assert_eq!(r.value, Value::Probable(exact), "hard-20 #{}", i + 1);
            assert!(e.best_moves().contains(&r.best), "hard-20 #{}", i + 1);
        }
    }
}
