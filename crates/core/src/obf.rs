//! OBF test positions: reading and writing Edax-style `.obf` lines.
//!
//! An OBF line is a board string followed by an optional list of scored moves:
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A2:+6;
//! ```
//!
//! - the board is the 64-square string of [`Position`]'s `FromStr` (squares a1..h8, then the side
//!   to move), ending at the first `;` or at the end of the line;
//! - each following `;`-separated item is `<move>:<score>`: a move in any notation [`Move`]
//!   accepts (`G8`, `g8`, `PA`) and the exact final disc difference for the side to move after
//!   that move, an integer in −64..=64 (written `+18`, `-4`, `+0`);
//! - an item whose move is `--` is Edax's end-of-list sentinel (`--:-127;`) and is skipped;
//! - empty items (a trailing `;`) are ignored, and so is whitespace around items.
//!
//! A line with no `;` (or nothing after it) is a bare position with no move list. In a whole
//! file ([`parse_obf`]) blank lines and lines starting with `%` or `#` are skipped and errors carry
//! the 1-based line number. Error positions are character (not byte) indices within the line.
//!
//! [`ObfEntry`]'s `Display` writes the canonical form (`<board> <side>; G8:+18; H1:+12;`), which
//! parses back to an equal entry; for the FForum files it reproduces the lines byte for byte.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Move, ParseBoardError, Position};
use crate::square::SquareError;

/// The largest magnitude a final disc difference can have.
pub const MAX_SCORE: i32 = 64;

/// The move text Edax writes for its end-of-list sentinel (`--:-127;`).
const SENTINEL: &str = "--";

/// At most this many characters of offending text are kept in an error.
const MAX_ERROR_TEXT: usize = 24;

/// One OBF line: a position and the scores of (usually all of) its legal moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObfEntry {
    /// The position, with the side to move.
    pub position: Position,
    /// The listed moves with their exact scores for the side to move, in file order (the files
    /// list them best first).
    pub moves: Vec<(Move, i32)>,
}

impl ObfEntry {
    /// An entry with no move list.
    pub fn new(position: Position) -> ObfEntry {
        ObfEntry {
            position,
            moves: Vec::new(),
        }
    }

    /// The value of the position: the best listed score, or `None` without a move list.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, score)| score).max()
    }

    /// Every listed move that reaches the best score, in file order (empty without a move list).
    pub fn best_moves(&self) -> Vec<Move> {
        match self.best_score() {
            None => Vec::new(),
            Some(best) => self
                .moves
                .iter()
                .filter(|&&(_, score)| score == best)
                .map(|&(mv, _)| mv)
                .collect(),
        }
    }

    /// The score listed for `mv`, if it is listed.
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.moves.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

/// Why one OBF line could not be read. Every `index` is a character index within the line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseObfError {
    /// The board part (before the first `;`) is not a valid board string.
    #[error("bad board: {0}")]
    Board(#[from] ParseBoardError),
    /// A move item has no `:` between the move and its score.
    #[error("expected <move>:<score> at position {index}, found {text:?}")]
    MissingScore {
        /// The item (shortened if long).
        text: String,
        /// Where the item starts.
        index: usize,
    },
    /// The move of an item does not parse.
    #[error("bad move {text:?} at position {index}: {source}")]
    BadMove {
        /// The move text (shortened if long).
        text: String,
        /// Where the move starts.
        index: usize,
        /// What the square parser said.
        source: SquareError,
    },
    /// The score of an item is not an integer.
    #[error("bad score {text:?} at position {index}: expected an integer like +18, -4 or +0")]
    BadScore {
        /// The score text (shortened if long).
        text: String,
        /// Where the score starts.
        index: usize,
    },
    /// The score of an item is an integer outside −64..=64.
    #[error("score {score} at position {index} is outside -64..=64")]
    ScoreOutOfRange {
        /// The score read.
        score: i32,
        /// Where the score starts.
        index: usize,
    },
    /// The same move is listed twice.
    #[error("move {mv} at position {index} is listed twice")]
    DuplicateMove {
        /// The repeated move.
        mv: Move,
        /// Where the second occurrence starts.
        index: usize,
    },
}

/// Why an OBF file could not be read: the first bad line's number (1-based) and its error.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {error}")]
pub struct ObfError {
    /// The 1-based number of the offending line.
    pub line: usize,
    /// What is wrong with it.
    #[source]
    pub error: ParseObfError,
}

/// The first few characters of `s`, for error messages.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(MAX_ERROR_TEXT).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// The character index within `line` where `part`, a subslice of `line`, starts.
///
/// Linear in the line length, so it is only called once an error is certain: a long line of
/// valid (or sentinel) items must not cost time quadratic in its length.
fn index_of(line: &str, part: &str) -> usize {
    let byte = (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    line.get(..byte).map_or(0, |head| head.chars().count())
}

/// Parses a score: an optionally signed decimal integer within −64..=64.
fn parse_score(line: &str, text: &str) -> Result<i32, ParseObfError> {
    // `i32::from_str` accepts a leading `+` or `-` and rejects everything that is not digits.
    let score: i32 = text.parse().map_err(|_| ParseObfError::BadScore {
        text: shorten(text),
        index: index_of(line, text),
    })?;
    if (-MAX_SCORE..=MAX_SCORE).contains(&score) {
        Ok(score)
    } else {
        Err(ParseObfError::ScoreOutOfRange {
            score,
            index: index_of(line, text),
        })
    }
}

/// Parses one `<move>:<score>` item (already known not to be blank): the move, its score and
/// the move's text, or `None` for the sentinel.
fn parse_item<'a>(
    line: &'a str,
    item: &'a str,
) -> Result<Option<(Move, i32, &'a str)>, ParseObfError> {
    let item = item.trim();
    let Some((mv_text, score_text)) = item.split_once(':') else {
        return Err(ParseObfError::MissingScore {
            text: shorten(item),
            index: index_of(line, item),
        });
    };
    let mv_text = mv_text.trim();
    let score_text = score_text.trim();
    if mv_text == SENTINEL {
        // Edax's "no move" marker with score -127 (minus infinity): not a move, so its score
        // is not range-checked, only required to be a number.
        return match score_text.parse::<i32>() {
            Ok(_) => Ok(None),
            Err(_) => Err(ParseObfError::BadScore {
                text: shorten(score_text),
                index: index_of(line, score_text),
            }),
        };
    }
    let mv: Move = mv_text.parse().map_err(|source| ParseObfError::BadMove {
        text: shorten(mv_text),
        index: index_of(line, mv_text),
        source,
    })?;
    let score = parse_score(line, score_text)?;
    Ok(Some((mv, score, mv_text)))
}

impl FromStr for ObfEntry {
    type Err = ParseObfError;

    /// Reads one OBF line (see the module docs). Surrounding whitespace, including a `\r`, is
    /// ignored.
    fn from_str(line: &str) -> Result<ObfEntry, ParseObfError> {
        let (board_text, rest) = match line.split_once(';') {
            Some((board, rest)) => (board, Some(rest)),
            None => (line, None),
        };
        // The board slice starts at the start of the line, so its error indices are line indices.
        let position: Position = board_text.parse()?;
        let mut entry = ObfEntry::new(position);
        for item in rest.into_iter().flat_map(|r| r.split(';')) {
            if item.trim().is_empty() {
                continue;
            }
            if let Some((mv, score, mv_text)) = parse_item(line, item)? {
                if entry.moves.iter().any(|&(m, _)| m == mv) {
                    return Err(ParseObfError::DuplicateMove {
                        mv,
                        index: index_of(line, mv_text),
                    });
                }
                entry.moves.push((mv, score));
            }
        }
        Ok(entry)
    }
}

impl fmt::Display for ObfEntry {
    /// The canonical OBF line: `<board> <side>;` then ` <MOVE>:<score>;` per move, with upper-case
    /// moves and signed scores (`G8:+18`, `B1:-4`, `A4:+0`). A bare position is just the board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position.to_board_string())?;
        if self.moves.is_empty() {
            return Ok(());
        }
        f.write_str(";")?;
        for (mv, score) in &self.moves {
            write!(f, " {mv:#}:{score:+};")?;
        }
        Ok(())
    }
}

/// Whether a line of an OBF file carries no entry: blank, or a `%` / `#` comment (leading
/// whitespace allowed). [`parse_obf`] skips these lines, and so does `othello solve -`.
pub fn is_skipped(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('%') || t.starts_with('#')
}

/// Reads a whole OBF file, one entry per line, skipping blank lines and `%` / `#` comment lines.
///
/// Stops at the first bad line and reports its 1-based number.
pub fn parse_obf(text: &str) -> Result<Vec<ObfEntry>, ObfError> {
    parse_obf_numbered(text).map(|entries| entries.into_iter().map(|(_, e)| e).collect())
}

/// Like [`parse_obf`], keeping each entry's 1-based line number.
pub fn parse_obf_numbered(text: &str) -> Result<Vec<(usize, ObfEntry)>, ObfError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !is_skipped(line))
        .map(|(i, line)| {
            line.parse()
                .map(|entry| (i + 1, entry))
                .map_err(|error| ObfError { line: i + 1, error })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::square::Square;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn a_full_line_parses_and_prints_back() {
        let line = format!("{START}; F5:+0; E6:+0; D3:-2; C4:+0;");
        let e: ObfEntry = line.parse().unwrap();
        assert_eq!(e.position, Position::start());
        assert_eq!(e.moves.len(), 4);
        assert_eq!(e.moves[2], (Move::Place(Square::D3), -2));
        assert_eq!(e.best_score(), Some(0));
        assert_eq!(
            e.best_moves(),
            [Square::F5, Square::E6, Square::C4].map(Move::Place)
        );
        assert_eq!(e.score_of(Move::Place(Square::D3)), Some(-2));
        assert_eq!(e.score_of(Move::Place(Square::A1)), None);
        assert_eq!(e.to_string(), line);
    }

    #[test]
    fn sentinels_blanks_and_lax_spacing_are_accepted() {
        let e: ObfEntry = format!("  {START};g8:+18 ;  pa : -3;; --:-127;  \r")
            .parse()
            .unwrap();
        assert_eq!(
            e.moves,
            [(Move::Place(Square::G8), 18), (Move::Pass, -3)].to_vec()
        );
        assert_eq!(e.to_string(), format!("{START}; G8:+18; PA:-3;"));
    }

    #[test]
    fn bare_positions_have_no_moves() {
        for line in [
            START.to_string(),
            format!("{START};"),
            format!("{START} ; "),
        ] {
            let e: ObfEntry = line.parse().unwrap();
            assert_eq!(e, ObfEntry::new(Position::start()));
            assert_eq!(e.best_score(), None);
            assert!(e.best_moves().is_empty());
            assert_eq!(e.to_string(), START);
        }
        let white: ObfEntry = START.replace(" X", " O").parse().unwrap();
        assert_eq!(white.position.side, Color::White);
    }

    #[test]
    fn errors_carry_the_offending_text_and_its_position() {
        // START is 66 characters; its `;` is at 66 and the first item starts at 68.
        let err = |tail: &str| format!("{START}; {tail}").parse::<ObfEntry>().unwrap_err();
        assert_eq!(
            err("F5+0;"),
            ParseObfError::MissingScore {
                text: "F5+0".into(),
                index: 68
            }
        );
        assert!(matches!(
            err("F5:+0; Z9:+2;"),
            ParseObfError::BadMove { ref text, index: 75, source: SquareError::BadColumn { found: 'Z', .. } }
                if text == "Z9"
        ));
        assert_eq!(
            err("F5: +1x;"),
            ParseObfError::BadScore {
                text: "+1x".into(),
                index: 72
            }
        );
        assert_eq!(
            err("F5:99999999999;"),
            ParseObfError::BadScore {
                text: "99999999999".into(),
                index: 71
            }
        );
        assert_eq!(
            err("F5:+66;"),
            ParseObfError::ScoreOutOfRange {
                score: 66,
                index: 71
            }
        );
        assert_eq!(
            err("F5:-65;"),
            ParseObfError::ScoreOutOfRange {
                score: -65,
                index: 71
            }
        );
        assert_eq!(
            err("F5:+2; f5:+0;"),
            ParseObfError::DuplicateMove {
                mv: Move::Place(Square::F5),
                index: 75
            }
        );
        assert_eq!(
            err("--:x;"),
            ParseObfError::BadScore {
                text: "x".into(),
                index: 71
            }
        );
        assert_eq!(
            format!("{START}; F5:+64;")
                .parse::<ObfEntry>()
                .unwrap()
                .moves,
            [(Move::Place(Square::F5), 64)].to_vec()
        );
    }

    #[test]
    fn board_errors_use_line_positions_and_non_ascii_counts_characters() {
        let bad = START.replacen('-', "?", 3);
        assert_eq!(
            format!("{bad}; F5:+0;").parse::<ObfEntry>(),
            Err(ParseObfError::Board(ParseBoardError::BadChar {
                found: '?',
                index: 0
            }))
        );
        assert_eq!(
            "XO; F5:+0;".parse::<ObfEntry>(),
            Err(ParseObfError::Board(ParseBoardError::TooShort(2)))
        );
        assert_eq!(
            format!("{START}; é5:+0;").parse::<ObfEntry>(),
            Err(ParseObfError::BadMove {
                text: "é5".into(),
                index: 68,
                source: SquareError::BadColumn {
                    found: 'é',
                    index: 0
                }
            })
        );
        assert_eq!(
            format!("{START}; F5:ü;").parse::<ObfEntry>(),
            Err(ParseObfError::BadScore {
                text: "ü".into(),
                index: 71
            })
        );
        // U+3000 is whitespace of three bytes: positions after it count it as one character.
        assert_eq!(
            format!("\u{3000}{START}; F5:+70;").parse::<ObfEntry>(),
            Err(ParseObfError::ScoreOutOfRange {
                score: 70,
                index: 72
            })
        );
        let long = "x".repeat(1000);
        match format!("{START}; {long}").parse::<ObfEntry>() {
            Err(ParseObfError::MissingScore { text, index: 68 }) => {
                assert_eq!(text.chars().count(), MAX_ERROR_TEXT + 1);
                assert!(text.ends_with('…'));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn huge_and_odd_inputs_are_errors_not_panics() {
        let garbage = "é\u{0}\u{FFFD}🂡;:".repeat(200_000);
        assert!(garbage.parse::<ObfEntry>().is_err());
        assert!(parse_obf(&garbage).is_err());
        let many_items = format!("{START}{}", ";".repeat(1_000_000));
        assert_eq!(many_items.parse(), Ok(ObfEntry::new(Position::start())));
        // Many sentinels then an error at the end: linear time, the position still exact.
        let sentinels = format!("{START};{} F5:+65;", " --:-127;".repeat(200_000));
        assert_eq!(
            sentinels.parse::<ObfEntry>(),
            Err(ParseObfError::ScoreOutOfRange {
                score: 65,
                index: 67 + 9 * 200_000 + 4
            })
        );
        let repeated = format!("{START};{}", " F5:+0;".repeat(100_000));
        assert!(matches!(
            repeated.parse::<ObfEntry>(),
            Err(ParseObfError::DuplicateMove { index: 75, .. })
        ));
        let file = format!("{START}; F5:+0; D3:-2;\n").repeat(50_000);
        let entries = parse_obf(&file).unwrap();
        assert_eq!(entries.len(), 50_000);
        assert_eq!(entries[49_999].best_score(), Some(0));
        for odd in [";", ":", "--:-127;", "\r\n", "\u{0}", "%", "X;X", "PA:+0;"] {
            assert!(odd.parse::<ObfEntry>().is_err(), "{odd:?}");
        }
    }

    #[test]
    fn files_skip_comments_and_blanks_and_number_their_errors() {
        let text = format!("% comment\n\n{START}; F5:+0;\n  # another\n{START}\n\n");
        let entries = parse_obf_numbered(&text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].0, 3);
        assert_eq!(entries[1].0, 5);
        assert_eq!(
            parse_obf(&text).unwrap()[1],
            ObfEntry::new(Position::start())
        );
        let bad = format!("{START}\n\n{START}; F5:+70;\n");
        let e = parse_obf(&bad).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(
            e.error,
            ParseObfError::ScoreOutOfRange {
                score: 70,
                index: 71
            }
        );
        assert_eq!(
            e.to_string(),
            "line 3: score 70 at position 71 is outside -64..=64"
        );
        assert_eq!(parse_obf(""), Ok(Vec::new()));
    }
}
