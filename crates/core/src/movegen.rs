//! Legal-move generation by directional shifts.
//!
//! A square is a legal move when a line of opponent discs runs from it to one of the mover's
//! discs. For each of the four direction pairs (horizontal 1, vertical 8, diagonals 7 and 9) the
//! mover's discs are shifted across the opponent's with a parallel-prefix fill (the Kogge-Stone
//! technique applied to bitboards): two single steps cover runs of one and two discs, then two
//! double steps over "pairs" (opponent discs whose neighbour is also an opponent disc) extend
//! the fill to the longest possible run of six. For directions with a horizontal component the
//! opponent's discs on columns a and h are masked out, which also stops shifts wrapping around
//! the board's edges.
//!
//! The portable version works on `u64`. With AVX2 the four direction pairs run in the four 64-bit
//! lanes of one 256-bit register, using per-lane variable shifts; the search selects it at run
//! time when the processor has AVX2 ([`crate::cpu`]), and it is tested against the portable
//! version.

use crate::bitboard::INNER_COLUMNS;

/// The moves of `player` against `opponent`, as a bitboard of empty squares.
#[inline(always)]
pub fn moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::moves(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_portable(player, opponent)
    }
}

/// The moves of `player` against `opponent`, portable shift version (the reference for the
/// SIMD version).
#[inline]
pub fn moves_portable(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_COLUMNS;
    let found = fill::<1>(player, inner)
        | fill::<8>(player, opponent)
        | fill::<7>(player, inner)
        | fill::<9>(player, inner);
    found & !(player | opponent)
}

/// Squares reached from `player` across a run of `mask` discs in both directions of step `D`.
#[inline(always)]
fn fill<const D: u32>(player: u64, mask: u64) -> u64 {
    let mut up = mask & (player << D);
    up |= mask & (up << D);
    let pairs = mask & (mask << D);
    up |= pairs & (up << (2 * D));
    up |= pairs & (up << (2 * D));
    let mut down = mask & (player >> D);
    down |= mask & (down >> D);
    let pairs = mask & (mask >> D);
    down |= pairs & (down >> (2 * D));
    down |= pairs & (down >> (2 * D));
    (up << D) | (down >> D)
}

/// AVX2 version: lanes hold directions 1, 8, 7, 9.
///
/// Compiled on every x86-64 build: a build for AVX2 machines calls it through `avx2::moves`,
/// and the portable build through the run-time dispatch of [`crate::cpu`].
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::INNER_COLUMNS;
    use std::arch::x86_64::*;

    /// The moves of `player` against `opponent`, four directions per instruction.
    #[cfg(target_feature = "avx2")]
    #[inline(always)]
    pub fn moves(player: u64, opponent: u64) -> u64 {
        // SAFETY: this function is compiled only when the whole build enables AVX2
        // (`cfg(target_feature = "avx2")`), so every CPU this binary may run on has it.
        unsafe { moves_avx2(player, opponent) }
    }

    /// The AVX2 kernel.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn moves_avx2(player: u64, opponent: u64) -> u64 {
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let p = _mm256_set1_epi64x(player as i64);
        let lane_mask = _mm256_set_epi64x(
            INNER_COLUMNS as i64,
            INNER_COLUMNS as i64,
            -1,
            INNER_COLUMNS as i64,
        );
        let mask = _mm256_and_si256(_mm256_set1_epi64x(opponent as i64), lane_mask);

        let mut up = _mm256_and_si256(mask, _mm256_sllv_epi64(p, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_sllv_epi64(up, shift)));
        let pairs = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
        up = _mm256_or_si256(up, _mm256_and_si256(pairs, _mm256_sllv_epi64(up, shift2)));
        up = _mm256_or_si256(up, _mm256_and_si256(pairs, _mm256_sllv_epi64(up, shift2)));
        let up = _mm256_sllv_epi64(up, shift);

        let mut down = _mm256_and_si256(mask, _mm256_srlv_epi64(p, shift));
        down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srlv_epi64(down, shift)));
        let pairs = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, shift));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs, _mm256_srlv_epi64(down, shift2)),
        );
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(pairs, _mm256_srlv_epi64(down, shift2)),
        );
        let down = _mm256_srlv_epi64(down, shift);

        let all = _mm256_or_si256(up, down);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256::<1>(all),
        );
        let found = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        (_mm_cvtsi128_si64(found) as u64) & !(player | opponent)
    }
}
