//! Fuzz target: square and move names (`Square` and `Move` `FromStr`, PAIP numbers).
//!
//! Never panics; whatever parses prints back (lower and upper case) to the same value; errors
//! point at the character they name.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::square::SquareError;
use othello::{Move, Square};

fuzz_target!(|data: &[u8]| {
    // The first eight bytes, read as a number, also exercise the PAIP conversion.
    if let Some(head) = data.get(..8) {
        let n = i64::from_le_bytes(head.try_into().unwrap());
        match Square::from_paip(n) {
            Ok(sq) => assert_eq!(sq.paip() as i64, n),
            Err(e) => assert_eq!(e, SquareError::BadPaip(n)),
        }
    }
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    match text.parse::<Square>() {
        Ok(sq) => {
            assert!(
                text.trim().eq_ignore_ascii_case(&sq.to_string()),
                "{text:?}"
            );
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(format!("{sq:#}").parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_index(sq.index()), Some(sq));
            assert_eq!(text.parse::<Move>(), Ok(Move::Place(sq)));
        }
        Err(SquareError::BadColumn { found, index })
        | Err(SquareError::BadRow { found, index }) => {
            assert_eq!(text.chars().nth(index), Some(found), "{text:?}");
        }
        Err(SquareError::BadLength(_)) => assert_ne!(text.trim().chars().count(), 2),
        Err(SquareError::BadPaip(_)) => panic!("a square name gave a PAIP error: {text:?}"),
    }
    if let Ok(mv) = text.parse::<Move>() {
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv), "{text:?}");
        assert_eq!(format!("{mv:#}").parse::<Move>(), Ok(mv), "{text:?}");
        if let Move::Place(sq) = mv {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
    }
});
