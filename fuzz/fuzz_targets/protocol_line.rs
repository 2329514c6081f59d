//! Fuzz target: arbitrary bytes as a whole NBoard session through the in-process loop.
//!
//! The input is split into lines by the loop's own reader (any bytes: invalid UTF-8, NUL,
//! overlong lines, `\r`), and every command runs: `set game`, `move`, `hint`, `go`, `analyze`,
//! `perft`, the extensions. The engine is capped (depth 2, 20,000 nodes per search, a small
//! table) so that no command searches for long. The loop must not panic, must return `Ok`,
//! and every output line must be one of the protocol's responses or an extension comment.
//!
//! Run with `RUSTFLAGS="-C target-cpu=native" cargo +nightly fuzz run protocol_line`.
#![no_main]

use std::io::Cursor;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use othello::protocol::{run_sync, EngineOptions};

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

fuzz_target!(|data: &[u8]| {
    let options = EngineOptions {
        hash_mb: 1,
        max_hash_mb: 4,
        default_move_time: Duration::from_millis(50),
        depth_cap: Some(2),
        node_cap: Some(20_000),
        allow_eval_files: false,
        ..EngineOptions::default()
    };
    let mut out = Vec::new();
    run_sync(Cursor::new(data), &mut out, options).expect("writing to a Vec cannot fail");
    let text = String::from_utf8(out).expect("output is UTF-8");
    for line in text.lines() {
        let first = line.split(' ').next().unwrap_or("");
        assert!(
            RESPONSES.contains(&first),
            "unexpected output line {line:?}"
        );
        assert!(
            !line.contains(['\r', '\0']),
            "control character in {line:?}"
        );
    }
});
