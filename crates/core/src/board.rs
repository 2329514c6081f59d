//! The two-bitboard position: side to move and opponent, with copy-make play.
//!
//! A [`Board`] is 16 bytes, `Copy`, and relative to the side to move: `player` holds the discs of
//! the side to move and `opponent` the other side's. Playing a move returns a new board with the
//! roles swapped, so nothing ever needs undoing. Colours (Black/White) appear only where a text
//! format or a game needs them ([`Position`], [`Color`]).
//!
//! Legal moves come from [`crate::movegen`] (directional shifts) and flips from [`crate::flip`].
//!
//! API in three tiers, as in the chess crates `shakmaty` and `cozy-chess`:
//! - [`Board::try_play`] for untrusted input, returning [`IllegalMove`];
//! - [`Board::play`], which panics on an illegal move;
//! - [`Board::play_with_flips`], the unchecked fast path for search.
//!
//! # Example
//!
//! Play the perpendicular opening from the start, refuse an illegal move, and read the score:
//!
//! ```
//! use othello_core::board::{IllegalMove, Move, Position};
//! use othello_core::Square;
//!
//! let mut position = Position::start();
//! assert_eq!(position.board.legal_moves().count(), 4);
//! for name in ["f5", "f6"] {
//!     let square: Square = name.parse().unwrap();
//!     position = position.try_play(Move::Place(square)).unwrap();
//! }
//! // Black to move again, with three discs each.
//! assert_eq!(
//!     position.to_board_string(),
//!     "---------------------------OX------XOX-------O------------------ X"
//! );
//! assert_eq!(position.board.disc_difference(), 0);
//! // a1 is empty but flips nothing; the board is unchanged.
//! let a1: Square = "a1".parse().unwrap();
//! assert_eq!(position.try_play(Move::Place(a1)), Err(IllegalMove::NoFlips(a1)));
//! // A board string reads back to the same position.
//! let again: Position = position.to_board_string().parse().unwrap();
//! assert_eq!(again, position);
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::bitboard::squares;
use crate::flip;
pub use crate::movegen::moves;
use crate::square::{Square, SquareError};

/// The side to move, in the game and text layers. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player (`X` or `*` in text).
    Black,
    /// The second player (`O` in text).
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for Black, `O` for White (the OBF/Edax letters).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// A move: a disc placed on a square, or a pass (legal only when no square is).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Place a disc on this square.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl fmt::Display for Move {
    /// `f5` style, `PA` for a pass; `{:#}` gives upper case (`F5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => fmt::Display::fmt(sq, f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

impl FromStr for Move {
    type Err = SquareError;

    /// Accepts `a1`..`h8` in any case, PAIP numbers `11`..`88`, and `PA`/`pass` in any case.
    fn from_str(s: &str) -> Result<Move, SquareError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pa") || t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        if !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()) {
            let n: i64 = t
                .parse()
                .map_err(|_| SquareError::BadLength(t.to_string()))?;
            return Square::from_paip(n).map(Move::Place);
        }
        t.parse().map(Move::Place)
    }
}

/// Why a move could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The square already holds a disc.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// The square is empty but flips nothing.
    #[error("{0} flips no disc")]
    NoFlips(Square),
    /// A pass was asked for while a move exists.
    #[error("cannot pass while a move exists")]
    PassWithMoves,
    /// A disc was placed while the side to move has no move (it must pass).
    #[error("no legal move: the side to move must pass")]
    MustPass,
}

/// Why two bitboards do not make a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A square is claimed by both sides.
    #[error("both sides have a disc on {0}")]
    Overlap(Square),
}

/// An 8x8 Othello position relative to the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    player: u64,
    opponent: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The standard start position, Black to move: White on d4 and e5, Black on d5 and e4.
    pub const fn start() -> Board {
        Board {
            player: Square::D5.bit() | Square::E4.bit(),
            opponent: Square::D4.bit() | Square::E5.bit(),
        }
    }

    /// A board from the mover's and the opponent's discs; they must not overlap.
    pub fn new(player: u64, opponent: u64) -> Result<Board, BoardError> {
        match player & opponent {
            0 => Ok(Board { player, opponent }),
            both => Err(BoardError::Overlap(Square::from_lowest_bit(both))),
        }
    }

    /// A board from two bitboards that the caller guarantees are disjoint (checked in debug).
    #[inline(always)]
    pub fn from_bits_unchecked(player: u64, opponent: u64) -> Board {
        debug_assert_eq!(player & opponent, 0);
        Board { player, opponent }
    }

    /// The discs of the side to move.
    #[inline(always)]
    pub fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move.
    #[inline(always)]
    pub fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The empty squares.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Number of discs of the side to move.
    #[inline(always)]
    pub fn player_count(&self) -> u32 {
        self.player.count_ones()
    }

    /// Number of discs of the side not to move.
    #[inline(always)]
    pub fn opponent_count(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// The legal moves of the side to move, as a bitboard.
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        moves(self.player, self.opponent)
    }

    /// The legal moves of the side to move, as squares in index order.
    pub fn legal_moves(&self) -> impl Iterator<Item = Square> {
        squares(self.moves())
    }

    /// Whether the side to move may place a disc on `sq`.
    #[inline]
    pub fn is_legal(&self, sq: Square) -> bool {
        self.moves() & sq.bit() != 0
    }

    /// The discs a move on `sq` would flip (0 if `sq` is occupied or flips nothing).
    #[inline]
    pub fn flips(&self, sq: Square) -> u64 {
        if self.empty() & sq.bit() == 0 {
            0
        } else {
            flip::flips(sq, self.player, self.opponent)
        }
    }

    /// Plays `sq`, or explains why it is illegal.
    pub fn try_play(&self, sq: Square) -> Result<Board, IllegalMove> {
        if self.empty() & sq.bit() == 0 {
            return Err(IllegalMove::Occupied(sq));
        }
        match flip::flips(sq, self.player, self.opponent) {
            0 if self.moves() == 0 => Err(IllegalMove::MustPass),
            0 => Err(IllegalMove::NoFlips(sq)),
            flips => Ok(self.play_with_flips(sq, flips)),
        }
    }

    /// Plays a [`Move`] (a placement or a pass), or explains why it is illegal.
    pub fn try_play_move(&self, mv: Move) -> Result<Board, IllegalMove> {
        match mv {
            Move::Place(sq) => self.try_play(sq),
            Move::Pass if self.moves() != 0 => Err(IllegalMove::PassWithMoves),
            Move::Pass => Ok(self.pass()),
        }
    }

    /// Plays `sq`.
    ///
    /// # Panics
    /// If `sq` is not a legal move.
    pub fn play(&self, sq: Square) -> Board {
        match self.try_play(sq) {
            Ok(b) => b,
            Err(e) => panic!("illegal move: {e}"),
        }
    }

    /// Plays `sq` given its precomputed, non-zero `flips`; the fast path for search.
    ///
    /// The result is unspecified (checked only by `debug_assert!`) if `flips` is not
    /// `self.flips(sq)` for a legal move.
    #[inline(always)]
    pub fn play_with_flips(&self, sq: Square, flips: u64) -> Board {
        debug_assert!(flips != 0 && flips == flip::flips(sq, self.player, self.opponent));
        debug_assert!(self.empty() & sq.bit() != 0);
        Board {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ sq.bit(),
        }
    }

    /// The board after the side to move passes: the same discs, roles swapped.
    #[inline(always)]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Whether the side to move has no legal move but the opponent has one.
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.moves() == 0 && moves(self.opponent, self.player) != 0
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && moves(self.opponent, self.player) == 0
    }

    /// Disc difference from the side to move's view, ignoring empty squares.
    #[inline]
    pub fn disc_difference(&self) -> i32 {
        self.player_count() as i32 - self.opponent_count() as i32
    }

    /// Final score from the side to move's view under standard scoring: the disc difference,
    /// with the empty squares added to the winner's side (none to either side on a draw).
    #[inline]
    pub fn final_score(&self) -> i32 {
        final_score(self.player, self.opponent)
    }

    /// The position reached from the start by playing, for each index `i`, the legal move
    /// number `i` modulo the number of legal moves (in square order), passing when forced and
    /// stopping early if the game ends. Property tests use it to reach random positions.
    pub fn from_move_indices(indices: &[usize]) -> Board {
        let mut b = Board::start();
        for &i in indices {
            if b.is_game_over() {
                break;
            }
            let mv = b.moves();
            b = if mv == 0 {
                b.pass()
            } else {
                b.play(
                    squares(mv)
                        .nth(i % mv.count_ones() as usize)
                        .expect("i mod count"),
                )
            };
        }
        b
    }

    /// The board with one of the eight symmetries (see [`crate::bitboard::symmetry`]) applied.
    pub fn symmetry(&self, sym: u8) -> Board {
        use crate::bitboard::symmetry;
        Board {
            player: symmetry(self.player, sym),
            opponent: symmetry(self.opponent, sym),
        }
    }

    /// The representative of the board's symmetry class: of its eight images under
    /// [`Board::symmetry`], the one with the smallest `(player, opponent)`. Two boards are equal
    /// up to a rotation or reflection exactly when their canonical boards are equal, so this is
    /// the key for deduplicating positions.
    pub fn canonical(&self) -> Board {
        (1..8).map(|sym| self.symmetry(sym)).fold(*self, |best, b| {
            if (b.player, b.opponent) < (best.player, best.opponent) {
                b
            } else {
                best
            }
        })
    }
}

/// Final score of a finished game from `player`'s view: empties go to the winner.
#[inline(always)]
pub fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let empties = 64 - p - o;
    let diff = p - o;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A board together with the colour of the side to move: what a board string describes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The position, relative to the side to move.
    pub board: Board,
    /// The colour of the side to move.
    pub side: Color,
}

impl Position {
    /// The standard start position, Black to move.
    pub const fn start() -> Position {
        Position {
            board: Board::start(),
            side: Color::Black,
        }
    }

    /// Black's and White's discs.
    pub fn black_white(&self) -> (u64, u64) {
        match self.side {
            Color::Black => (self.board.player, self.board.opponent),
            Color::White => (self.board.opponent, self.board.player),
        }
    }

    /// A position from Black's and White's discs and the side to move.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Result<Position, BoardError> {
        let board = match side {
            Color::Black => Board::new(black, white)?,
            Color::White => Board::new(white, black)?,
        };
        Ok(Position { board, side })
    }

    /// Plays a move (or pass) and hands the turn to the other colour.
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMove> {
        Ok(Position {
            board: self.board.try_play_move(mv)?,
            side: self.side.opposite(),
        })
    }

    /// The 66-character board string: 64 squares `X`/`O`/`-` from a1 to h8, a space, the side.
    pub fn to_board_string(&self) -> String {
        let (black, white) = self.black_white();
        let mut s = String::with_capacity(66);
        for sq in Square::ALL {
            s.push(if black & sq.bit() != 0 {
                'X'
            } else if white & sq.bit() != 0 {
                'O'
            } else {
                '-'
            });
        }
        s.push(' ');
        s.push(self.side.letter());
        s
    }
}

/// Why a board string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseBoardError {
    /// A character that is neither a square, a side letter nor whitespace.
    #[error("unexpected character {found:?} at position {index}")]
    BadChar {
        /// The offending character.
        found: char,
        /// Its character index in the input.
        index: usize,
    },
    /// Fewer than 64 squares.
    #[error("the board has only {0} squares, 64 are needed")]
    TooShort(usize),
    /// No side to move after the 64 squares.
    #[error("missing the side to move after the 64 squares")]
    MissingSide,
    /// A side to move that is not a disc letter (`B`, `W`, ...).
    #[error(
        "unexpected side to move {found:?} at position {index}: expected X (or x, *) for Black \
         or O (or o, 0) for White"
    )]
    BadSide {
        /// The offending character.
        found: char,
        /// Its character index in the input.
        index: usize,
    },
    /// Text after the side to move.
    #[error("unexpected {found:?} at position {index} after the side to move")]
    Trailing {
        /// The offending character.
        found: char,
        /// Its character index in the input.
        index: usize,
    },
}

/// The colour a board-string character stands for, `None` for empty, or `Err` if it is none.
fn square_char(c: char) -> Result<Option<Color>, ()> {
    match c {
        'X' | 'x' | '*' => Ok(Some(Color::Black)),
        'O' | 'o' | '0' => Ok(Some(Color::White)),
        '-' | '.' => Ok(None),
        _ => Err(()),
    }
}

impl FromStr for Position {
    type Err = ParseBoardError;

    /// Reads the OBF/Edax board string: 64 squares from a1 to h8 then the side to move.
    ///
    /// `X x *` are Black, `O o 0` White, `- .` empty; whitespace anywhere is ignored. The side is
    /// written with the same letters as the discs.
    fn from_str(s: &str) -> Result<Position, ParseBoardError> {
        let (mut black, mut white, mut n) = (0u64, 0u64, 0usize);
        let mut side = None;
        for (index, c) in s.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            let bad = ParseBoardError::BadChar { found: c, index };
            if n < 64 {
                match square_char(c).map_err(|_| bad)? {
                    Some(Color::Black) => black |= 1 << n,
                    Some(Color::White) => white |= 1 << n,
                    None => {}
                }
                n += 1;
            } else if side.is_none() {
                side = match square_char(c) {
                    Ok(Some(color)) => Some(color),
                    _ => return Err(ParseBoardError::BadSide { found: c, index }),
                };
            } else {
                return Err(ParseBoardError::Trailing { found: c, index });
            }
        }
        if n < 64 {
            return Err(ParseBoardError::TooShort(n));
        }
        let side = side.ok_or(ParseBoardError::MissingSide)?;
        Ok(Position::from_colors(black, white, side).expect("squares are assigned once"))
    }
}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads a board string (see [`Position`]'s `FromStr`) and keeps the relative board.
    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        s.parse::<Position>().map(|p| p.board)
    }
}

impl fmt::Display for Position {
    /// A readable diagram: columns, rows, `X` Black, `O` White, `.` empty, `+` a legal move
    /// (as `othello play` shows them; `*` would read as Black, as in board strings and GGF),
    /// then the disc counts and the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = self.black_white();
        let legal = self.board.moves();
        writeln!(f, "  a b c d e f g h")?;
        for row in 0..8 {
            write!(f, "{}", row + 1)?;
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                let c = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if legal & bit != 0 {
                    '+'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " {}", row + 1)?;
        }
        writeln!(f, "  a b c d e f g h")?;
        let to_move = match self.side {
            Color::Black => "Black (X)",
            Color::White => "White (O)",
        };
        write!(
            f,
            "Black {} - White {}, {} to move",
            black.count_ones(),
            white.count_ones(),
            if self.board.is_game_over() {
                "nobody"
            } else {
                to_move
            }
        )
    }
}

impl fmt::Display for Board {
    /// The diagram of [`Position`], drawing the side to move as Black (`X`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Position {
            board: *self,
            side: Color::Black,
        }
        .fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn start_position_has_the_four_known_moves() {
        let b = Board::start();
        let names: Vec<String> = b.legal_moves().map(|s| s.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        assert_eq!(START.parse::<Board>(), Ok(b));
        assert_eq!(Position::start().to_board_string(), START);
    }

    #[test]
    fn play_swaps_sides_and_flips() {
        let b = Board::start().play(Square::F5);
        // White to move now: White has d4 only; Black has d5, e4, e5, f5.
        assert_eq!(b.player(), Square::D4.bit());
        assert_eq!(b.opponent_count(), 4);
        assert_eq!(
            Board::start().try_play(Square::A1),
            Err(IllegalMove::NoFlips(Square::A1))
        );
        assert_eq!(
            Board::start().try_play(Square::D4),
            Err(IllegalMove::Occupied(Square::D4))
        );
        assert_eq!(
            Board::start().try_play_move(Move::Pass),
            Err(IllegalMove::PassWithMoves)
        );
    }

    #[test]
    fn scoring_gives_empties_to_the_winner() {
        // Mover has 10, opponent 5, 49 empty: the mover wins 59-5.
        let b = Board::new(0x3FF, 0x1F << 20).unwrap();
        assert_eq!(b.final_score(), 10 - 5 + 49);
        assert_eq!(b.pass().final_score(), -(10 - 5 + 49));
        assert_eq!(Board::new(0xF, 0xF0).unwrap().final_score(), 0);
    }

    #[test]
    fn board_strings_accept_all_letters_and_whitespace() {
        let alt = "........ ........ ........ ...0*... ...xo... ........ ........ ........ x";
        assert_eq!(alt.parse::<Board>(), Ok(Board::start()));
        let white = START.replace(" X", " o").parse::<Position>().unwrap();
        assert_eq!(white.side, Color::White);
        assert_eq!(white.board, Board::start().pass());
    }

    #[test]
    fn board_string_errors_name_the_character() {
        let bad = START.replacen('-', "?", 1);
        assert_eq!(
            bad.parse::<Board>(),
            Err(ParseBoardError::BadChar {
                found: '?',
                index: 0
            })
        );
        assert_eq!("XO".parse::<Board>(), Err(ParseBoardError::TooShort(2)));
        assert_eq!(
            START[..64].parse::<Board>(),
            Err(ParseBoardError::MissingSide)
        );
        assert_eq!(
            format!("{START} X").parse::<Board>(),
            Err(ParseBoardError::Trailing {
                found: 'X',
                index: 67
            })
        );
        assert!(matches!(
            START.replace(" X", " -").parse::<Board>(),
            Err(ParseBoardError::BadSide { found: '-', .. })
        ));
        // A side written B or W (as some tools do) is named, with the letters expected.
        let err = START.replace(" X", " B").parse::<Board>().unwrap_err();
        assert_eq!(
            err,
            ParseBoardError::BadSide {
                found: 'B',
                index: 65
            }
        );
        let text = err.to_string();
        assert!(
            text.contains("'B'") && text.contains("expected X"),
            "{text}"
        );
        assert!(text.contains("O (or o, 0) for White"), "{text}");
    }

    #[test]
    fn moves_parse_in_every_notation() {
        assert_eq!("F5".parse::<Move>(), Ok(Move::Place(Square::F5)));
        assert_eq!("56".parse::<Move>(), Ok(Move::Place(Square::F5)));
        assert_eq!("pa".parse::<Move>(), Ok(Move::Pass));
        assert_eq!("PASS".parse::<Move>(), Ok(Move::Pass));
        assert!("99".parse::<Move>().is_err());
        assert!("".parse::<Move>().is_err());
        assert_eq!(Move::Pass.to_string(), "PA");
        assert_eq!(format!("{:#}", Move::Place(Square::C4)), "C4");
    }

    #[test]
    fn canonical_boards_are_the_same_for_all_symmetric_images() {
        let b = Board::from_move_indices(&[3, 1, 4, 1, 5, 9, 2, 6]);
        let c = b.canonical();
        for sym in 0..8 {
            assert_eq!(b.symmetry(sym).canonical(), c);
        }
        assert_eq!(c.canonical(), c);
        // The start position's four first moves lead to one class.
        let firsts: Vec<Board> = Board::start()
            .legal_moves()
            .map(|sq| Board::start().play(sq).canonical())
            .collect();
        assert!(firsts.iter().all(|&f| f == firsts[0]));
        assert_ne!(Board::start().canonical(), firsts[0]);
    }

    #[test]
    fn display_shows_coordinates_counts_and_legal_moves() {
        let text = Position::start().to_string();
        assert!(text.starts_with("  a b c d e f g h\n1 . . . ."));
        assert!(text.contains("\n4 . . + O X . . . 4\n"));
        assert!(text.ends_with("Black 2 - White 2, Black (X) to move"));
    }
}
