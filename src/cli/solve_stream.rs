//! `othello solve -` and `othello solve FILE --jsonl`: batch solving as a stream.
//!
//! Positions come in one per line, as board strings or OBF lines (which may list move scores);
//! blank lines and `#` / `%` comments are skipped ([`othello::obf::is_skipped`]). Each position
//! is solved with [`Searcher::solve`] and answered by one JSON object on one line (JSON Lines),
//! flushed at once, before the next line is read. So the command is a filter: it holds one line
//! at a time whatever the size of its input, its output lines come in input order, and an input
//! cut into pieces gives, piece by piece, the output of the whole (line numbers aside). The
//! fields, the input rules and the exit statuses are documented in docs/SOLVE.md.
//!
//! The table is cleared before each position, so that a result depends on its position alone
//! and not on the positions solved before it in the same process: a best move among equally
//! scored moves, and the principal variation, would otherwise depend on how the input was split
//! between processes. `--keep-hash` keeps it instead, as the table output of `solve` does:
//! scores stay exact, and related positions (consecutive positions of the same games) cost
//! fewer nodes. On the first 1,000 positions of 16-20 empties of `WTH_2025.wtb`: 0.99 G nodes
//! instead of 1.44 G, 31 of 1,000 best moves and 192 lines different, no score.
//!
//! Each line is an output type ([`SolvedLine`], or an error's) written by serde_json, compact.

use std::io::{self, BufRead, ErrorKind, Read, Write};

use othello::board::Move;
use othello::eval::EngineEval;
use othello::obf::{is_skipped, ObfEntry};
use othello::search::{SearchResult, Searcher, Value};
use serde::Serialize;
use serde_json::value::RawValue;

use super::commands::{solve_matches_confirmed, TableSize};

/// Longest input line read, in bytes; a longer one is answered by an error line and skipped
/// (an OBF line with every move scored is under 300 bytes).
pub const MAX_LINE_BYTES: usize = 4096;

/// Options of the stream.
#[derive(Clone, Debug)]
pub struct StreamOptions {
    /// Solve for win/loss/draw only.
    pub wld: bool,
    /// The transposition table's size.
    pub hash: TableSize,
    /// Keep the table from one position to the next (see the module docs).
    pub keep_hash: bool,
    /// Stop after this many positions (lines that are not skipped, good or bad).
    pub count: Option<u64>,
    /// The evaluator (it orders moves in the solver).
    pub eval: EngineEval,
    /// Search threads per position.
    pub threads: usize,
}

/// Totals of a stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamSummary {
    /// Positions solved.
    pub solved: u64,
    /// Lines answered by an error (not a position, not UTF-8, too long).
    pub errors: u64,
    /// Solved positions whose listed scores disagree with the solve.
    pub mismatches: u64,
}

/// Reads `input` line by line and writes one JSON line per position to `out` (see the module
/// docs). Only I/O errors stop it; a bad line is answered and counted.
pub fn run_solve_stream(
    input: &mut impl BufRead,
    options: &StreamOptions,
    out: &mut impl Write,
) -> io::Result<StreamSummary> {
    let mut searcher = Searcher::try_new(options.eval.clone(), options.hash.initial_mb())
        .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
    searcher.set_threads(options.threads);
    super::commands::check_threads(&searcher)?;
    let mut summary = StreamSummary::default();
    let mut buf = Vec::with_capacity(128);
    let mut number = 0u64;
    let mut positions = 0u64;
    while options.count.is_none_or(|n| positions < n) {
        buf.clear();
        let Some(too_long) = read_capped_line(input, &mut buf)? else {
            break;
        };
        number += 1;
        let text = String::from_utf8_lossy(&buf);
        if is_skipped(&text) {
            continue;
        }
        positions += 1;
        let parsed = if too_long {
            Err(format!("line longer than {MAX_LINE_BYTES} bytes"))
        } else if std::str::from_utf8(&buf).is_err() {
            Err("line is not UTF-8".to_string())
        } else {
            text.parse::<ObfEntry>().map_err(|e| e.to_string())
        };
        let line = match parsed {
            Err(message) => {
                summary.errors += 1;
                error_line(number, &message)
            }
            Ok(entry) => {
                options
                    .hash
                    .fit(&mut searcher, &entry.position.board, options.keep_hash);
                if !options.keep_hash {
                    searcher.clear();
                }
                let result = searcher.solve(&entry.position.board, options.wld, &mut ());
                let answer = Answer::new(&mut searcher, &entry, &result, options.wld);
                summary.solved += 1;
                summary.mismatches += u64::from(answer.matched == Some(false));
                answer.to_json(number, &entry, &result)
            }
        };
        out.write_all(line.as_bytes())?;
        out.flush()?;
    }
    Ok(summary)
}

/// Reads one line into `buf` (at most [`MAX_LINE_BYTES`] of it, the newline included) and
/// skips the rest of a longer one. `None` at the end of the input; otherwise whether the line
/// was cut.
fn read_capped_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    let n = input
        .by_ref()
        .take(MAX_LINE_BYTES as u64)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') || n < MAX_LINE_BYTES {
        return Ok(Some(false));
    }
    // The cap was reached: whatever follows up to the newline is dropped unread into memory.
    let mut cut = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(Some(cut));
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(0) => {
                input.consume(1);
                return Ok(Some(cut));
            }
            Some(i) => {
                input.consume(i + 1);
                return Ok(Some(true));
            }
            None => {
                let len = chunk.len();
                input.consume(len);
                cut = true;
            }
        }
    }
}

/// One JSON value on one line: compact (no spaces) and a newline.
fn json_line(value: &impl Serialize) -> String {
    // The line types hold strings, numbers and booleans only: they always serialize.
    let mut line = serde_json::to_string(value).expect("the line types always serialize");
    line.push('\n');
    line
}

/// `{"line":N,"error":"..."}` and a newline.
fn error_line(number: u64, message: &str) -> String {
    #[derive(Serialize)]
    struct ErrorLine<'a> {
        line: u64,
        error: &'a str,
    }
    json_line(&ErrorLine {
        line: number,
        error: message,
    })
}

/// The answer to a solved position, with the fields of docs/SOLVE.md in their order.
#[derive(Serialize)]
struct SolvedLine {
    line: u64,
    board: String,
    empties: u32,
    score: i32,
    result: &'static str,
    wld: bool,
    best: String,
    pv: Vec<String>,
    depth: u32,
    selectivity: u8,
    nodes: u64,
    /// Seconds with six decimals (`0.000004`, never `4e-6`).
    time: Box<RawValue>,
    /// The best listed score, only when the input line lists scores (with `match`).
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<i32>,
    /// Whether the solve agrees with the listed scores, only with `expected`.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    matched: Option<bool>,
}

/// `x` as a JSON number with six decimals.
fn six_decimals(x: f64) -> Box<RawValue> {
    // A finite number written with `{:.6}` is a valid JSON number; a duration is finite.
    RawValue::from_string(format!("{x:.6}")).expect("a finite number is valid JSON")
}

/// What a solve says about its position, in the stream's terms.
struct Answer {
    /// The disc difference for the side to move, or its sign after a WLD solve.
    score: i32,
    /// `score` is only a sign.
    wld: bool,
    /// Whether the solve agrees with the scores of the input line (`None`: it lists none).
    matched: Option<bool>,
}

impl Answer {
    /// The answer of `result`, the solve of `entry` by `searcher` (which may solve again to
    /// confirm an unlisted best move, [`solve_matches_confirmed`]).
    fn new(
        searcher: &mut Searcher<EngineEval>,
        entry: &ObfEntry,
        result: &SearchResult,
        wld: bool,
    ) -> Answer {
        let (score, is_wld) = match result.value {
            Value::Exact(s) => (s, false),
            Value::Wld(s) => (s, true),
            Value::Heuristic(_) | Value::Probable(_) => {
                unreachable!("a solve returns an exact or WLD value")
            }
        };
        Answer {
            score,
            wld: is_wld,
            matched: solve_matches_confirmed(searcher, entry, result.best, score, wld),
        }
    }

    /// The JSON line of the solve of `entry`, input line `number`, and a newline.
    fn to_json(&self, number: u64, entry: &ObfEntry, result: &SearchResult) -> String {
        let board = &entry.position.board;
        // A solve answers `Move::Pass` both when the side to move must pass and when the game
        // is over; the stream tells them apart as Edax does (`PA`, and `--` for no move).
        let game_over = board.is_game_over();
        let (best, pv) = if game_over {
            ("--".to_string(), Vec::new())
        } else {
            (
                result.best.to_string(),
                result.pv.iter().map(Move::to_string).collect(),
            )
        };
        let listed = match (self.matched, entry.best_score()) {
            (Some(matched), Some(listed)) => Some((listed, matched)),
            _ => None,
        };
        json_line(&SolvedLine {
            line: number,
            board: entry.position.to_board_string(),
            empties: board.empty_count(),
            score: self.score,
            result: match self.score.signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            },
            wld: self.wld,
            best,
            pv,
            depth: result.depth,
            selectivity: result.selectivity.map_or(100, |s| s.percent()),
            nodes: result.nodes,
            time: six_decimals(result.elapsed.as_secs_f64()),
            expected: listed.map(|(score, _)| score),
            matched: listed.map(|(_, matched)| matched),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn lines(input: &[u8]) -> Vec<(Vec<u8>, bool)> {
        let mut r = Cursor::new(input);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while let Some(cut) = read_capped_line(&mut r, &mut buf).unwrap() {
            out.push((std::mem::take(&mut buf), cut));
        }
        out
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_is_read_whole() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nshort\n");
        input.extend(vec![b'y'; MAX_LINE_BYTES]);
        input.extend_from_slice(b"\nlast");
        let got = lines(&input);
        assert_eq!(got.len(), 4);
        assert_eq!((got[0].0.len(), got[0].1), (MAX_LINE_BYTES, true));
        assert_eq!(got[1], (b"short\n".to_vec(), false));
        // Exactly the cap, then its newline: not cut.
        assert_eq!((got[2].0.len(), got[2].1), (MAX_LINE_BYTES, false));
        assert_eq!(got[3], (b"last".to_vec(), false));
        assert!(lines(b"").is_empty());
    }

    fn stream(input: &str, wld: bool) -> (String, StreamSummary) {
        let options = StreamOptions {
            wld,
            hash: TableSize::Fixed(1),
            keep_hash: false,
            count: None,
            eval: EngineEval::default(),
            threads: 1,
        };
        let mut out = Vec::new();
        let summary = run_solve_stream(&mut Cursor::new(input), &options, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), summary)
    }

    #[test]
    fn passes_and_finished_games_are_answered_exactly() {
        // White (a1 X, b1 O) cannot flank anything and must pass; Black then takes c1 and
        // White has no disc left: 3-0 with 61 empties to the winner, -64 for White.
        let pass = format!("XO{} O", "-".repeat(62));
        let over = format!("{}{} X", "X".repeat(40), "O".repeat(24));
        let (out, summary) = stream(&format!("{pass}\n{over}\n"), false);
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(summary.solved, 2, "{out}");
        assert!(
            rows[0].contains("\"score\":-64,\"result\":\"loss\""),
            "{}",
            rows[0]
        );
        assert!(
            rows[0].contains("\"best\":\"PA\",\"pv\":[\"PA\""),
            "{}",
            rows[0]
        );
        assert!(
            rows[1].contains("\"score\":16,\"result\":\"win\""),
            "{}",
            rows[1]
        );
        assert!(rows[1].contains("\"best\":\"--\",\"pv\":[]"), "{}", rows[1]);
        // `time` has six decimals, as documented, even when tiny (never `4e-6`).
        for row in &rows {
            let time = row.split("\"time\":").nth(1).expect("a time");
            let time = time.split([',', '}']).next().unwrap();
            let (whole, decimals) = time.split_once('.').expect("a decimal point");
            assert!(
                !whole.is_empty()
                    && whole.bytes().all(|b| b.is_ascii_digit())
                    && decimals.len() == 6
                    && decimals.bytes().all(|b| b.is_ascii_digit()),
                "{row}"
            );
        }
    }

    #[test]
    fn bad_lines_are_answered_and_counted() {
        let (out, summary) = stream("# a comment\n\nnot a board \"quoted\"\n", true);
        assert_eq!(
            summary,
            StreamSummary {
                solved: 0,
                errors: 1,
                mismatches: 0
            }
        );
        assert!(
            out.starts_with("{\"line\":3,\"error\":\"bad board: ") && out.ends_with("}\n"),
            "{out}"
        );
    }
}
