//! Fuzz target: bytes as a time control, in both syntaxes: GGF's `time[/increment[/grace]]`
//! (`TimeControl::from_str`, the `TI[...]` of every game a GUI sends) and the command line's
//! `SECONDS[+INCREMENT]` (`TimeControl::parse_match`, `match --time`).
//!
//! Checks: neither parser panics; every accepted clock has finite, non-negative fields; a GGF
//! clock prints to text that parses back to the same clock; the clock arithmetic
//! (`remaining`, `flag_fallen`, `time_to_flag`, `deadline`) never panics on it.
#![no_main]

use std::time::Instant;

use libfuzzer_sys::fuzz_target;
use othello::clock::TimeControl;

fn check(tc: &TimeControl) {
    for x in [tc.initial, tc.increment, tc.grace] {
        assert!(x.is_finite() && x >= 0.0, "{tc:?}");
    }
    let moves = [0.5, tc.initial, 1e6];
    let _ = tc.remaining(moves);
    let _ = tc.flag_fallen(moves);
    let _ = tc.time_to_flag(moves);
    let _ = tc.deadline(Instant::now(), &moves);
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(tc) = text.parse::<TimeControl>() {
        check(&tc);
        let printed = tc.to_string();
        let again: TimeControl = printed.parse().expect("a printed clock parses");
        assert_eq!(again, tc, "{printed:?}");
    }
    if let Ok(tc) = TimeControl::parse_match(&text, 0.5) {
        check(&tc);
    }
});
