//! Fuzz target: bytes as a pattern weight file (`PatternEval::from_bytes`, what
//! `PatternEval::load` parses once the file policy has read the bytes).
//!
//! A valid file is 3.4 to 6.1 MB, far past what a fuzzer's inputs reach, and every byte is under a
//! checksum, so raw inputs only exercise the first checks. The first byte therefore picks one
//! of two modes:
//!
//! - even: the rest of the input is the file, as it is;
//! - odd: the shipped weights (`weights/pattern-v6.bin`) with the next 16 input bytes written
//!   over the header fields after the magic (version, pattern set, phases, scale, weights per
//!   phase, metadata length), the metadata replaced by the rest of the input, and the checksum
//!   recomputed, so that every field check behind the checksum is reached.
//!
//! Checks: the reader never panics; an accepted file writes back (`to_bytes`) to bytes that
//! read back to an evaluator writing the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::eval::pattern::file::fnv1a64;
use othello::eval::pattern::PatternEval;

static SHIPPED: &[u8] = include_bytes!("../../weights/pattern-v6.bin");

/// The shipped file with `header` over bytes 8.. of its header, `meta` as its metadata, and a
/// checksum that matches.
fn patched(header: &[u8], meta: &[u8]) -> Vec<u8> {
    let old_meta = u32::from_le_bytes(SHIPPED[20..24].try_into().unwrap()) as usize;
    let weights = &SHIPPED[32 + old_meta..];
    let mut file = Vec::with_capacity(32 + meta.len() + weights.len());
    file.extend_from_slice(&SHIPPED[..32]);
    file[20..24].copy_from_slice(&(meta.len() as u32).to_le_bytes());
    // The input's header bytes win, the metadata length included when they reach it.
    file[8..8 + header.len()].copy_from_slice(header);
    file.extend_from_slice(meta);
    file.extend_from_slice(weights);
    let sum = fnv1a64(&[&file[..24], &file[32..]]);
    file[24..32].copy_from_slice(&sum.to_le_bytes());
    file
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let file = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let (header, meta) = rest.split_at(rest.len().min(16));
        patched(header, meta)
    };
    if let Ok(eval) = PatternEval::from_bytes(&file) {
        let bytes = eval.to_bytes();
        let again = PatternEval::from_bytes(&bytes).expect("written weights read back");
        assert_eq!(again.to_bytes(), bytes, "a round trip changes the weights");
    }
});
