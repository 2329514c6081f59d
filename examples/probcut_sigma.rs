//! Calibrates endgame ProbCut: how far a depth-`d` midgame search strays from the exact score.
//!
//! For self-play positions at 10 to 24 empties (from a data file written by `othello selfplay`),
//! prints the mean and standard deviation (in discs) of `midgame(depth d) - exact` for each
//! number of empties and each depth `d` in 0..=8. `crates/core/src/search/probcut/endgame.rs` models that
//! deviation; rerun this after changing the evaluator.
//!
//! With the default 40 positions per count this takes about half an hour on one core.
//!
//! ```text
//! cargo run --release --example probcut_sigma -- data/sp1.dat [positions per empties count]
//! ```

use std::path::PathBuf;

use othello::eval::EngineEval;
use othello::learn::data::read_records;
use othello::search::midgame::Midgame;
use othello::search::tt::TranspositionTable;
use othello::search::{Context, Searcher, Stopper, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().ok_or("usage: probcut_sigma DATA [PER]")?);
    let per: usize = args.next().map_or(Ok(40), |s| s.parse())?;
    let data = read_records(&path)?;
    let eval = EngineEval::default();
    let mut solver = Searcher::new(eval.clone(), 64);
    let mut tt = TranspositionTable::new(1);
    println!("empties depth count mean sigma");
    for empties in 10..=24u32 {
        // Spread the sample over the file: every k-th position with this many empties.
        let matching: Vec<_> = data
            .records
            .iter()
            .filter(|r| r.board.empty_count() == empties && r.board.moves() != 0)
            .collect();
        let step = (matching.len() / per).max(1);
        let sample: Vec<_> = matching.iter().step_by(step).take(per).collect();
        let exact: Vec<i32> = sample
            .iter()
            .map(|r| match solver.solve(&r.board, false, &mut ()).value {
                Value::Exact(v) => v,
                other => panic!("solve gave {other:?}"),
            })
            .collect();
        for depth in 0..=8u32 {
            let mut sum = 0.0;
            let mut sum2 = 0.0;
            for (r, &x) in sample.iter().zip(&exact) {
                tt.clear();
                let mut stopper = Stopper::unlimited();
                let mut cx = Context::new(&eval, &tt, &mut stopper);
                let mut search = Midgame::new(&mut cx, 0);
                let (p, o) = (r.board.player(), r.board.opponent());
                let v = search.pvs(p, o, -30_000, 30_000, depth, false) as f64 / 100.0;
                let d = v - x as f64;
                sum += d;
                sum2 += d * d;
            }
            let n = sample.len() as f64;
            let mean = sum / n;
            let sigma = (sum2 / n - mean * mean).max(0.0).sqrt();
            println!("{empties} {depth} {} {mean:.2} {sigma:.2}", sample.len());
        }
    }
    Ok(())
}
