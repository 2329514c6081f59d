//! Terminal play: a person against any player, through the arena's referee.
//!
//! The person is a [`Player`] like any other ([`human::Human`], reading the terminal), and the
//! game runs one turn at a time under [`Referee`], the same rules as a match: the flag check,
//! the forfeits, the move record with times and evaluations. This loop only shows the board
//! before every move ([`board`]), says what the opponent played, and carries out the person's
//! requests between turns: `undo` (back to the person's previous turn), `redo`, `go` (the
//! opponent plays the person's move), `swap` (sides change), `new` (another game; the session's
//! games are saved together), `quit`; a `level N` typed at the prompt is given to the opponent
//! before its next move. The commands are in [`command`]; the game starts where [`start`]
//! says (a resumed GGF game with its move times, so its clocks go on).
//!
//! At the end the result is shown and the game is saved as one GGF line; the path is printed.
//! Unless the person quit, the loop then offers `review`: the game judged move by move.

pub mod assist;
pub mod board;
pub mod command;
pub mod human;
pub mod record;
pub mod start;

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use othello::arena::referee::{Clocks, GameSetup, Opening, Referee, Termination, Turned};
use othello::board::Color;
use othello::clock::TimeControl;
use othello::eval::EngineEval;
use othello::game::{Game, MoveRecord};
use othello::players::Player;
use othello::review::{Effort, ReviewOptions};

use assist::{AssistOptions, Assistant};
use board::{write_board, Style};
use human::{Human, Request};

/// The depth of `analyse` and of the review after the game: less than `othello review`'s
/// default, so that `analyse` answers within a few seconds.
pub const ANALYSIS_DEPTH: u32 = 12;
/// `analyse` and the review after the game solve exactly from this many empties.
pub const ANALYSIS_EXACT_EMPTIES: u32 = 20;
/// In an untimed game a person may think as long as they like: the referee's move timeout,
/// which declares a silent player hung, is a day.
const PERSON_MOVE_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// How the game is set up.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The person's colour.
    pub human: Color,
    /// The person's name in the record.
    pub human_name: String,
    /// Each side's clock, if timed.
    pub clock: Option<TimeControl>,
    /// Where the game is saved.
    pub ggf_path: PathBuf,
    /// How the helpers (`hint`, `analyse`, review) think.
    pub assist: AssistOptions,
    /// Seeds the players' randomness.
    pub seed: u64,
    /// Where the game starts: a position, and moves already played from it.
    pub opening: Opening,
    /// The board's colours.
    pub style: Style,
    /// Moves to play after the opening as recorded, with their times (a game resumed from a
    /// GGF file keeps its clocks).
    pub resume: Vec<MoveRecord>,
    /// Keep a clock ticking above the prompt (standard output is a terminal).
    pub tick: bool,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            human: Color::Black,
            human_name: "human".to_string(),
            clock: None,
            ggf_path: PathBuf::from("othello-game.ggf"),
            assist: AssistOptions {
                hint_time: Some(Duration::from_secs(1)),
                hint_depth: None,
                eval: EngineEval::default(),
                analysis: ReviewOptions {
                    effort: Effort::Depth(ANALYSIS_DEPTH),
                    exact_empties: ANALYSIS_EXACT_EMPTIES,
                    book: None,
                },
            },
            seed: 1,
            opening: Opening::start(),
            style: Style::default(),
            resume: Vec::new(),
            tick: false,
        }
    }
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayEnd {
    /// Played to the end.
    Finished,
    /// The person resigned.
    Resigned,
    /// The person quit; the game is unfinished.
    Quit,
    /// The referee ended it: a flag fell, or the opponent crashed, hung or played illegally.
    Fault(Termination),
}

/// The finished session.
#[derive(Clone, Debug)]
// The binary only needs to know that the game ended; the tests read the outcome.
#[cfg_attr(not(test), allow(dead_code))]
pub struct PlayOutcome {
    /// The game record as saved.
    pub game: Game,
    /// How it ended.
    pub end: PlayEnd,
    /// Where it was saved.
    pub path: PathBuf,
}

/// Why the session could not go on.
#[derive(Debug, Error)]
pub enum PlayError {
    /// Reading or writing the terminal failed.
    #[error("terminal i/o: {0}")]
    Io(#[from] io::Error),
    /// The game could not be saved.
    #[error("cannot save the game to {path}: {source}")]
    Save {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The opponent could not start.
    #[error("the opponent cannot start: {0}")]
    Opponent(String),
}

/// Plays a game between the person (on `input`/`out`) and `opponent`, then saves it.
pub fn play<R: BufRead + Send, W: Write + Send>(
    input: R,
    out: W,
    opponent: &mut dyn Player,
    options: &PlayOptions,
) -> Result<PlayOutcome, PlayError> {
    // Before the first move: a game that cannot be saved where asked is refused now, not
    // found out after it is played.
    othello::files::check_output(&options.ggf_path, &[]).map_err(|e| PlayError::Save {
        path: options.ggf_path.clone(),
        source: e.source,
    })?;
    let you = options.human;
    let assistant = Assistant::new(options.assist.clone());
    let mut human = Human::new(input, out, &options.human_name, you, assistant);
    let setup = GameSetup {
        opening: options.opening.clone(),
        clocks: Clocks::both(options.clock),
        depth: None,
        move_timeout: PERSON_MOVE_TIMEOUT,
        seed: options.seed,
        place: "othello play".to_string(),
    };
    let names = [options.human_name.as_str(), opponent.name()];
    let (black, white) = if you == Color::Black {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let mut referee = Referee::new(&setup, black, white);
    for record in &options.resume {
        referee
            .replay(std::slice::from_ref(record))
            .map_err(|e| PlayError::Opponent(format!("the game to resume: {e}")))?;
    }
    let started = referee.start(you.opposite(), opponent);
    started.map_err(|t| PlayError::Opponent(t.detail().unwrap_or(t.kind()).to_string()))?;
    // (The person is always ready.)
    let _ = referee.start(you, &mut human);
    human.set_ticking(options.tick);
    human.set_style(options.style);
    writeln!(
        human.out(),
        "Type a square like f5 to move; help lists the commands."
    )?;
    let mut you = you;
    // The games left with `new`, saved with the last one.
    let mut earlier: Vec<Game> = Vec::new();
    // What each undo took back, the last undo last.
    let mut undone: Vec<Vec<MoveRecord>> = Vec::new();
    let end = loop {
        let position = referee.game().position();
        if position.board.is_game_over() {
            break PlayEnd::Finished;
        }
        write_board(human.out(), referee.game(), you, true, options.style)?;
        give_level(&mut human, opponent)?;
        if position.side != you {
            match referee.turn(opponent) {
                Turned::Moved(record) => board::announce(human.out(), position.side, &record)?,
                Turned::Over(t) => break PlayEnd::Fault(t),
                Turned::Stopped => {
                    break PlayEnd::Fault(Termination::Crash {
                        loser: position.side,
                        detail: "it stopped without a move".to_string(),
                    })
                }
            }
            continue;
        }
        human.set_can_redo(!undone.is_empty());
        let turned = referee.turn(&mut human);
        match (turned, human.take_request()) {
            (Turned::Moved(_), _) => undone.clear(),
            (_, Some(Request::Resign)) => break PlayEnd::Resigned,
            (_, Some(Request::Failed(e))) => return Err(e.into()),
            (_, Some(Request::Undo)) => {
                let keep = human::undo_point(referee.game(), you).unwrap_or(0);
                let count = referee.game().moves().len() - keep;
                undone.push(referee.take_back(count));
                writeln!(human.out(), "  undone: back to your move")?;
            }
            (_, Some(Request::Redo)) => {
                let records = undone.pop().unwrap_or_default();
                match referee.replay(&records) {
                    Ok(()) => writeln!(human.out(), "  redone: {}", moves_text(&records))?,
                    Err(e) => writeln!(human.out(), "  cannot redo: {e}")?,
                }
            }
            // The opponent plays the person's move (the person's clock runs).
            (_, Some(Request::Go)) => {
                give_level(&mut human, opponent)?;
                match referee.turn(opponent) {
                    Turned::Moved(record) => {
                        undone.clear();
                        board::announce(human.out(), position.side, &record)?;
                    }
                    Turned::Over(t) => break PlayEnd::Fault(t),
                    Turned::Stopped => writeln!(human.out(), "  go: the engine gave no move")?,
                }
            }
            (_, Some(Request::Swap)) => {
                you = you.opposite();
                human.set_color(you);
                writeln!(
                    human.out(),
                    "  you now play {}; {} plays {}",
                    board::colour_name(you),
                    opponent.name(),
                    board::colour_name(you.opposite())
                )?;
            }
            (_, Some(Request::New)) => {
                // This game is kept (unfinished) and saved; the next starts at the start.
                let fresh = GameSetup {
                    opening: Opening::start(),
                    ..setup.clone()
                };
                let (black, white) = match you {
                    Color::Black => (options.human_name.as_str(), opponent.name()),
                    Color::White => (opponent.name(), options.human_name.as_str()),
                };
                let next = Referee::new(&fresh, black, white);
                let mut game = std::mem::replace(&mut referee, next).into_game();
                game.result = record::result(&game, &PlayEnd::Quit, you);
                earlier.push(game);
                record::save(human.out(), &earlier, &options.ggf_path)?;
                undone.clear();
                let started = referee.start(you.opposite(), opponent);
                if let Err(t) = started {
                    break PlayEnd::Fault(t);
                }
                let _ = referee.start(you, &mut human);
                writeln!(
                    human.out(),
                    "  a new game: you play {}",
                    board::colour_name(you)
                )?;
            }
            (Turned::Over(t), None) => break PlayEnd::Fault(t),
            (Turned::Stopped, _) | (_, Some(Request::Quit)) => break PlayEnd::Quit,
        }
    };
    let mut game = referee.into_game();
    game.result = record::result(&game, &end, you);
    write_board(human.out(), &game, you, false, options.style)?;
    let verdict = record::verdict(&game, &end, you);
    writeln!(human.out(), "{verdict}")?;
    earlier.push(game);
    record::save(human.out(), &earlier, &options.ggf_path)?;
    let game = earlier.pop().expect("the last game");
    if end != PlayEnd::Quit && !game.moves().is_empty() {
        human.offer_review(&game)?;
    }
    Ok(PlayOutcome {
        game,
        end,
        path: options.ggf_path.clone(),
    })
}

/// Gives the opponent the level the person asked for at the prompt (`level N`), which holds
/// from its next move; a player without levels says why.
fn give_level<R: BufRead + Send, W: Write + Send>(
    human: &mut Human<R, W>,
    opponent: &mut dyn Player,
) -> io::Result<()> {
    if let Some(level) = human.take_level() {
        if let Err(e) = opponent.set_level(level) {
            writeln!(human.out(), "  level: {e}")?;
        }
    }
    Ok(())
}

/// `f5 d6 c3`, passes as `PA`.
fn moves_text(records: &[MoveRecord]) -> String {
    let moves: Vec<String> = records.iter().map(|r| r.mv.to_string()).collect();
    moves.join(" ")
}

#[cfg(test)]
mod tests;
