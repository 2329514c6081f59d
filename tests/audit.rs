//! The audit (`othello::review::audit`, `othello match --audit`, `othello audit`): every
//! figure equals a brute-force recomputation (every legal move of every position solved on its
//! own by a fresh searcher with another evaluator), forced passes keep the mover's sign, the
//! outcome changes of a hand-checked case, games not played out or ended early are left out,
//! the match's audit and the file command agree, and bad input is a clear error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use othello::eval::{EngineEval, HandEval};
use othello::gamedb::{self, read_games, Format, GameRecord};
use othello::review::audit::{
    audit_games, to_json, AuditError, AuditGame, AuditOptions, AuditReport,
};
use othello::search::{Searcher, Value};
use othello::{Board, Color, Position, Square};
use serde_json::Value as Json;

const WTHOR_1977: &str = "tests/data/wthor/WTH_1977.wtb";

/// The 12 games of the 1977 WTHOR sample.
fn games_1977() -> Vec<GameRecord> {
    read_games(Path::new(WTHOR_1977), None).unwrap()
}

/// `games` with player 0 always Black and player 1 always White.
fn by_colour(games: &[GameRecord]) -> Vec<AuditGame> {
    games
        .iter()
        .map(|record| AuditGame {
            record: record.clone(),
            black: 0,
            white: 1,
        })
        .collect()
}

fn audit(games: &[AuditGame], players: &[&str], points: &str, jobs: usize) -> AuditReport {
    let players: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let options = AuditOptions {
        jobs,
        ..AuditOptions::new(points.parse().unwrap())
    };
    let mut calls = 0;
    let report = audit_games(
        games,
        &players,
        &options,
        &EngineEval::default(),
        &mut |done, total| {
            calls += 1;
            assert_eq!((done, total), (calls, games.len()));
        },
    )
    .unwrap();
    assert_eq!(calls, games.len(), "progress after every game");
    report
}

/// The exact value of `board` for its side to move, by a fresh solve with another evaluator.
fn solve(searcher: &mut Searcher<HandEval>, board: &Board) -> i32 {
    if board.is_game_over() {
        return board.final_score();
    }
    match searcher.solve(board, false, &mut ()).value {
        Value::Exact(v) => v,
        other => panic!("a solve gave {other:?}"),
    }
}

/// The exact value for the mover of playing `sq` in `board`, by solving the child: negated,
/// or, when the opponent must pass, the position after the pass for the same mover.
fn solve_move(searcher: &mut Searcher<HandEval>, board: &Board, sq: Square) -> i32 {
    let after = board.play(sq);
    if after.must_pass() {
        solve(searcher, &after.pass())
    } else {
        -solve(searcher, &after)
    }
}

/// Brute force: for each move of `game` made with at most `empties` empties before it, the
/// mover, its number and its loss (the best child's value minus the played child's).
fn brute_force_losses(game: &GameRecord, empties: u32) -> Vec<(usize, Color, i32)> {
    let mut searcher = Searcher::new(HandEval::new(), 8);
    let positions = game.replay().unwrap();
    let mut losses = Vec::new();
    for (i, &played) in game.moves.iter().enumerate() {
        let before: Position = positions[i];
        if before.board.empty_count() > empties {
            continue;
        }
        let best = before
            .board
            .legal_moves()
            .map(|sq| solve_move(&mut searcher, &before.board, sq))
            .max()
            .unwrap();
        let loss = best - solve_move(&mut searcher, &before.board, played);
        losses.push((i + 1, before.side, loss));
    }
    losses
}

/// Black's exact value at the first position with at most `empties` empties, and the final
/// result, by fresh solves.
fn brute_force_point(game: &GameRecord, empties: u32) -> (i32, i32) {
    let mut searcher = Searcher::new(HandEval::new(), 8);
    let positions = game.replay().unwrap();
    let black = |p: &Position, v: i32| if p.side == Color::Black { v } else { -v };
    let at = positions
        .iter()
        .find(|p| p.board.empty_count() <= empties)
        .unwrap();
    let last = positions.last().unwrap();
    (
        black(at, solve(&mut searcher, &at.board)),
        black(last, last.board.final_score()),
    )
}

#[test]
fn losses_values_and_outcomes_equal_a_brute_force_solve_of_every_move() {
    let games = games_1977();
    let report = audit(&by_colour(&games), &["black", "white"], "14,12", 1);
    for point in &report.points {
        let e = point.empties;
        let mut loss = [0i64; 2];
        let mut value = 0i64;
        let mut result = 0i64;
        let (mut changed_for_black, mut changed_against_black) = (0, 0);
        // Wins, draws, losses with perfect play after the point, Black's then White's.
        let mut perfect = [[0u64; 3]; 2];
        for (g, audited) in games.iter().zip(&report.games) {
            let moves = brute_force_losses(g, e);
            // Move by move: the same movers, numbers and losses.
            let from = audited.moves.len() - moves.len();
            let got: Vec<(usize, Color, i32)> = audited.moves[from..]
                .iter()
                .map(|m| (m.number, m.color, m.loss))
                .collect();
            assert_eq!(got, moves, "game {:?} from {e} empties", g.black);
            let mut game_loss = [0i32; 2];
            for (_, color, l) in &moves {
                game_loss[usize::from(*color == Color::White)] += *l;
            }
            loss[0] += i64::from(game_loss[0]);
            loss[1] += i64::from(game_loss[1]);
            let (v, r) = brute_force_point(g, e);
            // Perfect play after the point: the result plus the player's own losses, which
            // is never below the value at the point (the opponent's losses only add).
            for (side, own) in [(0, r + game_loss[0]), (1, -r + game_loss[1])] {
                let floor = if side == 0 { v } else { -v };
                assert!(own >= floor, "game {:?} from {e} empties", g.black);
                perfect[side][usize::from(own <= 0) + usize::from(own < 0)] += 1;
            }
            value += i64::from(v);
            result += i64::from(r);
            match r.signum().cmp(&v.signum()) {
                std::cmp::Ordering::Greater => changed_for_black += 1,
                std::cmp::Ordering::Less => changed_against_black += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
        let [black, white] = &point.sides[..] else {
            panic!("two players")
        };
        assert_eq!((black.games, white.games), (12, 12));
        assert_eq!((black.loss_sum, white.loss_sum), (loss[0], loss[1]), "{e}");
        assert_eq!((black.value_sum, white.value_sum), (value, -value), "{e}");
        assert_eq!((black.final_sum, white.final_sum), (result, -result), "{e}");
        assert_eq!(
            (black.changed_for, black.changed_against),
            (changed_for_black, changed_against_black),
            "{e}"
        );
        assert_eq!(
            (white.changed_for, white.changed_against),
            (changed_against_black, changed_for_black),
            "{e}"
        );
        for (side, p) in [black, white].iter().zip(perfect) {
            let o = side.perfect;
            assert_eq!([o.wins, o.draws, o.losses], p, "{e}");
            assert!(o.score() >= side.at_point.score() && o.score() >= side.at_end.score());
        }
        // The losses telescope: value at the point minus the result is Black's loss minus
        // White's.
        assert_eq!(value - result, loss[0] - loss[1], "{e}");
        assert!(
            loss[0] > 0 && loss[1] > 0,
            "the sample's players made mistakes"
        );
    }
}

#[test]
fn forced_passes_keep_the_movers_sign() {
    // Game 2 of the sample: White passes after moves 57, 58 and 59, so Black plays the last
    // four moves in a row.
    let games = games_1977();
    let game = &games[1];
    let report = audit(&by_colour(std::slice::from_ref(game)), &["b", "w"], "14", 1);
    let audited = &report.games[0];
    let last: Vec<(usize, Color)> = audited.moves[audited.moves.len() - 4..]
        .iter()
        .map(|m| (m.number, m.color))
        .collect();
    assert_eq!(
        last,
        [57, 58, 59, 60].map(|n| (n, Color::Black)),
        "the sample has the passes this test is about"
    );
    // Around a pass the mover is the same on both sides of a move, so its values must not be
    // negated: the brute force (which passes on the board) agrees move by move, and no loss is
    // negative.
    let brute = brute_force_losses(game, 14);
    let got: Vec<(usize, Color, i32)> = audited
        .moves
        .iter()
        .map(|m| (m.number, m.color, m.loss))
        .collect();
    assert_eq!(got, brute);
    assert!(got.iter().all(|&(_, _, l)| l >= 0));
    // Black's values from the point on, then the result (+40 for Black).
    assert_eq!(audited.first_empties, 14);
    assert_eq!(audited.black_values.last(), Some(&40));
    assert_eq!(audited.black_values.len(), 15);
}

#[test]
fn outcome_changes_of_a_hand_checked_case() {
    // Games 9 and 10 of the sample, at 14 empties, by exact solves: in game 9 Woch (Black)
    // leads by 2 and loses by 32 to Jacobs; in game 10 Jacobs (Black) holds a draw and wins
    // by 16 against Ilagan.
    let games = games_1977();
    let (g9, g10) = (&games[8], &games[9]);
    assert_eq!(
        (g9.black.as_str(), g9.white.as_str()),
        ("Woch Alan", "Jacobs Carol")
    );
    assert_eq!(
        (g10.black.as_str(), g10.white.as_str()),
        ("Jacobs Carol", "Ilagan Rey")
    );
    assert_eq!(brute_force_point(g9, 14), (2, -32));
    assert_eq!(brute_force_point(g10, 14), (0, 16));
    let players = ["Woch", "Jacobs", "Ilagan"];
    let input = [
        AuditGame {
            record: g9.clone(),
            black: 0,
            white: 1,
        },
        AuditGame {
            record: g10.clone(),
            black: 1,
            white: 2,
        },
    ];
    let report = audit(&input, &players, "14", 1);
    let sides = &report.points[0].sides;
    let changes: Vec<(u64, u64, u64)> = sides
        .iter()
        .map(|s| (s.games, s.changed_for, s.changed_against))
        .collect();
    assert_eq!(changes, [(1, 0, 1), (2, 2, 0), (1, 0, 1)]);
    // Jacobs: -2 at the point in game 9 (White's view) and 0 in game 10; +32 and +16 at the
    // end.
    assert_eq!((sides[1].value_sum, sides[1].final_sum), (-2, 48));
    assert_eq!((sides[1].mean_value(), sides[1].mean_final()), (-1.0, 24.0));
    assert_eq!(sides[1].at_point.losses + sides[1].at_point.draws, 2);
    assert_eq!(sides[1].at_end.wins, 2);
}

#[test]
fn unfinished_and_short_games_are_not_audited() {
    let squares = |text: &str| -> Vec<Square> {
        text.as_bytes()
            .chunks(2)
            .map(|c| std::str::from_utf8(c).unwrap().parse().unwrap())
            .collect()
    };
    // A wipe-out in nine moves (ended before 20 empties), a game stopped after three moves
    // (as a forfeit leaves it), and a full game.
    let wipe_out = GameRecord::from_moves(squares("d3c3b3d2e1d6d7e3f4"));
    let stopped = GameRecord::from_moves(squares("f5d6c3"));
    let full = games_1977()[0].clone();
    let report = audit(&by_colour(&[wipe_out, stopped, full]), &["x", "y"], "20", 2);
    let s = &report.points[0].sides[0];
    assert_eq!((s.games, s.ended_before, s.unfinished), (1, 1, 1));
    assert!(!report.games[1].finished);
    assert!(report.games[0].black_values.is_empty());
    assert_eq!(report.games[2].first_empties, 20);
    assert_eq!(report.positions(), 20);
    assert!(report.solves() <= 20 && report.games[2].solves == report.solves());
}

#[test]
fn known_best_moves_and_repeated_games_save_solves_but_not_values() {
    // The same game twice: the second one is read from the first one's solves.
    let game = games_1977()[1].clone();
    let report = audit(&by_colour(&[game.clone(), game]), &["b", "w"], "14", 1);
    let [first, second] = &report.games[..] else {
        panic!("two games")
    };
    assert_eq!(first.black_values, second.black_values);
    assert_eq!((second.solves, second.nodes), (0, 0));
    // A position after a best move is not solved: fewer solves than positions.
    assert!(
        first.solves > 0 && first.solves < first.moves.len(),
        "{}",
        first.solves
    );
}

#[test]
fn workers_do_not_change_the_figures() {
    let games = by_colour(&games_1977()[..6]);
    let one = audit(&games, &["b", "w"], "12", 1);
    let two = audit(&games, &["b", "w"], "12", 2);
    assert_eq!(one.points, two.points);
    let values = |r: &AuditReport| -> Vec<Vec<i32>> {
        r.games.iter().map(|g| g.black_values.clone()).collect()
    };
    assert_eq!(values(&one), values(&two));
}

#[test]
fn bad_games_are_errors_naming_the_game() {
    let mut bad = games_1977()[0].clone();
    bad.moves[3] = Square::A1;
    let players = vec!["a".to_string(), "b".to_string()];
    let options = AuditOptions::new("12".parse().unwrap());
    let eval = EngineEval::default();
    let mut games = by_colour(&games_1977()[..1]);
    games.push(AuditGame {
        record: bad,
        black: 0,
        white: 1,
    });
    match audit_games(&games, &players, &options, &eval, &mut |_, _| {}) {
        Err(AuditError::Replay { game: 2, .. }) => {}
        other => panic!("{other:?}"),
    }
    games.truncate(1);
    games[0].white = 2;
    let e = audit_games(&games, &players, &options, &eval, &mut |_, _| {}).unwrap_err();
    assert_eq!(
        e,
        AuditError::UnknownPlayer {
            game: 1,
            player: 2,
            players: 2
        }
    );
    assert!(e.to_string().contains("game 1"), "{e}");
    // A table that cannot be allocated is an error too, not an abort.
    games[0].white = 1;
    let huge = AuditOptions {
        hash_mb: usize::MAX,
        ..options
    };
    match audit_games(&games, &players, &huge, &eval, &mut |_, _| {}) {
        Err(AuditError::Table(_)) => {}
        other => panic!("{other:?}"),
    }
}

fn othello(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-audit-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read_json(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A player's figures at the first point of a JSON report, by name.
fn side<'a>(json: &'a Json, player: &str) -> &'a Json {
    json["by_point"][0]["sides"]
        .as_array()
        .unwrap_or_else(|| panic!("no sides: {json}"))
        .iter()
        .find(|s| s["player"].as_str() == Some(player))
        .unwrap_or_else(|| panic!("no player {player}"))
}

/// A number of a JSON object.
fn number(json: &Json, key: &str) -> f64 {
    json[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number: {json}"))
}

#[test]
fn bad_audit_points_are_clap_errors_naming_them() {
    for (flag, bad) in [
        ("0", "\"0\""),
        ("x", "\"x\""),
        ("24,41", "\"41\""),
        ("24,", "\"\""),
    ] {
        let o = othello(&["match", "iago:1", "iago:2", "--pairs", "1", "--audit", flag]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--audit {flag}: {err}");
        assert!(
            err.contains("--audit") && err.contains(&format!("bad audit point {bad}")),
            "--audit {flag}: {err}"
        );
        assert!(o.stdout.is_empty(), "nothing played");
    }
    let o = othello(&["audit", "none.ggf", "--at", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad audit point \"0\""));
    let o = othello(&["match", "iago:1", "iago:2", "--audit-json", "x.json"]);
    assert_eq!(o.status.code(), Some(2), "--audit-json needs --audit");
}

#[test]
fn the_file_command_reports_per_name_as_the_library_does() {
    let dir = temp_dir("file");
    let ggf = dir.join("1977.ggf");
    let games = games_1977();
    gamedb::write_games(&ggf, Format::Ggf, &games).unwrap();
    let json = dir.join("audit.json");
    let o = othello(&[
        "audit",
        ggf.to_str().unwrap(),
        "--at",
        "12",
        "-j",
        "2",
        "--json",
        json.to_str().unwrap(),
        "--quiet",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = read_json(&json);
    let names: Vec<&str> = report["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Inoue Hiroshi",
            "Heiberg Thomas",
            "Jacobs Carol",
            "Woch Alan",
            "Ilagan Rey"
        ]
    );
    // Each name's games and losses, recomputed from the by-colour audit of the library.
    let lib = audit(&by_colour(&games), &["b", "w"], "12", 1);
    for name in names {
        let (mut games_n, mut loss, mut value) = (0, 0, 0);
        for (g, a) in games.iter().zip(&lib.games) {
            let p = a.at(12).unwrap();
            for (i, who) in [&g.black, &g.white].into_iter().enumerate() {
                if who == name {
                    games_n += 1;
                    loss += p.losses[i];
                    value += if i == 0 {
                        p.black_value
                    } else {
                        -p.black_value
                    };
                }
            }
        }
        let s = side(&report, name);
        assert_eq!(number(s, "games"), f64::from(games_n), "{name}");
        assert_eq!(number(s, "loss_sum"), f64::from(loss), "{name}");
        assert_eq!(number(s, "value_sum"), f64::from(value), "{name}");
        assert!(text.contains(name), "{text}");
    }
    assert_eq!(report["games"].as_array().unwrap().len(), 12);
    assert_eq!(report["jobs"].as_u64(), Some(2));
    assert!(text.contains("from 12 empties"), "{text}");
    // The library's JSON parses and has every documented field.
    let lib_json: Json = serde_json::from_str(&to_json(&lib)).unwrap();
    for key in [
        "players",
        "points",
        "jobs",
        "hash_mb",
        "elapsed_s",
        "positions",
        "nodes",
        "by_point",
        "games",
    ] {
        assert!(lib_json.get(key).is_some(), "{key}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_match_audit_agrees_with_the_audit_of_its_ggf_file() {
    let dir = temp_dir("match");
    let (ggf, match_json, file_json) = (dir.join("m.ggf"), dir.join("m.json"), dir.join("f.json"));
    let o = othello(&[
        "match",
        "iago:1",
        "alphabeta:2:weighted",
        "--pairs",
        "2",
        "-j",
        "2",
        "--quiet",
        "--ggf",
        ggf.to_str().unwrap(),
        "--audit",
        "12,14",
        "--audit-json",
        match_json.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The summary, then the audit.
    let summary = text.find("4 games, 2 pairs").expect("the summary");
    let audit_at = text.find("from 14 empties").expect("the audit");
    assert!(
        summary < audit_at && text.contains("from 12 empties"),
        "{text}"
    );
    assert!(text.contains("A: iago:1") && text.contains("B: alphabeta:2:weighted"));
    let o = othello(&[
        "audit",
        ggf.to_str().unwrap(),
        "--at",
        "14,12",
        "--json",
        file_json.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (m, f) = (read_json(&match_json), read_json(&file_json));
    for (side_m, side_f) in [
        ("A: iago:1", "iago:1"),
        ("B: alphabeta:2:weighted", "alphabeta:2:weighted"),
    ] {
        for key in ["games", "value_sum", "final_sum", "loss_sum", "changed_for"] {
            assert_eq!(
                number(side(&m, side_m), key),
                number(side(&f, side_f), key),
                "{side_m} {key}"
            );
        }
        assert_eq!(number(side(&m, side_m), "games"), 4.0);
    }
    let _ = std::fs::remove_dir_all(dir);
}
