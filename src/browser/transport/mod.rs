//! The transports behind `AgentClient`, one interface: each owns its listeners and closures
//! (removed on close/drop) and reports through [`Shared`]: the connection state, the store it
//! feeds, and the one pending wait that `close()` must be able to end.
//!
//! - [`fetch`]: fetch + `ReadableStream` SSE (the default): GET or POST, headers, credentials,
//!   resume with `Last-Event-ID`, backoff, idle detection.
//! - [`eventsource`]: the browser's `EventSource` (GET, `withCredentials`); it reconnects itself.
//! - [`websocket`]: text frames carrying JSON events; the app can send frames. MyAgent's
//!   session handshake, batched acks and reconnect with `last_seq` live in `myagent` (a module
//!   only in builds with the `websocket` feature).
//! - Without the `eventsource` / `websocket` features (an entry of one protocol), those two
//!   modules are `eventsource_off.rs` / `websocket_off.rs`: the transport option is refused.
//! - manual: no network; the app feeds `client.store`.
//!
//! AG-UI (a POST per run, answers as the next run's `resume`) is its own driver, [`ag_ui`],
//! on the fetch transport's request and body reader; so is the AI SDK chat (a POST per turn,
//! answers in the next POST, a GET to resume), [`ai_sdk`].
//!
//! Dialects ride on these: events are decoded by the session's dialect layer; A2A's JSON-RPC
//! requests (`message/stream`, `tasks/resubscribe`, answers) are the fetch loop's requests
//! ([`rpc`]).

#[cfg(feature = "a2a")]
pub mod a2a;
#[cfg(not(feature = "a2a"))]
#[path = "a2a_off.rs"]
pub mod a2a;
#[cfg(feature = "ag-ui")]
pub mod ag_ui;
#[cfg(not(feature = "ag-ui"))]
#[path = "ag_ui_off.rs"]
pub mod ag_ui;
#[cfg(feature = "ai-sdk")]
pub mod ai_sdk;
#[cfg(not(feature = "ai-sdk"))]
#[path = "ai_sdk_off.rs"]
pub mod ai_sdk;
#[cfg(feature = "eventsource")]
pub mod eventsource;
#[cfg(not(feature = "eventsource"))]
#[path = "eventsource_off.rs"]
pub mod eventsource;
pub mod fetch;
#[cfg(feature = "myagent")]
pub mod myagent;
#[cfg(all(feature = "websocket", not(feature = "myagent")))]
#[path = "myagent_off.rs"]
pub mod myagent;
pub mod rpc;
#[cfg(feature = "websocket")]
pub mod socket;
#[cfg(feature = "websocket")]
pub mod websocket;
#[cfg(not(feature = "websocket"))]
#[path = "websocket_off.rs"]
pub mod websocket;

use super::global::{now_ms, report_error, Wait};
use super::store::AgentStore;
#[cfg(feature = "a2a")]
use crate::client::agent_card::Interface;
#[cfg(feature = "a2a")]
use crate::dialects::a2a::{request_v1::Binding, Version};
use crate::dialects::{Dialect, DialectChoice};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

pub use crate::browser::options::stream::{StreamOptions, TransportKind};

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
    /// Time of the latest byte (idle detection; `performance.now()`).
    pub last_bytes_ms: f64,
    /// EventSource handle.
    pub es: Option<eventsource::EsHandle>,
    /// WebSocket handle.
    pub ws: Option<websocket::WsHandle>,
    /// Response headers of the first stream response (given to a resume function).
    pub first_headers: Option<web_sys::Headers>,
}

/// What a `ConnectionInfo` object was made of (state, reason, code, attempt), and the object.
type InfoKey = ((&'static str, String, Option<&'static str>, u32), JsValue);

/// What every transport shares with the client.
pub struct Shared {
    /// The store the stream feeds.
    pub store: AgentStore,
    /// The request.
    pub opts: StreamOptions,
    /// The state.
    pub conn: RefCell<Conn>,
    /// The last `info()` object and what it was made of (state, reason, code, attempt).
    info_cache: RefCell<Option<InfoKey>>,
    /// The pending backoff / online wait (also the fetch loop's wait for an answer).
    pub wait: RefCell<Option<Wait>>,
    /// The dialect layer still wants `Date.now()` before each chunk.
    clock: Cell<bool>,
    /// JSON-RPC requests the fetch loop sends next (A2A answers while it waits for one).
    pub calls: RefCell<VecDeque<rpc::Call>>,
    /// WebSocket frames (MyAgent answers, cancel, messages) waiting for the socket to reopen:
    /// sent in order once it is open, rejected with `closed` when the connection ends first
    /// ([`websocket::send_or_queue`]).
    pub frames: RefCell<VecDeque<rpc::Call>>,
    /// The fetch loop is waiting for an answer (an A2A task in `input-required`).
    pub awaiting_call: Cell<bool>,
    /// A transport loop is running (a finished A2A run restarts it for the next message).
    pub running: Cell<bool>,
    /// The fetch loop's current stream came from a JSON-RPC POST (it ends when its task waits
    /// for the user, so an answer is queued for the loop rather than POSTed beside it).
    pub rpc_stream: Cell<bool>,
    /// MyAgent: the `message` option went out as `user.message` (on whichever socket first
    /// knew the session).
    pub message_sent: Cell<bool>,
    /// MyAgent: when `user.message` last went out (`monotonic_ms`).
    pub message_at: Cell<f64>,
    /// AG-UI: the thread and the answers collected for its interrupts.
    pub ag_ui: ag_ui::Driver,
    /// AI SDK: the chat and the stop in progress.
    pub ai_sdk: ai_sdk::Driver,
    /// A2A: what the agent card said (its interface's URL, binding and version), once read.
    #[cfg(feature = "a2a")]
    pub card: RefCell<Option<Interface>>,
}

impl Shared {
    /// A new, idle connection.
    pub fn new(store: AgentStore, opts: StreamOptions) -> Shared {
        Shared {
            store,
            info_cache: RefCell::new(None),
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
            clock: Cell::new(opts.dialect != DialectChoice::Fixed(Dialect::Canonical)),
            calls: RefCell::new(VecDeque::new()),
            frames: RefCell::new(VecDeque::new()),
            awaiting_call: Cell::new(false),
            running: Cell::new(false),
            rpc_stream: Cell::new(false),
            message_sent: Cell::new(false),
            message_at: Cell::new(0.0),
            ag_ui: ag_ui::Driver::default(),
            ai_sdk: ai_sdk::Driver::default(),
            #[cfg(feature = "a2a")]
            card: RefCell::new(None),
            opts,
        }
    }

    /// Where the dialect's requests go: the agent card's interface once read, else the
    /// configured endpoint.
    pub fn rpc_url(&self) -> String {
        #[cfg(feature = "a2a")]
        if let Some(i) = &*self.card.borrow() {
            return i.url.clone();
        }
        self.opts.rpc_url.clone()
    }

    /// The A2A version and binding requests are written in: the agent card's, else the
    /// options'.
    #[cfg(feature = "a2a")]
    pub fn a2a_wire(&self) -> (Version, Binding) {
        match &*self.card.borrow() {
            Some(i) => (i.version, i.binding),
            None => (self.opts.a2a.version, self.opts.a2a.binding),
        }
    }

    /// Feeds network bytes (SSE) to the store; returns the number of SSE events dispatched.
    /// A dialect layer first gets `Date.now()` for its events without a timestamp.
    pub fn feed(&self, bytes: &[u8]) -> Result<u64, JsValue> {
        self.tick_clock();
        self.store.feed_network(bytes)
    }

    /// Applies one JSON event text (a WebSocket frame, a JSON-RPC response).
    pub fn push(&self, text: &str) -> Result<(), JsValue> {
        self.tick_clock();
        self.store.push_network(text)
    }

    fn tick_clock(&self) {
        if self.clock.get() {
            let now = now_ms() as i64;
            let on = self
                .store
                .with_session_mut(|s| s.set_now_ms(Some(now)))
                .unwrap_or(false);
            self.clock.set(on);
        }
    }

    /// The dialect being read (`None` while `auto` has not seen a telling event).
    pub fn dialect(&self) -> Option<Dialect> {
        self.store.with_session(|s| s.dialect()).ok().flatten()
    }

    /// `true` once the connection ended (closed or failed) for good.
    pub fn ended(&self) -> bool {
        self.conn.try_borrow().map(|c| c.ended).unwrap_or(true) || self.store.is_closed()
    }

    /// The state as a JS object `{state, reason, code?, attempt}`.
    pub fn info(&self) -> JsValue {
        let Ok(c) = self.conn.try_borrow() else {
            return js_sys::Object::freeze(&js_sys::Object::new()).into();
        };
        // The same object until something in it changed (a `useSyncExternalStore` snapshot).
        let key = (c.state, c.reason.clone(), c.code, c.attempt);
        if let Some((k, v)) = &*self.info_cache.borrow() {
            if *k == key {
                return v.clone();
            }
        }
        let o = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), &v);
        };
        set("state", JsValue::from_str(c.state));
        set("reason", JsValue::from_str(&c.reason));
        if let Some(code) = c.code {
            set("code", JsValue::from_str(code));
        }
        set("attempt", JsValue::from_f64(c.attempt as f64));
        let v: JsValue = js_sys::Object::freeze(&o).into();
        *self.info_cache.borrow_mut() = Some((key, v.clone()));
        v
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
        let mut calls: Vec<rpc::Call> = match self.calls.try_borrow_mut() {
            Ok(mut q) => q.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        if let Ok(mut q) = self.frames.try_borrow_mut() {
            calls.extend(q.drain(..));
        }
        for c in calls {
            c.settle(Err(super::error::js_error(
                "closed",
                &format!("the connection ended before the request was sent: {reason}"),
            )));
        }
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
            self.give_up(n - 1, reason);
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
                crate::json::Num(delay.round())
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

    /// Ends the connection `failed` with code `gave-up` after `made` failed attempts in a row:
    /// the final state's `attempt` says how many were made (a socket or response that opened
    /// in between showed 0 while it was open).
    pub fn give_up(&self, made: u32, reason: &str) {
        if let Ok(mut c) = self.conn.try_borrow_mut() {
            if !c.ended {
                c.attempt = made;
            }
        }
        self.shutdown(
            FAILED,
            &format!("{reason}; gave up after {made} attempts"),
            Some("gave-up"),
        );
    }

    /// `true` when every root task reached a terminal state (no more events expected).
    pub fn run_finished(&self) -> bool {
        // A new A2A message/stream whose task has not shown up yet: its run is still to come.
        if a2a::awaits_stream_task(self) {
            return false;
        }
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
        TransportKind::Fetch => spawn_fetch(sh, None),
        TransportKind::WebSocket => {
            let sh = sh.clone();
            wasm_bindgen_futures::spawn_local(async move { websocket::run(sh).await });
        }
        TransportKind::EventSource => eventsource::open(sh),
        TransportKind::Manual => sh.set_state(OPEN, "manual source: the app feeds the store", None),
    }
}

fn spawn_fetch(sh: &Rc<Shared>, first: Option<rpc::Call>) {
    let sh = sh.clone();
    sh.running.set(true);
    wasm_bindgen_futures::spawn_local(async move {
        if ag_ui::drives(&sh) {
            ag_ui::run(sh.clone(), first).await;
        } else if ai_sdk::drives(&sh) {
            ai_sdk::run(sh.clone(), first).await;
        } else {
            fetch::run(sh.clone(), first).await;
        }
        sh.running.set(false);
    });
}

/// Starts the fetch loop again with `call` as its first request, after the connection ended
/// because the run finished (A2A: the next message of the conversation). `false` when the
/// client was closed, or another loop still runs.
pub fn restart_with(sh: &Rc<Shared>, call: rpc::Call) -> Result<(), rpc::Call> {
    if sh.store.is_closed() || sh.running.get() || sh.opts.transport != TransportKind::Fetch {
        return Err(call);
    }
    {
        let Ok(mut c) = sh.conn.try_borrow_mut() else {
            return Err(call);
        };
        c.ended = false;
        c.started = true;
        c.attempt = 0;
    }
    spawn_fetch(sh, Some(call));
    Ok(())
}
