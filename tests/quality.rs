//! The move-quality benchmark on the first positions of `tests/data/quality-30.obf`: every row
//! is checked against the file, and the totals against the rows.

use std::path::PathBuf;

use othello::eval::EngineEval;
use othello::obf::{parse_obf, ObfEntry};
use othello::quality::{run_quality, QualityOptions, QualitySummary};
use othello::search::Limits;
use othello::Move;

/// Positions searched (depth 2 takes well under a millisecond each).
const POSITIONS: usize = 8;

fn entries() -> Vec<ObfEntry> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "data",
        "quality-30.obf",
    ]
    .iter()
    .collect();
    let text = std::fs::read_to_string(&path).unwrap();
    parse_obf(&text).unwrap()
}

fn depth(d: u32) -> QualityOptions {
    QualityOptions {
        limits: Limits {
            depth: Some(d),
            ..Limits::default()
        },
        hash_mb: 4,
        first_number: 1,
        eval: EngineEval::default(),
        selectivity: None,
        game_clock: None,
    }
}

fn run(entries: &[ObfEntry], options: &QualityOptions) -> (QualitySummary, String) {
    let mut out = Vec::new();
    let summary = run_quality(entries, options, &mut out).unwrap();
    (summary, String::from_utf8(out).unwrap())
}

#[test]
fn depth_2_rows_agree_with_the_file_and_totals_with_the_rows() {
    let all = entries();
    let entries = &all[..POSITIONS];
    let (s, text) = run(entries, &depth(2));
    assert_eq!(s.rows.len(), POSITIONS);
    assert_eq!((s.scored, s.errors), (POSITIONS, 0));

    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), POSITIONS + 2, "{text}");
    let (mut best_moves, mut total_loss, mut nodes) = (0, 0, 0);
    let (mut within_3, mut value_error) = (0usize, 0.0f64);
    for (i, (row, entry)) in s.rows.iter().zip(entries).enumerate() {
        let board = entry.position.board;
        let Move::Place(sq) = row.chosen else {
            panic!("position {}: chose {}", i + 1, row.chosen)
        };
        assert!(board.is_legal(sq), "position {}: {sq} is illegal", i + 1);
        let best = entry.moves.iter().map(|&(_, s)| s).max().unwrap();
        let score = entry
            .moves
            .iter()
            .find(|&&(m, _)| m == row.chosen)
            .unwrap()
            .1;
        assert_eq!((row.best, row.score), (Some(best), Some(score)));
        assert_eq!(row.loss(), Some(best - score));
        assert!(best - score >= 0);
        assert_eq!((row.number, row.empties, row.depth), (i + 1, 30, 2));
        assert!(row.nodes > 0);

        // The printed row: number, empties, move, score, best, loss, value, depth, nodes.
        let fields: Vec<&str> = lines[i + 1].split_whitespace().collect();
        let expected = [
            (i + 1).to_string(),
            "30".to_string(),
            row.chosen.to_string(),
            format!("{score:+}"),
            format!("{best:+}"),
            (best - score).to_string(),
            format!("{:+.1}", row.value),
            "2".to_string(),
            row.nodes.to_string(),
        ];
        assert_eq!(fields[..9], expected, "{text}");
        let error = (row.value - f64::from(best)).abs();
        within_3 += (error <= 3.0) as usize;
        value_error += error;

        best_moves += (score == best) as usize;
        total_loss += i64::from(best - score);
        nodes += row.nodes;
    }
    assert_eq!(
        (s.best_moves, s.total_loss, s.nodes),
        (best_moves, total_loss, nodes)
    );
    let rate = 100.0 * best_moves as f64 / POSITIONS as f64;
    let mean = total_loss as f64 / POSITIONS as f64;
    assert!((s.best_move_rate() - rate).abs() < 1e-9);
    assert!((s.mean_loss() - mean).abs() < 1e-9);
    let within = 100.0 * within_3 as f64 / POSITIONS as f64;
    let mae = value_error / POSITIONS as f64;
    let totals = format!(
        "total: {POSITIONS} positions, best move {rate:.1}% ({best_moves}/{POSITIONS}), \
         mean loss {mean:.2} discs, value within 3 discs {within:.1}%, value MAE {mae:.2} \
         discs, {nodes} nodes, "
    );
    assert!(lines[POSITIONS + 1].starts_with(&totals), "{text}");
}

#[test]
fn each_position_starts_from_an_empty_table() {
    // A position gives the same move and node count alone as after the others.
    let all = entries();
    let options = depth(4);
    let (together, _) = run(&all[..4], &options);
    for (i, row) in together.rows.iter().enumerate() {
        let (alone, _) = run(&all[i..=i], &options);
        let alone = &alone.rows[0];
        assert_eq!(
            (alone.chosen, alone.nodes, alone.depth),
            (row.chosen, row.nodes, row.depth),
            "position {}",
            i + 1
        );
    }
}

#[test]
fn a_deeper_search_loses_less_on_these_positions() {
    // Not a law for every position, but on the first 8 the depth-4 searches lose no more in
    // total than the depth-1 searches (a sanity check that the measurement tracks search).
    let all = entries();
    let (shallow, _) = run(&all[..POSITIONS], &depth(1));
    let (deeper, _) = run(&all[..POSITIONS], &depth(4));
    assert!(shallow.rows.iter().all(|r| r.depth == 1));
    assert!(deeper.rows.iter().all(|r| r.depth == 4));
    assert!(
        deeper.total_loss <= shallow.total_loss,
        "depth 4: {}, depth 1: {}",
        deeper.total_loss,
        shallow.total_loss
    );
}
