//! Fuzz target: bytes as a pattern weight file (`PatternEval::from_bytes`, what
//! `PatternEval::load` parses once the file policy has read the bytes).
//!
//! Checks: the reader never panics; an accepted file writes back (`to_bytes`) to bytes that
//! read back to an evaluator writing the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::eval::pattern::PatternEval;

fuzz_target!(|data: &[u8]| {
    if let Ok(eval) = PatternEval::from_bytes(data) {
        let bytes = eval.to_bytes();
        let again = PatternEval::from_bytes(&bytes).expect("written weights read back");
        assert_eq!(again.to_bytes(), bytes, "a round trip changes the weights");
    }
});
