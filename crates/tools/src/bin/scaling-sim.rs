//! `scaling-sim`: how the exact solver's search would scale to many processors.
//!
//! Solves each position of an OBF file on one thread, as `othello solve --threads 1` does,
//! while recording the search tree above the parallel search's split depth
//! (`othello_core::search::tree_record`), then replays each recording on 1 to 64 simulated
//! processors as a Young Brothers Wait search (`othello_tools::scaling`, whose docs give the
//! model). Prints the speed-up of the recorded search for each processor count: without and
//! with speculative work, with a cost per split, with two brothers searched before a node is
//! split; then of the whole solve when what was not recorded (the midgame search that gives
//! the first guess, the principal variation found after the value) stays serial; then by
//! split depth.
//! docs/dev/PARALLEL.md has the figures and what they mean.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use othello_core::eval::EngineEval;
use othello_core::obf::parse_obf;
use othello_core::search::tree_record::{self, RECORD_MIN_EMPTIES};
use othello_core::search::Searcher;
use othello_core::time::Instant;
use othello_engine::files;
use othello_tools::scaling::{simulate, SimOptions, Tree};

const USAGE: &str =
    "usage: scaling-sim FILE.obf [--skip N] [--count N] [--split-cost NS] [--hash MB]
Solves the positions of FILE (after skipping N, at most --count of them) on one thread while
recording the search tree, then simulates a Young Brothers Wait search of each recording on
1-64 processors (see docs/dev/PARALLEL.md). --split-cost: nanoseconds each task handed to
another processor pays (default 2000). --hash: the table's size in MiB (default 64).";

/// Processor counts simulated (4096 stands for unbounded: the tree's own limit).
const PROCESSORS: [usize; 8] = [1, 2, 4, 8, 16, 32, 64, 4096];
/// Split depths of the granularity table, and its processor counts.
const SPLIT_MINS: [u8; 4] = [12, 14, 16, 18];
const COARSE_PROCESSORS: [usize; 4] = [4, 16, 64, 4096];
/// Largest OBF file read (an FFO file is a few kilobytes).
const MAX_OBF_BYTES: u64 = 64 << 20;

struct Args {
    file: PathBuf,
    skip: usize,
    count: usize,
    split_cost: u64,
    hash_mb: usize,
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut parsed = Args {
        file: PathBuf::new(),
        skip: 0,
        count: usize::MAX,
        split_cost: 2000,
        hash_mb: 64,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            let v = args
                .next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))?;
            v.parse()
                .map_err(|_| format!("{name} {v}: not a whole number\n{USAGE}"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--skip" => parsed.skip = value("--skip")? as usize,
            "--count" => parsed.count = value("--count")? as usize,
            "--split-cost" => parsed.split_cost = value("--split-cost")?,
            "--hash" => {
                parsed.hash_mb = value("--hash")? as usize;
                if !(1..=65536).contains(&parsed.hash_mb) {
                    return Err(format!("--hash {}: 1 to 65536 MiB", parsed.hash_mb));
                }
            }
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ if file.is_none() => file = Some(PathBuf::from(arg)),
            _ => return Err(format!("one OBF file only\n{USAGE}")),
        }
    }
    parsed.file = file.ok_or_else(|| USAGE.to_string())?;
    Ok(Some(parsed))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scaling-sim: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The error of a write to stdout (a closed pipe, a full disk).
fn output(e: std::io::Error) -> String {
    format!("stdout: {e}")
}

/// The sums over the positions of one simulated setting.
#[derive(Default, Clone, Copy)]
struct Sums {
    makespan: u64,
    wasted: u64,
}

fn run() -> Result<(), String> {
    let Some(args) = parse_args()? else {
        println!("{USAGE}");
        return Ok(());
    };
    let mut o = std::io::stdout().lock();
    let bytes = files::read(&args.file, MAX_OBF_BYTES).map_err(|e| e.to_string())?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", args.file.display()))?;
    let entries = parse_obf(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let entries: Vec<_> = entries
        .into_iter()
        .skip(args.skip)
        .take(args.count)
        .collect();
    if entries.is_empty() {
        return Err(format!("{}: no position to solve", args.file.display()));
    }
    let mut searcher = Searcher::try_new(EngineEval::default(), args.hash_mb)
        .map_err(|e| format!("--hash {}: {e}", args.hash_mb))?;
    searcher.set_threads(1);
    let first = RECORD_MIN_EMPTIES as u8;
    // The main table: every processor count at the solver's split depth, three models.
    let models = [
        (false, 0u64, 1u8, "ideal"),
        (true, 0, 1, "speculative"),
        (true, args.split_cost, 1, "speculative + split cost"),
        (true, args.split_cost, 2, "the same, two serial"),
    ];
    let mut runs: Vec<SimOptions> = Vec::new();
    for &processors in &PROCESSORS {
        for &(speculate, split_cost, serial_brothers, _) in &models {
            runs.push(SimOptions {
                processors,
                speculate,
                split_cost,
                serial_brothers,
                split_min: first,
            });
        }
    }
    // The granularity table: deeper split depths, speculative + split cost.
    let coarse: Vec<(u8, usize)> = SPLIT_MINS
        .iter()
        .flat_map(|&m| COARSE_PROCESSORS.iter().map(move |&p| (m, p)))
        .collect();
    for &(split_min, processors) in &coarse {
        runs.push(SimOptions {
            processors,
            speculate: true,
            split_cost: args.split_cost,
            serial_brothers: 1,
            split_min,
        });
    }
    let mut sums = vec![Sums::default(); runs.len()];
    let (mut whole, mut serial, mut recorded_nodes, mut nodes) = (0u64, 0u64, 0usize, 0u64);
    writeln!(
        o,
        "{:>4} {:>3} {:>10} {:>12} {:>10} {:>9} {:>8} {:>8} {:>8}",
        "#", "emp", "score", "nodes", "recorded", "solve s", "recorded", "16 ideal", "inf"
    )
    .map_err(output)?;
    for (i, entry) in entries.iter().enumerate() {
        let board = &entry.position.board;
        tree_record::start();
        let start = Instant::now();
        let result = searcher.solve(board, false, &mut ());
        let elapsed = start.elapsed().as_nanos() as u64;
        let tree = Tree::new(tree_record::finish()).map_err(|e| e.to_string())?;
        let tree_serial = tree.serial();
        let mut alone = [0.0; 2];
        for (k, run) in runs.iter().enumerate() {
            let r = simulate(&tree, *run);
            let sum = &mut sums[k];
            sum.makespan += r.makespan;
            sum.wasted += r.wasted;
            if !run.speculate && run.split_min == first && run.serial_brothers == 1 {
                match run.processors {
                    16 => alone[0] = r.speedup(),
                    4096 => alone[1] = r.speedup(),
                    _ => {}
                }
            }
        }
        writeln!(
            o,
            "{:>4} {:>3} {:>10} {:>12} {:>10} {:>9.3} {:>7.1}% {:>7.2}x {:>7.2}x",
            i + 1 + args.skip,
            board.empty_count(),
            format!("{:?}", result.value),
            result.nodes,
            tree.len(),
            elapsed as f64 / 1e9,
            100.0 * tree_serial as f64 / elapsed.max(1) as f64,
            alone[0],
            alone[1]
        )
        .map_err(output)?;
        whole += elapsed;
        serial += tree_serial;
        recorded_nodes += tree.len();
        nodes += result.nodes;
    }
    let outside = whole.saturating_sub(serial);
    let label = |p: usize| {
        if p == 4096 {
            "inf".to_string()
        } else {
            p.to_string()
        }
    };
    writeln!(
        o,
        "\n{} positions, {nodes} nodes, {recorded_nodes} recorded nodes; solve {:.3} s, of which \
         {:.1}% in the recorded nodes (the rest stays serial in the last column)",
        entries.len(),
        whole as f64 / 1e9,
        100.0 * serial as f64 / whole.max(1) as f64
    )
    .map_err(output)?;
    writeln!(
        o,
        "\nSpeed-up (and work wasted, against the serial work), split from {first} empties:"
    )
    .map_err(output)?;
    write!(o, "{:>5}", "P").map_err(output)?;
    for (_, _, _, name) in &models {
        write!(o, "  {name:>24} {:>7}", "waste").map_err(output)?;
    }
    writeln!(o, "  {:>12}", "whole solve").map_err(output)?;
    for (k, &processors) in PROCESSORS.iter().enumerate() {
        write!(o, "{:>5}", label(processors)).map_err(output)?;
        for sum in &sums[k * models.len()..(k + 1) * models.len()] {
            write!(
                o,
                "  {:>23.2}x {:>6.1}%",
                serial as f64 / sum.makespan.max(1) as f64,
                100.0 * sum.wasted as f64 / serial.max(1) as f64
            )
            .map_err(output)?;
        }
        let last = sums[k * models.len() + 2];
        writeln!(
            o,
            "  {:>11.2}x",
            whole as f64 / (outside + last.makespan).max(1) as f64
        )
        .map_err(output)?;
    }
    writeln!(o, "\nSpeed-up by split depth (speculative + split cost):").map_err(output)?;
    write!(o, "{:>10}", "split from").map_err(output)?;
    for &p in &COARSE_PROCESSORS {
        write!(o, " {:>7}", format!("P={}", label(p))).map_err(output)?;
    }
    writeln!(o).map_err(output)?;
    let base = PROCESSORS.len() * models.len();
    for (m, &split_min) in SPLIT_MINS.iter().enumerate() {
        write!(o, "{split_min:>10}").map_err(output)?;
        for k in 0..COARSE_PROCESSORS.len() {
            let sum = sums[base + m * COARSE_PROCESSORS.len() + k];
            write!(o, " {:>6.2}x", serial as f64 / sum.makespan.max(1) as f64).map_err(output)?;
        }
        writeln!(o).map_err(output)?;
    }
    Ok(())
}
