//! The NBoard client: drives an external engine exactly as the NBoard GUI does.
//!
//! See `docs/NBOARD.md` of the shared notes (summarised from NBoard's own sources). The session:
//!
//! ```text
//! nboard 2                                   once, at start, then `ping n` and wait
//!                                            for `pong n` before any clock runs
//! set depth N                                when the match has a depth limit and it changed
//! set game <GGF> | move <mv>/<eval>/<time>   one `move` per move added to the engine's
//!                                            game (its own answer included, as the GUI
//!                                            echoes it), `set game` for any other change
//! ping n                                     n strictly increasing; wait for `pong n`
//! go                                         wait for `=== <move>[/<eval>[/<time>]]`
//! quit                                       at the end
//! ```
//!
//! - The game sent carries the clocks in `TI` and every move's time, so the engine can budget
//!   from the GGF as NBoard engines must; the times are the ones the arena measured.
//! - Lines before the matching `pong` are stale and ignored, as the GUI ignores them; so are
//!   `status`, `search`, `book`, `nodestats` and any unknown line. `set myname X` is noted.
//! - `===` accepts `/` or whitespace between its fields (`=== d6 -1.00 0.0`, Edax's form).
//! - The engine's thinking time is measured from writing `go` to reading `===`.
//! - Output is read on a thread, so waiting has a deadline: no answer in time is
//!   [`PlayerError::Timeout`]; end of output is [`PlayerError::Crashed`]. The start-up (from
//!   the process's start to its first `pong`) has its own deadline, [`STARTUP_TIMEOUT_SECS`] by
//!   default ([`NboardPlayer::spawn_with_startup`]: `match --startup-timeout`).
//! - What an engine prints is bounded: a line is cut at [`MAX_LINE_BYTES`] (the rest of it is
//!   read and dropped), and at most [`LINE_QUEUE`] lines wait to be read; past that the
//!   reader stops reading, so an engine that prints without end fills its pipe and blocks
//!   instead of filling our memory. Stderr is read on a
//!   second thread and logged at debug level (NBoard merges it into stdout; we keep it apart so
//!   engine chatter cannot be mistaken for a response).
//! - [`Player::restart`] kills the process and starts a fresh one; dropping the player sends
//!   `quit`, waits a moment, then kills the process if it is still there.

use crate::time::{Duration, Instant};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;

use super::{Choice, Player, PlayerError, Turn};
use crate::game::{Game, MoveRecord};

/// How long a starting engine may take to answer its first `ping`.
pub const STARTUP_TIMEOUT_SECS: u64 = 60;

/// The longest engine output line kept (bytes); the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How many engine lines may wait to be read before the reader thread stops reading.
pub const LINE_QUEUE: usize = 1024;

/// How long a dropped engine gets to exit after `quit` before it is killed.
pub const QUIT_GRACE_MS: u64 = 1_000;

/// An external engine: a name, an optional working directory and a command line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EngineCommand {
    /// The engine's name, `[A-Za-z0-9]+`.
    pub name: String,
    /// The working directory (the program path is resolved from it when relative).
    pub dir: Option<PathBuf>,
    /// The program and its arguments.
    pub argv: Vec<String>,
}

impl EngineCommand {
    /// The command line as one string, for messages.
    pub fn command_line(&self) -> String {
        self.argv.join(" ")
    }

    /// Starts the program with piped standard streams, its output read on threads (shared
    /// with the GTP client, [`super::gtp`]).
    pub(super) fn spawn(&self) -> Result<Process, PlayerError> {
        let spawn_error = |source| PlayerError::Spawn {
            command: self.command_line(),
            source,
        };
        let mut program = PathBuf::from(&self.argv[0]);
        if let Some(dir) = &self.dir {
            // NBoard resolves the program from the working directory.
            if program.is_relative() && dir.join(&program).exists() {
                program = dir.join(&program);
            }
        }
        let mut command = Command::new(&program);
        command
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(spawn_error)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        let name = self.name.clone();
        thread::Builder::new()
            .name(format!("{name}-stdout"))
            .spawn(move || {
                for line in byte_lines(stdout) {
                    // Stamped here, as soon as it is read, so the engine's time does not
                    // include the wait for the driver's thread to be scheduled.
                    let read_at = Instant::now();
                    log::debug!("{name} > {line}");
                    if tx.send((read_at, line)).is_err() {
                        break;
                    }
                }
            })
            .map_err(spawn_error)?;
        let name = self.name.clone();
        thread::Builder::new()
            .name(format!("{name}-stderr"))
            .spawn(move || {
                for line in byte_lines(stderr) {
                    log::debug!("{name} stderr: {line}");
                }
            })
            .map_err(spawn_error)?;
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }
}

/// The lines of a byte stream, decoded leniently (bad UTF-8 never ends the stream), without
/// their line terminators, each cut at [`MAX_LINE_BYTES`]: the rest of a longer line is read
/// and dropped, so no line, however long, takes more memory than that.
fn byte_lines(reader: impl Read) -> impl Iterator<Item = String> {
    let mut reader = BufReader::new(reader);
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        let mut any = false;
        loop {
            let chunk = match reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (part, used, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&part[..part.len().min(room)]);
            reader.consume(used);
            if end {
                break;
            }
        }
        if !any {
            return None;
        }
        let text = String::from_utf8_lossy(&buf);
        Some(text.trim_end_matches(['\n', '\r']).to_string())
    })
}

/// A running engine process: its input, and its output lines as the reader thread stamped
/// them. Shared with the GTP client ([`super::gtp`]).
pub(super) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Process {
    pub(super) fn send(&mut self, name: &str, line: &str) -> Result<(), PlayerError> {
        log::debug!("{name} < {line}");
        let result = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        result.map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => PlayerError::Crashed(self.exit_description()),
            _ => PlayerError::Io(e),
        })
    }

    /// The next line, waiting until `deadline` at most.
    pub(super) fn receive(&mut self, deadline: Option<Instant>) -> Result<String, PlayerError> {
        self.receive_stamped(deadline).map(|(_, line)| line)
    }

    /// The next line and when the reader thread read it.
    pub(super) fn receive_stamped(
        &mut self,
        deadline: Option<Instant>,
    ) -> Result<(Instant, String), PlayerError> {
        let result = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        result.map_err(|e| match e {
            RecvTimeoutError::Timeout => PlayerError::Timeout,
            RecvTimeoutError::Disconnected => PlayerError::Crashed(self.exit_description()),
        })
    }

    fn exit_description(&mut self) -> String {
        // The output may close a moment before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!("exited ({status})");
            }
            thread::sleep(Duration::from_millis(5));
        }
        "closed its output".to_string()
    }

    pub(super) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub(super) fn quit(&mut self, name: &str) {
        let _ = self.send(name, "quit");
        let end = Instant::now() + Duration::from_millis(QUIT_GRACE_MS);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// An external NBoard engine as a [`Player`].
pub struct NboardPlayer {
    command: EngineCommand,
    process: Option<Process>,
    /// The last ping number sent (the GUI's counter: strictly increasing over the session).
    ping: u64,
    /// The game the engine holds, as last sent; `None` when unknown.
    synced: Option<Game>,
    /// The depth last sent with `set depth`.
    depth: Option<u32>,
    /// The name the engine gave with `set myname`.
    engine_name: Option<String>,
    /// How long a start (or restart) may take to answer its first `ping`.
    startup_timeout: Duration,
}

impl NboardPlayer {
    /// Starts the engine, sends `nboard 2` and waits until it answers a `ping` (within
    /// [`STARTUP_TIMEOUT_SECS`]), so that start-up time is never charged to a clock.
    pub fn spawn(command: EngineCommand) -> Result<NboardPlayer, PlayerError> {
        Self::spawn_with_startup(command, Duration::from_secs(STARTUP_TIMEOUT_SECS))
    }

    /// [`NboardPlayer::spawn`] with another start-up deadline (also for every restart).
    pub fn spawn_with_startup(
        command: EngineCommand,
        startup_timeout: Duration,
    ) -> Result<NboardPlayer, PlayerError> {
        let mut player = NboardPlayer {
            command,
            process: None,
            ping: 0,
            synced: None,
            depth: None,
            engine_name: None,
            startup_timeout,
        };
        player.start()?;
        Ok(player)
    }

    /// The name the engine reported with `set myname`, if it did.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    fn start(&mut self) -> Result<(), PlayerError> {
        let mut process = self.command.spawn()?;
        process.send(&self.command.name, "nboard 2")?;
        // Wait until the engine is up (loaded, tables allocated) before any clock runs: a
        // `ping` answered means it reads commands.
        self.ping += 1;
        process.send(&self.command.name, &format!("ping {}", self.ping))?;
        let deadline = Instant::now() + self.startup_timeout;
        let want = self.ping.to_string();
        loop {
            let line = match process.receive(Some(deadline)) {
                Ok(line) => line,
                Err(e) => {
                    process.kill();
                    return Err(e);
                }
            };
            let mut words = line.split_whitespace();
            if words.next() == Some("pong") && words.next() == Some(want.as_str()) {
                break;
            }
            if line.trim_start().starts_with("set myname") {
                note_name(&mut self.engine_name, &line);
            }
        }
        self.process = Some(process);
        self.synced = None;
        self.depth = None;
        Ok(())
    }

    fn exchange(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        if self.process.is_none() {
            self.start()?;
        }
        let name = self.command.name.clone();
        let game = turn.game;
        let mut lines = Vec::new();
        if let Some(depth) = turn.depth {
            if self.depth != Some(depth) {
                lines.push(format!("set depth {depth}"));
                self.depth = Some(depth);
            }
        }
        match self.synced.as_ref().and_then(|old| appended(old, game)) {
            Some(moves) => lines.extend(moves.iter().map(|r| format!("move {r}"))),
            None => lines.push(format!("set game {game}")),
        }
        self.synced = Some(game.clone());
        self.ping += 1;
        let ping = self.ping;
        lines.push(format!("ping {ping}"));
        let process = self.process.as_mut().expect("started above");
        for line in &lines {
            process.send(&name, line)?;
        }
        // Everything before our pong is about an older request: skip it.
        loop {
            let line = process.receive(turn.deadline)?;
            let mut words = line.split_whitespace();
            if words.next() == Some("pong") && words.next() == Some(&ping.to_string()) {
                break;
            }
            if line.trim_start().starts_with("set myname") {
                note_name(&mut self.engine_name, &line);
            }
        }
        let process = self.process.as_mut().expect("started above");
        process.send(&name, "go")?;
        let sent = Instant::now();
        loop {
            let (read_at, line) = process.receive_stamped(turn.deadline)?;
            let trimmed = line.trim();
            if let Some(answer) = trimmed.strip_prefix("===") {
                let elapsed = read_at.saturating_duration_since(sent);
                let record = parse_answer(answer)?;
                return Ok(Choice {
                    mv: record.mv,
                    eval: record.eval,
                    elapsed: Some(elapsed),
                });
            }
            if trimmed.starts_with("set myname") {
                note_name(&mut self.engine_name, trimmed);
            }
            // status, search, book, nodestats, pong and unknown lines: ignored.
        }
    }
}

/// Notes `set myname <name>` in `slot` (only the first word counts, as in NBoard).
fn note_name(slot: &mut Option<String>, line: &str) {
    if let Some(rest) = line.trim().strip_prefix("set myname") {
        if let Some(name) = rest.split_whitespace().next() {
            *slot = Some(name.to_string());
        }
    }
}

/// Reads the part of an `===` line after the marker: `F5`, `F5/1.5/0.2`, `F5 1.5 0.2`, with
/// blank fields allowed in the `/` form.
pub fn parse_answer(answer: &str) -> Result<MoveRecord, PlayerError> {
    let text = answer.trim();
    let normalized = if text.contains('/') {
        text.to_string()
    } else {
        text.split_whitespace().collect::<Vec<_>>().join("/")
    };
    normalized
        .parse::<MoveRecord>()
        .or_else(|_| {
            // A well-formed move with an unreadable eval or time still counts as the move.
            let first = normalized.split('/').next().unwrap_or("");
            first.parse::<crate::board::Move>().map(MoveRecord::new)
        })
        .map_err(|_| PlayerError::BadMove(text.to_string()))
}

/// The moves `new` adds to `old`, if `new` is `old` plus at least one move with the same
/// start, clocks and players. The GUI sends one `move` per move as the game grows (its own
/// answer comes back as a `move` too), and `set game` for any other change.
fn appended<'a>(old: &Game, new: &'a Game) -> Option<&'a [MoveRecord]> {
    let same = old.start() == new.start()
        && old.black_clock == new.black_clock
        && old.white_clock == new.white_clock
        && old.black_name == new.black_name
        && old.white_name == new.white_name
        && new.moves().len() > old.moves().len()
        && new.moves()[..old.moves().len()] == *old.moves();
    same.then(|| &new.moves()[old.moves().len()..])
}

impl Player for NboardPlayer {
    fn name(&self) -> &str {
        &self.command.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), PlayerError> {
        if self.process.is_none() {
            self.start()?;
        }
        Ok(())
    }

    fn choose(&mut self, turn: &Turn<'_>) -> Result<Choice, PlayerError> {
        let result = self.exchange(turn);
        if result.is_err() {
            // The engine's state is unknown: resend the whole game next time.
            self.synced = None;
        }
        result
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.start()
    }
}

impl Drop for NboardPlayer {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.quit(&self.command.name);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_endless_engine_line_is_cut_and_the_next_line_still_read() {
        use std::io::Read as _;
        // 5 MiB without a newline, then a normal line: the first comes back cut to the cap,
        // the second whole.
        let long = std::io::repeat(b'x').take(5 << 20);
        let input = long.chain(&b"\npong 7\r\n"[..]);
        let lines: Vec<String> = super::byte_lines(input).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), super::MAX_LINE_BYTES);
        assert_eq!(lines[1], "pong 7");
    }

    use super::*;
    use crate::board::Move;
    use crate::square::Square;

    #[test]
    fn answers_in_every_form() {
        let f5 = Move::Place(Square::F5);
        for (text, eval, secs) in [
            (" F5", None, None),
            ("f5/1.5/0.25", Some(1.5), Some(0.25)),
            (" d6 -1.00 0.0", Some(-1.0), Some(0.0)),
            ("F5//2", None, Some(2.0)),
            ("F5/1.00", Some(1.0), None),
        ] {
            let r = parse_answer(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            if text.contains('6') {
                assert_eq!(r.mv, Move::Place(Square::D6));
            } else {
                assert_eq!(r.mv, f5);
            }
            assert_eq!((r.eval, r.seconds), (eval, secs), "{text}");
        }
        assert_eq!(parse_answer("PA").unwrap().mv, Move::Pass);
        assert_eq!(parse_answer("f5 nan x").unwrap().mv, f5);
        assert!(matches!(parse_answer("zz"), Err(PlayerError::BadMove(_))));
        assert!(matches!(parse_answer(""), Err(PlayerError::BadMove(_))));
    }

    #[test]
    fn moves_are_sent_only_for_a_grown_game() {
        let mut a = Game::default();
        let mut b = a.clone();
        b.push(MoveRecord::new(Move::Place(Square::F5))).unwrap();
        assert_eq!(appended(&a, &b).map(<[_]>::len), Some(1));
        assert_eq!(appended(&b, &a), None);
        assert_eq!(appended(&a, &a), None);
        let mut c = b.clone();
        c.push(MoveRecord::new(Move::Place(Square::F6))).unwrap();
        assert_eq!(appended(&a, &c).map(<[_]>::len), Some(2));
        a.black_name = "x".into();
        assert_eq!(appended(&a, &b), None);
    }
}
