//! `othello serve` over its sockets: the `Host` check (DNS rebinding), the WebSocket
//! `Origin` check, the limits on pages and searches, hostile messages answered with errors
//! while the server runs on, and games played through the WebSocket protocol as a script
//! would (docs/SERVE.md). The soak (ignored: a few minutes) plays 100 engine-against-engine
//! games with hints on and reports the server's resident memory:
//!
//!     cargo test --test serve -- --ignored --nocapture soak

mod common;
#[path = "support/server.rs"]
mod server;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{first_quality_position, random_move_list};
use serde_json::{json, Value};
use server::Server;
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<TcpStream>;

/// A WebSocket to the server, with this `Origin` (and `Host`) if given.
fn connect(server: &Server, origin: Option<&str>, host: Option<&str>) -> Result<Ws, String> {
    let stream = TcpStream::connect(&server.addr).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut request = format!("ws://{}/ws", server.addr)
        .into_client_request()
        .unwrap();
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
    }
    if let Some(host) = host {
        request.headers_mut().insert("Host", host.parse().unwrap());
    }
    match tungstenite::client(request, stream) {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            Err(format!("HTTP {}", response.status()))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn send(ws: &mut Ws, request: Value) {
    ws.send(Message::text(request.to_string())).unwrap();
}

/// The next reply (JSON text).
fn recv(ws: &mut Ws) -> Value {
    loop {
        match ws.read().expect("a reply") {
            Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
            Message::Close(_) => panic!("the server closed the socket"),
            _ => continue,
        }
    }
}

/// Replies until one satisfies `done`; returns them all.
fn until(ws: &mut Ws, mut done: impl FnMut(&Value) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    loop {
        assert!(Instant::now() < deadline, "no end: {seen:?}");
        let reply = recv(ws);
        let stop = done(&reply);
        seen.push(reply);
        if stop {
            return seen;
        }
    }
}

/// The greeting of a new connection: the state at the start.
fn greeting(ws: &mut Ws) -> Value {
    let state = recv(ws);
    assert_eq!(state["type"], "state");
    assert_eq!(state["ply"], 0);
    state
}

/// The state now (asked for).
fn state(ws: &mut Ws) -> Value {
    send(ws, json!({"type": "state"}));
    let replies = until(ws, |r| r["type"] == "state");
    replies.last().unwrap().clone()
}

fn start_server() -> Server {
    Server::start(&["--threads", "1", "--hash", "8"])
}

#[test]
fn requests_for_another_host_are_refused() {
    let server = start_server();
    let port = server.addr.rsplit(':').next().unwrap().to_string();
    let (status, body) = server.get("/", &server.addr, &[]);
    assert_eq!(status, 200);
    assert!(body.contains("board.js"), "{body}");
    let (status, body) = server.get("/board.js", &format!("localhost:{port}"), &[]);
    assert_eq!(status, 200);
    assert!(body.contains("WebSocket"));
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1.nip.io:{port}"),
        "127.0.0.1:1".to_string(),
        "127.0.0.1".to_string(),
        String::new(),
    ] {
        let (status, body) = server.get("/", &host, &[]);
        assert_eq!(status, 421, "Host {host:?}: {body}");
        assert!(body.contains("refused"), "{body}");
    }
    // The WebSocket too: by Host, and by Origin.
    let err = connect(&server, None, Some(&format!("evil.example:{port}"))).unwrap_err();
    assert!(err.contains("421"), "{err}");
    let err = connect(&server, Some("http://evil.example"), None).unwrap_err();
    assert!(err.contains("403"), "{err}");
    let err = connect(&server, Some(&format!("http://localhost:{port}")), None).unwrap_err();
    assert!(err.contains("403"), "another origin than the Host's: {err}");
    let mut ws = connect(&server, Some(&format!("http://{}", server.addr)), None).unwrap();
    greeting(&mut ws);
    // Without Origin: not a browser, let through.
    let mut ws = connect(&server, None, None).unwrap();
    greeting(&mut ws);
}

#[test]
fn hostile_messages_are_answered_and_change_nothing() {
    let mut server = start_server();
    let mut ws = connect(&server, None, None).unwrap();
    greeting(&mut ws);
    send(
        &mut ws,
        json!({"type": "setup", "kind": "moves", "text": "f5d6c3"}),
    );
    let before = until(&mut ws, |r| r["type"] == "state").pop().unwrap();
    assert_eq!(before["ply"], 3);
    let big = "y".repeat(200_000);
    let hostile: Vec<String> = vec![
        "{".to_string(),
        "null".to_string(),
        r#"{"type":"play","move":"a1"}"#.to_string(),
        r#"{"type":"play","move":"pass"}"#.to_string(),
        r#"{"type":"play","move":"z9"}"#.to_string(),
        r#"{"type":"redo"}"#.to_string(),
        r#"{"type":"stop"}"#.to_string(),
        r#"{"type":"jump","ply":99}"#.to_string(),
        r#"{"type":"go","level":0}"#.to_string(),
        r#"{"type":"go","level":61}"#.to_string(),
        r#"{"type":"go"}"#.to_string(),
        r#"{"type":"go","level":5,"time":10}"#.to_string(),
        r#"{"type":"go","time":0}"#.to_string(),
        r#"{"type":"go","time":-3}"#.to_string(),
        r#"{"type":"go","time":100000}"#.to_string(),
        r#"{"type":"go","time":10,"increment":-1}"#.to_string(),
        r#"{"type":"go","level":5,"increment":1}"#.to_string(),
        r#"{"type":"hints","depth":31}"#.to_string(),
        r#"{"type":"review","depth":8,"exact":99}"#.to_string(),
        r#"{"type":"setup","kind":"ggf","text":"(;GM[Chess];)"}"#.to_string(),
        r#"{"type":"setup","kind":"board","text":"XO"}"#.to_string(),
        r#"{"type":"unknown"}"#.to_string(),
        r#"{"type":"new","and":"more"}"#.to_string(),
        format!(r#"{{"type":"setup","kind":"moves","text":"{big}"}}"#),
    ];
    for text in &hostile {
        ws.send(Message::text(text.clone())).unwrap();
        let reply = recv(&mut ws);
        assert_eq!(reply["type"], "error", "{text:.60}: {reply}");
        assert!(reply["message"].as_str().unwrap().len() < 400, "{reply}");
    }
    ws.send(Message::binary(vec![1u8, 2, 3])).unwrap();
    assert_eq!(recv(&mut ws)["type"], "error");
    // Nothing changed.
    assert_eq!(state(&mut ws), before);
    // Beyond the largest message read at all (1 MiB), the connection is closed...
    let mut other = connect(&server, None, None).unwrap();
    greeting(&mut other);
    let _ = other.send(Message::text("z".repeat(2 << 20)));
    let closed = (0..5).any(|_| !matches!(other.read(), Ok(Message::Text(_))));
    assert!(closed, "a 2 MiB message left the connection open");
    // ... and the server runs on, the first page with it.
    assert!(server.is_running());
    assert_eq!(state(&mut ws), before);
    let mut third = connect(&server, None, None).unwrap();
    greeting(&mut third);
}

#[test]
fn pages_and_searches_are_bounded() {
    let server = Server::start(&[
        "--threads",
        "1",
        "--hash",
        "8",
        "--max-pages",
        "2",
        "--max-searches",
        "1",
    ]);
    let mut a = connect(&server, None, None).unwrap();
    greeting(&mut a);
    let mut b = connect(&server, None, None).unwrap();
    greeting(&mut b);
    let err = connect(&server, None, None).unwrap_err();
    assert!(err.contains("503"), "a third page: {err}");
    // One search at a time over the server: a long one on page a, then page b is refused.
    // Out of the book, so that the hints search.
    let opening = random_move_list(7, 30);
    send(
        &mut a,
        json!({"type": "setup", "kind": "moves", "text": opening}),
    );
    until(&mut a, |r| r["type"] == "state");
    send(&mut a, json!({"type": "hints", "depth": 30}));
    let first = until(&mut a, |r| r["type"] == "line" || r["type"] == "done");
    assert_eq!(first.last().unwrap()["kind"], "heuristic", "{first:?}");
    send(&mut b, json!({"type": "hints", "depth": 3}));
    let replies = until(&mut b, |r| r["type"] == "done");
    let error = replies
        .iter()
        .find(|r| r["type"] == "error")
        .unwrap_or_else(|| panic!("not refused: {replies:?}"));
    assert!(
        error["message"].as_str().unwrap().contains("busy"),
        "{error}"
    );
    // Stopped, page a's search ends and page b may search.
    send(&mut a, json!({"type": "stop"}));
    let done = until(&mut a, |r| r["type"] == "done").pop().unwrap();
    assert_eq!(done["stopped"], true);
    send(&mut b, json!({"type": "hints", "depth": 3}));
    let replies = until(&mut b, |r| r["type"] == "done");
    assert!(replies.iter().any(|r| r["type"] == "line"), "{replies:?}");
    // A page closed frees its slot.
    drop(a);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match connect(&server, None, None) {
            Ok(mut c) => {
                greeting(&mut c);
                break;
            }
            Err(e) => assert!(Instant::now() < deadline, "the slot was not freed: {e}"),
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Plays one engine-against-engine game from a random opening through the protocol, with
/// hints at every position; returns the number of moves. Checks every reply on the way.
fn engine_game(ws: &mut Ws, seed: u64, level: u32, hint_depth: u32) -> usize {
    send(
        ws,
        json!({"type": "setup", "kind": "moves", "text": random_move_list(seed, 8)}),
    );
    let mut state = until(ws, |r| r["type"] == "state" || r["type"] == "error")
        .pop()
        .unwrap();
    assert_eq!(state["type"], "state", "{state}");
    while state["over"] == false {
        let ply = state["ply"].as_u64().unwrap();
        let legal: Vec<String> = serde_json::from_value(state["legal"].clone()).unwrap();
        send(ws, json!({"type": "hints", "depth": hint_depth}));
        let replies = until(ws, |r| r["type"] == "done" || r["type"] == "error");
        let done = replies.last().unwrap();
        assert_eq!(done["type"], "done", "{replies:?}");
        // A value on every legal move (in the book, on its book moves).
        let mut hinted: Vec<String> = replies
            .iter()
            .filter(|r| r["type"] == "line")
            .map(|r| r["move"].as_str().unwrap().to_string())
            .collect();
        hinted.sort();
        hinted.dedup();
        assert!(!hinted.is_empty(), "no hint at ply {ply}");
        assert!(
            hinted.iter().all(|m| legal.contains(m)),
            "{hinted:?} {legal:?}"
        );
        let book = replies.iter().any(|r| r["kind"] == "book");
        assert!(book || hinted.len() == legal.len(), "{hinted:?} {legal:?}");
        send(ws, json!({"type": "go", "level": level}));
        let replies = until(ws, |r| {
            r["type"] == "error" || (r["type"] == "state" && r["ply"].as_u64() > Some(ply))
        });
        state = replies.last().unwrap().clone();
        assert_eq!(state["type"], "state", "{replies:?}");
        let last = state["last"].as_str().unwrap();
        assert!(
            legal.iter().any(|m| m == last) || last == "PA",
            "{last} not in {legal:?}"
        );
    }
    // The final position's value is on the graph, and the GGF holds the game.
    let graph = state["graph"].as_array().unwrap();
    assert!(graph.last().unwrap().is_number());
    let ggf = state["ggf"].as_str().unwrap();
    assert!(ggf.contains("RE["), "{ggf}");
    state["ply"].as_u64().unwrap() as usize
}

#[test]
fn an_engine_game_with_hints_through_the_protocol() {
    let server = start_server();
    let mut ws = connect(&server, None, None).unwrap();
    greeting(&mut ws);
    let plies = engine_game(&mut ws, 1, 1, 3);
    assert!(plies >= 50, "{plies}");
    // The game is reviewed (small settings) and analysed for the graph.
    send(&mut ws, json!({"type": "analyze", "depth": 2}));
    let replies = until(&mut ws, |r| r["type"] == "state");
    let graph = replies.last().unwrap()["graph"].as_array().unwrap().clone();
    assert!(graph.iter().all(Value::is_number), "{graph:?}");
    send(&mut ws, json!({"type": "review", "depth": 2, "exact": 4}));
    let replies = until(&mut ws, |r| r["type"] == "done");
    let review = replies
        .iter()
        .find(|r| r["type"] == "review")
        .expect("a review");
    assert_eq!(
        review["json"]["moves"].as_array().unwrap().len(),
        review["json"]["moves_text"].as_str().unwrap().len() / 2
    );
    assert!(review["html"].as_str().unwrap().contains("<svg"));
}

/// `--book`: a file that cannot be read stops the server with its name; `off` takes the book
/// away (the start position's hints are searched), the default shows the book's values.
#[test]
fn the_book_is_chosen_at_start() {
    let dir = std::env::temp_dir().join(format!("othello-serve-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("not-a-book.txt");
    std::fs::write(&bad, "hello\n").unwrap();
    for path in [bad.clone(), dir.join("missing.book")] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["serve", "--port", "0", "--book"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--book") && err.contains(&*path.to_string_lossy()),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "no address line: {:?}", out.stdout);
    }
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "hello\n");
    std::fs::remove_dir_all(&dir).unwrap();
    for (book, kind) in [("off", "heuristic"), ("default", "book")] {
        let server = Server::start(&["--threads", "1", "--hash", "16", "--book", book]);
        let mut ws = connect(&server, None, None).unwrap();
        greeting(&mut ws);
        send(&mut ws, json!({"type": "hints", "depth": 2}));
        let replies = until(&mut ws, |r| r["type"] == "done");
        let lines: Vec<&Value> = replies.iter().filter(|r| r["type"] == "line").collect();
        assert!(!lines.is_empty(), "{replies:?}");
        assert!(
            lines.iter().all(|l| l["kind"] == kind),
            "--book {book}: {lines:?}"
        );
    }
}

/// `go` by the clock: the engine plays within the time it is given, and a longer clock buys a
/// deeper search (its search lines say how deep it went).
#[test]
fn the_engine_plays_by_its_clock() {
    let server = start_server();
    let mut ws = connect(&server, None, None).unwrap();
    greeting(&mut ws);
    // 30 empties, out of the book.
    let board = first_quality_position();
    let mut deepest = Vec::new();
    for time in [0.2, 4.0] {
        send(
            &mut ws,
            json!({"type": "setup", "kind": "board", "text": board}),
        );
        until(&mut ws, |r| r["type"] == "state");
        let t0 = std::time::Instant::now();
        send(&mut ws, json!({"type": "go", "time": time, "increment": 0}));
        let replies = until(&mut ws, |r| r["type"] == "state");
        let spent = t0.elapsed().as_secs_f64();
        let done = replies.iter().find(|r| r["type"] == "done").expect("done");
        assert_eq!(done["stopped"], false, "{replies:?}");
        assert_eq!(replies.last().unwrap()["ply"], 1);
        // The clock is the whole game's: a move takes a share of it, never all.
        assert!(spent < time, "{spent} s of a {time} s clock");
        let depth = replies
            .iter()
            .filter(|r| r["type"] == "line")
            .filter_map(|r| r["depth"].as_u64())
            .max()
            .unwrap_or(0);
        deepest.push(depth);
    }
    assert!(deepest[1] > deepest[0], "depths by clock: {deepest:?}");
}

#[test]
#[ignore = "a soak: 100 games through the server, a few minutes"]
fn soak_100_engine_games_with_hints() {
    let games: u64 = std::env::var("OTHELLO_SERVE_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut server = Server::start(&["--threads", "2"]);
    let mut ws = connect(&server, None, None).unwrap();
    greeting(&mut ws);
    // Warm: the first game allocates what every game uses.
    engine_game(&mut ws, 0, 2, 4);
    let start_kib = server.rss_kib();
    let started = Instant::now();
    let mut plies = 0;
    for game in 1..=games {
        if game % 10 == 0 {
            // A new page now and then: its engine is made and the old one dropped.
            ws = connect(&server, None, None).unwrap();
            greeting(&mut ws);
        }
        plies += engine_game(&mut ws, game, 2, 4);
    }
    let end_kib = server.rss_kib();
    assert!(server.is_running());
    println!(
        "soak: {games} games, {plies} moves, {:.0} s; server resident memory {start_kib} KiB \
         after the first game, {end_kib} KiB at the end",
        started.elapsed().as_secs_f64()
    );
    assert!(
        end_kib < start_kib + 64 * 1024,
        "memory grew from {start_kib} to {end_kib} KiB"
    );
}
