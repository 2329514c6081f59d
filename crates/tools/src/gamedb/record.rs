//! [`GameRecord`]: one game of a database, from the standard start, with passes implicit; its
//! replay, and its conversion to and from the GGF [`Game`].
//!
//! The pass rule of the databases (WTHOR, its PGN conversion, transcripts): passes are not
//! written. When the side to move has no legal move but the other side has one, the next
//! listed move belongs to the other side. A game may stop before the board is full, either
//! because neither side can move or because the players stopped.

use crate::board::{Color, Move, Position};
use crate::game::{Game, GameEnd, GameResult, MoveRecord};
use crate::square::Square;
use crate::text::one_line;

use super::error::{ErrorKind, ReplayError, ReplayProblem};

/// The numbers a WTHOR file gives a game's tournament and players (indices into `WTHOR.TRN`
/// and `WTHOR.JOU`), kept so that a `.wtb` written back refers to the same names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct WthorIds {
    /// The tournament number.
    pub tournament: u16,
    /// Black's player number.
    pub black: u16,
    /// White's player number.
    pub white: u16,
}

/// One game of a database: the moves from the standard start and what is known about it.
///
/// The fields are public and unchecked: [`GameRecord::replay`] checks the moves. The readers
/// of this module only return games that replay.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// The squares played, in order, passes implicit (see the module docs).
    pub moves: Vec<Square>,
    /// Black's name (empty if unknown).
    pub black: String,
    /// White's name (empty if unknown).
    pub white: String,
    /// The event or tournament (empty if unknown).
    pub event: String,
    /// When the game was played, free text: `1977`, `2025-03-01`; empty if unknown.
    pub date: String,
    /// The recorded result: Black's discs at the end, as the source says. It may disagree
    /// with the moves (use [`GameRecord::final_score`] for the replayed result).
    pub black_discs: Option<u8>,
    /// WTHOR's theoretical score: Black's discs with perfect play from the depth given in the
    /// file's header, if the source has one.
    pub theoretical: Option<u8>,
    /// The tournament and player numbers, when the game comes from a `.wtb` file.
    pub wthor: Option<WthorIds>,
}

/// Plays a move list with the implicit-pass rule, one move at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Replayer {
    /// The current position: its side to move has a legal move, or the game is over.
    pub pos: Position,
    /// Moves played so far (passes not counted).
    pub plies: usize,
    /// Whether the last move forced a pass (already made) that no explicit pass has matched.
    pub passed: bool,
}

impl Replayer {
    /// At the standard start.
    pub fn new() -> Replayer {
        Replayer {
            pos: Position::start(),
            plies: 0,
            passed: false,
        }
    }

    /// Plays `square` for the side to move, then makes a forced pass at once, so the side to
    /// move always has a move unless the game is over.
    pub fn play(&mut self, square: Square) -> Result<(), ReplayError> {
        let ply = self.plies + 1;
        let error = |reason| ReplayError {
            ply,
            square,
            reason,
        };
        if self.pos.board.is_game_over() {
            return Err(error(ReplayProblem::GameOver));
        }
        self.pos = self
            .pos
            .try_play(Move::Place(square))
            .map_err(|e| error(ReplayProblem::Illegal(e)))?;
        self.passed = self.pos.board.must_pass();
        if self.passed {
            self.pos = self
                .pos
                .try_play(Move::Pass)
                .expect("a forced pass is legal");
        }
        self.plies = ply;
        Ok(())
    }

    /// Accepts an explicit pass in the text: only right after a move that forced one (which
    /// [`Replayer::play`] has already made), and once.
    pub fn explicit_pass(&mut self) -> Result<(), ErrorKind> {
        if std::mem::take(&mut self.passed) {
            Ok(())
        } else {
            Err(ErrorKind::BadPass {
                ply: self.plies + 1,
            })
        }
    }
}

impl GameRecord {
    /// A game with these moves and nothing else known.
    pub fn from_moves(moves: Vec<Square>) -> GameRecord {
        GameRecord {
            moves,
            ..GameRecord::default()
        }
    }

    /// Every position of the game: the one before each move, then the final one. A forced
    /// pass is made before a position is recorded, so the side to move of every position has
    /// a legal move, or the game is over (then it is the final position). The result has
    /// `moves.len() + 1` positions.
    pub fn replay(&self) -> Result<Vec<Position>, ReplayError> {
        let mut r = Replayer::new();
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(r.pos);
        for &sq in &self.moves {
            r.play(sq)?;
            positions.push(r.pos);
        }
        Ok(positions)
    }

    /// The position after the last move (a forced pass made), checking every move.
    pub fn final_position(&self) -> Result<Position, ReplayError> {
        let mut r = Replayer::new();
        for &sq in &self.moves {
            r.play(sq)?;
        }
        Ok(r.pos)
    }

    /// Black's final score from the replayed board: Black's discs minus White's, the empty
    /// squares going to the side with more discs (as in WTHOR and in the engine's scoring).
    /// This ignores [`GameRecord::black_discs`], the recorded result.
    pub fn final_score(&self) -> Result<i32, ReplayError> {
        Ok(black_score(&self.final_position()?))
    }

    /// Black's discs in the replayed final position, empties to the winner: `(64 + score) / 2`.
    pub fn final_black_discs(&self) -> Result<u8, ReplayError> {
        Ok(((64 + self.final_score()?) / 2) as u8)
    }

    /// The year: the first four digits of [`GameRecord::date`], if it starts with them.
    pub fn year(&self) -> Option<u16> {
        let digits = self.date.get(..4)?;
        digits
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| digits.parse().ok())
            .flatten()
    }

    /// The game as a GGF [`Game`], passes made explicit: `PC` is the event, `DT` the date,
    /// `RE` the recorded result as Black's margin (`?` if none).
    pub fn to_game(&self) -> Result<Game, ReplayError> {
        let mut game = Game::default();
        game.place = one_line(&self.event);
        game.date = one_line(&self.date);
        game.black_name = one_line(&self.black);
        game.white_name = one_line(&self.white);
        if let Some(b) = self.black_discs {
            game.result = GameResult::Finished {
                black_margin: 2.0 * f64::from(b) - 64.0,
                end: GameEnd::Normal,
            };
        }
        let mut r = Replayer::new();
        for &sq in &self.moves {
            r.play(sq)?;
            game.push(MoveRecord::new(Move::Place(sq)))
                .expect("the replay checked the move");
            if r.passed {
                game.push(MoveRecord::new(Move::Pass))
                    .expect("the replay made this pass");
            }
        }
        Ok(game)
    }

    /// The game of a GGF [`Game`], which must start from the standard position: passes
    /// dropped, `PC` as the event, the result as Black's discs if `RE` is a whole, even margin.
    pub fn from_game(game: &Game) -> Result<GameRecord, ErrorKind> {
        if game.start() != Position::start() {
            return Err(ErrorKind::NotStandardStart);
        }
        let moves = game
            .moves()
            .iter()
            .filter_map(|m| match m.mv {
                Move::Place(sq) => Some(sq),
                Move::Pass => None,
            })
            .collect();
        let black_discs = match game.result {
            GameResult::Finished { black_margin, .. }
                if black_margin.fract() == 0.0 && black_margin as i32 % 2 == 0 =>
            {
                Some(((64.0 + black_margin) / 2.0) as u8)
            }
            _ => None,
        };
        Ok(GameRecord {
            moves,
            black: game.black_name.clone(),
            white: game.white_name.clone(),
            event: game.place.clone(),
            date: game.date.clone(),
            black_discs,
            theoretical: None,
            wthor: None,
        })
    }
}

/// Black's final score in `pos`, empties to the winner.
pub(crate) fn black_score(pos: &Position) -> i32 {
    match pos.side {
        Color::Black => pos.board.final_score(),
        Color::White => -pos.board.final_score(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(text: &str) -> Vec<Square> {
        text.as_bytes()
            .chunks(2)
            .map(|c| std::str::from_utf8(c).unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn replay_gives_a_position_before_each_move_and_the_last() {
        let g = GameRecord::from_moves(squares("f5d6c3"));
        let p = g.replay().unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[0], Position::start());
        assert_eq!(p[1].side, Color::White);
        assert_eq!(p[3].side, Color::White);
        assert_eq!(p[3].board.empty_count(), 57);
    }

    #[test]
    fn illegal_moves_name_their_ply() {
        let g = GameRecord::from_moves(squares("f5d6a1"));
        let e = g.replay().unwrap_err();
        assert_eq!(e.ply, 3);
        assert_eq!(e.square, Square::A1);
        assert_eq!(e.to_string(), "illegal move a1 at ply 3: a1 flips no disc");
        let g = GameRecord::from_moves(squares("f5f5"));
        assert_eq!(g.final_score().unwrap_err().ply, 2);
    }

    #[test]
    fn a_wipe_out_ends_the_game_and_scores_64() {
        // The shortest game: Black wipes White out in 9 moves.
        let g = GameRecord::from_moves(squares("d3c3b3d2e1d6d7e3f4"));
        let last = g.final_position().unwrap();
        assert!(last.board.is_game_over());
        assert_eq!(g.final_score(), Ok(64));
        assert_eq!(g.final_black_discs(), Ok(64));
        let mut more = g.clone();
        more.moves.push(Square::A1);
        let e = more.replay().unwrap_err();
        assert_eq!((e.ply, e.reason), (10, ReplayProblem::GameOver));
    }

    #[test]
    fn ggf_conversion_makes_passes_explicit_and_back() {
        let mut g = GameRecord::from_moves(squares("f5d6c3d3c4f4f6f3e6e7"));
        g.black = "a".into();
        g.white = "b".into();
        g.event = "club".into();
        g.date = "1999".into();
        g.black_discs = Some(40);
        let game = g.to_game().unwrap();
        assert_eq!(game.black_name, "a");
        assert_eq!(
            game.result,
            GameResult::Finished {
                black_margin: 16.0,
                end: GameEnd::Normal
            }
        );
        let back = GameRecord::from_game(&game.to_string().parse().unwrap()).unwrap();
        assert_eq!(back, g);
        assert_eq!(g.year(), Some(1999));
        let other = Game::new(Position::start().try_play(Move::Place(Square::F5)).unwrap());
        assert!(matches!(
            GameRecord::from_game(&other),
            Err(ErrorKind::NotStandardStart)
        ));
    }
}
