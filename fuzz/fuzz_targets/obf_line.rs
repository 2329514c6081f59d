//! Fuzz target: OBF lines and files (`ObfEntry` `FromStr`, `parse_obf`).
//!
//! Never panics; a parsed entry prints (`Display`) to a line that parses back to the same entry
//! and prints the same again; errors point at the text they quote, and file errors name a line
//! that exists.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::obf::{parse_obf, ObfEntry, ParseObfError};

/// Checks that `quoted` (possibly shortened with a trailing '…') occurs at character `index`.
fn quoted_at(line: &str, quoted: &str, index: usize) {
    let quoted = quoted.strip_suffix('…').unwrap_or(quoted);
    let found: String = line
        .chars()
        .skip(index)
        .take(quoted.chars().count())
        .collect();
    assert_eq!(found, quoted, "{line:?} at {index}");
}

fn check_line(line: &str) {
    match line.parse::<ObfEntry>() {
        Ok(entry) => {
            for (i, &(mv, score)) in entry.moves.iter().enumerate() {
                assert!((-64..=64).contains(&score));
                assert!(
                    entry.moves[..i].iter().all(|&(m, _)| m != mv),
                    "duplicate {mv}"
                );
            }
            let printed = entry.to_string();
            let again: ObfEntry = printed.parse().expect("printed entry must parse");
            assert_eq!(again, entry, "{line:?} -> {printed:?}");
            assert_eq!(again.to_string(), printed);
            assert_eq!(entry.best_moves().is_empty(), entry.best_score().is_none());
        }
        Err(ParseObfError::MissingScore { text, index })
        | Err(ParseObfError::BadMove { text, index, .. })
        | Err(ParseObfError::BadScore { text, index }) => quoted_at(line, &text, index),
        Err(ParseObfError::ScoreOutOfRange { score, index }) => {
            assert!(!(-64..=64).contains(&score));
            let tail: String = line.chars().skip(index).collect();
            assert!(tail.starts_with(['+', '-']) || tail.starts_with(|c: char| c.is_ascii_digit()));
        }
        Err(ParseObfError::DuplicateMove { mv, index }) => {
            let tail: String = line.chars().skip(index).collect();
            let name: String = tail.split(':').next().unwrap_or("").trim().into();
            assert_eq!(name.parse(), Ok(mv), "{line:?}");
        }
        Err(ParseObfError::Board(_)) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    // The whole input as a file, and every line of it on its own.
    match parse_obf(text) {
        Ok(entries) => {
            let printed: Vec<String> = entries.iter().map(|e| e.to_string()).collect();
            let again = parse_obf(&printed.join("\n")).expect("printed file must parse");
            assert_eq!(again, entries);
        }
        Err(e) => {
            let line = text
                .lines()
                .nth(e.line - 1)
                .expect("error names an existing line");
            assert_eq!(line.parse::<ObfEntry>(), Err(e.error));
        }
    }
    for line in text.lines() {
        check_line(line);
    }
});
