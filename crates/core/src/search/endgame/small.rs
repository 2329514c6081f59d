//! The last four empties, hand-specialised as in Edax's `endgame.c`: the empty squares are
//! passed as arguments, there is no move list and no allocation, and the last square is scored
//! by counting flips alone ([`crate::last_flip`]). With 4 empties the squares are tried in
//! parity order: squares in a quadrant with an odd number of empties first (the player who
//! moves last in a region usually gains there), C- and X-squares last within each group.
//! The 4-empty node first tries the stability cut-off (the opponent's stable discs bound the
//! score from above), as the deeper nodes do.

use crate::bitboard::{squares, NEIGHBOURS};
use crate::board::final_score;
use crate::cpu::Cpu;
use crate::eval::Evaluator;
use crate::last_flip::count_last_flips_on;
use crate::square::Square;

use super::{Solver, INF, SHALLOW_FIRST};

/// Quadrant masks, for parity.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The squares lying in quadrants with an odd number of empties.
#[inline(always)]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    let mut m = 0;
    for q in QUADRANTS {
        m |= q & 0u64.wrapping_sub(((empty & q).count_ones() & 1) as u64);
    }
    m
}

/// The discs a move on the empty square `sq` flips, 0 at once when no opponent's disc is next
/// to it (most empty squares near the end, and the test is cheaper than the flips).
#[inline(always)]
fn flips_near<C: Cpu>(sq: Square, p: u64, o: u64) -> u64 {
    if NEIGHBOURS[sq.index()] & o == 0 {
        return 0;
    }
    C::flips(sq, p, o)
}

/// The score when `sq` is the last empty square: whoever can move there does, or the board is
/// final with the empty going to the winner.
#[inline(always)]
pub(super) fn last1<C: Cpu>(player: u64, opponent: u64, sq: Square) -> i32 {
    let n = player.count_ones() as i32;
    let f = count_last_flips_on::<C>(sq, player) as i32;
    if f > 0 {
        return 2 * (n + f + 1) - 64;
    }
    let f = count_last_flips_on::<C>(sq, opponent) as i32;
    if f > 0 {
        return 2 * (n - f) - 64;
    }
    if 2 * n > 63 {
        2 * n - 62
    } else {
        2 * n - 64
    }
}

impl<E: Evaluator, C: Cpu> Solver<'_, '_, E, C> {
    /// Dispatch to the hand-written solvers for 0 to 4 empties.
    #[inline(always)]
    pub(super) fn small_exact(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        passed: bool,
    ) -> i32 {
        let empty = !(p | o);
        match n {
            0 => final_score(p, o),
            1 => {
                self.cx.nodes += 1;
                last1::<C>(p, o, Square::from_lowest_bit(empty))
            }
            2 => {
                let a = Square::from_lowest_bit(empty);
                let b = Square::from_lowest_bit(empty & (empty - 1));
                self.last2(p, o, alpha, beta, a, b, passed)
            }
            3 => {
                let a = Square::from_lowest_bit(empty);
                let rest = empty & (empty - 1);
                let b = Square::from_lowest_bit(rest);
                let c = Square::from_lowest_bit(rest & (rest - 1));
                self.last3(p, o, alpha, beta, [a, b, c], passed)
            }
            _ => {
                // Parity order (squares of odd quadrants first), C- and X-squares last in each.
                let odd = odd_quadrants(empty);
                let mut sq = [Square::A1; 4];
                for (k, s) in squares(empty & odd & SHALLOW_FIRST)
                    .chain(squares(empty & odd & !SHALLOW_FIRST))
                    .chain(squares(empty & !odd & SHALLOW_FIRST))
                    .chain(squares(empty & !odd & !SHALLOW_FIRST))
                    .enumerate()
                {
                    sq[k] = s;
                }
                self.last4(p, o, alpha, beta, sq, passed)
            }
        }
    }

    /// Two empties, `a` and `b`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn last2(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: Square,
        b: Square,
        passed: bool,
    ) -> i32 {
        C::call8(Self::last2_body, self, p, o, alpha, beta, a, b, passed)
    }

    /// The body of [`Solver::last2`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn last2_body(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: Square,
        b: Square,
        passed: bool,
    ) -> i32 {
        self.cx.nodes += 1;
        let mut best = -INF;
        let f = flips_near::<C>(a, p, o);
        if f != 0 {
            self.cx.nodes += 1;
            best = -last1::<C>(o ^ f, p ^ f ^ a.bit(), b);
            if best >= beta {
                return best;
            }
        }
        let f = flips_near::<C>(b, p, o);
        if f != 0 {
            self.cx.nodes += 1;
            let v = -last1::<C>(o ^ f, p ^ f ^ b.bit(), a);
            best = best.max(v);
        }
        if best > -INF {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -self.last2(o, p, -beta, -alpha, a, b, true)
    }

    /// Three empties.
    #[inline(always)]
    fn last3(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        e: [Square; 3],
        passed: bool,
    ) -> i32 {
        C::call7(Self::last3_body, self, p, o, alpha, beta, e, passed)
    }

    /// The body of [`Solver::last3`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn last3_body(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        e: [Square; 3],
        passed: bool,
    ) -> i32 {
        self.cx.nodes += 1;
        let mut best = -INF;
        for (sq, r1, r2) in [(e[0], e[1], e[2]), (e[1], e[0], e[2]), (e[2], e[0], e[1])] {
            let f = flips_near::<C>(sq, p, o);
            if f != 0 {
                let v = -self.last2(o ^ f, p ^ f ^ sq.bit(), -beta, -alpha, r1, r2, false);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -self.last3(o, p, -beta, -alpha, e, true)
    }

    /// Four empties, already in parity order.
    #[inline(always)]
    fn last4(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        e: [Square; 4],
        passed: bool,
    ) -> i32 {
        C::call7(Self::last4_body, self, p, o, alpha, beta, e, passed)
    }

    /// The body of [`Solver::last4`], compiled inside its trampoline ([`Cpu::call7`] and the like).
    #[inline(always)]
    fn last4_body(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        e: [Square; 4],
        passed: bool,
    ) -> i32 {
        self.cx.nodes += 1;
        if let Some(v) = super::stability_cutoff(p, o, alpha) {
            return v;
        }
        let mut best = -INF;
        let orders = [
            (e[0], [e[1], e[2], e[3]]),
            (e[1], [e[0], e[2], e[3]]),
            (e[2], [e[0], e[1], e[3]]),
            (e[3], [e[0], e[1], e[2]]),
        ];
        for (sq, rest) in orders {
            let f = flips_near::<C>(sq, p, o);
            if f != 0 {
                let v = -self.last3(o ^ f, p ^ f ^ sq.bit(), -beta, -alpha, rest, false);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -self.last4(o, p, -beta, -alpha, e, true)
    }
}
