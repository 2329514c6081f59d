//! The evaluator seam ([`othello::eval::EvalState`]): an evaluator whose value comes from a
//! running disc count kept through the search's push, pass and pop must give every search
//! exactly the result of the same evaluation computed from the board, at every node. The
//! running count checks at each evaluation that it describes the node being evaluated, so a
//! child visit that skips the hook fails here (with the node), not somewhere later.

use othello::board::Board;
use othello::eval::builtin::default_pattern;
use othello::eval::{clamp_score, EvalState, Evaluator, Stateless};
use othello::rng::{random_playout, SplitMix64};
use othello::search::{Limits, SearchResult, Searcher};
use othello::square::Square;
use othello::Move;

/// The value both evaluators compute, from the side to move's view: the embedded pattern
/// evaluation (so that the solver's move ordering stays good and its searches short) plus 10
/// centi-discs per disc of difference, the term the running count keeps.
fn value(disc_diff: i32, p: u64, o: u64) -> i32 {
    let pattern = default_pattern().evaluate(&Board::from_bits_unchecked(p, o));
    clamp_score(i64::from(pattern) + 10 * i64::from(disc_diff))
}

/// The stateless twin: the value from the board.
#[derive(Clone, Copy)]
struct FromBoard;

impl Evaluator for FromBoard {
    type State = Stateless;

    fn new_state(&self) -> Stateless {
        Stateless
    }

    fn evaluate(&self, board: &Board) -> i32 {
        let (p, o) = (board.player(), board.opponent());
        value(p.count_ones() as i32 - o.count_ones() as i32, p, o)
    }
}

/// One node of the path: its discs and the running disc difference for its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    p: u64,
    o: u64,
    diff: i32,
}

/// The running count: the path from the root, the difference updated by each move's flips.
#[derive(Default)]
struct RunningCount {
    path: Vec<Node>,
    pushes: u64,
}

impl RunningCount {
    fn current(&self, p: u64, o: u64) -> Node {
        let node = *self.path.last().expect("evaluated before any reset");
        assert_eq!(
            (node.p, node.o),
            (p, o),
            "the state is at {:?} but the search evaluates {:?}",
            Board::from_bits_unchecked(node.p, node.o),
            Board::from_bits_unchecked(p, o)
        );
        node
    }
}

impl EvalState for RunningCount {
    fn reset(&mut self, p: u64, o: u64) {
        self.path.clear();
        self.path.push(Node {
            p,
            o,
            diff: p.count_ones() as i32 - o.count_ones() as i32,
        });
    }

    fn push(&mut self, p: u64, o: u64, sq: Square, flips: u64) {
        let node = self.current(p, o);
        self.pushes += 1;
        // The mover gains the new disc and the flips; the child's side to move is the other.
        let diff = -(node.diff + 1 + 2 * flips.count_ones() as i32);
        self.path.push(Node {
            p: o ^ flips,
            o: p ^ flips ^ sq.bit(),
            diff,
        });
    }

    fn pass(&mut self) {
        let node = *self.path.last().expect("a pass before any reset");
        self.path.push(Node {
            p: node.o,
            o: node.p,
            diff: -node.diff,
        });
    }

    fn pop(&mut self) {
        assert!(self.path.len() > 1, "pop at the root");
        self.path.pop();
    }
}

/// The stateful evaluator: every value from the running count.
#[derive(Clone, Copy)]
struct Running;

impl Evaluator for Running {
    type State = RunningCount;

    fn new_state(&self) -> RunningCount {
        RunningCount::default()
    }

    fn evaluate(&self, board: &Board) -> i32 {
        FromBoard.evaluate(board)
    }

    fn evaluate_in<C: othello::cpu::Cpu>(&self, state: &mut RunningCount, p: u64, o: u64) -> i32 {
        let node = state.current(p, o);
        value(node.diff, node.p, node.o)
    }

    fn evaluate_child_in<C: othello::cpu::Cpu>(
        &self,
        state: &mut RunningCount,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        state.push(p, o, sq, flips);
        let node = *state.path.last().unwrap();
        state.path.pop();
        value(node.diff, node.p, node.o)
    }
}

fn positions(count: usize, empties: u32, seed: u64) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let found = random_playout(Board::start(), &mut rng)
            .find(|b| b.empty_count() == empties && b.moves() != 0);
        out.extend(found);
    }
    out
}

fn same(a: &SearchResult, b: &SearchResult, what: &str) {
    assert_eq!(
        (a.best, a.value, a.depth, &a.pv, a.nodes),
        (b.best, b.value, b.depth, &b.pv, b.nodes),
        "{what}"
    );
}

fn searcher<E: Evaluator>(eval: E, threads: usize) -> Searcher<E> {
    let mut s = Searcher::new(eval, 16);
    s.set_threads(threads);
    s
}

#[test]
fn the_running_count_equals_the_board_count_in_midgame_searches() {
    for (i, b) in positions(6, 40, 11).iter().enumerate() {
        for depth in [1, 2, 5, 9] {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let want = searcher(FromBoard, 1).search(b, &limits, &mut ());
            let got = searcher(Running, 1).search(b, &limits, &mut ());
            same(&got, &want, &format!("position {i}, depth {depth}"));
            assert!(got.nodes > depth as u64, "a real search: {got:?}");
        }
    }
}

#[test]
fn the_running_count_equals_the_board_count_in_endgame_solves() {
    // 14 to 22 empties: the solver orders by the evaluation (static, one-ply and two-ply
    // searches), runs its selective passes with ProbCut and a midgame presearch.
    for (i, b) in positions(2, 14, 21)
        .into_iter()
        .chain(positions(1, 19, 22))
        .chain(positions(1, 22, 23))
        .enumerate()
    {
        for wld in [false, true].into_iter().filter(|&w| !w || i == 0) {
            let want = searcher(FromBoard, 1).solve(&b, wld, &mut ());
            let got = searcher(Running, 1).solve(&b, wld, &mut ());
            same(&got, &want, &format!("position {i}, wld {wld}"));
        }
        if i > 0 {
            continue;
        }
        // The engine's own mix: iterative deepening, then the solve when it fits.
        let limits = Limits {
            depth: Some(30),
            ..Limits::default()
        };
        let want = searcher(FromBoard, 1).search(&b, &limits, &mut ());
        let got = searcher(Running, 1).search(&b, &limits, &mut ());
        same(&got, &want, &format!("position {i}, search"));
        assert!(matches!(got.best, Move::Place(_)));
    }
}

#[test]
fn every_thread_of_a_parallel_search_keeps_its_state_in_step() {
    // Two threads: the helpers' nodes differ from run to run, but every evaluation on every
    // thread checks its state, and an exact solve's value does not depend on the threads.
    for b in positions(2, 18, 31) {
        let want = searcher(FromBoard, 1).solve(&b, false, &mut ());
        let got = searcher(Running, 2).solve(&b, false, &mut ());
        assert_eq!(got.value, want.value);
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        searcher(Running, 2).search(&positions(1, 36, 32)[0], &limits, &mut ());
    }
}

#[test]
fn the_check_sees_a_state_out_of_step() {
    // The test's own guard: a state left at the parent is refused at the child.
    let b = Board::start();
    let (p, o) = (b.player(), b.opponent());
    let mut state = Running.new_state();
    state.reset(p, o);
    let sq: Square = "f5".parse().unwrap();
    let child = b.play(sq);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Running.evaluate_in::<othello::cpu::Portable>(&mut state, child.player(), child.opponent())
    }));
    assert!(caught.is_err());
    state.push(p, o, sq, b.flips(sq));
    assert_eq!(
        Running.evaluate_in::<othello::cpu::Portable>(&mut state, child.player(), child.opponent()),
        FromBoard.evaluate(&child)
    );
    state.pop();
    assert_eq!(state.pushes, 1);
}
