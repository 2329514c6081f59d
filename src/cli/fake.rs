//! A deliberately unreliable NBoard engine, for testing the match driver's fault handling.
//!
//! Run as the hidden subcommand `othello fake-engine --mode <mode> [--at N] [--sleep S]`. It
//! speaks NBoard like a careless real engine: it answers `ping` with `pong`, keeps the game from
//! `set game` and `move`, and answers `go` with its first legal move in square order, written
//! Edax's way (`=== d3 0.00 0.01`, spaces instead of slashes) and surrounded by `status`,
//! `nodestats` and `search` lines and one unknown line, all of which a driver must ignore. At the
//! `N`th `go` of the process (default 3), it misbehaves according to `mode`. With
//! `--transcript FILE` it appends every line it receives to `FILE`.
//!
//!
//! | mode | at the Nth `go` |
//! | --- | --- |
//! | `good` | nothing: plays normally throughout |
//! | `illegal` | answers a square that is already occupied |
//! | `garbage` | answers `=== zz` |
//! | `slow` | sleeps `S` seconds (default 2) before answering |
//! | `crash` | exits at once with status 3, answering nothing |
//! | `hang` | stops answering anything, `ping` included, until its input ends |

use std::io::{self, BufRead, Write};
use std::str::FromStr;
use std::time::Duration;

use othello::board::Move;
use othello::game::{Game, MoveRecord};

/// How the fake engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FakeMode {
    /// Never.
    Good,
    /// An occupied square.
    Illegal,
    /// An unreadable move.
    Garbage,
    /// A long sleep before the answer.
    Slow,
    /// Exit without answering.
    Crash,
    /// Silence.
    Hang,
    /// An endless line: bytes without a newline until the driver goes away.
    Flood,
    /// Silence from the start: not even the first `pong`.
    Mute,
}

impl FromStr for FakeMode {
    type Err = String;

    fn from_str(s: &str) -> Result<FakeMode, String> {
        Ok(match s {
            "good" => FakeMode::Good,
            "illegal" => FakeMode::Illegal,
            "garbage" => FakeMode::Garbage,
            "slow" => FakeMode::Slow,
            "crash" => FakeMode::Crash,
            "hang" => FakeMode::Hang,
            "flood" => FakeMode::Flood,
            "mute" => FakeMode::Mute,
            _ => {
                return Err(format!(
                    "unknown mode {s:?}: expected good, illegal, garbage, slow, crash, hang, flood or mute"
                ))
            }
        })
    }
}

/// The fake engine's settings.
#[derive(Clone, Debug)]
pub struct FakeOptions {
    /// If set, every line received is appended to this file (tests check what a driver
    /// sends).
    pub transcript: Option<std::path::PathBuf>,
    /// The misbehaviour.
    pub mode: FakeMode,
    /// Which `go` (counting from 1) misbehaves.
    pub at: u32,
    /// How long `slow` sleeps.
    pub sleep: Duration,
}

/// How a fake session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FakeExit {
    /// `quit` or end of input.
    Quit,
    /// `crash` mode struck: the process should exit with a failure status at once.
    Crash,
}

/// Runs the fake engine on `input` and `output`.
pub fn run_fake<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    options: FakeOptions,
) -> io::Result<FakeExit> {
    let mut game = Game::default();
    let mut gos = 0u32;
    let mut hung = options.mode == FakeMode::Mute;
    let mut transcript = match &options.transcript {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?,
        ),
        None => None,
    };
    for line in input.lines() {
        let line = line?;
        if let Some(file) = &mut transcript {
            writeln!(file, "{line}")?;
        }
        let line = line.trim();
        if hung {
            if line == "quit" {
                break;
            }
            continue;
        }
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "quit" => break,
            "ping" => writeln!(output, "pong {}", rest.trim())?,
            "set" => {
                if let Some(ggf) = rest.strip_prefix("game ") {
                    match ggf.parse::<Game>() {
                        Ok(g) => game = g,
                        Err(e) => writeln!(output, "status error: {e}")?,
                    }
                } else if let Some(d) = rest.strip_prefix("depth ") {
                    writeln!(output, "set myname fake{}", d.trim())?;
                }
            }
            "move" => {
                let pushed = rest
                    .parse::<MoveRecord>()
                    .map_err(|e| e.to_string())
                    .and_then(|r| game.push(r).map_err(|e| e.to_string()));
                if let Err(e) = pushed {
                    writeln!(output, "status error: {e}")?;
                }
            }
            "go" => {
                gos += 1;
                let board = game.position().board;
                let mv = board.legal_moves().next().map_or(Move::Pass, Move::Place);
                if gos == options.at {
                    match options.mode {
                        FakeMode::Good => {}
                        FakeMode::Illegal => {
                            let occupied = !board.empty();
                            let sq = othello::square::Square::from_lowest_bit(occupied);
                            writeln!(output, "=== {sq}")?;
                            output.flush()?;
                            continue;
                        }
                        FakeMode::Garbage => {
                            writeln!(output, "=== zz")?;
                            output.flush()?;
                            continue;
                        }
                        FakeMode::Slow => std::thread::sleep(options.sleep),
                        FakeMode::Crash => return Ok(FakeExit::Crash),
                        FakeMode::Hang | FakeMode::Mute => {
                            hung = true;
                            continue;
                        }
                        FakeMode::Flood => {
                            let chunk = [b'x'; 65536];
                            // Until the driver closes the pipe (or kills the process).
                            while output.write_all(&chunk).is_ok() {}
                            return Ok(FakeExit::Quit);
                        }
                    }
                }
                writeln!(output, "status thinking")?;
                writeln!(output, "nodestats 100 0.01")?;
                writeln!(output, "search {mv} 0.00 0 1")?;
                writeln!(output, "fake engine chatter that no driver should mind")?;
                writeln!(output, "=== {mv} 0.00 0.01")?;
                writeln!(output, "status")?;
            }
            _ => {}
        }
        output.flush()?;
    }
    Ok(FakeExit::Quit)
}

#[derive(clap::Args)]
pub struct FakeArgs {
    /// good, illegal, garbage, slow, crash, hang, flood (an endless line) or mute (no answer,
    /// not even at start).
    #[arg(long)]
    mode: FakeMode,
    /// Which `go` misbehaves (from 1).
    #[arg(long, default_value_t = 3)]
    at: u32,
    /// Seconds `slow` sleeps.
    #[arg(long, default_value_t = 2.0)]
    sleep: f64,
    /// Append every line received to this file.
    #[arg(long)]
    transcript: Option<std::path::PathBuf>,
}

/// `othello fake-engine`: exits with status 3 when `crash` strikes.
pub fn fake_engine(args: FakeArgs) -> super::CliResult {
    let options = FakeOptions {
        transcript: args.transcript,
        mode: args.mode,
        at: args.at,
        sleep: Duration::from_secs_f64(args.sleep.clamp(0.0, 1e6)),
    };
    let stdin = io::stdin().lock();
    match run_fake(stdin, io::stdout().lock(), options)? {
        FakeExit::Crash => std::process::exit(3),
        FakeExit::Quit => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(mode: FakeMode, input: &str) -> (String, FakeExit) {
        let mut out = Vec::new();
        let options = FakeOptions {
            transcript: None,
            mode,
            at: 2,
            sleep: Duration::ZERO,
        };
        let exit = run_fake(input.as_bytes(), &mut out, options).unwrap();
        (String::from_utf8(out).unwrap(), exit)
    }

    #[test]
    fn plays_then_misbehaves_at_the_chosen_go() {
        let input =
            "nboard 2\nset depth 3\nping 1\ngo\nmove d3\nmove c3\nping 2\ngo\nping 3\nquit\n";
        let (out, exit) = session(FakeMode::Good, input);
        assert_eq!(exit, FakeExit::Quit);
        assert!(out.contains("set myname fake3\npong 1\n"), "{out}");
        assert!(out.contains("=== d3 0.00 0.01"), "{out}");
        // The second answer is legal after d3 c3.
        let last = out.lines().filter(|l| l.starts_with("===")).nth(1).unwrap();
        let mv: Move = last.split_whitespace().nth(1).unwrap().parse().unwrap();
        let mut g = Game::default();
        for m in ["d3", "c3"] {
            g.push(MoveRecord::new(m.parse().unwrap())).unwrap();
        }
        assert!(g.position().try_play(mv).is_ok());

        let (out, _) = session(FakeMode::Illegal, input);
        let last = out.lines().filter(|l| l.starts_with("===")).nth(1).unwrap();
        let sq: othello::square::Square = last[4..].trim().parse().unwrap();
        assert_eq!(
            g.position().board.empty() & sq.bit(),
            0,
            "{last} is occupied"
        );
        let (out, exit) = session(FakeMode::Crash, input);
        assert_eq!(exit, FakeExit::Crash);
        assert_eq!(out.matches("===").count(), 1);
        let (out, _) = session(FakeMode::Hang, input);
        assert!(out.contains("pong 2") && !out.contains("pong 3"), "{out}");
        let (out, _) = session(FakeMode::Garbage, input);
        assert!(out.contains("=== zz"));
    }
}
