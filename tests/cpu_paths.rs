//! The run-time code paths (`othello::cpu`) compute the same searches: on every path this
//! processor supports, midgame searches and exact solves visit the same number of nodes and
//! return the same moves and values as the portable path, and the solves match the FFO scores.

use othello::cpu::CpuPath;
use othello::eval::EngineEval;
use othello::obf::parse_obf;
use othello::search::{Limits, SearchResult, Searcher};
use othello::Board;

/// A searcher on `path`, with the default evaluator and a small table.
fn searcher(path: CpuPath) -> Searcher<EngineEval> {
    let mut s = Searcher::new(EngineEval::default(), 8);
    s.set_cpu_path(path).expect("a supported path");
    s
}

/// What must not depend on the path.
fn summary(r: &SearchResult) -> (String, String, u32, u64) {
    (
        r.best.to_string(),
        format!("{:?}", r.value),
        r.depth,
        r.nodes,
    )
}

fn supported() -> Vec<CpuPath> {
    CpuPath::ALL.into_iter().filter(|p| p.supported()).collect()
}

#[test]
fn midgame_searches_are_identical_on_every_path() {
    let limits = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    let boards: Vec<Board> = othello::xot::openings()
        .take(4)
        .map(|line| othello::xot::position_after(line).unwrap().board)
        .collect();
    let portable: Vec<_> = boards
        .iter()
        .map(|b| summary(&searcher(CpuPath::Portable).search(b, &limits, &mut ())))
        .collect();
    for path in supported() {
        for (b, want) in boards.iter().zip(&portable) {
            let got = summary(&searcher(path).search(b, &limits, &mut ()));
            assert_eq!(&got, want, "{path} on {b:?}");
        }
    }
}

#[test]
fn exact_solves_are_identical_on_every_path_and_match_ffo() {
    let entries = parse_obf(include_str!("data/fforum-1-19.obf")).unwrap();
    for path in supported() {
        let mut s = searcher(path);
        let mut portable = searcher(CpuPath::Portable);
        for e in entries.iter().take(6) {
            let board = &e.position.board;
            s.clear();
            portable.clear();
            let got = s.solve(board, false, &mut ());
            let want = portable.solve(board, false, &mut ());
            assert_eq!(summary(&got), summary(&want), "{path} on {board:?}");
            let best = e.moves.iter().map(|&(_, v)| v).max().unwrap();
            assert_eq!(format!("{:?}", got.value), format!("Exact({best})"));
        }
    }
}

#[test]
fn an_unsupported_or_unknown_path_is_refused_without_change() {
    let mut s = searcher(CpuPath::Portable);
    for path in CpuPath::ALL {
        let r = s.set_cpu_path(path);
        assert_eq!(r.is_ok(), path.supported());
        if r.is_err() {
            assert_eq!(s.cpu_path(), CpuPath::Portable);
        } else {
            assert_eq!(s.cpu_path(), path);
            s.set_cpu_path(CpuPath::Portable).unwrap();
        }
    }
    assert!("x86-128".parse::<CpuPath>().is_err());
}
