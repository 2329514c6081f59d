//! Bit helpers for 64-bit boards: masks, iteration over set bits, and the eight symmetries.
//!
//! Bit `i` is square `i` (see [`crate::square`]): shifting left by 1 moves one column right
//! (east), by 8 one row down (south). Symmetries use the classic delta-swap formulas (mirror,
//! flip and transpose by masked swaps; see the Chess Programming Wiki's "Flipping Mirroring and
//! Rotating" for the derivation).

use crate::square::Square;

/// Squares in column a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Squares in column h.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Columns b..g: the only squares a horizontal or diagonal line of flips can pass through.
pub const INNER_COLUMNS: u64 = !(FILE_A | FILE_H);
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The X-squares (diagonally next to a corner): b2, g2, b7, g7.
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// The C-squares (next to a corner along an edge).
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// The outer ring of 28 squares.
pub const EDGES: u64 = 0xFF81_8181_8181_81FF;

/// An iterator over the squares of a bitboard, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_lowest_bit(self.0);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

/// The squares of a bitboard, lowest index first.
#[inline(always)]
pub fn squares(bits: u64) -> Squares {
    Squares(bits)
}

/// The squares next to any square of `bits` (all eight directions), excluding `bits` itself
/// only where it is not also a neighbour.
#[inline]
pub fn neighbours(bits: u64) -> u64 {
    let h = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
    let row = bits | h;
    h | (row << 8) | (row >> 8)
}

/// [`neighbours`] of each square, by index: a move on a square can flip only if an opponent's
/// disc is among these.
pub const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let bits = 1u64 << i;
        let h = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
        let row = bits | h;
        table[i] = h | (row << 8) | (row >> 8);
        i += 1;
    }
    table
};

/// Mirror top-bottom: row 1 <-> row 8.
#[inline]
pub fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left-right: column a <-> column h.
#[inline]
pub fn mirror_horizontal(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Reflect in the a1-h8 diagonal: square (column c, row r) goes to (column r, row c).
#[inline]
pub fn flip_diagonal(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut b = b;
    let t = K4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = K2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// One of the eight symmetries of the square (the dihedral group D4), numbered 0..8.
///
/// Bit 0 mirrors left-right, bit 1 mirrors top-bottom, bit 2 reflects in the a1-h8 diagonal;
/// they are applied in that order. 0 is the identity.
#[inline]
pub fn symmetry(b: u64, sym: u8) -> u64 {
    let b = if sym & 1 != 0 {
        mirror_horizontal(b)
    } else {
        b
    };
    let b = if sym & 2 != 0 { flip_vertical(b) } else { b };
    if sym & 4 != 0 {
        flip_diagonal(b)
    } else {
        b
    }
}

/// The image of one square under [`symmetry`] number `sym`.
pub fn symmetry_square(sq: Square, sym: u8) -> Square {
    Square::from_lowest_bit(symmetry(sq.bit(), sym))
}

/// Gathers the bits of `x` under `mask` into the low bits, lowest first (BMI2 `pext`).
#[inline(always)]
pub fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: this branch is compiled only when the whole build enables BMI2 (target-cpu
        // in .cargo/config.toml), so the `pext` instruction exists on the target; it has no
        // memory operands and no other preconditions.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_pext_u64(x, mask)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

/// Portable `pext`: the bits of `x` under `mask`, packed into the low bits in mask order.
#[inline]
pub fn pext_portable(x: u64, mask: u64) -> u64 {
    let mut m = mask;
    let mut out = 0u64;
    let mut k = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        out |= ((x & low != 0) as u64) << k;
        k += 1;
        m &= m - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_move_squares_where_expected() {
        assert_eq!(mirror_horizontal(Square::A1.bit()), Square::H1.bit());
        assert_eq!(flip_vertical(Square::A1.bit()), Square::A8.bit());
        assert_eq!(flip_diagonal(Square::H1.bit()), Square::A8.bit());
        assert_eq!(flip_diagonal(Square::B1.bit()), Square::A2.bit());
        for sq in Square::ALL {
            for sym in 0..8 {
                let img = symmetry_square(sq, sym);
                // A coordinate-level check of every symmetry.
                let (mut c, mut r) = (sq.column(), sq.row());
                if sym & 1 != 0 {
                    c = 7 - c;
                }
                if sym & 2 != 0 {
                    r = 7 - r;
                }
                if sym & 4 != 0 {
                    std::mem::swap(&mut c, &mut r);
                }
                assert_eq!(img, Square::from_coords(c, r).unwrap(), "{sq} sym {sym}");
            }
        }
    }

    #[test]
    fn the_neighbour_table_is_neighbours_of_each_square() {
        for (i, row) in NEIGHBOURS.iter().enumerate() {
            assert_eq!(*row, neighbours(1u64 << i), "square {i}");
            assert_eq!(
                row.count_ones(),
                [3, 5, 8]
                    [usize::from(i % 8 != 0 && i % 8 != 7) + usize::from(i / 8 != 0 && i / 8 != 7)],
                "square {i}"
            );
        }
    }

    #[test]
    fn neighbours_of_a_corner_and_a_centre_square() {
        let n = neighbours(Square::A1.bit());
        assert_eq!(n, Square::B1.bit() | Square::A2.bit() | Square::B2.bit());
        assert_eq!(neighbours(Square::D4.bit()).count_ones(), 8);
        assert_eq!(neighbours(Square::H5.bit()).count_ones(), 5);
    }

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(CORNERS.count_ones(), 4);
        assert_eq!(X_SQUARES.count_ones(), 4);
        assert_eq!(C_SQUARES.count_ones(), 8);
        assert_eq!(EDGES.count_ones(), 28);
        assert_eq!(
            squares(X_SQUARES)
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ["b2", "g2", "b7", "g7"]
        );
    }
}
