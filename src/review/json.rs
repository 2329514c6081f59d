//! The review as JSON (RFC 8259), written by hand: a small writer that places the commas,
//! escapes strings (quotes, backslashes, control characters as `\n` or `\u00XX`; everything
//! else stays UTF-8) and indents the two outer levels, one move per line. The crate has no
//! serde, and one report does not need it.
//!
//! The writer is shared with the audit's report ([`super::audit::to_json`]).
//!
//! The fields are documented in `docs/REVIEW.md`. Values are in discs (numbers with up to two
//! decimals), from the mover's point of view, except `black_value` and `curve`, from Black's.

use super::{centi, color_name, Effort, MoveReview, PlayerStats, Review};
use crate::board::Color;

/// The review as a JSON object, ending with a newline.
pub fn to_json(review: &Review) -> String {
    let mut w = JsonWriter::default();
    let turning = review.turning_points();
    w.begin_object();
    w.key("black");
    w.string(&review.game.black);
    w.key("white");
    w.string(&review.game.white);
    w.key("event");
    w.string(&review.game.event);
    w.key("date");
    w.string(&review.game.date);
    w.key("moves_text");
    w.string(
        &review
            .game
            .moves
            .iter()
            .map(|s| s.to_string())
            .collect::<String>(),
    );
    write_result(&mut w, review);
    w.key("settings");
    w.begin_object();
    w.key("depth");
    match review.options.effort {
        Effort::Depth(d) => w.number(i64::from(d)),
        Effort::Time(_) => w.null(),
    }
    w.key("time_s");
    match review.options.effort {
        Effort::Time(t) => w.float(t.as_secs_f64()),
        Effort::Depth(_) => w.null(),
    }
    w.key("exact_empties");
    w.number(i64::from(review.options.exact_empties));
    w.end_object();
    w.key("elapsed_s");
    w.float(round(review.elapsed.as_secs_f64(), 3));
    w.key("nodes");
    w.number(review.nodes() as i64);
    w.key("moves");
    w.begin_array();
    for (i, m) in review.moves.iter().enumerate() {
        write_move(&mut w, m, turning.contains(&i));
    }
    w.end_array();
    w.key("players");
    w.begin_object();
    for s in review.players() {
        w.key(&color_name(s.color).to_ascii_lowercase());
        write_player(&mut w, review, &s);
    }
    w.end_object();
    w.key("turning_points");
    w.begin_array();
    for i in turning {
        w.number(review.moves[i].number as i64);
    }
    w.end_array();
    w.key("curve");
    w.begin_array();
    for c in review.curve() {
        w.discs(c);
    }
    w.end_array();
    w.end_object();
    w.finish()
}

/// `"result": {...}`: the replayed result, the recorded one and WTHOR's theoretical score.
fn write_result(w: &mut JsonWriter, review: &Review) {
    let (b, wh) = review.final_discs();
    w.key("result");
    w.begin_object();
    w.key("finished");
    w.bool(review.is_finished());
    w.key("black_score");
    w.number(i64::from(review.black_score()));
    w.key("black_discs");
    w.number(i64::from(b));
    w.key("white_discs");
    w.number(i64::from(wh));
    w.key("recorded_black_discs");
    w.optional(review.game.black_discs.map(i64::from));
    w.key("theoretical_black_discs");
    w.optional(review.game.theoretical.map(i64::from));
    w.end_object();
}

/// One move's object.
fn write_move(w: &mut JsonWriter, m: &MoveReview, turning_point: bool) {
    w.begin_object();
    w.key("number");
    w.number(m.number as i64);
    w.key("color");
    w.string(&color_name(m.color()).to_ascii_lowercase());
    w.key("empties");
    w.number(i64::from(m.before.board.empty_count()));
    w.key("played");
    w.string(&m.played.to_string());
    w.key("played_value");
    w.discs(centi(m.played_value));
    w.key("best");
    w.string(&m.best.to_string());
    w.key("best_value");
    w.discs(centi(m.best_value));
    w.key("loss");
    w.discs(m.loss_centi());
    w.key("exact");
    w.bool(m.is_exact());
    w.key("depth");
    w.number(i64::from(m.depth));
    w.key("legal_moves");
    w.number(i64::from(m.legal_moves));
    w.key("pass_after");
    w.bool(m.pass_after);
    w.key("black_value");
    w.discs(m.black_centi());
    w.key("mistake");
    w.bool(m.is_mistake());
    w.key("turning_point");
    w.bool(turning_point);
    w.key("nodes");
    w.number(m.nodes as i64);
    w.key("ms");
    w.float(round(m.elapsed.as_secs_f64() * 1e3, 1));
    w.end_object();
}

/// One player's totals.
fn write_player(w: &mut JsonWriter, review: &Review, s: &PlayerStats) {
    w.begin_object();
    w.key("name");
    w.string(match s.color {
        Color::Black => &review.game.black,
        Color::White => &review.game.white,
    });
    w.key("moves");
    w.number(s.moves as i64);
    w.key("choices");
    w.number(s.choices as i64);
    w.key("best_moves");
    w.number(s.best_moves as i64);
    w.key("best_share");
    w.float(round(s.best_share(), 4));
    w.key("total_loss");
    w.float(s.total_loss());
    w.key("mean_loss");
    w.float(round(s.mean_loss(), 3));
    w.key("mistakes");
    w.number(s.mistakes as i64);
    w.end_object();
}

/// `x` rounded to `decimals` places.
pub(super) fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

/// `s` as a JSON string literal, quotes included.
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An open array or object.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// No element written yet.
    empty: bool,
    /// Elements on their own lines (the outer levels), or on one line.
    multiline: bool,
}

/// Writes one JSON value; the caller opens and closes what it opens.
#[derive(Debug, Default)]
pub(super) struct JsonWriter {
    out: String,
    stack: Vec<Frame>,
    /// A key was just written: its value follows without a separator.
    after_key: bool,
}

/// Containers opened at a nesting depth below this put each element on its own line.
const MULTILINE_DEPTH: usize = 2;

impl JsonWriter {
    /// The separator and indentation before a value or key.
    fn element(&mut self) {
        if std::mem::take(&mut self.after_key) {
            return;
        }
        let depth = self.stack.len();
        let Some(frame) = self.stack.last_mut() else {
            return;
        };
        if !frame.empty {
            self.out.push(',');
        }
        let first = std::mem::replace(&mut frame.empty, false);
        if frame.multiline {
            self.out.push('\n');
            self.out.push_str(&"  ".repeat(depth));
        } else if !first {
            self.out.push(' ');
        }
    }

    fn open(&mut self, bracket: char) {
        self.element();
        self.out.push(bracket);
        self.stack.push(Frame {
            empty: true,
            multiline: self.stack.len() < MULTILINE_DEPTH,
        });
    }

    fn close(&mut self, bracket: char) {
        let frame = self.stack.pop().expect("a container is open");
        if frame.multiline && !frame.empty {
            self.out.push('\n');
            self.out.push_str(&"  ".repeat(self.stack.len()));
        }
        self.out.push(bracket);
    }

    pub(super) fn begin_object(&mut self) {
        self.open('{');
    }

    pub(super) fn end_object(&mut self) {
        self.close('}');
    }

    pub(super) fn begin_array(&mut self) {
        self.open('[');
    }

    pub(super) fn end_array(&mut self) {
        self.close(']');
    }

    pub(super) fn key(&mut self, key: &str) {
        self.element();
        self.out.push_str(&string_literal(key));
        self.out.push_str(": ");
        self.after_key = true;
    }

    fn raw(&mut self, text: &str) {
        self.element();
        self.out.push_str(text);
    }

    pub(super) fn string(&mut self, s: &str) {
        self.raw(&string_literal(s));
    }

    pub(super) fn number(&mut self, n: i64) {
        self.raw(&n.to_string());
    }

    /// A finite float in its shortest form; `null` otherwise (JSON has no NaN).
    pub(super) fn float(&mut self, x: f64) {
        if x.is_finite() {
            self.raw(&format!("{x}"));
        } else {
            self.null();
        }
    }

    /// Centi-discs as discs: `1.5`, `-4`, `0.07`.
    pub(super) fn discs(&mut self, centi: i32) {
        self.float(f64::from(centi) / 100.0);
    }

    pub(super) fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    pub(super) fn null(&mut self) {
        self.raw("null");
    }

    pub(super) fn optional(&mut self, n: Option<i64>) {
        match n {
            Some(n) => self.number(n),
            None => self.null(),
        }
    }

    pub(super) fn finish(mut self) -> String {
        debug_assert!(self.stack.is_empty(), "unclosed JSON containers");
        self.out.push('\n');
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string_literal("plain"), "\"plain\"");
        assert_eq!(
            string_literal("a\"b\\c\nd\te\u{1}f"),
            "\"a\\\"b\\\\c\\nd\\te\\u0001f\""
        );
        assert_eq!(string_literal("Özgen </script>"), "\"Özgen </script>\"");
    }

    #[test]
    fn the_writer_places_commas_and_indents_two_levels() {
        let mut w = JsonWriter::default();
        w.begin_object();
        w.key("a");
        w.number(1);
        w.key("list");
        w.begin_array();
        w.begin_object();
        w.key("x");
        w.discs(-150);
        w.key("y");
        w.begin_array();
        w.end_array();
        w.end_object();
        w.bool(true);
        w.end_array();
        w.key("none");
        w.null();
        w.end_object();
        assert_eq!(
            w.finish(),
            "{\n  \"a\": 1,\n  \"list\": [\n    {\"x\": -1.5, \"y\": []},\n    true\n  ],\n  \"none\": null\n}\n"
        );
    }

    #[test]
    fn floats_are_short_and_never_nan() {
        let mut w = JsonWriter::default();
        w.begin_array();
        w.discs(7);
        w.discs(-400);
        w.float(f64::NAN);
        w.end_array();
        assert_eq!(w.finish(), "[\n  0.07,\n  -4,\n  null\n]\n");
    }
}
