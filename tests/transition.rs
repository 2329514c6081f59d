//! The endgame transition: probable solves (searches to the end of the game with endgame
//! ProbCut at rising confidence) against the exact values of hard-20 and FFO positions.

use othello::board::Move;
use othello::eval::EngineEval;
use othello::obf::{parse_obf, ObfEntry};
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
        let level = Selectivity::LEVELS[3];
        let r = searcher.solve_probable(&e.position.board, Some(level), &mut reports);
        assert_eq!(r.selectivity, Some(level));
        assert!(reports.iter().all(|r| r.selectivity.is_some()));
        if r.value == Value::Probable(e.best_score().unwrap()) {
            right += 1;
        }
    }
    assert!(right >= 8, "{right} of 10 right at 98%");
}
