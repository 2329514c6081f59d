//! The board in the browser (`othello serve`, docs/BOARD.md and docs/SERVE.md): everything
//! of the local web server but the sockets. The binary's `serve` command owns the HTTP and
//! WebSocket transport (axum); this module owns what it says and decides, so that all of it
//! runs in tests without a socket:
//!
//! - [`message`]: the JSON requests and replies of the WebSocket protocol;
//! - [`session`]: one page's session as a pure state machine (the game, undo and redo, the
//!   evaluation graph, the one running job), text in, replies and jobs out;
//! - [`worker`]: the jobs run on the engine facade, their search lines streamed;
//! - [`guard`]: the `Host` check against DNS rebinding and the WebSocket `Origin` check;
//! - [`wire`]: jobs and outcomes as JSON, for the static page, whose session and worker are
//!   two WebAssembly instances (crates/web).
//!
//! The design follows the NBoard server ([`crate::protocol`]): a thin adapter over the
//! [`crate::engine::Engine`], the search off the protocol's thread, stopped by a flag.

pub mod guard;
pub mod message;
pub mod session;
pub mod wire;
pub mod worker;

pub use message::{Reply, Request};
pub use session::{Job, Outcome, Output, Pace, Session, Task};
pub use worker::{StopHandle, Worker};
