//! `AgentClient`: a connection (fetch SSE by default, EventSource, WebSocket or manual) feeding
//! an `AgentStore`, plus everything that answers the agent: routed pending requests, `respond`
//! with schema/options checks, approve/deny/select/answer, safe auth URLs, completeAuth,
//! cancel; an async iterator of events; observable connection state.
//!
//! - `routing`: where an answer goes and how it is sent (the request it answers, the
//!   dialect's message, the HTTP call, the responder).
//! - `api`: the class's methods (`connect`, `respond`, `approve`, `completeAuth`, ...).

mod api;
mod routing;

use crate::browser::error::js_error;
use crate::browser::options::endpoints::Endpoints;
use crate::browser::options::{absent, get, opt_function, opt_number, opt_string};
#[cfg(feature = "worker")]
use crate::browser::store::AgentStore;
use crate::browser::transport::Shared;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

struct Answers {
    endpoints: Endpoints,
    responder: Option<js_sys::Function>,
    coordinator: Option<js_sys::Function>,
    user_id: Option<String>,
}

type Hook = Closure<dyn FnMut(JsValue)>;
type AbortHook = (web_sys::AbortSignal, Closure<dyn FnMut()>);

struct ClientInner {
    shared: Rc<Shared>,
    answers: Answers,
    store_js: JsValue,
    /// Internal handlers (coordinator hook) to remove on close.
    hooks: RefCell<Vec<js_sys::Function>>,
    hook_closures: RefCell<Vec<Hook>>,
    signal: RefCell<Option<AbortHook>>,
    streams: RefCell<Vec<Weak<RefCell<crate::browser::iter::IterState>>>>,
    closed: std::cell::Cell<bool>,
}

/// A connection to an agent server feeding an `AgentStore`, and the way to answer the agent.
///
/// ```ts
/// const client = new AgentClient({ url: "/api/stream?scenario=main" });
/// client.onConnectionChange((c) => console.log(c.state, c.reason));
/// client.store.subscribe(() => render(client.getSnapshot()));
/// client.on("input-required", (e) => client.approve(e.inputId));
/// ```
#[wasm_bindgen]
pub struct AgentClient {
    inner: Rc<ClientInner>,
}

/// An `Error` with `code` and extra string members.
fn error_with(code: &str, message: &str, extra: &[(&str, JsValue)]) -> JsValue {
    let e = js_error(code, message);
    for (k, v) in extra {
        let _ = js_sys::Reflect::set(&e, &JsValue::from_str(k), v);
    }
    e
}

fn rejected(e: JsValue) -> js_sys::Promise {
    js_sys::Promise::reject(&e)
}

/// Hands `req` to the app's responder and waits for it (a throw or rejection is `send-failed`).
async fn call_responder(responder: &js_sys::Function, req: &js_sys::Object) -> Result<(), JsValue> {
    let r = responder
        .call1(&JsValue::NULL, req)
        .map_err(|e| error_with("send-failed", "the responder threw", &[("cause", e)]))?;
    JsFuture::from(js_sys::Promise::resolve(&r))
        .await
        .map_err(|e| error_with("send-failed", "the responder rejected", &[("cause", e)]))?;
    Ok(())
}

/// Wakes the fetch loop when it waits for an answer (a call was queued, or a JSON-RPC result
/// may have finished the run).
fn wake(sh: &Shared) {
    if !sh.awaiting_call.get() {
        return;
    }
    let w = sh.wait.try_borrow_mut().ok().and_then(|mut w| w.take());
    if let Some(w) = w {
        w.cancel();
    }
}

impl Drop for AgentClient {
    fn drop(&mut self) {
        // `free()` / `Symbol.dispose` / `using`: the connection ends with its owner.
        self.inner.close();
    }
}

#[cfg(feature = "worker")]
impl AgentClient {
    /// The store this client feeds (Worker mode: `worker_host` attaches its sink and hooks).
    pub(crate) fn store_handle(&self) -> AgentStore {
        self.inner.shared.store.handle()
    }
}
