//! Zobrist hashing of relative boards, and the transposition tables' multiplicative key.
//!
//! Each square has a key `A[sq]` for a disc of the side to move and `B[sq]` for a disc of the
//! opponent; a board's hash is the XOR of the keys of all its discs (Zobrist, 1970). Because the
//! board is stored relative to the side to move, the same search state always hashes the same,
//! whichever colour is to move.
//!
//! The two key sets are tied by `B[sq] = A[sq].rotate_left(32)`. Rotation by 32 is linear over
//! XOR and is its own inverse, so swapping the roles of the two sides is just a rotation of the
//! hash. That makes passes and moves cheap to apply incrementally:
//!
//! - pass: `h' = rot32(h)`;
//! - move on `sq` flipping `F`: `h' = rot32(h) ^ B[sq] ^ XOR over f in F of (A[f] ^ B[f])`.
//!
//! The full hash is computed a byte at a time from 8 tables of 256 precomputed XORs.

use crate::bitboard::squares;
use crate::board::Board;
use crate::rng::splitmix64;
use crate::square::Square;

const fn build_keys() -> [u64; 64] {
    let mut keys = [0u64; 64];
    let mut state = 0x0711_E110_2026_0001;
    let mut i = 0;
    while i < 64 {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
}

/// `KEYS[sq]`: the key of a disc of the side to move on `sq` (the opponent's is rotated by 32).
pub static KEYS: [u64; 64] = build_keys();

const fn build_byte_tables() -> [[u64; 256]; 8] {
    let keys = build_keys();
    let mut t = [[0u64; 256]; 8];
    let mut byte = 0;
    while byte < 8 {
        let mut v = 0;
        while v < 256 {
            let mut h = 0u64;
            let mut bit = 0;
            while bit < 8 {
                if v & (1 << bit) != 0 {
                    h ^= keys[byte * 8 + bit];
                }
                bit += 1;
            }
            t[byte][v] = h;
            v += 1;
        }
        byte += 1;
    }
    t
}

static BYTE_TABLES: [[u64; 256]; 8] = build_byte_tables();

/// XOR of the side-to-move keys of every square in `bits`.
#[inline(always)]
fn key_sum(bits: u64) -> u64 {
    let mut h = 0;
    for (i, table) in BYTE_TABLES.iter().enumerate() {
        h ^= table[((bits >> (8 * i)) & 0xFF) as usize];
    }
    h
}

/// The key of an opponent disc on `sq`.
#[inline(always)]
fn opponent_key(sq: Square) -> u64 {
    KEYS[sq.index()].rotate_left(32)
}

/// The Zobrist hash of a board, computed from scratch.
#[inline]
pub fn hash(board: &Board) -> u64 {
    hash_bits(board.player(), board.opponent())
}

/// The Zobrist hash of raw bitboards (side to move, opponent).
#[inline]
pub fn hash_bits(player: u64, opponent: u64) -> u64 {
    key_sum(player) ^ key_sum(opponent).rotate_left(32)
}

/// The hash after a pass, from the hash before it.
#[inline(always)]
pub fn hash_after_pass(hash: u64) -> u64 {
    hash.rotate_left(32)
}

/// The hash after the side to move plays `sq` flipping `flips`, from the hash before it.
#[inline]
pub fn hash_after_move(hash: u64, sq: Square, flips: u64) -> u64 {
    let mut h = hash.rotate_left(32) ^ opponent_key(sq);
    for f in squares(flips) {
        h ^= KEYS[f.index()] ^ opponent_key(f);
    }
    h
}

/// The transposition tables' key of raw bitboards (side to move, opponent): two
/// 64 × 64 → 128-bit multiplications, each folded by XOR of its halves (the "mum" mix of
/// wyhash), the second over the first's result. No table loads: the Zobrist hash reads sixteen
/// bytes of 16 KB of tables, half of a 32 KB L1 data cache, at every hashed node of the solver
/// (issue 59). The searches compute every key from scratch, so they need no incremental
/// update; [`hash_bits`] stays the Zobrist hash, with its incremental forms.
#[inline(always)]
pub fn table_key(player: u64, opponent: u64) -> u64 {
    #[inline(always)]
    fn mum(a: u64, b: u64) -> u64 {
        let x = a as u128 * b as u128;
        (x as u64) ^ ((x >> 64) as u64)
    }
    const K0: u64 = 0xA076_1D64_78BD_642F;
    const K1: u64 = 0xE703_7ED1_A0B4_28DB;
    const K2: u64 = 0x8EBC_6AF0_9C88_C6E3;
    const K3: u64 = 0x5899_65CC_7537_4CC3;
    mum(
        mum(player ^ K0, opponent ^ K1) ^ K2,
        player ^ opponent.rotate_left(32) ^ K3,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every distinct position up to 8 plies from the start (passes included) has its own
    /// table key, and the keys' top byte (the clusters' choice) and low byte are spread evenly.
    #[test]
    fn table_keys_are_distinct_and_even() {
        fn walk(b: &Board, plies: u32, out: &mut std::collections::HashSet<(u64, u64)>) {
            if !out.insert((b.player(), b.opponent())) || plies == 0 {
                return;
            }
            let moves = b.moves();
            if moves == 0 {
                let passed = b.pass();
                if passed.moves() != 0 {
                    walk(&passed, plies - 1, out);
                }
                return;
            }
            for sq in squares(moves) {
                walk(&b.play(sq), plies - 1, out);
            }
        }
        let mut positions = std::collections::HashSet::new();
        walk(&Board::start(), 8, &mut positions);
        assert!(positions.len() > 100_000, "{} positions", positions.len());
        let mut keys: Vec<u64> = positions.iter().map(|&(p, o)| table_key(p, o)).collect();
        let n = keys.len() as f64;
        for shift in [56, 0] {
            let mut count = [0f64; 256];
            for &k in &keys {
                count[((k >> shift) & 0xFF) as usize] += 1.0;
            }
            let e = n / 256.0;
            let chi2: f64 = count.iter().map(|c| (c - e) * (c - e) / e).sum();
            // 255 degrees of freedom: the 99.99th percentile is about 340.
            assert!(chi2 < 340.0, "byte at bit {shift}: chi-square {chi2:.0}");
        }
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), positions.len(), "two positions share a key");
        // The two sides are not interchangeable.
        let b = Board::start();
        assert_ne!(
            table_key(b.player(), b.opponent()),
            table_key(b.opponent(), b.player())
        );
    }

    #[test]
    fn keys_are_distinct_and_both_sides_differ() {
        let mut all: Vec<u64> = KEYS.to_vec();
        all.extend(Square::ALL.map(opponent_key));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 128);
        let b = Board::start();
        assert_ne!(hash(&b), hash(&b.pass()));
        assert_eq!(hash_after_pass(hash(&b)), hash(&b.pass()));
    }

    #[test]
    fn byte_tables_match_a_plain_sum() {
        let bits = 0x8142_0018_2400_4281u64;
        let plain = squares(bits).fold(0, |h, sq| h ^ KEYS[sq.index()]);
        assert_eq!(key_sum(bits), plain);
    }
}
