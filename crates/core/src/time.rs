//! The monotonic clock the search and the time controls read: `std::time::Instant` on every
//! native target; on `wasm32-unknown-unknown`, where the standard one panics, the browser's
//! `performance.now()` through the `web-time` crate, with the same API.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

pub use std::time::Duration;
