//! Building a book: the positions strong players reached, leaves valued by search, values
//! negamaxed up the tree; then deviation, which expands the best and near-best lines with
//! search, as the book builders of Edax and NTest do (Buro, "Toward Opening Book Learning",
//! 1999; Lazard's Othello book notes).
//!
//! # Steps
//!
//! 1. [`skeleton`]: every position of the first `plies` moves of the games that at least
//!    `min_games` games reached, with its game count, under the eight symmetries.
//! 2. [`evaluate`]: every position whose leaf is pending is searched with its links excluded
//!    ([`Searcher::search_excluding`]), each from a cleared table, so a leaf depends only on
//!    its position, its links and the depth: the result is the same on any number of threads
//!    and after any number of interruptions.
//! 3. [`Book::negamax`].
//! 4. [`deviate`], repeated rounds: from the start position, follow every move within
//!    `tolerance` of the best; where such a move is a leaf (it leaves the book) within
//!    `plies` moves of the start, add its position to the book, then search the new positions
//!    and their parents (whose leaf became a link) and negamax again.
//!
//! Every searched leaf and every added position is written to the book's journal at once
//! ([`super::file::Journal`]), so a killed build resumes where it stopped and loses at most the
//! searches in flight.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::board::{Board, Move};
use crate::discs::CentiDiscs;
use crate::eval::EngineEval;
use crate::search::{Limits, Searcher, Value};

use super::file::{BookError, Journal};
use super::{Book, Leaf, LeafState};

/// The positions of the first `plies` moves of `games` (each the list of its boards from the
/// start) that at least `min_games` games reached (counted once per game, under symmetry),
/// with their counts.
pub fn skeleton(games: &[Vec<Board>], plies: u32, min_games: u32) -> HashMap<Board, u32> {
    let mut counts: HashMap<Board, u32> = HashMap::new();
    let mut seen = HashSet::new();
    for game in games {
        seen.clear();
        for board in game {
            if 60 - board.empty_count().min(60) > plies {
                break;
            }
            let key = board.canonical();
            if seen.insert(key) {
                *counts.entry(key).or_insert(0) += 1;
            }
        }
    }
    counts.retain(|_, n| *n >= min_games.max(1));
    counts
}

/// A fingerprint of a build's inputs and settings (what [`Book::source`] holds).
pub fn fingerprint(skeleton: &HashMap<Board, u32>, plies: u32, min_games: u32, depth: u8) -> u64 {
    let mut keys: Vec<(&Board, &u32)> = skeleton.iter().collect();
    keys.sort_unstable_by_key(|(b, _)| (b.player(), b.opponent()));
    let mut h = crate::eval::pattern::file::Fnv1a64::new();
    for x in [plies as u64, min_games as u64, depth as u64] {
        h.write(&x.to_le_bytes());
    }
    for (b, n) in keys {
        h.write(&b.player().to_le_bytes());
        h.write(&b.opponent().to_le_bytes());
        h.write(&n.to_le_bytes());
    }
    h.finish().max(1)
}

/// A book of the skeleton's positions, every leaf pending, searched to `depth` later.
pub fn book_from_skeleton(skeleton: &HashMap<Board, u32>, depth: u8, source: u64) -> Book {
    let mut book = Book::new(depth);
    book.source = source;
    for (board, games) in skeleton {
        book.add(board, *games);
    }
    book
}

/// The centi-disc value of a search result, and whether it is exact.
fn centi(value: Value) -> (i16, bool) {
    let centi = CentiDiscs::from(value.centi()).to_i16_clamped();
    (centi, matches!(value, Value::Exact(_)))
}

/// The leaf of `board`: the best of its moves outside `links` (a bit set of squares; with
/// `pass_linked`, a forced pass that stays in the book), by a search to `depth` from a
/// cleared table. Closed when no move leaves the book or the game is over.
pub fn search_leaf(
    searcher: &mut Searcher<EngineEval>,
    board: &Board,
    links: u64,
    pass_linked: bool,
    depth: u8,
) -> LeafState {
    if board.is_game_over() {
        return LeafState::Closed;
    }
    let limits = Limits {
        depth: Some(depth.max(1) as u32),
        ..Limits::default()
    };
    searcher.clear();
    let moves = board.moves();
    if moves == 0 {
        if pass_linked {
            return LeafState::Closed;
        }
        let r = searcher.search(&board.pass(), &limits, &mut ());
        let (value, exact) = centi(r.value);
        return LeafState::Move(Leaf {
            mv: Move::Pass,
            value: value.saturating_neg(),
            depth: (r.depth + 1).min(60) as u8,
            exact,
        });
    }
    if moves & !links == 0 {
        return LeafState::Closed;
    }
    let r = searcher.search_excluding(board, &limits, links & moves, &mut ());
    let (value, exact) = centi(r.value);
    LeafState::Move(Leaf {
        mv: r.best,
        value,
        depth: r.depth.min(60) as u8,
        exact,
    })
}

/// How [`evaluate`] and [`deviate`] search.
#[derive(Clone, Debug)]
pub struct SearchSettings {
    /// The leaf search depth (the search solves exactly by itself near the end).
    pub depth: u8,
    /// Worker threads, one search each.
    pub threads: usize,
    /// Transposition table per worker, MiB.
    pub hash_mb: usize,
    /// The evaluator.
    pub eval: EngineEval,
    /// Where progress goes (each leaf searched, each phase).
    pub progress: crate::progress::Reporter,
}

/// How often the journal is folded into the book file during a long pass.
const COMPACT_EVERY: usize = 20_000;

/// Searches every pending leaf of `book` (see the module documentation), recording each in
/// `journal` as it completes; stops early (everything done so far kept) when `stop` is
/// raised. Returns the number of leaves searched.
pub fn evaluate(
    book: &mut Book,
    journal: &mut Journal,
    settings: &SearchSettings,
    stop: &AtomicBool,
) -> Result<usize, BookError> {
    let todo: Vec<(Board, u64, bool)> = book
        .pending()
        .into_iter()
        .map(|b| {
            let (links, pass) = book.links(&b);
            (b, links, pass)
        })
        .collect();
    if todo.is_empty() {
        return Ok(0);
    }
    let threads = settings.threads.clamp(1, 256).min(todo.len());
    // Every worker's table before any search: memory that is not there is an error, not a
    // panic in a worker.
    let searchers = (0..threads)
        .map(|k| {
            Searcher::try_new(settings.eval.clone(), settings.hash_mb.max(1))
                .map_err(|e| BookError::Workers(format!("worker {} of {threads}: {e}", k + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let progress = &settings.progress;
    progress.start(todo.len() as u64, "leaves");
    let next = AtomicUsize::new(0);
    let mut done = 0;
    let mut error = None;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::sync_channel::<(Board, LeafState)>(2 * threads);
        let workers = searchers
            .into_iter()
            .map(|mut searcher| {
                let tx = tx.clone();
                let (next, todo) = (&next, &todo);
                move || {
                    while !stop.load(Ordering::Relaxed) {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(board, links, pass)) = todo.get(k) else {
                            break;
                        };
                        let leaf = search_leaf(&mut searcher, &board, links, pass, settings.depth);
                        if stop.load(Ordering::Relaxed) || tx.send((board, leaf)).is_err() {
                            break;
                        }
                    }
                }
            })
            .collect();
        if let Err(e) = crate::search::start_all(s, workers) {
            error = Some(BookError::Workers(format!("the workers: {e}")));
        }
        drop(tx);
        for (board, leaf) in rx {
            book.set_leaf(&board, leaf);
            let written = journal.record_from(book, &board).and_then(|()| {
                if journal.written >= COMPACT_EVERY {
                    journal.compact(book)
                } else {
                    Ok(())
                }
            });
            if let Err(e) = written {
                error = Some(e);
                next.store(usize::MAX / 2, Ordering::Relaxed);
                break;
            }
            done += 1;
            progress.step("");
        }
    });
    progress.finish();
    match error {
        Some(e) => Err(e),
        None => Ok(done),
    }
}

/// Makes pending the leaves of the positions with at least `min_games` games whose leaf was
/// searched shallower than `depth` (and is not exact), recording each in `journal`, so that
/// [`evaluate`] searches them again at `depth`. Returns how many.
pub fn mark_shallow(
    book: &mut Book,
    journal: &mut Journal,
    depth: u8,
    min_games: u32,
) -> Result<usize, BookError> {
    let shallow: Vec<Board> = book
        .iter()
        .filter(|(_, e)| {
            e.games >= min_games
                && matches!(e.leaf, LeafState::Move(l) if !l.exact && l.depth < depth)
        })
        .map(|(b, _)| *b)
        .collect();
    for board in &shallow {
        book.set_leaf(board, LeafState::Pending);
        journal.record_from(book, board)?;
    }
    Ok(shallow.len())
}

/// The settings of [`deviate`].
#[derive(Clone, Debug)]
pub struct DeviateSettings {
    /// Moves within this many centi-discs of the best are followed (for both sides).
    pub tolerance: i16,
    /// New positions lie at most this many moves from the start.
    pub plies: u32,
    /// Stop after adding this many positions.
    pub max_new: usize,
}

/// The leaves to expand this round: from the start, every move within the tolerance of the
/// best is followed; a leaf among them, within the ply limit, is to be added. In depth-first
/// order from the start, best moves first.
pub fn deviations(book: &Book, settings: &DeviateSettings) -> Vec<(Board, Move)> {
    let mut out = Vec::new();
    let mut visited = HashSet::new();
    let mut stack = vec![Board::start()];
    visited.insert(Board::start().canonical());
    while let Some(board) = stack.pop() {
        let ply = 60 - board.empty_count().min(60);
        let moves = book.moves(&board);
        let Some(best) = moves.first().map(|m| m.value as i32) else {
            continue;
        };
        // Pushed in reverse so that the best move is expanded first.
        for m in moves
            .iter()
            .filter(|m| best - m.value as i32 <= settings.tolerance as i32)
            .rev()
        {
            let child = board.try_play_move(m.mv).expect("book moves are legal");
            if m.link {
                if visited.insert(child.canonical()) {
                    stack.push(child);
                }
            } else if ply < settings.plies && !child.is_game_over() {
                out.push((board, m.mv));
            }
        }
    }
    out
}

/// Deviation rounds (see the module documentation) until no leaf within the tolerance is left
/// or `settings.max_new` positions were added. Returns the number of positions added.
pub fn deviate(
    book: &mut Book,
    journal: &mut Journal,
    search: &SearchSettings,
    settings: &DeviateSettings,
    stop: &AtomicBool,
) -> Result<usize, BookError> {
    if !book.contains(&Board::start()) {
        return Err(BookError::Format(
            "the start position is not in the book: nothing to deviate from".into(),
        ));
    }
    let mut added = 0;
    // Leaves left pending by an interrupted run come first.
    evaluate(book, journal, search, stop)?;
    book.negamax();
    while added < settings.max_new && !stop.load(Ordering::Relaxed) {
        let todo = deviations(book, settings);
        if todo.is_empty() {
            break;
        }
        for (parent, mv) in todo.into_iter().take(settings.max_new - added) {
            let child = parent.try_play_move(mv).expect("a legal leaf");
            if book.add(&child, 0) {
                added += 1;
                journal.record_from(book, &child)?;
            }
            book.set_leaf(&parent, LeafState::Pending);
            journal.record_from(book, &parent)?;
        }
        if !search.progress.is_silent() {
            search.progress.note(&format!(
                "deviate: {added} positions added, searching their leaves"
            ));
        }
        evaluate(book, journal, search, stop)?;
        book.negamax();
    }
    journal.compact(book)?;
    Ok(added)
}

/// Adds a finished game to the book (its positions up to `max_plies` moves, one more game
/// each), searches the leaves it made pending with `searcher` (stopping early if the
/// searcher's stop flag is raised: what is not searched stays pending) and negamaxes.
/// Returns the positions added or re-searched.
pub fn learn_game(
    book: &mut Book,
    boards: &[Board],
    max_plies: u32,
    searcher: &mut Searcher<EngineEval>,
    depth: u8,
) -> Vec<Board> {
    let touched = book.add_game(boards, max_plies);
    let stop = searcher.stop_flag();
    for board in &touched {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let (links, pass) = book.links(board);
        let leaf = search_leaf(searcher, board, links, pass, depth);
        if !stop.load(Ordering::Relaxed) {
            book.set_leaf(board, leaf);
        }
    }
    book.negamax();
    touched
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EngineEval;

    fn line(moves: &str) -> Vec<Board> {
        let mut b = Board::start();
        let mut out = vec![b];
        for k in 0..moves.len() / 2 {
            b = b.play(moves[2 * k..2 * k + 2].parse().unwrap());
            out.push(b);
        }
        out
    }

    #[test]
    fn skeleton_counts_games_once_under_symmetry() {
        // f5 d6 and its image d3 c5 are the same line up to symmetry.
        let games = vec![line("f5d6c3"), line("d3c5f6"), line("f5f6e6")];
        let s = skeleton(&games, 2, 2);
        assert_eq!(s.get(&Board::start().canonical()), Some(&3));
        assert_eq!(s.get(&line("f5")[1].canonical()), Some(&3));
        assert_eq!(s.get(&line("f5d6")[2].canonical()), Some(&2));
        assert!(
            !s.contains_key(&line("f5f6")[2].canonical()),
            "one game only"
        );
        assert!(
            !s.contains_key(&line("f5d6c3")[3].canonical()),
            "beyond 2 plies"
        );
    }

    #[test]
    fn a_leaf_is_the_best_move_outside_the_book() {
        // Full width: a selective search without the best move may score above the one with
        // it (the pruning differs), so the order of the two values holds only without pruning.
        let mut searcher = Searcher::new(EngineEval::default(), 1);
        searcher.set_selectivity(None);
        let board = line("f5")[1];
        let all = search_leaf(&mut searcher, &board, 0, false, 6);
        let LeafState::Move(best) = all else {
            panic!("{all:?}")
        };
        let Move::Place(sq) = best.mv else { panic!() };
        let other = search_leaf(&mut searcher, &board, sq.bit(), false, 6);
        let LeafState::Move(second) = other else {
            panic!("{other:?}")
        };
        assert_ne!(second.mv, best.mv);
        assert!(second.value <= best.value);
        assert_eq!(
            search_leaf(&mut searcher, &board, board.moves(), false, 6),
            LeafState::Closed
        );
        // Same position, same links: the same leaf whatever came before (cleared table).
        assert_eq!(search_leaf(&mut searcher, &board, 0, false, 6), all);
    }
}
