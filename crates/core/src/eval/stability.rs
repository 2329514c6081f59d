//! Stable discs: discs that no sequence of moves can ever flip.
//!
//! The method is the one used by parallel and endgame Othello searchers (it is, for instance, how
//! Edax bounds endgame scores): a conservative, fast subset of the truly stable discs, grown from
//! the edges inwards.
//!
//! 1. **Edges, exactly.** A disc on an edge can only be flipped along that edge, and only by
//!    placements on that edge. So for each of the 3^8 contents of an edge line we can afford an
//!    exact analysis: the player's discs that stay the player's after any sequence of placements
//!    on the empty squares of the line by either side, each flipping what it brackets along the
//!    line (a placement that brackets nothing is allowed too: it may be legal through the
//!    interior). The table is computed at compile time, fullest lines first:
//!    `stable(p, o) = p ∩ ⋂ stable(after each placement)`.
//! 2. **Full lines.** A placement can only flip along the four lines through it, so a disc whose
//!    line in some direction is completely filled can never be flipped along that direction. The
//!    filled lines of the four directions are computed at once with shifts: folding each row into
//!    one bit (horizontal), rotating by whole rows (vertical) and parallel-prefix doubling with
//!    board-edge masks (the two diagonals).
//! 3. **Growth.** An interior disc is stable if, in each of the four directions, its line is full
//!    or one of its two neighbours along that direction is a stable disc of its own colour (a run
//!    of one colour can only be flipped as a whole, and a stable end never flips). Starting from
//!    the stable edge discs and the discs with four full lines, this is iterated to a fixed point;
//!    each iteration is a handful of shifts, ORs and ANDs per direction.
//!
//! No allocation, no loop over squares; one early exit when nothing at all is stable.
//! [`stable_discs_both`] finds both sides' stable discs, sharing the full lines and the edge
//! gathers.

use crate::bitboard::{EDGES, FILE_A, FILE_H};

/// Squares of the top row (row 1).
const ROW_1: u64 = 0xFF;

/// Number of contents of one 8-square line: 3^8.
const LINE_CONFIGS: usize = 6561;

/// `LINE_BASE3[byte]`: the byte's bits read as base-3 digits (bit `k` weighs 3^k).
static LINE_BASE3: [u16; 256] = line_base3();

const fn line_base3() -> [u16; 256] {
    let mut out = [0u16; 256];
    let mut x = 0;
    while x < 256 {
        let (mut sum, mut w, mut k) = (0u16, 1u16, 0);
        while k < 8 {
            if x & (1 << k) != 0 {
                sum += w;
            }
            w = w.wrapping_mul(3);
            k += 1;
        }
        out[x] = sum;
        x += 1;
    }
    out
}

/// The discs of `mover` (a line byte) that a placement on `x` flips along the line.
const fn line_flips(x: u32, mover: u8, other: u8) -> u8 {
    let mut flips = 0u8;
    // Toward higher bits.
    let mut run = 0u8;
    let mut k = x + 1;
    while k < 8 && other & (1 << k) != 0 {
        run |= 1 << k;
        k += 1;
    }
    if k < 8 && mover & (1 << k) != 0 {
        flips |= run;
    }
    // Toward lower bits.
    run = 0;
    let mut k = x as i32 - 1;
    while k >= 0 && other & (1 << k) != 0 {
        run |= 1 << k;
        k -= 1;
    }
    if k >= 0 && mover & (1 << k) != 0 {
        flips |= run;
    }
    flips
}

/// `LINE_STABLE[base3(p) + 2 * base3(o)]`: the discs of `p` on an 8-square edge line (bits of a
/// byte) that can never be flipped, given the line's contents `p` and `o`.
static LINE_STABLE: [u8; LINE_CONFIGS] = line_stable();

const fn line_stable() -> [u8; LINE_CONFIGS] {
    let b3 = line_base3();
    let mut table = [0u8; LINE_CONFIGS];
    let mut discs = 8;
    loop {
        let mut p = 0usize;
        while p < 256 {
            let mut o = 0usize;
            while o < 256 {
                if p & o == 0 && (p | o).count_ones() == discs {
                    let (pb, ob) = (p as u8, o as u8);
                    let mut stable = pb;
                    let mut x = 0u32;
                    while x < 8 {
                        if (pb | ob) & (1 << x) == 0 {
                            // The player places on x.
                            let f = line_flips(x, pb, ob);
                            let (p2, o2) = (pb | f | (1 << x), ob & !f);
                            stable &=
                                table[b3[p2 as usize] as usize + 2 * b3[o2 as usize] as usize];
                            // The opponent places on x.
                            let f = line_flips(x, ob, pb);
                            let (p2, o2) = (pb & !f, ob | f | (1 << x));
                            stable &=
                                table[b3[p2 as usize] as usize + 2 * b3[o2 as usize] as usize];
                        }
                        x += 1;
                    }
                    table[b3[p] as usize + 2 * b3[o] as usize] = stable;
                }
                o += 1;
            }
            p += 1;
        }
        if discs == 0 {
            break;
        }
        discs -= 1;
    }
    table
}

/// The stable discs of `p` on a line with contents `p`, `o` (disjoint bytes).
#[inline(always)]
fn line_stable_discs(p: u8, o: u8) -> u8 {
    LINE_STABLE[LINE_BASE3[p as usize] as usize + 2 * LINE_BASE3[o as usize] as usize]
}

/// Column a gathered into a byte in reverse order: bit `k` = square a(8-k). The multiplier puts
/// bit `8r` at bit `63 - r` with no two partial products meeting, so nothing carries.
#[inline(always)]
fn column_a_reversed(bits: u64) -> u8 {
    ((bits & FILE_A).wrapping_mul(0x8040_2010_0804_0201) >> 56) as u8
}

/// The inverse of [`column_a_reversed`]: bit `k` of `line` goes to square a(8-k). The multiplier
/// puts bit `k` at bit `63 - 8k` (column h) and nothing else on column h.
#[inline(always)]
fn column_a_scatter(line: u8) -> u64 {
    ((line as u64).wrapping_mul(0x8040_2010_0804_0201) & FILE_H) >> 7
}

/// The player's discs on the four edges that can never be flipped (exact for edge discs).
/// `opponent` must not overlap `player` (squares claimed by both are read as the player's).
#[inline]
pub fn edge_stable_discs(player: u64, opponent: u64) -> u64 {
    let opponent = opponent & !player;
    let top = line_stable_discs(player as u8, opponent as u8) as u64;
    let bottom = (line_stable_discs((player >> 56) as u8, (opponent >> 56) as u8) as u64) << 56;
    let left = column_a_scatter(line_stable_discs(
        column_a_reversed(player),
        column_a_reversed(opponent),
    ));
    let right = column_a_scatter(line_stable_discs(
        column_a_reversed(player >> 7),
        column_a_reversed(opponent >> 7),
    )) << 7;
    top | bottom | left | right
}

/// Boundary masks for the diagonal doubling in [`full_lines`]: for distances 1, 2 and 4, the
/// squares whose neighbour at that distance (column step `dc`, row step `dr`) is off the board.
const fn off_board(dc: i32, dr: i32) -> [u64; 3] {
    let mut out = [0u64; 3];
    let mut k = 0;
    while k < 3 {
        let d = 1 << k;
        let mut sq = 0u32;
        while sq < 64 {
            let (c, r) = ((sq % 8) as i32 + dc * d, (sq / 8) as i32 + dr * d);
            if c < 0 || c > 7 || r < 0 || r > 7 {
                out[k] |= 1 << sq;
            }
            sq += 1;
        }
        k += 1;
    }
    out
}

/// `>> 9d` reads the square at (+d, +d); `<< 9d` the one at (-d, -d).
const OFF_SE: [u64; 3] = off_board(1, 1);
const OFF_NW: [u64; 3] = off_board(-1, -1);
/// `>> 7d` reads the square at (-d, +d); `<< 7d` the one at (+d, -d).
const OFF_SW: [u64; 3] = off_board(-1, 1);
const OFF_NE: [u64; 3] = off_board(1, -1);

/// The squares whose whole line is occupied, for each direction: `[horizontal, vertical,
/// a8-h1 diagonals (step 7), a1-h8 diagonals (step 9)]`.
#[inline]
pub fn full_lines(occupied: u64) -> [u64; 4] {
    // Rows: AND each row's 8 bits into its column-a bit, then spread it back over the row.
    let mut h = occupied & (occupied >> 4);
    h &= h >> 2;
    h &= h >> 1;
    let h = (h & FILE_A).wrapping_mul(ROW_1);
    // Columns: rotating by whole rows keeps columns; three rotations AND all eight rows.
    let mut v = occupied & occupied.rotate_left(32);
    v &= v.rotate_left(16);
    v &= v.rotate_left(8);
    // Diagonals: after step k, a square is set when it and the next 2^k - 1 squares along the
    // direction (or all of them up to the board edge) are occupied.
    let mut se = occupied;
    se &= (se >> 9) | OFF_SE[0];
    se &= (se >> 18) | OFF_SE[1];
    se &= (se >> 36) | OFF_SE[2];
    let mut nw = occupied;
    nw &= (nw << 9) | OFF_NW[0];
    nw &= (nw << 18) | OFF_NW[1];
    nw &= (nw << 36) | OFF_NW[2];
    let mut sw = occupied;
    sw &= (sw >> 7) | OFF_SW[0];
    sw &= (sw >> 14) | OFF_SW[1];
    sw &= (sw >> 28) | OFF_SW[2];
    let mut ne = occupied;
    ne &= (ne << 7) | OFF_NE[0];
    ne &= (ne << 14) | OFF_NE[1];
    ne &= (ne << 28) | OFF_NE[2];
    [h, v, sw & ne, se & nw]
}

/// The player's stable discs: a subset of `player` that no sequence of moves can flip.
///
/// Edge discs are found exactly (for what the edge alone shows); interior discs through full
/// lines and growth from stable neighbours (see the module documentation). Sound for any input:
/// squares claimed by both sides are read as the player's.
#[inline(always)]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let opponent = opponent & !player;
    let stable = edge_stable_discs(player, opponent);
    let interior = player & !EDGES;
    if interior == 0 {
        return stable;
    }
    let full = full_lines(player | opponent);
    let stable = stable | (interior & full[0] & full[1] & full[2] & full[3]);
    grow(stable, interior, &full)
}

/// The stable discs of both sides, `(player's, opponent's)`: the same as two calls of
/// [`stable_discs`], sharing the work that depends only on the occupied squares.
#[inline]
pub fn stable_discs_both(player: u64, opponent: u64) -> (u64, u64) {
    let opponent = opponent & !player;
    let (edge_p, edge_o) = edge_stable_discs_both(player, opponent);
    let (inner_p, inner_o) = (player & !EDGES, opponent & !EDGES);
    if inner_p | inner_o == 0 {
        return (edge_p, edge_o);
    }
    let full = full_lines(player | opponent);
    let all_full = full[0] & full[1] & full[2] & full[3];
    (
        grow(edge_p | (inner_p & all_full), inner_p, &full),
        grow(edge_o | (inner_o & all_full), inner_o, &full),
    )
}

/// Both sides' stable edge discs, `(player's, opponent's)`, sharing the line gathers.
#[inline]
fn edge_stable_discs_both(player: u64, opponent: u64) -> (u64, u64) {
    // Each line's stable discs for both colours, from one pair of base-3 lookups.
    let line = |p: u8, o: u8| {
        let (bp, bo) = (
            LINE_BASE3[p as usize] as usize,
            LINE_BASE3[o as usize] as usize,
        );
        (LINE_STABLE[bp + 2 * bo], LINE_STABLE[bo + 2 * bp])
    };
    let (top_p, top_o) = line(player as u8, opponent as u8);
    let (bottom_p, bottom_o) = line((player >> 56) as u8, (opponent >> 56) as u8);
    let (left_p, left_o) = line(column_a_reversed(player), column_a_reversed(opponent));
    let (right_p, right_o) = line(
        column_a_reversed(player >> 7),
        column_a_reversed(opponent >> 7),
    );
    let assemble = |top: u8, bottom: u8, left: u8, right: u8| {
        top as u64 | (bottom as u64) << 56 | column_a_scatter(left) | column_a_scatter(right) << 7
    };
    (
        assemble(top_p, bottom_p, left_p, right_p),
        assemble(top_o, bottom_o, left_o, right_o),
    )
}

/// Grows `stable` (already stable discs of one colour) over that colour's `interior` discs to the
/// fixed point: a disc joins when each direction is full or has a stable neighbour.
#[inline(always)]
fn grow(mut stable: u64, interior: u64, full: &[u64; 4]) -> u64 {
    if stable == 0 {
        // Nothing to grow from: with no stable neighbour anywhere, only discs with four full
        // lines could be stable, and those are already included.
        return 0;
    }
    // Interior squares have all eight neighbours on the board, so the shifts need no masks.
    let [full_h, full_v, full_7, full_9] = *full;
    loop {
        let h = full_h | (stable >> 1) | (stable << 1);
        let v = full_v | (stable >> 8) | (stable << 8);
        let d7 = full_7 | (stable >> 7) | (stable << 7);
        let d9 = full_9 | (stable >> 9) | (stable << 9);
        let grown = stable | (interior & h & v & d7 & d9);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn both_sides_at_once_match_two_calls() {
        let mut x = 0xDEAD_BEEF_1234_5678u64;
        for i in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // From sparse to full boards.
            let occupied = match i % 3 {
                0 => x & x.rotate_left(9),
                1 => x | x.rotate_left(23),
                _ => u64::MAX,
            };
            let (p, o) = (occupied & x.rotate_left(31), occupied & !x.rotate_left(31));
            assert_eq!(
                stable_discs_both(p, o),
                (stable_discs(p, o), stable_discs(o, p))
            );
            assert_eq!(edge_stable_discs_both(p, o).0, edge_stable_discs(p, o));
            assert_eq!(edge_stable_discs_both(p, o).1, edge_stable_discs(o, p));
        }
    }

    #[test]
    fn column_gather_and_scatter_are_inverse() {
        assert_eq!(column_a_reversed(Square::A8.bit()), 1);
        assert_eq!(column_a_reversed(Square::A1.bit()), 0x80);
        for line in 0..=255u8 {
            assert_eq!(column_a_reversed(column_a_scatter(line)), line);
            assert_eq!(column_a_scatter(line) & !FILE_A, 0);
        }
    }

    #[test]
    fn line_flips_bracket_along_the_line() {
        // Player on bit 0, opponent on bits 1 and 2: a placement on bit 3 flips 1 and 2.
        assert_eq!(line_flips(3, 0b0000_0001, 0b0000_0110), 0b0000_0110);
        assert_eq!(line_flips(3, 0b0000_0000, 0b0000_0110), 0);
        assert_eq!(line_flips(0, 0b1000_0000, 0b0111_1110), 0b0111_1110);
    }

    #[test]
    fn line_table_knows_corners_walls_and_weak_discs() {
        // A corner is always stable.
        assert_eq!(line_stable_discs(0b0000_0001, 0), 1);
        // A wall from a corner is stable; a lone middle disc is not.
        assert_eq!(line_stable_discs(0b0000_0111, 0), 0b111);
        assert_eq!(line_stable_discs(0b0001_0000, 0), 0);
        // Full line: everything is stable, both colours.
        assert_eq!(line_stable_discs(0b1010_1010, 0b0101_0101), 0b1010_1010);
        // X on a1 and c1, O on b1: O's b1 falls after O d1 (flips c1) and X e1 (flips b1..d1).
        assert_eq!(line_stable_discs(0b0000_0010, 0b0000_0101), 0);
        assert_eq!(line_stable_discs(0b0000_0101, 0b0000_0010), 0b0000_0001);
        // O on a1..c1 and X on d1: O on e1 flips d1, so it is not stable.
        assert_eq!(line_stable_discs(0b0000_1000, 0b0000_0111), 0);
        // X on a1..d1 with O on e1: X's wall to the corner is stable.
        assert_eq!(line_stable_discs(0b0000_1111, 0b0001_0000), 0b0000_1111);
    }

    #[test]
    fn full_lines_by_direction() {
        // Only row 3 full.
        let row3 = 0xFFu64 << 16;
        let [h, v, d7, d9] = full_lines(row3);
        assert_eq!(h, row3);
        assert_eq!(v, 0);
        // The single-square diagonals are the corners a1, h8 (step 9) and h1, a8 (step 7).
        assert_eq!(d9, 0);
        assert_eq!(d7, 0);
        let [_, _, d7, d9] = full_lines(Square::A1.bit() | Square::H1.bit());
        assert_eq!(d9, Square::H1.bit());
        assert_eq!(d7, Square::A1.bit());
        // The long a1-h8 diagonal.
        let diag: u64 = 0x8040_2010_0804_0201;
        let [h, v, d7, d9] = full_lines(diag);
        assert_eq!((h, v), (0, 0));
        assert_eq!(d9, diag);
        // a1 and h8 are also one-square lines of the other diagonal direction.
        assert_eq!(d7, Square::A1.bit() | Square::H8.bit());
        // Full board: everything is full.
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        assert_eq!(full_lines(0), [0; 4]);
    }

    #[test]
    fn full_lines_match_a_square_by_square_check() {
        let dirs = [(1, 0), (0, 1), (-1, 1), (1, 1)];
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = x | x.rotate_left(11) | x.rotate_left(29); // dense boards
            let fast = full_lines(occupied);
            for (d, &(dc, dr)) in dirs.iter().enumerate() {
                for sq in 0..64i32 {
                    let mut full = true;
                    for sign in [-1, 1] {
                        let (mut c, mut r) = (sq % 8, sq / 8);
                        while (0..8).contains(&c) && (0..8).contains(&r) {
                            full &= occupied & (1 << (r * 8 + c)) != 0;
                            c += sign * dc;
                            r += sign * dr;
                        }
                    }
                    assert_eq!(fast[d] >> sq & 1 != 0, full, "dir {d} square {sq}");
                }
            }
        }
    }
}
