//! AVX2 kernels of the network's inference, for an accumulator of width 64 (the shipped
//! shape) or 128 ([`takes`]) and a second layer of a multiple of 8.
//!
//! **Technique.** The accumulator lives in H / 16 256-bit registers of sixteen `i16` (four or
//! eight). Each embedding row (H `i8`, one or two cache lines) is sign-extended sixteen
//! weights at a time (`vpmovsxbw`) and added. The second layer multiplies the clamped accumulator by each
//! output's row of `i16` weights in pairs summed to `i32` (`vpmaddwd`), and eight outputs'
//! partial sums are reduced together by a tree of horizontal adds, so that one register
//! holds eight outputs. The float tail then runs eight outputs a register.
//!
//! The integers are exact, so they equal the portable loop's whatever the order of the
//! sums. The float tail does the same operations in the same order as
//! [`super::float_tail`] (no fused multiply-add; output `k` summed into lane `k % 8`, the lanes
//! reduced by [`super::reduce8`]'s tree), so every code path gives the same bits: the tests
//! compare them.

use std::arch::x86_64::*;

/// Whether the kernels take a network of accumulator width `hidden` and second-layer width
/// `l2` (the widths they are compiled for: [`forward`]'s `H`).
pub(super) fn takes(hidden: usize, l2: usize) -> bool {
    (hidden == 64 || hidden == 128) && l2.is_multiple_of(8)
}

/// The second layer and the float tail of a network of width `H` (64 or 128), given its
/// embedding `emb`, bias `b0`, the row starts `starts` (each a multiple of `H` with the row
/// inside `emb`), and the phase bucket's layers: `w2` (`l2 × H`), `mob_p`, `mob_o`, `b2`, `w3`
/// (`l2` each, `l2` a multiple of 8). Returns `Σ_k w3[k] · clamp(z_k, 0, 1)` summed as the portable tail sums
/// it (the output bias not added).
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
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
    assert!(H.is_multiple_of(16) && H <= 128);
    assert!(b0.len() >= H && l2.is_multiple_of(8) && w2.len() >= l2 * H);
    assert!(mob_p.len() >= l2 && mob_o.len() >= l2 && w3.len() >= l2);
    // SAFETY (of every load below): each pointer is to a slice checked long enough above or
    // by the row's bounds check; the loads are unaligned loads, and AVX2 is present (the
    // caller's contract).
    let mut acc = [_mm256_setzero_si256(); 8];
    let acc = &mut acc[..H / 16];
    for (i, a) in acc.iter_mut().enumerate() {
        *a = _mm256_loadu_si256(b0.as_ptr().add(16 * i) as *const __m256i);
    }
    for &start in starts {
        let row = &emb[start..start + H];
        for (i, a) in acc.iter_mut().enumerate() {
            let bytes = _mm_loadu_si128(row.as_ptr().add(16 * i) as *const __m128i);
            *a = _mm256_add_epi16(*a, _mm256_cvtepi8_epi16(bytes));
        }
    }
    let (zero, top) = (
        _mm256_setzero_si256(),
        _mm256_set1_epi16(super::EMBED_SCALE as i16),
    );
    for a in acc.iter_mut() {
        *a = _mm256_min_epi16(_mm256_max_epi16(*a, zero), top);
    }
    let mut y = _mm256_setzero_ps();
    for k8 in (0..l2).step_by(8) {
        let mut sums = [_mm256_setzero_si256(); 8];
        for (j, s) in sums.iter_mut().enumerate() {
            let row = w2.as_ptr().add((k8 + j) * H);
            let mut t = _mm256_setzero_si256();
            for (i, a) in acc.iter().enumerate() {
                let w = _mm256_loadu_si256(row.add(16 * i) as *const __m256i);
                t = _mm256_add_epi32(t, _mm256_madd_epi16(*a, w));
            }
            *s = t;
        }
        y = tail8(y, reduce_eight(&sums), k8, mob_p, mob_o, b2, w3, mobility);
    }
    let mut lanes = [0f32; 8];
    _mm256_storeu_ps(lanes.as_mut_ptr(), y);
    super::reduce8(lanes)
}

/// Outputs `k8..k8 + 8` of the float tail added into the lanes `y`: their second-layer sums
/// `dots` scaled, the mobility inputs and the bias added, clamped, and weighted by `w3` (the
/// order of [`super::float_tail`]). The slices must hold `k8 + 8` values.
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn tail8(
    y: __m256,
    dots: __m256i,
    k8: usize,
    mob_p: &[f32],
    mob_o: &[f32],
    b2: &[f32],
    w3: &[f32],
    mobility: [f32; 2],
) -> __m256 {
    let end = k8 + 8;
    assert!(mob_p.len() >= end && mob_o.len() >= end && b2.len() >= end && w3.len() >= end);
    // SAFETY: the four slices hold `k8 + 8` values (checked above); unaligned loads.
    let inv = _mm256_set1_ps(1.0 / (super::EMBED_SCALE as f32 * super::W2_SCALE as f32));
    let mut z = _mm256_mul_ps(_mm256_cvtepi32_ps(dots), inv);
    z = _mm256_add_ps(
        z,
        _mm256_mul_ps(
            _mm256_loadu_ps(mob_p.as_ptr().add(k8)),
            _mm256_set1_ps(mobility[0]),
        ),
    );
    z = _mm256_add_ps(
        z,
        _mm256_mul_ps(
            _mm256_loadu_ps(mob_o.as_ptr().add(k8)),
            _mm256_set1_ps(mobility[1]),
        ),
    );
    z = _mm256_add_ps(z, _mm256_loadu_ps(b2.as_ptr().add(k8)));
    let h = _mm256_min_ps(_mm256_max_ps(z, _mm256_setzero_ps()), _mm256_set1_ps(1.0));
    _mm256_add_ps(y, _mm256_mul_ps(_mm256_loadu_ps(w3.as_ptr().add(k8)), h))
}

/// The eight sums of the eight registers' lanes, `[Σ s0, …, Σ s7]`, by horizontal adds.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn reduce_eight(s: &[__m256i; 8]) -> __m256i {
    // Each hadd sums neighbouring lanes within each 128-bit half: after two rounds the low half
    // of `u0` holds s0..s3's low-half sums, its high half their high-half sums.
    let t0 = _mm256_hadd_epi32(s[0], s[1]);
    let t1 = _mm256_hadd_epi32(s[2], s[3]);
    let t2 = _mm256_hadd_epi32(s[4], s[5]);
    let t3 = _mm256_hadd_epi32(s[6], s[7]);
    let u0 = _mm256_hadd_epi32(t0, t1);
    let u1 = _mm256_hadd_epi32(t2, t3);
    _mm256_add_epi32(
        _mm256_permute2x128_si256::<0x20>(u0, u1),
        _mm256_permute2x128_si256::<0x31>(u0, u1),
    )
}
