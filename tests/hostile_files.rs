//! The file policy through the binary, one test per row of issue #31's table that is about
//! files: special files (FIFOs, links, link loops) and outputs that are inputs, all made in a
//! temporary directory (nothing here opens `/dev`). Each test would hang, eat memory or damage
//! a file on the code before the policy; a watchdog turns a hang into a failure.

use std::io::{Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Makes a FIFO at `path` (nobody ever writes to it: a reader that opens it blocks).
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_fifo()
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_symlink()
}

/// What a run of the binary gave.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `args` and `input` on stdin. A run still going after a minute is
/// killed and fails the test: that is the hang the policy prevents (a deadline, not a timing).
fn run(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("othello {args:?} hung (killed after 60 s)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    Run {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// A run that failed cleanly: status 1, no panic, an error naming `path`.
fn refused(r: &Run, path: &Path, why: &str) {
    assert_eq!(r.code, Some(1), "stdout {}\nstderr {}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(
        r.stderr.contains(&path.display().to_string()),
        "the error names {}: {}",
        path.display(),
        r.stderr
    );
    assert!(r.stderr.contains(why), "{why:?} in {}", r.stderr);
}

/// A random finished game as one GGF line.
fn ggf_game(seed: u64) -> String {
    let mut rng = othello::rng::SplitMix64::new(seed);
    let mut game = othello::game::Game::new(othello::Position::start());
    while !game.position().board.is_game_over() {
        let board = game.position().board;
        let legal: Vec<_> = board.legal_moves().collect();
        let mv = if legal.is_empty() {
            othello::Move::Pass
        } else {
            othello::Move::Place(legal[rng.below(legal.len() as u64) as usize])
        };
        game.push(othello::game::MoveRecord {
            mv,
            eval: None,
            seconds: None,
        })
        .unwrap();
    }
    game.to_string()
}

/// The NBoard session's lines up to its last `pong`.
fn nboard(args: &[&str], commands: &str) -> Vec<String> {
    let mut all = vec!["nboard"];
    all.extend_from_slice(args);
    let r = run(&all, commands);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    r.stdout.lines().map(str::to_string).collect()
}

// Row 1: `set book /dev/zero` took 17.7 GB in 7 s. A regular file larger than a book may be
// (sparse, so it costs no disk) stands for the endless device; a link to it as well.
#[test]
fn row1_a_huge_book_is_refused_by_its_size_and_the_engine_answers() {
    let dir = scratch("row1");
    let huge = dir.join("huge.book");
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(3 << 30).unwrap();
    let link = dir.join("link.book");
    std::os::unix::fs::symlink(&huge, &link).unwrap();
    for path in [&huge, &link] {
        let lines = nboard(&[], &format!("set book {}\nping 1\n", path.display()));
        let error = lines
            .iter()
            .find(|l| l.starts_with("status") && l.contains("larger than"))
            .unwrap_or_else(|| panic!("an error: {lines:?}"));
        assert!(error.contains(&path.display().to_string()), "{error}");
        assert_eq!(lines.last().unwrap(), "pong 1");
    }
    let r = run(&["book", "stats", huge.to_str().unwrap()], "");
    refused(&r, &huge, "larger than");
    std::fs::remove_dir_all(&dir).unwrap();
}

// Row 1b: a FIFO as the book, as its journal, or the engine's own stdin blocked forever.
#[test]
fn row1b_a_fifo_book_or_journal_or_stdin_is_refused_without_blocking() {
    let dir = scratch("row1b");
    let fifo = dir.join("pipe.book");
    mkfifo(&fifo);
    let lines = nboard(&[], &format!("set book {}\nping 1\n", fifo.display()));
    assert!(
        lines.iter().any(|l| l.contains("FIFO")),
        "an error naming the FIFO: {lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 1");
    // A real book whose journal is a FIFO.
    let book = dir.join("b.book");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("book/default.book"),
        &book,
    )
    .unwrap();
    let journal = dir.join("b.book.journal");
    mkfifo(&journal);
    let lines = nboard(&[], &format!("set book {}\nping 1\n", book.display()));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("FIFO") && l.contains("b.book.journal")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 1");
    // The engine's own standard input (a pipe here).
    let lines = nboard(&[], "set book /proc/self/fd/0\nping 1\n");
    assert!(lines.iter().any(|l| l.contains("FIFO")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 1");
    // --book too.
    let r = run(&["nboard", "--book", fifo.to_str().unwrap()], "ping 1\n");
    refused(&r, &fifo, "FIFO");
    assert!(is_fifo(&fifo) && is_fifo(&journal));
    std::fs::remove_dir_all(&dir).unwrap();
}

// Row 2: a FIFO as the weight file, or as the `.mpc` beside a good one.
#[test]
fn row2_a_fifo_weight_file_or_mpc_is_refused_without_blocking() {
    let dir = scratch("row2");
    let fifo = dir.join("w.bin");
    mkfifo(&fifo);
    let lines = nboard(&[], &format!("set eval {}\nping 1\n", fifo.display()));
    assert!(lines.iter().any(|l| l.contains("FIFO")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "pong 1");
    // Good weights, with a FIFO as their model.
    let weights = dir.join("good.bin");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/pattern-v5.bin"),
        &weights,
    )
    .unwrap();
    let mpc = dir.join("good.mpc");
    mkfifo(&mpc);
    let lines = nboard(&[], &format!("set eval {}\nping 1\n", weights.display()));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("FIFO") && l.contains("good.mpc")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 1");
    // --eval-file and $OTHELLO_EVAL_FILE.
    let r = run(
        &["--eval-file", weights.to_str().unwrap(), "perft", "1"],
        "",
    );
    refused(&r, &mpc, "FIFO");
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["perft", "1"])
        .env("OTHELLO_EVAL_FILE", &fifo)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("FIFO"));
    // `train --prior`: refused before any data is read, and nothing written.
    let out_bin = dir.join("trained.bin");
    let r = run(
        &[
            "train",
            dir.join("none.dat").to_str().unwrap(),
            "--prior",
            fifo.to_str().unwrap(),
            "--out",
            out_bin.to_str().unwrap(),
        ],
        "",
    );
    refused(&r, &fifo, "FIFO");
    assert!(r.stderr.contains("--prior"), "{}", r.stderr);
    assert!(!out_bin.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

// Row 3: an output that is a device, a FIFO or a link was replaced by a regular file; `learn`
// into a linked book replaced the link and left the real book as it was.
#[test]
fn row3_special_outputs_are_refused_and_links_are_followed() {
    let dir = scratch("row3");
    let games = dir.join("g.ggf");
    std::fs::write(&games, format!("{}\n", ggf_game(1))).unwrap();
    let fifo = dir.join("out.pgn");
    mkfifo(&fifo);
    let g = games.to_str().unwrap();
    let f = fifo.to_str().unwrap();
    for args in [
        vec!["games", "convert", g, "--out", f],
        vec!["games", "export", g, "--out", f],
        vec![
            "review", g, "--depth", "2", "--exact", "4", "--quiet", "--html", f,
        ],
        vec!["book", "export", "default", "--out", f],
    ] {
        let r = run(&args, "");
        refused(&r, &fifo, "FIFO");
        assert!(is_fifo(&fifo), "{args:?} replaced the FIFO");
    }
    // learn into a link: the real book learns, the link stays a link.
    let real = dir.join("real.book");
    let link = dir.join("link.book");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    // A dangling link is refused (a save would replace it by a file).
    let r = run(
        &["nboard", "--book", link.to_str().unwrap()],
        &format!("set game {}\nlearn\nping 1\n", ggf_game(2)),
    );
    refused(&r, &link, "dangling link");
    assert!(is_symlink(&link) && !real.exists());
    // Once the link points to a book, learning writes that book.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("book/default.book"),
        &real,
    )
    .unwrap();
    let before = std::fs::read(&real).unwrap();
    let lines = nboard(
        &["--book", link.to_str().unwrap()],
        &format!("set game {}\nlearn\nping 1\n", ggf_game(3)),
    );
    assert!(lines.iter().any(|l| l == "learned"), "{lines:?}");
    assert!(is_symlink(&link));
    assert_ne!(
        std::fs::read(&real).unwrap(),
        before,
        "the real book learned"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// Row 8: an output that is the input destroyed the input.
#[test]
fn row8_an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = scratch("row8");
    let games = dir.join("r.ggf");
    std::fs::write(&games, format!("{}\n", ggf_game(4))).unwrap();
    let book = dir.join("b.book");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("book/default.book"),
        &book,
    )
    .unwrap();
    let text = dir.join("t.txt");
    std::fs::write(&text, "a book text\n").unwrap();
    let (g, b, t) = (
        games.to_str().unwrap(),
        book.to_str().unwrap(),
        text.to_str().unwrap(),
    );
    let cases: Vec<(Vec<&str>, &Path)> = vec![
        (
            vec![
                "review", g, "--depth", "2", "--exact", "4", "--quiet", "--html", g,
            ],
            &games,
        ),
        (vec!["games", "export", g, "--out", g], &games),
        (vec!["games", "convert", g, "--out", g], &games),
        (vec!["book", "export", b, "--out", b], &book),
        (vec!["book", "import", t, "--out", t], &text),
        (vec!["book", "merge", b, "--out", b], &book),
    ];
    for (args, input) in cases {
        let before = std::fs::read(input).unwrap();
        let r = run(&args, "");
        refused(&r, input, "is the input");
        assert_eq!(std::fs::read(input).unwrap(), before, "{args:?}");
    }
    // Also through a directory of inputs: the output is one of its files.
    let r = run(&["games", "convert", dir.to_str().unwrap(), "--out", g], "");
    refused(&r, &games, "is the input");
    std::fs::remove_dir_all(&dir).unwrap();
}

// Row 9: every command-line reader on a FIFO (or an endless file) blocked or ate memory.
#[test]
fn row9_every_reader_refuses_a_fifo_by_name() {
    let dir = scratch("row9");
    let fifo = dir.join("in.pgn");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    let out = dir.join("out.book");
    let o = out.to_str().unwrap();
    for args in [
        vec!["games", "stats", f],
        vec!["book", "stats", f],
        vec!["solve", f],
        vec!["solve", f, "--jsonl"],
        vec!["review", f],
        vec!["book", "import", f, "--out", o],
        vec!["games", "convert", f, "--out", o],
        vec!["audit", f, "--at", "4"],
        vec!["quality", f, "--depth", "1"],
    ] {
        let r = run(&args, "");
        refused(&r, &fifo, "FIFO");
    }
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

// Row 10: a link loop was taken for a new book (`Path::exists` is false on it), and `learn`
// then replaced the link.
#[test]
fn row10_a_link_loop_is_not_a_new_book() {
    let dir = scratch("row10");
    let a = dir.join("a.book");
    let b = dir.join("b.book");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let lines = nboard(
        &[],
        &format!(
            "set book {}\nset game {}\nlearn\nping 1\n",
            a.display(),
            ggf_game(5)
        ),
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status") && l.contains(&a.display().to_string())),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 1");
    assert!(is_symlink(&a) && is_symlink(&b));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["a.book", "b.book"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

// The small item: a killed write left its `.tmp` file behind. Ctrl-C (SIGINT) at moments spread
// over a book build (reading, the skeleton's save, searches, the journal's compactions) never
// leaves a temporary file, and the process still ends by the signal. SIGKILL cannot be caught:
// that case is the killed-build test of tests/book.rs, where the book stays loadable.
#[test]
fn an_interrupted_write_leaves_no_temporary_file() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let dir = scratch("interrupt");
    let book = dir.join("i.book");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = root.join("tests/data/wthor/WTH_2025-first200.pgn");
    let args = |out: &Path| -> Vec<String> {
        [
            "book",
            "build",
            games.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--plies",
            "12",
            "--min-games",
            "2",
            "--depth",
            "9",
            "-j",
            "1",
            "--quiet",
        ]
        .map(String::from)
        .to_vec()
    };
    let t0 = Instant::now();
    let whole = run(
        &args(&dir.join("whole.book"))
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "",
    );
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    let duration = t0.elapsed();
    let mut interrupted = 0;
    for k in 0..8u32 {
        let _ = std::fs::remove_file(&book);
        let _ = std::fs::remove_file(dir.join("i.book.journal"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_othello"));
        command
            .args(args(&book))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // A test run started in the background by a non-interactive shell inherits SIGINT
        // ignored, and the program rightly leaves an ignored signal ignored: give the child
        // the default disposition, as a terminal's Ctrl-C would find it.
        // SAFETY: runs in the forked child before exec; `signal` is async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut child = command.spawn().unwrap();
        std::thread::sleep(duration.mul_f64(0.05 + 0.1 * k as f64));
        // SAFETY: a signal to our own child, which has not been waited for yet.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGINT);
        }
        let status = child.wait().unwrap();
        if status.signal() == Some(libc::SIGINT) {
            interrupted += 1;
        } else {
            assert!(status.success(), "{status}");
        }
        let temporary: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(temporary.is_empty(), "left behind: {temporary:?}");
    }
    assert!(
        interrupted > 0,
        "no build was interrupted ({duration:?} each)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
