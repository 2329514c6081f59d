//! The audit's reports: a table per audit point (`Display`) and JSON ([`to_json`], output
//! types written by serde_json, as the review's). The fields are documented in
//! `docs/REVIEW.md`.

use std::fmt;

use serde::Serialize;

use crate::elo::elo_from_score;
use crate::text::one_line;

use super::super::color_name;
use super::super::json::{round, to_pretty_json};
use super::{AuditReport, GameAudit, Outcomes, SideAudit};

impl fmt::Display for AuditReport {
    /// One table per audit point, one row per player, then the totals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .players
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let width = width.max(14) + 2;
        writeln!(
            f,
            "Audit against exact values (discs per game, each player's view): value = exact value \
             at the point,\nfinal = result, lost = discs given away by its own moves after the \
             point, mistakes = moves\nthat gave discs away, for/against = games whose \
             win/draw/loss changed for/against it,\nscore = its score, perfect = its score \
             had it lost nothing after the point (the opponent's\nmoves unchanged)."
        )?;
        for point in &self.points {
            writeln!(
                f,
                "{:<width$} {:>6} {:>7} {:>7} {:>7} {:>8} {:>7} {:>7} {:>7} {:>7}",
                format!("from {} empties", point.empties),
                "games",
                "value",
                "final",
                "lost",
                "mistakes",
                "for",
                "against",
                "score",
                "perfect",
            )?;
            for (name, s) in self.players.iter().zip(&point.sides) {
                write_row(f, name, s, width)?;
            }
            write_elo(f, &self.players, &point.sides, point.empties, width)?;
            let first = point.sides.first().copied().unwrap_or_default();
            // In a match every game has both players: the counts of the first are the games'.
            let (before, unfinished) = if self.players.len() == 2 {
                (first.ended_before, first.unfinished)
            } else {
                let sum = |g: fn(&SideAudit) -> u64| point.sides.iter().map(g).sum::<u64>();
                (sum(|s| s.ended_before), sum(|s| s.unfinished))
            };
            let unit = if self.players.len() == 2 {
                "game"
            } else {
                "player-game"
            };
            if before + unfinished > 0 {
                writeln!(
                    f,
                    "  not audited: {before} {unit}{} ended before {} empties, {unfinished} not played out",
                    plural(before),
                    point.empties
                )?;
            }
        }
        let secs = self.elapsed.as_secs_f64();
        writeln!(
            f,
            "audit: {} games, {} positions, {} solved, {} nodes, {secs:.1} s ({} worker{}, {} MiB each)",
            self.games.len(),
            self.positions(),
            self.solves(),
            self.nodes(),
            self.jobs,
            plural(self.jobs as u64),
            self.hash_mb
        )
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A score per game as a percentage, `-` with no game.
fn percent(score: Option<f64>) -> String {
    score.map_or_else(|| "-".to_string(), |s| format!("{:.1}%", 100.0 * s))
}

/// An Elo difference for a score, `-` with no game.
fn elo_text(score: Option<f64>) -> String {
    score.map_or_else(
        || "-".to_string(),
        // At 50% the formula gives -0.0; print it as +0.0.
        |s| format!("{:+.1}", elo_from_score(s) + 0.0),
    )
}

/// One player's row.
fn write_row(f: &mut fmt::Formatter<'_>, name: &str, s: &SideAudit, width: usize) -> fmt::Result {
    writeln!(
        f,
        "  {:<w$} {:>6} {:>+7.2} {:>+7.2} {:>7.2} {:>8.2} {:>7} {:>7} {:>7} {:>7}",
        one_line(name),
        s.games,
        s.mean_value(),
        s.mean_final(),
        s.mean_loss(),
        s.mean_mistakes(),
        s.changed_for,
        s.changed_against,
        percent(s.at_end.score()),
        percent(s.perfect.score()),
        w = width - 2
    )
}

/// The scores as Elo differences against the opponents: as played, with perfect play after
/// the point (the estimate), and the floor that perfect play is sure of (the value at the
/// point).
fn write_elo(
    f: &mut fmt::Formatter<'_>,
    players: &[String],
    sides: &[SideAudit],
    empties: u32,
    width: usize,
) -> fmt::Result {
    if sides.iter().all(|s| s.games == 0) {
        return Ok(());
    }
    writeln!(
        f,
        "  Elo as played / with perfect play after {empties} empties (at least, by the value there):"
    )?;
    for (name, s) in players.iter().zip(sides) {
        writeln!(
            f,
            "  {:<w$} {:>7} / {} ({})",
            one_line(name),
            elo_text(s.at_end.score()),
            elo_text(s.perfect.score()),
            elo_text(s.at_point.score()),
            w = width - 2
        )?;
    }
    Ok(())
}

/// The report as a JSON object, indented, ending with a newline (fields in `docs/REVIEW.md`).
pub fn to_json(report: &AuditReport) -> String {
    to_pretty_json(&AuditJson {
        summary: AuditSummaryJson::new(report),
        games: report
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| GameJson::new(report, i, g))
            .collect(),
    })
}

/// The whole report: the summary, then every game.
#[derive(Serialize)]
struct AuditJson<'a> {
    #[serde(flatten)]
    summary: AuditSummaryJson<'a>,
    games: Vec<GameJson<'a>>,
}

/// The report without its games: the players, the points, the cost and each player's figures
/// at each point (the table's). [`to_json`] writes it with the games; `othello match --json`
/// writes it alone, as the match's `audit`.
#[derive(Serialize)]
pub struct AuditSummaryJson<'a> {
    players: &'a [String],
    points: Vec<u32>,
    jobs: usize,
    hash_mb: usize,
    elapsed_s: f64,
    positions: usize,
    solves: usize,
    nodes: u64,
    by_point: Vec<PointJson<'a>>,
}

impl<'a> AuditSummaryJson<'a> {
    /// The summary of `report`.
    pub fn new(report: &'a AuditReport) -> AuditSummaryJson<'a> {
        AuditSummaryJson {
            players: &report.players,
            points: report.points.iter().map(|p| p.empties).collect(),
            jobs: report.jobs,
            hash_mb: report.hash_mb,
            elapsed_s: round(report.elapsed.as_secs_f64(), 3),
            positions: report.positions(),
            solves: report.solves(),
            nodes: report.nodes(),
            by_point: report
                .points
                .iter()
                .map(|point| PointJson {
                    empties: point.empties,
                    sides: report
                        .players
                        .iter()
                        .zip(&point.sides)
                        .map(|(name, s)| SideJson::new(name, s))
                        .collect(),
                })
                .collect(),
        }
    }
}

/// One audit point.
#[derive(Serialize)]
struct PointJson<'a> {
    empties: u32,
    sides: Vec<SideJson<'a>>,
}

/// One player's figures at one point.
#[derive(Serialize)]
struct SideJson<'a> {
    player: &'a str,
    games: u64,
    ended_before: u64,
    unfinished: u64,
    mean_value: f64,
    mean_final: f64,
    mean_loss: f64,
    mean_mistakes: f64,
    value_sum: i64,
    final_sum: i64,
    loss_sum: i64,
    moves: u64,
    mistakes: u64,
    changed_for: u64,
    changed_against: u64,
    at_point: Outcomes,
    at_end: Outcomes,
    perfect: Outcomes,
    score: Option<f64>,
    perfect_score: Option<f64>,
    elo: Option<f64>,
    perfect_elo: Option<f64>,
    floor_elo: Option<f64>,
}

/// A score per game, rounded; `None` with no game.
fn score_json(outcomes: &Outcomes) -> Option<f64> {
    outcomes.score().map(|s| round(s, 4))
}

/// A score's Elo difference, rounded; `None` with no game or at 0% and 100% (infinite).
fn elo_json(outcomes: &Outcomes) -> Option<f64> {
    let elo = elo_from_score(outcomes.score()?);
    elo.is_finite().then(|| round(elo, 1))
}

impl<'a> SideJson<'a> {
    fn new(player: &'a str, s: &SideAudit) -> SideJson<'a> {
        SideJson {
            player,
            games: s.games,
            ended_before: s.ended_before,
            unfinished: s.unfinished,
            mean_value: round(s.mean_value(), 3),
            mean_final: round(s.mean_final(), 3),
            mean_loss: round(s.mean_loss(), 3),
            mean_mistakes: round(s.mean_mistakes(), 3),
            value_sum: s.value_sum,
            final_sum: s.final_sum,
            loss_sum: s.loss_sum,
            moves: s.moves,
            mistakes: s.mistakes,
            changed_for: s.changed_for,
            changed_against: s.changed_against,
            at_point: s.at_point,
            at_end: s.at_end,
            perfect: s.perfect,
            score: score_json(&s.at_end),
            perfect_score: score_json(&s.perfect),
            elo: elo_json(&s.at_end),
            perfect_elo: elo_json(&s.perfect),
            floor_elo: elo_json(&s.at_point),
        }
    }
}

/// One game: who played it, the exact values from the first audited position, and the moves
/// that lost discs.
#[derive(Serialize)]
struct GameJson<'a> {
    number: usize,
    black: &'a str,
    white: &'a str,
    finished: bool,
    first_empties: u32,
    black_values: &'a [i32],
    losing_moves: Vec<LosingMoveJson>,
    solves: usize,
    nodes: u64,
    ms: f64,
}

#[derive(Serialize)]
struct LosingMoveJson {
    number: usize,
    color: String,
    square: String,
    empties: u32,
    loss: i32,
}

impl<'a> GameJson<'a> {
    fn new(report: &'a AuditReport, index: usize, g: &'a GameAudit) -> GameJson<'a> {
        let name = |i: usize| report.players.get(i).map_or("", String::as_str);
        GameJson {
            number: index + 1,
            black: name(g.black),
            white: name(g.white),
            finished: g.finished,
            first_empties: g.first_empties,
            black_values: &g.black_values,
            losing_moves: g
                .moves
                .iter()
                .filter(|m| m.loss > 0)
                .map(|m| LosingMoveJson {
                    number: m.number,
                    color: color_name(m.color).to_ascii_lowercase(),
                    square: m.square.to_string(),
                    empties: m.empties,
                    loss: m.loss,
                })
                .collect(),
            solves: g.solves,
            nodes: g.nodes,
            ms: round(g.elapsed.as_secs_f64() * 1e3, 1),
        }
    }
}
