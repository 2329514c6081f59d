//! `nnue-train`: trains (or resumes training) the network. See the crate's README.md.

use std::path::PathBuf;
use std::process::ExitCode;

use othello_core::eval::pattern::geometry::PATTERNS;
use othello_nnue::train::{run, Config};

const USAGE: &str =
    "usage: nnue-train [--data DIR] [--dir DIR] [--hidden 64] [--l2 32] [--buckets 8]
       [--batch 4096] [--lr 1e-3] [--decay 0.85] [--epochs 20] [--patience 3] [--valid 0.02]
       [--fraction 1.0] [--wd 0] [--min-empties 0] [--epoch-samples 0] [--seed 1] [--threads 2]
       [--drop-shapes NAME,...] [--factor on|off] [--dedupe on|off] [--clip on|off] [--base PATTERN.bin]
       [--sibling 0] [--init NET.nnue] [--outcome 0]
Reads every OthData1 file of --data (default /work/nnue-data/raw), writes train.log, ckpt/ and
best.nnue under --dir (default /work/nnue-data). Re-running the same command resumes from
DIR/ckpt/last.ckpt. With --base, the network learns the labels' residuals over those pattern
weights (it is written as a correction of them: the engine adds the two). With --dedupe on, a
record that repeats an earlier record's position and label is dropped. With --clip on (the
default), the embedding is kept within the engine's i8 range (+-127/256) during training, so
every written network packs. --sibling L adds L times the squared error of the difference of
each pair of siblings (a deviation and the move its game played, from the deviations files
nX... beside their positions files nX...). --init starts from the weights of NET (fine-tuning). --outcome W mixes the game's outcome (its
first exact label, from the position's side) into the search labels of the positions files
with weight W.";

fn parse() -> Result<Config, String> {
    let mut c = Config {
        data: PathBuf::from("/work/nnue-data/raw"),
        dir: PathBuf::from("/work/nnue-data"),
        hidden: 64,
        l2: 32,
        buckets: 8,
        batch: 4096,
        lr: 1e-3,
        decay: 0.85,
        epochs: 20,
        patience: 3,
        valid: 0.02,
        fraction: 1.0,
        wd: 0.0,
        min_empties: 0,
        epoch_samples: 0,
        seed: 1,
        threads: 2,
        dropped: Vec::new(),
        factor: false,
        dedupe: false,
        clip: true,
        base: None,
        sibling: 0.0,
        init: None,
        outcome: 0.0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "-h" || a == "--help" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let v = args
            .next()
            .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))?;
        let num = |v: &str| {
            v.parse::<f64>()
                .map_err(|_| format!("{a}: not a number: {v}"))
        };
        let int = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{a}: not an integer: {v}"))
        };
        match a.as_str() {
            "--data" => c.data = PathBuf::from(v),
            "--dir" => c.dir = PathBuf::from(v),
            "--hidden" => c.hidden = int(&v)?,
            "--l2" => c.l2 = int(&v)?,
            "--buckets" => c.buckets = int(&v)?,
            "--batch" => c.batch = int(&v)?,
            "--lr" => c.lr = num(&v)?,
            "--decay" => c.decay = num(&v)?,
            "--epochs" => c.epochs = int(&v)?,
            "--patience" => c.patience = int(&v)?,
            "--valid" => c.valid = num(&v)?,
            "--fraction" => c.fraction = num(&v)?,
            "--base" => c.base = Some(PathBuf::from(v)),
            "--init" => c.init = Some(PathBuf::from(v)),
            "--outcome" => {
                c.outcome = num(&v)?;
                if !(0.0..=1.0).contains(&c.outcome) {
                    return Err(format!("--outcome: a weight from 0 to 1, not {v}"));
                }
            }
            "--sibling" => {
                c.sibling = num(&v)?;
                if !(0.0..=100.0).contains(&c.sibling) {
                    return Err(format!("--sibling: a weight from 0 to 100, not {v}"));
                }
            }
            "--wd" => c.wd = num(&v)?,
            "--min-empties" => c.min_empties = int(&v)? as u32,
            "--epoch-samples" => c.epoch_samples = int(&v)?,
            "--seed" => c.seed = int(&v)? as u64,
            "--threads" => c.threads = int(&v)?,
            "--factor" => {
                c.factor = match v.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--factor: on or off, not {v:?}")),
                }
            }
            "--dedupe" => {
                c.dedupe = match v.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--dedupe: on or off, not {v:?}")),
                }
            }
            "--clip" => {
                c.clip = match v.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--clip: on or off, not {v:?}")),
                }
            }
            "--drop-shapes" => {
                for name in v.split(',').filter(|n| !n.is_empty()) {
                    let shape = PATTERNS
                        .iter()
                        .position(|p| p.name == name)
                        .ok_or_else(|| {
                            let names: Vec<&str> = PATTERNS.iter().map(|p| p.name).collect();
                            format!(
                                "--drop-shapes: no shape {name:?} (shapes: {})",
                                names.join(", ")
                            )
                        })?;
                    if !c.dropped.contains(&shape) {
                        c.dropped.push(shape);
                    }
                }
                c.dropped.sort_unstable();
            }
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    if c.hidden == 0 || c.hidden > 1024 || c.l2 == 0 || c.l2 > 256 || !(1..=61).contains(&c.buckets)
    {
        return Err("bad dimensions (H 1-1024, L2 1-256, buckets 1-61)".into());
    }
    if c.factor && !c.dropped.is_empty() {
        return Err("--factor on and --drop-shapes cannot be combined".into());
    }
    if c.batch == 0 || c.threads == 0 || c.patience == 0 {
        return Err("--batch, --threads and --patience must be positive".into());
    }
    Ok(c)
}

fn main() -> ExitCode {
    // The trainer's progress lines come through `log` (info); RUST_LOG quiets them.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .format_target(false)
        .format_level(false)
        .init();
    let result = parse().and_then(|c| run(&c));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue-train: {e}");
            ExitCode::FAILURE
        }
    }
}
