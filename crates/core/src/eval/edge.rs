//! Iago's edge table: a value for every configuration of an edge and its two X-squares.
//!
//! PAIP section 18.12 ("Edge Stability"), after Rosenbloom's Iago (1982) and Lee and Mahajan's
//! Bill. An *edge* is ten squares: the eight squares of a board edge plus the two X-squares next
//! to its corners, listed as in PAIP's `edge-and-x-lists` ([`EDGES_AND_X`]): first X-square, the
//! eight edge squares from corner to corner, second X-square. Each square is empty (digit 0), the
//! mover's (1) or the opponent's (2); reading the digits as a base-3 number, first square most
//! significant, gives PAIP's `edge-index`, 0..3^10. The table holds, for each index, a value for
//! the side to move; [`edge_stability`] sums it over the four edges.
//!
//! The table is built once, on first use, by PAIP's `init-edge-table`:
//!
//! 1. **Static values** (`static-edge-stability`): every disc of the edge is classed as stable,
//!    semi-stable or unstable (`piece-stability`) and weighted by [`STATIC_EDGE_WEIGHTS`], plus
//!    for the mover's discs, minus for the opponent's. Corners are stable. An X-square is unstable
//!    while its corner is empty, semi-stable after. Another edge disc looks along the edge for the
//!    first square on each side that is not its own colour: if one side is empty and the other an
//!    opponent, it can be taken at once (unstable); if both are opponents and the edge still has
//!    an empty square, or both are empty, it is semi-stable; otherwise (a wall of its own colour
//!    reaches a corner, or it is wedged in a full edge) it is stable.
//! 2. **Five passes of improvement** (`possible-edge-moves-value`), configurations with 9 discs
//!    first, then 8, ..., 1. A configuration's moves are every empty square of the ten; each move
//!    gets a probability of being available (`edge-move-probability`: 0.5 for an X-square, 1.0
//!    for a move that flips along the edge, 0.1/0.001/0.9 for a corner whose X-square is empty,
//!    the mover's or the opponent's, and for other squares a number depending on the owners of
//!    its two neighbours, halved if the opponent could take the square at once) and the value
//!    minus the table value of the position after it, seen by the opponent. Together with "no
//!    move" (probability 1, the current value), the moves are sorted best first and combined as
//!    an expectation: each move is taken with its probability if no better one was
//!    (`combine-edge-moves`). The result is rounded to an integer, as PAIP does.
//!
//! A configuration with `n` discs depends only on configurations with `n + 1` discs and its own
//! previous value, so the update order within one disc count does not matter. PAIP combines the
//! moves in single-float arithmetic after an unstable sort; here it is `f64` with ties in value
//! broken by probability, so that the table is exactly symmetric under mirroring an edge.
//!
//! Edge moves are analysed on the edge alone, as PAIP does: a move on an X-square flips nothing,
//! and a move on an edge square flips along the edge only (nothing else can be bracketed when the
//! rest of the board is unknown).
//!
//! Lookup reads the ten squares of an edge with shifts and a multiplication (to gather a column),
//! and converts the two 10-bit patterns to base 3 with a 1024-entry table: no loop, no allocation.

use std::sync::OnceLock;

use crate::bitboard::FILE_A;
use crate::board::Board;
use crate::square::Square;

/// Number of squares in an edge configuration: eight edge squares and two X-squares.
pub const EDGE_LEN: usize = 10;

/// Number of edge configurations, 3^10.
pub const EDGE_CONFIGS: usize = 59_049;

/// The table type: one value per configuration, for the side to move.
pub type EdgeTable = [i16; EDGE_CONFIGS];

/// PAIP's `edge-and-x-lists`: top, bottom, left and right edges, each as X-square, eight edge
/// squares, X-square.
#[rustfmt::skip]
pub const EDGES_AND_X: [[Square; EDGE_LEN]; 4] = {
    use Square::*;
    [
        [B2, A1, B1, C1, D1, E1, F1, G1, H1, G2],
        [B7, A8, B8, C8, D8, E8, F8, G8, H8, G7],
        [B2, A1, A2, A3, A4, A5, A6, A7, A8, B7],
        [G2, H1, H2, H3, H4, H5, H6, H7, H8, G7],
    ]
};

/// An edge square's content in a configuration: empty.
pub const EMPTY: u8 = 0;
/// An edge square's content in a configuration: a disc of the side to move.
pub const MOVER: u8 = 1;
/// An edge square's content in a configuration: a disc of the other side.
pub const OTHER: u8 = 2;

/// One edge: the contents ([`EMPTY`], [`MOVER`], [`OTHER`]) of its ten squares in
/// [`EDGES_AND_X`] order.
pub type EdgeConfig = [u8; EDGE_LEN];

/// How safe a disc on the edge is (PAIP's `piece-stability`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceStability {
    /// Can never be flipped.
    Stable = 0,
    /// Might be flipped later.
    SemiStable = 1,
    /// Can be flipped by the next move.
    Unstable = 2,
}

/// PAIP's `*static-edge-table*`: the weight of a disc on each of the ten squares, by stability
/// (columns: stable, semi-stable, unstable). Combinations that cannot occur (a stable X-square, an
/// unstable corner) are 0.
#[rustfmt::skip]
pub const STATIC_EDGE_WEIGHTS: [[i32; 3]; EDGE_LEN] = [
    [   0,   0, -2000], // X
    [ 700,   0,     0], // corner
    [1200, 200,   -25], // C
    [1000, 200,    75], // A
    [1000, 200,    50], // B
    [1000, 200,    50], // B
    [1000, 200,    75], // A
    [1200, 200,   -25], // C
    [ 700,   0,     0], // corner
    [   0,   0, -2000], // X
];

/// PAIP's probability that the mover can play an edge square that is not a corner or X-square
/// and flips nothing along the edge, by the number of the square's two edge neighbours owned by
/// the mover (row) and by the opponent (column). Entries for more than two neighbours cannot
/// occur.
pub const NEIGHBOUR_PROBABILITY: [[f64; 3]; 3] =
    [[0.1, 0.4, 0.7], [0.05, 0.3, 0.0], [0.01, 0.0, 0.0]];

/// The number of improvement passes over the table (PAIP's `init-edge-table` does five).
pub const PASSES: usize = 5;

/// The configuration of PAIP index `index` (taken modulo 3^10).
pub fn decode(index: usize) -> EdgeConfig {
    let mut index = index % EDGE_CONFIGS;
    let mut cells = [EMPTY; EDGE_LEN];
    for cell in cells.iter_mut().rev() {
        *cell = (index % 3) as u8;
        index /= 3;
    }
    cells
}

/// PAIP's `edge-index` of a configuration: its digits as a base-3 number, first square most
/// significant. Contents above 2 are read modulo 3.
pub fn encode(cells: &EdgeConfig) -> usize {
    cells
        .iter()
        .fold(0, |index, &c| index * 3 + (c % 3) as usize)
}

/// The same edge seen by the other side (mover's and opponent's discs exchanged).
pub fn swap_sides(cells: &EdgeConfig) -> EdgeConfig {
    cells.map(|c| match c {
        MOVER => OTHER,
        OTHER => MOVER,
        _ => EMPTY,
    })
}

/// The other colour of a disc; `EMPTY` stays `EMPTY`.
fn other(who: u8) -> u8 {
    match who {
        MOVER => OTHER,
        OTHER => MOVER,
        _ => EMPTY,
    }
}

/// PAIP's `piece-stability` of the disc on square `i` (0..10) of `cells`; an empty square is
/// reported stable (it carries no weight anyway).
pub fn piece_stability(cells: &EdgeConfig, i: usize) -> PieceStability {
    use PieceStability::*;
    match i {
        1 | 8 => Stable,
        0 if cells[1] == EMPTY => Unstable,
        9 if cells[8] == EMPTY => Unstable,
        0 | 9 => SemiStable,
        2..=7 => {
            let me = cells[i];
            if me == EMPTY {
                return Stable;
            }
            let opp = other(me);
            // The first square on each side (along the edge) that is not the disc's colour;
            // `None` when the disc's colour runs to the corner.
            let right = cells[i + 1..=8].iter().copied().find(|&c| c != me);
            let left = cells[1..i].iter().rev().copied().find(|&c| c != me);
            let edge_has_empty = cells[1..=8].contains(&EMPTY);
            if (right == Some(EMPTY) && left == Some(opp))
                || (left == Some(EMPTY) && right == Some(opp))
            {
                Unstable
            } else if (right == Some(opp) && left == Some(opp) && edge_has_empty)
                || (right == Some(EMPTY) && left == Some(EMPTY))
            {
                SemiStable
            } else {
                Stable
            }
        }
        _ => Stable,
    }
}

/// PAIP's `static-edge-stability`: the [`STATIC_EDGE_WEIGHTS`] of the mover's discs minus those
/// of the opponent's, each by its [`piece_stability`].
pub fn static_edge_value(cells: &EdgeConfig) -> i32 {
    let mut sum = 0;
    for (i, &c) in cells.iter().enumerate() {
        if c == EMPTY {
            continue;
        }
        let w = STATIC_EDGE_WEIGHTS[i][piece_stability(cells, i) as usize];
        sum += if c == MOVER { w } else { -w };
    }
    sum
}

/// The discs along the edge (squares 1..=8) that `who` playing on edge square `i` would flip.
fn edge_flips(cells: &EdgeConfig, i: usize, who: u8) -> [bool; EDGE_LEN] {
    let mut flips = [false; EDGE_LEN];
    if !(1..=8).contains(&i) || cells[i] != EMPTY {
        return flips;
    }
    let opp = other(who);
    for step in [-1isize, 1] {
        let mut j = i as isize + step;
        while (1..=8).contains(&j) && cells[j as usize] == opp {
            j += step;
        }
        if (1..=8).contains(&j) && cells[j as usize] == who && (j - i as isize).abs() > 1 {
            let mut k = i as isize + step;
            while k != j {
                flips[k as usize] = true;
                k += step;
            }
        }
    }
    flips
}

/// Whether `who` playing on square `i` flips at least one disc along the edge (PAIP's
/// `legal-p` restricted to what the edge alone can show).
fn flips_along_edge(cells: &EdgeConfig, i: usize, who: u8) -> bool {
    edge_flips(cells, i, who).contains(&true)
}

/// The configuration after `who` plays on the empty square `i` (flipping along the edge only).
fn play(cells: &EdgeConfig, i: usize, who: u8) -> EdgeConfig {
    let flips = edge_flips(cells, i, who);
    let mut next = *cells;
    next[i] = who;
    for (c, f) in next.iter_mut().zip(flips) {
        if f {
            *c = who;
        }
    }
    next
}

/// PAIP's `edge-move-probability`: the chance that the mover can play on the empty square `i`.
pub fn edge_move_probability(cells: &EdgeConfig, i: usize) -> f64 {
    match i {
        0 | 9 => 0.5,
        _ if flips_along_edge(cells, i, MOVER) => 1.0,
        1 | 8 => {
            let x = if i == 1 { 0 } else { 9 };
            match cells[x] {
                EMPTY => 0.1,
                MOVER => 0.001,
                _ => 0.9,
            }
        }
        2..=7 => {
            let count = |who: u8| (cells[i - 1] == who) as usize + (cells[i + 1] == who) as usize;
            let p = NEIGHBOUR_PROBABILITY[count(MOVER)][count(OTHER)];
            if flips_along_edge(cells, i, OTHER) {
                p / 2.0
            } else {
                p
            }
        }
        _ => 0.0,
    }
}

/// One possible move in a configuration: PAIP's probability that the mover can play it, and the
/// index of the configuration after it, seen by the opponent.
#[derive(Clone, Copy)]
struct EdgeMove {
    probability: f64,
    child: u32,
}

/// The possible moves (every empty square of the ten) of the configuration `cells`.
fn edge_moves(cells: &EdgeConfig, out: &mut Vec<EdgeMove>) {
    for i in 0..EDGE_LEN {
        if cells[i] == EMPTY {
            out.push(EdgeMove {
                probability: edge_move_probability(cells, i),
                child: encode(&swap_sides(&play(cells, i, MOVER))) as u32,
            });
        }
    }
}

/// PAIP's `possible-edge-moves-value` and `combine-edge-moves`: the improved value of a
/// configuration whose current value is `current` and whose moves are `moves`, given `table`.
fn possible_edge_moves_value(table: &[i32], current: i32, moves: &[EdgeMove]) -> i32 {
    // (probability, value) of "no move" and of each possible move.
    let mut options = [(0.0f64, 0i32); EDGE_LEN + 1];
    options[0] = (1.0, current);
    let mut n = 1;
    for m in moves.iter().take(EDGE_LEN) {
        options[n] = (m.probability, -table[m.child as usize]);
        n += 1;
    }
    let options = &mut options[..n];
    // Best value first; equal values by probability, for a deterministic, mirror-symmetric sum.
    options.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(b.0.total_cmp(&a.0)));
    let (mut prob, mut value) = (1.0f64, 0.0f64);
    for &(p, v) in options.iter() {
        if prob < 0.0 {
            break;
        }
        value += prob * p * v as f64;
        prob -= prob * p;
    }
    value.round_ties_even() as i32
}

/// Builds the table from scratch by PAIP's method (static values, then [`PASSES`] improvement
/// passes from the fullest configurations down). The moves of each configuration (their
/// probabilities and resulting configurations) do not change between passes, so they are
/// computed once. Takes a few tens of milliseconds (about a second without optimisation).
pub fn build_edge_table() -> Box<EdgeTable> {
    let mut table = vec![0i32; EDGE_CONFIGS];
    // Configurations by number of discs, each with the range of its moves in `moves`.
    let mut by_discs: Vec<Vec<(u32, u32, u32)>> = vec![Vec::new(); EDGE_LEN + 1];
    let mut moves = Vec::with_capacity(200_000);
    for (index, value) in table.iter_mut().enumerate() {
        let cells = decode(index);
        *value = static_edge_value(&cells);
        let discs = cells.iter().filter(|&&c| c != EMPTY).count();
        let first = moves.len() as u32;
        if (1..EDGE_LEN).contains(&discs) {
            edge_moves(&cells, &mut moves);
        }
        by_discs[discs].push((index as u32, first, moves.len() as u32));
    }
    for _ in 0..PASSES {
        for discs in (1..EDGE_LEN).rev() {
            for &(index, first, end) in &by_discs[discs] {
                let index = index as usize;
                let range = &moves[first as usize..end as usize];
                table[index] = possible_edge_moves_value(&table, table[index], range);
            }
        }
    }
    let narrow: Vec<i16> = table
        .iter()
        .map(|&v| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16)
        .collect();
    narrow
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the table has EDGE_CONFIGS entries"))
}

/// The shared edge table, built on first use.
pub fn edge_table() -> &'static EdgeTable {
    static TABLE: OnceLock<Box<EdgeTable>> = OnceLock::new();
    TABLE.get_or_init(build_edge_table)
}

/// `BASE3[pattern]`: the base-3 digits (all 0 or 1) of a 10-bit edge pattern, where bits 0..8
/// are the edge squares from corner to corner (digit weights 3^8 .. 3^1), bit 8 the first
/// X-square (3^9) and bit 9 the second (3^0).
static BASE3: [u16; 1024] = base3_table();

const fn base3_table() -> [u16; 1024] {
    let mut weight = [0u16; 10];
    let mut k = 0;
    while k < 8 {
        let mut w = 1u16;
        let mut e = 0;
        while e < 8 - k {
            w *= 3;
            e += 1;
        }
        weight[k] = w;
        k += 1;
    }
    weight[8] = 19_683; // 3^9
    weight[9] = 1;
    let mut out = [0u16; 1024];
    let mut pattern = 0;
    while pattern < 1024 {
        let mut sum = 0u16;
        let mut bit = 0;
        while bit < 10 {
            if pattern & (1 << bit) != 0 {
                sum += weight[bit];
            }
            bit += 1;
        }
        out[pattern] = sum;
        pattern += 1;
    }
    out
}

/// Column a gathered into a byte: bit `k` = square a(k+1). The multiplier moves bit `8k` to bit
/// `56 + k` and no two partial products meet, so nothing carries.
#[inline(always)]
fn column_a(bits: u64) -> usize {
    ((bits & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// The four 10-bit edge patterns (see [`BASE3`]) of one side's discs, in [`EDGES_AND_X`] order.
#[inline(always)]
fn edge_patterns(bits: u64) -> [usize; 4] {
    let x = |sq: Square| ((bits >> sq as u8) & 1) as usize;
    let (b2, g2, b7, g7) = (x(Square::B2), x(Square::G2), x(Square::B7), x(Square::G7));
    [
        (bits & 0xFF) as usize | b2 << 8 | g2 << 9,
        (bits >> 56) as usize | b7 << 8 | g7 << 9,
        column_a(bits) | b2 << 8 | b7 << 9,
        column_a(bits >> 7) | g2 << 8 | g7 << 9,
    ]
}

/// PAIP's `edge-index` of the four edges ([`EDGES_AND_X`] order) for `player` to move. Any
/// square claimed by both sides is read as the player's.
#[inline(always)]
pub fn edge_indexes(player: u64, opponent: u64) -> [usize; 4] {
    let p = edge_patterns(player);
    let o = edge_patterns(opponent & !player);
    // Patterns are below 1024; the masks only spare the bounds checks.
    let index = |e: usize| BASE3[p[e] & 1023] as usize + 2 * BASE3[o[e] & 1023] as usize;
    [index(0), index(1), index(2), index(3)]
}

/// The sum of `table` over the four edges, for `player` to move.
#[inline(always)]
pub fn edge_stability_with(table: &EdgeTable, player: u64, opponent: u64) -> i32 {
    let [a, b, c, d] = edge_indexes(player, opponent);
    // Indexes are below 3^10 = EDGE_CONFIGS, so `get` never fails; it spares the panic paths.
    let value = |i: usize| table.get(i).map_or(0, |&v| v as i32);
    value(a) + value(b) + value(c) + value(d)
}

/// PAIP's `edge-stability`: the edge table summed over the four edges, for the side to move.
#[inline]
pub fn edge_stability(board: &Board) -> i32 {
    edge_stability_with(edge_table(), board.player(), board.opponent())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PAIP's `edge-index`, square by square.
    fn slow_index(player: u64, opponent: u64, edge: usize) -> usize {
        EDGES_AND_X[edge].iter().fold(0, |index, sq| {
            let digit = if player & sq.bit() != 0 {
                1
            } else if opponent & sq.bit() != 0 {
                2
            } else {
                0
            };
            index * 3 + digit
        })
    }

    #[test]
    fn fast_index_matches_paips_edge_index() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = x.rotate_left(17) | x.rotate_left(40);
            let (p, o) = (x & occupied, !x & occupied);
            let fast = edge_indexes(p, o);
            for (edge, &index) in fast.iter().enumerate() {
                assert_eq!(
                    index,
                    slow_index(p, o, edge),
                    "edge {edge} of {p:#x} {o:#x}"
                );
            }
        }
    }

    #[test]
    fn decode_and_encode_are_inverse() {
        for index in [0, 1, 2, 3, 12345, EDGE_CONFIGS - 1] {
            assert_eq!(encode(&decode(index)), index);
        }
        assert_eq!(decode(1), [0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(encode(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 19_683);
    }

    #[test]
    fn piece_stability_follows_paip() {
        use PieceStability::*;
        //            X  a  b  c  d  e  f  g  h  X
        let cells = [0, 0, 1, 2, 0, 0, 0, 0, 0, 0];
        // b1 (mover): empty a1 on the left, opponent c1 on the right: unstable.
        assert_eq!(piece_stability(&cells, 2), Unstable);
        // c1 (opponent): the mover's b1 on the left, empty d1 on the right: unstable.
        assert_eq!(piece_stability(&cells, 3), Unstable);
        // A wall from the corner is stable.
        let wall = [0, 1, 1, 1, 0, 0, 0, 0, 0, 0];
        assert_eq!(piece_stability(&wall, 3), Stable);
        // Alone in the middle: semi-stable.
        let lone = [0, 0, 0, 0, 1, 0, 0, 0, 0, 0];
        assert_eq!(piece_stability(&lone, 4), SemiStable);
        // X-squares depend on the corner.
        assert_eq!(
            piece_stability(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 2], 0),
            Unstable
        );
        assert_eq!(
            piece_stability(&[1, 2, 0, 0, 0, 0, 0, 0, 1, 2], 9),
            SemiStable
        );
        // Between opponents with an empty square left on the edge: semi-stable.
        let between = [0, 2, 1, 2, 0, 0, 0, 0, 0, 0];
        assert_eq!(piece_stability(&between, 2), SemiStable);
        // Between opponents on a full edge: stable.
        let full = [0, 2, 1, 2, 2, 2, 2, 2, 2, 0];
        assert_eq!(piece_stability(&full, 2), Stable);
    }

    #[test]
    fn static_values_by_hand() {
        assert_eq!(static_edge_value(&[0; 10]), 0);
        // The mover's corner: 700.
        assert_eq!(static_edge_value(&[0, 1, 0, 0, 0, 0, 0, 0, 0, 0]), 700);
        // The opponent's X-square with its corner empty: +2000 for the mover.
        assert_eq!(static_edge_value(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 2000);
        // A full edge of the mover, X-squares empty: 2 x 700 + 2 x 1200 + 4 x 1000.
        assert_eq!(static_edge_value(&[0, 1, 1, 1, 1, 1, 1, 1, 1, 0]), 7800);
        // The mover's c1 (an A-square) has the opponent's b1 on one side and empty d1 on the
        // other: unstable, +75. The opponent's b1 (a C-square) has empty a1 and the mover's c1:
        // unstable too, so it counts -(-25) = +25 for the mover.
        assert_eq!(static_edge_value(&[0, 0, 2, 1, 0, 0, 0, 0, 0, 0]), 75 + 25);
        // A lone C-square disc of the mover is semi-stable: +200.
        assert_eq!(static_edge_value(&[0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), 200);
    }

    #[test]
    fn move_probabilities_follow_paip() {
        // X-square: always one half.
        assert_eq!(edge_move_probability(&[0; 10], 0), 0.5);
        // Corner: depends on its X-square.
        assert_eq!(edge_move_probability(&[0; 10], 1), 0.1);
        assert_eq!(
            edge_move_probability(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1),
            0.001
        );
        assert_eq!(
            edge_move_probability(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1),
            0.9
        );
        // A capture along the edge is certain, corners included.
        assert_eq!(
            edge_move_probability(&[0, 0, 2, 1, 0, 0, 0, 0, 0, 0], 1),
            1.0
        );
        // Next to one opponent disc: 0.4; halved if the opponent could capture there.
        assert_eq!(
            edge_move_probability(&[0, 0, 0, 0, 2, 0, 0, 0, 0, 0], 3),
            0.4
        );
        assert_eq!(
            edge_move_probability(&[0, 0, 0, 0, 1, 2, 0, 0, 0, 0], 3),
            0.05 / 2.0
        );
        assert_eq!(edge_move_probability(&[0; 10], 4), 0.1);
    }

    #[test]
    fn edge_moves_flip_along_the_edge_only() {
        let cells = [2, 0, 2, 2, 1, 0, 0, 0, 0, 2];
        assert_eq!(play(&cells, 1, MOVER), [2, 1, 1, 1, 1, 0, 0, 0, 0, 2]);
        // X-squares flip nothing.
        let xs = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(play(&xs, 0, MOVER), [1, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
        // No bracketing disc: just the placement.
        assert_eq!(play(&[0; 10], 5, OTHER), [0, 0, 0, 0, 0, 2, 0, 0, 0, 0]);
    }
}
