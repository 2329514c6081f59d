//! Helpers shared by the integration tests (and the benches): seeded random positions, drawn
//! with the library's one generator ([`othello::rng`]) so that every test samples the same way.
//! (The tests that read the binary's JSON output parse it with `serde_json`.)
//!
//! Each test file that uses them declares `mod common;`; not every file uses every helper.
#![allow(dead_code)]

use othello::Board;

pub use othello::rng::{random_playout, SplitMix64};

/// The position `plies` random plies from the start (a pass counts as a ply), or the final
/// position if the game ends before; draws only for the plies played.
pub fn random_position(plies: usize, rng: &mut SplitMix64) -> Board {
    random_playout(Board::start(), rng)
        .take(plies + 1)
        .last()
        .expect("a play-out has its start")
}

/// `n` positions from random games seeded with `seed`, game after game: of each game, the
/// positions among its first `max_plies` that `keep` accepts.
pub fn playout_positions(
    n: usize,
    seed: u64,
    max_plies: usize,
    keep: impl Fn(&Board) -> bool,
) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        out.extend(
            random_playout(Board::start(), &mut rng)
                .take(max_plies)
                .filter(|b| keep(b)),
        );
    }
    out.truncate(n);
    out
}

/// A move list of `plies` random moves from the start (`f5d6c3...`), seeded; it ends early
/// before a pass, so that it is a list with no implicit pass.
pub fn random_move_list(seed: u64, plies: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut board = Board::start();
    let mut line = String::new();
    for _ in 0..plies {
        let moves: Vec<_> = board.legal_moves().collect();
        let sq = moves[rng.below(moves.len() as u64) as usize];
        line.push_str(&sq.to_string());
        board = board.play(sq);
        if board.moves() == 0 {
            break;
        }
    }
    line
}

/// The first position of `tests/data/quality-30.obf` as a board string: 30 empties, Black to
/// move, out of the book, and long to search (the board page's clock and stop tests).
pub fn first_quality_position() -> String {
    let obf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/quality-30.obf"
    ))
    .expect("tests/data/quality-30.obf");
    let line = obf.lines().next().expect("a first line");
    line.split(';').next().unwrap_or(line).trim().to_string()
}
