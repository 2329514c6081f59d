//! Tests of the engine's move policy and pondering.

use super::*;
use crate::board::Position;
use crate::square::Square;

fn engine(book: BookChoice) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 1,
        book,
        ..EngineOptions::default()
    })
    .unwrap()
}

/// A game from the start, first legal moves played until the side to move has `count` moves.
fn game_with_moves(count: u32) -> Game {
    let mut game = Game::default();
    loop {
        let moves = game.position().board.moves();
        assert!(!game.position().board.is_game_over());
        if moves.count_ones() == count {
            return game;
        }
        let mv =
            Square::from_index(moves.trailing_zeros() as usize).map_or(Move::Pass, Move::Place);
        game.push(MoveRecord::new(mv)).unwrap();
    }
}

#[test]
fn a_forced_move_is_played_at_once_even_with_a_long_time_per_move() {
    let mut e = engine(BookChoice::Off);
    let game = game_with_moves(1);
    let only = game.position().board.moves();
    e.set_game(game);
    let d = e
        .choose(None, Some(Duration::from_secs(5)), &mut ())
        .unwrap();
    assert_eq!(d.source, Source::Forced);
    assert!(matches!(d.mv, Move::Place(sq) if sq.bit() == only));
    assert!(d.elapsed < Duration::from_secs(1), "{:?}", d.elapsed);
    assert!(d.eval.is_some());
}

#[test]
fn a_pass_a_book_move_and_a_finished_game() {
    // The book knows the start position.
    let mut e = engine(BookChoice::Default);
    let d = e.choose(None, None, &mut ()).unwrap();
    assert_eq!(d.source, Source::Book);
    assert!(matches!(d.mv, Move::Place(sq) if Board::start().is_legal(sq)));
    // White (O on b1, c1) must pass: nothing to flank beyond a1; Black has d1.
    let must_pass: Position = format!("XOO{} O", "-".repeat(61)).parse().unwrap();
    assert_eq!(must_pass.board.moves(), 0);
    assert!(!must_pass.board.is_game_over());
    e.set_game(Game::new(must_pass));
    let d = e.choose(None, None, &mut ()).unwrap();
    assert_eq!((d.mv, d.source, d.eval), (Move::Pass, Source::Pass, None));
    // Over: refused.
    let over: Position = format!("XX{} X", "-".repeat(62)).parse().unwrap();
    e.set_game(Game::new(over));
    assert_eq!(e.choose(None, None, &mut ()), Err(EngineError::GameOver));
}

#[test]
fn an_illegal_move_or_an_undo_at_the_start_changes_nothing() {
    let mut e = engine(BookChoice::Off);
    let before = e.game().clone();
    assert!(matches!(
        e.play(MoveRecord::new(Move::Place(Square::A1))),
        Err(EngineError::Move(_))
    ));
    assert_eq!(e.undo(), Err(EngineError::NothingToUndo));
    assert_eq!(e.game(), &before);
    e.play(MoveRecord::new(Move::Place(Square::F5))).unwrap();
    assert_eq!(e.undo().unwrap().mv, Move::Place(Square::F5));
    assert_eq!(e.game(), &before);
}

#[test]
fn pondering_runs_in_the_background_and_stops_at_once() {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 1,
        book: BookChoice::Off,
        ponder: true,
        ..EngineOptions::default()
    })
    .unwrap();
    e.set_depth(Some(6));
    let d = e.choose(None, None, &mut ()).unwrap();
    assert_eq!(d.source, Source::Search);
    assert!(e.start_pondering(), "the search expects a reply");
    std::thread::sleep(Duration::from_millis(50));
    let t0 = Instant::now();
    assert!(e.stop_pondering());
    assert!(t0.elapsed() < Duration::from_secs(2));
    assert!(!e.stopped(), "the stop flag is lowered again");
    // Another game: a miss, nothing is searched.
    e.set_game(game_with_moves(1));
    assert!(!e.start_pondering());
    // The searcher is free: a search runs.
    e.set_game(Game::default());
    assert!(e.choose(None, None, &mut ()).is_ok());
}

#[test]
fn a_hint_of_every_move_in_the_endgame_gives_each_moves_exact_value() {
    // A 14-empty position from random play with several moves.
    let mut rng = crate::rng::SplitMix64::new(11);
    let mut position = Position::start();
    while position.board.empty_count() > 14 || position.board.moves().count_ones() < 3 {
        assert!(!position.board.is_game_over());
        let moves: Vec<Square> = position.board.legal_moves().collect();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Place(moves[rng.below_u32(moves.len())])
        };
        position = position.try_play(mv).unwrap();
    }
    let board = position.board;
    let mut e = engine(BookChoice::Off);
    e.set_game(Game::new(position));
    let mut lines: Vec<SearchResult> = Vec::new();
    let Hint::Searched { nodes } = e.hint(64, &mut lines) else {
        panic!("not searched")
    };
    assert!(nodes > 0);
    assert_eq!(lines.len(), board.moves().count_ones() as usize);
    assert!(lines
        .windows(2)
        .all(|w| w[0].value.centi() >= w[1].value.centi()));
    for line in &lines {
        let Move::Place(sq) = line.best else {
            panic!("{line:?}")
        };
        // Each move's value from a fresh solve of the position after it.
        let child = board.play(sq);
        let mut fresh = Searcher::new(EngineEval::default(), 1);
        let want = if child.moves() == 0 && !child.is_game_over() {
            fresh.solve(&child.pass(), false, &mut ()).value
        } else {
            fresh.solve(&child, false, &mut ()).value.negate()
        };
        assert_eq!(line.value, want, "{sq}");
        assert_eq!(line.pv.first(), Some(&line.best));
    }
}
