//! The JavaScript-facing glue (wasm32 only), split by concern:
//! - [`error`]: every failure is an `Error` with a stable `code`; the panic hook.
//! - [`convert`]: JSON text → JS values, in one place.
//! - [`store`]: `AgentStore`, the framework-neutral store (feed bytes/strings/events,
//!   `getSnapshot`/`subscribe`, typed `on(kind, …)`, getters, diagnostics).
//! - [`decoder`]: `StreamDecoder`, bytes → canonical events + diagnostics, no assembly.
//! - [`eventsource`]: an `EventSource`-backed source feeding an `AgentStore`.

pub mod convert;
pub mod decoder;
pub mod error;
pub mod eventsource;
pub mod store;

use wasm_bindgen::prelude::*;

/// Installs the panic hook once, when the module starts.
#[wasm_bindgen(start)]
pub fn start() {
    error::install_panic_hook();
}
