//! Counting the discs flipped by a move on the **last empty square**, for the endgame solver's
//! final ply.
//!
//! When only one square is empty, every other square holds a disc, so along any line through
//! it the discs that are not the mover's are the opponent's. The flips on that line then
//! depend only on where the empty square sits in the line and on which of the line's squares
//! are the mover's: an 8-bit pattern. So the count is four table lookups, one per line
//! through the square (row, column and both diagonals), each indexed by the mover's discs on
//! the line gathered with `pext` ([`crate::bitboard::pext`]). Solvers such as Edax count the
//! last flip the same way; the tables here are computed at compile time from the rule itself.
//!
//! A line shorter than eight squares leaves the high bits of its pattern zero, which reads as
//! opponent discs running off the end of the line: unflanked, so nothing flips there, which is
//! right.
//!
//! [`count_last_flips`] equals `flips(sq, player, !player & !sq).count_ones()` whenever `sq`
//! is the only empty square (tested below against [`crate::flip::flips`]).

use crate::cpu::Cpu;
#[cfg(test)]
use crate::cpu::Portable;
use crate::square::Square;

/// `LINE_FLIPS[pos][mine]`: discs flipped along a line of 8 by a move at `pos`, when `mine`
/// marks the mover's discs and every other square but `pos` is the opponent's.
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut mine = 0;
        while mine < 256 {
            let mut count = 0;
            // Toward higher positions.
            let mut run = 0;
            let mut k = pos + 1;
            while k < 8 && (mine >> k) & 1 == 0 {
                run += 1;
                k += 1;
            }
            if k < 8 {
                count += run;
            }
            // Toward lower positions.
            run = 0;
            let mut k = pos as i32 - 1;
            while k >= 0 && (mine >> k) & 1 == 0 {
                run += 1;
                k -= 1;
            }
            if k >= 0 {
                count += run;
            }
            t[pos][mine] = count as u8;
            mine += 1;
        }
        pos += 1;
    }
    t
}

/// The four lines through each square and the square's position in each (its rank among the
/// line's squares in increasing index order, which is `pext`'s order).
struct Lines {
    masks: [[u64; 4]; 64],
    pos: [[u8; 4]; 64],
}

static LINES: Lines = build_lines();

const fn build_lines() -> Lines {
    let mut masks = [[0u64; 4]; 64];
    let mut pos = [[0u8; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut line = 0;
        while line < 4 {
            // Row, column, diagonal (c - r constant), anti-diagonal (c + r constant).
            let mut mask = 0u64;
            let mut s = 0i32;
            while s < 64 {
                let (sc, sr) = (s % 8, s / 8);
                let on = match line {
                    0 => sr == r,
                    1 => sc == c,
                    2 => sc - sr == c - r,
                    _ => sc + sr == c + r,
                };
                if on {
                    mask |= 1u64 << s;
                }
                s += 1;
            }
            masks[sq][line] = mask;
            pos[sq][line] = (mask & ((1u64 << sq) - 1)).count_ones() as u8;
            line += 1;
        }
        sq += 1;
    }
    Lines { masks, pos }
}

/// The number of discs the owner of `player` flips by playing `sq`, assuming `sq` is the only
/// empty square (every other square not in `player` is an opponent disc). Zero when the move
/// is illegal.
#[inline(always)]
#[cfg(test)]
pub fn count_last_flips(sq: Square, player: u64) -> u32 {
    count_last_flips_on::<Portable>(sq, player)
}

/// [`count_last_flips`] with the bit gather of the code path `C`.
#[inline(always)]
pub fn count_last_flips_on<C: Cpu>(sq: Square, player: u64) -> u32 {
    let i = sq.index();
    let (m, p) = (&LINES.masks[i], &LINES.pos[i]);
    let mut n = 0u32;
    for k in 0..4 {
        let pattern = C::pext(player, m[k]) as usize & 0xFF;
        n += LINE_FLIPS[p[k] as usize & 7][pattern] as u32;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flip::flips;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn equals_the_flip_generator_when_one_square_is_empty(bits: u64, sq in 0usize..64) {
            let sq = Square::from_index(sq).unwrap();
            let player = bits & !sq.bit();
            let opponent = !player & !sq.bit();
            prop_assert_eq!(
                count_last_flips(sq, player),
                flips(sq, player, opponent).count_ones()
            );
            prop_assert_eq!(
                count_last_flips(sq, opponent),
                flips(sq, opponent, player).count_ones()
            );
        }
    }

    #[test]
    fn a_corner_with_a_full_flanked_row() {
        // a1 empty, b1..g1 the opponent's, h1 the mover's: six flips along the row only
        // (the column and the diagonal are all the opponent's, unflanked).
        let player = Square::H1.bit();
        assert_eq!(count_last_flips(Square::A1, player), 6);
        assert_eq!(count_last_flips(Square::A1, 0), 0);
    }
}
