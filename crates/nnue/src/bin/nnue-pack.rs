//! `nnue-pack`: a network file in the shipping form (version 2, the embedding in `i8`).
//!
//! The engine quantises the embedding to `i8` when it reads a version 1 (`f32`) file, so the
//! packed file evaluates exactly as its source does in the engine, at a quarter of the size.
//! The output is written atomically and may not be the input.

use std::path::PathBuf;
use std::process::ExitCode;

use othello_core::eval::nnue::{FloatNet, NnueEval};
use othello_engine::files;

const USAGE: &str = "usage: nnue-pack IN.nnue OUT.nnue
Writes IN (a network file of either version) as a version 2 file: the embedding in i8, as the
engine evaluates it. OUT is written atomically and may not be IN.";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue-pack: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return Ok(());
    }
    let [input, output] = args.as_slice() else {
        return Err(USAGE.into());
    };
    let (input, output) = (PathBuf::from(input), PathBuf::from(output));
    files::check_output(&output, &[&input]).map_err(|e| e.to_string())?;
    let bytes = files::read(&input, othello_core::eval::nnue::file::MAX_FILE_LEN as u64)
        .map_err(|e| e.to_string())?;
    let net = FloatNet::from_bytes(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
    // Refuse what the engine would refuse (weights beyond the quantised ranges).
    net.quantise()
        .map_err(|e| format!("{}: {e}", input.display()))?;
    let packed = net.to_packed_bytes();
    NnueEval::from_bytes(&packed).map_err(|e| format!("packed form refused: {e}"))?;
    files::write_atomically(&output, &packed).map_err(|e| e.to_string())?;
    eprintln!(
        "nnue-pack: {} ({} bytes) -> {} ({} bytes)",
        input.display(),
        bytes.len(),
        output.display(),
        packed.len()
    );
    Ok(())
}
