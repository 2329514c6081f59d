//! Perft from the start position against the published table in `tests/data/perft.txt`
//! (MODE1, the standard convention: a pass uses a ply, a game over before the horizon is one
//! leaf), for the bitboard core and, at shallower depths, for the mailbox reference.

use othello::board::Board;
use othello::perft::{perft, START_PERFT};
use othello::reference::RefBoard;

/// `(depth, MODE1 leaves)` for every data line of `tests/data/perft.txt`.
fn mode1_table() -> Vec<(u32, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/perft.txt is readable");
    let mut table = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split_whitespace();
        let depth = cols.next().expect("a depth column");
        let leaves = cols.next().expect("a MODE1 column");
        let depth: u32 = depth
            .parse()
            .unwrap_or_else(|e| panic!("depth {depth:?}: {e}"));
        let leaves: u64 = leaves
            .parse()
            .unwrap_or_else(|e| panic!("MODE1 at depth {depth}: {leaves:?}: {e}"));
        table.push((depth, leaves));
    }
    table
}

/// The MODE1 count at `depth` from the table.
fn expected(table: &[(u32, u64)], depth: u32) -> u64 {
    table
        .iter()
        .find(|&&(d, _)| d == depth)
        .unwrap_or_else(|| panic!("perft.txt has no depth {depth}"))
        .1
}

#[test]
fn the_table_parses_in_order() {
    let table = mode1_table();
    let depths: Vec<u32> = table.iter().map(|&(d, _)| d).collect();
    assert_eq!(depths, (1..=16).collect::<Vec<_>>());
    assert_eq!(expected(&table, 1), 4);
}

#[test]
fn start_perft_matches_the_table_to_depth_11() {
    let table = mode1_table();
    for depth in 1..=11 {
        assert_eq!(
            perft(&Board::start(), depth),
            expected(&table, depth),
            "perft({depth})"
        );
    }
}

#[test]
fn start_perft_constant_matches_the_table() {
    let table = mode1_table();
    assert_eq!(START_PERFT[0], 1);
    for depth in 1..=12 {
        assert_eq!(
            START_PERFT[depth as usize],
            expected(&table, depth),
            "START_PERFT[{depth}]"
        );
    }
}

/// Perft on the mailbox board, same convention: a side with no move passes (using a ply) even
/// when the game is over, so a finished game stays one path to the horizon.
fn reference_perft(board: &RefBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let player = board.to_move();
    let moves = board.legal_moves(player);
    if depth == 1 {
        // Bulk count: one leaf per move, or one for the pass.
        return moves.len().max(1) as u64;
    }
    if moves.is_empty() {
        let mut passed = board.clone();
        passed.pass();
        return reference_perft(&passed, depth - 1);
    }
    moves
        .into_iter()
        .map(|sq| {
            let mut child = board.clone();
            child.make_move(sq, player);
            child.set_to_move(player.opposite());
            reference_perft(&child, depth - 1)
        })
        .sum()
}

/// Depth 9 is the first with passes and finished games; the reference gets there on its own.
#[test]
fn reference_perft_matches_the_table_to_depth_9() {
    let table = mode1_table();
    let start = RefBoard::initial();
    for depth in 1..=9 {
        assert_eq!(
            reference_perft(&start, depth),
            expected(&table, depth),
            "reference perft({depth})"
        );
    }
}
