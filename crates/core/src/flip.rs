//! Flip generation: which opponent discs a move turns over.
//!
//! The portable method is a "first blocker" scan along each of the eight rays from the move
//! square, with precomputed ray masks (a Kindergarten-style table of 64 x 8 masks). Along a ray,
//! the first square that is not an opponent disc decides everything: if it holds one of the
//! mover's discs, every square before it flips; otherwise nothing on that ray flips.
//!
//! - Rays that run toward higher square indices (east, south-west, south, south-east) find the
//!   first blocker as the lowest set bit (`x & -x`); the flips are then the ray bits below it.
//! - Rays that run toward lower indices find it as the highest set bit (leading-zero count); a
//!   sentinel bit 0 keeps that scan defined when the ray holds only opponent discs.
//!
//! Everything is branch-free: about six operations per ray, no loop over ray length.

use crate::square::Square;

/// Direction steps as (column delta, row delta): E, SW, S, SE (increasing index), then W, NE, N,
/// NW (decreasing index).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// `RAYS[sq][d]`: the squares strictly beyond `sq` in direction `d`, up to the board edge.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut mask = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The ray mask from `sq` in direction number `d` (0..8, see the module docs for the order).
pub fn ray(sq: Square, d: usize) -> u64 {
    RAYS[sq.index()][d]
}

/// Flips along a ray that runs toward higher indices.
#[inline(always)]
fn flips_up(ray: u64, player: u64, opponent: u64) -> u64 {
    let blockers = ray & !opponent;
    let first = blockers & blockers.wrapping_neg();
    let hit = 0u64.wrapping_sub(((first & player) != 0) as u64);
    first.wrapping_sub(1) & ray & hit
}

/// Flips along a ray that runs toward lower indices.
#[inline(always)]
fn flips_down(ray: u64, player: u64, opponent: u64) -> u64 {
    // Bit 0 is a sentinel: it keeps leading_zeros below 64. When it is not on the ray it can
    // never satisfy `first & player & ray`, so it never produces flips.
    let blockers = (ray & !opponent) | 1;
    let first = (1u64 << 63) >> blockers.leading_zeros();
    let hit = 0u64.wrapping_sub(((first & player & ray) != 0) as u64);
    ray & !(first | first.wrapping_sub(1)) & hit
}

/// The discs flipped when the side owning `player` plays on `sq`, portable version.
///
/// `sq` must be empty; if it is not a legal move the result is 0 (a move is legal exactly when
/// it flips something).
#[inline]
pub fn flips_portable(sq: Square, player: u64, opponent: u64) -> u64 {
    let r = &RAYS[sq.index()];
    flips_up(r[0], player, opponent)
        | flips_up(r[1], player, opponent)
        | flips_up(r[2], player, opponent)
        | flips_up(r[3], player, opponent)
        | flips_down(r[4], player, opponent)
        | flips_down(r[5], player, opponent)
        | flips_down(r[6], player, opponent)
        | flips_down(r[7], player, opponent)
}

/// The discs flipped when the side owning `player` plays on `sq` (0 if the move is illegal).
///
/// This is the entry point search uses; it dispatches to the fastest variant compiled in.
#[inline(always)]
pub fn flips(sq: Square, player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::flips(sq, player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(sq, player, opponent)
    }
}

/// AVX2 version: the four rays toward higher indices in one register, the four toward lower
/// indices in another.
///
/// Higher-index rays use the same lowest-blocker trick as the portable code. Lower-index rays
/// have no vector leading-zero count in AVX2, so the blockers are smeared away from the move
/// square with three doubling shifts; the ray squares left uncovered are exactly the run of
/// opponent discs next to the move, and it flips when the square just past it is the mover's.
///
/// Compiled on every x86-64 build: a build for AVX2 machines calls it through `avx2::flips`,
/// and the portable build through the run-time dispatch of [`crate::cpu`].
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::{Square, RAYS};
    use std::arch::x86_64::*;

    /// The discs flipped by a move on `sq`, eight rays in two registers.
    #[cfg(target_feature = "avx2")]
    #[inline(always)]
    pub fn flips(sq: Square, player: u64, opponent: u64) -> u64 {
        // SAFETY: this function is compiled only when the whole build enables AVX2
        // (`cfg(target_feature = "avx2")`), so every CPU this binary may run on has it.
        unsafe { flips_avx2(sq, player, opponent) }
    }

    /// The rays from `sq`: toward higher indices (E, SW, S, SE) and toward lower ones (W, NE,
    /// N, NW), four lanes each.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn rays(sq: Square) -> (__m256i, __m256i) {
        let rays = &RAYS[sq.index()];
        // SAFETY: `rays` is a `[u64; 8]`, 64 readable bytes; each unaligned 256-bit load reads
        // 32 of them (elements 0..4 and 4..8).
        unsafe {
            (
                _mm256_loadu_si256(rays.as_ptr() as *const __m256i),
                _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i),
            )
        }
    }

    /// The four lanes of `v` ORed together.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn or_lanes(v: __m256i) -> u64 {
        let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let found = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(found) as u64
    }

    /// The AVX2 kernel.
    ///
    /// # Safety
    /// The processor must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn flips_avx2(sq: Square, player: u64, opponent: u64) -> u64 {
        let (up_ray, down_ray) = rays(sq);
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();

        // Rays toward higher indices: E, SW, S, SE.
        let blockers = _mm256_andnot_si256(o, up_ray);
        let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
        let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, p), zero);
        let below = _mm256_add_epi64(first, _mm256_set1_epi64x(-1));
        let up = _mm256_andnot_si256(miss, _mm256_and_si256(below, up_ray));

        // Rays toward lower indices: W, NE, N, NW (steps 1, 7, 8, 9).
        let step = _mm256_set_epi64x(9, 8, 7, 1);
        let blockers = _mm256_andnot_si256(o, down_ray);
        let mut cover = _mm256_or_si256(blockers, _mm256_srlv_epi64(blockers, step));
        cover = _mm256_or_si256(
            cover,
            _mm256_srlv_epi64(cover, _mm256_slli_epi64::<1>(step)),
        );
        cover = _mm256_or_si256(
            cover,
            _mm256_srlv_epi64(cover, _mm256_slli_epi64::<2>(step)),
        );
        let run = _mm256_andnot_si256(cover, down_ray);
        let closer = _mm256_and_si256(_mm256_srlv_epi64(run, step), _mm256_and_si256(p, down_ray));
        let miss = _mm256_cmpeq_epi64(closer, zero);
        let down = _mm256_andnot_si256(miss, run);

        or_lanes(_mm256_or_si256(up, down))
    }
}

/// AVX-512 version: the AVX2 kernel's two registers (rays toward higher indices in one, toward
/// lower indices in the other), with AVX-512's vector leading-zero count (CD) and masks (VL).
///
/// AVX2 has no vector leading-zero count, so its lower-index rays smear the blockers with
/// three doubling shifts. Here each ray finds its first blocker directly: the lowest set bit
/// (`x & -x`) toward higher indices, the highest (`2^63 >> lzcnt`, 0 when the ray has no
/// blocker) toward lower ones. A ray flips when that blocker is the mover's (a test into a mask
/// register); the flips are the ray's squares between the move and the blocker: below it
/// (`first - 1`) or above it (`-2 * first`).
///
/// A version with all eight rays in one 512-bit register is faster in a throughput benchmark
/// (21.1 against 29.0 µs for the flips bench, where this one takes 19.6) but 5% slower in the
/// endgame solver, whose flips are on the critical path: its final reduction is three shuffles
/// deep (docs/dev/PERFORMANCE.md).
#[cfg(target_arch = "x86_64")]
pub mod avx512 {
    use super::avx2::{or_lanes, rays};
    use super::Square;
    use std::arch::x86_64::*;

    /// Whether this processor runs [`flips_avx512`].
    pub fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512cd")
    }

    /// The AVX-512 kernel (VL and CD, on 256-bit registers).
    ///
    /// # Safety
    /// The processor must support AVX-512 F, VL and CD.
    #[target_feature(enable = "avx512f,avx512vl,avx512cd")]
    #[inline]
    pub unsafe fn flips_avx512(sq: Square, player: u64, opponent: u64) -> u64 {
        let (up_ray, down_ray) = rays(sq);
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();

        let blockers = _mm256_andnot_si256(o, up_ray);
        let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
        let below = _mm256_add_epi64(first, _mm256_set1_epi64x(-1));
        let up = _mm256_maskz_and_epi64(_mm256_test_epi64_mask(first, p), below, up_ray);

        let blockers = _mm256_andnot_si256(o, down_ray);
        let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(blockers));
        let above = _mm256_sub_epi64(zero, _mm256_add_epi64(first, first));
        let down = _mm256_maskz_and_epi64(_mm256_test_epi64_mask(first, p), above, down_ray);

        or_lanes(_mm256_or_si256(up, down))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_have_the_expected_lengths() {
        // From a1: east 7, south 7, south-east 7; everything else empty.
        let a1 = &RAYS[Square::A1.index()];
        assert_eq!(a1.map(u64::count_ones), [7, 0, 7, 7, 0, 0, 0, 0]);
        let d4 = &RAYS[Square::D4.index()];
        assert_eq!(d4.map(u64::count_ones), [4, 3, 4, 4, 3, 3, 3, 3]);
        assert_eq!(ray(Square::H8, 7).count_ones(), 7);
    }

    #[test]
    fn opening_move_flips_one_disc() {
        // Start position, Black to move: Black on d5, e4; White on d4, e5.
        let black = Square::D5.bit() | Square::E4.bit();
        let white = Square::D4.bit() | Square::E5.bit();
        assert_eq!(flips(Square::F5, black, white), Square::E5.bit());
        assert_eq!(flips(Square::D3, black, white), Square::D4.bit());
        assert_eq!(flips(Square::A1, black, white), 0);
        assert_eq!(flips(Square::F4, black, white), 0);
    }

    /// Every square, every ray, every run of opponent discs from the move, closed by the
    /// mover, by an empty square or by the edge: the AVX-512 kernel (where the processor has
    /// it) equals the portable scan, which equals the run itself when closed.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx512_kernel_equals_the_portable_scan_on_every_ray_run() {
        let mut checked = 0;
        for sq in (0..64).map(|i| Square::from_index(i).unwrap()) {
            for d in 0..8 {
                let squares: Vec<u64> = crate::bitboard::squares(ray(sq, d))
                    .map(|s| s.bit())
                    .collect();
                // Along the ray from the move square outward.
                let ordered: Vec<u64> = if d < 4 {
                    squares
                } else {
                    squares.into_iter().rev().collect()
                };
                for run in 0..=ordered.len() {
                    let opponent: u64 = ordered[..run].iter().fold(0, |a, b| a | b);
                    for closer in [true, false] {
                        let player = match (closer, ordered.get(run)) {
                            (true, Some(&b)) => b,
                            _ => 0,
                        };
                        // Discs off this ray (its own flips aside) must not change this ray.
                        let noise = !ray(sq, d) & !sq.bit() & 0x0123_4567_89AB_CDEF;
                        let (p, o) = (player | (noise & 0x5555_5555_5555_5555), opponent);
                        let o = o | (noise & 0xAAAA_AAAA_AAAA_AAAA & !p);
                        let expected = flips_portable(sq, p, o);
                        if closer && run > 0 && player != 0 {
                            assert_eq!(expected & ray(sq, d), opponent, "{sq:?} ray {d} run {run}");
                        }
                        if avx512::available() {
                            // SAFETY: `available` just found AVX-512 F and CD.
                            let got = unsafe { avx512::flips_avx512(sq, p, o) };
                            assert_eq!(got, expected, "{sq:?} ray {d} run {run} closed {closer}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked == 0 || checked > 1000);
    }

    #[test]
    fn a_ray_full_of_opponent_discs_flips_nothing() {
        // a1 empty, b1..h1 all white: no black disc closes the line.
        let white = 0xFE;
        assert_eq!(flips(Square::A1, 0, white), 0);
        // h8 empty, the whole diagonal g7..a1 white.
        let diag = ray(Square::H8, 7);
        assert_eq!(flips(Square::H8, 0, diag), 0);
        // Close it with a black a1 and the six between flip.
        let black = Square::A1.bit();
        assert_eq!(flips(Square::H8, black, diag & !black), diag & !black);
    }
}
