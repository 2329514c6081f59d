//! `othello play` on a real terminal: the binary under a pseudo-terminal, typed at with pauses,
//! as a person would. Checks the clock that ticks above the prompt while the person thinks,
//! the console's commands (`board`, `level N`, `go`, `swap`, `new`), and a timed game resumed
//! with `--file`: its clock goes on, and it is saved back to the same file.
//!
//! The pseudo-terminal is util-linux's `script` (`script -q -e -c CMD /dev/null`), present on
//! every Linux system: no pty crate is added to the dependencies (`tests/architecture.rs`
//! keeps their list short), and `script` gives the program exactly what a terminal gives it
//! (standard input and output are a tty, so colours and the ticking clock are on). Where
//! `script` is missing the test says so and passes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_othello");

fn have_script() -> bool {
    Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `othello ARGS` under a pseudo-terminal, typing each `(pause, line)` after its pause;
/// returns everything the program wrote to the terminal.
fn on_a_terminal(args: &str, typed: &[(f64, &str)]) -> String {
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", &format!("{BIN} {args}"), "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().unwrap();
    for (pause, line) in typed {
        std::thread::sleep(Duration::from_secs_f64(*pause));
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    std::thread::sleep(Duration::from_millis(500));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("othello-pty-{}-{name}", std::process::id()))
}

#[test]
fn the_clock_ticks_and_the_console_commands_work_on_a_terminal() {
    if !have_script() {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    }
    let ggf = temp("console.ggf");
    let _ = std::fs::remove_file(&ggf);
    let args = format!(
        "play engine:level=1,book=off,threads=1 --time 300 --ggf {}",
        ggf.display()
    );
    // Think 4 s at the first prompt (the clock ticks, across the prompt again after `board`),
    // then the commands.
    let typed = [
        (1.0, "board"),
        (3.0, "level 2"),
        (0.3, "go"),
        (0.8, "swap"),
        (0.8, "new"),
        (0.8, "quit"),
    ];
    let text = on_a_terminal(&args, &typed);
    // The clock line above the prompt, then rewritten in place (cursor saved, one line up,
    // the line cleared, cursor restored) as the seconds go by.
    assert!(text.contains("  clock: X 5:00 (you) | O 5:00"), "{text}");
    let ticks: Vec<&str> = text
        .split("\x1b7\x1b[1A\r\x1b[2K")
        .skip(1)
        .map(|t| &t[..t.find("\x1b8").unwrap()])
        .collect();
    assert!(
        ticks.contains(&"  clock: X 4:59 (you) | O 5:00"),
        "{ticks:?}"
    );
    assert!(
        ticks.contains(&"  clock: X 4:58 (you) | O 5:00"),
        "{ticks:?}"
    );
    // board: drawn again at the same prompt; level 2: noted; go: the engine plays Black's
    // move; swap: the person is White; new: a second game.
    assert!(
        text.matches("X (Black, you) to move").count() >= 2,
        "{text}"
    );
    assert!(
        text.contains("level 2 from the opponent's next move"),
        "{text}"
    );
    assert!(text.contains("X moves to"), "{text}");
    assert!(text.contains("you now play White"), "{text}");
    assert!(text.contains("a new game: you play White"), "{text}");
    assert!(text.contains("2 games saved to"), "{text}");
    let saved = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(saved.lines().count(), 2, "{saved}");
    std::fs::remove_file(&ggf).ok();
}

/// A timed game left unfinished and resumed with `--file`: the clock shows the time the
/// person used before, and the game is saved back to the same file (not a new one).
#[test]
fn a_resumed_game_keeps_its_clock_and_its_file() {
    if !have_script() {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    }
    let ggf = temp("resume.ggf");
    let _ = std::fs::remove_file(&ggf);
    let first = format!(
        "play engine:level=1,book=off,threads=1 --time 300 --ggf {}",
        ggf.display()
    );
    on_a_terminal(&first, &[(4.0, "f5"), (1.0, "quit")]);
    let saved = std::fs::read_to_string(&ggf).unwrap();
    assert!(saved.contains("TI[5:00"), "{saved}");
    // The seconds the person took for f5, as recorded: `B[F5//<seconds>]`.
    let used: f64 = saved[saved.find("B[F5//").unwrap() + 6..]
        .split(']')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(used >= 0.5, "{saved}");
    let resumed = format!(
        "play engine:level=1,book=off,threads=1 --file {}",
        ggf.display()
    );
    let text = on_a_terminal(&resumed, &[(1.0, "quit")]);
    // The clock goes on from the time used: 5:00 less those seconds.
    let left = (300.0 - used).round() as u64;
    let shown = format!("clock: X {}:{:02} (you)", left / 60, left % 60);
    assert!(text.contains(&shown), "{shown}: {text}");
    assert!(
        text.contains(&format!("Game saved to {}", ggf.display())),
        "{text}"
    );
    let again = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(again.lines().count(), 1, "{again}");
    assert!(again.contains("B[F5"), "{again}");
    std::fs::remove_file(&ggf).ok();
}
