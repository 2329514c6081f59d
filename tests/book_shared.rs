//! A book shared by several processes loses no learned game: two NBoard engines learn random
//! games into one book file while `book deepen` runs over it again and again; at the end every
//! position of every learned game (up to 24 moves) is in the book and the start position
//! counts every game. A foreign file at the journal path is refused, never truncated.
//!
//! `OTHELLO_SHARED_LEARNS=1000 cargo test --release --test book_shared -- --ignored` runs the
//! longer version.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use othello::board::Board;
use othello::rng::SplitMix64;

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_othello")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-shared-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A random finished game from the start: its GGF line and its boards.
fn random_game(seed: u64) -> (String, Vec<Board>) {
    let mut rng = SplitMix64::new(seed);
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
    let boards = game.positions().iter().map(|p| p.board).collect();
    (game.to_string(), boards)
}

/// An NBoard engine on the book, its output lines on a channel.
struct Engine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(book: &Path) -> Engine {
        let mut child = Command::new(binary())
            .args(["nboard", "--threads", "1", "--book", book.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.send("nboard 2\n");
        engine
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to `pong n`: how many `learned`, and any error.
    fn until_pong(&mut self, n: usize) -> (usize, Vec<String>) {
        let deadline = Instant::now() + Duration::from_secs(300);
        let (mut learned, mut errors) = (0, Vec::new());
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).expect("the engine answers");
            if line == "learned" {
                learned += 1;
            } else if line.starts_with("status error") {
                errors.push(line);
            } else if line == format!("pong {n}") {
                return (learned, errors);
            }
        }
    }
}

fn shared_book(tag: &str, learns: usize) {
    let dir = scratch(tag);
    let book = dir.join("my.book");
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor/WTH_1977.wtb");
    let status = Command::new(binary())
        .args(["book", "build", games, "--out", book.to_str().unwrap()])
        .args([
            "--plies",
            "8",
            "--min-games",
            "2",
            "--depth",
            "2",
            "--quiet",
            "-j",
            "1",
        ])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let (initial, _) = othello::book::file::open(&book).unwrap();
    let start_games = initial.get(&Board::start()).unwrap().games;

    // book deepen, again and again, until the learning is over.
    let done = AtomicBool::new(false);
    let mut deepens = 0;
    std::thread::scope(|s| {
        let deepener = s.spawn(|| {
            let mut runs = 0;
            loop {
                let last = done.load(Ordering::Acquire);
                let depth = 3 + runs % 3;
                let out = Command::new(binary())
                    .args([
                        "book",
                        "deepen",
                        book.to_str().unwrap(),
                        "--quiet",
                        "-j",
                        "1",
                    ])
                    .args(["--depth", &depth.to_string()])
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "book deepen: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                runs += 1;
                if last {
                    return runs;
                }
            }
        });
        let mut engines = [Engine::start(&book), Engine::start(&book)];
        let mut rng = SplitMix64::new(0x5eed ^ learns as u64);
        let mut sent = [0usize; 2];
        let mut last_ping = [0usize; 2];
        for i in 0..learns {
            let k = rng.below(2) as usize;
            let (ggf, _) = random_game(1000 + i as u64);
            engines[k].send(&format!("set game {ggf}\nlearn\nping {}\n", i + 1));
            sent[k] += 1;
            last_ping[k] = i + 1;
            // Now and then, wait for an engine: the learns interleave with each other and
            // with the deepening rather than queue up.
            if rng.below(4) == 0 && last_ping[k] > 0 {
                let (learned, errors) = engines[k].until_pong(last_ping[k]);
                assert!(errors.is_empty(), "{errors:?}");
                sent[k] -= learned;
                assert_eq!(sent[k], 0, "every learn answered learned");
            }
        }
        for k in 0..2 {
            if sent[k] > 0 {
                let (learned, errors) = engines[k].until_pong(last_ping[k]);
                assert!(errors.is_empty(), "{errors:?}");
                assert_eq!(learned, sent[k], "every learn answered learned");
            }
            engines[k].send("quit\n");
            engines[k].child.wait().unwrap();
        }
        done.store(true, Ordering::Release);
        deepens = deepener.join().unwrap();
    });
    assert!(deepens >= 2, "the deepening ran beside the learning");

    let (shared, _) = othello::book::file::open(&book).unwrap();
    assert_eq!(
        shared.get(&Board::start()).unwrap().games,
        start_games + learns as u32,
        "the start position counts every learned game"
    );
    for i in 0..learns {
        let (_, boards) = random_game(1000 + i as u64);
        for board in boards.iter().take_while(|b| 60 - b.empty_count() <= 24) {
            assert!(
                shared.get(board).is_some_and(|e| e.games >= 1),
                "game {i}: a position after {} moves is missing",
                60 - board.empty_count()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_engines_and_a_deepen_lose_no_learned_game() {
    shared_book("short", 100);
}

#[test]
#[ignore = "minutes: OTHELLO_SHARED_LEARNS learns (default 1000)"]
fn many_learns_beside_deepening_lose_nothing() {
    let learns = std::env::var("OTHELLO_SHARED_LEARNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    shared_book("long", learns);
}

#[test]
fn a_foreign_file_at_the_journal_path_is_refused_and_kept() {
    let dir = scratch("foreign");
    let book = dir.join("o.book");
    let journal = dir.join("o.book.journal");
    let foreign = b"root:x:0:0:root:/root:/bin/bash\n".repeat(40);
    std::fs::write(dir.join("passwd.copy"), &foreign).unwrap();
    std::os::unix::fs::symlink("passwd.copy", &journal).unwrap();
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor/WTH_1977.wtb");
    let out = Command::new(binary())
        .args(["book", "build", games, "--out", book.to_str().unwrap()])
        .args([
            "--plies",
            "4",
            "--min-games",
            "2",
            "--depth",
            "1",
            "--quiet",
            "-j",
            "1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("o.book.journal") && stderr.contains("not a book journal"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(dir.join("passwd.copy")).unwrap(), foreign);
    assert!(!book.exists(), "refused before the book was written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs an NBoard engine on `book` with `input`; its output lines.
fn nboard_session(book: &Path, input: &str) -> Vec<String> {
    let mut engine = Engine::start(book);
    engine.send(input);
    engine.send("ping 99\n");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut lines = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = engine.lines.recv_timeout(left).expect("the engine answers");
        if line == "pong 99" {
            break;
        }
        lines.push(line);
    }
    engine.send("quit\n");
    engine.child.wait().unwrap();
    lines
}

#[test]
fn learn_into_an_edax_book_is_refused_and_saves_nothing() {
    let dir = scratch("edax");
    let dat = dir.join("e.dat");
    let status = Command::new(binary())
        .args(["book", "export", "default", "--out", dat.to_str().unwrap()])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let before = std::fs::read(&dat).unwrap();
    let (ggf, _) = random_game(5);
    let lines = nboard_session(&dat, &format!("set game {ggf}\nlearn\n"));
    assert!(!lines.iter().any(|l| l == "learned"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status error") && l.contains("Edax")),
        "{lines:?}"
    );
    assert_eq!(std::fs::read(&dat).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn learn_refuses_a_game_that_does_not_begin_at_the_start() {
    let dir = scratch("not-start");
    let book = dir.join("n.book");
    // A position after f5 d6 c3, set as a board: a game of no moves from there.
    let text = othello::xot::position_after("f5d6c3")
        .unwrap()
        .to_board_string();
    let lines = nboard_session(&book, &format!("setboard {text}\nlearn\n"));
    assert!(!lines.iter().any(|l| l == "learned"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status error") && l.contains("standard start")),
        "{lines:?}"
    );
    assert!(!book.exists(), "nothing saved");
    let _ = std::fs::remove_dir_all(&dir);
}
