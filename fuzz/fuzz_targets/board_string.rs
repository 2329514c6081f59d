//! Fuzz target: board strings (`Position`'s `FromStr`).
//!
//! Never panics; a parsed position prints (`to_board_string`) to a canonical string that parses
//! back to the same position; errors point at the character they name.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::board::{Board, ParseBoardError, Position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let solid = text.chars().filter(|c| !c.is_whitespace()).count();
    match text.parse::<Position>() {
        Ok(pos) => {
            // 64 squares and a side letter, nothing else.
            assert_eq!(solid, 65, "{text:?}");
            let canonical = pos.to_board_string();
            assert_eq!(canonical.chars().count(), 66);
            let again: Position = canonical.parse().expect("canonical string must parse");
            assert_eq!(again, pos, "{text:?} -> {canonical:?}");
            assert_eq!(again.to_board_string(), canonical);
            assert_eq!(text.parse::<Board>(), Ok(pos.board));
            let (black, white) = pos.black_white();
            assert_eq!(black & white, 0);
        }
        Err(ParseBoardError::BadChar { found, index })
        | Err(ParseBoardError::BadSide { found, index })
        | Err(ParseBoardError::Trailing { found, index }) => {
            assert_eq!(text.chars().nth(index), Some(found), "{text:?}");
        }
        Err(ParseBoardError::TooShort(n)) => {
            assert!(n < 64);
            assert_eq!(n, solid, "{text:?}");
        }
        Err(ParseBoardError::MissingSide) => assert_eq!(solid, 64, "{text:?}"),
    }
});
