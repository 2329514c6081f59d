//! Whole NBoard sessions replayed through the protocol loop in-process.
//!
//! `run_sync` reads on the test's thread, so every command runs to completion and the output is
//! deterministic: these tests assert exact lines where the engine's choice does not matter
//! (pongs, passes, errors, solved values) and legality where it does. The interruption tests at
//! the end use the threaded loop (`run`) fed through a channel, as a GUI feeds a pipe.

use std::io::{self, BufRead, Cursor, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use othello::board::{Board, Move, Position};
use othello::book::BookChoice;
use othello::eval::HandEval;
use othello::game::{Game, MoveRecord};
use othello::protocol::{run, run_sync, EngineOptions};
use othello::search::{Searcher, Value};

/// The engine's options in these tests: a small table, and no opening book, so that `go`
/// and `hint` search (the book has its own tests in tests/book.rs).
fn options() -> EngineOptions {
    EngineOptions {
        hash_mb: 1,
        book: BookChoice::Off,
        ..EngineOptions::default()
    }
}

/// Runs `input` through the synchronous loop and returns the output lines.
fn session(input: impl AsRef<[u8]>) -> Vec<String> {
    let mut out = Vec::new();
    run_sync(Cursor::new(input.as_ref().to_vec()), &mut out, options()).unwrap();
    String::from_utf8(out)
        .expect("output is UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The BO value of a position.
fn bo(position: &Position) -> String {
    let (black, white) = position.black_white();
    let squares: String = (0..64)
        .map(|i| {
            if black >> i & 1 != 0 {
                '*'
            } else if white >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let side = if position.side == othello::Color::Black {
        '*'
    } else {
        'O'
    };
    format!("8 {squares} {side}")
}

/// White to move with no move; Black can still take h8.
fn white_must_pass() -> Position {
    format!("{}O- O", "X".repeat(62)).parse().unwrap()
}

/// A game played from the start by always taking the first legal move, until `empties` are left
/// and the side to move has a move.
fn game_with_empties(empties: u32) -> Game {
    let mut game = Game::default();
    loop {
        let board = game.position().board;
        if board.empty_count() <= empties && board.moves() != 0 {
            return game;
        }
        let mv = board.legal_moves().next().map_or(Move::Pass, Move::Place);
        game.push(MoveRecord::new(mv)).unwrap();
    }
}

/// The move of a `=== ` line.
fn best_move(line: &str) -> Move {
    let text = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("not a move: {line}"));
    text.split('/').next().unwrap().parse().unwrap()
}

fn search_lines(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("search ")).collect()
}

/// The fields of a `search` line: pv, eval, depth.
fn search_fields(line: &str) -> (String, f64, String) {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 5, "{line}");
    assert_eq!((f[0], f[3]), ("search", "0"), "{line}");
    (f[1].to_string(), f[2].parse().unwrap(), f[4].to_string())
}

#[test]
fn pong_follows_the_work_asked_before_it() {
    let out = session("nboard 2\nset depth 4\nping 1\ngo\nping 2\n");
    assert_eq!(out[..2], ["set myname othello4", "pong 1"]);
    assert_eq!(out[2], "status thinking");
    assert!(out[3].starts_with("nodestats "), "{out:?}");
    let mv = best_move(&out[4]);
    assert!(
        matches!(mv, Move::Place(sq) if Board::start().is_legal(sq)),
        "{out:?}"
    );
    assert_eq!(out[5..], ["pong 2"]);
}

#[test]
fn go_answers_pa_when_the_engine_must_pass_and_never_plays_its_move() {
    let game = format!("(;GM[Othello]TY[8]BO[{}];)", bo(&white_must_pass()));
    let out = session(format!(
        "nboard 2\nset game {game}\nping 1\ngo\ngo\nping 2\n"
    ));
    assert_eq!(out, ["pong 1", "=== PA", "=== PA", "pong 2"]);
    // After the GUI sends the pass back, Black's only move wins 64-0, found by a solve.
    let out = session(format!("set game {game}\nmove PA\ngo\nmove pa\n"));
    let last = out.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(last.starts_with("=== H8/64.00/"), "{out:?}");
    // `move pa` after Black's move is refused: Black's move was not played by `go`.
    assert!(
        out.last()
            .unwrap()
            .starts_with("status error: move refused"),
        "{out:?}"
    );
}

#[test]
fn bad_input_gets_one_status_line_each_and_changes_nothing() {
    let game = game_with_empties(40);
    let board = game.position().board;
    let illegal = othello::Square::ALL
        .into_iter()
        .find(|&sq| !board.is_legal(sq))
        .unwrap();
    let mut input = format!("set depth 3\nset game {game}\nset contempt 50\n").into_bytes();
    let bad: Vec<Vec<u8>> = vec![
        b"frobnicate 12".to_vec(),
        b"move".to_vec(),
        b"move Z9".to_vec(),
        format!("move {illegal}").into_bytes(),
        b"move PA".to_vec(),
        b"move F5/x".to_vec(),
        b"set game (;GM[Othello]B[A1];)".to_vec(),
        b"set game garbage".to_vec(),
        b"set depth deep".to_vec(),
        b"set depth 0".to_vec(),
        b"set contempt lots".to_vec(),
        b"set threads 0".to_vec(),
        b"set threads 257".to_vec(),
        b"set hash 99999999".to_vec(),
        b"set colour blue".to_vec(),
        b"hint x".to_vec(),
        b"ping".to_vec(),
        b"go now".to_vec(),
        b"setboard XO".to_vec(),
        b"perft -1".to_vec(),
        vec![b'x'; 1 << 20],
        b"pi\0ng 3".to_vec(),
        b"\xff\xfe\xfd".to_vec(),
    ];
    for line in &bad {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    input.extend_from_slice(b"print\nhint 1\nping 9\n");
    let out = session(input);
    assert_eq!(out[0], "set myname othello3");
    let errors = &out[1..1 + bad.len()];
    for (line, input) in errors.iter().zip(&bad) {
        let shown = String::from_utf8_lossy(&input[..input.len().min(20)]).into_owned();
        assert!(
            line.starts_with("status error: "),
            "{shown:?} gave {line:?}"
        );
        assert!(line.len() < 200, "{line}");
    }
    // The game, the depth and the engine are intact.
    let rest = &out[1 + bad.len()..];
    let board_line = format!("# board {}", game.position().to_board_string());
    assert!(rest.contains(&board_line), "{rest:?}");
    assert!(rest.contains(&format!("# game {game}")), "{rest:?}");
    let depths: Vec<String> = search_lines(rest)
        .iter()
        .map(|l| search_fields(l).2)
        .collect();
    assert_eq!(depths, ["1@58", "2@58", "3@58"]);
    assert_eq!(rest.last().unwrap(), "pong 9");
}

/// `set level N` plays at the level: its depth (here 2, at the start, far from its solve)
/// without the default time per move; `set level 0`, `61` and `x` are refused and change
/// nothing; an exact solve within the level's empties; `set depth` ends the level.
#[test]
fn set_level_sets_the_depth_and_bad_levels_change_nothing() {
    let out = session("set level 2\nset level 0\nset level 61\nset level x\nhint 1\nping 1\n");
    assert_eq!(out[0], "set myname othelloL2");
    for (line, bad) in out[1..4].iter().zip(["0", "61", "x"]) {
        assert!(
            line.starts_with("status error: set level: ") && line.contains(bad),
            "{line}"
        );
    }
    let depths: Vec<String> = search_lines(&out)
        .iter()
        .map(|l| search_fields(l).2)
        .collect();
    assert_eq!(depths, ["1@73", "2@73"], "{out:?}");
    assert_eq!(out.last().unwrap(), "pong 1");

    // At 12 empties: level 5 (exact from 10) searches the midgame to depth 5, level 6 (exact
    // from 12) solves, and `set depth 1` after level 6 ends it (depth 1 solves from 11).
    let game = game_with_empties(12);
    let depths = |commands: &str| -> Vec<String> {
        let out = session(format!("set game {game}\n{commands}\nhint 1\n"));
        search_lines(&out)
            .iter()
            .map(|l| search_fields(l).2)
            .collect()
    };
    assert_eq!(
        depths("set level 5"),
        ["1@73", "2@73", "3@73", "4@73", "5@73"]
    );
    assert_eq!(depths("set level 6").last().unwrap(), "100%");
    // Back to the selectivity the engine started with, the default 58%.
    assert_eq!(depths("set level 6\nset depth 1"), ["1@58"]);
}

#[test]
fn hint_prints_one_line_per_iteration_then_clears_the_status() {
    let out = session("set depth 5\nhint 1\n");
    assert_eq!(out[0], "set myname othello5");
    assert_eq!(out[1], "status analysing");
    let lines = search_lines(&out);
    assert_eq!(lines.len(), 5, "{out:?}");
    for (i, line) in lines.iter().enumerate() {
        let (pv, eval, depth) = search_fields(line);
        // Midgame searches prune at the default 58% level, and say so.
        assert_eq!(depth, format!("{}@58", i + 1));
        assert!(!pv.contains(' ') && pv.len() >= 2);
        assert!(
            pv.split('-').count() <= i + 1,
            "a PV longer than the depth: {line}"
        );
        let first: Move = pv[..2].parse().unwrap();
        assert!(
            matches!(first, Move::Place(sq) if Board::start().is_legal(sq)),
            "{line}"
        );
        assert!(eval.abs() <= 64.0);
        assert!(
            line.split(' ')
                .nth(2)
                .unwrap()
                .split('.')
                .nth(1)
                .unwrap()
                .len()
                == 2
        );
    }
    assert!(out[out.len() - 2].starts_with("nodestats "));
    assert_eq!(out.last().unwrap(), "status");
}

#[test]
fn set_selectivity_changes_the_depth_field_and_bad_values_change_nothing() {
    let depths = |input: &str| -> Vec<String> {
        search_lines(&session(input))
            .iter()
            .map(|l| search_fields(l).2)
            .collect()
    };
    assert_eq!(
        depths("set selectivity 100\nset depth 3\nhint 1\n"),
        ["1", "2", "3"]
    );
    assert_eq!(
        depths("set selectivity 95\nset depth 3\nhint 1\n"),
        ["1@95", "2@95", "3@95"]
    );
    // A bad value is refused with one status line, and the setting stays.
    let out = session("set selectivity 95\nset selectivity 50\nset depth 2\nhint 1\n");
    assert!(
        out.iter()
            .any(|l| l.starts_with("status error: set selectivity")),
        "{out:?}"
    );
    let lines: Vec<String> = search_lines(&out)
        .iter()
        .map(|l| search_fields(l).2)
        .collect();
    assert_eq!(lines, ["1@95", "2@95"]);
    // Full width and pruned searches of the same depth agree at shallow depths (no node of
    // depth 3 or more is pruned in a 2-ply search).
    let evals = |input: &str| -> Vec<String> {
        search_lines(&session(input))
            .iter()
            .map(|l| l.split(' ').nth(2).unwrap().to_string())
            .collect()
    };
    assert_eq!(
        evals("set selectivity 100\nset depth 2\nhint 1\n"),
        evals("set selectivity 73\nset depth 2\nhint 1\n")
    );
}

#[test]
fn hint_solves_the_endgame_and_says_100_percent() {
    let game = game_with_empties(12);
    let out = session(format!("set depth 4\nset game {game}\nhint 1\n"));
    let last = search_lines(&out)
        .last()
        .copied()
        .cloned()
        .expect("a search line");
    let (pv, eval, depth) = search_fields(&last);
    assert_eq!(depth, "100%", "{out:?}");
    let board = game.position().board;
    let want = Searcher::new(HandEval::new(), 1).solve(&board, false, &mut ());
    assert_eq!(Value::Exact(eval as i32), want.value, "{last}");
    // The PV is a legal line from the position, passes included.
    let mut b = board;
    for mv in pv.split('-') {
        b = b
            .try_play_move(mv.parse().unwrap())
            .unwrap_or_else(|e| panic!("{pv}: {e}"));
    }
}

#[test]
fn set_threads_runs_the_search_on_more_threads_with_the_same_exact_result() {
    let game = game_with_empties(14);
    let board = game.position().board;
    let want = Searcher::new(HandEval::new(), 1).solve(&board, false, &mut ());
    let out = session(format!(
        "set threads 3\nset depth 4\nset game {game}\nhint 1\ngo\n"
    ));
    let last = search_lines(&out)
        .last()
        .copied()
        .cloned()
        .expect("a search line");
    let (_, eval, depth) = search_fields(&last);
    assert_eq!(depth, "100%", "{out:?}");
    assert_eq!(Value::Exact(eval as i32), want.value, "{last}");
    let played = out.iter().find(|l| l.starts_with("=== ")).expect("a move");
    let Move::Place(sq) = best_move(played) else {
        panic!("{played}")
    };
    let after = board.play(sq);
    let value = -Searcher::new(HandEval::new(), 1)
        .solve(&after, false, &mut ())
        .value
        .discs();
    assert_eq!(
        Value::Exact(value as i32),
        want.value,
        "{played} is not a best move"
    );
}

#[test]
fn hint_in_a_must_pass_position_starts_with_pa() {
    let game = format!("(;GM[Othello]BO[{}];)", bo(&white_must_pass()));
    let out = session(format!("set game {game}\nhint 1\n"));
    let line = search_lines(&out).last().copied().cloned().unwrap();
    assert_eq!(line, "search PA-H8 -64.00 0 100%");
}

#[test]
fn multi_pv_hint_reports_each_line_at_every_depth_best_line_first() {
    // One search per line, the better lines excluded: each of the 4 opening moves appears once
    // per depth, its own iterations in order, and the lines' final values are best first.
    let out = session("set depth 3\nhint 4\n");
    let lines = search_lines(&out);
    assert_eq!(lines.len(), 12, "{out:?}");
    let fields: Vec<_> = lines.iter().map(|l| search_fields(l)).collect();
    let mut finals = Vec::new();
    for round in fields.chunks(3) {
        let first = &round[0].0[..2];
        assert!(round.iter().all(|f| &f.0[..2] == first), "{round:?}");
        let depths: Vec<&str> = round.iter().map(|f| f.2.as_str()).collect();
        assert_eq!(depths, ["1@58", "2@58", "3@58"]);
        finals.push((first.to_string(), round[2].1));
    }
    let mut moves: Vec<&str> = finals.iter().map(|f| f.0.as_str()).collect();
    moves.sort();
    assert_eq!(moves, ["C4", "D3", "E6", "F5"]);
    assert!(finals.windows(2).all(|w| w[0].1 >= w[1].1), "{finals:?}");
    let out = session("set depth 2\nhint 2\n");
    assert_eq!(search_lines(&out).len(), 4, "{out:?}");
}

#[test]
fn hint_64_in_the_endgame_gives_every_moves_exact_value() {
    let game = (12..=20)
        .map(game_with_empties)
        .find(|g| g.position().board.moves().count_ones() > 2)
        .expect("a position with a choice");
    let board = game.position().board;
    let out = session(format!("set game {game}\nhint 64\n"));
    let mut got: Vec<(String, i32)> = search_lines(&out)
        .iter()
        .map(|l| search_fields(l))
        .filter(|f| f.2 == "100%")
        .map(|f| (f.0[..2].to_uppercase(), f.1 as i32))
        .collect();
    let mut want: Vec<(String, i32)> = board
        .legal_moves()
        .map(|sq| {
            let child = board.play(sq);
            let v = Searcher::new(HandEval::new(), 1).solve(&child, false, &mut ());
            (
                Move::Place(sq).to_string().to_uppercase(),
                -(v.value.discs() as i32),
            )
        })
        .collect();
    assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "{got:?}");
    got.sort();
    want.sort();
    assert_eq!(got, want, "{out:?}");
}

#[test]
fn analyze_rates_every_position_for_its_side_to_move() {
    let game = format!("(;GM[Othello]BO[{}]W[PA]B[H8];)", bo(&white_must_pass()));
    let out = session(format!("set game {game}\nping 1\nanalyze\nping 2\n"));
    assert_eq!(
        out,
        [
            "pong 1",
            "status analysing the game",
            "analysis 2 -64.00",
            "analysis 1 64.00",
            "analysis 0 -64.00",
            "status",
            "pong 2"
        ]
    );
    let out = session(format!(
        "set depth 2\nset game {}\nanalyze\n",
        game_with_empties(50)
    ));
    let moves: Vec<usize> = out
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(moves, (0..=10).rev().collect::<Vec<_>>());
}

#[test]
fn analyze_gives_book_positions_the_book_value() {
    // The start and the positions after f5, f5d6 and f5d6c3 are all in the embedded book.
    let moves = ["f5", "d6", "c3"];
    let mut position = Position::start();
    let mut boards = vec![position.board];
    let mut game = String::from(
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    for (i, m) in moves.iter().enumerate() {
        position = position.try_play(Move::Place(m.parse().unwrap())).unwrap();
        boards.push(position.board);
        game.push_str(&format!(
            "{}[{}]",
            if i % 2 == 0 { "B" } else { "W" },
            m.to_uppercase()
        ));
    }
    game.push_str(";)");
    let book = othello::book::default_book();
    let input = format!("set book default\nset depth 4\nset game {game}\nanalyze\n");
    let mut out = Vec::new();
    run_sync(Cursor::new(input.into_bytes()), &mut out, options()).unwrap();
    let out: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    for (made, board) in boards.iter().enumerate() {
        let best = book.best(board).expect("a main line is in the book");
        assert!(!best.exact);
        let want = format!("analysis {made} {:.2}", f64::from(best.value) / 100.0);
        assert!(out.contains(&want), "{want} not in {out:?}");
    }
    // Without the book the start is searched: not the book's value (a depth-4 search of the
    // start is not its negamax of deep searches).
    let input = format!("set depth 4\nset game {game}\nanalyze\n");
    let mut out = Vec::new();
    run_sync(Cursor::new(input.into_bytes()), &mut out, options()).unwrap();
    let text = String::from_utf8(out).unwrap();
    let start = book.best(&boards[0]).unwrap();
    let book_line = format!("analysis 0 {:.2}", f64::from(start.value) / 100.0);
    assert!(
        text.contains("analysis 0 ") && !text.contains(&book_line),
        "{text}"
    );
}

#[test]
fn go_spends_what_the_game_clock_allows() {
    // Black has used 59.8 s of a minute: the answer must come well within the 0.2 s left.
    let game = "(;GM[Othello]TB[1:00]TW[1:00]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//59.8]W[F6//1];)";
    let start = Instant::now();
    let out = session(format!("set game {game}\ngo\n"));
    assert!(
        start.elapsed() < Duration::from_millis(200),
        "{:?}",
        start.elapsed()
    );
    let line = out.iter().find(|l| l.starts_with("=== ")).unwrap();
    let seconds: f64 = line.rsplit('/').next().unwrap().parse().unwrap();
    assert!(seconds < 0.2, "{line}");
    // A two-second game from the start: a small share of it.
    let start = Instant::now();
    session("set game (;GM[Othello]TI[0:02];)\ngo\n");
    assert!(
        start.elapsed() < Duration::from_millis(600),
        "{:?}",
        start.elapsed()
    );
}

/// `set book FILE` for a new book whose directory does not exist is refused at once (its
/// first save, at `learn`, could never succeed), and the book in use is kept.
#[test]
fn set_book_in_a_missing_directory_is_refused_at_once() {
    let out = session("set book /nonexistent-othello-dir/x.book\n");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("status error:"), "{out:?}");
    assert!(out[0].contains("/nonexistent-othello-dir"), "{out:?}");
    assert!(out[0].contains("does not exist"), "{out:?}");
    // A new book in an existing directory is accepted (nothing printed).
    let path = std::env::temp_dir().join(format!("othello-new-{}.book", std::process::id()));
    let _ = std::fs::remove_file(&path);
    assert!(session(format!("set book {}\n", path.display())).is_empty());
}

#[test]
fn learn_quit_eof_and_extensions() {
    assert_eq!(
        session("learn\n"),
        ["status error: learn: the book is off (set book on)"]
    );
    // With the built-in book, the start position is already there: nothing to search.
    let mut out = Vec::new();
    let with_book = EngineOptions {
        book: BookChoice::Default,
        ..options()
    };
    run_sync(Cursor::new(b"learn\n".to_vec()), &mut out, with_book).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "status learning\nlearned\n"
    );
    assert_eq!(session("quit\nping 1\n"), Vec::<String>::new());
    assert_eq!(
        session("ping 1"),
        ["pong 1"],
        "a last line without a newline counts"
    );
    assert_eq!(session("set threads 1\nset hash 2\nping 1\n"), ["pong 1"]);
    assert_eq!(
        session("perft 5\n")[0]
            .split(' ')
            .take(4)
            .collect::<Vec<_>>(),
        ["#", "perft", "5", "leaves"]
    );
    assert!(session("perft 5\n")[0].contains(" leaves 1396 "));
    let out = session(
        "setboard ---------------------------OX------XO--------------------------- O\nprint\n",
    );
    assert!(
        out.iter()
            .any(|l| l
                == "# board ---------------------------OX------XO--------------------------- O")
    );
    let keywords = [
        "===",
        "search",
        "book",
        "pong",
        "status",
        "set",
        "nodestats",
        "analysis",
        "learned",
    ];
    let out = session("print\nhelp\neval\nperft 3\n");
    assert!(!out.is_empty());
    for line in &out {
        assert!(line.starts_with("# ") || line == "#", "{line}");
        assert!(!keywords.iter().any(|k| line.starts_with(k)));
    }
}

#[test]
fn output_never_uses_exponents_or_nan() {
    let game = game_with_empties(14);
    let out = session(format!(
        "set depth 3\nhint 3\ngo\nset game {game}\nhint 1\nanalyze\ngo\n"
    ));
    // Plain decimals with a fixed number of places.
    let fixed = |s: &str, places: usize| {
        let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
        let whole = whole.strip_prefix('-').unwrap_or(whole);
        !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && frac.len() == places
            && frac.bytes().all(|b| b.is_ascii_digit())
    };
    let mut checked = 0;
    for line in &out {
        let f: Vec<&str> = line.split([' ', '/']).collect();
        match f[0] {
            "===" => assert!(fixed(f[2], 2) && fixed(f[3], 3), "{line}"),
            "search" | "analysis" => assert!(fixed(f[2], 2), "{line}"),
            "nodestats" => assert!(fixed(f[2], 3), "{line}"),
            _ => continue,
        }
        checked += 1;
    }
    assert!(checked > 10, "{out:?}");
}

// ---- The threaded loop, fed through a channel as a GUI feeds a pipe. ----

/// A `BufRead` that blocks until the test sends the next chunk; EOF when the sender is dropped.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(out.len());
            out[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(chunk) => (self.buf, self.pos) = (chunk, 0),
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos += amount;
    }
}

/// A `Write` that hands each complete line to the test.
struct LineWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(data);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line[..i]).into_owned();
            let _ = self.tx.send(text);
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Gui {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    engine: thread::JoinHandle<io::Result<()>>,
}

impl Gui {
    fn start() -> Gui {
        let (in_tx, in_rx) = mpsc::channel();
        let (out_tx, out_rx) = mpsc::channel();
        let reader = ChannelReader {
            rx: in_rx,
            buf: Vec::new(),
            pos: 0,
        };
        let writer = LineWriter {
            tx: out_tx,
            partial: Vec::new(),
        };
        let engine = thread::spawn(move || run(reader, writer, options()));
        Gui {
            input: Some(in_tx),
            output: out_rx,
            engine,
        }
    }

    fn send(&self, text: &str) {
        self.input
            .as_ref()
            .unwrap()
            .send(text.as_bytes().to_vec())
            .unwrap();
    }

    /// Lines up to and including the first that satisfies `last`, within `timeout`.
    fn until(&self, timeout: Duration, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(line) => {
                    let done = last(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; got {lines:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine ended; got {lines:?}"),
            }
        }
    }
}

#[test]
fn a_new_line_stops_an_endless_hint_and_nothing_stale_follows_the_pong() {
    let gui = Gui::start();
    gui.send("nboard 2\nset depth 60\nping 1\nhint 1\n");
    gui.until(Duration::from_secs(5), |l| l.starts_with("search "));
    let asked = Instant::now();
    gui.send("move F5\nping 2\n");
    let before_pong = gui.until(Duration::from_secs(1), |l| l == "pong 2");
    assert!(asked.elapsed() < Duration::from_secs(1));
    assert!(
        before_pong.iter().all(|l| !l.starts_with("===")),
        "{before_pong:?}"
    );
    // Whatever comes next must be the answer to the next ping: nothing about the old position.
    gui.send("ping 3\n");
    assert_eq!(gui.until(Duration::from_secs(1), |_| true), ["pong 3"]);
    // The move was recorded: White is to move.
    gui.send("print\nping 4\n");
    let printed = gui.until(Duration::from_secs(1), |l| l == "pong 4");
    assert!(
        printed.iter().any(|l| l.ends_with("White (O) to move")),
        "{printed:?}"
    );
    gui.send("quit\n");
    gui.engine.join().unwrap().unwrap();
}

#[test]
fn an_overtaken_go_answers_before_the_pong_or_not_at_all() {
    let gui = Gui::start();
    // Untimed game: the default five seconds per move, overtaken at once.
    gui.send("nboard 2\nping 1\ngo\n");
    gui.until(Duration::from_secs(1), |l| l == "status thinking");
    gui.send("set game (;GM[Othello];)\nping 2\n");
    let lines = gui.until(Duration::from_secs(1), |l| l == "pong 2");
    let moves = lines.iter().filter(|l| l.starts_with("=== ")).count();
    assert!(moves <= 1, "{lines:?}");
    gui.send("ping 3\n");
    assert_eq!(gui.until(Duration::from_secs(1), |_| true), ["pong 3"]);
}

#[test]
fn end_of_input_ends_a_running_search_and_the_loop() {
    let mut gui = Gui::start();
    gui.send("set depth 60\nhint 1\n");
    gui.until(Duration::from_secs(5), |l| l.starts_with("search "));
    let closed = Instant::now();
    gui.input = None;
    let deadline = Instant::now() + Duration::from_secs(1);
    while !gui.engine.is_finished() {
        assert!(
            Instant::now() < deadline,
            "still running after end of input"
        );
        thread::sleep(Duration::from_millis(5));
    }
    assert!(closed.elapsed() < Duration::from_secs(1));
    gui.engine.join().unwrap().unwrap();
}

#[test]
fn set_eval_switches_the_evaluator_and_a_bad_file_changes_nothing() {
    use othello::eval::{EngineEval, Evaluator, HandEval};
    // A position where the two evaluators disagree (any midgame position does).
    let pos = othello::xot::position_after(othello::xot::openings().next().unwrap()).unwrap();
    let setboard = format!("setboard {}\n", pos.to_board_string());
    let eval_line = |e: &EngineEval| {
        let centi = e.evaluate(&pos.board);
        format!("# eval {:.2}", f64::from(centi) / 100.0)
    };
    let pattern = eval_line(&EngineEval::default());
    let hand = eval_line(&EngineEval::Hand(HandEval::new()));
    assert_ne!(pattern, hand);
    let prefix = |l: &String| l.split(" (").next().unwrap().to_string();

    let out = session(format!(
        "{setboard}eval\nset eval hand\neval\nset eval default\neval\n"
    ));
    let evals: Vec<String> = out.iter().map(prefix).collect();
    assert_eq!(evals, [pattern.clone(), hand.clone(), pattern.clone()]);

    // A missing file, a corrupt one and a device: one status error each, evaluator unchanged.
    let dir = std::env::temp_dir().join(format!("othello-set-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, b"OthPatEv but not really").unwrap();
    let out = session(format!(
        "{setboard}set eval hand\nset eval /nonexistent/w.bin\nset eval {}\nset eval /dev/zero\neval\n",
        corrupt.display()
    ));
    assert_eq!(out.len(), 4, "{out:?}");
    for line in &out[..3] {
        assert!(line.starts_with("status error: set eval"), "{line}");
        assert!(line.contains("current evaluator is kept"), "{line}");
    }
    assert_eq!(prefix(&out[3]), hand);

    // With file loading switched off (as under fuzzing) a path is refused, names are not.
    let mut output = Vec::new();
    let options = EngineOptions {
        allow_eval_files: false,
        ..options()
    };
    let input = format!(
        "{setboard}set eval {}\nset eval hand\neval\n",
        corrupt.display()
    );
    run_sync(Cursor::new(input.into_bytes()), &mut output, options).unwrap();
    let out: Vec<String> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(out[0].starts_with("status error: set eval: loading weight and book files is disabled"));
    assert_eq!(prefix(&out[1]), hand);
    std::fs::remove_dir_all(&dir).ok();
}

/// The clock a `go` plans with runs from when its position arrived, not from when the search
/// starts: the time the engine spent before (stopping a ponder search, reading the game) is
/// off the clock. A position that arrived more than the whole clock ago gets the shortest
/// search, one that just arrived a share of a ten-second clock.
#[test]
fn go_plans_with_the_clock_less_the_time_since_the_position_arrived() {
    use othello::protocol::{Command, Nboard, Responder};
    let nodes_after = |waited: Duration| -> u64 {
        let mut engine = Nboard::new(options()).unwrap();
        let mut out = Responder::new(Vec::new());
        let Some(arrived) = Instant::now().checked_sub(waited) else {
            return 0;
        };
        engine.line_arrived(arrived);
        let game: Command = "set game (;GM[Othello]TI[0:10];)".parse().unwrap();
        engine.execute(game, &mut out).unwrap();
        engine.line_arrived(Instant::now());
        engine.execute(Command::Go, &mut out).unwrap();
        let text = String::from_utf8(out.into_inner()).unwrap();
        let stats = text
            .lines()
            .find_map(|l| l.strip_prefix("nodestats "))
            .unwrap_or_else(|| panic!("{text}"));
        stats.split(' ').next().unwrap().parse().unwrap()
    };
    let fresh = nodes_after(Duration::ZERO);
    let stale = nodes_after(Duration::from_secs(11));
    assert!(
        stale * 5 < fresh,
        "{stale} nodes after 11 s, {fresh} at once"
    );
}
