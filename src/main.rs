//! The `othello` binary: parses the command line and runs the subcommand; everything it
//! computes comes from the library. The subcommands live in [`cli`], one function each.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    // A temporary file being written when Ctrl-C (or SIGTERM, SIGHUP) arrives is removed.
    othello::files::remove_temporaries_on_interrupt();
    let cli = cli::Cli::parse();
    if cli.writes_only_to_stdout() && stdout_was_closed() {
        // `othello solve - >&-`: everything written would be lost without an error.
        eprintln!("error: standard output is closed: the output would be lost");
        return ExitCode::FAILURE;
    }
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}

/// Whether the program was started with its standard output closed. The Rust runtime then
/// opens `/dev/null` on descriptor 1 (read-write, which no shell redirection does), so every
/// write would succeed and all output would silently be lost.
#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    // SAFETY: fcntl and fstat on descriptor 1 and stat on a constant path, with zeroed
    // out-structures of the right type.
    unsafe {
        let flags = libc::fcntl(1, libc::F_GETFL);
        if flags < 0 {
            return true;
        }
        if flags & libc::O_ACCMODE != libc::O_RDWR {
            return false;
        }
        let mut out: libc::stat = std::mem::zeroed();
        let mut null: libc::stat = std::mem::zeroed();
        libc::fstat(1, &mut out) == 0
            && libc::stat(c"/dev/null".as_ptr(), &mut null) == 0
            && out.st_mode & libc::S_IFMT == libc::S_IFCHR
            && out.st_rdev == null.st_rdev
    }
}

/// Elsewhere a closed standard output is not detected.
#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}
