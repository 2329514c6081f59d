//! A match's summary as JSON, for scripts (`othello match --json`; fields in
//! `docs/COMMANDS.md`): the numbers of the [`MatchSummary`] table, taken from the same
//! methods, at full precision, and the audit's summary when the match was audited.
//!
//! JSON has no infinity: an infinite Elo (a score of 0% or 100%, or an interval end beyond
//! them) is written `null`, as is the Elo when no pair was played.

use serde::Serialize;

use crate::review::audit::{AuditReport, AuditSummaryJson};

use super::stats::SprtDecision;
use super::summary::{MatchSummary, Record};

/// The summary (and the audit's, if given) as one JSON object on one line, with a newline.
pub fn match_json(summary: &MatchSummary, audit: Option<&AuditReport>) -> String {
    let elo = summary.elo();
    // `+ 0.0` turns the -0 of an even score into 0.
    let finite = |x: f64| x.is_finite().then_some(x + 0.0);
    let json = MatchJson {
        a: &summary.a,
        b: &summary.b,
        total: RecordJson::new(&summary.total),
        pairs: summary.pentanomial.pairs(),
        as_black: RecordJson::new(&summary.as_black),
        as_white: RecordJson::new(&summary.as_white),
        elo: elo.and_then(|e| finite(e.elo)),
        elo_lower: elo.and_then(|e| finite(e.lower)),
        elo_upper: elo.and_then(|e| finite(e.upper)),
        pentanomial: summary.pentanomial.counts,
        sprt: summary.sprt.map(|(sprt, state)| SprtJson {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr: state.llr,
            lower: state.lower,
            upper: state.upper,
            decision: match state.decision {
                SprtDecision::Continue => "continue",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::AcceptH1 => "H1",
            },
        }),
        forfeits: summary.faults.values().sum(),
        faults: summary
            .faults
            .iter()
            .map(|((player, kind), &games)| FaultJson {
                player,
                kind,
                games,
            })
            .collect(),
        most_time_used: summary
            .most_time_used
            .map(|(used_s, allowed_s)| TimeUsedJson { used_s, allowed_s }),
        clock_use: summary.clock_use.mean().map(|mean| ClockUseJson {
            sides: summary.clock_use.count,
            mean,
            min: summary.clock_use.min,
        }),
        audit: audit.map(AuditSummaryJson::new),
    };
    // Strings, numbers, booleans and sequences only: nothing that can fail to serialize.
    let mut line = serde_json::to_string(&json).expect("the output types always serialize");
    line.push('\n');
    line
}

/// The whole summary, from A's point of view.
#[derive(Serialize)]
struct MatchJson<'a> {
    a: &'a str,
    b: &'a str,
    /// All games: `games`, `wins`, `draws`, `losses`, `score_percent`, `mean_discs`.
    #[serde(flatten)]
    total: RecordJson,
    pairs: u64,
    as_black: RecordJson,
    as_white: RecordJson,
    elo: Option<f64>,
    elo_lower: Option<f64>,
    elo_upper: Option<f64>,
    pentanomial: [u64; 5],
    sprt: Option<SprtJson>,
    forfeits: u64,
    faults: Vec<FaultJson<'a>>,
    most_time_used: Option<TimeUsedJson>,
    clock_use: Option<ClockUseJson>,
    audit: Option<AuditSummaryJson<'a>>,
}

/// Wins, draws and losses of A, with its score and mean disc difference.
#[derive(Serialize)]
struct RecordJson {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score_percent: f64,
    mean_discs: f64,
}

impl RecordJson {
    fn new(r: &Record) -> RecordJson {
        RecordJson {
            games: r.games(),
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            score_percent: 100.0 * r.score(),
            mean_discs: r.average_discs(),
        }
    }
}

#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    decision: &'static str,
}

/// Games lost by one player for one kind of fault.
#[derive(Serialize)]
struct FaultJson<'a> {
    player: &'a str,
    kind: &'a str,
    games: u64,
}

#[derive(Serialize)]
struct TimeUsedJson {
    used_s: f64,
    allowed_s: f64,
}

#[derive(Serialize)]
struct ClockUseJson {
    sides: u64,
    mean: f64,
    min: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::Pentanomial;

    #[test]
    fn the_table_numbers_are_written_and_infinities_are_null() {
        let mut s = MatchSummary::new("a", "b", None);
        for margin in [10, 0, -4] {
            s.total.add(margin);
        }
        s.as_black.add(10);
        s.pentanomial = Pentanomial {
            counts: [0, 0, 0, 0, 1],
        };
        s.faults.insert(("b".to_string(), "time"), 2);
        let json: serde_json::Value = serde_json::from_str(&match_json(&s, None)).unwrap();
        assert_eq!(json["games"], 3);
        assert_eq!(json["wins"], 1);
        assert_eq!(json["draws"], 1);
        assert_eq!(json["losses"], 1);
        assert_eq!(json["score_percent"], 50.0);
        assert_eq!(json["mean_discs"], 2.0);
        assert_eq!(json["as_black"]["games"], 1);
        assert_eq!(json["pairs"], 1);
        // One pair won 2-0: +inf, and Wilson's interval for one pair: a finite lower end,
        // 1 / (1 + 1.96²) = 0.2065, -233 Elo.
        let lower = json["elo_lower"].as_f64().unwrap();
        assert!((lower + 233.0).abs() < 1.0, "{lower}");
        for key in ["elo", "elo_upper", "sprt", "audit", "clock_use"] {
            assert_eq!(json.get(key), Some(&serde_json::Value::Null), "{key}");
        }
        assert_eq!(json["forfeits"], 2);
        assert_eq!(
            json["faults"],
            serde_json::json!([{"player": "b", "kind": "time", "games": 2}])
        );
        assert!(match_json(&s, None).ends_with("}\n"));
        assert_eq!(match_json(&s, None).lines().count(), 1);
    }
}
