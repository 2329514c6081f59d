//! The audit's work: each game checked and replayed, then walked down from the largest audit
//! point with one exact solve per position, on workers that take whole games (see
//! [the module notes](super)).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{AuditError, AuditGame, AuditOptions, AuditedMove, GameAudit};
use crate::board::{Color, Position};
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
        nodes: 0,
        elapsed: Duration::ZERO,
    }
}

/// Walks game `index` down from position `from`: each position solved once by `searcher`
/// (its table kept from one position to the next), each move's loss from two neighbouring
/// values.
fn walk<E: Evaluator>(
    searcher: &mut Searcher<E>,
    index: usize,
    game: &AuditGame,
    prepared: &Prepared,
    from: usize,
) -> Result<GameAudit, AuditError> {
    let start = Instant::now();
    let positions = &prepared.positions[from..];
    let mut black_values = Vec::with_capacity(positions.len());
    let mut nodes = 0;
    for pos in positions {
        let value = if pos.board.is_game_over() {
            pos.board.final_score()
        } else {
            let r = searcher.solve(&pos.board, false, &mut ());
            nodes += r.nodes;
            let Value::Exact(v) = r.value else {
                return Err(AuditError::NotExact {
                    game: index + 1,
                    empties: pos.board.empty_count(),
                });
            };
            v
        };
        // The only place where the side to move matters: after a forced pass it is the
        // mover again, and its value is not negated.
        black_values.push(black_view(pos.side, value));
    }
    let moves = game.record.moves[from..]
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
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = options.jobs.clamp(1, work.len().max(1));
    let (tx, rx) = mpsc::channel::<(usize, Result<GameAudit, AuditError>)>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, work, prepared) = (&next, &stop, &work, &prepared);
            scope.spawn(move || {
                let mut searcher = Searcher::new(eval.clone(), options.hash_mb);
                searcher.set_threads(1);
                while !stop.load(Ordering::SeqCst) {
                    let Some(&(i, from)) = work.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        return;
                    };
                    let audit = walk(&mut searcher, i, &games[i], &prepared[i], from);
                    if tx.send((i, audit)).is_err() {
                        return;
                    }
                }
            });
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
