//! PAIP's Othello strategies, reproduced on the bitboard core.
//!
//! Norvig, *Paradigms of AI Programming* (1992), chapter 18:
//!
//! - `random-strategy` (18.2): any legal move, uniformly;
//! - `maximizer` (18.3): the move whose resulting position the evaluation function likes best,
//!   one ply, no search;
//! - `minimax-searcher` (18.4): full-width negamax to a fixed depth;
//! - `alpha-beta-searcher` (18.5): the same with alpha-beta cut-offs (`achievable`/`cutoff`);
//! - `alpha-beta-searcher2` (18.9): alpha-beta whose moves are sorted, best first, by the
//!   static evaluation of the position each one leads to;
//! - `alpha-beta-searcher3` (18.10): alpha-beta that tries a *killer move* first: the best
//!   reply found to a sibling move;
//! - `Iago` (18.12): `alpha-beta-searcher3` with `Iago-eval`.
//!
//! Faithfulness, point by point:
//!
//! - **Values** are PAIP's raw integers (`i64`), not centi-discs: weighted squares in weight
//!   points, `Iago-eval` in its own large units. Ties are broken exactly as in PAIP (the first
//!   best move in move order wins), so the scale matters.
//! - **Finished games** score [`WINNING_VALUE`], [`LOSING_VALUE`] or 0 by the sign of the disc
//!   count difference, as PAIP's `final-value`: a won final position beats any heuristic, and a
//!   large win is worth no more than a small one.
//! - **Passes** cost a ply: a side with no move passes and the search goes on one ply
//!   shallower, as PAIP's searchers do.
//! - **Move order.** `othello.lisp` generates moves from `all-squares` in square order
//!   (11, 12, ... 88, that is a1, b1, ... h8); `othello2.lisp` redefines `all-squares` sorted by
//!   decreasing `*weights*` (corners first, X-squares last). We use square order for the
//!   strategies of `othello.lisp` (random, maximizer, minimax, alpha-beta) and weight order for
//!   those of `othello2.lisp` (alpha-beta 2 and 3, Iago). Sorting is stable: equal weights keep
//!   square order.
//! - **Which side an evaluation is for.** The maximizer and `alpha-beta2`'s node values call
//!   `eval-fn` for the player *who just moved*, on the board where the opponent is to move;
//!   the searchers' leaves call it for the side to move. For count difference and the weighted
//!   squares the two views differ only by sign; for `Iago-eval` they do not (its edge table is
//!   valued for the side to move), so both are kept as in PAIP.
//! - **`*move-number*`** in `Iago-eval` is the number of the move being chosen at the root, the
//!   same at every node of the search, as PAIP's global. With the standard start it is the
//!   disc count minus 3, passes or not (each move adds one disc).

use crate::board::{Board, Move};
use crate::eval::classic::{
    count_difference, modified_weighted_squares, weighted_squares, WEIGHTS,
};
use crate::eval::edge;
use crate::eval::iago::iago_coefficients;
use crate::eval::mobility::{current_mobility, potential_mobility};
use crate::eval::round_div;
use crate::square::Square;

/// PAIP's `winning-value` (`most-positive-fixnum`): a won finished game.
pub const WINNING_VALUE: i64 = i64::MAX;
/// PAIP's `losing-value`: a lost finished game. Symmetric with [`WINNING_VALUE`] so that
/// negation never overflows.
pub const LOSING_VALUE: i64 = -i64::MAX;

/// The evaluation functions PAIP's strategies can be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaipEval {
    /// `count-difference`: discs minus the opponent's.
    Count,
    /// `weighted-squares`: PAIP's square table.
    Weighted,
    /// `modified-weighted-squares`: the table, with the neighbours of taken corners reset.
    Modified,
    /// `Iago-eval`: edge stability plus current and potential mobility.
    Iago,
}

impl PaipEval {
    /// The evaluation's name in a player spec (`count`, `weighted`, `modified`, `iago`).
    pub fn name(self) -> &'static str {
        match self {
            PaipEval::Count => "count",
            PaipEval::Weighted => "weighted",
            PaipEval::Modified => "modified",
            PaipEval::Iago => "iago",
        }
    }

    /// Every evaluation, in PAIP's order of introduction.
    pub const ALL: [PaipEval; 4] = [
        PaipEval::Count,
        PaipEval::Weighted,
        PaipEval::Modified,
        PaipEval::Iago,
    ];

    /// The evaluation's name parsed back (`count`, `weighted`, `modified`, `iago`).
    pub fn from_name(name: &str) -> Option<PaipEval> {
        PaipEval::ALL.into_iter().find(|e| e.name() == name)
    }

    /// PAIP's value of the position for `player` (whose discs are `player`; the other side's
    /// are `opponent`), whoever is to move. `move_number` is PAIP's `*move-number*`, used only
    /// by `Iago-eval`.
    pub fn score(self, player: u64, opponent: u64, move_number: i64) -> i64 {
        match self {
            PaipEval::Count => count_difference(player, opponent) as i64,
            PaipEval::Weighted => weighted_squares(player, opponent) as i64,
            PaipEval::Modified => modified_weighted_squares(player, opponent) as i64,
            PaipEval::Iago => iago_eval(player, opponent, move_number),
        }
    }
}

/// PAIP's `Iago-eval` for `player` with a fixed `*move-number*` (see the module notes).
///
/// The sum of three rounded terms: `c_edge * edge_stability / 32000`,
/// `c_cur * (p_cur - o_cur) / (p_cur + o_cur + 2)` and
/// `c_pot * (p_pot - o_pot) / (p_pot + o_pot + 2)`, with the coefficients of
/// [`iago_coefficients`]. (`eval::iago` derives the move number from each evaluated board
/// instead; PAIP's global stays at the root's value during a search.)
pub fn iago_eval(player: u64, opponent: u64, move_number: i64) -> i64 {
    let (c_edge, c_cur, c_pot) = iago_coefficients(move_number);
    let (p_cur, o_cur) = (
        current_mobility(player, opponent) as i64,
        current_mobility(opponent, player) as i64,
    );
    let (p_pot, o_pot) = (
        potential_mobility(player, opponent) as i64,
        potential_mobility(opponent, player) as i64,
    );
    let edge = edge::edge_stability_with(edge::edge_table(), player, opponent) as i64;
    round_div(c_edge * edge, 32_000)
        + round_div(c_cur * (p_cur - o_cur), p_cur + o_cur + 2)
        + round_div(c_pot * (p_pot - o_pot), p_pot + o_pot + 2)
}

/// PAIP's `*move-number*` for a search rooted at `board`: the number of discs minus 3 (1 before
/// Black's first move from the standard start).
pub fn move_number(board: &Board) -> i64 {
    (64 - board.empty_count()) as i64 - 3
}

/// PAIP's `final-value`: a win, a loss or a draw for the side to move, by the sign of the disc
/// count difference.
pub fn final_value(board: &Board) -> i64 {
    match board.disc_difference().signum() {
        1 => WINNING_VALUE,
        -1 => LOSING_VALUE,
        _ => 0,
    }
}

/// The order in which moves are generated (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// `othello.lisp`: a1, b1, ... h8.
    Squares,
    /// `othello2.lisp`: by decreasing `*weights*`, square order among equals.
    Weights,
}

/// All 64 squares sorted by decreasing weight (stable).
const WEIGHT_ORDER: [Square; 64] = weight_order();

const fn weight_order() -> [Square; 64] {
    // Insertion sort on indices: stable, and possible in a const fn.
    let mut order = [0usize; 64];
    let mut i = 0;
    while i < 64 {
        order[i] = i;
        i += 1;
    }
    let mut i = 1;
    while i < 64 {
        let mut j = i;
        while j > 0 && WEIGHTS[order[j - 1]] < WEIGHTS[order[j]] {
            let t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    let mut out = [Square::A1; 64];
    let mut k = 0;
    while k < 64 {
        out[k] = Square::ALL[order[k]];
        k += 1;
    }
    out
}

/// The legal moves of the side to move, in `order`.
pub fn legal_moves(board: &Board, order: MoveOrder) -> Vec<Square> {
    match order {
        MoveOrder::Squares => board.legal_moves().collect(),
        MoveOrder::Weights => {
            let legal = board.moves();
            WEIGHT_ORDER
                .iter()
                .copied()
                .filter(|sq| legal & sq.bit() != 0)
                .collect()
        }
    }
}

/// The side to move's value of `board` for the searchers' leaves (`eval-fn player board` with
/// `player` to move).
#[inline]
fn leaf(eval: PaipEval, board: &Board, move_number: i64) -> i64 {
    eval.score(board.player(), board.opponent(), move_number)
}

/// The value of `child` for the player who just moved into it (`eval-fn player new-board`).
#[inline]
fn for_mover(eval: PaipEval, child: &Board, move_number: i64) -> i64 {
    eval.score(child.opponent(), child.player(), move_number)
}

/// PAIP's `maximizer`: the first legal move (square order) whose resulting position `eval`
/// values highest for the mover. `None` if the side to move has no move.
pub fn maximizer(board: &Board, eval: PaipEval) -> Option<Square> {
    let mn = move_number(board);
    let mut best: Option<(i64, Square)> = None;
    for sq in legal_moves(board, MoveOrder::Squares) {
        let value = for_mover(eval, &board.play(sq), mn);
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

/// PAIP's `minimax`: the value of `board` for the side to move, searched `ply` plies, and the
/// best move (the first of equal values, square order). No move is returned for a pass or a
/// finished game.
pub fn minimax(board: &Board, ply: u32, eval: PaipEval, mn: i64) -> (i64, Option<Square>) {
    if ply == 0 {
        return (leaf(eval, board, mn), None);
    }
    let moves = legal_moves(board, MoveOrder::Squares);
    if moves.is_empty() {
        let passed = board.pass();
        return if passed.moves() != 0 {
            (-minimax(&passed, ply - 1, eval, mn).0, None)
        } else {
            (final_value(board), None)
        };
    }
    let mut best: Option<(i64, Square)> = None;
    for sq in moves {
        let value = -minimax(&board.play(sq), ply - 1, eval, mn).0;
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, sq));
        }
    }
    let (value, sq) = best.expect("there is at least one move");
    (value, Some(sq))
}

/// PAIP's `alpha-beta`: the value (at least `achievable`, cut off at `cutoff`) and best move.
pub fn alpha_beta(
    board: &Board,
    mut achievable: i64,
    cutoff: i64,
    ply: u32,
    eval: PaipEval,
    mn: i64,
) -> (i64, Option<Square>) {
    if ply == 0 {
        return (leaf(eval, board, mn), None);
    }
    let moves = legal_moves(board, MoveOrder::Squares);
    if moves.is_empty() {
        let passed = board.pass();
        return if passed.moves() != 0 {
            let v = alpha_beta(&passed, -cutoff, -achievable, ply - 1, eval, mn).0;
            (-v, None)
        } else {
            (final_value(board), None)
        };
    }
    let mut best = moves[0];
    for sq in moves {
        let v = alpha_beta(&board.play(sq), -cutoff, -achievable, ply - 1, eval, mn).0;
        let value = -v;
        if value > achievable {
            achievable = value;
            best = sq;
        }
        if achievable >= cutoff {
            break;
        }
    }
    (achievable, Some(best))
}

/// PAIP's `alpha-beta2`: alpha-beta over nodes that carry their static value. `value` is the
/// value of `board` for the side to move as the parent computed it (the negated node value);
/// it is what a leaf returns. Children are sorted by decreasing value for the mover.
pub fn alpha_beta2(
    board: &Board,
    value: i64,
    mut achievable: i64,
    cutoff: i64,
    ply: u32,
    eval: PaipEval,
    mn: i64,
) -> (i64, Option<Square>) {
    if ply == 0 {
        return (value, None);
    }
    // PAIP's `legal-nodes`: every move with its board and value, sorted best first (stable).
    let mut nodes: Vec<(Square, Board, i64)> = legal_moves(board, MoveOrder::Weights)
        .into_iter()
        .map(|sq| {
            let child = board.play(sq);
            (sq, child, for_mover(eval, &child, mn))
        })
        .collect();
    nodes.sort_by_key(|n| std::cmp::Reverse(n.2));
    if nodes.is_empty() {
        let passed = board.pass();
        return if passed.moves() != 0 {
            // `negate-value` of the current node: the opponent's view of the same board.
            let v = alpha_beta2(&passed, -value, -cutoff, -achievable, ply - 1, eval, mn).0;
            (-v, None)
        } else {
            (final_value(board), None)
        };
    }
    let mut best = nodes[0].0;
    for &(sq, child, node_value) in &nodes {
        let v = alpha_beta2(&child, -node_value, -cutoff, -achievable, ply - 1, eval, mn).0;
        let val = -v;
        if val > achievable {
            achievable = val;
            best = sq;
        }
        if achievable >= cutoff {
            break;
        }
    }
    (achievable, Some(best))
}

/// PAIP's `alpha-beta3`: alpha-beta trying `killer` first when it is legal. Returns the value
/// and the best move; the best move is the reply the parent keeps as its next killer.
///
/// Each node keeps, as the killer for its later children, the best reply found against its
/// earlier children: the reply to the child whose value was lowest (PAIP's `killer2`, with
/// `killer2-val` starting at `winning-value`).
pub fn alpha_beta3(
    board: &Board,
    mut achievable: i64,
    cutoff: i64,
    ply: u32,
    eval: PaipEval,
    mn: i64,
    killer: Option<Square>,
) -> (i64, Option<Square>) {
    if ply == 0 {
        return (leaf(eval, board, mn), None);
    }
    let mut moves = legal_moves(board, MoveOrder::Weights);
    if let Some(k) = killer {
        // PAIP's `put-first`.
        if let Some(i) = moves.iter().position(|&m| m == k) {
            let k = moves.remove(i);
            moves.insert(0, k);
        }
    }
    if moves.is_empty() {
        let passed = board.pass();
        return if passed.moves() != 0 {
            let v = alpha_beta3(&passed, -cutoff, -achievable, ply - 1, eval, mn, None).0;
            (-v, None)
        } else {
            (final_value(board), None)
        };
    }
    let mut best = moves[0];
    let mut killer2: Option<Square> = None;
    let mut killer2_value = WINNING_VALUE;
    for sq in moves {
        let child = board.play(sq);
        let (v, reply) = alpha_beta3(&child, -cutoff, -achievable, ply - 1, eval, mn, killer2);
        let val = -v;
        if val > achievable {
            achievable = val;
            best = sq;
        }
        if reply.is_some() && val < killer2_value {
            killer2 = reply;
            killer2_value = val;
        }
        if achievable >= cutoff {
            break;
        }
    }
    (achievable, Some(best))
}

/// Which of PAIP's searchers a [`PaipSearcher`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// `minimax-searcher`.
    Minimax,
    /// `alpha-beta-searcher`.
    AlphaBeta,
    /// `alpha-beta-searcher2` (sorted moves).
    AlphaBeta2,
    /// `alpha-beta-searcher3` (killer moves).
    AlphaBeta3,
}

/// A PAIP searcher: an algorithm, a depth and an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PaipSearcher {
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// The depth in plies (at least 1).
    pub depth: u32,
    /// The evaluation at the leaves.
    pub eval: PaipEval,
}

impl PaipSearcher {
    /// The move PAIP's strategy plays on `board` and its value (PAIP units), or `Move::Pass`
    /// when the side to move has no legal move.
    pub fn choose(&self, board: &Board) -> (Move, i64) {
        if board.moves() == 0 {
            return (Move::Pass, 0);
        }
        let mn = move_number(board);
        let depth = self.depth.max(1);
        let (value, best) = match self.algorithm {
            Algorithm::Minimax => minimax(board, depth, self.eval, mn),
            Algorithm::AlphaBeta => {
                alpha_beta(board, LOSING_VALUE, WINNING_VALUE, depth, self.eval, mn)
            }
            Algorithm::AlphaBeta2 => {
                let root = leaf(self.eval, board, mn);
                alpha_beta2(
                    board,
                    root,
                    LOSING_VALUE,
                    WINNING_VALUE,
                    depth,
                    self.eval,
                    mn,
                )
            }
            Algorithm::AlphaBeta3 => alpha_beta3(
                board,
                LOSING_VALUE,
                WINNING_VALUE,
                depth,
                self.eval,
                mn,
                None,
            ),
        };
        let sq = best.expect("a position with legal moves yields a move");
        (Move::Place(sq), value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_order_starts_with_corners_and_ends_with_x_squares() {
        assert_eq!(
            &WEIGHT_ORDER[..4],
            &[Square::A1, Square::H1, Square::A8, Square::H8]
        );
        assert_eq!(
            &WEIGHT_ORDER[60..],
            &[Square::B2, Square::G2, Square::B7, Square::G7]
        );
        for w in WEIGHT_ORDER.windows(2) {
            let (a, b) = (WEIGHTS[w[0].index()], WEIGHTS[w[1].index()]);
            assert!(a > b || (a == b && w[0] < w[1]));
        }
    }

    #[test]
    fn maximizer_count_takes_the_most_discs_first_in_square_order() {
        // From the start every move flips one disc: all tie, so the first in square order (d3).
        assert_eq!(
            maximizer(&Board::start(), PaipEval::Count),
            Some(Square::D3)
        );
        // On random positions, the maximizer's move flips as many discs as any.
        for seed in 0..40usize {
            let b = Board::from_move_indices(&[
                seed,
                seed * 7 + 1,
                seed * 3 + 2,
                5,
                seed,
                11,
                2,
                seed + 4,
            ]);
            let Some(sq) = maximizer(&b, PaipEval::Count) else {
                continue;
            };
            let most = b.legal_moves().map(|m| b.flips(m).count_ones()).max();
            assert_eq!(Some(b.flips(sq).count_ones()), most);
        }
    }

    #[test]
    fn alpha_beta_agrees_with_minimax() {
        for seed in 0..24usize {
            let b = Board::from_move_indices(&[
                seed,
                3,
                seed * 5,
                1,
                seed + 2,
                7,
                seed * 11,
                9,
                4,
                seed,
            ]);
            if b.moves() == 0 {
                continue;
            }
            let mn = move_number(&b);
            for eval in PaipEval::ALL {
                for depth in 1..=3 {
                    let (v, m) = minimax(&b, depth, eval, mn);
                    let (va, ma) = alpha_beta(&b, LOSING_VALUE, WINNING_VALUE, depth, eval, mn);
                    assert_eq!(v, va, "seed {seed} {eval:?} depth {depth}");
                    // Both keep the first best move in square order.
                    assert_eq!(m, ma, "seed {seed} {eval:?} depth {depth}");
                    // Other orders find the same value, maybe another move of equal value.
                    let root = leaf(eval, &b, mn);
                    let (v2, _) =
                        alpha_beta2(&b, root, LOSING_VALUE, WINNING_VALUE, depth, eval, mn);
                    let (v3, _) =
                        alpha_beta3(&b, LOSING_VALUE, WINNING_VALUE, depth, eval, mn, None);
                    if eval != PaipEval::Iago {
                        // (alpha-beta2's leaves reuse the mover's view, which for Iago-eval
                        // is not the negation of the side to move's.)
                        assert_eq!(v, v2, "seed {seed} {eval:?} depth {depth}");
                    }
                    assert_eq!(v, v3, "seed {seed} {eval:?} depth {depth}");
                }
            }
        }
    }

    #[test]
    fn a_won_ending_beats_any_heuristic() {
        // Black (to move) can play h8 and end the game a winner, or elsewhere.
        // Build: everything Black except a few squares, so that a move ends the game.
        let pos: crate::board::Position =
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X"
                .parse()
                .unwrap();
        let b = pos.board;
        assert_eq!(b.legal_moves().collect::<Vec<_>>(), vec![Square::H8]);
        let (v, m) = minimax(&b, 3, PaipEval::Weighted, move_number(&b));
        assert_eq!((v, m), (WINNING_VALUE, Some(Square::H8)));
        assert_eq!(final_value(&b.play(Square::H8)), LOSING_VALUE); // White's view
    }

    #[test]
    fn iago_eval_with_the_board_move_number_matches_eval_iago() {
        for seed in 0..30usize {
            let b = Board::from_move_indices(&[
                seed,
                seed * 3,
                2,
                seed + 5,
                1,
                9,
                seed * 13,
                6,
                3,
                seed,
                8,
                1,
            ]);
            let mn = move_number(&b);
            assert_eq!(
                iago_eval(b.player(), b.opponent(), mn),
                crate::eval::iago::iago_score(&b)
            );
        }
    }

    #[test]
    fn killer_is_tried_first_when_legal() {
        // alpha-beta3 with and without a killer finds the same value.
        let b = Board::from_move_indices(&[1, 4, 2, 7, 3, 3, 9, 2]);
        let mn = move_number(&b);
        let (v, _) = alpha_beta3(
            &b,
            LOSING_VALUE,
            WINNING_VALUE,
            3,
            PaipEval::Modified,
            mn,
            None,
        );
        for k in Square::ALL {
            let (vk, _) = alpha_beta3(
                &b,
                LOSING_VALUE,
                WINNING_VALUE,
                3,
                PaipEval::Modified,
                mn,
                Some(k),
            );
            assert_eq!(v, vk);
        }
    }
}
