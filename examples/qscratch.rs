// scratch: quality at depths with a selectivity (not committed)
use othello::eval::EngineEval;
use othello::obf::parse_obf;
use othello::search::{Limits, Searcher, SelectivitySetting};
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let entries = parse_obf(&text).unwrap();
    let sel: SelectivitySetting = a[2].parse().unwrap();
    let depths: Vec<u32> = a[3].split(',').map(|d| d.parse().unwrap()).collect();
    let mut s = Searcher::new(EngineEval::default(), 64);
    s.set_selectivity(sel.0);
    for d in depths {
        let (mut best, mut loss, mut nodes) = (0, 0i64, 0u64);
        let t0 = Instant::now();
        for e in &entries {
            s.clear();
            let r = s.search(
                &e.position.board,
                &Limits {
                    depth: Some(d),
                    ..Limits::default()
                },
                &mut (),
            );
            let sc = e.score_of(r.best).unwrap();
            let b = e.best_score().unwrap();
            if sc == b {
                best += 1;
            }
            loss += (b - sc) as i64;
            nodes += r.nodes;
        }
        let n = entries.len() as f64;
        println!(
            "sel {} depth {d}: best {:.1}% loss {:.3} nodes/pos {:.0} ms/pos {:.1}",
            sel,
            100.0 * best as f64 / n,
            loss as f64 / n,
            nodes as f64 / n,
            t0.elapsed().as_secs_f64() * 1000.0 / n
        );
    }
}
