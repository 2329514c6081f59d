//! Self-play data generation (`othello selfplay`).
//!
//! Game `i` of a run seeded `s` is a pure function of `(s, i)` and the settings:
//!
//! 1. A generator seeded `mix(s, i)` ([`crate::rng`]) picks one of the 10,784 XOT openings
//!    (8 plies, 52 empties) and then plays `random_plies` uniformly random moves.
//! 2. While more than `exact_empties` squares are empty, the side to move searches to `depth`
//!    plies ([`Searcher::search`] with a fixed depth and no time limit) and plays the best move.
//!    No random moves are played here: one would change the result that labels every earlier
//!    position (step 4).
//!    (The searcher solves exactly on its own once the position is within
//!    `min(22, depth + 10)` empties; a small depth keeps that below `exact_empties`.)
//! 3. From `exact_empties` empties down, every position is solved exactly
//!    ([`Searcher::solve`]) and labelled with the exact score ([`LabelKind::Exact`]); the game
//!    goes on with the solver's best move, or a uniformly random one with probability
//!    `epsilon`, so the endgame positions vary too.
//! 4. Positions before that, the opening's included (from the start position on, so that the
//!    first phases have data too; the random plies make those labels a little noisier), are
//!    labelled ([`LabelKind::GameResult`]) with the exact value of the
//!    game's first position at or below `exact_empties` empties: the final result of the game as
//!    played so far and then finished perfectly, from the labelled position's side to move. (If
//!    the game ends earlier, the final score.) With `label_depth = Some(d)` they are labelled
//!    instead with the score of a depth-`d` search ([`LabelKind::Search`], or
//!    [`LabelKind::Exact`] when that search solved the position).
//!
//! Only positions where the side to move has a legal move are recorded (passes and the final
//! position are not). Each worker thread keeps one [`Searcher`], cleared at the start of every
//! game, so a game's records do not depend on the thread count or on the other games.
//!
//! Games already complete in the output file (by index) are skipped, so an interrupted run
//! resumes where it stopped, and a larger `games` extends a file.

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::bitboard::squares;
use crate::board::{Board, Color, Move, Position};
use crate::discs::CentiDiscs;
use crate::eval::{EngineEval, HandEval};
use crate::search::{Limits, Searcher};

use super::data::{game_bytes, label_of, open_for_append, LabelKind, Record};
use super::pool::append_games;
use super::LearnError;
use crate::rng::{mix, SplitMix64};

/// The settings of a self-play run.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Games `0..games` are wanted in the file (those already there are skipped).
    pub games: u32,
    /// The run seed (stored in the file; resuming needs the same one).
    pub seed: u64,
    /// Depth of the move-choice search, in plies.
    pub depth: u32,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Random moves after the XOT opening.
    pub random_plies: u32,
    /// Probability of a random move instead of the solver's, inside the exact zone only.
    pub epsilon: f64,
    /// Label positions above `exact_empties` by a search of this depth instead of the game
    /// result.
    pub label_depth: Option<u32>,
    /// Transposition table per thread, in MiB.
    pub hash_mb: usize,
    /// Worker threads.
    pub threads: usize,
    /// The evaluator of the searches.
    pub eval: EngineEval,
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        SelfplayConfig {
            games: 1000,
            seed: 1,
            depth: 4,
            exact_empties: 20,
            random_plies: 2,
            epsilon: 0.05,
            label_depth: None,
            hash_mb: 16,
            threads: default_threads(),
            eval: EngineEval::Hand(HandEval::new()),
        }
    }
}

/// The number of hardware threads (1 if unknown).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn openings() -> &'static [&'static str] {
    static LIST: OnceLock<Vec<&'static str>> = OnceLock::new();
    LIST.get_or_init(|| crate::xot::openings().collect())
}

fn random_move(board: &Board, rng: &mut SplitMix64) -> Move {
    let m = board.moves();
    let k = rng.below(m.count_ones() as u64) as usize;
    squares(m).nth(k).map_or(Move::Pass, Move::Place)
}

/// The opening of game `index` (step 1 of the module documentation): the positions from the
/// start through the XOT line and the random plies at which the side to move had a legal move,
/// the position the game proper starts from, and the generator in the state the game goes on
/// with.
fn opening(config: &SelfplayConfig, index: u32) -> (Vec<(Board, Color)>, Position, SplitMix64) {
    let mut rng = SplitMix64::new(mix(config.seed, index as u64));
    let list = openings();
    let line = list[rng.below(list.len() as u64) as usize];
    let mut pos = Position::start();
    let mut before = Vec::new();
    for mv in crate::xot::parse_moves(line).expect("bundled XOT lines are well formed") {
        before.push((pos.board, pos.side));
        pos = pos.try_play(mv).expect("bundled XOT lines are legal");
    }
    for _ in 0..config.random_plies {
        if pos.board.is_game_over() {
            break;
        }
        if pos.board.moves() != 0 {
            before.push((pos.board, pos.side));
        }
        let mv = random_move(&pos.board, &mut rng);
        pos = pos
            .try_play(mv)
            .expect("a random legal move or a forced pass");
    }
    (before, pos, rng)
}

/// Plays game `index` of the run and returns its labelled positions (see the module
/// documentation). `searcher` is cleared first.
pub fn play_game(
    config: &SelfplayConfig,
    index: u32,
    searcher: &mut Searcher<EngineEval>,
) -> Vec<Record> {
    let (before, mut pos, mut rng) = opening(config, index);
    searcher.clear();
    // Position, colour to move, label if already known.
    type Pending = (Board, Color, Option<(i16, LabelKind)>);
    let mut records: Vec<Pending> = before.into_iter().map(|(b, c)| (b, c, None)).collect();
    // The exact value of the first position at or below exact_empties, and its side to move.
    let mut anchor: Option<(Color, i32)> = None;
    loop {
        let board = pos.board;
        if board.is_game_over() {
            anchor.get_or_insert((pos.side, board.final_score()));
            break;
        }
        if board.moves() == 0 {
            pos = pos.try_play(Move::Pass).expect("a forced pass is legal");
            continue;
        }
        // Random moves only inside the exact zone: there every label is an exact solve, while
        // above it a random move would corrupt the game-result labels of all earlier positions.
        let exact_zone = board.empty_count() <= config.exact_empties;
        let random = exact_zone && rng.chance(config.epsilon);
        let best = if exact_zone {
            let r = searcher.solve(&board, false, &mut ());
            let (label, kind) = label_of(r.value);
            if kind == LabelKind::Exact {
                anchor.get_or_insert((pos.side, r.value.discs() as i32));
            }
            records.push((board, pos.side, Some((label, kind))));
            r.best
        } else {
            let limits = Limits {
                depth: Some(config.depth.max(1)),
                ..Limits::default()
            };
            let r = searcher.search(&board, &limits, &mut ());
            let label = match config.label_depth {
                Some(d) if d == config.depth.max(1) => Some(label_of(r.value)),
                Some(d) => {
                    let deeper = Limits {
                        depth: Some(d.max(1)),
                        ..Limits::default()
                    };
                    Some(label_of(searcher.search(&board, &deeper, &mut ()).value))
                }
                None => None,
            };
            records.push((board, pos.side, label));
            r.best
        };
        let mv = if random {
            random_move(&board, &mut rng)
        } else {
            best
        };
        pos = pos.try_play(mv).expect("the searcher returns a legal move");
    }
    let (anchor_side, anchor_value) = anchor.expect("the loop ends with a game over");
    let n = records.len();
    records
        .into_iter()
        .enumerate()
        .map(|(i, (board, side, label))| {
            let (label, kind) = label.unwrap_or_else(|| {
                let v = if side == anchor_side {
                    anchor_value
                } else {
                    -anchor_value
                };
                (
                    CentiDiscs::from_whole_discs(v).to_i16_clamped(),
                    LabelKind::GameResult,
                )
            });
            Record {
                board,
                side,
                game: index,
                label,
                kind,
                last: i + 1 == n,
            }
        })
        .collect()
}

/// The opening records of every complete game of `data` (a file written by self-play with
/// `config`'s seed and random plies, before opening positions were recorded): each position
/// of the game's opening (`opening`) labelled with the game's result
/// ([`LabelKind::GameResult`], taken from the game's first record, which carries that result
/// when the game did not start inside the exact zone; other games are skipped). Returns the
/// records, game by game, each game's last one flagged.
pub fn opening_records(config: &SelfplayConfig, data: &[Record]) -> Vec<Record> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < data.len() {
        let first = &data[k];
        while k < data.len() && !data[k].last {
            k += 1;
        }
        k += 1;
        if first.kind != LabelKind::GameResult {
            continue;
        }
        let (before, _, _) = opening(config, first.game);
        let n = before.len();
        for (i, (board, side)) in before.into_iter().enumerate() {
            let label = if side == first.side {
                first.label
            } else {
                first.label.saturating_neg()
            };
            out.push(Record {
                board,
                side,
                game: first.game,
                label,
                kind: LabelKind::GameResult,
                last: i + 1 == n,
            });
        }
    }
    out
}

/// `othello selfplay --openings-of DATA`: writes the opening records of `data`'s games (see
/// [`opening_records`]) to a new file `path` with the same seed. Returns how many.
pub fn write_opening_records(
    config: &SelfplayConfig,
    data: &Path,
    path: &Path,
) -> Result<usize, LearnError> {
    let file = super::data::read_records(data)?;
    if file.seed != config.seed {
        return Err(LearnError::Config(format!(
            "{} was made with seed {}, not {}",
            data.display(),
            file.seed,
            config.seed
        )));
    }
    if path.exists() {
        return Err(LearnError::Config(format!(
            "{} exists; opening records go to a new file",
            path.display()
        )));
    }
    let records = opening_records(config, &file.records);
    let mut bytes = super::data::header_bytes(config.seed).to_vec();
    bytes.extend_from_slice(&game_bytes(&records));
    crate::files::write_atomically(path, &bytes)?;
    Ok(records.len())
}

/// What a self-play run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfplaySummary {
    /// Games already complete in the file before the run.
    pub games_before: usize,
    /// Games played and appended by this run.
    pub games_played: usize,
    /// Positions appended by this run.
    pub positions: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// Plays the games `0..config.games` not yet in `path` on `config.threads` threads, appending
/// each finished game to `path`; reports each game to `progress`.
pub fn run_selfplay(
    config: &SelfplayConfig,
    path: &Path,
    progress: &crate::progress::Reporter,
) -> Result<SelfplaySummary, LearnError> {
    if !(0.0..=1.0).contains(&config.epsilon) {
        return Err(LearnError::Config("epsilon must be between 0 and 1".into()));
    }
    let start = Instant::now();
    let (mut file, done) = open_for_append(path, config.seed)?;
    let todo: Vec<u32> = (0..config.games).filter(|i| !done.contains(i)).collect();
    let appended = append_games(
        path,
        &mut file,
        &todo,
        config.threads,
        progress,
        || Searcher::try_new(config.eval.clone(), config.hash_mb.max(1)),
        |searcher, index| play_game(config, index, searcher),
    )?;
    let mut summary = SelfplaySummary {
        games_before: done.len(),
        games_played: appended.games,
        positions: appended.positions,
        ..SelfplaySummary::default()
    };
    summary.elapsed = start.elapsed();
    Ok(summary)
}
