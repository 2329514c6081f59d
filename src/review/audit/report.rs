//! The audit's reports: a table per audit point (`Display`) and JSON ([`to_json`], with the
//! review's hand-written writer). The fields are documented in `docs/REVIEW.md`.

use std::fmt;

use super::super::color_name;
use super::super::json::{round, JsonWriter};
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

/// The report as a JSON object, ending with a newline (fields in `docs/REVIEW.md`).
pub fn to_json(report: &AuditReport) -> String {
    let mut w = JsonWriter::default();
    w.begin_object();
    w.key("players");
    w.begin_array();
    for name in &report.players {
        w.string(name);
    }
    w.end_array();
    w.key("points");
    w.begin_array();
    for p in &report.points {
        w.number(i64::from(p.empties));
    }
    w.end_array();
    w.key("jobs");
    w.number(report.jobs as i64);
    w.key("hash_mb");
    w.number(report.hash_mb as i64);
    w.key("elapsed_s");
    w.float(round(report.elapsed.as_secs_f64(), 3));
    w.key("positions");
    w.number(report.positions() as i64);
    w.key("solves");
    w.number(report.solves() as i64);
    w.key("nodes");
    w.number(report.nodes() as i64);
    w.key("by_point");
    w.begin_array();
    for point in &report.points {
        w.begin_object();
        w.key("empties");
        w.number(i64::from(point.empties));
        w.key("sides");
        w.begin_array();
        for (name, s) in report.players.iter().zip(&point.sides) {
            write_side(&mut w, name, s);
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.key("games");
    w.begin_array();
    for (i, g) in report.games.iter().enumerate() {
        write_game(&mut w, report, i, g);
    }
    w.end_array();
    w.end_object();
    w.finish()
}

/// One player's figures at one point.
fn write_side(w: &mut JsonWriter, name: &str, s: &SideAudit) {
    w.begin_object();
    w.key("player");
    w.string(name);
    for (key, n) in [
        ("games", s.games),
        ("ended_before", s.ended_before),
        ("unfinished", s.unfinished),
    ] {
        w.key(key);
        w.number(n as i64);
    }
    for (key, x) in [
        ("mean_value", s.mean_value()),
        ("mean_final", s.mean_final()),
        ("mean_loss", s.mean_loss()),
        ("mean_mistakes", s.mean_mistakes()),
    ] {
        w.key(key);
        w.float(round(x, 3));
    }
    for (key, n) in [
        ("value_sum", s.value_sum),
        ("final_sum", s.final_sum),
        ("loss_sum", s.loss_sum),
        ("moves", s.moves as i64),
        ("mistakes", s.mistakes as i64),
        ("changed_for", s.changed_for as i64),
        ("changed_against", s.changed_against as i64),
    ] {
        w.key(key);
        w.number(n);
    }
    for (key, o) in [("at_point", s.at_point), ("at_end", s.at_end)] {
        w.key(key);
        write_outcomes(w, &o);
    }
    w.end_object();
}

fn write_outcomes(w: &mut JsonWriter, o: &Outcomes) {
    w.begin_object();
    for (key, n) in [("wins", o.wins), ("draws", o.draws), ("losses", o.losses)] {
        w.key(key);
        w.number(n as i64);
    }
    w.end_object();
}

/// One game: who played it, the exact values from the first audited position, and the moves
/// that lost discs.
fn write_game(w: &mut JsonWriter, report: &AuditReport, index: usize, g: &GameAudit) {
    let name = |i: usize| report.players.get(i).map_or("", String::as_str);
    w.begin_object();
    w.key("number");
    w.number(index as i64 + 1);
    w.key("black");
    w.string(name(g.black));
    w.key("white");
    w.string(name(g.white));
    w.key("finished");
    w.bool(g.finished);
    w.key("first_empties");
    w.number(i64::from(g.first_empties));
    w.key("black_values");
    w.begin_array();
    for &v in &g.black_values {
        w.number(i64::from(v));
    }
    w.end_array();
    w.key("losing_moves");
    w.begin_array();
    for m in g.moves.iter().filter(|m| m.loss > 0) {
        w.begin_object();
        w.key("number");
        w.number(m.number as i64);
        w.key("color");
        w.string(&color_name(m.color).to_ascii_lowercase());
        w.key("square");
        w.string(&m.square.to_string());
        w.key("empties");
        w.number(i64::from(m.empties));
        w.key("loss");
        w.number(i64::from(m.loss));
        w.end_object();
    }
    w.end_array();
    w.key("solves");
    w.number(g.solves as i64);
    w.key("nodes");
    w.number(g.nodes as i64);
    w.key("ms");
    w.float(round(g.elapsed.as_secs_f64() * 1e3, 1));
    w.end_object();
}
