//! The board page in a real browser: headless Chromium driven through WebDriver
//! (chromedriver, tests/support/webdriver.rs), clicking and typing as a person would. Each
//! test runs on both pages: `served_*` on `othello serve`, `static_*` on the static page with
//! the engine in WebAssembly (scripts/static-page.sh, served as plain files by
//! tests/support/static_site.rs). Ignored by default, as they need Debian's `chromium` and
//! `chromium-driver` and the built static page; `.ci/run` installs and builds them and runs:
//!
//!     cargo test --test browser -- --ignored --test-threads 1
//!
//! Each test has its own server (one search thread and a 16 MiB table, as the static page's
//! engine has, so that hints are deterministic) and its own browser. `screenshot_for_the_docs` writes `docs/board.png` when `OTHELLO_BOARD_PNG`
//! names it (scripts/board-screenshot.sh).

mod common;
#[path = "support/server.rs"]
mod server;
#[path = "support/static_site.rs"]
mod static_site;
#[path = "support/webdriver.rs"]
mod webdriver;

use std::process::Command;

use common::{first_quality_position, random_move_list};
use serde_json::Value;
use server::Server;
use static_site::StaticSite;
use webdriver::Browser;

const NEEDS: &str = "needs chromium and chromium-driver (apt-get); .ci/run runs it";

/// Which page a test runs on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Page {
    /// `othello serve`'s page, the engine in the server.
    Served,
    /// The static page, the engine in the browser.
    Static,
}

/// Where the page is served from (kept alive for the test).
enum Site {
    Served(Server),
    Static(StaticSite),
}

impl Site {
    fn url(&self) -> &str {
        match self {
            Site::Served(server) => &server.url,
            Site::Static(site) => &site.url,
        }
    }
}

fn start(name: &str, page: Page) -> (Site, Browser) {
    let site = match page {
        Page::Served => Site::Served(Server::start(&["--threads", "1", "--hash", "16"])),
        Page::Static => Site::Static(StaticSite::start(static_site::page_dir())),
    };
    let browser = Browser::start(&format!("{name}-{page:?}"));
    (site, browser)
}

/// Opens `url` and waits for the page to be connected and drawn (with `ply` moves made, if
/// given).
fn open(browser: &Browser, url: &str, ply: Option<u64>) {
    browser.open(url);
    browser.wait_for(
        "the page to connect",
        30,
        "return typeof state !== 'undefined' && state !== null && \
         document.getElementById('connection').className === 'on'",
    );
    if let Some(ply) = ply {
        browser.wait_for(
            &format!("the position after {ply} moves"),
            30,
            &format!("return state.ply === {ply}"),
        );
    }
}

/// The page's last state (what it drew).
fn state(browser: &Browser) -> Value {
    browser.script("return state")
}

/// The squares of Black's and White's discs after a move list, by the library.
fn discs_after(moves: &str) -> (Vec<String>, Vec<String>) {
    let mut position = othello::Position::start();
    for i in (0..moves.len()).step_by(2) {
        let sq: othello::Square = moves[i..i + 2].parse().unwrap();
        position = position.try_play(othello::Move::Place(sq)).unwrap();
        if position.board.must_pass() {
            position = position.try_play(othello::Move::Pass).unwrap();
        }
    }
    let (black, white) = position.black_white();
    let names = |bits: u64| {
        let mut v: Vec<String> = othello::Square::ALL
            .iter()
            .filter(|s| bits & s.bit() != 0)
            .map(|s| s.to_string())
            .collect();
        v.sort();
        v
    };
    (names(black), names(white))
}

fn othello() -> Command {
    Command::new(env!("CARGO_BIN_EXE_othello"))
}

/// Squares of the drawn board that hold a disc of `color` (`black` or `white`), sorted.
fn drawn(browser: &Browser, color: &str) -> Vec<String> {
    let v = browser.script(&format!(
        "return Array.from(document.querySelectorAll('.sq[data-disc=\"{color}\"]'))\
         .map(e => e.dataset.square).sort()"
    ));
    serde_json::from_value(v).unwrap()
}

#[test]
#[ignore = "needs chromium and chromium-driver (apt-get); .ci/run runs it"]
fn served_a_whole_game_against_level_1_then_export_and_review() {
    a_whole_game_against_level_1_then_export_and_review(Page::Served);
}

#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_a_whole_game_against_level_1_then_export_and_review() {
    a_whole_game_against_level_1_then_export_and_review(Page::Static);
}

fn a_whole_game_against_level_1_then_export_and_review(page: Page) {
    let _ = NEEDS;
    let (server, browser) = start("game", page);
    open(&browser, server.url(), Some(0));
    browser.type_into("#level", "1");
    let mut clicks = 0;
    loop {
        let turn = browser.wait_for(
            "Black's turn or the end",
            60,
            "return (!state.busy && (state.over || (state.to_move === 'black' && \
             document.querySelectorAll('.sq.legal').length > 0))) ? state : null",
        );
        if turn["over"] == true {
            break;
        }
        let ply = turn["ply"].as_u64().unwrap();
        // The first legal square the page shows, clicked.
        let square = browser.script("return document.querySelector('.sq.legal').dataset.square");
        let square = square.as_str().unwrap().to_string();
        browser.click(&format!("#sq-{square}"));
        browser.wait_for(
            &format!("{square} to be played"),
            30,
            &format!("return state.ply > {ply}"),
        );
        clicks += 1;
        assert!(clicks <= 40, "more than 40 moves of Black's");
    }
    let end = state(&browser);
    let (black, white) = (drawn(&browser, "black"), drawn(&browser, "white"));
    assert_eq!(end["discs"][0].as_u64().unwrap() as usize, black.len());
    assert_eq!(end["discs"][1].as_u64().unwrap() as usize, white.len());
    let turn = browser.script("return document.getElementById('turn').textContent");
    assert!(turn.as_str().unwrap().starts_with("Game over"), "{turn}");
    assert!(clicks >= 10, "a game of {clicks} moves of Black's");

    // The export: the GGF shown, and the same file downloaded.
    let ggf = browser.script("return document.getElementById('ggf').value");
    let ggf = ggf.as_str().unwrap().to_string();
    assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
    browser.click("#download");
    let downloaded = browser.dir.join("downloads").join("othello-game.ggf");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !downloaded.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "no download at {downloaded:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let file = std::fs::read_to_string(&downloaded).unwrap();
    assert_eq!(file.trim_end(), ggf.trim_end());
    // Read back by `othello review`: the same moves and the same result.
    let out = othello()
        .args([
            "review", "--depth", "2", "--exact", "4", "--json", "--quiet",
        ])
        .arg(&downloaded)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let review: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(review["moves_text"], end["move_list"]);
    assert_eq!(review["result"]["black_discs"], end["discs"][0]);
    assert_eq!(review["result"]["white_discs"], end["discs"][1]);

    // The review on the page.
    browser.type_into("#review-depth", "2");
    browser.type_into("#review-exact", "4");
    browser.click("#review");
    browser.wait_for(
        "the review",
        120,
        "return !document.getElementById('review-panel').hidden && \
         document.getElementById('review-frame').srcdoc.includes('<svg')",
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver (apt-get); .ci/run runs it"]
fn served_hints_equal_othello_search_on_the_same_position() {
    hints_equal_othello_search_on_the_same_position(Page::Served);
}

#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_hints_equal_othello_search_on_the_same_position() {
    hints_equal_othello_search_on_the_same_position(Page::Static);
}

fn hints_equal_othello_search_on_the_same_position(page: Page) {
    let (server, browser) = start("hints", page);
    let line = random_move_list(57, 20);
    let plies = line.len() as u64 / 2;
    assert!(plies >= 16, "{line}");
    open(
        &browser,
        &format!("{}?moves={line}", server.url()),
        Some(plies),
    );
    browser.type_into("#hint-depth", "7");
    browser.click("#hints");
    let legal = state(&browser)["legal"].as_array().unwrap().len();
    browser.wait_for(
        "every move's hint",
        120,
        &format!(
            "return document.getElementById('hint-info').dataset.done === 'true' && \
             document.querySelectorAll('.hint').length === {legal}"
        ),
    );
    let hints = browser.script(
        "return Array.from(document.querySelectorAll('.hint')).map(h => \
         [h.parentElement.dataset.square, Number(h.dataset.value), h.dataset.kind, \
          Number(h.dataset.depth)])",
    );
    let hints: Vec<(String, f64, String, u32)> = serde_json::from_value(hints).unwrap();
    assert_eq!(hints.len(), legal);
    // The same search from the command line: same depth, table size, selectivity, 1 thread,
    // and evaluator (the WebAssembly build's is the embedded pattern weights; the server's is
    // the native default, the network where the processor has AVX2).
    let eval = match page {
        Page::Static => "pattern",
        Page::Served => "default",
    };
    let out = othello()
        .args(["search", "--moves", &line, "--depth", "7", "--hash", "16"])
        .args(["--threads", "1", "--multipv", "64", "--quiet"])
        .args(["--eval-file", eval])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut compared = 0;
    for l in text.lines() {
        // `  line 1 f4 value +1.27 depth 7`
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.first() != Some(&"line") {
            continue;
        }
        let (mv, value, depth) = (words[2], words[4], words[6]);
        let hint = hints
            .iter()
            .find(|h| h.0 == mv)
            .unwrap_or_else(|| panic!("no hint on {mv}: {hints:?}"));
        assert_eq!(hint.2, "heuristic", "{hint:?}");
        assert_eq!(hint.3.to_string(), depth, "{mv}");
        assert_eq!(
            format!("{:+.2}", hint.1),
            value,
            "{mv}: page {hint:?}, search {l}"
        );
        compared += 1;
    }
    assert_eq!(compared, legal, "{text}");
}

#[test]
#[ignore = "needs chromium and chromium-driver (apt-get); .ci/run runs it"]
fn served_undo_redo_keys_and_an_illegal_click() {
    undo_redo_keys_and_an_illegal_click(Page::Served);
}

#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_undo_redo_keys_and_an_illegal_click() {
    undo_redo_keys_and_an_illegal_click(Page::Static);
}

fn undo_redo_keys_and_an_illegal_click(page: Page) {
    let (server, browser) = start("undo", page);
    open(&browser, server.url(), Some(0));
    // Two people at the board.
    browser.script("document.getElementById('white').value = 'human'; return true");
    browser.click("#sq-f5");
    browser.wait_for("f5", 20, "return state.ply === 1");
    let before = (drawn(&browser, "black"), drawn(&browser, "white"));
    assert_eq!(before, discs_after("f5"));
    // a1 is not legal for White: refused with a message, nothing changes.
    browser.click("#sq-a1");
    browser.wait_for(
        "the refusal",
        20,
        "return document.getElementById('message').dataset.count === '1'",
    );
    let message = browser.script("return document.getElementById('message').textContent");
    assert!(message.as_str().unwrap().contains("a1"), "{message}");
    assert_eq!(state(&browser)["ply"], 1);
    assert_eq!((drawn(&browser, "black"), drawn(&browser, "white")), before);
    // Undo and redo, by the buttons and by the keys.
    browser.click("#undo");
    browser.wait_for("undo", 20, "return state.ply === 0");
    assert_eq!(
        (drawn(&browser, "black"), drawn(&browser, "white")),
        discs_after("")
    );
    browser.click("#redo");
    browser.wait_for("redo", 20, "return state.ply === 1 && state.last === 'f5'");
    browser.keys("\u{E012}");
    browser.wait_for("undo by the left arrow", 20, "return state.ply === 0");
    browser.keys("\u{E014}");
    browser.wait_for("redo by the right arrow", 20, "return state.ply === 1");
    // A square typed: White's f4.
    browser.keys("f4");
    browser.wait_for(
        "f4 typed",
        20,
        "return state.ply === 2 && state.last === 'f4'",
    );
    // A move played after an undo replaces the line.
    browser.keys("\u{E012}");
    browser.wait_for(
        "undo",
        20,
        "return state.ply === 1 && state.line.length === 2",
    );
    browser.click("#sq-d6");
    browser.wait_for(
        "d6 replacing f4",
        20,
        "return state.ply === 2 && state.line.join() === 'f5,d6'",
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver (apt-get); .ci/run runs it"]
fn served_the_address_sets_up_the_position_and_follows_the_game() {
    the_address_sets_up_the_position_and_follows_the_game(Page::Served);
}

#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_the_address_sets_up_the_position_and_follows_the_game() {
    the_address_sets_up_the_position_and_follows_the_game(Page::Static);
}

fn the_address_sets_up_the_position_and_follows_the_game(page: Page) {
    let (server, browser) = start("address", page);
    open(
        &browser,
        &format!("{}?moves=f5d6c3d3c4", server.url()),
        Some(5),
    );
    let s = state(&browser);
    assert_eq!(s["move_list"], "f5d6c3d3c4");
    assert_eq!(s["to_move"], "white");
    assert_eq!(
        (drawn(&browser, "black"), drawn(&browser, "white")),
        discs_after("f5d6c3d3c4")
    );
    // The engine waits on a shared position (White is the engine by default).
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(state(&browser)["ply"], 5);
    // Undo shows in the address.
    browser.script("document.getElementById('white').value = 'human'; return true");
    browser.click("#undo");
    browser.wait_for(
        "the address after undo",
        20,
        "return location.search === '?moves=f5d6c3d3'",
    );
    // A board string in the address.
    let mut position = othello::Position::start();
    for mv in ["f5", "f6", "e6"] {
        position = position.try_play(mv.parse().unwrap()).unwrap();
    }
    let board = position.to_board_string().replace(' ', "%20");
    open(&browser, &format!("{}?board={board}", server.url()), None);
    browser.wait_for(
        "the board string",
        20,
        "return state.standard_start === false && state.to_move === 'white'",
    );
    assert_eq!(
        (drawn(&browser, "black"), drawn(&browser, "white")),
        discs_after("f5f6e6")
    );
    assert_eq!(state(&browser)["ply"], 0);
    // A bad move list: refused with a message naming it.
    open(&browser, &format!("{}?moves=f5f5", server.url()), None);
    let message = browser.wait_for(
        "the refusal",
        20,
        "return document.getElementById('message').textContent",
    );
    assert!(message.as_str().unwrap().contains("f5"), "{message}");
}

#[test]
#[ignore = "needs chromium and chromium-driver (apt-get); .ci/run runs it"]
fn served_the_layout_fits_a_phone() {
    the_layout_fits_a_phone(Page::Served);
}

#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_the_layout_fits_a_phone() {
    the_layout_fits_a_phone(Page::Static);
}

fn the_layout_fits_a_phone(page: Page) {
    let (server, browser) = start("phone", page);
    browser.set_size(390, 844);
    open(&browser, server.url(), Some(0));
    let widths = browser.script(
        "return [document.documentElement.scrollWidth, window.innerWidth, \
         document.getElementById('board').getBoundingClientRect().width]",
    );
    let w: Vec<f64> = serde_json::from_value(widths).unwrap();
    assert!(w[0] <= w[1] + 1.0, "the page scrolls sideways: {w:?}");
    assert!(w[2] > 250.0 && w[2] <= w[1], "the board is {w:?}");
}

#[test]
#[ignore = "needs chromium and chromium-driver (apt-get); .ci/run runs it"]
fn served_a_game_by_the_clock() {
    a_game_by_the_clock(Page::Served);
}

#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_a_game_by_the_clock() {
    a_game_by_the_clock(Page::Static);
}

/// Play by the clock: the engine, at level 60 (which would take it far longer), moves within
/// its 3 s, and a person who does not move loses on time.
fn a_game_by_the_clock(page: Page) {
    let (site, browser) = start("clock", page);
    let board = first_quality_position();
    open(
        &browser,
        &format!("{}?board={}", site.url(), board.replace(' ', "%20")),
        Some(0),
    );
    browser.type_into("#level", "60");
    browser.script(
        "document.getElementById('white').value = 'human'; \
         document.getElementById('pace').value = 'clock'; \
         document.getElementById('clock-minutes').value = '0.05'; \
         document.getElementById('pace').dispatchEvent(new Event('change')); return true",
    );
    let shown = browser.script("return !document.getElementById('clock-black').hidden");
    assert_eq!(shown, true, "the clocks are shown");
    // Black (the engine) to move: its clock runs from the engine move on.
    browser.click("#go");
    browser.wait_for(
        "the engine's move by its clock",
        10,
        "return state.ply === 1 && !state.busy",
    );
    assert_eq!(
        browser.script("return document.body.dataset.stopped"),
        "false"
    );
    let black = browser.script("return Number(document.getElementById('clock-black').dataset.ms)");
    let black = black.as_f64().unwrap();
    assert!(black > 0.0 && black < 3000.0, "Black's clock: {black} ms");
    // White, a person, does not move: after 3 s it loses on time.
    browser.wait_for(
        "White's flag",
        15,
        "return document.getElementById('status').dataset.flagged === 'white'",
    );
    let message = browser.script("return document.getElementById('message').textContent");
    assert!(
        message.as_str().unwrap().contains("White ran out of time"),
        "{message}"
    );
    let white = browser.script("return Number(document.getElementById('clock-white').dataset.ms)");
    assert_eq!(white.as_f64().unwrap(), 0.0);
}

/// The screenshot of docs/board.png: a game in progress with hints on.
#[test]
#[ignore = "writes the screenshot (scripts/board-screenshot.sh); needs chromium"]
fn screenshot_for_the_docs() {
    let (server, browser) = start("screenshot", Page::Served);
    browser.set_size(1100, 1000);
    // 30 moves of the 2025 world championship final (docs/review-example.json).
    let moves = "f5d6c3d3c4f4f6f3e6e7d7g6d8c5c6c7c8f7d2b3b4e3c2c1a4f8e1b5b6a5";
    open(
        &browser,
        &format!("{}?moves={moves}", server.url()),
        Some(30),
    );
    browser.click("#analyze");
    browser.wait_for(
        "the graph",
        120,
        "return Number(document.getElementById('graph').dataset.known) >= 30",
    );
    browser.type_into("#hint-depth", "10");
    browser.click("#hints");
    browser.wait_for(
        "the hints",
        120,
        "return document.getElementById('hint-info').dataset.done === 'true' && \
         document.querySelectorAll('.hint').length > 0",
    );
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let path = std::env::var_os("OTHELLO_BOARD_PNG")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("board.png"));
    std::fs::write(&path, png).unwrap();
}

/// The static page's stop: the search in the Web Worker is cut off (the worker terminated and
/// started again), the engine plays the best move of its last line, and the new worker runs
/// the next job.
#[test]
#[ignore = "needs chromium, chromium-driver and the static page; .ci/run runs it"]
fn static_stop_cuts_the_search_off_and_the_engine_still_plays() {
    let (site, browser) = start("stop", Page::Static);
    // The first position of quality-30.obf (30 empties, Black to move): out of the book,
    // and level 40 solves it (probably), which takes the WebAssembly engine some seconds.
    let board = first_quality_position();
    let plies = 0;
    open(
        &browser,
        &format!("{}?board={}", site.url(), board.replace(' ', "%20")),
        Some(plies),
    );
    let before = state(&browser);
    browser.script(
        "document.getElementById('black').value = 'human'; \
         document.getElementById('white').value = 'human'; return true",
    );
    browser.type_into("#level", "40");
    browser.click("#go");
    // Wait for the first search line (the search goes on after it), then stop.
    browser.wait_for(
        "a search line",
        60,
        "return /^depth /.test(document.getElementById('thinking').textContent)",
    );
    browser.click("#stop");
    let after = browser.wait_for(
        "the engine's move after the stop",
        20,
        &format!(
            "return state.ply === {} && !state.busy ? state : null",
            plies + 1
        ),
    );
    // The job ended stopped (a search of level 40 on 30 empties does not end in seconds),
    // and the move played is the first of the last line shown: `depth 30@73%  +8  a3 ...`.
    let done = browser.script("return document.body.dataset.stopped");
    assert_eq!(done, "true", "the job was not stopped");
    let thinking = browser.script("return document.getElementById('thinking').textContent");
    let thinking = thinking.as_str().unwrap();
    let shown = thinking.split_whitespace().nth(3).unwrap_or("");
    let last = after["last"].as_str().unwrap().to_string();
    assert_eq!(
        last, shown,
        "the move played, against the last line {thinking:?}"
    );
    let legal: Vec<String> = serde_json::from_value(before["legal"].clone()).unwrap();
    assert!(legal.contains(&last), "{last} is not legal in {before}");
    // The new worker answers: hints at depth 3 value every legal move.
    browser.type_into("#hint-depth", "3");
    browser.click("#hints");
    let legal = after["legal"].as_array().unwrap().len();
    browser.wait_for(
        "the hints of the new worker",
        60,
        &format!(
            "return document.getElementById('hint-info').dataset.done === 'true' && \
             document.querySelectorAll('.hint').length === {legal}"
        ),
    );
}
