//! The transports behind `AgentClient`, one interface: each owns its listeners and closures
//! (removed on close/drop) and reports through [`Shared`]: the connection state, the store it
//! feeds, and the one pending wait that `close()` must be able to end.
//!
//! - [`fetch`]: fetch + `ReadableStream` SSE (the default): GET or POST, headers, credentials,
//!   resume with `Last-Event-ID`, backoff, idle detection.
//! - [`eventsource`]: the browser's `EventSource` (GET, `withCredentials`); it reconnects itself.
//! - [`websocket`]: text frames carrying JSON events; the app can send frames.
//! - manual: no network; the app feeds `client.store`.

pub mod eventsource;
pub mod fetch;
pub mod websocket;

use super::global::{report_error, Wait};
use super::store::AgentStore;
use crate::client::reconnect::ReconnectPolicy;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Which transport a client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// fetch + ReadableStream SSE.
    Fetch,
    /// `EventSource`.
    EventSource,
    /// `WebSocket`.
    WebSocket,
    /// The app feeds the store.
    Manual,
}

/// The stream request and reconnection settings (read once from the client options).
pub struct StreamOptions {
    /// The stream URL.
    pub url: String,
    /// The transport.
    pub transport: TransportKind,
    /// `GET` or `POST`.
    pub method: String,
    /// The JSON body of a POST.
    pub body: Option<String>,
    /// Extra request headers (e.g. `Authorization`).
    pub headers: Vec<(String, String)>,
    /// `omit` / `same-origin` / `include`.
    pub credentials: Option<String>,
    /// Resume request of a POSTed stream: a URL, or a function returning one.
    pub resume: Option<JsValue>,
    /// Backoff.
    pub policy: ReconnectPolicy,
    /// Reconnect when no byte arrived for this long (ms); 0 = never.
    pub idle_timeout_ms: f64,
    /// WebSocket subprotocols.
    pub protocols: Vec<String>,
}

/// Connection state names.
pub const IDLE: &str = "idle";
/// Opening the first connection.
pub const CONNECTING: &str = "connecting";
/// Receiving.
pub const OPEN: &str = "open";
/// Waiting to reconnect (or reconnecting).
pub const RECONNECTING: &str = "reconnecting";
/// Ended normally (run finished, 204, or `close()`).
pub const CLOSED: &str = "closed";
/// Ended with an error (`code` says which).
pub const FAILED: &str = "failed";

/// The observable connection state.
pub struct Conn {
    /// One of the state names above.
    pub state: &'static str,
    /// Why, for a person.
    pub reason: String,
    /// Stable error code when `failed` (or the last retryable error while reconnecting).
    pub code: Option<&'static str>,
    /// Reconnect attempt (0 while open).
    pub attempt: u32,
    /// `connect()` was called.
    pub started: bool,
    /// `close()` was called or the connection ended for good.
    pub ended: bool,
    next_id: u32,
    listeners: Vec<(u32, js_sys::Function)>,
    /// The in-flight fetch's controller (aborted by close and idle detection).
    pub abort: Option<web_sys::AbortController>,
    /// Set when idle detection aborted the fetch.
    pub idle_fired: bool,
    /// Time of the latest byte (idle detection).
    pub last_bytes_ms: f64,
    /// EventSource handle.
    pub es: Option<eventsource::EsHandle>,
    /// WebSocket handle.
    pub ws: Option<websocket::WsHandle>,
    /// Response headers of the first stream response (given to a resume function).
    pub first_headers: Option<web_sys::Headers>,
}

/// What every transport shares with the client.
pub struct Shared {
    /// The store the stream feeds.
    pub store: AgentStore,
    /// The request.
    pub opts: StreamOptions,
    /// The state.
    pub conn: RefCell<Conn>,
    /// The pending backoff / online wait.
    pub wait: RefCell<Option<Wait>>,
}

impl Shared {
    /// A new, idle connection.
    pub fn new(store: AgentStore, opts: StreamOptions) -> Shared {
        Shared {
            store,
            opts,
            conn: RefCell::new(Conn {
                state: IDLE,
                reason: "not connected yet".into(),
                code: None,
                attempt: 0,
                started: false,
                ended: false,
                next_id: 0,
                listeners: Vec::new(),
                abort: None,
                idle_fired: false,
                last_bytes_ms: 0.0,
                es: None,
                ws: None,
                first_headers: None,
            }),
            wait: RefCell::new(None),
        }
    }

    /// `true` once the connection ended (closed or failed) for good.
    pub fn ended(&self) -> bool {
        self.conn.try_borrow().map(|c| c.ended).unwrap_or(true) || self.store.is_closed()
    }

    /// The state as a JS object `{state, reason, code?, attempt}`.
    pub fn info(&self) -> JsValue {
        let o = js_sys::Object::new();
        if let Ok(c) = self.conn.try_borrow() {
            let set = |k: &str, v: JsValue| {
                let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), &v);
            };
            set("state", JsValue::from_str(c.state));
            set("reason", JsValue::from_str(&c.reason));
            if let Some(code) = c.code {
                set("code", JsValue::from_str(code));
            }
            set("attempt", JsValue::from_f64(c.attempt as f64));
        }
        js_sys::Object::freeze(&o).into()
    }

    /// Changes the state and notifies listeners (after the borrow is released). A `closed` or
    /// `failed` state is final: later changes are ignored.
    pub fn set_state(&self, state: &'static str, reason: &str, code: Option<&'static str>) {
        let listeners: Vec<js_sys::Function> = {
            let Ok(mut c) = self.conn.try_borrow_mut() else {
                return;
            };
            if c.ended {
                return;
            }
            if c.state == state && c.reason == reason && c.code == code {
                return;
            }
            c.state = state;
            c.reason = reason.to_owned();
            c.code = code;
            if state == CLOSED || state == FAILED {
                c.ended = true;
            }
            if state == OPEN {
                c.attempt = 0;
            }
            c.listeners.iter().map(|(_, f)| f.clone()).collect()
        };
        if listeners.is_empty() {
            return;
        }
        let info = self.info();
        for f in listeners {
            if let Err(e) = f.call1(&JsValue::NULL, &info) {
                report_error(&e);
            }
        }
    }

    /// Adds a state listener; returns its id.
    pub fn add_listener(&self, f: js_sys::Function) -> u32 {
        let mut c = self.conn.borrow_mut();
        c.next_id += 1;
        let id = c.next_id;
        c.listeners.push((id, f));
        id
    }

    /// Removes a state listener.
    pub fn remove_listener(&self, id: u32) {
        if let Ok(mut c) = self.conn.try_borrow_mut() {
            c.listeners.retain(|(x, _)| *x != id);
        }
    }

    /// Number of state listeners (leak checks).
    pub fn listener_count(&self) -> usize {
        self.conn
            .try_borrow()
            .map(|c| c.listeners.len())
            .unwrap_or(0)
    }

    /// Ends the connection: aborts the fetch, closes the EventSource / WebSocket (removing
    /// their listeners), cancels the pending wait. `state`/`reason`/`code` become final.
    pub fn shutdown(&self, state: &'static str, reason: &str, code: Option<&'static str>) {
        self.set_state(state, reason, code);
        let (abort, es, ws) = match self.conn.try_borrow_mut() {
            Ok(mut c) => {
                c.ended = true;
                (c.abort.take(), c.es.take(), c.ws.take())
            }
            Err(_) => (None, None, None),
        };
        if let Some(a) = abort {
            a.abort();
        }
        drop(es);
        drop(ws);
        if let Ok(mut w) = self.wait.try_borrow_mut() {
            if let Some(w) = w.take() {
                w.cancel();
            }
        }
    }

    /// Removes every state listener (client close).
    pub fn clear_listeners(&self) {
        if let Ok(mut c) = self.conn.try_borrow_mut() {
            c.listeners.clear();
        }
    }

    /// One reconnect step shared by the fetch and WebSocket loops: counts the attempt (reset
    /// when the failed connection had delivered events), gives up with `gave-up` past
    /// `maxAttempts`, else shows `reconnecting`, waits the backoff delay (the server's `retry:`
    /// as base, `Retry-After` as a floor) and, while offline, the `online` event. Returns
    /// `false` when the loop must stop.
    pub async fn back_off(
        &self,
        attempt: &mut u32,
        delivered: bool,
        reason: &str,
        server_retry_ms: Option<f64>,
        retry_after_ms: Option<f64>,
    ) -> bool {
        if delivered {
            *attempt = 0;
        }
        *attempt += 1;
        let n = *attempt;
        let policy = &self.opts.policy;
        if n > policy.max_attempts {
            self.shutdown(
                FAILED,
                &format!("{reason}; gave up after {} attempts", n - 1),
                Some("gave-up"),
            );
            return false;
        }
        let delay = policy.delay_ms(n, server_retry_ms, retry_after_ms, js_sys::Math::random());
        if let Ok(mut c) = self.conn.try_borrow_mut() {
            c.attempt = n;
        }
        self.set_state(
            RECONNECTING,
            &format!(
                "{reason}; reconnecting in {} ms (attempt {n})",
                delay.round()
            ),
            None,
        );
        super::global::wait(&self.wait, delay, false).await;
        while !self.ended() && !super::global::online() {
            self.set_state(RECONNECTING, "offline; waiting for the network", None);
            super::global::wait(&self.wait, 0.0, true).await;
        }
        !self.ended()
    }

    /// `true` when every root task reached a terminal state (no more events expected).
    pub fn run_finished(&self) -> bool {
        self.store
            .with_session(|s| crate::client::run_finished(s.store()))
            .unwrap_or(false)
    }
}

/// Starts the transport (once).
pub fn start(sh: &Rc<Shared>) {
    {
        let mut c = sh.conn.borrow_mut();
        if c.started || c.ended {
            return;
        }
        c.started = true;
    }
    // Observable at once: the constructor returns with the state `connecting`.
    if sh.opts.transport != TransportKind::Manual {
        sh.set_state(CONNECTING, "connecting", None);
    }
    match sh.opts.transport {
        TransportKind::Fetch => {
            let sh = sh.clone();
            wasm_bindgen_futures::spawn_local(async move { fetch::run(sh).await });
        }
        TransportKind::WebSocket => {
            let sh = sh.clone();
            wasm_bindgen_futures::spawn_local(async move { websocket::run(sh).await });
        }
        TransportKind::EventSource => eventsource::open(sh),
        TransportKind::Manual => sh.set_state(OPEN, "manual source: the app feeds the store", None),
    }
}
