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
        &["solve", "tests/data/fforum-1-19.obf", "--count", "0"][..],
        &["solve", "tests/data/fforum-1-19.obf", "--count", "x"][..],
        &["quality", "tests/data/quality-30.obf"][..],
        &["quality", "/nonexistent/file.obf", "--depth", "2"][..],
        &["quality", "tests/data/perft.txt", "--depth", "2"][..],
        &[
            "quality",
            "tests/data/quality-30.obf",
            "--depth",
            "2",
            "--count",
            "0",
        ][..],
        &["quality", "tests/data/quality-30.obf", "--depth", "x"][..],
        &["quality", "tests/data/quality-30.obf", "--time", "0"][..],
        &["quality", "tests/data/quality-30.obf", "--nodes", "-5"][..],
        &["search", "--time", "-1"][..],
        &["search", "--depth", "99"][..],
        &["no-such-command"][..],
        &["centre", "/nonexistent/weights.bin", "--out", "/tmp/x.bin"][..],
        &["centre", "weights/pattern-v3.bin"][..],
        &[
            "centre",
            "weights/pattern-v3.bin",
            "--out",
            "/tmp/x.bin",
            "--depths",
            "9",
        ][..],
        &[
            "centre",
            "weights/pattern-v3.bin",
            "--out",
            "/tmp/x.bin",
            "--depths",
            "9-3",
        ][..],
        &[
            "centre",
            "weights/pattern-v3.bin",
            "--out",
            "/tmp/x.bin",
            "--full-from",
            "20",
        ][..],
        &[
            "centre",
            "weights/pattern-v3.bin",
            "--out",
            "/tmp/x.bin",
            "--tempo",
            "--tempo-depths",
            "9-3",
        ][..],
        &[
            "centre",
            "weights/pattern-v3.bin",
            "--out",
            "/tmp/x.bin",
            "--tempo",
            "--tempo-positions",
            "0",
        ][..],
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
    // The American spelling is an alias.
    assert!(othello(&["center", "--help"]).status.success());
    std::fs::remove_dir_all(&dir).ok();
}

/// A file may list one best move of several (`tests/data/exact-24.obf` gives "a best move and
/// the exact value"): a solve that picks another move of the same score is right, in the
/// table and in the JSON stream, and a wrong listed score is still a mismatch.
#[test]
fn solve_accepts_an_unlisted_best_move_of_the_listed_score() {
    let dir = std::env::temp_dir().join(format!("othello-cli-tie-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 11 empties, O to move: h1, a2 and h4 all give +6 (a5 +4, b1 -4); each line lists one.
    let board = "--XXXX----XOOX-XOXOOOOXOXXXXXXO--XOXXOOXOOXOOXOO-OOXOOOO-OXXXXXX O";
    let ties = dir.join("ties.obf");
    let text: String = ["H1", "A2", "H4"]
        .iter()
        .map(|m| format!("{board}; {m}:+6;\n"))
        .collect();
    std::fs::write(&ties, &text).unwrap();
    let o = othello(&["solve", ties.to_str().unwrap(), "--threads", "1"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(out.matches(" ok ").count(), 3, "{out}");
    assert!(out.contains("total: 3 positions, 0 mismatches"), "{out}");
    let o = othello(&["solve", ties.to_str().unwrap(), "--threads", "1", "--jsonl"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(
        stdout(&o).matches("\"match\":true").count(),
        3,
        "{}",
        stdout(&o)
    );
    // A wrong score stays wrong, whichever move the line names.
    let wrong = dir.join("wrong.obf");
    std::fs::write(&wrong, format!("{board}; A2:+4;\n{board}; A5:+6;\n")).unwrap();
    let o = othello(&["solve", wrong.to_str().unwrap(), "--threads", "1"]);
    let out = stdout(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("total: 2 positions, 1 mismatches"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_count_takes_the_first_positions_of_the_file() {
    let o = othello(&["solve", "tests/data/fforum-1-19.obf", "--count", "2"]);
    assert!(o.status.success());
    let out = stdout(&o);
    // FFO #1 and #2 only (number, empties, move, score, match), then the totals.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().take(5).collect())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!(rows[0], ["1", "14", "g8", "+18", "ok"], "{out}");
    assert_eq!(rows[1], ["2", "14", "a4", "+10", "ok"], "{out}");
    assert_eq!(
        rows[2],
        ["total:", "2", "positions,", "0", "mismatches,"],
        "{out}"
    );
}

/// `--only` picks positions by their number (as `--first` numbers them): ranges and lists,
/// each row labelled with its own number and solved to its own score; numbers the file does
/// not have, empty ranges and `--only` with `--count` are errors.
#[test]
fn solve_only_picks_positions_by_number() {
    let o = othello(&["solve", "tests/data/fforum-1-19.obf", "--only", "3..4,7"]);
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().take(5).collect())
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert_eq!(rows[0], ["3", "14", "d1", "+2", "ok"], "{out}");
    assert_eq!(rows[1][..2], ["4", "14"], "{out}");
    assert_eq!(rows[1][3..], ["+0", "ok"], "{out}");
    assert_eq!(rows[2], ["7", "14", "a6", "+8", "ok"], "{out}");
    // FFO #40 by its own number, from the file that starts at #40.
    let args = [
        "solve",
        "tests/data/fforum-40-59.obf",
        "--first",
        "40",
        "--only",
        "40",
    ];
    let o = othello(&args);
    assert!(o.status.success(), "{o:?}");
    let row: Vec<String> = stdout(&o)
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .take(5)
        .map(String::from)
        .collect();
    assert_eq!(row, ["40", "20", "a2", "+38", "ok"]);
    for (only, want) in [
        ("25", "numbered 1 to 19"),
        ("4..3", "the range is empty"),
        ("x", "is not a position number"),
    ] {
        let o = othello(&["solve", "tests/data/fforum-1-19.obf", "--only", only]);
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{only}: {err}");
    }
    let o = othello(&[
        "solve",
        "tests/data/fforum-1-19.obf",
        "--only",
        "3",
        "--count",
        "2",
    ]);
    assert!(!o.status.success());
}

/// A solve of one position (`--board`, `--moves`) prints every iteration to stderr as it
/// finishes, as Edax does: the presearch's midgame depths, the selective passes (`20@73%`),
/// the exact one (`20@100%`), each with value, move, nodes and time; `--quiet` silences them.
#[test]
fn a_single_solve_prints_its_iterations_to_stderr() {
    let text = std::fs::read_to_string("tests/data/fforum-40-59.obf").unwrap();
    let board = &text.lines().next().unwrap()[..66];
    let o = othello(&["solve", "--board", board, "--threads", "1"]);
    assert!(o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0]
            .split_whitespace()
            .eq(["depth", "value", "move", "nodes", "seconds", "nodes/s", "pv"]),
        "{err}"
    );
    assert!(
        lines.iter().any(|l| l.trim_start().starts_with("6 ")),
        "a presearch depth: {err}"
    );
    assert!(
        lines.iter().any(|l| l.trim_start().starts_with("20@73%")),
        "{err}"
    );
    let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(last[..3], ["20@100%", "+38", "a2"], "{err}");
    assert!(stdout(&o).contains(" a2 "));
    let o = othello(&["solve", "--board", board, "--threads", "1", "--quiet"]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A table of a file prints no iterations.
    let o = othello(&["solve", "tests/data/fforum-1-19.obf", "--count", "1"]);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `search --quiet` (`--summary`) prints only the result and the totals, with or without
/// --multipv; the odd/even swing is printed only with `--swing`; the help says that a search
/// with no limit runs until stopped.
#[test]
fn search_quiet_prints_the_summary_and_the_swing_only_when_asked() {
    let base = ["search", "--xot", "2", "--depth", "7", "--threads", "1"];
    let full = stdout(&othello(&base));
    assert!(
        full.lines().any(|l| l.trim_start().starts_with("depth")),
        "{full}"
    );
    assert!(!full.contains("odd/even"), "{full}");
    for quiet in ["--quiet", "--summary"] {
        let text = stdout(&othello(&[&base[..], &[quiet]].concat()));
        assert!(
            !text.lines().any(|l| l.trim_start().starts_with("depth")),
            "{text}"
        );
        assert_eq!(
            text.lines()
                .filter(|l| l.trim_start().starts_with("best "))
                .count(),
            2
        );
        assert!(text.contains("total: 2 positions"), "{text}");
        // The result is the same search's.
        let best = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.contains("best "))
                .map(String::from)
                .collect()
        };
        assert_eq!(best(&text), best(&full));
    }
    let swing = stdout(&othello(&[&base[..], &["--quiet", "--swing"]].concat()));
    assert!(
        swing.lines().last().unwrap().starts_with("odd/even swing"),
        "{swing}"
    );
    let lines = stdout(&othello(&[
        "search",
        "--moves",
        "f5d6c3d3c4",
        "--multipv",
        "2",
        "--depth",
        "4",
        "--quiet",
    ]));
    assert_eq!(lines.lines().count(), 4, "{lines}");
    assert!(lines.contains("  line 2 "), "{lines}");
    let help = stdout(&othello(&["search", "--help"]));
    assert!(
        help.contains("until stopped") || help.contains("until you stop it"),
        "{help}"
    );
}

/// `othello --help` lists the commands a player uses first (play, analyse/search, solve,
/// review, match), the training commands last, marked [dev]; `completions <shell>` prints a
/// completion script; `analyse` is `search`.
#[test]
fn help_lists_the_players_commands_first_and_completions_work() {
    let help = stdout(&othello(&["--help"]));
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        commands[..5],
        ["play", "serve", "search", "solve", "review"],
        "{help}"
    );
    let dev = [
        "label",
        "selfplay",
        "train",
        "eval-error",
        "centre",
        "calibrate",
    ];
    let first_dev = commands.iter().position(|c| dev.contains(c)).unwrap();
    assert!(
        commands[first_dev..]
            .iter()
            .all(|c| dev.contains(c) || *c == "help"),
        "{help}"
    );
    for line in help
        .lines()
        .filter(|l| dev.iter().any(|d| l.trim_start().starts_with(d)))
    {
        assert!(line.contains("[dev]"), "{line}");
    }
    assert!(help.contains("[alias: analyse]"), "{help}");
    let bash = othello(&["completions", "bash"]);
    assert!(bash.status.success());
    let script = stdout(&bash);
    assert!(
        script.contains("complete -F") && script.contains("othello"),
        "{script}"
    );
    assert!(script.contains("solve") && script.contains("--only"));
    let zsh = stdout(&othello(&["completions", "zsh"]));
    assert!(zsh.starts_with("#compdef othello"), "{zsh}");
    assert!(!othello(&["completions", "cmd.exe"]).status.success());
    let analyse = othello(&["analyse", "--depth", "3", "--quiet", "--threads", "1"]);
    assert!(stdout(&analyse).contains("best "));
}

#[test]
fn quality_count_scores_the_first_positions_against_the_file() {
    let file = "tests/data/quality-30.obf";
    let text = std::fs::read_to_string(file).unwrap();
    let entries = othello::obf::parse_obf(&text).unwrap();
    let o = othello(&["quality", file, "--depth", "2", "--count", "3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    // Rows: number, empties, move, its score, the best score, loss, value, depth, nodes, ms.
    let mut losses = Vec::new();
    for (i, (line, entry)) in lines[1..4].iter().zip(&entries).enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 10, "{out}");
        assert_eq!(f[..2], [(i + 1).to_string(), "30".to_string()], "{out}");
        let mv: othello::Move = f[2].parse().unwrap();
        let othello::Move::Place(sq) = mv else {
            panic!("{out}")
        };
        assert!(entry.position.board.is_legal(sq), "{out}");
        let score = entry.score_of(mv).unwrap();
        let best = entry.best_score().unwrap();
        assert_eq!(f[3], format!("{score:+}"), "{out}");
        assert_eq!(f[4], format!("{best:+}"), "{out}");
        assert_eq!(f[5], (best - score).to_string(), "{out}");
        assert!(f[6].parse::<f64>().unwrap().abs() <= 64.0, "{out}");
        assert_eq!(f[7], "2", "{out}");
        assert!(f[8].parse::<u64>().unwrap() > 0, "{out}");
        assert!(f[9].parse::<f64>().unwrap() >= 0.0, "{out}");
        losses.push(best - score);
    }
    let best_moves = losses.iter().filter(|&&l| l == 0).count();
    let mean = losses.iter().sum::<i32>() as f64 / 3.0;
    let totals = format!(
        "total: 3 positions, best move {:.1}% ({best_moves}/3), mean loss {mean:.2} discs,",
        100.0 * best_moves as f64 / 3.0
    );
    assert!(lines[4].starts_with(&totals), "{out}");

    // The global --eval-file applies: the hand-tuned evaluator searches other trees.
    let nodes = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("total"))
            .map(|l| l.split_whitespace().nth(8).unwrap().to_string())
            .collect()
    };
    let hand = othello(&[
        "quality",
        file,
        "--depth",
        "2",
        "--count",
        "3",
        "--eval-file",
        "hand",
    ]);
    assert!(hand.status.success());
    assert_eq!(nodes(&hand).len(), 3);
    assert_ne!(nodes(&hand), nodes(&o));
}

#[test]
fn quality_game_clock_alone_is_a_limit_and_a_long_one_solves() {
    // With ten minutes a side, the plan solves at 20 empties: every row is an exact solve
    // (depth 20) of a best move.
    let o = othello(&[
        "quality",
        "tests/data/hard-20.obf",
        "--game-clock",
        "600",
        "--count",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("total"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    for f in rows {
        assert_eq!((f[1], f[5], f[7]), ("20", "0", "20"), "{out}");
        // A solve's value is the exact best score.
        let value: f64 = f[6].parse().unwrap();
        assert_eq!(value, f[4].parse::<f64>().unwrap(), "{out}");
    }
}

#[test]
fn quality_without_a_limit_says_which_options_it_needs() {
    let o = othello(&["quality", "tests/data/quality-30.obf", "--count", "1"]);
    assert!(!o.status.success());
    assert!(stdout(&o).is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error"), "{err}");
    for option in ["--depth", "--time", "--nodes"] {
        assert!(err.contains(option), "{err}");
    }
}

#[test]
fn eval_file_is_checked_when_asked_for_and_falls_back_when_only_configured() {
    let dir = std::env::temp_dir().join(format!("othello-cli-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, vec![0u8; 100]).unwrap();
    let corrupt = corrupt.to_str().unwrap();
    let search = ["search", "--depth", "2"];

    // Asked for explicitly: a clear error and no search.
    for bad in [corrupt, "/nonexistent/weights.bin"] {
        let o = othello(&[&search[..], &["--eval-file", bad]].concat());
        assert!(!o.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("error: --eval-file"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(stdout(&o).is_empty());
    }

    // Only configured (environment): a warning, then the embedded evaluator.
    let default = othello(&search);
    assert!(default.status.success());
    let o = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(search)
        .env("OTHELLO_EVAL_FILE", corrupt)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("using the embedded network"));
    let values = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter_map(|l| l.split(" value ").nth(1))
            .map(|v| v.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    assert_eq!(values(&o), values(&default));

    // The hand-tuned evaluator searches to other values than the default.
    let hand = othello(&[&search[..], &["--eval-file", "hand"]].concat());
    assert!(hand.status.success());
    assert_ne!(values(&hand), values(&default));

    // The environment takes the option's words too: `hand` or `pattern` there is that
    // evaluator, not a file of that name (the same values as the option, and no warning;
    // `hand` searches to other values than the embedded network, checked above).
    for word in ["hand", "pattern"] {
        let explicit = othello(&[&search[..], &["--eval-file", word]].concat());
        let configured = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(search)
            .env("OTHELLO_EVAL_FILE", word)
            .env("RUST_LOG", "warn")
            .output()
            .unwrap();
        assert!(configured.status.success());
        let err = String::from_utf8_lossy(&configured.stderr);
        assert!(!err.contains("using the embedded network"), "{word}: {err}");
        assert_eq!(values(&configured), values(&explicit), "{word}");
    }
    // The American spelling is an alias.
    assert!(othello(&["center", "--help"]).status.success());
    std::fs::remove_dir_all(&dir).ok();
}

/// The moves of every game of a GGF file, without the dates, names and annotations (times).
fn ggf_moves(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|game| {
            game.split(']')
                .filter_map(|field| {
                    let (tag, value) = field.rsplit_once('[')?;
                    let tag = tag.trim_start_matches(|c: char| !c.is_ascii_uppercase());
                    matches!(tag, "B" | "W").then(|| value.split('/').next().unwrap().to_string())
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn match_players_take_the_configured_eval_file_too() {
    let dir = std::env::temp_dir().join(format!("othello-cli-match-env-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, vec![0u8; 100]).unwrap();
    let run = |name: &str, env: Option<&std::path::Path>, extra: &[&str]| {
        let ggf = dir.join(format!("{name}.ggf"));
        let mut c = Command::new(env!("CARGO_BIN_EXE_othello"));
        c.args([
            "match",
            "engine:level=4",
            "engine:level=5",
            "--pairs",
            "3",
            "--seed",
            "5",
        ])
        .args(["--quiet", "--ggf", ggf.to_str().unwrap()])
        .args(extra)
        .env_remove("OTHELLO_EVAL_FILE")
        .env("RUST_LOG", "warn");
        if let Some(file) = env {
            c.env("OTHELLO_EVAL_FILE", file);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (std::fs::read_to_string(&ggf).unwrap(), ggf_moves(&ggf), o)
    };
    let v1 = std::path::Path::new("weights/pattern-v1.bin");
    let (_, default, _) = run("default", None, &[]);
    let (_, explicit, _) = run("explicit", None, &["--eval-file", "weights/pattern-v1.bin"]);
    let (text, configured, _) = run("configured", Some(v1), &[]);
    // The players of a match take $OTHELLO_EVAL_FILE as they take --eval-file: the same games,
    // and other games than the embedded evaluator plays.
    assert_eq!(configured, explicit);
    assert_ne!(configured, default);
    assert!(text.contains("eval=weights/pattern-v1.bin"), "{text}");
    // An unusable configured file: a warning, and the embedded evaluator's games.
    let (_, fallback, o) = run("fallback", Some(&corrupt), &[]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("using the embedded network"));
    assert_eq!(fallback, default);
    std::fs::remove_dir_all(&dir).ok();
}

/// `othello centre weights/pattern-v1.bin --depths 6-9 EXTRA --out DIR/centred.bin` in a fresh
/// temporary directory named after `tag`, which must succeed: the directory, the output path
/// and the process output.
fn centre_v1_in_temp(tag: &str, extra: &[&str]) -> (std::path::PathBuf, String, Output) {
    let dir = std::env::temp_dir().join(format!("othello-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("centred.bin").to_str().unwrap().to_string();
    let args = [
        &["centre", "weights/pattern-v1.bin", "--depths", "6-9"][..],
        extra,
        &["--out", &out][..],
    ]
    .concat();
    let o = othello(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (dir, out, o)
}

#[test]
fn centre_tempo_takes_the_signed_odd_even_swing_out_and_notes_it_in_the_file() {
    // pattern-v1 has the largest odd/even swing of the shipped files (about 3 discs).
    let (dir, out, o) = centre_v1_in_temp(
        "tempo",
        &["--tempo", "--tempo-positions", "8", "--tempo-depths", "3-8"],
    );
    let out = out.as_str();
    let text = stdout(&o);
    let swings: Vec<f64> = text
        .lines()
        .filter_map(|l| l.split("signed odd/even swing ").nth(1))
        .map(|v| v.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(swings.len() >= 2, "{text}");
    assert!(swings[0].abs() > 0.5, "{text}");
    assert!(
        swings.last().unwrap().abs() < swings[0].abs() / 4.0,
        "{text}"
    );
    // The colour centring follows, on the balanced weights.
    assert!(text.contains("start position"), "{text}");
    let wrote = text.lines().last().unwrap();
    let tempo: f64 = wrote
        .split("tempo ")
        .nth(1)
        .and_then(|v| v.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("{wrote}"));
    // Minus half the first swing, to within what the later rounds added.
    assert!((tempo + swings[0] / 2.0).abs() < 0.5, "{text}");
    let meta = std::fs::read(out).unwrap();
    assert!(
        String::from_utf8_lossy(&meta).contains("tempo: both parity weights moved by"),
        "the file's description notes the shift"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn centre_writes_weights_whose_start_searches_average_zero_and_keeps_the_model() {
    let (dir, out, o) = centre_v1_in_temp("center", &[]);
    let out = out.as_str();
    let text = stdout(&o);
    let levels: Vec<f64> = text
        .lines()
        .filter_map(|l| l.split("start position ").nth(1))
        .map(|v| v.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(levels.len() >= 2, "{text}");
    assert!(levels.last().unwrap().abs() < levels[0].abs(), "{text}");
    // The model of the input is copied beside the output.
    assert_eq!(
        std::fs::read_to_string(dir.join("centred.mpc")).unwrap(),
        std::fs::read_to_string("weights/pattern-v1.mpc").unwrap()
    );
    // The written file's start position, searched over the same depths, is at the last level.
    let s = othello(&[
        "--eval-file",
        out,
        "search",
        "--depth",
        "9",
        "--threads",
        "1",
    ]);
    let values: Vec<f64> = stdout(&s)
        .lines()
        .filter(|l| l.trim_start().starts_with("depth"))
        .filter_map(|l| l.split(" value ").nth(1))
        .map(|v| v.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    let mean = values[5..].iter().sum::<f64>() / values[5..].len() as f64;
    assert!(
        (mean - levels.last().unwrap()).abs() < 0.01,
        "{mean} {text}"
    );
    // The American spelling is an alias.
    assert!(othello(&["center", "--help"]).status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_probable_solve_reports_how_often_it_was_right_and_refuses_what_it_cannot_do() {
    let file = format!("{}/tests/data/hard-20.obf", env!("CARGO_MANIFEST_DIR"));
    let o = othello(&[
        "solve",
        &file,
        "--count",
        "3",
        "--threads",
        "1",
        "--selectivity",
        "87",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.starts_with("probable solves at 87%:"))
        .unwrap_or_else(|| panic!("{out}"));
    // The count of rows marked ok is the count the summary gives.
    let ok = out.lines().filter(|l| l.contains(" ok ")).count();
    assert!(line.contains(&format!(": {ok} of 3 right")), "{out}");
    for bad in [
        vec!["--selectivity", "99"],
        vec!["--selectivity", "58"],
        vec!["--selectivity", "73", "--wld"],
        vec!["--selectivity", "73", "--multipv", "2"],
    ] {
        let mut args = vec!["solve", file.as_str()];
        args.extend(bad.iter().copied());
        let o = othello(&args);
        assert!(!o.status.success(), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--selectivity"),
            "{bad:?}"
        );
    }
}

/// The counts column of `perft` output, and the `best` line of `search` output: what does not
/// depend on the clock.
fn perft_counts(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn moves_name_the_position_they_reach() {
    // After f5 d6 c3 d3 c4, White to move (the position checked by hand in the README).
    let board = "------------------XO------XXX------OXX-----O-------------------- O";
    let by_board = othello(&["perft", "3", "--board", board]);
    let by_moves = othello(&["perft", "3", "--moves", "f5d6c3d3c4"]);
    assert!(by_moves.status.success(), "{by_moves:?}");
    assert_eq!(perft_counts(&by_moves), perft_counts(&by_board));
    assert_eq!(perft_counts(&by_moves)[0], "1 6");
    // Upper case and the book's spelling are the same moves.
    let upper = othello(&["perft", "3", "--moves", "F5D6C3D3C4"]);
    assert_eq!(perft_counts(&upper), perft_counts(&by_board));
    let best = |o: &Output| {
        stdout(o)
            .lines()
            .find(|l| l.trim_start().starts_with("best "))
            .map(str::to_string)
    };
    let args = ["search", "--depth", "6", "--threads", "1"];
    let s_board = othello(&[&args[..], &["--board", board]].concat());
    let s_moves = othello(&[&args[..], &["--moves", "f5d6c3d3c4"]].concat());
    assert!(s_moves.status.success(), "{s_moves:?}");
    assert_eq!(best(&s_moves), best(&s_board));
    assert!(best(&s_moves).is_some());
    // Bad move lists are clap errors (exit 2) that name the move and why.
    for (moves, why) in [
        ("f5d6c", "two characters"),
        ("f5f5", "move 2 (f5)"),
        ("f5z9", "move 2"),
        ("f5d6\u{e9}", "two characters"),
    ] {
        let o = othello(&["perft", "2", "--moves", moves]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{moves}: {err}");
        assert!(err.contains(why), "{moves}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // --moves and --board together are refused.
    let o = othello(&["perft", "2", "--moves", "f5", "--board", board]);
    assert_eq!(o.status.code(), Some(2));
    // The book's `show` takes the same argument.
    let o = othello(&["book", "show", "default", "--moves", "f5d6c3d3c4"]);
    assert!(o.status.success(), "{o:?}");
    assert!(
        stdout(&o).lines().any(|l| l.starts_with("f4 ")),
        "{}",
        stdout(&o)
    );
}

/// `--level`: outside 1-60 or not a number it stops the program with the reason, and `play`
/// refuses it for an opponent that is not the engine, or one with a depth of its own.
#[test]
fn bad_levels_and_levels_for_other_players_are_refused() {
    for args in [
        &["nboard", "--level", "0"][..],
        &["gtp", "--level", "61"],
        &["play", "--level", "x"],
    ] {
        let o = othello(args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("expected a whole number from 1 to 60"),
            "{args:?}: {err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    for (opponent, reason) in [
        ("iago:2", "is not the engine"),
        ("engine:depth=3", "has a depth or time of its own"),
    ] {
        let o = othello(&["play", opponent, "--level", "3"]);
        assert!(!o.status.success(), "{opponent}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(reason), "{opponent}: {err}");
    }
}

// A reader that stops early (`othello completions bash | head`): the script (86 KB, more than
// a pipe holds) ends in a broken pipe, which ends the program quietly, not in a panic.
#[test]
fn completions_into_a_pipe_closed_early_end_quietly() {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["completions", "bash"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.status.code().is_some(),
        "killed by a signal: {:?}",
        out.status
    );
}

/// The seconds each side's moves took in one GGF game line, Black's then White's.
fn ggf_side_seconds(game: &str) -> [f64; 2] {
    let mut sums = [0.0; 2];
    for field in game.split(']') {
        let Some((tag, value)) = field.rsplit_once('[') else {
            continue;
        };
        let side = match tag.trim_start_matches(|c: char| !c.is_ascii_uppercase()) {
            "B" => 0,
            "W" => 1,
            _ => continue,
        };
        if let Some(s) = value.split('/').nth(2) {
            sums[side] += s.parse::<f64>().unwrap_or(0.0);
        }
    }
    sums
}

#[test]
fn a_time_odds_match_gives_b_its_own_clock() {
    let dir = std::env::temp_dir().join(format!("othello-cli-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ggf = dir.join("odds.ggf");
    let o = othello(&[
        "match",
        "engine:book=off",
        "engine:book=off",
        "--pairs",
        "1",
        "--time",
        "0.5",
        "--time-b",
        "3",
        "--quiet",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(summary.contains("time odds: A 0.5 s, B 3 s"), "{summary}");
    let text = std::fs::read_to_string(&ggf).unwrap();
    let games: Vec<&str> = text.lines().collect();
    assert_eq!(games.len(), 2, "{text}");
    // A is Black in the first game and White in the second; each side's clock is its own,
    // and B, with six times the clock, takes more of it.
    for (game, a) in games.iter().zip([0, 1]) {
        let (tb, tw) = if a == 0 { ("0.5", "3") } else { ("3", "0.5") };
        assert!(game.contains(&format!("TB[{tb}//")), "{game}");
        assert!(game.contains(&format!("TW[{tw}//")), "{game}");
        let seconds = ggf_side_seconds(game);
        assert!(seconds[a] <= 0.5 + 0.1, "{game}");
        assert!(seconds[1 - a] > seconds[a], "{game}");
    }
    // Without --time there is no clock to give odds on.
    let bad = othello(&["match", "engine", "engine", "--time-b", "3"]);
    assert!(!bad.status.success());
    std::fs::remove_dir_all(&dir).ok();
}
