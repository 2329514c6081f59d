//! `othello play` driven as a person would, with piped stdin: a game from `--moves` or from a
//! game file, undo and redo, a bad move, `help`, and colour (`NO_COLOR`, `CLICOLOR_FORCE`).
//! The opponent is PAIP's `maximizer:count`, which is deterministic, so the tests know its
//! replies.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use othello::board::{Board, Move, Position};
use othello::game::Game;
use othello::players::paip::{maximizer, PaipEval};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// `othello play ARGS` with `input` on stdin and `env` set (colour variables cleared first).
fn play(args: &[&str], input: &str, env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_othello"));
    command
        .arg("play")
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the othello binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    Run {
        ok: o.status.success(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn saved(path: &PathBuf) -> Game {
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn moves_of(game: &Game) -> Vec<Move> {
    game.moves().iter().map(|r| r.mv).collect()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn a_game_from_moves_is_played_to_the_end_and_saved() {
    let dir = scratch("moves");
    let ggf = dir.join("g.ggf");
    // After f5 d6 c3 the maximizer (White) moves; the person (Black) then always takes the
    // first legal move in square order, to the end of the game.
    let opening = ["f5", "d6", "c3"].map(mv);
    let mut board = Board::start();
    for m in opening {
        board = board.try_play_move(m).unwrap();
    }
    let (mut script, mut expected) = (String::new(), opening.to_vec());
    let mut black = false;
    while !board.is_game_over() {
        let m = if black {
            let m = board.legal_moves().next().map_or(Move::Pass, Move::Place);
            script.push_str(&format!(
                "{}\n",
                if m == Move::Pass {
                    "pass".to_string()
                } else {
                    m.to_string()
                }
            ));
            m
        } else {
            maximizer(&board, PaipEval::Count).map_or(Move::Pass, Move::Place)
        };
        board = board.try_play_move(m).unwrap();
        expected.push(m);
        black = !black;
    }
    script.push('\n'); // no review
    let r = play(
        &[
            "maximizer:count",
            "--moves",
            "f5 d6 c3",
            "--ggf",
            ggf.to_str().unwrap(),
        ],
        &script,
        &[],
    );
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("The game is over"), "{}", r.stdout);
    assert!(r.stdout.contains("O moves to"), "{}", r.stdout);
    assert!(
        r.stdout.contains("    a b c d e f g h   [X="),
        "{}",
        r.stdout
    );
    let game = saved(&ggf);
    // The record starts at the standard start and keeps the opening moves.
    assert_eq!(game.start(), Position::start());
    assert_eq!(moves_of(&game), expected);
    assert!(game.result.to_string() != "?", "{}", game.result);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undo_goes_back_to_the_persons_turn_and_redo_plays_it_again() {
    let dir = scratch("undo");
    let ggf = dir.join("g.ggf");
    let args = ["maximizer:count", "--ggf", ggf.to_str().unwrap()];
    let r = play(&args, "d3\nundo\nredo\nquit\n", &[]);
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout.contains("undone: back to your move"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("redone: d3 "), "{}", r.stdout);
    let after_redo = moves_of(&saved(&ggf));
    assert_eq!(after_redo.len(), 2);
    assert_eq!(after_redo[0], mv("d3"));
    // Undo, then another move: the reply is the maximizer's to that move.
    let r = play(&args, "d3\nundo\nf5\nredo\nquit\n", &[]);
    assert!(r.stdout.contains("nothing to redo"), "{}", r.stdout);
    let moves = moves_of(&saved(&ggf));
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0], mv("f5"));
    // The board before the person's move marks the reply, in brackets.
    let reply = match moves[1] {
        Move::Place(sq) => sq,
        Move::Pass => panic!("no pass after f5"),
    };
    let row = r
        .stdout
        .lines()
        .rev()
        .find(|l| l.starts_with(&format!("  {} ", reply.row() + 1)))
        .unwrap();
    assert!(row.contains("[O]"), "{row}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_move_is_a_clear_message_and_changes_nothing() {
    let dir = scratch("bad");
    let ggf = dir.join("g.ggf");
    let r = play(
        &["maximizer:count", "--ggf", ggf.to_str().unwrap()],
        "a1\nzz\npass\nundo\nquit\n",
        &[],
    );
    assert!(r.ok, "{}", r.stderr);
    for message in [
        "illegal move: A1 is illegal for Black: a1 flips no disc",
        "\"zz\" is not a move or a command: type a square like f5, or help for the commands",
        "you cannot pass: you can play d3 c4 f5 e6",
        "nothing to undo",
    ] {
        assert!(r.stdout.contains(message), "{message}: {}", r.stdout);
    }
    assert!(moves_of(&saved(&ggf)).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_lists_the_commands() {
    let dir = scratch("help");
    let ggf = dir.join("g.ggf");
    let r = play(
        &["maximizer:count", "--ggf", ggf.to_str().unwrap()],
        "help\nquit\n",
        &[],
    );
    assert!(r.ok, "{}", r.stderr);
    for line in [
        "  undo      take back your last move and the replies to it",
        "  redo      play again what undo took back",
        "  hint      ",
        "  analyse   ",
        "  quit      stop; the unfinished game is saved",
    ] {
        assert!(r.stdout.contains(line), "{line:?}: {}", r.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn colour_only_when_asked_and_never_with_no_color() {
    let dir = scratch("colour");
    let ggf = dir.join("g.ggf");
    let args = ["maximizer:count", "--ggf", ggf.to_str().unwrap()];
    // stdout is a pipe: no colour.
    let r = play(&args, "quit\n", &[]);
    assert!(!r.stdout.contains('\x1b'), "{}", r.stdout);
    // CLICOLOR_FORCE asks for it anyway.
    let r = play(&args, "quit\n", &[("CLICOLOR_FORCE", "1")]);
    assert!(r.stdout.contains("\x1b[1;31mX\x1b[0m"), "{}", r.stdout);
    // NO_COLOR wins.
    let r = play(
        &args,
        "quit\n",
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(!r.stdout.contains('\x1b'), "{}", r.stdout);
    assert!(r.stdout.contains("  4 . . + O X . . . "), "{}", r.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_file_is_a_start_its_first_moves_too() {
    let dir = scratch("file");
    let ggf = dir.join("g.ggf");
    let transcript = dir.join("games.txt");
    std::fs::write(&transcript, "f5d6c3d3c4\nf5f6e6f4\n").unwrap();
    let t = transcript.to_str().unwrap();
    let g = ggf.to_str().unwrap();
    // Game 2, its first three moves: the maximizer (White) replies, then the person quits.
    let args = [
        "maximizer:count",
        "--file",
        t,
        "--game",
        "2",
        "--after",
        "3",
        "--ggf",
        g,
    ];
    let r = play(&args, "quit\n", &[]);
    assert!(r.ok, "{}", r.stderr);
    let moves = moves_of(&saved(&ggf));
    assert_eq!(moves[..3], ["f5", "f6", "e6"].map(mv));
    assert_eq!(moves.len(), 4);
    // A GGF game keeps its own start: the one just saved, started from a board string.
    let board = "---------------------------OX------XO--------------------------- O";
    let from_board = dir.join("b.ggf");
    let b = from_board.to_str().unwrap();
    let r = play(
        &["maximizer:count", "--board", board, "--ggf", b],
        "quit\n",
        &[],
    );
    assert!(r.ok, "{}", r.stderr);
    let r = play(&["maximizer:count", "--file", b, "--ggf", g], "quit\n", &[]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(saved(&ggf).start(), board.parse::<Position>().unwrap());
    // Games and moves the file does not have are clear errors.
    for (extra, why) in [
        (["--game", "3"], "no game 3: the file has 2 games"),
        (["--after", "9"], "--after 9, but the game has 5 moves"),
    ] {
        let mut args = vec!["maximizer:count", "--file", t, "--ggf", g];
        args.extend(extra);
        let r = play(&args, "quit\n", &[]);
        assert!(!r.ok);
        assert!(r.stderr.contains(why), "{why}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
