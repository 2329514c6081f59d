//! Fuzz target: bytes as a network file (`NnueEval::from_bytes`, what `--eval-file NET.nnue`
//! parses once the file policy has read the bytes).
//!
//! A valid file holds 204,030 embedding rows, far past what a fuzzer's inputs reach, and every
//! byte is under a checksum, so the first byte picks one of two modes:
//!
//! - even: the rest of the input is the file, as it is;
//! - odd: a valid network of width 1 (816 KB; 204 KB packed, version 2, when the first byte is
//!   3 modulo 4) with the next 24 input bytes written over its header after the magic, the
//!   rest over its first weights, and the checksum recomputed, so that every check behind the
//!   checksum is reached (versions, dimensions, counts, non-finite and out-of-range weights).
//!
//! Checks: the reader never panics; an accepted network evaluates the start position and a
//! few others to a value within the score range, the same on every code path.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use othello::cpu::CpuPath;
use othello::eval::nnue::file::checksum;
use othello::eval::nnue::FloatNet;
use othello::eval::pattern::geometry::geometry;
use othello::eval::{Evaluator, NnueEval};
use othello::Board;

/// A valid network file of the smallest dimensions, its weights small and varied, in `f32`
/// (version 1) or packed (version 2).
fn base(packed: bool) -> &'static [u8] {
    static BASE: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    &BASE.get_or_init(|| {
        let rows = geometry().compact_patterns_len;
        let small = |i: usize| ((i * 7919) % 101) as f32 / 400.0 - 0.125;
        let net = FloatNet {
            hidden: 1,
            l2: 1,
            buckets: 1,
            emb: (0..rows).map(small).collect(),
            b0: vec![0.5],
            w2: vec![1.0, 0.1, -0.1],
            b2: vec![0.0],
            w3: vec![2.0],
            b3: vec![0.0],
            base: 0,
        };
        [net.to_bytes(), net.to_packed_bytes()]
    })[packed as usize]
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let file = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let mut file = base(mode % 4 == 3).to_vec();
        let (header, weights) = rest.split_at(rest.len().min(24));
        // Bytes 8..24 and 32..40: everything in the header but the magic and the checksum.
        for (k, &b) in header.iter().enumerate() {
            let at = if k < 16 { 8 + k } else { 32 + (k - 16) };
            file[at] = b;
        }
        let room = file.len() - 40;
        let n = weights.len().min(room);
        file[40..40 + n].copy_from_slice(&weights[..n]);
        let sum = checksum(&file);
        file[24..32].copy_from_slice(&sum.to_le_bytes());
        file
    };
    if let Ok(net) = NnueEval::from_bytes(&file) {
        let mut board = Board::start();
        for _ in 0..4 {
            let v = net.evaluate(&board);
            assert!((-6400..=6400).contains(&v), "value {v} out of range");
            let values: Vec<u32> = CpuPath::ALL
                .into_iter()
                .filter(|p| p.supported())
                .map(|p| net.value_on(&board, p).to_bits())
                .collect();
            assert!(values.iter().all(|&x| x == values[0]), "code paths disagree");
            let Some(sq) = othello::bitboard::squares(board.moves()).next() else {
                break;
            };
            board = board.play(sq);
        }
    }
});
