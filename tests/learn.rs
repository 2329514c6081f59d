//! Tests of the learning pipeline: data records and files (round trip, corruption, resume),
//! self-play (labels, determinism, resumability), and the trainer (recovers a known pattern
//! evaluator from positions it labelled; writes a loadable weight file).

mod common;

use std::path::PathBuf;

use common::SplitMix64;
use othello::board::Color;
use othello::eval::pattern::{PatternEval, FEATURES_PER_PHASE};
use othello::eval::{EngineEval, HandEval};
use othello::learn::data::{
    game_bytes, header_bytes, open_for_append, parse_data, read_records, LabelKind, Record,
    DATA_HEADER_LEN, RECORD_LEN,
};
use othello::learn::selfplay::{play_game, run_selfplay, SelfplayConfig};
use othello::learn::train::{is_validation, phase_errors, train, Sample, TrainConfig};
use othello::progress::Reporter;
use othello::search::{Searcher, Value};
use othello::weights::PatternFile;
use othello::Board;
use proptest::prelude::*;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("othello-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn small_config(games: u32, threads: usize) -> SelfplayConfig {
    SelfplayConfig {
        games,
        seed: 7,
        depth: 1,
        exact_empties: 10,
        random_plies: 2,
        epsilon: 0.2,
        label_depth: None,
        hash_mb: 1,
        threads,
        eval: EngineEval::Hand(HandEval::new()),
    }
}

fn any_record() -> impl Strategy<Value = Record> {
    (
        any::<u64>(),
        any::<u64>(),
        any::<u32>(),
        -6400i16..=6400,
        any::<bool>(),
        0u8..3,
        any::<bool>(),
    )
        .prop_map(|(a, b, game, label, white, kind, last)| Record {
            board: Board::new(a & !b, b).unwrap(),
            side: if white { Color::White } else { Color::Black },
            game,
            label,
            kind: [LabelKind::Exact, LabelKind::GameResult, LabelKind::Search][kind as usize],
            last,
        })
}

proptest! {
    #[test]
    fn records_round_trip(r in any_record()) {
        prop_assert_eq!(Record::from_bytes(&r.to_bytes()), Ok(r));
    }

    #[test]
    fn arbitrary_record_bytes_never_panic(b in any::<[u8; RECORD_LEN]>()) {
        if let Ok(r) = Record::from_bytes(&b) {
            prop_assert_eq!(r.to_bytes(), b);
        }
    }

    #[test]
    fn arbitrary_data_files_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..100)) {
        let _ = parse_data(&tail);
        let mut b = header_bytes(3).to_vec();
        b.extend_from_slice(&tail);
        let _ = parse_data(&b);
    }
}

#[test]
fn bad_records_and_headers_are_rejected() {
    let r = Record {
        board: Board::start(),
        side: Color::Black,
        game: 5,
        label: -300,
        kind: LabelKind::Exact,
        last: true,
    };
    let good = r.to_bytes();
    assert_eq!(good[16..20], 5u32.to_le_bytes());
    assert_eq!(good[23], 0x80);
    let mut b = good;
    b[0..8].copy_from_slice(&0x0000_0008_1000_0000u64.to_le_bytes());
    b[8..16].copy_from_slice(&0x0000_0008_0000_0000u64.to_le_bytes());
    assert_eq!(Record::from_bytes(&b), Err("overlapping discs"));
    let mut b = good;
    b[20..22].copy_from_slice(&6401i16.to_le_bytes());
    assert_eq!(Record::from_bytes(&b), Err("label out of range"));
    let mut b = good;
    b[22] = 2;
    assert_eq!(Record::from_bytes(&b), Err("bad colour byte"));
    let mut b = good;
    b[23] = 0x83;
    assert_eq!(Record::from_bytes(&b), Err("bad flags byte"));

    let mut file = header_bytes(9).to_vec();
    file.extend_from_slice(&good);
    assert_eq!(parse_data(&file).unwrap().records, vec![r]);
    let mut bad = file.clone();
    bad[0] = b'x';
    assert!(parse_data(&bad).unwrap_err().to_string().contains("magic"));
    let mut bad = file.clone();
    bad[8] = 9;
    assert!(parse_data(&bad)
        .unwrap_err()
        .to_string()
        .contains("version 9"));
    // A malformed complete record is an error naming it.
    let mut bad = file.clone();
    bad[DATA_HEADER_LEN + 22] = 7;
    assert!(parse_data(&bad)
        .unwrap_err()
        .to_string()
        .contains("record 0"));
}

#[test]
fn incomplete_trailing_games_are_skipped() {
    let rec = |game, last| Record {
        board: Board::start(),
        side: Color::Black,
        game,
        label: 0,
        kind: LabelKind::GameResult,
        last,
    };
    let mut file = header_bytes(1).to_vec();
    file.extend_from_slice(&game_bytes(&[rec(0, false), rec(0, false), rec(0, false)]));
    file.extend_from_slice(&rec(1, false).to_bytes()); // game 1 never finished
    file.extend_from_slice(&[1, 2, 3]); // and a partial record
    let d = parse_data(&file).unwrap();
    assert_eq!(d.records.len(), 3);
    assert!(d.records[2].last && !d.records[1].last);
    assert_eq!(d.skipped, 2);
}

#[test]
fn selfplay_labels_are_exact_where_solved_and_the_game_result_before() {
    let config = small_config(3, 1);
    let mut searcher = Searcher::new(config.eval.clone(), 1);
    let mut verify = Searcher::new(HandEval::new(), 1);
    for game in 0..3 {
        let recs = play_game(&config, game, &mut searcher);
        assert!(recs.len() > 30, "a game from 52 empties has many positions");
        assert!(recs.last().unwrap().last);
        assert!(recs[..recs.len() - 1].iter().all(|r| !r.last));
        // The game's records start at the start position: the XOT line (8 plies) and the two
        // random plies are recorded too, then the game proper from 50 empties.
        assert_eq!(recs[0].board, Board::start());
        assert_eq!(recs[10].board.empty_count(), 50);
        let first_exact = recs
            .iter()
            .position(|r| r.kind == LabelKind::Exact)
            .expect("every game reaches 10 empties here");
        assert!(recs[first_exact].board.empty_count() <= 10);
        for r in &recs {
            assert_eq!(r.game, game);
            assert!(
                r.board.moves() != 0,
                "only positions with a move are recorded"
            );
            if r.board.empty_count() <= 10 {
                assert_eq!(r.kind, LabelKind::Exact);
                verify.clear();
                let v = verify.solve(&r.board, false, &mut ()).value;
                assert_eq!(Value::Exact(r.label as i32 / 100), v);
                assert_eq!(r.label % 100, 0);
            } else {
                assert_eq!(r.kind, LabelKind::GameResult);
                // The anchor's value, from this side's point of view.
                let a = &recs[first_exact];
                let want = if r.side == a.side { a.label } else { -a.label };
                assert_eq!(r.label, want);
            }
        }
        // Colours alternate except around passes; consecutive boards differ.
        assert!(recs.windows(2).all(|w| w[0].board != w[1].board));
    }
}

#[test]
fn selfplay_resumes_and_does_not_depend_on_threads() {
    let dir = temp_dir("resume");
    let path = dir.join("d.dat");
    let s = run_selfplay(&small_config(3, 2), &path, &Reporter::silent()).unwrap();
    assert_eq!((s.games_before, s.games_played), (0, 3));
    // Extending to 5 plays only games 3 and 4.
    let s = run_selfplay(&small_config(5, 1), &path, &Reporter::silent()).unwrap();
    assert_eq!((s.games_before, s.games_played), (3, 2));
    let data = read_records(&path).unwrap();
    let mut games: Vec<u32> = data.records.iter().map(|r| r.game).collect();
    games.dedup();
    games.sort();
    assert_eq!(games, [0, 1, 2, 3, 4], "each game's records are contiguous");
    // Each game is the same as playing it alone with a fresh searcher.
    let config = small_config(5, 1);
    let mut searcher = Searcher::new(config.eval.clone(), 1);
    for g in 0..5 {
        let alone = play_game(&config, g, &mut searcher);
        let stored: Vec<Record> = data
            .records
            .iter()
            .filter(|r| r.game == g)
            .copied()
            .collect();
        assert_eq!(stored, alone, "game {g}");
    }
    // Nothing to do the third time.
    let s = run_selfplay(&small_config(5, 2), &path, &Reporter::silent()).unwrap();
    assert_eq!(s.games_played, 0);

    // A crash mid-write: the incomplete game is cut off and played again.
    let full = std::fs::read(&path).unwrap();
    let cut = full.len() - 5 * RECORD_LEN - 7;
    std::fs::write(&path, &full[..cut]).unwrap();
    let (_, done) = open_for_append(&path, 7).unwrap();
    assert_eq!(done.len(), 4);
    let s = run_selfplay(&small_config(5, 1), &path, &Reporter::silent()).unwrap();
    assert_eq!(s.games_played, 1);
    let again = read_records(&path).unwrap();
    assert_eq!(again.records.len(), data.records.len());
    assert_eq!(again.skipped, 0);

    // Another seed on the same file is refused.
    let mut other = small_config(5, 1);
    other.seed = 8;
    let e = run_selfplay(&other, &path, &Reporter::silent()).unwrap_err();
    assert!(e.to_string().contains("seed 7"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Random reachable positions with a legal move, from random play-outs of `max_plies` plies.
fn positions_with_moves(n: usize, max_plies: usize, seed: u64) -> Vec<Board> {
    common::playout_positions(n, seed, max_plies, |b| b.moves() != 0)
}

/// Compact weights for `phases` phases, each uniform in `-amp..=amp`, from `seed`.
fn random_weights(phases: usize, amp: u64, seed: u64) -> Vec<i16> {
    let mut rng = SplitMix64::new(seed);
    (0..phases * FEATURES_PER_PHASE)
        .map(|_| (rng.below(2 * amp + 1) as i64 - amp as i64) as i16)
        .collect()
}

#[test]
fn the_trainer_recovers_a_known_evaluator() {
    // A known evaluator with random weights (up to about 2 discs each) in 2 phases.
    let phases = 2;
    let known_w = random_weights(phases, 512, 99);
    let known = PatternEval::from_compact(phases, known_w, String::new()).unwrap();
    // Many early positions (at most 14 plies: phase 0, where configurations repeat) and some
    // from whole games (phase 1 is 29 empties and fewer).
    let mut boards = positions_with_moves(30_000, 14, 1);
    boards.extend(positions_with_moves(10_000, 60, 2));
    let samples: Vec<Sample> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| Sample {
            board: *b,
            label: known.score_units(b) as f64 / 256.0,
            group: i as u32,
        })
        .collect();
    let spread = samples.iter().map(|s| s.label.abs()).sum::<f64>() / samples.len() as f64;
    assert!(spread > 3.0, "labels vary: mean |label| {spread}");
    let config = TrainConfig {
        phases,
        iterations: 150,
        lambda: 1e-3,
        smooth: 0.0,
        validation: 0.2,
        threads: 2,
        seed: 5,
        report_every: 50,
        description: "synthetic".into(),
        dedup: false,
        result_mix: 0.0,
        debias: false,
        prior: None,
    };
    let mut lines = Vec::new();
    let (eval, report) = train(&samples, &config, &mut |l| lines.push(l.to_string())).unwrap();
    eprintln!(
        "{}\n{}",
        lines.join("\n"),
        othello::learn::train::format_report(&report)
    );
    assert!(lines.iter().any(|l| l.contains("iteration")), "{lines:?}");
    // The training positions are fitted almost exactly (quantisation to 1/256 disc and
    // centi-disc rounding leave a few hundredths).
    assert!(report.train_mae < 0.1, "train MAE {}", report.train_mae);
    // Validation positions whose features were all seen in training are predicted well.
    let seen: std::collections::HashSet<(usize, u32)> = samples
        .iter()
        .filter(|s| !is_validation(s.group, 5, 0.2))
        .flat_map(|s| {
            let p = eval.phase(s.board.empty_count());
            othello::eval::pattern::features(&s.board).map(move |f| (p, f))
        })
        .collect();
    let covered: Vec<&Sample> = samples
        .iter()
        .filter(|s| is_validation(s.group, 5, 0.2))
        .filter(|s| {
            let p = eval.phase(s.board.empty_count());
            othello::eval::pattern::features(&s.board)
                .iter()
                .all(|&f| seen.contains(&(p, f)))
        })
        .collect();
    assert!(
        covered.len() > 500,
        "{} covered validation positions",
        covered.len()
    );
    let err: f64 = phase_errors(&eval, covered.iter().copied())
        .iter()
        .filter(|e| e.0 > 0)
        .map(|e| e.1 * e.0 as f64)
        .sum::<f64>()
        / covered.len() as f64;
    assert!(
        err < 0.15 * spread,
        "covered validation MAE {err} vs mean |label| {spread}"
    );
    // An untrained evaluator is far off on the same positions (the check can fail).
    let zero = PatternEval::zero(phases).unwrap();
    let zero_err: f64 = phase_errors(&zero, covered.iter().copied())
        .iter()
        .filter(|e| e.0 > 0)
        .map(|e| e.1 * e.0 as f64)
        .sum::<f64>()
        / covered.len() as f64;
    assert!(zero_err > 3.0 * err, "{zero_err} vs {err}");
    // The weights survive the file format and keep their description.
    let back = PatternEval::from_bytes(&eval.to_bytes()).unwrap();
    assert!(back.meta().starts_with("synthetic\ntrained on"));
    for s in covered.iter().take(200) {
        assert_eq!(
            othello::eval::Evaluator::evaluate(&back, &s.board),
            othello::eval::Evaluator::evaluate(&eval, &s.board)
        );
    }
}

#[test]
fn training_on_selfplay_data_writes_a_loadable_weight_file() {
    let dir = temp_dir("train");
    let data = dir.join("d.dat");
    run_selfplay(&small_config(10, 2), &data, &Reporter::silent()).unwrap();
    let out = dir.join("w.bin");
    let config = TrainConfig {
        phases: 4,
        iterations: 20,
        validation: 0.5,
        threads: 2,
        report_every: 5,
        ..TrainConfig::default()
    };
    let mut text = Vec::new();
    let report =
        othello::learn::train::train_files(std::slice::from_ref(&data), &config, &out, &mut text)
            .unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("phase  empties"), "{text}");
    assert!(text.contains("wrote"), "{text}");
    assert_eq!(report.phases.len(), 4);
    assert!(report.train_count > 0 && report.val_count > 0);
    assert!(report.train_mae.is_finite());
    let w = PatternEval::load(&out).unwrap();
    assert_eq!(w.phases(), 4);
    assert!(w.meta().contains("d.dat"), "{}", w.meta());
    // Bad settings are refused.
    let bad = TrainConfig {
        phases: 0,
        ..config.clone()
    };
    assert!(othello::learn::train::train_files(&[data], &bad, &out, &mut Vec::new()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn phases_without_data_copy_the_nearest_phase_with_data() {
    // Positions with 20-40 empties only: with 4 phases (0: 60-45 empties, 1: 44-30, 2: 29-15,
    // 3: 14-0), phases 0 and 3 get no data.
    let phases = 4;
    let boards: Vec<Board> = positions_with_moves(4_000, 40, 7)
        .into_iter()
        .filter(|b| (20..=40).contains(&b.empty_count()))
        .collect();
    let samples: Vec<Sample> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| Sample {
            board: *b,
            label: (b.player().count_ones() as f64 - b.opponent().count_ones() as f64) / 2.0,
            group: i as u32,
        })
        .collect();
    let config = TrainConfig {
        phases,
        iterations: 30,
        validation: 0.0,
        threads: 1,
        report_every: 10,
        ..TrainConfig::default()
    };
    let mut lines = Vec::new();
    let (eval, _) = train(&samples, &config, &mut |l| lines.push(l.to_string())).unwrap();
    let w = eval.compact_weights();
    let phase = |p: usize| &w[p * FEATURES_PER_PHASE..(p + 1) * FEATURES_PER_PHASE];
    assert!(phase(1).iter().any(|&x| x != 0));
    assert_eq!(phase(0), phase(1), "phase 0 copies phase 1");
    assert_eq!(phase(3), phase(2), "phase 3 copies phase 2");
    assert_ne!(phase(1), phase(2));
    assert!(lines
        .iter()
        .any(|l| l.contains("phase 0 has no training positions")));
}

#[test]
fn opening_records_of_older_data_are_the_openings_self_play_now_records() {
    use othello::learn::selfplay::opening_records;
    let config = small_config(4, 1);
    let mut searcher = Searcher::new(config.eval.clone(), 1);
    for game in 0..4 {
        let recs = play_game(&config, game, &mut searcher);
        // Data as it was before openings were recorded: from 50 empties on.
        let split = recs
            .iter()
            .position(|r| r.board.empty_count() <= 50)
            .unwrap();
        let (opening, rest) = recs.split_at(split);
        assert_eq!(opening.len(), 10);
        let mut want = opening.to_vec();
        want.last_mut().unwrap().last = true;
        assert_eq!(opening_records(&config, rest), want);
    }
}

/// The games of the 1977 WTHOR sample, as positions.
fn wthor_1977() -> Vec<Vec<othello::board::Position>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/wthor/WTH_1977.pgn");
    othello::gamedb::read_games(&path, None)
        .unwrap()
        .iter()
        .map(|g| g.replay().unwrap())
        .collect()
}

#[test]
fn real_games_are_labelled_exactly_near_the_end_and_by_their_perfect_result_before() {
    use othello::learn::label::{run_label, LabelConfig};
    let games = wthor_1977();
    assert_eq!(games.len(), 12);
    let dir = temp_dir("label");
    let path = dir.join("w.dat");
    let config = LabelConfig {
        exact_empties: 10,
        threads: 2,
        hash_mb: 1,
        ..LabelConfig::default()
    };
    let s = run_label(&config, &games, &path, &Reporter::silent()).unwrap();
    assert_eq!((s.games_before, s.games_labelled), (0, 12));
    let data = read_records(&path).unwrap();
    assert_eq!(data.records.len(), s.positions);
    let mut solver = Searcher::new(EngineEval::default(), 1);
    for (g, game) in games.iter().enumerate() {
        let stored: Vec<&Record> = data.records.iter().filter(|r| r.game == g as u32).collect();
        // Every position where the side to move can move, once.
        let playable: Vec<_> = game.iter().filter(|p| p.board.moves() != 0).collect();
        assert_eq!(stored.len(), playable.len(), "game {g}");
        // The first exact-zone position's solve is the result labelling the earlier ones.
        let anchor = playable
            .iter()
            .find(|p| p.board.empty_count() <= 10)
            .expect("complete games reach 10 empties");
        let anchor_value = solver.solve(&anchor.board, false, &mut ()).value;
        let Value::Exact(anchor_value) = anchor_value else {
            panic!("an exact solve")
        };
        for (r, p) in stored.iter().zip(&playable) {
            assert_eq!((r.board, r.side), (p.board, p.side));
            if p.board.empty_count() <= 10 {
                assert_eq!(r.kind, LabelKind::Exact);
                let Value::Exact(v) = solver.solve(&p.board, false, &mut ()).value else {
                    panic!("an exact solve")
                };
                assert_eq!(r.label as i32, 100 * v);
            } else {
                assert_eq!(r.kind, LabelKind::GameResult);
                let sign = if p.side == anchor.side { 1 } else { -1 };
                assert_eq!(r.label as i32, 100 * sign * anchor_value);
            }
        }
    }
    // Resuming does nothing; other settings on the same file are refused.
    let s = run_label(&config, &games, &path, &Reporter::silent()).unwrap();
    assert_eq!((s.games_before, s.games_labelled), (12, 0));
    let other = LabelConfig {
        exact_empties: 12,
        ..config
    };
    assert!(run_label(&other, &games, &path, &Reporter::silent()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn duplicates_under_symmetry_merge_into_the_mean_of_their_best_labels() {
    use othello::learn::train::merge_duplicates;
    let start = Board::start();
    let after_f5 = start.play("f5".parse::<othello::square::Square>().unwrap());
    let record = |board: Board, label: i16, kind: LabelKind, game: u32| Record {
        board,
        side: Color::Black,
        game,
        label,
        kind,
        last: true,
    };
    let records = [
        record(start, 200, LabelKind::GameResult, 0),
        record(after_f5, 100, LabelKind::GameResult, 0),
        record(start.symmetry(5), -400, LabelKind::GameResult, 1),
        record(after_f5.symmetry(2), 300, LabelKind::Search, 1),
        record(after_f5.symmetry(6), 500, LabelKind::Search, 2),
        record(start.symmetry(1), 0, LabelKind::GameResult, 3),
    ];
    let samples = merge_duplicates(&records);
    assert_eq!(samples.len(), 2);
    // The start: the mean of three game results, in the first game's group.
    assert_eq!((samples[0].board, samples[0].group), (start, 0));
    assert!((samples[0].label - (2.0 - 4.0 + 0.0) / 3.0).abs() < 1e-12);
    // After f5: the search scores win over the game result.
    assert_eq!((samples[1].board, samples[1].group), (after_f5, 0));
    assert!((samples[1].label - 4.0).abs() < 1e-12);
}

/// A record of a recorded game, not its last.
fn record(board: Board, side: Color, label: i16, kind: LabelKind, game: u32) -> Record {
    Record {
        board,
        side,
        game,
        label,
        kind,
        last: false,
    }
}

#[test]
fn result_mix_blends_search_labels_before_the_first_exact_record_with_the_game_result() {
    use othello::learn::train::mix_game_results;
    let b = Board::start();
    let record = |side, label, kind, game| record(b, side, label, kind, game);
    let mut records = vec![
        // Game 4: two search labels, then the first exact record (+6 for White), then more.
        record(Color::Black, 200, LabelKind::Search, 4),
        record(Color::White, 1000, LabelKind::Search, 4),
        record(Color::White, 600, LabelKind::Exact, 4),
        record(Color::Black, -800, LabelKind::Search, 4),
        record(Color::Black, -600, LabelKind::Exact, 4),
        // Game 5: no exact record, left alone.
        record(Color::Black, 300, LabelKind::Search, 5),
        // Game 6: a result label is not a search label.
        record(Color::Black, 100, LabelKind::GameResult, 6),
        record(Color::White, -1000, LabelKind::Exact, 6),
    ];
    let before = records.clone();
    mix_game_results(&mut records, 0.25);
    let labels: Vec<i16> = records.iter().map(|r| r.label).collect();
    // Black: 0.75 * 2 + 0.25 * (-6) = 0; White: 0.75 * 10 + 0.25 * 6 = 9.
    assert_eq!(labels, [0, 900, 600, -800, -600, 300, 100, -1000]);
    let mut untouched = before.clone();
    mix_game_results(&mut untouched, 0.0);
    assert_eq!(untouched, before);
}

#[test]
fn debias_removes_the_mean_offset_of_search_labels_from_game_results_per_empties() {
    use othello::learn::train::debias_search_labels;
    let b = Board::start(); // 60 empties
    let later = b.play("f5".parse::<othello::square::Square>().unwrap()); // 59
    let mut records = vec![
        // Game 1 ends +4 for Black; game 2 ends -2 for Black (+2 for White).
        record(b, Color::Black, 700, LabelKind::Search, 1),
        record(later, Color::White, -100, LabelKind::Search, 1),
        record(b, Color::Black, 400, LabelKind::Exact, 1),
        record(b, Color::Black, 100, LabelKind::Search, 2),
        record(later, Color::White, 500, LabelKind::Search, 2),
        record(b, Color::White, 200, LabelKind::Exact, 2),
        // Game 3: no result, but still shifted.
        record(b, Color::Black, 0, LabelKind::Search, 3),
    ];
    let shift = debias_search_labels(&mut records);
    // 60 empties: (7 - 4) and (1 - -2) -> +3. 59 empties: (-1 - -4) and (5 - 2) -> +3.
    assert_eq!(shift[60], Some(3.0));
    assert_eq!(shift[59], Some(3.0));
    assert_eq!(shift[20], None);
    let labels: Vec<i16> = records.iter().map(|r| r.label).collect();
    assert_eq!(labels, [400, -400, 400, -200, 200, 200, -300]);
}

#[test]
fn a_prior_keeps_the_weights_the_data_does_not_reach_and_corrects_the_rest() {
    // A known evaluator with random weights in 2 phases serves as the prior.
    let phases = 2;
    let prior_w = random_weights(phases, 256, 41);
    let prior = std::sync::Arc::new(
        PatternEval::from_compact(phases, prior_w.clone(), String::new()).unwrap(),
    );
    let boards = positions_with_moves(6_000, 60, 3);
    let value = |b: &Board| prior.score_units(b) as f64 / 256.0;
    let labelled = |shift: f64| -> Vec<Sample> {
        boards
            .iter()
            .enumerate()
            .map(|(i, b)| Sample {
                board: *b,
                label: value(b) + shift,
                group: i as u32,
            })
            .collect()
    };
    let config = TrainConfig {
        phases,
        iterations: 60,
        validation: 0.0,
        threads: 2,
        report_every: 20,
        prior: Some(prior.clone()),
        ..TrainConfig::default()
    };
    // Labels that the prior already gives: nothing to correct, the prior comes back unchanged.
    let (same, _) = train(&labelled(0.0), &config, &mut |_| {}).unwrap();
    assert_eq!(same.compact_weights(), &prior_w[..]);
    // From zero, the same labels give other weights (the check can fail).
    let from_zero = TrainConfig {
        prior: None,
        ..config.clone()
    };
    let (fresh, _) = train(&labelled(0.0), &from_zero, &mut |_| {}).unwrap();
    assert_ne!(fresh.compact_weights(), &prior_w[..]);
    assert!(
        same.meta()
            .contains("fitted as a correction to prior weights"),
        "{}",
        same.meta()
    );
    // Labels two discs above the prior: the fit follows them, and every weight that no
    // position uses keeps the prior's value.
    let (moved, report) = train(&labelled(2.0), &config, &mut |_| {}).unwrap();
    assert!(report.train_mae < 0.25, "train MAE {}", report.train_mae);
    let mean_shift = boards
        .iter()
        .map(|b| moved.score_units(b) as f64 / 256.0 - value(b))
        .sum::<f64>()
        / boards.len() as f64;
    assert!((mean_shift - 2.0).abs() < 0.1, "mean shift {mean_shift}");
    let mut used = vec![false; phases * FEATURES_PER_PHASE];
    for b in &boards {
        let base = moved.phase(b.empty_count()) * FEATURES_PER_PHASE;
        for f in othello::eval::pattern::features(b) {
            used[base + f as usize] = true;
        }
    }
    let unused: Vec<usize> = (0..used.len()).filter(|&j| !used[j]).collect();
    assert!(unused.len() > 100_000, "{} unused weights", unused.len());
    let kept = unused
        .iter()
        .filter(|&&j| moved.compact_weights()[j] == prior_w[j])
        .count();
    // The smoothing term lends a little of a neighbouring phase's correction to a few of them.
    assert!(
        kept as f64 > 0.95 * unused.len() as f64,
        "{kept} of {} unused weights kept",
        unused.len()
    );
    // A prior with another number of phases is refused.
    let other = TrainConfig {
        phases: 3,
        ..config
    };
    let e = train(&labelled(0.0), &other, &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("prior has 2 phases"), "{e}");
}

#[test]
fn a_description_longer_than_the_file_allows_is_cut_on_a_character_boundary() {
    let samples: Vec<Sample> = positions_with_moves(200, 30, 4)
        .into_iter()
        .enumerate()
        .map(|(i, board)| Sample {
            board,
            label: 1.0,
            group: i as u32,
        })
        .collect();
    // 3-byte characters: the byte limit falls inside one of them.
    let limit = othello::eval::pattern::file::MAX_META_LEN;
    assert_ne!(limit % 3, 0);
    let config = TrainConfig {
        phases: 1,
        iterations: 2,
        validation: 0.0,
        threads: 1,
        description: "€".repeat(limit),
        ..TrainConfig::default()
    };
    let (eval, _) = train(&samples, &config, &mut |_| {}).unwrap();
    assert_eq!(eval.meta().len(), limit - limit % 3);
    assert!(eval.meta().chars().all(|c| c == '€'));
    let back = PatternEval::from_bytes(&eval.to_bytes()).unwrap();
    assert_eq!(back.meta(), eval.meta());
}
