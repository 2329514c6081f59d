//! The binary's batch commands, run as a user would: output, exit status, error messages.

use std::process::{Command, Output};

fn othello(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .output()
        .expect("the othello binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn perft_prints_the_published_counts() {
    let o = othello(&["perft", "6"]);
    assert!(o.status.success());
    let counts: Vec<u64> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, othello::perft::START_PERFT[1..=6]);
}

#[test]
fn perft_takes_any_board() {
    // White to move in the start position's colours: the same four moves by symmetry.
    let o = othello(&[
        "perft",
        "2",
        "--board",
        "---------------------------OX------XO--------------------------- O",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).lines().nth(2).unwrap().contains(" 12 "));
}

#[test]
fn bad_arguments_are_clear_errors_not_panics() {
    for args in [
        &["perft", "x"][..],
        &["perft", "3", "--board", "XO?"][..],
        &["solve"][..],
        &["solve", "/nonexistent/file.obf"][..],
        &["solve", "tests/data/perft.txt"][..],
        &["search", "--time", "-1"][..],
        &["search", "--depth", "99"][..],
        &["no-such-command"][..],
    ] {
        let o = othello(args);
        assert!(!o.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn solve_checks_the_file_and_fails_on_a_wrong_score() {
    let dir = std::env::temp_dir().join(format!("othello-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // FFO #1 (14 empties, +18 by g8), once as published and once with a wrong score.
    let line = std::fs::read_to_string("tests/data/fforum-1-19.obf").unwrap();
    let first = line.lines().next().unwrap();
    let good = dir.join("good.obf");
    let bad = dir.join("bad.obf");
    std::fs::write(&good, format!("{first}\n")).unwrap();
    std::fs::write(&bad, format!("{}\n", first.replace("G8:+18", "G8:+20"))).unwrap();

    let o = othello(&["solve", good.to_str().unwrap()]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains(" g8 ") && out.contains("+18") && out.contains(" ok "),
        "{out}"
    );
    assert!(out.contains("total: 1 positions, 0 mismatches"), "{out}");

    let o = othello(&["solve", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stdout(&o).contains("WRONG"));
    std::fs::remove_dir_all(&dir).ok();
}
