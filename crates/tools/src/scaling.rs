//! A simulation of the exact solver's parallel search on many processors, replaying a
//! recorded one-thread search tree ([`othello_core::search::tree_record`]).
//!
//! The machine here has two cores; the simulation says how a split-point search of the same
//! tree would scale to 64. It is the **Young Brothers Wait** scheme (Feldmann, 1993) as a
//! greedy list schedule on `P` processors:
//!
//! - a recorded node first does its own work (ordering, probes, every child below the
//!   recorded depth), as one task;
//! - then its eldest brother (the first child searched) alone, on the same processor;
//! - then, unless the eldest failed high, all its other recorded children at once, as tasks
//!   any idle processor takes (the one with the most empties first, then the lowest rank);
//! - a node that failed high is done when the child that failed high is done: its brothers
//!   still running are stopped there (a parallel search may so skip work the serial search
//!   did); a node that did not is done when all its children are;
//! - the root of each recorded pass starts when the pass before it is done.
//!
//! Two things a real parallel search adds are modelled as options, since the recording cannot
//! know them: **speculative work** (at a cut node, the moves the serial search never tried are
//! started too when processors are idle; each is given the mean cost of the node's recorded
//! younger brothers and is stopped when the node is done) and a **cost per split** (each task
//! handed to another processor pays a fixed delay, for the synchronisation). What it leaves
//! out: the shared table's effects (a subtree searched before another in the serial order may
//! have given it transpositions that a concurrent search does not see) and memory contention.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use othello_core::search::tree_record::{TreeNode, NO_PARENT};

/// The options of one simulation run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimOptions {
    /// Processors.
    pub processors: usize,
    /// Start the moves a cut node never searched serially (see the module docs).
    pub speculate: bool,
    /// Nanoseconds each task started on a processor other than its parent's pays first.
    pub split_cost: u64,
    /// Brothers searched one after another before the others are shared: 1 is Young
    /// Brothers Wait; 2 also waits for the second brother, so that a node whose eldest fails
    /// high, or whose second does, is never split.
    pub serial_brothers: u8,
    /// Fewest empties of a node whose children may be shared (from the recording's
    /// [`RECORD_MIN_EMPTIES`](othello_core::search::tree_record::RECORD_MIN_EMPTIES) up): a
    /// node with fewer is searched whole by one processor.
    pub split_min: u8,
}

/// The result of one simulation run.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SimResult {
    /// Nanoseconds from the first root's start to the last root's end.
    pub makespan: u64,
    /// The recorded tree's serial time: the sum of its nodes' own work.
    pub serial: u64,
    /// Processor time spent, useful or not (stopped tasks count up to their stop).
    pub busy: u64,
    /// Processor time in tasks that were stopped before they finished, or speculative.
    pub wasted: u64,
    /// Tasks started by another processor than their parent's.
    pub splits: u64,
}

impl SimResult {
    /// The speed-up over one processor running the serial search.
    pub fn speedup(&self) -> f64 {
        self.serial as f64 / self.makespan.max(1) as f64
    }
}

/// The recorded tree in a form the simulation walks: children in search order.
pub struct Tree {
    nodes: Vec<TreeNode>,
    child_start: Vec<u32>,
    children: Vec<u32>,
    roots: Vec<u32>,
    /// Mean subtree time of each node's recorded younger brothers (its speculative moves'
    /// cost), 0 where there are none.
    young_mean: Vec<u64>,
    /// Each node's subtree time.
    subtree: Vec<u64>,
}

/// Why a recording cannot be simulated.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TreeError {
    /// A node names a parent that does not come before it.
    #[error("node {0}: its parent {1} does not come before it")]
    BadParent(usize, u32),
    /// A node's children are not in increasing rank, or a rank is beyond the parent's count
    /// of searched children.
    #[error("node {0}: its rank {1} does not follow its parent's children in search order")]
    BadRank(usize, u8),
}

impl Tree {
    /// Checks and indexes a recording (pre-order, as [`othello_core::search::tree_record`]
    /// writes it).
    pub fn new(nodes: Vec<TreeNode>) -> Result<Tree, TreeError> {
        let n = nodes.len();
        let mut counts = vec![0u32; n + 1];
        let mut roots = Vec::new();
        let mut last_rank: Vec<i32> = vec![-1; n];
        for (i, node) in nodes.iter().enumerate() {
            if node.parent == NO_PARENT {
                roots.push(i as u32);
                continue;
            }
            let p = node.parent as usize;
            if p >= i {
                return Err(TreeError::BadParent(i, node.parent));
            }
            if node.rank as i32 <= last_rank[p] || node.rank >= nodes[p].searched {
                return Err(TreeError::BadRank(i, node.rank));
            }
            last_rank[p] = node.rank as i32;
            counts[p] += 1;
        }
        let mut child_start = vec![0u32; n + 1];
        for i in 0..n {
            child_start[i + 1] = child_start[i] + counts[i];
        }
        let mut fill = child_start.clone();
        let mut children = vec![0u32; child_start[n] as usize];
        for (i, node) in nodes.iter().enumerate() {
            if node.parent != NO_PARENT {
                let p = node.parent as usize;
                children[fill[p] as usize] = i as u32;
                fill[p] += 1;
            }
        }
        // Subtree times, children after parents in pre-order: sum backwards.
        let mut subtree: Vec<u64> = nodes.iter().map(|x| x.own_nanos).collect();
        for i in (0..n).rev() {
            if nodes[i].parent != NO_PARENT {
                let p = nodes[i].parent as usize;
                subtree[p] += subtree[i];
            }
        }
        let mut young_mean = vec![0u64; n];
        for p in 0..n {
            let kids = &children[child_start[p] as usize..child_start[p + 1] as usize];
            let young: Vec<u64> = kids
                .iter()
                .filter(|&&c| nodes[c as usize].rank > 0)
                .map(|&c| subtree[c as usize])
                .collect();
            if !young.is_empty() {
                young_mean[p] = young.iter().sum::<u64>() / young.len() as u64;
            }
        }
        Ok(Tree {
            nodes,
            child_start,
            children,
            roots,
            young_mean,
            subtree,
        })
    }

    /// The recorded nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The recorded passes (trees).
    pub fn roots(&self) -> usize {
        self.roots.len()
    }

    /// The serial time of the recording: the sum of every node's own work.
    pub fn serial(&self) -> u64 {
        self.nodes.iter().map(|n| n.own_nanos).sum()
    }

    fn kids(&self, v: usize) -> &[u32] {
        &self.children[self.child_start[v] as usize..self.child_start[v + 1] as usize]
    }

    /// The eldest brother of `v`'s children, if recorded.
    fn eldest(&self, v: usize) -> Option<usize> {
        self.kids(v)
            .first()
            .map(|&c| c as usize)
            .filter(|&c| self.nodes[c].rank == 0)
    }

    /// The child that made `v` fail high, if `v` did and that child was recorded.
    fn cutter(&self, v: usize) -> Option<usize> {
        let node = &self.nodes[v];
        if !node.cut || node.searched == 0 {
            return None;
        }
        self.kids(v)
            .last()
            .map(|&c| c as usize)
            .filter(|&c| self.nodes[c].rank == node.searched - 1)
    }
}

/// What a processor runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// A node's own work.
    Own(u32),
    /// The child that made a node fail high when it was not recorded (its little work is in
    /// the node's own): done at once, it ends the node.
    Cutoff(u32),
    /// A move of a cut node that the serial search never tried.
    Speculative(u32),
}

impl Task {
    /// The recorded node the task belongs to (for `Own`) or works under.
    fn node(self) -> usize {
        match self {
            Task::Own(v) | Task::Cutoff(v) | Task::Speculative(v) => v as usize,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct NodeState {
    done: bool,
    stopped: bool,
    /// Whether its younger brothers were started (so that its completion may stop some).
    split: bool,
    /// Whether its second brother runs alone (with [`SimOptions::serial_brothers`] 2), and
    /// whether it has.
    second: bool,
    second_done: bool,
    /// Younger brothers still running (children after the eldest).
    pending: u32,
}

/// A ready task's keys: the newest first for the processor that made it ready (depth first,
/// as one thread searches); the most empties, then the lowest rank, for an idle processor
/// joining the search (the biggest piece of work nearest the root, taken in search order).
struct Ready {
    task: Task,
    taken: bool,
}

struct Sim<'t> {
    tree: &'t Tree,
    options: SimOptions,
    state: Vec<NodeState>,
    tasks: Vec<Ready>,
    newest: BinaryHeap<usize>,
    biggest: BinaryHeap<(u8, Reverse<u8>, Reverse<usize>)>,
    /// Per processor: the task it runs and its start; its generation (the completion event
    /// of a stopped task is stale).
    running: Vec<Option<(Task, u64)>>,
    generation: Vec<u64>,
    idle: Vec<usize>,
    /// The processors running a task, and each one's place in that list (`usize::MAX`: none).
    busy_procs: Vec<usize>,
    busy_place: Vec<usize>,
    events: BinaryHeap<Reverse<(u64, usize, u64)>>,
    now: u64,
    next_root: usize,
    result: SimResult,
}

/// Runs the simulation of `tree` under `options`.
pub fn simulate(tree: &Tree, options: SimOptions) -> SimResult {
    let processors = options.processors.max(1);
    let mut sim = Sim {
        tree,
        options,
        state: vec![NodeState::default(); tree.len()],
        tasks: Vec::new(),
        newest: BinaryHeap::new(),
        biggest: BinaryHeap::new(),
        running: vec![None; processors],
        generation: vec![0; processors],
        idle: (0..processors).rev().collect(),
        busy_procs: Vec::new(),
        busy_place: vec![usize::MAX; processors],
        events: BinaryHeap::new(),
        now: 0,
        next_root: 0,
        result: SimResult {
            serial: tree.serial(),
            ..SimResult::default()
        },
    };
    sim.start_next_root();
    sim.run();
    sim.result.makespan = sim.now;
    sim.result
}

impl Sim<'_> {
    fn start_next_root(&mut self) {
        if let Some(&r) = self.tree.roots.get(self.next_root) {
            self.next_root += 1;
            self.push(Task::Own(r));
        }
    }

    fn push(&mut self, task: Task) {
        let node = &self.tree.nodes[task.node()];
        let (empties, rank) = match task {
            Task::Own(_) => (node.empties, node.rank),
            Task::Cutoff(_) => (
                node.empties.saturating_sub(1),
                node.searched.saturating_sub(1),
            ),
            Task::Speculative(_) => (node.empties.saturating_sub(1), u8::MAX),
        };
        let id = self.tasks.len();
        self.tasks.push(Ready { task, taken: false });
        self.newest.push(id);
        self.biggest.push((empties, Reverse(rank), Reverse(id)));
    }

    /// Whether `v` is searched whole, by one processor (below the split depth).
    fn whole(&self, v: usize) -> bool {
        self.tree.nodes[v].empties < self.options.split_min
    }

    fn cost(&self, task: Task) -> u64 {
        match task {
            Task::Own(v) if self.whole(v as usize) => self.tree.subtree[v as usize],
            Task::Own(v) => self.tree.nodes[v as usize].own_nanos,
            Task::Cutoff(_) => 0,
            Task::Speculative(v) => self.tree.young_mean[v as usize],
        }
    }

    /// Whether `v` or an ancestor was stopped (its work is no longer wanted).
    fn dead(&self, mut v: usize) -> bool {
        loop {
            if self.state[v].stopped {
                return true;
            }
            let p = self.tree.nodes[v].parent;
            if p == NO_PARENT {
                return false;
            }
            v = p as usize;
        }
    }

    /// Whether `task` is still wanted.
    fn live(&self, task: Task) -> bool {
        match task {
            Task::Own(v) => !self.dead(v as usize),
            Task::Cutoff(v) | Task::Speculative(v) => {
                !self.state[v as usize].done && !self.dead(v as usize)
            }
        }
    }

    /// The next wanted task, newest first or biggest first.
    fn take(&mut self, newest: bool) -> Option<Task> {
        loop {
            let id = if newest {
                self.newest.pop()?
            } else {
                self.biggest.pop()?.2 .0
            };
            if self.tasks[id].taken {
                continue;
            }
            self.tasks[id].taken = true;
            let task = self.tasks[id].task;
            if self.live(task) {
                return Some(task);
            }
        }
    }

    fn begin(&mut self, proc: usize, task: Task, handed: bool) {
        // A task another processor made ready pays for the hand-over (not a pass's root).
        let split = handed
            && !matches!(task, Task::Own(v) if self.tree.nodes[v as usize].parent == NO_PARENT);
        let delay = if split {
            self.result.splits += 1;
            self.options.split_cost
        } else {
            0
        };
        self.running[proc] = Some((task, self.now));
        self.busy_place[proc] = self.busy_procs.len();
        self.busy_procs.push(proc);
        self.generation[proc] += 1;
        let end = self.now + self.cost(task) + delay;
        self.events
            .push(Reverse((end, proc, self.generation[proc])));
    }

    /// Gives ready tasks to the idle processors, biggest first.
    fn dispatch_idle(&mut self) {
        while let Some(&proc) = self.idle.last() {
            let Some(task) = self.take(false) else {
                return;
            };
            self.idle.pop();
            self.begin(proc, task, true);
        }
    }

    fn run(&mut self) {
        self.dispatch_idle();
        while let Some(Reverse((time, proc, generation))) = self.events.pop() {
            if generation != self.generation[proc] {
                continue;
            }
            let Some((task, start)) = self.running[proc].take() else {
                continue;
            };
            self.unmark_busy(proc);
            self.now = time;
            self.result.busy += time - start;
            let mut next = None;
            if !self.live(task) {
                self.result.wasted += time - start;
            } else {
                match task {
                    Task::Speculative(_) => self.result.wasted += time - start,
                    Task::Cutoff(v) => self.complete(v as usize),
                    Task::Own(v) => next = self.own_done(v as usize),
                }
            }
            match next
                .map(|e| Task::Own(e as u32))
                .or_else(|| self.take(true))
            {
                // Depth first: the eldest brother where its parent's work was done, or else
                // the newest ready task.
                Some(task) => self.begin(proc, task, false),
                None => self.idle.push(proc),
            }
            self.dispatch_idle();
        }
    }

    /// `v`'s own work is done: its eldest brother next (returned, for the same processor),
    /// or whatever comes after it.
    fn own_done(&mut self, v: usize) -> Option<usize> {
        if self.whole(v) {
            self.complete(v);
            return None;
        }
        if let Some(e) = self.tree.eldest(v) {
            return Some(e);
        }
        self.eldest_done(v);
        None
    }

    /// `v`'s eldest brother is done (or was not recorded): its younger brothers next, all
    /// at once.
    fn eldest_done(&mut self, v: usize) {
        let node = self.tree.nodes[v];
        let cutter = self.tree.cutter(v);
        if node.cut && (node.searched <= 1 || (cutter.is_some() && cutter == self.tree.eldest(v))) {
            self.complete(v);
            return;
        }
        if self.options.serial_brothers >= 2 && !self.state[v].second_done {
            self.state[v].second_done = true;
            let second = self
                .tree
                .kids(v)
                .iter()
                .map(|&c| c as usize)
                .find(|&c| self.tree.nodes[c].rank == 1);
            if let Some(c) = second {
                self.state[v].second = true;
                self.push(Task::Own(c as u32));
                return;
            }
            if node.cut && node.searched == 2 {
                // The second brother failed high, unrecorded (at once).
                self.complete(v);
                return;
            }
        }
        let first_young = if self.state[v].second_done { 2 } else { 1 };
        let young: Vec<u32> = self
            .tree
            .kids(v)
            .iter()
            .copied()
            .filter(|&c| self.tree.nodes[c as usize].rank >= first_young)
            .collect();
        let virtual_cutter = node.cut && cutter.is_none();
        if young.is_empty() && !virtual_cutter {
            self.complete(v);
            return;
        }
        self.state[v].pending = young.len() as u32;
        self.state[v].split = true;
        // Pushed last, taken first by the processor here: in search order.
        if node.cut && self.options.speculate {
            for _ in node.searched..node.moves {
                self.push(Task::Speculative(v as u32));
            }
        }
        if virtual_cutter {
            self.push(Task::Cutoff(v as u32));
        }
        for &c in young.iter().rev() {
            self.push(Task::Own(c));
        }
    }

    /// `v` is done: stop what is left under it (a cut node's other brothers), then tell its
    /// parent.
    fn complete(&mut self, v: usize) {
        self.state[v].done = true;
        if self.tree.nodes[v].cut && self.state[v].split {
            for i in self.tree.child_start[v]..self.tree.child_start[v + 1] {
                let c = self.tree.children[i as usize] as usize;
                if !self.state[c].done {
                    self.state[c].stopped = true;
                }
            }
            self.stop_running();
        }
        let parent = self.tree.nodes[v].parent;
        if parent == NO_PARENT {
            self.start_next_root();
            return;
        }
        let p = parent as usize;
        if self.dead(p) || self.state[p].done {
            return;
        }
        if self.tree.eldest(p) == Some(v) {
            self.eldest_done(p);
        } else if self.state[p].second && self.tree.nodes[v].rank == 1 {
            self.state[p].second = false;
            if self.tree.cutter(p) == Some(v) {
                self.complete(p);
            } else {
                self.eldest_done(p);
            }
        } else if self.tree.cutter(p) == Some(v) {
            self.complete(p);
        } else {
            self.state[p].pending -= 1;
            if self.state[p].pending == 0 && !self.tree.nodes[p].cut {
                self.complete(p);
            }
        }
    }

    /// Takes `proc` off the list of running processors.
    fn unmark_busy(&mut self, proc: usize) {
        let place = std::mem::replace(&mut self.busy_place[proc], usize::MAX);
        let last = self.busy_procs.pop().expect("a running processor");
        if last != proc {
            self.busy_procs[place] = last;
            self.busy_place[last] = place;
        }
    }

    /// Frees the processors running work that a completion made useless.
    fn stop_running(&mut self) {
        let busy: Vec<usize> = self.busy_procs.clone();
        for proc in busy {
            let Some((task, start)) = self.running[proc] else {
                continue;
            };
            if !self.live(task) {
                self.running[proc] = None;
                self.unmark_busy(proc);
                self.generation[proc] += 1;
                self.result.busy += self.now - start;
                self.result.wasted += self.now - start;
                self.idle.push(proc);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: u32, rank: u8, moves: u8, searched: u8, cut: bool, nanos: u64) -> TreeNode {
        TreeNode {
            parent,
            empties: 20,
            rank,
            moves,
            searched,
            cut,
            own_nodes: nanos,
            own_nanos: nanos,
        }
    }

    fn run(nodes: Vec<TreeNode>, processors: usize, speculate: bool) -> SimResult {
        let tree = Tree::new(nodes).unwrap();
        simulate(
            &tree,
            SimOptions {
                processors,
                speculate,
                split_cost: 0,
                serial_brothers: 1,
                split_min: 0,
            },
        )
    }

    /// An all node with four children of 10 each, after 2 of its own work.
    fn all_node() -> Vec<TreeNode> {
        let mut nodes = vec![node(NO_PARENT, 0, 4, 4, false, 2)];
        for r in 0..4 {
            nodes.push(node(0, r, 0, 0, false, 10));
        }
        nodes
    }

    #[test]
    fn one_processor_is_the_serial_search() {
        let r = run(all_node(), 1, false);
        assert_eq!((r.makespan, r.serial, r.busy, r.wasted), (42, 42, 42, 0));
        assert_eq!(r.speedup(), 1.0);
    }

    #[test]
    fn younger_brothers_wait_for_the_eldest_then_share_the_processors() {
        // 2 own + 10 eldest, then three of 10 on three processors: 22.
        assert_eq!(run(all_node(), 4, false).makespan, 22);
        // On two: 2 + 10 + 10 + 10.
        assert_eq!(run(all_node(), 2, false).makespan, 32);
    }

    #[test]
    fn a_cut_by_the_eldest_leaves_nothing_to_share() {
        let mut nodes = vec![node(NO_PARENT, 0, 4, 1, true, 2)];
        nodes.push(node(0, 0, 0, 0, false, 10));
        let r = run(nodes, 8, true);
        assert_eq!((r.makespan, r.wasted), (12, 0));
    }

    #[test]
    fn a_later_cut_stops_its_brothers_and_the_speculative_moves() {
        // Own 1, eldest 5, then ranks 1 (40) and 2 (10, the cutter) run together; the cutter
        // ends at 16 and stops rank 1 after 10 of its 40. Two moves were never searched.
        let nodes = vec![
            node(NO_PARENT, 0, 5, 3, true, 1),
            node(0, 0, 0, 0, false, 5),
            node(0, 1, 0, 0, false, 40),
            node(0, 2, 0, 0, false, 10),
        ];
        let r = run(nodes.clone(), 2, false);
        assert_eq!((r.makespan, r.serial, r.wasted), (16, 56, 10));
        // With speculation on four processors the two unsearched moves (cost: the mean of
        // the younger brothers, 25) also start at 6 and are stopped at 16.
        let r = run(nodes, 4, true);
        assert_eq!((r.makespan, r.wasted), (16, 30));
    }

    #[test]
    fn one_processor_searches_in_the_serial_order_and_wastes_nothing() {
        // A cut node whose cutter (rank 3) was not recorded, under an all node: on one
        // processor, even with speculation, the brothers run in order and nothing is wasted.
        let nodes = vec![
            node(NO_PARENT, 0, 2, 2, false, 3),
            node(0, 0, 6, 4, true, 1),
            node(1, 0, 0, 0, false, 5),
            node(1, 1, 0, 0, false, 7),
            node(1, 2, 0, 0, false, 9),
            node(0, 1, 0, 0, false, 4),
        ];
        let r = run(nodes.clone(), 1, true);
        assert_eq!((r.makespan, r.serial, r.wasted), (29, 29, 0));
        // On many, the unrecorded cutter ends the cut node as soon as its eldest is done
        // (3 + 1 + 5), stopping its brothers as they start; then the root's younger brother.
        let r = run(nodes, 8, false);
        assert_eq!((r.makespan, r.wasted), (13, 0));
    }

    #[test]
    fn passes_run_one_after_another() {
        let mut nodes = all_node();
        nodes.extend(all_node().into_iter().map(|mut n| {
            if n.parent != NO_PARENT {
                n.parent = 5;
            }
            n
        }));
        assert_eq!(run(nodes, 4, false).makespan, 44);
    }

    #[test]
    fn a_split_pays_its_cost() {
        let tree = Tree::new(all_node()).unwrap();
        let r = simulate(
            &tree,
            SimOptions {
                processors: 4,
                speculate: false,
                split_cost: 3,
                serial_brothers: 1,
                split_min: 0,
            },
        );
        // The processor that ran the eldest takes the next brother itself; the two others
        // are handed over.
        assert_eq!((r.makespan, r.splits), (25, 2));
    }

    #[test]
    fn below_the_split_depth_a_node_is_one_task() {
        // The all node at 20 empties is not split at 21: one processor does all 42.
        let tree = Tree::new(all_node()).unwrap();
        let options = |split_min| SimOptions {
            processors: 4,
            speculate: false,
            split_cost: 0,
            serial_brothers: 1,
            split_min,
        };
        assert_eq!(simulate(&tree, options(21)).makespan, 42);
        assert_eq!(simulate(&tree, options(20)).makespan, 22);
    }

    #[test]
    fn with_two_serial_brothers_a_cut_by_the_second_wastes_nothing() {
        // Own 1, eldest 5, second 10 (the cutter): 16 however many processors, nothing
        // speculative; an all node of four: 2 + 10 + 10, then two at once, 32.
        let cut = vec![
            node(NO_PARENT, 0, 5, 2, true, 1),
            node(0, 0, 0, 0, false, 5),
            node(0, 1, 0, 0, false, 10),
        ];
        let options = SimOptions {
            processors: 8,
            speculate: true,
            split_cost: 0,
            serial_brothers: 2,
            split_min: 0,
        };
        let r = simulate(&Tree::new(cut.clone()).unwrap(), options);
        assert_eq!((r.makespan, r.wasted), (16, 0));
        let one = SimOptions {
            serial_brothers: 1,
            ..options
        };
        assert_eq!(simulate(&Tree::new(cut).unwrap(), one).wasted, 3 * 10);
        assert_eq!(
            simulate(&Tree::new(all_node()).unwrap(), options).makespan,
            32
        );
    }

    #[test]
    fn a_malformed_recording_is_refused() {
        let nodes = vec![
            node(1, 0, 1, 1, false, 1),
            node(NO_PARENT, 0, 1, 1, false, 1),
        ];
        assert_eq!(Tree::new(nodes).err(), Some(TreeError::BadParent(0, 1)));
        let nodes = vec![
            node(NO_PARENT, 0, 2, 2, false, 1),
            node(0, 1, 0, 0, false, 1),
            node(0, 0, 0, 0, false, 1),
        ];
        assert_eq!(Tree::new(nodes).err(), Some(TreeError::BadRank(2, 0)));
    }
}
