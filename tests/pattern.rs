//! Tests of the pattern evaluator: geometry against first principles, the fast index path
//! against the square-by-square reference, exact symmetry invariance, phase selection, and the
//! weight file (round trip, rejection of corrupt files, no panic on arbitrary bytes).

use othello::eval::pattern::file::{fnv1a64, HEADER_LEN, MAGIC};
use othello::eval::pattern::geometry::{
    compute_instances, geometry, instance_indices, instance_indices_reference, pext, pext_portable,
    stabiliser_permutations, BASE_INSTANCE_COUNT, BASE_PATTERN_COUNT, INSTANCES, PATTERNS, POW3,
};
use othello::eval::pattern::{
    features, phase_of, units_to_centi, PatternEval, WeightsError, BASE_COMPACT_PATTERNS_LEN,
    COMPACT_PATTERNS_LEN, FEATURES_PER_PHASE, FEATURE_SLOTS, MAX_PHASES, MOBILITY_BUCKETS,
    POTENTIAL_BUCKETS, SET1_FEATURES_PER_PHASE, SET2_FEATURES_PER_PHASE, WEIGHT_SCALE,
};
use othello::eval::{Evaluator, MAX_SCORE};
use othello::weights::PatternFile;
use othello::Board;
use proptest::prelude::*;

mod common;

use common::{playout_positions, SplitMix64};

/// pattern-v5, the default before v6: a file of pattern set 1.
static V5_BYTES: &[u8] = include_bytes!("../weights/pattern-v5.bin");

/// An evaluator whose every weight is uniform in `-amp..=amp`.
fn random_eval(phases: usize, amp: i16, seed: u64) -> PatternEval {
    let mut rng = SplitMix64::new(seed);
    let span = 2 * amp as u64 + 1;
    let w = (0..phases * FEATURES_PER_PHASE)
        .map(|_| (rng.next_u64() % span) as i16 - amp)
        .collect();
    PatternEval::from_compact(phases, w, format!("random seed {seed}")).unwrap()
}

/// Reachable positions by random play from the start, at every stage of the game.
fn sample_positions(n: usize, seed: u64) -> Vec<Board> {
    playout_positions(n, seed, usize::MAX, |_| true)
}

fn any_board() -> impl Strategy<Value = Board> {
    (any::<u64>(), any::<u64>()).prop_map(|(a, b)| Board::new(a & !b, b).unwrap())
}

#[test]
fn instances_are_the_distinct_symmetric_images_of_each_pattern() {
    assert_eq!(INSTANCES.to_vec(), compute_instances());
    let counts: Vec<usize> = (0..PATTERNS.len())
        .map(|p| INSTANCES.iter().filter(|i| i.pattern as usize == p).count())
        .collect();
    assert_eq!(counts, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4]);
    // The shapes of pattern sets 1 and 2 come first, then set 3's.
    assert_eq!(
        BASE_INSTANCE_COUNT,
        counts[..BASE_PATTERN_COUNT].iter().sum::<usize>()
    );
    assert!(INSTANCES[..BASE_INSTANCE_COUNT]
        .iter()
        .all(|i| (i.pattern as usize) < BASE_PATTERN_COUNT));
}

#[test]
fn every_square_is_covered_and_the_edges_are_read_where_expected() {
    // The squares each instance reads, found by reading one square at a time.
    let mut covered = 0u64;
    for sq in 0..64 {
        let idx = instance_indices_reference(1 << sq, 0);
        if idx.iter().any(|&i| i != 0) {
            covered |= 1 << sq;
        }
    }
    assert_eq!(covered, u64::MAX);
    // The first instance is the top edge: a1 is digit 0, h1 digit 7, b2 digit 8, g2 digit 9.
    let top = |p: u64| instance_indices(p, 0)[0];
    assert_eq!(top(1), 1);
    assert_eq!(top(1 << 7), POW3[7]);
    assert_eq!(top(1 << 9), POW3[8]);
    assert_eq!(top(1 << 14), POW3[9]);
    assert_eq!(top(1 << 56), 0);
    // An opponent disc is digit 2.
    assert_eq!(instance_indices(0, 1)[0], 2);
}

#[test]
fn stabilisers_have_the_expected_sizes_and_classes() {
    let sizes: Vec<usize> = PATTERNS
        .iter()
        .map(|p| stabiliser_permutations(p.mask).len())
        .collect();
    // The 2x5 corner has no symmetry; the main diagonal is fixed by four symmetries.
    assert_eq!(sizes, [2, 2, 1, 2, 2, 2, 4, 2, 2, 2, 2, 2, 2, 2]);
    let g = geometry();
    let classes: Vec<usize> = g.representative.iter().map(Vec::len).collect();
    // (3^n + 3^f) / 2 classes for a pattern with one reflection, where f counts the cycles
    // of the reflection on its squares: ceil(n/2) for a line, 6 for the triangle (a1 and b2
    // fixed, four pairs), 5 for the edge block (five pairs), 7 for the cross (four diagonal
    // squares fixed, three pairs).
    assert_eq!(
        classes,
        [29646, 10206, 59049, 3321, 3321, 3321, 3321, 1134, 378, 135, 45, 29889, 29646, 30618]
    );
    // The base shapes' classes come first, so a set-2 file is a prefix of each phase.
    assert_eq!(
        g.compact_offset[BASE_PATTERN_COUNT],
        BASE_COMPACT_PATTERNS_LEN
    );
    assert_eq!(g.compact_patterns_len, COMPACT_PATTERNS_LEN);
    // A reversed edge shares its weight: a1 alone and h1 alone are one class.
    assert_eq!(g.canon[0][1], g.canon[0][POW3[7] as usize]);
    assert_ne!(g.canon[0][1], g.canon[0][2]);
}

#[test]
fn features_are_in_range_and_follow_the_board() {
    for b in sample_positions(500, 7) {
        let f = features(&b);
        assert_eq!(f.len(), FEATURE_SLOTS);
        assert!(f.iter().all(|&x| (x as usize) < FEATURES_PER_PHASE));
        let scalar = |slot: usize| f[slot] as usize - COMPACT_PATTERNS_LEN;
        assert_eq!(
            scalar(FEATURE_SLOTS - 5),
            (b.moves().count_ones() as usize).min(31)
        );
        // Potential mobility, counted square by square: the empty squares with an opponent
        // disc among their (up to eight) neighbours, for the side to move and then the other.
        let near = |them: u64| {
            (0..64)
                .filter(|&sq| (b.player() | b.opponent()) >> sq & 1 == 0)
                .filter(|&sq: &i32| {
                    let (r, c) = (sq / 8, sq % 8);
                    (-1..=1).any(|dr: i32| {
                        (-1..=1).any(|dc: i32| {
                            let (rr, cc) = (r + dr, c + dc);
                            (dr, dc) != (0, 0)
                                && (0..8).contains(&rr)
                                && (0..8).contains(&cc)
                                && them >> (rr * 8 + cc) & 1 == 1
                        })
                    })
                })
                .count()
        };
        let pot = 2 * MOBILITY_BUCKETS + 2;
        assert_eq!(scalar(FEATURE_SLOTS - 2), pot + near(b.opponent()));
        assert_eq!(
            scalar(FEATURE_SLOTS - 1),
            pot + POTENTIAL_BUCKETS + near(b.player())
        );
    }
}

#[test]
fn phase_selection_uses_only_the_phase_of_the_disc_count() {
    // Weights zero except the parity weights of phase 3, in a 15-phase evaluator.
    let mut w = vec![0i16; 15 * FEATURES_PER_PHASE];
    let parity = 3 * FEATURES_PER_PHASE + COMPACT_PATTERNS_LEN + 2 * MOBILITY_BUCKETS;
    w[parity] = 1000; // even empties
    w[parity + 1] = -2000; // odd empties
    let e = PatternEval::from_compact(15, w, String::new()).unwrap();
    let mut seen = 0;
    for b in sample_positions(4000, 3) {
        let empties = b.empty_count();
        let want = if phase_of(empties, 15) != 3 {
            0
        } else if empties % 2 == 0 {
            1000
        } else {
            -2000
        };
        assert_eq!(e.score_units(&b), want, "{empties} empties");
        seen += (want != 0) as usize;
    }
    assert!(seen > 100);
    // Phase 3 of 15 covers 44-47 empties: (60 - e) * 15 / 61 == 3.
    assert_eq!(
        (0..=60u32)
            .filter(|&x| phase_of(x, 15) == 3)
            .collect::<Vec<_>>(),
        [44, 45, 46, 47]
    );
}

#[test]
fn evaluation_scales_rounds_and_clamps() {
    assert_eq!(units_to_centi(WEIGHT_SCALE), 100);
    assert_eq!(units_to_centi(-WEIGHT_SCALE), -100);
    assert_eq!(units_to_centi(128), 50);
    assert_eq!(units_to_centi(1), 0);
    assert_eq!(units_to_centi(2), 1);
    assert_eq!(units_to_centi(i32::MAX), MAX_SCORE);
    assert_eq!(units_to_centi(i32::MIN), -MAX_SCORE);
    // A saturated evaluator clamps.
    let e =
        PatternEval::from_compact(1, vec![i16::MAX; FEATURES_PER_PHASE], String::new()).unwrap();
    assert_eq!(e.evaluate(&Board::start()), MAX_SCORE);
}

#[test]
fn zero_and_bad_shapes() {
    let z = PatternEval::zero(MAX_PHASES).unwrap();
    assert_eq!(z.evaluate(&Board::start()), 0);
    assert!(matches!(
        PatternEval::zero(0),
        Err(WeightsError::BadPhaseCount(0))
    ));
    assert!(matches!(
        PatternEval::zero(MAX_PHASES + 1),
        Err(WeightsError::BadPhaseCount(_))
    ));
    assert!(matches!(
        PatternEval::from_compact(2, vec![0; FEATURES_PER_PHASE], String::new()),
        Err(WeightsError::WrongWeightCount { .. })
    ));
}

#[test]
fn weight_file_round_trips() {
    let e = random_eval(4, 3000, 11);
    let bytes = e.to_bytes();
    assert_eq!(
        bytes.len(),
        HEADER_LEN + e.meta().len() + 2 * 4 * FEATURES_PER_PHASE
    );
    assert_eq!(bytes[..8], MAGIC);
    let back = PatternEval::from_bytes(&bytes).unwrap();
    assert_eq!(back.compact_weights(), e.compact_weights());
    assert_eq!(back.meta(), "random seed 11");
    assert_eq!(back.phases(), 4);
    for b in sample_positions(300, 5) {
        assert_eq!(back.evaluate(&b), e.evaluate(&b));
    }
    // Through the file system too.
    let dir = std::env::temp_dir().join(format!("othello-pattern-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.bin");
    e.save(&path).unwrap();
    let loaded = PatternEval::load(&path).unwrap();
    assert_eq!(loaded.compact_weights(), e.compact_weights());
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(
        PatternEval::load(dir.join("missing.bin")),
        Err(WeightsError::Io { .. })
    ));
}

/// Recomputes the checksum of a (modified) weight file so that only the field under test is
/// wrong.
fn reseal(bytes: &mut [u8]) {
    let sum = fnv1a64(&[&bytes[..24], &bytes[32..]]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
}

/// Asserts that `bytes` with its pattern-set field changed to `set` (checksum fixed up) is
/// refused for having the wrong number of weights for that set.
fn assert_refused_as_set(bytes: &[u8], set: u16) {
    let mut b = bytes.to_vec();
    b[10..12].copy_from_slice(&set.to_le_bytes());
    reseal(&mut b);
    let err = PatternEval::from_bytes(&b).unwrap_err();
    assert!(
        matches!(err, WeightsError::WrongFeatureCount { set: s, .. } if s == set),
        "set {set}: {err}"
    );
}

#[test]
fn pattern_set_1_files_load_with_zero_potential_mobility_and_are_written_as_set_2() {
    // v5, the default until v6, is a file of pattern set 1.
    let v1_bytes = V5_BYTES;
    assert_eq!(u16::from_le_bytes([v1_bytes[10], v1_bytes[11]]), 1);
    let per_phase = u32::from_le_bytes(v1_bytes[16..20].try_into().unwrap()) as usize;
    assert_eq!(per_phase, SET1_FEATURES_PER_PHASE);
    let v5 = PatternEval::from_bytes(v1_bytes).unwrap();
    let meta_len = u32::from_le_bytes(v1_bytes[20..24].try_into().unwrap()) as usize;
    let stored: Vec<i16> = v1_bytes[HEADER_LEN + meta_len..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    // Each phase is the file's pattern classes, zeros for set 3's shapes, the file's scalar
    // weights, then 128 zero potential-mobility weights.
    let scalars = per_phase - BASE_COMPACT_PATTERNS_LEN;
    for (ph, phase) in stored.chunks_exact(per_phase).enumerate() {
        let loaded = &v5.compact_weights()[ph * FEATURES_PER_PHASE..(ph + 1) * FEATURES_PER_PHASE];
        let (base, rest) = loaded.split_at(BASE_COMPACT_PATTERNS_LEN);
        let (set3, tail) = rest.split_at(COMPACT_PATTERNS_LEN - BASE_COMPACT_PATTERNS_LEN);
        assert_eq!(base, &phase[..BASE_COMPACT_PATTERNS_LEN], "phase {ph}");
        assert!(set3.iter().all(|&w| w == 0), "phase {ph}");
        assert_eq!(
            &tail[..scalars],
            &phase[BASE_COMPACT_PATTERNS_LEN..],
            "phase {ph}"
        );
        assert!(tail[scalars..].iter().all(|&w| w == 0), "phase {ph}");
    }
    assert!(!v5.uses_set3_shapes());
    // Written back, it is a set-2 file that loads to the same weights.
    let v2_bytes = v5.to_bytes();
    assert_eq!(u16::from_le_bytes([v2_bytes[10], v2_bytes[11]]), 2);
    assert_eq!(
        v2_bytes.len(),
        HEADER_LEN + v5.meta().len() + 2 * v5.phases() * SET2_FEATURES_PER_PHASE
    );
    let again = PatternEval::from_bytes(&v2_bytes).unwrap();
    assert_eq!(again.compact_weights(), v5.compact_weights());
    // The potential-mobility weights count: a set-2 evaluator with one of them set moves
    // exactly the positions with that count.
    let mut w = v5.compact_weights().to_vec();
    let slot = COMPACT_PATTERNS_LEN + 2 * MOBILITY_BUCKETS + 2 + 10;
    for ph in 0..v5.phases() {
        w[ph * FEATURES_PER_PHASE + slot] += 256;
    }
    let bumped = PatternEval::from_compact(v5.phases(), w, String::new()).unwrap();
    for b in sample_positions(300, 9) {
        let near = othello::eval::mobility::potential_mobility(b.player(), b.opponent());
        let diff = bumped.score_units(&b) - v5.score_units(&b);
        assert_eq!(diff, if near == 10 { 256 } else { 0 }, "{b:?}");
    }
    // A set-1 header with a set-2 count of weights is refused.
    assert_refused_as_set(&v2_bytes, 1);
}

#[test]
fn corrupt_weight_files_are_rejected_with_the_right_error() {
    let good = random_eval(1, 100, 2).to_bytes();
    assert!(PatternEval::from_bytes(&good).is_ok());

    let err = |b: &[u8]| PatternEval::from_bytes(b).unwrap_err();
    assert!(matches!(err(&good[..10]), WeightsError::TooShort(10)));
    assert!(matches!(err(&[]), WeightsError::TooShort(0)));
    assert!(matches!(
        err(&good[..good.len() - 1]),
        WeightsError::BadLength { .. }
    ));
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(err(&longer), WeightsError::BadLength { .. }));

    let mut b = good.clone();
    b[0] = b'X';
    assert!(matches!(err(&b), WeightsError::BadMagic));

    let mut b = good.clone();
    b[8] = 2;
    reseal(&mut b);
    let e = err(&b);
    assert!(matches!(e, WeightsError::UnsupportedVersion { found: 2 }));
    assert!(e.to_string().contains("version 2"), "{e}");

    let mut b = good.clone();
    b[10] = 9;
    reseal(&mut b);
    assert!(matches!(
        err(&b),
        WeightsError::WrongPatternSet { found: 9 }
    ));

    let mut b = good.clone();
    b[12] = 0;
    reseal(&mut b);
    assert!(matches!(err(&b), WeightsError::BadPhaseCount(0)));

    let mut b = good.clone();
    b[15] = 0;
    reseal(&mut b);
    assert!(matches!(err(&b), WeightsError::BadScale(_)));

    let mut b = good.clone();
    b[16] ^= 1;
    reseal(&mut b);
    assert!(matches!(err(&b), WeightsError::WrongFeatureCount { .. }));

    let mut b = good.clone();
    b[23] = 0x7f;
    reseal(&mut b);
    assert!(matches!(err(&b), WeightsError::MetaTooLong(_)));

    // One weight changed: only the checksum can tell.
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] ^= 0x40;
    let e = err(&b);
    assert!(matches!(e, WeightsError::BadChecksum { .. }));
    assert!(e.to_string().contains("corrupt"), "{e}");

    // Metadata that is not UTF-8 (checksum fixed up).
    let mut b = good.clone();
    b[HEADER_LEN] = 0xff;
    reseal(&mut b);
    assert!(matches!(err(&b), WeightsError::BadMeta));
}

#[cfg(target_arch = "x86_64")]
proptest! {
    #[test]
    fn pext_instruction_matches_the_portable_loop(x in any::<u64>(), m in any::<u64>()) {
        prop_assert_eq!(pext(x, m), pext_portable(x, m));
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the processor has BMI2 (checked just above); `pext` has no other
            // precondition.
            let fast = unsafe { std::arch::x86_64::_pext_u64(x, m) };
            prop_assert_eq!(fast, pext_portable(x, m));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fast_indices_match_the_reference(b in any_board()) {
        prop_assert_eq!(
            instance_indices(b.player(), b.opponent()),
            instance_indices_reference(b.player(), b.opponent())
        );
    }

    #[test]
    fn expanded_lookup_matches_the_compact_reference(b in any_board(), seed in any::<u64>()) {
        let e = random_eval(2, 5000, seed % 8);
        prop_assert_eq!(e.score_units(&b), e.score_units_reference(&b));
    }

    #[test]
    fn evaluation_is_exactly_invariant_under_the_eight_symmetries(
        b in any_board(),
        seed in 0u64..4,
    ) {
        let e = random_eval(3, 8000, 100 + seed);
        let units = e.score_units(&b);
        for sym in 1..8 {
            let s = b.symmetry(sym);
            prop_assert_eq!(e.score_units(&s), units, "symmetry {}", sym);
        }
        // The raw indices do change under a symmetry (so the sharing is what makes it work).
        let moved = (1..8).any(|sym| {
            let s = b.symmetry(sym);
            instance_indices(s.player(), s.opponent()) != instance_indices(b.player(), b.opponent())
        });
        let symmetric = (1..8).all(|sym| b.symmetry(sym) == b);
        prop_assert!(moved || symmetric);
    }

    #[test]
    fn loading_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        prop_assert!(PatternEval::from_bytes(&bytes).is_err());
        // With a valid magic and header prefix too.
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&bytes);
        prop_assert!(PatternEval::from_bytes(&b).is_err());
    }

    #[test]
    fn mutated_weight_files_are_rejected(
        pos in any::<prop::sample::Index>(),
        xor in 1u8..=255,
        cut in any::<prop::sample::Index>(),
    ) {
        let good = random_eval(1, 300, 9).to_bytes();
        let mut b = good.clone();
        let i = pos.index(b.len());
        b[i] ^= xor;
        prop_assert!(PatternEval::from_bytes(&b).is_err(), "byte {} ^ {}", i, xor);
        let n = cut.index(good.len());
        prop_assert!(PatternEval::from_bytes(&good[..n]).is_err());
        // Header fields set to extreme values, checksum fixed up: still an error, no panic.
        let mut h = good.clone();
        h[16..24].copy_from_slice(&[0xff; 8]);
        reseal(&mut h);
        prop_assert!(PatternEval::from_bytes(&h).is_err());
    }
}

#[test]
fn weights_with_set_3_shapes_are_read_and_written_as_set_3() {
    // v5 has no weights for set 3's shapes.
    let v5 = PatternEval::from_bytes(V5_BYTES).unwrap();
    // One weight of the triangle (its class of ten empty squares, index 0) in every phase: the
    // evaluation moves by that weight once for each corner whose triangle is empty, and only
    // there.
    let class = geometry().canon[BASE_PATTERN_COUNT][0] as usize;
    assert_eq!(PATTERNS[BASE_PATTERN_COUNT].name, "triangle");
    let mut w = v5.compact_weights().to_vec();
    for ph in 0..v5.phases() {
        w[ph * FEATURES_PER_PHASE + BASE_COMPACT_PATTERNS_LEN + class] = 100;
    }
    let e = PatternEval::from_compact(v5.phases(), w, "v5 and one triangle weight".into()).unwrap();
    assert!(e.uses_set3_shapes());
    let mut moved = 0;
    for b in sample_positions(400, 13) {
        let triangles = instance_indices(b.player(), b.opponent())
            .iter()
            .zip(INSTANCES.iter())
            .filter(|(&index, inst)| inst.pattern as usize == BASE_PATTERN_COUNT && index == 0)
            .count() as i32;
        assert_eq!(
            e.score_units(&b) - v5.score_units(&b),
            100 * triangles,
            "{b:?}"
        );
        assert_eq!(e.score_units(&b), e.score_units_reference(&b));
        moved += (triangles > 0) as usize;
    }
    assert!(moved > 0, "no position had an empty triangle");
    // Written as set 3 and read back the same.
    let bytes = e.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 3);
    let per_phase = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    assert_eq!(per_phase, FEATURES_PER_PHASE);
    let back = PatternEval::from_bytes(&bytes).unwrap();
    assert_eq!(back.compact_weights(), e.compact_weights());
    assert!(back.uses_set3_shapes());
    // A set-2 header on set-3 weights is refused, and so is the reverse.
    assert_refused_as_set(&bytes, 2);
    assert_refused_as_set(&v5.to_bytes(), 3);
}
