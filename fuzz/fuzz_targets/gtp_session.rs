//! Fuzz target: arbitrary bytes as a whole GTP session, one line at a time through
//! [`Gtp::execute`], as `othello gtp` runs it (lines cut at `\n`, invalid UTF-8 replaced). The
//! engine is capped (depth 2, 20,000 nodes per search, a small table) so that no `genmove`
//! searches for long, and may not read files.
//!
//! Checks, for every line:
//! - no panic;
//! - a response is framed as GTP requires: `=` or `?`, the line's id echoed when it had one,
//!   one space, text without an empty line or a control character but `\n`, and the closing
//!   empty line (a GUI reads up to the first empty line);
//! - a refused command (`?`) changes nothing: the game (moves and position) and the level are
//!   what they were;
//! - after a successful `quit` the session ends.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use othello::book::BookChoice;
use othello::engine::{Engine, EngineOptions};
use othello::protocol::gtp::Gtp;

fuzz_target!(|data: &[u8]| {
    // Long sessions only slow the fuzzer down; the per-command work is what matters.
    if data.len() > 4096 {
        return;
    }
    let options = EngineOptions {
        hash_mb: 1,
        max_hash_mb: 4,
        default_move_time: Duration::from_millis(50),
        depth_cap: Some(2),
        node_cap: Some(20_000),
        allow_eval_files: false,
        book: BookChoice::Default,
        ..EngineOptions::default()
    };
    let engine = Engine::new(options).expect("a 1 MiB table and the embedded book");
    let mut gtp = Gtp::new(engine, Duration::from_millis(50));
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        let before = (gtp.engine().game().to_string(), gtp.engine().level());
        let Some(response) = gtp.execute(line) else {
            continue;
        };
        let printed = response.to_string();
        let (body, end) = printed.split_at(printed.len() - 2);
        assert_eq!(end, "\n\n", "unframed response {printed:?}");
        assert!(
            body.starts_with(['=', '?']),
            "response {printed:?} starts with neither = nor ?"
        );
        assert!(!body.contains("\n\n"), "empty line inside {printed:?}");
        assert!(
            !body.contains(|c: char| c.is_control() && c != '\n'),
            "control character in {printed:?}"
        );
        // The id GTP defines: a number as the first word, before any `#` comment (control
        // characters other than tabs are dropped by the engine's preprocessing).
        let head: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|&c| c == '\t' || !c.is_control())
            .collect();
        let id = head.split_whitespace().next().and_then(|w| w.parse::<u32>().ok());
        if id.is_some() {
            assert_eq!(response.id, id, "id of {line:?} not echoed");
        } else {
            assert_eq!(response.id, None, "{line:?} has no id");
        }
        if response.result.is_err() {
            let after = (gtp.engine().game().to_string(), gtp.engine().level());
            assert_eq!(before, after, "refused {line:?} changed the engine");
        }
        if response.quit {
            break;
        }
    }
});
