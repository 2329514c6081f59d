//! A recording of the exact solver's search tree above the parallel search's split depth, for
//! the scaling simulation of the parallel search (`scaling-sim` in `crates/tools`,
//! docs/dev/PARALLEL.md).
//!
//! A recording is off unless [`start`] turned it on; then every null-window node of the solver
//! with [`RECORD_MIN_EMPTIES`] or more empties that reaches its move loop (not a node cut by
//! the table, the stability test or ProbCut, whose cost stays in its parent's) becomes one
//! [`TreeNode`]: its place among its parent's searched children, how many moves it had and
//! searched, whether it failed high, and its *own* work (nodes and nanoseconds of its subtree
//! minus those of its recorded children: its ordering, table probes, and every child below the
//! recorded depth). The nodes are in the order the search entered them (pre-order), so a
//! node's recorded children follow it in the order they were searched.
//!
//! The recording belongs to the thread that started it, which is the thread a one-thread
//! search runs on (what the simulation replays); other threads' searches are not recorded.
//! Off, its cost is one thread-local flag read at the nodes of at least
//! [`RECORD_MIN_EMPTIES`] empties, a small fraction of all nodes.

use std::cell::{Cell, RefCell};

use crate::time::Instant;

/// Fewest empties of a recorded node: the parallel search's split depth, below which its
/// subtrees are not worth sharing (`DEFER_MIN_EMPTIES` of the solver).
pub const RECORD_MIN_EMPTIES: u32 = 12;

/// No parent: the node is the root of one null-window pass.
pub const NO_PARENT: u32 = u32::MAX;

/// One recorded node (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// Index of the parent in the recording, or [`NO_PARENT`].
    pub parent: u32,
    /// Empty squares.
    pub empties: u8,
    /// Place among the parent's searched children (0: the eldest brother, searched first).
    pub rank: u8,
    /// Legal moves.
    pub moves: u8,
    /// Children searched (a cut node stops at the one that failed high; 0 for an enhanced
    /// transposition cut-off, found in the table before any child was searched).
    pub searched: u8,
    /// Whether the node failed high (a cut node; its last searched child cut).
    pub cut: bool,
    /// Nodes of its subtree outside its recorded children.
    pub own_nodes: u64,
    /// Nanoseconds of its subtree outside its recorded children.
    pub own_nanos: u64,
}

struct Frame {
    index: usize,
    nodes: u64,
    start: Instant,
    child_nodes: u64,
    child_nanos: u64,
    next_rank: u8,
}

#[derive(Default)]
struct Recorder {
    nodes: Vec<TreeNode>,
    stack: Vec<Frame>,
}

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Starts a recording of this thread's searches (dropping any unfinished one).
pub fn start() {
    RECORDER.with_borrow_mut(|r| *r = Some(Recorder::default()));
    ON.set(true);
}

/// Ends this thread's recording and returns its nodes (empty if none was started).
pub fn finish() -> Vec<TreeNode> {
    ON.set(false);
    RECORDER
        .with_borrow_mut(Option::take)
        .map(|r| r.nodes)
        .unwrap_or_default()
}

/// Whether a node with `empties` empties is to be recorded now.
#[inline(always)]
pub(crate) fn wanted(empties: u32) -> bool {
    empties >= RECORD_MIN_EMPTIES && ON.get()
}

/// Runs `f` on this thread's recording, if one was started.
fn with_recorder(f: impl FnOnce(&mut Recorder)) {
    RECORDER.with_borrow_mut(|r| {
        if let Some(r) = r {
            f(r);
        }
    });
}

/// The solver enters the move loop of a node with `empties` empties and `moves` legal moves,
/// having counted `nodes` nodes so far.
#[cold]
pub(crate) fn enter(empties: u32, moves: u32, nodes: u64) {
    with_recorder(|r| r.enter(empties, moves, nodes));
}

/// The solver leaves the node entered last, having searched `searched` children (recorded or
/// not), failing high if `cut`, with `nodes` nodes counted so far.
#[cold]
pub(crate) fn leave(searched: u32, cut: bool, nodes: u64) {
    with_recorder(|r| r.leave(searched, cut, nodes));
}

/// The node entered last is about to search its child of place `rank` in its search order
/// (0 first): the child, if recorded, takes that rank.
#[cold]
pub(crate) fn next_child(rank: usize) {
    with_recorder(|r| {
        if let Some(f) = r.stack.last_mut() {
            f.next_rank = rank.min(u8::MAX as usize) as u8;
        }
    });
}

impl Recorder {
    fn enter(&mut self, empties: u32, moves: u32, nodes: u64) {
        let (parent, rank) = match self.stack.last() {
            Some(f) => (f.index as u32, f.next_rank),
            None => (NO_PARENT, 0),
        };
        self.stack.push(Frame {
            index: self.nodes.len(),
            nodes,
            start: Instant::now(),
            child_nodes: 0,
            child_nanos: 0,
            next_rank: 0,
        });
        self.nodes.push(TreeNode {
            parent,
            empties: empties as u8,
            rank,
            moves: moves as u8,
            searched: 0,
            cut: false,
            own_nodes: 0,
            own_nanos: 0,
        });
    }

    fn leave(&mut self, searched: u32, cut: bool, nodes: u64) {
        let Some(f) = self.stack.pop() else { return };
        let total_nodes = nodes - f.nodes;
        let total_nanos = f.start.elapsed().as_nanos() as u64;
        let node = &mut self.nodes[f.index];
        node.searched = searched as u8;
        node.cut = cut;
        node.own_nodes = total_nodes.saturating_sub(f.child_nodes);
        node.own_nanos = total_nanos.saturating_sub(f.child_nanos);
        if let Some(parent) = self.stack.last_mut() {
            parent.child_nodes += total_nodes;
            parent.child_nanos += total_nanos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::HandEval;
    use crate::search::endgame::Solver;
    use crate::search::tt::TranspositionTable;
    use crate::search::{Context, Stopper};

    /// Solves `board` exactly by MTD(f) from 0 on one thread; returns the value and nodes.
    fn solve(board: &crate::board::Board) -> (i32, u64) {
        let tt = TranspositionTable::new(4);
        let eval = HandEval::new();
        let mut stopper = Stopper::unlimited();
        let mut cx = Context::new(&eval, &tt, &mut stopper);
        let mut solver = Solver::new(&mut cx, 0);
        let (v, _) = solver.solve_root_mtd(board.player(), board.opponent(), 0, 0);
        (v, solver.nodes())
    }

    #[test]
    fn a_recording_is_the_tree_the_solver_searched_and_changes_nothing() {
        let boards = crate::search::endgame::tests::random_positions(16, 3, 59);
        for board in &boards {
            let (value, nodes) = solve(board);
            assert!(finish().is_empty(), "nothing recorded when off");
            start();
            let (recorded_value, recorded_nodes) = solve(board);
            let tree = finish();
            assert_eq!((recorded_value, recorded_nodes), (value, nodes));
            assert!(!tree.is_empty());
            let own: u64 = tree.iter().map(|n| n.own_nodes).sum();
            assert!(own <= nodes, "{own} recorded of {nodes}");
            let mut last_rank = vec![None::<u8>; tree.len()];
            for (i, node) in tree.iter().enumerate() {
                assert!(node.empties as u32 >= RECORD_MIN_EMPTIES);
                assert!(node.searched <= node.moves && node.moves > 0);
                // A node that failed low searched every move (one that failed high may have
                // searched none: an enhanced transposition cut-off).
                if !node.cut {
                    assert_eq!(node.searched, node.moves, "node {i}");
                }
                if node.parent == NO_PARENT {
                    assert_eq!(node.empties as u32, board.empty_count());
                    continue;
                }
                let p = node.parent as usize;
                assert!(p < i);
                assert_eq!(node.empties + 1, tree[p].empties);
                assert!(node.rank < tree[p].searched);
                assert!(last_rank[p].is_none_or(|r| r < node.rank));
                last_rank[p] = Some(node.rank);
            }
        }
    }
}
