//! The browser's `EventSource` as a transport (GET; `withCredentials`).
//!
//! The browser parses the stream and reconnects by itself (sending `Last-Event-ID`, at its own
//! pace), at most `reconnect.maxAttempts` times in a row without a message (`reconnect: false`:
//! never), then the state is `failed` with code `gave-up`; each
//! message is re-framed as SSE and fed to the store with its id, so replayed events are
//! recognised. `EventSource` hides HTTP statuses: when it gives up (an HTTP error status, a
//! wrong content type, a 204) agentwire asks the same URL once more with `fetch` (GET, the same
//! credentials mode, `Accept: text/event-stream`; the body is not read) to learn the status,
//! and then does what the fetch transport does with it ([`classify_response`]): 408, 429 and
//! most 5xx are retried with the reconnect policy (a new `EventSource`, `Retry-After` as a
//! floor), 401/403 fail `unauthorized`, other errors `http-error`, a wrong type
//! `bad-content-type`, 204 closes. When that request fails too (CORS, network), the state is
//! `failed` with code `connect-failed` and a reason saying the browser hid the status. When the stream ends
//! and every root task is terminal the source is closed, so the browser does not reconnect to
//! a finished run.

use super::{Shared, CLOSED, FAILED, OPEN, RECONNECTING};
use crate::browser::global::{fetch_request, now_ms};
use crate::client::reconnect::{classify_response, ResponseVerdict};
use crate::events::KINDS;
use std::cell::Cell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Every listener takes a `JsValue` (one closure type with `Closure<dyn FnMut(JsValue)>` of the
/// rest of the glue: each distinct type costs its own wasm and JS shims).
type Listener = Closure<dyn FnMut(JsValue)>;

/// An open `EventSource` and the listeners added to it; dropping it closes the source and
/// removes every listener.
pub struct EsHandle {
    source: web_sys::EventSource,
    listeners: Vec<(String, Listener)>,
}

impl Drop for EsHandle {
    fn drop(&mut self) {
        self.source.close();
        for (name, cb) in self.listeners.drain(..) {
            let _ = self
                .source
                .remove_event_listener_with_callback(&name, cb.as_ref().unchecked_ref());
        }
    }
}

/// Re-frames one message as SSE bytes (id, event type, data lines) for the store's parser.
pub fn reframe(event_type: &str, id: &str, data: &str) -> String {
    let mut s = String::with_capacity(data.len() + event_type.len() + id.len() + 24);
    if !id.is_empty() && !id.contains(['\n', '\r']) {
        s.push_str("id: ");
        s.push_str(id);
        s.push('\n');
    }
    s.push_str("event: ");
    s.push_str(event_type);
    s.push('\n');
    for line in data.split('\n') {
        s.push_str("data: ");
        s.push_str(line);
        s.push('\n');
    }
    s.push('\n');
    s
}

/// Opens the source; on failure the connection is `failed` with code `connect-failed`.
pub fn open(sh: &Rc<Shared>) {
    match open_inner(sh) {
        Ok(h) => {
            if let Ok(mut c) = sh.conn.try_borrow_mut() {
                c.es = Some(h);
            }
        }
        Err(e) => sh.shutdown(FAILED, &e, Some("connect-failed")),
    }
}

fn open_inner(sh: &Rc<Shared>) -> Result<EsHandle, String> {
    let init = web_sys::EventSourceInit::new();
    init.set_with_credentials(sh.opts.credentials.as_deref() == Some("include"));
    let source = web_sys::EventSource::new_with_event_source_init_dict(&sh.opts.url, &init)
        .map_err(|e| {
            format!(
                "cannot open EventSource: {}",
                e.as_string().unwrap_or_default()
            )
        })?;
    let mut h = EsHandle {
        source,
        listeners: Vec::new(),
    };
    // The protocol names events by kind (internal ones without their prefix): one listener per
    // distinct name, plus "message" for streams that send no event field.
    let names = crate::sorted::sorted_unique(
        KINDS
            .iter()
            .map(|k| k.strip_prefix("internal:").unwrap_or(k).to_owned())
            .chain(std::iter::once("message".to_owned())),
    );
    let weak: Weak<Shared> = Rc::downgrade(sh);
    // The browser reconnects by itself; `reconnect.maxAttempts` (0 for `reconnect: false`)
    // still bounds it: (attempts since the last delivered message, a message arrived).
    let tries = Rc::new((Cell::new(0u32), Cell::new(false)));
    for name in names {
        let w = weak.clone();
        let t = tries.clone();
        let event_type = name.clone();
        let cb: Listener = Closure::new(move |e: JsValue| {
            let Some(sh) = w.upgrade() else { return };
            let Some(m) = e.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            t.1.set(true);
            let data = m.data().as_string().unwrap_or_default();
            let framed = reframe(&event_type, &m.last_event_id(), &data);
            let _ = sh.feed(framed.as_bytes());
        });
        h.add(&name, cb)?;
    }
    let w = weak.clone();
    h.add(
        "open",
        Closure::new(move |_e: JsValue| {
            if let Some(sh) = w.upgrade() {
                sh.set_state(OPEN, "receiving", None);
            }
        }),
    )?;
    let w = weak;
    h.add(
        "error",
        Closure::new(move |e: JsValue| {
            let Some(sh) = w.upgrade() else { return };
            let closed = e
                .unchecked_ref::<web_sys::Event>()
                .target()
                .and_then(|t| t.dyn_into::<web_sys::EventSource>().ok())
                .is_some_and(|s| s.ready_state() == web_sys::EventSource::CLOSED);
            if closed {
                // Close it now (its listeners go with it), then learn why it gave up.
                if let Ok(mut c) = sh.conn.try_borrow_mut() {
                    drop(c.es.take());
                }
                wasm_bindgen_futures::spawn_local(after_give_up(sh));
            } else if sh.run_finished() {
                // The server ended the stream of a finished run: do not let the browser
                // reconnect to it.
                let _ = sh.store.finish();
                sh.shutdown(CLOSED, "the run finished", None);
            } else {
                let _ = sh.store.reset_stream();
                let (attempts, delivered) = &*tries;
                let n = if delivered.replace(false) {
                    1
                } else {
                    attempts.get() + 1
                };
                attempts.set(n);
                if n > sh.opts.policy.max_attempts {
                    sh.give_up(n - 1, "connection lost");
                    return;
                }
                if let Ok(mut c) = sh.conn.try_borrow_mut() {
                    c.attempt = n;
                }
                sh.set_state(
                    RECONNECTING,
                    &format!("connection lost; the browser reconnects (attempt {n})"),
                    None,
                );
            }
        }),
    )?;
    Ok(h)
}

/// What the browser's `EventSource` does not say when it gives up.
const HIDDEN: &str = "the EventSource gave up, and the browser does not say why (an HTTP error \
status, a wrong content type or 204 look the same)";

/// The status of the stream URL, asked with `fetch` (the body is not read): `Err` with why
/// when that request failed too.
async fn probe(sh: &Shared) -> Result<(u16, Option<String>, Option<String>), String> {
    let init = web_sys::RequestInit::new();
    init.set_method("GET");
    init.set_credentials(if sh.opts.credentials.as_deref() == Some("include") {
        web_sys::RequestCredentials::Include
    } else {
        web_sys::RequestCredentials::SameOrigin
    });
    let headers = web_sys::Headers::new().map_err(|e| super::fetch::js_message(&e))?;
    let _ = headers.set("Accept", "text/event-stream");
    init.set_headers(&headers);
    let abort = web_sys::AbortController::new().ok();
    if let Some(a) = &abort {
        init.set_signal(Some(&a.signal()));
    }
    let req = web_sys::Request::new_with_str_and_init(&sh.opts.url, &init)
        .map_err(|e| super::fetch::js_message(&e))?;
    let resp = wasm_bindgen_futures::JsFuture::from(fetch_request(&req))
        .await
        .map_err(|e| super::fetch::js_message(&e))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| "fetch did not return a Response".to_owned())?;
    let h = resp.headers();
    let out = (
        resp.status(),
        h.get("content-type").ok().flatten(),
        h.get("retry-after").ok().flatten(),
    );
    if let Some(a) = abort {
        a.abort();
    }
    Ok(out)
}

/// The `EventSource` gave up: asks for the status and ends, retries or closes as the fetch
/// transport would for it.
async fn after_give_up(sh: Rc<Shared>) {
    if sh.ended() {
        return;
    }
    let probed = probe(&sh).await;
    if sh.ended() {
        return;
    }
    let (status, ct, retry_after) = match probed {
        Ok(p) => p,
        Err(e) => {
            sh.shutdown(
                FAILED,
                &format!("{HIDDEN}; a fetch of the same URL to learn the status failed: {e}"),
                Some("connect-failed"),
            );
            return;
        }
    };
    let learned = format!("the EventSource gave up; the same URL answers HTTP {status} (asked with fetch: EventSource hides the status)");
    let (reason, retry_after_ms) =
        match classify_response(status, ct.as_deref(), retry_after.as_deref(), now_ms()) {
            ResponseVerdict::Stop => {
                sh.shutdown(
                    CLOSED,
                    &format!("{learned}: 204 No Content, not reconnecting"),
                    None,
                );
                return;
            }
            ResponseVerdict::Fail { code, message } => {
                sh.shutdown(FAILED, &format!("{learned}: {message}"), Some(code));
                return;
            }
            ResponseVerdict::Retry {
                reason,
                retry_after_ms,
            } => (format!("{learned} ({reason})"), retry_after_ms),
            // It streams now: the failure was passing.
            ResponseVerdict::Open => (learned, None),
        };
    let mut attempt = sh.conn.try_borrow().map(|c| c.attempt).unwrap_or(0);
    if sh
        .back_off(&mut attempt, false, &reason, None, retry_after_ms)
        .await
    {
        open(&sh);
    }
}

impl EsHandle {
    fn add(&mut self, name: &str, cb: Listener) -> Result<(), String> {
        self.source
            .add_event_listener_with_callback(name, cb.as_ref().unchecked_ref())
            .map_err(|_| format!("cannot listen to {}", crate::json::Quoted(name)))?;
        self.listeners.push((name.to_owned(), cb));
        Ok(())
    }
}
