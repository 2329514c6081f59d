//! Fuzz target: random games on the bitboard core and on the PAIP mailbox reference at once.
//!
//! Each input byte chooses a move, `legal[byte % legal.len()]`; passes are forced and take no
//! byte. At every ply `othello::reference::step_both` checks that both boards agree on the legal
//! moves, the discs every square would flip, the position after the move, the forced pass, the
//! colour to move next and the end of the game; at the end, the final score is compared here
//! as well. Any disagreement panics with the board string and the move.
//!
//! Run with `cargo +nightly fuzz run random_play`: the fuzz profiles build for the fuzzing
//! machine (`fuzz/Cargo.toml`), so the AVX2 move generation and flips are the code under test
//! (`RUSTFLAGS="-C target-cpu=x86-64"` selects the portable code instead).
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::board::{Color, Position};
use othello::reference::{self, RefBoard};

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::start();
    let mut reference = RefBoard::initial();
    if let Err(e) = reference::compare(&pos, &reference) {
        panic!("at the start: {e}");
    }
    for (ply, &byte) in data.iter().enumerate() {
        match reference::step_both(&mut pos, &mut reference, usize::from(byte)) {
            Err(e) => panic!("ply {ply}: {e}"),
            Ok(Some((_, Some(_)))) => {}
            Ok(Some((_, None))) | Ok(None) => break,
        }
    }
    assert_eq!(pos, reference.to_position());
    assert_eq!(pos.board.is_game_over(), reference.is_game_over());
    if pos.board.is_game_over() {
        let (black, white) = pos.black_white();
        assert_eq!(black.count_ones(), reference.count(Color::Black));
        assert_eq!(white.count_ones(), reference.count(Color::White));
        assert_eq!(
            pos.board.final_score(),
            reference.final_score(pos.side),
            "final score at {}",
            pos.to_board_string()
        );
    }
});
