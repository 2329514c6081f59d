//! Commands: one input line parses into one typed [`Command`] (`FromStr`), or into a
//! [`CommandError`] that says what is wrong in a single line.
//!
//! Grammar: the first whitespace-separated word is the command (matched case-insensitively),
//! the rest its arguments. `set game` and `setboard` take the rest of the line; every other
//! command takes a fixed number of words, and extra words are an error.

use std::str::FromStr;

use thiserror::Error;

use crate::board::{ParseBoardError, Position};
use crate::book::BookChoice;
use crate::discs::CentiDiscs;
use crate::engine::Level;
use crate::game::{clip, Game, GgfError, MoveRecord, ParseMoveRecordError};
use crate::search::SelectivitySetting;
use crate::weights::EvalChoice;

/// One line of input, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard <version>`: the GUI's greeting; any integer version is accepted.
    NBoard(i64),
    /// `set depth <n>`: the deepest midgame search, n >= 1.
    SetDepth(u32),
    /// Extension `set level <n>`: play at level n, 1 to 60 ([`crate::engine::level`]).
    SetLevel(Level),
    /// `set game <GGF>`: replace the game; the position of interest is its end.
    SetGame(Box<Game>),
    /// `set contempt <centi-discs>`: the value of a draw for Black.
    SetContempt(i32),
    /// `move <mv>[/<eval>[/<seconds>]]`: append one move to the game.
    Move(MoveRecord),
    /// `hint <k>`: analyse the position, reporting the best `k` moves.
    Hint(u32),
    /// `go`: choose a move for the side to move.
    Go,
    /// `ping <n>`: answer `pong <n>` once everything before it is done.
    Ping(i64),
    /// `learn`: learn the finished game (answered `learned`).
    Learn,
    /// `analyze`: evaluate every position of the game.
    Analyze,
    /// `quit`: exit.
    Quit,
    /// Extension `set threads <n>`: search threads.
    SetThreads(u32),
    /// Extension `set hash <MiB>`: resize the transposition table.
    SetHash(u64),
    /// Extension `set eval <path|default|hand>`: search with other evaluation weights.
    SetEval(EvalChoice),
    /// Extension `set selectivity <73|87|95|98|99|100>`: midgame forward pruning (100: none).
    SetSelectivity(SelectivitySetting),
    /// Extension `set ponder on|off`: think on the opponent's time.
    SetPonder(bool),
    /// Extension `set book <on|off|default|path>`: the opening book (`on` = the embedded one).
    SetBook(BookChoice),
    /// Extension `set bookrandomness <discs>`: play uniformly among the book moves within
    /// this many discs of the best (0: always the best).
    SetBookRandomness(u32),
    /// Extension `setboard <board string>`: a new game from this position.
    SetBoard(Position),
    /// Extension `print`: show the board.
    Print,
    /// Extension `perft <depth>`: count the leaves below the current position.
    Perft(u32),
    /// Extension `eval`: the static evaluation of the current position.
    Eval,
    /// Extension `help`: list the commands.
    Help,
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command {0:?} (try help)")]
    Unknown(String),
    /// `set` with a variable we do not have.
    #[error(
        "unknown variable {0:?} for set (depth, level, game, contempt, threads, hash, ponder, \
         selectivity, eval, book, bookrandomness)"
    )]
    UnknownVariable(String),
    /// An argument is missing.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// More arguments than the command takes.
    #[error("{command}: unexpected {found:?}")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The first extra word.
        found: String,
    },
    /// A number argument that is not a number, or out of range.
    #[error("{command}: {found:?} is not {expected}")]
    BadNumber {
        /// The command.
        command: &'static str,
        /// The argument.
        found: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A malformed `move`.
    #[error("move: {0}")]
    BadMove(ParseMoveRecordError),
    /// A malformed or illegal `set game`.
    #[error("set game: {0}")]
    BadGame(GgfError),
    /// A malformed `setboard`.
    #[error("setboard: {0}")]
    BadBoard(ParseBoardError),
}

/// Splits off the first whitespace-delimited word.
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim_start()),
        None => (s, ""),
    }
}

/// The argument words of a command, consumed one by one.
struct Args<'a> {
    command: &'static str,
    rest: &'a str,
}

impl<'a> Args<'a> {
    fn word(&mut self, what: &'static str) -> Result<&'a str, CommandError> {
        let (w, rest) = split_word(self.rest);
        self.rest = rest;
        if w.is_empty() {
            Err(CommandError::Missing {
                command: self.command,
                what,
            })
        } else {
            Ok(w)
        }
    }

    fn number<T: FromStr>(
        &mut self,
        what: &'static str,
        valid: impl Fn(&T) -> bool,
        expected: &'static str,
    ) -> Result<T, CommandError> {
        let w = self.word(what)?;
        w.parse::<T>()
            .ok()
            .filter(valid)
            .ok_or_else(|| CommandError::BadNumber {
                command: self.command,
                found: clip(w),
                expected,
            })
    }

    /// The rest of the line, which must be non-empty.
    fn rest_of_line(&mut self, what: &'static str) -> Result<&'a str, CommandError> {
        let rest = std::mem::take(&mut self.rest).trim();
        if rest.is_empty() {
            return Err(CommandError::Missing {
                command: self.command,
                what,
            });
        }
        Ok(rest)
    }

    fn end<T>(self, value: T) -> Result<T, CommandError> {
        let (w, _) = split_word(self.rest);
        if w.is_empty() {
            Ok(value)
        } else {
            Err(CommandError::Unexpected {
                command: self.command,
                found: clip(w),
            })
        }
    }
}

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let (word, rest) = split_word(line);
        let word = word.to_ascii_lowercase();
        let args = |command| Args { command, rest };
        let positive = |n: &u32| *n >= 1;
        match word.as_str() {
            "nboard" => {
                let mut a = args("nboard");
                let v = a.number("version", |_: &i64| true, "an integer version")?;
                a.end(Command::NBoard(v))
            }
            "move" => {
                let mut a = args("move");
                let record = a.word("the move")?.parse().map_err(CommandError::BadMove)?;
                a.end(Command::Move(record))
            }
            "hint" => {
                let mut a = args("hint");
                let k = a.number("the number of moves", positive, "a count >= 1")?;
                a.end(Command::Hint(k))
            }
            "go" => args("go").end(Command::Go),
            "ping" => {
                let mut a = args("ping");
                let n = a.number("the ping number", |_: &i64| true, "an integer")?;
                a.end(Command::Ping(n))
            }
            "learn" => args("learn").end(Command::Learn),
            "analyze" => args("analyze").end(Command::Analyze),
            "quit" => args("quit").end(Command::Quit),
            "print" => args("print").end(Command::Print),
            "eval" => args("eval").end(Command::Eval),
            "help" => args("help").end(Command::Help),
            "perft" => {
                let mut a = args("perft");
                let d = a.number(
                    "the depth",
                    |d: &u32| (1..=60).contains(d),
                    "a depth 1..=60",
                )?;
                a.end(Command::Perft(d))
            }
            "setboard" => {
                let mut a = args("setboard");
                let text = a.rest_of_line("the board string")?;
                text.parse()
                    .map(Command::SetBoard)
                    .map_err(CommandError::BadBoard)
            }
            "set" => {
                let (variable, rest) = split_word(rest);
                let args = |command| Args { command, rest };
                match variable.to_ascii_lowercase().as_str() {
                    "" => Err(CommandError::Missing {
                        command: "set",
                        what: "the variable",
                    }),
                    "depth" => {
                        let mut a = args("set depth");
                        let d = a.number("the depth", positive, "a depth >= 1")?;
                        a.end(Command::SetDepth(d))
                    }
                    "level" => {
                        let mut a = args("set level");
                        let level =
                            a.number("the level", |_: &Level| true, "a level from 1 to 60")?;
                        a.end(Command::SetLevel(level))
                    }
                    "game" => {
                        let text = args("set game").rest_of_line("the game")?;
                        text.parse::<Game>()
                            .map(|g| Command::SetGame(Box::new(g)))
                            .map_err(CommandError::BadGame)
                    }
                    "contempt" => {
                        let mut a = args("set contempt");
                        let c = a.number("the contempt", |_: &i32| true, "an integer")?;
                        a.end(Command::SetContempt(c))
                    }
                    "threads" => {
                        let mut a = args("set threads");
                        let n = a.number("the thread count", |_: &u32| true, "a count")?;
                        a.end(Command::SetThreads(n))
                    }
                    "hash" => {
                        let mut a = args("set hash");
                        let mb = a.number("the size in MiB", |n: &u64| *n >= 1, "a size >= 1")?;
                        a.end(Command::SetHash(mb))
                    }
                    "ponder" => {
                        let mut a = args("set ponder");
                        let on = a.number("on or off", |_: &OnOff| true, "on or off")?;
                        a.end(Command::SetPonder(on.0))
                    }
                    "selectivity" => {
                        let mut a = args("set selectivity");
                        let setting = a.number(
                            "the selectivity",
                            |_: &SelectivitySetting| true,
                            "58, 73, 87, 95, 98, 99 or 100 (percent)",
                        )?;
                        a.end(Command::SetSelectivity(setting))
                    }
                    "book" => {
                        let text =
                            args("set book").rest_of_line("on, off, default or a book file")?;
                        let Ok(choice) = text.parse::<BookChoice>();
                        Ok(Command::SetBook(choice))
                    }
                    "bookrandomness" | "book-randomness" => {
                        let mut a = args("set bookrandomness");
                        let d = a.number(
                            "the randomness in discs",
                            |d: &f64| d.is_finite() && (0.0..=64.0).contains(d),
                            "discs from 0 to 64",
                        )?;
                        // Checked non-negative: the centi-discs fit a u32.
                        let centi = CentiDiscs::from_discs(d).0 as u32;
                        a.end(Command::SetBookRandomness(centi))
                    }
                    "eval" => {
                        let text =
                            args("set eval").rest_of_line("a weight file, default or hand")?;
                        let Ok(choice) = text.parse::<EvalChoice>();
                        Ok(Command::SetEval(choice))
                    }
                    _ => Err(CommandError::UnknownVariable(clip(variable))),
                }
            }
            _ => Err(CommandError::Unknown(clip(&word))),
        }
    }
}

/// `on` or `off` (also `yes`/`no`, `true`/`false`, `1`/`0`), for `set ponder`.
struct OnOff(bool);

impl FromStr for OnOff {
    type Err = ();

    fn from_str(s: &str) -> Result<OnOff, ()> {
        match s.to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" | "1" => Ok(OnOff(true)),
            "off" | "no" | "false" | "0" => Ok(OnOff(false)),
            _ => Err(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::square::Square;

    fn parse(s: &str) -> Result<Command, CommandError> {
        s.parse()
    }

    #[test]
    fn nboard_commands() {
        assert_eq!(parse("nboard 2"), Ok(Command::NBoard(2)));
        assert_eq!(parse("nboard 1"), Ok(Command::NBoard(1)));
        assert_eq!(parse("set depth 12"), Ok(Command::SetDepth(12)));
        assert_eq!(
            parse("set level 12"),
            Ok(Command::SetLevel(Level::new(12).unwrap()))
        );
        for bad in ["set level 0", "set level 61", "set level x", "set level"] {
            let err = parse(bad).unwrap_err().to_string();
            assert!(err.starts_with("set level: "), "{bad}: {err}");
        }
        assert_eq!(parse("set contempt -100"), Ok(Command::SetContempt(-100)));
        assert_eq!(parse("ping 7"), Ok(Command::Ping(7)));
        assert_eq!(parse("  go  "), Ok(Command::Go));
        assert_eq!(parse("hint 4"), Ok(Command::Hint(4)));
        assert_eq!(parse("learn"), Ok(Command::Learn));
        assert_eq!(parse("analyze"), Ok(Command::Analyze));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        let Ok(Command::SetGame(g)) = parse("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)") else {
            panic!("set game")
        };
        assert_eq!(g.moves().len(), 1);
    }

    #[test]
    fn moves_in_every_form() {
        let mv = |s: &str| match parse(s) {
            Ok(Command::Move(r)) => r,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(mv("move F5").mv, Move::Place(Square::F5));
        assert_eq!(mv("move f5").mv, Move::Place(Square::F5));
        assert_eq!(mv("move PA").mv, Move::Pass);
        assert_eq!(mv("move pa").mv, Move::Pass);
        assert_eq!(mv("move F5/1.00").eval, Some(1.0));
        assert_eq!(mv("move F5/1.00/2.5").seconds, Some(2.5));
        assert_eq!(mv("move F5//2.5").seconds, Some(2.5));
        assert_eq!(mv("MOVE d3").mv, Move::Place(Square::D3));
    }

    #[test]
    fn extensions() {
        assert_eq!(parse("set threads 1"), Ok(Command::SetThreads(1)));
        assert_eq!(parse("set ponder on"), Ok(Command::SetPonder(true)));
        assert_eq!(parse("set ponder OFF"), Ok(Command::SetPonder(false)));
        assert!(parse("set ponder maybe").is_err());
        assert_eq!(parse("set hash 16"), Ok(Command::SetHash(16)));
        assert_eq!(
            parse("set selectivity 95"),
            Ok(Command::SetSelectivity(SelectivitySetting(Some(
                crate::search::Selectivity::P95
            ))))
        );
        assert_eq!(
            parse("set selectivity 100"),
            Ok(Command::SetSelectivity(SelectivitySetting(None)))
        );
        assert!(parse("set selectivity 50").is_err());
        assert!(parse("set selectivity").is_err());
        assert!(parse("set selectivity 95 1").is_err());
        assert_eq!(
            parse("set eval hand"),
            Ok(Command::SetEval(EvalChoice::Hand))
        );
        assert_eq!(
            parse("set eval weights/my file.bin"),
            Ok(Command::SetEval(EvalChoice::File(
                "weights/my file.bin".into()
            )))
        );
        assert!(parse("set eval").is_err());
        assert_eq!(parse("perft 5"), Ok(Command::Perft(5)));
        assert_eq!(parse("print"), Ok(Command::Print));
        assert_eq!(parse("eval"), Ok(Command::Eval));
        assert_eq!(parse("help"), Ok(Command::Help));
        assert_eq!(
            parse("setboard ---------------------------OX------XO--------------------------- X"),
            Ok(Command::SetBoard(Position::start()))
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse("frobnicate 3"),
            Err(CommandError::Unknown("frobnicate".into()))
        );
        assert!(matches!(
            parse("ping"),
            Err(CommandError::Missing {
                command: "ping",
                ..
            })
        ));
        assert!(matches!(
            parse("ping x"),
            Err(CommandError::BadNumber {
                command: "ping",
                ..
            })
        ));
        assert!(matches!(
            parse("hint 0"),
            Err(CommandError::BadNumber { .. })
        ));
        assert!(matches!(
            parse("set depth -1"),
            Err(CommandError::BadNumber { .. })
        ));
        assert!(matches!(
            parse("go now"),
            Err(CommandError::Unexpected { command: "go", .. })
        ));
        assert!(matches!(parse("move"), Err(CommandError::Missing { .. })));
        assert!(matches!(parse("move Z9"), Err(CommandError::BadMove(_))));
        assert!(matches!(
            parse("move F5 D6"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(matches!(
            parse("set game (;"),
            Err(CommandError::BadGame(_))
        ));
        assert!(matches!(
            parse("set game"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("set colour red"),
            Err(CommandError::UnknownVariable(_))
        ));
        assert!(matches!(parse("set"), Err(CommandError::Missing { .. })));
        assert!(matches!(
            parse("setboard XO"),
            Err(CommandError::BadBoard(_))
        ));
        assert!(matches!(
            parse("perft 99"),
            Err(CommandError::BadNumber { .. })
        ));
        assert_eq!(parse(""), Err(CommandError::Unknown(String::new())));
        let long = "x".repeat(1000);
        let msg = parse(&long).unwrap_err().to_string();
        assert!(msg.len() < 100, "{msg}");
    }
}
