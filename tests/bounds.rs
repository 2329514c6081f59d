//! Every count option has a cap with a clean error before anything is allocated, the SPRT's
//! error rates lie strictly inside (0, 1), and `solve FILE --jsonl` keeps the input cap
//! (issue 56: `selfplay --games 2147483648` grew to 6 GB, `calibrate --positions 2^64-1`
//! aborted, `--alpha 2` stopped a match after 2 pairs, a 20 GB sparse file was read).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn run(args: &[&str]) -> (Option<i32>, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{args:?} took long"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Refused as a bad argument (clap's status 2, or 1), naming the option, no panic.
fn refused(args: &[&str], option: &str) {
    let (code, stderr) = run(args);
    assert!(matches!(code, Some(1 | 2)), "{args:?}: {code:?} {stderr}");
    assert!(
        stderr.contains("error:") && stderr.contains(option),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-bounds-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn count_options_are_capped_before_any_allocation() {
    let dir = scratch("counts");
    let out = dir.join("x.dat");
    let out = out.to_str().unwrap();
    refused(
        &["selfplay", "--out", out, "--games", "2147483648"],
        "--games",
    );
    refused(
        &["selfplay", "--out", out, "--games", "10000001"],
        "--games",
    );
    refused(
        &[
            "calibrate",
            "--samples",
            out,
            "--out",
            "m.txt",
            "--positions",
            "18446744073709551615",
        ],
        "--positions",
    );
    refused(
        &[
            "calibrate",
            "--samples",
            out,
            "--out",
            "m.txt",
            "--positions",
            "10000001",
        ],
        "--positions",
    );
    refused(&["match", "random", "random", "--pairs", "100001"], "pairs");
    assert!(!dir.join("x.dat").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_error_rates_lie_strictly_between_0_and_1() {
    for bad in ["2", "inf", "-inf", "NaN", "0", "1", "-0.1", "x"] {
        for option in ["--alpha", "--beta"] {
            let arg = format!("{option}={bad}");
            refused(
                &["match", "random", "random", "--sprt", "0,10", &arg],
                option,
            );
        }
    }
}

#[test]
fn solve_jsonl_keeps_the_input_cap() {
    let dir = scratch("jsonl");
    let big = dir.join("big.txt");
    // A sparse file: 20 GB of zeros that take no disk space.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(20 << 30)
        .unwrap();
    let (code, stderr) = run(&["solve", big.to_str().unwrap(), "--jsonl"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("larger than 256 MiB"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
