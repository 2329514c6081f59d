//! The review as a terminal table: a header (players, event, result, settings), one row per
//! move, the per-player totals and the turning points. Plain text, fixed-width columns; the
//! same report `othello review` prints by default and terminal play prints after a game.
//!
//! ```text
//!   #  side   played    value  best      value   loss  judged
//!  33  Black  b7        -4.12  g2        -1.80   2.32  d12
//!  34  White  h8          -12  b2           -2     10  exact  mistake, turning point
//! ```

use std::io::{self, Write};

use super::{color_name, loss_text, value_text, MoveReview, Review};
use crate::board::Color;

/// Writes the whole report.
pub fn write_report(review: &Review, out: &mut dyn Write) -> io::Result<()> {
    write_header(review, out)?;
    writeln!(out)?;
    write_moves(review, out)?;
    writeln!(out)?;
    write_players(review, out)?;
    writeln!(out)?;
    write_turning_points(review, out)
}

/// Players, event, result and how the review was made.
pub fn write_header(review: &Review, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{} (Black) vs {} (White)",
        review.name(Color::Black),
        review.name(Color::White)
    )?;
    let event = review.event();
    if !event.is_empty() {
        writeln!(out, "{event}")?;
    }
    writeln!(
        out,
        "Result: {}; {} moves",
        review.result_text(),
        review.moves.len()
    )?;
    writeln!(
        out,
        "Review: {}; {:.1} s, {:.1} M nodes",
        review.options,
        review.elapsed.as_secs_f64(),
        review.nodes() as f64 / 1e6
    )
}

/// The notes of a move: only move, mistake, turning point.
pub fn notes(m: &MoveReview, turning_point: bool) -> String {
    let mut notes = Vec::new();
    if !m.had_choice() {
        notes.push("only move");
    }
    if m.is_mistake() {
        notes.push("mistake");
    }
    if turning_point {
        notes.push("turning point");
    }
    notes.join(", ")
}

/// One row per move, and a line for each pass.
pub fn write_moves(review: &Review, out: &mut dyn Write) -> io::Result<()> {
    let turning = review.turning_points();
    writeln!(
        out,
        "{:>4}  {:<5}  {:<6} {:>7}  {:<6} {:>7}  {:>5}  {:<6} notes",
        "#", "side", "played", "value", "best", "value", "loss", "judged"
    )?;
    for (i, m) in review.moves.iter().enumerate() {
        let loss = if m.is_best() {
            "-".to_string()
        } else {
            loss_text(i64::from(m.loss_centi()))
        };
        let row = format!(
            "{:>4}  {:<5}  {:<6} {:>7}  {:<6} {:>7}  {:>5}  {:<6} {}",
            m.number,
            color_name(m.color()),
            m.played.to_string(),
            value_text(m.played_value),
            m.best.to_string(),
            value_text(m.best_value),
            loss,
            m.judged(true),
            notes(m, turning.contains(&i)),
        );
        writeln!(out, "{}", row.trim_end())?;
        if m.pass_after {
            writeln!(
                out,
                "{:>4}  {} passes",
                "",
                color_name(m.color().opposite())
            )?;
        }
    }
    Ok(())
}

/// Per player: moves, best moves among the moves with a choice, total and mean loss, mistakes.
pub fn write_players(review: &Review, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{:<28} {:>5} {:>7} {:>6} {:>7} {:>6} {:>8}",
        "player", "moves", "best", "share", "loss", "mean", "mistakes"
    )?;
    for s in review.players() {
        let who = format!("{} {}", color_name(s.color), review.name(s.color));
        let who: String = who.chars().take(28).collect();
        writeln!(
            out,
            "{:<28} {:>5} {:>7} {:>5.0}% {:>7} {:>6.2} {:>8}",
            who,
            s.moves,
            format!("{}/{}", s.best_moves, s.choices),
            100.0 * s.best_share(),
            loss_text(s.total_loss_centi),
            s.mean_loss(),
            s.mistakes
        )?;
    }
    writeln!(
        out,
        "(best: moves without loss among the moves with a choice; mean: loss per such move, in \
         discs; mistakes: losses of {} discs or more)",
        loss_text(i64::from(super::MISTAKE_CENTI))
    )
}

/// The turning points, in game order.
pub fn write_turning_points(review: &Review, out: &mut dyn Write) -> io::Result<()> {
    let turning = review.turning_points();
    if turning.is_empty() {
        return writeln!(
            out,
            "Turning points: none (no move lost {} discs or more).",
            loss_text(i64::from(super::MISTAKE_CENTI))
        );
    }
    writeln!(out, "Turning points (the largest losses):")?;
    for i in turning {
        writeln!(out, "  {}", turning_point_text(&review.moves[i]))?;
    }
    Ok(())
}

/// `move 34, White: h8 (-12) instead of b2 (-2), a loss of 10 discs (exact)`.
pub fn turning_point_text(m: &MoveReview) -> String {
    format!(
        "move {}, {}: {} ({}) instead of {} ({}), a loss of {} discs ({})",
        m.number,
        color_name(m.color()),
        m.played,
        value_text(m.played_value),
        m.best,
        value_text(m.best_value),
        loss_text(i64::from(m.loss_centi())),
        m.judged(false)
    )
}
