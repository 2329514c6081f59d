//! The review as one self-contained HTML page: inline CSS and inline SVG, no script, no
//! external resource (it can be mailed or opened offline). From the top: the players and
//! result, the evaluation curve ([`super::svg::evaluation_chart`]), each player's totals, a
//! board diagram at each turning point ([`super::svg::board_diagram`]) and the table of every
//! move. Every text that comes from the game file is escaped ([`escape`]).

use std::fmt::Write;

use super::svg::{board_diagram, evaluation_chart};
use super::text::{notes, turning_point_text};
use super::{color_name, loss_text, value_text, Review, MISTAKE_CENTI};
use crate::board::Color;

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities: safe in element content and in
/// quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's style sheet.
const STYLE: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 24px auto;
       max-width: 1000px; color: #212529; padding: 0 16px; }
h1 { font-size: 1.6em; margin-bottom: 4px; }
h2 { font-size: 1.2em; margin-top: 28px; border-bottom: 1px solid #dee2e6; }
.meta { color: #495057; margin: 2px 0; }
svg.chart { width: 100%; height: auto; background: #fff; }
svg text.tick { font-size: 12px; fill: #495057; }
svg text.axis { font-size: 13px; fill: #212529; }
svg text.note { font-size: 12px; fill: #868e96; }
svg text.turn { font-size: 12px; font-weight: bold; fill: #c92a2a; }
svg text.coord { font-size: 12px; fill: #495057; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; text-align: right; border-bottom: 1px solid #e9ecef; }
th { background: #f1f3f5; }
td.l, th.l { text-align: left; }
tr.mistake td { background: #fff5f5; }
tr.turning td { background: #ffe3e3; font-weight: bold; }
tr.pass td { color: #868e96; font-style: italic; text-align: left; }
.turns { display: flex; flex-wrap: wrap; gap: 24px; }
figure { margin: 0; width: 300px; }
figure svg { width: 300px; height: 300px; }
figcaption { font-size: 0.9em; margin-top: 4px; }
.legend { font-size: 0.9em; color: #495057; }
.played { color: #e03131; font-weight: bold; }
.best { color: #1c7ed6; font-weight: bold; }
footer { margin-top: 32px; color: #868e96; font-size: 0.85em; }
";

/// The whole page.
pub fn to_html(review: &Review) -> String {
    let mut s = String::new();
    let title = format!(
        "{} vs {}",
        review.name(Color::Black),
        review.name(Color::White)
    );
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Review: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = writeln!(
        s,
        "<h1>{} <small>(Black)</small> vs {} <small>(White)</small></h1>",
        escape(&review.name(Color::Black)),
        escape(&review.name(Color::White))
    );
    let event = review.event();
    if !event.is_empty() {
        let _ = writeln!(s, "<p class=\"meta\">{}</p>", escape(&event));
    }
    let _ = writeln!(
        s,
        "<p class=\"meta\">Result: {}; {} moves</p>\n<p class=\"meta\">Review: {}; {:.1} s, {:.1} M nodes</p>",
        escape(&review.result_text()),
        review.moves.len(),
        escape(&review.options.to_string()),
        review.elapsed.as_secs_f64(),
        review.nodes() as f64 / 1e6
    );
    let _ = writeln!(
        s,
        "<h2>Evaluation</h2>\n{}\n<p class=\"legend\">Black's value in discs after each move \
         (a search's estimate, or the exact final disc difference in the shaded part); \
         turning points circled.</p>",
        evaluation_chart(review)
    );
    write_players(&mut s, review);
    write_turning_points(&mut s, review);
    write_moves(&mut s, review);
    let _ = writeln!(
        s,
        "<footer>Made by othello review. Values are from the mover's point of view unless \
         said otherwise; the loss is the best value minus the value of the move played.</footer>\n</body>\n</html>"
    );
    s
}

/// The per-player table.
fn write_players(s: &mut String, review: &Review) {
    let _ = writeln!(
        s,
        "<h2>Players</h2>\n<table>\n<tr><th class=\"l\">player</th><th>moves</th>\
         <th>best moves</th><th>share</th><th>total loss</th><th>mean loss</th><th>mistakes</th></tr>"
    );
    for p in review.players() {
        let _ = writeln!(
            s,
            "<tr><td class=\"l\">{} ({})</td><td>{}</td><td>{} of {}</td><td>{:.0}%</td>\
             <td>{}</td><td>{:.2}</td><td>{}</td></tr>",
            escape(&review.name(p.color)),
            color_name(p.color),
            p.moves,
            p.best_moves,
            p.choices,
            100.0 * p.best_share(),
            loss_text(p.total_loss_centi),
            p.mean_loss(),
            p.mistakes
        );
    }
    let _ = writeln!(
        s,
        "</table>\n<p class=\"legend\">Best moves and the mean loss count the moves with a \
         choice; a mistake loses {} discs or more.</p>",
        loss_text(i64::from(MISTAKE_CENTI))
    );
}

/// A diagram and a caption for each turning point.
fn write_turning_points(s: &mut String, review: &Review) {
    let _ = writeln!(s, "<h2>Turning points</h2>");
    let turning = review.turning_points();
    if turning.is_empty() {
        let _ = writeln!(
            s,
            "<p>None: no move lost {} discs or more.</p>",
            loss_text(i64::from(MISTAKE_CENTI))
        );
        return;
    }
    let _ = writeln!(
        s,
        "<p class=\"legend\">The position before the move: <span class=\"played\">red</span>, \
         the move played; <span class=\"best\">blue</span>, the best move.</p>\n<div class=\"turns\">"
    );
    for i in turning {
        let m = &review.moves[i];
        let _ = writeln!(
            s,
            "<figure id=\"move-{}\">{}<figcaption>{}</figcaption></figure>",
            m.number,
            board_diagram(&m.before, m.played, m.best),
            escape(&turning_point_text(m))
        );
    }
    let _ = writeln!(s, "</div>");
}

/// The table of every move.
fn write_moves(s: &mut String, review: &Review) {
    let _ = writeln!(
        s,
        "<h2>Moves</h2>\n<table>\n<tr><th>#</th><th class=\"l\">side</th><th class=\"l\">played</th>\
         <th>value</th><th class=\"l\">best</th><th>value</th><th>loss</th><th class=\"l\">judged</th>\
         <th class=\"l\">notes</th></tr>"
    );
    let turning = review.turning_points();
    for (i, m) in review.moves.iter().enumerate() {
        let is_turning = turning.contains(&i);
        let class = if is_turning {
            " class=\"turning\""
        } else if m.is_mistake() {
            " class=\"mistake\""
        } else {
            ""
        };
        let loss = if m.is_best() {
            "-".to_string()
        } else {
            loss_text(i64::from(m.loss_centi()))
        };
        let judged = m.judged(false);
        let _ = writeln!(
            s,
            "<tr{class}><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td>\
             <td class=\"l\">{}</td><td>{}</td><td>{loss}</td><td class=\"l\">{judged}</td>\
             <td class=\"l\">{}</td></tr>",
            m.number,
            color_name(m.color()),
            m.played,
            value_text(m.played_value),
            m.best,
            value_text(m.best_value),
            notes(m, is_turning)
        );
        if m.pass_after {
            let _ = writeln!(
                s,
                "<tr class=\"pass\"><td></td><td colspan=\"8\">{} passes</td></tr>",
                color_name(m.color().opposite())
            );
        }
    }
    let _ = writeln!(s, "</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(escape("<b>&\"x' ok"), "&lt;b&gt;&amp;&quot;x&#39; ok");
        assert_eq!(escape("Özgen"), "Özgen");
    }
}
