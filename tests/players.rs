//! Players end to end: every spec plays legal games, PAIP's ordering of strategies holds, and
//! the terminal play loop behaves as documented when fed scripted input.

use std::time::Duration;

use othello::arena::{play_game, GameSetup, Opening, Termination};
use othello::board::{Board, Color, Move};
use othello::game::{Game, GameEnd, GameResult};
use othello::play::{play, Command, PlayEnd, PlayOptions};
use othello::players::paip::{maximizer, PaipEval};
use othello::players::{Player, PlayerSpec};
use othello::search::Limits;
use othello::Square;

fn build(s: &str) -> Box<dyn Player> {
    s.parse::<PlayerSpec>()
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .build()
        .unwrap()
}

fn setup(seed: u64) -> GameSetup {
    GameSetup {
        opening: othello::arena::openings::random_opening(6, seed),
        clock: None,
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
    s.clock = Some(othello::game::TimeControl {
        initial: 0.000_001,
        increment: 0.0,
        grace: 0.0,
    });
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
fn commands_parse() {
    assert_eq!("F5".parse(), Ok(Command::Place(Square::F5)));
    assert_eq!(" f5 ".parse(), Ok(Command::Place(Square::F5)));
    assert_eq!("56".parse(), Ok(Command::Place(Square::F5)));
    assert_eq!("PASS".parse(), Ok(Command::Pass));
    assert_eq!("Undo".parse(), Ok(Command::Undo));
    assert_eq!("hint".parse(), Ok(Command::Hint));
    assert_eq!("resign".parse(), Ok(Command::Resign));
    assert_eq!("quit".parse(), Ok(Command::Quit));
    for bad in ["f9", "hello", "i1", "f55", "p"] {
        assert!(bad.parse::<Command>().is_err(), "{bad}");
    }
}

fn options(name: &str) -> PlayOptions {
    PlayOptions {
        ggf_path: std::env::temp_dir()
            .join(format!("othello-play-{}-{name}.ggf", std::process::id())),
        hint_limits: Limits {
            depth: Some(3),
            ..Limits::default()
        },
        ..PlayOptions::default()
    }
}

/// The whole game the person plays by always taking the first legal move (square order)
/// against `maximizer:count`: the script and the moves expected in the record.
fn scripted_game() -> (Vec<String>, Vec<Move>) {
    let mut board = Board::start();
    let mut black = true;
    let (mut script, mut moves) = (Vec::new(), Vec::new());
    while !board.is_game_over() {
        let mv = if black {
            let mv = board.legal_moves().next().map_or(Move::Pass, Move::Place);
            script.push(match mv {
                Move::Pass => "pass".to_string(),
                // Alternate cases: input is case-insensitive.
                Move::Place(sq) if moves.len() % 4 == 0 => sq.to_string().to_uppercase(),
                Move::Place(sq) => sq.to_string(),
            });
            mv
        } else {
            maximizer(&board, PaipEval::Count).map_or(Move::Pass, Move::Place)
        };
        board = board.try_play_move(mv).unwrap();
        moves.push(mv);
        black = !black;
    }
    (script, moves)
}

#[test]
fn a_scripted_game_is_played_to_the_end_and_saved() {
    let (script, expected) = scripted_game();
    // Bad inputs first: each is answered and changes nothing.
    let mut input = String::from("hello\na1\npass\nundo\n\nhint\n");
    for line in &script {
        input.push_str(line);
        input.push('\n');
    }
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let opts = options("full");
    let outcome = play(input.as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(outcome.end, PlayEnd::Finished, "{text}");
    let got: Vec<Move> = outcome.game.moves().iter().map(|r| r.mv).collect();
    assert_eq!(got, expected);
    assert!(
        text.contains("\"hello\" is not a move or a command"),
        "{text}"
    );
    assert!(
        text.contains("illegal move: A1 is illegal for Black: a1 flips no disc"),
        "{text}"
    );
    assert!(
        text.contains("you cannot pass: you can play d3 c4 f5 e6"),
        "{text}"
    );
    assert!(text.contains("nothing to undo"), "{text}");
    let hint = text.split("hint: ").nth(1).unwrap();
    let hinted: Move = hint.split_whitespace().next().unwrap().parse().unwrap();
    assert!(
        matches!(hinted, Move::Place(sq) if Board::start().is_legal(sq)),
        "{hint}"
    );
    // The PAIP board: coordinates, counts, clocks, legal moves marked.
    assert!(
        text.contains("    a b c d e f g h   [@=2 O=2 (+0)]"),
        "{text}"
    );
    assert!(text.contains("  4 . . + O @ . . . "), "{text}");
    assert!(text.contains("[@=0:00 used O=0:00 used]"), "{text}");
    assert!(text.contains("The game is over"), "{text}");
    let saved = std::fs::read_to_string(&outcome.path).unwrap();
    assert!(text.contains(&format!("Game saved to {}", outcome.path.display())));
    let game: Game = saved.trim().parse().unwrap();
    assert_eq!(game.moves().len(), expected.len());
    assert_eq!(game.result, outcome.game.result);
    assert_eq!(game.black_name, "human");
    assert_eq!(game.white_name, "maximizer:count");
    std::fs::remove_file(&outcome.path).ok();
}

#[test]
fn undo_takes_back_the_own_move_and_the_reply() {
    let mut out = Vec::new();
    let mut opponent = build("maximizer:count");
    let opts = options("undo");
    let input = "d3\nundo\nf5\nresign\n";
    let outcome = play(input.as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("undone: back to your move"), "{text}");
    assert_eq!(outcome.end, PlayEnd::Resigned);
    let moves: Vec<Move> = outcome.game.moves().iter().map(|r| r.mv).collect();
    assert_eq!(moves.len(), 2, "{text}");
    assert_eq!(moves[0], Move::Place(Square::F5));
    assert_eq!(outcome.game.result.to_string(), "-64:r");
    std::fs::remove_file(&outcome.path).ok();
}

#[test]
fn quitting_saves_an_unfinished_game_and_white_can_be_played() {
    let mut out = Vec::new();
    let mut opponent = build("maximizer:weighted");
    let opts = PlayOptions {
        human: Color::White,
        clock: Some(othello::game::TimeControl {
            initial: 600.0,
            increment: 0.0,
            grace: 0.1,
        }),
        ..options("quit")
    };
    let outcome = play("quit\n".as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(outcome.end, PlayEnd::Quit);
    // The opponent (Black) moved first; the clocks show time left.
    assert_eq!(outcome.game.moves().len(), 1);
    assert!(text.contains("[@=10:00 O=10:00]"), "{text}");
    assert!(text.contains("O (White, you) to move"), "{text}");
    let saved: Game = std::fs::read_to_string(&outcome.path)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(saved.result, GameResult::Unfinished);
    std::fs::remove_file(&outcome.path).ok();
    // End of input is a quit too.
    let mut out = Vec::new();
    let opts = options("eof");
    let outcome = play("".as_bytes(), &mut out, opponent.as_mut(), &opts).unwrap();
    assert_eq!(outcome.end, PlayEnd::Quit);
    std::fs::remove_file(&outcome.path).ok();
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
