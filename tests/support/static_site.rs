//! The static page (scripts/static-page.sh) served for a test: a minimal HTTP/1.1 file server
//! on a free port of 127.0.0.1, GET only, one thread per connection, the content types a
//! browser needs (`application/wasm` for the module, JavaScript for the module scripts).
//! It stands for "any web host"; the directory is `$OTHELLO_STATIC_PAGE` or
//! `target/static-page`, which `.ci/run` builds before the browser tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

/// A running file server (it runs until the test process ends).
pub struct StaticSite {
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

/// The directory of the built static page.
pub fn page_dir() -> PathBuf {
    std::env::var_os("OTHELLO_STATIC_PAGE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/static-page"))
}

impl StaticSite {
    /// Serves `dir` (it must hold the built page).
    pub fn start(dir: PathBuf) -> StaticSite {
        assert!(
            dir.join("index.html").is_file() && dir.join("pkg/othello_web_bg.wasm").is_file(),
            "no static page in {}: run scripts/static-page.sh {} first",
            dir.display(),
            dir.display()
        );
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let url = format!("http://{}/", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let dir = dir.clone();
                std::thread::spawn(move || {
                    let _ = answer(stream, &dir);
                });
            }
        });
        StaticSite { url }
    }
}

fn answer(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split('?').next().unwrap_or("/");
    let relative = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    let file = dir.join(relative);
    let safe = !relative
        .split('/')
        .any(|part| part == ".." || part.is_empty());
    match std::fs::read(&file) {
        Ok(body) if safe && request.starts_with("GET ") => {
            let kind = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("css") => "text/css",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            stream.write_all(&body)
        }
        _ => stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    }
}
