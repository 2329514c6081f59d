//! The float reference against committed outputs: a network drawn from a fixed seed evaluates
//! fixed positions to these values. A change to the feature order, the row mapping, the
//! buckets, the global inputs or the forward pass shows here (an integrator's quantised
//! inference can be checked against the same fixture).

use othello_nnue::{Arch, Network, Params};

fn positions() -> Vec<(u64, u64)> {
    let mut rng = othello_core::rng::SplitMix64::new(2024);
    let mut out = Vec::new();
    for _ in 0..4 {
        let game: Vec<_> =
            othello_core::rng::random_playout(othello_core::Board::start(), &mut rng).collect();
        for b in game.iter().step_by(9) {
            out.push((b.player(), b.opponent()));
        }
    }
    out
}

fn network() -> Network {
    let mut params: Params<f32> = Params::init(Arch::new(16, 8, 4), 12345);
    // Larger embedding weights, so that the accumulator crosses both ends of the clip.
    params.emb.iter_mut().for_each(|w| *w *= 8.0);
    Network { params }
}

const EXPECTED: &[(u64, u64, f32)] = &[
    (0x0000000810000000, 0x0000001008000000, -1.7748609),
    (0x0000047810000000, 0x000000022c4c0000, -0.33632356),
    (0x00048c440e0c0000, 0x0000013a70424000, 0.0787471),
    (0x020609583d404000, 0x000096a6c28e0200, 1.564065),
    (0x000086a6aa940201, 0x02665958554a7500, 2.4093163),
    (0x02631b54445a3408, 0x0884c4abbba54385, -0.15360743),
    (0x49c3c58393850787, 0x223c3a7c6c7af808, -1.2136735),
    (0x0000000810000000, 0x0000001008000000, -1.7748609),
    (0x0000000a0c080000, 0x0014385010000000, -0.28574407),
    (0x00141d4a04080400, 0x0048201078101000, 1.5667397),
    (0x0020161460001000, 0x385ca94a1e380400, 0.8512905),
    (0x381c8940645a3560, 0x8060361e1a244000, -0.550531),
    (0x8204060a04e4c484, 0x38f8b9747a1b3360, -0.8564204),
    (0x001f0f063b1b1708, 0xfee0f0f844e4e0f4, -2.0982797),
    (0x0000000810000000, 0x0000001008000000, -1.7748609),
    (0x0000002030000000, 0x004020180f040400, -0.62167954),
    (0x2070204003070400, 0x000050383c080000, 0.13352735),
    (0x000000081c0e030e, 0x2078f87023210400, 1.1649017),
    (0x3078281c8f0f0000, 0x4080d0e030304f0e, 1.224092),
    (0xf8c0a8983044ff0e, 0x003c5064cf3b0080, -0.41068205),
    (0x043854004c0a60e0, 0xfac4a8ffb3f59f1e, -1.6907262),
    (0x0000000810000000, 0x0000001008000000, -1.7748609),
    (0x0010201008040000, 0x4040580814000000, -0.6422418),
    (0x501e501810000000, 0x80402e020e040000, 0.031389125),
    (0xe050201800160100, 0x100e5e277e000000, 1.3640146),
    (0x140814cf0e102400, 0xe2576a30704e0100, 0.16401863),
    (0xfe5f193543ef0100, 0x002066ca3c102c04, -0.6007958),
    (0x0020449800240201, 0xfe5f3b67ffdb3d7e, -0.61590767),
];

#[test]
fn float_reference_matches_the_fixture() {
    let net = network();
    let got: Vec<(u64, u64, f32)> = positions()
        .into_iter()
        .map(|(p, o)| (p, o, net.evaluate(p, o)))
        .collect();
    assert_eq!(got.len(), EXPECTED.len());
    for ((p, o, v), (ep, eo, ev)) in got.iter().zip(EXPECTED) {
        assert_eq!((p, o), (ep, eo));
        assert!((v - ev).abs() < 1e-4, "{p:#x} {o:#x}: {v} against {ev}");
    }
}

/// The engine's own reading of the network (`othello_core::eval::nnue`): its float reference
/// gives the trainer's values, and its quantised inference follows them.
#[test]
fn the_engine_reads_the_trainers_network_and_values_it_alike() {
    use othello_core::eval::nnue::{FloatNet, NnueEval};
    use othello_core::eval::Evaluator;
    let network = network();
    let bytes = othello_nnue::file::weights_bytes(&network.params);
    let float = FloatNet::from_bytes(&bytes).expect("the trainer's file reads");
    let quantised = NnueEval::from_bytes(&bytes).expect("the trainer's file quantises");
    for &(p, o, want) in EXPECTED {
        let got = float.evaluate(p, o);
        assert!((got - want).abs() < 1e-4, "{got} against {want}");
        let board = othello_core::Board::from_bits_unchecked(p, o);
        let centi = quantised.evaluate(&board);
        // This network's embedding is eight times the trained ones' (it crosses both clip
        // ends), so the i8 rounding moves it more than it moves a trained network.
        assert!(
            (centi as f32 - 100.0 * want).abs() <= 60.0,
            "{centi} centi-discs against {want} discs"
        );
    }
}
