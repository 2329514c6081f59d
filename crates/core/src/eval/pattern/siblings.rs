//! Sibling evaluation: the children of one position evaluated from their differences, the way
//! Edax and Egaroucid update pattern indices as moves are made, but kept within one node.
//!
//! A pattern index is linear in its digits (0 empty, 1 a disc of the side to move, 2 an
//! opponent disc), so the indices of a position are a sum of per-square rows
//! ([`geometry::SQUARE_COEFFICIENTS`]). Let the side to move play `sq` flipping `f` in the
//! position (`p`, `o`); the child is (`o ^ f`, `p ^ f ^ sq`) with the opponent to move, and
//!
//! ```text
//! indices(child) = indices(o, p) + Σ_{s ∈ f} row(s) + 2 · row(sq)
//! ```
//!
//! (each flipped square goes from digit 1 to digit 2 of the child's side to move, the new disc
//! from 0 to 2). So once the parent's swapped indices `indices(o, p)` are known, each child's 58
//! indices are a few 64-lane vector additions (one row per changed square) instead of 116 bit
//! gathers. The first child evaluated computes its indices directly and derives the swapped
//! parent indices by subtracting its own rows, so a node whose first move cuts pays only a few
//! vector operations more.
//!
//! The searches use this wherever a node evaluates its children one after another: the last
//! ply before the leaves and the evaluation-keyed move ordering ([`crate::search`]). The
//! pattern evaluator's per-thread [`EvalState`] is a [`SiblingStack`]: one [`Siblings`] for each
//! node of the search path, made new when the search pushes a node and kept while it visits
//! the node's children, so a node that evaluates its children twice (the endgame's ordering
//! after the table's move) gathers its indices once.

use crate::bitboard::squares;
use crate::cpu::Cpu;
use crate::eval::EvalState;
use crate::square::Square;

use super::geometry::{self, INDEX_LANES, SQUARE_COEFFICIENTS};

/// The pattern indices of every instance (lanes past [`geometry::INSTANCE_COUNT`] unused).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Indices(pub(crate) [u16; INDEX_LANES]);

impl Indices {
    /// The indices of (`player`, `opponent`) by bit gathers on the code path `C`; with
    /// `extra` false the instances of pattern set 3 are left 0.
    #[inline(always)]
    pub(crate) fn of<C: Cpu>(player: u64, opponent: u64, extra: bool) -> Indices {
        let mut idx = [0u16; INDEX_LANES];
        macro_rules! one {
            ($slot:expr, $pat:expr, $g:expr) => {
                idx[$slot] = geometry::instance_index_on::<$slot, C>(player, opponent) as u16;
            };
        }
        geometry::for_each_base_instance!(one);
        if extra {
            geometry::for_each_extra_instance!(one);
        }
        Indices(idx)
    }

    /// What the move `sq` flipping `flips` adds to the swapped parent indices (see the module
    /// docs).
    #[inline(always)]
    fn delta(sq: Square, flips: u64) -> Indices {
        let mut d = [0u16; INDEX_LANES];
        let row = &SQUARE_COEFFICIENTS[sq.index()];
        for (x, &c) in d.iter_mut().zip(row.iter()) {
            *x = c.wrapping_add(c);
        }
        for s in squares(flips) {
            let row = &SQUARE_COEFFICIENTS[s.index()];
            for (x, &c) in d.iter_mut().zip(row.iter()) {
                *x = x.wrapping_add(c);
            }
        }
        Indices(d)
    }

    #[inline(always)]
    fn plus(mut self, d: &Indices) -> Indices {
        for (x, &c) in self.0.iter_mut().zip(d.0.iter()) {
            *x = x.wrapping_add(c);
        }
        self
    }

    #[inline(always)]
    fn minus(mut self, d: &Indices) -> Indices {
        for (x, &c) in self.0.iter_mut().zip(d.0.iter()) {
            *x = x.wrapping_sub(c);
        }
        self
    }
}

/// What one node keeps while its children are evaluated: the swapped parent indices once the
/// first child has been evaluated. Make a new one (cheap: nothing is computed) for each node.
#[derive(Clone, Copy)]
pub struct Siblings {
    parent: Indices,
    /// What `parent` holds: [`NOTHING`], [`BASE`] (the instances of pattern sets 1 and 2) or
    /// [`ALL`] (those of pattern set 3 too). Two evaluators may share a node (the search's
    /// weights and the solver's ordering weights, which read fewer shapes): a child that needs
    /// more than is held computes its indices afresh.
    ready: u8,
}

/// [`Siblings::ready`]: no parent indices yet.
const NOTHING: u8 = 0;
/// [`Siblings::ready`]: the parent indices of pattern sets 1 and 2 are known.
const BASE: u8 = 1;
/// [`Siblings::ready`]: every parent index is known.
const ALL: u8 = 2;

impl Default for Siblings {
    fn default() -> Self {
        Self::new()
    }
}

impl Siblings {
    /// A node whose children have not been evaluated yet.
    #[inline(always)]
    pub fn new() -> Siblings {
        Siblings {
            parent: Indices([0; INDEX_LANES]),
            ready: NOTHING,
        }
    }

    /// The indices of the child reached from (`p`, `o`) by `sq` flipping `flips`, computed
    /// from the earlier siblings' work when there was some. `extra`: whether the instances of
    /// pattern set 3 are read. The same `p` and `o` must be passed for every child; `extra` may
    /// differ from one child to the next.
    #[inline(always)]
    pub(crate) fn child<C: Cpu>(
        &mut self,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
        extra: bool,
    ) -> Indices {
        let d = Indices::delta(sq, flips);
        let need = if extra { ALL } else { BASE };
        if self.ready >= need {
            self.parent.plus(&d)
        } else {
            let idx = Indices::of::<C>(o ^ flips, p ^ flips ^ sq.bit(), extra);
            self.parent = idx.minus(&d);
            self.ready = need;
            idx
        }
    }
}

/// The longest search path a [`SiblingStack`] holds: 60 moves and the passes between them fit
/// in 121 nodes. Deeper paths (none exist) would wrap around and share levels, which costs
/// only the sharing (a level is made new whenever it is entered).
const PATH_LEN: usize = 128;

/// The pattern evaluator's per-thread state ([`EvalState`]): a [`Siblings`] for each node of
/// the search path (see the module docs).
pub struct SiblingStack {
    levels: Box<[Siblings; PATH_LEN]>,
    ply: usize,
}

impl Default for SiblingStack {
    fn default() -> Self {
        Self::new()
    }
}

impl SiblingStack {
    /// A state at an unknown root (the search resets it before it evaluates).
    pub fn new() -> SiblingStack {
        SiblingStack {
            levels: Box::new([Siblings::new(); PATH_LEN]),
            ply: 0,
        }
    }

    /// The current node's siblings.
    #[inline(always)]
    pub(crate) fn current(&mut self) -> &mut Siblings {
        &mut self.levels[self.ply & (PATH_LEN - 1)]
    }

    #[inline(always)]
    fn enter(&mut self) {
        self.ply = (self.ply + 1) & (PATH_LEN - 1);
        self.levels[self.ply].ready = NOTHING;
    }
}

impl EvalState for SiblingStack {
    #[inline(always)]
    fn reset(&mut self, _p: u64, _o: u64) {
        self.ply = 0;
        self.levels[0].ready = NOTHING;
    }

    #[inline(always)]
    fn push(&mut self, _p: u64, _o: u64, _sq: Square, _flips: u64) {
        self.enter();
    }

    #[inline(always)]
    fn pass(&mut self) {
        self.enter();
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.ply = self.ply.wrapping_sub(1) & (PATH_LEN - 1);
    }
}
