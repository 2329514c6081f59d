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

/// `set hash 4096` (the largest the NBoard engine takes) answers the next `ping` without
/// first filling 4 GiB: the table comes as untouched zero pages, so the engine's resident
/// memory stays far below the table's size. Before, it wrote every entry (13.7 s on the
/// protocol thread, no pong meanwhile) and held all 4 GiB.
#[cfg(target_os = "linux")]
#[test]
fn set_hash_makes_no_memory_resident_and_answers_at_once() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["nboard"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"nboard 2\nset hash 4096\nping 1\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let pong = lines.find(|l| l.as_deref().map_or(true, |l| l == "pong 1"));
    assert_eq!(pong.map(|l| l.unwrap()).as_deref(), Some("pong 1"));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    assert!(
        rss_kb < 512 * 1024,
        "{} MiB resident after set hash 4096",
        rss_kb / 1024
    );
}
