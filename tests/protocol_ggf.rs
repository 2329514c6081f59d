//! GGF round trips: any game the writer produces reads back equal, and any text the reader
//! accepts writes back to text that reads the same (property tests over random legal games
//! with random metadata, evals, times and clocks), plus games as NBoard and GGS write them.

use othello::board::{Move, Position};
use othello::game::{Game, GameEnd, GameResult, MoveRecord, TimeControl};
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
    assert_eq!(
        game.remaining_seconds(othello::Color::Black),
        Some(300.0 - 1.5)
    );
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
