//! Fuzz target: arbitrary bytes as a whole NBoard session, served as a GUI is served: the
//! input on its own thread (new lines interrupt searches), **2 search threads and pondering
//! on** (what `protocol_line` leaves out). The engine is capped (depth 3, 20,000 nodes per
//! search, a small table) so that no command searches for long, and plays without a book
//! (`protocol_line` covers the book; `learn` into it searches at the book's depth, which would
//! make every input that keeps a `learn` take a second).
//!
//! Checks: the loop never panics and returns `Ok`; every output line is one of the protocol's
//! responses; every `pong n` answers a `ping n` of the input, in the order sent (the GUI's
//! synchronisation rule); every `=== move` names a square or `pa`.
#![no_main]

use std::io::Cursor;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use othello::protocol::{run, Command, EngineOptions};

/// First words a response line may start with.
const RESPONSES: &[&str] = &[
    "pong",
    "status",
    "set",
    "===",
    "search",
    "book",
    "nodestats",
    "analysis",
    "learned",
    "#",
];

/// The numbers of the input's `ping n` lines, in order (what the engine must answer, in this
/// order): lines cut as the engine's reader cuts them (at `\n`, a final `\r` dropped, a line
/// with a NUL refused, invalid UTF-8 replaced) and read by the engine's own command parser
/// (commands are case-insensitive: `PiNg 3` is a ping).
fn pings(data: &[u8]) -> Vec<i64> {
    let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if data.ends_with(b"\n") {
        lines.pop();
    }
    lines
        .into_iter()
        .filter(|line| !line.contains(&0))
        .filter_map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            match String::from_utf8_lossy(line).parse::<Command>() {
                Ok(Command::Ping(n)) => Some(n),
                _ => None,
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    // Long sessions only slow the fuzzer down; the per-command work is what matters.
    if data.len() > 2048 {
        return;
    }
    let options = EngineOptions {
        hash_mb: 1,
        max_hash_mb: 4,
        default_move_time: Duration::from_millis(20),
        depth_cap: Some(3),
        node_cap: Some(20_000),
        allow_eval_files: false,
        threads: 2,
        ponder: true,
        book: othello::book::BookChoice::Off,
        ..EngineOptions::default()
    };
    let mut out = Vec::new();
    run(Cursor::new(data.to_vec()), &mut out, options).expect("writing to a Vec cannot fail");
    let text = String::from_utf8(out).expect("output is UTF-8");
    let mut pongs = Vec::new();
    for line in text.lines() {
        let mut words = line.split(' ');
        let first = words.next().unwrap_or("");
        assert!(
            RESPONSES.contains(&first),
            "unexpected output line {line:?}"
        );
        if first == "pong" {
            pongs.push(words.next().unwrap_or("").to_string());
        }
        if first == "===" {
            let mv = words.next().unwrap_or("").split('/').next().unwrap_or("");
            assert!(
                mv.parse::<othello::board::Move>().is_ok(),
                "bad move in {line:?}"
            );
        }
    }
    // Every ping answered, once, in the order sent (the session always ends: end of input or
    // `quit`, and a `quit` before a ping leaves that ping unanswered, so compare a prefix).
    let sent = pings(data);
    let got: Vec<i64> = pongs.iter().filter_map(|p| p.parse().ok()).collect();
    assert_eq!(got.len(), pongs.len(), "unreadable pong in {pongs:?}");
    assert!(
        got.len() <= sent.len() && got.iter().zip(&sent).all(|(a, b)| a == b),
        "pongs {got:?} for pings {sent:?}"
    );
});
