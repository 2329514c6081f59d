//! GTP (`othello gtp`, `othello::protocol::gtp`): a whole game against itself checked move by
//! move against the board's own legal moves and its final count, malformed commands refused
//! without changing anything, and the binary's framing.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use othello::board::{Color, Move, Position};
use othello::book::BookChoice;
use othello::engine::{Engine, EngineOptions};
use othello::protocol::gtp::{vertex, Gtp};

/// A session whose searches are short: depth 3 at most, 50 ms per move.
fn session(book: BookChoice) -> Gtp {
    let engine = Engine::new(EngineOptions {
        hash_mb: 1,
        threads: 1,
        book,
        depth_cap: Some(3),
        ..EngineOptions::default()
    })
    .unwrap();
    Gtp::new(engine, Duration::from_millis(50))
}

/// Runs `line`, which must succeed; returns its result.
fn ok(gtp: &mut Gtp, line: &str) -> String {
    let response = gtp.execute(line).expect("a response");
    match response.result {
        Ok(text) => text,
        Err(e) => panic!("{line:?} refused: {e}"),
    }
}

/// The vertices of the legal moves of `position`, as GTP lists them.
fn legal_vertices(position: &Position) -> Vec<String> {
    if position.board.is_game_over() {
        return Vec::new();
    }
    if position.board.must_pass() {
        return vec!["pass".to_string()];
    }
    position
        .board
        .legal_moves()
        .map(|sq| vertex(Move::Place(sq)))
        .collect()
}

/// The board as `gogui-rules_board` shows it: row 8 first.
fn rules_board(position: &Position) -> String {
    let (black, white) = position.black_white();
    let mut out = String::new();
    for row in (0..8).rev() {
        out.push('\n');
        let cells: Vec<&str> = (0..8)
            .map(|c| {
                let bit = 1u64 << (row * 8 + c);
                if black & bit != 0 {
                    "X"
                } else if white & bit != 0 {
                    "O"
                } else {
                    "."
                }
            })
            .collect();
        out.push_str(&cells.join(" "));
    }
    out
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[test]
fn a_whole_game_against_itself_follows_the_rules_and_ends_with_the_disc_count() {
    let mut gtp = session(BookChoice::Default);
    assert_eq!(ok(&mut gtp, "boardsize 8"), "");
    assert_eq!(ok(&mut gtp, "clear_board"), "");
    assert_eq!(ok(&mut gtp, "gogui-rules_game_id"), "Othello");
    assert_eq!(ok(&mut gtp, "gogui-rules_board_size"), "8");
    let mut position = Position::start();
    let mut plies = 0;
    loop {
        // The GTP view of the position is the board's.
        let legal = ok(&mut gtp, "gogui-rules_legal_moves");
        let expected = legal_vertices(&position);
        assert_eq!(legal, expected.join(" "), "after {plies} plies");
        assert_eq!(ok(&mut gtp, "gogui-rules_board"), rules_board(&position));
        if expected.is_empty() {
            break;
        }
        assert_eq!(ok(&mut gtp, "gogui-rules_final_result"), "unknown");
        assert!(gtp.execute("final_score").unwrap().result.is_err());
        let side = ok(&mut gtp, "gogui-rules_side_to_move");
        assert_eq!(side, color_word(position.side));
        // Even plies: the engine's move; odd plies: a legal move given with `play`.
        let mv = if plies % 2 == 0 {
            ok(&mut gtp, &format!("genmove {side}"))
        } else {
            let mv = expected[(plies * 7) % expected.len()].clone();
            assert_eq!(ok(&mut gtp, &format!("play {side} {mv}")), "");
            mv
        };
        assert!(
            expected.contains(&mv.to_string()),
            "{mv} is not among the legal {expected:?}"
        );
        let parsed = if mv == "pass" {
            Move::Pass
        } else {
            Move::Place(mv.to_ascii_lowercase().parse().unwrap())
        };
        position = position.try_play(parsed).unwrap();
        plies += 1;
        assert!(plies <= 120, "the game does not end");
    }
    assert!(plies >= 9, "a real game: {plies} plies");
    // The final result is the final disc count, empties to the winner.
    let (black, white) = position.black_white();
    let (b, w) = (black.count_ones() as i32, white.count_ones() as i32);
    let empties = 64 - b - w;
    let score = match b.cmp(&w) {
        std::cmp::Ordering::Greater => b - w + empties,
        std::cmp::Ordering::Less => b - w - empties,
        std::cmp::Ordering::Equal => 0,
    };
    let expected = match score {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    };
    assert_eq!(ok(&mut gtp, "gogui-rules_final_result"), expected);
    // No move is generated or played in a finished game, whichever colour asks, and the
    // refusal says why (not "wrong color"); nothing changes.
    let board = ok(&mut gtp, "gogui-rules_board");
    for line in [
        "genmove black",
        "genmove white",
        "play black pass",
        "play white pass",
    ] {
        let refusal = gtp.execute(line).unwrap().result.expect_err(line);
        assert_eq!(refusal, "the game is over", "{line}");
    }
    assert_eq!(ok(&mut gtp, "gogui-rules_board"), board);
}

#[test]
fn malformed_commands_are_refused_and_change_nothing() {
    let mut gtp = session(BookChoice::Off);
    ok(&mut gtp, "play b f5");
    ok(&mut gtp, "play w f6");
    let state = |gtp: &mut Gtp| {
        (
            ok(gtp, "showboard"),
            ok(gtp, "gogui-rules_board"),
            ok(gtp, "gogui-rules_side_to_move"),
            ok(gtp, "gogui-rules_legal_moves"),
        )
    };
    let before = state(&mut gtp);
    let bad = [
        "foo",
        "play",
        "play b",
        "play b e6 extra",
        "play x e6",
        "play b z9",
        "play b i3",
        "play b a1",
        "play w e6",
        "play b pass",
        "play b e66",
        "genmove",
        "genmove purple",
        "genmove w",
        "boardsize 19",
        "boardsize eight",
        "komi much",
        "time_settings 1 2",
        "time_left b -5 0",
        "known_command",
        "name extra",
        "99999999999 name",
        "12",
        "PLAY b e6",
        "othello-level",
        "othello-level 0",
        "othello-level 61",
        "othello-level x",
        "othello-level 3 4",
        "set_game",
        "set_game Go",
        "list_games extra",
    ];
    assert!(bad.len() >= 20);
    let level_before = gtp.engine().level();
    for line in bad {
        let response = gtp.execute(line).expect("a response");
        assert!(response.result.is_err(), "{line:?} accepted");
        let text = response.to_string();
        assert!(text.starts_with('?'), "{line:?}: {text:?}");
        assert!(text.ends_with("\n\n"), "{line:?}: {text:?}");
        assert!(!response.quit);
        assert_eq!(state(&mut gtp), before, "{line:?} changed the game");
        assert_eq!(
            gtp.engine().level(),
            level_before,
            "{line:?} changed the level"
        );
    }
    let refusal = gtp.execute("othello-level 0").unwrap().result.unwrap_err();
    assert!(refusal.contains("from 1 to 60"), "{refusal}");
    // An id is echoed on errors and on success.
    assert!(gtp.execute("7 foo").unwrap().to_string().starts_with("?7 "));
    assert_eq!(
        gtp.execute("8 protocol_version").unwrap().to_string(),
        "=8 2\n\n"
    );
    // Blank lines and comments get no response.
    assert_eq!(gtp.execute(""), None);
    assert_eq!(gtp.execute("   \t "), None);
    assert_eq!(gtp.execute("# just a comment"), None);
    // Undo with nothing to undo is refused; after moves it takes the last one back.
    ok(&mut gtp, "undo");
    ok(&mut gtp, "undo");
    assert!(gtp.execute("undo").unwrap().result.is_err());
    assert_eq!(ok(&mut gtp, "gogui-rules_legal_moves"), "D3 C4 F5 E6");
    // known_command and list_commands agree.
    for command in ok(&mut gtp, "list_commands").lines() {
        assert_eq!(ok(&mut gtp, &format!("known_command {command}")), "true");
    }
    assert_eq!(ok(&mut gtp, "known_command foo"), "false");
    // Quarry's game selection: one game, chosen without touching the position.
    assert_eq!(ok(&mut gtp, "list_games"), "Othello");
    let before = state(&mut gtp);
    ok(&mut gtp, "set_game Othello");
    assert_eq!(state(&mut gtp), before);
}

#[test]
fn a_colour_whose_opponent_must_pass_plays_after_an_implicit_pass() {
    // White has no move here (nothing to flank beyond a1); Black has d1.
    let mut gtp = session(BookChoice::Off);
    let position: Position = format!("XOO{} O", "-".repeat(61)).parse().unwrap();
    gtp.engine().set_game(othello::game::Game::new(position));
    assert_eq!(ok(&mut gtp, "gogui-rules_side_to_move"), "white");
    assert_eq!(ok(&mut gtp, "gogui-rules_legal_moves"), "pass");
    assert_eq!(ok(&mut gtp, "play black d1"), "");
    assert_eq!(ok(&mut gtp, "gogui-rules_final_result"), "B+64");
    // GTP's final_score, which GRhino and GoGui ask at the end, says the same.
    assert_eq!(ok(&mut gtp, "final_score"), "B+64");
    // Undo takes back the move and the pass before it.
    ok(&mut gtp, "undo");
    assert_eq!(ok(&mut gtp, "gogui-rules_side_to_move"), "white");
    assert_eq!(ok(&mut gtp, "genmove white"), "pass");
    assert_eq!(ok(&mut gtp, "genmove black"), "D1");
    // showboard marks legal moves `+`, as `othello play` does (`*` is Black in board strings).
    ok(&mut gtp, "clear_board");
    let board = ok(&mut gtp, "showboard");
    assert_eq!(board.matches('+').count(), 4, "{board}");
    assert!(!board.contains('*'), "{board}");
}

/// `othello-level N` plays at level N: its depth, legal moves, and a finished game at level 1
/// takes no time to speak of.
#[test]
fn othello_level_sets_the_engine_s_level_and_it_plays_legal_moves() {
    let mut gtp = session(BookChoice::Off);
    assert_eq!(ok(&mut gtp, "othello-level 2"), "");
    let level = gtp.engine().level().expect("a level");
    assert_eq!((level.number(), gtp.engine().depth()), (2, Some(2)));
    ok(&mut gtp, "othello-level 1");
    let started = std::time::Instant::now();
    loop {
        let position = gtp.engine().game().position();
        if position.board.is_game_over() {
            break;
        }
        let legal = legal_vertices(&position);
        let mv = ok(&mut gtp, &format!("genmove {}", color_word(position.side)));
        assert!(legal.contains(&mv), "{mv} not in {legal:?}");
    }
    assert_ne!(ok(&mut gtp, "gogui-rules_final_result"), "unknown");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// `--level` on the command line: a bad one stops the program with the reason, a good one
/// plays.
#[test]
fn the_binary_takes_a_level_and_refuses_a_bad_one() {
    for bad in ["0", "61", "x"] {
        let output = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["gtp", "--level", bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!output.status.success(), "--level {bad} accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("from 1 to 60"), "{stderr}");
        assert!(output.stdout.is_empty());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["gtp", "--level", "2", "--book", "off", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 genmove b\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let mv = text
        .strip_prefix("=1 ")
        .and_then(|t| t.split("\n").next())
        .unwrap_or_else(|| panic!("{text:?}"));
    assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{text:?}");
}

#[test]
fn the_binary_speaks_gtp_on_stdin_and_stdout() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args([
            "gtp",
            "--book",
            "off",
            "--move-time",
            "0.05",
            "--threads",
            "1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the othello binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 protocol_version\n\nname\nplay b d3\n2 genmove w\nfoo\nquit\nname\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let responses: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 6, "{text:?}");
    assert_eq!(responses[0], "=1 2");
    assert_eq!(responses[1], "= othello");
    assert_eq!(responses[2], "= ");
    let reply = responses[3].strip_prefix("=2 ").expect(responses[3]);
    let after_d3 = Position::start()
        .try_play(Move::Place(othello::Square::D3))
        .unwrap();
    assert!(
        legal_vertices(&after_d3).contains(&reply.to_string()),
        "{reply}"
    );
    assert!(responses[4].starts_with("? unknown command"));
    assert_eq!(
        responses[5], "= ",
        "quit answers, and nothing after it is read"
    );
}
