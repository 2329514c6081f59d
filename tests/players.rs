//! Players end to end: every spec plays legal games and PAIP's ordering of strategies holds.
//! (The terminal play loop's tests are with it, in the binary: `src/cli/play/tests.rs`.)

use std::time::Duration;

use othello::arena::{play_game, Clocks, GameSetup, Opening, Termination};
use othello::board::Color;
use othello::game::{Game, GameEnd, GameResult};
use othello::players::{Player, PlayerSpec};

fn build(s: &str) -> Box<dyn Player> {
    s.parse::<PlayerSpec>()
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .build()
        .unwrap()
}

fn setup(seed: u64) -> GameSetup {
    GameSetup {
        opening: othello::arena::openings::random_opening(6, seed),
        clocks: Clocks::default(),
        depth: None,
        move_timeout: Duration::from_secs(60),
        seed,
        place: "test".into(),
    }
}

#[test]
fn every_kind_of_player_finishes_legal_games() {
    for spec in [
        "random",
        "maximizer:count",
        "maximizer:weighted",
        "maximizer:modified",
        "maximizer:iago",
        "minimax:2:count",
        "alphabeta:3:weighted",
        "alphabeta2:3:modified",
        "alphabeta2:2:iago",
        "alphabeta3:3:weighted",
        "iago:2",
        "engine:depth=2",
        "engine:time=0.01",
    ] {
        let mut p = build(spec);
        let mut r = build("random");
        for (seed, p_black) in [(1, true), (2, false)] {
            let outcome = if p_black {
                play_game(p.as_mut(), r.as_mut(), &setup(seed))
            } else {
                play_game(r.as_mut(), p.as_mut(), &setup(seed))
            };
            assert_eq!(outcome.termination, Termination::Normal, "{spec}");
            let g = &outcome.game;
            assert!(g.position().board.is_game_over(), "{spec}: {g}");
            // The record replays (every move legal) and its result is the final score.
            let again: Game = g.to_string().parse().unwrap();
            assert_eq!(again.moves(), g.moves());
            let pos = g.position();
            let s = pos.board.final_score();
            let black = if pos.side == Color::Black { s } else { -s };
            assert_eq!(outcome.black_margin, black, "{spec}");
        }
    }
}

#[test]
fn paip_strategies_are_deterministic_and_iago_beats_random() {
    // Same position, same move, every time (no hidden state between games).
    let mut a = build("iago:3");
    let mut b = build("maximizer:modified");
    let first = play_game(a.as_mut(), b.as_mut(), &setup(9));
    let again = play_game(a.as_mut(), b.as_mut(), &setup(9));
    let mv = |g: &Game| g.moves().iter().map(|r| r.mv).collect::<Vec<_>>();
    assert_eq!(mv(&first.game), mv(&again.game));
    // PAIP's strongest strategy against its weakest.
    let mut wins = 0;
    let mut r = build("random");
    for seed in 0..6 {
        let o = play_game(a.as_mut(), r.as_mut(), &setup(seed));
        wins += (o.black_margin > 0) as u32;
        let o = play_game(r.as_mut(), a.as_mut(), &setup(seed));
        wins += (o.black_margin < 0) as u32;
    }
    assert!(wins >= 10, "iago:3 won only {wins} of 12 against random");
}

#[test]
fn in_process_players_lose_on_time_too() {
    // A 1 ms clock with no grace is too short even for a maximizer's whole game.
    let mut s = setup(3);
    s.clocks = Clocks::both(Some(othello::clock::TimeControl {
        initial: 0.000_001,
        increment: 0.0,
        grace: 0.0,
    }));
    let mut a = build("minimax:3:weighted");
    let mut b = build("random");
    let o = play_game(a.as_mut(), b.as_mut(), &s);
    assert!(
        matches!(o.termination, Termination::Time { .. }),
        "{:?}",
        o.termination
    );
    assert_eq!(o.black_margin.abs(), 64);
    assert!(matches!(
        o.game.result,
        GameResult::Finished {
            end: GameEnd::Timeout,
            ..
        }
    ));
}

#[test]
fn opening_positions_are_respected() {
    // A player started from an XOT position answers a legal move there.
    let line = othello::xot::openings().next().unwrap();
    let opening = Opening {
        name: line.to_string(),
        start: othello::Position::start(),
        moves: othello::xot::parse_moves(line).unwrap(),
    };
    let mut s = setup(1);
    s.opening = opening;
    let mut a = build("iago:2");
    let mut b = build("engine:depth=1");
    let o = play_game(a.as_mut(), b.as_mut(), &s);
    assert_eq!(o.termination, Termination::Normal);
    assert_eq!(
        o.game.moves()[..8]
            .iter()
            .map(|r| r.mv.to_string())
            .collect::<String>(),
        line
    );
}
