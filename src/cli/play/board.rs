//! The board as `othello play` shows it, PAIP's `print-board` in the program's letters: column
//! letters, row numbers, `X` Black and `O` White (as in board strings and everywhere else), the
//! legal moves of the side to move marked `+`, the last disc played in brackets (`[X]`), both
//! disc counts and their difference, and each side's clock; and what the opponent played
//! ([`announce`]).
//!
//! On a terminal the discs, the legal moves and the last move are coloured too ([`Style`]);
//! the brackets stay, so the board reads the same without colour. Colour is off when the
//! environment variable `NO_COLOR` is set (not empty; <https://no-color.org>) or standard
//! output is not a terminal, unless `CLICOLOR_FORCE` (not empty, not `0`) asks for it;
//! `NO_COLOR` wins over it.

use std::ffi::OsStr;
use std::io::{self, Write};

use othello::board::{Color, Move};
use othello::game::{Game, MoveRecord};
use othello::square::Square;

/// Whether the board is drawn with colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours on the discs, the legal moves and the last move.
    pub colour: bool,
}

/// Whether to colour: `terminal` is whether standard output is one; `no_color` and `force` are
/// the values of `NO_COLOR` and `CLICOLOR_FORCE`, if set.
pub fn use_colour(terminal: bool, no_color: Option<&OsStr>, force: Option<&OsStr>) -> bool {
    if no_color.is_some_and(|v| !v.is_empty()) {
        return false;
    }
    terminal || force.is_some_and(|v| !v.is_empty() && v != "0")
}

impl Style {
    /// The style for this process's standard output and environment ([`use_colour`]).
    pub fn detect() -> Style {
        Style {
            colour: use_colour(
                io::IsTerminal::is_terminal(&io::stdout()),
                std::env::var_os("NO_COLOR").as_deref(),
                std::env::var_os("CLICOLOR_FORCE").as_deref(),
            ),
        }
    }

    /// `text` in the ANSI attributes `sgr` (like `1;31`), or as it is without colour.
    fn paint(self, text: char, sgr: &str) -> String {
        if self.colour {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// Black's discs: bold red.
const BLACK_SGR: &str = "1;31";
/// White's discs: bold cyan.
const WHITE_SGR: &str = "1;36";
/// The legal moves: green.
const LEGAL_SGR: &str = "32";
/// Added to the last disc played: reverse video.
const LAST_SGR: &str = "7";

/// `m:ss` (PAIP's `time-string`), or `-m:ss` below zero.
pub fn clock_string(seconds: f64) -> String {
    let sign = if seconds < 0.0 { "-" } else { "" };
    let s = seconds.abs().round() as u64;
    format!("{sign}{}:{:02}", s / 60, s % 60)
}

/// `Black` or `White`.
pub fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The square of the last disc placed (passes skipped), if any.
fn last_placed(game: &Game) -> Option<Square> {
    game.moves().iter().rev().find_map(|r| match r.mv {
        Move::Place(sq) => Some(sq),
        Move::Pass => None,
    })
}

/// Writes the board (see the module notes) and, if `show_turn`, whose turn it is.
pub fn write_board(
    out: &mut impl Write,
    game: &Game,
    human: Color,
    show_turn: bool,
    style: Style,
) -> io::Result<()> {
    let pos = game.position();
    let (black, white) = pos.black_white();
    let (nb, nw) = (black.count_ones(), white.count_ones());
    let legal = if pos.board.is_game_over() {
        0
    } else {
        pos.board.moves()
    };
    let last = last_placed(game);
    writeln!(
        out,
        "\n    a b c d e f g h   [X={nb} O={nw} ({:+})]",
        nb as i32 - nw as i32
    )?;
    for row in 0..8 {
        write!(out, "  {}", row + 1)?;
        let is_last = |col: usize| last.is_some_and(|sq| sq.index() == row * 8 + col);
        for col in 0..8 {
            let sq = Square::ALL[row * 8 + col];
            let separator = match (is_last(col), col > 0 && is_last(col - 1)) {
                (true, _) => '[',
                (false, true) => ']',
                _ => ' ',
            };
            let mark = if is_last(col) { LAST_SGR } else { "" };
            let cell = if black & sq.bit() != 0 {
                style.paint('X', &join_sgr(mark, BLACK_SGR))
            } else if white & sq.bit() != 0 {
                style.paint('O', &join_sgr(mark, WHITE_SGR))
            } else if legal & sq.bit() != 0 {
                style.paint('+', LEGAL_SGR)
            } else {
                ".".to_string()
            };
            write!(out, "{separator}{cell}")?;
        }
        write!(out, "{}", if is_last(7) { ']' } else { ' ' })?;
        if row == 7 {
            let show = |color: Color| -> String {
                let times = game.move_times(color);
                match game.time_control(color) {
                    Some(tc) => clock_string(tc.shown(&times)),
                    None => format!("{} used", clock_string(times.iter().sum())),
                }
            };
            write!(out, "  [X={} O={}]", show(Color::Black), show(Color::White))?;
        }
        writeln!(out)?;
    }
    if show_turn && !pos.board.is_game_over() {
        let who = if pos.side == human { "you" } else { "opponent" };
        writeln!(
            out,
            "{} ({}, {who}) to move",
            pos.side.letter(),
            colour_name(pos.side)
        )?;
    }
    Ok(())
}

/// Says what the opponent, playing `side`, did: `O moves to f5 (+1.00 discs).`
pub fn announce(out: &mut impl Write, side: Color, record: &MoveRecord) -> io::Result<()> {
    let who = side.letter();
    match (record.mv, record.eval) {
        (Move::Pass, _) => writeln!(out, "{who} passes."),
        (mv, Some(e)) => writeln!(out, "{who} moves to {mv} ({e:+.2} discs)."),
        (mv, None) => writeln!(out, "{who} moves to {mv}."),
    }
}

/// Two SGR attribute lists as one (`7` and `1;31` give `7;1;31`).
fn join_sgr(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a};{b}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::board::Position;

    #[test]
    fn colour_follows_the_terminal_no_color_and_clicolor_force() {
        let some = |s: &'static str| Some(OsStr::new(s));
        assert!(use_colour(true, None, None));
        assert!(!use_colour(false, None, None));
        assert!(!use_colour(true, some("1"), None));
        // An empty NO_COLOR does not count (no-color.org).
        assert!(use_colour(true, some(""), None));
        assert!(use_colour(false, None, some("1")));
        assert!(!use_colour(false, None, some("0")));
        assert!(!use_colour(false, some("1"), some("1")));
    }

    /// The board after f5 d6, drawn in `style`.
    fn drawn(style: Style) -> String {
        let mut game = Game::new(Position::start());
        for mv in ["f5", "d6"] {
            game.push(MoveRecord::new(mv.parse().unwrap())).unwrap();
        }
        let mut out = Vec::new();
        write_board(&mut out, &game, Color::Black, true, style).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_last_move_is_in_brackets_and_colour_only_adds_escapes() {
        let plain = drawn(Style { colour: false });
        assert!(!plain.contains('\x1b'), "{plain}");
        assert!(
            plain.contains("    a b c d e f g h   [X=3 O=3 (+0)]"),
            "{plain}"
        );
        assert!(plain.contains("  5 . . + O X X . . "), "{plain}");
        assert!(plain.contains("  6 . . +[O]. . . . "), "{plain}");
        assert!(plain.contains("X (Black, you) to move"), "{plain}");
        let coloured = drawn(Style { colour: true });
        assert!(coloured.contains("\x1b[7;1;36mO\x1b[0m"), "{coloured}");
        assert!(coloured.contains("\x1b[1;31mX\x1b[0m"), "{coloured}");
        let mut stripped = coloured.clone();
        for code in [
            "\x1b[7;1;36m",
            "\x1b[1;31m",
            "\x1b[1;36m",
            "\x1b[32m",
            "\x1b[0m",
        ] {
            stripped = stripped.replace(code, "");
        }
        assert_eq!(stripped, plain);
    }
}
