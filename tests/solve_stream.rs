//! `othello solve -` and `othello solve FILE --jsonl`, the batch solver as a stream: every
//! output line is one JSON object (read by serde_json) with the documented fields, scores equal the FForum
//! file's, bad lines are answered in place and processing goes on, the order is the input's,
//! a line is answered before the next is read, and an input split in two and run as two
//! processes gives the same answers as one process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use othello::board::Move;
use othello::obf::{parse_obf, ObfEntry};
use serde_json::Value;

/// FFO #1-#19: 14 to 16 empties, solved in milliseconds.
const FFORUM: &str = "tests/data/fforum-1-19.obf";

/// The fields of a solved position, sorted; `expected` and `match` come with listed scores.
const FIELDS: [&str; 12] = [
    "best",
    "board",
    "depth",
    "empties",
    "line",
    "nodes",
    "pv",
    "result",
    "score",
    "selectivity",
    "time",
    "wld",
];

fn fforum() -> (Vec<String>, Vec<ObfEntry>) {
    let text = std::fs::read_to_string(FFORUM).unwrap();
    let lines = text.lines().map(str::to_string).collect();
    (lines, parse_obf(&text).unwrap())
}

/// Runs `othello solve <args>` with `input` on stdin.
fn solve(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("solve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the othello binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the answers fill the stdout pipe while the input is still going in.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

/// Every stdout line, parsed.
fn answers(o: &Output) -> Vec<Value> {
    let text = std::str::from_utf8(&o.stdout).expect("UTF-8 output");
    assert!(text.is_empty() || text.ends_with('\n'), "{text}");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The keys of an object, sorted.
fn keys(j: &Value) -> Vec<&str> {
    let map = j
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {j}"));
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// An answer without the fields that vary from run to run (nodes and time).
fn stable(answer: &Value) -> Value {
    let mut kept = answer
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {answer}"))
        .clone();
    kept.remove("nodes");
    kept.remove("time");
    Value::Object(kept)
}

#[test]
fn every_line_is_answered_in_order_with_the_files_scores() {
    let (lines, entries) = fforum();
    // Line 3 has scores, line 4 is a bare board string, then a bad board, bytes that are not
    // UTF-8, a comment, a position whose side must pass, and one more OBF line.
    let pass = format!("XO{} O", "-".repeat(62));
    let board_only = entries[1].position.to_board_string();
    let before = format!(
        "# FFO #1-#3\n\n{}\n{board_only}\n{}\n",
        lines[0],
        "X".repeat(20)
    );
    let after = format!("  % comment\n{pass}\n{}\n", lines[2]);
    let bytes = [before.as_bytes(), b"\xff\xfe\n", after.as_bytes()].concat();
    let o = solve(&["-"], &bytes);
    let a = answers(&o);
    let numbers: Vec<u64> = a.iter().map(|j| j["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [3, 4, 5, 6, 8, 9]);

    for (j, entry, listed) in [(&a[0], &entries[0], true), (&a[5], &entries[2], true)]
        .into_iter()
        .chain([(&a[1], &entries[1], false)])
    {
        let mut keys = keys(j);
        if listed {
            keys.retain(|k| *k != "expected" && *k != "match");
            assert_eq!(j["match"].as_bool(), Some(true), "{j}");
            assert_eq!(
                j["expected"].as_i64(),
                Some(entry.best_score().unwrap().into())
            );
        } else {
            assert!(j.get("match").is_none() && j.get("expected").is_none());
        }
        assert_eq!(keys, FIELDS);
        let empties = u64::from(entry.position.board.empty_count());
        assert_eq!(
            j["board"].as_str(),
            Some(&*entry.position.to_board_string())
        );
        assert_eq!(j["empties"].as_u64(), Some(empties));
        assert_eq!(j["depth"].as_u64(), Some(empties));
        assert_eq!(j["selectivity"].as_u64(), Some(100));
        assert_eq!(j["wld"].as_bool(), Some(false));
        let score = j["score"].as_i64().unwrap() as i32;
        assert_eq!(score, entry.best_score().unwrap(), "{j}");
        assert_eq!(
            j["result"].as_str().unwrap(),
            ["loss", "draw", "win"][(score.signum() + 1) as usize]
        );
        let best: Move = j["best"].as_str().unwrap().parse().unwrap();
        assert!(entry.best_moves().contains(&best), "{j}");
        // The principal variation starts with the best move and plays out, legally, to a
        // finished game with the score.
        let pv = j["pv"].as_array().unwrap();
        assert_eq!(pv[0], j["best"]);
        let mut board = entry.position.board;
        for mv in pv {
            let mv: Move = mv.as_str().unwrap().parse().unwrap();
            board = board
                .try_play_move(mv)
                .unwrap_or_else(|e| panic!("{e}: {j}"));
        }
        assert!(board.is_game_over(), "{j}");
        // Passes are plies of the line, so its parity says whose view the final board has.
        let end = board.final_score();
        assert_eq!(if pv.len() % 2 == 0 { end } else { -end }, score);
        assert!(j["nodes"].as_u64().unwrap() > 0 && j["time"].as_f64().unwrap() >= 0.0);
    }
    assert!(
        a[2]["error"].as_str().unwrap().starts_with("bad board"),
        "{}",
        a[2]
    );
    assert_eq!(a[3]["error"].as_str(), Some("line is not UTF-8"));
    for bad in &a[2..4] {
        assert_eq!(keys(bad), ["error", "line"]);
    }
    // The side to move must pass: Black takes c1 and White is wiped out, 3-0 with 61 empties.
    assert_eq!(a[4]["best"].as_str(), Some("PA"));
    assert_eq!(a[4]["score"].as_i64(), Some(-64));
    assert_eq!(a[4]["pv"][0].as_str(), Some("PA"));

    // The bad lines make the exit status 1, after every line was answered.
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: 2 of 6 lines could not be read"),
        "{err}"
    );
    assert!(err.contains("0 of 4 solves disagree"), "{err}");
}

#[test]
fn a_wrong_listed_score_is_a_mismatch_and_good_input_exits_zero() {
    let (lines, _) = fforum();
    let wrong = lines[0].replace("G8:+18", "G8:+20");
    assert_ne!(wrong, lines[0]);
    let o = solve(&["-"], format!("{wrong}\n{}\n", lines[1]).as_bytes());
    let a = answers(&o);
    assert_eq!(a[0]["match"].as_bool(), Some(false));
    assert_eq!(a[1]["match"].as_bool(), Some(true));
    assert_eq!(a[0]["expected"].as_i64(), Some(20));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 of 2 solves disagree"));

    let o = solve(&["-"], format!("{}\n{}", lines[0], lines[1]).as_bytes());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(answers(&o).len(), 2, "the last line needs no newline");
    assert!(o.stderr.is_empty());
}

#[test]
fn wld_answers_the_sign_of_the_score() {
    let (lines, entries) = fforum();
    let input: String = lines[..6].iter().map(|l| format!("{l}\n")).collect();
    let o = solve(&["-", "--wld"], input.as_bytes());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = answers(&o);
    assert_eq!(a.len(), 6);
    for (j, entry) in a.iter().zip(&entries) {
        let sign = entry.best_score().unwrap().signum();
        assert_eq!(j["wld"].as_bool(), Some(true));
        assert_eq!(j["score"].as_i64(), Some(sign.into()), "{j}");
        assert_eq!(
            j["result"].as_str().unwrap(),
            ["loss", "draw", "win"][(sign + 1) as usize]
        );
        assert_eq!(j["match"].as_bool(), Some(true));
    }
}

#[test]
fn two_processes_on_two_halves_answer_as_one_process() {
    let (lines, _) = fforum();
    let lines = &lines[..10];
    let whole: String = lines.iter().map(|l| format!("{l}\n")).collect();
    // One thread: the best move among equal ones is then a function of the position alone.
    let one = answers(&solve(&["-", "--threads", "1"], whole.as_bytes()));
    assert_eq!(one.len(), lines.len());

    let (head, tail) = lines.split_at(lines.len() / 2);
    let mut two = Vec::new();
    for part in [head, tail] {
        let text: String = part.iter().map(|l| format!("{l}\n")).collect();
        two.extend(answers(&solve(&["-", "--threads", "1"], text.as_bytes())));
    }
    // The second process numbers its lines from 1.
    for j in &mut two[head.len()..] {
        let n = j["line"].as_u64().unwrap();
        j["line"] = Value::from(n + head.len() as u64);
    }
    let one: Vec<Value> = one.iter().map(stable).collect();
    let two: Vec<Value> = two.iter().map(stable).collect();
    assert_eq!(one, two);
}

#[test]
fn keeping_the_table_keeps_the_scores_on_two_threads_too() {
    let (lines, entries) = fforum();
    let input: String = lines[..8].iter().map(|l| format!("{l}\n")).collect();
    let o = solve(
        &["-", "--keep-hash", "--hash", "8", "--threads", "2"],
        input.as_bytes(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let scores: Vec<i32> = answers(&o)
        .iter()
        .map(|j| j["score"].as_i64().unwrap() as i32)
        .collect();
    let listed: Vec<i32> = entries[..8]
        .iter()
        .map(|e| e.best_score().unwrap())
        .collect();
    assert_eq!(scores, listed);
}

#[test]
fn a_file_with_jsonl_is_the_same_stream() {
    let (lines, _) = fforum();
    let dir = std::env::temp_dir().join(format!("othello-solve-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("four.obf");
    let text: String = lines[..4].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, &text).unwrap();
    let from_file = solve(&[file.to_str().unwrap(), "--jsonl", "--count", "3"], b"");
    let from_stdin = solve(&["-", "--count", "3"], text.as_bytes());
    std::fs::remove_dir_all(&dir).ok();
    assert!(from_file.status.success() && from_stdin.status.success());
    let from_file: Vec<Value> = answers(&from_file).iter().map(stable).collect();
    let from_stdin: Vec<Value> = answers(&from_stdin).iter().map(stable).collect();
    assert_eq!(from_file.len(), 3);
    assert_eq!(from_file, from_stdin);

    let o = solve(&["-", "--first", "40"], text.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--first"));
}

#[test]
fn each_line_is_answered_before_the_next_is_read() {
    let (lines, _) = fforum();
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the othello binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // Answers are read on a thread, so that a binary which waited for the end of its input
    // fails the test instead of hanging it.
    let (send, receive) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for (i, line) in lines[..3].iter().enumerate() {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let answer = receive
            .recv_timeout(Duration::from_secs(60))
            .expect("an answer while stdin is still open");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["line"].as_u64(), Some(i as u64 + 1));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}
