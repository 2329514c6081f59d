//! The OBF parser against the real test files in `tests/data/`, cross-checked with the move
//! generator and with the FFO summary table.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use othello::obf::{parse_obf, parse_obf_numbered, ObfEntry};
use othello::{Color, Move, Square};

const FFORUM: [&str; 4] = [
    "fforum-1-19.obf",
    "fforum-20-39.obf",
    "fforum-40-59.obf",
    "fforum-60-79.obf",
];
const ALL_FILES: [&str; 9] = [
    "fforum-1-19.obf",
    "fforum-20-39.obf",
    "fforum-40-59.obf",
    "fforum-60-79.obf",
    "hard-20.obf",
    "quality-30.obf",
    "transition-20-28.obf",
    "heldout-20-24.obf",
    "heldout-28-40.obf",
];

fn data(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name]
        .iter()
        .collect();
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// FFO #1..#79 in order: the four FForum files concatenated.
fn ffo() -> Vec<ObfEntry> {
    FFORUM
        .iter()
        .flat_map(|name| parse_obf(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

fn move_set(moves: impl IntoIterator<Item = Move>) -> BTreeSet<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

#[test]
fn every_line_of_every_file_parses() {
    for name in ALL_FILES {
        let text = data(name);
        let non_blank = text.lines().filter(|l| !l.trim().is_empty()).count();
        let entries = parse_obf_numbered(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(entries.len(), non_blank, "{name}");
        for (line, e) in &entries {
            assert!(!e.moves.is_empty(), "{name}:{line} has no moves");
            assert!(
                e.moves.iter().all(|&(_, s)| (-64..=64).contains(&s)),
                "{name}:{line}"
            );
        }
    }
    assert_eq!(ffo().len(), 79);
    let hard = parse_obf(&data("hard-20.obf")).unwrap();
    assert_eq!(hard.len(), 276);
    for e in &hard {
        assert_eq!(e.position.side, Color::Black);
        assert_eq!(e.position.board.empty_count(), 20);
    }
    // The transition benchmark: 200 positions at 20 to 28 empties, in increasing order.
    let transition = parse_obf(&data("transition-20-28.obf")).unwrap();
    assert_eq!(transition.len(), 200);
    let empties: Vec<u32> = transition
        .iter()
        .map(|e| e.position.board.empty_count())
        .collect();
    assert!(empties.windows(2).all(|w| w[0] <= w[1]), "{empties:?}");
    assert_eq!((empties[0], empties[199]), (20, 28));
    // The held-out set: 60 positions at each of 20 to 24 empties, in increasing order.
    let heldout = parse_obf(&data("heldout-20-24.obf")).unwrap();
    let empties: Vec<u32> = heldout
        .iter()
        .map(|e| e.position.board.empty_count())
        .collect();
    for n in 20..=24 {
        assert_eq!(
            empties.iter().filter(|&&e| e == n).count(),
            60,
            "{n} empties"
        );
    }
    assert!(empties.windows(2).all(|w| w[0] <= w[1]), "{empties:?}");
    // Its deeper part: 60 positions at each of 28, 32, 36 and 40 empties.
    let deep = parse_obf(&data("heldout-28-40.obf")).unwrap();
    let empties: Vec<u32> = deep
        .iter()
        .map(|e| e.position.board.empty_count())
        .collect();
    for n in [28, 32, 36, 40] {
        assert_eq!(
            empties.iter().filter(|&&e| e == n).count(),
            60,
            "{n} empties"
        );
    }
    assert_eq!(empties.len(), 240);
    assert!(empties.windows(2).all(|w| w[0] <= w[1]), "{empties:?}");
    let quality = parse_obf(&data("quality-30.obf")).unwrap();
    assert_eq!(quality.len(), 144);
    for e in &quality {
        assert_eq!(e.position.side, Color::Black);
        assert_eq!(e.position.board.empty_count(), 30);
    }
}

#[test]
fn listed_moves_are_exactly_the_legal_moves() {
    let mut checked = 0;
    for name in ALL_FILES {
        for (line, e) in parse_obf_numbered(&data(name)).unwrap() {
            let board = e.position.board;
            let legal = if board.moves() == 0 {
                move_set([Move::Pass])
            } else {
                move_set(board.legal_moves().map(Move::Place))
            };
            let listed = move_set(e.moves.iter().map(|&(m, _)| m));
            assert_eq!(listed, legal, "{name}:{line}");
            assert_eq!(e.moves.len(), listed.len(), "{name}:{line}: duplicates");
            // Every file lists a best move first; the FForum files and the two made here are
            // fully sorted (two hard-20 lines, e.g. line 32, have a pair of non-best moves out
            // of order).
            assert_eq!(Some(e.moves[0].1), e.best_score(), "{name}:{line}");
            if ["fforum", "transition", "heldout"]
                .iter()
                .any(|prefix| name.starts_with(prefix))
            {
                assert!(
                    e.moves.windows(2).all(|w| w[0].1 >= w[1].1),
                    "{name}:{line} not sorted"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 79 + 276 + 144 + 200 + 300 + 240);
}

#[test]
fn ffo_1_is_black_to_move_g8_plus_18() {
    let e = &ffo()[0];
    assert_eq!(e.position.side, Color::Black);
    assert_eq!(e.position.board.empty_count(), 14);
    assert_eq!(e.best_score(), Some(18));
    assert_eq!(e.best_moves(), [Move::Place(Square::G8)]);
    assert_eq!(e.moves.len(), 8);
    assert_eq!(e.score_of(Move::Place(Square::B1)), Some(-4));
}

#[test]
fn ffo_entries_agree_with_the_summary_table() {
    let entries = ffo();
    let summary = data("ffo-1-79-summary.tsv");
    let rows: Vec<&str> = summary
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert_eq!(rows.len(), 79);
    for (i, row) in rows.iter().enumerate() {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols.len(), 6, "row {row:?}");
        let number: usize = cols[0].parse().unwrap();
        assert_eq!(number, i + 1);
        let e = &entries[i];
        let empties: u32 = cols[1].parse().unwrap();
        assert_eq!(
            e.position.board.empty_count(),
            empties,
            "FFO #{number} empties"
        );
        let side = match cols[2] {
            "X" => Color::Black,
            "O" => Color::White,
            other => panic!("FFO #{number}: side {other:?}"),
        };
        assert_eq!(e.position.side, side, "FFO #{number} side");
        let score: i32 = cols[3].parse().unwrap();
        assert_eq!(e.best_score(), Some(score), "FFO #{number} score");
        let best: BTreeSet<String> = cols[4].split(',').map(str::to_string).collect();
        assert_eq!(move_set(e.best_moves()), best, "FFO #{number} best moves");
        assert_eq!(
            &e.position.to_board_string()[..64],
            cols[5],
            "FFO #{number} board"
        );
    }
    // Spot values quoted in tests/data/README.md.
    let spot = |n: usize| {
        (
            entries[n - 1].best_score(),
            move_set(entries[n - 1].best_moves()),
        )
    };
    assert_eq!(spot(40), (Some(38), move_set(["a2".parse().unwrap()])));
    assert_eq!(
        spot(43),
        (
            Some(-12),
            move_set(["g3", "c7"].map(|m| m.parse().unwrap()))
        )
    );
    assert_eq!(
        spot(59),
        (
            Some(64),
            move_set(["h4", "g8", "e8"].map(|m| m.parse().unwrap()))
        )
    );
    assert_eq!(entries[42].position.side, Color::White);
}

#[test]
fn display_round_trips() {
    // The FForum files and quality-30 are already in canonical form: every line prints back
    // byte for byte.
    for name in FFORUM.into_iter().chain(["quality-30.obf"]) {
        let text = data(name);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let e: ObfEntry = line.parse().unwrap();
            assert_eq!(e.to_string(), line);
        }
    }
    // hard-20 lines lose only their `--:-127;` sentinel.
    for line in data("hard-20.obf").lines() {
        let e: ObfEntry = line.parse().unwrap();
        let printed = e.to_string();
        assert_eq!(Some(printed.as_str()), line.strip_suffix(" --:-127;"));
        assert_eq!(printed.parse::<ObfEntry>().unwrap(), e);
    }
}

#[test]
fn file_errors_name_the_line() {
    let mut text = data("fforum-1-19.obf");
    text = text.replacen("G8:+18", "G8:+81", 1);
    let e = parse_obf(&text).unwrap_err();
    assert_eq!(e.line, 1);
    assert_eq!(
        e.to_string(),
        "line 1: score 81 at position 71 is outside -64..=64"
    );
    let text = data("fforum-20-39.obf").replacen("X; H5", "X; J5", 1);
    let e = parse_obf(&text).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e
        .to_string()
        .starts_with("line 1: bad move \"J5\" at position 68"));
}
