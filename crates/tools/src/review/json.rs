//! The review as JSON (RFC 8259): [`to_json`] fills the output types below, whose fields are
//! the documented ones (`docs/REVIEW.md`), and serde_json writes them, indented.
//!
//! Values are in discs (numbers with up to two decimals), from the mover's point of view,
//! except `black_value` and `curve`, from Black's.

use serde::Serialize;

use super::{color_name, Effort, MoveReview, PlayerStats, Review};
use crate::board::Color;
use crate::discs::CentiDiscs;

/// The review as a JSON object, indented two spaces, ending with a newline.
pub fn to_json(review: &Review) -> String {
    to_pretty_json(&ReviewJson::new(review))
}

/// `value` as indented JSON with a final newline.
pub(super) fn to_pretty_json(value: &impl Serialize) -> String {
    // The output types hold strings, numbers, booleans and sequences only: nothing that can
    // fail to serialize (a map with non-string keys, a failing `Serialize` impl).
    let mut text = serde_json::to_string_pretty(value).expect("the output types always serialize");
    text.push('\n');
    text
}

/// The whole report.
#[derive(Serialize)]
struct ReviewJson<'a> {
    black: &'a str,
    white: &'a str,
    event: &'a str,
    date: &'a str,
    moves_text: String,
    result: ResultJson,
    settings: SettingsJson,
    elapsed_s: f64,
    nodes: u64,
    moves: Vec<MoveJson>,
    players: PlayersJson<'a>,
    turning_points: Vec<usize>,
    curve: Vec<f64>,
}

/// The replayed result, the recorded one and WTHOR's theoretical score.
#[derive(Serialize)]
struct ResultJson {
    finished: bool,
    black_score: i32,
    black_discs: u32,
    white_discs: u32,
    recorded_black_discs: Option<u8>,
    theoretical_black_discs: Option<u8>,
}

/// The review's effort: a depth or a time per position (the other `null`).
#[derive(Serialize)]
struct SettingsJson {
    depth: Option<u32>,
    time_s: Option<f64>,
    exact_empties: u32,
    book: bool,
}

/// One move.
#[derive(Serialize)]
struct MoveJson {
    number: usize,
    color: String,
    empties: u32,
    played: String,
    played_value: f64,
    best: String,
    best_value: f64,
    loss: f64,
    exact: bool,
    book: bool,
    depth: u32,
    legal_moves: u32,
    pass_after: bool,
    black_value: f64,
    mistake: bool,
    turning_point: bool,
    nodes: u64,
    ms: f64,
}

#[derive(Serialize)]
struct PlayersJson<'a> {
    black: PlayerJson<'a>,
    white: PlayerJson<'a>,
}

/// One player's totals.
#[derive(Serialize)]
struct PlayerJson<'a> {
    name: &'a str,
    moves: usize,
    choices: usize,
    best_moves: usize,
    best_share: f64,
    total_loss: f64,
    mean_loss: f64,
    mistakes: usize,
}

impl<'a> ReviewJson<'a> {
    fn new(review: &'a Review) -> ReviewJson<'a> {
        let game = &review.game;
        let turning = review.turning_points();
        let (black_discs, white_discs) = review.final_discs();
        let [black, white] = review.players().map(|s| PlayerJson::new(review, &s));
        ReviewJson {
            black: &game.black,
            white: &game.white,
            event: &game.event,
            date: &game.date,
            moves_text: game.moves.iter().map(|s| s.to_string()).collect(),
            result: ResultJson {
                finished: review.is_finished(),
                black_score: review.black_score(),
                black_discs,
                white_discs,
                recorded_black_discs: game.black_discs,
                theoretical_black_discs: game.theoretical,
            },
            settings: SettingsJson {
                depth: match review.options.effort {
                    Effort::Depth(d) => Some(d),
                    Effort::Time(_) => None,
                },
                time_s: match review.options.effort {
                    Effort::Time(t) => Some(t.as_secs_f64()),
                    Effort::Depth(_) => None,
                },
                exact_empties: review.options.exact_empties,
                book: review.options.book.is_some(),
            },
            elapsed_s: round(review.elapsed.as_secs_f64(), 3),
            nodes: review.nodes(),
            moves: review
                .moves
                .iter()
                .enumerate()
                .map(|(i, m)| MoveJson::new(m, turning.contains(&i)))
                .collect(),
            players: PlayersJson { black, white },
            turning_points: turning.iter().map(|&i| review.moves[i].number).collect(),
            curve: review
                .curve()
                .into_iter()
                .map(|c| CentiDiscs::from(c).to_discs())
                .collect(),
        }
    }
}

impl MoveJson {
    fn new(m: &MoveReview, turning_point: bool) -> MoveJson {
        MoveJson {
            number: m.number,
            color: color_name(m.color()).to_ascii_lowercase(),
            empties: m.before.board.empty_count(),
            played: m.played.to_string(),
            played_value: m.played_value.discs(),
            best: m.best.to_string(),
            best_value: m.best_value.discs(),
            loss: m.loss(),
            exact: m.is_exact(),
            book: m.from_book,
            depth: m.depth,
            legal_moves: m.legal_moves,
            pass_after: m.pass_after,
            black_value: CentiDiscs::from(m.black_centi()).to_discs(),
            mistake: m.is_mistake(),
            turning_point,
            nodes: m.nodes,
            ms: round(m.elapsed.as_secs_f64() * 1e3, 1),
        }
    }
}

impl<'a> PlayerJson<'a> {
    fn new(review: &'a Review, s: &PlayerStats) -> PlayerJson<'a> {
        PlayerJson {
            name: match s.color {
                Color::Black => &review.game.black,
                Color::White => &review.game.white,
            },
            moves: s.moves,
            choices: s.choices,
            best_moves: s.best_moves,
            best_share: round(s.best_share(), 4),
            total_loss: s.total_loss(),
            mean_loss: round(s.mean_loss(), 3),
            mistakes: s.mistakes,
        }
    }
}

/// `x` rounded to `decimals` places.
pub(super) fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Sample<'a> {
        name: &'a str,
        values: Vec<f64>,
        none: Option<u32>,
    }

    #[test]
    fn strings_are_escaped_numbers_short_and_nan_null() {
        let sample = Sample {
            name: "a\"b\\c\nd\te\u{1}f Özgen </script>",
            values: vec![0.07, -4.0, -1.5, f64::NAN],
            none: None,
        };
        assert_eq!(
            to_pretty_json(&sample),
            "{\n  \"name\": \"a\\\"b\\\\c\\nd\\te\\u0001f Özgen </script>\",\n  \"values\": [\n    \
             0.07,\n    -4.0,\n    -1.5,\n    null\n  ],\n  \"none\": null\n}\n"
        );
    }

    #[test]
    fn rounding_keeps_the_decimals_asked_for() {
        assert_eq!(round(78.6549, 1), 78.7);
        assert_eq!(round(3.9614, 3), 3.961);
        assert_eq!(round(2.0 / 3.0, 4), 0.6667);
    }
}
