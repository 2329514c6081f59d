//! The binary's batch commands (`perft`, ...), written against `io::Write` so tests can run them.
//!
//! Each command takes already-parsed arguments; argument parsing lives in `main.rs`.

use std::io::{self, Write};
use std::time::Instant;

use crate::board::Board;
use crate::perft::perft;

/// `othello perft N`: for each depth 1..=N, the leaf count, the time and leaves per second.
pub fn run_perft(board: &Board, max_depth: u32, out: &mut impl Write) -> io::Result<u64> {
    writeln!(
        out,
        "{:>5} {:>20} {:>12} {:>16}",
        "depth", "leaves", "seconds", "leaves/s"
    )?;
    let mut last = 1;
    for depth in 1..=max_depth {
        let start = Instant::now();
        last = perft(board, depth);
        let secs = start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { last as f64 / secs } else { 0.0 };
        writeln!(out, "{depth:>5} {last:>20} {secs:>12.3} {rate:>16.0}")?;
        out.flush()?;
    }
    Ok(last)
}
