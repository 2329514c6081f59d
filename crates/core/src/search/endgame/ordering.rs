//! Move ordering for the exact solver's deeper nodes (above [`super::SHALLOW_MAX`] empties).
//!
//! A move's key combines, higher first: the table's move above all; fastest-first (the fewer
//! replies the opponent has after it, corners counting double, the better, as in Zebra), the
//! opponent's potential mobility, a bonus for odd-parity regions, the square's own worth (a
//! corner up, an X-square down) and the discs flipped (fewer first); and far from the end the
//! evaluation of the child: static from [`EVAL_ORDER_MIN`] empties, a one-ply search from
//! [`SEARCH_ORDER_MIN`], and small alpha-beta searches of two and three plies from
//! [`ORDER_DEPTH_2_MIN`] and [`ORDER_DEPTH_3_MIN`] (Edax and Egaroucid likewise order by
//! shallow searches that deepen with the empties). The deeper a search, the more its value
//! weighs against mobility ([`EVAL_ORDER_DIVISOR`], [`DEEP_ORDER_DIVISOR`]).
//!
//! The evaluation is the costly part, so it is a separate step ([`Solver::add_eval_keys`]): a
//! null-window node searches the table's move first and evaluates the others only when that
//! move did not cut. Below [`SOLVE_WEIGHTS_BELOW`] empties it also takes cheaper weights where
//! the evaluator has them ([`Evaluator::solve_order_in`]).

use crate::bitboard::{neighbours, squares, CORNERS, X_SQUARES};
use crate::board::final_score;
use crate::cpu::Cpu;
use crate::eval::Evaluator;
use crate::hash::table_key;
use crate::search::order::{Candidate, MoveList};
use crate::square::Square;

use super::small::odd_quadrants;
use super::{Solver, INF, LEAF_MAX, SHALLOW_MAX};

/// Empties from which move ordering adds the evaluation of the position after each move.
pub const EVAL_ORDER_MIN: u32 = 12;
/// Empties from which it uses a one-ply search instead of the static evaluation. From 15
/// rather than 18: 5% fewer nodes and 8% fewer cycles on FFO #40-#49; from 14 the extra
/// evaluations cost more than the nodes saved.
pub const SEARCH_ORDER_MIN: u32 = 15;
/// Empties from which the ordering searches two plies from each child instead of one (an
/// alpha-beta search with the evaluator at its leaves, [`Solver::order_search`]).
pub const ORDER_DEPTH_2_MIN: u32 = 18;
/// Empties from which it searches three plies from each child.
pub const ORDER_DEPTH_3_MIN: u32 = 22;
/// Centi-discs of evaluation per unit of ordering key (a reply move weighs 16 units), for the
/// static evaluation and the one-ply search.
pub(super) const EVAL_ORDER_DIVISOR: i32 = 24;
/// The same for the two- and three-ply searches (from [`ORDER_DEPTH_2_MIN`] empties), whose
/// values are worth more against mobility. 12 rather than the 24 of the shallower keys: 20% fewer
/// nodes on ten 28-empty positions of `exact-28.obf` (docs/dev/TRANSITION.md, "Sixth session").
pub(super) const DEEP_ORDER_DIVISOR: i32 = 12;
/// Weight of the opponent's potential mobility in the fastest-first key (mobility weighs 16).
pub(super) const POTENTIAL_WEIGHT: i32 = 2;
/// Key bonus of a move to a corner, and penalty of a move to an X-square (diagonally next to
/// a corner), in the same units: the square's own worth, which the opponent's replies alone
/// do not see. With [`FLIP_WEIGHT`], 6% fewer nodes on `exact-24.obf` (first 20), where 4 to
/// 8 each did about as well (docs/dev/PERFORMANCE.md, session 48).
pub(super) const CORNER_MOVE_BONUS: i32 = 6;
/// See [`CORNER_MOVE_BONUS`].
pub(super) const X_MOVE_PENALTY: i32 = 6;
/// Key penalty of each disc a move flips: quiet moves first, the fewer new frontier discs.
pub(super) const FLIP_WEIGHT: i32 = 1;
/// An ordering evaluation made at a node with fewer empty squares than this (of the node's
/// children, or of the node itself at an ordering search's leaf) uses the evaluator's solver
/// weights ([`Evaluator::solve_order_in`]; for the embedded default, pattern-v5's 46
/// placements instead of pattern-v6's 58); from this many, its own ordering values. Near the end
/// the smaller weights order as well for less work; the leaves of the deeper ordering searches
/// are ordered better by the larger ones. Chosen on `exact-24.obf` (first 20) and `exact-28.obf`
/// (first 3): docs/dev/PERFORMANCE.md, session 43.
pub const SOLVE_WEIGHTS_BELOW: u32 = 19;
/// The ordering key of the table's move: above any other move's.
pub(super) const TT_KEY: i32 = 1000;

impl<E: Evaluator, C: Cpu> Solver<'_, '_, E, C> {
    /// Fills `list` with the moves of `mv`, keyed for ordering; returns how many.
    ///
    /// Key (higher is tried first): the table's move first, then fastest-first (the
    /// opponent's reply count, corners counting as fewer), with small terms for odd-parity
    /// regions, corners, X-squares and the flips, and from [`EVAL_ORDER_MIN`] empties the evaluation (see
    /// [`Solver::add_eval_keys`]).
    #[inline(always)]
    pub(super) fn order(
        &mut self,
        p: u64,
        o: u64,
        mv: u64,
        tt_move: Option<Square>,
        list: &mut MoveList,
    ) -> usize {
        let count = self.order_by_mobility(p, o, mv, tt_move, list);
        self.add_eval_keys(p, o, &mut list[..count]);
        count
    }

    /// [`Solver::order`] without the evaluation, the costly part of the key: what a node needs
    /// before it searches the table's move, which usually ends a cut node by itself.
    #[inline(always)]
    pub(super) fn order_by_mobility(
        &self,
        p: u64,
        o: u64,
        mv: u64,
        tt_move: Option<Square>,
        list: &mut MoveList,
    ) -> usize {
        let odd = odd_quadrants(!(p | o));
        let n = (!(p | o)).count_ones();
        let mut count = 0;
        for sq in squares(mv) {
            let f = C::flips(sq, p, o);
            let (cp, co) = (o ^ f, p ^ f ^ sq.bit());
            if n > SHALLOW_MAX + 1 && n <= LEAF_MAX + 1 {
                // The child will probe the leaf table: start loading its slot now.
                self.leaf.prefetch(cp, co);
            } else if n > LEAF_MAX + 1 {
                // The child will probe the main table (and ETC may probe it sooner): its
                // cluster is a likely cache miss, so start loading it now, in parallel with
                // the other children's (8% fewer cycles on FFO #48).
                self.cx
                    .tt
                    .prefetch_in(table_key(cp, co), super::region(n - 1));
            }
            let replies = C::moves(cp, co);
            let potential = (neighbours(co) & !(cp | co)).count_ones() as i32;
            let mut cost = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32 * 16;
            cost += potential * POTENTIAL_WEIGHT;
            cost -= ((sq.bit() & odd) != 0) as i32 * 4;
            cost -= ((sq.bit() & CORNERS) != 0) as i32 * CORNER_MOVE_BONUS;
            cost += ((sq.bit() & X_SQUARES) != 0) as i32 * X_MOVE_PENALTY;
            cost += f.count_ones() as i32 * FLIP_WEIGHT;
            // The cost above is lower-first; the list sorts higher first.
            let key = if Some(sq) == tt_move { TT_KEY } else { -cost };
            list[count] = Candidate {
                sq: sq.index() as u8,
                key,
                flips: f,
            };
            count += 1;
        }
        count
    }

    /// Adds the evaluation to the keys of `list` (moves from (`p`, `o`)) from
    /// [`EVAL_ORDER_MIN`] empties: far from the end, the opponent's static evaluation of the
    /// result (or, from [`SEARCH_ORDER_MIN`], of a one-ply search from it) says more than
    /// mobility alone. The table's move keeps its key.
    #[inline(always)]
    pub(super) fn add_eval_keys(&mut self, p: u64, o: u64, list: &mut [Candidate]) {
        let n = (!(p | o)).count_ones();
        if n < EVAL_ORDER_MIN {
            return;
        }
        for c in list.iter_mut().filter(|c| c.key != TT_KEY) {
            let sq = Square::from_index_masked(c.sq as u32);
            let (cp, co) = (o ^ c.flips, p ^ c.flips ^ sq.bit());
            let v = if n >= SEARCH_ORDER_MIN {
                self.cx.push(p, o, sq, c.flips);
                let v = if n >= ORDER_DEPTH_3_MIN {
                    self.order_search(cp, co, 3, -INF * 100, INF * 100) / DEEP_ORDER_DIVISOR
                } else if n >= ORDER_DEPTH_2_MIN {
                    self.order_search(cp, co, 2, -INF * 100, INF * 100) / DEEP_ORDER_DIVISOR
                } else {
                    self.shallow(cp, co, C::moves(cp, co)) / EVAL_ORDER_DIVISOR
                };
                self.cx.pop();
                v
            } else {
                self.order_child_eval(p, o, sq, c.flips) / EVAL_ORDER_DIVISOR
            };
            c.key -= v;
        }
    }

    /// A one-ply search with the evaluator: the value for the side to move of the current node
    /// (`p`, `o`), whose moves are `mv`, in centi-discs.
    #[inline(always)]
    fn shallow(&mut self, p: u64, o: u64, mv: u64) -> i32 {
        if mv == 0 {
            self.cx.pass();
            let v = -self.order_eval(o, p);
            self.cx.pop();
            return v;
        }
        let mut best = i32::MIN;
        for sq in squares(mv) {
            let f = C::flips(sq, p, o);
            let v = -self.order_child_eval(p, o, sq, f);
            best = best.max(v);
        }
        best
    }

    /// [`Self::order_eval`] of the child of the current node (`p`, `o`) reached by `sq`
    /// flipping `flips`, without visiting it: siblings share work through the evaluator's state
    /// (see [`crate::eval::pattern::siblings`]).
    #[inline(always)]
    fn order_child_eval(&mut self, p: u64, o: u64, sq: Square, flips: u64) -> i32 {
        self.order_evals.set(self.order_evals.get() + 1);
        if (!(p | o)).count_ones() < SOLVE_WEIGHTS_BELOW {
            self.cx.solve_order_child::<C>(p, o, sq, flips)
        } else {
            self.cx.order_child::<C>(p, o, sq, flips)
        }
    }

    /// The evaluation of the current node (`p`, `o`) for the side to move, centi-discs,
    /// counted as an ordering evaluation.
    #[inline(always)]
    fn order_eval(&mut self, p: u64, o: u64) -> i32 {
        self.order_evals.set(self.order_evals.get() + 1);
        if (!(p | o)).count_ones() < SOLVE_WEIGHTS_BELOW {
            self.cx.solve_order_value::<C>(p, o)
        } else {
            self.cx.order_value::<C>(p, o)
        }
    }

    /// An alpha-beta search of `depth` plies with the evaluator at its leaves, for ordering
    /// far from the end: the value of (`p`, `o`) for the side to move, centi-discs, within
    /// (`alpha`, `beta`), fail-soft. No table: these searches are small and many.
    #[inline(always)]
    pub(super) fn order_search(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        C::call6(Self::order_search_body, self, p, o, depth, alpha, beta)
    }

    /// The body of [`Solver::order_search`], compiled inside its trampoline ([`Cpu::call6`]):
    /// as a plain recursive function it would be compiled for the baseline instructions, with
    /// the path's move and flip kernels called out of line and `count_ones` in software.
    #[inline(always)]
    fn order_search_body(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.order_eval(p, o);
        }
        let mv = C::moves(p, o);
        if mv == 0 {
            if C::moves(o, p) == 0 {
                return final_score(p, o) * 100;
            }
            self.cx.pass();
            let v = -self.order_search(o, p, depth, -beta, -alpha);
            self.cx.pop();
            return v;
        }
        let mut best = -INF * 100;
        for sq in squares(mv) {
            let f = C::flips(sq, p, o);
            self.cx.push(p, o, sq, f);
            let v = -self.order_search(o ^ f, p ^ f ^ sq.bit(), depth - 1, -beta, -alpha);
            self.cx.pop();
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
