//! Fuzz target: the opening book readers (`othello::book`): the book file, Edax `.dat` books
//! and the plain-text form. The first byte picks the reader, the rest is its input.
//!
//! Never panics; an accepted book has only legal moves, and writes back to bytes (or text)
//! that read back to the same book.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::book::{edax, file, text, Book};

fn check(book: &Book) {
    for (board, _) in book.iter() {
        for m in book.moves(board) {
            assert!(board.try_play_move(m.mv).is_ok(), "{:?} {:?}", board, m);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    match kind % 3 {
        0 => {
            if let Ok(book) = file::from_bytes(rest) {
                check(&book);
                let bytes = file::to_bytes(&book);
                let again = file::from_bytes(&bytes).expect("written books read back");
                assert_eq!(again.sorted(), book.sorted());
            }
        }
        1 => {
            if let Ok(book) = edax::from_edax_bytes(rest) {
                check(&book);
                let bytes = edax::to_edax_bytes(&book, (2026, 1, 1, 0, 0, 0));
                let again = edax::from_edax_bytes(&bytes).expect("written Edax books read back");
                assert_eq!(again.len(), book.len());
            }
        }
        _ => {
            let Ok(t) = std::str::from_utf8(rest) else {
                return;
            };
            if let Ok(book) = text::from_text(t) {
                check(&book);
                let again = text::from_text(&text::to_text(&book)).expect("written text reads back");
                assert_eq!(again.sorted(), book.sorted());
            }
        }
    }
});
