//! The move loop of a principal-variation node, shared by the midgame search and the exact
//! solver: the first move with the full window; every later move with a null window, and a
//! re-search with the full window when the null window lands strictly inside it (PVS, the
//! zero-window search PAIP describes at the end of chapter 18). In a parallel search the
//! children other threads are searching go last ([`super::busy`]). Every child is visited
//! through the evaluator's state ([`super::Context::push`] and `pop`).
//!
//! The two searches differ only in how they search a child (their own recursions, their own
//! value scales), which [`PvSearch`] says.

use crate::square::Square;

use super::busy::{child_key, enter, BusyTable};
use super::order::{Cursor, MoveList};

/// What the PV move loop needs of a search.
pub(crate) trait PvSearch<'b> {
    /// Below every value of the search's scale.
    const FLOOR: i32;

    /// The marks of the parallel search this search is a thread of, if any.
    fn busy(&self) -> Option<&'b BusyTable>;

    /// Whether every move gets the full window (plain alpha-beta, for the tests).
    fn plain(&self) -> bool {
        false
    }

    /// Visits the child of the current node (`p`, `o`) reached by `sq` flipping `flips`.
    fn push(&mut self, p: u64, o: u64, sq: Square, flips: u64);

    /// Returns to the parent.
    fn pop(&mut self);

    /// Whether the search was stopped.
    fn stopped(&self) -> bool;

    /// The value of the visited child (`p`, `o`) within (`alpha`, `beta`), `depth` its depth
    /// (plies or empties), from the child's side.
    fn full(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32) -> i32;

    /// The null-window search (`alpha`, `alpha + 1`) of the visited child (`p`, `o`).
    fn null(&mut self, p: u64, o: u64, alpha: i32, depth: u32) -> i32;
}

/// The move loop of a PV node (`p`, `o`) of `depth` over the first `count` moves of `list`,
/// within (`alpha`, `beta`); `defer`: whether to set aside the moves other threads are
/// searching. The best value (fail-soft) and its move, or `None` if the search was stopped.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn pv_moves<'b, S: PvSearch<'b>>(
    search: &mut S,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    depth: u32,
    defer: bool,
    list: &mut MoveList,
    count: usize,
) -> Option<(i32, Option<Square>)> {
    let mut best = S::FLOOR;
    let mut best_sq = None;
    let busy = search.busy().filter(|_| defer);
    let plain = search.plain();
    let mut cursor = Cursor::new(count);
    while let Some(c) = cursor.next(list, |c| {
        busy.is_some_and(|b| b.is_busy(child_key(p, o, c)))
    }) {
        let sq = Square::from_index_masked(c.sq as u32);
        let (cp, co) = (o ^ c.flips, p ^ c.flips ^ sq.bit());
        let child = busy.map(|b| enter(b, cp, co));
        search.push(p, o, sq, c.flips);
        let v = if cursor.first() || plain {
            -search.full(cp, co, -beta, -alpha, depth - 1)
        } else {
            let v = -search.null(cp, co, -alpha - 1, depth - 1);
            if v > alpha && v < beta {
                -search.full(cp, co, -beta, -alpha, depth - 1)
            } else {
                v
            }
        };
        search.pop();
        if let (Some(b), Some(k)) = (busy, child) {
            b.leave(k);
        }
        if search.stopped() {
            return None;
        }
        if v > best {
            best = v;
            best_sq = Some(sq);
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    Some((best, best_sq))
}
