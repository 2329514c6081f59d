//! `othello serve`: the board in the browser (docs/BOARD.md). A local HTTP server (axum on
//! tokio) serves the page, whose files are embedded in the binary, and speaks the WebSocket
//! protocol of docs/SERVE.md at `/ws`. What the protocol says and decides is
//! `othello::web` (a pure session state machine and a worker over the engine); this file is
//! only the transport: the sockets, the `Host` and `Origin` checks, the limits on pages and
//! searches, and one worker thread per page that runs its searches off the connection's task.
//!
//! The only line on stdout is the address (`othello serve: http://127.0.0.1:8080/`), so that a
//! script or a test can read it; diagnostics go to stderr through `log`.

use std::collections::VecDeque;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request as HttpRequest, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use clap::Args;
use othello::book::BookChoice;
use othello::engine::EngineOptions;
use othello::eval::EngineEval;
use othello::search::available_threads;
use othello::web::guard::{host_allowed, origin_allowed};
use othello::web::{Job, Outcome, Output, Reply, Session, Worker};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

use super::search::parse_threads;
use super::{fail, CliResult};

/// The page and its script and style, embedded: the server reads no file.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const BOARD_JS: &str = include_str!("../../web/board.js");
const BOARD_CSS: &str = include_str!("../../web/board.css");

/// The largest WebSocket message read at all, bytes. Requests up to
/// [`othello::web::message::MAX_REQUEST_BYTES`] are read by the session; longer ones, up to this, get an error reply;
/// beyond it the connection is closed (no message is held in memory past this size).
const MAX_MESSAGE_BYTES: usize = 1 << 20;

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address line says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines use the
    /// engine (a warning says so); 0.0.0.0 listens on every interface.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDRESS")]
    host: IpAddr,
    /// Open the page in the browser ($BROWSER, else xdg-open).
    #[arg(long)]
    open: bool,
    /// Search threads of every search (default: all cores; 1 is deterministic).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Transposition table of each page's engine, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Pages connected at once, at most (each has its engine and table).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
    max_pages: u64,
    /// Searches running at once over all pages, at most (a page runs one at a time).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    max_searches: u64,
    /// The opening book the engine plays from and the hints show: default (the embedded
    /// one), off, or a book file (othello or Edax format; read, never written). Checked at
    /// start; each page's engine reads it when the page connects.
    #[arg(long, default_value = "default", value_name = "BOOK")]
    book: BookChoice,
}

/// What every request handler shares.
struct App {
    bound: SocketAddr,
    options: EngineOptions,
    pages: Arc<Semaphore>,
    searches: Arc<Semaphore>,
    max_searches: u64,
}

/// `othello serve`.
pub fn serve(args: ServeArgs, eval: EngineEval, out: &mut impl Write) -> CliResult {
    if !args.host.is_loopback() {
        log::warn!(
            "--host {}: the board and the engine are open to every machine that reaches this \
             address, without a password",
            args.host
        );
        eprintln!(
            "warning: --host {}: other machines can use this engine (no password)",
            args.host
        );
    }
    // A book that cannot be read stops the server here, not each page later.
    if let BookChoice::File(path) = &args.book {
        othello::book::load_any(path)
            .map_err(|e| fail(format!("--book {}: {e}", path.display())))?;
    }
    let options = EngineOptions {
        hash_mb: args.hash as usize,
        threads: args.threads.unwrap_or_else(available_threads),
        eval,
        // A page names no file: only the book and the evaluator chosen here.
        allow_eval_files: false,
        book: args.book,
        ..EngineOptions::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.host, args.port))
            .await
            .map_err(|e| fail(format!("cannot listen on {}:{}: {e}", args.host, args.port)))?;
        let bound = listener.local_addr()?;
        let url = match bound.ip() {
            IpAddr::V6(ip) => format!("http://[{ip}]:{}/", bound.port()),
            IpAddr::V4(ip) if ip.is_unspecified() => format!("http://127.0.0.1:{}/", bound.port()),
            IpAddr::V4(ip) => format!("http://{ip}:{}/", bound.port()),
        };
        writeln!(out, "othello serve: {url}")?;
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        let app = Arc::new(App {
            bound,
            options,
            pages: Arc::new(Semaphore::new(args.max_pages as usize)),
            searches: Arc::new(Semaphore::new(args.max_searches as usize)),
            max_searches: args.max_searches,
        });
        let router = Router::new()
            .route(
                "/",
                get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
            )
            .route(
                "/board.js",
                get(|| async { asset("text/javascript; charset=utf-8", BOARD_JS) }),
            )
            .route(
                "/board.css",
                get(|| async { asset("text/css; charset=utf-8", BOARD_CSS) }),
            )
            .route("/ws", get(upgrade))
            .layer(middleware::from_fn_with_state(app.clone(), check_host))
            .with_state(app);
        axum::serve(listener, router)
            .await
            .map_err(|e| fail(format!("the server stopped: {e}")))
    })
}

/// An embedded file.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

/// Starts the user's browser on `url`, without waiting for it; a failure is only logged.
fn open_browser(url: &str) {
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| "xdg-open".to_string());
    match std::process::Command::new(&browser)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => log::info!("opened {url} with {browser}"),
        Err(e) => log::warn!("--open: cannot start {browser}: {e}; open {url} by hand"),
    }
}

/// Refuses every request whose `Host` is not the bound address (DNS rebinding).
async fn check_host(State(app): State<Arc<App>>, request: HttpRequest, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !host_allowed(host, app.bound) {
        log::warn!("refused a request for Host {host:?}");
        return (
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "refused: Host {:?} is not this server's address ({})\n",
                host.chars().take(64).collect::<String>(),
                app.bound
            ),
        )
            .into_response();
    }
    next.run(request).await
}

/// `/ws`: the WebSocket of one page, if its origin is ours and a page slot is free.
async fn upgrade(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or("?"));
    if !origin_allowed(origin, host) {
        log::warn!("refused a WebSocket from origin {origin:?}");
        return (
            StatusCode::FORBIDDEN,
            "refused: a WebSocket from another origin\n",
        )
            .into_response();
    }
    let Ok(page) = app.pages.clone().try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "refused: too many pages are connected (--max-pages)\n",
        )
            .into_response();
    };
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            connection(socket, app).await;
            drop(page);
        })
}

/// What a page's worker thread reports.
enum Event {
    /// A search line of a job.
    Line(u64, Reply),
    /// A job ended.
    Finished(u64, Outcome),
}

/// One page: its session, its worker thread, and the loop between the socket and both.
async fn connection(mut socket: WebSocket, app: Arc<App>) {
    // The state first: the page draws the board while the engine starts (its table is
    // allocated, its book opened).
    let mut session = Session::new();
    let mut queue: VecDeque<Output> = VecDeque::new();
    for output in session.handle(r#"{"type":"state"}"#) {
        if let Output::Reply(reply) = output {
            if send(&mut socket, &reply).await.is_err() {
                return;
            }
        }
    }
    let options = app.options.clone();
    let worker = match tokio::task::spawn_blocking(move || Worker::new(options)).await {
        Ok(Ok(worker)) => worker,
        Ok(Err(e)) => {
            log::error!("a page's engine cannot start: {e}");
            let _ = send(
                &mut socket,
                &error_reply(format!("the engine cannot start: {e}")),
            )
            .await;
            return;
        }
        Err(e) => {
            log::error!("a page's engine cannot start: {e}");
            return;
        }
    };
    let stop = worker.stop_handle();
    let (jobs, events) = spawn_worker(worker);
    let mut events = events;
    'page: loop {
        while let Some(output) = queue.pop_front() {
            match output {
                Output::Reply(reply) => {
                    if send(&mut socket, &reply).await.is_err() {
                        break 'page;
                    }
                }
                Output::Stop => stop.stop(),
                Output::Start(job) => match app.searches.clone().try_acquire_owned() {
                    Ok(permit) => {
                        if jobs.send((*job, permit)).is_err() {
                            break 'page;
                        }
                    }
                    Err(_) => queue.extend(session.finish(
                        job.id,
                        Outcome::Failed(format!(
                            "busy: the server runs its most searches at once ({}, \
                             --max-searches); try again",
                            app.max_searches
                        )),
                    )),
                },
            }
        }
        tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => queue.extend(session.handle(text.as_str())),
                Some(Ok(Message::Binary(_))) => queue.push_back(Output::Reply(error_reply(
                    "binary messages are not part of the protocol: send JSON text".to_string(),
                ))),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_))) | None => break,
                Some(Err(e)) => {
                    log::info!("a page's socket closed: {e}");
                    break;
                }
            },
            event = events.recv() => match event {
                Some(Event::Line(id, reply)) => {
                    if session.forwards(id) {
                        queue.push_back(Output::Reply(reply));
                    }
                }
                Some(Event::Finished(id, outcome)) => queue.extend(session.finish(id, outcome)),
                None => break,
            },
        }
    }
    // The page is gone: its search stops, and the worker thread ends with the job channel.
    stop.stop();
}

/// Starts a page's worker thread: jobs in (with the permit that counts them among the
/// server's searches), lines and outcomes out.
fn spawn_worker(
    mut worker: Worker,
) -> (
    std::sync::mpsc::Sender<(Job, OwnedSemaphorePermit)>,
    mpsc::UnboundedReceiver<Event>,
) {
    let (job_tx, job_rx) = std::sync::mpsc::channel::<(Job, OwnedSemaphorePermit)>();
    let (event_tx, event_rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for (job, permit) in job_rx {
            let id = job.id;
            let lines = event_tx.clone();
            let outcome = worker.run(&job, &mut |reply| {
                let _ = lines.send(Event::Line(id, reply));
            });
            drop(permit);
            if event_tx.send(Event::Finished(id, outcome)).is_err() {
                break;
            }
        }
    });
    (job_tx, event_rx)
}

fn error_reply(message: String) -> Reply {
    Reply::Error {
        request: None,
        message,
    }
}

async fn send(socket: &mut WebSocket, reply: &Reply) -> Result<(), axum::Error> {
    let text = serde_json::to_string(reply).unwrap_or_else(|e| {
        format!(r#"{{"type":"error","request":null,"message":"reply not encoded: {e}"}}"#)
    });
    socket.send(Message::Text(text.into())).await
}
