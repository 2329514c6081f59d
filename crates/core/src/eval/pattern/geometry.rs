//! Pattern geometry: which squares each pattern reads, where its symmetric copies lie, how a
//! pattern's contents become a base-3 index, and which indices share a weight.
//!
//! # Reading a pattern
//!
//! Each pattern is given once, as a *base mask* in the top-left part of the board
//! ([`PATTERNS`]). Its other placements ("instances", [`INSTANCES`]) are images of the base under
//! the eight board symmetries ([`crate::bitboard::symmetry`]): instance `(pattern, g)` is the
//! square set `g⁻¹(base)`, and its digit `k` is the square that `g` sends to the `k`-th lowest
//! square of the base. So all instances of a pattern index one table with the same digit order,
//! and reading instance `(p, g)` of board `B` is the same as reading the base of `g(B)`
//! ([`instance_indices_reference`] does exactly that, square by square).
//!
//! The fast path ([`instance_index`]) never transforms the board (the diagonal reflections cost
//! more than the rest of the evaluation). Each instance has its own mask, built at compile
//! time; `pext` gathers the mask's bits of each side into the low bits in board order, and a
//! 1,024-entry table turns those bits into the base-3 number with the digits in the pattern's
//! order: `index = T[pext(player, mask)] + 2 * T[pext(opponent, mask)]` (digit 0 = empty, 1 =
//! a disc of the side to move, 2 = an opponent disc). Instances whose symmetry includes a
//! vertical flip are read on the byte-swapped board, after which the digit orders reduce to
//! a few distinct tables (2 KiB each; the identity order serves every row, column and diagonal).
//! No branch depends on the board. Without BMI2 a portable bit-gathering loop replaces `pext`
//! ([`pext_portable`], tested against the instruction).
//!
//! # Shared weights
//!
//! Some symmetries map a pattern onto itself with its squares permuted (an edge read backwards,
//! a 3×3 corner reflected in its diagonal). The two readings must score the same, or the
//! evaluation would depend on the board's orientation. So each pattern's indices are grouped
//! into classes under these *stabiliser* permutations, and a class has one weight
//! ([`Geometry::canon`] maps an index to its class number, the *compact id*). With that, the
//! evaluation is exactly invariant under all eight symmetries whatever the weights: a symmetry
//! of the board permutes the instances of every pattern, and reads each one up to a stabiliser
//! permutation.
//!
//! The pattern set is listed in [`PATTERNS`]: first Logistello's and Edax's choice of shapes
//! (described in Buro's papers on Logistello; pattern sets 1 and 2 of the weight files), then
//! three 10-square shapes of the corner regions that pattern set 3 adds (a triangle, an edge
//! with its inner block, and the band around a corner's diagonal, in the manner of the further
//! shapes of newer engines such as Egaroucid). The tables here are computed from first
//! principles.

use std::sync::OnceLock;

use crate::bitboard::{squares, symmetry};
use crate::cpu::{Cpu, Portable};

/// One pattern shape: its name, its base mask and its number of squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternDef {
    /// A short name (used in reports).
    pub name: &'static str,
    /// The squares of the base instance.
    pub mask: u64,
    /// Number of squares (`mask.count_ones()`), 4 to 10.
    pub len: u32,
    /// Offset of the pattern's table in a phase's expanded weights (sum of the earlier
    /// patterns' `3^len`).
    pub offset: usize,
}

/// Number of pattern shapes.
pub const PATTERN_COUNT: usize = 14;
/// Number of shapes of pattern sets 1 and 2 (the first ones of [`PATTERNS`]).
pub const BASE_PATTERN_COUNT: usize = 11;

/// `3^k` for `k = 0..=10`.
pub const POW3: [u32; 11] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049];

const fn def(name: &'static str, mask: u64, offset: usize) -> PatternDef {
    PatternDef {
        name,
        mask,
        len: mask.count_ones(),
        offset,
    }
}

const O0: usize = 0;
const O1: usize = O0 + 59049; // after edge + 2X
const O2: usize = O1 + 19683; // after corner 3x3
const O3: usize = O2 + 59049; // after corner 2x5
const O4: usize = O3 + 6561; // after line 2
const O5: usize = O4 + 6561; // after line 3
const O6: usize = O5 + 6561; // after line 4
const O7: usize = O6 + 6561; // after diagonal 8
const O8: usize = O7 + 2187; // after diagonal 7
const O9: usize = O8 + 729; // after diagonal 6
const O10: usize = O9 + 243; // after diagonal 5
const O11: usize = O10 + 81; // after diagonal 4
const O12: usize = O11 + 59049; // after triangle
const O13: usize = O12 + 59049; // after edge block
/// Size of all pattern tables of one phase, expanded (one entry per base-3 index).
pub const PATTERN_TABLES_LEN: usize = O13 + 59049;

/// The pattern shapes (base instances in the top-left of the board).
pub const PATTERNS: [PatternDef; PATTERN_COUNT] = [
    // a1-h1 plus the X-squares b2 and g2: 4 instances (one per edge).
    def("edge+2x", 0x0000_0000_0000_42FF, O0),
    // a1-c3: 4 instances.
    def("corner3x3", 0x0000_0000_0007_0707, O1),
    // a1-e2: 8 instances (two per corner).
    def("corner2x5", 0x0000_0000_0000_1F1F, O2),
    // a2-h2 (second row): 4 instances (rows 2 and 7, columns b and g).
    def("line2", 0x0000_0000_0000_FF00, O3),
    // a3-h3: 4 instances.
    def("line3", 0x0000_0000_00FF_0000, O4),
    // a4-h4: 4 instances.
    def("line4", 0x0000_0000_FF00_0000, O5),
    // a1-h8: 2 instances (both main diagonals).
    def("diag8", 0x8040_2010_0804_0201, O6),
    // b1-h7: 4 instances.
    def("diag7", 0x0080_4020_1008_0402, O7),
    // c1-h6: 4 instances.
    def("diag6", 0x0000_8040_2010_0804, O8),
    // d1-h5: 4 instances.
    def("diag5", 0x0000_0080_4020_1008, O9),
    // e1-h4: 4 instances.
    def("diag4", 0x0000_0000_8040_2010, O10),
    // Pattern set 3 from here.
    // a1-d1, a2-c2, a3-b3, a4: 4 instances (one per corner).
    def("triangle", 0x0000_0000_0103_070F, O11),
    // a1, c1-f1, h1 and c2-f2: 4 instances (one per edge).
    def("edgeblock", 0x0000_0000_0000_3CBD, O12),
    // a1, b2, c3, d4 with b1, c2, d3 and a2, b3, c4: 4 instances (one per corner).
    def("cross", 0x0000_0000_0C0E_0703, O13),
];

/// One placement of a pattern: read `PATTERNS[pattern]`'s base mask on the board transformed
/// by symmetry `transform`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into [`PATTERNS`].
    pub pattern: u8,
    /// The symmetry applied to the board before reading the base mask.
    pub transform: u8,
}

const fn inst(pattern: u8, transform: u8) -> Instance {
    Instance { pattern, transform }
}

/// Number of pattern instances on the board.
pub const INSTANCE_COUNT: usize = 58;
/// Number of instances of the shapes of pattern sets 1 and 2 (the first ones of [`INSTANCES`]).
pub const BASE_INSTANCE_COUNT: usize = 46;

/// Every pattern instance, pattern by pattern (checked against [`compute_instances`] in tests).
pub const INSTANCES: [Instance; INSTANCE_COUNT] = [
    inst(0, 0),
    inst(0, 2),
    inst(0, 4),
    inst(0, 5),
    inst(1, 0),
    inst(1, 1),
    inst(1, 2),
    inst(1, 3),
    inst(2, 0),
    inst(2, 1),
    inst(2, 2),
    inst(2, 3),
    inst(2, 4),
    inst(2, 5),
    inst(2, 6),
    inst(2, 7),
    inst(3, 0),
    inst(3, 2),
    inst(3, 4),
    inst(3, 5),
    inst(4, 0),
    inst(4, 2),
    inst(4, 4),
    inst(4, 5),
    inst(5, 0),
    inst(5, 2),
    inst(5, 4),
    inst(5, 5),
    inst(6, 0),
    inst(6, 1),
    inst(7, 0),
    inst(7, 1),
    inst(7, 2),
    inst(7, 3),
    inst(8, 0),
    inst(8, 1),
    inst(8, 2),
    inst(8, 3),
    inst(9, 0),
    inst(9, 1),
    inst(9, 2),
    inst(9, 3),
    inst(10, 0),
    inst(10, 1),
    inst(10, 2),
    inst(10, 3),
    inst(11, 0),
    inst(11, 1),
    inst(11, 2),
    inst(11, 3),
    inst(12, 0),
    inst(12, 2),
    inst(12, 4),
    inst(12, 5),
    inst(13, 0),
    inst(13, 1),
    inst(13, 2),
    inst(13, 3),
];

pub use crate::bitboard::{pext, pext_portable};

/// Square `x` (0..64) under symmetry `g` (as [`crate::bitboard::symmetry`] moves bits).
const fn symmetry_square_index(x: usize, g: u8) -> usize {
    let (mut c, mut r) = (x % 8, x / 8);
    if g & 1 != 0 {
        c = 7 - c;
    }
    if g & 2 != 0 {
        r = 7 - r;
    }
    if g & 4 != 0 {
        let t = c;
        c = r;
        r = t;
    }
    r * 8 + c
}

/// Where each instance is read and how its bits map to base digits.
struct Layout {
    /// Whether instance `j` is read on the vertically flipped board (byte-swapped bitboards).
    flip: [bool; INSTANCE_COUNT],
    /// The squares of instance `j` on the board it is read on: `g⁻¹(base)`, flipped if `flip`.
    mask: [u64; INSTANCE_COUNT],
    /// `digit[j][k]`: the base digit of the `k`-th lowest square of `mask[j]`.
    digit: [[u8; 10]; INSTANCE_COUNT],
    /// Which of the distinct bit-to-index tables instance `j` uses.
    table: [u8; INSTANCE_COUNT],
    /// Number of distinct tables.
    tables: usize,
    /// The digit map each table is built from (the longest of its instances).
    table_digit: [[u8; 10]; INSTANCE_COUNT],
    /// The length of that digit map.
    table_len: [u32; INSTANCE_COUNT],
}

const fn build_layout() -> Layout {
    let mut l = Layout {
        flip: [false; INSTANCE_COUNT],
        mask: [0; INSTANCE_COUNT],
        digit: [[0; 10]; INSTANCE_COUNT],
        table: [0; INSTANCE_COUNT],
        tables: 0,
        table_digit: [[0; 10]; INSTANCE_COUNT],
        table_len: [0; INSTANCE_COUNT],
    };
    let mut j = 0;
    while j < INSTANCE_COUNT {
        let inst = INSTANCES[j];
        let base = PATTERNS[inst.pattern as usize].mask;
        // Symmetries with a vertical flip are read on the flipped board, which a byte swap
        // makes; that leaves only reflections the tables must undo, so fewer tables.
        let flip = inst.transform & 2 != 0;
        l.flip[j] = flip;
        let mut k = 0;
        let mut x = 0;
        while x < 64 {
            // Square x of the board read is square z of the real board.
            let z = if flip { x ^ 56 } else { x };
            let y = symmetry_square_index(z, inst.transform);
            if base & (1 << y) != 0 {
                l.mask[j] |= 1 << x;
                // x is the k-th lowest instance square; its digit is y's rank in the base.
                l.digit[j][k] = (base & ((1u64 << y) - 1)).count_ones() as u8;
                k += 1;
            }
            x += 1;
        }
        let len = k as u32;
        // Share a table whose digit map agrees with this one on their common length.
        let mut t = 0;
        let mut found = false;
        while t < l.tables && !found {
            let common = if len < l.table_len[t] {
                len
            } else {
                l.table_len[t]
            } as usize;
            let mut same = true;
            let mut d = 0;
            while d < common {
                same = same && l.table_digit[t][d] == l.digit[j][d];
                d += 1;
            }
            if same {
                l.table[j] = t as u8;
                if len > l.table_len[t] {
                    l.table_digit[t] = l.digit[j];
                    l.table_len[t] = len;
                }
                found = true;
            }
            t += 1;
        }
        if !found {
            l.table[j] = l.tables as u8;
            l.table_digit[l.tables] = l.digit[j];
            l.table_len[l.tables] = len;
            l.tables += 1;
        }
        j += 1;
    }
    l
}

const LAYOUT: Layout = build_layout();
/// Number of distinct bit-to-index tables.
const TABLES: usize = LAYOUT.tables;

const fn build_tables() -> [[u16; 1024]; TABLES] {
    let mut out = [[0u16; 1024]; TABLES];
    let mut t = 0;
    while t < TABLES {
        let n = LAYOUT.table_len[t] as usize;
        let mut b = 0;
        while b < (1 << n) {
            let mut v = 0u32;
            let mut k = 0;
            while k < n {
                if b & (1 << k) != 0 {
                    v += POW3[LAYOUT.table_digit[t][k] as usize];
                }
                k += 1;
            }
            out[t][b] = v as u16;
            b += 1;
        }
        t += 1;
    }
    out
}

/// `INSTANCE_B2T[t][bits]`: the base-3 index (digits in base order) of an instance whose
/// squares, gathered in board order by `pext`, are `bits`; instances with the same digit order
/// share a table ([`TABLES`] tables of 2 KiB).
static INSTANCE_B2T: [[u16; 1024]; TABLES] = build_tables();

/// Index lanes of [`SQUARE_COEFFICIENTS`]: one per instance, padded to a multiple of 16 so that
/// a row is a whole number of vector registers.
pub const INDEX_LANES: usize = 64;
const _: () = assert!(INSTANCE_COUNT <= INDEX_LANES);

const fn build_square_coefficients() -> [[u16; INDEX_LANES]; 64] {
    let mut out = [[0u16; INDEX_LANES]; 64];
    let mut s = 0;
    while s < 64 {
        let mut j = 0;
        while j < INSTANCE_COUNT {
            let x = if LAYOUT.flip[j] { s ^ 56 } else { s };
            let mask = LAYOUT.mask[j];
            if mask & (1u64 << x) != 0 {
                let k = (mask & ((1u64 << x) - 1)).count_ones() as usize;
                out[s][j] = POW3[LAYOUT.digit[j][k] as usize] as u16;
            }
            j += 1;
        }
        s += 1;
    }
    out
}

/// `SQUARE_COEFFICIENTS[s][j]`: what a disc of the side to move on square `s` adds to the
/// base-3 index of instance `j` (`3^k` if `s` is the instance's digit `k`, 0 if the instance
/// does not read `s`); an opponent disc adds twice as much. An index is linear in its digits,
/// so the index of every instance is the sum of these rows over the discs, and a move changes
/// it by the rows of the squares it fills and flips ([`super::siblings`]).
pub static SQUARE_COEFFICIENTS: [[u16; INDEX_LANES]; 64] = build_square_coefficients();

/// The squares of instance `slot` of [`INSTANCES`] on the board (`g⁻¹` of the base mask).
pub const fn instance_mask(slot: usize) -> u64 {
    if LAYOUT.flip[slot] {
        LAYOUT.mask[slot].swap_bytes()
    } else {
        LAYOUT.mask[slot]
    }
}

/// The base-3 index of instance `SLOT` of [`INSTANCES`]: `pext` of each side under the
/// instance's own mask, then its table (which puts the digits in the pattern's base order).
#[inline(always)]
pub fn instance_index<const SLOT: usize>(player: u64, opponent: u64) -> usize {
    instance_index_on::<SLOT, Portable>(player, opponent)
}

/// [`instance_index`] with the bit gather of the code path `C` ([`crate::cpu`]).
#[inline(always)]
pub fn instance_index_on<const SLOT: usize, C: Cpu>(player: u64, opponent: u64) -> usize {
    const { assert!(SLOT < INSTANCE_COUNT) };
    let (player, opponent) = if LAYOUT.flip[SLOT] {
        (player.swap_bytes(), opponent.swap_bytes())
    } else {
        (player, opponent)
    };
    let mask = LAYOUT.mask[SLOT];
    let bits = (1u64 << mask.count_ones()) - 1;
    let table = &INSTANCE_B2T[LAYOUT.table[SLOT] as usize];
    table[(C::pext(player, mask) & bits) as usize] as usize
        + 2 * table[(C::pext(opponent, mask) & bits) as usize] as usize
}

/// Calls `$f(slot, pattern, transform)` for every instance, fully unrolled, in [`INSTANCES`]
/// order (the list is checked against [`INSTANCES`] by a test).
macro_rules! for_each_instance {
    ($f:ident) => {
        $crate::eval::pattern::geometry::for_each_base_instance!($f);
        $crate::eval::pattern::geometry::for_each_extra_instance!($f);
    };
}

/// [`for_each_instance`] for the instances of pattern sets 1 and 2 (slots below
/// [`BASE_INSTANCE_COUNT`]).
macro_rules! for_each_base_instance {
    ($f:ident) => {
        $f!(0, 0, 0);
        $f!(1, 0, 2);
        $f!(2, 0, 4);
        $f!(3, 0, 5);
        $f!(4, 1, 0);
        $f!(5, 1, 1);
        $f!(6, 1, 2);
        $f!(7, 1, 3);
        $f!(8, 2, 0);
        $f!(9, 2, 1);
        $f!(10, 2, 2);
        $f!(11, 2, 3);
        $f!(12, 2, 4);
        $f!(13, 2, 5);
        $f!(14, 2, 6);
        $f!(15, 2, 7);
        $f!(16, 3, 0);
        $f!(17, 3, 2);
        $f!(18, 3, 4);
        $f!(19, 3, 5);
        $f!(20, 4, 0);
        $f!(21, 4, 2);
        $f!(22, 4, 4);
        $f!(23, 4, 5);
        $f!(24, 5, 0);
        $f!(25, 5, 2);
        $f!(26, 5, 4);
        $f!(27, 5, 5);
        $f!(28, 6, 0);
        $f!(29, 6, 1);
        $f!(30, 7, 0);
        $f!(31, 7, 1);
        $f!(32, 7, 2);
        $f!(33, 7, 3);
        $f!(34, 8, 0);
        $f!(35, 8, 1);
        $f!(36, 8, 2);
        $f!(37, 8, 3);
        $f!(38, 9, 0);
        $f!(39, 9, 1);
        $f!(40, 9, 2);
        $f!(41, 9, 3);
        $f!(42, 10, 0);
        $f!(43, 10, 1);
        $f!(44, 10, 2);
        $f!(45, 10, 3);
    };
}
pub(crate) use for_each_base_instance;

/// [`for_each_instance`] for the instances that pattern set 3 adds (slots from
/// [`BASE_INSTANCE_COUNT`]).
macro_rules! for_each_extra_instance {
    ($f:ident) => {
        $f!(46, 11, 0);
        $f!(47, 11, 1);
        $f!(48, 11, 2);
        $f!(49, 11, 3);
        $f!(50, 12, 0);
        $f!(51, 12, 2);
        $f!(52, 12, 4);
        $f!(53, 12, 5);
        $f!(54, 13, 0);
        $f!(55, 13, 1);
        $f!(56, 13, 2);
        $f!(57, 13, 3);
    };
}
pub(crate) use for_each_extra_instance;

/// The base-3 index of every instance, in [`INSTANCES`] order (fast path).
#[inline(always)]
pub fn instance_indices(player: u64, opponent: u64) -> [u32; INSTANCE_COUNT] {
    let mut out = [0u32; INSTANCE_COUNT];
    macro_rules! one {
        ($slot:expr, $pat:expr, $g:expr) => {
            out[$slot] = instance_index::<$slot>(player, opponent) as u32;
        };
    }
    for_each_instance!(one);
    out
}

/// The base-3 index of every instance, computed square by square on the untransformed board
/// from each instance's own list of squares (the reference for [`instance_indices`]).
pub fn instance_indices_reference(player: u64, opponent: u64) -> [u32; INSTANCE_COUNT] {
    let mut out = [0u32; INSTANCE_COUNT];
    for (slot, i) in INSTANCES.iter().enumerate() {
        let base = PATTERNS[i.pattern as usize].mask;
        let mut index = 0u32;
        for (k, sq) in squares(base).enumerate() {
            // Digit k reads the square of the board that transform g sends onto base square sq.
            let src = (0..64u32)
                .map(|x| 1u64 << x)
                .find(|&bit| symmetry(bit, i.transform) == sq.bit())
                .expect("a symmetry is a bijection");
            let digit = if player & src != 0 {
                1
            } else if opponent & src != 0 {
                2
            } else {
                0
            };
            index += digit * POW3[k];
        }
        out[slot] = index;
    }
    out
}

/// The instances of every pattern derived from the symmetries: for each pattern in order, the
/// transforms `g` (lowest first) whose inverse images `g⁻¹(base)` are distinct square sets.
/// [`INSTANCES`] must equal this list.
pub fn compute_instances() -> Vec<Instance> {
    let mut out = Vec::new();
    for (p, def) in PATTERNS.iter().enumerate() {
        let mut seen: Vec<u64> = Vec::new();
        for g in 0..8u8 {
            let image: u64 = (0..64)
                .map(|x| 1u64 << x)
                .filter(|&bit| symmetry(bit, g) & def.mask != 0)
                .fold(0, |a, b| a | b);
            if !seen.contains(&image) {
                seen.push(image);
                out.push(Instance {
                    pattern: p as u8,
                    transform: g,
                });
            }
        }
    }
    out
}

/// The digit permutations under which a pattern's index must score the same: one per symmetry
/// that maps the base mask onto itself. `perm[k] = j` means digit `k` of the permuted index is
/// digit `j` of the original.
pub fn stabiliser_permutations(mask: u64) -> Vec<Vec<usize>> {
    let sq: Vec<u64> = squares(mask).map(|s| s.bit()).collect();
    (0..8u8)
        .filter(|&g| symmetry(mask, g) == mask)
        .map(|g| {
            (0..sq.len())
                .map(|k| {
                    sq.iter()
                        .position(|&b| symmetry(b, g) == sq[k])
                        .expect("g maps the mask onto itself")
                })
                .collect()
        })
        .collect()
}

/// The pattern tables' sharing structure, computed once ([`geometry`]).
#[derive(Debug)]
pub struct Geometry {
    /// `canon[p][index]`: the compact id (weight class) of base-3 `index` of pattern `p`.
    pub canon: Vec<Vec<u32>>,
    /// `representative[p][id]`: the smallest index of class `id` of pattern `p`.
    pub representative: Vec<Vec<u32>>,
    /// Offset of each pattern's classes in a phase's compact weights.
    pub compact_offset: [usize; PATTERN_COUNT],
    /// Number of classes of all patterns together.
    pub compact_patterns_len: usize,
}

/// The geometry of the pattern set, computed on first use (a few milliseconds).
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let mut canon = Vec::with_capacity(PATTERN_COUNT);
        let mut representative = Vec::with_capacity(PATTERN_COUNT);
        let mut compact_offset = [0usize; PATTERN_COUNT];
        let mut total = 0usize;
        for (p, def) in PATTERNS.iter().enumerate() {
            let perms = stabiliser_permutations(def.mask);
            let n = def.len as usize;
            let size = POW3[n] as usize;
            let mut map = vec![0u32; size];
            let mut reps = Vec::new();
            let mut digits = vec![0u32; n];
            for index in 0..size {
                let mut x = index as u32;
                for d in digits.iter_mut() {
                    *d = x % 3;
                    x /= 3;
                }
                let smallest = perms
                    .iter()
                    .map(|perm| {
                        perm.iter()
                            .enumerate()
                            .map(|(k, &j)| digits[j] * POW3[k])
                            .sum::<u32>()
                    })
                    .min()
                    .expect("the identity is always a stabiliser");
                if smallest as usize == index {
                    map[index] = reps.len() as u32;
                    reps.push(index as u32);
                } else {
                    // The smallest member of the class came first and has its id already.
                    map[index] = map[smallest as usize];
                }
            }
            compact_offset[p] = total;
            total += reps.len();
            canon.push(map);
            representative.push(reps);
        }
        Geometry {
            canon,
            representative,
            compact_offset,
            compact_patterns_len: total,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_lengths_are_consistent() {
        let mut offset = 0;
        for def in PATTERNS {
            assert_eq!(def.offset, offset, "{}", def.name);
            assert!((4..=10).contains(&def.len));
            offset += POW3[def.len as usize] as usize;
        }
        assert_eq!(offset, PATTERN_TABLES_LEN);
    }

    #[test]
    fn instance_tables_are_shared_where_the_digit_order_agrees() {
        // Identity order (rows, columns, diagonals, unmirrored corners) is one table.
        // Seven for the shapes of pattern sets 1 and 2; set 3's corner shapes add four orders.
        assert_eq!(TABLES, 11);
        assert_eq!(LAYOUT.table[0], LAYOUT.table[16]); // top edge and second row
        assert_eq!(LAYOUT.table[18], LAYOUT.table[28]); // column b and the a1-h8 diagonal
        assert_eq!(LAYOUT.table[0], LAYOUT.table[1]); // bottom edge: read on the flipped board
        assert_ne!(LAYOUT.table[0], LAYOUT.table[2]); // left edge: a reflection
    }

    #[test]
    fn square_coefficients_sum_to_every_index() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for _ in 0..20 {
            for b in crate::rng::random_playout(crate::board::Board::start(), &mut rng) {
                let (p, o) = (b.player(), b.opponent());
                let mut sum = [0u32; INDEX_LANES];
                for (disc, side) in [(p, 1), (o, 2)] {
                    for sq in squares(disc) {
                        for (lane, c) in SQUARE_COEFFICIENTS[sq.index()].iter().enumerate() {
                            sum[lane] += side * *c as u32;
                        }
                    }
                }
                assert_eq!(
                    &sum[..INSTANCE_COUNT],
                    &instance_indices_reference(p, o)[..]
                );
                assert!(sum[INSTANCE_COUNT..].iter().all(|&x| x == 0));
            }
        }
    }

    #[test]
    fn pext_portable_gathers_in_mask_order() {
        assert_eq!(pext_portable(0b1010_1010, 0b1111_0000), 0b1010);
        assert_eq!(pext_portable(u64::MAX, 0x8000_0000_0000_0001), 0b11);
        assert_eq!(
            pext_portable(0x8000_0000_0000_0000, 0x8000_0000_0000_0001),
            0b10
        );
        assert_eq!(pext_portable(0x1234, 0), 0);
    }
}
