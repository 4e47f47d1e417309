//! The panic hook: after an internal error, one clear typed failure instead of random traps.
//!
//! No input may make agentwire panic: a panic is a bug. The release build aborts on panic, and
//! in WebAssembly an abort is a trap: the call that panicked ends, but the module lives on with
//! its state half-updated (borrows never released, structures mid-change), so later calls could
//! trap at random or work on broken state. std runs the hook before the abort, and the hook:
//!
//! 1. poisons the module: one global flag (in [`super::error`]) that every JS-facing entry
//!    point checks first ([`check_alive`](super::error::check_alive), an atomic load), so
//!    every later call throws an `Error` with code
//!    `internal` whose message quotes the panic;
//! 2. logs the panic with `console.error`;
//! 3. schedules for the next task (`setTimeout` 0, outside the broken call) the report to every
//!    live `AgentClient`: its connection becomes `failed` with code `internal` (the
//!    `onConnectionChange` listeners are called) and its transport is shut down (request
//!    aborted, EventSource / WebSocket closed, pending waits cancelled);
//! 4. throws that typed error to the JavaScript caller instead of trapping, so the call that
//!    hit the bug fails with `code: "internal"` rather than `RuntimeError: unreachable`. Like
//!    the trap it replaces, the throw leaves the wasm frames without running Rust destructors;
//!    std's panic count stays raised, so a later panic (only reachable from code that does not
//!    check the flag) traps at once without running the hook again.
//!
//! Test builds only (cargo feature `test-panic`, never in the published package):
//! `__triggerPanic(message)` and `__triggerPanicLater(message, ms)` (in a spawned task, where a
//! transport runs) let `tests/e2e/hostile.test.js` prove all of this in Chromium.

use super::error::{internal_error, message, poison, set_message};
use super::transport::{Shared, FAILED};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The clients' connections, told about a panic.
    static CLIENTS: RefCell<Vec<Weak<Shared>>> = const { RefCell::new(Vec::new()) };
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &JsValue, ms: f64) -> JsValue;
}

/// Installs the hook (at module start).
pub fn install() {
    std::panic::set_hook(Box::new(hook));
}

/// Tells the panic hook about a client's connection (its constructor calls this).
pub fn register(shared: &Rc<Shared>) {
    CLIENTS.with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            c.retain(|w| w.strong_count() > 0);
            c.push(Rc::downgrade(shared));
        }
    });
}

fn hook(info: &std::panic::PanicHookInfo<'_>) {
    if poison() {
        return;
    }
    let text = info.to_string();
    web_sys::console::error_1(&JsValue::from_str(&format!(
        "agentwire internal error (please report): {text}"
    )));
    set_message(text);
    set_timeout(&Closure::once_into_js(report_to_clients), 0.0);
    wasm_bindgen::throw_val(internal_error());
}

/// Every live client: connection `failed` with code `internal`, transport shut down.
fn report_to_clients() {
    let clients: Vec<Rc<Shared>> = CLIENTS.with(|c| match c.try_borrow_mut() {
        Ok(mut c) => c.drain(..).filter_map(|w| w.upgrade()).collect(),
        Err(_) => Vec::new(),
    });
    let reason = format!("internal error: {}", message());
    for sh in clients {
        sh.shutdown(FAILED, &reason, Some("internal"));
    }
}

/// Test builds only (feature `test-panic`): panics now with `message`.
#[cfg(feature = "test-panic")]
#[wasm_bindgen(js_name = __triggerPanic)]
pub fn trigger_panic(message: &str) {
    panic!("{message}");
}

/// Test builds only (feature `test-panic`): panics with `message` after `ms` ms inside a spawned
/// task (where the transports run).
#[cfg(feature = "test-panic")]
#[wasm_bindgen(js_name = __triggerPanicLater)]
pub fn trigger_panic_later(message: String, ms: f64) {
    wasm_bindgen_futures::spawn_local(async move {
        let wait = js_sys::Promise::new(&mut |resolve, _| {
            set_timeout(&resolve, ms);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(wait).await;
        panic!("{message}");
    });
}
