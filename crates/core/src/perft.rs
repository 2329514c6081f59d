//! Perft: counting the leaves of the game tree to a fixed depth.
//!
//! Convention (the standard one, Aart Bik 2009; Egaroucid's "mode 1"): a pass is a move and uses
//! one ply, and a game that ends before the target depth counts as one leaf. Equivalently, a side
//! with no move passes even when the game is over, so every path runs the full depth.
//!
//! Speed comes from bulk counting: one ply from the horizon, the number of leaves below a node is
//! its move count (or 1 when it must pass), so the last ply is a popcount and never a move loop.

use crate::bitboard::squares;
use crate::board::Board;
use crate::cpu::{with_cpu, Cpu, CpuPath};

/// The number of leaves of the game tree `depth` plies below `board` (standard convention).
pub fn perft(board: &Board, depth: u32) -> u64 {
    perft_on(board, depth, CpuPath::current())
}

/// [`perft`] on the code path `path` (which must be [`CpuPath::supported`]; an unsupported
/// path runs the portable code).
pub fn perft_on(board: &Board, depth: u32, path: CpuPath) -> u64 {
    let path = if path.supported() {
        path
    } else {
        CpuPath::Portable
    };
    match depth {
        0 => 1,
        _ => with_cpu!(path, C => perft_bits::<C>(board.player(), board.opponent(), depth)),
    }
}

/// Leaves one ply below a node whose moves are `mv`: its move count, or 1 for a pass.
#[inline(always)]
fn bulk(mv: u64) -> u64 {
    (mv.count_ones() as u64).max(1)
}

/// Perft at depth 2, the hot loop: one flip and one move generation per child.
#[inline(always)]
fn perft2<C: Cpu>(player: u64, opponent: u64) -> u64 {
    let mv = C::moves(player, opponent);
    if mv == 0 {
        return bulk(C::moves(opponent, player));
    }
    let mut total = 0;
    for sq in squares(mv) {
        let f = C::flips(sq, player, opponent);
        total += bulk(C::moves(opponent ^ f, player ^ f ^ sq.bit()));
    }
    total
}

/// Perft on raw bitboards, `depth >= 1`, compiled for the path `C`.
#[inline(always)]
fn perft_bits<C: Cpu>(player: u64, opponent: u64, depth: u32) -> u64 {
    C::call3(perft_body::<C>, player, opponent, depth)
}

/// The body of [`perft_bits`], compiled inside its trampoline.
#[inline(always)]
fn perft_body<C: Cpu>(player: u64, opponent: u64, depth: u32) -> u64 {
    if depth == 2 {
        return perft2::<C>(player, opponent);
    }
    let mv = C::moves(player, opponent);
    if depth == 1 {
        return bulk(mv);
    }
    if mv == 0 {
        // A pass uses a ply. Passing back and forth in a finished game keeps a single path alive,
        // so a game that ended early counts once.
        return perft_bits::<C>(opponent, player, depth - 1);
    }
    let mut total = 0;
    for sq in squares(mv) {
        let f = C::flips(sq, player, opponent);
        total += perft_bits::<C>(opponent ^ f, player ^ f ^ sq.bit(), depth - 1);
    }
    total
}

/// The standard perft counts from the start position, depths 0..=12 (from `perft.txt`, MODE1).
pub const START_PERFT: [u64; 13] = [
    1,
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_start_counts() {
        for d in 0..=7 {
            assert_eq!(
                perft(&Board::start(), d),
                START_PERFT[d as usize],
                "depth {d}"
            );
        }
    }

    #[test]
    fn every_supported_path_counts_the_published_leaves() {
        for path in CpuPath::ALL.into_iter().filter(|p| p.supported()) {
            for d in 0..=8 {
                assert_eq!(
                    perft_on(&Board::start(), d, path),
                    START_PERFT[d as usize],
                    "{path} depth {d}"
                );
            }
        }
    }

    #[test]
    fn finished_game_is_one_leaf_at_every_depth() {
        let full = Board::new(u64::MAX >> 20, !(u64::MAX >> 20)).unwrap();
        assert!(full.is_game_over());
        for d in 1..6 {
            assert_eq!(perft(&full, d), 1);
        }
    }
}
