//! Benchmarks of the board core: move generation, flips, play, Zobrist hashing and perft.
//!
//! The position set comes from deterministic pseudo-random playouts from the start position
//! (a fixed-seed xorshift picks each move), so it covers openings, midgames and endgames in
//! realistic proportions and is the same on every run. Every benchmark checks its result before
//! it is timed: the SIMD variants against the portable ones, the whole set against independent
//! computations, and perft against the published count.
//!
//! Run briefly with: `cargo bench --bench board -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use othello::bitboard::squares;
use othello::flip::flips_portable;
use othello::hash::{hash, hash_after_move, table_key, KEYS};
use othello::movegen::moves_portable;
use othello::perft::{perft, START_PERFT};
use othello::{Board, Square};

/// Number of positions in the set (about 24 random games).
const POSITIONS: usize = 1_450;
/// Seed of the playout generator.
const SEED: u64 = 0x0BF5_EED5_2026_0001;

#[path = "../tests/common/mod.rs"]
mod common;

/// Every position met while playing random games from the start, game over excluded
/// (positions where the side to move must pass are included).
fn playout_positions(n: usize, seed: u64) -> Vec<Board> {
    common::playout_positions(n, seed, usize::MAX, |b| !b.is_game_over())
}

/// Every (board, legal move) pair of the position set.
fn move_pairs(positions: &[Board]) -> Vec<(Board, Square)> {
    positions
        .iter()
        .flat_map(|&b| b.legal_moves().map(move |sq| (b, sq)))
        .collect()
}

/// Folds 64-bit results into one checksum (order-sensitive, so each result counts).
#[inline(always)]
fn fold(acc: u64, x: u64) -> u64 {
    acc.rotate_left(7) ^ x
}

fn movegen_portable(positions: &[Board]) -> u64 {
    positions.iter().fold(0, |acc, b| {
        fold(
            acc,
            moves_portable(black_box(b.player()), black_box(b.opponent())),
        )
    })
}

/// Whether this processor runs the AVX2 kernels (the engine picks them at run time).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// The AVX2 move generator; call only when [`has_avx2`].
#[cfg(target_arch = "x86_64")]
fn avx2_moves(p: u64, o: u64) -> u64 {
    // SAFETY: every caller checked `has_avx2()` before (the benches below).
    unsafe { othello::movegen::avx2::moves_avx2(p, o) }
}

/// The AVX2 flip generator; call only when [`has_avx2`].
#[cfg(target_arch = "x86_64")]
fn avx2_flips(sq: Square, p: u64, o: u64) -> u64 {
    // SAFETY: every caller checked `has_avx2()` before (the benches below).
    unsafe { othello::flip::avx2::flips_avx2(sq, p, o) }
}

/// The AVX-512 flip generator; `None` when this processor lacks AVX-512 F and CD.
#[cfg(target_arch = "x86_64")]
fn avx512_flips(sq: Square, p: u64, o: u64) -> Option<u64> {
    if !othello::flip::avx512::available() {
        return None;
    }
    // SAFETY: `available` just found AVX-512 F and CD.
    Some(unsafe { othello::flip::avx512::flips_avx512(sq, p, o) })
}

#[cfg(target_arch = "x86_64")]
fn movegen_avx2(positions: &[Board]) -> u64 {
    positions.iter().fold(0, |acc, b| {
        fold(
            acc,
            avx2_moves(black_box(b.player()), black_box(b.opponent())),
        )
    })
}

fn flips_portable_all(pairs: &[(Board, Square)]) -> u64 {
    pairs.iter().fold(0, |acc, (b, sq)| {
        fold(
            acc,
            flips_portable(black_box(*sq), b.player(), b.opponent()),
        )
    })
}

#[cfg(target_arch = "x86_64")]
fn flips_avx2_all(pairs: &[(Board, Square)]) -> u64 {
    pairs.iter().fold(0, |acc, (b, sq)| {
        fold(acc, avx2_flips(black_box(*sq), b.player(), b.opponent()))
    })
}

/// The AVX-512 kernel over every pair; call only when `avx512::available()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512cd")]
unsafe fn flips_avx512_all(pairs: &[(Board, Square)]) -> u64 {
    pairs.iter().fold(0, |acc, (b, sq)| {
        // SAFETY: this function's own contract: the processor has AVX-512 F, VL and CD.
        let f = unsafe {
            othello::flip::avx512::flips_avx512(black_box(*sq), b.player(), b.opponent())
        };
        fold(acc, f)
    })
}

fn bench_movegen(c: &mut Criterion) {
    let positions = playout_positions(POSITIONS, SEED);
    for b in &positions {
        let reference = moves_portable(b.player(), b.opponent());
        assert_eq!(b.moves(), reference, "Board::moves on {b:?}");
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            assert_eq!(
                avx2_moves(b.player(), b.opponent()),
                reference,
                "AVX2 moves on {b:?}"
            );
        }
    }
    let expected = movegen_portable(&positions);
    assert_ne!(expected, 0);

    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("portable", |bench| {
        bench.iter(|| movegen_portable(black_box(&positions)))
    });
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        assert_eq!(movegen_avx2(&positions), expected);
        group.bench_function("avx2", |bench| {
            bench.iter(|| movegen_avx2(black_box(&positions)))
        });
    }
    group.finish();
}

fn bench_flips(c: &mut Criterion) {
    let positions = playout_positions(POSITIONS, SEED);
    let pairs = move_pairs(&positions);
    for (b, sq) in &pairs {
        let f = flips_portable(*sq, b.player(), b.opponent());
        assert!(
            f != 0 && f & b.opponent() == f,
            "portable flips of {sq} on {b:?}"
        );
        assert_eq!(b.flips(*sq), f, "Board::flips of {sq} on {b:?}");
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            assert_eq!(
                avx2_flips(*sq, b.player(), b.opponent()),
                f,
                "AVX2 flips of {sq} on {b:?}"
            );
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = avx512_flips(*sq, b.player(), b.opponent()) {
            assert_eq!(v, f, "AVX-512 flips of {sq} on {b:?}");
        }
    }
    let expected = flips_portable_all(&pairs);

    let mut group = c.benchmark_group("flips");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("portable", |bench| {
        bench.iter(|| flips_portable_all(black_box(&pairs)))
    });
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        assert_eq!(flips_avx2_all(&pairs), expected);
        group.bench_function("avx2", |bench| {
            bench.iter(|| flips_avx2_all(black_box(&pairs)))
        });
    }
    #[cfg(target_arch = "x86_64")]
    if othello::flip::avx512::available() {
        // SAFETY: `available` found AVX-512 F, VL and CD.
        assert_eq!(unsafe { flips_avx512_all(&pairs) }, expected);
        group.bench_function("avx512", |bench| {
            // SAFETY: as above.
            bench.iter(|| unsafe { flips_avx512_all(black_box(&pairs)) })
        });
    }
    group.finish();
}

fn bench_play(c: &mut Criterion) {
    let positions = playout_positions(POSITIONS, SEED);
    let pairs = move_pairs(&positions);
    let play_all = |pairs: &[(Board, Square)]| {
        pairs.iter().fold(0, |acc, (b, sq)| {
            let next = black_box(b).play(black_box(*sq));
            fold(fold(acc, next.player()), next.opponent())
        })
    };
    // Independently: the mover's disc and the flips change hands, and the roles swap.
    let expected = pairs.iter().fold(0, |acc, (b, sq)| {
        let f = flips_portable(*sq, b.player(), b.opponent());
        fold(fold(acc, b.opponent() & !f), b.player() | f | sq.bit())
    });
    assert_eq!(play_all(&pairs), expected);

    let mut group = c.benchmark_group("board");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("play", |bench| bench.iter(|| play_all(black_box(&pairs))));
    group.finish();
}

fn bench_hash(c: &mut Criterion) {
    let positions = playout_positions(POSITIONS, SEED);
    let pairs = move_pairs(&positions);
    let hash_all = |positions: &[Board]| positions.iter().fold(0, |acc, b| fold(acc, hash(b)));
    // Independently: XOR the key of each disc, the opponent's rotated by 32 bits.
    let plain = |b: &Board| {
        squares(b.player()).fold(0, |h, sq| h ^ KEYS[sq.index()])
            ^ squares(b.opponent()).fold(0, |h, sq| h ^ KEYS[sq.index()].rotate_left(32))
    };
    let expected = positions.iter().fold(0, |acc, b| fold(acc, plain(b)));
    assert_eq!(hash_all(&positions), expected);
    // Precomputed hashes and flips for the incremental update.
    let updates: Vec<(u64, Square, u64, u64)> = pairs
        .iter()
        .map(|(b, sq)| {
            let f = b.flips(*sq);
            (hash(b), *sq, f, hash(&b.play(*sq)))
        })
        .collect();
    for &(h, sq, f, after) in &updates {
        assert_eq!(hash_after_move(h, sq, f), after, "incremental hash of {sq}");
    }
    let update_all = |updates: &[(u64, Square, u64, u64)]| {
        updates.iter().fold(0, |acc, &(h, sq, f, _)| {
            fold(acc, hash_after_move(h, sq, f))
        })
    };
    let expected_updates = updates.iter().fold(0, |acc, u| fold(acc, u.3));
    assert_eq!(update_all(&updates), expected_updates);

    let mut group = c.benchmark_group("zobrist");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("full", |bench| {
        bench.iter(|| hash_all(black_box(&positions)))
    });
    // The transposition tables' multiplicative key of the same positions.
    let keys_all = |positions: &[Board]| {
        positions
            .iter()
            .fold(0, |acc, b| fold(acc, table_key(b.player(), b.opponent())))
    };
    group.bench_function("table_key", |bench| {
        bench.iter(|| keys_all(black_box(&positions)))
    });
    group.throughput(Throughput::Elements(updates.len() as u64));
    group.bench_function("after_move", |bench| {
        bench.iter(|| update_all(black_box(&updates)))
    });
    group.finish();
}

fn bench_perft(c: &mut Criterion) {
    let start = Board::start();
    assert_eq!(perft(&start, 9), START_PERFT[9]);
    assert_eq!(START_PERFT[9], 3_005_288);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(START_PERFT[9]));
    group.bench_function("start_depth_9", |bench| {
        bench.iter(|| perft(black_box(&start), 9))
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_movegen,
    bench_flips,
    bench_play,
    bench_hash,
    bench_perft
);
criterion_main!(benches);
