//! The library in a few lines: parse a position, search it to a fixed depth with the built-in
//! evaluator, and print the best move and its value.
//!
//!     cargo run --release --example best_move -- [DEPTH] ["<64 squares> <side to move>"]

use othello::eval::EngineEval;
use othello::search::{Limits, Searcher};
use othello::Position;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(Ok(8), |d| d.parse())?;
    // A board string: a1..h8 row by row, X Black, O White, - empty, then the side to move.
    let position: Position = match args.next() {
        Some(text) => text.parse()?,
        None => Position::start(),
    };
    // 16 MiB of transposition table; the embedded pattern weights.
    let mut searcher = Searcher::new(EngineEval::default(), 16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    // `()` ignores the per-iteration reports; a `Vec<SearchResult>` would collect them.
    let result = searcher.search(&position.board, &limits, &mut ());
    println!(
        "best move {} value {:+.2} discs (depth {}, {} nodes)",
        result.best,
        result.value.discs(),
        result.depth,
        result.nodes
    );
    Ok(())
}
