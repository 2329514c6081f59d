//! The opening book end to end: `othello book build|deviate|export|import|stats` on the WTHOR
//! sample, a build killed at random moments (the book on disk always loads and keeps every
//! finished search), and the book in the NBoard engine (`book` hint lines, book moves for
//! `go`, `learn` saved to a file).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use othello::board::{Board, Move, Position};
use othello::book::{self, file, Book, LeafState};
use othello::rng::SplitMix64;

const GAMES: &str = "tests/data/wthor/WTH_2025-first200.pgn";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_othello"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> String {
    let out = bin().args(args).output().expect("othello runs");
    assert!(
        out.status.success(),
        "othello {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn build_args<'a>(out: &'a str, depth: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "book",
        "build",
        GAMES,
        "--out",
        out,
        "--plies",
        "12",
        "--min-games",
        "2",
        "--depth",
        depth,
        "-j",
        threads,
        "--quiet",
    ]
}

/// Searched (non-pending) leaves of the book at `path`, if there is one.
fn searched(path: &Path) -> Option<usize> {
    if !path.exists() {
        return None;
    }
    let (book, _) = file::open(path).expect("the book on disk always loads");
    Some(book.len() - book.stats().pending)
}

#[test]
fn build_export_import_and_round_trips() {
    let dir = temp_dir("build");
    let path = dir.join("b.book");
    let p = path.to_str().unwrap();
    let report = run(&build_args(p, "4", "2"));
    assert!(report.contains("positions of up to 12 moves"), "{report}");
    let (book, replayed) = file::open(&path).unwrap();
    assert_eq!(replayed, 0, "the build ends compacted");
    let stats = book.stats();
    assert!(stats.positions > 50, "{stats:?}");
    assert_eq!(stats.pending, 0);
    assert!(book
        .get(&Board::start())
        .is_some_and(|e| e.known && e.games == 200));
    // Every book move is legal and its value is consistent with its position's.
    for (board, entry) in book.iter() {
        let moves = book.moves(board);
        if let Some(best) = moves.first() {
            assert_eq!(best.value, entry.value, "the value is the best move's");
        }
        for m in &moves {
            assert!(board.try_play_move(m.mv).is_ok());
        }
    }
    // Text and Edax round trips through the command line.
    let txt = dir.join("b.txt");
    let dat = dir.join("b.dat");
    run(&["book", "export", p, "--out", txt.to_str().unwrap()]);
    run(&["book", "export", p, "--out", dat.to_str().unwrap()]);
    let from_txt = dir.join("t.book");
    let from_dat = dir.join("d.book");
    run(&[
        "book",
        "import",
        txt.to_str().unwrap(),
        "--out",
        from_txt.to_str().unwrap(),
    ]);
    run(&[
        "book",
        "import",
        dat.to_str().unwrap(),
        "--out",
        from_dat.to_str().unwrap(),
    ]);
    let t = file::load(&from_txt).unwrap();
    assert_eq!(t.sorted(), book.sorted(), "text keeps everything");
    let d = file::load(&from_dat).unwrap();
    assert_eq!(d.len(), book.len());
    for (board, _) in book.iter() {
        let whole = |b: &Book| {
            let mut v: Vec<(String, i32, bool)> = b
                .moves(board)
                .iter()
                .map(|m| {
                    (
                        m.mv.to_string(),
                        (m.value as f64 / 100.0).round() as i32,
                        m.link,
                    )
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(
            whole(&d),
            whole(&book),
            "Edax keeps moves and whole-disc values"
        );
    }
    // Merging a book with its own copy: the same positions, every game counted twice, the
    // same values.
    let merged = dir.join("m.book");
    run(&[
        "book",
        "merge",
        p,
        from_txt.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    let m = file::load(&merged).unwrap();
    assert_eq!(m.len(), book.len());
    for (board, e) in book.iter() {
        let both = m.get(board).unwrap();
        assert_eq!((both.games, both.value), (2 * e.games, e.value));
    }
    // Stats and show name the start position's moves.
    let stats = run(&["book", "stats", p]);
    assert!(
        stats.contains("look-up") && stats.contains("load"),
        "{stats}"
    );
    let show = run(&["book", "show", p, "--moves", "f5"]);
    assert!(show.contains("book") || show.contains("leaf"), "{show}");
    // Bad inputs are clear errors.
    let bad = bin()
        .args(["book", "stats", txt.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let bad = bin()
        .args(["book", "show", p, "--moves", "f5z9"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_build_always_leaves_a_loadable_book_and_resumes_to_the_same_book() {
    let dir = temp_dir("crash");
    let whole = dir.join("whole.book");
    let t0 = Instant::now();
    run(&build_args(whole.to_str().unwrap(), "9", "1"));
    let duration = t0.elapsed();
    let reference = file::load(&whole).unwrap();

    let path = dir.join("killed.book");
    let p = path.to_str().unwrap();
    let mut rng = SplitMix64::new(2026);
    let mut last = 0;
    let mut kills = 0;
    let mut mid_search = 0;
    // The window the kills fall in, as a share of the uninterrupted build's time; it shrinks
    // when a build finishes before enough kills (the machine got faster than the first build).
    let mut window = 1.0;
    for _ in 0..100 {
        let mut child = bin()
            .args(build_args(p, "9", "1"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Somewhere in the first half of a whole build's time: at reading, writing the
        // skeleton, searching, writing the journal or compacting.
        std::thread::sleep(duration.mul_f64(window * (0.02 + 0.3 * rng.unit())));
        let finished = child.try_wait().unwrap().is_some();
        if !finished {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
        let now = searched(&path).unwrap_or(0);
        assert!(now >= last, "a kill lost finished searches: {now} < {last}");
        if !finished && now > last && now < reference.len() {
            mid_search += 1;
        }
        last = now;
        if finished {
            if kills >= 3 && mid_search >= 2 {
                break;
            }
            // Finished too soon to have been interrupted enough: check it, and start again
            // from nothing with a shorter window.
            let done = file::load(&path).unwrap();
            assert_eq!(done.sorted(), reference.sorted());
            std::fs::remove_file(&path).unwrap();
            let _ = std::fs::remove_file(dir.join("killed.book.journal"));
            last = 0;
            window *= 0.6;
        }
    }
    assert!(
        kills >= 3 && mid_search >= 2,
        "the build ({duration:?} uninterrupted) was interrupted {kills} times, \
         {mid_search} times while it searched"
    );
    // Resumed to the end: the same book as the uninterrupted build.
    run(&build_args(p, "9", "1"));
    let resumed = file::load(&path).unwrap();
    assert_eq!(resumed.sorted(), reference.sorted());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn deviate_adds_near_best_lines_within_the_limits() {
    let dir = temp_dir("deviate");
    let path = dir.join("d.book");
    let p = path.to_str().unwrap();
    run(&build_args(p, "4", "2"));
    let before = file::load(&path).unwrap();
    run(&[
        "book",
        "deviate",
        p,
        "--tolerance",
        "1",
        "--plies",
        "14",
        "--max-new",
        "25",
        "--depth",
        "4",
        "--quiet",
    ]);
    let after = file::load(&path).unwrap();
    let added: Vec<Board> = after
        .iter()
        .map(|(b, _)| *b)
        .filter(|b| !before.contains(b))
        .collect();
    assert!(
        !added.is_empty() && added.len() <= 25,
        "{} added",
        added.len()
    );
    assert_eq!(after.stats().pending, 0);
    for board in &added {
        assert!(60 - board.empty_count() <= 14, "within the ply limit");
        // Some book position leads to it in one move.
        let has_parent = after.iter().any(|(parent, _)| {
            parent
                .legal_moves()
                .any(|sq| parent.play(sq).canonical() == board.canonical())
        });
        assert!(has_parent);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A random finished game from the start, as a GGF record, and its boards.
fn random_game(seed: u64) -> (String, Vec<Board>) {
    let mut rng = SplitMix64::new(seed);
    let mut position = Position::start();
    let mut boards = vec![position.board];
    let mut moves = String::new();
    while !position.board.is_game_over() {
        let legal: Vec<_> = position.board.legal_moves().collect();
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            Move::Place(legal[rng.below(legal.len() as u64) as usize])
        };
        let colour = if position.side == othello::Color::Black {
            'B'
        } else {
            'W'
        };
        moves.push_str(&format!("{colour}[{mv:#}]"));
        position = position.try_play(mv).unwrap();
        boards.push(position.board);
    }
    let ggf = format!(
        "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]{moves};)"
    );
    (ggf, boards)
}

/// Runs an NBoard session on the binary with `args`, feeding `input`; returns stdout lines.
fn nboard(args: &[&str], input: &str) -> Vec<String> {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let out = BufReader::new(child.stdout.take().unwrap());
    let lines: Vec<String> = out.lines().map_while(Result::ok).collect();
    assert!(Instant::now() < deadline);
    child.wait().unwrap();
    lines
}

#[test]
fn nboard_hints_plays_and_learns_from_the_book() {
    let dir = temp_dir("nboard");
    let path = dir.join("n.book");
    let p = path.to_str().unwrap();
    run(&build_args(p, "4", "2"));
    let book = file::load(&path).unwrap();
    let start = Board::start();
    let expected = book.moves(&start);
    assert!(!expected.is_empty());

    // hint: one `book` line per book move, best first, with the games count.
    let lines = nboard(&["nboard", "--book", p], "nboard 2\nhint 4\nping 1\n");
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(hints.len(), expected.len().min(4), "{lines:?}");
    for (line, m) in hints.iter().zip(&expected) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let mv: Move = fields[1].parse().unwrap();
        assert!(start.try_play_move(mv).is_ok());
        assert_eq!(fields[2], format!("{:.2}", m.value as f64 / 100.0));
        assert_eq!(fields[3], m.games.to_string());
    }
    // go plays the book's best move; with the book off, the engine searches.
    let lines = nboard(
        &["nboard", "--book", p],
        "nboard 2\nset depth 4\ngo\nping 1\n",
    );
    let go = lines.iter().find(|l| l.starts_with("=== ")).unwrap();
    let mv: Move = go[4..].split('/').next().unwrap().parse().unwrap();
    assert_eq!(mv, expected[0].mv, "{go}");
    assert!(
        !lines.iter().any(|l| l.starts_with("nodestats")),
        "no search: {lines:?}"
    );
    let lines = nboard(
        &["nboard", "--book", "off"],
        "nboard 2\nset depth 4\ngo\nping 1\n",
    );
    assert!(
        lines.iter().any(|l| l.starts_with("nodestats")),
        "a search: {lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("=== ")));

    // learn: a game the book has not seen is added and saved to a new book file.
    let learned = dir.join("learned.book");
    let (ggf, boards) = random_game(7);
    let lines = nboard(
        &["nboard", "--book", learned.to_str().unwrap()],
        &format!("nboard 2\nset game {ggf}\nlearn\nping 1\n"),
    );
    assert!(lines.iter().any(|l| l == "learned"), "{lines:?}");
    let saved = book::load_any(&learned).unwrap();
    for board in boards.iter().take_while(|b| 60 - b.empty_count() <= 24) {
        let e = saved
            .get(board)
            .expect("every position of the game up to 24 moves");
        assert!(e.games >= 1);
        assert_ne!(e.leaf, LeafState::Pending, "searched before saving");
    }
    // A bad book file is refused at start, with a clear error.
    let bad = bin()
        .args(["nboard", "--book", "tests/data/perft.txt"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--book"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fuzz target `book`'s checks (fuzz/fuzz_targets/book.rs) on random mutations of its
/// seeds: byte changes, cuts and insertions never make a reader panic, and what a reader
/// accepts has legal moves and reads back the same after writing.
#[test]
fn mutated_books_never_panic() {
    let seeds: Vec<Vec<u8>> = ["book", "edax", "text"]
        .iter()
        .map(|n| std::fs::read(format!("fuzz/seeds/book/{n}")).unwrap())
        .collect();
    let mut rng = SplitMix64::new(17);
    let mut accepted = 0;
    for round in 0..3000 {
        let mut data = seeds[round % 3].clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(data.len() as u64) as usize;
            match rng.below(4) {
                0 => data[i] ^= 1 << rng.below(8),
                1 => data[i] = rng.below(256) as u8,
                2 => data.truncate(i.max(1)),
                _ => data.insert(i, rng.below(256) as u8),
            }
        }
        let rest = &data[1..];
        let book = match data[0] % 3 {
            0 => file::from_bytes(rest).ok(),
            1 => othello::book::edax::from_edax_bytes(rest).ok(),
            _ => std::str::from_utf8(rest)
                .ok()
                .and_then(|t| othello::book::text::from_text(t).ok()),
        };
        if let Some(book) = book {
            accepted += 1;
            for (board, _) in book.iter() {
                for m in book.moves(board) {
                    assert!(board.try_play_move(m.mv).is_ok());
                }
            }
            let again = file::from_bytes(&file::to_bytes(&book)).unwrap();
            assert_eq!(again.sorted(), book.sorted());
        }
    }
    assert!(accepted > 0, "some mutations stay valid");
}
