//! The audit's reports: a table per audit point (`Display`) and JSON ([`to_json`], output
//! types written by serde_json, as the review's). The fields are documented in
//! `docs/REVIEW.md`.

use std::fmt;

use serde::Serialize;

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
             win/draw/loss changed for/against it."
        )?;
        for point in &self.points {
            writeln!(
                f,
                "{:<width$} {:>6} {:>7} {:>7} {:>7} {:>8} {:>7} {:>7}",
                format!("from {} empties", point.empties),
                "games",
                "value",
                "final",
                "lost",
                "mistakes",
                "for",
                "against",
            )?;
            for (name, s) in self.players.iter().zip(&point.sides) {
                write_row(f, name, s, width)?;
            }
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

/// One player's row.
fn write_row(f: &mut fmt::Formatter<'_>, name: &str, s: &SideAudit, width: usize) -> fmt::Result {
    let name: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    writeln!(
        f,
        "  {name:<w$} {:>6} {:>+7.2} {:>+7.2} {:>7.2} {:>8.2} {:>7} {:>7}",
        s.games,
        s.mean_value(),
        s.mean_final(),
        s.mean_loss(),
        s.mean_mistakes(),
        s.changed_for,
        s.changed_against,
        w = width - 2
    )
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
