//! Game review (`othello::review`, `othello review`): exact judgements equal fresh solves,
//! losses are never negative, passes are reported, the JSON parses with the documented fields,
//! the HTML page is self-contained and escapes the names, and bad input is a clear error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use othello::eval::{EngineEval, HandEval};
use othello::gamedb::{read_games, GameRecord};
use othello::review::{self, Effort, Review, ReviewOptions};
use othello::rng::SplitMix64;
use othello::search::{Searcher, Value};
use othello::{Board, Color};
use serde_json::Value as Json;

const WTHOR_1977: &str = "tests/data/wthor/WTH_1977.wtb";

/// Game 2 of the 1977 WTHOR sample: 60 moves, three White passes near the end.
fn game_1977_2() -> GameRecord {
    read_games(Path::new(WTHOR_1977), None).unwrap()[1].clone()
}

fn reviewed(game: &GameRecord, depth: u32, exact: u32) -> Review {
    let mut searcher = Searcher::new(EngineEval::default(), 16);
    let options = ReviewOptions {
        effort: Effort::Depth(depth),
        exact_empties: exact,
        book: None,
    };
    let mut seen = 0;
    let r = review::review_game(game, &mut searcher, &options, &mut |p| {
        seen += 1;
        assert_eq!((p.done, p.total), (seen, game.moves.len()));
    })
    .unwrap();
    assert_eq!(seen, game.moves.len(), "progress after every move");
    r
}

/// The exact value of `board` for its side to move, from a fresh searcher and evaluator.
fn solved(board: &Board) -> i32 {
    if board.is_game_over() {
        return board.final_score();
    }
    match Searcher::new(HandEval::new(), 4)
        .solve(board, false, &mut ())
        .value
    {
        Value::Exact(v) => v,
        other => panic!("a solve gave {other:?}"),
    }
}

/// The exact value for the mover of playing `sq` in `board`: the position after it, negated,
/// or not negated if the opponent must pass.
fn solved_move(board: &Board, sq: othello::Square) -> i32 {
    let after = board.play(sq);
    if after.moves() == 0 && !after.is_game_over() {
        solved(&after.pass())
    } else {
        -solved(&after)
    }
}

/// Checks every move of `r`: legal squares, losses, and above `exact` empties the depth, at
/// or below it exact values equal to fresh solves. Returns the number of exact moves.
fn check_moves(r: &Review, depth: u32, exact: u32) -> usize {
    let mut exact_moves = 0;
    for m in &r.moves {
        let board = m.before.board;
        assert!(board.is_legal(m.played) && board.is_legal(m.best), "{m:?}");
        assert!(m.loss_centi() >= 0);
        assert_eq!(m.is_best(), m.loss_centi() == 0);
        if m.played == m.best {
            assert_eq!(m.loss_centi(), 0, "{m:?}");
        }
        assert_eq!(m.legal_moves, board.moves().count_ones());
        if board.empty_count() > exact {
            assert!(!m.is_exact(), "move {} is above the threshold", m.number);
            assert_eq!(m.depth, depth);
            continue;
        }
        exact_moves += 1;
        assert!(m.is_exact(), "move {} is below the threshold", m.number);
        let best = Value::Exact(solved(&board));
        assert_eq!(m.best_value, best, "move {}", m.number);
        let played = Value::Exact(solved_move(&board, m.played));
        assert_eq!(m.played_value, played, "move {}", m.number);
    }
    exact_moves
}

#[test]
fn exact_judgements_equal_fresh_solves_and_losses_are_never_negative() {
    let game = game_1977_2();
    let r = reviewed(&game, 3, 14);
    assert_eq!(r.moves.len(), 60);
    assert!(r.is_finished());
    assert_eq!(r.black_score(), game.final_score().unwrap());
    assert_eq!(check_moves(&r, 3, 14), 14);
    // In the exact part the curve is continuous: the value after a move is the best value
    // before the next one.
    for pair in r.moves.windows(2).filter(|w| w[0].is_exact()) {
        assert_eq!(pair[0].black_centi(), pair[1].black_best_centi());
    }
    assert_eq!(*r.curve().last().unwrap(), 100 * r.black_score());
    // The totals add up.
    let players = r.players();
    assert_eq!(players[0].moves + players[1].moves, 60);
    let total: i64 = r.moves.iter().map(|m| i64::from(m.loss_centi())).sum();
    assert_eq!(
        players[0].total_loss_centi + players[1].total_loss_centi,
        total
    );
}

/// A random game (seeded) in which a move at 12 empties or fewer that is not a best move makes
/// the opponent pass: the case where the played move's value comes after a pass.
fn random_game_with_a_pass_after_a_mistake() -> GameRecord {
    for seed in 1.. {
        let mut rng = SplitMix64::new(seed);
        let (mut board, mut moves, mut found) = (Board::start(), Vec::new(), false);
        while !board.is_game_over() {
            if board.moves() == 0 {
                board = board.pass();
                continue;
            }
            let legal: Vec<_> = board.legal_moves().collect();
            let sq = legal[rng.below_u32(legal.len())];
            let after = board.play(sq);
            if board.empty_count() <= 12 && after.moves() == 0 && !after.is_game_over() {
                found |= solved_move(&board, sq) < solved(&board);
            }
            moves.push(sq);
            board = after;
        }
        if found {
            return GameRecord::from_moves(moves);
        }
    }
    unreachable!()
}

#[test]
fn a_mistake_before_a_pass_is_valued_for_the_mover() {
    let game = random_game_with_a_pass_after_a_mistake();
    let r = reviewed(&game, 2, 12);
    let m = r
        .moves
        .iter()
        .find(|m| m.pass_after && m.is_exact() && !m.is_best())
        .expect("the mistake before a pass");
    assert_eq!(check_moves(&r, 2, 12), 12);
    // The analysis of the position before it: every move's value is a fresh solve's.
    let mut searcher = Searcher::new(EngineEval::default(), 4);
    let options = ReviewOptions {
        effort: Effort::Depth(2),
        exact_empties: 12,
        book: None,
    };
    let values = review::analyse_position(&mut searcher, &m.before.board, &options);
    assert_eq!(values.len() as u32, m.legal_moves);
    assert!(values
        .windows(2)
        .all(|w| review::centi(w[0].value) >= review::centi(w[1].value)));
    for v in &values {
        let want = Value::Exact(solved_move(&m.before.board, v.square));
        assert_eq!(v.value, want, "{}", v.square);
    }
    assert_eq!(values[0].value, m.best_value);
}

/// In a book position, `analyse` (play's) gives the book's values for the moves the book
/// values, as `hint` and the review do, not a search's: at the start and after f5 d6 c3 d3,
/// every book move's value and depth are the book's, marked so, best first.
#[test]
fn analysis_in_a_book_position_gives_the_book_s_values() {
    let book = othello::book::default_book();
    let mut searcher = Searcher::new(EngineEval::default(), 4);
    let options = ReviewOptions {
        effort: Effort::Depth(4),
        exact_empties: 10,
        book: Some(book.clone()),
    };
    for moves in ["", "f5d6c3d3"] {
        let board = othello::xot::position_after(moves).unwrap().board;
        let listed = book.moves(&board);
        assert!(!listed.is_empty(), "{moves}");
        let values = review::analyse_position(&mut searcher, &board, &options);
        assert!(values
            .windows(2)
            .all(|w| review::centi(w[0].value) >= review::centi(w[1].value)));
        for m in &listed {
            let othello::board::Move::Place(square) = m.mv else {
                continue;
            };
            let v = values.iter().find(|v| v.square == square).unwrap();
            assert!(v.from_book, "{moves}: {square}");
            assert_eq!(v.value, m.search_value(), "{moves}: {square}");
        }
    }
}

#[test]
fn passes_turning_points_and_the_curve() {
    let game = game_1977_2();
    let r = reviewed(&game, 2, 10);
    let positions = game.replay().unwrap();
    let passes: Vec<usize> = r
        .moves
        .iter()
        .filter(|m| m.pass_after)
        .map(|m| m.number)
        .collect();
    let expected: Vec<usize> = (1..positions.len() - 1)
        .filter(|&i| positions[i].side == positions[i - 1].side)
        .collect();
    assert_eq!(passes, expected);
    assert_eq!(passes, [57, 58, 59]);
    assert!(r.moves[56..59].iter().all(|m| m.color() == Color::Black));
    // Turning points: the largest losses, at least a mistake, at most five, in game order.
    let turning = r.turning_points();
    assert!(!turning.is_empty() && turning.len() <= review::TURNING_POINTS);
    assert!(turning.windows(2).all(|w| w[0] < w[1]));
    let smallest = turning
        .iter()
        .map(|&i| r.moves[i].loss_centi())
        .min()
        .unwrap();
    assert!(smallest >= review::MISTAKE_CENTI);
    let left_out = (0..r.moves.len()).filter(|i| !turning.contains(i));
    assert!(left_out
        .map(|i| r.moves[i].loss_centi())
        .all(|l| l <= smallest));
    // The curve: Black's view, a point per move and the start; after a move, the mean of
    // its played value and the next position's best value (the exact one where there is one).
    let curve = r.curve();
    assert_eq!(curve.len(), 61);
    let black = |m: &review::MoveReview, v: Value| {
        let sign = if m.color() == Color::Black { 1 } else { -1 };
        sign * review::centi(v)
    };
    assert_eq!(curve[0], black(&r.moves[0], r.moves[0].best_value));
    for k in 0..60 {
        let (m, played) = (&r.moves[k], black(&r.moves[k], r.moves[k].played_value));
        let want = match r.moves.get(k + 1) {
            None => played,
            Some(_) if m.is_exact() => played,
            Some(next) if next.is_exact() => black(next, next.best_value),
            Some(next) => (played + black(next, next.best_value)).div_euclid(2),
        };
        assert_eq!(curve[k + 1], want, "after move {}", k + 1);
    }
    // (An untimed depth-2 search solves from 12 empties by itself: those moves are exact.)
    assert_eq!(r.moves.iter().filter(|m| !m.is_exact()).count(), 48);
}

#[test]
fn a_wipe_out_in_nine_moves_is_reviewed_without_solving_the_opening() {
    let moves = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"]
        .map(|s| s.parse().unwrap())
        .to_vec();
    let game = GameRecord::from_moves(moves);
    let r = reviewed(&game, 4, 12);
    assert_eq!(r.black_score(), 64);
    assert!(r.is_finished());
    // The last move ends the game: it is worth its final score and cannot be bettered.
    let last = r.moves.last().unwrap();
    assert_eq!(review::centi(last.played_value), 6400);
    assert!(last.is_best() && !last.is_exact());
    assert!(r.result_text().starts_with("64-0 (Black +64)"));
}

#[test]
fn moves_in_the_book_are_judged_by_the_books_values() {
    let game = game_1977_2();
    let book = othello::book::default_book();
    let mut searcher = Searcher::new(EngineEval::default(), 16);
    let options = ReviewOptions {
        effort: Effort::Depth(2),
        exact_empties: 10,
        book: Some(book.clone()),
    };
    let r = review::review_game(&game, &mut searcher, &options, &mut |_| {}).unwrap();
    let mut from_book = 0;
    let mut left_the_book = false;
    for m in &r.moves {
        let moves = book.moves(&m.before.board);
        let played = moves
            .iter()
            .find(|b| b.mv == othello::Move::Place(m.played));
        match played {
            Some(p) => {
                // The book's own values, and a move the book rates as high as its best
                // counts as best.
                assert!(m.from_book, "move {}", m.number);
                assert_eq!(m.played_value, p.search_value(), "move {}", m.number);
                assert_eq!(
                    review::centi(m.best_value),
                    review::centi(moves[0].search_value()),
                    "move {}",
                    m.number
                );
                if p.value < moves[0].value {
                    assert_eq!(othello::Move::Place(m.best), moves[0].mv);
                } else {
                    assert_eq!(m.best, m.played);
                }
                assert_eq!(m.judged(true), "book");
                assert_eq!(m.nodes, 0);
                from_book += 1;
            }
            _ => {
                assert!(!m.from_book, "move {}", m.number);
                left_the_book = true;
            }
        }
    }
    // The 1977 game opens with book moves, then leaves the book.
    assert!(from_book >= 4, "{from_book} book moves");
    assert!(left_the_book);
    assert!(r.moves[0].from_book);
    // Without the book, the same moves are searched.
    let plain = reviewed(&game, 2, 10);
    assert!(plain.moves.iter().all(|m| !m.from_book));
    assert_ne!(plain.moves[0].played_value, r.moves[0].played_value);
    assert!(options
        .to_string()
        .ends_with("book values in book positions"));
}

#[test]
fn the_json_report_has_every_field_and_escapes_names() {
    let mut game = game_1977_2();
    game.black = "Tom \"the <b>\" \\ Heiberg\n".to_string();
    let r = reviewed(&game, 2, 10);
    let json: Json = serde_json::from_str(&review::json::to_json(&r)).expect("valid JSON");
    assert_eq!(json["black"].as_str(), Some(&*game.black));
    assert_eq!(json["white"].as_str(), Some("Jacobs Carol"));
    assert_eq!(json["moves_text"].as_str().unwrap().len(), 120);
    let result = &json["result"];
    assert_eq!(result["finished"], Json::Bool(true));
    assert_eq!(result["black_score"].as_i64(), Some(r.black_score().into()));
    assert_eq!(result["theoretical_black_discs"].as_u64(), Some(44));
    let settings = &json["settings"];
    assert_eq!(settings["depth"].as_u64(), Some(2));
    assert_eq!(settings.get("time_s"), Some(&Json::Null));
    assert_eq!(settings["exact_empties"].as_u64(), Some(10));
    assert_eq!(settings["book"], Json::Bool(false));
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), r.moves.len());
    let turning = r.turning_points();
    for (i, (j, m)) in moves.iter().zip(&r.moves).enumerate() {
        let discs = |v: Value| f64::from(review::centi(v)) / 100.0;
        assert_eq!(j["number"].as_u64(), Some(m.number as u64));
        let color = if m.color() == Color::Black {
            "black"
        } else {
            "white"
        };
        assert_eq!(j["color"].as_str(), Some(color));
        assert_eq!(j["played"].as_str(), Some(&*m.played.to_string()));
        assert_eq!(j["best"].as_str(), Some(&*m.best.to_string()));
        assert_eq!(j["played_value"].as_f64(), Some(discs(m.played_value)));
        assert_eq!(j["best_value"].as_f64(), Some(discs(m.best_value)));
        assert_eq!(j["loss"].as_f64(), Some(m.loss()));
        assert!(j["loss"].as_f64().unwrap() >= 0.0);
        assert_eq!(j["exact"], Json::Bool(m.is_exact()));
        assert_eq!(j["book"], Json::Bool(m.from_book));
        assert_eq!(j["pass_after"], Json::Bool(m.pass_after));
        assert_eq!(j["turning_point"], Json::Bool(turning.contains(&i)));
        assert_eq!(
            j["empties"].as_u64(),
            Some(m.before.board.empty_count().into())
        );
        for field in [
            "depth",
            "legal_moves",
            "black_value",
            "mistake",
            "nodes",
            "ms",
        ] {
            assert!(j.get(field).is_some(), "no field {field}: {j}");
        }
    }
    let players = &json["players"];
    for (name, stats) in ["black", "white"].into_iter().zip(r.players()) {
        let p = &players[name];
        assert_eq!(p["moves"].as_u64(), Some(stats.moves as u64));
        assert_eq!(p["best_moves"].as_u64(), Some(stats.best_moves as u64));
        assert_eq!(p["total_loss"].as_f64(), Some(stats.total_loss()));
        assert_eq!(p["mistakes"].as_u64(), Some(stats.mistakes as u64));
        for field in ["name", "choices", "best_share", "mean_loss"] {
            assert!(p.get(field).is_some(), "no field {field}: {p}");
        }
    }
    let numbers: Vec<u64> = turning.iter().map(|&i| r.moves[i].number as u64).collect();
    let listed: Vec<u64> = json["turning_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(listed, numbers);
    assert_eq!(json["curve"].as_array().unwrap().len(), 61);
    // The parser is strict enough to catch what a broken writer would produce.
    for bad in [
        "{\"a\": 1,}",
        "[1 2]",
        "{\"a\" 1}",
        "\"x\ny\"",
        "[.5]",
        "{} x",
    ] {
        assert!(serde_json::from_str::<Json>(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_html_page_is_self_contained_and_escapes_names() {
    let mut game = game_1977_2();
    game.black = "<b>&\"".to_string();
    game.event = "<script>alert(1)</script>".to_string();
    let r = reviewed(&game, 2, 10);
    let page = review::html::to_html(&r);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.trim_end().ends_with("</html>"));
    for external in [
        "http:", "https:", "src=", "href=", "url(", "<script", "<link", "@import",
    ] {
        assert!(!page.contains(external), "the page has {external}");
    }
    assert!(page.contains("&lt;b&gt;&amp;&quot;"));
    assert!(!page.contains("<b>&\""));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    // One chart and a diagram per turning point, each a whole <svg>.
    let turning = r.turning_points().len();
    assert!(turning > 0);
    assert_eq!(page.matches("<svg").count(), 1 + turning);
    assert_eq!(page.matches("</svg>").count(), 1 + turning);
    assert_eq!(page.matches("<polyline").count(), 1);
    // Every move has a row.
    assert_eq!(page.matches("<tr").count(), 1 + 2 + 1 + 60 + 3);
}

fn othello(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .output()
        .expect("the othello binary runs")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("othello-review-{}-{name}", std::process::id()))
}

#[test]
fn the_command_writes_the_table_json_and_page() {
    let page = temp("page.html");
    let o = othello(&[
        "review",
        WTHOR_1977,
        "--game",
        "2",
        "--depth",
        "2",
        "--exact",
        "10",
        "--html",
        page.to_str().unwrap(),
        "--quiet",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.starts_with("Heiberg Thomas (Black) vs Jacobs Carol (White)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "Review: depth 2, exact at 10 empties or fewer, book values in book positions"
        ),
        "{text}"
    );
    // The embedded book judges the opening (game 2 starts f5 f6 e6 f4).
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("1  Black  f5") && l.contains(" book")),
        "{text}"
    );
    assert!(text.contains("Turning points"), "{text}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<svg"));
    std::fs::remove_file(&page).ok();
    let o = othello(&[
        "review", WTHOR_1977, "--game", "3", "--depth", "1", "--exact", "8", "--json", "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: Json = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(json["settings"]["book"], Json::Bool(true));
    let games = read_games(Path::new(WTHOR_1977), None).unwrap();
    assert_eq!(
        json["moves"].as_array().unwrap().len(),
        games[2].moves.len()
    );
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    let bad_game = temp("bad.txt");
    std::fs::write(&bad_game, "f5d6c3a1\n").unwrap();
    let bad = bad_game.to_str().unwrap();
    for (args, message) in [
        (
            &["review", "/nonexistent/game.pgn"][..],
            "/nonexistent/game.pgn",
        ),
        (
            &["review", WTHOR_1977, "--game", "99"][..],
            "no game 99: the file has",
        ),
        (&["review", WTHOR_1977, "--game", "0"][..], "--game"),
        (&["review", WTHOR_1977, "--depth", "0"][..], "--depth"),
        (&["review", WTHOR_1977, "--depth", "x"][..], "--depth"),
        (&["review", WTHOR_1977, "--time", "0"][..], "--time"),
        (
            &["review", WTHOR_1977, "--depth", "3", "--time", "1"][..],
            "--time",
        ),
        (&["review", WTHOR_1977, "--exact", "61"][..], "--exact"),
        (&["review", WTHOR_1977, "--from", "obf"][..], "obf"),
        (&["review", bad][..], "illegal move a1 at ply 4"),
        (
            &["review", WTHOR_1977, "--book", "/nonexistent/book.bin"][..],
            "--book: /nonexistent/book.bin",
        ),
        (&["review", WTHOR_1977, "--book", bad][..], "--book:"),
        (
            &["review", WTHOR_1977, "--book", "/dev/zero"][..],
            "not a regular file",
        ),
        (&["review"][..], "FILE"),
    ] {
        let o = othello(args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(
            matches!(o.status.code(), Some(1 | 2)),
            "{args:?}: {:?}",
            o.status
        );
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(o.stdout.is_empty(), "{args:?} printed a report");
    }
    std::fs::remove_file(&bad_game).ok();
}

#[test]
fn a_game_not_played_to_the_end_says_so_with_its_recorded_result() {
    // Four moves, then White resigned: recorded 64-0 for Black.
    let moves = ["f5", "d6", "c3", "d3"]
        .map(|s| s.parse().unwrap())
        .to_vec();
    let mut game = GameRecord::from_moves(moves);
    game.black_discs = Some(64);
    let r = reviewed(&game, 2, 10);
    assert!(!r.is_finished());
    assert_eq!(
        r.result_text(),
        "not played to the end, 4-4 on the board; recorded 64-0"
    );
}
