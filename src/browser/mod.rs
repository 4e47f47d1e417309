//! The JavaScript-facing glue (wasm32 only), split by concern:
//! - [`error`]: every failure is an `Error` with a stable `code`.
//! - [`panic`](mod@panic): the panic hook: a typed `internal` failure, then every call refused.
//! - [`convert`]: JSON text → JS values, in one place.
//! - [`global`]: fetch, timers, `online`, frames, `reportError` (page and Worker alike).
//! - [`store`]: `AgentStore`, the framework-neutral store (feed bytes/strings/events,
//!   `getSnapshot`/`subscribe`, typed `on(kind, …)`, getters, diagnostics).
//! - [`decoder`]: `StreamDecoder`, bytes → canonical events + diagnostics, no assembly.
//! - [`transport`]: fetch SSE, EventSource, WebSocket and manual sources with resume.
//! - [`client`]: `AgentClient`, a connection plus answering the agent.
//! - [`a2a_options`]: the A2A options of `AgentClient` (`a2aVersion`, `a2aBinding`,
//!   `agentCard`) and reading the agent card.
//! - [`ag_ui_options`]: the AG-UI option of `AgentClient` (`agUi`: the first run's input).
//! - [`ai_sdk_options`]: the AI SDK option of `AgentClient` (`aiSdk`: chat id, messages, body,
//!   headers).
//! - [`iter`]: the async iterator of events.

pub mod a2a_options;
pub mod ag_ui_options;
pub mod ai_sdk_options;
pub mod client;
pub mod convert;
pub mod decoder;
pub mod error;
pub mod global;
pub mod iter;
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
