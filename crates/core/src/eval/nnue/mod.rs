//! `NnueEval`: a small neural network over the pattern features, the evaluator of issue 55.
//!
//! ```text
//! a   = b0 + Σ_{58 placements} E[row(placement)]            H values (int16)
//! h1  = clamp(a, 0, 1)
//! h2  = clamp(W2[b] · h1 + M[b] · (moves(p), moves(o)) / 16 + b2[b], 0, 1)   L2 values
//! y   = W3[b] · h2 + b3[b]                                  discs for the side to move
//! ```
//!
//! **Features.** The 58 placements of the 14 shapes of pattern set 3
//! ([`super::pattern::geometry::INSTANCES`]), each read as a base-3 index (0 empty, 1 a disc of
//! the side to move, 2 an opponent disc) and mapped to its *weight class* (indices equal under
//! the symmetries that map the shape onto itself share a class). A shape's placements share
//! one embedding table, so the network is exactly invariant under the eight board symmetries.
//! `b` is the phase bucket, `empties * B / 61`.
//!
//! **Inference** is quantised: the embedding in `i8` and the accumulator in `i16`, both at
//! [`EMBED_SCALE`] per unit (so the clipped activation runs from 0 to `EMBED_SCALE`), the
//! second layer's weights in `i16` at [`W2_SCALE`], its products summed in `i32`; the last few
//! dozen operations in `f32`. An embedding row of H = 64 is one 64-byte cache line: the 58 row
//! loads are what an evaluation costs. Embedding weights beyond ±127/256 are clipped; on the
//! first trained network that was 0.02% of them, and the held-out MAE moved from 4.4221 to
//! 4.4228 discs (rounding to 1/128 instead cost 0.05), so the loaders refuse a network where
//! more than [`MAX_CLIPPED`] of the weights would clip. The loops are written for the compiler to vectorise, and run
//! inside the code path's trampoline ([`Cpu::run`]), so the AVX2 paths get AVX2 code and the
//! portable path SSE2; every path gives the same integers (tested), within a small bound of
//! the float reference ([`FloatNet`], tested on every shipped network).
//!
//! **State.** The searches evaluate a node's children one after another; the children's
//! pattern indices come from their siblings' (the pattern evaluator's [`SiblingStack`], see
//! [`super::pattern::siblings`]), so the per-thread state is the same as the pattern
//! evaluator's. The accumulator itself is computed whole for each evaluation: a move changes
//! the placements through about four squares, and the side to move changes with it, so an
//! incremental accumulator would have to carry both sides' views and update about 20
//! placements of each, more row loads than the 58 of a whole accumulator.
//!
//! The file format is [`mod@file`]'s; the trainer is `crates/nnue` (`nnue-train`).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod cache;
pub mod file;

use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::cpu::{with_cpu, Cpu, CpuPath};
use crate::eval::pattern::geometry::{
    geometry, INSTANCES, INSTANCE_COUNT, PATTERNS, PATTERN_TABLES_LEN, POW3,
};
use crate::eval::pattern::{PatternEval, SiblingStack, Siblings};
use crate::eval::{clamp_score, EvalState, Evaluator};
use crate::square::Square;
use crate::zeroed::ZeroedArray;

use super::pattern::siblings::Indices;

pub use cache::{ValueCache, CACHE_BITS};
pub use file::{FloatNet, NnueError};

/// Embedding and accumulator units per unit of activation (the embedding in `i8`, ±0.496; the
/// accumulator in `i16`, ±128).
pub const EMBED_SCALE: i32 = 256;
/// The largest share of embedding weights a network may have clipped to the `i8` range.
pub const MAX_CLIPPED: f64 = 0.001;
/// Second-layer weight units per unit (`i16`: weights up to ±4 fit).
pub const W2_SCALE: i32 = 8192;
/// The widest accumulator a network may have.
pub const MAX_HIDDEN: usize = 256;
/// The widest second layer a network may have.
pub const MAX_L2: usize = 128;
/// Scale of the mobility inputs: a move count is divided by this.
pub const MOBILITY_SCALE: f32 = 16.0;

/// `raw_to_row()[PATTERNS[p].offset + index]`: the embedding row of base-3 `index` of shape `p`.
pub fn raw_to_row() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let g = geometry();
        let mut t = vec![0u32; PATTERN_TABLES_LEN];
        for (p, def) in PATTERNS.iter().enumerate() {
            for (index, &class) in g.canon[p].iter().enumerate() {
                t[def.offset + index] = (g.compact_offset[p] + class as usize) as u32;
            }
        }
        t
    })
}

/// Offset in [`raw_to_row`] of each placement's shape table.
const SLOT_OFFSETS: [u32; INSTANCE_COUNT] = {
    let mut out = [0u32; INSTANCE_COUNT];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        out[i] = PATTERNS[INSTANCES[i].pattern as usize].offset as u32;
        i += 1;
    }
    out
};

/// Asks the processor to bring `table[start..]` into the cache (a hint: nothing happens on
/// targets without one, and a start past the table is never read).
#[inline(always)]
fn prefetch(table: &[i8], start: usize) {
    #[cfg(target_arch = "x86_64")]
    if start < table.len() {
        // SAFETY: the address is inside `table`; a prefetch reads nothing architecturally and
        // cannot fault, whatever the address.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                table.as_ptr().add(start),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, start);
}

/// The accumulator of a network of width `H` (a constant, so that it lives in registers):
/// `b0` plus the rows of `emb` starting at `starts`, into `acc[..H]`.
#[inline(always)]
fn accumulate<const H: usize>(
    emb: &[i8],
    b0: &[i16],
    starts: &[usize],
    acc: &mut [i16; MAX_HIDDEN],
) {
    let mut sum = [0i16; H];
    sum.copy_from_slice(&b0[..H]);
    for &start in starts {
        let row: &[i8; H] = emb[start..start + H].try_into().expect("a whole row");
        for (a, &w) in sum.iter_mut().zip(row) {
            *a = a.wrapping_add(w as i16);
        }
    }
    acc[..H].copy_from_slice(&sum);
}

/// The placement slots of the shapes that have at least one nonzero row in `emb` (the rows of
/// `hidden` by base-3 index, [`NnueEval`]'s layout), in [`INSTANCES`] order.
pub(crate) fn active_slots(emb: &[i8], hidden: usize) -> Vec<u8> {
    let used: Vec<bool> = PATTERNS
        .iter()
        .map(|def| {
            let (r0, r1) = (def.offset, def.offset + POW3[def.len as usize] as usize);
            emb[r0 * hidden..r1 * hidden].iter().any(|&w| w != 0)
        })
        .collect();
    (0..INSTANCE_COUNT as u8)
        .filter(|&slot| used[INSTANCES[slot as usize].pattern as usize])
        .collect()
}

/// The embedding rows of the 58 placements whose base-3 indices are `indices` (in
/// [`INSTANCES`] order): the network's input, as the trainer and the float reference read it.
#[inline]
pub fn rows_from_indices(indices: &[u32; INSTANCE_COUNT]) -> [u32; INSTANCE_COUNT] {
    let table = raw_to_row();
    let mut out = [0u32; INSTANCE_COUNT];
    for ((row, &offset), &index) in out.iter_mut().zip(&SLOT_OFFSETS).zip(indices) {
        *row = table[(offset + index) as usize];
    }
    out
}

/// The float tail of the network: `Σ_k w3[k] · clamp(z_k, 0, 1)` where `z_k = dot(k) +
/// mob_p[k] · mobility[0] + mob_o[k] · mobility[1] + b2[k]`, output `k` summed into lane
/// `k % 8` and the lanes reduced by [`reduce8`]: the order the AVX2 kernel sums in, so that
/// every code path gives the same bits.
#[inline(always)]
fn float_tail(
    l2: usize,
    mobility: [f32; 2],
    mob_p: &[f32],
    mob_o: &[f32],
    b2: &[f32],
    w3: &[f32],
    dot: impl Fn(usize) -> f32,
) -> f32 {
    let mut lanes = [0f32; 8];
    for k in 0..l2 {
        let z = dot(k) + mob_p[k] * mobility[0] + mob_o[k] * mobility[1] + b2[k];
        lanes[k % 8] += w3[k] * z.clamp(0.0, 1.0);
    }
    reduce8(lanes)
}

/// The sum of eight lanes by a fixed tree: the halves added lane by lane, then again, then the
/// last two.
#[inline(always)]
fn reduce8(y: [f32; 8]) -> f32 {
    let a = [y[0] + y[4], y[1] + y[5], y[2] + y[6], y[3] + y[7]];
    let b = [a[0] + a[2], a[1] + a[3]];
    b[0] + b[1]
}

/// Whether this processor runs the AVX-512 kernel of the network's inference.
pub fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx512::available();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The phase bucket of a position with `empties` empty squares among `buckets`.
#[inline(always)]
pub fn bucket(empties: u32, buckets: usize) -> usize {
    ((empties as usize) * buckets / 61).min(buckets - 1)
}

/// The quantised network (see the module docs).
pub struct NnueEval {
    hidden: usize,
    l2: usize,
    buckets: usize,
    /// The placement slots read, in order: those of the shapes with a nonzero row (a shape
    /// left out in training has all its rows zero and costs no load).
    active: Vec<u8>,
    /// The embedding by base-3 index: the row of index `i` of shape `p` at
    /// `(PATTERNS[p].offset + i) × hidden`, a copy of its weight class's row ([`raw_to_row`]),
    /// at [`EMBED_SCALE`], from a cache-line boundary. 22 MB instead of 13 for the shipped
    /// shape, and no dependent load of [`raw_to_row`] (1.4 MB, beyond the L2 cache) before
    /// each row's.
    emb: ZeroedArray<i8>,
    /// `hidden`, at [`EMBED_SCALE`].
    b0: Vec<i16>,
    /// `buckets × l2 × hidden`, at [`W2_SCALE`].
    w2: Vec<i16>,
    /// `buckets × 2 × l2`: the mobility inputs' weights, the side to move's `l2` then the
    /// opponent's, by bucket.
    w2_mobility: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: Vec<f32>,
    /// The Multi-ProbCut model fitted to this network, if one came with it.
    mpc_model: Option<String>,
    /// The cheaper evaluator that orders moves, if any ([`NnueEval::with_orderer`]).
    orderer: Option<Arc<PatternEval>>,
    /// How far outside a leaf's window the orderer's estimate must lie to stand for the
    /// network's value ([`Evaluator::evaluate_child_window_in`]), centi-discs; `None`: never.
    lazy_margin: Option<i32>,
    /// Positions with at most this many empty squares get the orderer's value instead of the
    /// network's ([`NnueEval::with_pattern_below`]); `None`: never.
    pattern_below: Option<u32>,
    /// The AVX-512 kernel replaces the AVX2 one on the paths that use it (detected when the
    /// network is built; [`NnueEval::with_avx512`]).
    avx512: bool,
    /// The pattern weights this network corrects (`nnue-train --base`; the file's base
    /// field): the value is the network's output plus theirs.
    base: Option<Arc<PatternEval>>,
    /// Whether each search thread's state caches the network's values
    /// ([`NnueEval::with_value_cache`]).
    value_cache: bool,
}

impl std::fmt::Debug for NnueEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "NnueEval {{ H {}, L2 {}, {} buckets }}",
            self.hidden, self.l2, self.buckets
        )
    }
}

impl NnueEval {
    /// The accumulator width H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The second layer's width.
    pub fn l2(&self) -> usize {
        self.l2
    }

    /// The phase buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// This network with `orderer` valuing positions for move ordering (the midgame's ordering
    /// of children, the endgame's ordering searches), where a cheaper evaluation orders about
    /// as well; the network still values every leaf and every ProbCut test. Pattern weights
    /// that do not read pattern set 3's shapes are not taken (they would share the siblings'
    /// indices without those shapes').
    pub fn with_orderer(mut self, orderer: Arc<PatternEval>) -> NnueEval {
        if orderer.uses_set3_shapes() {
            self.orderer = Some(orderer);
        }
        self
    }

    /// The pattern weights that order this network's moves, if any ([`NnueEval::with_orderer`]).
    pub fn orderer(&self) -> Option<&PatternEval> {
        self.orderer.as_deref()
    }

    /// This network with lazy leaves: a leaf whose orderer's estimate lies more than `margin`
    /// centi-discs outside its window gets the estimate (`None`: the network values every
    /// leaf). Only with an orderer ([`NnueEval::with_orderer`]).
    pub fn with_lazy_margin(mut self, margin: Option<i32>) -> NnueEval {
        self.lazy_margin = margin;
        self
    }

    /// This network handing positions with at most `empties` empty squares to its orderer's
    /// pattern weights (`None`: the network values every position). Only with an orderer
    /// ([`NnueEval::with_orderer`]). Near the end of the game the network is the weaker of
    /// the two (docs/dev/NNUE.md, session 36): a midgame search from 23 empties to depth 15
    /// has its leaves at 8.
    pub fn with_pattern_below(mut self, empties: Option<u32>) -> NnueEval {
        self.pattern_below = empties;
        self
    }

    /// This network's search states each remembering the latest values in a [`ValueCache`]
    /// of 256 KiB (`on`), or computing every value (the default, which the tests comparing
    /// code paths need: a cached value would hide the second path's). The engine's networks
    /// take the cache: about a quarter of a depth-15 search's network evaluations repeat one
    /// it made shortly before (docs/dev/NNUE.md, session 56). The cache belongs to one search
    /// thread's state ([`NnueState`]), made empty with it, so a search's values never depend
    /// on another search's, and a lazy leaf may take a cached value before any estimate.
    pub fn with_value_cache(mut self, on: bool) -> NnueEval {
        self.value_cache = on;
        self
    }

    /// Whether the network's states cache its values ([`NnueEval::with_value_cache`]).
    pub fn caches_values(&self) -> bool {
        self.value_cache
    }

    /// The network's value of (`p`, `o`) from `cache`, or `compute`d and cached. Only the
    /// network's own value is cached (with its base's, which the file fixes), never a value
    /// the builders choose instead (the orderer's below [`NnueEval::with_pattern_below`], a
    /// lazy estimate), so no builder makes an entry stale.
    #[inline(always)]
    fn cached(
        &self,
        cache: Option<&ValueCache>,
        p: u64,
        o: u64,
        compute: impl FnOnce() -> i32,
    ) -> i32 {
        let Some(cache) = cache else {
            return compute();
        };
        let key = crate::hash::table_key(p, o);
        if let Some(value) = cache.get(key) {
            return value;
        }
        let value = compute();
        cache.put(key, value);
        value
    }

    /// This network using its AVX-512 kernel where the AVX2 one would run, if `on` and the
    /// processor has AVX-512 F and BW (the default when it has). Both give the same values; the
    /// tests and the benches compare them.
    pub fn with_avx512(mut self, on: bool) -> NnueEval {
        self.avx512 = on && avx512_available();
        self
    }

    /// Whether the AVX-512 kernel runs ([`NnueEval::with_avx512`]).
    pub fn uses_avx512(&self) -> bool {
        self.avx512
    }

    /// This network with the Multi-ProbCut model `text` (read beside its file).
    pub fn with_mpc_model_text(mut self, text: String) -> NnueEval {
        self.mpc_model = Some(text);
        self
    }

    /// The value in discs (before rounding) of (`p`, `o`) whose pattern indices are `idx`, on
    /// the code path `C`.
    #[inline(always)]
    fn forward<C: Cpu>(&self, idx: &Indices, p: u64, o: u64) -> f32 {
        let h = self.hidden;
        // Every row first, each prefetched: the 58 rows are independent loads from a table
        // larger than the L2 cache, and the accumulation below would otherwise keep only a
        // few of them in flight.
        let mut starts = [0usize; INSTANCE_COUNT];
        for (start, &slot) in starts.iter_mut().zip(&self.active) {
            let slot = slot as usize;
            *start = (SLOT_OFFSETS[slot] + idx.0[slot] as u32) as usize * h;
            // Every cache line of the row (one for H = 64, two for 128).
            for line in (0..h).step_by(64) {
                prefetch(self.emb.as_slice(), *start + line);
            }
        }
        let starts = &starts[..self.active.len()];
        let empties = (!(p | o)).count_ones();
        let b = bucket(empties, self.buckets);
        let mobility = [
            C::moves(p, o).count_ones() as f32 / MOBILITY_SCALE,
            C::moves(o, p).count_ones() as f32 / MOBILITY_SCALE,
        ];
        #[cfg(target_arch = "x86_64")]
        if C::PATH != CpuPath::Portable && avx2::takes(h, self.l2) {
            let l2 = self.l2;
            let (mob_p, mob_o) = self.mobility_weights(b);
            let (w2, b2, w3) = (
                &self.w2[b * l2 * h..(b + 1) * l2 * h],
                &self.b2[b * l2..(b + 1) * l2],
                &self.w3[b * l2..(b + 1) * l2],
            );
            let emb = self.emb.as_slice();
            // SAFETY: every path but the portable one runs only on processors with AVX2
            // (`crate::cpu`: the markers exist only for detected paths); `self.avx512` is set
            // only when AVX-512 F and BW were detected (`with_avx512`, `avx512_available`);
            // the row starts are multiples of `h` of rows inside the embedding, and `h` is the
            // width the kernel is instantiated for (`avx2::takes`: 64 or 128).
            let tail = unsafe {
                let b0 = &self.b0;
                match (self.avx512, h) {
                    (true, 64) => {
                        avx512::forward::<64>(emb, b0, starts, w2, mob_p, mob_o, b2, w3, mobility)
                    }
                    (true, _) => {
                        avx512::forward::<128>(emb, b0, starts, w2, mob_p, mob_o, b2, w3, mobility)
                    }
                    (false, 64) => {
                        avx2::forward::<64>(emb, b0, starts, w2, mob_p, mob_o, b2, w3, mobility)
                    }
                    (false, _) => {
                        avx2::forward::<128>(emb, b0, starts, w2, mob_p, mob_o, b2, w3, mobility)
                    }
                }
            };
            return tail + self.b3[b];
        }
        let mut acc = [0i16; MAX_HIDDEN];
        if h == 64 {
            accumulate::<64>(self.emb.as_slice(), &self.b0, starts, &mut acc);
        } else if h == 128 {
            accumulate::<128>(self.emb.as_slice(), &self.b0, starts, &mut acc);
        } else {
            let acc = &mut acc[..h];
            acc.copy_from_slice(&self.b0);
            for &start in starts {
                for (a, &w) in acc.iter_mut().zip(&self.emb.as_slice()[start..start + h]) {
                    *a = a.wrapping_add(w as i16);
                }
            }
        }
        let acc = &mut acc[..h];
        for a in acc.iter_mut() {
            *a = (*a).clamp(0, EMBED_SCALE as i16);
        }
        let l2 = self.l2;
        let w2 = &self.w2[b * l2 * h..(b + 1) * l2 * h];
        let (mob_p, mob_o) = self.mobility_weights(b);
        let b2 = &self.b2[b * l2..(b + 1) * l2];
        let w3 = &self.w3[b * l2..(b + 1) * l2];
        let inv = 1.0 / (EMBED_SCALE as f32 * W2_SCALE as f32);
        let tail = float_tail(l2, mobility, mob_p, mob_o, b2, w3, |k| {
            let row = &w2[k * h..(k + 1) * h];
            let mut dot = 0i32;
            for (&w, &a) in row.iter().zip(acc.iter()) {
                dot += w as i32 * a as i32;
            }
            dot as f32 * inv
        });
        tail + self.b3[b]
    }

    /// The second layer's weights of the two mobility inputs in bucket `b`, `l2` each.
    #[inline(always)]
    fn mobility_weights(&self, b: usize) -> (&[f32], &[f32]) {
        let l2 = self.l2;
        self.w2_mobility[b * 2 * l2..(b + 1) * 2 * l2].split_at(l2)
    }

    /// Whether (`p`, `o`) has few enough empties for the orderer's pattern weights to value it
    /// ([`NnueEval::with_pattern_below`]; they do when there is an orderer).
    #[inline(always)]
    fn pattern_below_applies(&self, p: u64, o: u64) -> bool {
        self.pattern_below
            .is_some_and(|e| (!(p | o)).count_ones() <= e)
    }

    /// The value in centi-discs of (`p`, `o`) whose indices are `idx`: the network's (plus its
    /// base's), or the orderer's at [`NnueEval::with_pattern_below`]'s empties.
    #[inline(always)]
    fn centi<C: Cpu>(&self, cache: Option<&ValueCache>, idx: &Indices, p: u64, o: u64) -> i32 {
        if let Some(pattern) = &self.orderer {
            if self.pattern_below_applies(p, o) {
                return crate::eval::pattern::units_to_centi(
                    pattern.units_from_indices_on::<C>(idx, p, o),
                );
            }
        }
        self.cached(cache, p, o, || {
            let base = self
                .base
                .as_ref()
                .map(|b| b.units_from_indices_on::<C>(idx, p, o));
            self.network_centi::<C>(idx, p, o, base)
        })
    }

    /// The network's value in centi-discs, plus `base_units` (its base's sum, in weight units)
    /// for a network with a base.
    #[inline(always)]
    fn network_centi<C: Cpu>(&self, idx: &Indices, p: u64, o: u64, base_units: Option<i32>) -> i32 {
        let mut y = self.forward::<C>(idx, p, o) * 100.0;
        if let Some(units) = base_units {
            y += units as f32 * (100.0 / crate::eval::pattern::WEIGHT_SCALE as f32);
        }
        clamp_score(y.round() as i64)
    }

    /// Whether the network corrects pattern weights (its value adds theirs).
    pub fn has_base(&self) -> bool {
        self.base.is_some()
    }

    /// The value of `board` in discs before rounding (the quantised network), on the code
    /// path `path`: for the tests against the float reference.
    pub fn value_on(&self, board: &Board, path: CpuPath) -> f32 {
        let (p, o) = (board.player(), board.opponent());
        with_cpu!(path, C => C::run(|| self.forward::<C>(&Indices::of::<C>(p, o, true), p, o)))
    }

    /// The evaluation of the child of (`p`, `o`) reached by `sq` flipping `flips`, its
    /// pattern indices taken from the work of its `siblings`, its value from `cache` if it
    /// holds it.
    #[inline]
    pub fn evaluate_child_on<C: Cpu>(
        &self,
        siblings: &mut Siblings,
        cache: Option<&ValueCache>,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        C::run(|| {
            let idx = siblings.child::<C>(p, o, sq, flips, true);
            self.centi::<C>(cache, &idx, o ^ flips, p ^ flips ^ sq.bit())
        })
    }
}

/// The network's per-thread search state: the pattern evaluator's [`SiblingStack`] and, for a
/// network that caches ([`NnueEval::with_value_cache`]), this thread's [`ValueCache`], empty
/// when the state is made (a search makes its states as it starts).
pub struct NnueState {
    stack: SiblingStack,
    cache: Option<ValueCache>,
}

impl NnueState {
    /// A state that caches nothing (for an evaluator that is not a network).
    pub fn uncached() -> NnueState {
        NnueState {
            stack: SiblingStack::new(),
            cache: None,
        }
    }

    /// The pattern evaluator's state within.
    #[inline(always)]
    pub fn stack(&mut self) -> &mut SiblingStack {
        &mut self.stack
    }

    /// The current node's siblings and the cache.
    #[inline(always)]
    fn parts(&mut self) -> (&mut Siblings, Option<&ValueCache>) {
        (self.stack.current(), self.cache.as_ref())
    }
}

impl EvalState for NnueState {
    #[inline(always)]
    fn reset(&mut self, p: u64, o: u64) {
        self.stack.reset(p, o);
    }

    #[inline(always)]
    fn push(&mut self, p: u64, o: u64, sq: Square, flips: u64) {
        self.stack.push(p, o, sq, flips);
    }

    #[inline(always)]
    fn pass(&mut self) {
        self.stack.pass();
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.stack.pop();
    }
}

impl Evaluator for NnueEval {
    type State = NnueState;

    /// With an orderer, a leaf whose value this thread's cache holds gets it; otherwise a leaf
    /// whose pattern estimate lies more than the lazy margin outside its window gets that
    /// estimate: the network would almost never bring it back inside.
    #[inline]
    fn evaluate_child_window_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (siblings, cache) = state.parts();
        let (Some(pattern), Some(margin)) = (&self.orderer, self.lazy_margin) else {
            return self.evaluate_child_on::<C>(siblings, cache, p, o, sq, flips);
        };
        C::run(|| {
            let (cp, co) = (o ^ flips, p ^ flips ^ sq.bit());
            // The network's value, when this search already has it, is both better and cheaper
            // than the estimate. Positions the pattern weights value are never cached.
            let below = self.pattern_below_applies(cp, co);
            let slot = cache
                .filter(|_| !below)
                .map(|c| (c, crate::hash::table_key(cp, co)));
            if let Some((cache, key)) = slot {
                if let Some(v) = cache.get(key) {
                    return v;
                }
            }
            let idx = siblings.child::<C>(p, o, sq, flips, true);
            let units = pattern.units_from_indices_on::<C>(&idx, cp, co);
            let estimate = crate::eval::pattern::units_to_centi(units);
            if estimate >= beta.saturating_add(margin) || estimate <= alpha.saturating_sub(margin) {
                return estimate;
            }
            let value = match &self.base {
                // The base is the orderer (both the embedded weights): its sum is at hand.
                Some(base) if Arc::ptr_eq(base, pattern) && !below => {
                    self.network_centi::<C>(&idx, cp, co, Some(units))
                }
                _ => self.centi::<C>(None, &idx, cp, co),
            };
            if let Some((cache, key)) = slot {
                cache.put(key, value);
            }
            value
        })
    }

    fn new_state(&self) -> NnueState {
        NnueState {
            stack: SiblingStack::new(),
            cache: self.value_cache.then(ValueCache::new),
        }
    }

    fn evaluate(&self, board: &Board) -> i32 {
        with_cpu!(CpuPath::current(), C => self.evaluate_on::<C>(board))
    }

    #[inline]
    fn evaluate_on<C: Cpu>(&self, board: &Board) -> i32 {
        let (p, o) = (board.player(), board.opponent());
        C::run(|| self.centi::<C>(None, &Indices::of::<C>(p, o, true), p, o))
    }

    #[inline]
    fn evaluate_child_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        let (siblings, cache) = state.parts();
        self.evaluate_child_on::<C>(siblings, cache, p, o, sq, flips)
    }

    #[inline]
    fn order_in<C: Cpu>(&self, state: &mut NnueState, p: u64, o: u64) -> i32 {
        match &self.orderer {
            Some(pattern) => pattern.evaluate_in::<C>(&mut state.stack, p, o),
            None => self.evaluate_in::<C>(state, p, o),
        }
    }

    #[inline]
    fn order_child_in<C: Cpu>(
        &self,
        state: &mut NnueState,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        match &self.orderer {
            Some(pattern) => pattern.evaluate_child_in::<C>(&mut state.stack, p, o, sq, flips),
            None => self.evaluate_child_in::<C>(state, p, o, sq, flips),
        }
    }

    fn mpc_model_text(&self) -> Option<&str> {
        self.mpc_model.as_deref()
    }
}

#[cfg(test)]
mod tests;
