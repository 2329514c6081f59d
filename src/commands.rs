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

/// Scratch: solve each board of an OBF file exactly (temporary until the OBF parser lands).
pub fn run_solve_scratch(text: &str, out: &mut impl Write) -> io::Result<()> {
    use crate::board::Position;
    use crate::search::endgame::Solver;
    use crate::search::tt::TranspositionTable;
    use crate::search::Stopper;
    let mut tt = TranspositionTable::new(64);
    let (mut total_nodes, total_start) = (0u64, Instant::now());
    for (i, line) in text.lines().enumerate() {
        let Some(Ok(pos)) = line.split(';').next().map(|b| b.parse::<Position>()) else {
            continue;
        };
        tt.new_search();
        let mut stopper = Stopper::unlimited();
        let mut solver = Solver::new(&tt, &mut stopper, 0);
        let start = Instant::now();
        let (score, best) = solver.solve_root(pos.board.player(), pos.board.opponent(), -64, 64);
        let secs = start.elapsed().as_secs_f64();
        total_nodes += solver.nodes;
        writeln!(
            out,
            "{:>3} {:>2} {:>4} {:+3} {:>12} {:>8.2}s {:>6.1} Mn/s  {}",
            i + 1,
            pos.board.empty_count(),
            best.map_or("--".into(), |s| s.to_string()),
            score,
            solver.nodes,
            secs,
            solver.nodes as f64 / secs / 1e6,
            line.split(';').nth(1).unwrap_or("").trim()
        )?;
    }
    let secs = total_start.elapsed().as_secs_f64();
    writeln!(out, "total {total_nodes} nodes {secs:.2}s {:.1} Mn/s", total_nodes as f64 / secs / 1e6)
}
