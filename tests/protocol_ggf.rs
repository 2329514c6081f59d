//! The GGF reader and writer (`othello::game`): games as NBoard and GGS write them, move
//! records, results, clocks against recorded times, errors; and round trips: any game the
//! writer produces reads back equal, and any text the reader accepts writes back to text that
//! reads the same (property tests over random legal games with random metadata, evals, times
//! and clocks).

use std::time::Duration;

use othello::board::{Color, Move, Position};
use othello::clock::TimeControl;
use othello::game::{Game, GameEnd, GameMoveError, GameResult, GgfError, MoveRecord};
use othello::square::Square;
use proptest::prelude::*;

/// Text without `]`, which GGF cannot carry inside a tag.
fn tag_text() -> impl Strategy<Value = String> {
    "[^\\]]{0,12}"
}

/// Seconds: whole, fractional, tiny and large.
fn seconds() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0u32..100_000).prop_map(f64::from),
        (0.0f64..1e9),
        (0u32..1000).prop_map(|n| f64::from(n) / 8.0),
        Just(1e-7),
    ]
}

fn clock() -> impl Strategy<Value = Option<TimeControl>> {
    proptest::option::of(
        (seconds(), seconds(), prop_oneof![Just(120.0), seconds()]).prop_map(
            |(initial, increment, grace)| TimeControl {
                initial,
                increment,
                grace,
            },
        ),
    )
}

fn eval() -> impl Strategy<Value = Option<f64>> {
    proptest::option::of(prop_oneof![
        (-6400i32..=6400).prop_map(|c| f64::from(c) / 100.0),
        (-1e300f64..1e300),
    ])
}

fn result() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::Unfinished),
        (
            -128i32..=128,
            prop_oneof![
                Just(GameEnd::Normal),
                Just(GameEnd::Resignation),
                Just(GameEnd::Timeout)
            ]
        )
            .prop_map(|(half, end)| GameResult::Finished {
                black_margin: f64::from(half) / 2.0,
                end,
            }),
    ]
}

/// A random legal game: a start reached by `opening` (each index picks among the legal moves),
/// then moves picked by `plies` with evals and times; passes are played where forced.
#[allow(clippy::too_many_arguments)]
fn build(
    opening: &[usize],
    plies: &[(usize, Option<f64>, Option<f64>)],
    names: (String, String, String, String),
    clocks: (Option<TimeControl>, Option<TimeControl>),
    result: GameResult,
    game_type: String,
) -> Game {
    let mut start = Position::start();
    for &i in opening {
        let moves: Vec<_> = start.board.legal_moves().collect();
        if start.board.is_game_over() {
            break;
        }
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Place(moves[i % moves.len()])
        };
        start = start.try_play(mv).unwrap();
    }
    let mut game = Game::new(start);
    (game.place, game.date, game.black_name, game.white_name) = names;
    (game.black_clock, game.white_clock) = clocks;
    game.result = result;
    game.game_type = game_type;
    for &(i, eval, seconds) in plies {
        let board = game.position().board;
        if board.is_game_over() {
            break;
        }
        let moves: Vec<_> = board.legal_moves().collect();
        let mv = if moves.is_empty() {
            Move::Pass
        } else {
            Move::Place(moves[i % moves.len()])
        };
        game.push(MoveRecord { mv, eval, seconds }).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn written_games_read_back_equal(
        opening in proptest::collection::vec(0usize..64, 0..30),
        plies in proptest::collection::vec((0usize..64, eval(), proptest::option::of(seconds())), 0..70),
        names in (tag_text(), tag_text(), tag_text(), tag_text()),
        clocks in (clock(), clock()),
        result in result(),
        game_type in prop_oneof![Just("8".to_string()), tag_text()],
    ) {
        let game = build(&opening, &plies, names, clocks, result, game_type);
        let text = game.to_string();
        let again: Game = text.parse().map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!(&again, &game, "{}", text);
        prop_assert_eq!(again.to_string(), text);
    }

    #[test]
    fn accepted_text_is_stable(text in "[(;)\\[\\]A-Z0-9*O./: -]{0,80}") {
        // Mostly errors; whatever is accepted must be stable.
        if let Ok(game) = text.parse::<Game>() {
            let written = game.to_string();
            let again: Game = written.parse().unwrap();
            prop_assert_eq!(&again, &game);
            prop_assert_eq!(again.to_string(), written);
        }
    }
}

#[test]
fn games_as_nboard_and_ggs_write_them() {
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    // NBoard with a German locale: decimal commas in evals; Java's exponent in a tiny time.
    let nboard = format!(
        "(;GM[Othello]PC[NBoard]DT[2024-01-01 10:00:00 GMT]PB[me]PW[othello]RE[?]TI[5:00//2:00]TY[8]{start}B[F5/0,50/1,5]W[D6/-0,25/1.0E-4];)"
    );
    let game: Game = nboard.parse().unwrap();
    assert_eq!(game.moves()[0].eval, Some(0.5));
    assert_eq!(game.moves()[1].seconds, Some(1e-4));
    assert_eq!(game.remaining_seconds(Color::Black), Some(300.0 - 1.5));
    assert!(game
        .to_string()
        .ends_with("B[F5/0.5/1.5]W[D6/-0.25/0.0001];)"));
    // A GGS file line: match count, ratings, komi, a synchro type, result with a suffix.
    let ggs = format!(
        "1 (;GM[Othello]PC[GGS/os]DT[1999.01.01_00:00:00.CET]PB[a]PW[b]RB[2000.0]RW[1900.5]TI[15:00//02:00]TY[s8]RE[+64.000:r]{start}B[d3//0.01]W[c5/-1.00/2.5]B[b6]W[PASS]\n;)"
    );
    let err = ggs.parse::<Game>().unwrap_err();
    // W[PASS] while White can move is illegal, and said so with the move number.
    assert!(err.to_string().starts_with("move 4:"), "{err}");
    let ggs = ggs.replace("W[PASS]", "");
    let game: Game = ggs.parse().unwrap();
    assert_eq!(game.game_type, "s8");
    assert_eq!(game.moves().len(), 3);
    assert_eq!(
        game.result,
        GameResult::Finished {
            black_margin: 64.0,
            end: GameEnd::Resignation
        }
    );
}

// ---- Examples: what is read, what is written, what is refused. ----

/// The example game of the NBoard protocol notes.
const NBOARD_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// White to move with no move, Black can take h8.
fn white_must_pass() -> String {
    format!("{}O- O", "*".repeat(62))
}

fn round_trips(game: &Game) {
    let text = game.to_string();
    let again: Game = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(&again, game, "{text}");
    assert_eq!(again.to_string(), text);
}

#[test]
fn reads_the_nboard_example() {
    let g: Game = NBOARD_EXAMPLE.parse().unwrap();
    assert_eq!(g.place, "NBoard");
    assert_eq!(g.date, "2014-02-21 20:52:27 GMT");
    assert_eq!(
        (g.black_name.as_str(), g.white_name.as_str()),
        ("./mEdax", "chris")
    );
    assert_eq!(g.result, GameResult::Unfinished);
    assert_eq!(g.black_clock, Some(TimeControl::new(900.0)));
    assert_eq!(g.white_clock, g.black_clock);
    assert_eq!(g.start(), Position::start());
    assert_eq!(g.moves().len(), 8);
    assert_eq!(g.moves()[7].mv, Move::Place(Square::F4));
    assert_eq!(g.position().side, Color::Black);
    assert_eq!(g.positions().len(), 9);
    // Our writer reproduces NBoard's own text.
    assert_eq!(g.to_string(), NBOARD_EXAMPLE);
    round_trips(&g);
}

#[test]
fn move_records_in_every_form() {
    let r = |s: &str| s.parse::<MoveRecord>().unwrap();
    let f5 = Move::Place(Square::F5);
    assert_eq!(r("F5"), MoveRecord::new(f5));
    assert_eq!(r("f5"), MoveRecord::new(f5));
    assert_eq!(r("F5/1.00").eval, Some(1.0));
    assert_eq!(
        r("F5/-1.50/2.5"),
        MoveRecord {
            mv: f5,
            eval: Some(-1.5),
            seconds: Some(2.5)
        }
    );
    assert_eq!(
        r("F5//2.5"),
        MoveRecord {
            mv: f5,
            eval: None,
            seconds: Some(2.5)
        }
    );
    assert_eq!(r("PA").mv, Move::Pass);
    assert_eq!(r("pa//0").seconds, Some(0.0));
    assert_eq!(r("F5//2.5").to_string(), "F5//2.5");
    assert_eq!(
        r("F5/0,50/1,5"),
        MoveRecord {
            mv: f5,
            eval: Some(0.5),
            seconds: Some(1.5)
        }
    );
    assert_eq!(r("F5/0.5/1.0E-4").seconds, Some(1e-4));
    assert_eq!(r("f5/1.00/3").to_string(), "F5/1/3");
    for bad in [
        "", "Z9", "F5/x", "F5/1/-2", "F5/1/2/3", "F5/nan", "F5//inf", "F5/1e400",
    ] {
        assert!(bad.parse::<MoveRecord>().is_err(), "{bad}");
    }
}

#[test]
fn game_clock_counts_only_the_movers_times() {
    let text = "(;GM[Othello]TB[1:00]TW[2:00/5]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//20]B[E6//1.5];)";
    let g: Game = text.parse().unwrap();
    assert_eq!(g.remaining_seconds(Color::Black), Some(60.0 - 11.5));
    assert_eq!(g.remaining_seconds(Color::White), Some(120.0 - 20.0 + 5.0));
    let clock = g.clock().unwrap();
    assert_eq!(clock.remaining, Duration::from_secs(105));
    assert_eq!(clock.increment, Duration::from_secs(5));
    round_trips(&g);
    // TI[0] is untimed.
    let untimed: Game = "(;GM[Othello]TI[0];)".parse().unwrap();
    assert_eq!(untimed.clock(), None);
}

#[test]
fn reads_any_start_position_and_alternative_letters() {
    let text = format!(
        "2 (;GM[othello]BO[8 {} x]B[h8];)",
        "xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxxxx xxxxxx0_"
    );
    let g: Game = text.parse().unwrap();
    assert_eq!(g.start().side, Color::Black);
    assert!(g.position().board.is_game_over());
    round_trips(&g);
}

#[test]
fn passes_are_explicit_and_missing_ones_are_inserted() {
    let bo = format!("BO[8 {}]", white_must_pass());
    let explicit: Game = format!("(;{bo}W[PA]B[H8];)").parse().unwrap();
    assert_eq!(explicit.moves().len(), 2);
    let implicit: Game = format!("(;{bo}B[H8];)").parse().unwrap();
    assert_eq!(implicit, explicit);
    assert!(implicit.to_string().contains("W[PA]B[H8]"));
    round_trips(&implicit);
}

#[test]
fn results_and_unknown_tags() {
    let g: Game =
        "1 (;GM[Othello]PC[GGS/os]RE[+12.00:r]CO[nice]KM[0]XX[1]BO[8 ---------------------------O*------*O--------------------------- *];)"
            .parse()
            .unwrap();
    assert_eq!(
        g.result,
        GameResult::Finished {
            black_margin: 12.0,
            end: GameEnd::Resignation
        }
    );
    assert_eq!(g.to_string(), "(;GM[Othello]PC[GGS/os]PB[]PW[]RE[12:r]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    round_trips(&g);
}

#[test]
fn errors_say_what_is_wrong() {
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let err = |s: String| s.parse::<Game>().unwrap_err();
    assert_eq!(err(String::new()), GgfError::MissingStart);
    assert_eq!(err(format!("(;{start}")), GgfError::Unterminated);
    assert_eq!(
        err(format!("(;{start};) x")),
        GgfError::Trailing("x".into())
    );
    assert!(matches!(
        err("(;GM[Chess];)".into()),
        GgfError::NotOthello(_)
    ));
    assert!(matches!(
        err(format!("(;{start}B[A1];)")),
        GgfError::Illegal { number: 1, .. }
    ));
    assert!(matches!(
        err(format!("(;{start}W[F5];)")),
        GgfError::WrongColor { number: 1, .. }
    ));
    assert!(matches!(
        err(format!("(;{start}B[F5]W[Q9];)")),
        GgfError::BadMove { number: 2, .. }
    ));
    assert!(matches!(
        err("(;BO[10 -];)".into()),
        GgfError::BadBoard { .. }
    ));
    assert!(matches!(
        err("(;BO[8 ---];)".into()),
        GgfError::BadBoard { .. }
    ));
    assert!(matches!(
        err("(;TI[soon];)".into()),
        GgfError::BadClock { tag: "TI", .. }
    ));
    assert!(matches!(err("(;RE[won];)".into()), GgfError::BadResult(_)));
    assert!(matches!(err("(;B C[1];)".into()), GgfError::BadTag(_)));
    // A pass in a finished game is illegal.
    let full = format!("(;BO[8 {} *]B[PA];)", "*".repeat(64));
    assert!(matches!(
        err(full),
        GgfError::Illegal {
            number: 1,
            source: GameMoveError::GameOver(_)
        }
    ));
}

#[test]
fn push_refuses_illegal_moves_and_keeps_the_game() {
    let mut g = Game::default();
    let before = g.clone();
    assert!(g.push(MoveRecord::new(Move::Place(Square::A1))).is_err());
    assert!(g.push(MoveRecord::new(Move::Pass)).is_err());
    assert_eq!(g, before);
    g.push("F5/0.5/1".parse().unwrap()).unwrap();
    assert_eq!(g.position().side, Color::White);
    round_trips(&g);
}

#[test]
#[allow(clippy::field_reassign_with_default)]
fn writer_drops_brackets_from_names() {
    let mut g = Game::default();
    g.black_name = "a]b".into();
    assert!(g.to_string().contains("PB[ab]"));
}
