//! The NBoard protocol (version 2), plus a few extension commands, and the GTP face ([`gtp`],
//! for GoGui and Quarry); `PROTOCOL.md` at the root of the repository describes every command
//! and response.
//!
//! Shape (after neural-reversi's `gtp.rs`):
//! - [`input`]: a length-capped, byte-tolerant line reader; lines come from a reader thread
//!   ([`ThreadedInput`]) or from the caller's thread ([`SyncInput`], deterministic, for tests);
//! - [`command`]: each line parses into a typed [`Command`] (`FromStr`);
//! - [`nboard`]: the [`Nboard`] server runs a command (asking the [`crate::engine::Engine`]) and writes typed [`Response`]s;
//! - [`response`]: each response is one line, formatted by `Display`, flushed at once.
//!
//! Synchronisation, the part GUIs are strict about: the reader thread raises the searcher's
//! stop flag on every line, so a running search ends as soon as the GUI sends anything, and
//! the loop answers the queued lines in order, on one thread. Everything about a position is
//! therefore printed before the `pong` that follows it, and nothing after.

pub mod command;
pub mod gtp;
pub mod input;
pub mod nboard;
pub mod response;

use std::io::{self, BufRead, Write};

use crate::eval::EngineEval;

pub use command::{Command, CommandError};
pub use input::{Input, LineError, LineSource, SyncInput, ThreadedInput};
pub use nboard::{EngineError, EngineOptions, Flow, Nboard};
pub use response::{Depth, Responder, Response};

/// Serves a GUI: reads `input` on its own thread (new lines interrupt searches) and writes to
/// `output`, until `quit` or the end of input.
pub fn run<R, W>(input: R, output: W, options: EngineOptions) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut engine = Nboard::new(options).map_err(io::Error::other)?;
    let source = ThreadedInput::spawn(input, engine.stop_flag())?;
    serve(&mut engine, source, output)
}

/// Replays a session read on this thread: every command runs to completion, so the output
/// is deterministic (searches end by depth, node or time limits, never by interruption).
pub fn run_sync<R: BufRead, W: Write>(
    input: R,
    output: W,
    options: EngineOptions,
) -> io::Result<()> {
    let mut engine = Nboard::new(options).map_err(io::Error::other)?;
    serve(&mut engine, SyncInput::new(input), output)
}

/// Serves the GUI on standard input and output with the default options and evaluator `eval`.
pub fn run_stdio(eval: EngineEval) -> io::Result<()> {
    run_stdio_with(EngineOptions {
        eval,
        threads: crate::search::available_threads(),
        ..EngineOptions::default()
    })
}

/// Serves the GUI on standard input and output with `options`.
pub fn run_stdio_with(options: EngineOptions) -> io::Result<()> {
    let engine = Nboard::new(options).map_err(io::Error::other)?;
    run_stdio_engine(engine)
}

/// Serves the GUI on standard input and output with an engine already built (its book
/// opened once, by the caller, which reported any error).
pub fn run_stdio_engine(engine: Nboard) -> io::Result<()> {
    let mut engine = engine;
    log::info!("evaluator: {}", engine.engine().options().eval.describe());
    let source = ThreadedInput::spawn(io::BufReader::new(io::stdin()), engine.stop_flag())?;
    serve(&mut engine, source, io::stdout().lock())
}

/// The session loop: each line is parsed and executed in order; a line that cannot be used
/// gets one `status error:` line and changes nothing. Returns at `quit` or end of input, or
/// with the first output error.
pub fn serve<S: LineSource, W: Write>(
    engine: &mut Nboard,
    mut source: S,
    output: W,
) -> io::Result<()> {
    let mut out = Responder::new(output);
    let stop = engine.stop_flag();
    loop {
        let input = source.next_input();
        engine.line_arrived(crate::time::Instant::now());
        // Whatever arrived, the thinking on the opponent's time ends here (the input thread
        // already raised the stop flag; this waits for the search and lowers it).
        engine.stop_pondering();
        let line = match input {
            Input::Eof => return Ok(()),
            Input::Line(Ok(line)) => line,
            Input::Line(Err(e)) => {
                out.send(Response::Status(format!("error: {e}")))?;
                continue;
            }
        };
        log::debug!("< {line}");
        if line.trim().is_empty() {
            continue;
        }
        let command = match line.parse::<Command>() {
            Ok(command) => command,
            Err(e) => {
                out.send(Response::Status(format!("error: {e}")))?;
                continue;
            }
        };
        // Lower the stop flag unless more input is already waiting (see `ThreadedInput`).
        source.arm(&stop);
        if engine.execute(command, &mut out)? == Flow::Quit {
            return Ok(());
        }
        // Idle until the next line: think on the opponent's time, if asked to; that line
        // raises the stop flag.
        if source.interruptible() {
            source.arm(&stop);
            if !stop.load(std::sync::atomic::Ordering::SeqCst) {
                engine.ponder();
            }
        }
    }
}
