//! Responses: every line the engine prints is a [`Response`], formatted by its `Display`.
//!
//! Formatting rules the GUI depends on: one line per response (control characters in free
//! text become spaces), evaluations in discs with exactly two decimals and seconds with three
//! (Rust never writes an exponent with `{:.N}`, and NaN cannot occur: values are integers
//! underneath), principal variations as one token (`F5-D6-C3`), and `set myname` with a single
//! word. Extension output starts with `# `, which no NBoard response does.

use std::fmt;
use std::io::{self, Write};

use crate::board::Move;
use crate::search::{Selectivity, Value};
use crate::text::one_line;

/// The depth field of a `search` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// A midgame search this many plies deep, full width.
    Plies(u32),
    /// A midgame search this many plies deep with forward pruning at this level: `14@73`.
    /// (No `%`: NBoard shows any depth containing `%` as a probable solve.)
    Selective(u32, Selectivity),
    /// A search to the end of the game (this many empties) with forward pruning at this
    /// level: `24@73%`, Edax's notation, which NBoard shows as a probable solve.
    Probable(u32, Selectivity),
    /// An exact endgame solve: `100%`.
    Exact,
    /// A win/loss/draw solve: `100%W`.
    Wld,
}

impl Depth {
    /// The depth field for a search value: solves are `100%`/`100%W`, heuristics `plies`, or
    /// `plies@percent` when the search pruned at `selectivity`.
    pub fn of(value: Value, plies: u32, selectivity: Option<Selectivity>) -> Depth {
        match (value, selectivity) {
            (Value::Heuristic(_), None) => Depth::Plies(plies),
            (Value::Heuristic(_), Some(s)) => Depth::Selective(plies, s),
            (Value::Exact(_), _) => Depth::Exact,
            (Value::Wld(_), _) => Depth::Wld,
            (Value::Probable(_), Some(s)) => Depth::Probable(plies, s),
            (Value::Probable(_), None) => Depth::Exact,
        }
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Plies(n) => write!(f, "{n}"),
            Depth::Selective(n, s) => write!(f, "{n}@{}", s.percent()),
            Depth::Probable(n, s) => write!(f, "{n}@{}%", s.percent()),
            Depth::Exact => f.write_str("100%"),
            Depth::Wld => f.write_str("100%W"),
        }
    }
}

/// One line of engine output.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// `pong <n>`: everything asked before `ping <n>` is done.
    Pong(i64),
    /// `status <text>`: shown in the GUI's status bar; empty text clears it.
    Status(String),
    /// `set myname <name>`: the engine's name (one word).
    MyName(String),
    /// `=== <move>[/<eval>[/<seconds>]]`: the move chosen after `go`.
    BestMove {
        /// The move (`PA` for a pass).
        mv: Move,
        /// Its value in discs for the mover, if known.
        eval: Option<f64>,
        /// Seconds spent, if measured.
        seconds: Option<f64>,
    },
    /// `search <pv> <eval> 0 <depth>`: one hint line.
    Search {
        /// The principal variation, starting with the move it rates.
        pv: Vec<Move>,
        /// Value in discs for the side to move.
        eval: f64,
        /// How deep, or what kind of solve.
        depth: Depth,
    },
    /// `book <move> <eval> <games> <depth>`: one hint line from the opening book.
    Book {
        /// The book move.
        mv: Move,
        /// Its value in discs for the side to move.
        eval: f64,
        /// Games of the book that played it (kept below 2^31, as NBoard parses an int).
        games: u32,
        /// The depth of the search behind the value, or `100%` for an exact one.
        depth: Depth,
    },
    /// `nodestats <nodes> <seconds>`: the work of the last search.
    NodeStats {
        /// Nodes searched.
        nodes: u64,
        /// Seconds spent.
        seconds: f64,
    },
    /// `analysis <moves made> <eval>`: one position of an `analyze`.
    Analysis {
        /// Moves made to reach the position (passes count).
        moves_made: usize,
        /// Value in discs for the side to move there.
        eval: f64,
    },
    /// `learned`: the answer to `learn`.
    Learned,
    /// `# <text>`: output of an extension command.
    Comment(String),
}

/// `x` with two decimals, never `-0.00`, never an exponent or NaN.
pub fn discs(x: f64) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    format!("{:.2}", (x * 100.0).round() / 100.0 + 0.0)
}

/// Seconds with three decimals, never negative, never an exponent.
pub fn seconds(x: f64) -> String {
    format!("{:.3}", if x.is_finite() { x.max(0.0) } else { 0.0 })
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Pong(n) => write!(f, "pong {n}"),
            Response::Status(text) if text.trim().is_empty() => f.write_str("status"),
            Response::Status(text) => write!(f, "status {}", one_line(text.trim())),
            Response::MyName(name) => {
                let name = one_line(name);
                let word = name.split_whitespace().next().unwrap_or("othello");
                write!(f, "set myname {word}")
            }
            Response::BestMove {
                mv,
                eval,
                seconds: time,
            } => {
                write!(f, "=== {mv:#}")?;
                match (eval, time) {
                    (None, None) => Ok(()),
                    (Some(e), None) => write!(f, "/{}", discs(*e)),
                    (None, Some(t)) => write!(f, "//{}", seconds(*t)),
                    (Some(e), Some(t)) => write!(f, "/{}/{}", discs(*e), seconds(*t)),
                }
            }
            Response::Search { pv, eval, depth } => {
                f.write_str("search ")?;
                if pv.is_empty() {
                    f.write_str("PA")?;
                }
                for (i, mv) in pv.iter().enumerate() {
                    if i > 0 {
                        f.write_str("-")?;
                    }
                    write!(f, "{mv:#}")?;
                }
                write!(f, " {} 0 {depth}", discs(*eval))
            }
            Response::Book {
                mv,
                eval,
                games,
                depth,
            } => write!(
                f,
                "book {mv:#} {} {} {depth}",
                discs(*eval),
                (*games).min(i32::MAX as u32)
            ),
            Response::NodeStats { nodes, seconds: s } => {
                write!(f, "nodestats {nodes} {}", seconds(*s))
            }
            Response::Analysis { moves_made, eval } => {
                write!(f, "analysis {moves_made} {}", discs(*eval))
            }
            Response::Learned => f.write_str("learned"),
            Response::Comment(text) if text.is_empty() => f.write_str("#"),
            Response::Comment(text) => write!(f, "# {}", one_line(text)),
        }
    }
}

/// Writes responses, one line each, flushing after every line (a GUI waits on pipes).
pub struct Responder<W> {
    out: W,
}

impl<W: Write> Responder<W> {
    /// A responder writing to `out`.
    pub fn new(out: W) -> Responder<W> {
        Responder { out }
    }

    /// Writes `response` and flushes.
    pub fn send(&mut self, response: Response) -> io::Result<()> {
        log::debug!("> {response}");
        writeln!(self.out, "{response}")?;
        self.out.flush()
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    #[test]
    fn lines_the_gui_parses() {
        let f5 = Move::Place(Square::F5);
        let d6 = Move::Place(Square::D6);
        let show = |r: Response| r.to_string();
        assert_eq!(show(Response::Pong(3)), "pong 3");
        assert_eq!(show(Response::Status(String::new())), "status");
        assert_eq!(show(Response::Status("a\nb".into())), "status a b");
        assert_eq!(
            show(Response::MyName("othello 12".into())),
            "set myname othello"
        );
        let best = |eval, seconds| Response::BestMove {
            mv: f5,
            eval,
            seconds,
        };
        assert_eq!(show(best(Some(-1.5), Some(0.25))), "=== F5/-1.50/0.250");
        assert_eq!(show(best(None, Some(2.0))), "=== F5//2.000");
        assert_eq!(
            show(Response::BestMove {
                mv: Move::Pass,
                eval: None,
                seconds: None
            }),
            "=== PA"
        );
        assert_eq!(
            show(Response::Search {
                pv: vec![f5, d6, Move::Pass],
                eval: 0.5,
                depth: Depth::Plies(7)
            }),
            "search F5-D6-PA 0.50 0 7"
        );
        let sel = crate::search::Selectivity::P73;
        assert_eq!(
            show(Response::Search {
                pv: vec![f5],
                eval: 0.5,
                depth: Depth::of(crate::search::Value::Heuristic(50), 14, Some(sel))
            }),
            "search F5 0.50 0 14@73"
        );
        // A probable solve shows its level with `%`, as Edax writes it: NBoard reads it as a
        // probable solve.
        assert_eq!(
            show(Response::Search {
                pv: vec![f5],
                eval: 4.0,
                depth: Depth::of(crate::search::Value::Probable(4), 24, Some(sel))
            }),
            "search F5 4.00 0 24@73%"
        );
        // A solve shows as a solve whatever the midgame selectivity.
        assert_eq!(
            Depth::of(crate::search::Value::Exact(2), 20, Some(sel)),
            Depth::Exact
        );
        assert_eq!(
            show(Response::Search {
                pv: vec![f5],
                eval: -4.0,
                depth: Depth::Exact
            }),
            "search F5 -4.00 0 100%"
        );
        assert_eq!(
            show(Response::Search {
                pv: vec![f5],
                eval: 1.0,
                depth: Depth::Wld
            }),
            "search F5 1.00 0 100%W"
        );
        assert_eq!(
            show(Response::NodeStats {
                nodes: 12345,
                seconds: 1e-7
            }),
            "nodestats 12345 0.000"
        );
        assert_eq!(
            show(Response::Analysis {
                moves_made: 61,
                eval: -0.0
            }),
            "analysis 61 0.00"
        );
        assert_eq!(show(Response::Learned), "learned");
        assert_eq!(show(Response::Comment("x\ry".into())), "# x y");
    }

    #[test]
    fn numbers_never_use_exponents() {
        for x in [1e-9, -1e-9, 1e20, f64::NAN, f64::INFINITY, -0.004] {
            let d = discs(x);
            let s = seconds(x);
            assert!(!d.contains(['e', 'E', 'N', 'i']) && d != "-0.00", "{d}");
            assert!(
                !s.contains(['e', 'E', 'N', 'i']) && !s.starts_with('-'),
                "{s}"
            );
        }
    }
}
