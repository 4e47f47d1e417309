//! The JavaScript-facing glue (wasm32 only), split by concern:
//! - `alloc` (private): the global allocator (talc).
//! - `auth_url` (private): an auth request's URL checked and opened, for both clients.
//! - [`error`]: every failure is an `Error` with a stable `code`.
//! - [`panic`](mod@panic): the panic hook: a typed `internal` failure, then every call refused.
//! - [`convert`]: JSON text → JS values, in one place.
//! - [`global`]: fetch, timers, `online`, frames, `reportError` (page and Worker alike).
//! - [`store`]: `AgentStore`, the framework-neutral store (feed bytes/strings/events,
//!   `getSnapshot`/`subscribe`, typed `on(kind, …)`, getters, diagnostics).
//! - [`decoder`]: `StreamDecoder`, bytes → canonical events + diagnostics, no assembly.
//! - [`transport`]: fetch SSE, EventSource, WebSocket and manual sources with resume.
//! - [`client`]: `AgentClient`, a connection plus answering the agent.
//! - [`options`]: the options of the client, the store and the decoder, read with one set of
//!   readers (the connection, the endpoints, the limits, each dialect's options).
//! - [`iter`]: the async iterator of events.

mod alloc;
pub(crate) mod auth_url;
pub mod client;
pub mod convert;
pub mod decoder;
pub mod error;
pub mod global;
pub mod iter;
pub mod options;
pub mod panic;
pub mod store;
pub mod transport;
#[cfg(feature = "worker")]
pub mod worker;
#[cfg(feature = "worker")]
pub mod worker_host;

use wasm_bindgen::prelude::*;

/// Installs the panic hook once, when the module starts.
#[wasm_bindgen(start)]
pub fn start() {
    panic::install();
}
