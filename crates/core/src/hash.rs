//! Zobrist hashing of relative boards.
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

#[cfg(test)]
mod tests {
    use super::*;

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
