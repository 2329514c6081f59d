//! Labelling the positions of recorded games (`othello label`), for training on real games.
//!
//! The input is a list of games, each given as the positions it went through from the
//! standard start ([`othello_tools::gamedb`] replays WTHOR, PGN, GGF and transcript files into this
//! form). Game `i` of the list is labelled independently of the others:
//!
//! 1. **Exact zone.** Every position with at most `exact_empties` empty squares (and a legal
//!    move for the side to move) is solved exactly ([`Searcher::solve`]) and labelled with the
//!    exact final disc difference ([`LabelKind::Exact`]).
//! 2. **Above it**, either
//!    - (default) the **game result**: the exact value of the game's first position inside the
//!      exact zone, seen from the labelled position's side to move ([`LabelKind::GameResult`]):
//!      the game as the players played it, finished perfectly. A game that ended earlier
//!      (both sides blocked) gives its final score; a game that stops before the exact zone
//!      without being over (abandoned, or cut short in the record) gives no result labels; or
//!    - with `depth = Some(d)`, the score of a depth-`d` search ([`LabelKind::Search`], or
//!      exact when the search solved the position), with the configured selectivity. A
//!      position met earlier in the list (under any of the eight symmetries) is searched only
//!      the first time ([`search_plan`]): tournament games share their openings. With
//!      `parity_mean`, the label is the mean of the last two iterations (depths `d − 1` and
//!      `d`) instead: a search of even depth ends on the opponent's replies and is
//!      pessimistic for the side to move, one of odd depth optimistic (measured on the WTHOR
//!      games: depth-10 labels lie 1.1-1.4 discs below the game results at 28-55 empties), so
//!      weights fitted to one depth's scores learn that bias and widen the odd/even swing of
//!      their own searches.
//! 3. **Deviations** (`deviations = k > 0`, with `depth`): instead of the game's positions,
//!    up to `k` of the *other* children of each position the run would label (moves the
//!    players did not play, drawn by a generator seeded with the game and ply), each labelled
//!    by the same rule: exact in the exact zone, the search above it. A search spends most of
//!    its evaluations on positions after inferior moves, which master games never show; this
//!    file is meant to be trained on beside one of the game positions.
//!
//! Each worker keeps one [`Searcher`], cleared at the start of every game, so a game's labels
//! depend only on the game and the settings. Games are appended to the data file whole
//! ([`super::pool`]); an interrupted run resumes where it stopped. The file header's seed is a
//! fingerprint of the games and the settings ([`fingerprint`]), so a resumed run refuses a
//! different input. Duplicate positions left in the file (the same opening in thousands of
//! games, in result mode) are merged by the trainer (`train --dedup`).

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::board::{Color, Position};
use crate::discs::CentiDiscs;
use crate::eval::EngineEval;
use crate::search::{Limits, Searcher, Selectivity};

use super::data::{label_of, open_for_append, LabelKind, Record};
use super::pool::append_games;
use super::LearnError;

/// The settings of a labelling run.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Label positions above the exact zone by a search of this depth instead of the game
    /// result.
    pub depth: Option<u32>,
    /// With `depth`: label only positions with more empties than this (the exact zone is
    /// skipped when it is covered by another file).
    pub above: u32,
    /// Forward pruning of those searches (`None`: full width).
    pub selectivity: Option<Selectivity>,
    /// With `depth`: label with the mean of the scores of depths `depth − 1` and `depth`
    /// (see the module documentation).
    pub parity_mean: bool,
    /// With `depth`: label, instead of the game's positions, up to this many random *other*
    /// children of each position the run would label (moves the players did not play), each
    /// by the same rule (exact solve in the exact zone, the search above it). Positions a
    /// search meets are mostly of this kind (after an inferior move), which game positions
    /// alone teach poorly. 0: label the game's positions.
    pub deviations: u32,
    /// Transposition table per thread, in MiB.
    pub hash_mb: usize,
    /// Worker threads.
    pub threads: usize,
    /// The evaluator of the searches.
    pub eval: EngineEval,
}

impl Default for LabelConfig {
    fn default() -> Self {
        LabelConfig {
            exact_empties: 20,
            depth: None,
            above: 0,
            selectivity: Some(crate::search::Selectivity::P73),
            parity_mean: false,
            deviations: 0,
            hash_mb: 16,
            threads: super::selfplay::default_threads(),
            eval: EngineEval::default(),
        }
    }
}

/// For every game, which of its positions a searched-label run searches: those above the
/// exact zone, with a legal move for the side to move, met for the first time in the list
/// (under symmetry).
pub fn search_plan(games: &[Vec<Position>], exact_empties: u32) -> Vec<Vec<bool>> {
    let mut seen = HashSet::new();
    games
        .iter()
        .map(|game| {
            game.iter()
                .map(|p| {
                    p.board.empty_count() > exact_empties
                        && p.board.moves() != 0
                        && seen.insert(p.board.canonical())
                })
                .collect()
        })
        .collect()
}

/// A fingerprint of the run: the games (every position) and the settings that change labels.
/// (The evaluator is not included: keep one data file per evaluator.)
pub fn fingerprint(games: &[Vec<Position>], config: &LabelConfig) -> u64 {
    let mut h = crate::eval::pattern::file::Fnv1a64::new();
    let mut eat = |x: u64| h.write(&x.to_le_bytes());
    eat(config.exact_empties as u64);
    eat(config.depth.map_or(0, |d| d as u64 + 1));
    eat(config.selectivity.map_or(0, |s| s.percent() as u64));
    if config.above > 0 {
        eat(config.above as u64 + 1000);
    }
    if config.parity_mean {
        eat(2000);
    }
    if config.deviations > 0 {
        eat(config.deviations as u64 + 3000);
    }
    for game in games {
        eat(game.len() as u64);
        for p in game {
            eat(p.board.player());
            eat(p.board.opponent());
        }
    }
    h.finish()
}

/// Labels game `index`, whose positions are `positions` (see the module documentation);
/// `plan` says which positions above the exact zone to search (searched-label runs only).
/// `searcher` is cleared first.
pub fn label_game(
    config: &LabelConfig,
    index: u32,
    positions: &[Position],
    plan: Option<&[bool]>,
    searcher: &mut Searcher<EngineEval>,
) -> Vec<Record> {
    searcher.clear();
    let mut labelled: Vec<(Position, Option<(i16, LabelKind)>)> = Vec::new();
    // The exact value of the game's first position in the exact zone, and its side to move.
    let mut anchor: Option<(Color, i32)> = None;
    for (i, pos) in positions.iter().enumerate() {
        let board = pos.board;
        if board.moves() == 0 || (config.depth.is_some() && board.empty_count() <= config.above) {
            continue;
        }
        let exact = board.empty_count() <= config.exact_empties;
        let searched =
            exact || (config.depth.is_some() && plan.is_some_and(|p| p.get(i) == Some(&true)));
        if config.deviations > 0 {
            if searched {
                let played = positions.get(i + 1).map(|p| p.board);
                for child in deviations(pos, played, config.deviations, index, i) {
                    let label = label_position(config, &child.board, searcher);
                    labelled.push((child, Some(label)));
                }
            }
            continue;
        }
        if exact {
            let (label, kind) = label_position(config, &board, searcher);
            if kind == LabelKind::Exact {
                // An exact label is whole discs (at most 64).
                let discs = CentiDiscs::from(label).whole_discs() as i32;
                anchor.get_or_insert((pos.side, discs));
            }
            labelled.push((*pos, Some((label, kind))));
        } else if config.depth.is_some() {
            if searched {
                labelled.push((*pos, Some(label_position(config, &board, searcher))));
            }
        } else {
            labelled.push((*pos, None));
        }
    }
    if anchor.is_none() {
        if let Some(last) = positions.last().filter(|p| p.board.is_game_over()) {
            anchor = Some((last.side, last.board.final_score()));
        }
    }
    labelled
        .into_iter()
        .filter_map(|(pos, label)| {
            let (label, kind) = match (label, anchor) {
                (Some(l), _) => l,
                (None, Some((side, value))) => {
                    let v = if side == pos.side { value } else { -value };
                    (
                        CentiDiscs::from_whole_discs(v).to_i16_clamped(),
                        LabelKind::GameResult,
                    )
                }
                (None, None) => return None,
            };
            Some(Record {
                board: pos.board,
                side: pos.side,
                game: index,
                label,
                kind,
                last: false,
            })
        })
        .collect()
}

/// The label of `board` (which has a legal move): its exact value in the exact zone, else the
/// score of the configured search.
fn label_position(
    config: &LabelConfig,
    board: &crate::board::Board,
    searcher: &mut Searcher<EngineEval>,
) -> (i16, LabelKind) {
    if board.empty_count() <= config.exact_empties {
        return label_of(searcher.solve(board, false, &mut ()).value);
    }
    let limits = Limits {
        depth: Some(config.depth.unwrap_or(1).max(1)),
        ..Limits::default()
    };
    let mut iterations: Vec<crate::search::SearchResult> = Vec::new();
    let result = searcher.search(board, &limits, &mut iterations);
    search_label(&result, &iterations, config)
}

/// Up to `count` distinct children of `pos` other than `played` (the position the game went
/// to), drawn uniformly by a generator seeded with the game and ply, so a game's draws do not
/// depend on the run. A child whose side to move must pass is given after the pass; finished
/// games are left out.
fn deviations(
    pos: &Position,
    played: Option<crate::board::Board>,
    count: u32,
    game: u32,
    ply: usize,
) -> Vec<Position> {
    use crate::board::Move;
    let mut candidates: Vec<Position> = pos
        .board
        .legal_moves()
        .filter_map(|sq| pos.try_play(Move::Place(sq)).ok())
        .filter(|child| Some(child.board) != played)
        .filter_map(|child| {
            if child.board.is_game_over() {
                None
            } else if child.board.moves() == 0 {
                child.try_play(Move::Pass).ok()
            } else {
                Some(child)
            }
        })
        .collect();
    let mut rng = crate::rng::SplitMix64::new(crate::rng::mix(game as u64, ply as u64));
    let mut out = Vec::new();
    while out.len() < count as usize && !candidates.is_empty() {
        let k = rng.below_u32(candidates.len());
        out.push(candidates.swap_remove(k));
    }
    out
}

/// The label of a searched position: its score, or with `parity_mean` the mean of the last two
/// midgame iterations when the final one is a heuristic score of the full depth.
fn search_label(
    result: &crate::search::SearchResult,
    iterations: &[crate::search::SearchResult],
    config: &LabelConfig,
) -> (i16, LabelKind) {
    use crate::search::Value;
    let (label, kind) = label_of(result.value);
    if !config.parity_mean || kind != LabelKind::Search {
        return (label, kind);
    }
    let previous = iterations
        .iter()
        .rev()
        .find(|it| it.depth + 1 == result.depth && matches!(it.value, Value::Heuristic(_)));
    match previous {
        Some(it) => {
            let (before, _) = label_of(it.value);
            (((label as i32 + before as i32) / 2) as i16, kind)
        }
        None => (label, kind),
    }
}

/// What a labelling run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelSummary {
    /// Games already complete in the file before the run.
    pub games_before: usize,
    /// Games labelled and appended by this run (those that gave at least one label).
    pub games_labelled: usize,
    /// Positions appended by this run.
    pub positions: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// Labels the games of `games` not yet in `path` on `config.threads` threads, appending each
/// game to `path`; reports each game to `progress`. Game `i` of the list
/// is game index `i` of the file.
pub fn run_label(
    config: &LabelConfig,
    games: &[Vec<Position>],
    path: &Path,
    progress: &crate::progress::Reporter,
) -> Result<LabelSummary, LearnError> {
    let start = Instant::now();
    let seed = fingerprint(games, config);
    if let Some(bytes) = crate::files::read_if_exists(path, crate::files::DATA_MAX_BYTES)? {
        if !bytes.is_empty() && super::data::parse_header(&bytes)? != seed {
            return Err(LearnError::Config(format!(
                "{} holds labels of other games or settings; resume with the same input and \
                 options, or write to another file",
                path.display()
            )));
        }
    }
    let (mut file, done) = open_for_append(path, seed)?;
    let todo: Vec<u32> = (0..games.len() as u32)
        .filter(|i| !done.contains(i))
        .collect();
    let plan = config
        .depth
        .map(|_| search_plan(games, config.exact_empties));
    let appended = append_games(
        path,
        &mut file,
        &todo,
        config.threads,
        progress,
        || {
            let mut s = Searcher::try_new(config.eval.clone(), config.hash_mb.max(1))?;
            s.set_selectivity(config.selectivity);
            Ok(s)
        },
        |searcher, index| {
            let i = index as usize;
            label_game(
                config,
                index,
                &games[i],
                plan.as_ref().map(|p| p[i].as_slice()),
                searcher,
            )
        },
    );
    let appended = appended?;
    Ok(LabelSummary {
        games_before: done.len(),
        games_labelled: appended.games,
        positions: appended.positions,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move};
    use crate::progress::Reporter;

    /// The positions of a game played from the start by always taking the first legal move.
    fn first_move_game(plies: usize) -> Vec<Position> {
        let mut pos = Position::start();
        let mut out = vec![pos];
        for _ in 0..plies {
            if pos.board.is_game_over() {
                break;
            }
            let moves = pos.board.moves();
            let mv = if moves == 0 {
                Move::Pass
            } else {
                Move::Place(crate::bitboard::squares(moves).next().expect("a move"))
            };
            pos = pos.try_play(mv).expect("legal");
            out.push(pos);
        }
        out
    }

    fn solved(pos: &Position) -> i32 {
        let mut s = Searcher::new(EngineEval::default(), 4);
        s.solve(&pos.board, false, &mut ()).value.discs() as i32
    }

    #[test]
    fn result_labels_are_the_exact_value_of_the_first_exact_zone_position() {
        let game = first_move_game(60);
        let config = LabelConfig {
            exact_empties: 12,
            threads: 1,
            ..LabelConfig::default()
        };
        let mut searcher = Searcher::new(EngineEval::default(), 4);
        let records = label_game(&config, 7, &game, None, &mut searcher);
        let anchor = game
            .iter()
            .find(|p| p.board.empty_count() <= 12 && p.board.moves() != 0)
            .expect("the game reaches 12 empties");
        let anchor_value = solved(anchor);
        let playable = game.iter().filter(|p| p.board.moves() != 0).count();
        assert_eq!(records.len(), playable);
        for r in &records {
            assert_eq!(r.game, 7);
            let pos = Position {
                board: r.board,
                side: r.side,
            };
            if r.board.empty_count() <= 12 {
                assert_eq!(r.kind, LabelKind::Exact);
                assert_eq!(r.label as i32, 100 * solved(&pos));
            } else {
                assert_eq!(r.kind, LabelKind::GameResult);
                let sign = if r.side == anchor.side { 1 } else { -1 };
                assert_eq!(r.label as i32, 100 * sign * anchor_value);
            }
        }
    }

    #[test]
    fn an_abandoned_game_gets_no_result_labels() {
        let game = first_move_game(20);
        let config = LabelConfig {
            exact_empties: 12,
            ..LabelConfig::default()
        };
        let mut searcher = Searcher::new(EngineEval::default(), 4);
        assert!(label_game(&config, 0, &game, None, &mut searcher).is_empty());
    }

    #[test]
    fn searched_labels_skip_positions_seen_before_under_symmetry() {
        let game = first_move_game(30);
        // The same game mirrored: every position is a symmetric image of one already seen.
        let mirrored: Vec<Position> = game
            .iter()
            .map(|p| Position {
                board: p.board.symmetry(3),
                side: p.side,
            })
            .collect();
        let plan = search_plan(&[game.clone(), mirrored.clone()], 20);
        let searched = plan[0].iter().filter(|&&k| k).count();
        assert_eq!(
            searched,
            game.iter()
                .filter(|p| p.board.empty_count() > 20 && p.board.moves() != 0)
                .count()
        );
        assert!(plan[1].iter().all(|&k| !k));
        let config = LabelConfig {
            depth: Some(2),
            ..LabelConfig::default()
        };
        let mut searcher = Searcher::new(EngineEval::default(), 4);
        let records = label_game(&config, 1, &mirrored, Some(&plan[1]), &mut searcher);
        assert!(records.iter().all(|r| r.board.empty_count() <= 20));
        let records = label_game(&config, 0, &game, Some(&plan[0]), &mut searcher);
        let above: Vec<&Record> = records
            .iter()
            .filter(|r| r.board.empty_count() > 20)
            .collect();
        assert_eq!(above.len(), searched);
        let mut fresh = Searcher::new(EngineEval::default(), 4);
        for r in above {
            assert_eq!(r.kind, LabelKind::Search);
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            let (label, _) = label_of(fresh.search(&r.board, &limits, &mut ()).value);
            assert_eq!(r.label, label);
        }
    }

    #[test]
    fn parity_mean_labels_average_the_last_two_depths() {
        let game = first_move_game(12);
        let eval = EngineEval::default();
        let config = LabelConfig {
            exact_empties: 0,
            depth: Some(3),
            parity_mean: true,
            ..LabelConfig::default()
        };
        let mut plain = config.clone();
        plain.parity_mean = false;
        let mut searcher = Searcher::new(eval.clone(), 1);
        let mut differ = 0;
        for i in 1..game.len() {
            // One searched position per call, so that each search starts from a clear table.
            let mut plan = vec![false; game.len()];
            plan[i] = true;
            let mean = label_game(&config, 0, &game, Some(&plan), &mut searcher);
            let last = label_game(&plain, 0, &game, Some(&plan), &mut searcher);
            searcher.clear();
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let mut iterations: Vec<crate::search::SearchResult> = Vec::new();
            searcher.search(&game[i].board, &limits, &mut iterations);
            let value = |d: u32| {
                let it = iterations.iter().rev().find(|it| it.depth == d).unwrap();
                label_of(it.value).0 as i32
            };
            assert_eq!(mean.len(), 1);
            assert_eq!(mean[0].label as i32, (value(2) + value(3)) / 2);
            assert_eq!(last[0].label as i32, value(3));
            differ += (mean[0].label != last[0].label) as u32;
        }
        assert!(differ > 0, "the two labellings never differ");
        assert_ne!(
            fingerprint(std::slice::from_ref(&game), &plain),
            fingerprint(&[game], &config)
        );
    }

    #[test]
    fn searched_labels_above_a_floor_skip_the_rest_of_the_game() {
        let game = first_move_game(60);
        let config = LabelConfig {
            depth: Some(1),
            above: 40,
            ..LabelConfig::default()
        };
        let plan = search_plan(std::slice::from_ref(&game), config.exact_empties);
        let mut searcher = Searcher::new(EngineEval::default(), 4);
        let records = label_game(&config, 0, &game, Some(&plan[0]), &mut searcher);
        let expected = game
            .iter()
            .filter(|p| p.board.empty_count() > 40 && p.board.moves() != 0)
            .count();
        assert_eq!(records.len(), expected);
        assert!(records
            .iter()
            .all(|r| r.board.empty_count() > 40 && r.kind == LabelKind::Search));
    }

    #[test]
    fn deviation_labels_are_other_children_labelled_by_the_same_rule() {
        let game = first_move_game(60);
        let config = LabelConfig {
            exact_empties: 10,
            depth: Some(2),
            deviations: 2,
            ..LabelConfig::default()
        };
        let plan = search_plan(std::slice::from_ref(&game), config.exact_empties);
        let mut searcher = Searcher::new(EngineEval::default(), 4);
        let records = label_game(&config, 3, &game, Some(&plan[0]), &mut searcher);
        let again = label_game(&config, 3, &game, Some(&plan[0]), &mut searcher);
        assert_eq!(
            records, again,
            "a game's deviations depend only on the game"
        );
        let mut expected_max = 0;
        for pos in &game {
            if pos.board.moves() == 0 {
                continue;
            }
            let others = pos.board.moves().count_ones() as usize - 1;
            expected_max += others.min(2);
        }
        assert!(!records.is_empty() && records.len() <= expected_max);
        let game_boards: HashSet<Board> = game.iter().map(|p| p.board).collect();
        let mut fresh = Searcher::new(EngineEval::default(), 4);
        for r in &records {
            assert!(
                !game_boards.contains(&r.board),
                "a game position was labelled"
            );
            assert!(r.board.moves() != 0);
            assert_eq!(r.game, 3);
            // Each record is a child (possibly after a pass) of some game position.
            assert!(game.iter().any(|p| p.board.legal_moves().any(|sq| {
                let b = p.board.play(sq);
                b == r.board || b.pass() == r.board
            })));
            fresh.clear();
            let expected = if r.board.empty_count() <= 10 {
                label_of(fresh.solve(&r.board, false, &mut ()).value)
            } else {
                let limits = Limits {
                    depth: Some(2),
                    ..Limits::default()
                };
                label_of(fresh.search(&r.board, &limits, &mut ()).value)
            };
            assert_eq!((r.label, r.kind), expected);
        }
        let plain = LabelConfig {
            deviations: 0,
            ..config.clone()
        };
        assert_ne!(
            fingerprint(std::slice::from_ref(&game), &plain),
            fingerprint(&[game], &config)
        );
    }

    #[test]
    fn a_resumed_run_refuses_other_games() {
        let dir = std::env::temp_dir().join(format!("othello-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("labels.dat");
        let _ = std::fs::remove_file(&path);
        let config = LabelConfig {
            exact_empties: 8,
            threads: 1,
            ..LabelConfig::default()
        };
        let games = vec![first_move_game(60)];
        let first = run_label(&config, &games, &path, &Reporter::silent()).expect("first run");
        assert_eq!(first.games_labelled, 1);
        let again = run_label(&config, &games, &path, &Reporter::silent()).expect("resume");
        assert_eq!((again.games_before, again.games_labelled), (1, 0));
        let other = vec![first_move_game(59)];
        assert!(run_label(&config, &other, &path, &Reporter::silent()).is_err());
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
