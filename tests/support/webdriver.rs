//! A small W3C WebDriver client for the browser tests: chromedriver (Debian's
//! `chromium-driver`) driving headless Chromium, spoken to over plain HTTP/1.1 with JSON
//! bodies, so the tests need no HTTP or WebDriver crate. Only what the tests use is here:
//! sessions, navigation, elements, clicks, keys, scripts, the window size and screenshots.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The key of an element reference in WebDriver's JSON.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where Debian puts them.
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Whether the browser and its driver are installed.
pub fn available() -> bool {
    Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists()
}

/// A chromedriver process with one browser session; both end when dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    /// The browser's profile and download directory.
    pub dir: PathBuf,
}

/// An element found on the page.
#[derive(Clone, Debug)]
pub struct Element(String);

impl Browser {
    /// Starts chromedriver and a headless Chromium (with the flags that keep it off the
    /// network: on a closed network it otherwise waits for services it cannot reach).
    pub fn start(name: &str) -> Browser {
        assert!(
            available(),
            "chromium and chromedriver are needed: apt-get install chromium chromium-driver"
        );
        let port = free_port();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("downloads")).unwrap();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while browser.call("GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = browser.dir.join("profile");
        let downloads = browser.dir.join("downloads");
        let capabilities = json!({
            "capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": CHROMIUM,
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        "--disable-dev-shm-usage", "--window-size=1200,1000",
                        format!("--user-data-dir={}", profile.display()),
                    ],
                    "prefs": {
                        "download.default_directory": downloads.display().to_string(),
                        "download.prompt_for_download": false,
                    },
                },
            }}
        });
        let value = browser
            .call("POST", "/session", Some(capabilities))
            .expect("a browser session");
        browser.session = value["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session id in {value}"))
            .to_string();
        browser
    }

    /// One WebDriver command; its `value`, or the error WebDriver reported.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .map_err(|e| e.to_string())?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let response = read_response(&mut stream)?;
        let text = String::from_utf8_lossy(&response);
        let (head, body) = text
            .split_once("\r\n\r\n")
            .ok_or_else(|| format!("no HTTP response: {text:?}"))?;
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        };
        let json: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body:?}"))?;
        let value = json.get("value").cloned().unwrap_or(Value::Null);
        if value.get("error").is_some() {
            return Err(format!("{method} {path}: {value}"));
        }
        Ok(value)
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// The element matching a CSS selector.
    pub fn find(&self, css: &str) -> Element {
        let v = self.session_call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        Element(v[ELEMENT].as_str().expect("an element").to_string())
    }

    /// Clicks the element matching `css`.
    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.session_call("POST", &format!("/element/{}/click", e.0), Some(json!({})));
    }

    /// Types `text` into the element matching `css` (an input: its value is cleared first).
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.session_call("POST", &format!("/element/{}/clear", e.0), Some(json!({})));
        self.session_call(
            "POST",
            &format!("/element/{}/value", e.0),
            Some(json!({ "text": text })),
        );
    }

    /// Presses these keys on the page, one after the other (WebDriver key values: "\u{E012}"
    /// is the left arrow, "\u{E014}" the right arrow).
    pub fn keys(&self, keys: &str) {
        let mut actions = Vec::new();
        for k in keys.chars() {
            actions.push(json!({"type": "keyDown", "value": k.to_string()}));
            actions.push(json!({"type": "keyUp", "value": k.to_string()}));
        }
        self.session_call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// Runs a script in the page and returns what it returns.
    pub fn script(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Waits until `script` returns something truthy (not null, false, 0 or ""), up to
    /// `secs` seconds; returns its value.
    pub fn wait_for(&self, what: &str, secs: u64, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.script(script);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "timed out after {secs} s waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sets the window's size in CSS pixels.
    pub fn set_size(&self, width: u32, height: u32) {
        self.session_call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.session_call("GET", "/screenshot", None);
        base64_decode(v.as_str().expect("base64 text"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// One HTTP response, read to its end (chromedriver keeps the connection open, so the end is
/// where `Content-Length` or the last chunk says).
fn read_response(stream: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut response = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        if let Some(end) = find(&response, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&response[..end]).to_ascii_lowercase();
            let body = &response[end + 4..];
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            match length {
                Some(n) if body.len() >= n => return Ok(response),
                None if head.contains("transfer-encoding: chunked")
                    && body.ends_with(b"0\r\n\r\n") =>
                {
                    return Ok(response)
                }
                _ => {}
            }
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(response);
        }
        response.extend_from_slice(&buf[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The body of a chunked HTTP response.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Standard base64 (WebDriver's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let Some(v) = value(c) else { continue };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
