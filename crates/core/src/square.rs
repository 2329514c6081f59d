//! Squares of the 8x8 board and their notations.
//!
//! Square `i` (0..64) is column `i % 8` (a..h, left to right) and row `i / 8` (1..8, top to
//! bottom), so `a1` is the top-left corner, `h1` the top-right and `h8` the bottom-right. Bit `i`
//! of a bitboard is square `i`. This is the order of the Edax/OBF board string and of GGF's `BO`.
//!
//! ```text
//!     a  b  c  d  e  f  g  h
//!  1  0  1  2  3  4  5  6  7
//!  2  8  9 10 11 12 13 14 15
//!  ...
//!  8 56 57 58 59 60 61 62 63
//! ```
//!
//! PAIP chapter 18 numbers the same squares 11..88 on a 10x10 mailbox (`10 * row + column`, both
//! counted from 1); [`Square::paip`] and [`Square::from_paip`] convert. Passes are not squares:
//! see [`crate::board::Move`].

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the 64 squares, `A1` (top-left) to `H8` (bottom-right). There is no sentinel value.
#[rustfmt::skip]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Square {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

/// Why a square name could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SquareError {
    /// The text was not two characters long (after trimming).
    #[error("a square is a column a-h and a row 1-8, like f5; got {0:?}")]
    BadLength(String),
    /// The column character was not `a`..`h` (either case).
    #[error("bad column {found:?} at position {index}: expected a-h")]
    BadColumn {
        /// The offending character.
        found: char,
        /// Its character index in the input.
        index: usize,
    },
    /// The row character was not `1`..`8`.
    #[error("bad row {found:?} at position {index}: expected 1-8")]
    BadRow {
        /// The offending character.
        found: char,
        /// Its character index in the input.
        index: usize,
    },
    /// A PAIP square number outside 11..88 or on the border.
    #[error("{0} is not a PAIP square number (11..88, last digit 1..8)")]
    BadPaip(i64),
}

impl Square {
    /// All squares in index order (a1, b1, ..., h8).
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [
        Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1,
        Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2,
        Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3,
        Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4,
        Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5,
        Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6,
        Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7,
        Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8,
    ];

    /// The square with index `i`, if `i < 64`.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 64 {
            Some(Square::ALL[i])
        } else {
            None
        }
    }

    /// The square with index `i & 63`; for trusted indices such as bit scans of a non-zero board.
    #[inline(always)]
    pub const fn from_index_masked(i: u32) -> Square {
        Square::ALL[(i & 63) as usize]
    }

    /// The lowest set square of a non-zero bitboard.
    ///
    /// # Panics
    /// In debug builds, if `bits == 0`.
    #[inline(always)]
    pub fn from_lowest_bit(bits: u64) -> Square {
        debug_assert!(bits != 0);
        Square::from_index_masked(bits.trailing_zeros())
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1), if both are below 8.
    #[inline]
    pub const fn from_coords(column: usize, row: usize) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square::ALL[row * 8 + column])
        } else {
            None
        }
    }

    /// Index 0..64 (`a1` = 0, `h1` = 7, `h8` = 63).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The single-bit bitboard of this square.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << (self as u8)
    }

    /// Column 0..8 (0 = a).
    #[inline]
    pub const fn column(self) -> usize {
        self as usize % 8
    }

    /// Row 0..8 (0 = row 1, the top).
    #[inline]
    pub const fn row(self) -> usize {
        self as usize / 8
    }

    /// PAIP's mailbox number `10 * (row + 1) + (column + 1)`, 11..88.
    #[inline]
    pub const fn paip(self) -> usize {
        10 * (self.row() + 1) + self.column() + 1
    }

    /// The square with PAIP number `n` (11..88, last digit 1..8).
    pub fn from_paip(n: i64) -> Result<Square, SquareError> {
        let (row, col) = (n.div_euclid(10), n.rem_euclid(10));
        if (1..=8).contains(&row) && (1..=8).contains(&col) {
            Ok(Square::ALL[(row as usize - 1) * 8 + col as usize - 1])
        } else {
            Err(SquareError::BadPaip(n))
        }
    }
}

impl fmt::Display for Square {
    /// Lower-case algebraic notation, `a1`..`h8`. `{:#}` gives upper case (`F5`), as NBoard and GGF
    /// write it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = b"abcdefgh"[self.column()];
        let col = if f.alternate() {
            col.to_ascii_uppercase()
        } else {
            col
        };
        write!(f, "{}{}", col as char, self.row() + 1)
    }
}

impl FromStr for Square {
    type Err = SquareError;

    /// Parses `a1`..`h8` in either case, ignoring surrounding whitespace.
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let t = s.trim();
        let mut chars = t.chars();
        let (Some(c), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(SquareError::BadLength(t.chars().take(16).collect()));
        };
        let offset = s.len() - s.trim_start().len();
        let offset = s[..offset].chars().count();
        let col = match c.to_ascii_lowercase() {
            ch @ 'a'..='h' => ch as usize - 'a' as usize,
            _ => {
                return Err(SquareError::BadColumn {
                    found: c,
                    index: offset,
                })
            }
        };
        let row = match r {
            '1'..='8' => r as usize - '1' as usize,
            _ => {
                return Err(SquareError::BadRow {
                    found: r,
                    index: offset + 1,
                })
            }
        };
        Ok(Square::ALL[row * 8 + col])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_both_cases() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(format!("{sq:#}").parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_paip(sq.paip() as i64), Ok(sq));
        }
        assert_eq!(Square::A1.to_string(), "a1");
        assert_eq!(Square::H1.index(), 7);
        assert_eq!(Square::A8.index(), 56);
        assert_eq!(format!("{:#}", Square::F5), "F5");
        assert_eq!(Square::F5.paip(), 56);
        assert_eq!(Square::H8.paip(), 88);
    }

    #[test]
    fn bad_names_are_errors_with_positions() {
        assert_eq!(
            "i1".parse::<Square>(),
            Err(SquareError::BadColumn {
                found: 'i',
                index: 0
            })
        );
        assert_eq!(
            " a9".parse::<Square>(),
            Err(SquareError::BadRow {
                found: '9',
                index: 2
            })
        );
        assert!(matches!(
            "a".parse::<Square>(),
            Err(SquareError::BadLength(_))
        ));
        assert!(matches!(
            "a10".parse::<Square>(),
            Err(SquareError::BadLength(_))
        ));
        assert!(matches!(
            "é1".parse::<Square>(),
            Err(SquareError::BadColumn { .. })
        ));
        for bad in [0, 9, 10, 19, 20, 89, 90, 100, -11] {
            assert_eq!(Square::from_paip(bad), Err(SquareError::BadPaip(bad)));
        }
    }
}
