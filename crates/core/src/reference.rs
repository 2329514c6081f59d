//! The reference board: a plain mailbox Othello board, the test oracle for the bitboard core.
//!
//! This is the board representation of Peter Norvig's *Paradigms of Artificial Intelligence
//! Programming* (PAIP), chapter 18 ("Search and the Game of Othello"), written for clarity rather
//! than speed:
//!
//! - the board is a vector of 100 cells, a 10x10 square whose outer ring is a border of
//!   [`Cell::Outer`] cells; the playable squares are numbered `10 * row + column` with both
//!   counted from 1, so 11..88 (PAIP's `all-squares`);
//! - the eight directions are the steps -11, -10, -9, -1, 1, 9, 10, 11 (PAIP's
//!   `all-directions`); walking in any of them from a playable square reaches the border before
//!   it can leave the array, so no edge test is ever needed;
//! - a move is legal when the square is empty and, in some direction, the neighbouring cell holds
//!   an opponent disc and the run of opponent discs starting there ends on one of the mover's
//!   discs (PAIP's `would-flip?` and `find-bracketing-piece`); playing it turns over every such
//!   run (`make-flips`, `make-move`);
//! - after a move the turn passes to the opponent if it has a legal move, otherwise back to the
//!   mover if it has one, otherwise the game is over (`next-to-play`).
//!
//! The module deliberately shares nothing with the bitboard code ([`crate::flip`],
//! [`crate::movegen`], [`Board::moves`]): it only converts to and from [`Board`] and
//! [`Position`] at the edges, so that property tests and the fuzz target can compare the two
//! implementations. Squares are named with [`Square`] in the API; the conversion to PAIP's numbers
//! is done here, from the square's index.
//!
//! Scoring follows the standard rule rather than PAIP's plain disc count: at the end of the game
//! the empty squares are given to the winner (a draw scores 0).

use crate::board::{Board, Color, IllegalMove, Move, Position};
use crate::square::Square;

/// The contents of one of the 100 mailbox cells (PAIP's `empty`, `black`, `white`, `outer`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// A playable square with no disc.
    Empty,
    /// A black disc.
    Black,
    /// A white disc.
    White,
    /// A border cell, off the 8x8 board.
    Outer,
}

impl Cell {
    /// The cell holding a disc of colour `color`.
    pub fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// PAIP's `all-directions`: the eight mailbox steps, north-west to south-east.
pub const ALL_DIRECTIONS: [isize; 8] = [-11, -10, -9, -1, 1, 9, 10, 11];

/// The mailbox number (11..88) of a square: `10 * (row + 1) + (column + 1)`.
pub fn mailbox_index(sq: Square) -> usize {
    let i = sq.index();
    10 * (i / 8 + 1) + (i % 8 + 1)
}

/// The square at mailbox number `n`, or `None` if `n` is a border cell or outside 0..100.
pub fn square_at(n: usize) -> Option<Square> {
    let (row, col) = (n / 10, n % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::from_index((row - 1) * 8 + (col - 1))
    } else {
        None
    }
}

/// A mailbox board with the colour to move: the oracle the bitboard [`Position`] is checked
/// against.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefBoard {
    cells: [Cell; 100],
    to_move: Color,
}

impl Default for RefBoard {
    fn default() -> Self {
        RefBoard::initial()
    }
}

impl RefBoard {
    /// A board with no discs (border cells set, every playable square empty), Black to move.
    pub fn empty() -> RefBoard {
        let mut cells = [Cell::Outer; 100];
        for (n, cell) in cells.iter_mut().enumerate() {
            if square_at(n).is_some() {
                *cell = Cell::Empty;
            }
        }
        RefBoard {
            cells,
            to_move: Color::Black,
        }
    }

    /// The standard start (PAIP's `initial-board`): White on d4 and e5 (44, 55), Black on d5
    /// and e4 (54, 45), Black to move.
    pub fn initial() -> RefBoard {
        let mut b = RefBoard::empty();
        b.cells[44] = Cell::White;
        b.cells[55] = Cell::White;
        b.cells[45] = Cell::Black;
        b.cells[54] = Cell::Black;
        b
    }

    /// The mailbox copy of a [`Position`]: same discs, same colour to move.
    pub fn from_position(pos: &Position) -> RefBoard {
        let (black, white) = pos.black_white();
        let mut b = RefBoard::empty();
        for sq in Square::ALL {
            let n = mailbox_index(sq);
            if black >> sq.index() & 1 == 1 {
                b.cells[n] = Cell::Black;
            } else if white >> sq.index() & 1 == 1 {
                b.cells[n] = Cell::White;
            }
        }
        b.to_move = pos.side;
        b
    }

    /// The mailbox copy of a relative [`Board`], drawing the side to move as Black.
    pub fn from_board(board: &Board) -> RefBoard {
        RefBoard::from_position(&Position {
            board: *board,
            side: Color::Black,
        })
    }

    /// The [`Position`] with the same discs and colour to move.
    pub fn to_position(&self) -> Position {
        let (mut black, mut white) = (0u64, 0u64);
        for sq in Square::ALL {
            match self.cells[mailbox_index(sq)] {
                Cell::Black => black |= 1 << sq.index(),
                Cell::White => white |= 1 << sq.index(),
                Cell::Empty => {}
                Cell::Outer => unreachable!("playable squares are never border cells"),
            }
        }
        Position::from_colors(black, white, self.to_move).expect("a cell holds one disc at most")
    }

    /// The relative [`Board`] (side to move, opponent) with the same discs.
    pub fn to_board(&self) -> Board {
        self.to_position().board
    }

    /// The colour whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the colour whose turn it is.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The contents of mailbox cell `n` (PAIP's `bref`).
    ///
    /// # Panics
    /// If `n >= 100`.
    pub fn cell(&self, n: usize) -> Cell {
        self.cells[n]
    }

    /// The contents of a playable square.
    pub fn get(&self, sq: Square) -> Cell {
        self.cells[mailbox_index(sq)]
    }

    /// Puts `cell` (`Empty`, `Black` or `White`) on a playable square.
    ///
    /// # Panics
    /// If `cell` is [`Cell::Outer`]: the border stays where it is.
    pub fn set(&mut self, sq: Square, cell: Cell) {
        assert_ne!(cell, Cell::Outer, "a playable square cannot become border");
        self.cells[mailbox_index(sq)] = cell;
    }

    /// PAIP's `would-flip?`: whether a move by `player` on `mv` turns over discs in direction
    /// `dir`, and if so the square of the bracketing disc (the mover's disc that closes the run).
    ///
    /// The cell next to `mv` must hold an opponent disc, and the run of opponent discs starting
    /// there must end on one of `player`'s discs (not on an empty square or the border).
    ///
    /// # Panics
    /// If `dir` is not one of [`ALL_DIRECTIONS`].
    pub fn would_flip(&self, mv: Square, player: Color, dir: isize) -> Option<Square> {
        assert!(ALL_DIRECTIONS.contains(&dir), "{dir} is not a direction");
        let c = step(mailbox_index(mv), dir);
        if self.cells[c] == Cell::of(player.opposite()) {
            self.find_bracketing_piece(step(c, dir), player, dir)
        } else {
            None
        }
    }

    /// PAIP's `find-bracketing-piece`: walking from cell `n` in direction `dir` over opponent
    /// discs, the first of `player`'s discs, if the walk reaches one before an empty square or
    /// the border.
    fn find_bracketing_piece(&self, mut n: usize, player: Color, dir: isize) -> Option<Square> {
        loop {
            match self.cells[n] {
                c if c == Cell::of(player) => return square_at(n),
                c if c == Cell::of(player.opposite()) => n = step(n, dir),
                _ => return None,
            }
        }
    }

    /// PAIP's `legal-p`: `mv` is empty and turns over discs in at least one direction.
    pub fn is_legal(&self, mv: Square, player: Color) -> bool {
        self.get(mv) == Cell::Empty
            && ALL_DIRECTIONS
                .iter()
                .any(|&dir| self.would_flip(mv, player, dir).is_some())
    }

    /// PAIP's `legal-moves`: every legal move of `player`, sorted by [`Square`] index (a1, b1,
    /// ..., h8), which is also the order of their PAIP numbers.
    pub fn legal_moves(&self, player: Color) -> Vec<Square> {
        Square::ALL
            .into_iter()
            .filter(|&sq| self.is_legal(sq, player))
            .collect()
    }

    /// PAIP's `any-legal-move?`: whether `player` has at least one legal move.
    pub fn any_legal_move(&self, player: Color) -> bool {
        Square::ALL.into_iter().any(|sq| self.is_legal(sq, player))
    }

    /// The discs a move by `player` on `mv` would turn over, sorted by square index; empty if
    /// `mv` is occupied or not a legal move.
    pub fn flips(&self, mv: Square, player: Color) -> Vec<Square> {
        if self.get(mv) != Cell::Empty {
            return Vec::new();
        }
        let mut flipped = Vec::new();
        for dir in ALL_DIRECTIONS {
            if let Some(bracketer) = self.would_flip(mv, player, dir) {
                let end = mailbox_index(bracketer);
                let mut c = step(mailbox_index(mv), dir);
                while c != end {
                    flipped.extend(square_at(c));
                    c = step(c, dir);
                }
            }
        }
        flipped.sort();
        flipped
    }

    /// PAIP's `make-flips`: turns over the discs bracketed by a move of `player` on `mv` in
    /// direction `dir` (nothing if that direction flips nothing).
    ///
    /// # Panics
    /// If `dir` is not one of [`ALL_DIRECTIONS`].
    pub fn make_flips(&mut self, mv: Square, player: Color, dir: isize) {
        if let Some(bracketer) = self.would_flip(mv, player, dir) {
            let end = mailbox_index(bracketer);
            let mut c = step(mailbox_index(mv), dir);
            while c != end {
                self.cells[c] = Cell::of(player);
                c = step(c, dir);
            }
        }
    }

    /// PAIP's `make-move`: puts a disc of `player` on `mv` and turns over the bracketed discs in
    /// all eight directions. It does not check legality (PAIP leaves that to the caller) and does
    /// not change the colour to move.
    pub fn make_move(&mut self, mv: Square, player: Color) {
        self.cells[mailbox_index(mv)] = Cell::of(player);
        for dir in ALL_DIRECTIONS {
            self.make_flips(mv, player, dir);
        }
    }

    /// PAIP's `next-to-play`: who moves after `previous` has just moved. The opponent if it has
    /// a legal move; otherwise `previous` again (the opponent passes); otherwise `None`, the game
    /// is over.
    pub fn next_to_play(&self, previous: Color) -> Option<Color> {
        let opp = previous.opposite();
        if self.any_legal_move(opp) {
            Some(opp)
        } else if self.any_legal_move(previous) {
            Some(previous)
        } else {
            None
        }
    }

    /// Plays a legal move `mv` for the colour to move and hands the turn on as
    /// [`RefBoard::next_to_play`] says, passing for the opponent when it has no move.
    ///
    /// Returns the colour to move next, or `None` when the game is over (the turn then goes to
    /// the opponent, as it would on a [`Position`]). If `mv` is not legal, changes nothing and
    /// says why.
    pub fn play(&mut self, mv: Square) -> Result<Option<Color>, IllegalMove> {
        let player = self.to_move;
        if self.get(mv) != Cell::Empty {
            return Err(IllegalMove::Occupied(mv));
        }
        if !self.is_legal(mv, player) {
            return Err(if self.any_legal_move(player) {
                IllegalMove::NoFlips(mv)
            } else {
                IllegalMove::MustPass
            });
        }
        self.make_move(mv, player);
        let next = self.next_to_play(player);
        self.to_move = next.unwrap_or(player.opposite());
        Ok(next)
    }

    /// Gives the turn to the other colour (a pass), whether or not the pass is legal.
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opposite();
    }

    /// Whether the colour to move has no legal move but its opponent has one.
    pub fn must_pass(&self) -> bool {
        !self.any_legal_move(self.to_move) && self.any_legal_move(self.to_move.opposite())
    }

    /// Whether neither colour has a legal move.
    pub fn is_game_over(&self) -> bool {
        !self.any_legal_move(Color::Black) && !self.any_legal_move(Color::White)
    }

    /// PAIP's `count`: the number of `player`'s discs.
    pub fn count(&self, player: Color) -> u32 {
        let disc = Cell::of(player);
        self.cells.iter().filter(|&&c| c == disc).count() as u32
    }

    /// The number of empty playable squares.
    pub fn count_empty(&self) -> u32 {
        self.cells.iter().filter(|&&c| c == Cell::Empty).count() as u32
    }

    /// PAIP's `count-difference`: `player`'s discs minus the opponent's.
    pub fn count_difference(&self, player: Color) -> i32 {
        self.count(player) as i32 - self.count(player.opposite()) as i32
    }

    /// The final score for `player` under standard scoring: the disc difference, with every
    /// empty square added to the winner's count (a draw is 0).
    pub fn final_score(&self, player: Color) -> i32 {
        let diff = self.count_difference(player);
        let empties = self.count_empty() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }
}

/// The mailbox cell one step from `n` in direction `dir`.
fn step(n: usize, dir: isize) -> usize {
    n.checked_add_signed(dir)
        .expect("the border stops every walk")
}

/// The first disagreement between a bitboard [`Position`] and a reference board that should
/// describe the same position, as a message; `Ok(())` when they agree.
///
/// Checked: the discs and colour to move; the legal moves; the discs turned over by a move on
/// every square (nothing for occupied squares and illegal moves); whether the side to move must
/// pass; whether the game is over; and, when it is, the final score.
pub fn compare(pos: &Position, reference: &RefBoard) -> Result<(), String> {
    let ref_pos = reference.to_position();
    if *pos != ref_pos {
        return Err(format!(
            "positions differ: board {} vs reference {}",
            pos.to_board_string(),
            ref_pos.to_board_string()
        ));
    }
    let player = reference.to_move();
    let here = pos.to_board_string();
    let moves: Vec<Square> = pos.board.legal_moves().collect();
    let ref_moves = reference.legal_moves(player);
    if moves != ref_moves {
        return Err(format!(
            "legal moves differ at {here}: board {moves:?} vs reference {ref_moves:?}"
        ));
    }
    for sq in Square::ALL {
        let flips = pos.board.flips(sq);
        let ref_flips = reference.flips(sq, player);
        let ref_bits = ref_flips.iter().fold(0u64, |bits, s| bits | 1 << s.index());
        if flips != ref_bits {
            return Err(format!(
                "flips of {sq} differ at {here}: board {flips:#018x} vs reference {ref_bits:#018x} \
                 {ref_flips:?}"
            ));
        }
        if pos.board.is_legal(sq) != reference.is_legal(sq, player) {
            return Err(format!("legality of {sq} differs at {here}"));
        }
    }
    if pos.board.must_pass() != reference.must_pass() {
        return Err(format!(
            "must-pass differs at {here}: board {} vs reference {}",
            pos.board.must_pass(),
            reference.must_pass()
        ));
    }
    let over = pos.board.is_game_over();
    if over != reference.is_game_over() {
        return Err(format!(
            "game over differs at {here}: board {over} vs reference {}",
            reference.is_game_over()
        ));
    }
    if over && pos.board.final_score() != reference.final_score(player) {
        return Err(format!(
            "final score differs at {here}: board {} vs reference {}",
            pos.board.final_score(),
            reference.final_score(player)
        ));
    }
    Ok(())
}

/// Plays one move of a game on both a [`Position`] and a [`RefBoard`] that agree, and checks
/// that the results agree too; the game driver of the fuzz target and of a property test.
///
/// If the side to move must pass, both boards pass first. Then, if it has legal moves, the move
/// played is `legal[choice % legal.len()]`; if it has none the game is over and nothing is
/// played. After the move the turn goes on as [`RefBoard::next_to_play`] says: when the
/// opponent has no move, the bitboard side plays the pass explicitly. Both boards are then
/// compared with [`compare`].
///
/// Returns the move and the colour to move next (`None` when the game ended), `Ok(None)` if
/// the game was already over, or the first disagreement.
pub fn step_both(
    pos: &mut Position,
    reference: &mut RefBoard,
    choice: usize,
) -> Result<Option<(Square, Option<Color>)>, String> {
    if reference.must_pass() {
        // Only possible before the first move of a game set up from an arbitrary position:
        // after a move, passes are played below.
        *pos = pos.try_play(Move::Pass).map_err(|e| {
            format!(
                "the board refuses a forced pass at {}: {e}",
                pos.to_board_string()
            )
        })?;
        reference.pass();
        compare(pos, reference)?;
    }
    let ref_moves = reference.legal_moves(reference.to_move());
    let Some(&mv) = ref_moves.get(choice % ref_moves.len().max(1)) else {
        return if pos.board.is_game_over() {
            Ok(None)
        } else {
            Err(format!(
                "the reference has no move at {} but the game is not over",
                pos.to_board_string()
            ))
        };
    };
    let mover = pos.side;
    let before = pos.to_board_string();
    let after = pos
        .try_play(Move::Place(mv))
        .map_err(|e| format!("the board refuses {mv} at {before}: {e}"))?;
    let ref_next = reference
        .play(mv)
        .map_err(|e| format!("the reference refuses its own move {mv} at {before}: {e}"))?;
    let next = if after.board.moves() != 0 {
        if after.try_play(Move::Pass).is_ok() {
            return Err(format!(
                "the board lets a side with moves pass after {mv} at {before}"
            ));
        }
        *pos = after;
        Some(after.side)
    } else if after.board.must_pass() {
        *pos = after
            .try_play(Move::Pass)
            .map_err(|e| format!("the board refuses a forced pass after {mv} at {before}: {e}"))?;
        Some(mover)
    } else {
        if !after.board.is_game_over() {
            return Err(format!(
                "no move, no pass and no game over after {mv} at {before}"
            ));
        }
        *pos = after;
        None
    };
    if next != ref_next {
        return Err(format!(
            "next to play after {mv} at {before}: board {next:?} vs reference {ref_next:?}"
        ));
    }
    compare(pos, reference)?;
    Ok(Some((mv, next)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailbox_numbers_match_paip_and_the_border_is_outer() {
        for sq in Square::ALL {
            assert_eq!(mailbox_index(sq), sq.paip());
            assert_eq!(square_at(mailbox_index(sq)), Some(sq));
        }
        let b = RefBoard::initial();
        let outer = (0..100).filter(|&n| b.cell(n) == Cell::Outer).count();
        assert_eq!(outer, 36);
        for n in [0, 9, 10, 19, 89, 90, 99] {
            assert_eq!(b.cell(n), Cell::Outer);
            assert_eq!(square_at(n), None);
        }
        assert_eq!(square_at(100), None);
    }

    #[test]
    fn the_start_has_four_moves_each_flipping_one_disc() {
        let b = RefBoard::initial();
        assert_eq!(
            b.legal_moves(Color::Black),
            [Square::D3, Square::C4, Square::F5, Square::E6]
        );
        assert_eq!(
            b.legal_moves(Color::White),
            [Square::E3, Square::F4, Square::C5, Square::D6]
        );
        // f5 (PAIP 56) flips e5 (55) westward (dir -1), bracketed by d5 (54).
        assert_eq!(b.would_flip(Square::F5, Color::Black, -1), Some(Square::D5));
        assert_eq!(b.would_flip(Square::F5, Color::Black, -10), None);
        assert_eq!(b.flips(Square::F5, Color::Black), [Square::E5]);
        assert!(b.flips(Square::A1, Color::Black).is_empty());
        assert!(b.flips(Square::D4, Color::Black).is_empty());
        assert_eq!(b.to_position(), Position::start());
        assert_eq!(RefBoard::from_position(&Position::start()), b);
    }

    #[test]
    fn make_move_flips_and_play_hands_the_turn_over() {
        let mut b = RefBoard::initial();
        assert_eq!(b.play(Square::F5), Ok(Some(Color::White)));
        assert_eq!(b.get(Square::E5), Cell::Black);
        assert_eq!(b.get(Square::F5), Cell::Black);
        assert_eq!((b.count(Color::Black), b.count(Color::White)), (4, 1));
        assert_eq!(b.count_difference(Color::White), -3);
        assert_eq!(b.play(Square::A1), Err(IllegalMove::NoFlips(Square::A1)));
        assert_eq!(b.play(Square::F5), Err(IllegalMove::Occupied(Square::F5)));
        assert_eq!(b.to_move(), Color::White);
    }

    #[test]
    fn a_long_run_to_the_edge_is_not_bracketed() {
        // a1 empty, b1..h1 white: no black disc closes the run, the border does not.
        let mut b = RefBoard::empty();
        for sq in &Square::ALL[1..8] {
            b.set(*sq, Cell::White);
        }
        assert_eq!(b.would_flip(Square::A1, Color::Black, 1), None);
        assert!(!b.is_legal(Square::A1, Color::Black));
        b.set(Square::H1, Cell::Black);
        assert_eq!(b.would_flip(Square::A1, Color::Black, 1), Some(Square::H1));
        assert_eq!(b.flips(Square::A1, Color::Black), &Square::ALL[1..7]);
    }

    #[test]
    fn passes_and_game_over_follow_next_to_play() {
        // Black a1, White b1: Black can take c1; White brackets nothing (a1 backs onto the
        // border), so White must pass, and after c1 nobody can move.
        let mut b = RefBoard::empty();
        b.set(Square::A1, Cell::Black);
        b.set(Square::B1, Cell::White);
        assert_eq!(b.legal_moves(Color::Black), [Square::C1]);
        assert!(!b.any_legal_move(Color::White));
        assert_eq!(b.next_to_play(Color::Black), Some(Color::Black));
        b.set_to_move(Color::White);
        assert!(b.must_pass() && !b.is_game_over());
        assert_eq!(compare(&b.to_position(), &b), Ok(()));
        b.pass();
        assert_eq!(b.play(Square::C1), Ok(None));
        assert_eq!(b.next_to_play(Color::Black), None);
        assert_eq!(b.to_move(), Color::White);
        assert!(b.is_game_over() && !b.must_pass());
        assert_eq!(b.count(Color::Black), 3);
        assert_eq!(b.final_score(Color::Black), 64);
        assert_eq!(b.final_score(Color::White), -64);
        assert_eq!(compare(&b.to_position(), &b), Ok(()));
    }

    #[test]
    fn draws_score_zero_and_empties_go_to_the_winner() {
        let mut b = RefBoard::empty();
        b.set(Square::A1, Cell::Black);
        b.set(Square::H8, Cell::White);
        assert_eq!(b.final_score(Color::Black), 0);
        b.set(Square::H1, Cell::Black);
        assert_eq!(b.final_score(Color::Black), 1 + 61);
        assert_eq!(b.final_score(Color::White), -62);
    }

    #[test]
    fn compare_reports_disagreements() {
        let pos = Position::start();
        let mut r = RefBoard::initial();
        assert_eq!(compare(&pos, &r), Ok(()));
        r.pass();
        assert!(compare(&pos, &r).unwrap_err().contains("positions differ"));
        let mut r = RefBoard::initial();
        r.set(Square::A1, Cell::White);
        assert!(compare(&pos, &r).is_err());
    }

    #[test]
    fn step_both_plays_a_whole_game() {
        let (mut pos, mut r) = (Position::start(), RefBoard::initial());
        let mut plies = 0;
        while let Some((_, next)) = step_both(&mut pos, &mut r, plies * 7 + 3).unwrap() {
            plies += 1;
            if next.is_none() {
                break;
            }
        }
        assert!(pos.board.is_game_over() && r.is_game_over());
        assert!(plies <= 60);
        assert_eq!(step_both(&mut pos, &mut r, 0), Ok(None));
    }
}
