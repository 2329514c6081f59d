//! Property tests: the bitboard core against the PAIP-style mailbox reference
//! (`othello::reference`), plus the invariants the core's fast paths rely on (SIMD = portable,
//! symmetries commute with move generation and play, incremental Zobrist = recomputed).

use othello::bitboard::{squares, symmetry, symmetry_square};
use othello::board::{Board, Color, IllegalMove, Move, Position};
use othello::reference::{self, RefBoard};
use othello::{flip, hash, movegen, Square};
use proptest::prelude::*;

/// The bitboard of a list of squares.
fn bits(list: &[Square]) -> u64 {
    list.iter().fold(0, |b, sq| b | sq.bit())
}

/// The squares of a bitboard, in index order.
fn list(bits: u64) -> Vec<Square> {
    squares(bits).collect()
}

/// Move choices for a random game: each is taken modulo the number of legal moves. Up to 80 of
/// them, biased toward 60 or more so that most games are played to the end (a game has at most
/// 60 moves; passes take no choice).
fn choices() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        1 => prop::collection::vec(0usize..1 << 16, 0..=80),
        2 => prop::collection::vec(0usize..1 << 16, 60..=80),
    ]
}

/// Two disjoint bitboards (side to move, opponent): uniform random bits, and boards whose
/// occupancy ranges from 1/16 to nearly full, as in games from the opening to the endgame.
fn disjoint_pair() -> impl Strategy<Value = (u64, u64)> {
    prop_oneof![
        (any::<u64>(), any::<u64>()).prop_map(|(p, o)| (p, o & !p)),
        (any::<[u64; 5]>(), 0u8..7).prop_map(|([a, b, c, d, split], density)| {
            let occupied = match density {
                0 => a & b & c & d,
                1 => a & b & c,
                2 => a & b,
                3 => a | b,
                4 => a | b | c,
                5 => a | b | c | d,
                _ => !0,
            };
            (occupied & split, occupied & !split)
        }),
    ]
}

/// The boards along a random game from the start, passes included, played with the bitboard
/// core alone; the last one is the game's end if the choices ran long enough.
fn playout(choices: &[usize]) -> Vec<Board> {
    let mut b = Board::start();
    let mut path = vec![b];
    let mut choices = choices.iter();
    while !b.is_game_over() {
        if b.must_pass() {
            b = b.pass();
        } else {
            let Some(&c) = choices.next() else { break };
            let moves = list(b.moves());
            b = b.play(moves[c % moves.len()]);
        }
        path.push(b);
    }
    path
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// A random game from the start, checked against the reference at every ply: legal moves,
    /// flips of every legal move, the position after the move, pass / game over / next to play,
    /// and the final score.
    #[test]
    fn random_games_agree_with_the_reference(choices in choices()) {
        let mut pos = Position::start();
        let mut r = RefBoard::initial();
        let mut choices = choices.into_iter();
        let mut plies = 0;
        loop {
            let player = r.to_move();
            prop_assert_eq!(pos, r.to_position());
            prop_assert_eq!(pos.side, player);
            let moves: Vec<Square> = pos.board.legal_moves().collect();
            prop_assert_eq!(&moves, &r.legal_moves(player));
            prop_assert_eq!(pos.board.moves(), bits(&moves));
            for &sq in &moves {
                prop_assert_eq!(list(pos.board.flips(sq)), r.flips(sq, player), "flips of {}", sq);
            }
            prop_assert_eq!(pos.board.must_pass(), r.must_pass());
            let over = pos.board.is_game_over();
            prop_assert_eq!(over, r.is_game_over());
            if over {
                prop_assert!(moves.is_empty());
                prop_assert_eq!(pos.board.final_score(), r.final_score(player));
                prop_assert_eq!(-pos.board.final_score(), r.final_score(player.opposite()));
                let (black, white) = pos.black_white();
                prop_assert_eq!(black.count_ones(), r.count(Color::Black));
                prop_assert_eq!(white.count_ones(), r.count(Color::White));
                prop_assert_eq!(
                    pos.board.disc_difference(),
                    r.count_difference(player)
                );
                break;
            }
            if moves.is_empty() {
                // Forced pass (the reference handed the turn back in `next_to_play`, below).
                prop_assert!(r.must_pass());
                pos = pos.try_play(Move::Pass).expect("a side without moves may pass");
                r.pass();
                plies += 1;
                continue;
            }
            prop_assert_eq!(pos.try_play(Move::Pass), Err(IllegalMove::PassWithMoves));
            let Some(c) = choices.next() else { break };
            let sq = moves[c % moves.len()];
            let before = pos.board;
            pos = pos.try_play(Move::Place(sq)).expect("a legal move plays");
            prop_assert_eq!(pos.board, before.play(sq));
            prop_assert_eq!(pos.board, before.play_with_flips(sq, before.flips(sq)));
            r.make_move(sq, player);
            r.set_to_move(player.opposite());
            prop_assert_eq!(pos, r.to_position(), "after {}", sq);
            let next = if pos.board.is_game_over() {
                None
            } else if pos.board.must_pass() {
                Some(player)
            } else {
                Some(player.opposite())
            };
            prop_assert_eq!(next, r.next_to_play(player), "next to play after {}", sq);
            plies += 1;
        }
        prop_assert!(plies <= 120);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The same kind of game driven by `reference::step_both` (the fuzz target's driver), which
    /// must agree with the reference's own bookkeeping and end where the core says the game ends.
    #[test]
    fn step_both_drives_games_to_the_end(choices in prop::collection::vec(any::<usize>(), 60)) {
        let mut pos = Position::start();
        let mut r = RefBoard::initial();
        for c in choices {
            match reference::step_both(&mut pos, &mut r, c) {
                Err(e) => prop_assert!(false, "{}", e),
                Ok(None) => break,
                Ok(Some((sq, next))) => {
                    prop_assert!(pos.board.empty() & sq.bit() == 0);
                    prop_assert_eq!(next.is_none(), pos.board.is_game_over());
                }
            }
        }
        // 60 choices are always enough: each places a disc.
        prop_assert!(pos.board.is_game_over());
        prop_assert!(r.is_game_over());
        prop_assert_eq!(pos.board.final_score(), r.final_score(r.to_move()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8192))]

    /// Arbitrary disjoint bitboards, reachable or not: legal moves, the flips of every square,
    /// pass, game over and score agree with the reference, and the AVX2 kernels agree with the
    /// portable ones.
    #[test]
    fn arbitrary_boards_agree_with_the_reference((p, o) in disjoint_pair()) {
        let b = Board::new(p, o).expect("disjoint");
        let r = RefBoard::from_board(&b);
        prop_assert_eq!(r.to_board(), b);
        let moves = b.moves();
        prop_assert_eq!(moves, bits(&r.legal_moves(Color::Black)));
        prop_assert_eq!(b.pass().moves(), bits(&r.legal_moves(Color::White)));
        prop_assert_eq!(moves, movegen::moves_portable(p, o));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            let fast = unsafe { movegen::avx2::moves_avx2(p, o) };
            prop_assert_eq!(fast, movegen::moves_portable(p, o));
        }
        for sq in Square::ALL {
            let flips = b.flips(sq);
            prop_assert_eq!(flips, bits(&r.flips(sq, Color::Black)), "flips of {}", sq);
            prop_assert_eq!(flips != 0, moves & sq.bit() != 0, "legality of {}", sq);
            prop_assert_eq!(b.is_legal(sq), r.is_legal(sq, Color::Black));
            if b.empty() & sq.bit() != 0 {
                prop_assert_eq!(flip::flips(sq, p, o), flips);
                prop_assert_eq!(flip::flips_portable(sq, p, o), flips);
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the processor has AVX2 (checked just above).
                    let fast = unsafe { flip::avx2::flips_avx2(sq, p, o) };
                    prop_assert_eq!(fast, flips, "avx2 flips of {}", sq);
                }
                match b.try_play(sq) {
                    Ok(after) => {
                        let mut r2 = r.clone();
                        r2.make_move(sq, Color::Black);
                        r2.set_to_move(Color::White);
                        prop_assert_eq!(after, r2.to_board());
                    }
                    Err(IllegalMove::NoFlips(_)) => prop_assert!(moves != 0 && flips == 0),
                    Err(IllegalMove::MustPass) => prop_assert!(moves == 0),
                    Err(e) => prop_assert!(false, "unexpected {}", e),
                }
            } else {
                prop_assert_eq!(b.try_play(sq), Err(IllegalMove::Occupied(sq)));
            }
        }
        prop_assert_eq!(b.must_pass(), r.must_pass());
        prop_assert_eq!(b.is_game_over(), r.is_game_over());
        prop_assert_eq!(b.final_score(), r.final_score(Color::Black));
        prop_assert_eq!(b.pass().final_score(), r.final_score(Color::White));
        prop_assert_eq!(reference::compare(&Position { board: b, side: Color::Black }, &r), Ok(()));
    }

    /// The eight symmetries commute with move generation and flips on arbitrary boards.
    #[test]
    fn symmetries_commute_on_arbitrary_boards((p, o) in disjoint_pair()) {
        let b = Board::new(p, o).expect("disjoint");
        for sym in 0..8 {
            let s = b.symmetry(sym);
            prop_assert_eq!(s.moves(), symmetry(b.moves(), sym), "sym {}", sym);
            for sq in squares(b.empty()) {
                prop_assert_eq!(
                    s.flips(symmetry_square(sq, sym)),
                    symmetry(b.flips(sq), sym),
                    "sym {} square {}", sym, sq
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Along random games: for every symmetry and every legal move, moving on the transformed
    /// board is the same as transforming the board after the move.
    #[test]
    fn symmetries_commute_with_play(choices in choices()) {
        for b in playout(&choices) {
            for sym in 0..8 {
                let s = b.symmetry(sym);
                prop_assert_eq!(s.moves(), symmetry(b.moves(), sym));
                prop_assert_eq!(s.must_pass(), b.must_pass());
                prop_assert_eq!(s.final_score(), b.final_score());
                for sq in b.legal_moves() {
                    let ssq = symmetry_square(sq, sym);
                    prop_assert_eq!(s.flips(ssq), symmetry(b.flips(sq), sym));
                    prop_assert_eq!(s.play(ssq), b.play(sq).symmetry(sym), "sym {} move {}", sym, sq);
                }
            }
        }
    }

    /// Along random games (passes included), the incrementally updated Zobrist hash equals the
    /// hash recomputed from scratch at every ply.
    #[test]
    fn incremental_hash_matches_recomputed(choices in choices()) {
        let mut b = Board::start();
        let mut h = hash::hash(&b);
        let mut choices = choices.into_iter();
        while !b.is_game_over() {
            if b.must_pass() {
                h = hash::hash_after_pass(h);
                b = b.pass();
            } else {
                let Some(c) = choices.next() else { break };
                let moves = list(b.moves());
                let sq = moves[c % moves.len()];
                let flips = b.flips(sq);
                h = hash::hash_after_move(h, sq, flips);
                b = b.play_with_flips(sq, flips);
            }
            prop_assert_eq!(h, hash::hash(&b), "at {:?}", b);
            prop_assert_eq!(hash::hash_bits(b.player(), b.opponent()), h);
        }
    }
}
