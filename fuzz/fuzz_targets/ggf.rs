//! Fuzz target: the GGF reader never panics, and whatever it accepts round-trips: the game
//! written back reads as an equal game, and writing that gives the same text again.
//!
//! Run with `RUSTFLAGS="-C target-cpu=native" cargo +nightly fuzz run ggf`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::game::Game;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(game) = text.parse::<Game>() else {
        return;
    };
    let written = game.to_string();
    let again: Game = written
        .parse()
        .unwrap_or_else(|e| panic!("the writer's text does not read back ({e}): {written}"));
    assert_eq!(again, game, "{written}");
    assert_eq!(again.to_string(), written);
    // Every position of the game is reachable and the clocks are finite.
    assert_eq!(game.positions().len(), game.moves().len() + 1);
    if let Some(clock) = game.clock() {
        assert!(clock.remaining.as_secs_f64().is_finite());
    }
});
