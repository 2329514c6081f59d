//! Benchmarks of the pattern evaluator (the default weights): one position at a time (with the
//! hand-made evaluator beside it for scale), and every child of a position, either each one
//! evaluated whole or all of them sharing their pattern indices as the search's nodes do
//! (`PatternEval::evaluate_children`).
//!
//! The positions come from seeded random games (every stage of the game). Before timing, the
//! shared-index results are checked against whole evaluations of the same children.
//!
//! Run briefly with: `cargo bench --bench eval -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use othello::eval::builtin::default_pattern;
use othello::eval::pattern::MAX_CHILDREN;
use othello::eval::{Evaluator, HandEval};
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
        bench.iter(|| {
            black_box(&positions)
                .iter()
                .map(|b| eval.evaluate(b) as i64)
                .sum::<i64>()
        })
    });
    let hand = HandEval::new();
    group.bench_function("hand", |bench| {
        bench.iter(|| {
            black_box(&positions)
                .iter()
                .map(|b| hand.evaluate(b) as i64)
                .sum::<i64>()
        })
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

criterion_group!(benches, evals);
criterion_main!(benches);
