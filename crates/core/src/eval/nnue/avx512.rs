//! AVX-512 kernel of the network's inference (AVX-512 F and BW), for the shapes the AVX2
//! kernel takes ([`super::avx2::takes`]): an accumulator of width 64 or 128, a second layer
//! of a multiple of 8.
//!
//! **Technique.** The accumulator of H `i16` is H / 32 512-bit registers; each embedding row
//! (H `i8`, one cache line a 64) is sign-extended 32 weights at a time (`vpmovsxbw` to 512
//! bits) and added, half the instructions of the AVX2 kernel. The second layer multiplies each
//! output's `i16` row by the clamped accumulator in pairs summed to `i32` (`vpmaddwd` on 512
//! bits, H / 32 per output); the two 256-bit halves of each output's sums are added, and eight outputs are
//! then reduced together by the AVX2 kernel's tree. The float tail is the AVX2 kernel's
//! ([`super::avx2::tail8`]): the same operations in the same order, so this kernel gives the
//! same bits as every other path (tested).
//!
//! The integer sums are exact in `i32` (at most 128 products of 256 × 32767, under 2^30), so
//! their order does not matter.

use std::arch::x86_64::*;

use super::avx2::{reduce_eight, tail8};

/// Whether this processor can run [`forward`].
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx2")
}

/// As [`super::avx2::forward`], with the same arguments and result.
///
/// # Safety
/// The processor must have AVX-512 F and BW and AVX2 ([`available`]).
#[target_feature(enable = "avx512f,avx512bw,avx2")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn forward<const H: usize>(
    emb: &[i8],
    b0: &[i16],
    starts: &[usize],
    w2: &[i16],
    mob_p: &[f32],
    mob_o: &[f32],
    b2: &[f32],
    w3: &[f32],
    mobility: [f32; 2],
) -> f32 {
    let l2 = b2.len();
    assert!(H.is_multiple_of(32) && H <= 128);
    assert!(b0.len() >= H && l2.is_multiple_of(8) && w2.len() >= l2 * H);
    assert!(mob_p.len() >= l2 && mob_o.len() >= l2 && w3.len() >= l2);
    // SAFETY (of every load below): each pointer is to a slice checked long enough above or by
    // the row's bounds check; the loads are unaligned loads, and the features are present (the
    // caller's contract).
    let mut acc = [_mm512_setzero_si512(); 4];
    let acc = &mut acc[..H / 32];
    for (i, a) in acc.iter_mut().enumerate() {
        *a = _mm512_loadu_si512(b0.as_ptr().add(32 * i) as *const __m512i);
    }
    for &start in starts {
        let row = &emb[start..start + H];
        for (i, a) in acc.iter_mut().enumerate() {
            let bytes = _mm256_loadu_si256(row.as_ptr().add(32 * i) as *const __m256i);
            *a = _mm512_add_epi16(*a, _mm512_cvtepi8_epi16(bytes));
        }
    }
    let (zero, top) = (
        _mm512_setzero_si512(),
        _mm512_set1_epi16(super::EMBED_SCALE as i16),
    );
    for a in acc.iter_mut() {
        *a = _mm512_min_epi16(_mm512_max_epi16(*a, zero), top);
    }
    let mut y = _mm256_setzero_ps();
    for k8 in (0..l2).step_by(8) {
        let mut sums = [_mm256_setzero_si256(); 8];
        for (j, s) in sums.iter_mut().enumerate() {
            let row = w2.as_ptr().add((k8 + j) * H);
            let mut t = _mm512_setzero_si512();
            for (i, a) in acc.iter().enumerate() {
                let w = _mm512_loadu_si512(row.add(32 * i) as *const __m512i);
                t = _mm512_add_epi32(t, _mm512_madd_epi16(*a, w));
            }
            *s = _mm256_add_epi32(_mm512_castsi512_si256(t), _mm512_extracti64x4_epi64::<1>(t));
        }
        y = tail8(y, reduce_eight(&sums), k8, mob_p, mob_o, b2, w3, mobility);
    }
    let mut lanes = [0f32; 8];
    _mm256_storeu_ps(lanes.as_mut_ptr(), y);
    super::reduce8(lanes)
}
