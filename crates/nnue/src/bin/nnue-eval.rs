//! `nnue-eval`: the network's mean absolute error against exact scores (OBF files), by empties,
//! beside a pattern weight file's.

use std::path::PathBuf;
use std::process::ExitCode;

use othello_core::eval::Evaluator;
use othello_nnue::eval::{mae_by_band, obf_samples, Errors, BANDS};

const USAGE: &str = "usage: nnue-eval NET.nnue [--linear PATTERN.bin]... FILE.obf...
Prints the MAE (discs) of the network (and of each --linear pattern weight file) on the OBF
files' exact scores, by empties band and by number of empties.";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue-eval: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut nets: Vec<PathBuf> = Vec::new();
    let mut linear: Vec<PathBuf> = Vec::new();
    let mut obf: Vec<PathBuf> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            "--linear" => linear.push(PathBuf::from(args.next().ok_or("--linear needs a file")?)),
            _ if a.ends_with(".obf") => obf.push(PathBuf::from(a)),
            _ => nets.push(PathBuf::from(a)),
        }
    }
    if obf.is_empty() || (nets.is_empty() && linear.is_empty()) {
        return Err(USAGE.into());
    }
    let samples = obf_samples(&obf)?;
    let mut rows: Vec<(String, Errors, Errors)> = Vec::new();
    for path in &linear {
        let eval = othello_engine::weights::engine_eval_from_file(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let (b, e) = mae_by_band(&samples, |p, o| {
            eval.evaluate(&othello_core::Board::from_bits_unchecked(p, o)) as f64 / 100.0
        });
        rows.push((path.display().to_string(), b, e));
    }
    for path in &nets {
        let net =
            othello_nnue::load_weights(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let t = std::time::Instant::now();
        // A network with a base corrects the embedded pattern weights: its value adds theirs.
        let base = othello_core::eval::nnue::file::base_for(net.params.base)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let (b, e) = mae_by_band(&samples, |p, o| {
            let base = base.as_ref().map_or(0.0, |b| {
                b.evaluate(&othello_core::Board::from_bits_unchecked(p, o)) as f64 / 100.0
            });
            net.evaluate(p, o) as f64 + base
        });
        let per = t.elapsed().as_secs_f64() / samples.len().max(1) as f64;
        println!(
            "{}: float reference {:.2} us per evaluation from scratch (features, mobility, forward)",
            path.display(),
            per * 1e6
        );
        rows.push((path.display().to_string(), b, e));
    }
    println!(
        "{} samples (positions and their children, exact values)",
        samples.len()
    );
    print!("{:<40}", "evaluator");
    for (_, _, name) in BANDS {
        print!(" {name:>12}");
    }
    println!();
    for (name, bands, _) in &rows {
        print!("{name:<40}");
        for (c, m) in bands {
            print!(" {:>12}", format!("{m:.3} ({c})"));
        }
        println!();
    }
    println!("\nby empties:");
    print!("{:>7}", "empties");
    for (name, _, _) in &rows {
        // The file name and its directory's (several runs' best.nnue side by side).
        let path = std::path::Path::new(name);
        let last = |p: &std::path::Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let short = match path.parent() {
            Some(d) if !last(d).is_empty() => format!("{}/{}", last(d), last(path)),
            _ => last(path),
        };
        print!(" {short:>24}");
    }
    println!();
    for e in 0..=64 {
        if rows.first().map(|r| r.2[e].0).unwrap_or(0) == 0 {
            continue;
        }
        print!("{e:>7}");
        for (_, _, by) in &rows {
            print!(" {:>24}", format!("{:.3} ({})", by[e].1, by[e].0));
        }
        println!();
    }
    Ok(())
}
