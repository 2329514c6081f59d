//! The audit's work: each game checked and replayed, then walked down from the largest audit
//! point with one exact solve per position, on workers that take whole games (see
//! [the module notes](super)).

use crate::time::{Duration, Instant};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::{AuditError, AuditGame, AuditOptions, AuditedMove, GameAudit};
use crate::board::{Board, Color, Move, Position};
use crate::eval::Evaluator;
use crate::search::{Searcher, Value};

/// A game checked and replayed.
struct Prepared {
    /// Every position, the one before each move then the final one (forced passes made).
    positions: Vec<Position>,
    /// Whether the final position is the end of the game.
    finished: bool,
    /// The index of the first position to solve: the first with at most the largest point's
    /// empties, in a finished game that reached it.
    from: Option<usize>,
}

/// Checks and replays game `index`.
fn prepare(
    index: usize,
    game: &AuditGame,
    players: usize,
    largest: u32,
) -> Result<Prepared, AuditError> {
    for player in [game.black, game.white] {
        if player >= players {
            return Err(AuditError::UnknownPlayer {
                game: index + 1,
                player,
                players,
            });
        }
    }
    let positions = game.record.replay().map_err(|source| AuditError::Replay {
        game: index + 1,
        source,
    })?;
    let finished = positions.last().is_some_and(|p| p.board.is_game_over());
    let from = positions
        .iter()
        .position(|p| p.board.empty_count() <= largest)
        .filter(|_| finished);
    Ok(Prepared {
        positions,
        finished,
        from,
    })
}

/// `value` (for `side`, the side to move) from Black's view.
fn black_view(side: Color, value: i32) -> i32 {
    match side {
        Color::Black => value,
        Color::White => -value,
    }
}

/// The audit of a game with nothing to solve (unfinished, or ended before every point).
fn unsolved(game: &AuditGame, prepared: &Prepared) -> GameAudit {
    GameAudit {
        black: game.black,
        white: game.white,
        finished: prepared.finished,
        first_empties: prepared
            .positions
            .last()
            .map_or(0, |p| p.board.empty_count()),
        black_values: Vec::new(),
        moves: Vec::new(),
        solves: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    }
}

/// Exact values already solved for a group of games that reach the same position: the value
/// of each position for its side to move, and a best move.
type Memo = HashMap<Board, (i32, Move)>;

/// Walks game `index` down from position `from`, solving with `searcher` (its table kept from
/// one position to the next) each position whose value is not known yet, and taking each
/// move's loss from two neighbouring values.
///
/// A position's value is known without a solve when the move that led to it is known to be a
/// best move (the solver's best move of the position before, or the only legal move there):
/// from Black's view, the value then does not change. So a game whose moves are all best is
/// solved at every other position only.
fn walk<E: Evaluator>(
    searcher: &mut Searcher<E>,
    memo: &mut Memo,
    index: usize,
    game: &AuditGame,
    prepared: &Prepared,
    from: usize,
) -> Result<GameAudit, AuditError> {
    let start = Instant::now();
    let positions = &prepared.positions[from..];
    let played = &game.record.moves[from..];
    let mut black_values: Vec<i32> = Vec::with_capacity(positions.len());
    let (mut nodes, mut solves) = (0, 0);
    // Whether the move that led to this position is known to be a best move.
    let mut best_played = false;
    for (k, pos) in positions.iter().enumerate() {
        let (value, best) = if pos.board.is_game_over() {
            let value = black_view(pos.side, pos.board.final_score());
            debug_assert!(!best_played || black_values[k - 1] == value);
            (value, None)
        } else if best_played {
            (black_values[k - 1], None)
        } else {
            let (v, best) = match memo.get(&pos.board) {
                Some(&known) => known,
                None => {
                    let r = searcher.solve(&pos.board, false, &mut ());
                    nodes += r.nodes;
                    solves += 1;
                    let Value::Exact(v) = r.value else {
                        return Err(AuditError::NotExact {
                            game: index + 1,
                            empties: pos.board.empty_count(),
                        });
                    };
                    memo.insert(pos.board, (v, r.best));
                    (v, r.best)
                }
            };
            // The only place where the side to move matters: after a forced pass it is the
            // mover again, and its value is not negated.
            (black_view(pos.side, v), Some(best))
        };
        black_values.push(value);
        best_played = played.get(k).is_some_and(|&sq| {
            pos.board.moves().count_ones() == 1 || best == Some(Move::Place(sq))
        });
    }
    let moves = played
        .iter()
        .enumerate()
        .map(|(k, &square)| {
            let before = &positions[k];
            // The best move is worth the position's value to the mover, the move played the
            // value of the position after it, to the same mover.
            let (best, played) = (black_values[k], black_values[k + 1]);
            let loss = match before.side {
                Color::Black => best - played,
                Color::White => played - best,
            };
            debug_assert!(loss >= 0, "a move better than the best: {loss}");
            AuditedMove {
                number: from + k + 1,
                color: before.side,
                square,
                empties: before.board.empty_count(),
                loss,
            }
        })
        .collect();
    Ok(GameAudit {
        black: game.black,
        white: game.white,
        finished: true,
        first_empties: positions[0].board.empty_count(),
        black_values,
        moves,
        solves,
        nodes,
        elapsed: start.elapsed(),
    })
}

/// Audits every game of `games` on `options.jobs` workers; the audits in game order.
pub(super) fn run_audit<E: Evaluator + Clone>(
    games: &[AuditGame],
    players: usize,
    options: &AuditOptions,
    eval: &E,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<GameAudit>, AuditError> {
    let largest = options.points.largest();
    let prepared = games
        .iter()
        .enumerate()
        .map(|(i, g)| prepare(i, g, players, largest))
        .collect::<Result<Vec<Prepared>, AuditError>>()?;
    let total = games.len();
    let mut audits: Vec<Option<GameAudit>> = vec![None; total];
    let mut done = 0;
    let mut work = Vec::new();
    for (i, p) in prepared.iter().enumerate() {
        match p.from {
            Some(from) => work.push((i, from)),
            None => {
                audits[i] = Some(unsolved(&games[i], p));
                done += 1;
                progress(done, total);
            }
        }
    }
    // Games that reach the same position at the largest point go to one worker, one after
    // the other: the later ones find the values of the first (paired games between two
    // deterministic players are often the same game).
    let mut units: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut unit_of: HashMap<Board, usize> = HashMap::new();
    for (i, from) in work {
        let unit = *unit_of
            .entry(prepared[i].positions[from].board)
            .or_insert_with(|| {
                units.push(Vec::new());
                units.len() - 1
            });
        units[unit].push((i, from));
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = options.jobs.clamp(1, units.len().max(1));
    let (tx, rx) = mpsc::channel::<(usize, Result<GameAudit, AuditError>)>();
    let mut failure = None;
    // Every worker's table before any solve: a size that cannot be had is an error, not an
    // abort.
    let searchers = (0..workers)
        .map(|_| Searcher::try_new(eval.clone(), options.hash_mb).map_err(AuditError::Table))
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|scope| {
        let tasks = searchers
            .into_iter()
            .map(|mut searcher| {
                let tx = tx.clone();
                let (next, stop, units, prepared) = (&next, &stop, &units, &prepared);
                move || {
                    searcher.set_threads(1);
                    while let Some(unit) = units.get(next.fetch_add(1, Ordering::SeqCst)) {
                        let mut memo = Memo::new();
                        for &(i, from) in unit {
                            if stop.load(Ordering::SeqCst) {
                                return;
                            }
                            let audit =
                                walk(&mut searcher, &mut memo, i, &games[i], &prepared[i], from);
                            if tx.send((i, audit)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .collect();
        if let Err(e) = crate::search::start_all(scope, tasks) {
            failure = Some(AuditError::Threads(e));
        }
        drop(tx);
        for (i, audit) in rx {
            match audit {
                Ok(a) => {
                    audits[i] = Some(a);
                    done += 1;
                    progress(done, total);
                }
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(audits.into_iter().flatten().collect())
}
