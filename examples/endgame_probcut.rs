//! Measures endgame ProbCut models against exact scores: for each position of a held-out
//! samples file (written by `othello calibrate --endgame`, which records each position's exact
//! score and a best move), runs the selective passes a solve runs (presearch, then 73%, 87%,
//! 95% and 98% in turn, one thread, a fresh 64 MiB table) with each model, and prints per
//! level the share of passes whose value is the exact score, the share whose move is an
//! optimal move (a move other than the recorded one is checked by solving the position after
//! it), the mean error and the passes' nodes.
//!
//! ```text
//! cargo run --release --example endgame_probcut -- HELDOUT MODEL... [--count N]
//! ```
//!
//! A MODEL is a `.mpc` file, `legacy` (the formula used before calibration: no `end` lines)
//! or `default` (the embedded model).

use std::collections::HashMap;
use std::path::PathBuf;

use othello::eval::EngineEval;
use othello::learn::endcal::{read_end_samples_file, EndSample};
use othello::search::probcut::model::end::{selective_passes, LEVELS};
use othello::search::probcut::model::MpcModel;
use othello::search::tt::TranspositionTable;
use othello::search::{Searcher, Value};
use othello::square::Square;

/// Totals of one model at one level.
#[derive(Default, Clone, Copy)]
struct Tally {
    positions: u32,
    right_value: u32,
    right_move: u32,
    abs_error: u64,
    nodes: u64,
    cumulative: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut count = usize::MAX;
    if let Some(i) = args.iter().position(|a| a == "--count") {
        count = args.get(i + 1).ok_or("--count N")?.parse()?;
        args.drain(i..i + 2);
    }
    let (heldout, names) = args
        .split_first()
        .ok_or("usage: endgame_probcut HELDOUT MODEL... [--count N]")?;
    let mut models = Vec::new();
    for name in names {
        models.push(match name.as_str() {
            "legacy" => MpcModel::empty(),
            "default" => MpcModel::default(),
            path => MpcModel::parse(&std::fs::read_to_string(path)?)
                .map_err(|e| format!("{path}: {e}"))?,
        });
    }
    let samples = read_end_samples_file(&PathBuf::from(heldout))?;
    let samples: Vec<&EndSample> = samples.iter().take(count).collect();
    let eval = EngineEval::default();
    let mut tt = TranspositionTable::new(64);
    let mut solver = Searcher::new(eval.clone(), 64);
    let mut optimal: HashMap<(usize, Square), bool> = HashMap::new();
    let mut tallies = vec![[Tally::default(); 4]; models.len()];
    let mut presearch = vec![0u64; models.len()];
    for s in &samples {
        for (m, model) in models.iter().enumerate() {
            let (pre, passes) = selective_passes(&eval, model, &mut tt, &s.board, &LEVELS);
            presearch[m] += pre;
            let mut cumulative = pre;
            for (k, pass) in passes.iter().enumerate() {
                cumulative += pass.nodes;
                let right_move = match pass.best {
                    Some(sq) if sq == s.best => true,
                    Some(sq) => *optimal.entry((s.index, sq)).or_insert_with(|| {
                        match solver.solve(&s.board.play(sq), false, &mut ()).value {
                            Value::Exact(v) => -v == s.exact,
                            _ => false,
                        }
                    }),
                    None => false,
                };
                let t = &mut tallies[m][k];
                t.positions += 1;
                t.right_value += (pass.value == s.exact) as u32;
                t.right_move += right_move as u32;
                t.abs_error += pass.value.abs_diff(s.exact) as u64;
                t.nodes += pass.nodes;
                t.cumulative += cumulative;
            }
        }
    }
    println!(
        "{} positions, {}..={} empties",
        samples.len(),
        samples
            .iter()
            .map(|s| s.board.empty_count())
            .min()
            .unwrap_or(0),
        samples
            .iter()
            .map(|s| s.board.empty_count())
            .max()
            .unwrap_or(0)
    );
    println!("model | level | right value | right move | mean error | pass nodes | nodes to here");
    for (m, name) in names.iter().enumerate() {
        for (k, t) in tallies[m].iter().enumerate() {
            let n = t.positions.max(1) as f64;
            println!(
                "{name} | {} | {:.1}% | {:.1}% | {:.2} | {} | {}",
                LEVELS[k],
                100.0 * t.right_value as f64 / n,
                100.0 * t.right_move as f64 / n,
                t.abs_error as f64 / n,
                t.nodes,
                t.cumulative
            );
        }
        println!("{name} | presearch | | | | {} |", presearch[m]);
    }
    Ok(())
}
