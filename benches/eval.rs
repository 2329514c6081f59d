//! Benchmarks of the pattern evaluator (the default weights): one position at a time (with the
//! hand-made evaluator beside it for scale), and every child of a position, either each one
//! evaluated whole or all of them sharing their pattern indices as the search's nodes do
//! (`PatternEval::evaluate_children`).
//!
//! The positions come from seeded random games (every stage of the game). Before timing, the
//! shared-index results are checked against whole evaluations of the same children.
//!
//! The neural evaluator (`nnue_eval`) is timed the same way, with the network of
//! `$OTHELLO_NNUE` if it names one, else a seeded random network of the shipped dimensions (H 64,
//! L2 32, 8 buckets): its cost does not depend on the weights. On a processor with AVX-512,
//! `nnue_eval/position_avx2` times the same network on its AVX2 kernel, for comparison;
//! `nnue_eval/position_h128` a random network of twice the accumulator width.
//!
//! Run briefly with: `cargo bench --bench eval -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use othello::eval::builtin::default_pattern;
use othello::eval::nnue::FloatNet;
use othello::eval::pattern::geometry::geometry;
use othello::eval::pattern::MAX_CHILDREN;
use othello::eval::{Evaluator, HandEval, NnueEval};
use othello::rng::SplitMix64;
use othello::Board;

#[path = "../tests/common/mod.rs"]
mod common;

/// Number of positions (about 24 random games).
const POSITIONS: usize = 1_450;
/// Seed of the playout generator.
const SEED: u64 = 0x0BF5_EED5_2026_0E7A;

fn evals(c: &mut Criterion) {
    let eval = default_pattern();
    let positions = common::playout_positions(POSITIONS, SEED, usize::MAX, |b| {
        !b.is_game_over() && b.moves() != 0
    });
    let children: usize = positions
        .iter()
        .map(|b| b.moves().count_ones() as usize)
        .sum();

    let whole = |boards: &[Board]| {
        boards.iter().fold(0i64, |acc, b| {
            b.legal_moves()
                .fold(acc, |acc, sq| acc * 31 + eval.evaluate(&b.play(sq)) as i64)
        })
    };
    let shared = |boards: &[Board]| {
        let mut out = [0; MAX_CHILDREN];
        boards.iter().fold(0i64, |acc, b| {
            let n = eval.evaluate_children(b, &mut out);
            out[..n].iter().fold(acc, |acc, &v| acc * 31 + v as i64)
        })
    };
    assert_eq!(whole(&positions), shared(&positions));

    let mut group = c.benchmark_group("pattern_eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("position", |bench| {
        bench.iter(|| sum_of_values(&*eval, black_box(&positions)))
    });
    let hand = HandEval::new();
    group.bench_function("hand", |bench| {
        bench.iter(|| sum_of_values(&hand, black_box(&positions)))
    });
    group.finish();

    let mut group = c.benchmark_group("pattern_eval_children");
    group.throughput(Throughput::Elements(children as u64));
    group.bench_function("whole", |bench| bench.iter(|| whole(black_box(&positions))));
    group.bench_function("siblings", |bench| {
        bench.iter(|| shared(black_box(&positions)))
    });
    group.finish();
}

/// The sum of `eval`'s values of `positions` (what the `position` benches time).
fn sum_of_values(eval: &impl Evaluator, positions: &[Board]) -> i64 {
    positions.iter().map(|b| eval.evaluate(b) as i64).sum()
}

/// The network of `$OTHELLO_NNUE`, or a seeded random one of the shipped dimensions.
fn network() -> NnueEval {
    if let Some(path) = std::env::var_os("OTHELLO_NNUE") {
        let bytes = std::fs::read(&path).expect("$OTHELLO_NNUE names a readable file");
        return NnueEval::from_bytes(&bytes).expect("$OTHELLO_NNUE names a network file");
    }
    random_network(64)
}

/// A seeded random network of accumulator width `hidden`, L2 32 and 8 buckets.
fn random_network(hidden: usize) -> NnueEval {
    let (l2, buckets) = (32, 8);
    let mut rng = SplitMix64::new(1);
    let mut uniform =
        |scale: f32| (rng.below(1 << 20) as f32 / (1 << 20) as f32 * 2.0 - 1.0) * scale;
    let rows = geometry().compact_patterns_len;
    FloatNet {
        hidden,
        l2,
        buckets,
        emb: (0..rows * hidden).map(|_| uniform(0.1)).collect(),
        b0: (0..hidden).map(|_| 0.4 + uniform(0.2)).collect(),
        w2: (0..buckets * l2 * (hidden + 2))
            .map(|_| uniform(1.0))
            .collect(),
        b2: (0..buckets * l2).map(|_| uniform(0.5)).collect(),
        w3: (0..buckets * l2).map(|_| uniform(3.0)).collect(),
        b3: (0..buckets).map(|_| uniform(1.0)).collect(),
        base: 0,
    }
    .quantise()
    .expect("weights within the quantised ranges")
}

fn nnue(c: &mut Criterion) {
    let net = network();
    let positions = common::playout_positions(POSITIONS, SEED, usize::MAX, |b| {
        !b.is_game_over() && b.moves() != 0
    });
    let children: usize = positions
        .iter()
        .map(|b| b.moves().count_ones() as usize)
        .sum();
    let mut group = c.benchmark_group("nnue_eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("position", |bench| {
        bench.iter(|| sum_of_values(&net, black_box(&positions)))
    });
    if net.uses_avx512() {
        let avx2 = network().with_avx512(false);
        group.bench_function("position_avx2", |bench| {
            bench.iter(|| sum_of_values(&avx2, black_box(&positions)))
        });
    }
    // The next width the kernels take: two cache lines a row instead of one.
    let wide = random_network(128);
    group.bench_function("position_h128", |bench| {
        bench.iter(|| sum_of_values(&wide, black_box(&positions)))
    });
    group.finish();
    let mut group = c.benchmark_group("nnue_eval_children");
    group.throughput(Throughput::Elements(children as u64));
    othello_core::with_cpu!(othello::cpu::CpuPath::current(), C => {
        group.bench_function("siblings", |bench| {
            bench.iter(|| {
                let mut state = net.new_state();
                black_box(&positions).iter().fold(0i64, |acc, b| {
                    let (p, o) = (b.player(), b.opponent());
                    othello::eval::EvalState::reset(&mut state, p, o);
                    b.legal_moves().fold(acc, |acc, sq| {
                        let v = net.evaluate_child_in::<C>(&mut state, p, o, sq, b.flips(sq));
                        acc * 31 + v as i64
                    })
                })
            })
        });
    });
    group.finish();
}

criterion_group!(benches, evals, nnue);
criterion_main!(benches);
