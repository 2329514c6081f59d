//! The `othello` binary: parses the command line and runs the subcommand; everything it
//! computes comes from the library. The subcommands live in [`cli`], one function each.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match cli::run(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}
