//! `nnue-average`: the mean of several networks of one training run, weight by weight.
//!
//! Averaging the checkpoints of the last epochs of one run (stochastic weight averaging)
//! gives a network nearer the middle of the region the optimiser wanders in at its final
//! learning rates, which often generalises better than any one of them. The networks must
//! share their dimensions and should come from one run: networks trained apart do not
//! average meaningfully. The output (`f32`, version 1) is written atomically and may not be
//! one of the inputs.

use std::path::PathBuf;
use std::process::ExitCode;

use othello_engine::files;
use othello_nnue::file::{read_weights, weights_bytes};

const USAGE: &str = "usage: nnue-average OUT.nnue IN.nnue IN.nnue...
Writes the weight-by-weight mean of the IN networks (two or more, one architecture, version 1
files as the trainer writes them) to OUT, atomically; OUT may not be an input.";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue-average: {e}");
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
    let [output, inputs @ ..] = args.as_slice() else {
        return Err(USAGE.into());
    };
    if inputs.len() < 2 {
        return Err(format!("two networks or more to average\n{USAGE}"));
    }
    let output = PathBuf::from(output);
    let inputs: Vec<PathBuf> = inputs.iter().map(PathBuf::from).collect();
    let refs: Vec<&std::path::Path> = inputs.iter().map(|p| p.as_path()).collect();
    files::check_output(&output, &refs).map_err(|e| e.to_string())?;
    let mut sum: Option<othello_nnue::Params<f32>> = None;
    for input in &inputs {
        let bytes = files::read(input, othello_core::eval::nnue::file::MAX_FILE_LEN as u64)
            .map_err(|e| e.to_string())?;
        let net = read_weights(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
        match &mut sum {
            None => sum = Some(net.params),
            Some(s) => {
                // Only networks of one run average: the same dimensions and the same base.
                if (s.arch, s.base) != (net.params.arch, net.params.base) {
                    return Err(format!(
                        "{}: dimensions {:?} and base {:08x} differ from the first network's {:?} and {:08x}",
                        input.display(),
                        net.params.arch,
                        net.params.base,
                        s.arch,
                        s.base
                    ));
                }
                for (a, b) in s.groups_mut().into_iter().zip(net.params.groups()) {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += *y);
                }
            }
        }
    }
    let mut mean = sum.expect("two inputs at least");
    let k = 1.0 / inputs.len() as f32;
    for g in mean.groups_mut() {
        g.iter_mut().for_each(|x| *x *= k);
    }
    files::write_atomically(&output, &weights_bytes(&mean)).map_err(|e| e.to_string())?;
    eprintln!(
        "nnue-average: the mean of {} networks -> {}",
        inputs.len(),
        output.display()
    );
    Ok(())
}
