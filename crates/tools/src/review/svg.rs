//! SVG drawings for the review page, written as text: the evaluation curve of the game and
//! board diagrams. They are meant to be inlined in HTML (no `xmlns`, no external resources,
//! no script): plain shapes in a `viewBox`, so the page scales them.
//!
//! The curve is a polyline of [`Review::curve`] (Black's value after each move), clipped to a
//! symmetric range (8, 16, 24, 32, 48 or 64 discs, the smallest that holds the game), over a
//! zero line, with the part of the game judged exactly shaded and the turning points circled.
//! Every point carries a `<title>` (the browser shows it on hover).

use std::fmt::Write;

use super::html::escape;
use super::{color_name, value_text, Review};
use crate::board::Position;
use crate::discs::CentiDiscs;
use crate::square::Square;

/// The chart's size in SVG units, and its margins.
const CHART_WIDTH: f64 = 960.0;
const CHART_HEIGHT: f64 = 340.0;
const MARGIN_LEFT: f64 = 60.0;
const MARGIN_RIGHT: f64 = 20.0;
const MARGIN_TOP: f64 = 24.0;
const MARGIN_BOTTOM: f64 = 46.0;

/// The vertical ranges the chart chooses from, in discs.
const RANGES_DISCS: [i32; 6] = [8, 16, 24, 32, 48, 64];

/// The smallest range of [`RANGES_DISCS`] that holds every value of `curve` (centi-discs).
fn range_discs(curve: &[i32]) -> i32 {
    let most = curve.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0);
    RANGES_DISCS
        .into_iter()
        .find(|&r| CentiDiscs::from(most) <= CentiDiscs::from_whole_discs(r))
        .unwrap_or(64)
}

/// The evaluation chart of `review`: x is the move number, y Black's value in discs.
pub fn evaluation_chart(review: &Review) -> String {
    let curve = review.curve();
    let n = review.moves.len().max(1) as f64;
    let range = range_discs(&curve);
    let plot_w = CHART_WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
    let plot_h = CHART_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
    let x = |k: usize| MARGIN_LEFT + k as f64 * plot_w / n;
    let y = |value: CentiDiscs| {
        let v = value.to_discs().clamp(-f64::from(range), f64::from(range));
        MARGIN_TOP + plot_h / 2.0 - v / f64::from(range) * plot_h / 2.0
    };
    let (left, right, top, bottom) = (
        x(0),
        x(review.moves.len()),
        y(CentiDiscs::from_whole_discs(range)),
        y(CentiDiscs::from_whole_discs(-range)),
    );
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg class="chart" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img" aria-label="evaluation curve">"##
    );
    // Background: Black better above the zero line, White better below.
    let _ = write!(
        s,
        r##"<rect x="{left:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="#e9ecef"/><rect x="{left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#ffffff" stroke="none"/>"##,
        right - left,
        plot_h / 2.0,
        y(CentiDiscs(0)),
        right - left,
        plot_h / 2.0
    );
    // The part of the game judged exactly.
    if let Some(first) = review.moves.iter().position(|m| m.is_exact()) {
        let _ = write!(
            s,
            r##"<rect x="{:.1}" y="{top:.1}" width="{:.1}" height="{plot_h:.1}" fill="#fff3bf" fill-opacity="0.6"/><text x="{:.1}" y="{:.1}" class="note">exact from move {}</text>"##,
            x(first),
            right - x(first),
            x(first) + 4.0,
            top + 14.0,
            first + 1
        );
    }
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" class="note">Black better</text><text x="{:.1}" y="{:.1}" class="note">White better</text>"##,
        left + 4.0,
        top + 14.0,
        left + 4.0,
        bottom - 6.0
    );
    // Horizontal grid and its labels.
    for step in -2..=2 {
        let v = range * step / 2;
        let yy = y(CentiDiscs::from_whole_discs(v));
        let label = if v == 0 {
            "0".to_string()
        } else {
            format!("{v:+}")
        };
        let (stroke, width) = if v == 0 {
            ("#495057", 1.5)
        } else {
            ("#ced4da", 1.0)
        };
        let _ = write!(
            s,
            r##"<line x1="{left:.1}" y1="{yy:.1}" x2="{right:.1}" y2="{yy:.1}" stroke="{stroke}" stroke-width="{width}"/><text x="{:.1}" y="{:.1}" class="tick" text-anchor="end">{label}</text>"##,
            left - 6.0,
            yy + 4.0
        );
    }
    // Move ticks every 10 moves.
    for k in (0..=review.moves.len()).step_by(10) {
        let xx = x(k);
        let _ = write!(
            s,
            r##"<line x1="{xx:.1}" y1="{bottom:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#495057"/><text x="{xx:.1}" y="{:.1}" class="tick" text-anchor="middle">{k}</text>"##,
            bottom + 5.0,
            bottom + 18.0
        );
    }
    let _ = write!(
        s,
        r##"<rect x="{left:.1}" y="{top:.1}" width="{:.1}" height="{plot_h:.1}" fill="none" stroke="#495057"/>"##,
        right - left
    );
    // Axis titles.
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" class="axis" text-anchor="middle">move</text><text transform="translate(16 {:.1}) rotate(-90)" class="axis" text-anchor="middle">Black's value (discs)</text>"##,
        (left + right) / 2.0,
        CHART_HEIGHT - 6.0,
        (top + bottom) / 2.0
    );
    // The curve, then its points with their titles.
    let points: Vec<String> = curve
        .iter()
        .enumerate()
        .map(|(k, &c)| format!("{:.1},{:.1}", x(k), y(CentiDiscs::from(c))))
        .collect();
    let _ = write!(
        s,
        r##"<polyline points="{}" fill="none" stroke="#1c4587" stroke-width="2.2" stroke-linejoin="round"/>"##,
        points.join(" ")
    );
    for (k, &c) in curve.iter().enumerate() {
        let title = match k.checked_sub(1).map(|i| &review.moves[i]) {
            None => format!("start: {:+.2}", CentiDiscs::from(c)),
            Some(m) => format!(
                "move {} ({} {}): {} for {}, Black {:+.2}",
                m.number,
                color_name(m.color()),
                m.played,
                value_text(m.played_value),
                color_name(m.color()),
                CentiDiscs::from(c)
            ),
        };
        let _ = write!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="2.6" fill="#1c4587"><title>{}</title></circle>"##,
            x(k),
            y(CentiDiscs::from(c)),
            escape(&title)
        );
    }
    // Turning points: a ring and the move number, away from the zero line (above a point of
    // Black's, below a point of White's) unless that leaves the plot.
    for i in review.turning_points() {
        let m = &review.moves[i];
        let (cx, cy) = (x(i + 1), y(CentiDiscs::from(curve[i + 1])));
        let above = if curve[i + 1] >= 0 {
            cy - 12.0 > top + 4.0
        } else {
            cy + 22.0 > bottom - 2.0
        };
        let label_y = if above { cy - 12.0 } else { cy + 22.0 };
        let _ = write!(
            s,
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="7" fill="none" stroke="#c92a2a" stroke-width="2.2"/><text x="{cx:.1}" y="{label_y:.1}" class="turn" text-anchor="middle">{}</text>"##,
            m.number
        );
    }
    s.push_str("</svg>");
    s
}

/// The size of a board square in a diagram, and the margin for the coordinates.
const CELL: f64 = 36.0;
const BOARD_MARGIN: f64 = 20.0;

/// A board diagram of `position` with `played` marked by a red ring (filled in the mover's
/// colour, half transparent) and `best` by a blue ring: the coordinates around, a1 top left.
pub fn board_diagram(position: &Position, played: Square, best: Square) -> String {
    let size = BOARD_MARGIN + 8.0 * CELL + 4.0;
    let (black, white) = position.black_white();
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg class="board" viewBox="0 0 {size} {size}" role="img" aria-label="board">"##
    );
    let _ = write!(
        s,
        r##"<rect x="{BOARD_MARGIN}" y="{BOARD_MARGIN}" width="{w}" height="{w}" fill="#2f7d4a" stroke="#1b4d2c" stroke-width="2"/>"##,
        w = 8.0 * CELL
    );
    for i in 0..=8 {
        let p = BOARD_MARGIN + f64::from(i) * CELL;
        let end = BOARD_MARGIN + 8.0 * CELL;
        let _ = write!(
            s,
            r##"<line x1="{p}" y1="{BOARD_MARGIN}" x2="{p}" y2="{end}" stroke="#1b4d2c"/><line x1="{BOARD_MARGIN}" y1="{p}" x2="{end}" y2="{p}" stroke="#1b4d2c"/>"##
        );
    }
    // The four small dots of the board (corners of the central 4x4).
    for (c, r) in [(2.0, 2.0), (6.0, 2.0), (2.0, 6.0), (6.0, 6.0)] {
        let _ = write!(
            s,
            r##"<circle cx="{}" cy="{}" r="3" fill="#1b4d2c"/>"##,
            BOARD_MARGIN + c * CELL,
            BOARD_MARGIN + r * CELL
        );
    }
    for (i, letter) in "abcdefgh".chars().enumerate() {
        let c = BOARD_MARGIN + (i as f64 + 0.5) * CELL;
        let _ = write!(
            s,
            r##"<text x="{c}" y="14" class="coord" text-anchor="middle">{letter}</text><text x="10" y="{}" class="coord" text-anchor="middle">{}</text>"##,
            c + 4.0,
            i + 1
        );
    }
    let centre = |sq: Square| {
        (
            BOARD_MARGIN + (sq.column() as f64 + 0.5) * CELL,
            BOARD_MARGIN + (sq.row() as f64 + 0.5) * CELL,
        )
    };
    let radius = CELL * 0.42;
    for sq in Square::ALL {
        let (cx, cy) = centre(sq);
        let fill = if black & sq.bit() != 0 {
            "#111111"
        } else if white & sq.bit() != 0 {
            "#f8f9fa"
        } else {
            continue;
        };
        let _ = write!(
            s,
            r##"<circle cx="{cx}" cy="{cy}" r="{radius:.1}" fill="{fill}" stroke="#222"/>"##
        );
    }
    let mover_fill = match position.side {
        crate::board::Color::Black => "#111111",
        crate::board::Color::White => "#f8f9fa",
    };
    let (px, py) = centre(played);
    let _ = write!(
        s,
        r##"<circle cx="{px}" cy="{py}" r="{radius:.1}" fill="{mover_fill}" fill-opacity="0.55" stroke="#e03131" stroke-width="3"><title>played {played}</title></circle>"##
    );
    if best != played {
        let (bx, by) = centre(best);
        let _ = write!(
            s,
            r##"<circle cx="{bx}" cy="{by}" r="{radius:.1}" fill="none" stroke="#4dabf7" stroke-width="3" stroke-dasharray="5 3"><title>best {best}</title></circle><circle cx="{bx}" cy="{by}" r="4" fill="#4dabf7"/>"##
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_the_smallest_that_holds_the_curve() {
        assert_eq!(range_discs(&[]), 8);
        assert_eq!(range_discs(&[0, 800, -799]), 8);
        assert_eq!(range_discs(&[0, 801]), 16);
        assert_eq!(range_discs(&[-2400]), 24);
        assert_eq!(range_discs(&[-3000]), 32);
        assert_eq!(range_discs(&[4000]), 48);
        assert_eq!(range_discs(&[6400, -9000]), 64);
    }

    #[test]
    fn a_diagram_shows_every_disc_and_both_marks() {
        let svg = board_diagram(&Position::start(), Square::F5, Square::D3);
        // Four discs, two mark circles (played; best ring), the best's dot, four board dots.
        assert_eq!(svg.matches("<circle").count(), 4 + 2 + 1 + 4);
        assert!(svg.contains("<title>played f5</title>"));
        assert!(svg.contains("<title>best d3</title>"));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }
}
