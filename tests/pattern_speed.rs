//! Timing of `PatternEval::evaluate` (ignored by default: timings need an optimised build and a
//! quiet machine). Run with:
//!
//! `cargo test --release --test pattern_speed -- --ignored --nocapture`
//!
//! It prints nanoseconds per call for the pattern evaluator and, for comparison, `HandEval`, on
//! the same reachable positions (random playouts, all stages of the game).

use std::hint::black_box;
use std::time::Instant;

use othello::bitboard::squares;
use othello::eval::pattern::{PatternEval, FEATURES_PER_PHASE};
use othello::eval::{Evaluator, HandEval};
use othello::Board;

fn positions(n: usize) -> Vec<Board> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    while out.len() < n {
        let mut b = Board::start();
        while !b.is_game_over() {
            let m = b.moves();
            if m == 0 {
                b = b.pass();
                continue;
            }
            out.push(b);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % m.count_ones() as u64) as usize;
            b = b.play(squares(m).nth(k).unwrap());
        }
    }
    out.truncate(n);
    out
}

fn time<E: Evaluator>(e: &E, boards: &[Board]) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = Instant::now();
        let mut s = 0i64;
        for b in boards {
            s += e.evaluate(black_box(b)) as i64;
        }
        black_box(s);
        best = best.min(t.elapsed().as_nanos() as f64 / boards.len() as f64);
    }
    best
}

#[test]
#[ignore]
fn evaluate_ns_per_call() {
    let boards = positions(200_000);
    let mut x = 1u64;
    let w = (0..15 * FEATURES_PER_PHASE)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 40) % 2001) as i16 - 1000
        })
        .collect();
    let pattern = PatternEval::from_compact(15, w, String::new()).unwrap();
    let hand = HandEval::new();
    let p = time(&pattern, &boards);
    let h = time(&hand, &boards);
    println!("PatternEval: {p:.1} ns/call; HandEval: {h:.1} ns/call");
}
