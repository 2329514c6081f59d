//! Judging moves: each position of the game searched (or solved) for the best move, and the
//! position after the played move searched one ply less deep (or solved), so that the two
//! values look equally far ahead; [`analyse_position`] does the same for every legal move of
//! one position. The rules, and why a search that solves by itself turns a move exact, are in
//! [the module notes](super).

use crate::time::{Duration, Instant};

use super::{centi, Effort, MoveReview, Progress, Review, ReviewError, ReviewOptions};
use crate::board::{Board, Move};
use crate::book::Book;
use crate::discs::CentiDiscs;
use crate::eval::Evaluator;
use crate::gamedb::GameRecord;
use crate::search::{Limits, Searcher, Value};
use crate::square::Square;

/// Reviews every move of `game` with `searcher` (its table is reused from move to move),
/// calling `progress` after each. See [the module notes](super) for how moves are judged.
pub fn review_game<E: Evaluator>(
    game: &GameRecord,
    searcher: &mut Searcher<E>,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Review, ReviewError> {
    let start = Instant::now();
    let positions = game.replay()?;
    let total = game.moves.len();
    let mut moves = Vec::with_capacity(total);
    for (i, &played) in game.moves.iter().enumerate() {
        let before = positions[i];
        let after = positions[i + 1];
        let by_book = options
            .book
            .as_deref()
            .and_then(|book| judge_by_book(book, &before.board, played));
        let judged = match by_book {
            Some(j) => j,
            None => judge(searcher, &before.board, played, options),
        };
        moves.push(MoveReview {
            number: i + 1,
            before,
            played,
            best: judged.best,
            best_value: judged.best_value,
            played_value: judged.played_value,
            legal_moves: before.board.moves().count_ones(),
            depth: judged.depth,
            from_book: judged.from_book,
            // The replay makes forced passes: then the same side is to move again.
            pass_after: after.side == before.side && !after.board.is_game_over(),
            nodes: judged.nodes,
            elapsed: judged.elapsed,
        });
        progress(Progress {
            done: i + 1,
            total,
            last: moves.last().expect("just pushed"),
        });
    }
    Ok(Review {
        game: game.clone(),
        options: options.clone(),
        moves,
        final_position: *positions.last().expect("a replay has the start"),
        elapsed: start.elapsed(),
    })
}

/// The judgement of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Judgement {
    best: Square,
    best_value: Value,
    played_value: Value,
    depth: u32,
    nodes: u64,
    elapsed: Duration,
    from_book: bool,
}

/// Judges `played` in `board` by the book's values: its best move's value against the played
/// move's. `None` when the position is not in the book or the played move has no value there
/// (a move out of the book is searched like any other).
fn judge_by_book(book: &Book, board: &Board, played: Square) -> Option<Judgement> {
    let start = Instant::now();
    let moves = book.moves(board);
    let first = *moves.first()?;
    let Move::Place(best) = first.mv else {
        return None;
    };
    let played_move = moves.iter().find(|m| m.mv == Move::Place(played))?;
    let mut judgement = Judgement {
        best,
        best_value: first.search_value(),
        played_value: played_move.search_value(),
        depth: u32::from(first.depth),
        nodes: 0,
        elapsed: Duration::ZERO,
        from_book: true,
    };
    keep_best_at_least_played(&mut judgement, played);
    judgement.elapsed = start.elapsed();
    Some(judgement)
}

/// Judges `played` in `board` (which has it as a legal move).
fn judge<E: Evaluator>(
    searcher: &mut Searcher<E>,
    board: &Board,
    played: Square,
    options: &ReviewOptions,
) -> Judgement {
    let start = Instant::now();
    if board.empty_count() <= options.exact_empties {
        return judge_exactly(searcher, board, played, None, start);
    }
    let limits = match options.effort {
        Effort::Depth(d) => Limits::fixed(Some(d), None, None),
        Effort::Time(t) => Limits::fixed(None, None, Some(t)),
    };
    let r = searcher.search(board, &limits, &mut ());
    let (Value::Heuristic(_), Move::Place(best)) = (r.value, r.best) else {
        // The search solved the position (exactly, or for win/loss/draw only): judge the
        // move exactly rather than mix kinds of values.
        let solved = matches!(r.value, Value::Exact(_)).then_some(&r);
        let mut j = judge_exactly(
            searcher,
            board,
            played,
            solved.map(|r| (r.best, r.value)),
            start,
        );
        j.nodes += r.nodes;
        return j;
    };
    let depth = r.depth.max(1);
    let mut judgement = Judgement {
        best,
        best_value: r.value,
        played_value: r.value,
        depth,
        nodes: r.nodes,
        elapsed: Duration::ZERO,
        from_book: false,
    };
    if best != played {
        let (after, sign) = after_move(board, played);
        let value = if after.is_game_over() {
            // A move that ends the game (a wipe-out, say) is worth its final score, on the
            // heuristic scale: the position before it is too far from the end to solve.
            Value::Heuristic(CentiDiscs::from_whole_discs(after.final_score()).0 as i32)
        } else if depth == 1 {
            Value::Heuristic(searcher.evaluator().evaluate(&after))
        } else {
            let child =
                searcher.search(&after, &Limits::fixed(Some(depth - 1), None, None), &mut ());
            judgement.nodes += child.nodes;
            child.value
        };
        match value {
            Value::Heuristic(v) => judgement.played_value = Value::Heuristic(sign * v),
            _ => {
                // The position after the move is solved (or over): so must this one be.
                let mut j = judge_exactly(searcher, board, played, None, start);
                j.nodes += judgement.nodes;
                return j;
            }
        }
    }
    keep_best_at_least_played(&mut judgement, played);
    judgement.elapsed = start.elapsed();
    judgement
}

/// Judges `played` in `board` with exact solves; `solved` is the position's own solve if it
/// is already known (best move and exact value).
fn judge_exactly<E: Evaluator>(
    searcher: &mut Searcher<E>,
    board: &Board,
    played: Square,
    solved: Option<(Move, Value)>,
    start: Instant,
) -> Judgement {
    let mut nodes = 0;
    let (best, best_value) = solved.unwrap_or_else(|| {
        let r = searcher.solve(board, false, &mut ());
        nodes += r.nodes;
        (r.best, r.value)
    });
    let best = match best {
        Move::Place(sq) => sq,
        Move::Pass => played, // cannot happen: the mover has a move
    };
    let played_value = if best == played {
        best_value
    } else {
        let (after, sign) = after_move(board, played);
        if after.is_game_over() {
            Value::Exact(sign * after.final_score())
        } else {
            let r = searcher.solve(&after, false, &mut ());
            nodes += r.nodes;
            match r.value {
                Value::Exact(v) => Value::Exact(sign * v),
                other => other, // a solve is exact
            }
        }
    };
    let mut judgement = Judgement {
        best,
        best_value,
        played_value,
        depth: board.empty_count(),
        nodes,
        elapsed: Duration::ZERO,
        from_book: false,
    };
    keep_best_at_least_played(&mut judgement, played);
    judgement.elapsed = start.elapsed();
    judgement
}

/// If the played move's value is as high as the best move's, the played move is shown as the
/// best (a tie); if it is higher (two searches of different trees can disagree a little), it
/// is the best at this depth.
fn keep_best_at_least_played(j: &mut Judgement, played: Square) {
    if centi(j.played_value) >= centi(j.best_value) {
        j.best = played;
        j.best_value = j.played_value;
    }
}

/// The position after `played`, with a forced pass made, and the sign that turns its values
/// (for its side to move) into the mover's: -1, or +1 after a pass. A finished game is
/// returned as it is (its final score is for its side to move).
fn after_move(board: &Board, played: Square) -> (Board, i32) {
    let after = board.play(played);
    if after.moves() == 0 && !after.is_game_over() {
        (after.pass(), 1)
    } else {
        (after, -1)
    }
}

/// One legal move's value in an analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    /// The move.
    pub square: Square,
    /// Its value, mover's view.
    pub value: Value,
    /// The depth it was searched to after the move, or the empties solved (for a book
    /// value, the depth of the book's search).
    pub depth: u32,
    /// The value is the opening book's.
    pub from_book: bool,
}

/// Every legal move of `board` with its value, best first (ties in square order): the
/// position after each move is searched one ply less deep than [`ReviewOptions::effort`]
/// (for a time, each gets that time), or solved when it has at most
/// [`ReviewOptions::exact_empties`] empties or the search solves it. In a position of
/// [`ReviewOptions::book`], the moves the book values have the book's values (as the engine's
/// hint gives them, and as the review judges book moves); the others are searched. Empty if
/// the side to move has no move.
pub fn analyse_position<E: Evaluator>(
    searcher: &mut Searcher<E>,
    board: &Board,
    options: &ReviewOptions,
) -> Vec<MoveValue> {
    let book_moves = options
        .book
        .as_deref()
        .map_or_else(Vec::new, |book| book.moves(board));
    let mut values: Vec<MoveValue> = board
        .legal_moves()
        .map(|square| {
            if let Some(m) = book_moves.iter().find(|m| m.mv == Move::Place(square)) {
                return MoveValue {
                    square,
                    value: m.search_value(),
                    depth: u32::from(m.depth),
                    from_book: true,
                };
            }
            let (after, sign) = after_move(board, square);
            let empties = after.empty_count();
            let flip = |v: Value| if sign < 0 { v.negate() } else { v };
            if after.is_game_over() {
                let value = flip(Value::Exact(after.final_score()));
                return MoveValue {
                    square,
                    value,
                    depth: 0,
                    from_book: false,
                };
            }
            let mut r = if empties <= options.exact_empties {
                searcher.solve(&after, false, &mut ())
            } else {
                let limits = match options.effort {
                    Effort::Depth(d) => Limits::fixed(Some(d.saturating_sub(1).max(1)), None, None),
                    Effort::Time(t) => Limits::fixed(None, None, Some(t)),
                };
                searcher.search(&after, &limits, &mut ())
            };
            if matches!(r.value, Value::Wld(_)) {
                r = searcher.solve(&after, false, &mut ());
            }
            MoveValue {
                square,
                value: flip(r.value),
                depth: r.depth,
                from_book: false,
            }
        })
        .collect();
    values.sort_by_key(|m| (-centi(m.value), m.square as u8));
    values
}
