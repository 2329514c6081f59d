//! The built binary driven as the NBoard GUI drives it: through pipes, one line at a time,
//! with bounded waits (every wait has a timeout; none is used as synchronisation).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use othello::board::{Board, Move};

const START_GGF: &str =
    "(;GM[Othello]PC[NBoard]PB[me]PW[othello]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Gui {
    /// Starts `othello` with the given arguments (none: NBoard by default).
    fn start(args: &[&str]) -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the othello binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut gui = Gui {
            stdin: child.stdin.take(),
            child,
            lines,
        };
        // These tests are about searches: no opening book (it answers at once and prints
        // nothing on success; tests/book.rs has the book's own tests).
        gui.send("set book off\n");
        gui
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `last`, within `timeout`.
    fn until(&self, timeout: Duration, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    let done = last(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; got {lines:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; got {lines:?}"),
            }
        }
    }

    /// Sends `ping n` and returns everything up to its pong.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}\n"));
        let pong = format!("pong {n}");
        let mut lines = self.until(Duration::from_secs(5), |l| l == pong);
        lines.pop();
        lines
    }

    /// Waits up to `timeout` for the process to exit; true if it did.
    fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn best_move(line: &str) -> Move {
    let text = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("not a move: {line}"));
    text.split('/').next().unwrap().parse().unwrap()
}

#[test]
fn pongs_come_in_order_and_go_answers_before_the_next_pong() {
    let mut gui = Gui::start(&[]);
    gui.send("nboard 2\nset depth 3\n");
    assert_eq!(gui.sync(1), ["set myname othello3"]);
    gui.send(&format!("set game {START_GGF}\n"));
    assert_eq!(gui.sync(2), Vec::<String>::new());
    gui.send("go\n");
    let lines = gui.until(Duration::from_secs(5), |l| l.starts_with("=== "));
    let Move::Place(sq) = best_move(lines.last().unwrap()) else {
        panic!("a move was expected: {lines:?}")
    };
    assert!(Board::start().is_legal(sq));
    assert_eq!(gui.sync(3), Vec::<String>::new());
    gui.send("quit\n");
    assert!(gui.exits_within(Duration::from_secs(1)));
}

#[test]
fn the_nboard_subcommand_is_the_same_protocol() {
    let mut gui = Gui::start(&["nboard"]);
    gui.send("nboard 2\n");
    assert_eq!(gui.sync(7), Vec::<String>::new());
}

#[test]
fn a_deep_hint_is_overtaken_by_move_and_ping_within_a_second() {
    let mut gui = Gui::start(&[]);
    gui.send("nboard 2\nset depth 60\n");
    gui.sync(1);
    gui.send("hint 1\n");
    gui.until(Duration::from_secs(5), |l| l.starts_with("search "));
    let asked = Instant::now();
    gui.send("move F5\nping 2\n");
    let before = gui.until(Duration::from_secs(1), |l| l == "pong 2");
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    assert!(before.iter().all(|l| !l.starts_with("=== ")), "{before:?}");
    // The next line after pong 2 is pong 3: nothing about the old position was printed.
    assert_eq!(gui.sync(3), Vec::<String>::new());
    // The overtaking move was applied: a hint now is about White's replies to F5.
    gui.send("set depth 2\nhint 1\n");
    let lines = gui.until(Duration::from_secs(5), |l| l == "status");
    let after_f5 = Board::start().play(othello::Square::F5);
    let search: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(search.len(), 2, "{lines:?}");
    for line in search {
        let pv = line.split(' ').nth(1).unwrap();
        let Ok(Move::Place(sq)) = pv[..2].parse() else {
            panic!("{line}")
        };
        assert!(after_f5.is_legal(sq), "{line}");
    }
}

#[test]
fn go_in_a_must_pass_position_answers_pa() {
    let mut gui = Gui::start(&[]);
    let board = format!("{}O-", "*".repeat(62));
    gui.send(&format!(
        "nboard 2\nset depth 5\nset game (;GM[Othello]TI[0]TY[8]BO[8 {board} O];)\n"
    ));
    gui.sync(1);
    gui.send("go\n");
    assert_eq!(gui.until(Duration::from_secs(2), |_| true), ["=== PA"]);
    // The GUI sends the pass back; now Black has the last move.
    gui.send("move PA\n");
    gui.sync(2);
    gui.send("go\n");
    let lines = gui.until(Duration::from_secs(2), |l| l.starts_with("=== "));
    assert!(
        lines.last().unwrap().starts_with("=== H8/64.00/"),
        "{lines:?}"
    );
}

#[test]
fn bad_input_is_answered_with_status_lines_and_go_still_works() {
    let mut gui = Gui::start(&[]);
    gui.send("nboard 2\nset depth 4\n");
    gui.sync(1);
    let mut junk: Vec<u8> = Vec::new();
    junk.extend_from_slice(b"no such command\nmove Q9\nmove A1\nset game (;BO[8 oops];)\n");
    junk.extend_from_slice(b"hint many\nset depth 0\nset threads 999\n");
    junk.extend(vec![b'z'; 1 << 20]);
    junk.extend_from_slice(b"\nmo\0ve F5\n\xc3\x28\xa0\xa1\n");
    gui.stdin.as_mut().unwrap().write_all(&junk).unwrap();
    let answers = gui.sync(2);
    assert_eq!(answers.len(), 10, "{answers:?}");
    assert!(
        answers.iter().all(|l| l.starts_with("status error: ")),
        "{answers:?}"
    );
    gui.send("go\n");
    let lines = gui.until(Duration::from_secs(5), |l| l.starts_with("=== "));
    let Move::Place(sq) = best_move(lines.last().unwrap()) else {
        panic!("{lines:?}")
    };
    assert!(Board::start().is_legal(sq), "{lines:?}");
}

#[test]
fn quit_ends_a_running_search_at_once() {
    let mut gui = Gui::start(&[]);
    gui.send("nboard 2\nset depth 60\nhint 1\n");
    gui.until(Duration::from_secs(5), |l| l.starts_with("search "));
    gui.send("quit\n");
    assert!(
        gui.exits_within(Duration::from_secs(1)),
        "still running after quit"
    );
    assert!(gui.child.wait().unwrap().success());
}

#[test]
fn end_of_input_ends_a_running_search_at_once() {
    let mut gui = Gui::start(&[]);
    gui.send("nboard 2\nset depth 60\nhint 1\n");
    gui.until(Duration::from_secs(5), |l| l.starts_with("search "));
    gui.stdin = None;
    assert!(
        gui.exits_within(Duration::from_secs(1)),
        "still running after EOF"
    );
    assert!(gui.child.wait().unwrap().success());
}

/// Runs an NBoard session with `args`, answering `go` at the start and then the echo of its
/// move with a ping; returns how long the ping took and the log on stderr.
fn session_after_go(args: &[&str]) -> (Duration, String) {
    let log = std::env::temp_dir().join(format!("othello-ponder-{}.log", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .env("RUST_LOG", "othello_engine::protocol=debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("the othello binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut until = |prefix: &str| loop {
        let line = stdout.next().expect("a line").unwrap();
        if line.starts_with(prefix) {
            return line;
        }
    };
    stdin
        .write_all(b"nboard 2\nset threads 1\nset book off\nping 1\n")
        .unwrap();
    until("pong 1");
    stdin.write_all(b"go\n").unwrap();
    let answer = until("=== ");
    let Move::Place(sq) = best_move(&answer) else {
        panic!("{answer}")
    };
    // Let the engine think on our time, then interrupt it.
    thread::sleep(Duration::from_millis(300));
    let t0 = Instant::now();
    stdin
        .write_all(format!("move {sq}\nping 2\n").as_bytes())
        .unwrap();
    until("pong 2");
    let took = t0.elapsed();
    stdin.write_all(b"quit\n").unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    (took, text)
}

#[test]
fn with_ponder_the_engine_thinks_while_waiting_and_answers_at_once() {
    let (took, log) = session_after_go(&["nboard", "--ponder"]);
    assert!(log.contains("pondering"), "{log}");
    assert!(took < Duration::from_secs(2), "the ping took {took:?}");
    let (_, log) = session_after_go(&["nboard"]);
    assert!(!log.contains("pondering"), "{log}");
}

/// Runs `command` with `input` on its stdin (then closed) and collects its output.
fn run_with_input(command: &mut Command, input: &[u8]) -> std::io::Result<std::process::Output> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child.stdin.take().unwrap().write_all(input)?;
    child.wait_with_output()
}

// Issue #34: `othello` alone at a terminal says what it is and how to play, on stderr; a GUI
// (a pipe) hears nothing but the protocol.
#[test]
fn a_terminal_is_greeted_and_a_gui_is_not() {
    let piped = run_with_input(
        &mut Command::new(env!("CARGO_BIN_EXE_othello")),
        b"ping 1\nquit\n",
    )
    .unwrap();
    assert!(piped.status.success());
    assert_eq!(String::from_utf8_lossy(&piped.stdout), "pong 1\n");
    let err = String::from_utf8_lossy(&piped.stderr);
    assert!(!err.contains("othello play"), "{err}");
    // A terminal, from util-linux's `script` where the machine has it.
    let mut script = Command::new("script");
    script.args(["-qec", env!("CARGO_BIN_EXE_othello"), "/dev/null"]);
    let Ok(tty) = run_with_input(&mut script, b"quit\n") else {
        eprintln!("no `script` here: the terminal half is skipped");
        return;
    };
    if !tty.status.success() {
        eprintln!("`script` could not make a terminal here: the terminal half is skipped");
        return;
    }
    // The pty joins stdout and stderr.
    let shown = String::from_utf8_lossy(&tty.stdout);
    assert!(
        shown.contains("To play here, run `othello play`"),
        "the terminal saw: {shown}"
    );
}

/// `analyze` and `ping` sent in one write, on a finished game whose only position is its start
/// (set with `setboard`): the new input stops the analysis at once, yet the final score, which
/// needs no search, is printed, and before the pong. Before, nothing was printed.
#[test]
fn analyze_of_a_finished_start_position_gives_its_final_score_even_when_interrupted() {
    let mut gui = Gui::start(&[]);
    gui.send("nboard 2\n");
    gui.sync(1);
    // Black: 62 discs, two empty squares, White to move and no one can move.
    let board = format!("{}-- O", "X".repeat(62));
    gui.send(&format!("setboard {board}\nanalyze\nping 2\n"));
    let lines = gui.until(Duration::from_secs(5), |l| l == "pong 2");
    let analysis: Vec<&String> = lines.iter().filter(|l| l.starts_with("analysis")).collect();
    assert_eq!(analysis, ["analysis 0 -64.00"], "{lines:?}");
    gui.send("quit\n");
    assert!(gui.exits_within(Duration::from_secs(1)));
}
