//! `PatternEval`: a learned evaluator summing table weights of board patterns, in the manner of
//! Buro's Logistello ("Experiments with Multi-ProbCut and a New High-Quality Evaluation
//! Function for Othello", 1997; "From Simple Features to Sophisticated Evaluation Functions",
//! 1998) and of Edax: the value of a position is a sum, over every placement of a set of
//! pattern shapes, of a weight looked up by the contents of the pattern's squares, plus terms
//! for mobility and parity; each game phase has its own weights.
//!
//! # Features
//!
//! - **Patterns** ([`geometry::PATTERNS`]): the edge plus its two X-squares (10 squares), the
//!   3×3 corner, the 2×5 corner, the second, third and fourth rows (8 squares), and the
//!   diagonals of lengths 8, 7, 6, 5 and 4: 11 shapes, 46 placements on the board. The
//!   placements of one shape share one table (shapes are read through board symmetries, see
//!   [`mod@geometry`]), and contents that a symmetry maps onto each other share one weight, which
//!   makes the evaluation exactly invariant under the eight symmetries.
//! - **Mobility**: a weight for the number of legal moves of the side to move and one for the
//!   number the opponent would have if it were to move (each clamped to 0..=31, so the tables
//!   can learn a non-linear value of mobility).
//! - **Parity**: a weight for an even and one for an odd number of empty squares (this also
//!   carries the phase's constant term).
//! - **Potential mobility** (pattern set 2): a weight for the number of empty squares next to an
//!   opponent disc (PAIP's potential mobility, [`crate::eval::mobility::potential_mobility`])
//!   and one for the same count seen from the opponent, each 0..=63. Files of pattern set 1
//!   (v1 to v5) have no such weights; they load with these weights 0, so they evaluate exactly
//!   as before.
//! - **Three more corner shapes** (pattern set 3): a 10-square triangle in each corner (a1-d1,
//!   a2-c2, a3-b3, a4), each edge's corners with its four middle squares and the four squares
//!   inside them (a1, c1-f1, h1, c2-f2), and the band around each corner's diagonal (a1-d4 with
//!   the squares beside it): 12 placements more, 58 in all. Files of sets 1 and 2 load with
//!   these weights 0, and an evaluator whose added weights are all 0 skips their placements
//!   ([`PatternEval::uses_set3_shapes`]), so it evaluates exactly as before at the same speed.
//!
//! # Phases
//!
//! A weight file holds `P` phases (1 to 61; the trainer's default is [`DEFAULT_PHASES`] = 15).
//! A position with `e` empty squares (`e` clamped to 0..=60; the disc count is `64 - e`) uses
//! phase `(60 - e) * P / 61` ([`phase_of`]): 15 phases of about four plies each (the first
//! covers 56-60 empties, the last 0-3).
//!
//! # Scale
//!
//! Weights are `i16` in units of 1/[`WEIGHT_SCALE`] disc (1/256). The sum of the 63 weights of
//! a position (51 without the shapes of pattern set 3) is its value in those units;
//! [`Evaluator::evaluate`] rounds it to centi-discs and clamps it to `±MAX_SCORE`.
//!
//! # Speed
//!
//! No allocation, no branch on the board's contents (one on the weights: whether the shapes of
//! pattern set 3 are read). Each of the 46 placements (58 with set 3) costs two `pext` under
//! the placement's own mask, two loads from a small bit-to-index table and one weight load
//! from the phase's table (327 KiB, 673 KiB with set 3); mobility costs two move generations.
//! Weights are expanded at load time from the compact file form (one weight per class) to one
//! entry per base-3 index, so no class lookup happens at evaluation time. About 700
//! instructions per call without set 3; the weight loads, which mostly miss L1, dominate.
//! Measured with `cargo bench --bench eval` (default weights, random-game positions, quiet
//! 2-core machine): 77 ns per position, against 38 ns for `HandEval`; every child of a position
//! 73 ns each with shared indices, 113 ns each played and evaluated whole.
//!
//! Where a node evaluates its children one after another (the last ply before the leaves,
//! the evaluation-keyed move orderings), the children after the first take their indices from
//! their siblings' ([`mod@siblings`]: a few 64-lane vector additions instead of 116 `pext`);
//! about 80% of the evaluations of a midgame search go that way. Indices are not carried down
//! the whole search: the remaining fifth would gain little (the weight loads dominate).
//!
//! Weight files are described in [`mod@file`] and in `docs/dev/WEIGHTS.md`; they are produced
//! by the trainer in `crate::learn`.

pub mod file;
pub mod geometry;
pub mod siblings;

use crate::board::{moves, Board};
use crate::cpu::{with_cpu, Cpu, CpuPath};
use crate::eval::{clamp_score, Evaluator};
use crate::square::Square;

pub use file::WeightsError;
use geometry::{
    for_each_base_instance, for_each_extra_instance, geometry, instance_index_on, instance_indices,
    BASE_INSTANCE_COUNT, BASE_PATTERN_COUNT, INSTANCES, INSTANCE_COUNT, PATTERNS, PATTERN_COUNT,
    PATTERN_TABLES_LEN,
};
pub use siblings::{SiblingStack, Siblings};

/// Weight units per disc: a weight of 256 is worth one disc.
pub const WEIGHT_SCALE: i32 = 256;
/// The phase count the trainer uses unless told otherwise.
pub const DEFAULT_PHASES: usize = 15;
/// The largest phase count (one phase per disc count from 4 to 64).
pub const MAX_PHASES: usize = 61;
/// Mobility counts are clamped to `0..MOBILITY_BUCKETS`.
pub const MOBILITY_BUCKETS: usize = 32;
/// Potential mobility counts (0..=63; a board has at most 60 empty squares) each have a weight.
pub const POTENTIAL_BUCKETS: usize = 64;
/// Number of scalar weights per phase after the patterns: mover mobility, opponent mobility,
/// parity, mover potential mobility, opponent potential mobility.
pub const SCALAR_LEN: usize = 2 * MOBILITY_BUCKETS + 2 + 2 * POTENTIAL_BUCKETS;
/// Number of compact pattern weights (weight classes) per phase.
pub const COMPACT_PATTERNS_LEN: usize = 204_030;
/// Number of compact pattern weights per phase of the shapes of pattern sets 1 and 2 (the
/// first [`geometry::BASE_PATTERN_COUNT`] shapes, whose classes come first).
pub const BASE_COMPACT_PATTERNS_LEN: usize = 113_877;
/// Number of weights per phase in a weight file (pattern set 3).
pub const FEATURES_PER_PHASE: usize = COMPACT_PATTERNS_LEN + SCALAR_LEN;
/// Number of weights per phase in a file of pattern set 2: the base shapes' classes, then the
/// scalar weights.
pub const SET2_FEATURES_PER_PHASE: usize = BASE_COMPACT_PATTERNS_LEN + SCALAR_LEN;
/// Number of weights per phase in a file of pattern set 1, which has no potential mobility:
/// each of its phases is the first this many weights of a set-2 phase.
pub const SET1_FEATURES_PER_PHASE: usize = SET2_FEATURES_PER_PHASE - 2 * POTENTIAL_BUCKETS;
/// Number of features of one position: one per pattern placement, two mobility, one parity,
/// two potential mobility.
pub const FEATURE_SLOTS: usize = INSTANCE_COUNT + 5;
/// The identifier of this pattern set and feature layout, stored in the weight files written.
pub const PATTERN_SET_ID: u16 = 3;

/// Entries per phase in the expanded (evaluation-time) layout.
const STRIDE: usize = PATTERN_TABLES_LEN + SCALAR_LEN;
/// Each phase's expanded block is padded to a power of two, so that masking an index with
/// `PADDED - 1` proves it in bounds (one `and` instead of a compare and branch per lookup; the
/// padding is never read for a valid board and costs address space, not cache).
const PADDED: usize = 1 << 19;
const _: () = assert!(STRIDE <= PADDED);
const MOB_P: usize = 0;
const MOB_O: usize = MOBILITY_BUCKETS;
const PARITY: usize = 2 * MOBILITY_BUCKETS;
const POT_P: usize = PARITY + 2;
const POT_O: usize = POT_P + POTENTIAL_BUCKETS;

/// The phase of a position with `empties` empty squares when there are `phases` phases
/// (`phases` in `1..=MAX_PHASES`; `empties` above 60 count as 60).
#[inline]
pub fn phase_of(empties: u32, phases: usize) -> usize {
    let played = 60 - empties.min(60) as usize;
    played * phases / 61
}

/// The empty-square counts (inclusive range, high to low) that phase `phase` covers.
pub fn phase_empties(phase: usize, phases: usize) -> (u32, u32) {
    let members: Vec<u32> = (0..=60).filter(|&e| phase_of(e, phases) == phase).collect();
    (
        members.iter().copied().max().unwrap_or(0),
        members.iter().copied().min().unwrap_or(0),
    )
}

/// The compact features of `board`: for each of the [`FEATURE_SLOTS`] slots, the index of its
/// weight within a phase's compact weights (pattern placements in
/// [`geometry::INSTANCES`] order, then mover mobility, opponent mobility, parity, mover and
/// opponent potential mobility). The value of
/// the position in phase `ph` is the sum of `weights[ph * FEATURES_PER_PHASE + f]` over them.
pub fn features(board: &Board) -> [u32; FEATURE_SLOTS] {
    let g = geometry();
    let (p, o) = (board.player(), board.opponent());
    let raw = instance_indices(p, o);
    let mut out = [0u32; FEATURE_SLOTS];
    for (slot, inst) in INSTANCES.iter().enumerate() {
        let pat = inst.pattern as usize;
        out[slot] = (g.compact_offset[pat] + g.canon[pat][raw[slot] as usize] as usize) as u32;
    }
    let base = COMPACT_PATTERNS_LEN;
    out[INSTANCE_COUNT] = (base + MOB_P + mobility_bucket(moves(p, o))) as u32;
    out[INSTANCE_COUNT + 1] = (base + MOB_O + mobility_bucket(moves(o, p))) as u32;
    out[INSTANCE_COUNT + 2] = (base + PARITY + (board.empty_count() & 1) as usize) as u32;
    out[INSTANCE_COUNT + 3] = (base + POT_P + potential_bucket(p, o)) as u32;
    out[INSTANCE_COUNT + 4] = (base + POT_O + potential_bucket(o, p)) as u32;
    out
}

/// The start of the compact-weight range of feature slot `slot` (0..[`FEATURE_SLOTS`]): every
/// [`features`] value of that slot is at least this, and less than it plus the slot's table
/// size (at most 59,049). Lets a trainer store a feature in 16 bits.
pub fn feature_slot_base(slot: usize) -> usize {
    match slot.checked_sub(INSTANCE_COUNT) {
        None => geometry().compact_offset[INSTANCES[slot].pattern as usize],
        Some(0) => COMPACT_PATTERNS_LEN + MOB_P,
        Some(1) => COMPACT_PATTERNS_LEN + MOB_O,
        Some(2) => COMPACT_PATTERNS_LEN + PARITY,
        Some(3) => COMPACT_PATTERNS_LEN + POT_P,
        Some(_) => COMPACT_PATTERNS_LEN + POT_O,
    }
}

/// The potential mobility bucket of `player` against `opponent`: the number of empty squares
/// next to an opponent disc. The count is at most 60, so the mask changes nothing; it lets the
/// compiler see that the lookup is in bounds.
#[inline(always)]
fn potential_bucket(player: u64, opponent: u64) -> usize {
    crate::eval::mobility::potential_mobility(player, opponent) as usize & (POTENTIAL_BUCKETS - 1)
}

#[inline(always)]
fn mobility_bucket(moves: u64) -> usize {
    (moves.count_ones() as usize).min(MOBILITY_BUCKETS - 1)
}

/// The pattern evaluator: per-phase weights, in compact (file) and expanded (lookup) form.
#[derive(Clone)]
pub struct PatternEval {
    phases: usize,
    phase_lut: [u8; 65],
    compact: Box<[i16]>,
    expanded: Box<[i16]>,
    meta: String,
    /// Whether any weight of the shapes that pattern set 3 adds is not 0 (if none is, their
    /// placements are not read).
    set3_shapes: bool,
    /// The text of the Multi-ProbCut model fitted to these weights, if one came with them.
    mpc_model: Option<String>,
}

impl std::fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternEval")
            .field("phases", &self.phases)
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}

impl PatternEval {
    /// An evaluator with `phases` phases and every weight zero.
    pub fn zero(phases: usize) -> Result<PatternEval, WeightsError> {
        let len = phases.saturating_mul(FEATURES_PER_PHASE);
        PatternEval::from_compact(phases, vec![0; len], String::new())
    }

    /// An evaluator from compact weights: `phases` blocks of [`FEATURES_PER_PHASE`] weights
    /// (pattern classes in [`geometry::Geometry`] order, then the scalar weights), with a
    /// free-text description `meta` (at most [`file::MAX_META_LEN`] bytes).
    pub fn from_compact(
        phases: usize,
        weights: Vec<i16>,
        meta: String,
    ) -> Result<PatternEval, WeightsError> {
        if !(1..=MAX_PHASES).contains(&phases) {
            return Err(WeightsError::BadPhaseCount(phases));
        }
        let expected = phases * FEATURES_PER_PHASE;
        if weights.len() != expected {
            return Err(WeightsError::WrongWeightCount {
                found: weights.len(),
                expected,
            });
        }
        if meta.len() > file::MAX_META_LEN {
            return Err(WeightsError::MetaTooLong(meta.len()));
        }
        let g = geometry();
        let mut expanded = vec![0i16; phases * PADDED];
        for ph in 0..phases {
            let c = &weights[ph * FEATURES_PER_PHASE..(ph + 1) * FEATURES_PER_PHASE];
            let e = &mut expanded[ph * PADDED..ph * PADDED + STRIDE];
            for (p, def) in PATTERNS.iter().enumerate() {
                let off = g.compact_offset[p];
                for (index, &id) in g.canon[p].iter().enumerate() {
                    e[def.offset + index] = c[off + id as usize];
                }
            }
            e[PATTERN_TABLES_LEN..].copy_from_slice(&c[COMPACT_PATTERNS_LEN..]);
        }
        let set3_shapes = weights.chunks_exact(FEATURES_PER_PHASE).any(|c| {
            c[BASE_COMPACT_PATTERNS_LEN..COMPACT_PATTERNS_LEN]
                .iter()
                .any(|&w| w != 0)
        });
        let mut phase_lut = [0u8; 65];
        for (e, slot) in phase_lut.iter_mut().enumerate() {
            *slot = phase_of(e as u32, phases) as u8;
        }
        Ok(PatternEval {
            phases,
            phase_lut,
            compact: weights.into_boxed_slice(),
            expanded: expanded.into_boxed_slice(),
            meta,
            set3_shapes,
            mpc_model: None,
        })
    }

    /// The text of the midgame Multi-ProbCut model that came with these weights (the `.mpc`
    /// file beside a loaded weight file; see `crate::search::probcut::model` for its format), if any.
    pub fn mpc_model_text(&self) -> Option<&str> {
        self.mpc_model.as_deref()
    }

    /// These weights with a Multi-ProbCut model text attached.
    pub fn with_mpc_model_text(mut self, text: String) -> PatternEval {
        self.mpc_model = Some(text);
        self
    }

    /// Number of phases.
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// The phase used at `empties` empty squares.
    pub fn phase(&self, empties: u32) -> usize {
        self.phase_lut[empties.min(64) as usize] as usize
    }

    /// The compact weights (`phases * FEATURES_PER_PHASE`, phase-major).
    pub fn compact_weights(&self) -> &[i16] {
        &self.compact
    }

    /// Whether these weights use the shapes that pattern set 3 adds (any of their weights is
    /// not 0). If not, the evaluation reads only the 46 placements of sets 1 and 2, and a weight
    /// file written from them is a set-2 file.
    pub fn uses_set3_shapes(&self) -> bool {
        self.set3_shapes
    }

    /// The free-text description stored with the weights (training data, settings, errors).
    pub fn meta(&self) -> &str {
        &self.meta
    }

    /// The unclamped value of `board` for the side to move, in weight units (1/256 disc): the
    /// sum of its weights (63 with the shapes of pattern set 3, 51 without).
    pub fn score_units(&self, board: &Board) -> i32 {
        with_cpu!(CpuPath::current(), C => C::run(|| self.score_units_on::<C>(board)))
    }

    /// [`PatternEval::score_units`] for the code path `C` (inline it into a [`Cpu::run`]).
    #[inline(always)]
    fn score_units_on<C: Cpu>(&self, board: &Board) -> i32 {
        let (p, o) = (board.player(), board.opponent());
        let empties = (!(p | o)).count_ones();
        let w = self.phase_weights(empties);
        let mut sum = 0i32;
        macro_rules! add {
            ($slot:expr, $pat:expr, $g:expr) => {
                sum += w
                    [(PATTERNS[$pat].offset + instance_index_on::<$slot, C>(p, o)) & (PADDED - 1)]
                    as i32;
            };
        }
        for_each_base_instance!(add);
        if self.set3_shapes {
            for_each_extra_instance!(add);
        }
        sum + Self::scalar_units_on::<C>(w, p, o, empties)
    }

    /// The phase weights of a position with `empties` empty squares.
    #[inline(always)]
    fn phase_weights(&self, empties: u32) -> &[i16; PADDED] {
        let phase = self.phase_lut[(empties as usize).min(64)] as usize;
        self.expanded[phase * PADDED..(phase + 1) * PADDED]
            .try_into()
            .expect("phase blocks are PADDED long")
    }

    /// The weights of the scalar features (mobility, parity, potential mobility) of (`p`, `o`)
    /// in the phase weights `w`.
    #[inline(always)]
    fn scalar_units_on<C: Cpu>(w: &[i16; PADDED], p: u64, o: u64, empties: u32) -> i32 {
        let s = &w[PATTERN_TABLES_LEN..];
        s[MOB_P + mobility_bucket(C::moves(p, o))] as i32
            + s[MOB_O + mobility_bucket(C::moves(o, p))] as i32
            + s[PARITY + (empties & 1) as usize] as i32
            + s[POT_P + potential_bucket(p, o)] as i32
            + s[POT_O + potential_bucket(o, p)] as i32
    }

    /// [`PatternEval::score_units`] of the child of (`p`, `o`) reached by `sq` flipping
    /// `flips`, its pattern indices taken from `siblings` (see [`mod@siblings`]).
    #[inline(always)]
    fn child_units_on<C: Cpu>(
        &self,
        siblings: &mut Siblings,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        let idx = siblings.child::<C>(p, o, sq, flips, self.set3_shapes);
        self.units_from_indices_on::<C>(&idx, o ^ flips, p ^ flips ^ sq.bit())
    }

    /// The sum in weight units of the position (`cp`, `co`) whose pattern indices are `idx`
    /// (read with this evaluator's shapes).
    #[inline(always)]
    pub(crate) fn units_from_indices_on<C: Cpu>(
        &self,
        idx: &siblings::Indices,
        cp: u64,
        co: u64,
    ) -> i32 {
        let empties = (!(cp | co)).count_ones();
        let w = self.phase_weights(empties);
        let mut sum = 0i32;
        macro_rules! add {
            ($slot:expr, $pat:expr, $g:expr) => {
                sum += w[(PATTERNS[$pat].offset + idx.0[$slot] as usize) & (PADDED - 1)] as i32;
            };
        }
        for_each_base_instance!(add);
        if self.set3_shapes {
            for_each_extra_instance!(add);
        }
        sum + Self::scalar_units_on::<C>(w, cp, co, empties)
    }

    /// The evaluation ([`Evaluator::evaluate`]) of the child of (`p`, `o`) reached by `sq`
    /// flipping `flips`, its pattern indices taken from the work of its `siblings` (see
    /// [`mod@siblings`]); the searches reach it through their [`SiblingStack`].
    #[inline]
    pub fn evaluate_child_on<C: Cpu>(
        &self,
        siblings: &mut Siblings,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        C::run(|| units_to_centi(self.child_units_on::<C>(siblings, p, o, sq, flips)))
    }

    /// The evaluation ([`Evaluator::evaluate`]) of every child of `board`, one per legal move
    /// in square order, into `out` (which must hold [`MAX_CHILDREN`] values); returns their
    /// number. The children share their pattern indices as the search's nodes do
    /// ([`mod@siblings`]).
    pub fn evaluate_children(&self, board: &Board, out: &mut [i32; MAX_CHILDREN]) -> usize {
        with_cpu!(CpuPath::current(), C => C::run(|| self.evaluate_children_on::<C>(board, out)))
    }

    #[inline(always)]
    fn evaluate_children_on<C: Cpu>(&self, board: &Board, out: &mut [i32; MAX_CHILDREN]) -> usize {
        let (p, o) = (board.player(), board.opponent());
        let mut siblings = Siblings::new();
        let mut n = 0;
        for (slot, sq) in out.iter_mut().zip(crate::bitboard::squares(C::moves(p, o))) {
            let f = C::flips(sq, p, o);
            *slot = units_to_centi(self.child_units_on::<C>(&mut siblings, p, o, sq, f));
            n += 1;
        }
        n
    }

    /// The same sum as [`PatternEval::score_units`], computed from the compact weights and
    /// [`features`] (the reference for the fast path).
    pub fn score_units_reference(&self, board: &Board) -> i32 {
        let phase = phase_of(board.empty_count(), self.phases);
        let w = &self.compact[phase * FEATURES_PER_PHASE..(phase + 1) * FEATURES_PER_PHASE];
        features(board).iter().map(|&f| w[f as usize] as i32).sum()
    }
}

/// The most legal moves a position can have (a bound: no reachable position has more than 33).
pub const MAX_CHILDREN: usize = 64;

/// Converts a sum in weight units to centi-discs, rounded half up, clamped to `±MAX_SCORE`.
#[inline(always)]
pub fn units_to_centi(units: i32) -> i32 {
    clamp_score((units as i64 * 100 + (WEIGHT_SCALE as i64 / 2)).div_euclid(WEIGHT_SCALE as i64))
}

impl Evaluator for PatternEval {
    type State = SiblingStack;

    fn new_state(&self) -> SiblingStack {
        SiblingStack::new()
    }

    fn evaluate(&self, board: &Board) -> i32 {
        units_to_centi(self.score_units(board))
    }

    #[inline]
    fn evaluate_on<C: Cpu>(&self, board: &Board) -> i32 {
        C::run(|| units_to_centi(self.score_units_on::<C>(board)))
    }

    #[inline]
    fn evaluate_child_in<C: Cpu>(
        &self,
        state: &mut SiblingStack,
        p: u64,
        o: u64,
        sq: Square,
        flips: u64,
    ) -> i32 {
        self.evaluate_child_on::<C>(state.current(), p, o, sq, flips)
    }
}

// Keep the count of pattern shapes and the constants above in step.
const _: () = assert!(
    PATTERN_COUNT == 14
        && FEATURE_SLOTS == 63
        && BASE_PATTERN_COUNT == 11
        && BASE_INSTANCE_COUNT == 46
        && PATTERNS[BASE_PATTERN_COUNT].offset == PATTERNS[BASE_PATTERN_COUNT - 1].offset + 81
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_path_gives_the_reference_sum() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let eval = crate::eval::builtin::default_pattern();
        let mut boards: Vec<Board> = (0..40)
            .flat_map(|_| crate::rng::random_playout(Board::start(), &mut rng).collect::<Vec<_>>())
            .collect();
        // Boards no game reaches: empty (64 empties, phase 0), one disc, full of one colour.
        boards.extend([
            Board::from_bits_unchecked(0, 0),
            Board::from_bits_unchecked(1 << 27, 0),
            Board::from_bits_unchecked(0, u64::MAX),
        ]);
        for b in boards {
            let want = eval.score_units_reference(&b);
            for path in CpuPath::ALL.into_iter().filter(|p| p.supported()) {
                let got = with_cpu!(path, C => C::run(|| eval.score_units_on::<C>(&b)));
                assert_eq!(got, want, "{path}");
            }
        }
    }

    /// The default weights with the shapes of pattern set 3 zeroed (read as set 2 is read).
    fn without_set3_shapes() -> PatternEval {
        let eval = crate::eval::builtin::default_pattern();
        let mut w = eval.compact_weights().to_vec();
        for phase in w.chunks_exact_mut(FEATURES_PER_PHASE) {
            phase[BASE_COMPACT_PATTERNS_LEN..COMPACT_PATTERNS_LEN].fill(0);
        }
        let eval = PatternEval::from_compact(eval.phases(), w, String::new()).unwrap();
        assert!(!eval.uses_set3_shapes());
        eval
    }

    #[test]
    fn siblings_give_every_child_its_reference_score_on_every_path() {
        let mut rng = crate::rng::SplitMix64::new(19);
        let evals = [
            (*crate::eval::builtin::default_pattern()).clone(),
            without_set3_shapes(),
        ];
        let boards: Vec<Board> = (0..30)
            .flat_map(|_| crate::rng::random_playout(Board::start(), &mut rng).collect::<Vec<_>>())
            .collect();
        let mut checked = 0;
        for eval in &evals {
            for b in &boards {
                let (p, o) = (b.player(), b.opponent());
                let children: Vec<(Square, u64, Board)> = crate::bitboard::squares(b.moves())
                    .map(|sq| (sq, b.flips(sq), b.play(sq)))
                    .collect();
                let want: Vec<i32> = children
                    .iter()
                    .map(|(_, _, c)| units_to_centi(eval.score_units_reference(c)))
                    .collect();
                for path in CpuPath::ALL.into_iter().filter(|p| p.supported()) {
                    // Every child first once, the others after it (the order the searches use
                    // varies with the node).
                    for first in 0..children.len() {
                        let order = (first..children.len()).chain(0..first);
                        let mut siblings = Siblings::new();
                        for i in order {
                            let (sq, f, _) = children[i];
                            let got = with_cpu!(path, C => C::run(|| {
                                eval.evaluate_child_on::<C>(&mut siblings, p, o, sq, f)
                            }));
                            assert_eq!(got, want[i], "{path}, child {sq} of {b:?}");
                            checked += 1;
                        }
                    }
                }
                let mut out = [0; MAX_CHILDREN];
                let n = eval.evaluate_children(b, &mut out);
                assert_eq!(&out[..n], &want[..]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Two evaluators share a node's siblings when the solver orders by weights of its own
    /// (the embedded set-2 weights) and the search evaluates with set-3 weights: whatever the
    /// order in which they evaluate the node's children, each child gets its reference score.
    #[test]
    fn siblings_shared_by_set2_and_set3_weights_give_reference_scores() {
        let mut rng = crate::rng::SplitMix64::new(23);
        let full = (*crate::eval::builtin::default_pattern()).clone();
        let base = crate::eval::builtin::solve_order_pattern();
        assert!(full.uses_set3_shapes() && !base.uses_set3_shapes());
        let evals = [&full, base];
        let boards: Vec<Board> = (0..20)
            .flat_map(|_| crate::rng::random_playout(Board::start(), &mut rng).collect::<Vec<_>>())
            .collect();
        let mut checked = 0;
        let mut pick = crate::rng::SplitMix64::new(5);
        for b in &boards {
            let (p, o) = (b.player(), b.opponent());
            let children: Vec<(Square, u64, Board)> = crate::bitboard::squares(b.moves())
                .map(|sq| (sq, b.flips(sq), b.play(sq)))
                .collect();
            for path in CpuPath::ALL.into_iter().filter(|p| p.supported()) {
                for _ in 0..4 {
                    let mut siblings = Siblings::new();
                    for &(sq, f, ref child) in &children {
                        let eval = evals[(pick.next_u64() & 1) as usize];
                        let want = units_to_centi(eval.score_units_reference(child));
                        let got = with_cpu!(path, C => C::run(|| {
                            eval.evaluate_child_on::<C>(&mut siblings, p, o, sq, f)
                        }));
                        assert_eq!(got, want, "{path}, child {sq} of {b:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 2_000, "{checked}");
    }

    #[test]
    fn compact_length_matches_the_geometry() {
        assert_eq!(geometry().compact_patterns_len, COMPACT_PATTERNS_LEN);
    }

    #[test]
    fn phases_cover_every_disc_count_in_order() {
        for phases in 1..=MAX_PHASES {
            assert_eq!(phase_of(60, phases), 0);
            assert_eq!(phase_of(0, phases), phases - 1);
            assert_eq!(phase_of(64, phases), 0);
            let mut seen = vec![false; phases];
            for e in (0..=60).rev() {
                let ph = phase_of(e, phases);
                seen[ph] = true;
                if e < 60 {
                    assert!(ph >= phase_of(e + 1, phases));
                    assert!(ph <= phase_of(e + 1, phases) + 1);
                }
            }
            assert!(seen.iter().all(|&s| s), "{phases} phases: an empty phase");
        }
        assert_eq!(phase_empties(0, 15), (60, 56));
        assert_eq!(phase_empties(14, 15), (3, 0));
    }
}
