//! Fuzz target: the game database readers (`othello::gamedb`) on arbitrary bytes, read as a
//! WTHOR `.wtb`, as PGN, as a transcript and as GGF.
//!
//! Never panics; every game a reader accepts replays from the standard start; what was read
//! writes as PGN, `.wtb` and GGF and reads back to the same moves.
//!
//! Run with `RUSTFLAGS="-C target-cpu=native" cargo +nightly fuzz run gamedb`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::gamedb::{games_to_bytes, parse_games, Format, GameRecord, WthorNames};

fuzz_target!(|data: &[u8]| {
    let names = WthorNames {
        players: vec!["Black".into(), "White\n".into()],
        tournaments: vec!["Open".into()],
    };
    for format in [Format::Wtb, Format::Pgn, Format::Txt, Format::Ggf] {
        let Ok(games) = parse_games(data, format, &names) else {
            continue;
        };
        for g in &games {
            let positions = g
                .replay()
                .expect("a reader returned a game that does not replay");
            assert_eq!(positions.len(), g.moves.len() + 1);
        }
        let moves =
            |games: &[GameRecord]| -> Vec<_> { games.iter().map(|g| g.moves.clone()).collect() };
        for to in [Format::Pgn, Format::Wtb, Format::Ggf] {
            let bytes = games_to_bytes(&games, to)
                .unwrap_or_else(|e| panic!("{format} games do not write as {to}: {e}"));
            let back = parse_games(&bytes, to, &WthorNames::default())
                .unwrap_or_else(|e| panic!("{format} games written as {to} do not read back: {e}"));
            assert_eq!(moves(&back), moves(&games), "{format} -> {to}");
        }
    }
});
